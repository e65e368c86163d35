/* request.c - requests as transports see them: routing, the sender policy,
 * the instance a Start names, session events, and typed calls.
 *
 * Every front end (eddi-server's NATS, stream and stdio transports, the
 * Emacs module and its NATS bridge) hands the engine a request and gets the
 * reply back; what a request may do is decided here once.
 *
 * Routing rules (doc/protocol.org, "Sessions across instances"):
 * - a request naming a session runs only if the session is held here by the
 *   request's own sender (a request naming no sender is the anonymous
 *   sender's): another sender's gets `Fail "Session s belongs to another
 *   sender"`, whoever asks; a session held by another instance gets
 *   `Fail "Session s lives on <id>"`, an unknown one `Fail "Session s not
 *   found"` (unless the message starts it): never a silent new session;
 * - a request naming no session runs as its sender (or "anonymous"); if that
 *   sender's session lives on another instance, the request is refused the
 *   same way, so a sender never has two sessions.
 * Sessions are noticed by comparing the sender's session before and after a
 * request, so this needs no knowledge of the session commands beyond the
 * word Start.
 */
#include <ctype.h>
#include <strings.h>

#include "edit/edit_formats.h"
#include "workspace/command.h"
#include "lang/lexer.h"
#include "services/query_call.h"
#include "services/refactor_call.h"
#include "session/audit.h"
#include "session/engine.h"
#include "session/command_table.h"
#include "session/job.h"
#include "session/journal.h"
#include "services/commands.h"

/* Enough for ", Instance <id>" after a reply. */
#define REQUEST_INSTANCE_SUFFIX_MAX (EDDI_INSTANCE_NAME_MAX + 16)
/* The word of a command a read-only sender may not run is cut to this. */
#define REQUEST_WORD_MAX 32

/* ------------------------------------------------------------ settings */

static void request__strings_free(EddiStringList *list) {
  for (size_t i = 0; i < list->len; i++) eddi_free(list->items[i]);
  array_free(list);
}

static void request__strings_copy(EddiStringList *list, const char *const *from) {
  request__strings_free(list);
  for (size_t i = 0; from && from[i]; i++) array_push(list, eddi_strdup(from[i]));
}

static bool request__strings_have(const EddiStringList *list, const char *name) {
  for (size_t i = 0; i < list->len; i++)
    if (strcmp(list->items[i], name) == 0) return true;
  return false;
}

int eddi_engine_set_policy(EddiEngine *self, const EddiSenderPolicy *policy) {
  request__strings_copy(&self->allowed_senders, policy ? policy->allowed_senders : NULL);
  request__strings_copy(&self->read_only_senders, policy ? policy->read_only_senders : NULL);
  self->every_sender_allowed = !policy || !policy->allowed_senders;
  return 0;
}

int eddi_engine_set_instance(EddiEngine *self, const char *instance) {
  if (instance && strlen(instance) > EDDI_INSTANCE_NAME_MAX) return EDDI_EINVAL;
  eddi_free(self->instance);
  self->instance = instance && instance[0] ? eddi_strdup(instance) : NULL;
  return 0;
}

void eddi_engine_listen_sessions(EddiEngine *self, EddiSessionListener listener,
                                 void *closure) {
  self->session_listener = listener;
  self->session_listener_closure = closure;
}

int eddi_engine_note_remote_session(EddiEngine *self, const EddiSessionEvent *event) {
  if (!event->session || !event->sender || !event->instance || !event->instance[0])
    return EDDI_EINVAL;
  if (self->instance && strcmp(event->instance, self->instance) == 0) return 0; /* our own */
  if (event->change == EDDI_SESSION_STARTED)
    eddi_registry_add(&self->registry, event->session, event->sender, event->instance);
  else
    eddi_registry_remove(&self->registry, event->session, event->instance);
  return 0;
}

void eddi_engine_each_session(const EddiEngine *self,
                              void (*visit)(void *closure, const char *session,
                                            const char *sender),
                              void *closure) {
  eddi_registry_each_local((EddiRegistry *)&self->registry, visit, closure);
}

size_t eddi_engine_session_count(const EddiEngine *self) {
  return eddi_registry_local_count((EddiRegistry *)&self->registry);
}

bool eddi_engine_remote_session(const EddiEngine *self, const char *session, const char *sender,
                                char *instance, size_t instance_size, char *found,
                                size_t found_size) {
  return eddi_registry_find_remote((EddiRegistry *)&self->registry, session, sender, instance,
                                   instance_size, found, found_size);
}

