/* test_alloc.c - the embedder's allocator (eddi_set_allocator): every engine
 * allocation goes through it, a failure reaches its out-of-memory handler
 * (the default aborts, as does a handler that returns), and once one has
 * failed the engine writes no workspace file.
 *
 * A failed allocation is for good in a process (eddi_alloc_failed): the
 * tests that need a sound engine come first in the list. */
#include "unit_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "core/fs.h"

/* ---------------------------------------------------------------- the allocators */

/* Calls counted by the counting allocator; fail_after > 0: the call of
 * that number (malloc, calloc and realloc counted together) fails, and
 * every one after it. */
static struct {
  long mallocs, callocs, reallocs, frees;
  long fail_after;
} counted;

static bool counted__fails(void) {
  long calls = counted.mallocs + counted.callocs + counted.reallocs;
  return counted.fail_after > 0 && calls >= counted.fail_after;
}

static void *counted_malloc(size_t size) {
  counted.mallocs++;
  return counted__fails() ? NULL : malloc(size);
}

static void *counted_calloc(size_t count, size_t size) {
  counted.callocs++;
  return counted__fails() ? NULL : calloc(count, size);
}

static void *counted_realloc(void *ptr, size_t size) {
  counted.reallocs++;
  return counted__fails() ? NULL : realloc(ptr, size);
}

static void counted_free(void *ptr) {
  counted.frees++;
  free(ptr);
}

static void *null_malloc(size_t size) { return NULL; }
static void *null_calloc(size_t count, size_t size) { return NULL; }
static void *null_realloc(void *ptr, size_t size) { return NULL; }

/* The handler the tests install: notes the size and jumps back into the
 * test, as the Emacs module jumps back to its entry. */
static jmp_buf handler_jump;
static size_t handler_size;
static int handler_calls;

static void jumping_handler(size_t size) {
  handler_size = size;
  handler_calls++;
  longjmp(handler_jump, 1);
}

static void returning_handler(size_t size) { handler_calls++; }

static void counted_install(long fail_after) {
  memset(&counted, 0, sizeof counted);
  counted.fail_after = fail_after;
  handler_calls = 0;
  eddi_set_allocator(counted_malloc, counted_calloc, counted_realloc, counted_free,
                     jumping_handler);
}

static void default_install(void) { eddi_set_allocator(NULL, NULL, NULL, NULL, NULL); }

/* ---------------------------------------------------------------- the workspace */

typedef struct {
  char root[PATH_MAX];
  int root_fd;
} Fixture;

static int fixture_setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  unit_workspace_new(fx->root);
  char path[PATH_MAX];
  unit_path(path, fx->root, "a.txt");
  unit_write_file(path, "old\n", 4);
  EddiError err;
  assert_int_equal(eddi_fs_root_open(fx->root, &fx->root_fd, &err), 0);
  *state = fx;
  return 0;
}

static int fixture_teardown(void **state) {
  Fixture *fx = *state;
  default_install();
  close(fx->root_fd);
  unit_remove_tree(fx->root);
  free(fx);
  return 0;
}

static char *fixture_text(const Fixture *fx, const char *name) {
  char path[PATH_MAX];
  unit_path(path, fx->root, name);
  size_t len;
  return unit_read_file(path, &len);
}

/* An edit of a.txt, saved: it writes the file. */
static const char edit_message[] = "Start s\nOpen a.txt\nInsert Line \"new\"\nSave\nEnd Session";

/* Under LeakSanitizer, allocations made between these two are not
 * reported: the engine a jump leaves half made is never freed. */
#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_TEST_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ALLOC_TEST_LSAN 1
#endif
#endif
#ifdef ALLOC_TEST_LSAN
#include <sanitizer/lsan_interface.h>
static void alloc_test__leaks_begin(void) { __lsan_disable(); }
static void alloc_test__leaks_end(void) { __lsan_enable(); }
#else
static void alloc_test__leaks_begin(void) {}
static void alloc_test__leaks_end(void) {}
#endif

