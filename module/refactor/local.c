/* local.c - a rename within one text, for Modify; see refactor.h. */
#include "refactor/refactor.h"

#include "refactor/rename.h"

/* The one text's index takes any size: the document is already open. */
#define LOCAL_MAX_BYTES SIZE_MAX

bool eddi_refactor_knows(const char *path, const char *text, size_t len) {
  const EddiLang *lang = eddi_lang_detect(path, text, len);
  return lang && lang->ts && lang->locals;
}

void eddi_local_rename_free(EddiLocalRename *self) {
  array_free(&self->spans);
  eddi_strbuf_free(&self->unsure);
}

int eddi_refactor_rename_local(const char *path, const char *text, size_t len, size_t offset,
                               const char *new_name, EddiLocalRename *out, EddiError *err) {
  memset(out, 0, sizeof *out);
  RefIndex index;
  ref_index_init(&index, LOCAL_MAX_BYTES, 1);
  int rc = ref_index_add(&index, path, text, len, true, err);
  if (rc == 0 && index.sources.len != 1)
    rc = eddi_error_set(err, EDDI_EINVAL, "No name resolution for %s", path);
  RefPlan plan;
  if (rc == 0) rc = ref_rename_plan_at(&index, 0, (uint32_t)offset, new_name, 0, &plan, err);
  if (rc == 0) {
    for (size_t c = 0; c < plan.changes.len; c++)
      for (size_t e = 0; e < plan.changes.items[c].edits.len; e++) {
        RefSpan span = plan.changes.items[c].edits.items[e];
        EddiRenameSpan out_span = {span.start, span.end};
        array_push(&out->spans, out_span);
      }
    out->unsure_count = plan.unsure_count;
    eddi_strbuf_puts(&out->unsure, plan.unsure.data ? plan.unsure.data : "");
    ref_plan_free(&plan);
  }
  ref_index_free(&index);
  return rc;
}
