/* class_inherit.c - Refactor Change_Inheritance <Class> [<OldParent>]
 * <NewParent>, for Python, JavaScript and TypeScript.
 *
 * Replacing a base changes what every attribute of the class's instances
 * that the class does not define itself means, wherever it is used: in
 * the class's methods through self, in its subclasses, through super(),
 * and at callers holding an instance. So the operation works out, for
 * every such use the workspace resolves, what the name would find through
 * the new list of bases (the class's own binding first, then each base in
 * order, then the attributes set through self, as resolve.c looks them
 * up) and refuses when that is not what it finds today: a member that
 * would be lost or would mean another class's. A use on a receiver whose
 * class is not known is listed as unsure. The new base must be a class of
 * the workspace (or object, to drop the base), defined before the class
 * when it is in the same module, must not be the class or one of its
 * subclasses (a cycle), and must give a base list Python can linearise
 * (no base twice, no base before one of its own subclasses). The class
 * may not stop being a class some code tests for (isinstance, except, a
 * comparison of types) or a library's class a base gave it (Exception).
 * Its import
 * is added when the module does not bind it; the old base's import goes
 * when the base was its only use. The differential check then runs as for
 * every operation.
 *
 * A JavaScript class has one base, after extends; object as the new
 * parent drops it. new C(...) runs C's constructor or its base's, so the
 * constructor that runs may not change (a constructor that calls super()
 * keeps its own, with the base's after it); a class given a base needs a
 * constructor calling super(), one losing its base may not call it. The
 * new base must be bound in the class's module already (no import is
 * written), without type arguments on the old one and not abstract. */
#include "refactor/class_ops.h"

/* ---------------------------------------------------------------- what members would mean */

typedef struct {
  RefOps *ops;
  RefTarget klass;
  RefTarget old_base, new_base; /* NONE for object */
  const RefClassBases *bases;   /* today's */
  size_t replaced;              /* the index of the old base in bases, or bases->len */
} Inherit;

/* The member name of the class as its new bases would give it (only its
 * bases when bases_only: super() in the class's own methods). */
static RefTarget inherit__after(Inherit *self, uint32_t name, bool bases_only) {
  RefProgram *program = &self->ops->program;
  const RefFile *f = program->files.items[self->klass.file];
  const RefSym *sym = &f->syms.items[self->klass.index];
  uint32_t own = bases_only ? REF_NONE : ref_file_bound(f, sym->own_scope, name);
  if (own != REF_NONE)
    return ref_program_canonical(program, (RefTarget){REF_TARGET_SYM, self->klass.file, own});
  size_t count = self->bases->len + (self->replaced == self->bases->len ? 1 : 0);
  for (size_t i = 0; i < count; i++) {
    RefTarget base = i == self->replaced ? self->new_base : self->bases->items[i].klass;
    if (base.kind == REF_TARGET_UNSURE) return base;
    if (base.kind != REF_TARGET_SYM) continue;
    RefTarget found = ref_program_class_member(program, base.file, base.index, name);
    if (found.kind != REF_TARGET_NONE) return found;
  }
  uint32_t set = bases_only ? REF_NONE : ref_map_get(&f->members, ref_key(self->klass.index, name));
  return set == REF_NONE ? (RefTarget){REF_TARGET_NONE, 0, 0}
                         : (RefTarget){REF_TARGET_SYM, self->klass.file, set};
}

/* Whether a receiver's value is the class, one of its subclasses, or an
 * instance of one (super() of one included). */
static bool inherit__affects(Inherit *self, RefValue value) {
  if (value.kind != REF_VALUE_CLASS && value.kind != REF_VALUE_INSTANCE &&
      value.kind != REF_VALUE_SUPER)
    return false;
  return ref_class_descends(self->ops, value.file, value.index, self->klass.file,
                            self->klass.index);
}

