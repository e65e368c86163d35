/* journal_restore.c - on start, the sessions of processes that died come
 * back: their files opened again, the unsaved edits re-applied onto the
 * disk text they were made against, or merged onto a newer one, or (when
 * they overlap a change on disk) kept in the state folder and reported.
 * The session's multi-file Undo and Redo steps come back as they were
 * journaled; their files are checked by the disk when moved (see
 * edit/txn_history.h), so a step restored over files changed since is
 * refused with their names, as before the restart.
 * See journal_sessions.c for how they were written.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/embedded_backend.h"
#include "core/merge.h"
#include "core/path.h"
#include "edit/edit_state.h"
#include "edit/txn_history.h"
#include "script/changeset.h"
#include "session/engine.h"
#include "session/journal.h"

/* What restoring sessions found, for the log and each Start reply. */
typedef struct {
  size_t files;
  size_t edits;
  size_t bookmarks;
  StrBuf notes; /* "; a.py changed on disk: ..." */
} RestoreCount;

static const char *restore__text(sqlite3_stmt *stmt, int column) {
  const unsigned char *text = sqlite3_column_text(stmt, column);
  return text ? (const char *)text : NULL;
}

/* ------------------------------------------------------------ edits */

typedef struct {
  uint64_t group;
  size_t start;
  StrBuf removed, inserted;
} RestoreEdit;

typedef Array(RestoreEdit) RestoreEdits;

/* Drop the edits from the at-th on. */
static void restore__edits_drop_from(RestoreEdits *edits, size_t at) {
  for (size_t i = at; i < edits->len; i++) {
    eddi_strbuf_free(&edits->items[i].removed);
    eddi_strbuf_free(&edits->items[i].inserted);
  }
  if (at < edits->len) edits->len = at;
}

static void restore__edits_free(RestoreEdits *edits) {
  restore__edits_drop_from(edits, 0);
  array_free(edits);
}

static void restore__load_edits(sqlite3 *db, const char *session, const char *path,
                                RestoreEdits *edits) {
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db, "SELECT grp, start, removed, inserted FROM edits"
                             " WHERE session=? AND path=? ORDER BY seq",
                         -1, &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text(stmt, 1, session, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, path, -1, SQLITE_STATIC);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    RestoreEdit edit = {(uint64_t)sqlite3_column_int64(stmt, 0),
                        (size_t)sqlite3_column_int64(stmt, 1), {0}, {0}};
    eddi_strbuf_append(&edit.removed, sqlite3_column_blob(stmt, 2),
                       (size_t)sqlite3_column_bytes(stmt, 2));
    eddi_strbuf_append(&edit.inserted, sqlite3_column_blob(stmt, 3),
                       (size_t)sqlite3_column_bytes(stmt, 3));
    array_push(edits, edit);
  }
  sqlite3_finalize(stmt);
}

/* Whether every edit fits text in turn (its removed bytes are there). */
static bool restore__apply_text(StrBuf *text, const RestoreEdits *edits) {
  for (size_t i = 0; i < edits->len; i++) {
    const RestoreEdit *edit = &edits->items[i];
    if (edit->start > text->len || edit->removed.len > text->len - edit->start ||
        memcmp(text->data + edit->start, edit->removed.data ? edit->removed.data : "",
               edit->removed.len) != 0)
      return false;
    StrBuf next = {0};
    eddi_strbuf_append(&next, text->data, edit->start);
    eddi_strbuf_append(&next, edit->inserted.data ? edit->inserted.data : "", edit->inserted.len);
    size_t tail = edit->start + edit->removed.len;
    eddi_strbuf_append(&next, text->data + tail, text->len - tail);
    eddi_strbuf_puts(&next, "");
    eddi_strbuf_free(text);
    *text = next;
  }
  return true;
}

