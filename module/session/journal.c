/* journal.c - the journal's file: opening, the schema and its migrations,
 * a corrupt file set aside, the folders eddi writes into, the intents of
 * multi-file changes. See journal.h for why SQLite and which sync levels.
 *
 * Migrations are an array of SQL scripts: the one at index i brings a
 * journal from schema i to i + 1, in one transaction. A new table (the
 * changesets of scripts, schema 2, for one) is a new script at the end and
 * EDDI_JOURNAL_SCHEMA one higher; old scripts are never edited, so every
 * journal ever written reaches the current schema by the same steps.
 */
#include "session/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fs.h"

/* Room for a host name. */
#define JOURNAL_HOST_MAX 256
/* Statements kept prepared (the sync's handful, each prepared once). */
#define JOURNAL_STATEMENTS_MAX 48
/* Folders remembered in memory as already noted (beyond this, each note
 * is a cheap INSERT OR IGNORE). */
#define JOURNAL_FOLDERS_CACHED 1024

/* A change whose files are all written, its intent kept until its
 * session's record (with the step Undo takes back) is in the redo log, and
 * the backups of its old files with it: a kill before that record leaves
 * the intent, and the recovery makes the step from the backups. */
typedef struct {
  int64_t id;
  char *session;
  Array(char *) backups; /* workspace paths */
} JournalIntent;

typedef Array(JournalIntent) JournalIntents;

struct EddiJournal {
  sqlite3 *db;
  char *path;
  char *instance;
  long pid;
  char host[JOURNAL_HOST_MAX];
  Array(char *) folders; /* noted this process */
  sqlite3_stmt *note_folder;
  struct JournalMirror *mirror;
  struct JournalLog *log;
  int root_fd; /* the workspace's (borrowed), for the backups of settled intents */
  JournalIntents settled;
  /* Intents whose delete failed (a full disk): tried again with the next
   * settled ones and at close, never left for a recovery to take for a
   * change still to settle. */
  Array(int64_t) unforgotten;
  const char *statement_sql[JOURNAL_STATEMENTS_MAX];
  sqlite3_stmt *statements[JOURNAL_STATEMENTS_MAX];
  size_t statement_count;
};

