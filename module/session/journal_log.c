/* journal_log.c - the journal's redo log: a command's journal rows reach
 * the disk with one write(2) before the reply, and SQLite on a thread of
 * the journal's own after it.
 *
 * Why: a one-line Insert's rows committed to SQLite on the command's path
 * cost 15-30 us (a transaction: six lock calls, two WAL frames, the
 * B-tree work), a fifth of the server's whole round trip. What a kill -9
 * must not lose needs only to be in the kernel's hands, which one append
 * to a file of this process's own does (the same promise as SQLite's WAL
 * with synchronous=NORMAL: a power cut may lose the last commands, a
 * crash of eddi none). So each sync's statements and values (a record,
 * built with the eddi_redo_* calls) are framed, appended to the log, and
 * queued; the applier thread runs the queued records in one SQLite
 * transaction, and notes in it how far into the log it got (redo_logs).
 *
 * The log: redo-<pid>-<nonce>.<generation>.log in the state folder, held
 * with flock(2) for the process's life, so that another process can tell
 * a dead writer's log (the lock is free) from a live one's. Its first
 * frame names the writer (pid, host). When a generation grows past
 * REDO_GENERATION_BYTES and everything in it is applied, the applier opens
 * the next one, records the switch in SQLite, then removes the old file:
 * at every moment the file set and redo_logs say exactly what is left.
 *
 * On open, the logs of dead processes are applied (from where redo_logs
 * says their applier stopped) and removed, before the journal gives back
 * any session. A takeover of an instance found dead by liveness (stopped,
 * not gone) applies that process's log first too, without its lock.
 *
 * A record belongs to one session; it is applied only while that session's
 * row is absent or still held by the record's writer, so that a stopped
 * process's records, applied when it comes back, cannot overwrite the
 * session of the instance that took it over. A record that claims the
 * session (its row written anew, at Start) is applied at once, before the
 * reply, unless another live writer claimed it first (redo__may_apply).
 *
 * Frames: a 4-byte length and an 8-byte XXH3 of the payload, little
 * endian, then the payload. A payload is fields, each a 4-byte length, a
 * type byte and its bytes (S session, C claims, Q statement, then its
 * values: i 8-byte integer, t text, b bytes, n null; H a header: its pid
 * and host follow as i and t). A frame cut short (kill -9 during the
 * append: its command never replied) ends the log; one whose hash is wrong
 * ends it too and is reported.
 *
 * What is found in the state folder is not trusted: only regular files of
 * this user's are read as logs (a FIFO there would hold the start), a log
 * is applied only while it is still the file its name gives (another start
 * may have applied and removed it meanwhile), and a log is applied from
 * where redo_logs says, by whoever gets there first: its writer's applier
 * skips what a taker applied. An append the disk takes only part of is cut
 * back; a record neither the log nor SQLite takes leaves its session's
 * later records out (see JournalLog.lost).
 *
 * Longer than most files: the writer, its applier thread and the replay of
 * other processes' logs share the frames, the records' application and the
 * redo_logs notes, which are not for anyone else.
 */
#define _GNU_SOURCE /* memrchr */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/fs.h"
#include "session/journal.h"

/* A generation is closed and a new one begun past this many bytes, once
 * everything in it is applied. */
#define REDO_GENERATION_BYTES ((uint64_t)8 << 20)
/* Frame header: payload length (4) and its hash (8). */
#define REDO_FRAME_HEAD 12
/* A record longer than a frame's length can say is committed on the
 * command's path instead. */
#define REDO_RECORD_MAX ((size_t)UINT32_MAX)
/* Statements kept prepared by an applier (a sync uses about twenty). */
#define REDO_STATEMENTS_MAX 64
/* An applier whose transaction fails (the disk is full, a lock held past
 * the busy timeout) tries the same records again after this pause. */
#define REDO_RETRY_MS 50
/* The applier gathers records this long after the first of a batch (or
 * until this many are queued, or someone waits for them): a batch costs one
 * commit, and a stream of commands no wake-up each. */
#define REDO_GATHER_MS 10
#define REDO_GATHER_RECORDS 512
/* A flush waits at most this long for the applier (it may be failing). */
#define REDO_FLUSH_WAIT_MS 10000
/* The most of another process's log a start reads (a generation closes
 * past 8 MiB; one record may take it further, never this far). */
#define REDO_LOG_READ_MAX ((size_t)1 << 40)
/* Room for a log's file name. */
#define REDO_NAME_MAX 96
#define REDO_MAGIC "eddi-redo"

/* ------------------------------------------------------------ records */

static void redo__field(StrBuf *out, char type, const void *bytes, size_t len) {
  uint32_t size = (uint32_t)len + 1;
  unsigned char head[5] = {(unsigned char)size, (unsigned char)(size >> 8),
                           (unsigned char)(size >> 16), (unsigned char)(size >> 24),
                           (unsigned char)type};
  eddi_strbuf_append(out, (const char *)head, sizeof head);
  eddi_strbuf_append(out, bytes ? bytes : "", len);
}

static void redo__u64(unsigned char *out, uint64_t value) {
  for (int i = 0; i < 8; i++) out[i] = (unsigned char)(value >> (8 * i));
}

static uint64_t redo__read_u64(const unsigned char *in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; i++) value |= (uint64_t)in[i] << (8 * i);
  return value;
}

void eddi_redo_begin(StrBuf *record, const char *session, bool claims) {
  redo__field(record, 'S', session, strlen(session));
  if (claims) redo__field(record, 'C', NULL, 0);
}

void eddi_redo_sql(StrBuf *record, const char *sql) { redo__field(record, 'Q', sql, strlen(sql)); }

void eddi_redo_int(StrBuf *record, int64_t value) {
  unsigned char bytes[8];
  redo__u64(bytes, (uint64_t)value);
  redo__field(record, 'i', bytes, sizeof bytes);
}

void eddi_redo_text(StrBuf *record, const char *text) {
  if (!text) redo__field(record, 'n', NULL, 0);
  else redo__field(record, 't', text, strlen(text));
}

void eddi_redo_blob(StrBuf *record, const void *bytes, size_t len) {
  redo__field(record, 'b', bytes, len);
}

void eddi_redo_null(StrBuf *record) { redo__field(record, 'n', NULL, 0); }

/* The field at *at of payload: its type and bytes; false at the end or
 * when it runs past the payload. */
static bool redo__next(const char *payload, size_t len, size_t *at, char *type,
                       const char **bytes, size_t *n) {
  if (*at > len || len - *at < 5) return false;
  const unsigned char *head = (const unsigned char *)payload + *at;
  size_t size = head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
  if (size < 1 || size > len - *at - 4) return false;
  *type = (char)head[4];
  *bytes = payload + *at + 5;
  *n = size - 1;
  *at += 4 + size;
  return true;
}

/* ------------------------------------------------------------ applying */

