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
 * over part of a workspace could leave the rest stale.
 *
 * An index is kept between commands (a workspace holds one in a slot,
 * kept_index.h) and scanned again before each: a file whose stat is
 * unchanged keeps its text and its analysis, an open document whose text
 * is unchanged keeps its analysis, everything else is read and analysed
 * again, so the index follows both the documents and the disk.
 *
 * The scan also reads the Python projects' configuration files
 * (pyproject.toml, setup.cfg, setup.py, pytest.ini, tox.ini) for the
 * folders their imports are found in (py_roots.h); one it cannot read
 * fails the scan of a workspace with Python files, since a rename could
 * miss the imports from those folders.
 *
 * A scan may be told the words a refactoring is about (a rename: the old
 * and the new name). Only files that can matter are then analysed: those
 * whose text or path holds a word, those their imports may reach (every
 * file whose path has a part an import names, to a fixpoint), and every
 * package's own module file. A reference spells the name it refers to,
 * and every link between files that resolution follows is an import, so
 * what is left out can neither hold a reference nor change what one
 * refers to. This holds for languages whose modules are "packages"
 * (language.conf); files of other languages are always analysed. The
 * files analysed are a superset of that: analyses kept from earlier scans
 * stay in.
 *
 * Analyses run on several threads when there are many (names are interned
 * under a lock for that time).
 *
 * A source that holds one of the scan's words keeps its syntax tree, so
 * that an edit of it (a rename's new text, checked before it is written)
 * is parsed again only where it changed: the old tree, edited with
 * ts_tree_edit, is where the new parse starts (RefAnalysis.base). The
 * analysis is still made whole from the new tree; what is saved is the
 * parse. Only those sources keep one: a tree takes about 35 times its
 * text's bytes (pygments' 4 MB: 145 MB of trees), and the files a rename
 * changes all hold its old name. A scan for other words, or for none,
 * drops the trees of the files that hold none of them.
 *
 * A scan that finds every source as it was leaves the generation as it
 * was, so that a rename planned by a Preview is the Refactor's plan too,
 * without its differential check made again (rename.h). */
#ifndef EDDI_REFACTOR_INDEX_H
#define EDDI_REFACTOR_INDEX_H

#include <sys/stat.h>

#include "refactor/py_roots.h"
#include "refactor/resolve.h"
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
  struct stat seen; /* what the scan saw on disk (zero for an open document) */
  TSTree *tree;     /* text's syntax tree, with file (owned; NULL without one) */
} RefSource;

typedef Array(char *) RefPaths;

typedef struct {
  char *root; /* set by the scan */
  RefNames names;
  Array(RefSource) sources; /* analysed, in the walk's order */
  Array(RefSource) held;    /* read but not analysed (file NULL): kept for the next scan */
  /* Python's import roots besides the workspace root (py_roots.h), read
   * from the project files the scan meets. */
  RefPyRoots roots;
  size_t max_file_bytes;
  size_t max_entries;
  /* Moves on with every scan or add that changes a source's text or an
   * analysis: what was planned from the index at one generation holds
   * while it stays the same. */
  uint64_t generation;
  /* The last rename planned, for a Refactor that follows its Preview
   * (rename.h, ref_rename_plan_kept); freed with the index. */
  void *kept_plan;
  void (*kept_plan_free)(void *plan);
  /* When a scan gives up (CLOCK_MONOTONIC; EDDI_ETOOBIG, the index left
   * empty), or NULL: never. A script's time budget (script_files.c). */
  const struct timespec *deadline;
} RefIndex;

void ref_index_init(RefIndex *self, size_t max_file_bytes, size_t max_entries);
/* Give program (made over self's sources) the import roots of the scan. */
void ref_index_program_roots(const RefIndex *self, RefProgram *program);
void ref_index_free(RefIndex *self);
/* Find, read and analyse every source file under root (canonical,
 * absolute), taking open files' texts from open. */
int ref_index_scan(RefIndex *self, const char *root, const RefOpenTexts *open, EddiError *err);
/* The same, analysing only what can matter to words[0, count) (see above);
 * count 0 analyses every file. */
int ref_index_scan_for(RefIndex *self, const char *root, const RefOpenTexts *open,
                       const char *const *words, size_t count, EddiError *err);
/* Analyse texts[i] (lang[i], path[i]) into out[i] for i < count, on
 * several threads when count is large; names go into self's. base (may be
 * NULL, borrowed) is an earlier tree edited to text (scope.h); with keep,
 * tree receives the new one, which the caller owns. */
typedef struct {
  const char *path;
  const EddiLang *lang;
  const char *text;
  size_t len;
  RefFile *out;
  TSTree *base;
  bool keep;
  TSTree *tree;
} RefAnalysis;
int ref_index_analyze_all(RefIndex *self, RefAnalysis *items, size_t count, EddiError *err);
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
