/* format_command.c - Format: the language's formatter over the whole file.
 *
 * The formatter is the program language.conf names for the language
 * ("formatter black -q -"); it reads the text on stdin and writes the
 * formatted text on stdout. A formatter is someone else's program: it may
 * hang, fail, or write without end, and it must not stop the engine. So
 * Format is a job (session/job.h):
 * - on the owner thread the command copies the text, the formatter's argv
 *   and the engine's state folder into the job;
 * - on a worker thread the job writes the text to a temporary file under
 *   <state>/format/ (never inside the workspace, never a shared /tmp name),
 *   runs the formatter there with posix_spawn (no shell: the words of the
 *   setting are its argv) in its own process group, and reads stdout and
 *   stderr with poll until it exits or the time limit
 *   (EddiConfig.format_timeout_ms) passes, when the whole group is killed;
 * - on the owner thread again the result becomes one edit, but only if the
 *   document still holds the text the formatter was given.
 * Every failure changes nothing and says why. */
#define _GNU_SOURCE /* pipe2, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/path.h"
#include "core/process.h"
#include "core/utf8.h"
#include "services/structure.h"

/* The most output a formatter may write: more is not a formatted file. */
#define STRUCTURE_FORMAT_MAX_BYTES ((size_t)16 << 20)
/* The time limit when the configuration leaves it at 0 (eddi.h's default). */
#define FORMAT_TIMEOUT_DEFAULT_MS 10000u
/* Bytes read from a pipe at a time. */
#define FORMAT_READ_CHUNK 65536
/* How much of the formatter's stderr is kept: its first line goes into the
 * Fail, the rest is read and dropped so that the formatter never blocks. */
#define FORMAT_STDERR_KEEP 4096
/* The longest stderr line quoted in a Fail: a compiler-style
 * "file:line:col: message" fits, a dump does not. */
#define FORMAT_STDERR_QUOTE_MAX 200
/* While the formatter runs, how often to look whether it has exited
 * (milliseconds): helpers it starts may keep the pipes open after it, so
 * the pipes alone do not tell. */
#define FORMAT_EXIT_POLL_MS 10

typedef struct {
  EddiJob base;
  /* Copied on the owner thread. */
  EddiDoc *doc;       /* only compared with the session's documents in finish */
  char *path;         /* the document's workspace path, for messages */
  char *text;         /* the document's text when Format started */
  size_t len;
  Array(char *) argv; /* the formatter's words, then NULL */
  char *folder;       /* <state>/format */
  unsigned timeout_ms;
  /* Filled by the work. */
  int rc;
  EddiError err;
  StrBuf out;
} FormatJob;

/* ---------------------------------------------------------------- the owner thread */

/* Whether program (argv[0]) can be run: a path that is executable, or a
 * name found on PATH. */
static bool format__on_path(const char *program) {
  if (!*program) return false;
  if (strchr(program, '/')) return access(program, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path) return false;
  bool found = false;
  for (const char *p = path; *p && !found;) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    StrBuf full = {0};
    eddi_strbuf_printf(&full, "%.*s/%s", (int)len, p, program);
    found = access(full.data, X_OK) == 0;
    eddi_strbuf_free(&full);
    if (!end) break;
    p = end + 1;
  }
  return found;
}

/* The words of a formatter setting, as argv. language.conf's settings are
 * plain words: no quoting, no shell. */
static void format__split(FormatJob *self, const char *command) {
  for (const char *p = command; *p;) {
    while (*p == ' ' || *p == '\t') p++;
    const char *end = p;
    while (*end && *end != ' ' && *end != '\t') end++;
    if (end > p) array_push(&self->argv, eddi_strndup(p, (size_t)(end - p)));
    p = end;
  }
  array_push(&self->argv, NULL);
}

static void format__destroy(EddiJob *base) {
  FormatJob *self = (FormatJob *)base;
  for (size_t i = 0; i < self->argv.len; i++) eddi_free(self->argv.items[i]);
  array_free(&self->argv);
  eddi_free(self->path);
  eddi_free(self->text);
  eddi_free(self->folder);
  eddi_strbuf_free(&self->out);
  eddi_free(self);
}

