/* mizuki_stream.c - see mizuki_stream.h.
 *
 * A client asks to connect on mizuki.eddi.connection_request (queue group
 * "eddi": one instance takes it), published with a reply inbox of its own.
 * The instance checks the EddiSpeak version and the features asked for,
 * answers connection_response to that inbox, records the stream and
 * announces it with mizuki.stream.open. The client then appends messages to
 * the stream; they reach eddi as mizuki.stream.update {"appended", "from",
 * "to", "stream_key"}. The seed does not say how eddi writes back: eddi
 * sends each reply {"name", "appended", "from": "eddi", "to": <sender>} to
 * the owner's inbox (doc/protocol.org).
 *
 * A stream is bound to the client that opened it until it is closed: the
 * response gives that client a random stream_key, which every update must
 * carry and nobody else has seen (it went to the owner's inbox); replies go
 * to that inbox alone, never to a subject every client may read; a second
 * connection_request for the same sender or stream name is refused unless
 * it carries the key (the owner coming back with a new inbox). What this
 * binds is the stream, not the sender's name: in the open mode anyone may
 * still claim any sender.id for a stream of its own (doc/security.org).
 *
 * Every instance sees every update; an instance runs those whose key is of
 * a stream it opened. One addressed to its own id with no such key is
 * refused, on the update's reply subject when it has one (never on the
 * owner's inbox: the refusal is the sender's).
 * Connection handling runs on the engine's owner thread, so connections
 * are handled one at a time, as the seed asks.
 */
#include "mizuki_stream.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "log.h"
#include "server_error.h"

/* The recipient name of eddi in a stream, whichever instance serves it. */
#define MIZUKI_RECIPIENT "eddi"
/* The version of each optional feature this build offers. */
#define MIZUKI_FEATURE_VERSION "1.0"
/* The EddiSpeak versions a client may ask for. */
static const char *const mizuki_speaks[] = {EDDI_SPEAK_VERSIONS};
#define MIZUKI_SPEAKS_COUNT (sizeof mizuki_speaks / sizeof mizuki_speaks[0])
/* Room for that list as text. */
#define MIZUKI_SPEAKS_MAX 64
/* A stream key: this many random bytes, in hex. */
#define MIZUKI_KEY_BYTES 16
/* The closing update's message_type. */
#define MIZUKI_CLOSE_TYPE "stream_close"
#define MIZUKI_NO_STREAM "No open stream has this stream_key: send a connection_request first"

/* -------------------------------------------------------------- streams */

/* With the mutex held: the open stream whose field (a member of
 * MizukiStream, by offset) is value, or NULL. */
static MizukiStream *mizuki__find(MizukiStreams *self, size_t field, const char *value) {
  for (size_t i = 0; value && i < self->count; i++)
    if (strcmp((const char *)&self->streams[i] + field, value) == 0) return &self->streams[i];
  return NULL;
}

#define MIZUKI_BY(field) offsetof(MizukiStream, field)

/* A copy of the stream with key, if this instance has it open. */
static bool mizuki__lookup(MizukiStreams *self, const char *key, MizukiStream *copy) {
  pthread_mutex_lock(&self->mutex);
  MizukiStream *found = mizuki__find(self, MIZUKI_BY(key), key);
  if (found) *copy = *found;
  pthread_mutex_unlock(&self->mutex);
  return found != NULL;
}

/* A new random key, in hex. */
static bool mizuki__new_key(char key[MIZUKI_KEY_MAX]) {
  unsigned char bytes[MIZUKI_KEY_BYTES];
  if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes) return false;
  for (size_t i = 0; i < sizeof bytes; i++) snprintf(key + 2 * i, 3, "%02x", bytes[i]);
  return true;
}

/* Owner thread: bind stream name to sender and its inbox, or say in reason
 * why not. A sender's open stream, or a name open for another sender, is
 * refused unless asked_key is that stream's key: then the stream goes on
 * with the new inbox. key gets the stream's key. */
