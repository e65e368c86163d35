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
 *
 * An engine may also serve NATS (nats_bridge.c). Requests then reach Emacs
 * through a pipe process made by eddi.el and opened here with open_channel;
 * its filter takes them with eddi-module-nats-take, runs them with
 * eddi-module-exec like any other message, and answers with
 * eddi-module-nats-reply. The bridge is stopped before its engine is freed.
 */
#include <emacs-module.h>

#include "buffer_backend.h"
#include "session/engine.h"
#include "nats_bridge.h"

/* The module is built with hidden symbols; Emacs looks up these two. */
#define MODULE_EXPORT __attribute__((visibility("default")))

MODULE_EXPORT int plugin_is_GPL_compatible;

/* An engine owned by a Lisp user pointer. */
typedef struct {
  EddiEngine *engine;
  EmacsCall call;
  NatsBridge *nats; /* NULL when not serving NATS */
  NatsBridgeItem *nats_request; /* the request taken last, until its reply */
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
  eddi_nats_bridge_stop(self->nats);
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

/* The engine's session events go to the other instances. */
static void module__session_event(void *closure, const EddiSessionEvent *event) {
  ModuleEngine *self = closure;
  if (self->nats)
    eddi_nats_bridge_session_event(self->nats, event->change == EDDI_SESSION_STARTED,
                                   event->session, event->sender);
}

/* Run a message that came over NATS, as eddi-server would: the request
 * taken last (its sender and session) through eddi_request_exec, which
 * routes it, announces a session it starts or ends and names this instance
 * in its Start reply. Returns the joined reply (eddi_free). */
static char *module__exec_nats(ModuleEngine *self, const char *sender, const char *text,
                               size_t len) {
  const NatsBridgeItem *item = self->nats_request;
  EddiRequest request = {.sender = item ? item->sender : sender,
                         .session = item ? item->session : NULL,
                         .text = text,
                         .len = len,
                         .name_instance = true};
  EddiReply reply = {0};
  eddi_request_exec(self->engine, &request, &reply);
  StrBuf joined = {0};
  for (size_t i = 0; i < reply.count; i++) {
    if (i) eddi_strbuf_putc(&joined, '\n');
    eddi_strbuf_puts(&joined, reply.items[i].text);
  }
  eddi_reply_free(&reply);
  if (!joined.data) eddi_strbuf_puts(&joined, "");
  return eddi_strbuf_take(&joined);
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
  eddi_nats_bridge_stop(self->nats);
  self->nats = NULL;
  self->nats_request = NULL;
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
  bool via_nats = nargs > 3 && env->is_not_nil(env, args[3]) && self->nats;
  emacs_value result = NULL;
  if (text && via_nats) {
    self->call.env = env;
    char *reply = module__exec_nats(self, sender, text, len);
    result = env->make_string(env, reply, (ptrdiff_t)strlen(reply));
    eddi_free(reply);
    module__leave(env, self);
  } else if (text) {
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
      NatsBridgeConfig config = {.url = url,
                                 .instance = instance,
                                 .engine = self->engine,
                                 .max_queue = (size_t)max_queue,
                                 .max_message_bytes = self->engine->config.max_message_bytes,
                                 .wake_fd = fd};
      char error[EDDI_ERROR_MAX];
      /* A bad name is the bridge's to refuse, in its words. */
      eddi_engine_set_instance(self->engine, instance);
      eddi_engine_listen_sessions(self->engine, module__session_event, self);
      if (eddi_nats_bridge_start(&self->nats, &config, error, sizeof error) == 0)
        result = env->intern(env, "t");
      else
        module__error(env, error);
    }
  }
  eddi_free(url);
  eddi_free(instance);
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
  /* The request stays the bridge's until its reply; Lisp runs it next
   * (module__exec_nats). */
  self->nats_request = item;
  const char *sender = item->sender ? item->sender : EDDI_ANONYMOUS_SENDER;
  emacs_value fields[3] = {env->make_integer(env, (intmax_t)item->id),
                           env->make_string(env, sender, (ptrdiff_t)strlen(sender)), text};
  return env->funcall(env, env->intern(env, "vector"), 3, fields);
}

