/* test_journal.c - the journal: its file (schema, a corrupt or truncated
 * journal set aside, a newer one refused), the recovery of a multi-file
 * change a dead process left (forward and back), and sessions that come
 * back in a new process with their unsaved edits, bookmarks and snapshots,
 * rebased or kept when the file changed on disk meanwhile, and their
 * multi-file Undo and Redo steps.
 *
 * A "dead process" is a forked child that does its work and _exits without
 * cleaning up, as kill -9 would leave it. */
#include "journal_support.h"

#include <signal.h>
#include <xxhash.h>

#include "core/fs.h"

/* ------------------------------------------------------------ the file */

static void test_journal_is_made_with_the_schema(void **state) {
  Fixture *fx = *state;
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "");
  eddi_engine_free(engine);
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  assert_int_equal(eddi_journal_file_schema(path), EDDI_JOURNAL_SCHEMA);
}

static void assert_set_aside(const Fixture *fx, const char *report) {
  assert_non_null(strstr(report, "was corrupt: set aside as"));
  bool aside = false;
  DIR *dir = opendir(fx->state);
  for (struct dirent *entry; (entry = readdir(dir));)
    aside |= strstr(entry->d_name, EDDI_JOURNAL_FILE ".corrupt-") != NULL;
  closedir(dir);
  assert_true(aside);
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  assert_int_equal(eddi_journal_file_schema(path), EDDI_JOURNAL_SCHEMA);
}

static void test_journal_corrupt_is_set_aside(void **state) {
  Fixture *fx = *state;
  write_in(fx->state, EDDI_JOURNAL_FILE, "this is no database, just some bytes written over it\n");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_set_aside(fx, report);
  expect_reply(engine, "Start s", "Ok");
  eddi_engine_free(engine);
}

static void test_journal_truncated_is_set_aside(void **state) {
  Fixture *fx = *state;
  run_and_die(fx, "Start s\nOpen Create a.txt\nInsert Block \"some text\"");
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  /* Checkpoint the WAL into the file, then cut the file in the middle. */
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE", NULL, NULL, NULL);
  sqlite3_close(db);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(truncate(path, st.st_size / 2 + 100), 0);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_set_aside(fx, report);
  eddi_engine_free(engine);
}

static void test_journal_newer_schema_is_refused(void **state) {
  Fixture *fx = *state;
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sqlite3_exec(db, "PRAGMA user_version=99", NULL, NULL, NULL);
  sqlite3_close(db);
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = fx->state;
  char error[512], report[256];
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  assert_true(eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error) < 0);
  char newer[64];
  snprintf(newer, sizeof newer, "has schema 99, newer than this eddi's %d", EDDI_JOURNAL_SCHEMA);
  assert_non_null(strstr(error, newer));
  assert_non_null(strstr(error, "--no-journal"));
  eddi_engine_free(engine);
  assert_int_equal(eddi_journal_file_schema(path), 99); /* left as it was */
}

/* ------------------------------------------------------------ interrupted changes */

static uint64_t hash_of(const char *text) { return XXH3_64bits(text, strlen(text)); }

/* In a child: stage a.txt and b.txt (old -> new), record the intent,
 * rename the first, lose b's temp when lose_temp, and die. */
static void stage_and_die(const Fixture *fx, bool lose_temp) {
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    int root_fd;
    EddiError err;
    EddiJournal *journal;
    StrBuf report = {0};
    if (eddi_fs_root_open(fx->root, &root_fd, &err) < 0 ||
        eddi_journal_open(fx->state, NULL, &journal, &report, &err) < 0)
      _exit(1);
    static const char *const names[] = {"a.txt", "b.txt"};
    char temps[2][EDDI_FS_PATH_MAX], backups[2][EDDI_FS_PATH_MAX];
    EddiIntentFile files[2];
    for (int i = 0; i < 2; i++) {
      EddiFsStage stage = {.rel = names[i], .bytes = "new\n", .len = 4, .mode = 0644};
      if (eddi_fs_stage(root_fd, &stage, temps[i], sizeof temps[i], &err) < 0 ||
          eddi_fs_backup(root_fd, names[i], backups[i], sizeof backups[i], &err) < 0)
        _exit(2);
      files[i] = (EddiIntentFile){names[i], EDDI_INTENT_WRITE, true, hash_of("old\n"),
                                         hash_of("new\n"), temps[i], backups[i]};
    }
    int64_t id;
    if (eddi_journal_intent_begin(journal, files, 2, NULL, &id, &err) < 0) _exit(3);
    if (eddi_fs_rename(root_fd, temps[0], names[0], &err) < 0) _exit(4);
    if (lose_temp) eddi_fs_remove(root_fd, temps[1]);
    _exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

static size_t leftovers(const char *root) {
  size_t count = 0;
  DIR *dir = opendir(root);
  for (struct dirent *entry; (entry = readdir(dir));) count += strstr(entry->d_name, ".eddi-") != NULL;
  closedir(dir);
  return count;
}

static void check_recovery(void **state, bool lose_temp, const char *expected) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "old\n");
  write_in(fx->root, "b.txt", "old\n");
  stage_and_die(fx, lose_temp);
  char *a = read_in(fx->root, "a.txt"), *b = read_in(fx->root, "b.txt");
  assert_string_equal(a, "new\n"); /* half done, as the crash left it */
  assert_string_equal(b, "old\n");
  free(a), free(b);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, lose_temp ? "rolled back" : "rolled forward"));
  a = read_in(fx->root, "a.txt"), b = read_in(fx->root, "b.txt");
  assert_string_equal(a, expected);
  assert_string_equal(b, expected);
  free(a), free(b);
  assert_int_equal(leftovers(fx->root), 0);
  eddi_engine_free(engine);
}

