/* session_registry.c - see session_registry.h. json-c objects serve as the
 * string maps: they hash their keys, and the registry is never hot. */
#include "session_registry.h"

#include <stdio.h>
#include <string.h>

#include "server_error.h"

int session_registry_init(SessionRegistry *self) {
  memset(self, 0, sizeof *self);
  self->local = json_object_new_object();
  self->remote = json_object_new_object();
  if (!self->local || !self->remote || pthread_mutex_init(&self->mutex, NULL)) {
    json_object_put(self->local);
    json_object_put(self->remote);
    return SERVER_ENOMEM;
  }
  return SERVER_OK;
}

void session_registry_destroy(SessionRegistry *self) {
  json_object_put(self->local);
  json_object_put(self->remote);
  pthread_mutex_destroy(&self->mutex);
}

int session_registry_add_local(SessionRegistry *self, const char *session, const char *sender) {
  json_object *value = json_object_new_string(sender);
  if (!value) return SERVER_ENOMEM;
  pthread_mutex_lock(&self->mutex);
  int failed = json_object_object_add(self->local, session, value);
  /* A session started here is no longer anywhere else. */
  json_object_object_del(self->remote, session);
  pthread_mutex_unlock(&self->mutex);
  return failed ? SERVER_ENOMEM : SERVER_OK;
}

void session_registry_remove_local(SessionRegistry *self, const char *session) {
  pthread_mutex_lock(&self->mutex);
  json_object_object_del(self->local, session);
  pthread_mutex_unlock(&self->mutex);
}

bool session_registry_local_sender(SessionRegistry *self, const char *session, char *sender,
                                   size_t sender_size) {
  pthread_mutex_lock(&self->mutex);
  json_object *value = NULL;
  bool found = json_object_object_get_ex(self->local, session, &value);
  if (found) snprintf(sender, sender_size, "%s", json_object_get_string(value));
  pthread_mutex_unlock(&self->mutex);
  return found;
}

int session_registry_add_remote(SessionRegistry *self, const char *session, const char *sender,
                                const char *instance) {
  json_object *entry = json_object_new_object();
  if (!entry) return SERVER_ENOMEM;
  json_object_object_add(entry, "instance", json_object_new_string(instance));
  json_object_object_add(entry, "sender", json_object_new_string(sender));
  pthread_mutex_lock(&self->mutex);
  int failed = json_object_object_add(self->remote, session, entry);
  pthread_mutex_unlock(&self->mutex);
  return failed ? SERVER_ENOMEM : SERVER_OK;
}

void session_registry_remove_remote(SessionRegistry *self, const char *session,
                                    const char *instance) {
  pthread_mutex_lock(&self->mutex);
  json_object *entry = NULL, *holder = NULL;
  /* Only the holder's "ended" counts: an old event must not erase a newer
   * start elsewhere. */
  if (json_object_object_get_ex(self->remote, session, &entry) &&
      json_object_object_get_ex(entry, "instance", &holder) &&
      strcmp(json_object_get_string(holder), instance) == 0)
    json_object_object_del(self->remote, session);
  pthread_mutex_unlock(&self->mutex);
}

static const char *session_registry__field(json_object *entry, const char *key) {
  json_object *value = NULL;
  return json_object_object_get_ex(entry, key, &value) ? json_object_get_string(value) : "";
}

bool session_registry_remote_instance(SessionRegistry *self, const char *session,
                                      const char *sender, char *instance, size_t instance_size,
                                      char *found_session, size_t found_size) {
  bool found = false;
  pthread_mutex_lock(&self->mutex);
  if (session) {
    json_object *entry = NULL;
    if (json_object_object_get_ex(self->remote, session, &entry)) {
      snprintf(instance, instance_size, "%s", session_registry__field(entry, "instance"));
      if (found_session) snprintf(found_session, found_size, "%s", session);
      found = true;
    }
  } else if (sender) {
    json_object_object_foreach(self->remote, key, entry) {
      if (strcmp(session_registry__field(entry, "sender"), sender) == 0) {
        snprintf(instance, instance_size, "%s", session_registry__field(entry, "instance"));
        if (found_session) snprintf(found_session, found_size, "%s", key);
        found = true;
        break;
      }
    }
  }
  pthread_mutex_unlock(&self->mutex);
  return found;
}

json_object *session_registry_local_list(SessionRegistry *self) {
  json_object *list = json_object_new_array();
  pthread_mutex_lock(&self->mutex);
  json_object_object_foreach(self->local, session, sender) {
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "session", json_object_new_string(session));
    json_object_object_add(entry, "sender", json_object_get(sender));
    json_object_array_add(list, entry);
  }
  pthread_mutex_unlock(&self->mutex);
  return list;
}

size_t session_registry_local_count(SessionRegistry *self) {
  pthread_mutex_lock(&self->mutex);
  size_t count = (size_t)json_object_object_length(self->local);
  pthread_mutex_unlock(&self->mutex);
  return count;
}
