/* test_journal_attack.c - the journal's redo log under hostile or careless
 * conditions: files in the state folder that only look like redo logs (a
 * FIFO, a folder), an append that the disk takes only part of, and two
 * starts that race for one dead process's log. Each case was a bug found
 * by trying: a start that hung, acknowledged commands lost, records
 * applied twice. */
#include "journal_support.h"

#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <sys/resource.h>

/* How long a start may take before the test calls it hung. */
#define ATTACK_START_SECONDS 20

static void log_path_of(const Fixture *fx, char *path) {
  DIR *dir = opendir(fx->state);
  assert_non_null(dir);
  int count = 0;
  for (struct dirent *entry; (entry = readdir(dir));) {
    size_t len = strlen(entry->d_name);
    if (strncmp(entry->d_name, "redo-", 5) != 0 || len < 4 ||
        strcmp(entry->d_name + len - 4, ".log") != 0)
      continue;
    count++;
    unit_path(path, fx->state, entry->d_name);
  }
  closedir(dir);
  assert_int_equal(count, 1);
}

/* The child ends, and well (exit status 0; a hang is its alarm). */
static void child_exits_well(pid_t child) {
  int status;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

/* ------------------------------------------------------------ not a log */

/* A FIFO named like a dead process's log: opening it for reading waited
 * for a writer that never comes, and the start hung. */
static void test_fifo_named_like_a_log_does_not_hang_the_start(void **state) {
  Fixture *fx = *state;
  char fifo[PATH_MAX];
  unit_path(fifo, fx->state, "redo-1-00000000000000aa.1.log");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  unit_path(fifo, fx->state, "redo-2-00000000000000bb.1.log");
  assert_int_equal(mkdir(fifo, 0700), 0);
  write_in(fx->root, "a.txt", "one\n");
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    alarm(ATTACK_START_SECONDS);
    char report[1024];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    char *reply = eddi_exec(engine, "cli", "Start s", 7);
    bool ok = strcmp(reply, "Ok") == 0 && strstr(report, "left alone");
    eddi_string_free(reply);
    eddi_engine_free(engine);
    _exit(ok ? 0 : 1);
  }
  child_exits_well(child);
  /* Neither is taken for a log nor removed: they are not eddi's. */
  struct stat st;
  unit_path(fifo, fx->state, "redo-1-00000000000000aa.1.log");
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
}

/* ------------------------------------------------------------ a full disk */

/* The file size limit of the process: an append past it is cut short, as on
 * a full disk (without needing one). */
static void limit_file_size(rlim_t bytes) {
  struct rlimit limit = {bytes, RLIM_INFINITY};
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
}

/* An append the disk took only part of left its bytes in the log: the next
 * command's frame came after them, the start read the two as one frame cut
 * short, and that acknowledged command was lost (and the applier's offsets
 * no longer matched the file's). */
static void test_an_append_cut_short_loses_no_later_command(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  /* A line big enough that the log outgrows the journal's WAL pages. */
  enum { BIG_LINE = 200000, ROOM = 24 };
  char *big = journal_big_insert(BIG_LINE);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    char report[1024], log[PATH_MAX], db_path[PATH_MAX];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    free(eddi_exec(engine, "cli", "Start s\nOpen a.txt", 18));
    free(eddi_exec(engine, "cli", big, strlen(big)));
    if (eddi_journal_flush(engine->journal) < 0) _exit(2);
    /* The WAL's pages go back into the database: SQLite's next commit
     * needs few bytes, the log's next append more than ROOM. */
    unit_path(db_path, fx->state, EDDI_JOURNAL_FILE);
    sqlite3 *db;
    if (sqlite3_open(db_path, &db) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL) != SQLITE_OK)
      _exit(3);
    sqlite3_close(db);
    log_path_of(fx, log);
    struct stat st;
    if (stat(log, &st) < 0) _exit(4);
    limit_file_size((rlim_t)st.st_size + ROOM);
    free(eddi_exec(engine, "cli", "Insert Line \"second line of the session\"", 40));
    limit_file_size(RLIM_INFINITY);
    eddi_journal_hold_applier(engine->journal, true);
    free(eddi_exec(engine, "cli", "Insert Line \"third\"", 19));
    _exit(0);
  }
  free(big);
  child_exits_well(child);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 3 unsaved edits re-applied");
  expect_reply(engine, "Goto 0:0\nFind \"third\"", "Ok, At 0:0\nOk, At 2:0");
  eddi_engine_free(engine);
}

