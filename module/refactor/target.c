/* target.c - entities by name and position, and their names; see target.h. */
#include "refactor/target.h"

#include <ctype.h>

#include "core/utf8.h"
#include "lang/suggest.h"
#include "refactor/rename.h"

/* Most parts a qualified name may have (a.b.c.d ...). */
#define TARGET_PARTS_MAX 32

static const RefTarget target__none = {REF_TARGET_NONE, 0, 0};

bool ref_targets_has(const RefTargets *list, RefTarget target) {
  for (size_t i = 0; i < list->len; i++)
    if (ref_target_equal(list->items[i], target)) return true;
  return false;
}

/* ---------------------------------------------------------------- naming back */

void ref_target_place(RefIndex *index, uint32_t source, uint32_t offset, StrBuf *out) {
  const RefSource *s = &index->sources.items[source];
  size_t line, col;
  eddi_utf8_line_col(s->text, s->len, offset, &line, &col);
  eddi_strbuf_printf(out, "%s:%zu:%zu", s->path, line, col);
}

uint32_t ref_target_class(const RefProgram *program, RefTarget target) {
  if (target.kind != REF_TARGET_SYM) return REF_NONE;
  const RefFile *file = program->files.items[target.file];
  const RefSym *sym = &file->syms.items[target.index];
  if (sym->kind == REF_SYM_MEMBER) return sym->klass;
  if (sym->scope == REF_NONE || file->scopes.items[sym->scope].kind != REF_SCOPE_CLASS)
    return REF_NONE;
  return file->scopes.items[sym->scope].owner;
}

uint32_t ref_target_name_id(const RefProgram *program, RefTarget target) {
  if (target.kind == REF_TARGET_SYM)
    return program->files.items[target.file]->syms.items[target.index].name;
  if (target.kind != REF_TARGET_MODULE) return REF_NONE;
  const char *path = ref_names_str(program->names, program->modules.items[target.index].path);
  const char *last = strrchr(path, '/');
  last = last ? last + 1 : path;
  return ref_names_find(program->names, last, strlen(last));
}

void ref_target_where(RefProgram *program, RefIndex *index, RefTarget target, StrBuf *out) {
  if (target.kind == REF_TARGET_SYM) {
    const RefSym *sym = &program->files.items[target.file]->syms.items[target.index];
    ref_target_place(index, target.file, sym->start, out);
  } else if (target.kind == REF_TARGET_MODULE) {
    uint32_t file = program->modules.items[target.index].file;
    if (file != REF_NONE) eddi_strbuf_puts(out, index->sources.items[file].path);
    else
      eddi_strbuf_puts(out,
                       ref_names_str(program->names, program->modules.items[target.index].path));
  }
}

void ref_target_name(RefProgram *program, RefIndex *index, RefTarget target, StrBuf *out) {
  if (target.kind == REF_TARGET_MODULE) {
    const char *path = ref_names_str(program->names, program->modules.items[target.index].path);
    for (const char *p = path; *p; p++) eddi_strbuf_putc(out, *p == '/' ? '.' : *p);
    return;
  }
  if (target.kind != REF_TARGET_SYM) return;
  const RefFile *file = program->files.items[target.file];
  uint32_t chain[TARGET_PARTS_MAX];
  size_t count = 0;
  for (uint32_t s = target.index; s != REF_NONE && count < TARGET_PARTS_MAX;) {
    const RefSym *sym = &file->syms.items[s];
    chain[count++] = sym->name;
    if (sym->scope == 0) break;
    uint32_t owner = sym->scope == REF_NONE ? REF_NONE : file->scopes.items[sym->scope].owner;
    if (owner == REF_NONE) { /* a lambda or a comprehension: no name leads there */
      ref_target_where(program, index, target, out);
      return;
    }
    s = owner;
  }
  eddi_strbuf_printf(out, "%s:", file->path);
  for (size_t i = count; i-- > 0;)
    eddi_strbuf_printf(out, "%s%s", ref_names_str(program->names, chain[i]), i ? "." : "");
}

/* ---------------------------------------------------------------- finding */

typedef struct {
  RefProgram *program;
  RefIndex *index;
  RefTargets found;
} TargetSearch;

