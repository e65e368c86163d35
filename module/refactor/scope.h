/* scope.h - what one file says about names: its scopes, the symbols they
 * bind, and every occurrence of a name, read from the syntax tree through
 * the language's locals.scm.
 *
 * The analysis of a file is self-contained and immutable once made: it
 * holds indices into its own tables and names interned in the workspace's
 * RefNames, never pointers into a tree or an engine structure, so that it
 * can be made on a worker thread, kept in the index between commands and
 * shared by the two programs of a differential check (before and after an
 * edit). Links between files (imports, base classes, the receiver's type
 * of an attribute) are not resolved here: resolve.h does that, lazily, over
 * a whole program.
 *
 * The C code knows no language. The query's captures (listed in
 * doc/refactoring.org and at the top of each locals.scm) say which nodes
 * open scopes, which identifiers define, which are attribute names or
 * keyword arguments, which expressions are calls or literals, and what an
 * import statement consists of. */
#ifndef EDDI_REFACTOR_SCOPE_H
#define EDDI_REFACTOR_SCOPE_H

#include "refactor/names.h"
#include "syntax/syntax.h"

/* ---------------------------------------------------------------- scopes */

typedef enum {
  REF_SCOPE_MODULE,
  REF_SCOPE_CLASS, /* its names are members; nested scopes do not see them */
  REF_SCOPE_FUNCTION,
  REF_SCOPE_LAMBDA,
  REF_SCOPE_COMPREHENSION,
  REF_SCOPE_BLOCK,
} RefScopeKind;

typedef struct {
  RefScopeKind kind;
  uint32_t parent; /* REF_NONE for the module scope (index 0) */
  uint32_t start, end;
  uint32_t owner; /* the symbol of the class or function this is the body of */
} RefScope;

/* ---------------------------------------------------------------- symbols */

typedef enum {
  REF_SYM_MODULE, /* symbol 0 of every file: the module itself */
  REF_SYM_CLASS,
  REF_SYM_FUNCTION,
  REF_SYM_VARIABLE,
  REF_SYM_PARAMETER,
  REF_SYM_IMPORT, /* a name an import binds */
  REF_SYM_MEMBER, /* an attribute set through self (self.x = ...) */
} RefSymKind;

enum {
  REF_SYM_SELF = 1,        /* a parameter holding an instance of the enclosing class */
  REF_SYM_CLS = 2,         /* a parameter holding the enclosing class */
  REF_SYM_TRANSPARENT = 4, /* every definition is an import under its own name */
  REF_SYM_MIXED = 8,       /* defined by more than one kind of statement */
  REF_SYM_GENERATOR = 16,  /* a function that yields, or a coroutine: calls give neither */
  REF_SYM_DECORATED = 32,  /* a function a decorator may have turned into anything */
  REF_SYM_MACRO = 64,      /* a preprocessor macro: not renamed (@definition.macro) */
  REF_SYM_INTERNAL = 128,  /* no linkage: never one entity with another file's */
};

typedef struct {
  uint32_t name;
  RefSymKind kind;
  unsigned flags;
  uint32_t scope;                    /* where it is bound; for a member, its class's body */
  uint32_t own_scope;                /* the scope a class or function opens */
  uint32_t start;                    /* the first definition's name (identity and messages) */
  uint32_t first_def;                /* the first defining occurrence; the rest follow next_def */
  uint32_t klass;                    /* a member: its class's symbol */
  uint32_t bases_first, bases_count; /* a class: its base expressions (in bases) */
} RefSym;

/* ---------------------------------------------------------------- occurrences */

typedef enum {
  REF_OCC_NAME,        /* looked up by name in its scope */
  REF_OCC_MEMBER,      /* an attribute of a receiver expression (expr) */
  REF_OCC_KEYWORD,     /* a keyword argument of a call of expr */
  REF_OCC_EXPORT,      /* a string naming a module-level name (__all__) */
  REF_OCC_IMPORT_NAME, /* the imported name of "from m import x" */
  REF_OCC_MODULE_PART, /* a part of an import's module path: the module of parts[0, part] */
  REF_OCC_STRING,      /* a string holding just a name: never a sure reference */
} RefOccKind;

