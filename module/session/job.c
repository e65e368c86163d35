/* job.c - long work off the owner thread; see job.h for the three steps.
 *
 * Without a waker a job's work runs on its own thread and the command waits
 * for it, which keeps the owner thread's stack free of the work (a formatter
 * that hangs is stopped by its own time limit, not by this).
 *
 * With a waker, inside eddi_request_exec, the command returns at once and
 * the request is held in its sender's *lane*:
 * - the message: the replies of the commands before the long one, and the
 *   place where it goes on. When the work is done (the worker calls the
 *   waker), eddi_engine_take_finished runs finish on the owner thread, then
 *   the rest of the message (which may go pending again), and only then is
 *   the reply complete: one item per command, as if it had run at once;
 * - the sender's later requests, copied, in order. A sender's requests
 *   change the same session, so none may overtake another; they run when
 *   the message is complete, each as eddi_request_exec would run it then
 *   (routing and policy included), until one goes pending again.
 * Other senders have lanes of their own, or none, and run at once.
 *
 * A lane exists only while its sender has work running, so a session
 * cannot end under its work: the End would wait in the lane. Freeing the
 * engine joins each worker (its work is bounded by its own time limit),
 * then drops the job without finishing it and the requests behind it.
 *
 * The worker touches only its JobRun and the mutex; everything else here
 * belongs to the owner thread.
 */
#include "session/job.h"

#include <pthread.h>

typedef struct EddiJobs EddiJobs;

/* One job's run on its worker thread. */
typedef struct {
  EddiJob *job;
  const CommandSpec *spec;
  EddiJobs *jobs; /* NULL: the command waits for it */
  pthread_t thread;
  bool done; /* under jobs->mutex */
  uint64_t ticket; /* of the request it works for */
  EddiWork work;   /* shared with the worker: stop (a cancel), progress */
} JobRun;

/* Tickets cancelled lately, for work that starts after its cancel (the
 * request was still queued or ran commands before the long one). Older
 * ones are forgotten: a transport cancels a request soon or never. */
#define JOB_CANCELLED_KEPT 64

/* What a cancelled request's long work answers. */
#define JOB_CANCELLED_FAIL "Cancelled: the client cancelled this request; nothing was written"

/* A request kept for later: its own copy of what it borrowed. */
typedef struct {
  char *sender;
  char *session;
  char *text;
  size_t len;
  bool name_instance;
  bool collect_only;
  char *transport; /* kept so that the audit line of a late finish names it */
  uint64_t ticket;
} HeldRequest;

/* A sender with work running: its message and what waits behind it. */
typedef struct {
  char *sender;
  JobRun *run;          /* the work of the message's pending command */
  HeldRequest request;  /* the message */
  char *before;         /* sender's session before it, for eddi_request_finish */
  EddiReply reply;      /* its replies so far */
  size_t rest;          /* where it goes on, in request.text */
  bool failed;          /* a command failed: the rest is skipped */
  Array(HeldRequest) waiting;
} JobLane;

typedef struct {
  uint64_t ticket;
  EddiReply reply;
} FinishedReply;

struct EddiJobs {
  pthread_mutex_t mutex; /* guards wake, closure and each JobRun.done */
  pthread_cond_t done;   /* a run is done */
  EddiWaker wake;
  void *closure;
  bool may_pend;   /* a command may leave its work running now */
  JobRun *started; /* the one the current command left running */
  uint64_t ticket; /* the request the owner thread runs now (0: none) */
  Array(JobRun *) running;  /* under mutex: what eddi_engine_cancel may stop */
  uint64_t cancelled[JOB_CANCELLED_KEPT]; /* under mutex: a ring */
  size_t cancelled_next;
  Array(JobLane *) lanes;
  Array(FinishedReply) finished; /* complete, not yet visited */
};

/* ---------------------------------------------------------------- requests */

