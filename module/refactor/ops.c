/* ops.c - what the refactorings beyond rename share: edits, parse trees,
 * places for messages, and the differential check; see ops.h.
 *
 * The differential check cannot compare analyses index by index as a
 * rename's does (an inlined function or an extracted block changes the
 * file's shape), so it maps offsets instead: an occurrence outside every
 * edited range has a known place in the new text, and there the new
 * analysis must hold the same name referring to the same entity, an
 * entity named by its definition's place (mapped the same way; one whose
 * definition lies in an edited range must be defined in the range's new
 * text). Occurrences inside the edited ranges are the operation's own
 * business: each one checks what it writes there by name resolution
 * before it edits (the free names of an inlined body, the reads of an
 * extracted block). */
#include "refactor/ops.h"

#include <stdarg.h>

#include "core/utf8.h"
#include "refactor/new_name.h"
#include "refactor/ops_lang.h"
#include "refactor/target.h"

/* Longest message a refusal formats before its place. */
#define OPS_MESSAGE_MAX 512

void ref_ops_init(RefOps *self, RefIndex *index, EddiError *err) {
  memset(self, 0, sizeof *self);
  self->index = index;
  self->err = err;
  Array(RefFile *) files = {0};
  for (size_t i = 0; i < index->sources.len; i++) array_push(&files, index->sources.items[i].file);
  ref_program_init(&self->program, &index->names, files.items, files.len);
  ref_index_program_roots(index, &self->program);
  array_free(&files);
  for (size_t i = 0; i < index->sources.len; i++) array_push(&self->trees, (TSTree *)NULL);
  eddi_strbuf_puts(&self->unsure, "");
  eddi_strbuf_puts(&self->facts, "");
}

void ref_ops_free(RefOps *self) {
  for (size_t i = 0; i < self->edits.len; i++) eddi_free(self->edits.items[i].text);
  array_free(&self->edits);
  for (size_t i = 0; i < self->trees.len; i++)
    if (self->trees.items[i]) ts_tree_delete(self->trees.items[i]);
  array_free(&self->trees);
  if (self->parser) ts_parser_delete(self->parser);
  ref_program_free(&self->program);
  eddi_strbuf_free(&self->unsure);
  eddi_strbuf_free(&self->facts);
  eddi_free(self->unsure_of);
}

void ref_ops_edit(RefOps *self, uint32_t source, uint32_t start, uint32_t end, const char *text,
                  size_t len) {
  RefEdit edit = {source, start, end, eddi_strndup(text, len)};
  array_push(&self->edits, edit);
}

void ref_ops_unsure(RefOps *self, uint32_t source, uint32_t offset) {
  const RefSource *s = &self->index->sources.items[source];
  size_t line, col;
  eddi_utf8_line_col(s->text, s->len, offset, &line, &col);
  eddi_strbuf_printf(&self->unsure, "%s%s:%zu", self->unsure_count ? ", " : "", s->path, line);
  self->unsure_count++;
}