/* Re-apply edits to doc, one undo group per journaled group. */
static bool restore__replay(EddiDoc *doc, const RestoreEdits *edits) {
  EddiError err;
  for (size_t i = 0; i < edits->len; i++) {
    const RestoreEdit *edit = &edits->items[i];
    bool first = i == 0 || edit->group != edits->items[i - 1].group;
    if (i && first) eddi_doc_end_group(doc);
    size_t len = eddi_text_len(&doc->text);
    if (edit->start > len || edit->removed.len > len - edit->start) return false;
    /* Undo of the group puts the cursor back where the edit began. */
    if (first) doc->cursor = edit->start;
    if (eddi_doc_replace(doc, edit->start, edit->start + edit->removed.len,
                         edit->inserted.data ? edit->inserted.data : "", edit->inserted.len,
                         &err) < 0)
      return false;
    /* Redo of the group puts it after the edit, as typing left it. */
    doc->cursor = edit->start + edit->inserted.len;
  }
  eddi_doc_end_group(doc);
  return true;
}

/* Where the last `undone` groups of edits begin: the groups Undo took
 * back, journaled after the others so that Redo has them again. */
static size_t restore__undone_from(const RestoreEdits *edits, size_t undone) {
  size_t at = edits->len;
  for (size_t groups = 0; groups < undone && at > 0; groups++) {
    uint64_t group = edits->items[at - 1].group;
    while (at > 0 && edits->items[at - 1].group == group) at--;
  }
  return at;
}

