/* class_extract.c - Refactor ExtractClass <Class> <NewClass> <members>
 * and Split_Class <Class> <NewClass> <members>, for Python.
 *
 * Both move the named members of a class into a new class, written before
 * it in the same module, and make the old class hold an instance of the
 * new one in an attribute named after it (Fees -> self.fees):
 *   - a method moves as it is: it may reach through self only members that
 *     move with it (what stays is not there in the new class), and may not
 *     use self otherwise or call super();
 *   - an instance field moves with its value: it must be first set at the
 *     top level of __init__'s body, from a value that does not read self;
 *     the new class's __init__ takes the values, and the first of those
 *     assignments becomes the holder's creation (the others go; they must
 *     follow one another, so that nothing runs between them that the move
 *     would reorder).
 * ExtractClass then rewrites every use the workspace resolves to a moved
 * member, obj.x to obj.fees.x (self.x inside the class, its subclasses and
 * callers alike); a use on a receiver of unknown class is listed as unsure
 * and left. Split_Class keeps each moved method in the old class as a
 * delegate (return self.fees.m(...)), so that callers of the methods,
 * sure or unsure, keep working; the fields' uses are rewritten as
 * ExtractClass rewrites them. Refused, with the place: a member that is
 * not the class's own (inherited: move it in its class), a class
 * attribute, a decorated method or a dunder, a library's class in the
 * hierarchy (its code may use a moved member by name; Split_Class moving
 * methods only passes), a lookup by a computed name (getattr(self, n)) on
 * the hierarchy, a subclass that overrides a
 * moved member, a use through the class itself (Account.fee), a moved
 * name used as a plain name in the class body, a holder name the class
 * already has, a new class name the module binds. */
#include "refactor/class_ops.h"

/* ---------------------------------------------------------------- the plan */

typedef struct {
  uint32_t name;
  RefTarget target;
  TSNode node;  /* a method: its function_definition; a field: its expression_statement */
  TSNode value; /* a field: the value it is first set to */
} ExtractMember;

typedef struct {
  RefOps *ops;
  const char *word;
  bool delegate; /* Split_Class: moved methods stay as delegates */
  RefTarget klass;
  const RefFile *file;
  const RefSource *src;
  char *holder; /* the attribute that holds the new class's instance */
  Array(ExtractMember) methods;
  Array(ExtractMember) fields; /* in the order of their statements */
  TSNode init;                 /* the class's __init__, or a null node */
  size_t updated;              /* uses rewritten */
} Extract;

/* The attribute name of a class name: Fees -> fees, PaymentInfo ->
 * payment_info. */
