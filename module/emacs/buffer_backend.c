/* buffer_backend.c - documents backed by live Emacs buffers; see
 * buffer_backend.h.
 *
 * The disk is still read here, in C, for three things Emacs would do
 * differently from the headless engine: refusing binary and non-UTF-8 files
 * (Emacs would guess a coding system), choosing the coding system that keeps
 * a BOM and CRLF endings exactly as found, and detecting a file changed on
 * disk by content rather than by modification time (two writes in the same
 * clock tick share a time stamp).
 */
#include "buffer_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/disk_backend.h"
#include "core/utf8.h"

typedef struct {
  EddiBackend base;
  EmacsCall *call;
  long id; /* names the buffer on the elisp side */
  char *abs_path;
  bool on_disk;       /* the file existed when opened or was saved since */
  uint64_t disk_hash; /* of the raw bytes eddi last read or wrote */
  size_t max_bytes;
  bool needs_full; /* the mirror may be wrong: re-read the whole buffer */
} BufferBackend;

/* Ids are unique for the life of Emacs, across engines. */
static long buffer_next_id = 1;

/* ---------------------------------------------------------------- symbols */

static emacs_value sym_open, sym_replace, sym_sync, sym_save, sym_user_saved, sym_end_group,
    sym_release, sym_eddi_error, sym_quit, sym_nth, sym_cons, sym_error_message_string, sym_t,
    sym_nil, sym_string;

static bool buffer__global_symbol(emacs_env *env, emacs_value *slot, const char *name) {
  emacs_value symbol = env->intern(env, name);
  if (env->non_local_exit_check(env) != emacs_funcall_exit_return) return false;
  *slot = env->make_global_ref(env, symbol);
  return env->non_local_exit_check(env) == emacs_funcall_exit_return;
}

bool eddi_emacs_symbols_init(emacs_env *env) {
  static bool done;
  if (done) return true;
  struct {
    emacs_value *slot;
    const char *name;
  } table[] = {
      {&sym_open, "eddi--backend-open"},
      {&sym_replace, "eddi--backend-replace"},
      {&sym_sync, "eddi--backend-sync"},
      {&sym_save, "eddi--backend-save"},
      {&sym_user_saved, "eddi--backend-user-saved-p"},
      {&sym_end_group, "eddi--backend-end-group"},
      {&sym_release, "eddi--backend-release"},
      {&sym_eddi_error, "eddi-error"},
      {&sym_quit, "quit"},
      {&sym_nth, "nth"},
      {&sym_cons, "cons"},
      {&sym_error_message_string, "error-message-string"},
      {&sym_t, "t"},
      {&sym_nil, "nil"},
      {&sym_string, "string"},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!buffer__global_symbol(env, table[i].slot, table[i].name)) return false;
  done = true;
  return true;
}

/* ---------------------------------------------------------------- calling Lisp */

char *eddi_emacs_string(emacs_env *env, emacs_value value, size_t *len) {
  ptrdiff_t size = 0;
  if (!env->copy_string_contents(env, value, NULL, &size)) return NULL;
  char *bytes = eddi_malloc((size_t)size);
  if (!env->copy_string_contents(env, value, bytes, &size)) {
    eddi_free(bytes);
    return NULL;
  }
  if (len) *len = (size_t)size - 1;
  return bytes;
}

/* Element n of list as a new string, or NULL (no pending exit is left). */
static char *call__nth_string(emacs_env *env, emacs_value list, int n) {
  emacs_value args[2] = {env->make_integer(env, n), list};
  emacs_value item = env->funcall(env, sym_nth, 2, args);
  char *text = NULL;
  if (env->non_local_exit_check(env) == emacs_funcall_exit_return)
    text = eddi_emacs_string(env, item, NULL);
  env->non_local_exit_clear(env);
  return text;
}

