/* document.h - the FileContext: one open file, its text, cursor, marks, undo.
 *
 * A document owns a *backend* that holds the real copy of the text: the disk
 * backend (headless) reads and writes files; the Emacs backend (module/emacs/)
 * edits a live buffer. The document's text store is the engine's view of it,
 * a mirror in the Emacs case. Every change goes through eddi_doc_replace, which
 * asks the backend first (a read-only buffer may say no, and then nothing
 * changed), then updates the text, the marks and the undo history.
 *
 * The backend speaks characters, because Emacs positions are characters; the
 * document speaks bytes and converts at the boundary.
 *
 * The vtable below is the engine's own form; an embedder implements the
 * public one of eddi_backend.h, which core/embedded_backend.c turns into
 * this.
 *
 * What a layer above keeps in step with the text (module/syntax/'s parse
 * tree) listens to the document (EddiDocListener) instead of being called
 * by name, so that core/ knows nothing above it: the document announces
 * each change before making it, a wholesale replacement of its text, and
 * its end.
 */
#ifndef EDDI_DOCUMENT_H
#define EDDI_DOCUMENT_H

#include "core/common.h"
#include "core/fs.h"
#include "core/text.h"

/* EddiDoc is declared in eddi_backend.h: opaque to an embedder's backend. */
typedef struct EddiBackend EddiBackend;

typedef struct {
  const char *name;
  /* Replace characters [start, end) of the backing text with text[0, len).
   * Called before the mirror changes; a failure leaves both unchanged. */
  int (*replace)(EddiBackend *self, size_t start_char, size_t end_char, const char *text,
                 size_t len, EddiError *err);
  /* Make the mirror match the backing text if it changed outside eddi (the
   * user typed in the buffer). May be NULL when nothing else edits it. */
  int (*sync)(EddiBackend *self, EddiDoc *doc, EddiError *err);
  /* Write the document's text to its file, whole or not at all; *bytes
   * receives the file's size. */
  int (*save)(EddiBackend *self, EddiDoc *doc, size_t *bytes, EddiError *err);
  /* The text a save would replace (as decoded on load), for Diff and
   * Summary; empty when the file does not exist yet. */
  int (*saved_text)(EddiBackend *self, StrBuf *out, EddiError *err);
  /* Read the file again as it is on disk now (Open Reload): its decoded
   * text into out, which becomes what a save would replace. NULL when the
   * backend cannot (a live buffer reverts in its editor). */
  int (*reread)(EddiBackend *self, StrBuf *out, EddiError *err);
  /* What is on disk as the backend last read or wrote it, for the audit
   * log. May be NULL (nothing known). */
  void (*stamp)(EddiBackend *self, EddiFileStamp *out);
  /* One engine command ended: close the backing undo group. May be NULL. */
  void (*end_group)(EddiBackend *self);
  void (*destroy)(EddiBackend *self);
} EddiBackendVtable;

struct EddiBackend {
  const EddiBackendVtable *vtable;
};

/* One replacement, enough to undo or redo it. */
typedef struct {
  size_t start;
  char *removed;
  size_t removed_len;
  char *inserted;
  size_t inserted_len;
} DocEdit;

/* The edits of one command: undone and redone together. */
typedef struct {
  Array(DocEdit) edits;
  /* An edit reaches past the start of the one before it: the group replays
   * edit by edit (otherwise in one pass; see document.c). */
  bool unordered;
  uint64_t id;
  size_t cursor_before; /* where Undo puts the cursor */
  size_t cursor_after;  /* where Redo puts it */
} DocEditGroup;

typedef Array(DocEditGroup) DocEditGroupList;

typedef struct {
  char *name;
  size_t offset;
} DocMark;

