/* syntax.c - parse trees on documents, and the elements read from them.
 *
 * The parser reads the text store in place through a TSInput callback (no
 * copy of the file). A document's syntax listens to it (EddiDocListener):
 * edits are recorded on the old tree as they are announced;
 * eddi_syntax_get reparses only when the tree is stale, passing the edited
 * old tree so tree-sitter reuses what did not change. The element list and
 * the details are caches of one tree: any edit drops them. */
#include "syntax/syntax.h"

#include <pthread.h>

/* Files from this size have their structure query run in two halves, on
 * two threads: the query walks the whole tree at about half the cost of
 * the parse. */
#define SYNTAX_SPLIT_MIN_BYTES ((size_t)256 << 10)

#include "core/document.h"

/* How much of a file's start language detection reads: enough for a
 * shebang line ("#!/usr/bin/env python3 -u"). */
#define SYNTAX_FIRST_LINE_MAX 256

/* ---------------------------------------------------------------- reading */

/* The rest of the chunk holding byte, in place (payload: the EddiText).
 * The text store's lookup starts from the chunk it last found, and
 * tree-sitter reads mostly forward. */
static const char *syntax__read(void *payload, uint32_t byte, TSPoint point, uint32_t *read) {
  EDDI_UNUSED(point);
  size_t len;
  const char *bytes = eddi_text_chunk_at(payload, byte, &len);
  *read = (uint32_t)len;
  return bytes;
}

TSTree *eddi_syntax_parse_text(TSParser *parser, const TSTree *old, const EddiText *text) {
  TSInput input = {.payload = (void *)text, .read = syntax__read,
                   .encoding = TSInputEncodingUTF8};
  return ts_parser_parse(parser, old, input);
}

/* ---------------------------------------------------------------- edits */

/* Row and byte column of offset: tree-sitter's points count bytes. */
static TSPoint syntax__point(const EddiText *text, size_t offset) {
  size_t line = eddi_text_line_at(text, offset);
  return (TSPoint){(uint32_t)line, (uint32_t)(offset - eddi_text_line_start(text, line))};
}

static void syntax__drop_caches(EddiSyntax *self) {
  for (size_t i = 0; i < self->elements.len; i++) {
    eddi_free(self->elements.items[i].name);
    eddi_free(self->elements.items[i].owner);
  }
  array_clear(&self->elements);
  self->elements_ready = false;
  EddiDetails *d = &self->details;
  array_clear(&d->decorators), array_clear(&d->comments), array_clear(&d->decisions);
  array_clear(&d->nestings), array_clear(&d->calls), array_clear(&d->import_names);
  array_clear(&d->parameters), array_clear(&d->keyword_arguments);
  self->details_ready = false;
}

/* Record an edit before the text changes: bytes [start, end) of text become
 * inserted[0, len). */
static void syntax__note_edit(EddiSyntax *self, const EddiText *text, size_t start, size_t end,
                              const char *inserted, size_t len) {
  syntax__drop_caches(self);
  if (!self->tree) return;
  TSInputEdit edit = {
      .start_byte = (uint32_t)start,
      .old_end_byte = (uint32_t)end,
      .new_end_byte = (uint32_t)(start + len),
      .start_point = syntax__point(text, start),
      .old_end_point = syntax__point(text, end),
  };
  TSPoint at = edit.start_point;
  for (size_t i = 0; i < len; i++) {
    if (inserted[i] == '\n') at.row++, at.column = 0;
    else at.column++;
  }
  edit.new_end_point = at;
  ts_tree_edit(self->tree, &edit);
  self->stale = true;
}

/* The text was replaced wholesale: forget the tree. */
static void syntax__reset(EddiSyntax *self) {
  syntax__drop_caches(self);
  if (self->tree) ts_tree_delete(self->tree);
  self->tree = NULL;
  if (self->half_tree) ts_tree_delete(self->half_tree);
  self->half_tree = NULL;
  self->stale = true;
}

static void syntax__details_free(EddiDetails *d) {
  array_free(&d->decorators), array_free(&d->comments), array_free(&d->decisions);
  array_free(&d->nestings), array_free(&d->calls), array_free(&d->import_names);
  array_free(&d->parameters), array_free(&d->keyword_arguments);
}