/* Turn the pending non-local exit into err and clear it. */
static int call__take_exit(EmacsCall *call, EddiError *err) {
  emacs_env *env = call->env;
  emacs_value symbol, data;
  enum emacs_funcall_exit kind = env->non_local_exit_get(env, &symbol, &data);
  if (kind == emacs_funcall_exit_return)
    return eddi_error_set(err, EDDI_EIO, "Emacs refused a value");
  env->non_local_exit_clear(env);

  /* The backend's own refusals: (eddi-error WHAT [HINT]). */
  if (kind == emacs_funcall_exit_signal && env->eq(env, symbol, sym_eddi_error)) {
    char *what = call__nth_string(env, data, 0);
    char *hint = call__nth_string(env, data, 1);
    int rc = eddi_error_set(err, EDDI_ESTATE, "%s", what ? what : "Buffer error");
    if (hint) eddi_error_hint(err, "%s", hint);
    eddi_free(what);
    eddi_free(hint);
    return rc;
  }
  /* C-g or a throw: finish the command cleanly, then let it through. */
  if (kind == emacs_funcall_exit_throw || env->eq(env, symbol, sym_quit)) {
    if (!call->exit_pending) {
      call->exit_pending = true;
      call->exit_kind = kind;
      call->exit_symbol = symbol;
      call->exit_data = data;
    }
    return eddi_error_set(err, EDDI_ESTATE, "Quit");
  }
  /* Any other error (a save hook failed, the disk is full): its message. */
  emacs_value pair_args[2] = {symbol, data};
  emacs_value pair = env->funcall(env, sym_cons, 2, pair_args);
  emacs_value message = env->funcall(env, sym_error_message_string, 1, &pair);
  char *text = env->non_local_exit_check(env) == emacs_funcall_exit_return
                   ? eddi_emacs_string(env, message, NULL)
                   : NULL;
  env->non_local_exit_clear(env);
  int rc = eddi_error_set(err, EDDI_EIO, "%s", text ? text : "Emacs error");
  eddi_free(text);
  return rc;
}

int eddi_emacs_funcall(EmacsCall *call, emacs_value fn, ptrdiff_t nargs, emacs_value *args,
                       emacs_value *result, EddiError *err) {
  emacs_env *env = call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  emacs_value value = env->funcall(env, fn, nargs, args);
  if (env->non_local_exit_check(env) != emacs_funcall_exit_return)
    return call__take_exit(call, err);
  if (result) *result = value;
  return 0;
}

/* ---------------------------------------------------------------- the file */

/* The coding system that decodes and re-encodes the file byte for byte:
 * the BOM and CRLF endings are kept by the coding system, not by eddi. */
static const char *buffer__coding(EddiFileFormat format) {
  if (format.bom) return format.crlf ? "utf-8-with-signature-dos" : "utf-8-with-signature-unix";
  return format.crlf ? "utf-8-dos" : "utf-8-unix";
}

/* Refuse to save over a file that moved since eddi read or wrote it, unless
 * the move was Emacs saving this very buffer (the user's C-x C-s). */
static int buffer__check_disk(BufferBackend *self, EddiError *err) {
  StrBuf raw = {0};
  bool missing;
  unsigned mode = 0;
  EddiError read_err;
  int rc = eddi_disk_read(self->abs_path, self->max_bytes, &raw, &missing, &mode,
                             &read_err);
  if (!self->on_disk) {
    rc = missing ? 0 : eddi_error_set(err, EDDI_ESTALE, "File was created on disk since Open");
  } else if (missing) {
    rc = eddi_error_set(err, EDDI_ESTALE, "File was deleted on disk since Open");
  } else if (rc < 0) {
    *err = read_err;
  } else if ((mode & 0222) == 0 || access(self->abs_path, W_OK) < 0) {
    rc = eddi_error_set(err, EDDI_EIO, "File is read-only");
  } else if (XXH3_64bits(raw.data, raw.len) != self->disk_hash) {
    emacs_value id = self->call->env->make_integer(self->call->env, self->id);
    emacs_value saved = sym_nil;
    rc = eddi_emacs_funcall(self->call, sym_user_saved, 1, &id, &saved, err);
    if (rc == 0 && !self->call->env->is_not_nil(self->call->env, saved))
      rc = eddi_error_set(err, EDDI_ESTALE, "File changed on disk since Open");
  }
  eddi_strbuf_free(&raw);
  return rc;
}

/* Remember the file as it is now on disk, after a save. */
static int buffer__note_disk(BufferBackend *self, size_t *bytes, EddiError *err) {
  StrBuf raw = {0};
  bool missing;
  int rc = eddi_disk_read(self->abs_path, self->max_bytes, &raw, &missing, NULL, err);
  if (rc == 0) {
    *bytes = raw.len;
    self->disk_hash = XXH3_64bits(raw.data, raw.len);
    self->on_disk = true;
  }
  eddi_strbuf_free(&raw);
  return rc;
}

/* ---------------------------------------------------------------- mirror */

/* Text from the buffer must be what the engine can hold. */
static int buffer__check_text(const char *text, size_t len, EddiError *err) {
  size_t valid = eddi_utf8_valid_prefix(text, len);
  if (valid != len)
    return eddi_error_set(err, EDDI_EINVAL, "Buffer text is not valid UTF-8 (byte %zu)", valid);
  return 0;
}

/* Mirror the replacement of bytes [start, end) by text, trimmed to what
 * really differs, so the cursor and marks outside it stay where they were
 * and an edit that changed nothing (typed, then undone) costs no history. */