int eddi_engine_set_audit(EddiEngine *self, const EddiAuditConfig *config, char *error,
                          size_t error_size) {
  eddi_audit_free(self->audit);
  self->audit = NULL;
  if (!config) return 0;
  char path[EDDI_FS_PATH_MAX];
  const char *file = config->path;
  if (!file) {
    const char *state = eddi_engine_state_dir(self, error, error_size);
    if (!state) return EDDI_EIO;
    snprintf(path, sizeof path, "%s/audit.jsonl", state);
    file = path;
  }
  self->audit = eddi_audit_new(file, config, error, error_size);
  eddi_engine_update_hooks(self);
  if (!self->audit) return EDDI_EIO;
  /* The records of what the start-up recovery settled, made before the
   * log was open. */
  eddi_audit_write_lines(self->audit, self->recovered_audit.data ? self->recovered_audit.data : "",
                         self->recovered_audit.len);
  eddi_strbuf_free(&self->recovered_audit);
  return 0;
}

/* ---------------------------------------------------------------- write hooks */

/* A write of the current request, for the audit log. */
static void request__note_write(void *context, const char *rel, const EddiFileStamp *before,
                                const EddiFileStamp *after) {
  EddiEngine *self = context;
  eddi_audit_note_file(self->audit, rel, before, after);
}

static void request__note_folder(void *context, const char *rel) {
  EddiEngine *self = context;
  eddi_journal_note_folder(self->journal, rel);
}

static int request__intent_begin(void *context, const EddiIntentFile *files, size_t count,
                                 const char *session, int64_t *id, EddiError *err) {
  EddiEngine *self = context;
  return eddi_journal_intent_begin(self->journal, files, count, session, id, err);
}

static bool request__intent_done(void *context, int64_t id) {
  EddiEngine *self = context;
  return eddi_journal_intent_done(self->journal, id);
}

void eddi_engine_update_hooks(EddiEngine *self) {
  EddiWriteHooks hooks = {.context = self};
  if (self->audit) hooks.note_write = request__note_write;
  if (self->journal) {
    hooks.note_folder = request__note_folder;
    hooks.intent_begin = request__intent_begin;
    hooks.intent_done = request__intent_done;
  }
  eddi_workspace_set_hooks(self->workspace, &hooks);
}

/* The record of a request that ran (or was refused) as sender. */
static void request__audit(EddiEngine *self, const EddiRequest *request, const char *sender,
                           const EddiReply *reply, bool refused) {
  if (!self->audit) return;
  const char *session = request->session;
  if (!session && sender) session = eddi_engine_session_of(self, sender);
  /* A request naming no sender asks as the anonymous one. */
  const char *asking = sender ? sender : request->sender ? request->sender : EDDI_ANONYMOUS_SENDER;
  AuditOutcome outcome = {asking, session, self->instance,
                          request->transport, request->text, request->len, reply, refused, NULL};
  eddi_audit_end(self->audit, &outcome);
}

/* ------------------------------------------------------------ reading */

/* The session a message's first command starts, if it is a Start. */
typedef struct {
  char name[EDDI_SESSION_NAME_MAX + 1];
  bool found;
} StartedName;

static bool request__first_start(const EddiCommandLine *line, void *closure) {
  StartedName *start = closure;
  if (!eddi_command_is(line, "Start")) return false;
  const char *at = line->line + line->verb_len, *end = line->line + line->len;
  while (at < end && isspace((unsigned char)*at)) at++;
  const char *name = at;
  while (at < end && !isspace((unsigned char)*at)) at++;
  if (at > name && (size_t)(at - name) < sizeof start->name) {
    memcpy(start->name, name, (size_t)(at - name));
    start->name[at - name] = '\0';
    start->found = true;
  }
  return false;
}

/* The index of the message's first Start command, or -1. */
typedef struct {
  size_t index;
  long found;
} StartIndex;

static bool request__find_start(const EddiCommandLine *line, void *closure) {
  StartIndex *search = closure;
  if (eddi_command_is(line, "Start")) {
    search->found = (long)search->index;
    return false;
  }
  search->index++;
  return true;
}

/* ------------------------------------------------------------ routing */

