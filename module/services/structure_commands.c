/* structure_commands.c - commands over the code's structure (tree-sitter).
 *
 * Goto, Show, Insert and Delete hand their structural targets here
 * (structure.h); Modify, Analyze, Validate, Comment and Format live here
 * whole. Everything language-specific comes from module/syntax/ (queries and
 * language.conf): this file speaks of elements, spans and lines only.
 *
 * Edits by element refuse to act on an element that holds a parse error:
 * where the tree is wrong, the element's extent is a guess. */
#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/path.h"
#include "services/structure.h"
#include "lang/suggest.h"
#include "syntax/syntax.h"

/* Limits: lines an outline or an issue list names before it says "and N
 * more"; the issue thresholds of the issue list. */
#define STRUCTURE_LIST_MAX 50
#define STRUCTURE_LONG_FUNCTION_LINES 50
#define STRUCTURE_DEEP_NESTING 4
#define STRUCTURE_MANY_PARAMS 5
#define STRUCTURE_FORMAT_MAX_BYTES ((size_t)16 << 20)

/* ---------------------------------------------------------------- helpers */

static int st__syntax(CommandContext *ctx, EddiDoc *doc, EddiSyntax **syn) {
  return eddi_syntax_get(doc, ctx->engine->config.max_syntax_bytes, syn, ctx->err);
}

static size_t st__line_of(const EddiDoc *doc, size_t offset) {
  return eddi_text_line_at(&doc->text, offset);
}

static void st__position(const EddiDoc *doc, size_t offset, size_t *line, size_t *col) {
  eddi_text_position_of(&doc->text, offset, line, col);
}

/* Start of the line after the one holding offset (or the text end). */
static size_t st__after_line(const EddiDoc *doc, size_t offset) {
  size_t line = st__line_of(doc, offset);
  if (line + 1 <= doc->text.newlines) return eddi_text_line_start(&doc->text, line + 1);
  return eddi_text_len(&doc->text);
}

/* Where an element's last line ends, newline included. An element ending at
 * a line start (a block that took its newline) ends there. */
static size_t st__element_end(const EddiDoc *doc, const EddiElement *e) {
  size_t end = e->end;
  if (end > e->start && end > 0 && eddi_text_byte_at(&doc->text, end - 1) == '\n') return end;
  return st__after_line(doc, end);
}

/* The leading whitespace of a line, as a new string. */
static char *st__indent_of_line(const EddiDoc *doc, size_t line) {
  size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
  size_t p = start;
  while (p < end) {
    char c = eddi_text_byte_at(&doc->text, p);
    if (c != ' ' && c != '\t') break;
    p++;
  }
  return eddi_text_dup(&doc->text, start, p);
}

