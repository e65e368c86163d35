/* structure.c - structural targets and the helpers the structure commands
 * share (see structure.h), and Goto, Show and Delete of an element.
 *
 * A target names an element the way a model does ("Function f", "Method
 * C.m", "Function f(a, b)" to pick one of several f); resolving it either
 * finds exactly one element or fails with what would help: the nearest
 * name, or every candidate with its position. */
#include "services/structure.h"

#include "lang/suggest.h"

/* ---------------------------------------------------------------- helpers */

int eddi_structure_syntax(CommandContext *ctx, EddiDoc *doc, EddiSyntax **syn) {
  return eddi_syntax_get(doc, eddi_workspace_config(ctx->workspace)->max_syntax_bytes, syn,
                         ctx->err);
}

size_t eddi_structure_line_of(const EddiDoc *doc, size_t offset) {
  return eddi_text_line_at(&doc->text, offset);
}

void eddi_structure_position(const EddiDoc *doc, size_t offset, size_t *line, size_t *col) {
  eddi_text_position_of(&doc->text, offset, line, col);
}

/* Start of the line after the one holding offset (or the text end). */
static size_t structure__after_line(const EddiDoc *doc, size_t offset) {
  size_t line = eddi_structure_line_of(doc, offset);
  if (line + 1 <= doc->text.newlines) return eddi_text_line_start(&doc->text, line + 1);
  return eddi_text_len(&doc->text);
}

/* Where an element's last line ends, newline included. An element ending at
 * a line start (a block that took its newline) ends there. */
size_t eddi_structure_element_end(const EddiDoc *doc, const EddiElement *e) {
  size_t end = e->end;
  if (end > e->start && end > 0 && eddi_text_byte_at(&doc->text, end - 1) == '\n') return end;
  return structure__after_line(doc, end);
}

/* The leading whitespace of a line, as a new string. */
char *eddi_structure_indent_of_line(const EddiDoc *doc, size_t line) {
  size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
  size_t p = start;
  while (p < end) {
    char c = eddi_text_byte_at(&doc->text, p);
    if (c != ' ' && c != '\t') break;
    p++;
  }
  return eddi_text_dup(&doc->text, start, p);
}

