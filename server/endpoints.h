/* endpoints.h - the endpoints eddi-server serves on NATS, and their counts.
 *
 * Each NATS part of the server (the command service, mizuki streams) adds
 * its endpoints here and records every request it answers; service
 * discovery lists them ($SRV.INFO) with their counts ($SRV.STATS). The
 * table is what lets those parts know nothing of each other. Thread-safe:
 * requests are recorded from nats.c's threads and the owner thread.
 */
#ifndef EDDI_SERVER_ENDPOINTS_H
#define EDDI_SERVER_ENDPOINTS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "eddi_link.h"

/* cmd, instance_cmd, connection_request, stream_update; room for more. */
#define ENDPOINTS_MAX 8
/* The last error an endpoint answered is kept, cut to this. */
#define ENDPOINT_ERROR_MAX 256

typedef struct {
  char name[EDDI_LINK_SUBJECT_MAX];
  char subject[EDDI_LINK_SUBJECT_MAX];
  const char *queue; /* a string constant, or NULL when every instance reads it */
  uint64_t requests;
  uint64_t errors;
  int64_t processing_ns;
  char last_error[ENDPOINT_ERROR_MAX];
} Endpoint;

typedef struct {
  pthread_mutex_t mutex;
  Endpoint items[ENDPOINTS_MAX];
  size_t count;
} EndpointTable;

int endpoints_init(EndpointTable *self);
void endpoints_destroy(EndpointTable *self);

/* Add an endpoint; returns its id (>= 0) for endpoints_record, or
 * SERVER_EINVAL when the table is full. */
int endpoints_add(EndpointTable *self, const char *name, const char *subject, const char *queue);

/* Count one request of endpoint id that took duration_ns; error is the
 * refusal or Fail it answered, NULL when it went well. */
void endpoints_record(EndpointTable *self, int id, int64_t duration_ns, const char *error);

/* A copy of the table as it is now, into out (ENDPOINTS_MAX entries);
 * returns how many. */
size_t endpoints_snapshot(EndpointTable *self, Endpoint *out);

#endif
