/* hashline.c - the hashline edit language (oh-my-pi / omp-edit); see hashline.h.
 *
 * A model names lines by number in a tagged snapshot instead of retyping
 * them. That makes two things essential, and they shape this file:
 *
 * - The tag. An edit against tag T is applied directly only when the file's
 *   content still hashes to T. When the file moved on since T was shown (a
 *   formatter, the user, another tool), the snapshot recorded under T is
 *   diffed against the file, and the edit is remapped only if every line it
 *   anchors on survived, unchanged, beside a neighbour that moved by the same
 *   offset. Anything less is refused with the file's fresh tag and lines.
 *
 * - The parser's leniency (hashline_parse.c): a mistake with one safe
 *   reading is accepted with a warning, one with two readings is refused.
 *
 * This file finds blocks, applies a parsed section, and maps the lines of a
 * snapshot onto the file as it is now.
 */
#include "edit/hashline.h"

#include "core/document.h"
#include "core/path.h"
#include "syntax/syntax.h"

/* Columns a tab advances to (the next multiple of), for indentation. */
#define HASHLINE_TAB_WIDTH 4
/* Markdown's heading levels: # to ######. */
#define MARKDOWN_HEADING_LEVELS 6
/* Lines a block's opener may take before its bracket opens: a signature
 * wrapped over a few lines, not a whole statement. */
#define HASHLINE_SIGNATURE_LINES 8
/* FNV-1a, 64 bits: the hash of a line for the line diff. */
#define FNV1A_OFFSET 1469598103934665603ull
#define FNV1A_PRIME 1099511628211ull

/* ---------------------------------------------------------------- blocks */

static size_t hashline__indent(const EddiLine *line) {
  size_t cols = 0;
  for (size_t i = 0; i < line->len; i++) {
    if (line->bytes[i] == ' ') cols++;
    else if (line->bytes[i] == '\t') cols = (cols / HASHLINE_TAB_WIDTH + 1) * HASHLINE_TAB_WIDTH;
    else return cols;
  }
  return SIZE_MAX; /* blank */
}

static bool hashline__is_decorator(const EddiLine *line) {
  size_t i = 0;
  while (i < line->len && (line->bytes[i] == ' ' || line->bytes[i] == '\t')) i++;
  return i < line->len && line->bytes[i] == '@';
}

static size_t hashline__heading(const EddiLine *line) {
  size_t level = 0;
  while (level < line->len && line->bytes[level] == '#') level++;
  return level && level <= MARKDOWN_HEADING_LEVELS && level < line->len && line->bytes[level] == ' '
             ? level
             : 0;
}

/* Bracket depth change over a line, skipping strings and // or # comments. */
static long hashline__depth(const EddiLine *line, bool *opened) {
  long depth = 0;
  char quote = 0;
  for (size_t i = 0; i < line->len; i++) {
    char c = line->bytes[i];
    if (quote) {
      if (c == '\\') i++;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'' || c == '`') quote = c;
    else if (c == '/' && i + 1 < line->len && line->bytes[i + 1] == '/') break;
    else if (c == '(' || c == '[' || c == '{') depth++, *opened = true;
    else if (c == ')' || c == ']' || c == '}') depth--;
  }
  return depth;
}

/* The block opened on line `opener` (0-based) from the parse tree, when the
 * file has a grammar: the largest element starting on that line. False when
 * there is none (plain text, or the line opens no element). */
