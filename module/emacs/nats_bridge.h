/* nats_bridge.h - external agents drive this Emacs's buffers over NATS.
 *
 * The bridge answers the subjects eddi-server answers (eddi.cmd in queue
 * group "eddi", and eddi.<instance>.cmd), with the same message shapes,
 * and shares sessions with the other instances the same way
 * (eddi.session.events, eddi.session.sync): the protocol is the link's
 * (eddi_link.h). What differs is where the engine lives: on the Emacs
 * thread, editing live buffers.
 *
 * Two kinds of threads meet here. nats.c's threads (the reader, the
 * subscription dispatchers, the reconnect thread) read and check each
 * request and append it to a bounded queue under a mutex; they never touch
 * Lisp, and touch the engine only through its thread-safe session registry
 * (other instances' events, the answer to their sync). To get Emacs's
 * attention they write one byte to a file descriptor that Emacs gave out
 * with open_channel: the write end of a pipe process, whose filter then
 * runs on the Emacs thread, takes the requests out of the queue, runs each
 * through the engine (eddi_request_exec: routing, the instance a Start
 * names and session events are the engine's) and hands the reply back to
 * be published. The byte is only a wake-up: it is written when the queue
 * goes from empty to not empty, so the pipe never fills, and the fd is
 * non-blocking besides. Connection events (lost, back) travel the same
 * way, as log lines, so that they reach *Messages* from the Emacs thread.
 *
 * Every function here except the nats.c callbacks runs on the Emacs thread.
 */
#ifndef EDDI_NATS_BRIDGE_H
#define EDDI_NATS_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eddi.h"

/* Requests waiting for Emacs when the caller gives no bound. */
#define EDDI_NATS_QUEUE_DEFAULT 64
typedef struct NatsBridge NatsBridge;

typedef struct {
  const char *url;
  const char *instance;     /* 1 to EDDI_INSTANCE_NAME_MAX letters, digits, - or _ */
  EddiEngine *engine;       /* its thread-safe session registry only; may be NULL */
  size_t max_queue;         /* past this many waiting requests: Fail "Busy, retry" */
  size_t max_message_bytes; /* larger requests are refused on arrival */
  int wake_fd;              /* from open_channel; the bridge closes it, even on failure */
} NatsBridgeConfig;

typedef enum { NATS_ITEM_REQUEST, NATS_ITEM_LOG } NatsItemKind;

/* One thing for the Emacs thread: a request to run, or a line to log. */
typedef struct NatsBridgeItem {
  struct NatsBridgeItem *next;
  NatsItemKind kind;
  uint64_t id;         /* names the request in eddi_nats_bridge_reply */
  char *reply_subject; /* NULL for a log line */
  char *sender;        /* from the JSON body, or NULL */
  char *session;       /* from the JSON body, or NULL */
  char *text;          /* the EddiSpeak message, or the log line */
  size_t len;
} NatsBridgeItem;

/* Connect to config->url and subscribe. Fails (with why in error) when the
 * first connection cannot be made; after that, a lost server is
 * reconnected to forever. */
int eddi_nats_bridge_start(NatsBridge **out, const NatsBridgeConfig *config, char *error,
                           size_t error_size);

/* The next item, or NULL when the queue is empty (the next arrival wakes
 * Emacs again). A request stays the bridge's until eddi_nats_bridge_reply:
 * run it with eddi_request_exec (its sender, session and text, the
 * instance named). A log line is the caller's, to free with
 * eddi_nats_bridge_item_free. */
NatsBridgeItem *eddi_nats_bridge_take(NatsBridge *self);
void eddi_nats_bridge_item_free(NatsBridgeItem *item);

/* Publish the reply to request id and forget the request.
 * EDDI_ENOENT when no such request is waiting for its reply. */
int eddi_nats_bridge_reply(NatsBridge *self, uint64_t id, const char *text, size_t len);

/* Tell other instances on eddi.session.events that a session started here
 * (or ended), as eddi-server does: an eddi_engine_listen_sessions listener
 * calls it. */
void eddi_nats_bridge_session_event(NatsBridge *self, bool started, const char *session,
                                    const char *sender);

/* Stop taking requests: unsubscribe, and wait until the ones already
 * received are queued. The caller then runs the queue dry and stops. */
void eddi_nats_bridge_drain(NatsBridge *self);

/* Disconnect and free: requests still queued are answered with a Fail, the
 * connection is flushed and closed, nats.c's threads are joined, the wake
 * fd is closed. */
void eddi_nats_bridge_stop(NatsBridge *self);

const char *eddi_nats_bridge_instance(const NatsBridge *self);

#endif
