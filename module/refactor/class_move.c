/* class_move.c - Refactor Move_Method <A.m> <B.n> [Delegate], for Python,
 * JavaScript and TypeScript.
 *
 * Moving a method puts it in class B under its new name, reached from A
 * through the attribute of A that holds a B: every call the workspace
 * resolves on an instance, a.m(...), becomes a.holder.n(...), and A's m
 * goes. A's m stays, delegating (return self.holder.n(...), or
 * this.holder.n(...)), when the command says Delegate or when something
 * may still call it by its name: a caller eddi cannot resolve, a use
 * through the class or super, a string naming it, a class of its
 * hierarchy defining m too, a base outside the workspace, a lookup by a
 * computed name, a caller outside A that cannot reach a private holder.
 * It is refused when A has no attribute known to hold a B, when the
 * method uses its self or this (the A it is called on is not there in B),
 * when B or a base of it already has the new name, or when a name the
 * body uses would mean something else in B's module.
 *
 * In JavaScript and TypeScript the method is a method_definition and the
 * holder is set by the constructor or as a field; what a class member
 * may be beyond a plain method (static, an accessor, #private, computed,
 * decorated, overloaded, override) is refused; a private or protected
 * one is public in B, where A calls it. */
#include "refactor/class_ops.h"

/* What one Move_Method reads before it writes. */
typedef struct {
  RefOps *ops;
  const RefOpArgs *args;
  bool python;
  RefTarget method, from_class, to_class;
  const char *to_name;
  TSNode member;        /* A.m's definition */
  uint32_t moved_start; /* where its text starts: a comment right above it in JavaScript */
  TSNode params, body;
  uint32_t holder;      /* the attribute of A holding a B (a symbol of A's file) */
  bool holder_private;  /* reachable inside A only (private, protected, #name) */
  Array(uint32_t) through; /* [start, end) pairs of self.holder / this.holder in the body */
} Move;

static bool move__is_js(const EddiLang *lang) {
  return lang && (!strcmp(lang->name, "javascript") || !strcmp(lang->name, "typescript") ||
                  !strcmp(lang->name, "tsx"));
}

/* A Python method: a function_definition in a class, not decorated. */
static int move__python_method(Move *self) {
  RefOps *ops = self->ops;
  TSNode name;
  TSNode def = ref_ops_definition(ops, self->method, &name);
  if (ref_node_is(def, "decorated_definition"))
    return ref_ops_fail_at(ops, self->method.file, ts_node_start_byte(def),
                           "Move_Method cannot yet move a decorated method");
  if (!ref_node_is(def, "function_definition"))
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a method", self->args->spec);
  self->member = def;
  self->moved_start = ts_node_start_byte(def);
  return 0;
}

/* A JavaScript or TypeScript method: a plain instance method_definition
 * with a body, its only definition in the class. */
static int move__js_method(Move *self) {
  RefOps *ops = self->ops;
  uint32_t file = self->method.file;
  TSNode def = ref_class_definition(ops, self->method);
  if (ref_node_is(def, "method_signature") || ref_node_is(def, "abstract_method_signature"))
    return ref_ops_fail_at(ops, file, ts_node_start_byte(def),
                           "Move_Method cannot move a method declared by a signature (an "
                           "overload, or abstract)");
  if (!ref_node_is(def, "method_definition"))
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a method", self->args->spec);
  uint32_t at;
  const char *why = ref_class_js_method_why(ops, file, def, &at);
  if (why) return ref_ops_fail_at(ops, file, at, "Move_Method cannot move %s", why);
  self->member = def;
  self->moved_start = ref_class_js_leading(ops, file, def); /* its JSDoc goes with it */
  return 0;
}

/* The attribute of A that holds an instance of B, or REF_NONE. */
static uint32_t move__holder(const Move *self) {
  RefOps *ops = self->ops;
  uint32_t file = self->from_class.file, klass = self->from_class.index;
  const RefFile *f = ops->program.files.items[file];
  const RefSym *k = &f->syms.items[klass];
  for (uint32_t s = 0; s < f->syms.len; s++) {
    const RefSym *sym = &f->syms.items[s];
    bool member = (sym->kind == REF_SYM_VARIABLE && sym->scope == k->own_scope) ||
                  (sym->kind == REF_SYM_MEMBER && sym->klass == klass);
    if (!member) continue;
    RefValue value = ref_program_value(&ops->program, (RefTarget){REF_TARGET_SYM, file, s});
    if (value.kind == REF_VALUE_INSTANCE && value.file == self->to_class.file &&
        value.index == self->to_class.index)
      return s;
  }
  return REF_NONE;
}

