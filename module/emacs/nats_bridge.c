/* nats_bridge.c - eddi.cmd and eddi.<id>.cmd served by a live Emacs; see
 * nats_bridge.h for the threads and the wake-up pipe.
 *
 * Everything NATS is the link's (eddi_link.h): the connection, the
 * subjects, reading a request's body, the session events and sync. What is
 * left here is Emacs's side: the queue to the Emacs thread, the wake-up
 * byte, log lines as queue items, and SIGPIPE.
 *
 * Emacs does not ignore SIGPIPE (it dies of it), and the wake fd is the
 * write end of a pipe that the user may delete at any time. nats.c's
 * threads are all created, directly or through one another, by calls made
 * here from the Emacs thread, and a thread starts with its creator's signal
 * mask: so those calls run with SIGPIPE blocked, and a write to a closed
 * pipe is an EPIPE on a nats thread, never a dead Emacs. The Emacs thread
 * itself blocks SIGPIPE around its own link calls and swallows a SIGPIPE
 * raised meanwhile.
 */
#include "nats_bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eddi_link.h"

/* Log lines waiting for Emacs; more are dropped (a flapping server must not
 * grow the queue without bound). */
#define BRIDGE_LOG_MAX 32
#define BRIDGE_LOG_LINE_MAX 512

