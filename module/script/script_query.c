/* script_query.c - the code query engine: the sets a script iterates and the
 * conditions it tests.
 *
 * Sets of code are read from the two layers that know code, never from a
 * text search. Calls, class hierarchies and whether a symbol is used come
 * from name resolution (module/refactor/: every occurrence of every file
 * resolved across files), so `caller of authenticate()` is the calls whose
 * callee resolves to that function, not every text that says
 * "authenticate(". Functions, classes, methods, variables and imports come
 * from the syntax layer's elements (module/syntax/, the language's
 * structure.scm), and complexity, parameters and decorators from its
 * details: those work for every language with a grammar, resolved or not.
 * The call of an occurrence is found in the tree: the node whose
 * "function" field holds it (Python's call, C's and JavaScript's
 * call_expression), its arguments the named children of "arguments".
 *
 * Inside `foreach file ... { }` a set is that file's; elsewhere it is the
 * workspace's (the files of the one walk, .gitignore honoured). */
#include "script/script_run.h"

#include <strings.h>

#include "core/utf8.h"
#include "refactor/rename.h"
#include "refactor/target.h"
#include "syntax/syntax.h"

/* ---------------------------------------------------------------- elements */

void script_element_copy(ScriptElement *dst, const ScriptElement *src) {
  *dst = *src;
  dst->name = src->name ? eddi_strdup(src->name) : NULL;
  dst->owner = src->owner ? eddi_strdup(src->owner) : NULL;
  memset(&dst->args, 0, sizeof dst->args);
  for (size_t i = 0; i < src->args.len; i++) array_push(&dst->args, src->args.items[i]);
}

void script_element_free(ScriptElement *self) {
  eddi_free(self->name);
  eddi_free(self->owner);
  array_free(&self->args);
}

void script_set_free(ScriptSet *self) {
  for (size_t i = 0; i < self->len; i++) script_element_free(&self->items[i]);
  array_free(self);
}

void script_element_refresh(ScriptFiles *files, ScriptElement *self) {
  ScriptFile *file = files->files.items[self->file];
  uint32_t v = self->version;
  if (v == script_file_version(file)) return;
  self->start = script_file_map(file, v, self->start);
  self->end = EDDI_MAX(self->start, script_file_map(file, v, self->end));
  self->name_start = script_file_map(file, v, self->name_start);
  self->name_end = script_file_map(file, v, self->name_end);
  self->params_start = script_file_map(file, v, self->params_start);
  self->params_end = script_file_map(file, v, self->params_end);
  for (size_t i = 0; i < self->args.len; i++) {
    self->args.items[i].start = script_file_map(file, v, self->args.items[i].start);
    self->args.items[i].end = script_file_map(file, v, self->args.items[i].end);
  }
  self->version = script_file_version(file);
}

void script_place(ScriptRun *run, uint32_t file, size_t offset, StrBuf *out) {
  ScriptFile *f = run->files.files.items[file];
  size_t line = 0, col = 0;
  eddi_utf8_line_col(f->text.data, f->text.len, EDDI_MIN(offset, f->text.len), &line, &col);
  eddi_strbuf_printf(out, "%s:%zu:%zu", f->rel, line, col);
}

/* ---------------------------------------------------------------- globs */

/* A glob against a workspace path: '*' and '?' within one part, '**' across
 * parts ("**" followed by '/' also matches no folder at all). A glob
 * without '/' is matched against the last part, as List's. One pass over
 * the glob keeps, for each prefix of the path, whether the glob so far
 * matches it: time glob x path and no recursion, whatever the stars (a
 * backtracking match is exponential in them, and as deep). */
static bool glob__match(const char *g, const char *s) {
  size_t n = strlen(s);
  bool *row = eddi_calloc(n + 1, sizeof *row), *next = eddi_calloc(n + 1, sizeof *next);
  row[0] = true;
  bool alive = true;
  while (*g && alive) {
    if (g[0] == '*' && g[1] == '*') {
      bool any = false;
      for (size_t j = 0; j <= n; j++) next[j] = any = any || row[j];
      g += 2;
      if (*g == '/') {
        /* "**" then '/', or neither: no folder at all. */
        for (size_t j = n + 1; j-- > 0;) next[j] = row[j] || (j && next[j - 1] && s[j - 1] == '/');
        g++;
      }
    } else if (*g == '*') {
      bool run = false;
      for (size_t j = 0; j <= n; j++) next[j] = run = row[j] || (run && s[j - 1] != '/');
      g++;
    } else {
      next[0] = false;
      for (size_t j = 0; j < n; j++)
        next[j + 1] = row[j] && (*g == '?' ? s[j] != '/' : s[j] == *g);
      g++;
    }
    bool *swap = row;
    row = next, next = swap;
    alive = false;
    for (size_t j = 0; j <= n && !alive; j++) alive = row[j];
  }
  bool matched = alive && row[n];
  eddi_free(row);
  eddi_free(next);
  return matched;
}

