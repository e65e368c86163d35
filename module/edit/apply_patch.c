/* apply_patch.c - the Codex apply_patch format, applied atomically.
 *
 *   *** Begin Patch
 *   *** Add File: path          then "+" lines: the whole new file
 *   *** Delete File: path
 *   *** Update File: path
 *   *** Move to: new/path       (optional, right after Update)
 *   @@ optional context line    a chunk: " " context, "-" removed, "+" added
 *   *** End of File             (optional: the chunk ends at the file's end)
 *   *** End Patch
 *
 * Codex's parser is lenient about whitespace around the marker lines, and so
 * is this one. Where Codex applies hunks one by one (leaving earlier ones on
 * disk when a later one fails) and takes the first place that fits, eddi
 * validates every hunk before writing any file and refuses a chunk that fits
 * in two places. Chunks are found with the shared matcher, so the tolerated
 * noise is the same as in every other format.
 */
#include "edit/edit_state.h"
#include "edit/txn_history.h"

#include <ctype.h>

/* ---------------------------------------------------------------- parsing */

typedef enum { PATCH_ADD, PATCH_DELETE, PATCH_UPDATE } PatchKind;

typedef struct {
  EddiLine context; /* "@@ text" (empty: none) */
  bool has_context;
  EddiHunk lines;
  bool at_end;
  size_t line_no; /* in the patch, for messages */
} PatchChunk;

typedef struct {
  PatchKind kind;
  char *path;
  char *move_to;
  StrBuf content; /* Add */
  Array(PatchChunk) chunks;
  size_t line_no;
} PatchHunk;

typedef Array(PatchHunk) PatchHunkList;

static void patch__free(PatchHunkList *hunks) {
  for (size_t i = 0; i < hunks->len; i++) {
    PatchHunk *h = &hunks->items[i];
    eddi_free(h->path);
    eddi_free(h->move_to);
    eddi_strbuf_free(&h->content);
    for (size_t c = 0; c < h->chunks.len; c++) array_free(&h->chunks.items[c].lines);
    array_free(&h->chunks);
  }
  array_free(hunks);
}

static EddiLine patch__trim(EddiLine line) {
  while (line.len && isspace((unsigned char)line.bytes[0])) line.bytes++, line.len--;
  while (line.len && isspace((unsigned char)line.bytes[line.len - 1])) line.len--;
  return line;
}

static bool patch__is(EddiLine line, const char *marker) {
  EddiLine t = patch__trim(line);
  return t.len == strlen(marker) && memcmp(t.bytes, marker, t.len) == 0;
}

/* The path after a "*** Verb: " marker, or NULL. */
static char *patch__header(EddiLine line, const char *marker) {
  EddiLine t = patch__trim(line);
  size_t n = strlen(marker);
  if (t.len <= n || memcmp(t.bytes, marker, n) != 0) return NULL;
  EddiLine rest = patch__trim((EddiLine){t.bytes + n, t.len - n});
  return rest.len ? eddi_strndup(rest.bytes, rest.len) : NULL;
}

static bool patch__starts(EddiLine line, const char *prefix) {
  EddiLine t = patch__trim(line);
  size_t n = strlen(prefix);
  return t.len >= n && memcmp(t.bytes, prefix, n) == 0;
}

static int patch__bad_line(EddiError *err, size_t line_no, EddiLine line, const char *fmt) {
  eddi_error_set(err, EDDI_EINVAL, fmt, line_no, (int)EDDI_MIN(line.len, EDDI_QUOTE_LINE_MAX),
                 line.bytes);
  return EDDI_EINVAL;
}

/* Parse one Update File's chunks from lines[*i]; stops at the next "***"
 * line that is not "*** End of File". */
