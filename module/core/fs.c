/* fs.c - see fs.h. Longer than most files: the checked replace and the
 * staged steps of a multi-file change (with their batched syncs) share the
 * same resolving, temporary file, folder sync and sweep helpers, which must
 * not be visible outside. */
#define _GNU_SOURCE
#include "core/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <stdio.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/random.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <xxhash.h>

/* Read in pieces of this size. */
#define FS_READ_CHUNK 65536
/* Reads of at least this many bytes ask for huge pages (see
 * eddi_fs_stamp_fd). */
#define FS_HUGE_READ_MIN ((size_t)4 << 20)
/* How long a replace waits, after its rename, for another process that
 * opened the old file just before it to close it again (its write, if any,
 * then has landed and is carried over). */
#define FS_WRITER_WAIT_MS 2000
/* How often a replace asks again whether a writer has closed the file. */
#define FS_QUIET_POLL_US 500
/* A temporary file is ".<name>.eddi-<pid>-<random>": the pid tells a file
 * left by a process that died (kill -9 between write and rename) from one
 * being written now. */
#define FS_TEMP_MARK ".eddi-"
/* A folder whose entries take at most this many bytes (st_size: ext4 and
 * most file systems grow a folder by a block per hundred or so entries) is
 * swept at every write; a larger one once per process. Then the folders
 * swept, and the entries a sweep reads at most. */
#define FS_SWEEP_SMALL_FOLDER_BYTES 16384
#define FS_SWEPT_MAX 256
#define FS_SWEEP_ENTRIES_MAX 100000
/* The random part of a temporary file's name: 12 letters or digits. */
#define FS_TEMP_RANDOM 12

/* Set once openat2 answered ENOSYS: the component walk is used from then. */
static atomic_bool fs__no_openat2;

/* ------------------------------------------------------------ resolving */

static int fs__outside(EddiError *err) {
  return eddi_error_set(err, EDDI_EPATH, "Path outside workspace");
}

/* Whether a write must be refused: an allocation failed, and what the
 * engine would write may come from a half-made structure (fs.h). */
static int fs__out_of_memory(EddiError *err) {
  if (!eddi_alloc_failed()) return 0;
  return eddi_error_set(err, EDDI_EIO, "eddi ran out of memory: nothing more is written");
}

/* An errno from resolving rel, as an engine error. */
static int fs__resolve_error(int error, const char *rel, EddiError *err) {
  switch (error) {
  case EXDEV:
  case ELOOP:
    return fs__outside(err);
  case ENOENT:
  case ENOTDIR:
    return eddi_error_set(err, EDDI_ENOENT, "File not found: %s", rel);
  case EACCES:
  case EPERM:
    return eddi_error_set(err, EDDI_EIO, "Permission denied: %s", rel);
  default:
    return eddi_error_set(err, EDDI_EIO, "Cannot open %s: %s", rel, strerror(error));
  }
}

