/* analyze_command.c - Analyze (outline, dependencies, complexity, issues)
 * and Validate (syntax errors), of a file or one element.
 *
 * The numbers come from details.scm's captures: decisions count toward
 * cyclomatic complexity, nestings toward depth, import names toward unused
 * imports. They are what a model needs to choose where to look, not a
 * linter's verdict. */
#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include "core/disk_backend.h"
#include "core/path.h"
#include "lang/suggest.h"
#include "lsp/lsp_servers.h"
#include "services/structure.h"

/* Limits: lines an outline or an issue list names before it says "and N
 * more"; the issue thresholds of the issue list. */
#define STRUCTURE_LIST_MAX 50
#define STRUCTURE_LONG_FUNCTION_LINES 50
#define STRUCTURE_DEEP_NESTING 4
#define STRUCTURE_MANY_PARAMS 5
/* Room for one issue as listed: what it is, the element's name, numbers. */
#define STRUCTURE_ISSUE_MAX 512

/* ---------------------------------------------------------------- Analyze */

typedef struct {
  size_t complexity;
  size_t depth;         /* deepest nesting */
  size_t depth_at;
  size_t params;
  size_t lines;
} AnalyzeMetrics;

/* One Analyze: what its analyses share, each computed once and only when
 * an analysis asks for it. */
typedef struct {
  EddiDoc *doc;
  EddiSyntax *syn;
  AnalyzeMetrics *metrics; /* per element (functions and methods only) */
  char *flat;              /* the text, for word searches */
} Analysis;

static void analysis__free(Analysis *self) {
  eddi_free(self->metrics);
  eddi_free(self->flat);
}

/* ---------------------------------------------------------------- metrics */

typedef struct {
  size_t start, end, index;
} AnalyzeSpan;

