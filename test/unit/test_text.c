/* test_text.c - the chunked text store (text.h).
 *
 * Exact line and offset queries on small texts, reads of a chunk's bytes in
 * place (eddi_text_chunk_at), then a randomized property test: thousands of
 * replaces applied to an EddiText and to a plain buffer, compared after
 * every step. */
#include "unit_support.h"

#include "core/text.h"
#include "core/utf8.h"

/* ---------------------------------------------------------------- helpers */

static void text_from(EddiText *text, const char *s) {
  eddi_text_init(text);
  eddi_text_set(text, s, strlen(s));
}

static void assert_text_is(const EddiText *text, const char *expected, size_t len) {
  assert_int_equal(eddi_text_len(text), len);
  char *copy = eddi_text_dup(text, 0, eddi_text_len(text));
  assert_memory_equal(copy, expected, len);
  assert_int_equal(copy[len], '\0');
  eddi_free(copy);
}

static size_t offset_of(const EddiText *text, size_t line, size_t col) {
  size_t offset = 9999;
  assert_int_equal(eddi_text_offset_of(text, line, col, &offset), 0);
  return offset;
}

static void assert_position(const EddiText *text, size_t offset, size_t line, size_t col) {
  size_t got_line = 9999, got_col = 9999;
  eddi_text_position_of(text, offset, &got_line, &got_col);
  assert_int_equal(got_line, line);
  assert_int_equal(got_col, col);
}

/* Reading text run by run through eddi_text_chunk_at, from the start and
 * from a random offset, gives ref[0, len); every run ends at a chunk's
 * end, and the end of the text gives an empty run. */
static void assert_runs_read_as(UnitRandom *rnd, const EddiText *text, const char *ref,
                                size_t len) {
  size_t from = len ? unit_random_below(rnd, len) : 0;
  for (size_t at = 0; at < len;) {
    size_t run;
    const char *bytes = eddi_text_chunk_at(text, at, &run);
    assert_true(run > 0 && run <= len - at);
    assert_memory_equal(bytes, ref + at, run);
    at += run;
  }
  size_t run = 99;
  const char *bytes = eddi_text_chunk_at(text, from, &run);
  assert_true(len == 0 || run > 0);
  assert_memory_equal(bytes, ref + from, run);
  assert_string_equal(eddi_text_chunk_at(text, len, &run), "");
  assert_int_equal(run, 0);
}

/* ---------------------------------------------------------------- small texts */

static void test_empty_text(void **state) {
  long live = unit_live();
  EddiText text;
  text_from(&text, "");
  assert_int_equal(eddi_text_len(&text), 0);
  assert_int_equal(text.newlines, 0);
  assert_int_equal(text.chars, 0);
  assert_int_equal(eddi_text_line_slots(&text), 1);
  assert_int_equal(eddi_text_line_count(&text), 0);
  assert_int_equal(eddi_text_line_start(&text, 0), 0);
  assert_int_equal(eddi_text_line_end(&text, 0), 0);
  assert_int_equal(eddi_text_line_at(&text, 0), 0);
  assert_int_equal(eddi_text_char_index(&text, 0), 0);
  assert_int_equal(eddi_text_byte_offset(&text, 0), 0);
  assert_int_equal(eddi_text_byte_offset(&text, 7), 0);
  assert_int_equal(offset_of(&text, 0, 0), 0);
  size_t offset = 1234;
  assert_int_equal(eddi_text_offset_of(&text, 0, 1, &offset), EDDI_EINVAL);
  assert_int_equal(eddi_text_offset_of(&text, 1, 0, &offset), EDDI_EINVAL);
  assert_int_equal(offset, 1234); /* untouched on failure */
  assert_position(&text, 0, 0, 0);
  assert_text_is(&text, "", 0);
  eddi_text_free(&text);
  unit_assert_no_leak(live);
}

