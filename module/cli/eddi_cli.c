/* eddi_cli.c - the eddi program: eddi [--root DIR] [--nats URL] [-c CMD]... [SCRIPT]
 *
 * Runs commands given with -c, else the lines of SCRIPT, else the lines of
 * standard input (a prompt when it is a terminal), each line as one message
 * (a block of a script, `{` on one line to its `}` on a later one, as one
 * message), and prints one reply per command. "-" reads all of standard input as one
 * message, so a body can be piped: { echo Patch; cat fix.patch; } | eddi -.
 * Exits 1 when any command failed. The
 * messages go to an embedded engine over DIR, or with --nats to an
 * eddi-server (cli_nats.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_nats.h"
#include "eddi.h"

#define CLI_PROMPT "To Eddi: "
/* The prompt for the next line of a block still open. */
#define CLI_CONTINUE_PROMPT "      | "
#define CLI_REPLY_PREFIX "Eddi : "
#define CLI_NATS_TIMEOUT_MS 10000
/* Room for why the engine or the connection could not be made; eddi.h asks
 * for at least 256 bytes. */
#define CLI_ERROR_MAX 512
/* What "-" reads standard input into first; it doubles as needed (the
 * engine refuses a message past its own limit). */
#define CLI_STDIN_CHUNK 65536
/* A reply line over NATS that failed starts with this. */
#define CLI_FAIL_PREFIX "Fail"

/* Where messages go: the embedded engine, or an eddi-server over NATS. */
typedef struct {
  EddiEngine *engine;
  CliNats *nats;
  const char *sender;
} CliTarget;

static void cli__usage(FILE *out) {
  fputs("usage: eddi [--root DIR] [--nats URL [--state DIR] [--credentials FILE]]\n"
        "            [--sender NAME] [--no-journal] [--no-lsp | --lsp LANG=COMMAND]...\n"
        "            [--lsp-deadline MS] [--lsp-trust-workspace] [-c COMMAND]... [SCRIPT | -]\n"
        "Runs EddiSpeak commands against the files under DIR (default: the current\n"
        "folder), or sends them to an eddi-server at the NATS URL (with the credentials\n"
        "FILE, or those eddi-server left in DIR's state folder for that URL): each -c COMMAND,\n"
        "else each line of SCRIPT, else each line of standard input; with -, all\n"
        "of standard input as one message (a command and its body). Prints one\n"
        "reply per command; exits 1 if any failed.\n"
        "The sender's session is kept in the workspace's journal (in --state DIR, default\n"
        "$XDG_STATE_HOME/eddi/<workspace id>), so the next eddi on DIR finds it again;\n"
        "--no-journal keeps it in memory only.\n"
        "Language servers found on PATH (clangd, pyright-langserver,\n"
        "typescript-language-server) are used by Validate; --lsp LANG=COMMAND names\n"
        "another for one language, --no-lsp uses none, --lsp-deadline MS is how long\n"
        "a server may take to answer (default 20000). DIR's .eddi/lsp.conf may name\n"
        "servers too (LANG=COMMAND, LANG=off); its commands run only with\n"
        "--lsp-trust-workspace.\n"
        "Start with: Start <session>, then Open <file>. 'Help' lists the commands.\n",
        out);
}

/* Run one message and print its replies; false when one of them failed. */
static bool cli__run(CliTarget *target, const char *text, size_t len, bool interactive) {
  const char *prefix = interactive ? CLI_REPLY_PREFIX : "";
  bool ok = true;
  if (target->nats) {
    char error[CLI_ERROR_MAX];
    char *reply = cli_nats_request(target->nats, target->sender, text, len, error, sizeof error);
    if (!reply) {
      fprintf(stderr, "eddi: %s\n", error);
      return false;
    }
    /* The reply is the engine's text, one line per command. */
    for (char *line = reply, *next; line; line = next) {
      next = strchr(line, '\n');
      if (next) *next++ = '\0';
      printf("%s%s\n", prefix, line);
      ok &= strncmp(line, CLI_FAIL_PREFIX, strlen(CLI_FAIL_PREFIX)) != 0;
    }
    free(reply);
  } else {
    EddiReply reply;
    eddi_exec_reply(target->engine, target->sender, text, len, &reply);
    for (size_t i = 0; i < reply.count; i++) {
      printf("%s%s\n", prefix, reply.items[i].text);
      ok &= reply.items[i].ok;
    }
    eddi_reply_free(&reply);
  }
  fflush(stdout);
  return ok;
}

