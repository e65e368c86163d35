/* engine_host.c - see engine_host.h.
 *
 * Routing rules (doc/protocol.org, "Sessions across instances"):
 * - a message naming a session runs as that session's sender if the session
 *   is held here; a session held by another instance gets
 *   `Fail "Session s lives on <id>"`, an unknown one `Fail "Session s not
 *   found"` (unless the message starts it): never a silent new session;
 * - a message naming no session runs as its sender (or "anonymous"); if that
 *   sender's session lives on another instance, the message is refused the
 *   same way, so a sender never has two sessions.
 * Sessions are noticed by comparing the sender's session before and after a
 * message, so the host needs no knowledge of the session commands beyond
 * the word Start.
 */
#include "engine_host.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/document.h"
#include "fail_reply.h"
#include "log.h"
#include "lang/reply.h"
#include "server_error.h"
#include "validator.h"

/* The sender that asks the engine about its features at start. */
#define HOST_PROBE_SENDER "eddi-server-probe"
/* Enough for ", Instance <id>" after a reply. */
#define HOST_INSTANCE_SUFFIX_MAX (OPTIONS_NAME_MAX + 16)
/* Session names are short words; a longer one is not looked up. */
#define HOST_SESSION_NAME_MAX 256

static int64_t host__now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* ------------------------------------------------------------ results */

/* A result of one item: len bytes of text. */
static int host__result_one(HostResult *self, bool ok, const char *text, size_t len) {
  self->items = calloc(1, sizeof *self->items);
  if (!self->items || !(self->items[0].text = malloc(len + 1))) {
    free(self->items);
    self->items = NULL;
    self->count = 0;
    return SERVER_ENOMEM;
  }
  memcpy(self->items[0].text, text, len);
  self->items[0].text[len] = '\0';
  self->items[0].ok = ok;
  self->count = 1;
  return SERVER_OK;
}

int host_result_set_fail(HostResult *self, const char *fail_text) {
  return host__result_one(self, false, fail_text, strlen(fail_text));
}

char *host_result_join(const HostResult *self) {
  size_t total = 1;
  for (size_t i = 0; i < self->count; i++) total += strlen(self->items[i].text) + 1;
  char *joined = malloc(total), *at = joined;
  if (!joined) return NULL;
  for (size_t i = 0; i < self->count; i++) {
    size_t n = strlen(self->items[i].text);
    memcpy(at, self->items[i].text, n);
    at += n;
    if (i + 1 < self->count) *at++ = '\n';
  }
  *at = '\0';
  return joined;
}

bool host_result_ok(const HostResult *self) {
  for (size_t i = 0; i < self->count; i++)
    if (!self->items[i].ok) return false;
  return self->count > 0;
}

void host_result_free(HostResult *self) {
  for (size_t i = 0; i < self->count; i++) free(self->items[i].text);
  free(self->items);
  memset(self, 0, sizeof *self);
}

static int host__copy_reply(HostResult *self, const EddiReply *reply) {
  self->items = calloc(reply->count ? reply->count : 1, sizeof *self->items);
  if (!self->items) return SERVER_ENOMEM;
  for (size_t i = 0; i < reply->count; i++) {
    self->items[i].ok = reply->items[i].ok;
    if (!(self->items[i].text = strdup(reply->items[i].text))) return SERVER_ENOMEM;
    self->count = i + 1;
  }
  return SERVER_OK;
}

/* ------------------------------------------------------ reading commands */

/* Messages are read the way the engine will run them: eddi_each_command. */

typedef struct {
  size_t index;
  long found;
} HostStartSearch;

static bool host__find_start(const EddiCommandLine *line, void *closure) {
  HostStartSearch *search = closure;
  if (eddi_command_is(line, "Start")) {
    search->found = (long)search->index;
    return false;
  }
  search->index++;
  return true;
}

typedef struct {
  char *name;
  size_t size;
  bool found;
} HostStartName;

/* The session a message's first command starts, if it is a Start. */
static bool host__first_start_name(const EddiCommandLine *line, void *closure) {
  HostStartName *start = closure;
  if (eddi_command_is(line, "Start")) {
    const char *at = line->line + line->verb_len;
    const char *end = line->line + line->len;
    while (at < end && isspace((unsigned char)*at)) at++;
    const char *name = at;
    while (at < end && !isspace((unsigned char)*at)) at++;
    if (at > name && (size_t)(at - name) < start->size) {
      snprintf(start->name, start->size, "%.*s", (int)(at - name), name);
      start->found = true;
    }
  }
  return false;
}

/* ------------------------------------------------------------- routing */

/* Decide who runs the message. Fills sender_out, or writes a Fail into
 * refusal and returns SERVER_EINVAL. */