static bool st__line_blank(const EddiDoc *doc, size_t line) {
  size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
  for (size_t p = start; p < end; p++) {
    char c = eddi_text_byte_at(&doc->text, p);
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

/* The first non-blank character of a line, or 0. */
static char st__line_first(const EddiDoc *doc, size_t line) {
  size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
  for (size_t p = start; p < end; p++) {
    char c = eddi_text_byte_at(&doc->text, p);
    if (c != ' ' && c != '\t' && c != '\r') return c;
  }
  return 0;
}

static size_t st__count_lines(const char *text, size_t len) {
  size_t lines = 0;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  return lines + (len && text[len - 1] != '\n');
}

static bool st__is_ident(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (unsigned char)c >= 0x80;
}

/* Re-indent text (whose lines share some common indentation) to indent:
 * the common indentation goes, indent comes; blank lines stay empty. The
 * result ends with a newline. */
static void st__reindent(StrBuf *out, const char *text, size_t len, const char *indent) {
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

/* ---------------------------------------------------------------- targets */

typedef struct {
  unsigned kinds;
  const char *word; /* "Function" as the user wrote the kind */
  char *name;
  char *owner;
  char *params; /* NULL when no parameter list was given */
} StTarget;

static void st__target_free(StTarget *self) {
  eddi_free(self->name), eddi_free(self->owner), eddi_free(self->params);
}

static const char *const st__kind_words[] = {"Function", "Method", "Class", "Variable"};
static const unsigned st__kind_masks[] = {
    EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD, EDDI_ELEMENT_METHOD, EDDI_ELEMENT_CLASS,
    EDDI_ELEMENT_VARIABLE};

static int st__kind_word(const Token *token) {
  for (int i = 0; i < 4; i++)
    if (eddi_token_is(token, st__kind_words[i])) return i;
  return -1;
}

/* Parse "Function name[(params)]", "Method C.m", "Class n" from args[at];
 * *next receives the index after it. The parameter list may span tokens:
 * "f(a, b)" lexes as "f(a," and "b)". */
static int st__parse_target(CommandContext *ctx, size_t at, StTarget *out, size_t *next) {
  memset(out, 0, sizeof *out);
  int k = at < ctx->argc ? st__kind_word(&ctx->args[at]) : -1;
  if (k < 0) return eddi_command_usage(ctx, "%s needs Function, Method, Class or Variable", ctx->spec->name);
  out->kinds = st__kind_masks[k];
  out->word = st__kind_words[k];
  if (at + 1 >= ctx->argc) return eddi_command_usage(ctx, "%s %s needs a name", ctx->spec->name, out->word);
  StrBuf whole = {0};
  size_t i = at + 1;
  char *first = eddi_command_token_string(&ctx->args[i++]);
  eddi_strbuf_puts(&whole, first);
  eddi_free(first);
  if (strchr(whole.data, '(') && !strchr(whole.data, ')')) {
    while (i < ctx->argc) {
      char *more = eddi_command_token_string(&ctx->args[i++]);
      eddi_strbuf_putc(&whole, ' ');
      eddi_strbuf_puts(&whole, more);
      bool closed = strchr(more, ')') != NULL;
      eddi_free(more);
      if (closed) break;
    }
  }
  *next = i;
  char *text = whole.data;
  char *paren = strchr(text, '(');
  if (paren) {
    out->params = eddi_strdup(paren);
    *paren = '\0';
  }
  char *dot = strrchr(text, '.');
  if (dot && k != 3) {
    *dot = '\0';
    out->owner = eddi_strdup(text);
    out->name = eddi_strdup(dot + 1);
    out->kinds &= EDDI_ELEMENT_METHOD;
    if (!out->kinds) out->kinds = EDDI_ELEMENT_METHOD;
  } else {
    out->name = eddi_strdup(text);
  }
  eddi_strbuf_free(&whole);
  if (!*out->name || (out->owner && !*out->owner)) {
    st__target_free(out);
    return eddi_command_usage(ctx, "%s needs a name", st__kind_words[k]);
  }
  return 0;
}

/* The one element a target names: "not found" with the nearest name, or
 * "Ambiguous match" with every candidate and its position. */
static int st__resolve(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, const StTarget *t,
                       EddiElement **out) {
  EddiIndexList found = {0};
  eddi_syntax_find(syn, &doc->text, t->kinds, t->name, t->owner, t->params, &found);
  if (found.len == 1) {
    *out = &syn->elements.items[found.items[0]];
    array_free(&found);
    return 0;
  }
  if (found.len == 0) {
    array_free(&found);
    char *shown = t->owner ? NULL : eddi_strdup(t->name);
    if (t->owner) {
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s.%s", t->owner, t->name);
      shown = eddi_strbuf_take(&b);
    }
    eddi_error_set(ctx->err, EDDI_ENOENT, "%s %s%s not found", t->word, shown,
                   t->params ? t->params : "");
    Array(const char *) names = {0};
    for (size_t i = 0; i < syn->elements.len; i++)
      if (syn->elements.items[i].kind & t->kinds) array_push(&names, syn->elements.items[i].name);
    const char *near = eddi_suggest(t->name, names.items, names.len);
    if (near) eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
    array_free(&names);
    eddi_free(shown);
    return EDDI_ENOENT;
  }
  StrBuf hint = {0};
  eddi_strbuf_puts(&hint, "Candidates ");
  for (size_t i = 0; i < found.len; i++) {
    const EddiElement *e = &syn->elements.items[found.items[i]];
    size_t line, col;
    st__position(doc, e->start, &line, &col);
    char *display = eddi_element_display(e);
    char *params = e->has_params ? eddi_text_dup(&doc->text, e->params_start, e->params_end)
                                 : eddi_strdup("");
    eddi_strbuf_printf(&hint, "%s%s %s%s at %zu:%zu", i ? ", " : "", eddi_element_kind_name(e->kind),
                  display, params, line, col);
    eddi_free(display), eddi_free(params);
  }
  eddi_error_set(ctx->err, EDDI_EINVAL, "Ambiguous match");
  eddi_error_hint(ctx->err, "%s", hint.data);
  eddi_strbuf_free(&hint);
  array_free(&found);
  return EDDI_EINVAL;
}

/* Refuse to edit an element the parser could not read whole. */
static int st__refuse_errors(CommandContext *ctx, EddiDoc *doc, const EddiElement *e) {
  size_t at;
  if (!eddi_syntax_element_error(e, &at)) return 0;
  size_t line, col;
  st__position(doc, at, &line, &col);
  char *display = eddi_element_display(e);
  eddi_error_set(ctx->err, EDDI_EINVAL, "%s %s has syntax errors at %zu:%zu",
                 eddi_element_kind_name(e->kind), display, line, col);
  eddi_error_hint(ctx->err, "Fix them first (Validate lists them)");
  eddi_free(display);
  return EDDI_EINVAL;
}

/* Where deleting or commenting an element starts: its first line, after
 * pulling in the decorators and comments directly above it. */
static size_t st__extent_start(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e) {
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  size_t start = e->start;
  for (bool moved = true; moved;) {
    moved = false;
    const Array(EddiSpan) *lists[] = {(void *)&d->decorators, (void *)&d->comments};
    for (size_t l = 0; l < 2 && !moved; l++) {
      for (size_t i = 0; i < lists[l]->len; i++) {
        EddiSpan s = lists[l]->items[i];
        if (s.end > start || s.start >= start) continue;
        /* Only whitespace between, and at most one line break. */
        size_t breaks = 0;
        bool clean = true;
        for (size_t p = s.end; p < start && clean; p++) {
          char c = eddi_text_byte_at(&doc->text, p);
          if (c == '\n') breaks++;
          else if (c != ' ' && c != '\t' && c != '\r') clean = false;
        }
        if (clean && breaks <= 1 && (l == 0 || breaks == 1 || s.start < e->start)) {
          /* A comment at the end of the previous statement's line is not ours. */
          size_t line = st__line_of(doc, s.start);
          size_t first = eddi_text_line_start(&doc->text, line);
          bool alone = true;
          for (size_t p = first; p < s.start; p++) {
            char c = eddi_text_byte_at(&doc->text, p);
            if (c != ' ' && c != '\t') alone = false;
          }
          if (!alone) continue;
          start = s.start;
          moved = true;
          break;
        }
      }
    }
  }
  return eddi_text_line_start(&doc->text, st__line_of(doc, start));
}

/* ---------------------------------------------------------------- Goto / Show */

int eddi_structure_goto(CommandContext *ctx) {
  static const char *const edges[] = {"StartOfFunction", "EndOfFunction", "StartOfClass",
                                      "EndOfClass"};
  EddiDoc *doc = ctx->session->current;
  const Token *target = &ctx->args[0];
  int edge = -1;
  for (int i = 0; i < 4; i++)
    if (eddi_token_is(target, edges[i])) edge = i;
  if (edge < 0 && st__kind_word(target) < 0) return 1;
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  EddiElement *e = NULL;
  if (edge >= 0) {
    if (ctx->argc != 1) return eddi_command_usage(ctx, "Goto %s takes no argument", edges[edge]);
    unsigned kinds = edge < 2 ? EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD
                              : EDDI_ELEMENT_CLASS | EDDI_ELEMENT_IMPL;
    int i = eddi_syntax_innermost(syn, doc->cursor, kinds);
    if (i < 0)
      return eddi_error_set(ctx->err, EDDI_ENOENT, edge < 2 ? "Not in function" : "Not in class");
    e = &syn->elements.items[i];
    doc->cursor = edge % 2 == 0 ? e->start : st__element_end(doc, e);
  } else {
    StTarget t;
    size_t next;
    rc = st__parse_target(ctx, 0, &t, &next);
    if (rc < 0) return rc;
    if (next != ctx->argc) rc = eddi_command_usage(ctx, "Goto %s takes one name", t.word);
    if (rc == 0) rc = st__resolve(ctx, doc, syn, &t, &e);
    st__target_free(&t);
    if (rc < 0) return rc;
    doc->cursor = e->start;
  }
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

int eddi_structure_show(CommandContext *ctx) {
  if (st__kind_word(&ctx->args[0]) < 0) return 1;
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  StTarget t;
  size_t next;
  rc = st__parse_target(ctx, 0, &t, &next);
  if (rc < 0) return rc;
  size_t context = 0;
  bool with_context = false;
  if (next < ctx->argc) {
    if (ctx->args[next].kind != TOKEN_INT || next + 1 < ctx->argc)
      rc = eddi_command_usage(ctx, "Show's context must be a number of lines");
    else
      context = (size_t)ctx->args[next].first, with_context = true;
  }
  EddiElement *e = NULL;
  if (rc == 0) rc = st__resolve(ctx, doc, syn, &t, &e);
  st__target_free(&t);
  if (rc < 0) return rc;
  size_t line, col;
  st__position(doc, e->start, &line, &col);
  size_t from = e->start, to = e->end;
  if (with_context) {
    size_t first = st__line_of(doc, e->start), last = st__line_of(doc, e->end);
    first = first > context ? first - context : 0;
    last = EDDI_MIN(doc->text.newlines, last + context);
    from = eddi_text_line_start(&doc->text, first);
    to = eddi_text_line_end(&doc->text, last);
    eddi_reply_builder_payload(ctx->reply, "At %zu:%zu, Lines %zu:%zu", line, col, first, last);
  } else {
    eddi_reply_builder_payload(ctx->reply, "At %zu:%zu", line, col);
  }
  char *text = eddi_text_dup(&doc->text, from, to);
  eddi_reply_builder_text(ctx->reply, "Txt", text, to - from);
  eddi_free(text);
  doc->cursor = e->start;
  return 0;
}

/* ---------------------------------------------------------------- Insert */

/* Make sure `want` blank lines separate the insertion from its neighbours:
 * blank lines already there count. before_ok / after_ok say whether the
 * neighbour wants separation at all (not after a class header, not before
 * a closing brace, not at the file's edges). */
static void st__insert_at_line(CommandContext *ctx, EddiDoc *doc, size_t line, const char *body,
                               size_t want_before, size_t want_after, int *rc) {
  size_t at = line <= doc->text.newlines ? eddi_text_line_start(&doc->text, line)
                                         : eddi_text_len(&doc->text);
  StrBuf text = {0};
  /* A file whose last line has no newline: give it one first. */
  if (at == eddi_text_len(&doc->text) && at > 0 && eddi_text_byte_at(&doc->text, at - 1) != '\n')
    eddi_strbuf_putc(&text, '\n'), line++;
  size_t blank_before = 0;
  for (size_t l = line; l > 0 && st__line_blank(doc, l - 1) && l - 1 < doc->text.newlines; l--)
    blank_before++;
  size_t blank_after = 0;
  for (size_t l = line; l < doc->text.newlines && st__line_blank(doc, l); l++) blank_after++;
  size_t added_before = want_before > blank_before ? want_before - blank_before : 0;
  for (size_t i = 0; i < added_before; i++) eddi_strbuf_putc(&text, '\n');
  eddi_strbuf_puts(&text, body);
  size_t cursor = at + text.len;
  size_t added_after = want_after > blank_after ? want_after - blank_after : 0;
  for (size_t i = 0; i < added_after; i++) eddi_strbuf_putc(&text, '\n');
  *rc = eddi_doc_replace(doc, at, at, text.data, text.len, ctx->err);
  if (*rc == 0) {
    doc->cursor = cursor;
    size_t lines = st__count_lines(text.data, text.len);
    eddi_reply_builder_fact(ctx->reply, "Inserted %zu %s at %zu", lines, lines == 1 ? "line" : "lines",
               st__line_of(doc, at));
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_strbuf_free(&text);
}

/* The class an Insert Method at the cursor goes into: the innermost one
 * holding the cursor, or one that ends just before it (Goto EndOfClass). */
static int st__class_at(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn) {
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

static int st__insert_definition(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, int kind,
                                 const Token *text) {
  const EddiLang *lang = syn->lang;
  bool method = kind == 1;
  int cls = st__class_at(ctx, doc, syn);
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
    int rc = st__refuse_errors(ctx, doc, c);
    if (rc < 0) return rc;
    /* Members are indented like the first member, else one level in. */
    int first_member = -1, member_at = -1;
    for (size_t i = (size_t)cls + 1; i < syn->elements.len; i++) {
      EddiElement *m = &syn->elements.items[i];
      if (m->start >= c->end) break;
      if (m->parent != cls) continue;
      if (first_member < 0) first_member = (int)i;
      if (m->start <= doc->cursor && doc->cursor < st__element_end(doc, m)) member_at = (int)i;
    }
    if (first_member >= 0) {
      indent = st__indent_of_line(doc, st__line_of(doc, syn->elements.items[first_member].start));
    } else {
      char *outer = st__indent_of_line(doc, st__line_of(doc, c->start));
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s%s", outer, lang->indent);
      eddi_free(outer);
      indent = eddi_strbuf_take(&b);
    }
    size_t last = st__line_of(doc, c->end);
    if (member_at >= 0)
      line = st__line_of(doc, st__element_end(doc, &syn->elements.items[member_at]) - 1) + 1;
    else if (doc->cursor > c->start && doc->cursor <= c->end &&
             st__line_of(doc, doc->cursor) > st__line_of(doc, c->start))
      line = st__line_of(doc, doc->cursor);
    else
      line = last + 1;
    /* A class closed by a bracket on its own last line: go before it. */
    char close = st__line_first(doc, last);
    if (line > last && (close == '}' || close == ')' || close == ']') && last > st__line_of(doc, c->start))
      line = last;
    blanks = lang->blank_lines_member;
  } else {
    int outer = eddi_syntax_innermost(syn, doc->cursor, ~0u);
    while (outer >= 0 && syn->elements.items[outer].parent >= 0)
      outer = syn->elements.items[outer].parent;
    line = outer >= 0 ? st__line_of(doc, st__element_end(doc, &syn->elements.items[outer]) - 1) + 1
                      : st__line_of(doc, doc->cursor);
    indent = eddi_strdup("");
    blanks = lang->blank_lines;
  }
  /* Separation: none after an opening line or at the file start; none
   * before a closing bracket or at the file end. */
  size_t prev = line;
  while (prev > 0 && st__line_blank(doc, prev - 1)) prev--;
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
    if (cls >= 0 && l == st__line_of(doc, syn->elements.items[cls].start)) want_before = 0;
    if (last_char == '{') want_before = 0;
  }
  size_t next = line;
  while (next < doc->text.newlines && st__line_blank(doc, next)) next++;
  size_t want_after = blanks;
  char first = next <= doc->text.newlines ? st__line_first(doc, next) : 0;
  if (first == 0 || first == '}' || first == ')' || first == ']') want_after = 0;
  if (cls >= 0 && next > st__line_of(doc, syn->elements.items[cls].end)) want_after = 0;
  StrBuf body = {0};
  st__reindent(&body, text->text, text->len, indent);
  int rc = 0;
  st__insert_at_line(ctx, doc, line, body.data, want_before, want_after, &rc);
  eddi_strbuf_free(&body);
  eddi_free(indent);
  return rc;
}

static int st__insert_import(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn,
                             const Token *text) {
  /* The import as one trimmed line (or lines): compare with the ones there. */
  const char *s = text->text;
  size_t len = text->len;
  while (len && (s[len - 1] == '\n' || s[len - 1] == ' ')) len--;
  while (len && (*s == ' ' || *s == '\t')) s++, len--;
  int last = -1;
  for (size_t i = 0; i < syn->elements.len; i++) {
    EddiElement *e = &syn->elements.items[i];
    if (e->kind != EDDI_ELEMENT_IMPORT || e->parent >= 0) continue;
    last = (int)i;
    size_t el = e->end - e->start;
    char *have = eddi_text_dup(&doc->text, e->start, e->end);
    while (el && (have[el - 1] == '\n' || have[el - 1] == ' ' || have[el - 1] == ';')) el--;
    size_t wl = len;
    while (wl && s[wl - 1] == ';') wl--;
    bool same = el == wl && memcmp(have, s, wl) == 0;
    eddi_free(have);
    if (same) {
      doc->cursor = e->start;
      size_t line, col;
      st__position(doc, e->start, &line, &col);
      eddi_reply_builder_fact(ctx->reply, "Import already present at %zu", line);
      eddi_command_fact_cursor(ctx, doc);
      return 0;
    }
  }
  size_t line = 0;
  size_t want_after = 0;
  if (last >= 0) {
    line = st__line_of(doc, st__element_end(doc, &syn->elements.items[last]) - 1) + 1;
  } else {
    /* No imports yet: after the header (shebang, leading comments, a
     * package line), then one blank line before the code. */
    const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
    size_t header_end = 0;
    for (bool moved = true; moved;) {
      moved = false;
      while (line < doc->text.newlines && st__line_blank(doc, line)) line++;
      size_t at = eddi_text_line_start(&doc->text, line);
      if (at < eddi_text_len(&doc->text) && eddi_text_byte_at(&doc->text, at) == '#' &&
          at + 1 < eddi_text_len(&doc->text) && eddi_text_byte_at(&doc->text, at + 1) == '!') {
        line++, header_end = line, moved = true;
        continue;
      }
      for (size_t i = 0; i < d->comments.len; i++)
        if (d->comments.items[i].start == at) {
          line = st__line_of(doc, d->comments.items[i].end) + 1;
          if (d->comments.items[i].end > 0 &&
              eddi_text_byte_at(&doc->text, d->comments.items[i].end - 1) == '\n')
            line--;
          header_end = line, moved = true;
          break;
        }
      if (!moved && line < doc->text.newlines + 1) {
        char *row = eddi_text_dup(&doc->text, at, eddi_text_line_end(&doc->text, line));
        if (strncmp(row, "package ", 8) == 0) line++, header_end = line, moved = true;
        eddi_free(row);
      }
    }
    line = header_end;
    want_after = 1;
  }
  StrBuf body = {0};
  st__reindent(&body, s, len, "");
  int rc = 0;
  size_t want_before = last < 0 && line > 0 ? 1 : 0;
  if (st__line_blank(doc, line) && line >= doc->text.newlines) want_after = 0;
  st__insert_at_line(ctx, doc, line, body.data, want_before, want_after, &rc);
  eddi_strbuf_free(&body);
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
  if (ctx->args[1].len == 0) return eddi_error_set(ctx->err, EDDI_EINVAL, "Nothing to insert");
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  if (kind == 3) return st__insert_import(ctx, doc, syn, &ctx->args[1]);
  return st__insert_definition(ctx, doc, syn, kind, &ctx->args[1]);
}

/* ---------------------------------------------------------------- Delete */

int eddi_structure_delete(CommandContext *ctx) {
  int k = st__kind_word(&ctx->args[0]);
  if (k < 0) return 1;
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  StTarget t;
  size_t next;
  rc = st__parse_target(ctx, 0, &t, &next);
  if (rc < 0) return rc;
  if (next != ctx->argc) rc = eddi_command_usage(ctx, "Delete %s takes one name", t.word);
  EddiElement *e = NULL;
  if (rc == 0) rc = st__resolve(ctx, doc, syn, &t, &e);
  st__target_free(&t);
  if (rc < 0) return rc;
  rc = st__refuse_errors(ctx, doc, e);
  if (rc < 0) return rc;
  size_t start = st__extent_start(doc, syn, e);
  size_t end = st__element_end(doc, e);
  size_t first = st__line_of(doc, start);
  size_t last = st__line_of(doc, end - 1);
  /* Take one separator with it, so the spacing around stays as it was:
   * the blank lines above it when there are blank lines below (or nothing
   * below) too, else at the top of the file the blank lines below. */
  size_t below = last + 1;
  while (below < doc->text.newlines && st__line_blank(doc, below)) below++;
  bool blank_below = below > last + 1 || end == eddi_text_len(&doc->text);
  if (first > 0 && st__line_blank(doc, first - 1) && blank_below) {
    while (first > 0 && st__line_blank(doc, first - 1)) first--;
    start = eddi_text_line_start(&doc->text, first);
  } else if (first == 0 && below > last + 1) {
    end = eddi_text_line_start(&doc->text, below);
  }
  size_t lines = st__line_of(doc, end) - first;
  if (end == eddi_text_len(&doc->text) && end > 0 &&
      eddi_text_byte_at(&doc->text, end - 1) != '\n')
    lines++;
  rc = eddi_doc_replace(doc, start, end, "", 0, ctx->err);
  if (rc < 0) return rc;
  eddi_command_goto_line(doc, first);
  eddi_reply_builder_fact(ctx->reply, "Deleted %zu %s", lines, lines == 1 ? "line" : "lines");
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

/* ---------------------------------------------------------------- Modify */

typedef struct {
  size_t start, end;
  char *text;
} StEdit;

typedef Array(StEdit) StEditList;

static void st__edit(StEditList *edits, size_t start, size_t end, const char *text, size_t len) {
  StEdit e = {start, end, eddi_strndup(text, len)};
  array_push(edits, e);
}

static int st__by_start_desc(const void *a, const void *b) {
  const StEdit *x = a, *y = b;
  return x->start < y->start ? 1 : x->start > y->start ? -1 : 0;
}

/* Apply edits from the last to the first, so offsets stay valid; all or
 * nothing. */
static int st__apply(CommandContext *ctx, EddiDoc *doc, StEditList *edits) {
  qsort(edits->items, edits->len, sizeof *edits->items, st__by_start_desc);
  int rc = 0;
  for (size_t i = 0; i < edits->len && rc == 0; i++) {
    StEdit *e = &edits->items[i];
    if (i > 0 && e->end > edits->items[i - 1].start) continue; /* overlapping: keep the later */
    rc = eddi_doc_replace(doc, e->start, e->end, e->text, strlen(e->text), ctx->err);
  }
  if (rc < 0) eddi_doc_revert_group(doc);
  for (size_t i = 0; i < edits->len; i++) eddi_free(edits->items[i].text);
  array_free(edits);
  return rc;
}

/* Rename an element and the calls of it in this file. */
static void st__rename_edits(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e,
                             const char *new_name, StEditList *edits, size_t *calls) {
  st__edit(edits, e->name_start, e->name_end, new_name, strlen(new_name));
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  size_t len = e->name_end - e->name_start;
  for (size_t i = 0; i < d->calls.len; i++) {
    EddiSpan s = d->calls.items[i];
    if (s.end - s.start != len) continue;
    char *name = eddi_text_dup(&doc->text, s.start, s.end);
    if (strcmp(name, e->name) == 0) st__edit(edits, s.start, s.end, new_name, strlen(new_name)), (*calls)++;
    eddi_free(name);
  }
}

/* The parameter node among the element's parameter list that declares
 * name: its text is the name, or starts or ends with it as a whole word
 * ("x=1", "x: int", "int x", "char *x"). */
static bool st__find_param(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e, const char *name,
                           size_t *start, size_t *end) {
  TSNode root = ts_tree_root_node(syn->tree);
  TSNode params = ts_node_descendant_for_byte_range(root, (uint32_t)e->params_start,
                                                    (uint32_t)e->params_end);
  while (!ts_node_is_null(params) && (ts_node_start_byte(params) != e->params_start ||
                                      ts_node_end_byte(params) != e->params_end))
    params = ts_node_parent(params);
  if (ts_node_is_null(params)) return false;
  size_t n = strlen(name);
  uint32_t count = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(params, i);
    size_t s = ts_node_start_byte(child), t = ts_node_end_byte(child);
    char *text = eddi_text_dup(&doc->text, s, t);
    size_t len = t - s;
    bool match = (len == n && memcmp(text, name, n) == 0) ||
                 (len > n && memcmp(text, name, n) == 0 && !st__is_ident(text[n])) ||
                 (len > n && memcmp(text + len - n, name, n) == 0 && !st__is_ident(text[len - n - 1]));
    eddi_free(text);
    if (match) {
      *start = s, *end = t;
      return true;
    }
  }
  return false;
}

static int cmd_modify(CommandContext *ctx) {
  static const char *const changes[] = {"Rename",          "AddParam",     "RemoveParam",
                                        "ChangeSignature", "AddDecorator", "SetVisibility"};
  enum { RENAME, ADD_PARAM, REMOVE_PARAM, CHANGE_SIGNATURE, ADD_DECORATOR, SET_VISIBILITY };
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Modify needs a target and a change");
  StTarget t;
  size_t next;
  int rc = st__parse_target(ctx, 0, &t, &next);
  if (rc < 0) return rc;
  EddiSyntax *syn;
  EddiElement *e = NULL;
  rc = st__syntax(ctx, doc, &syn);
  if (rc == 0 && next >= ctx->argc) rc = eddi_command_usage(ctx, "Modify %s needs a change", t.word);
  int change = rc == 0 ? eddi_command_choose(ctx, &ctx->args[next], "change", changes, 6) : rc;
  if (change >= 0 && next + 2 != ctx->argc)
    change = eddi_command_usage(ctx, "Modify ... %s needs one argument", changes[change]);
  if (change >= 0) rc = st__resolve(ctx, doc, syn, &t, &e);
  st__target_free(&t);
  if (change < 0) return change;
  if (rc < 0) return rc;
  rc = st__refuse_errors(ctx, doc, e);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  const Token *arg = &ctx->args[next + 1];
  char *value = eddi_command_token_string(arg);
  StEditList edits = {0};
  size_t calls = 0;
  bool function = (e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD)) != 0;
  switch (change) {
  case RENAME: st__rename_edits(doc, syn, e, value, &edits, &calls); break;
  case ADD_PARAM:
  case REMOVE_PARAM:
  case CHANGE_SIGNATURE: {
    if (!function || !e->has_params) {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "%s %s has no parameter list",
                          eddi_element_kind_name(e->kind), e->name);
      break;
    }
    size_t ps = e->params_start, pe = e->params_end;
    bool parens = eddi_text_byte_at(&doc->text, ps) == '(' &&
                  eddi_text_byte_at(&doc->text, pe - 1) == ')';
    if (change == CHANGE_SIGNATURE) {
      StrBuf b = {0};
      bool given = value[0] == '(';
      if (!given) eddi_strbuf_putc(&b, '(');
      eddi_strbuf_puts(&b, value);
      if (!given) eddi_strbuf_putc(&b, ')');
      st__edit(&edits, ps, pe, b.data, b.len);
      eddi_strbuf_free(&b);
    } else if (!parens) {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "Parameters of %s are not in parentheses",
                          e->name);
    } else if (change == ADD_PARAM) {
      size_t at = pe - 1;
      while (at > ps + 1) {
        char c = eddi_text_byte_at(&doc->text, at - 1);
        if (c != ' ' && c != '\n' && c != '\t' && c != '\r') break;
        at--;
      }
      bool empty = at == ps + 1;
      bool trailing_comma = !empty && eddi_text_byte_at(&doc->text, at - 1) == ',';
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s%s", empty ? "" : trailing_comma ? " " : ", ", value);
      st__edit(&edits, at, at, b.data, b.len);
      eddi_strbuf_free(&b);
    } else {
      size_t s, f;
      if (!st__find_param(doc, syn, e, value, &s, &f)) {
        rc = eddi_error_set(ctx->err, EDDI_ENOENT, "No parameter %s in %s", value, e->name);
        break;
      }
      /* Take the comma after it, or else the one before it. */
      size_t p = f;
      while (p < pe && strchr(" \t\r\n", eddi_text_byte_at(&doc->text, p))) p++;
      if (p < pe && eddi_text_byte_at(&doc->text, p) == ',') {
        p++;
        while (p < pe - 1 && strchr(" \t", eddi_text_byte_at(&doc->text, p))) p++;
        f = p;
      } else {
        size_t q = s;
        while (q > ps + 1 && strchr(" \t\r\n", eddi_text_byte_at(&doc->text, q - 1))) q--;
        if (q > ps + 1 && eddi_text_byte_at(&doc->text, q - 1) == ',') s = q - 1;
      }
      st__edit(&edits, s, f, "", 0);
    }
    break;
  }
  case ADD_DECORATOR: {
    if (!lang->decorators) {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "No decorators in %s", lang->name);
      break;
    }
    size_t line = st__line_of(doc, e->start);
    char *indent = st__indent_of_line(doc, line);
    StrBuf b = {0};
    eddi_strbuf_printf(&b, "%s%s\n", indent, value);
    size_t at = eddi_text_line_start(&doc->text, line);
    st__edit(&edits, at, at, b.data, b.len);
    eddi_strbuf_free(&b);
    eddi_free(indent);
    break;
  }
  case SET_VISIBILITY: {
    static const char *const levels[] = {"public", "private", "protected"};
    int level = eddi_command_choose(ctx, arg, "visibility", levels, 3);
    if (level < 0) {
      rc = level;
      break;
    }
    const char *style = lang->visibility ? lang->visibility : "";
    if (strcmp(style, "prefix") == 0) {
      /* Python: the name says it. */
      const char *base = e->name;
      while (*base == '_') base++;
      bool dunder = strlen(base) >= 2 && strcmp(base + strlen(base) - 2, "__") == 0;
      if (dunder) {
        rc = eddi_error_set(ctx->err, EDDI_EINVAL, "%s is a special name", e->name);
        break;
      }
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s%s", level == 1 ? "__" : level == 2 ? "_" : "", base);
      if (strcmp(b.data, e->name) != 0) st__rename_edits(doc, syn, e, b.data, &edits, &calls);
      eddi_strbuf_free(&b);
    } else if (strcmp(style, "keyword") == 0 || strcmp(style, "static") == 0) {
      /* A modifier before the name: replace the one there, or add one. */
      bool is_static = strcmp(style, "static") == 0;
      if (is_static && level == 2) {
        rc = eddi_error_set(ctx->err, EDDI_EINVAL, "No protected in %s", lang->name);
        break;
      }
      const char *words[] = {"public", "private", "protected", "static"};
      size_t found_s = 0, found_e = 0;
      bool found = false;
      for (size_t p = e->start; p < e->name_start && !found;) {
        while (p < e->name_start && !st__is_ident(eddi_text_byte_at(&doc->text, p))) p++;
        size_t w = p;
        while (w < e->name_start && st__is_ident(eddi_text_byte_at(&doc->text, w))) w++;
        for (size_t k = is_static ? 3 : 0; k < (is_static ? 4u : 3u) && w > p; k++)
          if (w - p == strlen(words[k])) {
            char *word = eddi_text_dup(&doc->text, p, w);
            if (strcmp(word, words[k]) == 0) found = true, found_s = p, found_e = w;
            eddi_free(word);
          }
        p = w;
      }
      const char *want = is_static ? (level == 1 ? "static" : "") : levels[level];
      if (found) {
        size_t f = found_e;
        if (!*want) while (f < e->name_start && eddi_text_byte_at(&doc->text, f) == ' ') f++;
        st__edit(&edits, found_s, f, want, strlen(want));
      } else if (*want) {
        StrBuf b = {0};
        eddi_strbuf_printf(&b, "%s ", want);
        st__edit(&edits, e->start, e->start, b.data, b.len);
        eddi_strbuf_free(&b);
      }
    } else {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "No visibility in %s", lang->name);
    }
    break;
  }
  }
  size_t start = e->start;
  char *display = eddi_element_display(e);
  if (change == RENAME || change == SET_VISIBILITY) {
    /* Say the name it has now. */
    for (size_t i = 0; i < edits.len; i++)
      if (edits.items[i].start == e->name_start && edits.items[i].end == e->name_end) {
        eddi_free(display);
        EddiElement renamed = *e;
        renamed.name = edits.items[i].text;
        display = eddi_element_display(&renamed);
      }
  }
  if (rc == 0) rc = st__apply(ctx, doc, &edits);
  else {
    for (size_t i = 0; i < edits.len; i++) eddi_free(edits.items[i].text);
    array_free(&edits);
  }
  if (rc == 0) {
    doc->cursor = EDDI_MIN(start, eddi_text_len(&doc->text));
    eddi_reply_builder_fact(ctx->reply, "Modified %s", display);
    if (calls) eddi_reply_builder_fact(ctx->reply, "Calls %zu", calls);
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_free(display);
  eddi_free(value);
  return rc;
}

