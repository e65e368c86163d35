/* test_fs.c - the checked filesystem (core/fs.h): paths that lead out are
 * refused even when they change under eddi, and a replace never overwrites
 * a change it did not see. */
#include "unit_support.h"

#include <fcntl.h>
#include <sys/wait.h>

#include "core/fs.h"

typedef struct {
  char root[PATH_MAX];
  char outside[PATH_MAX];
  int root_fd;
} Fixture;

static int fixture_setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  unit_workspace_new(fx->root);
  unit_workspace_new(fx->outside);
  EddiError err;
  assert_int_equal(eddi_fs_root_open(fx->root, &fx->root_fd, &err), 0);
  *state = fx;
  return 0;
}

static int fixture_teardown(void **state) {
  Fixture *fx = *state;
  close(fx->root_fd);
  unit_remove_tree(fx->root);
  unit_remove_tree(fx->outside);
  free(fx);
  return 0;
}

static void put(const char *dir, const char *name, const char *text) {
  char path[PATH_MAX];
  unit_path(path, dir, name);
  unit_write_file(path, text, strlen(text));
}

static char *get(const char *dir, const char *name) {
  char path[PATH_MAX];
  unit_path(path, dir, name);
  size_t len;
  return unit_read_file(path, &len);
}

static void stamp_of(Fixture *fx, const char *rel, EddiFileStamp *stamp) {
  StrBuf bytes = {0};
  EddiError err;
  int rc = eddi_fs_read(fx->root_fd, rel, 1 << 20, &bytes, stamp, NULL, &err);
  assert_true(rc == 0 || rc == EDDI_ENOENT);
  eddi_strbuf_free(&bytes);
}

static int replace(Fixture *fx, const char *rel, const char *text, const EddiFileStamp *expected,
                   EddiFsConflict *conflict, EddiError *err) {
  EddiFileStamp written;
  EddiFsReplace op = {.rel = rel, .bytes = text, .len = strlen(text), .mode = 0644,
                      .expected = expected, .max_bytes = 1 << 20};
  return eddi_fs_replace(fx->root_fd, &op, &written, conflict, err);
}

/* ------------------------------------------------------------ paths */

static void test_symlink_swap_is_refused(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  char dir[PATH_MAX], link_target[PATH_MAX];
  unit_path(dir, fx->root, "d2");
  mkdir(dir, 0755);
  put(fx->root, "d2/conf.txt", "inside\n");
  EddiFileStamp stamp;
  stamp_of(fx, "d2/conf.txt", &stamp);
  /* d2 becomes a symlink to a folder outside, holding a file of that name. */
  put(fx->outside, "conf.txt", "inside\n");
  unit_remove_tree(dir);
  snprintf(link_target, sizeof link_target, "%s", fx->outside);
  assert_int_equal(symlink(link_target, dir), 0);
  EddiFsConflict conflict = {0};
  EddiError err;
  assert_int_equal(replace(fx, "d2/conf.txt", "written\n", &stamp, &conflict, &err), EDDI_EPATH);
  assert_string_equal(err.what, "Path outside workspace");
  char *outside = get(fx->outside, "conf.txt");
  assert_string_equal(outside, "inside\n");
  free(outside);
  /* Creating below it, and making folders through it, are refused too. */
  EddiFileStamp none = {0};
  assert_int_equal(replace(fx, "d2/new.txt", "x\n", &none, &conflict, &err), EDDI_EPATH);
  assert_int_equal(replace(fx, "d2/sub/new.txt", "x\n", &none, &conflict, &err), EDDI_EPATH);
  /* A symlink inside the workspace pointing inside is fine to read. */
  unit_path(dir, fx->root, "real");
  mkdir(dir, 0755);
  put(fx->root, "real/a.txt", "a\n");
  unit_path(dir, fx->root, "alias");
  assert_int_equal(symlink("real", dir), 0);
  StrBuf bytes = {0};
  assert_int_equal(eddi_fs_read(fx->root_fd, "alias/a.txt", 100, &bytes, &stamp, NULL, &err), 0);
  assert_string_equal(bytes.data, "a\n");
  eddi_strbuf_free(&bytes);
  eddi_fs_conflict_free(&conflict);
  unit_assert_no_leak(live);
}

static void test_dotdot_and_absolute_links_are_refused(void **state) {
  Fixture *fx = *state;
  char path[PATH_MAX];
  unit_path(path, fx->root, "up");
  assert_int_equal(symlink("../", path), 0);
  unit_path(path, fx->root, "abs");
  assert_int_equal(symlink("/etc/passwd", path), 0);
  EddiFileStamp stamp;
  StrBuf bytes = {0};
  EddiError err;
  assert_int_equal(eddi_fs_read(fx->root_fd, "abs", 1 << 20, &bytes, &stamp, NULL, &err),
                   EDDI_EPATH);
  assert_int_equal(eddi_fs_read(fx->root_fd, "up/x", 1 << 20, &bytes, &stamp, NULL, &err),
                   EDDI_EPATH);
  assert_int_equal(eddi_fs_read(fx->root_fd, "missing.txt", 1 << 20, &bytes, &stamp, NULL, &err),
                   EDDI_ENOENT);
  assert_false(stamp.exists);
  eddi_strbuf_free(&bytes);
}