enum {
  REF_OCC_DEF = 1,   /* it defines sym */
  REF_OCC_WRITE = 2, /* assigned to */
  REF_OCC_KEYED = 4, /* also a property key (shorthand { a }): renamed alone, the key changes */
  REF_OCC_EXPORTED = 8, /* a name of the module for a value (@definition.export: export { f as
                         * g }, module.exports = { g: f }, exports.g = f) */
};

typedef struct {
  uint32_t start, end; /* the bytes a rename replaces */
  uint32_t name;
  RefOccKind kind;
  unsigned flags;
  uint32_t scope;
  uint32_t sym;      /* REF_OCC_DEF: the symbol defined (local) */
  uint32_t expr;     /* MEMBER: the receiver; KEYWORD: the callee; else REF_NONE */
  uint32_t import;   /* IMPORT_NAME, MODULE_PART and import definitions */
  uint32_t part;     /* MODULE_PART: index of its part in the import's path */
  uint32_t value;    /* a definition: the expression assigned, or REF_NONE */
  uint32_t type;     /* a definition: its annotation (a function's: the return's), or REF_NONE */
  uint32_t elements; /* a definition annotated as a collection (Shape[], list[Shape]): the
                      * element's type, or REF_NONE */
  uint32_t narrow;   /* a reference inside the block of if isinstance(x, T) / x instanceof
                      * T, where x is not assigned: the expression T, or REF_NONE */
  uint32_t next_def; /* the symbol's next definition */
} RefOcc;

/* ---------------------------------------------------------------- expressions */

typedef enum {
  REF_EXPR_OCC,     /* a name or an attribute: the value of what occurrence ref binds */
  REF_EXPR_CALL,    /* a call of expression ref */
  REF_EXPR_LITERAL, /* a value that is no workspace object (a string, a number, a list) */
  REF_EXPR_SUPER,   /* the bases of the class of the method around scope ref (super()) */
  REF_EXPR_NOTHING, /* no value (None): has no attributes of anyone's */
  REF_EXPR_SELF,    /* the instance of the class whose method holds scope ref (this) */
  REF_EXPR_ELEMENT, /* an element of the collection expression ref (a loop's target) */
} RefExprKind;

typedef struct {
  RefExprKind kind;
  uint32_t ref;
} RefExpr;

/* ---------------------------------------------------------------- imports */

typedef enum {
  REF_IMPORT_MODULE, /* import a.b [as c]: binds a (or c) */
  REF_IMPORT_FROM,   /* from m import x [as y] */
  REF_IMPORT_STAR,   /* from m import *: unsure */
  REF_IMPORT_DEFAULT, /* import d from "./m": binds what m exports as its default */
  REF_IMPORT_ALL,     /* every name of m, exactly (export * from "./m", #include "m.h") */
} RefImportKind;

typedef struct {
  RefImportKind kind;
  uint32_t level;       /* leading dots of a relative import */
  uint32_t parts_first; /* the module path, names in parts */
  uint32_t parts_count;
  uint32_t name; /* FROM: the imported name */
  bool aliased;  /* "as": the bound name is not the imported one */
  uint32_t sym;  /* the local symbol bound (REF_NONE for STAR) */
  uint32_t scope;
  uint32_t start; /* the statement, for messages */
  uint32_t path;  /* the module named by a path (@import.path, interned), or REF_NONE */
} RefImport;

/* ---------------------------------------------------------------- syntax errors */

/* An ERROR node, or a MISSING token (start == end), and what the parser's
 * recovery around it may have misread. */
