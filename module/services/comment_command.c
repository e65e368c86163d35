/* comment_command.c - Comment: a line, block or doc comment above an
 * element, a line or the cursor, in the language's own comment syntax
 * (language.conf), indented like what it comments. A doc comment of a
 * language that keeps it inside the body (a Python docstring) goes there.
 *
 * An element has one doc comment: a Doc comment on one that has one
 * replaces it (and says so), or with Append adds its text to it, so that a
 * second docstring (which Python would not read) is never written. */
#include "services/structure.h"

/* ---------------------------------------------------------------- rendering */

typedef enum { COMMENT_LINE, COMMENT_BLOCK, COMMENT_DOC } CommentStyle;

/* The comment holding s[0, len), each line indented by indent, into body. */
static void comment__render(const EddiLang *lang, CommentStyle style, const char *indent,
                            const char *s, size_t len, StrBuf *body) {
  while (len && s[len - 1] == '\n') len--;
  if (style == COMMENT_LINE || (style == COMMENT_DOC && lang->comment_doc_prefix)) {
    const char *prefix = style == COMMENT_LINE ? lang->comment_line : lang->comment_doc_prefix;
    for (size_t i = 0; i <= len;) {
      size_t eol = i;
      while (eol < len && s[eol] != '\n') eol++;
      eddi_strbuf_printf(body, "%s%s", indent, prefix);
      if (eol > i) eddi_strbuf_putc(body, ' '), eddi_strbuf_append(body, s + i, eol - i);
      eddi_strbuf_putc(body, '\n');
      i = eol + 1;
    }
    return;
  }
  const char *open = style == COMMENT_BLOCK ? lang->comment_block_start : lang->comment_doc_start;
  const char *close = style == COMMENT_BLOCK ? lang->comment_block_end : lang->comment_doc_end;
  bool multi = memchr(s, '\n', len) != NULL;
  bool python_like = lang->doc_inside && style == COMMENT_DOC;
  bool star = open[0] == '/' && open[1] == '*';
  if (!multi) {
    eddi_strbuf_printf(body, "%s%s%s", indent, open, python_like ? "" : " ");
    eddi_strbuf_append(body, s, len);
    eddi_strbuf_printf(body, "%s%s\n", python_like ? "" : " ", close ? close : "");
    return;
  }
  eddi_strbuf_printf(body, "%s%s", indent, open);
  if (!python_like) eddi_strbuf_putc(body, '\n');
  for (size_t i = 0; i <= len;) {
    size_t eol = i;
    while (eol < len && s[eol] != '\n') eol++;
    if (i > 0 || !python_like) eddi_strbuf_printf(body, "%s%s", indent, star ? " * " : "");
    eddi_strbuf_append(body, s + i, eol - i);
    eddi_strbuf_putc(body, '\n');
    i = eol + 1;
  }
  eddi_strbuf_printf(body, "%s%s%s\n", indent, star ? " " : "", close ? close : "");
}

/* ---------------------------------------------------------------- the doc comment there */

/* Lines [first, last] of an element's existing doc comment. */
typedef struct {
  bool found;
  size_t first, last;
} CommentDoc;

static bool comment__starts_with(const EddiDoc *doc, size_t at, size_t end, const char *word) {
  size_t n = word ? strlen(word) : 0;
  if (!n || end - at < n) return false;
  char *text = eddi_text_dup(&doc->text, at, at + n);
  bool same = strcmp(text, word) == 0;
  eddi_free(text);
  return same;
}

/* A docstring: the body's first statement, when it is a string. */
static CommentDoc comment__find_inside(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e) {
  CommentDoc found = {0};
  TSNode root = ts_tree_root_node(syn->tree);
  TSNode body = ts_node_descendant_for_byte_range(root, (uint32_t)e->body_start,
                                                  (uint32_t)e->body_end);
  /* A body of one statement spans what the statement spans: go up to the
   * body itself. */
  for (TSNode up = ts_node_parent(body); !ts_node_is_null(up) &&
                                         ts_node_start_byte(up) == e->body_start &&
                                         ts_node_end_byte(up) == e->body_end;
       up = ts_node_parent(up))
    body = up;
  uint32_t count = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode statement = ts_node_named_child(body, i);
    if (strstr(ts_node_type(statement), "comment")) continue;
    TSNode value = ts_node_named_child_count(statement) ? ts_node_named_child(statement, 0)
                                                        : statement;
    if (ts_node_named_child_count(statement) == 1 && strstr(ts_node_type(value), "string")) {
      found.found = true;
      found.first = eddi_structure_line_of(doc, ts_node_start_byte(statement));
      found.last = eddi_structure_line_of(doc, ts_node_end_byte(statement));
    }
    break;
  }
  return found;
}

/* Doc comments directly above the element (among the comments and
 * decorators its extent takes in): those that open like the language's doc
 * comment, or carry its doc prefix. */
static CommentDoc comment__find_above(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e) {
  CommentDoc found = {0};
  const EddiLang *lang = syn->lang;
  size_t from = eddi_structure_extent_start(doc, syn, e);
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  for (size_t i = 0; i < d->comments.len; i++) {
    EddiSpan s = d->comments.items[i];
    if (s.start < from || s.end > e->start) continue;
    if (!comment__starts_with(doc, s.start, s.end, lang->comment_doc_start) &&
        !comment__starts_with(doc, s.start, s.end, lang->comment_doc_prefix))
      continue;
    size_t first = eddi_structure_line_of(doc, s.start), last = eddi_structure_line_of(doc, s.end);
    if (last > first && eddi_text_line_start(&doc->text, last) == s.end) last--; /* took its newline */
    if (!found.found) found.first = first;
    found.found = true;
    found.last = last;
  }
  return found;
}