static void test_journal_change_rolls_forward(void **state) { check_recovery(state, false, "new\n"); }

static void test_journal_change_without_its_temp_rolls_back(void **state) {
  check_recovery(state, true, "old\n");
}

static void test_journal_sweeps_a_dead_save_temp(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  /* A dead process's Save: its folder noted, its temp left. */
  run_and_die(fx, "Start s\nOpen a.txt\nInsert Line \"zero\"\nSave");
  char name[64];
  snprintf(name, sizeof name, ".a.txt.eddi-%d-abcdefghijkl", 1 << 22);
  write_in(fx->root, name, "half written");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "Removed 1 temporary files eddi left"));
  assert_int_equal(leftovers(fx->root), 0);
  eddi_engine_free(engine);
}

/* Make the journal of fx as schema's scripts (never edited since) made it,
 * with session s of cli (its process gone) and rows (more SQL). */
static void journal_of_schema(const Fixture *fx, int schema, const char *rows) {
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  for (int from = 0; from < schema; from++)
    assert_int_equal(sqlite3_exec(db, eddi_journal_migration(from), NULL, NULL, NULL), SQLITE_OK);
  char hostname[256] = "";
  gethostname(hostname, sizeof hostname - 1);
  char sql[1024];
  snprintf(sql, sizeof sql,
           "INSERT INTO sessions(name, sender, description, owner_pid, owner_host, updated)"
           " VALUES('s', 'cli', '', 0, '%s', 0); %s PRAGMA user_version=%d;",
           hostname, rows, schema);
  assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
}

/* A journal of schema 1 (made by schema 1's own script, with a session
 * holding an unsaved edit) migrates: its session comes back and
 * changesets can be kept in it. */
static void test_journal_schema_1_migrates(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  char path[PATH_MAX], rows[512];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  snprintf(rows, sizeof rows,
           "INSERT INTO docs(session, path, ord, cursor, base_hash) VALUES('s', 'a.txt', 0, 0, %lld);"
           "INSERT INTO edits VALUES('s', 'a.txt', 0, 1, 0, x'', CAST('zero\n' AS BLOB));",
           (long long)XXH3_64bits("one\n", 4));
  journal_of_schema(fx, 1, rows);
  /* A process migrates it, takes the session, collects a changeset, dies. */
  run_and_die(fx, "{ foreach file matching \"*.txt\" replace \"one\" with \"uno\" collect "
                  "changes as \"c\" }");
  assert_int_equal(eddi_journal_file_schema(path), EDDI_JOURNAL_SCHEMA);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied, "
                              "1 changeset");
  expect_reply(engine, "Preview changeset c", "Ok, Changeset c (collected): 1 file: a.txt +1 -1");
  eddi_engine_free(engine);
}

/* ------------------------------------------------------------ sessions */

static void test_journal_session_comes_back(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\nthree\n");
  write_in(fx->root, "b.txt", "bee\n");
  run_and_die(fx, "Start s \"work\"\nOpen b.txt\nOpen a.txt\nInsert Line \"zero\"\n"
                  "Goto 2:0\nInsert Line \"one and a half\"\nBookmark m 3:0\nGoto 1:1");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 2 files open, 2 unsaved edits "
                              "re-applied, 1 bookmark");
  expect_reply(engine, "Status", "Ok: Session s, File a.txt, At 1:1, Length 5, Modified, Open 2");
  expect_reply(engine, "Start s",
               "Ok, Session s resumed, 2 files open, 2 unsaved edits re-applied, 1 bookmark");
  expect_reply(engine, "Start s",
               "Fail \"Session s already exists\", It is your session: go on in it");
  /* The undo history came back too, a step per command. */
  expect_reply(engine, "Undo", "Ok, Undid 1 step, At 2:0");
  expect_reply(engine, "Save", "Ok, Bytes 19");
  char *a = read_in(fx->root, "a.txt");
  assert_string_equal(a, "zero\none\ntwo\nthree\n");
  free(a);
  eddi_engine_free(engine);
}

