/* registry.c - see registry.h. A session registry holds tens of entries, at
 * most thousands: a flat array searched in order is the simple right thing. */
#include "session/registry.h"

#include <time.h>

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
  for (size_t i = 0; i < self->instances.len; i++) eddi_free(self->instances.items[i].name);
  array_free(&self->instances);
  pthread_mutex_destroy(&self->mutex);
}

/* Index of session's entry, or -1. Called with the lock held. */
static long registry__find(const EddiRegistry *self, const char *session) {
  for (size_t i = 0; i < self->entries.len; i++)
    if (strcmp(self->entries.items[i].session, session) == 0) return (long)i;
  return -1;
}

/* The liveness record of instance, made when missing. Lock held. */
static RegistryInstance *registry__instance(EddiRegistry *self, const char *instance,
                                            int64_t now_ms) {
  for (size_t i = 0; i < self->instances.len; i++)
    if (strcmp(self->instances.items[i].name, instance) == 0) return &self->instances.items[i];
  if (self->instances.len >= EDDI_REGISTRY_INSTANCES_MAX) {
    size_t victim = 0; /* the dead first, else the oldest */
    for (size_t i = 0; i < self->instances.len; i++)
      if (self->instances.items[i].dead) victim = i;
    eddi_free(self->instances.items[victim].name);
    array_remove(&self->instances, victim);
  }
  RegistryInstance fresh = {eddi_strdup(instance), 0, now_ms, false};
  array_push(&self->instances, fresh);
  self->unverified = true;
  return array_back(&self->instances);
}

void eddi_registry_add(EddiRegistry *self, const char *session, const char *sender,
                       const char *instance) {
  RegistryEntry entry = {eddi_strdup(session), eddi_strdup(sender),
                         instance ? eddi_strdup(instance) : NULL};
  pthread_mutex_lock(&self->mutex);
  long at = registry__find(self, session);
  if (instance && registry__instance(self, instance, eddi_registry_now_ms())->dead) {
    /* A dead instance announces nothing (a forged or late message). */
    registry__entry_free(&entry);
  } else if (at >= 0 && instance && !self->entries.items[at].instance) {
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

/* ------------------------------------------------------------ liveness */

int64_t eddi_registry_now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

size_t eddi_registry_instances(EddiRegistry *self, char (*names)[EDDI_INSTANCE_NAME_MAX + 1],
                               size_t max) {
  pthread_mutex_lock(&self->mutex);
  size_t n = EDDI_MIN(max, self->instances.len);
  for (size_t i = 0; i < n; i++)
    snprintf(names[i], EDDI_INSTANCE_NAME_MAX + 1, "%s", self->instances.items[i].name);
  pthread_mutex_unlock(&self->mutex);
  return n;
}

/* Drop the remote sessions of instance. Lock held. */
static size_t registry__drop_of(EddiRegistry *self, const char *instance) {
  size_t dropped = 0;
  for (size_t i = self->entries.len; i-- > 0;) {
    RegistryEntry *entry = &self->entries.items[i];
    if (!entry->instance || strcmp(entry->instance, instance) != 0) continue;
    registry__entry_free(entry);
    array_remove(&self->entries, i);
    dropped++;
  }
  return dropped;
}

void eddi_registry_answered(EddiRegistry *self, const char *instance, bool answered,
                            int64_t now_ms) {
  pthread_mutex_lock(&self->mutex);
  RegistryInstance *record = registry__instance(self, instance, now_ms);
  if (answered) {
    record->seen_ms = now_ms;
    record->dead = false;
  } else {
    record->dead = true;
    registry__drop_of(self, instance);
  }
  pthread_mutex_unlock(&self->mutex);
}

size_t eddi_registry_expire(EddiRegistry *self, int64_t now_ms, int64_t timeout_ms) {
  size_t dropped = 0;
  pthread_mutex_lock(&self->mutex);
  for (size_t i = 0; i < self->instances.len; i++) {
    RegistryInstance *record = &self->instances.items[i];
    int64_t heard = record->seen_ms ? record->seen_ms : record->first_ms;
    if (record->dead || now_ms - heard <= timeout_ms) continue;
    record->dead = true;
    dropped += registry__drop_of(self, record->name);
  }
  pthread_mutex_unlock(&self->mutex);
  return dropped;
}

bool eddi_registry_take_unverified(EddiRegistry *self) {
  pthread_mutex_lock(&self->mutex);
  bool unverified = self->unverified;
  self->unverified = false;
  pthread_mutex_unlock(&self->mutex);
  return unverified;
}

bool eddi_registry_dead(EddiRegistry *self, const char *instance) {
  pthread_mutex_lock(&self->mutex);
  bool dead = false;
  for (size_t i = 0; i < self->instances.len; i++)
    if (strcmp(self->instances.items[i].name, instance) == 0) dead = self->instances.items[i].dead;
  pthread_mutex_unlock(&self->mutex);
  return dead;
}
