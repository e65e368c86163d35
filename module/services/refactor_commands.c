/* refactor_commands.c - Refactor and Preview.
 *
 * A refactoring reads the whole workspace, which can take long, so it is a
 * job (session/job.h): on the owner thread the command copies the texts of
 * the session's open source documents and its arguments; on a worker
 * thread the job scans the workspace, analyses every source file and makes
 * the plan (module/refactor/rename.h), touching nothing of the engine; on
 * the owner thread again it writes the plan through one transaction
 * (edit/transaction.h: open documents through their documents, so that
 * Undo takes the change back, the other files atomically), after checking
 * that every file still holds the text the plan was made from. Preview
 * makes the same plan and writes nothing.
 *
 * Replies:
 *   Ok, Renamed in 4 files, 17 references updated[, 2 unsure left unchanged: a.py:12, b.py:40]
 *     (with Unsure: "2 unsure renamed too: ..."; the count includes them)
 *   Ok, Preview: Would modify 3 files: a.py, b.py, test_a.py[, 2 unsure ...,
 *     Refactor needs Unsure or Leave] (and in raw mode the unified diff of every file)
 * A write that would leave unsure references is refused unless the command
 * says Unsure or Leave (refactor/plan.h: one rule for every operation):
 *   Fail "2 references to total cannot be resolved: a.py:12, b.py:40; nothing written",
 *     Add Unsure to change them too, or Leave to write without them
 * Lines in the unsure list are 0-based, as every position eddi reports. */
#include "services/commands.h"

#include <ctype.h>
#include <dirent.h>
#include <unistd.h>

#include "core/diff.h"
#include "core/path.h"
#include "core/utf8.h"
#include "edit/transaction.h"
#include "lsp/lsp_check.h"
#include "edit/txn_history.h"
#include "refactor/ops.h"
#include "refactor/operations.h"
#include "services/refactor_call.h"
#include "refactor/rename.h"
#include "refactor/kept_index.h"
#include "services/script_commands.h"

/* Job flags beside plan.h's: Move_Method keeps A.m as a delegate; the
 * write goes without the language servers' check (lsp/lsp_check.h). */
#define REFACTOR_DELEGATE 8u
#define REFACTOR_UNCHECKED 16u

/* What each operation plans with (ops.h; the two renames are rename.h's). */
/* The plan kind of an operation past the renames. */
static RefOpKind refactor__kind(int op) {
  switch (op) {
  case OP_SIGNATURE: return REF_OP_SIGNATURE;
  case OP_EXTRACT_METHOD:
  case OP_EXTRACT_FUNCTION: return REF_OP_EXTRACT;
  case OP_INLINE_FUNCTION: return REF_OP_INLINE_FUNCTION;
  case OP_INLINE_VARIABLE: return REF_OP_INLINE_VARIABLE;
  case OP_MOVE_METHOD: return REF_OP_MOVE_METHOD;
  case OP_EXTRACT_INTERFACE: return REF_OP_EXTRACT_INTERFACE;
  case OP_SPLIT_CLASS: return REF_OP_SPLIT_CLASS;
  case OP_MERGE_CLASSES: return REF_OP_MERGE_CLASSES;
  case OP_CHANGE_INHERITANCE: return REF_OP_CHANGE_INHERITANCE;
  case OP_EXTRACT_CLASS: return REF_OP_EXTRACT_CLASS;
  default: return REF_OP_UNSUPPORTED;
  }
}

typedef struct {
  EddiJob base;
  /* Copied on the owner thread. */
  char *root;
  size_t max_file_bytes;
  size_t max_entries;
  RefOpenTexts open;
  int op;
  char *spec;
  char *new_name;
  char *path; /* Extract: the file of the lines */
  uint32_t first, last;
  unsigned flags;
  bool preview;
  size_t *files_out; /* a typed call's count of files renamed in, or NULL */
  EddiWorkspace *workspace; /* to give the index back to, on the owner thread */
  /* The engine's kept index, or a new one; filled on the worker thread. */
  RefIndex *index;
  RefPlan plan;
  EddiLspCheck check; /* the servers that check the write; none for Preview */
  StrBuf checked;     /* what the check says in the reply, a fact a line */
  char *name_read; /* a Python class rename: where a class's __name__ is read ("cli.py:62:33"), or NULL */
  char *foreign_word; /* a rename's old name... */
  StrBuf foreign;     /* ...in files of other languages: "use.py:2, ..." */
  size_t foreign_count;
  StrBuf facts; /* an operation's reply facts, one a line (ops.h) */
  int rc;
  EddiError err;
} RefactorJob;

static void refactor__destroy(EddiJob *base) {
  RefactorJob *self = (RefactorJob *)base;
  eddi_free(self->root);
  ref_open_texts_free(&self->open);
  eddi_free(self->spec);
  eddi_free(self->new_name);
  eddi_free(self->path);
  eddi_strbuf_free(&self->facts);
  eddi_strbuf_free(&self->checked);
  eddi_strbuf_free(&self->foreign);
  eddi_free(self->foreign_word);
  eddi_free(self->name_read);
  eddi_lsp_check_free(&self->check);
  ref_plan_free(&self->plan);
  ref_index_checkin(self->workspace, self->index);
  eddi_free(self);
}

/* An index made with other limits starts again with the workspace's. */
static void refactor__index_limits(RefIndex *index, size_t max_file_bytes, size_t max_entries) {
  if (index->max_entries != max_entries || index->max_file_bytes != max_file_bytes) {
    ref_index_free(index);
    ref_index_init(index, max_file_bytes, max_entries);
  }
}

