/* grep.c - the workspace Grep; see grep.h for its three steps.
 *
 * Why it is built this way (the measure is ripgrep on the same tree):
 * - The walk (core/walk.c) runs on the job's worker and hands each file it
 *   keeps to the searchers as soon as it has judged it. They open it with
 *   openat(O_NOFOLLOW) from a duplicate of the descriptor of the folder the
 *   walk opened: the path is checked once per folder (by the walk), not
 *   resolved from the root per file. At most GREP_OPEN_FOLDERS_MAX such
 *   descriptors wait for their files, so a slow disk cannot run the process
 *   out of them.
 * - One searcher per core reads a file whole into a buffer it reuses,
 *   checks it is text as Open does (no NUL, valid UTF-8; CRLF and BOM files
 *   decoded as Open decodes them) and searches the whole buffer once with
 *   PCRE2's JIT, finding a hit's line bounds only when there is a hit; how
 *   that gives the hits of matching each line alone is grep_pattern.h's.
 * - Each file has its own slot, and the reply is built in walk order on the
 *   owner thread, so the reply does not depend on the number of threads.
 *   A file's hits past offset + page cannot be shown and are only counted;
 *   once the files before one hold a full page, its text is not kept.
 * - The walk has no entry limit: a folder of any size is searched whole and
 *   its matches come a page at a time (the offset). Memory stays bounded
 *   whatever the number of files: once every file before one is searched,
 *   it is retired: its hits are counted and, unless they fall on the page
 *   asked for, it is freed (or its text goes into the cache), and the walk
 *   waits while GREP_QUEUE_MAX files are queued and not yet retired.
 * - A running engine with long work (a waker: eddi-server) keeps the texts
 *   it read in a cache (grep_cache.h: known unchanged by inotify, else by
 *   the file's stamp), so the next Grep reads only what changed. A file
 *   changed less than GREP_CACHE_SETTLE_NS before it was read is not
 *   cached (a write in the same timestamp tick would look unchanged), and
 *   the cache holds at most GREP_CACHE_BYTES_MAX bytes of text. */
#define _GNU_SOURCE /* memrchr */
#include "edit/grep.h"
#include "edit/grep_cache.h"
#include "edit/grep_pattern.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/disk_backend.h"
#include "core/walk.h"
#include "lang/reply.h"
#include "edit/edit_state.h"
#include "edit/search.h"

/* Searcher threads at most, whatever the core count says. */
#define GREP_THREADS_MAX 16
/* Folders the walk may hold open for files no searcher has read yet. */
#define GREP_OPEN_FOLDERS_MAX 256
/* Files the walk may queue ahead of the last one retired (see above): it
 * keeps well ahead of the searchers, and their paths are a few hundred KiB. */
#define GREP_QUEUE_MAX 4096
/* A waiting searcher is woken when this many files wait (or the walk
 * ended): one wake-up per file costs more than reading a small file. */
#define GREP_WAKE_BATCH 8
/* The cache's text bytes at most: a large workspace's sources. */
#define GREP_CACHE_BYTES_MAX ((size_t)256 << 20)
/* A file modified this recently before it was read is not cached: ext4's
 * timestamps move in ticks of a few milliseconds, and a same-size write
 * inside one tick leaves the stamp as it was. */
#define GREP_CACHE_SETTLE_NS 1000000000LL

/* ---------------------------------------------------------------- types */

typedef struct {
  size_t line;       /* 1-based */
  size_t start, end; /* the line's bytes in the text, without its newline */
} GrepHit;

/* A folder whose files wait to be read: a duplicate of the walk's
 * descriptor, closed when the last of them is read. */
typedef struct {
  int fd;
  size_t refs; /* its files not read yet, plus one while the walk is in it */
} GrepFolder;

