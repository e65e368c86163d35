/* class_merge.c - stub */
#include "refactor/class_ops.h"

int ref_merge_classes_plan(RefOps *ops, const RefOpArgs *args) {
  EDDI_UNUSED(args);
  return eddi_error_set(ops->err, EDDI_EINVAL, "Not supported for python: Merge_Classes");
}
