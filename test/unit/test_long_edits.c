/* test_long_edits.c - Replace All on a large file as long work
 * (services/search_commands.c, core/document.c's eddi_doc_commit_built).
 *
 * - Without a waker (the CLI) it runs at once: the bytes, the reply, the
 *   cursor, and Undo / Redo back to the exact bytes each way.
 * - With a waker (eddi-server) the sender's Replace All goes pending and
 *   another sender is answered meanwhile; the finish replies as the command
 *   would have, and a pattern that matches nothing fails the same way. */
#include "unit_support.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "eddi.h"

/* Lines of the big file: past the size at which Replace All is long work
 * (1 MiB), and every line matches. */
#define LONG_LINES 70000
#define LONG_WAIT_MS 10000

static char *big_text(size_t *len) {
  StrBuf out = {0};
  for (int i = 0; i < LONG_LINES; i++) eddi_strbuf_printf(&out, "fox %d jumps é\n", i);
  *len = out.len;
  return out.data;
}

/* text with every "fox N" made "cat N!" (what the Replace below does). */
static char *replaced_text(const char *text) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (const char *p = text; *p;) {
    const char *fox = strstr(p, "fox ");
    if (!fox) {
      eddi_strbuf_puts(&out, p);
      break;
    }
    eddi_strbuf_append(&out, p, (size_t)(fox - p));
    const char *digits = fox + 4, *end = digits;
    while (*end >= '0' && *end <= '9') end++;
    eddi_strbuf_puts(&out, "cat ");
    eddi_strbuf_append(&out, digits, (size_t)(end - digits));
    eddi_strbuf_puts(&out, "!");
    p = end;
  }
  return out.data;
}

static EddiEngine *engine_over(const char *root) {
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  return engine;
}

static void exchange(EddiEngine *engine, const char *sender, const char *message,
                     const char *expected) {
  char *reply = eddi_exec(engine, sender, message, strlen(message));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

/* The open document's text, as Show would give it: through Save to disk. */
static char *saved_text(EddiEngine *engine, const char *root, const char *sender) {
  char *reply = eddi_exec(engine, sender, "Save", 4);
  eddi_string_free(reply);
  char path[PATH_MAX];
  unit_path(path, root, "big.txt");
  size_t len;
  return unit_read_file(path, &len);
}

static void test_replace_all_at_once_and_undo(void **state) {
  const char *root = *state;
  size_t len;
  char *text = big_text(&len);
  char *expected = replaced_text(text);
  char path[PATH_MAX];
  unit_path(path, root, "big.txt");
  unit_write_file(path, text, len);
  long live = unit_live();
  EddiEngine *engine = engine_over(root);
  exchange(engine, "a", "Start a", "Ok");
  exchange(engine, "a", "Open big.txt", "Ok, At 0:0, Length 70000");
  exchange(engine, "a", "Goto 20000:0", "Ok, At 20000:0");
  exchange(engine, "a", "Replace /fox (\\d+)/ \"cat $1!\" All", "Ok, Replaced 70000 occurrences");
  /* The cursor moved with the text before it: still at the start of its line. */
  exchange(engine, "a", "Status", "Ok: Session a, File big.txt, At 20000:0, Length 70000, Modified");
  char *now = saved_text(engine, root, "a");
  assert_string_equal(now, expected);
  free(now);
  exchange(engine, "a", "Undo", "Ok, Undid 1 step, At 20000:0");
  now = saved_text(engine, root, "a");
  assert_string_equal(now, text);
  free(now);
  exchange(engine, "a", "Redo", "Ok, Redid 1 step, At 20000:0");
  now = saved_text(engine, root, "a");
  assert_string_equal(now, expected);
  free(now);
  exchange(engine, "a", "Replace \"nowhere\" \"x\" All", "Fail \"Pattern not found: nowhere\"");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  free(text);
  free(expected);
}

/* ---------------------------------------------------------------- with a waker */

static pthread_mutex_t wake_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_changed = PTHREAD_COND_INITIALIZER;
static int wakes;

static void wake(void *closure) {
  EDDI_UNUSED(closure);
  pthread_mutex_lock(&wake_mutex);
  wakes++;
  pthread_cond_broadcast(&wake_changed);
  pthread_mutex_unlock(&wake_mutex);
}

static void wait_wakes(int count) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += LONG_WAIT_MS / 1000;
  pthread_mutex_lock(&wake_mutex);
  int rc = 0;
  while (wakes < count && rc != ETIMEDOUT)
    rc = pthread_cond_timedwait(&wake_changed, &wake_mutex, &deadline);
  int seen = wakes;
  pthread_mutex_unlock(&wake_mutex);
  assert_int_equal(seen, count);
}

