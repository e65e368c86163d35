/* class_ops.c - Refactor Move_Method <A.m> <B.m> and Extract_Interface
 * <Class> <Interface>, for Python (TypeScript's interface is
 * class_interface.c's), and what the class operations share.
 *
 * Moving a method puts it in class B under its new name, reached from A
 * through the attribute of A that holds a B: every call the workspace
 * resolves on an instance, a.m(...), becomes a.holder.n(...), and A's m
 * goes. A's m stays, delegating (return self.holder.n(...)), when the
 * command says Delegate or when something may still call it by its name:
 * a caller eddi cannot resolve, a use through the class or super(), a
 * string naming it, a class of its hierarchy defining m too, a base
 * outside the workspace, a lookup by a computed name. It is refused when
 * A has no attribute known to hold a B, when the method uses its self
 * (the A it is called on is not there in B), when B or a base of it
 * already has the new name, or when a name the body uses would mean
 * something else in B's module.
 *
 * Extracting an interface writes a typing.Protocol with the signatures of
 * the class's public methods before the class (and the import of
 * Protocol): the class conforms to it structurally, so no caller changes.
 * Refused when the interface's name is taken or Protocol means something
 * else in the module. */
#include "refactor/class_ops.h"

#include <ctype.h>

#include "refactor/family.h"

/* The function_definition of a method target, refusing decorators. */
static int class__method(RefOps *ops, RefTarget target, const char *spec, TSNode *function) {
  TSNode name;
  TSNode def = ref_ops_definition(ops, target, &name);
  if (ref_node_is(def, "decorated_definition"))
    return ref_ops_fail_at(ops, target.file, ts_node_start_byte(def),
                           "Move_Method cannot yet move a decorated method");
  if (!ref_node_is(def, "function_definition") ||
      ref_target_class(&ops->program, target) == REF_NONE)
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a method", spec);
  *function = def;
  return 0;
}

/* The attribute of class (file, klass) that holds an instance of the
 * class (bfile, bklass), or REF_NONE. */
static uint32_t class__holder(RefOps *ops, uint32_t file, uint32_t klass, uint32_t bfile,
                              uint32_t bklass) {
  const RefFile *f = ops->program.files.items[file];
  const RefSym *k = &f->syms.items[klass];
  for (uint32_t s = 0; s < f->syms.len; s++) {
    const RefSym *sym = &f->syms.items[s];
    bool member = (sym->kind == REF_SYM_VARIABLE && sym->scope == k->own_scope) ||
                  (sym->kind == REF_SYM_MEMBER && sym->klass == klass);
    if (!member) continue;
    RefValue value = ref_program_value(&ops->program, (RefTarget){REF_TARGET_SYM, file, s});
    if (value.kind == REF_VALUE_INSTANCE && value.file == bfile && value.index == bklass)
      return s;
  }
  return REF_NONE;
}

