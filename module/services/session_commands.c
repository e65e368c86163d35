/* session_commands.c - Start, End, Summary, Status, Set. */
#include "services/commands.h"

#include <sys/stat.h>

#include "core/disk_backend.h"
#include "core/path.h"
#include "services/script_commands.h"
#include "services/structure.h"

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
  EddiSessionManager *sessions = eddi_workspace_sessions(ctx->workspace);
  EddiSession *existing = eddi_sessions_by_name(sessions, name->text);
  if (existing && existing == ctx->session && existing->resumed) {
    /* Back after a restart (session/journal.h): say what came back, once. */
    eddi_reply_builder_fact(ctx->reply, "Session %s resumed, %s", existing->name,
                            existing->resumed);
    eddi_free(existing->resumed);
    existing->resumed = NULL;
    return 0;
  }
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
  eddi_sessions_end(eddi_workspace_sessions(ctx->workspace), ctx->session);
  ctx->session = NULL;
  /* An ended session keeps nothing (the journal forgets it at its next
   * sync): say what was done, not "saved". */
  eddi_reply_builder_fact(ctx->reply, "Session ended");
  return 0;
}

/* ---------------------------------------------------------------- Summary */

/* One file of a Summary: what the session saved of it and what is still
 * unsaved, summed. */
typedef struct {
  const char *path;
  bool created;
  size_t added, deleted;
  const FileChanges *saved; /* NULL: never saved in the session */
  EddiDoc *doc;             /* open, or NULL */
  bool unsaved;
} SummaryFile;

typedef Array(SummaryFile) SummaryFiles;

static SummaryFile *summary__file(SummaryFiles *files, const char *path) {
  for (size_t i = 0; i < files->len; i++)
    if (strcmp(files->items[i].path, path) == 0) return &files->items[i];
  array_push(files, ((SummaryFile){.path = path}));
  return array_back(files);
}

/* The files the session changed: saved ones in the order of their first
 * save, then unsaved ones in the order they were opened. */
static int summary__files(CommandContext *ctx, SummaryFiles *files) {
  EddiSession *session = ctx->session;
  for (size_t i = 0; i < session->changes.len; i++) {
    const FileChanges *change = &session->changes.items[i];
    SummaryFile *file = summary__file(files, change->path);
    file->saved = change;
    file->created = change->created;
    file->added += change->added;
    file->deleted += change->deleted;
  }
  for (size_t i = 0; i < session->docs.len; i++) {
    EddiDoc *doc = session->docs.items[i];
    bool known = false;
    for (size_t k = 0; k < files->len; k++) known |= strcmp(files->items[k].path, doc->path) == 0;
    if (!known && !eddi_doc_modified(doc)) continue;
    SummaryFile *file = summary__file(files, doc->path);
    file->doc = doc;
    if (!eddi_doc_modified(doc)) continue;
    size_t added, deleted;
    int rc = eddi_command_doc_diff(ctx, doc, &added, &deleted, NULL);
    if (rc < 0) return rc;
    file->created |= doc->is_new && !file->saved;
    file->added += added;
    file->deleted += deleted;
    file->unsaved = true;
  }
  return 0;
}

/* The file as it is now: the open document, else the file on disk. */
static EddiOutline *summary__outline_now(CommandContext *ctx, const SummaryFile *file) {
  if (file->doc) return eddi_structure_outline_doc(ctx, file->doc);
  char *abs = eddi_path_join(eddi_workspace_root(ctx->workspace), file->path);
  StrBuf text = {0};
  EddiFileFormat format;
  EddiFileStamp stamp;
  unsigned mode;
  EddiError ignored;
  EddiOutline *outline = NULL;
  if (eddi_disk_load(abs, false, eddi_workspace_config(ctx->workspace)->max_file_bytes, &format,
                     &stamp, &mode, &text, &ignored) == 0)
    outline = eddi_structure_outline_text(ctx, file->path, text.data, text.len);
  eddi_strbuf_free(&text);
  eddi_free(abs);
  return outline;
}

/* The file's structural changes, from before the session changed it (when
 * that is known) to now: counted into counts, named into named. */