/* Keep unsaved text that could not be applied in the state folder. */
static void restore__keep(EddiEngine *engine, const char *session, const char *path,
                          const StrBuf *text, char *kept, size_t kept_size) {
  char error[EDDI_ERROR_MAX];
  const char *state = eddi_engine_state_dir(engine, error, sizeof error);
  kept[0] = '\0';
  if (!state) return;
  char flat[EDDI_FS_PATH_MAX];
  snprintf(flat, sizeof flat, "%s", path);
  for (char *c = flat; *c; c++)
    if (*c == '/') *c = '!';
  char folder[EDDI_FS_PATH_MAX];
  snprintf(folder, sizeof folder, "%.2000s/unsaved", state);
  mkdir(folder, 0700);
  snprintf(kept, kept_size, "%.2000s/%.64s-%.1900s", folder, session, flat);
  /* The folder and the file are this user's, never reached through a
   * link (the state folder's rules, doc/security.org). */
  struct stat st;
  int fd = lstat(folder, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()
               ? open(kept, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
                      0600)
               : -1;
  if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    kept[0] = '\0';
    return;
  }
  for (size_t done = 0; done < text->len;) {
    ssize_t n = write(fd, text->data + done, text->len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  close(fd);
}

/* The edits as a reader can apply them by hand: each one's offset (into
 * the text the edits apply to, after the edits before it), the bytes it
 * removed and the bytes it inserted. */
static void restore__edits_listing(const char *path, const RestoreEdits *edits, StrBuf *out) {
  eddi_strbuf_printf(out, "Unsaved edits of %s, in order, each at a byte offset of the text as "
                          "the edits before it left it:\n", path);
  for (size_t i = 0; i < edits->len; i++) {
    const RestoreEdit *edit = &edits->items[i];
    eddi_strbuf_printf(out, "\n@@ at byte %zu, %zu bytes removed:\n", edit->start,
                       edit->removed.len);
    eddi_strbuf_append(out, edit->removed.data ? edit->removed.data : "", edit->removed.len);
    eddi_strbuf_printf(out, "\n@@ %zu bytes inserted:\n", edit->inserted.len);
    eddi_strbuf_append(out, edit->inserted.data ? edit->inserted.data : "", edit->inserted.len);
    eddi_strbuf_puts(out, "\n");
  }
}

/* ------------------------------------------------------------ files */

/* Whether doc's text differs from what a save would replace: a live
 * buffer (the Emacs backend) that has edits of its own. */
static bool restore__buffer_edited(const EddiDoc *doc) {
  if (!doc->backend->vtable->saved_text) return false;
  StrBuf saved = {0};
  EddiError ignored;
  eddi_strbuf_puts(&saved, "");
  bool edited = false;
  if (doc->backend->vtable->saved_text(doc->backend, &saved, &ignored) == 0) {
    size_t len = eddi_text_len(&doc->text);
    char *text = eddi_text_dup(&doc->text, 0, len);
    edited = len != saved.len || memcmp(text, saved.data, len) != 0;
    eddi_free(text);
  }
  eddi_strbuf_free(&saved);
  return edited;
}

/* Open one journaled file into session and bring its unsaved work back. */
static void restore__doc(EddiEngine *engine, sqlite3 *db, EddiSession *session,
                         sqlite3_stmt *row, RestoreCount *count) {
  const char *path = restore__text(row, 0);
  size_t cursor = (size_t)sqlite3_column_int64(row, 1);
  const char *marks = sqlite3_column_blob(row, 2);
  size_t marks_len = (size_t)sqlite3_column_bytes(row, 2);
  uint64_t base_hash = (uint64_t)sqlite3_column_int64(row, 3);
  bool has_base = sqlite3_column_type(row, 4) != SQLITE_NULL;
  bool was_new = sqlite3_column_int(row, 5) != 0;
  size_t undone = (size_t)sqlite3_column_int64(row, 6);
  bool outside = sqlite3_column_int(row, 7) != 0;
  char *rel = NULL, *abs = NULL;
  EddiError err;
  EddiWorkspace *workspace = engine->workspace;
  if (!path || eddi_path_resolve(eddi_workspace_root(workspace), path, &rel, &abs, &err) < 0)
    return;
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new = false;
  EddiDocRequest request = {.rel = rel, .abs = abs, .create = was_new};
  int rc = eddi_workspace_open_backend(workspace, &request, &backend, &text, &is_new, &err);
  RestoreEdits edits = {0};
  restore__load_edits(db, session->name, path, &edits);
  size_t live = restore__undone_from(&edits, undone);
  if (rc < 0) {
    eddi_strbuf_printf(&count->notes, "; %s cannot be opened (%s)%s", path, err.what,
                       edits.len ? ": its unsaved edits stay in the journal until End" : "");
    restore__edits_free(&edits);
    eddi_free(rel), eddi_free(abs), eddi_strbuf_free(&text);
    return;
  }
  EddiDoc *doc = eddi_doc_new(rel, backend, text.data ? text.data : "", text.len, is_new,
                              eddi_workspace_config(workspace)->undo_groups);
  /* A buffer with unsaved edits of its own: modified, its text not ours. */
  eddi_embedded_note_opened(doc);
  eddi_session_add_doc(session, doc);
  count->files++;
  EddiFileStamp stamp = {0};
  if (backend->vtable->stamp) backend->vtable->stamp(backend, &stamp);
  uint64_t disk_hash = stamp.exists ? stamp.hash : 0;
  bool disk_as_base = disk_hash == base_hash;
  /* On another disk text the undone groups (Redo's) are of no use. */
  if (!disk_as_base) restore__edits_drop_from(&edits, live);
  bool applied = false;
  if (edits.len && restore__buffer_edited(doc)) {
    /* A live buffer edited since its file was read: its text wins. */
    eddi_strbuf_printf(&count->notes, "; %s: the buffer's text was kept, not %zu unsaved edits",
                       path, live);
  } else if (edits.len && disk_as_base) {
    /* The undone groups are made too, and undone again: Redo has them. */
    size_t done;
    if (restore__replay(doc, &edits) &&
        (live == edits.len || eddi_doc_undo(doc, undone, &done, &err) == 0)) {
      count->edits += live;
      applied = true;
    } else {
      eddi_strbuf_printf(&count->notes, "; %s: its unsaved edits do not fit", path);
    }
  } else if (edits.len && !has_base) {
    /* The disk changed and the text the edits apply to was not kept (a
     * large file): their offsets mean nothing in the new text, so they
     * are kept aside, never applied to it. */
    StrBuf listing = {0};
    char kept[EDDI_FS_PATH_MAX];
    restore__edits_listing(path, &edits, &listing);
    restore__keep(engine, session->name, path, &listing, kept, sizeof kept);
    eddi_strbuf_printf(&count->notes,
                       "; %s changed on disk, and the text its %zu unsaved edits apply to was "
                       "not kept: not applied, the edits are kept in %s",
                       path, edits.len, kept[0] ? kept : "the journal");
    eddi_strbuf_free(&listing);
  } else if (edits.len) {
    /* The disk changed: merge the edits onto it, or keep them aside. */
    StrBuf base = {0}, mine = {0}, merged = {0};
    eddi_strbuf_puts(&base, "");
    eddi_strbuf_append(&base, sqlite3_column_blob(row, 4), (size_t)sqlite3_column_bytes(row, 4));
    eddi_strbuf_append(&mine, base.data, base.len);
    eddi_strbuf_puts(&mine, "");
    bool fits = restore__apply_text(&mine, &edits);
    EddiMergeReport merge = {0};
    bool clean = fits && eddi_merge3(base.data, base.len, mine.data, mine.len,
                                     text.data ? text.data : "", text.len, &merged, &merge) == 0;
    if (clean && eddi_doc_replace_all(doc, merged.data ? merged.data : "", merged.len, NULL,
                                      &err) == 0) {
      eddi_doc_end_group(doc);
      count->edits += edits.len;
      applied = true;
      eddi_strbuf_printf(&count->notes, "; %s changed on disk: %zu unsaved edits rebased onto it",
                         path, edits.len);
    } else {
      char kept[EDDI_FS_PATH_MAX];
      restore__keep(engine, session->name, path, fits ? &mine : &base, kept, sizeof kept);
      eddi_strbuf_printf(&count->notes,
                         "; %s changed on disk where %zu unsaved edits change it: not applied, "
                         "the unsaved text is kept in %s",
                         path, edits.len, kept[0] ? kept : "the journal");
    }
    eddi_strbuf_free(&base), eddi_strbuf_free(&mine), eddi_strbuf_free(&merged);
  }
  if (applied && outside) {
    /* Not all of that text is the session's: someone typed in the editor
     * too. Said, so that a front end does not take it all for the
     * session's (an agent's review would offer to reject the typing). */
    doc->outside_edits = true;
    eddi_strbuf_printf(&count->notes, "; %s: its unsaved edits hold some typed outside the session",
                       path);
  }
  size_t len = eddi_text_len(&doc->text);
  doc->cursor = EDDI_MIN(cursor, len);
  size_t at = 0, name_len, offset_len;
  const char *name, *offset;
  while (marks && eddi_journal_blob_next(marks, marks_len, &at, &name, &name_len) &&
         eddi_journal_blob_next(marks, marks_len, &at, &offset, &offset_len)) {
    char digits[32];
    snprintf(digits, sizeof digits, "%.*s", (int)EDDI_MIN(offset_len, sizeof digits - 1), offset);
    char *mark = eddi_strndup(name, name_len);
    eddi_doc_set_mark(doc, mark, EDDI_MIN((size_t)strtoull(digits, NULL, 10), len));
    eddi_free(mark);
    count->bookmarks++;
  }
  restore__edits_free(&edits);
  eddi_free(rel), eddi_free(abs), eddi_strbuf_free(&text);
}

/* ------------------------------------------------------------ sessions */

static void restore__registers(EddiSession *session, const char *blob, size_t len) {
  size_t at = 0, name_len, text_len;
  const char *name, *text;
  while (blob && eddi_journal_blob_next(blob, len, &at, &name, &name_len) &&
         eddi_journal_blob_next(blob, len, &at, &text, &text_len)) {
    char *key = eddi_strndup(name, name_len);
    eddi_register_set(&eddi_edit_state_of(session)->registers, key, text, text_len);
    eddi_free(key);
  }
}

static size_t restore__snapshots(sqlite3 *db, EddiSession *session) {
  sqlite3_stmt *stmt = NULL;
  size_t restored = 0;
  if (sqlite3_prepare_v2(db, "SELECT path, tag, text FROM (SELECT * FROM snapshots"
                             " WHERE session=? ORDER BY stamp DESC LIMIT ?) ORDER BY stamp",
                         -1, &stmt, NULL) != SQLITE_OK)
    return 0;
  sqlite3_bind_text(stmt, 1, session->name, -1, SQLITE_STATIC);
  sqlite3_bind_int(stmt, 2, EDDI_SNAPSHOTS_MAX);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *path = restore__text(stmt, 0), *tag = restore__text(stmt, 1);
    if (!path || !tag || strlen(tag) != 4) continue;
    eddi_snapshot_record(eddi_edit_state_of(session), path, sqlite3_column_blob(stmt, 2),
                         (size_t)sqlite3_column_bytes(stmt, 2), tag, 0, 0);
    restored++;
  }
  sqlite3_finalize(stmt);
  return restored;
}

/* ------------------------------------------------------------ changesets */

static char *restore__blob(sqlite3_stmt *stmt, int column, size_t *len) {
  *len = (size_t)sqlite3_column_bytes(stmt, column);
  const void *bytes = sqlite3_column_blob(stmt, column);
  return eddi_strndup(bytes ? bytes : "", *len);
}

/* A stamp of its three columns (exists, size, hash): what
 * eddi_fs_stamp_same compares. */
static EddiFileStamp restore__stamp(sqlite3_stmt *stmt, int column) {
  EddiFileStamp stamp = {0};
  stamp.exists = sqlite3_column_int(stmt, column) != 0;
  stamp.size = (off_t)sqlite3_column_int64(stmt, column + 1);
  stamp.hash = (uint64_t)sqlite3_column_int64(stmt, column + 2);
  return stamp;
}

static void restore__changeset_files(sqlite3 *db, const char *session, EddiChangeset *changeset) {
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db, "SELECT path, existed, before_raw, collected_exists, collected_size,"
                             " collected_hash, before, after, applied_exists, applied_size,"
                             " applied_hash FROM changeset_files"
                             " WHERE session=? AND changeset=? ORDER BY ord",
                         -1, &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text(stmt, 1, session, -1, SQLITE_STATIC);
  sqlite3_bind_text(stmt, 2, changeset->name, -1, SQLITE_STATIC);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *path = restore__text(stmt, 0);
    if (!path) continue;
    EddiChangeFile file = {.path = eddi_strdup(path), .existed = sqlite3_column_int(stmt, 1) != 0};
    file.before_raw = restore__blob(stmt, 2, &file.before_raw_len);
    file.collected = restore__stamp(stmt, 3);
    file.before = restore__blob(stmt, 6, &file.before_len);
    file.after = restore__blob(stmt, 7, &file.after_len);
    file.applied = restore__stamp(stmt, 8);
    array_push(&changeset->files, file);
  }
  sqlite3_finalize(stmt);
}

