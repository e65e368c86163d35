/* navigation_commands.c - Goto, Bookmark, Show. */
#include "services/commands.h"

#include "services/structure.h"
#include "lang/suggest.h"

/* A position L:C inside the text, as a byte offset. A line that exists
 * with a column past its end is said so, with the line's length: the fix
 * is a smaller column, not another line. */
static int navigation__position(CommandContext *ctx, EddiDoc *doc, const Token *token,
                                size_t *offset) {
  if (eddi_text_offset_of(&doc->text, (size_t)token->first, (size_t)token->second, offset) == 0)
    return 0;
  size_t line = (size_t)token->first;
  if (line <= doc->text.newlines) {
    size_t start = eddi_text_line_start(&doc->text, line);
    size_t end = eddi_text_line_end(&doc->text, line);
    size_t length = eddi_text_char_index(&doc->text, end) - eddi_text_char_index(&doc->text, start);
    eddi_error_set(ctx->err, EDDI_EINVAL, "Column %ld is past the end of line %zu", token->second,
                   line);
    eddi_error_hint(ctx->err, "Line %zu has %zu %s (its end is %zu:%zu)", line, length,
                    length == 1 ? "character" : "characters", line, length);
    return EDDI_EINVAL;
  }
  size_t end_line, end_col;
  eddi_text_position_of(&doc->text, eddi_text_len(&doc->text), &end_line, &end_col);
  eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid position %ld:%ld", token->first,
                 token->second);
  eddi_error_hint(ctx->err, "File ends at %zu:%zu", end_line, end_col);
  return EDDI_EINVAL;
}

/* ---------------------------------------------------------------- Bookmark */

/* Bookmarks live in the documents (so they move with edits), one name per
 * session: the first document holding it. */
static EddiDoc *navigation__find_bookmark(EddiSession *session, const char *name, DocMark **mark) {
  for (size_t i = 0; i < session->docs.len; i++) {
    *mark = eddi_doc_find_mark(session->docs.items[i], name);
    if (*mark) return session->docs.items[i];
  }
  return NULL;
}

int eddi_run_bookmark(CommandContext *ctx) {
  if (ctx->argc < 1 || ctx->argc > 2 || ctx->args[0].kind != TOKEN_WORD)
    return eddi_command_usage(ctx, "Bookmark needs a name");
  if (ctx->argc == 2 && ctx->args[1].kind != TOKEN_PAIR)
    return eddi_command_usage(ctx, "Bookmark's position must be L:C");
  EddiDoc *doc = ctx->session->current;
  size_t offset = doc->cursor;
  if (ctx->argc == 2) {
    int rc = navigation__position(ctx, doc, &ctx->args[1], &offset);
    if (rc < 0) return rc;
  }
  const char *name = ctx->args[0].text;
  for (size_t i = 0; i < ctx->session->docs.len; i++)
    eddi_doc_remove_mark(ctx->session->docs.items[i], name);
  eddi_doc_set_mark(doc, name, offset);
  size_t line, col;
  eddi_text_position_of(&doc->text, offset, &line, &col);
  eddi_reply_builder_fact(ctx->reply, "Bookmark %s at %zu:%zu", name, line, col);
  return 0;
}

static int navigation__goto_bookmark(CommandContext *ctx, const Token *name) {
  DocMark *mark;
  EddiDoc *doc = navigation__find_bookmark(ctx->session, name->text, &mark);
  if (!doc) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "Bookmark not found: %s", name->text);
    Array(const char *) names = {0};
    for (size_t i = 0; i < ctx->session->docs.len; i++) {
      EddiDoc *each = ctx->session->docs.items[i];
      for (size_t k = 0; k < each->marks.len; k++) array_push(&names, each->marks.items[k].name);
    }
    const char *near = eddi_suggest(name->text, names.items, names.len);
    if (near) eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
    array_free(&names);
    return EDDI_ENOENT;
  }
  ctx->session->current = doc;
  doc->cursor = mark->offset;
  return 0;
}

/* ---------------------------------------------------------------- Goto */

