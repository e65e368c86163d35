/* operations.h - the refactoring operations of EDDISPEAK.md's
 * "Refactoring": the one list that the Refactor command and scripts'
 * refactoring statements read. */
#ifndef EDDI_REFACTOR_OPERATIONS_H
#define EDDI_REFACTOR_OPERATIONS_H

#include "core/common.h"

/* Indexes into eddi_refactor_operations. */
enum {
  OP_RENAME_SYMBOL,
  OP_RENAME_CLASS,
  OP_SIGNATURE,
  OP_EXTRACT_METHOD,
  OP_EXTRACT_FUNCTION,
  OP_INLINE_FUNCTION,
  OP_INLINE_VARIABLE,
  OP_MOVE_METHOD,
  OP_EXTRACT_INTERFACE,
  OP_SPLIT_CLASS,
  OP_MERGE_CLASSES,
  OP_CHANGE_INHERITANCE,
  OP_EXTRACT_CLASS,
};

#define EDDI_REFACTOR_OPERATION_COUNT 13

extern const char *const eddi_refactor_operations[EDDI_REFACTOR_OPERATION_COUNT];

/* The name of operation i ("RenameSymbol", ...), NULL past the last. */
const char *eddi_refactor_operation_name(size_t i);
/* Whether two operation words are the same, case and underscores aside:
 * move_method = Move_Method = MoveMethod, as the design writes them. */
bool eddi_refactor_same_operation(const char *a, const char *b);
/* The operation word names that way, or -1. */
int eddi_refactor_operation_find(const char *word);

#endif
