/* matcher.c - tolerant block matching and line splices; see matcher.h. */
#include "edit/matcher.h"

#include "core/utf8.h"

/* Columns a tab advances to when indentation is compared or rebuilt. */
#define MATCH_TAB_WIDTH 4
/* Pattern lines looked at when searching for the nearest place. */
#define MATCH_NEAREST_LINES 200

/* ---------------------------------------------------------------- lines */

void eddi_lines_split(const char *text, size_t len, EddiLineList *out, bool *final_newline) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    array_push(out, ((EddiLine){p, n}));
    p += n + (nl != NULL);
  }
  if (final_newline) *final_newline = len > 0 && text[len - 1] == '\n';
}

size_t eddi_lines_count(const char *text, size_t len) {
  size_t lines = 0;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  return lines + (len && text[len - 1] != '\n');
}

static bool line__same(const EddiLine *a, const EddiLine *b) {
  return a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

static bool match__space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static size_t match__indent_len(const EddiLine *line) {
  size_t i = 0;
  while (i < line->len && (line->bytes[i] == ' ' || line->bytes[i] == '\t')) i++;
  return i;
}

static bool match__blank(const EddiLine *line) {
  for (size_t i = 0; i < line->len; i++)
    if (!match__space(line->bytes[i])) return false;
  return true;
}

static size_t match__columns(const char *bytes, size_t len) {
  size_t cols = 0;
  for (size_t i = 0; i < len; i++)
    cols = bytes[i] == '\t' ? (cols / MATCH_TAB_WIDTH + 1) * MATCH_TAB_WIDTH : cols + 1;
  return cols;
}

/* ---------------------------------------------------------------- hunks */

void eddi_hunk_from_blocks(EddiHunk *self, const EddiLineList *old_lines,
                           const EddiLineList *new_lines) {
  size_t n = old_lines->len, m = new_lines->len, head = 0, tail = 0;
  while (head < n && head < m && line__same(&old_lines->items[head], &new_lines->items[head]))
    head++;
  while (tail < n - head && tail < m - head &&
         line__same(&old_lines->items[n - 1 - tail], &new_lines->items[m - 1 - tail]))
    tail++;
  for (size_t i = 0; i < head; i++)
    array_push(self, ((EddiHunkLine){HUNK_CONTEXT, old_lines->items[i]}));
  for (size_t i = head; i < n - tail; i++)
    array_push(self, ((EddiHunkLine){HUNK_DELETE, old_lines->items[i]}));
  for (size_t i = head; i < m - tail; i++)
    array_push(self, ((EddiHunkLine){HUNK_ADD, new_lines->items[i]}));
  for (size_t i = n - tail; i < n; i++)
    array_push(self, ((EddiHunkLine){HUNK_CONTEXT, old_lines->items[i]}));
}

void eddi_hunk_old_side(const EddiHunk *self, EddiLineList *out) {
  for (size_t i = 0; i < self->len; i++)
    if (self->items[i].kind != HUNK_ADD) array_push(out, self->items[i].line);
}

/* ---------------------------------------------------------------- levels */

const char *eddi_match_level_name(EddiMatchLevel level) {
  static const char *const names[] = {"exact", "trailing whitespace", "indentation",
                                      "whitespace", "punctuation"};
  return level < MATCH_LEVELS ? names[level] : "?";
}

/* The ASCII stand-in of a Unicode space, quote or dash at p (its UTF-8 length
 * in *skip), or NULL when p holds none of them. */
static const char *match__punct(const unsigned char *p, size_t left, size_t *skip) {
  if (left >= 2 && p[0] == 0xC2 && p[1] == 0xA0) return *skip = 2, " ";
  if (left < 3) return NULL;
  *skip = 3;
  if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return " ";
  if (p[0] == 0xE2 && p[1] == 0x88 && p[2] == 0x92) return "-";
  if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return " ";
  if (p[0] != 0xE2 || p[1] != 0x80) return NULL;
  unsigned char c = p[2];
  if (c <= 0x8A || c == 0xAF) return " ";
  if (c >= 0x90 && c <= 0x95) return "-";
  if (c >= 0x98 && c <= 0x9B) return "'";
  if (c >= 0x9C && c <= 0x9F) return "\"";
  if (c == 0xB2) return "'";
  if (c == 0xB3) return "\"";
  if (c == 0xA6) return "...";
  return NULL;
}

/* The form of line compared at level, appended to out (levels from
 * COLLAPSED up; the lower ones are views, see match__view). */
static void match__normalize(const EddiLine *line, EddiMatchLevel level, StrBuf *out) {
  const unsigned char *p = (const unsigned char *)line->bytes;
  size_t len = line->len;
  bool pending_space = false, any = false;
  for (size_t i = 0; i < len;) {
    const char *ascii = NULL;
    size_t skip = 1;
    if (level >= MATCH_PUNCT && p[i] >= 0x80) ascii = match__punct(p + i, len - i, &skip);
    bool space = match__space((char)p[i]) || (ascii && ascii[0] == ' ');
    if (space) {
      pending_space = any;
    } else {
      if (pending_space) eddi_strbuf_putc(out, ' ');
      pending_space = false;
      any = true;
      if (ascii) eddi_strbuf_puts(out, ascii);
      else eddi_strbuf_append(out, (const char *)p + i, skip);
    }
    i += skip;
  }
}

/* Lines as compared at one level: views into the lines for the levels that
 * only trim, normalised copies for the others. */
typedef struct {
  EddiLineList lines;
  StrBuf store;
} MatchForms;

static void match__forms(MatchForms *self, const EddiLine *lines, size_t count,
                         EddiMatchLevel level) {
  array_clear(&self->lines);
  eddi_strbuf_clear(&self->store);
  Array(size_t) ends = {0};
  for (size_t i = 0; i < count; i++) {
    EddiLine view = lines[i];
    if (level == MATCH_EXACT) {
      /* as it is */
    } else if (level <= MATCH_INDENT) {
      while (view.len && match__space(view.bytes[view.len - 1])) view.len--;
      if (level == MATCH_INDENT) {
        size_t lead = match__indent_len(&view);
        view.bytes += lead, view.len -= lead;
      }
    } else {
      match__normalize(&lines[i], level, &self->store);
      array_push(&ends, self->store.len);
      continue;
    }
    array_push(&self->lines, view);
  }
  if (level >= MATCH_COLLAPSED) {
    /* Point into the store only once it stopped moving. */
    size_t start = 0;
    for (size_t i = 0; i < ends.len; i++) {
      array_push(&self->lines, ((EddiLine){self->store.data ? self->store.data + start : "",
                                           ends.items[i] - start}));
      start = ends.items[i];
    }
  }
  array_free(&ends);
}

static void match__forms_free(MatchForms *self) {
  array_free(&self->lines);
  eddi_strbuf_free(&self->store);
}

/* At the indentation level every non-blank pair must be shifted by the same
 * number of columns: a block quoted with its inner lines re-nested is not
 * the same block. */
static bool match__consistent_shift(const EddiLine *file, const EddiLine *pattern, size_t count) {
  bool have = false;
  long shift = 0;
  for (size_t k = 0; k < count; k++) {
    if (match__blank(&pattern[k]) || match__blank(&file[k])) continue;
    long f = (long)match__columns(file[k].bytes, match__indent_len(&file[k]));
    long p = (long)match__columns(pattern[k].bytes, match__indent_len(&pattern[k]));
    if (!have) shift = f - p, have = true;
    else if (f - p != shift) return false;
  }
  return true;
}

int eddi_match_find(const EddiLineList *file, size_t from, size_t to,
                    const EddiLineList *pattern, bool at_end, EddiMatch *out) {
  memset(out, 0, sizeof *out);
  size_t plen = pattern->len;
  to = EDDI_MIN(to, file->len);
  if (plen == 0 || from > to || to - from < plen) return EDDI_MATCH_NONE;
  size_t first = at_end ? to - plen : from, last = to - plen;
  MatchForms fforms = {0}, pforms = {0};
  int result = EDDI_MATCH_NONE;
  for (EddiMatchLevel level = MATCH_EXACT; level < MATCH_LEVELS; level++) {
    const EddiLine *f, *p;
    if (level == MATCH_EXACT) {
      f = file->items + first;
      p = pattern->items;
    } else {
      match__forms(&fforms, file->items + first, last + plen - first, level);
      match__forms(&pforms, pattern->items, plen, level);
      f = fforms.lines.items;
      p = pforms.lines.items;
    }
    size_t found = 0;
    for (size_t s = 0; s + first <= last; s++) {
      size_t k = 0;
      while (k < plen && line__same(&f[s + k], &p[k])) k++;
      if (k < plen) continue;
      if (level == MATCH_INDENT &&
          !match__consistent_shift(file->items + first + s, pattern->items, plen))
        continue;
      if (found < EDDI_MATCH_CANDIDATES_MAX) out->candidates[found] = first + s;
      found++;
    }
    if (found) {
      out->start = out->candidates[0];
      out->count = plen;
      out->level = level;
      out->candidate_count = found;
      result = found == 1 ? EDDI_MATCH_FOUND : EDDI_MATCH_AMBIGUOUS;
      break;
    }
  }
  match__forms_free(&fforms);
  match__forms_free(&pforms);
  return result;
}

bool eddi_match_nearest(const EddiLineList *file, const EddiLineList *pattern, size_t *start,
                        size_t *count) {
  size_t plen = EDDI_MIN(pattern->len, (size_t)MATCH_NEAREST_LINES);
  if (!plen || !file->len) return false;
  MatchForms fforms = {0}, pforms = {0};
  match__forms(&fforms, file->items, file->len, MATCH_PUNCT);
  match__forms(&pforms, pattern->items, plen, MATCH_PUNCT);
  /* Each equal non-blank pair votes for the start it implies. */
  size_t slots = file->len + plen;
  unsigned *votes = eddi_calloc(slots, sizeof *votes);
  for (size_t k = 0; k < plen; k++) {
    const EddiLine *p = &pforms.lines.items[k];
    if (!p->len) continue;
    for (size_t i = 0; i < file->len; i++)
      if (line__same(&fforms.lines.items[i], p)) votes[i + plen - k]++;
  }
  size_t best = 0;
  for (size_t v = 1; v < slots; v++)
    if (votes[v] > votes[best]) best = v;
  bool any = votes[best] > 0;
  if (any) {
    size_t s = best >= plen ? best - plen : 0;
    *start = EDDI_MIN(s, file->len - 1);
    *count = EDDI_MIN(pattern->len, file->len - *start);
  }
  eddi_free(votes);
  match__forms_free(&fforms);
  match__forms_free(&pforms);
  return any;
}

/* ---------------------------------------------------------------- render */

typedef struct {
  EddiLine from; /* the payload's indentation */
  EddiLine to;   /* the file's, for the same line */
} IndentPair;

void eddi_match_render(const EddiLineList *file, const EddiMatch *match, const EddiHunk *hunk,
                       StrBuf *out) {
  bool reindent = match->level >= MATCH_INDENT;
  Array(IndentPair) pairs = {0};
  long shift = 0;
  bool have_shift = false, tabs = false;
  if (reindent) {
    size_t at = match->start;
    for (size_t i = 0; i < hunk->len; i++) {
      if (hunk->items[i].kind == HUNK_ADD) continue;
      const EddiLine *f = &file->items[at++], *p = &hunk->items[i].line;
      if (match__blank(f) || match__blank(p)) continue;
      EddiLine fi = {f->bytes, match__indent_len(f)}, pi = {p->bytes, match__indent_len(p)};
      if (fi.len && fi.bytes[0] == '\t') tabs = true;
      if (!have_shift) {
        shift = (long)match__columns(fi.bytes, fi.len) - (long)match__columns(pi.bytes, pi.len);
        have_shift = true;
      }
      bool known = false;
      for (size_t k = 0; k < pairs.len && !known; k++) known = line__same(&pairs.items[k].from, &pi);
      if (!known) array_push(&pairs, ((IndentPair){pi, fi}));
    }
  }
  size_t at = match->start;
  for (size_t i = 0; i < hunk->len; i++) {
    const EddiHunkLine *h = &hunk->items[i];
    if (h->kind == HUNK_CONTEXT) {
      eddi_strbuf_append(out, file->items[at].bytes, file->items[at].len);
      eddi_strbuf_putc(out, '\n');
    }
    if (h->kind != HUNK_ADD) {
      at++;
      continue;
    }
    const EddiLine *line = &h->line;
    size_t lead = match__indent_len(line);
    if (!reindent || match__blank(line)) {
      eddi_strbuf_append(out, line->bytes, line->len);
    } else {
      EddiLine pi = {line->bytes, lead};
      const EddiLine *mapped = NULL;
      for (size_t k = 0; k < pairs.len && !mapped; k++)
        if (line__same(&pairs.items[k].from, &pi)) mapped = &pairs.items[k].to;
      if (mapped) {
        eddi_strbuf_append(out, mapped->bytes, mapped->len);
      } else {
        long cols = (long)match__columns(line->bytes, lead) + shift;
        if (cols < 0) cols = 0;
        for (long c = 0; tabs && c + MATCH_TAB_WIDTH <= cols; c += MATCH_TAB_WIDTH)
          eddi_strbuf_putc(out, '\t');
        for (long c = tabs ? cols % MATCH_TAB_WIDTH : cols; c > 0; c--) eddi_strbuf_putc(out, ' ');
      }
      eddi_strbuf_append(out, line->bytes + lead, line->len - lead);
    }
    eddi_strbuf_putc(out, '\n');
  }
  array_free(&pairs);
}

void eddi_lines_format(const EddiLineList *lines, size_t start, size_t count, size_t width,
                       StrBuf *out) {
  for (size_t i = start; i < start + count && i < lines->len; i++) {
    const EddiLine *line = &lines->items[i];
    size_t len = line->len;
    bool cut = false;
    if (width && eddi_utf8_count_chars(line->bytes, len) > width) {
      len = eddi_utf8_skip_chars(line->bytes, len, width);
      cut = true;
    }
    eddi_strbuf_printf(out, "%zu:", i + 1);
    eddi_strbuf_append(out, line->bytes, len);
    if (cut) eddi_strbuf_puts(out, "...");
    eddi_strbuf_putc(out, '\n');
  }
}

/* ---------------------------------------------------------------- splices */

void eddi_splices_add(EddiSpliceList *self, size_t start, size_t count, StrBuf *text) {
  EddiSplice splice = {.start = start, .count = count, .text = *text, .order = self->len};
  memset(text, 0, sizeof *text);
  array_push(self, splice);
}

void eddi_splices_free(EddiSpliceList *self) {
  for (size_t i = 0; i < self->len; i++) eddi_strbuf_free(&self->items[i].text);
  array_free(self);
}

static int splice__compare(const void *a, const void *b) {
  const EddiSplice *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  /* At one line, inserts (count 0) come before the replacement there. */
  if ((x->count == 0) != (y->count == 0)) return x->count == 0 ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static size_t splice__lines(const StrBuf *text) {
  size_t lines = 0;
  for (size_t i = 0; i < text->len; i++) lines += text->data[i] == '\n';
  return lines;
}

int eddi_splices_apply(EddiSpliceList *self, const EddiLineList *file, bool final_newline,
                       StrBuf *out, EddiChangedList *changed, EddiError *err) {
  if (self->len > 1) qsort(self->items, self->len, sizeof *self->items, splice__compare);
  for (size_t i = 1; i < self->len; i++) {
    const EddiSplice *a = &self->items[i - 1], *b = &self->items[i];
    if (b->start < a->start + a->count)
      return eddi_error_set(err, EDDI_EINVAL, "Edits overlap: lines %zu-%zu and %zu-%zu",
                            a->start + 1, a->start + a->count, b->start + 1,
                            b->start + EDDI_MAX(b->count, (size_t)1));
  }
  size_t base = out->len, line = 0, new_line = 0;
  eddi_strbuf_puts(out, "");
  for (size_t i = 0; i <= self->len; i++) {
    size_t until = i < self->len ? self->items[i].start : file->len;
    EDDI_ASSERT(until <= file->len);
    for (; line < until; line++, new_line++) {
      eddi_strbuf_append(out, file->items[line].bytes, file->items[line].len);
      eddi_strbuf_putc(out, '\n');
    }
    if (i == self->len) break;
    const EddiSplice *s = &self->items[i];
    size_t added = splice__lines(&s->text);
    eddi_strbuf_append(out, s->text.data, s->text.len);
    if (changed) {
      EddiChangedRange range = {new_line, added};
      EddiChangedRange *last = changed->len ? array_back(changed) : NULL;
      if (last && last->start + last->count == new_line) last->count += added;
      else array_push(changed, range);
    }
    new_line += added;
    line += s->count;
  }
  if (!final_newline && out->len > base && out->data[out->len - 1] == '\n')
    out->data[--out->len] = '\0';
  return 0;
}

void eddi_preview(const char *text, size_t len, const EddiChangedList *changed,
                  size_t max_rows, StrBuf *out) {
  EddiLineList lines = {0};
  eddi_lines_split(text, len, &lines, NULL);
  size_t shown = 0, next = 0; /* first line not yet shown */
  bool first = true;
  for (size_t i = 0; i < changed->len; i++) {
    const EddiChangedRange *r = &changed->items[i];
    size_t from = r->start ? r->start - 1 : 0;
    size_t to = EDDI_MIN(lines.len, r->start + r->count + 1);
    if (from < next) from = next;
    if (from >= to) continue;
    if (!first && from > next) eddi_strbuf_puts(out, "...\n");
    first = false;
    size_t room = max_rows > shown ? max_rows - shown : 0;
    size_t count = EDDI_MIN(to - from, room);
    eddi_lines_format(&lines, from, count, 0, out);
    shown += count;
    next = from + count;
    if (count < to - from) {
      eddi_strbuf_printf(out, "... (preview cut at %zu rows)\n", max_rows);
      break;
    }
  }
  array_free(&lines);
}