/* "Class.name" split at its last dot; the class is found as a target. */
static int class__split(RefOps *ops, const char *spec, RefTarget *klass, char **member) {
  const char *dot = strrchr(spec, '.');
  if (!dot || dot == spec || !dot[1])
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not Class.method", spec);
  char *head = eddi_strndup(spec, (size_t)(dot - spec));
  int rc = ref_ops_find(ops, head, klass);
  if (rc == 0 && ops->program.files.items[klass->file]->syms.items[klass->index].kind !=
                     REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", head);
  eddi_free(head);
  if (rc == 0) *member = eddi_strdup(dot + 1);
  return rc;
}

/* ---------------------------------------------------------------- shared by the class ops */

TSNode ref_class_node(RefOps *ops, uint32_t file, uint32_t klass) {
  TSNode name;
  TSNode def = ref_ops_definition(ops, (RefTarget){REF_TARGET_SYM, file, klass}, &name);
  if (ref_node_is(def, "decorated_definition"))
    def = ts_node_child_by_field_name(def, "definition", 10);
  return def;
}

TSNode ref_class_body(RefOps *ops, uint32_t file, uint32_t klass) {
  return ts_node_child_by_field_name(ref_class_node(ops, file, klass), "body", 4);
}

static bool class__descends(RefOps *ops, uint32_t file, uint32_t klass, uint32_t afile,
                            uint32_t aklass, unsigned depth) {
  if (file == afile && klass == aklass) return true;
  if (depth > REF_CLASS_DEPTH_MAX) return false;
  RefIds bases = {0};
  ref_program_bases(&ops->program, file, klass, &bases);
  bool found = false;
  for (size_t i = 0; i + 1 < bases.len && !found; i += 2)
    found = class__descends(ops, bases.items[i], bases.items[i + 1], afile, aklass, depth + 1);
  array_free(&bases);
  return found;
}

bool ref_class_descends(RefOps *ops, uint32_t file, uint32_t klass, uint32_t afile,
                        uint32_t aklass) {
  return class__descends(ops, file, klass, afile, aklass, 0);
}

/* The class an expression of file names: the value of its last name. */
static RefTarget class__class_of(RefOps *ops, uint32_t file, TSNode node) {
  const RefFile *f = ops->program.files.items[file];
  RefTarget found = {REF_TARGET_UNSURE, 0, 0};
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  for (uint32_t i = 0; i < f->occs.len; i++) {
    const RefOcc *occ = &f->occs.items[i];
    if (!ref_in(occ->start, start, end) || occ->end != end) continue;
    RefTarget t = ref_program_canonical(&ops->program, ref_program_target(&ops->program, file, i));
    if (t.kind == REF_TARGET_SYM &&
        ops->program.files.items[t.file]->syms.items[t.index].kind == REF_SYM_CLASS)
      return t;
    found = t.kind == REF_TARGET_NONE ? t : (RefTarget){REF_TARGET_UNSURE, 0, 0};
  }
  return found;
}

void ref_class_bases(RefOps *ops, uint32_t file, TSNode klass, RefClassBases *out) {
  TSNode list = ts_node_child_by_field_name(klass, "superclasses", 12);
  uint32_t n = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list);
  for (uint32_t i = 0; i < n; i++) {
    TSNode base = ts_node_named_child(list, i);
    if (ref_node_is(base, "keyword_argument") || ref_node_is(base, "comment") ||
        ref_node_is(base, "list_splat") || ref_node_is(base, "dictionary_splat"))
      continue;
    RefClassBase b = {base, class__class_of(ops, file, base)};
    array_push(out, b);
  }
}

uint32_t ref_class_foreign_base(RefOps *ops, RefTarget klass) {
  RefClassBases bases = {0};
  ref_class_bases(ops, klass.file, ref_class_node(ops, klass.file, klass.index), &bases);
  uint32_t at = REF_NONE;
  for (size_t i = 0; i < bases.len && at == REF_NONE; i++) {
    if (bases.items[i].klass.kind == REF_TARGET_SYM) continue;
    char *text = ref_ops_text(ops, klass.file, bases.items[i].node);
    if (strcmp(text, "object") != 0) at = ts_node_start_byte(bases.items[i].node);
    eddi_free(text);
  }
  array_free(&bases);
  return at;
}

typedef struct {
  RefOps *ops;
  RefTarget klass;
  bool ancestors;
} ClassKin;

/* Whether class (file, klass) descends from the class asked about, or
 * (with ancestors) is one of its ancestors. */
static bool class__kin(void *context, uint32_t file, uint32_t klass) {
  const ClassKin *kin = context;
  return ref_class_descends(kin->ops, file, klass, kin->klass.file, kin->klass.index) ||
         (kin->ancestors &&
          ref_class_descends(kin->ops, kin->klass.file, kin->klass.index, file, klass));
}

bool ref_class_computed_lookup(RefOps *ops, RefTarget klass, bool ancestors, uint32_t *file,
                               uint32_t *offset) {
  ClassKin kin = {ops, klass, ancestors};
  return ref_family_computed_lookup(&ops->program, class__kin, &kin, file, offset);
}

int ref_class_find(RefOps *ops, const char *spec, RefTarget *out) {
  int rc = ref_ops_find(ops, spec, out);
  if (rc == 0 && ops->program.files.items[out->file]->syms.items[out->index].kind != REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", spec);
  return rc;
}

/* A docstring and comments before the imports stay first. */
uint32_t ref_class_import_at(RefOps *ops, uint32_t file, bool *blank) {
  TSNode root = ref_ops_root(ops, file);
  const RefSource *src = &ops->index->sources.items[file];
  uint32_t at = 0, n = ts_node_named_child_count(root);
  *blank = true;
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_named_child(root, i);
    bool doc = i == 0 && ref_node_is(child, "expression_statement") &&
               ref_node_is(ts_node_named_child(child, 0), "string");
    bool import = ref_node_is(child, "import_statement") ||
                  ref_node_is(child, "import_from_statement") ||
                  ref_node_is(child, "future_import_statement");
    if (!doc && !import && !ref_node_is(child, "comment")) break;
    if (doc || import) at = ref_ops_next_line(src, ts_node_end_byte(child) - 1);
    if (import) *blank = false;
  }
  return at;
}

