/* transaction.c - validated, all-or-nothing multi-file writes; see transaction.h. */
#include "edit/transaction.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "core/diff.h"
#include "core/embedded_backend.h"
#include "core/path.h"
#include "core/merge.h"
#include "edit/edit_state.h"
#include "edit/matcher.h"

void eddi_edit_txn_init(EddiEditTxn *self, EddiWorkspace *workspace, EddiSession *session) {
  memset(self, 0, sizeof *self);
  self->workspace = workspace;
  self->session = session;
}

static void transaction__file_free(EddiEditFile *file) {
  if (file->owns_doc && file->doc) {
    eddi_doc_end_group(file->doc);
    eddi_doc_free(file->doc);
  }
  if (file->folder == EDIT_FOLDER_HELD) close(file->folder_fd);
  eddi_free(file->staged);
  eddi_free(file->backup);
  eddi_free(file->rel);
  eddi_free(file->abs);
  eddi_strbuf_free(&file->raw);
  eddi_strbuf_free(&file->text);
  eddi_strbuf_free(&file->result);
  eddi_strbuf_free(&file->written_raw);
  eddi_strbuf_free(&file->save_bytes);
  eddi_free(file);
}

void eddi_edit_txn_free(EddiEditTxn *self) {
  for (size_t i = 0; i < self->files.len; i++) transaction__file_free(self->files.items[i]);
  array_free(&self->files);
}

/* ---------------------------------------------------------------- loading */

/* Read the file at rel as it is on disk into file (raw, decoded text,
 * format, mode, stamp), resolved beneath the workspace root; a missing file
 * leaves exists false, a folder sets is_dir. The replies name the file: a
 * transaction may hold several. */
static int transaction__read_disk(EddiEditFile *file, int root_fd, size_t max_bytes,
                                  EddiError *err) {
  EddiDiskFound found;
  int rc = 0;
  eddi_disk_read_found_at(root_fd, file->rel, max_bytes, &file->raw, &found, &file->stamp);
  file->mode = found.mode;
  switch (found.finding) {
  case EDDI_DISK_READ: break;
  case EDDI_DISK_MISSING: return 0;
  case EDDI_DISK_FOLDER: file->is_dir = true; return 0;
  case EDDI_DISK_OUTSIDE: return eddi_error_set(err, EDDI_EPATH, "Path outside workspace");
  case EDDI_DISK_SPECIAL:
    return eddi_error_set(err, EDDI_EINVAL, "Not a regular file: %s", file->rel);
  case EDDI_DISK_TOO_LARGE:
    if ((size_t)found.size > max_bytes)
      return eddi_error_set(err, EDDI_ETOOBIG, "File too large: %s (%lld bytes, limit %zu)",
                            file->rel, found.size, max_bytes);
    return eddi_error_set(err, EDDI_ETOOBIG, "File too large: %s", file->rel);
  case EDDI_DISK_OPEN_FAILED:
  case EDDI_DISK_STAT_FAILED:
  case EDDI_DISK_READ_FAILED:
    return eddi_error_set(err, EDDI_EIO, "Cannot read %s: %s", file->rel,
                          strerror(found.sys_errno));
  }
  file->exists = true;
  eddi_strbuf_puts(&file->raw, "");
  eddi_strbuf_puts(&file->text, "");
  rc = eddi_disk_decode(file->raw.data, file->raw.len, &file->format, &file->text, err);
  if (rc < 0) {
    char what[EDDI_ERROR_MAX];
    snprintf(what, sizeof what, "%s", err->what);
    eddi_error_set(err, rc, "%s: %s", file->rel, what);
  }
  return rc;
}

/* A file the session has not open that the embedder holds a copy of (a
 * buffer visiting it) is opened through the workspace's opener, so that
 * the change reads and writes it through its copy, never behind it: into
 * the session's documents (not as its current one), or, without a
 * session, for the transaction alone. *doc stays NULL when there is no
 * copy. */
static int transaction__open_copy(EddiEditTxn *self, EddiEditFile *entry, EddiDoc **doc,
                                  EddiError *err) {
  EddiBackendCopy copy;
  int rc = eddi_workspace_find_copy(self->workspace, entry->rel, entry->abs, &copy, NULL, err);
  if (rc < 0 || !copy.found) return rc;
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new = false;
  /* A buffer may visit a file not made yet: its text is the file's. */
  EddiDocRequest request = {.rel = entry->rel, .abs = entry->abs, .create = true};
  rc = eddi_workspace_open_backend(self->workspace, &request, &backend, &text, &is_new, err);
  if (rc == 0) {
    *doc = eddi_doc_new_taking(entry->rel, backend, &text, is_new,
                               eddi_workspace_config(self->workspace)->undo_groups);
    eddi_embedded_note_opened(*doc);
    if (self->session) eddi_session_add_doc(self->session, *doc);
    else entry->owns_doc = true;
  }
  eddi_strbuf_free(&text);
  return rc;
}

/* Whether doc is an embedder's copy with edits not saved to its file, as
 * its embedder tells (without its copies' calls, none is: the document is
 * then written with its edits, as before). */
static bool transaction__unsaved_copy(EddiEditTxn *self, const EddiEditFile *entry,
                                      const EddiDoc *doc) {
  if (!eddi_embedded_backend_of(doc->backend)) return false;
  EddiBackendCopy copy;
  EddiError ignored;
  return eddi_workspace_find_copy(self->workspace, entry->rel, entry->abs, &copy, NULL,
                                  &ignored) == 0 &&
         copy.found && copy.modified;
}

