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
  bool unsure_changeable; /* Unsure changes them too (a rename) */
  bool unsure_kept;       /* the operation showed they keep working as they are */
  char *unsure_of;        /* what they may refer to ("Cart.total", "f"), or NULL */
  const char *unsure_why; /* static: what would have kept them working, or NULL */
  /* A module rename: what moves where ("pkg" -> "newpkg", "m.py" ->
   * "n.py"), the package's files that are no sources (moved as they are),
   * and the folder left empty (removed after the write), or NULL. */
  char *moved_from, *moved_to;
  RefPaths carry_from, carry_to;
  char *emptied;
} RefPlan;

void ref_plan_free(RefPlan *self);

/* ---------------------------------------------------------------- unsure references
 *
 * One rule for every refactoring: a change that leaves references it
 * could not resolve (unsure ones) would leave code that may break, so it
 * is not written unless the caller chose a way on: Unsure (change them
 * too; the renames can) or Leave (write without them, knowingly). An
 * operation that shows they keep working as they are (a parameter added
 * at the end with a default) needs neither. Preview writes nothing and is
 * never refused; it says which way a write needs. */

/* Change the unsure references too (the command said Unsure). */
#define REF_UNSURE_CHANGE 1u
/* Write without the unsure references (the command said Leave). */
#define REF_UNSURE_LEAVE 4u

/* Whether self leaves unsure references that a write needs a way for,
 * given flags (REF_UNSURE_*). */
bool ref_plan_unsure_left(const RefPlan *self, unsigned flags);
/* The ways on that self offers: "Unsure or Leave", or "Leave". */
const char *ref_plan_unsure_ways(const RefPlan *self);
/* Refuse writing self when ref_plan_unsure_left. 0, or EDDI_EINVAL with
 * err set: "N references to <unsure_of> cannot be resolved: a.py:12, ...;
 * nothing written", and the ways on as the hint. */
int ref_plan_unsure_check(const RefPlan *self, unsigned flags, EddiError *err);

#endif
