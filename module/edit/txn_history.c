/* txn_history.c - the session's multi-file Undo and Redo; see txn_history.h.
 *
 * A step is a list of files, each holding "the other side": for Undo, what
 * the file held before the command; after an Undo, what it held after
 * (for Redo). What the file must hold now for the move to be safe is its
 * disk stamp (size and hash) or, for a document open when the command
 * wrote it, the document's top undo (or redo) group. A move reads the disk
 * files into one transaction, checks them all, moves the open documents
 * through their own undo, commits the disk files, and saves the
 * documents; then every file's side is swapped with what was just
 * replaced, and the step goes to the other list.
 *
 * Serials: a step takes the history's next serial when it is made and
 * whenever it moves to the other list (its sides are swapped then), so
 * each list is in ascending serial order and a serial names one version
 * of one step: the journal writes a serial's rows once and deletes them
 * when the serial is gone. */
#include "edit/txn_history.h"

/* ---------------------------------------------------------------- state */

typedef struct {
  char *rel;
  /* The document the command wrote the file through, while it stays open
   * (NULL otherwise: then the disk is what counts), and its group. */
  EddiDoc *doc;
  uint64_t group;
  /* The document kept its unsaved edits (an embedder's modified copy,
   * transaction.h): a move takes the change back in it, and saves it not. */
  bool unsaved;
  /* A document opened since that the last move wrote through (the step
   * goes by the disk then), and the edit that move made in it: while that
   * edit is the document's newest, the step is still the document's newest
   * change. NULL when the document closes. */
  const EddiDoc *moved_in;
  uint64_t moved_group;
  /* The other side. */
  bool exists;
  StrBuf text; /* decoded */
  EddiFileFormat format;
  unsigned mode;
  /* The disk now, as the command (or the last move) left it. */
  EddiFileStamp now;
} TxnHistoryFile;

struct EddiTxnHistoryStep {
  Array(TxnHistoryFile) files;
  uint64_t serial; /* see the opening comment */
};

typedef Array(EddiTxnHistoryStep *) TxnHistorySteps;

struct EddiTxnHistory {
  TxnHistorySteps undo;
  TxnHistorySteps redo;
  uint64_t serial; /* the newest given */
};

static void txn_history__step_free(EddiTxnHistoryStep *step) {
  for (size_t i = 0; i < step->files.len; i++) {
    eddi_free(step->files.items[i].rel);
    eddi_strbuf_free(&step->files.items[i].text);
  }
  array_free(&step->files);
  eddi_free(step);
}

static void txn_history__clear(TxnHistorySteps *steps) {
  for (size_t i = 0; i < steps->len; i++) txn_history__step_free(steps->items[i]);
  array_clear(steps);
}

static void txn_history__free(void *data) {
  EddiTxnHistory *self = data;
  txn_history__clear(&self->undo);
  txn_history__clear(&self->redo);
  array_free(&self->undo);
  array_free(&self->redo);
  eddi_free(self);
}

/* doc is closing: its changes in the history are the disk's from now on. */
static bool txn_history__forget_doc(void *data, const EddiDoc *doc) {
  EddiTxnHistory *self = data;
  for (int list = 0; list < 2; list++) {
    TxnHistorySteps *steps = list ? &self->redo : &self->undo;
    for (size_t i = 0; i < steps->len; i++)
      for (size_t j = 0; j < steps->items[i]->files.len; j++) {
        TxnHistoryFile *file = &steps->items[i]->files.items[j];
        if (file->doc == doc) file->doc = NULL;
        if (file->moved_in == doc) file->moved_in = NULL;
      }
  }
  return false;
}

static const EddiSlotType txn_history_slot = {"multi-file history", txn_history__free,
                                              txn_history__forget_doc};

/* The session's history, or NULL when it has none. */
static EddiTxnHistory *txn_history__find(const EddiSession *session) {
  return eddi_session_slot(session, &txn_history_slot);
}


size_t eddi_txn_history_steps(const EddiSession *session, bool undo) {
  const EddiTxnHistory *self = txn_history__find(session);
  return !self ? 0 : undo ? self->undo.len : self->redo.len;
}