static void target__add(TargetSearch *self, RefTarget target) {
  if (target.kind != REF_TARGET_SYM && target.kind != REF_TARGET_MODULE) return;
  if (!ref_targets_has(&self->found, target)) array_push(&self->found, target);
}

/* The member name of container: a function's local or parameter, a class's
 * member (inherited ones too), a module's name or submodule. */
static RefTarget target__child(RefProgram *program, RefTarget container, uint32_t name) {
  if (container.kind == REF_TARGET_SYM) {
    const RefFile *file = program->files.items[container.file];
    const RefSym *sym = &file->syms.items[container.index];
    if (sym->kind == REF_SYM_FUNCTION || sym->kind == REF_SYM_MODULE) {
      uint32_t child =
          sym->own_scope == REF_NONE ? REF_NONE : ref_file_bound(file, sym->own_scope, name);
      if (child == REF_NONE) return target__none;
      return ref_program_canonical(program, (RefTarget){REF_TARGET_SYM, container.file, child});
    }
    if (sym->kind == REF_SYM_CLASS)
      return ref_program_class_member(program, container.file, container.index, name);
  }
  RefValue value = ref_program_value(program, container);
  if (value.kind == REF_VALUE_MODULE) return ref_program_module_member(program, value.index, name);
  if (value.kind == REF_VALUE_CLASS)
    return ref_program_class_member(program, value.file, value.index, name);
  return target__none;
}

/* Whether interned name is bare in a namespace of its own ("struct
 * point" for point, @namespace.struct): found by its bare name too. */
static bool target__namespaced(const RefProgram *program, uint32_t name, uint32_t bare) {
  const char *full = ref_names_str(program->names, name);
  const char *space = strrchr(full, ' ');
  return space && strcmp(space + 1, ref_names_str(program->names, bare)) == 0;
}

/* Every entity named name: symbols of any scope of file (REF_NONE: of
 * every file), and modules whose last part it is (every file only). */
static void target__named(TargetSearch *self, uint32_t only_file, uint32_t name) {
  RefProgram *program = self->program;
  for (uint32_t f = 0; f < program->files.len; f++) {
    if (only_file != REF_NONE && f != only_file) continue;
    const RefFile *file = program->files.items[f];
    for (uint32_t s = 1; s < file->syms.len; s++)
      if (file->syms.items[s].name == name ||
          target__namespaced(program, file->syms.items[s].name, name))
        target__add(self, ref_program_canonical(program, (RefTarget){REF_TARGET_SYM, f, s}));
  }
  if (only_file != REF_NONE) return;
  for (uint32_t m = 0; m < program->modules.len; m++) {
    RefTarget module = {REF_TARGET_MODULE, 0, m};
    if (ref_names_len(program->names, program->modules.items[m].path) &&
        ref_target_name_id(program, module) == name)
      target__add(self, module);
  }
}

/* Walk parts[1..] from each entity found for parts[0]. */
static void target__descend(TargetSearch *self, const uint32_t *parts, size_t count) {
  for (size_t k = 1; k < count; k++) {
    RefTargets next = {0};
    for (size_t i = 0; i < self->found.len; i++) {
      RefTarget child = target__child(self->program, self->found.items[i], parts[k]);
      if (child.kind == REF_TARGET_SYM || child.kind == REF_TARGET_MODULE) {
        bool seen = false;
        for (size_t j = 0; j < next.len; j++) seen |= ref_target_equal(next.items[j], child);
        if (!seen) array_push(&next, child);
      }
    }
    array_free(&self->found);
    self->found = next;
  }
}

/* The source index of path, or REF_NONE. */
static uint32_t target__source(RefIndex *index, const char *path, size_t len) {
  for (uint32_t i = 0; i < index->sources.len; i++) {
    const char *p = index->sources.items[i].path;
    if (strlen(p) == len && memcmp(p, path, len) == 0) return i;
  }
  return REF_NONE;
}

static bool target__number(const char *s, size_t len, size_t *out) {
  if (!len) return false;
  *out = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i])) return false;
    *out = *out * 10 + (size_t)(s[i] - '0');
  }
  return true;
}

