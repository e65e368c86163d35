/* script_undefined.h - names a script's changes bring in that nothing
 * defines (script_undefined.c), for the script's reply and a changeset's
 * Preview. */
#ifndef EDDI_SCRIPT_UNDEFINED_H
#define EDDI_SCRIPT_UNDEFINED_H

#include "core/common.h"
#include "syntax/syntax.h"

/* A file a script changed: the text it read and the text it leaves. */
typedef struct {
  const char *path;
  const EddiLang *lang; /* NULL: plain text */
  const char *before;
  size_t before_len;
  const char *after;
  size_t after_len;
} ScriptChangedText;

/* Append to out ("; "-separated) at most max of the new references to
 * undefined names in change, each as "path:line name" (0-based line, each
 * name once); returns how many there are in all. */
size_t script_undefined_names(const ScriptChangedText *change, StrBuf *out, size_t max);

/* How many a reply lists; the rest are counted. */
#define SCRIPT_UNDEFINED_LISTED 10

/* "Undefined: a.py:3 AccountManager; b.py:0 new_auth[ and 4 more]" for
 * changes[0, count) into out, nothing when there are none. */
void script_undefined_fact(const ScriptChangedText *changes, size_t count, StrBuf *out);

#endif