sqlite3_stmt *eddi_journal_statement(EddiJournal *self, const char *sql) {
  for (size_t i = 0; i < self->statement_count; i++)
    if (self->statement_sql[i] == sql) {
      sqlite3_reset(self->statements[i]);
      sqlite3_clear_bindings(self->statements[i]);
      return self->statements[i];
    }
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v3(self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    return NULL;
  if (self->statement_count == JOURNAL_STATEMENTS_MAX) return stmt; /* the caller finalizes */
  self->statement_sql[self->statement_count] = sql;
  self->statements[self->statement_count++] = stmt;
  return stmt;
}

bool eddi_journal_statement_cached(EddiJournal *self, sqlite3_stmt *stmt) {
  for (size_t i = 0; i < self->statement_count; i++)
    if (self->statements[i] == stmt) return true;
  return false;
}

/* ------------------------------------------------------------ schema */

static const char *const journal__migrations[EDDI_JOURNAL_SCHEMA] = {
    /* 0 -> 1: sessions, their files and unsaved edits, snapshots; intents
     * of multi-file changes; folders written into. */
    "CREATE TABLE sessions(name TEXT PRIMARY KEY, sender TEXT NOT NULL,"
    " description TEXT NOT NULL, instance TEXT, owner_pid INTEGER NOT NULL,"
    " owner_host TEXT NOT NULL, raw_payloads INTEGER NOT NULL DEFAULT 0,"
    " current_path TEXT, registers BLOB, updated INTEGER NOT NULL);"
    "CREATE TABLE docs(session TEXT NOT NULL, path TEXT NOT NULL, ord INTEGER NOT NULL,"
    " cursor INTEGER NOT NULL, marks BLOB, base_hash INTEGER, base_text BLOB,"
    " is_new INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(session, path));"
    "CREATE TABLE edits(session TEXT NOT NULL, path TEXT NOT NULL, seq INTEGER NOT NULL,"
    " grp INTEGER NOT NULL, start INTEGER NOT NULL, removed BLOB, inserted BLOB,"
    " PRIMARY KEY(session, path, seq)) WITHOUT ROWID;"
    "CREATE TABLE snapshots(session TEXT NOT NULL, stamp INTEGER NOT NULL, path TEXT NOT NULL,"
    " tag TEXT NOT NULL, text BLOB, seen BLOB, PRIMARY KEY(session, stamp));"
    "CREATE TABLE intents(id INTEGER PRIMARY KEY, owner_pid INTEGER NOT NULL,"
    " owner_host TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE intent_files(intent INTEGER NOT NULL, ord INTEGER NOT NULL,"
    " path TEXT NOT NULL, action INTEGER NOT NULL, existed INTEGER NOT NULL,"
    " old_hash INTEGER, new_hash INTEGER, temp TEXT, backup TEXT,"
    " PRIMARY KEY(intent, ord));"
    "CREATE TABLE folders(path TEXT PRIMARY KEY);",
    /* 1 -> 2: the named changesets of scripts, keyed by session like edits:
     * each file's bytes on disk when collected (what a rollback puts back)
     * with their stamp, the text the script read, the text to write, and
     * the stamp of what apply wrote. */
    "CREATE TABLE changesets(session TEXT NOT NULL, name TEXT NOT NULL, ord INTEGER NOT NULL,"
    " status INTEGER NOT NULL, PRIMARY KEY(session, name));"
    "CREATE TABLE changeset_files(session TEXT NOT NULL, changeset TEXT NOT NULL,"
    " ord INTEGER NOT NULL, path TEXT NOT NULL, existed INTEGER NOT NULL, before_raw BLOB,"
    " collected_exists INTEGER NOT NULL, collected_size INTEGER, collected_hash INTEGER,"
    " before BLOB, after BLOB, applied_exists INTEGER NOT NULL DEFAULT 0, applied_size INTEGER,"
    " applied_hash INTEGER, PRIMARY KEY(session, changeset, ord));",
    /* 2 -> 3: how far each process's redo log (journal_log.c) is applied:
     * its generation and the offset in that generation's file. */
    ("CREATE TABLE redo_logs(name TEXT PRIMARY KEY, generation INTEGER NOT NULL,"
     " applied INTEGER NOT NULL);"),
    /* 3 -> 4: the session's multi-file Undo and Redo (edit/txn_history.h):
     * each file of each step, keyed by the step's serial, in which list
     * (redo 0: to undo), its other side (exists, decoded text, BOM, CRLF,
     * mode) and the stamp the disk must have for the move. */
    ("CREATE TABLE txn_files(session TEXT NOT NULL, step INTEGER NOT NULL,"
     " redo INTEGER NOT NULL, ord INTEGER NOT NULL, path TEXT NOT NULL,"
     " side_exists INTEGER NOT NULL, side_text BLOB, side_bom INTEGER NOT NULL,"
     " side_crlf INTEGER NOT NULL, side_mode INTEGER NOT NULL, now_exists INTEGER NOT NULL,"
     " now_size INTEGER, now_hash INTEGER, PRIMARY KEY(session, step, ord));"),
    /* 4 -> 5: how many of a file's journaled groups are undone (Redo's,
     * after the others in edits): a restore makes them and undoes them. */
    "ALTER TABLE docs ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;",
    /* 5 -> 6: the owner's redo log by name (journal_log.c), held locked for
     * the owner's life: a pid alone cannot tell this process from a dead
     * one that had the same pid (a fresh container per call). */
    ("ALTER TABLE sessions ADD COLUMN owner_log TEXT;"
     "ALTER TABLE intents ADD COLUMN owner_log TEXT;"),
    /* 6 -> 7: the session whose command made the change: a change rolled
     * forward (or finished) by the recovery becomes that session's step,
     * so that Undo takes it back. */
    "ALTER TABLE intents ADD COLUMN session TEXT;",
    /* 7 -> 8: whether a file's unsaved text holds changes made outside the
     * session's commands (the user typed in the editor): a restored agent
     * session's review cannot tell those from the agent's. */
    "ALTER TABLE docs ADD COLUMN outside INTEGER NOT NULL DEFAULT 0;",
};

const char *eddi_journal_migration(int from) {
  return from >= 0 && from < EDDI_JOURNAL_SCHEMA ? journal__migrations[from] : NULL;
}

int eddi_journal_file_schema(const char *path) {
  sqlite3 *db = NULL;
  int version = -1;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, NULL) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
      version = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return version;
}

