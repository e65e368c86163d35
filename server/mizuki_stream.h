/* mizuki_stream.h - the mizuki stream protocol of the original design.
 *
 *   mizuki.eddi.connection_request   a client asks for a stream (queue group "eddi"),
 *                                    published with its own reply inbox
 *   mizuki.stream.open               eddi announces the stream it accepted
 *   mizuki.stream.update             the client's messages (every instance sees them),
 *                                    each with the stream_key it was given
 *   <the client's inbox>             eddi's replies, to the stream's owner only
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

#define MIZUKI_CONNECT_SUBJECT "mizuki.eddi.connection_request"
#define MIZUKI_OPEN_SUBJECT "mizuki.stream.open"
#define MIZUKI_UPDATE_SUBJECT "mizuki.stream.update"

/* Stream names are subject-like words; longer ones are refused. */
#define MIZUKI_STREAM_NAME_MAX 256
/* A reply inbox is a subject: "_INBOX.<22 characters>" or a prefix's. */
#define MIZUKI_INBOX_MAX 256
#define MIZUKI_KEY_MAX 33
/* Streams open on one instance at once; more are refused. */
#define MIZUKI_STREAMS_MAX 1024

/* An open stream: bound to its sender, answered on its owner's inbox,
 * reached by updates carrying its key. */
typedef struct {
  char name[MIZUKI_STREAM_NAME_MAX];
  char sender[EDDI_SENDER_NAME_MAX + 1];
  char key[MIZUKI_KEY_MAX];
  char inbox[MIZUKI_INBOX_MAX];
} MizukiStream;

typedef struct {
  EddiLink *link;
  EngineHost *host;
  EndpointTable *endpoints;
  const char *instance_id;
  int connect_endpoint, update_endpoint; /* ids in the endpoint table */
  bool started;
  pthread_mutex_t mutex;  /* guards the streams */
  MizukiStream *streams;  /* MIZUKI_STREAMS_MAX of them */
  size_t count;
} MizukiStreams;

/* Add the endpoints and subscribe. */
int mizuki_streams_start(MizukiStreams *self, EddiLink *link, EngineHost *host,
                         EndpointTable *endpoints, const char *instance_id);
/* After the link is closed. */
void mizuki_streams_destroy(MizukiStreams *self);

#endif