int ref_ops_fail_at(RefOps *self, uint32_t source, uint32_t offset, const char *fmt, ...) {
  char message[OPS_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  StrBuf at = {0};
  ref_target_place(self->index, source, offset, &at);
  eddi_error_set(self->err, EDDI_EINVAL, "%s at %s", message, at.data);
  eddi_strbuf_free(&at);
  return EDDI_EINVAL;
}

int ref_ops_python(RefOps *self, uint32_t source, const char *word) {
  const EddiLang *lang = self->index->sources.items[source].lang;
  if (lang && strcmp(lang->name, "python") == 0) return 0;
  const char *why = lang ? ref_ops_lang_why(lang->name, word) : NULL;
  if (why) {
    eddi_error_set(self->err, EDDI_EINVAL, "Not supported for %s: %s", ref_ops_lang_title(lang),
                   why);
    ref_ops_lang_hint(self->err, word);
    return EDDI_EINVAL;
  }
  return eddi_error_set(self->err, EDDI_EINVAL,
                        "Not supported for %s: Refactor %s reads Python's syntax only",
                        lang ? lang->name : "plain text", word);
}

int ref_ops_supports(RefOps *self, uint32_t source, const char *word) {
  const EddiLang *lang = self->index->sources.items[source].lang;
  if (lang && ref_ops_lang(lang->name) && !ref_ops_lang_why(lang->name, word)) return 0;
  return ref_ops_python(self, source, word);
}

int ref_ops_valid_name(RefOps *self, const EddiLang *lang, const char *name) {
  return ref_new_name_check(lang, lang->name, name,
                            "A name is letters, digits and _, not starting with a digit", self->err);
}

int ref_ops_find(RefOps *self, const char *spec, RefTarget *out) {
  int rc = ref_target_find(&self->program, self->index, spec, out, self->err);
  if (rc < 0) return rc;
  if (out->kind != REF_TARGET_SYM)
    return eddi_error_set(self->err, EDDI_EINVAL, "%s is a module", spec);
  return 0;
}

/* ---------------------------------------------------------------- trees */

TSNode ref_ops_root(RefOps *self, uint32_t source) {
  const RefSource *s = &self->index->sources.items[source];
  if (!self->trees.items[source]) {
    if (!self->parser) self->parser = ts_parser_new();
    ts_parser_set_language(self->parser, s->lang->ts);
    self->trees.items[source] = ts_parser_parse_string(self->parser, NULL, s->text, (uint32_t)s->len);
  }
  return ts_tree_root_node(self->trees.items[source]);
}

TSNode ref_ops_node(RefOps *self, uint32_t source, uint32_t start, uint32_t end) {
  return ts_node_named_descendant_for_byte_range(ref_ops_root(self, source), start, end);
}

bool ref_node_is(TSNode node, const char *type) {
  return !ts_node_is_null(node) && strcmp(ts_node_type(node), type) == 0;
}

TSNode ref_node_up(TSNode node, const char *type) {
  while (!ts_node_is_null(node) && !ref_node_is(node, type)) node = ts_node_parent(node);
  return node;
}

char *ref_ops_text(RefOps *self, uint32_t source, TSNode node) {
  const RefSource *s = &self->index->sources.items[source];
  return eddi_strndup(s->text + ts_node_start_byte(node),
                      ts_node_end_byte(node) - ts_node_start_byte(node));
}

TSNode ref_ops_definition(RefOps *self, RefTarget target, TSNode *name) {
  const RefFile *file = self->program.files.items[target.file];
  const RefSym *sym = &file->syms.items[target.index];
  const RefOcc *def = &file->occs.items[sym->first_def];
  *name = ref_ops_node(self, target.file, def->start, def->end);
  TSNode node = *name;
  const char *want = sym->kind == REF_SYM_FUNCTION ? "function_definition"
                     : sym->kind == REF_SYM_CLASS  ? "class_definition"
                                                   : "expression_statement";
  node = ref_node_up(node, want);
  if (ts_node_is_null(node)) return node;
  TSNode parent = ts_node_parent(node);
  if (ref_node_is(parent, "decorated_definition")) node = parent;
  return node;
}

/* ---------------------------------------------------------------- text */

uint32_t ref_ops_line_start(const RefSource *source, uint32_t offset) {
  while (offset > 0 && source->text[offset - 1] != '\n') offset--;
  return offset;
}

uint32_t ref_ops_indent(const RefSource *source, uint32_t offset) {
  uint32_t start = ref_ops_line_start(source, offset), at = start;
  while (at < source->len && (source->text[at] == ' ' || source->text[at] == '\t')) at++;
  return at - start;
}

uint32_t ref_ops_next_line(const RefSource *source, uint32_t offset) {
  while (offset < source->len && source->text[offset] != '\n') offset++;
  return offset < source->len ? offset + 1 : offset;
}

/* Whether the line starting at offset holds only spaces. */
static bool ops__blank_line(const RefSource *source, uint32_t offset) {
  while (offset < source->len && (source->text[offset] == ' ' || source->text[offset] == '\t'))
    offset++;
  return offset < source->len && source->text[offset] == '\n';
}

void ref_ops_remove_lines(RefOps *self, uint32_t source, uint32_t start, uint32_t end) {
  const RefSource *s = &self->index->sources.items[source];
  uint32_t from = ref_ops_line_start(s, start);
  uint32_t to = ref_ops_next_line(s, end > start ? end - 1 : end);
  bool blank_before = from == 0 || ops__blank_line(s, ref_ops_line_start(s, from - 1));
  while (blank_before && to < s->len && ops__blank_line(s, to)) to = ref_ops_next_line(s, to);
  /* At the end of the file, the blank lines before go too. */
  while (to >= s->len && from > 0 && ops__blank_line(s, ref_ops_line_start(s, from - 1)))
    from = ref_ops_line_start(s, from - 1);
  ref_ops_edit(self, source, from, to, "", 0);
}

void ref_ops_reindent(StrBuf *out, const char *text, size_t len, size_t drop, const char *indent,
                      size_t indent_len) {
  size_t at = 0;
  while (at < len) {
    size_t end = at;
    while (end < len && text[end] != '\n') end++;
    size_t skip = 0;
    while (skip < drop && at + skip < end && (text[at + skip] == ' ' || text[at + skip] == '\t'))
      skip++;
    if (end > at + skip) eddi_strbuf_append(out, indent, indent_len);
    eddi_strbuf_append(out, text + at + skip, end - at - skip);
    if (end < len) eddi_strbuf_putc(out, '\n');
    at = end + 1;
  }
}

/* ---------------------------------------------------------------- the new texts */

static int ops__by_place(const void *a, const void *b) {
  const RefEdit *x = a, *y = b;
  if (x->source != y->source) return x->source < y->source ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  /* An insertion goes before a replacement that starts there. */
  bool xi = x->start == x->end, yi = y->start == y->end;
  return xi == yi ? 0 : xi ? -1 : 1;
}

/* The edits of one source: [first, first + count) of the sorted list. */
typedef struct {
  const RefEdit *items;
  size_t count;
} OpsEdits;

static OpsEdits ops__edits_of(const RefOps *self, uint32_t source) {
  OpsEdits out = {NULL, 0};
  for (size_t i = 0; i < self->edits.len; i++)
    if (self->edits.items[i].source == source) {
      if (!out.items) out.items = &self->edits.items[i];
      out.count++;
    }
  return out;
}

/* Where offset of the old text is in the new one; *inside gets the edit
 * it lies in, or NULL; then [*from, *to) is that edit's new text. */
static uint32_t ops__map(OpsEdits edits, uint32_t offset, const RefEdit **inside, uint32_t *from,
                         uint32_t *to) {
  int64_t delta = 0;
  *inside = NULL;
  for (size_t i = 0; i < edits.count; i++) {
    const RefEdit *e = &edits.items[i];
    if (e->start == e->end && offset >= e->start) { /* an insertion before it */
      delta += (int64_t)strlen(e->text);
      continue;
    }
    if (offset < e->start) break;
    if (offset < e->end) {
      *inside = e;
      *from = (uint32_t)(e->start + delta);
      *to = *from + (uint32_t)strlen(e->text);
      return *from;
    }
    delta += (int64_t)strlen(e->text) - (int64_t)(e->end - e->start);
  }
  return (uint32_t)(offset + delta);
}

static int ops__texts(RefOps *self, RefPlan *out) {
  if (self->edits.len)
    qsort(self->edits.items, self->edits.len, sizeof *self->edits.items, ops__by_place);
  for (size_t i = 1; i < self->edits.len; i++) {
    const RefEdit *a = &self->edits.items[i - 1], *b = &self->edits.items[i];
    if (a->source == b->source && b->start < a->end)
      return ref_ops_fail_at(self, b->source, b->start, "Two edits overlap");
  }
  for (uint32_t s = 0; s < self->index->sources.len; s++) {
    OpsEdits edits = ops__edits_of(self, s);
    if (!edits.count) continue;
    const RefSource *source = &self->index->sources.items[s];
    StrBuf text = {0};
    eddi_strbuf_puts(&text, "");
    size_t at = 0;
    for (size_t e = 0; e < edits.count; e++) {
      eddi_strbuf_append(&text, source->text + at, edits.items[e].start - at);
      eddi_strbuf_puts(&text, edits.items[e].text);
      at = edits.items[e].end;
    }
    eddi_strbuf_append(&text, source->text + at, source->len - at);
    if (text.len == source->len && memcmp(text.data, source->text, text.len) == 0) {
      eddi_strbuf_free(&text);
      continue;
    }
    RefChange change = {0};
    change.source = s;
    change.after_len = text.len;
    change.after = eddi_strbuf_take(&text);
    int rc = ref_file_analyze(source->path, source->lang, change.after, change.after_len,
                              &self->index->names, &change.after_file, self->err);
    array_push(&out->changes, change);
    if (rc < 0) return rc;
  }
  return 0;
}

/* ---------------------------------------------------------------- the differential check */

typedef struct {
  RefOps *ops;
  RefPlan *plan;
  RefProgram after;
  Array(int32_t) change_of; /* per source: its change, or -1 */
  RefMap changed_names;     /* names the changed files bind: the rest cannot refer there */
} OpsCheck;

static const RefFile *ops__after_file(const OpsCheck *check, uint32_t f) {
  int32_t c = check->change_of.items[f];
  return c < 0 ? check->ops->program.files.items[f] : check->plan->changes.items[c].after_file;
}

/* The occurrence of the new text of f at offset with name, or REF_NONE. */
static uint32_t ops__occ_at(const RefFile *file, uint32_t offset, uint32_t name) {
  size_t lo = 0, hi = file->occs.len;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (file->occs.items[mid].start < offset) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo; i < file->occs.len && file->occs.items[i].start == offset; i++)
    if (file->occs.items[i].name == name) return (uint32_t)i;
  return REF_NONE;
}