/* A file the walk kept, in walk order. */
typedef struct {
  char *rel;
  GrepFolder *folder;   /* to open it from; NULL once read or when none */
  const char *name;     /* in rel */
  struct stat st;       /* fstat when read, else the walk's lstat */
  char *buffer;         /* owns; text points into it */
  const char *text;     /* borrowed from a document or the cache, or in buffer */
  size_t len;
  bool readable;        /* text is the file's; false: not searched */
  bool cached;          /* text comes from the cache */
  bool cacheable;       /* read from disk, stamp settled: may go into the cache */
  bool watched;         /* its folder was watched (grep_cache.h) when it was queued */
  bool done;
  size_t hits;          /* lines that match */
  size_t first;         /* how many hits the files before it hold, once retired */
  Array(GrepHit) kept;  /* the first ones, as many as could be shown */
} GrepFile;

typedef struct {
  char *rel;
  char *text;
  size_t len;
  bool readable; /* false: it could not be synced, and is not searched */
} GrepDoc;

/* A searcher's read buffer, reused from file to file: most files are read,
 * searched and dropped, and a fresh allocation each would grow the heap. */
typedef struct {
  char *data;
  size_t cap;
} GrepScratch;

/* What one thread searches with. */
typedef struct {
  EddiPattern pattern;
  bool ok; /* the pattern compiled */
  EddiError err;
  GrepScratch scratch;
} GrepSearcher;

struct EddiGrep {
  char *root;
  char *regex;
  size_t regex_len;
  unsigned flags;
  EddiGrepMode mode;
  StrBuf prefix; /* every match starts with it (may be empty) */
  size_t prefix_rare; /* its byte memchr looks for */
  char *glob;
  size_t offset, page, max_bytes;
  unsigned timeout_ms; /* search_timeout_ms, for each searcher */
  Array(GrepDoc) docs;
  EddiGrepCache *cache; /* the workspace's, taken for the run; NULL: none */
  bool use_cache;
  size_t helpers;          /* searcher threads started besides the walk's */
  GrepSearcher *walker;    /* the walk's own, while it runs */

  pthread_mutex_t mutex; /* guards the fields below while searchers run */
  pthread_cond_t more;   /* a file was added or the walk ended */
  pthread_cond_t room;   /* a folder was closed */
  /* The files queued and not yet retired, in walk order; a file's index
   * counts every file queued before it, retired or not: files.items[0] is
   * file number base. */
  Array(GrepFile *) files;
  size_t base;
  Array(GrepFile *) shown; /* the retired files with hits on the page, in order */
  EddiGrepCache *fresh;    /* the cache after this run, filled as files retire */
  size_t next;         /* the next file a searcher takes */
  size_t open_folders; /* GrepFolders not yet closed */
  GrepFolder *folder;  /* the walk's current one */
  size_t folder_rel_len; /* its path's length; its path is a prefix of the files' */
  char *folder_rel;
  size_t waiting;      /* searchers waiting for files */
  bool walk_full;      /* the walk waits for a folder to close or a file to retire */
  bool walk_done;
  size_t done_prefix;  /* files before this one are all done, and retired */
  size_t done_hits;    /* their hits */
  size_t cutoff;       /* files past this one are not shown; SIZE_MAX: not known yet */
  int rc;
  EddiError err;
};

/* ---------------------------------------------------------------- the cache */

/* Put a retired file into the cache after this run (grep_cache.h): a text
 * taken from the old cache moves over, one read from disk goes in while the
 * cache has room. A file's text pointer stays valid as long as the new
 * cache lives. Under the mutex; the walk reads only the old cache's names
 * meanwhile, and never those of files already queued. */
static void grep_cache__put(EddiGrep *self, GrepFile *file) {
  GrepCacheEntry entry = {0};
  if (file->cached) {
    GrepCacheEntry *kept = eddi_grep_cache_find(self->cache, file->rel);
    entry = *kept;
    entry.rel = eddi_strdup(file->rel);
    kept->buffer = NULL;
    kept->moved = true;
  } else if (file->cacheable && self->fresh->bytes + file->len <= GREP_CACHE_BYTES_MAX) {
    if (!file->readable) { /* only its stamp is worth keeping */
      eddi_free(file->buffer);
      file->buffer = NULL;
      file->text = NULL;
      file->len = 0;
    }
    entry = (GrepCacheEntry){.rel = eddi_strdup(file->rel), .dev = file->st.st_dev,
                             .ino = file->st.st_ino, .size = file->st.st_size,
                             .mtime = file->st.st_mtim, .ctime = file->st.st_ctim,
                             .buffer = file->buffer, .text = file->text, .len = file->len,
                             .readable = file->readable};
    file->buffer = NULL;
  } else {
    return;
  }
  /* Read or checked after its folder was watched: events tell from now.
   * (A walk reports each path once.) */
  entry.watched = file->watched;
  entry.changed = false;
  eddi_grep_cache_put(self->fresh, &entry);
}