/* One integer of a PRAGMA into *value; the SQLite result (SQLITE_BUSY: another
 * process holds the file for a moment, which is not damage). */
static int journal__pragma_int(sqlite3 *db, const char *sql, int *value) {
  sqlite3_stmt *stmt = NULL;
  *value = -1;
  int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) *value = sqlite3_column_int(stmt, 0), rc = SQLITE_OK;
  }
  sqlite3_finalize(stmt);
  return rc;
}

/* Whether SQLite finds the file sound: quick_check answers "ok". *sound
 * is false only for an answer that says so (or a file that is not a
 * database); the result is SQLite's (SQLITE_BUSY: ask again). */
static int journal__check(sqlite3 *db, bool *sound) {
  sqlite3_stmt *stmt = NULL;
  *sound = true;
  int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &stmt, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const unsigned char *answer = sqlite3_column_text(stmt, 0);
      *sound = answer && strcmp((const char *)answer, "ok") == 0;
      rc = SQLITE_OK;
    }
  }
  sqlite3_finalize(stmt);
  if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) *sound = false, rc = SQLITE_OK;
  return rc;
}

/* Statements that another process may hold off for a moment (two eddi
 * starting on a fresh state folder: one makes the file WAL, the other
 * reads it) are tried again this many times, this long apart, beyond
 * SQLite's busy timeout, which some of them (the switch to WAL) do not
 * wait for. */
#define JOURNAL_BUSY_TRIES 200
#define JOURNAL_BUSY_PAUSE_US 10000

static bool journal__busy(int rc) {
  return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
}

/* sqlite3_exec, tried again while another connection holds the file. */
static int journal__exec_patient(sqlite3 *db, const char *sql, char **message) {
  int rc = SQLITE_OK;
  for (int tries = 0; tries < JOURNAL_BUSY_TRIES; tries++) {
    if (message) sqlite3_free(*message), *message = NULL;
    rc = sqlite3_exec(db, sql, NULL, NULL, message);
    if (!journal__busy(rc)) break;
    usleep(JOURNAL_BUSY_PAUSE_US);
  }
  return rc;
}

/* Bring db to EDDI_JOURNAL_SCHEMA, one transaction a step. Each step reads
 * the version inside its own BEGIN IMMEDIATE (the write lock): two
 * processes starting on one journal at the same moment take turns, and the
 * second finds the first's steps done instead of running them again (a
 * CREATE TABLE of a table that exists). *newer: the file's schema is past
 * this eddi's (nothing done), or -1 when it has none to read (corrupt). */
static int journal__migrate(sqlite3 *db, int *newer, EddiError *err) {
  *newer = 0;
  for (;;) {
    char *message = NULL;
    int version = -1;
    int rc = journal__exec_patient(db, "BEGIN IMMEDIATE", &message);
    if (rc == SQLITE_OK) rc = journal__pragma_int(db, "PRAGMA user_version", &version);
    if (rc == SQLITE_OK && version > EDDI_JOURNAL_SCHEMA) {
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      *newer = version;
      return 0;
    }
    if (rc == SQLITE_OK && version == EDDI_JOURNAL_SCHEMA) {
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      return 0;
    }
    char bump[64];
    snprintf(bump, sizeof bump, "PRAGMA user_version=%d;", version + 1);
    if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT || (rc == SQLITE_OK && version < 0)) {
      sqlite3_free(message);
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      *newer = -1; /* no schema to read: the file is not a sound journal */
      return 0;
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, journal__migrations[version], NULL, NULL, &message);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, bump, NULL, NULL, &message);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, &message);
    if (rc != SQLITE_OK) {
      eddi_error_set(err, EDDI_EIO, "Journal migration to schema %d failed: %s", version + 1,
                     message ? message : sqlite3_errstr(rc));
      sqlite3_free(message);
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      return EDDI_EIO;
    }
    sqlite3_free(message);
  }
}

