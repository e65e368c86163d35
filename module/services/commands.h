/* commands.h - the command files' groups, for the engine's table
 * (session/command_table.c), and the handlers and helpers the command
 * files share among themselves. */
#ifndef EDDI_COMMANDS_H
#define EDDI_COMMANDS_H

#include "workspace/command.h"

/* Each *_commands.c file's group; the table lists them in Help's order. */
extern const CommandGroup eddi_session_commands;
extern const CommandGroup eddi_settings_commands;
extern const CommandGroup eddi_file_commands;
extern const CommandGroup eddi_navigation_commands;
extern const CommandGroup eddi_search_commands;
extern const CommandGroup eddi_edit_commands;
extern const CommandGroup eddi_history_commands;
extern const CommandGroup eddi_structure_commands;
extern const CommandGroup eddi_edit_format_commands;
extern const CommandGroup eddi_refactor_commands;
extern const CommandGroup eddi_script_commands;

/* ---------------------------------------------------------------- helpers */

/* Fail with message and the command's syntax as the hint. */
int eddi_command_usage(CommandContext *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Which of choices (case-insensitive) the token names; on no match fails
 * with "Unknown <what> 'x'" and the nearest choice. */
int eddi_command_choose(CommandContext *ctx, const Token *token, const char *what,
               const char *const *choices, size_t count);
/* A token as a path or name: the string's text, or the source of anything else. */
char *eddi_command_token_string(const Token *token);
/* The open document name gives (a workspace path, or a base name only one
 * open document has), or a Fail: not open, or ambiguous with the
 * candidates. */
int eddi_command_named_doc(CommandContext *ctx, const Token *name, EddiDoc **doc);
/* Resolve a path the command was given (core/path.h), with a hint when it
 * is refused. */
int eddi_command_resolve(CommandContext *ctx, const char *input, char **rel, char **abs);
/* A hint for a pattern token that did not compile (Find, Replace, Grep):
 * give one, or escape what the regex took for syntax. */
void eddi_command_hint_pattern(CommandContext *ctx, const Token *token);
/* Add ", At L:C" for the document's cursor. */
void eddi_command_fact_cursor(CommandContext *ctx, const EddiDoc *doc);
/* Set the cursor to the start of line (clamped to the last line slot). */
void eddi_command_goto_line(EddiDoc *doc, size_t line);

/* ---------------------------------------------------------------- handlers, by file */
int eddi_run_start(CommandContext *ctx);
int eddi_run_end(CommandContext *ctx);
int eddi_run_summary(CommandContext *ctx);
int eddi_run_status(CommandContext *ctx);
int eddi_run_set(CommandContext *ctx);
int eddi_run_open(CommandContext *ctx);
int eddi_run_save(CommandContext *ctx);
int eddi_run_close(CommandContext *ctx);
int eddi_run_list(CommandContext *ctx);
int eddi_run_goto(CommandContext *ctx);
int eddi_run_bookmark(CommandContext *ctx);
int eddi_run_show(CommandContext *ctx);
/* server_navigation.c: asked of the file's language server. */
int eddi_run_show_references(CommandContext *ctx);
int eddi_run_show_type(CommandContext *ctx);
int eddi_run_goto_definition(CommandContext *ctx);
int eddi_run_find(CommandContext *ctx);
int eddi_run_replace(CommandContext *ctx);
int eddi_run_insert(CommandContext *ctx);
int eddi_run_delete(CommandContext *ctx);
int eddi_run_undo(CommandContext *ctx);
int eddi_run_redo(CommandContext *ctx);
int eddi_run_diff(CommandContext *ctx);

/* ---------------------------------------------------------------- Replace Confirm */

/* Whether session waits for the answer to a Replace ... Confirm. */
bool eddi_replace_confirm_pending(const EddiSession *session);
/* The answer to a pending Replace Confirm (y, n, all, quit). */
int eddi_command_replace_answer(CommandContext *ctx, const char *answer);
/* Whether text is an answer to Replace Confirm. */
bool eddi_command_is_confirm_answer(const char *text, size_t len, char *answer, size_t answer_size);
/* End session's pending Replace Confirm, if any. */
void eddi_replace_confirm_cancel(EddiSession *session);

/* Diff of a document against its saved text (shared by Diff and Summary). */
int eddi_command_doc_diff(CommandContext *ctx, EddiDoc *doc, size_t *added, size_t *deleted,
                 StrBuf *unified);

#endif
