/* test_transaction.c - loading the files of an edit (edit/transaction.h),
 * and committing a change of several files that includes an open document.
 *
 * A transaction reads files that no session has open through the disk
 * backend's one reader, and words the refusals with the file's name, since
 * one edit may touch several files. An open document in a change of
 * several files is written with the disk files, inside the intent, and
 * takes its new text (saved, one undo step) only once every file is
 * written: a failure leaves it as it was. */
#include "unit_support.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "edit/transaction.h"
#include "session/engine.h"
#include "workspace/session.h"

static void write_in(const char *root, const char *name, const char *bytes, size_t len) {
  char path[PATH_MAX];
  unit_path(path, root, name);
  unit_write_file(path, bytes, len);
}

static void test_txn_file_loads_from_disk(void **state) {
  long live = unit_live();
  const char *root = *state;
  write_in(root, "crlf.txt", "\xEF\xBB\xBF" "a\r\nb\r\n", 9);
  write_in(root, "big.txt", "1234567890", 10);
  write_in(root, "latin1.txt", "caf\xE9\n", 5);
  char path[PATH_MAX];
  unit_path(path, root, "folder");
  assert_int_equal(mkdir(path, 0755), 0);
  unit_path(path, root, "pipe");
  assert_int_equal(mkfifo(path, 0600), 0);

  EddiConfig config;
  eddi_config_default(&config);
  config.max_file_bytes = 9;
  char error[256];
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  assert_non_null(engine);
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, engine->workspace, NULL);
  EddiEditFile *file;
  EddiError err;

  assert_int_equal(eddi_edit_txn_file(&txn, "crlf.txt", &file, &err), 0);
  assert_true(file->exists);
  assert_true(file->format.bom && file->format.crlf);
  assert_string_equal(file->text.data, "a\nb\n");
  assert_int_equal(file->raw.len, 9);

  mode_t mask = umask(027);
  assert_int_equal(eddi_edit_txn_file(&txn, "new/file.txt", &file, &err), 0);
  assert_false(file->exists);
  assert_int_equal(file->mode, 0640); /* what a new file gets */
  umask(mask);
  assert_int_equal(eddi_edit_txn_file(&txn, "crlf.txt/inside", &file, &err), 0);
  assert_false(file->exists); /* a file on the way: nothing there either */

  assert_int_equal(eddi_edit_txn_file(&txn, "folder", &file, &err), 0);
  assert_true(file->is_dir);

  assert_int_equal(eddi_edit_txn_file(&txn, "pipe", &file, &err), EDDI_EINVAL);
  assert_string_equal(err.what, "Not a regular file: pipe");
  assert_int_equal(eddi_edit_txn_file(&txn, "big.txt", &file, &err), EDDI_ETOOBIG);
  assert_string_equal(err.what, "File too large: big.txt (10 bytes, limit 9)");
  assert_int_equal(eddi_edit_txn_file(&txn, "latin1.txt", &file, &err), EDDI_EINVAL);
  assert_string_equal(err.what, "latin1.txt: Not valid UTF-8 (byte 3)");

  if (geteuid() != 0) { /* root reads anything */
    write_in(root, "secret.txt", "x", 1);
    unit_path(path, root, "secret.txt");
    assert_int_equal(chmod(path, 0), 0);
    assert_int_equal(eddi_edit_txn_file(&txn, "secret.txt", &file, &err), EDDI_EIO);
    assert_string_equal(err.what, "Cannot read secret.txt: Permission denied");
  }
  eddi_edit_txn_free(&txn);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* ------------------------------------------------------------ open documents */

static char *read_in(const char *root, const char *name) {
  char path[PATH_MAX];
  unit_path(path, root, name);
  size_t len;
  return unit_read_file(path, &len);
}

static void exec_ok(EddiEngine *engine, const char *text) {
  char *reply = eddi_exec(engine, "t", text, strlen(text));
  if (strncmp(reply, "Ok", 2) != 0 || strstr(reply, "\nFail")) fail_msg("%s: %s", text, reply);
  eddi_string_free(reply);
}

/* A workspace holding a.txt, b.txt and c.txt ("old <name>\n"), an engine
 * over it with its journal in a folder of its own, and the sender t's
 * session holding a.txt open (doc). */
typedef struct {
  char root[PATH_MAX];
  char state[PATH_MAX];
  EddiEngine *engine;
  EddiDoc *doc;
  long live;
} DocFixture;

static int doc_setup(void **state) {
  DocFixture *fx = calloc(1, sizeof *fx);
  fx->live = unit_live();
  unit_workspace_new(fx->root);
  unit_workspace_new(fx->state);
  write_in(fx->root, "a.txt", "old a\n", 6);
  write_in(fx->root, "b.txt", "old b\n", 6);
  write_in(fx->root, "c.txt", "old c\n", 6);
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = fx->state;
  char error[256], report[256];
  fx->engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  assert_non_null(fx->engine);
  assert_int_equal(
      eddi_engine_open_journal(fx->engine, report, sizeof report, error, sizeof error), 0);
  exec_ok(fx->engine, "Start s\nOpen a.txt");
  EddiSession *session = eddi_sessions_by_sender(fx->engine->sessions, "t");
  assert_non_null(session);
  bool ambiguous;
  fx->doc = eddi_session_find_doc(session, "a.txt", &ambiguous);
  assert_non_null(fx->doc);
  *state = fx;
  return 0;
}