/* ------------------------------------------------------------ opening */

/* Why a journal could not be used: corrupt (set it aside), too new (refuse),
 * or another failure. */
typedef enum { JOURNAL_OPENED, JOURNAL_CORRUPT, JOURNAL_NEWER, JOURNAL_FAILED } JournalOpening;

/* Whether the state file path (missing is fine) may be used: a regular
 * file of this user's, not a symbolic link. Another user who could write
 * into the state folder once may have left a link to a file of ours (which
 * SQLite or the audit would then write), or a journal of their own whose
 * sessions we would re-apply. */
static int journal__file_ours(const char *path, EddiError *err) {
  struct stat st;
  if (lstat(path, &st) < 0) {
    if (errno == ENOENT) return 0;
    return eddi_error_set(err, EDDI_EIO, "Journal %s: %s", path, strerror(errno));
  }
  const char *why = S_ISLNK(st.st_mode)   ? "is a symbolic link"
                    : !S_ISREG(st.st_mode) ? "is not a regular file"
                    : st.st_uid != geteuid() ? "belongs to another user"
                                             : NULL;
  if (!why) return 0;
  eddi_error_set(err, EDDI_ESTATE,
                 "Journal %s %s: eddi does not use it; remove it, or start with another "
                 "--state (or --no-journal)",
                 path, why);
  return EDDI_ESTATE;
}

/* Make path (the journal) mode 0600 and this user's before SQLite opens it,
 * without following a link: SQLite would make it 0644 (less the umask), and
 * its -wal and -shm files take the journal's mode. A file there already is
 * checked, and narrowed to 0600. */