static char *extract__holder_name(const char *klass) {
  StrBuf out = {0};
  for (const char *p = klass; *p; p++) {
    bool upper = *p >= 'A' && *p <= 'Z';
    if (upper && p > klass && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9')))
      eddi_strbuf_putc(&out, '_');
    eddi_strbuf_putc(&out, upper ? (char)(*p | 32) : *p);
  }
  return eddi_strbuf_take(&out);
}

static const char *extract__str(Extract *self, uint32_t name) {
  return ref_names_str(&self->ops->index->names, name);
}

/* Whether a target is one of the moved members (methods only, or fields). */
static bool extract__moved(Extract *self, RefTarget t, bool methods, bool fields) {
  for (size_t i = 0; methods && i < self->methods.len; i++)
    if (ref_target_equal(self->methods.items[i].target, t)) return true;
  for (size_t i = 0; fields && i < self->fields.len; i++)
    if (ref_target_equal(self->fields.items[i].target, t)) return true;
  return false;
}

static bool extract__moved_name(Extract *self, uint32_t name) {
  for (size_t i = 0; i < self->methods.len; i++)
    if (self->methods.items[i].name == name) return true;
  for (size_t i = 0; i < self->fields.len; i++)
    if (self->fields.items[i].name == name) return true;
  return false;
}

/* Whether offset of the class's file lies in a moved method or a moved
 * field's statement (text that goes). */
static bool extract__in_moved(Extract *self, uint32_t file, uint32_t offset) {
  if (file != self->klass.file) return false;
  for (size_t i = 0; i < self->methods.len; i++)
    if (ref_in(offset, ts_node_start_byte(self->methods.items[i].node),
               ts_node_end_byte(self->methods.items[i].node)))
      return true;
  for (size_t i = 0; i < self->fields.len; i++)
    if (ref_in(offset, ts_node_start_byte(self->fields.items[i].node),
               ts_node_end_byte(self->fields.items[i].node)))
      return true;
  return false;
}

/* ---------------------------------------------------------------- the members */

/* A field's first assignment: "self.x = value" at the top level of
 * __init__'s body. */
static int extract__field(Extract *self, ExtractMember *m, const RefSym *sym) {
  RefOps *ops = self->ops;
  const RefOcc *def = &self->file->occs.items[sym->first_def];
  const char *name = extract__str(self, m->name);
  TSNode at = ref_ops_node(ops, self->klass.file, def->start, def->end);
  TSNode assign = ref_node_up(at, "assignment");
  TSNode statement = ts_node_is_null(assign) ? assign : ts_node_parent(assign);
  bool top =
      !ts_node_is_null(self->init) && ref_node_is(statement, "expression_statement") &&
      ts_node_eq(ts_node_parent(statement), ts_node_child_by_field_name(self->init, "body", 4));
  TSNode left = top ? ts_node_child_by_field_name(assign, "left", 4) : assign;
  m->value = top ? ts_node_child_by_field_name(assign, "right", 5) : assign;
  if (!top || !ref_node_is(left, "attribute") || ts_node_is_null(m->value))
    return ref_ops_fail_at(ops, self->klass.file, def->start,
                           "%s: %s is not first set by self.%s = ... in __init__'s body",
                           self->word, name, name);
  m->node = statement;
  /* The value may not read self: the new class's __init__ gets it. */
  for (uint32_t i = 0; i < self->file->occs.len; i++) {
    const RefOcc *occ = &self->file->occs.items[i];
    if (!ref_in(occ->start, ts_node_start_byte(m->value), ts_node_end_byte(m->value)) ||
        occ->kind != REF_OCC_NAME)
      continue;
    RefTarget t = ref_program_target(&ops->program, self->klass.file, i);
    if (t.kind == REF_TARGET_SYM && t.file == self->klass.file &&
        self->file->syms.items[t.index].flags & REF_SYM_SELF)
      return ref_ops_fail_at(ops, self->klass.file, occ->start, "%s: the value of %s reads self",
                             self->word, name);
  }
  return 0;
}

/* Look up one member name of the class and refuse what cannot move. */
static int extract__member(Extract *self, const char *word) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  const RefSym *klass = &self->file->syms.items[self->klass.index];
  uint32_t name = ref_names_intern(&ops->index->names, word, strlen(word));
  ExtractMember m = {.name = name};
  if (extract__moved_name(self, name))
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s: %s is named twice", self->word, word);
  RefTarget t = ref_program_class_member(program, self->klass.file, self->klass.index, name);
  const char *kname = extract__str(self, klass->name);
  if (t.kind != REF_TARGET_SYM)
    return ref_ops_fail_at(ops, self->klass.file, klass->start, "%s: %s has no member %s",
                           self->word, kname, word);
  m.target = t;
  const RefSym *sym = &program->files.items[t.file]->syms.items[t.index];
  bool own = t.file == self->klass.file && ref_target_class(program, t) == self->klass.index;
  if (!own) {
    StrBuf where = {0};
    ref_target_name(program, ops->index, t, &where);
    int rc = ref_ops_fail_at(ops, t.file, sym->start,
                             "%s: %s is inherited (%s): move it in its "
                             "class",
                             self->word, word, where.data);
    eddi_strbuf_free(&where);
    return rc;
  }
  size_t len = strlen(word);
  if (len > 4 && !strncmp(word, "__", 2) && !strcmp(word + len - 2, "__"))
    return ref_ops_fail_at(ops, t.file, sym->start, "%s cannot move %s", self->word, word);
  if (sym->kind == REF_SYM_FUNCTION) {
    TSNode name_node;
    m.node = ref_ops_definition(ops, t, &name_node);
    if (!ref_node_is(m.node, "function_definition"))
      return ref_ops_fail_at(ops, t.file, sym->start, "%s cannot yet move a decorated method",
                             self->word);
    array_push(&self->methods, m);
    return 0;
  }
  if (sym->kind != REF_SYM_MEMBER)
    return ref_ops_fail_at(ops, t.file, sym->start,
                           "%s moves methods and fields set in __init__; %s is a class "
                           "attribute",
                           self->word, word);
  int rc = extract__field(self, &m, sym);
  if (rc < 0) return rc;
  /* In statement order. */
  size_t at = self->fields.len;
  while (at > 0 && ts_node_start_byte(self->fields.items[at - 1].node) > ts_node_start_byte(m.node))
    at--;
  array_push(&self->fields, m);
  memmove(&self->fields.items[at + 1], &self->fields.items[at],
          (self->fields.len - 1 - at) * sizeof m);
  self->fields.items[at] = m;
  return 0;
}

