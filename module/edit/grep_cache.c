/* grep_cache.c - Grep's file texts in a long-lived workspace; see grep_cache.h. */
#include "edit/grep_cache.h"

#include <sys/inotify.h>
#include <unistd.h>
#include <xxhash.h>

/* What a folder's watch reports: a file written, its attributes changed,
 * a name made, removed or moved; the folder itself removed or moved. */
#define GREP_CACHE_EVENTS                                                                      \
  (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
   IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR)
/* Bytes read from the inotify instance at a time: many events each. */
#define GREP_CACHE_EVENT_BUFFER 65536

static size_t grep_cache__hash(const char *rel) { return (size_t)XXH3_64bits(rel, strlen(rel)); }

EddiGrepCache *eddi_grep_cache_new(void) {
  EddiGrepCache *self = eddi_calloc(1, sizeof *self);
  self->notify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  return self;
}

EddiGrepCache *eddi_grep_cache_blank(void) {
  EddiGrepCache *self = eddi_calloc(1, sizeof *self);
  self->notify_fd = -1;
  return self;
}

void eddi_grep_cache_hand_over(EddiGrepCache *self, EddiGrepCache *next) {
  if (next->notify_fd >= 0) close(next->notify_fd);
  next->notify_fd = self->notify_fd;
  next->notify_lost = self->notify_lost;
  next->watches = self->watches;
  self->notify_fd = -1;
  memset(&self->watches, 0, sizeof self->watches);
}

GrepCacheEntry *eddi_grep_cache_find(EddiGrepCache *self, const char *rel) {
  if (!self || !self->cap) return NULL;
  for (size_t i = grep_cache__hash(rel) & (self->cap - 1);; i = (i + 1) & (self->cap - 1)) {
    GrepCacheEntry *slot = &self->slots[i];
    if (!slot->rel) return NULL;
    if (strcmp(slot->rel, rel) == 0) return slot;
  }
}

void eddi_grep_cache_entry_free(GrepCacheEntry *entry) {
  eddi_free(entry->rel);
  eddi_free(entry->buffer);
}

void eddi_grep_cache_put(EddiGrepCache *self, GrepCacheEntry *entry) {
  if ((self->count + 1) * 2 > self->cap) {
    size_t old_cap = self->cap;
    GrepCacheEntry *old = self->slots;
    self->cap = old_cap ? old_cap * 2 : 64;
    self->slots = eddi_calloc(self->cap, sizeof *self->slots);
    self->count = 0;
    self->bytes = 0;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].rel) eddi_grep_cache_put(self, &old[i]);
    eddi_free(old);
  }
  size_t i = grep_cache__hash(entry->rel) & (self->cap - 1);
  while (self->slots[i].rel) i = (i + 1) & (self->cap - 1);
  self->slots[i] = *entry;
  self->count++;
  self->bytes += entry->len;
}

static void grep_cache__watches_free(EddiGrepCache *self) {
  for (size_t i = 0; i < self->watches.len; i++) eddi_free(self->watches.items[i].rel);
  array_free(&self->watches);
}

void eddi_grep_cache_free(EddiGrepCache *self) {
  if (!self) return;
  for (size_t i = 0; i < self->cap; i++)
    if (self->slots[i].rel) eddi_grep_cache_entry_free(&self->slots[i]);
  eddi_free(self->slots);
  if (self->notify_fd >= 0) close(self->notify_fd);
  grep_cache__watches_free(self);
  eddi_free(self);
}

bool eddi_grep_cache_same(const GrepCacheEntry *entry, const struct stat *st) {
  return entry->dev == st->st_dev && entry->ino == st->st_ino && entry->size == st->st_size &&
         entry->mtime.tv_sec == st->st_mtim.tv_sec &&
         entry->mtime.tv_nsec == st->st_mtim.tv_nsec &&
         entry->ctime.tv_sec == st->st_ctim.tv_sec && entry->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* ---------------------------------------------------------------- inotify */

/* Start the watches over: a new instance (the old one's watches go with
 * it), and every entry is checked by its stamp until watched again. */
static void grep_cache__notify_restart(EddiGrepCache *self) {
  if (self->notify_fd >= 0) close(self->notify_fd);
  grep_cache__watches_free(self);
  self->notify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  self->notify_lost = false;
  for (size_t i = 0; i < self->cap; i++) self->slots[i].watched = false;
}

static const GrepWatch *grep_cache__watch_of(const EddiGrepCache *self, int wd) {
  for (size_t i = 0; i < self->watches.len; i++)
    if (self->watches.items[i].wd == wd) return &self->watches.items[i];
  return NULL;
}

void eddi_grep_cache_drain(EddiGrepCache *self) {
  if (self->notify_fd < 0) return;
  char buffer[GREP_CACHE_EVENT_BUFFER] __attribute__((aligned(__alignof__(struct inotify_event))));
  bool restart = false;
  StrBuf path = {0};
  for (;;) {
    ssize_t n = read(self->notify_fd, buffer, sizeof buffer);
    if (n <= 0) break;
    for (char *at = buffer; at < buffer + n;) {
      const struct inotify_event *event = (const struct inotify_event *)(void *)at;
      at += sizeof *event + event->len;
      const GrepWatch *watch = grep_cache__watch_of(self, event->wd);
      if ((event->mask & (IN_Q_OVERFLOW | IN_ISDIR | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) ||
          !watch || !event->len) {
        restart = true;
        continue;
      }
      eddi_strbuf_clear(&path);
      eddi_strbuf_printf(&path, "%s%s%s", watch->rel, watch->rel[0] ? "/" : "", event->name);
      GrepCacheEntry *entry = eddi_grep_cache_find(self, path.data);
      if (entry) entry->changed = true;
    }
  }
  eddi_strbuf_free(&path);
  if (restart || self->notify_lost) grep_cache__notify_restart(self);
}

bool eddi_grep_cache_watch(EddiGrepCache *self, const char *abs, const char *rel, size_t len) {
  if (self->notify_fd < 0 || self->notify_lost) return false;
  if (eddi_grep_cache_watched(self, rel, len)) return true;
  int wd = inotify_add_watch(self->notify_fd, abs, GREP_CACHE_EVENTS);
  if (wd < 0) {
    self->notify_lost = true; /* a folder unwatched: stamps from the next Grep on */
    return false;
  }
  if (!grep_cache__watch_of(self, wd))
    array_push(&self->watches, ((GrepWatch){wd, eddi_strndup(rel, len)}));
  return true;
}

bool eddi_grep_cache_watched(const EddiGrepCache *self, const char *rel, size_t len) {
  if (self->notify_fd < 0 || self->notify_lost) return false;
  /* Latest first: the walk asks about the folders it is in. */
  for (size_t i = self->watches.len; i-- > 0;) {
    const GrepWatch *w = &self->watches.items[i];
    if (strlen(w->rel) == len && memcmp(w->rel, rel, len) == 0) return true;
  }
  return false;
}

bool eddi_grep_cache_trusted(const EddiGrepCache *self, const GrepCacheEntry *entry) {
  return self->notify_fd >= 0 && !self->notify_lost && entry->watched && !entry->changed;
}
