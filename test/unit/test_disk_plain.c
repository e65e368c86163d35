/* test_disk_plain.c - eddi_disk_is_plain (core/disk_backend.h), the one-pass
 * check Open and Grep make of a file's bytes, against the plain definition:
 * no NUL, no CR, valid UTF-8 (eddi_utf8_valid_prefix), on random bytes
 * built from ASCII, CR, NUL, valid characters of every length and broken
 * sequences, at every alignment the vector loop can meet. */
#include "unit_support.h"

#include "core/disk_backend.h"
#include "core/utf8.h"

#define PLAIN_CASES 20000
#define PLAIN_PIECES_MAX 40

static bool plain_reference(const char *bytes, size_t len) {
  return !memchr(bytes, '\0', len) && !memchr(bytes, '\r', len) &&
         eddi_utf8_valid_prefix(bytes, len) == len;
}

static void test_plain_matches_definition(void **state) {
  (void)state;
  static const char *const pieces[] = {
      "a", "abcdefghijklmnop", "\n", " ", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
      "\r", "\xC3", "\x80", "\xE2\x82", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
      "0123456789abcdef0123456789abcdef"};
  UnitRandom rnd = {0xD15C};
  char bytes[PLAIN_PIECES_MAX * 40];
  size_t plain = 0;
  for (int c = 0; c < PLAIN_CASES; c++) {
    size_t len = 0, count = unit_random_below(&rnd, PLAIN_PIECES_MAX);
    /* Mostly good text, so that true comes up as well as false. */
    size_t kinds = unit_random_below(&rnd, 4) == 0 ? sizeof pieces / sizeof *pieces : 7;
    for (size_t p = 0; p < count; p++) {
      const char *piece = pieces[unit_random_below(&rnd, kinds)];
      memcpy(bytes + len, piece, strlen(piece));
      len += strlen(piece);
    }
    if (unit_random_below(&rnd, 50) == 0 && len) bytes[unit_random_below(&rnd, len)] = '\0';
    bool expected = plain_reference(bytes, len);
    plain += expected;
    if (eddi_disk_is_plain(bytes, len) != expected)
      fail_msg("case %d (%zu bytes): expected %s", c, len, expected ? "plain" : "not plain");
  }
  assert_true(plain > PLAIN_CASES / 4 && plain < PLAIN_CASES - PLAIN_CASES / 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_plain_matches_definition)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