/* Decide who runs the request: fills sender_out, or err with the refusal. */
static int request__route(EddiEngine *self, const EddiRequest *request, char *sender_out,
                          size_t sender_size, EddiError *err) {
  char instance[EDDI_INSTANCE_NAME_MAX + 1];
  StartedName start = {{0}, false};
  eddi_each_command(request->text, request->len, request__first_start, &start);
  const char *sender = request->sender;

  if (request->session) {
    /* A session is acted in only by its own sender: naming it is not
     * enough (session names are public: events, sync answers). */
    EddiSession *held = eddi_sessions_by_name(self->sessions, request->session);
    if (held) {
      const char *asking = sender ? sender : EDDI_ANONYMOUS_SENDER;
      if (strcmp(asking, held->sender) != 0)
        return eddi_error_set(err, EDDI_ESTATE, "Session %s belongs to another sender",
                              request->session);
      snprintf(sender_out, sender_size, "%s", held->sender);
      return 0;
    }
    if (eddi_registry_find_remote(&self->registry, request->session, NULL, instance,
                                  sizeof instance, NULL, 0))
      return eddi_error_set(err, EDDI_ESTATE, "Session %s lives on %s", request->session,
                            instance);
    if (!start.found || strcmp(start.name, request->session) != 0)
      return eddi_error_set(err, EDDI_ENOENT, "Session %s not found", request->session);
  }
  if (!sender) sender = EDDI_ANONYMOUS_SENDER;
  snprintf(sender_out, sender_size, "%s", sender);

  if (!eddi_sessions_by_sender(self->sessions, sender)) {
    char found[EDDI_SESSION_NAME_MAX + 1];
    if (eddi_registry_find_remote(&self->registry, NULL, sender, instance, sizeof instance,
                                  found, sizeof found))
      return eddi_error_set(err, EDDI_ESTATE, "Session %s lives on %s", found, instance);
    if (start.found && eddi_registry_find_remote(&self->registry, start.name, NULL, instance,
                                                 sizeof instance, NULL, 0))
      return eddi_error_set(err, EDDI_ESTATE, "Session %s lives on %s", start.name, instance);
  }
  return 0;
}

/* ------------------------------------------------------------ policy */

static bool request__sender_shape(const char *sender) {
  size_t n = strlen(sender);
  if (n == 0 || n > EDDI_SENDER_NAME_MAX) return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)sender[i] < 0x20 || sender[i] == 0x7F) return false;
  return true;
}

typedef struct {
  bool allowed;
  bool collecting; /* a collected script passes (a collect-only request) */
  char word[REQUEST_WORD_MAX]; /* the first command that is not */
} ReadOnlyCheck;

static bool request__reads_only(const EddiCommandLine *line, void *closure) {
  ReadOnlyCheck *check = closure;
  check->allowed = check->collecting
                       ? eddi_command_line_collects_only(line, check->word, sizeof check->word)
                       : eddi_command_line_reads_only(line, check->word, sizeof check->word);
  return check->allowed;
}

/* The sender's shape, the allowlist, and for read-only senders and
 * collect-only requests every command word of text (a script or a body
 * command is refused); while the audit log cannot be written, every sender
 * reads only. */
static int request__check_sender(EddiEngine *self, const char *sender,
                                 const EddiRequest *request, EddiError *err) {
  if (!request__sender_shape(sender))
    return eddi_error_set(err, EDDI_EINVAL, "Sender missing or invalid");
  if (!self->every_sender_allowed && !request__strings_have(&self->allowed_senders, sender))
    return eddi_error_set(err, EDDI_EINVAL, "Sender %s is not allowed", sender);
  EddiError unaudited;
  eddi_error_clear(&unaudited);
  bool audit_refuses = eddi_audit_refuses_writes(self->audit, &unaudited);
  bool read_only = request__strings_have(&self->read_only_senders, sender);
  if (!audit_refuses && !read_only && !request->collect_only) return 0;
  ReadOnlyCheck check = {.allowed = true, .collecting = !audit_refuses && !read_only};
  eddi_each_command(request->text, request->len, request__reads_only, &check);
  if (check.allowed) return 0;
  if (audit_refuses) {
    *err = unaudited;
    return err->code;
  }
  if (read_only)
    return eddi_error_set(err, EDDI_EINVAL, "Sender %s may only read, not run %s", sender,
                          check.word);
  eddi_error_set(err, EDDI_EINVAL, "This message may only read and collect changes, not run %s",
                 check.word);
  eddi_error_hint(err, "A script's changes are collected when its first statement is "
                              "collect changes as \"name\"");
  return err->code;
}

/* ------------------------------------------------------------ sessions */

static void request__tell(EddiEngine *self, EddiSessionChange change, const char *session,
                          const char *sender) {
  if (!self->session_listener) return;
  EddiSessionEvent event = {change, session, sender, self->instance ? self->instance : ""};
  self->session_listener(self->session_listener_closure, &event);
}

