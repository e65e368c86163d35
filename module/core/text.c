/* text.c - the chunked text store; see text.h for why chunks. */
#define _GNU_SOURCE /* memrchr */
#include "core/text.h"

#include <sys/mman.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
/* Blocks of 16 bytes a byte counter takes before it must be summed (a
 * counter goes up by at most one a block and holds 255). */
#define TEXT_COUNT_ROUNDS 255
#endif

#include "core/utf8.h"

/* ---------------------------------------------------------------- chunks */

/* Newlines and characters (bytes that are not UTF-8 continuation bytes,
 * 10xxxxxx) in one pass: lines are short, so a memchr call per line costs
 * more than looking at every byte. Eight bytes at a time: for each byte of
 * x = word ^ "\n\n..", the high bit of ~(((x & 0x7F..) + 0x7F..) | x |
 * 0x7F..) is set exactly when the byte was a newline (x's byte is 0); a
 * continuation byte has its high bit set and the next clear; the multiply
 * adds the eight flags up in the top byte. */
static void text__count(const char *bytes, size_t len, size_t *newlines, size_t *chars) {
  const uint64_t newline_bytes = 0x0A0A0A0A0A0A0A0AULL, low7 = 0x7F7F7F7F7F7F7F7FULL;
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  size_t lines = 0, continuations = 0, i = 0;
#ifdef __SSE2__
  /* Sixteen bytes at a time where the CPU has SSE2 (every x86-64): each
   * compare gives 0xFF per matching byte, subtracted into byte counters
   * that are summed (psadbw) before they can wrap. */
  const __m128i newline = _mm_set1_epi8('\n'), below = _mm_set1_epi8(-64), zero = _mm_setzero_si128();
  while (i + 16 <= len) {
    __m128i lines16 = zero, cont16 = zero;
    size_t rounds = EDDI_MIN((size_t)TEXT_COUNT_ROUNDS, (len - i) / 16);
    for (size_t r = 0; r < rounds; r++, i += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(bytes + i));
      lines16 = _mm_sub_epi8(lines16, _mm_cmpeq_epi8(v, newline));
      cont16 = _mm_sub_epi8(cont16, _mm_cmplt_epi8(v, below)); /* 0x80..0xBF */
    }
    __m128i a = _mm_sad_epu8(lines16, zero), b = _mm_sad_epu8(cont16, zero);
    lines += (size_t)_mm_cvtsi128_si64(a) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(a, a));
    continuations +=
        (size_t)_mm_cvtsi128_si64(b) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(b, b));
  }
#endif
  for (; i + 8 <= len; i += 8) {
    uint64_t word;
    memcpy(&word, bytes + i, 8);
    uint64_t x = word ^ newline_bytes;
    uint64_t flags = ~(((x & low7) + low7) | x | low7) >> 7;
    lines += (size_t)((flags * ones) >> 56);
    uint64_t cont = (word & ~(word << 1) & high) >> 7;
    continuations += (size_t)((cont * ones) >> 56);
  }
  for (; i < len; i++) {
    lines += bytes[i] == '\n';
    continuations += ((unsigned char)bytes[i] & 0xC0) == 0x80;
  }
  *newlines = lines;
  *chars = len - continuations;
}

static size_t text__count_newlines(const char *bytes, size_t len) {
  size_t newlines, chars;
  text__count(bytes, len, &newlines, &chars);
  return newlines;
}

/* Round a capacity up so small inserts do not realloc every time. */
static uint32_t text__capacity_for(size_t len) {
  size_t cap = (len + 255) & ~(size_t)255;
  return (uint32_t)EDDI_MIN(EDDI_MAX(cap, len), (size_t)EDDI_TEXT_CHUNK_MAX);
}