static bool glob__matches(const char *glob, const char *rel) {
  if (strchr(glob, '/')) return glob__match(glob, rel);
  const char *slash = strrchr(rel, '/');
  return glob__match(glob, slash ? slash + 1 : rel);
}

/* ---------------------------------------------------------------- scope */

/* The file the innermost foreach visits, or -1: the workspace. */
static int query__scope_file(ScriptRun *run) {
  for (size_t i = run->visiting.len; i-- > 0;)
    if (run->visiting.items[i].kind == SEL_FILE) return (int)run->visiting.items[i].file;
  return -1;
}

/* The files a set looks in: the scope's one, or every file with a grammar. */
typedef Array(uint32_t) ScriptFileIds;

static int query__files(ScriptRun *run, ScriptFileIds *out, EddiError *err) {
  int scope = query__scope_file(run);
  if (scope >= 0) {
    array_push(out, (uint32_t)scope);
    return 0;
  }
  const RefPaths *paths;
  int rc = script_files_paths(&run->files, &paths, err);
  for (size_t i = 0; rc == 0 && i < paths->len; i++) {
    if (!eddi_lang_detect(paths->items[i], NULL, 0)) continue;
    uint32_t index;
    rc = script_run_in_time(run, err);
    if (rc == 0) rc = script_files_get(&run->files, paths->items[i], &index, err);
    if (rc == 0) array_push(out, index);
  }
  return rc;
}

static ScriptElement *query__push(ScriptSet *out, ScriptElemKind kind, ScriptFiles *files,
                                  uint32_t file, size_t start, size_t end) {
  ScriptElement e = {.kind = kind, .file = file,
                     .version = script_file_version(files->files.items[file]),
                     .start = start, .end = end, .name_start = start, .name_end = start};
  array_push(out, e);
  return array_back(out);
}

/* ---------------------------------------------------------------- syntax sets */

/* Elements of kinds of every file in scope (named name and of class owner,
 * when given). */
static int query__elements(ScriptRun *run, unsigned kinds, const char *name, const char *owner,
                           ScriptSet *out, EddiError *err) {
  ScriptFileIds files = {0};
  int rc = query__files(run, &files, err);
  for (size_t f = 0; rc == 0 && f < files.len; f++) {
    ScriptFile *file = run->files.files.items[files.items[f]];
    rc = script_run_in_time(run, err); /* a parse of each file */
    if (rc < 0) break;
    EddiSyntax *syn = script_file_syntax(&run->files, file);
    if (!syn) continue;
    for (size_t i = 0; i < syn->elements.len; i++) {
      const EddiElement *e = &syn->elements.items[i];
      if (!(e->kind & kinds) || e->local) continue;
      if (e->kind == EDDI_ELEMENT_IMPORT && e->parent >= 0) continue;
      if (e->kind == EDDI_ELEMENT_VARIABLE && e->parent >= 0 &&
          syn->elements.items[e->parent].kind != EDDI_ELEMENT_CLASS)
        continue;
      if (name && strcmp(e->name, name) != 0) continue;
      if (owner && (!e->owner || strcmp(e->owner, owner) != 0)) continue;
      ScriptElemKind kind = e->kind == EDDI_ELEMENT_METHOD     ? SEL_METHOD
                            : e->kind == EDDI_ELEMENT_FUNCTION ? SEL_FUNCTION
                            : e->kind == EDDI_ELEMENT_CLASS    ? SEL_CLASS
                            : e->kind == EDDI_ELEMENT_IMPORT   ? SEL_IMPORT
                                                               : SEL_VARIABLE;
      ScriptElement *el = query__push(out, kind, &run->files, files.items[f], e->start, e->end);
      el->name = eddi_strdup(e->name);
      el->owner = e->owner ? eddi_strdup(e->owner) : NULL;
      el->name_start = e->name_start, el->name_end = e->name_end;
      el->has_params = e->has_params;
      el->params_start = e->params_start, el->params_end = e->params_end;
    }
  }
  array_free(&files);
  return rc;
}

