/* names.h - the two small tables name resolution is built on.
 *
 * RefNames interns names: every identifier becomes a dense uint32_t id, so
 * that scopes, members and occurrences compare names as numbers and the
 * analyses of different files agree on them. RefMap maps a 64-bit key to a
 * uint32_t value (open addressing, linear probing); the resolver keys it by
 * two 32-bit ids, (scope, name) or (class, name). Neither knows anything of
 * a language or of the engine: both belong to a workspace index, which may
 * live on a worker thread. */
#ifndef EDDI_REFACTOR_NAMES_H
#define EDDI_REFACTOR_NAMES_H

#include <pthread.h>

#include "core/common.h"

/* "No such index" for every uint32_t index of module/refactor/. */
#define REF_NONE UINT32_MAX

typedef Array(uint32_t) RefIds;

typedef struct {
  StrBuf bytes;            /* the names, each followed by a NUL */
  Array(uint32_t) offsets; /* id -> offset into bytes */
  Array(uint32_t) lengths; /* id -> length */
  uint32_t *slots;         /* open addressing: id + 1, 0 for empty */
  size_t slot_count;       /* a power of two */
  pthread_mutex_t *lock;   /* while set, interning takes it (analyses on several threads) */
} RefNames;

void ref_names_init(RefNames *self);
void ref_names_free(RefNames *self);
/* The id of bytes[0, len), added when new. */
uint32_t ref_names_intern(RefNames *self, const char *bytes, size_t len);
/* The id of name prefix's text followed by bytes, interned (safe while
 * other threads intern: the prefix is read under the lock). */
uint32_t ref_names_intern_after(RefNames *self, uint32_t prefix, const char *bytes, size_t len);
/* The id of a name already interned, or REF_NONE. */
uint32_t ref_names_find(const RefNames *self, const char *bytes, size_t len);
/* The name of id, NUL-terminated; borrowed until the next intern. */
const char *ref_names_str(const RefNames *self, uint32_t id);
size_t ref_names_len(const RefNames *self, uint32_t id);

typedef struct {
  uint64_t *keys;
  uint32_t *values;  /* REF_NONE marks an empty slot */
  size_t slot_count; /* a power of two, or 0 */
  size_t len;
} RefMap;

static inline uint64_t ref_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

void ref_map_free(RefMap *self);
/* Set key to value (value != REF_NONE). */
void ref_map_put(RefMap *self, uint64_t key, uint32_t value);
/* The value of key, or REF_NONE. */
uint32_t ref_map_get(const RefMap *self, uint64_t key);

#endif