/* Walk rel from dir_fd one component at a time, no symlink followed. */
static int fs__walk(int dir_fd, const char *rel, int flags, mode_t mode) {
  char path[EDDI_FS_PATH_MAX];
  size_t n = strlen(rel);
  if (n >= sizeof path) return errno = ENAMETOOLONG, -1;
  memcpy(path, rel, n + 1);
  int at = dup(dir_fd), depth = 0;
  if (at < 0) return -1;
  char *part = path;
  for (char *slash; (slash = strchr(part, '/')); part = slash + 1) {
    *slash = '\0';
    if (++depth > EDDI_FS_DEPTH_MAX || strcmp(part, "..") == 0) {
      close(at);
      return errno = EXDEV, -1;
    }
    int next = part[0] && strcmp(part, ".") != 0
                   ? openat(at, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                   : dup(at);
    int saved = errno;
    close(at);
    if (next < 0) return errno = saved == ENOTDIR ? ELOOP : saved, -1;
    at = next;
  }
  if (strcmp(part, "..") == 0) {
    close(at);
    return errno = EXDEV, -1;
  }
  int fd = openat(at, part[0] ? part : ".", flags | O_NOFOLLOW | O_CLOEXEC, mode);
  int saved = errno;
  close(at);
  errno = saved;
  return fd;
}

/* openat beneath dir_fd: openat2 where the kernel has it, else the walk. */
static int fs__open_beneath(int dir_fd, const char *rel, int flags, mode_t mode) {
  if (!atomic_load(&fs__no_openat2)) {
    struct open_how how = {.flags = (uint64_t)(flags | O_CLOEXEC),
                           .mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
                           .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS};
    long fd = syscall(SYS_openat2, dir_fd, rel[0] ? rel : ".", &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS) return (int)fd;
    atomic_store(&fs__no_openat2, true);
  }
  return fs__walk(dir_fd, rel, flags, mode);
}

/* Open rel beneath dir_fd for reading without waiting: a FIFO put where a
 * file was would hold the open until a writer came (O_NONBLOCK changes
 * nothing for a regular file's reads). An open that another process's
 * write lease holds back (EWOULDBLOCK then) is made again without
 * O_NONBLOCK, which waits for the lease to be released. */
static int fs__open_read(int dir_fd, const char *rel) {
  int fd = fs__open_beneath(dir_fd, rel, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0 && errno == EWOULDBLOCK) fd = fs__open_beneath(dir_fd, rel, O_RDONLY | O_NOCTTY, 0);
  return fd;
}

int eddi_fs_root_open(const char *root, int *fd, EddiError *err) {
  *fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (*fd < 0)
    return eddi_error_set(err, EDDI_EIO, "Cannot open the workspace %s: %s", root,
                          strerror(errno));
  return 0;
}

int eddi_fs_open(int root_fd, const char *rel, int flags, mode_t mode, int *fd,
                 EddiError *err) {
  *fd = fs__open_beneath(root_fd, rel, flags, mode);
  return *fd < 0 ? fs__resolve_error(errno, rel, err) : 0;
}

int eddi_fs_parent_open(int root_fd, const char *rel, bool make_folders, int *dir_fd,
                        const char **leaf, EddiError *err) {
  const char *slash = strrchr(rel, '/');
  *leaf = slash ? slash + 1 : rel;
  size_t dir_len = slash ? (size_t)(slash - rel) : 0;
  if (dir_len >= EDDI_FS_PATH_MAX) return eddi_error_set(err, EDDI_EINVAL, "Path too long");
  char dir[EDDI_FS_PATH_MAX];
  memcpy(dir, rel, dir_len);
  dir[dir_len] = '\0';
  *dir_fd = fs__open_beneath(root_fd, dir, O_PATH | O_DIRECTORY, 0);
  if (*dir_fd >= 0) return 0;
  if (errno != ENOENT || !make_folders) return fs__resolve_error(errno, rel, err);
  /* Make the missing folders: find the deepest one that exists, then make
   * each below it inside the descriptor of its parent. */
  size_t exists = dir_len;
  int parent = -1;
  while (parent < 0) {
    while (exists > 0 && dir[exists - 1] != '/') exists--;
    if (exists > 0) exists--; /* drop the '/' */
    char saved = dir[exists];
    dir[exists] = '\0';
    parent = fs__open_beneath(root_fd, dir, O_PATH | O_DIRECTORY, 0);
    dir[exists] = saved;
    if (parent < 0 && (errno != ENOENT || exists == 0)) return fs__resolve_error(errno, rel, err);
  }
  for (size_t at = exists ? exists + 1 : 0; at < dir_len;) {
    size_t end = at;
    while (end < dir_len && dir[end] != '/') end++;
    char name[EDDI_FS_PATH_MAX];
    memcpy(name, dir + at, end - at);
    name[end - at] = '\0';
    if (strcmp(name, "..") == 0) {
      close(parent);
      return fs__outside(err);
    }
    if (mkdirat(parent, name, 0777) < 0 && errno != EEXIST) {
      int error = errno;
      close(parent);
      return eddi_error_set(err, EDDI_EIO, "Cannot create folder %s: %s", name, strerror(error));
    }
    int next = openat(parent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int error = errno;
    close(parent);
    if (next < 0) return fs__resolve_error(error == ENOTDIR ? ELOOP : error, rel, err);
    parent = next;
    at = end + 1;
  }
  *dir_fd = parent;
  return 0;
}

/* ------------------------------------------------------------ stamps */

bool eddi_fs_stamp_same(const EddiFileStamp *a, const EddiFileStamp *b) {
  if (a->exists != b->exists) return false;
  if (!a->exists) return true;
  return a->size == b->size && a->hash == b->hash;
}

/* Whether the cheap fields say the file was not touched since a. */
static bool fs__untouched(const EddiFileStamp *a, const struct stat *st) {
  return a->exists && a->dev == st->st_dev && a->ino == st->st_ino && a->size == st->st_size &&
         a->mtime.tv_sec == st->st_mtim.tv_sec && a->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

int eddi_fs_stamp_fd(int fd, size_t max_bytes, EddiFileStamp *stamp, StrBuf *bytes,
                     EddiError *err) {
  struct stat st;
  memset(stamp, 0, sizeof *stamp);
  if (fstat(fd, &st) < 0) return eddi_error_set(err, EDDI_EIO, "Cannot stat: %s", strerror(errno));
  if (S_ISDIR(st.st_mode)) return eddi_error_set(err, EDDI_EINVAL, "Is a folder");
  /* A FIFO or a device where a file was: its bytes are not a file's. */
  if (!S_ISREG(st.st_mode)) return eddi_error_set(err, EDDI_EINVAL, "Not a regular file");
  stamp->exists = true;
  stamp->dev = st.st_dev;
  stamp->ino = st.st_ino;
  stamp->mtime = st.st_mtim;
  StrBuf local = {0};
  StrBuf *out = bytes ? bytes : &local;
  eddi_strbuf_clear(out);
  /* Straight into out, sized for the file as fstat saw it (and a chunk
   * more when it grew): no copy through a buffer, no regrowth. */
  size_t expected = (size_t)st.st_size <= max_bytes ? (size_t)st.st_size : 0;
  array__reserve((void **)&out->data, &out->cap, 1, expected + 2);
  out->data[out->len] = '\0'; /* a StrBuf's bytes end in a NUL, an empty file's too */
  /* A large file's buffer in huge pages where the kernel has them: a read
   * into fresh memory otherwise takes a page fault every 4 KiB, which costs
   * more than the copy itself. */
  if (expected >= FS_HUGE_READ_MIN) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)out->data + page - 1) & ~(page - 1);
    uintptr_t to = ((uintptr_t)out->data + out->cap) & ~(page - 1);
    if (to > from) madvise((void *)from, to - from, MADV_HUGEPAGE);
  }
  int rc = 0;
  for (off_t at = 0;;) {
    if (out->cap - out->len < 2) array__reserve((void **)&out->data, &out->cap, 1, out->len + FS_READ_CHUNK);
    size_t room = EDDI_MIN(out->cap - out->len - 1, max_bytes + 1 - out->len);
    ssize_t n = pread(fd, out->data + out->len, room, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      rc = eddi_error_set(err, EDDI_EIO, "Read failed: %s", strerror(errno));
      break;
    }
    if (n == 0) break;
    if (out->len + (size_t)n > max_bytes) {
      rc = eddi_error_set(err, EDDI_ETOOBIG, "File too large (limit %zu)", max_bytes);
      break;
    }
    out->len += (size_t)n;
    out->data[out->len] = '\0';
    at += n;
  }
  stamp->size = (off_t)out->len;
  stamp->hash = XXH3_64bits(out->data ? out->data : "", out->len);
  eddi_strbuf_free(&local);
  return rc;
}

int eddi_fs_read(int root_fd, const char *rel, size_t max_bytes, StrBuf *out,
                 EddiFileStamp *stamp, unsigned *mode, EddiError *err) {
  memset(stamp, 0, sizeof *stamp);
  int fd = fs__open_read(root_fd, rel);
  if (fd < 0) return fs__resolve_error(errno, rel, err);
  struct stat st;
  if (mode && fstat(fd, &st) == 0) *mode = st.st_mode & 07777;
  int rc = eddi_fs_stamp_fd(fd, max_bytes, stamp, out, err);
  close(fd);
  return rc;
}

void eddi_fs_conflict_free(EddiFsConflict *self) {
  eddi_strbuf_free(&self->theirs);
  memset(self, 0, sizeof *self);
}

/* ------------------------------------------------------------ writing */

/* ------------------------------------------------------------ watching */

/* Opens of the old file by other processes, seen through inotify. A
 * writer that opened the file just before the rename (an appender between
 * its open and its write) writes into the old file after it: the replace
 * waits for such opens to be closed before its last check. A writer that
 * held the file open since before the replace began is not seen: atomic
 * replacement cannot serve it, and doc/security.org says so. */
typedef struct {
  int fd;    /* the process's inotify instance, or -1: not watching */
  int wd;    /* the watch of the old file */
  int opens; /* opens seen and not closed again */
  int awaited; /* writers known to be coming (blocked by the lease) */
  int closed_writes; /* closes of writers seen since the lease was taken */
} FsWatch;

/* One inotify instance for the process, made on first use: closing one
 * costs the kernel a grace period (milliseconds), a watch does not. One
 * replace watches at a time; the lock keeps their events apart. */
static int fs__inotify = -1;
static pthread_once_t fs__inotify_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t fs__watch_lock = PTHREAD_MUTEX_INITIALIZER;

static void fs__inotify_open(void) { fs__inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC); }

static void fs__watch_drain(FsWatch *self);

