/* engine_host.c - see engine_host.h. */
#include "engine_host.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Room for what the journal's recovery says at start (a line per session
 * restored and per change settled; longer is cut). */
#define HOST_JOURNAL_REPORT_MAX 8192
#include "server_error.h"

/* How often a synchronous caller looks whether its long work is done. */
#define HOST_WAIT_POLL_US 1000
/* The sender that asks the engine about its features at start. */
#define HOST_PROBE_SENDER "eddi-server-probe"

/* ------------------------------------------------------------ replies */

char *engine_host_join(const EddiReply *reply) {
  size_t total = 1;
  for (size_t i = 0; i < reply->count; i++) total += strlen(reply->items[i].text) + 1;
  char *joined = malloc(total), *at = joined;
  if (!joined) return NULL;
  for (size_t i = 0; i < reply->count; i++) {
    size_t n = strlen(reply->items[i].text);
    memcpy(at, reply->items[i].text, n);
    at += n;
    if (i + 1 < reply->count) *at++ = '\n';
  }
  *at = '\0';
  return joined;
}

bool engine_host_reply_ok(const EddiReply *reply) {
  for (size_t i = 0; i < reply->count; i++)
    if (!reply->items[i].ok) return false;
  return reply->count > 0;
}

/* ------------------------------------------------------------ the log */

/* The sender a request's log line names: the one it asks as. A request
 * naming only a session asks as the anonymous sender (the engine's rule:
 * naming a session is not acting in it), so the log must not name the
 * session's holder. */
static const char *host__log_sender(const EddiRequest *request) {
  return request->sender ? request->sender : EDDI_ANONYMOUS_SENDER;
}

/* A request is answered: its log line, and the watcher's turn. */
static void host__log(EngineHost *self, const HostRequest *request, int64_t started_ns,
                      const EddiReply *reply) {
  log_request(request->transport, host__log_sender(&request->request), request->request.text,
              request->request.len, log_now_ns() - started_ns, engine_host_reply_ok(reply));
  if (self->watcher) self->watcher(self->watcher_closure, request, reply);
}

void engine_host_watch(EngineHost *self, HostWatcher watcher, void *closure) {
  self->watcher = watcher;
  self->watcher_closure = closure;
}

/* ------------------------------------------------------------ running */

/* The engine's request with the transport the log names, for its audit
 * record too. */
static EddiRequest host__named(const HostRequest *request) {
  EddiRequest named = request->request;
  if (!named.transport) named.transport = request->transport;
  return named;
}

/* ------------------------------------------------------------ long work */

/* Worker thread: the engine has finished work. Queue the wake-up once. */
static void host__wake(void *closure) {
  EngineHost *self = closure;
  if (atomic_exchange(&self->wake_queued, true)) return;
  if (work_queue_push_urgent(&self->queue, &self->wake_item) != SERVER_OK)
    atomic_store(&self->wake_queued, false); /* stopping: the stop collects */
}

static void host__finished(void *closure, uint64_t ticket, const EddiReply *reply) {
  EngineHost *self = closure;
  HostPending **link = &self->pending;
  while (*link && (*link)->ticket != ticket) link = &(*link)->next;
  HostPending *pending = *link;
  if (!pending) return;
  host__log(self, &pending->request, pending->started_ns, reply);
  if (!pending->answer) {
    /* A synchronous caller takes a copy. */
    pending->reply.items = calloc(reply->count ? reply->count : 1, sizeof *reply->items);
    for (size_t i = 0; pending->reply.items && i < reply->count; i++) {
      pending->reply.items[i].ok = reply->items[i].ok;
      pending->reply.items[i].text = strdup(reply->items[i].text);
      pending->reply.count = i + 1;
    }
    pending->done = true;
    return;
  }
  *link = pending->next;
  pending->answer(pending->job, reply);
  free(pending);
}

/* Owner thread: collect what the engine finished. */
static void host__collect(EngineHost *self) {
  atomic_store(&self->wake_queued, false);
  eddi_engine_take_finished(self->engine, host__finished, self);
}

static void host__wake_run(WorkItem *item, void *context) {
  (void)item;
  host__collect(context);
}

/* Run request; a pending reply is kept under a new ticket. */
static HostPending *host__start(EngineHost *self, const HostRequest *request, EddiReply *reply,
                                int64_t started) {
  EddiRequest named = host__named(request);
  if (!named.ticket) named.ticket = engine_host_new_ticket(self);
  eddi_request_exec(self->engine, &named, reply);
  if (!reply->pending) return NULL;
  HostPending *pending = calloc(1, sizeof *pending);
  if (!pending) abort(); /* a reply the transport waits for cannot be dropped */
  pending->ticket = named.ticket;
  pending->request = *request;
  pending->started_ns = started;
  pending->next = self->pending;
  self->pending = pending;
  return pending;
}