/* A command whose record neither the log nor SQLite could take (the state
 * folder's disk full for both), followed by one that got through: the
 * journal held the edits before and after the lost one, and the restore
 * put the later edit at offsets of a text the file never had ("twothird"),
 * which a Save then wrote. Now the next command's sync writes the whole
 * session anew (the mirror no longer says what the journal holds): once
 * the disk has room again, nothing is lost. */
static void test_a_record_lost_to_a_full_disk_does_not_garble_the_restore(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\ntwo\n");
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    char report[1024];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    free(eddi_exec(engine, "cli", "Start s\nOpen a.txt\nInsert Line \"first\"", 38));
    if (eddi_journal_flush(engine->journal) < 0) _exit(2);
    limit_file_size(1); /* nothing more reaches the state folder */
    free(eddi_exec(engine, "cli", "Insert Line \"second\"", 20));
    limit_file_size(RLIM_INFINITY);
    free(eddi_exec(engine, "cli", "Insert Line \"third\"", 19));
    if (eddi_journal_flush(engine->journal) < 0) _exit(3);
    _exit(0);
  }
  child_exits_well(child);
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_string_equal(report, "Session s of cli restored: 1 file open, 3 unsaved edits re-applied");
  expect_reply(engine, "Save", "Ok, Bytes 27");
  char *a = read_in(fx->root, "a.txt");
  assert_string_equal(a, "first\nsecond\nthird\none\ntwo\n");
  free(a);
  eddi_engine_free(engine);
}

/* The state folder's disk full (issue 31, item 6): every command waited
 * 10 s in eddi_journal_flush while the applier failed and slept, every
 * sender blocked, nothing said. Now each command answers at once, stderr
 * says once that the journal cannot keep up, the edits are kept in memory,
 * and when there is room again the journal catches up: the sessions (an
 * idle one too) come back whole after a kill. RLIMIT_FSIZE stands for the
 * full disk: per process, no root, no mount, and the kernel fails the
 * writes (EFBIG) past the limit as a full disk fails them (ENOSPC): write(2)
 * of the log and SQLite's WAL alike. */
#define FULL_COMMANDS 20
#define FULL_COMMAND_MS 1500

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void test_a_full_state_disk_does_not_stall_commands(void **state) {
  Fixture *fx = *state;
  write_in(fx->root, "a.txt", "one\n");
  write_in(fx->root, "b.txt", "bee\n");
  /* stderr a pipe, as a terminal or a log collector is: a file would be
   * under the size limit too. */
  int said[2];
  assert_int_equal(pipe(said), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    close(said[0]);
    if (dup2(said[1], STDERR_FILENO) < 0) _exit(2);
    char report[1024];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    free(eddi_exec(engine, "cli", "Start s\nOpen a.txt", 18));
    free(eddi_exec(engine, "bob", "Start t\nOpen b.txt", 18));
    if (eddi_journal_flush(engine->journal) < 0) _exit(3);
    limit_file_size(1); /* nothing more reaches the state folder */
    for (int i = 0; i < FULL_COMMANDS; i++) {
      char command[64];
      int n = snprintf(command, sizeof command, "Insert Line \"line %d\"", i);
      long long began = now_ms();
      char *reply = eddi_exec(engine, "cli", command, (size_t)n);
      bool ok = strncmp(reply, "Ok", 2) == 0;
      free(reply);
      if (!ok) _exit(4);
      if (now_ms() - began > FULL_COMMAND_MS) _exit(5);
      if (i == 3) free(eddi_exec(engine, "bob", "Insert Line \"bob\"", 17));
    }
    if (!eddi_journal_behind(engine->journal)) _exit(6);
    limit_file_size(RLIM_INFINITY);
    /* One command of cli's: its session and bob's idle one are journaled
     * whole again. */
    free(eddi_exec(engine, "cli", "Insert Line \"after\"", 19));
    if (eddi_journal_flush(engine->journal) < 0) _exit(7);
    if (eddi_journal_behind(engine->journal)) _exit(8);
    _exit(0); /* as kill -9 would */
  }
  close(said[1]);
  child_exits_well(child);
  char text_buffer[8192];
  ssize_t got = read(said[0], text_buffer, sizeof text_buffer - 1);
  close(said[0]);
  assert_true(got > 0);
  text_buffer[got] = '\0';
  char *text = text_buffer;
  assert_non_null(strstr(text, "the journal cannot keep up"));
  assert_non_null(strstr(text, "the journal has caught up"));
  /* Said once each. */
  assert_null(strstr(strstr(text, "cannot keep up") + 1, "cannot keep up"));
  char report[1024];
  EddiEngine *engine = engine_journaled(fx, report, sizeof report);
  assert_non_null(strstr(report, "Session s of cli restored: 1 file open, 21 unsaved edits re-applied"));
  assert_non_null(strstr(report, "Session t of bob restored: 1 file open, 1 unsaved edit re-applied"));
  expect_reply(engine, "Goto 0:0\nFind \"line 19\"", "Ok, At 0:0\nOk, At 19:0");
  eddi_engine_free(engine);
}