static int patch__parse_chunks(const EddiLineList *lines, size_t *i, size_t end, PatchHunk *h,
                               EddiError *err) {
  PatchChunk *chunk = NULL;
  for (; *i < end; (*i)++) {
    EddiLine line = lines->items[*i];
    if (patch__is(line, "*** End of File")) {
      if (!chunk || !chunk->lines.len)
        return patch__bad_line(err, *i + 1, line,
                               "Invalid patch line %zu: '%.*s' ends a chunk that has no lines");
      chunk->at_end = true;
      chunk = NULL;
      continue;
    }
    if (patch__starts(line, "***")) break;
    if (line.len >= 2 && memcmp(line.bytes, "@@", 2) == 0) {
      if (chunk && !chunk->lines.len)
        return patch__bad_line(err, *i, line, "Invalid patch line %zu: an '@@' chunk has no lines%.*s");
      array_push(&h->chunks, ((PatchChunk){.line_no = *i + 1}));
      chunk = array_back(&h->chunks);
      EddiLine ctx = patch__trim((EddiLine){line.bytes + 2, line.len - 2});
      /* "@@ -1,3 +1,3 @@" is a unified diff header, not an anchor. */
      if (ctx.len && !(ctx.bytes[0] == '-' && ctx.len > 1 && isdigit((unsigned char)ctx.bytes[1]))) {
        chunk->context = ctx;
        chunk->has_context = true;
      }
      continue;
    }
    if (!chunk) {
      /* The first chunk may leave out its "@@". */
      array_push(&h->chunks, ((PatchChunk){.line_no = *i + 1}));
      chunk = array_back(&h->chunks);
    }
    EddiHunkKind kind;
    if (line.len == 0) {
      kind = HUNK_CONTEXT; /* an empty line is an empty context line */
      array_push(&chunk->lines, ((EddiHunkLine){kind, {line.bytes, 0}}));
      continue;
    }
    switch (line.bytes[0]) {
    case ' ': kind = HUNK_CONTEXT; break;
    case '+': kind = HUNK_ADD; break;
    case '-': kind = HUNK_DELETE; break;
    default:
      eddi_error_set(err, EDDI_EINVAL,
                     "Invalid patch line %zu: unexpected line in update hunk: '%.*s'", *i + 1,
                     (int)EDDI_MIN(line.len, EDDI_QUOTE_LINE_MAX), line.bytes);
      eddi_error_hint(err, "Every line of a chunk starts with ' ' (context), '+' (added) or "
                           "'-' (removed)");
      return EDDI_EINVAL;
    }
    array_push(&chunk->lines, ((EddiHunkLine){kind, {line.bytes + 1, line.len - 1}}));
  }
  if (chunk && !chunk->lines.len)
    return eddi_error_set(err, EDDI_EINVAL, "Invalid patch line %zu: an '@@' chunk has no lines",
                          chunk->line_no);
  return 0;
}