void ref_class_module_name(RefOps *ops, uint32_t file, StrBuf *out) {
  uint32_t module = ref_program_file_module(&ops->program, file);
  const char *path = ref_names_str(&ops->index->names, ops->program.modules.items[module].path);
  for (const char *p = path; *p; p++) eddi_strbuf_putc(out, *p == '/' ? '.' : *p);
}

void ref_words_split(const char *text, RefWords *out) {
  for (const char *p = text; *p;) {
    while (*p == ',' || *p == ' ') p++;
    const char *end = p;
    while (*end && *end != ',' && *end != ' ') end++;
    if (end > p) array_push(out, eddi_strndup(p, (size_t)(end - p)));
    p = end;
  }
}

void ref_words_free(RefWords *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i]);
  array_free(self);
}

bool ref_class_type_test(RefOps *ops, uint32_t file, uint32_t start, uint32_t end) {
  TSNode node = ref_ops_node(ops, file, start, end);
  for (TSNode up = ts_node_parent(node); !ts_node_is_null(up); up = ts_node_parent(up)) {
    const char *type = ts_node_type(up);
    if (!strcmp(type, "except_clause") || !strcmp(type, "except_group_clause") ||
        !strcmp(type, "comparison_operator"))
      return true;
    if (!strcmp(type, "call")) {
      char *callee = ref_ops_text(ops, file, ts_node_child_by_field_name(up, "function", 8));
      bool test = !strcmp(callee, "isinstance") || !strcmp(callee, "issubclass");
      eddi_free(callee);
      return test;
    }
    if (strcmp(type, "argument_list") && strcmp(type, "tuple") && strcmp(type, "attribute") &&
        strcmp(type, "parenthesized_expression") && strcmp(type, "as_pattern"))
      return false;
  }
  return false;
}

/* ---------------------------------------------------------------- Move_Method */

void ref_class_forward(RefOps *ops, uint32_t file, TSNode params, StrBuf *out) {
  uint32_t n = ts_node_named_child_count(params);
  bool keyword_only = false;
  size_t written = 0;
  for (uint32_t i = 1; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *type = ts_node_type(p);
    if (!strcmp(type, "keyword_separator")) {
      keyword_only = true;
      continue;
    }
    if (!strcmp(type, "positional_separator") || !strcmp(type, "comment")) continue;
    TSNode id = p;
    const char *prefix = "";
    if (!strcmp(type, "default_parameter") || !strcmp(type, "typed_default_parameter"))
      id = ts_node_child_by_field_name(p, "name", 4);
    else if (!strcmp(type, "typed_parameter")) id = ts_node_named_child(p, 0);
    if (ref_node_is(id, "list_splat_pattern")) prefix = "*", id = ts_node_named_child(id, 0), keyword_only = true;
    else if (ref_node_is(id, "dictionary_splat_pattern")) prefix = "**", id = ts_node_named_child(id, 0);
    char *name = ref_ops_text(ops, file, id);
    if (keyword_only && !*prefix)
      eddi_strbuf_printf(out, "%s%s=%s", written++ ? ", " : "", name, name);
    else eddi_strbuf_printf(out, "%s%s%s", written++ ? ", " : "", prefix, name);
    eddi_free(name);
  }
}

/* The calls of A.m that Move_Method rewrites, and why A.m must stay (as a
 * delegate) if it must. */
typedef struct {
  RefOps *ops;
  RefTarget method;
  uint32_t holder;    /* the attribute of A holding a B (a symbol of A's file) */
  TSNode function;    /* A.m's definition */
  StrBuf keep;        /* why A.m stays, or empty */
  bool overridden;    /* another m in the hierarchy: no call can be told to reach A.m */
  Array(uint32_t) at; /* (file, occ) pairs of the calls to rewrite */
} MoveCallers;

