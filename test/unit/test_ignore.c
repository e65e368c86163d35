/* test_ignore.c - ignore-file rules and their wildcard matcher (ignore.h).
 *
 * The table is behaviour as data: an ignore file's text, a path relative to
 * its folder, whether the path is a folder, and what the rules say. Each
 * row was checked against ripgrep 13 (rg --files --no-require-git) over a
 * tree holding just that file and that path, but the last two, where git's
 * rule is kept (see ignore.h). */
#include "unit_support.h"

#include <time.h>

#include "core/ignore.h"

typedef struct {
  const char *rules;
  const char *path;
  bool is_dir;
  EddiIgnoreMatch expected;
} IgnoreCase;

static const IgnoreCase cases[] = {
    {"foo", "foo", false, EDDI_IGNORE_EXCLUDE},
    {"foo", "a/foo", false, EDDI_IGNORE_EXCLUDE},
    {"foo", "a/b/foo", true, EDDI_IGNORE_EXCLUDE},
    {"foo", "foobar", false, EDDI_IGNORE_NONE},
    {"foo/", "foo", false, EDDI_IGNORE_NONE},
    {"foo/", "foo", true, EDDI_IGNORE_EXCLUDE},
    {"foo/", "a/foo", true, EDDI_IGNORE_EXCLUDE},
    {"/foo", "foo", false, EDDI_IGNORE_EXCLUDE},
    {"/foo", "a/foo", false, EDDI_IGNORE_NONE},
    {"a/foo", "a/foo", false, EDDI_IGNORE_EXCLUDE},
    {"a/foo", "b/a/foo", false, EDDI_IGNORE_NONE},
    {"*/foo", "x/foo", false, EDDI_IGNORE_EXCLUDE},
    {"*/foo", "x/y/foo", false, EDDI_IGNORE_NONE},
    {"foo/*", "foo/x", false, EDDI_IGNORE_EXCLUDE},
    {"foo/*", "foo/x", true, EDDI_IGNORE_EXCLUDE},
    {"*.c", "x.c", false, EDDI_IGNORE_EXCLUDE},
    {"*.c", "d/x.c", false, EDDI_IGNORE_EXCLUDE},
    {"*.c", "x.h", false, EDDI_IGNORE_NONE},
    {"*.c", ".c", false, EDDI_IGNORE_EXCLUDE},
    {"a/*.c", "a/x.c", false, EDDI_IGNORE_EXCLUDE},
    {"a/*.c", "a/b/x.c", false, EDDI_IGNORE_NONE},
    {"?.c", "x.c", false, EDDI_IGNORE_EXCLUDE},
    {"?.c", "xy.c", false, EDDI_IGNORE_NONE},
    {"?.c", ".c", false, EDDI_IGNORE_NONE},
    {"[abc].txt", "b.txt", false, EDDI_IGNORE_EXCLUDE},
    {"[abc].txt", "d.txt", false, EDDI_IGNORE_NONE},
    {"[a-c].txt", "c.txt", false, EDDI_IGNORE_EXCLUDE},
    {"[!a-c].txt", "d.txt", false, EDDI_IGNORE_EXCLUDE},
    {"[!a-c].txt", "a.txt", false, EDDI_IGNORE_NONE},
    {"[^a].txt", "b.txt", false, EDDI_IGNORE_EXCLUDE},
    {"[^a].txt", "a.txt", false, EDDI_IGNORE_NONE},
    {"[]a].txt", "].txt", false, EDDI_IGNORE_EXCLUDE},
    {"[a\\]]x", "]x", false, EDDI_IGNORE_NONE},
    {"[a\\]]x", "a]x", false, EDDI_IGNORE_EXCLUDE},
    {"[a\\]]x", "\\]x", false, EDDI_IGNORE_EXCLUDE},
    {"[\\b]", "b", false, EDDI_IGNORE_EXCLUDE},
    {"**/foo", "foo", false, EDDI_IGNORE_EXCLUDE},
    {"**/foo", "a/b/foo", false, EDDI_IGNORE_EXCLUDE},
    {"**/foo/bar", "x/foo/bar", false, EDDI_IGNORE_EXCLUDE},
    {"**/foo/bar", "foo/bar", false, EDDI_IGNORE_EXCLUDE},
    {"**/foo/bar", "x/bar", false, EDDI_IGNORE_NONE},
    {"abc/**", "abc/x", false, EDDI_IGNORE_EXCLUDE},
    {"abc/**", "abc/x/y", false, EDDI_IGNORE_EXCLUDE},
    {"abc/**", "abc", true, EDDI_IGNORE_NONE},
    {"a/**/b", "a/b", false, EDDI_IGNORE_EXCLUDE},
    {"a/**/b", "a/x/b", false, EDDI_IGNORE_EXCLUDE},
    {"a/**/b", "a/x/y/b", false, EDDI_IGNORE_EXCLUDE},
    {"a/**/b", "a/x/c", false, EDDI_IGNORE_NONE},
    {"a/**/b/**/c", "a/b/c", false, EDDI_IGNORE_EXCLUDE},
    {"a/**/b/**/c", "a/x/b/y/z/c", false, EDDI_IGNORE_EXCLUDE},
    {"a/**/b/**/c", "a/x/c", false, EDDI_IGNORE_NONE},
    {"a**b", "axxb", false, EDDI_IGNORE_EXCLUDE},
    {"a**b", "ab", false, EDDI_IGNORE_EXCLUDE},
    {"**", "x", false, EDDI_IGNORE_EXCLUDE},
    {"**", "x/y", true, EDDI_IGNORE_EXCLUDE},
    {"*", "x", false, EDDI_IGNORE_EXCLUDE},
    {"*", ".hidden", false, EDDI_IGNORE_EXCLUDE},
    {"#foo", "#foo", false, EDDI_IGNORE_NONE},
    {"\\#foo", "#foo", false, EDDI_IGNORE_EXCLUDE},
    {"\\!foo", "!foo", false, EDDI_IGNORE_EXCLUDE},
    {"foo   ", "foo", false, EDDI_IGNORE_EXCLUDE},
    {"foo\\ ", "foo ", false, EDDI_IGNORE_EXCLUDE},
    {"foo\\ ", "foo", false, EDDI_IGNORE_NONE},
    {"foo\r", "foo", false, EDDI_IGNORE_EXCLUDE},
    {"  foo", "  foo", false, EDDI_IGNORE_EXCLUDE},
    {"  foo", "foo", false, EDDI_IGNORE_NONE},
    {"\\*", "*", false, EDDI_IGNORE_EXCLUDE},
    {"\\*", "x", false, EDDI_IGNORE_NONE},
    {"\\?x", "?x", false, EDDI_IGNORE_EXCLUDE},
    {"*.log\n!keep.log", "keep.log", false, EDDI_IGNORE_INCLUDE},
    {"*.log\n!keep.log", "a.log", false, EDDI_IGNORE_EXCLUDE},
    {"!keep.log\n*.log", "keep.log", false, EDDI_IGNORE_EXCLUDE},
    {"build/\n!build/", "build", true, EDDI_IGNORE_INCLUDE},
    {"!build", "build", true, EDDI_IGNORE_INCLUDE},
    {"*.o\n!*.o\n*.o", "x.o", false, EDDI_IGNORE_EXCLUDE},
    {"br[ack", "br[ack", false, EDDI_IGNORE_NONE},
    {"br[ack\nfoo", "foo", false, EDDI_IGNORE_EXCLUDE},
    {"foo\\", "foo\\", false, EDDI_IGNORE_NONE},
    {"foo\\", "foo", false, EDDI_IGNORE_NONE},
    {"[a/b]", "a", false, EDDI_IGNORE_EXCLUDE},
    {"doc/**/*.txt", "doc/a/b.txt", false, EDDI_IGNORE_EXCLUDE},
    {"doc/**/*.txt", "doc/a.txt", false, EDDI_IGNORE_EXCLUDE},
    {"doc/**/*.txt", "x/doc/a.txt", false, EDDI_IGNORE_NONE},
    {"a/b/", "a/b", true, EDDI_IGNORE_EXCLUDE},
    {"a/b/", "a/b", false, EDDI_IGNORE_NONE},
    {"/a/b", "a/b", false, EDDI_IGNORE_EXCLUDE},
    {"caf?", "caf\xc3\xa9", false, EDDI_IGNORE_NONE},
    {"[\xc3\xa9" "e]x", "\xc3\xa9" "x", false, EDDI_IGNORE_NONE},
    {"caf??", "caf\xc3\xa9", false, EDDI_IGNORE_EXCLUDE},
    {"/", "x", false, EDDI_IGNORE_NONE},
    {"", "x", false, EDDI_IGNORE_NONE},
    {"!", "!", false, EDDI_IGNORE_NONE},
    {"*a*b*c", "xaybzc", false, EDDI_IGNORE_EXCLUDE},
    {"*a*b*c", "xaybz", false, EDDI_IGNORE_NONE},
    {"a//b", "a/b", false, EDDI_IGNORE_NONE},
    /* Where eddi follows git, not ripgrep: a set never matches '/'. */
    {"/a[!x]b", "a/b", false, EDDI_IGNORE_NONE},
    {"*[!x]b", "a/b", false, EDDI_IGNORE_NONE},
};

