/* web_watch.h - what eddi shows the web page (doc/web.org).
 *
 * A viewer may only subscribe, so eddi publishes what the page shows
 * rather than answering its questions:
 *
 * - eddi.watch.sessions: the sessions held here, who holds each, since
 *   when (this instance first saw it) and its files, after every request
 *   and every WEB_WATCH_TICK_MS, so that a page opened late fills in;
 * - eddi.watch.edits: after every request, whatever its transport (a
 *   mizuki stream, eddi.cmd, eddi.u.<user>.cmd, stdio), the request's
 *   text, its reply and the files of its sender's session as the session
 *   holds them (unsaved edits included); every tick, the same for each
 *   session without request and reply.
 *
 * Everything runs on the engine's owner thread (the request watcher and a
 * tick item queued by a timer thread), so the engine is read in order with
 * the edits and the messages go out in that order.
 */
#ifndef EDDI_SERVER_WEB_WATCH_H
#define EDDI_SERVER_WEB_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "eddi_link.h"
#include "engine_host.h"

#define WEB_WATCH_SESSIONS_SUBJECT "eddi.watch.sessions"
#define WEB_WATCH_EDITS_SUBJECT "eddi.watch.edits"
/* How often the page's late joiners are told everything again. */
#define WEB_WATCH_TICK_MS 1000
/* "2026-01-01T00:00:00.000Z" */
#define WEB_WATCH_TIME_MAX 32

typedef struct {
  char *session;
  char since[WEB_WATCH_TIME_MAX];
  bool seen; /* still held at the last look */
} WebWatchSession;

typedef struct {
  EngineHost *host;
  EddiLink *link;
  const char *instance_id;
  WebWatchSession *sessions; /* owner thread only */
  size_t session_count;
  WorkItem tick_item;
  atomic_bool tick_queued;
  pthread_t timer;
  bool timer_running;
  pthread_mutex_t stop_mutex;
  pthread_cond_t stop_signal;
  bool stopping;
} WebWatch;

/* Watch host's requests and publish on link. Before the owner thread
 * starts; link and host outlive the watch. */
int web_watch_start(WebWatch *self, EngineHost *host, EddiLink *link, const char *instance_id);
/* Stop the timer (before the host stops) ... */
void web_watch_stop_timer(WebWatch *self);
/* ... and, once the owner thread is gone, free what the watch holds. */
void web_watch_destroy(WebWatch *self);

#endif
