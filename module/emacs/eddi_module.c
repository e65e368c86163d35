/* eddi_module.c - eddi-module.so: the engine as an Emacs dynamic module.
 *
 * The binding is thin on purpose. An engine is a user pointer; a message goes
 * in through eddi_exec, the entry point every front end uses, and the reply
 * text comes back. The only difference from the headless build is the
 * backend opener: documents are live buffers (buffer_backend.c).
 *
 * Rules kept here (they are the module API's): every funcall and extract is
 * followed by a non-local-exit check; no emacs_value outlives the call that
 * made it except the interned symbols, which are global references; the
 * finalizer frees C memory only; only this file raises Lisp signals, the
 * engine reports failures as Fail replies.
 */
#include <emacs-module.h>

#include "buffer_backend.h"
#include "engine.h"

/* The module is built with hidden symbols; Emacs looks up these two. */
#define MODULE_EXPORT __attribute__((visibility("default")))

MODULE_EXPORT int plugin_is_GPL_compatible;

/* An engine owned by a Lisp user pointer. */
typedef struct {
  EddiEngine *engine;
  EmacsCall call;
} ModuleEngine;

/* ---------------------------------------------------------------- helpers */

static bool module__ok(emacs_env *env) {
  return env->non_local_exit_check(env) == emacs_funcall_exit_return;
}

/* Signal (error MESSAGE). */
static emacs_value module__error(emacs_env *env, const char *message) {
  emacs_value text = env->make_string(env, message, (ptrdiff_t)strlen(message));
  emacs_value data = env->funcall(env, env->intern(env, "list"), 1, &text);
  if (module__ok(env)) env->non_local_exit_signal(env, env->intern(env, "error"), data);
  return env->intern(env, "nil");
}

static void module__finalize(void *ptr) {
  ModuleEngine *self = ptr;
  if (!self) return;
  self->call.env = NULL; /* no Lisp from a finalizer */
  eddi_engine_free(self->engine);
  free(self);
}

/* The engine in value; signals when it is not one or was freed. */
static ModuleEngine *module__engine(emacs_env *env, emacs_value value) {
  ModuleEngine *self = env->get_user_ptr(env, value);
  if (!module__ok(env)) return NULL;
  if (env->get_user_finalizer(env, value) != module__finalize || !self || !self->engine) {
    module__error(env, "Not a live eddi engine");
    return NULL;
  }
  return self;
}

/* A Lisp string argument as a new C string (eddi_free), or NULL with a signal. */
static char *module__string(emacs_env *env, emacs_value value, size_t *len) {
  char *text = eddi_emacs_string(env, value, len);
  return module__ok(env) ? text : (eddi_free(text), NULL);
}

/* End a call into the engine: re-raise a quit or throw put aside during it. */
static void module__leave(emacs_env *env, ModuleEngine *self) {
  EmacsCall *call = &self->call;
  if (call->exit_pending) {
    if (call->exit_kind == emacs_funcall_exit_throw)
      env->non_local_exit_throw(env, call->exit_symbol, call->exit_data);
    else env->non_local_exit_signal(env, call->exit_symbol, call->exit_data);
  }
  call->exit_pending = false;
  call->env = NULL;
}

/* ---------------------------------------------------------------- functions */

static emacs_value Feddi_module_new(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                    void *data) {
  char *root = module__string(env, args[0], NULL);
  if (!root) return NULL;
  char error[EDDI_ERROR_MAX];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  eddi_free(root);
  if (!engine) return module__error(env, error);
  /* Plain calloc: the wrapper lives until the garbage collector finalizes
   * it, so it stays out of the engine's allocation count. */
  ModuleEngine *self = calloc(1, sizeof *self);
  if (!self) {
    eddi_engine_free(engine);
    return module__error(env, "Out of memory");
  }
  self->engine = engine;
  eddi_engine_set_backend_opener(engine, eddi_emacs_open_backend, &self->call);
  return env->make_user_ptr(env, module__finalize, self);
}

static emacs_value Feddi_module_free(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                     void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  /* With env set, closing the documents releases their buffers. */
  self->call.env = env;
  eddi_engine_free(self->engine);
  self->engine = NULL;
  module__leave(env, self);
  return env->intern(env, "nil");
}