/* An applier's prepared statements, by their text. */
typedef struct {
  char *sql[REDO_STATEMENTS_MAX];
  sqlite3_stmt *stmt[REDO_STATEMENTS_MAX];
  size_t count;
} RedoStatements;

static void redo__statements_free(RedoStatements *self) {
  for (size_t i = 0; i < self->count; i++) {
    sqlite3_finalize(self->stmt[i]);
    eddi_free(self->sql[i]);
  }
  self->count = 0;
}

/* The prepared statement of sql (n bytes); *owned when the caller must
 * finalize it (the cache is full). */
static sqlite3_stmt *redo__prepare(sqlite3 *db, RedoStatements *cache, const char *sql, size_t n,
                                   bool *owned) {
  *owned = false;
  for (size_t i = 0; i < cache->count; i++)
    if (strlen(cache->sql[i]) == n && memcmp(cache->sql[i], sql, n) == 0) {
      sqlite3_reset(cache->stmt[i]);
      sqlite3_clear_bindings(cache->stmt[i]);
      return cache->stmt[i];
    }
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v3(db, sql, (int)n, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    return NULL;
  if (cache->count == REDO_STATEMENTS_MAX) {
    *owned = true;
    return stmt;
  }
  cache->sql[cache->count] = eddi_strndup(sql, n);
  cache->stmt[cache->count++] = stmt;
  return stmt;
}

/* Who wrote a record: the process (pid, host) and its log's name (NULL
 * when not known). */
typedef struct {
  long pid;
  const char *host;
  const char *log;
  EddiJournal *journal; /* to ask whether another log is held */
} RedoWriter;

/* Whether a record of writer for session may be applied, by the
 * session's row. A change: while the row is absent or held by writer (by
 * its log when the row names one, as a pid may be another process's
 * since; else by pid and host), so that a stopped process's records,
 * applied when it comes back, cannot overwrite the session of the instance
 * that took it over. A claim (the row written anew): unless the row names
 * another writer whose log is held, that is, two processes started the
 * session at once, each finding no live holder, and this claim comes
 * second; its process, checking after it, keeps the session in memory. */
static bool redo__may_apply(sqlite3 *db, RedoStatements *cache, const char *session, size_t n,
                            bool claims, const RedoWriter *writer) {
  static const char sql[] = "SELECT owner_pid, owner_host, owner_log FROM sessions WHERE name=?";
  bool owned;
  sqlite3_stmt *stmt = redo__prepare(db, cache, sql, sizeof sql - 1, &owned);
  if (!stmt) return false;
  sqlite3_bind_text(stmt, 1, session, (int)n, SQLITE_STATIC);
  bool may = true;
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *owner_host = (const char *)sqlite3_column_text(stmt, 1);
    const char *owner_log = (const char *)sqlite3_column_text(stmt, 2);
    bool writers = owner_log ? writer->log && strcmp(owner_log, writer->log) == 0
                             : sqlite3_column_int64(stmt, 0) == writer->pid && owner_host &&
                                   strcmp(owner_host, writer->host) == 0;
    if (!claims) may = writers;
    else if (owner_log && !writers && writer->log && writer->journal)
      may = !eddi_journal_log_held(writer->journal, owner_log);
  }
  if (owned) sqlite3_finalize(stmt);
  else sqlite3_reset(stmt);
  return may;
}

/* Bind value (type, bytes) as parameter column of stmt; false for a type
 * that is not a value. */
static bool redo__bind(sqlite3_stmt *stmt, int column, char type, const char *bytes, size_t n) {
  switch (type) {
  case 'i':
    if (n != 8) return false;
    return sqlite3_bind_int64(stmt, column, (sqlite3_int64)redo__read_u64((const unsigned char *)bytes)) == SQLITE_OK;
  case 't': return sqlite3_bind_text64(stmt, column, bytes, n, SQLITE_STATIC, SQLITE_UTF8) == SQLITE_OK;
  case 'b': return sqlite3_bind_blob64(stmt, column, bytes, n, SQLITE_STATIC) == SQLITE_OK;
  case 'n': return sqlite3_bind_null(stmt, column) == SQLITE_OK;
  default: return false;
  }
}

/* Run the statement being bound, if any; false when it fails. */
static bool redo__step(sqlite3_stmt **stmt, bool *owned) {
  if (!*stmt) return true;
  bool done = sqlite3_step(*stmt) == SQLITE_DONE;
  if (*owned) sqlite3_finalize(*stmt);
  else sqlite3_reset(*stmt);
  *stmt = NULL;
  *owned = false;
  return done;
}

/* Apply one record of the writer pid of host in db's open transaction.
 * 1 when applied, 0 when skipped (its session is held by another now), -1
 * when a statement failed or the record is malformed (its statements are
 * then undone). */
static int redo__apply(sqlite3 *db, RedoStatements *cache, const char *payload, size_t len,
                       const RedoWriter *writer) {
  size_t at = 0, n;
  char type;
  const char *bytes;
  if (!redo__next(payload, len, &at, &type, &bytes, &n) || type != 'S') return -1;
  const char *session = bytes;
  size_t session_len = n;
  size_t body = at;
  bool claims = redo__next(payload, len, &at, &type, &bytes, &n) && type == 'C';
  if (!claims) at = body;
  if (!redo__may_apply(db, cache, session, session_len, claims, writer)) return 0;
  if (sqlite3_exec(db, "SAVEPOINT redo_record", NULL, NULL, NULL) != SQLITE_OK) return -1;
  sqlite3_stmt *stmt = NULL;
  bool owned = false, good = true;
  int column = 0;
  while (good && at < len) {
    if (!redo__next(payload, len, &at, &type, &bytes, &n)) {
      good = false;
    } else if (type == 'Q') {
      good = redo__step(&stmt, &owned) && eddi_journal_statement_known(bytes, n);
      stmt = good ? redo__prepare(db, cache, bytes, n, &owned) : NULL;
      good = good && stmt;
      column = 0;
    } else {
      good = stmt && redo__bind(stmt, ++column, type, bytes, n);
    }
  }
  good = redo__step(&stmt, &owned) && good;
  if (!good) sqlite3_exec(db, "ROLLBACK TO redo_record", NULL, NULL, NULL);
  sqlite3_exec(db, "RELEASE redo_record", NULL, NULL, NULL);
  return good ? 1 : -1;
}

/* Note in db's open transaction that log name is applied up to offset of
 * generation. */
static bool redo__note_applied(sqlite3 *db, RedoStatements *cache, const char *name,
                               uint64_t generation, uint64_t offset) {
  static const char sql[] =
      "INSERT OR REPLACE INTO redo_logs(name, generation, applied) VALUES(?,?,?)";
  bool owned;
  sqlite3_stmt *stmt = redo__prepare(db, cache, sql, sizeof sql - 1, &owned);
  if (!stmt) return false;
  sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64(stmt, 2, (sqlite3_int64)generation);
  sqlite3_bind_int64(stmt, 3, (sqlite3_int64)offset);
  bool done = sqlite3_step(stmt) == SQLITE_DONE;
  if (owned) sqlite3_finalize(stmt);
  else sqlite3_reset(stmt);
  return done;
}