static void format__work(EddiJob *base);
static int format__finish(EddiJob *base, CommandContext *ctx);

int eddi_run_format(CommandContext *ctx) {
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc > 0 && !eddi_token_is(&ctx->args[0], "File"))
    return eddi_command_usage(ctx, "Format formats whole files");
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  FormatJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = format__work;
  job->base.finish = format__finish;
  job->base.destroy = format__destroy;
  if (lang->formatter) format__split(job, lang->formatter);
  if (job->argv.len < 2 || !format__on_path(job->argv.items[0])) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "No formatter for %s", lang->name);
    if (job->argv.len >= 2)
      eddi_error_hint(ctx->err, "Install %s: Format runs \"%s\"", job->argv.items[0], lang->formatter);
    else
      eddi_error_hint(ctx->err, "eddi knows none for %s", lang->name);
    format__destroy(&job->base);
    return EDDI_ENOENT;
  }
  char why[EDDI_ERROR_MAX];
  const char *state = eddi_workspace_state_dir(ctx->workspace, why, sizeof why);
  if (!state) {
    format__destroy(&job->base);
    return eddi_error_set(ctx->err, EDDI_EIO, "%s", why);
  }
  job->folder = eddi_path_join(state, "format");
  job->doc = doc;
  job->path = eddi_strdup(doc->path);
  job->len = eddi_text_len(&doc->text);
  job->text = eddi_text_dup(&doc->text, 0, job->len);
  unsigned timeout = eddi_workspace_config(ctx->workspace)->format_timeout_ms;
  job->timeout_ms = timeout ? timeout : FORMAT_TIMEOUT_DEFAULT_MS;
  return eddi_job_start(ctx, &job->base);
}

/* ---------------------------------------------------------------- the worker thread */

/* The formatter as messages name it: its program's file name. */
static const char *format__name(const FormatJob *self) {
  return eddi_path_basename(self->argv.items[0]);
}

/* The input file: made in the job's folder, written, and unlinked at once
 * (the formatter reads it through the descriptor), so nothing is left
 * behind whatever happens next. Returns the descriptor, at offset 0. */
static int format__input(FormatJob *self, EddiError *err) {
  if (mkdir(self->folder, 0700) < 0 && errno != EEXIST)
    return eddi_error_set(err, EDDI_EIO, "Cannot make a temporary file");
  StrBuf name = {0};
  eddi_strbuf_printf(&name, "%s/input-XXXXXX", self->folder);
  int fd = mkostemp(name.data, O_CLOEXEC);
  if (fd < 0) {
    eddi_strbuf_free(&name);
    return eddi_error_set(err, EDDI_EIO, "Cannot make a temporary file");
  }
  unlink(name.data);
  eddi_strbuf_free(&name);
  bool written = true;
  for (size_t done = 0; done < self->len && written;) {
    ssize_t n = write(fd, self->text + done, self->len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) written = false;
    else done += (size_t)n;
  }
  if (!written || lseek(fd, 0, SEEK_SET) < 0) {
    close(fd);
    return eddi_error_set(err, EDDI_EIO, "Cannot make a temporary file");
  }
  return fd;
}

/* Start the formatter (core/process.h: its own process group), stdin
 * from input, stdout and stderr into the pipes' write ends. */
static int format__spawn(FormatJob *self, int input, int out, int errors, pid_t *pid,
                         EddiError *err) {
  int rc = eddi_process_spawn(self->argv.items, NULL, input, out, errors, pid);
  if (rc != 0)
    return eddi_error_set(err, EDDI_EIO, "Cannot run the formatter %s: %s", format__name(self),
                          strerror(rc));
  return 0;
}

/* What reading the formatter's pipes came to. */
typedef enum { FORMAT_EXITED, FORMAT_TIMED_OUT, FORMAT_TOO_MUCH } FormatEnd;

