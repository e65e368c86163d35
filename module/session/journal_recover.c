/* journal_recover.c - on start, finish or undo the multi-file changes a
 * dead process left half done, then sweep eddi's temporary files.
 *
 * A change's intent is recorded after every new file was written and
 * fsynced beside its target and every old file hard-linked to a backup
 * name, and before the first rename. So when the intent is there, each
 * file is in one of three states: old (its old hash, the temp still
 * waiting), new (its new hash, or gone for a delete), or neither (someone
 * else wrote it since). Rolling forward is possible when every file is new
 * or has its complete temp (hash checked); then the rest are renamed in.
 * Otherwise (a temp lost or damaged) the change is rolled back: the new
 * files get their backups back, files created by the change are removed.
 * A file in neither state is someone else's now: it is left alone and
 * reported. Either way the group ends all old or all new.
 *
 * A change a session's command made (the intent names the session) and
 * that ends all new (rolled forward, or found complete: its process died
 * before the session's record held the step) becomes the session's newest
 * multi-file Undo step, made from the backups of the old files, and the
 * session's open files of the change are recorded as saved with the new
 * text, as the command's own record would have said: after the restart
 * Undo takes the change back, as it would have before the kill. The
 * session's changesets are settled by their files when the session is
 * restored (journal_restore.c).
 */
#include <sqlite3.h>

#include "core/disk_backend.h"
#include "core/fs.h"
#include "session/audit.h"
#include "session/journal.h"

/* Largest file recovery hashes (the engine's default file limit). */
#define RECOVER_MAX_BYTES ((size_t)64 << 20)

typedef struct {
  char *rel;
  int action;
  bool existed;
  uint64_t old_hash, new_hash;
  char *temp, *backup;
  bool is_new, is_old; /* the file's state now */
  bool temp_ready;     /* temp holds the new bytes */
} RecoverFile;

typedef Array(RecoverFile) RecoverFiles;

static char *recover__column(sqlite3_stmt *stmt, int column) {
  const unsigned char *text = sqlite3_column_text(stmt, column);
  return text ? eddi_strdup((const char *)text) : NULL;
}

