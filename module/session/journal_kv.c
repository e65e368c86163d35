/* journal_kv.c - a session's journal rows as one compact record, for an
 * instance with another state folder to take the session over; and the
 * standing down of a session another instance took over.
 *
 * eddi-server --kv mirrors each session to a JetStream key-value bucket
 * (server/session_kv.c). The bucket must carry the session's state, not
 * only who holds it, so that a live instance on another machine (or with
 * its own --state) can take over a dead one's session with its unsaved
 * edits, bookmarks and changesets. The record is the journal's own rows of
 * the session, table by table, because those are already what a restart
 * restores from: importing them into the taker's journal and running the
 * journal's takeover reuses the whole restore (re-applied or rebased
 * edits, changesets, snapshots) instead of a second decoder of state.
 *
 * The record is a sequence of length-prefixed fields (eddi_journal_blob_put):
 * "eddi-session", the schema number, then for each row its table's name,
 * its column count and each value as a type letter (n null, i integer,
 * b bytes) followed by the value's bytes (an integer in decimal). Both
 * ends must have the same schema: a record of another is refused, and the
 * takeover then falls back to a shared journal.
 *
 * Standing down: an instance that was stopped (SIGSTOP, a long pause) and
 * found dead by the others comes back to find its session held elsewhere.
 * It drops the session without ending it (an End would tell the others,
 * and the bucket, that the session is gone) and forgets the journal rows
 * that are still its own.
 */
#include <sqlite3.h>

#include "eddi.h"
#include "session/engine.h"
#include "session/journal.h"

/* The first field of a record, so that a stray value is not read as one. */
#define JOURNAL_RECORD_MAGIC "eddi-session"
/* Longest column count or integer written as a field, in decimal. */
#define JOURNAL_RECORD_NUMBER_MAX 32
/* A file's base text (the disk text its edits apply to, kept for a rebase)
 * larger than this is left out of a record: every changing command puts
 * the record, and JetStream refuses values over its max (1 MiB by
 * default). A taker whose disk still has the base's hash re-applies the
 * edits without it; one whose disk changed keeps the edits aside and
 * reports it, as for a file too large to keep a base of. */
#define JOURNAL_RECORD_BASE_MAX ((size_t)64 << 10)
/* The multi-file Undo steps (txn_files) keep whole texts: a record carries
 * the newest steps whose texts add up to this, and leaves the older ones
 * out (the taker's Undo history is shorter, never wrong), so that one
 * large Refactor does not push the whole session past JetStream's max and
 * out of the bucket. */
#define JOURNAL_RECORD_HISTORY_MAX ((size_t)256 << 10)
/* Most columns a journal table has (changeset_files has 14). */
#define JOURNAL_RECORD_COLUMNS_MAX 32

/* The tables that hold a session's rows, by the column naming it. The
 * order is the restore's: the session row first. */
static const struct {
  const char *table;
  const char *select;
} journal_record__tables[] = {
    {"sessions", "SELECT * FROM sessions WHERE name=?"},
    {"docs", "SELECT * FROM docs WHERE session=?"},
    {"edits", "SELECT * FROM edits WHERE session=?"},
    {"snapshots", "SELECT * FROM snapshots WHERE session=?"},
    {"changesets", "SELECT * FROM changesets WHERE session=?"},
    {"changeset_files", "SELECT * FROM changeset_files WHERE session=?"},
    /* The second parameter: the oldest step kept (journal_record__history_from). */
    {"txn_files", "SELECT * FROM txn_files WHERE session=? AND step>=?"},
};
#define JOURNAL_RECORD_TABLES (sizeof journal_record__tables / sizeof *journal_record__tables)

static void journal_record__number(StrBuf *out, const char *type, long long value) {
  char digits[JOURNAL_RECORD_NUMBER_MAX];
  int n = snprintf(digits, sizeof digits, "%s%lld", type, value);
  eddi_journal_blob_put(out, digits, (size_t)n);
}

/* ------------------------------------------------------------ writing */