static bool hashline__syntax_block(const EddiLineList *lines, size_t opener, const char *path,
                                   size_t *last) {
  if (!path || !eddi_lang_detect(path, lines->len ? lines->items[0].bytes : "",
                                 lines->len ? lines->items[0].len : 0))
    return false;
  StrBuf text = {0};
  size_t opener_start = 0;
  for (size_t i = 0; i < lines->len; i++) {
    if (i == opener) opener_start = text.len;
    eddi_strbuf_append(&text, lines->items[i].bytes, lines->items[i].len);
    eddi_strbuf_putc(&text, '\n');
  }
  size_t opener_end = opener_start + lines->items[opener].len;
  /* A document without a backend: only its text and tree are used. */
  EddiDoc *doc = eddi_doc_new(path, NULL, text.data ? text.data : "", text.len, false, 1);
  EddiSyntax *syntax = NULL;
  EddiError ignored;
  bool found = false;
  size_t end = 0;
  if (eddi_syntax_get(doc, EDDI_SYNTAX_MAX_BYTES_DEFAULT, &syntax, &ignored) == 0 && syntax->lang) {
    for (size_t i = 0; i < syntax->elements.len; i++) {
      const EddiElement *e = &syntax->elements.items[i];
      if (e->start < opener_start || e->start > opener_end || e->end <= opener_end) continue;
      if (!found || e->end > end) end = e->end, found = true;
    }
  }
  if (found) *last = eddi_text_line_at(&doc->text, end - 1);
  eddi_doc_free(doc);
  eddi_strbuf_free(&text);
  return found;
}

void eddi_hashline_block(const EddiLineList *lines, size_t start, const char *path,
                         size_t *first, size_t *last) {
  size_t n = lines->len;
  *first = *last = start;
  if (start >= n) return;
  /* Decorators belong to what they decorate, above or below N. */
  size_t opener = start;
  while (opener + 1 < n && hashline__is_decorator(&lines->items[opener])) opener++;
  size_t top = opener;
  while (top > 0 && hashline__is_decorator(&lines->items[top - 1])) top--;
  *first = top;
  *last = opener;
  const char *dot = path ? strrchr(path, '.') : NULL;
  size_t level = hashline__heading(&lines->items[opener]);
  if (level && dot && (!strcmp(dot, ".md") || !strcmp(dot, ".markdown"))) {
    size_t i = opener + 1;
    while (i < n) {
      size_t l = hashline__heading(&lines->items[i]);
      if (l && l <= level) break;
      i++;
    }
    while (i > opener + 1 && hashline__indent(&lines->items[i - 1]) == SIZE_MAX) i--;
    *last = i - 1;
    return;
  }
  /* The parse tree knows best; brackets and indentation are the fallback. */
  if (hashline__syntax_block(lines, opener, path, last)) return;
  /* Brackets: the opener (or the few lines of its signature) opens more
   * than it closes; the block ends where the depth comes back to zero. */
  long depth = 0;
  bool opened = false;
  size_t i = opener;
  for (; i < n && i < opener + HASHLINE_SIGNATURE_LINES; i++) {
    depth += hashline__depth(&lines->items[i], &opened);
    if (depth <= 0 && opened) break;
    if (depth > 0) break;
    EddiLine *l = &lines->items[i];
    size_t end = l->len;
    while (end && (l->bytes[end - 1] == ' ' || l->bytes[end - 1] == '\t')) end--;
    if (end && (l->bytes[end - 1] == ':' || l->bytes[end - 1] == ';')) break;
    /* A '{' alone on the next line (Allman style) still opens this block. */
    if (i + 1 < n) {
      EddiLine *next = &lines->items[i + 1];
      size_t k = 0;
      while (k < next->len && (next->bytes[k] == ' ' || next->bytes[k] == '\t')) k++;
      if (!(k < next->len && next->bytes[k] == '{')) break;
    }
  }
  if (depth > 0) {
    for (i++; i < n; i++) {
      depth += hashline__depth(&lines->items[i], &opened);
      if (depth <= 0) break;
    }
    *last = EDDI_MIN(i, n - 1);
    return;
  }
  /* Indentation: the lines after the opener indented deeper than it. */
  size_t base = hashline__indent(&lines->items[opener]);
  if (base == SIZE_MAX) return;
  size_t end = opener;
  for (size_t k = opener + 1; k < n; k++) {
    size_t ind = hashline__indent(&lines->items[k]);
    if (ind == SIZE_MAX) continue;
    if (ind <= base) break;
    end = k;
  }
  *last = end;
}

