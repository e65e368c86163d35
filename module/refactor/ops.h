/* ops.h - the refactorings beyond rename: a change of signature, inlining,
 * extracting, moving a method, extracting an interface.
 *
 * Every one is a plan made on a worker thread over an index (index.h), as
 * a rename is: it names its entity as RenameSymbol does (target.h),
 * checks the preconditions by name resolution, collects its edits (byte
 * ranges of sources and their new text) and then runs the same kind of
 * differential check before anything is written: the changed files are
 * analysed again, no new ERROR or MISSING node may appear, and every
 * occurrence outside the edited ranges must refer to what it referred to
 * before. Only a plan that passes becomes a RefPlan (rename.h), which the
 * command writes in one transaction as it writes a rename.
 *
 * They read Python's syntax; Signature, the inlinings and Extract read
 * C's, JavaScript's and TypeScript's too (their node types in ops_lang.c),
 * and Extract_Interface TypeScript's. What an operation does not make safe
 * in a language is refused with "Not supported for <lang>: <why>". */
#ifndef EDDI_REFACTOR_OPS_H
#define EDDI_REFACTOR_OPS_H

#include "refactor/rename.h"
#include "refactor/resolve.h"
#include "refactor/target.h"

typedef struct {
  uint32_t source;
  uint32_t start, end; /* the bytes replaced */
  char *text;          /* by this */
} RefEdit;

typedef struct {
  RefIndex *index;
  RefProgram program; /* over the index's files */
  Array(RefEdit) edits;
  Array(TSTree *) trees; /* per source, parsed on first use */
  TSParser *parser;
  size_t unsure_count;
  StrBuf unsure; /* "a.py:12, b.py:40": left alone, 0-based lines */
  bool unsure_kept; /* the operation showed they keep working (plan.h) */
  char *unsure_of;        /* what they may refer to (plan.h; owned), or NULL */
  const char *unsure_why; /* static: what would have kept them working, or NULL */
  StrBuf facts;  /* the reply's facts, one a line */
  size_t count;  /* what the operation counts: calls rewritten, uses replaced */
  EddiError *err;
} RefOps;

/* What a typed call or a command gives an operation. */
typedef struct {
  const char *spec;     /* the entity (a function, a variable, a class, A.m) */
  const char *other;    /* the second name: new signature, B.m, the interface, ... */
  const char *name;     /* Extract: the new function's name */
  const char *path;     /* Extract: the file (the session's current one) */
  uint32_t first, last; /* Extract: 0-based inclusive lines */
  bool delegate;         /* Move_Method: keep A.m as a delegate (the command said Delegate) */
} RefOpArgs;

typedef enum {
  REF_OP_SIGNATURE,
  REF_OP_EXTRACT,
  REF_OP_INLINE_FUNCTION,
  REF_OP_INLINE_VARIABLE,
  REF_OP_MOVE_METHOD,
  REF_OP_EXTRACT_INTERFACE,
  REF_OP_CHANGE_INHERITANCE, /* other: "[OldParent] NewParent" */
  REF_OP_EXTRACT_CLASS,      /* other: "NewClass member,member" */
  REF_OP_SPLIT_CLASS,        /* other: "NewClass member,member" */
  REF_OP_MERGE_CLASSES,      /* other: "B Target" */
  REF_OP_UNSUPPORTED, /* an operation no plan is built for */
} RefOpKind;

/* Plan operation kind (named word, for messages) over index; out gets the
 * texts, facts the reply's facts ("Changed signature of a_func", "3 calls
 * updated", one a line), unsure/unsure_count the references left alone. */
int ref_op_plan(RefIndex *index, RefOpKind kind, const char *word, const RefOpArgs *args,
                RefPlan *out, StrBuf *facts, EddiError *err);

/* ---------------------------------------------------------------- shared by the operations */

void ref_ops_init(RefOps *self, RefIndex *index, EddiError *err);
void ref_ops_free(RefOps *self);
/* Replace bytes [start, end) of source by text[0, len). */
void ref_ops_edit(RefOps *self, uint32_t source, uint32_t start, uint32_t end, const char *text,
                  size_t len);
