/* job.h - long work off the owner thread: the engine's side.
 *
 * A command splits long work into a job (workspace/command.h says how)
 * and starts it through its ports; eddi_engine_start_job is the port.
 * Without a waker (eddi_engine_set_waker) it waits for the work and
 * finishes at once, so the CLI and Emacs see a plain command. With one,
 * inside eddi_request_exec, it returns EDDI_EPENDING, the request's reply
 * becomes pending and comes from eddi_engine_take_finished; see job.c for
 * how a message and the sender's later requests wait for it.
 */
#ifndef EDDI_JOB_H
#define EDDI_JOB_H

#include "session/engine.h"

/* The start_job port (engine is the EddiEngine): what finish returned,
 * or (with a waker) EDDI_EPENDING, and the engine then owns job. One job
 * per command: a second one runs at once. On a failure to start,
 * destroys job and fills ctx->err. */
int eddi_engine_start_job(void *engine, CommandContext *ctx, EddiJob *job);

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
