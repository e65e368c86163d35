/* test_suggest.c - edit distance and "did you mean" (suggest.h). */
#include "unit_support.h"

#include "lang/suggest.h"

static const char *const verbs[] = {
    "Open",   "Close", "Save",    "Goto", "Find", "Replace", "Insert", "Delete", "Undo", "Redo",
    "Diff",   "Show",  "Status",  "Start", "End", "Summary", "Help",   "Set",    "List", "Bookmark",
};
#define VERB_COUNT (sizeof verbs / sizeof *verbs)

static void suggests(const char *word, const char *expected) {
  const char *got = eddi_suggest(word, verbs, VERB_COUNT);
  if (!expected) {
    if (got) fail_msg("%s: expected no suggestion, got %s", word, got);
    return;
  }
  if (!got) fail_msg("%s: expected %s, got none", word, expected);
  assert_string_equal(got, expected);
}

static void test_edit_distance(void **state) {
  assert_int_equal(eddi_edit_distance("", ""), 0);
  assert_int_equal(eddi_edit_distance("abc", "abc"), 0);
  assert_int_equal(eddi_edit_distance("", "abc"), 3);
  assert_int_equal(eddi_edit_distance("abc", ""), 3);
  assert_int_equal(eddi_edit_distance("OPEN", "open"), 0); /* case-insensitive */
  assert_int_equal(eddi_edit_distance("kitten", "sitting"), 3);
  assert_int_equal(eddi_edit_distance("abc", "abd"), 1);
  assert_int_equal(eddi_edit_distance("abc", "abcd"), 1);
  assert_int_equal(eddi_edit_distance("abcd", "acd"), 1);
}

static void test_transposition_is_one_edit(void **state) {
  assert_int_equal(eddi_edit_distance("teh", "the"), 1);
  assert_int_equal(eddi_edit_distance("ab", "ba"), 1);
  assert_int_equal(eddi_edit_distance("Opne", "Open"), 1);
  assert_int_equal(eddi_edit_distance("abcd", "bacd"), 1);
  assert_int_equal(eddi_edit_distance("abcd", "badc"), 2);
  assert_int_equal(eddi_edit_distance("Replcae", "REPLACE"), 1);
}

static void test_long_words_are_not_typos(void **state) {
  char word[80];
  memset(word, 'a', 65);
  word[65] = '\0';
  assert_int_equal(eddi_edit_distance(word, "a"), SIZE_MAX);
  assert_int_equal(eddi_edit_distance("a", word), SIZE_MAX);
  word[64] = '\0'; /* 64 letters is still measured */
  assert_int_equal(eddi_edit_distance(word, "a"), 63);
  suggests(word, NULL);
}

/* A suggestion is at most len/3 edits away (at least 1). */
static void test_suggest_thresholds(void **state) {
  suggests("Opne", "Open");        /* 4 letters: 1 edit */
  suggests("sHOW", "Show");
  suggests("Sohw", "Show");
  suggests("Shwo", "Show");
  suggests("Bokmrk", "Bookmark");  /* 6 letters: 2 edits */
  suggests("Bkmrk", NULL);         /* 5 letters: 1 edit; it needs 3 */
  suggests("Sumry", NULL);         /* 5 letters, 2 edits away */
  suggests("Replcae", "Replace");
  suggests("x", NULL);
  suggests("", NULL);
  suggests("Frobnicate", NULL);
  suggests("Fnd", "Find"); /* Find and End are both 1 away: the first wins */
}

/* A word of 3 letters or more that starts a candidate is an abbreviation. */
static void test_suggest_abbreviations(void **state) {
  suggests("del", "Delete");
  suggests("Got", "Goto");
  suggests("Go", NULL);       /* too short to be an abbreviation, 2 edits away */
  suggests("Stat", "Status"); /* the first candidate it starts */
  suggests("book", "Bookmark");
  const char *const one[] = {"Bookmark"};
  assert_null(eddi_suggest("bookx", one, 1));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edit_distance),
      cmocka_unit_test(test_transposition_is_one_edit),
      cmocka_unit_test(test_long_words_are_not_typos),
      cmocka_unit_test(test_suggest_thresholds),
      cmocka_unit_test(test_suggest_abbreviations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
