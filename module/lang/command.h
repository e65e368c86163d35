/* command.h - what a command handler gets, and the command table.
 *
 * The engine looks the verb up in the table, checks the command's needs
 * (a session, a current file), and calls its handler with the arguments.
 * A handler either fills the reply and returns 0, or fills ctx->err and
 * returns a negative code; it changes nothing when it fails. */
#ifndef EDDI_COMMAND_H
#define EDDI_COMMAND_H

#include "session/engine.h"
#include "lang/lexer.h"
#include "lang/reply.h"

typedef struct CommandSpec CommandSpec;

typedef struct {
  EddiEngine *engine;
  const CommandSpec *spec; /* the command being run (NULL for a Confirm answer) */
  EddiSession *session;    /* NULL for commands that need none */
  const char *sender;
  const Token *args; /* after the verb */
  size_t argc;
  const char *body; /* the rest of the message, for commands that take one */
  size_t body_len;
  EddiReplyBuilder *reply;
  EddiError *err;
} CommandContext;

enum {
  CMD_NEEDS_SESSION = 1,
  CMD_NEEDS_FILE = 2, /* a current document */
  CMD_TAKES_BODY = 4,
  /* It changes no file: a read-only sender may run it. (`Open Create` is
   * the one form of such a command that writes; see
   * eddi_command_line_reads_only.) */
  CMD_READ_ONLY = 8,
  /* A script: whether it writes depends on its statements
   * (eddi_script_line_reads_only), not on its word. */
  CMD_SCRIPT = 16,
};

struct CommandSpec {
  const char *name;
  const char *syntax; /* shown by Help and in usage errors */
  const char *summary;
  unsigned flags;
  int (*run)(CommandContext *ctx);
};

/* The commands of one area (a *_commands.c file), listed in command_table.c. */
typedef struct {
  const CommandSpec *commands;
  size_t count;
} CommandGroup;

#define COMMAND_GROUP(name, table) \
  const CommandGroup name = {table, sizeof table / sizeof table[0]}

/* Shorthands for CommandSpec.flags. */
#define CMD_SESSION CMD_NEEDS_SESSION
#define CMD_FILE (CMD_NEEDS_SESSION | CMD_NEEDS_FILE)

extern const CommandGroup eddi_session_commands;
extern const CommandGroup eddi_file_commands;
extern const CommandGroup eddi_navigation_commands;
extern const CommandGroup eddi_search_commands;
extern const CommandGroup eddi_edit_commands;
extern const CommandGroup eddi_history_commands;
extern const CommandGroup eddi_structure_commands;
extern const CommandGroup eddi_edit_format_commands;
extern const CommandGroup eddi_refactor_commands;

const CommandSpec *eddi_command_find(const char *name);
/* Whether name is a command of EDDISPEAK.md that is not built yet. */
bool eddi_command_planned(const char *name);
/* The name closest to a misspelt verb, or NULL. */
const char *eddi_command_suggest(const char *name);

/* Whether a command line only reads (a read-only sender may run it). When
 * it does not, word receives the command as the refusal names it ("Patch",
 * "Open Create"). */
bool eddi_command_line_reads_only(const EddiCommandLine *line, char *word, size_t word_size);

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

/* Handlers, by file. */
int eddi_run_start(CommandContext *ctx);
int eddi_run_end(CommandContext *ctx);
int eddi_run_summary(CommandContext *ctx);
int eddi_run_status(CommandContext *ctx);
int eddi_run_help(CommandContext *ctx);
int eddi_run_set(CommandContext *ctx);
int eddi_run_open(CommandContext *ctx);
int eddi_run_save(CommandContext *ctx);
int eddi_run_close(CommandContext *ctx);
int eddi_run_list(CommandContext *ctx);
int eddi_run_goto(CommandContext *ctx);
int eddi_run_bookmark(CommandContext *ctx);
int eddi_run_show(CommandContext *ctx);
int eddi_run_find(CommandContext *ctx);
int eddi_run_replace(CommandContext *ctx);
int eddi_run_insert(CommandContext *ctx);
int eddi_run_delete(CommandContext *ctx);
int eddi_run_undo(CommandContext *ctx);
int eddi_run_redo(CommandContext *ctx);
int eddi_run_diff(CommandContext *ctx);

/* The answer to a pending Replace Confirm (y, n, all, quit). */
int eddi_command_replace_answer(CommandContext *ctx, const char *answer);
/* Whether text is an answer to Replace Confirm. */
bool eddi_command_is_confirm_answer(const char *text, size_t len, char *answer, size_t answer_size);

/* Diff of a document against its saved text (shared by Diff and Summary). */
int eddi_command_doc_diff(CommandContext *ctx, EddiDoc *doc, size_t *added, size_t *deleted,
                 StrBuf *unified);

#endif
