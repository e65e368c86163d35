/* registry.h - which instance holds which session.
 *
 * A session lives on the instance that started it (its engine holds the
 * state). Instances tell each other when a session starts or ends, so that
 * one that gets a command for a session it does not hold can say where it
 * lives instead of starting a second one. Local entries map a session held
 * here to its sender; remote entries map another instance's session to that
 * instance and its sender.
 *
 * Thread-safe, unlike the rest of the engine: transports note remote
 * sessions from their own threads (nats.c callbacks) and answer another
 * instance's sync from there, while routing reads it on the owner thread.
 */
#ifndef EDDI_REGISTRY_H
#define EDDI_REGISTRY_H

#include <pthread.h>

#include "core/common.h"

typedef struct {
  char *session;
  char *sender;
  char *instance; /* NULL for a session held here */
} RegistryEntry;

typedef struct {
  pthread_mutex_t mutex;
  Array(RegistryEntry) entries;
} EddiRegistry;

void eddi_registry_init(EddiRegistry *self);
void eddi_registry_destroy(EddiRegistry *self);

/* Record a session held here (instance NULL) or elsewhere; an entry of the
 * same session is replaced, except that a remote one never replaces a
 * session held here. */
void eddi_registry_add(EddiRegistry *self, const char *session, const char *sender,
                       const char *instance);
/* Forget session; with instance, only if that instance holds it (an old
 * event of another instance must not drop a newer entry). */
void eddi_registry_remove(EddiRegistry *self, const char *session, const char *instance);

/* The instance holding session elsewhere, or with session NULL the one
 * holding a session of sender; copies its name (and the session's) out. */
bool eddi_registry_find_remote(EddiRegistry *self, const char *session, const char *sender,
                               char *instance, size_t instance_size, char *found,
                               size_t found_size);

/* Visit the sessions held here under the lock (visit must not call back). */
void eddi_registry_each_local(EddiRegistry *self,
                              void (*visit)(void *closure, const char *session,
                                            const char *sender),
                              void *closure);
size_t eddi_registry_local_count(EddiRegistry *self);

#endif
