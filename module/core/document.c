/* document.c - FileContext: edits, marks, undo groups; see document.h. */
#include "core/document.h"

#include "core/utf8.h"

/* ---------------------------------------------------------------- listeners */

void eddi_doc_listen(EddiDoc *self, EddiDocListener *listener) {
  array_push(&self->listeners, listener);
}

bool eddi_doc_unlisten(EddiDoc *self, EddiDocListener *listener) {
  for (size_t i = 0; i < self->listeners.len; i++) {
    if (self->listeners.items[i] != listener) continue;
    array_remove(&self->listeners, i);
    return true;
  }
  return false;
}

/* Bytes [start, end) are about to become text[0, len). */
static void doc__announce_edit(const EddiDoc *self, size_t start, size_t end, const char *text,
                               size_t len) {
  if (!self->listeners.len) return;
  EddiDocChange change = {start, end, start + len, text};
  for (size_t i = 0; i < self->listeners.len; i++) {
    const EddiDocListener *listener = self->listeners.items[i];
    if (listener->on_edit) listener->on_edit(listener->context, self, &change);
  }
}

/* The whole text is about to be replaced. */
static void doc__announce_reset(EddiDoc *self) {
  for (size_t i = 0; i < self->listeners.len; i++) {
    const EddiDocListener *listener = self->listeners.items[i];
    if (listener->on_reset) listener->on_reset(listener->context, self);
  }
}

/* The document is going: each listener is taken off before it hears it, so
 * that it may free itself. */
static void doc__announce_free(EddiDoc *self) {
  while (self->listeners.len) {
    EddiDocListener *listener = self->listeners.items[0];
    array_remove(&self->listeners, 0);
    if (listener->on_free) listener->on_free(listener->context, self);
  }
  array_free(&self->listeners);
}

/* ---------------------------------------------------------------- lifetime */

EddiDoc *eddi_doc_new(const char *path, EddiBackend *backend, const char *text,
                      size_t len, bool is_new, size_t undo_limit) {
  EddiDoc *self = eddi_calloc(1, sizeof *self);
  self->path = eddi_strdup(path);
  self->backend = backend;
  self->is_new = is_new;
  self->undo_limit = undo_limit ? undo_limit : 1;
  self->next_group_id = 1;
  eddi_text_init(&self->text);
  eddi_text_set(&self->text, text, len);
  return self;
}

EddiDoc *eddi_doc_new_taking(const char *path, EddiBackend *backend, StrBuf *text, bool is_new,
                             size_t undo_limit) {
  EddiDoc *self = eddi_doc_new(path, backend, "", 0, is_new, undo_limit);
  eddi_text_take(&self->text, text);
  return self;
}

static void doc__free_group(DocEditGroup *group) {
  for (size_t i = 0; i < group->edits.len; i++) {
    eddi_free(group->edits.items[i].removed);
    eddi_free(group->edits.items[i].inserted);
  }
  array_free(&group->edits);
}

static void doc__free_groups(DocEditGroupList *groups) {
  for (size_t i = 0; i < groups->len; i++) doc__free_group(&groups->items[i]);
  array_free(groups);
}

void eddi_doc_free(EddiDoc *self) {
  if (!self) return;
  doc__announce_free(self);
  if (self->backend) self->backend->vtable->destroy(self->backend);
  eddi_text_free(&self->text);
  doc__free_groups(&self->undo);
  doc__free_groups(&self->redo);
  for (size_t i = 0; i < self->marks.len; i++) eddi_free(self->marks.items[i].name);
  array_free(&self->marks);
  eddi_free(self->path);
  eddi_free(self);
}

/* ---------------------------------------------------------------- editing */

static size_t doc__shift(size_t offset, size_t start, size_t end, size_t len) {
  if (offset <= start) return offset;
  if (offset >= end) return offset - (end - start) + len;
  return start; /* inside the replaced text: collapse to its start */
}

/* Every change of the text goes through here (the backend has already taken
 * it): listeners hear of the edit before the text changes (a parse tree
 * records it at once and reparses when a command needs it), then the text,
 * cursor and marks follow. No undo. */
static void doc__change_text(EddiDoc *self, size_t start, size_t end, const char *text,
                             size_t len) {
  doc__announce_edit(self, start, end, text, len);
  eddi_text_replace(&self->text, start, end, text, len);
  self->cursor = doc__shift(self->cursor, start, end, len);
  for (size_t i = 0; i < self->marks.len; i++)
    self->marks.items[i].offset = doc__shift(self->marks.items[i].offset, start, end, len);
  self->find_anchor_set = false;
}

