/* test_lexer.c - EddiSpeak's tokens (lexer.h). */
#include "unit_support.h"

#include "lang/lexer.h"

/* ---------------------------------------------------------------- helpers */

static void lex_ok(const char *line, TokenList *tokens) {
  EddiError err;
  eddi_error_clear(&err);
  *tokens = (TokenList){0};
  assert_int_equal(eddi_lex_line(line, strlen(line), tokens, &err), 0);
  assert_string_equal(err.what, "");
}

static void assert_token(const Token *token, TokenKind kind, const char *text,
                         const char *source, size_t column) {
  assert_int_equal(token->kind, kind);
  assert_string_equal(token->text, text);
  assert_int_equal(token->len, strlen(text));
  assert_int_equal(token->source_len, strlen(source));
  assert_memory_equal(token->source, source, strlen(source));
  assert_int_equal(token->column, column);
}

/* The one token line lexes to must have kind and source text. */
static void assert_single(const char *line, TokenKind kind) {
  TokenList tokens;
  lex_ok(line, &tokens);
  assert_int_equal(tokens.len, 1);
  assert_int_equal(tokens.items[0].kind, kind);
  assert_int_equal(tokens.items[0].source_len, strlen(line));
  eddi_tokens_free(&tokens);
}

static void lex_fails(const char *line, const char *what, const char *hint) {
  EddiError err;
  eddi_error_clear(&err);
  TokenList tokens = {0};
  assert_int_equal(eddi_lex_line(line, strlen(line), &tokens, &err), EDDI_EINVAL);
  assert_int_equal(err.code, EDDI_EINVAL);
  assert_string_equal(err.what, what);
  assert_string_equal(err.hint, hint);
  assert_int_equal(tokens.len, 0); /* freed, tokens before the error too */
  assert_null(tokens.items);
}

/* ---------------------------------------------------------------- kinds */

static void test_every_kind_with_columns(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("Goto 12:3 42 \"hi\" /re/i word", &tokens);
  assert_int_equal(tokens.len, 6);
  assert_token(&tokens.items[0], TOKEN_WORD, "Goto", "Goto", 0);
  assert_token(&tokens.items[1], TOKEN_PAIR, "12:3", "12:3", 5);
  assert_int_equal(tokens.items[1].first, 12);
  assert_int_equal(tokens.items[1].second, 3);
  assert_token(&tokens.items[2], TOKEN_INT, "42", "42", 10);
  assert_int_equal(tokens.items[2].first, 42);
  assert_token(&tokens.items[3], TOKEN_STRING, "hi", "\"hi\"", 13);
  assert_token(&tokens.items[4], TOKEN_REGEX, "re", "/re/i", 18);
  assert_int_equal(tokens.items[4].flags, REGEX_CASELESS);
  assert_token(&tokens.items[5], TOKEN_WORD, "word", "word", 24);
  eddi_tokens_free(&tokens);
  assert_int_equal(tokens.len, 0);
  unit_assert_no_leak(live);
}

static void test_blank_line_and_separators(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("", &tokens);
  assert_int_equal(tokens.len, 0);
  lex_ok(" \t\r ", &tokens);
  assert_int_equal(tokens.len, 0);
  lex_ok("\ta\t b\r", &tokens);
  assert_int_equal(tokens.len, 2);
  assert_token(&tokens.items[0], TOKEN_WORD, "a", "a", 1);
  assert_token(&tokens.items[1], TOKEN_WORD, "b", "b", 4);
  eddi_tokens_free(&tokens);
  /* Columns are bytes: 日 takes three. */
  lex_ok("日 \"x\"", &tokens);
  assert_token(&tokens.items[1], TOKEN_STRING, "x", "\"x\"", 4);
  eddi_tokens_free(&tokens);
  unit_assert_no_leak(live);
}

