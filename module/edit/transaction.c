/* transaction.c - validated, all-or-nothing multi-file writes; see transaction.h. */
#include "edit/transaction.h"

#include <errno.h>
#include <unistd.h>

#include "core/path.h"
#include "edit/matcher.h"

void eddi_edit_txn_init(EddiEditTxn *self, EddiEngine *engine, EddiSession *session) {
  memset(self, 0, sizeof *self);
  self->engine = engine;
  self->session = session;
}

static void transaction__file_free(EddiEditFile *file) {
  eddi_free(file->rel);
  eddi_free(file->abs);
  eddi_strbuf_free(&file->raw);
  eddi_strbuf_free(&file->text);
  eddi_strbuf_free(&file->result);
  eddi_free(file);
}

void eddi_edit_txn_free(EddiEditTxn *self) {
  for (size_t i = 0; i < self->files.len; i++) transaction__file_free(self->files.items[i]);
  array_free(&self->files);
}

/* ---------------------------------------------------------------- loading */

/* Read the file at abs as it is on disk into file (raw, decoded text,
 * format, mode); a missing file leaves exists false, a folder sets is_dir.
 * The replies name the file: a transaction may hold several. */
static int transaction__read_disk(EddiEditFile *file, size_t max_bytes, EddiError *err) {
  EddiDiskFound found;
  eddi_disk_read_found(file->abs, max_bytes, &file->raw, &found);
  switch (found.finding) {
  case EDDI_DISK_READ: break;
  case EDDI_DISK_MISSING: file->mode = found.mode; return 0;
  case EDDI_DISK_FOLDER: file->is_dir = true; return 0;
  case EDDI_DISK_SPECIAL:
    return eddi_error_set(err, EDDI_EINVAL, "Not a regular file: %s", file->rel);
  case EDDI_DISK_TOO_LARGE:
    if ((size_t)found.size > max_bytes)
      return eddi_error_set(err, EDDI_ETOOBIG, "File too large: %s (%lld bytes, limit %zu)",
                            file->rel, found.size, max_bytes);
    return eddi_error_set(err, EDDI_ETOOBIG, "File too large: %s", file->rel);
  case EDDI_DISK_OPEN_FAILED:
  case EDDI_DISK_STAT_FAILED:
  case EDDI_DISK_READ_FAILED:
    return eddi_error_set(err, EDDI_EIO, "Cannot read %s: %s", file->rel,
                          strerror(found.sys_errno));
  }
  file->exists = true;
  file->mode = found.mode;
  eddi_strbuf_puts(&file->raw, "");
  eddi_strbuf_puts(&file->text, "");
  int rc = eddi_disk_decode(file->raw.data, file->raw.len, &file->format, &file->text, err);
  if (rc < 0) {
    char what[EDDI_ERROR_MAX];
    snprintf(what, sizeof what, "%s", err->what);
    eddi_error_set(err, rc, "%s: %s", file->rel, what);
  }
  return rc;
}

int eddi_edit_txn_file(EddiEditTxn *self, const char *path, EddiEditFile **file,
                       EddiError *err) {
  char *rel = NULL, *abs = NULL;
  int rc = eddi_path_resolve(self->engine->root, path, &rel, &abs, err);
  if (rc < 0) return rc;
  if (!rel[0]) {
    eddi_free(rel), eddi_free(abs);
    return eddi_error_set(err, EDDI_EINVAL, "Is a directory: %s", path);
  }
  for (size_t i = 0; i < self->files.len; i++) {
    if (strcmp(self->files.items[i]->rel, rel) == 0) {
      *file = self->files.items[i];
      eddi_free(rel), eddi_free(abs);
      return 0;
    }
  }
  EddiEditFile *entry = eddi_calloc(1, sizeof *entry);
  entry->rel = rel;
  entry->abs = abs;
  EddiDoc *doc = NULL;
  if (self->session) {
    bool ambiguous;
    doc = eddi_session_find_doc(self->session, rel, &ambiguous);
    if (doc && strcmp(doc->path, rel) != 0) doc = NULL;
  }
  if (doc) {
    rc = eddi_doc_sync(doc, err);
    entry->doc = doc;
    entry->exists = true;
    size_t len = eddi_text_len(&doc->text);
    eddi_strbuf_puts(&entry->text, "");
    if (rc == 0 && len) {
      char *copy = eddi_text_dup(&doc->text, 0, len);
      eddi_strbuf_append(&entry->text, copy, len);
      eddi_free(copy);
    }
  } else {
    rc = transaction__read_disk(entry, self->engine->config.max_file_bytes, err);
  }
  if (rc < 0) {
    transaction__file_free(entry);
    return rc;
  }
  array_push(&self->files, entry);
  *file = entry;
  return 0;
}

void eddi_edit_file_write(EddiEditFile *self, const char *text, size_t len) {
  eddi_strbuf_clear(&self->result);
  eddi_strbuf_puts(&self->result, "");
  eddi_strbuf_append(&self->result, text, len);
  self->action = EDIT_WRITE;
}

