/* script.h - EddiSpeak's Stage 2: scripts, their syntax tree and how they run.
 *
 * A script is parsed whole before anything runs (script_parser.c), so that a
 * syntax error anywhere is reported with its line and column and nothing is
 * done. The tree is plain data: every node keeps where it was written, for
 * the messages of the steps that fail at run time.
 *
 * The interpreter (script_run.c) runs the tree against an overlay of the
 * workspace (script_files.c): texts in memory, read from the session's open
 * documents (copied) or from disk, never written while the script runs. The
 * sets a script iterates come from the code query engine (script_query.c),
 * which reads calls, classes and imports through name resolution
 * (module/refactor/) and functions, classes and imports through the syntax
 * layer (module/syntax/). When the script ends without error its changes
 * are committed at once through the shared transaction, or kept as a named
 * changeset (changeset.c). */
#ifndef EDDI_SCRIPT_H
#define EDDI_SCRIPT_H

#include "core/common.h"
#include "workspace/command.h"

/* ---------------------------------------------------------------- tokens */

typedef enum {
  ST_WORD,   /* a name, a dotted name, a glob-like bare word */
  ST_VAR,    /* $name (text without the '$') */
  ST_STRING, /* "..." with C escapes (text unescaped) */
  ST_INT,
  ST_PAIR, /* a:b */
  ST_LBRACE,
  ST_RBRACE,
  ST_LPAREN,
  ST_RPAREN,
  ST_COMMA,
  ST_PLUS,
  ST_SEMI,
  ST_OP, /* == != >= <= > < = */
  ST_NEWLINE,
  ST_EOF,
} ScriptTokenKind;

typedef struct {
  ScriptTokenKind kind;
  char *text; /* owned */
  size_t len;
  size_t start, end; /* bytes of the source */
  size_t line, col;  /* 1-based, for messages */
  long first, second; /* INT value; PAIR halves */
} ScriptToken;

typedef Array(ScriptToken) ScriptTokens;

/* Tokens of a whole script; on a lexical error fills err with
 * "Script line L:C: ..." and frees out. */
int eddi_script_lex(const char *src, size_t len, ScriptTokens *out, EddiError *err);
void eddi_script_tokens_free(ScriptTokens *self);

/* ---------------------------------------------------------------- the tree */

typedef struct {
  size_t line, col;
} ScriptPos;

typedef enum {
  SE_STRING, /* text */
  SE_INT,    /* number */
  SE_VAR,    /* $name[.field]: name, field (may be NULL) */
  SE_FIELD,  /* element.field of the element being visited: name, field */
  SE_CONCAT, /* parts joined with + */
} ScriptExprKind;

typedef struct ScriptExpr ScriptExpr;
struct ScriptExpr {
  ScriptExprKind kind;
  ScriptPos pos;
  char *text; /* STRING; VAR and FIELD: the name */
  char *field;
  long number;
  Array(ScriptExpr *) parts;
};

typedef enum {
  SC_AND,
  SC_OR,
  SC_NOT,
  SC_COMPARE,        /* field op value */
  SC_HAS_ANNOTATION, /* arg */
  SC_IMPORTS,        /* arg: a module */
  SC_CONTAINS,       /* value */
  SC_UNUSED,
} ScriptCondKind;

typedef enum { SOP_EQ, SOP_NE, SOP_GT, SOP_LT, SOP_GE, SOP_LE, SOP_CONTAINS } ScriptCompareOp;

typedef struct ScriptCond ScriptCond;
struct ScriptCond {
  ScriptCondKind kind;
  ScriptPos pos;
  ScriptCond *left, *right; /* AND, OR; NOT uses left */
  char *field;              /* COMPARE: complexity, params.count, line_count, name ... */
  ScriptCompareOp op;
  ScriptExpr *value; /* COMPARE, CONTAINS */
  char *arg;         /* HAS_ANNOTATION, IMPORTS */
};

typedef enum {
  SQ_CALLER_OF,         /* arg: the function (or a $var holding one) */
  SQ_CALL_TO,           /* arg: a.b */
  SQ_METHOD_IN,         /* arg: the class */
  SQ_CLASS_IMPLEMENTING,
  SQ_CLASS,             /* class <Name>, or every class */
  SQ_FILE_MATCHING,     /* arg: the glob */
  SQ_LINE_RANGE,        /* first, last (0-based, inclusive) */
  SQ_SYMBOL_OF_TYPE,    /* arg: function, class or variable */
  SQ_IMPORT,
  SQ_FUNCTION,
  SQ_VAR,               /* arg: a variable's name */
} ScriptQueryKind;

