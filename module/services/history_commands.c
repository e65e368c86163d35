/* history_commands.c - Undo, Redo, Diff. */
#include "lang/command.h"

#include "core/diff.h"
#include "services/structure.h"

static int history__count(CommandContext *ctx, size_t *count) {
  *count = 1;
  if (ctx->argc == 0) return 0;
  if (ctx->argc > 1 || ctx->args[0].kind != TOKEN_INT || ctx->args[0].first == 0)
    return eddi_command_usage(ctx, "%s's count must be a number from 1", ctx->spec->name);
  *count = (size_t)ctx->args[0].first;
  return 0;
}

static int history__move(CommandContext *ctx, bool undo) {
  size_t count, done;
  int rc = history__count(ctx, &count);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
  rc = undo ? eddi_doc_undo(doc, count, &done, ctx->err) : eddi_doc_redo(doc, count, &done, ctx->err);
  if (rc == EDDI_ENOENT && !ctx->err->hint[0])
    eddi_error_hint(ctx->err, undo ? "%s has no edit left to undo" : "%s has nothing undone to redo",
                    doc->path);
  if (rc < 0) return rc;
  eddi_reply_builder_fact(ctx->reply, "%s %zu", undo ? "Undid" : "Redid", done);
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