void eddi_edit_file_delete(EddiEditFile *self) {
  eddi_strbuf_clear(&self->result);
  self->action = EDIT_DELETE;
}

/* ---------------------------------------------------------------- commit */

/* For Summary: the changed middle of the two texts, as lines removed and added. */
static void transaction__record(EddiEditTxn *self, const EddiEditFile *file) {
  if (!self->session) return;
  const char *a = file->text.data ? file->text.data : "";
  const char *b = file->result.data ? file->result.data : "";
  size_t n = file->text.len, m = file->action == EDIT_WRITE ? file->result.len : 0;
  size_t head = 0, tail = 0;
  while (head < n && head < m && a[head] == b[head]) head++;
  while (head && a[head - 1] != '\n') head--;
  while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail]) tail++;
  while (tail && a[n - tail] != '\n' && tail < n - head) tail--;
  eddi_session_record_save(self->session, file->rel, !file->exists,
                           eddi_lines_count(b + head, m - head - tail),
                           eddi_lines_count(a + head, n - head - tail));
}

/* Put text into an open document as one replacement of the part that
 * differs, then save it. */
static int transaction__write_doc(EddiEditFile *file, EddiError *err) {
  EddiDoc *doc = file->doc;
  const char *a = file->text.data ? file->text.data : "";
  const char *b = file->result.data ? file->result.data : "";
  size_t n = file->text.len, m = file->result.len, head = 0, tail = 0;
  while (head < n && head < m && a[head] == b[head]) head++;
  while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail]) tail++;
  /* Keep the cut on character boundaries. */
  while (head && ((unsigned char)a[head] & 0xC0) == 0x80) head--;
  while (tail && ((unsigned char)a[n - tail] & 0xC0) == 0x80) tail--;
  int rc = 0;
  if (n != m || head != n) {
    rc = eddi_doc_replace(doc, head, n - tail, b + head, m - head - tail, err);
    if (rc == 0) doc->cursor = head + (m - head - tail);
  }
  size_t bytes = 0;
  if (rc == 0 && eddi_doc_modified(doc)) {
    rc = eddi_doc_save(doc, &bytes, err);
    if (rc < 0 && (n != m || head != n)) {
      size_t done;
      EddiError ignored;
      eddi_doc_undo(doc, 1, &done, &ignored);
    }
  }
  return rc;
}

static int transaction__write_disk(EddiEditFile *file, EddiError *err) {
  StrBuf raw = {0};
  eddi_strbuf_puts(&raw, "");
  eddi_disk_encode(file->result.data ? file->result.data : "", file->result.len, file->format,
                   &raw);
  int rc = eddi_disk_write_atomic(file->abs, raw.data, raw.len, file->mode, err);
  eddi_strbuf_free(&raw);
  return rc;
}

/* Undo what commit did to file; best effort, the first error already
 * decided the reply. */
static void transaction__put_back(EddiEditFile *file) {
  EddiError ignored;
  if (file->doc && file->action == EDIT_WRITE) {
    size_t done, bytes;
    if (eddi_doc_undo(file->doc, 1, &done, &ignored) == 0)
      eddi_doc_save(file->doc, &bytes, &ignored);
  } else if (file->exists) {
    eddi_disk_write_atomic(file->abs, file->raw.data ? file->raw.data : "", file->raw.len,
                           file->mode, &ignored);
  } else {
    unlink(file->abs);
  }
}

int eddi_edit_txn_commit(EddiEditTxn *self, EddiError *err) {
  int rc = 0;
  for (int pass = 0; pass < 2 && rc == 0; pass++) {
    EddiEditAction action = pass == 0 ? EDIT_WRITE : EDIT_DELETE;
    for (size_t i = 0; i < self->files.len && rc == 0; i++) {
      EddiEditFile *file = self->files.items[i];
      if (file->action != action) continue;
      if (action == EDIT_WRITE) {
        rc = file->doc ? transaction__write_doc(file, err) : transaction__write_disk(file, err);
      } else if (unlink(file->abs) < 0) {
        rc = eddi_error_set(err, EDDI_EIO, "Cannot delete %s: %s", file->rel, strerror(errno));
      }
      if (rc == 0) file->done = true;
    }
  }
  if (rc < 0) {
    for (size_t i = self->files.len; i-- > 0;) {
      EddiEditFile *file = self->files.items[i];
      if (file->done) transaction__put_back(file), file->done = false;
    }
    return rc;
  }
  for (size_t i = 0; i < self->files.len; i++) {
    EddiEditFile *file = self->files.items[i];
    if (file->action == EDIT_KEEP) continue;
    transaction__record(self, file);
    /* A deleted file's document has nothing left to show. */
    if (file->action == EDIT_DELETE && file->doc && self->session) {
      eddi_session_close_doc(self->session, file->doc);
      file->doc = NULL;
    }
  }
  return 0;
}
