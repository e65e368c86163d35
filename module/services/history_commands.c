/* history_commands.c - Undo, Redo, Diff. */
#include "lang/command.h"

#include "core/diff.h"
#include "session/job.h"
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

static int history__move(CommandContext *ctx, bool undo) {
  size_t count, done;
  int rc = history__count(ctx, &count);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
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
  rc = undo ? eddi_doc_undo(doc, count, &done, ctx->err) : eddi_doc_redo(doc, count, &done, ctx->err);
  if (rc == EDDI_ENOENT && !ctx->err->hint[0])
    eddi_error_hint(ctx->err, undo ? "%s has no edit left to undo" : "%s has nothing undone to redo",
                    doc->path);
  if (rc < 0) return rc;
  eddi_reply_builder_fact(ctx->reply, "%s %zu %s", undo ? "Undid" : "Redid", done,
                          done == 1 ? "step" : "steps");
  eddi_command_fact_cursor(ctx, doc);
  return 0;
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
    {"Undo", "Undo [count]", "undo commands", CMD_FILE, eddi_run_undo},
    {"Redo", "Redo [count]", "redo undone commands", CMD_FILE, eddi_run_redo},
    {"Diff", "Diff [<file>]", "changes since the last save", CMD_FILE | CMD_READ_ONLY, eddi_run_diff},
};
COMMAND_GROUP(eddi_history_commands, history_commands);