static int patch__parse(const char *text, size_t len, EddiLineList *lines,
                        PatchHunkList *hunks, EddiError *err) {
  eddi_lines_split(text, len, lines, NULL);
  size_t begin = 0, end = lines->len;
  /* Models wrap patches in Markdown fences or a shell heredoc. */
  while (begin < end && (patch__trim(lines->items[begin]).len == 0 ||
                         patch__starts(lines->items[begin], "```") ||
                         patch__starts(lines->items[begin], "apply_patch")))
    begin++;
  while (end > begin && (patch__trim(lines->items[end - 1]).len == 0 ||
                         patch__starts(lines->items[end - 1], "```") ||
                         patch__is(lines->items[end - 1], "EOF")))
    end--;
  for (size_t i = begin; i < end; i++) {
    EddiLine *l = &lines->items[i];
    if (l->len && l->bytes[l->len - 1] == '\r') l->len--;
  }
  if (begin == end || !patch__is(lines->items[begin], "*** Begin Patch")) {
    eddi_error_set(err, EDDI_EINVAL, "The first line of the patch must be '*** Begin Patch'");
    eddi_error_hint(err, "Send the whole patch, from *** Begin Patch to *** End Patch");
    return EDDI_EINVAL;
  }
  if (end - begin < 2 || !patch__is(lines->items[end - 1], "*** End Patch")) {
    eddi_error_set(err, EDDI_EINVAL, "The last line of the patch must be '*** End Patch'");
    eddi_error_hint(err, "The patch looks cut short: nothing was applied; send it whole");
    return EDDI_EINVAL;
  }
  end--;
  for (size_t i = begin + 1; i < end;) {
    EddiLine line = lines->items[i];
    if (patch__trim(line).len == 0) {
      i++;
      continue;
    }
    PatchHunk h = {.line_no = i + 1};
    if ((h.path = patch__header(line, "*** Add File:"))) {
      h.kind = PATCH_ADD;
      eddi_strbuf_puts(&h.content, "");
      for (i++; i < end && lines->items[i].len && lines->items[i].bytes[0] == '+'; i++) {
        eddi_strbuf_append(&h.content, lines->items[i].bytes + 1, lines->items[i].len - 1);
        eddi_strbuf_putc(&h.content, '\n');
      }
    } else if ((h.path = patch__header(line, "*** Delete File:"))) {
      h.kind = PATCH_DELETE;
      i++;
    } else if ((h.path = patch__header(line, "*** Update File:"))) {
      h.kind = PATCH_UPDATE;
      i++;
      if (i < end && (h.move_to = patch__header(lines->items[i], "*** Move to:"))) i++;
      array_push(hunks, h);
      int rc = patch__parse_chunks(lines, &i, end, array_back(hunks), err);
      if (rc < 0) return rc;
      if (!array_back(hunks)->chunks.len && !array_back(hunks)->move_to) {
        eddi_error_set(err, EDDI_EINVAL,
                       "Invalid patch hunk on line %zu: Update file hunk for path '%s' is empty",
                       array_back(hunks)->line_no, array_back(hunks)->path);
        eddi_error_hint(err, "Give it at least one chunk of ' ', '-' and '+' lines");
        return EDDI_EINVAL;
      }
      continue;
    } else {
      eddi_error_set(err, EDDI_EINVAL,
                     "Invalid patch hunk on line %zu: '%.*s' is not a valid hunk header", i + 1,
                     (int)EDDI_MIN(line.len, EDDI_QUOTE_LINE_MAX), line.bytes);
      eddi_error_hint(err, "Valid hunk headers: '*** Add File: {path}', '*** Delete File: "
                           "{path}', '*** Update File: {path}'");
      return EDDI_EINVAL;
    }
    array_push(hunks, h);
  }
  if (!hunks->len) {
    eddi_error_set(err, EDDI_EINVAL, "No files were modified: the patch has no hunks");
    eddi_error_hint(err, "Add '*** Add File:', '*** Delete File:' or '*** Update File:' hunks");
    return EDDI_EINVAL;
  }
  return 0;
}

/* ---------------------------------------------------------------- applying */

/* The text a hunk starts from: what an earlier hunk of this patch left, or
 * the file as it is. */
static const StrBuf *patch__current(const EddiEditFile *file, bool *exists) {
  if (file->action == EDIT_WRITE) return *exists = true, &file->result;
  if (file->action == EDIT_DELETE) return *exists = false, &file->text;
  *exists = file->exists;
  return &file->text;
}

/* Drop a trailing empty line from the hunk's old side (and its new side),
 * as Codex retries a chunk whose last line is a blank the file lacks. */
static bool patch__drop_trailing_blank(EddiHunk *hunk) {
  size_t j = hunk->len;
  while (j > 0 && hunk->items[j - 1].kind == HUNK_ADD) j--;
  if (j == 0 || hunk->items[j - 1].line.len != 0) return false;
  array_remove(hunk, j - 1);
  if (hunk->len && array_back(hunk)->kind == HUNK_ADD && array_back(hunk)->line.len == 0)
    hunk->len--;
  return true;
}

