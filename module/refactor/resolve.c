/* resolve.c - targets and values across a program's files; see resolve.h.
 *
 * Every memo has three states (not yet, in progress, done): a cycle
 * (x = x.y, a class among its own bases, two modules importing each other's
 * names) meets an entry in progress and gets UNKNOWN or UNSURE instead of
 * looping. Chains through imports are bounded by REF_RESOLVE_DEPTH_MAX. */
#define _GNU_SOURCE /* memrchr */
#include "refactor/resolve.h"

#include "refactor/modules.h"

/* Longest chain of imports, bases or receivers followed; longer is unsure. */
#define REF_RESOLVE_DEPTH_MAX 64
/* Depth one more import of the same name costs: bounds the alternatives
 * followed (try: from a import f, except: from b import f) to 2^8. */
#define REF_RESOLVE_ALTERNATE_COST 8

enum { MEMO_TODO = 0, MEMO_BUSY = 1, MEMO_DONE = 2 };

struct RefMemo {
  uint8_t *target_state; /* per occurrence */
  RefTarget *targets;
  uint8_t *value_state; /* per symbol */
  RefValue *values;
  uint8_t *expr_state; /* per expression */
  RefValue *exprs;
};

static const RefTarget resolve__none = {REF_TARGET_NONE, 0, 0};
static const RefTarget resolve__unsure = {REF_TARGET_UNSURE, 0, 0};
static const RefValue resolve__unknown = {REF_VALUE_UNKNOWN, 0, 0};
static const RefValue resolve__external = {REF_VALUE_EXTERNAL, 0, 0};

static RefTarget resolve__sym(uint32_t file, uint32_t sym) {
  return (RefTarget){REF_TARGET_SYM, file, sym};
}

/* ---------------------------------------------------------------- modules */

/* The module path of a file of a language with package modules: the path
 * without its extension, or its folder for the folder's index module. */
static bool resolve__module_path(const RefFile *file, StrBuf *out, bool *package) {
  const EddiLang *lang = file->lang;
  if (!lang->modules || strcmp(lang->modules, "packages") != 0) return false;
  const char *path = file->path;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  if (!dot) return false;
  size_t stem = (size_t)(dot - base);
  *package = lang->module_index && strlen(lang->module_index) == stem &&
             memcmp(base, lang->module_index, stem) == 0;
  size_t len = *package ? (size_t)(base - path) : (size_t)(dot - path);
  if (*package && len) len--; /* the folder, without its slash */
  eddi_strbuf_clear(out);
  eddi_strbuf_append(out, path, len);
  return true;
}

static uint32_t resolve__add_module(RefProgram *self, const char *path, size_t len) {
  uint32_t name = ref_names_intern(self->names, path, len);
  uint32_t module = ref_map_get(&self->module_by_path, name);
  if (module != REF_NONE) return module;
  RefModule entry = {name, REF_NONE, true};
  array_push(&self->modules, entry);
  module = (uint32_t)self->modules.len - 1;
  ref_map_put(&self->module_by_path, name, module);
  /* Every folder above is a package too (a namespace one unless it has an
   * index file of its own). */
  const char *slash = len ? memrchr(path, '/', len) : NULL;
  resolve__add_module(self, path, slash ? (size_t)(slash - path) : 0);
  return module;
}

/* Where a file's extension stands in its language's list (lower first). */
static size_t resolve__extension_rank(const RefFile *file) {
  const char *dot = strrchr(file->path, '.');
  for (size_t k = 0; dot && k < EDDI_LANG_LIST_MAX && file->lang->extensions[k]; k++)
    if (strcmp(file->lang->extensions[k], dot) == 0) return k;
  return EDDI_LANG_LIST_MAX;
}

static void resolve__modules(RefProgram *self) {
  StrBuf path = {0};
  resolve__add_module(self, "", 0);
  for (uint32_t f = 0; f < self->files.len; f++) {
    bool package = false;
    uint32_t module = REF_NONE;
    const RefFile *file = self->files.items[f];
    RefModulesKind kind = ref_modules_kind(file->lang);
    if (kind == REF_MODULES_PATHS || kind == REF_MODULES_INCLUDES) {
      /* A module of its own, named by its whole path (no package has a
       * dot in its name, so no Python module is called so). */
      uint32_t name = ref_names_intern(self->names, file->path, strlen(file->path));
      RefModule entry = {name, f, false};
      module = (uint32_t)self->modules.len;
      array_push(&self->modules, entry);
      ref_map_put(&self->module_by_path, name, module);
    } else if (resolve__module_path(file, &path, &package)) {
      module = resolve__add_module(self, path.data ? path.data : "", path.len);
      RefModule *entry = &self->modules.items[module];
      /* m.py and m/ both: the file wins, as Python's import does; m.py
       * and m.pyi both: the extension language.conf lists first (the
       * stub is left out of the module table). */
      bool better = entry->file == REF_NONE ||
                    (!package && entry->package) ||
                    (package == entry->package &&
                     resolve__extension_rank(self->files.items[f]) <
                         resolve__extension_rank(self->files.items[entry->file]));
      if (better) entry->file = f, entry->package = package;
    }
    array_push(&self->file_module, module);
  }
  eddi_strbuf_free(&path);
}

uint32_t ref_program_module(RefProgram *self, const char *path) {
  uint32_t name = ref_names_find(self->names, path, strlen(path));
  return name == REF_NONE ? REF_NONE : ref_map_get(&self->module_by_path, name);
}

/* The module below base named name, or REF_NONE. */
static uint32_t resolve__submodule(RefProgram *self, uint32_t base, uint32_t name) {
  StrBuf path = {0};
  const char *prefix = ref_names_str(self->names, self->modules.items[base].path);
  eddi_strbuf_printf(&path, "%s%s%s", prefix, prefix[0] ? "/" : "",
                     ref_names_str(self->names, name));
  uint32_t found = ref_program_module(self, path.data);
  eddi_strbuf_free(&path);
  return found;
}

/* The folder module a relative import starts from: the importing file's
 * package, then level - 1 folders up. */
static uint32_t resolve__relative_base(RefProgram *self, uint32_t file, uint32_t level) {
  uint32_t module = self->file_module.items[file];
  if (module == REF_NONE) return REF_NONE;
  const char *path = ref_names_str(self->names, self->modules.items[module].path);
  size_t len = strlen(path);
  bool package = self->modules.items[module].package;
  for (uint32_t up = package ? 1 : 0; up < level; up++) {
    if (!len) return REF_NONE; /* above the workspace */
    const char *slash = memrchr(path, '/', len);
    len = slash ? (size_t)(slash - path) : 0;
  }
  uint32_t name = ref_names_find(self->names, path, len);
  return name == REF_NONE ? REF_NONE : ref_map_get(&self->module_by_path, name);
}