/* Whether was (before) and now (after) are the same entity. */
static bool ops__same(OpsCheck *check, RefTarget was, RefTarget now) {
  if (was.kind == REF_TARGET_UNSURE) return true;
  if (was.kind != now.kind) return false;
  if (was.kind == REF_TARGET_NONE) return true;
  if (was.kind == REF_TARGET_MODULE) return was.index == now.index;
  if (was.file != now.file) return false;
  const RefSym *a = &check->ops->program.files.items[was.file]->syms.items[was.index];
  const RefSym *b = &ops__after_file(check, now.file)->syms.items[now.index];
  if (a->name != b->name || a->kind == REF_SYM_MODULE || b->kind == REF_SYM_MODULE)
    return a->name == b->name && a->kind == b->kind;
  OpsEdits edits = ops__edits_of(check->ops, was.file);
  const RefEdit *inside;
  uint32_t from = 0, to = 0;
  uint32_t mapped = ops__map(edits, a->start, &inside, &from, &to);
  if (!inside) return b->start == mapped;
  /* A variable is identified by its first definition; when that one moved
   * (into an extracted function) while others stayed, it is still the
   * variable of the same name in the same scope. */
  if (a->kind == REF_SYM_VARIABLE && b->kind == REF_SYM_VARIABLE) {
    const RefScope *sa = &check->ops->program.files.items[was.file]->scopes.items[a->scope];
    const RefScope *sb = &ops__after_file(check, now.file)->scopes.items[b->scope];
    const RefEdit *scope_inside;
    uint32_t scope_mapped = ops__map(edits, sa->start, &scope_inside, &from, &to);
    if (!scope_inside && scope_mapped == sb->start && sa->kind == sb->kind) return true;
  }
  /* Defined in edited text: now defined in new text (code an operation
   * moves goes from one edit to another). */
  int64_t delta = 0;
  for (size_t i = 0; i < edits.count; i++) {
    const RefEdit *e = &edits.items[i];
    int64_t start = (int64_t)e->start + delta, len = (int64_t)strlen(e->text);
    if ((int64_t)b->start >= start && (int64_t)b->start <= start + len) return true;
    delta += len - (int64_t)(e->end - e->start);
  }
  return false;
}

