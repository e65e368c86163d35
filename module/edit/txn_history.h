/* txn_history.h - Undo and Redo of a change to several files.
 *
 * A document's undo history knows only that document. A refactoring, a
 * multi-file Patch or a script writes through one transaction
 * (edit/transaction.h) to files of which few, or none, are open, so the
 * session keeps, per such command, a step: every file the transaction
 * changed, what it held before (the decoded text, its format and mode, or
 * that there was no file), and what it holds after (the disk stamp, or the
 * open document's undo group). Undo puts every file of the step back in
 * one transaction, all or nothing; open documents go back through their
 * own undo and are saved. When any file is no longer what the step wrote
 * (edited on disk, or in its document), Undo refuses and names the files:
 * it never overwrites what someone else wrote. Redo is the same step the
 * other way: each move keeps what it replaced, so the step holds the other
 * side again.
 *
 * Only transactions that change two files or more, or a file that is not
 * an open document, make a step: a change to one open document is only
 * that document's own undo step.
 *
 * The steps are journaled with the session (session/journal_sessions.c,
 * table txn_files, schema 4), so that Undo after a restart, a takeover or
 * in the next eddi CLI process takes the last change back as it would
 * have before. A restored step knows its files by the disk only: the
 * restored documents' undo groups are made anew, so a file written
 * through a document is checked by its disk stamp (and the document, when
 * open again, must have no unsaved edits), never by a group id that no
 * longer means the same. A file whose document kept a user's unsaved
 * edits (transaction.h) is journaled with a stamp no disk file has, so that
 * a restored step refuses to put it back rather than write the user's
 * edits to the disk. Each step carries a serial, new whenever the
 * step is made or moves to the other list; the journal's sync compares
 * the history's newest serial with the one it wrote, so a command that
 * did not touch the history costs it one comparison. */
#ifndef EDDI_EDIT_TXN_HISTORY_H
#define EDDI_EDIT_TXN_HISTORY_H

#include "edit/transaction.h"

/* Steps kept per session; the oldest go first (as a document's
 * undo_limit drops its oldest groups). */
#define EDDI_TXN_HISTORY_STEPS 32

typedef struct EddiTxnHistory EddiTxnHistory;
typedef struct EddiTxnHistoryStep EddiTxnHistoryStep;

/* After a successful eddi_edit_txn_commit: remember what txn changed as a
 * step of its session's history, when it is one (see above); a new step
 * drops the steps undone before it. Borrows txn. */
void eddi_txn_history_note(const EddiEditTxn *txn);

/* The step an Undo (undo true) or Redo in session takes, with doc the
 * current document (may be NULL): the newest step holding doc whose change
 * is doc's newest; when doc is in none and has nothing of its own to undo
 * (or there is no doc), the newest step. NULL: Undo is the document's. */
EddiTxnHistoryStep *eddi_txn_history_find(EddiSession *session, const EddiDoc *doc, bool undo);

/* Undo (undo true) or Redo step in every file, all or nothing; refused
 * with EDDI_ESTALE and the files when one changed since. files receives
 * the files' names, comma-separated. */
int eddi_txn_history_move(EddiTxnHistoryStep *step, EddiWorkspace *workspace, EddiSession *session,
                          bool undo, StrBuf *files, EddiError *err);

/* Whether doc's undo group group is the part of a step of session's
 * history in that document: the step, not the document, moves it. */
bool eddi_txn_history_holds_group(const EddiSession *session, const EddiDoc *doc,
                                  uint64_t group);

/* How many steps session has to undo (undo true) or redo. */
size_t eddi_txn_history_steps(const EddiSession *session, bool undo);

/* ---------------------------------------------------------------- the journal */

/* A step's file as the journal keeps it: the path, its other side and the
 * disk stamp it must have for a move (text borrowed from the step). */
typedef struct {
  const char *rel;
  bool exists;
  const char *text; /* decoded */
  size_t len;
  EddiFileFormat format;
  unsigned mode;
  EddiFileStamp now;
} EddiTxnHistoryFileView;

/* The newest serial given in session's history (0: it never had a step):
 * it changes whenever the history does. */
uint64_t eddi_txn_history_serial(const EddiSession *session);
/* The index-th step (oldest first) of session's undo (undo true) or redo
 * list, and its serial, its files and each file. */
const EddiTxnHistoryStep *eddi_txn_history_step(const EddiSession *session, bool undo,
                                                size_t index);
uint64_t eddi_txn_history_step_serial(const EddiTxnHistoryStep *step);
size_t eddi_txn_history_step_files(const EddiTxnHistoryStep *step);
void eddi_txn_history_step_file(const EddiTxnHistoryStep *step, size_t index,
                                EddiTxnHistoryFileView *out);

/* Restore: append a step of serial (above every serial restored before it)
 * to the end of session's undo or redo list; then its files, in order.
 * Files refer to the disk only (see above). */
EddiTxnHistoryStep *eddi_txn_history_restore_step(EddiSession *session, bool undo,
                                                  uint64_t serial);
void eddi_txn_history_restore_file(EddiTxnHistoryStep *step, const EddiTxnHistoryFileView *file);

#endif
