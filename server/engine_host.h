/* engine_host.h - the engine's one owner thread and the work queue in front.
 *
 * The engine is not thread-safe. The host owns it: transports build a
 * WorkItem, submit it, and the item's run function is called on the owner
 * thread, where it may call engine_host_exec. The host also routes messages
 * to sessions (a session named in a message must be held by this instance),
 * applies the sender checks, tells the session registry about sessions
 * started and ended, and logs one line per request.
 */
#ifndef EDDI_SERVER_ENGINE_HOST_H
#define EDDI_SERVER_ENGINE_HOST_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "eddi.h"
#include "session/engine.h"
#include "options.h"
#include "session_registry.h"
#include "work_queue.h"

/* The sender of a message that names none (plain-text NATS bodies). */
#define HOST_ANONYMOUS_SENDER "anonymous"

/* What the engine can do beyond the basic commands, found by asking it
 * `Help <Command>` at start. Transports offer only these. */
typedef struct {
  bool read;   /* Read: hashline read */
  bool grep;   /* Grep */
  bool edit;   /* Edit: hashline patch */
  bool patch;  /* Patch: apply_patch */
  bool update; /* Update: file.update */
} HostFeatures;

typedef enum { SESSION_STARTED, SESSION_ENDED } SessionEvent;

/* Called on the owner thread when a session starts or ends here. */
typedef void (*SessionEventHandler)(void *closure, SessionEvent event, const char *session,
                                    const char *sender);

typedef struct {
  const char *transport; /* for the log: "nats", "stream", "stdio" */
  const char *sender;    /* NULL: the session's holder, else anonymous */
  const char *session;   /* NULL: whatever session sender has */
  const char *text;
  size_t len;
  bool name_instance;    /* append ", Instance <id>" to a Start's reply */
} HostRequest;

typedef struct {
  bool ok;
  char *text;
} HostReplyItem;

/* A message's replies, one per command, or one Fail from the host. */
typedef struct {
  size_t count;
  HostReplyItem *items;
  int64_t duration_ns;
} HostResult;

typedef struct {
  EddiEngine *engine;
  const ServerOptions *options;
  const char *instance_id;
  HostFeatures features;
  SessionRegistry sessions;
  WorkQueue queue;
  pthread_t thread;
  bool running;
  SessionEventHandler on_session;
  void *on_session_closure;
} EngineHost;

/* Create the engine over options->root (or the current folder), probe its
 * features and prepare the queue. Writes why into error on failure. */
int engine_host_init(EngineHost *self, const ServerOptions *options, const char *instance_id,
                     char *error, size_t error_size);
/* Start the owner thread. Before this the caller's thread owns the engine. */
int engine_host_start(EngineHost *self);
/* Queue work; SERVER_EBUSY when the queue is full. */
int engine_host_submit(EngineHost *self, WorkItem *item);
/* Stop taking work, finish what is queued, join the owner thread. */
void engine_host_stop(EngineHost *self);
void engine_host_destroy(EngineHost *self);

/* Owner thread only. Run a message; never fails short of memory (then
 * SERVER_ENOMEM with an empty result). */
int engine_host_exec(EngineHost *self, const HostRequest *request, HostResult *result);
/* Work that calls the engine's C API (the edit formats) instead of sending
 * EddiSpeak text. Called on the owner thread with the sender's session (may
 * be NULL); appends the answer to reply, or fills err (nothing changed). */
typedef int (*HostCall)(EddiEngine *engine, EddiSession *session, void *closure, StrBuf *reply,
                        EddiError *err);

/* Owner thread only. Run call for request's sender with the same routing,
 * sender checks and log line as engine_host_exec; request->text is the
 * EddiSpeak command the call stands for ("Edit", "Replace"), which the
 * read-only check and the log see. The result is one item: the reply text,
 * or the `Fail "..."` line. */
int engine_host_call(EngineHost *self, const HostRequest *request, HostCall call, void *closure,
                     HostResult *result);
/* Owner thread only: the active session of sender, or NULL. Borrowed. */
const char *engine_host_session_of(EngineHost *self, const char *sender);

/* A result of one Fail line (text already formatted, `Fail "..."`). */
int host_result_set_fail(HostResult *self, const char *fail_text);
/* The replies joined by '\n', a new string the caller frees. */
char *host_result_join(const HostResult *self);
bool host_result_ok(const HostResult *self);
void host_result_free(HostResult *self);

#endif