/* All of in as one message (a body command and its body). */
static bool cli__run_whole(CliTarget *target, FILE *in) {
  size_t cap = CLI_STDIN_CHUNK, len = 0;
  char *text = malloc(cap);
  for (size_t n; text && (n = fread(text + len, 1, cap - len, in)) > 0;) {
    len += n;
    if (len < cap) continue;
    char *more = realloc(text, cap *= 2);
    if (!more) free(text);
    text = more;
  }
  if (!text) {
    fputs("eddi: out of memory reading standard input\n", stderr);
    return false;
  }
  bool ok = cli__run(target, text, len, false);
  free(text);
  return ok;
}

/* The lines of one message being read: one line, or a block's lines. */
typedef struct {
  char *text;
  size_t len, cap;
  size_t first_line; /* 1-based, in the input */
} CliMessage;

static bool cli__message_add(CliMessage *self, const char *line, size_t len) {
  size_t need = self->len + len + 2; /* a newline between lines, a NUL */
  if (need > self->cap) {
    size_t cap = self->cap ? self->cap : CLI_STDIN_CHUNK;
    while (cap < need) cap *= 2;
    char *more = realloc(self->text, cap);
    if (!more) return false;
    self->text = more;
    self->cap = cap;
  }
  if (self->len) self->text[self->len++] = '\n';
  memcpy(self->text + self->len, line, len);
  self->len += len;
  self->text[self->len] = '\0';
  return true;
}

/* Each line of in is one message, but a line that opens a block ({) of a
 * script goes on through the lines up to the one that closes it, as the
 * design writes blocks (eddi_message_open_block: braces in strings do not
 * count). Blank and '#' lines between messages are skipped. A block the
 * input never closes is refused, naming its first line, and none of it runs. */
static bool cli__run_stream(CliTarget *target, FILE *in, bool interactive) {
  bool ok = true;
  char *line = NULL;
  size_t cap = 0, line_number = 0;
  CliMessage message = {0};
  for (;;) {
    if (interactive) fputs(message.len ? CLI_CONTINUE_PROMPT : CLI_PROMPT, stdout), fflush(stdout);
    ssize_t n = getline(&line, &cap, in);
    if (n < 0) break;
    line_number++;
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (!message.len && (!*p || *p == '#')) continue;
    if (!message.len) message.first_line = line_number;
    if (!cli__message_add(&message, line, (size_t)n)) {
      fputs("eddi: out of memory reading a block\n", stderr);
      message.len = 0;
      ok = false;
      break;
    }
    if (eddi_message_open_block(message.text, message.len)) continue;
    ok &= cli__run(target, message.text, message.len, interactive);
    message.len = 0;
  }
  if (message.len) {
    char fail[CLI_ERROR_MAX];
    eddi_fail_line(fail, sizeof fail, "The block opened on line %zu is not closed: a '}' is missing",
                   message.first_line);
    printf("%s%s\n", interactive ? CLI_REPLY_PREFIX : "", fail);
    ok = false;
  }
  if (interactive) fputc('\n', stdout);
  free(message.text);
  free(line);
  return ok;
}

/* The embedded engine over root; with journal, the sender's session of the
 * last eddi on root comes back (what recovery did goes to stderr). */
static EddiEngine *cli__engine(const char *root, const char *state, bool journal,
                               const EddiConfig *lsp, char *error, size_t error_size) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = state;
  config.lsp_off = lsp->lsp_off;
  config.lsp_commands = lsp->lsp_commands;
  if (lsp->lsp_deadline_ms) config.lsp_deadline_ms = lsp->lsp_deadline_ms;
  config.lsp_trust_workspace = lsp->lsp_trust_workspace;
  EddiEngine *engine = eddi_engine_new(root, &config, error, error_size);
  if (!engine || !journal) return engine;
  char report[CLI_ERROR_MAX * 4];
  if (eddi_engine_open_journal(engine, report, sizeof report, error, error_size) < 0) {
    eddi_engine_free(engine);
    return NULL;
  }
  if (report[0]) fprintf(stderr, "eddi: %s\n", report);
  return engine;
}

