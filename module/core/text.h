/* text.h - the text store: UTF-8 bytes with a line index.
 *
 * The text is kept in chunks of a few KiB, each knowing its byte length,
 * newline count and character count. Finding a line or an offset asks an
 * index over the chunk summaries (a Fenwick tree of their byte, newline and
 * character counts: O(log chunks) to find a chunk or update its counts) and
 * then looks inside one chunk; an edit touches one chunk. A chunk split or
 * merge (every few KiB of edits) marks the index stale and the next lookup
 * rebuilds it in one pass. That keeps every operation O(log(file/chunk) +
 * chunk) with a memory overhead of a few percent, where a gap buffer pays a
 * memmove of the distance between edits and a per-line index pays a shift
 * of every later line. Lines and columns are computed, never stored.
 *
 * Offsets are byte offsets into the text. Line n starts after the n-th
 * newline; a text with k newlines has k + 1 line slots (the last may be empty).
 */
#ifndef EDDI_TEXT_H
#define EDDI_TEXT_H

#include "core/common.h"

/* Chunk sizes: loading fills chunks to TARGET; an insert splits a chunk that
 * would grow past MAX; a delete merges neighbours that fit in TARGET. */
#define EDDI_TEXT_CHUNK_TARGET 8192
#define EDDI_TEXT_CHUNK_MAX 16384

typedef struct {
  char *bytes;
  uint32_t len;
  uint32_t cap;
  uint32_t newlines;
  uint32_t chars;
} TextChunk;

/* Where a chunk starts, counted in bytes, newlines and characters. */
typedef struct {
  size_t index;
  size_t start;
  size_t newlines;
  size_t chars;
} TextSpot;

/* Byte, newline and character counts of a run of chunks. */
typedef struct {
  size_t len;
  size_t newlines;
  size_t chars;
} TextSums;

typedef struct {
  Array(TextChunk) chunks;
  /* The index: a Fenwick tree over the chunks (node k, 1-based, sums the
   * chunks (k - lowbit(k), k]); valid only while index_len == chunks.len
   * and index_stale is false. */
  TextSums *index;
  size_t index_cap;
  size_t index_len;
  bool index_stale;
  /* eddi_text_take's buffer, when chunks are slices of it (a chunk that
   * grows moves out to bytes of its own); freed with its last slice. */
  char *slab;
  size_t slab_len;
  size_t slab_live; /* chunks still in it */
  size_t len;      /* bytes */
  size_t newlines; /* '\n' count */
  size_t chars;    /* characters */
  /* The chunk the last lookup stopped at: lookups that move forward (a
   * search listing lines, the next Goto nearby) start from it. A cache, so
   * const lookups update it; any edit resets it. */
  TextSpot hint;
} EddiText;

void eddi_text_init(EddiText *self);
void eddi_text_free(EddiText *self);
/* Replace the whole text with a copy of bytes. */
void eddi_text_set(EddiText *self, const char *bytes, size_t len);
/* The same, taking bytes (left empty): a large buffer becomes the slab the
 * chunks are slices of, so a large file is neither copied nor held twice. */
void eddi_text_take(EddiText *self, StrBuf *bytes);
/* Replace bytes [start, end) with a copy of bytes[0, len). Offsets must be
 * within the text and on character boundaries (the caller checks). */
void eddi_text_replace(EddiText *self, size_t start, size_t end, const char *bytes,
                       size_t len);

/* One replacement of a batch: bytes [start, end) become bytes[0, len). */
typedef struct {
  size_t start;
  size_t end;
  const char *bytes;
  size_t len;
} TextReplacement;

/* Apply count replacements, sorted and not overlapping, with offsets in the
 * current text, in one pass over the span they cover (Replace All). */
void eddi_text_replace_many(EddiText *self, const TextReplacement *edits, size_t count);

