/* changeset.c - named changesets: collected by a script, previewed, applied,
 * rolled back.
 *
 * A changeset is collected instead of written: for each file it keeps the
 * bytes on disk then (with their stamp), the text the script read and the
 * text to write. Apply refuses, naming the files, when any of them is no
 * longer what the script read (its disk stamp moved, or its open document
 * holds other text): a changeset made against old text would undo someone
 * else's work. It writes through the shared transaction (open documents
 * through their documents, so Undo takes it back). Rollback puts back the
 * exact bytes that were on disk before, again only when every file is still
 * what apply wrote, through the same transaction (all files or none, also
 * under kill -9 once journaled). The state is the session's (script_state.h). */
#include "script/changeset.h"

#include "core/diff.h"
#include "core/disk_backend.h"
#include "edit/transaction.h"
#include "script/script_undefined.h"

/* ---------------------------------------------------------------- state */

static void changeset__file_free(EddiChangeFile *file) {
  eddi_free(file->path);
  eddi_free(file->before_raw);
  eddi_free(file->before);
  eddi_free(file->after);
}

void eddi_changeset_free(EddiChangeset *self) {
  if (!self) return;
  for (size_t i = 0; i < self->files.len; i++) changeset__file_free(&self->files.items[i]);
  array_free(&self->files);
  eddi_free(self->name);
  eddi_free(self);
}

static void script_state__free(void *data) {
  EddiScriptState *self = data;
  for (size_t i = 0; i < self->vars.len; i++) {
    eddi_free(self->vars.items[i].name);
    eddi_free(self->vars.items[i].query);
    eddi_free(self->vars.items[i].text);
  }
  array_free(&self->vars);
  for (size_t i = 0; i < self->changesets.len; i++) eddi_changeset_free(self->changesets.items[i]);
  array_free(&self->changesets);
  for (size_t i = 0; i < self->positions.len; i++) {
    eddi_free(self->positions.items[i].name);
    eddi_free(self->positions.items[i].path);
  }
  array_free(&self->positions);
  for (size_t i = 0; i < self->contexts.len; i++) eddi_free(self->contexts.items[i].path);
  array_free(&self->contexts);
  for (size_t i = 0; i < self->flags.len; i++) eddi_free(self->flags.items[i]);
  array_free(&self->flags);
  for (size_t i = 0; i < self->session_flags.len; i++) eddi_free(self->session_flags.items[i]);
  array_free(&self->session_flags);
  eddi_free(self);
}

static const EddiSlotType script_state_slot = {"scripts' state", script_state__free, NULL};

EddiScriptState *eddi_script_state_find(const EddiSession *session) {
  return eddi_session_slot(session, &script_state_slot);
}

EddiScriptState *eddi_script_state_of(EddiSession *session) {
  EddiScriptState *self = eddi_script_state_find(session);
  if (!self) {
    self = eddi_calloc(1, sizeof *self);
    eddi_session_set_slot(session, &script_state_slot, self);
  }
  return self;
}

EddiChangeset *eddi_script_state_changeset(const EddiScriptState *self, const char *name) {
  for (size_t i = 0; self && i < self->changesets.len; i++)
    if (strcmp(self->changesets.items[i]->name, name) == 0) return self->changesets.items[i];
  return NULL;
}

void eddi_script_state_add_changeset(EddiScriptState *self, EddiChangeset *changeset) {
  for (size_t i = 0; i < self->changesets.len; i++)
    if (strcmp(self->changesets.items[i]->name, changeset->name) == 0) {
      eddi_changeset_free(self->changesets.items[i]);
      self->changesets.items[i] = changeset;
      return;
    }
  array_push(&self->changesets, changeset);
}

const EddiScriptVar *eddi_script_state_var(const EddiScriptState *self, const char *name) {
  for (size_t i = 0; self && i < self->vars.len; i++)
    if (strcmp(self->vars.items[i].name, name) == 0) return &self->vars.items[i];
  return NULL;
}

