/* kept_index.c - the workspace's kept index; see kept_index.h. */
#include "refactor/kept_index.h"

static void kept_index__free(void *index) {
  ref_index_free(index);
  eddi_free(index);
}

static const EddiSlotType kept_index_slot = {"refactoring index", kept_index__free, NULL};

RefIndex *ref_index_checkout(EddiWorkspace *workspace) {
  RefIndex *index = eddi_workspace_take_slot(workspace, &kept_index_slot);
  if (index) return index;
  index = eddi_malloc(sizeof *index);
  const EddiConfig *config = eddi_workspace_config(workspace);
  ref_index_init(index, config->max_file_bytes, config->max_walk_entries);
  return index;
}

void ref_index_checkin(EddiWorkspace *workspace, RefIndex *index) {
  if (index) eddi_workspace_set_slot(workspace, &kept_index_slot, index);
}

void ref_rename_scan_words(const char *spec, const char *new_name, RefScanWords *out) {
  const char *last = spec;
  for (const char *p = spec; *p; p++)
    if (*p == '.' || *p == ':') last = p + 1;
  if (!*last || (*last >= '0' && *last <= '9')) return;
  array_push(out, eddi_strdup(last));
  array_push(out, eddi_strdup(new_name));
  const char *dot = strchr(spec, '.');
  if (!strchr(spec, ':') && dot && dot != spec)
    array_push(out, eddi_strndup(spec, (size_t)(dot - spec)));
}

void ref_scan_words_free(RefScanWords *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i]);
  array_free(self);
}
