/* class_extract.c - Refactor ExtractClass <Class> <NewClass> <members>
 * and Split_Class <Class> <NewClass> <members>, for Python, JavaScript
 * and TypeScript (the plan is one; "JavaScript's members" and
 * "JavaScript's texts" below read and write the language's own forms: a
 * field set at the top of the constructor or a class field, a holder in
 * this.<name>, TypeScript's declarations; doc/refactoring.org).
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
  TSNode node;        /* a method: its definition; a field: its statement (or class field) */
  TSNode value;       /* a field: the value it is first set to (null: a bare class field) */
  TSNode decl;        /* JavaScript: the class field declaring a field the constructor sets */
  uint32_t start;     /* where the member's text starts: a JSDoc comment above it */
  const char *hidden; /* TypeScript: "private" or "protected", public in the new class */
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
  TSNode init;                 /* the class's __init__ (constructor), or a null node */
  bool python;
  bool class_fields;           /* JavaScript: the fields are class fields, not set in the constructor */
  size_t updated;              /* uses rewritten */
} Extract;

/* The attribute name of a class name: Fees -> fees, PaymentInfo ->
 * payment_info (paymentInfo in JavaScript). */
static char *extract__holder_name(const char *klass, bool python) {
  StrBuf out = {0};
  if (!python) {
    eddi_strbuf_puts(&out, klass);
    if (out.len && out.data[0] >= 'A' && out.data[0] <= 'Z') out.data[0] |= 32;
    return eddi_strbuf_take(&out);
  }
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
  for (size_t i = 0; i < self->fields.len; i++) {
    const ExtractMember *m = &self->fields.items[i];
    if (ref_in(offset, ts_node_start_byte(m->node), ts_node_end_byte(m->node)) ||
        (!ts_node_is_null(m->decl) &&
         ref_in(offset, ts_node_start_byte(m->decl), ts_node_end_byte(m->decl))))
      return true;
  }
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

/* ---------------------------------------------------------------- JavaScript's members */

/* The name of a class field (field_definition in JavaScript,
 * public_field_definition in TypeScript), or a null node for another member. */
static TSNode extract__js_field_name(TSNode member) {
  if (ref_node_is(member, "field_definition"))
    return ts_node_child_by_field_name(member, "property", 8);
  if (ref_node_is(member, "public_field_definition"))
    return ts_node_child_by_field_name(member, "name", 4);
  return (TSNode){0};
}

static bool extract__node_named(Extract *self, TSNode node, const char *name) {
  if (ts_node_is_null(node)) return false;
  size_t len = ts_node_end_byte(node) - ts_node_start_byte(node);
  return len == strlen(name) && !memcmp(self->src->text + ts_node_start_byte(node), name, len);
}

/* The class field of the class's body named name, or a null node. */
static TSNode extract__js_class_field(Extract *self, const char *name) {
  TSNode body = ref_class_body(self->ops, self->klass.file, self->klass.index);
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode member = ts_node_named_child(body, i);
    if (extract__node_named(self, extract__js_field_name(member), name)) return member;
  }
  return (TSNode){0};
}

/* The statement this.name = value; at the top level of the constructor's
 * body, or a null node. */
static TSNode extract__js_constructor_set(Extract *self, const char *name, TSNode *value) {
  TSNode body = ts_node_is_null(self->init) ? self->init
                                            : ts_node_child_by_field_name(self->init, "body", 4);
  for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++) {
    TSNode statement = ts_node_named_child(body, i);
    TSNode assign = ref_node_is(statement, "expression_statement")
                        ? ts_node_named_child(statement, 0)
                        : (TSNode){0};
    if (!ref_node_is(assign, "assignment_expression")) continue;
    TSNode left = ts_node_child_by_field_name(assign, "left", 4);
    if (!ref_node_is(left, "member_expression") ||
        !ref_node_is(ts_node_child_by_field_name(left, "object", 6), "this") ||
        !extract__node_named(self, ts_node_child_by_field_name(left, "property", 8), name))
      continue;
    *value = ts_node_child_by_field_name(assign, "right", 5);
    return statement;
  }
  return (TSNode){0};
}

/* Whether the constructor has a TypeScript parameter property named name
 * (constructor(private name: T)). */