/* Tell the backend, then change the text; no undo. */
static int doc__apply(EddiDoc *self, size_t start, size_t end, const char *text, size_t len,
                      EddiError *err) {
  if (self->backend && self->backend->vtable->replace) {
    self->backend_group_open = true;
    size_t start_char = eddi_text_char_index(&self->text, start);
    size_t end_char = start_char + (end > start ? eddi_text_char_index(&self->text, end) -
                                                      start_char
                                                : 0);
    int rc = self->backend->vtable->replace(self->backend, start_char, end_char, text, len,
                                            err);
    if (rc < 0) return rc;
  }
  doc__change_text(self, start, end, text, len);
  return 0;
}

/* Add an edit to the current command's undo group (opening it if needed). */
static void doc__record(EddiDoc *self, size_t cursor_before, DocEdit edit) {
  if (!self->group_open) {
    DocEditGroup group = {.id = self->next_group_id++, .cursor_before = cursor_before};
    if (self->undo.len == self->undo_limit) {
      doc__free_group(&self->undo.items[0]);
      array_remove(&self->undo, 0);
    }
    array_push(&self->undo, group);
    self->group_open = true;
    doc__free_groups(&self->redo);
  }
  DocEditGroup *group = array_back(&self->undo);
  if (group->edits.len && edit.start + edit.removed_len > array_back(&group->edits)->start)
    group->unordered = true;
  array_push(&group->edits, edit);
}

int eddi_doc_replace(EddiDoc *self, size_t start, size_t end, const char *text, size_t len,
                     EddiError *err) {
  EDDI_ASSERT(start <= end && end <= eddi_text_len(&self->text));
  if (start == end && len == 0) return 0;
  DocEdit edit = {.start = start, .removed_len = end - start, .inserted_len = len};
  edit.removed = eddi_text_dup(&self->text, start, end);
  size_t cursor_before = self->cursor;
  int rc = doc__apply(self, start, end, text, len, err);
  if (rc < 0) {
    eddi_free(edit.removed);
    return rc;
  }
  edit.inserted = eddi_strndup(text, len);
  doc__record(self, cursor_before, edit);
  return 0;
}

/* Where offset lands after a batch of replacements. */
static size_t doc__shift_many(size_t offset, const TextReplacement *edits, size_t count) {
  size_t grown = 0, shrunk = 0;
  for (size_t i = 0; i < count; i++) {
    const TextReplacement *e = &edits[i];
    if (offset <= e->start) break;
    if (offset < e->end) return e->start + grown - shrunk;
    grown += e->len;
    shrunk += e->end - e->start;
  }
  return offset + grown - shrunk;
}

/* Tell the backend about edits[from, count) from the last one down (so each
 * one's positions are still those of the current text); on a refusal, take
 * back what it had accepted. */
static int doc__backend_many(EddiDoc *self, const TextReplacement *edits, size_t count,
                             char *const *removed, EddiError *err) {
  const EddiBackendVtable *vtable = self->backend ? self->backend->vtable : NULL;
  if (!vtable || !vtable->replace) return 0;
  self->backend_group_open = true;
  for (size_t k = count; k-- > 0;) {
    const TextReplacement *e = &edits[k];
    size_t start_char = eddi_text_char_index(&self->text, e->start);
    size_t end_char = eddi_text_char_index(&self->text, e->end);
    int rc = vtable->replace(self->backend, start_char, end_char, e->bytes, e->len, err);
    if (rc == 0) continue;
    for (size_t back = k + 1; back < count; back++) {
      const TextReplacement *b = &edits[back];
      size_t b_start = eddi_text_char_index(&self->text, b->start);
      size_t b_chars = eddi_utf8_count_chars(b->bytes, b->len);
      EddiError ignored;
      vtable->replace(self->backend, b_start, b_start + b_chars, removed[back],
                      b->end - b->start, &ignored);
    }
    return rc;
  }
  return 0;
}

/* doc__change_text for a batch (the backend has taken it): listeners hear
 * the edits last to first (each one's positions in the text as it is now
 * are then still its positions when it is applied), the text one pass,
 * cursor and marks move past what changed before them. No undo. */
