/* refactor_ops_support.h - what the unit tests of the operations past
 * rename share: an index of files given as text, and a plan made over it
 * turned into the text a test compares. */
#ifndef EDDI_TEST_REFACTOR_OPS_SUPPORT_H
#define EDDI_TEST_REFACTOR_OPS_SUPPORT_H

#include "refactor_support.h"
#include "refactor/ops.h"

/* Longest answer a test compares. */
#define UNIT_OPS_ANSWER_MAX 4096

typedef struct {
  RefIndex index;
  char answer[UNIT_OPS_ANSWER_MAX];
} UnitOps;

/* An index of path, text, path, text, ..., NULL. */
static inline UnitOps *unit_ops_new(const char *path, ...) {
  UnitOps *self = calloc(1, sizeof *self);
  ref_index_init(&self->index, (size_t)1 << 24, 1000);
  va_list ap;
  va_start(ap, path);
  unit_index_add_files(&self->index, path, ap);
  va_end(ap);
  return self;
}

static inline void unit_ops_free(UnitOps *self) {
  ref_index_free(&self->index);
  free(self);
}

/* Plan kind with args: the new text of each changed file after "path:\n",
 * then, when with_unsure, the unsure references after "unsure: "; or
 * "Fail: <message>" (owned by self, until the next plan). A plan that
 * leaves unsure references is refused as the command refuses it without
 * Leave (refactor/plan.h). */
static inline const char *unit_ops_plan_listing(UnitOps *self, RefOpKind kind, const char *word,
                                                const RefOpArgs *args, bool with_unsure) {
  RefPlan plan;
  StrBuf facts = {0};
  EddiError err = {0};
  int rc = ref_op_plan(&self->index, kind, word, args, &plan, &facts, &err);
  if (rc == 0 && ref_plan_unsure_check(&plan, 0, &err) < 0) {
    ref_plan_free(&plan);
    rc = EDDI_EINVAL;
  }
  if (rc < 0) {
    snprintf(self->answer, sizeof self->answer, "Fail: %s", err.what);
    eddi_strbuf_free(&facts);
    return self->answer;
  }
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (size_t i = 0; i < plan.changes.len; i++)
    eddi_strbuf_printf(&out, "%s:\n%s",
                       self->index.sources.items[plan.changes.items[i].source].path,
                       plan.changes.items[i].after);
  if (with_unsure && plan.unsure_count) eddi_strbuf_printf(&out, "unsure: %s", plan.unsure.data);
  snprintf(self->answer, sizeof self->answer, "%s", out.data);
  eddi_strbuf_free(&out);
  eddi_strbuf_free(&facts);
  ref_plan_free(&plan);
  return self->answer;
}

static inline const char *unit_ops_plan(UnitOps *self, RefOpKind kind, const char *word,
                                        const RefOpArgs *args) {
  return unit_ops_plan_listing(self, kind, word, args, false);
}

#endif
