/* test_disk_race.c - another process writes a file while eddi edits and
 * saves it: every append must survive, a change elsewhere in the file is
 * merged, an overlapping one refused; and a folder swapped for a symlink
 * never leads a write outside the workspace.
 *
 * A child process appends a numbered line every APPEND_PAUSE_US; meanwhile
 * the engine makes EDITS edits through the edit formats' transaction
 * (replace mode, as MCP's replace tool does). Each edit either lands
 * rebased onto the appends, or is refused because it overlaps them; no
 * append is ever lost. */
#include "unit_support.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

#include "eddi.h"
#include "edit/transaction.h"
#include "session/engine.h"

#define APPENDS 200
#define APPEND_PAUSE_US 3000
#define EDITS 200
#define START_LINES 100
/* The race is run this many times over. */
#define ROUNDS 5

static void append_lines(const char *path) {
  for (int i = 0; i < APPENDS; i++) {
    FILE *file = fopen(path, "a");
    if (file) {
      fprintf(file, "append %d\n", i);
      fclose(file);
    }
    usleep(APPEND_PAUSE_US);
  }
  _exit(0);
}

static void check_appends(const char *path) {
  size_t len;
  char *text = unit_read_file(path, &len);
  for (int i = 0; i < APPENDS; i++) {
    char line[32];
    snprintf(line, sizeof line, "\nappend %d\n", i);
    if (!strstr(text, line)) {
      const char *tail = strstr(text, "append");
      fail_msg("append %d was lost; the file's appends: %.600s", i, tail ? tail : "(none)");
    }
  }
  free(text);
}

static void appends_survive_edits(void) {
  char root[PATH_MAX], path[PATH_MAX];
  unit_workspace_new(root);
  unit_path(path, root, "log.txt");
  StrBuf start = {0};
  for (int i = 0; i < START_LINES; i++) eddi_strbuf_printf(&start, "line %d\n", i);
  unit_write_file(path, start.data, start.len);
  eddi_strbuf_free(&start);
  char error[256];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  assert_non_null(engine);

  pid_t child = fork();
  if (child == 0) append_lines(path);
  int landed = 0, refused = 0;
  for (int edit = 0; edit < EDITS; edit++) {
    /* Change one of the first lines: far from the appends. */
    char old_line[32], new_line[32];
    int at = edit % 50;
    snprintf(old_line, sizeof old_line, "line %d\n", at);
    snprintf(new_line, sizeof new_line, "line %d.\n", at);
    if ((edit / 50) % 2) { /* the second round takes the first one back */
      snprintf(old_line, sizeof old_line, "line %d.\n", at);
      snprintf(new_line, sizeof new_line, "line %d\n", at);
    }
    EddiReplaceEdit change = {old_line, strlen(old_line), new_line, strlen(new_line), false};
    EddiCall call = {.kind = EDDI_CALL_REPLACE, .path = "log.txt", .edits = &change,
                     .edit_count = 1};
    EddiRequest request = {.sender = "model", .text = "Replace", .len = 7};
    EddiReply reply;
    eddi_request_call(engine, &request, &call, &reply, NULL);
    if (reply.items[0].ok) landed++;
    else if (refused++ < 3) print_message("refused: %s\n", reply.items[0].text);
    eddi_reply_free(&reply);
    usleep(APPEND_PAUSE_US / 3);
  }
  int status;
  waitpid(child, &status, 0);
  check_appends(path);
  /* Edits far from the appends are rebased, not refused. */
  assert_int_equal(landed, EDITS);
  eddi_engine_free(engine);
  unit_remove_tree(root);
}

static void test_appends_survive_edits(void **state) {
  for (int round = 0; round < ROUNDS; round++) appends_survive_edits();
}

/* A change made on disk between a transaction's read and its commit:
 * merged when it touches other lines, refused when it overlaps. */