/* ------------------------------------------------------------ a stopped instance */

/* An engine of instance on fx's state folder. */
static EddiEngine *engine_of_instance(const Fixture *fx, const char *instance) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = fx->state;
  char error[256], report[1024];
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  assert_non_null(engine);
  assert_int_equal(eddi_engine_set_instance(engine, instance), 0);
  assert_int_equal(eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error), 0);
  return engine;
}


static long session_owner(const Fixture *fx, const char *name) {
  char sql[128];
  snprintf(sql, sizeof sql, "SELECT owner_pid FROM sessions WHERE name='%s'", name);
  return journal_query_number(fx, sql);
}

/* An instance stopped (not gone) with commands in its log only is found
 * dead by liveness; the taker must apply that log before it reads the
 * session. It never did: the folder's listing shared its read position
 * with the journal's folder handle, which the start's own listing had
 * left at the end, so the stopped one's acknowledged edits were lost (and
 * skipped when it came back: the session is the taker's then). */
/* A child of instance alpha with session s started, a.txt open and one
 * line inserted, the last two in its log only, stopped (SIGSTOP). */
static pid_t alpha_stopped_with_edits_logged(const Fixture *fx) {
  write_in(fx->root, "a.txt", "one\n");
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    EddiEngine *alpha = engine_of_instance(fx, "alpha");
    free(eddi_exec(alpha, "cli", "Start s", 7));
    eddi_journal_hold_applier(alpha->journal, true);
    free(eddi_exec(alpha, "cli", "Open a.txt\nInsert Line \"alpha\"", 30));
    raise(SIGSTOP);
    /* Back: its applier runs what it queued before it was stopped. */
    eddi_journal_hold_applier(alpha->journal, false);
    _exit(eddi_journal_flush(alpha->journal) == 0 ? 0 : 1);
  }
  int status;
  assert_int_equal(waitpid(child, &status, WUNTRACED), child);
  assert_true(WIFSTOPPED(status));
  return child;
}

/* Instance beta takes alpha's sessions (found dead by liveness). */
static EddiEngine *beta_takes_alpha(const Fixture *fx) {
  EddiEngine *beta = engine_of_instance(fx, "beta");
  char report_text[1024];
  StrBuf report = {0};
  assert_int_equal(eddi_journal_take_over(beta->journal, beta, "alpha", &report), 0);
  snprintf(report_text, sizeof report_text, "%s", report.data ? report.data : "");
  eddi_strbuf_free(&report);
  assert_non_null(
      strstr(report_text, "Session s of cli restored: 1 file open, 1 unsaved edit re-applied"));
  assert_int_equal(session_owner(fx, "s"), (long)getpid());
  return beta;
}

