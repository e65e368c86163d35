/* audit.c - see audit.h. Records are built with a small JSON writer of
 * their own: the engine does not link a JSON library, and the record's
 * shape is fixed. Each record is one write(2) to a file opened O_APPEND, so
 * that records of several engines sharing a log never interleave. */
#include "session/audit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "workspace/command.h"

/* Command words kept per record; a longer message says how many more. */
#define AUDIT_WORDS_MAX 64

struct EddiAudit {
  int fd; /* -1: no file, only the sink */
  char *path;
  EddiAuditSink sink;
  void *closure;
  EddiAuditFailure failure;
  int failed; /* why the oldest unwritten line could not be written; 0: none */
  /* Records not written yet (a full disk), oldest first: written before
   * any newer one, so the log stays whole and in order. */
  StrBuf unwritten;
  Array(AuditFile) files;
};

/* The most bytes of records kept in memory while the log cannot be
 * written; a record beyond is lost, and stderr says so. */
#define AUDIT_UNWRITTEN_MAX ((size_t)1 << 20)

EddiAudit *eddi_audit_new(const char *path, const EddiAuditConfig *config, char *error,
                          size_t error_size) {
  int fd = -1;
  if (path && path[0]) {
    /* Never through a link (one another user left would have us append to
     * a file of ours), and only a file of this user's (or a device, as
     * /dev/null): a file someone else made there reads our lines. */
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) < 0 || (st.st_uid != geteuid() && !S_ISCHR(st.st_mode)))) {
      close(fd);
      fd = -1;
      snprintf(error, error_size, "Audit log %s belongs to another user: eddi does not write it",
               path);
      return NULL;
    }
    if (fd < 0) {
      snprintf(error, error_size, "Audit log %s: %s", path,
               errno == ELOOP ? "a symbolic link (eddi does not follow one to its audit log)"
                              : strerror(errno));
      return NULL;
    }
  }
  EddiAudit *self = eddi_calloc(1, sizeof *self);
  self->fd = fd;
  self->path = eddi_strdup(path ? path : "");
  self->sink = config->sink;
  self->closure = config->closure;
  self->failure = config->failure;
  return self;
}

static void audit__files_clear(EddiAudit *self) {
  for (size_t i = 0; i < self->files.len; i++) eddi_free(self->files.items[i].path);
  array_clear(&self->files);
}

void eddi_audit_free(EddiAudit *self) {
  if (!self) return;
  if (self->fd >= 0) close(self->fd);
  eddi_free(self->path);
  eddi_strbuf_free(&self->unwritten);
  audit__files_clear(self);
  array_free(&self->files);
  eddi_free(self);
}

void eddi_audit_begin(EddiAudit *self) { audit__files_clear(self); }

void eddi_audit_note_file(EddiAudit *self, const char *path, const EddiFileStamp *before,
                          const EddiFileStamp *after) {
  /* A file written twice in one request keeps its first before. */
  for (size_t i = 0; i < self->files.len; i++) {
    AuditFile *file = &self->files.items[i];
    if (strcmp(file->path, path) != 0) continue;
    file->has_after = after && after->exists;
    file->after = file->has_after ? after->hash : 0;
    return;
  }
  AuditFile file = {eddi_strdup(path), before && before->exists, after && after->exists,
                    before && before->exists ? before->hash : 0,
                    after && after->exists ? after->hash : 0};
  array_push(&self->files, file);
}

/* ------------------------------------------------------------ JSON */

static void audit__string(StrBuf *out, const char *text, size_t len) {
  eddi_strbuf_putc(out, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '"' || c == '\\') eddi_strbuf_printf(out, "\\%c", c);
    else if (c < 0x20) eddi_strbuf_printf(out, "\\u%04x", c);
    else eddi_strbuf_putc(out, (char)c);
  }
  eddi_strbuf_putc(out, '"');
}

static void audit__field(StrBuf *out, const char *key, const char *value) {
  eddi_strbuf_printf(out, ",\"%s\":", key);
  if (value) audit__string(out, value, strlen(value));
  else eddi_strbuf_puts(out, "null");
}

typedef struct {
  StrBuf *out;
  size_t count;
} AuditWords;

static bool audit__word(const EddiCommandLine *line, void *closure) {
  AuditWords *words = closure;
  if (words->count < AUDIT_WORDS_MAX) {
    if (words->count) eddi_strbuf_putc(words->out, ',');
    audit__string(words->out, line->line, line->verb_len);
  }
  words->count++;
  return true;
}

/* The kind of a failure, from the reply text's start: never its message. */
static const char *audit__outcome(const AuditOutcome *outcome, size_t *failed_at) {
  *failed_at = 0;
  if (outcome->refused) return "refused";
  if (!outcome->reply) return "ok";
  for (size_t i = 0; i < outcome->reply->count; i++) {
    if (!outcome->reply->items[i].ok) {
      *failed_at = i + 1;
      return "fail";
    }
  }
  return outcome->reply->pending ? "pending" : "ok";
}

