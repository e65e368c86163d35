/* eddi_cli.c - the embedded front end: eddi [--root DIR] [-c CMD]... [SCRIPT]
 *
 * Runs commands given with -c, else the lines of SCRIPT, else the lines of
 * standard input (a prompt when it is a terminal), each line as one message,
 * and prints one reply per command. Exits 1 when any command failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eddi.h"

#define CLI_PROMPT "To Eddi: "
#define CLI_REPLY_PREFIX "Eddi : "

static void cli__usage(FILE *out) {
  fputs("usage: eddi [--root DIR] [--sender NAME] [-c COMMAND]... [SCRIPT]\n"
        "Runs EddiSpeak commands against the files under DIR (default: the current\n"
        "folder): each -c COMMAND, else each line of SCRIPT, else each line of\n"
        "standard input. Prints one reply per command; exits 1 if any failed.\n"
        "Start with: Start <session>, then Open <file>. 'Help' lists the commands.\n",
        out);
}

/* Run one message and print its replies; false when one of them failed. */
static bool cli__run(EddiEngine *engine, const char *sender, const char *text, size_t len,
                     bool interactive) {
  EddiReply reply;
  eddi_exec_reply(engine, sender, text, len, &reply);
  bool ok = true;
  for (size_t i = 0; i < reply.count; i++) {
    printf("%s%s\n", interactive ? CLI_REPLY_PREFIX : "", reply.items[i].text);
    ok &= reply.items[i].ok;
  }
  eddi_reply_free(&reply);
  fflush(stdout);
  return ok;
}

/* Each line of in is one message; blank and '#' lines are skipped. */
static bool cli__run_stream(EddiEngine *engine, const char *sender, FILE *in, bool interactive) {
  bool ok = true;
  char *line = NULL;
  size_t cap = 0;
  for (;;) {
    if (interactive) fputs(CLI_PROMPT, stdout), fflush(stdout);
    ssize_t n = getline(&line, &cap, in);
    if (n < 0) break;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '#') continue;
    ok &= cli__run(engine, sender, line, (size_t)n, interactive);
  }
  if (interactive) fputc('\n', stdout);
  free(line);
  return ok;
}

int main(int argc, char **argv) {
  const char *root = ".", *sender = "cli", *script = NULL;
  const char **commands = calloc((size_t)argc, sizeof *commands);
  size_t command_count = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if ((!strcmp(arg, "--root") || !strcmp(arg, "--sender") || !strcmp(arg, "-c")) &&
        i + 1 >= argc) {
      fprintf(stderr, "eddi: %s needs a value\n", arg);
      return 2;
    }
    if (!strcmp(arg, "--root")) root = argv[++i];
    else if (!strcmp(arg, "--sender")) sender = argv[++i];
    else if (!strcmp(arg, "-c")) commands[command_count++] = argv[++i];
    else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) return cli__usage(stdout), 0;
    else if (!strcmp(arg, "--version")) return puts("eddi " EDDI_VERSION), 0;
    else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "eddi: unknown option %s\n", arg);
      cli__usage(stderr);
      return 2;
    } else if (!script) script = arg;
    else {
      fprintf(stderr, "eddi: one script at a time (got %s and %s)\n", script, arg);
      return 2;
    }
  }
  char error[512];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  if (!engine) {
    fprintf(stderr, "eddi: %s\n", error);
    return 2;
  }
  bool ok = true;
  if (command_count) {
    for (size_t i = 0; i < command_count; i++)
      ok &= cli__run(engine, sender, commands[i], strlen(commands[i]), false);
  } else if (script) {
    FILE *in = fopen(script, "r");
    if (!in) {
      fprintf(stderr, "eddi: %s: %s\n", script, strerror(errno));
      eddi_engine_free(engine);
      return 2;
    }
    ok = cli__run_stream(engine, sender, in, false);
    fclose(in);
  } else {
    bool interactive = isatty(STDIN_FILENO);
    if (interactive)
      printf("eddi %s on %s. Start <session>, then Open <file>; Help lists commands.\n",
             EDDI_VERSION, eddi_engine_root(engine));
    ok = cli__run_stream(engine, sender, stdin, interactive);
  }
  eddi_engine_free(engine);
  free(commands);
  return ok ? 0 : 1;
}