static void doc__change_many(EddiDoc *self, const TextReplacement *edits, size_t count) {
  for (size_t k = count; k-- > 0;)
    doc__announce_edit(self, edits[k].start, edits[k].end, edits[k].bytes, edits[k].len);
  eddi_text_replace_many(&self->text, edits, count);
  self->cursor = doc__shift_many(self->cursor, edits, count);
  for (size_t i = 0; i < self->marks.len; i++)
    self->marks.items[i].offset = doc__shift_many(self->marks.items[i].offset, edits, count);
  self->find_anchor_set = false;
}

int eddi_doc_replace_many(EddiDoc *self, const TextReplacement *edits, size_t count,
                          EddiError *err) {
  if (count == 0) return 0;
  char **removed = eddi_malloc(count * sizeof *removed);
  for (size_t i = 0; i < count; i++)
    removed[i] = eddi_text_dup(&self->text, edits[i].start, edits[i].end);
  int rc = doc__backend_many(self, edits, count, removed, err);
  if (rc < 0) {
    for (size_t i = 0; i < count; i++) eddi_free(removed[i]);
    eddi_free(removed);
    return rc;
  }
  size_t cursor_before = self->cursor;
  doc__change_many(self, edits, count);
  /* Recorded last to first: then each start is right both for replaying the
   * group edit by edit and for taking it back. */
  for (size_t k = count; k-- > 0;) {
    DocEdit edit = {.start = edits[k].start, .removed = removed[k],
                    .removed_len = edits[k].end - edits[k].start,
                    .inserted = eddi_strndup(edits[k].bytes, edits[k].len),
                    .inserted_len = edits[k].len};
    doc__record(self, cursor_before, edit);
  }
  eddi_free(removed);
  return 0;
}

bool eddi_doc_can_commit_built(const EddiDoc *self) {
  return !self->backend || !self->backend->vtable->replace;
}

void eddi_doc_commit_built(EddiDoc *self, EddiText *built, const TextReplacement *edits,
                           size_t count, DocEdit *records) {
  EDDI_ASSERT(eddi_doc_can_commit_built(self));
  size_t cursor_before = self->cursor;
  doc__announce_reset(self);
  eddi_text_free(&self->text);
  self->text = *built;
  eddi_text_init(built);
  self->cursor = doc__shift_many(self->cursor, edits, count);
  for (size_t i = 0; i < self->marks.len; i++)
    self->marks.items[i].offset = doc__shift_many(self->marks.items[i].offset, edits, count);
  self->find_anchor_set = false;
  if (count == 0) return;
  /* The records as the group's own array when the command opened none. */
  doc__record(self, cursor_before, records[0]);
  DocEditGroup *group = array_back(&self->undo);
  if (group->edits.len == 1) {
    array_free(&group->edits);
    group->edits.items = records;
    group->edits.len = group->edits.cap = count;
    return;
  }
  /* records descend (the contract): only their first may follow the
   * group's last out of order, which doc__record checked. */
  for (size_t k = 1; k < count; k++) array_push(&group->edits, records[k]);
  eddi_free(records);
}

/* The command is over. The backend hears it whenever it took edits, also
 * those of an Undo, Redo or reverted group, which open no undo group here:
 * otherwise its own undo step (Emacs's) would run on into the next command. */
void eddi_doc_end_group(EddiDoc *self) {
  if (!self->group_open && !self->backend_group_open) return;
  if (self->group_open) array_back(&self->undo)->cursor_after = self->cursor;
  if (self->backend && self->backend->vtable->end_group)
    self->backend->vtable->end_group(self->backend);
  self->group_open = false;
  self->backend_group_open = false;
}

/* A group whose edits run from the end of the text to its start without
 * overlapping (what Replace All records, and any command that edits
 * bottom-up) has every start in the frame of the text before the group:
 * undoing or redoing it is then one pass of eddi_text_replace_many instead
 * of a seek and splice per edit, which made the Undo of a Replace All on a
 * large file superlinear. Groups of fewer edits replay one by one. */
#define DOC_BATCH_REPLAY_MIN 16

static bool doc__group_descends(const DocEditGroup *group) { return !group->unordered; }

TextReplacement *eddi_doc_replay_edits(const DocEditGroup *group, bool backwards, char **now) {
  size_t n = group->edits.len, shift = 0;
  TextReplacement *edits = eddi_malloc((n ? n : 1) * sizeof *edits);
  for (size_t i = 0; i < n; i++) {
    const DocEdit *e = &group->edits.items[n - 1 - i];
    size_t start = e->start + (backwards ? shift : 0);
    size_t old_len = backwards ? e->inserted_len : e->removed_len;
    edits[i] = (TextReplacement){start, start + old_len, backwards ? e->removed : e->inserted,
                                 backwards ? e->removed_len : e->inserted_len};
    if (now) now[i] = backwards ? e->inserted : e->removed;
    shift += e->inserted_len - e->removed_len; /* wraps for a shrink; the sum is exact */
  }
  return edits;
}