void eddi_script_state_set_var(EddiScriptState *self, const char *name, const char *query,
                               const char *text) {
  EddiScriptVar *var = NULL;
  for (size_t i = 0; i < self->vars.len && !var; i++)
    if (strcmp(self->vars.items[i].name, name) == 0) var = &self->vars.items[i];
  if (!var) {
    EddiScriptVar fresh = {.name = eddi_strdup(name)};
    array_push(&self->vars, fresh);
    var = array_back(&self->vars);
  }
  eddi_free(var->query);
  eddi_free(var->text);
  var->query = query ? eddi_strdup(query) : NULL;
  var->text = text ? eddi_strdup(text) : NULL;
}

/* ---------------------------------------------------------------- collect */

int eddi_changeset_add_file(EddiChangeset *self, EddiWorkspace *workspace, const char *path,
                            const char *before, size_t before_len, const char *after,
                            size_t after_len, EddiError *err) {
  EddiChangeFile file = {.path = eddi_strdup(path)};
  StrBuf raw = {0};
  int rc = eddi_fs_read(eddi_workspace_root_fd(workspace), path,
                        eddi_workspace_config(workspace)->max_file_bytes, &raw, &file.collected,
                        NULL, err);
  if (rc == EDDI_ENOENT) rc = 0, eddi_error_clear(err);
  else if (rc == 0) file.existed = true;
  if (rc < 0) {
    eddi_strbuf_free(&raw);
    changeset__file_free(&file);
    return rc;
  }
  file.before_raw_len = raw.len;
  file.before_raw = eddi_strbuf_take(&raw);
  if (!file.before_raw) file.before_raw = eddi_strdup("");
  file.before = eddi_strndup(before, before_len);
  file.before_len = before_len;
  file.after = eddi_strndup(after, after_len);
  file.after_len = after_len;
  array_push(&self->files, file);
  return 0;
}

/* ---------------------------------------------------------------- checks */

/* The open document of path in session, or NULL. */
static EddiDoc *changeset__doc(EddiSession *session, const char *path) {
  bool ambiguous;
  EddiDoc *doc = session ? eddi_session_find_doc(session, path, &ambiguous) : NULL;
  return doc && strcmp(doc->path, path) == 0 ? doc : NULL;
}

static bool changeset__doc_holds(EddiDoc *doc, const char *text, size_t len) {
  EddiError ignored;
  eddi_doc_sync(doc, &ignored);
  if (eddi_text_len(&doc->text) != len) return false;
  char *now = eddi_text_dup(&doc->text, 0, len);
  bool same = memcmp(now, text, len) == 0;
  eddi_free(now);
  return same;
}

/* Whether path's disk file is as stamp says (missing when !stamp->exists). */
static bool changeset__disk_is(EddiWorkspace *workspace, const char *path, const EddiFileStamp *stamp) {
  StrBuf raw = {0};
  EddiFileStamp now = {0};
  EddiError ignored;
  int rc =
      eddi_fs_read(eddi_workspace_root_fd(workspace), path,
                   eddi_workspace_config(workspace)->max_file_bytes, &raw, &now, NULL, &ignored);
  eddi_strbuf_free(&raw);
  if (rc == EDDI_ENOENT) return !stamp->exists;
  return rc == 0 && eddi_fs_stamp_same(&now, stamp);
}

/* Whether a file is what it must be before apply (collected) or rollback. */
static bool changeset__file_ready(EddiWorkspace *workspace, EddiSession *session,
                                  const EddiChangeFile *file, bool applied) {
  EddiDoc *doc = changeset__doc(session, file->path);
  if (applied)
    return changeset__disk_is(workspace, file->path, &file->applied) &&
           (!doc || changeset__doc_holds(doc, file->after, file->after_len));
  if (!doc) return changeset__disk_is(workspace, file->path, &file->collected);
  return changeset__doc_holds(doc, file->before, file->before_len) &&
         (doc->is_new || changeset__disk_is(workspace, file->path, &file->collected));
}