typedef struct {
  ScriptQueryKind kind;
  ScriptPos pos;
  char *arg;     /* may be NULL */
  bool arg_var;  /* arg names a variable ($Class) */
  long first, last;
  ScriptCond *where; /* may be NULL */
  char *source;  /* the query as written, kept by let between messages */
} ScriptQuery;

typedef enum {
  SA_REPLACE_WITH, /* text: the template */
  SA_REPLACE_TEXT, /* a with b */
  SA_FLAG,         /* a */
  SA_SUGGEST,      /* text */
  SA_REMOVE,
  SA_ADD,        /* a */
  SA_ADD_IMPORT, /* text */
  SA_ADD_LINE,   /* a */
} ScriptActionKind;

typedef enum {
  SN_BLOCK,
  SN_FOREACH,  /* var (may be NULL), query, body */
  SN_IF,       /* cond, body, else_body (may be NULL) */
  SN_LET,      /* var, query or value */
  SN_USE,      /* var, body (an action) */
  SN_TRY,      /* body, else_body (catch) */
  SN_ACTION,
  SN_COMMAND,  /* text: an EddiSpeak command line */
  SN_REFACTOR, /* text: operation; args */
  SN_COLLECT,  /* value: the changeset's name */
  SN_CHANGESET, /* text: apply, rollback or preview; value: the name */
  SN_ROLLBACK_ALL,
  SN_STORE,    /* text: the position's name */
  SN_GOTO,     /* text: the position's name */
  SN_PUSH,
  SN_POP,
  SN_ON_ERROR, /* text: continue, stop or rollback */
  SN_LIMIT,    /* text: steps or time; value: the number (ms for time) */
  SN_UNCHECKED, /* the changes are written without the language servers' check */
} ScriptNodeKind;

typedef struct ScriptNode ScriptNode;
typedef Array(ScriptNode *) ScriptNodes;

struct ScriptNode {
  ScriptNodeKind kind;
  ScriptPos pos;
  char *var;
  char *text;
  ScriptQuery *query;
  ScriptCond *cond;
  ScriptExpr *value;
  ScriptActionKind action;
  ScriptExpr *a, *b;
  Array(ScriptExpr *) args;
  ScriptNode *body, *else_body;
  ScriptNodes children; /* BLOCK */
};

typedef struct {
  ScriptNode *root; /* a BLOCK */
  bool braced;      /* written as { ... } */
} Script;

/* Parse src (a whole script, or one single-line form) into out. On a
 * syntax error fills err with "Script line L:C: ..." and leaves out empty. */
/* commands tells which statement words are EddiSpeak commands. */
int eddi_script_parse(const char *src, size_t len, const EddiCommandPorts *commands, Script *out,
                      EddiError *err);
void eddi_script_free(Script *self);

/* Parse one query (a let's source kept between messages). */
int eddi_script_parse_query(const char *src, size_t len, ScriptQuery **out, EddiError *err);
void eddi_script_query_free(ScriptQuery *self);

/* Whether the tree needs the owner thread: it runs EddiSpeak commands, moves
 * the cursor, or applies or rolls back a changeset. */
bool eddi_script_needs_owner(const ScriptNode *node);

/* Whether the tree may change a file or a changeset's files: an action
 * other than flag and suggest, a refactoring, apply or rollback of a
 * changeset, or a command a read-only sender may not run. word receives
 * the first such statement's word ("replace", "Refactor Signature"). */
bool eddi_script_writes(const ScriptNode *node, const EddiCommandPorts *commands, char *word,
                        size_t word_size);

/* Whether the script's changes are collected, whatever it does: its first
 * statement is `collect changes as "<name>"` with the name written out, so
 * that it runs before any other and no condition, failure let through or
 * spent budget keeps it from deciding where the changes go. */
bool eddi_script_collects(const Script *script);

/* Whether the tree may change a file at once even when its changes are
 * collected: a command a read-only sender may not run, or apply or
 * rollback of a changeset (actions and refactorings are collected). */
bool eddi_script_writes_at_once(const ScriptNode *node, const EddiCommandPorts *commands,
                                char *word, size_t word_size);

/* Refactor operation names a script may write as statements
 * (rename_class A B, extract_method(...)); the canonical name or NULL. */
const char *eddi_script_refactor_operation(const char *word);

#endif
