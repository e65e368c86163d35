/* matcher.h - where a block of lines sits in a file, and how to splice it.
 *
 * Every edit format (apply_patch, SEARCH/REPLACE, file.update, replace mode)
 * names the lines it changes by quoting them. Models quote with noise: lost
 * trailing blanks, a different indentation, spaces for tabs, smart quotes.
 * This one matcher decides what noise is tolerated, in levels tried in
 * order, stopping at the first level where anything fits:
 *
 *   exact  ->  trailing whitespace  ->  indentation (a consistent shift)
 *          ->  collapsed whitespace ->  Unicode punctuation (quotes, dashes,
 *                                       NBSP and other spaces)
 *
 * Words and digits are never tolerated: a line that differs in them is a
 * content mismatch. Two places that fit at the same level are ambiguous and
 * refused with both line numbers; the first is never taken.
 *
 * Every level above exact also needs the quote to keep the file's nesting
 * (every line shifted by the same columns, or the same levels at another
 * width; a re-nested quote is another block), and among places that fit at
 * a level the one indented closest to the quote wins; a tie is still
 * ambiguous, and so is a shifted place when one indented closer fits at a
 * looser level.
 *
 * Rendering keeps the file's own bytes for every line the edit keeps
 * (context), and re-indents added lines only when the match found the
 * quote indented otherwise than the file, in the file's own style. Texts
 * are LF text as documents hold them; the disk backend restores CRLF and
 * BOM on save.
 */
#ifndef EDDI_EDIT_MATCHER_H
#define EDDI_EDIT_MATCHER_H

#include "core/common.h"

/* ---------------------------------------------------------------- lines */

typedef struct {
  const char *bytes; /* borrowed */
  size_t len;        /* without the '\n' */
} EddiLine;

typedef Array(EddiLine) EddiLineList;

/* Split text into lines, borrowing from it. A final '\n' does not start an
 * empty last line; *final_newline (may be NULL) says whether there was one. */
void eddi_lines_split(const char *text, size_t len, EddiLineList *out, bool *final_newline);
/* The lines text spans: its newlines, plus one for an unterminated last line. */
size_t eddi_lines_count(const char *text, size_t len);

/* ---------------------------------------------------------------- hunks */

typedef enum {
  HUNK_CONTEXT, /* in the file before and after: keeps the file's bytes */
  HUNK_DELETE,  /* in the file before only */
  HUNK_ADD,     /* in the file after only */
} EddiHunkKind;

typedef struct {
  EddiHunkKind kind;
  EddiLine line; /* the payload's version, borrowed */
} EddiHunkLine;

typedef Array(EddiHunkLine) EddiHunk;

/* The hunk's old side (context and deleted lines). */
void eddi_hunk_old_side(const EddiHunk *self, EddiLineList *out);

/* ---------------------------------------------------------------- matching */

typedef enum {
  MATCH_EXACT,
  MATCH_TRAILING,  /* trailing whitespace ignored */
  MATCH_INDENT,    /* leading whitespace shifted consistently */
  MATCH_COLLAPSED, /* runs of whitespace equal to one space */
  MATCH_PUNCT,     /* and Unicode quotes, dashes, spaces as ASCII */
  MATCH_LEVELS,
} EddiMatchLevel;

/* Candidate positions reported for an ambiguous match. */
#define EDDI_MATCH_CANDIDATES_MAX 8

typedef struct {
  size_t start; /* first file line, 0-based */
  size_t count; /* lines matched */
  EddiMatchLevel level;
  size_t candidates[EDDI_MATCH_CANDIDATES_MAX]; /* when ambiguous */
  size_t candidate_count;                       /* all that fit, even past the max */
  bool first_inline; /* found by eddi_match_find_inline with its first line inside a line */
} EddiMatch;

enum {
  EDDI_MATCH_FOUND = 1,
  EDDI_MATCH_NONE = 0,
  EDDI_MATCH_AMBIGUOUS = 2,
};

/* Find pattern in file lines [from, to). at_end: the block must end at the
 * last line. Returns EDDI_MATCH_FOUND (out filled), EDDI_MATCH_NONE, or
 * EDDI_MATCH_AMBIGUOUS (out->candidates filled). An empty pattern is NONE.
 * Above the exact level a place fits only when the quote keeps its nesting
 * (see match__indent_rank in matcher.c); of the places that
 * fit at one level, those indented closest to the quote are kept (the same
 * bytes, then the smallest shift), and more than one of them is ambiguous;
 * a shifted place is ambiguous too when a place indented closer fits at a
 * looser level. */
