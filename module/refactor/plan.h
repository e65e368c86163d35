/* plan.h - what a refactoring plans to write: the changed files' new texts
 * and what the reply says of them. Every operation (rename.h, ops.h) makes
 * one; the caller writes its texts in one transaction (edit/transaction.h). */
#ifndef EDDI_REFACTOR_PLAN_H
#define EDDI_REFACTOR_PLAN_H

#include "refactor/index.h"

typedef struct {
  uint32_t start, end;
} RefSpan;

typedef struct {
  uint32_t source;      /* index into the index's sources */
  char *new_path;       /* a module rename moves the file here; else NULL */
  Array(RefSpan) edits; /* sorted; each becomes the new name */
  char *after;          /* the new text */
  size_t after_len;
  RefFile *after_file; /* its analysis */
  TSTree *after_tree;  /* its syntax tree, when the plan made one (owned) */
} RefChange;

typedef struct {
  char *old_name;
  char *new_name;
  Array(RefChange) changes; /* in the index's order */
  size_t references;        /* occurrences rewritten */
  size_t unsure_count;
  StrBuf unsure; /* "a.py:12, b.py:40": unsure occurrences, 0-based lines */
  /* A module rename: what moves where ("pkg" -> "newpkg", "m.py" ->
   * "n.py"), the package's files that are no sources (moved as they are),
   * and the folder left empty (removed after the write), or NULL. */
  char *moved_from, *moved_to;
  RefPaths carry_from, carry_to;
  char *emptied;
} RefPlan;

void ref_plan_free(RefPlan *self);

#endif