static void mizuki__bind(MizukiStreams *self, const char *name, const char *sender,
                         const char *inbox, const char *asked_key, char key[MIZUKI_KEY_MAX],
                         char *reason, size_t reason_size) {
  pthread_mutex_lock(&self->mutex);
  MizukiStream *mine = mizuki__find(self, MIZUKI_BY(sender), sender);
  MizukiStream *named = mizuki__find(self, MIZUKI_BY(name), name);
  if (mine && !(asked_key && strcmp(asked_key, mine->key) == 0 && named == mine)) {
    snprintf(reason, reason_size, "Stream %s of %s is open: close it, or give its stream_key",
             mine->name, sender);
  } else if (!mine && named) {
    snprintf(reason, reason_size, "Stream %s is open for another sender", name);
  } else if (mine) {
    snprintf(mine->inbox, sizeof mine->inbox, "%s", inbox);
    snprintf(key, MIZUKI_KEY_MAX, "%s", mine->key);
  } else if (self->count >= MIZUKI_STREAMS_MAX) {
    snprintf(reason, reason_size, "Too many open streams (%d)", MIZUKI_STREAMS_MAX);
  } else if (!mizuki__new_key(key)) {
    snprintf(reason, reason_size, "No random bytes for a stream key: %s", strerror(errno));
  } else {
    MizukiStream *stream = &self->streams[self->count++];
    snprintf(stream->name, sizeof stream->name, "%s", name);
    snprintf(stream->sender, sizeof stream->sender, "%s", sender);
    snprintf(stream->inbox, sizeof stream->inbox, "%s", inbox);
    snprintf(stream->key, sizeof stream->key, "%s", key);
  }
  pthread_mutex_unlock(&self->mutex);
}

/* Owner thread: the stream with key is closed. */
static void mizuki__unbind(MizukiStreams *self, const char *key) {
  pthread_mutex_lock(&self->mutex);
  MizukiStream *found = mizuki__find(self, MIZUKI_BY(key), key);
  if (found) *found = self->streams[--self->count];
  pthread_mutex_unlock(&self->mutex);
}

/* Write a reply of stream (or of none: NULL) to subject. */
static void mizuki__append(MizukiStreams *self, const char *subject, const char *stream,
                           const char *to, const char *text) {
  json_object *message = json_object_new_object();
  json_object_object_add(message, "name", stream ? json_object_new_string(stream) : NULL);
  json_object_object_add(message, "appended", json_object_new_string(text));
  json_object_object_add(message, "from", json_object_new_string(MIZUKI_RECIPIENT));
  json_object_object_add(message, "to", json_object_new_string(to));
  eddi_link_publish_json(self->link, subject, message);
}

/* ------------------------------------------------------------- requests */

/* Work for the owner thread. The strings are the job's. */
typedef struct {
  WorkItem item;
  MizukiStreams *streams;
  json_object *request; /* the parsed connection_request, or NULL for an update */
  char *reply_subject;  /* where a connection is answered */
  MizukiStream stream;  /* the stream an update came on, as it was then */
  char *sender;
  char *text;           /* an update's message; NULL for a stream_close */
  size_t len;
  int64_t received_ns;
} MizukiJob;

static void mizuki__job_free(MizukiJob *job) {
  if (!job) return;
  json_object_put(job->request);
  free(job->reply_subject);
  free(job->sender);
  free(job->text);
  free(job);
}

/* A copy of len bytes of s, or NULL. */
static char *mizuki__copy(const char *s, size_t len) {
  char *copy = malloc(len + 1);
  if (copy) {
    memcpy(copy, s, len);
    copy[len] = '\0';
  }
  return copy;
}

/* Queue job to run on the owner thread; consumes it. A job that could not
 * be made whole (NULL, or complete false: out of memory) is refused too.
 * Fills fail and returns false when it is not queued. */
static bool mizuki__submit(MizukiStreams *self, MizukiJob *job, bool complete, WorkRun run,
                           char *fail, size_t fail_size) {
  int status = SERVER_ENOMEM;
  if (job && complete) {
    job->streams = self;
    job->received_ns = log_now_ns();
    job->item.lane = job->sender;
    job->item.run = run;
    status = engine_host_submit(self->host, &job->item);
    if (status == SERVER_OK) return true;
  }
  mizuki__job_free(job);
  eddi_fail_line(fail, fail_size, "%s",
                 status == SERVER_ENOMEM ? "Out of memory" : engine_host_refusal(status));
  return false;
}

/* ----------------------------------------------------------- connecting */

/* The features this build has, with their versions, named as the design's
 * connection_request names them (semantic_refactoring, changeset_management)
 * or, for the edit formats it does not name, after eddi's commands. */
