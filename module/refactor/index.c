/* index.c - the workspace scan and the files' analyses; see index.h.
 *
 * The scan is the engine's one walk (core/walk.h), so that a refactoring
 * sees the files List and Grep see: ignored and hidden entries left out,
 * symlinks reported but not entered.
 *
 * A scan builds the new list of entries from the old ones: an entry whose
 * file is unchanged moves over with its text and analysis; the rest is
 * read again. Then it analyses what the words call for, in rounds: the
 * files that hold a word first, then the files the analysed files'
 * imports may name, until a round adds none; the entries with an analysis
 * become the sources, the rest is held for the next scan. */
#define _GNU_SOURCE /* memmem, memrchr */
#include "refactor/index.h"

#include <stdlib.h>
#include <unistd.h>

#include "core/disk_backend.h"
#include "core/walk.h"

/* Analyses run on at most this many threads, and on one when there are
 * fewer than EDDI_REF_PARALLEL_MIN files to analyse (starting threads
 * costs more than a few small files take). */
#define REF_ANALYZE_THREADS_MAX 8
#define REF_PARALLEL_MIN        4

void ref_index_init(RefIndex *self, size_t max_file_bytes, size_t max_entries) {
  memset(self, 0, sizeof *self);
  ref_names_init(&self->names);
  self->max_file_bytes = max_file_bytes;
  self->max_entries = max_entries;
}

static void index__source_free(RefSource *source) {
  eddi_free(source->path);
  eddi_free(source->text);
  ref_file_free(source->file);
  if (source->tree) ts_tree_delete(source->tree);
}

void ref_index_free(RefIndex *self) {
  if (self->kept_plan) self->kept_plan_free(self->kept_plan);
  eddi_free(self->root);
  for (size_t i = 0; i < self->sources.len; i++) index__source_free(&self->sources.items[i]);
  for (size_t i = 0; i < self->held.len; i++) index__source_free(&self->held.items[i]);
  array_free(&self->sources);
  array_free(&self->held);
  ref_py_roots_free(&self->roots);
  ref_names_free(&self->names);
}

void ref_index_program_roots(const RefIndex *self, RefProgram *program) {
  ref_program_roots(program, self->roots.dirs.items, self->roots.dirs.len);
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
  TSTree *tree;
  RefFileText analysed = {.path = path, .lang = lang, .text = text, .len = len};
  int rc = ref_file_analyze_tree(&analysed, &self->names, &file, &tree, err);
  if (rc < 0) return rc;
  RefSource source = {eddi_strdup(path), lang, eddi_strndup(text, len), len, open, file, {0}, tree};
  array_push(&self->sources, source);
  self->generation++;
  return 0;
}

/* ---------------------------------------------------------------- analysing on threads */

/* Whether self's deadline has passed: a scan reads and analyses each file
 * only while it has not. */
static bool index__past_deadline(const RefIndex *self) {
  if (!self->deadline) return false;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > self->deadline->tv_sec ||
         (now.tv_sec == self->deadline->tv_sec && now.tv_nsec > self->deadline->tv_nsec);
}

static int index__out_of_time(EddiError *err) {
  return eddi_error_set(err, EDDI_ETOOBIG, "Out of time reading the workspace's names");
}

typedef struct {
  RefIndex *index;
  RefAnalysis *items;
  size_t count;
  size_t next; /* the next item to take (atomic) */
  int rc;      /* the first failure (under lock) */
  EddiError err;
  pthread_mutex_t lock;
  EddiWork *work; /* the job's (common.h), for every thread */
} IndexAnalyses;

static void *index__analyze_thread(void *context) {
  IndexAnalyses *self = context;
  eddi_work_attach(self->work);
  for (;;) {
    size_t i = __atomic_fetch_add(&self->next, 1, __ATOMIC_RELAXED);
    if (i >= self->count) break;
    RefAnalysis *item = &self->items[i];
    EddiError err = {0};
    /* A cancel fails the scan as running out of time does: the files not
     * analysed stay held, and the index stays whole. */
    bool cancelled = eddi_work_stopping();
    if (cancelled || index__past_deadline(self->index)) {
      pthread_mutex_lock(&self->lock);
      if (self->rc == 0)
        self->rc = cancelled ? eddi_error_set(&self->err, EDDI_ESTATE,
                                              "Cancelled reading the workspace's names")
                             : index__out_of_time(&self->err);
      pthread_mutex_unlock(&self->lock);
      break;
    }
    RefFileText source = {.path = item->path, .lang = item->lang, .text = item->text,
                          .len = item->len, .base = item->base};
    int rc = ref_file_analyze_tree(&source, &self->index->names, &item->out,
                                   item->keep ? &item->tree : NULL, &err);
    eddi_work_done("files analysed", 1);
    if (rc < 0) {
      item->out = NULL;
      item->tree = NULL;
      pthread_mutex_lock(&self->lock);
      if (self->rc == 0) self->rc = rc, self->err = err;
      pthread_mutex_unlock(&self->lock);
    }
  }
  return NULL;
}