void eddi_syntax_free(EddiSyntax *self) {
  if (!self) return;
  if (self->doc) {
    eddi_doc_unlisten(self->doc, &self->listener);
    if (self->doc->syntax == self) self->doc->syntax = NULL;
  }
  syntax__reset(self);
  array_free(&self->elements);
  syntax__details_free(&self->details);
  if (self->parser) ts_parser_delete(self->parser);
  eddi_free(self);
}

/* ---------------------------------------------------------------- listening */

static void syntax__on_edit(void *context, const EddiDoc *doc, const EddiDocChange *change) {
  syntax__note_edit(context, &doc->text, change->start, change->old_end, change->inserted,
                    change->new_end - change->start);
}

static void syntax__on_reset(void *context, EddiDoc *doc) {
  EDDI_UNUSED(doc);
  syntax__reset(context);
}

/* The document goes, and its syntax with it (already off its list). */
static void syntax__on_free(void *context, EddiDoc *doc) {
  EddiSyntax *self = context;
  self->doc = NULL;
  doc->syntax = NULL;
  eddi_syntax_free(self);
}

/* Hang self on doc, listening to its changes. */
static void syntax__attach(EddiSyntax *self, EddiDoc *doc) {
  self->doc = doc;
  self->listener = (EddiDocListener){.on_edit = syntax__on_edit, .on_reset = syntax__on_reset,
                                     .on_free = syntax__on_free, .context = self};
  eddi_doc_listen(doc, &self->listener);
  doc->syntax = self;
}

/* ---------------------------------------------------------------- elements */

static const struct {
  const char *capture;
  EddiElementKind kind;
} syntax__kinds[] = {
    {"function", EDDI_ELEMENT_FUNCTION}, {"method", EDDI_ELEMENT_METHOD},
    {"class", EDDI_ELEMENT_CLASS},       {"impl", EDDI_ELEMENT_IMPL},
    {"variable", EDDI_ELEMENT_VARIABLE}, {"import", EDDI_ELEMENT_IMPORT},
    {"local", EDDI_ELEMENT_VARIABLE},
};
#define SYNTAX_KIND_COUNT (sizeof syntax__kinds / sizeof syntax__kinds[0])
/* The capture of a function's own variables (syntax__kinds' last row). */
#define SYNTAX_LOCAL_KIND ((int)SYNTAX_KIND_COUNT - 1)

const char *eddi_element_kind_name(EddiElementKind kind) {
  switch (kind) {
  case EDDI_ELEMENT_FUNCTION: return "Function";
  case EDDI_ELEMENT_METHOD: return "Method";
  case EDDI_ELEMENT_CLASS: return "Class";
  case EDDI_ELEMENT_IMPL: return "Impl";
  case EDDI_ELEMENT_VARIABLE: return "Variable";
  case EDDI_ELEMENT_IMPORT: return "Import";
  }
  return "Element";
}

char *eddi_element_display(const EddiElement *element) {
  StrBuf out = {0};
  if (element->owner) eddi_strbuf_printf(&out, "%s.", element->owner);
  eddi_strbuf_puts(&out, element->name);
  return eddi_strbuf_take(&out);
}

static int syntax__by_start(const void *a, const void *b) {
  const EddiElement *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1; /* outer first */
  return 0;
}

/* Split "method.class" into the kind's index and the part after the dot. */
static int syntax__capture_kind(const char *name, uint32_t len, const char **part) {
  for (size_t k = 0; k < SYNTAX_KIND_COUNT; k++) {
    size_t n = strlen(syntax__kinds[k].capture);
    if (len < n || memcmp(name, syntax__kinds[k].capture, n) != 0) continue;
    if (len == n) {
      *part = "";
      return (int)k;
    }
    if (name[n] == '.') {
      *part = name + n + 1;
      return (int)k;
    }
  }
  return -1;
}

/* The C runtime leaves text predicates to its caller. Queries here use
 * #eq? and #not-eq? (a capture against a string or another capture) and
 * #any-of? (a capture against a list of strings); a pattern with any other
 * predicate never matches, so a query cannot ask for something this code
 * silently ignores. */
