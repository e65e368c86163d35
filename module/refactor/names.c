/* names.c - the name interner and the integer map; see names.h. */
#include "refactor/names.h"

/* Tables grow to twice their size when more than 3/4 full. */
#define NAMES_FIRST_SLOTS 256
#define NAMES_LOAD_NUM    3
#define NAMES_LOAD_DEN    4

/* FNV-1a: names are short, and the table needs no seed. */
static uint32_t names__hash(const char *bytes, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)bytes[i]) * 16777619u;
  return h;
}

void ref_names_init(RefNames *self) {
  memset(self, 0, sizeof *self);
  eddi_strbuf_puts(&self->bytes, "");
}

void ref_names_free(RefNames *self) {
  eddi_strbuf_free(&self->bytes);
  array_free(&self->offsets);
  array_free(&self->lengths);
  eddi_free(self->slots);
  memset(self, 0, sizeof *self);
}

const char *ref_names_str(const RefNames *self, uint32_t id) {
  return self->bytes.data + self->offsets.items[id];
}

size_t ref_names_len(const RefNames *self, uint32_t id) { return self->lengths.items[id]; }

/* The slot holding bytes, or the empty slot where it would go. */
static size_t names__slot(const RefNames *self, const char *bytes, size_t len) {
  size_t mask = self->slot_count - 1;
  for (size_t i = names__hash(bytes, len) & mask;; i = (i + 1) & mask) {
    uint32_t held = self->slots[i];
    if (!held) return i;
    uint32_t id = held - 1;
    if (self->lengths.items[id] == len &&
        memcmp(self->bytes.data + self->offsets.items[id], bytes, len) == 0)
      return i;
  }
}

static void names__grow(RefNames *self) {
  size_t count = self->slot_count ? self->slot_count * 2 : NAMES_FIRST_SLOTS;
  eddi_free(self->slots);
  self->slots = eddi_calloc(count, sizeof *self->slots);
  self->slot_count = count;
  for (uint32_t id = 0; id < self->offsets.len; id++) {
    size_t slot = names__slot(self, ref_names_str(self, id), self->lengths.items[id]);
    self->slots[slot] = id + 1;
  }
}

uint32_t ref_names_find(const RefNames *self, const char *bytes, size_t len) {
  if (!self->slot_count) return REF_NONE;
  uint32_t held = self->slots[names__slot(self, bytes, len)];
  return held ? held - 1 : REF_NONE;
}

static uint32_t names__intern(RefNames *self, const char *bytes, size_t len) {
  if ((self->offsets.len + 1) * NAMES_LOAD_DEN > self->slot_count * NAMES_LOAD_NUM)
    names__grow(self);
  size_t slot = names__slot(self, bytes, len);
  if (self->slots[slot]) return self->slots[slot] - 1;
  uint32_t id = (uint32_t)self->offsets.len;
  array_push(&self->offsets, (uint32_t)self->bytes.len);
  array_push(&self->lengths, (uint32_t)len);
  eddi_strbuf_append(&self->bytes, bytes, len);
  eddi_strbuf_putc(&self->bytes, '\0');
  self->slots[slot] = id + 1;
  return id;
}

uint32_t ref_names_intern_after(RefNames *self, uint32_t prefix, const char *bytes, size_t len) {
  /* Under the lock: the prefix's bytes live in the table another thread's
   * intern may move. */
  if (self->lock) pthread_mutex_lock(self->lock);
  StrBuf full = {0};
  eddi_strbuf_append(&full, ref_names_str(self, prefix), ref_names_len(self, prefix));
  eddi_strbuf_append(&full, bytes, len);
  uint32_t id = names__intern(self, full.data, full.len);
  if (self->lock) pthread_mutex_unlock(self->lock);
  eddi_strbuf_free(&full);
  return id;
}

uint32_t ref_names_intern(RefNames *self, const char *bytes, size_t len) {
  if (!self->lock) return names__intern(self, bytes, len);
  pthread_mutex_lock(self->lock);
  uint32_t id = names__intern(self, bytes, len);
  pthread_mutex_unlock(self->lock);
  return id;
}

/* ---------------------------------------------------------------- the map */

/* A 64-bit mix (splitmix64's finaliser): keys are two small ids side by
 * side, which a plain modulo would cluster. */
static size_t map__hash(uint64_t key) {
  key ^= key >> 30;
  key *= 0xbf58476d1ce4e5b9ull;
  key ^= key >> 27;
  key *= 0x94d049bb133111ebull;
  key ^= key >> 31;
  return (size_t)key;
}

void ref_map_free(RefMap *self) {
  eddi_free(self->keys);
  eddi_free(self->values);
  memset(self, 0, sizeof *self);
}

static size_t map__slot(const RefMap *self, uint64_t key) {
  size_t mask = self->slot_count - 1;
  for (size_t i = map__hash(key) & mask;; i = (i + 1) & mask)
    if (self->values[i] == REF_NONE || self->keys[i] == key) return i;
}

static void map__grow(RefMap *self) {
  RefMap bigger = {0};
  bigger.slot_count = self->slot_count ? self->slot_count * 2 : NAMES_FIRST_SLOTS;
  bigger.keys = eddi_malloc(bigger.slot_count * sizeof *bigger.keys);
  bigger.values = eddi_malloc(bigger.slot_count * sizeof *bigger.values);
  memset(bigger.values, 0xff, bigger.slot_count * sizeof *bigger.values);
  for (size_t i = 0; i < self->slot_count; i++)
    if (self->values[i] != REF_NONE) ref_map_put(&bigger, self->keys[i], self->values[i]);
  ref_map_free(self);
  *self = bigger;
}

void ref_map_put(RefMap *self, uint64_t key, uint32_t value) {
  if ((self->len + 1) * NAMES_LOAD_DEN > self->slot_count * NAMES_LOAD_NUM) map__grow(self);
  size_t slot = map__slot(self, key);
  if (self->values[slot] == REF_NONE) self->len++;
  self->keys[slot] = key;
  self->values[slot] = value;
}

uint32_t ref_map_get(const RefMap *self, uint64_t key) {
  if (!self->slot_count) return REF_NONE;
  return self->values[map__slot(self, key)];
}