static const char *match_name(EddiIgnoreMatch match) {
  return match == EDDI_IGNORE_EXCLUDE   ? "EXCLUDE"
         : match == EDDI_IGNORE_INCLUDE ? "INCLUDE"
                                        : "NONE";
}

static void test_table(void **state) {
  (void)state;
  long live = unit_live();
  int failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const IgnoreCase *c = &cases[i];
    EddiIgnore ignore = {0};
    eddi_ignore_add(&ignore, c->rules, strlen(c->rules));
    EddiIgnoreMatch got = eddi_ignore_match(&ignore, c->path, strlen(c->path), c->is_dir);
    if (got != c->expected) {
      print_error("rules \"%s\" path \"%s\"%s: expected %s, got %s\n", c->rules, c->path,
                  c->is_dir ? " (folder)" : "", match_name(c->expected), match_name(got));
      failures++;
    }
    eddi_ignore_free(&ignore);
  }
  assert_int_equal(failures, 0);
  unit_assert_no_leak(live);
}

/* Blank lines, comments and rules that are no valid pattern add no rule. */
static void test_rules_kept(void **state) {
  (void)state;
  static const char text[] = "# build output\n\n*.o\n   \nbr[ack\nend\\\n!keep.o\nlast";
  EddiIgnore ignore = {0};
  eddi_ignore_add(&ignore, text, sizeof text - 1);
  assert_int_equal(ignore.rules.len, 3); /* "*.o", "!keep.o", "last" (no final newline) */
  assert_string_equal(ignore.rules.items[0].glob, "*.o");
  assert_false(ignore.rules.items[0].literal);
  assert_true(ignore.rules.items[1].negated);
  assert_true(ignore.rules.items[2].literal);
  eddi_ignore_free(&ignore);
}

/* Stars that could backtrack exponentially finish at once. */
static void test_no_blowup(void **state) {
  (void)state;
  char path[4096];
  memset(path, 'a', sizeof path - 1);
  path[sizeof path - 1] = '\0';
  static const char many_stars[] = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  char deep[4096];
  size_t n = 0;
  for (int i = 0; i < 500; i++) n += (size_t)snprintf(deep + n, sizeof deep - n, "d/");
  snprintf(deep + n, sizeof deep - n, "x");
  static const char many_globstars[] = "**/d/**/d/**/d/**/d/**/d/**/d/**/d/**/y";
  clock_t start = clock();
  assert_false(eddi_ignore_glob_match(many_stars, strlen(many_stars), path, strlen(path)));
  assert_false(eddi_ignore_glob_match(many_globstars, strlen(many_globstars), deep, strlen(deep)));
  assert_true(eddi_ignore_glob_match("**/d/**/x", 9, deep, strlen(deep)));
  double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
  assert_true(seconds < 1.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_rules_kept),
      cmocka_unit_test(test_no_blowup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
