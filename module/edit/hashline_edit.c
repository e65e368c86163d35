/* hashline_edit.c - Read, Grep and Edit: the hashline formats over files.
 *
 * Read and Grep show files as "[PATH#TAG]" headers and "N:TEXT" rows and
 * record what they showed as snapshots; Edit resolves each section's tag
 * against the file now (applied directly), a snapshot (rebased) or nothing
 * (refused), builds every section's new text, and writes them all in one
 * transaction. */
#define _GNU_SOURCE /* memmem */
#include "edit/hashline.h"
#include "edit/txn_history.h"

#include <ctype.h>
#include <stdarg.h>

#include "core/path.h"
#include "edit/grep.h"

/* Rows of fresh context in a refusal's hint. */
#define HASHLINE_HINT_ROWS 3

/* ---------------------------------------------------------------- Read */

static int hashline__load(EddiEditTxn *txn, const char *path, EddiEditFile **file, EddiError *err) {
  int rc = eddi_edit_txn_file(txn, path, file, err);
  if (rc < 0) return rc;
  if ((*file)->is_dir) return eddi_error_set(err, EDDI_EINVAL, "Is a directory: %s", (*file)->rel);
  if (!(*file)->exists) {
    eddi_error_set(err, EDDI_ENOENT, "File not found: %s", (*file)->rel);
    eddi_error_hint(err, "List shows the files; create new ones with Update <path> or Patch "
                         "*** Add File");
    return EDDI_ENOENT;
  }
  return 0;
}

int eddi_edit_read(EddiWorkspace *workspace, EddiSession *session, const char *path, size_t offset,
                   size_t limit, StrBuf *out, EddiError *err) {
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  EddiEditFile *file;
  int rc = hashline__load(&txn, path, &file, err);
  if (rc == 0) {
    const char *text = file->text.data ? file->text.data : "";
    EddiLineList lines = {0};
    eddi_lines_split(text, file->text.len, &lines, NULL);
    char tag[5];
    eddi_hashline_tag(text, file->text.len, tag);
    size_t first = offset ? offset : 1;
    size_t page = limit && limit < EDDI_HASHLINE_PAGE ? limit : EDDI_HASHLINE_PAGE;
    if (first > lines.len && !(first == 1 && lines.len == 0)) {
      rc = eddi_error_set(err, EDDI_EINVAL, "Offset %zu is past the end of %s (%zu lines)",
                          first, file->rel, lines.len);
    } else {
      size_t last = EDDI_MIN(lines.len, first + page - 1);
      eddi_strbuf_printf(out, "[%s#%s]\n", file->rel, tag);
      if (lines.len) eddi_lines_format(&lines, first - 1, last - first + 1, 0, out);
      if (last < lines.len)
        eddi_strbuf_printf(out, "[Showing lines %zu-%zu of %zu. Read %s %zu to continue]\n", first,
                      last, lines.len, file->rel, last + 1);
      eddi_snapshot_record(eddi_edit_state_of(session), file->rel, text, file->text.len, tag,
                           lines.len ? first : 0, last);
    }
    array_free(&lines);
  }
  eddi_edit_txn_free(&txn);
  return rc;
}

/* ---------------------------------------------------------------- Grep */

/* The walk and the search are grep.c's, in its three steps run one after
 * the other here (the server's tool calls wait for it). */
int eddi_edit_grep(EddiWorkspace *workspace, EddiSession *session, const EddiGrepQuery *query,
                   StrBuf *out, EddiError *err) {
  EddiGrep *grep;
  int rc = eddi_grep_prepare(workspace, session, query, &grep, err);
  if (rc < 0) return rc;
  eddi_grep_run(grep);
  rc = eddi_grep_finish(grep, workspace, session, out, err);
  eddi_grep_free(grep);
  return rc;
}

/* ---------------------------------------------------------------- sections */

typedef struct {
  char *path;
  char tag[5];
  bool has_tag;
  size_t header_line;
  HlSection parsed;
  EddiEditFile *file;
  EddiEditFile *dest; /* MV */
  StrBuf result;
  EddiChangedList changed;
  bool no_change;
} HlRun;

typedef Array(HlRun) HlRunList;

