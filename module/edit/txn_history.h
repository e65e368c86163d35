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
 * an open document, make a step: a change to one open document is that
 * document's undo step, as before. The steps live in memory with the
 * session (not in the journal); they are lost with it. */
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
int eddi_txn_history_move(EddiTxnHistoryStep *step, EddiEngine *engine, EddiSession *session,
                          bool undo, StrBuf *files, EddiError *err);

/* How many steps session has to undo (undo true) or redo. */
size_t eddi_txn_history_steps(const EddiSession *session, bool undo);

#endif
