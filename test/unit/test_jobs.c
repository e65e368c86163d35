/* test_jobs.c - long work off the owner thread (session/job.c).
 *
 * The engine gets two commands of the test's own: Slow <n>, whose work
 * waits at a gate the test opens and whose reply is "Ok, Slow <2n>", and
 * SlowFail <n>, whose finish fails. A waker counts its calls, so a test
 * knows when the work is done without sleeping on a guess. The work also
 * ends when its request is cancelled (eddi_engine_cancel), as long work
 * does. */
#include "unit_support.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "eddi.h"
#include "services/commands.h"
#include "session/job.h"

/* How long a test waits for a worker before it fails. */
#define JOBS_WAIT_MS 5000
/* How long a helper thread waits before it opens the gate, so that the
 * owner thread is blocked in the engine by then (the result does not depend
 * on it, only on the gate). */
#define JOBS_GATE_DELAY_MS 20

/* How often the work looks whether it was told to stop. */
#define JOBS_STOP_POLL_MS 5

/* ---------------------------------------------------------------- the gate */

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t changed;
  bool open;
  int wakes; /* waker calls so far */
  int works; /* works begun so far */
} Gate;

static Gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0, 0};

static void gate_reset(bool open) {
  pthread_mutex_lock(&gate.mutex);
  gate.open = open;
  gate.wakes = 0;
  gate.works = 0;
  pthread_mutex_unlock(&gate.mutex);
}

static void gate_open(void) {
  pthread_mutex_lock(&gate.mutex);
  gate.open = true;
  pthread_cond_broadcast(&gate.changed);
  pthread_mutex_unlock(&gate.mutex);
}

static void *gate_open_later(void *unused) {
  struct timespec delay = {0, JOBS_GATE_DELAY_MS * 1000000L};
  nanosleep(&delay, NULL);
  gate_open();
  return NULL;
}

/* The waker: called from a worker thread. */
static void gate_wake(void *closure) {
  EDDI_UNUSED(closure);
  pthread_mutex_lock(&gate.mutex);
  gate.wakes++;
  pthread_cond_broadcast(&gate.changed);
  pthread_mutex_unlock(&gate.mutex);
}

/* Wait until the waker was called count times in all. */
static void gate_wait_wakes(int count) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += JOBS_WAIT_MS / 1000;
  pthread_mutex_lock(&gate.mutex);
  int rc = 0;
  while (gate.wakes < count && rc != ETIMEDOUT)
    rc = pthread_cond_timedwait(&gate.changed, &gate.mutex, &deadline);
  int wakes = gate.wakes;
  pthread_mutex_unlock(&gate.mutex);
  assert_int_equal(wakes, count);
}

/* ---------------------------------------------------------------- the commands */

typedef struct {
  EddiJob base;
  int number;
  int result;
  bool fail;
} SlowJob;

static void slow_work(EddiJob *base) {
  SlowJob *job = (SlowJob *)base;
  eddi_work_done("steps", (size_t)job->number); /* what eddi_engine_progress reports */
  pthread_mutex_lock(&gate.mutex);
  gate.works++;
  while (!gate.open && !eddi_work_stopping()) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += JOBS_STOP_POLL_MS * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&gate.changed, &gate.mutex, &until);
  }
  pthread_mutex_unlock(&gate.mutex);
  job->result = job->number * 2;
}

static int slow_finish(EddiJob *base, CommandContext *ctx) {
  SlowJob *job = (SlowJob *)base;
  assert_null(ctx->args);
  if (job->fail) return eddi_error_set(ctx->err, EDDI_EINVAL, "Slow %d failed", job->number);
  eddi_reply_builder_fact(ctx->reply, "Slow %d", job->result);
  return 0;
}

static void slow_destroy(EddiJob *base) { eddi_free(base); }

static int slow_start(CommandContext *ctx, bool fail) {
  if (ctx->argc != 1 || ctx->args[0].kind != TOKEN_INT)
    return eddi_command_usage(ctx, "Slow needs a number");
  SlowJob *job = eddi_calloc(1, sizeof *job);
  job->base = (EddiJob){slow_work, slow_finish, slow_destroy};
  job->number = atoi(ctx->args[0].text);
  job->fail = fail;
  return eddi_job_start(ctx, &job->base);
}

static int run_slow(CommandContext *ctx) { return slow_start(ctx, false); }
static int run_slow_fail(CommandContext *ctx) { return slow_start(ctx, true); }

static const CommandSpec slow_commands[] = {
    {"Slow", "Slow <n>", "work that waits for the test", CMD_SESSION, run_slow},
    {"SlowFail", "SlowFail <n>", "work whose finish fails", CMD_SESSION, run_slow_fail},
};

/* ---------------------------------------------------------------- fixture */

/* The workspace every test's engine serves (nothing in it is read). */
static char jobs_root[PATH_MAX];

