/* script_commands.h - what other command files use of scripts. */
#ifndef EDDI_SCRIPT_COMMANDS_H
#define EDDI_SCRIPT_COMMANDS_H

#include "lang/command.h"

/* Run text (a script, or one single-line form) in ctx as one transaction;
 * the reply goes into ctx->reply. */
int eddi_script_run_text(CommandContext *ctx, const char *text, size_t len);
/* Preview changeset <name>: ctx->args are "changeset" and the name. */
int eddi_script_preview_changeset(CommandContext *ctx);

#endif
