/* edit_state.c - snapshots, registers, tags and the shared reply helpers of
 * the edit formats; see edit_state.h. */
#include "edit/edit_state.h"

#include <stdarg.h>
#include <xxhash.h>

/* ---------------------------------------------------------------- tags */

/* Whether no line of text ends in a space, tab or CR: then the text is its
 * own normal form and hashes in one call. */
static bool tag__clean(const char *text, size_t len) {
  if (memchr(text, '\r', len)) return false;
  for (const char *p = text, *end = text + len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    if (line_end > p && (line_end[-1] == ' ' || line_end[-1] == '\t')) return false;
    p = line_end + 1;
  }
  return true;
}

void eddi_hashline_tag(const char *text, size_t len, char tag[5]) {
  if (tag__clean(text, len)) {
    snprintf(tag, 5, "%04X", (unsigned)(XXH32(text, len, 0) & 0xFFFF));
    return;
  }
  XXH32_state_t *state = XXH32_createState();
  XXH32_reset(state, 0);
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    const char *trim = line_end;
    while (trim > p && (trim[-1] == ' ' || trim[-1] == '\t' || trim[-1] == '\r')) trim--;
    XXH32_update(state, p, (size_t)(trim - p));
    if (nl) XXH32_update(state, "\n", 1);
    p = nl ? nl + 1 : end;
  }
  snprintf(tag, 5, "%04X", (unsigned)(XXH32_digest(state) & 0xFFFF));
  XXH32_freeState(state);
}

/* ---------------------------------------------------------------- state */


static void snapshot__free(EddiSnapshot *snap) {
  eddi_free(snap->path);
  eddi_free(snap->text);
  eddi_free(snap->seen);
}

static void edit_state__free(void *data) {
  EddiEditState *state = data;
  for (size_t i = 0; i < state->snapshots.len; i++) snapshot__free(&state->snapshots.items[i]);
  array_free(&state->snapshots);
  eddi_registers_free(&state->registers);
  eddi_free(state);
}

static const EddiSlotType edit_state_slot = {"edit formats' state", edit_state__free, NULL};

EddiEditState *eddi_edit_state_find(const EddiSession *session) {
  return session ? eddi_session_slot(session, &edit_state_slot) : NULL;
}

EddiEditState *eddi_edit_state_of(EddiSession *session) {
  if (!session) return NULL;
  EddiEditState *state = eddi_edit_state_find(session);
  if (!state) {
    state = eddi_calloc(1, sizeof *state);
    eddi_session_set_slot(session, &edit_state_slot, state);
  }
  return state;
}

static void snapshot__mark_seen(EddiSnapshot *snap, size_t first, size_t last) {
  if (!snap->seen) return; /* already all */
  for (size_t line = first; line <= last && line <= snap->seen_len; line++)
    snap->seen[line - 1] = 1;
}

void eddi_snapshot_record(EddiEditState *self, const char *path, const char *text, size_t len,
                          const char tag[5], size_t first, size_t last) {
  if (!self) return;
  for (size_t i = 0; i < self->snapshots.len; i++) {
    EddiSnapshot *snap = &self->snapshots.items[i];
    if (strcmp(snap->path, path) != 0 || strcmp(snap->tag, tag) != 0) continue;
    snap->stamp = ++self->clock;
    if (first == 0) {
      eddi_free(snap->seen);
      snap->seen = NULL;
    } else {
      snapshot__mark_seen(snap, first, last);
    }
    return;
  }
  EddiSnapshot snap = {.path = eddi_strdup(path), .len = len, .stamp = ++self->clock};
  memcpy(snap.tag, tag, 5);
  snap.text = eddi_malloc(len + 1);
  memcpy(snap.text, text, len);
  snap.text[len] = '\0';
  if (first) {
    snap.seen_len = eddi_lines_count(text, len);
    snap.seen = eddi_calloc(snap.seen_len + 1, 1);
    snapshot__mark_seen(&snap, first, last);
  }
  array_push(&self->snapshots, snap);
  self->bytes += len;
  /* Evict the least recently used until within bounds (keep the new one). */
  while (self->snapshots.len > 1 &&
         (self->snapshots.len > EDDI_SNAPSHOTS_MAX || self->bytes > EDDI_SNAPSHOT_BYTES_MAX)) {
    size_t oldest = 0;
    for (size_t i = 1; i + 1 < self->snapshots.len; i++)
      if (self->snapshots.items[i].stamp < self->snapshots.items[oldest].stamp) oldest = i;
    self->bytes -= self->snapshots.items[oldest].len;
    snapshot__free(&self->snapshots.items[oldest]);
    array_remove(&self->snapshots, oldest);
  }
}

