/* command.h - what a command handler gets, and the command table.
 *
 * The engine looks the verb up in the table, checks the command's needs
 * (a session, a current file), and calls its handler with the arguments.
 * A handler either fills the reply and returns 0, or fills ctx->err and
 * returns a negative code; it changes nothing when it fails. */
#ifndef EDDI_COMMAND_H
#define EDDI_COMMAND_H

#include "engine.h"
#include "lexer.h"
#include "reply.h"

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
  ReplyBuilder *reply;
  EddiError *err;
} CommandContext;

enum {
  CMD_NEEDS_SESSION = 1,
  CMD_NEEDS_FILE = 2, /* a current document */
  CMD_TAKES_BODY = 4,
};

struct CommandSpec {
  const char *name;
  const char *syntax; /* shown by Help and in usage errors */
  const char *summary;
  unsigned flags;
  int (*run)(CommandContext *ctx);
};

/* The commands of one area (a *_commands.c file), listed in registry.c. */
typedef struct {
  const CommandSpec *commands;
  size_t count;
} CommandGroup;

#define COMMAND_GROUP(name, table) \
  const CommandGroup name = {table, sizeof table / sizeof table[0]}

/* Shorthands for CommandSpec.flags. */
#define CMD_SESSION CMD_NEEDS_SESSION
#define CMD_FILE (CMD_NEEDS_SESSION | CMD_NEEDS_FILE)

extern const CommandGroup session_command_group;
extern const CommandGroup file_command_group;
extern const CommandGroup navigation_command_group;
extern const CommandGroup search_command_group;
extern const CommandGroup edit_command_group;
extern const CommandGroup history_command_group;
extern const CommandGroup structure_command_group;
extern const CommandGroup edit_format_command_group;

const CommandSpec *eddi_command_find(const char *name);
/* Whether name is a command of EDDISPEAK.md that is not built yet. */
bool eddi_command_planned(const char *name);
/* The name closest to a misspelt verb, or NULL. */
const char *eddi_command_suggest(const char *name);

/* ---------------------------------------------------------------- helpers */

/* Fail with message and the command's syntax as the hint. */
int cmd_usage(CommandContext *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Which of choices (case-insensitive) the token names; on no match fails
 * with "Unknown <what> 'x'" and the nearest choice. */
int cmd_choose(CommandContext *ctx, const Token *token, const char *what,
               const char *const *choices, size_t count);
/* A token as a path or name: the string's text, or the source of anything else. */
char *cmd_token_string(const Token *token);
/* Add ", At L:C" for the document's cursor. */
void cmd_fact_cursor(CommandContext *ctx, const EddiDoc *doc);
/* Set the cursor to the start of line (clamped to the last line slot). */
void cmd_goto_line(EddiDoc *doc, size_t line);

/* Handlers, by file. */
int cmd_start(CommandContext *ctx);
int cmd_end(CommandContext *ctx);
int cmd_summary(CommandContext *ctx);
int cmd_status(CommandContext *ctx);
int cmd_help(CommandContext *ctx);
int cmd_set(CommandContext *ctx);
int cmd_open(CommandContext *ctx);
int cmd_save(CommandContext *ctx);
int cmd_close(CommandContext *ctx);
int cmd_list(CommandContext *ctx);
int cmd_goto(CommandContext *ctx);
int cmd_bookmark(CommandContext *ctx);
int cmd_show(CommandContext *ctx);
int cmd_find(CommandContext *ctx);
int cmd_replace(CommandContext *ctx);
int cmd_insert(CommandContext *ctx);
int cmd_delete(CommandContext *ctx);
int cmd_undo(CommandContext *ctx);
int cmd_redo(CommandContext *ctx);
int cmd_diff(CommandContext *ctx);

/* The answer to a pending Replace Confirm (y, n, all, quit). */
int cmd_replace_answer(CommandContext *ctx, const char *answer);
/* Whether text is an answer to Replace Confirm. */
bool cmd_is_confirm_answer(const char *text, size_t len, char *answer, size_t answer_size);

/* Diff of a document against its saved text (shared by Diff and Summary). */
int cmd_doc_diff(CommandContext *ctx, EddiDoc *doc, size_t *added, size_t *deleted,
                 StrBuf *unified);

#endif