/* The module of parts[0, count) of import's path below base, or REF_NONE. */
static uint32_t resolve__below(RefProgram *self, uint32_t base, const RefFile *f,
                               const RefImport *import, uint32_t count) {
  uint32_t module = base;
  for (uint32_t i = 0; i < count && module != REF_NONE; i++)
    module = resolve__submodule(self, module, f->parts.items[import->parts_first + i]);
  return module;
}

/* The module of the first count parts of import's path, or REF_NONE (a
 * module outside the workspace). An absolute import is looked for from
 * the root, then from the importing file's folder (a script's sibling),
 * then from the project's import roots (src/), as sys.path is searched: a
 * module or a package with its own __init__.py found first for the first
 * part wins; a folder without one (a namespace package) only when no
 * folder searched has a module or a package of that name. */
static uint32_t resolve__import_module(RefProgram *self, uint32_t file, const RefImport *import,
                                       uint32_t count) {
  const RefFile *f = self->files.items[file];
  if (import->path != REF_NONE) {
    RefModulesKind kind = ref_modules_kind(f->lang);
    uint32_t found = kind == REF_MODULES_PATHS      ? ref_modules_js_file(self, file, import->path)
                     : kind == REF_MODULES_INCLUDES ? ref_modules_c_file(self, file, import->path)
                                                    : REF_NONE;
    return found == REF_NONE ? REF_NONE : self->file_module.items[found];
  }
  if (import->level) return resolve__below(self, resolve__relative_base(self, file, import->level),
                                           f, import, count);
  uint32_t root = ref_program_module(self, "");
  uint32_t own = resolve__relative_base(self, file, 1);
  Array(uint32_t) bases = {0};
  array_push(&bases, root);
  if (own != root && own != REF_NONE) array_push(&bases, own);
  for (size_t r = 0; r < self->root_count; r++) {
    uint32_t dir = ref_program_module(self, self->roots[r]);
    bool seen = dir == REF_NONE;
    for (size_t b = 0; !seen && b < bases.len; b++) seen = bases.items[b] == dir;
    if (!seen) array_push(&bases, dir);
  }
  uint32_t found = REF_NONE;
  bool regular = false;
  for (size_t b = 0; !regular && b < bases.len; b++) {
    uint32_t first = count ? resolve__below(self, bases.items[b], f, import, 1) : bases.items[b];
    if (first != REF_NONE && self->modules.items[first].file != REF_NONE)
      regular = true, found = resolve__below(self, bases.items[b], f, import, count);
  }
  for (size_t b = 0; !regular && found == REF_NONE && b < bases.len; b++)
    found = resolve__below(self, bases.items[b], f, import, count);
  array_free(&bases);
  return found;
}

static RefTarget resolve__module_member(RefProgram *self, uint32_t module, uint32_t name,
                                        unsigned depth);

/* A name a star import of file may bring: unsure when some module it
 * imports from the workspace has it. */
static RefTarget resolve__star(RefProgram *self, uint32_t file, uint32_t name, unsigned depth) {
  const RefFile *f = self->files.items[file];
  for (size_t i = 0; i < f->stars.len; i++) {
    const RefImport *import = &f->imports.items[f->stars.items[i]];
    uint32_t module = resolve__import_module(self, file, import, import->parts_count);
    if (module == REF_NONE) continue;
    RefTarget found = resolve__module_member(self, module, name, depth + 1);
    if (found.kind != REF_TARGET_NONE) return resolve__unsure;
  }
  return resolve__none;
}

/* A name a module re-exports whole from another (export * from "./m"):
 * exactly what that module has. */
static RefTarget resolve__reexport(RefProgram *self, uint32_t file, uint32_t name, unsigned depth) {
  const RefFile *f = self->files.items[file];
  if (ref_modules_kind(f->lang) != REF_MODULES_PATHS) return resolve__none;
  for (size_t i = 0; i < f->imports.len; i++) {
    const RefImport *import = &f->imports.items[i];
    if (import->kind != REF_IMPORT_ALL) continue;
    uint32_t module = resolve__import_module(self, file, import, import->parts_count);
    if (module == REF_NONE) continue;
    RefTarget found = resolve__module_member(self, module, name, depth + 1);
    if (found.kind != REF_TARGET_NONE) return found;
  }
  return resolve__none;
}

static RefTarget resolve__module_member(RefProgram *self, uint32_t module, uint32_t name,
                                        unsigned depth) {
  if (depth > REF_RESOLVE_DEPTH_MAX) return resolve__unsure;
  const RefModule *entry = &self->modules.items[module];
  if (entry->file != REF_NONE) {
    uint32_t sym = ref_file_bound(self->files.items[entry->file], 0, name);
    if (sym != REF_NONE) return resolve__sym(entry->file, sym);
  }
  if (entry->package) {
    uint32_t sub = resolve__submodule(self, module, name);
    if (sub != REF_NONE) return (RefTarget){REF_TARGET_MODULE, 0, sub};
  }
  if (entry->file != REF_NONE) {
    RefTarget again = resolve__reexport(self, entry->file, name, depth);
    if (again.kind != REF_TARGET_NONE) return again;
    return resolve__star(self, entry->file, name, depth);
  }
  return resolve__none;
}

RefTarget ref_program_module_member(RefProgram *self, uint32_t module, uint32_t name) {
  return ref_program_canonical(self, resolve__module_member(self, module, name, 0));
}

/* What import binds: the module (a part of its path) or the imported name. */
static RefTarget resolve__import(RefProgram *self, uint32_t file, uint32_t index, unsigned depth) {
  const RefImport *import = &self->files.items[file]->imports.items[index];
  if (import->kind == REF_IMPORT_STAR || import->kind == REF_IMPORT_ALL) return resolve__unsure;
  if (import->kind == REF_IMPORT_MODULE || import->kind == REF_IMPORT_DEFAULT) {
    uint32_t count = import->aliased ? import->parts_count : 1;
    uint32_t module = resolve__import_module(self, file, import, count);
    return module == REF_NONE ? resolve__none : (RefTarget){REF_TARGET_MODULE, 0, module};
  }
  uint32_t module = resolve__import_module(self, file, import, import->parts_count);
  if (module == REF_NONE || import->name == REF_NONE) return resolve__none;
  RefTarget found = resolve__module_member(self, module, import->name, depth + 1);
  /* from . import keys in the package's own __init__.py finds the name it
   * binds itself: it imports the submodule. */
  if (found.kind == REF_TARGET_SYM && found.file == file && found.index == import->sym) {
    uint32_t sub = self->modules.items[module].package
                       ? resolve__submodule(self, module, import->name)
                       : REF_NONE;
    found = sub == REF_NONE ? resolve__none : (RefTarget){REF_TARGET_MODULE, 0, sub};
  }
  /* A module whose default export is some value (module.exports = Store):
   * a name taken from it may be that value's. */
  uint32_t of = self->modules.items[module].file;
  if (found.kind == REF_TARGET_NONE && of != REF_NONE &&
      self->files.items[of]->default_export != REF_NONE)
    return resolve__unsure;
  return found;
}