/* Note that sender's session went from before to after (either NULL). */
static void request__session_changed(EddiEngine *self, const char *sender, const char *before,
                                     const char *after) {
  if (before) {
    eddi_registry_remove(&self->registry, before, NULL);
    request__tell(self, EDDI_SESSION_ENDED, before, sender);
  }
  if (after) {
    eddi_registry_add(&self->registry, after, sender, NULL);
    request__tell(self, EDDI_SESSION_STARTED, after, sender);
  }
}

/* Append ", Instance <id>" to the reply of the message's Start. */
static void request__name_instance(EddiEngine *self, const EddiRequest *request,
                                   EddiReply *reply) {
  StartIndex search = {0, -1};
  eddi_each_command(request->text, request->len, request__find_start, &search);
  size_t index = search.found >= 0 && (size_t)search.found < reply->count ? (size_t)search.found
                                                                          : 0;
  EddiReplyItem *item = &reply->items[index];
  if (!item->ok) return;
  char suffix[REQUEST_INSTANCE_SUFFIX_MAX];
  snprintf(suffix, sizeof suffix, ", Instance %s", self->instance);
  size_t n = strlen(item->text), extra = strlen(suffix);
  item->text = eddi_realloc(item->text, n + extra + 1);
  memcpy(item->text + n, suffix, extra + 1);
}

/* ------------------------------------------------------------ running */

/* A reply of one Fail item for err. */
static void request__refuse(EddiReply *reply, const EddiError *err) {
  reply->items = eddi_calloc(1, sizeof *reply->items);
  reply->items[0].ok = false;
  reply->items[0].text = eddi_fail_format(err);
  reply->count = 1;
}

/* Route and check a request: the sender it runs as, or a refusal in reply. */
static bool request__admit(EddiEngine *self, const EddiRequest *request, char *sender,
                           size_t sender_size, EddiReply *reply) {
  EddiError err;
  eddi_error_clear(&err);
  memset(reply, 0, sizeof *reply);
  sender[0] = '\0';
  if (self->audit) eddi_audit_begin(self->audit);
  if (request__route(self, request, sender, sender_size, &err) < 0 ||
      request__check_sender(self, sender, request, &err) < 0) {
    request__refuse(reply, &err);
    request__audit(self, request, sender[0] ? sender : NULL, reply, true);
    return false;
  }
  return true;
}

void eddi_request_exec(EddiEngine *self, const EddiRequest *request, EddiReply *reply) {
  if (eddi_jobs_queue(self, request, reply)) return; /* behind its sender's long work */
  char sender[EDDI_SENDER_NAME_MAX + 1];
  if (!request__admit(self, request, sender, sizeof sender, reply)) return;
  const char *borrowed = eddi_engine_session_of(self, sender);
  char *before = borrowed ? eddi_strdup(borrowed) : NULL;
  uint64_t was = eddi_jobs_set_ticket(self, request->ticket);
  eddi_engine_run_request(self, sender, before, request, reply);
  eddi_jobs_set_ticket(self, was);
  if (!reply->pending) eddi_request_finish(self, sender, before, request, reply);
  eddi_free(before);
}

void eddi_request_finish(EddiEngine *self, const char *sender, const char *before,
                         const EddiRequest *request, EddiReply *reply) {
  const char *after = eddi_engine_session_of(self, sender);
  bool changed = (before == NULL) != (after == NULL) || (before && strcmp(before, after) != 0);
  if (changed) {
    request__session_changed(self, sender, before, after);
    if (after && request->name_instance && self->instance && reply->count > 0)
      request__name_instance(self, request, reply);
  }
  /* An End names the session it ended. */
  EddiRequest named = *request;
  if (!named.session && before && !after) named.session = before;
  request__audit(self, &named, sender, reply, false);
}

/* ------------------------------------------------------------ calls */

/* Refactor or Preview Refactor through the commands' own job, waited for
 * (a call never answers late); the reply is the command's, Preview's in
 * raw form with its diff. */
static int request__run_refactor(EddiEngine *self, EddiSession *session, const char *sender,
                                 const EddiCall *call, StrBuf *out, EddiCallOutcome *outcome,
                                 EddiError *err) {
  if (!call->operation || !call->text)
    return eddi_error_set(err, EDDI_EINVAL, "Refactor needs an operation and a target");
  EddiReplyBuilder builder;
  eddi_reply_builder_init(&builder, true);
  CommandContext ctx = {.workspace = self->workspace, .ports = &self->ports,
                        .session = session, .sender = sender, .reply = &builder, .err = err};
  bool could = eddi_jobs_may_pend(self, false);
  int rc = eddi_refactor_call(&ctx, call, &outcome->files);
  eddi_jobs_may_pend(self, could);
  if (rc == 0) {
    char *text = eddi_reply_builder_finish(&builder);
    eddi_strbuf_puts(out, text);
    eddi_free(text);
  }
  eddi_reply_builder_free(&builder);
  return rc;
}