/* Give context lines back the space their marker took, as when a model
 * wrote an indented context line without the leading ' ': "  x" was the
 * line "  x", not " x". Then the quote is indented consistently again and
 * the matcher, which refuses re-nested quotes, finds it. Only lines whose
 * text starts with a blank change: the parser took their marker from the
 * byte before. */
static bool patch__unmark_context(EddiHunk *hunk) {
  bool any = false;
  for (size_t i = 0; i < hunk->len; i++) {
    EddiLine *line = &hunk->items[i].line;
    if (hunk->items[i].kind != HUNK_CONTEXT || !line->len ||
        (line->bytes[0] != ' ' && line->bytes[0] != '\t'))
      continue;
    line->bytes--, line->len++;
    any = true;
  }
  return any;
}

static int patch__update(PatchHunk *h, size_t index, const char *text, size_t len,
                         StrBuf *out, EddiChangedList *changed, EddiError *err) {
  EddiLineList file = {0};
  eddi_lines_split(text, len, &file, NULL);
  EddiSpliceList splices = {0};
  size_t from = 0;
  int rc = 0;
  char what[EDDI_EDIT_WHAT_MAX];
  for (size_t c = 0; c < h->chunks.len && rc == 0; c++) {
    PatchChunk *chunk = &h->chunks.items[c];
    snprintf(what, sizeof what, "hunk %zu, chunk %zu at patch line %zu", index + 1, c + 1,
             chunk->line_no);
    if (chunk->has_context) {
      EddiLineList anchor = {0};
      array_push(&anchor, chunk->context);
      EddiMatch m;
      int found = eddi_match_find(&file, from, file.len, &anchor, false, &m);
      if (found == EDDI_MATCH_FOUND) {
        from = m.start + 1;
      } else if (found == EDDI_MATCH_AMBIGUOUS) {
        rc = eddi_edit_fail_ambiguous(err, "the @@ line", h->path, &m);
      } else {
        rc = eddi_error_set(err, EDDI_ENOENT, "Failed to find context '%.*s' in %s (%s)",
                            (int)EDDI_MIN(chunk->context.len, EDDI_QUOTE_LINE_MAX),
                            chunk->context.bytes, h->path, what);
        eddi_error_hint(err, "Re-read %s; the @@ line must be a line of the file", h->path);
      }
      array_free(&anchor);
      if (rc < 0) break;
    }
    EddiLineList old_side = {0};
    eddi_hunk_old_side(&chunk->lines, &old_side);
    size_t old_count = old_side.len;
    array_free(&old_side);
    if (old_count == 0) {
      /* Only added lines: they go at the end of the file. */
      StrBuf add = {0};
      eddi_strbuf_puts(&add, "");
      for (size_t k = 0; k < chunk->lines.len; k++) {
        eddi_strbuf_append(&add, chunk->lines.items[k].line.bytes, chunk->lines.items[k].line.len);
        eddi_strbuf_putc(&add, '\n');
      }
      eddi_splices_add(&splices, file.len, 0, &add);
      continue;
    }
    EddiMatch m;
    EddiError first_err;
    EddiHunkSearch search = {&file, from, chunk->at_end, what, h->path};
    rc = eddi_edit_apply_hunk(&search, &chunk->lines, &splices, &m, &first_err);
    /* Not found: retried for the slips models make (the first as Codex
     * retries too). */
    static bool (*const repairs[])(EddiHunk *) = {patch__drop_trailing_blank,
                                                  patch__unmark_context};
    for (size_t r = 0; rc == EDDI_ENOENT && r < sizeof repairs / sizeof *repairs; r++) {
      if (!repairs[r](&chunk->lines)) continue;
      EddiError retry_err;
      rc = eddi_edit_apply_hunk(&search, &chunk->lines, &splices, &m, &retry_err);
      if (rc == EDDI_EINVAL) first_err = retry_err;
    }
    if (rc < 0) *err = first_err;
    else from = m.start + m.count;
  }
  if (rc == 0) {
    eddi_strbuf_puts(out, "");
    rc = eddi_splices_apply(&splices, &file, true, out, changed, err);
  }
  eddi_splices_free(&splices);
  array_free(&file);
  return rc;
}