static TextChunk text__chunk_new(const char *bytes, size_t len) {
  TextChunk chunk = {0};
  chunk.cap = text__capacity_for(len);
  chunk.bytes = eddi_malloc(chunk.cap);
  memcpy(chunk.bytes, bytes, len);
  chunk.len = (uint32_t)len;
  size_t newlines, chars;
  text__count(bytes, len, &newlines, &chars);
  chunk.newlines = (uint32_t)newlines;
  chunk.chars = (uint32_t)chars;
  return chunk;
}

/* ---------------------------------------------------------------- the index */

static void text__sums_add(TextSums *into, const TextSums *what) {
  into->len += what->len;
  into->newlines += what->newlines;
  into->chars += what->chars;
}

/* Build the Fenwick tree over the chunks in one pass: each node adds its
 * own chunk and hands its sum up to its parent. */
static void text__index_build(EddiText *self) {
  size_t n = self->chunks.len;
  if (self->index_cap < n + 1) {
    eddi_free(self->index);
    self->index_cap = EDDI_MAX(n + 1, 2 * self->index_cap);
    self->index = eddi_malloc(self->index_cap * sizeof *self->index);
  }
  memset(self->index, 0, (n + 1) * sizeof *self->index);
  for (size_t k = 1; k <= n; k++) {
    const TextChunk *chunk = &self->chunks.items[k - 1];
    text__sums_add(&self->index[k], &(TextSums){chunk->len, chunk->newlines, chunk->chars});
    size_t parent = k + (k & -k);
    if (parent <= n) text__sums_add(&self->index[parent], &self->index[k]);
  }
  self->index_len = n;
  self->index_stale = false;
}

/* The chunks changed in number: the index is rebuilt on the next lookup. */
static void text__index_stale(EddiText *self) { self->index_stale = true; }

/* Chunk i's counts grew by delta (wrapping subtraction for a shrink: the
 * sums stay exact modulo 2^64, and every node ends up non-negative). */
static void text__index_add(EddiText *self, size_t i, size_t len, size_t newlines, size_t chars) {
  if (self->index_stale || self->index_len != self->chunks.len) return;
  for (size_t k = i + 1; k <= self->index_len; k += k & -k) {
    self->index[k].len += len;
    self->index[k].newlines += newlines;
    self->index[k].chars += chars;
  }
}

static size_t text__sums_key(const TextSums *sums, int kind);

/* ---------------------------------------------------------------- chunk bytes */

static bool text__in_slab(const EddiText *self, const char *bytes) {
  return self->slab && bytes >= self->slab && bytes < self->slab + self->slab_len;
}

/* A chunk's slice of the slab is no longer used: its whole pages go back
 * to the system now (their contents are not read again), and the slab
 * itself when it was the last. */