static void recover__load(sqlite3 *db, int64_t intent, RecoverFiles *files) {
  sqlite3_stmt *stmt = NULL;
  if (sqlite3_prepare_v2(db,
                         "SELECT path, action, existed, old_hash, new_hash, temp, backup"
                         " FROM intent_files WHERE intent=? ORDER BY ord",
                         -1, &stmt, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_int64(stmt, 1, intent);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    RecoverFile file = {
        .rel = recover__column(stmt, 0),
        .action = sqlite3_column_int(stmt, 1),
        .existed = sqlite3_column_int(stmt, 2) != 0,
        .old_hash = (uint64_t)sqlite3_column_int64(stmt, 3),
        .new_hash = (uint64_t)sqlite3_column_int64(stmt, 4),
        .temp = recover__column(stmt, 5),
        .backup = recover__column(stmt, 6),
    };
    if (file.rel) array_push(files, file);
    else eddi_free(file.temp), eddi_free(file.backup);
  }
  sqlite3_finalize(stmt);
}

static void recover__files_free(RecoverFiles *files) {
  for (size_t i = 0; i < files->len; i++) {
    eddi_free(files->items[i].rel);
    eddi_free(files->items[i].temp);
    eddi_free(files->items[i].backup);
  }
  array_free(files);
}

/* Where file stands now: old, new, or neither; and whether its temp is complete. */
static void recover__inspect(int root_fd, RecoverFile *file) {
  bool exists = false, temp_exists = false;
  uint64_t hash = 0, temp_hash = 0;
  eddi_fs_hash(root_fd, file->rel, RECOVER_MAX_BYTES, &exists, &hash);
  file->is_old = file->existed ? exists && hash == file->old_hash : !exists;
  if (file->action == EDDI_INTENT_DELETE) {
    file->is_new = !exists;
    file->temp_ready = true; /* a delete needs no bytes */
    return;
  }
  file->is_new = exists && hash == file->new_hash;
  if (file->temp) eddi_fs_hash(root_fd, file->temp, RECOVER_MAX_BYTES, &temp_exists, &temp_hash);
  file->temp_ready = temp_exists && temp_hash == file->new_hash;
}

/* Finish the change: rename each waiting temp in, delete what goes. */
static size_t recover__forward(int root_fd, RecoverFiles *files) {
  size_t moved = 0;
  EddiError ignored;
  for (size_t i = 0; i < files->len; i++) {
    RecoverFile *file = &files->items[i];
    if (file->is_new || !file->is_old) continue;
    if (file->action == EDDI_INTENT_DELETE) eddi_fs_remove(root_fd, file->rel), moved++;
    else moved += eddi_fs_rename(root_fd, file->temp, file->rel, &ignored) == 0;
  }
  return moved;
}

/* Undo the change: the files that became new get their old bytes back. */
static size_t recover__back(int root_fd, RecoverFiles *files) {
  size_t moved = 0;
  EddiError ignored;
  for (size_t i = 0; i < files->len; i++) {
    RecoverFile *file = &files->items[i];
    if (!file->is_new || file->is_old) continue;
    if (!file->existed) {
      eddi_fs_remove(root_fd, file->rel), moved++;
      continue;
    }
    bool exists = false;
    uint64_t hash = 0;
    if (file->backup) eddi_fs_hash(root_fd, file->backup, RECOVER_MAX_BYTES, &exists, &hash);
    if (exists && hash == file->old_hash)
      moved += eddi_fs_rename(root_fd, file->backup, file->rel, &ignored) == 0;
  }
  return moved;
}

/* ------------------------------------------------------------ the session's step */

/* The intent's owner, to tell whether the session's rows are still that
 * process's (then the step is theirs to have). */
typedef struct {
  int64_t id;
  long pid;
  char *host, *log, *session;
} RecoverIntent;

/* Whether session's row is held by the intent's owner. */
static bool recover__session_of_owner(sqlite3 *db, const RecoverIntent *intent) {
  sqlite3_stmt *stmt = NULL;
  bool same = false;
  if (sqlite3_prepare_v2(db, "SELECT owner_pid, owner_host, owner_log FROM sessions WHERE name=?",
                         -1, &stmt, NULL) != SQLITE_OK)
    return false;
  sqlite3_bind_text(stmt, 1, intent->session, -1, SQLITE_STATIC);
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    const char *host = (const char *)sqlite3_column_text(stmt, 1);
    const char *log = (const char *)sqlite3_column_text(stmt, 2);
    if (log && intent->log) same = strcmp(log, intent->log) == 0;
    else same = sqlite3_column_int64(stmt, 0) == intent->pid && host && intent->host &&
                strcmp(host, intent->host) == 0;
  }
  sqlite3_finalize(stmt);
  return same;
}

/* The text the session's open document of rel held before the change: its
 * journaled unsaved edits (not the undone ones) applied to the old file's
 * text, when they were made against those bytes; else the text as it is. */
