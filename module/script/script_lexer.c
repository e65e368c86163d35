/* script_lexer.c - the tokens of a whole script, with line and column.
 *
 * A script spans lines, unlike a command, so it has its own lexer: the
 * command lexer (lang/lexer.c) knows no braces, parentheses or operators.
 * Strings and numbers it reads with the command lexer's readers
 * (eddi_lex_string, eddi_lex_word_kind): a one-line script passes the
 * command lexer first, and must mean what it means on several lines.
 * Newlines are tokens, because a command inside a script ends with its
 * line. A '#' that starts a line (after blanks) comments the line out. */
#include "script/script.h"

#include <ctype.h>

#include "lang/lexer.h"

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

/* A "quoted string" (eddi_lex_string's rules); self->at is at the quote. */
static int lexer__string(ScriptLexer *self) {
  size_t start = self->at;
  LexString string;
  if (eddi_lex_string(self->src + start, self->len - start, &string) < 0)
    return string.fault == LEX_STRING_BAD_ESCAPE
               ? lexer__fail(self, start + string.end, "unknown escape in string")
               : lexer__fail(self, start, "unterminated string");
  self->at = start + string.end;
  lexer__push(self, ST_STRING, start, string.text, string.len);
  return 0;
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
  switch (eddi_lex_word_kind(p, n, &token->first, &token->second)) {
  case TOKEN_INT: token->kind = ST_INT; break;
  case TOKEN_PAIR: token->kind = ST_PAIR; break;
  default: break;
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
