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
  EddiAuditSink sink;
  void *closure;
  Array(AuditFile) files;
};

EddiAudit *eddi_audit_new(const char *path, EddiAuditSink sink, void *closure, char *error,
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
  self->sink = sink;
  self->closure = closure;
  return self;
}

static void audit__files_clear(EddiAudit *self) {
  for (size_t i = 0; i < self->files.len; i++) eddi_free(self->files.items[i].path);
  array_clear(&self->files);
}

void eddi_audit_free(EddiAudit *self) {
  if (!self) return;
  if (self->fd >= 0) close(self->fd);
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

void eddi_audit_end(EddiAudit *self, const AuditOutcome *outcome) {
  StrBuf line = {0};
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct tm utc;
  gmtime_r(&now.tv_sec, &utc);
  char stamp[64];
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
  eddi_strbuf_printf(&line, "{\"time\":\"%s.%09ldZ\"", stamp, now.tv_nsec);
  audit__field(&line, "sender", outcome->sender);
  audit__field(&line, "session", outcome->session);
  audit__field(&line, "instance", outcome->instance);
  audit__field(&line, "transport", outcome->transport);
  eddi_strbuf_puts(&line, ",\"commands\":[");
  AuditWords words = {&line, 0};
  eddi_each_command(outcome->text ? outcome->text : "", outcome->text ? outcome->len : 0,
                    audit__word, &words);
  eddi_strbuf_puts(&line, "]");
  if (words.count > AUDIT_WORDS_MAX)
    eddi_strbuf_printf(&line, ",\"more_commands\":%zu", words.count - AUDIT_WORDS_MAX);
  eddi_strbuf_puts(&line, ",\"files\":[");
  for (size_t i = 0; i < self->files.len; i++) {
    const AuditFile *file = &self->files.items[i];
    if (i) eddi_strbuf_putc(&line, ',');
    eddi_strbuf_puts(&line, "{\"path\":");
    audit__string(&line, file->path, strlen(file->path));
    if (file->had_before) eddi_strbuf_printf(&line, ",\"before\":\"%016llx\"", (unsigned long long)file->before);
    else eddi_strbuf_puts(&line, ",\"before\":null");
    if (file->has_after) eddi_strbuf_printf(&line, ",\"after\":\"%016llx\"}", (unsigned long long)file->after);
    else eddi_strbuf_puts(&line, ",\"after\":null}");
  }
  size_t failed_at;
  const char *result = audit__outcome(outcome, &failed_at);
  eddi_strbuf_printf(&line, "],\"outcome\":\"%s\"", result);
  if (failed_at) eddi_strbuf_printf(&line, ",\"failed_command\":%zu", failed_at);
  eddi_strbuf_puts(&line, "}\n");
  if (self->fd >= 0 && write(self->fd, line.data, line.len) < 0) {
    /* The log is best effort here; a full disk must not stop edits. */
  }
  if (self->sink) self->sink(self->closure, line.data, line.len - 1);
  eddi_strbuf_free(&line);
  audit__files_clear(self);
}
