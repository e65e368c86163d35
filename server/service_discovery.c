/* service_discovery.c - $SRV.PING, $SRV.INFO and $SRV.STATS.
 *
 * The NATS service-discovery protocol ("micro" v1). The Debian nats.c 3.4.1
 * has no micro framework, so eddi answers the subjects itself, in the JSON
 * shapes io.nats.micro.v1.{ping,info,stats}_response, on all three forms of
 * each subject: $SRV.X, $SRV.X.eddi and $SRV.X.eddi.<id>. Answered on the
 * delivery thread: no engine involved.
 */
#include <stdio.h>
#include <string.h>

#include "nats_service.h"
#include "server_error.h"

#define DISCOVERY_SERVICE_NAME "eddi"
#define DISCOVERY_DESCRIPTION "eddi: a text editor driven by EddiSpeak commands"

typedef enum { DISCOVERY_PING, DISCOVERY_INFO, DISCOVERY_STATS, DISCOVERY_KIND_COUNT } DiscoveryKind;

static const char *const discovery__verbs[] = {"PING", "INFO", "STATS"};
static const char *const discovery__types[] = {"io.nats.micro.v1.ping_response",
                                               "io.nats.micro.v1.info_response",
                                               "io.nats.micro.v1.stats_response"};

/* Closures for the three kinds: the service and the kind. */
typedef struct {
  NatsService *service;
  DiscoveryKind kind;
} DiscoveryClosure;

/* One service per process: eddi-server serves one NATS connection. */
static DiscoveryClosure discovery__closures[DISCOVERY_KIND_COUNT];

/* Endpoint names and subjects as INFO and STATS list them. */
static void discovery__endpoint(const NatsService *self, EndpointId id, const char **name,
                                const char **subject, const char **queue) {
  static const char *const names[] = {"cmd", "instance_cmd", "connection_request",
                                      "stream_update"};
  *name = names[id];
  *queue = "eddi";
  switch (id) {
  case ENDPOINT_CMD: *subject = "eddi.cmd"; break;
  case ENDPOINT_INSTANCE_CMD: *subject = self->instance_subject; break;
  case ENDPOINT_CONNECT: *subject = "mizuki.eddi.connection_request"; break;
  default:
    *subject = "mizuki.stream.update";
    *queue = NULL; /* every instance reads the stream */
    break;
  }
}

static json_object *discovery__metadata(const NatsService *self) {
  json_object *metadata = json_object_new_object();
  json_object_object_add(metadata, "instance", json_object_new_string(self->instance_id));
  json_object_object_add(metadata, "eddispeak", json_object_new_string(EDDI_SPEAK_VERSION));
  return metadata;
}

static json_object *discovery__build(NatsService *self, DiscoveryKind kind) {
  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "type", json_object_new_string(discovery__types[kind]));
  json_object_object_add(answer, "name", json_object_new_string(DISCOVERY_SERVICE_NAME));
  json_object_object_add(answer, "id", json_object_new_string(self->instance_id));
  json_object_object_add(answer, "version", json_object_new_string(EDDI_VERSION));
  json_object_object_add(answer, "metadata", discovery__metadata(self));
  if (kind == DISCOVERY_PING) return answer;
  if (kind == DISCOVERY_INFO)
    json_object_object_add(answer, "description", json_object_new_string(DISCOVERY_DESCRIPTION));
  else
    json_object_object_add(answer, "started", json_object_new_string(self->started));

  json_object *endpoints = json_object_new_array();
  pthread_mutex_lock(&self->mutex);
  for (int i = 0; i < ENDPOINT_COUNT; i++) {
    const char *name, *subject, *queue;
    discovery__endpoint(self, (EndpointId)i, &name, &subject, &queue);
    json_object *endpoint = json_object_new_object();
    json_object_object_add(endpoint, "name", json_object_new_string(name));
    json_object_object_add(endpoint, "subject", json_object_new_string(subject));
    if (queue) json_object_object_add(endpoint, "queue_group", json_object_new_string(queue));
    if (kind == DISCOVERY_STATS) {
      const EndpointStats *stats = &self->stats[i];
      int64_t average = stats->requests ? stats->processing_ns / (int64_t)stats->requests : 0;
      json_object_object_add(endpoint, "num_requests", json_object_new_int64((int64_t)stats->requests));
      json_object_object_add(endpoint, "num_errors", json_object_new_int64((int64_t)stats->errors));
      json_object_object_add(endpoint, "last_error", json_object_new_string(stats->last_error));
      json_object_object_add(endpoint, "processing_time", json_object_new_int64(stats->processing_ns));
      json_object_object_add(endpoint, "average_processing_time", json_object_new_int64(average));
    } else {
      json_object_object_add(endpoint, "metadata", NULL);
    }
    json_object_array_add(endpoints, endpoint);
  }
  pthread_mutex_unlock(&self->mutex);
  json_object_object_add(answer, "endpoints", endpoints);
  return answer;
}

static void discovery__on_message(natsConnection *connection, natsSubscription *subscription,
                                  natsMsg *message, void *closure) {
  DiscoveryClosure *discovery = closure;
  const char *reply = natsMsg_GetReply(message);
  if (reply && *reply) {
    json_object *answer = discovery__build(discovery->service, discovery->kind);
    size_t len = 0;
    const char *text = json_object_to_json_string_length(
        answer, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    nats_service_publish(discovery->service, reply, text, len);
    json_object_put(answer);
  }
  natsMsg_Destroy(message);
}

int service_discovery_subscribe(NatsService *self) {
  int status = SERVER_OK;
  for (int kind = 0; kind < DISCOVERY_KIND_COUNT && status == SERVER_OK; kind++) {
    discovery__closures[kind] = (DiscoveryClosure){self, (DiscoveryKind)kind};
    char subject[NATS_SUBJECT_MAX];
    const char *verb = discovery__verbs[kind];
    const char *forms[] = {"$SRV.%s", "$SRV.%s." DISCOVERY_SERVICE_NAME,
                           "$SRV.%s." DISCOVERY_SERVICE_NAME ".%s"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0] && status == SERVER_OK; f++) {
      snprintf(subject, sizeof subject, forms[f], verb, self->instance_id);
      status = nats_service_subscribe(self, subject, NULL, discovery__on_message,
                                      &discovery__closures[kind]);
    }
  }
  return status;
}