int eddi_edit_txn_file(EddiEditTxn *self, const char *path, EddiEditFile **file,
                       EddiError *err) {
  char *rel = NULL, *abs = NULL;
  int rc = eddi_path_resolve(eddi_workspace_root(self->workspace), path, &rel, &abs, err);
  if (rc < 0) return rc;
  if (!rel[0]) {
    eddi_free(rel), eddi_free(abs);
    return eddi_error_set(err, EDDI_EINVAL, "Is a directory: %s", path);
  }
  for (size_t i = 0; i < self->files.len; i++) {
    if (strcmp(self->files.items[i]->rel, rel) == 0) {
      *file = self->files.items[i];
      eddi_free(rel), eddi_free(abs);
      return 0;
    }
  }
  EddiEditFile *entry = eddi_calloc(1, sizeof *entry);
  entry->rel = rel;
  entry->abs = abs;
  EddiDoc *doc = NULL;
  if (self->session) {
    bool ambiguous;
    doc = eddi_session_find_doc(self->session, rel, &ambiguous);
    if (doc && strcmp(doc->path, rel) != 0) doc = NULL;
  }
  rc = doc ? 0 : transaction__open_copy(self, entry, &doc, err);
  if (rc < 0) {
    transaction__file_free(entry);
    return rc;
  }
  if (doc) {
    rc = eddi_doc_sync(doc, err);
    entry->doc = doc;
    entry->keeps_unsaved = rc == 0 && transaction__unsaved_copy(self, entry, doc);
    entry->exists = true;
    size_t len = eddi_text_len(&doc->text);
    eddi_strbuf_puts(&entry->text, "");
    if (rc == 0 && len) {
      char *copy = eddi_text_dup(&doc->text, 0, len);
      eddi_strbuf_append(&entry->text, copy, len);
      eddi_free(copy);
    }
  } else {
    rc = transaction__read_disk(entry, eddi_workspace_root_fd(self->workspace),
                                eddi_workspace_config(self->workspace)->max_file_bytes, err);
  }
  if (rc < 0) {
    transaction__file_free(entry);
    return rc;
  }
  array_push(&self->files, entry);
  *file = entry;
  return 0;
}

void eddi_edit_file_write(EddiEditFile *self, const char *text, size_t len) {
  eddi_strbuf_clear(&self->result);
  eddi_strbuf_puts(&self->result, "");
  eddi_strbuf_append(&self->result, text, len);
  self->action = EDIT_WRITE;
}

void eddi_edit_file_delete(EddiEditFile *self) {
  eddi_strbuf_clear(&self->result);
  self->action = EDIT_DELETE;
}

/* ---------------------------------------------------------------- commit */

/* For Summary: the lines removed and added, by a line diff of the part
 * between the common beginning and end (two changed lines far apart are
 * two lines each way, not everything between them). */
static void transaction__record(EddiEditTxn *self, const EddiEditFile *file) {
  /* A document whose save was held is not saved: Summary counts it unsaved. */
  if (!self->session || file->keeps_unsaved || (file->doc && file->doc->save_held)) return;
  const char *a = file->text.data ? file->text.data : "";
  const char *b = file->result.data ? file->result.data : "";
  size_t n = file->text.len, m = file->action == EDIT_WRITE ? file->result.len : 0;
  size_t head = 0, tail = 0;
  while (head < n && head < m && a[head] == b[head]) head++;
  while (head && a[head - 1] != '\n') head--;
  while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail]) tail++;
  while (tail && a[n - tail] != '\n' && tail < n - head) tail--;
  EddiDiffStats stats;
  eddi_diff(a + head, n - head - tail, b + head, m - head - tail, file->rel, &stats, NULL);
  eddi_session_record_save(self->session, file->rel, !file->exists, stats.added, stats.deleted,
                           NULL);
}

/* Whether a file was on disk before the change: an open document's file
 * as its backend saw it. */
static bool transaction__existed(const EddiEditFile *file) {
  return file->route != EDIT_ROUTE_OWN ? file->stamp.exists : file->exists;
}

/* Whether file's new text differs from the text it had. */
static bool transaction__changes(const EddiEditFile *file) {
  const char *b = file->result.data ? file->result.data : "";
  return file->result.len != file->text.len ||
         memcmp(b, file->text.data ? file->text.data : "", file->result.len) != 0;
}

/* Put file's new text into its open document as one replacement of the
 * part that differs, the cursor after it, as if it had been typed. */
static int transaction__apply(EddiEditFile *file, EddiError *err) {
  if (file->applied || !transaction__changes(file)) return 0;
  size_t changed_end = 0;
  int rc = eddi_doc_replace_all(file->doc, file->result.data ? file->result.data : "",
                                file->result.len, &changed_end, err);
  if (rc < 0) return rc;
  file->doc->cursor = changed_end;
  file->applied = true;
  return 0;
}

/* Take back what transaction__apply put into the document. */
static void transaction__unapply(EddiEditFile *file) {
  if (!file->applied) return;
  size_t done;
  EddiError ignored;
  eddi_doc_undo(file->doc, 1, &done, &ignored);
  file->applied = false;
}

/* Put the new text into an open document, then save it (unless it is a
 * copy whose unsaved edits stay unsaved). */
static int transaction__write_doc(EddiEditTxn *self, EddiEditFile *file, EddiError *err) {
  EddiDoc *doc = file->doc;
  int rc = transaction__apply(file, err);
  size_t bytes = 0;
  if (rc == 0 && !file->keeps_unsaved && eddi_doc_modified(doc)) {
    rc = eddi_workspace_save_doc(self->workspace, doc, &bytes, err);
    if (rc < 0) transaction__unapply(file);
  }
  return rc;
}