static bool extract__js_parameter_property(Extract *self, const char *name) {
  TSNode params = ts_node_is_null(self->init)
                      ? self->init
                      : ts_node_child_by_field_name(self->init, "parameters", 10);
  for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
    TSNode p = ts_node_named_child(params, i);
    bool property = false;
    for (uint32_t k = 0; k < ts_node_named_child_count(p); k++) {
      const char *type = ts_node_type(ts_node_named_child(p, k));
      property |= !strcmp(type, "accessibility_modifier") || !strcmp(type, "readonly");
    }
    if (property && extract__node_named(self, ts_node_child_by_field_name(p, "pattern", 7), name))
      return true;
  }
  return false;
}

/* A JavaScript field: set by this.x = value at the top level of the
 * constructor's body (TypeScript declares it as a field too), or a class
 * field with its initialiser; its value may not read this. */
static int extract__js_field(Extract *self, ExtractMember *m, const RefSym *sym) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  const char *name = extract__str(self, m->name);
  bool typescript = strcmp(self->src->lang->name, "javascript") != 0;
  if (name[0] == '#')
    return ref_ops_fail_at(ops, file, sym->start,
                           "%s cannot move a #private field: only %s's own code reaches it",
                           self->word, extract__str(self, self->file->syms.items[self->klass.index].name));
  TSNode field = extract__js_class_field(self, name), value = {0};
  TSNode set = extract__js_constructor_set(self, name, &value);
  for (uint32_t i = 0; !ts_node_is_null(field) && i < ts_node_named_child_count(field); i++)
    if (ref_node_is(ts_node_named_child(field, i), "decorator"))
      return ref_ops_fail_at(ops, file, ts_node_start_byte(field),
                             "%s cannot yet move a decorated field", self->word);
  if (!ts_node_is_null(field) && ref_class_js_keyword(field, "static"))
    return ref_ops_fail_at(ops, file, ts_node_start_byte(field),
                           "%s moves instance members; %s is static", self->word, name);
  TSNode field_value =
      ts_node_is_null(field) ? field : ts_node_child_by_field_name(field, "value", 5);
  if (!ts_node_is_null(set)) {
    if (!ts_node_is_null(field_value))
      return ref_ops_fail_at(ops, file, ts_node_start_byte(set),
                             "%s: %s is set by its field and again in the constructor", self->word,
                             name);
    if (typescript && (ts_node_is_null(field) ||
                       ts_node_is_null(ts_node_child_by_field_name(field, "type", 4))))
      return ref_ops_fail_at(ops, file, ts_node_start_byte(set),
                             "%s: %s has no declared type for the new class's constructor",
                             self->word, name);
    m->node = set, m->value = value, m->decl = field;
    m->start = ts_node_start_byte(set);
  } else if (!ts_node_is_null(field)) {
    m->node = field, m->value = field_value;
    m->start = ref_class_js_leading(ops, file, field);
  } else {
    return ref_ops_fail_at(ops, file, sym->start,
                           "%s: %s is not set by this.%s = ... in the constructor's body, nor a "
                           "field of the class",
                           self->word, name, name);
  }
  m->hidden = ts_node_is_null(field) ? NULL : ref_class_js_hidden(ops, file, field);
  bool class_field = ts_node_is_null(set);
  if (self->fields.len && self->class_fields != class_field)
    return ref_ops_fail_at(ops, file, ts_node_start_byte(m->node),
                           "%s cannot move fields set in the constructor and class fields "
                           "together",
                           self->word);
  self->class_fields = class_field;
  uint32_t at = ts_node_is_null(m->value)
                    ? REF_NONE
                    : ref_class_js_this(ops, file, m->value, false, NULL, NULL);
  if (at != REF_NONE)
    return ref_ops_fail_at(ops, file, at, "%s: the value of %s reads this", self->word, name);
  return 0;
}