/* #any-of? @capture "a" "b" ...: the capture's text is one of the strings. */
static bool syntax__any_of(const TSQuery *query, const TSQueryMatch *match, EddiSyntaxSlice slice,
                           const void *source, const TSQueryPredicateStep *step, uint32_t count) {
  char *text = NULL;
  for (uint16_t c = 0; c < match->capture_count && !text; c++)
    if (match->captures[c].index == step[0].value_id)
      text = slice(source, ts_node_start_byte(match->captures[c].node),
                   ts_node_end_byte(match->captures[c].node));
  bool found = false;
  for (uint32_t k = 1; text && k < count && !found; k++) {
    uint32_t len;
    found = step[k].type == TSQueryPredicateStepTypeString &&
            strcmp(text, ts_query_string_value_for_id(query, step[k].value_id, &len)) == 0;
  }
  eddi_free(text);
  return found;
}

bool eddi_syntax_predicates_hold(const TSQuery *query, const TSQueryMatch *match,
                                 EddiSyntaxSlice slice, const void *source) {
  uint32_t steps;
  const TSQueryPredicateStep *step = ts_query_predicates_for_pattern(query, match->pattern_index,
                                                                     &steps);
  for (uint32_t i = 0; i < steps;) {
    uint32_t end = i;
    while (end < steps && step[end].type != TSQueryPredicateStepTypeDone) end++;
    if (end - i < 3 || step[i].type != TSQueryPredicateStepTypeString ||
        step[i + 1].type != TSQueryPredicateStepTypeCapture)
      return false;
    uint32_t len;
    const char *op = ts_query_string_value_for_id(query, step[i].value_id, &len);
    if (strcmp(op, "any-of?") == 0) {
      if (!syntax__any_of(query, match, slice, source, step + i + 1, end - i - 1)) return false;
      i = end + 1;
      continue;
    }
    if (end - i != 3) return false;
    bool negate = strcmp(op, "not-eq?") == 0;
    if (!negate && strcmp(op, "eq?") != 0) return false;
    char *left = NULL, *right = NULL;
    for (uint16_t c = 0; c < match->capture_count; c++) {
      const TSQueryCapture *capture = &match->captures[c];
      if (capture->index == step[i + 1].value_id && !left)
        left = slice(source, ts_node_start_byte(capture->node), ts_node_end_byte(capture->node));
      if (step[i + 2].type == TSQueryPredicateStepTypeCapture &&
          capture->index == step[i + 2].value_id && !right)
        right = slice(source, ts_node_start_byte(capture->node), ts_node_end_byte(capture->node));
    }
    if (step[i + 2].type == TSQueryPredicateStepTypeString)
      right = eddi_strdup(ts_query_string_value_for_id(query, step[i + 2].value_id, &len));
    bool equal = left && right && strcmp(left, right) == 0;
    eddi_free(left), eddi_free(right);
    if (equal == negate) return false;
    i = end + 1;
  }
  return true;
}

static char *syntax__slice_text(const void *source, size_t start, size_t end) {
  return eddi_text_dup(source, start, end);
}

static bool syntax__predicates_hold(const TSQuery *query, const TSQueryMatch *match,
                                    const EddiText *text) {
  return eddi_syntax_predicates_hold(query, match, syntax__slice_text, text);
}

/* A local is a function's: those the general @local patterns found
 * outside every function (or in a class body) go. Only containers are
 * parents, so the indices of the others move and parents are renumbered. */
static void syntax__keep_locals_of_functions(EddiSyntax *self) {
  unsigned functions = EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD;
  size_t *moved = eddi_malloc((self->elements.len + 1) * sizeof *moved);
  size_t kept = 0;
  for (size_t i = 0; i < self->elements.len; i++) {
    EddiElement *e = &self->elements.items[i];
    if (e->local && (e->parent < 0 || !(self->elements.items[e->parent].kind & functions))) {
      eddi_free(e->name), eddi_free(e->owner);
      continue;
    }
    moved[i] = kept;
    self->elements.items[kept++] = *e;
  }
  self->elements.len = kept;
  for (size_t i = 0; i < kept; i++) {
    EddiElement *e = &self->elements.items[i];
    if (e->parent >= 0) e->parent = (int)moved[e->parent];
  }
  eddi_free(moved);
}

