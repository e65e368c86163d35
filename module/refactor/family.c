/* family.c - a member's family in the class hierarchy, and the conflicts
 * the hierarchy holds; see family.h.
 *
 * The hierarchy is every class of the program with its workspace bases
 * (and so its subclasses). A member's family is closed under "an instance
 * of some class could find one instead of the other": for each class of
 * the family, its subclasses and every base of those. */
#include "refactor/family.h"

typedef struct {
  const RefFamilyQuery *query;
  RefTarget target;
  RefTargets *family;
} Family;

/* Whether a base expression names one of the language's plain bases
 * (object): a base that brings no members a method could override. */
static bool family__plain_base(Family *self, uint32_t file, uint32_t expr) {
  const RefFile *f = self->query->program->files.items[file];
  const RefExpr *e = &f->exprs.items[expr];
  if (e->kind != REF_EXPR_OCC || e->ref == REF_NONE) return false;
  const char *name = ref_names_str(self->query->program->names, f->occs.items[e->ref].name);
  for (size_t k = 0; k < EDDI_LANG_LIST_MAX && f->lang->plain_bases[k]; k++)
    if (strcmp(f->lang->plain_bases[k], name) == 0) return true;
  return false;
}

/* A member of a class with a base outside the workspace may override one
 * of that base's members, which code outside calls by name (a test
 * framework's setUp, a visitor's visit_Name): eddi cannot see it, so it
 * refuses unless told Unsure. */
static int family__external_base(Family *self, uint32_t file, uint32_t klass) {
  if (self->query->unsure) return 0;
  const RefFile *f = self->query->program->files.items[file];
  const RefSym *sym = &f->syms.items[klass];
  for (uint32_t b = 0; b < sym->bases_count; b++) {
    uint32_t expr = f->bases.items[sym->bases_first + b];
    RefValue base = ref_program_expr_value(self->query->program, file, expr);
    if (base.kind == REF_VALUE_CLASS || family__plain_base(self, file, expr)) continue;
    const RefExpr *e = &f->exprs.items[expr];
    const char *what = e->kind == REF_EXPR_OCC && e->ref != REF_NONE
                           ? ref_names_str(self->query->program->names, f->occs.items[e->ref].name)
                           : "a base";
    eddi_error_set(
        self->query->err, EDDI_EINVAL, "%s.%s may override a member of %s, %s",
        ref_names_str(self->query->program->names, sym->name),
        ref_names_str(self->query->program->names, self->query->old_name), what,
        base.kind == REF_VALUE_EXTERNAL ? "outside the workspace" : "which eddi cannot resolve");
    eddi_error_hint(self->query->err, "Add Unsure or Leave to rename it anyway");
    return EDDI_EINVAL;
  }
  return 0;
}

/* ---------------------------------------------------------------- the family */

/* What class (file, klass) itself defines as name: a name its body binds,
 * or one set through self that no base has. */
static RefTarget family__own_member(Family *self, uint32_t file, uint32_t klass, uint32_t name) {
  const RefFile *f = self->query->program->files.items[file];
  const RefSym *sym = &f->syms.items[klass];
  RefTarget none = {REF_TARGET_NONE, 0, 0};
  if (sym->own_scope == REF_NONE) return none;
  uint32_t own = ref_file_bound(f, sym->own_scope, name);
  if (own != REF_NONE)
    return ref_program_canonical(self->query->program, (RefTarget){REF_TARGET_SYM, file, own});
  uint32_t set = ref_map_get(&f->members, ref_key(klass, name));
  if (set == REF_NONE) return none;
  RefTarget found = ref_program_class_member(self->query->program, file, klass, name);
  RefTarget mine = {REF_TARGET_SYM, file, set};
  return ref_target_equal(found, mine) ? mine : none;
}

typedef struct {
  RefIds classes;         /* file, symbol pairs */
  RefMap by_class;        /* (file, symbol) -> index */
  Array(RefIds) bases;    /* per class: indices of its workspace bases */
  Array(RefIds) children; /* per class: the classes it is a base of */
} Hierarchy;

