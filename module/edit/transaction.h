/* transaction.h - a change to several files, validated whole, then written.
 *
 * Every edit format builds its change in a transaction: it loads the files it
 * touches (the open document's text when the session has the file open, the
 * decoded disk file otherwise), computes each file's new text in memory and
 * fails with nothing written if any part is wrong. Only then does commit
 * write: an open document alone through eddi_doc_replace and a save, so
 * that undo and a live Emacs buffer see the edit; other files, and the open
 * documents of the disk backend in a change of several files, through
 * core/fs.h
 * (resolved beneath the workspace root; temp file, fsync, rename; checked
 * against what was read just before and after the rename), keeping their
 * BOM, line endings and mode. Deletions come last. When a write fails, the
 * files already written are put back as they were and the error is
 * reported.
 *
 * A file that changed on disk after it was read is merged: if eddi's change
 * and the disk's touch different lines (core/merge.h), eddi's change is
 * rebased onto the new disk text, written, and a warning says so; if they
 * overlap, nothing is written and the reply names the lines.
 *
 * A change of two or more files is written as a batch: every new file is
 * written beside its target first, all of them are made durable at once
 * (one syncfs of the workspace's file system, or for a few files an fsync
 * of each and of each folder, where a file written alone takes two or
 * three fsyncs), the renames run, and each folder is fsynced once after them. With the
 * journal on it is also crash-safe: every old file is hard-linked to a
 * backup, and the intent (files, old and new hashes, temporary names) is
 * recorded in the journal (durably) before the first rename and forgotten
 * after the last. A crash in between is rolled forward or back on the next
 * start (session/journal_recover.c), so the files end all old or all new.
 * The open documents of such a change are among its files: their new
 * bytes are in the intent, and each document's text, saved stamp, modified
 * flag and undo step are updated only once every file is written (a
 * failure leaves the documents as they were). A document with unsaved
 * edits is written with them, as its save would (the change was computed
 * on its text), unless they are a user's in an embedder's copy (below). A file over the size whose bytes the disk backend keeps is
 * read at commit time and must be as the document last saw it, else the
 * change is refused (it could not be merged); a read-only open file
 * refuses a change of several files before anything is written.
 *
 * An embedder's document (an Emacs buffer) joins the batch when its editor
 * can tell the exact bytes its save would write (EddiBackendOps.save_bytes:
 * Emacs encodes the buffer with its coding system) and its file is as the
 * engine last read or wrote it. It takes the new text before anything is
 * staged, so that its editor's refusal (a read-only buffer) comes first
 * and is taken back on any failure; its bytes are staged and renamed in
 * with the others, and the editor learns that it is saved (its file time,
 * its modified flag; EddiBackendOps.saved) only after the last rename. Such
 * a write is not the editor's save: Emacs runs no before-save-hook for it
 * (the bytes are the change eddi computed and replied with) and runs
 * after-save-hook once the change is committed. One whose bytes are not
 * certain (write hooks, a remote file, a coding system that decides at
 * save time, changes held for review) saves itself after the batch,
 * outside the intent (Emacs: save-buffer); doc/journal.org lists the cases.
 */
/*
 * A file the embedder holds a copy of (a buffer visiting it) is read and
 * changed through that copy whether or not the session opened it, as
 * eglot applies a server's edits: the transaction opens it through the
 * workspace's opener (it joins the session's documents, not as the
 * current one). A copy that was unmodified is written as above, saved
 * inside the change; one with edits not saved takes the change as one
 * undo step and stays modified, and its file is not written at all
 * (keeps_unsaved): eddi never writes a user's unsaved edits, nor a file
 * behind the buffer visiting it.
 */
#ifndef EDDI_EDIT_TRANSACTION_H
#define EDDI_EDIT_TRANSACTION_H

#include "core/disk_backend.h"
#include "core/fs.h"
#include "edit/edit_formats.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

typedef enum {
  EDIT_KEEP,   /* read only */
  EDIT_WRITE,  /* result becomes the file's text */
  EDIT_DELETE, /* the file goes */
} EddiEditAction;

