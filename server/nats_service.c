/* nats_service.c - see nats_service.h: the connection, the command
 * endpoints (eddi.cmd, eddi.<id>.cmd) and the session events. */
#include "nats_service.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fail_reply.h"
#include "log.h"
#include "server_error.h"
#include "validator.h"

#define NATS_QUEUE_GROUP "eddi"
#define NATS_CMD_SUBJECT "eddi.cmd"
#define NATS_SESSION_EVENTS_SUBJECT "eddi.session.events"
/* A joining instance asks every other one for the sessions it holds. */
#define NATS_SESSION_SYNC_SUBJECT "eddi.session.sync"

/* Reconnect backoff: RECONNECT_BASE_MS doubled per failed round up to
 * RECONNECT_MAX_MS, plus up to RECONNECT_JITTER_MS so that many instances
 * do not hammer a restarting server in step. Forever: no attempt limit. */
#define RECONNECT_BASE_MS 50
#define RECONNECT_MAX_MS 2000
#define RECONNECT_JITTER_MS 100
#define RECONNECT_FOREVER (-1)
/* Drain and flush waits at shutdown. */
#define DRAIN_TIMEOUT_MS 5000
#define FLUSH_TIMEOUT_MS 2000

/* ------------------------------------------------------------- helpers */

static int64_t nats__now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

