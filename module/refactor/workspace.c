/* workspace.c - the engine's kept index; see workspace.h. */
#include "refactor/workspace.h"

static void workspace__free(void *index) {
  ref_index_free(index);
  eddi_free(index);
}

RefIndex *ref_index_checkout(EddiEngine *engine) {
  RefIndex *index = engine->refactor_index;
  if (index) {
    engine->refactor_index = NULL;
    return index;
  }
  index = eddi_malloc(sizeof *index);
  ref_index_init(index, engine->config.max_file_bytes, engine->config.max_walk_entries);
  return index;
}

void ref_index_checkin(EddiEngine *engine, RefIndex *index) {
  if (!index) return;
  if (engine->refactor_index) engine->refactor_index_free(engine->refactor_index);
  engine->refactor_index = index;
  engine->refactor_index_free = workspace__free;
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
