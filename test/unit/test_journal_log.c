/* test_journal_log.c - the journal's redo log (session/journal_log.c): the
 * records a dead process left in its log only are applied by the next
 * start; a frame cut short ends the log in silence, a damaged one is
 * reported; a record whose session another process holds now is skipped;
 * a log runs past a generation and goes on in the next; a statement that
 * is not one of the journal's own is refused. */
#include "journal_support.h"

#include <fcntl.h>
#include <sys/file.h>


static void query_run(const Fixture *fx, const char *sql) {
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
}

/* How many redo log files of the state folder end with suffix; the last
 * one's path goes to path when given. */
static int redo_files(const Fixture *fx, const char *suffix, char *path) {
  int count = 0;
  DIR *dir = opendir(fx->state);
  assert_non_null(dir);
  for (struct dirent *entry; (entry = readdir(dir));) {
    size_t len = strlen(entry->d_name), suffix_len = strlen(suffix);
    if (strncmp(entry->d_name, "redo-", 5) != 0 || len < suffix_len ||
        strcmp(entry->d_name + len - suffix_len, suffix) != 0)
      continue;
    count++;
    if (path) unit_path(path, fx->state, entry->d_name);
  }
  closedir(dir);
  return count;
}

/* Append bytes to the one redo log a dead process left. */
static void log_append(const Fixture *fx, const void *bytes, size_t len) {
  char path[PATH_MAX];
  assert_int_equal(redo_files(fx, ".log", path), 1);
  FILE *file = fopen(path, "ab");
  assert_non_null(file);
  assert_int_equal(fwrite(bytes, 1, len, file), len);
  fclose(file);
}

/* Append record as a sound frame. */
static void log_append_frame(const Fixture *fx, const char *record, size_t len) {
  StrBuf frame = {0};
  eddi_redo_frame(&frame, record, len);
  log_append(fx, frame.data, frame.len);
  eddi_strbuf_free(&frame);
}

static void test_redo_log_is_applied_on_start(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  /* Held from the first command: even Start's claim is in the log only. */
  const char *const texts[] = {"Start s",        "Open a.txt",          "Insert Line \"zero\"",
                               "Bookmark m 2:0", "Insert Line \"half\"", NULL};
  run_each_held_and_die(fx, texts, 0);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM sessions"), 0);
  assert_int_equal(redo_files(fx, ".1.log", NULL), 1);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 2 unsaved edits "
                              "re-applied, 1 bookmark");
  /* The dead process's log is applied and gone; this engine has its own. */
  assert_int_equal(redo_files(fx, ".log", NULL), 1);
  expect_reply(engine, "Save", "Ok, Bytes 18");
  char *a = read_in(fx->root, "a.txt");
  assert_string_equal(a, "zero\nhalf\none\ntwo\n");
  free(a);
  eddi_engine_free(engine);
  /* A clean close leaves no log: everything is in SQLite. */
  assert_int_equal(redo_files(fx, ".log", NULL), 0);
}

static void test_redo_log_torn_tail_is_dropped(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", "Insert Line \"zero\"", NULL};
  run_each_held_and_die(fx, texts, 1);
  /* A frame whose head promises more than the file holds: kill -9 during
   * the append, so its command never replied. */
  log_append(fx, "\x40\0\0\0abcdefgh", 12);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied");
  eddi_engine_free(engine);
}

static void test_redo_log_damage_is_reported(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", "Insert Line \"zero\"",
                               "Insert Line \"more\"", NULL};
  run_each_held_and_die(fx, texts, 1);
  char path[PATH_MAX];
  assert_int_equal(redo_files(fx, ".log", path), 1);
  /* Flip the last byte: the last frame's hash no longer matches. */
  FILE *file = fopen(path, "r+b");
  assert_non_null(file);
  assert_int_equal(fseek(file, -1, SEEK_END), 0);
  int byte = fgetc(file);
  assert_int_equal(fseek(file, -1, SEEK_END), 0);
  fputc(byte ^ 0x5a, file);
  fclose(file);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "is damaged at byte"));
  assert_non_null(strstr(report, "the commands after it were not restored; session s comes back "
                                 "as of the last command before it"));
  assert_non_null(strstr(report, "Session s of cli restored: 1 file open, 1 unsaved edit "
                                 "re-applied"));
  /* Kept aside for a person, never read again. */
  assert_non_null(strstr(report, ".log.damaged-"));
  eddi_engine_free(engine);
  assert_int_equal(redo_files(fx, ".log", NULL), 0);
  engine = engine_journaled(fx, report, sizeof report);
  assert_null(strstr(report, "damaged"));
  eddi_engine_free(engine);
}

/* Overwrite the first len bytes of the dead process's one log with junk
 * (len 0: empty it). */
static void log_damage_head(const Fixture *fx, size_t len) {
  char path[PATH_MAX];
  assert_int_equal(redo_files(fx, ".log", path), 1);
  if (!len) {
    assert_int_equal(truncate(path, 0), 0);
    return;
  }
  FILE *file = fopen(path, "r+b");
  assert_non_null(file);
  for (size_t i = 0; i < len; i++) fputc(0xa5, file);
  fclose(file);
}

