/* matcher.c - tolerant block matching and line splices; see matcher.h. */
#include "edit/matcher.h"

#include <limits.h>

#include "core/diff.h"
#include "core/text.h"
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
  return eddi_text_count_newlines(text, len) + (len && text[len - 1] != '\n');
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

typedef struct {
  long quoted, file; /* columns */
} IndentLevel;

/* The indentation of line k of a quote and of the file, in columns; false
 * when either line is blank (it says nothing about nesting). */
static bool match__levels(const EddiLine *file, const EddiLine *pattern, size_t k,
                          IndentLevel *out) {
  if (match__blank(&pattern[k]) || match__blank(&file[k])) return false;
  out->quoted = (long)match__columns(pattern[k].bytes, match__indent_len(&pattern[k]));
  out->file = (long)match__columns(file[k].bytes, match__indent_len(&file[k]));
  return true;
}

/* Whether a quote that is not shifted uniformly still keeps the file's
 * nesting: each quoted indentation stands for one of the file's, and deeper
 * in the quote is deeper in the file. *widest: the largest difference. */
static bool match__nesting_kept(const EddiLine *file, const EddiLine *pattern, size_t count,
                                long *widest) {
  Array(IndentLevel) levels = {0};
  bool kept = true;
  *widest = 0;
  for (size_t k = 0; k < count && kept; k++) {
    IndentLevel level;
    if (!match__levels(file, pattern, k, &level)) continue;
    *widest = EDDI_MAX(*widest, labs(level.file - level.quoted));
    size_t i = 0;
    while (i < levels.len && levels.items[i].quoted != level.quoted) i++;
    if (i == levels.len) array_push(&levels, level);
    else kept = levels.items[i].file == level.file;
  }
  for (size_t i = 0; i < levels.len && kept; i++)
    for (size_t j = i + 1; j < levels.len && kept; j++) {
      const IndentLevel *x = &levels.items[i], *y = &levels.items[j];
      kept = x->file != y->file && (x->quoted < y->quoted) == (x->file < y->file);
    }
  array_free(&levels);
  return kept;
}

/* How far the quoted lines' indentation is from a candidate's, lower
 * first: MATCH_RANK_EXACT when every line is indented with the file's own
 * bytes; 1 + 2 * |shift| when every non-blank line is shifted by the same
 * columns (0 columns in other bytes, spaces for tabs: MATCH_RANK_SAME_COLUMNS);
 * after those,
 * MATCH_RANK_RESCALED + the widest difference when the quote keeps the
 * file's nesting with other widths (two spaces a level for four, tabs of
 * eight columns): each quoted indentation stands for one of the file's, in
 * the same order. MATCH_RANK_INCONSISTENT otherwise: a quote with a line
 * re-nested (moved into or out of its block) is not the same block, at any
 * level. */
#define MATCH_RANK_EXACT 0
#define MATCH_RANK_SAME_COLUMNS 1
#define MATCH_RANK_RESCALED (SIZE_MAX / 2)
#define MATCH_RANK_INCONSISTENT SIZE_MAX

static size_t match__indent_rank(const EddiLine *file, const EddiLine *pattern, size_t count) {
  bool have = false, same_bytes = true;
  long shift = 0;
  for (size_t k = 0; k < count; k++) {
    IndentLevel level;
    if (!match__levels(file, pattern, k, &level)) continue;
    long d = level.file - level.quoted;
    if (have && d != shift) {
      long widest;
      return match__nesting_kept(file, pattern, count, &widest)
                 ? MATCH_RANK_RESCALED + (size_t)widest
                 : MATCH_RANK_INCONSISTENT;
    }
    shift = d, have = true;
    same_bytes = same_bytes && match__indent_len(&file[k]) == match__indent_len(&pattern[k]) &&
                 memcmp(file[k].bytes, pattern[k].bytes, match__indent_len(&file[k])) == 0;
  }
  if (same_bytes) return MATCH_RANK_EXACT;
  return 1 + 2 * (size_t)labs(shift);
}