/* Run call against the engine as session's sender; the answer goes into
 * out (a block of lines), or err. */
static int request__run_call(EddiEngine *self, EddiSession *session, const char *sender,
                             const EddiCall *call, StrBuf *out, EddiCallOutcome *outcome,
                             EddiError *err) {
  EddiEditReport report = {0};
  int rc;
  switch (call->kind) {
  case EDDI_CALL_READ:
    return eddi_edit_read(self->workspace, session, call->path, call->offset, call->limit, out,
                          err);
  case EDDI_CALL_GREP: {
    EddiGrepQuery query = {call->text, call->text_len, call->ignore_case ? REGEX_CASELESS : 0,
                           call->glob, call->offset};
    return eddi_edit_grep(self->workspace, session, &query, out, err);
  }
  case EDDI_CALL_HASHLINE:
    rc = eddi_edit_hashline(self->workspace, session, call->text, call->text_len, &report, err);
    break;
  case EDDI_CALL_APPLY_PATCH:
    rc = eddi_edit_apply_patch(self->workspace, session, call->text, call->text_len, &report, err);
    break;
  case EDDI_CALL_SEARCH_REPLACE:
    rc = eddi_edit_search_replace(self->workspace, session, call->path, call->text, call->text_len,
                                  &report, err);
    break;
  case EDDI_CALL_FILE_UPDATE:
    rc = eddi_edit_update(self->workspace, session, call->path, call->text, call->text_len, &report,
                          err);
    break;
  case EDDI_CALL_REPLACE:
    rc = eddi_edit_replace(self->workspace, session, call->path, call->edits, call->edit_count,
                           &report, err);
    break;
  case EDDI_CALL_REFACTOR:
  case EDDI_CALL_PREVIEW:
    return request__run_refactor(self, session, sender, call, out, outcome, err);
  case EDDI_CALL_QUERY: {
    CommandContext ctx = {.workspace = self->workspace, .ports = &self->ports,
                          .session = session, .sender = sender, .err = err};
    return eddi_query_call(&ctx, call, out);
  }
  default:
    return eddi_error_set(err, EDDI_EINVAL, "Unknown edit call");
  }
  if (rc == 0) {
    eddi_edit_report_render(&report, out);
    outcome->files = report.files;
    outcome->no_change = report.no_change;
  }
  eddi_edit_report_free(&report);
  return rc;
}

void eddi_request_call(EddiEngine *self, const EddiRequest *request, const EddiCall *call,
                       EddiReply *reply, EddiCallOutcome *outcome) {
  EddiCallOutcome ignored;
  if (!outcome) outcome = &ignored;
  memset(outcome, 0, sizeof *outcome);
  eddi_jobs_wait(self, request); /* a call never answers late */
  char sender[EDDI_SENDER_NAME_MAX + 1];
  if (!request__admit(self, request, sender, sizeof sender, reply)) return;

  /* What eddi_exec does around a command: a pending Replace Confirm ends,
   * and the call's edits are one undo step per document. */
  EddiSession *session = eddi_sessions_by_sender(self->sessions, sender);
  if (session) eddi_replace_confirm_cancel(session);
  StrBuf out = {0};
  EddiError err;
  eddi_error_clear(&err);
  uint64_t was = eddi_jobs_set_ticket(self, request->ticket);
  int rc = request__run_call(self, session, sender, call, &out, outcome, &err);
  eddi_jobs_set_ticket(self, was);
  eddi_engine_end_groups(self, sender);

  reply->items = eddi_calloc(1, sizeof *reply->items);
  reply->count = 1;
  if (rc < 0) {
    reply->items[0].text = eddi_fail_format(&err);
  } else {
    /* The answer is a block of lines; its last newline is the envelope's. */
    size_t len = out.len;
    while (len && out.data[len - 1] == '\n') len--;
    reply->items[0].ok = true;
    reply->items[0].text = len ? eddi_strndup(out.data, len) : eddi_strdup("Ok");
  }
  eddi_strbuf_free(&out);
  request__audit(self, request, sender, reply, false);
}
