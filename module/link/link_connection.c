/* link_connection.c - one NATS connection and its subscriptions (see
 * eddi_link.h).
 *
 * Every front end wants the same connection: replies flushed at once
 * (SendAsap: about 1 ms less per round trip than waiting for the flusher),
 * reconnecting forever with backoff and jitter, nats.c resubscribing after
 * a reconnect (so subscriptions survive a nats-server restart), and a
 * disconnect while closing that is not news. nats.c's callbacks become
 * notices to the owner, who words its own log.
 *
 * Handlers get an EddiLinkMessage instead of nats.c's natsMsg: each
 * subscription's closure is a slot of the link that names the owner's
 * handler, and the slot's trampoline destroys the natsMsg after the
 * handler returns, so that no front end can forget to.
 */
#include <nats/nats.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eddi_link.h"

/* No limit on reconnect attempts (nats.c's word for it). */
#define LINK_RECONNECT_FOREVER (-1)
/* A notice line is cut to this; URLs in notices too. */
#define LINK_NOTICE_MAX 512
#define LINK_URL_MAX 256
/* The two command subjects: eddi.cmd and eddi.<id>.cmd (or their
 * identity forms); a server may serve both pairs (eddi-server --web). */
#define LINK_COMMAND_ENDPOINTS 2
#define LINK_COMMAND_PAIRS_MAX 2

typedef struct {
  struct EddiLink *link;
  natsSubscription *subscription;
  EddiLinkHandler handler;
  void *closure;
} LinkSlot;

/* A command subject: the owner's handler behind the reply-subject check. */
typedef struct {
  struct EddiLink *link;
  EddiLinkHandler handler;
  void *closure;
} LinkCommands;

struct EddiLink {
  natsOptions *options;
  natsConnection *connection;
  LinkSlot slots[EDDI_LINK_SUBSCRIPTIONS_MAX];
  size_t slot_count;
  LinkCommands commands[LINK_COMMAND_PAIRS_MAX * LINK_COMMAND_ENDPOINTS];
  size_t command_count;
  EddiLinkListener listener;
  void *closure;
  unsigned jitter_seed; /* the reconnect thread's own: nobody's rand() is touched */
  atomic_bool closing;  /* a disconnect now is ours, not news */
  bool drained;
  /* eddi_link_share_sessions */
  EddiEngine *engine;
  char instance[EDDI_INSTANCE_NAME_MAX + 1];
  size_t max_bytes;
};

/* ------------------------------------------------------------ notices */