void engine_host_exec_answer(EngineHost *self, const HostRequest *request, HostAnswer answer,
                             void *job) {
  int64_t started = log_now_ns();
  EddiReply reply;
  HostPending *pending = host__start(self, request, &reply, started);
  if (pending) {
    pending->answer = answer;
    pending->job = job;
    return;
  }
  host__log(self, request, started, &reply);
  answer(job, &reply);
  eddi_reply_free(&reply);
}

void engine_host_exec(EngineHost *self, const HostRequest *request, EddiReply *reply) {
  int64_t started = log_now_ns();
  HostPending *pending = host__start(self, request, reply, started);
  if (!pending) {
    host__log(self, request, started, reply);
    return;
  }
  /* A caller that cannot wait for a late answer: serve the finished work of
   * everyone until this one is done (the work runs on its own thread). */
  while (!pending->done) {
    host__collect(self);
    if (!pending->done) usleep(HOST_WAIT_POLL_US);
  }
  HostPending **link = &self->pending;
  while (*link != pending) link = &(*link)->next;
  *link = pending->next;
  *reply = pending->reply;
  free(pending);
}

void engine_host_call(EngineHost *self, const HostRequest *request, const EddiCall *call,
                      EddiReply *reply, EddiCallOutcome *outcome) {
  int64_t started = log_now_ns();
  EddiRequest named = host__named(request);
  eddi_request_call(self->engine, &named, call, reply, outcome);
  host__log(self, request, started, reply);
}

uint64_t engine_host_new_ticket(EngineHost *self) {
  return atomic_fetch_add(&self->next_ticket, 1) + 1;
}

int engine_host_cancel(EngineHost *self, uint64_t ticket) {
  return eddi_engine_cancel(self->engine, ticket) == EDDI_OK ? SERVER_OK : SERVER_EINVAL;
}

bool engine_host_progress(EngineHost *self, uint64_t ticket, size_t *done, const char **unit) {
  return eddi_engine_progress(self->engine, ticket, done, unit) == EDDI_OK;
}

const char *engine_host_session_of(EngineHost *self, const char *sender) {
  return eddi_engine_session_of(self->engine, sender);
}

/* -------------------------------------------------------------- setting up */

/* Ask the engine `Help <Command>` for each optional command: a Fail means
 * this build does not have it. */
static void host__probe(EngineHost *self) {
  static const char probe[] =
      "Help Read\nHelp Grep\nHelp Edit\nHelp Patch\nHelp Update\nHelp Refactor\nHelp Apply";
  bool *flags[] = {&self->features.read,   &self->features.grep,     &self->features.edit,
                   &self->features.patch,  &self->features.update,   &self->features.refactor,
                   &self->features.changesets};
  size_t wanted = sizeof flags / sizeof flags[0];
  EddiReply reply = {0};
  eddi_exec_reply(self->engine, HOST_PROBE_SENDER, probe, sizeof probe - 1, &reply);
  for (size_t i = 0; i < wanted && i < reply.count; i++) *flags[i] = reply.items[i].ok;
  eddi_reply_free(&reply);
}

/* The options' sender lists as the engine's policy: with an allowlist, the
 * read-only senders are allowed too; without one, everyone is. */
static int host__set_policy(EngineHost *self) {
  const StringList *allow = &self->options->allow, *read_only = &self->options->read_only;
  const char **allowed = calloc(allow->count + read_only->count + 1, sizeof *allowed);
  const char **readers = calloc(read_only->count + 1, sizeof *readers);
  int status = allowed && readers ? SERVER_OK : SERVER_ENOMEM;
  for (size_t i = 0; status == SERVER_OK && i < allow->count; i++) allowed[i] = allow->items[i];
  for (size_t i = 0; status == SERVER_OK && i < read_only->count; i++)
    allowed[allow->count + i] = readers[i] = read_only->items[i];
  EddiSenderPolicy policy = {allow->count ? allowed : NULL, readers};
  if (status == SERVER_OK && eddi_engine_set_policy(self->engine, &policy) != 0)
    status = SERVER_EINVAL;
  free(allowed);
  free(readers);
  return status;
}

