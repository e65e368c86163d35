/* refactor_call.h - Refactor and Preview Refactor for typed calls.
 *
 * The refactor and preview tools (eddi.h's EDDI_CALL_REFACTOR and
 * EDDI_CALL_PREVIEW) take their arguments as data; this runs them through
 * the commands' own job (refactor_commands.c), so a call and a command
 * plan, check, write and answer alike. */
#ifndef EDDI_SERVICES_REFACTOR_CALL_H
#define EDDI_SERVICES_REFACTOR_CALL_H

#include "workspace/command.h"

/* Run call (EDDI_CALL_REFACTOR or EDDI_CALL_PREVIEW: its operation,
 * "RenameSymbol" or "Rename_Class", on its text as the command's name
 * argument, to its new_name, with the command's Unsure or Leave word) in
 * ctx (ctx->session may be NULL, ctx->args is unused); the reply goes into
 * ctx->reply as the command's, and *files (may be NULL) gets the files a
 * refactoring wrote. A caller that must not go pending turns pending off
 * first: files is written when the job finishes. */
int eddi_refactor_call(CommandContext *ctx, const EddiCall *call, size_t *files);

#endif