/* The run's end: when a glob narrowed the walk, the old entries it did not
 * visit stay too; the new cache takes the old one's watches and replaces it. */
static void grep_cache__finish(EddiGrep *self) {
  EddiGrepCache *old = self->cache, *fresh = self->fresh;
  for (size_t i = 0; self->glob && i < old->cap; i++) {
    GrepCacheEntry *entry = &old->slots[i];
    if (!entry->rel || entry->moved || eddi_grep_cache_find(fresh, entry->rel) ||
        fresh->bytes + entry->len > GREP_CACHE_BYTES_MAX)
      continue;
    GrepCacheEntry moved = *entry;
    moved.rel = eddi_strdup(entry->rel);
    entry->buffer = NULL;
    entry->moved = true;
    eddi_grep_cache_put(fresh, &moved);
  }
  eddi_grep_cache_hand_over(old, fresh);
  eddi_grep_cache_free(old);
  self->cache = fresh;
  self->fresh = NULL;
}

/* ---------------------------------------------------------------- reading */

static long long grep__ns(const struct timespec *t) {
  return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* Read the file (open from its folder, O_NOFOLLOW: the walk checked the
 * folders) into scratch and decode it as Open does; a file that is not
 * text stays unreadable (it is passed over, as by Read). The text is in
 * scratch, or in file->buffer when it had to be decoded. */
static void grep__read(const EddiGrep *self, GrepFile *file, GrepScratch *scratch) {
  int fd = openat(file->folder->fd, file->name,
                  O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > self->max_bytes) {
    close(fd);
    return;
  }
  file->st = st;
  size_t size = (size_t)st.st_size, got = 0;
  if (scratch->cap < size + 1) {
    eddi_free(scratch->data);
    scratch->cap = EDDI_MAX(size + 1, 2 * scratch->cap);
    scratch->data = eddi_malloc(scratch->cap);
  }
  char *buffer = scratch->data;
  /* Bounded by size: each pass reads at least one byte or ends. */
  while (got < size) {
    ssize_t n = read(fd, buffer + got, size - got);
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd);
  buffer[got] = '\0';
  if (self->use_cache) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    file->cacheable = got == size && grep__ns(&now) - grep__ns(&st.st_mtim) > GREP_CACHE_SETTLE_NS;
  }
  /* The common case in place: no BOM, no NUL, no CR, valid UTF-8. */
  if (!(got >= 3 && memcmp(buffer, "\xEF\xBB\xBF", 3) == 0) && eddi_disk_is_plain(buffer, got)) {
    file->readable = true;
    file->text = buffer;
    file->len = got;
    return;
  }
  StrBuf text = {0};
  EddiFileFormat format;
  EddiError ignored;
  eddi_strbuf_puts(&text, "");
  file->readable = eddi_disk_decode(buffer, got, &format, &text, &ignored) == 0;
  file->buffer = text.data;
  file->text = text.data;
  file->len = file->readable ? text.len : 0;
}

/* Keep the file's text past its search (it has hits, or goes into the
 * cache): out of the scratch buffer into its own. */
static void grep__keep(GrepFile *file, const GrepScratch *scratch) {
  if (file->text != scratch->data) return;
  file->buffer = eddi_malloc(file->len + 1);
  memcpy(file->buffer, file->text, file->len + 1);
  file->text = file->buffer;
}

static void grep__drop(GrepFile *file) {
  eddi_free(file->buffer);
  file->buffer = NULL;
  file->text = NULL;
}

