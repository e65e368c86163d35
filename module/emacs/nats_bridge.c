/* nats_bridge.c - eddi.cmd and eddi.<id>.cmd served by a live Emacs; see
 * nats_bridge.h for the threads and the wake-up pipe.
 *
 * Emacs does not ignore SIGPIPE (it dies of it), and the wake fd is the
 * write end of a pipe that the user may delete at any time. nats.c's
 * threads are all created, directly or through one another, by calls made
 * here from the Emacs thread, and a thread starts with its creator's signal
 * mask: so those calls run with SIGPIPE blocked, and a write to a closed
 * pipe is an EPIPE on a nats thread, never a dead Emacs. The Emacs thread
 * itself blocks SIGPIPE around its own nats.c calls and swallows a SIGPIPE
 * raised meanwhile.
 */
#include "nats_bridge.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <nats/nats.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/utf8.h"
#include "lang/reply.h"
#include "session/engine.h"

#define BRIDGE_QUEUE_GROUP "eddi"
#define BRIDGE_CMD_SUBJECT "eddi.cmd"
#define BRIDGE_SESSION_EVENTS_SUBJECT "eddi.session.events"
/* "eddi." + instance + ".cmd" */
#define BRIDGE_SUBJECT_MAX (EDDI_NATS_INSTANCE_MAX + 16)
#define BRIDGE_SUBSCRIPTIONS 2
/* Log lines waiting for Emacs; more are dropped (a flapping server must not
 * grow the queue without bound). */
#define BRIDGE_LOG_MAX 32
#define BRIDGE_LOG_LINE_MAX 512
/* Reconnect backoff, as eddi-server: BASE doubled per failed round up to
 * MAX, plus up to JITTER; forever. */
#define BRIDGE_RECONNECT_BASE_MS 50
#define BRIDGE_RECONNECT_MAX_MS 2000
#define BRIDGE_RECONNECT_JITTER_MS 100
#define BRIDGE_RECONNECT_FOREVER (-1)
/* Waits when stopping. */
#define BRIDGE_DRAIN_TIMEOUT_MS 2000
#define BRIDGE_FLUSH_TIMEOUT_MS 2000
#define BRIDGE_CLOSE_TIMEOUT_MS 5000

struct NatsBridge {
  char instance[EDDI_NATS_INSTANCE_MAX + 1];
  char instance_subject[BRIDGE_SUBJECT_MAX];
  size_t max_queue;
  size_t max_message_bytes;
  int wake_fd;
  natsOptions *options;
  natsConnection *connection;
  natsSubscription *subscriptions[BRIDGE_SUBSCRIPTIONS];
  size_t subscription_count;
  bool drained;
  unsigned jitter_seed; /* the reconnect thread's own: Emacs's rand() is left alone */

  pthread_mutex_t mutex; /* guards everything below */
  NatsBridgeItem *head, *tail; /* waiting for the Emacs thread */
  NatsBridgeItem *in_flight;   /* taken, reply not yet published */
  size_t requests;             /* queued plus in flight */
  size_t logs;
  uint64_t next_id;
  bool wake_pending; /* a byte is in the pipe that Emacs has not acted on */
  bool closing;
};

/* ---------------------------------------------------------------- SIGPIPE */

static void bridge__block_sigpipe(sigset_t *old) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, old);
}

static void bridge__restore_sigpipe(const sigset_t *old) {
  sigset_t pending;
  if (!sigismember(old, SIGPIPE) && sigpending(&pending) == 0 &&
      sigismember(&pending, SIGPIPE)) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    struct timespec now = {0, 0};
    sigtimedwait(&set, NULL, &now);
  }
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* ---------------------------------------------------------------- the queue */

static char *bridge__copy(const char *s, size_t len) {
  if (!s) return NULL;
  char *copy = eddi_malloc(len + 1);
  memcpy(copy, s, len);
  copy[len] = '\0';
  return copy;
}

void eddi_nats_bridge_item_free(NatsBridgeItem *item) {
  if (!item) return;
  eddi_free(item->reply_subject);
  eddi_free(item->sender);
  eddi_free(item->session);
  eddi_free(item->text);
  eddi_free(item);
}