/* ---------------------------------------------------------------- Analyze */

typedef struct {
  size_t complexity;
  size_t depth;         /* deepest nesting */
  size_t depth_at;
  size_t params;
  size_t lines;
} StMetrics;

/* Whether span lies in element i and in no function nested in it. */
static bool st__owned_by(const EddiSyntax *syn, size_t i, size_t offset) {
  int inner = eddi_syntax_innermost(syn, offset, EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD);
  return inner == (int)i;
}

static StMetrics st__metrics(EddiDoc *doc, EddiSyntax *syn, size_t i) {
  const EddiElement *e = &syn->elements.items[i];
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  StMetrics m = {.complexity = 1};
  for (size_t k = 0; k < d->decisions.len; k++) {
    EddiSpan s = d->decisions.items[k];
    if (s.start >= e->start && s.end <= e->end && st__owned_by(syn, i, s.start)) m.complexity++;
  }
  for (size_t k = 0; k < d->nestings.len; k++) {
    EddiSpan s = d->nestings.items[k];
    if (s.start < e->start || s.end > e->end || !st__owned_by(syn, i, s.start)) continue;
    size_t depth = 1;
    for (size_t j = 0; j < d->nestings.len; j++) {
      EddiSpan o = d->nestings.items[j];
      if (j != k && o.start <= s.start && o.end >= s.end && o.start >= e->start &&
          (o.start < s.start || o.end > s.end))
        depth++;
    }
    if (depth > m.depth) m.depth = depth, m.depth_at = s.start;
  }
  if (e->has_params) {
    TSNode root = ts_tree_root_node(syn->tree);
    TSNode p = ts_node_descendant_for_byte_range(root, (uint32_t)e->params_start,
                                                 (uint32_t)e->params_end);
    while (!ts_node_is_null(p) && (ts_node_start_byte(p) != e->params_start ||
                                   ts_node_end_byte(p) != e->params_end))
      p = ts_node_parent(p);
    if (!ts_node_is_null(p)) {
      uint32_t n = ts_node_named_child_count(p);
      for (uint32_t k = 0; k < n; k++)
        if (!strstr(ts_node_type(ts_node_named_child(p, k)), "comment")) m.params++;
    }
  }
  m.lines = st__line_of(doc, e->end) - st__line_of(doc, e->start) + 1;
  return m;
}

