/* test_merge.c - line hunks (core/diff.h) and the three-way merge
 * (core/merge.h) that lets eddi keep a change made on disk behind its back. */
#include "unit_support.h"

#include "core/diff.h"
#include "core/merge.h"

static void test_hunks(void **state) {
  long live = unit_live();
  EddiDiffHunks hunks = {0};
  const char *a = "1\n2\n3\n4\n5\n", *b = "1\nTWO\n3\n4\n5\n6\n";
  eddi_diff_hunks(a, strlen(a), b, strlen(b), &hunks);
  assert_int_equal(hunks.len, 2);
  assert_int_equal(hunks.items[0].a_start, 1);
  assert_int_equal(hunks.items[0].a_count, 1);
  assert_int_equal(hunks.items[0].b_start, 1);
  assert_int_equal(hunks.items[0].b_count, 1);
  assert_int_equal(hunks.items[1].a_start, 5);
  assert_int_equal(hunks.items[1].a_count, 0);
  assert_int_equal(hunks.items[1].b_start, 5);
  assert_int_equal(hunks.items[1].b_count, 1);
  eddi_diff_hunks(a, strlen(a), a, strlen(a), &hunks);
  assert_int_equal(hunks.len, 0);
  array_free(&hunks);
  unit_assert_no_leak(live);
}

/* merge(base, ours, theirs) gives expected, or a conflict at first..last
 * when expected is NULL. */
static void merge(const char *base, const char *ours, const char *theirs, const char *expected,
                  size_t first, size_t last) {
  StrBuf out = {0};
  EddiMergeReport report;
  int rc = eddi_merge3(base, strlen(base), ours, strlen(ours), theirs, strlen(theirs), &out,
                       &report);
  if (expected) {
    assert_int_equal(rc, 0);
    assert_string_equal(out.data ? out.data : "", expected);
  } else {
    assert_int_equal(rc, EDDI_ESTALE);
    assert_int_equal(report.conflict_first, first);
    assert_int_equal(report.conflict_last, last);
    assert_int_equal(out.len, 0);
  }
  eddi_strbuf_free(&out);
}

static void test_merge_disjoint(void **state) {
  long live = unit_live();
  /* An appender and an edit higher up both survive. */
  merge("a\nb\nc\n", "A\nb\nc\n", "a\nb\nc\nd\n", "A\nb\nc\nd\n", 0, 0);
  /* An edit of the last line and an append after it touch but do not clash. */
  merge("a\nb\nc\n", "a\nb\nC\n", "a\nb\nc\nd\n", "a\nb\nC\nd\n", 0, 0);
  /* Insertions at different places; deletions. */
  merge("a\nb\nc\nd\n", "x\na\nb\nc\nd\n", "a\nb\nd\n", "x\na\nb\nd\n", 0, 0);
  /* Nothing on one side. */
  merge("a\n", "a\n", "b\n", "b\n", 0, 0);
  merge("a\n", "b\n", "a\n", "b\n", 0, 0);
  /* The same change on both sides is taken once. */
  merge("a\nb\n", "a\nB\n", "a\nB\n", "a\nB\n", 0, 0);
  /* No final newline, empty texts. */
  merge("a\nb", "A\nb", "a\nb\nc", "A\nb\nc", 0, 0);
  merge("", "x\n", "", "x\n", 0, 0);
  unit_assert_no_leak(live);
}

static void test_merge_conflicts(void **state) {
  long live = unit_live();
  merge("a\nb\nc\n", "a\nB\nc\n", "a\nb2\nc\n", NULL, 2, 2);
  /* Both insert at the same place: the order is unknown. */
  merge("a\nb\n", "a\nx\nb\n", "a\ny\nb\n", NULL, 2, 2);
  /* An insertion inside the other side's replaced region. */
  merge("a\nb\nc\nd\n", "a\nB\nC\nd\n", "a\nb\nnew\nc\nd\n", NULL, 2, 3);
  /* Overlapping ranges. */
  merge("1\n2\n3\n4\n", "1\n4\n", "1\n2\nX\n4\n", NULL, 2, 3);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hunks),
      cmocka_unit_test(test_merge_disjoint),
      cmocka_unit_test(test_merge_conflicts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