static json_object *mizuki__features(const HostFeatures *features) {
  json_object *available = json_object_new_object();
  json_object_object_add(available, "basic_commands", json_object_new_string(EDDI_SPEAK_VERSION));
  struct {
    bool present;
    const char *name;
  } optional[] = {{features->read, "hashline_read"}, {features->grep, "grep"},
                  {features->edit, "hashline_edit"}, {features->patch, "apply_patch"},
                  {features->update, "file_update"}, {features->refactor, "semantic_refactoring"},
                  {features->changesets, "changeset_management"}};
  for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
    if (optional[i].present)
      json_object_object_add(available, optional[i].name,
                             json_object_new_string(MIZUKI_FEATURE_VERSION));
  return available;
}

/* "1.0" = major 1, minor 0; a bare "1" is 1.0. */
static bool mizuki__version(const char *text, long *major, long *minor) {
  char *end = NULL;
  if (!isdigit((unsigned char)text[0])) return false;
  *major = strtol(text, &end, 10);
  *minor = 0;
  if (*end == '\0') return true;
  if (*end != '.' || !isdigit((unsigned char)end[1])) return false;
  *minor = strtol(end + 1, &end, 10);
  return *end == '\0';
}

/* A client speaking EddiSpeak a.b is served when eddi speaks some x.y with
 * a == x and b <= y: minor versions only add, a major one may change. */
static bool mizuki__version_supported(const char *asked) {
  long major, minor, our_major, our_minor;
  if (!mizuki__version(asked, &major, &minor)) return false;
  for (size_t i = 0; i < MIZUKI_SPEAKS_COUNT; i++)
    if (mizuki__version(mizuki_speaks[i], &our_major, &our_minor) && major == our_major &&
        minor <= our_minor)
      return true;
  return false;
}