static size_t index__thread_count(size_t work) {
  if (work < REF_PARALLEL_MIN) return 1;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t n = cores > 0 ? (size_t)cores : 1;
  return EDDI_MIN(EDDI_MIN(n, (size_t)REF_ANALYZE_THREADS_MAX), work);
}

int ref_index_analyze_all(RefIndex *self, RefAnalysis *items, size_t count, EddiError *err) {
  IndexAnalyses run = {.index = self, .items = items, .count = count,
                       .work = eddi_work_current()};
  pthread_mutex_init(&run.lock, NULL);
  pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
  size_t threads = index__thread_count(count);
  pthread_t ids[REF_ANALYZE_THREADS_MAX];
  size_t started = 0;
  if (threads > 1) {
    self->names.lock = &names_lock;
    /* This thread is one of them; a thread that fails to start leaves its
     * share to the others. */
    for (size_t t = 1; t < threads; t++)
      if (pthread_create(&ids[started], NULL, index__analyze_thread, &run) == 0) started++;
  }
  index__analyze_thread(&run);
  for (size_t t = 0; t < started; t++) pthread_join(ids[t], NULL);
  self->names.lock = NULL;
  pthread_mutex_destroy(&names_lock);
  pthread_mutex_destroy(&run.lock);
  if (run.rc < 0) {
    for (size_t i = 0; i < count; i++) {
      ref_file_free(items[i].out), items[i].out = NULL;
      if (items[i].tree) ts_tree_delete(items[i].tree), items[i].tree = NULL;
    }
    *err = run.err;
  }
  return run.rc;
}

/* ---------------------------------------------------------------- the scan */

typedef struct {
  RefIndex *index;
  const RefOpenTexts *open;
  /* The old lists, sorted by path, to take unchanged entries from. */
  RefSource *old;
  size_t old_count;
  /* Per old entry: OLD_UNTOUCHED, OLD_MOVED (the new list owns it) or
   * OLD_SPENT (its text and analysis freed; its path, which the search
   * still compares, is freed with the old list). */
  unsigned char *state;
  Array(RefSource) entries; /* the new list, in the walk's order */
  RefOpenTexts configs; /* Python project files that are no sources (py_roots.h) */
  bool changed; /* a text differs, or a file came or went (the generation moves) */
  EddiError *err;
} IndexScan;

static const RefOpenText *index__open(const IndexScan *self, const char *rel) {
  for (size_t i = 0; i < self->open->len; i++)
    if (strcmp(self->open->items[i].path, rel) == 0) return &self->open->items[i];
  return NULL;
}

/* The language of a file name that has a locals query, or NULL (files
 * without one are not read at all). */
static const EddiLang *index__language(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || dot == name) return NULL;
  const EddiLang *lang = eddi_lang_detect(name, "", 0);
  return lang && lang->ts && lang->locals ? lang : NULL;
}

static int index__by_path(const void *a, const void *b) {
  return strcmp(((const RefSource *)a)->path, ((const RefSource *)b)->path);
}

enum { OLD_UNTOUCHED, OLD_MOVED, OLD_SPENT };

/* The old entry of path not yet moved or spent, or NULL. */
static RefSource *index__find_old(IndexScan *self, const char *path) {
  if (!self->old_count) return NULL;
  RefSource key = {.path = (char *)path};
  RefSource *found = bsearch(&key, self->old, self->old_count, sizeof *self->old, index__by_path);
  return found && self->state[found - self->old] == OLD_UNTOUCHED ? found : NULL;
}

