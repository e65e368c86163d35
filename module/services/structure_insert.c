/* structure_insert.c - Insert Function, Method, Class and Import.
 *
 * The model gives the text; where it goes and how it is spaced come from
 * the file: a method goes into the class at the cursor, indented like the
 * members there; a definition goes after the top-level element at the
 * cursor; an import after the last import (or after the file's header). The
 * blank lines between definitions are the language's (language.conf), and
 * blank lines already there count toward them. */
#include "services/structure.h"

#include "edit/import_place.h"

/* ---------------------------------------------------------------- helpers */

/* The first non-blank character of a line, or 0. */
static char insert__line_first(const EddiDoc *doc, size_t line) {
  size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
  for (size_t p = start; p < end; p++) {
    char c = eddi_text_byte_at(&doc->text, p);
    if (c != ' ' && c != '\t' && c != '\r') return c;
  }
  return 0;
}

/* Re-indent text (whose lines share some common indentation) to indent:
 * the common indentation goes, indent comes; blank lines stay empty. The
 * result ends with a newline. */
static void insert__reindent(StrBuf *out, const char *text, size_t len, const char *indent) {
  size_t common = SIZE_MAX;
  for (size_t i = 0; i < len;) {
    size_t eol = i;
    while (eol < len && text[eol] != '\n') eol++;
    size_t w = i;
    while (w < eol && (text[w] == ' ' || text[w] == '\t')) w++;
    if (w < eol && w - i < common) common = w - i;
    i = eol + 1;
  }
  if (common == SIZE_MAX) common = 0;
  for (size_t i = 0; i < len;) {
    size_t eol = i;
    while (eol < len && text[eol] != '\n') eol++;
    size_t w = i;
    while (w < eol && (text[w] == ' ' || text[w] == '\t' || text[w] == '\r')) w++;
    if (w < eol) {
      eddi_strbuf_puts(out, indent);
      size_t from = EDDI_MIN(i + common, eol);
      eddi_strbuf_append(out, text + from, eol - from);
    }
    eddi_strbuf_putc(out, '\n');
    i = eol + 1;
  }
}

/* The line after the element's last one. */
static size_t insert__line_after(const EddiDoc *doc, const EddiElement *e) {
  return eddi_structure_line_of(doc, eddi_structure_element_end(doc, e) - 1) + 1;
}

/* ---------------------------------------------------------------- Insert */

/* Make sure `want` blank lines separate the insertion from its neighbours:
 * blank lines already there count. before_ok / after_ok say whether the
 * neighbour wants separation at all (not after a class header, not before
 * a closing brace, not at the file's edges). */
