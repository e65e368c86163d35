/* index.c - the workspace scan and the files' analyses; see index.h.
 *
 * The scan is the engine's one walk (core/walk.h), so that a refactoring
 * sees the files List and Grep see: ignored and hidden entries left out,
 * symlinks reported but not entered. */
#include "refactor/index.h"

#include <sys/stat.h>

#include "core/disk_backend.h"
#include "core/walk.h"

void ref_index_init(RefIndex *self, size_t max_file_bytes, size_t max_entries) {
  memset(self, 0, sizeof *self);
  ref_names_init(&self->names);
  self->max_file_bytes = max_file_bytes;
  self->max_entries = max_entries;
}

void ref_index_free(RefIndex *self) {
  eddi_free(self->root);
  for (size_t i = 0; i < self->sources.len; i++) {
    RefSource *source = &self->sources.items[i];
    eddi_free(source->path);
    eddi_free(source->text);
    ref_file_free(source->file);
  }
  array_free(&self->sources);
  ref_names_free(&self->names);
}

void ref_open_texts_free(RefOpenTexts *self) {
  for (size_t i = 0; i < self->len; i++) {
    eddi_free(self->items[i].path);
    eddi_free(self->items[i].text);
  }
  array_free(self);
}

RefSource *ref_index_source(RefIndex *self, const char *path) {
  for (size_t i = 0; i < self->sources.len; i++)
    if (strcmp(self->sources.items[i].path, path) == 0) return &self->sources.items[i];
  return NULL;
}

int ref_index_add(RefIndex *self, const char *path, const char *text, size_t len, bool open,
                  EddiError *err) {
  const EddiLang *lang = eddi_lang_detect(path, text, len);
  if (!lang || !lang->ts || !lang->locals) return 0;
  RefFile *file;
  int rc = ref_file_analyze(path, lang, text, len, &self->names, &file, err);
  if (rc < 0) return rc;
  RefSource source = {eddi_strdup(path), lang, eddi_strndup(text, len), len, open, file};
  array_push(&self->sources, source);
  return 0;
}

/* ---------------------------------------------------------------- the scan */

typedef struct {
  RefIndex *index;
  const RefOpenTexts *open;
  EddiError *err;
} IndexScan;

static const RefOpenText *index__open(const IndexScan *self, const char *rel) {
  for (size_t i = 0; i < self->open->len; i++)
    if (strcmp(self->open->items[i].path, rel) == 0) return &self->open->items[i];
  return NULL;
}

/* Whether a file name has the extension of a language that has a locals
 * query (files without one are not read at all). */
static bool index__wanted(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name) return false;
  size_t count;
  const EddiLang *all = eddi_lang_all(&count);
  for (size_t i = 0; i < count; i++) {
    if (!all[i].locals) continue;
    for (size_t k = 0; k < EDDI_LANG_LIST_MAX && all[i].extensions[k]; k++)
      if (strcmp(all[i].extensions[k], dot) == 0) return true;
  }
  return false;
}

static int index__file(void *context, const EddiWalkEntry *entry) {
  IndexScan *self = context;
  if (entry->is_dir || entry->is_link || !S_ISREG(entry->st.st_mode) || !index__wanted(entry->name))
    return EDDI_WALK_CONTINUE;
  const RefOpenText *open = index__open(self, entry->rel);
  if (open) return ref_index_add(self->index, entry->rel, open->text, open->len, true, self->err);
  StrBuf raw = {0}, text = {0};
  bool missing = false;
  EddiError ignored = {0};
  EddiFileFormat format;
  int rc = eddi_disk_read(entry->abs, self->index->max_file_bytes, &raw, &missing, NULL, &ignored);
  /* A file that cannot be read or decoded is no source file: left out. */
  if (rc == 0) {
    eddi_strbuf_puts(&text, "");
    rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, &text, &ignored);
  }
  if (rc == 0) rc = ref_index_add(self->index, entry->rel, text.data, text.len, false, self->err);
  else rc = 0;
  eddi_strbuf_free(&raw);
  eddi_strbuf_free(&text);
  return rc;
}

int ref_index_scan(RefIndex *self, const char *root, const RefOpenTexts *open, EddiError *err) {
  eddi_free(self->root);
  self->root = eddi_strdup(root);
  IndexScan scan = {self, open, err};
  EddiWalk *walk = eddi_walk_new(root, &(EddiWalkOptions){.max_entries = self->max_entries});
  int rc = eddi_walk_run(walk, index__file, &scan);
  bool truncated = eddi_walk_truncated(walk);
  eddi_walk_free(walk);
  /* Open documents that are not on disk yet belong to the workspace too. */
  for (size_t i = 0; rc == 0 && i < open->len; i++)
    if (!ref_index_source(self, open->items[i].path))
      rc = ref_index_add(self, open->items[i].path, open->items[i].text, open->items[i].len, true,
                         err);
  if (rc == 0 && truncated)
    rc = eddi_error_set(err, EDDI_ETOOBIG,
                        "The workspace has more than %zu entries: a refactoring would miss files",
                        self->max_entries);
  return rc;
}

/* ---------------------------------------------------------------- other files */

void ref_paths_free(RefPaths *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i]);
  array_free(self);
}

typedef struct {
  RefIndex *index;
  const char *dir;
  size_t dir_len;
  RefPaths *out;
} IndexOthers;

static int index__other(void *context, const EddiWalkEntry *entry) {
  IndexOthers *self = context;
  bool below = entry->rel_len > self->dir_len &&
               memcmp(entry->rel, self->dir, self->dir_len) == 0 &&
               entry->rel[self->dir_len] == '/';
  bool above = self->dir_len > entry->rel_len &&
               memcmp(entry->rel, self->dir, entry->rel_len) == 0 &&
               self->dir[entry->rel_len] == '/';
  if (entry->is_dir) return below || above ? EDDI_WALK_CONTINUE : EDDI_WALK_SKIP;
  if (below && !ref_index_source(self->index, entry->rel))
    array_push(self->out, eddi_strdup(entry->rel));
  return EDDI_WALK_CONTINUE;
}

int ref_index_other_files(RefIndex *self, const char *dir, RefPaths *out, EddiError *err) {
  if (!self->root) return 0;
  IndexOthers others = {self, dir, strlen(dir), out};
  EddiWalkOptions options = {.max_entries = self->max_entries, .hidden = true, .no_ignore = true};
  EddiWalk *walk = eddi_walk_new(self->root, &options);
  int rc = eddi_walk_run(walk, index__other, &others);
  if (rc == 0 && eddi_walk_truncated(walk))
    rc = eddi_error_set(err, EDDI_ETOOBIG, "%s has more than %zu entries", dir, self->max_entries);
  eddi_walk_free(walk);
  return rc;
}