static bool index__same_stat(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
         a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
         a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static void index__keep(IndexScan *self, RefSource entry) { array_push(&self->entries, entry); }

/* The entry for rel with text (taken): the old one's analysis when its
 * text is the same. */
static void index__entry(IndexScan *self, const char *rel, const EddiLang *lang, char *text,
                         size_t len, bool open, const struct stat *seen) {
  RefSource entry = {eddi_strdup(rel), lang, text, len, open, NULL, {0}, NULL};
  if (seen) entry.seen = *seen;
  RefSource *old = index__find_old(self, rel);
  self->changed |= !old || old->len != len || memcmp(old->text, text, len) != 0;
  if (old) {
    if (old->file && old->len == len && memcmp(old->text, text, len) == 0) {
      entry.file = old->file, old->file = NULL;
      entry.tree = old->tree, old->tree = NULL;
    }
    eddi_free(old->text), old->text = NULL;
    ref_file_free(old->file), old->file = NULL;
    if (old->tree) ts_tree_delete(old->tree), old->tree = NULL;
    self->state[old - self->old] = OLD_SPENT;
  }
  index__keep(self, entry);
}

/* Keep the text of a project file (pyproject.toml, setup.cfg) for the
 * import roots: an open document's, else the disk's. One that cannot be
 * read declares nothing. */
static void index__config(IndexScan *self, const EddiWalkEntry *entry) {
  const RefOpenText *open = index__open(self, entry->rel);
  RefOpenText config = {eddi_strdup(entry->rel), NULL, 0};
  if (open) {
    config.text = eddi_strndup(open->text, open->len), config.len = open->len;
  } else if ((size_t)entry->st.st_size <= self->index->max_file_bytes) {
    StrBuf raw = {0}, text = {0};
    bool missing = false;
    EddiError ignored = {0};
    EddiFileFormat format;
    int rc = eddi_disk_read(entry->abs, self->index->max_file_bytes, &raw, &missing, NULL,
                            &ignored);
    if (rc == 0) {
      eddi_strbuf_puts(&text, "");
      rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, &text, &ignored);
    }
    eddi_strbuf_free(&raw);
    if (rc == 0) config.len = text.len, config.text = eddi_strbuf_take(&text);
    else eddi_strbuf_free(&text);
  }
  if (config.text) array_push(&self->configs, config);
  else eddi_free(config.path);
}

