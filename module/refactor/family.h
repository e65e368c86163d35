/* family.h - the members a rename of a member renames with it, and the
 * hierarchy's reasons to refuse.
 *
 * Renaming a method must keep overriding as it was: the methods of the
 * same name that it overrides, that override it, or that a subclass sees
 * beside it (a mixin's method and the one it overrides in a class next to
 * it) are renamed together. The hierarchy also holds what refuses a
 * member rename: a class that already has the new name, a base outside
 * the workspace (its code may call the member by name), a lookup by a
 * computed name (getattr(self, name)), a field of an object whose fields
 * are all read by name (vars(obj), JSON.stringify(this)); the last three
 * pass when the command says Unsure or Leave. */
#ifndef EDDI_REFACTOR_FAMILY_H
#define EDDI_REFACTOR_FAMILY_H

#include "refactor/target.h"

typedef struct {
  RefProgram *program;
  RefIndex *index; /* the program's sources, for messages */
  uint32_t old_name, new_name;
  const char *new_text;
  bool unsure; /* the command said Unsure or Leave (plan.h) */
  EddiError *err;
} RefFamilyQuery;

/* Append target and, for a member, its family to family (no duplicates);
 * fail with the conflict that refuses the rename. */
int ref_family(const RefFamilyQuery *query, RefTarget target, RefTargets *family);

/* Whether class (file, klass) is one a caller of ref_family_computed_lookup
 * asks about. */
typedef bool (*RefClassFilter)(void *context, uint32_t file, uint32_t klass);

/* Whether a member is looked up by a computed name (getattr(obj, name),
 * hasattr) on a class, an instance of one or super(), where counts says
 * the class is one asked about: *file and *offset get the first such
 * lookup's place, in the program's order. */
bool ref_family_computed_lookup(RefProgram *program, RefClassFilter counts, void *context,
                                uint32_t *file, uint32_t *offset);
/* The same for an object whose fields are all read by their names
 * (vars(obj), obj.__dict__, JSON.stringify(obj), {...obj}): *offset is
 * the reading call's. */
bool ref_family_reflected(RefProgram *program, RefClassFilter counts, void *context,
                          uint32_t *file, uint32_t *offset);

#endif