static void test_lines_with_final_newline(void **state) {
  long live = unit_live();
  EddiText text;
  text_from(&text, "ab\ncd\n");
  assert_int_equal(text.newlines, 2);
  assert_int_equal(eddi_text_line_slots(&text), 3);
  assert_int_equal(eddi_text_line_count(&text), 2);
  assert_int_equal(eddi_text_line_start(&text, 0), 0);
  assert_int_equal(eddi_text_line_start(&text, 1), 3);
  assert_int_equal(eddi_text_line_start(&text, 2), 6);
  assert_int_equal(eddi_text_line_end(&text, 0), 2);
  assert_int_equal(eddi_text_line_end(&text, 1), 5);
  assert_int_equal(eddi_text_line_end(&text, 2), 6);
  assert_int_equal(eddi_text_line_at(&text, 0), 0);
  assert_int_equal(eddi_text_line_at(&text, 2), 0); /* the '\n' ends line 0 */
  assert_int_equal(eddi_text_line_at(&text, 3), 1);
  assert_int_equal(eddi_text_line_at(&text, 5), 1);
  assert_int_equal(eddi_text_line_at(&text, 6), 2);
  assert_int_equal(offset_of(&text, 0, 2), 2);
  assert_int_equal(offset_of(&text, 1, 0), 3);
  assert_int_equal(offset_of(&text, 1, 2), 5);
  assert_int_equal(offset_of(&text, 2, 0), 6);
  size_t offset;
  assert_int_equal(eddi_text_offset_of(&text, 0, 3, &offset), EDDI_EINVAL);
  assert_int_equal(eddi_text_offset_of(&text, 2, 1, &offset), EDDI_EINVAL);
  assert_int_equal(eddi_text_offset_of(&text, 3, 0, &offset), EDDI_EINVAL);
  assert_position(&text, 2, 0, 2);
  assert_position(&text, 4, 1, 1);
  assert_position(&text, 6, 2, 0);
  assert_int_equal(eddi_text_byte_at(&text, 2), '\n');
  assert_int_equal(eddi_text_byte_at(&text, 4), 'd');
  char out[4] = {0};
  eddi_text_copy(&text, 1, 4, out);
  assert_string_equal(out, "b\nc");
  eddi_text_free(&text);
  unit_assert_no_leak(live);
}

static void test_lines_without_final_newline(void **state) {
  long live = unit_live();
  EddiText text;
  text_from(&text, "ab\ncd");
  assert_int_equal(eddi_text_line_slots(&text), 2);
  assert_int_equal(eddi_text_line_count(&text), 2);
  assert_int_equal(eddi_text_line_end(&text, 1), 5);
  assert_int_equal(eddi_text_line_at(&text, 5), 1);
  assert_int_equal(offset_of(&text, 1, 2), 5);
  size_t offset;
  assert_int_equal(eddi_text_offset_of(&text, 1, 3, &offset), EDDI_EINVAL);
  assert_position(&text, 5, 1, 2);
  eddi_text_free(&text);

  text_from(&text, "\n");
  assert_int_equal(eddi_text_line_count(&text), 1);
  assert_int_equal(eddi_text_line_slots(&text), 2);
  assert_int_equal(eddi_text_line_end(&text, 0), 0);
  assert_int_equal(eddi_text_line_start(&text, 1), 1);
  eddi_text_free(&text);

  text_from(&text, "x");
  assert_int_equal(eddi_text_line_count(&text), 1);
  assert_int_equal(eddi_text_line_slots(&text), 1);
  eddi_text_free(&text);
  unit_assert_no_leak(live);
}

