/* test_diff.c - line counts and unified diffs (diff.h). */
#include "unit_support.h"

#include "core/diff.h"

/* ---------------------------------------------------------------- helpers */

/* Diff a against b as "f.txt": the counts must be added/deleted and the
 * unified text exactly expected. */
static void diff_is(const char *a, const char *b, size_t added, size_t deleted,
                    const char *expected) {
  long live = unit_live();
  EddiDiffStats stats = {99, 99};
  StrBuf unified = {0};
  eddi_diff(a, strlen(a), b, strlen(b), "f.txt", &stats, &unified);
  assert_int_equal(stats.added, added);
  assert_int_equal(stats.deleted, deleted);
  assert_string_equal(unified.data ? unified.data : "", expected);
  eddi_strbuf_free(&unified);
  /* The counts do not depend on asking for the text. */
  EddiDiffStats alone = {99, 99};
  eddi_diff(a, strlen(a), b, strlen(b), "f.txt", &alone, NULL);
  assert_int_equal(alone.added, added);
  assert_int_equal(alone.deleted, deleted);
  unit_assert_no_leak(live);
}

/* count lines "<prefix><i>\n", where every `every`-th one is "same<i>\n". */
static char *make_lines(const char *prefix, size_t count, size_t every) {
  StrBuf out = {0};
  for (size_t i = 0; i < count; i++) {
    if (every && i % every == 0) eddi_strbuf_printf(&out, "same%zu\n", i);
    else eddi_strbuf_printf(&out, "%s%zu\n", prefix, i);
  }
  return eddi_strbuf_take(&out);
}

/* Lines of text that start with c. */
static size_t count_lines_starting(const char *text, char c) {
  size_t count = 0;
  for (const char *p = text; *p;) {
    count += *p == c;
    const char *nl = strchr(p, '\n');
    if (!nl) break;
    p = nl + 1;
  }
  return count;
}

/* ---------------------------------------------------------------- cases */

static void test_identical_texts(void **state) {
  diff_is("", "", 0, 0, "");
  diff_is("a\nb\n", "a\nb\n", 0, 0, "");
  diff_is("no newline", "no newline", 0, 0, "");
}

static void test_insert(void **state) {
  diff_is("a\nb\nc\n", "a\nb\nX\nc\n", 1, 0,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,3 +1,4 @@\n a\n b\n+X\n c\n");
  diff_is("", "x\ny\n", 2, 0,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -0,0 +1,2 @@\n+x\n+y\n");
  diff_is("a\n", "X\na\n", 1, 0,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1 +1,2 @@\n+X\n a\n");
}

static void test_delete(void **state) {
  diff_is("a\nb\nc\n", "a\nc\n", 0, 1,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,3 +1,2 @@\n a\n-b\n c\n");
  diff_is("x\ny\n", "", 0, 2,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,2 +0,0 @@\n-x\n-y\n");
}

static void test_replace(void **state) {
  diff_is("one\ntwo\nthree\n", "one\n2\nthree\n", 1, 1,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n");
}

static void test_no_newline_at_end(void **state) {
  diff_is("a\nb", "a\nc", 1, 1,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
          "+c\n\\ No newline at end of file\n");
  diff_is("a\n", "a", 1, 1,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n");
  diff_is("a", "a\nb\n", 2, 1,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+b\n");
}

/* Changes more than 2 * CONTEXT lines apart make separate hunks; closer
 * ones share one. */
static void test_hunks_and_context(void **state) {
  char *a = make_lines("l", 20, 0);
  char *far = make_lines("l", 20, 0);
  far[strlen("l0\n")] = 'X';                    /* l1 -> X1 */
  *strstr(far, "l18\n") = 'X';                  /* l18 -> X18 */
  diff_is(a, far, 2, 2,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -1,5 +1,5 @@\n l0\n-l1\n+X1\n l2\n l3\n l4\n"
          "@@ -16,5 +16,5 @@\n l15\n l16\n l17\n-l18\n+X18\n l19\n");
  char *near = make_lines("l", 20, 0);
  *strstr(near, "l5\n") = 'X';
  *strstr(near, "l12\n") = 'X'; /* six equal lines between: one hunk */
  diff_is(a, near, 2, 2,
          "--- a/f.txt\n+++ b/f.txt\n"
          "@@ -3,14 +3,14 @@\n l2\n l3\n l4\n-l5\n+X5\n l6\n l7\n l8\n l9\n l10\n l11\n"
          "-l12\n+X12\n l13\n l14\n l15\n");
  free(a);
  free(far);
  free(near);
}

/* Past EDDI_DIFF_MAX_COST the changed middle counts as deleted and re-added
 * whole; below it the counts are exact. */
static void test_cost_bound(void **state) {
  long live = unit_live();
  EddiDiffStats stats;
  /* 1000 lines, every other one changed: cost 1000, exact. */
  char *a = make_lines("a", 1000, 2), *b = make_lines("b", 1000, 2);
  eddi_diff(a, strlen(a), b, strlen(b), "f", &stats, NULL);
  assert_int_equal(stats.added, 500);
  assert_int_equal(stats.deleted, 500);
  eddi_free(a);
  eddi_free(b);
  /* 3000 lines the same way: cost 3000 > 2000, so lines 1..2999 count whole. */
  a = make_lines("a", 3000, 2), b = make_lines("b", 3000, 2);
  StrBuf unified = {0};
  eddi_diff(a, strlen(a), b, strlen(b), "f", &stats, &unified);
  assert_int_equal(stats.added, 2999);
  assert_int_equal(stats.deleted, 2999);
  const char *head = "--- a/f\n+++ b/f\n@@ -1,3000 +1,3000 @@\n same0\n-a1\n-same2\n";
  assert_memory_equal(unified.data, head, strlen(head));
  assert_int_equal(count_lines_starting(unified.data, '-'), 2999 + 1);
  assert_int_equal(count_lines_starting(unified.data, '+'), 2999 + 1);
  assert_int_equal(count_lines_starting(unified.data, ' '), 1);
  assert_non_null(strstr(unified.data, "\n-a2999\n+b1\n+same2\n"));
  eddi_free(a);
  eddi_free(b);
  eddi_strbuf_free(&unified);
  /* Wholly unrelated texts: every line deleted and added. */
  a = make_lines("a", 2500, 0), b = make_lines("b", 2500, 0);
  eddi_diff(a, strlen(a), b, strlen(b), "f", &stats, NULL);
  assert_int_equal(stats.added, 2500);
  assert_int_equal(stats.deleted, 2500);
  eddi_free(a);
  eddi_free(b);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identical_texts),
      cmocka_unit_test(test_insert),
      cmocka_unit_test(test_delete),
      cmocka_unit_test(test_replace),
      cmocka_unit_test(test_no_newline_at_end),
      cmocka_unit_test(test_hunks_and_context),
      cmocka_unit_test(test_cost_bound),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