static void fs__watch_start(FsWatch *self, int file_fd) {
  self->fd = -1;
  self->wd = -1;
  self->opens = 0;
  self->awaited = 0;
  self->closed_writes = 0;
  if (file_fd < 0) return;
  pthread_once(&fs__inotify_once, fs__inotify_open);
  if (fs__inotify < 0) return;
  pthread_mutex_lock(&fs__watch_lock);
  self->fd = fs__inotify;
  fs__watch_drain(self); /* what an earlier watch left: not ours */
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", file_fd);
  self->wd = inotify_add_watch(self->fd, path, IN_OPEN | IN_CLOSE);
  if (self->wd < 0) {
    self->fd = -1;
    pthread_mutex_unlock(&fs__watch_lock);
  }
}

static void fs__watch_drain(FsWatch *self) {
  char events[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
  for (;;) {
    ssize_t n = read(self->fd, events, sizeof events);
    if (n <= 0) return;
    for (char *at = events; at < events + n;) {
      const struct inotify_event *event = (const struct inotify_event *)at;
      at += sizeof *event + event->len;
      if (event->wd != self->wd || self->wd < 0) continue;
      if (event->mask & IN_OPEN) self->opens++;
      if (event->mask & IN_CLOSE_WRITE) self->closed_writes++;
      /* The close of an open made before the watch began says nothing of
       * the opens after it. */
      if ((event->mask & IN_CLOSE) && self->opens > 0) self->opens--;
    }
  }
}

/* The lease is held: no writer has the old file open, and what the opens
 * seen so far wrote is in it, for the check to see. Their events are
 * dropped, so that an earlier writer's open and close are not taken for
 * those of a writer the lease holds back (the replace then went on before
 * that writer's append, which went to the old file and was lost). */
static void fs__watch_reset(FsWatch *self) {
  if (self->fd < 0) return;
  fs__watch_drain(self);
  self->opens = 0;
  self->closed_writes = 0;
}

/* Wait (at most FS_WRITER_WAIT_MS) until every open seen is closed, and
 * every writer the lease held back has closed the file: a writer counts
 * by its close (IN_CLOSE_WRITE), which a reader's open and close, or those
 * of a writer done before the lease, cannot stand for. */
static void fs__watch_settle(FsWatch *self) {
  if (self->fd < 0) return;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    fs__watch_drain(self);
    if (self->opens <= 0 && self->closed_writes >= self->awaited) return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long waited = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
    if (waited >= FS_WRITER_WAIT_MS) return;
    struct pollfd ready = {self->fd, POLLIN, 0};
    poll(&ready, 1, (int)(FS_WRITER_WAIT_MS - waited));
  }
}

/* Hold the old file quiet across the rename: a read lease can be had only
 * while no other process has the file open for writing, so waiting for one
 * waits out a writer that opened before the watch began (its write lands
 * before the last check); and while it is held, a writer's open waits for
 * its release, after the rename, where the watch counts it. The lease's
 * break is told by a signal: SIGURG, whose default is to be ignored.
 * Returns whether the lease is held; without one (another user's file, a
 * file system without leases, a writer that stays) the watch alone serves. */
static bool fs__quiet(int old_fd) {
  if (old_fd < 0 || fcntl(old_fd, F_SETSIG, SIGURG) < 0) return false;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    if (fcntl(old_fd, F_SETLEASE, F_RDLCK) == 0) return true;
    if (errno != EAGAIN) return false;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long waited = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
    if (waited >= FS_WRITER_WAIT_MS) return false;
    usleep(FS_QUIET_POLL_US);
  }
}

/* Release the lease. Returns whether a writer's open was held back by it:
 * that open now completes on the old file, and the watch must see it come
 * and go. */
static bool fs__unquiet(int old_fd, bool held) {
  if (!held) return false;
  bool breaking = fcntl(old_fd, F_GETLEASE) != F_RDLCK;
  fcntl(old_fd, F_SETLEASE, F_UNLCK);
  return breaking;
}

static void fs__watch_stop(FsWatch *self) {
  if (self->fd < 0) return;
  inotify_rm_watch(self->fd, self->wd);
  self->fd = -1;
  pthread_mutex_unlock(&fs__watch_lock);
}

/* ------------------------------------------------------------ taking turns */

/* Two eddi processes replacing one file take turns: each holds an
 * exclusive flock of the file's folder from its first look at the file to
 * its check after the rename, so that the second sees the first's new file
 * and merges onto it instead of renaming over it unseen (the stamp check
 * and the rename are two steps). Returns the locked descriptor, or -1 for a
 * folder eddi may not read: the exchange (fs__exchanged) still sees such a
 * loss. */
static int fs__turn_take(int dir_fd) {
  int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  while (flock(fd, LOCK_EX) < 0) {
    if (errno != EINTR) {
      close(fd);
      return -1;
    }
  }
  return fd;
}

static void fs__turn_give(int turn_fd) {
  if (turn_fd >= 0) close(turn_fd);
}

/* The leaf of a workspace path. */
static const char *fs__leaf(const char *rel) {
  const char *slash = strrchr(rel, '/');
  return slash ? slash + 1 : rel;
}

/* A fresh temporary name ".<leaf>.eddi-<pid>-XXXXXXXXXXXX" into name; attempt
 * varies the fallback when the kernel gives no random bytes. */
static void fs__temp_name(const char *leaf, int attempt, char *name, size_t name_size) {
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char random[FS_TEMP_RANDOM];
  if (getrandom(random, sizeof random, 0) != (ssize_t)sizeof random) {
    for (size_t i = 0; i < sizeof random; i++)
      random[i] = (unsigned char)(rand() ^ (int)getpid() ^ attempt);
  }
  char suffix[FS_TEMP_RANDOM + 1];
  for (size_t i = 0; i < FS_TEMP_RANDOM; i++) suffix[i] = letters[random[i] % 36];
  suffix[FS_TEMP_RANDOM] = '\0';
  snprintf(name, name_size, ".%.200s" FS_TEMP_MARK "%ld-%s", leaf, (long)getpid(), suffix);
}

