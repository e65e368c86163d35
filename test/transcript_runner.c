/* transcript_runner.c - runs one transcript file against the engine.
 *
 * A transcript is a conversation with eddi over a fresh workspace, checked
 * exactly. The format (see test/transcripts/README.org):
 *
 *   # comment
 *   @fixture NAME            copy test/fixtures/NAME/ into the workspace
 *   @file PATH               create PATH from the "| " lines that follow
 *   @file PATH "escaped"     create PATH with exactly these bytes
 *   @expect-file PATH        PATH must hold the "| " lines that follow
 *   @expect-file PATH "esc"  PATH must hold exactly these bytes
 *   @expect-missing PATH     PATH must not exist
 *   @expect-mode PATH MODE   PATH has these permission bits (octal)
 *   @chmod MODE PATH  @rm PATH  @mkdir PATH  @symlink TARGET PATH
 *   @sender NAME             who sends the following messages
 *   @lsp                     language servers found on PATH are used (without
 *                            it the engine starts none, whatever is installed)
 *   To Eddi: COMMANDS        a message ("| " lines continue it)
 *   Eddi : REPLY             the replies, one line per command ("| " lines
 *                            continue a raw payload)
 *
 * "| " lines are joined with "\n" and each gets a final "\n" in @file and
 * @expect-file blocks. Escapes in quoted bytes: \n \r \t \\ \" \xHH.
 * Messages go through eddi_exec, the entry point every front end uses, or,
 * with --server PROGRAM, to an eddi-server started on the workspace (its
 * embedded nats-server), over NATS as the eddi CLI sends them. The one
 * difference of that transport, the ", Instance <id>" a Start reply gets,
 * is taken off before comparing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <signal.h>
#include <sys/wait.h>

#include "cli_nats.h"
#include "core/common.h"
#include "eddi.h"

/* How long a request through the server may take: past the LSP deadline
 * (20 s), which a cold language server on a loaded machine may reach. */
#define RUNNER_NATS_TIMEOUT_MS 60000

typedef struct {
  const char *transcript;
  const char *fixtures;
  char workspace[256];
  EddiEngine *engine; /* or: */
  CliNats *nats;
  pid_t server;
  char sender[128];
  bool lsp; /* the transcript asks for language servers (@lsp) */
  int failures;
  char **lines;
  size_t line_count;
  size_t at; /* next line to read */
} Runner;

static void fail(Runner *self, size_t line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%zu: ", self->transcript, line + 1);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  self->failures++;
}

/* ---------------------------------------------------------------- helpers */

static char *read_file(const char *path, size_t *len) {
  FILE *in = fopen(path, "rb");
  if (!in) return NULL;
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) eddi_strbuf_append(&out, buf, n);
  fclose(in);
  *len = out.len;
  return eddi_strbuf_take(&out);
}

static bool write_file(const char *path, const char *bytes, size_t len) {
  char *dir = strdup(path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') *p = '\0', mkdir(dir, 0777), *p = '/';
  free(dir);
  FILE *out = fopen(path, "wb");
  if (!out) return false;
  bool ok = fwrite(bytes, 1, len, out) == len;
  return fclose(out) == 0 && ok;
}

/* Decode a "quoted" argument with \n \r \t \\ \" \xHH. */
static bool unquote(const char *arg, StrBuf *out) {
  if (arg[0] != '"') return false;
  const char *p = arg + 1;
  for (; *p && *p != '"'; p++) {
    if (*p != '\\') {
      eddi_strbuf_putc(out, *p);
      continue;
    }
    p++;
    switch (*p) {
    case 'n': eddi_strbuf_putc(out, '\n'); break;
    case 'r': eddi_strbuf_putc(out, '\r'); break;
    case 't': eddi_strbuf_putc(out, '\t'); break;
    case '\\': eddi_strbuf_putc(out, '\\'); break;
    case '"': eddi_strbuf_putc(out, '"'); break;
    case 'x': {
      char hex[3] = {p[1], p[1] ? p[2] : 0, 0};
      eddi_strbuf_putc(out, (char)strtol(hex, NULL, 16));
      p += 2;
      break;
    }
    default: return false;
    }
  }
  return *p == '"' && p[1] == '\0';
}

/* The "| " lines from self->at on, each with a final "\n". */
static void block_lines(Runner *self, StrBuf *out, bool final_newline) {
  bool first = true;
  while (self->at < self->line_count && self->lines[self->at][0] == '|') {
    const char *text = self->lines[self->at] + 1;
    if (*text == ' ') text++;
    if (!final_newline && !first) eddi_strbuf_putc(out, '\n');
    eddi_strbuf_puts(out, text);
    if (final_newline) eddi_strbuf_putc(out, '\n');
    first = false;
    self->at++;
  }
}

static char *workspace_path(Runner *self, const char *rel) {
  StrBuf path = {0};
  eddi_strbuf_printf(&path, "%s/%s", self->workspace, rel);
  return eddi_strbuf_take(&path);
}

/* Made writable first (a test may leave a read-only folder); a symlink is
 * removed as it is: chmod would follow it and change its target (the
 * open transcript's link to /etc). */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  if (flag != FTW_SL) chmod(path, 0700);
  return remove(path);
}

