/* workspace.c - the root, the configuration, the state folder, the
 * sessions and the checked save; see workspace.h. */
#include "workspace/workspace.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/disk_backend.h"
#include "core/embedded_backend.h"
#include "workspace/session.h"

struct EddiWorkspace {
  EddiConfig config; /* config.state_dir: the made folder, once made */
  char *root;        /* canonical, no trailing slash */
  int root_fd;       /* O_PATH descriptor of root: every write resolves beneath it */
  char *state_dir_asked; /* EddiConfig.state_dir as given, or NULL */
  char *state_dir;       /* made on first use */
  char *lsp_commands;    /* EddiConfig.lsp_commands, copied */
  EddiSessionManager sessions;
  EddiBackendOpen embedder_open; /* eddi_workspace_set_backend's, or NULL: the disk */
  void *embedder_context;
  const EddiBackendCopies *embedder_copies; /* or NULL */
  EddiWriteHooks hooks;
  EddiSlots slots;
  bool keeps_caches;
};

void eddi_config_default(EddiConfig *config) {
  config->max_message_bytes = 1024 * 1024;
  config->max_file_bytes = 64 * 1024 * 1024;
  config->max_open_files = 256;
  config->page_size = 200;
  config->undo_groups = 10000;
  config->max_walk_entries = 100000;
  config->max_syntax_bytes = (size_t)8 << 20;
  config->state_dir = NULL;
  config->format_timeout_ms = 10000;
  config->script_max_steps = 10000000;
  config->script_max_ms = 60000;
  config->script_max_bytes = (size_t)16 << 20;
  config->search_timeout_ms = 10000;
  config->lsp_off = false;
  config->lsp_commands = NULL;
  config->lsp_deadline_ms = 20000;
  config->lsp_trust_workspace = false;
}

EddiWorkspace *eddi_workspace_new(const char *root, int root_fd, const EddiConfig *config) {
  EddiWorkspace *self = eddi_calloc(1, sizeof *self);
  self->root_fd = root_fd;
  if (config) self->config = *config;
  else eddi_config_default(&self->config);
  self->root = eddi_strdup(root);
  self->config.state_dir = NULL; /* the folder made on first use is the workspace's own */
  self->state_dir_asked = config && config->state_dir ? eddi_strdup(config->state_dir) : NULL;
  self->lsp_commands = config && config->lsp_commands ? eddi_strdup(config->lsp_commands) : NULL;
  self->config.lsp_commands = self->lsp_commands;
  return self;
}

void eddi_workspace_free(EddiWorkspace *self) {
  if (!self) return;
  eddi_sessions_free(&self->sessions);
  eddi_slots_free(&self->slots);
  eddi_free(self->root);
  close(self->root_fd);
  eddi_free(self->state_dir_asked);
  eddi_free(self->state_dir);
  eddi_free(self->lsp_commands);
  eddi_free(self);
}

const char *eddi_workspace_root(const EddiWorkspace *self) { return self->root; }

int eddi_workspace_root_fd(const EddiWorkspace *self) { return self->root_fd; }

const EddiConfig *eddi_workspace_config(const EddiWorkspace *self) { return &self->config; }

EddiSessionManager *eddi_workspace_sessions(EddiWorkspace *self) { return &self->sessions; }

void eddi_workspace_id(const EddiWorkspace *self, char out[EDDI_WORKSPACE_ID_SIZE]) {
  snprintf(out, EDDI_WORKSPACE_ID_SIZE, "%016llx",
           (unsigned long long)XXH64(self->root, strlen(self->root), 0));
}

/* ---------------------------------------------------------------- the state folder */