/* The places a pattern may start at, [first, last] of file, and the
 * pattern's forms at the level last scanned. skip: leading pattern lines
 * whose indentation does not count (a first line inside its line). */
typedef struct {
  const EddiLineList *file, *pattern;
  size_t first, last, skip;
  MatchForms fforms, pforms;
} MatchScan;

/* The places that fit at level and rank below `below`, the ones indented
 * closest to the quote: their starts in candidates (up to the max), their
 * rank in *best; returns how many there are. */
static size_t match__scan(MatchScan *self, EddiMatchLevel level, size_t below,
                          size_t candidates[EDDI_MATCH_CANDIDATES_MAX], size_t *best) {
  size_t plen = self->pattern->len, first = self->first;
  const EddiLine *f = self->file->items + first, *p = self->pattern->items;
  if (level != MATCH_EXACT) {
    match__forms(&self->fforms, f, self->last + plen - first, level);
    match__forms(&self->pforms, p, plen, level);
    f = self->fforms.lines.items;
    p = self->pforms.lines.items;
  }
  size_t found = 0;
  *best = below;
  for (size_t s = 0; s + first <= self->last; s++) {
    size_t k = 0;
    while (k < plen && line__same(&f[s + k], &p[k])) k++;
    if (k < plen) continue;
    size_t rank = level == MATCH_EXACT
                      ? MATCH_RANK_EXACT
                      : match__indent_rank(self->file->items + first + s + self->skip,
                                           self->pattern->items + self->skip, plen - self->skip);
    if (rank == MATCH_RANK_INCONSISTENT || rank > *best || rank >= below) continue;
    if (rank < *best) *best = rank, found = 0;
    if (found < EDDI_MATCH_CANDIDATES_MAX) candidates[found] = first + s;
    found++;
  }
  return found;
}

/* Candidates a (na of them kept) and b, merged in file order into a. */
static void match__merge(size_t a[EDDI_MATCH_CANDIDATES_MAX], size_t na, const size_t *b,
                         size_t nb) {
  size_t merged[2 * EDDI_MATCH_CANDIDATES_MAX], n = 0, i = 0, j = 0;
  while (i < na || j < nb) merged[n++] = j >= nb || (i < na && a[i] < b[j]) ? a[i++] : b[j++];
  memcpy(a, merged, EDDI_MIN(n, (size_t)EDDI_MATCH_CANDIDATES_MAX) * sizeof *a);
}

/* eddi_match_find; first_inline: the pattern's first line may start inside
 * the file's line, so its indentation says nothing about nesting. */
static int match__find(const EddiLineList *file, size_t from, size_t to,
                       const EddiLineList *pattern, bool at_end, bool first_inline,
                       EddiMatch *out) {
  memset(out, 0, sizeof *out);
  size_t plen = pattern->len;
  to = EDDI_MIN(to, file->len);
  if (plen == 0 || from > to || to - from < plen) return EDDI_MATCH_NONE;
  MatchScan scan = {.file = file,
                    .pattern = pattern,
                    .first = at_end ? to - plen : from,
                    .last = to - plen,
                    .skip = first_inline};
  int result = EDDI_MATCH_NONE;
  for (EddiMatchLevel level = MATCH_EXACT; level < MATCH_LEVELS; level++) {
    size_t best, found = match__scan(&scan, level, MATCH_RANK_INCONSISTENT, out->candidates, &best);
    if (!found) continue;
    out->start = out->candidates[0];
    out->count = plen;
    out->level = level;
    out->candidate_count = found;
    out->first_inline = first_inline;
    result = found == 1 ? EDDI_MATCH_FOUND : EDDI_MATCH_AMBIGUOUS;
    /* A place shifted from the quote is no better than one indented closer
     * that fits only with looser noise (quotes, spaces): both fit, and
     * neither wins. */
    if (best > MATCH_RANK_SAME_COLUMNS && level < MATCH_PUNCT) {
      size_t closer[EDDI_MATCH_CANDIDATES_MAX], closer_best;
      size_t more = match__scan(&scan, MATCH_PUNCT, best, closer, &closer_best);
      if (more) {
        match__merge(out->candidates, EDDI_MIN(found, (size_t)EDDI_MATCH_CANDIDATES_MAX),
                     closer, EDDI_MIN(more, (size_t)EDDI_MATCH_CANDIDATES_MAX));
        out->candidate_count += more;
        result = EDDI_MATCH_AMBIGUOUS;
      }
    }
    break;
  }
  match__forms_free(&scan.fforms);
  match__forms_free(&scan.pforms);
  return result;
}

