/* test_disk.c - file decoding, atomic writes and opening (disk_backend.h).
 *
 * File tests run in a scratch folder made per test. Tests may run as root,
 * where a read-only folder does not stop a write: the one check that needs
 * permissions to bite is skipped there, the others fail in ways root cannot
 * get around (a file where a folder should be, a folder where a file is). */
#include "unit_support.h"

#include <errno.h>
#include <sys/types.h>

#include "core/disk_backend.h"

/* ---------------------------------------------------------------- helpers */

/* Decode raw (a literal, may hold NULs), check text and format, then check
 * that encoding gives raw back. */
#define ROUND_TRIP(raw, text, bom, crlf) \
  round_trip(raw, sizeof(raw) - 1, text, sizeof(text) - 1, bom, crlf)

static void round_trip(const char *raw, size_t raw_len, const char *text, size_t text_len,
                       bool bom, bool crlf) {
  long live = unit_live();
  EddiFileFormat format = {!bom, !crlf};
  StrBuf out = {0};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_disk_decode(raw, raw_len, &format, &out, &err), 0);
  assert_int_equal(format.bom, bom);
  assert_int_equal(format.crlf, crlf);
  assert_int_equal(out.len, text_len);
  if (text_len) assert_memory_equal(out.data, text, text_len);
  StrBuf back = {0};
  eddi_disk_encode(out.data ? out.data : "", out.len, format, &back);
  assert_int_equal(back.len, raw_len);
  if (raw_len) assert_memory_equal(back.data, raw, raw_len);
  eddi_strbuf_free(&out);
  eddi_strbuf_free(&back);
  unit_assert_no_leak(live);
}

#define DECODE_FAILS(raw, what) decode_fails(raw, sizeof(raw) - 1, what)

static void decode_fails(const char *raw, size_t len, const char *what) {
  long live = unit_live();
  EddiFileFormat format;
  StrBuf out = {0};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_disk_decode(raw, len, &format, &out, &err), EDDI_EINVAL);
  assert_string_equal(err.what, what);
  assert_int_equal(out.len, 0);
  eddi_strbuf_free(&out);
  unit_assert_no_leak(live);
}


static void assert_file(const char *path, const char *expected) {
  size_t len;
  char *data = unit_read_file(path, &len);
  assert_non_null(data);
  assert_int_equal(len, strlen(expected));
  assert_memory_equal(data, expected, len);
  free(data);
}

static unsigned file_mode(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return st.st_mode & 07777;
}

/* ---------------------------------------------------------------- format */

static void test_decode_round_trips(void **state) {
  ROUND_TRIP("", "", false, false);
  ROUND_TRIP("a\nb\n", "a\nb\n", false, false);
  ROUND_TRIP("a\nb", "a\nb", false, false);
  ROUND_TRIP("a\r\nb\r\n", "a\nb\n", false, true);
  ROUND_TRIP("a\r\nb", "a\nb", false, true);           /* no final newline */
  ROUND_TRIP("a\r\nb\nc\r\n", "a\r\nb\nc\r\n", false, false); /* mixed keeps its CRs */
  ROUND_TRIP("a\rb\r", "a\rb\r", false, false);        /* lone CRs are text */
  ROUND_TRIP("a\r\r\nb\r\n", "a\r\nb\n", false, true); /* a CR before a CRLF stays */
  ROUND_TRIP("\xEF\xBB\xBF", "", true, false);
  ROUND_TRIP("\xEF\xBB\xBFhi\n", "hi\n", true, false);
  ROUND_TRIP("\xEF\xBB\xBFx\r\ny", "x\ny", true, true);
  ROUND_TRIP("日本\r\n語\r\n", "日本\n語\n", false, true);
}

static void test_decode_appends(void **state) {
  long live = unit_live();
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "kept:");
  EddiFileFormat format;
  EddiError err;
  assert_int_equal(eddi_disk_decode("x\r\n", 3, &format, &out, &err), 0);
  assert_string_equal(out.data, "kept:x\n");
  eddi_strbuf_free(&out);
  unit_assert_no_leak(live);
}

static void test_decode_refusals(void **state) {
  DECODE_FAILS("ab\0c", "Binary file (NUL byte at offset 2)");
  DECODE_FAILS("\0", "Binary file (NUL byte at offset 0)");
  DECODE_FAILS("\xEF\xBB\xBF\0", "Binary file (NUL byte at offset 3)");
  DECODE_FAILS("ab\xC3(", "Not valid UTF-8 (byte 2)");
  DECODE_FAILS("caf\xE9", "Not valid UTF-8 (byte 3)"); /* Latin-1 é */
  DECODE_FAILS("\xEF\xBB\xBF" "ab\xFF", "Not valid UTF-8 (byte 5)"); /* counts the BOM */
  DECODE_FAILS("\xFF\xFEh\0i\0", "Binary file (NUL byte at offset 3)"); /* UTF-16 */
  DECODE_FAILS("\xED\xA0\x80", "Not valid UTF-8 (byte 0)");
  DECODE_FAILS("\xEF\xBB", "Not valid UTF-8 (byte 0)"); /* half a BOM */
}