/* ------------------------------------------------------------ replace */

static void test_replace_checks_the_stamp(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  put(fx->root, "a.txt", "one\n");
  EddiFileStamp stamp;
  stamp_of(fx, "a.txt", &stamp);
  EddiFsConflict conflict = {0};
  EddiError err;
  assert_int_equal(replace(fx, "a.txt", "two\n", &stamp, &conflict, &err), 0);
  char *now = get(fx->root, "a.txt");
  assert_string_equal(now, "two\n");
  free(now);
  /* The old stamp is stale now: refused, with what is there. */
  assert_int_equal(replace(fx, "a.txt", "three\n", &stamp, &conflict, &err), EDDI_ESTALE);
  assert_true(conflict.changed);
  assert_true(conflict.theirs_exist);
  assert_string_equal(conflict.theirs.data, "two\n");
  assert_string_equal(err.what, "a.txt changed on disk");
  /* With the stamp of what is there, it goes through. */
  EddiFileStamp fresh = conflict.stamp;
  assert_int_equal(replace(fx, "a.txt", "three\n", &fresh, &conflict, &err), 0);
  /* A file expected missing that appeared is not overwritten. */
  EddiFileStamp none = {0};
  put(fx->root, "b.txt", "theirs\n");
  assert_int_equal(replace(fx, "b.txt", "ours\n", &none, &conflict, &err), EDDI_ESTALE);
  now = get(fx->root, "b.txt");
  assert_string_equal(now, "theirs\n");
  free(now);
  /* Folders are made on the way; the mode is kept. */
  assert_int_equal(replace(fx, "new/deep/c.txt", "c\n", &none, &conflict, &err), 0);
  char path[PATH_MAX];
  unit_path(path, fx->root, "new/deep/c.txt");
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
  /* No temporary file is left behind. */
  DIR *dir = opendir(fx->root);
  for (struct dirent *entry; (entry = readdir(dir));) assert_null(strstr(entry->d_name, ".eddi-"));
  closedir(dir);
  eddi_fs_conflict_free(&conflict);
  unit_assert_no_leak(live);
}

/* A write that cannot be made leaves the old file as it was and no
 * temporary file behind. */