/* ------------------------------------------------------------ frames */

static void redo__frame_head(unsigned char *head, const char *payload, size_t len) {
  uint32_t size = (uint32_t)len;
  for (int i = 0; i < 4; i++) head[i] = (unsigned char)(size >> (8 * i));
  redo__u64(head + 4, XXH3_64bits(payload, len));
}

static void redo__frame(StrBuf *out, const char *payload, size_t len) {
  unsigned char head[REDO_FRAME_HEAD];
  redo__frame_head(head, payload, len);
  eddi_strbuf_append(out, (const char *)head, sizeof head);
  eddi_strbuf_append(out, payload, len);
}

void eddi_redo_frame(StrBuf *out, const char *payload, size_t len) { redo__frame(out, payload, len); }

void eddi_redo_header_frame(StrBuf *out, long pid, const char *host) {
  StrBuf header = {0};
  redo__field(&header, 'H', REDO_MAGIC, strlen(REDO_MAGIC));
  eddi_redo_int(&header, pid);
  eddi_redo_text(&header, host);
  redo__frame(out, header.data, header.len);
  eddi_strbuf_free(&header);
}

/* Why a frame could not be read. */
typedef enum { FRAME_READ, FRAME_END, FRAME_TORN, FRAME_DAMAGED } FrameReading;

/* The frame at *at of a log's bytes. */
static FrameReading redo__frame_next(const char *log, size_t len, size_t *at, const char **payload,
                                     size_t *n) {
  if (*at == len) return FRAME_END;
  if (len - *at < REDO_FRAME_HEAD) return FRAME_TORN;
  const unsigned char *head = (const unsigned char *)log + *at;
  size_t size = head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
  if (size > len - *at - REDO_FRAME_HEAD) return FRAME_TORN;
  *payload = log + *at + REDO_FRAME_HEAD;
  *n = size;
  if (XXH3_64bits(*payload, size) != redo__read_u64(head + 4)) return FRAME_DAMAGED;
  *at += REDO_FRAME_HEAD + size;
  return FRAME_READ;
}

/* The writer a log's header frame names. */
static bool redo__header(const char *payload, size_t len, long *pid, char *host, size_t host_size) {
  size_t at = 0, n;
  char type;
  const char *bytes;
  if (!redo__next(payload, len, &at, &type, &bytes, &n) || type != 'H' ||
      n != strlen(REDO_MAGIC) || memcmp(bytes, REDO_MAGIC, n) != 0)
    return false;
  if (!redo__next(payload, len, &at, &type, &bytes, &n) || type != 'i' || n != 8) return false;
  *pid = (long)redo__read_u64((const unsigned char *)bytes);
  if (!redo__next(payload, len, &at, &type, &bytes, &n) || type != 't' || n >= host_size)
    return false;
  memcpy(host, bytes, n);
  host[n] = '\0';
  return true;
}

/* ------------------------------------------------------------ the log */

typedef struct {
  char *payload;
  size_t len;
  uint64_t generation;
  uint64_t end; /* offset just past its frame */
} RedoQueued;

typedef Array(RedoQueued) RedoQueue;
typedef Array(char *) RedoNames;

struct JournalLog {
  EddiJournal *journal;
  int dir_fd;                /* the state folder */
  char name[REDO_NAME_MAX];  /* redo-<pid>-<nonce> */
  int fd;                    /* the current generation, flocked */
  uint64_t generation;
  uint64_t size; /* of the current generation */

  pthread_t thread;
  bool thread_started;
  pthread_mutex_t lock;
  pthread_cond_t wake; /* the applier: records queued, or stop */
  pthread_cond_t done; /* flushers: the applier caught up */
  RedoQueue queue;
  uint64_t appended, applied; /* records */
  bool stopping, holding;
  bool urgent; /* a flush waits: apply without gathering */
  bool failed; /* the applier stopped with records not applied */
  bool broken; /* an append cut short could not be cut back: unused since */
  /* The applier's last transaction failed for the disk (full, or an I/O
   * error), not for a lock: a flush does not wait for it (it would wait
   * out REDO_FLUSH_WAIT_MS on every command while the disk is full). */
  bool stalled;
  /* The journal cannot keep up (a record reached neither the log nor
   * SQLite, or the applier is stalled): said once on stderr, and once
   * again when it has caught up. */
  bool behind;
  /* Sessions one of whose records reached neither the log nor SQLite (a
   * full disk): their later records are left out too, until the session's
   * row is written anew (a claim). The next record is a difference from
   * the lost one's rows: applied without it, a restore would put its edits
   * at offsets of a text the file never had, and a Save would write that.
   * Left out, the journal keeps the session as it was before the loss. */
  RedoNames lost;

  sqlite3 *db; /* the applier's connection */
  RedoStatements statements;
};

static void redo__file_name(char *out, size_t size, const char *name, uint64_t generation) {
  snprintf(out, size, "%s.%llu.log", name, (unsigned long long)generation);
}

/* Open generation of self's log (new), lock it and write its header; the
 * file's size then goes to *size. */
static int redo__open_generation(struct JournalLog *self, uint64_t generation, int *fd_out,
                                 uint64_t *size) {
  char file[REDO_NAME_MAX + 32];
  redo__file_name(file, sizeof file, self->name, generation);
  int fd = openat(self->dir_fd, file, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
    close(fd);
    unlinkat(self->dir_fd, file, 0);
    return -1;
  }
  StrBuf frame = {0};
  eddi_redo_header_frame(&frame, eddi_journal_pid(self->journal), eddi_journal_host(self->journal));
  bool written = write(fd, frame.data, frame.len) == (ssize_t)frame.len;
  *size = frame.len;
  eddi_strbuf_free(&frame);
  if (!written) {
    close(fd);
    unlinkat(self->dir_fd, file, 0);
    return -1;
  }
  *fd_out = fd;
  return 0;
}

/* Applier: begin the next generation once everything in this one is
 * applied (the lock held, the queue empty). */