/* é is 2 bytes, 日 3, 🎉 4: columns count characters. */
static void test_multibyte_columns(void **state) {
  long live = unit_live();
  EddiText text;
  text_from(&text, "é日\n🎉x");
  assert_int_equal(eddi_text_len(&text), 11);
  assert_int_equal(text.chars, 5);
  assert_int_equal(text.newlines, 1);
  assert_int_equal(offset_of(&text, 0, 0), 0);
  assert_int_equal(offset_of(&text, 0, 1), 2);
  assert_int_equal(offset_of(&text, 0, 2), 5);
  assert_int_equal(offset_of(&text, 1, 0), 6);
  assert_int_equal(offset_of(&text, 1, 1), 10);
  assert_int_equal(offset_of(&text, 1, 2), 11);
  size_t offset;
  assert_int_equal(eddi_text_offset_of(&text, 0, 3, &offset), EDDI_EINVAL);
  assert_int_equal(eddi_text_offset_of(&text, 1, 3, &offset), EDDI_EINVAL);
  assert_position(&text, 2, 0, 1);
  assert_position(&text, 5, 0, 2);
  assert_position(&text, 10, 1, 1);
  assert_position(&text, 11, 1, 2);
  assert_int_equal(eddi_text_char_index(&text, 2), 1);
  assert_int_equal(eddi_text_char_index(&text, 5), 2);
  assert_int_equal(eddi_text_char_index(&text, 6), 3);
  assert_int_equal(eddi_text_char_index(&text, 10), 4);
  assert_int_equal(eddi_text_char_index(&text, 11), 5);
  assert_int_equal(eddi_text_byte_offset(&text, 1), 2);
  assert_int_equal(eddi_text_byte_offset(&text, 3), 6);
  assert_int_equal(eddi_text_byte_offset(&text, 4), 10);
  assert_int_equal(eddi_text_byte_offset(&text, 5), 11);
  assert_int_equal(eddi_text_byte_offset(&text, 99), 11);

  eddi_text_replace(&text, 2, 5, "ü", 2); /* 日 -> ü */
  assert_text_is(&text, "éü\n🎉x", 10);
  assert_int_equal(text.chars, 5);
  eddi_text_replace(&text, 0, 10, "", 0);
  assert_text_is(&text, "", 0);
  assert_int_equal(text.chars, 0);
  assert_int_equal(text.newlines, 0);
  eddi_text_replace(&text, 0, 0, "a\nb", 3);
  assert_text_is(&text, "a\nb", 3);
  assert_int_equal(eddi_text_line_start(&text, 1), 2);
  eddi_text_free(&text);
  unit_assert_no_leak(live);
}

/* A text loaded in several chunks: lines that span a chunk boundary, and a
 * replace across it. */
static void test_chunk_boundaries(void **state) {
  long live = unit_live();
  size_t len = 3 * EDDI_TEXT_CHUNK_TARGET + 100;
  char *bytes = malloc(len);
  for (size_t i = 0; i < len; i++) bytes[i] = (i % 10 == 9) ? '\n' : (char)('a' + i % 10);
  EddiText text;
  eddi_text_init(&text);
  eddi_text_set(&text, bytes, len);
  assert_true(text.chunks.len >= 3);
  assert_int_equal(text.newlines, len / 10);
  size_t boundary = text.chunks.items[0].len; /* first offset of chunk 1 */
  size_t line = boundary / 10;
  assert_int_equal(eddi_text_line_at(&text, boundary), line);
  assert_int_equal(eddi_text_line_start(&text, line), line * 10);
  assert_int_equal(eddi_text_line_end(&text, line), line * 10 + 9);
  assert_position(&text, boundary, line, boundary % 10);

  /* Replace 20 bytes around the boundary with 3 characters, 6 bytes. */
  eddi_text_replace(&text, boundary - 10, boundary + 10, "日\né", 6);
  memmove(bytes + boundary - 4, bytes + boundary + 10, len - boundary - 10);
  memcpy(bytes + boundary - 10, "日\né", 6);
  len -= 14;
  assert_text_is(&text, bytes, len);
  assert_int_equal(text.chars, len - 3);
  eddi_text_free(&text);
  free(bytes);
  unit_assert_no_leak(live);
}

