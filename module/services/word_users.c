/* word_users.c - the files that name a word (word_users.h). */
#include "services/word_users.h"

#include <stdio.h>

#include "core/walk.h"
#include "lsp/lsp_servers.h"
#include "refactor/scope.h"

typedef struct {
  const EddiWordUsersQuery *query;
  EddiWordUsers *out;
} WordUsersWalk;

static bool word_users__names(const EddiWordUsersQuery *query, const char *text, size_t len) {
  for (size_t i = 0; i < query->word_count; i++)
    if (ref_text_word(text, len, 0, (uint32_t)len, query->words[i]) != UINT32_MAX) return true;
  return false;
}

static int word_users__visit(void *context, const EddiWalkEntry *entry) {
  WordUsersWalk *self = context;
  if (entry->is_dir || entry->is_link) return EDDI_WALK_CONTINUE;
  if (self->out->len >= EDDI_LSP_USERS_MAX) return EDDI_WALK_STOP;
  const EddiLang *lang = eddi_lang_detect(entry->rel, NULL, 0);
  if (!lang || !self->query->wanted(self->query->context, entry->rel, lang)) return EDDI_WALK_CONTINUE;
  FILE *f = fopen(entry->abs, "rb");
  if (!f) return EDDI_WALK_CONTINUE;
  char *text = eddi_malloc(EDDI_WORD_USER_BYTES_MAX + 1);
  size_t len = fread(text, 1, EDDI_WORD_USER_BYTES_MAX + 1, f);
  fclose(f);
  if (len <= EDDI_WORD_USER_BYTES_MAX && word_users__names(self->query, text, len)) {
    EddiWordUser user = {eddi_strdup(entry->abs), eddi_strdup(entry->rel), lang, text, len};
    array_push(self->out, user);
  } else {
    eddi_free(text);
  }
  return EDDI_WALK_CONTINUE;
}

void eddi_word_users_find(const EddiWordUsersQuery *query, EddiWordUsers *out) {
  if (!query->word_count || out->len >= EDDI_LSP_USERS_MAX) return;
  WordUsersWalk walk_state = {query, out};
  EddiWalkOptions options = {.max_entries = EDDI_WALK_ENTRIES_ALL, .types_only = true};
  EddiWalk *walk = eddi_walk_new(query->root, &options);
  eddi_walk_run(walk, word_users__visit, &walk_state);
  eddi_walk_free(walk);
}

void eddi_word_users_free(EddiWordUsers *self) {
  for (size_t i = 0; i < self->len; i++) {
    eddi_free(self->items[i].abs), eddi_free(self->items[i].rel);
    eddi_free(self->items[i].text);
  }
  array_free(self);
}