/* ---------------------------------------------------------------- writing */

/* eddi_disk_open on path inside root, through a descriptor of root (kept
 * open for the test program's life, as an engine keeps its own). */
static int disk_open(const char *root, const char *path, bool create, size_t max_bytes,
                     EddiBackend **backend, StrBuf *text, bool *is_new, EddiError *err) {
  static char opened[PATH_MAX];
  static int root_fd = -1;
  if (root_fd < 0 || strcmp(opened, root) != 0) {
    if (root_fd >= 0) close(root_fd);
    EddiError ignored;
    assert_int_equal(eddi_fs_root_open(root, &root_fd, &ignored), 0);
    snprintf(opened, sizeof opened, "%s", root);
  }
  return eddi_disk_open(root_fd, path + strlen(root) + 1, create, max_bytes, backend, text,
                        is_new, err);
}

/* ---------------------------------------------------------------- opening */

static void test_open_missing_file(void **state) {
  long live = unit_live();
  const char *root = *state;
  char path[PATH_MAX];
  unit_path(path, root, "sub/missing.txt");
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new = false;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(disk_open(root, path, false, 1000, &backend, &text, &is_new, &err),
                   EDDI_ENOENT);
  assert_string_equal(err.what, "File not found");
  assert_null(backend);
  assert_int_equal(text.len, 0);
  unit_assert_no_leak(live);

  /* With create: an empty new document that saving creates, folders too,
   * with the mode the umask at Open allows. */
  mode_t mask = umask(027);
  int rc = disk_open(root, path, true, 1000, &backend, &text, &is_new, &err);
  umask(mask);
  assert_int_equal(rc, 0);
  assert_non_null(backend);
  assert_true(is_new);
  assert_int_equal(text.len, 0);
  eddi_strbuf_free(&text);
  EddiDoc *doc = eddi_doc_new("sub/missing.txt", backend, "", 0, is_new, 10);
  assert_int_equal(eddi_doc_replace(doc, 0, 0, "made\n", 5, &err), 0);
  size_t bytes = 0;
  assert_int_equal(eddi_doc_save(doc, &bytes, &err), 0);
  assert_int_equal(bytes, 5);
  assert_file(path, "made\n");
  eddi_doc_free(doc);
  assert_int_equal(file_mode(path), 0640);
  unit_assert_no_leak(live);
}

