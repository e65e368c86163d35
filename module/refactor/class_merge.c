/* class_merge.c - Refactor Merge_Classes <A> <B> <Target>, for Python,
 * JavaScript and TypeScript.
 *
 * The merged class takes A's place in the module, named Target, with A's
 * members and then B's; B's definition goes; every reference the
 * workspace resolves to A or to B (calls, annotations, bases of
 * subclasses, imports, __all__) is renamed to Target, and a file that
 * imported (or listed in __all__) both keeps one of Target. The
 * instances of either class are then instances of one class that has
 * every member either had, so what a caller did with an A or a B it can
 * still do, with one exception the operation cannot see through and so
 * refuses: a question about which of the two an object is (isinstance,
 * issubclass, an except clause, a comparison of types), whose answer
 * changes. Also refused, with the place: a member both classes define
 * (their __init__ too: one would be lost), the only __init__ needing
 * arguments that calls of the other class do not pass, a lookup by a
 * computed name on either (hasattr may answer otherwise), different
 * bases, one class a subclass of the other, classes of two modules or not
 * at module level, a module-level use of B before A's definition (where
 * Target then is), and a Target name the
 * module binds otherwise. A string naming A or B is listed as unsure. */
#include "refactor/class_ops.h"

typedef struct {
  RefOps *ops;
  RefTarget a, b;
  const RefFile *file;
  const RefSource *src;
  const char *target;
  size_t renamed;
  bool python;
  bool bound, exported; /* JavaScript: a list of the file binds (exports) Target already */
  Array(uint32_t) in_b;  /* [start, end) of each reference to rename in B's body */
} Merge;

/* Append src[from, to) of A's file with the references in B's body
 * renamed to Target. */
static void merge__b_text(const Merge *self, uint32_t from, uint32_t to, StrBuf *out) {
  uint32_t at = from;
  for (size_t i = 0; i < self->in_b.len; i += 2) {
    uint32_t start = self->in_b.items[i], end = self->in_b.items[i + 1];
    if (start < at || end > to) continue;
    eddi_strbuf_append(out, self->src->text + at, start - at);
    eddi_strbuf_puts(out, self->target);
    at = end;
  }
  eddi_strbuf_append(out, self->src->text + at, to - at);
}

static const char *merge__name(Merge *self, RefTarget t) {
  return ref_names_str(&self->ops->index->names,
                       self->ops->program.files.items[t.file]->syms.items[t.index].name);
}

/* Whether a canonical target is A or B. */
static bool merge__either(Merge *self, RefTarget t) {
  return ref_target_equal(t, self->a) || ref_target_equal(t, self->b);
}

/* ---------------------------------------------------------------- preconditions */

/* The names a class defines: its body's bindings and what self sets. */
static bool merge__defines(Merge *self, RefTarget klass, uint32_t name, uint32_t *where) {
  const RefSym *k = &self->file->syms.items[klass.index];
  uint32_t own = ref_file_bound(self->file, k->own_scope, name);
  if (own == REF_NONE) own = ref_map_get(&self->file->members, ref_key(klass.index, name));
  if (own != REF_NONE) *where = self->file->syms.items[own].start;
  return own != REF_NONE;
}

static int merge__check_members(Merge *self) {
  RefOps *ops = self->ops;
  const RefSym *b = &self->file->syms.items[self->b.index];
  for (uint32_t s = 0; s < self->file->syms.len; s++) {
    const RefSym *sym = &self->file->syms.items[s];
    bool of_b = (sym->scope == b->own_scope && sym->kind != REF_SYM_PARAMETER) ||
                (sym->kind == REF_SYM_MEMBER && sym->klass == self->b.index);
    uint32_t at;
    if (of_b && merge__defines(self, self->a, sym->name, &at))
      return ref_ops_fail_at(ops, self->a.file, at, "Merge_Classes: %s and %s both define %s",
                             merge__name(self, self->a), merge__name(self, self->b),
                             ref_names_str(&ops->index->names, sym->name));
  }
  return 0;
}

/* JavaScript: the only constructor of the two may take no parameter.
 * Calls of the other class (new B(x), or a subclass's implicit
 * constructor passing its arguments on) may pass arguments it ignored,
 * which the merged class's constructor would then receive. */
