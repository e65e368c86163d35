/* grep_cache.h - the file texts a long-lived workspace keeps for Grep.
 *
 * In a workspace that keeps caches (an engine with long work: eddi-server)
 * Grep keeps the texts it read, keyed by path and stamped with the file's
 * device, inode, size, mtime and ctime (edit/grep.c decides what goes in). A later Grep
 * takes a file from the cache when it is known unchanged:
 * - by inotify: every folder the walk entered is watched before its files
 *   are read, and the events since the last Grep mark the files they name
 *   as changed. A file of a watched folder with no event is taken without
 *   a stat. An event on a folder itself (made, moved, removed), a lost
 *   event (the queue overflowed) or a watch that could not be added sends
 *   the cache back to stamps until the next walk has watched everything
 *   again;
 * - else by its stamp: the walk's lstat against the one it was read with.
 * inotify does not see a write through a shared mapping, nor one through
 * another hard link in an unwatched folder: such a change shows the next
 * time the folder changes or the cache starts over. A Grep hit only shows
 * text; an Edit always checks the file as it is then. */
#ifndef EDDI_GREP_CACHE_H
#define EDDI_GREP_CACHE_H

#include <sys/stat.h>

#include "edit/grep.h"

/* What the cache knows of a file: its stamp, and its text or that it is
 * not text (binary, not UTF-8, too large). */
typedef struct {
  char *rel;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime, ctime;
  char *buffer; /* owns; text points into it */
  const char *text;
  size_t len;
  bool readable;
  bool watched; /* its folder was watched before it was read */
  bool changed; /* an event named it since */
  bool moved;   /* its text went to the next cache */
} GrepCacheEntry;

/* A watched folder. */
typedef struct {
  int wd;
  char *rel; /* "" for the root */
} GrepWatch;

struct EddiGrepCache {
  GrepCacheEntry *slots; /* open addressing by the hash of rel; rel NULL: free */
  size_t cap;            /* a power of two, or 0 */
  size_t count;
  size_t bytes;
  int notify_fd;         /* -1: no inotify, stamps only */
  bool notify_lost;      /* events were lost: stamps until watched afresh */
  Array(GrepWatch) watches;
};

/* An empty cache with its inotify instance (when the kernel gives one). */
EddiGrepCache *eddi_grep_cache_new(void);
/* An empty cache without inotify, to be filled and then given self's
 * inotify and watches by eddi_grep_cache_hand_over. */
EddiGrepCache *eddi_grep_cache_blank(void);
/* Move self's inotify and watches to next (which has none). */
void eddi_grep_cache_hand_over(EddiGrepCache *self, EddiGrepCache *next);

GrepCacheEntry *eddi_grep_cache_find(EddiGrepCache *self, const char *rel);
/* Put entry in (its rel not there yet); takes what it owns. */
void eddi_grep_cache_put(EddiGrepCache *self, GrepCacheEntry *entry);
void eddi_grep_cache_entry_free(GrepCacheEntry *entry);

/* Apply the events since the last call: mark the files they name changed,
 * or start the watches over when a folder changed or events were lost. */
void eddi_grep_cache_drain(EddiGrepCache *self);
/* Watch the folder at abs (rel from the root); whether it is watched. */
bool eddi_grep_cache_watch(EddiGrepCache *self, const char *abs, const char *rel, size_t len);
/* Whether the folder rel (len bytes) is watched. */
bool eddi_grep_cache_watched(const EddiGrepCache *self, const char *rel, size_t len);
/* Whether entry may be taken without a stat. */
bool eddi_grep_cache_trusted(const EddiGrepCache *self, const GrepCacheEntry *entry);
/* Whether entry was read from the file st describes, unchanged. */
bool eddi_grep_cache_same(const GrepCacheEntry *entry, const struct stat *st);

#endif