/* Refuse a use of a member whose meaning the change would alter. */
static int inherit__check_uses(Inherit *self, const char *word) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t i = 0; i < file->occs.len; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->kind != REF_OCC_MEMBER || occ->expr == REF_NONE) continue;
      RefValue receiver = ref_program_expr_value(program, f, occ->expr);
      if (receiver.kind == REF_VALUE_UNKNOWN) {
        /* A name the old base gives, on a receiver of unknown class. */
        RefTarget was =
            ref_program_class_member(program, self->klass.file, self->klass.index, occ->name);
        if (was.kind == REF_TARGET_SYM &&
            !ref_target_equal(
                ref_program_canonical(program, was),
                ref_program_canonical(program, inherit__after(self, occ->name, false))))
          ref_ops_unsure(ops, f, occ->start);
        continue;
      }
      if (!inherit__affects(self, receiver)) continue;
      RefTarget now = ref_program_canonical(program, ref_program_target(program, f, i));
      /* super() in the class's own methods looks in its bases only. */
      bool bases_only = receiver.kind == REF_VALUE_SUPER && receiver.file == self->klass.file &&
                        receiver.index == self->klass.index;
      /* What the class itself gives (a subclass may define it first). */
      RefTarget mine =
          ref_program_canonical(program, ref_program_class_member(program, self->klass.file,
                                                                  self->klass.index, occ->name));
      if (!bases_only && !ref_target_equal(now, mine)) continue;
      RefTarget after = ref_program_canonical(program, inherit__after(self, occ->name, bases_only));
      if (ref_target_equal(now, after)) continue;
      const char *name = ref_names_str(&ops->index->names, occ->name);
      StrBuf was = {0}, will = {0};
      ref_target_name(program, ops->index, now, &was);
      ref_target_name(program, ops->index, after, &will);
      const RefSym *klass = &program->files.items[self->klass.file]->syms.items[self->klass.index];
      int rc;
      if (after.kind == REF_TARGET_NONE)
        rc = ref_ops_fail_at(ops, f, occ->start, "%s: %s would no longer have %s (%s)", word,
                             ref_names_str(&ops->index->names, klass->name), name,
                             was.data ? was.data : name);
      else if (after.kind == REF_TARGET_UNSURE)
        rc = ref_ops_fail_at(ops, f, occ->start, "%s: what %s would mean cannot be told (now %s)",
                             word, name, was.data);
      else
        rc = ref_ops_fail_at(ops, f, occ->start, "%s: %s would mean %s instead of %s", word, name,
                             will.data, was.data);
      eddi_strbuf_free(&was), eddi_strbuf_free(&will);
      return rc;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- what it would stop being */

/* Append a class and its workspace ancestors to out (each once). */
static void inherit__chain(RefOps *ops, RefTarget klass, RefTargets *out, unsigned depth) {
  if (klass.kind != REF_TARGET_SYM || ref_targets_has(out, klass) || depth > REF_CLASS_DEPTH_MAX)
    return;
  array_push(out, klass);
  RefIds bases = {0};
  ref_program_bases(&ops->program, klass.file, klass.index, &bases);
  for (size_t i = 0; i + 1 < bases.len; i += 2)
    inherit__chain(ops, (RefTarget){REF_TARGET_SYM, bases.items[i], bases.items[i + 1]}, out,
                   depth + 1);
  array_free(&bases);
}

/* Whether a class of chain has a base written as text (a library's class). */
static bool inherit__has_external(RefOps *ops, const RefTargets *chain, const char *text) {
  bool found = false;
  for (size_t i = 0; i < chain->len && !found; i++) {
    RefClassBases bases = {0};
    ref_class_bases(ops, chain->items[i].file,
                    ref_class_node(ops, chain->items[i].file, chain->items[i].index), &bases);
    for (size_t b = 0; b < bases.len && !found; b++) {
      char *t = ref_ops_text(ops, chain->items[i].file, bases.items[b].node);
      found = bases.items[b].klass.kind == REF_TARGET_NONE && !strcmp(t, text);
      eddi_free(t);
    }
    array_free(&bases);
  }
  return found;
}

/* Python: a decorated class (dataclass, attrs' define and frozen) may have
 * an __init__ its decorator made from the fields of the class and of its
 * bases, which eddi does not see: a change of the class's bases, or of
 * a base that is so made, would change that __init__ or lose it. */
static int inherit__py_check_decorated(Inherit *self, const char *word) {
  RefTarget classes[3] = {self->klass, self->old_base, self->new_base};
  for (int i = 0; i < 3; i++) {
    if (classes[i].kind != REF_TARGET_SYM) continue;
    TSNode def = ref_class_definition(self->ops, classes[i]);
    if (!ref_node_is(def, "decorated_definition")) continue;
    const RefFile *f = self->ops->program.files.items[classes[i].file];
    const RefSym *sym = &f->syms.items[classes[i].index];
    int rc = ref_ops_fail_at(self->ops, classes[i].file, ts_node_start_byte(def),
                             "%s cannot yet change inheritance through the decorated class %s: "
                             "its decorator may make __init__ from the fields of its bases",
                             word, ref_names_str(self->ops->program.names, sym->name));
    eddi_error_hint(self->ops->err, "Change the bases by hand, and run the tests");
    return rc;
  }
  return 0;
}