static void move__keep(MoveCallers *self, uint32_t file, uint32_t offset, const char *why) {
  if (self->keep.len) return;
  eddi_strbuf_puts(&self->keep, why);
  if (offset != REF_NONE) {
    eddi_strbuf_puts(&self->keep, " at ");
    ref_target_place(self->ops->index, file, offset, &self->keep);
  }
}

/* Whether an instance of class (file, klass) reaches A's holder and A.m
 * under their names, so that obj.holder.n is what obj.m did. */
static bool move__reaches(MoveCallers *self, uint32_t file, uint32_t klass) {
  RefProgram *program = &self->ops->program;
  const RefFile *home = program->files.items[self->method.file];
  RefTarget holder = {REF_TARGET_SYM, self->method.file, self->holder};
  RefTarget m = ref_program_class_member(program, file, klass,
                                         home->syms.items[self->method.index].name);
  RefTarget h = ref_program_class_member(program, file, klass, home->syms.items[self->holder].name);
  return ref_target_equal(ref_program_canonical(program, m), self->method) &&
         ref_target_equal(ref_program_canonical(program, h), holder);
}

/* What may reach A.m by its name without the workspace resolving it. */
static void move__hierarchy(MoveCallers *self, RefTarget klass) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  uint32_t name = program->files.items[self->method.file]->syms.items[self->method.index].name;
  for (uint32_t f = 0; f < program->files.len && !self->overridden; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t s = 0; s < file->syms.len && !self->overridden; s++) {
      if (file->syms.items[s].kind != REF_SYM_CLASS) continue;
      bool related = ref_class_descends(ops, f, s, klass.file, klass.index) ||
                     ref_class_descends(ops, klass.file, klass.index, f, s);
      if (!related) continue;
      uint32_t foreign = ref_class_foreign_base(ops, (RefTarget){REF_TARGET_SYM, f, s});
      if (foreign != REF_NONE) move__keep(self, f, foreign, "a base outside the workspace");
      RefTarget own = ref_program_canonical(program, ref_program_class_member(program, f, s, name));
      if (own.kind == REF_TARGET_SYM && !ref_target_equal(own, self->method)) {
        self->overridden = true;
        move__keep(self, own.file, program->files.items[own.file]->syms.items[own.index].start,
                   "its hierarchy defines it too");
      }
    }
  }
  uint32_t file, offset;
  if (ref_class_computed_lookup(ops, klass, true, &file, &offset))
    move__keep(self, file, offset, "a lookup by a computed name");
}

/* Every use of A.m: a resolved call on an instance is rewritten; any
 * other use keeps A.m. */
static void move__callers(MoveCallers *self, RefTarget klass) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  uint32_t name = program->files.items[self->method.file]->syms.items[self->method.index].name;
  move__hierarchy(self, klass);
  if (self->overridden) return;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t i = 0; i < file->occs.len; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->name != name || (occ->flags & REF_OCC_DEF)) continue;
      if (occ->kind == REF_OCC_STRING) {
        move__keep(self, f, occ->start, "a string names it");
        continue;
      }
      RefTarget t = ref_program_canonical(program, ref_program_target(program, f, i));
      if (t.kind == REF_TARGET_UNSURE) {
        move__keep(self, f, occ->start, "a caller eddi cannot resolve");
        continue;
      }
      if (!ref_target_equal(t, self->method)) continue;
      bool inside = f == self->method.file && ref_in(occ->start, ts_node_start_byte(self->function),
                                                     ts_node_end_byte(self->function));
      RefValue receiver = occ->kind == REF_OCC_MEMBER && occ->expr != REF_NONE
                              ? ref_program_expr_value(program, f, occ->expr)
                              : (RefValue){0};
      if (!inside && receiver.kind == REF_VALUE_INSTANCE &&
          move__reaches(self, receiver.file, receiver.index)) {
        array_push(&self->at, f);
        array_push(&self->at, i);
      } else {
        move__keep(self, f, occ->start,
                   inside ? "the method uses itself" : "a use not on an instance of the class");
      }
    }
  }
}

/* An attribute that __init__ sets is not there before it is set: a call of
 * A.m in __init__ above that place would reach it too early, through the
 * rewritten call or the delegate alike. One set elsewhere may be missing
 * whenever m is called. */
