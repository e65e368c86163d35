/* eddi_grammars.h - the grammars compiled into eddi, and their queries.
 *
 * The table is generated at build time (grammars/embed.cmake) from the list
 * of grammar folders in grammars/CMakeLists.txt and the files under
 * grammars/queries/<name>/: adding a language adds a folder and queries,
 * never C. */
#ifndef EDDI_GRAMMARS_H
#define EDDI_GRAMMARS_H

#include <stddef.h>
#include <tree_sitter/api.h>

typedef struct {
  const char *name;                  /* "python", the queries folder's name */
  const TSLanguage *(*language)(void);
  const char *structure;             /* queries/<name>/structure.scm ("" if none) */
  const char *details;               /* queries/<name>/details.scm */
  const char *locals;                /* queries/<name>/locals.scm: names and scopes */
  const char *config;                /* queries/<name>/language.conf */
} EddiGrammar;

extern const EddiGrammar eddi_grammar_table[];
extern const size_t eddi_grammar_count;

#endif