static int host__route(EngineHost *self, const HostRequest *request, char *sender_out,
                       size_t sender_size, char *refusal, size_t refusal_size) {
  char instance[OPTIONS_NAME_MAX + 1], session[HOST_SESSION_NAME_MAX];
  HostStartName start = {session, sizeof session, false};
  eddi_each_command(request->text, request->len, host__first_start_name, &start);
  const char *sender = request->sender;

  if (request->session) {
    char holder[VALIDATOR_SENDER_MAX + 1];
    if (session_registry_local_sender(&self->sessions, request->session, holder, sizeof holder)) {
      if (sender && strcmp(sender, holder) != 0) {
        fail_reply_format(refusal, refusal_size, "Session %s belongs to another sender",
                          request->session);
        return SERVER_EINVAL;
      }
      snprintf(sender_out, sender_size, "%s", holder);
      return SERVER_OK;
    }
    if (session_registry_remote_instance(&self->sessions, request->session, NULL, instance,
                                         sizeof instance, NULL, 0)) {
      fail_reply_format(refusal, refusal_size, "Session %s lives on %s", request->session,
                        instance);
      return SERVER_EINVAL;
    }
    if (!start.found || strcmp(start.name, request->session) != 0) {
      fail_reply_format(refusal, refusal_size, "Session %s not found", request->session);
      return SERVER_EINVAL;
    }
  }
  if (!sender) sender = HOST_ANONYMOUS_SENDER;
  snprintf(sender_out, sender_size, "%s", sender);

  if (!eddi_engine_session_of(self->engine, sender)) {
    char found[HOST_SESSION_NAME_MAX];
    if (session_registry_remote_instance(&self->sessions, NULL, sender, instance,
                                         sizeof instance, found, sizeof found)) {
      fail_reply_format(refusal, refusal_size, "Session %s lives on %s", found, instance);
      return SERVER_EINVAL;
    }
    if (start.found && session_registry_remote_instance(&self->sessions, start.name, NULL,
                                                        instance, sizeof instance, NULL, 0)) {
      fail_reply_format(refusal, refusal_size, "Session %s lives on %s", start.name, instance);
      return SERVER_EINVAL;
    }
  }
  return SERVER_OK;
}

/* Tell the registry (and through the handler, other instances) that sender's
 * session changed from before to after. */
static void host__session_changed(EngineHost *self, const char *sender, const char *before,
                                  const char *after) {
  if (before) {
    session_registry_remove_local(&self->sessions, before);
    if (self->on_session) self->on_session(self->on_session_closure, SESSION_ENDED, before, sender);
  }
  if (after) {
    if (session_registry_add_local(&self->sessions, after, sender))
      log_report(LOG_ERROR, "host", "out of memory recording session %s", after);
    if (self->on_session)
      self->on_session(self->on_session_closure, SESSION_STARTED, after, sender);
  }
}

static int host__name_instance(EngineHost *self, const HostRequest *request, HostResult *result) {
  HostStartSearch search = {0, -1};
  eddi_each_command(request->text, request->len, host__find_start, &search);
  size_t index = search.found >= 0 && (size_t)search.found < result->count ? (size_t)search.found
                                                                          : 0;
  HostReplyItem *item = &result->items[index];
  if (!item->ok) return SERVER_OK;
  char suffix[HOST_INSTANCE_SUFFIX_MAX];
  snprintf(suffix, sizeof suffix, ", Instance %s", self->instance_id);
  size_t n = strlen(item->text), extra = strlen(suffix);
  char *longer = realloc(item->text, n + extra + 1);
  if (!longer) return SERVER_ENOMEM;
  memcpy(longer + n, suffix, extra + 1);
  item->text = longer;
  return SERVER_OK;
}

/* ------------------------------------------------------------- running */

int engine_host_exec(EngineHost *self, const HostRequest *request, HostResult *result) {
  int64_t started = host__now_ns();
  memset(result, 0, sizeof *result);
  char sender[VALIDATOR_SENDER_MAX + 1], refusal[FAIL_REPLY_MAX + 16];
  int status = host__route(self, request, sender, sizeof sender, refusal, sizeof refusal);
  if (status == SERVER_OK)
    status = validator_check_sender(self->options, sender, request->text, request->len, refusal,
                                    sizeof refusal);
  if (status != SERVER_OK) {
    status = host_result_set_fail(result, refusal);
    goto done;
  }

  const char *before_borrowed = eddi_engine_session_of(self->engine, sender);
  char *before = before_borrowed ? strdup(before_borrowed) : NULL;
  if (before_borrowed && !before) {
    status = SERVER_ENOMEM;
    goto done;
  }
  EddiReply reply = {0};
  eddi_exec_reply(self->engine, sender, request->text, request->len, &reply);
  status = host__copy_reply(result, &reply);
  eddi_reply_free(&reply);
  const char *after = eddi_engine_session_of(self->engine, sender);
  bool changed = (before == NULL) != (after == NULL) || (before && strcmp(before, after) != 0);
  if (changed) {
    host__session_changed(self, sender, before, after);
    if (after && request->name_instance && status == SERVER_OK && result->count > 0)
      status = host__name_instance(self, request, result);
  }
  free(before);
  if (status != SERVER_OK) host_result_free(result);

done:
  result->duration_ns = host__now_ns() - started;
  log_request(request->transport, sender[0] ? sender : "-", request->text, request->len,
              result->duration_ns, status == SERVER_OK && host_result_ok(result));
  return status;
}

