/* engine.c - eddi_exec: a message in, one reply per command out.
 *
 * The message is checked once (size, UTF-8, sender), then split into command
 * lines. Each line is lexed, its verb looked up, the command's needs checked,
 * and its handler run. A failed command stops the message: the commands
 * after it are not run (they answer Fail "Skipped ..."), because a model's
 * later commands usually assume the earlier ones worked. After each command
 * the edits it made become one undo step in every document it touched.
 *
 * A command may leave long work running (session/job.h): the walk over the
 * message then stops there, and session/job.c takes it up again, at the
 * same line, when the work is done.
 */
#include "session/engine.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/embedded_backend.h"
#include "core/utf8.h"
#include "edit/search.h"
#include "lsp/lsp_servers.h"
#include "lang/message.h"
#include "services/commands.h"
#include "session/command_table.h"
#include "session/audit.h"
#include "session/job.h"
#include "session/journal.h"

/* ---------------------------------------------------------------- ports */

static const CommandSpec *engine__port_find(void *engine, const char *name) {
  return eddi_engine_find_command(engine, name);
}

static bool engine__port_reads_only(void *engine, const EddiCommandLine *line, char *word,
                                    size_t word_size) {
  EDDI_UNUSED(engine);
  return eddi_command_line_reads_only(line, word, word_size);
}

/* A script's command runs to its end: its work is the script's. */
static void engine__port_run_commands(void *engine, const char *sender, const char *text,
                                      size_t len, EddiReply *reply, bool *failed) {
  bool could = eddi_jobs_may_pend(engine, false);
  size_t rest;
  eddi_engine_run_commands(engine, sender, text, len, reply, failed, &rest);
  eddi_jobs_may_pend(engine, could);
}

/* ---------------------------------------------------------------- the engine */

EddiEngine *eddi_engine_new(const char *root, const EddiConfig *config, char *error,
                            size_t error_size) {
  char real[PATH_MAX];
  struct stat st;
  if (!realpath(root, real)) {
    snprintf(error, error_size, "Workspace root %s: %s", root, strerror(errno));
    return NULL;
  }
  if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
    snprintf(error, error_size, "Workspace root %s is not a folder", root);
    return NULL;
  }
  if (config && !eddi_lsp_commands_valid(config->lsp_commands, error, error_size)) return NULL;
  int root_fd;
  EddiError fs_err;
  if (eddi_fs_root_open(real, &root_fd, &fs_err) < 0) {
    snprintf(error, error_size, "%s", fs_err.what);
    return NULL;
  }
  EddiEngine *self = eddi_calloc(1, sizeof *self);
  self->workspace = eddi_workspace_new(real, root_fd, config);
  self->sessions = eddi_workspace_sessions(self->workspace);
  self->ports = (EddiCommandPorts){
      .engine = self,
      .find = engine__port_find,
      .line_reads_only = engine__port_reads_only,
      .start_job = eddi_engine_start_job,
      .run_commands = engine__port_run_commands,
  };
  eddi_registry_init(&self->registry);
  self->every_sender_allowed = true;
  return self;
}

void eddi_engine_free(EddiEngine *self) {
  if (!self) return;
  eddi_jobs_free(self); /* first: no work may outlive what it was for */
  eddi_journal_close(self->journal);
  eddi_workspace_free(self->workspace);
  eddi_pattern_cache_clear();
  eddi_registry_destroy(&self->registry);
  eddi_audit_free(self->audit);
  eddi_strbuf_free(&self->recovered_audit);
  eddi_free(self->instance);
  eddi_free(self->resume_only);
  eddi_engine_set_policy(self, NULL);
  eddi_free(self);
}

const char *eddi_engine_root(const EddiEngine *self) {
  return eddi_workspace_root(self->workspace);
}

const EddiConfig *eddi_engine_config(const EddiEngine *self) {
  return eddi_workspace_config(self->workspace);
}

const char *eddi_engine_state_dir(EddiEngine *self, char *error, size_t error_size) {
  return eddi_workspace_state_dir(self->workspace, error, error_size);
}