/* Whether import finds no workspace module for the name it binds. */
static bool resolve__import_missing(RefProgram *self, uint32_t file, const RefImport *import) {
  if (import->kind == REF_IMPORT_FROM)
    return resolve__import_module(self, file, import, import->parts_count) == REF_NONE;
  if (import->kind == REF_IMPORT_MODULE)
    return resolve__import_module(self, file, import, import->aliased ? import->parts_count : 1) ==
           REF_NONE;
  return false;
}

bool ref_program_import_outside(RefProgram *self, uint32_t file, uint32_t index) {
  const RefFile *f = self->files.items[file];
  if (ref_modules_kind(f->lang) != REF_MODULES_PACKAGES) return false;
  const RefOcc *occ = &f->occs.items[index];
  if (occ->kind == REF_OCC_IMPORT_NAME && occ->import != REF_NONE)
    return resolve__import_missing(self, file, &f->imports.items[occ->import]);
  if (occ->kind == REF_OCC_MODULE_PART && occ->import != REF_NONE)
    return resolve__import_module(self, file, &f->imports.items[occ->import], occ->part + 1) ==
           REF_NONE;
  if (occ->kind != REF_OCC_NAME) return false;
  uint32_t sym = (occ->flags & REF_OCC_DEF) ? occ->sym : ref_file_lookup(f, occ->scope, occ->name);
  if (sym == REF_NONE) return false;
  const RefSym *s = &f->syms.items[sym];
  if (s->kind != REF_SYM_IMPORT || !(s->flags & REF_SYM_TRANSPARENT)) return false;
  for (uint32_t d = s->first_def; d != REF_NONE; d = f->occs.items[d].next_def) {
    uint32_t import = f->occs.items[d].import;
    if (import != REF_NONE && resolve__import_missing(self, file, &f->imports.items[import]))
      return true;
  }
  return false;
}

/* ---------------------------------------------------------------- the program */

void ref_program_init(RefProgram *self, RefNames *names, RefFile *const *files, size_t count) {
  memset(self, 0, sizeof *self);
  self->names = names;
  for (size_t i = 0; i < count; i++) {
    array_push(&self->files, files[i]);
    uint32_t path = ref_names_intern(names, files[i]->path, strlen(files[i]->path));
    ref_map_put(&self->file_by_path, path, (uint32_t)i);
  }
  self->memos = eddi_calloc(count ? count : 1, sizeof *self->memos);
  resolve__modules(self);
}

void ref_program_roots(RefProgram *self, char *const *dirs, size_t count) {
  self->roots = dirs;
  self->root_count = count;
}

void ref_program_free(RefProgram *self) {
  for (size_t i = 0; i < self->files.len; i++) {
    RefMemo *memo = &self->memos[i];
    eddi_free(memo->target_state), eddi_free(memo->targets);
    eddi_free(memo->value_state), eddi_free(memo->values);
    eddi_free(memo->expr_state), eddi_free(memo->exprs);
  }
  eddi_free(self->memos);
  array_free(&self->files);
  array_free(&self->modules);
  array_free(&self->file_module);
  ref_map_free(&self->module_by_path);
  ref_map_free(&self->file_by_path);
  ref_map_free(&self->foreign_writes);
  ref_map_free(&self->maybe_ours);
  ref_map_free(&self->c_externals);
  ref_map_free(&self->c_defined);
  array_free(&self->c_external_syms);
  memset(self, 0, sizeof *self);
}

static RefMemo *resolve__memo(RefProgram *self, uint32_t file) {
  RefMemo *memo = &self->memos[file];
  if (!memo->targets) {
    const RefFile *f = self->files.items[file];
    size_t occs = f->occs.len ? f->occs.len : 1, syms = f->syms.len ? f->syms.len : 1;
    size_t exprs = f->exprs.len ? f->exprs.len : 1;
    memo->target_state = eddi_calloc(occs, 1);
    memo->targets = eddi_calloc(occs, sizeof *memo->targets);
    memo->value_state = eddi_calloc(syms, 1);
    memo->values = eddi_calloc(syms, sizeof *memo->values);
    memo->expr_state = eddi_calloc(exprs, 1);
    memo->exprs = eddi_calloc(exprs, sizeof *memo->exprs);
  }
  return memo;
}

/* Attribute writes through receivers other than self, by name, over the
 * whole program: a member or module variable written from outside may hold
 * anything, so its value is not inferred. */
static uint32_t resolve__foreign_writes(RefProgram *self, uint32_t name) {
  if (!self->foreign_ready) {
    for (size_t f = 0; f < self->files.len; f++) {
      const RefFile *file = self->files.items[f];
      for (size_t i = 0; i < file->occs.len; i++) {
        const RefOcc *occ = &file->occs.items[i];
        if (occ->kind != REF_OCC_MEMBER || !(occ->flags & REF_OCC_WRITE) ||
            (occ->flags & REF_OCC_DEF))
          continue;
        uint32_t had = ref_map_get(&self->foreign_writes, occ->name);
        ref_map_put(&self->foreign_writes, occ->name, had == REF_NONE ? 1 : had + 1);
      }
    }
    self->foreign_ready = true;
  }
  uint32_t count = ref_map_get(&self->foreign_writes, name);
  return count == REF_NONE ? 0 : count;
}

/* ---------------------------------------------------------------- canonical */

static RefTarget resolve__canonical(RefProgram *self, RefTarget target, unsigned depth);

/* What an import symbol stands for: the one target all its imports agree
 * on. Imported twice from two places (try: from a import f, except
 * ImportError: from b import f), which one a use meets depends on the
 * run: unsure. */
static RefTarget resolve__imports_agree(RefProgram *self, uint32_t file, const RefSym *sym,
                                        unsigned depth) {
  const RefFile *f = self->files.items[file];
  uint32_t first = sym->first_def;
  RefTarget agreed = resolve__import(self, file, f->occs.items[first].import, depth);
  if (f->occs.items[first].next_def == REF_NONE) return agreed;
  agreed = resolve__canonical(self, agreed, depth + REF_RESOLVE_ALTERNATE_COST);
  for (uint32_t d = f->occs.items[first].next_def; d != REF_NONE; d = f->occs.items[d].next_def) {
    RefTarget one = resolve__import(self, file, f->occs.items[d].import, depth);
    if (!ref_target_equal(resolve__canonical(self, one, depth + REF_RESOLVE_ALTERNATE_COST), agreed))
      return resolve__unsure;
  }
  return agreed;
}