void nats_service_now(char *out, size_t size) {
  time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

void nats_service_publish(NatsService *self, const char *subject, const char *data, size_t len) {
  natsStatus status = natsConnection_Publish(self->connection, subject, data, (int)len);
  if (status != NATS_OK)
    log_report(LOG_ERROR, "nats", "publish to %s failed: %s", subject, natsStatus_GetText(status));
}

void nats_service_record(NatsService *self, EndpointId endpoint, int64_t duration_ns,
                         const char *error) {
  pthread_mutex_lock(&self->mutex);
  EndpointStats *stats = &self->stats[endpoint];
  stats->requests++;
  stats->processing_ns += duration_ns;
  if (error) {
    stats->errors++;
    snprintf(stats->last_error, sizeof stats->last_error, "%s", error);
  }
  pthread_mutex_unlock(&self->mutex);
}

int nats_service_subscribe(NatsService *self, const char *subject, const char *queue,
                           natsMsgHandler handler, void *closure) {
  if (self->subscription_count >= NATS_SUBSCRIPTIONS_MAX) return SERVER_EINVAL;
  natsSubscription *subscription = NULL;
  natsStatus status =
      queue ? natsConnection_QueueSubscribe(&subscription, self->connection, subject, queue,
                                            handler, closure)
            : natsConnection_Subscribe(&subscription, self->connection, subject, handler, closure);
  if (status != NATS_OK) {
    log_report(LOG_ERROR, "nats", "cannot subscribe to %s: %s", subject,
               natsStatus_GetText(status));
    return SERVER_ENATS;
  }
  self->subscriptions[self->subscription_count++] = subscription;
  return SERVER_OK;
}

/* ------------------------------------------------------------- commands */

/* A request on eddi.cmd or eddi.<id>.cmd, waiting for the engine. Strings
 * live in the same allocation, after the struct. */
typedef struct {
  WorkItem item;
  NatsService *service;
  EndpointId endpoint;
  const char *reply_subject;
  const char *sender;  /* NULL: anonymous or the session's holder */
  const char *session; /* NULL: none named */
  const char *text;
  size_t len;
  int64_t received_ns;
} CommandJob;

static void nats__answer(NatsService *self, EndpointId endpoint, const char *reply_subject,
                         const char *text, int64_t started_ns, bool ok) {
  nats_service_publish(self, reply_subject, text, strlen(text));
  nats_service_record(self, endpoint, nats__now_ns() - started_ns, ok ? NULL : text);
}

static void nats__command_run(WorkItem *item, void *context) {
  CommandJob *job = (CommandJob *)item;
  EngineHost *host = context;
  HostRequest request = {.transport = "nats", .sender = job->sender, .session = job->session,
                         .text = job->text, .len = job->len, .name_instance = true};
  HostResult result;
  int status = engine_host_exec(host, &request, &result);
  char *joined = status == SERVER_OK ? host_result_join(&result) : NULL;
  if (joined) {
    nats__answer(job->service, job->endpoint, job->reply_subject, joined, job->received_ns,
                 host_result_ok(&result));
  } else {
    char fail[FAIL_REPLY_MAX];
    fail_reply_format(fail, sizeof fail, "Out of memory");
    nats__answer(job->service, job->endpoint, job->reply_subject, fail, job->received_ns, false);
  }
  free(joined);
  host_result_free(&result);
  free(job);
}

/* Copy s (len bytes) after the struct; returns where it went. */
static const char *nats__stash(char **at, const char *s, size_t len) {
  if (!s) return NULL;
  char *copy = *at;
  memcpy(copy, s, len);
  copy[len] = '\0';
  *at += len + 1;
  return copy;
}

static CommandJob *nats__command_job(NatsService *self, EndpointId endpoint, const char *reply,
                                     const char *sender, const char *session, const char *text,
                                     size_t len) {
  size_t reply_len = strlen(reply), sender_len = sender ? strlen(sender) : 0,
         session_len = session ? strlen(session) : 0;
  CommandJob *job = malloc(sizeof *job + reply_len + sender_len + session_len + len + 4);
  if (!job) return NULL;
  char *at = (char *)(job + 1);
  job->reply_subject = nats__stash(&at, reply, reply_len);
  job->sender = nats__stash(&at, sender, sender_len);
  job->session = nats__stash(&at, session, session_len);
  job->text = nats__stash(&at, text, len);
  job->len = len;
  job->service = self;
  job->endpoint = endpoint;
  job->received_ns = nats__now_ns();
  job->item.next = NULL;
  job->item.lane = job->sender ? job->sender : job->session ? job->session : HOST_ANONYMOUS_SENDER;
  job->item.run = nats__command_run;
  return job;
}

/* The body is EddiSpeak text, or JSON {sender, session, text}. Check it,
 * queue it, or refuse it here. */
static void nats__on_command(natsConnection *connection, natsSubscription *subscription,
                             natsMsg *message, void *closure) {
  NatsEndpoint *endpoint = closure;
  NatsService *self = endpoint->service;
  int64_t started = nats__now_ns();
  const char *reply = natsMsg_GetReply(message);
  const char *data = natsMsg_GetData(message);
  size_t len = (size_t)natsMsg_GetDataLength(message);
  json_object *body = NULL;
  char why[FAIL_REPLY_MAX + 16];
  if (!reply || !*reply) {
    log_report(LOG_WARN, "nats", "request on %s without a reply subject dropped",
               natsMsg_GetSubject(message));
    goto done;
  }
  if (validator_check_bytes(self->options, data, len, why, sizeof why) != SERVER_OK) goto refuse;

  const char *sender = NULL, *session = NULL, *text = data;
  size_t text_len = len, first = 0;
  while (first < len && isspace((unsigned char)data[first])) first++;
  if (first < len && data[first] == '{') {
    if (validator_parse_json(data, len, &body, why, sizeof why) != SERVER_OK ||
        validator_get_string(body, "sender", &sender, why, sizeof why) != SERVER_OK ||
        validator_get_string(body, "session", &session, why, sizeof why) != SERVER_OK)
      goto refuse;
    json_object *text_value = NULL;
    if (!json_object_object_get_ex(body, "text", &text_value) ||
        !json_object_is_type(text_value, json_type_string)) {
      fail_reply_format(why, sizeof why, "\"text\" must be a string");
      goto refuse;
    }
    if (!sender && !session) {
      fail_reply_format(why, sizeof why, "Sender missing: give \"sender\" or \"session\"");
      goto refuse;
    }
    text = json_object_get_string(text_value);
    text_len = (size_t)json_object_get_string_len(text_value);
  }

  CommandJob *job =
      nats__command_job(self, endpoint->id, reply, sender, session, text, text_len);
  if (!job) {
    fail_reply_format(why, sizeof why, "Out of memory");
    goto refuse;
  }
  int status = engine_host_submit(self->host, &job->item);
  if (status == SERVER_OK) goto done;
  free(job);
  fail_reply_format(why, sizeof why, status == SERVER_EBUSY ? "Busy, retry" : "Server is stopping");

refuse:
  nats__answer(self, endpoint->id, reply, why, started, false);
done:
  json_object_put(body);
  natsMsg_Destroy(message);
}

/* ------------------------------------------------------- session events */

/* Owner thread: tell the other instances. */
static void nats__session_event(void *closure, SessionEvent event, const char *session,
                                const char *sender) {
  NatsService *self = closure;
  json_object *message = json_object_new_object();
  json_object_object_add(message, "event",
                         json_object_new_string(event == SESSION_STARTED ? "started" : "ended"));
  json_object_object_add(message, "session", json_object_new_string(session));
  json_object_object_add(message, "sender", json_object_new_string(sender));
  json_object_object_add(message, "instance", json_object_new_string(self->instance_id));
  size_t len = 0;
  const char *text = json_object_to_json_string_length(message, JSON_C_TO_STRING_PLAIN, &len);
  nats_service_publish(self, NATS_SESSION_EVENTS_SUBJECT, text, len);
  json_object_put(message);
}

/* Another instance's session started or ended. Small work, done here. */
static void nats__on_session_event(natsConnection *connection, natsSubscription *subscription,
                                   natsMsg *message, void *closure) {
  NatsService *self = closure;
  json_object *body = NULL;
  char why[FAIL_REPLY_MAX];
  const char *event, *session, *sender, *instance;
  const char *data = natsMsg_GetData(message);
  size_t len = (size_t)natsMsg_GetDataLength(message);
  if (validator_check_bytes(self->options, data, len, why, sizeof why) != SERVER_OK ||
      validator_parse_json(data, len, &body, why, sizeof why) != SERVER_OK ||
      validator_get_string(body, "event", &event, why, sizeof why) != SERVER_OK ||
      validator_get_string(body, "session", &session, why, sizeof why) != SERVER_OK ||
      validator_get_string(body, "sender", &sender, why, sizeof why) != SERVER_OK ||
      validator_get_string(body, "instance", &instance, why, sizeof why) != SERVER_OK ||
      !event || !session || !sender || !instance) {
    log_report(LOG_WARN, "nats", "bad session event ignored");
    goto done;
  }
  if (strcmp(instance, self->instance_id) == 0) goto done; /* our own */
  if (strcmp(event, "started") == 0)
    session_registry_add_remote(&self->host->sessions, session, sender, instance);
  else if (strcmp(event, "ended") == 0)
    session_registry_remove_remote(&self->host->sessions, session, instance);
done:
  json_object_put(body);
  natsMsg_Destroy(message);
}

/* Another instance joined and asks which sessions live here. */
static void nats__on_session_sync(natsConnection *connection, natsSubscription *subscription,
                                  natsMsg *message, void *closure) {
  NatsService *self = closure;
  const char *reply = natsMsg_GetReply(message);
  if (reply) {
    json_object *answer = json_object_new_object();
    json_object_object_add(answer, "instance", json_object_new_string(self->instance_id));
    json_object_object_add(answer, "sessions",
                           session_registry_local_list(&self->host->sessions));
    size_t len = 0;
    const char *text = json_object_to_json_string_length(answer, JSON_C_TO_STRING_PLAIN, &len);
    nats_service_publish(self, reply, text, len);
    json_object_put(answer);
  }
  natsMsg_Destroy(message);
}

/* An answer to our sync request: each session is remote, on its instance. */
static void nats__on_sync_answer(natsConnection *connection, natsSubscription *subscription,
                                 natsMsg *message, void *closure) {
  NatsService *self = closure;
  json_object *body = NULL, *sessions = NULL;
  char why[FAIL_REPLY_MAX];
  const char *instance;
  const char *data = natsMsg_GetData(message);
  size_t len = (size_t)natsMsg_GetDataLength(message);
  if (validator_check_bytes(self->options, data, len, why, sizeof why) != SERVER_OK ||
      validator_parse_json(data, len, &body, why, sizeof why) != SERVER_OK ||
      validator_get_string(body, "instance", &instance, why, sizeof why) != SERVER_OK ||
      !instance || !json_object_object_get_ex(body, "sessions", &sessions) ||
      !json_object_is_type(sessions, json_type_array)) {
    log_report(LOG_WARN, "nats", "bad session sync answer ignored");
    goto done;
  }
  if (strcmp(instance, self->instance_id) == 0) goto done; /* our own */
  for (size_t i = 0; i < json_object_array_length(sessions); i++) {
    json_object *entry = json_object_array_get_idx(sessions, i), *session, *sender;
    if (json_object_object_get_ex(entry, "session", &session) &&
        json_object_object_get_ex(entry, "sender", &sender))
      session_registry_add_remote(&self->host->sessions, json_object_get_string(session),
                                  json_object_get_string(sender), instance);
  }
done:
  json_object_put(body);
  natsMsg_Destroy(message);
}

/* Ask the instances already serving for their sessions; the answers arrive
 * on an inbox of ours, in the background. */
static int nats__request_sync(NatsService *self) {
  natsInbox *inbox = NULL;
  if (natsInbox_Create(&inbox) != NATS_OK) return SERVER_ENOMEM;
  int status = nats_service_subscribe(self, inbox, NULL, nats__on_sync_answer, self);
  if (status == SERVER_OK &&
      natsConnection_PublishRequestString(self->connection, NATS_SESSION_SYNC_SUBJECT, inbox,
                                          "{}") != NATS_OK)
    log_report(LOG_WARN, "nats", "could not ask the other instances for their sessions");
  natsInbox_Destroy(inbox);
  return status;
}

/* ----------------------------------------------------------- connection */

static void nats__on_disconnected(natsConnection *connection, void *closure) {
  NatsService *self = closure;
  if (atomic_load(&self->closing)) return;
  log_report(LOG_WARN, "nats", "disconnected; reconnecting");
}

static void nats__on_reconnected(natsConnection *connection, void *closure) {
  char url[NATS_SUBJECT_MAX * 2] = "";
  natsConnection_GetConnectedUrl(connection, url, sizeof url);
  log_report(LOG_INFO, "nats", "reconnected to %s", url);
}

static void nats__on_connected(natsConnection *connection, void *closure) {
  char url[NATS_SUBJECT_MAX * 2] = "";
  natsConnection_GetConnectedUrl(connection, url, sizeof url);
  log_report(LOG_INFO, "nats", "connected to %s", url);
}

static void nats__on_error(natsConnection *connection, natsSubscription *subscription,
                           natsStatus status, void *closure) {
  log_report(LOG_ERROR, "nats", "%s%s%s", natsStatus_GetText(status),
             subscription ? " on " : "",
             subscription ? natsSubscription_GetSubject(subscription) : "");
}

static int64_t nats__reconnect_delay(natsConnection *connection, int attempts, void *closure) {
  int64_t delay = RECONNECT_BASE_MS;
  for (int i = 1; i < attempts && delay < RECONNECT_MAX_MS; i++) delay *= 2;
  if (delay > RECONNECT_MAX_MS) delay = RECONNECT_MAX_MS;
  return delay + rand() % RECONNECT_JITTER_MS;
}

static natsStatus nats__configure(NatsService *self, const char *url) {
  const ServerOptions *o = self->options;
  natsOptions *opts = NULL;
  natsStatus s = natsOptions_Create(&opts);
  self->nats_options = opts;
  if (s == NATS_OK) s = natsOptions_SetURL(opts, url);
  if (s == NATS_OK) s = natsOptions_SetName(opts, self->instance_id);
  /* A responder flushes each reply at once: about 1 ms less per round trip
   * than waiting for the flusher. */
  if (s == NATS_OK) s = natsOptions_SetSendAsap(opts, true);
  if (s == NATS_OK) s = natsOptions_SetAllowReconnect(opts, true);
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(opts, RECONNECT_FOREVER);
  if (s == NATS_OK) s = natsOptions_SetCustomReconnectDelay(opts, nats__reconnect_delay, self);
  if (s == NATS_OK) s = natsOptions_SetRetryOnFailedConnect(opts, true, nats__on_connected, self);
  if (s == NATS_OK) s = natsOptions_SetDisconnectedCB(opts, nats__on_disconnected, self);
  if (s == NATS_OK) s = natsOptions_SetReconnectedCB(opts, nats__on_reconnected, self);
  if (s == NATS_OK) s = natsOptions_SetErrorHandler(opts, nats__on_error, self);
  if (s == NATS_OK && o->creds_file) s = natsOptions_SetUserCredentialsFromFiles(opts, o->creds_file, NULL);
  if (s == NATS_OK && o->token) s = natsOptions_SetToken(opts, o->token);
  if (s == NATS_OK && o->user) s = natsOptions_SetUserInfo(opts, o->user, o->password);
  if (s == NATS_OK && (o->tls_ca || o->tls_cert)) s = natsOptions_SetSecure(opts, true);
  if (s == NATS_OK && o->tls_ca) s = natsOptions_LoadCATrustedCertificates(opts, o->tls_ca);
  if (s == NATS_OK && o->tls_cert)
    s = natsOptions_LoadCertificatesChain(opts, o->tls_cert, o->tls_key);
  return s;
}

int nats_service_start(NatsService *self, EngineHost *host, const ServerOptions *options,
                       const char *url, const char *instance_id) {
  memset(self, 0, sizeof *self);
  self->host = host;
  self->options = options;
  self->instance_id = instance_id;
  nats_service_now(self->started, sizeof self->started);
  snprintf(self->instance_subject, sizeof self->instance_subject, "eddi.%s.cmd", instance_id);
  if (pthread_mutex_init(&self->mutex, NULL)) return SERVER_ENOMEM;
  if (mizuki_streams_init(&self->streams) != SERVER_OK) return SERVER_ENOMEM;
  srand((unsigned)nats__now_ns());

  natsStatus s = nats__configure(self, url);
  if (s == NATS_OK) s = natsConnection_Connect(&self->connection, self->nats_options);
  if (s == NATS_NOT_YET_CONNECTED) {
    log_report(LOG_WARN, "nats", "%s not reachable yet; retrying in the background", url);
    s = NATS_OK;
  }
  if (s != NATS_OK) {
    log_report(LOG_ERROR, "nats", "cannot connect to %s: %s", url, natsStatus_GetText(s));
    return SERVER_ENATS;
  }

  host->on_session = nats__session_event;
  host->on_session_closure = self;
  for (int i = 0; i < ENDPOINT_COUNT; i++) self->endpoints[i] = (NatsEndpoint){self, (EndpointId)i};
  int status = nats_service_subscribe(self, NATS_SESSION_EVENTS_SUBJECT, NULL,
                                      nats__on_session_event, self);
  if (status == SERVER_OK)
    status = nats_service_subscribe(self, NATS_SESSION_SYNC_SUBJECT, NULL, nats__on_session_sync,
                                    self);
  if (status == SERVER_OK) status = nats__request_sync(self);
  if (status == SERVER_OK)
    status = nats_service_subscribe(self, NATS_CMD_SUBJECT, NATS_QUEUE_GROUP, nats__on_command,
                                    &self->endpoints[ENDPOINT_CMD]);
  if (status == SERVER_OK)
    status = nats_service_subscribe(self, self->instance_subject, NATS_QUEUE_GROUP,
                                    nats__on_command, &self->endpoints[ENDPOINT_INSTANCE_CMD]);
  if (status == SERVER_OK) status = service_discovery_subscribe(self);
  if (status == SERVER_OK) status = mizuki_subscribe(self);
  if (status == SERVER_OK && natsConnection_Status(self->connection) == NATS_CONN_STATUS_CONNECTED)
    natsConnection_FlushTimeout(self->connection, FLUSH_TIMEOUT_MS);
  if (status == SERVER_OK)
    log_report(LOG_INFO, "nats", "instance %s serving %s and %s", instance_id, NATS_CMD_SUBJECT,
               self->instance_subject);
  return status;
}

void nats_service_drain(NatsService *self) {
  /* Without a server a drain cannot finish (it waits for the server's
   * acknowledgement): just stop delivery. */
  bool connected = self->connection &&
                   natsConnection_Status(self->connection) == NATS_CONN_STATUS_CONNECTED;
  for (size_t i = 0; i < self->subscription_count; i++) {
    if (connected)
      natsSubscription_Drain(self->subscriptions[i]);
    else
      natsSubscription_Unsubscribe(self->subscriptions[i]);
  }
  if (!connected) return;
  /* One deadline for all: the drains run in parallel. */
  int64_t deadline = nats__now_ns() + (int64_t)DRAIN_TIMEOUT_MS * 1000000;
  for (size_t i = 0; i < self->subscription_count; i++) {
    int64_t left_ms = (deadline - nats__now_ns()) / 1000000;
    if (left_ms <= 0) break;
    natsSubscription_WaitForDrainCompletion(self->subscriptions[i], left_ms);
  }
}

void nats_service_close(NatsService *self) {
  if (self->host) self->host->on_session = NULL;
  atomic_store(&self->closing, true);
  if (self->connection) {
    if (natsConnection_Status(self->connection) == NATS_CONN_STATUS_CONNECTED)
      natsConnection_FlushTimeout(self->connection, FLUSH_TIMEOUT_MS);
    natsConnection_Close(self->connection);
  }
  for (size_t i = 0; i < self->subscription_count; i++)
    natsSubscription_Destroy(self->subscriptions[i]);
  self->subscription_count = 0;
  natsConnection_Destroy(self->connection);
  self->connection = NULL;
  natsOptions_Destroy(self->nats_options);
  self->nats_options = NULL;
  mizuki_streams_destroy(&self->streams);
  pthread_mutex_destroy(&self->mutex);
}