static void buffer__mirror(EddiDoc *doc, size_t start, size_t end, const char *text,
                           size_t len) {
  size_t old_len = end - start;
  char *old = eddi_text_dup(&doc->text, start, end);
  size_t prefix = 0, suffix = 0;
  while (prefix < old_len && prefix < len && old[prefix] == text[prefix]) prefix++;
  while (suffix < old_len - prefix && suffix < len - prefix &&
         old[old_len - 1 - suffix] == text[len - 1 - suffix])
    suffix++;
  /* Keep the cut on character boundaries (text is NUL-terminated). */
  while (prefix > 0 && (text[prefix] & 0xC0) == 0x80) prefix--;
  while (suffix > 0 && (text[len - suffix] & 0xC0) == 0x80) suffix--;
  if (prefix != old_len || prefix != len)
    eddi_doc_external_replace(doc, start + prefix, end - suffix, text + prefix,
                              len - prefix - suffix);
  eddi_free(old);
}

/* Apply the changes [[BEG OLD-LEN TEXT]...] (characters) in order; false
 * when one does not fit the mirror (then the whole text is asked for). */
static bool buffer__apply_changes(BufferBackend *self, EddiDoc *doc, emacs_value changes,
                                  EddiError *err) {
  emacs_env *env = self->call->env;
  ptrdiff_t count = env->vec_size(env, changes);
  for (ptrdiff_t i = 0; i < count && env->non_local_exit_check(env) == 0; i++) {
    emacs_value change = env->vec_get(env, changes, i);
    intmax_t beg = env->extract_integer(env, env->vec_get(env, change, 0));
    intmax_t old_chars = env->extract_integer(env, env->vec_get(env, change, 1));
    size_t len = 0;
    char *text = eddi_emacs_string(env, env->vec_get(env, change, 2), &len);
    bool fits = text && beg >= 0 && old_chars >= 0 &&
                (size_t)(beg + old_chars) <= doc->text.chars &&
                buffer__check_text(text, len, err) == 0;
    if (fits) {
      size_t start = eddi_text_byte_offset(&doc->text, (size_t)beg);
      size_t end = eddi_text_byte_offset(&doc->text, (size_t)(beg + old_chars));
      buffer__mirror(doc, start, end, text, len);
    }
    eddi_free(text);
    if (!fits) return false;
  }
  return env->non_local_exit_check(env) == emacs_funcall_exit_return;
}

/* Ask the buffer what changed since the last sync and mirror it. */
static int buffer__sync(EddiBackend *base, EddiDoc *doc, EddiError *err) {
  BufferBackend *self = (BufferBackend *)base;
  emacs_env *env = self->call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  for (int attempt = 0; attempt < 2; attempt++) {
    emacs_value args[3] = {env->make_integer(env, self->id),
                           env->make_integer(env, (intmax_t)doc->text.chars),
                           self->needs_full ? sym_t : sym_nil};
    emacs_value change;
    int rc = eddi_emacs_funcall(self->call, sym_sync, 3, args, &change, err);
    if (rc < 0) return rc;
    if (!env->is_not_nil(env, change)) return 0;
    /* Until a change is mirrored whole, the mirror cannot be trusted. */
    self->needs_full = true;
    if (env->eq(env, env->type_of(env, change), sym_string)) {
      size_t len;
      char *text = eddi_emacs_string(env, change, &len);
      if (!text) return call__take_exit(self->call, err);
      rc = buffer__check_text(text, len, err);
      if (rc == 0) {
        buffer__mirror(doc, 0, eddi_text_len(&doc->text), text, len);
        self->needs_full = false;
      }
      eddi_free(text);
      return rc;
    }
    if (buffer__apply_changes(self, doc, change, err)) {
      self->needs_full = false;
      return 0;
    }
    if (env->non_local_exit_check(env) != emacs_funcall_exit_return)
      return call__take_exit(self->call, err);
    /* A change did not fit the mirror: read the whole text. */
  }
  return eddi_error_set(err, EDDI_ESTATE, "Buffer out of step with eddi");
}

/* ---------------------------------------------------------------- vtable */

static int buffer__replace(EddiBackend *base, size_t start_char, size_t end_char,
                           const char *text, size_t len, EddiError *err) {
  BufferBackend *self = (BufferBackend *)base;
  emacs_env *env = self->call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  emacs_value args[4] = {env->make_integer(env, self->id),
                         env->make_integer(env, (intmax_t)start_char),
                         env->make_integer(env, (intmax_t)end_char),
                         env->make_string(env, text, (ptrdiff_t)len)};
  if (env->non_local_exit_check(env) != emacs_funcall_exit_return)
    return call__take_exit(self->call, err);
  return eddi_emacs_funcall(self->call, sym_replace, 4, args, NULL, err);
}

