/* index.h - the workspace as refactoring sees it: every source file of a
 * language with a locals query, its text and its analysis.
 *
 * The index is plain data with no tie to the engine: the texts of the
 * documents a session has open are copied in on the owner thread
 * (RefOpenText), and the scan, the reads and the analyses run wherever the
 * caller runs it (a job's worker thread). Files open in the session are
 * read from the copies, so a refactoring sees unsaved edits; the others are
 * read from disk and decoded as the disk backend decodes them (BOM, CRLF),
 * so that what a transaction later loads is the same text.
 *
 * The scan is the engine's walk (core/walk.h: .gitignore and .ignore rules,
 * hidden entries left out); a file is left out too when it is larger than
 * max_file_bytes or is not valid text. A scan that meets more than
 * max_entries directory entries fails and says so, since a refactoring
 * over part of a workspace could leave the rest stale. */
#ifndef EDDI_REFACTOR_INDEX_H
#define EDDI_REFACTOR_INDEX_H

#include "refactor/scope.h"

/* A document's text, copied from the session. */
typedef struct {
  char *path; /* workspace path */
  char *text;
  size_t len;
} RefOpenText;

typedef Array(RefOpenText) RefOpenTexts;

typedef struct {
  char *path; /* workspace path */
  const EddiLang *lang;
  char *text;
  size_t len;
  bool open; /* from a session's document */
  RefFile *file;
} RefSource;

typedef Array(char *) RefPaths;

typedef struct {
  char *root; /* set by the scan */
  RefNames names;
  Array(RefSource) sources; /* by path */
  size_t max_file_bytes;
  size_t max_entries;
} RefIndex;

void ref_index_init(RefIndex *self, size_t max_file_bytes, size_t max_entries);
void ref_index_free(RefIndex *self);
/* Find, read and analyse every source file under root (canonical,
 * absolute), taking open files' texts from open. */
int ref_index_scan(RefIndex *self, const char *root, const RefOpenTexts *open, EddiError *err);
/* Add one file's text (copied) and analyse it; used by the scan and by
 * tests. A file whose language has no locals query is not added. */
int ref_index_add(RefIndex *self, const char *path, const char *text, size_t len, bool open,
                  EddiError *err);
/* Every regular file below folder dir (a workspace path) that is not a
 * source of the index, hidden ones too, appended to out (new strings):
 * what moving the folder moves besides its sources. */
int ref_index_other_files(RefIndex *self, const char *dir, RefPaths *out, EddiError *err);
void ref_paths_free(RefPaths *self);
/* The source of path, or NULL. */
RefSource *ref_index_source(RefIndex *self, const char *path);

void ref_open_texts_free(RefOpenTexts *self);

#endif
