/* job.h - long work off the owner thread.
 *
 * A command that can take long (Format runs a program; later a workspace
 * index, a refactoring, a script) is split in three steps so that the
 * engine's state is only ever touched by its owner thread:
 * - the command, on the owner thread, copies what the work needs out of the
 *   engine into a job and returns eddi_job_start(ctx, job);
 * - work() runs on a worker thread and touches nothing of the engine;
 * - finish() runs on the owner thread again: it checks that what the job
 *   read has not changed meanwhile, applies the result, and builds the reply
 *   in ctx. That ctx is a fresh one for the same sender and session
 *   (ctx->args is NULL: a job keeps what it needs), made after the same
 *   checks as the command's own (a session, a current file in step).
 *
 * Without a waker (eddi_engine_set_waker) eddi_job_start waits for the work
 * and finishes at once, so the CLI and Emacs see a plain command. With one,
 * inside eddi_request_exec, it returns EDDI_EPENDING, the request's reply
 * becomes pending and comes from eddi_engine_take_finished; see job.c for
 * how a message and the sender's later requests wait for it.
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

/* Run job for the command in ctx, which returns what this returns: what
 * finish returned, or (with a waker) EDDI_EPENDING, and the engine then
 * owns job. One job per command: a second one runs at once. On a failure
 * to start, destroys job and fills ctx->err. */
int eddi_job_start(CommandContext *ctx, EddiJob *job);

/* ---------------------------------------------------------------- the engine's side */

/* Let commands leave their work running (the request path, with a waker),
 * or not; returns the previous setting. */
bool eddi_jobs_may_pend(EddiEngine *self, bool may);

/* A command of sender's request went pending: keep the message, its
 * replies so far (moved out of reply, which becomes pending), and where it
 * goes on (rest, an offset in request->text; failed: skip the rest). */
void eddi_jobs_hold(EddiEngine *self, const char *sender, const char *before,
                    const EddiRequest *request, EddiReply *reply, bool failed, size_t rest);

/* Run the command lines of text[0, len) as sender, one reply item each
 * appended to reply; *failed (in and out) skips the rest after a failure.
 * Returns true when a command went pending: *rest then receives the offset
 * in text where the message goes on after its finish (engine.c). */
bool eddi_engine_run_commands(EddiEngine *self, const char *sender, const char *text,
                              size_t len, EddiReply *reply, bool *failed, size_t *rest);

/* Finish a job of spec for sender with a fresh command context, after the
 * command's own checks; on success *reply_text is the reply line
 * (engine.c). Does not destroy job. */
int eddi_engine_finish_job(EddiEngine *self, const char *sender, const CommandSpec *spec,
                           EddiJob *job, char **reply_text, EddiError *err);

#endif
