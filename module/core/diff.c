/* diff.c - Myers line diff; see diff.h. */
#include "core/diff.h"

#include <xxhash.h>

typedef struct {
  const char *start;
  size_t len; /* with its '\n', if any */
  uint64_t hash;
} DiffLine;

typedef Array(DiffLine) DiffLines;

typedef enum { OP_EQUAL, OP_DELETE, OP_INSERT } DiffOpKind;

typedef struct {
  DiffOpKind kind;
  size_t a; /* line index in a (EQUAL, DELETE) */
  size_t b; /* line index in b (EQUAL, INSERT) */
} DiffOp;

typedef Array(DiffOp) DiffOps;

static void diff__split(const char *text, size_t len, DiffLines *out) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
    DiffLine line = {p, n, XXH3_64bits(p, n)};
    array_push(out, line);
    p += n;
  }
}

static bool diff__same(const DiffLine *x, const DiffLine *y) {
  return x->hash == y->hash && x->len == y->len && memcmp(x->start, y->start, x->len) == 0;
}

static void diff__push(DiffOps *ops, DiffOpKind kind, size_t a, size_t b) {
  DiffOp op = {kind, a, b};
  array_push(ops, op);
}

/* Myers over a[lo_a, lo_a+n) and b[lo_b, lo_b+m); ops appended in order.
 * Returns false when the cost bound was hit (ops untouched). */
static bool diff__myers(const DiffLine *a, size_t n, const DiffLine *b, size_t m,
                        size_t lo_a, size_t lo_b, DiffOps *ops) {
  long max = (long)EDDI_MIN(n + m, (size_t)EDDI_DIFF_MAX_COST);
  int32_t *v = eddi_calloc((size_t)(2 * max + 3), sizeof *v);
  int32_t *vk = v + max + 1; /* vk[k] for k in [-max-1, max+1] */
  Array(int32_t *) trace = {0};
  long found = -1;
  for (long d = 0; d <= max && found < 0; d++) {
    int32_t *saved = eddi_malloc((size_t)(2 * d + 3) * sizeof *saved);
    memcpy(saved, vk - d - 1, (size_t)(2 * d + 3) * sizeof *saved);
    array_push(&trace, saved);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && vk[k - 1] < vk[k + 1])) ? vk[k + 1] : vk[k - 1] + 1;
      long y = x - k;
      while (x < (long)n && y < (long)m && diff__same(&a[x], &b[y])) x++, y++;
      vk[k] = (int32_t)x;
      if (x >= (long)n && y >= (long)m) {
        found = d;
        break;
      }
    }
  }
  bool ok = found >= 0;
  if (ok) {
    DiffOps reversed = {0};
    long x = (long)n, y = (long)m;
    for (long d = found; d > 0; d--) {
      int32_t *prev = trace.items[d] + d + 1; /* V before step d, indexed by k */
      long k = x - y;
      long prev_k = (k == -d || (k != d && prev[k - 1] < prev[k + 1])) ? k + 1 : k - 1;
      long prev_x = prev[prev_k], prev_y = prev_x - prev_k;
      while (x > prev_x && y > prev_y) x--, y--, diff__push(&reversed, OP_EQUAL, lo_a + (size_t)x, lo_b + (size_t)y);
      if (x == prev_x) diff__push(&reversed, OP_INSERT, lo_a + (size_t)x, lo_b + (size_t)(y - 1));
      else diff__push(&reversed, OP_DELETE, lo_a + (size_t)(x - 1), lo_b + (size_t)y);
      x = prev_x, y = prev_y;
    }
    while (x > 0 && y > 0) x--, y--, diff__push(&reversed, OP_EQUAL, lo_a + (size_t)x, lo_b + (size_t)y);
    for (size_t i = reversed.len; i-- > 0;) array_push(ops, reversed.items[i]);
    array_free(&reversed);
  }
  for (size_t i = 0; i < trace.len; i++) eddi_free(trace.items[i]);
  array_free(&trace);
  eddi_free(v);
  return ok;
}

/* ---------------------------------------------------------------- unified */

static void diff__line(StrBuf *out, char sign, const DiffLine *line) {
  eddi_strbuf_putc(out, sign);
  eddi_strbuf_append(out, line->start, line->len);
  if (line->len == 0 || line->start[line->len - 1] != '\n')
    eddi_strbuf_puts(out, "\n\\ No newline at end of file\n");
}

static void diff__hunk_range(StrBuf *out, char sign, size_t first, size_t count) {
  eddi_strbuf_printf(out, "%c%zu", sign, count ? first + 1 : first);
  if (count != 1) eddi_strbuf_printf(out, ",%zu", count);
}

