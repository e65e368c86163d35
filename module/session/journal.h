/* journal.h - the journal: one SQLite file per workspace under every write.
 *
 * What a crash or a restart must not lose is written here as it happens:
 * the sessions (open files, cursors, bookmarks, registers, hashline
 * snapshots, the unsaved edits of each file as the edits made since it
 * was read, with the hash of the disk text they apply to, the named
 * changesets of scripts and the multi-file Undo and Redo steps), and the intent
 * of every change that renames more than one file into place (the files,
 * their old and new content hashes, the temporary and backup names). On
 * start the journal rolls an interrupted change forward or back, sweeps
 * the temporary files eddi left, and gives back the sessions whose process
 * died.
 *
 * SQLite because it is the one embedded store that is crash-safe by
 * design, needs no daemon, and is a Debian package (libsqlite3-dev). WAL
 * mode, so a write is an append and readers never wait; synchronous=NORMAL
 * for the session records (a commit survives kill -9 of eddi, the OS keeps
 * the WAL; a power cut may lose the last commits, never the file's
 * consistency), and synchronous=FULL for an intent (the record must be on
 * the disk before the first rename it protects). The schema is versioned in
 * PRAGMA user_version and brought up to date by the migrations in
 * journal.c; a journal from a newer eddi is refused, one that SQLite finds
 * corrupt is set aside (renamed) and a fresh one started. doc/journal.org
 * says what a user sees.
 *
 * The session records go through a redo log first (journal_log.c: one
 * write before the reply, SQLite on the journal's applier thread after
 * it). Everything else of the journal belongs to the engine's owner
 * thread, like the rest of the engine; the two threads meet only at the
 * log's queue, and each has its own SQLite connection.
 */
#ifndef EDDI_JOURNAL_H
#define EDDI_JOURNAL_H

#include "core/common.h"
#include "workspace/workspace.h"

typedef struct EddiJournal EddiJournal;
struct EddiEngine;
struct EddiSession;

/* The schema this eddi writes. Each step up is a migration in journal.c. */
#define EDDI_JOURNAL_SCHEMA 8
/* How long a statement waits for another connection holding the journal's
 * write lock (two eddi processes on one workspace, or this process's
 * applier) before failing. */
#define EDDI_JOURNAL_BUSY_TIMEOUT_MS 5000
/* The write-ahead log is copied into the journal once it holds this many
 * pages, and cut back to this many bytes after that, so it stays near the
 * size of a few commands' records instead of growing to SQLite's default
 * of 1000 pages (4 MB) beside a journal of a few kilobytes. */
#define EDDI_JOURNAL_WAL_CHECKPOINT_PAGES 32
#define EDDI_JOURNAL_WAL_LIMIT_BYTES 131072
/* Apply the two limits above to a connection of the journal. */
struct sqlite3;
void eddi_journal_limit_wal(struct sqlite3 *db);
/* The journal's file name inside the state folder. */
#define EDDI_JOURNAL_FILE "journal.sqlite"

/* Open (or make) the journal in state_dir. A corrupt journal is renamed
 * aside and a fresh one made; what was done is appended to report (lines).
 * A journal of a newer schema is EDDI_ESTATE with err saying so. */
int eddi_journal_open(const char *state_dir, const char *instance, EddiJournal **out,
                      StrBuf *report, EddiError *err);
void eddi_journal_close(EddiJournal *self);

/* The journal's file (borrowed). */
const char *eddi_journal_path(const EddiJournal *self);

/* The SQLite schema version of the file at path, for tests and messages;
 * -1 when it cannot be read. */
int eddi_journal_file_schema(const char *path);
/* The SQL that brings a journal from schema from to from + 1 (NULL past
 * the last), for tests that make a journal of an older schema. */
const char *eddi_journal_migration(int from);

/* ------------------------------------------------------------ folders */

/* Remember that eddi writes into the folder holding rel (temporary files
 * may be left there by a crash): swept at the next start. Cheap when the
 * folder is known. */
void eddi_journal_note_folder(EddiJournal *self, const char *rel);

/* ------------------------------------------------------------ intents */

/* Record the intent of a change of several files (workspace.h's
 * EddiIntentFile), made by a command of session (NULL: none), durably,
 * before its first rename; *id names it for eddi_journal_intent_done. */
int eddi_journal_intent_begin(EddiJournal *self, const EddiIntentFile *files,
                              size_t count, const char *session, int64_t *id, EddiError *err);