bool eddi_structure_line_blank(const EddiDoc *doc, size_t line) {
  size_t start = eddi_text_line_start(&doc->text, line), end = eddi_text_line_end(&doc->text, line);
  for (size_t p = start; p < end; p++) {
    char c = eddi_text_byte_at(&doc->text, p);
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

bool eddi_structure_is_ident(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (unsigned char)c >= 0x80;
}


/* From the smallest node holding the parameter list's bytes up to the one
 * spanning exactly them. */
TSNode eddi_structure_params_node(const EddiSyntax *syn, const EddiElement *e) {
  TSNode root = ts_tree_root_node(syn->tree);
  TSNode params = ts_node_descendant_for_byte_range(root, (uint32_t)e->params_start,
                                                    (uint32_t)e->params_end);
  while (!ts_node_is_null(params) && (ts_node_start_byte(params) != e->params_start ||
                                      ts_node_end_byte(params) != e->params_end))
    params = ts_node_parent(params);
  return params;
}

/* ---------------------------------------------------------------- targets */

void eddi_structure_target_free(StructureTarget *self) {
  eddi_free(self->name), eddi_free(self->owner), eddi_free(self->params);
}

const char *const eddi_structure_kind_words[EDDI_STRUCTURE_KIND_COUNT] = {"Function", "Method",
                                                                          "Class", "Variable"};
const char *const eddi_structure_edge_words[EDDI_STRUCTURE_EDGE_COUNT] = {
    "StartOfFunction", "EndOfFunction", "StartOfClass", "EndOfClass"};
static const unsigned structure__kind_masks[EDDI_STRUCTURE_KIND_COUNT] = {
    EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD, EDDI_ELEMENT_METHOD, EDDI_ELEMENT_CLASS,
    EDDI_ELEMENT_VARIABLE};

static int structure__kind_word(const Token *token) {
  for (int i = 0; i < EDDI_STRUCTURE_KIND_COUNT; i++)
    if (eddi_token_is(token, eddi_structure_kind_words[i])) return i;
  return -1;
}

/* Most plain targets a command has (Goto's five). */
#define STRUCTURE_PLAIN_TARGETS_MAX 8

int eddi_structure_choose_plain(CommandContext *ctx, const Token *token, const char *const *plain,
                                size_t count, bool edges) {
  const char *all[STRUCTURE_PLAIN_TARGETS_MAX + EDDI_STRUCTURE_KIND_COUNT +
                  EDDI_STRUCTURE_EDGE_COUNT];
  EDDI_ASSERT(count <= STRUCTURE_PLAIN_TARGETS_MAX);
  size_t n = 0;
  for (size_t i = 0; i < count; i++) all[n++] = plain[i];
  for (size_t i = 0; edges && i < EDDI_STRUCTURE_EDGE_COUNT; i++)
    all[n++] = eddi_structure_edge_words[i];
  for (size_t i = 0; i < EDDI_STRUCTURE_KIND_COUNT; i++) all[n++] = eddi_structure_kind_words[i];
  int which = eddi_command_choose(ctx, token, "target", all, n);
  /* The structural words were taken by the syntax layer before: a match
   * here is a plain target. */
  EDDI_ASSERT(which < (int)count);
  return which;
}

/* Parse "Function name[(params)]", "Method C.m", "Class n" from args[at];
 * *next receives the index after it. The parameter list may span tokens:
 * "f(a, b)" lexes as "f(a," and "b)". */
int eddi_structure_parse_target(CommandContext *ctx, size_t at, StructureTarget *out,
                                size_t *next) {
  memset(out, 0, sizeof *out);
  int k = at < ctx->argc ? structure__kind_word(&ctx->args[at]) : -1;
  if (k < 0)
    return eddi_command_usage(ctx, "%s needs Function, Method, Class or Variable", ctx->spec->name);
  out->kinds = structure__kind_masks[k];
  out->word = eddi_structure_kind_words[k];
  if (at + 1 >= ctx->argc)
    return eddi_command_usage(ctx, "%s %s needs a name", ctx->spec->name, out->word);
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
    eddi_structure_target_free(out);
    return eddi_command_usage(ctx, "%s needs a name", eddi_structure_kind_words[k]);
  }
  return 0;
}

/* Of several variables of one name, the one the cursor sees: the first
 * bound in the innermost scope around the cursor that binds the name, out
 * to the file; else, when all are of one scope, the first of it. -1 when
 * they are of several scopes, none of them the cursor's. */
static int structure__variable_in_scope(const EddiDoc *doc, const EddiSyntax *syn,
                                        const EddiIndexList *found) {
  unsigned scopes = EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD | EDDI_ELEMENT_CLASS |
                    EDDI_ELEMENT_IMPL;
  for (int scope = eddi_syntax_innermost(syn, doc->cursor, scopes);;
       scope = syn->elements.items[scope].parent) {
    for (size_t i = 0; i < found->len; i++)
      if (syn->elements.items[found->items[i]].parent == scope) return (int)found->items[i];
    if (scope < 0) break;
  }
  int scope = syn->elements.items[found->items[0]].parent;
  for (size_t i = 1; i < found->len; i++)
    if (syn->elements.items[found->items[i]].parent != scope) return -1;
  return (int)found->items[0];
}

/* The one element a target names: "not found" with the nearest name, or
 * "Ambiguous match" with every candidate and its position. Variables are
 * looked up by scope first (structure__variable_in_scope). */
int eddi_structure_resolve(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn,
                           const StructureTarget *t, EddiElement **out) {
  EddiIndexList found = {0};
  eddi_syntax_find(syn, &doc->text, t->kinds, t->name, t->owner, t->params, &found);
  bool variables = t->kinds == EDDI_ELEMENT_VARIABLE;
  if (found.len > 1 && variables) {
    int seen = structure__variable_in_scope(doc, syn, &found);
    if (seen >= 0) found.items[0] = (size_t)seen, found.len = 1;
  }
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
    eddi_structure_position(doc, e->start, &line, &col);
    char *display = eddi_element_display(e);
    char *params = e->has_params ? eddi_text_dup(&doc->text, e->params_start, e->params_end)
                                 : eddi_strdup("");
    eddi_strbuf_printf(&hint, "%s%s %s%s at %zu:%zu", i ? ", " : "",
                       eddi_element_kind_name(e->kind), display, params, line, col);
    if (variables && e->parent >= 0) {
      char *scope = eddi_element_display(&syn->elements.items[e->parent]);
      eddi_strbuf_printf(&hint, " in %s", scope);
      eddi_free(scope);
    }
    eddi_free(display), eddi_free(params);
  }
  /* A variable is picked by where the cursor is. */
  if (variables) eddi_strbuf_puts(&hint, "; Goto a line inside one to pick it");
  eddi_error_set(ctx->err, EDDI_EINVAL, "Ambiguous match");
  eddi_error_hint(ctx->err, "%s", hint.data);
  eddi_strbuf_free(&hint);
  array_free(&found);
  return EDDI_EINVAL;
}

int eddi_structure_find(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, bool alone,
                        EddiElement **e, size_t *next) {
  StructureTarget t;
  int rc = eddi_structure_parse_target(ctx, 0, &t, next);
  if (rc < 0) return rc;
  if (alone && *next != ctx->argc)
    rc = eddi_command_usage(ctx, "%s %s takes one name", ctx->spec->name, t.word);
  if (rc == 0) rc = eddi_structure_resolve(ctx, doc, syn, &t, e);
  eddi_structure_target_free(&t);
  return rc;
}