static void redo__rotate(struct JournalLog *self) {
  int fd;
  uint64_t old = self->generation, size;
  if (redo__open_generation(self, old + 1, &fd, &size) < 0) return;
  bool noted = sqlite3_exec(self->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK &&
               redo__note_applied(self->db, &self->statements, self->name, old + 1, size) &&
               sqlite3_exec(self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  char file[REDO_NAME_MAX + 32];
  if (!noted) {
    sqlite3_exec(self->db, "ROLLBACK", NULL, NULL, NULL);
    close(fd);
    redo__file_name(file, sizeof file, self->name, old + 1);
    unlinkat(self->dir_fd, file, 0);
    return;
  }
  close(self->fd);
  self->fd = fd;
  self->generation = old + 1;
  self->size = size;
  redo__file_name(file, sizeof file, self->name, old);
  unlinkat(self->dir_fd, file, 0);
}

static void redo__applied_of(sqlite3 *db, const char *name, uint64_t *generation,
                             uint64_t *offset);

/* Whether a failed transaction's result is the disk's (full, an I/O
 * error, a file size limit) rather than another connection's lock. */
static bool redo__disk_failure(int rc) {
  int primary = rc & 0xff;
  return primary == SQLITE_FULL || primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN ||
         primary == SQLITE_READONLY;
}

/* Applier: run the batch in one transaction with the note of how far it
 * got; false when the transaction failed (the batch is tried again), with
 * *disk set when the disk refused it. */
static bool redo__apply_batch(struct JournalLog *self, const RedoQueue *batch, bool *disk) {
  sqlite3 *db = self->db;
  *disk = false;
  /* IMMEDIATE: the note read below stays true until the commit. */
  int begun = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (begun != SQLITE_OK) {
    *disk = redo__disk_failure(begun);
    return false;
  }
  RedoWriter writer = {eddi_journal_pid(self->journal), eddi_journal_host(self->journal),
                       self->name, self->journal};
  /* Another process may have applied part of this log already: one that
   * took this one's sessions while it was stopped (eddi_journal_replay_of).
   * What it applied is not applied twice. */
  uint64_t noted_generation, noted_offset;
  redo__applied_of(db, self->name, &noted_generation, &noted_offset);
  for (size_t i = 0; i < batch->len; i++) {
    const RedoQueued *item = &batch->items[i];
    if (item->generation < noted_generation ||
        (item->generation == noted_generation && item->end <= noted_offset))
      continue;
    redo__apply(db, &self->statements, item->payload, item->len, &writer);
  }
  const RedoQueued *last = &batch->items[batch->len - 1];
  /* Applied further than this batch by another: its note stays. */
  bool behind = last->generation < noted_generation ||
                (last->generation == noted_generation && last->end < noted_offset);
  int rc = behind || redo__note_applied(db, &self->statements, self->name, last->generation,
                                        last->end)
               ? sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)
               : sqlite3_errcode(db);
  if (rc != SQLITE_OK) {
    *disk = redo__disk_failure(rc) || redo__disk_failure(sqlite3_extended_errcode(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return false;
  }
  return true;
}

static void redo__queue_free(RedoQueue *queue) {
  for (size_t i = 0; i < queue->len; i++) eddi_free(queue->items[i].payload);
  array_clear(queue);
}

/* The moment ms milliseconds from now, for a timed wait. */
static void redo__deadline(struct timespec *until, long ms) {
  clock_gettime(CLOCK_REALTIME, until);
  until->tv_sec += ms / 1000;
  until->tv_nsec += (ms % 1000) * 1000000L;
  if (until->tv_nsec >= 1000000000L) until->tv_sec++, until->tv_nsec -= 1000000000L;
}

static void *redo__applier(void *arg) {
  struct JournalLog *self = arg;
  RedoQueue batch = {0};
  pthread_mutex_lock(&self->lock);
  for (;;) {
    while (!self->stopping && (self->holding || !self->queue.len))
      pthread_cond_wait(&self->wake, &self->lock);
    if (!self->queue.len) break; /* stopping, and everything applied */
    struct timespec until;
    redo__deadline(&until, REDO_GATHER_MS);
    while (!self->stopping && !self->urgent && self->queue.len < REDO_GATHER_RECORDS &&
           pthread_cond_timedwait(&self->wake, &self->lock, &until) != ETIMEDOUT)
      continue;
    self->urgent = false;
    RedoQueue taken = self->queue;
    self->queue = batch;
    batch = taken;
    pthread_mutex_unlock(&self->lock);
    bool applied, disk;
    while (!(applied = redo__apply_batch(self, &batch, &disk))) {
      pthread_mutex_lock(&self->lock);
      bool give_up = self->stopping;
      if (disk && !self->stalled) {
        /* The disk is full: those waiting for the records are let go (the
         * records stay queued, and in the log, until there is room). */
        self->stalled = true;
        pthread_cond_broadcast(&self->done);
      }
      pthread_mutex_unlock(&self->lock);
      if (give_up) break; /* the records stay in the log for the next start */
      usleep(REDO_RETRY_MS * 1000);
    }
    pthread_mutex_lock(&self->lock);
    self->stalled = false;
    pthread_mutex_unlock(&self->lock);
    size_t count = batch.len;
    redo__queue_free(&batch);
    pthread_mutex_lock(&self->lock);
    if (!applied) {
      self->failed = true;
      break;
    }
    self->applied += count;
    if (!self->queue.len && self->size > REDO_GENERATION_BYTES) redo__rotate(self);
    pthread_cond_broadcast(&self->done);
  }
  pthread_mutex_unlock(&self->lock);
  redo__queue_free(&batch);
  array_free(&batch);
  return NULL;
}

/* ------------------------------------------------------------ the owner's side */

/* Append payload to fd as a frame (its head and the payload, one writev
 * when the file takes it whole); false on an error. */
static bool redo__write_frame(int fd, const char *payload, size_t len) {
  unsigned char head[REDO_FRAME_HEAD];
  redo__frame_head(head, payload, len);
  struct iovec parts[2] = {{head, sizeof head}, {(void *)payload, len}};
  size_t done = 0, total = sizeof head + len;
  while (done < total) {
    ssize_t n;
    if (done < sizeof head) n = writev(fd, parts, 2);
    else n = write(fd, payload + (done - sizeof head), total - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += (size_t)n;
    if (done < sizeof head) {
      parts[0].iov_base = head + done;
      parts[0].iov_len = sizeof head - done;
    }
  }
  return true;
}

/* Apply a record on the owner's connection at once (the log cannot take
 * it, or there is no applier); false when SQLite did not take it. */
static bool redo__apply_now(EddiJournal *journal, const char *payload, size_t len) {
  sqlite3 *db = eddi_journal_db(journal);
  RedoStatements cache = {0};
  bool committed = false;
  if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK) {
    RedoWriter writer = {eddi_journal_pid(journal), eddi_journal_host(journal),
                         eddi_journal_log_name(journal), journal};
    redo__apply(db, &cache, payload, len, &writer);
    committed = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    if (!committed) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  }
  redo__statements_free(&cache);
  return committed;
}

/* Whether record payload's session is in self->lost: a record of it that
 * does not claim is to be left out (*leave_out); a claim takes the session
 * off the list (its rows are written anew). */
static void redo__lost_check(struct JournalLog *self, const char *payload, size_t len,
                             bool claims, bool *leave_out) {
  *leave_out = false;
  size_t at = 0, n;
  char type;
  const char *session;
  if (!self->lost.len || !redo__next(payload, len, &at, &type, &session, &n) || type != 'S')
    return;
  for (size_t i = 0; i < self->lost.len; i++) {
    if (strlen(self->lost.items[i]) != n || memcmp(self->lost.items[i], session, n) != 0) continue;
    if (!claims) {
      *leave_out = true;
      return;
    }
    eddi_free(self->lost.items[i]);
    array_remove(&self->lost, i);
    return;
  }
}

/* The record reached neither the log nor SQLite: its session's later
 * records are left out (see lost). */
static void redo__lost_note(struct JournalLog *self, const char *payload, size_t len) {
  size_t at = 0, n;
  char type;
  const char *session;
  if (!redo__next(payload, len, &at, &type, &session, &n) || type != 'S') return;
  /* Once: a later claim takes it off the list (a second entry would leave
   * the session's records after that claim out). */
  for (size_t i = 0; i < self->lost.len; i++)
    if (strlen(self->lost.items[i]) == n && memcmp(self->lost.items[i], session, n) == 0) return;
  array_push(&self->lost, eddi_strndup(session, n));
}

/* Apply a record at once, noting a loss. */
static bool redo__apply_or_lose(EddiJournal *journal, struct JournalLog *self, const char *payload,
                                size_t len) {
  if (redo__apply_now(journal, payload, len)) return true;
  if (self) redo__lost_note(self, payload, len);
  return false;
}

/* The journal could not keep a record: said once, until it caught up. */
static void redo__say_behind(struct JournalLog *self, int failure) {
  if (self->behind) return;
  self->behind = true;
  char line[EDDI_FS_PATH_MAX + 512], folder[EDDI_FS_PATH_MAX];
  snprintf(folder, sizeof folder, "%s", eddi_journal_path(self->journal));
  char *slash = strrchr(folder, '/');
  if (slash) *slash = '\0';
  snprintf(line, sizeof line,
           "eddi: journal: cannot write to the state folder %s (%s): the journal cannot keep "
           "up; commands go on and their edits are kept in memory, journaled again once there "
           "is room (a crash meanwhile loses them)\n",
           folder, strerror(failure ? failure : ENOSPC));
  eddi_stderr_line(line);
}

/* Every session left out is journaled whole again, the applier is not
 * failing: the journal has caught up. */
static void redo__say_caught_up(struct JournalLog *self) {
  if (!self->behind || self->lost.len) return;
  pthread_mutex_lock(&self->lock);
  bool stalled = self->stalled;
  pthread_mutex_unlock(&self->lock);
  if (stalled) return;
  self->behind = false;
  eddi_stderr_line("eddi: journal: the state folder has room again: the journal has caught up\n");
}

bool eddi_journal_append(EddiJournal *journal, const char *payload, size_t len, bool claims) {
  struct JournalLog *self = *eddi_journal_log(journal);
  bool leave_out = false;
  if (self) redo__lost_check(self, payload, len, claims, &leave_out);
  if (leave_out) return false;
  if (!self || !self->thread_started || len > REDO_RECORD_MAX) {
    eddi_journal_flush(journal);
    return redo__apply_or_lose(journal, self, payload, len);
  }
  pthread_mutex_lock(&self->lock);
  bool logged = !self->broken && redo__write_frame(self->fd, payload, len);
  int failure = logged ? 0 : self->broken ? EIO : errno;
  /* SQLite on the command's path only when nothing is queued before this
   * record (it would be applied ahead of them) and the applier is not
   * failing for the disk (SQLite would fail the same way, after a wait). */
  bool behind_now = !logged && (self->stalled || self->queue.len > 0);
  /* A full disk may take part of the frame: its bytes must go, or the next
   * frame would follow them and a replay would read the two as one frame
   * cut short (losing that command), the applied offsets no longer
   * matching the file. A log that cannot be cut back is not used again. */
  if (!logged && !self->broken && ftruncate(self->fd, (off_t)self->size) < 0)
    self->broken = true;
  if (logged) {
    self->size += REDO_FRAME_HEAD + len;
    RedoQueued queued = {eddi_strndup(payload, len), len, self->generation, self->size};
    array_push(&self->queue, queued);
    self->appended++;
    if (self->queue.len == 1 || self->queue.len == REDO_GATHER_RECORDS)
      pthread_cond_signal(&self->wake);
  }
  pthread_mutex_unlock(&self->lock);
  if (!logged) {
    /* A full disk: SQLite then holds it, or fails the same way; or, with
     * records still queued, the session's later records are left out
     * until its rows are written anew. Either way the command answers at
     * once: its edits are in memory. */
    bool kept = !behind_now && redo__apply_now(journal, payload, len);
    if (!kept) {
      redo__lost_note(self, payload, len);
      redo__say_behind(self, failure);
    }
    return kept;
  }
  if (claims) eddi_journal_flush(journal);
  redo__say_caught_up(self);
  return true;
}

bool eddi_journal_behind(EddiJournal *journal) {
  struct JournalLog *self = *eddi_journal_log(journal);
  if (!self) return false;
  if (!self->thread_started) return self->lost.len > 0;
  pthread_mutex_lock(&self->lock);
  bool behind = self->lost.len > 0 || self->stalled;
  pthread_mutex_unlock(&self->lock);
  return behind;
}

int eddi_journal_flush(EddiJournal *journal) {
  struct JournalLog *self = *eddi_journal_log(journal);
  if (!self || !self->thread_started) return 0;
  struct timespec until;
  redo__deadline(&until, REDO_FLUSH_WAIT_MS);
  int rc = 0;
  pthread_mutex_lock(&self->lock);
  uint64_t target = self->appended;
  if (self->applied < target) {
    self->urgent = true;
    pthread_cond_signal(&self->wake);
  }
  while (self->applied < target && !self->holding && rc == 0) {
    /* A stalled applier (a full disk) is not waited for: the command
     * answers at once, the records stay queued until there is room. */
    if (self->stalled) rc = EDDI_EIO;
    else if (pthread_cond_timedwait(&self->done, &self->lock, &until) == ETIMEDOUT) rc = EDDI_EIO;
  }
  bool stalled = self->stalled;
  pthread_mutex_unlock(&self->lock);
  if (stalled) redo__say_behind(self, ENOSPC);
  return rc;
}

void eddi_journal_hold_applier(EddiJournal *journal, bool hold) {
  struct JournalLog *self = *eddi_journal_log(journal);
  if (!self || !self->thread_started) return;
  pthread_mutex_lock(&self->lock);
  self->holding = hold;
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->lock);
}

/* ------------------------------------------------------------ others' logs */

/* A log file's name split: its log name and generation. */
static bool redo__parse_file(const char *file, char *name, size_t name_size,
                             uint64_t *generation) {
  size_t len = strlen(file);
  if (strncmp(file, "redo-", 5) != 0 || len < 9 || strcmp(file + len - 4, ".log") != 0)
    return false;
  const char *dot = memrchr(file, '.', len - 4);
  if (!dot || (size_t)(dot - file) >= name_size) return false;
  char *end;
  errno = 0;
  *generation = strtoull(dot + 1, &end, 10);
  if (errno || end != file + len - 4 || end == dot + 1) return false;
  memcpy(name, file, (size_t)(dot - file));
  name[dot - file] = '\0';
  return true;
}

typedef struct {
  char name[REDO_NAME_MAX];
  uint64_t generation;
} RedoFile;

typedef Array(RedoFile) RedoFiles;

static int redo__file_order(const void *a, const void *b) {
  const RedoFile *x = a, *y = b;
  int by_name = strcmp(x->name, y->name);
  if (by_name) return by_name;
  return x->generation < y->generation ? -1 : x->generation > y->generation;
}

/* Where redo_logs says log name's applier stopped: (generation, offset),
 * or (0, 0) for a log it never reached. */
static void redo__applied_of(sqlite3 *db, const char *name, uint64_t *generation,
                             uint64_t *offset) {
  *generation = *offset = 0;
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db, "SELECT generation, applied FROM redo_logs WHERE name=?", -1, &stmt,
                         NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    *generation = (uint64_t)sqlite3_column_int64(stmt, 0);
    *offset = (uint64_t)sqlite3_column_int64(stmt, 1);
  }
  sqlite3_finalize(stmt);
}

/* Forget log name's row: its files are gone. */
static void redo__forget_log(sqlite3 *db, const char *name) {
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db, "DELETE FROM redo_logs WHERE name=?", -1, &stmt, NULL) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
}