/* ---------------------------------------------------------------- calls */

/* The call whose callee holds the name at [start, end) of file, as an
 * element; false when the name is not called there. */
static bool query__call_at(ScriptRun *run, uint32_t file_index, size_t start, size_t end,
                           ScriptSet *out) {
  ScriptFile *file = run->files.files.items[file_index];
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  if (!syn) return false;
  TSNode node = ts_node_descendant_for_byte_range(ts_tree_root_node(syn->tree), (uint32_t)start,
                                                  (uint32_t)end);
  for (;;) {
    TSNode parent = ts_node_parent(node);
    if (ts_node_is_null(parent)) return false;
    TSNode callee = ts_node_child_by_field_name(parent, "function", 8);
    if (!ts_node_is_null(callee) && ts_node_eq(callee, node)) {
      ScriptElement *el = query__push(out, SEL_CALL, &run->files, file_index,
                                      ts_node_start_byte(parent), ts_node_end_byte(parent));
      el->name_start = ts_node_start_byte(node), el->name_end = ts_node_end_byte(node);
      el->name = eddi_strndup(file->text.data + el->name_start, el->name_end - el->name_start);
      TSNode args = ts_node_child_by_field_name(parent, "arguments", 9);
      if (!ts_node_is_null(args)) {
        el->has_params = true;
        el->params_start = ts_node_start_byte(args), el->params_end = ts_node_end_byte(args);
        for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
          TSNode arg = ts_node_named_child(args, i);
          if (strstr(ts_node_type(arg), "comment")) continue;
          ScriptSpan span = {ts_node_start_byte(arg), ts_node_end_byte(arg)};
          array_push(&el->args, span);
        }
      }
      return true;
    }
    /* a.b.f: climb the member expression that ends with the name. */
    if (ts_node_end_byte(parent) != ts_node_end_byte(node)) return false;
    node = parent;
  }
}

/* The file of the overlay that holds source i of the index. */
static int query__source_file(ScriptRun *run, RefIndex *index, uint32_t source, uint32_t *file,
                              EddiError *err) {
  return script_files_get(&run->files, index->sources.items[source].path, file, err);
}

/* Whether file index i is in the scope (the file of the foreach around, if any). */
static bool query__in_scope(ScriptRun *run, uint32_t file) {
  int scope = query__scope_file(run);
  return scope < 0 || (uint32_t)scope == file;
}

/* The entity a query names: a spec for ref_target_find, or a $variable's
 * first element (a class or a function) by its place. */
static int query__target(ScriptRun *run, const ScriptQuery *q, RefIndex *index,
                         RefProgram *program, RefTarget *target, EddiError *err);

/* Calls whose callee resolves to target. */
static int query__calls_of(ScriptRun *run, RefIndex *index, RefProgram *program, RefTarget target,
                           ScriptSet *out, EddiError *err) {
  target = ref_program_canonical(program, target);
  for (uint32_t s = 0; s < index->sources.len; s++) {
    RefFile *rf = index->sources.items[s].file;
    uint32_t file = 0;
    bool loaded = false;
    if (script_run_in_time(run, err) < 0) return EDDI_ETOOBIG;
    for (uint32_t o = 0; o < rf->occs.len; o++) {
      const RefOcc *occ = &rf->occs.items[o];
      if (occ->flags & REF_OCC_DEF) continue;
      if (occ->kind != REF_OCC_NAME && occ->kind != REF_OCC_MEMBER) continue;
      RefTarget t = ref_program_canonical(program, ref_program_target(program, s, o));
      if (!ref_target_equal(t, target)) continue;
      if (!loaded) {
        int rc = query__source_file(run, index, s, &file, err);
        if (rc < 0) return rc;
        loaded = true;
      }
      if (!query__in_scope(run, file)) break;
      query__call_at(run, file, occ->start, occ->end, out);
    }
  }
  return 0;
}