static int move__holder_ready(RefOps *ops, RefTarget klass, uint32_t holder, uint32_t m_name) {
  const RefFile *file = ops->program.files.items[klass.file];
  const RefSym *h = &file->syms.items[holder];
  if (h->kind != REF_SYM_MEMBER) return 0; /* a class attribute: there from the start */
  const char *hname = ref_names_str(&ops->index->names, h->name);
  uint32_t init_name = ref_names_intern(&ops->index->names, "__init__", strlen("__init__"));
  RefTarget init = ref_program_class_member(&ops->program, klass.file, klass.index, init_name);
  TSNode name;
  TSNode def = init.kind == REF_TARGET_SYM && init.file == klass.file
                   ? ref_ops_definition(ops, init, &name)
                   : (TSNode){0};
  if (ts_node_is_null(def) || !ref_in(h->start, ts_node_start_byte(def), ts_node_end_byte(def))) {
    int rc = ref_ops_fail_at(ops, klass.file, h->start,
                             "Move_Method needs self.%s set in __init__, or set in the class body",
                             hname);
    eddi_error_hint(ops->err, "Set self.%s first thing in __init__", hname);
    return rc;
  }
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (occ->name == m_name && !(occ->flags & REF_OCC_DEF) &&
        ref_in(occ->start, ts_node_start_byte(def), h->start)) {
      int rc = ref_ops_fail_at(ops, klass.file, occ->start,
                               "Move_Method: %s is used in __init__ before self.%s is set",
                               ref_names_str(&ops->index->names, m_name), hname);
      eddi_error_hint(ops->err, "Set self.%s before that line", hname);
      return rc;
    }
  }
  return 0;
}

/* A's m goes; a class left with no statement gets pass. */
static void move__remove(RefOps *ops, RefTarget klass, TSNode function) {
  TSNode body = ref_class_body(ops, klass.file, klass.index);
  uint32_t statements = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
    statements += !ref_node_is(ts_node_named_child(body, i), "comment");
  if (statements > 1)
    ref_ops_remove_lines(ops, klass.file, ts_node_start_byte(function), ts_node_end_byte(function));
  else
    ref_ops_edit(ops, klass.file, ts_node_start_byte(function), ts_node_end_byte(function), "pass",
                 4);
}

