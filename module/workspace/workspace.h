/* workspace.h - the folder eddi edits, and what every command shares of it.
 *
 * A workspace owns the root folder and the descriptor that every write
 * resolves beneath (core/fs.h), the configuration, the state folder, the
 * sessions (each sender's open documents, workspace/session.h), the opener
 * of documents' backends, and the one checked save.
 *
 * It sits between core/ and the commands: the edit formats, the
 * refactorings, the scripts and the command files all work on a workspace,
 * and none of them sees the engine. The engine (session/) is above: it
 * installs the write hooks through which its journal and audit log hear of
 * every write, so no layer below it ever calls up.
 *
 * A subsystem above keeps its own state on the workspace (the grep cache,
 * the refactoring index) in a slot (workspace/slot.h), opaque here. */
#ifndef EDDI_WORKSPACE_H
#define EDDI_WORKSPACE_H

#include "eddi.h"
#include "core/document.h"
#include "core/fs.h"
#include "workspace/slot.h"

typedef struct EddiWorkspace EddiWorkspace;
typedef struct EddiSessionManager EddiSessionManager;

/* One file of a change of several files, as its intent records it. temp
 * and backup are workspace paths of eddi's temporary files
 * (".<leaf>.eddi-<pid>-<random>" beside rel): temp holds the new bytes,
 * written and fsynced before the intent is recorded; backup is a hard link
 * to the old file (NULL when there was none or the file system has no hard
 * links). */
typedef enum {
  EDDI_INTENT_WRITE = 1, /* rel becomes the temp file's bytes */
  EDDI_INTENT_DELETE = 2,
} EddiIntentAction;

typedef struct {
  const char *rel;
  EddiIntentAction action;
  bool existed;
  uint64_t old_hash; /* XXH3 of the old bytes (EddiFileStamp.hash) */
  uint64_t new_hash; /* of the new bytes (WRITE) */
  const char *temp;
  const char *backup;
} EddiIntentFile;

/* What the engine hears of the workspace's writes. Each hook may be NULL;
 * without intent_begin a change of several files has no intent (nothing
 * would roll it back after a crash) and writes without staging. */
typedef struct {
  void *context;
  /* A write of the current request: rel's bytes went from before to
   * after (either may be missing). For the audit log. */
  void (*note_write)(void *context, const char *rel, const EddiFileStamp *before,
                     const EddiFileStamp *after);
  /* eddi is about to write into the folder holding rel: a crash may leave
   * a temporary file there, to be swept at the next start. */
  void (*note_folder)(void *context, const char *rel);
  /* Record the intent of a change of several files made by a command of
   * session (NULL: none), durably, before its first rename; *id names it
   * for intent_done. */
  int (*intent_begin)(void *context, const EddiIntentFile *files, size_t count,
                      const char *session, int64_t *id, EddiError *err);
  /* The change is complete (or was put back): forget its intent. true:
   * the journal keeps the intent until the session's record holds the
   * change's Undo step, and removes the backups itself then. */
  bool (*intent_done)(void *context, int64_t id);
} EddiWriteHooks;

/* A workspace over the canonical folder root, whose O_PATH descriptor
 * root_fd it takes. config is copied; its state_dir is the folder asked
 * for (NULL: the default under XDG_STATE_HOME), made on first use. */
EddiWorkspace *eddi_workspace_new(const char *root, int root_fd, const EddiConfig *config);
/* Frees the sessions (and their documents), then the slots, then the rest. */
void eddi_workspace_free(EddiWorkspace *self);

/* The canonical root, no trailing slash. Borrowed. */
const char *eddi_workspace_root(const EddiWorkspace *self);
/* The root's descriptor: every path is opened beneath it. Borrowed. */
int eddi_workspace_root_fd(const EddiWorkspace *self);
const EddiConfig *eddi_workspace_config(const EddiWorkspace *self);
/* The sessions: each sender's open documents. Borrowed. */
EddiSessionManager *eddi_workspace_sessions(EddiWorkspace *self);

/* The workspace id that names the state folder: the first 16 hex digits
 * of the xxh64 of the canonical root, so two checkouts never share a
 * folder and the same checkout always finds its own. */
void eddi_workspace_id(const EddiWorkspace *self, char out[EDDI_WORKSPACE_ID_SIZE]);
/* The state folder, made on first use (mode 0700) and refused when
 * another user could change it. Borrowed; NULL with why in error. */