static bool st__word_used(EddiDoc *doc, const char *word, size_t from, size_t to, size_t skip_s,
                          size_t skip_e) {
  size_t n = strlen(word);
  if (!n) return true;
  char *text = eddi_text_dup(&doc->text, from, to);
  size_t len = to - from;
  bool used = false;
  for (const char *p = text; !used && (p = memmem(p, len - (size_t)(p - text), word, n)); p++) {
    size_t at = from + (size_t)(p - text);
    if (at >= skip_s && at < skip_e) continue;
    bool left = p == text || !st__is_ident(p[-1]);
    bool right = (size_t)(p - text) + n >= len || !st__is_ident(p[n]);
    used = left && right;
  }
  eddi_free(text);
  return used;
}

/* Local when relative ("./x", ".x") or naming a file of the workspace
 * (beside the document or from the root, dots read as folders: foo.bar ->
 * foo/bar.py); else external. Quotes and angle brackets are not part of the
 * name; <x.h> is always external. */
static bool st__import_local(CommandContext *ctx, EddiDoc *doc, const char *module) {
  if (module[0] == '<') return false;
  char *name = eddi_strdup(module + (module[0] == '"' || module[0] == '\'' || module[0] == '`'));
  size_t n = strlen(name);
  if (n && (name[n - 1] == '"' || name[n - 1] == '\'' || name[n - 1] == '`')) name[--n] = '\0';
  bool found = name[0] == '.' || name[0] == '/';
  char *dir = eddi_strdup(doc->path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  else dir[0] = '\0';
  const EddiLang *lang = doc->syntax->lang;
  StrBuf dotted = {0};
  for (const char *p = name; *p; p++) eddi_strbuf_putc(&dotted, *p == '.' ? '/' : *p);
  for (int form = 0; form < 4 && !found; form++) {
    /* form 0-1: as written, beside the document / at the root; 2-3: dotted. */
    const char *rel = form < 2 ? name : dotted.data;
    bool beside = form % 2 == 0 && dir[0];
    for (size_t k = 0; k <= EDDI_LANG_LIST_MAX && !found; k++) {
      const char *ext = k == 0 ? "" : lang->extensions[k - 1];
      if (!ext) break;
      StrBuf path = {0};
      eddi_strbuf_printf(&path, "%s/%s%s%s%s", ctx->engine->root, beside ? dir : "", beside ? "/" : "",
                    rel, ext);
      struct stat st;
      found = *rel && stat(path.data, &st) == 0 && S_ISREG(st.st_mode);
      eddi_strbuf_free(&path);
    }
  }
  eddi_strbuf_free(&dotted);
  eddi_free(dir);
  eddi_free(name);
  return found;
}

typedef struct {
  size_t count;
  StrBuf list;
} StIssues;

static void st__issue(StIssues *self, EddiDoc *doc, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void st__issue(StIssues *self, EddiDoc *doc, size_t at, const char *fmt, ...) {
  if (self->count++ >= STRUCTURE_LIST_MAX) return;
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  size_t line, col;
  st__position(doc, at, &line, &col);
  eddi_strbuf_printf(&self->list, "%s%s at %zu:%zu", self->list.len ? ", " : "", buf, line, col);
}

/* ERROR and MISSING nodes in [from, to), not looking inside an ERROR. */
static void st__syntax_errors(EddiDoc *doc, TSNode node, size_t from, size_t to, StIssues *out) {
  if (!ts_node_has_error(node) && !ts_node_is_missing(node)) return;
  if (ts_node_end_byte(node) < from || ts_node_start_byte(node) > to) return;
  if (ts_node_is_missing(node)) {
    st__issue(out, doc, ts_node_start_byte(node), "Missing \"%s\"", ts_node_type(node));
    return;
  }
  if (strcmp(ts_node_type(node), "ERROR") == 0) {
    st__issue(out, doc, ts_node_start_byte(node), "Syntax error");
    return;
  }
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n && out->count <= STRUCTURE_LIST_MAX; i++)
    st__syntax_errors(doc, ts_node_child(node, i), from, to, out);
}

static void st__issues(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, size_t from, size_t to,
                       StIssues *out) {
  st__syntax_errors(doc, ts_tree_root_node(syn->tree), from, to, out);
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  for (size_t i = 0; i < d->import_names.len; i++) {
    EddiSpan s = d->import_names.items[i];
    if (s.start < from || s.end > to) continue;
    char *name = eddi_text_dup(&doc->text, s.start, s.end);
    int imp = eddi_syntax_innermost(syn, s.start, EDDI_ELEMENT_IMPORT);
    size_t skip_s = imp >= 0 ? syn->elements.items[imp].start : s.start;
    size_t skip_e = imp >= 0 ? syn->elements.items[imp].end : s.end;
    if (!st__word_used(doc, name, 0, eddi_text_len(&doc->text), skip_s, skip_e))
      st__issue(out, doc, s.start, "Unused import %s", name);
    eddi_free(name);
  }
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (!(e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) continue;
    if (e->start < from || e->end > to) continue;
    StMetrics m = st__metrics(doc, syn, i);
    char *display = eddi_element_display(e);
    const char *kind = eddi_element_kind_name(e->kind);
    if (m.lines > STRUCTURE_LONG_FUNCTION_LINES)
      st__issue(out, doc, e->start, "%s %s has %zu lines (over %d)", kind, display, m.lines,
                STRUCTURE_LONG_FUNCTION_LINES);
    if (m.depth > STRUCTURE_DEEP_NESTING)
      st__issue(out, doc, m.depth_at, "%s %s nests %zu deep (over %d)", kind, display, m.depth,
                STRUCTURE_DEEP_NESTING);
    if (m.params > STRUCTURE_MANY_PARAMS)
      st__issue(out, doc, e->start, "%s %s has %zu parameters (over %d)", kind, display,
                m.params, STRUCTURE_MANY_PARAMS);
    eddi_free(display);
  }
  EDDI_UNUSED(ctx);
}

static void st__list_more(StrBuf *out, size_t count) {
  if (count > STRUCTURE_LIST_MAX)
    eddi_strbuf_printf(out, ", and %zu more", count - STRUCTURE_LIST_MAX);
}

static int cmd_analyze(CommandContext *ctx) {
  static const char *const types[] = {"Structure", "Dependencies", "Complexity", "Issues"};
  enum { SUMMARY = -1, STRUCTURE, DEPENDENCIES, COMPLEXITY, ISSUES };
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Analyze needs a target");
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  EddiElement *target = NULL;
  size_t next = 1;
  if (eddi_token_is(&ctx->args[0], "File")) {
    /* File [name]: the current file; a name must be the current one. */
    if (next < ctx->argc && ctx->args[next].kind != TOKEN_WORD) {
      return eddi_command_usage(ctx, "Analyze File takes the current file");
    }
    if (next < ctx->argc) {
      bool is_type = false;
      for (int i = 0; i < 4; i++) is_type |= eddi_token_is(&ctx->args[next], types[i]);
      if (!is_type) {
        const char *base = eddi_path_basename(doc->path);
        if (strcmp(ctx->args[next].text, doc->path) != 0 && strcmp(ctx->args[next].text, base) != 0)
          return eddi_error_set(ctx->err, EDDI_EINVAL, "Analyze File works on the current file");
        next++;
      }
    }
  } else {
    StTarget t;
    rc = st__parse_target(ctx, 0, &t, &next);
    if (rc < 0) return rc;
    rc = st__resolve(ctx, doc, syn, &t, &target);
    st__target_free(&t);
    if (rc < 0) return rc;
  }
  int type = SUMMARY;
  if (next < ctx->argc) {
    type = eddi_command_choose(ctx, &ctx->args[next], "analysis", types, 4);
    if (type < 0) return type;
    if (next + 1 != ctx->argc) return eddi_command_usage(ctx, "Analyze takes one analysis");
  }
  size_t from = target ? target->start : 0;
  size_t to = target ? target->end : eddi_text_len(&doc->text);
  size_t target_index = target ? (size_t)(target - syn->elements.items) : 0;
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  StrBuf out = {0};
  /* Dependencies: imports of the file; for an element, those it uses. */
  size_t external = 0, local = 0;
  StrBuf ext_list = {0}, local_list = {0};
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (e->kind != EDDI_ELEMENT_IMPORT) continue;
    if (target) {
      bool used = false;
      for (size_t k = 0; k < d->import_names.len && !used; k++) {
        EddiSpan s = d->import_names.items[k];
        if (s.start < e->start || s.end > e->end) continue;
        char *name = eddi_text_dup(&doc->text, s.start, s.end);
        used = st__word_used(doc, name, from, to, 0, 0);
        eddi_free(name);
      }
      if (!used) continue;
    }
    bool is_local = st__import_local(ctx, doc, e->name);
    StrBuf *list = is_local ? &local_list : &ext_list;
    size_t *count = is_local ? &local : &external;
    if ((*count)++ < STRUCTURE_LIST_MAX) eddi_strbuf_printf(list, "%s%s", list->len ? ", " : "", e->name);
  }
  StIssues issues = {0};
  st__issues(ctx, doc, syn, from, to, &issues);
  switch (type) {
  case STRUCTURE: {
    size_t shown = 0;
    for (size_t i = 0; i < syn->elements.len; i++) {
      const EddiElement *e = &syn->elements.items[i];
      if (e->kind == EDDI_ELEMENT_IMPORT || e->start < from || e->end > to) continue;
      if (e->kind == EDDI_ELEMENT_VARIABLE && e->parent >= 0 &&
          !(syn->elements.items[e->parent].kind & (EDDI_ELEMENT_CLASS | EDDI_ELEMENT_IMPL)))
        continue;
      if (shown++ >= STRUCTURE_LIST_MAX) continue;
      char *display = eddi_element_display(e);
      eddi_strbuf_printf(&out, "%s%s %s %zu:%zu", shown > 1 ? ", " : "", eddi_element_kind_name(e->kind),
                    display, st__line_of(doc, e->start), st__line_of(doc, e->end));
      eddi_free(display);
    }
    if (!shown) eddi_strbuf_puts(&out, "No functions or classes");
    st__list_more(&out, shown);
    break;
  }
  case DEPENDENCIES:
    eddi_strbuf_printf(&out, "%zu external", external);
    if (external) eddi_strbuf_printf(&out, " (%s)", ext_list.data);
    eddi_strbuf_printf(&out, ", %zu local", local);
    if (local) eddi_strbuf_printf(&out, " (%s)", local_list.data);
    break;
  case COMPLEXITY: {
    size_t shown = 0;
    for (size_t i = 0; i < syn->elements.len; i++) {
      const EddiElement *e = &syn->elements.items[i];
      if (!(e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) continue;
      if (e->start < from || e->end > to) continue;
      if (shown++ >= STRUCTURE_LIST_MAX) continue;
      char *display = eddi_element_display(e);
      eddi_strbuf_printf(&out, "%s%s %s %zu", shown > 1 ? ", " : "", eddi_element_kind_name(e->kind),
                    display, st__metrics(doc, syn, i).complexity);
      eddi_free(display);
    }
    if (!shown) eddi_strbuf_puts(&out, "No functions");
    st__list_more(&out, shown);
    break;
  }
  case ISSUES:
    if (!issues.count) eddi_strbuf_puts(&out, "No issues");
    else eddi_strbuf_printf(&out, "%zu %s, %s", issues.count, issues.count == 1 ? "issue" : "issues",
                       issues.list.data);
    st__list_more(&out, issues.count);
    break;
  default:
    if (target && (target->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) {
      eddi_strbuf_printf(&out, "%s has complexity %zu, ", eddi_element_kind_name(target->kind),
                    st__metrics(doc, syn, target_index).complexity);
    } else {
      size_t functions = 0, classes = 0;
      for (size_t i = 0; i < syn->elements.len; i++) {
        const EddiElement *e = &syn->elements.items[i];
        if (e->start < from || e->end > to || (target && e == target)) continue;
        functions += (e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD)) != 0;
        classes += e->kind == EDDI_ELEMENT_CLASS;
      }
      eddi_strbuf_printf(&out, "%s has %zu %s, %zu %s, ", target ? "Class" : "File", classes,
                    classes == 1 ? "class" : "classes", functions,
                    functions == 1 ? "function" : "functions");
    }
    eddi_strbuf_printf(&out, "uses %zu external %s, %zu potential %s found", external,
                  external == 1 ? "dependency" : "dependencies", issues.count,
                  issues.count == 1 ? "issue" : "issues");
    break;
  }
  eddi_reply_builder_payload(ctx->reply, "%s", out.data);
  eddi_strbuf_free(&out), eddi_strbuf_free(&ext_list), eddi_strbuf_free(&local_list);
  eddi_strbuf_free(&issues.list);
  return 0;
}

/* ---------------------------------------------------------------- Validate */

static int cmd_validate(CommandContext *ctx) {
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  size_t from = 0, to = eddi_text_len(&doc->text);
  if (ctx->argc > 0 && !eddi_token_is(&ctx->args[0], "File")) {
    StTarget t;
    size_t next;
    EddiElement *e;
    rc = st__parse_target(ctx, 0, &t, &next);
    if (rc < 0) return rc;
    if (next != ctx->argc) rc = eddi_command_usage(ctx, "Validate takes one target");
    if (rc == 0) rc = st__resolve(ctx, doc, syn, &t, &e);
    st__target_free(&t);
    if (rc < 0) return rc;
    from = e->start, to = e->end;
  }
  StIssues errors = {0};
  st__syntax_errors(doc, ts_tree_root_node(syn->tree), from, to, &errors);
  if (!errors.count) eddi_reply_builder_payload(ctx->reply, "No syntax errors");
  else
    eddi_reply_builder_payload(ctx->reply, "%zu syntax %s, %s", errors.count,
                  errors.count == 1 ? "error" : "errors", errors.list.data);
  eddi_strbuf_free(&errors.list);
  return 0;
}

/* ---------------------------------------------------------------- Comment */

static int cmd_comment(CommandContext *ctx) {
  static const char *const styles[] = {"Line", "Block", "Doc"};
  enum { LINE, BLOCK, DOC };
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc < 2) return eddi_command_usage(ctx, "Comment needs a target and a \"text\"");
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  size_t next = 1, line;
  EddiElement *e = NULL;
  if (eddi_token_is(&ctx->args[0], "Line")) {
    if (ctx->args[1].kind != TOKEN_INT) return eddi_command_usage(ctx, "Comment Line needs a line number");
    line = (size_t)ctx->args[1].first;
    if (line > doc->text.newlines) return eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid line %zu", line);
    next = 2;
  } else if (eddi_token_is(&ctx->args[0], "Current")) {
    line = st__line_of(doc, doc->cursor);
  } else {
    StTarget t;
    rc = st__parse_target(ctx, 0, &t, &next);
    if (rc < 0) return rc;
    rc = st__resolve(ctx, doc, syn, &t, &e);
    st__target_free(&t);
    if (rc < 0) return rc;
    line = st__line_of(doc, st__extent_start(doc, syn, e));
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
  if (style == DOC && !e) return eddi_command_usage(ctx, "A Doc comment needs a Function, Method or Class");
  if (style == DOC && !lang->comment_doc_start && !lang->comment_doc_prefix) style = LINE;
  if (style == BLOCK && !lang->comment_block_start) style = LINE;
  if (style == LINE && !lang->comment_line) style = BLOCK;
  if (style == BLOCK && !lang->comment_block_start)
    return eddi_error_set(ctx->err, EDDI_EINVAL, "No comments in %s", lang->name);
  char *indent = st__indent_of_line(doc, line);
  if (style == DOC && lang->doc_inside && e && e->has_body) {
    /* The docstring is the body's first statement, one level in. */
    size_t body_line = st__line_of(doc, e->body_start);
    if (body_line == st__line_of(doc, e->start)) body_line++;
    eddi_free(indent);
    indent = st__indent_of_line(doc, body_line);
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
    size_t lines = st__count_lines(body.data, body.len);
    doc->cursor = at + body.len;
    eddi_reply_builder_fact(ctx->reply, "Inserted %zu %s at %zu", lines, lines == 1 ? "line" : "lines", line);
    eddi_command_fact_cursor(ctx, doc);
  }
  eddi_strbuf_free(&body);
  eddi_free(indent);
  return rc;
}

/* ---------------------------------------------------------------- Format */

/* Whether the command's program is on PATH. */
static bool st__on_path(const char *command) {
  char program[256];
  size_t n = strcspn(command, " ");
  if (n == 0 || n >= sizeof program) return false;
  memcpy(program, command, n);
  program[n] = '\0';
  if (strchr(program, '/')) return access(program, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path) return false;
  for (const char *p = path; *p;) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char full[1024];
    snprintf(full, sizeof full, "%.*s/%s", (int)len, p, program);
    if (access(full, X_OK) == 0) return true;
    if (!end) break;
    p = end + 1;
  }
  return false;
}