static RefTarget resolve__canonical(RefProgram *self, RefTarget target, unsigned depth) {
  for (; target.kind == REF_TARGET_SYM; depth++) {
    if (depth > REF_RESOLVE_DEPTH_MAX) return resolve__unsure;
    const RefFile *file = self->files.items[target.file];
    const RefSym *sym = &file->syms.items[target.index];
    if (sym->kind != REF_SYM_IMPORT || !(sym->flags & REF_SYM_TRANSPARENT)) break;
    target = resolve__imports_agree(self, target.file, sym, depth);
  }
  return ref_modules_c_canonical(self, target);
}

RefTarget ref_program_canonical(RefProgram *self, RefTarget target) {
  return resolve__canonical(self, target, 0);
}

/* ---------------------------------------------------------------- values */

static RefValue resolve__expr(RefProgram *self, uint32_t file, uint32_t expr, unsigned depth);

/* The class a value names for an annotation: an instance of it. */
static RefValue resolve__instance_of(RefValue type) {
  if (type.kind == REF_VALUE_CLASS) type.kind = REF_VALUE_INSTANCE;
  else type = resolve__unknown;
  return type;
}

/* Fold one more definition's value into agreed: false when it is not
 * known or disagrees. Nothing (None) is left out, unless it is all there is. */
static bool resolve__join(RefValue *agreed, RefValue value, bool *first) {
  if (value.kind == REF_VALUE_UNKNOWN || value.kind == REF_VALUE_EXTERNAL) return false;
  if (value.kind == REF_VALUE_NOTHING) {
    if (*first) *agreed = value, *first = false;
    return true;
  }
  if (!*first && agreed->kind != REF_VALUE_NOTHING && memcmp(&value, agreed, sizeof value) != 0)
    return false;
  *agreed = value, *first = false;
  return true;
}

/* Whether some write to sym's name is no definition of sym: a nonlocal
 * write in the file, or an attribute write from outside (members and
 * module variables). */
static bool resolve__written_elsewhere(RefProgram *self, uint32_t file, uint32_t index) {
  const RefFile *f = self->files.items[file];
  const RefSym *sym = &f->syms.items[index];
  if (sym->kind == REF_SYM_MEMBER || sym->scope == 0 ||
      f->scopes.items[sym->scope].kind == REF_SCOPE_CLASS)
    if (resolve__foreign_writes(self, sym->name)) return true;
  for (size_t i = 0; i < f->occs.len; i++) {
    const RefOcc *occ = &f->occs.items[i];
    if (occ->name == sym->name && occ->kind == REF_OCC_NAME && (occ->flags & REF_OCC_WRITE) &&
        !(occ->flags & REF_OCC_DEF))
      return true;
  }
  return false;
}

/* A variable's value: its annotation, else the one value every definition
 * assigns. A definition without evidence (a loop target, a parameter
 * without annotation) makes it unknown; so does a literal, which a later
 * write elsewhere may replace (x = None, then x = Handler()). */
static RefValue resolve__variable(RefProgram *self, uint32_t file, uint32_t index, unsigned depth) {
  const RefFile *f = self->files.items[file];
  const RefSym *sym = &f->syms.items[index];
  if (sym->flags & (REF_SYM_SELF | REF_SYM_CLS)) {
    uint32_t klass = ref_file_enclosing_class(f, sym->scope);
    if (klass == REF_NONE) return resolve__unknown;
    return (RefValue){sym->flags & REF_SYM_SELF ? REF_VALUE_INSTANCE : REF_VALUE_CLASS, file,
                      klass};
  }
  if (sym->flags & REF_SYM_MIXED) return resolve__unknown;
  RefValue agreed = resolve__unknown;
  bool first = true;
  for (uint32_t d = sym->first_def; d != REF_NONE; d = f->occs.items[d].next_def) {
    const RefOcc *occ = &f->occs.items[d];
    if (occ->type != REF_NONE)
      return resolve__instance_of(resolve__expr(self, file, occ->type, depth + 1));
  }
  if (resolve__written_elsewhere(self, file, index)) return resolve__unknown;
  for (uint32_t d = sym->first_def; d != REF_NONE; d = f->occs.items[d].next_def) {
    const RefOcc *occ = &f->occs.items[d];
    RefValue value = occ->value == REF_NONE ? resolve__unknown
                                            : resolve__expr(self, file, occ->value, depth + 1);
    if (!resolve__join(&agreed, value, &first)) return resolve__unknown;
  }
  return agreed;
}

/* What a default import gets: the module's default export, else the
 * module itself (require() of a module that sets exports.x, or a
 * namespace). */
static RefValue resolve__default(RefProgram *self, uint32_t file, uint32_t index, unsigned depth) {
  const RefImport *import = &self->files.items[file]->imports.items[index];
  uint32_t module = resolve__import_module(self, file, import, import->parts_count);
  if (module == REF_NONE) return resolve__external;
  uint32_t of = self->modules.items[module].file;
  if (of == REF_NONE || self->files.items[of]->default_export == REF_NONE)
    return (RefValue){REF_VALUE_MODULE, 0, module};
  return resolve__expr(self, of, self->files.items[of]->default_export, depth + 1);
}

static RefValue resolve__value(RefProgram *self, RefTarget target, unsigned depth);

/* An import symbol's value: the one value all its imports agree on
 * (import json, except ImportError: import simplejson as json is
 * unknown). */
/* Whether an import that finds no module may still mean one of the
 * workspace's, from a folder on sys.path eddi does not know of: a
 * relative one, or one whose dotted path is the end of a workspace
 * module's (import cart with shop/cart.py). Its value is then unknown, so
 * that the attributes read through it are unsure, not someone else's. */
static bool resolve__tail_is_module(RefProgram *self, const RefFile *f, const RefImport *import);

static bool resolve__maybe_ours(RefProgram *self, uint32_t file, const RefImport *import) {
  const RefFile *f = self->files.items[file];
  if (ref_modules_kind(f->lang) != REF_MODULES_PACKAGES || import->path != REF_NONE) return false;
  if (import->kind != REF_IMPORT_FROM && import->kind != REF_IMPORT_MODULE) return false;
  uint64_t key = ref_key(file, (uint32_t)(import - f->imports.items));
  uint32_t known = ref_map_get(&self->maybe_ours, key);
  if (known != REF_NONE) return known == 2;
  bool found = resolve__import_missing(self, file, import) &&
               (import->level || resolve__tail_is_module(self, f, import));
  ref_map_put(&self->maybe_ours, key, found ? 2 : 1);
  return found;
}

