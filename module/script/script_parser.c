/* script_parser.c - scripts into syntax trees (the grammar is in
 * doc/scripting.org).
 *
 * A recursive descent over the tokens of the whole script. Statements need
 * no separator: each form knows where it ends (a query ends where no
 * condition goes on, a block at its '}'), which is what lets a model write
 * a whole script on one line, as the design's examples do. Two kinds of
 * statement take raw text instead: a template (`replace with <code>`) and an
 * EddiSpeak command, both up to the end of their line, a ';', or a '}' that
 * closes their block (a template also stops at `else`), with strings and
 * brackets inside them skipped over. Every error names the line and column
 * of the token where the parse stopped.
 *
 * The file is longer than most (about 1,000 lines) because it is one
 * grammar: statements, queries, conditions and expressions call each other
 * through the one parser state, and reading them in order, top to bottom,
 * is how the grammar of doc/scripting.org is checked against the code. */
#include "script/script.h"

#include <stdarg.h>
#include <strings.h>

#include "core/utf8.h"
#include "workspace/command.h"
#include "refactor/operations.h"

/* Deepest nesting of blocks, statement bodies (foreach, if, else, use),
 * not, and brackets: deeper input is a generated attack on the stack, not
 * a script. The tree's depth is bounded by it (and/or chains are built
 * balanced), so every walk of the tree (the interpreter, the checks of
 * script_tree.c, freeing) recurses at most this deep, times the
 * logarithm of a chain's length. */
#define SCRIPT_NESTING_MAX 64

typedef struct {
  const char *src;
  size_t len;
  ScriptTokens tokens;
  size_t at;
  size_t depth;
  EddiError *err;
  bool failed;
  const EddiCommandPorts *commands; /* which words are commands */
} ScriptParser;

/* ---------------------------------------------------------------- tokens */

/* The token at the parser's place; never past the EOF token. */
static bool parser__is_command(const ScriptParser *self, const ScriptToken *word) {
  return self->commands->find(self->commands->engine, word->text) != NULL;
}

static ScriptToken *parser__peek(ScriptParser *self) {
  EDDI_ASSERT(self->at < self->tokens.len);
  return &self->tokens.items[self->at];
}

static ScriptToken *parser__peek_at(ScriptParser *self, size_t ahead) {
  size_t i = EDDI_MIN(self->at + ahead, self->tokens.len - 1);
  return &self->tokens.items[i];
}

static ScriptToken *parser__next(ScriptParser *self) {
  ScriptToken *token = parser__peek(self);
  if (token->kind != ST_EOF) self->at++;
  return token;
}

static bool parser__is(const ScriptToken *token, const char *word) {
  return token->kind == ST_WORD && strcasecmp(token->text, word) == 0;
}

static bool parser__accept(ScriptParser *self, const char *word) {
  if (!parser__is(parser__peek(self), word)) return false;
  self->at++;
  return true;
}

static void parser__skip_newlines(ScriptParser *self) {
  while (parser__peek(self)->kind == ST_NEWLINE || parser__peek(self)->kind == ST_SEMI) self->at++;
}

/* How a token reads in a message: its text, or what ends the script. */
static void parser__describe(const ScriptToken *token, char *out, size_t size) {
  if (token->kind == ST_EOF) snprintf(out, size, "the end of the script");
  else if (token->kind == ST_NEWLINE) snprintf(out, size, "the end of the line");
  else if (token->kind == ST_STRING) snprintf(out, size, "a string");
  else {
    size_t n = eddi_utf8_complete_prefix(token->text, EDDI_MIN(token->len, EDDI_QUOTE_WORD_MAX));
    snprintf(out, size, "'%s%.*s'", token->kind == ST_VAR ? "$" : "", (int)n, token->text);
  }
}