static void test_journal_end_forgets_the_session(void **state) {
  Fixture *fx = *state;
  run_and_die(fx, "Start s\nEnd");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "");
  expect_reply(engine, "Status",
               "Fail \"No session exists and this is not a session command\", Start one with "
               "\"Start <name>\"");
  eddi_engine_free(engine);
}

static void test_journal_edits_rebase_onto_a_change_on_disk(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\nthree\nfour\n");
  run_and_die(fx, "Start s\nOpen a.txt\nInsert Line \"zero\"");
  write_in(fx->root, "a.txt", "one\ntwo\nthree\nFOUR\n"); /* another line changed meanwhile */
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "a.txt changed on disk: 1 unsaved edits rebased onto it"));
  expect_reply(engine, "Save", "Ok, Bytes 24");
  char *a = read_in(fx->root, "a.txt");
  assert_string_equal(a, "zero\none\ntwo\nthree\nFOUR\n");
  free(a);
  eddi_engine_free(engine);
}

static void test_journal_conflicting_edits_are_kept_and_reported(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  run_and_die(fx, "Start s\nOpen a.txt\nGoto 0:0\nInsert Line \"zero\"");
  write_in(fx->root, "a.txt", "ONE\ntwo\n"); /* the same place changed on disk */
  char report[2048];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "a.txt changed on disk where 1 unsaved edits change it: not "
                                 "applied, the unsaved text is kept in "));
  const char *kept = strstr(report, "kept in ") + strlen("kept in ");
  size_t len;
  char *text = unit_read_file(kept, &len);
  assert_string_equal(text, "zero\none\ntwo\n");
  free(text);
  eddi_engine_free(engine);
}

static void test_journal_snapshots_come_back(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  run_and_die(fx, "Start s\nRead a.txt");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "Session s of cli restored: 0 files open, 1 snapshot"));
  eddi_engine_free(engine);
}

/* The journal's changesets, "name:status," each, in order, once engine's
 * applier has put its log's records in SQLite. */
static void expect_changesets(const Fixture *fx, EddiEngine *engine, const char *expected) {
  assert_int_equal(eddi_journal_flush(engine->journal), 0);
  char path[PATH_MAX], rows[256] = "";
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  sqlite3 *db;
  sqlite3_stmt *stmt;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_prepare_v2(db, "SELECT name, status FROM changesets ORDER BY ord", -1,
                                      &stmt, NULL),
                   SQLITE_OK);
  while (sqlite3_step(stmt) == SQLITE_ROW)
    snprintf(rows + strlen(rows), sizeof rows - strlen(rows), "%s:%d,",
             (const char *)sqlite3_column_text(stmt, 0), sqlite3_column_int(stmt, 1));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  assert_string_equal(rows, expected);
}

/* Changesets come back with their session: one collected (previewed and
 * applied after the restart), one applied (rolled back after it, to the
 * exact bytes), one refused because its file changed in between. */
static void test_journal_changesets_come_back(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.py", "import old\r\nold.run()\r\n");
  write_in(fx->root, "b.py", "old = 1\n");
  write_in(fx->root, "c.py", "old = 2\n");
  const char *const texts[] = {
      "Start s",
      "{ foreach file matching \"a.py\" replace \"old\" with \"new\" collect changes as \"a\" }",
      "{ foreach file matching \"b.py\" replace \"old\" with \"new\" collect changes as \"b\" }",
      "{ foreach file matching \"c.py\" replace \"old\" with \"new\" collect changes as \"c\" }",
      "apply changeset b",
      NULL};
  run_each_and_die(fx, texts);
  char *b = read_in(fx->root, "b.py");
  assert_string_equal(b, "new = 1\n");
  free(b);
  write_in(fx->root, "c.py", "old = 3\n"); /* changed between the runs */
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 0 files open, 3 changesets");
  expect_reply(engine, "Preview changeset a", "Ok, Changeset a (collected): 1 file: a.py +2 -2");
  expect_reply(engine, "Preview changeset b", "Ok, Changeset b (applied): 1 file: b.py +1 -1");
  expect_reply(engine, "apply changeset c",
               "Fail \"Changeset c: 1 file changed since it was collected: c.py\", Run the script "
               "again to collect it anew");
  expect_reply(engine, "apply changeset a", "Ok, Applied changeset a: 1 file");
  expect_reply(engine, "rollback changeset b", "Ok, Rolled back changeset b: 1 file");
  char *a = read_in(fx->root, "a.py");
  b = read_in(fx->root, "b.py");
  char *c = read_in(fx->root, "c.py");
  assert_string_equal(a, "import new\r\nnew.run()\r\n");
  assert_string_equal(b, "old = 1\n");
  assert_string_equal(c, "old = 3\n");
  free(a), free(b), free(c);
  /* The statuses after the restart were journaled too; End forgets them. */
  expect_changesets(fx, engine, "a:1,b:2,c:0,");
  expect_reply(engine, "End", "Ok, Session ended");
  expect_changesets(fx, engine, "");
  eddi_engine_free(engine);
}