/* Refuse, naming them, when any file is not ready for apply (applied
 * false) or rollback. */
static int changeset__check(const EddiChangeset *self, EddiWorkspace *workspace, EddiSession *session,
                            bool applied, EddiError *err) {
  StrBuf stale = {0};
  size_t count = 0;
  for (size_t i = 0; i < self->files.len; i++)
    if (!changeset__file_ready(workspace, session, &self->files.items[i], applied))
      eddi_strbuf_printf(&stale, "%s%s", count++ ? ", " : "", self->files.items[i].path);
  if (!count) return 0;
  eddi_error_set(err, EDDI_ESTALE, "Changeset %s: %zu file%s changed since it was %s: %s",
                 self->name, count, count == 1 ? "" : "s", applied ? "applied" : "collected",
                 stale.data);
  eddi_error_hint(err, applied ? "Those files were edited after the apply: nothing was put back"
                               : "Run the script again to collect it anew");
  eddi_strbuf_free(&stale);
  return EDDI_ESTALE;
}

/* ---------------------------------------------------------------- apply */

int eddi_changeset_apply(EddiChangeset *self, EddiWorkspace *workspace, EddiSession *session,
                         EddiError *err) {
  if (self->status == EDDI_CHANGESET_APPLIED)
    return eddi_error_set(err, EDDI_ESTATE, "Changeset %s is applied already", self->name);
  int rc = changeset__check(self, workspace, session, false, err);
  if (rc < 0) return rc;
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  for (size_t i = 0; rc == 0 && i < self->files.len; i++) {
    EddiEditFile *entry;
    rc = eddi_edit_txn_file(&txn, self->files.items[i].path, &entry, err);
    if (rc == 0) eddi_edit_file_write(entry, self->files.items[i].after, self->files.items[i].after_len);
  }
  if (rc == 0) rc = eddi_edit_txn_commit(&txn, NULL, err);
  eddi_edit_txn_free(&txn);
  if (rc < 0) return rc;
  /* What apply wrote, for the rollback's check. */
  for (size_t i = 0; i < self->files.len; i++) {
    StrBuf raw = {0};
    EddiError ignored;
    eddi_fs_read(eddi_workspace_root_fd(workspace), self->files.items[i].path,
                 eddi_workspace_config(workspace)->max_file_bytes, &raw,
                 &self->files.items[i].applied, NULL, &ignored);
    eddi_strbuf_free(&raw);
  }
  self->status = EDDI_CHANGESET_APPLIED;
  return 0;
}

/* ---------------------------------------------------------------- rollback */

int eddi_changeset_rollback(EddiChangeset *self, EddiWorkspace *workspace, EddiSession *session,
                            EddiError *err) {
  if (self->status != EDDI_CHANGESET_APPLIED)
    return eddi_error_set(err, EDDI_ESTATE, "Changeset %s is not applied", self->name);
  int rc = changeset__check(self, workspace, session, true, err);
  if (rc < 0) return rc;
  /* One transaction, as apply's: all files or none (journaled, also under
   * kill -9), open documents through their documents. The bytes from before
   * apply decode to a text and a format that encode back to them. */
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  for (size_t i = 0; rc == 0 && i < self->files.len; i++) {
    EddiChangeFile *file = &self->files.items[i];
    EddiEditFile *entry;
    rc = eddi_edit_txn_file(&txn, file->path, &entry, err);
    if (rc < 0) break;
    if (!file->existed) {
      eddi_edit_file_delete(entry);
      continue;
    }
    StrBuf text = {0};
    eddi_strbuf_puts(&text, "");
    rc = eddi_disk_decode(file->before_raw ? file->before_raw : "", file->before_raw_len,
                          &entry->format, &text, err);
    if (rc == 0) eddi_edit_file_write(entry, text.data, text.len);
    eddi_strbuf_free(&text);
  }
  if (rc == 0) rc = eddi_edit_txn_commit(&txn, NULL, err);
  eddi_edit_txn_free(&txn);
  if (rc == 0) self->status = EDDI_CHANGESET_ROLLED_BACK;
  return rc;
}