static void recover__doc_text(sqlite3 *db, const char *session, const RecoverFile *file,
                              StrBuf *text) {
  sqlite3_stmt *stmt = NULL;
  size_t undone = 0;
  bool base = false;
  if (sqlite3_prepare_v2(db, "SELECT base_hash, undone FROM docs WHERE session=? AND path=?", -1,
                         &stmt, NULL) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, session, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, file->rel, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      base = (uint64_t)sqlite3_column_int64(stmt, 0) == file->old_hash;
      undone = (size_t)sqlite3_column_int64(stmt, 1);
    }
  }
  sqlite3_finalize(stmt);
  if (!base) return;
  typedef struct {
    int64_t group;
    size_t start;
    StrBuf removed, inserted;
  } Edit;
  Array(Edit) edits = {0};
  if (sqlite3_prepare_v2(db, "SELECT grp, start, removed, inserted FROM edits"
                             " WHERE session=? AND path=? ORDER BY seq",
                         -1, &stmt, NULL) == SQLITE_OK) {
    sqlite3_bind_text(stmt, 1, session, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, file->rel, -1, SQLITE_STATIC);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      Edit edit = {sqlite3_column_int64(stmt, 0), (size_t)sqlite3_column_int64(stmt, 1), {0}, {0}};
      eddi_strbuf_append(&edit.removed, sqlite3_column_blob(stmt, 2),
                         (size_t)sqlite3_column_bytes(stmt, 2));
      eddi_strbuf_append(&edit.inserted, sqlite3_column_blob(stmt, 3),
                         (size_t)sqlite3_column_bytes(stmt, 3));
      array_push(&edits, edit);
    }
  }
  sqlite3_finalize(stmt);
  /* The last `undone` groups are Redo's, not in the text. */
  size_t live = edits.len;
  for (size_t groups = 0; groups < undone && live > 0; groups++) {
    int64_t group = edits.items[live - 1].group;
    while (live > 0 && edits.items[live - 1].group == group) live--;
  }
  StrBuf now = {0};
  eddi_strbuf_append(&now, text->data ? text->data : "", text->len);
  bool fits = true;
  for (size_t i = 0; i < live && fits; i++) {
    const Edit *edit = &edits.items[i];
    fits = edit->start <= now.len && edit->removed.len <= now.len - edit->start &&
           memcmp(now.data + edit->start, edit->removed.data ? edit->removed.data : "",
                  edit->removed.len) == 0;
    if (!fits) break;
    StrBuf next = {0};
    eddi_strbuf_append(&next, now.data ? now.data : "", edit->start);
    eddi_strbuf_append(&next, edit->inserted.data ? edit->inserted.data : "", edit->inserted.len);
    size_t tail = edit->start + edit->removed.len;
    eddi_strbuf_append(&next, now.data + tail, now.len - tail);
    eddi_strbuf_free(&now);
    now = next;
  }
  if (fits && live) {
    eddi_strbuf_clear(text);
    eddi_strbuf_append(text, now.data ? now.data : "", now.len);
  }
  eddi_strbuf_free(&now);
  for (size_t i = 0; i < edits.len; i++) {
    eddi_strbuf_free(&edits.items[i].removed);
    eddi_strbuf_free(&edits.items[i].inserted);
  }
  array_free(&edits);
}

/* One file's side of the step: what it held before (from its backup), and
 * its stamp now. false when the old bytes are not there to put back. */
typedef struct {
  bool exists;
  StrBuf text;
  EddiFileFormat format;
  unsigned mode;
  EddiFileStamp now;
} RecoverSide;

static bool recover__side(sqlite3 *db, int root_fd, const char *session, const RecoverFile *file,
                          RecoverSide *side) {
  EddiError ignored;
  StrBuf raw = {0};
  EddiFileStamp stamp = {0};
  *side = (RecoverSide){.mode = 0644};
  eddi_strbuf_puts(&side->text, "");
  if (file->existed) {
    if (!file->backup ||
        eddi_fs_read(root_fd, file->backup, RECOVER_MAX_BYTES, &raw, &stamp, &side->mode,
                     &ignored) < 0 ||
        stamp.hash != file->old_hash ||
        eddi_disk_decode(raw.data ? raw.data : "", raw.len, &side->format, &side->text,
                         &ignored) < 0) {
      eddi_strbuf_free(&raw);
      return false;
    }
    side->exists = true;
    recover__doc_text(db, session, file, &side->text);
  }
  eddi_strbuf_free(&raw);
  if (eddi_fs_read(root_fd, file->rel, RECOVER_MAX_BYTES, &raw, &side->now, NULL, &ignored) < 0)
    side->now = (EddiFileStamp){0};
  eddi_strbuf_free(&raw);
  return true;
}

/* Bind and run stmt (reset after). */
static bool recover__run(sqlite3_stmt *stmt) {
  bool done = sqlite3_step(stmt) == SQLITE_DONE;
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  return done;
}

/* Make files (all new now) the newest Undo step of the intent's session,
 * and its open files of the change saved with the new text; false when
 * the old bytes of a file are gone (no step then). */