/* The group in one pass: its edits in text order, at their places in the
 * text as it is now (undo: after the group; redo: before it). */
static int doc__replay_batch(EddiDoc *self, DocEditGroup *group, bool backwards,
                             EddiError *err) {
  size_t n = group->edits.len;
  char **now = eddi_malloc(n * sizeof *now); /* what each range holds now */
  TextReplacement *edits = eddi_doc_replay_edits(group, backwards, now);
  int rc = doc__backend_many(self, edits, n, now, err);
  if (rc == 0) doc__change_many(self, edits, n);
  eddi_free(now);
  eddi_free(edits);
  return rc;
}

/* Apply a group backwards (undo) or forwards (redo). On a backend failure
 * the edits applied so far are reverted, so the group is all or nothing. */
static int doc__replay(EddiDoc *self, DocEditGroup *group, bool backwards, EddiError *err) {
  size_t n = group->edits.len;
  if (n >= DOC_BATCH_REPLAY_MIN && doc__group_descends(group))
    return doc__replay_batch(self, group, backwards, err);
  for (size_t k = 0; k < n; k++) {
    DocEdit *e = &group->edits.items[backwards ? n - 1 - k : k];
    int rc = backwards
                 ? doc__apply(self, e->start, e->start + e->inserted_len, e->removed,
                              e->removed_len, err)
                 : doc__apply(self, e->start, e->start + e->removed_len, e->inserted,
                              e->inserted_len, err);
    if (rc < 0) {
      while (k-- > 0) {
        DocEdit *back = &group->edits.items[backwards ? n - 1 - k : k];
        EddiError ignored;
        if (backwards)
          doc__apply(self, back->start, back->start + back->removed_len, back->inserted,
                     back->inserted_len, &ignored);
        else
          doc__apply(self, back->start, back->start + back->inserted_len, back->removed,
                     back->removed_len, &ignored);
      }
      return rc;
    }
  }
  return 0;
}

void eddi_doc_revert_group(EddiDoc *self) {
  if (!self->group_open) return;
  DocEditGroup group = *array_back(&self->undo);
  self->undo.len--;
  self->group_open = false;
  EddiError ignored;
  doc__replay(self, &group, true, &ignored);
  self->cursor = group.cursor_before;
  doc__free_group(&group);
}

static int doc__move_groups(EddiDoc *self, bool undo, size_t count, size_t *done,
                            EddiError *err) {
  eddi_doc_end_group(self);
  DocEditGroupList *from = undo ? &self->undo : &self->redo;
  DocEditGroupList *to = undo ? &self->redo : &self->undo;
  *done = 0;
  if (from->len == 0)
    return eddi_error_set(err, EDDI_ENOENT, undo ? "Nothing to undo" : "Nothing to redo");
  while (*done < count && from->len) {
    DocEditGroup group = *array_back(from);
    int rc = doc__replay(self, &group, undo, err);
    if (rc < 0) return *done ? 0 : rc;
    from->len--;
    array_push(to, group);
    (*done)++;
    self->cursor = undo ? group.cursor_before : group.cursor_after;
  }
  return 0;
}

const DocEditGroup *eddi_doc_replay_next(EddiDoc *self, bool undo) {
  eddi_doc_end_group(self);
  DocEditGroupList *from = undo ? &self->undo : &self->redo;
  if (!from->len || !eddi_doc_can_commit_built(self)) return NULL;
  const DocEditGroup *group = array_back(from);
  if (group->edits.len < DOC_BATCH_REPLAY_MIN || !doc__group_descends(group)) return NULL;
  return group;
}

void eddi_doc_commit_replay(EddiDoc *self, bool undo, EddiText *built,
                            const TextReplacement *edits, size_t count) {
  DocEditGroupList *from = undo ? &self->undo : &self->redo;
  DocEditGroupList *to = undo ? &self->redo : &self->undo;
  DocEditGroup group = *array_back(from);
  doc__announce_reset(self);
  eddi_text_free(&self->text);
  self->text = *built;
  eddi_text_init(built);
  for (size_t i = 0; i < self->marks.len; i++)
    self->marks.items[i].offset = doc__shift_many(self->marks.items[i].offset, edits, count);
  self->find_anchor_set = false;
  from->len--;
  array_push(to, group);
  self->cursor = undo ? group.cursor_before : group.cursor_after;
}