static void insert__at_line(CommandContext *ctx, EddiDoc *doc, size_t line, const char *body,
                               size_t want_before, size_t want_after, int *rc) {
  size_t at = line <= doc->text.newlines ? eddi_text_line_start(&doc->text, line)
                                         : eddi_text_len(&doc->text);
  StrBuf text = {0};
  /* A file whose last line has no newline: give it one first. */
  if (at == eddi_text_len(&doc->text) && at > 0 && eddi_text_byte_at(&doc->text, at - 1) != '\n')
    eddi_strbuf_putc(&text, '\n'), line++;
  size_t blank_before = 0;
  for (size_t l = line;
       l > 0 && eddi_structure_line_blank(doc, l - 1) && l - 1 < doc->text.newlines; l--)
    blank_before++;
  size_t blank_after = 0;
  for (size_t l = line; l < doc->text.newlines && eddi_structure_line_blank(doc, l); l++)
    blank_after++;
  size_t added_before = want_before > blank_before ? want_before - blank_before : 0;
  for (size_t i = 0; i < added_before; i++) eddi_strbuf_putc(&text, '\n');
  eddi_strbuf_puts(&text, body);
  size_t cursor = at + text.len;
  size_t added_after = want_after > blank_after ? want_after - blank_after : 0;
  for (size_t i = 0; i < added_after; i++) eddi_strbuf_putc(&text, '\n');
  *rc = eddi_doc_replace(doc, at, at, text.data, text.len, ctx->err);
  if (*rc == 0) {
    doc->cursor = cursor;
    size_t lines = eddi_lines_count(text.data, text.len);
    eddi_reply_builder_fact(ctx->reply, "Inserted %zu %s at %zu", lines,
                            lines == 1 ? "line" : "lines", eddi_structure_line_of(doc, at));
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_strbuf_free(&text);
}

/* The class an Insert Method at the cursor goes into: the innermost one
 * holding the cursor, or one that ends just before it (Goto EndOfClass). */
static int insert__class_at(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn) {
  unsigned classes = EDDI_ELEMENT_CLASS | EDDI_ELEMENT_IMPL;
  int best = eddi_syntax_innermost(syn, doc->cursor, classes);
  if (best >= 0) return best;
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (!(e->kind & classes) || e->end > doc->cursor) continue;
    bool between_blank = true;
    for (size_t p = e->end; p < doc->cursor && between_blank; p++) {
      char c = eddi_text_byte_at(&doc->text, p);
      between_blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
    if (between_blank) best = (int)i;
  }
  EDDI_UNUSED(ctx);
  return best;
}

static int insert__definition(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, int kind,
                                 const Token *text) {
  const EddiLang *lang = syn->lang;
  bool method = kind == 1;
  int cls = insert__class_at(ctx, doc, syn);
  if (method && cls < 0) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "Not in class");
    eddi_error_hint(ctx->err, "Goto Class <name> first");
    return EDDI_ENOENT;
  }
  if (!method) cls = -1; /* Function and Class go to the top level */
  size_t line;
  char *indent;
  size_t blanks;
  if (cls >= 0) {
    EddiElement *c = &syn->elements.items[cls];
    int rc = eddi_structure_refuse_errors(ctx, doc, c);
    if (rc < 0) return rc;
    /* Members are indented like the first member, else one level in. */
    int first_member = -1, member_at = -1;
    for (size_t i = (size_t)cls + 1; i < syn->elements.len; i++) {
      EddiElement *m = &syn->elements.items[i];
      if (m->start >= c->end) break;
      if (m->parent != cls) continue;
      if (first_member < 0) first_member = (int)i;
      if (m->start <= doc->cursor && doc->cursor < eddi_structure_element_end(doc, m))
        member_at = (int)i;
    }
    if (first_member >= 0) {
      indent = eddi_structure_indent_of_line(
          doc, eddi_structure_line_of(doc, syn->elements.items[first_member].start));
    } else {
      char *outer = eddi_structure_indent_of_line(doc, eddi_structure_line_of(doc, c->start));
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s%s", outer, lang->indent);
      eddi_free(outer);
      indent = eddi_strbuf_take(&b);
    }
    size_t last = eddi_structure_line_of(doc, c->end);
    if (member_at >= 0)
      line = insert__line_after(doc, &syn->elements.items[member_at]);
    else if (doc->cursor > c->start && doc->cursor <= c->end &&
             eddi_structure_line_of(doc, doc->cursor) > eddi_structure_line_of(doc, c->start))
      line = eddi_structure_line_of(doc, doc->cursor);
    else
      line = last + 1;
    /* A class closed by a bracket on its own last line: go before it. */
    char close = insert__line_first(doc, last);
    if (line > last && (close == '}' || close == ')' || close == ']') &&
        last > eddi_structure_line_of(doc, c->start))
      line = last;
    blanks = lang->blank_lines_member;
  } else {
    int outer = eddi_syntax_innermost(syn, doc->cursor, ~0u);
    while (outer >= 0 && syn->elements.items[outer].parent >= 0)
      outer = syn->elements.items[outer].parent;
    line = outer >= 0 ? insert__line_after(doc, &syn->elements.items[outer])
                      : eddi_structure_line_of(doc, doc->cursor);
    indent = eddi_strdup("");
    blanks = lang->blank_lines;
  }
  /* Separation: none after an opening line or at the file start; none
   * before a closing bracket or at the file end. */
  size_t prev = line;
  while (prev > 0 && eddi_structure_line_blank(doc, prev - 1)) prev--;
  size_t want_before = blanks;
  if (prev == 0) want_before = 0;
  else {
    char last_char = 0;
    size_t l = prev - 1;
    size_t s = eddi_text_line_start(&doc->text, l), e = eddi_text_line_end(&doc->text, l);
    for (size_t p = s; p < e; p++) {
      char ch = eddi_text_byte_at(&doc->text, p);
      if (ch != ' ' && ch != '\t' && ch != '\r') last_char = ch;
    }
    if (cls >= 0 && l == eddi_structure_line_of(doc, syn->elements.items[cls].start))
      want_before = 0;
    if (last_char == '{') want_before = 0;
  }
  size_t next = line;
  while (next < doc->text.newlines && eddi_structure_line_blank(doc, next)) next++;
  size_t want_after = blanks;
  char first = next <= doc->text.newlines ? insert__line_first(doc, next) : 0;
  if (first == 0 || first == '}' || first == ')' || first == ']') want_after = 0;
  if (cls >= 0 && next > eddi_structure_line_of(doc, syn->elements.items[cls].end)) want_after = 0;
  StrBuf body = {0};
  insert__reindent(&body, text->text, text->len, indent);
  int rc = 0;
  insert__at_line(ctx, doc, line, body.data, want_before, want_after, &rc);
  eddi_strbuf_free(&body);
  eddi_free(indent);
  return rc;
}