int engine_host_init(EngineHost *self, const ServerOptions *options, const char *instance_id,
                     char *error, size_t error_size) {
  memset(self, 0, sizeof *self);
  self->options = options;
  self->instance_id = instance_id;
  EddiConfig config;
  eddi_config_default(&config);
  config.max_message_bytes = options->max_message_bytes;
  config.state_dir = options->state_dir;
  if (options->script_max_steps) config.script_max_steps = options->script_max_steps;
  if (options->script_max_ms)
    config.script_max_ms = options->script_max_ms < UINT_MAX ? (unsigned)options->script_max_ms : UINT_MAX;
  if (options->script_max_bytes) config.script_max_bytes = options->script_max_bytes;
  if (options->search_timeout_ms)
    config.search_timeout_ms =
        options->search_timeout_ms < UINT_MAX ? (unsigned)options->search_timeout_ms : UINT_MAX;
  config.lsp_off = options->no_lsp;
  config.lsp_trust_workspace = options->lsp_trust_workspace;
  if (options->lsp_deadline_ms)
    config.lsp_deadline_ms = options->lsp_deadline_ms > UINT32_MAX ? UINT32_MAX
                                                                   : (unsigned)options->lsp_deadline_ms;
  /* --lsp's values, one a line, as the engine reads them (it copies them). */
  size_t lsp_len = 0;
  for (size_t i = 0; i < options->lsp.count; i++) lsp_len += strlen(options->lsp.items[i]) + 1;
  char *lsp = lsp_len ? calloc(1, lsp_len) : NULL;
  if (lsp_len && !lsp) return SERVER_ENOMEM;
  for (size_t i = 0; i < options->lsp.count; i++) {
    if (i) strcat(lsp, "\n");
    strcat(lsp, options->lsp.items[i]);
  }
  config.lsp_commands = lsp;
  self->engine = eddi_engine_new(options->root ? options->root : ".", &config, error, error_size);
  free(lsp);
  if (!self->engine) return SERVER_EINVAL;
  int status = eddi_engine_set_instance(self->engine, instance_id) == 0 ? SERVER_OK
                                                                         : SERVER_EINVAL;
  if (status == SERVER_OK) status = host__set_policy(self);
  if (status == SERVER_OK && !options->no_journal) {
    /* Before any request: a crashed predecessor's changes are settled and
     * its sessions taken back. */
    char report[HOST_JOURNAL_REPORT_MAX];
    if (eddi_engine_open_journal(self->engine, report, sizeof report, error, error_size) < 0) {
      eddi_engine_free(self->engine);
      self->engine = NULL;
      return SERVER_EINVAL;
    }
    for (char *line = report, *next; line && *line; line = next) {
      next = strchr(line, '\n');
      if (next) *next++ = '\0';
      log_report(LOG_INFO, "journal", "%s", line);
    }
  }
  if (status == SERVER_OK) status = work_queue_init(&self->queue, options->max_queue);
  if (status != SERVER_OK) {
    eddi_engine_free(self->engine);
    self->engine = NULL;
    snprintf(error, error_size, status == SERVER_ENOMEM ? "out of memory"
                                                        : "the engine refused its settings");
    return status;
  }
  /* Long work answers later; other senders are served meanwhile. */
  self->wake_item = (WorkItem){.lane = "", .run = host__wake_run};
  eddi_engine_set_waker(self->engine, host__wake, self);
  host__probe(self);
  return SERVER_OK;
}

/* ------------------------------------------------------------ audit */

/* Owner thread: each audit line, to whoever asked for it (NATS). */
static void host__audit_line(void *closure, const char *line, size_t len) {
  EngineHost *self = closure;
  if (self->audit_forward) self->audit_forward(self->audit_forward_closure, line, len);
}

int engine_host_start_audit(EngineHost *self, char *error, size_t error_size) {
  const ServerOptions *o = self->options;
  bool off = options_audit_off(o);
  if (off && !o->audit_subject) return SERVER_OK;
  EddiAuditConfig audit = {off ? "" : o->audit, host__audit_line, self,
                           options_audit_failure_continues(o) ? EDDI_AUDIT_FAILURE_CONTINUE
                                                              : EDDI_AUDIT_FAILURE_REFUSE};
  if (eddi_engine_set_audit(self->engine, &audit, error, error_size) == 0) return SERVER_OK;
  /* An audit log asked for by name must be kept; the default one is kept
   * when it can be, and its trouble said. */
  if (o->audit && !off) return SERVER_EINVAL;
  log_report(LOG_WARN, "audit", "%s; auditing off", error);
  return SERVER_OK;
}

void engine_host_forward_audit(EngineHost *self, EddiAuditSink forward, void *closure) {
  self->audit_forward = forward;
  self->audit_forward_closure = closure;
}

/* ------------------------------------------------------------ lifecycle */

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

const char *engine_host_refusal(int status) {
  return status == SERVER_EBUSY ? "Busy, retry" : "Server is stopping";
}

void engine_host_stop(EngineHost *self) {
  work_queue_close(&self->queue);
  if (self->running) pthread_join(self->thread, NULL);
  self->running = false;
  /* Long work still running is answered before the engine goes: each job
   * has its own time limit. This thread is the engine's owner now. */
  while (self->pending) {
    host__collect(self);
    if (self->pending) usleep(HOST_WAIT_POLL_US);
  }
}

void engine_host_destroy(EngineHost *self) {
  engine_host_stop(self);
  work_queue_destroy(&self->queue);
  eddi_engine_free(self->engine);
  self->engine = NULL;
}
