/* script_commands.h - what other command files use of scripts. */
#ifndef EDDI_SCRIPT_COMMANDS_H
#define EDDI_SCRIPT_COMMANDS_H

#include "script/script_run.h"
#include "services/commands.h"

/* Owner thread: make run ready to run over ctx's workspace: its files
 * (the session's documents and the embedder's buffers read before the
 * disk), the current file, the budgets (max_steps and max_ms, up to the
 * configuration's ceilings) and the session's kept variables. */
void eddi_script_run_prepare(CommandContext *ctx, ScriptRun *run, size_t max_steps,
                             uint64_t max_ms);
/* Run text (a script, or one single-line form) in ctx as one transaction;
 * the reply goes into ctx->reply. */
int eddi_script_run_text(CommandContext *ctx, const char *text, size_t len);
/* Preview changeset <name>: ctx->args are "changeset" and the name. */
int eddi_script_preview_changeset(CommandContext *ctx);
/* Add the flags of the session's scripts to ctx's reply (Summary), a page:
 * "Flagged: a.py:3:0 f: note; ...; and 150 more". Returns how many. */
size_t eddi_script_session_flags(CommandContext *ctx);
/* Whether the script line starts (its body included) only reads, its
 * commands judged through commands: a read-only sender may run it. With
 * collecting, a script whose changes are collected (eddi_script_collects)
 * counts as reading unless it writes at once. word receives the statement
 * that writes. A script that does not parse reads only: it fails before it
 * runs. */
bool eddi_script_line_reads_only(const EddiCommandPorts *commands, const EddiCommandLine *line,
                                 bool collecting, char *word, size_t word_size);

#endif
