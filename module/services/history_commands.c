/* history_commands.c - Undo, Redo, Diff.
 *
 * Undo and Redo move the current document's undo history, or, when the
 * newest change there (or anywhere, with no document open) was a command
 * that wrote several files or files not open (a Refactor, a multi-file
 * Patch, a script), that command's step in every file it touched
 * (edit/txn_history.h). */
#include "services/commands.h"

#include "core/diff.h"
#include "edit/txn_history.h"
#include "services/structure.h"

static int history__count(CommandContext *ctx, size_t *count) {
  *count = 1;
  if (ctx->argc == 0) return 0;
  if (ctx->argc > 1 || ctx->args[0].kind != TOKEN_INT || ctx->args[0].first == 0)
    return eddi_command_usage(ctx, "%s's count must be a number from 1", ctx->spec->name);
  *count = (size_t)ctx->args[0].first;
  return 0;
}

/* The Undo or Redo of one large bottom-up group (a Replace All) as long
 * work (core/document.h, EDDI_DOC_LONG_WORK_BYTES): the worker builds the
 * text the step leaves over a view of the text now (the session's later
 * requests wait behind the job, so nothing edits it meanwhile); the owner
 * puts it in and moves the group. */
typedef struct {
  EddiJob base;
  EddiDoc *doc;
  bool undo;
  const DocEditGroup *group; /* the document's; it stays put while the job runs */
  uint64_t group_id;
  size_t len;
  EddiText view;
  TextReplacement *edits;
  EddiText built;
} ReplayJob;

static void replay__work(EddiJob *base) {
  ReplayJob *self = (ReplayJob *)base;
  self->edits = eddi_doc_replay_edits(self->group, self->undo, NULL);
  eddi_text_build_replaced(&self->view, self->edits, self->group->edits.len, &self->built);
}

static int replay__finish(EddiJob *base, CommandContext *ctx) {
  ReplayJob *self = (ReplayJob *)base;
  EddiDoc *doc = self->doc;
  bool same = false;
  for (size_t i = 0; i < ctx->session->docs.len; i++) same |= ctx->session->docs.items[i] == doc;
  DocEditGroupList *from = same ? (self->undo ? &doc->undo : &doc->redo) : NULL;
  if (!same || eddi_text_len(&doc->text) != self->len || !from->len ||
      array_back(from)->id != self->group_id)
    return eddi_error_set(ctx->err, EDDI_ESTALE, "The file changed while %s ran",
                          self->undo ? "Undo" : "Redo");
  eddi_doc_commit_replay(doc, self->undo, &self->built, self->edits, self->group->edits.len);
  eddi_reply_builder_fact(ctx->reply, "%s 1 step", self->undo ? "Undid" : "Redid");
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

static void replay__destroy(EddiJob *base) {
  ReplayJob *self = (ReplayJob *)base;
  eddi_text_view_free(&self->view);
  eddi_text_free(&self->built);
  eddi_free(self->edits);
  eddi_free(self);
}

/* Undo or Redo within one document: its own undo groups, no multi-file step. */
static int history__move_doc(CommandContext *ctx, EddiDoc *doc, size_t count, bool undo) {
  size_t done;
  const DocEditGroup *group = count == 1 && eddi_text_len(&doc->text) >= EDDI_DOC_LONG_WORK_BYTES
                                  ? eddi_doc_replay_next(doc, undo)
                                  : NULL;
  if (group) {
    ReplayJob *job = eddi_calloc(1, sizeof *job);
    job->base.work = replay__work;
    job->base.finish = replay__finish;
    job->base.destroy = replay__destroy;
    job->doc = doc;
    job->undo = undo;
    job->group = group;
    job->group_id = group->id;
    job->len = eddi_text_len(&doc->text);
    eddi_text_view(&doc->text, &job->view);
    return eddi_job_start(ctx, &job->base);
  }
  int rc = undo ? eddi_doc_undo(doc, count, &done, ctx->err)
                : eddi_doc_redo(doc, count, &done, ctx->err);
  if (rc == EDDI_ENOENT && !ctx->err->hint[0])
    eddi_error_hint(ctx->err, undo ? "%s has no edit left to undo" : "%s has nothing undone to redo",
                    doc->path);
  if (rc < 0) return rc;
  eddi_reply_builder_fact(ctx->reply, "%s %zu %s", undo ? "Undid" : "Redid", done,
                          done == 1 ? "step" : "steps");
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

/* Add the comma-separated names in more to list, each once. */
static void history__add_files(StrBuf *list, size_t *count, const char *more) {
  for (const char *name = more; name && *name;) {
    const char *end = strstr(name, ", ");
    size_t len = end ? (size_t)(end - name) : strlen(name);
    bool known = false;
    for (const char *at = list->data; at && *at && !known;) {
      const char *stop = strstr(at, ", ");
      size_t n = stop ? (size_t)(stop - at) : strlen(at);
      known = n == len && memcmp(at, name, len) == 0;
      at = stop ? stop + 2 : at + n;
    }
    if (!known) eddi_strbuf_printf(list, "%s%.*s", (*count)++ ? ", " : "", (int)len, name);
    name = end ? end + 2 : name + len;
  }
}

/* Undo or Redo count steps, each a multi-file step or one of the
 * document's groups, whichever is newest; stops at the first that cannot
 * be moved (its refusal is the reply when it is the first). */
static int history__move_steps(CommandContext *ctx, EddiDoc *doc, size_t count, bool undo) {
  StrBuf files = {0};
  size_t done = 0, file_count = 0;
  int rc = 0;
  for (; done < count; done++) {
    EddiTxnHistoryStep *step = eddi_txn_history_find(ctx->session, doc, undo);
    if (step) {
      StrBuf moved = {0};
      rc = eddi_txn_history_move(step, ctx->workspace, ctx->session, undo, &moved, ctx->err);
      if (rc == 0) history__add_files(&files, &file_count, moved.data);
      eddi_strbuf_free(&moved);
    } else if (doc) {
      size_t one;
      rc = undo ? eddi_doc_undo(doc, 1, &one, ctx->err) : eddi_doc_redo(doc, 1, &one, ctx->err);
    } else {
      rc = EDDI_ENOENT;
    }
    if (rc < 0) break;
  }
  if (done == 0) {
    eddi_strbuf_free(&files);
    return rc;
  }
  eddi_error_clear(ctx->err);
  eddi_reply_builder_fact(ctx->reply, "%s %zu %s", undo ? "Undid" : "Redid", done,
                          done == 1 ? "step" : "steps");
  if (file_count)
    eddi_reply_builder_fact(ctx->reply, "%zu %s: %s", file_count, file_count == 1 ? "file" : "files",
                            files.data);
  if (doc) eddi_command_fact_cursor(ctx, doc);
  eddi_strbuf_free(&files);
  return 0;
}

static int history__move(CommandContext *ctx, bool undo) {
  EddiDoc *doc = ctx->session->current;
  bool steps = eddi_txn_history_find(ctx->session, doc, undo) != NULL;
  /* What the command table's CMD_FILE asked for before Undo could run
   * without a document: the same refusal, the same sync. */
  if (!doc && !steps) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "No file open");
    eddi_error_hint(ctx->err, "Open one with \"Open <file>\"");
    return EDDI_ESTATE;
  }
  int rc = doc ? eddi_doc_sync(doc, ctx->err) : 0;
  size_t count;
  if (rc == 0) rc = history__count(ctx, &count);
  if (rc < 0) return rc;
  /* The sync may have made an undo step of a change on disk. Several
   * steps go one by one, as a multi-file step may come after the
   * document's own. */
  steps = eddi_txn_history_find(ctx->session, doc, undo) != NULL ||
          (count > 1 && eddi_txn_history_steps(ctx->session, undo));
  return steps ? history__move_steps(ctx, doc, count, undo) : history__move_doc(ctx, doc, count, undo);
}