/* The oldest serial of session's Undo steps a record carries: of the
 * newest steps whose texts fit JOURNAL_RECORD_HISTORY_MAX (INT64_MAX: none). */
static int64_t journal_record__history_from(sqlite3 *db, const char *session) {
  sqlite3_stmt *stmt = NULL;
  int64_t from = INT64_MAX;
  size_t total = 0;
  if (sqlite3_prepare_v2(db, "SELECT step, sum(length(side_text)) FROM txn_files"
                             " WHERE session=? GROUP BY step ORDER BY step DESC",
                         -1, &stmt, NULL) != SQLITE_OK)
    return from;
  sqlite3_bind_text(stmt, 1, session, -1, SQLITE_STATIC);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    total += (size_t)sqlite3_column_int64(stmt, 1);
    if (total > JOURNAL_RECORD_HISTORY_MAX) break;
    from = sqlite3_column_int64(stmt, 0);
  }
  sqlite3_finalize(stmt);
  return from;
}

int eddi_journal_record(EddiJournal *self, const char *session, StrBuf *out) {
  sqlite3 *db = eddi_journal_db(self);
  eddi_journal_flush(self); /* the rows as of the last command */
  eddi_journal_blob_put(out, JOURNAL_RECORD_MAGIC, strlen(JOURNAL_RECORD_MAGIC));
  journal_record__number(out, "", EDDI_JOURNAL_SCHEMA);
  size_t rows = 0;
  /* One read transaction: the rows of every table as of one moment (a
   * savepoint, which nests in a transaction a caller may have open). */
  sqlite3_exec(db, "SAVEPOINT journal_record", NULL, NULL, NULL);
  int64_t history_from = journal_record__history_from(db, session);
  for (size_t t = 0; t < JOURNAL_RECORD_TABLES; t++) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, journal_record__tables[t].select, -1, &stmt, NULL) != SQLITE_OK)
      continue;
    sqlite3_bind_text(stmt, 1, session, -1, SQLITE_STATIC);
    if (sqlite3_bind_parameter_count(stmt) > 1) sqlite3_bind_int64(stmt, 2, history_from);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      int columns = sqlite3_column_count(stmt);
      const char *table = journal_record__tables[t].table;
      eddi_journal_blob_put(out, table, strlen(table));
      journal_record__number(out, "", columns);
      for (int c = 0; c < columns; c++) {
        int type = sqlite3_column_type(stmt, c);
        if (type != SQLITE_NULL && (size_t)sqlite3_column_bytes(stmt, c) > JOURNAL_RECORD_BASE_MAX &&
            strcmp(sqlite3_column_name(stmt, c), "base_text") == 0)
          type = SQLITE_NULL;
        if (type == SQLITE_NULL) {
          eddi_journal_blob_put(out, "n", 1);
        } else if (type == SQLITE_INTEGER) {
          journal_record__number(out, "i", (long long)sqlite3_column_int64(stmt, c));
        } else {
          /* Text and blobs alike: SQLite gives text back as stored. */
          const void *bytes = sqlite3_column_blob(stmt, c);
          size_t len = (size_t)sqlite3_column_bytes(stmt, c);
          StrBuf value = {0};
          eddi_strbuf_append(&value, type == SQLITE_TEXT ? "t" : "b", 1);
          eddi_strbuf_append(&value, bytes ? bytes : "", len);
          eddi_journal_blob_put(out, value.data, value.len);
          eddi_strbuf_free(&value);
        }
      }
      rows++;
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_exec(db, "RELEASE journal_record", NULL, NULL, NULL);
  return rows ? 0 : EDDI_ENOENT;
}

/* ------------------------------------------------------------ reading */

/* The number in a field of len bytes after its type letters (skip). */
static bool journal_record__parse_number(const char *bytes, size_t len, size_t skip,
                                         long long *value) {
  char digits[JOURNAL_RECORD_NUMBER_MAX];
  if (len <= skip || len - skip >= sizeof digits) return false;
  memcpy(digits, bytes + skip, len - skip);
  digits[len - skip] = '\0';
  char *end;
  *value = strtoll(digits, &end, 10);
  return *end == '\0';
}

