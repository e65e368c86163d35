/* session_registry.h - which instance holds which session.
 *
 * A session lives on the instance that started it (its engine holds the
 * state). Instances tell each other on `eddi.session.events` when a session
 * starts or ends, so that one that gets a command for a session it does not
 * hold can say where it lives instead of starting a new one. Local entries
 * map a session to its sender; remote entries to the instance holding it.
 * Thread-safe: remote entries are written from nats.c callbacks, read on the
 * owner thread.
 */
#ifndef EDDI_SERVER_SESSION_REGISTRY_H
#define EDDI_SERVER_SESSION_REGISTRY_H

#include <json-c/json.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
  pthread_mutex_t mutex;
  json_object *local;  /* session -> sender */
  json_object *remote; /* session -> {"instance", "sender"} */
} SessionRegistry;

int session_registry_init(SessionRegistry *self);
void session_registry_destroy(SessionRegistry *self);

int session_registry_add_local(SessionRegistry *self, const char *session, const char *sender);
void session_registry_remove_local(SessionRegistry *self, const char *session);
/* Copies the holder's sender into sender (may be cut to sender_size);
 * false when the session is not held here. */
bool session_registry_local_sender(SessionRegistry *self, const char *session, char *sender,
                                   size_t sender_size);

int session_registry_add_remote(SessionRegistry *self, const char *session, const char *sender,
                                const char *instance);
void session_registry_remove_remote(SessionRegistry *self, const char *session,
                                    const char *instance);
/* The instance holding session, or holding a session of sender when session
 * is NULL; the session's name goes into found_session if not NULL. */
bool session_registry_remote_instance(SessionRegistry *self, const char *session,
                                      const char *sender, char *instance, size_t instance_size,
                                      char *found_session, size_t found_size);

/* The sessions held here as a new JSON array of {"session", "sender"}, for
 * an instance that joins later and asks (eddi.session.sync). */
json_object *session_registry_local_list(SessionRegistry *self);

/* Number of sessions held here (for $SRV.STATS). */
size_t session_registry_local_count(SessionRegistry *self);

#endif