static int journal__prepare_file(const char *path, EddiError *err) {
  static const char *const companions[] = {"", "-wal", "-shm"};
  for (size_t i = 0; i < sizeof companions / sizeof *companions; i++) {
    char file[EDDI_FS_PATH_MAX + 8];
    snprintf(file, sizeof file, "%s%s", path, companions[i]);
    int rc = journal__file_ours(file, err);
    if (rc < 0) return rc;
  }
  int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
  if (fd < 0) return eddi_error_set(err, EDDI_EIO, "Journal %s: %s", path, strerror(errno));
  struct stat st;
  int rc = 0;
  if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
    rc = journal__file_ours(path, err) < 0 ? err->code
                                            : eddi_error_set(err, EDDI_ESTATE,
                                                             "Journal %s changed while it was "
                                                             "opened: eddi does not use it",
                                                             path);
  else if ((st.st_mode & 07777) != 0600)
    fchmod(fd, 0600);
  close(fd);
  /* A journal an older eddi made 0644: its -wal and -shm too. */
  for (size_t i = 1; rc == 0 && i < sizeof companions / sizeof *companions; i++) {
    char file[EDDI_FS_PATH_MAX + 8];
    snprintf(file, sizeof file, "%s%s", path, companions[i]);
    int companion = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (companion >= 0 && fstat(companion, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == geteuid() && (st.st_mode & 07777) != 0600)
      fchmod(companion, 0600);
    if (companion >= 0) close(companion);
  }
  return rc;
}

static JournalOpening journal__try_open(const char *path, sqlite3 **out, EddiError *err) {
  sqlite3 *db = NULL;
  *out = NULL;
  if (journal__prepare_file(path, err) < 0) return JOURNAL_FAILED;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                          SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL);
  if (rc != SQLITE_OK) {
    eddi_error_set(err, EDDI_EIO, "Journal %s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? JOURNAL_CORRUPT : JOURNAL_FAILED;
  }
  sqlite3_busy_timeout(db, EDDI_JOURNAL_BUSY_TIMEOUT_MS);
  char *message = NULL;
  rc = journal__exec_patient(db, "PRAGMA journal_mode=WAL", &message);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
  if (rc == SQLITE_OK) eddi_journal_limit_wal(db);
  sqlite3_free(message);
  bool sound = rc != SQLITE_NOTADB && rc != SQLITE_CORRUPT;
  for (int tries = 0; rc == SQLITE_OK && tries < JOURNAL_BUSY_TRIES; tries++) {
    rc = journal__check(db, &sound);
    if (!journal__busy(rc)) break;
    usleep(JOURNAL_BUSY_PAUSE_US);
  }
  if (!sound) {
    sqlite3_close(db);
    return JOURNAL_CORRUPT;
  }
  if (rc != SQLITE_OK) {
    eddi_error_set(err, EDDI_EIO, "Journal %s: %s", path, sqlite3_errmsg(db));
    sqlite3_close(db);
    return JOURNAL_FAILED;
  }
  int newer = 0;
  if (journal__migrate(db, &newer, err) < 0) {
    sqlite3_close(db);
    return JOURNAL_FAILED;
  }
  if (newer < 0) {
    sqlite3_close(db);
    return JOURNAL_CORRUPT;
  }
  if (newer) {
    eddi_error_set(err, EDDI_ESTATE,
                   "Journal %s has schema %d, newer than this eddi's %d: run a newer eddi, "
                   "or start with --no-journal",
                   path, newer, EDDI_JOURNAL_SCHEMA);
    sqlite3_close(db);
    return JOURNAL_NEWER;
  }
  *out = db;
  return JOURNAL_OPENED;
}

/* Rename path (and its -wal and -shm files) to path.corrupt-<time>; the
 * new name goes to aside. */
static int journal__set_aside(const char *path, char *aside, size_t aside_size) {
  snprintf(aside, aside_size, "%s.corrupt-%lld", path, (long long)time(NULL));
  if (rename(path, aside) < 0) return EDDI_EIO;
  static const char *const companions[] = {"-wal", "-shm"};
  for (size_t i = 0; i < sizeof companions / sizeof *companions; i++) {
    char from[EDDI_FS_PATH_MAX + 48], to[EDDI_FS_PATH_MAX + 48];
    snprintf(from, sizeof from, "%s%s", path, companions[i]);
    snprintf(to, sizeof to, "%s%s", aside, companions[i]);
    if (rename(from, to) < 0 && errno != ENOENT) unlink(from);
  }
  return 0;
}

static void journal__settled_close(EddiJournal *self);

int eddi_journal_open(const char *state_dir, const char *instance, EddiJournal **out,
                      StrBuf *report, EddiError *err) {
  *out = NULL;
  char path[EDDI_FS_PATH_MAX];
  snprintf(path, sizeof path, "%s/" EDDI_JOURNAL_FILE, state_dir);
  sqlite3 *db = NULL;
  JournalOpening opening = journal__try_open(path, &db, err);
  if (opening == JOURNAL_CORRUPT) {
    char aside[EDDI_FS_PATH_MAX + 32];
    if (journal__set_aside(path, aside, sizeof aside) < 0)
      return eddi_error_set(err, EDDI_EIO, "Journal %s is corrupt and cannot be set aside: %s",
                            path, strerror(errno));
    eddi_strbuf_printf(report, "Journal %s was corrupt: set aside as %s, starting an empty one\n",
                       path, aside);
    opening = journal__try_open(path, &db, err);
  }
  if (opening != JOURNAL_OPENED) return err->code ? err->code : EDDI_EIO;
  EddiJournal *self = eddi_calloc(1, sizeof *self);
  self->db = db;
  self->path = eddi_strdup(path);
  self->instance = instance ? eddi_strdup(instance) : NULL;
  self->pid = (long)getpid();
  self->root_fd = -1;
  if (gethostname(self->host, sizeof self->host) < 0) snprintf(self->host, sizeof self->host, "?");
  self->host[sizeof self->host - 1] = '\0';
  sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO folders(path) VALUES(?)", -1, &self->note_folder,
                     NULL);
  eddi_journal_log_start(self, state_dir, report);
  *out = self;
  return 0;
}

void eddi_journal_limit_wal(sqlite3 *db) {
  char sql[128];
  snprintf(sql, sizeof sql, "PRAGMA wal_autocheckpoint=%d; PRAGMA journal_size_limit=%d",
           EDDI_JOURNAL_WAL_CHECKPOINT_PAGES, EDDI_JOURNAL_WAL_LIMIT_BYTES);
  sqlite3_exec(db, sql, NULL, NULL, NULL);
}

