/* service_discovery.c - see service_discovery.h.
 *
 * The Debian nats.c 3.4.1 has no micro framework, so eddi answers the
 * subjects itself, in the JSON shapes io.nats.micro.v1.{ping,info,stats}_
 * response, on all three forms of each subject: $SRV.X, $SRV.X.eddi and
 * $SRV.X.eddi.<id>. STATS adds, as the command endpoint's data, how many
 * sessions this instance holds.
 */
#include "service_discovery.h"

#include <stdio.h>
#include <string.h>

#include "server_error.h"

#define DISCOVERY_SERVICE_NAME "eddi"
#define DISCOVERY_DESCRIPTION "eddi: a text editor driven by EddiSpeak commands"
/* The endpoint whose statistics carry the session count. */
#define DISCOVERY_SESSIONS_ENDPOINT "cmd"

static const char *const discovery__verbs[] = {"PING", "INFO", "STATS"};
static const char *const discovery__types[] = {"io.nats.micro.v1.ping_response",
                                               "io.nats.micro.v1.info_response",
                                               "io.nats.micro.v1.stats_response"};

static json_object *discovery__metadata(const ServiceDiscovery *self) {
  json_object *metadata = json_object_new_object();
  json_object_object_add(metadata, "instance", json_object_new_string(self->instance_id));
  json_object_object_add(metadata, "eddispeak", json_object_new_string(EDDI_SPEAK_VERSION));
  return metadata;
}

static json_object *discovery__endpoint(const ServiceDiscovery *self, const Endpoint *endpoint,
                                        DiscoveryKind kind) {
  json_object *entry = json_object_new_object();
  json_object_object_add(entry, "name", json_object_new_string(endpoint->name));
  json_object_object_add(entry, "subject", json_object_new_string(endpoint->subject));
  if (endpoint->queue)
    json_object_object_add(entry, "queue_group", json_object_new_string(endpoint->queue));
  if (kind != DISCOVERY_STATS) {
    json_object_object_add(entry, "metadata", NULL);
    return entry;
  }
  int64_t average =
      endpoint->requests ? endpoint->processing_ns / (int64_t)endpoint->requests : 0;
  json_object_object_add(entry, "num_requests", json_object_new_int64((int64_t)endpoint->requests));
  json_object_object_add(entry, "num_errors", json_object_new_int64((int64_t)endpoint->errors));
  json_object_object_add(entry, "last_error", json_object_new_string(endpoint->last_error));
  json_object_object_add(entry, "processing_time", json_object_new_int64(endpoint->processing_ns));
  json_object_object_add(entry, "average_processing_time", json_object_new_int64(average));
  if (strcmp(endpoint->name, DISCOVERY_SESSIONS_ENDPOINT) == 0) {
    json_object *data = json_object_new_object();
    json_object_object_add(data, "sessions",
                           json_object_new_int64((int64_t)eddi_engine_session_count(self->engine)));
    json_object_object_add(entry, "data", data);
  }
  return entry;
}

static json_object *discovery__build(ServiceDiscovery *self, DiscoveryKind kind) {
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

  Endpoint snapshot[ENDPOINTS_MAX];
  size_t count = endpoints_snapshot(self->endpoints, snapshot);
  json_object *endpoints = json_object_new_array();
  for (size_t i = 0; i < count; i++)
    json_object_array_add(endpoints, discovery__endpoint(self, &snapshot[i], kind));
  json_object_object_add(answer, "endpoints", endpoints);
  return answer;
}

static void discovery__on_message(void *closure, const EddiLinkMessage *message) {
  DiscoveryClosure *kind = closure;
  if (!message->reply) return;
  ServiceDiscovery *self = kind->discovery;
  eddi_link_publish_json(self->link, message->reply, discovery__build(self, kind->kind));
}

int service_discovery_start(ServiceDiscovery *self, EddiLink *link, EndpointTable *endpoints,
                            const EddiEngine *engine, const char *instance_id) {
  memset(self, 0, sizeof *self);
  self->link = link;
  self->endpoints = endpoints;
  self->engine = engine;
  self->instance_id = instance_id;
  eddi_link_now(self->started, sizeof self->started);
  int rc = 0;
  for (int kind = 0; kind < DISCOVERY_KIND_COUNT && rc == 0; kind++) {
    self->closures[kind] = (DiscoveryClosure){self, (DiscoveryKind)kind};
    const char *verb = discovery__verbs[kind];
    const char *forms[] = {"$SRV.%s", "$SRV.%s." DISCOVERY_SERVICE_NAME,
                           "$SRV.%s." DISCOVERY_SERVICE_NAME ".%s"};
    for (size_t f = 0; f < sizeof forms / sizeof forms[0] && rc == 0; f++) {
      char subject[EDDI_LINK_SUBJECT_MAX];
      snprintf(subject, sizeof subject, forms[f], verb, instance_id);
      rc = eddi_link_subscribe(link, subject, NULL, discovery__on_message, &self->closures[kind]);
    }
  }
  return rc == 0 ? SERVER_OK : SERVER_ENATS;
}
