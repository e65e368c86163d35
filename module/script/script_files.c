/* script_files.c - the workspace as a running script sees it.
 *
 * A script never writes while it runs: every file it reads or changes is an
 * entry here, its text in memory. The texts of the session's open
 * documents are copied in before the run (so the run can be on a worker
 * thread); other files are read from disk beneath the root descriptor and
 * decoded as the disk backend decodes them, so that the commit later sees
 * the same text. Each edit is logged, so that the elements of a set
 * computed before an edit find their place in the text after it (an
 * element stores the version of its file it was found in). */
#include "script/script_run.h"

#include <xxhash.h>

#include "core/disk_backend.h"
#include "core/walk.h"
#include "syntax/syntax.h"

void script_files_init(ScriptFiles *self, const char *root, int root_fd, size_t max_file_bytes,
                       size_t max_entries, size_t max_syntax_bytes) {
  memset(self, 0, sizeof *self);
  self->root = root;
  self->root_fd = root_fd;
  self->max_file_bytes = max_file_bytes;
  self->max_entries = max_entries;
  self->max_syntax_bytes = max_syntax_bytes;
}

/* The program goes; the index stays, so that scanning it again after the
 * script's edits analyses only the files they changed (refactor/index.h). */
static void files__drop_program(ScriptFiles *self) {
  if (self->program) ref_program_free(self->program), eddi_free(self->program);
  self->program = NULL;
  array_free(&self->index_versions);
}

static void files__drop_index(ScriptFiles *self) {
  files__drop_program(self);
  if (self->index) ref_index_free(self->index), eddi_free(self->index);
  self->index = NULL;
}

void script_files_free(ScriptFiles *self) {
  files__drop_index(self);
  for (size_t i = 0; i < self->files.len; i++) {
    ScriptFile *file = self->files.items[i];
    eddi_free(file->rel);
    eddi_free(file->original);
    eddi_strbuf_free(&file->text);
    array_free(&file->edits);
    if (file->syntax) eddi_syntax_free(file->syntax), eddi_text_free(&file->syntax_text);
    eddi_free(file);
  }
  array_free(&self->files);
  ref_map_free(&self->by_path);
  ref_open_texts_free(&self->docs);
  ref_paths_free(&self->paths);
}

int script_files_get(ScriptFiles *self, const char *rel, uint32_t *index, EddiError *err) {
  uint64_t key = XXH64(rel, strlen(rel), 0);
  uint32_t hit = ref_map_get(&self->by_path, key);
  if (hit != REF_NONE && strcmp(self->files.items[hit]->rel, rel) == 0) {
    *index = hit;
    return 0;
  }
  /* Another path with the same hash: look the slow way. */
  for (size_t i = 0; hit != REF_NONE && i < self->files.len; i++)
    if (strcmp(self->files.items[i]->rel, rel) == 0) {
      *index = (uint32_t)i;
      return 0;
    }
  ScriptFile *file = eddi_calloc(1, sizeof *file);
  file->rel = eddi_strdup(rel);
  eddi_strbuf_puts(&file->text, "");
  for (size_t i = 0; i < self->docs.len; i++)
    if (strcmp(self->docs.items[i].path, rel) == 0) {
      eddi_strbuf_append(&file->text, self->docs.items[i].text, self->docs.items[i].len);
      file->from_doc = file->exists = true;
      break;
    }
  if (!file->from_doc) {
    StrBuf raw = {0};
    EddiDiskFound found;
    EddiFileStamp stamp;
    int rc = eddi_disk_read_found_at(self->root_fd, rel, self->max_file_bytes, &raw, &found,
                                     &stamp);
    if (rc == 0) {
      EddiFileFormat format;
      rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, &file->text, err);
      file->exists = true;
    } else if (found.finding == EDDI_DISK_MISSING) {
      rc = 0;
    } else {
      rc = eddi_error_set(err, rc, "Cannot read %s", rel);
    }
    eddi_strbuf_free(&raw);
    if (rc < 0) {
      eddi_free(file->rel);
      eddi_strbuf_free(&file->text);
      eddi_free(file);
      return rc;
    }
  }
  file->original = eddi_strndup(file->text.data, file->text.len);
  file->original_len = file->text.len;
  size_t first = 0;
  while (first < file->text.len && file->text.data[first] != '\n') first++;
  file->lang = eddi_lang_detect(rel, file->text.data, first);
  if (file->lang && !file->lang->ts) file->lang = NULL;
  *index = (uint32_t)self->files.len;
  if (hit == REF_NONE) ref_map_put(&self->by_path, key, *index);
  array_push(&self->files, file);
  return 0;
}

void script_file_replace(ScriptFiles *self, ScriptFile *file, size_t start, size_t end,
                         const char *text, size_t len) {
  StrBuf next = {0};
  eddi_strbuf_append(&next, file->text.data, start);
  eddi_strbuf_append(&next, text, len);
  eddi_strbuf_append(&next, file->text.data + end, file->text.len - end);
  eddi_strbuf_puts(&next, "");
  eddi_strbuf_free(&file->text);
  file->text = next;
  ScriptEdit edit = {start, end, len};
  array_push(&file->edits, edit);
  self->edits_total++;
  self->bytes_added += sizeof edit + (len > end - start ? len - (end - start) : 0);
}

