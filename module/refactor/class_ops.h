/* class_ops.h - what the class refactorings (class_*.c) share: a class's
 * body, its ancestry, the place and the text of an import, and the member
 * lists the commands take. See ops.h for the frame they run in. */
#ifndef EDDI_REFACTOR_CLASS_OPS_H
#define EDDI_REFACTOR_CLASS_OPS_H

#include "refactor/ops.h"

/* Deepest chain of bases followed: deeper hierarchies are cycles or absurd. */
#define REF_CLASS_DEPTH_MAX 64

/* The node that defines a class or a method: Python's definition (with
 * its decorators), JavaScript's declaration or method_definition. */
TSNode ref_class_definition(RefOps *ops, RefTarget target);
/* The class_definition of a class target (inside its decorated_definition). */
TSNode ref_class_node(RefOps *ops, uint32_t file, uint32_t klass);
/* A class target's body block. */
TSNode ref_class_body(RefOps *ops, uint32_t file, uint32_t klass);
/* Whether class (file, klass) is (afile, aklass) or inherits from it,
 * through the bases the workspace knows. */
bool ref_class_descends(RefOps *ops, uint32_t file, uint32_t klass, uint32_t afile,
                        uint32_t aklass);
/* Whether the reference at [start, end) of file asks which class an
 * object is: an argument of isinstance or issubclass, an except clause's
 * class, a side of a comparison (type(x) is A); in JavaScript the right
 * of instanceof, in TypeScript also the class named as a type. */
bool ref_class_type_test(RefOps *ops, uint32_t file, uint32_t start, uint32_t end);
typedef struct {
  TSNode node;     /* the base expression */
  RefTarget klass; /* the class it resolves to, or NONE (external, object) / UNSURE */
} RefClassBase;

typedef Array(RefClassBase) RefClassBases;

/* The base expressions of a class (keyword arguments such as metaclass=
 * are no bases), each with the class it resolves to. */
void ref_class_bases(RefOps *ops, uint32_t file, TSNode klass, RefClassBases *out);
/* The offset of the first base of a class that is no class of the
 * workspace and not object (a library's class, or unknown), or REF_NONE. */
uint32_t ref_class_foreign_base(RefOps *ops, RefTarget klass);
/* Whether a member of the class (or of a subclass; of an ancestor too
 * when ancestors) is looked up by a computed name somewhere (getattr(self,
 * name), hasattr): *file and *offset get the place. */
bool ref_class_computed_lookup(RefOps *ops, RefTarget klass, bool ancestors, uint32_t *file,
                               uint32_t *offset);
/* Whether an instance of the class (or of a subclass; an ancestor too
 * when ancestors) has all its fields read by their names somewhere
 * (vars(obj), JSON.stringify(obj), {...obj}): the place of the call. */
bool ref_class_reflected(RefOps *ops, RefTarget klass, bool ancestors, uint32_t *file,
                         uint32_t *offset);
/* Find spec as a class (refusing any other symbol). */
int ref_class_find(RefOps *ops, const char *spec, RefTarget *out);
/* Where a new "from ... import ..." line goes in file: after the module's
 * leading imports; *blank says whether none is there (two blank lines
 * must then follow it). */
uint32_t ref_class_import_at(RefOps *ops, uint32_t file, bool *blank);
/* Append the dotted module name of file ("pkg.mod"). */
void ref_class_module_name(RefOps *ops, uint32_t file, StrBuf *out);
/* Append a delegate's arguments: each parameter of params (a method's)
 * but self, as it must be passed on (name=name past a *). */
void ref_class_forward(RefOps *ops, uint32_t file, TSNode params, StrBuf *out);
/* JavaScript's and TypeScript's members. Whether node has an anonymous
 * child of type (a keyword such as static or get). */
bool ref_class_js_keyword(TSNode node, const char *type);
/* A TypeScript member's accessibility: "private", "protected" or NULL. */
const char *ref_class_js_hidden(RefOps *ops, uint32_t file, TSNode node);
/* Why method_definition def is no plain instance method an operation may
 * move (static, an accessor, #private or computed, no body, decorated,
 * override, the constructor, overloaded), *at its place; NULL when it is. */
const char *ref_class_js_method_why(RefOps *ops, uint32_t file, TSNode def, uint32_t *at);
/* Where a member's text starts: the comment right above it (its JSDoc),
 * or the member. */
uint32_t ref_class_js_leading(RefOps *ops, uint32_t file, TSNode member);
/* The first this, super, new.target or arguments in node that is the
 * method's own (a function nested in it has a this of its own: any this
 * there counts, nested), but a this that allowed(context, this) accepts;
 * REF_NONE when none is. */
typedef bool (*RefThisAllowed)(void *context, TSNode this_node);
uint32_t ref_class_js_this(RefOps *ops, uint32_t file, TSNode node, bool nested,
                           RefThisAllowed allowed, void *context);
/* Append a JavaScript delegate's arguments: each parameter by its name, a
 * rest parameter spread; a destructured one is refused (as word). */
int ref_class_js_forward(RefOps *ops, uint32_t file, TSNode params, const char *word,
                         StrBuf *out);
/* Make method's body return this.holder.name(arguments) (yield* for a
 * generator). */
void ref_class_js_delegate(RefOps *ops, uint32_t file, TSNode method, const char *holder,
                           const char *name, const char *arguments);
/* Replace the empty body of class declaration klass with one holding
 * members (whole lines, indented), its } under the class. */
void ref_class_js_fill_body(RefOps *ops, uint32_t file, TSNode klass, const char *members,
                            size_t len);
/* Where the removal of member (its text from start) begins: with the
 * blank lines above it when it is the class's last member. */
uint32_t ref_class_removal_start(RefOps *ops, uint32_t file, TSNode member, uint32_t start);
/* Extract_Interface for a TypeScript class (class_interface.c). */
int ref_ts_extract_interface_plan(RefOps *ops, const RefOpArgs *args, RefTarget klass);
/* Split "a,b c" at commas and spaces into words (new strings). */
typedef Array(char *) RefWords;
void ref_words_split(const char *text, RefWords *out);
void ref_words_free(RefWords *self);

#endif
