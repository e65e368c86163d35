/* new_name.h - whether a name may be written as a new identifier.
 *
 * Every refactoring that writes a name the user chose (RenameSymbol,
 * Rename_Class, Extract_Method, Move_Method, Modify ... Rename, ...) checks
 * it here first, so that all of them refuse the same names the same way:
 * too long, a keyword, not an identifier of the language, or (Python) not
 * in the normal form the language reads it in, where it would silently be
 * another, possibly existing, name. */
#ifndef EDDI_REFACTOR_NEW_NAME_H
#define EDDI_REFACTOR_NEW_NAME_H

#include "core/common.h"
#include "syntax/syntax.h"

/* The longest new name, in bytes: the longest file name of Linux's file
 * systems (a module renamed becomes a file of that name), and far beyond
 * any name a person writes. */
#define REF_NEW_NAME_MAX_BYTES 255

/* 0 when name may be written in lang, else EDDI_EINVAL with err set: title
 * names the language in the message; invalid_hint (NULL: none) is the hint
 * of a name that is no identifier. */
int ref_new_name_check(const EddiLang *lang, const char *title, const char *name,
                       const char *invalid_hint, EddiError *err);

/* Whether all of name matches the PCRE2 pattern (false when the pattern
 * does not compile: a broken setting refuses nothing). */
bool ref_new_name_matches(const char *pattern, const char *name);

#endif
