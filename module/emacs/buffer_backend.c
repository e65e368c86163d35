/* buffer_backend.c - documents backed by live Emacs buffers; see
 * buffer_backend.h.
 *
 * The disk is read by the engine, not by Emacs, for three things Emacs
 * would do differently from the headless engine: refusing binary and
 * non-UTF-8 files (Emacs would guess a coding system), choosing the coding
 * system that keeps a BOM and CRLF endings exactly as found, and detecting
 * a file changed on disk by content rather than by modification time (two
 * writes in the same clock tick share a time stamp).
 */
#include "buffer_backend.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  EmacsCall *call;
  long id;         /* names the buffer on the elisp side */
  bool needs_full; /* the mirror may be wrong: re-read the whole buffer */
} BufferBackend;

/* Ids are unique for the life of Emacs, across engines. */
static long buffer_next_id = 1;

/* ---------------------------------------------------------------- symbols */

static emacs_value sym_open, sym_replace, sym_sync, sym_save, sym_save_bytes, sym_saved,
    sym_user_saved, sym_copy, sym_copies, sym_end_group, sym_release, sym_eddi_error, sym_quit, sym_nth, sym_cons, sym_error_message_string, sym_t,
    sym_nil, sym_string, sym_held, sym_held_p;

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
      {&sym_save_bytes, "eddi--backend-save-bytes"},
      {&sym_saved, "eddi--backend-saved"},
      {&sym_user_saved, "eddi--backend-user-saved-p"},
      {&sym_copy, "eddi--backend-copy"},
      {&sym_copies, "eddi--backend-copies"},
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
      {&sym_held, "held"},
      {&sym_held_p, "eddi--backend-held-p"},
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
  char *bytes = malloc((size_t)size);
  if (!bytes || !env->copy_string_contents(env, value, bytes, &size)) {
    free(bytes);
    return NULL;
  }
  if (len) *len = (size_t)size - 1;
  return bytes;
}

/* Element n of list as a new string, or NULL (no pending exit is left). */
static char *call__nth_string(emacs_env *env, emacs_value list, int n) {
  emacs_value args[2] = {env->make_integer(env, n), list};
  emacs_value item = env->funcall(env, sym_nth, 2, args);
  eddi_emacs_stop_if_broken();
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
    free(what);
    free(hint);
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
  eddi_emacs_stop_if_broken();
  char *text = env->non_local_exit_check(env) == emacs_funcall_exit_return
                   ? eddi_emacs_string(env, message, NULL)
                   : NULL;
  env->non_local_exit_clear(env);
  int rc = eddi_error_set(err, EDDI_EIO, "%s", text ? text : "Emacs error");
  free(text);
  return rc;
}

int eddi_emacs_funcall(EmacsCall *call, emacs_value fn, ptrdiff_t nargs, emacs_value *args,
                       emacs_value *result, EddiError *err) {
  emacs_env *env = call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  eddi_emacs_stop_if_broken();
  emacs_value value = env->funcall(env, fn, nargs, args);
  eddi_emacs_stop_if_broken();
  if (env->non_local_exit_check(env) != emacs_funcall_exit_return)
    return call__take_exit(call, err);
  if (result) *result = value;
  return 0;
}

/* ---------------------------------------------------------------- the file */

/* The coding system that decodes and re-encodes the file byte for byte:
 * the BOM and CRLF endings are kept by the coding system, not by eddi. */
static const char *buffer__coding(const EddiBackendFile *file) {
  if (file->bom) return file->crlf ? "utf-8-with-signature-dos" : "utf-8-with-signature-unix";
  return file->crlf ? "utf-8-dos" : "utf-8-unix";
}

/* Refuse to save over a file that moved since eddi read or wrote it, unless
 * the move was Emacs saving this very buffer (the user's C-x C-s). */