void eddi_engine_workspace_id(const EddiEngine *self, char out[EDDI_WORKSPACE_ID_SIZE]) {
  eddi_workspace_id(self->workspace, out);
}

/* ---------------------------------------------------------------- journal */

/* Open the journal and settle what a crashed process left (its writes,
 * its log), without taking back any session yet. */
static int engine__open_journal_file(EddiEngine *self, StrBuf *lines, char *error,
                                     size_t error_size) {
  const char *state = eddi_engine_state_dir(self, error, error_size);
  if (!state) return EDDI_EIO;
  EddiError err;
  eddi_error_clear(&err);
  int rc = eddi_journal_open(state, self->instance, &self->journal, lines, &err);
  if (rc < 0) {
    snprintf(error, error_size, "%s", err.what);
    return rc;
  }
  eddi_journal_recover_writes(self->journal, eddi_workspace_root_fd(self->workspace), lines,
                              self->instance, &self->recovered_audit);
  eddi_engine_update_hooks(self);
  self->journal_unrestored = true;
  return 0;
}

int eddi_engine_open_journal(EddiEngine *self, char *report, size_t report_size, char *error,
                             size_t error_size) {
  if (report_size) report[0] = '\0';
  if (self->journal && !self->journal_unrestored) return 0;
  StrBuf lines = {0};
  int rc = self->journal ? 0 : engine__open_journal_file(self, &lines, error, error_size);
  if (rc == 0) {
    self->journal_unrestored = false;
    rc = eddi_journal_restore(self->journal, self, &lines);
    if (rc < 0) snprintf(error, error_size, "Journal: cannot read its sessions");
  }
  /* The report's lines, without the last newline. */
  if (lines.len && lines.data[lines.len - 1] == '\n') lines.data[--lines.len] = '\0';
  if (report_size) snprintf(report, report_size, "%s", lines.len ? lines.data : "");
  eddi_strbuf_free(&lines);
  return rc;
}

bool eddi_engine_journaled(const EddiEngine *self) { return self->journal != NULL; }

void eddi_engine_set_resume_only(EddiEngine *self, const char *names) {
  eddi_free(self->resume_only);
  self->resume_only = names ? eddi_strdup(names) : NULL;
}

int eddi_engine_journal_sessions(EddiEngine *self, char **out, char *error, size_t error_size) {
  *out = NULL;
  /* Opened first: a crashed process's last records are in its log until
   * the journal takes them in. The sessions come back only with
   * eddi_engine_open_journal. */
  if (!self->journal) {
    StrBuf ignored = {0};
    int rc = engine__open_journal_file(self, &ignored, error, error_size);
    eddi_strbuf_free(&ignored);
    if (rc < 0) return rc;
  }
  StrBuf lines = {0};
  eddi_strbuf_puts(&lines, "");
  eddi_journal_flush(self->journal);
  int rc = eddi_journal_list_file(eddi_journal_path(self->journal), &lines);
  if (rc < 0) {
    snprintf(error, error_size, "Journal: cannot read its sessions");
    eddi_strbuf_free(&lines);
    return rc;
  }
  *out = eddi_strbuf_take(&lines);
  return 0;
}

size_t eddi_engine_take_over(EddiEngine *self, const char *instance, char *report,
                             size_t report_size) {
  if (report_size) report[0] = '\0';
  if (!self->journal || !instance) return 0;
  size_t before = self->sessions->sessions.len;
  StrBuf lines = {0};
  eddi_journal_take_over(self->journal, self, instance, &lines);
  /* The other instances learn where the sessions live now. */
  for (size_t i = before; i < self->sessions->sessions.len && self->session_listener; i++) {
    EddiSession *session = self->sessions->sessions.items[i];
    EddiSessionEvent event = {EDDI_SESSION_STARTED, session->name, session->sender,
                              self->instance ? self->instance : ""};
    self->session_listener(self->session_listener_closure, &event);
  }
  if (lines.len && lines.data[lines.len - 1] == '\n') lines.data[--lines.len] = '\0';
  if (report_size) snprintf(report, report_size, "%s", lines.len ? lines.data : "");
  eddi_strbuf_free(&lines);
  return self->sessions->sessions.len - before;
}