/* Whether the import's dotted path is the end of a workspace module's. */
static bool resolve__tail_is_module(RefProgram *self, const RefFile *f, const RefImport *import) {
  uint32_t count = import->kind == REF_IMPORT_MODULE && !import->aliased ? 1 : import->parts_count;
  StrBuf tail = {0};
  for (uint32_t i = 0; i < count; i++)
    eddi_strbuf_printf(&tail, "%s%s", i ? "/" : "",
                       ref_names_str(self->names, f->parts.items[import->parts_first + i]));
  bool found = false;
  for (size_t m = 0; tail.len && !found && m < self->modules.len; m++) {
    const char *path = ref_names_str(self->names, self->modules.items[m].path);
    size_t n = strlen(path);
    found = n >= tail.len && memcmp(path + n - tail.len, tail.data, tail.len) == 0 &&
            (n == tail.len || path[n - tail.len - 1] == '/');
  }
  eddi_strbuf_free(&tail);
  return found;
}

/* Whether name occurrence occ is bound by such an import under its own
 * name (import cart, then cart.total). */
static bool resolve__bound_maybe_ours(RefProgram *self, uint32_t file, uint32_t occ) {
  const RefFile *f = self->files.items[file];
  const RefOcc *o = &f->occs.items[occ];
  if (o->kind != REF_OCC_NAME || ref_modules_kind(f->lang) != REF_MODULES_PACKAGES) return false;
  uint32_t sym = (o->flags & REF_OCC_DEF) ? o->sym : ref_file_lookup(f, o->scope, o->name);
  if (sym == REF_NONE || f->syms.items[sym].kind != REF_SYM_IMPORT) return false;
  for (uint32_t d = f->syms.items[sym].first_def; d != REF_NONE; d = f->occs.items[d].next_def) {
    uint32_t import = f->occs.items[d].import;
    if (import != REF_NONE && resolve__maybe_ours(self, file, &f->imports.items[import]))
      return true;
  }
  return false;
}

static RefValue resolve__import_value(RefProgram *self, uint32_t file, const RefSym *sym,
                                      unsigned depth) {
  const RefFile *f = self->files.items[file];
  RefValue agreed = resolve__unknown;
  bool first = true;
  for (uint32_t d = sym->first_def; d != REF_NONE; d = f->occs.items[d].next_def) {
    uint32_t import = f->occs.items[d].import;
    if (import == REF_NONE) return resolve__unknown;
    RefValue value =
        f->imports.items[import].kind == REF_IMPORT_DEFAULT
            ? resolve__default(self, file, import, depth)
            : resolve__value(
                  self, ref_program_canonical(self, resolve__import(self, file, import, depth)),
                  depth + (d == sym->first_def ? 1 : REF_RESOLVE_ALTERNATE_COST));
    if (value.kind == REF_VALUE_EXTERNAL && resolve__maybe_ours(self, file, &f->imports.items[import]))
      value = resolve__unknown;
    if (d == sym->first_def && f->occs.items[d].next_def == REF_NONE) return value;
    if (!resolve__join(&agreed, value, &first)) return resolve__unknown;
  }
  return agreed;
}

static RefValue resolve__value(RefProgram *self, RefTarget target, unsigned depth) {
  if (depth > REF_RESOLVE_DEPTH_MAX) return resolve__unknown;
  switch (target.kind) {
    case REF_TARGET_NONE: return resolve__external;
    case REF_TARGET_UNSURE: return resolve__unknown;
    case REF_TARGET_MODULE: return (RefValue){REF_VALUE_MODULE, 0, target.index};
    case REF_TARGET_SYM: break;
  }
  RefMemo *memo = resolve__memo(self, target.file);
  if (memo->value_state[target.index] == MEMO_DONE) return memo->values[target.index];
  if (memo->value_state[target.index] == MEMO_BUSY) return resolve__unknown;
  memo->value_state[target.index] = MEMO_BUSY;
  const RefFile *f = self->files.items[target.file];
  const RefSym *sym = &f->syms.items[target.index];
  RefValue value = resolve__unknown;
  if (sym->flags & REF_SYM_MIXED) {
    value = resolve__unknown;
  } else if (sym->kind == REF_SYM_MODULE) {
    uint32_t module = self->file_module.items[target.file];
    if (module != REF_NONE) value = (RefValue){REF_VALUE_MODULE, 0, module};
  } else if (sym->kind == REF_SYM_CLASS) {
    value = (RefValue){REF_VALUE_CLASS, target.file, target.index};
  } else if (sym->kind == REF_SYM_FUNCTION) {
    if (!(sym->flags & REF_SYM_DECORATED))
      value = (RefValue){REF_VALUE_FUNCTION, target.file, target.index};
  } else if (sym->kind == REF_SYM_IMPORT) {
    value = resolve__import_value(self, target.file, sym, depth);
  } else {
    value = resolve__variable(self, target.file, target.index, depth);
  }
  memo->value_state[target.index] = MEMO_DONE;
  memo->values[target.index] = value;
  return value;
}

RefValue ref_program_value(RefProgram *self, RefTarget target) {
  return resolve__value(self, target, 0);
}

static RefTarget resolve__target(RefProgram *self, uint32_t file, uint32_t occ, unsigned depth);

/* What a call of function (file, index) gives: its return annotation,
 * else the one value all its returns give (unknown if one is not known or
 * they differ, or if it yields). */
static RefValue resolve__returns(RefProgram *self, uint32_t file, uint32_t index, unsigned depth) {
  const RefFile *f = self->files.items[file];
  const RefSym *fn = &f->syms.items[index];
  if ((fn->flags & (REF_SYM_GENERATOR | REF_SYM_MIXED)) || fn->own_scope == REF_NONE)
    return resolve__unknown;
  uint32_t annotation = f->occs.items[fn->first_def].type;
  if (annotation != REF_NONE)
    return resolve__instance_of(resolve__expr(self, file, annotation, depth + 1));
  RefValue agreed = resolve__unknown;
  bool first = true;
  for (size_t i = 0; i + 1 < f->returns.len; i += 2) {
    if (f->returns.items[i] != fn->own_scope) continue;
    RefValue value = resolve__expr(self, file, f->returns.items[i + 1], depth + 1);
    if (!resolve__join(&agreed, value, &first)) return resolve__unknown;
  }
  return agreed;
}

/* An element of the collection expression collection holds: an instance
 * of the element type its variable's annotation gives (Shape[],
 * list[Shape]), or for a call the called function's return annotation;
 * unknown without one. */