static void text__slab_release(EddiText *self, const TextChunk *chunk) {
  long page = sysconf(_SC_PAGESIZE);
  if (page > 0) {
    uintptr_t from = ((uintptr_t)chunk->bytes + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t to = ((uintptr_t)chunk->bytes + chunk->cap) & ~((uintptr_t)page - 1);
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
  }
  if (--self->slab_live == 0) {
    eddi_free(self->slab);
    self->slab = NULL;
    self->slab_len = 0;
  }
}

static void text__bytes_free(EddiText *self, TextChunk *chunk) {
  if (text__in_slab(self, chunk->bytes)) text__slab_release(self, chunk);
  else eddi_free(chunk->bytes);
  chunk->bytes = NULL;
}

/* Give chunk room for cap bytes (a slab slice moves out to its own). */
static void text__bytes_grow(EddiText *self, TextChunk *chunk, uint32_t cap) {
  if (text__in_slab(self, chunk->bytes)) {
    char *own = eddi_malloc(cap);
    memcpy(own, chunk->bytes, chunk->len);
    text__slab_release(self, chunk);
    chunk->bytes = own;
  } else {
    chunk->bytes = eddi_realloc(chunk->bytes, cap);
  }
  chunk->cap = cap;
}

/* ---------------------------------------------------------------- chunks */

static void text__insert_chunks(EddiText *self, size_t at, const TextChunk *chunks,
                                size_t count) {
  text__index_stale(self);
  array_reserve(&self->chunks, self->chunks.len + count);
  memmove(&self->chunks.items[at + count], &self->chunks.items[at],
          (self->chunks.len - at) * sizeof(TextChunk));
  memcpy(&self->chunks.items[at], chunks, count * sizeof(TextChunk));
  self->chunks.len += count;
}

typedef enum { SEEK_BYTE, SEEK_LINE, SEEK_CHAR } TextSeekKind;

static size_t text__sums_key(const TextSums *sums, int kind) {
  return kind == SEEK_BYTE ? sums->len : kind == SEEK_LINE ? sums->newlines : sums->chars;
}

/* Whether the chunk at spot holds target (see text__seek). */
static bool text__spot_holds(const EddiText *self, const TextSpot *spot, TextSeekKind kind,
                             size_t target) {
  if (spot->index >= self->chunks.len) return false;
  const TextChunk *chunk = &self->chunks.items[spot->index];
  bool last = spot->index + 1 == self->chunks.len;
  switch (kind) {
  case SEEK_BYTE: return spot->start <= target && (last || target < spot->start + chunk->len);
  case SEEK_LINE:
    return spot->newlines < target && (last || target <= spot->newlines + chunk->newlines);
  case SEEK_CHAR: return spot->chars <= target && (last || target < spot->chars + chunk->chars);
  }
  return false;
}

/* The chunk holding a target: a byte offset, the n-th newline (n >= 1), or
 * a character index. A byte offset at a chunk boundary belongs to the chunk
 * it starts; targets at the text end to the last chunk. The hint's chunk or
 * the one after it answers lookups that move forward; else the index: the
 * first chunk whose running count passes the target (for a line, reaches
 * it). The text must have a chunk. */
static TextSpot text__seek(const EddiText *self, TextSeekKind kind, size_t target) {
  EddiText *text = (EddiText *)self; /* the hint and the index are caches */
  TextSpot spot = self->hint;
  if (text__spot_holds(self, &spot, kind, target)) return spot;
  if (spot.index + 1 < self->chunks.len && spot.index < self->chunks.len) {
    const TextChunk *chunk = &self->chunks.items[spot.index];
    TextSpot next = {spot.index + 1, spot.start + chunk->len, spot.newlines + chunk->newlines,
                     spot.chars + chunk->chars};
    if (text__spot_holds(self, &next, kind, target)) return text->hint = next;
  }
  if (self->index_stale || self->index_len != self->chunks.len) text__index_build(text);
  /* Descend: take a node while its whole run stays below the target. */
  size_t n = self->index_len, pos = 0;
  size_t want = kind == SEEK_LINE ? target - 1 : target; /* passes: > want */
  TextSums before = {0};
  size_t step = 1;
  while (step * 2 <= n) step *= 2;
  for (; step; step /= 2) {
    if (pos + step > n) continue;
    const TextSums *node = &self->index[pos + step];
    if (text__sums_key(&before, kind) + text__sums_key(node, kind) <= want) {
      pos += step;
      text__sums_add(&before, node);
    }
  }
  if (pos >= n) { /* past every chunk: the last one, after the sum of the others */
    pos = n - 1;
    before = (TextSums){0};
    for (size_t k = pos; k > 0; k -= k & -k) text__sums_add(&before, &self->index[k]);
  }
  spot = (TextSpot){pos, before.len, before.newlines, before.chars};
  text->hint = spot;
  return spot;
}

/* Chunk holding byte offset; *chunk_start receives its first offset. */
static size_t text__chunk_at(const EddiText *self, size_t offset, size_t *chunk_start) {
  TextSpot spot = text__seek(self, SEEK_BYTE, offset);
  *chunk_start = spot.start;
  return spot.index;
}

void eddi_text_init(EddiText *self) { memset(self, 0, sizeof *self); }

void eddi_text_free(EddiText *self) {
  for (size_t i = 0; i < self->chunks.len; i++) {
    if (!text__in_slab(self, self->chunks.items[i].bytes)) eddi_free(self->chunks.items[i].bytes);
  }
  eddi_free(self->slab);
  self->slab = NULL;
  self->slab_len = self->slab_live = 0;
  array_free(&self->chunks);
  eddi_free(self->index);
  self->index = NULL;
  self->index_cap = self->index_len = 0;
  self->index_stale = false;
  self->hint = (TextSpot){0};
  self->len = self->newlines = self->chars = 0;
}

/* Append bytes as fresh chunks of TARGET size at chunk index `at`. */
static void text__insert_fresh(EddiText *self, size_t at, const char *bytes, size_t len) {
  Array(TextChunk) fresh = {0};
  for (size_t done = 0; done < len;) {
    size_t take = EDDI_MIN((size_t)EDDI_TEXT_CHUNK_TARGET, len - done);
    array_push(&fresh, text__chunk_new(bytes + done, take));
    done += take;
  }
  if (fresh.len) text__insert_chunks(self, at, fresh.items, fresh.len);
  array_free(&fresh);
}

/* The text's counts: the sums of its chunks'. */
static void text__total(EddiText *self) {
  self->len = self->newlines = self->chars = 0;
  for (size_t i = 0; i < self->chunks.len; i++) {
    self->len += self->chunks.items[i].len;
    self->newlines += self->chunks.items[i].newlines;
    self->chars += self->chunks.items[i].chars;
  }
}

void eddi_text_set(EddiText *self, const char *bytes, size_t len) {
  eddi_text_free(self); /* also resets the hint */
  text__insert_fresh(self, 0, bytes, len);
  text__total(self);
}

/* From this size eddi_text_take keeps the buffer it is given as the slab
 * its chunks are slices of: no copy of a large file at Open. */
#define TEXT_SLAB_MIN ((size_t)1 << 20)

void eddi_text_take(EddiText *self, StrBuf *bytes) {
  if (bytes->len < TEXT_SLAB_MIN) {
    eddi_text_set(self, bytes->data ? bytes->data : "", bytes->len);
    eddi_strbuf_free(bytes);
    return;
  }
  eddi_text_free(self);
  size_t len = bytes->len;
  array_reserve(&self->chunks, len / EDDI_TEXT_CHUNK_TARGET + 1);
  for (size_t at = 0; at < len; at += EDDI_TEXT_CHUNK_TARGET) {
    size_t take = EDDI_MIN((size_t)EDDI_TEXT_CHUNK_TARGET, len - at);
    size_t newlines, chars;
    text__count(bytes->data + at, take, &newlines, &chars);
    TextChunk chunk = {.bytes = bytes->data + at, .len = (uint32_t)take, .cap = (uint32_t)take,
                       .newlines = (uint32_t)newlines, .chars = (uint32_t)chars};
    self->chunks.items[self->chunks.len++] = chunk;
  }
  self->slab = bytes->data;
  self->slab_len = len;
  self->slab_live = self->chunks.len;
  *bytes = (StrBuf){0};
  text__index_stale(self);
  text__total(self);
}

/* ---------------------------------------------------------------- editing */

static void text__remove_chunk(EddiText *self, size_t i) {
  text__index_stale(self);
  text__bytes_free(self, &self->chunks.items[i]);
  array_remove(&self->chunks, i);
}

/* Merge chunk i into chunk i-1 when both fit in one TARGET chunk, so that
 * many deletes do not leave a trail of tiny chunks. */
static void text__merge_small(EddiText *self, size_t i) {
  if (i == 0 || i >= self->chunks.len) return;
  TextChunk *prev = &self->chunks.items[i - 1], *cur = &self->chunks.items[i];
  if ((size_t)prev->len + cur->len > EDDI_TEXT_CHUNK_TARGET) return;
  if (prev->cap < prev->len + cur->len)
    text__bytes_grow(self, prev, text__capacity_for(prev->len + cur->len));
  memcpy(prev->bytes + prev->len, cur->bytes, cur->len);
  prev->len += cur->len;
  prev->newlines += cur->newlines;
  prev->chars += cur->chars;
  text__remove_chunk(self, i);
}

static void text__delete(EddiText *self, size_t start, size_t end) {
  if (start >= end) return;
  size_t chunk_start;
  size_t i = text__chunk_at(self, start, &chunk_start);
  while (end > start) {
    TextChunk *chunk = &self->chunks.items[i];
    size_t from = start - chunk_start;
    size_t count = EDDI_MIN((size_t)chunk->len - from, end - start);
    size_t newlines = text__count_newlines(chunk->bytes + from, count);
    size_t chars = eddi_utf8_count_chars(chunk->bytes + from, count);
    self->newlines -= newlines;
    self->chars -= chars;
    self->len -= count;
    end -= count;
    if (count == chunk->len) {
      text__remove_chunk(self, i);
      continue;
    }
    memmove(chunk->bytes + from, chunk->bytes + from + count, chunk->len - from - count);
    chunk->len -= (uint32_t)count;
    chunk->newlines -= (uint32_t)newlines;
    chunk->chars -= (uint32_t)chars;
    text__index_add(self, i, -count, -newlines, -chars);
    if (end > start) chunk_start += chunk->len, i++;
  }
  text__merge_small(self, i + 1 < self->chunks.len ? i + 1 : i);
  text__merge_small(self, i);
}

static void text__insert(EddiText *self, size_t at, const char *bytes, size_t len) {
  if (len == 0) return;
  self->len += len;
  self->newlines += text__count_newlines(bytes, len);
  self->chars += eddi_utf8_count_chars(bytes, len);
  if (self->chunks.len == 0) {
    text__insert_fresh(self, 0, bytes, len);
    return;
  }
  size_t chunk_start;
  size_t i = text__chunk_at(self, at, &chunk_start);
  TextChunk *chunk = &self->chunks.items[i];
  size_t from = at - chunk_start;
  if ((size_t)chunk->len + len <= EDDI_TEXT_CHUNK_MAX) {
    if (chunk->cap < chunk->len + len)
      text__bytes_grow(self, chunk, text__capacity_for(chunk->len + len));
    memmove(chunk->bytes + from + len, chunk->bytes + from, chunk->len - from);
    memcpy(chunk->bytes + from, bytes, len);
    size_t newlines = text__count_newlines(bytes, len), chars = eddi_utf8_count_chars(bytes, len);
    chunk->len += (uint32_t)len;
    chunk->newlines += (uint32_t)newlines;
    chunk->chars += (uint32_t)chars;
    text__index_add(self, i, len, newlines, chars);
    return;
  }
  /* Too big for one chunk: rebuild it as prefix + bytes + suffix, re-chunked. */
  size_t total = chunk->len + len;
  char *joined = eddi_malloc(total);
  memcpy(joined, chunk->bytes, from);
  memcpy(joined + from, bytes, len);
  memcpy(joined + from + len, chunk->bytes + from, chunk->len - from);
  text__remove_chunk(self, i);
  text__insert_fresh(self, i, joined, total);
  eddi_free(joined);
}

void eddi_text_replace(EddiText *self, size_t start, size_t end, const char *bytes,
                       size_t len) {
  EDDI_ASSERT(start <= end && end <= self->len);
  /* Each step changes the chunks the hint describes. */
  self->hint = (TextSpot){0};
  text__delete(self, start, end);
  self->hint = (TextSpot){0};
  text__insert(self, start, bytes, len);
  self->hint = (TextSpot){0};
}

void eddi_text_replace_many(EddiText *self, const TextReplacement *edits, size_t count) {
  if (count == 0) return;
  size_t span_start = edits[0].start, span_end = edits[count - 1].end;
  StrBuf span = {0};
  size_t at = span_start;
  for (size_t i = 0; i < count; i++) {
    EDDI_ASSERT(edits[i].start >= at && edits[i].start <= edits[i].end);
    array__reserve((void **)&span.data, &span.cap, 1, span.len + (edits[i].start - at) + 1);
    eddi_text_copy(self, at, edits[i].start, span.data + span.len);
    span.len += edits[i].start - at;
    eddi_strbuf_append(&span, edits[i].bytes, edits[i].len);
    at = edits[i].end;
  }
  eddi_text_replace(self, span_start, span_end, span.data ? span.data : "", span.len);
  eddi_strbuf_free(&span);
}

/* ---------------------------------------------------------------- queries */

size_t eddi_text_line_count(const EddiText *self) {
  if (self->len == 0) return 0;
  bool final_newline = eddi_text_byte_at(self, self->len - 1) == '\n';
  return self->newlines + (final_newline ? 0 : 1);
}

size_t eddi_text_line_start(const EddiText *self, size_t line) {
  EDDI_ASSERT(line <= self->newlines);
  if (line == 0) return 0;
  TextSpot spot = text__seek(self, SEEK_LINE, line);
  const TextChunk *chunk = &self->chunks.items[spot.index];
  const char *p = chunk->bytes, *end = chunk->bytes + chunk->len;
  for (size_t need = line - spot.newlines;; need--) {
    p = memchr(p, '\n', (size_t)(end - p));
    EDDI_ASSERT(p);
    if (need == 1) return spot.start + (size_t)(p - chunk->bytes) + 1;
    p++;
  }
}

size_t eddi_text_line_end(const EddiText *self, size_t line) {
  return line < self->newlines ? eddi_text_line_start(self, line + 1) - 1 : self->len;
}

size_t eddi_text_next_newline(const EddiText *self, size_t offset) {
  if (offset >= self->len) return self->len;
  TextSpot spot = text__seek(self, SEEK_BYTE, offset);
  size_t from = offset - spot.start;
  for (size_t i = spot.index; i < self->chunks.len; i++) {
    const TextChunk *chunk = &self->chunks.items[i];
    const char *newline = memchr(chunk->bytes + from, '\n', chunk->len - from);
    if (newline) return spot.start + (size_t)(newline - chunk->bytes);
    spot.start += chunk->len;
    from = 0;
  }
  return self->len;
}

size_t eddi_text_line_at(const EddiText *self, size_t offset) {
  EDDI_ASSERT(offset <= self->len);
  if (self->chunks.len == 0) return 0;
  TextSpot spot = text__seek(self, SEEK_BYTE, offset);
  return spot.newlines +
         text__count_newlines(self->chunks.items[spot.index].bytes, offset - spot.start);
}

size_t eddi_text_char_index(const EddiText *self, size_t offset) {
  if (self->chunks.len == 0) return 0;
  TextSpot spot = text__seek(self, SEEK_BYTE, offset);
  return spot.chars + eddi_utf8_count_chars(self->chunks.items[spot.index].bytes, offset - spot.start);
}

size_t eddi_text_byte_offset(const EddiText *self, size_t char_index) {
  if (char_index >= self->chars) return self->len;
  TextSpot spot = text__seek(self, SEEK_CHAR, char_index);
  const TextChunk *chunk = &self->chunks.items[spot.index];
  return spot.start + eddi_utf8_skip_chars(chunk->bytes, chunk->len, char_index - spot.chars);
}

/* Call visit on each chunk's part of [start, end), in order. */
static void text__each_piece(const EddiText *self, size_t start, size_t end,
                             void (*visit)(const char *bytes, size_t len, void *context),
                             void *context) {
  if (start >= end) return;
  size_t chunk_start;
  size_t i = text__chunk_at(self, start, &chunk_start);
  while (start < end) {
    const TextChunk *chunk = &self->chunks.items[i++];
    size_t from = start - chunk_start;
    size_t count = EDDI_MIN((size_t)chunk->len - from, end - start);
    visit(chunk->bytes + from, count, context);
    start += count;
    chunk_start += chunk->len;
  }
}

static void text__copy_piece(const char *bytes, size_t len, void *context) {
  char **out = context;
  memcpy(*out, bytes, len);
  *out += len;
}

void eddi_text_copy(const EddiText *self, size_t start, size_t end, char *out) {
  text__each_piece(self, start, end, text__copy_piece, &out);
}

char *eddi_text_dup(const EddiText *self, size_t start, size_t end) {
  EDDI_ASSERT(start <= end && end <= self->len);
  char *out = eddi_malloc(end - start + 1);
  eddi_text_copy(self, start, end, out);
  out[end - start] = '\0';
  return out;
}

char eddi_text_byte_at(const EddiText *self, size_t offset) {
  size_t chunk_start;
  size_t i = text__chunk_at(self, offset, &chunk_start);
  return self->chunks.items[i].bytes[offset - chunk_start];
}

const char *eddi_text_chunk_at(const EddiText *self, size_t offset, size_t *len) {
  if (offset >= self->len) {
    *len = 0;
    return "";
  }
  size_t chunk_start;
  const TextChunk *chunk = &self->chunks.items[text__chunk_at(self, offset, &chunk_start)];
  *len = chunk->len - (offset - chunk_start);
  return chunk->bytes + (offset - chunk_start);
}

static void text__count_piece(const char *bytes, size_t len, void *context) {
  *(size_t *)context += eddi_utf8_count_chars(bytes, len);
}

/* Characters in [start, end), which may span chunks. */
static size_t text__chars_between(const EddiText *self, size_t start, size_t end) {
  size_t chars = 0;
  text__each_piece(self, start, end, text__count_piece, &chars);
  return chars;
}

/* Byte offset `chars` characters after start, not passing limit (returns
 * limit + 1 when the range holds fewer characters). */
static size_t text__skip_chars(const EddiText *self, size_t start, size_t limit,
                               size_t chars) {
  if (chars == 0) return start;
  if (start >= limit) return limit + 1;
  size_t chunk_start;
  size_t i = text__chunk_at(self, start, &chunk_start);
  for (size_t at = start; at < limit;) {
    const TextChunk *chunk = &self->chunks.items[i++];
    size_t from = at - chunk_start;
    size_t count = EDDI_MIN((size_t)chunk->len - from, limit - at);
    for (size_t k = 0; k < count; k++) {
      if (!eddi_utf8_is_lead((unsigned char)chunk->bytes[from + k])) continue;
      if (chars-- == 0) return at + k;
    }
    at += count;
    chunk_start += chunk->len;
  }
  return chars == 0 ? limit : limit + 1;
}

int eddi_text_offset_of(const EddiText *self, size_t line, size_t col, size_t *offset) {
  if (line > self->newlines) return EDDI_EINVAL;
  size_t start = eddi_text_line_start(self, line);
  size_t end = eddi_text_line_end(self, line);
  size_t at = text__skip_chars(self, start, end, col);
  if (at > end) return EDDI_EINVAL;
  *offset = at;
  return 0;
}

void eddi_text_position_of(const EddiText *self, size_t offset, size_t *line, size_t *col) {
  *line = eddi_text_line_at(self, offset);
  *col = text__chars_between(self, eddi_text_line_start(self, *line), offset);
}

void eddi_text_walk_begin(const EddiText *self, size_t pos, TextWalk *walk) {
  walk->pos = pos;
  walk->chunk = 0;
  walk->chunk_start = 0;
  if (self->chunks.len) walk->chunk = text__chunk_at(self, pos, &walk->chunk_start);
}

bool eddi_text_next_segment(const EddiText *self, TextWalk *walk, StrBuf *scratch,
                            TextSegment *out) {
  if (walk->pos >= self->len) return false;
  size_t last = self->chunks.len - 1;
  while (walk->chunk < last && walk->pos >= walk->chunk_start + self->chunks.items[walk->chunk].len)
    walk->chunk_start += self->chunks.items[walk->chunk++].len;
  const TextChunk *chunk = &self->chunks.items[walk->chunk];
  size_t from = walk->pos - walk->chunk_start;
  const char *last_newline = memrchr(chunk->bytes + from, '\n', chunk->len - from);
  if (walk->chunk == last || last_newline) {
    /* Whole lines inside this chunk: read in place. */
    size_t end = walk->chunk == last ? chunk->len : (size_t)(last_newline - chunk->bytes) + 1;
    *out = (TextSegment){chunk->bytes + from, end - from, walk->pos};
    walk->pos += end - from;
    return true;
  }
  /* One line crossing into later chunks: copy it, up to its newline. */
  eddi_strbuf_clear(scratch);
  eddi_strbuf_append(scratch, chunk->bytes + from, chunk->len - from);
  size_t end = walk->chunk_start + chunk->len;
  for (size_t k = walk->chunk + 1; k <= last; k++) {
    const TextChunk *next = &self->chunks.items[k];
    const char *newline = memchr(next->bytes, '\n', next->len);
    size_t take = newline ? (size_t)(newline - next->bytes) + 1 : next->len;
    eddi_strbuf_append(scratch, next->bytes, take);
    end += take;
    if (newline) break;
  }
  *out = (TextSegment){scratch->data, scratch->len, walk->pos};
  walk->pos = end;
  return true;
}

size_t eddi_text_footprint(const EddiText *self) {
  size_t bytes = self->chunks.cap * sizeof(TextChunk);
  for (size_t i = 0; i < self->chunks.len; i++) bytes += self->chunks.items[i].cap;
  return bytes;
}

void eddi_text_view(const EddiText *src, EddiText *view) {
  eddi_text_init(view);
  array_reserve(&view->chunks, src->chunks.len);
  if (src->chunks.len)
    memcpy(view->chunks.items, src->chunks.items, src->chunks.len * sizeof *src->chunks.items);
  view->chunks.len = src->chunks.len;
  view->len = src->len;
  view->newlines = src->newlines;
  view->chars = src->chars;
  view->index_stale = true;
}

void eddi_text_view_free(EddiText *view) {
  array_free(&view->chunks);
  eddi_free(view->index);
  eddi_text_init(view);
}

void eddi_text_build_replaced(const EddiText *src, const TextReplacement *edits, size_t count,
                              EddiText *out) {
  size_t len = eddi_text_len(src), grown = len;
  for (size_t i = 0; i < count; i++) grown += edits[i].len - (edits[i].end - edits[i].start);
  StrBuf text = {0};
  array__reserve((void **)&text.data, &text.cap, 1, grown + 1);
  size_t at = 0;
  for (size_t i = 0; i < count; i++) {
    EDDI_ASSERT(edits[i].start >= at && edits[i].start <= edits[i].end);
    eddi_text_copy(src, at, edits[i].start, text.data + text.len);
    text.len += edits[i].start - at;
    memcpy(text.data + text.len, edits[i].bytes, edits[i].len);
    text.len += edits[i].len;
    at = edits[i].end;
  }
  eddi_text_copy(src, at, len, text.data + text.len);
  text.len += len - at;
  text.data[text.len] = '\0';
  eddi_text_init(out);
  eddi_text_take(out, &text);
}

size_t eddi_text_count_newlines(const char *bytes, size_t len) {
  return text__count_newlines(bytes, len);
}