/* Python: a new base that inherits from a library's class the class does
 * not inherit from yet (Enum, Generic, a framework's) brings what eddi
 * cannot check: an Enum with members cannot be extended, a metaclass or
 * __init_subclass__ may run on the class. */
static int inherit__py_check_foreign(Inherit *self, const char *word, const char *new_name) {
  if (self->new_base.kind != REF_TARGET_SYM) return 0;
  RefTargets chain = {0}, mine = {0};
  inherit__chain(self->ops, self->new_base, &chain, 0);
  inherit__chain(self->ops, self->klass, &mine, 0);
  int rc = 0;
  for (size_t i = 0; i < chain.len && rc == 0; i++) {
    RefTarget c = chain.items[i];
    RefClassBases bases = {0};
    ref_class_bases(self->ops, c.file, ref_class_node(self->ops, c.file, c.index), &bases);
    for (size_t b = 0; b < bases.len && rc == 0; b++) {
      if (bases.items[b].klass.kind == REF_TARGET_SYM) continue;
      char *text = ref_ops_text(self->ops, c.file, bases.items[b].node);
      if (strcmp(text, "object") != 0 && !inherit__has_external(self->ops, &mine, text))
        rc = ref_ops_fail_at(self->ops, c.file, ts_node_start_byte(bases.items[b].node),
                             "Not supported for python: Refactor %s: %s inherits from %s, no "
                             "class of the workspace, so what it gives cannot be checked",
                             word, new_name, text);
      if (rc) eddi_error_hint(self->ops->err, "Change the bases by hand, and run the tests");
      eddi_free(text);
    }
    array_free(&bases);
  }
  array_free(&chain), array_free(&mine);
  return rc;
}

/* Refuse a change after which the class is no longer an instance of a
 * class it was: one some code tests for (isinstance, except, a type
 * comparison), or a library's class (Exception) its old base gave. */
static int inherit__check_lost(Inherit *self, const char *word) {
  RefOps *ops = self->ops;
  RefTargets before = {0}, after = {0};
  inherit__chain(ops, self->old_base, &before, 0);
  inherit__chain(ops, self->new_base, &after, 0);
  for (size_t i = 0; i < self->bases->len; i++)
    if (i != self->replaced) inherit__chain(ops, self->bases->items[i].klass, &after, 0);
  const char *kname =
      ref_names_str(&ops->index->names,
                    ops->program.files.items[self->klass.file]->syms.items[self->klass.index].name);
  int rc = 0;
  for (size_t i = 0; i < before.len && rc == 0; i++) {
    RefTarget lost = before.items[i];
    if (ref_targets_has(&after, lost)) continue;
    const char *lname = ref_names_str(
        &ops->index->names, ops->program.files.items[lost.file]->syms.items[lost.index].name);
    /* A library's class it stops being. */
    RefClassBases bases = {0};
    ref_class_bases(ops, lost.file, ref_class_node(ops, lost.file, lost.index), &bases);
    for (size_t b = 0; b < bases.len && rc == 0; b++) {
      if (bases.items[b].klass.kind != REF_TARGET_NONE) continue;
      char *text = ref_ops_text(ops, lost.file, bases.items[b].node);
      if (strcmp(text, "object") != 0 && !inherit__has_external(ops, &after, text))
        rc = ref_ops_fail_at(ops, lost.file, ts_node_start_byte(bases.items[b].node),
                             "%s: %s would no longer inherit from %s (through %s)", word, kname,
                             text, lname);
      eddi_free(text);
    }
    array_free(&bases);
    /* A test for it anywhere. */
    for (uint32_t f = 0; f < ops->program.files.len && rc == 0; f++) {
      const RefFile *file = ops->program.files.items[f];
      for (uint32_t o = 0; o < file->occs.len && rc == 0; o++) {
        const RefOcc *occ = &file->occs.items[o];
        if ((occ->kind != REF_OCC_NAME && occ->kind != REF_OCC_MEMBER) || (occ->flags & REF_OCC_DEF))
          continue;
        if (occ->name != ops->program.files.items[lost.file]->syms.items[lost.index].name) continue;
        RefTarget t = ref_program_canonical(&ops->program, ref_program_target(&ops->program, f, o));
        if (ref_target_equal(t, lost) && ref_class_type_test(ops, f, occ->start, occ->end))
          rc = ref_ops_fail_at(ops, f, occ->start,
                               "%s: %s would no longer inherit from %s, which this tests", word,
                               kname, lname);
      }
    }
  }
  array_free(&before);
  array_free(&after);
  return rc;
}