static int ops__changed(OpsCheck *check, const char *what, uint32_t f, uint32_t offset,
                        const char *name) {
  return ref_ops_fail_at(check->ops, f, offset, "%s would change what %s refers to", what, name);
}

static int ops__check_file(OpsCheck *check, const char *what, uint32_t f) {
  RefOps *ops = check->ops;
  const RefFile *before = ops->program.files.items[f];
  const RefFile *after = ops__after_file(check, f);
  bool changed = check->change_of.items[f] >= 0;
  OpsEdits edits = ops__edits_of(ops, f);
  for (uint32_t i = 0; i < before->occs.len; i++) {
    const RefOcc *occ = &before->occs.items[i];
    if (occ->kind != REF_OCC_NAME && occ->kind != REF_OCC_MEMBER &&
        occ->kind != REF_OCC_IMPORT_NAME)
      continue;
    const RefEdit *inside;
    uint32_t from, to;
    uint32_t mapped = ops__map(edits, occ->start, &inside, &from, &to);
    if (inside) continue;
    if (!changed && ref_map_get(&check->changed_names, occ->name) == REF_NONE) continue;
    RefTarget was = ref_program_target(&ops->program, f, i);
    if (!changed && !(was.kind == REF_TARGET_SYM && check->change_of.items[was.file] >= 0))
      continue;
    uint32_t j = changed ? ops__occ_at(after, mapped, occ->name) : i;
    const char *name = ref_names_str(&ops->index->names, occ->name);
    if (j == REF_NONE)
      return ref_ops_fail_at(ops, f, occ->start, "%s would change how %s reads", what, name);
    RefTarget now = ref_program_target(&check->after, f, j);
    if (!ops__same(check, was, now)) return ops__changed(check, what, f, occ->start, name);
  }
  return 0;
}

