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
 */
#include <sqlite3.h>

#include "core/fs.h"
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

/* Settle one intent; a line for the log. */
static void recover__intent(sqlite3 *db, int root_fd, int64_t intent, StrBuf *report) {
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
  if (pending || foreign)
    eddi_strbuf_printf(report, "Recovered an interrupted change of %zu files: rolled %s (%zu moved)%s\n",
                       files.len, forward ? "forward" : "back", moved,
                       foreign ? ", some files changed by others were left as they are" : "");
  for (size_t i = 0; i < files.len; i++) {
    if (files.items[i].temp) eddi_fs_remove(root_fd, files.items[i].temp);
    if (files.items[i].backup) eddi_fs_remove(root_fd, files.items[i].backup);
  }
  recover__files_free(&files);
}

void eddi_journal_recover_writes(EddiJournal *self, int root_fd, StrBuf *report) {
  sqlite3 *db = eddi_journal_db(self);
  sqlite3_stmt *stmt = NULL;
  Array(int64_t) dead = {0};
  if (sqlite3_prepare_v2(db, "SELECT id, owner_pid, owner_host, owner_log FROM intents ORDER BY id",
                         -1, &stmt, NULL) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW)
      if (eddi_journal_owner_dead(self, (long)sqlite3_column_int64(stmt, 1),
                                  (const char *)sqlite3_column_text(stmt, 2),
                                  (const char *)sqlite3_column_text(stmt, 3)))
        array_push(&dead, sqlite3_column_int64(stmt, 0));
  }
  sqlite3_finalize(stmt);
  for (size_t i = 0; i < dead.len; i++) {
    recover__intent(db, root_fd, dead.items[i], report);
    eddi_journal_intent_done(self, dead.items[i]);
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