void eddi_journal_close(EddiJournal *self) {
  if (!self) return;
  journal__settled_close(self);
  eddi_journal_log_stop(self);
  eddi_journal_sessions_free(self);
  for (size_t i = 0; i < self->statement_count; i++) sqlite3_finalize(self->statements[i]);
  sqlite3_finalize(self->note_folder);
  sqlite3_close(self->db);
  for (size_t i = 0; i < self->folders.len; i++) eddi_free(self->folders.items[i]);
  array_free(&self->folders);
  eddi_free(self->path);
  eddi_free(self->instance);
  eddi_free(self);
}

const char *eddi_journal_path(const EddiJournal *self) { return self->path; }
void eddi_journal_set_root(EddiJournal *self, int root_fd) { self->root_fd = root_fd; }

void eddi_journal_test_stop(const char *point) {
  /* EDDI_TEST_STOP_AT=point[:n]: the n-th time (1 by default) eddi passes
   * point, it kills itself (SIGKILL), as kill -9 at that moment would. For
   * the crash tests, which need the moments between a change's steps. */
  static int passed;
  const char *asked = getenv("EDDI_TEST_STOP_AT");
  if (!asked) return;
  size_t len = strlen(point);
  if (strncmp(asked, point, len) != 0 || (asked[len] && asked[len] != ':')) return;
  int nth = asked[len] == ':' ? atoi(asked + len + 1) : 1;
  if (++passed >= nth) raise(SIGKILL);
}
sqlite3 *eddi_journal_db(EddiJournal *self) { return self->db; }
long eddi_journal_pid(const EddiJournal *self) { return self->pid; }
const char *eddi_journal_host(const EddiJournal *self) { return self->host; }
const char *eddi_journal_instance(const EddiJournal *self) { return self->instance; }
struct JournalMirror **eddi_journal_mirror(EddiJournal *self) { return &self->mirror; }
struct JournalLog **eddi_journal_log(EddiJournal *self) { return &self->log; }

bool eddi_journal_owner_dead(EddiJournal *self, long pid, const char *host, const char *log) {
  if (!host || strcmp(host, self->host) != 0) return false; /* another machine's: not ours to judge */
  /* The owner's log, locked while it lives, tells even a process that had
   * this one's pid (it died; this one got its pid) from this one. */
  const char *mine = eddi_journal_log_name(self);
  if (log && *log) return !(mine && strcmp(log, mine) == 0) && !eddi_journal_log_held(self, log);
  if (pid == self->pid) return false;
  return pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH);
}

/* ------------------------------------------------------------ folders */

void eddi_journal_note_folder(EddiJournal *self, const char *rel) {
  const char *slash = strrchr(rel, '/');
  size_t len = slash ? (size_t)(slash - rel) : 0;
  for (size_t i = 0; i < self->folders.len; i++)
    if (strlen(self->folders.items[i]) == len && strncmp(self->folders.items[i], rel, len) == 0)
      return;
  if (self->folders.len < JOURNAL_FOLDERS_CACHED)
    array_push(&self->folders, eddi_strndup(rel, len));
  eddi_journal_flush(self); /* the applier's transaction would hold the lock */
  sqlite3_reset(self->note_folder);
  sqlite3_bind_text(self->note_folder, 1, rel, (int)len, SQLITE_TRANSIENT);
  sqlite3_step(self->note_folder);
  sqlite3_reset(self->note_folder);
}

/* ------------------------------------------------------------ intents */