/* The bytes file's new text is written as: those its editor gave (an
 * embedder's document), else its text encoded as it was found. */
static void transaction__new_bytes(const EddiEditFile *file, StrBuf *raw) {
  eddi_strbuf_puts(raw, "");
  if (file->route == EDIT_ROUTE_EMBEDDED)
    eddi_strbuf_append(raw, file->save_bytes.data ? file->save_bytes.data : "",
                       file->save_bytes.len);
  else
    eddi_disk_encode(file->result.data ? file->result.data : "", file->result.len, file->format,
                     raw);
}

/* Whether file's held folder may be written in: still inside the
 * workspace. Its path leading to it still (one open, as a write by path
 * costs) says so; else its parents are walked up to the root. */
static bool transaction__folder_usable(EddiEditTxn *self, const EddiEditFile *file) {
  if (file->folder == EDIT_FOLDER_NONE) return false;
  int root_fd = eddi_workspace_root_fd(self->workspace), dir_fd;
  const char *leaf;
  EddiError ignored;
  struct stat held, now;
  if (eddi_fs_parent_open(root_fd, file->rel, false, &dir_fd, &leaf, &ignored) == 0) {
    bool same = fstat(dir_fd, &now) == 0 && fstat(file->folder_fd, &held) == 0 &&
                now.st_dev == held.st_dev && now.st_ino == held.st_ino;
    close(dir_fd);
    if (same) return true;
  }
  return eddi_fs_folder_inside(root_fd, file->folder_fd);
}

/* Remove eddi's temporary file temp of file: in the folder it was staged
 * in while that is inside the workspace (its path may lead elsewhere now),
 * else by its path. */
static void transaction__remove_temp(EddiEditTxn *self, const EddiEditFile *file,
                                     const char *temp) {
  int root_fd = eddi_workspace_root_fd(self->workspace);
  if (transaction__folder_usable(self, file)) {
    const char *slash = strrchr(temp, '/');
    unlinkat(file->folder_fd, slash ? slash + 1 : temp, 0);
  } else {
    eddi_fs_remove(root_fd, temp);
  }
}

/* How many times a write merges a change made on disk meanwhile and tries
 * again, before it gives up on a file that keeps changing (a file appended
 * to every few milliseconds needs a few). */
#define TRANSACTION_MERGE_TRIES 64

/* What eddi now holds of file: the text of bytes (a merge's, or those a
 * rename left on disk when it carried an append over). */
static void transaction__hold(EddiEditFile *file, const char *bytes, size_t len) {
  EddiFileFormat format;
  EddiError ignored;
  StrBuf decoded = {0};
  if (eddi_disk_decode(bytes, len, &format, &decoded, &ignored) == 0) {
    eddi_strbuf_clear(&file->result);
    eddi_strbuf_puts(&file->result, "");
    eddi_strbuf_append(&file->result, decoded.data ? decoded.data : "", decoded.len);
  }
  eddi_strbuf_free(&decoded);
}

/* Write raw over file's disk file, expected to be as stamped. A change
 * made on disk meanwhile is merged with eddi's (against what was read) and
 * written again; a change that overlaps eddi's is refused. */