int eddi_run_goto(CommandContext *ctx) {
  static const char *const targets[] = {"StartOfFile", "EndOfFile", "StartOfLine",
                                        "EndOfLine", "Bookmark"};
  enum { START_OF_FILE, END_OF_FILE, START_OF_LINE, END_OF_LINE, BOOKMARK };
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Goto needs a target");
  /* Asked of the language server (server_navigation.c); not in the usage
   * line, which replies quote and which stays as it was. */
  if (eddi_token_is(&ctx->args[0], "Definition")) return eddi_run_goto_definition(ctx);
  EddiDoc *doc = ctx->session->current;
  const Token *target = &ctx->args[0];
  EddiDoc *before = doc;
  int rc = 0;
  if (target->kind == TOKEN_PAIR || target->kind == TOKEN_INT) {
    if (ctx->argc != 1) return eddi_command_usage(ctx, "Goto takes one position");
    Token position = *target;
    if (target->kind == TOKEN_INT) position.second = 0;
    size_t offset;
    rc = navigation__position(ctx, doc, &position, &offset);
    if (rc == 0) doc->cursor = offset;
  } else {
    rc = eddi_structure_goto(ctx); /* Function n, EndOfClass ...: the syntax layer */
    if (rc <= 0) return rc;
    rc = 0;
    int which = eddi_structure_choose_plain(ctx, target, targets, sizeof targets / sizeof *targets,
                                            true);
    if (which < 0) return which;
    if ((which == BOOKMARK) != (ctx->argc == 2))
      return eddi_command_usage(ctx, which == BOOKMARK ? "Goto Bookmark needs a name"
                                              : "Goto %s takes no argument", targets[which]);
    size_t line = eddi_text_line_at(&doc->text, doc->cursor);
    switch (which) {
    case START_OF_FILE: doc->cursor = 0; break;
    case END_OF_FILE: doc->cursor = eddi_text_len(&doc->text); break;
    case START_OF_LINE: doc->cursor = eddi_text_line_start(&doc->text, line); break;
    case END_OF_LINE: doc->cursor = eddi_text_line_end(&doc->text, line); break;
    case BOOKMARK: rc = navigation__goto_bookmark(ctx, &ctx->args[1]); break;
    }
  }
  if (rc < 0) return rc;
  doc = ctx->session->current;
  if (doc != before) eddi_reply_builder_fact(ctx->reply, "File %s", doc->path);
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

/* ---------------------------------------------------------------- Show */

/* Lines [first, last] as text without the final newline. */
static char *navigation__lines_text(const EddiDoc *doc, size_t first, size_t last, size_t *len) {
  size_t start = eddi_text_line_start(&doc->text, first);
  size_t end = eddi_text_line_end(&doc->text, last);
  *len = end - start;
  return eddi_text_dup(&doc->text, start, end);
}

int eddi_run_show(CommandContext *ctx) {
  static const char *const targets[] = {"Line", "Block", "Current"};
  enum { LINE, BLOCK, CURRENT };
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Show needs a target");
  if (eddi_token_is(&ctx->args[0], "References")) return eddi_run_show_references(ctx);
  if (eddi_token_is(&ctx->args[0], "Type")) return eddi_run_show_type(ctx);
  int rc = eddi_structure_show(ctx); /* Function n, Class n ...: the syntax layer */
  if (rc <= 0) return rc;
  int which = eddi_structure_choose_plain(ctx, &ctx->args[0], targets, 3, false);
  if (which < 0) return which;
  EddiDoc *doc = ctx->session->current;
  size_t lines = eddi_text_line_count(&doc->text);
  size_t first, last, next = 1;
  if (which == LINE) {
    if (ctx->argc < 2 || ctx->args[1].kind != TOKEN_INT)
      return eddi_command_usage(ctx, "Show Line needs a line number");
    first = last = (size_t)ctx->args[1].first;
    next = 2;
  } else if (which == BLOCK) {
    if (ctx->argc < 2 || ctx->args[1].kind != TOKEN_PAIR)
      return eddi_command_usage(ctx, "Show Block needs a range a:b");
    first = (size_t)ctx->args[1].first, last = (size_t)ctx->args[1].second;
    next = 2;
    if (first > last) {
      eddi_error_set(ctx->err, EDDI_EINVAL, "Range %zu:%zu is reversed", first, last);
      eddi_error_hint(ctx->err, "Give the first line first: Show Block %zu:%zu", last, first);
      return EDDI_EINVAL;
    }
  } else {
    first = last = eddi_text_line_at(&doc->text, doc->cursor);
  }
  size_t context = which == BLOCK ? 0 : 2;
  if (next < ctx->argc) {
    if (ctx->args[next].kind != TOKEN_INT || next + 1 < ctx->argc)
      return eddi_command_usage(ctx, "Show's context must be a number of lines");
    context = (size_t)ctx->args[next].first;
  }
  if (lines == 0) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "File is empty");
    eddi_error_hint(ctx->err, "Insert Line or Insert Block adds text");
    return EDDI_EINVAL;
  }
  if (which == CURRENT && first >= lines) first = last = lines - 1; /* cursor past the last line */
  if (last >= lines) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid line %zu", last);
    eddi_error_hint(ctx->err, "Lines are 0 to %zu", lines - 1);
    return EDDI_EINVAL;
  }
  size_t from = first > context ? first - context : 0;
  size_t to = EDDI_MIN(lines - 1, last + context);
  size_t page = eddi_workspace_config(ctx->workspace)->page_size;
  bool truncated = to - from + 1 > page;
  if (truncated) to = from + page - 1;
  if (which != CURRENT) eddi_command_goto_line(doc, first);
  size_t len;
  char *text = navigation__lines_text(doc, from, to, &len);
  size_t at_line = first, at_col = 0;
  if (which == CURRENT) eddi_text_position_of(&doc->text, doc->cursor, &at_line, &at_col);
  eddi_reply_builder_payload(ctx->reply, "At %zu:%zu, Lines %zu:%zu", at_line, at_col, from, to);
  eddi_reply_builder_text(ctx->reply, "Txt", text, len);
  if (truncated) eddi_reply_builder_fact(ctx->reply, "Truncated at %zu lines", page);
  eddi_free(text);
  return 0;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec navigation_commands[] = {
    {"Goto",
     "Goto <L:C|line|StartOfFile|EndOfFile|StartOfLine|EndOfLine|Bookmark <name>|"
     "StartOfFunction|EndOfFunction|StartOfClass|EndOfClass|Function <n>|Class <n>|Method <C.m>>",
     "move the cursor", CMD_FILE | CMD_READ_ONLY, eddi_run_goto},
    {"Bookmark", "Bookmark <name> [L:C]", "name a position", CMD_FILE | CMD_READ_ONLY, eddi_run_bookmark},
    {"Show", "Show <Line <n>|Block <a:b>|Current|Function <n>[(params)]|Class <n>|Method <C.m>|"
     "Variable <n>> [<context_lines>]", "show text", CMD_FILE | CMD_READ_ONLY,
     eddi_run_show},
};
COMMAND_GROUP(eddi_navigation_commands, navigation_commands);