/* mkdir -p with mode 0700 for each folder made. */
static int workspace__make_folders(const char *path) {
  char partial[PATH_MAX];
  size_t n = strlen(path);
  if (n == 0 || n >= sizeof partial) return -1;
  memcpy(partial, path, n + 1);
  for (char *at = partial + 1; *at; at++) {
    if (*at != '/') continue;
    *at = '\0';
    if (mkdir(partial, 0700) < 0 && errno != EEXIST) return -1;
    *at = '/';
  }
  return mkdir(partial, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* Whether path and each folder above it can be changed only by this user
 * (or root), and path itself written into only by them (not even sticky): the state folder holds the journal, whose intents rename
 * files in the workspace and whose sessions are re-applied to its files,
 * and the redo logs, whose records are run; a folder another user owns,
 * or may write into (not sticky), anywhere on the way lets them put their
 * own there, or swap ours. The reason goes to error. */
static bool workspace__state_private(const char *path, char *error, size_t error_size) {
  char folder[PATH_MAX];
  snprintf(folder, sizeof folder, "%s", path);
  for (;;) {
    struct stat st;
    if (stat(folder, &st) < 0) break;
    bool owned = st.st_uid == geteuid() || st.st_uid == 0;
    /* A sticky folder (/tmp) on the way is safe: only we may rename or
     * remove our folder in it. The state folder itself is not: anyone may
     * put files in it (a journal of their own, an audit.jsonl that is a
     * link to a file of ours). */
    bool itself = strcmp(folder, path) == 0;
    bool open_to_all = (st.st_mode & S_IWOTH) && (itself || !(st.st_mode & S_ISVTX));
    if (!owned || open_to_all) {
      snprintf(error, error_size,
               "State folder %s: %s %s is %s; eddi keeps its journal there only when no other "
               "user can change it",
               path, itself ? "it" : "the folder", folder,
               !owned                           ? "owned by another user"
               : itself && (st.st_mode & S_ISVTX) ? "writable by every user (sticky, as /tmp is)"
                                                 : "writable by every user");
      return false;
    }
    char *slash = strrchr(folder, '/');
    if (!slash || slash == folder) break;
    *slash = '\0';
  }
  return true;
}

const char *eddi_workspace_state_dir(EddiWorkspace *self, char *error, size_t error_size) {
  if (self->state_dir) return self->state_dir;
  char path[PATH_MAX];
  if (self->state_dir_asked) {
    snprintf(path, sizeof path, "%s", self->state_dir_asked);
  } else {
    const char *state_home = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char id[EDDI_WORKSPACE_ID_SIZE];
    eddi_workspace_id(self, id);
    if (state_home && state_home[0] == '/')
      snprintf(path, sizeof path, "%.*s/eddi/%s", PATH_MAX / 2, state_home, id);
    else if (home && home[0] == '/')
      snprintf(path, sizeof path, "%.*s/.local/state/eddi/%s", PATH_MAX / 2, home, id);
    else
      snprintf(path, sizeof path, "/tmp/eddi-state-%ld/eddi/%s", (long)getuid(), id);
  }
  struct stat st;
  if (workspace__make_folders(path) < 0 || stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
    snprintf(error, error_size, "State folder %s: %s", path, strerror(errno));
    return NULL;
  }
  if (!workspace__state_private(path, error, error_size)) return NULL;
  self->state_dir = eddi_strdup(path);
  self->config.state_dir = self->state_dir;
  return self->state_dir;
}

/* ---------------------------------------------------------------- documents */

void eddi_workspace_set_backend(EddiWorkspace *self, EddiBackendOpen open, void *context) {
  self->embedder_open = open;
  self->embedder_context = context;
}

bool eddi_workspace_embedded(const EddiWorkspace *self) { return self->embedder_open != NULL; }

void eddi_workspace_set_backend_copies(EddiWorkspace *self, const EddiBackendCopies *copies) {
  self->embedder_copies = copies;
}

int eddi_workspace_find_copy(EddiWorkspace *self, const char *rel, const char *abs,
                             EddiBackendCopy *copy, StrBuf *text, EddiError *err) {
  (void)rel;
  *copy = (EddiBackendCopy){0};
  if (!self->embedder_open) return 0;
  return eddi_embedded_find_copy(self->embedder_copies, self->embedder_context, abs,
                                 self->config.max_file_bytes, copy, text, err);
}

typedef struct {
  const char *root;
  size_t root_len;
  EddiWorkspacePaths *out;
} WorkspaceCopies;

/* One copy's file, kept when it is beneath the root. */
static void workspace__copy(void *data, const char *abs_path) {
  WorkspaceCopies *self = data;
  if (strncmp(abs_path, self->root, self->root_len) != 0 || abs_path[self->root_len] != '/' ||
      !abs_path[self->root_len + 1])
    return;
  array_push(self->out, eddi_strdup(abs_path + self->root_len + 1));
}

int eddi_workspace_copies(EddiWorkspace *self, EddiWorkspacePaths *out, EddiError *err) {
  const EddiBackendCopies *copies = self->embedder_copies;
  if (!self->embedder_open || !copies || !copies->each) return 0;
  WorkspaceCopies found = {self->root, strlen(self->root), out};
  return copies->each(self->embedder_context, self->root, workspace__copy, &found, err);
}

void eddi_workspace_paths_free(EddiWorkspacePaths *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i]);
  array_free(self);
}