/* The first reply to a sender whose session was taken over says so. */
static void engine__note_taken_over(EddiEngine *self, const char *sender, EddiReply *reply) {
  EddiSession *session = sender ? eddi_sessions_by_sender(self->sessions, sender) : NULL;
  if (!session || !session->taken_from || reply->pending || reply->count == 0) return;
  StrBuf text = {0};
  eddi_strbuf_printf(&text, "Ok, Session %s taken over from %s\n%s", session->name,
                     session->taken_from, reply->items[0].text);
  eddi_free(reply->items[0].text);
  reply->items[0].text = eddi_strbuf_take(&text);
  eddi_free(session->taken_from);
  session->taken_from = NULL;
}

/* ---------------------------------------------------------------- liveness */

size_t eddi_engine_instances(EddiEngine *self, char (*names)[EDDI_INSTANCE_NAME_MAX + 1],
                             size_t max) {
  return eddi_registry_instances(&self->registry, names, max);
}

void eddi_engine_instance_answered(EddiEngine *self, const char *instance, bool answered) {
  eddi_registry_answered(&self->registry, instance, answered, eddi_registry_now_ms());
}

size_t eddi_engine_expire_instances(EddiEngine *self, unsigned timeout_ms) {
  return eddi_registry_expire(&self->registry, eddi_registry_now_ms(), timeout_ms);
}

bool eddi_engine_instance_gone(EddiEngine *self, const char *instance) {
  return eddi_registry_dead(&self->registry, instance);
}

bool eddi_engine_instances_unverified(EddiEngine *self) {
  return eddi_registry_take_unverified(&self->registry);
}

/* ---------------------------------------------------------------- backends */

void eddi_engine_set_backend(EddiEngine *self, EddiBackendOpen open, void *context) {
  eddi_workspace_set_backend(self->workspace, open, context);
}

void eddi_engine_set_backend_copies(EddiEngine *self, const EddiBackendCopies *copies) {
  eddi_workspace_set_backend_copies(self->workspace, copies);
}

bool eddi_engine_cursor(const EddiEngine *self, const char *sender, void **backend,
                        size_t *char_index) {
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  EddiDoc *doc = session ? session->current : NULL;
  if (!doc) return false;
  *backend = eddi_embedded_backend_of(doc->backend);
  *char_index = eddi_text_char_index(&doc->text, doc->cursor);
  return true;
}

const char *eddi_engine_session_of(const EddiEngine *self, const char *sender) {
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  return session ? session->name : NULL;
}

void eddi_engine_set_extra_commands(EddiEngine *self, const CommandSpec *commands,
                                    size_t count) {
  self->extra_commands = commands;
  self->extra_command_count = count;
}

const CommandSpec *eddi_engine_find_command(const EddiEngine *self, const char *name) {
  const CommandSpec *spec = eddi_command_table_find(name);
  for (size_t i = 0; !spec && i < self->extra_command_count; i++)
    if (strcasecmp(self->extra_commands[i].name, name) == 0) spec = &self->extra_commands[i];
  return spec;
}

/* ---------------------------------------------------------------- replies */

static void engine__push(EddiReply *reply, bool ok, char *text, size_t *cap) {
  if (reply->count == *cap) {
    *cap = *cap ? *cap * 2 : 4;
    reply->items = eddi_realloc(reply->items, *cap * sizeof *reply->items);
  }
  reply->items[reply->count].ok = ok;
  reply->items[reply->count].text = text;
  reply->count++;
}

static void engine__push_fail(EddiReply *reply, const EddiError *err, size_t *cap) {
  engine__push(reply, false, eddi_fail_format(err), cap);
}


/* ---------------------------------------------------------------- commands */

/* Check what the command needs before running it: a session, a current file
 * whose mirror is in step with its backing text. */
