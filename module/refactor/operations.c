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

bool eddi_refactor_same_operation(const char *a, const char *b) {
  for (;;) {
    while (*a == '_') a++;
    while (*b == '_') b++;
    if (!*a || !*b) return !*a && !*b;
    if ((*a | 0x20) != (*b | 0x20)) return false;
    a++, b++;
  }
}

int eddi_refactor_operation_find(const char *word) {
  for (size_t i = 0; i < EDDI_REFACTOR_OPERATION_COUNT; i++)
    if (eddi_refactor_same_operation(word, eddi_refactor_operations[i])) return (int)i;
  return -1;
}