static void test_open_decodes_and_saves_back(void **state) {
  long live = unit_live();
  const char *root = *state;
  char path[PATH_MAX];
  unit_path(path, root, "crlf.txt");
  unit_write_file(path, "\xEF\xBB\xBFone\r\ntwo", 11);
  assert_int_equal(chmod(path, 0604), 0);
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new = true;
  EddiError err;
  assert_int_equal(disk_open(root, path, false, 1000, &backend, &text, &is_new, &err), 0);
  assert_false(is_new);
  assert_string_equal(text.data, "one\ntwo");
  EddiDoc *doc = eddi_doc_new("crlf.txt", backend, text.data, text.len, false, 10);
  eddi_strbuf_free(&text);
  assert_int_equal(eddi_doc_replace(doc, 3, 3, "\nhalf", 5, &err), 0);
  size_t bytes = 0;
  assert_int_equal(eddi_doc_save(doc, &bytes, &err), 0);
  assert_int_equal(bytes, 17);
  assert_file(path, "\xEF\xBB\xBFone\r\nhalf\r\ntwo");
  assert_int_equal(file_mode(path), 0604); /* the file keeps its mode */
  StrBuf saved = {0};
  assert_int_equal(backend->vtable->saved_text(backend, &saved, &err), 0);
  assert_string_equal(saved.data, "one\nhalf\ntwo");
  eddi_strbuf_free(&saved);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_open_refusals(void **state) {
  long live = unit_live();
  const char *root = *state;
  char path[PATH_MAX];
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new;
  EddiError err;

  unit_path(path, root, "five.txt");
  unit_write_file(path, "12345", 5);
  assert_int_equal(disk_open(root, path, false, 4, &backend, &text, &is_new, &err),
                   EDDI_ETOOBIG);
  assert_string_equal(err.what, "File too large (5 bytes, limit 4)");
  assert_int_equal(disk_open(root, path, false, 5, &backend, &text, &is_new, &err), 0);
  backend->vtable->destroy(backend);
  backend = NULL;
  eddi_strbuf_free(&text);

  unit_path(path, root, "binary.bin");
  unit_write_file(path, "\x7F" "ELF\0\1", 6);
  assert_int_equal(disk_open(root, path, true, 100, &backend, &text, &is_new, &err),
                   EDDI_EINVAL);
  assert_string_equal(err.what, "Binary file (NUL byte at offset 4)");
  assert_null(backend);

  unit_path(path, root, "latin1.txt");
  unit_write_file(path, "caf\xE9\n", 5);
  assert_int_equal(disk_open(root, path, false, 100, &backend, &text, &is_new, &err),
                   EDDI_EINVAL);
  assert_string_equal(err.what, "Not valid UTF-8 (byte 3)");

  unit_path(path, root, "folder");
  assert_int_equal(mkdir(path, 0755), 0);
  assert_int_equal(disk_open(root, path, true, 100, &backend, &text, &is_new, &err),
                   EDDI_EINVAL);
  assert_string_equal(err.what, "Is a directory");
  assert_null(backend);
  assert_int_equal(text.len, 0);
  eddi_strbuf_free(&text);
  unit_assert_no_leak(live);
}

/* eddi_disk_read_found says what was there, for callers that word their
 * own replies; eddi_disk_read words them for the backends. */
static void test_read_found_findings(void **state) {
  long live = unit_live();
  const char *root = *state;
  char path[PATH_MAX];
  StrBuf out = {0};
  EddiDiskFound found;

  unit_path(path, root, "notes.txt");
  unit_write_file(path, "abc\n", 4);
  assert_int_equal(chmod(path, 0640), 0);
  assert_int_equal(eddi_disk_read_found(path, 100, &out, &found), 0);
  assert_int_equal(found.finding, EDDI_DISK_READ);
  assert_int_equal(found.mode, 0640);
  assert_int_equal(found.size, 4);
  assert_string_equal(out.data, "abc\n");
  eddi_strbuf_free(&out);

  assert_int_equal(eddi_disk_read_found(path, 3, &out, &found), EDDI_ETOOBIG);
  assert_int_equal(found.finding, EDDI_DISK_TOO_LARGE);
  assert_int_equal(found.size, 4);

  mode_t mask = umask(022);
  unit_path(path, root, "missing.txt");
  assert_int_equal(eddi_disk_read_found(path, 100, &out, &found), EDDI_ENOENT);
  assert_int_equal(found.finding, EDDI_DISK_MISSING);
  assert_int_equal(found.sys_errno, ENOENT);
  assert_int_equal(found.mode, 0644); /* what a new file gets */
  umask(mask);

  /* A file where a folder should be: missing too, and said apart. */
  unit_path(path, root, "notes.txt/inside");
  assert_int_equal(eddi_disk_read_found(path, 100, &out, &found), EDDI_ENOENT);
  assert_int_equal(found.finding, EDDI_DISK_MISSING);
  assert_int_equal(found.sys_errno, ENOTDIR);
  bool missing;
  EddiError err;
  assert_int_equal(eddi_disk_read(path, 100, &out, &missing, NULL, &err), EDDI_EIO);
  assert_false(missing);
  assert_string_equal(err.what, "Cannot open: Not a directory");

  unit_path(path, root, "folder");
  assert_int_equal(mkdir(path, 0755), 0);
  assert_int_equal(eddi_disk_read_found(path, 100, &out, &found), EDDI_EINVAL);
  assert_int_equal(found.finding, EDDI_DISK_FOLDER);

  /* A FIFO is refused at once, not read (which would wait for a writer). */
  unit_path(path, root, "pipe");
  assert_int_equal(mkfifo(path, 0600), 0);
  assert_int_equal(eddi_disk_read_found(path, 100, &out, &found), EDDI_EINVAL);
  assert_int_equal(found.finding, EDDI_DISK_SPECIAL);
  assert_int_equal(eddi_disk_read(path, 100, &out, &missing, NULL, &err), EDDI_EINVAL);
  assert_string_equal(err.what, "Not a regular file");
  assert_int_equal(out.len, 0);
  eddi_strbuf_free(&out);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode_round_trips),
      cmocka_unit_test(test_decode_appends),
      cmocka_unit_test(test_decode_refusals),
      cmocka_unit_test_setup_teardown(test_open_missing_file, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_open_decodes_and_saves_back, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_open_refusals, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_read_found_findings, unit_folder_setup,
                                      unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