/* The session's changesets, as collected or applied, each settled by its
 * files (an apply or rollback the process died in the middle of, rolled
 * forward: eddi_changeset_settle); how many. */
static size_t restore__changesets(sqlite3 *db, EddiEngine *engine, EddiSession *session,
                                  StrBuf *notes) {
  sqlite3_stmt *stmt = NULL;
  size_t restored = 0;
  if (sqlite3_prepare_v2(db, "SELECT name, status FROM changesets WHERE session=? ORDER BY ord",
                         -1, &stmt, NULL) != SQLITE_OK)
    return 0;
  sqlite3_bind_text(stmt, 1, session->name, -1, SQLITE_STATIC);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *name = restore__text(stmt, 0);
    int status = sqlite3_column_int(stmt, 1);
    if (!name || status < EDDI_CHANGESET_COLLECTED || status > EDDI_CHANGESET_ROLLED_BACK)
      continue;
    EddiChangeset *changeset = eddi_calloc(1, sizeof *changeset);
    changeset->name = eddi_strdup(name);
    changeset->status = (EddiChangesetStatus)status;
    restore__changeset_files(db, session->name, changeset);
    if (eddi_changeset_settle(changeset, engine->workspace))
      eddi_strbuf_printf(notes, "; changeset %s was %s when eddi stopped: now %s", name,
                         changeset->status == EDDI_CHANGESET_APPLIED ? "being applied"
                                                                     : "being rolled back",
                         changeset->status == EDDI_CHANGESET_APPLIED ? "applied" : "rolled back");
    eddi_script_state_add_changeset(eddi_script_state_of(session), changeset);
    restored++;
  }
  sqlite3_finalize(stmt);
  return restored;
}

