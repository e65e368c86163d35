/* script_run.h - what a running script holds: the overlay of the
 * workspace's files, the elements of sets, the counters of the reply, and
 * the interpreter's state. Private to module/script/. */
#ifndef EDDI_SCRIPT_RUN_H
#define EDDI_SCRIPT_RUN_H

#include <time.h>

#include "refactor/index.h"
#include "refactor/resolve.h"
#include "script/script.h"
#include "script/script_state.h"

typedef Array(char *) ScriptStrings;

/* ---------------------------------------------------------------- the overlay */

/* One edit of a file's text: bytes [start, old_end) became new_len bytes. */
typedef struct {
  size_t start, old_end, new_len;
} ScriptEdit;

typedef struct {
  char *rel;
  const EddiLang *lang; /* NULL: plain text */
  bool exists;
  bool from_doc;   /* read from the session's open document (a copy) */
  char *original;  /* the text the script read */
  size_t original_len;
  StrBuf text;     /* the text now */
  Array(ScriptEdit) edits; /* edit i made version i + 1 */
  struct EddiSyntax *syntax; /* of the text at syntax_version, or NULL */
  uint32_t syntax_version;
  EddiText syntax_text;
} ScriptFile;

static inline uint32_t script_file_version(const ScriptFile *self) {
  return (uint32_t)self->edits.len;
}

typedef struct {
  const char *root; /* borrowed: the workspace's canonical root */
  int root_fd;
  size_t max_file_bytes, max_entries, max_syntax_bytes;
  RefOpenTexts docs; /* copies of the open documents' texts */
  Array(ScriptFile *) files;
  RefMap by_path; /* xxh64 of a path -> its index in files (checked, as hashes collide) */
  RefPaths paths; /* every file the workspace walk sees, made on first use */
  bool paths_ready;
  /* Name resolution over the texts as they are now, made when a query
   * needs it and again after edits. */
  RefIndex *index;
  RefProgram *program;
  Array(uint32_t) index_versions; /* per source: its file's version when indexed */
  size_t index_edits;             /* edits made when the index was made */
  size_t edits_total;
  size_t bytes_added; /* what edits added to the texts, and their records */
  const struct timespec *deadline; /* the run's (borrowed): the index's scan stops there */
} ScriptFiles;

void script_files_init(ScriptFiles *self, const char *root, int root_fd, size_t max_file_bytes,
                       size_t max_entries, size_t max_syntax_bytes);
void script_files_free(ScriptFiles *self);
/* The overlay's entry for a workspace path, read on first use. */
int script_files_get(ScriptFiles *self, const char *rel, uint32_t *index, EddiError *err);
/* Replace bytes [start, end) of file with text. */
void script_file_replace(ScriptFiles *self, ScriptFile *file, size_t start, size_t end,
                         const char *text, size_t len);
/* An offset of file at version, where it is now (an offset inside a later
 * edit goes to the edit's start). */
size_t script_file_map(const ScriptFile *file, uint32_t version, size_t offset);
/* The file's syntax for its text now, or NULL (no grammar, too large). */
struct EddiSyntax *script_file_syntax(ScriptFiles *self, ScriptFile *file);
/* Every file of the workspace walk (.gitignore honoured). */
int script_files_paths(ScriptFiles *self, const RefPaths **out, EddiError *err);
/* Name resolution over the texts now. */
int script_files_program(ScriptFiles *self, RefIndex **index, RefProgram **program,
                         EddiError *err);
/* Whether a file's text differs from what the script read. */
bool script_file_changed(const ScriptFile *file);

/* ---------------------------------------------------------------- sets */

typedef enum {
  SEL_FILE,
  SEL_LINE,
  SEL_CALL,
  SEL_FUNCTION,
  SEL_METHOD,
  SEL_CLASS,
  SEL_VARIABLE,
  SEL_IMPORT,
} ScriptElemKind;

typedef struct {
  size_t start, end;
} ScriptSpan;

typedef struct {
  ScriptElemKind kind;
  uint32_t file;
  uint32_t version; /* of the file the offsets are for */
  size_t start, end;
  size_t name_start, name_end;
  size_t params_start, params_end; /* a call's arguments, a function's parameters */
  bool has_params;
  char *name;  /* owned */
  char *owner; /* a method's class; owned, may be NULL */
  Array(ScriptSpan) args; /* a call's arguments */
} ScriptElement;

typedef Array(ScriptElement) ScriptSet;

void script_set_free(ScriptSet *self);
void script_element_copy(ScriptElement *dst, const ScriptElement *src);
void script_element_free(ScriptElement *self);
/* Move the element's offsets to its file's text now. */
void script_element_refresh(ScriptFiles *files, ScriptElement *self);

/* ---------------------------------------------------------------- the run */

/* Kinds of element, for the counts of the reply ("2 imports removed"). */
#define SCRIPT_ELEMENT_KINDS 8

/* Counters of what the script did, for its reply: replacements (calls
 * counted apart: "3 calls updated"), removals and flags by kind of element
 * (flags without an element under SEL_FILE's slot too). */
/* How many kinds of refactoring a script's counts tell apart. */
#define SCRIPT_REFACTOR_KINDS 16

typedef struct {
  size_t replaced, calls_updated, added, imports_added, lines_added, suggested, commands,
      elements;
  /* Refactorings done, by operation (script_refactor.c's table): "2
   * methods extracted, 1 class renamed". */
  size_t refactored[SCRIPT_REFACTOR_KINDS];
  size_t removed[SCRIPT_ELEMENT_KINDS];
  size_t flagged[SCRIPT_ELEMENT_KINDS];
  size_t notes_flagged; /* flags of no element */
} ScriptCounts;

