/* import_place.h - what an import says and where it goes in a file: one
 * answer for Insert Import (services/structure_insert.c) and a script's
 * add import (script/script_actions.c).
 *
 * The import goes after the file's last top-level import; without one,
 * after the file's header: a shebang, leading comments (an encoding line
 * among them), Python's module docstring and from __future__ lines,
 * JavaScript's directives ('use strict'), C's #pragma once or header guard,
 * a package line. It is written in the file's own form: #include <m> for a
 * header name, const m = require("m"); in a CommonJS file. An import that
 * would change the file's module system (an ES import into a CommonJS file)
 * is refused. */
#ifndef EDDI_IMPORT_PLACE_H
#define EDDI_IMPORT_PLACE_H

#include "core/common.h"
#include "syntax/syntax.h"

/* EddiImportPlan.present when the import is not in the file yet. */
#define EDDI_IMPORT_ABSENT SIZE_MAX

typedef struct {
  char *line;         /* owned: the import as written, without a final newline */
  size_t present;     /* where the same import already is, or EDDI_IMPORT_ABSENT */
  size_t at;          /* where it goes: a line's start, or the text's end */
  bool after_imports; /* after the last import (else after the header) */
  bool blank_before;  /* wants a blank line above it (after a header) */
  bool blank_after;   /* wants a blank line below it (before the code) */
} EddiImportPlan;

/* The file an import goes into: its text[0, len), its path (for its
 * extension), its language (NULL: plain text), its tree (NULL: none; its
 * offsets are text's). */
typedef struct {
  const EddiLang *lang;
  const EddiSyntax *syn;
  const char *path;
  const char *text;
  size_t len;
  /* JavaScript: the text of the package.json nearest above the file
   * (eddi_import_read_package), NULL when there is none. */
  const char *package_json;
  size_t package_json_len;
} EddiImportFile;

/* Read into out the package.json nearest above workspace file rel (its
 * folder, then each folder up to the root); false when there is none. */
bool eddi_import_read_package(int root_fd, const char *rel, StrBuf *out);

/* Plan the import of want (want_len bytes) into file: a module name ("os",
 * "stdio.h", "./log.js"), or a whole statement as the model wrote it (a
 * text with a blank or starting with '#'). Fills self, which the caller
 * frees with eddi_import_plan_free; fails, filling err, when the import
 * would change the file's module system. */
int eddi_import_plan(EddiImportPlan *self, const EddiImportFile *file, const char *want,
                     size_t want_len, EddiError *err);
void eddi_import_plan_free(EddiImportPlan *self);

/* How a file writes its imports (JavaScript): by require or by ES import,
 * with which quote, with or without a final ';'. */
typedef struct {
  bool commonjs;
  char quote;
  bool semicolon;
} EddiImportStyle;

/* The import of a module name in lang's form and the file's style; a whole
 * statement stays as given. A new string the caller frees with eddi_free. */
char *eddi_import_statement(const EddiLang *lang, const EddiImportStyle *style, const char *want,
                            size_t want_len);

#endif