static int cmd_format(CommandContext *ctx) {
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc > 0 && !eddi_token_is(&ctx->args[0], "File"))
    return eddi_error_set(ctx->err, EDDI_EINVAL, "Format formats whole files");
  EddiSyntax *syn;
  int rc = st__syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  if (!lang->formatter || !st__on_path(lang->formatter))
    return eddi_error_set(ctx->err, EDDI_ENOENT, "No formatter for %s", lang->name);
  /* The text goes through a temporary file: the formatter reads it on
   * stdin and writes the result to stdout, which is read whole. */
  char input[] = "/tmp/eddi-format-XXXXXX";
  int fd = mkstemp(input);
  if (fd < 0) return eddi_error_set(ctx->err, EDDI_EIO, "Cannot make a temporary file");
  size_t len = eddi_text_len(&doc->text);
  char *text = eddi_text_dup(&doc->text, 0, len);
  bool written = write(fd, text, len) == (ssize_t)len;
  close(fd);
  StrBuf command = {0}, out = {0};
  eddi_strbuf_printf(&command, "%s < '%s' 2>/dev/null", lang->formatter, input);
  FILE *pipe = written ? popen(command.data, "r") : NULL;
  int status = -1;
  if (pipe) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0 && out.len < STRUCTURE_FORMAT_MAX_BYTES)
      eddi_strbuf_append(&out, buf, n);
    status = pclose(pipe);
  }
  unlink(input);
  if (status != 0 || !WIFEXITED(status)) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL, "The formatter failed on %s", doc->path);
    eddi_error_hint(ctx->err, "Validate shows syntax errors");
  } else if (out.len == len && memcmp(out.data ? out.data : "", text, len) == 0) {
    eddi_reply_builder_fact(ctx->reply, "Already formatted");
  } else {
    rc = eddi_doc_replace(doc, 0, len, out.data ? out.data : "", out.len, ctx->err);
    if (rc == 0) eddi_reply_builder_fact(ctx->reply, "Formatted, Lines %zu", eddi_text_line_count(&doc->text));
  }
  if (rc == 0) eddi_command_fact_cursor(ctx, doc);
  eddi_free(text);
  eddi_strbuf_free(&command), eddi_strbuf_free(&out);
  return rc;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec structure_commands[] = {
    {"Modify",
     "Modify <Function|Method|Class|Variable> <name> <Rename <new>|AddParam \"p\"|RemoveParam "
     "<p>|ChangeSignature \"(params)\"|AddDecorator \"@d\"|SetVisibility "
     "<public|private|protected>>",
     "change an element", CMD_FILE, cmd_modify},
    {"Analyze",
     "Analyze <Function n|Class n|Method C.m|File [f]> [Structure|Dependencies|Complexity|Issues]",
     "outline, imports, complexity, issues", CMD_FILE, cmd_analyze},
    {"Validate", "Validate [Function n|Class n|Method C.m|File]", "syntax errors", CMD_FILE,
     cmd_validate},
    {"Comment",
     "Comment <Function n|Method C.m|Class n|Line n|Current> \"text\" [Line|Block|Doc]",
     "add a comment", CMD_FILE, cmd_comment},
    {"Format", "Format [File]", "run the language's formatter", CMD_FILE, cmd_format},
};
COMMAND_GROUP(eddi_structure_commands, structure_commands);