int eddi_match_find(const EddiLineList *file, size_t from, size_t to,
                    const EddiLineList *pattern, bool at_end, EddiMatch *out) {
  return match__find(file, from, to, pattern, at_end, false, out);
}

int eddi_match_find_inline(const EddiLineList *file, const EddiLineList *pattern,
                           EddiMatch *out) {
  bool first_inline = pattern->len && !match__blank(&pattern->items[0]) &&
                      match__indent_len(&pattern->items[0]) == 0;
  return match__find(file, 0, file->len, pattern, false, first_inline, out);
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

bool eddi_match_misnested(const EddiLineList *file, const EddiLineList *pattern, size_t start) {
  size_t plen = pattern->len;
  if (!plen || start > file->len || file->len - start < plen) return false;
  MatchForms fforms = {0}, pforms = {0};
  match__forms(&fforms, file->items + start, plen, MATCH_PUNCT);
  match__forms(&pforms, pattern->items, plen, MATCH_PUNCT);
  size_t k = 0;
  while (k < plen && line__same(&fforms.lines.items[k], &pforms.lines.items[k])) k++;
  match__forms_free(&fforms);
  match__forms_free(&pforms);
  return k == plen &&
         match__indent_rank(file->items + start, pattern->items, plen) == MATCH_RANK_INCONSISTENT;
}

/* ---------------------------------------------------------------- render */

typedef struct {
  EddiLine from; /* the payload's indentation */
  EddiLine to;   /* the file's, for the same line */
} IndentPair;

/* How added lines are indented after a match: the quoted lines'
 * indentations beside the file's for the same lines. A quote whose every
 * line is indented as the file is found no shift to apply: its added lines
 * keep the payload's bytes. */
typedef struct {
  Array(IndentPair) pairs;
  bool tabs;     /* the file indents with tabs */
  bool reindent; /* some quoted line is indented otherwise than the file */
  /* A quote whose first line started inside the file's line (replace
   * mode): that line's indentation goes before the first new line, as the
   * byte for byte replacement would leave it. */
  bool first_inline;
  EddiLine prefix;
} IndentPlan;

/* The plan for quoted lines old at match. */
static void indent__plan(IndentPlan *self, const EddiLineList *file, const EddiMatch *match,
                         const EddiLineList *old) {
  memset(self, 0, sizeof *self);
  size_t start = match->start;
  if (match->first_inline) {
    const EddiLine *f = &file->items[start];
    self->first_inline = true;
    self->prefix = (EddiLine){f->bytes, match__indent_len(f)};
  }
  for (size_t i = self->first_inline; i < old->len; i++) {
    const EddiLine *f = &file->items[start + i], *p = &old->items[i];
    if (match__blank(f) || match__blank(p)) continue;
    EddiLine fi = {f->bytes, match__indent_len(f)}, pi = {p->bytes, match__indent_len(p)};
    if (fi.len && fi.bytes[0] == '\t') self->tabs = true;
    if (!line__same(&fi, &pi)) self->reindent = true;
    bool known = false;
    for (size_t k = 0; k < self->pairs.len && !known; k++)
      known = line__same(&self->pairs.items[k].from, &pi);
    if (!known) array_push(&self->pairs, ((IndentPair){pi, fi}));
  }
}

static void indent__plan_free(IndentPlan *self) { array_free(&self->pairs); }

/* The shift for an indentation the quote did not use: that of the
 * deepest quoted indentation at or above it in columns (the shallowest when
 * none is), so a line nested under a known one stays nested under it. */
static long indent__shift_at(const IndentPlan *self, const EddiLine *indent) {
  long cols = (long)match__columns(indent->bytes, indent->len);
  long below = -1, below_shift = 0, above = LONG_MAX, above_shift = 0;
  for (size_t k = 0; k < self->pairs.len; k++) {
    const IndentPair *pair = &self->pairs.items[k];
    long from = (long)match__columns(pair->from.bytes, pair->from.len);
    long shift = (long)match__columns(pair->to.bytes, pair->to.len) - from;
    if (from <= cols && from > below) below = from, below_shift = shift;
    if (from > cols && from < above) above = from, above_shift = shift;
  }
  return below >= 0 ? below_shift : above_shift;
}

/* An added line as it goes into the file, with its '\n': an indentation the
 * quote used becomes the file's for it, another one moves as the nearest
 * one above it did, in the file's tabs or spaces. */
static void indent__render(const IndentPlan *self, const EddiLine *line, StrBuf *out) {
  size_t lead = match__indent_len(line);
  if (!self->reindent || match__blank(line)) {
    eddi_strbuf_append(out, line->bytes, line->len);
    eddi_strbuf_putc(out, '\n');
    return;
  }
  EddiLine pi = {line->bytes, lead};
  const EddiLine *mapped = NULL;
  for (size_t k = 0; k < self->pairs.len && !mapped; k++)
    if (line__same(&self->pairs.items[k].from, &pi)) mapped = &self->pairs.items[k].to;
  if (mapped) {
    eddi_strbuf_append(out, mapped->bytes, mapped->len);
  } else {
    long cols = (long)match__columns(line->bytes, lead) + indent__shift_at(self, &pi);
    if (cols < 0) cols = 0;
    for (long c = 0; self->tabs && c + MATCH_TAB_WIDTH <= cols; c += MATCH_TAB_WIDTH)
      eddi_strbuf_putc(out, '\t');
    for (long c = self->tabs ? cols % MATCH_TAB_WIDTH : cols; c > 0; c--)
      eddi_strbuf_putc(out, ' ');
  }
  eddi_strbuf_append(out, line->bytes + lead, line->len - lead);
  eddi_strbuf_putc(out, '\n');
}

/* New line as written; first: it is the first line of the new text. */
static void indent__render_new(const IndentPlan *self, const EddiLine *line, bool first,
                               StrBuf *out) {
  if (!first || !self->first_inline) {
    indent__render(self, line, out);
    return;
  }
  eddi_strbuf_append(out, self->prefix.bytes, self->prefix.len);
  eddi_strbuf_append(out, line->bytes, line->len);
  eddi_strbuf_putc(out, '\n');
}

void eddi_match_render(const EddiLineList *file, const EddiMatch *match, const EddiHunk *hunk,
                       StrBuf *out) {
  EddiLineList old = {0};
  eddi_hunk_old_side(hunk, &old);
  IndentPlan plan;
  indent__plan(&plan, file, match, &old);
  size_t at = match->start;
  bool first = true;
  for (size_t i = 0; i < hunk->len; i++) {
    const EddiHunkLine *h = &hunk->items[i];
    if (h->kind == HUNK_CONTEXT) {
      eddi_strbuf_append(out, file->items[at].bytes, file->items[at].len);
      eddi_strbuf_putc(out, '\n');
      first = false;
    }
    if (h->kind == HUNK_ADD) indent__render_new(&plan, &h->line, first, out), first = false;
    else at++;
  }
  /* Nothing replaces a quote that started inside its line: the line's
   * indentation stays, and what follows the block runs on after it. */
  if (first && plan.first_inline) eddi_strbuf_append(out, plan.prefix.bytes, plan.prefix.len);
  indent__plan_free(&plan);
  array_free(&old);
}

/* ---------------------------------------------------------------- hunks from blocks */

/* Lines [from, to) of lines as one text of '\n'-ended lines, for the
 * line diff. */
static void hunk__join(const EddiLineList *lines, size_t from, size_t to, StrBuf *out) {
  eddi_strbuf_puts(out, "");
  for (size_t i = from; i < to; i++) {
    eddi_strbuf_append(out, lines->items[i].bytes, lines->items[i].len);
    eddi_strbuf_putc(out, '\n');
  }
}

/* The hunk lines for old[a, a_end) -> new[b, b_end) (a stretch where the
 * file and the rendered new lines differ): lines the quote and the new
 * version share, byte for byte, are context; the rest deleted and added.
 * pin_first: a quote whose first line started inside its line pairs that
 * line with the first new line only, which takes the line's indentation as
 * the byte for byte replacement does. */
static void hunk__from_payload(EddiHunk *self, const EddiLineList *old, size_t a, size_t a_end,
                               const EddiLineList *new_lines, size_t b, size_t b_end,
                               bool pin_first) {
  if (pin_first && a == 0 && b == 0 && a_end > 0 && b_end > 0) {
    if (line__same(&old->items[0], &new_lines->items[0])) {
      array_push(self, ((EddiHunkLine){HUNK_CONTEXT, old->items[0]}));
    } else {
      array_push(self, ((EddiHunkLine){HUNK_DELETE, old->items[0]}));
      array_push(self, ((EddiHunkLine){HUNK_ADD, new_lines->items[0]}));
    }
    a = b = 1;
  }
  StrBuf x = {0}, y = {0};
  hunk__join(old, a, a_end, &x);
  hunk__join(new_lines, b, b_end, &y);
  EddiDiffHunks diff = {0};
  eddi_diff_hunks(x.data, x.len, y.data, y.len, &diff);
  size_t base = a;
  for (size_t d = 0; d <= diff.len; d++) {
    const EddiDiffHunk *h = d < diff.len ? &diff.items[d] : NULL;
    size_t until = h ? base + h->a_start : a_end;
    for (; a < until; a++, b++) array_push(self, ((EddiHunkLine){HUNK_CONTEXT, old->items[a]}));
    if (!h) break;
    for (size_t k = 0; k < h->a_count; k++, a++)
      array_push(self, ((EddiHunkLine){HUNK_DELETE, old->items[a]}));
    for (size_t k = 0; k < h->b_count; k++, b++)
      array_push(self, ((EddiHunkLine){HUNK_ADD, new_lines->items[b]}));
  }
  array_free(&diff);
  eddi_strbuf_free(&x);
  eddi_strbuf_free(&y);
}

void eddi_hunk_from_match(EddiHunk *self, const EddiLineList *file, const EddiMatch *match,
                          const EddiLineList *old, const EddiLineList *new_lines) {
  EDDI_ASSERT(match->count == old->len && match->start + old->len <= file->len);
  /* First the file's lines against the new ones as they would be written:
   * a line equal there is kept whatever the quote made of it. */
  IndentPlan plan;
  indent__plan(&plan, file, match, old);
  StrBuf written = {0}, kept = {0};
  eddi_strbuf_puts(&written, "");
  for (size_t j = 0; j < new_lines->len; j++)
    indent__render_new(&plan, &new_lines->items[j], j == 0, &written);
  indent__plan_free(&plan);
  hunk__join(file, match->start, match->start + match->count, &kept);
  EddiDiffHunks diff = {0};
  eddi_diff_hunks(kept.data, kept.len, written.data, written.len, &diff);
  /* Then, where they differ, the quote against the new version. */
  size_t a = 0, b = 0;
  for (size_t d = 0; d <= diff.len; d++) {
    const EddiDiffHunk *h = d < diff.len ? &diff.items[d] : NULL;
    size_t until = h ? h->a_start : old->len;
    for (; a < until; a++, b++) array_push(self, ((EddiHunkLine){HUNK_CONTEXT, old->items[a]}));
    if (!h) break;
    hunk__from_payload(self, old, a, a + h->a_count, new_lines, b, b + h->b_count,
                       match->first_inline);
    a += h->a_count, b += h->b_count;
  }
  array_free(&diff);
  eddi_strbuf_free(&written);
  eddi_strbuf_free(&kept);
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
