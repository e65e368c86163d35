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
#include "eddi.h"

typedef struct {
  char *session;
  char *sender;
  char *instance; /* NULL for a session held here */
} RegistryEntry;

/* What is known of another instance's liveness: when it last answered a
 * PING (0: never), when it was first heard of, and whether it was found
 * gone (its announcements are then ignored until it answers again). */
typedef struct {
  char *name;
  int64_t seen_ms;
  int64_t first_ms;
  bool dead;
} RegistryInstance;

/* Other instances remembered at most (dead ones are forgotten first). */
#define EDDI_REGISTRY_INSTANCES_MAX 1024

typedef struct {
  pthread_mutex_t mutex;
  Array(RegistryEntry) entries;
  Array(RegistryInstance) instances;
  bool unverified; /* an instance was heard of that has not answered yet */
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

/* ------------------------------------------------------------ liveness
 *
 * A transport pings the instances it has heard of ($SRV.PING.eddi.<id>)
 * and reports the answers here: an instance that answered within the
 * timeout is live; one that is known to be gone (no responders), or has
 * not answered for longer than the timeout, is dead and its sessions are
 * dropped, so a sender is never held off longer than that. A dead
 * instance's announcements are ignored until it answers again. Times are
 * CLOCK_MONOTONIC milliseconds. */

/* The names of the instances heard of, copied into names (at most max). */
size_t eddi_registry_instances(EddiRegistry *self, char (*names)[EDDI_INSTANCE_NAME_MAX + 1],
                               size_t max);
/* instance answered a PING (answered), or is certainly gone (!answered). */
void eddi_registry_answered(EddiRegistry *self, const char *instance, bool answered,
                            int64_t now_ms);
/* Drop the sessions of instances silent for longer than timeout_ms; how
 * many sessions went. */
size_t eddi_registry_expire(EddiRegistry *self, int64_t now_ms, int64_t timeout_ms);
/* Whether an instance was heard of since the last call that has not
 * answered yet (the pinger then asks at once). */
bool eddi_registry_take_unverified(EddiRegistry *self);
/* Whether instance was found gone. */
bool eddi_registry_dead(EddiRegistry *self, const char *instance);
int64_t eddi_registry_now_ms(void);

#endif