/* How an open document's file is written in a change. */
typedef enum {
  /* A disk file, or an open document that saves itself after the change. */
  EDIT_ROUTE_OWN,
  /* An open document of the disk backend in a change of several files: its
   * file is written as one of the disk files of the change (raw, stamp,
   * format and mode are its backend's, raw the merge base), inside the
   * intent, and the document takes the new text, saved, only after the
   * commit. */
  EDIT_ROUTE_INTENT,
  /* An embedder's document (an Emacs buffer) written as one of the disk
   * files: it takes the new text before the batch (applied; a refusal of
   * its editor comes before anything is written), its editor gives the
   * bytes its save would write (save_bytes), and they are written with the
   * others, inside the intent. */
  EDIT_ROUTE_EMBEDDED,
} EddiEditRoute;

/* The folder a file is staged in, while the change holds it. */
typedef enum {
  EDIT_FOLDER_NONE,
  EDIT_FOLDER_HELD,   /* its descriptor is the file's: it closes it */
  EDIT_FOLDER_SHARED, /* an earlier file's of the same folder: that one closes it */
} EddiEditFolder;

typedef struct {
  char *rel; /* workspace path */
  char *abs;
  EddiDoc *doc;  /* open in the session, or NULL */
  bool exists;   /* a file was there before */
  bool is_dir;   /* a folder is there */
  EddiFileFormat format;
  unsigned mode;
  StrBuf raw;    /* the bytes on disk before (disk files), to put back */
  EddiFileStamp stamp;   /* what was read (disk files) */
  EddiFileStamp written; /* what commit wrote */
  StrBuf text;   /* the decoded text before */
  StrBuf result; /* the decoded text after (EDIT_WRITE) */
  EddiEditAction action;
  bool done;     /* commit wrote or deleted it */
  /* With a journal, a change of several disk files stages them first
   * (session/journal.h): the new bytes' temporary file, a hard link to the
   * old file, and the new bytes' hash; NULL/0 otherwise. */
  char *staged;
  char *backup;
  uint64_t new_hash;
  /* The folder it was staged in, held (folder) so that a failure can
   * put it back even when its path no longer leads there (a folder on the
   * way renamed or swapped for a symlink meanwhile). */
  int folder_fd;
  EddiEditFolder folder;
  EddiEditRoute route;
  StrBuf written_raw; /* EDIT_ROUTE_INTENT: the bytes written */
  bool applied;       /* EDIT_ROUTE_EMBEDDED: its editor took the new text */
  StrBuf save_bytes;
  /* Someone appended to that document's file while it was renamed in: the
   * append was carried over onto the editor's bytes, which the buffer does
   * not show, so it is not told it is saved. */
  bool carried_over;
  /* An embedder's copy (an Emacs buffer) with edits not saved: it takes
   * the new text as one undo step and stays modified; its file is not
   * written, the user's edits never are (see above). */
  bool keeps_unsaved;
  /* doc was opened by the change, for a file the embedder holds a copy of
   * while there is no session to keep it: freed with the transaction. */
  bool owns_doc;
} EddiEditFile;

typedef struct {
  EddiWorkspace *workspace;
  EddiSession *session; /* may be NULL (JSON-RPC calls without a session) */
  Array(EddiEditFile *) files;
} EddiEditTxn;

void eddi_edit_txn_init(EddiEditTxn *self, EddiWorkspace *workspace, EddiSession *session);
void eddi_edit_txn_free(EddiEditTxn *self);

/* The transaction's entry for path (resolved inside the workspace; a path
 * named twice gives the same entry). A missing file is not an error here:
 * (*file)->exists is false. Fails for paths outside the workspace and files
 * that cannot be read or decoded. */
int eddi_edit_txn_file(EddiEditTxn *self, const char *path, EddiEditFile **file,
                       EddiError *err);

/* Set the new text of file (copied). */
void eddi_edit_file_write(EddiEditFile *self, const char *text, size_t len);
void eddi_edit_file_delete(EddiEditFile *self);

/* Write every EDIT_WRITE file, then delete every EDIT_DELETE one; on a
 * failure put back what was done and return the error. A rebase onto a
 * change made on disk is said in report's warnings (report may be NULL). */
int eddi_edit_txn_commit(EddiEditTxn *self, EddiEditReport *report, EddiError *err);

#endif