/* A folder's file was read, or the walk left it: under the mutex. */
static void grep__folder_release(EddiGrep *self, GrepFolder *folder) {
  if (--folder->refs) return;
  close(folder->fd);
  eddi_free(folder);
  if (self->open_folders-- == GREP_OPEN_FOLDERS_MAX && self->walk_full)
    pthread_cond_signal(&self->room);
}

/* ---------------------------------------------------------------- searching */

static void grep__hit(GrepFile *file, size_t keep, size_t line, size_t start, size_t end) {
  file->hits++;
  if (file->kept.len < keep) array_push(&file->kept, ((GrepHit){line, start, end}));
}

/* 1 when the line text[start, end) matches on its own, 0 when not. */
static int grep__line_matches(EddiPattern *pattern, const char *text, size_t start, size_t end,
                              EddiError *err) {
  size_t s, e;
  return eddi_pattern_find(pattern, text + start, end - start, 0, &s, &e, err);
}

/* Each line matched alone: the definition the other modes agree with. */
static int grep__search_lines(EddiPattern *pattern, GrepFile *file, size_t keep, EddiError *err) {
  const char *text = file->text;
  size_t len = file->len, line = 1;
  for (size_t at = 0; at < len; line++) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - text) : len;
    int found = grep__line_matches(pattern, text, at, end, err);
    if (found < 0) return found;
    if (found) grep__hit(file, keep, line, at, end);
    at = end + 1;
  }
  return 0;
}

/* The whole buffer at once; see the file's commentary. */
static int grep__search_whole(EddiPattern *pattern, EddiGrepMode mode, const StrBuf *prefix,
                              size_t rare, GrepFile *file, size_t keep, EddiError *err) {
  const char *text = file->text;
  size_t len = file->len, pos = 0, line = 1, counted = 0;
  while (pos < len) {
    size_t m, match_end, from = pos;
    if (prefix->len) {
      const char *next = eddi_grep_find_prefix(text, len, pos, prefix, rare);
      if (!next) return 0;
      from = (size_t)(next - text);
    }
    int found = eddi_pattern_find(pattern, text, len, from, &m, &match_end, err);
    if (found <= 0) return found;
    if (m < pos) m = pos;
    if (m >= len && text[len - 1] == '\n') return 0; /* past the last line */
    const char *before = memrchr(text + pos, '\n', m - pos);
    size_t start = before ? (size_t)(before - text) + 1 : pos;
    const char *after = memchr(text + m, '\n', len - m);
    size_t end = after ? (size_t)(after - text) : len;
    line += eddi_text_count_newlines(text + counted, start - counted);
    counted = start;
    found = mode == GREP_CONFIRM ? grep__line_matches(pattern, text, start, end, err) : 1;
    if (found < 0) return found;
    if (found) grep__hit(file, keep, line, start, end);
    pos = end + 1;
  }
  return 0;
}

static int grep__search(const EddiGrep *self, EddiPattern *pattern, GrepFile *file,
                        EddiError *err) {
  size_t keep = self->offset + self->page;
  if (!file->readable || !file->len) return 0;
  if (self->mode == GREP_LINES) return grep__search_lines(pattern, file, keep, err);
  return grep__search_whole(pattern, self->mode, &self->prefix, self->prefix_rare, file, keep,
                            err);
}

/* ---------------------------------------------------------------- threads */

/* Files queued so far: the index the next one gets. */
static size_t grep__queued(const EddiGrep *self) { return self->base + self->files.len; }

static void grep__file_free(GrepFile *file) {
  eddi_free(file->rel);
  eddi_free(file->buffer);
  array_free(&file->kept);
  eddi_free(file);
}

/* Every file before this one is done: count its hits and keep it when some
 * are on the page; else it goes (its text into the cache, if it may). */
static void grep__retire(EddiGrep *self, GrepFile *file) {
  bool on_page = file->hits && file->first < self->offset + self->page &&
                 file->first + file->hits > self->offset;
  if (self->fresh) grep_cache__put(self, file);
  if (on_page) array_push(&self->shown, file);
  else grep__file_free(file);
}