struct EddiDoc {
  /* read-only: changed through the functions below */
  char *path; /* workspace-relative, '/'-separated */
  EddiText text;
  EddiBackend *backend;
  DocEditGroupList undo;
  DocEditGroupList redo;
  uint64_t saved_group_id; /* top undo group when last saved (0: none) */
  size_t undo_limit;       /* groups kept */
  /* The last save merged a change made on disk behind eddi's back into the
   * document (its Save reply says so). */
  bool rebased;
  /* Its backend held the last save back on purpose (eddi_doc_file_held: an
   * editor keeping a model's edits from the disk for the user's review):
   * nothing was written and the document is still modified. Cleared when it
   * is saved for real or read again. */
  bool save_held;
  /* The unsaved text holds changes made outside the engine (eddi_doc_mirror:
   * the user typed in the editor), which no command of the session made.
   * Journaled with the file, so that a restart can say so. Cleared when the
   * document is saved or read again. */
  bool outside_edits;
  Array(DocMark) marks; /* eddi_doc_set_mark, eddi_doc_remove_mark */
  /* public */
  size_t cursor; /* byte offset */
  bool is_new;   /* no file on disk yet */
  /* Where the last Find left the cursor, so Find Next moves past it. */
  size_t find_anchor;
  bool find_anchor_set;
  /* The parse tree (module/syntax/), made on first use; opaque here. Its
   * owner listens to the document and frees it from its on_free. */
  struct EddiSyntax *syntax;
  /* private */
  bool group_open; /* the top undo group still takes edits */
  bool backend_group_open; /* the backend took edits since the last end_group */
  uint64_t next_group_id;
  /* Borrowed, in registration order (eddi_doc_listen). */
  Array(struct EddiDocListener *) listeners;
};

/* One change of the text as listeners hear it: bytes [start, old_end)
 * become inserted[0, new_end - start). */
typedef struct {
  size_t start;
  size_t old_end;
  size_t new_end;
  const char *inserted;
} EddiDocChange;

/* A listener to a document: each callback may be NULL and gets context
 * first. Callbacks run in registration order and must not listen or
 * unlisten (on_free excepted, see there). */
typedef struct EddiDocListener {
  /* The text is about to change: doc's text is still the one the change's
   * offsets are in. A batch (sorted, not overlapping) is announced last
   * edit first, all before the text changes: each change's offsets then
   * hold both in that text and after the changes announced before it. */
  void (*on_edit)(void *context, const EddiDoc *doc, const EddiDocChange *change);
  /* The whole text is about to be replaced (a built text put in, a
   * reload): no change is announced for it. */
  void (*on_reset)(void *context, EddiDoc *doc);
  /* The document is being freed and still whole. The listener is already
   * off the list: it may free itself and its context. */
  void (*on_free)(void *context, EddiDoc *doc);
  void *context;
} EddiDocListener;

/* New document over backend (taken over) with initial text; path is copied. */
EddiDoc *eddi_doc_new(const char *path, EddiBackend *backend, const char *text,
                      size_t len, bool is_new, size_t undo_limit);
/* The same, taking text (freed, left empty) so a large file is not held
 * twice while the document is made (eddi_text_take). */
EddiDoc *eddi_doc_new_taking(const char *path, EddiBackend *backend, StrBuf *text, bool is_new,
                             size_t undo_limit);
void eddi_doc_free(EddiDoc *self);

/* Add listener after those listening (borrowed: it must stay valid until
 * eddi_doc_unlisten or its on_free). */
void eddi_doc_listen(EddiDoc *self, EddiDocListener *listener);
/* Take listener off; false when it was not listening. */
bool eddi_doc_unlisten(EddiDoc *self, EddiDocListener *listener);

/* Replace bytes [start, end) with text; the one way text changes. */
int eddi_doc_replace(EddiDoc *self, size_t start, size_t end, const char *text, size_t len,
                     EddiError *err);
/* Replace several ranges (sorted, not overlapping, offsets in the current
 * text) in one pass; all or nothing. Undo takes them back one by one. */
int eddi_doc_replace_many(EddiDoc *self, const TextReplacement *edits, size_t count,
                          EddiError *err);
/* The current command is over: its edits become one undo step. */
void eddi_doc_end_group(EddiDoc *self);
/* Take back the edits of the current command (its open group), for a
 * command that fails halfway; no redo entry is left. */
void eddi_doc_revert_group(EddiDoc *self);
/* Undo or redo up to count groups; *done receives how many. EDDI_ENOENT when
 * there is nothing to undo/redo. */
int eddi_doc_undo(EddiDoc *self, size_t count, size_t *done, EddiError *err);
int eddi_doc_redo(EddiDoc *self, size_t count, size_t *done, EddiError *err);

/* Whether a command ever changed the text (made an undo group): false for
 * a document whose unsaved text is all its editor's (outside_edits). */
