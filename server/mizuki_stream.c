/* mizuki_stream.c - the mizuki stream protocol of the original design.
 *
 * A client asks to connect on mizuki.eddi.connection_request (queue group
 * "eddi": one instance takes it). The instance checks the EddiSpeak
 * version and the features asked for, answers connection_response, records
 * the stream and announces it with mizuki.stream.open. The client then
 * appends messages to the stream; they reach eddi as mizuki.stream.update
 * {"appended", "from", "to"}. The seed does not say how eddi writes back:
 * eddi publishes mizuki.stream.append {"name", "appended", "from": "eddi",
 * "to": <sender>} (doc/protocol.org).
 *
 * Every instance sees every update; an instance runs an update addressed
 * "to" eddi only for streams it opened, or one addressed to its own id.
 * Connection handling runs on the engine's owner thread, so connections
 * are handled one at a time, as the seed asks.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fail_reply.h"
#include "log.h"
#include "nats_service.h"
#include "server_error.h"
#include "validator.h"

#define MIZUKI_CONNECT_SUBJECT "mizuki.eddi.connection_request"
#define MIZUKI_OPEN_SUBJECT "mizuki.stream.open"
#define MIZUKI_UPDATE_SUBJECT "mizuki.stream.update"
#define MIZUKI_APPEND_SUBJECT "mizuki.stream.append"
#define MIZUKI_QUEUE_GROUP "eddi"
/* The recipient name of eddi in a stream, whichever instance serves it. */
#define MIZUKI_RECIPIENT "eddi"
/* Stream names are subjects-like words; longer ones are refused. */
#define MIZUKI_STREAM_NAME_MAX 256

/* -------------------------------------------------------------- streams */

int mizuki_streams_init(MizukiStreams *self) {
  self->by_name = json_object_new_object();
  self->by_sender = json_object_new_object();
  if (self->by_name && self->by_sender) return SERVER_OK;
  mizuki_streams_destroy(self);
  return SERVER_ENOMEM;
}

void mizuki_streams_destroy(MizukiStreams *self) {
  json_object_put(self->by_name);
  json_object_put(self->by_sender);
  self->by_name = self->by_sender = NULL;
}

static void mizuki__record(NatsService *self, const char *stream, const char *sender) {
  pthread_mutex_lock(&self->mutex);
  json_object *old = NULL;
  /* A sender has one stream: a new connection replaces the old one. */
  if (json_object_object_get_ex(self->streams.by_sender, sender, &old))
    json_object_object_del(self->streams.by_name, json_object_get_string(old));
  json_object_object_add(self->streams.by_name, stream, json_object_new_string(sender));
  json_object_object_add(self->streams.by_sender, sender, json_object_new_string(stream));
  pthread_mutex_unlock(&self->mutex);
}

/* The stream an update belongs to, if this instance serves it. */
static bool mizuki__serves(NatsService *self, const char *name, const char *sender, char *stream,
                           size_t stream_size) {
  json_object *value = NULL;
  bool found;
  pthread_mutex_lock(&self->mutex);
  if (name) {
    found = json_object_object_get_ex(self->streams.by_name, name, &value);
    if (found) snprintf(stream, stream_size, "%s", name);
  } else {
    found = json_object_object_get_ex(self->streams.by_sender, sender, &value);
    if (found) snprintf(stream, stream_size, "%s", json_object_get_string(value));
  }
  pthread_mutex_unlock(&self->mutex);
  return found;
}

