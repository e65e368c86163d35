/* test_search.c - literal and regex patterns (search.h). */
#include "unit_support.h"

#include <time.h>

#include "lang/lexer.h"
#include "edit/search.h"

/* ---------------------------------------------------------------- helpers */

static void compile(EddiPattern *pattern, const char *text, bool regex, unsigned flags) {
  EddiError err;
  eddi_error_clear(&err);
  int rc = eddi_pattern_compile(pattern, text, strlen(text), regex, flags, &err);
  if (rc != 0) fail_msg("%s: %s", text, err.what);
}

static void compile_fails(const char *text, const char *what) {
  long live = unit_live();
  EddiPattern pattern;
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_pattern_compile(&pattern, text, strlen(text), true, 0, &err),
                   EDDI_EINVAL);
  assert_string_equal(err.what, what);
  eddi_pattern_free(&pattern); /* safe after a failure */
  unit_assert_no_leak(live);
}

/* First match of pattern in subject from `from`: its bounds as "start:end",
 * or "none". */
static const char *find(EddiPattern *pattern, const char *subject, size_t from) {
  static char answer[64];
  size_t start = 999, end = 999;
  EddiError err;
  eddi_error_clear(&err);
  int rc = eddi_pattern_find(pattern, subject, strlen(subject), from, &start, &end, &err);
  if (rc < 0) fail_msg("find failed: %s", err.what);
  if (rc == 0) return "none";
  snprintf(answer, sizeof answer, "%zu:%zu", start, end);
  return answer;
}

/* Compile regex, match it once in subject, expand replacement. */
static void expands(const char *regex, const char *subject, const char *replacement,
                    const char *expected) {
  EddiPattern pattern;
  compile(&pattern, regex, true, 0);
  assert_string_not_equal(find(&pattern, subject, 0), "none");
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  eddi_pattern_expand(&pattern, subject, replacement, strlen(replacement), &out);
  assert_string_equal(out.data, expected);
  eddi_strbuf_free(&out);
  eddi_pattern_free(&pattern);
}

/* ---------------------------------------------------------------- compiling */