/* Whether name is one of the record's tables; the INSERT of a row of
 * columns values for it into insert. */
static bool journal_record__table(const char *name, size_t len, int columns, char *insert,
                                  size_t insert_size) {
  for (size_t t = 0; t < JOURNAL_RECORD_TABLES; t++) {
    const char *table = journal_record__tables[t].table;
    if (strlen(table) != len || memcmp(table, name, len) != 0) continue;
    StrBuf sql = {0};
    eddi_strbuf_printf(&sql, "INSERT OR REPLACE INTO %s VALUES(", table);
    for (int c = 0; c < columns; c++) eddi_strbuf_puts(&sql, c ? ",?" : "?");
    eddi_strbuf_puts(&sql, ")");
    bool fits = sql.len < insert_size;
    if (fits) memcpy(insert, sql.data, sql.len + 1);
    eddi_strbuf_free(&sql);
    return fits;
  }
  return false;
}

/* Insert the record's rows (in the caller's transaction); the session's
 * name into name. */
static int journal_record__insert(sqlite3 *db, const char *record, size_t len, char *name,
                                  size_t name_size, EddiError *err) {
  size_t at = 0, n;
  const char *field;
  long long schema = -1;
  if (!eddi_journal_blob_next(record, len, &at, &field, &n) ||
      n != strlen(JOURNAL_RECORD_MAGIC) || memcmp(field, JOURNAL_RECORD_MAGIC, n) != 0 ||
      !eddi_journal_blob_next(record, len, &at, &field, &n) ||
      !journal_record__parse_number(field, n, 0, &schema))
    return eddi_error_set(err, EDDI_EINVAL, "Not a session record");
  if (schema != EDDI_JOURNAL_SCHEMA)
    return eddi_error_set(err, EDDI_ESTATE, "A session record of schema %lld, this eddi's is %d",
                          schema, EDDI_JOURNAL_SCHEMA);
  name[0] = '\0';
  while (at < len) {
    const char *table;
    size_t table_len;
    long long columns = 0;
    char insert[JOURNAL_RECORD_COLUMNS_MAX * 2 + 64];
    if (!eddi_journal_blob_next(record, len, &at, &table, &table_len) ||
        !eddi_journal_blob_next(record, len, &at, &field, &n) ||
        !journal_record__parse_number(field, n, 0, &columns) || columns < 1 ||
        columns > JOURNAL_RECORD_COLUMNS_MAX ||
        !journal_record__table(table, table_len, (int)columns, insert, sizeof insert))
      return eddi_error_set(err, EDDI_EINVAL, "A damaged session record");
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, insert, -1, &stmt, NULL) != SQLITE_OK)
      return eddi_error_set(err, EDDI_EIO, "Journal: %s", sqlite3_errmsg(db));
    bool good = true;
    for (int c = 0; c < columns && good; c++) {
      long long value;
      good = eddi_journal_blob_next(record, len, &at, &field, &n) && n >= 1;
      if (!good) break;
      if (field[0] == 'n') sqlite3_bind_null(stmt, c + 1);
      else if (field[0] == 'i' && journal_record__parse_number(field, n, 1, &value))
        sqlite3_bind_int64(stmt, c + 1, value);
      else if (field[0] == 't') sqlite3_bind_text(stmt, c + 1, field + 1, (int)n - 1, SQLITE_STATIC);
      else if (field[0] == 'b') sqlite3_bind_blob(stmt, c + 1, field + 1, (int)n - 1, SQLITE_STATIC);
      else good = false;
      /* The session row's first column is its name. */
      if (good && c == 0 && table_len == strlen("sessions") && memcmp(table, "sessions", table_len) == 0)
        snprintf(name, name_size, "%.*s", (int)(n - 1), field + 1);
    }
    good = good && sqlite3_step(stmt) == SQLITE_DONE;
    sqlite3_finalize(stmt);
    if (!good) return eddi_error_set(err, EDDI_EINVAL, "A damaged session record");
  }
  if (!name[0]) return eddi_error_set(err, EDDI_EINVAL, "A session record without its session");
  return 0;
}

