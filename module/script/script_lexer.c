/* script_lexer.c - the tokens of a whole script, with line and column.
 *
 * A script spans lines, unlike a command, so it has its own lexer: the
 * command lexer (lang/lexer.c) knows no braces, parentheses or operators.
 * Newlines are tokens, because a command inside a script ends with its
 * line. A '#' that starts a line (after blanks) comments the line out. */
#include "script/script.h"

#include <ctype.h>

#include "core/utf8.h"

/* Largest integer a script may write (as the command lexer's). */
#define SCRIPT_INT_MAX 1000000000L

typedef struct {
  const char *src;
  size_t len, at, line, line_start;
  ScriptTokens *out;
  EddiError *err;
} ScriptLexer;

static bool lexer__word_char(char c) {
  return c && !(isspace((unsigned char)c) || strchr("{}(),+;\"$=<>!", c));
}

static void lexer__push(ScriptLexer *self, ScriptTokenKind kind, size_t start, char *text,
                        size_t len) {
  ScriptToken token = {.kind = kind, .text = text, .len = len, .start = start, .end = self->at,
                       .line = self->line, .col = start - self->line_start + 1};
  array_push(self->out, token);
}

static int lexer__fail(ScriptLexer *self, size_t at, const char *what) {
  return eddi_error_set(self->err, EDDI_EINVAL, "Script line %zu:%zu: %s", self->line,
                        at - self->line_start + 1, what);
}

/* "..." with \n \t \r \" \\ escapes; self->at is at the quote. */
static int lexer__string(ScriptLexer *self) {
  size_t start = self->at;
  StrBuf text = {0};
  eddi_strbuf_puts(&text, "");
  size_t q = start + 1;
  for (; q < self->len && self->src[q] != '"' && self->src[q] != '\n'; q++) {
    char c = self->src[q];
    if (c != '\\') {
      eddi_strbuf_putc(&text, c);
      continue;
    }
    if (++q >= self->len) break;
    switch (self->src[q]) {
    case 'n': eddi_strbuf_putc(&text, '\n'); break;
    case 't': eddi_strbuf_putc(&text, '\t'); break;
    case 'r': eddi_strbuf_putc(&text, '\r'); break;
    case '"': case '\\': case '/': case '$': eddi_strbuf_putc(&text, self->src[q]); break;
    default:
      eddi_strbuf_free(&text);
      return lexer__fail(self, q - 1, "unknown escape in string");
    }
  }
  if (q >= self->len || self->src[q] != '"') {
    eddi_strbuf_free(&text);
    return lexer__fail(self, start, "unterminated string");
  }
  self->at = q + 1;
  size_t n = text.len;
  lexer__push(self, ST_STRING, start, eddi_strbuf_take(&text), n);
  return 0;
}

/* Digits only, at most SCRIPT_INT_MAX; -1 when not a number. */
static long lexer__number(const char *p, size_t len) {
  if (len == 0 || len > 10) return -1;
  long value = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)p[i])) return -1;
    value = value * 10 + (p[i] - '0');
  }
  return value <= SCRIPT_INT_MAX ? value : -1;
}

static void lexer__word(ScriptLexer *self, ScriptTokenKind kind) {
  size_t start = self->at, from = kind == ST_VAR ? start + 1 : start;
  size_t q = from;
  while (q < self->len && lexer__word_char(self->src[q])) q++;
  self->at = q;
  const char *p = self->src + from;
  size_t n = q - from;
  lexer__push(self, kind, start, eddi_strndup(p, n), n);
  if (kind != ST_WORD) return;
  ScriptToken *token = array_back(self->out);
  const char *colon = memchr(p, ':', n);
  if (colon) {
    long a = lexer__number(p, (size_t)(colon - p));
    long b = lexer__number(colon + 1, (size_t)(p + n - colon - 1));
    if (a >= 0 && b >= 0) token->kind = ST_PAIR, token->first = a, token->second = b;
  } else {
    long v = lexer__number(p, n);
    if (v >= 0) token->kind = ST_INT, token->first = v;
  }
}

int eddi_script_lex(const char *src, size_t len, ScriptTokens *out, EddiError *err) {
  ScriptLexer self = {.src = src, .len = len, .line = 1, .out = out, .err = err};
  bool line_empty = true;
  int rc = 0;
  while (rc == 0 && self.at < len) {
    char c = src[self.at];
    size_t start = self.at;
    if (c == '\n') {
      self.at++;
      lexer__push(&self, ST_NEWLINE, start, NULL, 0);
      self.line++, self.line_start = self.at, line_empty = true;
      continue;
    }
    if (isspace((unsigned char)c)) {
      self.at++;
      continue;
    }
    if (c == '#' && line_empty) {
      while (self.at < len && src[self.at] != '\n') self.at++;
      continue;
    }
    line_empty = false;
    if (c == '\0') {
      /* Messages never hold one (the engine refuses them); other callers may. */
      rc = lexer__fail(&self, start, "unexpected NUL byte");
      break;
    }
    static const char singles[] = "{}(),+;";
    static const ScriptTokenKind single_kinds[] = {ST_LBRACE, ST_RBRACE, ST_LPAREN, ST_RPAREN,
                                                   ST_COMMA,  ST_PLUS,   ST_SEMI};
    const char *single = strchr(singles, c);
    if (single) {
      self.at++;
      lexer__push(&self, single_kinds[single - singles], start, eddi_strndup(&c, 1), 1);
    } else if (c == '"') {
      rc = lexer__string(&self);
    } else if (c == '$') {
      if (self.at + 1 >= len || !lexer__word_char(src[self.at + 1]))
        rc = lexer__fail(&self, start, "expected a variable name after '$'");
      else lexer__word(&self, ST_VAR);
    } else if (strchr("=<>!", c)) {
      size_t n = self.at + 1 < len && src[self.at + 1] == '=' ? 2 : 1;
      if (c == '!' && n == 1) {
        rc = lexer__fail(&self, start, "unexpected '!' (write 'not' or '!=')");
        break;
      }
      self.at += n;
      lexer__push(&self, ST_OP, start, eddi_strndup(src + start, n), n);
    } else {
      lexer__word(&self, ST_WORD);
    }
  }
  if (rc < 0) {
    eddi_script_tokens_free(out);
    return rc;
  }
  size_t at = self.at;
  lexer__push(&self, ST_EOF, at, NULL, 0);
  return 0;
}

void eddi_script_tokens_free(ScriptTokens *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i].text);
  array_free(self);
}
