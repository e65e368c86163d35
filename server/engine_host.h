/* engine_host.h - the engine's one owner thread and the work queue in front.
 *
 * The engine is not thread-safe. The host owns it: transports build a
 * WorkItem, submit it, and the item's run function is called on the owner
 * thread, where it may call engine_host_exec or engine_host_call. What a
 * request may do (where its session lives, the sender policy, the instance
 * a Start names, the session events it causes) is the engine's to decide,
 * through eddi.h's requests; the host adds one log line per request.
 */
#ifndef EDDI_SERVER_ENGINE_HOST_H
#define EDDI_SERVER_ENGINE_HOST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>

#include "eddi.h"
#include "options.h"
#include "work_queue.h"

/* What the engine can do beyond the basic commands, found by asking it
 * `Help <Command>` at start. Transports offer only these. */
typedef struct {
  bool read;   /* Read: hashline read */
  bool grep;   /* Grep */
  bool edit;   /* Edit: hashline patch */
  bool patch;  /* Patch: apply_patch */
  bool update; /* Update: file.update */
  bool refactor; /* Refactor: refactor, preview */
  bool changesets; /* Apply changeset: a script's collected changes, kept to preview, apply, roll back */
} HostFeatures;

/* A request as a transport hands it over: the engine's, and the transport
 * named in its log line ("nats", "stream", "stdio"). */
typedef struct {
  const char *transport;
  EddiRequest request;
} HostRequest;

/* Answers a transport's job with its reply, now or, for long work, later on
 * the owner thread; the reply is borrowed for the call. The answer owns the
 * job from then on (frees it). */
typedef void (*HostAnswer)(void *job, const EddiReply *reply);

/* A request whose reply is pending (long work), by its ticket. */
typedef struct HostPending {
  struct HostPending *next;
  uint64_t ticket;
  HostAnswer answer; /* NULL: a synchronous caller waits for it (done) */
  void *job;
  HostRequest request; /* for the log line; its strings are the job's */
  int64_t started_ns;
  bool done;
  EddiReply reply;     /* filled for a synchronous caller */
} HostPending;

/* Told of every request once it is answered, on the owner thread, with
 * its reply (borrowed for the call): the web interface's watch feed. */
typedef void (*HostWatcher)(void *closure, const HostRequest *request, const EddiReply *reply);

typedef struct {
  EddiEngine *engine;
  const ServerOptions *options;
  const char *instance_id;
  HostFeatures features;
  WorkQueue queue;
  pthread_t thread;
  bool running;
  HostWatcher watcher; /* every answered request also goes here, or NULL */
  void *watcher_closure;
  EddiAuditSink audit_forward; /* each audit line also goes here, or NULL */
  void *audit_forward_closure;
  /* Long work: the engine answers later; its waker queues wake_item. */
  HostPending *pending;
  atomic_uint_fast64_t next_ticket;
  WorkItem wake_item;
  atomic_bool wake_queued;
} EngineHost;

/* Create the engine over options->root (or the current folder), give it the
 * instance id and the sender policy, probe its features and prepare the
 * queue. Writes why into error on failure. */
int engine_host_init(EngineHost *self, const ServerOptions *options, const char *instance_id,
                     char *error, size_t error_size);
/* Turn the engine's audit log on as the options say (--audit FILE|off,
 * default <state>/audit.jsonl; with --audit-subject, off still hands the
 * lines on). A file asked for by name that cannot be opened is an error
 * (why in error); the default one is a warning. Before the owner thread
 * starts. */
int engine_host_start_audit(EngineHost *self, char *error, size_t error_size);
/* Every audit line is also handed to forward, on the owner thread (the
 * NATS service publishes it). Before the owner thread starts. */
void engine_host_forward_audit(EngineHost *self, EddiAuditSink forward, void *closure);
/* Every answered request is also handed to watcher, on the owner thread
 * (the web watch feed publishes it). Before the owner thread starts. */
void engine_host_watch(EngineHost *self, HostWatcher watcher, void *closure);
/* Start the owner thread. Before this the caller's thread owns the engine. */
int engine_host_start(EngineHost *self);
/* Queue work; SERVER_EBUSY when the queue is full, SERVER_ECLOSED when
 * stopping. */
int engine_host_submit(EngineHost *self, WorkItem *item);
/* What a transport answers when submit refused its work (status). */
const char *engine_host_refusal(int status);
/* Stop taking work, finish what is queued, join the owner thread. */
void engine_host_stop(EngineHost *self);
void engine_host_destroy(EngineHost *self);

/* Owner thread only. Run a message: reply gets one item per command, or
 * one Fail; free it with eddi_reply_free. */
void engine_host_exec(EngineHost *self, const HostRequest *request, EddiReply *reply);
/* Owner thread only. Run a message and answer it through answer(job, ...):
 * at once, or, when a command's long work runs on a worker thread, once it
 * is done, while the owner thread serves other senders meanwhile. */
void engine_host_exec_answer(EngineHost *self, const HostRequest *request, HostAnswer answer,
                             void *job);
/* Owner thread only. Run a typed call (an edit format) the same way; the
 * request's text is the command it stands for ("Edit", "Replace"), which
 * the read-only check and the log see. outcome may be NULL. */
void engine_host_call(EngineHost *self, const HostRequest *request, const EddiCall *call,
                      EddiReply *reply, EddiCallOutcome *outcome);
/* A new request ticket (any thread): a transport that may cancel a request
 * gives it one in request.ticket before submitting it; a request without
 * one gets one when it runs. */
uint64_t engine_host_new_ticket(EngineHost *self);
/* Stop the long work of the request with ticket (any thread): nothing it
 * made is written (eddi_engine_cancel). SERVER_EINVAL when none of it is
 * running now. */
int engine_host_cancel(EngineHost *self, uint64_t ticket);

/* How far the long work of the request with ticket has come (any thread):
 * false when none of it runs now; *unit may be NULL (nothing counted). */
bool engine_host_progress(EngineHost *self, uint64_t ticket, size_t *done, const char **unit);

/* Owner thread only: the active session of sender, or NULL. Borrowed. */
const char *engine_host_session_of(EngineHost *self, const char *sender);

/* The replies joined by '\n': a new string the caller frees with free(),
 * NULL when out of memory. */
char *engine_host_join(const EddiReply *reply);
/* True when every command succeeded. */
bool engine_host_reply_ok(const EddiReply *reply);

#endif