/* "Class.name" split at its last dot; the class is found as a target. */
static int move__split(RefOps *ops, const char *spec, RefTarget *klass, char **member) {
  const char *dot = strrchr(spec, '.');
  if (!dot || dot == spec || !dot[1])
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not Class.method", spec);
  char *head = eddi_strndup(spec, (size_t)(dot - spec));
  int rc = ref_class_find(ops, head, klass);
  eddi_free(head);
  if (rc == 0) *member = eddi_strdup(dot + 1);
  return rc;
}

/* ---------------------------------------------------------------- the callers */

/* The calls of A.m that Move_Method rewrites, and why A.m must stay (as a
 * delegate) if it must. */
typedef struct {
  const Move *move;
  StrBuf keep;        /* why A.m stays, or empty */
  bool overridden;    /* another m in the hierarchy: no call can be told to reach A.m */
  Array(uint32_t) at; /* (file, occ) pairs of the calls to rewrite */
} MoveCallers;

static void move__keep(MoveCallers *self, uint32_t file, uint32_t offset, const char *why) {
  if (self->keep.len) return;
  eddi_strbuf_puts(&self->keep, why);
  if (offset != REF_NONE) {
    eddi_strbuf_puts(&self->keep, " at ");
    ref_target_place(self->move->ops->index, file, offset, &self->keep);
  }
}

/* Whether an instance of class (file, klass) reaches A's holder and A.m
 * under their names, so that obj.holder.n is what obj.m did. */
static bool move__reaches(MoveCallers *self, uint32_t file, uint32_t klass) {
  const Move *move = self->move;
  RefProgram *program = &move->ops->program;
  const RefFile *home = program->files.items[move->method.file];
  RefTarget holder = {REF_TARGET_SYM, move->method.file, move->holder};
  RefTarget m = ref_program_class_member(program, file, klass,
                                         home->syms.items[move->method.index].name);
  RefTarget h = ref_program_class_member(program, file, klass, home->syms.items[move->holder].name);
  return ref_target_equal(ref_program_canonical(program, m), move->method) &&
         ref_target_equal(ref_program_canonical(program, h), holder);
}

/* What may reach A.m by its name without the workspace resolving it. */
static void move__hierarchy(MoveCallers *self) {
  const Move *move = self->move;
  RefOps *ops = move->ops;
  RefProgram *program = &ops->program;
  RefTarget klass = move->from_class;
  uint32_t name = program->files.items[move->method.file]->syms.items[move->method.index].name;
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
      if (own.kind == REF_TARGET_SYM && !ref_target_equal(own, move->method)) {
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
static void move__callers(MoveCallers *self) {
  const Move *move = self->move;
  RefOps *ops = move->ops;
  RefProgram *program = &ops->program;
  uint32_t name = program->files.items[move->method.file]->syms.items[move->method.index].name;
  TSNode klass = ref_class_node(ops, move->from_class.file, move->from_class.index);
  move__hierarchy(self);
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
      if (!ref_target_equal(t, move->method)) continue;
      bool in_class = f == move->method.file &&
                      ref_in(occ->start, ts_node_start_byte(klass), ts_node_end_byte(klass));
      bool inside = f == move->method.file && ref_in(occ->start, ts_node_start_byte(move->member),
                                                     ts_node_end_byte(move->member));
      RefValue receiver = occ->kind == REF_OCC_MEMBER && occ->expr != REF_NONE
                              ? ref_program_expr_value(program, f, occ->expr)
                              : (RefValue){0};
      if (!inside && receiver.kind == REF_VALUE_INSTANCE &&
          move__reaches(self, receiver.file, receiver.index)) {
        if (move->holder_private && !in_class) {
          move__keep(self, f, occ->start, "a caller outside the class, where the holder is private");
          continue;
        }
        array_push(&self->at, f);
        array_push(&self->at, i);
      } else {
        move__keep(self, f, occ->start,
                   inside ? "the method uses itself" : "a use not on an instance of the class");
      }
    }
  }
}

/* ---------------------------------------------------------------- the checks */