const EddiSnapshot *eddi_snapshot_find(EddiEditState *self, const char *path, const char *tag) {
  if (!self) return NULL;
  for (size_t i = self->snapshots.len; i-- > 0;) {
    EddiSnapshot *snap = &self->snapshots.items[i];
    if ((!path || strcmp(snap->path, path) == 0) && strcmp(snap->tag, tag) == 0) {
      snap->stamp = ++self->clock;
      return snap;
    }
  }
  return NULL;
}

bool eddi_snapshot_known_path(EddiEditState *self, const char *path) {
  if (!self) return false;
  for (size_t i = 0; i < self->snapshots.len; i++)
    if (strcmp(self->snapshots.items[i].path, path) == 0) return true;
  return false;
}

/* ---------------------------------------------------------------- registers */

const EddiRegister *eddi_register_get(const EddiRegisterList *list, const char *name) {
  for (size_t i = 0; i < list->len; i++)
    if (strcmp(list->items[i].name, name) == 0) return &list->items[i];
  return NULL;
}

void eddi_register_set(EddiRegisterList *list, const char *name, const char *text, size_t len) {
  EddiRegister *slot = (EddiRegister *)eddi_register_get(list, name);
  if (!slot) {
    if (list->len >= EDDI_REGISTERS_MAX) {
      /* Drop the oldest named register; the anonymous one is reused. */
      size_t drop = list->items[0].name[0] ? 0 : 1;
      eddi_free(list->items[drop].name);
      eddi_free(list->items[drop].text);
      array_remove(list, drop);
    }
    array_push(list, ((EddiRegister){eddi_strdup(name), NULL, 0}));
    slot = array_back(list);
  }
  eddi_free(slot->text);
  slot->text = eddi_strndup(text, len);
  slot->len = len;
}

void eddi_registers_free(EddiRegisterList *list) {
  for (size_t i = 0; i < list->len; i++) {
    eddi_free(list->items[i].name);
    eddi_free(list->items[i].text);
  }
  array_free(list);
}

/* ---------------------------------------------------------------- replies */

void eddi_edit_report_free(EddiEditReport *self) {
  eddi_strbuf_free(&self->report);
  eddi_strbuf_free(&self->warnings);
}

void eddi_edit_report_render(const EddiEditReport *self, StrBuf *out) {
  eddi_strbuf_puts(out, "");
  if (self->no_change)
    eddi_strbuf_puts(out, "No change: the edit parsed and applied cleanly, but produced no change; "
                     "the file already holds this text\n");
  eddi_strbuf_append(out, self->report.data, self->report.len);
  for (const char *p = self->warnings.data; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    eddi_strbuf_puts(out, "Warning: ");
    eddi_strbuf_append(out, p, n);
    eddi_strbuf_putc(out, '\n');
    p += n + (nl != NULL);
  }
}

void eddi_edit_report_written(EddiEditReport *self, EddiSession *session, const char *path,
                              const char *text, size_t len, const EddiChangedList *changed) {
  char tag[5];
  eddi_hashline_tag(text, len, tag);
  eddi_strbuf_printf(&self->report, "[%s#%s]\n", path, tag);
  if (changed) eddi_preview(text, len, changed, EDDI_PREVIEW_ROWS, &self->report);
  eddi_snapshot_record(eddi_edit_state_of(session), path, text, len, tag, 0, 0);
}

