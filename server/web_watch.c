/* web_watch.c - see web_watch.h. */
#include "web_watch.h"

#include <errno.h>
#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "server_error.h"

/* The sessions' names and holders, copied out of the engine's registry. */
typedef struct {
  char **names, **senders;
  size_t count, capacity;
} WatchList;

static void watch__now(char out[WEB_WATCH_TIME_MAX]) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct tm utc;
  gmtime_r(&now.tv_sec, &utc);
  size_t n = strftime(out, WEB_WATCH_TIME_MAX, "%Y-%m-%dT%H:%M:%S", &utc);
  snprintf(out + n, WEB_WATCH_TIME_MAX - n, ".%03ldZ", now.tv_nsec / 1000000);
}

/* ------------------------------------------------------------- sessions */

static void watch__collect(void *closure, const char *session, const char *sender) {
  WatchList *list = closure;
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 8;
    char **names = realloc(list->names, capacity * sizeof *names);
    if (names) list->names = names;
    char **senders = names ? realloc(list->senders, capacity * sizeof *senders) : NULL;
    if (senders) list->senders = senders;
    if (!names || !senders) return; /* out of memory: this one is not shown */
    list->capacity = capacity;
  }
  list->names[list->count] = strdup(session);
  list->senders[list->count] = strdup(sender);
  if (list->names[list->count] && list->senders[list->count]) {
    list->count++;
    return;
  }
  free(list->names[list->count]);
  free(list->senders[list->count]);
}

static void watch__list_free(WatchList *list) {
  for (size_t i = 0; i < list->count; i++) {
    free(list->names[i]);
    free(list->senders[i]);
  }
  free(list->names);
  free(list->senders);
}

/* When this instance first saw session; a new one is now. */
static const char *watch__since(WebWatch *self, const char *session) {
  for (size_t i = 0; i < self->session_count; i++)
    if (strcmp(self->sessions[i].session, session) == 0) {
      self->sessions[i].seen = true;
      return self->sessions[i].since;
    }
  WebWatchSession *grown =
      realloc(self->sessions, (self->session_count + 1) * sizeof *self->sessions);
  if (!grown) return "";
  self->sessions = grown;
  WebWatchSession *added = &grown[self->session_count];
  if (!(added->session = strdup(session))) return "";
  watch__now(added->since);
  added->seen = true;
  self->session_count++;
  return added->since;
}

/* Forget the sessions that ended. */
static void watch__forget_unseen(WebWatch *self) {
  size_t kept = 0;
  for (size_t i = 0; i < self->session_count; i++) {
    if (!self->sessions[i].seen) {
      free(self->sessions[i].session);
      continue;
    }
    self->sessions[i].seen = false;
    self->sessions[kept++] = self->sessions[i];
  }
  self->session_count = kept;
}

/* ------------------------------------------------------------- files */

typedef struct {
  json_object *files;
  bool with_text;
} FileVisit;

static void watch__visit_document(void *closure, const char *path, const char *text, size_t len,
                                  bool modified) {
  FileVisit *visit = closure;
  json_object *file = json_object_new_object();
  json_object_object_add(file, "path", json_object_new_string(path));
  if (visit->with_text)
    json_object_object_add(file, "text", json_object_new_string_len(text, (int)len));
  json_object_object_add(file, "modified", json_object_new_boolean(modified));
  json_object_array_add(visit->files, file);
}

static json_object *watch__files(WebWatch *self, const char *sender, bool with_text) {
  FileVisit visit = {json_object_new_array(), with_text};
  eddi_engine_each_document(self->host->engine, sender, watch__visit_document, &visit);
  return visit.files;
}

/* Publish message; when it is larger than a message may be, again with
 * the files' texts left out and "truncated": true. Consumes message. */
static void watch__publish(WebWatch *self, const char *subject, json_object *message,
                           const char *sender) {
  size_t len = 0;
  json_object_to_json_string_length(message,
                                    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
  if (len > self->host->options->max_message_bytes && sender) {
    json_object_object_add(message, "files", watch__files(self, sender, false));
    json_object_object_add(message, "truncated", json_object_new_boolean(true));
  }
  eddi_link_publish_json(self->link, subject, message);
}

/* ------------------------------------------------------------- messages */

static void watch__publish_sessions(WebWatch *self, const WatchList *list) {
  json_object *sessions = json_object_new_array();
  for (size_t i = 0; i < list->count; i++) {
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "session", json_object_new_string(list->names[i]));
    json_object_object_add(entry, "sender", json_object_new_string(list->senders[i]));
    json_object_object_add(entry, "since",
                           json_object_new_string(watch__since(self, list->names[i])));
    json_object_object_add(entry, "files", watch__files(self, list->senders[i], false));
    json_object_array_add(sessions, entry);
  }
  watch__forget_unseen(self);
  char at[WEB_WATCH_TIME_MAX];
  watch__now(at);
  json_object *message = json_object_new_object();
  json_object_object_add(message, "instance", json_object_new_string(self->instance_id));
  json_object_object_add(message, "at", json_object_new_string(at));
  json_object_object_add(message, "sessions", sessions);
  watch__publish(self, WEB_WATCH_SESSIONS_SUBJECT, message, NULL);
}

