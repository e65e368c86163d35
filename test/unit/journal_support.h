/* journal_support.h - what the journal's unit tests share: a workspace and
 * a state folder per test, an engine with the journal, and a "dead
 * process": a forked child that does its work and _exits without cleaning
 * up, as kill -9 would leave it. */
#ifndef EDDI_TEST_JOURNAL_SUPPORT_H
#define EDDI_TEST_JOURNAL_SUPPORT_H

#include "unit_support.h"

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eddi.h"
#include "session/engine.h"
#include "session/journal.h"

typedef struct {
  char root[PATH_MAX];
  char state[PATH_MAX];
  char scratch[PATH_MAX];
} Fixture;

static inline int fixture_setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  unit_workspace_new(fx->root);
  unit_workspace_new(fx->scratch);
  unit_path(fx->state, fx->scratch, "state");
  assert_int_equal(mkdir(fx->state, 0700), 0);
  *state = fx;
  return 0;
}

static inline int fixture_teardown(void **state) {
  Fixture *fx = *state;
  unit_remove_tree(fx->root);
  unit_remove_tree(fx->scratch);
  free(fx);
  return 0;
}

static inline void write_in(const char *dir, const char *name, const char *text) {
  char path[PATH_MAX];
  unit_path(path, dir, name);
  unit_write_file(path, text, strlen(text));
}

static inline char *read_in(const char *dir, const char *name) {
  char path[PATH_MAX];
  size_t len;
  unit_path(path, dir, name);
  return unit_read_file(path, &len);
}

static inline EddiEngine *engine_journaled(const Fixture *fx, char *report, size_t report_size) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = fx->state;
  char error[256];
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  assert_non_null(engine);
  assert_int_equal(eddi_engine_open_journal(engine, report, report_size, error, sizeof error), 0);
  return engine;
}

/* An engine with the journal in the state folder "elsewhere" of fx, as
 * instance beta: another instance's journal. */
static inline EddiEngine *engine_elsewhere(const Fixture *fx) {
  char elsewhere[PATH_MAX], report[1024], error[512];
  unit_path(elsewhere, fx->scratch, "elsewhere");
  assert_int_equal(mkdir(elsewhere, 0700), 0);
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = elsewhere;
  EddiEngine *beta = eddi_engine_new(fx->root, &config, error, sizeof error);
  assert_int_equal(eddi_engine_set_instance(beta, "beta"), 0);
  assert_int_equal(eddi_engine_open_journal(beta, report, sizeof report, error, sizeof error), 0);
  return beta;
}

static inline void expect_reply(EddiEngine *engine, const char *text, const char *expected) {
  char *reply = eddi_exec(engine, "cli", text, strlen(text));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

/* Run each of texts (a NULL ends them) as a message of cli in a child that
 * then dies without a word; from the held_from-th on, its journal's applier
 * is held, so that their records are in its redo log only, as when a
 * process is killed before its applier ran. */
static inline void run_each_held_and_die(const Fixture *fx, const char *const *texts,
                                         size_t held_from) {
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    char report[1024];
    EddiEngine *engine = engine_journaled(fx, report, sizeof report);
    for (size_t i = 0; texts[i]; i++) {
      if (i == held_from) eddi_journal_hold_applier(engine->journal, true);
      char *reply = eddi_exec(engine, "cli", texts[i], strlen(texts[i]));
      (void)reply;
    }
    _exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static inline void run_each_and_die(const Fixture *fx, const char *const *texts) {
  run_each_held_and_die(fx, texts, SIZE_MAX);
}

static inline void run_and_die(const Fixture *fx, const char *text) {
  const char *const texts[] = {text, NULL};
  run_each_and_die(fx, texts);
}

/* The one number sql gives on the journal's file of fx (-1: no row). */
static inline long journal_query_number(const Fixture *fx, const char *sql) {
  char path[PATH_MAX];
  unit_path(path, fx->state, EDDI_JOURNAL_FILE);
  sqlite3 *db;
  sqlite3_stmt *stmt;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
  long value = sqlite3_step(stmt) == SQLITE_ROW ? (long)sqlite3_column_int64(stmt, 0) : -1;
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return value;
}

/* "Insert Line \"xxx...\"" with a line of bytes x's (the caller frees). */
static inline char *journal_big_insert(size_t bytes) {
  char *command = malloc(bytes + 32);
  size_t used = (size_t)sprintf(command, "Insert Line \"");
  memset(command + used, 'x', bytes);
  strcpy(command + used + bytes, "\"");
  return command;
}

#endif