/* Read stdout into self->out and the start of stderr into errors until
 * the formatter has exited and closed both, or the deadline passes, or it
 * writes too much. The formatter is not reaped here. */
static FormatEnd format__read(FormatJob *self, pid_t pid, int out, int errors, StrBuf *kept) {
  long long deadline = eddi_process_now_ms() + self->timeout_ms;
  struct pollfd fds[2] = {{.fd = out, .events = POLLIN}, {.fd = errors, .events = POLLIN}};
  bool exited = false;
  char buf[FORMAT_READ_CHUNK];
  for (;;) {
    if (!exited) {
      siginfo_t info;
      info.si_pid = 0;
      if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == pid) {
        /* Helpers it left holding the pipes would keep them open: they go
         * now (the unreaped leader keeps the group id from being reused). */
        exited = true;
        kill(-pid, SIGKILL);
      }
    }
    bool open = fds[0].fd >= 0 || fds[1].fd >= 0;
    if (exited && !open) return FORMAT_EXITED;
    long long left = deadline - eddi_process_now_ms();
    if (left <= 0) return FORMAT_TIMED_OUT;
    int wait = (int)(exited ? left : EDDI_MIN(left, (long long)FORMAT_EXIT_POLL_MS));
    int ready = poll(fds, 2, wait);
    if (ready < 0 && errno != EINTR) return FORMAT_TIMED_OUT; /* poll itself failed: stop */
    for (int i = 0; i < 2 && ready > 0; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        fds[i].fd = -1; /* closed: poll ignores it from now on */
        continue;
      }
      if (i == 0) {
        if (self->out.len + (size_t)n > STRUCTURE_FORMAT_MAX_BYTES) return FORMAT_TOO_MUCH;
        eddi_strbuf_append(&self->out, buf, (size_t)n);
      } else if (kept->len < FORMAT_STDERR_KEEP) {
        eddi_strbuf_append(kept, buf, EDDI_MIN((size_t)n, FORMAT_STDERR_KEEP - kept->len));
      }
    }
  }
}

/* The first line of the formatter's stderr that says something, made fit
 * for a reply: control characters become spaces, the line is cut at its
 * first invalid UTF-8 byte and at FORMAT_STDERR_QUOTE_MAX. Empty if none. */
static void format__first_line(const StrBuf *errors, char *line, size_t size) {
  const char *p = errors->data ? errors->data : "", *end = p + errors->len;
  line[0] = '\0';
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    size_t n = eddi_utf8_valid_prefix(p, (size_t)(eol - p));
    n = eddi_utf8_complete_prefix(p, EDDI_MIN(n, EDDI_MIN((size_t)FORMAT_STDERR_QUOTE_MAX, size - 1)));
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      line[k++] = (unsigned char)p[i] < 0x20 || p[i] == 0x7F ? ' ' : p[i];
    while (k && line[k - 1] == ' ') k--;
    line[k] = '\0';
    size_t lead = strspn(line, " ");
    if (line[lead]) {
      memmove(line, line + lead, k - lead + 1);
      return;
    }
    p = eol + 1;
  }
}

/* "10", "0.3": the time limit in seconds, as messages give it. */
static void format__seconds(unsigned ms, char *out, size_t size) {
  if (ms % 1000 == 0) snprintf(out, size, "%u", ms / 1000);
  else snprintf(out, size, "%.3g", ms / 1000.0);
}