/* ---------------------------------------------------------------- the base list */

/* Refuse a base list Python cannot linearise: a base twice, or a base
 * before one of its subclasses. */
static int inherit__check_order(Inherit *self, const char *word) {
  RefOps *ops = self->ops;
  size_t count = self->bases->len + (self->replaced == self->bases->len ? 1 : 0);
  for (size_t i = 0; i < count; i++) {
    RefTarget a = i == self->replaced ? self->new_base : self->bases->items[i].klass;
    if (a.kind != REF_TARGET_SYM) continue;
    for (size_t j = 0; j < count; j++) {
      RefTarget b = j == self->replaced ? self->new_base : self->bases->items[j].klass;
      if (i == j || b.kind != REF_TARGET_SYM) continue;
      const char *an = ref_names_str(&ops->index->names,
                                     ops->program.files.items[a.file]->syms.items[a.index].name);
      const char *bn = ref_names_str(&ops->index->names,
                                     ops->program.files.items[b.file]->syms.items[b.index].name);
      uint32_t at = ts_node_start_byte(self->bases->items[i < self->bases->len ? i : 0].node);
      if (ref_target_equal(a, b) && i < j)
        return ref_ops_fail_at(ops, self->klass.file, at, "%s: %s would be a base twice", word, an);
      if (i < j && ref_class_descends(ops, b.file, b.index, a.file, a.index))
        return ref_ops_fail_at(ops, self->klass.file, at,
                               "%s: %s before its subclass %s gives no consistent method "
                               "resolution order",
                               word, an, bn);
    }
  }
  return 0;
}

/* The new base as the class's module names it; adds its import when the
 * module does not bind it, in place of old_import (the old base's, which
 * goes) when there is one. */
static int inherit__new_name(Inherit *self, const char *word, TSNode old_import, StrBuf *out) {
  RefOps *ops = self->ops;
  RefProgram *program = &ops->program;
  const RefFile *file = program->files.items[self->klass.file];
  const RefSym *base = &program->files.items[self->new_base.file]->syms.items[self->new_base.index];
  const char *name = ref_names_str(&ops->index->names, base->name);
  if (base->scope != 0)
    return ref_ops_fail_at(ops, self->new_base.file, base->start,
                           "%s needs a module-level class as the new base", word);
  uint32_t bound = ref_file_bound(file, 0, base->name);
  if (bound != REF_NONE) {
    RefTarget there =
        ref_program_canonical(program, (RefTarget){REF_TARGET_SYM, self->klass.file, bound});
    if (!ref_target_equal(there, self->new_base))
      return ref_ops_fail_at(ops, self->klass.file, file->syms.items[bound].start,
                             "%s: %s means something else in %s", word, name, file->path);
    if (self->new_base.file == self->klass.file &&
        base->start > file->syms.items[self->klass.index].start)
      return ref_ops_fail_at(
          ops, self->klass.file, base->start, "%s: %s is defined after %s", word, name,
          ref_names_str(&ops->index->names, file->syms.items[self->klass.index].name));
    if (!ts_node_is_null(old_import))
      ref_ops_remove_lines(ops, self->klass.file, ts_node_start_byte(old_import),
                           ts_node_end_byte(old_import));
    eddi_strbuf_puts(out, name);
    return 0;
  }
  const EddiLang *lang = ops->index->sources.items[self->klass.file].lang;
  if (strcmp(lang->name, "python") != 0) {
    int rc = ref_ops_fail_at(ops, self->klass.file, file->syms.items[self->klass.index].start,
                             "%s: %s is not imported in %s", word, name, file->path);
    eddi_error_hint(ops->err, "Import %s there first", name);
    return rc;
  }
  StrBuf line = {0};
  eddi_strbuf_puts(&line, "from ");
  ref_class_module_name(ops, self->new_base.file, &line);
  eddi_strbuf_printf(&line, " import %s", name);
  if (!ts_node_is_null(old_import)) {
    ref_ops_edit(ops, self->klass.file, ts_node_start_byte(old_import),
                 ts_node_end_byte(old_import), line.data, line.len);
  } else {
    bool blank;
    uint32_t at = ref_class_import_at(ops, self->klass.file, &blank);
    eddi_strbuf_puts(&line, blank ? "\n\n\n" : "\n");
    ref_ops_edit(ops, self->klass.file, at, at, line.data, line.len);
  }
  eddi_strbuf_free(&line);
  eddi_strbuf_puts(out, name);
  return 0;
}