static void commit_after_disk_change(const char *ours, const char *disk_change,
                                     const char *expected_file,
                                     const char *expected_error, const char *expected_warning) {
  char root[PATH_MAX], path[PATH_MAX], error[256];
  unit_workspace_new(root);
  unit_path(path, root, "m.txt");
  unit_write_file(path, "a\nb\nc\nd\n", 8);
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  long live = unit_live();
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, engine->workspace, NULL);
  EddiEditFile *file;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_edit_txn_file(&txn, "m.txt", &file, &err), 0);
  eddi_edit_file_write(file, ours, strlen(ours));
  unit_write_file(path, disk_change, strlen(disk_change));
  EddiEditReport report = {0};
  int rc = eddi_edit_txn_commit(&txn, &report, &err);
  if (expected_error) {
    assert_int_equal(rc, EDDI_ESTALE);
    assert_string_equal(err.what, expected_error);
  } else {
    assert_int_equal(rc, 0);
    assert_string_equal(report.warnings.data, expected_warning);
  }
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_string_equal(now, expected_file);
  free(now);
  eddi_edit_report_free(&report);
  eddi_edit_txn_free(&txn);
  unit_assert_no_leak(live);
  eddi_engine_free(engine);
  unit_remove_tree(root);
}

static void test_disk_change_on_other_lines_is_merged(void **state) {
  commit_after_disk_change("A\nb\nc\nd\n", "a\nb\nc\nD\n", "A\nb\nc\nD\n", NULL,
                           "m.txt changed on disk meanwhile: the edit was rebased onto it\n");
}

static void test_disk_change_on_the_same_lines_is_refused(void **state) {
  commit_after_disk_change("A\nb\nc\nd\n", "a2\nb\nc\nd\n", "a2\nb\nc\nd\n",
                           "m.txt changed on disk since it was read, at lines 1:1, where this "
                           "edit changes it too; nothing written",
                           NULL);
}

/* An append made on disk before the commit, after a line eddi added at the
 * end: the rename carries it over, and the commit answers Ok (it answered
 * a Fail with both on disk, issue 31 item 1). */
static void test_append_after_eddis_last_line_is_carried(void **state) {
  commit_after_disk_change("a\nb\nc\nd\nX\n", "a\nb\nc\nd\nY\n", "a\nb\nc\nd\nX\nY\n", NULL,
                           "m.txt changed on disk meanwhile: the edit was rebased onto it\n");
}

/* ------------------------------------------------------------ documents */