static int analyze__span_order(const void *a, const void *b) {
  const AnalyzeSpan *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1; /* outer first */
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The spans of list in start order (outer first at one start), with their
 * indices. The caller frees the result. */
static AnalyzeSpan *analyze__sorted(const EddiSpan *spans, size_t count) {
  AnalyzeSpan *sorted = eddi_malloc((count ? count : 1) * sizeof *sorted);
  for (size_t k = 0; k < count; k++)
    sorted[k] = (AnalyzeSpan){spans[k].start, spans[k].end, k};
  if (count) qsort(sorted, count, sizeof *sorted, analyze__span_order);
  return sorted;
}

/* For each span (sorted), the function or method that owns its start:
 * what eddi_syntax_innermost answers (the element of the latest start that
 * holds the offset), for all spans in one sweep. Elements come in start
 * order; a stack keeps the open ones, the top the latest: one that ended
 * before the offset has ended for every later offset too. */
static void analyze__owners(const EddiSyntax *syn, const AnalyzeSpan *sorted, size_t count,
                            int *owner) {
  const unsigned functions = EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD;
  Array(size_t) open = {0};
  size_t next = 0;
  for (size_t k = 0; k < count; k++) {
    size_t at = sorted[k].start;
    for (; next < syn->elements.len && syn->elements.items[next].start <= at; next++)
      if (syn->elements.items[next].kind & functions) array_push(&open, next);
    while (open.len && syn->elements.items[*array_back(&open)].end < at) open.len--;
    owner[sorted[k].index] = open.len ? (int)*array_back(&open) : -1;
  }
  array_free(&open);
}

/* Complexity, nesting depth, parameters and lines of every function and
 * method, in one pass over the decisions and nestings (a nesting's depth
 * counts the nestings around it that start inside its function). */
static const AnalyzeMetrics *analysis__metrics(Analysis *self) {
  if (self->metrics) return self->metrics;
  EddiSyntax *syn = self->syn;
  EddiDoc *doc = self->doc;
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  size_t n = syn->elements.len;
  AnalyzeMetrics *m = self->metrics = eddi_calloc(n ? n : 1, sizeof *m);
  for (size_t i = 0; i < n; i++) m[i].complexity = 1;

  AnalyzeSpan *decisions = analyze__sorted(d->decisions.items, d->decisions.len);
  int *owner = eddi_malloc((d->decisions.len + d->nestings.len + 1) * sizeof *owner);
  analyze__owners(syn, decisions, d->decisions.len, owner);
  for (size_t k = 0; k < d->decisions.len; k++) {
    EddiSpan s = d->decisions.items[k];
    if (owner[k] < 0) continue;
    const EddiElement *e = &syn->elements.items[owner[k]];
    if (s.start >= e->start && s.end <= e->end) m[owner[k]].complexity++;
  }
  eddi_free(decisions);

  size_t count = d->nestings.len;
  AnalyzeSpan *nestings = analyze__sorted(d->nestings.items, count);
  analyze__owners(syn, nestings, count, owner);
  size_t *depth = eddi_calloc(count ? count : 1, sizeof *depth);
  /* The nestings around each one: a stack in start order (nestings are
   * nodes of the tree: nested or apart). */
  Array(size_t) around = {0};
  for (size_t k = 0; k < count; k++) {
    const AnalyzeSpan *s = &nestings[k];
    while (around.len && nestings[*array_back(&around)].end < s->end) around.len--;
    int i = owner[s->index];
    if (i >= 0) {
      const EddiElement *e = &syn->elements.items[i];
      size_t inside = 0; /* around s, strictly, and starting in e */
      for (size_t j = around.len; j-- > 0;) {
        const AnalyzeSpan *o = &nestings[around.items[j]];
        if (o->start < e->start) break;
        if (o->start < s->start || o->end > s->end) inside++;
      }
      depth[s->index] = 1 + inside;
    }
    array_push(&around, k);
  }
  array_free(&around);
  for (size_t k = 0; k < count; k++) {
    EddiSpan s = d->nestings.items[k];
    int i = owner[k];
    if (i < 0) continue;
    const EddiElement *e = &syn->elements.items[i];
    if (s.start < e->start || s.end > e->end) continue;
    if (depth[k] > m[i].depth) m[i].depth = depth[k], m[i].depth_at = s.start;
  }
  eddi_free(depth);
  eddi_free(nestings);
  eddi_free(owner);

  for (size_t i = 0; i < n; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (!(e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) continue;
    if (e->has_params) {
      TSNode p = eddi_structure_params_node(syn, e);
      if (!ts_node_is_null(p)) {
        uint32_t params = ts_node_named_child_count(p);
        for (uint32_t k = 0; k < params; k++)
          if (!strstr(ts_node_type(ts_node_named_child(p, k)), "comment")) m[i].params++;
      }
    }
    m[i].lines = eddi_structure_line_of(doc, e->end) - eddi_structure_line_of(doc, e->start) + 1;
  }
  return m;
}

/* Whether word occurs as a whole identifier in [from, to), outside
 * [skip_s, skip_e). The text is copied once per Analyze, not per word. */
static bool analysis__word_used(Analysis *self, const char *word, size_t from, size_t to,
                                size_t skip_s, size_t skip_e) {
  size_t n = strlen(word);
  if (!n) return true;
  if (!self->flat) self->flat = eddi_text_dup(&self->doc->text, 0, eddi_text_len(&self->doc->text));
  const char *text = self->flat, *end = self->flat + to;
  for (const char *p = text + from; (p = memmem(p, (size_t)(end - p), word, n)); p++) {
    size_t at = (size_t)(p - text);
    if (at >= skip_s && at < skip_e) continue;
    bool left = at == from || !eddi_structure_is_ident(p[-1]);
    bool right = p + n >= end || !eddi_structure_is_ident(p[n]);
    if (left && right) return true;
  }
  return false;
}

/* Local when relative ("./x", ".x") or naming a file of the workspace
 * (beside the document or from the root, dots read as folders: foo.bar ->
 * foo/bar.py); else external. Quotes and angle brackets are not part of the
 * name; <x.h> is always external. */
static bool analyze__import_local(CommandContext *ctx, EddiDoc *doc, const char *module) {
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
      eddi_strbuf_printf(&path, "%s/%s%s%s%s", eddi_workspace_root(ctx->workspace),
                         beside ? dir : "", beside ? "/" : "", rel, ext);
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
} AnalyzeIssues;

static void analyze__issue(AnalyzeIssues *self, EddiDoc *doc, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void analyze__issue(AnalyzeIssues *self, EddiDoc *doc, size_t at, const char *fmt, ...) {
  if (self->count++ >= STRUCTURE_LIST_MAX) return;
  va_list ap;
  va_start(ap, fmt);
  char buf[STRUCTURE_ISSUE_MAX];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  size_t line, col;
  eddi_structure_position(doc, at, &line, &col);
  eddi_strbuf_printf(&self->list, "%s%s at %zu:%zu", self->list.len ? ", " : "", buf, line, col);
}

/* ERROR and MISSING nodes in [from, to), not looking inside an ERROR. */
static void analyze__syntax_errors(EddiDoc *doc, TSNode node, size_t from, size_t to,
                                   AnalyzeIssues *out) {
  if (!ts_node_has_error(node) && !ts_node_is_missing(node)) return;
  if (ts_node_end_byte(node) < from || ts_node_start_byte(node) > to) return;
  if (ts_node_is_missing(node)) {
    analyze__issue(out, doc, ts_node_start_byte(node), "Missing \"%s\"", ts_node_type(node));
    return;
  }
  if (strcmp(ts_node_type(node), "ERROR") == 0) {
    analyze__issue(out, doc, ts_node_start_byte(node), "Syntax error");
    return;
  }
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n && out->count <= STRUCTURE_LIST_MAX; i++)
    analyze__syntax_errors(doc, ts_node_child(node, i), from, to, out);
}

/* A name bound twice in one list of [from, to): the later one is listed.
 * Lists nest (a lambda in a default value), so the names before one that
 * share its list are those back to where its list starts. */
static void analyze__duplicate_names(EddiDoc *doc, const EddiListedNames *names, const char *what,
                                     size_t from, size_t to, AnalyzeIssues *out) {
  for (size_t i = 1; i < names->len; i++) {
    const EddiListedName *name = &names->items[i];
    if (name->name.start < from || name->name.end > to) continue;
    char *text = eddi_text_dup(&doc->text, name->name.start, name->name.end);
    for (size_t k = i; k-- > 0 && names->items[k].name.start >= name->list.start;) {
      const EddiListedName *other = &names->items[k];
      if (other->list.start != name->list.start || other->list.end != name->list.end) continue;
      if (other->name.end - other->name.start != name->name.end - name->name.start) continue;
      char *other_text = eddi_text_dup(&doc->text, other->name.start, other->name.end);
      bool same = strcmp(text, other_text) == 0;
      eddi_free(other_text);
      if (!same) continue;
      analyze__issue(out, doc, name->name.start, "Duplicate %s %s", what, text);
      break;
    }
    eddi_free(text);
  }
}

/* The errors of [from, to): the parse tree's, then those the language
 * defines that a grammar accepts (a name bound twice in one list). */
static void analyze__errors(EddiDoc *doc, EddiSyntax *syn, size_t from, size_t to,
                            AnalyzeIssues *out) {
  analyze__syntax_errors(doc, ts_tree_root_node(syn->tree), from, to, out);
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  analyze__duplicate_names(doc, &d->parameters, "parameter", from, to, out);
  analyze__duplicate_names(doc, &d->keyword_arguments, "keyword argument", from, to, out);
}

static void analyze__issues(Analysis *an, size_t from, size_t to, AnalyzeIssues *out) {
  EddiDoc *doc = an->doc;
  EddiSyntax *syn = an->syn;
  analyze__errors(doc, syn, from, to, out);
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  for (size_t i = 0; i < d->import_names.len; i++) {
    EddiSpan s = d->import_names.items[i];
    if (s.start < from || s.end > to) continue;
    char *name = eddi_text_dup(&doc->text, s.start, s.end);
    int imp = eddi_syntax_innermost(syn, s.start, EDDI_ELEMENT_IMPORT);
    size_t skip_s = imp >= 0 ? syn->elements.items[imp].start : s.start;
    size_t skip_e = imp >= 0 ? syn->elements.items[imp].end : s.end;
    if (!analysis__word_used(an, name, 0, eddi_text_len(&doc->text), skip_s, skip_e))
      analyze__issue(out, doc, s.start, "Unused import %s", name);
    eddi_free(name);
  }
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (!(e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) continue;
    if (e->start < from || e->end > to) continue;
    AnalyzeMetrics m = analysis__metrics(an)[i];
    char *display = eddi_element_display(e);
    const char *kind = eddi_element_kind_name(e->kind);
    if (m.lines > STRUCTURE_LONG_FUNCTION_LINES)
      analyze__issue(out, doc, e->start, "%s %s has %zu lines (over %d)", kind, display, m.lines,
                STRUCTURE_LONG_FUNCTION_LINES);
    if (m.depth > STRUCTURE_DEEP_NESTING)
      analyze__issue(out, doc, m.depth_at, "%s %s nests %zu deep (over %d)", kind, display, m.depth,
                STRUCTURE_DEEP_NESTING);
    if (m.params > STRUCTURE_MANY_PARAMS)
      analyze__issue(out, doc, e->start, "%s %s has %zu parameters (over %d)", kind, display,
                m.params, STRUCTURE_MANY_PARAMS);
    eddi_free(display);
  }
}

static void analyze__list_more(StrBuf *out, size_t count) {
  if (count > STRUCTURE_LIST_MAX)
    eddi_strbuf_printf(out, ", and %zu more", count - STRUCTURE_LIST_MAX);
}

static const char *const analyze__types[] = {"Structure", "Dependencies", "Complexity", "Issues"};
#define ANALYZE_TYPE_COUNT (sizeof analyze__types / sizeof analyze__types[0])

static bool analyze__is_type(const Token *token) {
  for (size_t i = 0; i < ANALYZE_TYPE_COUNT; i++)
    if (eddi_token_is(token, analyze__types[i])) return true;
  return false;
}

/* A file Analyze File names that is not open: read from disk into a
 * document of its own (freed by the caller), so that the session's files
 * and its current one stay as they were. A name that is no file but close
 * to an analysis was meant as one. */
static int analyze__read_file(CommandContext *ctx, const Token *name, const char *rel,
                              EddiDoc **doc) {
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new = false;
  int rc = eddi_disk_open(eddi_workspace_root_fd(ctx->workspace), rel, false,
                          eddi_workspace_config(ctx->workspace)->max_file_bytes, &backend, &text,
                          &is_new, ctx->err);
  if (rc == EDDI_ENOENT) {
    const char *near = name->kind == TOKEN_WORD
                           ? eddi_suggest(name->text, analyze__types, ANALYZE_TYPE_COUNT)
                           : NULL;
    if (near) {
      eddi_error_set(ctx->err, EDDI_EINVAL, "Unknown analysis '%s'", name->text);
      eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
      rc = EDDI_EINVAL;
    } else {
      eddi_error_set(ctx->err, EDDI_ENOENT, "File not found: %s", rel);
      eddi_error_hint(ctx->err, "Give a path from the workspace root, or one of Structure, "
                                "Dependencies, Complexity, Issues");
    }
  }
  if (rc == 0) *doc = eddi_doc_new(rel, backend, text.data ? text.data : "", text.len, false, 1);
  eddi_strbuf_free(&text);
  return rc;
}

/* The document Analyze File <name> is about: an open one (the session's
 * copy, unsaved changes included), else the file as it is on disk in
 * *read, which the caller frees. */
static int analyze__named_file(CommandContext *ctx, const Token *name, EddiDoc **doc,
                               EddiDoc **read) {
  char *path = eddi_command_token_string(name);
  bool ambiguous;
  *doc = eddi_session_find_doc(ctx->session, path, &ambiguous);
  int rc = 0;
  if (ambiguous) {
    rc = eddi_command_named_doc(ctx, name, doc);
  } else if (!*doc) {
    char *rel = NULL, *abs = NULL;
    rc = eddi_command_resolve(ctx, path, &rel, &abs);
    if (rc == 0) *doc = eddi_session_find_doc(ctx->session, rel, &ambiguous);
    if (rc == 0 && !*doc) {
      rc = analyze__read_file(ctx, name, rel, read);
      *doc = *read;
    }
    eddi_free(rel), eddi_free(abs);
  }
  eddi_free(path);
  if (rc == 0 && !*read) rc = eddi_doc_sync(*doc, ctx->err);
  return rc;
}

static int analyze__run(CommandContext *ctx, EddiDoc *doc, size_t next);

int eddi_run_analyze(CommandContext *ctx) {
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Analyze needs a target");
  EddiDoc *doc = ctx->session->current, *read = NULL;
  size_t next = 1;
  int rc = 0;
  if (eddi_token_is(&ctx->args[0], "File") && next < ctx->argc &&
      !analyze__is_type(&ctx->args[next])) {
    rc = analyze__named_file(ctx, &ctx->args[next++], &doc, &read);
  } else if (!doc) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "No file open");
    eddi_error_hint(ctx->err, "Open one with \"Open <file>\", or name it: Analyze File <path>");
    rc = EDDI_ESTATE;
  } else {
    rc = eddi_doc_sync(doc, ctx->err);
  }
  if (rc == 0) rc = analyze__run(ctx, doc, next);
  if (read) eddi_doc_free(read);
  return rc;
}