/* The change is complete (or was put back). The intent of a change of a
 * session the journal keeps is forgotten with that session's next record
 * (the one holding the step Undo takes back), not now: true, and the
 * journal removes the change's backups then (the caller leaves them). A
 * kill before that record leaves the intent, whose backups the recovery
 * makes the session's Undo step from. false: forgotten now. */
bool eddi_journal_intent_done(EddiJournal *self, int64_t id);
/* Forget intent id now. */
void eddi_journal_forget_intent(EddiJournal *self, int64_t id);
/* The intents kept for session's next record: their ids (up to max) into
 * ids, how many there are. */
size_t eddi_journal_settled_of(EddiJournal *self, const char *session, int64_t *ids, size_t max);
/* Session's record with the deletes of those intents is in the log (or,
 * forget_now, it could not be written: they are deleted on SQLite now):
 * their backups go. */
void eddi_journal_settled_written(EddiJournal *self, const char *session, bool forget_now);
/* Whether the journal keeps session name's rows (this process journals
 * it, not another live one). */
bool eddi_journal_session_kept(EddiJournal *self, const char *name);
/* The workspace's root, for the backups of settled changes (set by the
 * recovery, before any change). */
void eddi_journal_set_root(EddiJournal *self, int root_fd);

/* For the crash tests: with EDDI_TEST_STOP_AT=point (or point:n, the n-th
 * time) in the environment, eddi kills itself (SIGKILL) there. The points:
 * intent-recorded (a change's intent is durable, no file renamed yet),
 * intent-done (every file renamed in, the intent not yet forgotten),
 * session-sync (a change is complete, its session's record not yet
 * written). */
void eddi_journal_test_stop(const char *point);

/* On start: finish or undo every change whose process died, then sweep the
 * folders eddi wrote into. Lines for the log go to report; an audit record
 * of each change settled (its files, outcome "rolled_forward" or
 * "rolled_back", transport "recovery", instance) to audit. */
void eddi_journal_recover_writes(EddiJournal *self, int root_fd, StrBuf *report,
                                 const char *instance, StrBuf *audit);

/* ------------------------------------------------------------ sessions */

/* Bring the journal's record of sender's session up to date after a
 * command (and forget a session of sender that ended). */
void eddi_journal_sync_sender(EddiJournal *self, struct EddiEngine *engine, const char *sender);

/* On start: give the engine back the sessions whose process died, with
 * their files and unsaved edits; lines for the log go to report. Each
 * restored session remembers what was restored for its Start's reply. */
int eddi_journal_restore(EddiJournal *self, struct EddiEngine *engine, StrBuf *report);

/* The sessions in the journal file at path, read only, as
 * eddi_engine_journal_sessions lists them, appended to out. A missing file
 * lists nothing. */
int eddi_journal_list_file(const char *path, StrBuf *out);

/* While running: take the sessions that instance (found dead) held in
 * this journal, as on start; each remembers it was taken over for its
 * sender's next reply. */
int eddi_journal_take_over(EddiJournal *self, struct EddiEngine *engine, const char *instance,
                           StrBuf *report);

/* Take a restored session's record as the journal's own: its files'
 * records are rewritten at its next sync. */
void eddi_journal_adopt(EddiJournal *self, const struct EddiSession *session);

/* Forget session name's record (End). */
void eddi_journal_forget(EddiJournal *self, const char *name);

/* ------------------------------------------------------------ the KV mirror */

/* journal_kv.c: session name's rows as one record (appended to out), for a
 * bucket to carry to an instance with another journal; EDDI_ENOENT when
 * the journal has none. */
int eddi_journal_record(EddiJournal *self, const char *session, StrBuf *out);
/* Put a record's rows in this journal as held by instance (found dead), for
 * eddi_journal_take_over to claim: 1 when imported, 0 when the journal has
 * the session already (a shared state folder: its rows win). */
int eddi_journal_import(EddiJournal *self, const char *instance, const char *record, size_t len,
                        EddiError *err);
/* A number that grows whenever a sync wrote session name's rows (0: not
 * journaled here). */
uint64_t eddi_journal_session_version(EddiJournal *self, const char *name);
/* Another instance took session name over: stop journaling it, and forget
 * its rows when they are still this process's own. */
void eddi_journal_disown(EddiJournal *self, const char *name);

/* ------------------------------------------------------------ the redo log */