static int transaction__write_disk(EddiEditTxn *self, EddiEditFile *file, EddiEditReport *report,
                                   EddiError *err) {
  StrBuf raw = {0}, merged = {0}, base = {0};
  /* What raw was derived from: the bytes read, then each disk text merged onto. */
  eddi_strbuf_append(&base, file->raw.data ? file->raw.data : "", file->raw.len);
  transaction__new_bytes(file, &raw);
  size_t max_bytes = eddi_workspace_config(self->workspace)->max_file_bytes;
  EddiFileStamp expected = file->stamp;
  EddiFsConflict conflict = {0};
  int rc = EDDI_ESTALE;
  int tries = 0;
  for (; rc == EDDI_ESTALE && tries < TRANSACTION_MERGE_TRIES; tries++) {
    if (file->staged) {
      /* The first try renames the staged bytes in; it consumes them. */
      EddiFsReplace op = {.rel = file->rel, .bytes = raw.data, .len = raw.len,
                          .mode = file->mode, .expected = &expected, .max_bytes = max_bytes,
                          .staged = file->staged, .sync = EDDI_FS_SYNC_LATER};
      rc = eddi_fs_replace(eddi_workspace_root_fd(self->workspace), &op, &file->written, &conflict,
                           err);
      /* Consumed, unless its folder could not be reached any more (a
       * folder on the way swapped meanwhile): then it goes from the
       * folder it was staged in. */
      if (rc < 0) transaction__remove_temp(self, file, file->staged);
      eddi_free(file->staged);
      file->staged = NULL;
    } else {
      EddiFsReplace op = {.rel = file->rel, .bytes = raw.data, .len = raw.len,
                          .mode = file->mode, .expected = &expected, .max_bytes = max_bytes};
      rc = eddi_fs_replace(eddi_workspace_root_fd(self->workspace), &op, &file->written, &conflict,
                           err);
    }
    if (!conflict.changed) break;
    /* An editor's bytes are not merged with the disk's: a change made
     * meanwhile refuses the write (nothing of eddi's stays), as its save
     * would, unless it was an append, which the rename carried over. */
    if (file->route == EDIT_ROUTE_EMBEDDED) {
      if (rc < 0) {
        rc = eddi_disk_refuse_changed(file->rel, err);
      } else {
        file->carried_over = true;
        if (report)
          eddi_edit_report_warn(report, "%s changed on disk meanwhile: the edit was written "
                                        "with the disk's change, which its buffer does not show",
                                file->rel);
      }
      break;
    }
    /* Carried over (rc 0): the disk holds eddi's bytes and the append after
     * them, which eddi's copy takes in as they are; merged, they could be
     * refused after the write. */
    if (rc == 0) {
      eddi_strbuf_clear(&raw);
      eddi_strbuf_puts(&raw, "");
      eddi_strbuf_append(&raw, conflict.theirs.data ? conflict.theirs.data : "",
                         conflict.theirs.len);
      transaction__hold(file, raw.data, raw.len);
      if (report)
        eddi_edit_report_warn(report, "%s changed on disk meanwhile: the edit was rebased onto it",
                              file->rel);
      break;
    }
    /* The disk has someone else's change, to merge. */
    EddiMergeReport merge;
    const char *theirs = conflict.theirs.data ? conflict.theirs.data : "";
    eddi_strbuf_clear(&merged);
    int merged_rc = eddi_merge3(base.data ? base.data : "", base.len, raw.data, raw.len, theirs,
                                conflict.theirs.len, &merged, &merge);
    if (merged_rc < 0 || (!conflict.theirs_exist && transaction__existed(file))) {
      rc = conflict.theirs_exist
               ? eddi_error_set(err, EDDI_ESTALE,
                                "%s changed on disk since it was read, at lines %zu:%zu, "
                                "where this edit changes it too; nothing written",
                                file->rel, merge.conflict_first, merge.conflict_last)
               : eddi_error_set(err, EDDI_ESTALE,
                                "%s was deleted on disk since it was read; nothing written",
                                file->rel);
      eddi_error_hint(err, "Read it again and redo the edit");
      break;
    }
    if (report)
      eddi_edit_report_warn(report, "%s changed on disk meanwhile: the edit was rebased onto it",
                            file->rel);
    transaction__hold(file, merged.data ? merged.data : "", merged.len);
    eddi_strbuf_clear(&raw);
    eddi_strbuf_puts(&raw, "");
    eddi_strbuf_append(&raw, merged.data ? merged.data : "", merged.len);
    eddi_strbuf_clear(&base);
    eddi_strbuf_append(&base, theirs, conflict.theirs.len);
    expected = conflict.stamp;
    rc = EDDI_ESTALE;
  }
  if (rc == EDDI_ESTALE && tries == TRANSACTION_MERGE_TRIES) {
    eddi_error_set(err, rc, "%s keeps changing on disk; nothing written", file->rel);
    eddi_error_hint(err, "Try again when it is quiet");
  }
  if (rc == 0) eddi_workspace_note_write(self->workspace, file->rel, &file->stamp, &file->written);
  if (rc == 0 && file->route != EDIT_ROUTE_OWN) {
    StrBuf kept = file->written_raw;
    file->written_raw = raw;
    raw = kept;
  }
  eddi_fs_conflict_free(&conflict);
  eddi_strbuf_free(&raw);
  eddi_strbuf_free(&merged);
  eddi_strbuf_free(&base);
  return rc;
}

static int transaction__delete_disk(EddiEditTxn *self, EddiEditFile *file, EddiError *err) {
  int rc = eddi_fs_unlink(eddi_workspace_root_fd(self->workspace), file->rel, &file->stamp,
                          eddi_workspace_config(self->workspace)->max_file_bytes, err);
  if (rc == EDDI_ESTALE) {
    eddi_error_set(err, rc, "%s changed on disk since it was read; not deleted", file->rel);
    eddi_error_hint(err, "Read it again and redo the edit");
  }
  if (rc == 0) {
    EddiFileStamp gone = {0};
    eddi_workspace_note_write(self->workspace, file->rel, &file->stamp, &gone);
  }
  return rc;
}

/* The folder to put file back in: the one it was staged in, held, while
 * that is still inside the workspace (its path may lead elsewhere now, or
 * nowhere: a folder on the way renamed, or swapped for a symlink, after
 * the first rename); else the one its path leads to now (-1 when none).
 * *opened: the caller closes it. */
static int transaction__put_back_folder(EddiEditTxn *self, const EddiEditFile *file,
                                        bool *opened) {
  *opened = false;
  int root_fd = eddi_workspace_root_fd(self->workspace);
  if (transaction__folder_usable(self, file)) return file->folder_fd;
  int dir_fd;
  const char *leaf;
  EddiError ignored;
  if (eddi_fs_parent_open(root_fd, file->rel, false, &dir_fd, &leaf, &ignored) < 0) return -1;
  *opened = true;
  return dir_fd;
}

/* Undo what commit did to file; best effort, the first error already
 * decided the reply. A file that changed again since commit wrote it is
 * left alone: it is someone else's now. */