static inline size_t eddi_text_len(const EddiText *self) { return self->len; }
/* Number of line slots: newlines + 1. */
static inline size_t eddi_text_line_slots(const EddiText *self) {
  return self->newlines + 1;
}
/* Lines as a person counts them: a final newline does not start a new line,
 * and an empty text has none. */
size_t eddi_text_line_count(const EddiText *self);

/* Byte offset where line starts; line <= newlines. */
size_t eddi_text_line_start(const EddiText *self, size_t line);
/* Byte offset of the end of line (its '\n', or the text end). */
size_t eddi_text_line_end(const EddiText *self, size_t line);
/* Offset of the first '\n' at or after offset, or the text's length. */
size_t eddi_text_next_newline(const EddiText *self, size_t offset);
/* The line holding byte offset (offset <= len). */
size_t eddi_text_line_at(const EddiText *self, size_t offset);

/* Character index of byte offset, and back (clamped to the text end). */
size_t eddi_text_char_index(const EddiText *self, size_t offset);
size_t eddi_text_byte_offset(const EddiText *self, size_t char_index);

/* line:col (col in characters) to a byte offset; EDDI_EINVAL when the position
 * is not in the text. */
int eddi_text_offset_of(const EddiText *self, size_t line, size_t col, size_t *offset);
/* Byte offset to line:col. */
void eddi_text_position_of(const EddiText *self, size_t offset, size_t *line, size_t *col);

/* Copy bytes [start, end) to out (no terminator). */
void eddi_text_copy(const EddiText *self, size_t start, size_t end, char *out);
/* New NUL-terminated copy of [start, end); caller frees with eddi_free. */
char *eddi_text_dup(const EddiText *self, size_t start, size_t end);
/* The byte at offset (offset < len). */
char eddi_text_byte_at(const EddiText *self, size_t offset);
/* The bytes from offset to the end of the chunk holding it, read in place,
 * for a reader that asks for text a run at a time (tree-sitter's TSInput):
 * borrowed, valid until the text changes. *len receives their count; at or
 * past the end of the text it is 0 and the bytes are "". Lookups moving
 * forward cost O(1), others O(log chunks). */
const char *eddi_text_chunk_at(const EddiText *self, size_t offset, size_t *len);
/* A run of whole lines, for searching the text without copying it: most
 * segments are a chunk's own bytes read in place; a line that crosses a chunk
 * boundary is copied into the caller's scratch buffer. A segment starts at a
 * line start and ends after a newline (or at the text end), so a regex sees
 * line starts and UTF-8 characters whole. */
typedef struct {
  const char *bytes;
  size_t len;
  size_t offset; /* of bytes[0] in the text */
} TextSegment;

/* Where a walk over segments is: the next byte and the chunk holding it. */
typedef struct {
  size_t pos;
  size_t chunk;
  size_t chunk_start;
} TextWalk;

/* Start walking at pos, which must be a line start. */
void eddi_text_walk_begin(const EddiText *self, size_t pos, TextWalk *walk);
/* The next segment; false at the end of the text. */
bool eddi_text_next_segment(const EddiText *self, TextWalk *walk, StrBuf *scratch,
                            TextSegment *out);

/* out (made anew) = src with edits applied (sorted, not overlapping, in
 * src's frame): one flat pass, kept as out's slab (eddi_text_take). */
void eddi_text_build_replaced(const EddiText *src, const TextReplacement *edits, size_t count,
                              EddiText *out);

/* A view of src for another thread: its own chunk array, index and hint
 * over src's chunk bytes, which it borrows. Valid while src is not edited;
 * free with eddi_text_view_free, never eddi_text_free. */
void eddi_text_view(const EddiText *src, EddiText *view);
void eddi_text_view_free(EddiText *view);

/* The '\n' bytes of bytes[0, len), counted as the chunks count theirs. */
size_t eddi_text_count_newlines(const char *bytes, size_t len);

/* Bytes actually held, for memory accounting. */
size_t eddi_text_footprint(const EddiText *self);

#endif