int eddi_doc_undo(EddiDoc *self, size_t count, size_t *done, EddiError *err) {
  return doc__move_groups(self, true, count, done, err);
}

int eddi_doc_redo(EddiDoc *self, size_t count, size_t *done, EddiError *err) {
  return doc__move_groups(self, false, count, done, err);
}

/* ---------------------------------------------------------------- state */

static uint64_t doc__top_group(const EddiDoc *self) {
  return self->undo.len ? self->undo.items[self->undo.len - 1].id : 0;
}

bool eddi_doc_changed_by_commands(const EddiDoc *self) { return self->next_group_id > 1; }

bool eddi_doc_modified(const EddiDoc *self) {
  return self->is_new || doc__top_group(self) != self->saved_group_id;
}

void eddi_doc_mark_saved(EddiDoc *self) {
  eddi_doc_end_group(self);
  self->saved_group_id = doc__top_group(self);
  self->is_new = false;
  self->save_held = false;
  self->outside_edits = false;
}

int eddi_doc_save(EddiDoc *self, size_t *bytes, EddiError *err) {
  eddi_doc_end_group(self);
  self->save_held = false;
  int rc = self->backend->vtable->save(self->backend, self, bytes, err);
  if (rc < 0) return rc;
  /* A save its backend held wrote nothing: the text is still unsaved. */
  if (self->save_held) {
    *bytes = 0;
    return 0;
  }
  eddi_doc_mark_saved(self);
  return 0;
}

int eddi_doc_replace_all(EddiDoc *self, const char *text, size_t len, size_t *changed_end,
                         EddiError *err) {
  size_t n = eddi_text_len(&self->text), head = 0, tail = 0;
  char *now = eddi_text_dup(&self->text, 0, n);
  while (head < n && head < len && now[head] == text[head]) head++;
  while (tail < n - head && tail < len - head && now[n - 1 - tail] == text[len - 1 - tail]) tail++;
  /* Keep the cut on character boundaries. */
  while (head && ((unsigned char)now[head] & 0xC0) == 0x80) head--;
  while (tail && ((unsigned char)now[n - tail] & 0xC0) == 0x80) tail--;
  eddi_free(now);
  if (changed_end) *changed_end = head + (len - head - tail);
  if (n == len && head == n) return 0;
  size_t cursor = self->cursor;
  int rc = eddi_doc_replace(self, head, n - tail, text + head, len - head - tail, err);
  /* The cursor stays on its text: before the change, or after it. */
  if (rc == 0) self->cursor = cursor <= head ? cursor : cursor >= n - tail ? cursor - n + len
                                                                           : head + (len - head - tail);
  return rc;
}

int eddi_doc_reread(EddiDoc *self, size_t *discarded, EddiError *err) {
  *discarded = 0;
  if (!self->backend->vtable->reread)
    return eddi_error_set(err, EDDI_ESTATE, "This document cannot be read again");
  eddi_doc_end_group(self);
  for (size_t i = 0; i < self->undo.len; i++)
    *discarded += self->undo.items[i].id > self->saved_group_id || self->saved_group_id == UINT64_MAX;
  StrBuf text = {0};
  eddi_strbuf_puts(&text, "");
  int rc = self->backend->vtable->reread(self->backend, &text, err);
  if (rc == 0) rc = eddi_doc_replace_all(self, text.data, text.len, NULL, err);
  eddi_strbuf_free(&text);
  if (rc < 0) return rc;
  eddi_doc_end_group(self);
  self->saved_group_id = doc__top_group(self);
  self->is_new = false;
  self->save_held = false;
  self->outside_edits = false;
  self->cursor = 0; /* as a fresh Open */
  return 0;
}

int eddi_doc_sync(EddiDoc *self, EddiError *err) {
  if (!self->backend || !self->backend->vtable->sync) return 0;
  return self->backend->vtable->sync(self->backend, self, err);
}

void eddi_doc_reload(EddiDoc *self, const char *text, size_t len) {
  doc__announce_reset(self);
  eddi_text_set(&self->text, text, len);
  size_t end = eddi_text_len(&self->text);
  self->cursor = EDDI_MIN(self->cursor, end);
  for (size_t i = 0; i < self->marks.len; i++)
    self->marks.items[i].offset = EDDI_MIN(self->marks.items[i].offset, end);
  self->find_anchor_set = false;
}