/* A moved method may reach through self only what moves with it. */
static int extract__check_method(Extract *self, const ExtractMember *m) {
  RefOps *ops = self->ops;
  const RefFile *f = self->file;
  const char *mname = extract__str(self, m->name);
  uint32_t start = ts_node_start_byte(m->node), end = ts_node_end_byte(m->node);
  for (uint32_t i = 0; i < f->occs.len; i++) {
    const RefOcc *occ = &f->occs.items[i];
    if (!ref_in(occ->start, start, end) || occ->kind != REF_OCC_NAME || occ->flags & REF_OCC_DEF)
      continue;
    const char *name = extract__str(self, occ->name);
    RefTarget t = ref_program_target(&ops->program, self->klass.file, i);
    if (t.kind == REF_TARGET_NONE && !strcmp(name, "super"))
      return ref_ops_fail_at(ops, self->klass.file, occ->start, "%s: %s calls super()", self->word,
                             mname);
    if (t.kind != REF_TARGET_SYM || t.file != self->klass.file ||
        !(f->syms.items[t.index].flags & REF_SYM_SELF))
      continue;
    /* self.<member>: the member occurrence right after the dot. */
    const RefOcc *next = i + 1 < f->occs.len ? &f->occs.items[i + 1] : NULL;
    bool member = next && next->kind == REF_OCC_MEMBER && next->start == occ->end + 1 &&
                  self->src->text[occ->end] == '.';
    if (!member)
      return ref_ops_fail_at(ops, self->klass.file, occ->start, "%s: %s uses its self", self->word,
                             mname);
    if (!extract__moved_name(self, next->name))
      return ref_ops_fail_at(ops, self->klass.file, next->start,
                             "%s: %s uses self.%s, which stays in %s", self->word, mname,
                             extract__str(self, next->name),
                             extract__str(self, f->syms.items[self->klass.index].name));
  }
  return 0;
}

/* No subclass may define a moved member again, nor the holder. */
static int extract__check_subclasses(Extract *self, uint32_t holder) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t s = 0; s < file->syms.len; s++) {
      const RefSym *sym = &file->syms.items[s];
      if (sym->kind != REF_SYM_CLASS || sym->own_scope == REF_NONE) continue;
      if (f == self->klass.file && s == self->klass.index) continue;
      if (!ref_class_descends(ops, f, s, self->klass.file, self->klass.index)) continue;
      for (uint32_t o = 0; o < file->syms.len; o++) {
        const RefSym *other = &file->syms.items[o];
        bool mine = (other->scope == sym->own_scope && other->kind != REF_SYM_PARAMETER) ||
                    (other->kind == REF_SYM_MEMBER && other->klass == s);
        if (mine && (extract__moved_name(self, other->name) || other->name == holder))
          return ref_ops_fail_at(ops, f, other->start, "%s: %s defines %s too", self->word,
                                 extract__str(self, sym->name), extract__str(self, other->name));
      }
    }
  }
  return 0;
}

/* Whether a class is the class, one of its ancestors or descendants. */
static bool extract__related(Extract *self, uint32_t file, uint32_t klass) {
  return ref_class_descends(self->ops, file, klass, self->klass.file, self->klass.index) ||
         ref_class_descends(self->ops, self->klass.file, self->klass.index, file, klass);
}