/* What the replay of a log file came to: applied (remove it), kept (not
 * ours to apply, or it could not be read: it stays), damaged (what came
 * before the damage is applied; reported; it is set aside, never removed,
 * so that the damage stays visible and its bytes can be read), empty (no
 * byte to keep: reported, removed). */
typedef enum { REPLAY_APPLIED, REPLAY_KEPT, REPLAY_DAMAGED, REPLAY_EMPTY } RedoReplay;

/* Sessions named in a report of what was lost, at most. */
#define REDO_LOST_NAMES_MAX 8

/* The records a replay could not apply (from `from` on, past a damaged
 * frame): the frames found whole there, by their hash, counted, and their
 * sessions named in sessions (", "-separated), for the report. */
static size_t redo__scan_lost(const char *log, size_t len, size_t from, StrBuf *sessions) {
  size_t count = 0, named = 0;
  for (size_t at = from; at < len && len - at >= REDO_FRAME_HEAD + 5;) {
    const unsigned char *head = (const unsigned char *)log + at;
    size_t size = head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
    const char *payload = log + at + REDO_FRAME_HEAD;
    size_t field_at = 0, n;
    char type;
    const char *name;
    /* Cheap tests first: most offsets are not a frame. */
    if (size < 5 || size > len - at - REDO_FRAME_HEAD || payload[4] != 'S' ||
        XXH3_64bits(payload, size) != redo__read_u64(head + 4) ||
        !redo__next(payload, size, &field_at, &type, &name, &n)) {
      at++;
      continue;
    }
    count++;
    at += REDO_FRAME_HEAD + size;
    bool seen = false;
    for (size_t i = 0; sessions->len && i + n <= sessions->len && !seen; i++)
      seen = memcmp(sessions->data + i, name, n) == 0 &&
             (i == 0 || sessions->data[i - 1] == ' ') &&
             (i + n == sessions->len || sessions->data[i + n] == ',');
    if (seen || named == REDO_LOST_NAMES_MAX) continue;
    eddi_strbuf_printf(sessions, "%s%.*s", named++ ? ", " : "", (int)EDDI_MIN(n, 200), name);
  }
  return count;
}