void eddi_doc_external_replace(EddiDoc *self, size_t start, size_t end, const char *text,
                               size_t len) {
  EDDI_ASSERT(start <= end && end <= eddi_text_len(&self->text));
  doc__change_text(self, start, end, text, len);
  doc__free_groups(&self->undo);
  doc__free_groups(&self->redo);
  self->group_open = false;
  self->saved_group_id = UINT64_MAX; /* no group has this id: modified */
  self->outside_edits = true;
}

size_t eddi_doc_char_count(const EddiDoc *self) { return self->text.chars; }

/* Mirror the replacement of bytes [start, end) by text, trimmed to what
 * really differs, so the cursor and marks outside it stay where they were
 * and an edit that changed nothing (typed, then undone) costs no history. */
static void doc__mirror_bytes(EddiDoc *self, size_t start, size_t end, const char *text,
                              size_t len) {
  size_t old_len = end - start;
  char *old = eddi_text_dup(&self->text, start, end);
  size_t prefix = 0, suffix = 0;
  while (prefix < old_len && prefix < len && old[prefix] == text[prefix]) prefix++;
  while (suffix < old_len - prefix && suffix < len - prefix &&
         old[old_len - 1 - suffix] == text[len - 1 - suffix])
    suffix++;
  /* Keep the cut on character boundaries: back off continuation bytes. A
   * prefix of len has no byte at text[len] to look at; the whole text is a
   * boundary anyway. */
  while (prefix > 0 && prefix < len && !eddi_utf8_is_lead((unsigned char)text[prefix]))
    prefix--;
  while (suffix > 0 && !eddi_utf8_is_lead((unsigned char)text[len - suffix])) suffix--;
  if (prefix != old_len || prefix != len)
    eddi_doc_external_replace(self, start + prefix, end - suffix, text + prefix,
                              len - prefix - suffix);
  eddi_free(old);
}

int eddi_doc_mirror(EddiDoc *self, size_t start_char, size_t end_char, const char *text,
                    size_t len, EddiError *err) {
  if (start_char > end_char || end_char > self->text.chars)
    return eddi_error_set(err, EDDI_EINVAL, "Change outside the text");
  size_t valid = eddi_utf8_valid_prefix(text, len);
  if (valid != len)
    return eddi_error_set(err, EDDI_EINVAL, "Buffer text is not valid UTF-8 (byte %zu)", valid);
  size_t start = eddi_text_byte_offset(&self->text, start_char);
  size_t end = eddi_text_byte_offset(&self->text, end_char);
  doc__mirror_bytes(self, start, end, text, len);
  return 0;
}

/* ---------------------------------------------------------------- marks */

DocMark *eddi_doc_find_mark(EddiDoc *self, const char *name) {
  for (size_t i = 0; i < self->marks.len; i++)
    if (strcmp(self->marks.items[i].name, name) == 0) return &self->marks.items[i];
  return NULL;
}

void eddi_doc_set_mark(EddiDoc *self, const char *name, size_t offset) {
  DocMark *mark = eddi_doc_find_mark(self, name);
  if (mark) {
    mark->offset = offset;
    return;
  }
  DocMark fresh = {eddi_strdup(name), offset};
  array_push(&self->marks, fresh);
}

bool eddi_doc_remove_mark(EddiDoc *self, const char *name) {
  DocMark *mark = eddi_doc_find_mark(self, name);
  if (!mark) return false;
  eddi_free(mark->name);
  array_remove(&self->marks, (size_t)(mark - self->marks.items));
  return true;
}

size_t eddi_doc_undo_footprint(const EddiDoc *self) {
  size_t bytes = (self->undo.cap + self->redo.cap) * sizeof(DocEditGroup);
  const DocEditGroupList *lists[2] = {&self->undo, &self->redo};
  for (int l = 0; l < 2; l++) {
    const DocEditGroupList *groups = lists[l];
    for (size_t i = 0; i < groups->len; i++) {
      const DocEditGroup *g = &groups->items[i];
      bytes += g->edits.cap * sizeof(DocEdit);
      for (size_t k = 0; k < g->edits.len; k++)
        bytes += g->edits.items[k].removed_len + g->edits.items[k].inserted_len + 2;
    }
  }
  return bytes;
}