/* The word a file must hold to be shown to a check for what it uses of
 * the change: the target's last name before any parameter list
 * ("Cart.total" total, "pkg/m.py:f" f, "f(a, b=1)" f); NULL when it has
 * none (a region of lines). */
static char *refactor__target_word(const char *spec) {
  size_t end = strcspn(spec, "(");
  size_t start = end;
  while (start > 0 && (isalnum((unsigned char)spec[start - 1]) || spec[start - 1] == '_' ||
                       (unsigned char)spec[start - 1] >= 0x80))
    start--;
  if (start == end || isdigit((unsigned char)spec[start])) return NULL;
  return eddi_strndup(spec + start, end - start);
}

static void refactor__plan(RefactorJob *self);

/* Whether a check shows source for what it uses of word: a file of a
 * language check has a server for, naming word as a whole word. */
static bool refactor__names_word(const RefSource *source, const EddiLspCheck *check,
                                 const char *word) {
  return source->lang && eddi_lsp_check_covers(check, source->lang->name) &&
         ref_text_word(source->text, source->len, 0, (uint32_t)source->len, word) != UINT32_MAX;
}

/* The second opinion (lsp/lsp_check.h): the plan's files as they are and
 * would be, and the unchanged files that name the target, shown to their
 * servers; a new error, or a server that cannot say, refuses the write. */
static void refactor__check(RefactorJob *self) {
  RefPlan *plan = &self->plan;
  bool rename = self->op == OP_RENAME_SYMBOL || self->op == OP_RENAME_CLASS;
  Array(EddiLspPlanned) files = {0};
  Array(size_t) renamed = {0}; /* every change's renamed starts, one after another */
  Array(size_t) renamed_at = {0};
  bool *changed = eddi_calloc(self->index->sources.len + 1, sizeof *changed);
  for (size_t i = 0; i < plan->changes.len; i++) {
    const RefChange *change = &plan->changes.items[i];
    const RefSource *source = &self->index->sources.items[change->source];
    const char *lang = source->lang ? source->lang->name : NULL;
    changed[change->source] = true;
    if (!eddi_lsp_check_covers(&self->check, lang)) continue;
    EddiLspPlanned before = {.path = source->path, .lang = lang, .before = source->text,
                             .before_len = source->len};
    if (rename && !change->new_path) {
      array_push(&renamed_at, renamed.len);
      for (size_t k = 0; k < change->edits.len; k++) array_push(&renamed, change->edits.items[k].start);
      before.renamed_count = change->edits.len;
    }
    if (change->new_path) {
      array_push(&files, before);
      array_push(&files, ((EddiLspPlanned){.path = change->new_path, .lang = lang,
                                           .after = change->after, .after_len = change->after_len}));
    } else {
      before.after = change->after, before.after_len = change->after_len;
      array_push(&files, before);
    }
  }
  /* The offsets are pointed to once the array no longer moves. */
  for (size_t i = 0, next = 0; i < files.len; i++)
    if (files.items[i].renamed_count) files.items[i].renamed = &renamed.items[renamed_at.items[next++]];
  char *word = refactor__target_word(self->spec);
  size_t users = 0;
  for (size_t i = 0; files.len && word && i < self->index->sources.len && users < EDDI_LSP_USERS_MAX; i++) {
    const RefSource *source = &self->index->sources.items[i];
    if (changed[i] || !refactor__names_word(source, &self->check, word)) continue;
    users++;
    array_push(&files, ((EddiLspPlanned){.path = source->path, .lang = source->lang->name,
                                         .before = source->text, .before_len = source->len,
                                         .after = source->text, .after_len = source->len}));
  }
  if (files.len) {
    const char *old_name = rename ? word : NULL;
    self->rc = eddi_lsp_check_run(&self->check, self->root, files.items, files.len, old_name,
                                  old_name ? self->new_name : NULL, "Unchecked", NULL, &self->checked,
                                  &self->err);
  }
  eddi_free(word);
  eddi_free(changed);
  array_free(&files);
  array_free(&renamed);
  array_free(&renamed_at);
}

/* Languages that share their names: C and C++ (headers), JavaScript and
 * TypeScript (imports between them); each other language alone. */
static int refactor__family(const EddiLang *lang) {
  static const char *const families[][3] = {{"c", "cpp", NULL}, {"javascript", "typescript", "tsx"}};
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < 3 && families[f][k]; k++)
      if (strcmp(lang->name, families[f][k]) == 0) return f;
  for (size_t i = 0, count = eddi_lang_count(); i < count; i++)
    if (strcmp(eddi_lang_name(i), lang->name) == 0) return 2 + (int)i;
  return -1;
}

/* Whether file defines a symbol named name (an id of names, or REF_NONE). */
static bool refactor__defines(const RefFile *file, uint32_t name) {
  for (size_t i = 0; file && name != REF_NONE && i < file->syms.len; i++)
    if (file->syms.items[i].name == name) return true;
  return false;
}

/* A rename's old name in files of languages other than those it changes
 * that do not define the name themselves (a C function a Python ctypes
 * call names, a header's type a binding spells): eddi resolves names
 * within a language only, so each place, found as a whole word, is
 * unsure, and left only with Leave. A file that defines the name (a
 * Python class and a TypeScript class, each with its own price) is taken
 * to mean its own. */