int eddi_journal_intent_begin(EddiJournal *self, const EddiIntentFile *files,
                              size_t count, const char *session, int64_t *id, EddiError *err) {
  sqlite3 *db = self->db;
  sqlite3_stmt *intent = NULL, *file = NULL;
  eddi_journal_flush(self);
  /* The intent must reach the disk before the renames it protects. */
  int rc = sqlite3_exec(db, "PRAGMA synchronous=FULL; BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2(db, "INSERT INTO intents(owner_pid, owner_host, created, owner_log,"
                                " session) VALUES(?,?,?,?,?)",
                            -1, &intent, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_int64(intent, 1, self->pid);
    sqlite3_bind_text(intent, 2, self->host, -1, SQLITE_STATIC);
    sqlite3_bind_int64(intent, 3, (sqlite3_int64)time(NULL));
    const char *log = eddi_journal_log_name(self);
    if (log) sqlite3_bind_text(intent, 4, log, -1, SQLITE_STATIC);
    else sqlite3_bind_null(intent, 4);
    if (session) sqlite3_bind_text(intent, 5, session, -1, SQLITE_STATIC);
    else sqlite3_bind_null(intent, 5);
    rc = sqlite3_step(intent) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
  }
  *id = sqlite3_last_insert_rowid(db);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2(db,
                            "INSERT INTO intent_files(intent, ord, path, action, existed,"
                            " old_hash, new_hash, temp, backup) VALUES(?,?,?,?,?,?,?,?,?)",
                            -1, &file, NULL);
  for (size_t i = 0; i < count && rc == SQLITE_OK; i++) {
    const EddiIntentFile *f = &files[i];
    sqlite3_reset(file);
    sqlite3_bind_int64(file, 1, *id);
    sqlite3_bind_int64(file, 2, (sqlite3_int64)i);
    sqlite3_bind_text(file, 3, f->rel, -1, SQLITE_STATIC);
    sqlite3_bind_int(file, 4, (int)f->action);
    sqlite3_bind_int(file, 5, f->existed);
    sqlite3_bind_int64(file, 6, (sqlite3_int64)f->old_hash);
    sqlite3_bind_int64(file, 7, (sqlite3_int64)f->new_hash);
    if (f->temp) sqlite3_bind_text(file, 8, f->temp, -1, SQLITE_STATIC);
    else sqlite3_bind_null(file, 8);
    if (f->backup) sqlite3_bind_text(file, 9, f->backup, -1, SQLITE_STATIC);
    else sqlite3_bind_null(file, 9);
    rc = sqlite3_step(file) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
  }
  sqlite3_finalize(intent);
  sqlite3_finalize(file);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    eddi_error_set(err, EDDI_EIO, "Journal: cannot record the change: %s", sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  }
  sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
  if (rc != SQLITE_OK) return EDDI_EIO;
  /* Remembered for intent_done: the session and the backups. */
  JournalIntent kept = {.id = *id, .session = session ? eddi_strdup(session) : NULL};
  /* The backups of the files written and deleted (a deleted file's is in
   * the root folder, eddi_fs_backup_at_root). */
  for (size_t i = 0; i < count; i++)
    if (files[i].backup) array_push(&kept.backups, eddi_strdup(files[i].backup));
  array_push(&self->settled, kept);
  eddi_journal_test_stop("intent-recorded");
  return 0;
}

static void journal__forget_again(EddiJournal *self);

static void journal__intent_free(JournalIntent *intent) {
  eddi_free(intent->session);
  for (size_t i = 0; i < intent->backups.len; i++) eddi_free(intent->backups.items[i]);
  array_free(&intent->backups);
}

/* The settled intent of id, or NULL. */
static JournalIntent *journal__settled(EddiJournal *self, int64_t id) {
  for (size_t i = 0; i < self->settled.len; i++)
    if (self->settled.items[i].id == id) return &self->settled.items[i];
  return NULL;
}

/* Remove the backups of the settled intent at index i and forget it. */
static void journal__settled_drop(EddiJournal *self, size_t i) {
  JournalIntent *intent = &self->settled.items[i];
  for (size_t k = 0; self->root_fd >= 0 && k < intent->backups.len; k++)
    eddi_fs_remove(self->root_fd, intent->backups.items[k]);
  journal__intent_free(intent);
  array_remove(&self->settled, i);
}

bool eddi_journal_intent_done(EddiJournal *self, int64_t id) {
  eddi_journal_test_stop("intent-done");
  JournalIntent *intent = journal__settled(self, id);
  /* A change of a session the journal keeps: its intent goes with the
   * session's next record (eddi_journal_settled_statements), which holds
   * the step that takes the change back; the backups go once that record
   * is in the log. Until then a kill leaves the intent, and the recovery
   * makes the step from the backups. */
  if (intent && intent->session && self->root_fd >= 0 &&
      eddi_journal_session_kept(self, intent->session))
    return true;
  if (intent) {
    journal__intent_free(intent);
    array_remove(&self->settled, (size_t)(intent - self->settled.items));
  }
  eddi_journal_forget_intent(self, id);
  return false;
}

size_t eddi_journal_settled_of(EddiJournal *self, const char *session, int64_t *ids,
                               size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < self->settled.len; i++) {
    const JournalIntent *intent = &self->settled.items[i];
    if (!intent->session || strcmp(intent->session, session) != 0) continue;
    if (n < max) ids[n] = intent->id;
    n++;
  }
  return n;
}