/* A macro is text the preprocessor pastes: its uses cannot be resolved
 * as names, so it is not renamed. */
static int target__supported(RefProgram *program, RefTarget target, EddiError *err) {
  if (target.kind != REF_TARGET_SYM) return 0;
  const RefFile *file = program->files.items[target.file];
  const RefSym *sym = &file->syms.items[target.index];
  if (!(sym->flags & REF_SYM_MACRO)) return 0;
  return eddi_error_set(err, EDDI_EINVAL, "Not supported for %s: %s is a macro",
                        file->lang->title ? file->lang->title : file->lang->name,
                        ref_names_str(program->names, sym->name));
}

int ref_target_at(RefProgram *program, uint32_t source, uint32_t offset, const char *what,
                  RefTarget *out, EddiError *err) {
  const RefFile *file = program->files.items[source];
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (occ->start > offset || offset > occ->end) continue;
    RefTarget target = ref_program_target(program, source, i);
    if (target.kind == REF_TARGET_SYM || target.kind == REF_TARGET_MODULE) {
      *out = target;
      return target__supported(program, target, err);
    }
    if (target.kind == REF_TARGET_UNSURE)
      return eddi_error_set(err, EDDI_EINVAL, "What %s names cannot be told for sure", what);
  }
  return eddi_error_set(err, EDDI_ENOENT, "No workspace symbol at %s", what);
}

/* "path:L:C": the entity of the name at that position. */
static int target__position(TargetSearch *self, uint32_t source, size_t line, size_t col,
                            const char *spec, RefTarget *out, EddiError *err) {
  const RefSource *s = &self->index->sources.items[source];
  size_t offset = 0, at_line = 0;
  while (offset < s->len && at_line < line) at_line += s->text[offset++] == '\n';
  for (size_t c = 0; c < col && offset < s->len && s->text[offset] != '\n'; c++) {
    offset++;
    while (offset < s->len && ((unsigned char)s->text[offset] & 0xC0) == 0x80) offset++;
  }
  return ref_target_at(self->program, source, (uint32_t)offset, spec, out, err);
}

static void target__suggest(TargetSearch *self, const char *word, EddiError *err) {
  RefNames *names = self->program->names;
  Array(const char *) words = {0};
  for (size_t f = 0; f < self->program->files.len; f++) {
    const RefFile *file = self->program->files.items[f];
    for (size_t s = 1; s < file->syms.len; s++)
      array_push(&words, ref_names_str(names, file->syms.items[s].name));
  }
  const char *near = eddi_suggest(word, words.items, words.len);
  if (near) eddi_error_hint(err, "Did you mean \"%s\"", near);
  array_free(&words);
}

/* A bare name means its one top-level definition (a module's function,
 * class or variable, or a module) when there is one: a method is named
 * Class.m, a local function.local. Ambiguity is among definitions of the
 * same level. */
static void target__prefer_top_level(TargetSearch *self) {
  RefTargets top = {0};
  for (size_t i = 0; i < self->found.len; i++) {
    RefTarget t = self->found.items[i];
    if (t.kind == REF_TARGET_MODULE ||
        self->program->files.items[t.file]->syms.items[t.index].scope == 0)
      array_push(&top, t);
  }
  if (top.len) {
    array_free(&self->found);
    self->found = top;
  } else {
    array_free(&top);
  }
}

static int target__pick(TargetSearch *self, const char *spec, RefTarget *out, EddiError *err) {
  if (self->found.len == 1) {
    *out = self->found.items[0];
    return 0;
  }
  if (!self->found.len) {
    eddi_error_set(err, EDDI_ENOENT, "No definition of %s found", spec);
    const char *last = strrchr(spec, '.');
    const char *colon = strrchr(spec, ':');
    if (colon > last) last = colon;
    target__suggest(self, last ? last + 1 : spec, err);
    return EDDI_ENOENT;
  }
  eddi_error_set(err, EDDI_EINVAL, "Ambiguous name %s: %zu definitions", spec, self->found.len);
  StrBuf hint = {0};
  eddi_strbuf_puts(&hint, "Candidates ");
  for (size_t i = 0; i < self->found.len && i < REF_CANDIDATES_MAX; i++) {
    if (i) eddi_strbuf_puts(&hint, ", ");
    ref_target_name(self->program, self->index, self->found.items[i], &hint);
    if (self->found.items[i].kind == REF_TARGET_SYM) {
      eddi_strbuf_puts(&hint, " at ");
      ref_target_where(self->program, self->index, self->found.items[i], &hint);
    }
  }
  if (self->found.len > REF_CANDIDATES_MAX)
    eddi_strbuf_printf(&hint, " and %zu more", self->found.len - REF_CANDIDATES_MAX);
  eddi_error_hint(err, "%s", hint.data);
  eddi_strbuf_free(&hint);
  return EDDI_EINVAL;
}

