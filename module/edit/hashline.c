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
 * - The parser's leniency. Models paste read output, diff rows and
 *   apply_patch headers into hashline bodies. Each mistake with one safe
 *   reading is accepted with a warning naming the right form; a mistake with
 *   two readings is refused, because a wrong guess writes wrong text.
 */
#define _GNU_SOURCE /* memmem */
#include "edit/hashline.h"

#include <ctype.h>
#include <stdarg.h>

#include "core/document.h"
#include "core/path.h"
#include "syntax/syntax.h"

/* ---------------------------------------------------------------- parsing */

static void hl__op_free(HlOp *op) {
  eddi_free(op->reg);
  eddi_strbuf_free(&op->body);
}

void eddi_hashline_section_free(HlSection *self) {
  for (size_t i = 0; i < self->ops.len; i++) hl__op_free(&self->ops.items[i]);
  array_free(&self->ops);
  eddi_free(self->move_to);
  memset(self, 0, sizeof *self);
}

static int hl__fail(EddiError *err, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int hl__fail(EddiError *err, size_t line, const char *fmt, ...) {
  char what[EDDI_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return eddi_error_set(err, EDDI_EINVAL, "line %zu: %s", line, what);
}

/* A number at *p (advanced past it); false when none. */
static bool hl__number(const char **p, const char *end, size_t *value) {
  const char *q = *p;
  size_t v = 0;
  while (q < end && isdigit((unsigned char)*q) && v < 100000000) v = v * 10 + (size_t)(*q++ - '0');
  if (q == *p) return false;
  *p = q;
  *value = v;
  return true;
}

static void hl__skip_spaces(const char **p, const char *end) {
  while (*p < end && (**p == ' ' || **p == '\t')) (*p)++;
}

/* What a header line says, before it becomes an op. */
typedef struct {
  bool verb;  /* PUT/CUT written */
  bool cut;
  HlLocator loc;
  size_t first, last;
  bool at_end;
  bool colon;
  bool dangling; /* "N.=" with no end */
  bool ranged;   /* "N.=M" or "N-M" written out */
  char reg[64];
  bool has_reg;
} HlHeader;

/* Parse a header ("PUT 2.=3:", "CUT 4* @fn", "2.=3:"); false when line is
 * not one. */
static bool hl__header(const char *line, size_t len, HlHeader *h) {
  memset(h, 0, sizeof *h);
  const char *p = line, *end = line + len;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
  if (end - p >= 4 && (memcmp(p, "PUT ", 4) == 0 || memcmp(p, "CUT ", 4) == 0)) {
    h->verb = true;
    h->cut = p[0] == 'C';
    p += 4;
    hl__skip_spaces(&p, end);
  }
  if (p < end && (*p == '<' || *p == '>')) {
    h->loc = *p == '<' ? HL_LOC_BEFORE : HL_LOC_AFTER;
    p++;
    hl__skip_spaces(&p, end);
    if (h->loc == HL_LOC_AFTER && p < end && *p == '$') {
      h->at_end = true;
      p++;
    } else if (!hl__number(&p, end, &h->first)) {
      return false;
    }
    h->last = h->first;
    if (p < end && *p == '*') {
      if (h->loc != HL_LOC_AFTER || h->at_end) return false;
      h->loc = HL_LOC_AFTER_BLOCK;
      p++;
    }
  } else {
    if (!hl__number(&p, end, &h->first)) return false;
    h->last = h->first;
    h->loc = HL_LOC_RANGE;
    if (p < end && *p == '*') {
      h->loc = HL_LOC_BLOCK;
      p++;
    } else if (end - p >= 2 && p[0] == '.' && p[1] == '=') {
      p += 2;
      if (!hl__number(&p, end, &h->last)) h->dangling = true, h->last = h->first;
      else h->ranged = true;
    } else if (p < end && *p == '-') {
      p++;
      if (!hl__number(&p, end, &h->last)) h->dangling = true, h->last = h->first;
      else h->ranged = true;
    }
  }
  hl__skip_spaces(&p, end);
  if (p < end && *p == '@') {
    const char *name = ++p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')) p++;
    size_t n = (size_t)(p - name);
    if (n == 0 || n >= sizeof h->reg) return false;
    memcpy(h->reg, name, n);
    h->has_reg = true;
    hl__skip_spaces(&p, end);
  }
  if (p < end && *p == ':') {
    h->colon = true;
    p++;
  }
  if (p != end) return false;
  /* Without a verb only a whole range with a colon ("2.=3:") reads as a header. */
  if (!h->verb) return h->loc == HL_LOC_RANGE && h->colon && h->ranged && !h->dangling;
  return true;
}

/* "N:TEXT" / "N|TEXT" as read output prints rows: the number and the text. */
static bool hl__row(const char *line, size_t len, size_t *number, const char **text) {
  const char *p = line, *end = line + len;
  if (!hl__number(&p, end, number) || p >= end || (*p != ':' && *p != '|')) return false;
  *text = p + 1;
  return true;
}

/* "N-M:TEXT", the elided rows of a folded read. */
static bool hl__elision_row(const char *line, size_t len) {
  const char *p = line, *end = line + len;
  size_t a, b;
  if (!hl__number(&p, end, &a) || p >= end || *p != '-') return false;
  p++;
  return hl__number(&p, end, &b) && p < end && *p == ':';
}

static bool hl__notice(const char *line, size_t len) {
  return len > 1 && line[0] == '[' &&
         (memmem(line, len, "elided", 6) || memmem(line, len, "Showing", 7) ||
          memmem(line, len, "\xE2\x80\xA6", 3));
}

static bool hl__starts(const char *line, size_t len, const char *prefix) {
  size_t n = strlen(prefix);
  return len >= n && memcmp(line, prefix, n) == 0;
}

typedef enum { ROW_PLUS, ROW_MINUS, ROW_BARE, ROW_BLANK } HlRowKind;

typedef struct {
  HlRowKind kind;
  const char *text;
  size_t len;
  size_t line_no;
} HlRow;

typedef Array(HlRow) HlRowList;

static bool hl__bullet(const HlRow *row) {
  return row->len >= 1 && row->text[0] == ' ';
}

/* Turn an op's collected rows into its body, applying the leniencies. */
static int hl__finish_body(HlOp *op, HlRowList *rows, EddiEditReport *report, EddiError *err) {
  while (rows->len && array_back(rows)->kind == ROW_BLANK) rows->len--;
  size_t plus = 0, minus = 0, bare = 0, plus_bullets = 0, minus_bullets = 0;
  const HlRow *first_minus = NULL;
  for (size_t i = 0; i < rows->len; i++) {
    HlRow *r = &rows->items[i];
    if (r->kind == ROW_PLUS) {
      plus++;
      if (r->len >= 2 && r->text[0] == '-' && r->text[1] == ' ') plus_bullets++;
    } else if (r->kind == ROW_MINUS) {
      if (!first_minus) first_minus = r;
      minus++;
      if (hl__bullet(r)) minus_bullets++;
    } else if (r->kind == ROW_BARE) {
      bare++;
    }
  }
  bool bullets = false;
  if (minus) {
    if (minus_bullets == minus && (plus == 0 || plus_bullets > 0)) {
      bullets = true;
      eddi_edit_report_warn(report,
                            "Auto-prefixed bare `- ` bullet row(s) as literal content. `-` rows "
                            "never remove lines — the range does that; always prefix literal "
                            "body rows with `+`: `+- item`.");
    } else if (minus_bullets < minus && plus > 0 && minus_bullets == 0) {
      eddi_edit_report_warn(report, "Ignored unified-diff `-old` row(s); the range already "
                                    "removes old content, so only `+new` rows were kept.");
    } else {
      return hl__fail(err, first_minus->line_no,
                      "`-` rows are not valid; the range already names the lines being "
                      "changed. For Markdown bullets or other literal `-` lines, prefix the "
                      "literal row with `+`: `+- item`.");
    }
  }
  /* Bare rows that all carry a read-output number inside the range lose it. */
  bool strip = bare > 0 && op->loc == HL_LOC_RANGE;
  size_t previous = 0;
  for (size_t i = 0; i < rows->len && strip; i++) {
    const HlRow *r = &rows->items[i];
    if (r->kind != ROW_BARE) continue;
    size_t n;
    const char *text;
    if (!hl__row(r->text, r->len, &n, &text) || n < op->first || n > op->last || n <= previous)
      strip = false;
    previous = n;
  }
  if (bare && !bullets)
    eddi_edit_report_warn(report, "Auto-prefixed bare body row(s) with `+`. Body rows must be "
                                  "`+TEXT` literal lines.");
  eddi_strbuf_puts(&op->body, "");
  for (size_t i = 0; i < rows->len; i++) {
    const HlRow *r = &rows->items[i];
    const char *text = r->text;
    size_t len = r->len;
    if (r->kind == ROW_MINUS && !bullets) continue;
    if (r->kind == ROW_MINUS) text--, len++; /* the '-' is content */
    if (r->kind == ROW_BARE && strip) {
      size_t n;
      const char *rest = text;
      hl__row(text, len, &n, &rest);
      len -= (size_t)(rest - text);
      text = rest;
    }
    eddi_strbuf_append(&op->body, text, len);
    eddi_strbuf_putc(&op->body, '\n');
  }
  return 0;
}

/* Two ops over the same exact range: the later one wins. */
static void hl__supersede(HlSection *out, EddiEditReport *report) {
  HlOp *last = array_back(&out->ops);
  if (last->loc != HL_LOC_RANGE && last->loc != HL_LOC_BLOCK) return;
  for (size_t i = 0; i + 1 < out->ops.len; i++) {
    HlOp *op = &out->ops.items[i];
    if (op->loc == last->loc && op->first == last->first && op->last == last->last) {
      hl__op_free(op);
      array_remove(&out->ops, i);
      eddi_edit_report_warn(report, "Multiple hunks targeted the same exact range; kept only "
                                    "the last. Issue one `PUT` or `CUT` hunk per range.");
      return;
    }
  }
}

int eddi_hashline_parse(const char *body, size_t len, size_t line_base, HlSection *out,
                        EddiEditReport *report, EddiError *err) {
  EddiLineList lines = {0};
  eddi_lines_split(body, len, &lines, NULL);
  HlRowList rows = {0};
  HlOp *open = NULL;           /* an op whose body rows are being read */
  HlOp *bodyless = NULL;       /* the last op that takes no rows */
  bool recovered_rows = false;
  Array(size_t) row_numbers = {0};
  int rc = 0;
  for (size_t i = 0; i < lines.len && rc == 0; i++) {
    const char *line = lines.items[i].bytes;
    size_t n = lines.items[i].len, line_no = line_base + i + 1;
    if (n && line[n - 1] == '\r') n--;
    HlHeader h;
    bool is_header = hl__header(line, n, &h);
    bool is_rem = n == 3 && memcmp(line, "REM", 3) == 0;
    bool is_mv = n > 3 && memcmp(line, "MV ", 3) == 0;
    if (open && !is_header && !is_rem && !is_mv) {
      HlRow row = {ROW_BARE, line, n, line_no};
      if (n == 0) row.kind = ROW_BLANK;
      else if (line[0] == '+') row.kind = ROW_PLUS, row.text++, row.len--;
      else if (line[0] == '-') row.kind = ROW_MINUS, row.text++, row.len--;
      HlHeader inner;
      if (row.kind == ROW_PLUS && hl__header(row.text, row.len, &inner) && inner.verb)
        eddi_edit_report_warn(report,
                              "line %zu: body row `%.*s` is itself a valid hunk header, so it "
                              "was inserted into the file as literal text rather than "
                              "executed. Ops are never `+`-prefixed — drop the `+` to run it, "
                              "and re-issue if this line landed in the file by mistake.",
                              line_no, (int)EDDI_MIN(n, (size_t)80), line);
      array_push(&rows, row);
      continue;
    }
    if (open) {
      rc = hl__finish_body(open, &rows, report, err);
      array_clear(&rows);
      if (rc == 0 && open->body.len == 0) {
        if (open->loc == HL_LOC_RANGE || open->loc == HL_LOC_BLOCK) {
          open->cut = true; /* an empty replacement deletes */
          eddi_edit_report_warn(report, "Interpreted an empty `PUT` body as deletion. Use "
                                        "`CUT N.=M` or `CUT N*` for bodyless deletes.");
        } else {
          rc = hl__fail(err, open->line_no,
                        "`PUT <N:` / `PUT >N:` promises body rows and got none. Write `+TEXT` "
                        "rows, or drop the `:` to paste a register (`PUT >N` = anonymous, "
                        "`PUT >N @name` = named).");
        }
      }
      if (rc == 0) hl__supersede(out, report);
      open = NULL;
      if (rc < 0) break;
    }
    if (n == 0) continue;
    if (is_header) {
      if (!h.verb) {
        eddi_edit_report_warn(report, "Recovered a bare `N.=M:` header as `PUT N.=M:`. "
                                      "Prefix replacement ranges with `PUT`.");
      }
      if (h.first == 0 && !h.at_end) {
        rc = hl__fail(err, line_no, "line numbers start at 1 (`PUT <1:` inserts at the top)");
        break;
      }
      if (h.last < h.first) {
        rc = hl__fail(err, line_no, "the range %zu.=%zu runs backwards; write `PUT %zu.=%zu:`",
                      h.first, h.last, h.last, h.first);
        break;
      }
      if (h.cut && (h.loc == HL_LOC_BEFORE || h.loc == HL_LOC_AFTER ||
                    h.loc == HL_LOC_AFTER_BLOCK)) {
        rc = hl__fail(err, line_no, "`CUT` takes a range or a block (`CUT N.=M`, `CUT N*`), "
                                    "not a gap");
        break;
      }
      HlOp op = {.cut = h.cut, .loc = h.loc, .first = h.first, .last = h.last,
                 .at_end = h.at_end, .line_no = line_no};
      if (h.has_reg) op.reg = eddi_strdup(h.reg);
      if (h.cut && h.colon)
        eddi_edit_report_warn(report, "Ignored a trailing `:` on bodyless `CUT`. Prefer "
                                      "`CUT N.=M` / `CUT N*` without a colon.");
      bool takes_body = !h.cut && h.colon;
      if (!h.cut && !h.colon) {
        op.paste = true;
        if ((h.loc == HL_LOC_RANGE || h.loc == HL_LOC_BLOCK) && !h.has_reg) {
          /* Pasting over a range needs a named register: "PUT 2.=3" alone is
           * more likely a forgotten colon, and reading it either way could
           * write the wrong thing. */
          hl__op_free(&op);
          rc = hl__fail(err, line_no, "`PUT` over a range needs `:` before `+TEXT` rows, or "
                                      "`@name` to paste a named register (`PUT %zu.=%zu:`).",
                        h.first, h.last);
          break;
        }
      }
      array_push(&out->ops, op);
      if (takes_body) {
        open = array_back(&out->ops);
        bodyless = NULL;
      } else {
        bodyless = array_back(&out->ops);
        hl__supersede(out, report);
        bodyless = array_back(&out->ops);
      }
      continue;
    }
    if (is_rem) {
      out->rem = true;
      continue;
    }
    if (is_mv) {
      const char *dest = line + 3;
      size_t dn = n - 3;
      while (dn && (*dest == ' ')) dest++, dn--;
      eddi_free(out->move_to);
      out->move_to = eddi_strndup(dest, dn);
      continue;
    }
    if (bodyless && (line[0] == '+' || line[0] == '-')) {
      if (bodyless->cut)
        rc = hl__fail(err, line_no, "`CUT` deletes (and captures) the named lines and takes no "
                                    "body rows. To write new content, use `PUT N.=M:` with "
                                    "`+TEXT` rows.");
      else
        rc = hl__fail(err, line_no, "`PUT` without `:` is clipboard-backed and takes no body "
                                    "rows. Add `:` after the locator to write literal content "
                                    "(`PUT >40:` then `+TEXT` rows).");
      break;
    }
    size_t number;
    const char *text;
    if (hl__row(line, n, &number, &text)) {
      for (size_t k = 0; k < row_numbers.len; k++) {
        if (row_numbers.items[k] != number) continue;
        rc = hl__fail(err, line_no,
                      "two or more pasted `%zu:TEXT` read-output rows name line %zu. Such rows "
                      "are recovered as single-line `PUT %zu.=%zu:` replacements, so repeating "
                      "a number would keep only the last row and drop the rest. Write the hunk "
                      "explicitly: one `PUT %zu.=M:` header covering exactly the lines that "
                      "change, followed by `+TEXT` body rows holding their complete final "
                      "content.",
                      number, number, number, number, number);
        break;
      }
      if (rc < 0) break;
      if (number == 0) {
        rc = hl__fail(err, line_no, "line numbers start at 1");
        break;
      }
      array_push(&row_numbers, number);
      recovered_rows = true;
      HlOp op = {.loc = HL_LOC_RANGE, .first = number, .last = number, .line_no = line_no};
      eddi_strbuf_append(&op.body, text, (size_t)(line + n - text));
      eddi_strbuf_putc(&op.body, '\n');
      array_push(&out->ops, op);
      hl__supersede(out, report);
      bodyless = NULL;
      continue;
    }
    if (hl__elision_row(line, n) || hl__notice(line, n)) {
      eddi_edit_report_warn(report, "Ignored copied read-output elision row(s). Re-read elided "
                                    "ranges before editing them.");
      continue;
    }
    if (hl__starts(line, n, "*** Begin Patch") || hl__starts(line, n, "*** End Patch") ||
        hl__starts(line, n, "```"))
      continue;
    if (hl__starts(line, n, "*** ")) {
      rc = hl__fail(err, line_no,
                    "apply_patch sentinel \"%.*s\" is not valid in hashline. File sections "
                    "start with `[path#HASH]` (no `Update File:` / `Add File:` keyword). Use "
                    "`PUT N.=M:`, `CUT N.=M`, or `PUT <N:`/`PUT >N:` ops.",
                    (int)EDDI_MIN(n, (size_t)80), line);
      break;
    }
    if (hl__starts(line, n, "@@")) {
      size_t a = 0, b = 0;
      const char *p = line + 2, *end = line + n;
      while (p < end && !isdigit((unsigned char)*p)) p++;
      hl__number(&p, end, &a);
      if (p < end && *p == ',') p++, hl__number(&p, end, &b);
      rc = hl__fail(err, line_no,
                    "Recognized unified-diff hunk header \"%.*s\". Hashline does not apply "
                    "unified hunks; rewrite it as `PUT %zu.=%zu:` and prefix final body rows "
                    "with `+TEXT`.",
                    (int)EDDI_MIN(n, (size_t)80), line, a, a + (b ? b - 1 : 0));
      break;
    }
    {
      const char *p = line, *end = line + n;
      size_t a, b;
      if (hl__number(&p, end, &a) && p == end) {
        rc = hl__fail(err, line_no,
                      "hunk headers need a verb and both endpoints. Use `PUT %zu.=%zu:` to "
                      "replace, or `CUT %zu.=%zu` to delete.",
                      a, a, a, a);
        break;
      }
      p = line;
      if (hl__number(&p, end, &a) && p < end && *p == ' ' && (hl__skip_spaces(&p, end), 1) &&
          hl__number(&p, end, &b) && p == end) {
        rc = hl__fail(err, line_no,
                      "bare range hunk header \"%.*s\" is not valid. Hunk headers need a verb: "
                      "use `PUT N.=M:` or `CUT N.=M`.",
                      (int)n, line);
        break;
      }
    }
    if (line[0] == '+') {
      rc = hl__fail(err, line_no, "payload line has no preceding hunk header. Got \"%.*s\".",
                    (int)EDDI_MIN(n, (size_t)80), line);
    } else {
      rc = hl__fail(err, line_no,
                    "payload line has no preceding hunk header. Use `PUT N.=M:`, `CUT N.=M`, "
                    "or `PUT <N:`/`PUT >N:` above the body. Got \"%.*s\".",
                    (int)EDDI_MIN(n, (size_t)80), line);
    }
  }
  if (rc == 0 && open) {
    rc = hl__finish_body(open, &rows, report, err);
    if (rc == 0 && open->body.len == 0) {
      if (open->loc == HL_LOC_RANGE || open->loc == HL_LOC_BLOCK) {
        open->cut = true;
        eddi_edit_report_warn(report, "Interpreted an empty `PUT` body as deletion. Use "
                                      "`CUT N.=M` or `CUT N*` for bodyless deletes.");
      } else {
        rc = hl__fail(err, open->line_no,
                      "`PUT <N:` / `PUT >N:` promises body rows and got none. Write `+TEXT` "
                      "rows, or drop the `:` to paste a register (`PUT >N` = anonymous, `PUT "
                      ">N @name` = named).");
      }
    }
    if (rc == 0) hl__supersede(out, report);
  }
  if (rc == 0 && recovered_rows)
    eddi_edit_report_warn(report, "Recovered top-level `N:TEXT` snapshot row(s) as single-line "
                                  "`PUT N.=N:` replacements. Use explicit `PUT` headers for "
                                  "reliable edits.");
  if (rc == 0 && out->rem && out->ops.len)
    rc = eddi_error_set(err, EDDI_EINVAL, "REM deletes the file; it cannot be combined with "
                                          "line edits in the same section");
  if (rc == 0 && out->rem && out->move_to)
    rc = eddi_error_set(err, EDDI_EINVAL, "REM and MV in one section contradict each other");
  array_free(&rows);
  array_free(&row_numbers);
  array_free(&lines);
  return rc;
}

/* ---------------------------------------------------------------- blocks */

static size_t hl__indent(const EddiLine *line) {
  size_t cols = 0;
  for (size_t i = 0; i < line->len; i++) {
    if (line->bytes[i] == ' ') cols++;
    else if (line->bytes[i] == '\t') cols = (cols / 4 + 1) * 4;
    else return cols;
  }
  return SIZE_MAX; /* blank */
}

static bool hl__is_decorator(const EddiLine *line) {
  size_t i = 0;
  while (i < line->len && (line->bytes[i] == ' ' || line->bytes[i] == '\t')) i++;
  return i < line->len && line->bytes[i] == '@';
}

static size_t hl__heading(const EddiLine *line) {
  size_t level = 0;
  while (level < line->len && line->bytes[level] == '#') level++;
  return level && level <= 6 && level < line->len && line->bytes[level] == ' ' ? level : 0;
}

/* Bracket depth change over a line, skipping strings and // or # comments. */
static long hl__depth(const EddiLine *line, bool *opened) {
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
static bool hl__syntax_block(const EddiLineList *lines, size_t opener, const char *path,
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
  while (opener + 1 < n && hl__is_decorator(&lines->items[opener])) opener++;
  size_t top = opener;
  while (top > 0 && hl__is_decorator(&lines->items[top - 1])) top--;
  *first = top;
  *last = opener;
  const char *dot = path ? strrchr(path, '.') : NULL;
  size_t level = hl__heading(&lines->items[opener]);
  if (level && dot && (!strcmp(dot, ".md") || !strcmp(dot, ".markdown"))) {
    size_t i = opener + 1;
    while (i < n) {
      size_t l = hl__heading(&lines->items[i]);
      if (l && l <= level) break;
      i++;
    }
    while (i > opener + 1 && hl__indent(&lines->items[i - 1]) == SIZE_MAX) i--;
    *last = i - 1;
    return;
  }
  /* The parse tree knows best; brackets and indentation are the fallback. */
  if (hl__syntax_block(lines, opener, path, last)) return;
  /* Brackets: the opener (or the few lines of its signature) opens more
   * than it closes; the block ends where the depth comes back to zero. */
  long depth = 0;
  bool opened = false;
  size_t i = opener;
  for (; i < n && i < opener + 8; i++) {
    depth += hl__depth(&lines->items[i], &opened);
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
      depth += hl__depth(&lines->items[i], &opened);
      if (depth <= 0) break;
    }
    *last = EDDI_MIN(i, n - 1);
    return;
  }
  /* Indentation: the lines after the opener indented deeper than it. */
  size_t base = hl__indent(&lines->items[opener]);
  if (base == SIZE_MAX) return;
  size_t end = opener;
  for (size_t k = opener + 1; k < n; k++) {
    size_t ind = hl__indent(&lines->items[k]);
    if (ind == SIZE_MAX) continue;
    if (ind <= base) break;
    end = k;
  }
  *last = end;
}

/* ---------------------------------------------------------------- applying */

static int hl__check_line(size_t line, size_t count, size_t line_no, EddiError *err) {
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
      rc = hl__check_line(op->first, count, op->line_no, err);
      if (rc == 0) rc = hl__check_line(op->last, count, op->line_no, err);
      start = op->first - 1, span = op->last - op->first + 1;
      break;
    case HL_LOC_BLOCK:
    case HL_LOC_AFTER_BLOCK: {
      rc = hl__check_line(op->first, count, op->line_no, err);
      if (rc < 0) break;
      size_t first, last;
      eddi_hashline_block(&lines, op->first - 1, path, &first, &last);
      if (op->loc == HL_LOC_BLOCK) start = first, span = last - first + 1;
      else start = last + 1, span = 0;
      break;
    }
    case HL_LOC_BEFORE:
      if (op->first != 1 || count) rc = hl__check_line(op->first, count, op->line_no, err);
      start = op->first - 1;
      break;
    case HL_LOC_AFTER:
      if (!op->at_end) rc = hl__check_line(op->first, count, op->line_no, err);
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
#define HL_MAP_MAX_COST 1000

static uint64_t hl__hash(const EddiLine *line) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < line->len; i++) h = (h ^ (unsigned char)line->bytes[i]) * 1099511628211ull;
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
  for (size_t i = 0; i < an; i++) ah[i] = hl__hash(&old_lines->items[head + i]);
  for (size_t i = 0; i < bn; i++) bh[i] = hl__hash(&new_lines->items[head + i]);
  long N = (long)an, M = (long)bn, max = EDDI_MIN(N + M, (long)HL_MAP_MAX_COST);
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