static int ops__differential(RefOps *self, const char *what, RefPlan *plan) {
  OpsCheck check = {.ops = self, .plan = plan};
  for (size_t f = 0; f < self->program.files.len; f++) array_push(&check.change_of, -1);
  Array(RefFile *) files = {0};
  for (size_t f = 0; f < self->program.files.len; f++)
    array_push(&files, self->program.files.items[f]);
  int rc = 0;
  for (size_t c = 0; c < plan->changes.len && rc == 0; c++) {
    const RefChange *change = &plan->changes.items[c];
    const RefFile *old = self->program.files.items[change->source];
    if (change->after_file->errors > old->errors)
      rc = eddi_error_set(self->err, EDDI_EINVAL, "%s would make a syntax error in %s", what,
                          old->path);
    check.change_of.items[change->source] = (int32_t)c;
    files.items[change->source] = change->after_file;
    for (size_t y = 0; y < old->syms.len; y++)
      ref_map_put(&check.changed_names, old->syms.items[y].name, 1);
  }
  ref_program_init(&check.after, &self->index->names, files.items, files.len);
  ref_index_program_roots(self->index, &check.after);
  for (uint32_t f = 0; f < self->program.files.len && rc == 0; f++)
    rc = ops__check_file(&check, what, f);
  ref_program_free(&check.after);
  array_free(&files);
  array_free(&check.change_of);
  ref_map_free(&check.changed_names);
  return rc;
}

int ref_ops_finish(RefOps *self, const char *what, RefPlan *out) {
  int rc = ops__texts(self, out);
  if (rc == 0) rc = ops__differential(self, what, out);
  if (rc == 0 && self->unsure_count) {
    eddi_strbuf_printf(&out->unsure, "%s", self->unsure.data);
    out->unsure_count = self->unsure_count;
    out->unsure_kept = self->unsure_kept;
    out->unsure_of = self->unsure_of, self->unsure_of = NULL;
    out->unsure_why = self->unsure_why;
  }
  return rc;
}