static HeldRequest job__hold_request(const EddiRequest *request) {
  return (HeldRequest){
      .sender = request->sender ? eddi_strdup(request->sender) : NULL,
      .session = request->session ? eddi_strdup(request->session) : NULL,
      .text = eddi_strndup(request->text, request->len),
      .len = request->len,
      .name_instance = request->name_instance,
      .collect_only = request->collect_only,
      .transport = request->transport ? eddi_strdup(request->transport) : NULL,
      .ticket = request->ticket,
  };
}

static EddiRequest job__request_of(const HeldRequest *held) {
  return (EddiRequest){.sender = held->sender, .session = held->session, .text = held->text,
                       .len = held->len, .name_instance = held->name_instance,
                       .collect_only = held->collect_only, .transport = held->transport,
                       .ticket = held->ticket};
}

static void job__request_free(HeldRequest *held) {
  eddi_free(held->sender);
  eddi_free(held->session);
  eddi_free(held->text);
  eddi_free(held->transport);
  memset(held, 0, sizeof *held);
}

/* ---------------------------------------------------------------- lanes */

/* The sender a request will run as, as routing decides it: its own, else
 * the anonymous one (naming a session does not make a request its
 * holder's). */
static const char *job__sender_of(const EddiEngine *self, const EddiRequest *request) {
  EDDI_UNUSED(self);
  return request->sender ? request->sender : EDDI_ANONYMOUS_SENDER;
}

static JobLane *job__lane(EddiJobs *jobs, const char *sender) {
  for (size_t i = 0; i < jobs->lanes.len; i++)
    if (strcmp(jobs->lanes.items[i]->sender, sender) == 0) return jobs->lanes.items[i];
  return NULL;
}

/* Forget the lane's message (its reply was moved out or freed). */
static void job__lane_clear_message(JobLane *lane) {
  job__request_free(&lane->request);
  eddi_free(lane->before);
  lane->before = NULL;
  eddi_reply_free(&lane->reply);
  lane->rest = 0;
  lane->failed = false;
}

/* ---------------------------------------------------------------- cancelling */

static bool job__ticket_cancelled(EddiJobs *jobs, uint64_t ticket) {
  for (size_t i = 0; ticket && i < JOB_CANCELLED_KEPT; i++)
    if (jobs->cancelled[i] == ticket) return true;
  return false;
}

/* A run starts: eddi_engine_cancel may stop it from now on, and stops it at
 * once when its request was cancelled before. */
static void job__run_listen(EddiJobs *jobs, JobRun *run) {
  pthread_mutex_lock(&jobs->mutex);
  run->ticket = jobs->ticket;
  if (job__ticket_cancelled(jobs, run->ticket))
    __atomic_store_n(&run->work.stop, true, __ATOMIC_RELEASE);
  array_push(&jobs->running, run);
  pthread_mutex_unlock(&jobs->mutex);
}

static void job__run_unlisten(EddiJobs *jobs, JobRun *run) {
  if (!jobs) return;
  pthread_mutex_lock(&jobs->mutex);
  for (size_t i = 0; i < jobs->running.len; i++)
    if (jobs->running.items[i] == run) {
      array_remove(&jobs->running, i);
      break;
    }
  pthread_mutex_unlock(&jobs->mutex);
}

static bool job__run_stopped(const JobRun *run) {
  return __atomic_load_n(&run->work.stop, __ATOMIC_ACQUIRE);
}

/* Wait for a run's worker and drop the job unfinished. */
static void job__run_drop(EddiJobs *jobs, JobRun *run) {
  if (!run) return;
  job__run_unlisten(jobs, run);
  pthread_join(run->thread, NULL);
  run->job->destroy(run->job);
  eddi_free(run);
}

static void job__lane_free(EddiJobs *jobs, JobLane *lane) {
  for (size_t i = 0; i < jobs->lanes.len; i++) {
    if (jobs->lanes.items[i] != lane) continue;
    array_remove(&jobs->lanes, i);
    break;
  }
  job__run_drop(jobs, lane->run);
  job__lane_clear_message(lane);
  for (size_t i = 0; i < lane->waiting.len; i++) job__request_free(&lane->waiting.items[i]);
  array_free(&lane->waiting);
  eddi_free(lane->sender);
  eddi_free(lane);
}