/* The pid a log's file name gives (redo-<pid>-<nonce>), or 0. */
static long redo__name_pid(const char *name) {
  if (strncmp(name, "redo-", 5) != 0) return 0;
  char *end;
  long pid = strtol(name + 5, &end, 10);
  return *end == '-' && pid > 0 ? pid : 0;
}

/* The sessions whose rows name log as their owner's, for a report. */
static void redo__sessions_of(sqlite3 *db, const char *log, StrBuf *out) {
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sessions WHERE owner_log=? ORDER BY name", -1,
                         &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text(stmt, 1, log, -1, SQLITE_STATIC);
  for (size_t n = 0; sqlite3_step(stmt) == SQLITE_ROW && n < REDO_LOST_NAMES_MAX; n++)
    eddi_strbuf_printf(out, "%s%s", n ? ", " : "", (const char *)sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
}

/* Report damage at byte at of file (bytes its content): what was lost
 * (the commands found whole after it, their sessions) and the way on. */
static void redo__report_damage(EddiJournal *journal, const RedoFile *file, const StrBuf *bytes,
                                size_t at, const char *what, StrBuf *report) {
  StrBuf sessions = {0};
  size_t lost = redo__scan_lost(bytes->data, bytes->len, at + 1, &sessions);
  if (!sessions.len) redo__sessions_of(eddi_journal_db(journal), file->name, &sessions);
  eddi_strbuf_printf(report, "Journal: the redo log %s.%llu is damaged at byte %zu%s: the "
                     "commands after it were not restored",
                     file->name, (unsigned long long)file->generation, at, what);
  if (lost)
    eddi_strbuf_printf(report, " (%zu more found whole past the damage)", lost);
  if (sessions.len)
    eddi_strbuf_printf(report, "; session %s comes back as of the last command before it: "
                       "what the later commands did is to be done again", sessions.data);
  eddi_strbuf_puts(report, "\n");
  eddi_strbuf_free(&sessions);
}

/* Apply what is left of one generation file of another process's log (fd
 * open on it) on db, the journal's connection. */
static RedoReplay redo__replay_file(EddiJournal *journal, int fd, const RedoFile *file,
                                    StrBuf *report) {
  sqlite3 *db = eddi_journal_db(journal);
  uint64_t applied_generation, applied_offset;
  redo__applied_of(db, file->name, &applied_generation, &applied_offset);
  if (file->generation < applied_generation) return REPLAY_APPLIED; /* applied whole */
  bool noted = file->generation == applied_generation && applied_offset > 0;
  StrBuf bytes = {0};
  EddiFileStamp stamp;
  EddiError ignored;
  if (eddi_fs_stamp_fd(fd, REDO_LOG_READ_MAX, &stamp, &bytes, &ignored) < 0) {
    eddi_strbuf_printf(report, "Journal: the redo log %s.%llu cannot be read: left as it is\n",
                       file->name, (unsigned long long)file->generation);
    eddi_strbuf_free(&bytes);
    return REPLAY_KEPT;
  }
  /* A log shorter than what was applied of it was cut: whatever followed
   * is gone (an empty one among them). */
  if (noted && applied_offset > bytes.len) {
    StrBuf sessions = {0};
    redo__sessions_of(db, file->name, &sessions);
    eddi_strbuf_printf(report, "Journal: the redo log %s.%llu was cut to %zu bytes, below the "
                       "%llu the journal had applied: any commands after those were lost%s%s%s\n",
                       file->name, (unsigned long long)file->generation, bytes.len,
                       (unsigned long long)applied_offset, sessions.len ? " (session " : "",
                       sessions.len ? sessions.data : "", sessions.len ? ")" : "");
    eddi_strbuf_free(&sessions);
    RedoReplay result = bytes.len ? REPLAY_DAMAGED : REPLAY_EMPTY;
    eddi_strbuf_free(&bytes);
    return result;
  }
  if (!bytes.len) {
    StrBuf sessions = {0};
    redo__sessions_of(db, file->name, &sessions);
    eddi_strbuf_printf(report, "Journal: the redo log %s.%llu is empty: the commands it held, if "
                       "any, were not restored%s%s%s; it is removed\n",
                       file->name, (unsigned long long)file->generation,
                       sessions.len ? " (session " : "", sessions.len ? sessions.data : "",
                       sessions.len ? ": given back as the journal last had it)" : "");
    eddi_strbuf_free(&sessions);
    eddi_strbuf_free(&bytes);
    return REPLAY_EMPTY;
  }
  size_t at = 0, n;
  const char *payload = NULL;
  long pid = 0;
  char host[256];
  FrameReading reading = redo__frame_next(bytes.data, bytes.len, &at, &payload, &n);
  bool header = reading == FRAME_READ && redo__header(payload, n, &pid, host, sizeof host);
  if (header && strcmp(host, eddi_journal_host(journal)) != 0) {
    eddi_strbuf_free(&bytes);
    return REPLAY_KEPT; /* another machine's: not ours to apply */
  }
  size_t damaged_at = SIZE_MAX;
  if (!header) {
    /* The head is damaged (garbled, or cut inside the writer's header):
     * the records begin where the journal's note says this log was
     * applied up to, or else right after a header of this host's with the
     * pid its name gives. A whole frame there is trusted by its hash; the
     * records are applied from it. Otherwise nothing after can be placed. */
    pid = redo__name_pid(file->name);
    snprintf(host, sizeof host, "%s", eddi_journal_host(journal));
    StrBuf expected = {0};
    eddi_redo_header_frame(&expected, pid, host);
    size_t start = noted ? (size_t)applied_offset : expected.len;
    eddi_strbuf_free(&expected);
    size_t probe = start;
    if (start < bytes.len &&
        redo__frame_next(bytes.data, bytes.len, &probe, &payload, &n) == FRAME_READ &&
        n > 4 && payload[4] == 'S') {
      eddi_strbuf_printf(report, "Journal: the redo log %s.%llu is damaged in its first %zu "
                         "bytes (its writer's header): the commands after them were restored\n",
                         file->name, (unsigned long long)file->generation, start);
      at = start;
    } else {
      damaged_at = 0;
    }
  } else if (noted && applied_offset > at) {
    at = (size_t)applied_offset;
  }
  RedoStatements cache = {0};
  bool committed = true;
  if (damaged_at == SIZE_MAX && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK) {
    while ((reading = redo__frame_next(bytes.data, bytes.len, &at, &payload, &n)) == FRAME_READ)
      redo__apply(db, &cache, payload, n, &(RedoWriter){pid, host, file->name, journal});
    if (reading == FRAME_DAMAGED) damaged_at = at;
    redo__note_applied(db, &cache, file->name, file->generation, at);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      committed = false;
    }
  } else if (damaged_at == SIZE_MAX) {
    committed = false;
  }
  redo__statements_free(&cache);
  RedoReplay result = !committed ? REPLAY_KEPT : REPLAY_APPLIED;
  if (damaged_at != SIZE_MAX) {
    redo__report_damage(journal, file, &bytes, damaged_at,
                        damaged_at == 0 ? " (its head: its writer's header and what follows)"
                                        : "",
                        report);
    result = REPLAY_DAMAGED;
  }
  eddi_strbuf_free(&bytes);
  return result;
}