static void test_words_and_quotes_touching(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("\"a\"b ab\"c d\"", &tokens);
  assert_int_equal(tokens.len, 4);
  assert_token(&tokens.items[0], TOKEN_STRING, "a", "\"a\"", 0);
  assert_token(&tokens.items[1], TOKEN_WORD, "b", "b", 3);
  assert_token(&tokens.items[2], TOKEN_WORD, "ab\"c", "ab\"c", 5);
  assert_token(&tokens.items[3], TOKEN_WORD, "d\"", "d\"", 10);
  eddi_tokens_free(&tokens);
  unit_assert_no_leak(live);
}

static void test_keyword_test(void **state) {
  TokenList tokens;
  lex_ok("oPeN \"Open\" Open2", &tokens);
  assert_true(eddi_token_is(&tokens.items[0], "Open"));
  assert_true(eddi_token_is(&tokens.items[0], "OPEN"));
  assert_false(eddi_token_is(&tokens.items[1], "Open")); /* a string is not a keyword */
  assert_false(eddi_token_is(&tokens.items[2], "Open"));
  eddi_tokens_free(&tokens);
}

/* ---------------------------------------------------------------- strings */

static void test_string_escapes(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("\"a\\nb\\t\\\"q\\\"\\\\ \\/ \\r\" \"\" \"日本\"", &tokens);
  assert_int_equal(tokens.len, 3);
  assert_token(&tokens.items[0], TOKEN_STRING, "a\nb\t\"q\"\\ / \r",
               "\"a\\nb\\t\\\"q\\\"\\\\ \\/ \\r\"", 0);
  assert_token(&tokens.items[1], TOKEN_STRING, "", "\"\"", 22);
  assert_token(&tokens.items[2], TOKEN_STRING, "日本", "\"日本\"", 25);
  eddi_tokens_free(&tokens);
  unit_assert_no_leak(live);
}