static int engine__prepare(CommandContext *ctx, const CommandSpec *spec) {
  if (!(spec->flags & CMD_NEEDS_SESSION)) return 0;
  if (!ctx->session) {
    eddi_error_set(ctx->err, EDDI_ESTATE,
                   "No session exists and this is not a session command");
    eddi_error_hint(ctx->err, "Start one with \"Start <name>\"");
    return EDDI_ESTATE;
  }
  if (!(spec->flags & CMD_NEEDS_FILE)) {
    /* Status, List, Close... report on the current document too, so its
     * mirror should be fresh; but a backend that cannot sync (a killed
     * buffer) must not stop them: Close is how one gets out of that. */
    EddiError ignored;
    if (ctx->session->current) eddi_doc_sync(ctx->session->current, &ignored);
    return 0;
  }
  if (!ctx->session->current) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "No file open");
    eddi_error_hint(ctx->err, "Open one with \"Open <file>\"");
    return EDDI_ESTATE;
  }
  return eddi_doc_sync(ctx->session->current, ctx->err);
}

void eddi_engine_end_groups(EddiEngine *self, const char *sender) {
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  for (size_t i = 0; session && i < session->docs.len; i++)
    eddi_doc_end_group(session->docs.items[i]);
  /* The command is complete: the journal catches up with it. */
  if (self->journal) eddi_journal_sync_sender(self->journal, self, sender);
}

/* Run spec as sender after its checks: its handler with args (and line's
 * body when it takes one), or with job its job's finish. The one place a
 * CommandContext is made for a command. */
static int engine__run_spec(EddiEngine *self, const char *sender, const CommandSpec *spec,
                            const TokenList *tokens, const EddiCommandLine *line, EddiJob *job,
                            char **reply_text, EddiError *err) {
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  EddiReplyBuilder reply;
  eddi_reply_builder_init(&reply, session && session->raw_payloads);
  CommandContext ctx = {
      .workspace = self->workspace,
      .ports = &self->ports,
      .spec = spec,
      .session = session,
      .sender = sender,
      .args = tokens ? tokens->items + 1 : NULL,
      .argc = tokens ? tokens->len - 1 : 0,
      .reply = &reply,
      .err = err,
  };
  if (line && (spec->flags & CMD_TAKES_BODY)) {
    ctx.body = line->body;
    ctx.body_len = line->body_len;
  }
  int rc = engine__prepare(&ctx, spec);
  if (rc == 0) rc = job ? job->finish(job, &ctx) : spec->run(&ctx);
  /* The command is over: its edits are one undo step per document. */
  eddi_engine_end_groups(self, sender);
  if (rc == 0) *reply_text = eddi_reply_builder_finish(&reply);
  eddi_reply_builder_free(&reply);
  return rc;
}

int eddi_engine_finish_job(EddiEngine *self, const char *sender, const CommandSpec *spec,
                           EddiJob *job, char **reply_text, EddiError *err) {
  return engine__run_spec(self, sender, spec, NULL, NULL, job, reply_text, err);
}

static int engine__run_line(EddiEngine *self, const char *sender, const EddiCommandLine *line,
                            char **reply_text, EddiError *err) {
  TokenList tokens = {0};
  int rc = eddi_lex_line(line->line, line->len, &tokens, err);
  if (rc < 0) return rc;
  const Token *verb = &tokens.items[0];
  const CommandSpec *spec = verb->kind == TOKEN_WORD ? eddi_engine_find_command(self, verb->text)
                                                     : NULL;
  if (!spec) {
    if (verb->source[0] == '{') {
      rc = eddi_error_set(err, EDDI_EINVAL, "Scripts ({ ... }) are not supported yet");
    } else if (verb->kind == TOKEN_WORD && eddi_command_planned(verb->text)) {
      rc = eddi_error_set(err, EDDI_EINVAL, "%s is not built yet", verb->text);
    } else {
      rc = eddi_error_set(err, EDDI_EINVAL, "Unknown command '%.*s'",
                          (int)eddi_utf8_complete_prefix(verb->source,
                                                    EDDI_MIN(verb->source_len, (size_t)64)),
                          verb->source);
      const char *near = verb->kind == TOKEN_WORD ? eddi_command_suggest(verb->text) : NULL;
      if (near) eddi_error_hint(err, "Did you mean \"%s\"", near);
      else eddi_error_hint(err, "Help lists the commands");
    }
    eddi_tokens_free(&tokens);
    return rc;
  }
  rc = engine__run_spec(self, sender, spec, &tokens, line, NULL, reply_text, err);
  eddi_tokens_free(&tokens);
  return rc;
}