/* "[PATH#TAG]" (also inside <path>...</path>); false for other lines. */
static bool hashline__section_header(const char *line, size_t len, HlRun *run) {
  while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r')) len--;
  while (len && (*line == ' ' || *line == '\t')) line++, len--;
  if (len > 6 && memcmp(line, "<path>", 6) == 0) line += 6, len -= 6;
  if (len > 7 && memcmp(line + len - 7, "</path>", 7) == 0) len -= 7;
  if (len < 3 || line[0] != '[' || line[len - 1] != ']') return false;
  const char *inner = line + 1;
  size_t n = len - 2;
  if (memmem(inner, n, "elided", 6) || memmem(inner, n, "Showing", 7) || inner[0] == ' ' ||
      (n >= 3 && memcmp(inner, "\xE2\x80\xA6", 3) == 0))
    return false;
  const char *hash = NULL;
  for (size_t i = n; i-- > 0;)
    if (inner[i] == '#') {
      hash = inner + i;
      break;
    }
  memset(run, 0, sizeof *run);
  if (hash && inner + n - hash == 5) {
    bool hex = true;
    for (int k = 1; k <= 4; k++) hex &= isxdigit((unsigned char)hash[k]) != 0;
    if (hex) {
      for (int k = 0; k < 4; k++) run->tag[k] = (char)toupper((unsigned char)hash[k + 1]);
      run->has_tag = true;
      n = (size_t)(hash - inner);
    }
  }
  if (n == 0) return false;
  run->path = eddi_strndup(inner, n);
  return true;
}

static void hashline__runs_free(HlRunList *runs) {
  for (size_t i = 0; i < runs->len; i++) {
    HlRun *r = &runs->items[i];
    eddi_free(r->path);
    eddi_hashline_section_free(&r->parsed);
    eddi_strbuf_free(&r->result);
    array_free(&r->changed);
  }
  array_free(runs);
}

/* Split the input into sections and parse each body. */
static int hashline__split(const char *input, size_t len, HlRunList *runs, EddiEditReport *report,
                           EddiError *err) {
  EddiLineList lines = {0};
  eddi_lines_split(input, len, &lines, NULL);
  int rc = 0;
  Array(size_t) starts = {0}; /* line index of each header */
  for (size_t i = 0; i < lines.len; i++) {
    HlRun run;
    if (hashline__section_header(lines.items[i].bytes, lines.items[i].len, &run)) {
      run.header_line = i + 1;
      array_push(runs, run);
      array_push(&starts, i);
    }
  }
  size_t before = starts.len ? starts.items[0] : lines.len;
  for (size_t i = 0; i < before && rc == 0; i++) {
    EddiLine l = lines.items[i];
    while (l.len && (l.bytes[l.len - 1] == ' ' || l.bytes[l.len - 1] == '\r')) l.len--;
    if (!l.len || (l.len >= 3 && memcmp(l.bytes, "```", 3) == 0) ||
        (l.len >= 4 && memcmp(l.bytes, "*** ", 4) == 0 && memmem(l.bytes, l.len, "Patch", 5)))
      continue;
    rc = eddi_error_set(err, EDDI_EINVAL,
                        "line %zu: operations before any [PATH#TAG] section header", i + 1);
    eddi_error_hint(err, "Start each file's operations with the header Read printed, e.g. "
                         "[src/app.py#1A2B]");
  }
  if (rc == 0 && !runs->len) {
    rc = eddi_error_set(err, EDDI_EINVAL, "Edit has no [PATH#TAG] section");
    eddi_error_hint(err, "Read the file first; its header line is [PATH#TAG]");
  }
  for (size_t s = 0; s < runs->len && rc == 0; s++) {
    size_t from = starts.items[s] + 1;
    size_t to = s + 1 < starts.len ? starts.items[s + 1] : lines.len;
    const char *body = from < lines.len ? lines.items[from].bytes : input + len;
    const char *body_end = to < lines.len ? lines.items[to].bytes : input + len;
    rc = eddi_hashline_parse(body, (size_t)(body_end - body), from, &runs->items[s].parsed,
                             report, err);
    if (rc == 0 && !runs->items[s].parsed.ops.len && !runs->items[s].parsed.rem &&
        !runs->items[s].parsed.move_to) {
      rc = eddi_error_set(err, EDDI_EINVAL, "Section [%s] (line %zu) has no operations",
                          runs->items[s].path, runs->items[s].header_line);
      eddi_error_hint(err, "Follow it with PUT N.=M: and +TEXT rows, CUT N.=M, REM or MV");
    }
  }
  array_free(&starts);
  array_free(&lines);
  return rc;
}