/* ------------------------------------------------------------ multi-file undo */

/* The session's Undo and Redo steps, each list in its order (ascending
 * serials), each step's files in theirs. */
static void restore__txn_history(sqlite3 *db, EddiSession *session) {
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db, "SELECT step, redo, path, side_exists, side_text, side_bom,"
                             " side_crlf, side_mode, now_exists, now_size, now_hash"
                             " FROM txn_files WHERE session=? ORDER BY step, ord",
                         -1, &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text(stmt, 1, session->name, -1, SQLITE_STATIC);
  EddiTxnHistoryStep *step = NULL;
  uint64_t serial = 0;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *path = restore__text(stmt, 2);
    if (!path) continue; /* NOT NULL in the schema */
    uint64_t row_serial = (uint64_t)sqlite3_column_int64(stmt, 0);
    if (!step || row_serial != serial) {
      serial = row_serial;
      step = eddi_txn_history_restore_step(session, sqlite3_column_int(stmt, 1) == 0, serial);
    }
    const void *text = sqlite3_column_blob(stmt, 4);
    EddiTxnHistoryFileView file = {
        .rel = path,
        .exists = sqlite3_column_int(stmt, 3) != 0,
        .text = text ? text : "",
        .len = (size_t)sqlite3_column_bytes(stmt, 4),
        .format = {.bom = sqlite3_column_int(stmt, 5) != 0,
                   .crlf = sqlite3_column_int(stmt, 6) != 0},
        .mode = (unsigned)sqlite3_column_int(stmt, 7),
        .now = restore__stamp(stmt, 8),
    };
    eddi_txn_history_restore_file(step, &file);
  }
  sqlite3_finalize(stmt);
}

