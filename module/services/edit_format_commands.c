/* edit_format_commands.c - Read, Grep, Edit, Patch, Update: the edit formats
 * models already speak (module/edit/edit_formats.h), as EddiSpeak commands.
 *
 * The body commands take the rest of the message as it is. Every reply of a
 * change carries the file's new tag and a numbered preview of the changed
 * region, so a model can chain edits without reading the file again; in raw
 * mode they follow the reply line, otherwise they are escaped into it. */
#include "services/commands.h"

#include "edit/edit_formats.h"
#include "edit/grep.h"

/* The payload text: escaped into the reply line, or after it in raw mode. */
static void edit_format__block(CommandContext *ctx, const char *text, size_t len) {
  while (len && text[len - 1] == '\n') len--;
  if (ctx->reply->raw_mode) {
    eddi_reply_builder_raw(ctx->reply, text, len);
    eddi_reply_builder_raw(ctx->reply, "\n", 1);
  } else {
    eddi_strbuf_escape(&ctx->reply->payload, text, len, false);
  }
}

static int edit_format__report(CommandContext *ctx, EddiEditReport *report, int rc) {
  if (rc == 0) {
    StrBuf text = {0};
    eddi_edit_report_render(report, &text);
    edit_format__block(ctx, text.data, text.len);
    eddi_strbuf_free(&text);
  }
  eddi_edit_report_free(report);
  return rc;
}

/* ---------------------------------------------------------------- Read, Grep */

static int edit_format__offset(CommandContext *ctx, const Token *token, size_t *value) {
  if (token->kind != TOKEN_INT || token->first < 0)
    return eddi_command_usage(ctx, "Expected a line number, got '%.*s'", (int)token->source_len,
                     token->source);
  *value = (size_t)token->first;
  return 0;
}

static int cmd_read(CommandContext *ctx) {
  size_t i = 0, offset = 0, limit = 0;
  char *path = NULL;
  if (i < ctx->argc && ctx->args[i].kind != TOKEN_INT) path = eddi_command_token_string(&ctx->args[i++]);
  int rc = 0;
  if (i < ctx->argc) rc = edit_format__offset(ctx, &ctx->args[i++], &offset);
  if (rc == 0 && i < ctx->argc) rc = edit_format__offset(ctx, &ctx->args[i++], &limit);
  if (rc == 0 && i < ctx->argc) rc = eddi_command_usage(ctx, "Read takes [<file>] [<offset>] [<limit>]");
  if (rc == 0 && !path) {
    if (!ctx->session->current) {
      rc = eddi_error_set(ctx->err, EDDI_ESTATE, "No file open");
      eddi_error_hint(ctx->err, "Name one: Read <file>");
    } else {
      path = eddi_strdup(ctx->session->current->path);
    }
  }
  StrBuf out = {0};
  if (rc == 0)
    rc = eddi_edit_read(ctx->workspace, ctx->session, path, offset, limit, &out, ctx->err);
  if (rc == 0) edit_format__block(ctx, out.data, out.len);
  eddi_strbuf_free(&out);
  eddi_free(path);
  return rc;
}

/* Grep is long work (session/job.h): the walk and the search run on
 * workers, and other senders are answered meanwhile. */
typedef struct {
  EddiJob base;
  EddiGrep *grep;
} GrepJob;

static void grep_job__work(EddiJob *base) { eddi_grep_run(((GrepJob *)base)->grep); }

static int grep_job__finish(EddiJob *base, CommandContext *ctx) {
  StrBuf out = {0};
  int rc = eddi_grep_finish(((GrepJob *)base)->grep, ctx->workspace, ctx->session, &out, ctx->err);
  if (rc == 0) edit_format__block(ctx, out.data, out.len);
  eddi_strbuf_free(&out);
  return rc;
}

static void grep_job__destroy(EddiJob *base) {
  eddi_grep_free(((GrepJob *)base)->grep);
  eddi_free(base);
}

