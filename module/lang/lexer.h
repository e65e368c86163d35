/* lexer.h - EddiSpeak's lexical rules (doc/eddispeak.org, "Lexical rules").
 *
 * A command line becomes tokens: bare words, "quoted strings" with C escapes,
 * integers, pairs L:C (positions and inclusive line ranges share the shape),
 * and /regex/flags. Every token keeps its source text, because an argument
 * that looks like a regex may be a path (/tmp/x) to the command reading it.
 *
 * Strings and numbers are read here for the script lexer too
 * (script/script_lexer.c): a one-line script { ... } is a command line
 * first, so the two must read them alike, or a script would mean one thing
 * on one line and another on three.
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

/* ---------------------------------------------------------------- shared with scripts */

/* What is wrong with a string eddi_lex_string could not read. */
typedef enum {
  LEX_STRING_UNTERMINATED, /* no closing quote before the end of its line */
  LEX_STRING_BAD_ESCAPE,   /* a backslash before none of n t r " \ / $ */
} LexStringFault;

typedef struct {
  char *text;  /* the text unescaped, NUL-terminated; owned; NULL after a fault */
  size_t len;  /* bytes in text (it may hold any UTF-8) */
  size_t end;  /* bytes read, both quotes included; after a fault, the
                * offset of the bad escape's backslash */
  LexStringFault fault;
} LexString;

/* Read the "quoted string" that opens src (src[0] is its quote), at most
 * len bytes; a string ends with its line. Escapes: \n \t \r \" \\ \/
 * and \$ (a plain dollar, for text written among a script's $variables).
 * Returns 0, or EDDI_EINVAL with out->fault (and out->end for a bad
 * escape): the caller words the message, with the position as its
 * language gives it. */
int eddi_lex_string(const char *src, size_t len, LexString *out);

/* Whether text[0, len) is an integer: decimal digits only (no sign;
 * leading zeros allowed) worth at most EDDI_LEX_INT_MAX. Its value in *value. */
bool eddi_lex_number(const char *text, size_t len, long *value);

/* What a bare word is: TOKEN_INT (*first), TOKEN_PAIR a:b (*first,
 * *second: two integers around one colon) or TOKEN_WORD. */
TokenKind eddi_lex_word_kind(const char *text, size_t len, long *first, long *second);

#endif