static void transaction__put_back(EddiEditTxn *self, EddiEditFile *file) {
  EddiError ignored;
  size_t max_bytes = eddi_workspace_config(self->workspace)->max_file_bytes;
  if (file->doc && file->route == EDIT_ROUTE_OWN && file->action == EDIT_WRITE) {
    size_t done, bytes;
    if (eddi_doc_undo(file->doc, 1, &done, &ignored) == 0 && !file->keeps_unsaved)
      eddi_doc_save(file->doc, &bytes, &ignored);
    file->applied = false;
    return;
  }
  bool opened;
  int dir_fd = transaction__put_back_folder(self, file, &opened);
  if (dir_fd < 0) return;
  if (transaction__existed(file)) {
    EddiFsConflict conflict = {0};
    EddiFileStamp restored;
    const EddiFileStamp *now = file->action == EDIT_WRITE ? &file->written : &(EddiFileStamp){0};
    /* The backup is the old file itself (a link): renamed back, it needs
     * no room, where a copy of its bytes fails on the full disk that may
     * be why the change failed, leaving the group half new. The rename
     * has the checks of any replace and consumes the backup; without one
     * (or when it is gone) the old bytes are written anew. */
    /* A deleted file's backup is in the root folder, not beside it: its
     * bytes are written anew, and the link goes. */
    bool beside = file->action == EDIT_WRITE || !strchr(file->rel, '/');
    EddiFsReplace op = {.rel = file->rel, .bytes = file->raw.data ? file->raw.data : "",
                        .len = file->raw.len, .mode = file->mode, .expected = now,
                        .max_bytes = max_bytes, .staged = beside ? file->backup : NULL};
    eddi_fs_replace_in(eddi_workspace_root_fd(self->workspace), dir_fd, &op, &restored, &conflict,
                       &ignored);
    if (!beside && file->backup)
      eddi_fs_remove(eddi_workspace_root_fd(self->workspace), file->backup);
    eddi_free(file->backup);
    file->backup = NULL;
    eddi_fs_conflict_free(&conflict);
  } else {
    eddi_fs_unlink_in(dir_fd, file->rel, &file->written, max_bytes, &ignored);
  }
  if (opened) close(dir_fd);
}

/* ---------------------------------------------------------------- staging */

static int transaction__commit_files(EddiEditTxn *self, EddiEditReport *report, EddiError *err);

/* Whether file goes through the rename of a batch: a disk file that
 * changes, or an open document written as one. */
static bool transaction__renamed(const EddiEditFile *file) {
  return file->action != EDIT_KEEP && (!file->doc || file->route != EDIT_ROUTE_OWN);
}

/* Whether file is written by the change: a disk file written or deleted,
 * an open document whose text changes or has unsaved edits (but not a copy
 * that keeps them unsaved: its file is not written). */
static bool transaction__writes(const EddiEditFile *file) {
  if (file->action == EDIT_KEEP) return false;
  if (!file->doc || file->action == EDIT_DELETE) return true;
  if (file->keeps_unsaved) return false;
  return transaction__changes(file) || eddi_doc_modified(file->doc);
}

/* An embedder's document (an Emacs buffer) joins when its editor can give
 * the exact bytes of its save and its file is as the engine last read or
 * wrote it (one its editor saved since, or changed on disk, saves itself:
 * its backend tells the two apart). The file's bytes now are the ones to
 * put back on a failure. A read-only file refuses the change. */
static int transaction__embedded_joins(EddiEditTxn *self, EddiEditFile *file, EddiError *err) {
  EddiBackend *backend = file->doc->backend;
  if (!eddi_embedded_gives_bytes(backend) || !backend->vtable->stamp) return 0;
  EddiFileStamp known = {0}, now;
  backend->vtable->stamp(backend, &known);
  EddiDiskFound found;
  int root_fd = eddi_workspace_root_fd(self->workspace);
  eddi_disk_read_found_at(root_fd, file->rel,
                          eddi_workspace_config(self->workspace)->max_file_bytes, &file->raw,
                          &found, &now);
  /* The backend's stamp may be of the bytes alone: the hash decides. */
  bool as_known = found.finding == EDDI_DISK_READ ? known.exists && known.hash == now.hash
                                                  : found.finding == EDDI_DISK_MISSING && !known.exists;
  if (!as_known) return 0;
  if (now.exists && !eddi_disk_writable_at(root_fd, file->rel))
    return eddi_disk_refuse_read_only(file->rel, err);
  file->stamp = now;
  file->mode = found.mode;
  file->route = EDIT_ROUTE_EMBEDDED;
  return 0;
}

/* Whether an open document's file is to be written with the others of the
 * change (EDIT_ROUTE_INTENT): its text changes or has unsaved edits, and its
 * backend can tell what its file is (eddi_disk_backend_state, taken into
 * file) or, an embedder's, what its save would write. Fails when it would
 * have to be saved but cannot (read-only): nothing is written then. */
static int transaction__doc_joins(EddiEditTxn *self, EddiEditFile *file, EddiError *err) {
  file->route = EDIT_ROUTE_OWN;
  if (!file->doc || file->action != EDIT_WRITE || !transaction__writes(file)) return 0;
  eddi_strbuf_clear(&file->raw);
  eddi_strbuf_puts(&file->raw, "");
  EddiBackend *backend = file->doc->backend;
  if (!eddi_disk_backend_owns(backend)) return transaction__embedded_joins(self, file, err);
  int rc = eddi_disk_backend_state(backend, &file->format, &file->mode, &file->stamp, &file->raw,
                                   err);
  if (rc == 0) file->route = EDIT_ROUTE_INTENT;
  return rc;
}

/* No document is written with the others: each saves itself through its
 * backend, as when it is the only file changed. */
static void transaction__leave_batch(EddiEditTxn *self) {
  for (size_t i = 0; i < self->files.len; i++)
    self->files.items[i]->route = EDIT_ROUTE_OWN;
}

/* Whether commit is to stage its files (*staged): when two or more of them
 * are renamed into place (one rename is atomic alone). Their new bytes are
 * then all written first and made durable together, and with a journal the
 * intent is recorded before the first rename. The open documents that
 * join the batch are routed through the intent. A change that writes two or
 * more files fails here, before anything is written, when an open
 * document among them cannot be (read-only). */