/* What may reach a moved member by its name without the workspace
 * saying so: a library's class in the hierarchy (its code may call
 * self.fee), a lookup by a computed name (getattr(self, name)). Methods
 * left as delegates still answer to their names. */
static int extract__check_hierarchy(Extract *self) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  if (self->delegate && !self->fields.len) return 0;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t s = 0; s < file->syms.len; s++) {
      if (file->syms.items[s].kind != REF_SYM_CLASS || !extract__related(self, f, s)) continue;
      uint32_t at = ref_class_foreign_base(ops, (RefTarget){REF_TARGET_SYM, f, s});
      if (at != REF_NONE)
        return ref_ops_fail_at(ops, f, at,
                               "%s: this base is no class of the workspace; its code "
                               "may use the moved members by name",
                               self->word);
    }
  }
  uint32_t file, offset;
  if (ref_class_computed_lookup(ops, self->klass, true, &file, &offset))
    return ref_ops_fail_at(ops, file, offset,
                           "%s: a member of %s may be looked up by a computed name", self->word,
                           extract__str(self, self->file->syms.items[self->klass.index].name));
  return 0;
}

/* ---------------------------------------------------------------- the uses */

/* Rewrite obj.x to obj.<holder>.x for every resolved use of a moved
 * member (a method's only without delegates); refuse a use through the
 * class, or by a plain name in the class's body. */
static int extract__rewrite_uses(Extract *self) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  StrBuf insert = {0};
  eddi_strbuf_printf(&insert, "%s.", self->holder);
  int rc = 0;
  for (uint32_t f = 0; f < program->files.len && rc == 0; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t i = 0; i < file->occs.len && rc == 0; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->kind != REF_OCC_MEMBER && occ->kind != REF_OCC_NAME) continue;
      if (!extract__moved_name(self, occ->name) || extract__in_moved(self, f, occ->start)) continue;
      RefTarget t = ref_program_target(program, f, i);
      if (occ->kind == REF_OCC_NAME) {
        if (t.kind == REF_TARGET_SYM && extract__moved(self, t, true, true))
          rc = ref_ops_fail_at(ops, f, occ->start, "%s: %s is used by name", self->word,
                               extract__str(self, occ->name));
        continue;
      }
      if (t.kind == REF_TARGET_UNSURE) {
        /* A delegate answers for a method, whoever calls it. */
        bool method = false;
        for (size_t m = 0; m < self->methods.len; m++)
          method |= self->methods.items[m].name == occ->name;
        if (!(self->delegate && method)) ref_ops_unsure(ops, f, occ->start);
        continue;
      }
      if (t.kind != REF_TARGET_SYM || !extract__moved(self, t, true, true)) continue;
      if (ref_program_expr_value(program, f, occ->expr).kind == REF_VALUE_CLASS) {
        rc = ref_ops_fail_at(ops, f, occ->start, "%s: %s is used through the class", self->word,
                             extract__str(self, occ->name));
        continue;
      }
      if (self->delegate && extract__moved(self, t, true, false)) continue;
      /* Before the holder is made in __init__, the holder is not there. */
      if (f == self->klass.file && !ts_node_is_null(self->init) &&
          ref_in(occ->start, ts_node_start_byte(self->init), ts_node_end_byte(self->init)) &&
          self->fields.len && occ->start < ts_node_start_byte(self->fields.items[0].node)) {
        rc = ref_ops_fail_at(ops, f, occ->start,
                             "%s: %s is used in __init__ before the fields "
                             "are set",
                             self->word, extract__str(self, occ->name));
        continue;
      }
      ref_ops_edit(ops, f, occ->start, occ->start, insert.data, insert.len);
      self->updated++;
    }
  }
  eddi_strbuf_free(&insert);
  return rc;
}

/* ---------------------------------------------------------------- the texts */