static int buffer__save(EddiBackend *base, EddiDoc *doc, size_t *bytes, EddiError *err) {
  BufferBackend *self = (BufferBackend *)base;
  /* Save writes the buffer: the mirror must match what will be written. */
  int rc = buffer__sync(base, doc, err);
  if (rc == 0) rc = buffer__check_disk(self, err);
  if (rc < 0) return rc;
  emacs_value id = self->call->env->make_integer(self->call->env, self->id);
  rc = eddi_emacs_funcall(self->call, sym_save, 1, &id, NULL, err);
  if (rc == 0) rc = buffer__note_disk(self, bytes, err);
  return rc;
}

static int buffer__saved_text(EddiBackend *base, StrBuf *out, EddiError *err) {
  BufferBackend *self = (BufferBackend *)base;
  if (!self->on_disk) return 0;
  StrBuf raw = {0};
  bool missing;
  int rc = eddi_disk_read(self->abs_path, self->max_bytes, &raw, &missing, NULL, err);
  EddiFileFormat format;
  if (missing) rc = 0;
  else if (rc == 0) rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, out, err);
  eddi_strbuf_free(&raw);
  return rc;
}

static void buffer__end_group(EddiBackend *base) {
  BufferBackend *self = (BufferBackend *)base;
  if (!self->call->env) return;
  emacs_value id = self->call->env->make_integer(self->call->env, self->id);
  EddiError ignored;
  eddi_emacs_funcall(self->call, sym_end_group, 1, &id, NULL, &ignored);
}

static void buffer__destroy(EddiBackend *base) {
  BufferBackend *self = (BufferBackend *)base;
  /* From a finalizer there is no env: the elisp side then keeps a stale
   * entry for the id, which names a buffer eddi no longer edits. */
  if (self->call->env) {
    emacs_value id = self->call->env->make_integer(self->call->env, self->id);
    EddiError ignored;
    eddi_emacs_funcall(self->call, sym_release, 1, &id, NULL, &ignored);
  }
  eddi_free(self->abs_path);
  eddi_free(self);
}

static const EddiBackendVtable buffer_vtable = {
    .name = "emacs",
    .replace = buffer__replace,
    .sync = buffer__sync,
    .save = buffer__save,
    .saved_text = buffer__saved_text,
    .end_group = buffer__end_group,
    .destroy = buffer__destroy,
};

long eddi_emacs_backend_id(const EddiBackend *backend) {
  if (!backend || backend->vtable != &buffer_vtable) return -1;
  return ((const BufferBackend *)backend)->id;
}

/* ---------------------------------------------------------------- open */

int eddi_emacs_open_backend(void *context, const char *abs_path, const char *rel_path,
                            bool create, size_t max_bytes, EddiBackend **backend,
                            StrBuf *text, bool *is_new, EddiError *err) {
  EmacsCall *call = context;
  emacs_env *env = call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  StrBuf raw = {0}, decoded = {0};
  bool missing;
  EddiFileFormat format = {0};
  int rc = eddi_disk_read(abs_path, max_bytes, &raw, &missing, NULL, err);
  if (rc < 0 && !(missing && create)) goto cleanup;
  rc = 0;
  if (!missing) rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, &decoded, err);
  if (rc < 0) goto cleanup;

  long id = buffer_next_id++;
  emacs_value args[3] = {env->make_integer(env, id),
                         env->make_string(env, abs_path, (ptrdiff_t)strlen(abs_path)),
                         env->intern(env, buffer__coding(format))};
  emacs_value content;
  rc = eddi_emacs_funcall(call, sym_open, 3, args, &content, err);
  if (rc < 0) goto cleanup;
  BufferBackend *self = eddi_calloc(1, sizeof *self);
  self->base.vtable = &buffer_vtable;
  self->call = call;
  self->id = id;
  self->abs_path = eddi_strdup(abs_path);
  self->on_disk = !missing;
  self->disk_hash = missing ? 0 : XXH3_64bits(raw.data, raw.len);
  self->max_bytes = max_bytes;
  size_t len = 0;
  char *bytes = eddi_emacs_string(env, content, &len);
  if (!bytes) rc = call__take_exit(call, err);
  else if (len > max_bytes)
    rc = eddi_error_set(err, EDDI_ETOOBIG, "Buffer too large (%zu bytes, limit %zu)", len,
                        max_bytes);
  else rc = buffer__check_text(bytes, len, err);
  if (rc == 0) {
    eddi_strbuf_append(text, bytes, len);
    *is_new = missing;
    *backend = &self->base;
  } else {
    buffer__destroy(&self->base);
  }
  eddi_free(bytes);
cleanup:
  eddi_strbuf_free(&raw);
  eddi_strbuf_free(&decoded);
  return rc;
}
