/* plan.c - a refactoring's plan; see plan.h. */
#include "refactor/plan.h"

void ref_plan_free(RefPlan *self) {
  eddi_free(self->old_name);
  eddi_free(self->new_name);
  for (size_t i = 0; i < self->changes.len; i++) {
    RefChange *change = &self->changes.items[i];
    array_free(&change->edits);
    eddi_free(change->new_path);
    eddi_free(change->after);
    ref_file_free(change->after_file);
    if (change->after_tree) ts_tree_delete(change->after_tree);
  }
  array_free(&self->changes);
  eddi_strbuf_free(&self->unsure);
  eddi_free(self->moved_from);
  eddi_free(self->moved_to);
  ref_paths_free(&self->carry_from);
  ref_paths_free(&self->carry_to);
  eddi_free(self->emptied);
  memset(self, 0, sizeof *self);
}