const char *eddi_workspace_state_dir(EddiWorkspace *self, char *error, size_t error_size);

/* ---------------------------------------------------------------- documents */

/* Documents open on the disk beneath the root, or, once an embedder set
 * its opener (Emacs: live buffers), through it (core/embedded_backend.c). */
void eddi_workspace_set_backend(EddiWorkspace *self, EddiBackendOpen open, void *context);
/* Whether an embedder's opener is set. */
bool eddi_workspace_embedded(const EddiWorkspace *self);

/* The embedder's copies of files eddi did not open (eddi_backend.h,
 * EddiBackendCopies: Emacs's buffers visiting them); NULL: none. A change
 * of several files and the refactoring index ask through the two calls
 * below, never the engine. */
void eddi_workspace_set_backend_copies(EddiWorkspace *self, const EddiBackendCopies *copies);
/* What the embedder holds of rel (abs: its absolute path): *copy, and the
 * copy's text appended to text (may be NULL) when one is found. Without an
 * embedder's copies, none is. */
int eddi_workspace_find_copy(EddiWorkspace *self, const char *rel, const char *abs,
                             EddiBackendCopy *copy, StrBuf *text, EddiError *err);
typedef Array(char *) EddiWorkspacePaths;
/* The workspace paths of every file the embedder holds a copy of, appended
 * to out (new strings, freed with eddi_workspace_paths_free). */
int eddi_workspace_copies(EddiWorkspace *self, EddiWorkspacePaths *out, EddiError *err);
void eddi_workspace_paths_free(EddiWorkspacePaths *self);

/* A document to open: rel beneath the root (abs, the same file's absolute
 * path, for an embedder); create allows a missing file. */
typedef struct {
  const char *rel;
  const char *abs;
  bool create;
} EddiDocRequest;

/* Open request's file up to the configuration's max_file_bytes: *backend
 * is new, text receives the decoded text, *is_new is set when the file
 * did not exist (create). */
int eddi_workspace_open_backend(EddiWorkspace *self, const EddiDocRequest *request,
                                EddiBackend **backend, StrBuf *text, bool *is_new,
                                EddiError *err);

/* ---------------------------------------------------------------- writes */

/* Replace the hooks (all NULL at first). */
void eddi_workspace_set_hooks(EddiWorkspace *self, const EddiWriteHooks *hooks);
/* Whether a change of several files records an intent (a journal). */
bool eddi_workspace_keeps_intents(const EddiWorkspace *self);

/* The one checked save of a document: through its backend (eddi_doc_save),
 * its folder noted first and the write told to the hooks after. */
int eddi_workspace_save_doc(EddiWorkspace *self, EddiDoc *doc, size_t *bytes, EddiError *err);
/* Tell the hooks of a write made otherwise (a change of several files). */
void eddi_workspace_note_write(EddiWorkspace *self, const char *rel, const EddiFileStamp *before,
                               const EddiFileStamp *after);
void eddi_workspace_note_folder(EddiWorkspace *self, const char *rel);
int eddi_workspace_intent_begin(EddiWorkspace *self, const EddiIntentFile *files, size_t count,
                                const char *session, int64_t *id, EddiError *err);
/* true: the hooks keep the change's backups (see EddiWriteHooks). */
bool eddi_workspace_intent_done(EddiWorkspace *self, int64_t id);

/* ---------------------------------------------------------------- slots */

/* Whether the workspace lives across requests (a server, Emacs with long
 * work), so that subsystems may keep caches in slots between commands:
 * set by the engine when it may run long work. Off at first. */
void eddi_workspace_set_keeps_caches(EddiWorkspace *self, bool keeps);
bool eddi_workspace_keeps_caches(const EddiWorkspace *self);

/* A subsystem's state kept on the workspace (NULL when it has none). */
void *eddi_workspace_slot(const EddiWorkspace *self, const EddiSlotType *type);
/* Keep data for type, freeing what was kept before. */
void eddi_workspace_set_slot(EddiWorkspace *self, const EddiSlotType *type, void *data);
/* Take type's data out (long work checks it out, and sets it back after). */
void *eddi_workspace_take_slot(EddiWorkspace *self, const EddiSlotType *type);

#endif