/* Whether the holder is a member only A's own code reaches: a TypeScript
 * private or protected field or parameter property, or a #name. */
static bool move__holder_hidden(const Move *self) {
  RefOps *ops = self->ops;
  const RefSym *h = &ops->program.files.items[self->from_class.file]->syms.items[self->holder];
  if (ref_names_str(&ops->index->names, h->name)[0] == '#') return true;
  TSNode node = ref_ops_node(ops, self->from_class.file, h->start, h->start + 1);
  for (TSNode up = node; !ts_node_is_null(up); up = ts_node_parent(up)) {
    if (ref_node_is(up, "public_field_definition") || ref_node_is(up, "required_parameter") ||
        ref_node_is(up, "optional_parameter"))
      return ref_class_js_hidden(ops, self->from_class.file, up) != NULL;
    if (ref_node_is(up, "class_body")) break;
  }
  return false;
}

/* An attribute that __init__ (Python) or the constructor or a field
 * (JavaScript) sets is not there before it is set: a call of A.m above
 * that place would reach it too early, through the rewritten call or the
 * delegate alike. One set elsewhere may be missing whenever m is called. */
static int move__holder_ready(const Move *self, uint32_t m_name) {
  RefOps *ops = self->ops;
  RefTarget klass = self->from_class;
  const RefFile *file = ops->program.files.items[klass.file];
  const RefSym *h = &file->syms.items[self->holder];
  if (h->kind != REF_SYM_MEMBER) return 0; /* a class attribute: there from the start */
  const char *hname = ref_names_str(&ops->index->names, h->name);
  const char *init_word = self->python ? "__init__" : "constructor";
  uint32_t init_name = ref_names_intern(&ops->index->names, init_word, strlen(init_word));
  RefTarget init = ref_program_class_member(&ops->program, klass.file, klass.index, init_name);
  TSNode def = init.kind == REF_TARGET_SYM && init.file == klass.file
                   ? ref_class_definition(ops, init)
                   : (TSNode){0};
  bool in_init = !ts_node_is_null(def) &&
                 ref_in(h->start, ts_node_start_byte(def), ts_node_end_byte(def));
  /* Before the holder: __init__ from its start; in JavaScript the fields
   * above it too, which run before the constructor's body. */
  uint32_t from = in_init ? ts_node_start_byte(def) : h->start;
  TSNode body = ref_class_body(ops, klass.file, klass.index);
  if (!self->python) {
    TSNode node = ref_ops_node(ops, klass.file, h->start, h->start + 1);
    bool field = false;
    for (TSNode up = node; !ts_node_is_null(up) && !ts_node_eq(up, body); up = ts_node_parent(up))
      field = field || ref_node_is(up, "field_definition") ||
              ref_node_is(up, "public_field_definition");
    if (field || in_init) from = ts_node_start_byte(body);
    in_init = in_init || field;
  }
  if (!in_init) {
    int rc = self->python
                 ? ref_ops_fail_at(ops, klass.file, h->start,
                                   "Move_Method needs self.%s set in __init__, or set in the class "
                                   "body",
                                   hname)
                 : ref_ops_fail_at(ops, klass.file, h->start,
                                   "Move_Method needs this.%s set in the constructor, or a field",
                                   hname);
    eddi_error_hint(ops->err, self->python ? "Set self.%s first thing in __init__"
                                           : "Set this.%s first thing in the constructor",
                    hname);
    return rc;
  }
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (occ->name != m_name || (occ->flags & REF_OCC_DEF) || !ref_in(occ->start, from, h->start))
      continue;
    /* In JavaScript, a use in another method above the holder's field
     * runs later: only the fields and the constructor run first. */
    TSNode at = ref_ops_node(ops, klass.file, occ->start, occ->end);
    TSNode method = ref_node_up(at, "method_definition");
    if (!self->python && !ts_node_is_null(method) && !ts_node_eq(method, def)) continue;
    int rc = ref_ops_fail_at(ops, klass.file, occ->start,
                             "Move_Method: %s is used in %s before %s.%s is set",
                             ref_names_str(&ops->index->names, m_name),
                             self->python ? "__init__" : "the constructor or a field",
                             self->python ? "self" : "this", hname);
    eddi_error_hint(ops->err, "Set %s.%s before that line", self->python ? "self" : "this", hname);
    return rc;
  }
  return 0;
}