int eddi_workspace_open_backend(EddiWorkspace *self, const EddiDocRequest *request,
                                EddiBackend **backend, StrBuf *text, bool *is_new,
                                EddiError *err) {
  size_t max_bytes = self->config.max_file_bytes;
  if (!self->embedder_open)
    return eddi_disk_open(self->root_fd, request->rel, request->create, max_bytes, backend,
                          text, is_new, err);
  EddiEmbeddedOpen op = {.open = self->embedder_open, .context = self->embedder_context,
                         .abs_path = request->abs, .rel_path = request->rel,
                         .create = request->create, .max_bytes = max_bytes};
  return eddi_embedded_open(&op, backend, text, is_new, err);
}

/* ---------------------------------------------------------------- writes */

void eddi_workspace_set_hooks(EddiWorkspace *self, const EddiWriteHooks *hooks) {
  self->hooks = *hooks;
}

bool eddi_workspace_keeps_intents(const EddiWorkspace *self) {
  return self->hooks.intent_begin != NULL;
}

void eddi_workspace_note_write(EddiWorkspace *self, const char *rel, const EddiFileStamp *before,
                               const EddiFileStamp *after) {
  if (self->hooks.note_write) self->hooks.note_write(self->hooks.context, rel, before, after);
}

void eddi_workspace_note_folder(EddiWorkspace *self, const char *rel) {
  if (self->hooks.note_folder) self->hooks.note_folder(self->hooks.context, rel);
}

int eddi_workspace_intent_begin(EddiWorkspace *self, const EddiIntentFile *files, size_t count,
                                const char *session, int64_t *id, EddiError *err) {
  *id = 0;
  if (!self->hooks.intent_begin) return 0;
  return self->hooks.intent_begin(self->hooks.context, files, count, session, id, err);
}

bool eddi_workspace_intent_done(EddiWorkspace *self, int64_t id) {
  return self->hooks.intent_done && self->hooks.intent_done(self->hooks.context, id);
}

int eddi_workspace_save_doc(EddiWorkspace *self, EddiDoc *doc, size_t *bytes, EddiError *err) {
  EddiFileStamp before = {0}, after = {0};
  const EddiBackendVtable *ops = doc->backend->vtable;
  if (ops->stamp) ops->stamp(doc->backend, &before);
  /* A crash inside the save leaves a temporary file: the next start sweeps
   * the folders the journal knows. */
  eddi_workspace_note_folder(self, doc->path);
  int rc = eddi_doc_save(doc, bytes, err);
  if (rc == 0 && ops->stamp) {
    ops->stamp(doc->backend, &after);
    eddi_workspace_note_write(self, doc->path, &before, &after);
  }
  return rc;
}

/* ---------------------------------------------------------------- slots */

void eddi_workspace_set_keeps_caches(EddiWorkspace *self, bool keeps) {
  self->keeps_caches = keeps;
}

bool eddi_workspace_keeps_caches(const EddiWorkspace *self) { return self->keeps_caches; }

void *eddi_workspace_slot(const EddiWorkspace *self, const EddiSlotType *type) {
  return eddi_slots_get(&self->slots, type);
}

void eddi_workspace_set_slot(EddiWorkspace *self, const EddiSlotType *type, void *data) {
  eddi_slots_set(&self->slots, type, data);
}

void *eddi_workspace_take_slot(EddiWorkspace *self, const EddiSlotType *type) {
  return eddi_slots_take(&self->slots, type);
}