/* A JavaScript method: a plain instance method_definition. */
static int extract__js_method(Extract *self, ExtractMember *m) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  TSNode def = ref_class_definition(ops, m->target);
  if (!ref_node_is(def, "method_definition"))
    return ref_ops_fail_at(ops, file, self->file->syms.items[m->target.index].start,
                           "%s cannot move a method declared by a signature (an overload, or "
                           "abstract)",
                           self->word);
  uint32_t at;
  const char *why = ref_class_js_method_why(ops, file, def, &at);
  if (why) return ref_ops_fail_at(ops, file, at, "%s cannot move %s", self->word, why);
  m->node = def;
  m->start = ref_class_js_leading(ops, file, def);
  m->hidden = ref_class_js_hidden(ops, file, def);
  return 0;
}

/* What a moved JavaScript method's this may be: the object of this.x,
 * read or written, x one of the moved members (checked after the walk). */
typedef struct {
  Extract *extract;
  TSNode staying; /* the first this.x of a member that stays */
} ExtractThis;

static bool extract__js_this_allowed(void *context, TSNode node) {
  ExtractThis *walk = context;
  TSNode member = ts_node_parent(node);
  if (!ref_node_is(member, "member_expression") ||
      !ts_node_eq(ts_node_child_by_field_name(member, "object", 6), node))
    return false;
  TSNode property = ts_node_child_by_field_name(member, "property", 8);
  if (!ref_node_is(property, "property_identifier")) return false;
  Extract *self = walk->extract;
  uint32_t name = ref_names_find(&self->ops->index->names,
                                 self->src->text + ts_node_start_byte(property),
                                 ts_node_end_byte(property) - ts_node_start_byte(property));
  if ((name == REF_NONE || !extract__moved_name(self, name)) && ts_node_is_null(walk->staying))
    walk->staying = property;
  return true;
}

static int extract__js_check_method(Extract *self, const ExtractMember *m) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  const char *mname = extract__str(self, m->name);
  ExtractThis walk = {.extract = self};
  /* From the parameters and the body: the method_definition itself would
   * count as a nested function. */
  TSNode params = ts_node_child_by_field_name(m->node, "parameters", 10);
  TSNode body = ts_node_child_by_field_name(m->node, "body", 4);
  uint32_t at = ref_class_js_this(ops, file, params, false, extract__js_this_allowed, &walk);
  if (at == REF_NONE) at = ref_class_js_this(ops, file, body, false, extract__js_this_allowed, &walk);
  if (at != REF_NONE) {
    TSNode node = ref_ops_node(ops, file, at, at + 1);
    char *text = ref_ops_text(ops, file, node);
    int rc = ref_ops_fail_at(ops, file, at, "%s: %s uses its this (%s)", self->word, mname, text);
    eddi_free(text);
    return rc;
  }
  if (!ts_node_is_null(walk.staying)) {
    char *text = ref_ops_text(ops, file, walk.staying);
    int rc = ref_ops_fail_at(ops, file, ts_node_start_byte(walk.staying),
                             "%s: %s uses this.%s, which stays in %s", self->word, mname, text,
                             extract__str(self, self->file->syms.items[self->klass.index].name));
    eddi_free(text);
    return rc;
  }
  return 0;
}

/* A member that a base class defines too is an override: the base's own
 * code calling it on an instance of the class runs it, and would run the
 * base's once it moved. A method that stays as a delegate still answers. */
