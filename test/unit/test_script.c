/* test_script.c - scripts (module/script/): the parser's trees and error
 * positions, the overlay's offset mapping, budgets, and a script running
 * on a worker while another sender is answered. Transcripts
 * (test/transcripts/script_*.eddi) check the replies of every set,
 * condition and action; these check what a transcript cannot see. */
#include "unit_support.h"

#include <pthread.h>
#include <time.h>

#include "script/script.h"
#include "session/command_table.h"
#include "script/script_run.h"

/* How long a test waits for a worker before it fails. */
#define SCRIPT_WAIT_MS 10000

/* ---------------------------------------------------------------- parser */

static void assert_parse_error(const char *src, const char *message) {
  Script script;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_script_parse(src, strlen(src), eddi_command_table_ports(), &script, &err), EDDI_EINVAL);
  assert_string_equal(err.what, message);
  assert_null(script.root);
}

static void test_parse_tree(void **state) {
  (void)state;
  long live = unit_live();
  const char *src = "{ let $m = method in Cart where complexity > 8 and not unused\n"
                    "  foreach $x in $m { flag \"long: \" + $x.name }\n"
                    "  foreach caller of f() replace with f($1, timeout=30)\n"
                    "  try { rename_class A B } catch { rollback all }\n"
                    "  Goto 3:0\n"
                    "}";
  Script script;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_script_parse(src, strlen(src), eddi_command_table_ports(), &script, &err), 0);
  assert_true(script.braced);
  const ScriptNodes *top = &script.root->children;
  assert_int_equal(top->len, 5);
  const ScriptNode *let = top->items[0];
  assert_int_equal(let->kind, SN_LET);
  assert_string_equal(let->var, "m");
  assert_int_equal(let->query->kind, SQ_METHOD_IN);
  assert_string_equal(let->query->arg, "Cart");
  assert_int_equal(let->query->where->kind, SC_AND);
  assert_int_equal(let->query->where->right->kind, SC_NOT);
  assert_string_equal(let->query->source, "method in Cart where complexity > 8 and not unused");
  const ScriptNode *loop = top->items[1];
  assert_int_equal(loop->kind, SN_FOREACH);
  assert_int_equal(loop->pos.line, 2);
  assert_int_equal(loop->pos.col, 3);
  assert_int_equal(loop->body->children.items[0]->a->kind, SE_CONCAT);
  const ScriptNode *callers = top->items[2];
  assert_int_equal(callers->body->action, SA_REPLACE_WITH);
  assert_string_equal(callers->body->text, "f($1, timeout=30)");
  assert_int_equal(top->items[3]->kind, SN_TRY);
  assert_int_equal(top->items[3]->body->children.items[0]->kind, SN_REFACTOR);
  assert_string_equal(top->items[3]->body->children.items[0]->text, "Rename_Class");
  assert_int_equal(top->items[4]->kind, SN_COMMAND);
  assert_string_equal(top->items[4]->text, "Goto 3:0");
  assert_true(eddi_script_needs_owner(script.root));
  eddi_script_free(&script);
  unit_assert_no_leak(live);
}

static void test_parse_errors_have_positions(void **state) {
  (void)state;
  long live = unit_live();
  assert_parse_error("{\n  let $methods = method in Foo\n  foreach $method $methods { flag \"x\" }\n}",
                     "Script line 3:19: expected 'in' after '$method', found '$methods'");
  assert_parse_error("{ foreach file matching \"*.py\" {\n flag \"x\"",
                     "Script line 2:10: expected '}' to close the '{' at 1:32, found the end of the script");
  assert_parse_error("foreach function where (complexity > 3 flag \"x\"",
                     "Script line 1:40: expected ')' after the condition, found 'flag'");
  assert_parse_error("{ flag \"a\nb\" }", "Script line 1:8: unterminated string");
  /* Deep nesting is refused, not recursed into. */
  char deep[4096] = "";
  for (int i = 0; i < 200; i++) strcat(deep, "{ ");
  Script script;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_script_parse(deep, strlen(deep), eddi_command_table_ports(), &script, &err), EDDI_EINVAL);
  assert_non_null(strstr(err.what, "nested too deeply"));
  unit_assert_no_leak(live);
}

static void test_refactor_operation_names(void **state) {
  (void)state;
  assert_string_equal(eddi_script_refactor_operation("rename_class"), "Rename_Class");
  assert_string_equal(eddi_script_refactor_operation("RenameClass"), "Rename_Class");
  assert_string_equal(eddi_script_refactor_operation("extract_method"), "Extract_Method");
  assert_null(eddi_script_refactor_operation("frobnicate"));
}

/* ---------------------------------------------------------------- the overlay */