/* journal_log.c: the sessions' rows reach SQLite through a redo log (see
 * its opening comment): a record of one session's statements is appended
 * to this process's log before the command's reply and applied on the
 * journal's applier thread after it. A record is built with the
 * eddi_redo_* calls: begin, then each statement followed by its values in
 * parameter order. claims: the record writes the session's row anew
 * (Start); it is applied before eddi_journal_append returns. false: the
 * record reached neither the log nor SQLite (a full disk), or follows one
 * that did not: the session's rows are to be written anew by its next
 * sync (a claim). */
void eddi_redo_begin(StrBuf *record, const char *session, bool claims);
void eddi_redo_sql(StrBuf *record, const char *sql);
void eddi_redo_int(StrBuf *record, int64_t value);
void eddi_redo_text(StrBuf *record, const char *text); /* NULL: null */
void eddi_redo_blob(StrBuf *record, const void *bytes, size_t len);
void eddi_redo_null(StrBuf *record);
bool eddi_journal_append(EddiJournal *self, const char *record, size_t len, bool claims);
/* Wait until every record appended is in SQLite: before reading the
 * sessions' rows or writing them on the owner's connection. EDDI_EIO when
 * the applier did not catch up in time (it keeps trying; the log keeps
 * the records). */
int eddi_journal_flush(EddiJournal *self);
/* Whether the journal cannot keep up (a full state disk): some session's
 * records were left out, or its applier fails for the disk. Commands go on
 * meanwhile; said once on stderr, and again when it has caught up. */
bool eddi_journal_behind(EddiJournal *self);
/* Apply the unapplied records of process pid's log (an instance found
 * dead by liveness, perhaps only stopped), before its sessions are taken. */
void eddi_journal_replay_of(EddiJournal *self, long pid);
/* A record (or a log's header naming its writer) framed as the log holds
 * it: for tests and the fuzzer, which write logs of their own. */
void eddi_redo_frame(StrBuf *out, const char *record, size_t len);
void eddi_redo_header_frame(StrBuf *out, long pid, const char *host);
/* For tests: the applier leaves records queued while held (a flush then
 * returns at once), as a process killed before its applier ran would. */
void eddi_journal_hold_applier(EddiJournal *self, bool hold);

/* ------------------------------------------------------------ for the parts */

/* journal.c keeps the database; journal_sessions.c and journal_recover.c
 * use it through these. */
struct sqlite3;
struct sqlite3 *eddi_journal_db(EddiJournal *self);
/* The prepared statement of sql, a string literal (cached by its address),
 * reset; NULL when it does not prepare. cached says whether the cache
 * owns stmt (else the caller finalizes it). */
struct sqlite3_stmt;
struct sqlite3_stmt *eddi_journal_statement(EddiJournal *self, const char *sql);
bool eddi_journal_statement_cached(EddiJournal *self, struct sqlite3_stmt *stmt);
/* This process's owner fields. */
long eddi_journal_pid(const EddiJournal *self);
const char *eddi_journal_host(const EddiJournal *self);
const char *eddi_journal_instance(const EddiJournal *self);
/* Whether the process pid of host, whose redo log is log (NULL: not
 * known), is gone (so its records may be taken). */
bool eddi_journal_owner_dead(EddiJournal *self, long pid, const char *host, const char *log);
/* This process's redo log's name (NULL without one), and whether a live
 * process holds the log called name (journal_log.c). */
const char *eddi_journal_log_name(EddiJournal *self);
bool eddi_journal_log_held(EddiJournal *self, const char *name);
/* Records in a blob (marks, registers): each a 4-byte little-endian length
 * and its bytes. next gives the record at *at, false at the end or when
 * damaged. */
void eddi_journal_blob_put(StrBuf *out, const char *bytes, size_t len);
bool eddi_journal_blob_next(const char *blob, size_t len, size_t *at, const char **bytes,
                            size_t *n);
/* The journal-side state of the sessions (journal_sessions.c). */
void eddi_journal_sessions_free(EddiJournal *self);
struct JournalMirror;
struct JournalMirror **eddi_journal_mirror(EddiJournal *self);
/* Whether sql is one of the statements a sync writes with: the only ones a
 * redo log may run (journal_sessions.c). */
bool eddi_journal_statement_known(const char *sql, size_t len);
/* The redo log (journal_log.c): started once the file is open (the logs
 * of dead processes are applied first), stopped before it closes. */
struct JournalLog;
struct JournalLog **eddi_journal_log(EddiJournal *self);
int eddi_journal_log_start(EddiJournal *self, const char *state_dir, StrBuf *report);
void eddi_journal_log_stop(EddiJournal *self);

#endif