/* The versions eddi speaks, "1.0, 2.0", for a refusal. */
static void mizuki__speaks_list(char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < MIZUKI_SPEAKS_COUNT && used < size; i++) {
    int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "", mizuki_speaks[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* A mandatory feature this build lacks, or NULL. requested_features maps a
 * name to [version, "mandatory"|"optional"] (or to a bare version). */
static const char *mizuki__missing_feature(json_object *requested, json_object *available) {
  if (!requested || !json_object_is_type(requested, json_type_object)) return NULL;
  json_object_object_foreach(requested, name, spec) {
    bool mandatory = false;
    if (json_object_is_type(spec, json_type_array) && json_object_array_length(spec) >= 2) {
      const char *need = json_object_get_string(json_object_array_get_idx(spec, 1));
      mandatory = need && strcmp(need, "mandatory") == 0;
    }
    if (mandatory && !json_object_object_get_ex(available, name, NULL)) return name;
  }
  return NULL;
}

static json_object *mizuki__server_info(const MizukiStreams *self) {
  json_object *supported = json_object_new_array();
  for (size_t i = 0; i < MIZUKI_SPEAKS_COUNT; i++)
    json_object_array_add(supported, json_object_new_string(mizuki_speaks[i]));
  json_object *server_info = json_object_new_object();
  json_object_object_add(server_info, "eddi_version", json_object_new_string(EDDI_VERSION));
  json_object_object_add(server_info, "supported_eddispeak", supported);
  json_object_object_add(server_info, "max_concurrent_operations",
                         json_object_new_int64((int64_t)self->host->options->max_queue));
  json_object_object_add(server_info, "instance", json_object_new_string(self->instance_id));
  return server_info;
}

/* Owner thread: decide, answer, open the stream. */
static void mizuki__connect_run(WorkItem *item, void *context) {
  MizukiJob *job = (MizukiJob *)item;
  MizukiStreams *self = job->streams;
  EngineHost *host = context;
  json_object *request = job->request, *value = NULL;
  char reason[EDDI_LINK_FAIL_MAX] = "", instance[EDDI_INSTANCE_NAME_MAX + 1],
       found[MIZUKI_STREAM_NAME_MAX];

  const char *stream = json_object_object_get_ex(request, "stream_name", &value)
                           ? json_object_get_string(value) : NULL;
  const char *version = json_object_object_get_ex(request, "eddispeak_version", &value)
                            ? json_object_get_string(value) : NULL;
  json_object *requested = json_object_object_get_ex(request, "requested_features", &value)
                               ? value : NULL;
  json_object *available = mizuki__features(&host->features);
  const char *session = engine_host_session_of(host, job->sender);
  const char *missing = NULL;

  if (!stream || !*stream || strlen(stream) >= MIZUKI_STREAM_NAME_MAX)
    snprintf(reason, sizeof reason, "stream_name missing or too long");
  else if (!version || !mizuki__version_supported(version)) {
    char speaks[MIZUKI_SPEAKS_MAX];
    mizuki__speaks_list(speaks, sizeof speaks);
    snprintf(reason, sizeof reason, "EddiSpeak %s not supported (supported: %s)",
             version ? version : "(none)", speaks);
  }
  else if ((missing = mizuki__missing_feature(requested, available)))
    snprintf(reason, sizeof reason, "Feature %s not available", missing);
  else if (!session && eddi_engine_remote_session(host->engine, NULL, job->sender, instance,
                                                  sizeof instance, found, sizeof found))
    snprintf(reason, sizeof reason, "Session %s lives on %s", found, instance);
  else if (strlen(job->reply_subject) >= MIZUKI_INBOX_MAX)
    snprintf(reason, sizeof reason, "Reply inbox longer than %d bytes", MIZUKI_INBOX_MAX - 1);
  char key[MIZUKI_KEY_MAX] = "";
  if (!*reason) {
    const char *asked_key = json_object_object_get_ex(request, "stream_key", &value) &&
                                    json_object_is_type(value, json_type_string)
                                ? json_object_get_string(value)
                                : NULL;
    mizuki__bind(self, stream, job->sender, job->reply_subject, asked_key, key, reason,
                 sizeof reason);
  }

  char now[EDDI_LINK_TIME_MAX];
  eddi_link_now(now, sizeof now);
  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "message_type", json_object_new_string("connection_response"));
  json_object_object_add(answer, "status",
                         json_object_new_string(*reason ? "rejected" : "accepted"));
  if (*reason) json_object_object_add(answer, "reason", json_object_new_string(reason));
  json_object_object_add(answer, "stream_id", stream ? json_object_new_string(stream) : NULL);
  if (!*reason) json_object_object_add(answer, "stream_key", json_object_new_string(key));
  if (json_object_object_get_ex(request, "connection_id", &value))
    json_object_object_add(answer, "connection_id", json_object_get(value));
  json_object_object_add(answer, "available_features", available);
  json_object_object_add(answer, "server_info", mizuki__server_info(self));
  json_object_object_add(answer, "session", session ? json_object_new_string(session) : NULL);
  json_object_object_add(answer, "reconnected", json_object_new_boolean(session != NULL));
  json_object_object_add(answer, "connection_established", json_object_new_string(now));

  eddi_link_publish_json(self->link, job->reply_subject, answer);
  if (!*reason) {
    json_object *open = json_object_new_object();
    json_object_object_add(open, "name", json_object_new_string(stream));
    json_object_object_add(open, "msg_type", json_object_new_string("stream_open"));
    json_object_object_add(open, "whitelist_recipient", json_object_new_string(MIZUKI_RECIPIENT));
    json_object_object_add(open, "user", json_object_new_string(MIZUKI_RECIPIENT));
    eddi_link_publish_json(self->link, MIZUKI_OPEN_SUBJECT, open);
  }
  log_report(LOG_INFO, "mizuki", "connection from %s on %s: %s", job->sender,
             stream ? stream : "-", *reason ? reason : "accepted");
  endpoints_record(self->endpoints, self->connect_endpoint, log_now_ns() - job->received_ns,
                   *reason ? reason : NULL);
  mizuki__job_free(job);
}

/* Refuse a connection_request before it reaches the engine. */
static void mizuki__refuse(MizukiStreams *self, const char *reply, const char *reason) {
  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "message_type", json_object_new_string("connection_response"));
  json_object_object_add(answer, "status", json_object_new_string("rejected"));
  json_object_object_add(answer, "reason", json_object_new_string(reason));
  eddi_link_publish_json(self->link, reply, answer);
  endpoints_record(self->endpoints, self->connect_endpoint, 0, reason);
}