/* A reference left alone: listed as unsure. */
void ref_ops_unsure(RefOps *self, uint32_t source, uint32_t offset);
/* Fail with "<message> at path:L:C". */
int ref_ops_fail_at(RefOps *self, uint32_t source, uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The entity spec names: a symbol (file, index). */
int ref_ops_find(RefOps *self, const char *spec, RefTarget *out);
/* Refuse a new name that is a keyword of lang or no identifier. */
int ref_ops_valid_name(RefOps *self, const EddiLang *lang, const char *name);
/* Why some calls of a method (symbol sym of file, in class klass) may be
 * out of sight: none (REF_CALLERS_SEEN), a base of its class outside the
 * workspace, whose code may call it, or another class of the workspace
 * defining the same name (an override, or a call through a receiver that
 * cannot be told apart), whose definition *other_file, *other_sym get. */
typedef enum { REF_CALLERS_SEEN, REF_CALLERS_OUTSIDE_BASE, REF_CALLERS_OVERRIDE } RefCallers;
RefCallers ref_ops_method_callers(RefOps *self, uint32_t file, uint32_t sym, uint32_t klass,
                                  uint32_t *other_file, uint32_t *other_sym);
/* Refuse a file whose language these operations do not read. */
int ref_ops_python(RefOps *self, uint32_t source, const char *word);
/* 0 when operation word is made safe in source's language (a language of
 * ops_lang.c's tables it gives no reason against); otherwise the failure
 * ref_ops_python gives. */
int ref_ops_supports(RefOps *self, uint32_t source, const char *word);
/* The parse tree of a source (owned by self). */
TSNode ref_ops_root(RefOps *self, uint32_t source);
/* The smallest named node covering [start, end) of source. */
TSNode ref_ops_node(RefOps *self, uint32_t source, uint32_t start, uint32_t end);
/* The node of a symbol's first definition: the def or class statement (its
 * decorated_definition when decorated) or the assignment. */
TSNode ref_ops_definition(RefOps *self, RefTarget target, TSNode *name);
/* A node's text (new string). */
char *ref_ops_text(RefOps *self, uint32_t source, TSNode node);
/* Whether node's type is type. */
bool ref_node_is(TSNode node, const char *type);
/* The nearest ancestor (node included) of type, or a null node. */
TSNode ref_node_up(TSNode node, const char *type);
/* Byte offset of the start of the line holding offset, and its indentation. */
uint32_t ref_ops_line_start(const RefSource *source, uint32_t offset);
uint32_t ref_ops_indent(const RefSource *source, uint32_t offset);
/* The start of the line after offset's (or the end of the text). */
uint32_t ref_ops_next_line(const RefSource *source, uint32_t offset);
/* Remove the whole lines holding [start, end) of source; the blank lines
 * after them too when a blank line (or the file's start) is before them,
 * so that removing a definition leaves the spacing there was. */
void ref_ops_remove_lines(RefOps *self, uint32_t source, uint32_t start, uint32_t end);
/* Append text[0, len) re-indented: each line loses its first drop columns
 * of indentation and gains indent (blank lines stay empty). */
void ref_ops_reindent(StrBuf *out, const char *text, size_t len, size_t drop, const char *indent,
                      size_t indent_len);
/* Whether an occurrence of source at offset lies in [start, end). */
static inline bool ref_in(uint32_t offset, uint32_t start, uint32_t end) {
  return offset >= start && offset < end;
}
/* Build the texts, analyse them and run the differential check; what
 * names the operation in messages. */
int ref_ops_finish(RefOps *self, const char *what, RefPlan *out);

/* ---------------------------------------------------------------- the operations */

int ref_signature_plan(RefOps *self, const RefOpArgs *args);
int ref_inline_function_plan(RefOps *self, const RefOpArgs *args);
int ref_inline_variable_plan(RefOps *self, const RefOpArgs *args);
int ref_extract_plan(RefOps *self, const RefOpArgs *args);
int ref_move_method_plan(RefOps *self, const RefOpArgs *args);
int ref_extract_interface_plan(RefOps *self, const RefOpArgs *args);
int ref_change_inheritance_plan(RefOps *self, const RefOpArgs *args);
int ref_extract_class_plan(RefOps *self, const RefOpArgs *args);
int ref_split_class_plan(RefOps *self, const RefOpArgs *args);
int ref_merge_classes_plan(RefOps *self, const RefOpArgs *args);

/* ---------------------------------------------------------------- in one file */

/* An edit of one text, for Modify. */
typedef struct {
  size_t start, end;
  char *text;
} RefTextEdit;

typedef Array(RefTextEdit) RefTextEdits;

/* A Refactor Signature within one text alone: path's file, its language
 * Python. */
typedef struct {
  const char *path;
  const char *text;
  size_t len;
  const char *old_sig; /* "path:L:C(a, b)": the definition, L:C its name's position */
  const char *new_sig; /* the same with the new parameters */
} RefSignatureLocal;

/* The definition op->old_sig names gets op->new_sig's parameters, and the
 * calls of it in the text are rewritten; out gets the edits, *calls the
 * calls rewritten, unsure the references left alone ("a.py:12, ...").
 * Changes nothing on failure. */
int ref_signature_local(const RefSignatureLocal *op, RefTextEdits *out, size_t *calls,
                        StrBuf *unsure, EddiError *err);
void ref_text_edits_free(RefTextEdits *self);

#endif
