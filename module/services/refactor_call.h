/* refactor_call.h - Refactor and Preview Refactor for typed calls.
 *
 * The refactor and preview tools (eddi.h's EDDI_CALL_REFACTOR and
 * EDDI_CALL_PREVIEW) take their arguments as data; this runs them through
 * the commands' own job (refactor_commands.c), so a call and a command
 * plan, check, write and answer alike. */
#ifndef EDDI_SERVICES_REFACTOR_CALL_H
#define EDDI_SERVICES_REFACTOR_CALL_H

#include "lsp/lsp_check.h"
#include "refactor/index.h"
#include "services/word_users.h"
#include "workspace/command.h"

/* Run call (EDDI_CALL_REFACTOR or EDDI_CALL_PREVIEW: its operation,
 * "RenameSymbol" or "Rename_Class", on its text as the command's name
 * argument, to its new_name, with the command's Unsure or Leave word) in
 * ctx (ctx->session may be NULL, ctx->args is unused); the reply goes into
 * ctx->reply as the command's, and *files (may be NULL) gets the files a
 * refactoring wrote. A caller that must not go pending turns pending off
 * first: files is written when the job finishes. */
int eddi_refactor_call(CommandContext *ctx, const EddiCall *call, size_t *files);

/* What renaming the entity spec names to new_name would change beyond the
 * file at path, planned as Refactor RenameSymbol plans it, now, on the
 * caller's thread: the other files it changes, ", "-separated, appended
 * to others, and its unsure references ("a.py:12, b.py:40") to unsure.
 * Fails with the rename's refusal. Modify, which changes one file, asks
 * this before a change that other files would feel. */
int eddi_refactor_rename_reach(CommandContext *ctx, const char *spec, const char *new_name,
                               const char *path, StrBuf *others, StrBuf *unsure);

/* Owner thread: the workspace's files but except that a second opinion
 * by check would show for what they use of word (files of a language it
 * has a server for that name word), as the refactorings read them (an
 * open document's or a buffer's text before the disk's), up to
 * EDDI_LSP_USERS_MAX, appended to out. Modify's check shows them. */
int eddi_refactor_files_naming(CommandContext *ctx, const EddiLspCheck *check, const char *word,
                               const char *except, EddiWordUsers *out);

/* Append to texts the texts of the files the embedder holds copies of
 * (Emacs buffers visiting them, unsaved edits included) that texts does
 * not hold yet, only source files of a language with a locals query when
 * sources_only: a refactoring analyses what the buffer holds, as the
 * transaction that writes the file reads it (edit/transaction.h). A copy
 * that cannot be read is left to the disk. */
void eddi_refactor_copy_buffers(EddiWorkspace *workspace, bool sources_only, RefOpenTexts *texts);

#endif