/* A log emptied (issue 31: nothing restored, the commands dropped
 * without a word, the empty log kept across restarts): the start says so,
 * the session comes back as SQLite has it, and the log does not stay. One
 * the journal had applied part of was cut: that is said too. */
static void test_redo_log_emptied_is_reported(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", "Insert Line \"zero\"",
                               "Insert Line \"more\"", NULL};
  const char *const said[] = {"is empty: the commands it held, if any, were not restored; it is "
                              "removed",
                              "was cut to 0 bytes, below the "};
  for (size_t held = 0; held < 3; held += 2) {
    run_each_held_and_die(fx, texts, held);
    log_damage_head(fx, 0);
    char report[2048];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    assert_non_null(strstr(report, said[held / 2]));
    eddi_engine_free(engine);
    assert_int_equal(redo_files(fx, ".log", NULL), 0);
    engine = engine_journaled(fx, report, sizeof report);
    assert_null(strstr(report, "redo log"));
    char *reply = eddi_exec(engine, "cli", "End", 3);
    eddi_string_free(reply);
    eddi_engine_free(engine);
  }
}

/* A log garbled in its writer's header only: the records after it are
 * found (where the journal noted it applied the log up to, or right
 * after a header of this host's) and applied; the damage is said. */
static void test_redo_log_garbled_header_is_passed(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", "Insert Line \"zero\"",
                               "Insert Line \"more\"", NULL};
  for (size_t held = 0; held < 3; held += 2) {
    run_each_held_and_die(fx, texts, held);
    log_damage_head(fx, 10);
    char report[2048];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    assert_non_null(strstr(report, "bytes (its writer's header): the commands after them were "
                                   "restored"));
    assert_non_null(strstr(report, "Session s of cli restored: 1 file open, 2 unsaved edits "
                                   "re-applied"));
    const char *const ending[] = {"Save", "Close", "End"};
    for (size_t i = 0; i < 3; i++)
      eddi_string_free(eddi_exec(engine, "cli", ending[i], strlen(ending[i])));
    eddi_engine_free(engine);
  }
}

/* A log garbled past its header (issue 31: 0 files restored, 30 commands
 * dropped without a word): the damage at byte 0 is reported with how many
 * commands were found past it and the session they were of; the session
 * comes back as SQLite had it; the log is set aside, not kept as a log
 * (it would be met again at every start) nor removed. */
static void test_redo_log_garbled_head_is_reported(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s",  "Open a.txt", "Insert Line \"a\"",
                               "Insert Line \"b\"", "Insert Line \"c\"", NULL};
  run_each_held_and_die(fx, texts, 0);
  log_damage_head(fx, 120);
  char report[2048];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "is damaged at byte 0 (its head: its writer's header and what "
                                 "follows): the commands after it were not restored ("));
  assert_non_null(strstr(report, "more found whole past the damage); session s comes back as "
                                 "of the last command before it"));
  assert_non_null(strstr(report, ".log.damaged-"));
  eddi_engine_free(engine);
  assert_int_equal(redo_files(fx, ".log", NULL), 0);
  engine = engine_journaled(fx, report, sizeof report);
  assert_null(strstr(report, "damaged"));
  eddi_engine_free(engine);
}

static void test_redo_log_skips_a_session_held_by_another(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", "Insert Line \"zero\"", NULL};
  run_each_held_and_die(fx, texts, 1);
  /* Another live process (this one, known by its pid alone) took the
   * session over meanwhile. */
  char sql[256];
  snprintf(sql, sizeof sql, "UPDATE sessions SET owner_pid=%ld, owner_log=NULL", (long)getpid());
  query_run(fx, sql);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "");
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM docs"), 0);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM edits"), 0);
  assert_int_equal(redo_files(fx, ".log", NULL), 1); /* the dead one's went */
  eddi_engine_free(engine);
}

/* Two processes start at once after a crash: while one applies the dead
 * writer's log (it holds the log's lock), the other waits for it instead
 * of taking the dead writer's session without the log's tail. */
static void test_redo_log_being_applied_elsewhere_is_waited_for(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", "Insert Line \"zero\"", NULL};
  run_each_held_and_die(fx, texts, 0);
  char path[PATH_MAX];
  assert_int_equal(redo_files(fx, ".log", path), 1);
  int locked[2];
  assert_int_equal(pipe(locked), 0);
  pid_t other = fork();
  assert_true(other >= 0);
  if (other == 0) { /* the other start: holds the lock a while */
    int fd = open(path, O_RDONLY);
    if (fd < 0 || flock(fd, LOCK_EX) < 0 || write(locked[1], "x", 1) != 1) _exit(1);
    usleep(300 * 1000);
    _exit(0);
  }
  char byte;
  assert_int_equal(read(locked[0], &byte, 1), 1);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied");
  eddi_engine_free(engine);
  waitpid(other, NULL, 0);
  close(locked[0]), close(locked[1]);
}

