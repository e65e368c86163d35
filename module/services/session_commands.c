/* session_commands.c - Start, End, Summary, Status, Set. */
#include "lang/command.h"

/* "1 file" / "2 files" */
static const char *plural(size_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

int eddi_run_start(CommandContext *ctx) {
  if (ctx->argc < 1 || ctx->argc > 2) return eddi_command_usage(ctx, "Start needs a session name");
  const Token *name = &ctx->args[0];
  if (name->kind == TOKEN_STRING || !eddi_session_name_valid(name->text)) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid session name");
    eddi_error_hint(ctx->err, "Use letters, digits, '_', '-' or '.', at most %d",
                    EDDI_SESSION_NAME_MAX);
    return EDDI_EINVAL;
  }
  if (ctx->argc == 2 && ctx->args[1].kind != TOKEN_STRING)
    return eddi_command_usage(ctx, "Start's description must be a \"quoted string\"");
  EddiSessionManager *sessions = &ctx->engine->sessions;
  EddiSession *existing = eddi_sessions_by_name(sessions, name->text);
  if (existing) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "Session %s already exists", name->text);
    eddi_error_hint(ctx->err, existing == ctx->session ? "It is your session: go on in it"
                                                       : "Choose another name");
    return EDDI_ESTATE;
  }
  if (ctx->session) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "Session %s is active", ctx->session->name);
    eddi_error_hint(ctx->err, "End it first");
    return EDDI_ESTATE;
  }
  eddi_sessions_start(sessions, name->text, ctx->argc == 2 ? ctx->args[1].text : "",
                      ctx->sender);
  return 0;
}

/* The session a command names must be the sender's own. */
static int session__check_name(CommandContext *ctx) {
  if (ctx->argc > 1) return eddi_command_usage(ctx, "%s takes at most a session name", ctx->spec->name);
  if (ctx->argc == 1 && strcmp(ctx->args[0].text, ctx->session->name) != 0) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "Session %s not found", ctx->args[0].text);
    eddi_error_hint(ctx->err, "Your session is %s", ctx->session->name);
    return EDDI_ENOENT;
  }
  return 0;
}

int eddi_run_end(CommandContext *ctx) {
  int rc = session__check_name(ctx);
  if (rc < 0) return rc;
  StrBuf unsaved = {0};
  for (size_t i = 0; i < ctx->session->docs.len; i++) {
    EddiDoc *doc = ctx->session->docs.items[i];
    if (eddi_doc_modified(doc)) eddi_strbuf_printf(&unsaved, "%s%s", unsaved.len ? ", " : "", doc->path);
  }
  if (unsaved.len) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "Unsaved changes in %s", unsaved.data);
    eddi_error_hint(ctx->err, "Save or Close them first");
    eddi_strbuf_free(&unsaved);
    return EDDI_ESTATE;
  }
  eddi_sessions_end(&ctx->engine->sessions, ctx->session);
  ctx->session = NULL;
  /* Nothing of the session is kept yet (the journal is to come): say what
   * was done, not "saved". */
  eddi_reply_builder_fact(ctx->reply, "Session ended");
  return 0;
}

int eddi_run_summary(CommandContext *ctx) {
  int rc = session__check_name(ctx);
  if (rc < 0) return rc;
  EddiSession *session = ctx->session;
  size_t created = 0, modified = 0, added = 0, deleted = 0, unsaved = 0;
  for (size_t i = 0; i < session->changes.len; i++) {
    const FileChanges *change = &session->changes.items[i];
    if (change->created) created++;
    else if (change->added || change->deleted) modified++;
    added += change->added;
    deleted += change->deleted;
  }
  /* Unsaved work counts too, and is said to be unsaved. */
  for (size_t i = 0; i < session->docs.len; i++) {
    EddiDoc *doc = session->docs.items[i];
    if (!eddi_doc_modified(doc)) continue;
    size_t doc_added, doc_deleted;
    rc = eddi_command_doc_diff(ctx, doc, &doc_added, &doc_deleted, NULL);
    if (rc < 0) return rc;
    bool known = false;
    for (size_t k = 0; k < session->changes.len; k++)
      known |= strcmp(session->changes.items[k].path, doc->path) == 0;
    if (!known && doc->is_new) created++;
    else if (!known && (doc_added || doc_deleted)) modified++;
    added += doc_added;
    deleted += doc_deleted;
    unsaved++;
  }
  eddi_reply_builder_payload(ctx->reply, "Created %zu %s, Modified %zu %s, Added %zu %s, Deleted %zu %s",
                created, plural(created, "file", "files"), modified,
                plural(modified, "file", "files"), added, plural(added, "line", "lines"),
                deleted, plural(deleted, "line", "lines"));
  if (unsaved)
    eddi_reply_builder_payload(ctx->reply, ", Unsaved %zu %s", unsaved, plural(unsaved, "file", "files"));
  return 0;
}

int eddi_run_status(CommandContext *ctx) {
  if (ctx->argc) return eddi_command_usage(ctx, "Status takes no arguments");
  EddiSession *session = ctx->session;
  eddi_reply_builder_payload(ctx->reply, "Session %s", session->name);
  EddiDoc *doc = session->current;
  if (!doc) {
    eddi_reply_builder_payload(ctx->reply, ", No file");
    return 0;
  }
  size_t line, col;
  eddi_text_position_of(&doc->text, doc->cursor, &line, &col);
  eddi_reply_builder_payload(ctx->reply, ", File %s, At %zu:%zu, Length %zu", doc->path, line, col,
                eddi_text_line_count(&doc->text));
  if (eddi_doc_modified(doc)) eddi_reply_builder_payload(ctx->reply, ", Modified");
  if (session->docs.len > 1) eddi_reply_builder_payload(ctx->reply, ", Open %zu", session->docs.len);
  return 0;
}

int eddi_run_set(CommandContext *ctx) {
  static const char *const prefs[] = {"response_format"};
  static const char *const formats[] = {"escaped", "raw"};
  if (ctx->argc != 2) return eddi_command_usage(ctx, "Set needs a preference and a value");
  int pref = eddi_command_choose(ctx, &ctx->args[0], "preference", prefs, 1);
  if (pref < 0) return pref;
  int format = eddi_command_choose(ctx, &ctx->args[1], "response_format", formats, 2);
  if (format < 0) return format;
  ctx->session->raw_payloads = format == 1;
  return 0;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec session_commands[] = {
    {"Start", "Start <name> [\"description\"]", "begin a session", CMD_READ_ONLY, eddi_run_start},
    {"End", "End [<name>]", "end the session", CMD_SESSION | CMD_READ_ONLY, eddi_run_end},
    {"Summary", "Summary [<name>]", "what the session changed", CMD_SESSION | CMD_READ_ONLY, eddi_run_summary},
    {"Status", "Status", "session, file, cursor", CMD_SESSION | CMD_READ_ONLY, eddi_run_status},
    {"Help", "Help [<command>]", "commands, or one command's syntax", CMD_READ_ONLY, eddi_run_help},
    {"Set", "Set response_format <escaped|raw>", "session preferences", CMD_SESSION, eddi_run_set},
};
COMMAND_GROUP(eddi_session_commands, session_commands);
