/* refactor_call.h - Refactor and Preview Refactor for typed calls.
 *
 * The refactor and preview tools (eddi.h's EDDI_CALL_REFACTOR and
 * EDDI_CALL_PREVIEW) take their arguments as data; this runs them through
 * the commands' own job (refactor_commands.c), so a call and a command
 * plan, check, write and answer alike. */
#ifndef EDDI_SERVICES_REFACTOR_CALL_H
#define EDDI_SERVICES_REFACTOR_CALL_H

#include "workspace/command.h"

/* Run operation ("RenameSymbol", "Rename_Class") on target (as the
 * command's name argument) to new_name, in ctx (ctx->session may be NULL,
 * ctx->args is unused), with the command's Unsure (unsure) or Leave
 * (leave) word; the reply goes into ctx->reply as the command's,
 * and *files (may be NULL) gets the files a refactoring wrote. A caller
 * that must not go pending turns pending off first (eddi_jobs_may_pend):
 * files is written when the job finishes. */
int eddi_refactor_call(CommandContext *ctx, const char *operation, const char *target,
                       const char *new_name, bool unsure, bool leave, bool preview,
                       size_t *files);

#endif