static void family__hierarchy(Family *self, Hierarchy *h) {
  RefProgram *program = self->query->program;
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *file = program->files.items[f];
    for (uint32_t s = 0; s < file->syms.len; s++) {
      /* A class body's owner, even when the name is also bound otherwise
       * (class T(Mixin, T) over an imported T): its bases still count. */
      uint32_t body = file->syms.items[s].own_scope;
      if (body == REF_NONE || file->scopes.items[body].kind != REF_SCOPE_CLASS) continue;
      ref_map_put(&h->by_class, ref_key(f, s), (uint32_t)(h->classes.len / 2));
      array_push(&h->classes, f);
      array_push(&h->classes, s);
    }
  }
  for (size_t c = 0; c < h->classes.len / 2; c++) {
    RefIds pairs = {0}, bases = {0};
    ref_program_bases(program, h->classes.items[2 * c], h->classes.items[2 * c + 1], &pairs);
    for (size_t i = 0; i + 1 < pairs.len; i += 2) {
      uint32_t base = ref_map_get(&h->by_class, ref_key(pairs.items[i], pairs.items[i + 1]));
      if (base != REF_NONE) array_push(&bases, base);
    }
    array_free(&pairs);
    array_push(&h->bases, bases);
    RefIds none = {0};
    array_push(&h->children, none);
  }
  for (size_t c = 0; c < h->bases.len; c++)
    for (size_t b = 0; b < h->bases.items[c].len; b++)
      array_push(&h->children.items[h->bases.items[c].items[b]], (uint32_t)c);
}

static void family__hierarchy_free(Hierarchy *h) {
  for (size_t i = 0; i < h->bases.len; i++) array_free(&h->bases.items[i]);
  for (size_t i = 0; i < h->children.len; i++) array_free(&h->children.items[i]);
  array_free(&h->bases);
  array_free(&h->children);
  array_free(&h->classes);
  ref_map_free(&h->by_class);
}

/* The classes above (up) or below class c, transitively, into out. */
static void family__related(const Hierarchy *h, uint32_t c, bool up, RefIds *out) {
  RefIds stack = {0};
  array_push(&stack, c);
  while (stack.len) {
    uint32_t at = stack.items[--stack.len];
    const RefIds *next = up ? &h->bases.items[at] : &h->children.items[at];
    for (size_t b = 0; b < next->len; b++) {
      uint32_t k = next->items[b];
      bool seen = k == c;
      for (size_t i = 0; i < out->len && !seen; i++) seen = out->items[i] == k;
      if (!seen) array_push(out, k), array_push(&stack, k);
    }
  }
  array_free(&stack);
}

static bool family__reaches(const Hierarchy *h, uint32_t from, uint32_t to, bool up) {
  RefIds found = {0};
  family__related(h, from, up, &found);
  bool reached = false;
  for (size_t i = 0; i < found.len && !reached; i++) reached = found.items[i] == to;
  array_free(&found);
  return reached;
}

/* How class other stands to class of, for the message of a conflict. */
static const char *family__relation(const Hierarchy *h, uint32_t of, uint32_t other) {
  if (of == other) return "the same class";
  if (family__reaches(h, of, other, true)) return "a base class";
  if (family__reaches(h, of, other, false)) return "a subclass";
  return "a base of a subclass";
}

/* The classes whose instances may see a member of class c: c, its
 * subclasses, and every base of those (a mixin's method overrides the one
 * of a class beside it in a subclass's bases). Into out, c first. */
static void family__mro_related(const Hierarchy *h, uint32_t c, RefIds *out) {
  RefIds down = {0};
  array_push(&down, c);
  family__related(h, c, false, &down);
  for (size_t d = 0; d < down.len; d++) {
    RefIds up = {0};
    array_push(&up, down.items[d]);
    family__related(h, down.items[d], true, &up);
    for (size_t u = 0; u < up.len; u++) {
      bool seen = false;
      for (size_t i = 0; i < out->len && !seen; i++) seen = out->items[i] == up.items[u];
      if (!seen) array_push(out, up.items[u]);
    }
    array_free(&up);
  }
  array_free(&down);
}