static void test_offsets_follow_edits(void **state) {
  (void)state;
  ScriptFile file = {0};
  eddi_strbuf_puts(&file.text, "aaa bbb ccc");
  ScriptFiles files = {0};
  script_file_replace(&files, &file, 4, 7, "BBBBB", 5); /* aaa BBBBB ccc */
  assert_int_equal(script_file_map(&file, 0, 8), 10);    /* c moved by 2 */
  assert_int_equal(script_file_map(&file, 0, 5), 4);     /* inside the edit: its start */
  assert_int_equal(script_file_map(&file, 0, 2), 2);     /* before it: stays */
  script_file_replace(&files, &file, 0, 0, "x", 1);      /* xaaa BBBBB ccc */
  assert_int_equal(script_file_map(&file, 0, 8), 11);
  assert_int_equal(script_file_map(&file, 1, 10), 11);
  assert_string_equal(file.text.data, "xaaa BBBBB ccc");
  eddi_strbuf_free(&file.text);
  array_free(&file.edits);
}

/* ---------------------------------------------------------------- runs */

static char *exec(EddiEngine *engine, const char *sender, const char *text) {
  return eddi_exec(engine, sender, text, strlen(text));
}

static void assert_exec(EddiEngine *engine, const char *text, const char *expected) {
  char *reply = exec(engine, "a", text);
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

static void test_many_sites_in_one_file(void **state) {
  char *root = *state;
  long live = unit_live();
  char path[PATH_MAX];
  unit_path(path, root, "m.py");
  StrBuf src = {0};
  eddi_strbuf_puts(&src, "def f(a):\n    return a\n\n\n");
  for (int i = 0; i < 50; i++) eddi_strbuf_printf(&src, "f(%d); f(f(%d))\n", i, i);
  unit_write_file(path, src.data, src.len);
  char error[EDDI_ERROR_MAX];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  assert_non_null(engine);
  /* Nested calls: the outer one's argument holds the inner one, and both
   * are rewritten in one pass, the inner one's place found after the outer
   * edit. */
  assert_exec(engine, "foreach caller of f() replace with f($1, t=1)",
              "Ok, Script completed: 150 calls updated, 1 file changed");
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_non_null(strstr(now, "f(7, t=1); f(f(7, t=1), t=1)\n"));
  free(now);
  eddi_engine_free(engine);
  eddi_strbuf_free(&src);
  unit_assert_no_leak(live);
}

/* The waker: counts its calls. */
static pthread_mutex_t wake_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_changed = PTHREAD_COND_INITIALIZER;
static int wakes;

static void script_wake(void *closure) {
  EDDI_UNUSED(closure);
  pthread_mutex_lock(&wake_mutex);
  wakes++;
  pthread_cond_broadcast(&wake_changed);
  pthread_mutex_unlock(&wake_mutex);
}

static void finished_visit(void *closure, uint64_t ticket, const EddiReply *reply) {
  char *out = closure;
  assert_int_equal(ticket, 7);
  assert_int_equal(reply->count, 1);
  snprintf(out, 256, "%s", reply->items[0].text);
}

/* An engine with a waker over w.py (def g, a call of it), where sender a's
 * script `foreach caller of g() replace with h()` has gone pending. */
static EddiEngine *worker_engine(const char *root, char path[PATH_MAX], int *wakes_before) {
  unit_path(path, root, "w.py");
  const char *source = "def g():\n    return 1\n\n\ng()\n";
  unit_write_file(path, source, strlen(source));
  char error[EDDI_ERROR_MAX];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  assert_non_null(engine);
  eddi_engine_set_waker(engine, script_wake, NULL);
  pthread_mutex_lock(&wake_mutex);
  *wakes_before = wakes;
  pthread_mutex_unlock(&wake_mutex);
  EddiRequest req = {.sender = "a", .text = "foreach caller of g() replace with h()", .ticket = 7};
  req.len = strlen(req.text);
  EddiReply reply;
  eddi_request_exec(engine, &req, &reply);
  assert_true(reply.pending);
  eddi_reply_free(&reply);
  return engine;
}

/* Wait until the worker called the waker once more than before. */
static void worker_wait(int before) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += SCRIPT_WAIT_MS / 1000;
  pthread_mutex_lock(&wake_mutex);
  while (wakes == before && pthread_cond_timedwait(&wake_changed, &wake_mutex, &deadline) == 0) {}
  int now = wakes;
  pthread_mutex_unlock(&wake_mutex);
  assert_int_equal(now, before + 1);
}