static void summary__compare(CommandContext *ctx, const SummaryFile *file, StructureCounts *counts,
                             StrBuf *named) {
  const EddiOutline *before = file->saved ? file->saved->before : NULL;
  EddiOutline *own = NULL;
  if (!before && file->created) before = own = eddi_outline_empty();
  else if (!before && !file->saved && file->doc)
    before = own = eddi_structure_outline_saved(ctx, file->doc);
  EddiOutline *now = before ? summary__outline_now(ctx, file) : NULL;
  eddi_structure_compare(before, now, counts, named);
  eddi_outline_free(now);
  eddi_outline_free(own);
}

/* "Created src/a.py (156 bytes)" / "Modified b.py (+3 -1 lines)", and
 * "unsaved" when some of it is not saved. */
static void summary__say_file(CommandContext *ctx, const SummaryFile *file, StrBuf *out) {
  if (file->created) {
    size_t bytes = 0;
    if (file->doc && file->unsaved) {
      bytes = eddi_text_len(&file->doc->text);
    } else {
      char *abs = eddi_path_join(eddi_workspace_root(ctx->workspace), file->path);
      struct stat st;
      if (stat(abs, &st) == 0) bytes = (size_t)st.st_size;
      eddi_free(abs);
    }
    eddi_strbuf_printf(out, "Created %s (%zu %s", file->path, bytes, plural(bytes, "byte", "bytes"));
  } else {
    eddi_strbuf_printf(out, "Modified %s (+%zu -%zu lines", file->path, file->added, file->deleted);
  }
  eddi_strbuf_printf(out, "%s)", file->unsaved ? ", unsaved" : "");
}

int eddi_run_summary(CommandContext *ctx) {
  int rc = session__check_name(ctx);
  if (rc < 0) return rc;
  SummaryFiles files = {0};
  rc = summary__files(ctx, &files);
  size_t created = 0, modified = 0, added = 0, deleted = 0, unsaved = 0;
  StructureCounts counts = {0};
  StrBuf per_file = {0};
  for (size_t i = 0; rc == 0 && i < files.len; i++) {
    const SummaryFile *file = &files.items[i];
    if (!file->created && !file->added && !file->deleted) continue;
    created += file->created;
    modified += !file->created;
    added += file->added;
    deleted += file->deleted;
    unsaved += file->unsaved;
    if (per_file.len) eddi_strbuf_putc(&per_file, '\n');
    summary__say_file(ctx, file, &per_file);
    summary__compare(ctx, file, &counts, &per_file);
  }
  if (rc == 0 && !per_file.len) {
    eddi_reply_builder_payload(ctx->reply, "No changes");
  } else if (rc == 0) {
    /* The design's words: "Modified 3 files, Added 45 lines, Deleted 12
     * lines, 2 functions created", then each file on a line of its own. */
    StrBuf head = {0};
    if (created) eddi_strbuf_printf(&head, "Created %zu %s, ", created, plural(created, "file", "files"));
    if (modified)
      eddi_strbuf_printf(&head, "Modified %zu %s, ", modified, plural(modified, "file", "files"));
    eddi_strbuf_printf(&head, "Added %zu %s, Deleted %zu %s", added, plural(added, "line", "lines"),
                       deleted, plural(deleted, "line", "lines"));
    eddi_structure_say_counts(&counts, &head);
    if (unsaved) eddi_strbuf_printf(&head, ", Unsaved %zu %s", unsaved, plural(unsaved, "file", "files"));
    eddi_reply_builder_payload(ctx->reply, "%s", head.data);
    eddi_reply_builder_text(ctx->reply, "Files", per_file.data, per_file.len);
    eddi_strbuf_free(&head);
  }
  /* What the session's scripts flagged: nothing was written for them,
   * so this is the one place that lists them after their replies. */
  if (rc == 0) eddi_script_session_flags(ctx);
  eddi_strbuf_free(&per_file);
  array_free(&files);
  return rc;
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
};
COMMAND_GROUP(eddi_session_commands, session_commands);

/* Help (the table's own, session/command_table.c) comes between the two in
 * Help's list. */
static const CommandSpec settings_commands[] = {
    {"Set", "Set response_format <escaped|raw>", "session preferences", CMD_SESSION | CMD_READ_ONLY,
     eddi_run_set},
};
COMMAND_GROUP(eddi_settings_commands, settings_commands);