size_t script_file_map(const ScriptFile *file, uint32_t version, size_t offset) {
  for (size_t i = version; i < file->edits.len; i++) {
    const ScriptEdit *e = &file->edits.items[i];
    if (offset >= e->old_end) offset = offset - (e->old_end - e->start) + e->new_len;
    else if (offset > e->start) offset = e->start;
  }
  return EDDI_MIN(offset, file->text.len);
}

bool script_file_changed(const ScriptFile *file) {
  return file->text.len != file->original_len ||
         memcmp(file->text.data, file->original, file->original_len) != 0;
}

EddiSyntax *script_file_syntax(ScriptFiles *self, ScriptFile *file) {
  if (!file->lang || file->text.len > self->max_syntax_bytes) return NULL;
  if (file->syntax && file->syntax_version == script_file_version(file)) return file->syntax;
  if (file->syntax) eddi_syntax_free(file->syntax), eddi_text_free(&file->syntax_text);
  eddi_text_init(&file->syntax_text);
  eddi_text_set(&file->syntax_text, file->text.data, file->text.len);
  file->syntax = eddi_syntax_of_text(file->lang, &file->syntax_text);
  file->syntax_version = script_file_version(file);
  if (file->syntax && !file->syntax->tree) {
    eddi_syntax_free(file->syntax), eddi_text_free(&file->syntax_text);
    file->syntax = NULL;
  }
  return file->syntax;
}

/* ---------------------------------------------------------------- the walk */

static int files__visit(void *context, const EddiWalkEntry *entry) {
  ScriptFiles *self = context;
  if (!entry->is_dir && !entry->is_link && S_ISREG(entry->st.st_mode))
    array_push(&self->paths, eddi_strndup(entry->rel, entry->rel_len));
  return EDDI_WALK_CONTINUE;
}

int script_files_paths(ScriptFiles *self, const RefPaths **out, EddiError *err) {
  if (!self->paths_ready) {
    EddiWalkOptions options = {.max_entries = self->max_entries};
    EddiWalk *walk = eddi_walk_new(self->root, &options);
    int rc = eddi_walk_run(walk, files__visit, self);
    bool truncated = eddi_walk_truncated(walk);
    eddi_walk_free(walk);
    if (rc < 0) return eddi_error_set(err, rc, "Cannot list the workspace");
    if (truncated)
      return eddi_error_set(err, EDDI_ETOOBIG,
                            "The workspace has more than %zu entries: a script over part of it "
                            "would miss files", self->max_entries);
    self->paths_ready = true;
  }
  *out = &self->paths;
  return 0;
}

/* ---------------------------------------------------------------- resolution */

int script_files_program(ScriptFiles *self, RefIndex **index, RefProgram **program,
                         EddiError *err) {
  if (self->program && self->index_edits == self->edits_total) {
    *index = self->index, *program = self->program;
    return 0;
  }
  files__drop_program(self);
  /* The texts as they are now: the documents', with the script's changes over them. */
  RefOpenTexts open = {0};
  for (size_t i = 0; i < self->files.len; i++) {
    ScriptFile *file = self->files.items[i];
    if (!file->exists && !file->text.len) continue;
    RefOpenText text = {eddi_strdup(file->rel), eddi_strndup(file->text.data, file->text.len),
                        file->text.len};
    array_push(&open, text);
  }
  for (size_t i = 0; i < self->docs.len; i++) {
    bool have = false;
    for (size_t j = 0; j < self->files.len && !have; j++)
      have = strcmp(self->files.items[j]->rel, self->docs.items[i].path) == 0;
    if (have) continue;
    RefOpenText text = {eddi_strdup(self->docs.items[i].path),
                        eddi_strndup(self->docs.items[i].text, self->docs.items[i].len),
                        self->docs.items[i].len};
    array_push(&open, text);
  }
  if (!self->index) {
    self->index = eddi_calloc(1, sizeof *self->index);
    ref_index_init(self->index, self->max_file_bytes, self->max_entries);
  }
  self->index->deadline = self->deadline;
  int rc = ref_index_scan(self->index, self->root, &open, err);
  ref_open_texts_free(&open);
  if (rc < 0) {
    files__drop_index(self);
    return rc;
  }
  Array(RefFile *) analysed = {0};
  for (size_t i = 0; i < self->index->sources.len; i++) {
    RefSource *source = &self->index->sources.items[i];
    array_push(&analysed, source->file);
    uint32_t version = 0;
    for (size_t j = 0; j < self->files.len; j++)
      if (strcmp(self->files.items[j]->rel, source->path) == 0)
        version = script_file_version(self->files.items[j]);
    array_push(&self->index_versions, version);
  }
  self->program = eddi_calloc(1, sizeof *self->program);
  ref_program_init(self->program, &self->index->names, analysed.items, analysed.len);
  ref_index_program_roots(self->index, self->program);
  array_free(&analysed);
  self->index_edits = self->edits_total;
  *index = self->index, *program = self->program;
  return 0;
}
