/* test_lexer.c - EddiSpeak's tokens (lexer.h), and the string and number
 * readers the script lexer shares with the command lexer. */
#include "unit_support.h"

#include "lang/lexer.h"
#include "script/script.h"

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
  lex_ok("\"a\\nb\\t\\\"q\\\"\\\\ \\/ \\r\" \"\" \"日本\" \"a\\$b\"", &tokens);
  assert_int_equal(tokens.len, 4);
  assert_token(&tokens.items[0], TOKEN_STRING, "a\nb\t\"q\"\\ / \r",
               "\"a\\nb\\t\\\"q\\\"\\\\ \\/ \\r\"", 0);
  assert_token(&tokens.items[1], TOKEN_STRING, "", "\"\"", 22);
  assert_token(&tokens.items[2], TOKEN_STRING, "日本", "\"日本\"", 25);
  assert_token(&tokens.items[3], TOKEN_STRING, "a$b", "\"a\\$b\"", 34);
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
  /* What C has and EddiSpeak does not. */
  lex_fails("Find \"it\\'s\"", "Unknown escape \\' in string at column 8", "");
  lex_fails("Find \"\\0\"", "Unknown escape \\0 in string at column 6", "");
  lex_fails("Find \"a\\ b\"", "Unknown escape \\  in string at column 7", "");
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- the shared readers */

/* src as eddi_lex_string reads it must give text, having read used bytes. */
static void assert_string_reads(const char *src, const char *text, size_t used) {
  LexString string;
  assert_int_equal(eddi_lex_string(src, strlen(src), &string), 0);
  assert_int_equal(string.len, strlen(text));
  assert_memory_equal(string.text, text, string.len);
  assert_int_equal(string.text[string.len], '\0');
  assert_int_equal(string.end, used);
  eddi_free(string.text);
}

static void assert_string_fault(const char *src, LexStringFault fault, size_t at) {
  LexString string;
  assert_int_equal(eddi_lex_string(src, strlen(src), &string), EDDI_EINVAL);
  assert_int_equal(string.fault, fault);
  assert_null(string.text);
  if (fault == LEX_STRING_BAD_ESCAPE) assert_int_equal(string.end, at);
}

static void test_each_escape(void **state) {
  long live = unit_live();
  assert_string_reads("\"\\n\"", "\n", 4);
  assert_string_reads("\"\\t\"", "\t", 4);
  assert_string_reads("\"\\r\"", "\r", 4);
  assert_string_reads("\"\\\"\"", "\"", 4);
  assert_string_reads("\"\\\\\"", "\\", 4);
  assert_string_reads("\"\\/\"", "/", 4);
  assert_string_reads("\"\\$\"", "$", 4);
  /* A dollar needs no escape; the string ends at its closing quote. */
  assert_string_reads("\"a$b\" rest", "a$b", 5);
  assert_string_reads("\"a\\$b\"", "a$b", 6);
  assert_string_reads("\"\"", "", 2);
  assert_string_reads("\"日\\n本\"", "日\n本", 10);
  unit_assert_no_leak(live);
}

static void test_string_faults(void **state) {
  long live = unit_live();
  assert_string_fault("\"a\\qb\"", LEX_STRING_BAD_ESCAPE, 2);
  assert_string_fault("\"ok\\n \\x41\"", LEX_STRING_BAD_ESCAPE, 6);
  assert_string_fault("\"", LEX_STRING_UNTERMINATED, 0);
  assert_string_fault("\"abc", LEX_STRING_UNTERMINATED, 0);
  assert_string_fault("\"abc\\\"", LEX_STRING_UNTERMINATED, 0); /* the quote is escaped */
  assert_string_fault("\"ab\\", LEX_STRING_UNTERMINATED, 0);
  /* A string ends with its line, a backslash before the newline too. */
  assert_string_fault("\"ab\nc\"", LEX_STRING_UNTERMINATED, 0);
  assert_string_fault("\"ab\\\nc\"", LEX_STRING_UNTERMINATED, 0);
  unit_assert_no_leak(live);
}

