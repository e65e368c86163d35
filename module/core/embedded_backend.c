/* embedded_backend.c - an embedder's backend under the engine's vtable; see
 * embedded_backend.h. */
#include "core/embedded_backend.h"

#include "core/disk_backend.h"
#include "core/utf8.h"

typedef struct {
  EddiBackend base;
  const EddiBackendOps *ops;
  void *self; /* the embedder's */
  char *abs_path;
  size_t max_bytes;
  EddiFileStamp stamp;
} EmbeddedBackend;

struct EddiTextSink {
  StrBuf text;
};

void eddi_text_sink_append(EddiTextSink *self, const char *bytes, size_t len) {
  eddi_strbuf_append(&self->text, bytes, len);
}

/* ---------------------------------------------------------------- vtable */

static int embedded__replace(EddiBackend *base, size_t start_char, size_t end_char,
                             const char *text, size_t len, EddiError *err) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  return self->ops->replace(self->self, start_char, end_char, text, len, err);
}

static int embedded__sync(EddiBackend *base, EddiDoc *doc, EddiError *err) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  return self->ops->sync ? self->ops->sync(self->self, doc, err) : 0;
}

static int embedded__save(EddiBackend *base, EddiDoc *doc, size_t *bytes, EddiError *err) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  return self->ops->save(self->self, doc, bytes, err);
}

static int embedded__saved_text(EddiBackend *base, StrBuf *out, EddiError *err) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  return eddi_file_saved_text(&self->stamp, self->abs_path, self->max_bytes, out, err);
}

static int embedded__reread(EddiBackend *base, StrBuf *out, EddiError *err) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  EddiFileFormat format;
  unsigned mode;
  return eddi_disk_load(self->abs_path, false, self->max_bytes, &format, &self->stamp, &mode,
                        out, err);
}

static void embedded__stamp(EddiBackend *base, EddiFileStamp *out) {
  *out = ((EmbeddedBackend *)base)->stamp;
}

static void embedded__end_group(EddiBackend *base) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  if (self->ops->end_group) self->ops->end_group(self->self);
}

static void embedded__destroy(EddiBackend *base) {
  EmbeddedBackend *self = (EmbeddedBackend *)base;
  self->ops->destroy(self->self);
  eddi_free(self->abs_path);
  eddi_free(self);
}

static const EddiBackendVtable embedded_vtable = {
    .name = "embedded",
    .replace = embedded__replace,
    .sync = embedded__sync,
    .save = embedded__save,
    .saved_text = embedded__saved_text,
    .reread = embedded__reread,
    .stamp = embedded__stamp,
    .end_group = embedded__end_group,
    .destroy = embedded__destroy,
};

void *eddi_embedded_backend_of(const EddiBackend *backend) {
  if (!backend || backend->vtable != &embedded_vtable) return NULL;
  return ((const EmbeddedBackend *)backend)->self;
}

/* The adapter of doc, or NULL (with err) when doc is not an embedder's. */
static EmbeddedBackend *embedded__of_doc(EddiDoc *doc, EddiError *err) {
  if (doc->backend && doc->backend->vtable == &embedded_vtable)
    return (EmbeddedBackend *)doc->backend;
  eddi_error_set(err, EDDI_EINVAL, "Not an embedder's document");
  return NULL;
}

/* ---------------------------------------------------------------- batches */

bool eddi_embedded_gives_bytes(const EddiBackend *backend) {
  if (!backend || backend->vtable != &embedded_vtable) return false;
  const EmbeddedBackend *self = (const EmbeddedBackend *)backend;
  return self->ops->save_bytes && self->ops->saved;
}

int eddi_embedded_save_bytes(EddiBackend *backend, EddiDoc *doc, StrBuf *out, EddiError *err) {
  if (!eddi_embedded_gives_bytes(backend))
    return eddi_error_set(err, EDDI_ESTATE, "The document saves itself");
  EmbeddedBackend *self = (EmbeddedBackend *)backend;
  EddiTextSink sink = {*out};
  int rc = self->ops->save_bytes(self->self, doc, &sink, err);
  *out = sink.text;
  return rc;
}

void eddi_embedded_saved(EddiBackend *backend, const EddiFileStamp *written) {
  if (!eddi_embedded_gives_bytes(backend)) return;
  EmbeddedBackend *self = (EmbeddedBackend *)backend;
  self->stamp = *written;
  self->ops->saved(self->self);
}

/* ---------------------------------------------------------------- the file */

int eddi_doc_file_check(EddiDoc *doc, bool *changed, EddiError *err) {
  *changed = false;
  EmbeddedBackend *self = embedded__of_doc(doc, err);
  if (!self) return err->code;
  bool writable;
  unsigned mode = 0;
  int rc = eddi_file_stamp_compare(&self->stamp, self->abs_path, self->max_bytes, changed,
                                   &writable, &mode, err);
  if (rc == 0 && !writable) {
    *changed = false;
    rc = eddi_error_set(err, EDDI_EIO, "File is read-only");
  }
  return rc;
}

