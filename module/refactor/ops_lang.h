/* ops_lang.h - what the refactorings past rename need to know of each
 * language's syntax: the tree-sitter node types of calls, arguments and
 * parameter lists, and what a language allows (defaults, keyword
 * arguments, a self parameter).
 *
 * Name resolution knows no language (its knowledge is in locals.scm), but
 * an operation that rewrites code has to write the language: a call's
 * arguments, a parameter with its type. Those facts live in one table per
 * language, so that an operation works in every language the table
 * describes and says precisely what it cannot do in one (the table's
 * reasons). */
#ifndef EDDI_REFACTOR_OPS_LANG_H
#define EDDI_REFACTOR_OPS_LANG_H

#include "refactor/ops.h"

typedef struct {
  const char *name;        /* EddiLang's name: "python", "c", "javascript", ... */
  const char *call;        /* a call node (fields function, arguments) */
  const char *arguments;   /* its argument list */
  const char *member;      /* a member access (fields object and property/attribute) */
  const char *const *spreads; /* argument nodes that pass a list or a map: unsure calls */
  const char *const *skipped; /* argument or parameter nodes that are no value (comments) */
  bool defaults;           /* a parameter may have a default */
  bool keywords;           /* a call may pass an argument by name */
  bool self_param;         /* a method names its instance as its first parameter */
  bool typed_params;       /* a parameter is written with its type (C) */
  const char *rest;        /* how a rest parameter is written ("..."), or NULL */
  const char *no_params;   /* what an empty parameter list says ("void"), or NULL */
} RefOpsLang;

/* The table of the language called name, or NULL. */
const RefOpsLang *ref_ops_lang(const char *name);

/* Why operation word cannot be made safe for language name, or NULL when
 * it can (or when no reason is known). */
const char *ref_ops_lang_why(const char *name, const char *word);

/* Hint at the languages operation word is built for ("Refactor
 * Extract_Method works in python, javascript, ..."). */
void ref_ops_lang_hint(EddiError *err, const char *word);

/* The table of source's language when operation word is built for it;
 * else fails with "Not supported for <lang>: <why>". */
int ref_ops_syntax(RefOps *self, uint32_t source, const char *word, const RefOpsLang **out);

/* The language's name for messages ("C", "JavaScript"). */
const char *ref_ops_lang_title(const EddiLang *lang);

/* The parameter list of the function a definition's name node names: C's
 * declarator's, a JavaScript function's or method's, or that of the
 * function a variable is initialized with (an arrow function's one
 * parameter without brackets is its identifier); or a null node. *fn
 * gets the function node (C: the definition or declaration). */
TSNode ref_ops_params_of(TSNode name, TSNode *fn);

/* ---------------------------------------------------------------- text of a language */

/* The name a C parameter declares ("const int *p", "int (*op)(int)",
 * "char s[N]"): [*at, *at + *len) of text, its declarator's identifier;
 * *len is 0 when there is none ("int"). */
void ref_ops_c_param_name(const char *text, size_t *at, size_t *len);

/* Whether text is a literal a call may be given instead of a default: a
 * number, a string without interpolation, true, false, null, undefined. */
bool ref_ops_literal(const char *text);

/* Whether an argument's text may have effects: a call, an increment, an
 * assignment (lang's operators). Such ones must keep their order. */
bool ref_ops_effects(const RefOpsLang *lang, const char *text);

/* The type a C variable or parameter (symbol sym of file f) is declared
 * with: its declaration's specifiers and qualifiers, and the stars of a
 * pointer ("const char *"); NULL for one declared otherwise (an array, a
 * function pointer, a static). A new string the caller frees. */
char *ref_ops_c_declared_type(RefOps *ops, uint32_t f, uint32_t sym);

/* Whether a C value (node value, its text) needs no conversion to type:
 * an integer literal for an int. */
bool ref_ops_c_same_type(const char *type, TSNode value, const char *text);

/* Whether node's type is one of types (NULL-terminated). */
bool ref_ops_lang_is(TSNode node, const char *const *types);

#endif
