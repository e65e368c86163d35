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
  eddi_free(self->unsure_of);
  memset(self, 0, sizeof *self);
}

/* ---------------------------------------------------------------- unsure references */

bool ref_plan_unsure_left(const RefPlan *self, unsigned flags) {
  if (!self->unsure_count || self->unsure_kept || (flags & REF_UNSURE_LEAVE)) return false;
  return !(self->unsure_changeable && (flags & REF_UNSURE_CHANGE));
}

const char *ref_plan_unsure_ways(const RefPlan *self) {
  return self->unsure_changeable ? "Unsure or Leave" : "Leave";
}

/* Room for the places in the refusal, so that "; nothing written" fits
 * (EDDI_ERROR_MAX); a longer list ends in ", ...". */
#define PLAN_UNSURE_PLACES_MAX (EDDI_ERROR_MAX / 2)

int ref_plan_unsure_check(const RefPlan *self, unsigned flags, EddiError *err) {
  if (!ref_plan_unsure_left(self, flags)) return 0;
  const char *places = self->unsure.data ? self->unsure.data : "";
  int shown = (int)strlen(places);
  const char *more = "";
  if (shown > PLAN_UNSURE_PLACES_MAX) {
    shown = PLAN_UNSURE_PLACES_MAX;
    while (shown > 0 && places[shown] != ',') shown--;
    more = ", ...";
  }
  eddi_error_set(err, EDDI_EINVAL, "%zu %s%s%s cannot be resolved: %.*s%s; nothing written",
                 self->unsure_count, self->unsure_count == 1 ? "reference" : "references",
                 self->unsure_of ? " to " : "", self->unsure_of ? self->unsure_of : "", shown,
                 places, more);
  if (self->unsure_changeable)
    eddi_error_hint(err, "Add Unsure to change them too, or Leave to write without them");
  else
    eddi_error_hint(err, "Add Leave to write without them%s%s", self->unsure_why ? "; " : "",
                    self->unsure_why ? self->unsure_why : "");
  return EDDI_EINVAL;
}