static void mizuki__on_connect(void *closure, const EddiLinkMessage *message) {
  MizukiStreams *self = closure;
  if (!message->reply) return; /* a request with nowhere to answer */
  json_object *request = NULL, *sender_object = NULL;
  const char *sender = NULL;
  char fail[EDDI_LINK_FAIL_MAX];
  size_t max_bytes = self->host->options->max_message_bytes;
  int rc = eddi_link_check_bytes(message->data, message->len, max_bytes, fail, sizeof fail);
  if (rc == 0)
    rc = eddi_link_parse_object(message->data, message->len, &request, fail, sizeof fail);
  if (rc == 0 && json_object_object_get_ex(request, "sender", &sender_object) &&
      json_object_is_type(sender_object, json_type_object))
    rc = eddi_link_get_string(sender_object, "id", &sender, fail, sizeof fail);
  if (rc == 0 && !sender) {
    eddi_fail_line(fail, sizeof fail, "Sender missing: give sender.id");
    rc = SERVER_EINVAL;
  }
  /* Who may connect at all is the same list the engine holds every
   * request to (options --allow, --read-only). */
  if (rc == 0 && !options_sender_allowed(self->host->options, sender)) {
    eddi_fail_line(fail, sizeof fail, "Sender %s is not allowed", sender);
    rc = SERVER_EINVAL;
  }
  if (rc == 0) {
    MizukiJob *job = calloc(1, sizeof *job);
    bool complete = job && (job->reply_subject = strdup(message->reply)) &&
                    (job->sender = strdup(sender));
    if (job) {
      job->request = request;
      request = NULL; /* the job's now, queued or freed */
    }
    if (mizuki__submit(self, job, complete, mizuki__connect_run, fail, sizeof fail)) return;
  }
  mizuki__refuse(self, message->reply, fail);
  json_object_put(request);
}

/* -------------------------------------------------------------- updates */

static void mizuki__update_run(WorkItem *item, void *context) {
  MizukiJob *job = (MizukiJob *)item;
  MizukiStreams *self = job->streams;
  EngineHost *host = context;
  const MizukiStream *stream = &job->stream;
  if (!job->text) { /* stream_close, after the stream's earlier updates */
    mizuki__unbind(self, stream->key);
    mizuki__append(self, stream->inbox, stream->name, job->sender, "Ok, Stream closed");
    log_report(LOG_INFO, "mizuki", "stream %s of %s closed", stream->name, job->sender);
    endpoints_record(self->endpoints, self->update_endpoint, log_now_ns() - job->received_ns,
                     NULL);
    mizuki__job_free(job);
    return;
  }
  HostRequest request = {"stream", {.sender = job->sender, .text = job->text, .len = job->len}};
  EddiReply reply;
  engine_host_exec(host, &request, &reply);
  char *joined = engine_host_join(&reply);
  char fail[EDDI_LINK_FAIL_MAX];
  if (!joined) eddi_fail_line(fail, sizeof fail, "Out of memory");
  const char *text = joined ? joined : fail;
  /* The owner's inbox now: a reconnect may have moved it meanwhile. */
  MizukiStream now;
  const char *inbox = mizuki__lookup(self, stream->key, &now) ? now.inbox : stream->inbox;
  mizuki__append(self, inbox, stream->name, job->sender, text);
  endpoints_record(self->endpoints, self->update_endpoint, log_now_ns() - job->received_ns,
                   joined && engine_host_reply_ok(&reply) ? NULL : text);
  free(joined);
  eddi_reply_free(&reply);
  mizuki__job_free(job);
}

/* An update this instance will not run, though it is addressed here: said
 * in the log, and answered on its own reply subject if it has one. */
static void mizuki__refuse_update(MizukiStreams *self, const EddiLinkMessage *message,
                                  const char *stream, const char *from, const char *fail) {
  log_report(LOG_WARN, "mizuki", "stream update from %s refused: %s", from, fail);
  if (message->reply) mizuki__append(self, message->reply, stream, from, fail);
  endpoints_record(self->endpoints, self->update_endpoint, 0, fail);
}

/* Queue an update (or a stream_close: text NULL) of stream from its owner. */
static void mizuki__queue_update(MizukiStreams *self, const EddiLinkMessage *message,
                                 const MizukiStream *stream, const char *text, size_t len) {
  char fail[EDDI_LINK_FAIL_MAX];
  MizukiJob *job = calloc(1, sizeof *job);
  bool complete = job && (job->sender = strdup(stream->sender)) &&
                  (!text || (job->text = mizuki__copy(text, len)));
  if (job) {
    job->stream = *stream;
    job->len = len;
  }
  if (mizuki__submit(self, job, complete, mizuki__update_run, fail, sizeof fail)) return;
  mizuki__refuse_update(self, message, stream->name, stream->sender, fail);
}