static int extract__check_override(Extract *self, const ExtractMember *m, bool method) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  if (method && self->delegate) return 0;
  RefIds bases = {0};
  ref_program_bases(program, self->klass.file, self->klass.index, &bases);
  int rc = 0;
  for (size_t i = 0; i + 1 < bases.len && rc == 0; i += 2) {
    RefTarget there = ref_program_class_member(program, bases.items[i], bases.items[i + 1], m->name);
    if (there.kind != REF_TARGET_SYM) continue;
    StrBuf where = {0};
    ref_target_name(program, ops->index, there, &where);
    const RefSym *sym = &program->files.items[m->target.file]->syms.items[m->target.index];
    const char *kname = extract__str(self, self->file->syms.items[self->klass.index].name);
    rc = ref_ops_fail_at(ops, m->target.file, sym->start,
                         "%s: %s.%s overrides %s, which calls on an instance of %s would run "
                         "instead",
                         self->word, kname, extract__str(self, m->name), where.data, kname);
    if (method) eddi_error_hint(ops->err, "Split_Class keeps the method as a delegate");
    eddi_strbuf_free(&where);
  }
  array_free(&bases);
  return rc;
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
  if (t.kind != REF_TARGET_SYM && !self->python && extract__js_parameter_property(self, word)) {
    int rc = ref_ops_fail_at(ops, self->klass.file, klass->start,
                             "%s cannot yet move a parameter property (%s)", self->word, word);
    eddi_error_hint(ops->err, "Declare %s as a field and set it in the constructor's body first",
                    word);
    return rc;
  }
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
  if (self->python && len > 4 && !strncmp(word, "__", 2) && !strcmp(word + len - 2, "__"))
    return ref_ops_fail_at(ops, t.file, sym->start, "%s cannot move %s", self->word, word);
  int rc = extract__check_override(self, &m, sym->kind == REF_SYM_FUNCTION);
  if (rc < 0) return rc;
  if (!self->python && sym->kind == REF_SYM_FUNCTION) {
    rc = extract__js_method(self, &m);
    if (rc == 0) array_push(&self->methods, m);
    return rc;
  }
  if (sym->kind == REF_SYM_FUNCTION) {
    TSNode name_node;
    m.node = ref_ops_definition(ops, t, &name_node);
    if (!ref_node_is(m.node, "function_definition"))
      return ref_ops_fail_at(ops, t.file, sym->start, "%s cannot yet move a decorated method",
                             self->word);
    array_push(&self->methods, m);
    return 0;
  }
  if (self->python && sym->kind != REF_SYM_MEMBER)
    return ref_ops_fail_at(ops, t.file, sym->start,
                           "%s moves methods and fields set in __init__; %s is a class "
                           "attribute",
                           self->word, word);
  rc = self->python ? extract__field(self, &m, sym) : extract__js_field(self, &m, sym);
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
  /* A moved field leaves the instance's own fields: what reads them all
   * (a serialiser, an equality through vars) would read another set. */
  if (ref_class_reflected(ops, self->klass, true, &file, &offset)) {
    int rc = ref_ops_fail_at(ops, file, offset,
                             "%s: every field of a %s is read by name, so moving some changes "
                             "what is read",
                             self->word,
                             extract__str(self, self->file->syms.items[self->klass.index].name));
    eddi_error_hint(ops->err, "Give the class a method of its own that the reader calls "
                    "(to_dict, toJSON) first");
    return rc;
  }
  return 0;
}

/* ---------------------------------------------------------------- the uses */

/* Whether a use at offset of file runs before the holder exists: in
 * __init__ (the constructor) above the first moved field's statement; in
 * JavaScript also in a class field's initialiser that runs before it
 * (every one when the constructor sets the fields; when they are class
 * fields, the ones above the first). */
