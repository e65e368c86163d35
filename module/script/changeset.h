/* changeset.h - collecting, applying and rolling back changesets (the
 * owner thread's side; the data is in script_state.h). */
#ifndef EDDI_SCRIPT_CHANGESET_H
#define EDDI_SCRIPT_CHANGESET_H

#include "script/script_state.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

/* The session's script state, made on first use. */
EddiScriptState *eddi_script_state_of(EddiSession *session);
/* The session's script state, or NULL when it has none yet. */
EddiScriptState *eddi_script_state_find(const EddiSession *session);

/* Add path to self: before is the text the script read, after the text to
 * write; the disk's bytes now are kept with their stamp. */
int eddi_changeset_add_file(EddiChangeset *self, EddiWorkspace *workspace, const char *path,
                            const char *before, size_t before_len, const char *after,
                            size_t after_len, EddiError *err);
/* Write it, or refuse with the files that changed since it was collected. */
int eddi_changeset_apply(EddiChangeset *self, EddiWorkspace *workspace, EddiSession *session,
                         EddiError *err);
/* Put back the bytes from before apply, or refuse with the files that
 * changed since. */
int eddi_changeset_rollback(EddiChangeset *self, EddiWorkspace *workspace, EddiSession *session,
                            EddiError *err);
/* After a crash: a changeset whose apply (or rollback) wrote every file
 * while its process died before the status was journaled takes the status
 * its files say: applied when every file holds what apply writes (and not
 * all what was collected), rolled back when an applied one's files all
 * hold what was collected again. Whether the status changed. */
bool eddi_changeset_settle(EddiChangeset *self, EddiWorkspace *workspace);
/* "Changeset n (collected): 2 files: a.py +1 -1, b.py +2 -0" into facts,
 * the unified diff of every file into unified (may be NULL). */
void eddi_changeset_preview(const EddiChangeset *self, StrBuf *facts, StrBuf *unified);

#endif