static int merge__js_check_constructor(Merge *self) {
  RefOps *ops = self->ops;
  uint32_t init = ref_names_intern(&ops->index->names, "constructor", strlen("constructor"));
  RefTarget both[2] = {self->a, self->b};
  for (int i = 0; i < 2; i++) {
    uint32_t own =
        ref_file_bound(self->file, self->file->syms.items[both[i].index].own_scope, init);
    if (own == REF_NONE) continue;
    TSNode def = ref_class_definition(ops, (RefTarget){REF_TARGET_SYM, both[i].file, own});
    TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
    for (uint32_t p = 0; p < ts_node_named_child_count(params); p++) {
      TSNode param = ts_node_named_child(params, p);
      if (ref_node_is(param, "comment")) continue;
      return ref_ops_fail_at(ops, both[i].file, ts_node_start_byte(param),
                             "Merge_Classes: calls of %s would pass their arguments to %s's "
                             "constructor",
                             merge__name(self, both[1 - i]), merge__name(self, both[i]));
    }
  }
  return 0;
}

/* Python: a decorated class (dataclass, attrs' define and frozen) may have
 * an __init__ its decorator makes from its fields, which eddi does not
 * see: merged, the other class's fields would join its arguments. */
static int merge__py_check_decorated(Merge *self) {
  RefTarget both[2] = {self->a, self->b};
  for (int i = 0; i < 2; i++) {
    TSNode def = ref_class_definition(self->ops, both[i]);
    if (ref_node_is(def, "decorated_definition"))
      return ref_ops_fail_at(self->ops, both[i].file, ts_node_start_byte(def),
                             "Merge_Classes cannot yet merge %s: it is decorated, and its "
                             "decorator may make __init__ from its fields",
                             merge__name(self, both[i]));
  }
  return 0;
}

/* The only __init__ of the two may not need arguments: the other class's
 * calls pass none. */
static int merge__check_init(Merge *self) {
  RefOps *ops = self->ops;
  if (!self->python) return merge__js_check_constructor(self);
  uint32_t init = ref_names_intern(&ops->index->names, "__init__", strlen("__init__"));
  RefTarget both[2] = {self->a, self->b};
  for (int i = 0; i < 2; i++) {
    uint32_t own =
        ref_file_bound(self->file, self->file->syms.items[both[i].index].own_scope, init);
    if (own == REF_NONE) continue;
    TSNode name;
    TSNode def = ref_ops_definition(ops, (RefTarget){REF_TARGET_SYM, both[i].file, own}, &name);
    if (ref_node_is(def, "decorated_definition"))
      def = ts_node_child_by_field_name(def, "definition", 10);
    TSNode params = ts_node_child_by_field_name(def, "parameters", 10);
    uint32_t n = ts_node_named_child_count(params);
    for (uint32_t p = 1; p < n; p++) {
      TSNode param = ts_node_named_child(params, p);
      if (ref_node_is(param, "identifier") || ref_node_is(param, "typed_parameter"))
        return ref_ops_fail_at(ops, both[i].file, ts_node_start_byte(param),
                               "Merge_Classes: %s() would need %s's __init__ arguments",
                               merge__name(self, both[1 - i]), merge__name(self, both[i]));
    }
  }
  return 0;
}

/* A lookup by a computed name (getattr, hasattr) on an A or a B may ask
 * for what only the other had: its answer would change. */
static int merge__check_dynamic(Merge *self) {
  RefTarget both[2] = {self->a, self->b};
  uint32_t file, offset;
  for (int k = 0; k < 2; k++)
    if (ref_class_computed_lookup(self->ops, both[k], false, &file, &offset))
      return ref_ops_fail_at(self->ops, file, offset,
                             "Merge_Classes: a member of %s is looked up by a computed name",
                             merge__name(self, both[k]));
  /* The merged class's instances carry the fields of both. */
  for (int k = 0; k < 2; k++)
    if (ref_class_reflected(self->ops, both[k], false, &file, &offset)) {
      int rc = ref_ops_fail_at(self->ops, file, offset,
                               "Merge_Classes: every field of a %s is read by name, so merging "
                               "may change what is read",
                               merge__name(self, both[k]));
      eddi_error_hint(self->ops->err, "Give the class a method of its own that the reader calls "
                      "(to_dict, toJSON) first");
      return rc;
    }
  return 0;
}