/* A changeset collected again under its name replaces the journaled one;
 * one applied and rolled back before the crash comes back rolled back. */
static void test_journal_changeset_collected_again_is_rewritten(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.py", "old = 1\n");
  const char *const texts[] = {
      "Start s",
      "{ foreach file matching \"a.py\" replace \"old\" with \"new\" collect changes as \"a\" }",
      "{ foreach file matching \"a.py\" replace \"old\" with \"neu\" collect changes as \"a\" }",
      "{ foreach file matching \"a.py\" replace \"= 1\" with \"= 2\" collect changes as \"b\" }",
      "apply changeset b",
      "rollback changeset b",
      NULL};
  run_each_and_die(fx, texts);
  /* The dead process's last records may be in its redo log only: the
   * journal is SQLite and the logs, read together by the next start. */
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  expect_changesets(fx, engine, "a:0,b:2,");
  expect_reply(engine, "Preview changeset b", "Ok, Changeset b (rolled back): 1 file: a.py +1 -1");
  expect_reply(engine, "apply changeset a", "Ok, Applied changeset a: 1 file");
  char *a = read_in(fx->root, "a.py");
  assert_string_equal(a, "neu = 1\n");
  free(a);
  eddi_engine_free(engine);
}

/* A session's record (journal_kv.c) carries it to an engine with another
 * state folder: imported there as the dead instance's and taken over, the
 * session has its unsaved edit, bookmark and changeset. */
static void test_journal_record_carries_a_session_elsewhere(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  write_in(fx->root, "b.py", "old = 1\n");
  const char *const texts[] = {
      "Start s",
      "{ foreach file matching \"b.py\" replace \"old\" with \"new\" collect changes as \"c\" }",
      "Open a.txt\nInsert Line \"zero\"\nBookmark m 2:0", NULL};
  run_each_and_die(fx, texts);
  char report[1024];
  EddiEngine *alpha = engine_journaled(fx, report, sizeof report);
  char *record = NULL;
  size_t len = 0;
  assert_int_equal(eddi_engine_session_record(alpha, "s", &record, &len), 0);
  assert_true(eddi_engine_session_version(alpha, "s") == 0); /* not synced since restored */
  expect_reply(alpha, "Goto 1:1", "Ok, At 1:1");
  assert_true(eddi_engine_session_version(alpha, "s") > 0);
  char *none = NULL;
  size_t none_len = 0;
  assert_int_equal(eddi_engine_session_record(alpha, "nothing", &none, &none_len), EDDI_ENOENT);
  eddi_engine_free(alpha);

  /* Another state folder: the journal there has never seen s. */
  EddiEngine *beta = engine_elsewhere(fx);
  char error[512];
  assert_true(eddi_engine_import_session(beta, "alpha", "junk", 4, error, sizeof error) < 0);
  assert_string_equal(error, "Not a session record");
  assert_int_equal(eddi_engine_session_record(beta, "s", &none, &none_len), EDDI_ENOENT);
  assert_int_equal(eddi_engine_import_session(beta, "alpha", record, len, error, sizeof error), 1);
  assert_int_equal(eddi_engine_import_session(beta, "alpha", record, len, error, sizeof error), 0);
  eddi_string_free(record);
  assert_int_equal(eddi_engine_take_over(beta, "alpha", report, sizeof report), 1);
  /* (The "taken over" line is a request's: the NATS tests see it.) */
  expect_reply(beta, "Status", "Ok: Session s, File a.txt, At 1:0, Length 3, Modified");
  expect_reply(beta, "Goto Bookmark m", "Ok, At 2:0");
  expect_reply(beta, "Preview changeset c", "Ok, Changeset c (collected): 1 file: b.py +1 -1");
  eddi_engine_free(beta);
}