static int index__file(void *context, const EddiWalkEntry *entry) {
  IndexScan *self = context;
  if (entry->is_dir || entry->is_link || !S_ISREG(entry->st.st_mode)) return EDDI_WALK_CONTINUE;
  if (index__past_deadline(self->index)) return index__out_of_time(self->err);
  const EddiLang *lang = index__language(entry->name);
  if (!lang && ref_py_roots_is_config(entry->name)) {
    index__config(self, entry);
    return EDDI_WALK_CONTINUE;
  }
  if (!lang) return EDDI_WALK_CONTINUE;
  const RefOpenText *open = index__open(self, entry->rel);
  if (open) {
    index__entry(self, entry->rel, lang, eddi_strndup(open->text, open->len), open->len, true,
                 NULL);
    return EDDI_WALK_CONTINUE;
  }
  RefSource *old = index__find_old(self, entry->rel);
  if (old && !old->open && index__same_stat(&old->seen, &entry->st)) {
    self->state[old - self->old] = OLD_MOVED;
    index__keep(self, *old);
    return EDDI_WALK_CONTINUE;
  }
  if ((size_t)entry->st.st_size > self->index->max_file_bytes) return EDDI_WALK_CONTINUE;
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
  eddi_strbuf_free(&raw);
  if (rc < 0) {
    eddi_strbuf_free(&text);
    return EDDI_WALK_CONTINUE;
  }
  size_t len = text.len;
  index__entry(self, entry->rel, lang, eddi_strbuf_take(&text), len, false, &entry->st);
  return EDDI_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- import roots */

static size_t index__depth(const char *path) {
  size_t depth = 0;
  for (; *path; path++) depth += *path == '/';
  return depth;
}

static int index__by_depth(const void *a, const void *b) {
  const RefOpenText *x = a, *y = b;
  size_t dx = index__depth(x->path), dy = index__depth(y->path);
  return dx != dy ? (dx < dy ? -1 : 1) : strcmp(x->path, y->path);
}

static bool index__filterable(const EddiLang *lang);
static int index__by_string(const void *a, const void *b);

/* Add P/src for each project P (sorted) whose src/ holds a Python file in
 * a folder below it (P/src/pkg/m.py): one pass over the sources, each
 * "src" part of a path looked up among the projects. */
static void index__src_roots(const IndexScan *scan, char *const *projects, size_t count,
                             RefPyRoots *roots) {
  for (size_t i = 0; i < scan->entries.len; i++) {
    const RefSource *entry = &scan->entries.items[i];
    if (!index__filterable(entry->lang)) continue;
    const char *p = entry->path;
    for (const char *part = p; part;) {
      const char *slash = strchr(part, '/');
      bool src = slash && slash - part == 3 && memcmp(part, "src", 3) == 0;
      /* src/ must hold a folder: a further slash after src/x. */
      if (src && strchr(slash + 1, '/')) {
        size_t len = part == p ? 0 : (size_t)(part - p) - 1;
        char *project = eddi_strndup(p, len);
        if (bsearch(&project, projects, count, sizeof *projects, index__by_string))
          ref_py_roots_add(roots, p, (size_t)(slash - p));
        eddi_free(project);
      }
      part = slash ? slash + 1 : NULL;
    }
  }
}

/* The import roots of the projects the scan met: every project file's, in
 * the order of their folders' depth; then each project's src/ that holds
 * a package (the workspace root is a project too). A project file that
 * cannot be read fails the scan when the workspace has Python files. */
static int index__read_roots(RefIndex *self, IndexScan *scan, EddiError *err) {
  bool python = false;
  Array(RefOpenText) configs = {0}; /* borrowed */
  for (size_t i = 0; i < scan->configs.len; i++) array_push(&configs, scan->configs.items[i]);
  for (size_t i = 0; i < scan->entries.len; i++) {
    const RefSource *entry = &scan->entries.items[i];
    python |= index__filterable(entry->lang);
    const char *base = strrchr(entry->path, '/');
    base = base ? base + 1 : entry->path;
    if (ref_py_roots_is_config(base)) {
      RefOpenText config = {entry->path, entry->text, entry->len};
      array_push(&configs, config);
    }
  }
  if (configs.len) qsort(configs.items, configs.len, sizeof *configs.items, index__by_depth);
  RefPyRoots roots = {0};
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < configs.len; i++) {
    EddiError failed = {0};
    if (ref_py_roots_read(&roots, configs.items[i].path, configs.items[i].text,
                          configs.items[i].len, &failed) < 0 && python) {
      *err = failed;
      rc = failed.code ? failed.code : EDDI_EINVAL;
    }
  }
  /* The projects: the root and every project file's folder. */
  Array(char *) projects = {0};
  array_push(&projects, eddi_strdup(""));
  for (size_t i = 0; i < configs.len; i++) {
    const char *slash = strrchr(configs.items[i].path, '/');
    array_push(&projects, eddi_strndup(configs.items[i].path,
                                       slash ? (size_t)(slash - configs.items[i].path) : 0));
  }
  qsort(projects.items, projects.len, sizeof *projects.items, index__by_string);
  if (rc == 0) index__src_roots(scan, projects.items, projects.len, &roots);
  for (size_t i = 0; i < projects.len; i++) eddi_free(projects.items[i]);
  array_free(&projects);
  array_free(&configs);
  if (rc == 0 && !ref_py_roots_equal(&roots, &self->roots)) {
    scan->changed = true;
    ref_py_roots_free(&self->roots);
    self->roots = roots;
  } else {
    ref_py_roots_free(&roots);
  }
  return rc;
}

/* ---------------------------------------------------------------- what can matter */

/* Whether files of lang may be left out: its imports name modules by
 * dotted paths from the workspace root or a package (language.conf). */
static bool index__filterable(const EddiLang *lang) {
  return lang->modules && strcmp(lang->modules, "packages") == 0;
}

/* The module path of a file: its path without the extension. */
static size_t index__module_len(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *dot = strrchr(slash ? slash : path, '.');
  return dot && dot != (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);
}

/* Whether path is a package's own module file (__init__.py): every one is
 * analysed, since relative imports and re-exports run through them. */
static bool index__is_package_file(const RefSource *entry) {
  const char *index = entry->lang->module_index;
  if (!index) return false;
  const char *base = strrchr(entry->path, '/');
  base = base ? base + 1 : entry->path;
  size_t n = strlen(index);
  return strncmp(base, index, n) == 0 && base[n] == '.';
}

