/* script_state.h - what scripts leave in a session: variables, changesets,
 * stored positions and the context stack.
 *
 * It is plain data owned by the session (EddiSession.script, made on first
 * use, freed with the session) so that a journal can write it as it is:
 * every field is a string, a number or a file stamp. A changeset holds, for
 * each file, the bytes that were on disk when it was collected (what a
 * rollback puts back), the text the script read (what apply checks the
 * file still holds), and the text to write. */
#ifndef EDDI_SCRIPT_STATE_H
#define EDDI_SCRIPT_STATE_H

#include "core/fs.h"

typedef struct {
  char *path;      /* workspace path */
  bool existed;    /* a file was there when collected */
  char *before_raw; /* its bytes on disk when collected */
  size_t before_raw_len;
  EddiFileStamp collected; /* their stamp */
  char *before;    /* the decoded text the script read (an open document's) */
  size_t before_len;
  char *after;     /* the decoded text to write */
  size_t after_len;
  EddiFileStamp applied; /* what apply wrote (valid when the set is applied) */
} EddiChangeFile;

typedef enum { EDDI_CHANGESET_COLLECTED, EDDI_CHANGESET_APPLIED, EDDI_CHANGESET_ROLLED_BACK } EddiChangesetStatus;

typedef struct {
  char *name;
  EddiChangesetStatus status;
  Array(EddiChangeFile) files;
} EddiChangeset;

/* A variable kept between messages: a set's query (evaluated again where
 * it is used, so its positions are never stale) or a string. */
typedef struct {
  char *name;
  char *query; /* or NULL */
  char *text;  /* or NULL */
} EddiScriptVar;

/* A stored position, and an entry of the context stack. */
typedef struct {
  char *name; /* NULL on the context stack */
  char *path; /* the current file, or NULL when none was open */
  size_t cursor;
} EddiScriptPlace;

typedef struct EddiScriptState {
  Array(EddiScriptVar) vars;
  Array(EddiChangeset *) changesets;
  Array(EddiScriptPlace) positions;
  Array(EddiScriptPlace) contexts;
  /* The last script's flags, for the pages after its reply's (Flags). */
  Array(char *) flags;
  /* Every flag of the session's scripts, in order, for Summary. */
  Array(char *) session_flags;
} EddiScriptState;

EddiChangeset *eddi_script_state_changeset(const EddiScriptState *self, const char *name);
/* Put changeset (taken) in self, replacing one of the same name. */
void eddi_script_state_add_changeset(EddiScriptState *self, EddiChangeset *changeset);
void eddi_changeset_free(EddiChangeset *self);
const EddiScriptVar *eddi_script_state_var(const EddiScriptState *self, const char *name);
/* Keep a variable (strings copied; either may be NULL). */
void eddi_script_state_set_var(EddiScriptState *self, const char *name, const char *query,
                               const char *text);

#endif