/* The structure query's elements in the bytes [from, to) of the tree at
 * root (to 0: all), appended to out in the order of the matches. */
static void syntax__collect_elements(EddiElementList *out, const EddiLang *lang, TSNode root,
                                     uint32_t from, uint32_t to, const EddiText *text) {
  TSQueryCursor *cursor = ts_query_cursor_new();
  if (to) ts_query_cursor_set_byte_range(cursor, from, to);
  ts_query_cursor_exec(cursor, lang->structure, root);
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor, &match)) {
    if (!syntax__predicates_hold(lang->structure, &match, text)) continue;
    EddiElement element = {.parent = -1};
    bool found = false;
    char *owner = NULL;
    for (uint16_t i = 0; i < match.capture_count; i++) {
      const TSQueryCapture *capture = &match.captures[i];
      uint32_t len;
      const char *name = ts_query_capture_name_for_id(lang->structure, capture->index, &len);
      size_t start = ts_node_start_byte(capture->node), end = ts_node_end_byte(capture->node);
      const char *part;
      if (len == 10 && memcmp(name, "parameters", 10) == 0) {
        element.params_start = start, element.params_end = end, element.has_params = true;
      } else if (len == 4 && memcmp(name, "body", 4) == 0) {
        element.body_start = start, element.body_end = end, element.has_body = true;
      } else {
        int k = syntax__capture_kind(name, len, &part);
        if (k < 0) continue;
        if (!*part) {
          element.kind = syntax__kinds[k].kind, element.node = capture->node;
          element.start = start, element.end = end, found = true;
          element.local = k == SYNTAX_LOCAL_KIND;
        } else if (strcmp(part, "name") == 0 || strncmp(part, "module", 6) == 0) {
          element.name_start = start, element.name_end = end;
        } else if (strncmp(part, "class", 5) == 0 && !owner) {
          owner = eddi_text_dup(text, start, end);
        }
      }
    }
    if (!found) {
      eddi_free(owner);
      continue;
    }
    size_t name_len = element.name_end - element.name_start;
    if (name_len > EDDI_SYNTAX_NAME_MAX) element.name_end = element.name_start;
    element.name = eddi_text_dup(text, element.name_start, element.name_end);
    element.owner = owner;
    array_push(out, element);
  }
  ts_query_cursor_delete(cursor);
}

/* The second half of a large file's structure query, on a thread of its
 * own: its own copy of the tree (kept by the syntax: its elements' nodes
 * belong to it) and a view of the text. */
typedef struct {
  const EddiLang *lang;
  TSTree *tree;
  EddiText view;
  uint32_t from, to;
  EddiElementList elements;
} SyntaxHalfRun;

static void *syntax__half_thread(void *closure) {
  SyntaxHalfRun *run = closure;
  syntax__collect_elements(&run->elements, run->lang, ts_tree_root_node(run->tree), run->from,
                           run->to, &run->view);
  return NULL;
}

/* Where a file large enough to split is cut: the start of the first
 * top-level node past the middle that a gap separates from the one before
 * (no node below the root crosses it, and none is empty at the cut, which
 * neither half's byte range would hold), or 0 when there is none. */
static uint32_t syntax__split_at(TSNode root, size_t len) {
  if (len < SYNTAX_SPLIT_MIN_BYTES) return 0;
  uint32_t count = ts_node_child_count(root);
  for (uint32_t i = 1; i < count; i++) {
    uint32_t start = ts_node_start_byte(ts_node_child(root, i));
    if (start >= len / 2 && ts_node_end_byte(ts_node_child(root, i - 1)) < start) return start;
  }
  return 0;
}