static void exchange(EddiEngine *engine, const char *message, const char *expected) {
  char *reply = eddi_exec(engine, "cli", message, strlen(message));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

static EddiEngine *workspace_engine(char root[PATH_MAX], const char *file, const char *text) {
  char path[PATH_MAX], error[256];
  unit_workspace_new(root);
  unit_path(path, root, file);
  unit_write_file(path, text, strlen(text));
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  assert_non_null(engine);
  return engine;
}

static void test_save_rebases_onto_a_disk_change(void **state) {
  char root[PATH_MAX], path[PATH_MAX];
  EddiEngine *engine = workspace_engine(root, "n.txt", "a\nb\nc\n");
  exchange(engine, "Start s\nOpen n.txt\nInsert Line \"top\"",
           "Ok\nOk, At 0:0, Length 3\nOk, Inserted 1 line at 0, At 1:0");
  unit_path(path, root, "n.txt");
  unit_write_file(path, "a\nb\nc\nd\n", 8);
  exchange(engine, "Save", "Ok, Bytes 12, Rebased onto a change on disk");
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_string_equal(now, "top\na\nb\nc\nd\n");
  free(now);
  /* The document holds the disk's line too, and saves cleanly after. */
  exchange(engine, "Show Line 4\nGoto 0:0\nDelete Line\nSave",
           "Ok: At 4:0, Lines 2:4, Txt b\\nc\\nd\nOk, At 0:0\nOk, Deleted 1 line, At 0:0\nOk, Bytes 8");
  /* A change on the same line is refused, and nothing is written. */
  exchange(engine, "Insert Line \"x\"", "Ok, Inserted 1 line at 0, At 1:0");
  unit_write_file(path, "A\nb\nc\nd\n", 8);
  exchange(engine, "Save",
           "Fail \"File changed on disk since Open\", Open Reload reads it again (unsaved edits "
           "are discarded)");
  now = unit_read_file(path, &len);
  assert_string_equal(now, "A\nb\nc\nd\n");
  free(now);
  eddi_engine_free(engine);
  unit_remove_tree(root);
}

/* A line added at the end, then an append on disk: Save carries the append
 * over and answers Ok; the next Save has nothing to write. Before, it
 * answered Fail with the line written, and every Save wrote it again. */
static void test_save_carries_an_append_once(void **state) {
  char root[PATH_MAX], path[PATH_MAX];
  EddiEngine *engine = workspace_engine(root, "n.txt", "a\nb\n");
  exchange(engine, "Start s\nOpen n.txt\nGoto 2:0\nInsert Line \"c\"",
           "Ok\nOk, At 0:0, Length 2\nOk, At 2:0\nOk, Inserted 1 line at 2, At 3:0");
  unit_path(path, root, "n.txt");
  unit_write_file(path, "a\nb\nd\n", 6);
  exchange(engine, "Save", "Ok, Bytes 8, Rebased onto a change on disk");
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_string_equal(now, "a\nb\nc\nd\n");
  free(now);
  exchange(engine, "Save", "Fail \"No changes to save\", n.txt is as on disk");
  now = unit_read_file(path, &len);
  assert_string_equal(now, "a\nb\nc\nd\n");
  free(now);
  eddi_engine_free(engine);
  unit_remove_tree(root);
}

static void appends_survive_saves(void) {
  char root[PATH_MAX], path[PATH_MAX];
  StrBuf start = {0};
  for (int i = 0; i < START_LINES; i++) eddi_strbuf_printf(&start, "line %d\n", i);
  EddiEngine *engine = workspace_engine(root, "log.txt", start.data);
  eddi_strbuf_free(&start);
  unit_path(path, root, "log.txt");
  exchange(engine, "Start s\nOpen log.txt", "Ok\nOk, At 0:0, Length 100");
  pid_t child = fork();
  if (child == 0) append_lines(path);
  int saved = 0;
  for (int edit = 0; edit < EDITS; edit++) {
    const char *message = "Goto 0:0\nInsert Line \"edit\"\nSave";
    char *reply = eddi_exec(engine, "cli", message, strlen(message));
    saved += strstr(reply, "Ok, Bytes") != NULL;
    eddi_string_free(reply);
    usleep(APPEND_PAUSE_US / 3);
  }
  int status;
  waitpid(child, &status, 0);
  check_appends(path);
  assert_int_equal(saved, EDITS);
  eddi_engine_free(engine);
  unit_remove_tree(root);
}

static void test_appends_survive_saves(void **state) {
  for (int round = 0; round < ROUNDS; round++) appends_survive_saves();
}

/* A folder of an open file becomes a symlink to somewhere outside: Save and
 * a create below it are refused, nothing is written out there. */
static void test_symlink_swap_refused_on_save(void **state) {
  char root[PATH_MAX], outside[PATH_MAX], path[PATH_MAX], link[PATH_MAX];
  unit_workspace_new(outside);
  EddiEngine *engine = workspace_engine(root, "top.txt", "x\n");
  unit_path(path, root, "d2");
  mkdir(path, 0755);
  unit_path(path, root, "d2/conf.txt");
  unit_write_file(path, "inside\n", 7);
  unit_path(path, root, "d3");
  mkdir(path, 0755);
  exchange(engine, "Start s\nOpen d2/conf.txt\nInsert Line \"edited\"",
           "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0");
  exchange(engine, "Open Create d3/new.txt\nInsert Line \"new\"",
           "Ok, At 0:0, Length 0\nOk, Inserted 1 line at 0, At 1:0");
  unit_path(path, outside, "conf.txt");
  unit_write_file(path, "inside\n", 7);
  for (const char *folder = "d2"; folder; folder = strcmp(folder, "d2") == 0 ? "d3" : NULL) {
    unit_path(link, root, folder);
    unit_remove_tree(link);
    assert_int_equal(symlink(outside, link), 0);
  }
  exchange(engine, "Save d2/conf.txt", "Fail \"Path outside workspace\"");
  exchange(engine, "Save d3/new.txt", "Fail \"Path outside workspace\"");
  size_t len;
  char *kept = unit_read_file(path, &len);
  assert_string_equal(kept, "inside\n");
  free(kept);
  unit_path(path, outside, "new.txt");
  assert_int_equal(access(path, F_OK), -1);
  eddi_engine_free(engine);
  unit_remove_tree(root);
  unit_remove_tree(outside);
}

/* kill -9 during Saves leaves temporary files; the next Save in that folder
 * by a live eddi removes them (those of dead processes only). */
#define KILLS 20
#define KILL_AFTER_US_MAX 40000

static size_t count_temporaries(const char *dir) {
  size_t count = 0;
  DIR *listing = opendir(dir);
  for (struct dirent *entry; listing && (entry = readdir(listing));)
    count += strstr(entry->d_name, ".eddi-") != NULL;
  if (listing) closedir(listing);
  return count;
}

static void test_kill_during_save_leaves_nothing_behind(void **state) {
  char root[PATH_MAX], path[PATH_MAX];
  StrBuf big = {0};
  for (int i = 0; i < 200000; i++) eddi_strbuf_printf(&big, "line %d\n", i);
  EddiEngine *engine = workspace_engine(root, "big.txt", big.data);
  unit_path(path, root, "big.txt");
  UnitRandom random = {0x5eed};
  for (int kill_round = 0; kill_round < KILLS; kill_round++) {
    pid_t child = fork();
    if (child == 0) {
      char error[256];
      EddiEngine *saver = eddi_engine_new(root, NULL, error, sizeof error);
      const char *setup = "Start k\nOpen big.txt";
      eddi_string_free(eddi_exec(saver, "cli", setup, strlen(setup)));
      for (;;) {
        const char *edit = "Goto 0:0\nInsert Line \"x\"\nSave";
        eddi_string_free(eddi_exec(saver, "cli", edit, strlen(edit)));
      }
    }
    usleep((useconds_t)(1000 + unit_random_below(&random, KILL_AFTER_US_MAX)));
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
  }
  /* The file is whole: the last save or the one before, never half. */
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_non_null(strstr(now, "line 199999\n"));
  free(now);
  size_t left = count_temporaries(root);
  const char *save = "Start s\nOpen big.txt\nInsert Line \"y\"\nSave";
  char *reply = eddi_exec(engine, "cli", save, strlen(save));
  assert_non_null(strstr(reply, "\nOk, Bytes"));
  eddi_string_free(reply);
  print_message("%zu temporary files left by %d kills, %zu after the next save\n", left, KILLS,
                count_temporaries(root));
  assert_int_equal(count_temporaries(root), 0);
  eddi_strbuf_free(&big);
  eddi_engine_free(engine);
  unit_remove_tree(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_appends_survive_edits),
      cmocka_unit_test(test_disk_change_on_other_lines_is_merged),
      cmocka_unit_test(test_disk_change_on_the_same_lines_is_refused),
      cmocka_unit_test(test_save_rebases_onto_a_disk_change),
      cmocka_unit_test(test_appends_survive_saves),
      cmocka_unit_test(test_save_carries_an_append_once),
      cmocka_unit_test(test_append_after_eddis_last_line_is_carried),
      cmocka_unit_test(test_symlink_swap_refused_on_save),
      cmocka_unit_test(test_kill_during_save_leaves_nothing_behind),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