static int jobs_setup(void **state) {
  unit_workspace_new(jobs_root);
  return 0;
}

static int jobs_teardown(void **state) {
  unit_remove_tree(jobs_root);
  return 0;
}

/* An engine that knows Slow and SlowFail; with waker, long work answers
 * later. */
static EddiEngine *jobs_engine(bool waker) {
  char error[EDDI_ERROR_MAX] = "";
  EddiEngine *engine = eddi_engine_new(jobs_root, NULL, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  eddi_engine_set_extra_commands(engine, slow_commands,
                                 sizeof slow_commands / sizeof slow_commands[0]);
  if (waker) eddi_engine_set_waker(engine, gate_wake, NULL);
  return engine;
}

/* A reply's items joined by '\n' (a new string, free). */
static char *reply_text(const EddiReply *reply) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (size_t i = 0; i < reply->count; i++) {
    if (i) eddi_strbuf_putc(&out, '\n');
    eddi_strbuf_puts(&out, reply->items[i].text);
  }
  char *copy = strdup(out.data);
  eddi_strbuf_free(&out);
  return copy;
}

/* Send a request; returns its reply text, or NULL when it is pending. */
static char *request(EddiEngine *engine, const char *sender, const char *session,
                     const char *text, uint64_t ticket) {
  EddiRequest req = {.sender = sender, .session = session, .text = text, .len = strlen(text),
                     .name_instance = true, .ticket = ticket};
  EddiReply reply;
  eddi_request_exec(engine, &req, &reply);
  char *joined = reply.pending ? NULL : reply_text(&reply);
  if (reply.pending) assert_int_equal(reply.count, 0);
  eddi_reply_free(&reply);
  return joined;
}

static void assert_answered(char *reply, const char *expected) {
  assert_non_null(reply);
  assert_string_equal(reply, expected);
  free(reply);
}

/* What eddi_engine_take_finished visited, in order. */
#define JOBS_FINISHED_MAX 8
typedef struct {
  size_t count;
  uint64_t tickets[JOBS_FINISHED_MAX];
  char *texts[JOBS_FINISHED_MAX];
} Finished;

static void finished_visit(void *closure, uint64_t ticket, const EddiReply *reply) {
  Finished *finished = closure;
  assert_true(finished->count < JOBS_FINISHED_MAX);
  assert_false(reply->pending);
  finished->tickets[finished->count] = ticket;
  finished->texts[finished->count] = reply_text(reply);
  finished->count++;
}

static void finished_take(EddiEngine *engine, Finished *finished) {
  memset(finished, 0, sizeof *finished);
  eddi_engine_take_finished(engine, finished_visit, finished);
}

static void finished_free(Finished *finished) {
  for (size_t i = 0; i < finished->count; i++) free(finished->texts[i]);
  memset(finished, 0, sizeof *finished);
}

#define HELP_HELP "Ok: Help [<command>] - commands, or one command's syntax"

/* ---------------------------------------------------------------- tests */