static void syntax__list_elements(EddiSyntax *self, const EddiText *text) {
  const EddiLang *lang = self->lang;
  if (!lang->structure) return;
  TSNode root = ts_tree_root_node(self->tree);
  uint32_t split = syntax__split_at(root, eddi_text_len(text));
  SyntaxHalfRun half = {0};
  pthread_t thread;
  if (split) {
    half = (SyntaxHalfRun){.lang = lang, .tree = ts_tree_copy(self->tree), .from = split,
                           .to = UINT32_MAX};
    eddi_text_view(text, &half.view);
    if (pthread_create(&thread, NULL, syntax__half_thread, &half) != 0) {
      ts_tree_delete(half.tree);
      eddi_text_view_free(&half.view);
      split = 0;
    }
  }
  syntax__collect_elements(&self->elements, lang, root, 0, split, text);
  if (split) {
    pthread_join(thread, NULL);
    eddi_text_view_free(&half.view);
    for (size_t i = 0; i < half.elements.len; i++) array_push(&self->elements, half.elements.items[i]);
    array_free(&half.elements);
    if (self->half_tree) ts_tree_delete(self->half_tree);
    self->half_tree = half.tree;
  }
  if (self->elements.len > 1)
    qsort(self->elements.items, self->elements.len, sizeof *self->elements.items,
          syntax__by_start);
  /* Two patterns may capture one node (a definition both as a function and
   * as a decorated one): keep the first. */
  size_t kept = 0;
  for (size_t i = 0; i < self->elements.len; i++) {
    EddiElement *e = &self->elements.items[i];
    if (kept > 0) {
      EddiElement *last = &self->elements.items[kept - 1];
      unsigned functions = EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD;
      bool same_kind = last->kind == e->kind ||
                       ((last->kind & functions) && (e->kind & functions));
      if (last->start == e->start && last->end == e->end && same_kind) {
        last->local = last->local && e->local; /* a variable of the file or class wins */
        eddi_free(e->name), eddi_free(e->owner);
        continue;
      }
    }
    self->elements.items[kept++] = *e;
  }
  self->elements.len = kept;
  /* Parents: the nearest enclosing container. A function whose parent is a
   * class or impl is a method of it. */
  Array(size_t) stack = {0};
  for (size_t i = 0; i < self->elements.len; i++) {
    EddiElement *e = &self->elements.items[i];
    while (stack.len && self->elements.items[*array_back(&stack)].end <= e->start) stack.len--;
    while (stack.len && self->elements.items[*array_back(&stack)].end < e->end) stack.len--;
    if (stack.len) {
      e->parent = (int)*array_back(&stack);
      EddiElement *parent = &self->elements.items[e->parent];
      if (e->kind == EDDI_ELEMENT_FUNCTION &&
          (parent->kind == EDDI_ELEMENT_CLASS || parent->kind == EDDI_ELEMENT_IMPL))
        e->kind = EDDI_ELEMENT_METHOD;
      if (e->kind == EDDI_ELEMENT_METHOD && !e->owner &&
          (parent->kind == EDDI_ELEMENT_CLASS || parent->kind == EDDI_ELEMENT_IMPL))
        e->owner = eddi_strdup(parent->name);
    }
    if (e->kind & (EDDI_ELEMENT_CLASS | EDDI_ELEMENT_IMPL | EDDI_ELEMENT_FUNCTION |
                   EDDI_ELEMENT_METHOD))
      array_push(&stack, i);
  }
  array_free(&stack);
  syntax__keep_locals_of_functions(self);
}

/* ---------------------------------------------------------------- details */

/* The span of the capture named list in match, for a name captured with
 * the list that binds it; false when the pattern has none. */
static bool syntax__match_span(const TSQuery *query, const TSQueryMatch *match, const char *list,
                               EddiSpan *span) {
  size_t n = strlen(list);
  for (uint16_t i = 0; i < match->capture_count; i++) {
    uint32_t len;
    const char *name = ts_query_capture_name_for_id(query, match->captures[i].index, &len);
    if (len != n || memcmp(name, list, n) != 0) continue;
    *span = (EddiSpan){ts_node_start_byte(match->captures[i].node),
                       ts_node_end_byte(match->captures[i].node)};
    return true;
  }
  return false;
}

