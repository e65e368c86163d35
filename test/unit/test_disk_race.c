/* test_disk_race.c - another process appends to a file while eddi edits and
 * saves it: every append must survive (issue "nothing overwritten").
 *
 * A child process appends a numbered line every APPEND_PAUSE_US; meanwhile
 * the engine makes EDITS edits through the edit formats' transaction
 * (replace mode, as MCP's replace tool does). Each edit either lands
 * rebased onto the appends, or is refused because it overlaps them; no
 * append is ever lost. */
#include "unit_support.h"

#include <signal.h>
#include <sys/wait.h>

#include "eddi.h"
#include "edit/transaction.h"

#define APPENDS 200
#define APPEND_PAUSE_US 3000
#define EDITS 200
#define START_LINES 100

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
    if (!strstr(text, line)) fail_msg("append %d was lost", i);
  }
  free(text);
}

static void test_appends_survive_edits(void **state) {
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

/* A change made on disk between a transaction's read and its commit:
 * merged when it touches other lines, refused when it overlaps. */
static void commit_after_disk_change(const char *disk_change, const char *expected_file,
                                     const char *expected_error, const char *expected_warning) {
  char root[PATH_MAX], path[PATH_MAX], error[256];
  unit_workspace_new(root);
  unit_path(path, root, "m.txt");
  unit_write_file(path, "a\nb\nc\nd\n", 8);
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  long live = unit_live();
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, engine, NULL);
  EddiEditFile *file;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_edit_txn_file(&txn, "m.txt", &file, &err), 0);
  eddi_edit_file_write(file, "A\nb\nc\nd\n", 8);
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
  commit_after_disk_change("a\nb\nc\nD\n", "A\nb\nc\nD\n", NULL,
                           "m.txt changed on disk meanwhile: the edit was rebased onto it\n");
}

static void test_disk_change_on_the_same_lines_is_refused(void **state) {
  commit_after_disk_change("a2\nb\nc\nd\n", "a2\nb\nc\nd\n",
                           "m.txt changed on disk since it was read, at lines 1:1, where this "
                           "edit changes it too; nothing written",
                           NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_appends_survive_edits),
      cmocka_unit_test(test_disk_change_on_other_lines_is_merged),
      cmocka_unit_test(test_disk_change_on_the_same_lines_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