int ref_move_method_plan(RefOps *ops, const RefOpArgs *args) {
  RefTarget method, from_class, to_class;
  char *to_name = NULL;
  int rc = ref_ops_find(ops, args->spec, &method);
  TSNode function = {0};
  if (rc == 0) rc = ref_ops_python(ops, method.file, "Move_Method");
  if (rc == 0) rc = class__method(ops, method, args->spec, &function);
  if (rc == 0) rc = class__split(ops, args->other, &to_class, &to_name);
  if (rc == 0) rc = ref_ops_python(ops, to_class.file, "Move_Method");
  if (rc == 0) rc = ref_ops_valid_name(ops, ops->index->sources.items[to_class.file].lang, to_name);
  if (rc < 0) {
    eddi_free(to_name);
    return rc;
  }
  const RefFile *file = ops->program.files.items[method.file];
  const RefSource *src = &ops->index->sources.items[method.file];
  const RefSym *sym = &file->syms.items[method.index];
  from_class = (RefTarget){REF_TARGET_SYM, method.file, ref_target_class(&ops->program, method)};
  uint32_t to_id = ref_names_intern(&ops->index->names, to_name, strlen(to_name));
  RefTarget clash = ref_program_class_member(&ops->program, to_class.file, to_class.index, to_id);
  const char *bname = ref_names_str(&ops->index->names,
                                    ops->program.files.items[to_class.file]
                                        ->syms.items[to_class.index].name);
  if (clash.kind != REF_TARGET_NONE)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "Move_Method: %s already has %s", bname, to_name);
  uint32_t holder = REF_NONE;
  if (rc == 0) {
    holder = class__holder(ops, from_class.file, from_class.index, to_class.file, to_class.index);
    if (holder == REF_NONE)
      rc = ref_ops_fail_at(ops, method.file, sym->start,
                           "Move_Method needs an attribute of the method's class holding a %s",
                           bname);
  }
  if (rc == 0) rc = move__holder_ready(ops, from_class, holder, sym->name);
  TSNode params = ts_node_child_by_field_name(function, "parameters", 10);
  TSNode body = ts_node_child_by_field_name(function, "body", 4);
  TSNode self_param = ts_node_named_child(params, 0);
  if (rc == 0 && !ref_node_is(self_param, "identifier"))
    rc = ref_ops_fail_at(ops, method.file, sym->start, "Move_Method needs a method taking self");
  /* The body: no self, and its names mean the same in B's module. */
  for (uint32_t i = 0; i < file->occs.len && rc == 0; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (!ref_in(occ->start, ts_node_start_byte(body), ts_node_end_byte(body)) ||
        occ->kind != REF_OCC_NAME)
      continue;
    RefTarget t = ref_program_target(&ops->program, method.file, i);
    const char *name = ref_names_str(&ops->index->names, occ->name);
    if (t.kind == REF_TARGET_SYM && t.file == method.file &&
        file->syms.items[t.index].scope == sym->own_scope &&
        file->syms.items[t.index].start == ts_node_start_byte(self_param)) {
      rc = ref_ops_fail_at(ops, method.file, occ->start,
                           "Move_Method cannot move a method that uses its self (%s)", name);
      break;
    }
    bool local = t.kind == REF_TARGET_SYM && t.file == method.file &&
                 file->syms.items[t.index].scope != 0 &&
                 file->syms.items[t.index].scope != REF_NONE &&
                 ref_in(file->syms.items[t.index].start, ts_node_start_byte(function),
                        ts_node_end_byte(function));
    if (local || t.kind == REF_TARGET_UNSURE) continue;
    const RefFile *dest = ops->program.files.items[to_class.file];
    uint32_t there = ref_file_lookup(dest, 0, occ->name);
    bool same = there == REF_NONE
                    ? t.kind == REF_TARGET_NONE
                    : ref_target_equal(ref_program_canonical(&ops->program, t),
                                       ref_program_canonical(&ops->program,
                                                             (RefTarget){REF_TARGET_SYM,
                                                                         to_class.file, there}));
    if (!same)
      rc = ref_ops_fail_at(ops, method.file, occ->start,
                           "Move_Method: %s would mean something else in %s", name,
                           ops->index->sources.items[to_class.file].path);
  }
  if (rc == 0) {
    /* The method in B, renamed. */
    const RefSource *dsrc = &ops->index->sources.items[to_class.file];
    TSNode bbody = ref_class_body(ops, to_class.file, to_class.index);
    uint32_t def_line = ref_ops_line_start(src, ts_node_start_byte(function));
    uint32_t indent = ts_node_start_byte(function) - def_line;
    TSNode bfirst = ts_node_named_child(bbody, 0);
    uint32_t bindent = ref_ops_indent(dsrc, ts_node_start_byte(bfirst));
    StrBuf text = {0}, margin = {0};
    eddi_strbuf_append(&margin, dsrc->text + ref_ops_line_start(dsrc, ts_node_start_byte(bfirst)),
                       bindent);
    TSNode name = ts_node_child_by_field_name(function, "name", 4);
    StrBuf method_text = {0};
    eddi_strbuf_append(&method_text, src->text + def_line, ts_node_start_byte(name) - def_line);
    eddi_strbuf_puts(&method_text, to_name);
    eddi_strbuf_append(&method_text, src->text + ts_node_end_byte(name),
                       ts_node_end_byte(function) - ts_node_end_byte(name));
    eddi_strbuf_putc(&text, '\n');
    ref_ops_reindent(&text, method_text.data, method_text.len, indent, margin.data ? margin.data : "",
                     margin.len);
    eddi_strbuf_putc(&text, '\n');
    bool only_pass = ts_node_named_child_count(bbody) == 1 && ref_node_is(bfirst, "pass_statement");
    if (only_pass) {
      uint32_t start = ref_ops_line_start(dsrc, ts_node_start_byte(bfirst));
      /* In place of the pass: no blank line after the class's header. */
      ref_ops_edit(ops, to_class.file, start, ref_ops_next_line(dsrc, ts_node_end_byte(bfirst) - 1),
                   text.data + 1, text.len - 1);
    } else {
      uint32_t at = ref_ops_next_line(dsrc, ts_node_end_byte(bbody) - 1);
      ref_ops_edit(ops, to_class.file, at, at, text.data, text.len);
    }
    /* The callers go through the holder; A's method goes, or delegates. */
    const char *holder_name = ref_names_str(&ops->index->names, file->syms.items[holder].name);
    MoveCallers callers = {.ops = ops, .method = method, .holder = holder, .function = function};
    if (args->delegate) eddi_strbuf_puts(&callers.keep, "asked");
    move__callers(&callers, from_class);
    StrBuf through = {0};
    eddi_strbuf_printf(&through, "%s.%s", holder_name, to_name);
    for (size_t i = 0; i < callers.at.len; i += 2) {
      const RefOcc *occ =
          &ops->program.files.items[callers.at.items[i]]->occs.items[callers.at.items[i + 1]];
      ref_ops_edit(ops, callers.at.items[i], occ->start, occ->end, through.data, through.len);
    }
    size_t updated = callers.at.len / 2;
    eddi_strbuf_printf(&ops->facts, "Moved %s to %s.%s\n%zu call%s updated", args->spec, bname,
                       to_name, updated, updated == 1 ? "" : "s");
    char *self_text = ref_ops_text(ops, method.file, self_param);
    if (callers.keep.len) {
      StrBuf delegate = {0};
      eddi_strbuf_printf(&delegate, "return %s.%s.%s(", self_text, holder_name, to_name);
      ref_class_forward(ops, method.file, params, &delegate);
      eddi_strbuf_putc(&delegate, ')');
      TSNode first = ts_node_named_child(body, 0);
      ref_ops_edit(ops, method.file, ts_node_start_byte(first), ts_node_end_byte(body),
                   delegate.data, delegate.len);
      eddi_strbuf_printf(&ops->facts, "\n%s delegates through %s.%s (%s)", args->spec, self_text,
                         holder_name, callers.keep.data);
      eddi_strbuf_free(&delegate);
    } else {
      move__remove(ops, from_class, function);
      eddi_strbuf_printf(&ops->facts, "\n%s removed", args->spec);
    }
    ops->count = updated;
    eddi_free(self_text);
    eddi_strbuf_free(&through), eddi_strbuf_free(&callers.keep);
    array_free(&callers.at);
    eddi_strbuf_free(&text), eddi_strbuf_free(&margin);
    eddi_strbuf_free(&method_text);
  }
  eddi_free(to_name);
  return rc;
}

