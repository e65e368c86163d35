/* endpoints.c - see endpoints.h. */
#include "endpoints.h"

#include <stdio.h>
#include <string.h>

#include "server_error.h"

int endpoints_init(EndpointTable *self) {
  memset(self, 0, sizeof *self);
  return pthread_mutex_init(&self->mutex, NULL) ? SERVER_ENOMEM : SERVER_OK;
}

void endpoints_destroy(EndpointTable *self) { pthread_mutex_destroy(&self->mutex); }

int endpoints_add(EndpointTable *self, const char *name, const char *subject, const char *queue) {
  pthread_mutex_lock(&self->mutex);
  int id = self->count < ENDPOINTS_MAX ? (int)self->count++ : SERVER_EINVAL;
  if (id >= 0) {
    Endpoint *endpoint = &self->items[id];
    memset(endpoint, 0, sizeof *endpoint);
    snprintf(endpoint->name, sizeof endpoint->name, "%s", name);
    snprintf(endpoint->subject, sizeof endpoint->subject, "%s", subject);
    endpoint->queue = queue;
  }
  pthread_mutex_unlock(&self->mutex);
  return id;
}

void endpoints_record(EndpointTable *self, int id, int64_t duration_ns, const char *error) {
  pthread_mutex_lock(&self->mutex);
  if (id >= 0 && (size_t)id < self->count) {
    Endpoint *endpoint = &self->items[id];
    endpoint->requests++;
    endpoint->processing_ns += duration_ns;
    if (error) {
      endpoint->errors++;
      snprintf(endpoint->last_error, sizeof endpoint->last_error, "%s", error);
    }
  }
  pthread_mutex_unlock(&self->mutex);
}

size_t endpoints_snapshot(EndpointTable *self, Endpoint *out) {
  pthread_mutex_lock(&self->mutex);
  size_t count = self->count;
  memcpy(out, self->items, count * sizeof *out);
  pthread_mutex_unlock(&self->mutex);
  return count;
}
