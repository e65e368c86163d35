/* eddi_module.c - eddi-module.so: the engine as an Emacs dynamic module.
 *
 * The binding is thin on purpose. An engine is a user pointer; a message goes
 * in as a request (eddi_request_exec, what every transport uses) and the
 * reply text comes back. The only difference from the headless build is the
 * backend: documents are live buffers (buffer_backend.c). Only the public
 * headers (eddi.h, eddi_backend.h) are seen here, and memory here is the
 * module's own (malloc), not the engine's.
 *
 * Rules kept here (they are the module API's): every funcall and extract is
 * followed by a non-local-exit check; no emacs_value outlives the call that
 * made it except the interned symbols, which are global references; the
 * finalizer frees C memory only; only this file raises Lisp signals, the
 * engine reports failures as Fail replies.
 *
 * An engine may also serve NATS (nats_bridge.c). Requests then reach Emacs
 * through a pipe process made by eddi.el and opened here with open_channel;
 * its filter takes them with eddi-module-nats-take, runs them with
 * eddi-module-exec like any other message (the engine routes them by sender
 * and session, and names the instance in a Start's reply), and answers with
 * eddi-module-nats-reply. While connected the engine's session events go out
 * on NATS. The bridge is stopped before its engine is freed.
 *
 * No waker is set: long work runs while Emacs waits, as a plain command.
 *
 * Out of memory. The engine's allocator calls the module's handler instead
 * of aborting Emacs. Every call from Lisp into the engine (each module
 * function, and the finalizer, which runs inside the garbage collector)
 * sets a jump point first; calls nest, since the engine runs Lisp
 * (buffer_backend.c) that may call the module again, and the handler jumps
 * to the innermost one on its thread, which never skips a frame of
 * Emacs's. The call then signals what Emacs itself signals when its memory
 * runs out (memory-signal-data: "Memory exhausted--use C-x s then exit and
 * restart Emacs"). What the jump left behind is not repaired: structures
 * half made, and locks held, some of them shared by every engine of the
 * process (the one inotify watch of fs.c, the language table). So the
 * module is broken for good, in every engine: each later call signals that
 * eddi ran out of memory and that Emacs must be restarted (a module cannot
 * be unloaded, so M-x eddi-reset cannot make a sound engine), the engines
 * are never freed, and from then on the engine itself writes no workspace
 * file (fs.c). When the break happens in a nested call, the engine code of the
 * outer call stops as soon as the Lisp it ran returns
 * (eddi_emacs_stop_if_broken) and its call signals too. A failure on a
 * thread that is not Emacs's (the engine's workers, the NATS bridge's
 * threads) has no jump point to return to: there the handler returns and
 * eddi aborts, the default.
 */
#include <emacs-module.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffer_backend.h"
#include "eddi.h"
#include "eddi_backend.h"
#include "nats_bridge.h"

/* The module is built with hidden symbols; Emacs looks up these two. */
#define MODULE_EXPORT __attribute__((visibility("default")))

MODULE_EXPORT int plugin_is_GPL_compatible;

/* An engine owned by a Lisp user pointer. */
typedef struct {
  EddiEngine *engine;
  EmacsCall call;
  NatsBridge *nats; /* NULL when not serving NATS */
} ModuleEngine;

/* ---------------------------------------------------------------- helpers */

static bool module__ok(emacs_env *env) {
  return env->non_local_exit_check(env) == emacs_funcall_exit_return;
}

/* ---------------------------------------------------------------- out of memory */

/* A call from Lisp into the engine in progress on this thread: where the
 * out-of-memory handler jumps back to. */
typedef struct ModuleEntry {
  jmp_buf jump;
  struct ModuleEntry *outer; /* the call this one is nested in, or NULL */
} ModuleEntry;

/* The innermost call of each thread (Lisp threads have their own stacks). */
static _Thread_local ModuleEntry *module_entry;
/* Set for good by the first failure; Lisp threads run one at a time. */
static bool module_broken;
static size_t module_failed_size;