static bool job__run_done(EddiJobs *jobs, const JobRun *run) {
  pthread_mutex_lock(&jobs->mutex);
  bool done = run->done;
  pthread_mutex_unlock(&jobs->mutex);
  return done;
}

/* A lane whose work is done, or NULL. */
static JobLane *job__done_lane(EddiJobs *jobs) {
  for (size_t i = 0; i < jobs->lanes.len; i++)
    if (jobs->lanes.items[i]->run && job__run_done(jobs, jobs->lanes.items[i]->run))
      return jobs->lanes.items[i];
  return NULL;
}

/* ---------------------------------------------------------------- the worker */

static void *job__thread(void *closure) {
  JobRun *run = closure;
  eddi_work_attach(&run->work);
  if (!job__run_stopped(run)) run->job->work(run->job); /* cancelled before it began */
  eddi_work_attach(NULL);
  EddiJobs *jobs = run->jobs;
  if (!jobs) return NULL;
  pthread_mutex_lock(&jobs->mutex);
  run->done = true;
  EddiWaker wake = jobs->wake;
  void *wake_closure = jobs->closure;
  pthread_cond_broadcast(&jobs->done);
  pthread_mutex_unlock(&jobs->mutex);
  if (wake) wake(wake_closure);
  return NULL;
}

int eddi_engine_start_job(void *engine, CommandContext *ctx, EddiJob *job) {
  EddiJobs *jobs = ((EddiEngine *)engine)->jobs;
  bool later = jobs && jobs->wake && jobs->may_pend && !jobs->started;
  JobRun *run = eddi_calloc(1, sizeof *run);
  run->job = job;
  run->spec = ctx->spec;
  run->jobs = later ? jobs : NULL;
  if (jobs) job__run_listen(jobs, run);
  if (pthread_create(&run->thread, NULL, job__thread, run) != 0) {
    job__run_unlisten(jobs, run);
    eddi_free(run);
    job->destroy(job);
    return eddi_error_set(ctx->err, EDDI_EIO, "Could not start a worker thread");
  }
  if (later) {
    jobs->started = run;
    return EDDI_EPENDING;
  }
  pthread_join(run->thread, NULL);
  job__run_unlisten(jobs, run);
  bool stopped = job__run_stopped(run);
  eddi_free(run);
  if (stopped) {
    /* What the work made is dropped: finish would apply it. */
    job->destroy(job);
    return eddi_error_set(ctx->err, EDDI_ESTATE, JOB_CANCELLED_FAIL);
  }
  /* finish sees what it sees after a wait: no arguments, no body. */
  CommandContext after = *ctx;
  after.args = NULL;
  after.argc = 0;
  after.body = NULL;
  after.body_len = 0;
  int rc = job->finish(job, &after);
  job->destroy(job);
  return rc;
}

/* ---------------------------------------------------------------- the owner's side */

bool eddi_jobs_may_pend(EddiEngine *self, bool may) {
  if (!self->jobs) return false;
  bool before = self->jobs->may_pend;
  self->jobs->may_pend = may;
  return before;
}

/* The run the command that went pending left. */
static JobRun *job__take_started(EddiJobs *jobs) {
  JobRun *run = jobs->started;
  EDDI_ASSERT(run); /* a command returned EDDI_EPENDING without eddi_job_start */
  jobs->started = NULL;
  return run;
}

void eddi_jobs_hold(EddiEngine *self, const char *sender, const char *before,
                    const EddiRequest *request, EddiReply *reply, bool failed, size_t rest) {
  EddiJobs *jobs = self->jobs;
  JobRun *run = job__take_started(jobs);
  JobLane *lane = job__lane(jobs, sender);
  if (!lane) {
    lane = eddi_calloc(1, sizeof *lane);
    lane->sender = eddi_strdup(sender);
    array_push(&jobs->lanes, lane);
  }
  EDDI_ASSERT(!lane->run);
  lane->run = run;
  lane->request = job__hold_request(request);
  lane->before = before ? eddi_strdup(before) : NULL;
  lane->reply = *reply;
  lane->rest = rest;
  lane->failed = failed;
  memset(reply, 0, sizeof *reply);
  reply->pending = true;
}