static int transaction__plan(EddiEditTxn *self, bool *staged, EddiError *err) {
  *staged = false;
  size_t writes = 0, changing = 0;
  for (size_t i = 0; i < self->files.len; i++) writes += transaction__writes(self->files.items[i]);
  if (writes < 2) return 0;
  for (size_t i = 0; i < self->files.len; i++) {
    EddiEditFile *file = self->files.items[i];
    int rc = transaction__doc_joins(self, file, err);
    if (rc < 0) {
      transaction__leave_batch(self);
      return rc;
    }
    changing += transaction__renamed(file);
  }
  *staged = changing >= 2;
  if (!*staged) transaction__leave_batch(self);
  return 0;
}

/* Before the batch, each embedder's document in it takes its new text, so
 * that its editor's refusal (a read-only buffer) comes before anything is
 * written, and its editor gives the bytes its save would write. One whose
 * editor cannot tell them exactly leaves the batch and is saved through
 * its backend after it, as a document alone is. A copy that keeps its
 * unsaved edits takes its text here too, and is not written. A failure
 * takes back the texts put in. */
static int transaction__apply_embedded(EddiEditTxn *self, EddiError *err) {
  int rc = 0;
  for (size_t i = 0; i < self->files.len && rc == 0; i++) {
    EddiEditFile *file = self->files.items[i];
    if (file->keeps_unsaved && file->action == EDIT_WRITE) {
      rc = transaction__apply(file, err);
      continue;
    }
    if (file->route != EDIT_ROUTE_EMBEDDED) continue;
    rc = transaction__apply(file, err);
    if (rc < 0) break;
    EddiError uncertain;
    eddi_strbuf_clear(&file->save_bytes);
    eddi_strbuf_puts(&file->save_bytes, "");
    if (eddi_embedded_save_bytes(file->doc->backend, file->doc, &file->save_bytes, &uncertain) < 0)
      file->route = EDIT_ROUTE_OWN;
  }
  if (rc < 0)
    for (size_t i = 0; i < self->files.len; i++) transaction__unapply(self->files.items[i]);
  return rc;
}

/* Remove what staging left: temps not renamed in, backups (unless the
 * journal keeps them until the change's Undo step is journaled). */
static void transaction__unstage(EddiEditTxn *self, bool keep_backups) {
  for (size_t i = 0; i < self->files.len; i++) {
    EddiEditFile *file = self->files.items[i];
    if (file->staged) transaction__remove_temp(self, file, file->staged);
    if (file->backup && !keep_backups) {
      if (file->action == EDIT_WRITE) transaction__remove_temp(self, file, file->backup);
      else eddi_fs_remove(eddi_workspace_root_fd(self->workspace), file->backup);
    }
    eddi_free(file->staged), eddi_free(file->backup);
    file->staged = file->backup = NULL;
  }
}

/* Whether two files' paths name the same folder. */
static bool transaction__same_folder(const EddiEditFile *a, const EddiEditFile *b) {
  const char *slash = strrchr(a->rel, '/'), *other_slash = strrchr(b->rel, '/');
  size_t len = slash ? (size_t)(slash - a->rel) : 0;
  size_t other_len = other_slash ? (size_t)(other_slash - b->rel) : 0;
  return other_len == len && strncmp(a->rel, b->rel, len) == 0;
}

/* Whether file's folder is already among the first `count` files' of self
 * that pass keep (one visit per folder). */
static bool transaction__folder_seen(const EddiEditTxn *self, size_t count,
                                     bool (*keep)(const EddiEditFile *),
                                     const EddiEditFile *file) {
  for (size_t k = 0; k < count; k++) {
    const EddiEditFile *other = self->files.items[k];
    if (keep(other) && transaction__same_folder(other, file)) return true;
  }
  return false;
}

/* Folders a change holds at most (each a descriptor, shared by the files
 * in it): past them, each further file's folder is opened through its path
 * for its staging alone and closed again, rather than run out of
 * descriptors. */
#define TRANSACTION_HELD_FOLDERS_MAX 256

/* The folder the i-th file of self is staged in, into *dir_fd: one an
 * earlier file holds, or newly held (*held counts them), or past the
 * limit opened for the staging alone (*close_after). */
static int transaction__hold_folder(EddiEditTxn *self, size_t i, size_t *held, int *dir_fd,
                                    bool *close_after, EddiError *err) {
  EddiEditFile *file = self->files.items[i];
  *close_after = false;
  for (size_t k = 0; k < i; k++) {
    const EddiEditFile *other = self->files.items[k];
    if (other->folder != EDIT_FOLDER_NONE && transaction__same_folder(other, file)) {
      file->folder_fd = *dir_fd = other->folder_fd;
      file->folder = EDIT_FOLDER_SHARED;
      return 0;
    }
  }
  const char *leaf;
  int rc = eddi_fs_parent_open(eddi_workspace_root_fd(self->workspace), file->rel, true, dir_fd,
                               &leaf, err);
  if (rc < 0) return rc;
  if (*held < TRANSACTION_HELD_FOLDERS_MAX) {
    file->folder_fd = *dir_fd;
    file->folder = EDIT_FOLDER_HELD;
    (*held)++;
  } else {
    *close_after = true;
  }
  return 0;
}

static bool transaction__is_staged(const EddiEditFile *file) {
  return file->staged || file->backup;
}