static const char module_broken_message[] =
    "eddi ran out of memory and stopped: nothing more runs and no file is written;"
    " save your buffers (C-x s) and restart Emacs to use eddi again";

static void module__enter(ModuleEntry *entry) {
  entry->outer = module_entry;
  module_entry = entry;
}

static void module__exit(ModuleEntry *entry) { module_entry = entry->outer; }

/* The engine's out-of-memory handler: back to the innermost call. Off
 * Emacs's threads there is none; returning makes eddi abort. */
static void module__out_of_memory(size_t size) {
  ModuleEntry *entry = module_entry;
  if (!entry) {
    fprintf(stderr, "eddi: out of memory (%zu bytes) outside a call from Emacs\n", size);
    return;
  }
  module_broken = true;
  module_failed_size = size;
  longjmp(entry->jump, 1);
}

void eddi_emacs_stop_if_broken(void) {
  if (!module_broken) return;
  if (!module_entry) {
    /* Engine code runs only inside a call: nothing to return to. */
    fputs("eddi: out of memory: engine code ran outside a call from Emacs\n", stderr);
    abort();
  }
  longjmp(module_entry->jump, 1);
}

/* The jump came back to a call: say why in *Messages*, then signal what
 * Emacs signals when its own memory runs out. What the call had put aside
 * (a quit, a half-made signal) goes: this comes first. */
static emacs_value module__memory_full(emacs_env *env) {
  env->non_local_exit_clear(env);
  char text[256];
  int len = snprintf(text, sizeof text,
                     "eddi: out of memory (%zu bytes); eddi is stopped until Emacs restarts",
                     module_failed_size);
  emacs_value args[2] = {env->make_string(env, "%s", 2),
                         env->make_string(env, text, (ptrdiff_t)len)};
  env->funcall(env, env->intern(env, "message"), 2, args);
  env->non_local_exit_clear(env);
  emacs_value name = env->intern(env, "memory-signal-data");
  emacs_value data = env->funcall(env, env->intern(env, "symbol-value"), 1, &name);
  emacs_value symbol = env->funcall(env, env->intern(env, "car-safe"), 1, &data);
  emacs_value rest = env->funcall(env, env->intern(env, "cdr-safe"), 1, &data);
  if (module__ok(env) && env->is_not_nil(env, symbol)) {
    env->non_local_exit_signal(env, symbol, rest);
  } else {
    env->non_local_exit_clear(env);
    emacs_value message = env->make_string(env, "Memory exhausted", 16);
    env->non_local_exit_signal(env, env->intern(env, "error"),
                               env->funcall(env, env->intern(env, "list"), 1, &message));
  }
  return env->intern(env, "nil");
}

/* Signal (error MESSAGE). */
static emacs_value module__error(emacs_env *env, const char *message) {
  emacs_value text = env->make_string(env, message, (ptrdiff_t)strlen(message));
  emacs_value data = env->funcall(env, env->intern(env, "list"), 1, &text);
  if (module__ok(env)) env->non_local_exit_signal(env, env->intern(env, "error"), data);
  return env->intern(env, "nil");
}

/* The garbage collector's: a call into the engine of its own, since it
 * may run inside any Lisp, the engine's callbacks included. A broken
 * module's engines are never touched again: they stay as the jump left
 * them, their NATS bridges too (joining its threads could wait forever on
 * a lock the jump left held). */