int main(int argc, char **argv) {
  const char *root = ".", *sender = "cli", *script = NULL, *nats_url = NULL, *state = NULL,
             *credentials = NULL;
  bool whole_stdin = false; /* "-": all of stdin is one message */
  bool journal = true;      /* --no-journal: a session lives as long as this process */
  const char **commands = calloc((size_t)argc, sizeof *commands);
  size_t command_count = 0;
  /* --no-lsp, --lsp (its values joined by newlines), --lsp-deadline,
   * --lsp-trust-workspace. */
  EddiConfig lsp = {0};
  char *lsp_commands = NULL;
  size_t lsp_len = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if ((!strcmp(arg, "--root") || !strcmp(arg, "--sender") || !strcmp(arg, "-c") ||
         !strcmp(arg, "--nats") || !strcmp(arg, "--state") || !strcmp(arg, "--credentials") ||
         !strcmp(arg, "--lsp") || !strcmp(arg, "--lsp-deadline")) &&
        i + 1 >= argc) {
      fprintf(stderr, "eddi: %s needs a value\n", arg);
      free(commands);
      return 2;
    }
    if (!strcmp(arg, "--root")) root = argv[++i];
    else if (!strcmp(arg, "--sender")) sender = argv[++i];
    else if (!strcmp(arg, "--nats")) nats_url = argv[++i];
    else if (!strcmp(arg, "--state")) state = argv[++i];
    else if (!strcmp(arg, "--credentials")) credentials = argv[++i];
    else if (!strcmp(arg, "-c")) commands[command_count++] = argv[++i];
    else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) return free(commands), cli__usage(stdout), 0;
    else if (!strcmp(arg, "--version")) return free(commands), puts("eddi " EDDI_VERSION), 0;
    else if (!strcmp(arg, "-")) whole_stdin = true;
    else if (!strcmp(arg, "--no-journal")) journal = false;
    else if (!strcmp(arg, "--no-lsp")) lsp.lsp_off = true;
    else if (!strcmp(arg, "--lsp-trust-workspace")) lsp.lsp_trust_workspace = true;
    else if (!strcmp(arg, "--lsp")) {
      const char *value = argv[++i];
      size_t n = strlen(value);
      lsp_commands = realloc(lsp_commands, lsp_len + n + 2);
      if (lsp_len) lsp_commands[lsp_len++] = '\n';
      memcpy(lsp_commands + lsp_len, value, n + 1);
      lsp_len += n;
      lsp.lsp_commands = lsp_commands;
    } else if (!strcmp(arg, "--lsp-deadline")) {
      char *end;
      unsigned long ms = strtoul(argv[++i], &end, 10);
      if (*end || ms == 0 || ms > UINT32_MAX) {
        fprintf(stderr, "eddi: --lsp-deadline takes milliseconds, not %s\n", argv[i]);
        free(commands), free(lsp_commands);
        return 2;
      }
      lsp.lsp_deadline_ms = (unsigned)ms;
    }
    else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "eddi: unknown option %s\n", arg);
      cli__usage(stderr);
      free(commands);
      return 2;
    } else if (!script) script = arg;
    else {
      fprintf(stderr, "eddi: one script at a time (got %s and %s)\n", script, arg);
      free(commands);
      return 2;
    }
  }
  char error[CLI_ERROR_MAX];
  CliTarget target = {.sender = sender};
  CliNatsOptions nats = {nats_url, CLI_NATS_TIMEOUT_MS, root, state, credentials};
  if (nats_url) target.nats = cli_nats_connect(&nats, error, sizeof error);
  else target.engine = cli__engine(root, state, journal, &lsp, error, sizeof error);
  if (!target.engine && !target.nats) {
    fprintf(stderr, "eddi: %s\n", error);
    free(commands), free(lsp_commands);
    return 2;
  }
  bool ok = true;
  if (command_count) {
    for (size_t i = 0; i < command_count; i++)
      ok &= cli__run(&target, commands[i], strlen(commands[i]), false);
  } else if (whole_stdin) {
    ok = cli__run_whole(&target, stdin);
  } else if (script) {
    FILE *in = fopen(script, "r");
    if (!in) {
      fprintf(stderr, "eddi: %s: %s\n", script, strerror(errno));
      ok = false;
    } else {
      ok = cli__run_stream(&target, in, false);
      fclose(in);
    }
  } else {
    bool interactive = isatty(STDIN_FILENO);
    if (interactive)
      printf("eddi %s on %s. Start <session>, then Open <file>; Help lists commands.\n",
             EDDI_VERSION, target.nats ? nats_url : eddi_engine_root(target.engine));
    ok = cli__run_stream(&target, stdin, interactive);
  }
  eddi_engine_free(target.engine);
  cli_nats_close(target.nats);
  free(commands), free(lsp_commands);
  return ok ? 0 : 1;
}