/* The import statement of the old base when the base was its only use
 * and the statement imports nothing else (it goes), or a null node. */
static TSNode inherit__old_import(RefOps *ops, uint32_t file, TSNode old) {
  const RefFile *f = ops->program.files.items[file];
  TSNode none = {0};
  if (!ref_node_is(old, "identifier")) return none;
  /* The module-level name the base is, bound by an import and used
   * nowhere else in the file. */
  uint32_t start = ts_node_start_byte(old), name = REF_NONE;
  for (uint32_t i = 0; i < f->occs.len && name == REF_NONE; i++)
    if (f->occs.items[i].start == start && f->occs.items[i].kind == REF_OCC_NAME)
      name = f->occs.items[i].name;
  uint32_t bound = name == REF_NONE ? REF_NONE : ref_file_bound(f, 0, name);
  if (bound == REF_NONE || f->syms.items[bound].kind != REF_SYM_IMPORT) return none;
  for (uint32_t i = 0; i < f->occs.len; i++) {
    const RefOcc *occ = &f->occs.items[i];
    if (occ->name != name || occ->start == start || occ->flags & REF_OCC_DEF) continue;
    if (occ->kind == REF_OCC_NAME || occ->kind == REF_OCC_EXPORT || occ->kind == REF_OCC_STRING)
      return none;
  }
  RefTarget t = {REF_TARGET_SYM, file, bound};
  TSNode def =
      ref_ops_node(ops, file, f->syms.items[t.index].start, f->syms.items[t.index].start + 1);
  TSNode statement = ref_node_up(def, "import_from_statement");
  if (ts_node_is_null(statement)) statement = ref_node_up(def, "import_statement");
  /* One name imported: the module (for from ...) and that name. */
  uint32_t names = ts_node_is_null(statement) ? 0 : ts_node_named_child_count(statement);
  uint32_t wanted = ref_node_is(statement, "import_from_statement") ? 2 : 1;
  return names == wanted ? statement : none;
}

/* ---------------------------------------------------------------- JavaScript's constructors */

/* The constructor new C(...) runs when C's bases start with base: the
 * first one its chain defines, NONE without one, UNSURE when a base
 * outside the workspace may define one. */
static RefTarget inherit__constructor(RefOps *ops, RefTarget base, uint32_t name) {
  if (base.kind != REF_TARGET_SYM) return base;
  RefTargets chain = {0};
  inherit__chain(ops, base, &chain, 0);
  bool foreign = false;
  for (size_t i = 0; i < chain.len && !foreign; i++)
    foreign = ref_class_foreign_base(ops, chain.items[i]) != REF_NONE;
  array_free(&chain);
  RefTarget found = ref_program_canonical(
      &ops->program, ref_program_class_member(&ops->program, base.file, base.index, name));
  return found.kind == REF_TARGET_NONE && foreign ? (RefTarget){REF_TARGET_UNSURE, 0, 0} : found;
}

/* The first super(...) call in node, or a null node. */
static TSNode inherit__super_call(TSNode node) {
  if (ref_node_is(node, "call_expression") &&
      ref_node_is(ts_node_child_by_field_name(node, "function", 8), "super"))
    return node;
  for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
    TSNode found = inherit__super_call(ts_node_named_child(node, i));
    if (!ts_node_is_null(found)) return found;
  }
  return (TSNode){0};
}

/* new C(...) runs C's constructor or, without one, its base's with the
 * same arguments: the change may not alter which constructor that is,
 * give a base to a class whose constructor does not call super(), or take
 * it from one whose constructor does. */