/* A name of a list (parameters, keyword arguments) into names. */
static void syntax__add_listed(EddiListedNames *names, const TSQuery *query,
                               const TSQueryMatch *match, const char *list, EddiSpan span) {
  EddiListedName listed = {.name = span};
  if (!syntax__match_span(query, match, list, &listed.list)) return;
  if (names->len && array_back(names)->name.start == span.start) return; /* two patterns */
  array_push(names, listed);
}

/* Run the details query over the tree at root into d; slice(source, ...)
 * gives the bytes its predicates compare. */
static void syntax__collect_details(EddiDetails *d, const TSQuery *query, TSNode root,
                                    EddiSyntaxSlice slice, const void *source) {
  TSQueryCursor *cursor = ts_query_cursor_new();
  ts_query_cursor_exec(cursor, query, root);
  TSQueryMatch match;
  uint32_t index;
  while (ts_query_cursor_next_capture(cursor, &match, &index)) {
    const TSQueryCapture *capture = &match.captures[index];
    if (!eddi_syntax_predicates_hold(query, &match, slice, source)) continue;
    uint32_t len;
    const char *name = ts_query_capture_name_for_id(query, capture->index, &len);
    EddiSpan span = {ts_node_start_byte(capture->node), ts_node_end_byte(capture->node)};
#define SYNTAX_IS(s) (len == sizeof(s) - 1 && memcmp(name, s, len) == 0)
    /* An alternation of keywords can capture one node once per keyword:
     * captures come in order, so a repeat is the previous one. */
#define SYNTAX_ADD(list)                                                          \
  do {                                                                            \
    if (!(list)->len || array_back(list)->start != span.start ||                  \
        array_back(list)->end != span.end)                                        \
      array_push(list, span);                                                     \
  } while (0)
    if (SYNTAX_IS("decorator")) SYNTAX_ADD(&d->decorators);
    else if (SYNTAX_IS("comment")) SYNTAX_ADD(&d->comments);
    else if (SYNTAX_IS("decision")) SYNTAX_ADD(&d->decisions);
    else if (SYNTAX_IS("nesting")) SYNTAX_ADD(&d->nestings);
    else if (SYNTAX_IS("call.name")) SYNTAX_ADD(&d->calls);
    else if (SYNTAX_IS("import.name")) SYNTAX_ADD(&d->import_names);
    else if (SYNTAX_IS("parameter.name"))
      syntax__add_listed(&d->parameters, query, &match, "parameter.list", span);
    else if (SYNTAX_IS("argument.name"))
      syntax__add_listed(&d->keyword_arguments, query, &match, "argument.list", span);
#undef SYNTAX_ADD
#undef SYNTAX_IS
  }
  ts_query_cursor_delete(cursor);
}

const EddiDetails *eddi_syntax_details(EddiSyntax *self, const EddiText *text) {
  if (self->details_ready || !self->lang->details) return &self->details;
  syntax__collect_details(&self->details, self->lang->details, ts_tree_root_node(self->tree),
                          syntax__slice_text, text);
  self->details_ready = true;
  return &self->details;
}

/* The details query on a thread of its own while the structure query runs
 * (eddi_syntax_want_details): its own copy of the tree, and a flat copy of
 * the text for the predicates (the text store's lookups update caches, so
 * two threads may not share it). */
typedef struct {
  const TSQuery *query;
  TSTree *tree;
  char *flat;
  EddiDetails details;
} SyntaxDetailsRun;

static char *syntax__slice_flat(const void *source, size_t start, size_t end) {
  return eddi_strndup((const char *)source + start, end - start);
}

static void *syntax__details_thread(void *closure) {
  SyntaxDetailsRun *run = closure;
  syntax__collect_details(&run->details, run->query, ts_tree_root_node(run->tree),
                          syntax__slice_flat, run->flat);
  return NULL;
}

static EddiSyntax *syntax__new(EddiDoc *doc, size_t max_bytes);

void eddi_syntax_want_details(EddiDoc *doc) {
  if (!doc->syntax) syntax__attach(syntax__new(doc, 0), doc);
  doc->syntax->details_wanted = true;
}

/* ---------------------------------------------------------------- extents */