/* One session's files, and the request that changed them (NULL on a tick). */
static void watch__publish_edit(WebWatch *self, const char *session, const char *sender,
                                const HostRequest *request, const EddiReply *reply) {
  char at[WEB_WATCH_TIME_MAX];
  watch__now(at);
  json_object *message = json_object_new_object();
  json_object_object_add(message, "instance", json_object_new_string(self->instance_id));
  json_object_object_add(message, "session", session ? json_object_new_string(session) : NULL);
  json_object_object_add(message, "sender", json_object_new_string(sender));
  json_object_object_add(message, "at", json_object_new_string(at));
  if (request) {
    char *joined = engine_host_join(reply);
    json_object_object_add(message, "via", json_object_new_string(request->transport));
    json_object_object_add(
        message, "request",
        json_object_new_string_len(request->request.text, (int)request->request.len));
    json_object_object_add(message, "reply", json_object_new_string(joined ? joined : ""));
    json_object_object_add(message, "ok", json_object_new_boolean(engine_host_reply_ok(reply)));
    free(joined);
  }
  json_object_object_add(message, "files", watch__files(self, sender, true));
  watch__publish(self, WEB_WATCH_EDITS_SUBJECT, message, sender);
}

static WatchList watch__sessions(WebWatch *self) {
  WatchList list = {0};
  eddi_engine_each_session(self->host->engine, watch__collect, &list);
  return list;
}

/* The sender a request ran as: the one it names, else the holder of the
 * session it names, else the anonymous sender. */
static const char *watch__sender(const HostRequest *request, const WatchList *list) {
  if (request->request.sender) return request->request.sender;
  for (size_t i = 0; request->request.session && i < list->count; i++)
    if (strcmp(list->names[i], request->request.session) == 0) return list->senders[i];
  return EDDI_ANONYMOUS_SENDER;
}

/* Owner thread: a request was answered. */
static void watch__on_request(void *closure, const HostRequest *request, const EddiReply *reply) {
  WebWatch *self = closure;
  WatchList list = watch__sessions(self);
  const char *sender = watch__sender(request, &list);
  watch__publish_edit(self, engine_host_session_of(self->host, sender), sender, request, reply);
  watch__publish_sessions(self, &list);
  watch__list_free(&list);
}

/* Owner thread: everything again, for pages opened since. */
static void watch__tick_run(WorkItem *item, void *context) {
  (void)context;
  WebWatch *self = (WebWatch *)((char *)item - offsetof(WebWatch, tick_item));
  atomic_store(&self->tick_queued, false);
  WatchList list = watch__sessions(self);
  for (size_t i = 0; i < list.count; i++)
    watch__publish_edit(self, list.names[i], list.senders[i], NULL, NULL);
  watch__publish_sessions(self, &list);
  watch__list_free(&list);
}

/* ------------------------------------------------------------- timer */

static void *watch__timer(void *closure) {
  WebWatch *self = closure;
  pthread_mutex_lock(&self->stop_mutex);
  while (!self->stopping) {
    struct timespec wake;
    clock_gettime(CLOCK_REALTIME, &wake);
    wake.tv_sec += WEB_WATCH_TICK_MS / 1000;
    wake.tv_nsec += (long)(WEB_WATCH_TICK_MS % 1000) * 1000000;
    if (wake.tv_nsec >= 1000000000) {
      wake.tv_sec++;
      wake.tv_nsec -= 1000000000;
    }
    int waited = 0;
    while (!self->stopping && waited != ETIMEDOUT)
      waited = pthread_cond_timedwait(&self->stop_signal, &self->stop_mutex, &wake);
    if (self->stopping) break;
    /* One tick queued at a time; a full queue skips this one. */
    if (!atomic_exchange(&self->tick_queued, true) &&
        engine_host_submit(self->host, &self->tick_item) != SERVER_OK)
      atomic_store(&self->tick_queued, false);
  }
  pthread_mutex_unlock(&self->stop_mutex);
  return NULL;
}

int web_watch_start(WebWatch *self, EngineHost *host, EddiLink *link, const char *instance_id) {
  memset(self, 0, sizeof *self);
  self->host = host;
  self->link = link;
  self->instance_id = instance_id;
  self->tick_item = (WorkItem){.lane = "eddi.watch", .run = watch__tick_run};
  pthread_mutex_init(&self->stop_mutex, NULL);
  pthread_cond_init(&self->stop_signal, NULL);
  if (pthread_create(&self->timer, NULL, watch__timer, self) != 0) {
    log_report(LOG_ERROR, "web", "cannot start the watch timer");
    return SERVER_EIO;
  }
  self->timer_running = true;
  engine_host_watch(host, watch__on_request, self);
  return SERVER_OK;
}

void web_watch_stop_timer(WebWatch *self) {
  if (!self->timer_running) return;
  pthread_mutex_lock(&self->stop_mutex);
  self->stopping = true;
  pthread_cond_signal(&self->stop_signal);
  pthread_mutex_unlock(&self->stop_mutex);
  pthread_join(self->timer, NULL);
  self->timer_running = false;
}

void web_watch_destroy(WebWatch *self) {
  if (!self->host) return;
  web_watch_stop_timer(self);
  engine_host_watch(self->host, NULL, NULL);
  for (size_t i = 0; i < self->session_count; i++) free(self->sessions[i].session);
  free(self->sessions);
  pthread_mutex_destroy(&self->stop_mutex);
  pthread_cond_destroy(&self->stop_signal);
  memset(self, 0, sizeof *self);
}