static RefValue resolve__element(RefProgram *self, uint32_t file, uint32_t collection,
                                 unsigned depth) {
  const RefExpr *e = &self->files.items[file]->exprs.items[collection];
  RefTarget target = resolve__none;
  if (e->kind == REF_EXPR_OCC && e->ref != REF_NONE) {
    target = resolve__target(self, file, e->ref, depth + 1);
  } else if (e->kind == REF_EXPR_CALL) {
    RefValue callee = resolve__expr(self, file, e->ref, depth + 1);
    if (callee.kind == REF_VALUE_FUNCTION)
      target = (RefTarget){REF_TARGET_SYM, callee.file, callee.index};
  }
  if (target.kind != REF_TARGET_SYM) return resolve__unknown;
  const RefFile *f = self->files.items[target.file];
  const RefSym *sym = &f->syms.items[target.index];
  if (sym->flags & REF_SYM_MIXED) return resolve__unknown;
  for (uint32_t d = sym->first_def; d != REF_NONE; d = f->occs.items[d].next_def)
    if (f->occs.items[d].elements != REF_NONE)
      return resolve__instance_of(
          resolve__expr(self, target.file, f->occs.items[d].elements, depth + 1));
  return resolve__unknown;
}

static RefValue resolve__expr(RefProgram *self, uint32_t file, uint32_t expr, unsigned depth) {
  if (expr == REF_NONE || depth > REF_RESOLVE_DEPTH_MAX) return resolve__unknown;
  RefMemo *memo = resolve__memo(self, file);
  if (memo->expr_state[expr] == MEMO_DONE) return memo->exprs[expr];
  if (memo->expr_state[expr] == MEMO_BUSY) return resolve__unknown;
  memo->expr_state[expr] = MEMO_BUSY;
  const RefExpr *e = &self->files.items[file]->exprs.items[expr];
  RefValue value = resolve__unknown;
  if (e->kind == REF_EXPR_LITERAL) {
    value = resolve__external;
  } else if (e->kind == REF_EXPR_NOTHING) {
    value = (RefValue){REF_VALUE_NOTHING, 0, 0};
  } else if (e->kind == REF_EXPR_OCC && e->ref != REF_NONE) {
    /* Inside if isinstance(x, T): x holds a T (or an instance of a subclass,
     * whose members' renames follow T's). */
    uint32_t narrow = self->files.items[file]->occs.items[e->ref].narrow;
    RefValue type = narrow != REF_NONE ? resolve__expr(self, file, narrow, depth + 1) : resolve__unknown;
    if (type.kind == REF_VALUE_CLASS)
      value = resolve__instance_of(type);
    else
      value = resolve__value(self, resolve__target(self, file, e->ref, depth + 1), depth + 1);
    if (value.kind == REF_VALUE_EXTERNAL && resolve__bound_maybe_ours(self, file, e->ref))
      value = resolve__unknown;
  } else if (e->kind == REF_EXPR_SELF) {
    uint32_t klass = ref_file_self_class(self->files.items[file], e->ref);
    if (klass != REF_NONE) value = (RefValue){REF_VALUE_INSTANCE, file, klass};
  } else if (e->kind == REF_EXPR_SUPER) {
    const RefFile *f = self->files.items[file];
    uint32_t klass = REF_NONE;
    for (uint32_t s = e->ref; s != REF_NONE && klass == REF_NONE; s = f->scopes.items[s].parent)
      klass = ref_file_enclosing_class(f, s);
    if (klass != REF_NONE) value = (RefValue){REF_VALUE_SUPER, file, klass};
  } else if (e->kind == REF_EXPR_ELEMENT) {
    value = resolve__element(self, file, e->ref, depth + 1);
  } else if (e->kind == REF_EXPR_CALL) {
    RefValue callee = resolve__expr(self, file, e->ref, depth + 1);
    if (callee.kind == REF_VALUE_CLASS)
      value = (RefValue){REF_VALUE_INSTANCE, callee.file, callee.index};
    else if (callee.kind == REF_VALUE_FUNCTION)
      value = resolve__returns(self, callee.file, callee.index, depth + 1);
  }
  memo->expr_state[expr] = MEMO_DONE;
  memo->exprs[expr] = value;
  return value;
}

RefValue ref_program_expr_value(RefProgram *self, uint32_t file, uint32_t expr) {
  return resolve__expr(self, file, expr, 0);
}

/* ---------------------------------------------------------------- members */

static RefTarget resolve__class_member(RefProgram *self, uint32_t file, uint32_t klass,
                                       uint32_t name, unsigned depth);

/* The member in the bases of a class, in order; unsure when a base is not
 * known and nothing before it had the name. */
static RefTarget resolve__base_member(RefProgram *self, uint32_t file, uint32_t klass,
                                      uint32_t name, unsigned depth) {
  const RefFile *f = self->files.items[file];
  const RefSym *sym = &f->syms.items[klass];
  for (uint32_t b = 0; b < sym->bases_count; b++) {
    RefValue base = resolve__expr(self, file, f->bases.items[sym->bases_first + b], depth + 1);
    if (base.kind == REF_VALUE_EXTERNAL) continue; /* object, or a class of a library */
    if (base.kind != REF_VALUE_CLASS) return resolve__unsure;
    RefTarget found = resolve__class_member(self, base.file, base.index, name, depth + 1);
    if (found.kind != REF_TARGET_NONE) return found;
  }
  return resolve__none;
}

static RefTarget resolve__class_member(RefProgram *self, uint32_t file, uint32_t klass,
                                       uint32_t name, unsigned depth) {
  if (depth > REF_RESOLVE_DEPTH_MAX) return resolve__unsure;
  const RefFile *f = self->files.items[file];
  const RefSym *sym = &f->syms.items[klass];
  if (sym->kind != REF_SYM_CLASS || sym->own_scope == REF_NONE) return resolve__unsure;
  uint32_t own = ref_file_bound(f, sym->own_scope, name);
  if (own != REF_NONE) return ref_program_canonical(self, resolve__sym(file, own));
  RefTarget inherited = resolve__base_member(self, file, klass, name, depth);
  if (inherited.kind != REF_TARGET_NONE) return inherited;
  uint32_t set = ref_map_get(&f->members, ref_key(klass, name));
  return set == REF_NONE ? resolve__none : resolve__sym(file, set);
}

RefTarget ref_program_class_member(RefProgram *self, uint32_t file, uint32_t klass, uint32_t name) {
  return resolve__class_member(self, file, klass, name, 0);
}

bool ref_program_bases(RefProgram *self, uint32_t file, uint32_t klass, RefIds *out) {
  const RefFile *f = self->files.items[file];
  const RefSym *sym = &f->syms.items[klass];
  bool all_known = true;
  for (uint32_t b = 0; b < sym->bases_count; b++) {
    RefValue base = resolve__expr(self, file, f->bases.items[sym->bases_first + b], 0);
    if (base.kind == REF_VALUE_CLASS) {
      array_push(out, base.file);
      array_push(out, base.index);
    } else if (base.kind != REF_VALUE_EXTERNAL) {
      all_known = false;
    }
  }
  return all_known;
}

/* Whether file exports name by a name of the module (module.exports.g =
 * g, exports.g = ..., module.exports = { g }). */