/* The new class: __init__ taking the fields' values, then the methods. */
static void extract__new_class(Extract *self, const char *name, StrBuf *out) {
  RefOps *ops = self->ops;
  const char *unit = self->src->lang->indent ? self->src->lang->indent : "    ";
  size_t unit_len = strlen(unit);
  eddi_strbuf_printf(out, "class %s:\n", name);
  bool first = true;
  if (self->fields.len) {
    eddi_strbuf_printf(out, "%sdef __init__(self", unit);
    for (size_t i = 0; i < self->fields.len; i++)
      eddi_strbuf_printf(out, ", %s", extract__str(self, self->fields.items[i].name));
    eddi_strbuf_puts(out, "):\n");
    for (size_t i = 0; i < self->fields.len; i++) {
      const char *field = extract__str(self, self->fields.items[i].name);
      eddi_strbuf_printf(out, "%s%sself.%s = %s\n", unit, unit, field, field);
    }
    first = false;
  }
  for (size_t i = 0; i < self->methods.len; i++) {
    TSNode fn = self->methods.items[i].node;
    uint32_t line = ref_ops_line_start(self->src, ts_node_start_byte(fn));
    if (!first) eddi_strbuf_putc(out, '\n');
    ref_ops_reindent(out, self->src->text + line, ts_node_end_byte(fn) - line,
                     ts_node_start_byte(fn) - line, unit, unit_len);
    eddi_strbuf_putc(out, '\n');
    first = false;
  }
  size_t blank = self->src->lang->blank_lines ? self->src->lang->blank_lines : 2;
  for (size_t b = 0; b < blank; b++) eddi_strbuf_putc(out, '\n');
  EDDI_UNUSED(ops);
}

/* The holder's creation: in place of the first field's assignment (the
 * others go), or first in __init__ (made when the class has none). */
static int extract__holder_edits(Extract *self, const char *name) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  StrBuf make = {0};
  eddi_strbuf_printf(&make, "self.%s = %s(", self->holder, name);
  for (size_t i = 0; i < self->fields.len; i++) {
    char *value = ref_ops_text(ops, file, self->fields.items[i].value);
    eddi_strbuf_printf(&make, "%s%s", i ? ", " : "", value);
    eddi_free(value);
  }
  eddi_strbuf_putc(&make, ')');
  int rc = 0;
  if (self->fields.len) {
    /* The fields' statements follow one another in __init__. */
    for (size_t i = 1; i < self->fields.len && rc == 0; i++) {
      TSNode prev = ts_node_next_named_sibling(self->fields.items[i - 1].node);
      while (ref_node_is(prev, "comment")) prev = ts_node_next_named_sibling(prev);
      if (!ts_node_eq(prev, self->fields.items[i].node))
        rc = ref_ops_fail_at(ops, file, ts_node_start_byte(prev),
                             "%s: a statement between the moved fields' assignments", self->word);
    }
    if (rc == 0) {
      TSNode first = self->fields.items[0].node;
      ref_ops_edit(ops, file, ts_node_start_byte(first), ts_node_end_byte(first), make.data,
                   make.len);
      for (size_t i = 1; i < self->fields.len; i++)
        ref_ops_remove_lines(ops, file, ts_node_start_byte(self->fields.items[i].node),
                             ts_node_end_byte(self->fields.items[i].node));
    }
  } else {
    const char *unit = self->src->lang->indent ? self->src->lang->indent : "    ";
    TSNode body = ts_node_is_null(self->init) ? ref_class_body(ops, file, self->klass.index)
                                              : ts_node_child_by_field_name(self->init, "body", 4);
    TSNode first = ts_node_named_child(body, 0);
    bool doc = ref_node_is(first, "expression_statement") &&
               ref_node_is(ts_node_named_child(first, 0), "string");
    TSNode before = doc ? ts_node_next_named_sibling(first) : first;
    uint32_t at = ts_node_is_null(before)
                      ? ref_ops_next_line(self->src, ts_node_end_byte(first) - 1)
                      : ref_ops_line_start(self->src, ts_node_start_byte(before));
    uint32_t indent = ref_ops_indent(self->src, ts_node_start_byte(first));
    StrBuf text = {0};
    const char *margin = self->src->text + ref_ops_line_start(self->src, ts_node_start_byte(first));
    eddi_strbuf_append(&text, margin, indent);
    if (ts_node_is_null(self->init)) {
      eddi_strbuf_printf(&text, "def __init__(self):\n");
      eddi_strbuf_append(&text, margin, indent);
      eddi_strbuf_puts(&text, unit);
    }
    eddi_strbuf_printf(&text, "%s\n", make.data);
    /* A blank line before the next member, unless that member moves (the
     * blank line after it stays). */
    if (ts_node_is_null(self->init) && !ts_node_is_null(before) &&
        (self->delegate || !extract__in_moved(self, file, ts_node_start_byte(before))))
      eddi_strbuf_putc(&text, '\n');
    if (ts_node_is_null(before) && ts_node_is_null(self->init)) {
      StrBuf lead = {0};
      eddi_strbuf_putc(&lead, '\n');
      eddi_strbuf_append(&lead, text.data, text.len);
      eddi_strbuf_free(&text);
      text = lead;
    }
    ref_ops_edit(ops, file, at, at, text.data, text.len);
    eddi_strbuf_free(&text);
  }
  eddi_strbuf_free(&make);
  return rc;
}