static void test_script_runs_on_a_worker(void **state) {
  char *root = *state;
  long live = unit_live();
  char path[PATH_MAX];
  int before;
  EddiEngine *engine = worker_engine(root, path, &before);
  EddiReply reply;
  /* Another sender is answered while the script runs or waits to finish. */
  EddiRequest other = {.sender = "b", .text = "Help Help", .ticket = 8};
  other.len = strlen(other.text);
  eddi_request_exec(engine, &other, &reply);
  assert_false(reply.pending);
  assert_string_equal(reply.items[0].text, "Ok: Help [<command>] - commands, or one command's syntax");
  eddi_reply_free(&reply);
  worker_wait(before);
  char answer[256] = "";
  eddi_engine_take_finished(engine, finished_visit, answer);
  assert_string_equal(answer,
                      "Ok, Script completed: 1 call updated, 1 file changed, Undefined: w.py:4 h");
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_string_equal(now, "def g():\n    return 1\n\n\nh()\n");
  free(now);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* The worker read the file; it changed before the finish: nothing is
 * written, and the reply names the file. */
static void test_file_changed_while_the_script_ran(void **state) {
  char *root = *state;
  long live = unit_live();
  char path[PATH_MAX];
  int before;
  EddiEngine *engine = worker_engine(root, path, &before);
  worker_wait(before);
  /* The work is done; its finish has not run yet. Someone edits the file. */
  const char *theirs = "def g():\n    return 2\n\n\ng()\n";
  unit_write_file(path, theirs, strlen(theirs));
  char answer[256] = "";
  eddi_engine_take_finished(engine, finished_visit, answer);
  assert_string_equal(answer, "Fail \"Changed while the script ran: w.py; nothing written\", "
                              "Run the script again");
  size_t len;
  char *now = unit_read_file(path, &len);
  assert_string_equal(now, theirs);
  free(now);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* Flags beyond a page are counted in the reply; Flags <offset> lists them. */
static void test_flags_come_a_page_at_a_time(void **state) {
  char *root = *state;
  long live = unit_live();
  char path[PATH_MAX];
  unit_path(path, root, "p.py");
  const char *source = "def a():\n    pass\n\n\ndef b():\n    pass\n\n\ndef c():\n    pass\n";
  unit_write_file(path, source, strlen(source));
  EddiConfig config;
  eddi_config_default(&config);
  config.page_size = 2;
  char error[EDDI_ERROR_MAX];
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  assert_non_null(engine);
  assert_exec(engine, "Start s", "Ok");
  assert_exec(engine, "foreach function flag \"f\"",
              "Ok, Script completed: 3 functions flagged, Flagged: p.py:0:0 a: f; p.py:4:0 b: f; "
              "and 1 more (Flags 2)");
  assert_exec(engine, "Flags 2", "Ok, 3 flags, Flagged: p.py:8:0 c: f");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* The time budget holds inside one statement: a foreach whose set reads and
 * parses every file of the workspace, or whose where visits many elements
 * or reads the names of every file, stops when time is up. It was checked only between statements, and this
 * script ran to its end (seconds on a large workspace) past `limit time 1`. */
#define SLOW_SET_FILES 200
#define SLOW_SET_FUNCTIONS 40

static void test_time_budget_holds_inside_a_statement(void **state) {
  char *root = *state;
  long live = unit_live();
  for (int f = 0; f < SLOW_SET_FILES; f++) {
    char name[32], path[PATH_MAX];
    snprintf(name, sizeof name, "m%d.py", f);
    unit_path(path, root, name);
    StrBuf src = {0};
    for (int i = 0; i < SLOW_SET_FUNCTIONS; i++)
      eddi_strbuf_printf(&src, "def f%d_%d(a):\n    return a + %d\n\n\n", f, i, i);
    unit_write_file(path, src.data, src.len);
    eddi_strbuf_free(&src);
  }
  char error[EDDI_ERROR_MAX];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  assert_non_null(engine);
  assert_exec(engine, "{ limit time 1 foreach function where name contains \"zzz\" flag \"x\" }",
              "Fail \"Script line 1:16: time budget spent (1 ms, script_max_ms); nothing written\"");
  assert_exec(engine, "{ limit time 1 foreach file matching \"*.py\" where text contains \"zzz\" "
                      "flag \"x\" }",
              "Fail \"Script line 1:16: time budget spent (1 ms, script_max_ms); nothing written\"");
  /* One function, but `unused` reads the names of every file: the scan
   * stops when time is up too (it ran to its end, and the script to Ok). */
  char path[PATH_MAX];
  unit_path(path, root, "one.py");
  const char *one = "def one():\n    return 1\n\n\none()\n";
  unit_write_file(path, one, strlen(one));
  char *reply = exec(engine, "a", "{ limit time 20 foreach file matching \"one.py\" { foreach "
                                  "function where unused flag \"x\" } }");
  assert_non_null(strstr(reply, "time budget spent (20 ms, script_max_ms); nothing written"));
  eddi_string_free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_tree),
      cmocka_unit_test(test_parse_errors_have_positions),
      cmocka_unit_test(test_refactor_operation_names),
      cmocka_unit_test(test_offsets_follow_edits),
      cmocka_unit_test_setup_teardown(test_many_sites_in_one_file, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_script_runs_on_a_worker, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_file_changed_while_the_script_ran, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_flags_come_a_page_at_a_time, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_time_budget_holds_inside_a_statement,
                                      unit_folder_setup, unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