/* With the mutex held: tell Emacs there is work, once per empty-to-busy. */
static void bridge__wake(NatsBridge *self) {
  if (self->wake_pending) return;
  self->wake_pending = true;
  ssize_t n;
  do n = write(self->wake_fd, "\n", 1);
  while (n < 0 && errno == EINTR);
  /* EAGAIN: the pipe is full of earlier bytes, Emacs will come. EPIPE: the
   * process is gone and the bridge is about to be stopped. */
}

/* Queue item; EDDI_ETOOBIG when the queue is full, EDDI_ESTATE when
 * stopping. A log line is dropped rather than refused. */
static int bridge__push(NatsBridge *self, NatsBridgeItem *item) {
  int rc = 0;
  pthread_mutex_lock(&self->mutex);
  if (self->closing) {
    rc = EDDI_ESTATE;
  } else if (item->kind == NATS_ITEM_REQUEST && self->requests >= self->max_queue) {
    rc = EDDI_ETOOBIG;
  } else if (item->kind == NATS_ITEM_LOG && self->logs >= BRIDGE_LOG_MAX) {
    rc = EDDI_ETOOBIG;
  } else {
    if (item->kind == NATS_ITEM_REQUEST) {
      item->id = ++self->next_id;
      self->requests++;
    } else {
      self->logs++;
    }
    item->next = NULL;
    if (self->tail) self->tail->next = item;
    else self->head = item;
    self->tail = item;
    bridge__wake(self);
  }
  pthread_mutex_unlock(&self->mutex);
  return rc;
}