typedef struct {
  char *name;
  bool is_set;
  ScriptSet set;
  char *text;
  char *query_source; /* a set's query, kept in the session between messages */
} ScriptVar;

typedef enum { SCRIPT_ON_ERROR_ROLLBACK, SCRIPT_ON_ERROR_STOP, SCRIPT_ON_ERROR_CONTINUE } ScriptOnError;

typedef struct ScriptRun ScriptRun;

/* What the owner thread does for a script: run a command line, move the
 * cursor, apply a changeset. NULL on a worker: such scripts never go there. */
typedef struct {
  int (*command)(void *context, ScriptRun *run, const char *line, char **reply, EddiError *err);
  int (*changeset)(void *context, ScriptRun *run, const char *verb, const char *name,
                   EddiError *err);
  int (*position)(void *context, ScriptRun *run, ScriptNodeKind kind, const char *name,
                  EddiError *err);
  void *context;
} ScriptHost;

struct ScriptRun {
  ScriptFiles files;
  Array(ScriptVar) vars;
  Array(ScriptElement) visiting; /* the elements of the foreach loops around */
  ScriptCounts counts;
  ScriptStrings flags;       /* "path:line: note" */
  ScriptStrings suggestions;
  ScriptStrings notes;       /* replies of commands, changeset previews */
  ScriptOnError on_error;
  bool unchecked; /* the script said unchecked: no language server checks its write */
  size_t failures_continued;
  char *collect_name; /* collect changes as: the changeset, instead of a write */
  bool rolled_back;   /* rollback all */
  bool budget_spent;  /* a budget ran out: the script fails whatever it says */
  bool stopped;       /* on_error stop met a failure: the script ended there */
  const ScriptNode *root;
  /* Budgets: steps, time and bytes made (flags, suggestions, notes, the
   * variables' values; the texts' growth is files.bytes_added). The caps
   * are the server's ceilings of `limit steps` and `limit time`. */
  size_t steps, max_steps, steps_cap;
  struct timespec start, deadline;
  uint64_t max_ms, ms_cap;
  size_t bytes_made, max_bytes;
  ScriptPos at; /* the statement running, which a spent time budget names */
  ScriptHost host;
  const EddiScriptState *state; /* the session's (variables kept between messages), or NULL */
  char *current; /* the session's current file, or NULL */
  /* References per symbol over the whole workspace, for `unused`; made
   * with the index they count (index_edits). */
  RefMap uses;
  bool uses_ready;
  size_t uses_edits;
};

/* Keep text (taken) in list (flags, suggestions, notes), its bytes
 * counted against the run's budget (checked before the next statement). */
void script_run_keep(ScriptRun *self, ScriptStrings *list, char *text);
/* A new value of len bytes: 0, or the failure naming the byte budget. */
int script_run_value_fits(ScriptRun *self, ScriptPos pos, size_t len, EddiError *err);

/* 0 while the time budget lasts, else the failure naming it (at the
 * statement running). Between statements the run checks it; the long loops
 * inside one (a set over every file, a where over every element) check it
 * too, so that no statement runs far past the budget. */
int script_run_in_time(ScriptRun *self, EddiError *err);
/* script_files_program over run's files, within its time budget: a scan
 * of a large workspace that runs out of time fails with the budget named. */
int script_run_program(ScriptRun *self, RefIndex **index, RefProgram **program, EddiError *err);
/* Load variable name from the session's kept ones unless the run has it. */
int script_run_need_var(ScriptRun *self, const char *name, EddiError *err);
/* Run script in run (its files set up); 0, or the failure in err. */
int script_run_exec(ScriptRun *self, const Script *script, EddiError *err);
void script_run_free(ScriptRun *self);

/* ---------------------------------------------------------------- the query engine */

/* The elements of query (visiting: the element around, for `method in
 * $class`), appended to out. */
int script_query_eval(ScriptRun *run, const ScriptQuery *query, ScriptSet *out, EddiError *err);
/* Whether cond holds for element. */
int script_cond_eval(ScriptRun *run, const ScriptCond *cond, const ScriptElement *element,
                     bool *holds, EddiError *err);
/* An expression's value as a new string; element may be NULL. */
int script_expr_value(ScriptRun *run, const ScriptExpr *e, const ScriptElement *element, char **out,
                      EddiError *err);
/* A field of an element: name, location, file, line, kind, text ... (new string). */
char *script_element_field(ScriptRun *run, const ScriptElement *element, const char *field);
/* "path:L:C" of an offset of file (0-based line and column). */
void script_place(ScriptRun *run, uint32_t file, size_t offset, StrBuf *out);

/* ---------------------------------------------------------------- actions */

int script_action_run(ScriptRun *run, const ScriptNode *node, ScriptElement *element,
                      EddiError *err);
/* The reply's words for count refactorings of kind (an index of
 * ScriptCounts.refactored): "method extracted", "methods extracted". */
const char *script_refactor_phrase(size_t kind, size_t count);
/* The refactoring op with args (their values; exprs, the expressions
 * they came from, or NULL) on the overlay (script_refactor.c). */
int script_refactor_run(ScriptRun *run, const char *op, ScriptStrings *args,
                        const ScriptExpr *const *exprs, EddiError *err);

#endif