/* ---------------------------------------------------------------- applying */

static int hashline__check_line(size_t line, size_t count, size_t line_no, EddiError *err) {
  if (line >= 1 && line <= count) return 0;
  eddi_error_set(err, EDDI_EINVAL, "line %zu: line %zu is past the end of the file (%zu lines)",
                 line_no, line, count);
  eddi_error_hint(err, "Re-read the file; lines are numbered 1 to %zu", count);
  return EDDI_EINVAL;
}

int eddi_hashline_apply(const HlSection *section, const char *path, const char *text,
                        size_t len, EddiRegisterList *registers, StrBuf *out,
                        EddiChangedList *changed, EddiError *err) {
  EddiLineList lines = {0};
  bool final_newline;
  eddi_lines_split(text, len, &lines, &final_newline);
  if (len == 0) final_newline = true;
  EddiSpliceList splices = {0};
  size_t count = lines.len;
  int rc = 0;
  for (size_t i = 0; i < section->ops.len && rc == 0; i++) {
    const HlOp *op = &section->ops.items[i];
    size_t start = 0, span = 0; /* splice: file lines [start, start+span) */
    switch (op->loc) {
    case HL_LOC_RANGE:
      rc = hashline__check_line(op->first, count, op->line_no, err);
      if (rc == 0) rc = hashline__check_line(op->last, count, op->line_no, err);
      start = op->first - 1, span = op->last - op->first + 1;
      break;
    case HL_LOC_BLOCK:
    case HL_LOC_AFTER_BLOCK: {
      rc = hashline__check_line(op->first, count, op->line_no, err);
      if (rc < 0) break;
      size_t first, last;
      eddi_hashline_block(&lines, op->first - 1, path, &first, &last);
      if (op->loc == HL_LOC_BLOCK) start = first, span = last - first + 1;
      else start = last + 1, span = 0;
      break;
    }
    case HL_LOC_BEFORE:
      if (op->first != 1 || count) rc = hashline__check_line(op->first, count, op->line_no, err);
      start = op->first - 1;
      break;
    case HL_LOC_AFTER:
      if (!op->at_end) rc = hashline__check_line(op->first, count, op->line_no, err);
      start = op->at_end ? count : op->first;
      break;
    }
    if (rc < 0) break;
    StrBuf body = {0};
    eddi_strbuf_puts(&body, "");
    if (op->cut) {
      if (registers) {
        StrBuf captured = {0};
        for (size_t k = start; k < start + span; k++) {
          eddi_strbuf_append(&captured, lines.items[k].bytes, lines.items[k].len);
          eddi_strbuf_putc(&captured, '\n');
        }
        eddi_register_set(registers, op->reg ? op->reg : "", captured.data ? captured.data : "",
                          captured.len);
        eddi_strbuf_free(&captured);
      }
    } else if (op->paste) {
      const EddiRegister *reg = registers ? eddi_register_get(registers, op->reg ? op->reg : "")
                                          : NULL;
      if (!reg) {
        if (op->reg) rc = eddi_error_set(err, EDDI_ENOENT, "line %zu: register @%s is empty",
                                         op->line_no, op->reg);
        else rc = eddi_error_set(err, EDDI_ENOENT, "line %zu: the anonymous register is empty",
                                 op->line_no);
        eddi_error_hint(err, "CUT lines first (`CUT N.=M @name`), or add `:` and `+TEXT` rows "
                             "to write literal content");
        eddi_strbuf_free(&body);
        break;
      }
      eddi_strbuf_append(&body, reg->text, reg->len);
    } else {
      eddi_strbuf_append(&body, op->body.data, op->body.len);
    }
    eddi_splices_add(&splices, start, span, &body);
  }
  if (rc == 0) {
    rc = eddi_splices_apply(&splices, &lines, final_newline, out, changed, err);
    if (rc < 0) eddi_error_hint(err, "Overlapping ranges are refused; issue one hunk per range");
  }
  eddi_splices_free(&splices);
  array_free(&lines);
  return rc;
}