/* A session s over big.txt, 20,000 lines (100 KB: above what a record
 * keeps of a base), given commands with their replies; its record. */
static void record_of_big_file_session(const Fixture *fx, const char *commands,
                                       const char *replies, char **record, size_t *len) {
  enum { LINES = 20000 };
  StrBuf text = {0};
  for (int i = 0; i < LINES; i++) eddi_strbuf_puts(&text, "line\n");
  write_in(fx->root, "big.txt", text.data);
  eddi_strbuf_free(&text);
  char report[1024];
  EddiEngine *alpha = engine_journaled(fx, report, sizeof report);
  expect_reply(alpha, commands, replies);
  assert_int_equal(eddi_engine_session_record(alpha, "s", record, len), 0);
  eddi_engine_free(alpha);
}

/* Instance beta (another state folder) takes session s over from record. */
static EddiEngine *take_over_elsewhere(const Fixture *fx, char *record, size_t len,
                                       char *report, size_t report_size) {
  EddiEngine *beta = engine_elsewhere(fx);
  char error[512];
  assert_int_equal(eddi_engine_import_session(beta, "alpha", record, len, error, sizeof error), 1);
  eddi_string_free(record);
  assert_int_equal(eddi_engine_take_over(beta, "alpha", report, report_size), 1);
  return beta;
}

/* A record leaves out a large file's base text, so that it stays small;
 * the taker re-applies the edits to the unchanged disk text. */
static void test_journal_record_leaves_out_a_large_base(void **state) {
  Fixture *fx = *state;
  char *record = NULL, report[1024];
  size_t len = 0;
  record_of_big_file_session(fx, "Start s\nOpen big.txt\nInsert Line \"zero\"",
                             "Ok\nOk, At 0:0, Length 20000\nOk, Inserted 1 line at 0, At 1:0",
                             &record, &len);
  assert_true(len < 4096);
  EddiEngine *beta = take_over_elsewhere(fx, record, len, report, sizeof report);
  expect_reply(beta, "Status", "Ok: Session s, File big.txt, At 1:0, Length 20001, Modified");
  eddi_engine_free(beta);
}

/* Without the base (left out of the record), edits to a file changed on
 * disk since are not applied to its new text: they are kept aside. */
static void test_journal_edits_without_a_base_are_kept_when_the_disk_changed(void **state) {
  Fixture *fx = *state;
  char *record = NULL, report[1024];
  size_t len = 0;
  record_of_big_file_session(
      fx, "Start s\nOpen big.txt\nGoto 2:0\nInsert Line \"mine\"",
      "Ok\nOk, At 0:0, Length 20000\nOk, At 2:0\nOk, Inserted 1 line at 2, At 3:0", &record, &len);
  char *text = read_in(fx->root, "big.txt");
  memcpy(text, "LINE\n", 5); /* someone changed the file meanwhile */
  write_in(fx->root, "big.txt", text);
  free(text);
  EddiEngine *beta = take_over_elsewhere(fx, record, len, report, sizeof report);
  const char *kept = strstr(report, "the edits are kept in ");
  assert_non_null(kept);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%.*s", (int)strcspn(kept + 22, "\n"), kept + 22);
  size_t kept_len;
  char *listing = unit_read_file(path, &kept_len);
  assert_string_equal(listing, "Unsaved edits of big.txt, in order, each at a byte offset of the "
                               "text as the edits before it left it:\n\n@@ at byte 10, 0 bytes "
                               "removed:\n\n@@ 5 bytes inserted:\nmine\n\n");
  free(listing);
  /* The disk's text, unmodified (the cursor where it was). */
  expect_reply(beta, "Status", "Ok: Session s, File big.txt, At 3:0, Length 20000");
  eddi_engine_free(beta);
}

/* A live process's session of the same name is left to it: the second
 * process keeps its own in memory only. */
static void test_journal_leaves_a_live_process_session_alone(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  int ready[2];
  assert_int_equal(pipe(ready), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    char report[1024];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    const char *text = "Start s\nOpen a.txt\nInsert Line \"zero\"";
    free(eddi_exec(engine, "cli", text, strlen(text)));
    if (write(ready[1], "x", 1) != 1) _exit(1);
    pause(); /* alive until killed */
    _exit(0);
  }
  char byte;
  assert_int_equal(read(ready[0], &byte, 1), 1);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, ""); /* the child is alive: its session is its own */
  expect_reply(engine, "Start s\nEnd", "Ok\nOk, Session ended");
  eddi_engine_free(engine);
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  close(ready[0]), close(ready[1]);
  engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied");
  eddi_engine_free(engine);
}

/* ------------------------------------------------------------ multi-file undo */

