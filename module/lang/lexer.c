/* lexer.c - tokens of one EddiSpeak command line; see lexer.h. */
#include "lang/lexer.h"

#include <ctype.h>
#include <strings.h>

#include "core/utf8.h"

static bool lex__space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static bool lex__word_end(const char *p, const char *end) { return p >= end || lex__space(*p); }

/* Digits only, at most EDDI_LEX_INT_MAX; -1 when not a number. */
static long lex__number(const char *p, size_t len) {
  if (len == 0 || len > 10) return -1;
  long value = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)p[i])) return -1;
    value = value * 10 + (p[i] - '0');
  }
  return value <= EDDI_LEX_INT_MAX ? value : -1;
}

/* "..." with \n \t \r \" \\ \/ escapes; *p is at the opening quote. */
static int lex__string(const char **p, const char *end, Token *token, EddiError *err) {
  const char *start = *p;
  StrBuf text = {0};
  eddi_strbuf_puts(&text, "");
  const char *q = start + 1;
  for (; q < end && *q != '"'; q++) {
    if (*q != '\\') {
      eddi_strbuf_putc(&text, *q);
      continue;
    }
    if (++q >= end) break;
    switch (*q) {
    case 'n': eddi_strbuf_putc(&text, '\n'); break;
    case 't': eddi_strbuf_putc(&text, '\t'); break;
    case 'r': eddi_strbuf_putc(&text, '\r'); break;
    case '"': case '\\': case '/': eddi_strbuf_putc(&text, *q); break;
    default:
      eddi_strbuf_free(&text);
      /* The whole character after the backslash: the message must stay UTF-8. */
      return eddi_error_set(err, EDDI_EINVAL, "Unknown escape \\%.*s in string at column %zu",
                            (int)EDDI_MIN(eddi_utf8_char_len((unsigned char)*q), (size_t)(end - q)),
                            q, token->column + (size_t)(q - 1 - token->source));
    }
  }
  if (q >= end) {
    eddi_strbuf_free(&text);
    eddi_error_set(err, EDDI_EINVAL, "Unterminated string starting at column %zu",
                   token->column);
    eddi_error_hint(err, "Close it with \"");
    return EDDI_EINVAL;
  }
  token->kind = TOKEN_STRING;
  token->len = text.len;
  token->text = eddi_strbuf_take(&text);
  *p = q + 1;
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
  token->kind = TOKEN_WORD;
  token->text = eddi_strndup(*p, len);
  token->len = len;
  const char *colon = memchr(*p, ':', len);
  if (colon) {
    long a = lex__number(*p, (size_t)(colon - *p));
    long b = lex__number(colon + 1, (size_t)(q - colon - 1));
    if (a >= 0 && b >= 0) token->kind = TOKEN_PAIR, token->first = a, token->second = b;
  } else {
    long n = lex__number(*p, len);
    if (n >= 0) token->kind = TOKEN_INT, token->first = n;
  }
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