static int buffer__check_disk(BufferBackend *self, EddiDoc *doc, EddiError *err) {
  bool changed;
  int rc = eddi_doc_file_check(doc, &changed, err);
  if (rc < 0 || !changed) return rc;
  emacs_env *env = self->call->env;
  emacs_value id = env->make_integer(env, self->id);
  emacs_value saved = sym_nil;
  rc = eddi_emacs_funcall(self->call, sym_user_saved, 1, &id, &saved, err);
  if (rc == 0 && !env->is_not_nil(env, saved)) {
    rc = eddi_error_set(err, EDDI_ESTALE, "File changed on disk since Open");
    eddi_error_hint(err, "Open Reload reads it again (unsaved edits are discarded)");
  }
  return rc;
}

/* ---------------------------------------------------------------- mirror */

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
                eddi_doc_mirror(doc, (size_t)beg, (size_t)beg + (size_t)old_chars, text, len,
                                err) == 0;
    free(text);
    if (!fits) return false;
  }
  return env->non_local_exit_check(env) == emacs_funcall_exit_return;
}

/* Ask the buffer what changed since the last sync and mirror it. */
static int buffer__sync(void *backend, EddiDoc *doc, EddiError *err) {
  BufferBackend *self = backend;
  emacs_env *env = self->call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  for (int attempt = 0; attempt < 2; attempt++) {
    emacs_value args[3] = {env->make_integer(env, self->id),
                           env->make_integer(env, (intmax_t)eddi_doc_char_count(doc)),
                           self->needs_full ? sym_t : sym_nil};
    emacs_value change = NULL; /* set when the call returns */
    int rc = eddi_emacs_funcall(self->call, sym_sync, 3, args, &change, err);
    if (rc < 0) return rc;
    if (!env->is_not_nil(env, change)) return 0;
    /* Until a change is mirrored whole, the mirror cannot be trusted. */
    self->needs_full = true;
    if (env->eq(env, env->type_of(env, change), sym_string)) {
      size_t len;
      char *text = eddi_emacs_string(env, change, &len);
      if (!text) return call__take_exit(self->call, err);
      rc = eddi_doc_mirror(doc, 0, eddi_doc_char_count(doc), text, len, err);
      if (rc == 0) self->needs_full = false;
      free(text);
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

/* ---------------------------------------------------------------- operations */

static int buffer__replace(void *backend, size_t start_char, size_t end_char, const char *text,
                           size_t len, EddiError *err) {
  BufferBackend *self = backend;
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

static int buffer__save(void *backend, EddiDoc *doc, size_t *bytes, EddiError *err) {
  BufferBackend *self = backend;
  /* Save writes the buffer: the mirror must match what will be written. */
  int rc = buffer__sync(self, doc, err);
  if (rc == 0) rc = buffer__check_disk(self, doc, err);
  if (rc < 0) return rc;
  emacs_env *env = self->call->env;
  emacs_value id = env->make_integer(env, self->id);
  emacs_value how = sym_nil;
  rc = eddi_emacs_funcall(self->call, sym_save, 1, &id, &how, err);
  if (rc < 0) return rc;
  /* eddi-save-function took the buffer instead (the agent's review). */
  if (env->eq(env, how, sym_held)) {
    eddi_doc_file_held(doc);
    *bytes = 0;
    return 0;
  }
  return eddi_doc_file_saved(doc, bytes, err);
}

/* The bytes of a string whose characters are bytes (U+0000..U+00FF, one
 * per byte: eddi--backend-save-bytes gives the encoded text so, because the
 * module API copies strings out as UTF-8), appended to out. False when a
 * character is not a byte. */
static bool buffer__latin1_bytes(const char *utf8, size_t len, EddiTextSink *out) {
  /* Bytes converted at a time: a small buffer on the stack. */
  enum { CHUNK = 4096 };
  char chunk[CHUNK];
  size_t used = 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)utf8[i];
    if (c < 0x80) {
      chunk[used++] = (char)c;
      i++;
    } else if ((c == 0xC2 || c == 0xC3) && i + 1 < len) {
      chunk[used++] = (char)(((c & 0x03) << 6) | ((unsigned char)utf8[i + 1] & 0x3F));
      i += 2;
    } else {
      return false;
    }
    if (used == CHUNK) eddi_text_sink_append(out, chunk, used), used = 0;
  }
  eddi_text_sink_append(out, chunk, used);
  return true;
}

/* What save-buffer would write, exactly, for a batch of several files; a
 * buffer whose bytes Emacs cannot promise (eddi--backend-save-bytes says
 * why) saves itself after the batch. */
static int buffer__save_bytes(void *backend, EddiDoc *doc, EddiTextSink *out, EddiError *err) {
  BufferBackend *self = backend;
  int rc = buffer__sync(self, doc, err);
  if (rc < 0) return rc;
  emacs_env *env = self->call->env;
  emacs_value id = env->make_integer(env, self->id);
  emacs_value bytes = NULL; /* set when the call returns */
  rc = eddi_emacs_funcall(self->call, sym_save_bytes, 1, &id, &bytes, err);
  if (rc < 0) return rc;
  size_t len = 0;
  char *text = eddi_emacs_string(env, bytes, &len);
  if (!text) return call__take_exit(self->call, err);
  bool bytes_only = buffer__latin1_bytes(text, len, out);
  free(text);
  return bytes_only ? 0 : eddi_error_set(err, EDDI_EINVAL, "Not the bytes of a save");
}

/* Tell the buffer something it cannot refuse: fn with its id, when Emacs
 * is there; an error in fn is Emacs's to show. */
static void buffer__notify(BufferBackend *self, emacs_value fn) {
  if (!self->call->env) return;
  emacs_value id = self->call->env->make_integer(self->call->env, self->id);
  EddiError ignored;
  eddi_emacs_funcall(self->call, fn, 1, &id, NULL, &ignored);
}

/* The engine wrote those bytes: the buffer is saved (eddi--backend-saved). */
static void buffer__saved(void *backend) { buffer__notify(backend, sym_saved); }

static void buffer__end_group(void *backend) { buffer__notify(backend, sym_end_group); }

/* Whether the buffer's changes still wait for a review
 * (eddi--backend-held-p). Without Emacs, or when the call fails, they do:
 * keeping a document open loses nothing. */
static bool buffer__held(void *backend) {
  BufferBackend *self = backend;
  emacs_env *env = self->call->env;
  if (!env) return true;
  emacs_value id = env->make_integer(env, self->id);
  emacs_value held = sym_t;
  EddiError ignored;
  if (eddi_emacs_funcall(self->call, sym_held_p, 1, &id, &held, &ignored) < 0) return true;
  return env->is_not_nil(env, held);
}

static void buffer__destroy(void *backend) {
  BufferBackend *self = backend;
  /* From a finalizer there is no env: the elisp side then keeps a stale
   * entry for the id, which names a buffer eddi no longer edits. */
  if (self->call->env) {
    emacs_value id = self->call->env->make_integer(self->call->env, self->id);
    EddiError ignored;
    eddi_emacs_funcall(self->call, sym_release, 1, &id, NULL, &ignored);
  }
  free(self);
}

static const EddiBackendOps buffer_ops = {
    .replace = buffer__replace,
    .sync = buffer__sync,
    .save = buffer__save,
    .end_group = buffer__end_group,
    .destroy = buffer__destroy,
    .save_bytes = buffer__save_bytes,
    .saved = buffer__saved,
    .held = buffer__held,
};

long eddi_emacs_backend_id(const void *backend) {
  return backend ? ((const BufferBackend *)backend)->id : -1;
}

/* ---------------------------------------------------------------- open */

int eddi_emacs_open_backend(void *context, const EddiBackendFile *file,
                            const EddiBackendOps **ops, void **backend, EddiTextSink *text,
                            EddiError *err) {
  EmacsCall *call = context;
  emacs_env *env = call->env;
  if (!env) return eddi_error_set(err, EDDI_ESTATE, "Emacs is not available");
  BufferBackend *self = calloc(1, sizeof *self);
  if (!self) return eddi_error_set(err, EDDI_EIO, "Out of memory");
  self->call = call;
  self->id = buffer_next_id++;
  emacs_value args[3] = {env->make_integer(env, self->id),
                         env->make_string(env, file->abs_path, (ptrdiff_t)strlen(file->abs_path)),
                         env->intern(env, buffer__coding(file))};
  emacs_value content = NULL; /* set when the call returns */
  int rc = eddi_emacs_funcall(call, sym_open, 3, args, &content, err);
  if (rc < 0) {
    free(self); /* no buffer was made for the id */
    return rc;
  }
  size_t len = 0;
  char *bytes = eddi_emacs_string(env, content, &len);
  if (!bytes) {
    rc = call__take_exit(call, err);
    buffer__destroy(self);
    return rc;
  }
  eddi_text_sink_append(text, bytes, len);
  free(bytes);
  *ops = &buffer_ops;
  *backend = self;
  return 0;
}

/* ---------------------------------------------------------------- copies */

/* eddi--backend-copy: nil, or [MODIFIED TEXT] (TEXT nil unless asked). */
static int buffer__find_copy(void *context, const char *abs_path, EddiBackendCopy *copy,
                             EddiTextSink *text, EddiError *err) {
  EmacsCall *call = context;
  emacs_env *env = call->env;
  *copy = (EddiBackendCopy){0};
  if (!env) return 0; /* no Emacs to ask: no buffer to write behind either */
  emacs_value args[2] = {env->make_string(env, abs_path, (ptrdiff_t)strlen(abs_path)),
                         text ? sym_t : sym_nil};
  if (env->non_local_exit_check(env) != emacs_funcall_exit_return)
    return call__take_exit(call, err);
  emacs_value found = NULL; /* set when the call returns */
  int rc = eddi_emacs_funcall(call, sym_copy, 2, args, &found, err);
  if (rc < 0 || !env->is_not_nil(env, found)) return rc;
  copy->found = true;
  copy->modified = env->is_not_nil(env, env->vec_get(env, found, 0));
  if (text) {
    size_t len = 0;
    char *bytes = eddi_emacs_string(env, env->vec_get(env, found, 1), &len);
    if (!bytes) {
      *copy = (EddiBackendCopy){0};
      return call__take_exit(call, err);
    }
    eddi_text_sink_append(text, bytes, len);
    free(bytes);
  }
  return env->non_local_exit_check(env) == emacs_funcall_exit_return ? 0
                                                                      : call__take_exit(call, err);
}

/* eddi--backend-copies: a vector of the files' absolute true names. */
static int buffer__each_copy(void *context, const char *root,
                             void (*visit)(void *data, const char *abs_path), void *data,
                             EddiError *err) {
  EmacsCall *call = context;
  emacs_env *env = call->env;
  if (!env) return 0;
  emacs_value arg = env->make_string(env, root, (ptrdiff_t)strlen(root));
  if (env->non_local_exit_check(env) != emacs_funcall_exit_return)
    return call__take_exit(call, err);
  emacs_value files = NULL; /* set when the call returns */
  int rc = eddi_emacs_funcall(call, sym_copies, 1, &arg, &files, err);
  if (rc < 0) return rc;
  ptrdiff_t count = env->vec_size(env, files);
  for (ptrdiff_t i = 0; i < count && env->non_local_exit_check(env) == 0; i++) {
    char *file = eddi_emacs_string(env, env->vec_get(env, files, i), NULL);
    if (file) visit(data, file);
    free(file);
  }
  return env->non_local_exit_check(env) == emacs_funcall_exit_return ? 0
                                                                      : call__take_exit(call, err);
}

const EddiBackendCopies eddi_emacs_copies = {
    .find = buffer__find_copy,
    .each = buffer__each_copy,
};