int eddi_doc_file_saved(EddiDoc *doc, size_t *bytes, EddiError *err) {
  EmbeddedBackend *self = embedded__of_doc(doc, err);
  if (!self) return err->code;
  return eddi_file_stamp_read(&self->stamp, self->abs_path, self->max_bytes, bytes, err);
}

void eddi_doc_file_held(EddiDoc *doc) {
  /* The stamp stays the file's as eddi last read or wrote it: the base the
   * held edits apply to. */
  doc->save_held = true;
}

bool eddi_doc_held(const EddiDoc *doc) {
  if (!doc->save_held) return false;
  if (!doc->backend || doc->backend->vtable != &embedded_vtable) return true;
  const EmbeddedBackend *self = (const EmbeddedBackend *)doc->backend;
  return !self->ops->held || self->ops->held(self->self);
}

void eddi_embedded_note_opened(EddiDoc *doc) {
  if (!doc->backend || doc->backend->vtable != &embedded_vtable || doc->is_new) return;
  EmbeddedBackend *self = (EmbeddedBackend *)doc->backend;
  StrBuf saved = {0};
  EddiError ignored;
  if (eddi_file_saved_text(&self->stamp, self->abs_path, self->max_bytes, &saved, &ignored) == 0) {
    size_t len = eddi_text_len(&doc->text);
    char *text = eddi_text_dup(&doc->text, 0, len);
    if (len != saved.len || (len && memcmp(text, saved.data, len) != 0)) {
      doc->saved_group_id = UINT64_MAX; /* no group has this id: modified */
      doc->outside_edits = true;
    }
    eddi_free(text);
  }
  eddi_strbuf_free(&saved);
}

/* ---------------------------------------------------------------- copies */

/* An embedder's text is taken only when it fits the limit and is UTF-8. */
static int embedded__check_text(const StrBuf *text, size_t max_bytes, EddiError *err) {
  size_t valid = eddi_utf8_valid_prefix(text->data ? text->data : "", text->len);
  if (text->len > max_bytes)
    return eddi_error_set(err, EDDI_ETOOBIG, "Buffer too large (%zu bytes, limit %zu)", text->len,
                          max_bytes);
  if (valid != text->len)
    return eddi_error_set(err, EDDI_EINVAL, "Buffer text is not valid UTF-8 (byte %zu)", valid);
  return 0;
}

int eddi_embedded_find_copy(const EddiBackendCopies *copies, void *context, const char *abs_path,
                            size_t max_bytes, EddiBackendCopy *copy, StrBuf *text,
                            EddiError *err) {
  *copy = (EddiBackendCopy){0};
  if (!copies || !copies->find) return 0;
  EddiTextSink sink = {{0}};
  int rc = copies->find(context, abs_path, copy, text ? &sink : NULL, err);
  if (rc == 0 && copy->found && text) {
    rc = embedded__check_text(&sink.text, max_bytes, err);
    if (rc == 0) eddi_strbuf_append(text, sink.text.data ? sink.text.data : "", sink.text.len);
  }
  eddi_strbuf_free(&sink.text);
  if (rc < 0) *copy = (EddiBackendCopy){0};
  return rc;
}

/* ---------------------------------------------------------------- open */

int eddi_embedded_open(const EddiEmbeddedOpen *op, EddiBackend **backend, StrBuf *text,
                       bool *is_new, EddiError *err) {
  size_t max_bytes = op->max_bytes;
  EddiFileFormat format;
  EddiFileStamp stamp;
  unsigned mode;
  int rc = eddi_disk_load(op->abs_path, op->create, max_bytes, &format, &stamp, &mode, NULL, err);
  if (rc < 0) return rc;

  EddiBackendFile file = {.abs_path = op->abs_path, .rel_path = op->rel_path,
                          .exists = stamp.exists, .bom = format.bom, .crlf = format.crlf};
  const EddiBackendOps *ops = NULL;
  void *self = NULL;
  EddiTextSink sink = {{0}};
  rc = op->open(op->context, &file, &ops, &self, &sink, err);
  if (rc < 0) {
    eddi_strbuf_free(&sink.text);
    return rc;
  }
  rc = embedded__check_text(&sink.text, max_bytes, err);
  if (rc < 0) {
    ops->destroy(self);
    eddi_strbuf_free(&sink.text);
    return rc;
  }
  EmbeddedBackend *adapter = eddi_calloc(1, sizeof *adapter);
  adapter->base.vtable = &embedded_vtable;
  adapter->ops = ops;
  adapter->self = self;
  adapter->abs_path = eddi_strdup(op->abs_path);
  adapter->max_bytes = max_bytes;
  adapter->stamp = stamp;
  eddi_strbuf_append(text, sink.text.data ? sink.text.data : "", sink.text.len);
  eddi_strbuf_free(&sink.text);
  *is_new = !stamp.exists;
  *backend = &adapter->base;
  return 0;
}