/* A new temporary file ".<leaf>.eddi-XXXXXXXXXXXX" in dir_fd, mode 0600. */
static int fs__temp_open(int dir_fd, const char *leaf, char *name, size_t name_size) {
  for (int attempt = 0; attempt < EDDI_FS_REPLACE_TRIES; attempt++) {
    fs__temp_name(leaf, attempt, name, name_size);
    int fd = openat(dir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return errno = EEXIST, -1;
}

static int fs__write_all(int fd, const char *bytes, size_t len) {
  for (size_t done = 0; done < len;) {
    ssize_t n = write(fd, bytes + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    done += (size_t)n;
  }
  return 0;
}

/* A temporary file eddi made in a folder: open, and its name there. */
typedef struct {
  int fd;
  char name[EDDI_FS_PATH_MAX];
} FsTemp;

/* Write file->bytes into a new temporary file of dir_fd beside the leaf of
 * file->rel, fsynced unless the caller syncs a whole batch later
 * (file->sync); it stays open in temp (for the stamp). */
static int fs__temp_write(int dir_fd, const EddiFsStage *file, FsTemp *temp, EddiError *err) {
  int rc = fs__out_of_memory(err);
  if (rc < 0) return temp->fd = -1, rc;
  temp->fd = fs__temp_open(dir_fd, fs__leaf(file->rel), temp->name, sizeof temp->name);
  if (temp->fd < 0) {
    if (errno == EACCES) return eddi_error_set(err, EDDI_EIO, "Write permission denied");
    return eddi_error_set(err, EDDI_EIO, "Cannot write: %s", strerror(errno));
  }
  if (fs__write_all(temp->fd, file->bytes, file->len) < 0)
    rc = eddi_error_set(err, EDDI_EIO, "Write failed: %s", strerror(errno));
  else if (fchmod(temp->fd, file->mode) < 0)
    rc = eddi_error_set(err, EDDI_EIO, "Cannot set mode: %s", strerror(errno));
  else if (file->sync == EDDI_FS_SYNC_NOW && fsync(temp->fd) < 0)
    rc = eddi_error_set(err, EDDI_EIO, "fsync failed: %s", strerror(errno));
  if (rc < 0) {
    close(temp->fd);
    temp->fd = -1;
    unlinkat(dir_fd, temp->name, 0);
  }
  return rc;
}

/* ------------------------------------------------------------ leftovers */

static struct {
  pthread_mutex_t lock;
  size_t count;
  dev_t dev[FS_SWEPT_MAX];
  ino_t ino[FS_SWEPT_MAX];
} fs__swept = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}};

/* Whether dir_fd's folder is to be swept now: a small folder at every
 * write (a readdir of it costs little), a large one the first time this
 * process writes there. */
static bool fs__sweep_due(int dir_fd) {
  struct stat st;
  if (fstatat(dir_fd, ".", &st, 0) < 0) return false;
  if (st.st_size <= FS_SWEEP_SMALL_FOLDER_BYTES) return true;
  pthread_mutex_lock(&fs__swept.lock);
  bool seen = false;
  for (size_t i = 0; i < fs__swept.count && !seen; i++)
    seen = fs__swept.dev[i] == st.st_dev && fs__swept.ino[i] == st.st_ino;
  if (!seen && fs__swept.count < FS_SWEPT_MAX) {
    fs__swept.dev[fs__swept.count] = st.st_dev;
    fs__swept.ino[fs__swept.count++] = st.st_ino;
  }
  pthread_mutex_unlock(&fs__swept.lock);
  return !seen;
}

/* The pid in a temporary file's name, or 0 when name is not one. */
static long fs__temp_pid(const char *name) {
  if (name[0] != '.') return 0;
  const char *mark = strstr(name, FS_TEMP_MARK);
  if (!mark) return 0;
  char *end;
  long pid = strtol(mark + strlen(FS_TEMP_MARK), &end, 10);
  return pid > 0 && *end == '-' ? pid : 0;
}

/* Remove the temporary files that processes which died left in dir_fd;
 * how many. */
static size_t fs__sweep_now(int dir_fd) {
  size_t removed = 0;
  EddiError ignored;
  if (fs__out_of_memory(&ignored) < 0) return 0;
  int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
  if (!dir) {
    if (fd >= 0) close(fd);
    return 0;
  }
  size_t read_entries = 0;
  for (struct dirent *entry; (entry = readdir(dir)) && read_entries < FS_SWEEP_ENTRIES_MAX;
       read_entries++) {
    long pid = fs__temp_pid(entry->d_name);
    if (pid && pid != (long)getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH)
      removed += unlinkat(dir_fd, entry->d_name, 0) == 0;
  }
  closedir(dir);
  return removed;
}

static void fs__sweep(int dir_fd) {
  if (fs__sweep_due(dir_fd)) fs__sweep_now(dir_fd);
}

/* Make a rename in dir_fd durable. */
static void fs__sync_dir(int dir_fd) {
  int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) fsync(fd), close(fd);
}

/* Whether current is what expected stamped with more appended to it. */
static bool fs__grew_from(const StrBuf *current, const EddiFileStamp *expected) {
  return expected->exists && (size_t)expected->size < current->len &&
         XXH3_64bits(current->data, (size_t)expected->size) == expected->hash;
}

/* What is at leaf now: its descriptor (or -1 when missing) and stamp. */
static int fs__current(int dir_fd, const char *leaf, size_t max_bytes, int *fd,
                       EddiFileStamp *stamp, StrBuf *bytes, EddiError *err) {
  memset(stamp, 0, sizeof *stamp);
  eddi_strbuf_clear(bytes);
  *fd = fs__open_read(dir_fd, leaf);
  if (*fd < 0) return errno == ENOENT ? 0 : fs__resolve_error(errno, leaf, err);
  int rc = eddi_fs_stamp_fd(*fd, max_bytes, stamp, bytes, err);
  if (rc < 0) close(*fd), *fd = -1;
  return rc;
}

/* Whether leaf still names the file of old_fd, untouched since stamp (or,
 * with old_fd -1, still names nothing). */
static bool fs__still(int dir_fd, const char *leaf, int old_fd, const EddiFileStamp *stamp) {
  struct stat at_path, through_fd;
  if (old_fd < 0) return fstatat(dir_fd, leaf, &at_path, 0) < 0 && errno == ENOENT;
  if (fstatat(dir_fd, leaf, &at_path, 0) < 0 || fstat(old_fd, &through_fd) < 0) return false;
  return at_path.st_dev == through_fd.st_dev && at_path.st_ino == through_fd.st_ino &&
         fs__untouched(stamp, &through_fd);
}

/* The file changed: report what it holds now. */
static int fs__changed(EddiFsConflict *conflict, const StrBuf *theirs, const EddiFileStamp *stamp,
                       const char *rel, EddiError *err) {
  conflict->changed = true;
  eddi_strbuf_clear(&conflict->theirs);
  if (theirs->len) eddi_strbuf_append(&conflict->theirs, theirs->data, theirs->len);
  conflict->theirs_exist = stamp->exists;
  conflict->stamp = *stamp;
  return eddi_error_set(err, EDDI_ESTALE, "%s changed on disk", rel);
}

/* One replace at work in a folder: where the file is, what to write, and
 * where the outcome goes; fs__replace_in's steps share it. */
typedef struct {
  int dir_fd;              /* the file's folder */
  const char *leaf;        /* its name there (a symlink's target's, once followed) */
  const char *staged;      /* op->staged's leaf in dir_fd, or NULL */
  const EddiFsReplace *op; /* op->rel names the file in replies */
  EddiFsConflict *conflict;
  EddiError *err;
} FsReplaceRun;

/* After the rename, the old file (old_fd) was written to: its bytes are
 * the other writer's. Put them back at the leaf, over eddi's new file
 * (new_fd, stamped ours), unless that changed too. */