/* The id of doc's newest undo (or redo) group, 0 when it has none. */
static uint64_t txn_history__top_group(const EddiDoc *doc, bool undo) {
  const DocEditGroupList *list = undo ? &doc->undo : &doc->redo;
  return list->len ? list->items[list->len - 1].id : 0;
}

/* The stamp of rel's disk file now ({0} when missing or unreadable). */
static EddiFileStamp txn_history__disk_stamp(EddiWorkspace *workspace, const char *rel) {
  StrBuf raw = {0};
  EddiFileStamp stamp = {0};
  EddiError ignored;
  if (eddi_fs_read(eddi_workspace_root_fd(workspace), rel,
                   eddi_workspace_config(workspace)->max_file_bytes, &raw, &stamp, NULL,
                   &ignored) < 0)
    memset(&stamp, 0, sizeof stamp);
  eddi_strbuf_free(&raw);
  return stamp;
}

static void txn_history__set_bytes(TxnHistoryFile *file, const char *text, size_t len) {
  eddi_strbuf_clear(&file->text);
  eddi_strbuf_puts(&file->text, "");
  eddi_strbuf_append(&file->text, text ? text : "", len);
}

static void txn_history__set_text(TxnHistoryFile *file, const StrBuf *text) {
  txn_history__set_bytes(file, text->data, text->len);
}

/* The session's history, made on first use. */
static EddiTxnHistory *txn_history__of(EddiSession *session) {
  EddiTxnHistory *self = txn_history__find(session);
  if (!self) {
    self = eddi_calloc(1, sizeof *self);
    eddi_session_set_slot(session, &txn_history_slot, self);
  }
  return self;
}

/* Make room on the undo list for one more step: the oldest goes. */
static void txn_history__make_room(EddiTxnHistory *self) {
  if (self->undo.len < EDDI_TXN_HISTORY_STEPS) return;
  txn_history__step_free(self->undo.items[0]);
  array_remove(&self->undo, 0);
}

/* ---------------------------------------------------------------- note */

/* Whether a committed transaction file changed anything. */
static bool txn_history__changed(const EddiEditFile *file) {
  if (file->action == EDIT_DELETE) return true;
  if (file->action != EDIT_WRITE) return false;
  return !file->exists || file->text.len != file->result.len ||
         memcmp(file->text.data ? file->text.data : "", file->result.data ? file->result.data : "",
                file->text.len) != 0;
}

void eddi_txn_history_note(const EddiEditTxn *txn) {
  EddiSession *session = txn->session;
  if (!session) return;
  size_t changed = 0, disk = 0;
  for (size_t i = 0; i < txn->files.len; i++) {
    const EddiEditFile *file = txn->files.items[i];
    if (!txn_history__changed(file)) continue;
    changed++;
    disk += !file->doc;
  }
  if (changed < 2 && !disk) return;
  EddiTxnHistory *self = txn_history__of(session);
  txn_history__clear(&self->redo);
  EddiTxnHistoryStep *step = eddi_calloc(1, sizeof *step);
  step->serial = ++self->serial;
  for (size_t i = 0; i < txn->files.len; i++) {
    const EddiEditFile *file = txn->files.items[i];
    if (!txn_history__changed(file)) continue;
    TxnHistoryFile entry = {
        .rel = eddi_strdup(file->rel),
        .doc = file->doc,
        .group = file->doc ? txn_history__top_group(file->doc, true) : 0,
        .unsaved = file->keeps_unsaved,
        .exists = file->exists,
        .format = file->format,
        .mode = file->mode,
    };
    txn_history__set_text(&entry, &file->text);
    if (file->doc) entry.now = txn_history__disk_stamp(txn->workspace, file->rel);
    else if (file->action == EDIT_WRITE) entry.now = file->written;
    array_push(&step->files, entry);
  }
  txn_history__make_room(self);
  array_push(&self->undo, step);
}

/* ---------------------------------------------------------------- find */

