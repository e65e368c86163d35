/* session.c - sessions keyed by sender; see session.h. */
#include "workspace/session.h"

#include <ctype.h>

#include "core/path.h"
#include "syntax/outline.h"

bool eddi_session_name_valid(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || len > EDDI_SESSION_NAME_MAX) return false;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (!isalnum(c) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

EddiSession *eddi_sessions_by_sender(const EddiSessionManager *self, const char *sender) {
  for (size_t i = 0; i < self->sessions.len; i++)
    if (strcmp(self->sessions.items[i]->sender, sender) == 0) return self->sessions.items[i];
  return NULL;
}

EddiSession *eddi_sessions_by_name(const EddiSessionManager *self, const char *name) {
  for (size_t i = 0; i < self->sessions.len; i++)
    if (strcmp(self->sessions.items[i]->name, name) == 0) return self->sessions.items[i];
  return NULL;
}

EddiSession *eddi_sessions_start(EddiSessionManager *self, const char *name,
                                 const char *description, const char *sender) {
  EddiSession *session = eddi_calloc(1, sizeof *session);
  session->name = eddi_strdup(name);
  session->description = eddi_strdup(description ? description : "");
  session->sender = eddi_strdup(sender);
  array_push(&self->sessions, session);
  return session;
}

static void session__free(EddiSession *self) {
  eddi_slots_free(&self->slots);
  for (size_t i = 0; i < self->docs.len; i++) eddi_doc_free(self->docs.items[i]);
  array_free(&self->docs);
  for (size_t i = 0; i < self->changes.len; i++) {
    eddi_free(self->changes.items[i].path);
    eddi_outline_free(self->changes.items[i].before);
  }
  array_free(&self->changes);
  eddi_free(self->name);
  eddi_free(self->description);
  eddi_free(self->sender);
  eddi_free(self->resumed);
  eddi_free(self->taken_from);
  eddi_free(self);
}

void eddi_sessions_end(EddiSessionManager *self, EddiSession *session) {
  for (size_t i = 0; i < self->sessions.len; i++) {
    if (self->sessions.items[i] != session) continue;
    array_remove(&self->sessions, i);
    break;
  }
  session__free(session);
}

void eddi_sessions_free(EddiSessionManager *self) {
  for (size_t i = 0; i < self->sessions.len; i++) session__free(self->sessions.items[i]);
  array_free(&self->sessions);
}

EddiDoc *eddi_session_find_doc(EddiSession *self, const char *path, bool *ambiguous) {
  *ambiguous = false;
  for (size_t i = 0; i < self->docs.len; i++)
    if (strcmp(self->docs.items[i]->path, path) == 0) return self->docs.items[i];
  EddiDoc *found = NULL;
  for (size_t i = 0; i < self->docs.len; i++) {
    if (strcmp(eddi_path_basename(self->docs.items[i]->path), path) != 0) continue;
    if (found) {
      *ambiguous = true;
      return NULL;
    }
    found = self->docs.items[i];
  }
  return found;
}

void eddi_session_add_doc(EddiSession *self, EddiDoc *doc) { array_push(&self->docs, doc); }

void eddi_session_close_doc(EddiSession *self, EddiDoc *doc) {
  eddi_slots_forget_doc(&self->slots, doc);
  for (size_t i = 0; i < self->docs.len; i++) {
    if (self->docs.items[i] != doc) continue;
    array_remove(&self->docs, i);
    break;
  }
  if (self->current == doc) self->current = self->docs.len ? *array_back(&self->docs) : NULL;
  eddi_doc_free(doc);
}

const FileChanges *eddi_session_saved(const EddiSession *self, const char *path) {
  for (size_t i = 0; i < self->changes.len; i++)
    if (strcmp(self->changes.items[i].path, path) == 0) return &self->changes.items[i];
  return NULL;
}

void eddi_session_record_save(EddiSession *self, const char *path, bool created,
                              size_t added, size_t deleted, struct EddiOutline *before) {
  FileChanges *entry = (FileChanges *)eddi_session_saved(self, path);
  if (!entry) {
    FileChanges fresh = {.path = eddi_strdup(path)};
    array_push(&self->changes, fresh);
    entry = array_back(&self->changes);
  }
  entry->created |= created;
  entry->added += added;
  entry->deleted += deleted;
  if (!entry->before) entry->before = before, before = NULL;
  eddi_outline_free(before);
}

void *eddi_session_slot(const EddiSession *self, const EddiSlotType *type) {
  return eddi_slots_get(&self->slots, type);
}

void eddi_session_set_slot(EddiSession *self, const EddiSlotType *type, void *data) {
  eddi_slots_set(&self->slots, type, data);
}
