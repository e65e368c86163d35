/* job.c - see job.h. This first form runs the work on its own thread and
 * waits for it, which keeps the owner thread's stack free of the work (a
 * formatter that hangs is stopped by its own time limit, not by this). */
#include "session/job.h"

#include <pthread.h>

static void *job__thread(void *closure) {
  EddiJob *job = closure;
  job->work(job);
  return NULL;
}

int eddi_job_start(CommandContext *ctx, EddiJob *job) {
  pthread_t worker;
  if (pthread_create(&worker, NULL, job__thread, job) != 0) {
    job->destroy(job);
    return eddi_error_set(ctx->err, EDDI_EIO, "Could not start a worker thread");
  }
  pthread_join(worker, NULL);
  int rc = job->finish(job, ctx);
  job->destroy(job);
  return rc;
}