static void *parser__fail(ScriptParser *self, const ScriptToken *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void *parser__fail(ScriptParser *self, const ScriptToken *at, const char *fmt, ...) {
  if (self->failed) return NULL;
  self->failed = true;
  char what[EDDI_ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  eddi_error_set(self->err, EDDI_EINVAL, "Script line %zu:%zu: %s", at->line, at->col, what);
  return NULL;
}

static void *parser__expected(ScriptParser *self, const char *what, const char *after) {
  ScriptToken *token = parser__peek(self);
  char got[EDDI_QUOTE_WORD_MAX + 8];
  parser__describe(token, got, sizeof got);
  if (after) return parser__fail(self, token, "expected %s after %s, found %s", what, after, got);
  return parser__fail(self, token, "expected %s, found %s", what, got);
}

static ScriptPos parser__pos(const ScriptToken *token) {
  return (ScriptPos){token->line, token->col};
}

/* One level deeper, or false (and the Fail) past SCRIPT_NESTING_MAX. */
static bool parser__enter(ScriptParser *self, const ScriptToken *at) {
  if (++self->depth <= SCRIPT_NESTING_MAX) return true;
  if (self->failed) return false;
  parser__fail(self, at, "nested too deeply (more than %d levels of blocks, statement bodies, "
               "not and brackets)", SCRIPT_NESTING_MAX);
  eddi_error_hint(self->err, "Write it flatter: statements one after another in one { block }, "
                  "conditions joined with and/or");
  return false;
}

/* ---------------------------------------------------------------- raw text */

/* Where raw text starting at byte from ends: the line's end, a ';' or a '}'
 * outside brackets and strings, or (stop_else) the word else. Returns the
 * end with trailing blanks taken off. */
static size_t parser__raw_end(ScriptParser *self, size_t from, bool stop_else) {
  size_t depth = 0, at = from;
  for (; at < self->len; at++) {
    char c = self->src[at];
    if (c == '"' || c == '\'') {
      for (at++; at < self->len && self->src[at] != c && self->src[at] != '\n'; at++)
        if (self->src[at] == '\\' && at + 1 < self->len) at++;
      if (at >= self->len || self->src[at] == '\n') break; /* an open quote ends the text */
      continue;
    }
    if (c == '\n' || (depth == 0 && (c == ';' || c == '}'))) break;
    if (c == '(' || c == '[' || c == '{') depth++;
    if ((c == ')' || c == ']' || c == '}') && depth) depth--;
    if (stop_else && depth == 0 && at > from && (self->src[at - 1] == ' ' || self->src[at - 1] == '\t') &&
        self->len - at >= 4 && strncasecmp(self->src + at, "else", 4) == 0 &&
        (self->len - at == 4 || strchr(" \t\n{", self->src[at + 4])))
      break;
  }
  while (at > from && (self->src[at - 1] == ' ' || self->src[at - 1] == '\t')) at--;
  return at;
}

/* The raw text from the current token up to its end (parser__raw_end); the
 * tokens inside it are passed over. */
static char *parser__raw(ScriptParser *self, bool stop_else) {
  size_t from = parser__peek(self)->start;
  size_t end = parser__raw_end(self, from, stop_else);
  while (parser__peek(self)->kind != ST_EOF && parser__peek(self)->start < end) self->at++;
  return eddi_strndup(self->src + from, end - from);
}

/* ---------------------------------------------------------------- expressions */

static void expr__free(ScriptExpr *self) {
  if (!self) return;
  eddi_free(self->text);
  eddi_free(self->field);
  for (size_t i = 0; i < self->parts.len; i++) expr__free(self->parts.items[i]);
  array_free(&self->parts);
  eddi_free(self);
}

static ScriptExpr *expr__new(ScriptExprKind kind, const ScriptToken *token) {
  ScriptExpr *self = eddi_calloc(1, sizeof *self);
  self->kind = kind;
  self->pos = parser__pos(token);
  return self;
}

/* name.field of a variable or of the element being visited. */
static void expr__split_field(ScriptExpr *self, const char *text) {
  const char *dot = strchr(text, '.');
  self->text = dot ? eddi_strndup(text, (size_t)(dot - text)) : eddi_strdup(text);
  self->field = dot ? eddi_strdup(dot + 1) : NULL;
}

static ScriptExpr *parser__expr(ScriptParser *self);

static ScriptExpr *parser__term(ScriptParser *self) {
  ScriptToken *token = parser__peek(self);
  ScriptExpr *e = NULL;
  switch (token->kind) {
  case ST_STRING:
    e = expr__new(SE_STRING, token);
    e->text = eddi_strndup(token->text, token->len);
    break;
  case ST_INT:
    e = expr__new(SE_INT, token);
    e->number = token->first;
    break;
  case ST_VAR:
    e = expr__new(SE_VAR, token);
    expr__split_field(e, token->text);
    break;
  case ST_WORD:
    e = expr__new(strchr(token->text, '.') ? SE_FIELD : SE_STRING, token);
    if (e->kind == SE_FIELD) expr__split_field(e, token->text);
    else e->text = eddi_strdup(token->text);
    break;
  case ST_LPAREN:
    self->at++;
    e = parser__expr(self);
    if (e && parser__peek(self)->kind != ST_RPAREN) {
      expr__free(e);
      return parser__expected(self, "')'", NULL);
    }
    break;
  default: return parser__expected(self, "a string, a number or a $variable", NULL);
  }
  if (e) self->at++;
  return e;
}

static ScriptExpr *parser__expr(ScriptParser *self) {
  if (!parser__enter(self, parser__peek(self))) return NULL;
  ScriptToken *first = parser__peek(self);
  ScriptExpr *e = parser__term(self);
  if (e && parser__peek(self)->kind == ST_PLUS) {
    ScriptExpr *concat = expr__new(SE_CONCAT, first);
    array_push(&concat->parts, e);
    while (parser__peek(self)->kind == ST_PLUS) {
      self->at++;
      ScriptExpr *part = parser__term(self);
      if (!part) {
        expr__free(concat);
        concat = NULL;
        break;
      }
      array_push(&concat->parts, part);
    }
    e = concat;
  }
  self->depth--;
  return e;
}

/* ---------------------------------------------------------------- conditions */

static void cond__free(ScriptCond *self) {
  if (!self) return;
  cond__free(self->left);
  cond__free(self->right);
  eddi_free(self->field);
  expr__free(self->value);
  eddi_free(self->arg);
  eddi_free(self);
}

static ScriptCond *cond__new(ScriptCondKind kind, const ScriptToken *token) {
  ScriptCond *self = eddi_calloc(1, sizeof *self);
  self->kind = kind;
  self->pos = parser__pos(token);
  return self;
}

static ScriptCond *parser__cond(ScriptParser *self);

/* A name argument (has_annotation, imports): a word or a string. */
static char *parser__name(ScriptParser *self, const char *what, const char *after) {
  ScriptToken *token = parser__peek(self);
  if (token->kind != ST_WORD && token->kind != ST_STRING)
    return parser__expected(self, what, after);
  self->at++;
  return eddi_strndup(token->text, token->len);
}

static const char *const compare__ops[] = {"==", "!=", ">", "<", ">=", "<="};

static ScriptCond *parser__cond_primary(ScriptParser *self) {
  ScriptToken *token = parser__peek(self);
  ScriptCond *c = NULL;
  if (token->kind == ST_LPAREN) {
    self->at++;
    c = parser__cond(self);
    if (!c) return NULL;
    if (parser__peek(self)->kind != ST_RPAREN) {
      cond__free(c);
      return parser__expected(self, "')'", "the condition");
    }
    self->at++;
    return c;
  }
  if (token->kind != ST_WORD) return parser__expected(self, "a condition", NULL);
  if (parser__accept(self, "not")) {
    if (!parser__enter(self, token)) return NULL;
    ScriptCond *inner = parser__cond_primary(self);
    if (!inner) return NULL;
    self->depth--;
    c = cond__new(SC_NOT, token);
    c->left = inner;
    return c;
  }
  if (parser__accept(self, "unused")) return cond__new(SC_UNUSED, token);
  if (parser__accept(self, "has_annotation")) {
    char *name = parser__name(self, "an annotation's name", "has_annotation");
    if (!name) return NULL;
    c = cond__new(SC_HAS_ANNOTATION, token);
    c->arg = name;
    return c;
  }
  if (parser__accept(self, "imports")) {
    char *name = parser__name(self, "a module", "imports");
    if (!name) return NULL;
    c = cond__new(SC_IMPORTS, token);
    c->arg = name;
    return c;
  }
  if (parser__accept(self, "contains")) {
    ScriptExpr *value = parser__expr(self);
    if (!value) return NULL;
    c = cond__new(SC_CONTAINS, token);
    c->value = value;
    return c;
  }
  /* field op value */
  self->at++;
  ScriptToken *op = parser__peek(self);
  int which = -1;
  if (op->kind == ST_OP)
    for (size_t i = 0; i < sizeof compare__ops / sizeof *compare__ops; i++)
      if (strcmp(op->text, compare__ops[i]) == 0) which = (int)i;
  if (parser__is(op, "contains")) which = SOP_CONTAINS;
  if (which < 0) {
    char after[EDDI_QUOTE_WORD_MAX + 8];
    parser__describe(token, after, sizeof after);
    return parser__expected(self, "a comparison (==, !=, >, <, >=, <=, contains)", after);
  }
  self->at++;
  ScriptExpr *value = parser__expr(self);
  if (!value) return NULL;
  c = cond__new(SC_COMPARE, token);
  c->field = eddi_strdup(token->text);
  c->op = (ScriptCompareOp)which;
  c->value = value;
  return c;
}

typedef Array(ScriptCond *) ScriptConds;
typedef Array(const ScriptToken *) ScriptOps;

/* operands[lo, hi) joined by kind as a balanced tree: and and or are
 * associative, so it evaluates left to right as the chain does, and a
 * chain of n terms is log2(n) deep instead of n. ops[i] is the word
 * between operands i and i + 1. */
static ScriptCond *cond__join(ScriptCondKind kind, ScriptConds *operands, ScriptOps *ops,
                              size_t lo, size_t hi) {
  if (hi - lo == 1) return operands->items[lo];
  size_t mid = lo + (hi - lo) / 2;
  ScriptCond *both = cond__new(kind, ops->items[mid - 1]);
  both->left = cond__join(kind, operands, ops, lo, mid);
  both->right = cond__join(kind, operands, ops, mid, hi);
  return both;
}

/* Terms of one level joined by word (and: primaries; or: and-chains). */
static ScriptCond *parser__cond_chain(ScriptParser *self, ScriptCondKind kind, const char *word,
                                      ScriptCond *(*term)(ScriptParser *)) {
  ScriptConds operands = {0};
  ScriptOps ops = {0};
  ScriptCond *c = term(self);
  if (c) array_push(&operands, c);
  while (c && parser__is(parser__peek(self), word)) {
    array_push(&ops, parser__next(self));
    if ((c = term(self))) array_push(&operands, c);
  }
  ScriptCond *joined = NULL;
  if (c) {
    joined = cond__join(kind, &operands, &ops, 0, operands.len);
  } else {
    for (size_t i = 0; i < operands.len; i++) cond__free(operands.items[i]);
  }
  array_free(&operands);
  array_free(&ops);
  return joined;
}

static ScriptCond *parser__cond_and(ScriptParser *self) {
  return parser__cond_chain(self, SC_AND, "and", parser__cond_primary);
}

static ScriptCond *parser__cond(ScriptParser *self) {
  if (!parser__enter(self, parser__peek(self))) return NULL;
  ScriptCond *c = parser__cond_chain(self, SC_OR, "or", parser__cond_and);
  self->depth--;
  return c;
}

/* ---------------------------------------------------------------- queries */

void eddi_script_query_free(ScriptQuery *self) {
  if (!self) return;
  eddi_free(self->arg);
  cond__free(self->where);
  eddi_free(self->source);
  eddi_free(self);
}

/* A function, class or call name: a word (with "()" after it taken off),
 * a string, or a $variable. */
static bool parser__target(ScriptParser *self, ScriptQuery *q, const char *after) {
  ScriptToken *token = parser__peek(self);
  if (token->kind == ST_VAR) {
    q->arg = eddi_strdup(token->text);
    q->arg_var = true;
  } else if (token->kind == ST_WORD || token->kind == ST_STRING) {
    q->arg = eddi_strndup(token->text, token->len);
  } else {
    parser__expected(self, "a name", after);
    return false;
  }
  self->at++;
  if (parser__peek(self)->kind == ST_LPAREN && parser__peek_at(self, 1)->kind == ST_RPAREN)
    self->at += 2;
  return true;
}

/* Whether the word may start a query (singular and plural forms). */
static int query__keyword(const ScriptToken *token) {
  static const char *const words[] = {"caller", "callers", "call",    "calls",   "method",
                                      "methods", "class",  "classes", "file",    "files",
                                      "line",   "lines",   "symbol",  "symbols", "import",
                                      "imports", "function", "functions"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (parser__is(token, words[i])) return (int)i / 2;
  return -1;
}

static ScriptQuery *parser__query(ScriptParser *self) {
  ScriptToken *token = parser__peek(self);
  ScriptQuery *q = eddi_calloc(1, sizeof *q);
  q->pos = parser__pos(token);
  bool ok = true;
  char word[EDDI_QUOTE_WORD_MAX + 8];
  parser__describe(token, word, sizeof word);
  if (token->kind == ST_VAR) {
    q->kind = SQ_VAR;
    q->arg = eddi_strdup(token->text);
    self->at++;
  } else {
    int which = query__keyword(token);
    if (which < 0) {
      eddi_script_query_free(q);
      return parser__expected(self, "a set (caller of, call to, method in, class, "
                                    "file matching, line in range, symbol of type, import, "
                                    "function, or a $variable)", NULL);
    }
    self->at++;
    switch (which) {
    case 0:
      q->kind = SQ_CALLER_OF;
      ok = parser__accept(self, "of") ? parser__target(self, q, "'caller of'")
                                      : parser__expected(self, "'of'", word) != NULL;
      break;
    case 1:
      q->kind = SQ_CALL_TO;
      ok = parser__accept(self, "to") ? parser__target(self, q, "'call to'")
                                      : parser__expected(self, "'to'", word) != NULL;
      break;
    case 2:
      /* method in <Class>, or every method */
      q->kind = SQ_METHOD_IN;
      if (parser__accept(self, "in")) ok = parser__target(self, q, "'method in'");
      break;
    case 3:
      if (parser__accept(self, "implementing")) {
        q->kind = SQ_CLASS_IMPLEMENTING;
        ok = parser__target(self, q, "'class implementing'");
      } else {
        q->kind = SQ_CLASS;
        ScriptToken *next = parser__peek(self);
        /* `class flag "x"`: every class; `class Store flag "x"`: one. */
        static const char *const not_names[] = {"where", "flag", "replace", "remove", "add",
                                                "suggest", "if", "foreach"};
        bool name = next->kind == ST_VAR || next->kind == ST_STRING || next->kind == ST_WORD;
        for (size_t i = 0; name && i < sizeof not_names / sizeof *not_names; i++)
          name = !parser__is(next, not_names[i]);
        if (name)
          ok = parser__target(self, q, "'class'");
      }
      break;
    case 4:
      q->kind = SQ_FILE_MATCHING;
      ok = parser__accept(self, "matching") ? parser__target(self, q, "'file matching'")
                                            : parser__expected(self, "'matching'", word) != NULL;
      break;
    case 5:
      q->kind = SQ_LINE_RANGE;
      if (!parser__accept(self, "in") || !parser__accept(self, "range")) {
        ok = parser__expected(self, "'in range'", word) != NULL;
      } else if (parser__peek(self)->kind != ST_PAIR) {
        ok = parser__expected(self, "a line range a:b", "'line in range'") != NULL;
      } else {
        q->first = parser__peek(self)->first, q->last = parser__peek(self)->second;
        self->at++;
      }
      break;
    case 6:
      q->kind = SQ_SYMBOL_OF_TYPE;
      if (!parser__accept(self, "of") || !parser__accept(self, "type")) {
        ok = parser__expected(self, "'of type'", word) != NULL;
      } else if (parser__is(parser__peek(self), "function") ||
                 parser__is(parser__peek(self), "class") ||
                 parser__is(parser__peek(self), "variable")) {
        q->arg = eddi_strdup(parser__next(self)->text);
      } else {
        ok = parser__expected(self, "function, class or variable", "'symbol of type'") != NULL;
      }
      break;
    case 7: q->kind = SQ_IMPORT; break;
    default: q->kind = SQ_FUNCTION; break;
    }
  }
  if (ok && parser__accept(self, "where")) {
    q->where = parser__cond(self);
    ok = q->where != NULL;
  }
  if (!ok || self->failed) {
    eddi_script_query_free(q);
    return NULL;
  }
  size_t end = self->tokens.items[self->at - 1].end;
  q->source = eddi_strndup(self->src + token->start, end - token->start);
  return q;
}

/* ---------------------------------------------------------------- statements */

static void node__free(ScriptNode *self) {
  if (!self) return;
  eddi_free(self->var);
  eddi_free(self->text);
  eddi_script_query_free(self->query);
  cond__free(self->cond);
  expr__free(self->value);
  expr__free(self->a);
  expr__free(self->b);
  for (size_t i = 0; i < self->args.len; i++) expr__free(self->args.items[i]);
  array_free(&self->args);
  node__free(self->body);
  node__free(self->else_body);
  for (size_t i = 0; i < self->children.len; i++) node__free(self->children.items[i]);
  array_free(&self->children);
  eddi_free(self);
}

static ScriptNode *node__new(ScriptNodeKind kind, const ScriptToken *token) {
  ScriptNode *self = eddi_calloc(1, sizeof *self);
  self->kind = kind;
  self->pos = parser__pos(token);
  return self;
}

static ScriptNode *parser__statement(ScriptParser *self);
static ScriptNode *parser__block(ScriptParser *self);

/* What a foreach, if or use runs: a block, or one statement on the line. */
static ScriptNode *parser__body(ScriptParser *self, const char *after) {
  ScriptToken *token = parser__peek(self);
  if (token->kind == ST_LBRACE) return parser__block(self);
  if (token->kind == ST_NEWLINE || token->kind == ST_EOF || token->kind == ST_RBRACE ||
      token->kind == ST_SEMI)
    return parser__expected(self, "an action or a { block }", after);
  /* foreach ... foreach ..., else if ... else if ...: a level each. */
  if (!parser__enter(self, token)) return NULL;
  ScriptNode *node = parser__statement(self);
  self->depth--;
  return node;
}

/* Statements until a '}' (inside a block) or the end. */
static bool parser__statements(ScriptParser *self, ScriptNode *block, bool braced) {
  for (;;) {
    parser__skip_newlines(self);
    ScriptToken *token = parser__peek(self);
    if (token->kind == ST_EOF || (braced && token->kind == ST_RBRACE)) return true;
    if (token->kind == ST_RBRACE) {
      parser__fail(self, token, "'}' without a '{'");
      return false;
    }
    ScriptNode *node = parser__statement(self);
    if (!node) return false;
    array_push(&block->children, node);
  }
}

static ScriptNode *parser__block(ScriptParser *self) {
  ScriptToken *open = parser__next(self);
  if (!parser__enter(self, open)) return NULL;
  ScriptNode *block = node__new(SN_BLOCK, open);
  if (!parser__statements(self, block, true)) {
    node__free(block);
    return NULL;
  }
  if (parser__peek(self)->kind != ST_RBRACE) {
    node__free(block);
    char what[64];
    snprintf(what, sizeof what, "'}' to close the '{' at %zu:%zu", open->line, open->col);
    return parser__expected(self, what, NULL);
  }
  self->at++;
  self->depth--;
  return block;
}

/* A string or a word: a changeset's or a position's name. */
static ScriptExpr *parser__label(ScriptParser *self, const char *after) {
  ScriptToken *token = parser__peek(self);
  if (token->kind != ST_WORD && token->kind != ST_STRING && token->kind != ST_VAR)
    return parser__expected(self, "a name", after);
  return parser__expr(self);
}

static ScriptNode *parser__action(ScriptParser *self, ScriptToken *verb) {
  ScriptNode *node = node__new(SN_ACTION, verb);
  bool ok = true;
  if (parser__is(verb, "replace")) {
    if (parser__accept(self, "with")) {
      node->action = SA_REPLACE_WITH;
      if (parser__peek(self)->kind == ST_STRING) node->a = parser__expr(self);
      else node->text = parser__raw(self, true);
      ok = node->a || (node->text && node->text[0]) ||
           parser__expected(self, "a template", "'replace with'");
    } else {
      node->action = SA_REPLACE_TEXT;
      if (parser__peek(self)->kind == ST_STRING || parser__peek(self)->kind == ST_VAR) {
        node->a = parser__expr(self);
      } else {
        /* Bare code up to " with ": replace authenticate() with ... */
        size_t from = parser__peek(self)->start;
        while (parser__peek(self)->kind != ST_EOF && !parser__is(parser__peek(self), "with") &&
               parser__peek(self)->kind != ST_NEWLINE)
          self->at++;
        size_t end = self->at > 0 ? self->tokens.items[self->at - 1].end : from;
        node->a = expr__new(SE_STRING, verb);
        node->a->text = eddi_strndup(self->src + from, end > from ? end - from : 0);
      }
      ok = node->a && (parser__accept(self, "with") || parser__expected(self, "'with'", "the text to replace"));
      if (ok) {
        if (parser__peek(self)->kind == ST_STRING || parser__peek(self)->kind == ST_VAR) {
          node->b = parser__expr(self);
        } else {
          node->b = expr__new(SE_STRING, verb);
          node->b->text = parser__raw(self, true);
        }
        ok = node->b != NULL;
      }
    }
  } else if (parser__is(verb, "flag")) {
    node->action = SA_FLAG;
    ok = (node->a = parser__expr(self)) != NULL;
  } else if (parser__is(verb, "suggest")) {
    node->action = SA_SUGGEST;
    node->text = parser__raw(self, true);
    ok = node->text[0] || parser__expected(self, "an operation", "'suggest'");
  } else if (parser__is(verb, "remove")) {
    node->action = SA_REMOVE;
    /* "remove import", "remove function": the word names what is removed. */
    if (query__keyword(parser__peek(self)) >= 0 || parser__is(parser__peek(self), "it"))
      self->at++;
  } else if (parser__accept(self, "import")) {
    node->action = SA_ADD_IMPORT;
    ScriptToken *module = parser__peek(self);
    if (module->kind == ST_WORD || module->kind == ST_STRING) {
      node->text = eddi_strndup(module->text, module->len);
      self->at++;
    } else {
      ok = parser__expected(self, "a module", "'add import'") != NULL;
    }
  } else if (parser__accept(self, "line")) {
    node->action = SA_ADD_LINE;
    ok = (node->a = parser__expr(self)) != NULL;
  } else {
    node->action = SA_ADD;
    if (parser__peek(self)->kind == ST_STRING || parser__peek(self)->kind == ST_VAR) {
      node->a = parser__expr(self);
    } else {
      node->a = expr__new(SE_STRING, verb);
      node->a->text = parser__raw(self, true);
    }
    ok = node->a && (node->a->kind != SE_STRING || node->a->text[0] ||
                     parser__expected(self, "the text to add", "'add'"));
  }
  if (!ok || self->failed) {
    node__free(node);
    return NULL;
  }
  return node;
}

const char *eddi_script_refactor_operation(const char *word) {
  /* Refactor's own operations (refactor/operations.h), and rename. */
  int op = eddi_refactor_operation_find(word);
  if (op >= 0) return eddi_refactor_operation_name((size_t)op);
  if (eddi_refactor_same_operation(word, "rename")) return "RenameSymbol";
  return NULL;
}

/* Words that start a statement: a refactoring's word arguments stop there. */
static bool parser__statement_word(const ScriptToken *token) {
  static const char *const words[] = {"foreach", "if",    "let",      "use",      "try",
                                      "collect", "apply", "rollback", "preview",  "store",
                                      "goto",    "push",  "pop",      "on_error", "flag",
                                      "replace", "remove", "add",     "suggest",  "else",
                                      "catch",   "limit",  "unchecked"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (parser__is(token, words[i])) return true;
  return false;
}

/* rename_class A B, extract_method($m, "x"), Refactor RenameSymbol a b. */
static ScriptNode *parser__refactor(ScriptParser *self, ScriptToken *verb, const char *op) {
  ScriptNode *node = node__new(SN_REFACTOR, verb);
  node->text = eddi_strdup(op);
  if (parser__peek(self)->kind == ST_LPAREN) {
    self->at++;
    while (parser__peek(self)->kind != ST_RPAREN) {
      ScriptExpr *arg = parser__expr(self);
      if (!arg) goto fail;
      array_push(&node->args, arg);
      if (parser__peek(self)->kind == ST_COMMA) self->at++;
      else if (parser__peek(self)->kind != ST_RPAREN) {
        parser__expected(self, "',' or ')'", "an argument");
        goto fail;
      }
    }
    self->at++;
    return node;
  }
  for (;;) {
    ScriptToken *token = parser__peek(self);
    bool arg = token->kind == ST_WORD || token->kind == ST_STRING || token->kind == ST_VAR ||
               token->kind == ST_PAIR || token->kind == ST_INT;
    if (!arg || parser__statement_word(token)) break;
    ScriptExpr *e = expr__new(token->kind == ST_VAR ? SE_VAR : SE_STRING, token);
    if (token->kind == ST_VAR) expr__split_field(e, token->text);
    else e->text = token->kind == ST_STRING ? eddi_strndup(token->text, token->len)
                                            : eddi_strndup(self->src + token->start, token->end - token->start);
    array_push(&node->args, e);
    self->at++;
  }
  return node;
fail:
  node__free(node);
  return NULL;
}

/* Whether the word with comes before the statement's line ends: the
 * action `replace a with b`, not the command `Replace "a" "b"`. */
static bool parser__line_has_with(ScriptParser *self) {
  for (size_t i = self->at; i < self->tokens.len; i++) {
    const ScriptToken *token = &self->tokens.items[i];
    if (token->kind == ST_NEWLINE || token->kind == ST_EOF || token->kind == ST_SEMI ||
        token->kind == ST_RBRACE || token->kind == ST_LBRACE)
      return false;
    if (parser__is(token, "with")) return true;
  }
  return false;
}

static ScriptNode *parser__statement(ScriptParser *self) {
  ScriptToken *verb = parser__peek(self);
  char word[EDDI_QUOTE_WORD_MAX + 8];
  parser__describe(verb, word, sizeof word);
  if (verb->kind == ST_LBRACE) return parser__block(self);
  if (verb->kind != ST_WORD) return parser__expected(self, "a statement", NULL);
  self->at++;
  ScriptNode *node = NULL;
  if (parser__is(verb, "foreach")) {
    node = node__new(SN_FOREACH, verb);
    ScriptToken *var = parser__peek(self);
    if (var->kind == ST_VAR && parser__is(parser__peek_at(self, 1), "in")) {
      node->var = eddi_strdup(var->text);
      self->at += 2;
    } else if (var->kind == ST_VAR && parser__peek_at(self, 1)->kind != ST_LBRACE &&
               query__keyword(parser__peek_at(self, 1)) < 0 &&
               !parser__is(parser__peek_at(self, 1), "where")) {
      char after[EDDI_QUOTE_WORD_MAX + 8];
      parser__describe(var, after, sizeof after);
      self->at++;
      parser__expected(self, "'in'", after);
      goto fail;
    }
    if (!(node->query = parser__query(self))) goto fail;
    if (!(node->body = parser__body(self, "the set"))) goto fail;
  } else if (parser__is(verb, "if")) {
    node = node__new(SN_IF, verb);
    if (!(node->cond = parser__cond(self))) goto fail;
    if (!(node->body = parser__body(self, "the condition"))) goto fail;
    size_t save = self->at;
    parser__skip_newlines(self);
    if (parser__accept(self, "else")) {
      if (!(node->else_body = parser__body(self, "'else'"))) goto fail;
    } else {
      self->at = save;
    }
  } else if (parser__is(verb, "let")) {
    node = node__new(SN_LET, verb);
    if (parser__peek(self)->kind != ST_VAR) {
      parser__expected(self, "a $variable", "'let'");
      goto fail;
    }
    node->var = eddi_strdup(parser__next(self)->text);
    if (parser__peek(self)->kind != ST_OP || strcmp(parser__peek(self)->text, "=") != 0) {
      char after[EDDI_QUOTE_WORD_MAX + 8];
      snprintf(after, sizeof after, "$%s", node->var);
      parser__expected(self, "'='", after);
      goto fail;
    }
    self->at++;
    ScriptToken *value = parser__peek(self);
    if (query__keyword(value) >= 0 || value->kind == ST_VAR) node->query = parser__query(self);
    else node->value = parser__expr(self);
    if (!node->query && !node->value) goto fail;
  } else if (parser__is(verb, "use")) {
    node = node__new(SN_USE, verb);
    if (parser__peek(self)->kind != ST_VAR) {
      parser__expected(self, "a $variable", "'use'");
      goto fail;
    }
    node->var = eddi_strdup(parser__next(self)->text);
    if (!(node->body = parser__body(self, "the variable"))) goto fail;
  } else if (parser__is(verb, "try")) {
    node = node__new(SN_TRY, verb);
    if (parser__peek(self)->kind != ST_LBRACE) {
      parser__expected(self, "'{'", "'try'");
      goto fail;
    }
    if (!(node->body = parser__block(self))) goto fail;
    parser__skip_newlines(self);
    if (!parser__accept(self, "catch")) {
      parser__expected(self, "'catch'", "the try block");
      goto fail;
    }
    if (parser__peek(self)->kind != ST_LBRACE) {
      parser__expected(self, "'{'", "'catch'");
      goto fail;
    }
    if (!(node->else_body = parser__block(self))) goto fail;
  } else if (parser__is(verb, "collect")) {
    node = node__new(SN_COLLECT, verb);
    if (!parser__accept(self, "changes") || !parser__accept(self, "as")) {
      parser__expected(self, "'changes as'", "'collect'");
      goto fail;
    }
    if (!(node->value = parser__label(self, "'collect changes as'"))) goto fail;
  } else if ((parser__is(verb, "apply") || parser__is(verb, "rollback") ||
              parser__is(verb, "preview")) &&
             parser__is(parser__peek(self), "changeset")) {
    node = node__new(SN_CHANGESET, verb);
    node->text = eddi_strdup(verb->text);
    self->at++;
    if (!(node->value = parser__label(self, "'changeset'"))) goto fail;
  } else if (parser__is(verb, "rollback")) {
    node = node__new(SN_ROLLBACK_ALL, verb);
    if (!parser__accept(self, "all")) {
      parser__expected(self, "'all' or 'changeset <name>'", "'rollback'");
      goto fail;
    }
  } else if (parser__is(verb, "store")) {
    node = node__new(SN_STORE, verb);
    if (!parser__accept(self, "current_position") || !parser__accept(self, "as")) {
      parser__expected(self, "'current_position as'", "'store'");
      goto fail;
    }
    ScriptExpr *name = parser__label(self, "'store current_position as'");
    if (!name) goto fail;
    node->value = name;
  } else if ((parser__is(verb, "push") || parser__is(verb, "pop"))) {
    node = node__new(parser__is(verb, "push") ? SN_PUSH : SN_POP, verb);
    if (!parser__accept(self, "context")) {
      parser__expected(self, "'context'", word);
      goto fail;
    }
  } else if (parser__is(verb, "limit")) {
    node = node__new(SN_LIMIT, verb);
    ScriptToken *what = parser__peek(self);
    if (!parser__is(what, "steps") && !parser__is(what, "time")) {
      parser__expected(self, "steps or time", "'limit'");
      goto fail;
    }
    node->text = eddi_strdup(parser__next(self)->text);
    if (parser__peek(self)->kind != ST_INT) {
      parser__expected(self, "a number", node->text);
      goto fail;
    }
    node->value = parser__expr(self);
    parser__accept(self, "ms");
  } else if (parser__is(verb, "unchecked")) {
    node = node__new(SN_UNCHECKED, verb);
  } else if (parser__is(verb, "on_error")) {
    node = node__new(SN_ON_ERROR, verb);
    ScriptToken *how = parser__peek(self);
    if (!parser__is(how, "continue") && !parser__is(how, "stop") && !parser__is(how, "rollback")) {
      parser__expected(self, "continue, stop or rollback", "'on_error'");
      goto fail;
    }
    node->text = eddi_strdup(parser__next(self)->text);
  } else if (parser__is(verb, "goto") && parser__peek(self)->kind == ST_WORD &&
             !strchr(parser__peek(self)->text, ':') &&
             (parser__peek_at(self, 1)->kind == ST_NEWLINE || parser__peek_at(self, 1)->kind == ST_EOF ||
              parser__peek_at(self, 1)->kind == ST_RBRACE || parser__peek_at(self, 1)->kind == ST_SEMI)) {
    /* goto <stored position>; a Goto target (a line, Function f) when no
     * position has that name. */
    node = node__new(SN_GOTO, verb);
    node->text = eddi_strdup(parser__next(self)->text);
  } else if (parser__is(verb, "flag") || parser__is(verb, "suggest") ||
             parser__is(verb, "remove") || parser__is(verb, "add") ||
             (parser__is(verb, "replace") && parser__line_has_with(self))) {
    node = parser__action(self, verb);
    if (!node) return NULL;
  } else if (parser__is(verb, "refactor")) {
    ScriptToken *op_token = parser__peek(self);
    const char *op = op_token->kind == ST_WORD ? eddi_script_refactor_operation(op_token->text) : NULL;
    if (!op) {
      parser__expected(self, "a refactoring operation", "'Refactor'");
      return NULL;
    }
    self->at++;
    return parser__refactor(self, verb, op);
  } else if (eddi_script_refactor_operation(verb->text) && !parser__is_command(self, verb)) {
    return parser__refactor(self, verb, eddi_script_refactor_operation(verb->text));
  } else if (parser__is_command(self, verb)) {
    self->at--;
    node = node__new(SN_COMMAND, verb);
    node->text = parser__raw(self, false);
  } else if (query__keyword(verb) >= 0 || parser__is(verb, "catch") || parser__is(verb, "else")) {
    self->at--;
    return parser__fail(self, verb, "%s cannot start a statement (a set goes after foreach, let or use)", word);
  } else {
    self->at--;
    return parser__fail(self, verb, "unknown statement %s", word);
  }
  return node;
fail:
  node__free(node);
  return NULL;
}

/* ---------------------------------------------------------------- entry points */

int eddi_script_parse(const char *src, size_t len, const EddiCommandPorts *commands, Script *out,
                      EddiError *err) {
  memset(out, 0, sizeof *out);
  ScriptParser self = {.src = src, .len = len, .err = err, .commands = commands};
  int rc = eddi_script_lex(src, len, &self.tokens, err);
  if (rc < 0) return rc;
  parser__skip_newlines(&self);
  ScriptNode *root = NULL;
  if (parser__peek(&self)->kind == ST_LBRACE) {
    out->braced = true;
    root = parser__block(&self);
    parser__skip_newlines(&self);
    if (root && parser__peek(&self)->kind != ST_EOF) {
      parser__fail(&self, parser__peek(&self), "text after the script's closing '}'");
      node__free(root);
      root = NULL;
    }
  } else {
    root = node__new(SN_BLOCK, parser__peek(&self));
    if (!parser__statements(&self, root, false)) node__free(root), root = NULL;
  }
  eddi_script_tokens_free(&self.tokens);
  if (!root && !out->braced && strstr(err->what, "to close the '{'"))
    eddi_error_hint(err, "Each '{' needs its '}', on its line or a later one of the message");
  if (!root) return EDDI_EINVAL;
  if (root->children.len == 0) {
    node__free(root);
    eddi_error_set(err, EDDI_EINVAL, "Script line 1:1: the script is empty");
    eddi_error_hint(err, "Put statements between the braces: { foreach file matching \"*.py\" flag \"x\" }");
    return EDDI_EINVAL;
  }
  out->root = root;
  return 0;
}

void eddi_script_free(Script *self) {
  node__free(self->root);
  self->root = NULL;
}

int eddi_script_parse_query(const char *src, size_t len, ScriptQuery **out, EddiError *err) {
  ScriptParser self = {.src = src, .len = len, .err = err};
  int rc = eddi_script_lex(src, len, &self.tokens, err);
  if (rc < 0) return rc;
  *out = parser__query(&self);
  if (*out && parser__peek(&self)->kind != ST_EOF) {
    parser__expected(&self, "the end of the query", NULL);
    eddi_script_query_free(*out);
    *out = NULL;
  }
  eddi_script_tokens_free(&self.tokens);
  return *out ? 0 : EDDI_EINVAL;
}