static void test_job_without_waker_runs_at_once(void **state) {
  long live = unit_live();
  gate_reset(true);
  EddiEngine *engine = jobs_engine(false);
  assert_answered(request(engine, "a", NULL, "Start a\nSlow 3\nHelp Help", 1),
                  "Ok\nOk, Slow 6\n" HELP_HELP);
  char *reply = eddi_exec(engine, "a", "Slow 4", 6);
  assert_string_equal(reply, "Ok, Slow 8");
  eddi_string_free(reply);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 0);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_other_sender_answered_meanwhile(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  /* A's message waits for its work, replies before it included. */
  assert_null(request(engine, "a", NULL, "Start a\nSlow 2\nHelp Help", 1));
  /* B is not held up by it. */
  assert_answered(request(engine, "b", NULL, "Start b\nHelp Help", 2), "Ok\n" HELP_HELP);
  /* A's next message waits behind A's work. */
  assert_null(request(engine, "a", NULL, "Help Help", 3));
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 0);

  gate_open();
  gate_wait_wakes(1);
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 2);
  assert_int_equal(finished.tickets[0], 1);
  assert_string_equal(finished.texts[0], "Ok\nOk, Slow 4\n" HELP_HELP);
  assert_int_equal(finished.tickets[1], 3);
  assert_string_equal(finished.texts[1], HELP_HELP);
  finished_free(&finished);
  /* A is free again: it runs at once. */
  assert_answered(request(engine, "a", NULL, "Help Help", 4), HELP_HELP);
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 0);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_failed_finish_skips_the_rest(void **state) {
  long live = unit_live();
  gate_reset(true);
  EddiEngine *engine = jobs_engine(true);
  assert_answered(request(engine, "a", NULL, "Start a", 1), "Ok");
  assert_null(request(engine, "a", NULL, "SlowFail 1\nHelp Help", 2));
  gate_wait_wakes(1);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 1);
  assert_int_equal(finished.tickets[0], 2);
  assert_string_equal(finished.texts[0],
                      "Fail \"Slow 1 failed\"\nFail \"Skipped: an earlier command failed\"");
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_rest_of_message_goes_pending_again(void **state) {
  long live = unit_live();
  gate_reset(true);
  EddiEngine *engine = jobs_engine(true);
  assert_null(request(engine, "a", NULL, "Start a\nSlow 1\nSlow 2\nHelp Help", 7));
  gate_wait_wakes(1);
  /* The first work's finish starts the second; the message is complete
   * only after the second's finish, whichever take sees it done. */
  Finished finished;
  finished_take(engine, &finished);
  if (finished.count == 0) {
    gate_wait_wakes(2);
    finished_take(engine, &finished);
  }
  assert_int_equal(finished.count, 1);
  assert_int_equal(finished.tickets[0], 7);
  assert_string_equal(finished.texts[0], "Ok\nOk, Slow 2\nOk, Slow 4\n" HELP_HELP);
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_start_reply_names_instance_when_complete(void **state) {
  long live = unit_live();
  gate_reset(true);
  EddiEngine *engine = jobs_engine(true);
  assert_int_equal(eddi_engine_set_instance(engine, "i1"), 0);
  assert_null(request(engine, "a", NULL, "Start a\nSlow 1", 1));
  /* The session is held at once; its start is told with the reply. */
  assert_string_equal(eddi_engine_session_of(engine, "a"), "a");
  gate_wait_wakes(1);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 1);
  assert_string_equal(finished.texts[0], "Ok, Instance i1\nOk, Slow 2");
  assert_int_equal(eddi_engine_session_count(engine), 1);
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_session_ends_behind_its_work(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  assert_answered(request(engine, "a", NULL, "Start a", 1), "Ok");
  assert_null(request(engine, "a", NULL, "Slow 1", 2));
  /* The End waits behind the work, and so does what comes after it. */
  assert_null(request(engine, "a", NULL, "End", 3));
  assert_null(request(engine, "a", NULL, "Slow 5", 4));
  assert_string_equal(eddi_engine_session_of(engine, "a"), "a");
  gate_open();
  gate_wait_wakes(1);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 3);
  assert_int_equal(finished.tickets[0], 2);
  assert_string_equal(finished.texts[0], "Ok, Slow 2");
  assert_int_equal(finished.tickets[1], 3);
  assert_int_equal(strncmp(finished.texts[1], "Ok", 2), 0);
  assert_int_equal(finished.tickets[2], 4);
  assert_int_equal(strncmp(finished.texts[2], "Fail \"No session exists", 23), 0);
  assert_null(eddi_engine_session_of(engine, "a"));
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_session_request_waits_for_its_sender(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  assert_answered(request(engine, "a", NULL, "Start s", 1), "Ok");
  assert_null(request(engine, "a", NULL, "Slow 1", 2));
  /* a's request naming its session waits too. */
  assert_null(request(engine, "a", "s", "Help Help", 3));
  /* Another sender's for a's session, or one naming only the session, is
   * refused at once. */
  assert_answered(request(engine, "b", "s", "Help Help", 4),
                  "Fail \"Session s belongs to another sender\"");
  assert_answered(request(engine, NULL, "s", "Help Help", 5),
                  "Fail \"Session s belongs to another sender\"");
  gate_open();
  gate_wait_wakes(1);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 2);
  assert_int_equal(finished.tickets[0], 2);
  assert_string_equal(finished.texts[0], "Ok, Slow 2");
  assert_int_equal(finished.tickets[1], 3);
  assert_string_equal(finished.texts[1], HELP_HELP);
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_exec_reply_waits_for_the_sender(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  assert_null(request(engine, "a", NULL, "Start a\nSlow 3", 1));
  pthread_t opener;
  assert_int_equal(pthread_create(&opener, NULL, gate_open_later, NULL), 0);
  /* Never pending: it runs after a's work, blocking until then. */
  char *reply = eddi_exec(engine, "a", "Slow 4", 6);
  assert_string_equal(reply, "Ok, Slow 8");
  eddi_string_free(reply);
  pthread_join(opener, NULL);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 1);
  assert_int_equal(finished.tickets[0], 1);
  assert_string_equal(finished.texts[0], "Ok\nOk, Slow 6");
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_job_engine_freed_while_work_runs(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  assert_null(request(engine, "a", NULL, "Start a\nSlow 1\nHelp Help", 1));
  assert_null(request(engine, "a", NULL, "Help Help", 2));
  pthread_t opener;
  assert_int_equal(pthread_create(&opener, NULL, gate_open_later, NULL), 0);
  /* Waits for the work, drops it and what waits behind it. */
  eddi_engine_free(engine);
  pthread_join(opener, NULL);
  gate_wait_wakes(1);
  unit_assert_no_leak(live);
}

#define CANCELLED_FAIL \
  "Fail \"Cancelled: the client cancelled this request; nothing was written\""

/* A cancelled request's work stops without its gate opening, its finish is
 * skipped (its result dropped) and the rest of its message with it; a
 * ticket with no work running is ENOENT. */
static void test_job_cancel_stops_the_work_and_drops_it(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  assert_null(request(engine, "a", NULL, "Start a\nSlow 2\nHelp Help", 7));
  assert_int_equal(eddi_engine_cancel(engine, 99), EDDI_ENOENT);
  assert_int_equal(eddi_engine_cancel(engine, 7), EDDI_OK);
  gate_wait_wakes(1); /* the gate is still closed: the cancel ended it */
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 1);
  assert_int_equal(finished.tickets[0], 7);
  assert_string_equal(finished.texts[0],
                      "Ok\n" CANCELLED_FAIL "\nFail \"Skipped: an earlier command failed\"");
  finished_free(&finished);
  /* The sender is free again. */
  assert_answered(request(engine, "a", NULL, "Help Help", 8), HELP_HELP);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* A request cancelled before its long command starts: the work never
 * runs. Without a waker too (a typed call waits for its work). */
static void test_job_cancelled_before_it_starts_never_works(void **state) {
  long live = unit_live();
  gate_reset(true);
  EddiEngine *engine = jobs_engine(true);
  assert_answered(request(engine, "a", NULL, "Start a", 1), "Ok");
  assert_int_equal(eddi_engine_cancel(engine, 2), EDDI_ENOENT); /* kept for when it starts */
  assert_null(request(engine, "a", NULL, "Help Help\nSlow 3", 2));
  gate_wait_wakes(1);
  Finished finished;
  finished_take(engine, &finished);
  assert_int_equal(finished.count, 1);
  assert_string_equal(finished.texts[0], HELP_HELP "\n" CANCELLED_FAIL);
  finished_free(&finished);
  pthread_mutex_lock(&gate.mutex);
  int works = gate.works;
  pthread_mutex_unlock(&gate.mutex);
  assert_int_equal(works, 0);
  /* Another ticket runs as always. */
  assert_null(request(engine, "a", NULL, "Slow 3", 3));
  gate_wait_wakes(2);
  finished_take(engine, &finished);
  assert_string_equal(finished.texts[0], "Ok, Slow 6");
  finished_free(&finished);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* While work runs, its request's ticket reads how far it has come. */
static void test_job_progress_by_ticket(void **state) {
  long live = unit_live();
  gate_reset(false);
  EddiEngine *engine = jobs_engine(true);
  assert_null(request(engine, "a", NULL, "Start a\nSlow 5", 4));
  size_t done = 0;
  const char *unit = NULL;
  /* The worker counts as it begins: wait for it, within the test's limit. */
  for (int waited = 0; waited < JOBS_WAIT_MS && (!unit || done != 5); waited += JOBS_STOP_POLL_MS) {
    assert_int_equal(eddi_engine_progress(engine, 4, &done, &unit), EDDI_OK);
    struct timespec poll = {0, JOBS_STOP_POLL_MS * 1000000L};
    nanosleep(&poll, NULL);
  }
  assert_int_equal(done, 5);
  assert_string_equal(unit, "steps");
  assert_int_equal(eddi_engine_progress(engine, 5, &done, &unit), EDDI_ENOENT);
  gate_open();
  gate_wait_wakes(1);
  Finished finished;
  finished_take(engine, &finished);
  assert_string_equal(finished.texts[0], "Ok\nOk, Slow 10");
  finished_free(&finished);
  /* Done: no work of that ticket runs. */
  assert_int_equal(eddi_engine_progress(engine, 4, &done, &unit), EDDI_ENOENT);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_job_without_waker_runs_at_once),
      cmocka_unit_test(test_job_other_sender_answered_meanwhile),
      cmocka_unit_test(test_job_failed_finish_skips_the_rest),
      cmocka_unit_test(test_job_rest_of_message_goes_pending_again),
      cmocka_unit_test(test_job_start_reply_names_instance_when_complete),
      cmocka_unit_test(test_job_session_ends_behind_its_work),
      cmocka_unit_test(test_job_session_request_waits_for_its_sender),
      cmocka_unit_test(test_job_exec_reply_waits_for_the_sender),
      cmocka_unit_test(test_job_engine_freed_while_work_runs),
      cmocka_unit_test(test_job_cancel_stops_the_work_and_drops_it),
      cmocka_unit_test(test_job_cancelled_before_it_starts_never_works),
      cmocka_unit_test(test_job_progress_by_ticket),
  };
  return cmocka_run_group_tests(tests, jobs_setup, jobs_teardown);
}