static bool copy_tree(const char *from, const char *to) {
  StrBuf command = {0};
  eddi_strbuf_printf(&command, "cp -a '%s/.' '%s/'", from, to);
  bool ok = system(command.data) == 0;
  eddi_strbuf_free(&command);
  return ok;
}

/* ---------------------------------------------------------------- steps */

/* Split "@name ARG1 REST" where REST may be a quoted string. */
static void directive(Runner *self, size_t line_no, char *line) {
  char *name = strtok(line, " ");
  char *arg1 = strtok(NULL, " ");
  char *rest = strtok(NULL, "");
  StrBuf bytes = {0};
  eddi_strbuf_puts(&bytes, "");
  char *path = arg1 ? workspace_path(self, arg1) : NULL;
  if (!strcmp(name, "@lsp")) {
    /* read before the engine was made (main) */
  } else if (!arg1) {
    fail(self, line_no, "%s needs an argument", name);
  } else if (!strcmp(name, "@fixture")) {
    StrBuf from = {0};
    eddi_strbuf_printf(&from, "%s/%s", self->fixtures, arg1);
    if (!copy_tree(from.data, self->workspace)) fail(self, line_no, "cannot copy fixture %s", arg1);
    eddi_strbuf_free(&from);
  } else if (!strcmp(name, "@file") || !strcmp(name, "@expect-file")) {
    if (rest && !unquote(rest, &bytes)) fail(self, line_no, "bad quoted bytes");
    if (!rest) block_lines(self, &bytes, true);
    if (!strcmp(name, "@file")) {
      if (!write_file(path, bytes.data, bytes.len)) fail(self, line_no, "cannot write %s", arg1);
    } else {
      size_t len;
      char *actual = read_file(path, &len);
      if (!actual) fail(self, line_no, "%s: missing", arg1);
      else if (len != bytes.len || memcmp(actual, bytes.data, len) != 0) {
        StrBuf shown = {0}, want = {0};
        eddi_strbuf_escape(&shown, actual, len, true);
        eddi_strbuf_escape(&want, bytes.data, bytes.len, true);
        fail(self, line_no, "%s differs\n  expected \"%s\"\n  actual   \"%s\"", arg1, want.data,
             shown.data);
        eddi_strbuf_free(&shown), eddi_strbuf_free(&want);
      }
      eddi_free(actual);
    }
  } else if (!strcmp(name, "@expect-mode")) {
    struct stat st;
    if (stat(path, &st) < 0 || (st.st_mode & 07777) != (mode_t)strtol(rest ? rest : "", NULL, 8))
      fail(self, line_no, "%s: mode is %o, expected %s", arg1, st.st_mode & 07777, rest);
  } else if (!strcmp(name, "@expect-missing")) {
    if (access(path, F_OK) == 0) fail(self, line_no, "%s exists", arg1);
  } else if (!strcmp(name, "@chmod")) {
    char *target = rest ? workspace_path(self, rest) : NULL;
    if (!target || chmod(target, (mode_t)strtol(arg1, NULL, 8)) < 0)
      fail(self, line_no, "chmod failed");
    eddi_free(target);
  } else if (!strcmp(name, "@rm")) {
    if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) fail(self, line_no, "rm failed");
  } else if (!strcmp(name, "@mkdir")) {
    if (mkdir(path, 0777) < 0) fail(self, line_no, "mkdir failed");
  } else if (!strcmp(name, "@symlink")) {
    char *link = rest ? workspace_path(self, rest) : NULL;
    if (!link || symlink(arg1, link) < 0) fail(self, line_no, "symlink failed");
    eddi_free(link);
  } else if (!strcmp(name, "@sender")) {
    snprintf(self->sender, sizeof self->sender, "%s", arg1);
  } else {
    fail(self, line_no, "unknown directive %s", name);
  }
  eddi_free(path);
  eddi_strbuf_free(&bytes);
}

/* ---------------------------------------------------------------- transports */

/* The reply to message through the engine or the server; free() it. */
static char *send_message(Runner *self, const char *text, size_t len) {
  if (!self->nats) {
    char *reply = eddi_exec(self->engine, self->sender, text, len);
    char *copy = strdup(reply);
    eddi_string_free(reply);
    return copy;
  }
  char error[512];
  char *reply = cli_nats_request(self->nats, self->sender, text, len, error, sizeof error);
  if (!reply) {
    fprintf(stderr, "%s\n", error);
    return NULL;
  }
  char *mark = strstr(reply, ", Instance ");
  if (mark) {
    char *rest = mark + 2 + strcspn(mark + 2, ",\n"); /* after ", Instance <id>" */
    memmove(mark, rest, strlen(rest) + 1);
  }
  return reply;
}

/* Start `program --root workspace --quiet` and connect to the NATS URL it
 * prints on its first line. */
