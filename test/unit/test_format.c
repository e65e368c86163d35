/* test_format.c - Format runs a real process: a formatter that works, one
 * that fails, one that hangs, one that writes without end, one that leaves
 * a helper behind.
 *
 * The formatter of Python files is "black -q -" (language.conf); each test
 * writes a shell script named black into a folder put first on PATH, so the
 * engine runs it as it would run black. Only eddi.h's API is used. */
#include "unit_support.h"

#include <time.h>

#include "eddi.h"

typedef struct {
  char root[PATH_MAX];  /* the workspace: a.py */
  char state[PATH_MAX]; /* the engine's state folder (made by the engine) */
  char bin[PATH_MAX];   /* where the fake black lives, first on PATH */
  char scratch[PATH_MAX];
  char *old_path;
} Fixture;

static const char format__source[] = "def f():\n    pass\n";

static int fixture_setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  unit_workspace_new(fx->root);
  unit_workspace_new(fx->scratch);
  unit_path(fx->state, fx->scratch, "state");
  unit_path(fx->bin, fx->scratch, "bin");
  assert_int_equal(mkdir(fx->bin, 0700), 0);
  char path[PATH_MAX];
  unit_path(path, fx->root, "a.py");
  unit_write_file(path, format__source, strlen(format__source));
  const char *old = getenv("PATH");
  fx->old_path = strdup(old ? old : "/usr/bin:/bin");
  char *search = malloc(strlen(fx->bin) + strlen(fx->old_path) + 2);
  sprintf(search, "%s:%s", fx->bin, fx->old_path);
  setenv("PATH", search, 1);
  free(search);
  *state = fx;
  return 0;
}

static int fixture_teardown(void **state) {
  Fixture *fx = *state;
  setenv("PATH", fx->old_path, 1);
  free(fx->old_path);
  unit_remove_tree(fx->root);
  unit_remove_tree(fx->scratch);
  free(fx);
  return 0;
}

/* The fake formatter: a shell script whose body is given. */
static void formatter_is(const Fixture *fx, const char *body) {
  char path[PATH_MAX], script[1024];
  unit_path(path, fx->bin, "black");
  snprintf(script, sizeof script, "#!/bin/sh\n%s\n", body);
  unlink(path);
  unit_write_file(path, script, strlen(script));
  assert_int_equal(chmod(path, 0700), 0);
}