/* The module path of an import, dotted ("os.path"). */
static void query__import_path(RefIndex *index, const RefFile *rf, const RefImport *imp,
                               StrBuf *out) {
  for (uint32_t i = 0; i < imp->parts_count; i++)
    eddi_strbuf_printf(out, "%s%s", i ? "." : "",
                       ref_names_str(&index->names, rf->parts.items[imp->parts_first + i]));
}

/* The import that binds sym in rf, or NULL. */
static const RefImport *query__import_of(const RefFile *rf, uint32_t sym) {
  for (size_t i = 0; i < rf->imports.len; i++)
    if (rf->imports.items[i].sym == sym) return &rf->imports.items[i];
  return NULL;
}

/* Calls of module.name where the module is no file of the workspace (an
 * external or a removed module, as in a migration): the callee is the
 * name bound by `from module import name`, or the attribute name of a
 * name bound by `import module`, both read from the file's resolved
 * imports. */
static int query__calls_through_imports(ScriptRun *run, RefIndex *index, const char *spec,
                                        ScriptSet *out, EddiError *err) {
  const char *dot = strrchr(spec, '.');
  if (!dot) return 0;
  char *module = eddi_strndup(spec, (size_t)(dot - spec));
  const char *name = dot + 1;
  StrBuf path = {0};
  int rc = 0;
  for (uint32_t s = 0; rc == 0 && s < index->sources.len; s++) {
    RefFile *rf = index->sources.items[s].file;
    uint32_t file = 0;
    bool loaded = false;
    rc = script_run_in_time(run, err);
    for (uint32_t o = 0; rc == 0 && o < rf->occs.len; o++) {
      const RefOcc *occ = &rf->occs.items[o];
      if ((occ->flags & REF_OCC_DEF) || strcmp(ref_names_str(&index->names, occ->name), name))
        continue;
      const RefImport *imp = NULL;
      if (occ->kind == REF_OCC_NAME) {
        uint32_t sym = ref_file_lookup(rf, occ->scope, occ->name);
        if (sym != REF_NONE && rf->syms.items[sym].kind == REF_SYM_IMPORT)
          imp = query__import_of(rf, sym);
        if (imp && imp->kind != REF_IMPORT_FROM) imp = NULL;
      } else if (occ->kind == REF_OCC_MEMBER && occ->expr != REF_NONE &&
                 rf->exprs.items[occ->expr].kind == REF_EXPR_OCC) {
        const RefOcc *recv = &rf->occs.items[rf->exprs.items[occ->expr].ref];
        uint32_t sym = recv->kind == REF_OCC_NAME ? ref_file_lookup(rf, recv->scope, recv->name)
                                                  : REF_NONE;
        if (sym != REF_NONE && rf->syms.items[sym].kind == REF_SYM_IMPORT)
          imp = query__import_of(rf, sym);
        if (imp && (imp->kind != REF_IMPORT_MODULE || imp->aliased)) imp = NULL;
      }
      if (!imp) continue;
      eddi_strbuf_clear(&path);
      eddi_strbuf_puts(&path, "");
      query__import_path(index, rf, imp, &path);
      if (strcmp(path.data, module) != 0) continue;
      if (!loaded) {
        rc = query__source_file(run, index, s, &file, err);
        loaded = rc == 0;
        if (rc < 0) break;
      }
      if (!query__in_scope(run, file)) break;
      query__call_at(run, file, occ->start, occ->end, out);
    }
  }
  eddi_strbuf_free(&path);
  eddi_free(module);
  return rc;
}

static const ScriptVar *query__var(ScriptRun *run, const char *name) {
  for (size_t i = run->vars.len; i-- > 0;)
    if (strcmp(run->vars.items[i].name, name) == 0) return &run->vars.items[i];
  return NULL;
}

static int query__target(ScriptRun *run, const ScriptQuery *q, RefIndex *index,
                         RefProgram *program, RefTarget *target, EddiError *err) {
  if (!q->arg_var) return ref_target_find(program, index, q->arg, target, err);
  const ScriptVar *var = query__var(run, q->arg);
  if (!var || !var->is_set || var->set.len == 0)
    return eddi_error_set(err, EDDI_ENOENT, "$%s holds no class or function", q->arg);
  ScriptElement el;
  script_element_copy(&el, &var->set.items[0]);
  script_element_refresh(&run->files, &el);
  const char *path = run->files.files.items[el.file]->rel;
  RefSource *source = ref_index_source(index, path);
  int rc = source ? ref_target_at(program, (uint32_t)(source - index->sources.items),
                                  (uint32_t)el.name_start, "name", target, err)
                  : eddi_error_set(err, EDDI_ENOENT, "%s has no name resolution", path);
  script_element_free(&el);
  return rc;
}