static bool start_server(Runner *self, const char *program) {
  int out[2];
  if (pipe(out) < 0) return false;
  self->server = fork();
  if (self->server == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    if (self->lsp)
      execl(program, program, "--root", self->workspace, "--quiet", (char *)NULL);
    else
      execl(program, program, "--root", self->workspace, "--quiet", "--no-lsp", (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  FILE *lines = fdopen(out[0], "r");
  char line[512] = "";
  bool got = fgets(line, sizeof line, lines) != NULL;
  fclose(lines);
  const char *url = strstr(line, "nats://");
  if (!got || !url) {
    fprintf(stderr, "%s printed no NATS URL\n", program);
    return false;
  }
  line[strcspn(line, "\n")] = '\0';
  char error[512];
  /* The server left its credentials in the workspace's state folder. */
  CliNatsOptions options = {.url = url, .timeout_ms = RUNNER_NATS_TIMEOUT_MS,
                            .root = self->workspace};
  self->nats = cli_nats_connect(&options, error, sizeof error);
  if (!self->nats) fprintf(stderr, "%s\n", error);
  return self->nats != NULL;
}

static void stop_server(Runner *self) {
  cli_nats_close(self->nats);
  if (self->server > 0) {
    kill(self->server, SIGTERM);
    waitpid(self->server, NULL, 0);
  }
}

static void exchange(Runner *self, size_t line_no, const char *first) {
  StrBuf message = {0}, expected = {0};
  eddi_strbuf_puts(&message, first);
  if (self->at < self->line_count && self->lines[self->at][0] == '|') {
    eddi_strbuf_putc(&message, '\n');
    block_lines(self, &message, false);
  }
  eddi_strbuf_puts(&expected, "");
  bool any = false;
  while (self->at < self->line_count && !strncmp(self->lines[self->at], "Eddi : ", 7)) {
    if (any) eddi_strbuf_putc(&expected, '\n');
    eddi_strbuf_puts(&expected, self->lines[self->at] + 7);
    self->at++;
    any = true;
    if (self->at < self->line_count && self->lines[self->at][0] == '|') {
      eddi_strbuf_putc(&expected, '\n');
      block_lines(self, &expected, false);
    }
  }
  if (!any) fail(self, line_no, "message without an \"Eddi : \" reply");
  char *actual = send_message(self, message.data, message.len);
  if (!actual) fail(self, line_no, "To Eddi: %s\n  no reply", message.data);
  else if (strcmp(actual, expected.data) != 0)
    fail(self, line_no, "To Eddi: %s\n  expected: %s\n  actual:   %s", message.data,
         expected.data, actual);
  free(actual);
  eddi_strbuf_free(&message);
  eddi_strbuf_free(&expected);
}

int main(int argc, char **argv) {
  if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "--server"))) {
    fprintf(stderr, "usage: transcript_runner TRANSCRIPT FIXTURES_DIR [--server PROGRAM]\n");
    return 2;
  }
  Runner self = {.transcript = argv[1], .fixtures = argv[2]};
  snprintf(self.sender, sizeof self.sender, "tester");
  size_t len;
  char *text = read_file(argv[1], &len);
  if (!text) {
    fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    self.lines = realloc(self.lines, (self.line_count + 1) * sizeof *self.lines);
    self.lines[self.line_count++] = line;
  }
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  snprintf(self.workspace, sizeof self.workspace, "%s/eddi-transcript-XXXXXX", tmp);
  if (!mkdtemp(self.workspace)) {
    perror("mkdtemp");
    return 2;
  }
  for (size_t i = 0; i < self.line_count; i++) self.lsp |= !strcmp(self.lines[i], "@lsp");
  char error[512];
  EddiConfig config;
  eddi_config_default(&config);
  config.lsp_off = !self.lsp;
  if (argc == 5) {
    if (!start_server(&self, argv[4])) return 2;
  } else if (!(self.engine = eddi_engine_new(self.workspace, &config, error, sizeof error))) {
    fprintf(stderr, "%s\n", error);
    return 2;
  }
  size_t exchanges = 0;
  while (self.at < self.line_count) {
    size_t line_no = self.at;
    char *line = self.lines[self.at++];
    if (line[0] == '#' || line[0] == '\0') continue;
    if (line[0] == '@') directive(&self, line_no, line);
    else if (!strncmp(line, "To Eddi: ", 9)) exchange(&self, line_no, line + 9), exchanges++;
    else fail(&self, line_no, "cannot read this line: %s", line);
  }
  eddi_engine_free(self.engine);
  stop_server(&self);
  nftw(self.workspace, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  free(self.lines);
  eddi_free(text);
  if (eddi_alloc_live() != 0) {
    fprintf(stderr, "%s: %ld engine allocations leaked\n", argv[1], eddi_alloc_live());
    self.failures++;
  }
  printf("%s: %zu exchanges, %d failures\n", argv[1], exchanges, self.failures);
  return self.failures ? 1 : 0;
}