static bool resolve__exports_name(const RefFile *f, uint32_t name) {
  for (size_t i = 0; i < f->occs.len; i++) {
    const RefOcc *occ = &f->occs.items[i];
    if (occ->name == name && (occ->kind == REF_OCC_EXPORT || (occ->flags & REF_OCC_EXPORTED)))
      return true;
  }
  return false;
}

/* The attribute name of a function or class that its file makes what
 * require() gives (module.exports = bytes), when the file also exports
 * name on it (module.exports.format = format): that export, which the
 * importer reads as bytes.format. Else otherwise. */
static RefTarget resolve__default_member(RefProgram *self, RefValue value, uint32_t name,
                                         unsigned depth, RefTarget otherwise) {
  const RefFile *f = self->files.items[value.file];
  if (f->default_export == REF_NONE || depth > REF_RESOLVE_DEPTH_MAX ||
      !resolve__exports_name(f, name))
    return otherwise;
  RefValue exported = resolve__expr(self, value.file, f->default_export, depth + 1);
  if (exported.kind != value.kind || exported.file != value.file || exported.index != value.index)
    return otherwise;
  uint32_t module = self->file_module.items[value.file];
  return ref_program_canonical(self, resolve__module_member(self, module, name, depth + 1));
}

/* Whether class (file, klass) inherits from (afile, aklass), through the
 * bases the workspace knows (deeper than the limit counts as yes). */
static bool resolve__inherits(RefProgram *self, uint32_t file, uint32_t klass, uint32_t afile,
                              uint32_t aklass, unsigned depth) {
  if (depth > REF_RESOLVE_DEPTH_MAX) return true;
  const RefFile *f = self->files.items[file];
  const RefSym *sym = &f->syms.items[klass];
  for (uint32_t b = 0; b < sym->bases_count; b++) {
    RefValue base = resolve__expr(self, file, f->bases.items[sym->bases_first + b], depth + 1);
    if (base.kind != REF_VALUE_CLASS) continue;
    if ((base.file == afile && base.index == aklass) ||
        resolve__inherits(self, base.file, base.index, afile, aklass, depth + 1))
      return true;
  }
  return false;
}

/* Whether a class of the workspace that inherits from (file, klass)
 * defines name: an instance of the class may be one of that subclass, and
 * its code's self.name (this.name) that subclass's member. */
static bool resolve__subclass_defines(RefProgram *self, uint32_t file, uint32_t klass,
                                      uint32_t name, unsigned depth) {
  for (uint32_t f = 0; f < self->files.len; f++) {
    const RefFile *df = self->files.items[f];
    for (uint32_t s = 0; s < df->syms.len; s++) {
      const RefSym *sym = &df->syms.items[s];
      if (sym->name != name || sym->kind == REF_SYM_PARAMETER) continue;
      uint32_t k = sym->kind == REF_SYM_MEMBER ? sym->klass
                   : sym->scope != REF_NONE && sym->scope < df->scopes.len
                       ? df->scopes.items[sym->scope].owner
                       : REF_NONE;
      if (k == REF_NONE || k >= df->syms.len || df->syms.items[k].kind != REF_SYM_CLASS ||
          (f == file && k == klass))
        continue;
      if (resolve__inherits(self, f, k, file, klass, depth + 1)) return true;
    }
  }
  return false;
}

/* The attribute name of a value. */
static RefTarget resolve__member_of(RefProgram *self, RefValue value, uint32_t name,
                                    unsigned depth) {
  switch (value.kind) {
    case REF_VALUE_UNKNOWN: return resolve__unsure;
    case REF_VALUE_EXTERNAL:
    case REF_VALUE_NOTHING: return resolve__none;
    case REF_VALUE_FUNCTION: return resolve__default_member(self, value, name, depth, resolve__none);
    case REF_VALUE_MODULE:
      return ref_program_canonical(self,
                                   resolve__module_member(self, value.index, name, depth + 1));
    case REF_VALUE_CLASS: {
      RefTarget found = resolve__class_member(self, value.file, value.index, name, depth + 1);
      return found.kind == REF_TARGET_NONE
                 ? resolve__default_member(self, value, name, depth, found)
                 : found;
    }
    case REF_VALUE_INSTANCE: {
      RefTarget found = resolve__class_member(self, value.file, value.index, name, depth + 1);
      if (found.kind == REF_TARGET_NONE &&
          resolve__subclass_defines(self, value.file, value.index, name, depth))
        return resolve__unsure;
      return found;
    }
    case REF_VALUE_SUPER: {
      RefTarget found = resolve__base_member(self, value.file, value.index, name, depth + 1);
      return found.kind == REF_TARGET_NONE ? resolve__none : found;
    }
  }
  return resolve__unsure;
}

/* The parameter name of what a call calls. A class runs its constructor; a
 * class without one in the workspace (a dataclass, a named tuple) takes
 * keywords eddi cannot see, and so does a function with a ** parameter
 * that has no parameter of that name. */
static RefTarget resolve__keyword(RefProgram *self, RefValue callee, uint32_t name,
                                  unsigned depth) {
  if (callee.kind == REF_VALUE_EXTERNAL) return resolve__none;
  if (callee.kind == REF_VALUE_CLASS) {
    const EddiLang *lang = self->files.items[callee.file]->lang;
    if (!lang->constructor) return resolve__unsure;
    uint32_t init = ref_names_intern(self->names, lang->constructor, strlen(lang->constructor));
    RefTarget ctor = resolve__class_member(self, callee.file, callee.index, init, depth + 1);
    if (ctor.kind != REF_TARGET_SYM) return resolve__unsure;
    callee = resolve__value(self, ctor, depth + 1);
  }
  if (callee.kind != REF_VALUE_FUNCTION) return resolve__unsure;
  const RefFile *f = self->files.items[callee.file];
  const RefSym *fn = &f->syms.items[callee.index];
  if (fn->own_scope == REF_NONE || (fn->flags & REF_SYM_MIXED)) return resolve__unsure;
  uint32_t param = ref_file_bound(f, fn->own_scope, name);
  if (param != REF_NONE && f->syms.items[param].kind == REF_SYM_PARAMETER)
    return resolve__sym(callee.file, param);
  return resolve__unsure;
}

/* ---------------------------------------------------------------- targets */

/* A free name of a package's own module file (pkg/__init__.py) that names
 * one of its submodules: importing pkg.sub from anywhere (from .sub import
 * x in the package itself, most often) binds sub in pkg's namespace, which
 * is that file's globals, so the name is the submodule. */
