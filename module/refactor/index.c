/* index.c - the workspace scan and the files' analyses; see index.h.
 *
 * The scan is a private walk for now (names starting with '.' left out,
 * symlinks not followed); it moves onto the engine's one walker, which
 * honours .gitignore, once that is in. */
#include "refactor/index.h"

#include <dirent.h>
#include <sys/stat.h>

#include "core/disk_backend.h"
#include "core/path.h"

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
  const char *root;
  const RefOpenTexts *open;
  size_t entries;
  bool truncated;
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

static int index__file(IndexScan *self, const char *rel, const char *abs, EddiError *err) {
  const RefOpenText *open = index__open(self, rel);
  if (open) return ref_index_add(self->index, rel, open->text, open->len, true, err);
  StrBuf raw = {0}, text = {0};
  bool missing = false;
  EddiError ignored = {0};
  EddiFileFormat format;
  int rc = eddi_disk_read(abs, self->index->max_file_bytes, &raw, &missing, NULL, &ignored);
  /* A file that cannot be read or decoded is no source file: left out. */
  if (rc == 0) {
    eddi_strbuf_puts(&text, "");
    rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, &text, &ignored);
  }
  if (rc == 0) rc = ref_index_add(self->index, rel, text.data, text.len, false, err);
  else rc = 0;
  eddi_strbuf_free(&raw);
  eddi_strbuf_free(&text);
  return rc;
}

static int index__by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One folder (rel "" for the root), its entries in name order. */
static int index__folder(IndexScan *self, const char *rel, EddiError *err) {
  char *abs = rel[0] ? eddi_path_join(self->root, rel) : eddi_strdup(self->root);
  DIR *dir = opendir(abs);
  if (!dir) {
    eddi_free(abs);
    return 0; /* unreadable or gone: passed over */
  }
  Array(char *) names = {0};
  for (struct dirent *entry; (entry = readdir(dir));) {
    if (entry->d_name[0] == '.') continue;
    if (++self->entries > self->index->max_entries) {
      self->truncated = true;
      break;
    }
    array_push(&names, eddi_strdup(entry->d_name));
  }
  closedir(dir);
  if (names.len) qsort(names.items, names.len, sizeof *names.items, index__by_name);
  int rc = 0;
  for (size_t i = 0; i < names.len && rc == 0 && !self->truncated; i++) {
    char *child = eddi_path_join(rel, names.items[i]);
    char *child_abs = eddi_path_join(self->root, child);
    struct stat st;
    if (lstat(child_abs, &st) == 0) {
      if (S_ISDIR(st.st_mode)) rc = index__folder(self, child, err);
      else if (S_ISREG(st.st_mode) && index__wanted(names.items[i]))
        rc = index__file(self, child, child_abs, err);
    }
    eddi_free(child);
    eddi_free(child_abs);
  }
  for (size_t i = 0; i < names.len; i++) eddi_free(names.items[i]);
  array_free(&names);
  eddi_free(abs);
  return rc;
}

int ref_index_scan(RefIndex *self, const char *root, const RefOpenTexts *open, EddiError *err) {
  eddi_free(self->root);
  self->root = eddi_strdup(root);
  IndexScan scan = {self, root, open, 0, false};
  int rc = index__folder(&scan, "", err);
  /* Open documents that are not on disk yet belong to the workspace too. */
  for (size_t i = 0; rc == 0 && i < open->len; i++)
    if (!ref_index_source(self, open->items[i].path))
      rc = ref_index_add(self, open->items[i].path, open->items[i].text, open->items[i].len, true,
                         err);
  if (rc == 0 && scan.truncated)
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

static int index__others(RefIndex *self, const char *rel, size_t *entries, RefPaths *out,
                         EddiError *err) {
  char *abs = eddi_path_join(self->root, rel);
  DIR *dir = opendir(abs);
  eddi_free(abs);
  if (!dir) return 0;
  RefPaths names = {0};
  for (struct dirent *entry; (entry = readdir(dir));) {
    if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
    array_push(&names, eddi_strdup(entry->d_name));
  }
  closedir(dir);
  int rc = 0;
  for (size_t i = 0; i < names.len && rc == 0; i++) {
    if (++*entries > self->max_entries) {
      rc = eddi_error_set(err, EDDI_ETOOBIG, "%s has more than %zu entries", rel, self->max_entries);
      break;
    }
    char *child = eddi_path_join(rel, names.items[i]);
    char *child_abs = eddi_path_join(self->root, child);
    struct stat st;
    if (lstat(child_abs, &st) == 0) {
      if (S_ISDIR(st.st_mode)) rc = index__others(self, child, entries, out, err);
      else if (!ref_index_source(self, child)) array_push(out, eddi_strdup(child));
    }
    eddi_free(child);
    eddi_free(child_abs);
  }
  ref_paths_free(&names);
  return rc;
}

int ref_index_other_files(RefIndex *self, const char *dir, RefPaths *out, EddiError *err) {
  size_t entries = 0;
  return self->root ? index__others(self, dir, &entries, out, err) : 0;
}
