/* script_undefined.h - what a script's changes break: names nothing
 * defines, and syntax errors (script_undefined.c), for the script's reply
 * and a changeset's Preview. */
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

/* What changes bring in: new references to undefined names, each as
 * "path:line name" (0-based line, each name once a file), and the lines of
 * new syntax errors, "path:line"; the first SCRIPT_PROBLEMS_LISTED of
 * each kind are listed, the rest counted. */
typedef struct {
  StrBuf undefined, syntax;
  size_t undefined_count, syntax_count;
} ScriptProblems;

#define SCRIPT_PROBLEMS_LISTED 10

void script_problems_add(ScriptProblems *problems, const ScriptChangedText *change);

/* "Undefined: a.py:3 AccountManager; b.py:0 new_auth[ and 4 more], Syntax
 * errors: a.py:7[ and 2 more]" for changes[0, count) appended to out, each
 * part only when there is one. */
void script_problems_fact(const ScriptChangedText *changes, size_t count, StrBuf *out);

#endif