static void refactor__foreign_uses(RefactorJob *self, const char *word) {
  const RefPlan *plan = &self->plan;
  if (!plan->changes.len) return;
  int family = refactor__family(self->index->sources.items[plan->changes.items[0].source].lang);
  uint32_t name = ref_names_find(&self->index->names, word, strlen(word));
  for (size_t i = 0; i < self->index->sources.len; i++) {
    const RefSource *source = &self->index->sources.items[i];
    if (!source->lang || refactor__family(source->lang) == family ||
        refactor__defines(source->file, name))
      continue;
    size_t line = 0;      /* the line text[counted] is on, 0-based */
    uint32_t counted = 0; /* newlines are counted up to here */
    for (uint32_t at = 0; (at = ref_text_word(source->text, source->len, at, (uint32_t)source->len, word)) != UINT32_MAX; at++) {
      for (; counted < at; counted++) line += source->text[counted] == '\n';
      eddi_strbuf_printf(&self->foreign, "%s%s:%zu", self->foreign.len ? ", " : "", source->path, line);
      self->foreign_count++;
      while (at < source->len && source->text[at] != '\n') at++;
    }
  }
}

/* Whether the plan renames a Python class: a change's edit is where a
 * class symbol of the old name is defined. */
static bool refactor__renames_python_class(const RefactorJob *self, const char *word) {
  uint32_t name = ref_names_find(&self->index->names, word, strlen(word));
  for (size_t i = 0; name != REF_NONE && i < self->plan.changes.len; i++) {
    const RefChange *change = &self->plan.changes.items[i];
    const RefSource *source = &self->index->sources.items[change->source];
    if (!source->lang || strcmp(source->lang->name, "python") != 0 || !source->file) continue;
    for (size_t k = 0; k < source->file->syms.len; k++) {
      const RefSym *sym = &source->file->syms.items[k];
      if (sym->kind != REF_SYM_CLASS || sym->name != name) continue;
      for (size_t e = 0; e < change->edits.len; e++)
        if (change->edits.items[e].start == sym->start) return true;
    }
  }
  return false;
}

/* The first place a Python file of the workspace reads an attribute
 * __name__ or __qualname__ (type(self).__name__, cls.__qualname__), as
 * "path:line:col", or NULL: renamed, a class gives that read its new name
 * (a repr, an error message, an output a test compares). */
static char *refactor__class_name_read(const RefactorJob *self) {
  static const char *const reads[] = {"__name__", "__qualname__"};
  for (int pass = 0; pass < 2; pass++) {
    const RefSource *list = pass ? self->index->held.items : self->index->sources.items;
    size_t count = pass ? self->index->held.len : self->index->sources.len;
    for (size_t i = 0; i < count; i++) {
      const RefSource *source = &list[i];
      if (!source->lang || strcmp(source->lang->name, "python") != 0 || !source->text) continue;
      for (int r = 0; r < 2; r++) {
        uint32_t end = (uint32_t)source->len;
        for (uint32_t at = 0; (at = ref_text_word(source->text, source->len, at, end, reads[r])) != UINT32_MAX; at++) {
          if (at == 0 || source->text[at - 1] != '.') continue; /* the module's own __name__ */
          size_t line, col;
          eddi_utf8_line_col(source->text, source->len, at, &line, &col);
          StrBuf place = {0};
          eddi_strbuf_printf(&place, "%s:%zu:%zu", source->path, line, col);
          return eddi_strbuf_take(&place);
        }
      }
    }
  }
  return NULL;
}

static void refactor__work(EddiJob *base) {
  RefactorJob *self = (RefactorJob *)base;
  refactor__plan(self);
  /* Cancelled: the engine drops the plan unapplied; the steps after the
   * plan (other languages' uses, the language servers' check) are the
   * long ones left. */
  if (eddi_work_stopping()) return;
  bool rename = self->op == OP_RENAME_SYMBOL || self->op == OP_RENAME_CLASS;
  self->foreign_word = rename && self->rc == 0 ? refactor__target_word(self->spec) : NULL;
  if (self->foreign_word) refactor__foreign_uses(self, self->foreign_word);
  if (self->foreign_word && !(self->flags & (REF_UNSURE_CHANGE | REF_UNSURE_LEAVE)) &&
      refactor__renames_python_class(self, self->foreign_word))
    self->name_read = refactor__class_name_read(self);
  /* Only a plan that may be written is checked: an unsure refusal comes
   * first, as it would without servers. */
  if (eddi_work_stopping()) return;
  if (self->rc == 0 && self->check.servers.len &&
      ref_plan_unsure_check(&self->plan, self->flags, &self->err) == 0)
    refactor__check(self);
  if (self->rc == 0) eddi_error_clear(&self->err);
}

static void refactor__plan(RefactorJob *self) {
  refactor__index_limits(self->index, self->max_file_bytes, self->max_entries);
  if (self->op != OP_RENAME_SYMBOL && self->op != OP_RENAME_CLASS) {
    self->rc = ref_index_scan(self->index, self->root, &self->open, &self->err);
    if (self->rc < 0) return;
    RefOpArgs args = {.spec = self->spec, .other = self->new_name, .name = self->new_name,
                      .path = self->path, .first = self->first, .last = self->last,
                      .delegate = (self->flags & REFACTOR_DELEGATE) != 0};
    self->rc = ref_op_plan(self->index, refactor__kind(self->op), eddi_refactor_operations[self->op],
                           &args, &self->plan, &self->facts, &self->err);
    return;
  }
  /* A rename analyses only the files that can matter to the old and the
   * new name (index.h); a failure is made again over every file, so that
   * what it says (a name not found and its near misses) does not depend
   * on what was left out. */
  unsigned flags = self->flags;
  RefScanWords words = {0};
  ref_rename_scan_words(self->spec, self->new_name, &words);
  size_t count = words.len;
  for (int pass = 0; pass < 2; pass++) {
    self->rc = ref_index_scan_for(self->index, self->root, &self->open,
                                  (const char *const *)words.items, count, &self->err);
    /* A Refactor after its Preview, the index unchanged: the same plan. */
    if (self->rc == 0 && (pass > 0 || ref_rename_plan_kept(self->index, self->spec, self->new_name,
                                                           flags, &self->plan) < 0))
      self->rc = ref_rename_plan(self->index, self->spec, self->new_name, flags, &self->plan,
                                 &self->err);
    if (self->rc == 0 || count == 0) break;
    ref_plan_free(&self->plan);
    eddi_error_clear(&self->err);
    count = 0;
  }
  ref_scan_words_free(&words);
}