/* ---------------------------------------------------------------- classes */

/* Whether class (file, sym) has target among its bases, at any depth. */
static bool query__inherits(RefProgram *program, uint32_t file, uint32_t sym, RefTarget target,
                            size_t depth) {
  /* Deeper hierarchies than this are cycles. */
  enum { INHERIT_DEPTH_MAX = 64 };
  if (depth > INHERIT_DEPTH_MAX) return false;
  RefIds bases = {0};
  ref_program_bases(program, file, sym, &bases);
  bool found = false;
  for (size_t i = 0; i + 1 < bases.len && !found; i += 2) {
    RefTarget base = {REF_TARGET_SYM, bases.items[i], bases.items[i + 1]};
    found = ref_target_equal(base, target) ||
            query__inherits(program, bases.items[i], bases.items[i + 1], target, depth + 1);
  }
  array_free(&bases);
  return found;
}

/* Whether class element k of syn has a method named name. */
static bool query__has_method(const EddiSyntax *syn, int k, const char *name) {
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (e->kind == EDDI_ELEMENT_METHOD && e->parent == k && strcmp(e->name, name) == 0) return true;
  }
  return false;
}

/* A Protocol is implemented by structure, not by inheritance: the classes
 * that define every method the protocol declares (its own dunders left
 * out) implement it too. The protocol is the class at offset of path; it
 * is one when a base of it is named Protocol. */
static int query__structural(ScriptRun *run, const char *path, size_t offset, ScriptSet *out,
                             EddiError *err) {
  uint32_t pf;
  int rc = script_files_get(&run->files, path, &pf, err);
  if (rc < 0) return rc;
  ScriptFile *pfile = run->files.files.items[pf];
  EddiSyntax *psyn = script_file_syntax(&run->files, pfile);
  int pk = psyn ? eddi_syntax_innermost(psyn, offset, EDDI_ELEMENT_CLASS) : -1;
  if (pk < 0) return 0;
  const EddiElement *proto = &psyn->elements.items[pk];
  size_t head_end = proto->has_body ? proto->body_start : proto->end;
  char *head = eddi_strndup(pfile->text.data + proto->name_end, head_end - proto->name_end);
  bool is_protocol = strstr(head, "Protocol") != NULL;
  eddi_free(head);
  if (!is_protocol) return 0;
  ScriptStrings wanted = {0};
  for (size_t i = 0; i < psyn->elements.len; i++) {
    const EddiElement *e = &psyn->elements.items[i];
    if (e->kind == EDDI_ELEMENT_METHOD && e->parent == pk && strncmp(e->name, "__", 2) != 0)
      array_push(&wanted, eddi_strdup(e->name));
  }
  ScriptSet classes = {0};
  if (wanted.len) rc = query__elements(run, EDDI_ELEMENT_CLASS, NULL, NULL, &classes, err);
  for (size_t c = 0; rc == 0 && c < classes.len; c++) {
    ScriptElement *cl = &classes.items[c];
    bool known = cl->file == pf && cl->start == proto->start;
    for (size_t i = 0; i < out->len && !known; i++)
      known = out->items[i].file == cl->file && out->items[i].start == cl->start;
    if (known) continue;
    EddiSyntax *syn = script_file_syntax(&run->files, run->files.files.items[cl->file]);
    int k = eddi_syntax_innermost(syn, cl->name_start, EDDI_ELEMENT_CLASS);
    bool all = k >= 0;
    for (size_t m = 0; all && m < wanted.len; m++) all = query__has_method(syn, k, wanted.items[m]);
    if (!all) continue;
    array_push(out, *cl);
    memset(cl, 0, sizeof *cl);
  }
  script_set_free(&classes);
  for (size_t i = 0; i < wanted.len; i++) eddi_free(wanted.items[i]);
  array_free(&wanted);
  return rc;
}