static void link__notify(EddiLink *self, EddiLinkNoticeKind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void link__notify(EddiLink *self, EddiLinkNoticeKind kind, const char *fmt, ...) {
  if (!self->listener) return;
  char text[LINK_NOTICE_MAX];
  va_list args;
  va_start(args, fmt);
  vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  EddiLinkNotice notice = {kind, text};
  self->listener(self->closure, &notice);
}

static void link__on_connected(natsConnection *connection, void *closure) {
  char url[LINK_URL_MAX] = "";
  natsConnection_GetConnectedUrl(connection, url, sizeof url);
  link__notify(closure, EDDI_LINK_CONNECTED, "%s", url);
}

static void link__on_disconnected(natsConnection *connection, void *closure) {
  EddiLink *self = closure;
  if (!atomic_load(&self->closing)) link__notify(self, EDDI_LINK_DISCONNECTED, "%s", "");
}

/* nats.c gave up on the connection (a TLS or authentication failure while
 * retrying the first connect): say why, which nats.c keeps as its last
 * error, since nothing will be served. */
static void link__on_closed(natsConnection *connection, void *closure) {
  EddiLink *self = closure;
  if (atomic_load(&self->closing)) return;
  const char *why = NULL;
  natsStatus status = natsConnection_GetLastError(connection, &why);
  link__notify(self, EDDI_LINK_ERROR, "connection closed: %s",
               why && *why ? why : natsStatus_GetText(status));
}

static void link__on_reconnected(natsConnection *connection, void *closure) {
  char url[LINK_URL_MAX] = "";
  natsConnection_GetConnectedUrl(connection, url, sizeof url);
  link__notify(closure, EDDI_LINK_RECONNECTED, "%s", url);
}

static void link__on_error(natsConnection *connection, natsSubscription *subscription,
                           natsStatus status, void *closure) {
  link__notify(closure, EDDI_LINK_ERROR, "%s%s%s", natsStatus_GetText(status),
               subscription ? " on " : "",
               subscription ? natsSubscription_GetSubject(subscription) : "");
}

/* ------------------------------------------------------------ connecting */

int64_t eddi_link_reconnect_delay(int attempts, unsigned *seed) {
  int64_t delay = EDDI_LINK_RECONNECT_BASE_MS;
  for (int i = 1; i < attempts && delay < EDDI_LINK_RECONNECT_MAX_MS; i++) delay *= 2;
  if (delay > EDDI_LINK_RECONNECT_MAX_MS) delay = EDDI_LINK_RECONNECT_MAX_MS;
  return delay + rand_r(seed) % EDDI_LINK_RECONNECT_JITTER_MS;
}

static int64_t link__reconnect_delay(natsConnection *connection, int attempts, void *closure) {
  EddiLink *self = closure;
  return eddi_link_reconnect_delay(attempts, &self->jitter_seed);
}

static natsStatus link__configure(EddiLink *self, const EddiLinkOptions *o) {
  natsStatus s = natsOptions_Create(&self->options);
  natsOptions *n = self->options;
  if (s == NATS_OK) s = natsOptions_SetURL(n, o->url);
  if (s == NATS_OK && o->name) s = natsOptions_SetName(n, o->name);
  if (s == NATS_OK && o->connect_timeout_ms > 0)
    s = natsOptions_SetTimeout(n, o->connect_timeout_ms);
  if (s == NATS_OK) s = natsOptions_SetSendAsap(n, true);
  if (s == NATS_OK) s = natsOptions_SetAllowReconnect(n, true);
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(n, LINK_RECONNECT_FOREVER);
  if (s == NATS_OK) s = natsOptions_SetCustomReconnectDelay(n, link__reconnect_delay, self);
  if (s == NATS_OK && o->retry_first_connect)
    s = natsOptions_SetRetryOnFailedConnect(n, true, link__on_connected, self);
  if (s == NATS_OK) s = natsOptions_SetDisconnectedCB(n, link__on_disconnected, self);
  if (s == NATS_OK) s = natsOptions_SetReconnectedCB(n, link__on_reconnected, self);
  if (s == NATS_OK) s = natsOptions_SetClosedCB(n, link__on_closed, self);
  if (s == NATS_OK) s = natsOptions_SetErrorHandler(n, link__on_error, self);
  if (s == NATS_OK && o->creds_file)
    s = natsOptions_SetUserCredentialsFromFiles(n, o->creds_file, NULL);
  if (s == NATS_OK && o->token) s = natsOptions_SetToken(n, o->token);
  if (s == NATS_OK && o->user) s = natsOptions_SetUserInfo(n, o->user, o->password);
  if (s == NATS_OK && (o->tls_ca || o->tls_cert)) s = natsOptions_SetSecure(n, true);
  if (s == NATS_OK && o->tls_ca) s = natsOptions_LoadCATrustedCertificates(n, o->tls_ca);
  if (s == NATS_OK && o->tls_cert)
    s = natsOptions_LoadCertificatesChain(n, o->tls_cert, o->tls_key);
  if (s == NATS_OK && o->inbox_prefix) s = natsOptions_SetCustomInboxPrefix(n, o->inbox_prefix);
  return s;
}

/* nats.c's reason for status on this thread, without the "(conn.c:733): "
 * of where it was found. */
static const char *link__last_error(natsStatus status) {
  const char *detail = nats_GetLastError(NULL);
  if (!detail || !*detail) return natsStatus_GetText(status);
  const char *after = detail[0] == '(' ? strstr(detail, "): ") : NULL;
  return after ? after + 3 : detail;
}

int eddi_link_connect(EddiLink **out, const EddiLinkOptions *options, char *why,
                      size_t why_size) {
  *out = NULL;
  EddiLink *self = calloc(1, sizeof *self);
  if (!self) {
    snprintf(why, why_size, "Out of memory");
    return EDDI_LINK_ENOMEM;
  }
  self->listener = options->listener;
  self->closure = options->closure;
  self->jitter_seed = (unsigned)time(NULL) ^ (unsigned)getpid();
  /* One attempt first, even when a server that is down is to be retried:
   * a server that is up but refuses us (TLS, authorization) will not take
   * us later either, and only this thread learns nats.c's reason. */
  EddiLinkOptions once = *options;
  once.retry_first_connect = false;
  natsStatus s = link__configure(self, &once);
  if (s == NATS_OK) s = natsConnection_Connect(&self->connection, self->options);
  if (s == NATS_OK && options->retry_first_connect) {
    char url[LINK_URL_MAX] = "";
    natsConnection_GetConnectedUrl(self->connection, url, sizeof url);
    link__notify(self, EDDI_LINK_CONNECTED, "%s", url);
  } else if (s == NATS_NO_SERVER && options->retry_first_connect) {
    natsOptions_Destroy(self->options);
    self->options = NULL;
    s = link__configure(self, options);
    if (s == NATS_OK) s = natsConnection_Connect(&self->connection, self->options);
    if (s == NATS_NOT_YET_CONNECTED) {
      link__notify(self, EDDI_LINK_WARNING, "%s not reachable yet; retrying in the background",
                   options->url);
      s = NATS_OK;
    }
  }
  if (s != NATS_OK) {
    snprintf(why, why_size, "%s", link__last_error(s));
    eddi_link_close(self);
    return EDDI_LINK_EIO;
  }
  *out = self;
  return 0;
}

bool eddi_link_connected(EddiLink *self) {
  return self->connection && natsConnection_Status(self->connection) == NATS_CONN_STATUS_CONNECTED;
}

int eddi_link_flush(EddiLink *self) {
  if (!eddi_link_connected(self)) return 0;
  natsStatus s = natsConnection_FlushTimeout(self->connection, EDDI_LINK_FLUSH_TIMEOUT_MS);
  return s == NATS_OK ? 0 : EDDI_LINK_EIO;
}

/* ------------------------------------------------------------ subscriptions */

static void link__deliver(natsConnection *connection, natsSubscription *subscription,
                          natsMsg *nats_message, void *closure) {
  LinkSlot *slot = closure;
  const char *reply = natsMsg_GetReply(nats_message);
  const char *data = natsMsg_GetData(nats_message);
  EddiLinkMessage message = {natsMsg_GetSubject(nats_message), reply && *reply ? reply : NULL,
                             data ? data : "", (size_t)natsMsg_GetDataLength(nats_message)};
  slot->handler(slot->closure, &message);
  natsMsg_Destroy(nats_message);
}

int eddi_link_subscribe(EddiLink *self, const char *subject, const char *queue,
                        EddiLinkHandler handler, void *closure) {
  if (self->slot_count >= EDDI_LINK_SUBSCRIPTIONS_MAX) return EDDI_LINK_EFULL;
  LinkSlot *slot = &self->slots[self->slot_count];
  *slot = (LinkSlot){self, NULL, handler, closure};
  natsStatus s = queue ? natsConnection_QueueSubscribe(&slot->subscription, self->connection,
                                                       subject, queue, link__deliver, slot)
                       : natsConnection_Subscribe(&slot->subscription, self->connection, subject,
                                                  link__deliver, slot);
  if (s != NATS_OK) {
    link__notify(self, EDDI_LINK_ERROR, "cannot subscribe to %s: %s", subject,
                 natsStatus_GetText(s));
    return EDDI_LINK_EIO;
  }
  self->slot_count++;
  return 0;
}

/* A request nobody can be answered about is dropped, and said so. */
static void link__on_command(void *closure, const EddiLinkMessage *message) {
  LinkCommands *commands = closure;
  if (!message->reply) {
    link__notify(commands->link, EDDI_LINK_WARNING,
                 "request on %s without a reply subject dropped", message->subject);
    return;
  }
  commands->handler(commands->closure, message);
}

/* Subscribe the two command subjects (any instance, this one) to handler. */
static int link__serve(EddiLink *self, const char *const subjects[LINK_COMMAND_ENDPOINTS],
                       EddiLinkHandler handler, void *any_closure, void *instance_closure) {
  void *closures[LINK_COMMAND_ENDPOINTS] = {any_closure, instance_closure};
  if (self->command_count + LINK_COMMAND_ENDPOINTS > sizeof self->commands / sizeof self->commands[0])
    return EDDI_LINK_EINVAL;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < LINK_COMMAND_ENDPOINTS; i++) {
    LinkCommands *commands = &self->commands[self->command_count++];
    *commands = (LinkCommands){self, handler, closures[i]};
    rc = eddi_link_subscribe(self, subjects[i], EDDI_LINK_QUEUE_GROUP, link__on_command,
                             commands);
  }
  return rc;
}

