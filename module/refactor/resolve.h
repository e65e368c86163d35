/* resolve.h - what each name in a program refers to, across its files.
 *
 * A program is a set of analysed files (scope.h) and the modules their
 * paths make (for Python: m.py is module m, pkg/__init__.py is package
 * pkg, a folder of modules without one is a namespace package). Resolving
 * is lazy and memoised per program: the target of an occurrence is worked
 * out when asked for, following imports into other files, base classes and
 * the values of receivers, so that a rename asks only about the names it
 * cares about.
 *
 * Values are what an expression is known to hold, statically and without
 * flow: a module, a class, an instance of a class (from a call of the
 * class, an annotation, or self), a function; or something outside the
 * workspace (a builtin, an external module, a literal); or unknown. An
 * attribute on an unknown value, a keyword argument of an unknown callee,
 * a name a star import may bring and a string holding a name are UNSURE:
 * a rename lists them and leaves them alone.
 *
 * A program borrows its files; it is owned by one thread at a time. */
#ifndef EDDI_REFACTOR_RESOLVE_H
#define EDDI_REFACTOR_RESOLVE_H

#include "refactor/scope.h"

typedef enum {
  REF_TARGET_NONE,   /* nothing of the workspace: a builtin, an external name */
  REF_TARGET_SYM,    /* symbol index of file */
  REF_TARGET_MODULE, /* module index */
  REF_TARGET_UNSURE, /* cannot be told */
} RefTargetKind;

typedef struct {
  RefTargetKind kind;
  uint32_t file, index;
} RefTarget;

typedef enum {
  REF_VALUE_UNKNOWN,
  REF_VALUE_EXTERNAL, /* no workspace object: its attributes are none of ours */
  REF_VALUE_MODULE,   /* index: a module */
  REF_VALUE_CLASS,    /* file, index: the class symbol */
  REF_VALUE_INSTANCE, /* file, index: an instance of the class */
  REF_VALUE_FUNCTION, /* file, index: the function symbol */
  REF_VALUE_SUPER,    /* file, index: the bases of this class (super()) */
  REF_VALUE_NOTHING,  /* no value (None): left out where definitions agree on one */
} RefValueKind;

typedef struct {
  RefValueKind kind;
  uint32_t file, index;
} RefValue;

typedef struct {
  uint32_t path; /* interned: '/'-separated, without extension; "" for the root */
  uint32_t file; /* its file (m.py, pkg/__init__.py), or REF_NONE for a folder without one */
  bool package;  /* a folder */
} RefModule;

typedef struct RefMemo RefMemo;

typedef struct {
  RefNames *names;
  Array(RefFile *) files; /* borrowed */
  Array(RefModule) modules;
  RefMap module_by_path;       /* interned path -> module */
  RefMap file_by_path;         /* interned workspace path -> file */
  Array(uint32_t) file_module; /* per file: its module */
  RefMemo *memos;              /* per file */
  RefMap foreign_writes;       /* name -> attribute writes through a receiver other than self */
  bool foreign_ready;
  /* C (modules_c.c), made when first asked for. */
  RefMap c_externals;                /* name -> index into c_external_syms */
  Array(RefTarget) c_external_syms;  /* the one entity of each external symbol */
  RefMap c_defined;                  /* names some C file defines at file scope */
  bool c_ready;
  /* Python: the folders besides the root absolute imports are looked for
   * in (py_roots.h; borrowed, may be none). */
  char *const *roots;
  size_t root_count;
  RefMap maybe_ours; /* (file, import) -> 1 + whether an unfound import may mean the workspace's */
} RefProgram;

/* A program over files (borrowed; all analysed with names). */
void ref_program_init(RefProgram *self, RefNames *names, RefFile *const *files, size_t count);
void ref_program_free(RefProgram *self);
/* Look absolute imports up in the folders dirs[0, count) too, after the
 * root and the importing file's own folder (borrowed: they outlive it). */
void ref_program_roots(RefProgram *self, char *const *dirs, size_t count);

/* What occurrence occ of file refers to. */
RefTarget ref_program_target(RefProgram *self, uint32_t file, uint32_t occ);
/* What a symbol stands for: an import without an alias for what it
 * imports, anything else for itself. */
RefTarget ref_program_canonical(RefProgram *self, RefTarget target);
/* What a call through target calls: its canonical target, with an import
 * bound under a name of its own (from m import f as g, import { f as g },
 * const { f: g } = require(...), a default import of a function or class)
 * and a module's export under another name (export { f as g },
 * module.exports = { g: f }) followed to what they stand for. UNSURE when
 * the name is bound otherwise too (from m import f as g, then g = h) or
 * its definitions disagree. A rename keeps the alias's own name, so only
 * the operations that rewrite calls ask. */
RefTarget ref_program_entity(RefProgram *self, RefTarget target);
/* The value a symbol holds. */
RefValue ref_program_value(RefProgram *self, RefTarget target);
/* The value of expression expr of file. */
RefValue ref_program_expr_value(RefProgram *self, uint32_t file, uint32_t expr);
/* The member name of class (file, sym) or of its bases. */
RefTarget ref_program_class_member(RefProgram *self, uint32_t file, uint32_t klass, uint32_t name);
/* The base classes of a class that are classes of the workspace, and
 * whether some base is not (unknown or external). Appends (file, sym)
 * pairs to out. */
bool ref_program_bases(RefProgram *self, uint32_t file, uint32_t klass, RefIds *out);
/* The attribute name of module (a symbol it binds, or a submodule). */
RefTarget ref_program_module_member(RefProgram *self, uint32_t module, uint32_t name);
/* The entity of another name that target, a symbol, is linked with once
 * renamed to name: C's external symbol of that name (another file's
 * non-static function or variable), or a NONE target. */
RefTarget ref_program_linked(RefProgram *self, RefTarget target, uint32_t name);
/* Whether occurrence occ of file names what an import that finds no
 * module of the workspace brings: the imported name of from m import x,
 * a part of a module path not found, or a use of a name bound only by
 * such imports under its own name. The import may still mean a workspace
 * file, under a root eddi does not know: a rename of that name lists it
 * as unsure. */
bool ref_program_import_outside(RefProgram *self, uint32_t file, uint32_t occ);
/* The module path names in the workspace (interned "pkg/mod"), or REF_NONE. */
uint32_t ref_program_module(RefProgram *self, const char *path);
/* The module of a file. */
static inline uint32_t ref_program_file_module(const RefProgram *self, uint32_t file) {
  return self->file_module.items[file];
}

static inline bool ref_target_equal(RefTarget a, RefTarget b) {
  return a.kind == b.kind && a.file == b.file && a.index == b.index;
}

#endif
