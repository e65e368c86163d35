/* rename.h - renaming one entity everywhere it is referred to.
 *
 * A plan is made from an index (index.h) and writes nothing: it names the
 * entity (a qualified name, a position, or a plain name: its one
 * top-level definition), refuses a new name that is no identifier or a keyword,
 * finds every occurrence that resolves to the entity (a method with the
 * methods it overrides or that override it), lists the unsure ones, and
 * refuses conflicts with their positions: a name already defined in the
 * same scope or imported there, a reference the new name would shadow or
 * that would be shadowed, a member a base class or subclass already has.
 * Then the differential check: the changed files are analysed again in
 * memory (parsed from their kept trees, edited to the renamed spans, so
 * that only those are parsed again; index.h) and every occurrence of the
 * old and the new name (and every attribute and keyword of a changed file) must resolve to exactly what it
 * resolved to before, with no new syntax error. Only a plan that passes is
 * returned; the caller writes its texts in one transaction. */
#ifndef EDDI_REFACTOR_RENAME_H
#define EDDI_REFACTOR_RENAME_H

#include "refactor/index.h"
#include "refactor/plan.h"


/* Also rewrite the unsure occurrences (the command said Unsure; plan.h). */
#define REF_RENAME_UNSURE REF_UNSURE_CHANGE
/* The entity must be a class (Rename_Class). */
#define REF_RENAME_CLASS 2u

/* Plan renaming what spec names to new_name. spec: "path.py:name",
 * "path.py:Class.method", "path.py:L:C" (the name at a position, 0-based),
 * "module.name", "Class.method", or a plain name: its one top-level
 * definition, else the one entity that has it (target.h). */
int ref_rename_plan(RefIndex *index, const char *spec, const char *new_name, unsigned flags,
                    RefPlan *out, EddiError *err);
/* The same for the entity of the name at offset of source. */
int ref_rename_plan_at(RefIndex *index, uint32_t source, uint32_t offset, const char *new_name,
                       unsigned flags, RefPlan *out, EddiError *err);

/* The plan ref_rename_plan last made over index for the same spec,
 * new_name and flags, when the index has not changed since (index.h,
 * generation): a Refactor after its Preview. A copy without the
 * analyses of the new texts (after_file, after_tree: the check that used
 * them passed). EDDI_ENOENT when there is none. */
int ref_rename_plan_kept(RefIndex *index, const char *spec, const char *new_name, unsigned flags,
                         RefPlan *out);

#endif