/* Whether node (this, or Python's self) is the object of self.holder,
 * read and not written: in B that is its self, so it moves as this. */
static bool move__via_holder(Move *self, TSNode node) {
  RefOps *ops = self->ops;
  TSNode member = ts_node_parent(node);
  if (!ref_node_is(member, self->python ? "attribute" : "member_expression")) return false;
  TSNode object = ts_node_child_by_field_name(member, "object", 6);
  TSNode property = self->python ? ts_node_child_by_field_name(member, "attribute", 9)
                                 : ts_node_child_by_field_name(member, "property", 8);
  if (!ts_node_eq(object, node) || ts_node_is_null(property)) return false;
  const RefSym *h = &ops->program.files.items[self->from_class.file]->syms.items[self->holder];
  const char *hname = ref_names_str(&ops->index->names, h->name);
  char *text = ref_ops_text(ops, self->method.file, property);
  bool holder = !strcmp(text, hname);
  eddi_free(text);
  TSNode up = ts_node_parent(member);
  const char *type = ts_node_type(up);
  bool target = (!strcmp(type, "assignment") || !strcmp(type, "augmented_assignment") ||
                 !strcmp(type, "assignment_expression") ||
                 !strcmp(type, "augmented_assignment_expression")) &&
                ts_node_eq(ts_node_child_by_field_name(up, "left", 4), member);
  bool written = target || !strcmp(type, "update_expression") || !strcmp(type, "delete_statement") ||
                 (!strcmp(type, "unary_expression") &&
                  !strcmp(ts_node_type(ts_node_child(up, 0)), "delete"));
  if (!holder || written) return false;
  array_push(&self->through, ts_node_start_byte(member));
  array_push(&self->through, ts_node_end_byte(member));
  return true;
}

static bool move__this_allowed(void *context, TSNode node) {
  return move__via_holder(context, node);
}

/* The body: no self or this but through the holder, and its names mean
 * the same in B's module. */
static int move__body(Move *self) {
  RefOps *ops = self->ops;
  uint32_t mfile = self->method.file;
  const RefFile *file = ops->program.files.items[mfile];
  const RefSym *sym = &file->syms.items[self->method.index];
  TSNode self_param = self->python ? ts_node_named_child(self->params, 0) : (TSNode){0};
  if (self->python && !ref_node_is(self_param, "identifier"))
    return ref_ops_fail_at(ops, mfile, sym->start, "Move_Method needs a method taking self");
  if (!self->python) {
    uint32_t at = ref_class_js_this(ops, mfile, self->body, false, move__this_allowed, self);
    if (at == REF_NONE)
      at = ref_class_js_this(ops, mfile, self->params, false, move__this_allowed, self);
    if (at != REF_NONE) {
      TSNode node = ref_ops_node(ops, mfile, at, at + 1);
      char *text = ref_ops_text(ops, mfile, node);
      int rc = ref_ops_fail_at(ops, mfile, at,
                               "Move_Method cannot move a method that uses its this (%s)", text);
      eddi_free(text);
      return rc;
    }
  }
  uint32_t start = ts_node_start_byte(self->member), end = ts_node_end_byte(self->member);
  /* In JavaScript the parameters' defaults and types are read in B too. */
  uint32_t from = ts_node_start_byte(self->python ? self->body : self->params);
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (!ref_in(occ->start, from, end) || occ->kind != REF_OCC_NAME) continue;
    RefTarget t = ref_program_target(&ops->program, mfile, i);
    const char *name = ref_names_str(&ops->index->names, occ->name);
    if (self->python && t.kind == REF_TARGET_SYM && t.file == mfile &&
        file->syms.items[t.index].scope == sym->own_scope &&
        file->syms.items[t.index].start == ts_node_start_byte(self_param)) {
      if (move__via_holder(self, ref_ops_node(ops, mfile, occ->start, occ->end))) continue;
      return ref_ops_fail_at(ops, mfile, occ->start,
                             "Move_Method cannot move a method that uses its self (%s)", name);
    }
    bool local = t.kind == REF_TARGET_SYM && t.file == mfile &&
                 file->syms.items[t.index].scope != 0 &&
                 file->syms.items[t.index].scope != REF_NONE &&
                 ref_in(file->syms.items[t.index].start, start, end);
    if (local || t.kind == REF_TARGET_UNSURE) continue;
    const RefFile *dest = ops->program.files.items[self->to_class.file];
    uint32_t there = ref_file_lookup(dest, 0, occ->name);
    bool same = there == REF_NONE
                    ? t.kind == REF_TARGET_NONE
                    : ref_target_equal(ref_program_canonical(&ops->program, t),
                                       ref_program_canonical(&ops->program,
                                                             (RefTarget){REF_TARGET_SYM,
                                                                         self->to_class.file,
                                                                         there}));
    if (!same)
      return ref_ops_fail_at(ops, mfile, occ->start,
                             "Move_Method: %s would mean something else in %s", name,
                             ops->index->sources.items[self->to_class.file].path);
  }
  return 0;
}

