/* session.h - the sessions of a workspace: each sender's work.
 *
 * A session groups one sender's work: its open documents, the current one,
 * the changes saved so far (for Summary) and its reply preferences. A
 * sender has at most one active session; session names are unique among
 * active sessions. The layers above keep their own state on a session in
 * slots (workspace/slot.h): the edit formats' snapshots, the multi-file
 * history, scripts' variables, a pending Replace Confirm.
 *
 * Fields are marked as in libuv's uv.h: public ones may be read and set,
 * read-only ones only read (they change through the functions below),
 * private ones are session.c's. */
#ifndef EDDI_SESSION_H
#define EDDI_SESSION_H

#include "core/document.h"
#include "workspace/slot.h"

/* What saving did to one file over the session, for Summary. */
typedef struct {
  char *path;
  bool created;
  size_t added;
  size_t deleted;
  /* Its classes and functions before the session first saved it
   * (syntax/outline.h), for Summary's structural changes; NULL when not
   * known (no grammar, or first written by an edit format). Owned. */
  struct EddiOutline *before;
} FileChanges;

typedef Array(EddiDoc *) DocList;

typedef struct EddiSession {
  /* read-only */
  char *name;
  char *description;
  char *sender;
  DocList docs; /* eddi_session_add_doc, eddi_session_close_doc */
  Array(FileChanges) changes; /* eddi_session_record_save */
  /* public */
  EddiDoc *current;
  bool raw_payloads;
  /* Brought back from the journal after a restart: what was restored, for
   * the reply of the sender's next Start (then NULL). Owned. */
  char *resumed;
  /* Taken over from this instance after it died: named in the sender's
   * next reply (then NULL). Owned. */
  char *taken_from;
  /* private */
  EddiSlots slots;
} EddiSession;

struct EddiSessionManager {
  Array(EddiSession *) sessions; /* read-only */
};
typedef struct EddiSessionManager EddiSessionManager;

/* Longest session name; names are letters, digits, '_', '-', '.'. */
#define EDDI_SESSION_NAME_MAX 64

bool eddi_session_name_valid(const char *name);
EddiSession *eddi_sessions_by_sender(const EddiSessionManager *self, const char *sender);
EddiSession *eddi_sessions_by_name(const EddiSessionManager *self, const char *name);
EddiSession *eddi_sessions_start(EddiSessionManager *self, const char *name,
                                 const char *description, const char *sender);
/* Remove and free the session and its documents. */
void eddi_sessions_end(EddiSessionManager *self, EddiSession *session);
void eddi_sessions_free(EddiSessionManager *self);

/* The open document named by path: its workspace path, or a basename that
 * only one open document has. *ambiguous is set when several match. */
EddiDoc *eddi_session_find_doc(EddiSession *self, const char *path, bool *ambiguous);
void eddi_session_add_doc(EddiSession *self, EddiDoc *doc);
/* Close and free doc; every slot forgets it first. */
void eddi_session_close_doc(EddiSession *self, EddiDoc *doc);
/* Remember a save's line counts for Summary, and before (taken; may be
 * NULL) as path's structure before its first save when none is kept. */
void eddi_session_record_save(EddiSession *self, const char *path, bool created,
                              size_t added, size_t deleted, struct EddiOutline *before);
/* What the session saved of path so far, or NULL. */
const FileChanges *eddi_session_saved(const EddiSession *self, const char *path);

/* A subsystem's state kept on the session (NULL when it has none). */
void *eddi_session_slot(const EddiSession *self, const EddiSlotType *type);
/* Keep data for type, freeing what was kept before. */
void eddi_session_set_slot(EddiSession *self, const EddiSlotType *type, void *data);

#endif