static const char *refactor__plural(size_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* The unified diff of every changed file. */
static void refactor__diff(RefactorJob *self, StrBuf *out) {
  for (size_t i = 0; i < self->plan.changes.len; i++) {
    const RefChange *change = &self->plan.changes.items[i];
    const RefSource *source = &self->index->sources.items[change->source];
    EddiDiffStats stats;
    eddi_diff(source->text, source->len, change->after, change->after_len, source->path, &stats,
              out);
  }
}

static void refactor__unsure_fact(RefactorJob *self, CommandContext *ctx) {
  bool changed = self->plan.unsure_changeable && (self->flags & REF_UNSURE_CHANGE);
  if (self->plan.unsure_count)
    eddi_reply_builder_fact(ctx->reply, "%zu unsure %s: %s", self->plan.unsure_count,
                            changed ? "renamed too" : "left unchanged", self->plan.unsure.data);
}

static int refactor__preview(RefactorJob *self, CommandContext *ctx) {
  size_t files = self->plan.changes.len;
  StrBuf list = {0};
  eddi_strbuf_puts(&list, "");
  for (size_t i = 0; i < files; i++)
    eddi_strbuf_printf(&list, "%s%s", i ? ", " : "",
                       self->index->sources.items[self->plan.changes.items[i].source].path);
  eddi_reply_builder_fact(ctx->reply, "Preview: Would modify %zu %s: %s", files,
                          refactor__plural(files, "file", "files"), list.data);
  eddi_strbuf_free(&list);
  if (self->plan.moved_from)
    eddi_reply_builder_fact(ctx->reply, "Would move %s to %s", self->plan.moved_from,
                            self->plan.moved_to);
  refactor__unsure_fact(self, ctx);
  if (self->foreign_count)
    eddi_reply_builder_fact(ctx->reply, "%zu in another language: %s", self->foreign_count,
                            self->foreign.data);
  if (self->name_read)
    eddi_reply_builder_fact(ctx->reply, "A class's name is read at %s", self->name_read);
  if (ref_plan_unsure_left(&self->plan, self->flags))
    eddi_reply_builder_fact(ctx->reply, "Refactor needs %s", ref_plan_unsure_ways(&self->plan));
  else if (self->name_read)
    eddi_reply_builder_fact(ctx->reply, "Refactor needs Unsure or Leave");
  else if (self->foreign_count && !(self->flags & REF_UNSURE_LEAVE))
    eddi_reply_builder_fact(ctx->reply, "Refactor needs Leave");
  if (ctx->reply->raw_mode) {
    StrBuf diff = {0};
    refactor__diff(self, &diff);
    eddi_reply_builder_raw(ctx->reply, diff.data ? diff.data : "", diff.len);
    eddi_strbuf_free(&diff);
  }
  return 0;
}

/* The transaction's entry for path, which must hold text (the plan's, when
 * given) or, for a file to be made, not exist. */
static int refactor__load(CommandContext *ctx, EddiEditTxn *txn, const char *path, const char *text,
                          size_t len, bool create, EddiEditFile **file) {
  int rc = eddi_edit_txn_file(txn, path, file, ctx->err);
  if (rc < 0) return rc;
  if (create && ((*file)->exists || (*file)->is_dir))
    return eddi_error_set(ctx->err, EDDI_EINVAL, "%s already exists", path);
  if (!create && text &&
      (!(*file)->exists || (*file)->text.len != len ||
       memcmp((*file)->text.data ? (*file)->text.data : "", text, len) != 0)) {
    eddi_error_set(ctx->err, EDDI_ESTALE, "%s changed while the refactoring was computed", path);
    eddi_error_hint(ctx->err, "Run it again");
    return EDDI_ESTALE;
  }
  return 0;
}

/* Folders below and at rel that are empty once the move is done. */
static void refactor__remove_empty(const char *root, const char *rel) {
  char *abs = eddi_path_join(root, rel);
  DIR *dir = opendir(abs);
  if (dir) {
    for (struct dirent *entry; (entry = readdir(dir));) {
      if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
      char *child = eddi_path_join(rel, entry->d_name);
      refactor__remove_empty(root, child);
      eddi_free(child);
    }
    closedir(dir);
    rmdir(abs); /* fails, harmlessly, unless empty */
  }
  eddi_free(abs);
}

/* Write the plan in one transaction, if every file still holds the text
 * the plan was made from; a module rename deletes the old files and makes
 * the new ones in the same transaction. */
static int refactor__write(RefactorJob *self, CommandContext *ctx) {
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, ctx->workspace, ctx->session);
  RefPlan *plan = &self->plan;
  int rc = 0;
  for (size_t i = 0; i < plan->changes.len && rc == 0; i++) {
    const RefChange *change = &plan->changes.items[i];
    const RefSource *source = &self->index->sources.items[change->source];
    EddiEditFile *file, *moved;
    rc = refactor__load(ctx, &txn, source->path, source->text, source->len, false, &file);
    if (rc == 0 && change->new_path) {
      rc = refactor__load(ctx, &txn, change->new_path, NULL, 0, true, &moved);
      if (rc == 0) eddi_edit_file_delete(file), file = moved;
    }
    if (rc == 0) eddi_edit_file_write(file, change->after, change->after_len);
  }
  for (size_t i = 0; i < plan->carry_from.len && rc == 0; i++) {
    EddiEditFile *from, *to;
    rc = refactor__load(ctx, &txn, plan->carry_from.items[i], NULL, 0, false, &from);
    if (rc == 0) rc = refactor__load(ctx, &txn, plan->carry_to.items[i], NULL, 0, true, &to);
    if (rc == 0) {
      eddi_edit_file_write(to, from->text.data ? from->text.data : "", from->text.len);
      to->format = from->format, to->mode = from->mode;
      eddi_edit_file_delete(from);
    }
  }
  EddiEditReport report = {0};
  if (rc == 0) rc = eddi_edit_txn_commit(&txn, &report, ctx->err);
  if (rc == 0) eddi_txn_history_note(&txn);
  eddi_edit_txn_free(&txn);
  if (rc < 0) {
    eddi_edit_report_free(&report);
    return rc;
  }
  if (plan->emptied) refactor__remove_empty(eddi_workspace_root(ctx->workspace), plan->emptied);
  size_t files = plan->changes.len, refs = plan->references;
  if (self->files_out) *self->files_out = files;
  if (self->facts.len) {
    eddi_reply_builder_fact_lines(ctx->reply, self->facts.data);
    eddi_reply_builder_fact(ctx->reply, "%zu %s modified", files,
                            refactor__plural(files, "file", "files"));
  } else {
    eddi_reply_builder_fact(ctx->reply, "Renamed in %zu %s", files,
                            refactor__plural(files, "file", "files"));
    eddi_reply_builder_fact(ctx->reply, "%zu %s updated", refs,
                            refactor__plural(refs, "reference", "references"));
  }
  if (plan->moved_from)
    eddi_reply_builder_fact(ctx->reply, "Moved %s to %s", plan->moved_from, plan->moved_to);
  refactor__unsure_fact(self, ctx);
  if (self->foreign_count)
    eddi_reply_builder_fact(ctx->reply, "%zu in another language left unchanged: %s",
                            self->foreign_count, self->foreign.data);
  eddi_reply_builder_fact_lines(ctx->reply, self->checked.data);
  /* A file changed on disk meanwhile, on other lines: merged, and said. */
  eddi_reply_builder_fact_lines(ctx->reply, report.warnings.data);
  eddi_edit_report_free(&report);
  return 0;
}