/* eddi_text_chunk_at gives a chunk's own bytes from the offset to its end:
 * at a boundary the chunk it starts, just before it the last byte of the
 * one before; at and past the end of the text, nothing. Lookups backwards
 * (which the hint cannot answer) give the same. */
static void test_chunk_at_reads_in_place(void **state) {
  long live = unit_live();
  EddiText text;
  eddi_text_init(&text);
  size_t run = 99;
  assert_string_equal(eddi_text_chunk_at(&text, 0, &run), "");
  assert_int_equal(run, 0);
  size_t len = 3 * EDDI_TEXT_CHUNK_TARGET + 100;
  char *bytes = malloc(len);
  for (size_t i = 0; i < len; i++) bytes[i] = (i % 10 == 9) ? '\n' : (char)('a' + i % 7);
  eddi_text_set(&text, bytes, len);
  /* Chunks of unequal sizes: a grown one in the middle. */
  eddi_text_replace(&text, EDDI_TEXT_CHUNK_TARGET + 3, EDDI_TEXT_CHUNK_TARGET + 3, "xyz", 3);
  bytes = realloc(bytes, len + 3);
  memmove(bytes + EDDI_TEXT_CHUNK_TARGET + 6, bytes + EDDI_TEXT_CHUNK_TARGET + 3,
          len - EDDI_TEXT_CHUNK_TARGET - 3);
  memcpy(bytes + EDDI_TEXT_CHUNK_TARGET + 3, "xyz", 3);
  len += 3;
  assert_text_is(&text, bytes, len);
  assert_true(text.chunks.len >= 4);
  for (int pass = 0; pass < 2; pass++) {
    /* pass 0 forward, pass 1 from the last chunk back */
    for (size_t k = 0; k < text.chunks.len; k++) {
      size_t i = pass ? text.chunks.len - 1 - k : k, start = 0;
      for (size_t j = 0; j < i; j++) start += text.chunks.items[j].len;
      const TextChunk *chunk = &text.chunks.items[i];
      assert_ptr_equal(eddi_text_chunk_at(&text, start, &run), chunk->bytes);
      assert_int_equal(run, chunk->len);
      assert_ptr_equal(eddi_text_chunk_at(&text, start + 5, &run), chunk->bytes + 5);
      assert_int_equal(run, chunk->len - 5);
      if (start > 0) {
        const char *last = eddi_text_chunk_at(&text, start - 1, &run);
        assert_int_equal(run, 1);
        assert_ptr_equal(last, text.chunks.items[i - 1].bytes + text.chunks.items[i - 1].len - 1);
        assert_int_equal(*last, bytes[start - 1]);
      }
    }
  }
  assert_int_equal(*eddi_text_chunk_at(&text, len - 1, &run), bytes[len - 1]);
  assert_int_equal(run, 1);
  assert_string_equal(eddi_text_chunk_at(&text, len, &run), "");
  assert_int_equal(run, 0);
  assert_string_equal(eddi_text_chunk_at(&text, len + 100, &run), "");
  assert_int_equal(run, 0);
  UnitRandom rnd = {7};
  assert_runs_read_as(&rnd, &text, bytes, len);
  eddi_text_free(&text);
  free(bytes);
  unit_assert_no_leak(live);
}