int eddi_match_find(const EddiLineList *file, size_t from, size_t to,
                    const EddiLineList *pattern, bool at_end, EddiMatch *out);

/* As eddi_match_find over the whole file, for replace mode's old_string,
 * which byte for byte may start inside a line: a first line with no
 * indentation may stand for the rest of an indented line, so its
 * indentation does not count for nesting, and eddi_match_render puts the
 * file's indentation of that line before the first new line (and shifts no
 * other line for it; with no new line, the indentation alone, without a
 * newline, as the byte for byte replacement leaves it). */
int eddi_match_find_inline(const EddiLineList *file, const EddiLineList *pattern,
                           EddiMatch *out);

const char *eddi_match_level_name(EddiMatchLevel level);

/* Where the file comes closest to the pattern (most lines equal up to
 * punctuation and whitespace), for the hint of a failed match: *start and
 * *count are file lines; false when nothing resembles it. */
bool eddi_match_nearest(const EddiLineList *file, const EddiLineList *pattern, size_t *start,
                        size_t *count);

/* Whether pattern fits file lines from start but for its indentation (it
 * re-nests a line), so a refusal can say so. */
bool eddi_match_misnested(const EddiLineList *file, const EddiLineList *pattern, size_t start);

/* The new text of a matched hunk: context lines from the file, added lines
 * from the payload, each line ending in '\n'. Added lines are re-indented
 * only when some quoted line is indented otherwise than the file's line:
 * an indentation the quote used becomes the file's for it, another moves as
 * the nearest quoted one above it did, in the file's tabs or spaces. */
void eddi_match_render(const EddiLineList *file, const EddiMatch *match, const EddiHunk *hunk,
                       StrBuf *out);

/* The hunk that turns the file's lines at match, quoted as old (one line
 * per matched line), into new_lines, by a line diff: a file line the new
 * version holds as it would be written (re-indented as eddi_match_render
 * does) is context; where they differ, a line the quote and the new version
 * share byte for byte is context too (it keeps the file's bytes); the rest
 * is deleted and added. Lines borrow from old and new_lines. */
void eddi_hunk_from_match(EddiHunk *self, const EddiLineList *file, const EddiMatch *match,
                          const EddiLineList *old, const EddiLineList *new_lines);

/* Append "N:TEXT" rows for file lines [start, start+count) (1-based
 * numbers), each cut to width characters (0: whole). */
void eddi_lines_format(const EddiLineList *lines, size_t start, size_t count, size_t width,
                       StrBuf *out);

/* ---------------------------------------------------------------- splices */

/* Replace file lines [start, start+count) with text (whole lines, each
 * ending in '\n'; empty text deletes). */
typedef struct {
  size_t start;
  size_t count;
  StrBuf text;
  size_t order; /* insertion order, to keep inserts at one gap in order */
} EddiSplice;

typedef Array(EddiSplice) EddiSpliceList;

/* Takes ownership of text's bytes (text is left empty). */
void eddi_splices_add(EddiSpliceList *self, size_t start, size_t count, StrBuf *text);
void eddi_splices_free(EddiSpliceList *self);

/* A changed region of the new text, in new line numbers (0-based). */
typedef struct {
  size_t start;
  size_t count; /* 0: lines were only removed here */
} EddiChangedRange;

typedef Array(EddiChangedRange) EddiChangedList;

/* Apply splices (any order; sorted here) to file, appending the new text to
 * out; final_newline says whether the result ends in '\n' (when it has
 * lines). Overlapping splices are refused: EDDI_EINVAL with the two ranges
 * in err. changed (may be NULL) receives the new text's changed ranges. */
int eddi_splices_apply(EddiSpliceList *self, const EddiLineList *file, bool final_newline,
                       StrBuf *out, EddiChangedList *changed, EddiError *err);

/* "N:TEXT" rows around the changed ranges of text (one line of context,
 * at most max_rows rows, "..." between distant regions). */
void eddi_preview(const char *text, size_t len, const EddiChangedList *changed,
                  size_t max_rows, StrBuf *out);

/* Rows shown around an edit in a reply. */
#define EDDI_PREVIEW_ROWS 24
/* Characters of a line shown in a hint. */
#define EDDI_HINT_LINE_WIDTH 60

#endif