/* Analyze doc: the target at ctx->args[0] ("File" or an element), the
 * analysis at ctx->args[next] if any. */
static int analyze__run(CommandContext *ctx, EddiDoc *doc, size_t next) {
  const char *const *types = analyze__types;
  enum { SUMMARY = -1, STRUCTURE, DEPENDENCIES, COMPLEXITY, ISSUES };
  /* The summary, Complexity and Issues need the details query: it runs
   * beside the structure query when the parse is fresh. */
  const Token *last = &ctx->args[ctx->argc - 1];
  if (!eddi_token_is(last, "Structure") && !eddi_token_is(last, "Dependencies"))
    eddi_syntax_want_details(doc);
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  EddiElement *target = NULL;
  if (!eddi_token_is(&ctx->args[0], "File")) {
    rc = eddi_structure_find(ctx, doc, syn, false, &target, &next);
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
  Analysis an = {.doc = doc, .syn = syn};
  StrBuf out = {0};
  /* Dependencies: imports of the file; for an element, those it uses.
   * Only what the asked-for analysis reports is computed. */
  size_t external = 0, local = 0;
  StrBuf ext_list = {0}, local_list = {0};
  bool wants_dependencies = type == SUMMARY || type == DEPENDENCIES;
  for (size_t i = 0; wants_dependencies && i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (e->kind != EDDI_ELEMENT_IMPORT) continue;
    if (target) {
      const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
      bool used = false;
      for (size_t k = 0; k < d->import_names.len && !used; k++) {
        EddiSpan s = d->import_names.items[k];
        if (s.start < e->start || s.end > e->end) continue;
        char *name = eddi_text_dup(&doc->text, s.start, s.end);
        used = analysis__word_used(&an, name, from, to, 0, 0);
        eddi_free(name);
      }
      if (!used) continue;
    }
    bool is_local = analyze__import_local(ctx, doc, e->name);
    StrBuf *list = is_local ? &local_list : &ext_list;
    size_t *count = is_local ? &local : &external;
    if ((*count)++ < STRUCTURE_LIST_MAX)
      eddi_strbuf_printf(list, "%s%s", list->len ? ", " : "", e->name);
  }
  AnalyzeIssues issues = {0};
  if (type == SUMMARY || type == ISSUES) analyze__issues(&an, from, to, &issues);
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
      eddi_strbuf_printf(
          &out, "%s%s %s %zu:%zu", shown > 1 ? ", " : "", eddi_element_kind_name(e->kind), display,
          eddi_structure_line_of(doc, e->start), eddi_structure_line_of(doc, e->end));
      eddi_free(display);
    }
    if (!shown) eddi_strbuf_puts(&out, "No functions or classes");
    analyze__list_more(&out, shown);
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
      /* "Function f complexity 3": the number says what it is. */
      eddi_strbuf_printf(&out, "%s%s %s complexity %zu", shown > 1 ? ", " : "",
                         eddi_element_kind_name(e->kind), display,
                         analysis__metrics(&an)[i].complexity);
      eddi_free(display);
    }
    if (!shown) eddi_strbuf_puts(&out, "No functions");
    analyze__list_more(&out, shown);
    break;
  }
  case ISSUES:
    if (!issues.count) eddi_strbuf_puts(&out, "No issues");
    else
      eddi_strbuf_printf(&out, "%zu %s, %s", issues.count, issues.count == 1 ? "issue" : "issues",
                         issues.list.data);
    analyze__list_more(&out, issues.count);
    break;
  default:
    if (target && (target->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) {
      eddi_strbuf_printf(&out, "%s has complexity %zu, ", eddi_element_kind_name(target->kind),
                    analysis__metrics(&an)[target_index].complexity);
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
  analysis__free(&an);
  return 0;
}

/* ---------------------------------------------------------------- Validate */

/* Validate with a language server: the syntax errors are found at once,
 * the server's diagnostics on a worker (lsp/lsp_client.h), over a copy of
 * the text as eddi holds it (a buffer's, not the disk's). Errors and
 * warnings in the range are listed; information and hints are not. */
typedef struct {
  EddiJob base;
  EddiLspServer *server; /* the workspace's: lives longer than the job */
  char *path;            /* absolute */
  char *text;
  size_t len, from, to;
  char *syntax; /* the reply's syntax part */
  int rc;
  EddiError err;
  EddiLspDiagnostics diagnostics;
} ValidateJob;

static void validate__destroy(EddiJob *base) {
  ValidateJob *self = (ValidateJob *)base;
  eddi_lsp_diagnostics_free(&self->diagnostics);
  eddi_free(self->path);
  eddi_free(self->text);
  eddi_free(self->syntax);
  eddi_free(self);
}

static void validate__work(EddiJob *base) {
  ValidateJob *self = (ValidateJob *)base;
  EddiLspText text = {self->path, self->text, self->len};
  self->rc = eddi_lsp_server_diagnose(self->server, &text, 1, 0, &self->diagnostics, &self->err);
}

/* Diagnostics in the order of the text, as the syntax errors are. */
static int validate__order(const void *a, const void *b) {
  const EddiLspDiagnostic *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->severity - y->severity;
}

static int validate__finish(EddiJob *base, CommandContext *ctx) {
  ValidateJob *self = (ValidateJob *)base;
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  if (self->diagnostics.len)
    qsort(self->diagnostics.items, self->diagnostics.len, sizeof *self->diagnostics.items,
          validate__order);
  size_t errors = 0, warnings = 0;
  StrBuf list = {0};
  for (size_t i = 0; i < self->diagnostics.len; i++) {
    const EddiLspDiagnostic *d = &self->diagnostics.items[i];
    if (d->severity > EDDI_LSP_WARNING || d->offset < self->from || d->offset > self->to) continue;
    if (d->severity == EDDI_LSP_ERROR) errors++;
    else warnings++;
    if (errors + warnings > STRUCTURE_LIST_MAX) continue;
    eddi_strbuf_printf(&list, ", %s%s at %zu:%zu", d->severity == EDDI_LSP_WARNING ? "warning: " : "",
                       d->message, d->line, d->col);
  }
  analyze__list_more(&list, errors + warnings);
  const char *name = eddi_lsp_server_name(self->server);
  StrBuf counts = {0};
  if (errors) eddi_strbuf_printf(&counts, "%zu %s", errors, errors == 1 ? "error" : "errors");
  if (warnings)
    eddi_strbuf_printf(&counts, "%s%zu %s", errors ? ", " : "", warnings,
                       warnings == 1 ? "warning" : "warnings");
  if (!errors && !warnings)
    eddi_reply_builder_payload(ctx->reply, "%s; %s: No errors or warnings", self->syntax, name);
  else
    eddi_reply_builder_payload(ctx->reply, "%s; %s: %s%s", self->syntax, name, counts.data,
                               list.data);
  eddi_strbuf_free(&counts);
  eddi_strbuf_free(&list);
  return 0;
}

int eddi_run_validate(CommandContext *ctx) {
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  size_t from = 0, to = eddi_text_len(&doc->text);
  if (ctx->argc > 0 && !eddi_token_is(&ctx->args[0], "File")) {
    StructureTarget t;
    size_t next;
    EddiElement *e;
    rc = eddi_structure_parse_target(ctx, 0, &t, &next);
    if (rc < 0) return rc;
    if (next != ctx->argc) rc = eddi_command_usage(ctx, "Validate takes one target");
    if (rc == 0) rc = eddi_structure_resolve(ctx, doc, syn, &t, &e);
    eddi_structure_target_free(&t);
    if (rc < 0) return rc;
    from = e->start, to = e->end;
  }
  AnalyzeIssues errors = {0};
  analyze__errors(doc, syn, from, to, &errors);
  StrBuf syntax = {0};
  if (!errors.count) eddi_strbuf_puts(&syntax, "No syntax errors");
  else
    eddi_strbuf_printf(&syntax, "%zu syntax %s, %s", errors.count,
                       errors.count == 1 ? "error" : "errors", errors.list.data);
  eddi_strbuf_free(&errors.list);
  EddiLspServer *server = eddi_lsp_for_language(ctx->workspace, ctx->session, syn->lang->name);
  if (!server) {
    eddi_reply_builder_payload(ctx->reply, "%s", syntax.data);
    eddi_strbuf_free(&syntax);
    return 0;
  }
  ValidateJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = validate__work;
  job->base.finish = validate__finish;
  job->base.destroy = validate__destroy;
  job->server = server;
  job->path = eddi_path_join(eddi_workspace_root(ctx->workspace), doc->path);
  job->len = eddi_text_len(&doc->text);
  job->text = eddi_text_dup(&doc->text, 0, job->len);
  job->from = from, job->to = to;
  job->syntax = eddi_strbuf_take(&syntax);
  return eddi_job_start(ctx, &job->base);
}