static int query__implementing(ScriptRun *run, const ScriptQuery *q, ScriptSet *out,
                               EddiError *err) {
  RefIndex *index;
  RefProgram *program;
  RefTarget target;
  int rc = script_run_program(run, &index, &program, err);
  if (rc == 0) rc = query__target(run, q, index, program, &target, err);
  if (rc < 0) return rc;
  target = ref_program_canonical(program, target);
  for (uint32_t s = 0; rc == 0 && s < index->sources.len; s++) {
    RefFile *rf = index->sources.items[s].file;
    rc = script_run_in_time(run, err);
    for (uint32_t sym = 0; rc == 0 && sym < rf->syms.len; sym++) {
      if (rf->syms.items[sym].kind != REF_SYM_CLASS) continue;
      if (!query__inherits(program, s, sym, target, 0)) continue;
      uint32_t file;
      rc = query__source_file(run, index, s, &file, err);
      if (rc < 0 || !query__in_scope(run, file)) continue;
      EddiSyntax *syn = script_file_syntax(&run->files, run->files.files.items[file]);
      int e = syn ? eddi_syntax_innermost(syn, rf->syms.items[sym].start, EDDI_ELEMENT_CLASS) : -1;
      if (e < 0) continue;
      const EddiElement *el = &syn->elements.items[e];
      ScriptElement *x = query__push(out, SEL_CLASS, &run->files, file, el->start, el->end);
      x->name = eddi_strdup(el->name);
      x->name_start = el->name_start, x->name_end = el->name_end;
    }
  }
  if (rc == 0 && target.kind == REF_TARGET_SYM)
    rc = query__structural(run, index->sources.items[target.file].path,
                           index->sources.items[target.file].file->syms.items[target.index].start,
                           out, err);
  return rc;
}

/* ---------------------------------------------------------------- the sets */

static int query__files_matching(ScriptRun *run, const char *glob, ScriptSet *out,
                                 EddiError *err) {
  const RefPaths *paths;
  int rc = script_files_paths(&run->files, &paths, err);
  for (size_t i = 0; rc == 0 && i < paths->len; i++) {
    if (!glob__matches(glob, paths->items[i])) continue;
    uint32_t index;
    rc = script_run_in_time(run, err); /* a read of each file */
    if (rc == 0) rc = script_files_get(&run->files, paths->items[i], &index, err);
    if (rc < 0) break;
    ScriptFile *file = run->files.files.items[index];
    ScriptElement *el = query__push(out, SEL_FILE, &run->files, index, 0, file->text.len);
    el->name = eddi_strdup(file->rel);
  }
  return rc;
}

/* How many lines a `line in range` visits between two looks at the clock. */
#define QUERY_LINES_PER_TIME_CHECK 4096

/* The file a `line in range` reads: the foreach's, else the current one. */
static int query__lines(ScriptRun *run, const ScriptQuery *q, ScriptSet *out, EddiError *err) {
  int scope = query__scope_file(run);
  if (scope < 0) {
    const char *current = run->current;
    if (!current)
      return eddi_error_set(err, EDDI_ESTATE,
                            "line in range needs a file: open one, or go inside foreach file");
    uint32_t index;
    int rc = script_files_get(&run->files, current, &index, err);
    if (rc < 0) return rc;
    scope = (int)index;
  }
  ScriptFile *file = run->files.files.items[scope];
  size_t line = 0, at = 0;
  int rc = 0;
  while (rc == 0 && at <= file->text.len && line <= (size_t)q->last) {
    /* A file of millions of lines: the clock is read now and then. */
    if (line % QUERY_LINES_PER_TIME_CHECK == 0) rc = script_run_in_time(run, err);
    const char *nl = memchr(file->text.data + at, '\n', file->text.len - at);
    size_t end = nl ? (size_t)(nl - file->text.data) + 1 : file->text.len;
    if (line >= (size_t)q->first && (at < end || !nl)) {
      if (at == end && !nl) break;
      ScriptElement *el = query__push(out, SEL_LINE, &run->files, (uint32_t)scope, at, end);
      el->name = eddi_strndup(file->text.data + at, end - at - (nl ? 1 : 0));
    }
    if (!nl) break;
    at = end, line++;
  }
  return rc;
}