/* Refuse what no command should see: an unnamed sender, an oversized message,
 * bytes that are not UTF-8. */
static int engine__check_message(EddiEngine *self, const char *sender, const char *text,
                                 size_t len, EddiError *err) {
  if (!sender || !sender[0] || strlen(sender) > EDDI_SENDER_NAME_MAX)
    return eddi_error_set(err, EDDI_EINVAL, "Invalid sender");
  if (len > eddi_engine_config(self)->max_message_bytes)
    return eddi_error_set(err, EDDI_ETOOBIG, "Message too large (%zu bytes, limit %zu)", len,
                          eddi_engine_config(self)->max_message_bytes);
  size_t valid = eddi_utf8_valid_prefix(text, len);
  if (valid != len)
    return eddi_error_set(err, EDDI_EINVAL, "Message is not valid UTF-8 (byte %zu)", valid);
  if (memchr(text, '\0', len))
    return eddi_error_set(err, EDDI_EINVAL, "Message contains a NUL byte");
  return 0;
}

/* ---------------------------------------------------------------- messages */

/* How far verb's command reaches past its line (the table's). */
static EddiLineReach engine__reach(void *context, const char *verb) {
  EDDI_UNUSED(context);
  return eddi_command_reach(eddi_command_table_find(verb));
}

void eddi_each_command(const char *text, size_t len,
                       bool (*visit)(const EddiCommandLine *line, void *closure), void *closure) {
  eddi_message_each_line(text, len, engine__reach, NULL, visit, closure);
}

static bool engine__note_open_block(const EddiCommandLine *line, void *closure) {
  bool *open = closure;
  *open |= line->block_open;
  return true;
}

bool eddi_message_open_block(const char *text, size_t len) {
  bool open = false;
  eddi_each_command(text, len, engine__note_open_block, &open);
  return open;
}

/* The state of a walk over a message's commands. */
typedef struct {
  EddiEngine *engine;
  const char *sender;
  EddiReply *reply;
  size_t cap;
  EddiError err;
  bool failed;
  const char *rest; /* a command went pending: the message goes on here */
} ExecWalk;

/* Run one command; after a failure the rest are skipped, one reply each. */
static bool engine__exec_line(const EddiCommandLine *line, void *closure) {
  ExecWalk *walk = closure;
  if (walk->failed) {
    eddi_error_set(&walk->err, EDDI_ESTATE, "Skipped: an earlier command failed");
    engine__push_fail(walk->reply, &walk->err, &walk->cap);
    return true;
  }
  char *ok_text = NULL;
  eddi_error_clear(&walk->err);
  int rc = engine__run_line(walk->engine, walk->sender, line, &ok_text, &walk->err);
  if (rc == EDDI_EPENDING) {
    /* Its reply comes with its finish; a body was its own. */
    walk->rest = line->takes_body ? line->body + line->body_len : line->body;
    return false;
  }
  if (rc < 0) {
    engine__push_fail(walk->reply, &walk->err, &walk->cap);
    walk->failed = true;
  } else {
    engine__push(walk->reply, true, ok_text, &walk->cap);
  }
  return true;
}

bool eddi_engine_run_commands(EddiEngine *self, const char *sender, const char *text,
                              size_t len, EddiReply *reply, bool *failed, size_t *rest) {
  ExecWalk walk = {.engine = self, .sender = sender, .reply = reply, .cap = reply->count,
                   .failed = *failed};
  eddi_each_command(text, len, engine__exec_line, &walk);
  *failed = walk.failed;
  if (!walk.rest) return false;
  *rest = (size_t)(walk.rest - text);
  return true;
}