/* The text of a class's base list ("" for none). */
static char *merge__bases(Merge *self, RefTarget klass) {
  TSNode node = ref_class_node(self->ops, klass.file, klass.index);
  TSNode list = ts_node_child_by_field_name(node, "superclasses", 12);
  for (uint32_t i = 0; !self->python && i < ts_node_named_child_count(node); i++)
    if (ref_node_is(ts_node_named_child(node, i), "class_heritage"))
      list = ts_node_named_child(node, i);
  return ts_node_is_null(list) ? eddi_strdup("") : ref_ops_text(self->ops, klass.file, list);
}

/* ---------------------------------------------------------------- the references */

/* Remove item of a comma-separated list with the comma before it (after
 * it when it is the list's first). */
static void merge__drop_item(RefOps *ops, uint32_t file, TSNode item, bool first) {
  TSNode prev = ts_node_prev_named_sibling(item), next = ts_node_next_named_sibling(item);
  uint32_t from = first ? ts_node_start_byte(item) : ts_node_end_byte(prev);
  uint32_t to = first && !ts_node_is_null(next) ? ts_node_start_byte(next) : ts_node_end_byte(item);
  ref_ops_edit(ops, file, from, to, "", 0);
}

/* The second name of A or B in one __all__ list: it goes. */
static bool merge__drop_export(Merge *self, uint32_t file, const RefOcc *occ, bool *seen) {
  TSNode item = ref_node_up(ref_ops_node(self->ops, file, occ->start, occ->end), "string");
  TSNode list = ts_node_parent(item);
  bool listed = ref_node_is(list, "list") || ref_node_is(list, "tuple");
  if (ts_node_is_null(item) || !listed || ts_node_named_child_count(list) < 2) return false;
  if (!*seen) {
    *seen = true;
    return false;
  }
  merge__drop_item(self->ops, file, item, ts_node_is_null(ts_node_prev_named_sibling(item)));
  return true;
}

/* The name of an import statement that binds a renamed class, and the
 * statement, when the file already imports the other one: it goes. */
static bool merge__drop_import(Merge *self, uint32_t file, uint32_t start, bool *seen) {
  RefOps *ops = self->ops;
  TSNode node = ref_ops_node(ops, file, start, start + 1);
  TSNode statement = ref_node_up(node, "import_from_statement");
  if (ts_node_is_null(statement) || !ts_node_is_null(ref_node_up(node, "aliased_import")))
    return false;
  if (!*seen) {
    *seen = true;
    return false;
  }
  TSNode name = ref_node_up(node, "dotted_name");
  if (ts_node_is_null(name)) return false;
  uint32_t names = ts_node_named_child_count(statement) - 1; /* the module is the first */
  if (names <= 1) {
    ref_ops_remove_lines(ops, file, ts_node_start_byte(statement), ts_node_end_byte(statement));
    return true;
  }
  /* One name of several (the module is the statement's first child). */
  TSNode prev = ts_node_prev_named_sibling(name);
  merge__drop_item(ops, file, name,
                   ts_node_eq(prev, ts_node_child_by_field_name(statement, "module_name", 11)));
  return true;
}

/* Whether a use runs when its function is called, not when the module
 * loads. */
static bool merge__in_function(Merge *self, uint32_t file, const RefOcc *occ) {
  static const char *const functions[] = {"function_definition", "function_declaration",
                                          "function_expression", "arrow_function",
                                          "method_definition", "generator_function_declaration",
                                          NULL};
  TSNode node = ref_ops_node(self->ops, file, occ->start, occ->end);
  for (size_t i = 0; functions[i]; i++)
    if (!ts_node_is_null(ref_node_up(node, functions[i]))) return true;
  return false;
}

/* JavaScript: a name of a list that binds or exports A or B (import { A,
 * B }, const { A, B } = require(...), export { A, B }, module.exports =
 * { A, B }) would bind or export Target twice. The second such name in a
 * file goes, with its statement when it is alone there: 1 when it went. */
