/* merge.c - see merge.h. Both sides' hunks against base are walked in
 * order of their base position; each is copied from its own side, and base
 * lines between them are copied from base. */
#include "core/merge.h"

#include "core/diff.h"

/* Byte offsets of each line start of text, plus the end: n lines give n + 1
 * entries, split as the diff splits them. */
typedef Array(size_t) LineStarts;

static void merge__line_starts(const char *text, size_t len, LineStarts *out) {
  array_push(out, (size_t)0);
  for (const char *at = text, *end = text + len; at < end;) {
    const char *newline = memchr(at, '\n', (size_t)(end - at));
    at = newline ? newline + 1 : end;
    array_push(out, (size_t)(at - text));
  }
}

/* Append lines [first, first + count) of text. */
static void merge__copy(StrBuf *out, const char *text, const LineStarts *starts, size_t first,
                        size_t count) {
  if (count == 0) return;
  size_t from = starts->items[first], to = starts->items[first + count];
  eddi_strbuf_append(out, text + from, to - from);
}

static bool merge__same_hunk(const EddiDiffHunk *x, const char *x_text, const LineStarts *xs,
                             const EddiDiffHunk *y, const char *y_text, const LineStarts *ys) {
  if (x->a_start != y->a_start || x->a_count != y->a_count || x->b_count != y->b_count)
    return false;
  size_t x_from = xs->items[x->b_start], x_to = xs->items[x->b_start + x->b_count];
  size_t y_from = ys->items[y->b_start], y_to = ys->items[y->b_start + y->b_count];
  return x_to - x_from == y_to - y_from && memcmp(x_text + x_from, y_text + y_from, x_to - x_from) == 0;
}

/* Whether two hunks of different sides cannot both apply. */
static bool merge__clash(const EddiDiffHunk *x, const EddiDiffHunk *y) {
  size_t x_end = x->a_start + x->a_count, y_end = y->a_start + y->a_count;
  if (x->a_start < y_end && y->a_start < x_end) return true; /* overlap */
  if (x->a_start == y->a_start) return true; /* same place: order unknown */
  if (x->a_count == 0 && y->a_start < x->a_start && x->a_start < y_end) return true;
  if (y->a_count == 0 && x->a_start < y->a_start && y->a_start < x_end) return true;
  return false;
}

int eddi_merge3(const char *base, size_t base_len, const char *ours, size_t ours_len,
                const char *theirs, size_t theirs_len, StrBuf *out, EddiMergeReport *report) {
  memset(report, 0, sizeof *report);
  EddiDiffHunks mine = {0}, other = {0};
  eddi_diff_hunks(base, base_len, ours, ours_len, &mine);
  eddi_diff_hunks(base, base_len, theirs, theirs_len, &other);
  LineStarts base_lines = {0}, our_lines = {0}, their_lines = {0};
  merge__line_starts(base, base_len, &base_lines);
  merge__line_starts(ours, ours_len, &our_lines);
  merge__line_starts(theirs, theirs_len, &their_lines);

  int rc = 0;
  size_t i = 0, j = 0, base_at = 0;
  while (rc == 0 && (i < mine.len || j < other.len)) {
    const EddiDiffHunk *x = i < mine.len ? &mine.items[i] : NULL;
    const EddiDiffHunk *y = j < other.len ? &other.items[j] : NULL;
    if (x && y && merge__clash(x, y)) {
      if (!merge__same_hunk(x, ours, &our_lines, y, theirs, &their_lines)) {
        size_t first = EDDI_MIN(x->a_start, y->a_start);
        size_t last = EDDI_MAX(x->a_start + x->a_count, y->a_start + y->a_count);
        report->conflict_first = first + 1;
        report->conflict_last = last > first ? last : first + 1;
        rc = EDDI_ESTALE;
        break;
      }
      j++; /* the same change on both sides: take it once, as ours */
      continue;
    }
    bool take_mine = x && (!y || x->a_start < y->a_start);
    const EddiDiffHunk *h = take_mine ? x : y;
    merge__copy(out, base, &base_lines, base_at, h->a_start - base_at);
    if (take_mine) {
      merge__copy(out, ours, &our_lines, h->b_start, h->b_count);
      report->ours++, i++;
    } else {
      merge__copy(out, theirs, &their_lines, h->b_start, h->b_count);
      report->theirs++, j++;
    }
    base_at = h->a_start + h->a_count;
  }
  size_t base_count = base_lines.len - 1;
  if (rc == 0) merge__copy(out, base, &base_lines, base_at, base_count - base_at);
  else eddi_strbuf_clear(out);
  array_free(&mine), array_free(&other);
  array_free(&base_lines), array_free(&our_lines), array_free(&their_lines);
  return rc;
}