size_t eddi_syntax_extent_start(EddiSyntax *self, const EddiText *text, const EddiElement *e) {
  const EddiDetails *d = eddi_syntax_details(self, text);
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
          char c = eddi_text_byte_at(text, p);
          if (c == '\n') breaks++;
          else if (c != ' ' && c != '\t' && c != '\r') clean = false;
        }
        if (clean && breaks <= 1 && (l == 0 || breaks == 1 || s.start < e->start)) {
          /* A comment at the end of the previous statement's line is not ours. */
          size_t first = eddi_text_line_start(text, eddi_text_line_at(text, s.start));
          bool alone = true;
          for (size_t p = first; p < s.start; p++) {
            char c = eddi_text_byte_at(text, p);
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
  return start;
}

/* ---------------------------------------------------------------- the tree */

static EddiSyntax *syntax__new(EddiDoc *doc, size_t max_bytes) {
  EddiSyntax *self = eddi_calloc(1, sizeof *self);
  self->stale = true;
  const EddiText *text = &doc->text;
  char first[SYNTAX_FIRST_LINE_MAX];
  size_t n = EDDI_MIN(sizeof first, eddi_text_len(text));
  eddi_text_copy(text, 0, n, first);
  self->lang = eddi_lang_detect(doc->path, first, n);
  const char *base = strrchr(doc->path, '/');
  base = base ? base + 1 : doc->path;
  const char *dot = strrchr(base, '.');
  if (!self->lang) {
    if (dot && dot != base) snprintf(self->plain, sizeof self->plain, "No grammar for %s", dot);
    else snprintf(self->plain, sizeof self->plain, "No grammar for %s", base);
  } else if (!self->lang->ts) {
    snprintf(self->plain, sizeof self->plain, "%s", self->lang->refused);
    self->lang = NULL;
  } else {
    self->parser = ts_parser_new();
    ts_parser_set_language(self->parser, self->lang->ts);
  }
  EDDI_UNUSED(max_bytes);
  return self;
}

int eddi_syntax_get(EddiDoc *doc, size_t max_bytes, EddiSyntax **out, EddiError *err) {
  if (!doc->syntax) syntax__attach(syntax__new(doc, max_bytes), doc);
  EddiSyntax *self = doc->syntax;
  if (!self->lang) {
    eddi_error_set(err, EDDI_EINVAL, "%s", self->plain);
    eddi_error_hint(err, "Use Find, Show Block, Insert Block and Delete Block");
    return EDDI_EINVAL;
  }
  size_t limit = max_bytes ? max_bytes : EDDI_SYNTAX_MAX_BYTES_DEFAULT;
  if (eddi_text_len(&doc->text) > limit) {
    if (limit % ((size_t)1 << 20) == 0)
      eddi_error_set(err, EDDI_ETOOBIG, "File is over %zu MB: handled as plain text", limit >> 20);
    else
      eddi_error_set(err, EDDI_ETOOBIG, "File is over %zu bytes: handled as plain text", limit);
    eddi_error_hint(err, "Use Find, Show Block and Delete Block");
    return EDDI_ETOOBIG;
  }
  if (self->stale || !self->tree) {
    TSTree *tree = eddi_syntax_parse_text(self->parser, self->tree, &doc->text);
    if (!tree) return eddi_error_set(err, EDDI_EIO, "The parser gave up on %s", doc->path);
    if (self->tree) ts_tree_delete(self->tree);
    self->tree = tree;
    self->stale = false;
    self->parses++;
    syntax__drop_caches(self);
  }
  if (!self->elements_ready) {
    /* Details asked for ahead: their query runs beside the structure's. */
    SyntaxDetailsRun run = {0};
    pthread_t thread;
    bool beside = self->details_wanted && !self->details_ready && self->lang->details;
    if (beside) {
      run.query = self->lang->details;
      run.tree = ts_tree_copy(self->tree);
      run.flat = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
      if (pthread_create(&thread, NULL, syntax__details_thread, &run) != 0) {
        ts_tree_delete(run.tree);
        eddi_free(run.flat);
        beside = false;
      }
    }
    syntax__list_elements(self, &doc->text);
    self->elements_ready = true;
    if (beside) {
      pthread_join(thread, NULL);
      ts_tree_delete(run.tree);
      eddi_free(run.flat);
      syntax__details_free(&self->details);
      self->details = run.details;
      self->details_ready = true;
    }
  }
  self->details_wanted = false;
  *out = self;
  return 0;
}

EddiSyntax *eddi_syntax_of_text(const EddiLang *lang, const EddiText *text) {
  EddiSyntax *self = eddi_calloc(1, sizeof *self);
  self->lang = lang;
  self->parser = ts_parser_new();
  ts_parser_set_language(self->parser, lang->ts);
  self->tree = eddi_syntax_parse_text(self->parser, NULL, text);
  if (self->tree) {
    self->parses = 1;
    syntax__list_elements(self, text);
  }
  self->elements_ready = true;
  return self;
}

/* ---------------------------------------------------------------- lookups */

/* Compare a parameter list with the one asked for, ignoring whitespace and
 * the parentheses, and a leading implicit parameter (self) the request
 * leaves out. */
static bool syntax__params_match(const EddiLang *lang, const EddiText *text, const EddiElement *e,
                                 const char *want) {
  char *have = e->has_params ? eddi_text_dup(text, e->params_start, e->params_end)
                             : eddi_strdup("");
  const char *a = have, *b = want;
  while (*a == '(' || *a == ' ') a++;
  while (*b == '(' || *b == ' ') b++;
  for (size_t k = 0; k < EDDI_LANG_LIST_MAX && lang->implicit_params[k]; k++) {
    size_t n = strlen(lang->implicit_params[k]);
    if (strncmp(a, lang->implicit_params[k], n) != 0 || strncmp(b, a, n) == 0) continue;
    const char *after = a + n;
    while (*after == ' ') after++;
    if (*after == ',' || *after == ')' || !*after) {
      a = after + (*after == ',');
      break;
    }
  }
  bool same = true;
  for (;;) {
    while (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r' || *a == '(' || *a == ')') a++;
    while (*b == ' ' || *b == '\t' || *b == '(' || *b == ')') b++;
    if (!*a || !*b) {
      same = !*a && !*b;
      break;
    }
    if (*a++ != *b++) {
      same = false;
      break;
    }
  }
  eddi_free(have);
  return same;
}

void eddi_syntax_find(EddiSyntax *self, const EddiText *text, unsigned kinds, const char *name,
                      const char *owner, const char *params, EddiIndexList *out) {
  for (size_t i = 0; i < self->elements.len; i++) {
    const EddiElement *e = &self->elements.items[i];
    if (!(e->kind & kinds) || strcmp(e->name, name) != 0) continue;
    if (owner && (!e->owner || strcmp(e->owner, owner) != 0)) continue;
    if (params && !syntax__params_match(self->lang, text, e, params)) continue;
    array_push(out, i);
  }
}

int eddi_syntax_innermost(const EddiSyntax *self, size_t offset, unsigned kinds) {
  int best = -1;
  for (size_t i = 0; i < self->elements.len; i++) {
    const EddiElement *e = &self->elements.items[i];
    if (e->start > offset) break;
    if ((e->kind & kinds) && offset <= e->end) best = (int)i; /* later starts are inner */
  }
  return best;
}

static bool syntax__is_error(TSNode node) {
  return ts_node_is_missing(node) || strcmp(ts_node_type(node), "ERROR") == 0;
}

bool eddi_syntax_element_error(const EddiElement *element, size_t *offset) {
  TSNode node = element->node;
  if (!ts_node_has_error(node)) return false;
  /* Walk down to the first ERROR or MISSING node. */
  for (;;) {
    if (syntax__is_error(node)) break;
    uint32_t count = ts_node_child_count(node);
    bool descended = false;
    for (uint32_t i = 0; i < count; i++) {
      TSNode child = ts_node_child(node, i);
      if (ts_node_has_error(child) || syntax__is_error(child)) {
        node = child;
        descended = true;
        break;
      }
    }
    if (!descended) break;
  }
  *offset = ts_node_start_byte(node);
  return true;
}