static bool extract__before_holder(Extract *self, uint32_t file, uint32_t offset) {
  if (file != self->klass.file || !self->fields.len) return false;
  uint32_t first = ts_node_start_byte(self->fields.items[0].node);
  if (!ts_node_is_null(self->init) && !self->class_fields &&
      ref_in(offset, ts_node_start_byte(self->init), ts_node_end_byte(self->init)) &&
      offset < first)
    return true;
  if (self->python) return false;
  TSNode body = ref_class_body(self->ops, self->klass.file, self->klass.index);
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode member = ts_node_named_child(body, i);
    if (ts_node_is_null(extract__js_field_name(member)) || ref_class_js_keyword(member, "static"))
      continue;
    if (ref_in(offset, ts_node_start_byte(member), ts_node_end_byte(member)) &&
        (!self->class_fields || offset < first))
      return true;
  }
  return false;
}

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
      /* Before the holder is made, neither the member nor a delegate of
       * it can be reached. */
      if (extract__before_holder(self, f, occ->start)) {
        rc = ref_ops_fail_at(ops, f, occ->start, "%s: %s is used in %s before the fields are set",
                             self->word, extract__str(self, occ->name),
                             self->python ? "__init__" : "the constructor or a field");
        continue;
      }
      if (self->delegate && extract__moved(self, t, true, false)) continue;
      /* super().fee() reads the base's member, not the instance's holder:
       * super().fees is no attribute. */
      if (ref_program_expr_value(program, f, occ->expr).kind == REF_VALUE_SUPER) {
        rc = ref_ops_fail_at(ops, f, occ->start, "%s: %s is used through %s", self->word,
                             extract__str(self, occ->name), self->python ? "super()" : "super");
        eddi_error_hint(ops->err, "Call it on %s there first, or use Split_Class, whose "
                                  "delegate answers",
                        self->python ? "self" : "this");
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

/* ---------------------------------------------------------------- JavaScript's texts */

/* The end of a class member's text: its node, with the ; after it. */
static uint32_t extract__js_end(Extract *self, TSNode node) {
  uint32_t end = ts_node_end_byte(node);
  return end < self->src->len && self->src->text[end] == ';' ? end + 1 : end;
}

/* Append a member's text, from the line of start to its end, without its
 * accessibility modifier (it is public in the new class), indented by
 * margin; then a newline. */
static void extract__js_member_text(Extract *self, uint32_t start, TSNode node,
                                    const char *margin, StrBuf *out) {
  const RefSource *src = self->src;
  uint32_t line = ref_ops_line_start(src, start), head = line;
  StrBuf text = {0};
  for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
    TSNode modifier = ts_node_named_child(node, i);
    if (!ref_node_is(modifier, "accessibility_modifier")) continue;
    uint32_t after = ts_node_end_byte(modifier);
    while (after < src->len && (src->text[after] == ' ' || src->text[after] == '\t')) after++;
    eddi_strbuf_append(&text, src->text + head, ts_node_start_byte(modifier) - head);
    head = after;
  }
  eddi_strbuf_append(&text, src->text + head, extract__js_end(self, node) - head);
  ref_ops_reindent(out, text.data, text.len, start - line, margin, strlen(margin));
  eddi_strbuf_putc(out, '\n');
  eddi_strbuf_free(&text);
}

/* The statement that declares the class, with its export. */
static TSNode extract__js_statement(Extract *self) {
  TSNode klass = ref_class_node(self->ops, self->klass.file, self->klass.index);
  TSNode up = ts_node_parent(klass);
  return ref_node_is(up, "export_statement") ? up : klass;
}

/* The new class: the fields (declared, then set by its constructor, or
 * class fields as they were), then the methods; exported as the class is. */
static void extract__js_new_class(Extract *self, const char *name, const char *unit,
                                  StrBuf *out) {
  bool typescript = strcmp(self->src->lang->name, "javascript") != 0;
  bool exported = ref_node_is(extract__js_statement(self), "export_statement");
  eddi_strbuf_printf(out, "%sclass %s {\n", exported ? "export " : "", name);
  bool first = true;
  if (self->class_fields) {
    for (size_t i = 0; i < self->fields.len; i++)
      extract__js_member_text(self, self->fields.items[i].start, self->fields.items[i].node, unit,
                              out);
    first = !self->fields.len;
  } else if (self->fields.len) {
    bool declared = false;
    for (size_t i = 0; i < self->fields.len; i++) {
      const ExtractMember *m = &self->fields.items[i];
      if (ts_node_is_null(m->decl)) continue;
      extract__js_member_text(self, ts_node_start_byte(m->decl), m->decl, unit, out);
      declared = true;
    }
    if (declared) eddi_strbuf_putc(out, '\n');
    eddi_strbuf_printf(out, "%sconstructor(", unit);
    for (size_t i = 0; i < self->fields.len; i++) {
      const ExtractMember *m = &self->fields.items[i];
      eddi_strbuf_printf(out, "%s%s", i ? ", " : "", extract__str(self, m->name));
      if (typescript) {
        char *type = ref_ops_text(self->ops, self->klass.file,
                                  ts_node_child_by_field_name(m->decl, "type", 4));
        bool optional = ref_class_js_keyword(m->decl, "?");
        eddi_strbuf_printf(out, "%s%s", type, optional ? " | undefined" : "");
        eddi_free(type);
      }
    }
    eddi_strbuf_puts(out, ") {\n");
    for (size_t i = 0; i < self->fields.len; i++) {
      const char *field = extract__str(self, self->fields.items[i].name);
      eddi_strbuf_printf(out, "%s%sthis.%s = %s;\n", unit, unit, field, field);
    }
    eddi_strbuf_printf(out, "%s}\n", unit);
    first = false;
  }
  for (size_t i = 0; i < self->methods.len; i++) {
    if (!first) eddi_strbuf_putc(out, '\n');
    extract__js_member_text(self, self->methods.items[i].start, self->methods.items[i].node, unit,
                            out);
    first = false;
  }
  eddi_strbuf_puts(out, "}\n\n");
}