/* ---------------------------------------------------------------- tags and rebase */

/* The snapshot lines (1-based) an op depends on; head and tail inserts
 * depend on none. */
typedef Array(size_t) SizeList;

static void hashline__anchors(const HlOp *op, const EddiLineList *lines, const char *path,
                              SizeList *out) {
  switch (op->loc) {
  case HL_LOC_RANGE:
    for (size_t l = op->first; l <= op->last; l++) array_push(out, l);
    break;
  case HL_LOC_BLOCK:
  case HL_LOC_AFTER_BLOCK: {
    size_t first = op->first - 1, last = op->first - 1;
    if (op->first <= lines->len) eddi_hashline_block(lines, op->first - 1, path, &first, &last);
    for (size_t l = first + 1; l <= last + 1; l++) array_push(out, l);
    break;
  }
  case HL_LOC_BEFORE:
    if (op->first > 1) array_push(out, op->first);
    break;
  case HL_LOC_AFTER:
    if (!op->at_end) array_push(out, op->first);
    break;
  }
}

/* Fail with the file's fresh tag and the lines now around line (0-based,
 * in new_lines). */
static int hashline__refuse(EddiError *err, const char *path, const char *new_tag,
                            const EddiLineList *new_lines, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static int hashline__refuse(EddiError *err, const char *path, const char *new_tag,
                            const EddiLineList *new_lines, size_t line, const char *fmt, ...) {
  char what[EDDI_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  eddi_error_set(err, EDDI_ESTALE, "%s", what);
  size_t from = line > 0 ? line - 1 : 0;
  from = EDDI_MIN(from, new_lines->len ? new_lines->len - 1 : 0);
  size_t count = EDDI_MIN((size_t)HASHLINE_HINT_ROWS, new_lines->len - from);
  StrBuf rows = {0}, escaped = {0};
  eddi_strbuf_printf(&rows, "[%s#%s]\n", path, new_tag);
  if (new_lines->len) eddi_lines_format(new_lines, from, count, EDDI_HINT_LINE_WIDTH, &rows);
  eddi_strbuf_escape(&escaped, rows.data, rows.len - 1, false);
  eddi_error_hint(err, "Nothing was written. Re-read lines %zu-%zu; now: %s", from + 1,
                  from + count, escaped.data);
  eddi_strbuf_free(&rows);
  eddi_strbuf_free(&escaped);
  return EDDI_ESTALE;
}

/* Remap section's line numbers from the snapshot text onto the current
 * text, or refuse. */
static int hashline__rebase(HlRun *run, const EddiSnapshot *snap, const char *text, size_t len,
                            const char *now_tag, EddiEditReport *report, EddiError *err) {
  HlSection *sec = &run->parsed;
  bool head_tail = sec->ops.len > 0;
  for (size_t i = 0; i < sec->ops.len; i++) {
    const HlOp *op = &sec->ops.items[i];
    head_tail &= (op->loc == HL_LOC_BEFORE && op->first == 1) ||
                 (op->loc == HL_LOC_AFTER && op->at_end);
  }
  if (head_tail) {
    eddi_edit_report_warn(report, "Applied the `PUT <1:`/`PUT >$:` edit despite a stale snapshot "
                                  "tag: %s changed since #%s (now #%s).",
                          run->file->rel, snap->tag, now_tag);
    return 0;
  }
  EddiLineList old_lines = {0}, new_lines = {0};
  eddi_lines_split(snap->text, snap->len, &old_lines, NULL);
  eddi_lines_split(text, len, &new_lines, NULL);
  size_t *map = eddi_malloc((old_lines.len + 1) * sizeof *map);
  int rc = 0;
  if (!eddi_hashline_line_map(&old_lines, &new_lines, map)) {
    rc = hashline__refuse(err, run->file->rel, now_tag, &new_lines, 0,
                          "%s changed too much since tag #%s to rebase the edit", run->file->rel,
                          snap->tag);
  }
  long shift = 0;
  bool moved = false;
  for (size_t i = 0; i < sec->ops.len && rc == 0; i++) {
    HlOp *op = &sec->ops.items[i];
    SizeList anchors = {0};
    hashline__anchors(op, &old_lines, run->file->rel, &anchors);
    for (size_t k = 0; k < anchors.len && rc == 0; k++) {
      size_t l = anchors.items[k] - 1;
      if (l >= old_lines.len) {
        rc = hashline__refuse(err, run->file->rel, now_tag, &new_lines, 0,
                              "line %zu: the snapshot #%s has only %zu lines", op->line_no,
                              snap->tag, old_lines.len);
        break;
      }
      size_t m = map[l];
      bool neighbour = old_lines.len == 1 ||
                       (l > 0 && map[l - 1] != SIZE_MAX && map[l - 1] + 1 == m) ||
                       (l + 1 < old_lines.len && map[l + 1] != SIZE_MAX && map[l + 1] == m + 1);
      if (m == SIZE_MAX) {
        /* Show where the line was: after the nearest line above that survived. */
        size_t near = 0;
        for (size_t j = l; j-- > 0;)
          if (map[j] != SIZE_MAX) {
            near = map[j] + 1;
            break;
          }
        rc = hashline__refuse(
            err, run->file->rel, now_tag, &new_lines, near,
            "%s changed since tag #%s and line %zu it anchors on is gone or changed",
            run->file->rel, snap->tag, l + 1);
      } else if (!neighbour) {
        rc = hashline__refuse(err, run->file->rel, now_tag, &new_lines, m,
                              "%s changed since tag #%s and line %zu moved without its neighbours",
                              run->file->rel, snap->tag, l + 1);
      }
    }
    if (rc == 0 && anchors.len) {
      size_t a = anchors.items[0] - 1, b = anchors.items[anchors.len - 1] - 1;
      if (map[b] - map[a] != b - a) {
        rc = hashline__refuse(err, run->file->rel, now_tag, &new_lines, map[a],
                              "%s changed since tag #%s inside lines %zu-%zu", run->file->rel,
                              snap->tag, a + 1, b + 1);
      }
    }
    if (rc == 0) {
      size_t first = op->first, last = op->last;
      if (op->loc == HL_LOC_AFTER && op->at_end) {
        /* the tail stays the tail */
      } else if (op->loc == HL_LOC_BEFORE && op->first == 1) {
        /* the head stays the head */
      } else {
        long d = (long)map[first - 1] - (long)(first - 1);
        if (d) moved = true, shift = d;
        op->first = map[first - 1] + 1;
        op->last = op->loc == HL_LOC_RANGE ? map[last - 1] + 1 : op->first;
      }
    }
    array_free(&anchors);
  }
  if (rc == 0)
    eddi_edit_report_warn(report, "%s changed since tag #%s; every anchored line survived, so "
                                  "the edit was rebased onto the current file (#%s)%s%+ld%s.",
                          run->file->rel, snap->tag, now_tag, moved ? ", lines moved by " : "",
                          moved ? shift : 0L, moved ? "" : "");
  eddi_free(map);
  array_free(&old_lines);
  array_free(&new_lines);
  return rc;
}

/* The optional rule that an edit anchors only on lines a Read or Grep showed. */
static int hashline__check_seen(HlRun *run, const EddiSnapshot *snap, EddiError *err) {
  if (!snap->seen) return 0;
  EddiLineList lines = {0};
  eddi_lines_split(snap->text, snap->len, &lines, NULL);
  StrBuf unseen = {0};
  size_t count = 0;
  for (size_t i = 0; i < run->parsed.ops.len; i++) {
    SizeList anchors = {0};
    hashline__anchors(&run->parsed.ops.items[i], &lines, run->file->rel, &anchors);
    for (size_t k = 0; k < anchors.len; k++) {
      size_t l = anchors.items[k];
      if (l <= snap->seen_len && snap->seen[l - 1]) continue;
      if (count++ < 8) eddi_strbuf_printf(&unseen, "%s%zu", count > 1 ? ", " : "", l);
    }
    array_free(&anchors);
  }
  int rc = 0;
  if (count) {
    rc = eddi_error_set(err, EDDI_ESTATE, "The edit of %s anchors to lines %s that no Read or "
                                          "Grep showed", run->file->rel, unseen.data);
    eddi_error_hint(err, "Read %s around those lines first", run->file->rel);
  }
  eddi_strbuf_free(&unseen);
  array_free(&lines);
  return rc;
}

static const char *hashline__basename(const char *path) { return eddi_path_basename(path); }

/* Find the file a section means and check its tag. Sets run->file and
 * rebases run->parsed when the tag is stale. */
static int hashline__resolve(EddiEditTxn *txn, EddiEditState *state, HlRun *run,
                             EddiEditReport *report, EddiError *err) {
  if (!run->has_tag) {
    eddi_error_set(err, EDDI_EINVAL, "Section [%s] (line %zu) has no snapshot tag", run->path,
                   run->header_line);
    eddi_error_hint(err, "Every section needs the tag Read printed: [%s#XXXX]", run->path);
    return EDDI_EINVAL;
  }
  int rc = eddi_edit_txn_file(txn, run->path, &run->file, err);
  if (rc < 0) return rc;
  EddiEditFile *file = run->file;
  if (file->is_dir) return eddi_error_set(err, EDDI_EINVAL, "Is a directory: %s", file->rel);
  char now[5] = "";
  if (file->exists) eddi_hashline_tag(file->text.data ? file->text.data : "", file->text.len, now);
  const EddiSnapshot *snap = eddi_snapshot_find(state, file->rel, run->tag);
  if (!(file->exists && strcmp(now, run->tag) == 0) && !snap) {
    /* A bare file name whose tag names a file read elsewhere in the tree. */
    const EddiSnapshot *other = eddi_snapshot_find(state, NULL, run->tag);
    if (other && strcmp(hashline__basename(other->path), hashline__basename(file->rel)) == 0 &&
        strcmp(other->path, file->rel) != 0) {
      eddi_edit_report_warn(report, "[%s#%s] matched its filename and snapshot tag: edited %s.",
                            run->path, run->tag, other->path);
      rc = eddi_edit_txn_file(txn, other->path, &run->file, err);
      if (rc < 0) return rc;
      file = run->file;
      if (file->exists)
        eddi_hashline_tag(file->text.data ? file->text.data : "", file->text.len, now);
      snap = other;
    }
  }
  if (!file->exists) {
    eddi_error_set(err, EDDI_ENOENT, "File not found: %s", file->rel);
    eddi_error_hint(err, "Edit changes existing files; create new ones with Update %s or Patch "
                         "*** Add File: %s",
                    file->rel, file->rel);
    return EDDI_ENOENT;
  }
  if (strcmp(now, run->tag) == 0) {
    if (snap && state && state->enforce_seen_lines) return hashline__check_seen(run, snap, err);
    return 0;
  }
  if (!snap) {
    eddi_error_set(err, EDDI_ESTALE, "Tag #%s for %s is not from this session, nor the file's "
                                     "content now (#%s)",
                   run->tag, file->rel, now);
    eddi_error_hint(err, "Read %s again and use the tag it prints; nothing was written",
                    file->rel);
    return EDDI_ESTALE;
  }
  if (state && state->enforce_seen_lines) {
    rc = hashline__check_seen(run, snap, err);
    if (rc < 0) return rc;
  }
  return hashline__rebase(run, snap, file->text.data ? file->text.data : "", file->text.len, now,
                          report, err);
}

static void hashline__copy_registers(const EddiRegisterList *from, EddiRegisterList *to) {
  for (size_t i = 0; i < from->len; i++)
    eddi_register_set(to, from->items[i].name, from->items[i].text, from->items[i].len);
}

int eddi_edit_hashline(EddiWorkspace *workspace, EddiSession *session, const char *input, size_t len,
                       EddiEditReport *report, EddiError *err) {
  HlRunList runs = {0};
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, workspace, session);
  EddiEditState *state = eddi_edit_state_of(session);
  EddiRegisterList registers = {0};
  if (state) hashline__copy_registers(&state->registers, &registers);
  int rc = hashline__split(input, len, &runs, report, err);
  for (size_t i = 0; i < runs.len && rc == 0; i++) {
    HlRun *run = &runs.items[i];
    rc = hashline__resolve(&txn, state, run, report, err);
    for (size_t k = 0; k < i && rc == 0; k++) {
      if (runs.items[k].file != run->file) continue;
      rc = eddi_error_set(err, EDDI_EINVAL, "Multiple hashline sections resolve to the same file: "
                                            "%s (lines %zu and %zu)",
                          run->file->rel, runs.items[k].header_line, run->header_line);
      eddi_error_hint(err, "Put all of a file's operations in one section");
    }
    if (rc < 0) break;
    EddiEditFile *file = run->file;
    if (run->parsed.rem) {
      eddi_edit_file_delete(file);
      continue;
    }
    rc = eddi_hashline_apply(&run->parsed, file->rel, file->text.data ? file->text.data : "",
                             file->text.len, &registers, &run->result, &run->changed, err);
    if (rc < 0) {
      char what[EDDI_ERROR_MAX], hint[EDDI_ERROR_MAX];
      snprintf(what, sizeof what, "%s", err->what);
      snprintf(hint, sizeof hint, "%s", err->hint);
      eddi_error_set(err, rc, "%s: %s", file->rel, what);
      if (hint[0]) eddi_error_hint(err, "%s", hint);
      break;
    }
    run->no_change = run->result.len == file->text.len &&
                     memcmp(run->result.data, file->text.data ? file->text.data : "",
                            file->text.len) == 0;
    if (run->parsed.move_to) {
      rc = eddi_edit_txn_file(&txn, run->parsed.move_to, &run->dest, err);
      if (rc == 0 && run->dest->is_dir)
        rc = eddi_error_set(err, EDDI_EINVAL, "MV %s: it is a directory", run->parsed.move_to);
      if (rc < 0) break;
      if (run->dest != file) {
        eddi_edit_file_delete(file);
        eddi_edit_file_write(run->dest, run->result.data, run->result.len);
        run->no_change = false;
        continue;
      }
    }
    if (!run->no_change) eddi_edit_file_write(file, run->result.data, run->result.len);
  }
  size_t no_change = 0;
  for (size_t i = 0; i < runs.len && rc == 0; i++)
    if (runs.items[i].no_change && !runs.items[i].parsed.rem) no_change++;
  if (rc == 0 && no_change && runs.len > 1) {
    for (size_t i = 0; i < runs.len; i++) {
      if (!runs.items[i].no_change) continue;
      rc = eddi_error_set(err, EDDI_EINVAL,
                          "Section [%s] parsed and applied cleanly, but produced no change",
                          runs.items[i].file->rel);
      eddi_error_hint(err, "Its rows already equal the file; drop that section or fix its "
                           "ranges. Nothing was written");
      break;
    }
  }
  if (rc == 0 && no_change == runs.len) {
    report->no_change = true;
    for (size_t i = 0; i < runs.len; i++) {
      HlRun *run = &runs.items[i];
      char tag[5];
      eddi_hashline_tag(run->result.data, run->result.len, tag);
      eddi_strbuf_printf(&report->report, "[%s#%s]\n", run->file->rel, tag);
    }
  } else if (rc == 0) {
    rc = eddi_edit_txn_commit(&txn, report, err);
    if (rc == 0) eddi_txn_history_note(&txn);
    for (size_t i = 0; i < runs.len && rc == 0; i++) {
      HlRun *run = &runs.items[i];
      report->files++;
      if (run->parsed.rem) {
        eddi_strbuf_printf(&report->report, "D %s\n", run->file->rel);
        continue;
      }
      EddiEditFile *target = run->dest ? run->dest : run->file;
      if (run->dest && run->dest != run->file)
        eddi_strbuf_printf(&report->report, "Moved %s to %s\n", run->file->rel, run->dest->rel);
      eddi_edit_report_written(report, session, target->rel, run->result.data, run->result.len,
                               &run->changed);
    }
    if (rc == 0 && state) {
      eddi_registers_free(&state->registers);
      state->registers = registers;
      memset(&registers, 0, sizeof registers);
    }
  }
  eddi_registers_free(&registers);
  hashline__runs_free(&runs);
  eddi_edit_txn_free(&txn);
  return rc;
}