static int format__run(FormatJob *self, EddiError *err) {
  int input = format__input(self, err);
  if (input < 0) return input;
  int out[2], errors[2];
  if (pipe2(out, O_CLOEXEC) < 0) {
    close(input);
    return eddi_error_set(err, EDDI_EIO, "Cannot run the formatter %s: %s", format__name(self),
                          strerror(errno));
  }
  if (pipe2(errors, O_CLOEXEC) < 0) {
    int why = errno;
    close(input), close(out[0]), close(out[1]);
    return eddi_error_set(err, EDDI_EIO, "Cannot run the formatter %s: %s", format__name(self),
                          strerror(why));
  }
  pid_t pid;
  int rc = format__spawn(self, input, out[1], errors[1], &pid, err);
  close(input), close(out[1]), close(errors[1]);
  if (rc < 0) {
    close(out[0]), close(errors[0]);
    return rc;
  }
  StrBuf kept = {0};
  FormatEnd end = format__read(self, pid, out[0], errors[0], &kept);
  /* The group goes whatever happened: a formatter that exited may have
   * left helpers behind, and the zombie leader still holds the group id,
   * so the signal cannot reach a stranger. */
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
  close(out[0]), close(errors[0]);
  if (end == FORMAT_TIMED_OUT) {
    char seconds[32];
    format__seconds(self->timeout_ms, seconds, sizeof seconds);
    rc = eddi_error_set(err, EDDI_ETOOBIG, "Formatter %s took longer than %s s; nothing changed",
                        format__name(self), seconds);
  } else if (end == FORMAT_TOO_MUCH) {
    rc = eddi_error_set(err, EDDI_ETOOBIG,
                        "Formatter %s wrote more than %zu MiB; nothing changed",
                        format__name(self), STRUCTURE_FORMAT_MAX_BYTES >> 20);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char said[FORMAT_STDERR_QUOTE_MAX + 1];
    format__first_line(&kept, said, sizeof said);
    if (said[0])
      rc = eddi_error_set(err, EDDI_EINVAL, "The formatter failed on %s: %s", self->path, said);
    else rc = eddi_error_set(err, EDDI_EINVAL, "The formatter failed on %s", self->path);
    eddi_error_hint(err, "Validate shows syntax errors");
  }
  eddi_strbuf_free(&kept);
  return rc;
}

static void format__work(EddiJob *base) {
  FormatJob *self = (FormatJob *)base;
  self->rc = format__run(self, &self->err);
}

/* ---------------------------------------------------------------- the owner thread again */

/* The job's document, if the session still has it open with the text the
 * formatter was given; else NULL with the Fail in err. */
static EddiDoc *format__unchanged_doc(FormatJob *self, CommandContext *ctx) {
  EddiDoc *doc = NULL;
  for (size_t i = 0; ctx->session && i < ctx->session->docs.len && !doc; i++)
    if (ctx->session->docs.items[i] == self->doc && strcmp(self->doc->path, self->path) == 0)
      doc = self->doc;
  if (!doc) {
    eddi_error_set(ctx->err, EDDI_ESTALE, "%s was closed while its formatter ran; nothing "
                                          "changed", self->path);
    return NULL;
  }
  bool same = eddi_text_len(&doc->text) == self->len;
  if (same && self->len) {
    char *now = eddi_text_dup(&doc->text, 0, self->len);
    same = memcmp(now, self->text, self->len) == 0;
    eddi_free(now);
  }
  if (!same) {
    eddi_error_set(ctx->err, EDDI_ESTALE, "%s changed while its formatter ran; nothing changed",
                   self->path);
    eddi_error_hint(ctx->err, "Format it again");
    return NULL;
  }
  return doc;
}

static int format__finish(EddiJob *base, CommandContext *ctx) {
  FormatJob *self = (FormatJob *)base;
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  EddiDoc *doc = format__unchanged_doc(self, ctx);
  if (!doc) return ctx->err->code;
  const char *out = self->out.data ? self->out.data : "";
  int rc = 0;
  if (self->out.len == self->len && memcmp(out, self->text, self->len) == 0) {
    eddi_reply_builder_fact(ctx->reply, "Already formatted");
  } else {
    rc = eddi_doc_replace(doc, 0, self->len, out, self->out.len, ctx->err);
    if (rc == 0)
      eddi_reply_builder_fact(ctx->reply, "Formatted, Lines %zu",
                              eddi_text_line_count(&doc->text));
  }
  if (rc == 0) eddi_command_fact_cursor(ctx, doc);
  return rc;
}
