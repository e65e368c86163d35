/* target.h - naming the entity a refactoring acts on, and naming it back.
 *
 * A command names an entity by a qualified name (path.py:Class.method,
 * package.module.function, Class.method), by a position (path.py:L:C, the
 * name there) or by a plain name; a plain or partly qualified name that
 * several entities have is refused with each candidate in a form that
 * names it alone, so that the caller can repeat the command with one. */
#ifndef EDDI_REFACTOR_TARGET_H
#define EDDI_REFACTOR_TARGET_H

#include "refactor/index.h"
#include "refactor/resolve.h"

typedef Array(RefTarget) RefTargets;

/* Whether list holds target. */
bool ref_targets_has(const RefTargets *list, RefTarget target);

/* Most candidates an ambiguity lists. */
#define REF_CANDIDATES_MAX 8

/* The entity spec names (program's files are index's sources, in order). */
int ref_target_find(RefProgram *program, RefIndex *index, const char *spec, RefTarget *out,
                    EddiError *err);
/* The entity of the name at offset of source (what names it in messages). */
int ref_target_at(RefProgram *program, uint32_t source, uint32_t offset, const char *what,
                  RefTarget *out, EddiError *err);
/* "path.py:Class.method" (or "path.py:L:C" inside a lambda or a
 * comprehension), "package.module" for a module. */
void ref_target_name(RefProgram *program, RefIndex *index, RefTarget target, StrBuf *out);
/* "path.py:L:C" of a symbol's first definition (or of a module's file). */
void ref_target_where(RefProgram *program, RefIndex *index, RefTarget target, StrBuf *out);
/* "path.py:L:C" of an offset of a source. */
void ref_target_place(RefIndex *index, uint32_t source, uint32_t offset, StrBuf *out);
/* The class a member target belongs to (its file is the target's), or REF_NONE. */
uint32_t ref_target_class(const RefProgram *program, RefTarget target);
/* The target's name (a module's last part). */
uint32_t ref_target_name_id(const RefProgram *program, RefTarget target);

#endif