static int merge__js_drop(Merge *self, uint32_t file, const RefOcc *occ) {
  RefOps *ops = self->ops;
  TSNode node = ref_ops_node(ops, file, occ->start, occ->end);
  TSNode item = node, up = ts_node_parent(node);
  bool binds;
  if (ref_node_is(up, "import_specifier") || ref_node_is(up, "export_specifier")) {
    if (!ts_node_is_null(ts_node_child_by_field_name(up, "alias", 5))) return 0;
    item = up, binds = ref_node_is(up, "import_specifier");
  } else if (ref_node_is(node, "shorthand_property_identifier_pattern")) {
    binds = true;
  } else if (ref_node_is(node, "shorthand_property_identifier")) {
    binds = false;
  } else {
    /* A default import binds Target too. */
    if (ref_node_is(up, "import_clause")) self->bound = true;
    return 0;
  }
  bool *seen = binds ? &self->bound : &self->exported;
  if (!*seen) {
    *seen = true;
    return 0;
  }
  TSNode list = ts_node_parent(item);
  if (ts_node_named_child_count(list) > 1) {
    merge__drop_item(ops, file, item, ts_node_is_null(ts_node_prev_named_sibling(item)));
    return 1;
  }
  /* Alone in its list: the statement goes, if that is all it holds. */
  TSNode statement = list;
  while (!ts_node_is_null(statement) && !ref_node_is(ts_node_parent(statement), "program"))
    statement = ts_node_parent(statement);
  TSNode clause = ts_node_parent(list);
  bool alone = ref_node_is(statement, "import_statement")
                   ? !ref_node_is(clause, "import_clause") || ts_node_named_child_count(clause) == 1
               : ref_node_is(statement, "lexical_declaration") ||
                       ref_node_is(statement, "variable_declaration")
                   ? ts_node_named_child_count(statement) == 1
                   : ref_node_is(statement, "export_statement");
  if (!alone)
    return ref_ops_fail_at(ops, file, occ->start,
                           "Merge_Classes cannot yet drop %s from this statement, where %s is "
                           "bound already",
                           ref_names_str(&ops->index->names, occ->name), self->target);
  ref_ops_remove_lines(ops, file, ts_node_start_byte(statement), ts_node_end_byte(statement));
  return 1;
}