/* Split "a.b.c" into interned parts; false if a part is empty. */
static bool target__split(RefNames *names, const char *text, uint32_t *parts, size_t *count) {
  *count = 0;
  for (const char *p = text;;) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    if (!len || *count == TARGET_PARTS_MAX) return false;
    parts[(*count)++] = ref_names_intern(names, p, len);
    if (!dot) return true;
    p = dot + 1;
  }
}

int ref_target_find(RefProgram *program, RefIndex *index, const char *spec, RefTarget *out,
                    EddiError *err) {
  TargetSearch search = {program, index, {0}};
  uint32_t parts[TARGET_PARTS_MAX];
  size_t count = 0;
  int rc = 0;
  const char *colon = strchr(spec, ':');
  uint32_t source = colon ? target__source(index, spec, (size_t)(colon - spec)) : REF_NONE;
  if (source != REF_NONE) {
    const char *rest = colon + 1;
    const char *second = strchr(rest, ':');
    size_t line, col;
    if (second && target__number(rest, (size_t)(second - rest), &line) &&
        target__number(second + 1, strlen(second + 1), &col))
      return target__position(&search, source, line, col, spec, out, err);
    if (!target__split(program->names, rest, parts, &count))
      return eddi_error_set(err, EDDI_EINVAL, "Not a qualified name: %s", spec);
    uint32_t sym = ref_file_bound(program->files.items[source], 0, parts[0]);
    if (sym != REF_NONE)
      target__add(&search,
                  ref_program_canonical(program, (RefTarget){REF_TARGET_SYM, source, sym}));
    else target__named(&search, source, parts[0]);
  } else {
    if (colon)
      return eddi_error_set(err, EDDI_ENOENT, "No source file %.*s", (int)(colon - spec), spec);
    if (!target__split(program->names, spec, parts, &count))
      return eddi_error_set(err, EDDI_EINVAL, "Not a qualified name: %s", spec);
    /* The longest leading parts that make a module path, else the first
     * part wherever it is defined. */
    StrBuf path = {0};
    size_t module_parts = 0;
    uint32_t module = REF_NONE;
    /* From the root, then from each import root (src/pkg/mod.py is pkg.mod). */
    for (size_t r = 0; r <= program->root_count; r++) {
      eddi_strbuf_clear(&path);
      if (r) eddi_strbuf_puts(&path, program->roots[r - 1]);
      for (size_t k = 0; k < count; k++) {
        eddi_strbuf_printf(&path, "%s%s", k || r ? "/" : "",
                           ref_names_str(program->names, parts[k]));
        uint32_t m = ref_program_module(program, path.data);
        if (m != REF_NONE && k + 1 > module_parts) module = m, module_parts = k + 1;
      }
    }
    eddi_strbuf_free(&path);
    if (module != REF_NONE && module_parts > 1) {
      target__add(&search, (RefTarget){REF_TARGET_MODULE, 0, module});
      memmove(parts + 1, parts + module_parts, (count - module_parts) * sizeof *parts);
      count -= module_parts - 1;
    } else {
      target__named(&search, REF_NONE, parts[0]);
    }
  }
  if (count == 1 && search.found.len > 1) target__prefer_top_level(&search);
  target__descend(&search, parts, count);
  rc = target__pick(&search, spec, out, err);
  if (rc == 0) rc = target__supported(program, *out, err);
  array_free(&search.found);
  return rc;
}