static void test_compile_errors(void **state) {
  long live = unit_live();
  EddiPattern pattern;
  EddiError err;
  assert_int_equal(eddi_pattern_compile(&pattern, "", 0, true, 0, &err), EDDI_EINVAL);
  assert_string_equal(err.what, "Empty search pattern");
  assert_int_equal(eddi_pattern_compile(&pattern, "", 0, false, 0, &err), EDDI_EINVAL);
  assert_string_equal(err.what, "Empty search pattern");
  compile_fails("(", "Bad regex at 1: missing closing parenthesis");
  compile_fails("a)", "Bad regex at 1: unmatched closing parenthesis");
  compile_fails("a{2,1}", "Bad regex at 5: numbers out of order in {} quantifier");
  compile_fails("[z-a]", "Bad regex at 3: range out of order in character class");
  compile_fails("\\", "Bad regex at 1: \\ at end of pattern");
  /* The same text as a literal is fine. */
  compile(&pattern, "(", false, 0);
  assert_string_equal(find(&pattern, "f(x)", 0), "1:2");
  eddi_pattern_free(&pattern);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- matching */

static void test_literal_versus_regex(void **state) {
  long live = unit_live();
  EddiPattern literal, regex;
  compile(&literal, "a.c", false, 0);
  compile(&regex, "a.c", true, 0);
  assert_false(literal.is_regex);
  assert_true(regex.is_regex);
  assert_string_equal(find(&literal, "abc a.c", 0), "4:7");
  assert_string_equal(find(&regex, "abc a.c", 0), "0:3");
  assert_string_equal(find(&regex, "abc a.c", 1), "4:7");
  assert_string_equal(find(&literal, "abc", 0), "none");
  assert_string_equal(find(&literal, "a.c", 4), "none"); /* past the end */
  eddi_pattern_free(&literal);
  eddi_pattern_free(&regex);

  compile(&literal, "$1 [x]*", false, 0);
  assert_string_equal(find(&literal, "cost $1 [x]* each", 0), "5:12");
  eddi_pattern_free(&literal);
  unit_assert_no_leak(live);
}

static void test_flags(void **state) {
  long live = unit_live();
  EddiPattern pattern;
  compile(&pattern, "HELLO", true, 0);
  assert_string_equal(find(&pattern, "say hello", 0), "none");
  eddi_pattern_free(&pattern);
  compile(&pattern, "HELLO", true, REGEX_CASELESS);
  assert_string_equal(find(&pattern, "say hello", 0), "4:9");
  eddi_pattern_free(&pattern);
  compile(&pattern, "ÉTÉ", true, REGEX_CASELESS); /* Unicode case folding */
  assert_string_equal(find(&pattern, "un été", 0), "3:8");
  eddi_pattern_free(&pattern);

  compile(&pattern, "a.b", true, 0);
  assert_string_equal(find(&pattern, "a\nb", 0), "none");
  eddi_pattern_free(&pattern);
  compile(&pattern, "a.b", true, REGEX_DOTALL);
  assert_string_equal(find(&pattern, "a\nb", 0), "0:3");
  eddi_pattern_free(&pattern);
  compile(&pattern, "a b # comment", true, REGEX_EXTENDED);
  assert_string_equal(find(&pattern, "a b ab", 0), "4:6");
  eddi_pattern_free(&pattern);
  unit_assert_no_leak(live);
}

/* ^ and $ match at every line, with or without the m flag. */
static void test_multiline_anchors(void **state) {
  long live = unit_live();
  EddiPattern pattern;
  for (unsigned flags = 0; flags <= REGEX_MULTILINE; flags += REGEX_MULTILINE) {
    compile(&pattern, "^b", true, flags);
    assert_string_equal(find(&pattern, "ab\nb\n", 0), "3:4");
    eddi_pattern_free(&pattern);
    compile(&pattern, "a$", true, flags);
    assert_string_equal(find(&pattern, "ba\nb", 0), "1:2");
    eddi_pattern_free(&pattern);
    compile(&pattern, "^$", true, flags);
    assert_string_equal(find(&pattern, "x\n\ny", 0), "2:2");
    eddi_pattern_free(&pattern);
  }
  unit_assert_no_leak(live);
}

/* Stepping past empty matches goes one character on, never into one. */
static void test_empty_matches_step_by_character(void **state) {
  long live = unit_live();
  const char *subject = "é日🎉"; /* 2 + 3 + 4 bytes */
  size_t len = strlen(subject);
  EddiPattern pattern;
  compile(&pattern, "x*", true, 0);
  char seen[128] = "";
  for (size_t from = 0; from <= len;) {
    size_t start, end;
    EddiError err;
    if (eddi_pattern_find(&pattern, subject, len, from, &start, &end, &err) != 1) break;
    char one[32];
    snprintf(one, sizeof one, "%s%zu:%zu", seen[0] ? " " : "", start, end);
    strcat(seen, one);
    from = end > start ? end : eddi_pattern_step(subject, len, end);
  }
  assert_string_equal(seen, "0:0 2:2 5:5 9:9");
  assert_int_equal(eddi_pattern_step(subject, len, 0), 2);
  assert_int_equal(eddi_pattern_step(subject, len, 2), 5);
  assert_int_equal(eddi_pattern_step(subject, len, 5), 9);
  assert_int_equal(eddi_pattern_step(subject, len, 9), 10);  /* past the end */
  assert_int_equal(eddi_pattern_step(subject, len, 12), 10);
  size_t start, end;
  EddiError err;
  assert_int_equal(eddi_pattern_find(&pattern, subject, len, len + 1, &start, &end, &err), 0);
  eddi_pattern_free(&pattern);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- replacement */

static void test_group_expansion(void **state) {
  long live = unit_live();
  expands("(\\w+)@(\\w+)", "mail bob@host now", "$2 at $1, $$, $0", "host at bob, $, bob@host");
  const char *eleven = "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)";
  expands(eleven, "abcdefghijk", "$10", "j");
  expands(eleven, "abcdefghijk", "${10}", "j");
  expands(eleven, "abcdefghijk", "${1}0", "a0");
  expands(eleven, "abcdefghijk", "$11$9x", "kix");
  expands(eleven, "abcdefghijk", "${011}", "k");
  expands("(a)", "a", "$", "$");          /* a lone $ at the end */
  expands("(a)", "a", "$x ${x} ${}", "$x ${x} ${}");
  expands("(a)", "a", "${1", "${1");       /* unclosed */
  expands("(a)", "a", "[$2][$99][${7}]", "[][][]"); /* no such group */
  expands("(a)|(b)", "b", "[$1][$2]", "[][b]");     /* unset group */
  expands("é(.)", "café!", "<$1>", "<!>");
  /* A literal pattern's replacement is copied as it is. */
  EddiPattern literal;
  compile(&literal, "a", false, 0);
  assert_string_equal(find(&literal, "a", 0), "0:1");
  StrBuf out = {0};
  eddi_pattern_expand(&literal, "a", "$1$$", 4, &out);
  assert_string_equal(out.data, "$1$$");
  eddi_strbuf_free(&out);
  eddi_pattern_free(&literal);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- limits */

static double seconds_since(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Catastrophic backtracking gives up with an error instead of hanging. */
static void test_catastrophic_regex_gives_up(void **state) {
  long live = unit_live();
  char subject[64];
  memset(subject, 'a', 40);
  strcpy(subject + 40, "b");
  const char *regexes[] = {"(a+)+$", "(a|aa)+$", "(a|a)+$"};
  for (size_t i = 0; i < 3; i++) {
    EddiPattern pattern;
    compile(&pattern, regexes[i], true, 0);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    size_t a, b;
    EddiError err;
    eddi_error_clear(&err);
    int rc = eddi_pattern_find(&pattern, subject, strlen(subject), 0, &a, &b, &err);
    double took = seconds_since(&start);
    assert_int_equal(rc, EDDI_ETOOBIG);
    assert_string_equal(err.what, "Regex failed: match limit exceeded");
    if (took > 5.0) fail_msg("%s took %.1f s", regexes[i], took);
    eddi_pattern_free(&pattern);
  }
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compile_errors),
      cmocka_unit_test(test_literal_versus_regex),
      cmocka_unit_test(test_flags),
      cmocka_unit_test(test_multiline_anchors),
      cmocka_unit_test(test_empty_matches_step_by_character),
      cmocka_unit_test(test_group_expansion),
      cmocka_unit_test(test_catastrophic_regex_gives_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