void eddi_audit_render(const AuditOutcome *outcome, const AuditFile *files, size_t count,
                       StrBuf *line) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct tm utc;
  gmtime_r(&now.tv_sec, &utc);
  char stamp[64];
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
  eddi_strbuf_printf(line, "{\"time\":\"%s.%09ldZ\"", stamp, now.tv_nsec);
  audit__field(line, "sender", outcome->sender);
  audit__field(line, "session", outcome->session);
  audit__field(line, "instance", outcome->instance);
  audit__field(line, "transport", outcome->transport);
  eddi_strbuf_puts(line, ",\"commands\":[");
  AuditWords words = {line, 0};
  eddi_each_command(outcome->text ? outcome->text : "", outcome->text ? outcome->len : 0,
                    audit__word, &words);
  eddi_strbuf_puts(line, "]");
  if (words.count > AUDIT_WORDS_MAX)
    eddi_strbuf_printf(line, ",\"more_commands\":%zu", words.count - AUDIT_WORDS_MAX);
  eddi_strbuf_puts(line, ",\"files\":[");
  for (size_t i = 0; i < count; i++) {
    const AuditFile *file = &files[i];
    if (i) eddi_strbuf_putc(line, ',');
    eddi_strbuf_puts(line, "{\"path\":");
    audit__string(line, file->path, strlen(file->path));
    if (file->had_before) eddi_strbuf_printf(line, ",\"before\":\"%016llx\"", (unsigned long long)file->before);
    else eddi_strbuf_puts(line, ",\"before\":null");
    if (file->has_after) eddi_strbuf_printf(line, ",\"after\":\"%016llx\"}", (unsigned long long)file->after);
    else eddi_strbuf_puts(line, ",\"after\":null}");
  }
  size_t failed_at = 0;
  const char *result = outcome->settled ? outcome->settled : audit__outcome(outcome, &failed_at);
  eddi_strbuf_printf(line, "],\"outcome\":\"%s\"", result);
  if (failed_at) eddi_strbuf_printf(line, ",\"failed_command\":%zu", failed_at);
  eddi_strbuf_puts(line, "}\n");
}

/* ------------------------------------------------------------ writing */

static void audit__say(const EddiAudit *self, const char *what) {
  char line[EDDI_FS_PATH_MAX + 512];
  snprintf(line, sizeof line, "eddi: audit: the audit log %s%s%s%s: %s\n", self->path,
           self->failed ? " (" : "", self->failed ? strerror(self->failed) : "",
           self->failed ? ")" : "", what);
  eddi_stderr_line(line);
}

/* Write the unwritten records; whether all went (failed says why not). A
 * partial write keeps the rest of its record for the next try. */
static bool audit__flush(EddiAudit *self) {
  while (self->unwritten.len) {
    ssize_t n = write(self->fd, self->unwritten.data, self->unwritten.len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      self->failed = n < 0 ? errno : ENOSPC;
      return false;
    }
    self->unwritten.len -= (size_t)n;
    memmove(self->unwritten.data, self->unwritten.data + n, self->unwritten.len);
  }
  return true;
}

/* Try the unwritten records again: whether the log is whole now. */
static bool audit__catch_up(EddiAudit *self) {
  bool was_failed = self->failed != 0;
  if (!audit__flush(self)) return false;
  self->failed = 0;
  if (was_failed) audit__say(self, "all records are written again");
  return true;
}

/* Append lines (whole records) to the file, after the records not yet
 * written. One that cannot be written is kept and said on stderr: by
 * default when the refusal of writes begins, with
 * EDDI_AUDIT_FAILURE_CONTINUE at every record. */
static void audit__append(EddiAudit *self, const char *lines, size_t len) {
  if (self->fd < 0 || !len) return;
  bool was_failed = self->failed != 0;
  if (self->unwritten.len + len > AUDIT_UNWRITTEN_MAX) {
    audit__say(self, "a record is lost: too many records wait to be written");
  } else {
    eddi_strbuf_append(&self->unwritten, lines, len);
  }
  if (audit__catch_up(self)) return;
  if (self->failure == EDDI_AUDIT_FAILURE_CONTINUE)
    audit__say(self, "cannot be written; writes go on (--audit-failure continue), their "
                     "records kept in memory until they can be written");
  else if (!was_failed)
    audit__say(self, "cannot be written; eddi refuses every write until its records are "
                     "written (--audit-failure continue lets writes go on)");
}

void eddi_audit_write_lines(EddiAudit *self, const char *lines, size_t len) {
  audit__append(self, lines, len);
  if (!self->sink) return;
  for (const char *at = lines, *end = lines + len; at < end;) {
    const char *newline = memchr(at, '\n', (size_t)(end - at));
    size_t n = newline ? (size_t)(newline - at) : (size_t)(end - at);
    self->sink(self->closure, at, n);
    at += n + 1;
  }
}

void eddi_audit_end(EddiAudit *self, const AuditOutcome *outcome) {
  StrBuf line = {0};
  eddi_audit_render(outcome, self->files.items, self->files.len, &line);
  eddi_audit_write_lines(self, line.data, line.len);
  eddi_strbuf_free(&line);
  audit__files_clear(self);
}

bool eddi_audit_refuses_writes(EddiAudit *self, EddiError *err) {
  if (!self || !self->failed || self->failure != EDDI_AUDIT_FAILURE_REFUSE) return false;
  if (audit__catch_up(self)) return false;
  eddi_error_set(err, EDDI_EIO, "The audit log %s cannot be written (%s): eddi writes nothing "
                                "until it can", self->path, strerror(self->failed));
  eddi_error_hint(err, "Make room for the audit log, or start eddi-server with "
                       "--audit-failure continue");
  return true;
}
