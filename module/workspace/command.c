/* command.c - long work started through the engine's port; see command.h. */
#include "workspace/command.h"

int eddi_job_start(CommandContext *ctx, EddiJob *job) {
  return ctx->ports->start_job(ctx->ports->engine, ctx, job);
}