static EddiEngine *fixture_engine(const Fixture *fx) {
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(fx->root, NULL, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  return engine;
}

/* ---------------------------------------------------------------- tests */

static long edit_allocations; /* what edit_message took (the counting test) */

static void test_every_allocation_goes_through_the_allocator(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  counted_install(0);
  EddiEngine *engine = fixture_engine(fx);
  char *reply = eddi_exec(engine, "tester", edit_message, strlen(edit_message));
  long during = counted.mallocs + counted.callocs;
  eddi_string_free(reply);
  eddi_engine_free(engine);
  /* Each block made went back, through the same allocator. */
  assert_true(during > 0);
  assert_int_equal(counted.mallocs + counted.callocs, counted.frees);
  assert_true(counted.reallocs > 0);
  assert_int_equal(handler_calls, 0);
  unit_assert_no_leak(live);
  char *text = fixture_text(fx, "a.txt");
  assert_string_equal(text, "new\nold\n");
  free(text);
  edit_allocations = counted.mallocs + counted.callocs + counted.reallocs;
  default_install();
}

static void test_default_handler_aborts(void **state) {
  for (int returning = 0; returning < 2; returning++) {
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
      /* No core file: the abort is expected. */
      signal(SIGABRT, SIG_DFL);
      eddi_set_allocator(null_malloc, NULL, NULL, NULL, returning ? returning_handler : NULL);
      eddi_malloc(16);
      _exit(0); /* not reached */
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
  }
}

/* The engine in the middle of a command: the handler jumps out, and the
 * file is either as it was or wholly written, never half. */
static void test_engine_failure_jumps_to_the_handler(void **state) {
  Fixture *fx = *state;
  assert_true(edit_allocations > 2);
  assert_false(eddi_alloc_failed());
  /* What the jump strands is leaked on purpose (see below): LeakSanitizer
   * is told not to count it. */
  alloc_test__leaks_begin();
  EddiEngine *engine = fixture_engine(fx);
  counted_install(edit_allocations / 2);
  if (setjmp(handler_jump) == 0) {
    char *reply = eddi_exec(engine, "tester", edit_message, strlen(edit_message));
    fail_msg("the edit ran to its end: %s", reply);
  }
  default_install();
  alloc_test__leaks_end();
  assert_int_equal(handler_calls, 1);
  assert_true(handler_size > 0);
  assert_true(eddi_alloc_failed());
  /* The engine is left as the jump left it (half made, maybe locked): it
   * is not freed. */
  char *text = fixture_text(fx, "a.txt");
  assert_true(strcmp(text, "old\n") == 0 || strcmp(text, "new\nold\n") == 0);
  free(text);
}

static void test_each_allocator_function_reaches_the_handler(void **state) {
  eddi_set_allocator(null_malloc, null_calloc, null_realloc, NULL, jumping_handler);
  handler_calls = 0;
  if (setjmp(handler_jump) == 0) {
    eddi_malloc(100);
    fail_msg("eddi_malloc returned");
  }
  assert_int_equal(handler_size, 100);
  if (setjmp(handler_jump) == 0) {
    eddi_calloc(3, 7);
    fail_msg("eddi_calloc returned");
  }
  assert_int_equal(handler_size, 21);
  if (setjmp(handler_jump) == 0) {
    eddi_calloc(SIZE_MAX, 2); /* the size asked for does not fit: the largest */
    fail_msg("eddi_calloc returned");
  }
  assert_int_equal(handler_size, SIZE_MAX);
  char *block = malloc(8); /* as the default allocator gave it */
  if (setjmp(handler_jump) == 0) {
    eddi_realloc(block, 4096);
    fail_msg("eddi_realloc returned");
  }
  free(block); /* a failed realloc leaves the block as it was */
  assert_int_equal(handler_size, 4096);
  assert_int_equal(handler_calls, 4);
  default_install();
  assert_true(eddi_alloc_failed());
}

/* After a failure nothing reaches the disk: the engine's state may be half
 * made, and what it would write may come from it. */
static void test_no_file_is_written_after_a_failure(void **state) {
  Fixture *fx = *state;
  assert_true(eddi_alloc_failed());
  EddiError err = {0};
  EddiFileStamp expected, written;
  StrBuf bytes = {0};
  assert_int_equal(eddi_fs_read(fx->root_fd, "a.txt", 1 << 20, &bytes, &expected, NULL, &err), 0);
  eddi_strbuf_free(&bytes);

  EddiFsConflict conflict = {0};
  EddiFsReplace op = {.rel = "a.txt", .bytes = "mine\n", .len = 5, .mode = 0644,
                      .expected = &expected, .max_bytes = 1 << 20};
  assert_int_equal(eddi_fs_replace(fx->root_fd, &op, &written, &conflict, &err), EDDI_EIO);
  assert_string_equal(err.what, "eddi ran out of memory: nothing more is written");
  eddi_fs_conflict_free(&conflict);

  char temp[EDDI_FS_PATH_MAX];
  EddiFsStage stage = {.rel = "sub/b.txt", .bytes = "b\n", .len = 2, .mode = 0644};
  assert_int_equal(eddi_fs_stage(fx->root_fd, &stage, temp, sizeof temp, &err), EDDI_EIO);
  assert_int_equal(eddi_fs_unlink(fx->root_fd, "a.txt", &expected, 1 << 20, &err), EDDI_EIO);
  assert_int_equal(eddi_fs_backup(fx->root_fd, "a.txt", temp, sizeof temp, &err), EDDI_EIO);
  assert_int_equal(eddi_fs_rename(fx->root_fd, "a.txt", "c.txt", &err), EDDI_EIO);
  eddi_fs_remove(fx->root_fd, "a.txt");

  char *text = fixture_text(fx, "a.txt");
  assert_string_equal(text, "old\n");
  free(text);
  struct stat st;
  char path[PATH_MAX];
  unit_path(path, fx->root, "sub");
  assert_int_equal(stat(path, &st), -1); /* not even its folder */
  unit_path(path, fx->root, "c.txt");
  assert_int_equal(stat(path, &st), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_every_allocation_goes_through_the_allocator,
                                      fixture_setup, fixture_teardown),
      cmocka_unit_test(test_default_handler_aborts),
      /* From here on an allocation has failed in this process. */
      cmocka_unit_test_setup_teardown(test_engine_failure_jumps_to_the_handler, fixture_setup,
                                      fixture_teardown),
      cmocka_unit_test(test_each_allocator_function_reaches_the_handler),
      cmocka_unit_test_setup_teardown(test_no_file_is_written_after_a_failure, fixture_setup,
                                      fixture_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
