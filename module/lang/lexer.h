/* lexer.h - EddiSpeak's lexical rules (doc/eddispeak.org, "Lexical rules").
 *
 * A command line becomes tokens: bare words, "quoted strings" with C escapes,
 * integers, pairs L:C (positions and inclusive line ranges share the shape),
 * and /regex/flags. Every token keeps its source text, because an argument
 * that looks like a regex may be a path (/tmp/x) to the command reading it.
 */
#ifndef EDDI_LEXER_H
#define EDDI_LEXER_H

#include "core/common.h"

typedef enum {
  TOKEN_WORD,
  TOKEN_STRING,
  TOKEN_INT,
  TOKEN_PAIR,
  TOKEN_REGEX,
} TokenKind;

/* Regex flags as written after the closing slash. */
enum {
  REGEX_CASELESS = 1,
  REGEX_MULTILINE = 2,
  REGEX_DOTALL = 4,
  REGEX_EXTENDED = 8,
};

typedef struct {
  TokenKind kind;
  char *text;     /* string/regex body unescaped, else the source; owned */
  size_t len;     /* bytes in text (a string may hold any UTF-8) */
  const char *source; /* borrowed: the token as written */
  size_t source_len;
  size_t column;  /* byte column in the line, for error messages */
  long first;     /* INT value, or PAIR first half */
  long second;    /* PAIR second half */
  unsigned flags; /* REGEX_* */
} Token;

typedef Array(Token) TokenList;

/* Split one line into tokens (appended to out). On a lexical error returns
 * EDDI_EINVAL with the message in err; out is then freed. */
int eddi_lex_line(const char *line, size_t len, TokenList *out, EddiError *err);
void eddi_tokens_free(TokenList *tokens);

/* Case-insensitive keyword test: a WORD equal to keyword. */
bool eddi_token_is(const Token *token, const char *keyword);

/* Largest integer a token may hold; larger ones are refused by the lexer. */
#define EDDI_LEX_INT_MAX 1000000000L

#endif
