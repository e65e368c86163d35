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

/* Whether span lies in element i and in no function nested in it. */
static bool analyze__owned_by(const EddiSyntax *syn, size_t i, size_t offset) {
  int inner = eddi_syntax_innermost(syn, offset, EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD);
  return inner == (int)i;
}

static AnalyzeMetrics analyze__metrics(EddiDoc *doc, EddiSyntax *syn, size_t i) {
  const EddiElement *e = &syn->elements.items[i];
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  AnalyzeMetrics m = {.complexity = 1};
  for (size_t k = 0; k < d->decisions.len; k++) {
    EddiSpan s = d->decisions.items[k];
    if (s.start >= e->start && s.end <= e->end && analyze__owned_by(syn, i, s.start))
      m.complexity++;
  }
  for (size_t k = 0; k < d->nestings.len; k++) {
    EddiSpan s = d->nestings.items[k];
    if (s.start < e->start || s.end > e->end || !analyze__owned_by(syn, i, s.start)) continue;
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
    TSNode p = eddi_structure_params_node(syn, e);
    if (!ts_node_is_null(p)) {
      uint32_t n = ts_node_named_child_count(p);
      for (uint32_t k = 0; k < n; k++)
        if (!strstr(ts_node_type(ts_node_named_child(p, k)), "comment")) m.params++;
    }
  }
  m.lines = eddi_structure_line_of(doc, e->end) - eddi_structure_line_of(doc, e->start) + 1;
  return m;
}

static bool analyze__word_used(EddiDoc *doc, const char *word, size_t from, size_t to,
                               size_t skip_s, size_t skip_e) {
  size_t n = strlen(word);
  if (!n) return true;
  char *text = eddi_text_dup(&doc->text, from, to);
  size_t len = to - from;
  bool used = false;
  for (const char *p = text; !used && (p = memmem(p, len - (size_t)(p - text), word, n)); p++) {
    size_t at = from + (size_t)(p - text);
    if (at >= skip_s && at < skip_e) continue;
    bool left = p == text || !eddi_structure_is_ident(p[-1]);
    bool right = (size_t)(p - text) + n >= len || !eddi_structure_is_ident(p[n]);
    used = left && right;
  }
  eddi_free(text);
  return used;
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
      eddi_strbuf_printf(&path, "%s/%s%s%s%s", ctx->engine->root, beside ? dir : "",
                         beside ? "/" : "", rel, ext);
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

static void analyze__issues(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, size_t from,
                            size_t to, AnalyzeIssues *out) {
  analyze__errors(doc, syn, from, to, out);
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  for (size_t i = 0; i < d->import_names.len; i++) {
    EddiSpan s = d->import_names.items[i];
    if (s.start < from || s.end > to) continue;
    char *name = eddi_text_dup(&doc->text, s.start, s.end);
    int imp = eddi_syntax_innermost(syn, s.start, EDDI_ELEMENT_IMPORT);
    size_t skip_s = imp >= 0 ? syn->elements.items[imp].start : s.start;
    size_t skip_e = imp >= 0 ? syn->elements.items[imp].end : s.end;
    if (!analyze__word_used(doc, name, 0, eddi_text_len(&doc->text), skip_s, skip_e))
      analyze__issue(out, doc, s.start, "Unused import %s", name);
    eddi_free(name);
  }
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (!(e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD))) continue;
    if (e->start < from || e->end > to) continue;
    AnalyzeMetrics m = analyze__metrics(doc, syn, i);
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
  EDDI_UNUSED(ctx);
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
  int rc = eddi_disk_open(ctx->engine->root_fd, rel, false, ctx->engine->config.max_file_bytes,
                          &backend, &text, &is_new, ctx->err);
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
        used = analyze__word_used(doc, name, from, to, 0, 0);
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
  analyze__issues(ctx, doc, syn, from, to, &issues);
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
                         analyze__metrics(doc, syn, i).complexity);
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
                    analyze__metrics(doc, syn, target_index).complexity);
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
  if (!errors.count) eddi_reply_builder_payload(ctx->reply, "No syntax errors");
  else
    eddi_reply_builder_payload(ctx->reply, "%zu syntax %s, %s", errors.count,
                  errors.count == 1 ? "error" : "errors", errors.list.data);
  eddi_strbuf_free(&errors.list);
  return 0;
}