/* Whether a folder or the file's name (without extension) is word. */
static bool index__path_has_part(const char *path, const char *word, size_t n) {
  size_t module = index__module_len(path);
  for (size_t at = 0; at < module;) {
    const char *slash = memchr(path + at, '/', module - at);
    size_t end = slash ? (size_t)(slash - path) : module;
    if (end - at == n && memcmp(path + at, word, n) == 0) return true;
    at = end + 1;
  }
  return false;
}

/* Whether the entry holds one of the words, in its text or its path. */
static bool index__holds_word(const RefSource *entry, const char *const *words, size_t count) {
  for (size_t w = 0; w < count; w++) {
    size_t n = strlen(words[w]);
    if (n && (memmem(entry->text, entry->len, words[w], n) ||
              index__path_has_part(entry->path, words[w], n)))
      return true;
  }
  return false;
}

typedef Array(char *) IndexModules;

static int index__by_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder `levels` folders above the file's own, or false above the
 * root. */
static bool index__base(const char *path, uint32_t levels, StrBuf *out) {
  size_t len = 0;
  const char *slash = strrchr(path, '/');
  if (slash) len = (size_t)(slash - path);
  for (uint32_t i = 0; i < levels; i++) {
    if (len == 0) return false;
    const char *up = len ? memrchr(path, '/', len) : NULL;
    len = up ? (size_t)(up - path) : 0;
  }
  eddi_strbuf_append(out, path, len);
  return true;
}

/* Every module path an import of file may reach, as resolve.c looks them
 * up: from the root, from the file's own package and from each import
 * root for an absolute import,
 * from the package `level` up for a relative one; each prefix of the
 * dotted path, and the imported name below it. */
static void index__import_modules(const RefIndex *self, const RefFile *file, IndexModules *out) {
  for (size_t i = 0; i < file->imports.len; i++) {
    const RefImport *import = &file->imports.items[i];
    for (size_t b = 0; b < 2 + self->roots.dirs.len; b++) {
      StrBuf base = {0};
      eddi_strbuf_puts(&base, "");
      bool ok = import->level ? b == 0 && index__base(file->path, import->level - 1, &base)
                : b >= 2      ? (eddi_strbuf_puts(&base, self->roots.dirs.items[b - 2]), true)
                              : b == 0 || index__base(file->path, 0, &base);
      for (uint32_t k = 0; ok && k <= import->parts_count; k++) {
        bool last = k == import->parts_count;
        uint32_t name = last ? (import->kind == REF_IMPORT_FROM ? import->name : REF_NONE)
                             : file->parts.items[import->parts_first + k];
        if (name == REF_NONE) break;
        if (base.len) eddi_strbuf_putc(&base, '/');
        eddi_strbuf_puts(&base, ref_names_str(&self->names, name));
        array_push(out, eddi_strdup(base.data));
      }
      eddi_strbuf_free(&base);
    }
  }
}

/* Whether entry's module is one of modules (sorted). */
static bool index__reached(const RefSource *entry, const IndexModules *modules) {
  if (!modules->len) return false;
  size_t n = index__module_len(entry->path);
  char *module = eddi_strndup(entry->path, n);
  bool found = bsearch(&module, modules->items, modules->len, sizeof *modules->items,
                       index__by_string) != NULL;
  eddi_free(module);
  return found;
}

static void index__modules_free(IndexModules *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i]);
  array_free(self);
}

/* Analyse every entry without an analysis that can matter to words (all,
 * with none), in rounds until the imports reach no more files; *analysed
 * is set when any was. */
static int index__analyze_wanted(RefIndex *self, RefSource *entries, size_t len,
                                 const char *const *words, size_t count, bool *analysed,
                                 EddiError *err) {
  IndexModules reach = {0};
  for (size_t i = 0; i < len; i++)
    if (entries[i].file) index__import_modules(self, entries[i].file, &reach);
  int rc = 0;
  for (bool first = true; rc == 0; first = false) {
    if (reach.len) qsort(reach.items, reach.len, sizeof *reach.items, index__by_string);
    Array(size_t) wanted = {0};
    Array(RefAnalysis) items = {0};
    for (size_t i = 0; i < len; i++) {
      RefSource *entry = &entries[i];
      if (entry->file) continue;
      bool want = count == 0 || !index__filterable(entry->lang) ||
                  (first && (index__is_package_file(entry) ||
                             index__holds_word(entry, words, count))) ||
                  index__reached(entry, &reach);
      if (!want) continue;
      array_push(&wanted, i);
      RefAnalysis item = {entry->path, entry->lang, entry->text, entry->len, NULL, NULL,
                          count && index__holds_word(entry, words, count), NULL};
      array_push(&items, item);
    }
    bool more = wanted.len > 0;
    *analysed |= more;
    if (more) rc = ref_index_analyze_all(self, items.items, items.len, err);
    for (size_t i = 0; rc == 0 && i < wanted.len; i++) {
      entries[wanted.items[i]].file = items.items[i].out;
      entries[wanted.items[i]].tree = items.items[i].tree;
      index__import_modules(self, items.items[i].out, &reach);
    }
    array_free(&wanted);
    array_free(&items);
    if (!more) break;
  }
  index__modules_free(&reach);
  return rc;
}