static int fs__put_back(const FsReplaceRun *run, int old_fd, int new_fd,
                        const EddiFileStamp *ours) {
  size_t max_bytes = run->op->max_bytes;
  StrBuf theirs = {0};
  EddiFileStamp their_stamp;
  int rc = eddi_fs_stamp_fd(old_fd, max_bytes, &their_stamp, &theirs, run->err);
  struct stat st;
  if (rc == 0 && fstat(old_fd, &st) == 0) {
    FsTemp temp;
    EddiFsStage file = {.rel = run->leaf, .bytes = theirs.data ? theirs.data : "",
                        .len = theirs.len, .mode = st.st_mode & 07777, .sync = EDDI_FS_SYNC_NOW};
    rc = fs__temp_write(run->dir_fd, &file, &temp, run->err);
    if (rc == 0) {
      if (!fs__still(run->dir_fd, run->leaf, new_fd, ours)) {
        unlinkat(run->dir_fd, temp.name, 0);
        rc = eddi_error_set(run->err, EDDI_ESTALE, "%s keeps changing on disk", run->op->rel);
      } else if (renameat(run->dir_fd, temp.name, run->dir_fd, run->leaf) < 0) {
        unlinkat(run->dir_fd, temp.name, 0);
        rc = eddi_error_set(run->err, EDDI_EIO, "Cannot replace file: %s", strerror(errno));
      } else {
        fs__sync_dir(run->dir_fd);
        eddi_fs_stamp_fd(temp.fd, max_bytes, &their_stamp, NULL, run->err);
        rc = fs__changed(run->conflict, &theirs, &their_stamp, run->op->rel, run->err);
      }
      close(temp.fd);
    }
  }
  eddi_strbuf_free(&theirs);
  return rc;
}

/* The temporary file of a replace: the staged one (holding the op's
 * bytes) when there is one and nothing was carried over, else a new one
 * with mine. */