/* ------------------------------------------------------------ the session row */

/* Bring back one session row (name, sender, description, raw, current,
 * registers). */
static void restore__session(EddiJournal *self, EddiEngine *engine, sqlite3_stmt *row,
                             StrBuf *report) {
  sqlite3 *db = eddi_journal_db(self);
  const char *name = restore__text(row, 0), *sender = restore__text(row, 1);
  if (!name || !sender || eddi_sessions_by_name(engine->sessions, name) ||
      eddi_sessions_by_sender(engine->sessions, sender))
    return;
  EddiSession *session =
      eddi_sessions_start(engine->sessions, name, restore__text(row, 2), sender);
  session->raw_payloads = sqlite3_column_int(row, 3) != 0;
  RestoreCount count = {0};
  sqlite3_stmt *docs = NULL;
  if (sqlite3_prepare_v2(db, "SELECT path, cursor, marks, base_hash, base_text, is_new, undone,"
                             " outside FROM docs"
                             " WHERE session=? ORDER BY ord",
                         -1, &docs, NULL) == SQLITE_OK) {
    sqlite3_bind_text(docs, 1, name, -1, SQLITE_STATIC);
    while (sqlite3_step(docs) == SQLITE_ROW) restore__doc(engine, db, session, docs, &count);
  }
  sqlite3_finalize(docs);
  const char *current = restore__text(row, 4);
  bool ambiguous;
  EddiDoc *doc = current ? eddi_session_find_doc(session, current, &ambiguous) : NULL;
  session->current = doc ? doc : session->docs.len ? *array_back(&session->docs) : NULL;
  restore__registers(session, sqlite3_column_blob(row, 5), (size_t)sqlite3_column_bytes(row, 5));
  size_t registers = eddi_edit_state_find(session) ? eddi_edit_state_find(session)->registers.len : 0;
  size_t snapshots = restore__snapshots(db, session);
  size_t changesets = restore__changesets(db, engine, session, &count.notes);
  restore__txn_history(db, session);

  StrBuf what = {0};
  eddi_strbuf_printf(&what, "%zu file%s open", count.files, count.files == 1 ? "" : "s");
  if (count.edits)
    eddi_strbuf_printf(&what, ", %zu unsaved edit%s re-applied", count.edits,
                       count.edits == 1 ? "" : "s");
  if (count.bookmarks)
    eddi_strbuf_printf(&what, ", %zu bookmark%s", count.bookmarks, count.bookmarks == 1 ? "" : "s");
  if (registers)
    eddi_strbuf_printf(&what, ", %zu register%s", registers, registers == 1 ? "" : "s");
  if (snapshots)
    eddi_strbuf_printf(&what, ", %zu snapshot%s", snapshots, snapshots == 1 ? "" : "s");
  if (changesets)
    eddi_strbuf_printf(&what, ", %zu changeset%s", changesets, changesets == 1 ? "" : "s");
  if (count.notes.len) eddi_strbuf_append(&what, count.notes.data, count.notes.len);
  eddi_strbuf_printf(report, "Session %s of %s restored: %s\n", name, sender, what.data);
  session->resumed = eddi_strbuf_take(&what);
  eddi_strbuf_free(&count.notes);
  eddi_registry_add(&engine->registry, name, sender, NULL);
}