int eddi_run_undo(CommandContext *ctx) { return history__move(ctx, true); }
int eddi_run_redo(CommandContext *ctx) { return history__move(ctx, false); }

int eddi_command_doc_diff(CommandContext *ctx, EddiDoc *doc, size_t *added, size_t *deleted,
                 StrBuf *unified) {
  StrBuf saved = {0};
  int rc = doc->backend->vtable->saved_text(doc->backend, &saved, ctx->err);
  if (rc < 0) {
    eddi_strbuf_free(&saved);
    return rc;
  }
  char *now = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
  EddiDiffStats stats;
  eddi_diff(saved.data ? saved.data : "", saved.len, now, eddi_text_len(&doc->text), doc->path,
            &stats, unified);
  *added = stats.added;
  *deleted = stats.deleted;
  eddi_free(now);
  eddi_strbuf_free(&saved);
  return 0;
}

int eddi_run_diff(CommandContext *ctx) {
  if (ctx->argc > 1) return eddi_command_usage(ctx, "Diff takes at most one file");
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc == 1) {
    int rc = eddi_command_named_doc(ctx, &ctx->args[0], &doc);
    if (rc < 0) return rc;
  }
  size_t added, deleted;
  StrBuf unified = {0};
  int rc = eddi_command_doc_diff(ctx, doc, &added, &deleted, ctx->reply->raw_mode ? &unified : NULL);
  if (rc == 0) {
    if (added == 0 && deleted == 0) eddi_reply_builder_payload(ctx->reply, "No changes");
    else eddi_reply_builder_payload(ctx->reply, "+%zu -%zu lines", added, deleted);
    if (added || deleted) {
      /* And what that did to its functions and classes. */
      EddiOutline *before = eddi_structure_outline_saved(ctx, doc);
      EddiOutline *after = before ? eddi_structure_outline_doc(ctx, doc) : NULL;
      StructureCounts counts = {0};
      StrBuf said = {0};
      if (eddi_structure_compare(before, after, &counts, NULL) > 0) {
        eddi_structure_say_counts(&counts, &said);
        eddi_reply_builder_payload(ctx->reply, "%s", said.data);
      }
      eddi_strbuf_free(&said);
      eddi_outline_free(before), eddi_outline_free(after);
    }
    eddi_reply_builder_raw(ctx->reply, unified.data, unified.len);
  }
  eddi_strbuf_free(&unified);
  return rc;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec history_commands[] = {
    {"Undo", "Undo [count]", "undo commands", CMD_SESSION, eddi_run_undo},
    {"Redo", "Redo [count]", "redo undone commands", CMD_SESSION, eddi_run_redo},
    {"Diff", "Diff [<file>]", "changes since the last save", CMD_FILE | CMD_READ_ONLY, eddi_run_diff},
};
COMMAND_GROUP(eddi_history_commands, history_commands);