static int fs__replace_temp(const FsReplaceRun *run, bool carried, const StrBuf *mine,
                            FsTemp *temp) {
  if (run->staged) {
    if (!carried) {
      /* O_APPEND: what is carried over before the rename goes after its
       * bytes (opened at 0, it overwrote their start). */
      temp->fd = openat(run->dir_fd, run->staged, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
      if (temp->fd >= 0) {
        snprintf(temp->name, sizeof temp->name, "%s", run->staged);
        return 0;
      }
    }
    /* The staged bytes lack what was carried over: a new temp takes them. */
    unlinkat(run->dir_fd, run->staged, 0);
  }
  EddiFsStage file = {.rel = run->leaf, .bytes = mine->data ? mine->data : "", .len = mine->len,
                      .mode = run->op->mode, .sync = EDDI_FS_SYNC_NOW};
  return fs__temp_write(run->dir_fd, &file, temp, run->err);
}

/* After the exchange of eddi's new file with the one at the leaf, the
 * temporary name holds the file that was there: the one eddi checked
 * (old_fd), which goes; or one that another writer renamed in after the
 * check, which is exchanged back to the leaf and reported (EDDI_ESTALE,
 * its bytes in run->conflict) while eddi's goes. *old_fd is then that
 * writer's file. */
static int fs__exchanged(const FsReplaceRun *run, int *old_fd, EddiFileStamp *now,
                         StrBuf *current, const char *temp_name) {
  struct stat replaced, checked;
  if (fstatat(run->dir_fd, temp_name, &replaced, AT_SYMLINK_NOFOLLOW) == 0 &&
      fstat(*old_fd, &checked) == 0 && replaced.st_dev == checked.st_dev &&
      replaced.st_ino == checked.st_ino) {
    unlinkat(run->dir_fd, temp_name, 0);
    return 0;
  }
  if (renameat2(run->dir_fd, temp_name, run->dir_fd, run->leaf, RENAME_EXCHANGE) < 0)
    return eddi_error_set(run->err, EDDI_EIO, "Cannot put back %s: %s", run->op->rel,
                          strerror(errno));
  unlinkat(run->dir_fd, temp_name, 0);
  close(*old_fd);
  int rc = fs__current(run->dir_fd, run->leaf, run->op->max_bytes, old_fd, now, current, run->err);
  if (rc == 0) rc = fs__changed(run->conflict, current, now, run->op->rel, run->err);
  return rc;
}

/* The replace of run->leaf in the folder run->dir_fd. */
static int fs__replace_in(const FsReplaceRun *run, EddiFileStamp *written) {
  int dir_fd = run->dir_fd;
  const char *leaf = run->leaf, *rel = run->op->rel;
  const EddiFileStamp *expected = run->op->expected;
  size_t max_bytes = run->op->max_bytes;
  EddiFsConflict *conflict = run->conflict;
  EddiError *err = run->err;
  conflict->changed = conflict->theirs_exist = false;
  eddi_strbuf_clear(&conflict->theirs);
  int rc = 0;
  int old_fd = -1;
  EddiFileStamp now;
  StrBuf current = {0}, mine = {0};
  FsTemp temp = {.fd = -1, .name = ""};

  FsWatch watch = {-1, -1, 0, 0, 0};
  bool carried = false;
  int turn_fd = fs__turn_take(dir_fd);
  rc = fs__current(dir_fd, leaf, max_bytes, &old_fd, &now, &current, err);
  if (rc == 0) fs__watch_start(&watch, old_fd);
  eddi_strbuf_append(&mine, run->op->bytes, run->op->len);
  if (rc == 0 && !eddi_fs_stamp_same(&now, expected)) {
    /* Appended to since eddi read it: eddi's bytes take the tail too. */
    if (fs__grew_from(&current, expected)) {
      eddi_strbuf_append(&mine, current.data + expected->size,
                         current.len - (size_t)expected->size);
      carried = true;
    } else {
      rc = fs__changed(conflict, &current, &now, rel, err);
    }
  }
  if (rc == 0)
    rc = fs__replace_temp(run, carried, &mine, &temp);
  else if (run->staged)
    unlinkat(dir_fd, run->staged, 0);
  if (rc < 0) goto done;

  /* Just before the rename: the same file, untouched, and no writer in it.
   * An append that lands meanwhile goes into the new file too. */
  bool quiet = false;
  for (int tries = 0;; tries++) {
    quiet = fs__quiet(old_fd);
    if (quiet) fs__watch_reset(&watch);
    if (fs__still(dir_fd, leaf, old_fd, &now)) break;
    fs__unquiet(old_fd, quiet);
    StrBuf later = {0};
    EddiFileStamp later_stamp;
    bool appended = false;
    struct stat at_path, through_fd;
    if (old_fd >= 0 && tries < EDDI_FS_REPLACE_TRIES && fstatat(dir_fd, leaf, &at_path, 0) == 0 &&
        fstat(old_fd, &through_fd) == 0 && at_path.st_ino == through_fd.st_ino &&
        at_path.st_dev == through_fd.st_dev &&
        eddi_fs_stamp_fd(old_fd, max_bytes, &later_stamp, &later, err) == 0)
      appended = later.len > current.len && memcmp(later.data, current.data ? current.data : "",
                                                  current.len) == 0;
    if (appended && fs__write_all(temp.fd, later.data + current.len, later.len - current.len) == 0 &&
        fsync(temp.fd) == 0) {
      eddi_strbuf_append(&mine, later.data + current.len, later.len - current.len);
      eddi_strbuf_free(&current);
      current = later;
      now = later_stamp;
      carried = true;
      continue;
    }
    eddi_strbuf_free(&later);
    unlinkat(dir_fd, temp.name, 0);
    if (old_fd >= 0) close(old_fd);
    rc = fs__current(dir_fd, leaf, max_bytes, &old_fd, &now, &current, err);
    if (rc == 0) rc = fs__changed(conflict, &current, &now, rel, err);
    goto done;
  }
  /* A file that did not exist must not be created over one that appeared;
   * one that did is exchanged, so that the file replaced is in hand (a
   * file system without exchanges renames over it). */
  unsigned flags = old_fd < 0 ? RENAME_NOREPLACE : RENAME_EXCHANGE;
  int renamed = renameat2(dir_fd, temp.name, dir_fd, leaf, flags);
  if (renamed < 0 && flags == RENAME_EXCHANGE && errno == EINVAL)
    renamed = renameat2(dir_fd, temp.name, dir_fd, leaf, flags = 0);
  int rename_errno = errno;
  if (fs__unquiet(old_fd, quiet) && watch.fd >= 0) watch.awaited++;
  if (renamed < 0) {
    int error = rename_errno;
    unlinkat(dir_fd, temp.name, 0);
    if (error == EEXIST) {
      rc = fs__current(dir_fd, leaf, max_bytes, &old_fd, &now, &current, err);
      if (rc == 0) rc = fs__changed(conflict, &current, &now, rel, err);
    } else {
      rc = eddi_error_set(err, EDDI_EIO, "Cannot replace file: %s", strerror(error));
    }
    goto done;
  }
  if (flags == RENAME_EXCHANGE) {
    rc = fs__exchanged(run, &old_fd, &now, &current, temp.name);
    if (rc < 0) goto done;
  }
  if (run->op->sync == EDDI_FS_SYNC_NOW) fs__sync_dir(dir_fd);
  fs__watch_settle(&watch); /* a late writer of the old file is done */
  if (run->op->sync == EDDI_FS_SYNC_NOW) fs__sweep(dir_fd);
  /* Right after: a write that reached the old file in between is theirs.
   * An append is carried over to the new file (appended there, as the
   * writer meant); any other change is put back and refused. */
  /* mine is what eddi wrote: its bytes and the appends it carried over. A
   * write that reaches the new file afterwards is not eddi's, and the stamp
   * must not say it is, or the next replace would write over it unseen. */
  for (int tries = 0; old_fd >= 0; tries++) {
    struct stat after;
    if (fstat(old_fd, &after) < 0 || fs__untouched(&now, &after)) break;
    StrBuf later = {0};
    EddiFileStamp later_stamp;
    rc = eddi_fs_stamp_fd(old_fd, max_bytes, &later_stamp, &later, err);
    bool appended = rc == 0 && later.len >= current.len &&
                    memcmp(later.data ? later.data : "", current.data ? current.data : "",
                           current.len) == 0;
    if (appended && tries < EDDI_FS_REPLACE_TRIES) {
      int fd_flags = fcntl(temp.fd, F_GETFL);
      if (fd_flags < 0 || fcntl(temp.fd, F_SETFL, fd_flags | O_APPEND) < 0 ||
          fs__write_all(temp.fd, later.data + current.len, later.len - current.len) < 0 ||
          fsync(temp.fd) < 0)
        rc = eddi_error_set(err, EDDI_EIO, "Write failed: %s", strerror(errno));
      eddi_strbuf_append(&mine, later.data + current.len, later.len - current.len);
      eddi_strbuf_free(&current);
      current = later;
      now = later_stamp;
      carried = true;
      if (rc < 0) goto done;
      continue;
    }
    eddi_strbuf_free(&later);
    EddiFileStamp ours;
    eddi_fs_stamp_fd(temp.fd, max_bytes, &ours, NULL, err);
    rc = fs__put_back(run, old_fd, temp.fd, &ours);
    goto done;
  }
  struct stat st;
  if (fstat(temp.fd, &st) < 0) {
    rc = eddi_error_set(err, EDDI_EIO, "Cannot stat: %s", strerror(errno));
    goto done;
  }
  *written = (EddiFileStamp){true, st.st_dev, st.st_ino, (off_t)mine.len, st.st_mtim,
                             XXH3_64bits(mine.data ? mine.data : "", mine.len)};
  if (carried) {
    conflict->changed = conflict->theirs_exist = true;
    eddi_strbuf_append(&conflict->theirs, mine.data ? mine.data : "", mine.len);
    conflict->stamp = *written;
  }

done:
  eddi_strbuf_free(&mine);
  fs__watch_stop(&watch);
  fs__turn_give(turn_fd);
  if (old_fd >= 0) close(old_fd);
  if (temp.fd >= 0) close(temp.fd);
  eddi_strbuf_free(&current);
  return rc;
}

/* The path of the file descriptor fd opened (from /proc), into out. */
static bool fs__fd_path(int fd, char *out, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, out, size - 1);
  if (n <= 0 || (size_t)n >= size - 1) return false;
  out[n] = '\0';
  return true;
}

/* When leaf of dir_fd is a symlink to a file inside the workspace: that
 * file's workspace path, into target. A write goes to the file the link
 * leads to, as an editor's save does: renamed over the link itself, the
 * new bytes would take its place and the file it led to keep its old
 * ones. A link that leads out, or nowhere, is not followed (the open
 * beneath the root refuses the one; the new file is renamed over the
 * other, as over any file). */
static bool fs__link_target(int root_fd, int dir_fd, const char *rel, char *target,
                            size_t size) {
  struct stat st;
  const char *leaf = fs__leaf(rel);
  if (fstatat(dir_fd, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode)) return false;
  /* Beneath the link's folder, else beneath the root, as Open reads it: a
   * link whose target goes up a folder ("../b/f") still leads inside. */
  int fd = fs__open_beneath(dir_fd, leaf, O_PATH, 0);
  if (fd < 0) fd = fs__open_beneath(root_fd, rel, O_PATH, 0);
  if (fd < 0) return false;
  char root[EDDI_FS_PATH_MAX], file[EDDI_FS_PATH_MAX];
  bool found = fs__fd_path(root_fd, root, sizeof root) && fs__fd_path(fd, file, sizeof file) &&
               fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  close(fd);
  size_t root_len = strlen(root);
  if (!found || strncmp(file, root, root_len) != 0 || file[root_len] != '/') return false;
  snprintf(target, size, "%s", file + root_len + 1);
  return true;
}

