/* nats_service.h - eddi on NATS.
 *
 * Subjects (doc/protocol.org has the messages):
 *   eddi.cmd              request/reply, queue group "eddi": any instance
 *   eddi.<id>.cmd         request/reply to one instance (its sessions)
 *   eddi.session.events   instances tell each other of sessions started/ended
 *   $SRV.PING|INFO|STATS[.eddi[.<id>]]   NATS service discovery
 *   mizuki.eddi.connection_request, mizuki.stream.update   mizuki streams
 *
 * nats.c delivers on its own threads; handlers here only check the message
 * and queue it to the engine host, or answer at once what needs no engine
 * (discovery, refusals). The connection reconnects forever, with backoff;
 * nats.c resubscribes after a reconnect, so subscriptions survive a
 * nats-server restart, and sessions live in the engine, untouched by it.
 */
#ifndef EDDI_SERVER_NATS_SERVICE_H
#define EDDI_SERVER_NATS_SERVICE_H

#include <json-c/json.h>
#include <nats/nats.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine_host.h"
#include "options.h"

/* Endpoints counted for $SRV.STATS. */
typedef enum {
  ENDPOINT_CMD,
  ENDPOINT_INSTANCE_CMD,
  ENDPOINT_CONNECT,
  ENDPOINT_STREAM,
  ENDPOINT_COUNT
} EndpointId;

typedef struct {
  uint64_t requests;
  uint64_t errors;
  int64_t processing_ns;
  char last_error[256];
} EndpointStats;

/* Open mizuki streams, by name and by sender (the client's sender.id). */
typedef struct {
  json_object *by_name;   /* stream name -> sender */
  json_object *by_sender; /* sender -> stream name */
} MizukiStreams;

/* The closure of an endpoint's subscription. */
typedef struct {
  struct NatsService *service;
  EndpointId id;
} NatsEndpoint;

/* Subscriptions: 9 discovery, 2 command, events, 2 mizuki. */
#define NATS_SUBSCRIPTIONS_MAX 24
/* Subjects are built from fixed parts and an instance id. */
#define NATS_SUBJECT_MAX (OPTIONS_NAME_MAX + 32)
/* RFC 3339 time, UTC, seconds. */
#define NATS_TIME_MAX 32

typedef struct NatsService {
  EngineHost *host;
  const ServerOptions *options;
  const char *instance_id;
  natsOptions *nats_options;
  natsConnection *connection;
  natsSubscription *subscriptions[NATS_SUBSCRIPTIONS_MAX];
  size_t subscription_count;
  char instance_subject[NATS_SUBJECT_MAX]; /* eddi.<id>.cmd */
  char started[NATS_TIME_MAX];
  atomic_bool closing; /* a disconnect now is ours, not news */

  pthread_mutex_t mutex; /* guards stats and streams */
  EndpointStats stats[ENDPOINT_COUNT];
  NatsEndpoint endpoints[ENDPOINT_COUNT];
  MizukiStreams streams;
} NatsService;

/* Connect to url (retrying in the background if it is down) and subscribe.
 * The host must be started; its session events are published from now on. */
int nats_service_start(NatsService *self, EngineHost *host, const ServerOptions *options,
                       const char *url, const char *instance_id);
/* Stop taking messages: drain the subscriptions (handlers finish queuing). */
void nats_service_drain(NatsService *self);
/* After the host has answered all queued work: flush and close. */
void nats_service_close(NatsService *self);

/* ------------------------------------------- shared by the service's parts */

/* Subscribe subject (in queue group queue if not NULL); the subscription is
 * drained and destroyed with the service. */
int nats_service_subscribe(NatsService *self, const char *subject, const char *queue,
                           natsMsgHandler handler, void *closure);
/* Publish on the service's connection; logs failures. */
void nats_service_publish(NatsService *self, const char *subject, const char *data, size_t len);
void nats_service_record(NatsService *self, EndpointId endpoint, int64_t duration_ns,
                         const char *error);
void nats_service_now(char *out, size_t size);

/* service_discovery.c: subscribe to $SRV.PING, INFO and STATS and answer them. */
int service_discovery_subscribe(NatsService *self);

/* mizuki_stream.c */
int mizuki_streams_init(MizukiStreams *self);
void mizuki_streams_destroy(MizukiStreams *self);
int mizuki_subscribe(NatsService *self);

#endif