/* Where and in what form is edit/import_place.c's, as for a script's add
 * import; the blank lines around it are made as for a definition. */
static int insert__import(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn,
                             const Token *text) {
  size_t len = eddi_text_len(&doc->text);
  char *bytes = eddi_text_dup(&doc->text, 0, len);
  EddiImportPlan plan;
  EddiImportFile into = {syn->lang, syn, doc->path, bytes, len, NULL, 0};
  StrBuf package = {0};
  if (doc->path && eddi_import_read_package(eddi_workspace_root_fd(ctx->workspace), doc->path,
                                            &package))
    into.package_json = package.data ? package.data : "", into.package_json_len = package.len;
  int rc = eddi_import_plan(&plan, &into, text->text, text->len, ctx->err);
  eddi_strbuf_free(&package);
  eddi_free(bytes);
  if (rc < 0) return rc;
  if (plan.present != EDDI_IMPORT_ABSENT) {
    doc->cursor = plan.present;
    size_t line, col;
    eddi_structure_position(doc, plan.present, &line, &col);
    eddi_reply_builder_fact(ctx->reply, "Import already present at %zu", line);
    eddi_command_fact_cursor(ctx, doc);
    eddi_import_plan_free(&plan);
    return 0;
  }
  /* A last line without a newline is a line of its own: the import goes
   * after it. */
  size_t line = plan.at < len || len == 0 || eddi_text_byte_at(&doc->text, len - 1) == '\n'
                    ? eddi_text_line_at(&doc->text, plan.at)
                    : doc->text.newlines + 1;
  size_t want_after = plan.blank_after ? 1 : 0;
  if (eddi_structure_line_blank(doc, line) && line >= doc->text.newlines) want_after = 0;
  StrBuf body = {0};
  insert__reindent(&body, plan.line, strlen(plan.line), "");
  insert__at_line(ctx, doc, line, body.data, plan.blank_before ? 1 : 0, want_after, &rc);
  eddi_strbuf_free(&body);
  eddi_import_plan_free(&plan);
  return rc;
}

int eddi_structure_insert(CommandContext *ctx) {
  static const char *const kinds[] = {"Function", "Method", "Class", "Import"};
  int kind = -1;
  for (int i = 0; i < 4; i++)
    if (eddi_token_is(&ctx->args[0], kinds[i])) kind = i;
  if (kind < 0) return 1;
  if (ctx->argc != 2 || ctx->args[1].kind != TOKEN_STRING)
    return eddi_command_usage(ctx, "Insert %s needs one \"quoted text\"", kinds[kind]);
  if (ctx->args[1].len == 0) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Nothing to insert");
    eddi_error_hint(ctx->err, "The \"text\" is empty");
    return EDDI_EINVAL;
  }
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  if (kind == 3) return insert__import(ctx, doc, syn, &ctx->args[1]);
  return insert__definition(ctx, doc, syn, kind, &ctx->args[1]);
}