/* Whether file's change is the newest in doc (undo) or the one undone
 * last (redo). */
static bool txn_history__doc_top(const TxnHistoryFile *file, const EddiDoc *doc, bool undo) {
  if (file->doc == doc) return txn_history__top_group(doc, undo) == file->group;
  if (file->doc) return false;
  /* Opened since, with no edit of its own yet, or none since the edit the
   * step's last move made in it (an Undo after a Redo). */
  return !txn_history__top_group(doc, undo) ||
         (undo && file->moved_in == doc && txn_history__top_group(doc, true) == file->moved_group);
}

EddiTxnHistoryStep *eddi_txn_history_find(EddiSession *session, const EddiDoc *doc, bool undo) {
  EddiTxnHistory *self = txn_history__find(session);
  if (!self) return NULL;
  const TxnHistorySteps *list = undo ? &self->undo : &self->redo;
  EddiTxnHistoryStep **steps = list->items;
  size_t len = list->len;
  if (!len) return NULL;
  if (!doc) return steps[len - 1];
  for (size_t i = len; i-- > 0;)
    for (size_t j = 0; j < steps[i]->files.len; j++) {
      const TxnHistoryFile *file = &steps[i]->files.items[j];
      if (strcmp(file->rel, doc->path) != 0) continue;
      /* The document's own edits since come first. */
      return txn_history__doc_top(file, doc, undo) ? steps[i] : NULL;
    }
  return txn_history__top_group(doc, undo) ? NULL : steps[len - 1];
}

bool eddi_txn_history_holds_group(const EddiSession *session, const EddiDoc *doc,
                                  uint64_t group) {
  const EddiTxnHistory *self = txn_history__find(session);
  if (!self) return false;
  const TxnHistorySteps *lists[] = {&self->undo, &self->redo};
  for (size_t l = 0; l < 2; l++)
    for (size_t i = 0; i < lists[l]->len; i++)
      for (size_t j = 0; j < lists[l]->items[i]->files.len; j++) {
        const TxnHistoryFile *file = &lists[l]->items[i]->files.items[j];
        if ((file->doc == doc && file->group == group) ||
            (file->moved_in == doc && file->moved_group == group))
          return true;
      }
  return false;
}

/* ---------------------------------------------------------------- move */

/* Whether file's document is open in session. */
static bool txn_history__doc_open(const TxnHistoryFile *file, const EddiSession *session) {
  for (size_t i = 0; file->doc && i < session->docs.len; i++)
    if (session->docs.items[i] == file->doc) return true;
  return false;
}

/* Load every file of step that is not moved through its document into
 * txn (entries[i], NULL for documents) and name in stale those that are
 * not what the step left. */
static int txn_history__load(EddiTxnHistoryStep *step, EddiEditTxn *txn, EddiSession *session,
                             bool undo, EddiEditFile **entries, StrBuf *stale, size_t *count,
                             EddiError *err) {
  for (size_t i = 0; i < step->files.len; i++) {
    TxnHistoryFile *file = &step->files.items[i];
    bool fresh;
    if (txn_history__doc_open(file, session)) {
      /* A change on disk behind the document becomes its newest step. */
      EddiError ignored;
      eddi_doc_sync(file->doc, &ignored);
      fresh = txn_history__top_group(file->doc, undo) == file->group;
    } else {
      int rc = eddi_edit_txn_file(txn, file->rel, &entries[i], err);
      if (rc < 0) return rc;
      EddiEditFile *entry = entries[i];
      EddiFileStamp disk = entry->doc ? txn_history__disk_stamp(txn->workspace, file->rel)
                           : entry->exists ? entry->stamp
                                           : (EddiFileStamp){0};
      fresh = eddi_fs_stamp_same(&disk, &file->now) && !(entry->doc && eddi_doc_modified(entry->doc));
      if (!file->exists) {
        eddi_edit_file_delete(entry);
      } else {
        eddi_edit_file_write(entry, file->text.data ? file->text.data : "", file->text.len);
        entry->format = file->format;
        entry->mode = file->mode;
      }
    }
    if (!fresh) eddi_strbuf_printf(stale, "%s%s", (*count)++ ? ", " : "", file->rel);
  }
  return 0;
}