/* Moved methods go from the class, or (Split_Class) become delegates. */
static void extract__method_edits(Extract *self) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  for (size_t i = 0; i < self->methods.len; i++) {
    TSNode fn = self->methods.items[i].node;
    if (!self->delegate) {
      ref_ops_remove_lines(ops, file, ts_node_start_byte(fn), ts_node_end_byte(fn));
      continue;
    }
    TSNode params = ts_node_child_by_field_name(fn, "parameters", 10);
    TSNode body = ts_node_child_by_field_name(fn, "body", 4);
    TSNode self_param = ts_node_named_child(params, 0);
    char *self_text = ref_ops_text(ops, file, self_param);
    StrBuf delegate = {0};
    eddi_strbuf_printf(&delegate, "return %s.%s.%s(", self_text, self->holder,
                       extract__str(self, self->methods.items[i].name));
    ref_class_forward(ops, file, params, &delegate);
    eddi_strbuf_putc(&delegate, ')');
    TSNode first = ts_node_named_child(body, 0);
    ref_ops_edit(ops, file, ts_node_start_byte(first), ts_node_end_byte(body), delegate.data,
                 delegate.len);
    eddi_strbuf_free(&delegate);
    eddi_free(self_text);
  }
}

/* ---------------------------------------------------------------- the operations */

