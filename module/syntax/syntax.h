/* syntax.h - code structure from tree-sitter: languages, parse trees per
 * document, and the elements (functions, classes, methods, variables,
 * imports) that structural commands act on.
 *
 * The C code here knows no language. What a function or a class looks like
 * in Python or Go is in grammars/queries/<lang>/structure.scm and
 * details.scm, read through eddi's own capture names; comment syntax,
 * indentation, blank lines and the formatter are in language.conf. Adding a
 * language is a grammar folder and its queries.
 *
 * A document's tree is kept on its EddiDoc, and listens to it
 * (EddiDocListener): every change is announced to it before the text
 * changes and recorded on the tree with ts_tree_edit at once; the reparse
 * waits until a command asks for the tree (eddi_syntax_get), so a run of
 * edits costs one incremental parse.
 */
#ifndef EDDI_SYNTAX_H
#define EDDI_SYNTAX_H

#include <tree_sitter/api.h>

#include "core/common.h"
#include "core/document.h"
#include "core/text.h"

/* Files larger than this are not parsed: structural commands say so. */
#define EDDI_SYNTAX_MAX_BYTES_DEFAULT ((size_t)8 << 20)
/* Longest name a lookup considers, and most elements an outline lists. */
#define EDDI_SYNTAX_NAME_MAX 256

/* ---------------------------------------------------------------- languages */

#define EDDI_LANG_LIST_MAX 8

typedef struct {
  const char *name;             /* "python" */
  const TSLanguage *ts;         /* NULL when the runtime refused the grammar */
  char refused[160];            /* why, when ts is NULL */
  TSQuery *structure;           /* elements; NULL if the language has none */
  TSQuery *details;             /* decorators, comments, decisions, calls */
  TSQuery *locals;              /* scopes, definitions, references (module/refactor/) */
  /* From language.conf. */
  char *extensions[EDDI_LANG_LIST_MAX]; /* ".py" */
  char *shebangs[EDDI_LANG_LIST_MAX];   /* "python3" */
  char *comment_line;                   /* "#", "//"; NULL if none */
  char *comment_block_start, *comment_block_end;
  char *comment_doc_start, *comment_doc_end; /* doc comment around the text */
  char *comment_doc_prefix;                  /* or a prefix per line ("///") */
  bool doc_inside;          /* the doc comment is the body's first statement */
  char *indent;             /* one level: "    " or "\t" */
  size_t blank_lines;       /* between top-level definitions */
  size_t blank_lines_member; /* between members of a class */
  char *formatter;          /* a program and its words (no shell) reading stdin, writing
                             * stdout; NULL if none */
  char *visibility;         /* "prefix" (Python), "keyword" (Java, TS), "static" (C) */
  bool decorators;          /* AddDecorator makes sense */
  bool import_dedent;       /* imports go at column 0 */
  char *implicit_params[EDDI_LANG_LIST_MAX]; /* "self": Function f() matches f(self) */
  /* Names and scopes, for refactoring (module/refactor/, doc/refactoring.org). */
  char *keywords;           /* reserved words, space-separated; NULL if none listed */
  char *globals;            /* names every module sees undefined (builtins), space-separated; NULL if none listed */
  char *identifier_pattern; /* PCRE2 pattern a whole name must match */
  bool identifier_nfkc;     /* the language reads names in NFKC (Python: PEP 3131) */
  char *modules;            /* how imports find files: "packages" (Python) */
  char *module_index;       /* a folder's own module file name, "__init__" */
  char *constructor;        /* the method a call of a class runs, "__init__" */
  char *special_pattern;    /* PCRE2: names the language calls by protocol (__eq__) */
  char *title;              /* the language's name in messages ("C"), or NULL for name */
  char *plain_bases[EDDI_LANG_LIST_MAX]; /* bases that bring no members: "object" */
  char *plain_decorators[EDDI_LANG_LIST_MAX]; /* decorators that keep a function as it is */
  bool errors_local; /* "syntax_errors local": a syntax error spoils only the names in and
                      * beside it and in its function (doc/refactoring.org) */
} EddiLang;

/* Every compiled-in language, loaded once (thread-safe). */
const EddiLang *eddi_lang_all(size_t *count);
const EddiLang *eddi_lang_by_name(const char *name);
/* How many languages are compiled in, and the name of the index-th, without
 * loading any (eddi_lang_all compiles every language's queries). */
size_t eddi_lang_count(void);
const char *eddi_lang_name(size_t index);
/* The language of a file from its path's extension, then the shebang on its
 * first line; NULL for plain text. */
const EddiLang *eddi_lang_detect(const char *path, const char *first_line, size_t len);

/* ---------------------------------------------------------------- elements */

typedef enum {
  EDDI_ELEMENT_FUNCTION = 1,
  EDDI_ELEMENT_METHOD = 2,
  EDDI_ELEMENT_CLASS = 4,
  EDDI_ELEMENT_IMPL = 8, /* a container of methods that is not a class (Rust impl) */
  EDDI_ELEMENT_VARIABLE = 16,
  EDDI_ELEMENT_IMPORT = 32,
} EddiElementKind;