/* A request's reply joined by '\n', or NULL when it is pending. */
static char *request(EddiEngine *engine, const char *sender, const char *text) {
  EddiRequest req = {.sender = sender, .text = text, .len = strlen(text), .ticket = 1};
  EddiReply reply;
  eddi_request_exec(engine, &req, &reply);
  char *joined = NULL;
  if (!reply.pending) {
    StrBuf out = {0};
    eddi_strbuf_puts(&out, "");
    for (size_t i = 0; i < reply.count; i++)
      eddi_strbuf_printf(&out, "%s%s", i ? "\n" : "", reply.items[i].text);
    joined = strdup(out.data);
    eddi_strbuf_free(&out);
  }
  eddi_reply_free(&reply);
  return joined;
}

typedef struct {
  int count;
  char *text;
} Finished;

static void finished_visit(void *closure, uint64_t ticket, const EddiReply *reply) {
  Finished *finished = closure;
  EDDI_UNUSED(ticket);
  finished->count++;
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (size_t i = 0; i < reply->count; i++)
    eddi_strbuf_printf(&out, "%s%s", i ? "\n" : "", reply->items[i].text);
  free(finished->text);
  finished->text = strdup(out.data);
  eddi_strbuf_free(&out);
}

/* After the count-th wake: the one reply finished since, as text. */
static char *take_one(EddiEngine *engine, int count) {
  wait_wakes(count);
  Finished finished = {0};
  eddi_engine_take_finished(engine, finished_visit, &finished);
  assert_int_equal(finished.count, 1);
  return finished.text;
}

static void test_replace_all_leaves_other_senders_answered(void **state) {
  const char *root = *state;
  size_t len;
  char *text = big_text(&len);
  char path[PATH_MAX];
  unit_path(path, root, "big.txt");
  unit_write_file(path, text, len);
  long live = unit_live();
  EddiEngine *engine = engine_over(root);
  eddi_engine_set_waker(engine, wake, NULL);
  wakes = 0;
  char *reply = request(engine, "a", "Start a\nOpen big.txt");
  assert_string_equal(reply, "Ok\nOk, At 0:0, Length 70000");
  free(reply);
  assert_null(request(engine, "a", "Replace /fox (\\d+)/ \"cat $1!\" All\nGoto 1:0"));
  /* Another sender is answered while the work runs (or waits to be taken). */
  reply = request(engine, "b", "Start b\nStatus");
  assert_non_null(reply);
  assert_string_equal(reply, "Ok\nOk: Session b, No file");
  free(reply);
  reply = take_one(engine, 1);
  assert_string_equal(reply, "Ok, Replaced 70000 occurrences\nOk, At 1:0");
  free(reply);
  /* Its Undo is long work too; b is answered meanwhile. */
  assert_null(request(engine, "a", "Undo"));
  reply = request(engine, "b", "Status");
  assert_non_null(reply);
  free(reply);
  reply = take_one(engine, 2);
  assert_string_equal(reply, "Ok, Undid 1 step, At 0:0");
  free(reply);
  assert_null(request(engine, "a", "Redo"));
  reply = take_one(engine, 3);
  assert_string_equal(reply, "Ok, Redid 1 step, At 0:0");
  free(reply);
  /* Nothing matches now: the same Fail as at once. */
  assert_null(request(engine, "a", "Replace /fox (\\d+)/ \"x\" All"));
  reply = take_one(engine, 4);
  assert_string_equal(reply, "Fail \"Pattern not found: /fox (\\\\d+)/\"");
  free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_replace_all_at_once_and_undo, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_replace_all_leaves_other_senders_answered,
                                      unit_folder_setup, unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