/* Move the documents of step one group (undo or back); stop at the first
 * that fails, *moved counting those done. */
static int txn_history__move_docs(EddiTxnHistoryStep *step, EddiEditFile **entries, bool undo,
                                  size_t *moved, EddiError *err) {
  for (*moved = 0; *moved < step->files.len; (*moved)++) {
    TxnHistoryFile *file = &step->files.items[*moved];
    if (entries[*moved]) continue;
    size_t done;
    int rc = undo ? eddi_doc_undo(file->doc, 1, &done, err) : eddi_doc_redo(file->doc, 1, &done, err);
    if (rc < 0) return rc;
  }
  return 0;
}

static void txn_history__unmove_docs(EddiTxnHistoryStep *step, EddiEditFile **entries, bool undo,
                                     size_t moved) {
  EddiError ignored;
  size_t done;
  for (size_t i = 0; i < moved; i++)
    if (!entries[i])
      undo ? eddi_doc_redo(step->files.items[i].doc, 1, &done, &ignored)
           : eddi_doc_undo(step->files.items[i].doc, 1, &done, &ignored);
}

/* After the move: every file's side becomes what the move replaced. */
static void txn_history__swap(EddiTxnHistoryStep *step, EddiEditFile **entries, StrBuf *before,
                              EddiWorkspace *workspace) {
  for (size_t i = 0; i < step->files.len; i++) {
    TxnHistoryFile *file = &step->files.items[i];
    EddiEditFile *entry = entries[i];
    if (!entry) {
      txn_history__set_text(file, &before[i]);
      file->now = txn_history__disk_stamp(workspace, file->rel);
      continue;
    }
    /* Written through a document opened since: its own history holds the
     * move as a new edit, so the step goes by the disk from now on (and
     * knows that edit, see moved_in). */
    file->doc = NULL;
    file->moved_in = entry->doc;
    file->moved_group = entry->doc ? txn_history__top_group(entry->doc, true) : 0;
    file->exists = entry->exists;
    file->format = entry->format;
    file->mode = entry->mode;
    txn_history__set_text(file, &entry->text);
    file->now = entry->doc ? txn_history__disk_stamp(workspace, file->rel)
                : entry->action == EDIT_WRITE ? entry->written
                                              : (EddiFileStamp){0};
  }
}

/* Take step from the list it is on (undo: the undo list) to the other. */
static void txn_history__transfer(EddiTxnHistory *self, EddiTxnHistoryStep *step, bool undo) {
  TxnHistorySteps *from = undo ? &self->undo : &self->redo;
  TxnHistorySteps *to = undo ? &self->redo : &self->undo;
  for (size_t i = 0; i < from->len; i++) {
    if (from->items[i] != step) continue;
    array_remove(from, i);
    step->serial = ++self->serial;
    array_push(to, step);
    return;
  }
}