static int refactor__finish(EddiJob *base, CommandContext *ctx) {
  RefactorJob *self = (RefactorJob *)base;
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  if (self->preview) return refactor__preview(self, ctx);
  int rc = ref_plan_unsure_check(&self->plan, self->flags, ctx->err);
  if (rc == 0 && self->name_read) {
    eddi_error_set(ctx->err, EDDI_EINVAL,
                   "%s is a class, and a class's name is read at %s: renamed, what is read "
                   "there changes; nothing written", self->foreign_word, self->name_read);
    eddi_error_hint(ctx->err, "Add Unsure or Leave to rename it anyway");
    rc = EDDI_EINVAL;
  }
  if (rc == 0 && self->foreign_count && !(self->flags & REF_UNSURE_LEAVE)) {
    eddi_error_set(ctx->err, EDDI_EINVAL,
                   "%zu use%s of %s in another language cannot be resolved: %s; nothing written",
                   self->foreign_count, self->foreign_count == 1 ? "" : "s", self->foreign_word,
                   self->foreign.data);
    eddi_error_hint(ctx->err, "Change them by hand, then add Leave to rename without them");
    rc = EDDI_EINVAL;
  }
  return rc < 0 ? rc : refactor__write(self, ctx);
}

/* Copy the texts of the session's open documents that are source files or
 * Python project files, which say where imports are found (a typed call
 * may run without a session: then there are none). */
static void refactor__copy_open(RefOpenTexts *open, EddiSession *session) {
  for (size_t i = 0; session && i < session->docs.len; i++) {
    EddiDoc *doc = session->docs.items[i];
    size_t len = eddi_text_len(&doc->text);
    char first[EDDI_SYNTAX_NAME_MAX];
    size_t n = EDDI_MIN(sizeof first, len);
    eddi_text_copy(&doc->text, 0, n, first);
    const EddiLang *lang = eddi_lang_detect(doc->path, first, n);
    const char *base = strrchr(doc->path, '/');
    if ((!lang || !lang->locals) && !ref_py_roots_is_config(base ? base + 1 : doc->path)) continue;
    RefOpenText text = {eddi_strdup(doc->path), eddi_text_dup(&doc->text, 0, len), len};
    array_push(open, text);
  }
}