static void diff__unified(const DiffLines *a, const DiffLines *b, const DiffOps *ops,
                          const char *name, StrBuf *out) {
  bool header = false;
  size_t i = 0;
  while (i < ops->len) {
    while (i < ops->len && ops->items[i].kind == OP_EQUAL) i++;
    if (i == ops->len) break;
    /* A hunk: from context before the change to context after the last
     * change that is at most 2*CONTEXT equal lines from the next one. */
    size_t begin = i >= EDDI_DIFF_CONTEXT ? i - EDDI_DIFF_CONTEXT : 0;
    size_t end = i;
    for (;;) {
      while (end < ops->len && ops->items[end].kind != OP_EQUAL) end++;
      size_t run = end;
      while (run < ops->len && ops->items[run].kind == OP_EQUAL) run++;
      if (run < ops->len && run - end <= 2 * EDDI_DIFF_CONTEXT) {
        end = run;
        continue;
      }
      end = EDDI_MIN(end + EDDI_DIFF_CONTEXT, ops->len);
      break;
    }
    if (!header) {
      eddi_strbuf_printf(out, "--- a/%s\n+++ b/%s\n", name, name);
      header = true;
    }
    size_t a_first = ops->items[begin].a, b_first = ops->items[begin].b;
    size_t a_count = 0, b_count = 0;
    for (size_t k = begin; k < end; k++) {
      a_count += ops->items[k].kind != OP_INSERT;
      b_count += ops->items[k].kind != OP_DELETE;
    }
    eddi_strbuf_puts(out, "@@ ");
    diff__hunk_range(out, '-', a_first, a_count);
    eddi_strbuf_putc(out, ' ');
    diff__hunk_range(out, '+', b_first, b_count);
    eddi_strbuf_puts(out, " @@\n");
    for (size_t k = begin; k < end; k++) {
      const DiffOp *op = &ops->items[k];
      if (op->kind == OP_EQUAL) diff__line(out, ' ', &a->items[op->a]);
      else if (op->kind == OP_DELETE) diff__line(out, '-', &a->items[op->a]);
      else diff__line(out, '+', &b->items[op->b]);
    }
    i = end;
  }
}

/* The edit script from a to b: equal lines, deletions and insertions in
 * order. Trims the common prefix and suffix, then Myers on the middle. */
static void diff__ops(const DiffLines *a, const DiffLines *b, DiffOps *ops) {
  size_t prefix = 0;
  while (prefix < a->len && prefix < b->len && diff__same(&a->items[prefix], &b->items[prefix]))
    prefix++;
  size_t suffix = 0;
  while (suffix < a->len - prefix && suffix < b->len - prefix &&
         diff__same(&a->items[a->len - 1 - suffix], &b->items[b->len - 1 - suffix]))
    suffix++;
  size_t n = a->len - prefix - suffix, m = b->len - prefix - suffix;

  for (size_t i = 0; i < prefix; i++) diff__push(ops, OP_EQUAL, i, i);
  /* An empty side has no items to point into (NULL + 0 is undefined). */
  const DiffLine *a_mid = a->len ? a->items + prefix : NULL;
  const DiffLine *b_mid = b->len ? b->items + prefix : NULL;
  if (!diff__myers(a_mid, n, b_mid, m, prefix, prefix, ops)) {
    for (size_t i = 0; i < n; i++) diff__push(ops, OP_DELETE, prefix + i, prefix);
    for (size_t i = 0; i < m; i++) diff__push(ops, OP_INSERT, prefix + n, prefix + i);
  }
  for (size_t i = 0; i < suffix; i++)
    diff__push(ops, OP_EQUAL, prefix + n + i, prefix + m + i);
}

void eddi_diff(const char *a_text, size_t a_len, const char *b_text, size_t b_len,
               const char *name, EddiDiffStats *stats, StrBuf *unified) {
  DiffLines a = {0}, b = {0};
  diff__split(a_text, a_len, &a);
  diff__split(b_text, b_len, &b);
  DiffOps ops = {0};
  diff__ops(&a, &b, &ops);
  stats->added = stats->deleted = 0;
  for (size_t i = 0; i < ops.len; i++) {
    stats->added += ops.items[i].kind == OP_INSERT;
    stats->deleted += ops.items[i].kind == OP_DELETE;
  }
  if (unified) diff__unified(&a, &b, &ops, name, unified);
  array_free(&ops);
  array_free(&a);
  array_free(&b);
}

/* ---------------------------------------------------------------- hunks */

void eddi_diff_hunks(const char *a_text, size_t a_len, const char *b_text, size_t b_len,
                     EddiDiffHunks *out) {
  DiffLines a = {0}, b = {0};
  diff__split(a_text, a_len, &a);
  diff__split(b_text, b_len, &b);
  DiffOps ops = {0};
  diff__ops(&a, &b, &ops);
  array_clear(out);
  size_t a_at = 0, b_at = 0;
  for (size_t i = 0; i < ops.len;) {
    if (ops.items[i].kind == OP_EQUAL) {
      a_at++, b_at++, i++;
      continue;
    }
    EddiDiffHunk hunk = {a_at, 0, b_at, 0};
    for (; i < ops.len && ops.items[i].kind != OP_EQUAL; i++) {
      if (ops.items[i].kind == OP_DELETE) hunk.a_count++, a_at++;
      else hunk.b_count++, b_at++;
    }
    array_push(out, hunk);
  }
  array_free(&ops);
  array_free(&a);
  array_free(&b);
}