static emacs_value Feddi_module_nats_reply(emacs_env *env, ptrdiff_t nargs, emacs_value *args,
                                           void *data) {
  ModuleEngine *self = module__engine(env, args[0]);
  if (!self) return NULL;
  intmax_t id = env->extract_integer(env, args[1]);
  size_t len = 0;
  char *text = module__ok(env) ? module__string(env, args[2], &len) : NULL;
  if (!text) return NULL;
  if (self->nats_request && self->nats_request->id == (uint64_t)id) self->nats_request = NULL;
  int rc = self->nats ? eddi_nats_bridge_reply(self->nats, (uint64_t)id, text, len)
                      : EDDI_NATS_ENOENT;
  eddi_free(text);
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
  self->nats_request = NULL;
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
  DEFUN("eddi-module-exec", Feddi_module_exec, 3, 4,
        "Run the EddiSpeak message TEXT from SENDER on ENGINE; return the replies,\n"
        "one line per command. VIA-NATS non-nil: the message came over ENGINE's\n"
        "NATS connection; a Start reply then names the instance.\n\n"
        "(fn ENGINE SENDER TEXT &optional VIA-NATS)");
  DEFUN("eddi-module-root", Feddi_module_root, 1, 1,
        "The workspace folder of ENGINE.\n\n(fn ENGINE)");
  DEFUN("eddi-module-session", Feddi_module_session, 2, 2,
        "The name of SENDER's active session on ENGINE, or nil.\n\n(fn ENGINE SENDER)");
  DEFUN("eddi-module-cursor", Feddi_module_cursor, 2, 2,
        "SENDER's cursor on ENGINE as (BUFFER-ID . CHARACTER-INDEX), or nil.\n\n"
        "(fn ENGINE SENDER)");
  DEFUN("eddi-module-nats-connect", Feddi_module_nats_connect, 5, 5,
        "Serve eddi.cmd and eddi.INSTANCE.cmd at URL with ENGINE.\n"
        "Arrivals write a byte to PROCESS (a pipe process), whose filter should\n"
        "call `eddi-module-nats-take'. At most MAX-QUEUE requests wait.\n\n"
        "(fn ENGINE PROCESS URL INSTANCE MAX-QUEUE)");
  DEFUN("eddi-module-nats-take", Feddi_module_nats_take, 1, 1,
        "The next NATS arrival on ENGINE: nil, a log line (a string), or a\n"
        "request [ID SENDER TEXT] to answer with `eddi-module-nats-reply'.\n\n"
        "(fn ENGINE)");
  DEFUN("eddi-module-nats-reply", Feddi_module_nats_reply, 3, 3,
        "Publish REPLY to the NATS request ID of ENGINE. nil when ID is unknown.\n\n"
        "(fn ENGINE ID REPLY)");
  DEFUN("eddi-module-nats-drain", Feddi_module_nats_drain, 1, 1,
        "Stop taking NATS requests on ENGINE; those received are queued.\n\n(fn ENGINE)");
  DEFUN("eddi-module-nats-disconnect", Feddi_module_nats_disconnect, 1, 1,
        "Close ENGINE's NATS connection and join its threads.\n\n(fn ENGINE)");
  DEFUN("eddi-module-nats-instance", Feddi_module_nats_instance, 1, 1,
        "The instance id ENGINE serves NATS as, or nil.\n\n(fn ENGINE)");
  DEFUN("eddi-module-version", Feddi_module_version, 0, 0,
        "The version of the eddi engine in this module.\n\n(fn)");
  DEFUN("eddi-module-live-allocations", Feddi_module_live_allocations, 0, 0,
        "How many engine allocations are live (tests check for leaks).\n\n(fn)");
  DEFUN("eddi-module-tools", Feddi_module_tools, 0, 0,
        "The engine's tools, as MCP offers them: a list of plists (:name NAME\n"
        ":command COMMAND :description TEXT :schema JSON), COMMAND the EddiSpeak\n"
        "command a tool stands for (nil for the eddi tool), JSON its input schema.\n\n(fn)");
  if (!module__ok(env)) return 4;

  emacs_value feature = env->intern(env, "eddi-module");
  env->funcall(env, env->intern(env, "provide"), 1, &feature);
  return module__ok(env) ? 0 : 5;
}