/* The first of the (expression, offset) pairs each file's list holds
 * whose value is a class counts says, an instance of one or super(). */
static bool family__first_on(RefProgram *program, bool reflections, RefClassFilter counts,
                             void *context, uint32_t *file, uint32_t *offset) {
  for (uint32_t f = 0; f < program->files.len; f++) {
    const RefFile *source = program->files.items[f];
    const RefIds *list = reflections ? &source->reflections : &source->dynamics;
    for (size_t i = 0; i + 1 < list->len; i += 2) {
      RefValue value = ref_program_expr_value(program, f, list->items[i]);
      if (value.kind != REF_VALUE_INSTANCE && value.kind != REF_VALUE_CLASS &&
          value.kind != REF_VALUE_SUPER)
        continue;
      if (!counts(context, value.file, value.index)) continue;
      *file = f, *offset = list->items[i + 1];
      return true;
    }
  }
  return false;
}

bool ref_family_computed_lookup(RefProgram *program, RefClassFilter counts, void *context,
                                uint32_t *file, uint32_t *offset) {
  return family__first_on(program, false, counts, context, file, offset);
}

bool ref_family_reflected(RefProgram *program, RefClassFilter counts, void *context,
                          uint32_t *file, uint32_t *offset) {
  return family__first_on(program, true, counts, context, file, offset);
}

typedef struct {
  const Hierarchy *h;
  const RefIds *classes; /* indices into h */
} FamilyClasses;

static bool family__among(void *context, uint32_t file, uint32_t klass) {
  const FamilyClasses *among = context;
  uint32_t c = ref_map_get(&among->h->by_class, ref_key(file, klass));
  for (size_t k = 0; k < among->classes->len; k++)
    if (among->classes->items[k] == c) return true;
  return false;
}

/* A member looked up by a computed name (getattr(self, name)) on a class
 * of the hierarchy: what the name is cannot be told, so the rename is
 * refused unless told Unsure. */
static int family__dynamic(Family *self, const Hierarchy *h, const RefIds *classes) {
  if (self->query->unsure) return 0;
  FamilyClasses among = {h, classes};
  uint32_t file, offset;
  if (!ref_family_computed_lookup(self->query->program, family__among, &among, &file, &offset))
    return 0;
  StrBuf at = {0};
  ref_target_place(self->query->index, file, offset, &at);
  eddi_error_set(self->query->err, EDDI_EINVAL, "%s may be looked up by a computed name at %s",
                 ref_names_str(self->query->program->names, self->query->old_name), at.data);
  eddi_error_hint(self->query->err, "Add Unsure or Leave to rename it anyway");
  eddi_strbuf_free(&at);
  return EDDI_EINVAL;
}

/* Whether the family holds a field: an attribute set through self, or a
 * name a class body binds to a value (a dataclass field, a class field).
 * Methods live on the class, so what reads an instance's fields by name
 * does not see them. */
static bool family__has_field(Family *self) {
  for (size_t i = 0; i < self->family->len; i++) {
    RefTarget t = self->family->items[i];
    if (t.kind != REF_TARGET_SYM) continue;
    RefSymKind kind = self->query->program->files.items[t.file]->syms.items[t.index].kind;
    if (kind == REF_SYM_MEMBER || kind == REF_SYM_VARIABLE) return true;
  }
  return false;
}

/* A field of an instance whose fields are all read by name (vars(obj),
 * dataclasses.asdict, JSON.stringify(this), Object.keys): renamed, the
 * key those reads give changes (the JSON written, the dict compared),
 * though every name still resolves. The instances that have the field are
 * those of the classes that define it and of their subclasses. Refused
 * unless told Unsure or Leave, as a computed lookup is. */
