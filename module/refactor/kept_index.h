/* kept_index.h - the index a workspace keeps between refactorings.
 *
 * A job takes the workspace's index on the owner thread when it starts, uses
 * it on its worker (scanning again updates it, index.h) and gives it back
 * on the owner thread when it is destroyed. While one job has it, another
 * job gets a new, empty index; of two given back, the later one is kept.
 * So the index is only ever touched by one thread at a time, and no job
 * waits for another. */
#ifndef EDDI_REFACTOR_KEPT_INDEX_H
#define EDDI_REFACTOR_KEPT_INDEX_H

#include "refactor/index.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

/* The workspace's index, or a new one made for its limits (owner thread). */
RefIndex *ref_index_checkout(EddiWorkspace *workspace);
/* Give index back to workspace (owner thread); NULL is ignored. */
void ref_index_checkin(EddiWorkspace *workspace, RefIndex *index);

/* The words a scan for a rename of spec to new_name looks for (index.h):
 * the name spec ends in (Class.method, path.py:func, mod.func), the new
 * name and, when no file is named, spec's first part too, so that every
 * candidate definition of an unqualified Class.method is seen and an
 * ambiguity is refused as over the whole workspace. None for a position
 * (path.py:12:4): such a scan analyses every file. */
typedef Array(char *) RefScanWords;
void ref_rename_scan_words(const char *spec, const char *new_name, RefScanWords *out);
void ref_scan_words_free(RefScanWords *self);

#endif
