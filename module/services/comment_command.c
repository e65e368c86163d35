/* comment_command.c - Comment: a line, block or doc comment above an
 * element, a line or the cursor, in the language's own comment syntax
 * (language.conf), indented like what it comments. A doc comment of a
 * language that keeps it inside the body (a Python docstring) goes there. */
#include "services/structure.h"

/* ---------------------------------------------------------------- Comment */

int eddi_run_comment(CommandContext *ctx) {
  static const char *const styles[] = {"Line", "Block", "Doc"};
  enum { LINE, BLOCK, DOC };
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc < 2) return eddi_command_usage(ctx, "Comment needs a target and a \"text\"");
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  size_t next = 1, line;
  EddiElement *e = NULL;
  if (eddi_token_is(&ctx->args[0], "Line")) {
    if (ctx->args[1].kind != TOKEN_INT)
      return eddi_command_usage(ctx, "Comment Line needs a line number");
    line = (size_t)ctx->args[1].first;
    if (line > doc->text.newlines)
      return eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid line %zu", line);
    next = 2;
  } else if (eddi_token_is(&ctx->args[0], "Current")) {
    line = eddi_structure_line_of(doc, doc->cursor);
  } else {
    rc = eddi_structure_find(ctx, doc, syn, false, &e, &next);
    if (rc < 0) return rc;
    line = eddi_structure_line_of(doc, eddi_structure_extent_start(doc, syn, e));
  }
  if (next >= ctx->argc || ctx->args[next].kind != TOKEN_STRING)
    return eddi_command_usage(ctx, "Comment needs a \"text\"");
  const Token *text = &ctx->args[next++];
  int style = e ? DOC : LINE;
  if (next < ctx->argc) {
    style = eddi_command_choose(ctx, &ctx->args[next], "comment style", styles, 3);
    if (style < 0) return style;
    if (next + 1 != ctx->argc) return eddi_command_usage(ctx, "Comment takes one style");
  }
  if (style == DOC && !e)
    return eddi_command_usage(ctx, "A Doc comment needs a Function, Method or Class");
  if (style == DOC && !lang->comment_doc_start && !lang->comment_doc_prefix) style = LINE;
  if (style == BLOCK && !lang->comment_block_start) style = LINE;
  if (style == LINE && !lang->comment_line) style = BLOCK;
  if (style == BLOCK && !lang->comment_block_start)
    return eddi_error_set(ctx->err, EDDI_EINVAL, "No comments in %s", lang->name);
  char *indent = eddi_structure_indent_of_line(doc, line);
  if (style == DOC && lang->doc_inside && e && e->has_body) {
    /* The docstring is the body's first statement, one level in. */
    size_t body_line = eddi_structure_line_of(doc, e->body_start);
    if (body_line == eddi_structure_line_of(doc, e->start)) body_line++;
    eddi_free(indent);
    indent = eddi_structure_indent_of_line(doc, body_line);
    line = body_line;
  }
  StrBuf body = {0};
  const char *s = text->text;
  size_t len = text->len;
  while (len && s[len - 1] == '\n') len--;
  if (style == LINE || (style == DOC && lang->comment_doc_prefix)) {
    const char *prefix = style == LINE ? lang->comment_line : lang->comment_doc_prefix;
    for (size_t i = 0; i <= len;) {
      size_t eol = i;
      while (eol < len && s[eol] != '\n') eol++;
      eddi_strbuf_printf(&body, "%s%s", indent, prefix);
      if (eol > i) eddi_strbuf_putc(&body, ' '), eddi_strbuf_append(&body, s + i, eol - i);
      eddi_strbuf_putc(&body, '\n');
      i = eol + 1;
    }
  } else {
    const char *open = style == BLOCK ? lang->comment_block_start : lang->comment_doc_start;
    const char *close = style == BLOCK ? lang->comment_block_end : lang->comment_doc_end;
    bool multi = memchr(s, '\n', len) != NULL;
    bool python_like = lang->doc_inside && style == DOC;
    if (!multi) {
      eddi_strbuf_printf(&body, "%s%s%s", indent, open, python_like ? "" : " ");
      eddi_strbuf_append(&body, s, len);
      eddi_strbuf_printf(&body, "%s%s\n", python_like ? "" : " ", close ? close : "");
    } else {
      eddi_strbuf_printf(&body, "%s%s", indent, open);
      if (!python_like) eddi_strbuf_putc(&body, '\n');
      for (size_t i = 0; i <= len;) {
        size_t eol = i;
        while (eol < len && s[eol] != '\n') eol++;
        bool star = open[0] == '/' && open[1] == '*';
        if (i > 0 || !python_like) eddi_strbuf_printf(&body, "%s%s", indent, star ? " * " : "");
        eddi_strbuf_append(&body, s + i, eol - i);
        eddi_strbuf_putc(&body, '\n');
        i = eol + 1;
      }
      eddi_strbuf_printf(&body, "%s%s%s\n", indent, open[0] == '/' && open[1] == '*' ? " " : "",
                    close ? close : "");
    }
  }
  size_t at = eddi_text_line_start(&doc->text, line);
  rc = eddi_doc_replace(doc, at, at, body.data, body.len, ctx->err);
  if (rc == 0) {
    size_t lines = eddi_lines_count(body.data, body.len);
    doc->cursor = at + body.len;
    eddi_reply_builder_fact(ctx->reply, "Inserted %zu %s at %zu", lines,
                            lines == 1 ? "line" : "lines", line);
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_strbuf_free(&body);
  eddi_free(indent);
  return rc;
}