/* ---------------------------------------------------------------- dispatch */

int ref_op_plan(RefIndex *index, RefOpKind kind, const char *word, const RefOpArgs *args,
                RefPlan *out, StrBuf *facts, EddiError *err) {
  memset(out, 0, sizeof *out);
  eddi_strbuf_puts(&out->unsure, "");
  RefOps ops;
  ref_ops_init(&ops, index, err);
  int rc;
  switch (kind) {
  case REF_OP_SIGNATURE: rc = ref_signature_plan(&ops, args); break;
  case REF_OP_EXTRACT: rc = ref_extract_plan(&ops, args); break;
  case REF_OP_INLINE_FUNCTION: rc = ref_inline_function_plan(&ops, args); break;
  case REF_OP_INLINE_VARIABLE: rc = ref_inline_variable_plan(&ops, args); break;
  case REF_OP_MOVE_METHOD: rc = ref_move_method_plan(&ops, args); break;
  case REF_OP_EXTRACT_INTERFACE: rc = ref_extract_interface_plan(&ops, args); break;
  case REF_OP_CHANGE_INHERITANCE: rc = ref_change_inheritance_plan(&ops, args); break;
  case REF_OP_EXTRACT_CLASS: rc = ref_extract_class_plan(&ops, args); break;
  case REF_OP_SPLIT_CLASS: rc = ref_split_class_plan(&ops, args); break;
  case REF_OP_MERGE_CLASSES: rc = ref_merge_classes_plan(&ops, args); break;
  default:
    rc = eddi_error_set(err, EDDI_EINVAL, "Not supported: Refactor %s: no plan is built for it",
                        word);
  }
  if (rc == 0 && ops.edits.len == 0)
    rc = eddi_error_set(err, EDDI_EINVAL, "Refactor %s would change nothing", word);
  if (rc == 0) rc = ref_ops_finish(&ops, word, out);
  if (rc == 0) eddi_strbuf_puts(facts, ops.facts.data);
  ref_ops_free(&ops);
  if (rc < 0) ref_plan_free(out);
  return rc;
}

RefCallers ref_ops_method_callers(RefOps *self, uint32_t file, uint32_t sym, uint32_t klass,
                                  uint32_t *other_file, uint32_t *other_sym) {
  const RefFile *f = self->program.files.items[file];
  RefIds bases = {0};
  bool known = ref_program_bases(&self->program, file, klass, &bases);
  array_free(&bases);
  const RefSym *k = &f->syms.items[klass];
  for (uint32_t b = 0; known && b < k->bases_count; b++) {
    RefValue base =
        ref_program_expr_value(&self->program, file, f->bases.items[k->bases_first + b]);
    if (base.kind != REF_VALUE_CLASS) {
      const RefExpr *e = &f->exprs.items[f->bases.items[k->bases_first + b]];
      const char *bname = e->kind == REF_EXPR_OCC
                              ? ref_names_str(&self->index->names, f->occs.items[e->ref].name)
                              : "";
      bool plain = false;
      for (size_t i = 0; i < EDDI_LANG_LIST_MAX && f->lang->plain_bases[i]; i++)
        plain |= !strcmp(f->lang->plain_bases[i], bname);
      known = plain;
    }
  }
  if (!known) return REF_CALLERS_OUTSIDE_BASE;
  uint32_t name = f->syms.items[sym].name;
  for (uint32_t g = 0; g < self->program.files.len; g++) {
    const RefFile *other = self->program.files.items[g];
    for (uint32_t i = 0; i < other->syms.len; i++) {
      const RefSym *o = &other->syms.items[i];
      if (o->name != name || (g == file && i == sym) || o->kind != REF_SYM_FUNCTION ||
          o->scope == REF_NONE || other->scopes.items[o->scope].kind != REF_SCOPE_CLASS)
        continue;
      *other_file = g, *other_sym = i;
      return REF_CALLERS_OVERRIDE;
    }
  }
  return REF_CALLERS_SEEN;
}
