/* edit_commands.c - Insert and Delete. */
#include "services/commands.h"
#include "edit/matcher.h"
#include "services/structure.h"

int eddi_run_insert(CommandContext *ctx) {
  static const char *const kinds[] = {"Line", "Block"};
  enum { LINE, BLOCK };
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Insert needs Line or Block and a \"text\"");
  int rc = eddi_structure_insert(ctx); /* Function, Method, Class, Import */
  if (rc <= 0) return rc;
  int kind = eddi_command_choose(ctx, &ctx->args[0], "kind", kinds, 2);
  if (kind < 0) return kind;
  if (ctx->argc != 2 || ctx->args[1].kind != TOKEN_STRING)
    return eddi_command_usage(ctx, "Insert %s needs one \"quoted text\"", kinds[kind]);
  const Token *text = &ctx->args[1];
  if (text->len == 0) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Nothing to insert");
    eddi_error_hint(ctx->err, "The \"text\" is empty");
    return EDDI_EINVAL;
  }
  EddiDoc *doc = ctx->session->current;
  size_t line = eddi_text_line_at(&doc->text, doc->cursor);
  size_t at = doc->cursor;
  StrBuf inserted = {0};
  if (kind == LINE) {
    /* One whole line, above the cursor's line; a final "\n" is allowed. */
    size_t len = text->len - (text->text[text->len - 1] == '\n');
    if (memchr(text->text, '\n', len)) {
      eddi_error_set(ctx->err, EDDI_EINVAL, "Insert Line text holds several lines");
      eddi_error_hint(ctx->err, "Use \"Insert Block\"");
      return EDDI_EINVAL;
    }
    at = eddi_text_line_start(&doc->text, line);
    eddi_strbuf_append(&inserted, text->text, len);
    eddi_strbuf_putc(&inserted, '\n');
  } else {
    eddi_strbuf_append(&inserted, text->text, text->len);
  }
  rc = eddi_doc_replace(doc, at, at, inserted.data, inserted.len, ctx->err);
  if (rc == 0) {
    doc->cursor = at + inserted.len;
    size_t lines = eddi_lines_count(inserted.data, inserted.len);
    eddi_reply_builder_fact(ctx->reply, "Inserted %zu %s at %zu", lines, lines == 1 ? "line" : "lines", line);
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_strbuf_free(&inserted);
  return rc;
}

int eddi_run_delete(CommandContext *ctx) {
  static const char *const targets[] = {"Line", "Block", "Current"};
  enum { LINE, BLOCK, CURRENT };
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Delete needs a target");
  int structural = eddi_structure_delete(ctx); /* Function, Method, Class */
  if (structural <= 0) return structural;
  int which = eddi_structure_choose_plain(ctx, &ctx->args[0], targets, 3, false);
  if (which < 0) return which;
  EddiDoc *doc = ctx->session->current;
  size_t cursor_line = eddi_text_line_at(&doc->text, doc->cursor);
  size_t first = cursor_line, count = 1;
  if (which == LINE && ctx->argc == 2) {
    if (ctx->args[1].kind != TOKEN_INT || ctx->args[1].first == 0)
      return eddi_command_usage(ctx, "Delete Line's count must be a number from 1");
    count = (size_t)ctx->args[1].first;
  } else if (which == BLOCK) {
    if (ctx->argc != 2 || ctx->args[1].kind != TOKEN_PAIR)
      return eddi_command_usage(ctx, "Delete Block needs a range a:b");
    first = (size_t)ctx->args[1].first;
    if ((size_t)ctx->args[1].second < first)
      return eddi_command_usage(ctx, "Delete Block's range %zu:%ld runs backwards", first,
                       ctx->args[1].second);
    count = (size_t)ctx->args[1].second - first + 1;
  } else if (ctx->argc != 1) {
    return eddi_command_usage(ctx, "Delete %s takes no argument", targets[which]);
  }
  size_t lines = eddi_text_line_count(&doc->text);
  if (first >= lines || count > lines - first) {
    if (lines == 0) {
      eddi_error_set(ctx->err, EDDI_EINVAL, "File is empty");
      eddi_error_hint(ctx->err, "Insert Line or Insert Block adds text");
      return EDDI_EINVAL;
    }
    eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid line range %zu:%zu", first, first + count - 1);
    eddi_error_hint(ctx->err, "Lines are 0 to %zu", lines - 1);
    return EDDI_EINVAL;
  }
  size_t last = first + count - 1;
  size_t start = eddi_text_line_start(&doc->text, first);
  size_t end = last + 1 <= doc->text.newlines ? eddi_text_line_start(&doc->text, last + 1)
                                              : eddi_text_len(&doc->text);
  /* The last line of a file without a final newline: take the newline before
   * it, so the file still ends without one. */
  bool unterminated = end == eddi_text_len(&doc->text) && end > start &&
                      eddi_text_byte_at(&doc->text, end - 1) != '\n';
  if (unterminated && start > 0) start--;
  int rc = eddi_doc_replace(doc, start, end, "", 0, ctx->err);
  if (rc < 0) return rc;
  eddi_command_goto_line(doc, first);
  eddi_reply_builder_fact(ctx->reply, "Deleted %zu %s", count, count == 1 ? "line" : "lines");
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec edit_commands[] = {
    {"Insert", "Insert <Line|Block|Function|Method|Class|Import> \"text\"", "insert at the cursor", CMD_FILE, eddi_run_insert},
    {"Delete", "Delete <Line [count]|Block <a:b>|Current|Function <n>|Method <C.m>|Class <n>>",
     "delete lines or an element", CMD_FILE, eddi_run_delete},
};
COMMAND_GROUP(eddi_edit_commands, edit_commands);