/* Set a damaged log file aside as <file>.damaged-<time> (no longer a log
 * name: never applied again, and never removed by eddi), and say so. */
static void redo__set_aside(int dir_fd, const char *path, StrBuf *report) {
  char aside[REDO_NAME_MAX + 64];
  snprintf(aside, sizeof aside, "%s.damaged-%lld", path, (long long)time(NULL));
  if (renameat(dir_fd, path, dir_fd, aside) == 0)
    eddi_strbuf_printf(report, "Journal: the damaged redo log is kept as %s in the state folder "
                       "(eddi does not read it again)\n", aside);
  else
    unlinkat(dir_fd, path, 0);
}

/* The redo log files in dir_fd, in order (by log, then generation). */
static void redo__list(int dir_fd, RedoFiles *files) {
  int fd = dup(dir_fd);
  DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
  if (!dir) {
    if (fd >= 0) close(fd);
    return;
  }
  struct dirent *entry;
  /* The copy shares the folder's read position with dir_fd: a listing
   * before (at start) left it at the end, and the next one saw nothing. */
  rewinddir(dir);
  while ((entry = readdir(dir))) {
    RedoFile file;
    if (redo__parse_file(entry->d_name, file.name, sizeof file.name, &file.generation))
      array_push(files, file);
  }
  closedir(dir);
  if (files->len) qsort(files->items, files->len, sizeof *files->items, redo__file_order);
}

/* Whether the writer a log's header names (the file open at fd) is a
 * process of this host that is gone. */
static bool redo__writer_gone(EddiJournal *journal, int fd) {
  char head[REDO_FRAME_HEAD + 512];
  ssize_t n = pread(fd, head, sizeof head, 0);
  size_t at = 0, len;
  const char *payload;
  long pid;
  char host[256];
  return n > 0 && redo__frame_next(head, (size_t)n, &at, &payload, &len) == FRAME_READ &&
         redo__header(payload, len, &pid, host, sizeof host) &&
         eddi_journal_owner_dead(journal, pid, host, NULL);
}

/* Whether the log open at fd starts with a sound header frame. */
static bool redo__header_readable(int fd) {
  char head[REDO_FRAME_HEAD + 512];
  ssize_t n = pread(fd, head, sizeof head, 0);
  size_t at = 0, len;
  const char *payload;
  long pid;
  char host[256];
  return n > 0 && redo__frame_next(head, (size_t)n, &at, &payload, &len) == FRAME_READ &&
         redo__header(payload, len, &pid, host, sizeof host);
}

/* Open another process's log file path of dir_fd for reading: a regular
 * file of this user's, or -1 (reported). A FIFO would block the open until
 * a writer came, a folder cannot be read, and a file someone else wrote
 * there is not a log this user's eddi kept: its statements would be run. */
static int redo__open_other(int dir_fd, const char *path, StrBuf *report) {
  int fd = openat(dir_fd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()) return fd;
  if (fd >= 0 || errno == ELOOP)
    eddi_strbuf_printf(report, "Journal: %s is not a redo log of this user's: left alone\n", path);
  if (fd >= 0) close(fd);
  return -1;
}

/* Whether fd, just locked, is still the file path names in dir_fd: another
 * start may have applied and removed it between our open and our lock (its
 * redo_logs row then gone too: applying it again would run every record a
 * second time). */