static int merge__rename(Merge *self) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  size_t len = strlen(self->target);
  const RefSym *a = &self->file->syms.items[self->a.index];
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    uint32_t last = REF_NONE;
    bool imported = false, exported = false;
    self->bound = self->exported = false;
    TSNode b_def = ref_class_node(ops, self->b.file, self->b.index);
    for (uint32_t i = 0; i < file->occs.len; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->start == last) continue;
      if (occ->kind == REF_OCC_STRING) {
        const char *name = ref_names_str(&ops->index->names, occ->name);
        if (!strcmp(name, merge__name(self, self->a)) || !strcmp(name, merge__name(self, self->b)))
          ref_ops_unsure(ops, f, occ->start);
        continue;
      }
      if (occ->kind != REF_OCC_NAME && occ->kind != REF_OCC_MEMBER &&
          occ->kind != REF_OCC_IMPORT_NAME && occ->kind != REF_OCC_EXPORT)
        continue;
      RefTarget t = ref_program_canonical(program, ref_program_target(program, f, i));
      if (!merge__either(self, t)) continue;
      bool in_b = f == self->b.file &&
                  ref_in(occ->start, ts_node_start_byte(b_def), ts_node_end_byte(b_def));
      if (in_b && occ->flags & REF_OCC_DEF) continue; /* B's name goes with B */
      /* A TypeScript type names the merged class as well; instanceof asks. */
      bool type = !self->python &&
                  ref_node_is(ref_ops_node(ops, f, occ->start, occ->end), "type_identifier");
      if (!type && ref_class_type_test(ops, f, occ->start, occ->end))
        return ref_ops_fail_at(ops, f, occ->start,
                               "Merge_Classes: this asks whether an object is a %s, which every "
                               "%s then is",
                               ref_names_str(&ops->index->names, occ->name),
                               ref_target_equal(t, self->a) ? merge__name(self, self->b)
                                                            : merge__name(self, self->a));
      if (f == self->a.file && occ->scope == 0 && occ->start < a->start &&
          occ->kind != REF_OCC_EXPORT && !(occ->flags & REF_OCC_DEF) &&
          !merge__in_function(self, f, occ))
        return ref_ops_fail_at(
            ops, f, occ->start, "Merge_Classes: %s is used before %s's definition, where %s goes",
            ref_names_str(&ops->index->names, occ->name), merge__name(self, self->a), self->target);
      last = occ->start;
      /* B's body moves as text: its references are renamed in the copy. */
      if (in_b) {
        if (strcmp(ref_names_str(&ops->index->names, occ->name), self->target) != 0) {
          array_push(&self->in_b, occ->start), array_push(&self->in_b, occ->end);
          self->renamed++;
        }
        continue;
      }
      if (!self->python) {
        int dropped = merge__js_drop(self, f, occ);
        if (dropped < 0) return dropped;
        if (dropped) {
          self->renamed++;
          continue;
        }
      }
      if (self->python && (occ->kind == REF_OCC_IMPORT_NAME || occ->flags & REF_OCC_DEF) &&
          merge__drop_import(self, f, occ->start, &imported))
        continue;
      if (self->python && occ->kind == REF_OCC_EXPORT &&
          merge__drop_export(self, f, occ, &exported)) {
        self->renamed++;
        continue;
      }
      const char *now = ref_names_str(&ops->index->names, occ->name);
      if (strcmp(now, self->target) != 0) {
        if (occ->kind == REF_OCC_EXPORT) {
          /* The string's quotes stay. */
          const RefSource *src = &ops->index->sources.items[f];
          uint32_t at = occ->start;
          while (at < occ->end && (src->text[at] == '"' || src->text[at] == '\'')) at++;
          ref_ops_edit(ops, f, at, at + (uint32_t)strlen(now), self->target, len);
        } else {
          ref_ops_edit(ops, f, occ->start, occ->end, self->target, len);
        }
        self->renamed++;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- the bodies */

/* B's members after A's, and B's definition removed. */
static void merge__bodies(Merge *self) {
  RefOps *ops = self->ops;
  uint32_t file = self->a.file;
  TSNode abody = ref_class_body(ops, file, self->a.index);
  TSNode bbody = ref_class_body(ops, file, self->b.index);
  TSNode bfirst = ts_node_named_child(bbody, 0);
  if (ref_node_is(bfirst, "expression_statement") &&
      ref_node_is(ts_node_named_child(bfirst, 0), "string"))
    bfirst = ts_node_next_named_sibling(bfirst); /* B's docstring: A keeps its own */
  bool b_empty = ts_node_is_null(bfirst) ||
                 (ts_node_named_child_count(bbody) == 1 && ref_node_is(bfirst, "pass_statement"));
  if (!b_empty) {
    TSNode afirst = ts_node_named_child(abody, 0);
    uint32_t aindent = ref_ops_indent(self->src, ts_node_start_byte(afirst));
    uint32_t bline = ref_ops_line_start(self->src, ts_node_start_byte(bfirst));
    uint32_t bindent = ts_node_start_byte(bfirst) - bline;
    StrBuf text = {0};
    const char *margin =
        self->src->text + ref_ops_line_start(self->src, ts_node_start_byte(afirst));
    StrBuf renamed = {0};
    merge__b_text(self, bline, ts_node_end_byte(bbody), &renamed);
    ref_ops_reindent(&text, renamed.data, renamed.len, bindent, margin, aindent);
    eddi_strbuf_free(&renamed);
    eddi_strbuf_putc(&text, '\n');
    bool a_pass = ts_node_named_child_count(abody) == 1 && ref_node_is(afirst, "pass_statement");
    if (a_pass) {
      uint32_t start = ref_ops_line_start(self->src, ts_node_start_byte(afirst));
      ref_ops_edit(ops, file, start, ref_ops_next_line(self->src, ts_node_end_byte(afirst) - 1),
                   text.data, text.len);
    } else {
      uint32_t at = ref_ops_next_line(self->src, ts_node_end_byte(abody) - 1);
      StrBuf more = {0};
      eddi_strbuf_putc(&more, '\n');
      eddi_strbuf_append(&more, text.data, text.len);
      ref_ops_edit(ops, file, at, at, more.data, more.len);
      eddi_strbuf_free(&more);
    }
    eddi_strbuf_free(&text);
  }
  TSNode name;
  TSNode bdef = ref_ops_definition(ops, self->b, &name);
  ref_ops_remove_lines(ops, file, ts_node_start_byte(bdef), ts_node_end_byte(bdef));
}

/* JavaScript: B's members before A's closing brace, B's declaration
 * removed (with its JSDoc), and Target exported when B was. */
static void merge__js_bodies(Merge *self) {
  RefOps *ops = self->ops;
  uint32_t file = self->a.file;
  const RefSource *src = self->src;
  TSNode abody = ref_class_body(ops, file, self->a.index);
  TSNode bbody = ref_class_body(ops, file, self->b.index);
  uint32_t bn = ts_node_named_child_count(bbody), an = ts_node_named_child_count(abody);
  if (bn) {
    TSNode bfirst = ts_node_named_child(bbody, 0), blast = ts_node_named_child(bbody, bn - 1);
    uint32_t bstart = ref_class_js_leading(ops, file, bfirst);
    uint32_t bline = ref_ops_line_start(src, bstart);
    uint32_t bend = ts_node_end_byte(blast);
    if (bend < src->len && src->text[bend] == ';') bend++;
    StrBuf margin = {0}, text = {0};
    TSNode aklass = ref_class_node(ops, file, self->a.index);
    if (an) {
      uint32_t at = ts_node_start_byte(ts_node_named_child(abody, 0));
      eddi_strbuf_append(&margin, src->text + ref_ops_line_start(src, at), ref_ops_indent(src, at));
    } else {
      eddi_strbuf_append(&margin, src->text + bline, bstart - bline);
    }
    StrBuf renamed = {0};
    merge__b_text(self, bline, bend, &renamed);
    ref_ops_reindent(&text, renamed.data, renamed.len, bstart - bline,
                     margin.data ? margin.data : "", margin.len);
    eddi_strbuf_free(&renamed);
    eddi_strbuf_putc(&text, '\n');
    StrBuf block = {0};
    uint32_t close = ts_node_end_byte(abody) - 1; /* A's } */
    uint32_t close_line = ref_ops_line_start(src, close);
    if (an && close_line + ref_ops_indent(src, close) == close) {
      eddi_strbuf_putc(&block, '\n');
      eddi_strbuf_append(&block, text.data, text.len);
      ref_ops_edit(ops, file, close_line, close_line, block.data, block.len);
    } else if (an) {
      /* A's } follows its last member on that line: B's members go before it. */
      uint32_t kline = ref_ops_line_start(src, ts_node_start_byte(aklass));
      eddi_strbuf_putc(&block, '\n');
      eddi_strbuf_append(&block, text.data, text.len);
      eddi_strbuf_append(&block, src->text + kline, ref_ops_indent(src, kline));
      ref_ops_edit(ops, file, close, close, block.data, block.len);
    } else {
      ref_class_js_fill_body(ops, file, aklass, text.data, text.len); /* A's body is {} */
    }
    eddi_strbuf_free(&block), eddi_strbuf_free(&text), eddi_strbuf_free(&margin);
  }
  TSNode bdecl = ref_class_node(ops, file, self->b.index);
  TSNode bstatement = ref_node_is(ts_node_parent(bdecl), "export_statement") ? ts_node_parent(bdecl)
                                                                               : bdecl;
  TSNode adecl = ref_class_node(ops, file, self->a.index);
  if (ref_node_is(bstatement, "export_statement") &&
      !ref_node_is(ts_node_parent(adecl), "export_statement"))
    ref_ops_edit(ops, file, ts_node_start_byte(adecl), ts_node_start_byte(adecl), "export ", 7);
  ref_ops_remove_lines(ops, file, ref_class_js_leading(ops, file, bstatement),
                       ts_node_end_byte(bstatement));
}

/* JavaScript's classes that cannot merge: generic, decorated, one
 * abstract and the other not, a default export. */
static int merge__js_check_shape(Merge *self) {
  RefTarget both[2] = {self->a, self->b};
  const char *kinds[2];
  for (int i = 0; i < 2; i++) {
    TSNode decl = ref_class_node(self->ops, both[i].file, both[i].index);
    kinds[i] = ts_node_type(decl);
    const char *why = NULL;
    if (!ts_node_is_null(ts_node_child_by_field_name(decl, "type_parameters", 15)))
      why = "is generic";
    for (uint32_t k = 0; !why && k < ts_node_named_child_count(decl); k++)
      if (ref_node_is(ts_node_named_child(decl, k), "decorator")) why = "is decorated";
    TSNode up = ts_node_parent(decl);
    if (!why && ref_node_is(up, "export_statement") && ref_class_js_keyword(up, "default"))
      why = "is the module's default export";
    if (!why && !ref_node_is(up, "program") && !ref_node_is(up, "export_statement"))
      why = "is no class declaration at module level";
    if (why)
      return ref_ops_fail_at(self->ops, both[i].file, ts_node_start_byte(decl),
                             "Merge_Classes cannot yet merge %s: it %s", merge__name(self, both[i]),
                             why);
  }
  if (strcmp(kinds[0], kinds[1]) != 0)
    return ref_ops_fail_at(self->ops, self->b.file,
                           ts_node_start_byte(ref_class_node(self->ops, self->b.file, self->b.index)),
                           "Merge_Classes: one of %s and %s is abstract", merge__name(self, self->a),
                           merge__name(self, self->b));
  return 0;
}

/* ---------------------------------------------------------------- the operation */

int ref_merge_classes_plan(RefOps *ops, const RefOpArgs *args) {
  const char *word = "Merge_Classes";
  RefWords words = {0};
  ref_words_split(args->other, &words);
  Merge self = {.ops = ops};
  int rc = words.len == 2
               ? 0
               : eddi_error_set(ops->err, EDDI_EINVAL, "Refactor %s takes <A> <B> <Target>", word);
  if (rc == 0) rc = ref_class_find(ops, args->spec, &self.a);
  if (rc == 0) rc = ref_class_find(ops, words.items[0], &self.b);
  if (rc == 0) rc = ref_ops_supports(ops, self.a.file, word);
  if (rc == 0) rc = ref_ops_supports(ops, self.b.file, word);
  if (rc == 0) {
    const EddiLang *lang = ops->index->sources.items[self.a.file].lang;
    self.python = lang && !strcmp(lang->name, "python");
  }
  if (rc == 0 && ref_target_equal(self.a, self.b))
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s: %s and %s are one class", word, args->spec,
                        words.items[0]);
  if (rc == 0) {
    self.file = ops->program.files.items[self.a.file];
    self.src = &ops->index->sources.items[self.a.file];
    self.target = words.items[1];
    rc = ref_ops_valid_name(ops, self.file->lang, self.target);
  }
  if (rc == 0 && self.a.file != self.b.file)
    rc = ref_ops_fail_at(ops, self.b.file,
                         ops->program.files.items[self.b.file]->syms.items[self.b.index].start,
                         "%s needs both classes in one module", word);
  const RefSym *a = rc == 0 ? &self.file->syms.items[self.a.index] : NULL;
  const RefSym *b = rc == 0 ? &self.file->syms.items[self.b.index] : NULL;
  if (rc == 0 && (a->scope != 0 || b->scope != 0))
    rc = ref_ops_fail_at(ops, self.a.file, a->scope != 0 ? a->start : b->start,
                         "%s needs module-level classes", word);
  if (rc == 0) {
    uint32_t id = ref_names_intern(&ops->index->names, self.target, strlen(self.target));
    uint32_t bound = ref_file_bound(self.file, 0, id);
    if (bound != REF_NONE && bound != self.a.index && bound != self.b.index)
      rc = ref_ops_fail_at(ops, self.a.file, self.file->syms.items[bound].start,
                           "%s: %s is already defined", word, self.target);
  }
  if (rc == 0 && (ref_class_descends(ops, self.a.file, self.a.index, self.b.file, self.b.index) ||
                  ref_class_descends(ops, self.b.file, self.b.index, self.a.file, self.a.index)))
    rc = ref_ops_fail_at(ops, self.a.file, a->start, "%s: one of %s and %s inherits from the other",
                         word, args->spec, words.items[0]);
  if (rc == 0) {
    char *abases = merge__bases(&self, self.a), *bbases = merge__bases(&self, self.b);
    if (strcmp(abases, bbases) != 0)
      rc = ref_ops_fail_at(ops, self.b.file, b->start, "%s: %s and %s have different bases", word,
                           args->spec, words.items[0]);
    eddi_free(abases), eddi_free(bbases);
  }
  if (rc == 0 && !self.python) rc = merge__js_check_shape(&self);
  if (rc == 0 && self.python) rc = merge__py_check_decorated(&self);
  if (rc == 0) rc = merge__check_members(&self);
  if (rc == 0) rc = merge__check_init(&self);
  if (rc == 0) rc = merge__check_dynamic(&self);
  if (rc == 0) rc = merge__rename(&self);
  if (rc == 0) {
    if (self.python) merge__bodies(&self);
    else merge__js_bodies(&self);
    eddi_strbuf_printf(&ops->facts, "Merged %s and %s into %s\n%zu %s updated", args->spec,
                       words.items[0], self.target, self.renamed,
                       self.renamed == 1 ? "reference" : "references");
  }
  array_free(&self.in_b);
  ref_words_free(&words);
  return rc;
}