/* ---------------------------------------------------------------- the writes */

/* The method's new text in B's file, renamed and indented as B's members. */
static void move__write_into_b(const Move *self) {
  RefOps *ops = self->ops;
  const RefSource *src = &ops->index->sources.items[self->method.file];
  const RefSource *dsrc = &ops->index->sources.items[self->to_class.file];
  uint32_t to_file = self->to_class.file;
  TSNode bbody = ref_class_body(ops, to_file, self->to_class.index);
  uint32_t line = ref_ops_line_start(src, self->moved_start);
  uint32_t indent = self->moved_start - line;
  TSNode bfirst = {0}, blast = {0};
  for (uint32_t i = 0; i < ts_node_named_child_count(bbody); i++) {
    TSNode child = ts_node_named_child(bbody, i);
    if (ts_node_is_null(bfirst)) bfirst = child;
    blast = child;
  }
  StrBuf margin = {0};
  TSNode bklass = ref_class_node(ops, to_file, self->to_class.index);
  uint32_t kline = ref_ops_line_start(dsrc, ts_node_start_byte(bklass));
  if (!ts_node_is_null(bfirst)) {
    eddi_strbuf_append(&margin, dsrc->text + ref_ops_line_start(dsrc, ts_node_start_byte(bfirst)),
                       ref_ops_indent(dsrc, ts_node_start_byte(bfirst)));
  } else {
    eddi_strbuf_append(&margin, dsrc->text + kline, ref_ops_indent(dsrc, kline));
    eddi_strbuf_puts(&margin, dsrc->lang->indent ? dsrc->lang->indent : "  ");
  }
  TSNode name = ts_node_child_by_field_name(self->member, "name", 4);
  StrBuf method_text = {0}, text = {0};
  /* The copy's changes, in order: an accessibility modifier goes (a
   * private or protected method is public in B, where A calls it), the
   * name is the new one, self.holder (this.holder) is B's self. */
  Array(uint32_t) cut = {0}; /* start, end, what: 0 nothing, 1 the name, 2 self */
  for (uint32_t i = 0; i < ts_node_named_child_count(self->member); i++) {
    TSNode modifier = ts_node_named_child(self->member, i);
    if (!ref_node_is(modifier, "accessibility_modifier")) continue;
    uint32_t after = ts_node_end_byte(modifier);
    while (after < src->len && (src->text[after] == ' ' || src->text[after] == '\t')) after++;
    array_push(&cut, ts_node_start_byte(modifier)), array_push(&cut, after), array_push(&cut, 0);
  }
  array_push(&cut, ts_node_start_byte(name)), array_push(&cut, ts_node_end_byte(name));
  array_push(&cut, 1);
  for (size_t i = 0; i < self->through.len; i += 2) {
    array_push(&cut, self->through.items[i]), array_push(&cut, self->through.items[i + 1]);
    array_push(&cut, 2);
  }
  for (size_t i = 3; i < cut.len; i += 3) /* by place: few, so by insertion */
    for (size_t j = i; j >= 3 && cut.items[j - 3] > cut.items[j]; j -= 3)
      for (size_t k = 0; k < 3; k++) {
        uint32_t swap = cut.items[j - 3 + k];
        cut.items[j - 3 + k] = cut.items[j + k];
        cut.items[j + k] = swap;
      }
  char *self_text = self->python ? ref_ops_text(ops, self->method.file,
                                                ts_node_named_child(self->params, 0))
                                 : eddi_strdup("this");
  uint32_t head = line;
  for (size_t i = 0; i < cut.len; i += 3) {
    eddi_strbuf_append(&method_text, src->text + head, cut.items[i] - head);
    eddi_strbuf_puts(&method_text, cut.items[i + 2] == 1   ? self->to_name
                                   : cut.items[i + 2] == 2 ? self_text
                                                           : "");
    head = cut.items[i + 1];
  }
  eddi_strbuf_append(&method_text, src->text + head, ts_node_end_byte(self->member) - head);
  eddi_free(self_text);
  array_free(&cut);
  eddi_strbuf_putc(&text, '\n');
  ref_ops_reindent(&text, method_text.data, method_text.len, indent, margin.data ? margin.data : "",
                   margin.len);
  eddi_strbuf_putc(&text, '\n');
  bool only_pass = self->python && ts_node_named_child_count(bbody) == 1 &&
                   ref_node_is(bfirst, "pass_statement");
  if (only_pass) {
    uint32_t start = ref_ops_line_start(dsrc, ts_node_start_byte(bfirst));
    /* In place of the pass: no blank line after the class's header. */
    ref_ops_edit(ops, to_file, start, ref_ops_next_line(dsrc, ts_node_end_byte(bfirst) - 1),
                 text.data + 1, text.len - 1);
  } else if (!self->python && ts_node_is_null(blast)) {
    /* An empty class body, {} or over lines: the method alone in it. */
    ref_class_js_fill_body(ops, to_file, bklass, text.data + 1, text.len - 1);
  } else {
    TSNode last = self->python ? bbody : blast;
    uint32_t at = ref_ops_next_line(dsrc, ts_node_end_byte(last) - 1);
    ref_ops_edit(ops, to_file, at, at, text.data, text.len);
  }
  eddi_strbuf_free(&text), eddi_strbuf_free(&margin), eddi_strbuf_free(&method_text);
}