static RefTarget resolve__own_submodule(RefProgram *self, uint32_t file, uint32_t name) {
  uint32_t module = self->file_module.items[file];
  if (module == REF_NONE || !self->modules.items[module].package ||
      self->modules.items[module].file != file)
    return resolve__none;
  uint32_t sub = resolve__submodule(self, module, name);
  return sub == REF_NONE ? resolve__none : (RefTarget){REF_TARGET_MODULE, 0, sub};
}

static RefTarget resolve__name(RefProgram *self, uint32_t file, uint32_t scope, uint32_t name,
                               unsigned depth) {
  uint32_t sym = ref_file_lookup(self->files.items[file], scope, name);
  if (sym != REF_NONE) return ref_program_canonical(self, resolve__sym(file, sym));
  RefModulesKind kind = ref_modules_kind(self->files.items[file]->lang);
  if (kind == REF_MODULES_INCLUDES) return ref_modules_c_lookup(self, file, name);
  RefTarget star = resolve__star(self, file, name, depth);
  if (star.kind != REF_TARGET_NONE || kind != REF_MODULES_PACKAGES) return star;
  return resolve__own_submodule(self, file, name);
}

static RefTarget resolve__compute(RefProgram *self, uint32_t file, uint32_t index, unsigned depth) {
  const RefFile *f = self->files.items[file];
  const RefOcc *occ = &f->occs.items[index];
  switch (occ->kind) {
    case REF_OCC_NAME:
      if (occ->flags & REF_OCC_DEF)
        return ref_program_canonical(self, resolve__sym(file, occ->sym));
      return resolve__name(self, file, occ->scope, occ->name, depth);
    case REF_OCC_MEMBER:
      if (occ->flags & REF_OCC_DEF) {
        const RefSym *member = &f->syms.items[occ->sym];
        uint32_t klass =
            member->kind == REF_SYM_MEMBER ? member->klass : f->scopes.items[member->scope].owner;
        if (klass == REF_NONE) return resolve__sym(file, occ->sym);
        return resolve__class_member(self, file, klass, occ->name, depth + 1);
      }
      if (occ->expr == REF_NONE) return resolve__unsure;
      return resolve__member_of(self, resolve__expr(self, file, occ->expr, depth + 1), occ->name,
                                depth);
    case REF_OCC_KEYWORD:
      if (occ->expr == REF_NONE) return resolve__unsure;
      return resolve__keyword(self, resolve__expr(self, file, occ->expr, depth + 1), occ->name,
                              depth);
    case REF_OCC_EXPORT: {
      uint32_t sym = ref_file_bound(f, 0, occ->name);
      if (sym != REF_NONE) return ref_program_canonical(self, resolve__sym(file, sym));
      return resolve__star(self, file, occ->name, depth);
    }
    case REF_OCC_IMPORT_NAME:
      return ref_program_canonical(self, resolve__import(self, file, occ->import, depth));
    case REF_OCC_MODULE_PART: {
      const RefImport *import = &f->imports.items[occ->import];
      uint32_t module = resolve__import_module(self, file, import, occ->part + 1);
      return module == REF_NONE ? resolve__none : (RefTarget){REF_TARGET_MODULE, 0, module};
    }
    case REF_OCC_STRING: return resolve__unsure;
  }
  return resolve__unsure;
}

static RefTarget resolve__target(RefProgram *self, uint32_t file, uint32_t occ, unsigned depth) {
  RefMemo *memo = resolve__memo(self, file);
  if (memo->target_state[occ] == MEMO_DONE) return memo->targets[occ];
  if (memo->target_state[occ] == MEMO_BUSY || depth > REF_RESOLVE_DEPTH_MAX) return resolve__unsure;
  memo->target_state[occ] = MEMO_BUSY;
  RefTarget target = resolve__compute(self, file, occ, depth);
  memo->target_state[occ] = MEMO_DONE;
  memo->targets[occ] = target;
  return target;
}

RefTarget ref_program_linked(RefProgram *self, RefTarget target, uint32_t name) {
  if (target.kind != REF_TARGET_SYM ||
      ref_modules_kind(self->files.items[target.file]->lang) != REF_MODULES_INCLUDES)
    return resolve__none;
  return ref_modules_c_linked(self, target, name);
}

RefTarget ref_program_target(RefProgram *self, uint32_t file, uint32_t occ) {
  return resolve__target(self, file, occ, 0);
}

/* ---------------------------------------------------------------- aliases */

/* What one definition of symbol sym brings under the symbol's name: a
 * named import's canonical target, the function or class a default
 * import gets, the name a module exports under another (export { f as g
 * }, module.exports = { g: f }); sym itself for anything else (an
 * assignment, a whole module: import a.b as c, exports.g = f, whose value
 * the query does not give), which is a name of its own. */
static RefTarget resolve__alias_of(RefProgram *self, RefTarget sym, uint32_t def, unsigned depth) {
  const RefFile *f = self->files.items[sym.file];
  const RefOcc *occ = &f->occs.items[def];
  if (occ->flags & REF_OCC_EXPORTED) {
    const RefExpr *value = occ->value != REF_NONE ? &f->exprs.items[occ->value] : NULL;
    if (!value || value->kind != REF_EXPR_OCC || value->ref == REF_NONE) return sym;
    return ref_program_canonical(self, resolve__target(self, sym.file, value->ref, depth + 1));
  }
  if (occ->import == REF_NONE) return sym;
  uint32_t import = occ->import;
  const RefImport *entry = &f->imports.items[import];
  if (entry->kind == REF_IMPORT_FROM)
    return ref_program_canonical(self, resolve__import(self, sym.file, import, depth));
  if (entry->kind == REF_IMPORT_DEFAULT) {
    RefValue value = resolve__default(self, sym.file, import, depth);
    if (value.kind == REF_VALUE_FUNCTION || value.kind == REF_VALUE_CLASS)
      return resolve__sym(value.file, value.index);
  }
  return sym;
}

RefTarget ref_program_entity(RefProgram *self, RefTarget target) {
  target = ref_program_canonical(self, target);
  for (unsigned depth = 0; target.kind == REF_TARGET_SYM; depth++) {
    if (depth > REF_RESOLVE_DEPTH_MAX) return resolve__unsure;
    const RefFile *f = self->files.items[target.file];
    const RefSym *sym = &f->syms.items[target.index];
    RefTarget found = target;
    bool aliased = false, other = false, differ = false;
    for (uint32_t d = sym->first_def; d != REF_NONE; d = f->occs.items[d].next_def) {
      RefTarget of = resolve__alias_of(self, target, d, depth);
      if (ref_target_equal(of, target)) {
        other = true;
        continue;
      }
      if (aliased && !ref_target_equal(of, found)) differ = true;
      found = of, aliased = true;
    }
    if (!aliased) break;
    /* Bound by an alias and by something else (or two aliases of two
     * things): which one a call meets depends on the flow. */
    if (other || differ) return resolve__unsure;
    target = found;
  }
  return target;
}
