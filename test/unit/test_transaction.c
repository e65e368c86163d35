/* test_transaction.c - loading the files of an edit (edit/transaction.h).
 *
 * A transaction reads files that no session has open through the disk
 * backend's one reader, and words the refusals with the file's name, since
 * one edit may touch several files. */
#include "unit_support.h"

#include <errno.h>
#include <sys/types.h>

#include "edit/transaction.h"

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
  eddi_edit_txn_init(&txn, engine, NULL);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_txn_file_loads_from_disk, unit_folder_setup,
                                      unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