bool eddi_fs_link_target(int root_fd, const char *rel, char *target, size_t size) {
  int dir_fd;
  const char *leaf;
  EddiError ignored;
  if (eddi_fs_parent_open(root_fd, rel, false, &dir_fd, &leaf, &ignored) < 0) return false;
  bool link = fs__link_target(root_fd, dir_fd, rel, target, size);
  close(dir_fd);
  return link;
}

/* Follow a symlink at run's leaf to the file it leads to (see
 * fs__link_target): run's folder and leaf become the target's (the folder
 * opened: *opened, for the caller to close; the leaf in target); the
 * staged bytes beside the link go, the target's folder takes a temporary
 * file of its own (a rename stays in one folder). */
static int fs__follow(int root_fd, FsReplaceRun *run, char *target, size_t size, bool *opened) {
  *opened = false;
  if (!fs__link_target(root_fd, run->dir_fd, run->op->rel, target, size)) return 0;
  if (run->staged) unlinkat(run->dir_fd, run->staged, 0);
  run->staged = NULL;
  int target_dir_fd;
  int rc = eddi_fs_parent_open(root_fd, target, false, &target_dir_fd, &run->leaf, run->err);
  if (rc < 0) return rc;
  run->dir_fd = target_dir_fd;
  *opened = true;
  return 0;
}

int eddi_fs_replace(int root_fd, const EddiFsReplace *op, EddiFileStamp *written,
                    EddiFsConflict *conflict, EddiError *err) {
  int rc = fs__out_of_memory(err);
  if (rc < 0) return rc;
  FsReplaceRun run = {.staged = op->staged ? fs__leaf(op->staged) : NULL,
                      .op = op,
                      .conflict = conflict,
                      .err = err};
  rc = eddi_fs_parent_open(root_fd, op->rel, true, &run.dir_fd, &run.leaf, err);
  if (rc < 0) return rc;
  int link_dir_fd = run.dir_fd;
  char target[EDDI_FS_PATH_MAX];
  bool followed;
  rc = fs__follow(root_fd, &run, target, sizeof target, &followed);
  if (followed) close(link_dir_fd);
  if (rc == 0) rc = fs__replace_in(&run, written);
  close(run.dir_fd);
  return rc;
}

int eddi_fs_replace_in(int root_fd, int dir_fd, const EddiFsReplace *op,
                       EddiFileStamp *written, EddiFsConflict *conflict, EddiError *err) {
  int rc = fs__out_of_memory(err);
  if (rc < 0) return rc;
  FsReplaceRun run = {.dir_fd = dir_fd,
                      .leaf = fs__leaf(op->rel),
                      .staged = op->staged ? fs__leaf(op->staged) : NULL,
                      .op = op,
                      .conflict = conflict,
                      .err = err};
  char target[EDDI_FS_PATH_MAX];
  bool followed;
  rc = fs__follow(root_fd, &run, target, sizeof target, &followed);
  if (rc == 0) rc = fs__replace_in(&run, written);
  if (followed) close(run.dir_fd);
  return rc;
}

int eddi_fs_unlink_in(int dir_fd, const char *rel, const EddiFileStamp *expected,
                      size_t max_bytes, EddiError *err) {
  const char *leaf = fs__leaf(rel);
  int rc = fs__out_of_memory(err), fd;
  if (rc < 0) return rc;
  EddiFileStamp now;
  StrBuf current = {0};
  rc = fs__current(dir_fd, leaf, max_bytes, &fd, &now, &current, err);
  if (rc == 0 && (!eddi_fs_stamp_same(&now, expected) || !fs__still(dir_fd, leaf, fd, &now)))
    rc = eddi_error_set(err, EDDI_ESTALE, "%s changed on disk", rel);
  if (rc == 0 && unlinkat(dir_fd, leaf, 0) < 0)
    rc = eddi_error_set(err, EDDI_EIO, "Cannot delete %s: %s", rel, strerror(errno));
  if (rc == 0) fs__sync_dir(dir_fd);
  if (fd >= 0) close(fd);
  eddi_strbuf_free(&current);
  return rc;
}

int eddi_fs_unlink(int root_fd, const char *rel, const EddiFileStamp *expected,
                   size_t max_bytes, EddiError *err) {
  int dir_fd;
  const char *leaf;
  int rc = eddi_fs_parent_open(root_fd, rel, false, &dir_fd, &leaf, err);
  if (rc < 0) return rc;
  rc = eddi_fs_unlink_in(dir_fd, rel, expected, max_bytes, err);
  close(dir_fd);
  return rc;
}