/* A Patch of two files (one with CRLF endings, one it adds): what Undo
 * must put back exactly after a restart. */
static const char patch_two[] = "Patch\n*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n"
                                "*** Add File: c.txt\n+new\n*** End Patch";

static void expect_file(const Fixture *fx, const char *name, const char *expected) {
  char *text = read_in(fx->root, name);
  if (!expected) assert_null(text);
  else assert_string_equal(text, expected);
  free(text);
}

/* A child starts session s, runs patch_two over a.txt (holding a_text),
 * then after (when not NULL), and dies. */
static void patch_and_die(const Fixture *fx, const char *a_text, const char *after) {
  write_in(fx->root, "a.txt", a_text);
  const char *const texts[] = {"Start s", patch_two, after, NULL};
  run_each_and_die(fx, texts);
}

/* How many rows of the multi-file history the journal of fx holds, once
 * engine (NULL: none runs) has put its log's records in SQLite. */
static int txn_rows(const Fixture *fx, EddiEngine *engine) {
  if (engine) assert_int_equal(eddi_journal_flush(engine->journal), 0);
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  sqlite3 *db;
  sqlite3_stmt *stmt;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM txn_files", -1, &stmt, NULL),
                   SQLITE_OK);
  assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
  int rows = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

/* The next process's Undo takes a dead one's Patch back in every file,
 * byte for byte; the one after it redoes it, and its Undo is the only
 * step left. */
static void test_journal_undo_of_a_patch_survives(void **state) {
  Fixture *fx = *state;
  patch_and_die(fx, "one\r\ntwo\r\n", NULL);
  expect_file(fx, "a.txt", "one\r\nTWO\r\n");
  expect_file(fx, "c.txt", "new\n");
  run_and_die(fx, "Undo");
  expect_file(fx, "a.txt", "one\r\ntwo\r\n");
  expect_file(fx, "c.txt", NULL);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 0 files open, 2 snapshots");
  expect_reply(engine, "Redo", "Ok, Redid 1 step, 2 files: a.txt, c.txt");
  expect_file(fx, "a.txt", "one\r\nTWO\r\n");
  expect_file(fx, "c.txt", "new\n");
  expect_reply(engine, "Undo", "Ok, Undid 1 step, 2 files: a.txt, c.txt");
  expect_reply(engine, "Undo", "Fail \"No file open\", Open one with \"Open <file>\"");
  expect_file(fx, "a.txt", "one\r\ntwo\r\n");
  assert_int_equal(txn_rows(fx, engine), 2); /* the one step, on the redo list */
  eddi_engine_free(engine);
}

/* A Refactor of two files, one of them open, undone in its process (the
 * open one through its document's own undo): the next process redoes it
 * and undoes it again, the open file through its restored document. */
static void test_journal_undo_of_a_refactor_survives(void **state) {
  Fixture *fx = *state;
  static const char util[] = "def helper(x):\n    return x + 1\n";
  static const char user[] = "from util import helper\r\n\r\nSECOND = helper(2)\r\n";
  write_in(fx->root, "util.py", util);
  write_in(fx->root, "user.py", user);
  const char *const texts[] = {"Start s\nOpen user.py", "Refactor RenameSymbol helper assist",
                               "Undo", NULL};
  run_each_and_die(fx, texts);
  expect_file(fx, "util.py", util);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  /* The document takes each move as an edit of its own: the cursor is
   * where that edit leaves it. */
  expect_reply(engine, "Redo", "Ok, Redid 1 step, 2 files: user.py, util.py, At 2:15");
  expect_file(fx, "util.py", "def assist(x):\n    return x + 1\n");
  expect_file(fx, "user.py", "from util import assist\r\n\r\nSECOND = assist(2)\r\n");
  expect_reply(engine, "Undo", "Ok, Undid 1 step, 2 files: user.py, util.py, At 2:15");
  expect_file(fx, "util.py", util);
  expect_file(fx, "user.py", user);
  expect_reply(engine, "Save", "Fail \"No changes to save\", user.py is as on disk");
  eddi_engine_free(engine);
}

/* A file written through an open document, which had an unsaved edit
 * after the change: the restored document's own edit is undone first,
 * then the change, through the document and saved. */
static void test_journal_undo_through_a_restored_document(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  const char *const texts[] = {"Start s\nOpen a.txt", patch_two, "Goto 0:0\nInsert Line \"zero\"",
                               NULL};
  run_each_and_die(fx, texts);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied, "
                              "2 snapshots");
  expect_reply(engine, "Undo", "Ok, Undid 1 step, At 0:0");
  expect_reply(engine, "Undo", "Ok, Undid 1 step, 2 files: a.txt, c.txt, At 1:3");
  expect_file(fx, "a.txt", "one\ntwo\n");
  expect_file(fx, "c.txt", NULL);
  expect_reply(engine, "Status", "Ok: Session s, File a.txt, At 1:3, Length 2");
  eddi_engine_free(engine);
}

