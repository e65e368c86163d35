/* family.h - the members a rename of a member renames with it, and the
 * hierarchy's reasons to refuse.
 *
 * Renaming a method must keep overriding as it was: the methods of the
 * same name that it overrides, that override it, or that a subclass sees
 * beside it (a mixin's method and the one it overrides in a class next to
 * it) are renamed together. The hierarchy also holds what refuses a
 * member rename: a class that already has the new name, a base outside
 * the workspace (its code may call the member by name), a lookup by a
 * computed name (getattr(self, name)); the last two pass when the command
 * says Unsure. */
#ifndef EDDI_REFACTOR_FAMILY_H
#define EDDI_REFACTOR_FAMILY_H

#include "refactor/target.h"

typedef struct {
  RefProgram *program;
  RefIndex *index; /* the program's sources, for messages */
  uint32_t old_name, new_name;
  const char *new_text;
  bool unsure; /* the command said Unsure */
  EddiError *err;
} RefFamilyQuery;

/* Append target and, for a member, its family to family (no duplicates);
 * fail with the conflict that refuses the rename. */
int ref_family(const RefFamilyQuery *query, RefTarget target, RefTargets *family);

#endif