void eddi_edit_report_warn(EddiEditReport *self, const char *fmt, ...) {
  char line[EDDI_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  /* The same leniency used twice is said once. */
  if (self->warnings.data && strstr(self->warnings.data, line)) return;
  eddi_strbuf_printf(&self->warnings, "%s\n", line);
}

void eddi_edit_changed_between(const char *old_text, size_t old_len, const char *new_text,
                               size_t new_len, EddiChangedList *changed) {
  EddiLineList a = {0}, b = {0};
  eddi_lines_split(old_text, old_len, &a, NULL);
  eddi_lines_split(new_text, new_len, &b, NULL);
  size_t head = 0, tail = 0;
  while (head < a.len && head < b.len && a.items[head].len == b.items[head].len &&
         memcmp(a.items[head].bytes, b.items[head].bytes, a.items[head].len) == 0)
    head++;
  while (tail < a.len - head && tail < b.len - head &&
         a.items[a.len - 1 - tail].len == b.items[b.len - 1 - tail].len &&
         memcmp(a.items[a.len - 1 - tail].bytes, b.items[b.len - 1 - tail].bytes,
                b.items[b.len - 1 - tail].len) == 0)
    tail++;
  array_push(changed, ((EddiChangedRange){head, b.len - head - tail}));
  array_free(&a);
  array_free(&b);
}

int eddi_edit_fail_not_found(EddiError *err, const char *what, const char *path,
                             const EddiLineList *file, const EddiLineList *quoted) {
  eddi_error_set(err, EDDI_ENOENT, "Failed to find expected lines in %s (%s)", path, what);
  size_t start, count;
  if (!eddi_match_nearest(file, quoted, &start, &count)) {
    eddi_error_hint(err, "No line of the file resembles them; re-read %s", path);
    return EDDI_ENOENT;
  }
  StrBuf rows = {0};
  eddi_lines_format(file, start, EDDI_MIN(count, (size_t)4), EDDI_HINT_LINE_WIDTH, &rows);
  StrBuf escaped = {0};
  eddi_strbuf_escape(&escaped, rows.data, rows.len ? rows.len - 1 : 0, false);
  eddi_error_hint(err, "%s; re-read lines %zu-%zu: %s",
                  eddi_match_misnested(file, quoted, start)
                      ? "The nearest lines hold the same text nested otherwise (a line moved "
                        "into or out of its block)"
                      : "The nearest lines differ in content",
                  start + 1, start + count, escaped.data ? escaped.data : "");
  eddi_strbuf_free(&rows);
  eddi_strbuf_free(&escaped);
  return EDDI_ENOENT;
}

int eddi_edit_fail_ambiguous(EddiError *err, const char *what, const char *path,
                             const EddiMatch *match) {
  eddi_error_set(err, EDDI_EINVAL, "Ambiguous match in %s (%s): %zu places fit", path, what,
                 match->candidate_count);
  StrBuf lines = {0};
  size_t shown = EDDI_MIN(match->candidate_count, (size_t)EDDI_MATCH_CANDIDATES_MAX);
  for (size_t i = 0; i < shown; i++)
    eddi_strbuf_printf(&lines, "%s%zu", i ? (i + 1 == shown ? " and " : ", ") : "",
                  match->candidates[i] + 1);
  eddi_error_hint(err, "The candidates start at lines %s; quote more lines to tell them apart",
                  lines.data);
  eddi_strbuf_free(&lines);
  return EDDI_EINVAL;
}

int eddi_edit_apply_hunk(const EddiHunkSearch *search, const EddiHunk *hunk,
                         EddiSpliceList *splices, EddiMatch *match, EddiError *err) {
  const EddiLineList *file = search->file;
  EddiLineList old_side = {0};
  eddi_hunk_old_side(hunk, &old_side);
  int found = eddi_match_find(file, search->from, file->len, &old_side, search->at_end, match);
  int rc = 0;
  if (found == EDDI_MATCH_AMBIGUOUS) {
    rc = eddi_edit_fail_ambiguous(err, search->what, search->path, match);
  } else if (found == EDDI_MATCH_NONE) {
    rc = eddi_edit_fail_not_found(err, search->what, search->path, file, &old_side);
  } else {
    StrBuf text = {0};
    eddi_match_render(file, match, hunk, &text);
    eddi_splices_add(splices, match->start, match->count, &text);
  }
  array_free(&old_side);
  return rc;
}
