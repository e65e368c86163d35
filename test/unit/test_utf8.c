/* test_utf8.c - validity and counting (utf8.h). */
#include "unit_support.h"

#include "core/utf8.h"

/* eddi_utf8_valid_prefix over a literal, which may hold NUL bytes. */
#define VALID(literal) eddi_utf8_valid_prefix(literal, sizeof(literal) - 1)

static void test_valid_text_is_accepted_whole(void **state) {
  assert_int_equal(VALID(""), 0);
  assert_int_equal(VALID("plain ascii\n"), 12);
  assert_int_equal(VALID("a\0b"), 3); /* NUL is valid UTF-8; disk refuses it */
  assert_int_equal(VALID("\xC2\x80"), 2);         /* U+0080, smallest 2-byte */
  assert_int_equal(VALID("\xDF\xBF"), 2);         /* U+07FF */
  assert_int_equal(VALID("\xE0\xA0\x80"), 3);     /* U+0800, smallest 3-byte */
  assert_int_equal(VALID("\xED\x9F\xBF"), 3);     /* U+D7FF, just below surrogates */
  assert_int_equal(VALID("\xEE\x80\x80"), 3);     /* U+E000, just above them */
  assert_int_equal(VALID("\xEF\xBF\xBF"), 3);     /* U+FFFF */
  assert_int_equal(VALID("\xF0\x90\x80\x80"), 4); /* U+10000, smallest 4-byte */
  assert_int_equal(VALID("\xF4\x8F\xBF\xBF"), 4); /* U+10FFFF, the last */
  assert_int_equal(VALID("naïve café 日本語 🎉"), strlen("naïve café 日本語 🎉"));
}

static void test_overlong_forms_are_rejected(void **state) {
  assert_int_equal(VALID("\xC0\x80"), 0);         /* NUL in 2 bytes */
  assert_int_equal(VALID("\xC1\xBF"), 0);         /* U+007F in 2 bytes */
  assert_int_equal(VALID("ab\xE0\x80\x80"), 2);   /* NUL in 3 bytes */
  assert_int_equal(VALID("\xE0\x9F\xBF"), 0);     /* U+07FF in 3 bytes */
  assert_int_equal(VALID("\xF0\x80\x80\x80"), 0); /* NUL in 4 bytes */
  assert_int_equal(VALID("x\xF0\x8F\xBF\xBF"), 1); /* U+FFFF in 4 bytes */
}

static void test_surrogates_are_rejected(void **state) {
  assert_int_equal(VALID("\xED\xA0\x80"), 0);      /* U+D800 */
  assert_int_equal(VALID("ok\xED\xBF\xBF"), 2);    /* U+DFFF */
  assert_int_equal(VALID("\xED\xA0\xBD\xED\xB8\x80"), 0); /* CESU-8 pair */
}

static void test_past_last_code_point_is_rejected(void **state) {
  assert_int_equal(VALID("\xF4\x90\x80\x80"), 0); /* U+110000 */
  assert_int_equal(VALID("a\xF5\x80\x80\x80"), 1);
  assert_int_equal(VALID("\xF7\xBF\xBF\xBF"), 0);
  assert_int_equal(VALID("\xF8\x88\x80\x80\x80"), 0); /* old 5-byte form */
  assert_int_equal(VALID("\xFE"), 0);
  assert_int_equal(VALID("\xFF"), 0);
}

static void test_truncated_sequences_are_rejected(void **state) {
  assert_int_equal(VALID("\xC3"), 0);
  assert_int_equal(VALID("a\xC3"), 1);
  assert_int_equal(VALID("ab\xE6\x97"), 2);
  assert_int_equal(VALID("\xF0\x9F\x8E"), 0);
  assert_int_equal(VALID("\xC3z"), 0);                /* lead then ASCII */
  assert_int_equal(VALID("\xE6\x97z\xA5"), 0);
  assert_int_equal(VALID("\xF0\x9F\x8E\xC3\xA9"), 0); /* lead of the next char too soon */
  assert_int_equal(VALID("é\xE6"), 2);
}

static void test_stray_continuation_bytes_are_rejected(void **state) {
  assert_int_equal(VALID("\x80"), 0);
  assert_int_equal(VALID("ab\x80" "c"), 2);
  assert_int_equal(VALID("\xC3\xA9\xA9"), 2); /* é then one too many */
  assert_int_equal(VALID("日\xBF"), 3);
}

static void test_counting_characters(void **state) {
  const char *text = "aé日🎉\n";
  size_t len = strlen(text); /* 1 + 2 + 3 + 4 + 1 */
  assert_int_equal(len, 11);
  assert_int_equal(eddi_utf8_count_chars(text, len), 5);
  assert_int_equal(eddi_utf8_count_chars(text, 0), 0);
  assert_int_equal(eddi_utf8_count_chars(text, 2), 2); /* a and the lead of é */
  assert_int_equal(eddi_utf8_count_chars(text + 2, 1), 0); /* é's continuation byte */
  assert_int_equal(eddi_utf8_skip_chars(text, len, 0), 0);
  assert_int_equal(eddi_utf8_skip_chars(text, len, 1), 1);
  assert_int_equal(eddi_utf8_skip_chars(text, len, 2), 3);
  assert_int_equal(eddi_utf8_skip_chars(text, len, 3), 6);
  assert_int_equal(eddi_utf8_skip_chars(text, len, 4), 10);
  assert_int_equal(eddi_utf8_skip_chars(text, len, 5), 11);
  assert_int_equal(eddi_utf8_skip_chars(text, len, 50), 11);
  assert_int_equal(eddi_utf8_skip_chars(text + 2, len - 2, 0), 1); /* skips the tail of é */
}

static void test_char_len_and_lead(void **state) {
  assert_int_equal(eddi_utf8_char_len('a'), 1);
  assert_int_equal(eddi_utf8_char_len(0xC3), 2);
  assert_int_equal(eddi_utf8_char_len(0xE6), 3);
  assert_int_equal(eddi_utf8_char_len(0xF0), 4);
  assert_int_equal(eddi_utf8_char_len(0x80), 1); /* continuation: step one byte */
  assert_int_equal(eddi_utf8_char_len(0xFF), 1);
  assert_true(eddi_utf8_is_lead('a'));
  assert_true(eddi_utf8_is_lead(0xC3));
  assert_true(eddi_utf8_is_lead(0xF0));
  assert_false(eddi_utf8_is_lead(0x80));
  assert_false(eddi_utf8_is_lead(0xBF));
}

/* A byte-count cut must not leave half a character at the end. */
static void test_complete_prefix(void **state) {
  const char *text = "aé日🎉"; /* 1 + 2 + 3 + 4 bytes */
  size_t expected[] = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10};
  for (size_t len = 0; len <= 10; len++)
    assert_int_equal(eddi_utf8_complete_prefix(text, len), expected[len]);
  assert_int_equal(eddi_utf8_complete_prefix("abc", 3), 3);
  assert_int_equal(eddi_utf8_complete_prefix("\x80\x80\x80\x80\x80", 5), 5); /* not UTF-8: left */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_text_is_accepted_whole),
      cmocka_unit_test(test_overlong_forms_are_rejected),
      cmocka_unit_test(test_surrogates_are_rejected),
      cmocka_unit_test(test_past_last_code_point_is_rejected),
      cmocka_unit_test(test_truncated_sequences_are_rejected),
      cmocka_unit_test(test_stray_continuation_bytes_are_rejected),
      cmocka_unit_test(test_counting_characters),
      cmocka_unit_test(test_char_len_and_lead),
      cmocka_unit_test(test_complete_prefix),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