static bool redo__still_linked(int fd, int dir_fd, const char *path) {
  struct stat held, named;
  return fstat(fd, &held) == 0 && held.st_nlink > 0 &&
         fstatat(dir_fd, path, &named, AT_SYMLINK_NOFOLLOW) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

/* Apply the logs of other processes: those whose lock is free (dead
 * writers; their files then go), or with only_pid set that process's
 * (found dead by liveness though it may be stopped: its files stay). */
static void redo__replay_others(EddiJournal *journal, int dir_fd, const char *own, long only_pid,
                                StrBuf *report) {
  RedoFiles files = {0};
  redo__list(dir_fd, &files);
  char prefix[REDO_NAME_MAX];
  snprintf(prefix, sizeof prefix, "redo-%ld-", only_pid);
  for (size_t i = 0; i < files.len; i++) {
    const RedoFile *file = &files.items[i];
    if ((own && strcmp(file->name, own) == 0) ||
        (only_pid && strncmp(file->name, prefix, strlen(prefix)) != 0))
      continue;
    char path[REDO_NAME_MAX + 32];
    redo__file_name(path, sizeof path, file->name, file->generation);
    int fd = redo__open_other(dir_fd, path, report);
    if (fd < 0) continue;
    bool dead = flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (!dead && !only_pid && redo__writer_gone(journal, fd)) {
      /* Another process starting now applies it: wait for it, so that no
       * session of the dead writer is given back without its tail (and
       * then see below whether that one applied and removed it). */
      dead = flock(fd, LOCK_EX) == 0;
    }
    /* A log whose head is not readable yet may be one a live process is
     * making now (between its open and its lock, or its header's write):
     * the pid its name gives is asked first. */
    long named = redo__name_pid(file->name);
    if (dead && !only_pid && named && named != eddi_journal_pid(journal) &&
        !redo__header_readable(fd) &&
        !eddi_journal_owner_dead(journal, named, eddi_journal_host(journal), NULL))
      dead = false;
    RedoReplay done = (dead || only_pid) && redo__still_linked(fd, dir_fd, path)
                          ? redo__replay_file(journal, fd, file, report)
                          : REPLAY_KEPT;
    if (dead && done != REPLAY_KEPT) {
      if (done == REPLAY_DAMAGED) redo__set_aside(dir_fd, path, report);
      else unlinkat(dir_fd, path, 0);
      bool last = i + 1 == files.len || strcmp(files.items[i + 1].name, file->name) != 0;
      if (last) redo__forget_log(eddi_journal_db(journal), file->name);
    }
    close(fd);
  }
  array_free(&files);
}

const char *eddi_journal_log_name(EddiJournal *journal) {
  struct JournalLog *self = *eddi_journal_log(journal);
  return self && self->fd >= 0 ? self->name : NULL;
}

bool eddi_journal_log_held(EddiJournal *journal, const char *name) {
  struct JournalLog *self = *eddi_journal_log(journal);
  if (!self) return true; /* no folder to look in: taken for alive, the safe side */
  RedoFiles files = {0};
  redo__list(self->dir_fd, &files);
  bool held = false;
  for (size_t i = 0; i < files.len && !held; i++) {
    if (strcmp(files.items[i].name, name) != 0) continue;
    char path[REDO_NAME_MAX + 32];
    redo__file_name(path, sizeof path, name, files.items[i].generation);
    int fd = openat(self->dir_fd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
    close(fd);
  }
  array_free(&files);
  return held;
}

void eddi_journal_replay_of(EddiJournal *journal, long pid) {
  struct JournalLog *self = *eddi_journal_log(journal);
  if (!self || pid <= 0 || pid == eddi_journal_pid(journal)) return;
  StrBuf ignored = {0};
  eddi_journal_flush(journal);
  redo__replay_others(journal, self->dir_fd, self->name, pid, &ignored);
  eddi_strbuf_free(&ignored);
}

/* ------------------------------------------------------------ start and stop */

int eddi_journal_log_start(EddiJournal *journal, const char *state_dir, StrBuf *report) {
  int dir_fd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return EDDI_EIO;
  struct JournalLog *self = eddi_calloc(1, sizeof *self);
  self->journal = journal;
  self->dir_fd = dir_fd;
  self->fd = -1;
  uint64_t nonce;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  nonce = XXH3_64bits(&now, sizeof now) ^ (uint64_t)(uintptr_t)self;
  snprintf(self->name, sizeof self->name, "redo-%ld-%016llx", eddi_journal_pid(journal),
           (unsigned long long)nonce);
  *eddi_journal_log(journal) = self;
  redo__replay_others(journal, dir_fd, NULL, 0, report);

  /* Without a log or a connection of its own, the journal commits each
   * record to SQLite on the command's path: slower, never less safe. */
  char path[EDDI_FS_PATH_MAX];
  snprintf(path, sizeof path, "%s", eddi_journal_path(journal));
  if (redo__open_generation(self, 1, &self->fd, &self->size) < 0) return 0;
  self->generation = 1;
  if (sqlite3_open_v2(path, &self->db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL) !=
          SQLITE_OK ||
      sqlite3_exec(self->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
    sqlite3_close(self->db);
    self->db = NULL;
    return 0;
  }
  sqlite3_busy_timeout(self->db, EDDI_JOURNAL_BUSY_TIMEOUT_MS);
  eddi_journal_limit_wal(self->db);
  pthread_mutex_init(&self->lock, NULL);
  pthread_cond_init(&self->wake, NULL);
  pthread_cond_init(&self->done, NULL);
  self->thread_started = pthread_create(&self->thread, NULL, redo__applier, self) == 0;
  return 0;
}

void eddi_journal_log_stop(EddiJournal *journal) {
  struct JournalLog *self = *eddi_journal_log(journal);
  if (!self) return;
  bool clean = true;
  if (self->thread_started) {
    pthread_mutex_lock(&self->lock);
    self->holding = false;
    self->stopping = true;
    pthread_cond_signal(&self->wake);
    pthread_mutex_unlock(&self->lock);
    pthread_join(self->thread, NULL);
    clean = !self->failed && self->applied == self->appended;
    redo__queue_free(&self->queue);
    array_free(&self->queue);
    pthread_mutex_destroy(&self->lock);
    pthread_cond_destroy(&self->wake);
    pthread_cond_destroy(&self->done);
  }
  redo__statements_free(&self->statements);
  for (size_t i = 0; i < self->lost.len; i++) eddi_free(self->lost.items[i]);
  array_free(&self->lost);
  sqlite3_close(self->db);
  if (self->fd >= 0) {
    /* Everything applied: the log has nothing the journal lacks. Else it
     * stays, for the next start to apply. */
    if (clean) {
      char file[REDO_NAME_MAX + 32];
      redo__file_name(file, sizeof file, self->name, self->generation);
      unlinkat(self->dir_fd, file, 0);
      redo__forget_log(eddi_journal_db(journal), self->name);
    }
    close(self->fd);
  }
  close(self->dir_fd);
  eddi_free(self);
  *eddi_journal_log(journal) = NULL;
}