bool eddi_fs_folder_inside(int root_fd, int dir_fd) {
  struct stat root, at_stat, up_stat;
  if (fstat(root_fd, &root) < 0) return false;
  bool inside = false;
  int at = dup(dir_fd);
  /* Up by "..", never through a symlink, until the root or "/" (its own
   * parent); a folder deeper than a path may be is not walked. */
  for (int depth = 0; at >= 0 && depth <= EDDI_FS_DEPTH_MAX && !inside; depth++) {
    if (fstat(at, &at_stat) < 0) break;
    inside = at_stat.st_dev == root.st_dev && at_stat.st_ino == root.st_ino;
    if (inside) break;
    int up = openat(at, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
    bool top = up < 0 || fstat(up, &up_stat) < 0 ||
               (up_stat.st_dev == at_stat.st_dev && up_stat.st_ino == at_stat.st_ino);
    close(at);
    at = up;
    if (top) break;
  }
  if (at >= 0) close(at);
  return inside;
}

/* ------------------------------------------------------------ staged changes */

/* The workspace path of leaf in the folder of rel, into out. */
static void fs__beside(const char *rel, const char *leaf, char *out, size_t out_size) {
  const char *slash = strrchr(rel, '/');
  if (slash) snprintf(out, out_size, "%.*s/%s", (int)(slash - rel), rel, leaf);
  else snprintf(out, out_size, "%s", leaf);
}

int eddi_fs_stage_in(int dir_fd, const EddiFsStage *op, char *temp, size_t temp_size,
                     EddiError *err) {
  FsTemp file;
  int rc = fs__temp_write(dir_fd, op, &file, err);
  if (rc == 0) {
    close(file.fd);
    if (op->sync == EDDI_FS_SYNC_NOW) fs__sync_dir(dir_fd);
    fs__beside(op->rel, file.name, temp, temp_size);
  }
  return rc;
}

int eddi_fs_stage(int root_fd, const EddiFsStage *op, char *temp, size_t temp_size,
                  EddiError *err) {
  int rc = fs__out_of_memory(err);
  if (rc < 0) return rc;
  int dir_fd;
  const char *leaf;
  rc = eddi_fs_parent_open(root_fd, op->rel, true, &dir_fd, &leaf, err);
  if (rc < 0) return rc;
  rc = eddi_fs_stage_in(dir_fd, op, temp, temp_size, err);
  close(dir_fd);
  return rc;
}

/* A link to rel's file (in dir_fd) under a temporary name in to_fd;
 * that name into name. */
static int fs__link_backup(int dir_fd, const char *rel, int to_fd, EddiFsSync sync, char *name,
                           size_t name_size, EddiError *err) {
  int rc = fs__out_of_memory(err);
  if (rc < 0) return rc;
  const char *leaf = fs__leaf(rel);
  /* The link is made under a fresh temporary name directly: reserving the
   * name with a file first would cost an inode made and freed per file. */
  int linked = -1;
  for (int attempt = 0; attempt < EDDI_FS_REPLACE_TRIES && linked < 0; attempt++) {
    fs__temp_name(leaf, attempt, name, name_size);
    linked = linkat(dir_fd, leaf, to_fd, name, 0);
    if (linked < 0 && errno != EEXIST) break;
  }
  if (linked < 0)
    return eddi_error_set(err, errno == ENOENT ? EDDI_ENOENT : EDDI_EIO, "Cannot back up %s: %s",
                          rel, strerror(errno));
  if (sync == EDDI_FS_SYNC_NOW) fs__sync_dir(to_fd);
  return 0;
}

int eddi_fs_backup_in(int dir_fd, const char *rel, EddiFsSync sync, char *backup,
                      size_t backup_size, EddiError *err) {
  char name[EDDI_FS_PATH_MAX];
  int rc = fs__link_backup(dir_fd, rel, dir_fd, sync, name, sizeof name, err);
  if (rc == 0) fs__beside(rel, name, backup, backup_size);
  return rc;
}

int eddi_fs_backup_at_root(int root_fd, int dir_fd, const char *rel, EddiFsSync sync,
                           char *backup, size_t backup_size, EddiError *err) {
  int rc = fs__link_backup(dir_fd, rel, root_fd, sync, backup, backup_size, err);
  if (rc == 0 && !backup[0]) rc = eddi_error_set(err, EDDI_EIO, "Cannot back up %s", rel);
  return rc;
}

static int fs__backup(int root_fd, const char *rel, EddiFsSync sync, char *backup,
                      size_t backup_size, EddiError *err) {
  int dir_fd;
  const char *leaf;
  int rc = eddi_fs_parent_open(root_fd, rel, false, &dir_fd, &leaf, err);
  if (rc < 0) return rc;
  rc = eddi_fs_backup_in(dir_fd, rel, sync, backup, backup_size, err);
  close(dir_fd);
  return rc;
}

int eddi_fs_backup(int root_fd, const char *rel, char *backup, size_t backup_size,
                   EddiError *err) {
  return fs__backup(root_fd, rel, EDDI_FS_SYNC_NOW, backup, backup_size, err);
}

int eddi_fs_sync_all(int root_fd, EddiError *err) {
  /* root_fd is O_PATH: syncfs needs a descriptor it can use. */
  int fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return eddi_error_set(err, EDDI_EIO, "Cannot sync: %s", strerror(errno));
  int rc = syncfs(fd) < 0 ? eddi_error_set(err, EDDI_EIO, "syncfs failed: %s", strerror(errno)) : 0;
  close(fd);
  return rc;
}

int eddi_fs_sync_file(int root_fd, const char *rel, EddiError *err) {
  int fd = fs__open_read(root_fd, rel);
  if (fd < 0) return fs__resolve_error(errno, rel, err);
  int rc = fsync(fd) < 0 ? eddi_error_set(err, EDDI_EIO, "fsync failed: %s", strerror(errno)) : 0;
  close(fd);
  return rc;
}

int eddi_fs_sync_folder(int root_fd, const char *rel, EddiError *err) {
  int dir_fd;
  const char *leaf;
  int rc = eddi_fs_parent_open(root_fd, rel, false, &dir_fd, &leaf, err);
  if (rc < 0) return rc;
  /* The parent's descriptor is O_PATH: fsync needs one opened for reading. */
  int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) < 0)
    rc = eddi_error_set(err, EDDI_EIO, "fsync failed: %s", strerror(errno));
  if (fd >= 0) close(fd);
  close(dir_fd);
  return rc;
}

void eddi_fs_settle_folder(int root_fd, const char *rel) {
  int dir_fd;
  const char *leaf;
  EddiError ignored;
  if (eddi_fs_parent_open(root_fd, rel, false, &dir_fd, &leaf, &ignored) < 0) return;
  fs__sync_dir(dir_fd);
  fs__sweep(dir_fd);
  close(dir_fd);
}

int eddi_fs_hash(int root_fd, const char *rel, size_t max_bytes, bool *exists, uint64_t *hash) {
  EddiError ignored;
  EddiFileStamp stamp = {0};
  StrBuf bytes = {0};
  int rc = eddi_fs_read(root_fd, rel, max_bytes, &bytes, &stamp, NULL, &ignored);
  eddi_strbuf_free(&bytes);
  *exists = stamp.exists;
  *hash = stamp.hash;
  return rc == EDDI_ENOENT ? 0 : rc;
}

int eddi_fs_rename(int root_fd, const char *from, const char *to, EddiError *err) {
  int dir_fd;
  const char *leaf;
  int rc = fs__out_of_memory(err);
  if (rc == 0) rc = eddi_fs_parent_open(root_fd, to, false, &dir_fd, &leaf, err);
  if (rc < 0) return rc;
  const char *from_leaf = strrchr(from, '/');
  from_leaf = from_leaf ? from_leaf + 1 : from;
  if (renameat(dir_fd, from_leaf, dir_fd, leaf) < 0)
    rc = eddi_error_set(err, EDDI_EIO, "Cannot rename %s: %s", from, strerror(errno));
  else
    fs__sync_dir(dir_fd);
  close(dir_fd);
  return rc;
}

void eddi_fs_remove(int root_fd, const char *rel) {
  int dir_fd;
  const char *leaf;
  EddiError ignored;
  if (fs__out_of_memory(&ignored) < 0 ||
      eddi_fs_parent_open(root_fd, rel, false, &dir_fd, &leaf, &ignored) < 0)
    return;
  unlinkat(dir_fd, leaf, 0);
  close(dir_fd);
}

size_t eddi_fs_sweep_folder(int root_fd, const char *rel_dir) {
  int dir_fd;
  if (rel_dir[0]) {
    EddiError ignored;
    if (eddi_fs_open(root_fd, rel_dir, O_RDONLY | O_DIRECTORY, 0, &dir_fd, &ignored) < 0) return 0;
  } else {
    dir_fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) return 0;
  }
  size_t removed = fs__sweep_now(dir_fd);
  close(dir_fd);
  return removed;
}
