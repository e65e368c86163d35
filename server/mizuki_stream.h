/* mizuki_stream.h - the mizuki stream protocol of the original design.
 *
 *   mizuki.eddi.connection_request   a client asks for a stream (queue group "eddi")
 *   mizuki.stream.open               eddi announces the stream it accepted
 *   mizuki.stream.update             the client's messages (every instance sees them)
 *   mizuki.stream.append             eddi's replies
 *
 * Served on the NATS service's link; requests run through the engine host
 * like any other.
 */
#ifndef EDDI_SERVER_MIZUKI_STREAM_H
#define EDDI_SERVER_MIZUKI_STREAM_H

#include <json-c/json.h>
#include <pthread.h>

#include "eddi_link.h"
#include "endpoints.h"
#include "engine_host.h"

typedef struct {
  EddiLink *link;
  EngineHost *host;
  EndpointTable *endpoints;
  const char *instance_id;
  int connect_endpoint, update_endpoint; /* ids in the endpoint table */
  pthread_mutex_t mutex;  /* guards the maps */
  json_object *by_name;   /* stream name -> sender */
  json_object *by_sender; /* sender -> stream name */
} MizukiStreams;

/* Add the endpoints and subscribe. */
int mizuki_streams_start(MizukiStreams *self, EddiLink *link, EngineHost *host,
                         EndpointTable *endpoints, const char *instance_id);
/* After the link is closed. */
void mizuki_streams_destroy(MizukiStreams *self);

#endif
