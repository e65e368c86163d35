/* flow.h - what a run of statements reads, writes and leaves live: the
 * parameters and results of a function extracted from it.
 *
 * The analysis works over the name resolution of the file (scope.h): the
 * variables are the symbols the enclosing function binds (the module's
 * for statements at module level), their occurrences are ordered by when
 * they happen, not where they are written (a target after the value it is
 * given, the iterable of a for before its target), and a write inside a
 * compound statement of the region is conditional. It is conservative
 * where flow is not followed: a variable read anywhere after the region is
 * live unless a plain assignment in a later statement of the same block
 * comes first. */
#ifndef EDDI_REFACTOR_FLOW_H
#define EDDI_REFACTOR_FLOW_H

#include "refactor/ops.h"

typedef Array(char *) RefFlowNames;

typedef struct {
  RefFlowNames params;   /* read before written, in order of first use */
  RefFlowNames results;  /* written and live after, in order of first write */
  RefFlowNames declared; /* "global g", "nonlocal a": names assigned that the function declares */
  bool returns;          /* the region ends with its only return */
  bool unsafe;           /* exit_error is set */
  const char *exit_error; /* why the region cannot be a function, or NULL */
  const char *exit_hint;  /* static: the way on, or NULL */
  uint32_t exit_at;
  char *exit_owned;       /* exit_error when it names a variable (freed with the flow) */
} RefFlow;

/* The flow of statements first..last (siblings) of file f, inside function
 * (a function_definition, or a null node at module level). */
int ref_flow_region(RefOps *ops, uint32_t f, TSNode function, TSNode first, TSNode last,
                    RefFlow *out);
void ref_flow_free(RefFlow *self);

#endif