static int doc_teardown(void **state) {
  DocFixture *fx = *state;
  eddi_engine_free(fx->engine);
  unit_assert_no_leak(fx->live);
  unit_remove_tree(fx->root);
  unit_remove_tree(fx->state);
  free(fx);
  return 0;
}

/* a.txt (open) and b.txt, c.txt (disk) begin "new" instead of "old" after
 * one transaction. */
static int commit_three(EddiEngine *engine, bool conflict_on_disk, const char *root,
                        EddiError *err) {
  EddiEditTxn txn;
  EddiSession *session = eddi_sessions_by_sender(engine->sessions, "t");
  eddi_edit_txn_init(&txn, engine->workspace, session);
  static const char *const names[] = {"a.txt", "b.txt", "c.txt"};
  for (size_t i = 0; i < 3; i++) {
    EddiEditFile *file;
    assert_int_equal(eddi_edit_txn_file(&txn, names[i], &file, err), 0);
    /* "old" becomes "new"; the rest of the text (unsaved lines) stays. */
    assert_true(file->text.len >= 3 && memcmp(file->text.data, "old", 3) == 0);
    StrBuf text = {0};
    eddi_strbuf_printf(&text, "new%s", file->text.data + 3);
    eddi_edit_file_write(file, text.data, text.len);
    eddi_strbuf_free(&text);
    assert_true(file->doc != NULL || i > 0);
  }
  /* Someone else rewrites c.txt's only line: eddi's change overlaps it. */
  if (conflict_on_disk) write_in(root, "c.txt", "their c\n", 8);
  int rc = eddi_edit_txn_commit(&txn, NULL, err);
  eddi_edit_txn_free(&txn);
  return rc;
}

/* a.txt, b.txt and c.txt hold expected[0..2]. */
static void assert_files(const char *root, const char *const expected[3]) {
  static const char *const names[] = {"a.txt", "b.txt", "c.txt"};
  for (size_t i = 0; i < 3; i++) {
    char *bytes = read_in(root, names[i]);
    assert_string_equal(bytes, expected[i]);
    free(bytes);
  }
}

static void assert_doc_text(const EddiDoc *doc, const char *expected) {
  char *text = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
  assert_string_equal(text, expected);
  eddi_free(text);
}

static void test_txn_open_doc_joins_the_intent(void **state) {
  DocFixture *fx = *state;
  const char *root = fx->root;
  EddiEngine *engine = fx->engine;
  EddiDoc *doc = fx->doc;
  EddiError err;
  assert_int_equal(commit_three(engine, false, root, &err), 0);
  assert_files(root, (const char *const[]){"new a\n", "new b\n", "new c\n"});
  /* The document has the new text, saved, as one undo step. */
  assert_doc_text(doc, "new a\n");
  assert_false(eddi_doc_modified(doc));
  /* Its backend knows the bytes written: an edit saves without a conflict. */
  exec_ok(engine, "Insert Line \"more\"\nSave");
  char *bytes = read_in(root, "a.txt");
  assert_non_null(strstr(bytes, "new a\n"));
  assert_non_null(strstr(bytes, "more"));
  free(bytes);
  exec_ok(engine, "Undo 2");
  assert_doc_text(doc, "old a\n");
  /* No temporary file or backup is left. */
  char path[PATH_MAX];
  unit_path(path, root, ".");
  DIR *dir = opendir(path);
  for (struct dirent *entry; (entry = readdir(dir));) assert_null(strstr(entry->d_name, ".eddi-"));
  closedir(dir);
}

static void test_txn_open_doc_untouched_when_a_file_fails(void **state) {
  DocFixture *fx = *state;
  const char *root = fx->root;
  EddiDoc *doc = fx->doc;
  size_t groups = doc->undo.len;
  EddiError err;
  assert_int_equal(commit_three(fx->engine, true, root, &err), EDDI_ESTALE);
  assert_non_null(strstr(err.what, "c.txt changed on disk since it was read"));
  /* All old on disk (c.txt keeps the other writer's bytes) ... */
  assert_files(root, (const char *const[]){"old a\n", "old b\n", "their c\n"});
  /* ... and the document as it was: its text, saved, no new undo step. */
  assert_doc_text(doc, "old a\n");
  assert_false(eddi_doc_modified(doc));
  assert_int_equal(doc->undo.len, groups);
  assert_int_equal(doc->redo.len, 0); /* never changed, so nothing taken back */
}

