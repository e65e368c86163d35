/* history_commands.c - Undo, Redo, Diff. */
#include "command.h"

#include "diff.h"

static int history__count(CommandContext *ctx, size_t *count) {
  *count = 1;
  if (ctx->argc == 0) return 0;
  if (ctx->argc > 1 || ctx->args[0].kind != TOKEN_INT || ctx->args[0].first == 0)
    return cmd_usage(ctx, "%s's count must be a number from 1", ctx->spec->name);
  *count = (size_t)ctx->args[0].first;
  return 0;
}

static int history__move(CommandContext *ctx, bool undo) {
  size_t count, done;
  int rc = history__count(ctx, &count);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
  rc = undo ? eddi_doc_undo(doc, count, &done, ctx->err) : eddi_doc_redo(doc, count, &done, ctx->err);
  if (rc < 0) return rc;
  reply_fact(ctx->reply, "%s %zu", undo ? "Undid" : "Redid", done);
  cmd_fact_cursor(ctx, doc);
  return 0;
}

int cmd_undo(CommandContext *ctx) { return history__move(ctx, true); }
int cmd_redo(CommandContext *ctx) { return history__move(ctx, false); }

int cmd_doc_diff(CommandContext *ctx, EddiDoc *doc, size_t *added, size_t *deleted,
                 StrBuf *unified) {
  StrBuf saved = {0};
  int rc = doc->backend->vtable->saved_text(doc->backend, &saved, ctx->err);
  if (rc < 0) {
    strbuf_free(&saved);
    return rc;
  }
  char *now = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
  EddiDiffStats stats;
  eddi_diff(saved.data ? saved.data : "", saved.len, now, eddi_text_len(&doc->text), doc->path,
            &stats, unified);
  *added = stats.added;
  *deleted = stats.deleted;
  eddi_free(now);
  strbuf_free(&saved);
  return 0;
}

int cmd_diff(CommandContext *ctx) {
  if (ctx->argc > 1) return cmd_usage(ctx, "Diff takes at most one file");
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc == 1) {
    char *path = cmd_token_string(&ctx->args[0]);
    bool ambiguous;
    doc = eddi_session_find_doc(ctx->session, path, &ambiguous);
    if (!doc) eddi_error_set(ctx->err, EDDI_ENOENT, ambiguous ? "Ambiguous file name: %s" : "File not open: %s", path);
    eddi_free(path);
    if (!doc) return ctx->err->code;
  }
  size_t added, deleted;
  StrBuf unified = {0};
  int rc = cmd_doc_diff(ctx, doc, &added, &deleted, ctx->reply->raw_mode ? &unified : NULL);
  if (rc == 0) {
    if (added == 0 && deleted == 0) reply_payload(ctx->reply, "No changes");
    else reply_payload(ctx->reply, "+%zu -%zu lines", added, deleted);
    reply_raw(ctx->reply, unified.data, unified.len);
  }
  strbuf_free(&unified);
  return rc;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec history_commands[] = {
    {"Undo", "Undo [count]", "undo commands", CMD_FILE, cmd_undo},
    {"Redo", "Redo [count]", "redo undone commands", CMD_FILE, cmd_redo},
    {"Diff", "Diff [<file>]", "changes since the last save", CMD_FILE, cmd_diff},
};
COMMAND_GROUP(history_command_group, history_commands);