int eddi_link_serve_commands(EddiLink *self, const char *instance, EddiLinkHandler handler,
                             void *any_closure, void *instance_closure) {
  char instance_subject[EDDI_LINK_SUBJECT_MAX];
  eddi_link_instance_subject(instance_subject, sizeof instance_subject, instance);
  const char *const subjects[LINK_COMMAND_ENDPOINTS] = {EDDI_LINK_CMD_SUBJECT, instance_subject};
  return link__serve(self, subjects, handler, any_closure, instance_closure);
}

int eddi_link_serve_identity_commands(EddiLink *self, const char *instance,
                                      EddiLinkHandler handler, void *any_closure,
                                      void *instance_closure) {
  char instance_subject[EDDI_LINK_SUBJECT_MAX];
  eddi_link_identity_subject(instance_subject, sizeof instance_subject, "*", instance);
  const char *const subjects[LINK_COMMAND_ENDPOINTS] = {EDDI_LINK_IDENTITY_ANY_SUBJECT,
                                                        instance_subject};
  return link__serve(self, subjects, handler, any_closure, instance_closure);
}

/* ------------------------------------------------------------ publishing */

int eddi_link_publish(EddiLink *self, const char *subject, const char *data, size_t len) {
  natsStatus s = natsConnection_Publish(self->connection, subject, data, (int)len);
  if (s == NATS_OK) return 0;
  link__notify(self, EDDI_LINK_ERROR, "publish to %s failed: %s", subject, natsStatus_GetText(s));
  return EDDI_LINK_EIO;
}