/* A dead process had the pid this one has (a fresh container per call
 * starts at the same pid): its redo log, no longer locked, says it is gone,
 * and its session is taken with its edits. */
static void test_redo_log_tells_a_dead_process_with_this_pid(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  run_and_die(fx, "Start s\nOpen a.txt\nInsert Line \"zero\"");
  char sql[256];
  snprintf(sql, sizeof sql, "UPDATE sessions SET owner_pid=%ld", (long)getpid());
  query_run(fx, sql);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM sessions WHERE owner_log LIKE 'redo-%'"),
                   1);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied");
  eddi_engine_free(engine);
}

/* Two processes start session s at the same moment, each finding no live
 * holder: the claim applied second is refused, the first stays. */
static void test_redo_log_second_claim_of_a_session_is_refused(void **state) {
  Fixture *fx = *state;
  int ready[2], go[2];
  assert_int_equal(pipe(ready), 0);
  assert_int_equal(pipe(go), 0);
  pid_t first = fork();
  assert_true(first >= 0);
  if (first == 0) { /* its claim waits in its log while the other claims */
    char report[1024], byte = 'x';
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    eddi_journal_hold_applier(engine->journal, true);
    free(eddi_exec(engine, "cli", "Start s", 7));
    if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1) _exit(2);
    eddi_journal_hold_applier(engine->journal, false);
    _exit(eddi_journal_flush(engine->journal) == 0 ? 0 : 3);
  }
  char byte, report[1024];
  assert_int_equal(read(ready[0], &byte, 1), 1);
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  expect_reply(engine, "Start s", "Ok");
  assert_int_equal(write(go[1], "x", 1), 1);
  int status;
  waitpid(first, &status, 0);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM sessions WHERE owner_log='%s'",
           eddi_journal_log_name(engine->journal));
  assert_int_equal(journal_query_number(fx, sql), 1);
  eddi_engine_free(engine);
  close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}

/* Bytes of one record of session s whose statement is sql. */
static void record_of(StrBuf *record, const char *sql) {
  eddi_redo_begin(record, "s", false);
  eddi_redo_sql(record, sql);
}

static void test_redo_log_runs_only_the_journals_statements(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  const char *const texts[] = {"Start s", "Open a.txt", NULL};
  run_each_held_and_die(fx, texts, 1);
  StrBuf record = {0};
  record_of(&record, "DROP TABLE docs");
  log_append_frame(fx, record.data, record.len);
  eddi_strbuf_clear(&record);
  record_of(&record, "DELETE FROM docs WHERE session=?");
  eddi_redo_text(&record, "s");
  eddi_strbuf_append(&record, "\x01\0\0\0", 4); /* a field cut short */
  log_append_frame(fx, record.data, record.len);
  eddi_strbuf_free(&record);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open");
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM docs"), 1);
  eddi_engine_free(engine);
}

/* Past a generation's size, the log goes on in the next file once the
 * first is applied; a start after a crash reads both as one. */
static void test_redo_log_goes_on_in_the_next_generation(void **state) {
  Fixture *fx = *state;
  /* Nine lines of 1,000,000 bytes (a message holds at most 1 MiB) make
   * more than one generation's 8 MiB. */
  enum { LINE_BYTES = 1000000, LINES = 9 };
  char *command = journal_big_insert(LINE_BYTES);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    char report[1024];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    free(eddi_exec(engine, "cli", "Start s\nOpen Create big.txt", 27));
    for (int i = 0; i < LINES; i++) free(eddi_exec(engine, "cli", command, strlen(command)));
    if (eddi_journal_flush(engine->journal) < 0) _exit(1);
    eddi_journal_hold_applier(engine->journal, true);
    free(eddi_exec(engine, "cli", "Insert Line \"last\"", 18));
    _exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  free(command);
  assert_int_equal(redo_files(fx, ".1.log", NULL), 0);
  assert_int_equal(redo_files(fx, ".2.log", NULL), 1);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 10 unsaved edits re-applied");
  expect_reply(engine, "Goto 0:0\nFind \"last\"", "Ok, At 0:0\nOk, At 9:0");
  eddi_engine_free(engine);
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
      T(test_redo_log_is_applied_on_start),
      T(test_redo_log_torn_tail_is_dropped),
      T(test_redo_log_damage_is_reported),
      T(test_redo_log_emptied_is_reported),
      T(test_redo_log_garbled_header_is_passed),
      T(test_redo_log_garbled_head_is_reported),
      T(test_redo_log_skips_a_session_held_by_another),
      T(test_redo_log_being_applied_elsewhere_is_waited_for),
      T(test_redo_log_tells_a_dead_process_with_this_pid),
      T(test_redo_log_second_claim_of_a_session_is_refused),
      T(test_redo_log_runs_only_the_journals_statements),
      T(test_redo_log_goes_on_in_the_next_generation),
#undef T
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