static bool transaction__is_renamed_in(const EddiEditFile *file) {
  return transaction__renamed(file) && file->action == EDIT_WRITE && file->done;
}

/* A batch of at least this many staged files is made durable with one
 * syncfs(2) of the workspace's file system; a smaller one with an fsync of
 * each temporary file and one of each folder. syncfs costs about the same
 * for 2 files as for 500 (one flush), but it also writes out whatever else
 * is dirty on that file system (another program's build: 380 ms for a
 * 2-file batch once, against 6-24 ms for the fsyncs; doc/performance.org),
 * so a few files take the few fsyncs, whose cost is their own. */
#define TRANSACTION_SYNCFS_MIN_FILES 8

/* Make every staged temporary file and backup link durable. */
static int transaction__sync_staged(EddiEditTxn *self, EddiError *err) {
  int root_fd = eddi_workspace_root_fd(self->workspace);
  size_t staged = 0;
  for (size_t i = 0; i < self->files.len; i++) staged += transaction__is_staged(self->files.items[i]);
  if (staged >= TRANSACTION_SYNCFS_MIN_FILES) return eddi_fs_sync_all(root_fd, err);
  int rc = 0;
  for (size_t i = 0; i < self->files.len && rc == 0; i++) {
    const EddiEditFile *file = self->files.items[i];
    if (file->staged) rc = eddi_fs_sync_file(root_fd, file->staged, err);
  }
  for (size_t i = 0; i < self->files.len && rc == 0; i++) {
    const EddiEditFile *file = self->files.items[i];
    if (transaction__is_staged(file) &&
        !transaction__folder_seen(self, i, transaction__is_staged, file))
      rc = eddi_fs_sync_folder(root_fd, file->rel, err);
  }
  return rc;
}

/* Write each changing disk file's new bytes beside it and, with a journal,
 * link its old file to a backup; then make all of it durable at once (one
 * syncfs, or for a few files an fsync of each and of each folder, where a
 * file written alone takes two or three) and record the change's intent:
 * after this the renames may run. A failure leaves nothing behind. */
static int transaction__stage(EddiEditTxn *self, int64_t *intent, EddiError *err) {
  bool keeps_intents = eddi_workspace_keeps_intents(self->workspace);
  Array(EddiIntentFile) files = {0};
  int rc = 0;
  size_t held = 0;
  for (size_t i = 0; i < self->files.len && rc == 0; i++) {
    EddiEditFile *file = self->files.items[i];
    if (!transaction__renamed(file)) continue;
    char path[EDDI_FS_PATH_MAX];
    EddiError ignored;
    eddi_workspace_note_folder(self->workspace, file->rel);
    /* The folder is held from here: its temporary file and backup are
     * made in it, and removed from it (or the file put back) on a failure,
     * wherever its path leads by then. */
    /* A symlink's file is the one it leads to, but an intent's renames and
     * its recovery work on the path: renamed over, the link would be
     * replaced by a copy. */
    if (eddi_fs_link_target(eddi_workspace_root_fd(self->workspace), file->rel, path,
                            sizeof path)) {
      rc = eddi_error_set(err, EDDI_EINVAL, "%s is a symlink to %s; nothing written", file->rel,
                          path);
      eddi_error_hint(err, "Change %s, the file it leads to", path);
      break;
    }
    int dir_fd;
    bool close_after;
    rc = transaction__hold_folder(self, i, &held, &dir_fd, &close_after, err);
    if (rc < 0) break;
    if (file->action == EDIT_WRITE) {
      StrBuf raw = {0};
      transaction__new_bytes(file, &raw);
      file->new_hash = XXH3_64bits(raw.data, raw.len);
      EddiFsStage op = {.rel = file->rel, .bytes = raw.data, .len = raw.len,
                        .mode = file->mode, .sync = EDDI_FS_SYNC_LATER};
      rc = eddi_fs_stage_in(dir_fd, &op, path, sizeof path, err);
      eddi_strbuf_free(&raw);
      if (rc == 0) file->staged = eddi_strdup(path);
    }
    /* Without a journal nothing rolls back after a crash: no backup.
     * Without hard links a change can still roll forward, not back. */
    /* A deleted file's backup is made in the root folder: its own folder
     * may go with the change, and the backup stays until the change's Undo
     * step is journaled, as a written file's does. */
    if (rc == 0 && keeps_intents && transaction__existed(file) &&
        (file->action == EDIT_WRITE
             ? eddi_fs_backup_in(dir_fd, file->rel, EDDI_FS_SYNC_LATER, path, sizeof path,
                                 &ignored)
             : eddi_fs_backup_at_root(eddi_workspace_root_fd(self->workspace), dir_fd, file->rel,
                                      EDDI_FS_SYNC_LATER, path, sizeof path, &ignored)) == 0)
      file->backup = eddi_strdup(path);
    if (close_after) close(dir_fd);
    if (rc < 0) break;
    if (!keeps_intents) continue;
    EddiIntentFile entry = {
        .rel = file->rel,
        .action = file->action == EDIT_WRITE ? EDDI_INTENT_WRITE : EDDI_INTENT_DELETE,
        .existed = transaction__existed(file),
        .old_hash = file->stamp.hash,
        .new_hash = file->new_hash,
        .temp = file->staged,
        .backup = file->backup,
    };
    array_push(&files, entry);
  }
  /* The temporaries and links must be on the disk before the intent that
   * names them (recovery rolls forward only onto complete temporaries). */
  if (rc == 0) rc = transaction__sync_staged(self, err);
  if (rc == 0 && keeps_intents)
    rc = eddi_workspace_intent_begin(self->workspace, files.items, files.len,
                                     self->session ? self->session->name : NULL, intent, err);
  array_free(&files);
  if (rc < 0) transaction__unstage(self, false);
  return rc;
}

