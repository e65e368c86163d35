/* modules.h - how an import names a file, per language family.
 *
 * The resolver (resolve.c) knows no language, but the way an import
 * statement finds its file is language knowledge no query can hold: a
 * Python dotted module is looked up in the package tree, a JavaScript or
 * TypeScript path is relative to the importing file and may leave out its
 * extension or name a folder's index file, and a C #include "x.h" is
 * looked for beside the including file and then from the workspace root.
 * language.conf's "modules" key says which family a language is in; the
 * Python rules stay in resolve.c, the others are in modules_js.c and
 * modules_c.c. C also links: a name a file does not bind may be an
 * external symbol defined in another translation unit, and every
 * non-static file-scope function or variable of that name in the
 * workspace is one entity. */
#ifndef EDDI_REFACTOR_MODULES_H
#define EDDI_REFACTOR_MODULES_H

#include "refactor/resolve.h"

typedef enum {
  REF_MODULES_NONE,
  REF_MODULES_PACKAGES, /* "packages": dotted modules and packages (Python) */
  REF_MODULES_PATHS,    /* "paths": relative file paths and index files (JavaScript, TypeScript) */
  REF_MODULES_INCLUDES, /* "includes": #include "x.h", one entity per external symbol (C) */
} RefModulesKind;

RefModulesKind ref_modules_kind(const EddiLang *lang);

/* The file of workspace path (its bytes [0, len)), or REF_NONE. */
uint32_t ref_modules_file(RefProgram *program, const char *path, size_t len);
/* dir joined with a relative path, "." and ".." folded, into out; false
 * when it leaves the workspace. */
bool ref_modules_join(const char *dir, size_t dir_len, const char *rel, StrBuf *out);

/* JavaScript and TypeScript: the file the import path (interned) names
 * from file: "./a", "./a.js", "../lib" (lib/index.js), or REF_NONE for a
 * package outside the workspace. */
uint32_t ref_modules_js_file(RefProgram *program, uint32_t file, uint32_t path);

/* C: the file #include "path" names from file, or REF_NONE. */
uint32_t ref_modules_c_file(RefProgram *program, uint32_t file, uint32_t path);
/* C: what name means in file when no scope of the file binds it: a name
 * of an included file (transitively), else the program's external symbol
 * of that name, else unsure when some file of the workspace defines it
 * (a header the file gets through another's include), else none. */
RefTarget ref_modules_c_lookup(RefProgram *program, uint32_t file, uint32_t name);
/* C: the external symbol called name that target, an external symbol
 * too, would be one entity with; a NONE target when there is none or
 * target has no linkage. */
RefTarget ref_modules_c_linked(RefProgram *program, RefTarget target, uint32_t name);
/* C: the one entity an external symbol is (its first definition in the
 * workspace, else its first declaration); target itself otherwise. */
RefTarget ref_modules_c_canonical(RefProgram *program, RefTarget target);

#endif