bool eddi_doc_changed_by_commands(const EddiDoc *self);

bool eddi_doc_modified(const EddiDoc *self);
/* Save through the backend and remember the state as saved. */
int eddi_doc_save(EddiDoc *self, size_t *bytes, EddiError *err);
/* The document's text was written to its file by someone else than its
 * backend's save (a change of several files, edit/transaction.c): remember
 * the state as saved, as eddi_doc_save does after its write. */
void eddi_doc_mark_saved(EddiDoc *self);
/* Replace the whole text with text[0, len) as one replacement of the part
 * that differs, so that the cursor and marks outside it stay on their text;
 * *changed_end (may be NULL) receives the end of the changed part. */
int eddi_doc_replace_all(EddiDoc *self, const char *text, size_t len, size_t *changed_end,
                         EddiError *err);
/* Open Reload: read the file again as it is on disk, discarding the edits
 * not saved (*discarded counts them; the reload is one undo step); the
 * cursor goes to the start, as after Open. */
int eddi_doc_reread(EddiDoc *self, size_t *discarded, EddiError *err);
/* Mirror the backing text if it moved (no-op for backends without sync). */
int eddi_doc_sync(EddiDoc *self, EddiError *err);
/* A command that rebuilds the whole text of a document at least this large
 * (Replace All, or the Undo or Redo of one) runs as long work
 * (session/job.h): it costs some 5 ms a MiB, and other senders should be
 * answered within 10 ms. Smaller files, what a model edits every day, are
 * edited at once. */
#define EDDI_DOC_LONG_WORK_BYTES ((size_t)1 << 20)

/* Whether the document's text may be built elsewhere and put in whole
 * (eddi_doc_commit_built): its backend keeps no text of its own. */
bool eddi_doc_can_commit_built(const EddiDoc *self);
/* Put built in as the text (taken: left empty) that edits (count, sorted,
 * in the frame of the text now) make of it, as one undo step whose records
 * (count of them, last edit first, as eddi_doc_replace_many keeps them)
 * are taken too; cursor and marks move as eddi_doc_replace_many moves them.
 * Listeners hear a reset rather than each edit. */
void eddi_doc_commit_built(EddiDoc *self, EddiText *built, const TextReplacement *edits,
                           size_t count, DocEdit *records);
/* Undo (undo true) or Redo built elsewhere: the group the next one would
 * replay, when one pass can (many edits, bottom-up, a backend without text
 * of its own), else NULL. Ends the open group first. */
const DocEditGroup *eddi_doc_replay_next(EddiDoc *self, bool undo);
/* The group's edits as one batch in the frame of the text before it is
 * undone (backwards) or redone; now (may be NULL) receives what each range
 * holds before. A new array the caller frees; its bytes are the group's. */
TextReplacement *eddi_doc_replay_edits(const DocEditGroup *group, bool backwards, char **now);
/* Put built in as the text the next replay makes (edits: as given by
 * eddi_doc_replay_edits), move the group, place cursor and marks. */
void eddi_doc_commit_replay(EddiDoc *self, bool undo, EddiText *built,
                            const TextReplacement *edits, size_t count);
/* Replace the whole text without undo (used by backends that re-read). */
void eddi_doc_reload(EddiDoc *self, const char *text, size_t len);
/* The backing text changed outside eddi (the user typed in the buffer):
 * mirror the replacement of bytes [start, end) with text, without asking the
 * backend. Cursor and marks move as for an eddi edit. The undo history was
 * recorded against the old text and is dropped; the document counts as
 * modified until the next save. */
void eddi_doc_external_replace(EddiDoc *self, size_t start, size_t end, const char *text,
                               size_t len);

/* eddi_doc_char_count and eddi_doc_mirror (the character-based form of
 * eddi_doc_external_replace, for backends) are declared in eddi_backend.h. */

/* Marks (bookmarks) move with the text like Emacs markers. */
void eddi_doc_set_mark(EddiDoc *self, const char *name, size_t offset);
DocMark *eddi_doc_find_mark(EddiDoc *self, const char *name);
bool eddi_doc_remove_mark(EddiDoc *self, const char *name);

/* Undo memory in bytes (for the benchmark's accounting). */
size_t eddi_doc_undo_footprint(const EddiDoc *self);

#endif