/* Whether the journal has a row for the record's session already. */
static bool journal_record__known(sqlite3 *db, const char *record, size_t len) {
  size_t at = 0, n;
  const char *field;
  /* magic, schema, "sessions", its column count, then the name ('t' + bytes) */
  for (int i = 0; i < 5; i++)
    if (!eddi_journal_blob_next(record, len, &at, &field, &n)) return false;
  if (n < 1 || field[0] != 't') return false;
  sqlite3_stmt *stmt = NULL;
  bool known = false;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM sessions WHERE name=?", -1, &stmt, NULL) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, field + 1, (int)n - 1, SQLITE_STATIC);
    known = sqlite3_step(stmt) == SQLITE_ROW;
  }
  sqlite3_finalize(stmt);
  return known;
}

int eddi_journal_import(EddiJournal *self, const char *instance, const char *record, size_t len,
                        EddiError *err) {
  sqlite3 *db = eddi_journal_db(self);
  eddi_journal_flush(self);
  /* A journal that has the session (a shared state folder) knows it at
   * least as well as the bucket: its rows win. */
  if (journal_record__known(db, record, len)) return 0;
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return eddi_error_set(err, EDDI_EIO, "Journal: %s", sqlite3_errmsg(db));
  char name[EDDI_SESSION_NAME_MAX + 1];
  int rc = journal_record__insert(db, record, len, name, sizeof name, err);
  /* Held by the dead instance through a process that is surely gone (pid
   * 0 of this host), so that the takeover claims it. */
  sqlite3_stmt *stmt = NULL;
  if (rc == 0 && sqlite3_prepare_v2(db, "UPDATE sessions SET owner_pid=0, owner_host=?, instance=?, owner_log=NULL"
                                        " WHERE name=?",
                                    -1, &stmt, NULL) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, eddi_journal_host(self), -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, instance, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE) rc = eddi_error_set(err, EDDI_EIO, "Journal: %s", sqlite3_errmsg(db));
  }
  sqlite3_finalize(stmt);
  sqlite3_exec(db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
  return rc < 0 ? rc : 1;
}

/* ------------------------------------------------------------ the engine's side */

uint64_t eddi_engine_session_version(EddiEngine *self, const char *session) {
  return self->journal ? eddi_journal_session_version(self->journal, session) : 0;
}

int eddi_engine_session_record(EddiEngine *self, const char *session, char **out, size_t *len) {
  *out = NULL;
  *len = 0;
  if (!self->journal) return EDDI_ESTATE;
  StrBuf record = {0};
  int rc = eddi_journal_record(self->journal, session, &record);
  if (rc < 0) {
    eddi_strbuf_free(&record);
    return rc;
  }
  *len = record.len;
  *out = eddi_strbuf_take(&record);
  return 0;
}

int eddi_engine_import_session(EddiEngine *self, const char *instance, const char *record,
                               size_t len, char *error, size_t error_size) {
  if (error_size) error[0] = '\0';
  if (!self->journal || !instance || !instance[0]) return EDDI_ESTATE;
  EddiError err;
  eddi_error_clear(&err);
  int rc = eddi_journal_import(self->journal, instance, record, len, &err);
  if (rc < 0 && error_size) snprintf(error, error_size, "%s", err.what);
  return rc;
}

int eddi_engine_stand_down(EddiEngine *self, const char *session, const char *holder) {
  EddiSession *held = eddi_sessions_by_name(self->sessions, session);
  if (!held) return EDDI_ENOENT;
  char *sender = eddi_strdup(held->sender);
  if (self->journal) eddi_journal_disown(self->journal, session);
  eddi_sessions_end(self->sessions, held);
  eddi_registry_remove(&self->registry, session, NULL);
  eddi_registry_add(&self->registry, session, sender, holder);
  eddi_free(sender);
  return 0;
}