static void test_string_errors(void **state) {
  long live = unit_live();
  lex_fails("Find \"abc", "Unterminated string starting at column 5", "Close it with \"");
  lex_fails("Find \"abc\\\"", "Unterminated string starting at column 5", "Close it with \"");
  lex_fails("x \"ab\\", "Unterminated string starting at column 2", "Close it with \"");
  lex_fails("Insert \"ab\\q\"", "Unknown escape \\q in string at column 10", "");
  lex_fails("\"\\x41\"", "Unknown escape \\x in string at column 1", "");
  /* The message names the whole character, not its first byte. */
  lex_fails("\"\\é\"", "Unknown escape \\é in string at column 1", "");
  lex_fails("ab \"\\🎉", "Unknown escape \\🎉 in string at column 4", "");
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- regexes */

static void test_regex_flags_and_escapes(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("/x/ims /x/imsx /a\\/b/ /a\\d+\\\\/ /x/", &tokens);
  assert_int_equal(tokens.len, 5);
  assert_token(&tokens.items[0], TOKEN_REGEX, "x", "/x/ims", 0);
  assert_int_equal(tokens.items[0].flags, REGEX_CASELESS | REGEX_MULTILINE | REGEX_DOTALL);
  assert_token(&tokens.items[1], TOKEN_REGEX, "x", "/x/imsx", 7);
  assert_int_equal(tokens.items[1].flags,
                   REGEX_CASELESS | REGEX_MULTILINE | REGEX_DOTALL | REGEX_EXTENDED);
  assert_token(&tokens.items[2], TOKEN_REGEX, "a/b", "/a\\/b/", 15); /* \/ is a slash */
  assert_token(&tokens.items[3], TOKEN_REGEX, "a\\d+\\\\", "/a\\d+\\\\/", 22);
  assert_token(&tokens.items[4], TOKEN_REGEX, "x", "/x/", 31);
  assert_int_equal(tokens.items[4].flags, 0);
  eddi_tokens_free(&tokens);
  unit_assert_no_leak(live);
}

/* What looks like a regex but is not one is a word: the command reading it
 * may take it as a path. */
static void test_regex_or_path(void **state) {
  long live = unit_live();
  TokenList tokens;
  /* "/tmp/ x": a complete regex "tmp", then the word x. */
  lex_ok("/tmp/ x", &tokens);
  assert_int_equal(tokens.len, 2);
  assert_token(&tokens.items[0], TOKEN_REGEX, "tmp", "/tmp/", 0);
  assert_token(&tokens.items[1], TOKEN_WORD, "x", "x", 6);
  eddi_tokens_free(&tokens);
  /* "/tmp/x": x is a flag, so this is the regex /tmp/ with x; the source
   * keeps the path for a command that wants one. */
  lex_ok("/tmp/x", &tokens);
  assert_token(&tokens.items[0], TOKEN_REGEX, "tmp", "/tmp/x", 0);
  assert_int_equal(tokens.items[0].flags, REGEX_EXTENDED);
  eddi_tokens_free(&tokens);
  /* "passwd" is not a flag list: a word. */
  lex_ok("/etc/passwd", &tokens);
  assert_token(&tokens.items[0], TOKEN_WORD, "/etc/passwd", "/etc/passwd", 0);
  eddi_tokens_free(&tokens);
  assert_single("/", TOKEN_WORD);
  assert_single("//", TOKEN_WORD);  /* empty body */
  assert_single("//i", TOKEN_WORD);
  assert_single("/abc", TOKEN_WORD); /* never closed */
  assert_single("/x/q", TOKEN_WORD);
  assert_single("/x/i/", TOKEN_WORD);
  assert_single("/usr/local/bin", TOKEN_WORD);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- numbers */

static void test_int_limit(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("0 007 1000000000 1000000001 99999999999 -1 12a", &tokens);
  assert_int_equal(tokens.len, 7);
  assert_int_equal(tokens.items[0].kind, TOKEN_INT);
  assert_int_equal(tokens.items[0].first, 0);
  assert_int_equal(tokens.items[1].kind, TOKEN_INT);
  assert_int_equal(tokens.items[1].first, 7);
  assert_int_equal(tokens.items[2].kind, TOKEN_INT);
  assert_int_equal(tokens.items[2].first, EDDI_LEX_INT_MAX);
  assert_token(&tokens.items[3], TOKEN_WORD, "1000000001", "1000000001", 17);
  assert_int_equal(tokens.items[4].kind, TOKEN_WORD);
  assert_int_equal(tokens.items[5].kind, TOKEN_WORD);
  assert_int_equal(tokens.items[6].kind, TOKEN_WORD);
  eddi_tokens_free(&tokens);
  unit_assert_no_leak(live);
}

static void test_pairs(void **state) {
  long live = unit_live();
  TokenList tokens;
  lex_ok("0:0 1000000000:1000000000 3:7", &tokens);
  assert_int_equal(tokens.len, 3);
  for (size_t i = 0; i < 3; i++) assert_int_equal(tokens.items[i].kind, TOKEN_PAIR);
  assert_int_equal(tokens.items[1].first, EDDI_LEX_INT_MAX);
  assert_int_equal(tokens.items[1].second, EDDI_LEX_INT_MAX);
  assert_int_equal(tokens.items[2].first, 3);
  assert_int_equal(tokens.items[2].second, 7);
  eddi_tokens_free(&tokens);
  assert_single("1:1000000001", TOKEN_WORD);
  assert_single("1:99999999999", TOKEN_WORD);
  assert_single("1:", TOKEN_WORD);
  assert_single(":1", TOKEN_WORD);
  assert_single(":", TOKEN_WORD);
  assert_single("1:2:3", TOKEN_WORD);
  assert_single("a:1", TOKEN_WORD);
  assert_single("-1:2", TOKEN_WORD);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_kind_with_columns),
      cmocka_unit_test(test_blank_line_and_separators),
      cmocka_unit_test(test_words_and_quotes_touching),
      cmocka_unit_test(test_keyword_test),
      cmocka_unit_test(test_string_escapes),
      cmocka_unit_test(test_string_errors),
      cmocka_unit_test(test_regex_flags_and_escapes),
      cmocka_unit_test(test_regex_or_path),
      cmocka_unit_test(test_int_limit),
      cmocka_unit_test(test_pairs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
