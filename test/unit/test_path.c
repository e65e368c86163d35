/* test_path.c - keeping paths inside the workspace (path.h).
 *
 * The workspace is a fresh mkdtemp folder (its realpath is the root) with:
 *   src/a.txt
 *   in        -> src             (a symlink that stays inside)
 *   out       -> <another temp>  (a symlink that leaves; it holds secret.txt)
 *   dangling  -> nowhere.txt
 */
#include "unit_support.h"

#include "core/path.h"

typedef struct {
  char root[PATH_MAX];
  char outside[PATH_MAX];
} Workspace;

static int workspace_setup(void **state) {
  Workspace *ws = calloc(1, sizeof *ws);
  unit_workspace_new(ws->root);
  unit_workspace_new(ws->outside);
  char path[PATH_MAX];
  unit_path(path, ws->root, "src");
  assert_int_equal(mkdir(path, 0755), 0);
  unit_path(path, ws->root, "src/a.txt");
  unit_write_file(path, "a\n", 2);
  unit_path(path, ws->outside, "secret.txt");
  unit_write_file(path, "s\n", 2);
  unit_path(path, ws->root, "in");
  assert_int_equal(symlink("src", path), 0);
  unit_path(path, ws->root, "out");
  assert_int_equal(symlink(ws->outside, path), 0);
  unit_path(path, ws->root, "dangling");
  assert_int_equal(symlink("nowhere.txt", path), 0);
  *state = ws;
  return 0;
}

static int workspace_teardown(void **state) {
  Workspace *ws = *state;
  unit_remove_tree(ws->root);
  unit_remove_tree(ws->outside);
  free(ws);
  return 0;
}

/* input resolves to rel, and abs is root + "/" + rel (root alone for ""). */
static void resolves(const Workspace *ws, const char *input, const char *rel) {
  long live = unit_live();
  char *got_rel = NULL, *got_abs = NULL;
  EddiError err;
  eddi_error_clear(&err);
  int rc = eddi_path_resolve(ws->root, input, &got_rel, &got_abs, &err);
  if (rc != 0) fail_msg("%s: %s", input, err.what);
  assert_string_equal(got_rel, rel);
  char abs[PATH_MAX];
  if (rel[0]) unit_path(abs, ws->root, rel);
  else unit_concat(abs, ws->root, "", "");
  assert_string_equal(got_abs, abs);
  eddi_free(got_rel);
  eddi_free(got_abs);
  unit_assert_no_leak(live);
}

static void refused(const Workspace *ws, const char *input, int code, const char *what) {
  long live = unit_live();
  char *rel = NULL, *abs = NULL;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_path_resolve(ws->root, input, &rel, &abs, &err), code);
  assert_string_equal(err.what, what);
  assert_null(rel);
  assert_null(abs);
  unit_assert_no_leak(live);
}

/* ws->root + suffix, into out. */
static const char *under_root(const Workspace *ws, const char *suffix, char out[PATH_MAX]) {
  unit_concat(out, ws->root, suffix, "");
  return out;
}

/* ---------------------------------------------------------------- lexical */

static void test_plain_and_normalised(void **state) {
  const Workspace *ws = *state;
  resolves(ws, "src/a.txt", "src/a.txt");
  resolves(ws, "./src//a.txt", "src/a.txt");
  resolves(ws, "src///./a.txt/", "src/a.txt");
  resolves(ws, "src/new/file.txt", "src/new/file.txt"); /* need not exist */
  resolves(ws, "src/../a.txt", "a.txt");
  resolves(ws, "src/..", "");
  resolves(ws, ".", "");
  resolves(ws, "./", "");
  resolves(ws, "src/./../src/a.txt", "src/a.txt");
}

static void test_climbing_out(void **state) {
  const Workspace *ws = *state;
  refused(ws, "..", EDDI_EPATH, "Path outside workspace");
  refused(ws, "../x", EDDI_EPATH, "Path outside workspace");
  refused(ws, "a/../../b", EDDI_EPATH, "Path outside workspace");
  refused(ws, "src/../..", EDDI_EPATH, "Path outside workspace");
  refused(ws, "", EDDI_EINVAL, "Empty path");
  char long_name[400];
  memset(long_name, 'n', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  refused(ws, long_name, EDDI_EINVAL, "Path component too long");
}

static void test_absolute_paths(void **state) {
  const Workspace *ws = *state;
  char path[PATH_MAX];
  resolves(ws, under_root(ws, "/src/a.txt", path), "src/a.txt");
  resolves(ws, under_root(ws, "", path), "");
  resolves(ws, under_root(ws, "/", path), "");
  resolves(ws, under_root(ws, "//src//a.txt", path), "src/a.txt");
  refused(ws, under_root(ws, "/../x", path), EDDI_EPATH, "Path outside workspace");
  /* A sibling whose name starts with the root's is not inside it. */
  refused(ws, under_root(ws, "-other/x", path), EDDI_EPATH, "Path outside workspace");
  refused(ws, "/etc/passwd", EDDI_EPATH, "Path outside workspace");
  refused(ws, "/", EDDI_EPATH, "Path outside workspace");
  refused(ws, "//", EDDI_EPATH, "Path outside workspace");
  refused(ws, ws->outside, EDDI_EPATH, "Path outside workspace");
}

/* ---------------------------------------------------------------- symlinks */

static void test_symlinks(void **state) {
  const Workspace *ws = *state;
  /* Inside: allowed, and the path stays as written. */
  resolves(ws, "in/a.txt", "in/a.txt");
  resolves(ws, "in", "in");
  resolves(ws, "in/new.txt", "in/new.txt");
  /* Out of the root: refused, whether the rest exists or not. */
  refused(ws, "out", EDDI_EPATH, "Path outside workspace");
  refused(ws, "out/secret.txt", EDDI_EPATH, "Path outside workspace");
  refused(ws, "out/new/deeper.txt", EDDI_EPATH, "Path outside workspace");
  refused(ws, "src/../out/secret.txt", EDDI_EPATH, "Path outside workspace");
  /* Dangling: refused with its name. */
  refused(ws, "dangling", EDDI_EPATH, "Broken symlink: dangling");
  refused(ws, "dangling/x", EDDI_EPATH, "Broken symlink: dangling");
}

/* ---------------------------------------------------------------- helpers */

static void test_join_and_basename(void **state) {
  long live = unit_live();
  const char *cases[][3] = {
      {"a", "b", "a/b"}, {"a/", "b", "a/b"}, {"", "b", "b"}, {"a", "", "a"}, {"/", "x", "/x"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *joined = eddi_path_join(cases[i][0], cases[i][1]);
    assert_string_equal(joined, cases[i][2]);
    eddi_free(joined);
  }
  assert_string_equal(eddi_path_basename("a/b/c.txt"), "c.txt");
  assert_string_equal(eddi_path_basename("c.txt"), "c.txt");
  assert_string_equal(eddi_path_basename("a/"), "");
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plain_and_normalised),
      cmocka_unit_test(test_climbing_out),
      cmocka_unit_test(test_absolute_paths),
      cmocka_unit_test(test_symlinks),
      cmocka_unit_test(test_join_and_basename),
  };
  return cmocka_run_group_tests(tests, workspace_setup, workspace_teardown);
}