static void module__finalize(void *ptr) {
  ModuleEngine *self = ptr;
  if (!self || module_broken) return;
  ModuleEntry entry;
  module__enter(&entry);
  if (setjmp(entry.jump) == 0) {
    self->call.env = NULL; /* no Lisp from a finalizer */
    eddi_nats_bridge_stop(self->nats);
    eddi_engine_free(self->engine);
    free(self);
  }
  module__exit(&entry);
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

/* A Lisp string argument as a new C string (free), or NULL with a signal. */
static char *module__string(emacs_env *env, emacs_value value, size_t *len) {
  char *text = eddi_emacs_string(env, value, len);
  return module__ok(env) ? text : (free(text), NULL);
}

/* An optional string argument: NULL for nil, else as module__string
 * (*failed set when it was neither). */
static char *module__string_or_nil(emacs_env *env, emacs_value value, bool *failed) {
  if (!env->is_not_nil(env, value)) return NULL;
  char *text = module__string(env, value, NULL);
  *failed = !text;
  return text;
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

/* The replies of reply, one line each, as a Lisp string. */
static emacs_value module__reply_string(emacs_env *env, const EddiReply *reply) {
  size_t size = 0;
  for (size_t i = 0; i < reply->count; i++) size += strlen(reply->items[i].text) + 1;
  char *joined = malloc(size ? size : 1);
  if (!joined) return module__error(env, "Out of memory");
  size_t at = 0;
  for (size_t i = 0; i < reply->count; i++) {
    if (i) joined[at++] = '\n';
    size_t n = strlen(reply->items[i].text);
    memcpy(joined + at, reply->items[i].text, n);
    at += n;
  }
  emacs_value text = env->make_string(env, joined, (ptrdiff_t)at);
  free(joined);
  return text;
}

/* The engine started or ended a session: other instances hear of it while
 * this Emacs serves NATS, as they do from eddi-server. */
static void module__session_event(void *closure, const EddiSessionEvent *event) {
  ModuleEngine *self = closure;
  if (self->nats)
    eddi_nats_bridge_session_event(self->nats, event->change == EDDI_SESSION_STARTED,
                                   event->session, event->sender);
}

/* ---------------------------------------------------------------- functions */

static emacs_value Feddi_module_new(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                    void *data) {
  char *root = module__string(env, args[0], NULL);
  if (!root) return NULL;
  char error[EDDI_ERROR_MAX];
  EddiConfig config;
  eddi_config_default(&config);
  config.lsp_off = nargs > 1 && env->is_not_nil(env, args[1]);
  bool failed = false;
  char *lsp_commands = nargs > 2 ? module__string_or_nil(env, args[2], &failed) : NULL;
  config.lsp_commands = lsp_commands;
  config.lsp_trust_workspace = nargs > 3 && env->is_not_nil(env, args[3]);
  EddiEngine *engine = failed ? NULL : eddi_engine_new(root, &config, error, sizeof error);
  free(root);
  free(lsp_commands);
  if (failed) return NULL;
  if (!engine) return module__error(env, error);
  /* Plain calloc: the wrapper lives until the garbage collector finalizes
   * it, so it stays out of the engine's allocation count. */
  ModuleEngine *self = calloc(1, sizeof *self);
  if (!self) {
    eddi_engine_free(engine);
    return module__error(env, "Out of memory");
  }
  self->engine = engine;
  eddi_engine_set_backend(engine, eddi_emacs_open_backend, &self->call);
  eddi_engine_set_backend_copies(engine, &eddi_emacs_copies);
  eddi_engine_listen_sessions(engine, module__session_event, self);
  return env->make_user_ptr(env, module__finalize, self);
}

/* The journal (doc/journal.org): opened on request, since it takes back
 * the sessions a previous Emacs left, and their files then open as
 * buffers. The report says what came back. */
static emacs_value Feddi_module_open_journal(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                             void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  if (self->call.env) return module__error(env, "eddi is already running a command");
  char report[EDDI_ERROR_MAX * 4], error[EDDI_ERROR_MAX];
  if (nargs > 1 && env->is_not_nil(env, args[1])) {
    char *only = module__string(env, args[1], NULL);
    if (!only) return NULL;
    eddi_engine_set_resume_only(self->engine, only);
    free(only);
  }
  self->call.env = env;
  int rc = eddi_engine_open_journal(self->engine, report, sizeof report, error, sizeof error);
  module__leave(env, self);
  if (rc < 0) return module__error(env, error);
  return env->make_string(env, report, (ptrdiff_t)strlen(report));
}

/* What the journal holds, before it is opened (the resume prompt lists it). */
static emacs_value Feddi_module_journal_sessions(emacs_env *env, ptrdiff_t nargs,
                                                 emacs_value *args, void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  char error[EDDI_ERROR_MAX], *lines = NULL;
  if (eddi_engine_journal_sessions(self->engine, &lines, error, sizeof error) < 0)
    return module__error(env, error);
  emacs_value value = env->make_string(env, lines, (ptrdiff_t)strlen(lines));
  eddi_string_free(lines);
  return value;
}

static emacs_value Feddi_module_free(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                     void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  if (module_broken) {
    /* Let go without touching it (see module__finalize): eddi-reset can
     * forget it, and the next eddi-module-new says to restart Emacs. */
    self->engine = NULL;
    self->nats = NULL;
    return env->intern(env, "nil");
  }
  eddi_nats_bridge_stop(self->nats);
  self->nats = NULL;
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
  bool via_nats = nargs > 3 && env->is_not_nil(env, args[3]), failed = false;
  /* A NATS request may name only its session: then SENDER is nil. */
  char *sender = via_nats ? module__string_or_nil(env, args[1], &failed)
                          : module__string(env, args[1], NULL);
  failed |= !via_nats && !sender;
  char *session = !failed && nargs > 4 ? module__string_or_nil(env, args[4], &failed) : NULL;
  size_t len = 0;
  char *text = !failed ? module__string(env, args[2], &len) : NULL;
  emacs_value result = NULL;
  if (text) {
    EddiRequest request = {.sender = sender, .session = session, .text = text, .len = len,
                           .name_instance = via_nats, .transport = via_nats ? "nats" : "emacs"};
    EddiReply reply;
    self->call.env = env;
    eddi_request_exec(self->engine, &request, &reply);
    result = module__reply_string(env, &reply);
    eddi_reply_free(&reply);
    module__leave(env, self);
  }
  free(sender);
  free(session);
  free(text);
  return result;
}

static emacs_value Feddi_module_root(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                     void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  const char *root = eddi_engine_root(self->engine);
  return env->make_string(env, root, (ptrdiff_t)strlen(root));
}

static emacs_value Feddi_module_state_dir(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                          void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  char error[EDDI_ERROR_MAX];
  const char *dir = eddi_engine_state_dir(self->engine, error, sizeof error);
  if (!dir) return module__error(env, error);
  return env->make_string(env, dir, (ptrdiff_t)strlen(dir));
}

static emacs_value Feddi_module_session(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                        void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  char *sender = self ? module__string(env, args[1], NULL) : NULL;
  if (!sender) return NULL;
  const char *name = eddi_engine_session_of(self->engine, sender);
  free(sender);
  return name ? env->make_string(env, name, (ptrdiff_t)strlen(name)) : env->intern(env, "nil");
}

static emacs_value Feddi_module_cursor(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                       void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  char *sender = self ? module__string(env, args[1], NULL) : NULL;
  if (!sender) return NULL;
  void *backend = NULL;
  size_t char_index = 0;
  bool found = eddi_engine_cursor(self->engine, sender, &backend, &char_index);
  free(sender);
  long id = found ? eddi_emacs_backend_id(backend) : -1;
  if (id < 0) return env->intern(env, "nil");
  emacs_value pair[2] = {env->make_integer(env, id),
                         env->make_integer(env, (intmax_t)char_index)};
  return env->funcall(env, env->intern(env, "cons"), 2, pair);
}

/* ---------------------------------------------------------------- NATS */

static emacs_value Feddi_module_nats_connect(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                             void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  if (self->nats) return module__error(env, "eddi already serves NATS: disconnect first");
  intmax_t max_queue = env->extract_integer(env, args[4]);
  if (!module__ok(env)) return NULL;
  if (max_queue < 1) return module__error(env, "The NATS queue needs room for one request");
  char *url = module__string(env, args[2], NULL);
  char *instance = url ? module__string(env, args[3], NULL) : NULL;
  emacs_value result = NULL;
  if (instance) {
    int fd = env->open_channel(env, args[1]);
    if (module__ok(env)) {
      NatsBridgeConfig config = {
          .engine = self->engine,
          .url = url,
          .instance = instance,
          .max_queue = (size_t)max_queue,
          .max_message_bytes = eddi_engine_config(self->engine)->max_message_bytes,
          .wake_fd = fd};
      char error[EDDI_ERROR_MAX];
      if (eddi_nats_bridge_start(&self->nats, &config, error, sizeof error) == 0) {
        /* The bridge checked the name; the engine names it in Start replies. */
        eddi_engine_set_instance(self->engine, instance);
        result = env->intern(env, "t");
      } else {
        module__error(env, error);
      }
    }
  }
  free(url);
  free(instance);
  return result;
}

static emacs_value Feddi_module_nats_take(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                          void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  if (!self->nats) return env->intern(env, "nil");
  NatsBridgeItem *item = eddi_nats_bridge_take(self->nats);
  if (!item) return env->intern(env, "nil");
  emacs_value text = env->make_string(env, item->text, (ptrdiff_t)item->len);
  if (item->kind == NATS_ITEM_LOG) {
    eddi_nats_bridge_item_free(item);
    return text;
  }
  /* The request stays the bridge's until its reply. */
  emacs_value nil = env->intern(env, "nil");
  emacs_value fields[4] = {
      env->make_integer(env, (intmax_t)item->id),
      item->sender ? env->make_string(env, item->sender, (ptrdiff_t)strlen(item->sender)) : nil,
      text,
      item->session ? env->make_string(env, item->session, (ptrdiff_t)strlen(item->session))
                    : nil};
  return env->funcall(env, env->intern(env, "vector"), 4, fields);
}

static emacs_value Feddi_module_nats_reply(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                           void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  intmax_t id = env->extract_integer(env, args[1]);
  size_t len = 0;
  char *text = module__ok(env) ? module__string(env, args[2], &len) : NULL;
  if (!text) return NULL;
  int rc = self->nats ? eddi_nats_bridge_reply(self->nats, (uint64_t)id, text, len) : EDDI_ENOENT;
  free(text);
  return env->intern(env, rc == 0 ? "t" : "nil");
}

static emacs_value Feddi_module_nats_drain(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                           void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  eddi_nats_bridge_drain(self->nats);
  return env->intern(env, "nil");
}

static emacs_value Feddi_module_nats_disconnect(emacs_env *env, ptrdiff_t nargs,
                                                emacs_value *args, void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  eddi_nats_bridge_stop(self->nats);
  self->nats = NULL;
  eddi_engine_set_instance(self->engine, NULL);
  return env->intern(env, "nil");
}

static emacs_value Feddi_module_nats_instance(emacs_env *env, ptrdiff_t nargs,
                                              emacs_value *args, void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  if (!self->nats) return env->intern(env, "nil");
  const char *id = eddi_nats_bridge_instance(self->nats);
  return env->make_string(env, id, (ptrdiff_t)strlen(id));
}

/* ---------------------------------------------------------------- misc */

static emacs_value Feddi_module_version(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                        void *data) {
  return env->make_string(env, EDDI_VERSION, (ptrdiff_t)strlen(EDDI_VERSION));
}

static emacs_value Feddi_module_live_allocations(emacs_env *env, ptrdiff_t nargs,
                                                 emacs_value *args, void *data) {
  return env->make_integer(env, eddi_alloc_live());
}

/* The engine's tool table (eddi_tool_info) as a list of plists, first tool
 * first: the Emacs agent offers these descriptions and schemas rather than
 * a copy of its own. */
static emacs_value Feddi_module_tools(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                      void *data) {
  emacs_value nil = env->intern(env, "nil");
  emacs_value tools = nil;
  for (size_t i = eddi_tool_count(); i-- > 0 && module__ok(env);) {
    const EddiToolInfo *tool = eddi_tool_info(i);
    const char *texts[] = {tool->name, tool->command, tool->description, tool->schema};
    const char *keys[] = {":name", ":command", ":description", ":schema"};
    emacs_value plist[2 * (sizeof texts / sizeof texts[0])];
    for (size_t f = 0; f < sizeof texts / sizeof texts[0]; f++) {
      plist[2 * f] = env->intern(env, keys[f]);
      plist[2 * f + 1] =
          texts[f] ? env->make_string(env, texts[f], (ptrdiff_t)strlen(texts[f])) : nil;
    }
    if (!module__ok(env)) return NULL;
    emacs_value pair[2] = {
        env->funcall(env, env->intern(env, "list"), (ptrdiff_t)(sizeof plist / sizeof plist[0]),
                     plist),
        tools};
    if (!module__ok(env)) return NULL;
    tools = env->funcall(env, env->intern(env, "cons"), 2, pair);
  }
  return module__ok(env) ? tools : NULL;
}

#ifdef EDDI_MODULE_TESTING
/* The test build's (test/ert/CMakeLists.txt) engine allocator: after a
 * countdown every allocation fails, to reach the out-of-memory path for
 * real. The shipped module has no such function. */
static atomic_long module__allocations_left = -1; /* -1: none fails */
static atomic_long module__allocations_made;      /* since the last countdown set */

static bool module__allocation_fails(void) {
  atomic_fetch_add(&module__allocations_made, 1);
  long left = atomic_load(&module__allocations_left);
  while (left > 0 && !atomic_compare_exchange_weak(&module__allocations_left, &left, left - 1)) {
  }
  return left == 0;
}

static void *module__test_malloc(size_t size) {
  return module__allocation_fails() ? NULL : malloc(size);
}

static void *module__test_calloc(size_t count, size_t size) {
  return module__allocation_fails() ? NULL : calloc(count, size);
}

static void *module__test_realloc(void *ptr, size_t size) {
  return module__allocation_fails() ? NULL : realloc(ptr, size);
}

static emacs_value Feddi_module_fail_allocations(emacs_env *env, ptrdiff_t nargs,
                                                 emacs_value *args, void *data) {
  intmax_t count = env->extract_integer(env, args[0]);
  if (!module__ok(env)) return NULL;
  atomic_store(&module__allocations_left, count < 0 ? -1 : (long)count);
  long made = atomic_exchange(&module__allocations_made, 0);
  return env->make_integer(env, made);
}
#endif

/* ---------------------------------------------------------------- init */

/* How a function meets a module that ran out of memory. */
enum { MODULE_REFUSES_BROKEN, MODULE_RUNS_BROKEN };

/* A function as Lisp calls it: through module__call. */
typedef struct {
  emacs_value (*fn)(emacs_env *env, ptrdiff_t nargs, emacs_value *args, void *data);
  bool runs_broken; /* it touches no engine, or only lets go of one */
} ModuleFunction;

/* Every function's entry: refuse once the module is broken, else set the
 * jump point the out-of-memory handler comes back to. */
static emacs_value module__call(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                void *data) {
  const ModuleFunction *function = data;
  if (module_broken && !function->runs_broken) return module__error(env, module_broken_message);
  ModuleEntry entry;
  module__enter(&entry);
  emacs_value result;
  if (setjmp(entry.jump) == 0) result = function->fn(env, nargs, args, NULL);
  else result = module__memory_full(env);
  module__exit(&entry);
  return result;
}

static void module__defalias(emacs_env *env, const char *name, emacs_value fn) {
  if (!module__ok(env)) return;
  emacs_value args[2] = {env->intern(env, name), fn};
  env->funcall(env, env->intern(env, "defalias"), 2, args);
}

#define DEFUN(lsym, csym, amin, amax, broken, doc)                                      \
  do {                                                                                 \
    static ModuleFunction csym##_function = {csym, broken == MODULE_RUNS_BROKEN};      \
    module__defalias(env, lsym,                                                        \
                     env->make_function(env, amin, amax, module__call, doc,            \
                                        &csym##_function));                            \
  } while (0)

MODULE_EXPORT int emacs_module_init(struct emacs_runtime *runtime) {
  if ((size_t)runtime->size < sizeof *runtime) return 1;
  emacs_env *env = runtime->get_environment(runtime);
  if ((size_t)env->size < sizeof(struct emacs_env_28)) return 2;
  if (!eddi_emacs_symbols_init(env)) return 3;
  eddi_set_allocator(NULL, NULL, NULL, NULL, module__out_of_memory);

  DEFUN("eddi-module-new", Feddi_module_new, 1, 4, MODULE_REFUSES_BROKEN,
        "Make an eddi engine over the workspace folder ROOT.\n"
        "With NO-LSP non-nil it starts no language server (doc/lsp.org).\n"
        "LSP-COMMANDS, a string of LANG=COMMAND lines, names servers; with\n"
        "TRUST-WORKSPACE non-nil the commands ROOT's .eddi/lsp.conf names run.\n\n"
        "(fn ROOT &optional NO-LSP LSP-COMMANDS TRUST-WORKSPACE)");
  DEFUN("eddi-module-free", Feddi_module_free, 1, 1, MODULE_RUNS_BROKEN,
        "Free ENGINE now: end its sessions and release their buffers.\n\n(fn ENGINE)");
  DEFUN("eddi-module-exec", Feddi_module_exec, 3, 5, MODULE_REFUSES_BROKEN,
        "Run the EddiSpeak message TEXT from SENDER on ENGINE; return the replies,\n"
        "one line per command. VIA-NATS non-nil: the message came over ENGINE's\n"
        "NATS connection; a Start reply then names the instance, and SENDER may\n"
        "be nil when SESSION names the session to run in (its sender's).\n\n"
        "(fn ENGINE SENDER TEXT &optional VIA-NATS SESSION)");
  DEFUN("eddi-module-open-journal", Feddi_module_open_journal, 1, 2, MODULE_REFUSES_BROKEN,
        "Keep ENGINE's sessions in the workspace's journal and take back those a\n"
        "previous process left; return what was restored (lines, maybe empty).\n"
        "ONLY, a string of session names one a line, restores just those; the\n"
        "others stay in the journal.\n\n"
        "(fn ENGINE &optional ONLY)");
  DEFUN("eddi-module-journal-sessions", Feddi_module_journal_sessions, 1, 1,
        MODULE_REFUSES_BROKEN,
        "What the journal of ENGINE's workspace holds, before it is opened: a line\n"
        "NAME<TAB>SENDER<TAB>FILES<TAB>EDITS per session (FILES joined by \", \").\n\n"
        "(fn ENGINE)");
  DEFUN("eddi-module-root", Feddi_module_root, 1, 1, MODULE_REFUSES_BROKEN,
        "The workspace folder of ENGINE.\n\n(fn ENGINE)");
  DEFUN("eddi-module-state-dir", Feddi_module_state_dir, 1, 1, MODULE_REFUSES_BROKEN,
        "The state folder of ENGINE's workspace (its journal lives there).\n\n(fn ENGINE)");
  DEFUN("eddi-module-session", Feddi_module_session, 2, 2, MODULE_REFUSES_BROKEN,
        "The name of SENDER's active session on ENGINE, or nil.\n\n(fn ENGINE SENDER)");
  DEFUN("eddi-module-cursor", Feddi_module_cursor, 2, 2, MODULE_REFUSES_BROKEN,
        "SENDER's cursor on ENGINE as (BUFFER-ID . CHARACTER-INDEX), or nil.\n\n"
        "(fn ENGINE SENDER)");
  DEFUN("eddi-module-nats-connect", Feddi_module_nats_connect, 5, 5, MODULE_REFUSES_BROKEN,
        "Serve eddi.cmd and eddi.INSTANCE.cmd at URL with ENGINE.\n"
        "Arrivals write a byte to PROCESS (a pipe process), whose filter should\n"
        "call `eddi-module-nats-take'. At most MAX-QUEUE requests wait.\n\n"
        "(fn ENGINE PROCESS URL INSTANCE MAX-QUEUE)");
  DEFUN("eddi-module-nats-take", Feddi_module_nats_take, 1, 1, MODULE_REFUSES_BROKEN,
        "The next NATS arrival on ENGINE: nil, a log line (a string), or a\n"
        "request [ID SENDER TEXT SESSION] to run with `eddi-module-exec' and\n"
        "answer with `eddi-module-nats-reply'. SENDER or SESSION may be nil.\n\n"
        "(fn ENGINE)");
  DEFUN("eddi-module-nats-reply", Feddi_module_nats_reply, 3, 3, MODULE_REFUSES_BROKEN,
        "Publish REPLY to the NATS request ID of ENGINE. nil when ID is unknown.\n\n"
        "(fn ENGINE ID REPLY)");
  DEFUN("eddi-module-nats-drain", Feddi_module_nats_drain, 1, 1, MODULE_REFUSES_BROKEN,
        "Stop taking NATS requests on ENGINE; those received are queued.\n\n(fn ENGINE)");
  DEFUN("eddi-module-nats-disconnect", Feddi_module_nats_disconnect, 1, 1, MODULE_REFUSES_BROKEN,
        "Close ENGINE's NATS connection and join its threads.\n\n(fn ENGINE)");
  DEFUN("eddi-module-nats-instance", Feddi_module_nats_instance, 1, 1, MODULE_REFUSES_BROKEN,
        "The instance id ENGINE serves NATS as, or nil.\n\n(fn ENGINE)");
  DEFUN("eddi-module-version", Feddi_module_version, 0, 0, MODULE_RUNS_BROKEN,
        "The version of the eddi engine in this module.\n\n(fn)");
  DEFUN("eddi-module-live-allocations", Feddi_module_live_allocations, 0, 0, MODULE_RUNS_BROKEN,
        "How many engine allocations are live (tests check for leaks).\n\n(fn)");
  DEFUN("eddi-module-tools", Feddi_module_tools, 0, 0, MODULE_REFUSES_BROKEN,
        "The engine's tools, as MCP offers them: a list of plists (:name NAME\n"
        ":command COMMAND :description TEXT :schema JSON), COMMAND the EddiSpeak\n"
        "command a tool stands for (nil for the eddi tool), JSON its input schema.\n\n(fn)");
#ifdef EDDI_MODULE_TESTING
  eddi_set_allocator(module__test_malloc, module__test_calloc, module__test_realloc, NULL,
                     module__out_of_memory);
  DEFUN("eddi-module--fail-allocations", Feddi_module_fail_allocations, 1, 1,
        MODULE_RUNS_BROKEN,
        "Test build only: after COUNT more engine allocations, every one fails\n"
        "(COUNT -1: none fails). Return how many were made since the last call.\n\n"
        "(fn COUNT)");
#endif
  if (!module__ok(env)) return 4;

  emacs_value feature = env->intern(env, "eddi-module");
  env->funcall(env, env->intern(env, "provide"), 1, &feature);
  return module__ok(env) ? 0 : 5;
}