static int inherit__check_constructor(Inherit *self, const char *word) {
  RefOps *ops = self->ops;
  const RefFile *f = ops->program.files.items[self->klass.file];
  const RefSym *sym = &f->syms.items[self->klass.index];
  const char *kname = ref_names_str(&ops->index->names, sym->name);
  uint32_t name = ref_names_intern(&ops->index->names, "constructor", strlen("constructor"));
  uint32_t own = ref_file_bound(f, sym->own_scope, name);
  bool adding = self->replaced == self->bases->len;
  bool dropping = self->new_base.kind == REF_TARGET_NONE;
  TSNode super_call = {0};
  if (own != REF_NONE) {
    TSNode def = ref_class_definition(ops, (RefTarget){REF_TARGET_SYM, self->klass.file, own});
    super_call = inherit__super_call(def);
    if (adding && ts_node_is_null(super_call))
      return ref_ops_fail_at(ops, self->klass.file, f->syms.items[own].start,
                             "%s: the constructor of %s would have to call super()", word, kname);
    if (dropping && !ts_node_is_null(super_call))
      return ref_ops_fail_at(ops, self->klass.file, ts_node_start_byte(super_call),
                             "%s: the constructor of %s calls super(), which needs a base", word,
                             kname);
    if (ts_node_is_null(super_call)) return 0;
  }
  RefTarget before = adding ? (RefTarget){REF_TARGET_NONE, 0, 0}
                            : inherit__constructor(ops, self->old_base, name);
  RefTarget after = inherit__constructor(ops, self->new_base, name);
  if (ref_target_equal(before, after) && before.kind != REF_TARGET_UNSURE) return 0;
  uint32_t at = ts_node_is_null(super_call) ? sym->start : ts_node_start_byte(super_call);
  StrBuf was = {0}, will = {0};
  ref_target_name(&ops->program, ops->index, before, &was);
  ref_target_name(&ops->program, ops->index, after, &will);
  int rc;
  if (before.kind == REF_TARGET_UNSURE || after.kind == REF_TARGET_UNSURE)
    rc = ref_ops_fail_at(ops, self->klass.file, at,
                         "%s: which constructor new %s(...) would run cannot be told (a base "
                         "outside the workspace)",
                         word, kname);
  else
    rc = ref_ops_fail_at(ops, self->klass.file, at, "%s: new %s(...) would run %s instead of %s",
                         word, kname, after.kind == REF_TARGET_NONE ? "no constructor" : will.data,
                         before.kind == REF_TARGET_NONE ? "none" : was.data);
  eddi_strbuf_free(&was), eddi_strbuf_free(&will);
  return rc;
}

/* The class's extends written anew: the base replaced, added after the
 * name (and type parameters), or dropped with its clause. */
static void inherit__js_write(Inherit *self, TSNode node, const char *text) {
  RefOps *ops = self->ops;
  uint32_t file = self->klass.file;
  if (self->replaced < self->bases->len && self->new_base.kind != REF_TARGET_NONE) {
    TSNode base = self->bases->items[self->replaced].node;
    ref_ops_edit(ops, file, ts_node_start_byte(base), ts_node_end_byte(base), text, strlen(text));
    return;
  }
  TSNode heritage = {0};
  for (uint32_t i = 0; i < ts_node_named_child_count(node); i++)
    if (ref_node_is(ts_node_named_child(node, i), "class_heritage"))
      heritage = ts_node_named_child(node, i);
  if (self->replaced == self->bases->len) {
    TSNode after = ts_node_child_by_field_name(node, "type_parameters", 15);
    if (ts_node_is_null(after)) after = ts_node_child_by_field_name(node, "name", 4);
    StrBuf clause = {0};
    eddi_strbuf_printf(&clause, " extends %s", text);
    uint32_t at = ts_node_end_byte(after);
    if (!ts_node_is_null(heritage)) {
      /* implements only: extends goes before it. */
      at = ts_node_start_byte(heritage);
      eddi_strbuf_free(&clause);
      eddi_strbuf_printf(&clause, "extends %s ", text);
    }
    ref_ops_edit(ops, file, at, at, clause.data, clause.len);
    eddi_strbuf_free(&clause);
    return;
  }
  TSNode extends = ts_node_named_child(heritage, 0);
  TSNode implements = ts_node_next_named_sibling(extends);
  if (ref_node_is(extends, "extends_clause") && !ts_node_is_null(implements))
    ref_ops_edit(ops, file, ts_node_start_byte(extends), ts_node_start_byte(implements), "", 0);
  else
    ref_ops_edit(ops, file, ts_node_end_byte(ts_node_prev_sibling(heritage)),
                 ts_node_end_byte(heritage), "", 0);
}