typedef struct {
  EddiElementKind kind;
  TSNode node;
  size_t start, end;           /* the node's bytes */
  size_t name_start, name_end; /* equal when unnamed */
  size_t params_start, params_end;
  bool has_params;
  size_t body_start, body_end;
  bool has_body;
  char *name;  /* owned; "" when unnamed; for an import, its module */
  char *owner; /* owned; the class of a method, else NULL */
  int parent;  /* index of the enclosing class, impl or function, -1 */
  /* A variable of a function (a parameter, a name it binds): captured as
   * @local anywhere, kept only inside a function. */
  bool local;
} EddiElement;

/* One capture of details.scm: a byte range. */
typedef struct {
  size_t start, end;
} EddiSpan;

/* A name and the list that binds it: a parameter of a parameter list, a
 * keyword argument of a call (captures @parameter.name in @parameter.list,
 * @argument.name in @argument.list). */
typedef struct {
  EddiSpan name;
  EddiSpan list;
} EddiListedName;

typedef Array(EddiListedName) EddiListedNames;

typedef struct {
  Array(EddiSpan) decorators;
  Array(EddiSpan) comments;
  Array(EddiSpan) decisions;
  Array(EddiSpan) nestings;
  Array(EddiSpan) calls;        /* names of called functions */
  Array(EddiSpan) import_names; /* names an import binds */
  EddiListedNames parameters;        /* in document order */
  EddiListedNames keyword_arguments; /* in document order */
} EddiDetails;

/* ---------------------------------------------------------------- documents */

typedef Array(EddiElement) EddiElementList;

typedef struct EddiSyntax {
  const EddiLang *lang; /* NULL: plain text */
  char plain[160];      /* why the file is plain text */
  TSParser *parser;
  TSTree *tree;
  bool stale;           /* edits recorded since the last parse */
  bool elements_ready;
  EddiElementList elements; /* by start offset */
  TSTree *half_tree; /* a copy of tree the second half's elements' nodes belong to */
  bool details_ready;
  bool details_wanted; /* eddi_syntax_want_details: for the next eddi_syntax_get */
  EddiDetails details;
  size_t parses; /* how many times the document was parsed (tests, bench) */
  EddiDoc *doc;  /* the document listened to; NULL for eddi_syntax_of_text's */
  EddiDocListener listener;
} EddiSyntax;

/* The document's syntax, parsed and with its elements listed; created on
 * first use. Fails "No grammar for .xyz" for plain text, and for files over
 * max_bytes says they are handled as plain text. Borrowed: the document
 * owns it. */
int eddi_syntax_get(EddiDoc *doc, size_t max_bytes, EddiSyntax **out, EddiError *err);
/* Whether the predicates of match hold (#eq? and #not-eq?, a capture
 * against a string or another capture; any other predicate fails the
 * match). slice returns a new copy of bytes [start, end) of source, freed
 * with eddi_free. */
typedef char *(*EddiSyntaxSlice)(const void *source, size_t start, size_t end);
bool eddi_syntax_predicates_hold(const TSQuery *query, const TSQueryMatch *match,
                                 EddiSyntaxSlice slice, const void *source);
/* The details captures (decorators, comments, decision points ...), computed
 * once per tree. */
const EddiDetails *eddi_syntax_details(EddiSyntax *self, const EddiText *text);
/* The next eddi_syntax_get of doc will be followed by eddi_syntax_details:
 * if it lists the elements, the details query runs beside it on a second
 * thread (Analyze asks; the two queries cost about the same). */
void eddi_syntax_want_details(EddiDoc *doc);
/* Free self; a document's stops listening and leaves doc->syntax NULL
 * (the document frees its own when it is freed). NULL is allowed. */
void eddi_syntax_free(EddiSyntax *self);

/* Parse text that is no document's (a file's saved version) as lang, which
 * has a grammar, and list its elements: a new syntax, freed with
 * eddi_syntax_free. Its tree is NULL when the parser gave up. */
EddiSyntax *eddi_syntax_of_text(const EddiLang *lang, const EddiText *text);

/* Parse the text without elements (the benchmark's reference uses the same
 * reader). Returns a new tree. */
TSTree *eddi_syntax_parse_text(TSParser *parser, const TSTree *old, const EddiText *text);

/* ---------------------------------------------------------------- lookups */

typedef Array(size_t) EddiIndexList;

/* Elements of kinds (a mask) named name; owner, when given, must match the
 * method's class; params, when given, must match the parameter list with
 * spaces ignored ("" or "()" matches an empty list). Appends indices. */
void eddi_syntax_find(EddiSyntax *self, const EddiText *text, unsigned kinds, const char *name,
                      const char *owner, const char *params, EddiIndexList *out);
/* The innermost element of kinds holding offset, or -1. */
int eddi_syntax_innermost(const EddiSyntax *self, size_t offset, unsigned kinds);
/* The first ERROR or MISSING node inside the element, if any. */
bool eddi_syntax_element_error(const EddiElement *element, size_t *offset);
/* Where an element's extent starts: its first byte, or that of the
 * decorators and comments directly above it (whitespace and at most one
 * line break between each). */
size_t eddi_syntax_extent_start(EddiSyntax *self, const EddiText *text, const EddiElement *e);
/* "Function", "Method", "Class" ... for replies. */
const char *eddi_element_kind_name(EddiElementKind kind);
/* The element's display name: "name" or "Owner.name". New string. */
char *eddi_element_display(const EddiElement *element);

#endif