bool eddi_jobs_queue(EddiEngine *self, const EddiRequest *request, EddiReply *reply) {
  if (!self->jobs) return false;
  JobLane *lane = job__lane(self->jobs, job__sender_of(self, request));
  if (!lane || !lane->run) return false;
  array_push(&lane->waiting, job__hold_request(request));
  memset(reply, 0, sizeof *reply);
  reply->pending = true;
  return true;
}

static void job__finished(EddiJobs *jobs, uint64_t ticket, EddiReply *reply) {
  FinishedReply done = {.ticket = ticket, .reply = *reply};
  array_push(&jobs->finished, done);
  memset(reply, 0, sizeof *reply);
}

/* The lane's work is done: finish it, go on with the message, and when that
 * is complete run what waited behind it, until something goes pending
 * again. The lane is freed when nothing is left. */
static void job__advance(EddiEngine *self, JobLane *lane) {
  EddiJobs *jobs = self->jobs;
  JobRun *run = lane->run;
  lane->run = NULL;
  pthread_join(run->thread, NULL);
  job__run_unlisten(jobs, run);
  char *text = NULL;
  EddiError err;
  eddi_error_clear(&err);
  int rc = job__run_stopped(run)
               ? eddi_error_set(&err, EDDI_ESTATE, JOB_CANCELLED_FAIL)
               : eddi_engine_finish_job(self, lane->sender, run->spec, run->job, &text, &err);
  run->job->destroy(run->job);
  eddi_free(run);
  EddiReply *reply = &lane->reply;
  reply->items = eddi_realloc(reply->items, (reply->count + 1) * sizeof *reply->items);
  reply->items[reply->count].ok = rc == 0;
  reply->items[reply->count].text = rc == 0 ? text : eddi_fail_format(&err);
  reply->count++;
  lane->failed = rc < 0;

  size_t rest = 0;
  bool could = eddi_jobs_may_pend(self, true);
  uint64_t was = eddi_jobs_set_ticket(self, lane->request.ticket);
  bool pending = eddi_engine_run_commands(self, lane->sender, lane->request.text + lane->rest,
                                          lane->request.len - lane->rest, reply, &lane->failed,
                                          &rest);
  eddi_jobs_set_ticket(self, was);
  eddi_jobs_may_pend(self, could);
  if (pending) {
    lane->run = job__take_started(jobs);
    lane->rest += rest;
    return;
  }
  EddiRequest request = job__request_of(&lane->request);
  eddi_request_finish(self, lane->sender, lane->before, &request, reply);
  job__finished(jobs, request.ticket, reply);
  job__lane_clear_message(lane);

  while (lane->waiting.len && !lane->run) {
    HeldRequest next = lane->waiting.items[0];
    array_remove(&lane->waiting, 0);
    EddiRequest again = job__request_of(&next);
    EddiReply answer;
    eddi_request_exec(self, &again, &answer); /* may hold it in this lane again */
    if (!answer.pending) job__finished(jobs, next.ticket, &answer);
    job__request_free(&next);
  }
  if (!lane->run) job__lane_free(jobs, lane);
}

void eddi_jobs_wait(EddiEngine *self, const EddiRequest *request) {
  EddiJobs *jobs = self->jobs;
  if (!jobs || !jobs->lanes.len) return;
  /* A copy: the session that names the sender may end meanwhile. */
  char *sender = eddi_strdup(job__sender_of(self, request));
  for (JobLane *lane; (lane = job__lane(jobs, sender)) && lane->run;) {
    pthread_mutex_lock(&jobs->mutex);
    while (!lane->run->done) pthread_cond_wait(&jobs->done, &jobs->mutex);
    pthread_mutex_unlock(&jobs->mutex);
    job__advance(self, lane);
  }
  eddi_free(sender);
}

/* ---------------------------------------------------------------- public */

