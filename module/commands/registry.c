/* registry.c - the command table, Help, and helpers every handler uses. */
#include "command.h"

#include <stdarg.h>
#include <strings.h>

#include "suggest.h"
#include "utf8.h"

#define SESSION CMD_NEEDS_SESSION
#define FILE_ (CMD_NEEDS_SESSION | CMD_NEEDS_FILE)

static const CommandSpec command_table[] = {
    {"Start", "Start <name> [\"description\"]", "begin a session", 0, cmd_start},
    {"End", "End [<name>]", "end the session", SESSION, cmd_end},
    {"Summary", "Summary [<name>]", "what the session changed", SESSION, cmd_summary},
    {"Status", "Status", "session, file, cursor", SESSION, cmd_status},
    {"Help", "Help [<command>]", "commands, or one command's syntax", 0, cmd_help},
    {"Set", "Set response_format <escaped|raw>", "session preferences", SESSION, cmd_set},
    {"Open", "Open [Create] [<dir>] <file>", "open a file (Create: new if missing)", SESSION,
     cmd_open},
    {"Save", "Save [Close] [<file>]", "write the file", SESSION, cmd_save},
    {"Close", "Close [<file>]", "close without saving", SESSION, cmd_close},
    {"List", "List [Open|Count] [<glob>] [<offset>]", "files in the workspace", SESSION,
     cmd_list},
    {"Goto",
     "Goto <L:C|line|StartOfFile|EndOfFile|StartOfLine|EndOfLine|Bookmark <name>>",
     "move the cursor", FILE_, cmd_goto},
    {"Find", "Find <\"text\"|/regex/flags> [Next|Prev|All]", "search from the cursor", FILE_,
     cmd_find},
    {"Replace", "Replace <\"text\"|/regex/flags> \"replacement\" [All|Confirm]",
     "replace the next match, all, or one by one", FILE_, cmd_replace},
    {"Show", "Show <Line <n>|Block <a:b>|Current> [<context_lines>]", "show text", FILE_,
     cmd_show},
    {"Insert", "Insert <Line|Block> \"text\"", "insert at the cursor", FILE_, cmd_insert},
    {"Delete", "Delete <Line [count]|Block <a:b>|Current>", "delete lines", FILE_, cmd_delete},
    {"Undo", "Undo [count]", "undo commands", FILE_, cmd_undo},
    {"Redo", "Redo [count]", "redo undone commands", FILE_, cmd_redo},
    {"Bookmark", "Bookmark <name> [L:C]", "name a position", FILE_, cmd_bookmark},
    {"Diff", "Diff [<file>]", "changes since the last save", FILE_, cmd_diff},
};

#define COMMAND_COUNT (sizeof command_table / sizeof command_table[0])

const CommandSpec *eddi_command_table(size_t *count) {
  *count = COMMAND_COUNT;
  return command_table;
}

const CommandSpec *eddi_command_find(const char *name) {
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (strcasecmp(command_table[i].name, name) == 0) return &command_table[i];
  return NULL;
}

const char *eddi_command_suggest(const char *name) {
  const char *names[COMMAND_COUNT];
  for (size_t i = 0; i < COMMAND_COUNT; i++) names[i] = command_table[i].name;
  return eddi_suggest(name, names, COMMAND_COUNT);
}

/* ---------------------------------------------------------------- Help */

int cmd_help(CommandContext *ctx) {
  if (ctx->argc > 1) return cmd_usage(ctx, "Help takes at most one command name");
  if (ctx->argc == 0) {
    for (size_t i = 0; i < COMMAND_COUNT; i++)
      reply_payload(ctx->reply, "%s%s", i ? ", " : "", command_table[i].name);
    return 0;
  }
  const CommandSpec *spec = eddi_command_find(ctx->args[0].text);
  if (!spec) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "Unknown command '%s'", ctx->args[0].text);
    const char *near = eddi_command_suggest(ctx->args[0].text);
    if (near) eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
    return EDDI_ENOENT;
  }
  reply_payload(ctx->reply, "%s - %s", spec->syntax, spec->summary);
  return 0;
}

/* ---------------------------------------------------------------- helpers */

int cmd_usage(CommandContext *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char what[EDDI_ERROR_MAX];
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  eddi_error_set(ctx->err, EDDI_EINVAL, "%s", what);
  if (ctx->spec) eddi_error_hint(ctx->err, "Usage: %s", ctx->spec->syntax);
  return EDDI_EINVAL;
}

int cmd_choose(CommandContext *ctx, const Token *token, const char *what,
               const char *const *choices, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (eddi_token_is(token, choices[i])) return (int)i;
  eddi_error_set(ctx->err, EDDI_EINVAL, "Unknown %s '%.*s'", what,
                 (int)utf8_complete_prefix(token->source,
                                           EDDI_MIN(token->source_len, (size_t)64)),
                 token->source);
  const char *near = token->kind == TOKEN_WORD ? eddi_suggest(token->text, choices, count) : NULL;
  if (near) {
    eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
  } else {
    StrBuf list = {0};
    for (size_t i = 0; i < count; i++) strbuf_printf(&list, "%s%s", i ? ", " : "", choices[i]);
    eddi_error_hint(ctx->err, "Expected one of %s", list.data);
    strbuf_free(&list);
  }
  return EDDI_EINVAL;
}

char *cmd_token_string(const Token *token) {
  if (token->kind == TOKEN_STRING) return eddi_strndup(token->text, token->len);
  return eddi_strndup(token->source, token->source_len);
}

void cmd_fact_cursor(CommandContext *ctx, const EddiDoc *doc) {
  size_t line, col;
  eddi_text_position_of(&doc->text, doc->cursor, &line, &col);
  reply_fact(ctx->reply, "At %zu:%zu", line, col);
}

void cmd_goto_line(EddiDoc *doc, size_t line) {
  line = EDDI_MIN(line, doc->text.newlines);
  doc->cursor = eddi_text_line_start(&doc->text, line);
}