/* A's m goes; a Python class left with no statement gets pass. */
static void move__remove(const Move *self) {
  RefOps *ops = self->ops;
  RefTarget klass = self->from_class;
  TSNode body = ref_class_body(ops, klass.file, klass.index);
  uint32_t statements = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
    statements += !ref_node_is(ts_node_named_child(body, i), "comment");
  uint32_t start = self->moved_start, end = ts_node_end_byte(self->member);
  if (statements > 1 || !self->python) {
    start = ref_class_removal_start(ops, klass.file, self->member, start);
    ref_ops_remove_lines(ops, klass.file, start, end);
  } else {
    ref_ops_edit(ops, klass.file, start, end, "pass", 4);
  }
}

/* A's m, its body a call of B's through the holder. */
static void move__delegate(const Move *self, const char *holder_name, const char *arguments) {
  RefOps *ops = self->ops;
  uint32_t file = self->method.file;
  if (!self->python) {
    ref_class_js_delegate(ops, file, self->member, holder_name, self->to_name, arguments);
    return;
  }
  StrBuf delegate = {0};
  char *self_text = ref_ops_text(ops, file, ts_node_named_child(self->params, 0));
  eddi_strbuf_printf(&delegate, "return %s.%s.%s(%s)", self_text, holder_name, self->to_name,
                     arguments);
  eddi_free(self_text);
  TSNode first = ts_node_named_child(self->body, 0);
  ref_ops_edit(ops, file, ts_node_start_byte(first), ts_node_end_byte(self->body), delegate.data,
               delegate.len);
  eddi_strbuf_free(&delegate);
}

/* The classes and the method, each checked; self gets what they are. */
static int move__read(Move *self, char **to_name) {
  RefOps *ops = self->ops;
  int rc = ref_ops_find(ops, self->args->spec, &self->method);
  const EddiLang *lang = rc == 0 ? ops->index->sources.items[self->method.file].lang : NULL;
  self->python = lang && !strcmp(lang->name, "python");
  if (rc == 0 && !self->python) rc = ref_ops_supports(ops, self->method.file, "Move_Method");
  if (rc == 0 && ref_target_class(&ops->program, self->method) == REF_NONE)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a method", self->args->spec);
  if (rc == 0) rc = self->python ? move__python_method(self) : move__js_method(self);
  if (rc == 0) rc = move__split(ops, self->args->other, &self->to_class, to_name);
  const EddiLang *to_lang = rc == 0 ? ops->index->sources.items[self->to_class.file].lang : NULL;
  bool same = to_lang && (to_lang == lang || (move__is_js(lang) && move__is_js(to_lang) &&
                                              strcmp(lang->name, "javascript") != 0 &&
                                              strcmp(to_lang->name, "javascript") != 0));
  if (rc == 0 && !same)
    rc = eddi_error_set(ops->err, EDDI_EINVAL,
                        "Move_Method moves a method between classes of one language (%s is %s, "
                        "%s is %s)",
                        self->args->spec, lang->name, self->args->other, to_lang->name);
  if (rc == 0) rc = ref_ops_valid_name(ops, to_lang, *to_name);
  if (rc < 0) return rc;
  self->to_name = *to_name;
  self->from_class = (RefTarget){REF_TARGET_SYM, self->method.file,
                                 ref_target_class(&ops->program, self->method)};
  self->params = ts_node_child_by_field_name(self->member, "parameters", 10);
  self->body = ts_node_child_by_field_name(self->member, "body", 4);
  return 0;
}