int eddi_journal_list_file(const char *path, StrBuf *out) {
  struct stat st;
  if (stat(path, &st) < 0) return 0;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc = EDDI_EIO;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2(db, "SELECT s.name, s.sender,"
                             " (SELECT group_concat(path, ', ') FROM"
                             "   (SELECT path FROM docs WHERE session=s.name ORDER BY ord)),"
                             " (SELECT count(*) FROM edits WHERE session=s.name)"
                             " FROM sessions s ORDER BY s.name",
                         -1, &stmt, NULL) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const char *files = restore__text(stmt, 2);
      eddi_strbuf_printf(out, "%s\t%s\t%s\t%lld\n", restore__text(stmt, 0) ? restore__text(stmt, 0) : "",
                         restore__text(stmt, 1) ? restore__text(stmt, 1) : "", files ? files : "",
                         (long long)sqlite3_column_int64(stmt, 3));
    }
    rc = 0;
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rc;
}

/* Whether name is one of the lines of names. */
static bool restore__chosen(const char *names, const char *name) {
  size_t len = strlen(name);
  for (const char *at = names; *at;) {
    const char *end = strchr(at, '\n');
    size_t n = end ? (size_t)(end - at) : strlen(at);
    if (n == len && memcmp(at, name, len) == 0) return true;
    if (!end) break;
    at = end + 1;
  }
  return false;
}

int eddi_journal_restore(EddiJournal *self, EddiEngine *engine, StrBuf *report) {
  return eddi_journal_take_over(self, engine, NULL, report);
}

