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

/* One integer of a PRAGMA, or -1. */
static int journal__pragma_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *stmt = NULL;
  int value = -1;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW)
    value = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  return value;
}

/* Whether SQLite finds the file sound: quick_check answers "ok". */
static bool journal__sound(sqlite3 *db) {
  sqlite3_stmt *stmt = NULL;
  bool ok = false;
  if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW) {
    const unsigned char *answer = sqlite3_column_text(stmt, 0);
    ok = answer && strcmp((const char *)answer, "ok") == 0;
  }
  sqlite3_finalize(stmt);
  return ok;
}

/* Bring db from its schema to EDDI_JOURNAL_SCHEMA, one transaction a step. */
static int journal__migrate(sqlite3 *db, int from, EddiError *err) {
  for (int version = from; version < EDDI_JOURNAL_SCHEMA; version++) {
    char *message = NULL;
    char bump[64];
    snprintf(bump, sizeof bump, "PRAGMA user_version=%d;", version + 1);
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &message);
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
  }
  return 0;
}

/* ------------------------------------------------------------ opening */

/* Why a journal could not be used: corrupt (set it aside), too new (refuse),
 * or another failure. */
typedef enum { JOURNAL_OPENED, JOURNAL_CORRUPT, JOURNAL_NEWER, JOURNAL_FAILED } JournalOpening;

static JournalOpening journal__try_open(const char *path, sqlite3 **out, EddiError *err) {
  sqlite3 *db = NULL;
  *out = NULL;
  int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                          SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK) {
    eddi_error_set(err, EDDI_EIO, "Journal %s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? JOURNAL_CORRUPT : JOURNAL_FAILED;
  }
  sqlite3_busy_timeout(db, EDDI_JOURNAL_BUSY_TIMEOUT_MS);
  char *message = NULL;
  rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL,
                    &message);
  sqlite3_free(message);
  if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT || (rc == SQLITE_OK && !journal__sound(db))) {
    sqlite3_close(db);
    return JOURNAL_CORRUPT;
  }
  if (rc != SQLITE_OK) {
    eddi_error_set(err, EDDI_EIO, "Journal %s: %s", path, sqlite3_errmsg(db));
    sqlite3_close(db);
    return JOURNAL_FAILED;
  }
  int version = journal__pragma_int(db, "PRAGMA user_version");
  if (version > EDDI_JOURNAL_SCHEMA) {
    eddi_error_set(err, EDDI_ESTATE,
                   "Journal %s has schema %d, newer than this eddi's %d: run a newer eddi, "
                   "or start with --no-journal",
                   path, version, EDDI_JOURNAL_SCHEMA);
    sqlite3_close(db);
    return JOURNAL_NEWER;
  }
  if (version < 0 || journal__migrate(db, version, err) < 0) {
    if (version < 0) eddi_error_set(err, EDDI_EIO, "Journal %s: no schema version", path);
    sqlite3_close(db);
    return version < 0 ? JOURNAL_CORRUPT : JOURNAL_FAILED;
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
  if (gethostname(self->host, sizeof self->host) < 0) snprintf(self->host, sizeof self->host, "?");
  self->host[sizeof self->host - 1] = '\0';
  sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO folders(path) VALUES(?)", -1, &self->note_folder,
                     NULL);
  eddi_journal_log_start(self, state_dir, report);
  *out = self;
  return 0;
}

void eddi_journal_close(EddiJournal *self) {
  if (!self) return;
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
                              size_t count, int64_t *id, EddiError *err) {
  sqlite3 *db = self->db;
  sqlite3_stmt *intent = NULL, *file = NULL;
  eddi_journal_flush(self);
  /* The intent must reach the disk before the renames it protects. */
  int rc = sqlite3_exec(db, "PRAGMA synchronous=FULL; BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2(db, "INSERT INTO intents(owner_pid, owner_host, created, owner_log)"
                                " VALUES(?,?,?,?)",
                            -1, &intent, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_int64(intent, 1, self->pid);
    sqlite3_bind_text(intent, 2, self->host, -1, SQLITE_STATIC);
    sqlite3_bind_int64(intent, 3, (sqlite3_int64)time(NULL));
    const char *log = eddi_journal_log_name(self);
    if (log) sqlite3_bind_text(intent, 4, log, -1, SQLITE_STATIC);
    else sqlite3_bind_null(intent, 4);
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
  return rc == SQLITE_OK ? 0 : EDDI_EIO;
}

void eddi_journal_intent_done(EddiJournal *self, int64_t id) {
  sqlite3_stmt *stmt = NULL;
  eddi_journal_flush(self);
  sqlite3_exec(self->db, "BEGIN", NULL, NULL, NULL);
  static const char *const deletes[] = {"DELETE FROM intent_files WHERE intent=?",
                                        "DELETE FROM intents WHERE id=?"};
  for (size_t i = 0; i < sizeof deletes / sizeof *deletes; i++) {
    if (sqlite3_prepare_v2(self->db, deletes[i], -1, &stmt, NULL) == SQLITE_OK) {
      sqlite3_bind_int64(stmt, 1, id);
      sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_exec(self->db, "COMMIT", NULL, NULL, NULL);
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