void eddi_refactor_copy_buffers(EddiWorkspace *workspace, bool sources_only, RefOpenTexts *texts) {
  EddiWorkspacePaths paths = {0};
  EddiError ignored;
  if (eddi_workspace_copies(workspace, &paths, &ignored) < 0) {
    eddi_workspace_paths_free(&paths);
    return;
  }
  for (size_t i = 0; i < paths.len; i++) {
    const char *rel = paths.items[i];
    bool open = false;
    for (size_t k = 0; !open && k < texts->len; k++)
      open = strcmp(texts->items[k].path, rel) == 0;
    if (open) continue;
    if (sources_only) {
      const EddiLang *lang = eddi_lang_detect(rel, "", 0);
      const char *base = strrchr(rel, '/');
      if ((!lang || !lang->locals) && !ref_py_roots_is_config(base ? base + 1 : rel)) continue;
    }
    char *abs = eddi_path_join(eddi_workspace_root(workspace), rel);
    StrBuf text = {0};
    EddiBackendCopy copy;
    eddi_strbuf_puts(&text, "");
    if (eddi_workspace_find_copy(workspace, rel, abs, &copy, &text, &ignored) == 0 && copy.found) {
      size_t len = text.len;
      RefOpenText entry = {eddi_strdup(rel), eddi_strbuf_take(&text), len};
      array_push(texts, entry);
    }
    eddi_strbuf_free(&text);
    eddi_free(abs);
  }
  eddi_workspace_paths_free(&paths);
}

/* The operation token names, or a Fail. */
static int refactor__operation(CommandContext *ctx, const Token *token) {
  int op = token->kind == TOKEN_WORD ? eddi_refactor_operation_find(token->text) : -1;
  if (op >= 0) return op;
  return eddi_command_choose(ctx, token, "operation", eddi_refactor_operations,
                             EDDI_REFACTOR_OPERATION_COUNT);
}

/* Extract's region "a:b" (the current file's lines) or "path.py:a:b",
 * 0-based and inclusive. */
static int refactor__region(CommandContext *ctx, const char *region, char **path, uint32_t *first,
                            uint32_t *last) {
  const char *colon = strrchr(region, ':');
  const char *before = colon ? colon - 1 : NULL;
  while (before && before > region && *before >= '0' && *before <= '9') before--;
  bool with_path = before && before > region && *before == ':';
  char *end1 = NULL, *end2 = NULL;
  const char *a = with_path ? before + 1 : region;
  unsigned long x = strtoul(a, &end1, 10);
  unsigned long y = end1 && *end1 == ':' ? strtoul(end1 + 1, &end2, 10) : 0;
  if (!colon || end1 == a || !end2 || *end2 || y < x || y > UINT32_MAX)
    return eddi_error_set(ctx->err, EDDI_EINVAL, "Not a region of lines: %s (write A:B)", region);
  *first = (uint32_t)x, *last = (uint32_t)y;
  if (with_path) {
    *path = eddi_strndup(region, (size_t)(before - region));
  } else if (ctx->session && ctx->session->current) {
    *path = eddi_strdup(ctx->session->current->path);
  } else {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Extract needs an open file, or path.py:A:B");
    eddi_error_hint(ctx->err, "Open the file first");
    return EDDI_EINVAL;
  }
  return 0;
}

/* Start the job of operation op on spec (taken) and new_name (taken; may
 * be NULL); Extract's spec is its region; way is what to do with unsure
 * references (REF_UNSURE_*, plan.h). */
static int refactor__start(CommandContext *ctx, int op, char *spec, char *new_name,
                           unsigned way, bool preview, size_t *files_out) {
  char *path = NULL;
  uint32_t first = 0, last = 0;
  if (op == OP_EXTRACT_METHOD || op == OP_EXTRACT_FUNCTION) {
    int rc = refactor__region(ctx, spec, &path, &first, &last);
    if (rc < 0) {
      eddi_free(spec), eddi_free(new_name);
      return rc;
    }
  }
  RefactorJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = refactor__work;
  job->base.finish = refactor__finish;
  job->base.destroy = refactor__destroy;
  job->root = eddi_strdup(eddi_workspace_root(ctx->workspace));
  job->max_file_bytes = eddi_workspace_config(ctx->workspace)->max_file_bytes;
  job->max_entries = eddi_workspace_config(ctx->workspace)->max_walk_entries;
  job->op = op;
  job->spec = spec;
  job->new_name = new_name ? new_name : eddi_strdup("");
  job->path = path;
  job->first = first, job->last = last;
  job->flags = way | (op == OP_RENAME_CLASS ? REF_RENAME_CLASS : 0);
  job->preview = preview;
  job->files_out = files_out;
  job->workspace = ctx->workspace;
  job->index = ref_index_checkout(ctx->workspace);
  if (!preview && !(way & REFACTOR_UNCHECKED))
    eddi_lsp_check_init(&job->check, ctx->workspace, ctx->session);
  refactor__copy_open(&job->open, ctx->session);
  eddi_refactor_copy_buffers(ctx->workspace, true, &job->open);
  return eddi_job_start(ctx, &job->base);
}

/* Owner thread: the workspace's index with ctx's limits, and into open
 * the texts it reads before the disk's (documents, buffers); give it back
 * with ref_index_checkin. */
static RefIndex *refactor__index_now(CommandContext *ctx, RefOpenTexts *open) {
  refactor__copy_open(open, ctx->session);
  eddi_refactor_copy_buffers(ctx->workspace, true, open);
  const EddiConfig *config = eddi_workspace_config(ctx->workspace);
  RefIndex *index = ref_index_checkout(ctx->workspace);
  refactor__index_limits(index, config->max_file_bytes, config->max_walk_entries);
  return index;
}