static int cmd_grep(CommandContext *ctx) {
  if (ctx->argc < 1 || ctx->argc > 3)
    return eddi_command_usage(ctx, "Grep needs a /regex/ or \"text\"");
  const Token *pattern = &ctx->args[0];
  if (pattern->kind != TOKEN_REGEX && pattern->kind != TOKEN_STRING)
    return eddi_command_usage(ctx, "Grep's pattern must be a /regex/ or a \"quoted string\"");
  size_t i = 1, offset = 0;
  char *glob = NULL;
  if (i < ctx->argc && ctx->args[i].kind != TOKEN_INT) glob = eddi_command_token_string(&ctx->args[i++]);
  int rc = 0;
  if (i < ctx->argc) rc = edit_format__offset(ctx, &ctx->args[i++], &offset);
  if (rc == 0 && i < ctx->argc) rc = eddi_command_usage(ctx, "Grep takes /regex/ [<glob>] [<offset>]");
  EddiGrep *grep = NULL;
  if (rc == 0) {
    /* A quoted string is searched as literal text. */
    StrBuf regex = {0};
    eddi_strbuf_puts(&regex, "");
    if (pattern->kind == TOKEN_STRING) eddi_strbuf_puts(&regex, "\\Q");
    eddi_strbuf_append(&regex, pattern->text, pattern->len);
    if (pattern->kind == TOKEN_STRING) eddi_strbuf_puts(&regex, "\\E");
    EddiGrepQuery query = {regex.data, regex.len, pattern->flags, glob, offset};
    rc = eddi_grep_prepare(ctx->workspace, ctx->session, &query, &grep, ctx->err);
    if (rc < 0) eddi_command_hint_pattern(ctx, pattern);
    eddi_strbuf_free(&regex);
  }
  eddi_free(glob);
  if (rc < 0) return rc;
  GrepJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = grep_job__work;
  job->base.finish = grep_job__finish;
  job->base.destroy = grep_job__destroy;
  job->grep = grep;
  return eddi_job_start(ctx, &job->base);
}

/* ---------------------------------------------------------------- body commands */

static int edit_format__need_body(CommandContext *ctx, const char *what) {
  const char *p = ctx->body, *end = ctx->body + ctx->body_len;
  while (p && p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
  if (p && p < end) return 0;
  eddi_error_set(ctx->err, EDDI_EINVAL, "%s needs a body: the lines after the command", what);
  eddi_error_hint(ctx->err, "Usage: %s", ctx->spec ? ctx->spec->syntax : what);
  return EDDI_EINVAL;
}

static int cmd_edit(CommandContext *ctx) {
  if (ctx->argc) return eddi_command_usage(ctx, "Edit takes no arguments; the patch follows on the next lines");
  int rc = edit_format__need_body(ctx, "Edit");
  if (rc < 0) return rc;
  EddiEditReport report = {0};
  rc =
      eddi_edit_hashline(ctx->workspace, ctx->session, ctx->body, ctx->body_len, &report, ctx->err);
  return edit_format__report(ctx, &report, rc);
}

static int cmd_patch(CommandContext *ctx) {
  if (ctx->argc) return eddi_command_usage(ctx, "Patch takes no arguments; the patch follows on the next lines");
  int rc = edit_format__need_body(ctx, "Patch");
  if (rc < 0) return rc;
  EddiEditReport report = {0};
  rc = eddi_edit_apply_patch(ctx->workspace, ctx->session, ctx->body, ctx->body_len, &report,
                             ctx->err);
  return edit_format__report(ctx, &report, rc);
}

static int cmd_update(CommandContext *ctx) {
  if (ctx->argc > 1) return eddi_command_usage(ctx, "Update takes one path");
  int rc = edit_format__need_body(ctx, "Update");
  if (rc < 0) return rc;
  char *path = ctx->argc ? eddi_command_token_string(&ctx->args[0]) : NULL;
  EddiEditReport report = {0};
  rc = eddi_edit_update(ctx->workspace, ctx->session, path, ctx->body, ctx->body_len, &report,
                        ctx->err);
  if (rc == EDDI_EINVAL && !path && !ctx->err->hint[0])
    eddi_error_hint(ctx->err, "Usage: %s", ctx->spec->syntax);
  eddi_free(path);
  return edit_format__report(ctx, &report, rc);
}

/* ---------------------------------------------------------------- table */

static const CommandSpec edit_format_commands[] = {
    {"Read", "Read [<file>] [<offset>] [<limit>]",
     "hashline read: [PATH#TAG] then N:TEXT rows, a page at a time", CMD_SESSION | CMD_READ_ONLY,
     cmd_read},
    {"Grep", "Grep </regex/|\"text\"> [<glob>] [<offset>]",
     "matches grouped under [PATH#TAG] headers, a page at a time", CMD_SESSION | CMD_READ_ONLY,
     cmd_grep},
    {"Edit", "Edit + body: [PATH#TAG] sections of PUT/CUT/REM/MV",
     "hashline edit, all files validated before any is written", CMD_SESSION | CMD_TAKES_BODY,
     cmd_edit},
    {"Patch", "Patch + body: *** Begin Patch ... *** End Patch",
     "Codex apply_patch, atomic", CMD_SESSION | CMD_TAKES_BODY, cmd_patch},
    {"Update", "Update [<path>] + body: <change> blocks or SEARCH/REPLACE blocks",
     "file.update (creates a missing file) or SEARCH/REPLACE", CMD_SESSION | CMD_TAKES_BODY,
     cmd_update},
};
COMMAND_GROUP(eddi_edit_format_commands, edit_format_commands);