int eddi_journal_take_over(EddiJournal *self, EddiEngine *engine, const char *instance,
                           StrBuf *report) {
  sqlite3 *db = eddi_journal_db(self);
  sqlite3_stmt *stmt = NULL;
  typedef struct {
    char *name;
    sqlite3_int64 pid;
  } Taken;
  Array(Taken) taken = {0};
  eddi_journal_flush(self);
  if (sqlite3_prepare_v2(db, "SELECT name, owner_pid, owner_host, instance, owner_log FROM sessions"
                             " ORDER BY name",
                         -1, &stmt, NULL) != SQLITE_OK)
    return EDDI_EIO;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *holder = restore__text(stmt, 3);
    if (instance && (!holder || strcmp(holder, instance) != 0)) continue;
    /* On start, only the sessions the user chose (the others stay). */
    if (!instance && engine->resume_only &&
        !restore__chosen(engine->resume_only, restore__text(stmt, 0) ? restore__text(stmt, 0) : ""))
      continue;
    /* An instance found dead by liveness (no responders, or silent past
     * the timeout) is taken at its word even when its process still
     * exists (stopped): it stands down when it comes back. */
    if (instance ||
        eddi_journal_owner_dead(self, (long)sqlite3_column_int64(stmt, 1), restore__text(stmt, 2),
                                restore__text(stmt, 4))) {
      Taken entry = {eddi_strdup(restore__text(stmt, 0)), sqlite3_column_int64(stmt, 1)};
      array_push(&taken, entry);
    }
  }
  sqlite3_finalize(stmt);
  /* What the holder's process logged and had not applied yet (it may be
   * stopped rather than gone) goes in before its sessions are read. */
  for (size_t i = 0; instance && i < taken.len; i++) {
    bool seen = false;
    for (size_t k = 0; k < i && !seen; k++) seen = taken.items[k].pid == taken.items[i].pid;
    if (!seen) eddi_journal_replay_of(self, (long)taken.items[i].pid);
  }
  for (size_t i = 0; i < taken.len; i++) {
    /* Claim it first: another process starting now must not take it too. */
    sqlite3_stmt *claim = NULL, *row = NULL;
    bool claimed = false;
    if (sqlite3_prepare_v2(db, "UPDATE sessions SET owner_pid=?, owner_host=?, instance=?,"
                               " owner_log=? WHERE name=? AND owner_pid=?",
                           -1, &claim, NULL) == SQLITE_OK) {
      const char *mine = eddi_journal_instance(self), *log = eddi_journal_log_name(self);
      sqlite3_bind_int64(claim, 1, eddi_journal_pid(self));
      sqlite3_bind_text(claim, 2, eddi_journal_host(self), -1, SQLITE_STATIC);
      if (mine) sqlite3_bind_text(claim, 3, mine, -1, SQLITE_STATIC);
      else sqlite3_bind_null(claim, 3);
      if (log) sqlite3_bind_text(claim, 4, log, -1, SQLITE_STATIC);
      else sqlite3_bind_null(claim, 4);
      sqlite3_bind_text(claim, 5, taken.items[i].name, -1, SQLITE_STATIC);
      sqlite3_bind_int64(claim, 6, taken.items[i].pid);
      claimed = sqlite3_step(claim) == SQLITE_DONE && sqlite3_changes(db) == 1;
    }
    sqlite3_finalize(claim);
    if (claimed &&
        sqlite3_prepare_v2(db, "SELECT name, sender, description, raw_payloads, current_path,"
                               " registers FROM sessions WHERE name=?",
                           -1, &row, NULL) == SQLITE_OK) {
      sqlite3_bind_text(row, 1, taken.items[i].name, -1, SQLITE_STATIC);
      if (sqlite3_step(row) == SQLITE_ROW) restore__session(self, engine, row, report);
    }
    sqlite3_finalize(row);
    EddiSession *session = claimed ? eddi_sessions_by_name(engine->sessions, taken.items[i].name)
                                   : NULL;
    if (session && instance) session->taken_from = eddi_strdup(instance);
    if (claimed) eddi_journal_adopt(self, session);
    eddi_free(taken.items[i].name);
  }
  array_free(&taken);
  return 0;
}