int eddi_txn_history_move(EddiTxnHistoryStep *step, EddiWorkspace *workspace, EddiSession *session,
                          bool undo, StrBuf *files, EddiError *err) {
  size_t n = step->files.len, stale_count = 0, moved = 0;
  EddiEditFile **entries = eddi_calloc(n ? n : 1, sizeof *entries);
  StrBuf *before = eddi_calloc(n ? n : 1, sizeof *before);
  StrBuf stale = {0};
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  int rc = txn_history__load(step, &txn, session, undo, entries, &stale, &stale_count, err);
  if (rc == 0 && stale_count) {
    rc = eddi_error_set(err, EDDI_ESTALE, "%s: %zu file%s changed since: %s; nothing %s",
                        undo ? "Undo" : "Redo", stale_count, stale_count == 1 ? "" : "s",
                        stale.data, undo ? "put back" : "redone");
    eddi_error_hint(err, "Those files were edited after the change: eddi does not overwrite them");
  }
  /* What each document holds before its move, for the other side. */
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (entries[i]) continue;
    EddiDoc *doc = step->files.items[i].doc;
    size_t len = eddi_text_len(&doc->text);
    char *copy = eddi_text_dup(&doc->text, 0, len);
    eddi_strbuf_puts(&before[i], "");
    eddi_strbuf_append(&before[i], copy, len);
    eddi_free(copy);
  }
  if (rc == 0) rc = txn_history__move_docs(step, entries, undo, &moved, err);
  if (rc == 0) rc = eddi_edit_txn_commit(&txn, NULL, err);
  if (rc < 0) txn_history__unmove_docs(step, entries, undo, moved);
  /* The documents are saved last: the disk files went back all or none,
   * and a document's save is the one write that can still fail here. */
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (entries[i] || step->files.items[i].unsaved || !eddi_doc_modified(step->files.items[i].doc))
      continue;
    size_t bytes;
    rc = eddi_workspace_save_doc(workspace, step->files.items[i].doc, &bytes, err);
  }
  if (rc == 0) {
    txn_history__swap(step, entries, before, workspace);
    for (size_t i = 0; i < n; i++)
      eddi_strbuf_printf(files, "%s%s", i ? ", " : "", step->files.items[i].rel);
    txn_history__transfer(txn_history__find(session), step, undo);
  }
  for (size_t i = 0; i < n; i++) eddi_strbuf_free(&before[i]);
  eddi_free(before);
  eddi_free(entries);
  eddi_strbuf_free(&stale);
  eddi_edit_txn_free(&txn);
  return rc;
}

/* ---------------------------------------------------------------- the journal */

uint64_t eddi_txn_history_serial(const EddiSession *session) {
  const EddiTxnHistory *self = txn_history__find(session);
  return self ? self->serial : 0;
}

const EddiTxnHistoryStep *eddi_txn_history_step(const EddiSession *session, bool undo,
                                                size_t index) {
  const EddiTxnHistory *self = txn_history__find(session);
  const TxnHistorySteps *list = !self ? NULL : undo ? &self->undo : &self->redo;
  return list && index < list->len ? list->items[index] : NULL;
}

uint64_t eddi_txn_history_step_serial(const EddiTxnHistoryStep *step) { return step->serial; }

size_t eddi_txn_history_step_files(const EddiTxnHistoryStep *step) { return step->files.len; }

void eddi_txn_history_step_file(const EddiTxnHistoryStep *step, size_t index,
                                EddiTxnHistoryFileView *out) {
  const TxnHistoryFile *file = &step->files.items[index];
  *out = (EddiTxnHistoryFileView){
      .rel = file->rel,
      .exists = file->exists,
      .text = file->text.data ? file->text.data : "",
      .len = file->text.len,
      .format = file->format,
      .mode = file->mode,
      .now = file->now,
  };
  /* A file that kept a user's unsaved edits goes by its document alone:
   * restored (by the disk only), the step is refused for it ("changed
   * since") rather than write its old text, the user's edits among it, to
   * the disk. No file has this stamp. */
  if (file->unsaved) out->now = (EddiFileStamp){.exists = true, .size = -1};
}

EddiTxnHistoryStep *eddi_txn_history_restore_step(EddiSession *session, bool undo,
                                                  uint64_t serial) {
  EddiTxnHistory *self = txn_history__of(session);
  EddiTxnHistoryStep *step = eddi_calloc(1, sizeof *step);
  step->serial = serial;
  self->serial = EDDI_MAX(self->serial, serial);
  if (undo) txn_history__make_room(self);
  array_push(undo ? &self->undo : &self->redo, step);
  return step;
}

void eddi_txn_history_restore_file(EddiTxnHistoryStep *step, const EddiTxnHistoryFileView *file) {
  /* No document: the restored documents' groups are new (see txn_history.h). */
  TxnHistoryFile entry = {
      .rel = eddi_strdup(file->rel),
      .exists = file->exists,
      .format = file->format,
      .mode = file->mode,
      .now = file->now,
  };
  txn_history__set_bytes(&entry, file->text, file->len);
  array_push(&step->files, entry);
}