static void test_txn_open_doc_unsaved_edits_are_written(void **state) {
  DocFixture *fx = *state;
  const char *root = fx->root;
  EddiEngine *engine = fx->engine;
  EddiDoc *doc = fx->doc;
  /* Unsaved: a line typed at the end. The change, computed on the
   * document's text, is written with it, as a save would. */
  exec_ok(engine, "Goto EndOfFile\nInsert Line \"typed\"");
  assert_true(eddi_doc_modified(doc));
  EddiError err;
  assert_int_equal(commit_three(engine, false, root, &err), 0);
  char *bytes = read_in(root, "a.txt");
  assert_string_equal(bytes, "new a\ntyped\n");
  free(bytes);
  assert_false(eddi_doc_modified(doc));
}

static void test_txn_read_only_doc_refuses_the_change(void **state) {
  DocFixture *fx = *state;
  const char *root = fx->root;
  char path[PATH_MAX];
  unit_path(path, root, "a.txt");
  chmod(path, 0444);
  EddiError err;
  /* Refused before anything is written: no file is replaced and put back. */
  assert_int_equal(commit_three(fx->engine, false, root, &err), EDDI_EIO);
  assert_string_equal(err.what, "a.txt is read-only; nothing written");
  assert_string_equal(err.hint, "Make a.txt writable, then run the change again");
  assert_files(root, (const char *const[]){"old a\n", "old b\n", "old c\n"});
  assert_doc_text(fx->doc, "old a\n");
  assert_false(eddi_doc_modified(fx->doc));
  chmod(path, 0644);
}

/* Bytes of big.txt: over the size whose copy the disk backend keeps. */
#define BIG_BYTES ((size_t)17 << 20)

/* big.txt: "old big\n", then lines of x up to BIG_BYTES. */
static void write_big(const char *root, const char *first) {
  char *bytes = malloc(BIG_BYTES);
  memset(bytes, 'x', BIG_BYTES);
  size_t head = strlen(first);
  memcpy(bytes, first, head);
  for (size_t i = head + 63; i < BIG_BYTES; i += 64) bytes[i] = '\n';
  bytes[BIG_BYTES - 1] = '\n';
  write_in(root, "big.txt", bytes, BIG_BYTES);
  free(bytes);
}

static const char patch_big[] = "Patch\n*** Begin Patch\n*** Update File: big.txt\n-old big\n+new big\n"
                                "*** Update File: b.txt\n-old b\n+new b\n*** End Patch";

static char *exec_reply(EddiEngine *engine, const char *text) {
  return eddi_exec(engine, "t", text, strlen(text));
}

static void test_txn_large_doc_joins_the_intent(void **state) {
  DocFixture *fx = *state;
  write_big(fx->root, "old big\n");
  exec_ok(fx->engine, "Open big.txt\nInsert Line \"typed\"");
  exec_ok(fx->engine, patch_big);
  size_t len;
  char path[PATH_MAX];
  unit_path(path, fx->root, "big.txt");
  char *bytes = unit_read_file(path, &len);
  assert_int_equal(len, BIG_BYTES + 6);
  assert_memory_equal(bytes, "typed\nnew big\nxxx", 17);
  free(bytes);
  char *b = read_in(fx->root, "b.txt");
  assert_string_equal(b, "new b\n");
  free(b);
  /* The backend knows what was written: its next save is no conflict. */
  exec_ok(fx->engine, "Diff\nGoto 0:0\nInsert Line \"more\"\nSave");
}

static void test_txn_large_doc_changed_on_disk_refuses(void **state) {
  DocFixture *fx = *state;
  write_big(fx->root, "old big\n");
  exec_ok(fx->engine, "Open big.txt");
  /* Someone else changes its last line: without a copy of what eddi read,
   * the two cannot be merged. */
  char path[PATH_MAX];
  unit_path(path, fx->root, "big.txt");
  FILE *file = fopen(path, "r+");
  fseek(file, -2, SEEK_END);
  fputc('y', file);
  fclose(file);
  char *reply = exec_reply(fx->engine, patch_big);
  assert_string_equal(reply, "Fail \"big.txt changed on disk since Open; nothing written\", Open "
                             "Reload reads it again (unsaved edits are discarded)");
  eddi_string_free(reply);
  char *b = read_in(fx->root, "b.txt");
  assert_string_equal(b, "old b\n");
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_txn_file_loads_from_disk, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_txn_open_doc_joins_the_intent, doc_setup,
                                      doc_teardown),
      cmocka_unit_test_setup_teardown(test_txn_open_doc_untouched_when_a_file_fails, doc_setup,
                                      doc_teardown),
      cmocka_unit_test_setup_teardown(test_txn_open_doc_unsaved_edits_are_written, doc_setup,
                                      doc_teardown),
      cmocka_unit_test_setup_teardown(test_txn_read_only_doc_refuses_the_change, doc_setup,
                                      doc_teardown),
      cmocka_unit_test_setup_teardown(test_txn_large_doc_joins_the_intent, doc_setup,
                                      doc_teardown),
      cmocka_unit_test_setup_teardown(test_txn_large_doc_changed_on_disk_refuses, doc_setup,
                                      doc_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