/* Refuse to edit an element the parser could not read whole. */
int eddi_structure_refuse_errors(CommandContext *ctx, EddiDoc *doc, const EddiElement *e) {
  size_t at;
  if (!eddi_syntax_element_error(e, &at)) return 0;
  size_t line, col;
  eddi_structure_position(doc, at, &line, &col);
  char *display = eddi_element_display(e);
  eddi_error_set(ctx->err, EDDI_EINVAL, "%s %s has syntax errors at %zu:%zu",
                 eddi_element_kind_name(e->kind), display, line, col);
  eddi_error_hint(ctx->err, "Fix them first (Validate lists them)");
  eddi_free(display);
  return EDDI_EINVAL;
}

/* Where deleting or commenting an element starts: its first line, after
 * pulling in the decorators and comments directly above it. */
size_t eddi_structure_extent_start(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e) {
  size_t start = eddi_syntax_extent_start(syn, &doc->text, e);
  return eddi_text_line_start(&doc->text, eddi_structure_line_of(doc, start));
}

/* ---------------------------------------------------------------- Goto / Show */

int eddi_structure_goto(CommandContext *ctx) {
  const char *const *edges = eddi_structure_edge_words;
  EddiDoc *doc = ctx->session->current;
  const Token *target = &ctx->args[0];
  int edge = -1;
  for (int i = 0; i < EDDI_STRUCTURE_EDGE_COUNT; i++)
    if (eddi_token_is(target, edges[i])) edge = i;
  if (edge < 0 && structure__kind_word(target) < 0) return 1;
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  EddiElement *e = NULL;
  if (edge >= 0) {
    if (ctx->argc != 1) return eddi_command_usage(ctx, "Goto %s takes no argument", edges[edge]);
    unsigned kinds = edge < 2 ? EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD
                              : EDDI_ELEMENT_CLASS | EDDI_ELEMENT_IMPL;
    int i = eddi_syntax_innermost(syn, doc->cursor, kinds);
    if (i < 0) {
      size_t line, col;
      eddi_structure_position(doc, doc->cursor, &line, &col);
      eddi_error_set(ctx->err, EDDI_ENOENT, edge < 2 ? "Not in function" : "Not in class");
      eddi_error_hint(ctx->err, "The cursor at %zu:%zu is in none: Goto %s <name> first", line, col,
                      edge < 2 ? "Function" : "Class");
      return EDDI_ENOENT;
    }
    e = &syn->elements.items[i];
    doc->cursor = edge % 2 == 0 ? e->start : eddi_structure_element_end(doc, e);
  } else {
    size_t next;
    rc = eddi_structure_find(ctx, doc, syn, true, &e, &next);
    if (rc < 0) return rc;
    doc->cursor = e->start;
  }
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

int eddi_structure_show(CommandContext *ctx) {
  if (structure__kind_word(&ctx->args[0]) < 0) return 1;
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  StructureTarget t;
  size_t next;
  rc = eddi_structure_parse_target(ctx, 0, &t, &next);
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
  if (rc == 0) rc = eddi_structure_resolve(ctx, doc, syn, &t, &e);
  eddi_structure_target_free(&t);
  if (rc < 0) return rc;
  size_t line, col;
  eddi_structure_position(doc, e->start, &line, &col);
  size_t from = e->start, to = e->end;
  if (with_context) {
    size_t first = eddi_structure_line_of(doc, e->start),
           last = eddi_structure_line_of(doc, e->end);
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

/* ---------------------------------------------------------------- Delete */

int eddi_structure_delete(CommandContext *ctx) {
  int k = structure__kind_word(&ctx->args[0]);
  if (k < 0) return 1;
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  EddiElement *e = NULL;
  size_t next;
  rc = eddi_structure_find(ctx, doc, syn, true, &e, &next);
  if (rc < 0) return rc;
  rc = eddi_structure_refuse_errors(ctx, doc, e);
  if (rc < 0) return rc;
  size_t start = eddi_structure_extent_start(doc, syn, e);
  size_t end = eddi_structure_element_end(doc, e);
  size_t first = eddi_structure_line_of(doc, start);
  size_t last = eddi_structure_line_of(doc, end - 1);
  /* Take one separator with it, so the spacing around stays as it was:
   * the blank lines above it when there are blank lines below (or nothing
   * below) too, else at the top of the file the blank lines below. */
  size_t below = last + 1;
  while (below < doc->text.newlines && eddi_structure_line_blank(doc, below)) below++;
  bool blank_below = below > last + 1 || end == eddi_text_len(&doc->text);
  if (first > 0 && eddi_structure_line_blank(doc, first - 1) && blank_below) {
    while (first > 0 && eddi_structure_line_blank(doc, first - 1)) first--;
    start = eddi_text_line_start(&doc->text, first);
  } else if (first == 0 && below > last + 1) {
    end = eddi_text_line_start(&doc->text, below);
  }
  size_t lines = eddi_structure_line_of(doc, end) - first;
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

