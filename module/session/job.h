/* job.h - long work off the owner thread.
 *
 * A command that can take long (Format runs a program; later a workspace
 * index, a refactoring, a script) is split in three steps so that the
 * engine's state is only ever touched by its owner thread:
 * - the command, on the owner thread, copies what the work needs out of the
 *   engine into a job and calls eddi_job_start;
 * - work() runs on a worker thread and touches nothing of the engine;
 * - finish() runs on the owner thread again: it checks that what the job
 *   read has not changed meanwhile, applies the result, and builds the reply
 *   in ctx (ctx->args is NULL there: a job keeps what it needs).
 *
 * Without a waker (eddi_engine_set_waker) eddi_job_start waits for the work
 * and finishes at once, so the CLI and Emacs see a plain command. With one,
 * the request's reply becomes pending and comes from
 * eddi_engine_take_finished.
 */
#ifndef EDDI_JOB_H
#define EDDI_JOB_H

#include "lang/command.h"

typedef struct EddiJob EddiJob;

struct EddiJob {
  void (*work)(EddiJob *self);
  int (*finish)(EddiJob *self, CommandContext *ctx);
  void (*destroy)(EddiJob *self); /* frees the job; called once, last */
};

/* Run job for the command in ctx. Returns what finish returned, or (with a
 * waker) EDDI_EPENDING: the engine then owns job. On a failure to start,
 * destroys job and fills ctx->err. */
int eddi_job_start(CommandContext *ctx, EddiJob *job);

#endif