/* Files changed between the runs refuse the restored step, which names
 * them and writes nothing: one changed on disk, one whose restored
 * document has unsaved edits (not the current document). */
static void test_journal_restored_undo_refuses_a_changed_file(void **state) {
  Fixture *fx = *state;
  patch_and_die(fx, "one\ntwo\n", "Open a.txt\nInsert Line \"mine\"\nOpen c.txt");
  write_in(fx->root, "c.txt", "someone else\n");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  expect_reply(engine, "Undo",
               "Fail \"Undo: 2 files changed since: a.txt, c.txt; nothing put back\", Those files "
               "were edited after the change: eddi does not overwrite them");
  expect_file(fx, "a.txt", "one\nTWO\n");
  expect_file(fx, "c.txt", "someone else\n");
  eddi_engine_free(engine);
}

/* End forgets the history with the session. */
static void test_journal_end_forgets_the_undo_steps(void **state) {
  Fixture *fx = *state;
  patch_and_die(fx, "one\ntwo\n", "End");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "");
  assert_int_equal(txn_rows(fx, engine), 0);
  expect_reply(engine, "Start s\nUndo", "Ok\nFail \"No file open\", Open one with \"Open <file>\"");
  expect_file(fx, "c.txt", "new\n");
  eddi_engine_free(engine);
}

/* Session s of the journal restored in an engine of fx (alpha), carried in
 * its KV record (under record_max bytes) to another state folder and taken
 * over there: the engine there (beta). */
static EddiEngine *carry_elsewhere(const Fixture *fx, size_t record_max) {
  char report[1024], error[512];
  EddiEngine *alpha = engine_journaled(fx, report, sizeof report);
  char *record = NULL;
  size_t len = 0;
  assert_int_equal(eddi_engine_session_record(alpha, "s", &record, &len), 0);
  assert_true(len < record_max);
  eddi_engine_free(alpha);
  EddiEngine *beta = engine_elsewhere(fx);
  assert_int_equal(eddi_engine_import_session(beta, "alpha", record, len, error, sizeof error), 1);
  eddi_string_free(record);
  assert_int_equal(eddi_engine_take_over(beta, "alpha", report, sizeof report), 1);
  return beta;
}

/* A session's KV record carries its Undo steps to another state folder. */
static void test_journal_record_carries_the_undo_steps(void **state) {
  Fixture *fx = *state;
  patch_and_die(fx, "one\ntwo\n", NULL);
  EddiEngine *beta = carry_elsewhere(fx, SIZE_MAX);
  expect_reply(beta, "Undo", "Ok, Undid 1 step, 2 files: a.txt, c.txt");
  expect_file(fx, "a.txt", "one\ntwo\n");
  expect_file(fx, "c.txt", NULL);
  eddi_engine_free(beta);
}

/* A record carries the newest Undo steps whose texts fit its bound: the
 * step of a Patch of a 300 KB file is left out, the small one after it
 * comes along. */
static void test_journal_record_leaves_out_a_large_undo_step(void **state) {
  Fixture *fx = *state;
  enum { LINES = 60000 }; /* 300 KB */
  char *text = malloc(6 + LINES * 5 + 1);
  memcpy(text, "first\n", 6);
  for (int i = 0; i < LINES; i++) memcpy(text + 6 + i * 5, "line\n", 5);
  text[6 + LINES * 5] = '\0';
  write_in(fx->root, "big.txt", text);
  free(text);
  patch_and_die(fx, "one\ntwo\n",
                "Patch\n*** Begin Patch\n*** Update File: big.txt\n@@\n-first\n+FIRST\n"
                "*** Add File: d.txt\n+big\n*** End Patch");
  const char *const small[] = {"Patch\n*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n"
                               "*** Delete File: c.txt\n*** End Patch",
                               NULL};
  run_each_and_die(fx, small);
  EddiEngine *beta = carry_elsewhere(fx, 64 * 1024);
  assert_int_equal(txn_rows(fx, NULL), 6); /* the journal keeps all three */
  expect_reply(beta, "Undo", "Ok, Undid 1 step, 2 files: a.txt, c.txt");
  expect_reply(beta, "Undo", "Fail \"No file open\", Open one with \"Open <file>\"");
  expect_file(fx, "a.txt", "one\nTWO\n");
  expect_file(fx, "d.txt", "big\n");
  eddi_engine_free(beta);
}