int eddi_link_publish_json(EddiLink *self, const char *subject, json_object *message) {
  size_t len = 0;
  const char *text = json_object_to_json_string_length(
      message, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
  int rc = text ? eddi_link_publish(self, subject, text, len) : EDDI_LINK_ENOMEM;
  json_object_put(message);
  return rc;
}

int eddi_link_request(EddiLink *self, const char *subject, const char *data, size_t len,
                      int timeout_ms, char **answer, char *why, size_t why_size) {
  *answer = NULL;
  natsMsg *reply = NULL;
  natsStatus s = natsConnection_Request(&reply, self->connection, subject, data, (int)len,
                                        timeout_ms);
  if (s != NATS_OK) {
    snprintf(why, why_size, "%s", natsStatus_GetText(s));
    return s == NATS_NO_RESPONDERS ? EDDI_LINK_ENORESPONDERS
           : s == NATS_TIMEOUT     ? EDDI_LINK_ETIMEOUT
                                   : EDDI_LINK_EIO;
  }
  const char *reply_data = natsMsg_GetData(reply);
  *answer = strndup(reply_data ? reply_data : "", (size_t)natsMsg_GetDataLength(reply));
  natsMsg_Destroy(reply);
  if (*answer) return 0;
  snprintf(why, why_size, "Out of memory");
  return EDDI_LINK_ENOMEM;
}

/* ------------------------------------------------------------ sessions */

static void link__note_session(void *closure, const EddiSessionEvent *event) {
  EddiLink *self = closure;
  eddi_engine_note_remote_session(self->engine, event);
}

/* Another instance's session started or ended. Small work, done here. */
static void link__on_session_event(void *closure, const EddiLinkMessage *message) {
  EddiLink *self = closure;
  if (eddi_link_event_read(message->data, message->len, self->max_bytes, link__note_session,
                           self) < 0)
    link__notify(self, EDDI_LINK_WARNING, "bad session event ignored");
}

/* Another instance joined and asks which sessions live here. */
static void link__on_session_sync(void *closure, const EddiLinkMessage *message) {
  EddiLink *self = closure;
  if (!message->reply) return;
  char *answer = eddi_link_sync_answer_json(self->engine, self->instance);
  if (answer) eddi_link_publish(self, message->reply, answer, strlen(answer));
  free(answer);
}

/* An answer to our own sync request. */
static void link__on_sync_answer(void *closure, const EddiLinkMessage *message) {
  EddiLink *self = closure;
  if (eddi_link_sync_answer_read(message->data, message->len, self->max_bytes,
                                 link__note_session, self) < 0)
    link__notify(self, EDDI_LINK_WARNING, "bad session sync answer ignored");
}

/* Ask the instances already serving for their sessions; the answers arrive
 * on an inbox of ours, in the background. */
static int link__request_sync(EddiLink *self) {
  natsInbox *inbox = NULL;
  if (natsInbox_Create(&inbox) != NATS_OK) return EDDI_LINK_ENOMEM;
  int rc = eddi_link_subscribe(self, inbox, NULL, link__on_sync_answer, self);
  if (rc == 0 && natsConnection_PublishRequestString(
                     self->connection, EDDI_LINK_SESSION_SYNC_SUBJECT, inbox, "{}") != NATS_OK)
    link__notify(self, EDDI_LINK_WARNING, "could not ask the other instances for their sessions");
  natsInbox_Destroy(inbox);
  return rc;
}

int eddi_link_share_sessions(EddiLink *self, EddiEngine *engine, const char *instance,
                             size_t max_bytes) {
  self->engine = engine;
  snprintf(self->instance, sizeof self->instance, "%s", instance);
  self->max_bytes = max_bytes;
  int rc = eddi_link_subscribe(self, EDDI_LINK_SESSION_EVENTS_SUBJECT, NULL,
                               link__on_session_event, self);
  if (rc == 0)
    rc = eddi_link_subscribe(self, EDDI_LINK_SESSION_SYNC_SUBJECT, NULL, link__on_session_sync,
                             self);
  if (rc == 0) rc = link__request_sync(self);
  return rc;
}

int eddi_link_publish_session_event(EddiLink *self, const EddiSessionEvent *event) {
  char *text = eddi_link_event_json(event);
  if (!text) return EDDI_LINK_ENOMEM;
  int rc = eddi_link_publish(self, EDDI_LINK_SESSION_EVENTS_SUBJECT, text, strlen(text));
  free(text);
  return rc;
}

/* ------------------------------------------------------------ stopping */

void eddi_link_drain(EddiLink *self) {
  if (!self || self->drained) return;
  self->drained = true;
  /* A drain waits for the server's acknowledgement: without a server it
   * cannot finish, so just stop delivery. */
  bool connected = eddi_link_connected(self);
  for (size_t i = 0; i < self->slot_count; i++) {
    if (connected)
      natsSubscription_Drain(self->slots[i].subscription);
    else
      natsSubscription_Unsubscribe(self->slots[i].subscription);
  }
  if (!connected) return;
  /* One deadline for all: the drains run in parallel. */
  int64_t deadline = nats_Now() + EDDI_LINK_DRAIN_TIMEOUT_MS;
  for (size_t i = 0; i < self->slot_count; i++) {
    int64_t left = deadline - nats_Now();
    if (left <= 0) break;
    natsSubscription_WaitForDrainCompletion(self->slots[i].subscription, left);
  }
}

void eddi_link_close(EddiLink *self) {
  if (!self) return;
  atomic_store(&self->closing, true);
  if (eddi_link_connected(self))
    natsConnection_FlushTimeout(self->connection, EDDI_LINK_FLUSH_TIMEOUT_MS);
  if (self->connection) natsConnection_Close(self->connection);
  for (size_t i = 0; i < self->slot_count; i++)
    natsSubscription_Destroy(self->slots[i].subscription);
  self->slot_count = 0;
  natsConnection_Destroy(self->connection);
  natsOptions_Destroy(self->options);
  /* nats.c may still hold a callback of ours on its own threads: only once
   * they are gone is the link's memory free to go. If they do not end in
   * time, the link is left behind rather than freed under them. */
  if (nats_CloseAndWait(EDDI_LINK_SHUTDOWN_TIMEOUT_MS) == NATS_OK) free(self);
}

natsConnection *eddi_link_nats(EddiLink *self) { return self->connection; }