static void alpha_resumes(pid_t child) {
  kill(child, SIGCONT);
  child_exits_well(child);
}

static void test_a_stopped_instance_s_logged_edits_are_taken_with_its_session(void **state) {
  Fixture *fx = *state;
  pid_t alpha = alpha_stopped_with_edits_logged(fx);
  EddiEngine *beta = beta_takes_alpha(fx);
  alpha_resumes(alpha);
  /* The session is still the taker's, and its records are journaled. */
  assert_int_equal(session_owner(fx, "s"), (long)getpid());
  free(eddi_exec(beta, "cli", "Insert Line \"beta\"", 18));
  assert_int_equal(eddi_journal_flush(beta->journal), 0);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM edits"), 2);
  eddi_engine_free(beta);
}

/* The taker ended the session before the stopped one came back: the
 * stopped one's applier ran the records the taker had applied for it a
 * second time (a session without a row is nobody's), leaving its files'
 * rows behind without a session. */
static void test_a_stopped_instance_s_records_are_not_applied_twice(void **state) {
  Fixture *fx = *state;
  pid_t alpha = alpha_stopped_with_edits_logged(fx);
  EddiEngine *beta = beta_takes_alpha(fx);
  expect_reply(beta, "Save\nEnd", "Ok, Bytes 10\nOk, Session ended");
  assert_int_equal(eddi_journal_flush(beta->journal), 0);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM docs"), 0);
  alpha_resumes(alpha);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM docs"), 0);
  assert_int_equal(journal_query_number(fx, "SELECT count(*) FROM edits"), 0);
  eddi_engine_free(beta);
}

/* ------------------------------------------------------------ the state folder */

/* The error an engine's journal gives with its state in dir. */
static void journal_error_in(const Fixture *fx, const char *dir, char *error, size_t error_size) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = dir;
  char report[256];
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, error_size);
  assert_non_null(engine);
  assert_true(eddi_engine_open_journal(engine, report, sizeof report, error, error_size) < 0);
  eddi_engine_free(engine);
}

/* A state folder another user can write into, or owns, was used as it
 * was: they could put a journal or redo log of their own there, whose
 * intents rename files in the workspace and whose sessions' edits are
 * re-applied to its files. */
static void test_a_state_folder_others_can_change_is_refused(void **state) {
  Fixture *fx = *state;
  char open_to_all[PATH_MAX], inside[PATH_MAX], error[512], journal[PATH_MAX];
  unit_path(open_to_all, fx->scratch, "open");
  assert_int_equal(mkdir(open_to_all, 0700), 0);
  assert_int_equal(chmod(open_to_all, 0777), 0);
  journal_error_in(fx, open_to_all, error, sizeof error);
  assert_non_null(strstr(error, "is writable by every user"));
  unit_path(journal, open_to_all, EDDI_JOURNAL_FILE);
  assert_int_equal(access(journal, F_OK), -1); /* nothing made there */
  /* A folder on the way counts too: ours inside it could be swapped. */
  unit_path(inside, open_to_all, "eddi");
  journal_error_in(fx, inside, error, sizeof error);
  assert_non_null(strstr(error, "the folder"));
  /* Sticky, like /tmp: only we may rename ours. */
  assert_int_equal(chmod(open_to_all, 01777), 0);
  char report[256];
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = inside;
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  assert_int_equal(eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error), 0);
  eddi_engine_free(engine);
  /* The sticky folder itself (--state /tmp, issue 31): anyone may put files
   * there, a journal.sqlite or an audit.jsonl of their own. */
  journal_error_in(fx, open_to_all, error, sizeof error);
  assert_non_null(strstr(error, "it " ));
  assert_non_null(strstr(error, "is writable by every user (sticky, as /tmp is)"));
  assert_int_equal(access(journal, F_OK), -1);
  if (geteuid() == 0) { /* only root gives a folder away */
    char theirs[PATH_MAX];
    unit_path(theirs, fx->scratch, "theirs");
    assert_int_equal(mkdir(theirs, 0700), 0);
    assert_int_equal(chown(theirs, 65534, 65534), 0);
    journal_error_in(fx, theirs, error, sizeof error);
    assert_non_null(strstr(error, "is owned by another user"));
  }
}