static void test_failed_replace_keeps_the_old_file(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  put(fx->root, "old.txt", "old\n");
  EddiFileStamp none = {0};
  EddiFsConflict conflict = {0};
  EddiError err;
  /* A file where a folder should be. */
  assert_true(replace(fx, "old.txt/x", "new", &none, &conflict, &err) < 0);
  assert_true(replace(fx, "old.txt/sub/x", "new", &none, &conflict, &err) < 0);
  /* A folder where the file should be. */
  char dir[PATH_MAX];
  unit_path(dir, fx->root, "dir");
  mkdir(dir, 0755);
  EddiFileStamp folder = {0};
  assert_true(replace(fx, "dir", "new", &folder, &conflict, &err) < 0);
  char *kept = get(fx->root, "old.txt");
  assert_string_equal(kept, "old\n");
  free(kept);
  DIR *listing = opendir(fx->root);
  for (struct dirent *entry; (entry = readdir(listing));) assert_null(strstr(entry->d_name, ".eddi-"));
  closedir(listing);
  struct stat st;
  assert_int_equal(stat(dir, &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  eddi_fs_conflict_free(&conflict);
  unit_assert_no_leak(live);
}

static void test_unlink_checks_the_stamp(void **state) {
  Fixture *fx = *state;
  put(fx->root, "gone.txt", "x\n");
  EddiFileStamp stamp;
  stamp_of(fx, "gone.txt", &stamp);
  put(fx->root, "gone.txt", "changed\n");
  EddiError err;
  assert_int_equal(eddi_fs_unlink(fx->root_fd, "gone.txt", &stamp, 1 << 20, &err), EDDI_ESTALE);
  stamp_of(fx, "gone.txt", &stamp);
  assert_int_equal(eddi_fs_unlink(fx->root_fd, "gone.txt", &stamp, 1 << 20, &err), 0);
  stamp_of(fx, "gone.txt", &stamp);
  assert_false(stamp.exists);
}

/* ------------------------------------------------------------ leftovers */

/* A temporary file left by a process that died between its write and its
 * rename (kill -9) is removed the first time this process writes in that
 * folder; one of a live process is left alone. */
static void test_leftovers_of_dead_writers_are_swept(void **state) {
  Fixture *fx = *state;
  char dir[PATH_MAX];
  unit_path(dir, fx->root, "swept");
  mkdir(dir, 0755);
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, NULL, 0);
  char dead[64], live[64], other[64];
  snprintf(dead, sizeof dead, ".a.txt.eddi-%ld-abcdefghijkl", (long)child);
  snprintf(live, sizeof live, ".a.txt.eddi-%ld-abcdefghijkl", (long)getppid());
  snprintf(other, sizeof other, ".a.txt.eddi-notapid");
  put(dir, dead, "half");
  put(dir, live, "being written");
  put(dir, other, "not ours");
  EddiFileStamp none = {0};
  EddiFsConflict conflict = {0};
  EddiError err;
  assert_int_equal(replace(fx, "swept/b.txt", "b\n", &none, &conflict, &err), 0);
  char path[PATH_MAX];
  unit_path(path, dir, dead);
  assert_int_equal(access(path, F_OK), -1);
  unit_path(path, dir, live);
  assert_int_equal(access(path, F_OK), 0);
  unit_path(path, dir, other);
  assert_int_equal(access(path, F_OK), 0);
  eddi_fs_conflict_free(&conflict);
}

/* ------------------------------------------------------------ races */

/* Another process appends a numbered line every few hundred microseconds
 * while eddi replaces the file, merging each time it is told of a change:
 * every append must survive. A process, not a thread: a lease (fs.c's
 * fs__quiet) holds back the opens of other processes only, as a writer
 * eddi does not know is. */
#define RACE_APPENDS 300
#define RACE_PAUSE_US 300

static void appender_run(const char *path, int count) {
  for (int i = 0; i < count; i++) {
    int fd = open(path, O_WRONLY | O_APPEND);
    if (fd >= 0) {
      char line[32];
      int n = snprintf(line, sizeof line, "append %d\n", i);
      if (write(fd, line, (size_t)n) != n) _exit(1);
      close(fd);
    }
    usleep(RACE_PAUSE_US);
  }
  _exit(0);
}

static void test_concurrent_appends_survive(void **state) {
  Fixture *fx = *state;
  put(fx->root, "log.txt", "header\n");
  char path[PATH_MAX];
  unit_path(path, fx->root, "log.txt");
  pid_t appender = fork();
  assert_true(appender >= 0);
  if (appender == 0) appender_run(path, RACE_APPENDS);
  EddiError err;
  int conflicts = 0;
  for (int edit = 0; edit < 200; edit++) {
    /* eddi's edit: rewrite the first line, keep the rest as read. */
    StrBuf seen = {0};
    EddiFileStamp stamp;
    assert_int_equal(eddi_fs_read(fx->root_fd, "log.txt", 1 << 20, &seen, &stamp, NULL, &err), 0);
    const char *rest = strchr(seen.data, '\n') + 1;
    StrBuf ours = {0};
    eddi_strbuf_printf(&ours, "header %d\n%s", edit, rest);
    EddiFsConflict conflict = {0};
    EddiFileStamp written;
    EddiFsReplace op = {.rel = "log.txt", .bytes = ours.data, .len = ours.len, .mode = 0644,
                        .expected = &stamp, .max_bytes = 1 << 20};
    int rc = eddi_fs_replace(fx->root_fd, &op, &written, &conflict, &err);
    assert_true(rc == 0 || rc == EDDI_ESTALE);
    conflicts += rc == EDDI_ESTALE;
    eddi_fs_conflict_free(&conflict);
    eddi_strbuf_free(&seen), eddi_strbuf_free(&ours);
  }
  int status = 0;
  assert_int_equal(waitpid(appender, &status, 0), appender);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  char *final = get(fx->root, "log.txt");
  for (int i = 0; i < RACE_APPENDS; i++) {
    char line[32];
    snprintf(line, sizeof line, "\nappend %d\n", i);
    if (!strstr(final, line)) fail_msg("append %d was lost (%d conflicts)", i, conflicts);
  }
  free(final);
}

int main(void) {
#define FIXTURE_TEST(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
  const struct CMUnitTest tests[] = {
      FIXTURE_TEST(test_symlink_swap_is_refused),
      FIXTURE_TEST(test_dotdot_and_absolute_links_are_refused),
      FIXTURE_TEST(test_replace_checks_the_stamp),
      FIXTURE_TEST(test_failed_replace_keeps_the_old_file),
      FIXTURE_TEST(test_unlink_checks_the_stamp),
      FIXTURE_TEST(test_leftovers_of_dead_writers_are_swept),
      FIXTURE_TEST(test_concurrent_appends_survive),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