struct NatsBridge {
  char instance[EDDI_INSTANCE_NAME_MAX + 1];
  size_t max_queue;
  size_t max_message_bytes;
  int wake_fd;
  EddiLink *link;

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

/* A copy of len bytes of s (NULL for NULL); aborts when out of memory, as
 * the engine's allocator does. */
static char *bridge__copy(const char *s, size_t len) {
  if (!s) return NULL;
  char *copy = malloc(len + 1);
  if (!copy) abort();
  memcpy(copy, s, len);
  copy[len] = '\0';
  return copy;
}

static NatsBridgeItem *bridge__item(NatsItemKind kind) {
  NatsBridgeItem *item = calloc(1, sizeof *item);
  if (!item) abort();
  item->kind = kind;
  return item;
}

void eddi_nats_bridge_item_free(NatsBridgeItem *item) {
  if (!item) return;
  free(item->reply_subject);
  free(item->sender);
  free(item->session);
  free(item->text);
  free(item);
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

typedef enum { BRIDGE_QUEUED, BRIDGE_FULL, BRIDGE_CLOSING } BridgePush;

/* Queue item, unless the queue is full or the bridge stopping. A log line
 * is dropped rather than refused. */
static BridgePush bridge__push(NatsBridge *self, NatsBridgeItem *item) {
  BridgePush result = BRIDGE_QUEUED;
  pthread_mutex_lock(&self->mutex);
  if (self->closing) {
    result = BRIDGE_CLOSING;
  } else if (item->kind == NATS_ITEM_REQUEST && self->requests >= self->max_queue) {
    result = BRIDGE_FULL;
  } else if (item->kind == NATS_ITEM_LOG && self->logs >= BRIDGE_LOG_MAX) {
    result = BRIDGE_FULL;
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
  return result;
}

static void bridge__log(NatsBridge *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void bridge__log(NatsBridge *self, const char *fmt, ...) {
  char line[BRIDGE_LOG_LINE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  NatsBridgeItem *item = bridge__item(NATS_ITEM_LOG);
  item->len = strlen(line);
  item->text = bridge__copy(line, item->len);
  if (bridge__push(self, item) != BRIDGE_QUEUED) eddi_nats_bridge_item_free(item);
}

/* The link's news, as lines for *Messages*. */
static void bridge__on_notice(void *closure, const EddiLinkNotice *notice) {
  NatsBridge *self = closure;
  switch (notice->kind) {
  case EDDI_LINK_CONNECTED: bridge__log(self, "connected to %s", notice->text); break;
  case EDDI_LINK_DISCONNECTED: bridge__log(self, "lost the server; reconnecting"); break;
  case EDDI_LINK_RECONNECTED: bridge__log(self, "reconnected to %s", notice->text); break;
  case EDDI_LINK_ERROR:
  case EDDI_LINK_WARNING: bridge__log(self, "%s", notice->text); break;
  }
}

/* ---------------------------------------------------------------- arrivals */

/* Answer a request that will not run. */
static void bridge__refuse(NatsBridge *self, const char *reply_subject, const char *fail) {
  eddi_link_publish(self->link, reply_subject, fail, strlen(fail));
}

/* A nats.c dispatcher thread: read the request and queue it, or refuse it
 * here. Never blocks on Emacs. */
static void bridge__on_request(void *closure, const EddiLinkMessage *message) {
  NatsBridge *self = closure;
  /* The bridge has always said "unexpected end" of a cut-short body. */
  EddiLinkBodyRules rules = {.max_bytes = self->max_message_bytes, .terse_json_errors = true};
  EddiLinkBody body;
  char fail[EDDI_LINK_FAIL_MAX];
  if (eddi_link_body_read(message->data, message->len, &rules, &body, fail, sizeof fail) != 0) {
    bridge__refuse(self, message->reply, fail);
    return;
  }
  NatsBridgeItem *item = bridge__item(NATS_ITEM_REQUEST);
  item->reply_subject = bridge__copy(message->reply, strlen(message->reply));
  item->sender = body.sender ? bridge__copy(body.sender, strlen(body.sender)) : NULL;
  item->session = body.session ? bridge__copy(body.session, strlen(body.session)) : NULL;
  item->text = bridge__copy(body.text, body.len);
  item->len = body.len;
  eddi_link_body_free(&body);
  BridgePush pushed = bridge__push(self, item);
  if (pushed == BRIDGE_QUEUED) return;
  eddi_fail_line(fail, sizeof fail, "%s",
                 pushed == BRIDGE_FULL ? "Busy, retry" : "Emacs is disconnecting, retry");
  bridge__refuse(self, message->reply, fail);
  eddi_nats_bridge_item_free(item);
}

/* ---------------------------------------------------------------- start and stop */

/* A bound on the state folder's path and the file's name after it. */
#define BRIDGE_PATH_MAX 4096

/* The bridge is an instance: when eddi-server's embedded default runs over
 * this workspace, the instances' credentials it left in the engine's state
 * folder open its server (and only its: the file names the URL). None
 * found, or another server's: found stays empty. */
static void bridge__credentials(const NatsBridgeConfig *config, EddiLinkCredentials *found) {
  memset(found, 0, sizeof *found);
  char why[EDDI_LINK_FAIL_MAX];
  const char *state = config->engine ? eddi_engine_state_dir(config->engine, why, sizeof why)
                                     : NULL;
  if (!state) return;
  char path[BRIDGE_PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", state, EDDI_LINK_INSTANCE_CREDENTIALS);
  if (eddi_link_credentials_read(path, found, why, sizeof why) < 0) return;
  if (!eddi_link_credentials_fit(found, config->url)) eddi_link_credentials_free(found);
}

/* ---------------------------------------------------------------- PING */

/* $SRV.PING answered as eddi-server answers it (server/service_discovery.c,
 * the io.nats.micro.v1 ping shape), on the three forms of the subject: the
 * other instances' liveness pinger asks $SRV.PING.eddi.<id>, and a session
 * served from Emacs would otherwise be dropped as an instance's that is
 * dead. It is answered on the nats thread, not queued for Emacs: it says
 * the connection and the process are there, as eddi-server's does. */
#define BRIDGE_SERVICE_NAME "eddi"
static const char *const bridge__ping_forms[] = {"$SRV.PING", "$SRV.PING." BRIDGE_SERVICE_NAME,
                                                 "$SRV.PING." BRIDGE_SERVICE_NAME ".%s"};

static void bridge__on_ping(void *closure, const EddiLinkMessage *message) {
  NatsBridge *self = closure;
  if (!message->reply) return;
  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "type", json_object_new_string("io.nats.micro.v1.ping_response"));
  json_object_object_add(answer, "name", json_object_new_string(BRIDGE_SERVICE_NAME));
  json_object_object_add(answer, "id", json_object_new_string(self->instance));
  json_object_object_add(answer, "version", json_object_new_string(EDDI_VERSION));
  json_object *metadata = json_object_new_object();
  json_object_object_add(metadata, "instance", json_object_new_string(self->instance));
  json_object_object_add(metadata, "eddispeak", json_object_new_string(EDDI_SPEAK_VERSION));
  json_object_object_add(answer, "metadata", metadata);
  eddi_link_publish_json(self->link, message->reply, answer);
}

static int bridge__serve_pings(NatsBridge *self) {
  int rc = 0;
  for (size_t i = 0; i < sizeof bridge__ping_forms / sizeof *bridge__ping_forms && rc == 0; i++) {
    char subject[EDDI_LINK_SUBJECT_MAX];
    snprintf(subject, sizeof subject, bridge__ping_forms[i], self->instance);
    rc = eddi_link_subscribe(self->link, subject, NULL, bridge__on_ping, self);
  }
  return rc;
}

/* Connect, share sessions, serve the command subjects and PING; the
 * subscriptions are live on the server before this returns. */
static int bridge__connect(NatsBridge *self, const NatsBridgeConfig *config, char *error,
                           size_t error_size) {
  EddiLinkOptions options = {.url = config->url, .name = self->instance,
                             .listener = bridge__on_notice, .closure = self};
  EddiLinkCredentials credentials;
  bridge__credentials(config, &credentials);
  eddi_link_credentials_apply(&credentials, &options);
  char why[EDDI_LINK_FAIL_MAX] = "cannot subscribe";
  int rc = eddi_link_connect(&self->link, &options, why, sizeof why);
  eddi_link_credentials_free(&credentials);
  if (rc == 0 && config->engine)
    rc = eddi_link_share_sessions(self->link, config->engine, self->instance,
                                  self->max_message_bytes);
  if (rc == 0)
    rc = eddi_link_serve_commands(self->link, self->instance, bridge__on_request, self, self);
  if (rc == 0) rc = bridge__serve_pings(self);
  if (rc == 0 && eddi_link_flush(self->link) != 0) {
    snprintf(why, sizeof why, "the server did not confirm the subscriptions");
    rc = EDDI_LINK_EIO;
  }
  if (rc == 0) return 0;
  snprintf(error, error_size, "Cannot connect to %s: %s", config->url, why);
  return EDDI_EIO;
}

/* Close the connection and join every nats.c thread. */
static void bridge__disconnect(NatsBridge *self) {
  sigset_t old;
  bridge__block_sigpipe(&old);
  eddi_link_close(self->link);
  self->link = NULL;
  bridge__restore_sigpipe(&old);
}

static void bridge__free(NatsBridge *self) {
  NatsBridgeItem *lists[] = {self->head, self->in_flight};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    for (NatsBridgeItem *item = lists[i], *next; item; item = next) {
      next = item->next;
      eddi_nats_bridge_item_free(item);
    }
  }
  if (self->wake_fd >= 0) close(self->wake_fd);
  pthread_mutex_destroy(&self->mutex);
  free(self);
}

int eddi_nats_bridge_start(NatsBridge **out, const NatsBridgeConfig *config, char *error,
                           size_t error_size) {
  *out = NULL;
  if (!eddi_link_instance_valid(config->instance)) {
    if (config->wake_fd >= 0) close(config->wake_fd);
    snprintf(error, error_size, "Instance name \"%s\" must be 1 to %d letters, digits, - or _",
             config->instance, EDDI_INSTANCE_NAME_MAX);
    return EDDI_EINVAL;
  }
  NatsBridge *self = calloc(1, sizeof *self);
  if (!self) abort();
  snprintf(self->instance, sizeof self->instance, "%s", config->instance);
  self->max_queue = config->max_queue ? config->max_queue : EDDI_NATS_QUEUE_DEFAULT;
  self->max_message_bytes = config->max_message_bytes;
  self->wake_fd = config->wake_fd;
  pthread_mutex_init(&self->mutex, NULL);
  /* A full pipe must not block a nats thread. */
  int flags = fcntl(self->wake_fd, F_GETFL);
  if (flags < 0 || fcntl(self->wake_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    snprintf(error, error_size, "Cannot set up the channel to Emacs: %s", strerror(errno));
    bridge__free(self);
    return EDDI_EINVAL;
  }

  sigset_t old;
  bridge__block_sigpipe(&old);
  int rc = bridge__connect(self, config, error, error_size);
  bridge__restore_sigpipe(&old);
  if (rc != 0) {
    pthread_mutex_lock(&self->mutex);
    self->closing = true;
    pthread_mutex_unlock(&self->mutex);
    bridge__disconnect(self);
    bridge__free(self);
    return rc;
  }
  *out = self;
  return 0;
}

void eddi_nats_bridge_drain(NatsBridge *self) {
  if (!self) return;
  sigset_t old;
  bridge__block_sigpipe(&old);
  eddi_link_drain(self->link);
  bridge__restore_sigpipe(&old);
}

void eddi_nats_bridge_stop(NatsBridge *self) {
  if (!self) return;
  eddi_nats_bridge_drain(self);
  pthread_mutex_lock(&self->mutex);
  self->closing = true;
  NatsBridgeItem *lists[] = {self->head, self->in_flight};
  self->head = self->tail = self->in_flight = NULL;
  pthread_mutex_unlock(&self->mutex);

  /* Nobody will run these now: say so rather than let clients time out. */
  char fail[EDDI_LINK_FAIL_MAX];
  eddi_fail_line(fail, sizeof fail, "Emacs disconnected before running this, retry");
  sigset_t old;
  bridge__block_sigpipe(&old);
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    for (NatsBridgeItem *item = lists[i], *next; item; item = next) {
      next = item->next;
      if (item->kind == NATS_ITEM_REQUEST) bridge__refuse(self, item->reply_subject, fail);
      eddi_nats_bridge_item_free(item);
    }
  }
  bridge__restore_sigpipe(&old);
  bridge__disconnect(self);
  bridge__free(self);
}

const char *eddi_nats_bridge_instance(const NatsBridge *self) { return self->instance; }

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
  eddi_link_publish(self->link, item->reply_subject, text, len);
  bridge__restore_sigpipe(&old);
  eddi_nats_bridge_item_free(item);
  return 0;
}

void eddi_nats_bridge_session_event(NatsBridge *self, bool started, const char *session,
                                    const char *sender) {
  EddiSessionEvent event = {started ? EDDI_SESSION_STARTED : EDDI_SESSION_ENDED, session, sender,
                            self->instance};
  sigset_t old;
  bridge__block_sigpipe(&old);
  eddi_link_publish_session_event(self->link, &event);
  bridge__restore_sigpipe(&old);
}