int eddi_refactor_rename_reach(CommandContext *ctx, const char *spec, const char *new_name,
                               const char *path, StrBuf *others, StrBuf *unsure) {
  RefOpenTexts open = {0};
  RefIndex *index = refactor__index_now(ctx, &open);
  RefScanWords words = {0};
  ref_rename_scan_words(spec, new_name, &words);
  RefPlan plan = {0};
  int rc = ref_index_scan_for(index, eddi_workspace_root(ctx->workspace), &open,
                              (const char *const *)words.items, words.len, ctx->err);
  if (rc == 0) rc = ref_rename_plan(index, spec, new_name, 0, &plan, ctx->err);
  for (size_t i = 0; rc == 0 && i < plan.changes.len; i++) {
    const char *changed = index->sources.items[plan.changes.items[i].source].path;
    if (strcmp(changed, path) != 0)
      eddi_strbuf_printf(others, "%s%s", others->len ? ", " : "", changed);
  }
  if (rc == 0 && plan.unsure_count) eddi_strbuf_puts(unsure, plan.unsure.data);
  ref_plan_free(&plan);
  ref_scan_words_free(&words);
  ref_open_texts_free(&open);
  ref_index_checkin(ctx->workspace, index);
  return rc;
}

int eddi_refactor_files_naming(CommandContext *ctx, const EddiLspCheck *check, const char *word,
                               const char *except, EddiWordUsers *out) {
  RefOpenTexts open = {0};
  RefIndex *index = refactor__index_now(ctx, &open);
  const char *words[] = {word};
  const char *root = eddi_workspace_root(ctx->workspace);
  int rc = ref_index_scan_for(index, root, &open, words, 1, ctx->err);
  for (size_t i = 0; rc == 0 && i < index->sources.len && out->len < EDDI_LSP_USERS_MAX; i++) {
    const RefSource *source = &index->sources.items[i];
    if (strcmp(source->path, except) == 0 || !refactor__names_word(source, check, word)) continue;
    StrBuf abs = {0};
    eddi_strbuf_printf(&abs, "%s/%s", root, source->path);
    EddiWordUser user = {eddi_strbuf_take(&abs), eddi_strdup(source->path), source->lang,
                         eddi_strndup(source->text, source->len), source->len};
    array_push(out, user);
  }
  ref_open_texts_free(&open);
  ref_index_checkin(ctx->workspace, index);
  return rc;
}

/* The argument words of a Signature joined again: "f(a," "b)" is one
 * signature, its parentheses balanced. Appends the signatures to out
 * (new strings); returns how many. */
static size_t refactor__signatures(const Token *args, size_t argc, char **out, size_t max) {
  size_t count = 0;
  StrBuf sig = {0};
  int depth = 0;
  for (size_t i = 0; i < argc; i++) {
    char *word = eddi_command_token_string(&args[i]);
    if (sig.len) eddi_strbuf_putc(&sig, ' ');
    eddi_strbuf_puts(&sig, word);
    for (const char *c = word; *c; c++) depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
    eddi_free(word);
    if (depth <= 0) {
      if (count < max) out[count] = eddi_strbuf_take(&sig);
      else eddi_strbuf_free(&sig);
      count++, depth = 0;
    }
  }
  if (sig.len) {
    if (count < max) out[count] = eddi_strbuf_take(&sig);
    else eddi_strbuf_free(&sig);
    count++;
  }
  return count;
}

/* A name argument as the design writes it too: User.validate() is
 * User.validate (new string). */
static char *refactor__name(const Token *token) {
  char *name = eddi_command_token_string(token);
  size_t len = strlen(name);
  if (len > 2 && strcmp(name + len - 2, "()") == 0) name[len - 2] = '\0';
  return name;
}