static void bridge__log(NatsBridge *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void bridge__log(NatsBridge *self, const char *fmt, ...) {
  char line[BRIDGE_LOG_LINE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  NatsBridgeItem *item = eddi_malloc(sizeof *item);
  *item = (NatsBridgeItem){.kind = NATS_ITEM_LOG, .len = strlen(line)};
  item->text = bridge__copy(line, item->len);
  if (bridge__push(self, item) != 0) eddi_nats_bridge_item_free(item);
}

/* ---------------------------------------------------------------- publishing */

static void bridge__publish(NatsBridge *self, const char *subject, const char *data, size_t len) {
  natsStatus status = natsConnection_Publish(self->connection, subject, data, (int)len);
  if (status != NATS_OK)
    bridge__log(self, "cannot publish to %s: %s", subject, natsStatus_GetText(status));
}

static void bridge__publish_fail(NatsBridge *self, const char *subject, const EddiError *err) {
  char *fail = eddi_fail_format(err);
  bridge__publish(self, subject, fail, strlen(fail));
  eddi_free(fail);
}

/* ---------------------------------------------------------------- arrivals */

/* The JSON body {sender, session, text}: fills item, or err. */
static int bridge__parse_json(NatsBridgeItem *item, const char *data, size_t len,
                              EddiError *err) {
  json_tokener *tokener = json_tokener_new();
  json_object *body = json_tokener_parse_ex(tokener, data, (int)len);
  enum json_tokener_error jerr = json_tokener_get_error(tokener);
  size_t end = jerr == json_tokener_success ? json_tokener_get_parse_end(tokener) : len;
  json_tokener_free(tokener);
  int rc = 0;
  while (end < len && isspace((unsigned char)data[end])) end++;
  if (!body || jerr != json_tokener_success) {
    rc = eddi_error_set(err, EDDI_EINVAL, "Invalid JSON: %s",
                        jerr == json_tokener_success || jerr == json_tokener_continue
                            ? "unexpected end"
                            : json_tokener_error_desc(jerr));
    goto done;
  }
  if (end < len) {
    rc = eddi_error_set(err, EDDI_EINVAL, "Invalid JSON: text after the object");
    goto done;
  }
  if (!json_object_is_type(body, json_type_object)) {
    rc = eddi_error_set(err, EDDI_EINVAL, "Invalid JSON: not an object");
    goto done;
  }
  static const char *const names[] = {"sender", "session"};
  char **slots[] = {&item->sender, &item->session};
  for (size_t i = 0; i < 2; i++) {
    json_object *value = NULL;
    if (!json_object_object_get_ex(body, names[i], &value) || json_object_is_type(value, json_type_null))
      continue;
    if (!json_object_is_type(value, json_type_string) || json_object_get_string_len(value) == 0) {
      rc = eddi_error_set(err, EDDI_EINVAL, "\"%s\" must be a non-empty string", names[i]);
      goto done;
    }
    *slots[i] = bridge__copy(json_object_get_string(value),
                             (size_t)json_object_get_string_len(value));
  }
  json_object *text = NULL;
  if (!json_object_object_get_ex(body, "text", &text) ||
      !json_object_is_type(text, json_type_string)) {
    rc = eddi_error_set(err, EDDI_EINVAL, "\"text\" must be a string");
    goto done;
  }
  if (!item->sender && !item->session) {
    rc = eddi_error_set(err, EDDI_EINVAL, "Sender missing: give \"sender\" or \"session\"");
    goto done;
  }
  item->len = (size_t)json_object_get_string_len(text);
  item->text = bridge__copy(json_object_get_string(text), item->len);
done:
  json_object_put(body);
  return rc;
}

/* A nats.c dispatcher thread: check the request and queue it, or refuse it
 * here. Never blocks on Emacs. */
static void bridge__on_request(natsConnection *connection, natsSubscription *subscription,
                               natsMsg *message, void *closure) {
  NatsBridge *self = closure;
  const char *reply = natsMsg_GetReply(message);
  const char *data = natsMsg_GetData(message);
  size_t len = (size_t)natsMsg_GetDataLength(message);
  NatsBridgeItem *item = NULL;
  EddiError err = {0};
  if (!reply || !*reply) {
    bridge__log(self, "request on %s without a reply subject dropped",
                natsMsg_GetSubject(message));
    goto done;
  }
  if (len > self->max_message_bytes) {
    eddi_error_set(&err, EDDI_ETOOBIG, "Message too large: %zu bytes, limit %zu", len,
                   self->max_message_bytes);
    goto refuse;
  }
  if (eddi_utf8_valid_prefix(data, len) != len) {
    eddi_error_set(&err, EDDI_EINVAL, "Message is not valid UTF-8");
    goto refuse;
  }
  item = eddi_malloc(sizeof *item);
  *item = (NatsBridgeItem){.kind = NATS_ITEM_REQUEST};
  item->reply_subject = bridge__copy(reply, strlen(reply));
  size_t first = 0;
  while (first < len && isspace((unsigned char)data[first])) first++;
  if (first < len && data[first] == '{') {
    if (bridge__parse_json(item, data, len, &err) != 0) goto refuse;
  } else {
    item->text = bridge__copy(data, len);
    item->len = len;
  }
  int rc = bridge__push(self, item);
  if (rc == 0) {
    item = NULL;
    goto done;
  }
  if (rc == EDDI_ETOOBIG) eddi_error_set(&err, EDDI_ETOOBIG, "Busy, retry");
  else eddi_error_set(&err, EDDI_ESTATE, "Emacs is disconnecting, retry");

refuse:
  bridge__publish_fail(self, reply, &err);
done:
  eddi_nats_bridge_item_free(item);
  natsMsg_Destroy(message);
}

/* ---------------------------------------------------------------- connection events */

static bool bridge__closing(NatsBridge *self) {
  pthread_mutex_lock(&self->mutex);
  bool closing = self->closing;
  pthread_mutex_unlock(&self->mutex);
  return closing;
}

static void bridge__on_disconnected(natsConnection *connection, void *closure) {
  NatsBridge *self = closure;
  if (!bridge__closing(self)) bridge__log(self, "lost the server; reconnecting");
}

static void bridge__on_reconnected(natsConnection *connection, void *closure) {
  char url[256] = "";
  natsConnection_GetConnectedUrl(connection, url, sizeof url);
  bridge__log(closure, "reconnected to %s", url);
}

static void bridge__on_error(natsConnection *connection, natsSubscription *subscription,
                             natsStatus status, void *closure) {
  bridge__log(closure, "%s%s%s", natsStatus_GetText(status), subscription ? " on " : "",
              subscription ? natsSubscription_GetSubject(subscription) : "");
}

static int64_t bridge__reconnect_delay(natsConnection *connection, int attempts, void *closure) {
  int64_t delay = BRIDGE_RECONNECT_BASE_MS;
  for (int i = 1; i < attempts && delay < BRIDGE_RECONNECT_MAX_MS; i++) delay *= 2;
  if (delay > BRIDGE_RECONNECT_MAX_MS) delay = BRIDGE_RECONNECT_MAX_MS;
  NatsBridge *self = closure;
  return delay + rand_r(&self->jitter_seed) % BRIDGE_RECONNECT_JITTER_MS;
}

/* ---------------------------------------------------------------- start and stop */

static bool bridge__instance_valid(const char *id) {
  size_t len = strlen(id);
  if (len == 0 || len > EDDI_NATS_INSTANCE_MAX) return false;
  for (size_t i = 0; i < len; i++)
    if (!isalnum((unsigned char)id[i]) && id[i] != '-' && id[i] != '_') return false;
  return true;
}

static natsStatus bridge__connect(NatsBridge *self, const char *url) {
  natsStatus s = natsOptions_Create(&self->options);
  natsOptions *o = self->options;
  if (s == NATS_OK) s = natsOptions_SetURL(o, url);
  if (s == NATS_OK) s = natsOptions_SetName(o, self->instance);
  /* A responder flushes each reply at once instead of waiting for the
   * flusher: about 1 ms less per round trip. */
  if (s == NATS_OK) s = natsOptions_SetSendAsap(o, true);
  if (s == NATS_OK) s = natsOptions_SetAllowReconnect(o, true);
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(o, BRIDGE_RECONNECT_FOREVER);
  if (s == NATS_OK) s = natsOptions_SetCustomReconnectDelay(o, bridge__reconnect_delay, self);
  if (s == NATS_OK) s = natsOptions_SetDisconnectedCB(o, bridge__on_disconnected, self);
  if (s == NATS_OK) s = natsOptions_SetReconnectedCB(o, bridge__on_reconnected, self);
  if (s == NATS_OK) s = natsOptions_SetErrorHandler(o, bridge__on_error, self);
  if (s == NATS_OK) s = natsConnection_Connect(&self->connection, o);
  const char *subjects[BRIDGE_SUBSCRIPTIONS] = {BRIDGE_CMD_SUBJECT, self->instance_subject};
  for (size_t i = 0; s == NATS_OK && i < BRIDGE_SUBSCRIPTIONS; i++) {
    s = natsConnection_QueueSubscribe(&self->subscriptions[i], self->connection, subjects[i],
                                      BRIDGE_QUEUE_GROUP, bridge__on_request, self);
    if (s == NATS_OK) self->subscription_count++;
  }
  /* The subscriptions are live on the server before connect returns. */
  if (s == NATS_OK) s = natsConnection_FlushTimeout(self->connection, BRIDGE_FLUSH_TIMEOUT_MS);
  return s;
}

/* Close the connection and join every nats.c thread. */
static void bridge__disconnect(NatsBridge *self) {
  sigset_t old;
  bridge__block_sigpipe(&old);
  if (self->connection) {
    if (natsConnection_Status(self->connection) == NATS_CONN_STATUS_CONNECTED)
      natsConnection_FlushTimeout(self->connection, BRIDGE_FLUSH_TIMEOUT_MS);
    natsConnection_Close(self->connection);
  }
  for (size_t i = 0; i < self->subscription_count; i++)
    natsSubscription_Destroy(self->subscriptions[i]);
  self->subscription_count = 0;
  natsConnection_Destroy(self->connection);
  self->connection = NULL;
  natsOptions_Destroy(self->options);
  self->options = NULL;
  /* The library's own threads (timers, callbacks) go too: nothing of the
   * bridge runs once this returns. */
  nats_CloseAndWait(BRIDGE_CLOSE_TIMEOUT_MS);
  bridge__restore_sigpipe(&old);
}

static void bridge__free(NatsBridge *self) {
  for (NatsBridgeItem *item = self->head, *next; item; item = next) {
    next = item->next;
    eddi_nats_bridge_item_free(item);
  }
  for (NatsBridgeItem *item = self->in_flight, *next; item; item = next) {
    next = item->next;
    eddi_nats_bridge_item_free(item);
  }
  if (self->wake_fd >= 0) close(self->wake_fd);
  pthread_mutex_destroy(&self->mutex);
  eddi_free(self);
}

int eddi_nats_bridge_start(NatsBridge **out, const NatsBridgeConfig *config, EddiError *err) {
  *out = NULL;
  if (!bridge__instance_valid(config->instance)) {
    if (config->wake_fd >= 0) close(config->wake_fd);
    return eddi_error_set(err, EDDI_EINVAL,
                          "Instance name \"%s\" must be 1 to %d letters, digits, - or _",
                          config->instance, EDDI_NATS_INSTANCE_MAX);
  }
  NatsBridge *self = eddi_malloc(sizeof *self);
  memset(self, 0, sizeof *self);
  snprintf(self->instance, sizeof self->instance, "%s", config->instance);
  snprintf(self->instance_subject, sizeof self->instance_subject, "eddi.%s.cmd",
           config->instance);
  self->max_queue = config->max_queue ? config->max_queue : EDDI_NATS_QUEUE_DEFAULT;
  self->max_message_bytes = config->max_message_bytes;
  self->wake_fd = config->wake_fd;
  pthread_mutex_init(&self->mutex, NULL);
  self->jitter_seed = (unsigned)time(NULL) ^ (unsigned)getpid();
  /* A full pipe must not block a nats thread. */
  int flags = fcntl(self->wake_fd, F_GETFL);
  if (flags < 0 || fcntl(self->wake_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    eddi_error_set(err, EDDI_EIO, "Cannot set up the channel to Emacs: %s", strerror(errno));
    bridge__free(self);
    return err->code;
  }

  sigset_t old;
  bridge__block_sigpipe(&old);
  natsStatus s = bridge__connect(self, config->url);
  bridge__restore_sigpipe(&old);
  if (s != NATS_OK) {
    eddi_error_set(err, EDDI_EIO, "Cannot connect to %s: %s", config->url,
                   natsStatus_GetText(s));
    pthread_mutex_lock(&self->mutex);
    self->closing = true;
    pthread_mutex_unlock(&self->mutex);
    bridge__disconnect(self);
    bridge__free(self);
    return err->code;
  }
  *out = self;
  return 0;
}

void eddi_nats_bridge_drain(NatsBridge *self) {
  if (!self || self->drained) return;
  self->drained = true;
  sigset_t old;
  bridge__block_sigpipe(&old);
  /* A drain waits for the server's answer: without a server, just stop. */
  bool connected = natsConnection_Status(self->connection) == NATS_CONN_STATUS_CONNECTED;
  for (size_t i = 0; i < self->subscription_count; i++) {
    if (connected) natsSubscription_Drain(self->subscriptions[i]);
    else natsSubscription_Unsubscribe(self->subscriptions[i]);
  }
  for (size_t i = 0; connected && i < self->subscription_count; i++)
    natsSubscription_WaitForDrainCompletion(self->subscriptions[i], BRIDGE_DRAIN_TIMEOUT_MS);
  bridge__restore_sigpipe(&old);
}

void eddi_nats_bridge_stop(NatsBridge *self) {
  if (!self) return;
  eddi_nats_bridge_drain(self);
  pthread_mutex_lock(&self->mutex);
  self->closing = true;
  NatsBridgeItem *queued = self->head, *in_flight = self->in_flight;
  self->head = self->tail = self->in_flight = NULL;
  pthread_mutex_unlock(&self->mutex);

  /* Nobody will run these now: say so rather than let clients time out. */
  EddiError err = {0};
  eddi_error_set(&err, EDDI_ESTATE, "Emacs disconnected before running this, retry");
  NatsBridgeItem *lists[2] = {queued, in_flight};
  sigset_t old;
  bridge__block_sigpipe(&old);
  for (size_t i = 0; i < 2; i++) {
    for (NatsBridgeItem *item = lists[i], *next; item; item = next) {
      next = item->next;
      if (item->kind == NATS_ITEM_REQUEST) bridge__publish_fail(self, item->reply_subject, &err);
      eddi_nats_bridge_item_free(item);
    }
  }
  bridge__restore_sigpipe(&old);
  bridge__disconnect(self);
  bridge__free(self);
}

const char *eddi_nats_bridge_instance(const NatsBridge *self) { return self->instance; }

/* ---------------------------------------------------------------- commands */

/* Messages are read the way the engine will run them: eddi_each_command. */
typedef struct {
  size_t index;
  long found;       /* index of the first Start, or -1 */
  const char *name; /* its session name */
  size_t name_len;
} BridgeStart;

static bool bridge__find_start(const EddiCommandLine *line, void *closure) {
  BridgeStart *start = closure;
  if (eddi_command_is(line, "Start")) {
    start->found = (long)start->index;
    size_t at = line->verb_len, n = line->len;
    while (at < n && isspace((unsigned char)line->line[at])) at++;
    start->name = line->line + at;
    while (at < n && !isspace((unsigned char)line->line[at])) at++;
    start->name_len = (size_t)(line->line + at - start->name);
    return false;
  }
  start->index++;
  return true;
}

void eddi_nats_name_instance(EddiReply *reply, const char *text, size_t len,
                             const char *instance) {
  BridgeStart start = {0, -1, NULL, 0};
  eddi_each_command(text, len, bridge__find_start, &start);
  size_t index = start.found >= 0 && (size_t)start.found < reply->count ? (size_t)start.found : 0;
  if (index >= reply->count || !reply->items[index].ok) return;
  EddiReplyItem *item = &reply->items[index];
  StrBuf longer = {0};
  eddi_strbuf_puts(&longer, item->text);
  eddi_strbuf_printf(&longer, ", Instance %s", instance);
  /* Reply items are the engine's strings: freed by eddi_reply_free. */
  eddi_free(item->text);
  item->text = eddi_strbuf_take(&longer);
}

/* ---------------------------------------------------------------- the Emacs thread */

NatsBridgeItem *eddi_nats_bridge_take(NatsBridge *self) {
  pthread_mutex_lock(&self->mutex);
  NatsBridgeItem *item = self->head;
  if (item) {
    self->head = item->next;
    if (!self->head) self->tail = NULL;
    if (item->kind == NATS_ITEM_LOG) {
      self->logs--;
      item->next = NULL;
    } else {
      item->next = self->in_flight;
      self->in_flight = item;
    }
  } else {
    self->wake_pending = false;
  }
  pthread_mutex_unlock(&self->mutex);
  return item;
}

int eddi_nats_bridge_reply(NatsBridge *self, uint64_t id, const char *text, size_t len) {
  pthread_mutex_lock(&self->mutex);
  NatsBridgeItem **link = &self->in_flight;
  while (*link && (*link)->id != id) link = &(*link)->next;
  NatsBridgeItem *item = *link;
  if (item) {
    *link = item->next;
    self->requests--;
  }
  pthread_mutex_unlock(&self->mutex);
  if (!item) return EDDI_ENOENT;
  sigset_t old;
  bridge__block_sigpipe(&old);
  bridge__publish(self, item->reply_subject, text, len);
  bridge__restore_sigpipe(&old);
  eddi_nats_bridge_item_free(item);
  return 0;
}

void eddi_nats_bridge_session_event(NatsBridge *self, bool started, const char *session,
                                    const char *sender) {
  json_object *event = json_object_new_object();
  json_object_object_add(event, "event", json_object_new_string(started ? "started" : "ended"));
  json_object_object_add(event, "session", json_object_new_string(session));
  json_object_object_add(event, "sender", json_object_new_string(sender));
  json_object_object_add(event, "instance", json_object_new_string(self->instance));
  size_t len = 0;
  const char *text = json_object_to_json_string_length(event, JSON_C_TO_STRING_PLAIN, &len);
  sigset_t old;
  bridge__block_sigpipe(&old);
  bridge__publish(self, BRIDGE_SESSION_EVENTS_SUBJECT, text, len);
  bridge__restore_sigpipe(&old);
  json_object_put(event);
}