static EddiEngine *engine_open(const Fixture *fx, unsigned timeout_ms) {
  EddiConfig config;
  eddi_config_default(&config);
  assert_int_equal(config.format_timeout_ms, 10000);
  config.state_dir = fx->state;
  if (timeout_ms) config.format_timeout_ms = timeout_ms;
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(fx->root, &config, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  char *reply = eddi_exec(engine, "cli", "Start s\nOpen a.py", 17);
  assert_string_equal(reply, "Ok\nOk, At 0:0, Length 2");
  eddi_string_free(reply);
  return engine;
}

/* message gets exactly expected. */
static void exchange(EddiEngine *engine, const char *message, const char *expected) {
  char *reply = eddi_exec(engine, "cli", message, strlen(message));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

static long long now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* The document still holds the source and the file on disk is untouched. */
static void nothing_changed(const Fixture *fx, EddiEngine *engine) {
  exchange(engine, "Read", "Ok: [a.py#E191]\\n1:def f():\\n2:    pass");
  exchange(engine, "Undo", "Fail \"Nothing to undo\", a.py has no edit left to undo");
  char path[PATH_MAX];
  unit_path(path, fx->root, "a.py");
  size_t len;
  char *disk = unit_read_file(path, &len);
  assert_string_equal(disk, format__source);
  free(disk);
}

/* The state folder's format/ folder exists and holds nothing. */
static void temp_folder_empty(const Fixture *fx) {
  char folder[PATH_MAX];
  unit_path(folder, fx->state, "format");
  DIR *dir = opendir(folder);
  assert_non_null(dir);
  size_t entries = 0;
  for (struct dirent *entry; (entry = readdir(dir));)
    entries += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
  closedir(dir);
  assert_int_equal(entries, 0);
}

/* ---------------------------------------------------------------- tests */

static void test_format_formats_as_one_undo_step(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  formatter_is(fx, "tr a-z A-Z");
  EddiEngine *engine = engine_open(fx, 0);
  exchange(engine, "Format", "Ok, Formatted, Lines 2, At 0:0");
  exchange(engine, "Read", "Ok: [a.py#99AA]\\n1:DEF F():\\n2:    PASS");
  exchange(engine, "Format", "Ok, Already formatted, At 0:0");
  exchange(engine, "Undo", "Ok, Undid 1 step, At 0:0");
  exchange(engine, "Read", "Ok: [a.py#E191]\\n1:def f():\\n2:    pass");
  exchange(engine, "Undo", "Fail \"Nothing to undo\", a.py has no edit left to undo");
  temp_folder_empty(fx);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_format_input_is_under_the_state_folder(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  /* The script says where its stdin was: a file under <state>/format/. */
  char body[PATH_MAX * 2];
  snprintf(body, sizeof body, "readlink /proc/self/fd/0 > '%s/stdin'\ncat", fx->scratch);
  formatter_is(fx, body);
  EddiEngine *engine = engine_open(fx, 0);
  exchange(engine, "Format", "Ok, Already formatted, At 0:0");
  char path[PATH_MAX], prefix[PATH_MAX];
  unit_path(path, fx->scratch, "stdin");
  size_t len;
  char *seen = unit_read_file(path, &len);
  assert_non_null(seen);
  unit_path(prefix, fx->state, "format/input-");
  assert_memory_equal(seen, prefix, strlen(prefix));
  free(seen);
  temp_folder_empty(fx);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_format_failure_changes_nothing(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  formatter_is(fx, "echo\necho 'error: cannot format -: Cannot parse: 1:6' >&2\nexit 1");
  EddiEngine *engine = engine_open(fx, 0);
  exchange(engine, "Format",
           "Fail \"The formatter failed on a.py: error: cannot format -: Cannot parse: 1:6\", "
           "Validate shows syntax errors");
  nothing_changed(fx, engine);
  /* Silent failure: today's reply. */
  formatter_is(fx, "exit 1");
  exchange(engine, "Format", "Fail \"The formatter failed on a.py\", Validate shows syntax errors");
  nothing_changed(fx, engine);
  temp_folder_empty(fx);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_format_that_hangs_is_stopped(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  /* A child of the script holds the pipes too: the whole group must go. */
  formatter_is(fx, "sleep 30 &\nsleep 30");
  EddiEngine *engine = engine_open(fx, 300);
  long long start = now_ms();
  exchange(engine, "Format", "Fail \"Formatter black took longer than 0.3 s; nothing changed\"");
  long long took = now_ms() - start;
  print_message("a formatter that hangs was stopped after %lld ms (limit 300)\n", took);
  assert_true(took >= 300);
  assert_true(took < 2000);
  nothing_changed(fx, engine);
  temp_folder_empty(fx);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_format_helper_left_behind_is_not_waited_for(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  /* The formatter exits at once, a helper it started keeps its stdout. */
  formatter_is(fx, "sleep 30 &\ntr a-z A-Z");
  EddiEngine *engine = engine_open(fx, 5000);
  long long start = now_ms();
  exchange(engine, "Format", "Ok, Formatted, Lines 2, At 0:0");
  assert_true(now_ms() - start < 2000);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_format_output_over_the_limit(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  formatter_is(fx, "head -c 17000000 /dev/zero | tr '\\0' a");
  EddiEngine *engine = engine_open(fx, 0);
  exchange(engine, "Format", "Fail \"Formatter black wrote more than 16 MiB; nothing changed\"");
  nothing_changed(fx, engine);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_format_without_formatter(void **state) {
  Fixture *fx = *state;
  long live = unit_live();
  char path[PATH_MAX];
  unit_path(path, fx->bin, "black");
  unlink(path);
  setenv("PATH", fx->bin, 1); /* nowhere else to find a black */
  EddiEngine *engine = engine_open(fx, 0);
  exchange(engine, "Format",
           "Fail \"No formatter for python\", Install black: Format runs \"black -q -\"");
  char folder[PATH_MAX];
  unit_path(folder, fx->state, "format");
  struct stat st;
  assert_int_equal(stat(folder, &st), -1); /* nothing was started */
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_format_formats_as_one_undo_step, fixture_setup,
                                      fixture_teardown),
      cmocka_unit_test_setup_teardown(test_format_input_is_under_the_state_folder,
                                      fixture_setup, fixture_teardown),
      cmocka_unit_test_setup_teardown(test_format_failure_changes_nothing, fixture_setup,
                                      fixture_teardown),
      cmocka_unit_test_setup_teardown(test_format_that_hangs_is_stopped, fixture_setup,
                                      fixture_teardown),
      cmocka_unit_test_setup_teardown(test_format_helper_left_behind_is_not_waited_for,
                                      fixture_setup, fixture_teardown),
      cmocka_unit_test_setup_teardown(test_format_output_over_the_limit, fixture_setup,
                                      fixture_teardown),
      cmocka_unit_test_setup_teardown(test_format_without_formatter, fixture_setup,
                                      fixture_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