/* Retire the done files at the head of the queue; once the files before
 * one hold a full page, the ones after it cannot be shown. Under the mutex. */
static void grep__advance(EddiGrep *self) {
  while (self->done_prefix < grep__queued(self) &&
         self->files.items[self->done_prefix - self->base]->done) {
    GrepFile *file = self->files.items[self->done_prefix - self->base];
    self->files.items[self->done_prefix - self->base] = NULL;
    self->done_prefix++;
    file->first = self->done_hits;
    self->done_hits += file->hits;
    if (self->cutoff == SIZE_MAX && self->done_hits >= self->offset + self->page)
      self->cutoff = self->done_prefix - 1;
    grep__retire(self, file);
  }
  /* Drop the retired slots at the front: at most GREP_QUEUE_MAX pointers
   * move for each GREP_QUEUE_MAX files retired. */
  size_t retired = self->done_prefix - self->base;
  if (retired >= GREP_QUEUE_MAX) {
    memmove(self->files.items, self->files.items + retired,
            (self->files.len - retired) * sizeof *self->files.items);
    self->files.len -= retired;
    self->base += retired;
  }
  if (self->walk_full) pthread_cond_signal(&self->room);
}

static bool grep__shown_possible(const EddiGrep *self, size_t index) {
  return self->cutoff == SIZE_MAX || index <= self->cutoff;
}

static void grep__searcher_init(const EddiGrep *self, GrepSearcher *searcher) {
  memset(searcher, 0, sizeof *searcher);
  searcher->ok = eddi_pattern_compile(&searcher->pattern, self->regex, self->regex_len, true,
                                      self->flags, &searcher->err) == 0;
  eddi_pattern_deadline(self->timeout_ms);
}

static void grep__searcher_free(GrepSearcher *searcher) {
  eddi_free(searcher->scratch.data);
  if (searcher->ok) eddi_pattern_free(&searcher->pattern);
  eddi_pattern_deadline(0);
}

/* Take the next queued file, read and search it. Under the mutex, which
 * it lets go of meanwhile; there must be a next file. */
static void grep__take(EddiGrep *self, GrepSearcher *searcher) {
  size_t index = self->next++;
  GrepFile *file = self->files.items[index - self->base];
  bool failed = self->rc < 0;
  pthread_mutex_unlock(&self->mutex);
  GrepFolder *folder = file->folder;
  if (folder && !failed) grep__read(self, file, &searcher->scratch);
  int rc = searcher->ok && !failed ? grep__search(self, &searcher->pattern, file, &searcher->err)
                                   : 0;
  if (file->hits || file->cacheable) grep__keep(file, &searcher->scratch);
  else if (file->text == searcher->scratch.data) file->text = NULL;
  pthread_mutex_lock(&self->mutex);
  if (folder) grep__folder_release(self, folder);
  file->folder = NULL;
  if (rc < 0 && self->rc == 0) self->rc = rc, self->err = searcher->err;
  file->done = true;
  if (!grep__shown_possible(self, index) && !file->cacheable && !file->cached) grep__drop(file);
  grep__advance(self); /* may free file */
}

/* Search queued files until the walk has ended and none is left. Under the
 * mutex. */
static void grep__search_all(EddiGrep *self, GrepSearcher *searcher) {
  for (;;) {
    if (self->next < grep__queued(self)) {
      grep__take(self, searcher);
      continue;
    }
    if (self->walk_done) break;
    self->waiting++;
    pthread_cond_wait(&self->more, &self->mutex);
    self->waiting--;
  }
}

static void *grep__searcher(void *closure) {
  EddiGrep *self = closure;
  GrepSearcher searcher;
  grep__searcher_init(self, &searcher);
  pthread_mutex_lock(&self->mutex);
  grep__search_all(self, &searcher);
  pthread_mutex_unlock(&self->mutex);
  grep__searcher_free(&searcher);
  return NULL;
}

/* The walk must wait (for a folder to close or a file to retire): for the
 * searchers, or, when no searcher thread started, by searching a file
 * itself. False when nothing can change (no thread and no file left).
 * Under the mutex. */