typedef Array(uint32_t) ExtractRanges;

/* Remove the lines of each [start, end) pair; pairs with only blank lines
 * between them go as one, so that their removals do not overlap. */
static void extract__js_remove(Extract *self, ExtractRanges *ranges) {
  for (size_t i = 2; i < ranges->len; i += 2) /* by place: few, so by insertion */
    for (size_t j = i; j >= 2 && ranges->items[j - 2] > ranges->items[j]; j -= 2)
      for (size_t k = 0; k < 2; k++) {
        uint32_t swap = ranges->items[j - 2 + k];
        ranges->items[j - 2 + k] = ranges->items[j + k];
        ranges->items[j + k] = swap;
      }
  for (size_t i = 0; i < ranges->len;) {
    uint32_t start = ranges->items[i], end = ranges->items[i + 1];
    for (i += 2; i < ranges->len; i += 2) {
      uint32_t at = end;
      while (at < ranges->items[i] && strchr(" \t\r\n;", self->src->text[at])) at++;
      if (at < ranges->items[i]) break;
      end = ranges->items[i + 1];
    }
    ref_ops_remove_lines(self->ops, self->klass.file, start, end);
  }
}

/* The holder's creation and the members that go (or, Split_Class, the
 * methods' delegates). */
static int extract__js_edits(Extract *self, const char *name, const char *unit) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  bool typescript = strcmp(self->src->lang->name, "javascript") != 0;
  ExtractRanges gone = {0};
  int rc = 0;
  /* Nothing may run between the moved fields: the holder sets them all
   * at the first one's place. Methods and comments do not run. */
  for (size_t i = 1; i < self->fields.len && rc == 0; i++) {
    TSNode next = ts_node_next_named_sibling(self->fields.items[i - 1].node);
    while (ref_node_is(next, "comment") || (self->class_fields && ref_node_is(next, "method_definition")))
      next = ts_node_next_named_sibling(next);
    if (!ts_node_eq(next, self->fields.items[i].node))
      rc = ref_ops_fail_at(ops, file, ts_node_start_byte(next),
                           self->class_fields ? "%s: another field between the moved fields"
                                              : "%s: a statement between the moved fields' "
                                                "assignments",
                           self->word);
  }
  if (rc < 0) return rc;
  StrBuf make = {0};
  eddi_strbuf_printf(&make, "new %s(", name);
  for (size_t i = 0; !self->class_fields && i < self->fields.len; i++) {
    char *value = ref_ops_text(ops, file, self->fields.items[i].value);
    eddi_strbuf_printf(&make, "%s%s", i ? ", " : "", value);
    eddi_free(value);
  }
  eddi_strbuf_putc(&make, ')');
  StrBuf text = {0};
  if (self->class_fields && self->fields.len) {
    TSNode first = self->fields.items[0].node;
    eddi_strbuf_printf(&text, "%s = %s", self->holder, make.data);
    if (extract__js_end(self, first) > ts_node_end_byte(first)) eddi_strbuf_putc(&text, ';');
    ref_ops_edit(ops, file, self->fields.items[0].start, extract__js_end(self, first), text.data,
                 text.len);
  } else if (self->fields.len) {
    TSNode first = self->fields.items[0].node;
    eddi_strbuf_printf(&text, "this.%s = %s;", self->holder, make.data);
    ref_ops_edit(ops, file, ts_node_start_byte(first), ts_node_end_byte(first), text.data,
                 text.len);
    /* The first declaration declares the holder; the others go. */
    TSNode decl = {0};
    for (size_t i = 0; i < self->fields.len; i++) {
      TSNode d = self->fields.items[i].decl;
      if (!ts_node_is_null(d) && (ts_node_is_null(decl) || ts_node_start_byte(d) < ts_node_start_byte(decl)))
        decl = d;
    }
    for (size_t i = 0; i < self->fields.len; i++) {
      TSNode d = self->fields.items[i].decl;
      if (ts_node_is_null(d) || ts_node_eq(d, decl)) continue;
      array_push(&gone, ts_node_start_byte(d)), array_push(&gone, extract__js_end(self, d));
    }
    if (!ts_node_is_null(decl)) {
      StrBuf line = {0};
      eddi_strbuf_printf(&line, "%s%s%s", self->holder, typescript ? ": " : "",
                         typescript ? name : "");
      if (extract__js_end(self, decl) > ts_node_end_byte(decl)) eddi_strbuf_putc(&line, ';');
      ref_ops_edit(ops, file, ts_node_start_byte(decl), extract__js_end(self, decl), line.data,
                   line.len);
      eddi_strbuf_free(&line);
    }
  } else {
    /* Methods only: the holder is the class's first field. */
    TSNode body = ref_class_body(ops, file, self->klass.index);
    TSNode member = ts_node_named_child(body, 0);
    uint32_t start = ref_class_js_leading(ops, file, member);
    bool moves = false;
    for (size_t i = 0; i < self->methods.len; i++)
      moves |= ts_node_eq(self->methods.items[i].node, member);
    StrBuf margin = {0};
    eddi_strbuf_append(&margin, self->src->text + ref_ops_line_start(self->src, start),
                       ref_ops_indent(self->src, start));
    eddi_strbuf_printf(&text, "%s%s = %s;\n%s", margin.data ? margin.data : unit, self->holder,
                       make.data, moves && !self->delegate ? "" : "\n");
    ref_ops_edit(ops, file, ref_ops_line_start(self->src, start),
                 ref_ops_line_start(self->src, start), text.data, text.len);
    eddi_strbuf_free(&margin);
  }
  for (size_t i = 1; i < self->fields.len; i++)
    array_push(&gone, self->fields.items[i].start),
        array_push(&gone, extract__js_end(self, self->fields.items[i].node));
  for (size_t i = 0; i < self->methods.len && rc == 0; i++) {
    const ExtractMember *m = &self->methods.items[i];
    if (!self->delegate) {
      array_push(&gone, ref_class_removal_start(ops, file, m->node, m->start));
      array_push(&gone, ts_node_end_byte(m->node));
      continue;
    }
    StrBuf arguments = {0};
    eddi_strbuf_puts(&arguments, "");
    rc = ref_class_js_forward(ops, file, ts_node_child_by_field_name(m->node, "parameters", 10),
                              self->word, &arguments);
    if (rc == 0)
      ref_class_js_delegate(ops, file, m->node, self->holder, extract__str(self, m->name),
                            arguments.data);
    eddi_strbuf_free(&arguments);
  }
  if (rc == 0) extract__js_remove(self, &gone);
  array_free(&gone);
  eddi_strbuf_free(&make);
  eddi_strbuf_free(&text);
  return rc;
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
  const EddiLang *lang = rc == 0 ? ops->index->sources.items[self.klass.file].lang : NULL;
  self.python = lang && !strcmp(lang->name, "python");
  if (rc == 0) rc = ref_ops_supports(ops, self.klass.file, word);
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
  for (size_t i = 0; rc == 0 && self.python && no_holder[i]; i++) {
    uint32_t id = ref_names_find(&ops->index->names, no_holder[i], strlen(no_holder[i]));
    uint32_t own = id == REF_NONE ? REF_NONE : ref_file_bound(self.file, klass->own_scope, id);
    if (own != REF_NONE)
      rc = ref_ops_fail_at(ops, self.klass.file, self.file->syms.items[own].start,
                           "%s cannot yet give %s a holder: it defines %s", word, args->spec,
                           no_holder[i]);
  }
  uint32_t holder = REF_NONE;
  if (rc == 0) {
    self.holder = extract__holder_name(name, self.python);
    holder = ref_names_intern(&ops->index->names, self.holder, strlen(self.holder));
    RefTarget has =
        ref_program_class_member(&ops->program, self.klass.file, self.klass.index, holder);
    if (has.kind == REF_TARGET_UNSURE)
      rc = ref_ops_fail_at(ops, self.klass.file, klass->start,
                           "%s: a base of %s that eddi cannot read may have %s", word, args->spec,
                           self.holder);
    else if (has.kind != REF_TARGET_NONE)
      rc = ref_ops_fail_at(ops, self.klass.file, klass->start, "%s: %s already has %s", word,
                           args->spec, self.holder);
  }
  /* A generic class's members may name its type parameters, which the
   * new class would not have. */
  if (rc == 0 && !self.python &&
      !ts_node_is_null(ts_node_child_by_field_name(
          ref_class_node(ops, self.klass.file, self.klass.index), "type_parameters", 15)))
    rc = ref_ops_fail_at(ops, self.klass.file, klass->start,
                         "%s cannot yet extract from a generic class: its members may name its "
                         "type parameters",
                         word);
  if (rc == 0 && !self.python) {
    uint32_t init_name = ref_names_intern(&ops->index->names, "constructor", strlen("constructor"));
    uint32_t init = ref_file_bound(self.file, klass->own_scope, init_name);
    if (init != REF_NONE)
      self.init = ref_class_definition(ops, (RefTarget){REF_TARGET_SYM, self.klass.file, init});
  } else if (rc == 0) {
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
    rc = self.python ? extract__check_method(&self, &self.methods.items[i])
                     : extract__js_check_method(&self, &self.methods.items[i]);
  if (rc == 0) rc = extract__check_subclasses(&self, holder);
  if (rc == 0) rc = extract__check_hierarchy(&self);
  if (rc == 0) rc = extract__rewrite_uses(&self);
  StrBuf text = {0};
  if (rc == 0 && self.python) {
    rc = extract__holder_edits(&self, name);
    if (rc == 0) {
      extract__method_edits(&self);
      extract__new_class(&self, name, &text);
      TSNode name_node;
      TSNode def = ref_ops_definition(ops, self.klass, &name_node);
      uint32_t at = ref_ops_line_start(self.src, ts_node_start_byte(def));
      ref_ops_edit(ops, self.klass.file, at, at, text.data, text.len);
    }
  } else if (rc == 0) {
    /* The new class's members are indented as the class's. */
    TSNode first = ts_node_named_child(ref_class_body(ops, self.klass.file, self.klass.index), 0);
    StrBuf unit = {0};
    eddi_strbuf_append(&unit, self.src->text + ref_ops_line_start(self.src, ts_node_start_byte(first)),
                       ref_ops_indent(self.src, ts_node_start_byte(first)));
    if (!unit.len) eddi_strbuf_puts(&unit, lang->indent ? lang->indent : "  ");
    rc = extract__js_edits(&self, name, unit.data);
    if (rc == 0) {
      extract__js_new_class(&self, name, unit.data, &text);
      uint32_t at = ref_ops_line_start(
          self.src, ref_class_js_leading(ops, self.klass.file, extract__js_statement(&self)));
      ref_ops_edit(ops, self.klass.file, at, at, text.data, text.len);
    }
    eddi_strbuf_free(&unit);
  }
  eddi_strbuf_free(&text);
  if (rc == 0) {
    StrBuf list = {0};
    for (size_t i = 1; i < words.len; i++)
      eddi_strbuf_printf(&list, "%s%s", i > 1 ? ", " : "", words.items[i]);
    eddi_strbuf_printf(&ops->facts, "%s %s from %s: %s\n%s holds it in %s.%s",
                       delegate ? "Split" : "Extracted", name, args->spec, list.data, args->spec,
                       self.python ? "self" : "this", self.holder);
    if (delegate && self.methods.len) eddi_strbuf_puts(&ops->facts, ", its methods delegate");
    eddi_strbuf_printf(&ops->facts, "\n%zu %s updated", self.updated,
                       self.updated == 1 ? "use" : "uses");
    for (int kind = 0; kind < 2; kind++)
      for (size_t i = 0; i < (kind ? self.methods.len : self.fields.len); i++) {
        const ExtractMember *m = kind ? &self.methods.items[i] : &self.fields.items[i];
        if (m->hidden)
          eddi_strbuf_printf(&ops->facts, "\n%s.%s is public (it was %s)", name,
                             extract__str(&self, m->name), m->hidden);
      }
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