int ref_move_method_plan(RefOps *ops, const RefOpArgs *args) {
  Move self = {.ops = ops, .args = args};
  char *to_name = NULL;
  int rc = move__read(&self, &to_name);
  if (rc < 0) {
    eddi_free(to_name);
    return rc;
  }
  const RefFile *file = ops->program.files.items[self.method.file];
  const RefSym *sym = &file->syms.items[self.method.index];
  uint32_t to_id = ref_names_intern(&ops->index->names, to_name, strlen(to_name));
  RefTarget clash =
      ref_program_class_member(&ops->program, self.to_class.file, self.to_class.index, to_id);
  const char *bname = ref_names_str(&ops->index->names, ops->program.files.items[self.to_class.file]
                                                            ->syms.items[self.to_class.index]
                                                            .name);
  if (clash.kind != REF_TARGET_NONE)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "Move_Method: %s already has %s", bname, to_name);
  if (rc == 0) {
    self.holder = move__holder(&self);
    if (self.holder == REF_NONE)
      rc = ref_ops_fail_at(ops, self.method.file, sym->start,
                           "Move_Method needs an attribute of the method's class holding a %s",
                           bname);
  }
  if (rc == 0) rc = move__holder_ready(&self, sym->name);
  if (rc == 0) rc = move__body(&self);
  StrBuf arguments = {0};
  eddi_strbuf_puts(&arguments, "");
  /* Why the delegate could not pass the parameters on, if it is needed. */
  int forward_rc = 0;
  EddiError forward_err = {0};
  if (rc == 0 && self.python) ref_class_forward(ops, self.method.file, self.params, &arguments);
  else if (rc == 0) forward_rc = ref_class_js_forward(ops, self.method.file, self.params, "Move_Method", &arguments);
  if (forward_rc) forward_err = *ops->err, eddi_error_clear(ops->err);
  if (rc == 0) {
    self.holder_private = !self.python && move__holder_hidden(&self);
    MoveCallers callers = {.move = &self};
    if (args->delegate) eddi_strbuf_puts(&callers.keep, "asked");
    move__callers(&callers);
    if (callers.keep.len && forward_rc) *ops->err = forward_err, rc = forward_rc;
    if (rc == 0) {
      move__write_into_b(&self);
      const char *holder_name = ref_names_str(&ops->index->names, file->syms.items[self.holder].name);
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
      const char *hidden = self.python ? NULL : ref_class_js_hidden(ops, self.method.file, self.member);
      if (hidden) eddi_strbuf_printf(&ops->facts, "\n%s.%s is public (it was %s)", bname, to_name, hidden);
      if (callers.keep.len) {
        move__delegate(&self, holder_name, arguments.data);
        char *self_text = self.python
                              ? ref_ops_text(ops, self.method.file, ts_node_named_child(self.params, 0))
                              : eddi_strdup("this");
        eddi_strbuf_printf(&ops->facts, "\n%s delegates through %s.%s (%s)", args->spec, self_text,
                           holder_name, callers.keep.data);
        eddi_free(self_text);
      } else {
        move__remove(&self);
        eddi_strbuf_printf(&ops->facts, "\n%s removed", args->spec);
      }
      ops->count = updated;
      eddi_strbuf_free(&through);
    }
    eddi_strbuf_free(&callers.keep);
    array_free(&callers.at);
  }
  eddi_strbuf_free(&arguments);
  array_free(&self.through);
  eddi_free(to_name);
  return rc;
}