static int extract__plan(RefOps *ops, const RefOpArgs *args, const char *word, bool delegate) {
  Extract self = {.ops = ops, .word = word, .delegate = delegate};
  RefWords words = {0};
  ref_words_split(args->other, &words);
  int rc = words.len >= 2 ? 0
                          : eddi_error_set(ops->err, EDDI_EINVAL,
                                           "Refactor %s takes <Class> <NewClass> <m1,m2>", word);
  if (rc == 0) rc = ref_class_find(ops, args->spec, &self.klass);
  if (rc == 0) rc = ref_ops_python(ops, self.klass.file, word);
  const char *name = words.len ? words.items[0] : "";
  if (rc == 0) {
    self.file = ops->program.files.items[self.klass.file];
    self.src = &ops->index->sources.items[self.klass.file];
    rc = ref_ops_valid_name(ops, self.file->lang, name);
  }
  const RefSym *klass = rc == 0 ? &self.file->syms.items[self.klass.index] : NULL;
  if (rc == 0 && klass->scope != 0)
    rc = ref_ops_fail_at(ops, self.klass.file, klass->start, "%s needs a module-level class", word);
  uint32_t new_id = ref_names_intern(&ops->index->names, name, strlen(name));
  if (rc == 0 && ref_file_bound(self.file, 0, new_id) != REF_NONE)
    rc = ref_ops_fail_at(ops, self.klass.file,
                         self.file->syms.items[ref_file_bound(self.file, 0, new_id)].start,
                         "%s: %s is already defined", word, name);
  /* The holder is set in __init__: a class with __slots__ has no room for
   * it, and one unpickled through __setstate__ (or copied) never runs
   * __init__, so it would lack it. */
  static const char *const no_holder[] = {"__slots__", "__setstate__", "__reduce__",
                                          "__reduce_ex__", "__copy__", NULL};
  for (size_t i = 0; rc == 0 && no_holder[i]; i++) {
    uint32_t id = ref_names_find(&ops->index->names, no_holder[i], strlen(no_holder[i]));
    uint32_t own = id == REF_NONE ? REF_NONE : ref_file_bound(self.file, klass->own_scope, id);
    if (own != REF_NONE)
      rc = ref_ops_fail_at(ops, self.klass.file, self.file->syms.items[own].start,
                           "%s cannot yet give %s a holder: it defines %s", word, args->spec,
                           no_holder[i]);
  }
  uint32_t holder = REF_NONE;
  if (rc == 0) {
    self.holder = extract__holder_name(name);
    holder = ref_names_intern(&ops->index->names, self.holder, strlen(self.holder));
    if (ref_program_class_member(&ops->program, self.klass.file, self.klass.index, holder).kind !=
        REF_TARGET_NONE)
      rc = ref_ops_fail_at(ops, self.klass.file, klass->start, "%s: %s already has %s", word,
                           args->spec, self.holder);
  }
  if (rc == 0) {
    uint32_t init_name = ref_names_intern(&ops->index->names, "__init__", strlen("__init__"));
    uint32_t init = ref_file_bound(self.file, klass->own_scope, init_name);
    if (init != REF_NONE) {
      TSNode name_node;
      self.init =
          ref_ops_definition(ops, (RefTarget){REF_TARGET_SYM, self.klass.file, init}, &name_node);
      if (!ref_node_is(self.init, "function_definition"))
        rc = ref_ops_fail_at(ops, self.klass.file, self.file->syms.items[init].start,
                             "%s: %s's __init__ is no plain method", word, args->spec);
    } else if (klass->bases_count) {
      rc = ref_ops_fail_at(ops, self.klass.file, klass->start,
                           "%s: %s has no __init__ of its own to create self.%s in", word,
                           args->spec, self.holder);
    }
  }
  for (size_t i = 1; i < words.len && rc == 0; i++) rc = extract__member(&self, words.items[i]);
  for (size_t i = 0; i < self.methods.len && rc == 0; i++)
    rc = extract__check_method(&self, &self.methods.items[i]);
  if (rc == 0) rc = extract__check_subclasses(&self, holder);
  if (rc == 0) rc = extract__check_hierarchy(&self);
  if (rc == 0) rc = extract__rewrite_uses(&self);
  if (rc == 0) rc = extract__holder_edits(&self, name);
  if (rc == 0) {
    extract__method_edits(&self);
    StrBuf text = {0};
    extract__new_class(&self, name, &text);
    TSNode name_node;
    TSNode def = ref_ops_definition(ops, self.klass, &name_node);
    uint32_t at = ref_ops_line_start(self.src, ts_node_start_byte(def));
    ref_ops_edit(ops, self.klass.file, at, at, text.data, text.len);
    eddi_strbuf_free(&text);
    StrBuf list = {0};
    for (size_t i = 1; i < words.len; i++)
      eddi_strbuf_printf(&list, "%s%s", i > 1 ? ", " : "", words.items[i]);
    eddi_strbuf_printf(&ops->facts, "%s %s from %s: %s\n%s holds it in self.%s",
                       delegate ? "Split" : "Extracted", name, args->spec, list.data, args->spec,
                       self.holder);
    if (delegate && self.methods.len) eddi_strbuf_puts(&ops->facts, ", its methods delegate");
    eddi_strbuf_printf(&ops->facts, "\n%zu %s updated", self.updated,
                       self.updated == 1 ? "use" : "uses");
    eddi_strbuf_free(&list);
  }
  eddi_free(self.holder);
  array_free(&self.methods);
  array_free(&self.fields);
  ref_words_free(&words);
  return rc;
}

int ref_extract_class_plan(RefOps *ops, const RefOpArgs *args) {
  return extract__plan(ops, args, "ExtractClass", false);
}

int ref_split_class_plan(RefOps *ops, const RefOpArgs *args) {
  return extract__plan(ops, args, "Split_Class", true);
}