static void mizuki__publish_json(NatsService *self, const char *subject, json_object *message) {
  size_t len = 0;
  const char *text = json_object_to_json_string_length(
      message, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
  nats_service_publish(self, subject, text, len);
  json_object_put(message);
}

/* Write a reply into the stream. */
static void mizuki__append(NatsService *self, const char *stream, const char *to,
                           const char *text) {
  json_object *message = json_object_new_object();
  json_object_object_add(message, "name", json_object_new_string(stream));
  json_object_object_add(message, "appended", json_object_new_string(text));
  json_object_object_add(message, "from", json_object_new_string(MIZUKI_RECIPIENT));
  json_object_object_add(message, "to", json_object_new_string(to));
  mizuki__publish_json(self, MIZUKI_APPEND_SUBJECT, message);
}

/* ----------------------------------------------------------- connecting */

/* The features this build has, with their versions. */
static json_object *mizuki__features(const HostFeatures *features) {
  json_object *available = json_object_new_object();
  json_object_object_add(available, "basic_commands", json_object_new_string(EDDI_SPEAK_VERSION));
  struct {
    bool present;
    const char *name;
  } optional[] = {{features->read, "hashline_read"}, {features->grep, "grep"},
                  {features->edit, "hashline_edit"}, {features->patch, "apply_patch"},
                  {features->update, "file_update"}};
  for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
    if (optional[i].present)
      json_object_object_add(available, optional[i].name, json_object_new_string("1.0"));
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

/* A client speaking EddiSpeak a.b is served by this x.y when a == x and
 * b <= y: minor versions only add. */
static bool mizuki__version_supported(const char *asked) {
  long major, minor, our_major, our_minor;
  return mizuki__version(asked, &major, &minor) &&
         mizuki__version(EDDI_SPEAK_VERSION, &our_major, &our_minor) && major == our_major &&
         minor <= our_minor;
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

typedef struct {
  WorkItem item;
  NatsService *service;
  json_object *request; /* the parsed connection_request */
  char *reply_subject;
  char *sender;
  int64_t received_ns;
} ConnectJob;

static int64_t mizuki__now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* Owner thread: decide, answer, open the stream. */
static void mizuki__connect_run(WorkItem *item, void *context) {
  ConnectJob *job = (ConnectJob *)item;
  NatsService *self = job->service;
  EngineHost *host = context;
  json_object *request = job->request, *value = NULL;
  char reason[FAIL_REPLY_MAX] = "", instance[OPTIONS_NAME_MAX + 1], found[MIZUKI_STREAM_NAME_MAX];

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
  else if (!version || !mizuki__version_supported(version))
    snprintf(reason, sizeof reason, "EddiSpeak %s not supported (supported: %s)",
             version ? version : "(none)", EDDI_SPEAK_VERSION);
  else if ((missing = mizuki__missing_feature(requested, available)))
    snprintf(reason, sizeof reason, "Feature %s not available", missing);
  else if (!session && session_registry_remote_instance(&host->sessions, NULL, job->sender,
                                                        instance, sizeof instance, found,
                                                        sizeof found))
    snprintf(reason, sizeof reason, "Session %s lives on %s", found, instance);

  char now[NATS_TIME_MAX];
  nats_service_now(now, sizeof now);
  json_object *supported = json_object_new_array();
  json_object_array_add(supported, json_object_new_string(EDDI_SPEAK_VERSION));
  json_object *server_info = json_object_new_object();
  json_object_object_add(server_info, "eddi_version", json_object_new_string(EDDI_VERSION));
  json_object_object_add(server_info, "supported_eddispeak", supported);
  json_object_object_add(server_info, "max_concurrent_operations",
                         json_object_new_int64((int64_t)self->options->max_queue));
  json_object_object_add(server_info, "instance", json_object_new_string(self->instance_id));

  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "message_type", json_object_new_string("connection_response"));
  json_object_object_add(answer, "status", json_object_new_string(*reason ? "rejected" : "accepted"));
  if (*reason) json_object_object_add(answer, "reason", json_object_new_string(reason));
  json_object_object_add(answer, "stream_id", stream ? json_object_new_string(stream) : NULL);
  if (json_object_object_get_ex(request, "connection_id", &value))
    json_object_object_add(answer, "connection_id", json_object_get(value));
  json_object_object_add(answer, "available_features", available);
  json_object_object_add(answer, "server_info", server_info);
  json_object_object_add(answer, "session", session ? json_object_new_string(session) : NULL);
  json_object_object_add(answer, "reconnected", json_object_new_boolean(session != NULL));
  json_object_object_add(answer, "connection_established", json_object_new_string(now));

  if (!*reason) mizuki__record(self, stream, job->sender);
  mizuki__publish_json(self, job->reply_subject, answer);
  if (!*reason) {
    json_object *open = json_object_new_object();
    json_object_object_add(open, "name", json_object_new_string(stream));
    json_object_object_add(open, "msg_type", json_object_new_string("stream_open"));
    json_object_object_add(open, "whitelist_recipient", json_object_new_string(MIZUKI_RECIPIENT));
    json_object_object_add(open, "user", json_object_new_string(MIZUKI_RECIPIENT));
    mizuki__publish_json(self, MIZUKI_OPEN_SUBJECT, open);
  }
  log_report(LOG_INFO, "mizuki", "connection from %s on %s: %s", job->sender,
             stream ? stream : "-", *reason ? reason : "accepted");
  nats_service_record(self, ENDPOINT_CONNECT, mizuki__now_ns() - job->received_ns,
                      *reason ? reason : NULL);

  json_object_put(job->request);
  free(job->reply_subject);
  free(job->sender);
  free(job);
}

/* Refuse a connection_request before it reaches the engine. */
static void mizuki__refuse(NatsService *self, const char *reply, const char *reason) {
  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "message_type", json_object_new_string("connection_response"));
  json_object_object_add(answer, "status", json_object_new_string("rejected"));
  json_object_object_add(answer, "reason", json_object_new_string(reason));
  mizuki__publish_json(self, reply, answer);
  nats_service_record(self, ENDPOINT_CONNECT, 0, reason);
}

static void mizuki__on_connect(natsConnection *connection, natsSubscription *subscription,
                               natsMsg *message, void *closure) {
  NatsService *self = closure;
  const char *reply = natsMsg_GetReply(message);
  const char *data = natsMsg_GetData(message);
  size_t len = (size_t)natsMsg_GetDataLength(message);
  json_object *request = NULL, *sender_object = NULL;
  const char *sender = NULL;
  char why[FAIL_REPLY_MAX + 16];
  ConnectJob *job = NULL;
  if (!reply || !*reply) goto done; /* a request with nowhere to answer */
  if (validator_check_bytes(self->options, data, len, why, sizeof why) != SERVER_OK ||
      validator_parse_json(data, len, &request, why, sizeof why) != SERVER_OK)
    goto refuse;
  if (json_object_object_get_ex(request, "sender", &sender_object) &&
      json_object_is_type(sender_object, json_type_object) &&
      validator_get_string(sender_object, "id", &sender, why, sizeof why) != SERVER_OK)
    goto refuse;
  if (!sender) {
    fail_reply_format(why, sizeof why, "Sender missing: give sender.id");
    goto refuse;
  }
  if (validator_check_sender(self->options, sender, "", 0, why, sizeof why) != SERVER_OK)
    goto refuse;
  job = calloc(1, sizeof *job);
  if (!job || !(job->reply_subject = strdup(reply)) || !(job->sender = strdup(sender))) {
    fail_reply_format(why, sizeof why, "Out of memory");
    goto refuse;
  }
  job->service = self;
  job->request = request;
  job->received_ns = mizuki__now_ns();
  job->item.lane = job->sender;
  job->item.run = mizuki__connect_run;
  int status = engine_host_submit(self->host, &job->item);
  if (status == SERVER_OK) {
    request = NULL; /* the job's now */
    job = NULL;
    goto done;
  }
  fail_reply_format(why, sizeof why, status == SERVER_EBUSY ? "Busy, retry" : "Server is stopping");

refuse:
  mizuki__refuse(self, reply, why);
done:
  if (job) {
    free(job->reply_subject);
    free(job->sender);
    free(job);
  }
  json_object_put(request);
  natsMsg_Destroy(message);
}

/* -------------------------------------------------------------- updates */

typedef struct {
  WorkItem item;
  NatsService *service;
  char *stream;
  char *sender;
  char *text;
  size_t len;
  int64_t received_ns;
} UpdateJob;

static void mizuki__update_free(UpdateJob *job) {
  free(job->stream);
  free(job->sender);
  free(job->text);
  free(job);
}

static void mizuki__update_run(WorkItem *item, void *context) {
  UpdateJob *job = (UpdateJob *)item;
  EngineHost *host = context;
  HostRequest request = {.transport = "stream", .sender = job->sender, .text = job->text,
                         .len = job->len};
  HostResult result;
  int status = engine_host_exec(host, &request, &result);
  char *joined = status == SERVER_OK ? host_result_join(&result) : NULL;
  char fail[FAIL_REPLY_MAX];
  if (!joined) fail_reply_format(fail, sizeof fail, "Out of memory");
  mizuki__append(job->service, job->stream, job->sender, joined ? joined : fail);
  nats_service_record(job->service, ENDPOINT_STREAM, mizuki__now_ns() - job->received_ns,
                      joined && host_result_ok(&result) ? NULL : joined ? joined : fail);
  free(joined);
  host_result_free(&result);
  mizuki__update_free(job);
}

static void mizuki__on_update(natsConnection *connection, natsSubscription *subscription,
                              natsMsg *message, void *closure) {
  NatsService *self = closure;
  const char *data = natsMsg_GetData(message);
  size_t len = (size_t)natsMsg_GetDataLength(message);
  json_object *update = NULL, *appended = NULL;
  const char *to = NULL, *from = NULL, *name = NULL;
  char why[FAIL_REPLY_MAX + 16], stream[MIZUKI_STREAM_NAME_MAX];
  UpdateJob *job = NULL;
  /* An update that cannot be read cannot be answered: whose is it? */
  if (validator_check_bytes(self->options, data, len, why, sizeof why) != SERVER_OK ||
      validator_parse_json(data, len, &update, why, sizeof why) != SERVER_OK ||
      validator_get_string(update, "to", &to, why, sizeof why) != SERVER_OK ||
      validator_get_string(update, "from", &from, why, sizeof why) != SERVER_OK ||
      validator_get_string(update, "name", &name, why, sizeof why) != SERVER_OK) {
    log_report(LOG_WARN, "mizuki", "unreadable stream update dropped: %s", why);
    goto done;
  }
  if (!to || (strcmp(to, MIZUKI_RECIPIENT) != 0 && strcmp(to, self->instance_id) != 0))
    goto done; /* for someone else */
  if (!from) {
    log_report(LOG_WARN, "mizuki", "stream update without \"from\" dropped");
    goto done;
  }
  if (!mizuki__serves(self, name, from, stream, sizeof stream)) {
    if (strcmp(to, self->instance_id) != 0) goto done; /* another instance's stream */
    snprintf(stream, sizeof stream, "%s", name ? name : from);
  }
  if (!json_object_object_get_ex(update, "appended", &appended) ||
      !json_object_is_type(appended, json_type_string)) {
    fail_reply_format(why, sizeof why, "\"appended\" must be a string");
    goto refuse;
  }
  job = calloc(1, sizeof *job);
  size_t text_len = (size_t)json_object_get_string_len(appended);
  if (!job || !(job->stream = strdup(stream)) || !(job->sender = strdup(from)) ||
      !(job->text = malloc(text_len + 1))) {
    fail_reply_format(why, sizeof why, "Out of memory");
    goto refuse;
  }
  memcpy(job->text, json_object_get_string(appended), text_len + 1);
  job->len = text_len;
  job->service = self;
  job->received_ns = mizuki__now_ns();
  job->item.lane = job->sender;
  job->item.run = mizuki__update_run;
  int status = engine_host_submit(self->host, &job->item);
  if (status == SERVER_OK) {
    job = NULL;
    goto done;
  }
  fail_reply_format(why, sizeof why, status == SERVER_EBUSY ? "Busy, retry" : "Server is stopping");

refuse:
  mizuki__append(self, stream, from, why);
  nats_service_record(self, ENDPOINT_STREAM, 0, why);
done:
  if (job) mizuki__update_free(job);
  json_object_put(update);
  natsMsg_Destroy(message);
}

int mizuki_subscribe(NatsService *self) {
  int status = nats_service_subscribe(self, MIZUKI_CONNECT_SUBJECT, MIZUKI_QUEUE_GROUP,
                                      mizuki__on_connect, self);
  if (status == SERVER_OK)
    status = nats_service_subscribe(self, MIZUKI_UPDATE_SUBJECT, NULL, mizuki__on_update, self);
  return status;
}