int engine_host_call(EngineHost *self, const HostRequest *request, HostCall call, void *closure,
                     HostResult *result) {
  int64_t started = host__now_ns();
  memset(result, 0, sizeof *result);
  char sender[VALIDATOR_SENDER_MAX + 1], refusal[FAIL_REPLY_MAX + 16];
  int status = host__route(self, request, sender, sizeof sender, refusal, sizeof refusal);
  if (status == SERVER_OK)
    status = validator_check_sender(self->options, sender, request->text, request->len, refusal,
                                    sizeof refusal);
  if (status != SERVER_OK) {
    status = host_result_set_fail(result, refusal);
    goto done;
  }

  /* What eddi_exec does around a command: a pending Replace Confirm ends,
   * and the call's edits are one undo step per document. */
  EddiSession *session = eddi_sessions_by_sender(&self->engine->sessions, sender);
  if (session) eddi_session_cancel_confirm(session);
  StrBuf reply = {0};
  EddiError err;
  eddi_error_clear(&err);
  int rc = call(self->engine, session, closure, &reply, &err);
  session = eddi_sessions_by_sender(&self->engine->sessions, sender);
  for (size_t i = 0; session && i < session->docs.len; i++)
    eddi_doc_end_group(session->docs.items[i]);

  char *fail = rc < 0 ? eddi_fail_format(&err) : NULL;
  if (fail) {
    status = host_result_set_fail(result, fail);
  } else {
    /* The reply is a block of lines; its last newline is the envelope's. */
    size_t len = reply.len;
    while (len && reply.data[len - 1] == '\n') len--;
    status = len ? host__result_one(result, true, reply.data, len)
                 : host__result_one(result, true, "Ok", 2);
  }
  eddi_free(fail);
  eddi_strbuf_free(&reply);

done:
  result->duration_ns = host__now_ns() - started;
  log_request(request->transport, sender[0] ? sender : "-", request->text, request->len,
              result->duration_ns, status == SERVER_OK && host_result_ok(result));
  return status;
}

const char *engine_host_session_of(EngineHost *self, const char *sender) {
  return eddi_engine_session_of(self->engine, sender);
}

/* -------------------------------------------------------------- probing */

/* Ask the engine `Help <Command>` for each optional command: a Fail means
 * this build does not have it. */
static void host__probe(EngineHost *self) {
  static const char probe[] = "Help Read\nHelp Grep\nHelp Edit\nHelp Patch\nHelp Update";
  bool *flags[] = {&self->features.read, &self->features.grep, &self->features.edit,
                   &self->features.patch, &self->features.update};
  size_t wanted = sizeof flags / sizeof flags[0];
  EddiReply reply = {0};
  eddi_exec_reply(self->engine, HOST_PROBE_SENDER, probe, sizeof probe - 1, &reply);
  for (size_t i = 0; i < wanted && i < reply.count; i++) *flags[i] = reply.items[i].ok;
  eddi_reply_free(&reply);
}

/* ------------------------------------------------------------ lifecycle */

int engine_host_init(EngineHost *self, const ServerOptions *options, const char *instance_id,
                     char *error, size_t error_size) {
  memset(self, 0, sizeof *self);
  self->options = options;
  self->instance_id = instance_id;
  EddiConfig config;
  eddi_config_default(&config);
  config.max_message_bytes = options->max_message_bytes;
  self->engine = eddi_engine_new(options->root ? options->root : ".", &config, error, error_size);
  if (!self->engine) return SERVER_EINVAL;
  int status = session_registry_init(&self->sessions);
  if (status) goto fail_registry;
  status = work_queue_init(&self->queue, options->max_queue);
  if (status) goto fail_queue;
  host__probe(self);
  return SERVER_OK;

fail_queue:
  session_registry_destroy(&self->sessions);
fail_registry:
  eddi_engine_free(self->engine);
  self->engine = NULL;
  snprintf(error, error_size, "out of memory");
  return status;
}

static void *host__main(void *closure) {
  EngineHost *self = closure;
  WorkItem *item;
  while ((item = work_queue_pop(&self->queue))) item->run(item, self);
  return NULL;
}

int engine_host_start(EngineHost *self) {
  if (pthread_create(&self->thread, NULL, host__main, self)) return SERVER_EIO;
  self->running = true;
  return SERVER_OK;
}

int engine_host_submit(EngineHost *self, WorkItem *item) {
  return work_queue_push(&self->queue, item);
}

void engine_host_stop(EngineHost *self) {
  work_queue_close(&self->queue);
  if (self->running) pthread_join(self->thread, NULL);
  self->running = false;
}

void engine_host_destroy(EngineHost *self) {
  engine_host_stop(self);
  work_queue_destroy(&self->queue);
  session_registry_destroy(&self->sessions);
  eddi_engine_free(self->engine);
  self->engine = NULL;
}