/* ---------------------------------------------------------------- line map */

/* Cost bound of the line diff behind a rebase. */
#define HASHLINE_MAP_MAX_COST 1000

static uint64_t hashline__hash(const EddiLine *line) {
  uint64_t h = FNV1A_OFFSET;
  for (size_t i = 0; i < line->len; i++) h = (h ^ (unsigned char)line->bytes[i]) * FNV1A_PRIME;
  return h;
}

bool eddi_hashline_line_map(const EddiLineList *old_lines, const EddiLineList *new_lines,
                            size_t *map) {
  size_t n = old_lines->len, m = new_lines->len;
  for (size_t i = 0; i < n; i++) map[i] = SIZE_MAX;
  size_t head = 0, tail = 0;
  while (head < n && head < m && old_lines->items[head].len == new_lines->items[head].len &&
         memcmp(old_lines->items[head].bytes, new_lines->items[head].bytes,
                old_lines->items[head].len) == 0)
    map[head] = head, head++;
  while (tail < n - head && tail < m - head) {
    const EddiLine *a = &old_lines->items[n - 1 - tail], *b = &new_lines->items[m - 1 - tail];
    if (a->len != b->len || memcmp(a->bytes, b->bytes, a->len) != 0) break;
    map[n - 1 - tail] = m - 1 - tail;
    tail++;
  }
  /* Myers' greedy diff over the middle, keeping each round's V for the walk back. */
  size_t an = n - head - tail, bn = m - head - tail;
  if (an == 0 || bn == 0) return true;
  uint64_t *ah = eddi_malloc(an * sizeof *ah), *bh = eddi_malloc(bn * sizeof *bh);
  for (size_t i = 0; i < an; i++) ah[i] = hashline__hash(&old_lines->items[head + i]);
  for (size_t i = 0; i < bn; i++) bh[i] = hashline__hash(&new_lines->items[head + i]);
  long N = (long)an, M = (long)bn, max = EDDI_MIN(N + M, (long)HASHLINE_MAP_MAX_COST);
  long width = 2 * max + 1;
  long *v = eddi_calloc((size_t)width, sizeof *v);
  Array(long *) trace = {0};
  long found = -1;
  for (long d = 0; d <= max && found < 0; d++) {
    long *copy = eddi_malloc((size_t)width * sizeof *copy);
    memcpy(copy, v, (size_t)width * sizeof *copy);
    array_push(&trace, copy);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? v[k + 1 + max]
                                                                         : v[k - 1 + max] + 1;
      long y = x - k;
      while (x < N && y < M && ah[x] == bh[y]) x++, y++;
      v[k + max] = x;
      if (x >= N && y >= M) {
        found = d;
        break;
      }
    }
  }
  bool ok = found >= 0;
  if (ok) {
    long x = N, y = M;
    for (long d = found; d > 0; d--) {
      long *pv = trace.items[d];
      long k = x - y;
      long prev_k = (k == -d || (k != d && pv[k - 1 + max] < pv[k + 1 + max])) ? k + 1 : k - 1;
      long prev_x = pv[prev_k + max], prev_y = prev_x - prev_k;
      while (x > prev_x && y > prev_y) {
        x--, y--;
        map[head + (size_t)x] = head + (size_t)y;
      }
      x = prev_x, y = prev_y;
    }
    while (x > 0 && y > 0) x--, y--, map[head + (size_t)x] = head + (size_t)y;
  }
  for (size_t i = 0; i < trace.len; i++) eddi_free(trace.items[i]);
  array_free(&trace);
  eddi_free(v);
  eddi_free(ah);
  eddi_free(bh);
  return ok;
}
