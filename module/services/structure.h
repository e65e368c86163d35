/* structure.h - structural targets (Function n, Class n, Method C.m ...)
 * for the commands that also take plain targets: Goto, Show, Insert,
 * Delete. Implemented in structure_commands.c over module/syntax/. Each
 * returns 1 when the target is not a structural one (the caller goes on
 * with its own targets), else 0 or a negative EDDI_E* code. */
#ifndef EDDI_STRUCTURE_H
#define EDDI_STRUCTURE_H

#include "lang/command.h"

int eddi_structure_goto(CommandContext *ctx);
int eddi_structure_show(CommandContext *ctx);
int eddi_structure_insert(CommandContext *ctx);
int eddi_structure_delete(CommandContext *ctx);

#endif