void eddi_engine_set_waker(EddiEngine *self, EddiWaker wake, void *closure) {
  if (!self->jobs) {
    if (!wake) return;
    self->jobs = eddi_calloc(1, sizeof *self->jobs);
    pthread_mutex_init(&self->jobs->mutex, NULL);
    pthread_cond_init(&self->jobs->done, NULL);
    /* The engine now lives across requests: Grep keeps its file texts. */
    eddi_workspace_set_keeps_caches(self->workspace, true);
  }
  pthread_mutex_lock(&self->jobs->mutex);
  self->jobs->wake = wake;
  self->jobs->closure = closure;
  pthread_mutex_unlock(&self->jobs->mutex);
}

void eddi_engine_take_finished(EddiEngine *self,
                               void (*visit)(void *closure, uint64_t ticket,
                                             const EddiReply *reply),
                               void *closure) {
  EddiJobs *jobs = self->jobs;
  if (!jobs) return;
  for (JobLane *lane; (lane = job__done_lane(jobs));) job__advance(self, lane);
  /* Taken out first: visit may call the engine. */
  FinishedReply *items = jobs->finished.items;
  size_t count = jobs->finished.len;
  jobs->finished.items = NULL;
  jobs->finished.len = jobs->finished.cap = 0;
  for (size_t i = 0; i < count; i++) {
    visit(closure, items[i].ticket, &items[i].reply);
    eddi_reply_free(&items[i].reply);
  }
  eddi_free(items);
}

uint64_t eddi_jobs_set_ticket(EddiEngine *self, uint64_t ticket) {
  EddiJobs *jobs = self->jobs;
  if (!jobs) return 0;
  pthread_mutex_lock(&jobs->mutex);
  uint64_t before = jobs->ticket;
  jobs->ticket = ticket;
  pthread_mutex_unlock(&jobs->mutex);
  return before;
}

int eddi_engine_cancel(EddiEngine *self, uint64_t ticket) {
  EddiJobs *jobs = self->jobs;
  if (!jobs || !ticket) return EDDI_ENOENT;
  pthread_mutex_lock(&jobs->mutex);
  int rc = EDDI_ENOENT;
  for (size_t i = 0; i < jobs->running.len; i++) {
    if (jobs->running.items[i]->ticket != ticket) continue;
    __atomic_store_n(&jobs->running.items[i]->work.stop, true, __ATOMIC_RELEASE);
    rc = EDDI_OK;
  }
  if (!job__ticket_cancelled(jobs, ticket)) {
    jobs->cancelled[jobs->cancelled_next] = ticket;
    jobs->cancelled_next = (jobs->cancelled_next + 1) % JOB_CANCELLED_KEPT;
  }
  pthread_mutex_unlock(&jobs->mutex);
  return rc;
}

int eddi_engine_progress(EddiEngine *self, uint64_t ticket, size_t *done, const char **unit) {
  EddiJobs *jobs = self->jobs;
  if (!jobs || !ticket) return EDDI_ENOENT;
  pthread_mutex_lock(&jobs->mutex);
  int rc = EDDI_ENOENT;
  for (size_t i = 0; rc != EDDI_OK && i < jobs->running.len; i++) {
    JobRun *run = jobs->running.items[i];
    if (run->ticket != ticket) continue;
    *done = __atomic_load_n(&run->work.done, __ATOMIC_RELAXED);
    *unit = __atomic_load_n(&run->work.unit, __ATOMIC_RELAXED);
    rc = EDDI_OK;
  }
  pthread_mutex_unlock(&jobs->mutex);
  return rc;
}

void eddi_jobs_free(EddiEngine *self) {
  EddiJobs *jobs = self->jobs;
  if (!jobs) return;
  while (jobs->lanes.len) job__lane_free(jobs, jobs->lanes.items[0]);
  array_free(&jobs->lanes);
  array_free(&jobs->running);
  job__run_drop(jobs, jobs->started);
  for (size_t i = 0; i < jobs->finished.len; i++) eddi_reply_free(&jobs->finished.items[i].reply);
  array_free(&jobs->finished);
  pthread_cond_destroy(&jobs->done);
  pthread_mutex_destroy(&jobs->mutex);
  eddi_free(jobs);
  self->jobs = NULL;
}