static void mizuki__on_update(void *closure, const EddiLinkMessage *message) {
  MizukiStreams *self = closure;
  json_object *update = NULL, *appended = NULL;
  const char *to = NULL, *from = NULL, *name = NULL, *key = NULL, *type = NULL;
  char fail[EDDI_LINK_FAIL_MAX];
  size_t max_bytes = self->host->options->max_message_bytes;
  /* An update that cannot be read cannot be answered: whose is it? */
  int rc = eddi_link_check_bytes(message->data, message->len, max_bytes, fail, sizeof fail);
  if (rc == 0)
    rc = eddi_link_parse_object(message->data, message->len, &update, fail, sizeof fail);
  const char *keys[] = {"to", "from", "name", "stream_key", "message_type"};
  const char **values[] = {&to, &from, &name, &key, &type};
  for (size_t i = 0; rc == 0 && i < sizeof keys / sizeof keys[0]; i++)
    rc = eddi_link_get_string(update, keys[i], values[i], fail, sizeof fail);
  if (rc != 0) {
    log_report(LOG_WARN, "mizuki", "unreadable stream update dropped: %s", fail);
    goto done;
  }
  bool to_me = to && strcmp(to, self->instance_id) == 0;
  if (!to || (strcmp(to, MIZUKI_RECIPIENT) != 0 && !to_me)) goto done; /* for someone else */
  if (!from) {
    log_report(LOG_WARN, "mizuki", "stream update without \"from\" dropped");
    goto done;
  }
  MizukiStream stream;
  if (!mizuki__lookup(self, key, &stream)) {
    /* To "eddi": another instance's stream, or nobody's. */
    if (to_me) {
      eddi_fail_line(fail, sizeof fail, MIZUKI_NO_STREAM);
      mizuki__refuse_update(self, message, NULL, from, fail);
    }
    goto done;
  }
  if (strcmp(from, stream.sender) != 0 || (name && strcmp(name, stream.name) != 0)) {
    eddi_fail_line(fail, sizeof fail, "Stream %s belongs to another sender", stream.name);
    mizuki__refuse_update(self, message, stream.name, from, fail);
    goto done;
  }
  if (type && strcmp(type, MIZUKI_CLOSE_TYPE) == 0) {
    mizuki__queue_update(self, message, &stream, NULL, 0);
  } else if (!json_object_object_get_ex(update, "appended", &appended) ||
             !json_object_is_type(appended, json_type_string)) {
    /* The owner's own mistake: answered where it reads. */
    eddi_fail_line(fail, sizeof fail, "\"appended\" must be a string");
    mizuki__append(self, stream.inbox, stream.name, from, fail);
    endpoints_record(self->endpoints, self->update_endpoint, 0, fail);
  } else {
    mizuki__queue_update(self, message, &stream, json_object_get_string(appended),
                         (size_t)json_object_get_string_len(appended));
  }
done:
  json_object_put(update);
}

/* ------------------------------------------------------------ lifecycle */

int mizuki_streams_start(MizukiStreams *self, EddiLink *link, EngineHost *host,
                         EndpointTable *endpoints, const char *instance_id) {
  memset(self, 0, sizeof *self);
  self->link = link;
  self->host = host;
  self->endpoints = endpoints;
  self->instance_id = instance_id;
  self->streams = calloc(MIZUKI_STREAMS_MAX, sizeof *self->streams);
  if (!self->streams || pthread_mutex_init(&self->mutex, NULL)) {
    free(self->streams);
    self->streams = NULL;
    return SERVER_ENOMEM;
  }
  self->started = true;
  self->connect_endpoint = endpoints_add(endpoints, "connection_request", MIZUKI_CONNECT_SUBJECT,
                                         EDDI_LINK_QUEUE_GROUP);
  /* Every instance reads the updates: no queue group. */
  self->update_endpoint = endpoints_add(endpoints, "stream_update", MIZUKI_UPDATE_SUBJECT, NULL);
  if (self->connect_endpoint < 0 || self->update_endpoint < 0) return SERVER_EINVAL;
  int rc = eddi_link_subscribe(link, MIZUKI_CONNECT_SUBJECT, EDDI_LINK_QUEUE_GROUP,
                               mizuki__on_connect, self);
  if (rc == 0) rc = eddi_link_subscribe(link, MIZUKI_UPDATE_SUBJECT, NULL, mizuki__on_update, self);
  return rc == 0 ? SERVER_OK : SERVER_ENATS;
}

void mizuki_streams_destroy(MizukiStreams *self) {
  if (!self->started) return;
  free(self->streams);
  self->streams = NULL;
  self->started = false;
  pthread_mutex_destroy(&self->mutex);
}