/* The text inside a doc comment (lines [first, last]): without its
 * delimiters, its prefix or " * " per line, and its indentation. */
static void comment__doc_text(const EddiDoc *doc, const EddiLang *lang, CommentDoc at,
                              StrBuf *out) {
  const char *open = lang->comment_doc_start, *close = lang->comment_doc_end;
  const char *prefix = lang->comment_doc_prefix;
  StrBuf lines = {0};
  for (size_t line = at.first; line <= at.last; line++) {
    size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
    char *text = eddi_text_dup(&doc->text, start, end);
    const char *p = text;
    size_t n = end - start;
    while (n && (*p == ' ' || *p == '\t')) p++, n--;
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\r')) n--;
    if (prefix && n >= strlen(prefix) && strncmp(p, prefix, strlen(prefix)) == 0) {
      p += strlen(prefix), n -= strlen(prefix);
    } else {
      if (open && line == at.first && n >= strlen(open) && strncmp(p, open, strlen(open)) == 0)
        p += strlen(open), n -= strlen(open);
      if (close && line == at.last && n >= strlen(close) &&
          strncmp(p + n - strlen(close), close, strlen(close)) == 0)
        n -= strlen(close);
      if (open && open[0] == '/' && open[1] == '*' && n && *p == '*') p++, n--;
    }
    while (n && *p == ' ') p++, n--;
    while (n && p[n - 1] == ' ') n--;
    if (n || lines.len) {
      if (lines.len) eddi_strbuf_putc(&lines, '\n');
      eddi_strbuf_append(&lines, p, n);
    }
    eddi_free(text);
  }
  size_t len = lines.len;
  while (len && lines.data[len - 1] == '\n') len--;
  if (len) eddi_strbuf_append(out, lines.data, len);
  eddi_strbuf_free(&lines);
}

/* ---------------------------------------------------------------- Comment */

int eddi_run_comment(CommandContext *ctx) {
  static const char *const styles[] = {"Line", "Block", "Doc"};
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
    if (line > doc->text.newlines) {
      eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid line %zu", line);
      eddi_error_hint(ctx->err, "Lines are 0 to %zu", doc->text.newlines);
      return EDDI_EINVAL;
    }
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
  int style = e ? COMMENT_DOC : COMMENT_LINE;
  bool append = false, styled = false;
  for (; next < ctx->argc; next++) {
    if (eddi_token_is(&ctx->args[next], "Append") && !append) {
      append = true;
      continue;
    }
    if (styled) return eddi_command_usage(ctx, "Comment takes one style, and Append once");
    style = eddi_command_choose(ctx, &ctx->args[next], "comment style", styles, 3);
    if (style < 0) return style;
    styled = true;
  }
  if (style == COMMENT_DOC && !e)
    return eddi_command_usage(ctx, "A Doc comment needs a Function, Method or Class");
  if (append && style != COMMENT_DOC)
    return eddi_command_usage(ctx, "Append adds to a Doc comment");
  if (style == COMMENT_DOC && !lang->comment_doc_start && !lang->comment_doc_prefix)
    style = COMMENT_LINE;
  if (style == COMMENT_BLOCK && !lang->comment_block_start) style = COMMENT_LINE;
  if (style == COMMENT_LINE && !lang->comment_line) style = COMMENT_BLOCK;
  if (style == COMMENT_BLOCK && !lang->comment_block_start) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "No comments in %s", lang->name);
    eddi_error_hint(ctx->err, "%s files hold no comments; edit the text instead", lang->name);
    return EDDI_EINVAL;
  }
  bool doc_style = style == COMMENT_DOC;
  char *indent = eddi_structure_indent_of_line(doc, line);
  CommentDoc existing = {0};
  if (doc_style && lang->doc_inside && e && e->has_body) {
    /* The docstring is the body's first statement, one level in. */
    size_t body_line = eddi_structure_line_of(doc, e->body_start);
    if (body_line == eddi_structure_line_of(doc, e->start)) body_line++;
    existing = comment__find_inside(doc, syn, e);
    eddi_free(indent);
    indent = eddi_structure_indent_of_line(doc, existing.found ? existing.first : body_line);
    line = body_line;
  } else if (doc_style && e) {
    existing = comment__find_above(doc, syn, e);
  }
  StrBuf words = {0};
  if (existing.found && append) {
    comment__doc_text(doc, lang, existing, &words);
    if (words.len) eddi_strbuf_putc(&words, '\n');
  }
  eddi_strbuf_append(&words, text->text, text->len);
  StrBuf body = {0};
  comment__render(lang, (CommentStyle)style, indent, words.data, words.len, &body);
  size_t at, end;
  if (existing.found) {
    line = existing.first;
    at = eddi_text_line_start(&doc->text, existing.first);
    end = existing.last + 1 <= doc->text.newlines
              ? eddi_text_line_start(&doc->text, existing.last + 1)
              : eddi_text_len(&doc->text);
  } else {
    at = end = eddi_text_line_start(&doc->text, line);
  }
  rc = eddi_doc_replace(doc, at, end, body.data, body.len, ctx->err);
  if (rc == 0) {
    size_t lines = eddi_lines_count(body.data, body.len);
    const char *noun = lines == 1 ? "line" : "lines";
    doc->cursor = at + body.len;
    if (!existing.found)
      eddi_reply_builder_fact(ctx->reply, "Inserted %zu %s at %zu", lines, noun, line);
    else if (append)
      eddi_reply_builder_fact(ctx->reply, "Appended to doc comment, %zu %s at %zu", lines, noun,
                              line);
    else
      eddi_reply_builder_fact(ctx->reply, "Replaced doc comment with %zu %s at %zu", lines, noun,
                              line);
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_strbuf_free(&words);
  eddi_strbuf_free(&body);
  eddi_free(indent);
  return rc;
}