static bool recover__step(sqlite3 *db, int root_fd, const RecoverIntent *intent,
                          const RecoverFiles *files) {
  size_t n = files->len;
  RecoverSide *sides = eddi_calloc(n ? n : 1, sizeof *sides);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = recover__side(db, root_fd, intent->session, &files->items[i], &sides[i]);
  sqlite3_stmt *serial = NULL, *drop = NULL, *put = NULL, *doc = NULL, *gone = NULL,
               *edits = NULL;
  int64_t step = 1;
  if (ok)
    ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "SELECT COALESCE(MAX(step), 0) + 1 FROM txn_files WHERE session=?",
                            -1, &serial, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "DELETE FROM txn_files WHERE session=? AND redo=1", -1, &drop,
                            NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO txn_files(session, step, redo, ord, path,"
                                " side_exists, side_text, side_bom, side_crlf, side_mode,"
                                " now_exists, now_size, now_hash) VALUES(?,?,0,?,?,?,?,?,?,?,?,?,?)",
                            -1, &put, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "UPDATE docs SET base_hash=?, base_text=NULL, undone=0"
                                " WHERE session=? AND path=?",
                            -1, &doc, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "DELETE FROM docs WHERE session=? AND path=?", -1, &gone,
                            NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(db, "DELETE FROM edits WHERE session=? AND path=?", -1, &edits,
                            NULL) == SQLITE_OK;
  if (ok) {
    sqlite3_bind_text(serial, 1, intent->session, -1, SQLITE_STATIC);
    if (sqlite3_step(serial) == SQLITE_ROW) step = sqlite3_column_int64(serial, 0);
    /* A new change drops what Undo had taken back (Redo's steps). */
    sqlite3_bind_text(drop, 1, intent->session, -1, SQLITE_STATIC);
    ok = recover__run(drop);
  }
  for (size_t i = 0; i < n && ok; i++) {
    const RecoverFile *file = &files->items[i];
    const RecoverSide *side = &sides[i];
    sqlite3_bind_text(put, 1, intent->session, -1, SQLITE_STATIC);
    sqlite3_bind_int64(put, 2, step);
    sqlite3_bind_int64(put, 3, (sqlite3_int64)i);
    sqlite3_bind_text(put, 4, file->rel, -1, SQLITE_STATIC);
    sqlite3_bind_int(put, 5, side->exists);
    sqlite3_bind_blob64(put, 6, side->text.data ? side->text.data : "", side->text.len,
                        SQLITE_STATIC);
    sqlite3_bind_int(put, 7, side->format.bom);
    sqlite3_bind_int(put, 8, side->format.crlf);
    sqlite3_bind_int(put, 9, (int)side->mode);
    sqlite3_bind_int(put, 10, side->now.exists);
    sqlite3_bind_int64(put, 11, (sqlite3_int64)side->now.size);
    sqlite3_bind_int64(put, 12, (sqlite3_int64)side->now.hash);
    ok = recover__run(put);
    /* The session's document of the file: saved with the new bytes (its
     * unsaved edits were written with the change), or closed with a
     * deleted file, as the command left it. */
    sqlite3_stmt *docs = side->now.exists ? doc : gone;
    int at = 1;
    if (side->now.exists) sqlite3_bind_int64(doc, at++, (sqlite3_int64)side->now.hash);
    sqlite3_bind_text(docs, at++, intent->session, -1, SQLITE_STATIC);
    sqlite3_bind_text(docs, at, file->rel, -1, SQLITE_STATIC);
    sqlite3_bind_text(edits, 1, intent->session, -1, SQLITE_STATIC);
    sqlite3_bind_text(edits, 2, file->rel, -1, SQLITE_STATIC);
    ok = ok && recover__run(docs) && recover__run(edits);
  }
  sqlite3_finalize(serial), sqlite3_finalize(drop), sqlite3_finalize(put);
  sqlite3_finalize(doc), sqlite3_finalize(gone), sqlite3_finalize(edits);
  if (ok) ok = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!ok && !sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  for (size_t i = 0; i < n; i++) eddi_strbuf_free(&sides[i].text);
  eddi_free(sides);
  return ok;
}

/* ------------------------------------------------------------ one intent */

/* The audit record of a change settled: each file as it was before the
 * change and as recovery left it. The process that died wrote none. */
static void recover__audit(const RecoverIntent *owner, const RecoverFiles *files, bool forward,
                           const char *instance, StrBuf *audit) {
  Array(AuditFile) noted = {0};
  for (size_t i = 0; i < files->len; i++) {
    const RecoverFile *file = &files->items[i];
    bool gone = forward ? file->action == EDDI_INTENT_DELETE : !file->existed;
    AuditFile entry = {file->rel, file->existed, !gone, file->existed ? file->old_hash : 0,
                       gone ? 0 : forward ? file->new_hash : file->old_hash};
    array_push(&noted, entry);
  }
  AuditOutcome outcome = {.session = owner->session, .instance = instance,
                          .transport = "recovery",
                          .settled = forward ? "rolled_forward" : "rolled_back"};
  eddi_audit_render(&outcome, noted.items, noted.len, audit);
  array_free(&noted);
}

/* Settle one intent; a line for the log, a record for the audit log. */
static void recover__intent(sqlite3 *db, int root_fd, const RecoverIntent *owner,
                            StrBuf *report, const char *instance, StrBuf *audit) {
  int64_t intent = owner->id;
  RecoverFiles files = {0};
  recover__load(db, intent, &files);
  bool forward = true;
  size_t foreign = 0, pending = 0;
  for (size_t i = 0; i < files.len; i++) {
    RecoverFile *file = &files.items[i];
    recover__inspect(root_fd, file);
    if (!file->is_new && !file->is_old) foreign++;
    if (!file->is_new) pending++;
    if (!file->is_new && !file->temp_ready) forward = false;
  }
  size_t moved = forward ? recover__forward(root_fd, &files) : recover__back(root_fd, &files);
  if (files.len) recover__audit(owner, &files, forward, instance, audit);
  /* All new now: the session whose command it was gets its Undo step. */
  bool all_new = forward && !foreign;
  for (size_t i = 0; i < files.len && all_new; i++) {
    recover__inspect(root_fd, &files.items[i]);
    all_new = files.items[i].is_new;
  }
  bool step = all_new && files.len && owner->session && recover__session_of_owner(db, owner);
  bool stepped = step && recover__step(db, root_fd, owner, &files);
  StrBuf undo = {0};
  if (stepped)
    eddi_strbuf_printf(&undo, "; Undo in session %s takes it back", owner->session);
  else if (step)
    eddi_strbuf_printf(&undo, "; session %s cannot Undo it (the old files are gone)",
                       owner->session);
  if (pending || foreign)
    eddi_strbuf_printf(report, "Recovered an interrupted change of %zu files: rolled %s (%zu moved)%s%s\n",
                       files.len, forward ? "forward" : "back", moved,
                       foreign ? ", some files changed by others were left as they are" : "",
                       undo.len ? undo.data : "");
  else if (step)
    eddi_strbuf_printf(report, "Recovered a change of %zu files that eddi had written when it "
                       "stopped%s\n", files.len, undo.data);
  eddi_strbuf_free(&undo);
  for (size_t i = 0; i < files.len; i++) {
    if (files.items[i].temp) eddi_fs_remove(root_fd, files.items[i].temp);
    if (files.items[i].backup) eddi_fs_remove(root_fd, files.items[i].backup);
  }
  recover__files_free(&files);
}

void eddi_journal_recover_writes(EddiJournal *self, int root_fd, StrBuf *report,
                                 const char *instance, StrBuf *audit) {
  sqlite3 *db = eddi_journal_db(self);
  eddi_journal_set_root(self, root_fd);
  sqlite3_stmt *stmt = NULL;
  Array(RecoverIntent) dead = {0};
  if (sqlite3_prepare_v2(db, "SELECT id, owner_pid, owner_host, owner_log, session FROM intents"
                             " ORDER BY id",
                         -1, &stmt, NULL) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW)
      if (eddi_journal_owner_dead(self, (long)sqlite3_column_int64(stmt, 1),
                                  (const char *)sqlite3_column_text(stmt, 2),
                                  (const char *)sqlite3_column_text(stmt, 3))) {
        RecoverIntent intent = {sqlite3_column_int64(stmt, 0),
                                (long)sqlite3_column_int64(stmt, 1), recover__column(stmt, 2),
                                recover__column(stmt, 3), recover__column(stmt, 4)};
        array_push(&dead, intent);
      }
  }
  sqlite3_finalize(stmt);
  for (size_t i = 0; i < dead.len; i++) {
    RecoverIntent *intent = &dead.items[i];
    recover__intent(db, root_fd, intent, report, instance, audit);
    eddi_journal_forget_intent(self, intent->id);
    eddi_free(intent->host), eddi_free(intent->log), eddi_free(intent->session);
  }
  array_free(&dead);

  /* Then the leftovers of single-file saves and unrecorded stages. */
  size_t swept = 0;
  if (sqlite3_prepare_v2(db, "SELECT path FROM folders", -1, &stmt, NULL) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const unsigned char *folder = sqlite3_column_text(stmt, 0);
      swept += eddi_fs_sweep_folder(root_fd, folder ? (const char *)folder : "");
    }
  }
  sqlite3_finalize(stmt);
  if (swept) eddi_strbuf_printf(report, "Removed %zu temporary files eddi left\n", swept);
}