/* ---------------------------------------------------------------- Extract_Interface */

int ref_extract_interface_plan(RefOps *ops, const RefOpArgs *args) {
  RefTarget klass;
  int rc = ref_ops_find(ops, args->spec, &klass);
  const EddiLang *lang = rc == 0 ? ops->index->sources.items[klass.file].lang : NULL;
  bool typescript = lang && (!strcmp(lang->name, "typescript") || !strcmp(lang->name, "tsx"));
  if (rc == 0 && typescript &&
      ops->program.files.items[klass.file]->syms.items[klass.index].kind != REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", args->spec);
  if (rc == 0 && typescript) return ref_ts_extract_interface_plan(ops, args, klass);
  /* C and JavaScript are refused with their reasons (ops_lang.c), which
   * also give the languages it works in. */
  if (rc == 0) rc = ref_ops_python(ops, klass.file, "Extract_Interface");
  const RefFile *file = rc == 0 ? ops->program.files.items[klass.file] : NULL;
  if (rc == 0 && file->syms.items[klass.index].kind != REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", args->spec);
  if (rc == 0) rc = ref_ops_valid_name(ops, file->lang, args->other);
  if (rc < 0) return rc;
  const RefSource *src = &ops->index->sources.items[klass.file];
  const RefSym *sym = &file->syms.items[klass.index];
  uint32_t iface = ref_names_intern(&ops->index->names, args->other, strlen(args->other));
  if (ref_file_bound(file, 0, iface) != REF_NONE)
    return ref_ops_fail_at(ops, klass.file, file->syms.items[ref_file_bound(file, 0, iface)].start,
                           "Extract_Interface: %s is already defined", args->other);
  if (sym->scope != 0)
    return ref_ops_fail_at(ops, klass.file, sym->start,
                           "Extract_Interface needs a module-level class");
  uint32_t protocol = ref_names_intern(&ops->index->names, "Protocol", strlen("Protocol"));
  uint32_t bound = ref_file_bound(file, 0, protocol);
  bool imported = false;
  if (bound != REF_NONE) {
    const RefSym *p = &file->syms.items[bound];
    TSNode node = ref_ops_node(ops, klass.file, p->start, p->start + 8);
    TSNode from = ref_node_up(node, "import_from_statement");
    char *text = ts_node_is_null(from) ? NULL : ref_ops_text(ops, klass.file, from);
    imported = text && strncmp(text, "from typing import", strlen("from typing import")) == 0;
    eddi_free(text);
    if (!imported)
      return ref_ops_fail_at(ops, klass.file, p->start,
                             "Extract_Interface: Protocol is something else here");
  }
  TSNode name;
  TSNode def = ref_ops_definition(ops, klass, &name);
  TSNode body = ref_class_body(ops, klass.file, klass.index);
  const char *unit = src->lang->indent ? src->lang->indent : "    ";
  StrBuf text = {0};
  eddi_strbuf_printf(&text, "class %s(Protocol):\n", args->other);
  size_t methods = 0;
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; i++) {
    TSNode member = ts_node_named_child(body, i);
    TSNode fn = ref_node_is(member, "decorated_definition")
                    ? ts_node_child_by_field_name(member, "definition", 10)
                    : member;
    if (!ref_node_is(fn, "function_definition")) continue;
    char *mname = ref_ops_text(ops, klass.file, ts_node_child_by_field_name(fn, "name", 4));
    size_t len = strlen(mname);
    bool dunder = len > 4 && !strncmp(mname, "__", 2) && !strcmp(mname + len - 2, "__");
    bool public = mname[0] != '_' || (dunder && strcmp(mname, "__init__") != 0);
    eddi_free(mname);
    if (!public) continue;
    TSNode fbody = ts_node_child_by_field_name(fn, "body", 4);
    /* The header: decorators and "def name(params) -> type:". */
    uint32_t start = ts_node_start_byte(member), end = ts_node_start_byte(fbody);
    while (end > start && src->text[end - 1] != ':') end--;
    /* A private name (__x) in a default or an annotation: Python mangles
     * it with the class's name, so in the protocol it would be another. */
    for (uint32_t k = start; k + 2 < end; k++) {
      const char *t = src->text + k;
      bool starts = t[0] == '_' && t[1] == '_' && (isalpha((unsigned char)t[2]) || t[2] == '_') &&
                    (k == start || !(isalnum((unsigned char)t[-1]) || t[-1] == '_'));
      if (!starts) continue;
      uint32_t e = k;
      while (e < end && (isalnum((unsigned char)src->text[e]) || src->text[e] == '_')) e++;
      if (e - k > 4 && src->text[e - 1] == '_' && src->text[e - 2] == '_') {
        k = e;
        continue;
      }
      eddi_strbuf_free(&text);
      return ref_ops_fail_at(ops, klass.file, k,
                             "Extract_Interface: %.*s is a private name Python mangles with the "
                             "class's name; the protocol would mean another",
                             (int)(e - k), t);
    }
    uint32_t line = ref_ops_line_start(src, start);
    StrBuf header = {0};
    ref_ops_reindent(&header, src->text + line, end - line, start - line, unit, strlen(unit));
    eddi_strbuf_printf(&text, "%s ...\n", header.data);
    eddi_strbuf_free(&header);
    methods++;
  }
  if (!methods) {
    eddi_strbuf_free(&text);
    return ref_ops_fail_at(ops, klass.file, sym->start, "Extract_Interface: %s has no public "
                                                        "method", args->spec);
  }
  for (size_t b = 0; b < (src->lang->blank_lines ? src->lang->blank_lines : 2); b++)
    eddi_strbuf_putc(&text, '\n');
  uint32_t at = ref_ops_line_start(src, ts_node_start_byte(def));
  StrBuf import = {0};
  eddi_strbuf_puts(&import, "");
  uint32_t where = at;
  if (!imported) {
    bool blank;
    where = ref_class_import_at(ops, klass.file, &blank);
    eddi_strbuf_puts(&import, blank || where == at ? "from typing import Protocol\n\n\n"
                                                   : "from typing import Protocol\n");
  }
  if (where == at) {
    /* One insertion: the import, then the interface. */
    eddi_strbuf_append(&import, text.data, text.len);
    ref_ops_edit(ops, klass.file, at, at, import.data, import.len);
  } else {
    ref_ops_edit(ops, klass.file, at, at, text.data, text.len);
    ref_ops_edit(ops, klass.file, where, where, import.data, import.len);
  }
  eddi_strbuf_free(&import);
  eddi_strbuf_printf(&ops->facts, "Extracted interface %s from %s with %zu %s", args->other,
                     args->spec, methods, methods == 1 ? "method" : "methods");
  eddi_strbuf_free(&text);
  EDDI_UNUSED(name);
  return 0;
}