/* A state file that is a link (another user's, left while the folder was
 * theirs to write) is not followed, and one of another user's is not used:
 * the journal refuses to open (the victim's file untouched), the default
 * audit log is refused; a journal made here is 0600 whatever the umask. */
static void test_state_files_are_not_followed_nor_taken_from_others(void **state) {
  Fixture *fx = *state;
  char victim[PATH_MAX], link_path[PATH_MAX], error[512];
  unit_path(victim, fx->scratch, "victim.txt");
  unit_write_file(victim, "private\n", 8);
  const char *const names[] = {EDDI_JOURNAL_FILE, EDDI_JOURNAL_FILE "-wal", EDDI_JOURNAL_FILE "-shm"};
  for (size_t i = 0; i < 3; i++) {
    unit_path(link_path, fx->state, names[i]);
    assert_int_equal(symlink(victim, link_path), 0);
    journal_error_in(fx, fx->state, error, sizeof error);
    assert_non_null(strstr(error, "is a symbolic link: eddi does not use it"));
    assert_int_equal(unlink(link_path), 0);
  }
  size_t len;
  char *kept = unit_read_file(victim, &len);
  assert_string_equal(kept, "private\n");
  free(kept);

  /* The audit log: the default one (in the state folder) is a link. */
  unit_path(link_path, fx->state, "audit.jsonl");
  assert_int_equal(symlink(victim, link_path), 0);
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = fx->state;
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  EddiAuditConfig audit = {0};
  assert_true(eddi_engine_set_audit(engine, &audit, error, sizeof error) < 0);
  assert_non_null(strstr(error, "a symbolic link"));
  free(eddi_exec(engine, "cli", "Start s", 7));
  eddi_engine_free(engine);
  kept = unit_read_file(victim, &len);
  assert_string_equal(kept, "private\n");
  free(kept);
  assert_int_equal(unlink(link_path), 0);

  /* Made here: 0600, whatever the umask says. */
  mode_t mask = umask(0);
  char report[512];
  engine = engine_journaled(fx, report, sizeof report);
  umask(mask);
  struct stat st;
  char journal[PATH_MAX];
  unit_path(journal, fx->state, EDDI_JOURNAL_FILE);
  assert_int_equal(stat(journal, &st), 0);
  assert_int_equal(st.st_mode & 07777, 0600);
  eddi_engine_free(engine);

  if (geteuid() == 0) { /* only root gives a file away */
    assert_int_equal(chown(journal, 65534, 65534), 0);
    journal_error_in(fx, fx->state, error, sizeof error);
    assert_non_null(strstr(error, "belongs to another user: eddi does not use it"));
    assert_int_equal(chown(journal, 0, 0), 0);
    char log[PATH_MAX];
    unit_path(log, fx->state, "audit.jsonl");
    unit_write_file(log, "", 0);
    assert_int_equal(chown(log, 65534, 65534), 0);
    engine = eddi_engine_new(fx->root, &config, error, sizeof error);
    assert_true(eddi_engine_set_audit(engine, &audit, error, sizeof error) < 0);
    assert_non_null(strstr(error, "belongs to another user"));
    eddi_engine_free(engine);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
      T(test_fifo_named_like_a_log_does_not_hang_the_start),
      T(test_an_append_cut_short_loses_no_later_command),
      T(test_a_record_lost_to_a_full_disk_does_not_garble_the_restore),
      T(test_a_full_state_disk_does_not_stall_commands),
      T(test_a_stopped_instance_s_logged_edits_are_taken_with_its_session),
      T(test_a_stopped_instance_s_records_are_not_applied_twice),
      T(test_a_state_folder_others_can_change_is_refused),
      T(test_state_files_are_not_followed_nor_taken_from_others),
#undef T
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
