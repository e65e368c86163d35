/* modules_c.c - C's include graph and linkage; see modules.h.
 *
 * A translation unit sees the names of the headers it includes, and
 * through the linker every non-static function or variable of file scope
 * is one symbol across the program: the declaration in a header, the
 * definition in one .c file and the uses in the others are one entity.
 * Static functions and variables, typedef names, tags and enumeration
 * constants have no linkage (@linkage.internal in locals.scm): they are
 * found through the include graph only. A name found nowhere is unsure
 * when some file of the workspace defines it, since a header may reach
 * the file through an include of another header or of the .c file that
 * includes it. */
#include "refactor/modules.h"

/* Deepest chain of includes followed; headers nest a few levels. */
#define MODULES_C_INCLUDE_DEPTH_MAX 32

uint32_t ref_modules_c_file(RefProgram *program, uint32_t file, uint32_t path) {
  const char *spec = ref_names_str(program->names, path);
  const RefFile *from = program->files.items[file];
  const char *slash = strrchr(from->path, '/');
  StrBuf joined = {0};
  uint32_t found = REF_NONE;
  if (ref_modules_join(from->path, slash ? (size_t)(slash - from->path) : 0, spec, &joined))
    found = ref_modules_file(program, joined.data, joined.len);
  if (found == REF_NONE && ref_modules_join("", 0, spec, &joined))
    found = ref_modules_file(program, joined.data, joined.len);
  eddi_strbuf_free(&joined);
  return found;
}

/* Whether a symbol of file scope is linked across files. */
static bool modules_c__external(const RefFile *file, const RefSym *sym) {
  return sym->scope == 0 && (sym->kind == REF_SYM_FUNCTION || sym->kind == REF_SYM_VARIABLE) &&
         !(sym->flags & (REF_SYM_INTERNAL | REF_SYM_MACRO)) &&
         ref_modules_kind(file->lang) == REF_MODULES_INCLUDES;
}

/* The external symbols by name (a definition first), and every name some
 * C file defines at file scope. */
static void modules_c__tables(RefProgram *self) {
  if (self->c_ready) return;
  self->c_ready = true;
  for (uint32_t f = 0; f < self->files.len; f++) {
    const RefFile *file = self->files.items[f];
    if (ref_modules_kind(file->lang) != REF_MODULES_INCLUDES) continue;
    for (uint32_t s = 1; s < file->syms.len; s++) {
      const RefSym *sym = &file->syms.items[s];
      if (sym->scope != 0) continue;
      ref_map_put(&self->c_defined, sym->name, 1);
      if (!modules_c__external(file, sym)) continue;
      uint32_t had = ref_map_get(&self->c_externals, sym->name);
      bool better = had == REF_NONE;
      if (!better) {
        const RefTarget *old = &self->c_external_syms.items[had];
        const RefSym *old_sym = &self->files.items[old->file]->syms.items[old->index];
        better = old_sym->own_scope == REF_NONE && sym->own_scope != REF_NONE;
      }
      if (!better) continue;
      RefTarget target = {REF_TARGET_SYM, f, s};
      if (had == REF_NONE) {
        ref_map_put(&self->c_externals, sym->name, (uint32_t)self->c_external_syms.len);
        array_push(&self->c_external_syms, target);
      } else {
        self->c_external_syms.items[had] = target;
      }
    }
  }
}

RefTarget ref_modules_c_canonical(RefProgram *program, RefTarget target) {
  if (target.kind != REF_TARGET_SYM) return target;
  const RefFile *file = program->files.items[target.file];
  if (!modules_c__external(file, &file->syms.items[target.index])) return target;
  modules_c__tables(program);
  uint32_t at = ref_map_get(&program->c_externals, file->syms.items[target.index].name);
  return at == REF_NONE ? target : program->c_external_syms.items[at];
}

RefTarget ref_modules_c_lookup(RefProgram *program, uint32_t file, uint32_t name) {
  RefIds seen = {0}, depth = {0};
  array_push(&seen, file);
  array_push(&depth, 0);
  RefTarget found = {REF_TARGET_NONE, 0, 0};
  /* Breadth first: the nearer header's name first. */
  for (size_t i = 0; i < seen.len && found.kind == REF_TARGET_NONE; i++) {
    const RefFile *f = program->files.items[seen.items[i]];
    if (i) {
      uint32_t sym = ref_file_bound(f, 0, name);
      if (sym != REF_NONE) {
        found = ref_modules_c_canonical(program, (RefTarget){REF_TARGET_SYM, seen.items[i], sym});
        break;
      }
    }
    if (depth.items[i] >= MODULES_C_INCLUDE_DEPTH_MAX) continue;
    for (size_t k = 0; k < f->imports.len; k++) {
      const RefImport *import = &f->imports.items[k];
      if (import->kind != REF_IMPORT_ALL || import->path == REF_NONE) continue;
      uint32_t next = ref_modules_c_file(program, seen.items[i], import->path);
      bool known = next == REF_NONE;
      for (size_t j = 0; j < seen.len && !known; j++) known = seen.items[j] == next;
      if (known) continue;
      array_push(&seen, next);
      array_push(&depth, depth.items[i] + 1);
    }
  }
  array_free(&seen);
  array_free(&depth);
  if (found.kind != REF_TARGET_NONE) return found;
  modules_c__tables(program);
  uint32_t at = ref_map_get(&program->c_externals, name);
  if (at != REF_NONE) return program->c_external_syms.items[at];
  if (ref_map_get(&program->c_defined, name) != REF_NONE)
    return (RefTarget){REF_TARGET_UNSURE, 0, 0};
  return found;
}

RefTarget ref_modules_c_linked(RefProgram *program, RefTarget target, uint32_t name) {
  RefTarget none = {REF_TARGET_NONE, 0, 0};
  if (target.kind != REF_TARGET_SYM) return none;
  const RefFile *file = program->files.items[target.file];
  if (!modules_c__external(file, &file->syms.items[target.index])) return none;
  modules_c__tables(program);
  uint32_t at = ref_map_get(&program->c_externals, name);
  return at == REF_NONE ? none : program->c_external_syms.items[at];
}