static int family__reflected(Family *self, const Hierarchy *h, const RefIds *work) {
  if (self->query->unsure || !family__has_field(self)) return 0;
  RefIds owners = {0};
  for (size_t w = 0; w < work->len; w++) {
    bool seen = false;
    for (size_t i = 0; i < owners.len && !seen; i++) seen = owners.items[i] == work->items[w];
    if (!seen) array_push(&owners, work->items[w]);
    family__related(h, work->items[w], false, &owners);
  }
  FamilyClasses among = {h, &owners};
  uint32_t file, offset;
  bool found = ref_family_reflected(self->query->program, family__among, &among, &file, &offset);
  array_free(&owners);
  if (!found) return 0;
  StrBuf at = {0};
  ref_target_place(self->query->index, file, offset, &at);
  eddi_error_set(self->query->err, EDDI_EINVAL,
                 "%s is a field of an object whose fields are all read by name at %s: "
                 "renamed, what is read there changes",
                 ref_names_str(self->query->program->names, self->query->old_name), at.data);
  eddi_error_hint(self->query->err, "Add Unsure or Leave to rename it anyway");
  eddi_strbuf_free(&at);
  return EDDI_EINVAL;
}

/* The hierarchy conflicts of the family's classes: a class whose
 * instances see the renamed member already has the new name; a base
 * outside the workspace; a computed-name lookup. */
static int family__hierarchy_conflicts(Family *self, const Hierarchy *h, const RefIds *work) {
  RefIds seen = {0};
  int rc = 0;
  for (size_t w = 0; w < work->len && rc == 0; w++) {
    RefIds related = {0};
    family__mro_related(h, work->items[w], &related);
    for (size_t i = 0; i < related.len && rc == 0; i++) {
      uint32_t c = related.items[i];
      uint32_t file = h->classes.items[2 * c], sym = h->classes.items[2 * c + 1];
      array_push(&seen, c);
      RefTarget clash = family__own_member(self, file, sym, self->query->new_name);
      if (clash.kind == REF_TARGET_SYM) {
        StrBuf where = {0}, name = {0};
        ref_target_where(self->query->program, self->query->index, clash, &where);
        const RefFile *f = self->query->program->files.items[file];
        eddi_strbuf_printf(&name, "%s.%s",
                           ref_names_str(self->query->program->names, f->syms.items[sym].name),
                           self->query->new_text);
        rc = eddi_error_set(self->query->err, EDDI_EINVAL, "Rename would clash with %s at %s (%s)",
                            name.data, where.data, family__relation(h, work->items[w], c));
        eddi_strbuf_free(&where), eddi_strbuf_free(&name);
      }
      if (rc == 0) rc = family__external_base(self, file, sym);
    }
    array_free(&related);
  }
  if (rc == 0) rc = family__dynamic(self, h, &seen);
  if (rc == 0) rc = family__reflected(self, h, work);
  array_free(&seen);
  return rc;
}

/* A member and every member of the same name that a class's instances
 * could see instead of it or through it (overridden, overriding, beside
 * it in a subclass's bases): renamed together, so that overriding stays
 * as it was. */
int ref_family(const RefFamilyQuery *query, RefTarget target, RefTargets *family) {
  Family state = {query, target, family};
  Family *self = &state;
  array_push(self->family, self->target);
  uint32_t klass = ref_target_class(self->query->program, self->target);
  if (klass == REF_NONE) return 0;
  Hierarchy h = {0};
  family__hierarchy(self, &h);
  RefIds work = {0};
  uint32_t first = ref_map_get(&h.by_class, ref_key(self->target.file, klass));
  if (first != REF_NONE) array_push(&work, first);
  for (size_t w = 0; w < work.len; w++) {
    RefIds related = {0};
    family__mro_related(&h, work.items[w], &related);
    for (size_t i = 0; i < related.len; i++) {
      uint32_t c = related.items[i];
      bool done = false;
      for (size_t j = 0; j < work.len; j++) done |= work.items[j] == c;
      if (done) continue;
      RefTarget own = family__own_member(self, h.classes.items[2 * c], h.classes.items[2 * c + 1],
                                         self->query->old_name);
      if (own.kind != REF_TARGET_SYM) continue;
      if (!ref_targets_has(self->family, own)) array_push(self->family, own);
      array_push(&work, c);
    }
    array_free(&related);
  }
  int rc = family__hierarchy_conflicts(self, &h, &work);
  array_free(&work);
  family__hierarchy_free(&h);
  return rc;
}
