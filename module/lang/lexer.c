/* lexer.c - tokens of one EddiSpeak command line, and the string and number
 * readers the script lexer shares; see lexer.h. */
#include "lang/lexer.h"

#include <ctype.h>
#include <strings.h>

#include "core/utf8.h"

static bool lex__space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static bool lex__word_end(const char *p, const char *end) { return p >= end || lex__space(*p); }

/* A "quoted string" (eddi_lex_string's rules); *p is at the opening quote. */
static int lex__string(const char **p, const char *end, Token *token, EddiError *err) {
  LexString string;
  if (eddi_lex_string(*p, (size_t)(end - *p), &string) < 0) {
    if (string.fault == LEX_STRING_BAD_ESCAPE) {
      /* The whole character after the backslash: the message must stay UTF-8. */
      const char *q = *p + string.end + 1;
      return eddi_error_set(err, EDDI_EINVAL, "Unknown escape \\%.*s in string at column %zu",
                            (int)EDDI_MIN(eddi_utf8_char_len((unsigned char)*q), (size_t)(end - q)),
                            q, token->column + string.end);
    }
    eddi_error_set(err, EDDI_EINVAL, "Unterminated string starting at column %zu",
                   token->column);
    eddi_error_hint(err, "Close it with \"");
    return EDDI_EINVAL;
  }
  token->kind = TOKEN_STRING;
  token->len = string.len;
  token->text = string.text;
  *p += string.end;
  return 0;
}

/* /body/flags followed by a space or the end; false when it is not one (then
 * the caller reads a word, e.g. the path /tmp/x). */
static bool lex__regex(const char **p, const char *end, Token *token) {
  const char *q = *p + 1;
  StrBuf body = {0};
  eddi_strbuf_puts(&body, "");
  for (; q < end && *q != '/'; q++) {
    if (*q == '\\' && q + 1 < end && q[1] == '/') q++; /* \/ is a slash */
    else if (*q == '\\' && q + 1 < end) eddi_strbuf_putc(&body, *q++);
    eddi_strbuf_putc(&body, *q);
  }
  if (q >= end || body.len == 0) {
    eddi_strbuf_free(&body);
    return false;
  }
  static const char flag_names[] = "imsx"; /* bit i of REGEX_* is flag_names[i] */
  unsigned flags = 0;
  const char *f = q + 1;
  for (; f < end && !lex__space(*f); f++) {
    const char *hit = *f ? strchr(flag_names, *f) : NULL;
    if (!hit) break;
    flags |= 1u << (hit - flag_names);
  }
  if (!lex__word_end(f, end)) {
    eddi_strbuf_free(&body);
    return false;
  }
  token->kind = TOKEN_REGEX;
  token->len = body.len;
  token->text = eddi_strbuf_take(&body);
  token->flags = flags;
  *p = f;
  return true;
}

static void lex__word(const char **p, const char *end, Token *token) {
  const char *q = *p;
  while (!lex__word_end(q, end)) q++;
  size_t len = (size_t)(q - *p);
  token->text = eddi_strndup(*p, len);
  token->len = len;
  token->kind = eddi_lex_word_kind(*p, len, &token->first, &token->second);
  *p = q;
}

int eddi_lex_line(const char *line, size_t len, TokenList *out, EddiError *err) {
  const char *p = line, *end = line + len;
  for (;;) {
    while (p < end && lex__space(*p)) p++;
    if (p >= end) return 0;
    Token token = {0};
    token.source = p;
    token.column = (size_t)(p - line);
    if (*p == '"') {
      int rc = lex__string(&p, end, &token, err);
      if (rc < 0) {
        eddi_tokens_free(out);
        return rc;
      }
    } else if (*p == '{' && token.column == 0) {
      /* A script: its brace is a word of its own ("{let" is "{" "let"). */
      token.kind = TOKEN_WORD;
      token.text = eddi_strndup(p++, 1);
      token.len = 1;
    } else if (!(*p == '/' && lex__regex(&p, end, &token))) {
      lex__word(&p, end, &token);
    }
    token.source_len = (size_t)(p - token.source);
    array_push(out, token);
  }
}

void eddi_tokens_free(TokenList *tokens) {
  for (size_t i = 0; i < tokens->len; i++) eddi_free(tokens->items[i].text);
  array_free(tokens);
}

bool eddi_token_is(const Token *token, const char *keyword) {
  return token->kind == TOKEN_WORD && strcasecmp(token->text, keyword) == 0;
}

/* ---------------------------------------------------------------- strings and numbers */

/* The character escape c stands for after a backslash, or 0 for none. */
static char lex__unescape(char c) {
  switch (c) {
  case 'n': return '\n';
  case 't': return '\t';
  case 'r': return '\r';
  case '"': case '\\': case '/': case '$': return c;
  default: return 0;
  }
}

int eddi_lex_string(const char *src, size_t len, LexString *out) {
  *out = (LexString){0};
  StrBuf text = {0};
  eddi_strbuf_puts(&text, "");
  size_t q = 1;
  for (; q < len && src[q] != '"' && src[q] != '\n'; q++) {
    if (src[q] != '\\') {
      eddi_strbuf_putc(&text, src[q]);
      continue;
    }
    /* A backslash that ends the line escapes nothing: the string is open. */
    if (++q >= len || src[q] == '\n') break;
    char c = lex__unescape(src[q]);
    if (!c) {
      eddi_strbuf_free(&text);
      out->fault = LEX_STRING_BAD_ESCAPE;
      out->end = q - 1;
      return EDDI_EINVAL;
    }
    eddi_strbuf_putc(&text, c);
  }
  if (q >= len || src[q] != '"') {
    eddi_strbuf_free(&text);
    out->fault = LEX_STRING_UNTERMINATED;
    return EDDI_EINVAL;
  }
  out->len = text.len;
  out->text = eddi_strbuf_take(&text);
  out->end = q + 1;
  return 0;
}

bool eddi_lex_number(const char *text, size_t len, long *value) {
  if (len == 0) return false;
  long n = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)text[i])) return false;
    long digit = text[i] - '0';
    /* Checked before the multiplication, so that no digit string overflows. */
    if (n > (EDDI_LEX_INT_MAX - digit) / 10) return false;
    n = n * 10 + digit;
  }
  *value = n;
  return true;
}

TokenKind eddi_lex_word_kind(const char *text, size_t len, long *first, long *second) {
  const char *colon = memchr(text, ':', len);
  if (!colon) return eddi_lex_number(text, len, first) ? TOKEN_INT : TOKEN_WORD;
  long a, b;
  if (!eddi_lex_number(text, (size_t)(colon - text), &a) ||
      !eddi_lex_number(colon + 1, (size_t)(text + len - colon - 1), &b))
    return TOKEN_WORD;
  *first = a, *second = b;
  return TOKEN_PAIR;
}