/* Refactor <operation> <args>; args start at ctx->args[first]. */
static int refactor__run(CommandContext *ctx, size_t first, bool preview) {
  if (ctx->argc <= first) return eddi_command_usage(ctx, "Refactor needs an operation");
  int op = refactor__operation(ctx, &ctx->args[first]);
  if (op < 0) return op;
  size_t argc = ctx->argc - first - 1;
  const Token *args = &ctx->args[first + 1];
  const char *name = eddi_refactor_operations[op];
  /* A last word past the operation's least arguments says what to do with
   * unsure references (plan.h): Leave for any operation, Unsure for the
   * renames (the others cannot change what they could not resolve). */
  size_t least = op == OP_EXTRACT_METHOD ? 3
               : op == OP_INLINE_FUNCTION || op == OP_INLINE_VARIABLE ? 1
               : op == OP_SPLIT_CLASS || op == OP_MERGE_CLASSES || op == OP_EXTRACT_CLASS ? 3
               : 2;
  unsigned way = 0;
  if (!preview && argc > least && eddi_token_is(&args[argc - 1], "Unchecked"))
    way |= REFACTOR_UNCHECKED, argc--;
  if (op == OP_MOVE_METHOD && argc > least && eddi_token_is(&args[argc - 1], "Delegate"))
    way |= REFACTOR_DELEGATE, argc--;
  if (argc > least && eddi_token_is(&args[argc - 1], "Leave")) way |= REF_UNSURE_LEAVE, argc--;
  else if (argc > least && op <= OP_RENAME_CLASS && eddi_token_is(&args[argc - 1], "Unsure"))
    way = REF_UNSURE_CHANGE, argc--;
  switch (op) {
  case OP_SIGNATURE: {
    char *sigs[2] = {NULL, NULL};
    size_t count = refactor__signatures(args, argc, sigs, 2);
    if (count != 2) {
      eddi_free(sigs[0]), eddi_free(sigs[1]);
      return eddi_command_usage(ctx, "Refactor Signature takes f(old parameters) f(new parameters)");
    }
    return refactor__start(ctx, op, sigs[0], sigs[1], way, preview, NULL);
  }
  case OP_EXTRACT_METHOD:
    if (argc != 3 || !eddi_token_is(&args[1], "lines"))
      return eddi_command_usage(ctx, "Refactor Extract_Method takes <name> lines <a>:<b>");
    return refactor__start(ctx, op, eddi_command_token_string(&args[2]),
                           eddi_command_token_string(&args[0]), way, preview, NULL);
  case OP_EXTRACT_FUNCTION:
    if (argc != 2) return eddi_command_usage(ctx, "Refactor ExtractFunction takes <a>:<b> <name>");
    return refactor__start(ctx, op, eddi_command_token_string(&args[0]),
                           eddi_command_token_string(&args[1]), way, preview, NULL);
  case OP_INLINE_FUNCTION:
  case OP_INLINE_VARIABLE:
    if (argc != 1) return eddi_command_usage(ctx, "Refactor %s takes a name", name);
    return refactor__start(ctx, op, refactor__name(&args[0]), NULL, way, preview, NULL);
  case OP_RENAME_SYMBOL:
  case OP_RENAME_CLASS:
  case OP_MOVE_METHOD:
  case OP_EXTRACT_INTERFACE: {
    if (argc != 2) return eddi_command_usage(ctx, "Refactor %s takes a name and a new name", name);
    return refactor__start(ctx, op, refactor__name(&args[0]), refactor__name(&args[1]), way,
                           preview, NULL);
  }
  case OP_SPLIT_CLASS:
  case OP_MERGE_CLASSES:
  case OP_CHANGE_INHERITANCE:
  case OP_EXTRACT_CLASS: {
    /* The class, then the rest as one argument (ops.h's RefOpKind says
     * what each reads there), as a typed call's new_name gives it. */
    static const char *const usage[] = {
        [OP_SPLIT_CLASS] = "<Class> <NewClass> <m1,m2>",
        [OP_MERGE_CLASSES] = "<A> <B> <Target>",
        [OP_CHANGE_INHERITANCE] = "<Class> [<OldParent>] <NewParent>",
        [OP_EXTRACT_CLASS] = "<Class> <NewClass> <m1,m2>",
    };
    if (argc < (op == OP_CHANGE_INHERITANCE ? 2u : 3u))
      return eddi_command_usage(ctx, "Refactor %s takes %s", name, usage[op]);
    StrBuf rest = {0};
    for (size_t i = 1; i < argc; i++) {
      char *word = eddi_command_token_string(&args[i]);
      eddi_strbuf_printf(&rest, "%s%s", i > 1 ? " " : "", word);
      eddi_free(word);
    }
    return refactor__start(ctx, op, eddi_command_token_string(&args[0]),
                           eddi_strbuf_take(&rest), way, preview, NULL);
  }
  default:
    if (argc < 1) return eddi_command_usage(ctx, "Refactor %s takes a class", name);
    return refactor__start(ctx, op, eddi_command_token_string(&args[0]), NULL, way, preview,
                           NULL);
  }
}

int eddi_refactor_call(CommandContext *ctx, const EddiCall *call, size_t *files) {
  const char *operation = call->operation;
  /* The operation as the command's word, so that a wrong one fails alike. */
  Token word = {.kind = TOKEN_WORD, .text = (char *)operation, .len = strlen(operation),
                .source = operation, .source_len = strlen(operation)};
  int op = refactor__operation(ctx, &word);
  if (op < 0) return op;
  unsigned way = (call->unsure ? REF_UNSURE_CHANGE : 0) | (call->leave ? REF_UNSURE_LEAVE : 0) |
                 (call->delegate ? REFACTOR_DELEGATE : 0) | (call->unchecked ? REFACTOR_UNCHECKED : 0);
  return refactor__start(ctx, op, eddi_strdup(call->text),
                         call->new_name ? eddi_strdup(call->new_name) : NULL, way,
                         call->kind == EDDI_CALL_PREVIEW, files);
}

static int refactor__command(CommandContext *ctx) { return refactor__run(ctx, 0, false); }

static int refactor__preview_command(CommandContext *ctx) {
  /* Preview changeset <name>: a script's collected changes (module/script/). */
  if (ctx->argc > 0 && eddi_token_is(&ctx->args[0], "changeset"))
    return eddi_script_preview_changeset(ctx);
  if (ctx->argc == 0 || !eddi_token_is(&ctx->args[0], "Refactor"))
    return eddi_command_usage(ctx, "Preview takes a Refactor command");
  return refactor__run(ctx, 1, true);
}

/* ---------------------------------------------------------------- table */

static const CommandSpec refactor_commands[] = {
    {"Refactor",
     /* The alternatives after the first leave out "Refactor", so that the
      * whole line fits a usage hint (EDDI_ERROR_MAX). */
     "Refactor <RenameSymbol|Rename_Class> <name|path.py:name|Class.method|path.py:L:C> <new> "
     "[Unsure|Leave] [Unchecked] | Signature <f(old)> <f(new)> | Extract_Method <name> lines <a>:<b> | "
     "ExtractFunction <a>:<b> <name> | <InlineFunction|Inline_Variable> <name> | Move_Method "
     "<A.m> <B.m> | Extract_Interface <Class> <Interface> | <ExtractClass|Split_Class> <Class> "
     "<NewClass> <m1,m2> | Merge_Classes <A> <B> <Target> | Change_Inheritance <Class> "
     "[<OldParent>] <NewParent>",
     "refactor across files: every reference, all files or none", CMD_SESSION, refactor__command},
    {"Preview", "Preview Refactor <operation> <arguments>",
     "what a refactoring would change, written nowhere", CMD_SESSION | CMD_READ_ONLY,
     refactor__preview_command},
};
COMMAND_GROUP(eddi_refactor_commands, refactor_commands);