static void test_replace_larger_than_chunk(void **state) {
  long live = unit_live();
  size_t big_len = EDDI_TEXT_CHUNK_MAX * 2 + 77;
  char *big = malloc(big_len);
  for (size_t i = 0; i < big_len; i++) big[i] = (i % 50 == 49) ? '\n' : 'x';
  EddiText text;
  text_from(&text, "head\ntail");
  eddi_text_replace(&text, 5, 5, big, big_len);
  assert_int_equal(eddi_text_len(&text), big_len + 9);
  assert_int_equal(text.newlines, 1 + big_len / 50);
  for (size_t i = 0; i < text.chunks.len; i++)
    assert_true(text.chunks.items[i].len <= EDDI_TEXT_CHUNK_MAX);
  char *copy = eddi_text_dup(&text, 0, eddi_text_len(&text));
  assert_memory_equal(copy, "head\n", 5);
  assert_memory_equal(copy + 5, big, big_len);
  assert_memory_equal(copy + 5 + big_len, "tail", 4);
  eddi_free(copy);
  assert_int_equal(eddi_text_line_start(&text, 2), 5 + 50);
  eddi_text_replace(&text, 3, big_len + 7, "", 0); /* "hea" + "il" */
  assert_text_is(&text, "heail", 5);
  assert_int_equal(text.newlines, 0);
  eddi_text_free(&text);
  free(big);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- property test */

#define PROPERTY_STEPS 4000
#define PROPERTY_SOFT_LIMIT (8 * EDDI_TEXT_CHUNK_MAX)
#define PROPERTY_SEED 0x5EED0DD1C0FFEEULL

/* Pieces random text is made of: ASCII, newlines, 2-, 3- and 4-byte characters. */
static const char *const pieces[] = {"a", "b", "z", " ", "\n", "\n", "é", "ß", "日", "語",
                                     "🎉", "😀", "line\n", "日本\n"};

static size_t random_text(UnitRandom *rnd, char *out, size_t want) {
  size_t len = 0;
  while (len < want) {
    const char *piece = pieces[unit_random_below(rnd, sizeof pieces / sizeof *pieces)];
    size_t n = strlen(piece);
    memcpy(out + len, piece, n);
    len += n;
  }
  return len;
}

/* Move offset back to the start of the character holding it. */
static size_t char_boundary(const char *bytes, size_t len, size_t offset) {
  while (offset > 0 && offset < len && !eddi_utf8_is_lead((unsigned char)bytes[offset])) offset--;
  return offset;
}

/* The chunks' own counts add up to the totals and each fits in MAX. */
static void assert_chunks_consistent(const EddiText *text) {
  size_t len = 0, newlines = 0, chars = 0;
  for (size_t i = 0; i < text->chunks.len; i++) {
    const TextChunk *chunk = &text->chunks.items[i];
    assert_true(chunk->len <= chunk->cap);
    assert_true(chunk->len <= EDDI_TEXT_CHUNK_MAX);
    len += chunk->len;
    newlines += chunk->newlines;
    chars += chunk->chars;
  }
  assert_int_equal(len, text->len);
  assert_int_equal(newlines, text->newlines);
  assert_int_equal(chars, text->chars);
}

/* The chunk index, when it is in force, against sums of the chunks made
 * here: node k (1-based) holds the chunks (k - lowbit(k), k]. */
static void assert_index_consistent(const EddiText *text) {
  if (text->index_stale || text->index_len != text->chunks.len) return;
  for (size_t k = 1; k <= text->index_len; k++) {
    TextSums sums = {0};
    for (size_t i = k - (k & -k); i < k; i++) {
      sums.len += text->chunks.items[i].len;
      sums.newlines += text->chunks.items[i].newlines;
      sums.chars += text->chunks.items[i].chars;
    }
    assert_int_equal(text->index[k].len, sums.len);
    assert_int_equal(text->index[k].newlines, sums.newlines);
    assert_int_equal(text->index[k].chars, sums.chars);
  }
}

/* Lookups at each side of a chunk boundary, where the index's descent
 * decides which chunk holds the target, against ref[0, len). */
static void check_boundary(UnitRandom *rnd, const EddiText *text, const char *ref, size_t len) {
  if (text->chunks.len < 2) return;
  size_t chunk = 1 + unit_random_below(rnd, text->chunks.len - 1), boundary = 0;
  for (size_t i = 0; i < chunk; i++) boundary += text->chunks.items[i].len;
  for (size_t offset = boundary > 0 ? boundary - 1 : 0; offset <= boundary + 1 && offset <= len;
       offset++) {
    size_t line = 0, chars = 0;
    for (size_t i = 0; i < offset; i++) {
      line += ref[i] == '\n';
      chars += eddi_utf8_is_lead((unsigned char)ref[i]);
    }
    assert_int_equal(eddi_text_line_at(text, offset), line);
    assert_int_equal(eddi_text_char_index(text, char_boundary(ref, len, offset)),
                     eddi_text_char_index(text, char_boundary(ref, len, offset)));
    if (offset == char_boundary(ref, len, offset)) {
      assert_int_equal(eddi_text_char_index(text, offset), chars);
      assert_int_equal(eddi_text_byte_offset(text, chars), offset);
    }
    if (line > 0) {
      size_t start = offset;
      while (start > 0 && ref[start - 1] != '\n') start--;
      assert_int_equal(eddi_text_line_start(text, line), start);
    }
  }
}

/* Check text against ref[0, len): contents, counts, and a few queries at
 * random character boundaries. */
static void check_against_reference(UnitRandom *rnd, const EddiText *text, const char *ref,
                                    size_t len) {
  assert_text_is(text, ref, len);
  assert_runs_read_as(rnd, text, ref, len);
  size_t newlines = 0, chars = 0;
  for (size_t i = 0; i < len; i++) {
    newlines += ref[i] == '\n';
    chars += eddi_utf8_is_lead((unsigned char)ref[i]);
  }
  assert_int_equal(text->newlines, newlines);
  assert_int_equal(text->chars, chars);
  assert_chunks_consistent(text);
  check_boundary(rnd, text, ref, len);
  assert_index_consistent(text);

  for (int probe = 0; probe < 4; probe++) {
    size_t offset = char_boundary(ref, len, unit_random_below(rnd, len + 1));
    size_t line = 0, line_start = 0, chars_before = 0, col = 0;
    for (size_t i = 0; i < offset; i++) {
      if (eddi_utf8_is_lead((unsigned char)ref[i])) chars_before++, col++;
      if (ref[i] == '\n') line++, line_start = i + 1, col = 0;
    }
    size_t line_end = offset;
    while (line_end < len && ref[line_end] != '\n') line_end++;
    assert_int_equal(eddi_text_line_at(text, offset), line);
    assert_int_equal(eddi_text_line_start(text, line), line_start);
    assert_int_equal(eddi_text_line_end(text, line), line_end);
    assert_int_equal(eddi_text_char_index(text, offset), chars_before);
    assert_int_equal(eddi_text_byte_offset(text, chars_before), offset);
    assert_position(text, offset, line, col);
    assert_int_equal(offset_of(text, line, col), offset);
  }
}

/* Random replaces on text, which starts as ref[0, len), against ref; the
 * text is kept under soft_limit bytes by large deletes. Returns the count
 * of edits around chunk boundaries, large inserts and large deletes. */
static void random_replaces(EddiText *text_in, char *ref, size_t len, size_t cap,
                            size_t soft_limit, int steps, size_t counts[3]) {
  EddiText text = *text_in;
  UnitRandom rnd = {PROPERTY_SEED};
  char *fresh = malloc(3 * EDDI_TEXT_CHUNK_MAX);
  size_t spanning = 0, big_inserts = 0, big_deletes = 0;
  for (int step = 0; step < steps; step++) {
    size_t start, end;
    size_t kind = unit_random_below(&rnd, 100);
    if (len > soft_limit) kind = 99; /* keep the text bounded */
    if (kind < 10 && text.chunks.len > 1) {
      /* Around a chunk boundary. */
      size_t chunk = 1 + unit_random_below(&rnd, text.chunks.len - 1);
      size_t boundary = 0;
      for (size_t i = 0; i < chunk; i++) boundary += text.chunks.items[i].len;
      /* Draw before EDDI_MIN, which evaluates its arguments twice. */
      size_t before = unit_random_below(&rnd, 40), after = unit_random_below(&rnd, 40);
      start = boundary > before ? boundary - before : 0;
      end = EDDI_MIN(len, boundary + after);
      spanning++;
    } else if (kind >= 97) {
      /* A delete larger than a chunk, or of the whole text when smaller. */
      size_t span = EDDI_TEXT_CHUNK_MAX + 100 + unit_random_below(&rnd, 5000);
      start = len > span ? unit_random_below(&rnd, len - span) : 0;
      end = EDDI_MIN(len, start + span);
      big_deletes++;
    } else {
      start = unit_random_below(&rnd, len + 1);
      size_t span = kind < 50 ? 0 : unit_random_below(&rnd, 64);
      end = EDDI_MIN(len, start + span);
    }
    start = char_boundary(ref, len, start);
    end = char_boundary(ref, len, end);

    size_t fresh_len = 0;
    if (kind >= 94 && kind < 97) {
      size_t want = EDDI_TEXT_CHUNK_MAX + 1 + unit_random_below(&rnd, EDDI_TEXT_CHUNK_MAX);
      fresh_len = random_text(&rnd, fresh, want);
      big_inserts++;
    } else if (kind < 90) {
      fresh_len = random_text(&rnd, fresh, unit_random_below(&rnd, 24));
    }

    eddi_text_replace(&text, start, end, fresh, fresh_len);
    memmove(ref + start + fresh_len, ref + end, len - end);
    memcpy(ref + start, fresh, fresh_len);
    len = len - (end - start) + fresh_len;
    assert_true(len <= cap);
    check_against_reference(&rnd, &text, ref, len);
  }
  counts[0] = spanning, counts[1] = big_inserts, counts[2] = big_deletes;
  *text_in = text;
  free(fresh);
}

static void test_random_replaces_match_reference(void **state) {
  long live = unit_live();
  size_t cap = PROPERTY_SOFT_LIMIT + 4 * EDDI_TEXT_CHUNK_MAX;
  char *ref = malloc(cap);
  EddiText text;
  eddi_text_init(&text);
  size_t counts[3];
  random_replaces(&text, ref, 0, cap, PROPERTY_SOFT_LIMIT, PROPERTY_STEPS, counts);
  /* The run did exercise what it claims to. */
  assert_true(counts[0] > 100);
  assert_true(counts[1] > 50);
  assert_true(counts[2] > 50);
  eddi_text_free(&text);
  free(ref);
  unit_assert_no_leak(live);
}

/* A text taken over from a large buffer (eddi_text_take: its chunks are
 * slices of the buffer until they grow), then edited at random. */
static void test_taken_text_matches_reference(void **state) {
  long live = unit_live();
  size_t start = ((size_t)1 << 20) + 4096; /* just past the size that keeps a slab */
  size_t cap = start + 4 * EDDI_TEXT_CHUNK_MAX;
  char *ref = malloc(cap);
  UnitRandom rnd = {PROPERTY_SEED ^ 1};
  size_t len = random_text(&rnd, ref, start);
  StrBuf bytes = {0};
  eddi_strbuf_append(&bytes, ref, len);
  EddiText text;
  eddi_text_init(&text);
  eddi_text_take(&text, &bytes);
  assert_null(bytes.data);
  assert_non_null(text.slab);
  check_against_reference(&rnd, &text, ref, len);
  size_t counts[3];
  random_replaces(&text, ref, len, cap, start, 120, counts);
  eddi_text_free(&text);
  free(ref);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_empty_text),
      cmocka_unit_test(test_lines_with_final_newline),
      cmocka_unit_test(test_lines_without_final_newline),
      cmocka_unit_test(test_multibyte_columns),
      cmocka_unit_test(test_chunk_boundaries),
      cmocka_unit_test(test_chunk_at_reads_in_place),
      cmocka_unit_test(test_replace_larger_than_chunk),
      cmocka_unit_test(test_random_replaces_match_reference),
      cmocka_unit_test(test_taken_text_matches_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