/* A message's checks, a Replace Confirm's answer, or its commands; true
 * when a command went pending (then *rest is where the message goes on). */
static bool engine__exec(EddiEngine *self, const char *sender, const char *text, size_t len,
                         EddiReply *reply, bool *failed, size_t *rest) {
  memset(reply, 0, sizeof *reply);
  size_t cap = 0;
  EddiError err;
  eddi_error_clear(&err);
  if (engine__check_message(self, sender, text, len, &err) < 0) {
    engine__push_fail(reply, &err, &cap);
    return false;
  }

  /* A pending Replace Confirm takes y/n/all/quit; anything else ends it. */
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  if (session && eddi_replace_confirm_pending(session)) {
    char answer[8];
    if (eddi_command_is_confirm_answer(text, len, answer, sizeof answer)) {
      EddiReplyBuilder builder;
      eddi_reply_builder_init(&builder, session->raw_payloads);
      CommandContext ctx = {.workspace = self->workspace, .ports = &self->ports,
                            .session = session, .sender = sender, .reply = &builder,
                            .err = &err};
      int rc = eddi_command_replace_answer(&ctx, answer);
      eddi_engine_end_groups(self, sender);
      if (rc == 0) engine__push(reply, true, eddi_reply_builder_finish(&builder), &cap);
      else engine__push_fail(reply, &err, &cap);
      eddi_reply_builder_free(&builder);
      return false;
    }
    eddi_replace_confirm_cancel(session);
  }

  if (eddi_engine_run_commands(self, sender, text, len, reply, failed, rest)) return true;
  if (reply->count == 0) {
    eddi_error_set(&err, EDDI_EINVAL, "Empty message");
    eddi_error_hint(&err, "Help lists the commands");
    engine__push_fail(reply, &err, &cap);
  }
  return false;
}

void eddi_exec_reply(EddiEngine *self, const char *sender, const char *text, size_t len,
                     EddiReply *reply) {
  /* After what the sender asked before, and never pending itself. */
  EddiRequest earlier = {.sender = sender};
  if (sender) eddi_jobs_wait(self, &earlier);
  bool could = eddi_jobs_may_pend(self, false), failed = false;
  size_t rest;
  engine__exec(self, sender, text, len, reply, &failed, &rest);
  eddi_jobs_may_pend(self, could);
}

void eddi_engine_run_request(EddiEngine *self, const char *sender, const char *before,
                             const EddiRequest *request, EddiReply *reply) {
  bool could = eddi_jobs_may_pend(self, true), failed = false;
  size_t rest = 0;
  bool pending = engine__exec(self, sender, request->text, request->len, reply, &failed, &rest);
  eddi_jobs_may_pend(self, could);
  if (!pending) engine__note_taken_over(self, sender, reply);
  if (pending) eddi_jobs_hold(self, sender, before, request, reply, failed, rest);
}

char *eddi_exec(EddiEngine *self, const char *sender, const char *text, size_t len) {
  EddiReply reply;
  eddi_exec_reply(self, sender, text, len, &reply);
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (size_t i = 0; i < reply.count; i++) {
    if (i) eddi_strbuf_putc(&out, '\n');
    eddi_strbuf_puts(&out, reply.items[i].text);
  }
  eddi_reply_free(&reply);
  return eddi_strbuf_take(&out);
}

void eddi_string_free(char *text) { eddi_free(text); }

/* ---------------------------------------------------------------- documents */

size_t eddi_engine_each_document(EddiEngine *self, const char *sender,
                                 void (*visit)(void *closure, const char *path, const char *text,
                                               size_t len, bool modified),
                                 void *closure) {
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  if (!session) return 0;
  for (size_t i = 0; i < session->docs.len; i++) {
    EddiDoc *doc = session->docs.items[i];
    size_t len = eddi_text_len(&doc->text);
    char *text = eddi_malloc(len + 1);
    eddi_text_copy(&doc->text, 0, len, text);
    text[len] = '\0';
    visit(closure, doc->path, text, len, eddi_doc_modified(doc));
    eddi_free(text);
  }
  return session->docs.len;
}