/* ---------------------------------------------------------------- after a crash */

/* Whether path's disk file holds the text apply writes (after), decoded;
 * its stamp into *stamp. */
static bool changeset__disk_written(EddiWorkspace *workspace, const EddiChangeFile *file,
                                    EddiFileStamp *stamp) {
  StrBuf raw = {0}, text = {0};
  EddiError ignored;
  EddiFileFormat format;
  eddi_strbuf_puts(&text, "");
  bool written =
      eddi_fs_read(eddi_workspace_root_fd(workspace), file->path,
                   eddi_workspace_config(workspace)->max_file_bytes, &raw, stamp, NULL,
                   &ignored) == 0 &&
      eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, &text, &ignored) == 0 &&
      text.len == file->after_len && memcmp(text.data, file->after, text.len) == 0;
  eddi_strbuf_free(&raw);
  eddi_strbuf_free(&text);
  return written;
}

bool eddi_changeset_settle(EddiChangeset *self, EddiWorkspace *workspace) {
  if (!self->files.len) return false;
  bool collected = true, written = true;
  EddiFileStamp *stamps = eddi_calloc(self->files.len, sizeof *stamps);
  for (size_t i = 0; i < self->files.len; i++) {
    const EddiChangeFile *file = &self->files.items[i];
    collected = collected && changeset__disk_is(workspace, file->path, &file->collected);
    written = written && changeset__disk_written(workspace, file, &stamps[i]);
  }
  bool changed = false;
  if (self->status != EDDI_CHANGESET_APPLIED && written && !collected) {
    /* Applied, the status not journaled: apply's writes are there. */
    for (size_t i = 0; i < self->files.len; i++) self->files.items[i].applied = stamps[i];
    self->status = EDDI_CHANGESET_APPLIED;
    changed = true;
  } else if (self->status == EDDI_CHANGESET_APPLIED && collected && !written) {
    /* Rolled back, the status not journaled: the bytes from before are. */
    self->status = EDDI_CHANGESET_ROLLED_BACK;
    changed = true;
  }
  eddi_free(stamps);
  return changed;
}

/* ---------------------------------------------------------------- preview */

void eddi_changeset_preview(const EddiChangeset *self, StrBuf *facts, StrBuf *unified) {
  static const char *const status[] = {"collected", "applied", "rolled back"};
  eddi_strbuf_printf(facts, "Changeset %s (%s): %zu file%s", self->name, status[self->status],
                     self->files.len, self->files.len == 1 ? "" : "s");
  for (size_t i = 0; i < self->files.len; i++) {
    const EddiChangeFile *file = &self->files.items[i];
    EddiDiffStats stats;
    eddi_diff(file->before, file->before_len, file->after, file->after_len, file->path, &stats,
              unified);
    eddi_strbuf_printf(facts, "%s %s +%zu -%zu", i ? "," : ":", file->path, stats.added,
                       stats.deleted);
  }
  Array(ScriptChangedText) changes = {0};
  for (size_t i = 0; i < self->files.len; i++) {
    const EddiChangeFile *file = &self->files.items[i];
    char first[EDDI_SYNTAX_NAME_MAX];
    size_t n = EDDI_MIN(sizeof first, file->after_len);
    memcpy(first, file->after, n);
    ScriptChangedText change = {file->path, eddi_lang_detect(file->path, first, n),
                                file->before, file->before_len, file->after, file->after_len};
    array_push(&changes, change);
  }
  StrBuf undefined = {0};
  script_problems_fact(changes.items, changes.len, &undefined);
  if (undefined.len) eddi_strbuf_printf(facts, ", %s", undefined.data);
  eddi_strbuf_free(&undefined);
  array_free(&changes);
}
