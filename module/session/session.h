/* session.h - SessionManager and SessionContext.
 *
 * A session groups one sender's work: its open documents, the current one,
 * the changes saved so far (for Summary), its reply preferences and a pending
 * Replace Confirm. A sender has at most one active session; session names
 * are unique among active sessions. Everything here is plain data so that a
 * session can be written to a journal later. */
#ifndef EDDI_SESSION_H
#define EDDI_SESSION_H

#include "core/document.h"
#include "services/search.h"

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

/* Replace ... Confirm in progress: the next message answers it. */
typedef struct {
  bool active;
  EddiDoc *doc;
  EddiPattern pattern;
  char *replacement;
  size_t replacement_len;
  size_t match_start; /* the match being asked about */
  size_t match_end;
  size_t replaced;
} ReplaceConfirm;

typedef Array(EddiDoc *) DocList;

typedef struct EddiSession {
  char *name;
  char *description;
  char *sender;
  DocList docs;
  EddiDoc *current;
  Array(FileChanges) changes;
  bool raw_payloads;
  ReplaceConfirm confirm;
  /* Edit formats' state (hashline snapshots, registers), made on first use
   * and freed with eddi_edit_state_free (module/edit/). */
  struct EddiEditState *edit_state;
  /* Scripts' variables, changesets, stored positions and context stack
   * (module/script/script_state.h), made on first use. */
  struct EddiScriptState *script;
  /* Undo and Redo of changes to several files (module/edit/txn_history.h),
   * made on first use. */
  struct EddiTxnHistory *txn_history;
  /* Brought back from the journal after a restart: what was restored, for
   * the reply of the sender's next Start (then NULL). Owned. */
  char *resumed;
  /* Taken over from this instance after it died: named in the sender's
   * next reply (then NULL). Owned. */
  char *taken_from;
} EddiSession;

void eddi_script_state_free(struct EddiScriptState *state);

void eddi_edit_state_free(struct EddiEditState *state);

void eddi_txn_history_free(struct EddiTxnHistory *self);
/* doc is closed: its changes in the history are the disk's from now on. */
void eddi_txn_history_forget_doc(struct EddiTxnHistory *self, const EddiDoc *doc);

typedef struct {
  Array(EddiSession *) sessions;
} EddiSessionManager;

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
/* Close and free doc (also ends a Replace Confirm on it). */
void eddi_session_close_doc(EddiSession *self, EddiDoc *doc);
/* Remember a save's line counts for Summary. */
void eddi_session_record_save(EddiSession *self, const char *path, bool created,
                              size_t added, size_t deleted);
void eddi_session_cancel_confirm(EddiSession *self);

#endif