static bool grep__walk_wait(EddiGrep *self) {
  if (!self->helpers) {
    if (self->next >= grep__queued(self)) return false;
    grep__take(self, self->walker);
    return true;
  }
  if (self->next < grep__queued(self)) pthread_cond_broadcast(&self->more);
  self->walk_full = true;
  pthread_cond_wait(&self->room, &self->mutex);
  self->walk_full = false;
  return true;
}

static const GrepDoc *grep__doc(const EddiGrep *self, const char *rel) {
  for (size_t i = 0; i < self->docs.len; i++)
    if (strcmp(self->docs.items[i].rel, rel) == 0) return &self->docs.items[i];
  return NULL;
}

/* The folder the walk is in, for the files it queues: a new GrepFolder
 * when the entry's parent is not the last one's. Under the mutex. */
static GrepFolder *grep__folder_of(EddiGrep *self, const EddiWalkEntry *entry) {
  size_t parent_len = entry->rel_len - strlen(entry->name);
  if (self->folder && self->folder_rel_len == parent_len &&
      memcmp(self->folder_rel, entry->rel, parent_len) == 0)
    return self->folder;
  if (self->folder) grep__folder_release(self, self->folder);
  self->folder = NULL;
  while (self->open_folders >= GREP_OPEN_FOLDERS_MAX && grep__walk_wait(self)) continue;
  int fd = fcntl(entry->dir_fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return NULL;
  self->folder = eddi_calloc(1, sizeof *self->folder);
  self->folder->fd = fd;
  self->folder->refs = 1;
  self->open_folders++;
  eddi_free(self->folder_rel);
  self->folder_rel = eddi_strndup(entry->rel, parent_len);
  self->folder_rel_len = parent_len;
  return self->folder;
}

/* The walk's visitor: regular files (not symlinks, as ripgrep without
 * --follow) that the glob names, queued for the searchers, which open and
 * read them. */
static int grep__visit(void *context, const EddiWalkEntry *entry) {
  EddiGrep *self = context;
  /* A folder is watched before the walk enters it, so before its files
   * are read (or checked). */
  if (entry->is_dir && self->cache)
    eddi_grep_cache_watch(self->cache, entry->abs, entry->rel, entry->rel_len);
  if (entry->is_link || !S_ISREG(entry->st.st_mode) ||
      (self->glob && !eddi_walk_glob_matches(self->glob, entry->rel)))
    return EDDI_WALK_CONTINUE;
  GrepFile *file = eddi_calloc(1, sizeof *file);
  file->st = entry->st;
  size_t folder_len = entry->rel_len - strlen(entry->name);
  if (self->cache)
    file->watched = eddi_grep_cache_watched(self->cache, entry->rel, folder_len ? folder_len - 1 : 0);
  const GrepDoc *doc = grep__doc(self, entry->rel);
  GrepCacheEntry *cached = doc ? NULL : eddi_grep_cache_find(self->cache, entry->rel);
  /* Unchanged by the folder's events, or else by its stamp (the walk did
   * not lstat regular files: types_only). */
  bool unchanged = cached && eddi_grep_cache_trusted(self->cache, cached);
  if (cached && !unchanged)
    unchanged = fstatat(entry->dir_fd, entry->name, &file->st, AT_SYMLINK_NOFOLLOW) == 0 &&
                eddi_grep_cache_same(cached, &file->st);
  bool from_disk = false;
  if (doc) {
    file->text = doc->text;
    file->len = doc->len;
    file->readable = doc->readable;
  } else if (unchanged) {
    file->text = cached->text;
    file->len = cached->len;
    file->readable = cached->readable;
    file->cached = true;
  } else {
    from_disk = true;
  }
  file->rel = eddi_strndup(entry->rel, entry->rel_len);
  file->name = file->rel + entry->rel_len - strlen(entry->name);
  pthread_mutex_lock(&self->mutex);
  while (grep__queued(self) - self->done_prefix >= GREP_QUEUE_MAX && grep__walk_wait(self))
    continue;
  if (from_disk && (file->folder = grep__folder_of(self, entry))) file->folder->refs++;
  array_push(&self->files, file);
  if (self->waiting && grep__queued(self) - self->next >= GREP_WAKE_BATCH)
    pthread_cond_signal(&self->more);
  pthread_mutex_unlock(&self->mutex);
  return EDDI_WALK_CONTINUE;
}

static size_t grep__threads(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 1;
  return EDDI_MIN((size_t)cores, (size_t)GREP_THREADS_MAX);
}

void eddi_grep_run(EddiGrep *self) {
  size_t count = grep__threads();
  pthread_t threads[GREP_THREADS_MAX];
  size_t started = 0;
  for (; started < count; started++)
    if (pthread_create(&threads[started], NULL, grep__searcher, self) != 0) break;
  GrepSearcher walker;
  grep__searcher_init(self, &walker);
  pthread_mutex_lock(&self->mutex);
  self->helpers = started;
  self->walker = &walker;
  pthread_mutex_unlock(&self->mutex);
  EddiWalk *walk = eddi_walk_new(
      self->root, &(EddiWalkOptions){.max_entries = EDDI_WALK_ENTRIES_ALL, .types_only = true});
  if (self->use_cache) {
    if (!self->cache) self->cache = eddi_grep_cache_new();
    eddi_grep_cache_drain(self->cache);
    eddi_grep_cache_watch(self->cache, self->root, "", 0);
    self->fresh = eddi_grep_cache_blank();
  }
  eddi_walk_run(walk, grep__visit, self);
  eddi_walk_free(walk);
  pthread_mutex_lock(&self->mutex);
  if (self->folder) grep__folder_release(self, self->folder);
  self->folder = NULL;
  self->walk_done = true;
  pthread_cond_broadcast(&self->more);
  /* The walk's thread searches too (and alone when no thread started). */
  grep__search_all(self, &walker);
  self->walker = NULL;
  pthread_mutex_unlock(&self->mutex);
  grep__searcher_free(&walker);
  for (size_t i = 0; i < started; i++) pthread_join(threads[i], NULL);
  EDDI_ASSERT(self->done_prefix == grep__queued(self));
  if (self->use_cache) grep_cache__finish(self);
}

/* ---------------------------------------------------------------- the owner's steps */

static void grep__cache_free(void *cache) { eddi_grep_cache_free(cache); }

/* The workspace's cache, while no Grep has it checked out. */
static const EddiSlotType grep_cache_slot = {"grep cache", grep__cache_free, NULL};

int eddi_grep_prepare(EddiWorkspace *workspace, EddiSession *session, const EddiGrepQuery *query,
                      EddiGrep **out, EddiError *err) {
  const char *regex = query->regex, *glob = query->glob;
  size_t len = query->len, offset = query->offset;
  unsigned flags = query->flags;
  EddiPattern pattern;
  int rc = eddi_pattern_compile(&pattern, regex, len, true, flags, err);
  if (rc < 0) return rc;
  EddiGrep *self = eddi_calloc(1, sizeof *self);
  self->root = eddi_strdup(eddi_workspace_root(workspace));
  self->regex = eddi_strndup(regex, len);
  self->regex_len = len;
  self->flags = flags;
  uint32_t lookbehind = 0;
  pcre2_pattern_info(pattern.code, PCRE2_INFO_MAXLOOKBEHIND, &lookbehind);
  self->mode = eddi_grep_mode_of(regex, len, pattern.line_local, lookbehind);
  eddi_pattern_free(&pattern);
  eddi_grep_prefix(regex, len, flags, &self->prefix, &self->prefix_rare);
  self->glob = glob ? eddi_strdup(glob) : NULL;
  self->offset = offset;
  size_t page_size = eddi_workspace_config(workspace)->page_size;
  self->page = page_size ? page_size : EDDI_HASHLINE_PAGE;
  self->max_bytes = eddi_workspace_config(workspace)->max_file_bytes;
  self->timeout_ms = eddi_workspace_config(workspace)->search_timeout_ms;
  self->cutoff = SIZE_MAX;
  /* Open documents are searched as they are in the session, saved or not. */
  for (size_t i = 0; session && i < session->docs.len; i++) {
    EddiDoc *doc = session->docs.items[i];
    EddiError ignored;
    GrepDoc copy = {.rel = eddi_strdup(doc->path)};
    copy.readable = eddi_doc_sync(doc, &ignored) == 0;
    copy.len = copy.readable ? eddi_text_len(&doc->text) : 0;
    copy.text = eddi_text_dup(&doc->text, 0, copy.len);
    array_push(&self->docs, copy);
  }
  /* The cache is the run's alone; a Grep running meanwhile does without. */
  self->use_cache = eddi_workspace_keeps_caches(workspace);
  if (self->use_cache) self->cache = eddi_workspace_take_slot(workspace, &grep_cache_slot);
  pthread_mutex_init(&self->mutex, NULL);
  pthread_cond_init(&self->more, NULL);
  pthread_cond_init(&self->room, NULL);
  *out = self;
  return 0;
}

int eddi_grep_finish(EddiGrep *self, EddiWorkspace *workspace, EddiSession *session, StrBuf *out,
                     EddiError *err) {
  if (self->use_cache && !eddi_workspace_slot(workspace, &grep_cache_slot)) {
    eddi_workspace_set_slot(workspace, &grep_cache_slot, self->cache);
    self->cache = NULL;
  }
  if (self->rc < 0) {
    *err = self->err;
    return self->rc;
  }
  EddiEditState *state = eddi_edit_state_of(session);
  size_t total = self->done_hits, shown = 0, offset = self->offset, page = self->page;
  for (size_t f = 0; f < self->shown.len && shown < page; f++) {
    GrepFile *file = self->shown.items[f];
    char tag[5];
    eddi_hashline_tag(file->text, file->len, tag);
    eddi_strbuf_putc(out, '[');
    eddi_reply_name(out, file->rel); /* a name from the disk may hold a newline */
    eddi_strbuf_printf(out, "#%s]\n", tag);
    for (size_t k = offset > file->first ? offset - file->first : 0;
         k < file->kept.len && shown < page; k++, shown++) {
      const GrepHit *hit = &file->kept.items[k];
      eddi_strbuf_printf(out, "%zu:", hit->line);
      eddi_strbuf_append(out, file->text + hit->start, hit->end - hit->start);
      eddi_strbuf_putc(out, '\n');
      /* The hit counts as having read this line. */
      eddi_snapshot_record(state, file->rel, file->text, file->len, tag, hit->line, hit->line);
    }
  }
  if (total == 0) eddi_strbuf_puts(out, "No matches\n");
  else if (offset >= total)
    eddi_strbuf_printf(out, "No matches past offset %zu (%zu in all)\n", offset, total);
  else if (offset + shown < total)
    eddi_strbuf_printf(out,
                       "[Showing matches %zu-%zu of %zu (%zu a page). Grep again with offset %zu]\n",
                       offset + 1, offset + shown, total, page, offset + shown);
  return 0;
}

void eddi_grep_free(EddiGrep *self) {
  if (!self) return;
  /* Files are all retired after a run; a Grep never run has none. */
  for (size_t i = 0; i < self->files.len; i++)
    if (self->files.items[i]) grep__file_free(self->files.items[i]);
  array_free(&self->files);
  for (size_t i = 0; i < self->shown.len; i++) grep__file_free(self->shown.items[i]);
  array_free(&self->shown);
  eddi_grep_cache_free(self->fresh);
  for (size_t i = 0; i < self->docs.len; i++) {
    eddi_free(self->docs.items[i].rel);
    eddi_free(self->docs.items[i].text);
  }
  array_free(&self->docs);
  eddi_grep_cache_free(self->cache);
  pthread_mutex_destroy(&self->mutex);
  pthread_cond_destroy(&self->more);
  pthread_cond_destroy(&self->room);
  eddi_free(self->root);
  eddi_free(self->regex);
  eddi_free(self->folder_rel);
  eddi_strbuf_free(&self->prefix);
  eddi_free(self->glob);
  eddi_free(self);
}