/* ---------------------------------------------------------------- the operation */

int ref_change_inheritance_plan(RefOps *ops, const RefOpArgs *args) {
  const char *word = "Change_Inheritance";
  RefWords words = {0};
  ref_words_split(args->other, &words);
  RefTarget klass;
  int rc = words.len == 1 || words.len == 2
               ? 0
               : eddi_error_set(ops->err, EDDI_EINVAL,
                                "Refactor %s takes <Class> [<OldParent>] <NewParent>", word);
  if (rc == 0) rc = ref_class_find(ops, args->spec, &klass);
  if (rc == 0) rc = ref_ops_supports(ops, klass.file, word);
  const EddiLang *lang = rc == 0 ? ops->index->sources.items[klass.file].lang : NULL;
  bool python = lang && !strcmp(lang->name, "python");
  RefClassBases bases = {0};
  Inherit self = {.ops = ops, .klass = klass, .bases = &bases};
  TSNode node = {0};
  const char *old_name = words.len == 2 ? words.items[0] : NULL;
  const char *new_name = words.len ? words.items[words.len - 1] : "";
  if (rc == 0) {
    node = ref_class_node(ops, klass.file, klass.index);
    ref_class_bases(ops, klass.file, node, &bases);
    self.replaced = bases.len;
    for (size_t i = 0; i < bases.len && old_name; i++) {
      char *text = ref_ops_text(ops, klass.file, bases.items[i].node);
      if (!strcmp(text, old_name)) self.replaced = i;
      eddi_free(text);
    }
    if (!old_name && bases.len == 1)
      self.replaced = 0;
    else if (!old_name && bases.len > 1)
      rc = ref_ops_fail_at(ops, klass.file, ts_node_start_byte(bases.items[0].node),
                           "%s: %s has several bases: name the one to replace", word, args->spec);
    bool implicit = self.replaced == bases.len && (!old_name || !strcmp(old_name, "object"));
    if (rc == 0 && self.replaced == bases.len && !implicit)
      rc = ref_ops_fail_at(ops, klass.file, ts_node_start_byte(node), "%s: %s has no base %s", word,
                           args->spec, old_name);
    if (rc == 0 && !implicit) {
      self.old_base = bases.items[self.replaced].klass;
      char *old_text = ref_ops_text(ops, klass.file, bases.items[self.replaced].node);
      if (self.old_base.kind == REF_TARGET_UNSURE ||
          (self.old_base.kind == REF_TARGET_NONE && strcmp(old_text, "object")))
        rc = ref_ops_fail_at(ops, klass.file, ts_node_start_byte(bases.items[self.replaced].node),
                             "Not supported for %s: Refactor %s: the base %s is no class of "
                             "the workspace, so what it gives cannot be checked",
                             lang->name, word, old_text);
      eddi_free(old_text);
    }
    /* TypeScript's Base<T>: the type arguments belong to the old base. */
    TSNode args_node = rc == 0 && !python && self.replaced < bases.len
                           ? ts_node_next_named_sibling(bases.items[self.replaced].node)
                           : (TSNode){0};
    if (ref_node_is(args_node, "type_arguments"))
      rc = ref_ops_fail_at(ops, klass.file, ts_node_start_byte(args_node),
                           "%s cannot yet replace a base with type arguments", word);
  }
  bool to_object = !strcmp(new_name, "object");
  if (rc == 0 && !to_object) rc = ref_class_find(ops, new_name, &self.new_base);
  if (rc == 0 && !to_object &&
      ops->index->sources.items[self.new_base.file].lang != lang &&
      !(lang && !python && ref_ops_supports(ops, self.new_base.file, word) == 0 &&
        strcmp(lang->name, "javascript") != 0 &&
        strcmp(ops->index->sources.items[self.new_base.file].lang->name, "javascript") != 0))
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s: %s and %s are classes of two languages", word,
                        args->spec, new_name);
  if (rc == 0 && !to_object && !python &&
      ref_node_is(ref_class_node(ops, self.new_base.file, self.new_base.index),
                  "abstract_class_declaration"))
    rc = ref_ops_fail_at(
        ops, self.new_base.file,
        ops->program.files.items[self.new_base.file]->syms.items[self.new_base.index].start,
        "%s cannot yet check what an abstract base asks of %s", word, args->spec);
  if (rc == 0 && !to_object &&
      ref_class_descends(ops, self.new_base.file, self.new_base.index, klass.file, klass.index))
    rc = ref_ops_fail_at(
        ops, self.new_base.file,
        ops->program.files.items[self.new_base.file]->syms.items[self.new_base.index].start,
        "%s: %s is %s or a subclass of it: the inheritance would be a cycle", word, new_name,
        args->spec);
  if (to_object) self.new_base = (RefTarget){REF_TARGET_NONE, 0, 0};
  if (rc == 0 && self.replaced < bases.len &&
      ref_target_equal(bases.items[self.replaced].klass, self.new_base))
    rc = ref_ops_fail_at(ops, klass.file, ts_node_start_byte(bases.items[self.replaced].node),
                         "%s: %s already inherits from %s", word, args->spec, new_name);
  if (rc == 0 && python) rc = inherit__py_check_decorated(&self, word);
  if (rc == 0 && python) rc = inherit__py_check_foreign(&self, word, new_name);
  if (rc == 0 && !to_object) rc = inherit__check_order(&self, word);
  if (rc == 0) rc = inherit__check_uses(&self, word);
  if (rc == 0) rc = inherit__check_lost(&self, word);
  if (rc == 0 && !python) rc = inherit__check_constructor(&self, word);
  StrBuf text = {0};
  TSNode old_import = {0};
  if (rc == 0 && self.replaced < bases.len)
    old_import = inherit__old_import(ops, klass.file, bases.items[self.replaced].node);
  if (rc == 0 && !to_object) rc = inherit__new_name(&self, word, old_import, &text);
  if (rc == 0 && !python) {
    inherit__js_write(&self, node, text.data ? text.data : "");
    eddi_strbuf_printf(&ops->facts, "%s now inherits from %s", args->spec,
                       to_object ? "no class" : new_name);
  } else if (rc == 0) {
    TSNode list = ts_node_child_by_field_name(node, "superclasses", 12);
    size_t others = bases.len - (self.replaced < bases.len ? 1 : 0);
    if (self.replaced < bases.len && to_object && others == 0 &&
        ts_node_named_child_count(list) == 1) {
      /* The only base goes, and its parentheses. */
      ref_ops_edit(ops, klass.file, ts_node_start_byte(list), ts_node_end_byte(list), "", 0);
    } else if (self.replaced < bases.len && to_object) {
      /* One base of several: it and the comma after it (or before it). */
      TSNode base = bases.items[self.replaced].node;
      TSNode next = ts_node_next_named_sibling(base);
      TSNode prev = ts_node_prev_named_sibling(base);
      uint32_t start = ts_node_start_byte(base), end = ts_node_end_byte(base);
      if (!ts_node_is_null(next))
        end = ts_node_start_byte(next);
      else
        start = ts_node_end_byte(prev);
      ref_ops_edit(ops, klass.file, start, end, "", 0);
    } else if (self.replaced < bases.len) {
      TSNode base = bases.items[self.replaced].node;
      ref_ops_edit(ops, klass.file, ts_node_start_byte(base), ts_node_end_byte(base), text.data,
                   text.len);
    } else if (ts_node_is_null(list)) {
      TSNode name = ts_node_child_by_field_name(node, "name", 4);
      StrBuf paren = {0};
      eddi_strbuf_printf(&paren, "(%s)", text.data);
      ref_ops_edit(ops, klass.file, ts_node_end_byte(name), ts_node_end_byte(name), paren.data,
                   paren.len);
      eddi_strbuf_free(&paren);
    } else {
      /* "()" or only keywords: the base goes first. */
      uint32_t at = ts_node_start_byte(list) + 1;
      StrBuf first = {0};
      eddi_strbuf_printf(&first, "%s%s", text.data, ts_node_named_child_count(list) ? ", " : "");
      ref_ops_edit(ops, klass.file, at, at, first.data, first.len);
      eddi_strbuf_free(&first);
    }
    if (!ts_node_is_null(old_import) && to_object)
      ref_ops_remove_lines(ops, klass.file, ts_node_start_byte(old_import),
                           ts_node_end_byte(old_import));
    eddi_strbuf_printf(&ops->facts, "%s now inherits from %s", args->spec,
                       to_object ? "object" : new_name);
  }
  eddi_strbuf_free(&text);
  array_free(&bases);
  ref_words_free(&words);
  return rc;
}