int ref_index_scan_for(RefIndex *self, const char *root, const RefOpenTexts *open,
                       const char *const *words, size_t count, EddiError *err) {
  if (self->root && strcmp(self->root, root) != 0) {
    /* Another workspace: nothing carries over. */
    size_t max_file_bytes = self->max_file_bytes, max_entries = self->max_entries;
    ref_index_free(self);
    ref_index_init(self, max_file_bytes, max_entries);
  }
  eddi_free(self->root);
  self->root = eddi_strdup(root);
  IndexScan scan = {.index = self, .open = open, .err = err};
  /* The old entries, sorted by path to be found again. */
  Array(RefSource) old = {0};
  for (size_t i = 0; i < self->sources.len; i++) array_push(&old, self->sources.items[i]);
  for (size_t i = 0; i < self->held.len; i++) array_push(&old, self->held.items[i]);
  array_free(&self->sources);
  array_free(&self->held);
  if (old.len) qsort(old.items, old.len, sizeof *old.items, index__by_path);
  scan.old = old.items, scan.old_count = old.len;
  scan.state = eddi_calloc(old.len, sizeof *scan.state);
  EddiWalk *walk = eddi_walk_new(root, &(EddiWalkOptions){.max_entries = self->max_entries});
  int rc = eddi_walk_run(walk, index__file, &scan);
  bool truncated = eddi_walk_truncated(walk);
  eddi_walk_free(walk);
  /* Open documents that are not on disk yet belong to the workspace too. */
  for (size_t i = 0; i < open->len; i++) {
    const RefOpenText *doc = &open->items[i];
    bool seen = false;
    for (size_t k = 0; !seen && k < scan.entries.len; k++)
      seen = strcmp(scan.entries.items[k].path, doc->path) == 0;
    const EddiLang *lang = seen ? NULL : eddi_lang_detect(doc->path, doc->text, doc->len);
    if (lang && lang->ts && lang->locals)
      index__entry(&scan, doc->path, lang, eddi_strndup(doc->text, doc->len), doc->len, true,
                   NULL);
  }
  for (size_t i = 0; i < old.len; i++) {
    scan.changed |= scan.state[i] == OLD_UNTOUCHED; /* gone from the disk */
    if (scan.state[i] != OLD_MOVED) index__source_free(&old.items[i]);
  }
  eddi_free(scan.state);
  array_free(&old);
  if (rc == 0) rc = index__read_roots(self, &scan, err);
  ref_open_texts_free(&scan.configs);
  if (rc == 0)
    rc = index__analyze_wanted(self, scan.entries.items, scan.entries.len, words, count,
                               &scan.changed, err);
  if (scan.changed || rc < 0) self->generation++;
  /* The entries with an analysis are the sources, in the walk's order;
   * only those holding a word keep their trees (index.h). */
  for (size_t i = 0; i < scan.entries.len; i++) {
    RefSource *entry = &scan.entries.items[i];
    if (entry->tree && !(count && index__holds_word(entry, words, count)))
      ts_tree_delete(entry->tree), entry->tree = NULL;
    if (entry->file) array_push(&self->sources, *entry);
    else array_push(&self->held, *entry);
  }
  array_free(&scan.entries);
  if (rc == 0 && truncated)
    rc = eddi_error_set(err, EDDI_ETOOBIG,
                        "The workspace has more than %zu entries: a refactoring would miss files",
                        self->max_entries);
  return rc;
}

int ref_index_scan(RefIndex *self, const char *root, const RefOpenTexts *open, EddiError *err) {
  return ref_index_scan_for(self, root, open, NULL, 0, err);
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