static void assert_number(const char *text, bool is, long value) {
  long got = -1;
  assert_int_equal(eddi_lex_number(text, strlen(text), &got), is);
  if (is) assert_int_equal(got, value);
  else assert_int_equal(got, -1); /* left as it was */
}

static void test_number_edges(void **state) {
  assert_number("0", true, 0);
  assert_number("42", true, 42);
  assert_number("1000000000", true, EDDI_LEX_INT_MAX);
  /* Leading zeros are allowed, however many: the limit is on the value. */
  assert_number("007", true, 7);
  assert_number("0000000000000000000007", true, 7);
  assert_number("0001000000000", true, EDDI_LEX_INT_MAX);
  /* Over the limit, by one or by far: never an overflow. */
  assert_number("1000000001", false, 0);
  assert_number("9999999999", false, 0);
  assert_number("99999999999999999999999999999999", false, 0);
  assert_number("18446744073709551617", false, 0);
  /* No sign, no blanks, no other base. */
  assert_number("-1", false, 0);
  assert_number("+1", false, 0);
  assert_number("-0", false, 0);
  assert_number(" 1", false, 0);
  assert_number("1 ", false, 0);
  assert_number("0x10", false, 0);
  assert_number("1e3", false, 0);
  assert_number("", false, 0);
}

static void test_word_kinds(void **state) {
  long first = -1, second = -1;
  assert_int_equal(eddi_lex_word_kind("12", 2, &first, &second), TOKEN_INT);
  assert_int_equal(first, 12);
  assert_int_equal(eddi_lex_word_kind("007:010", 7, &first, &second), TOKEN_PAIR);
  assert_int_equal(first, 7);
  assert_int_equal(second, 10);
  first = second = -1;
  const char *words[] = {"-1", "1:-2", "1:", ":1", "1:2:3", "1000000001:0", "a", "12a"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    assert_int_equal(eddi_lex_word_kind(words[i], strlen(words[i]), &first, &second), TOKEN_WORD);
  assert_int_equal(first, -1); /* a word sets no number */
  assert_int_equal(second, -1);
}

/* The script lexer reads strings and numbers as the command lexer does: a
 * one-line script passes through both, a script on several lines through
 * the script lexer alone. */
static void test_script_lexer_agrees(void **state) {
  long live = unit_live();
  const char *line = "\"a\\$b\" \"\\n\\t\\r\\\"\\\\\\/\\$\" 007 3:04 1000000001 -1";
  TokenList tokens;
  lex_ok(line, &tokens);
  ScriptTokens script = {0};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_script_lex(line, strlen(line), &script, &err), 0);
  assert_int_equal(script.len, tokens.len + 1); /* and the end */
  static const ScriptTokenKind kinds[] = {ST_STRING, ST_STRING, ST_INT, ST_PAIR, ST_WORD,
                                          ST_WORD};
  for (size_t i = 0; i < tokens.len; i++) {
    const Token *a = &tokens.items[i];
    const ScriptToken *b = &script.items[i];
    assert_int_equal(b->kind, kinds[i]);
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->text, b->text, a->len);
    assert_int_equal(a->first, b->first);
    assert_int_equal(a->second, b->second);
  }
  assert_string_equal(tokens.items[0].text, "a$b");
  eddi_tokens_free(&tokens);
  eddi_script_tokens_free(&script);
  /* A bad escape fails both, each with its own way of giving the place. */
  const char *bad = "flag \"a\\qb\"";
  lex_fails(bad, "Unknown escape \\q in string at column 7", "");
  script = (ScriptTokens){0};
  assert_int_equal(eddi_script_lex(bad, strlen(bad), &script, &err), EDDI_EINVAL);
  assert_string_equal(err.what, "Script line 1:8: unknown escape in string");
  assert_int_equal(script.len, 0);
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
      cmocka_unit_test(test_each_escape),
      cmocka_unit_test(test_string_faults),
      cmocka_unit_test(test_number_edges),
      cmocka_unit_test(test_word_kinds),
      cmocka_unit_test(test_script_lexer_agrees),
      cmocka_unit_test(test_regex_flags_and_escapes),
      cmocka_unit_test(test_regex_or_path),
      cmocka_unit_test(test_int_limit),
      cmocka_unit_test(test_pairs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