/* A journal of schema 3 (made by the scripts up to it, with a session)
 * migrates to 4: the session comes back and its Patch is undone after
 * the next restart. */
static void test_journal_schema_3_migrates(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  journal_of_schema(fx, 3, "");
  run_and_die(fx, patch_two);
  assert_int_equal(eddi_journal_file_schema(path), EDDI_JOURNAL_SCHEMA);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 0 files open, 2 snapshots");
  expect_reply(engine, "Undo", "Ok, Undid 1 step, 2 files: a.txt, c.txt");
  expect_file(fx, "a.txt", "one\ntwo\n");
  eddi_engine_free(engine);
}

/* A file's undone edits come back as Redo's: in the next process (an
 * agent's next CLI call) Redo makes them again, one step each. */
static void test_journal_redo_of_a_document_survives(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  run_and_die(fx, "Start s\nOpen a.txt\nInsert Line \"zero\"\nInsert Line \"half\"\n"
                  "Insert Line \"more\"\nUndo 2");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied");
  expect_reply(engine, "Status", "Ok: Session s, File a.txt, At 1:0, Length 2, Modified");
  expect_reply(engine, "Redo", "Ok, Redid 1 step, At 2:0");
  expect_reply(engine, "Redo", "Ok, Redid 1 step, At 3:0");
  expect_reply(engine, "Redo", "Fail \"Nothing to redo\", a.txt has nothing undone to redo");
  expect_reply(engine, "Save", "Ok, Bytes 19");
  expect_file(fx, "a.txt", "zero\nhalf\nmore\none\n");
  eddi_engine_free(engine);
}

/* Everything undone: the file is as on disk, and Redo still has it. */
static void test_journal_redo_of_an_unmodified_document_survives(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  run_and_die(fx, "Start s\nOpen a.txt\nInsert Line \"zero\"\nUndo");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open");
  expect_reply(engine, "Redo", "Ok, Redid 1 step, At 1:0");
  expect_reply(engine, "Status", "Ok: Session s, File a.txt, At 1:0, Length 2, Modified");
  eddi_engine_free(engine);
}

/* The file changed on disk between the runs: the live edits are rebased
 * onto it, the undone ones are of no use there and go. */
static void test_journal_undone_edits_go_when_the_disk_changed(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\nthree\n");
  run_and_die(fx, "Start s\nOpen a.txt\nInsert Line \"zero\"\nInsert Line \"half\"\nUndo");
  write_in(fx->root, "a.txt", "one\ntwo\nTHREE\n");
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied; "
                              "a.txt changed on disk: 1 unsaved edits rebased onto it");
  expect_reply(engine, "Redo", "Fail \"Nothing to redo\", a.txt has nothing undone to redo");
  expect_reply(engine, "Save", "Ok, Bytes 19");
  expect_file(fx, "a.txt", "zero\none\ntwo\nTHREE\n");
  eddi_engine_free(engine);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
      T(test_journal_is_made_with_the_schema),
      T(test_journal_corrupt_is_set_aside),
      T(test_journal_truncated_is_set_aside),
      T(test_journal_newer_schema_is_refused),
      T(test_journal_schema_1_migrates),
      T(test_journal_change_rolls_forward),
      T(test_journal_change_without_its_temp_rolls_back),
      T(test_journal_sweeps_a_dead_save_temp),
      T(test_journal_session_comes_back),
      T(test_journal_end_forgets_the_session),
      T(test_journal_edits_rebase_onto_a_change_on_disk),
      T(test_journal_conflicting_edits_are_kept_and_reported),
      T(test_journal_snapshots_come_back),
      T(test_journal_changesets_come_back),
      T(test_journal_changeset_collected_again_is_rewritten),
      T(test_journal_record_carries_a_session_elsewhere),
      T(test_journal_record_leaves_out_a_large_base),
      T(test_journal_redo_of_a_document_survives),
      T(test_journal_redo_of_an_unmodified_document_survives),
      T(test_journal_undone_edits_go_when_the_disk_changed),
      T(test_journal_edits_without_a_base_are_kept_when_the_disk_changed),
      T(test_journal_leaves_a_live_process_session_alone),
      T(test_journal_undo_of_a_patch_survives),
      T(test_journal_undo_through_a_restored_document),
      T(test_journal_undo_of_a_refactor_survives),
      T(test_journal_restored_undo_refuses_a_changed_file),
      T(test_journal_end_forgets_the_undo_steps),
      T(test_journal_record_carries_the_undo_steps),
      T(test_journal_record_leaves_out_a_large_undo_step),
      T(test_journal_schema_3_migrates),
#undef T
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