int eddi_edit_apply_patch(EddiWorkspace *workspace, EddiSession *session, const char *patch,
                          size_t len, EddiEditReport *report, EddiError *err) {
  EddiLineList lines = {0};
  PatchHunkList hunks = {0};
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  Array(EddiChangedList) changes = {0};
  int rc = patch__parse(patch, len, &lines, &hunks, err);
  for (size_t i = 0; i < hunks.len && rc == 0; i++) {
    PatchHunk *h = &hunks.items[i];
    EddiEditFile *file;
    rc = eddi_edit_txn_file(&txn, h->path, &file, err);
    if (rc < 0) break;
    bool exists;
    const StrBuf *current = patch__current(file, &exists);
    EddiChangedList changed = {0};
    if (file->is_dir) {
      rc = eddi_error_set(err, EDDI_EINVAL, "%s %s: it is a directory (hunk %zu)",
                          h->kind == PATCH_DELETE ? "Failed to delete file" : "Failed to write file",
                          h->path, i + 1);
    } else if (h->kind == PATCH_ADD) {
      eddi_edit_file_write(file, h->content.data, h->content.len);
    } else if (h->kind == PATCH_DELETE) {
      if (!exists) {
        rc = eddi_error_set(err, EDDI_ENOENT, "Failed to delete file %s: no such file (hunk %zu)",
                            h->path, i + 1);
      } else {
        eddi_edit_file_delete(file);
      }
    } else if (!exists) {
      rc = eddi_error_set(err, EDDI_ENOENT,
                          "Failed to read file to update %s: no such file (hunk %zu)", h->path,
                          i + 1);
      eddi_error_hint(err, "Create it with '*** Add File: %s'", h->path);
    } else {
      StrBuf next = {0};
      rc = patch__update(h, i, current->data ? current->data : "", current->len, &next,
                         &changed, err);
      EddiEditFile *dest = file;
      if (rc == 0 && h->move_to) {
        rc = eddi_edit_txn_file(&txn, h->move_to, &dest, err);
        if (rc == 0 && dest->is_dir)
          rc = eddi_error_set(err, EDDI_EINVAL, "Cannot move %s to %s: it is a directory",
                              h->path, h->move_to);
        if (rc == 0 && dest != file) eddi_edit_file_delete(file);
      }
      if (rc == 0) eddi_edit_file_write(dest, next.data, next.len);
      eddi_strbuf_free(&next);
    }
    array_push(&changes, changed);
  }
  if (rc == 0) rc = eddi_edit_txn_commit(&txn, report, err);
  if (rc == 0) eddi_txn_history_note(&txn);
  if (rc == 0) {
    for (size_t i = 0; i < hunks.len; i++) {
      PatchHunk *h = &hunks.items[i];
      EddiEditFile *file = NULL;
      EddiError ignored;
      const char *shown = h->move_to ? h->move_to : h->path;
      eddi_edit_txn_file(&txn, shown, &file, &ignored);
      report->files++;
      if (h->kind == PATCH_DELETE) {
        eddi_strbuf_printf(&report->report, "D %s\n", h->path);
      } else if (file) {
        eddi_strbuf_printf(&report->report, "%s ", h->kind == PATCH_ADD ? "A" : "M");
        eddi_edit_report_written(report, session, file->rel,
                                 file->result.data ? file->result.data : "", file->result.len,
                                 h->kind == PATCH_ADD ? NULL : &changes.items[i]);
      }
    }
  }
  for (size_t i = 0; i < changes.len; i++) array_free(&changes.items[i]);
  array_free(&changes);
  eddi_edit_txn_free(&txn);
  patch__free(&hunks);
  array_free(&lines);
  return rc;
}
