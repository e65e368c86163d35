/* operations.c - the refactoring operations' names; see operations.h. */
#include "refactor/operations.h"

const char *const eddi_refactor_operations[EDDI_REFACTOR_OPERATION_COUNT] = {
    "RenameSymbol",      "Rename_Class",   "Signature",       "Extract_Method",
    "ExtractFunction",   "InlineFunction", "Inline_Variable", "Move_Method",
    "Extract_Interface", "Split_Class",    "Merge_Classes",   "Change_Inheritance",
    "ExtractClass",
};

const char *eddi_refactor_operation_name(size_t i) {
  return i < EDDI_REFACTOR_OPERATION_COUNT ? eddi_refactor_operations[i] : NULL;
}
