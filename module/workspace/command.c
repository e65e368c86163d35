/* command.c - the ports' calls as commands make them; see command.h. */
#include "workspace/command.h"

int eddi_job_start(CommandContext *ctx, EddiJob *job) {
  return ctx->ports->start_job(ctx->ports->engine, ctx, job);
}

const CommandSpec *eddi_command_find(const CommandContext *ctx, const char *name) {
  return ctx->ports->find(ctx->ports->engine, name);
}