void eddi_journal_settled_written(EddiJournal *self, const char *session, bool forget_now) {
  if (self->unforgotten.len) journal__forget_again(self);
  for (size_t i = self->settled.len; i-- > 0;) {
    JournalIntent *intent = &self->settled.items[i];
    if (!intent->session || strcmp(intent->session, session) != 0) continue;
    if (forget_now) eddi_journal_forget_intent(self, intent->id);
    journal__settled_drop(self, i);
  }
}

/* The changes whose session record never came (the process closes): their
 * intents go now. */
static void journal__settled_close(EddiJournal *self) {
  for (size_t i = self->settled.len; i-- > 0;) {
    eddi_journal_forget_intent(self, self->settled.items[i].id);
    journal__settled_drop(self, i);
  }
  array_free(&self->settled);
  journal__forget_again(self);
  array_free(&self->unforgotten);
}

static bool journal__forget_now(EddiJournal *self, int64_t id) {
  sqlite3_stmt *stmt = NULL;
  eddi_journal_flush(self);
  bool done = sqlite3_exec(self->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
  static const char *const deletes[] = {"DELETE FROM intent_files WHERE intent=?",
                                        "DELETE FROM intents WHERE id=?"};
  for (size_t i = 0; done && i < sizeof deletes / sizeof *deletes; i++) {
    done = sqlite3_prepare_v2(self->db, deletes[i], -1, &stmt, NULL) == SQLITE_OK;
    if (done) {
      sqlite3_bind_int64(stmt, 1, id);
      done = sqlite3_step(stmt) == SQLITE_DONE;
    }
    sqlite3_finalize(stmt);
  }
  done = done && sqlite3_exec(self->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!done && !sqlite3_get_autocommit(self->db))
    sqlite3_exec(self->db, "ROLLBACK", NULL, NULL, NULL);
  return done;
}

/* The deletes that failed before, tried again. */
static void journal__forget_again(EddiJournal *self) {
  for (size_t i = self->unforgotten.len; i-- > 0;)
    if (journal__forget_now(self, self->unforgotten.items[i])) array_remove(&self->unforgotten, i);
}

void eddi_journal_forget_intent(EddiJournal *self, int64_t id) {
  journal__forget_again(self);
  if (!journal__forget_now(self, id)) array_push(&self->unforgotten, id);
}

/* ------------------------------------------------------------ blobs */

void eddi_journal_blob_put(StrBuf *out, const char *bytes, size_t len) {
  unsigned char head[4] = {(unsigned char)len, (unsigned char)(len >> 8),
                           (unsigned char)(len >> 16), (unsigned char)(len >> 24)};
  eddi_strbuf_append(out, (const char *)head, sizeof head);
  eddi_strbuf_append(out, bytes ? bytes : "", len);
}

bool eddi_journal_blob_next(const char *blob, size_t len, size_t *at, const char **bytes,
                            size_t *n) {
  if (*at + 4 > len) return false;
  const unsigned char *head = (const unsigned char *)blob + *at;
  size_t size = head[0] | (size_t)head[1] << 8 | (size_t)head[2] << 16 | (size_t)head[3] << 24;
  if (size > len - *at - 4) return false;
  *bytes = blob + *at + 4;
  *n = size;
  *at += 4 + size;
  return true;
}
