/* registry.c - see registry.h. A session registry holds tens of entries, at
 * most thousands: a flat array searched in order is the simple right thing. */
#include "session/registry.h"

void eddi_registry_init(EddiRegistry *self) {
  memset(self, 0, sizeof *self);
  pthread_mutex_init(&self->mutex, NULL);
}

static void registry__entry_free(RegistryEntry *entry) {
  eddi_free(entry->session);
  eddi_free(entry->sender);
  eddi_free(entry->instance);
}

void eddi_registry_destroy(EddiRegistry *self) {
  for (size_t i = 0; i < self->entries.len; i++) registry__entry_free(&self->entries.items[i]);
  array_free(&self->entries);
  pthread_mutex_destroy(&self->mutex);
}

/* Index of session's entry, or -1. Called with the lock held. */
static long registry__find(const EddiRegistry *self, const char *session) {
  for (size_t i = 0; i < self->entries.len; i++)
    if (strcmp(self->entries.items[i].session, session) == 0) return (long)i;
  return -1;
}

void eddi_registry_add(EddiRegistry *self, const char *session, const char *sender,
                       const char *instance) {
  RegistryEntry entry = {eddi_strdup(session), eddi_strdup(sender),
                         instance ? eddi_strdup(instance) : NULL};
  pthread_mutex_lock(&self->mutex);
  long at = registry__find(self, session);
  if (at >= 0 && instance && !self->entries.items[at].instance) {
    /* Another instance cannot claim a session held here. */
    registry__entry_free(&entry);
  } else if (at >= 0) {
    registry__entry_free(&self->entries.items[at]);
    self->entries.items[at] = entry;
  } else {
    array_push(&self->entries, entry);
  }
  pthread_mutex_unlock(&self->mutex);
}

void eddi_registry_remove(EddiRegistry *self, const char *session, const char *instance) {
  pthread_mutex_lock(&self->mutex);
  long at = registry__find(self, session);
  if (at >= 0) {
    RegistryEntry *entry = &self->entries.items[at];
    bool holder = instance ? entry->instance && strcmp(entry->instance, instance) == 0
                           : entry->instance == NULL;
    if (holder) {
      registry__entry_free(entry);
      array_remove(&self->entries, (size_t)at);
    }
  }
  pthread_mutex_unlock(&self->mutex);
}

bool eddi_registry_find_remote(EddiRegistry *self, const char *session, const char *sender,
                               char *instance, size_t instance_size, char *found,
                               size_t found_size) {
  bool hit = false;
  pthread_mutex_lock(&self->mutex);
  for (size_t i = 0; i < self->entries.len && !hit; i++) {
    const RegistryEntry *entry = &self->entries.items[i];
    if (!entry->instance) continue;
    hit = session ? strcmp(entry->session, session) == 0
                  : sender && strcmp(entry->sender, sender) == 0;
    if (!hit) continue;
    if (instance) snprintf(instance, instance_size, "%s", entry->instance);
    if (found) snprintf(found, found_size, "%s", entry->session);
  }
  pthread_mutex_unlock(&self->mutex);
  return hit;
}

void eddi_registry_each_local(EddiRegistry *self,
                              void (*visit)(void *closure, const char *session,
                                            const char *sender),
                              void *closure) {
  pthread_mutex_lock(&self->mutex);
  for (size_t i = 0; i < self->entries.len; i++)
    if (!self->entries.items[i].instance)
      visit(closure, self->entries.items[i].session, self->entries.items[i].sender);
  pthread_mutex_unlock(&self->mutex);
}

size_t eddi_registry_local_count(EddiRegistry *self) {
  size_t count = 0;
  pthread_mutex_lock(&self->mutex);
  for (size_t i = 0; i < self->entries.len; i++) count += !self->entries.items[i].instance;
  pthread_mutex_unlock(&self->mutex);
  return count;
}