static int query__caller_of(ScriptRun *run, const ScriptQuery *q, ScriptSet *out,
                            EddiError *err) {
  RefIndex *index;
  RefProgram *program;
  int rc = script_run_program(run, &index, &program, err);
  if (rc < 0) return rc;
  RefTarget target;
  EddiError find_err;
  eddi_error_clear(&find_err);
  rc = query__target(run, q, index, program, &target, &find_err);
  if (rc == 0) return query__calls_of(run, index, program, target, out, err);
  /* `call to a.b` of a module outside the workspace: through the imports. */
  if (q->kind == SQ_CALL_TO && !q->arg_var && strchr(q->arg, '.') && rc == EDDI_ENOENT)
    return query__calls_through_imports(run, index, q->arg, out, err);
  *err = find_err;
  return rc;
}

/* The order a set is visited in: files as they came, and in a file each
 * element before the ones that hold it (by end, then by start from the
 * right), so that an edit of a nested call lands before its outer call's
 * and the outer call's arguments still span it. Disjoint elements keep
 * their text order. */
static int query__order(const void *pa, const void *pb) {
  const ScriptElement *a = pa, *b = pb;
  if (a->file != b->file) return a->file < b->file ? -1 : 1;
  if (a->end != b->end) return a->end < b->end ? -1 : 1;
  if (a->start != b->start) return a->start > b->start ? -1 : 1;
  return 0;
}

int script_query_eval(ScriptRun *run, const ScriptQuery *q, ScriptSet *out, EddiError *err) {
  ScriptSet all = {0};
  int rc = 0;
  switch (q->kind) {
  case SQ_CALLER_OF:
  case SQ_CALL_TO: rc = query__caller_of(run, q, &all, err); break;
  case SQ_METHOD_IN: {
    if (q->arg_var) {
      const ScriptVar *var = query__var(run, q->arg);
      if (!var || !var->is_set) {
        rc = eddi_error_set(err, EDDI_ENOENT, "$%s is not set", q->arg);
        break;
      }
      for (size_t i = 0; rc == 0 && i < var->set.len; i++)
        if (var->set.items[i].name)
          rc = query__elements(run, EDDI_ELEMENT_METHOD, NULL, var->set.items[i].name, &all, err);
    } else {
      rc = query__elements(run, EDDI_ELEMENT_METHOD, NULL, q->arg, &all, err);
    }
    break;
  }
  case SQ_CLASS_IMPLEMENTING: rc = query__implementing(run, q, &all, err); break;
  case SQ_CLASS: rc = query__elements(run, EDDI_ELEMENT_CLASS, q->arg, NULL, &all, err); break;
  case SQ_FILE_MATCHING: rc = query__files_matching(run, q->arg, &all, err); break;
  case SQ_LINE_RANGE: rc = query__lines(run, q, &all, err); break;
  case SQ_SYMBOL_OF_TYPE: {
    unsigned kinds = strcasecmp(q->arg, "function") == 0
                         ? EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD
                     : strcasecmp(q->arg, "class") == 0 ? EDDI_ELEMENT_CLASS
                                                        : EDDI_ELEMENT_VARIABLE;
    rc = query__elements(run, kinds, NULL, NULL, &all, err);
    break;
  }
  case SQ_IMPORT: rc = query__elements(run, EDDI_ELEMENT_IMPORT, NULL, NULL, &all, err); break;
  case SQ_FUNCTION:
    rc = query__elements(run, EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD, NULL, NULL, &all, err);
    break;
  case SQ_VAR: {
    const ScriptVar *var = query__var(run, q->arg);
    if (!var || !var->is_set) {
      rc = eddi_error_set(err, EDDI_ENOENT, "$%s is not set", q->arg);
      break;
    }
    for (size_t i = 0; i < var->set.len; i++) {
      ScriptElement copy;
      script_element_copy(&copy, &var->set.items[i]);
      script_element_refresh(&run->files, &copy);
      array_push(&all, copy);
    }
    break;
  }
  }
  /* Files in the order they were first seen, which is the set's own order. */
  if (all.len > 1) qsort(all.items, all.len, sizeof *all.items, query__order);
  for (size_t i = 0; rc == 0 && i < all.len; i++) {
    bool keep = true;
    if (q->where) rc = script_run_in_time(run, err);
    if (rc == 0 && q->where) rc = script_cond_eval(run, q->where, &all.items[i], &keep, err);
    if (rc == 0 && keep) {
      array_push(out, all.items[i]);
      memset(&all.items[i], 0, sizeof all.items[i]);
    }
  }
  script_set_free(&all);
  return rc;
}
