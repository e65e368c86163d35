/* hashline_parse.c - reading a hashline section body into operations; see
 * hashline.h for the language and hashline.c for applying it.
 *
 * Models paste read output, diff rows and apply_patch headers into hashline
 * bodies. Each mistake with one safe reading is accepted with a warning
 * naming the right form; a mistake with two readings is refused, because a
 * wrong guess writes wrong text. The warnings name the form to use, so the
 * next edit comes right. */
#define _GNU_SOURCE /* memmem */
#include "edit/hashline.h"

#include <ctype.h>
#include <stdarg.h>

/* Line numbers stop growing here: a number this large names no line, and
 * the cap keeps the parse from overflowing on a run of digits. */
#define HASHLINE_NUMBER_MAX 100000000

/* ---------------------------------------------------------------- parsing */

static void hashline__op_free(HlOp *op) {
  eddi_free(op->reg);
  eddi_strbuf_free(&op->body);
}

void eddi_hashline_section_free(HlSection *self) {
  for (size_t i = 0; i < self->ops.len; i++) hashline__op_free(&self->ops.items[i]);
  array_free(&self->ops);
  eddi_free(self->move_to);
  memset(self, 0, sizeof *self);
}

static int hashline__fail(EddiError *err, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int hashline__fail(EddiError *err, size_t line, const char *fmt, ...) {
  char what[EDDI_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return eddi_error_set(err, EDDI_EINVAL, "line %zu: %s", line, what);
}

/* A number at *p (advanced past it); false when none. */
static bool hashline__number(const char **p, const char *end, size_t *value) {
  const char *q = *p;
  size_t v = 0;
  while (q < end && isdigit((unsigned char)*q) && v < HASHLINE_NUMBER_MAX)
    v = v * 10 + (size_t)(*q++ - '0');
  if (q == *p) return false;
  *p = q;
  *value = v;
  return true;
}

static void hashline__skip_spaces(const char **p, const char *end) {
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
  char reg[EDDI_QUOTE_WORD_MAX]; /* a longer name is not a register */
  bool has_reg;
} HlHeader;

/* Parse a header ("PUT 2.=3:", "CUT 4* @fn", "2.=3:"); false when line is
 * not one. */
static bool hashline__header(const char *line, size_t len, HlHeader *h) {
  memset(h, 0, sizeof *h);
  const char *p = line, *end = line + len;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
  if (end - p >= 4 && (memcmp(p, "PUT ", 4) == 0 || memcmp(p, "CUT ", 4) == 0)) {
    h->verb = true;
    h->cut = p[0] == 'C';
    p += 4;
    hashline__skip_spaces(&p, end);
  }
  if (p < end && (*p == '<' || *p == '>')) {
    h->loc = *p == '<' ? HL_LOC_BEFORE : HL_LOC_AFTER;
    p++;
    hashline__skip_spaces(&p, end);
    if (h->loc == HL_LOC_AFTER && p < end && *p == '$') {
      h->at_end = true;
      p++;
    } else if (!hashline__number(&p, end, &h->first)) {
      return false;
    }
    h->last = h->first;
    if (p < end && *p == '*') {
      if (h->loc != HL_LOC_AFTER || h->at_end) return false;
      h->loc = HL_LOC_AFTER_BLOCK;
      p++;
    }
  } else {
    if (!hashline__number(&p, end, &h->first)) return false;
    h->last = h->first;
    h->loc = HL_LOC_RANGE;
    if (p < end && *p == '*') {
      h->loc = HL_LOC_BLOCK;
      p++;
    } else if (end - p >= 2 && p[0] == '.' && p[1] == '=') {
      p += 2;
      if (!hashline__number(&p, end, &h->last)) h->dangling = true, h->last = h->first;
      else h->ranged = true;
    } else if (p < end && *p == '-') {
      p++;
      if (!hashline__number(&p, end, &h->last)) h->dangling = true, h->last = h->first;
      else h->ranged = true;
    }
  }
  hashline__skip_spaces(&p, end);
  if (p < end && *p == '@') {
    const char *name = ++p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')) p++;
    size_t n = (size_t)(p - name);
    if (n == 0 || n >= sizeof h->reg) return false;
    memcpy(h->reg, name, n);
    h->has_reg = true;
    hashline__skip_spaces(&p, end);
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
static bool hashline__row(const char *line, size_t len, size_t *number, const char **text) {
  const char *p = line, *end = line + len;
  if (!hashline__number(&p, end, number) || p >= end || (*p != ':' && *p != '|')) return false;
  *text = p + 1;
  return true;
}

/* "N-M:TEXT", the elided rows of a folded read. */
static bool hashline__elision_row(const char *line, size_t len) {
  const char *p = line, *end = line + len;
  size_t a, b;
  if (!hashline__number(&p, end, &a) || p >= end || *p != '-') return false;
  p++;
  return hashline__number(&p, end, &b) && p < end && *p == ':';
}

static bool hashline__notice(const char *line, size_t len) {
  return len > 1 && line[0] == '[' &&
         (memmem(line, len, "elided", 6) || memmem(line, len, "Showing", 7) ||
          memmem(line, len, "\xE2\x80\xA6", 3));
}

static bool hashline__starts(const char *line, size_t len, const char *prefix) {
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

static bool hashline__bullet(const HlRow *row) { return row->len >= 1 && row->text[0] == ' '; }

/* Turn an op's collected rows into its body, applying the leniencies. */
static int hashline__finish_body(HlOp *op, HlRowList *rows, EddiEditReport *report,
                                 EddiError *err) {
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
      if (hashline__bullet(r)) minus_bullets++;
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
      return hashline__fail(err, first_minus->line_no,
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
    if (!hashline__row(r->text, r->len, &n, &text) || n < op->first || n > op->last ||
        n <= previous)
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
      hashline__row(text, len, &n, &rest);
      len -= (size_t)(rest - text);
      text = rest;
    }
    eddi_strbuf_append(&op->body, text, len);
    eddi_strbuf_putc(&op->body, '\n');
  }
  return 0;
}

/* Two ops over the same exact range: the later one wins. */
static void hashline__supersede(HlSection *out, EddiEditReport *report) {
  HlOp *last = array_back(&out->ops);
  if (last->loc != HL_LOC_RANGE && last->loc != HL_LOC_BLOCK) return;
  for (size_t i = 0; i + 1 < out->ops.len; i++) {
    HlOp *op = &out->ops.items[i];
    if (op->loc == last->loc && op->first == last->first && op->last == last->last) {
      hashline__op_free(op);
      array_remove(&out->ops, i);
      eddi_edit_report_warn(report, "Multiple hunks targeted the same exact range; kept only "
                                    "the last. Issue one `PUT` or `CUT` hunk per range.");
      return;
    }
  }
}

/* The rows of open are all read: they become its body. An empty body over
 * a range or a block deletes it; at a gap it is refused, since the model
 * meant to write something there. */
static int hashline__close(HlSection *out, HlOp *open, HlRowList *rows, EddiEditReport *report,
                           EddiError *err) {
  int rc = hashline__finish_body(open, rows, report, err);
  array_clear(rows);
  if (rc == 0 && open->body.len == 0) {
    if (open->loc == HL_LOC_RANGE || open->loc == HL_LOC_BLOCK) {
      open->cut = true; /* an empty replacement deletes */
      eddi_edit_report_warn(report, "Interpreted an empty `PUT` body as deletion. Use "
                                    "`CUT N.=M` or `CUT N*` for bodyless deletes.");
    } else {
      rc = hashline__fail(err, open->line_no,
                          "`PUT <N:` / `PUT >N:` promises body rows and got none. Write `+TEXT` "
                          "rows, or drop the `:` to paste a register (`PUT >N` = anonymous, "
                          "`PUT >N @name` = named).");
    }
  }
  if (rc == 0) hashline__supersede(out, report);
  return rc;
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
    bool is_header = hashline__header(line, n, &h);
    bool is_rem = n == 3 && memcmp(line, "REM", 3) == 0;
    bool is_mv = n > 3 && memcmp(line, "MV ", 3) == 0;
    if (open && !is_header && !is_rem && !is_mv) {
      HlRow row = {ROW_BARE, line, n, line_no};
      if (n == 0) row.kind = ROW_BLANK;
      else if (line[0] == '+') row.kind = ROW_PLUS, row.text++, row.len--;
      else if (line[0] == '-') row.kind = ROW_MINUS, row.text++, row.len--;
      HlHeader inner;
      if (row.kind == ROW_PLUS && hashline__header(row.text, row.len, &inner) && inner.verb)
        eddi_edit_report_warn(report,
                              "line %zu: body row `%.*s` is itself a valid hunk header, so it "
                              "was inserted into the file as literal text rather than "
                              "executed. Ops are never `+`-prefixed — drop the `+` to run it, "
                              "and re-issue if this line landed in the file by mistake.",
                              line_no, (int)EDDI_MIN(n, EDDI_QUOTE_LINE_MAX), line);
      array_push(&rows, row);
      continue;
    }
    if (open) {
      rc = hashline__close(out, open, &rows, report, err);
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
        rc = hashline__fail(err, line_no, "line numbers start at 1 (`PUT <1:` inserts at the top)");
        break;
      }
      if (h.last < h.first) {
        rc =
            hashline__fail(err, line_no, "the range %zu.=%zu runs backwards; write `PUT %zu.=%zu:`",
                           h.first, h.last, h.last, h.first);
        break;
      }
      if (h.cut && (h.loc == HL_LOC_BEFORE || h.loc == HL_LOC_AFTER ||
                    h.loc == HL_LOC_AFTER_BLOCK)) {
        rc = hashline__fail(err, line_no,
                            "`CUT` takes a range or a block (`CUT N.=M`, `CUT N*`), "
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
          hashline__op_free(&op);
          rc = hashline__fail(err, line_no,
                              "`PUT` over a range needs `:` before `+TEXT` rows, or "
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
        hashline__supersede(out, report);
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
        rc = hashline__fail(err, line_no,
                            "`CUT` deletes (and captures) the named lines and takes no "
                            "body rows. To write new content, use `PUT N.=M:` with "
                            "`+TEXT` rows.");
      else
        rc = hashline__fail(err, line_no,
                            "`PUT` without `:` is clipboard-backed and takes no body "
                            "rows. Add `:` after the locator to write literal content "
                            "(`PUT >40:` then `+TEXT` rows).");
      break;
    }
    size_t number;
    const char *text;
    if (hashline__row(line, n, &number, &text)) {
      for (size_t k = 0; k < row_numbers.len; k++) {
        if (row_numbers.items[k] != number) continue;
        rc = hashline__fail(
            err, line_no,
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
        rc = hashline__fail(err, line_no, "line numbers start at 1");
        break;
      }
      array_push(&row_numbers, number);
      recovered_rows = true;
      HlOp op = {.loc = HL_LOC_RANGE, .first = number, .last = number, .line_no = line_no};
      eddi_strbuf_append(&op.body, text, (size_t)(line + n - text));
      eddi_strbuf_putc(&op.body, '\n');
      array_push(&out->ops, op);
      hashline__supersede(out, report);
      bodyless = NULL;
      continue;
    }
    if (hashline__elision_row(line, n) || hashline__notice(line, n)) {
      eddi_edit_report_warn(report, "Ignored copied read-output elision row(s). Re-read elided "
                                    "ranges before editing them.");
      continue;
    }
    if (hashline__starts(line, n, "*** Begin Patch") ||
        hashline__starts(line, n, "*** End Patch") || hashline__starts(line, n, "```"))
      continue;
    if (hashline__starts(line, n, "*** ")) {
      rc = hashline__fail(err, line_no,
                          "apply_patch sentinel \"%.*s\" is not valid in hashline. File sections "
                          "start with `[path#HASH]` (no `Update File:` / `Add File:` keyword). Use "
                          "`PUT N.=M:`, `CUT N.=M`, or `PUT <N:`/`PUT >N:` ops.",
                          (int)EDDI_MIN(n, EDDI_QUOTE_LINE_MAX), line);
      break;
    }
    if (hashline__starts(line, n, "@@")) {
      size_t a = 0, b = 0;
      const char *p = line + 2, *end = line + n;
      while (p < end && !isdigit((unsigned char)*p)) p++;
      hashline__number(&p, end, &a);
      if (p < end && *p == ',') p++, hashline__number(&p, end, &b);
      rc = hashline__fail(err, line_no,
                          "Recognized unified-diff hunk header \"%.*s\". Hashline does not apply "
                          "unified hunks; rewrite it as `PUT %zu.=%zu:` and prefix final body rows "
                          "with `+TEXT`.",
                          (int)EDDI_MIN(n, EDDI_QUOTE_LINE_MAX), line, a, a + (b ? b - 1 : 0));
      break;
    }
    {
      const char *p = line, *end = line + n;
      size_t a, b;
      if (hashline__number(&p, end, &a) && p == end) {
        rc = hashline__fail(err, line_no,
                            "hunk headers need a verb and both endpoints. Use `PUT %zu.=%zu:` to "
                            "replace, or `CUT %zu.=%zu` to delete.",
                            a, a, a, a);
        break;
      }
      p = line;
      if (hashline__number(&p, end, &a) && p < end && *p == ' ' &&
          (hashline__skip_spaces(&p, end), 1) && hashline__number(&p, end, &b) && p == end) {
        rc = hashline__fail(
            err, line_no,
            "bare range hunk header \"%.*s\" is not valid. Hunk headers need a verb: "
            "use `PUT N.=M:` or `CUT N.=M`.",
            (int)n, line);
        break;
      }
    }
    if (line[0] == '+') {
      rc = hashline__fail(err, line_no, "payload line has no preceding hunk header. Got \"%.*s\".",
                          (int)EDDI_MIN(n, EDDI_QUOTE_LINE_MAX), line);
    } else {
      rc = hashline__fail(err, line_no,
                          "payload line has no preceding hunk header. Use `PUT N.=M:`, `CUT N.=M`, "
                          "or `PUT <N:`/`PUT >N:` above the body. Got \"%.*s\".",
                          (int)EDDI_MIN(n, EDDI_QUOTE_LINE_MAX), line);
    }
  }
  if (rc == 0 && open) rc = hashline__close(out, open, &rows, report, err);
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