typedef struct {
  uint32_t start, end;
  /* The node it stands in; at the top of the file, from the top-level
   * node before it to the one after it. */
  uint32_t near_start, near_end;
  uint32_t scope; /* the scope in effect where it stands */
  bool blocks;    /* it holds a brace, or is a missing one: the blocks around may be misread */
} RefSyntaxError;

/* The offset of the first whole word in text[from, to) (as a name reads:
 * no letter, digit or _ on either side), or UINT32_MAX. */
uint32_t ref_text_word(const char *text, size_t len, uint32_t from, uint32_t to,
                       const char *word);

/* ---------------------------------------------------------------- the file */

typedef struct {
  char *path; /* workspace path */
  const EddiLang *lang;
  Array(RefScope) scopes;
  Array(RefSym) syms;
  Array(RefOcc) occs; /* in text order */
  Array(RefExpr) exprs;
  Array(RefImport) imports;
  Array(uint32_t) parts; /* names of import paths */
  Array(uint32_t) bases; /* expressions of base classes */
  RefMap bindings;       /* (scope, name) -> symbol */
  RefMap declarations;   /* (scope, name) -> REF_DECL_* */
  RefMap members;        /* (class symbol, name) -> member symbol set through self */
  Array(uint32_t) stars; /* imports of kind STAR */
  RefIds dynamics;       /* receiver expression, offset: members looked up by a computed name */
  RefIds reflections;    /* expression, offset: objects whose fields are all read by name
                          * (vars(obj), JSON.stringify(obj)) */
  RefIds returns;        /* scope, expression: what return statements give */
  uint32_t errors;       /* ERROR and MISSING nodes */
  uint32_t first_error;  /* offset of the first, for messages */
  Array(RefSyntaxError) syntax_errors; /* each, in text order */
  uint32_t default_export; /* the expression a default import gets (@export.default), or REF_NONE */
} RefFile;

enum { REF_DECL_GLOBAL = 1, REF_DECL_NONLOCAL = 2 };

/* Analyse text (a file of lang, which has a locals query) into a new
 * RefFile; names go into names. Fails only when the parser gives up. */
int ref_file_analyze(const char *path, const EddiLang *lang, const char *text, size_t len,
                     RefNames *names, RefFile **out, EddiError *err);
/* A text to analyse: a file of lang (which has a locals query) at path. */
typedef struct {
  const char *path;
  const EddiLang *lang;
  const char *text;
  size_t len;
  /* May be NULL: an earlier tree of the file, edited (ts_tree_edit) to the
   * changes that made text, so that only what changed is parsed again
   * (borrowed). */
  const TSTree *base;
} RefFileText;

/* ref_file_analyze of source, parsing from source->base. kept (may be
 * NULL) receives the new tree, which the caller deletes with
 * ts_tree_delete; the analysis itself holds no pointer into it. */
int ref_file_analyze_tree(const RefFileText *source, RefNames *names, RefFile **out,
                          TSTree **kept, EddiError *err);
void ref_file_free(RefFile *self);

/* The symbol name resolves to from scope by the file's own scopes
 * (global and nonlocal declarations, class bodies skipped from inside), or
 * REF_NONE when it is not bound in the file (a builtin, an undefined name,
 * or one a star import may bring). */
uint32_t ref_file_lookup(const RefFile *self, uint32_t scope, uint32_t name);
/* The symbol bound to name directly in scope, or REF_NONE. */
static inline uint32_t ref_file_bound(const RefFile *self, uint32_t scope, uint32_t name) {
  return ref_map_get(&self->bindings, ref_key(scope, name));
}
/* The class whose method scope is, through a self or cls parameter, or
 * REF_NONE: the owner of the class body around the function scope. */
uint32_t ref_file_enclosing_class(const RefFile *self, uint32_t scope);
/* The class whose instance "this" holds in scope (REF_EXPR_SELF): the
 * class of the method around it, through blocks and arrow functions (which
 * have no this of their own); REF_NONE in a plain function. */
uint32_t ref_file_self_class(const RefFile *self, uint32_t scope);

#endif