/* After the renames of a staged commit: each folder written into is
 * fsynced (and swept) once, so that the renames are durable before the
 * intent is forgotten. */
static void transaction__settle(EddiEditTxn *self) {
  for (size_t i = 0; i < self->files.len; i++) {
    const EddiEditFile *file = self->files.items[i];
    if (transaction__is_renamed_in(file) &&
        !transaction__folder_seen(self, i, transaction__is_renamed_in, file))
      eddi_fs_settle_folder(eddi_workspace_root_fd(self->workspace), file->rel);
  }
}

/* A file the change deletes (a module moved) whose copy holds the user's
 * unsaved edits: deleting it would lose them, so nothing is written. */
static int transaction__refuse_lost_edits(EddiEditTxn *self, EddiError *err) {
  for (size_t i = 0; i < self->files.len; i++) {
    const EddiEditFile *file = self->files.items[i];
    if (file->action != EDIT_DELETE || !file->keeps_unsaved) continue;
    eddi_error_set(err, EDDI_EINVAL,
                   "%s has unsaved edits in a buffer, which the change would delete; nothing "
                   "written",
                   file->rel);
    eddi_error_hint(err, "Save or revert that buffer, then run it again");
    return EDDI_EINVAL;
  }
  return 0;
}

int eddi_edit_txn_commit(EddiEditTxn *self, EddiEditReport *report, EddiError *err) {
  int64_t intent = 0;
  bool staged;
  int rc = transaction__refuse_lost_edits(self, err);
  if (rc < 0) return rc;
  rc = transaction__plan(self, &staged, err);
  if (rc == 0 && staged) rc = transaction__apply_embedded(self, err);
  if (rc == 0 && staged) {
    rc = transaction__stage(self, &intent, err);
    if (rc < 0)
      for (size_t i = 0; i < self->files.len; i++) transaction__unapply(self->files.items[i]);
  }
  if (rc < 0) return rc;
  if (!staged) {
    for (size_t i = 0; i < self->files.len; i++)
      if (!self->files.items[i]->doc && self->files.items[i]->action != EDIT_KEEP)
        eddi_workspace_note_folder(self->workspace, self->files.items[i]->rel);
  }
  rc = transaction__commit_files(self, report, err);
  if (staged) {
    transaction__settle(self);
    bool kept = eddi_workspace_intent_done(self->workspace, intent);
    transaction__unstage(self, kept);
  }
  return rc;
}

/* Every file of the change is written: an open document written as one of
 * them takes the new text (one undo step, the cursor after the edit, as if
 * typed) and is saved as of the bytes written. */
static void transaction__adopt(EddiEditFile *file) {
  EddiDoc *doc = file->doc;
  if (file->route == EDIT_ROUTE_EMBEDDED) {
    /* Its text is in already (transaction__apply_embedded): its editor
     * learns that the file holds it. One whose file took an append
     * meanwhile stays modified, its stamp the old one, so that its next
     * save sees the disk's change instead of writing over it. */
    if (!file->carried_over) {
      eddi_embedded_saved(doc->backend, &file->written);
      eddi_doc_mark_saved(doc);
    }
    return;
  }
  const char *b = file->result.data ? file->result.data : "";
  size_t changed_end = 0;
  EddiError ignored;
  /* The disk backend takes every replacement: this cannot fail. */
  if (transaction__changes(file) &&
      eddi_doc_replace_all(doc, b, file->result.len, &changed_end, &ignored) == 0)
    doc->cursor = changed_end;
  eddi_disk_backend_written(doc->backend, file->written_raw.data ? file->written_raw.data : "",
                            file->written_raw.len, &file->written);
  eddi_doc_mark_saved(doc);
}

/* Write, then delete; on a failure put back what was done. */
static int transaction__commit_files(EddiEditTxn *self, EddiEditReport *report, EddiError *err) {
  int rc = 0;
  for (int pass = 0; pass < 2 && rc == 0; pass++) {
    EddiEditAction action = pass == 0 ? EDIT_WRITE : EDIT_DELETE;
    for (size_t i = 0; i < self->files.len && rc == 0; i++) {
      EddiEditFile *file = self->files.items[i];
      if (file->action != action) continue;
      if (action == EDIT_WRITE) {
        rc = file->doc && file->route == EDIT_ROUTE_OWN ? transaction__write_doc(self, file, err)
                                                : transaction__write_disk(self, file, report, err);
      } else {
        rc = transaction__delete_disk(self, file, err);
      }
      if (rc == 0) file->done = true;
    }
  }
  if (rc < 0) {
    for (size_t i = self->files.len; i-- > 0;) {
      EddiEditFile *file = self->files.items[i];
      if (file->done) transaction__put_back(self, file), file->done = false;
      transaction__unapply(file);
    }
    return rc;
  }
  for (size_t i = 0; i < self->files.len; i++) {
    EddiEditFile *file = self->files.items[i];
    if (file->action == EDIT_KEEP) continue;
    if (file->route != EDIT_ROUTE_OWN) transaction__adopt(file);
    transaction__record(self, file);
    /* A deleted file's document has nothing left to show. */
    if (file->action == EDIT_DELETE && file->doc && self->session) {
      eddi_session_close_doc(self->session, file->doc);
      file->doc = NULL;
    }
  }
  return 0;
}
