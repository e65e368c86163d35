/* expr.h - what the refactorings past rename ask of a Python expression
 * before they move it: whether it may be evaluated elsewhere, how often
 * and in which order, whether it needs parentheses where it goes, and
 * whether its names mean the same there.
 *
 * "Pure" is free of effects: nothing in it calls (but a class whose
 * hierarchy defines no __init__ or __new__), awaits, yields or assigns.
 * "Stable" is pure and reads no state that code in between could change
 * (no subscript, no attribute of anything but a module or a class): such
 * an expression gives the same value wherever and however often it is
 * evaluated. */
#ifndef EDDI_REFACTOR_EXPR_H
#define EDDI_REFACTOR_EXPR_H

#include "refactor/ops.h"

/* The occurrence of file that starts at offset, or REF_NONE. */
uint32_t ref_expr_occ_at(const RefFile *file, uint32_t offset);
/* Whether node (of file f; ops may be NULL: then every call counts) is
 * pure, reads state, is stable. */
bool ref_expr_pure(RefOps *ops, uint32_t f, TSNode node);
bool ref_expr_reads_state(RefOps *ops, uint32_t f, TSNode node);
bool ref_expr_stable(RefOps *ops, uint32_t f, TSNode node);
/* Whether a call in node starts before offset without holding it. */
bool ref_expr_call_before(TSNode node, uint32_t offset);
/* Append value (the text of value_node, which may be a null node) as it
 * must be written in place of node at: in parentheses unless it binds
 * tighter than anything or at is a whole argument, element or value. */
void ref_expr_put(StrBuf *out, TSNode value_node, const char *value, TSNode at);
/* A node's text with its line breaks made spaces (new string). */
char *ref_expr_flat(RefOps *ops, uint32_t f, TSNode node);
/* The statement node holds: the child of a block or of the module. */
TSNode ref_expr_statement(TSNode node);
/* Whether name means at gscope of file g what it means at fscope of file
 * f: both unbound (a builtin), the same binding, or bindings that are the
 * same workspace entity. */
bool ref_expr_same_meaning(RefOps *ops, uint32_t f, uint32_t fscope, uint32_t g,
                           uint32_t gscope, uint32_t name);
/* The innermost scope of file around offset. */
uint32_t ref_expr_scope_at(const RefFile *file, uint32_t offset);
/* Whether scope lies in (or is) outer. */
bool ref_expr_within(const RefFile *file, uint32_t scope, uint32_t outer);

#endif