static emacs_value Feddi_module_exec(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                     void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  if (self->call.env) return module__error(env, "eddi is already running a command");
  char *sender = module__string(env, args[1], NULL);
  size_t len = 0;
  char *text = sender ? module__string(env, args[2], &len) : NULL;
  emacs_value result = NULL;
  if (text) {
    self->call.env = env;
    char *reply = eddi_exec(self->engine, sender, text, len);
    result = env->make_string(env, reply, (ptrdiff_t)strlen(reply));
    eddi_string_free(reply);
    module__leave(env, self);
  }
  eddi_free(sender);
  eddi_free(text);
  return result;
}

static emacs_value Feddi_module_root(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                     void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  const char *root = eddi_engine_root(self->engine);
  return env->make_string(env, root, (ptrdiff_t)strlen(root));
}

static emacs_value Feddi_module_session(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                        void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  char *sender = self ? module__string(env, args[1], NULL) : NULL;
  if (!sender) return NULL;
  const char *name = eddi_engine_session_of(self->engine, sender);
  eddi_free(sender);
  return name ? env->make_string(env, name, (ptrdiff_t)strlen(name)) : env->intern(env, "nil");
}

static emacs_value Feddi_module_cursor(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                       void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  char *sender = self ? module__string(env, args[1], NULL) : NULL;
  if (!sender) return NULL;
  EddiSession *session = eddi_sessions_by_sender(&self->engine->sessions, sender);
  eddi_free(sender);
  EddiDoc *doc = session ? session->current : NULL;
  long id = doc ? eddi_emacs_backend_id(doc->backend) : -1;
  if (id < 0) return env->intern(env, "nil");
  emacs_value pair[2] = {
      env->make_integer(env, id),
      env->make_integer(env, (intmax_t)eddi_text_char_index(&doc->text, doc->cursor))};
  return env->funcall(env, env->intern(env, "cons"), 2, pair);
}

static emacs_value Feddi_module_version(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                        void *data) {
  return env->make_string(env, EDDI_VERSION, (ptrdiff_t)strlen(EDDI_VERSION));
}

static emacs_value Feddi_module_live_allocations(emacs_env *env, ptrdiff_t nargs,
                                                 emacs_value *args, void *data) {
  return env->make_integer(env, eddi_alloc_live());
}

/* ---------------------------------------------------------------- init */

static void module__defalias(emacs_env *env, const char *name, emacs_value fn) {
  if (!module__ok(env)) return;
  emacs_value args[2] = {env->intern(env, name), fn};
  env->funcall(env, env->intern(env, "defalias"), 2, args);
}

#define DEFUN(lsym, csym, amin, amax, doc) \
  module__defalias(env, lsym, env->make_function(env, amin, amax, csym, doc, NULL))

MODULE_EXPORT int emacs_module_init(struct emacs_runtime *runtime) {
  if ((size_t)runtime->size < sizeof *runtime) return 1;
  emacs_env *env = runtime->get_environment(runtime);
  if ((size_t)env->size < sizeof(struct emacs_env_28)) return 2;
  if (!eddi_emacs_symbols_init(env)) return 3;

  DEFUN("eddi-module-new", Feddi_module_new, 1, 1,
        "Make an eddi engine over the workspace folder ROOT.\n\n(fn ROOT)");
  DEFUN("eddi-module-free", Feddi_module_free, 1, 1,
        "Free ENGINE now: end its sessions and release their buffers.\n\n(fn ENGINE)");
  DEFUN("eddi-module-exec", Feddi_module_exec, 3, 3,
        "Run the EddiSpeak message TEXT from SENDER on ENGINE; return the replies,\n"
        "one line per command.\n\n(fn ENGINE SENDER TEXT)");
  DEFUN("eddi-module-root", Feddi_module_root, 1, 1,
        "The workspace folder of ENGINE.\n\n(fn ENGINE)");
  DEFUN("eddi-module-session", Feddi_module_session, 2, 2,
        "The name of SENDER's active session on ENGINE, or nil.\n\n(fn ENGINE SENDER)");
  DEFUN("eddi-module-cursor", Feddi_module_cursor, 2, 2,
        "SENDER's cursor on ENGINE as (BUFFER-ID . CHARACTER-INDEX), or nil.\n\n"
        "(fn ENGINE SENDER)");
  DEFUN("eddi-module-version", Feddi_module_version, 0, 0,
        "The version of the eddi engine in this module.\n\n(fn)");
  DEFUN("eddi-module-live-allocations", Feddi_module_live_allocations, 0, 0,
        "How many engine allocations are live (tests check for leaks).\n\n(fn)");
  if (!module__ok(env)) return 4;

  emacs_value feature = env->intern(env, "eddi-module");
  env->funcall(env, env->intern(env, "provide"), 1, &feature);
  return module__ok(env) ? 0 : 5;
}
