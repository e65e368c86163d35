/* nats_service.c - see nats_service.h. */
#include "nats_service.h"
#include "session_kv.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "server_error.h"

/* ------------------------------------------------------------- the log */

/* The link's news in the server's log. */
static void nats_service__on_notice(void *closure, const EddiLinkNotice *notice) {
  switch (notice->kind) {
  case EDDI_LINK_CONNECTED: log_report(LOG_INFO, "nats", "connected to %s", notice->text); break;
  case EDDI_LINK_DISCONNECTED: log_report(LOG_WARN, "nats", "disconnected; reconnecting"); break;
  case EDDI_LINK_RECONNECTED:
    log_report(LOG_INFO, "nats", "reconnected to %s", notice->text);
    break;
  case EDDI_LINK_ERROR: log_report(LOG_ERROR, "nats", "%s", notice->text); break;
  case EDDI_LINK_WARNING: log_report(LOG_WARN, "nats", "%s", notice->text); break;
  }
}

/* ------------------------------------------------------------- commands */

/* A request on eddi.cmd or eddi.<id>.cmd, waiting for the engine. Strings
 * live in the same allocation, after the struct. */
typedef struct {
  WorkItem item;
  NatsService *service;
  int endpoint;
  const char *reply_subject;
  const char *sender;  /* NULL: anonymous or the session's holder */
  const char *session; /* NULL: none named */
  const char *text;
  size_t len;
  int64_t received_ns;
} CommandJob;

static void nats_service__answer(NatsService *self, int endpoint, const char *reply_subject,
                                 const char *text, int64_t started_ns, bool ok) {
  eddi_link_publish(self->link, reply_subject, text, strlen(text));
  endpoints_record(self->endpoints, endpoint, log_now_ns() - started_ns, ok ? NULL : text);
}

/* A command's reply, now or when its long work is done. */
static void nats_service__command_answer(void *closure, const EddiReply *reply) {
  CommandJob *job = closure;
  /* With --kv, the session's state is in the bucket before the sender
   * sees the reply: a kill after it loses nothing the reply reported. */
  session_kv_sync(job->service->kv);
  char *joined = engine_host_join(reply);
  if (joined) {
    nats_service__answer(job->service, job->endpoint, job->reply_subject, joined, job->received_ns,
                         engine_host_reply_ok(reply));
  } else {
    char fail[EDDI_LINK_FAIL_MAX];
    eddi_fail_line(fail, sizeof fail, "Out of memory");
    nats_service__answer(job->service, job->endpoint, job->reply_subject, fail, job->received_ns,
                         false);
  }
  free(joined);
  free(job);
}

static void nats_service__command_run(WorkItem *item, void *context) {
  CommandJob *job = (CommandJob *)item;
  EngineHost *host = context;
  HostRequest request = {"nats",
                         {.sender = job->sender,
                          .session = job->session,
                          .text = job->text,
                          .len = job->len,
                          .name_instance = true}};
  engine_host_exec_answer(host, &request, nats_service__command_answer, job);
}

/* Copy s (len bytes) after the struct; returns where it went. */
static const char *nats_service__stash(char **at, const char *s, size_t len) {
  if (!s) return NULL;
  char *copy = *at;
  memcpy(copy, s, len);
  copy[len] = '\0';
  *at += len + 1;
  return copy;
}

static CommandJob *nats_service__command_job(NatsService *self, int endpoint, const char *reply,
                                             const EddiLinkBody *body, int64_t received_ns) {
  size_t reply_len = strlen(reply), sender_len = body->sender ? strlen(body->sender) : 0,
         session_len = body->session ? strlen(body->session) : 0;
  /* Four strings, each with its terminator. */
  CommandJob *job = malloc(sizeof *job + reply_len + sender_len + session_len + body->len + 4);
  if (!job) return NULL;
  char *at = (char *)(job + 1);
  job->reply_subject = nats_service__stash(&at, reply, reply_len);
  job->sender = nats_service__stash(&at, body->sender, sender_len);
  job->session = nats_service__stash(&at, body->session, session_len);
  job->text = nats_service__stash(&at, body->text, body->len);
  job->len = body->len;
  job->service = self;
  job->endpoint = endpoint;
  job->received_ns = received_ns;
  job->item.next = NULL;
  job->item.lane = job->sender ? job->sender : job->session ? job->session : EDDI_ANONYMOUS_SENDER;
  job->item.run = nats_service__command_run;
  return job;
}

/* With --identity subject, the sender is the user the subject names,
 * whatever the body says (a body's other sender is ignored, and logged):
 * nats-server let the message through only on its user's own subject. */
static int nats_service__identify(const NatsCommandEndpoint *endpoint,
                                  const EddiLinkMessage *message, EddiLinkBody *body, char *user,
                                  size_t user_size, char *fail, size_t fail_size) {
  if (!endpoint->identity) return 0;
  if (!eddi_link_identity_of(message->subject, user, user_size)) {
    eddi_fail_line(fail, fail_size, "No user in the subject %s", message->subject);
    return EDDI_LINK_EINVAL;
  }
  if (body->sender && strcmp(body->sender, user) != 0)
    log_report(LOG_WARN, "nats", "user %s named the sender %s; running as %s", user,
               body->sender, user);
  body->sender = user;
  return 0;
}

/* Read the body, queue the request, or refuse it here. */
static void nats_service__on_command(void *closure, const EddiLinkMessage *message) {
  NatsCommandEndpoint *endpoint = closure;
  NatsService *self = endpoint->service;
  int64_t started = log_now_ns();
  char fail[EDDI_LINK_FAIL_MAX], user[EDDI_SENDER_NAME_MAX + 1];
  EddiLinkBody body;
  int rc = eddi_link_body_read(message->data, message->len, &self->rules, &body, fail,
                               sizeof fail);
  if (rc == 0 &&
      nats_service__identify(endpoint, message, &body, user, sizeof user, fail, sizeof fail) !=
          0) {
    eddi_link_body_free(&body);
    rc = EDDI_LINK_EINVAL;
  }
  if (rc == 0) {
    CommandJob *job =
        nats_service__command_job(self, endpoint->endpoint, message->reply, &body, started);
    int status = job ? engine_host_submit(self->host, &job->item) : SERVER_ENOMEM;
    eddi_link_body_free(&body);
    if (status == SERVER_OK) return;
    free(job);
    eddi_fail_line(fail, sizeof fail, "%s",
                   status == SERVER_ENOMEM ? "Out of memory" : engine_host_refusal(status));
  }
  nats_service__answer(self, endpoint->endpoint, message->reply, fail, started, false);
}

/* ------------------------------------------------------- session events */

/* Owner thread: a request started or ended a session here. */
static void nats_service__session_event(void *closure, const EddiSessionEvent *event) {
  NatsService *self = closure;
  eddi_link_publish_session_event(self->link, event);
  session_kv_note(self->kv, event);
}

void nats_service_mirror_sessions(NatsService *self, struct SessionKv *kv) { self->kv = kv; }

/* ------------------------------------------------------------- audit */

/* Owner thread: an audit line, published as it is written to the file. */
static void nats_service__audit_line(void *closure, const char *line, size_t len) {
  NatsService *self = closure;
  eddi_link_publish(self->link, self->audit_subject, line, len);
}

void nats_service_publish_audit(NatsService *self, const char *subject) {
  self->audit_subject = subject;
  engine_host_forward_audit(self->host, nats_service__audit_line, self);
}

/* ----------------------------------------------------------- lifecycle */

static int nats_service__connect(NatsService *self, const char *url,
                                 const EddiLinkCredentials *auth) {
  const ServerOptions *o = self->host->options;
  EddiLinkOptions options = {
      .url = url,
      .name = self->instance_id,
      .retry_first_connect = true,
      .creds_file = o->creds_file,
      .token = o->token,
      .user = o->user,
      .password = o->password,
      .tls_ca = o->tls_ca,
      .tls_cert = o->tls_cert,
      .tls_key = o->tls_key,
      .listener = nats_service__on_notice,
      .closure = self,
  };
  if (auth) eddi_link_credentials_apply(auth, &options);
  char why[EDDI_LINK_FAIL_MAX];
  if (eddi_link_connect(&self->link, &options, why, sizeof why) == 0) return SERVER_OK;
  log_report(LOG_ERROR, "nats", "cannot connect to %s: %s", url, why);
  return SERVER_ENATS;
}

/* The web users send on eddi.u.<user>.cmd (doc/web.org): serve those
 * subjects too, the sender taken from the subject. */
static int nats_service__serve_web_users(NatsService *self, EndpointTable *endpoints) {
  eddi_link_identity_subject(self->web_instance_subject, sizeof self->web_instance_subject, "*",
                             self->instance_id);
  const char *names[NATS_COMMAND_ENDPOINTS] = {"web_cmd", "web_instance_cmd"};
  const char *subjects[NATS_COMMAND_ENDPOINTS] = {EDDI_LINK_IDENTITY_ANY_SUBJECT,
                                                  self->web_instance_subject};
  for (size_t i = 0; i < NATS_COMMAND_ENDPOINTS; i++) {
    int id = endpoints_add(endpoints, names[i], subjects[i], EDDI_LINK_QUEUE_GROUP);
    if (id < 0) return id;
    self->commands[NATS_COMMAND_ENDPOINTS + i] = (NatsCommandEndpoint){self, id, true};
  }
  return SERVER_OK;
}

int nats_service_start(NatsService *self, EngineHost *host, EndpointTable *endpoints,
                       const char *url, const char *instance_id,
                       const EddiLinkCredentials *auth) {
  memset(self, 0, sizeof *self);
  self->host = host;
  self->endpoints = endpoints;
  self->instance_id = instance_id;
  self->rules = (EddiLinkBodyRules){.max_bytes = host->options->max_message_bytes};
  self->identity_from_subject = options_identity_from_subject(host->options);
  const char *any_subject = EDDI_LINK_CMD_SUBJECT;
  if (self->identity_from_subject) {
    any_subject = EDDI_LINK_IDENTITY_ANY_SUBJECT;
    eddi_link_identity_subject(self->instance_subject, sizeof self->instance_subject, "*",
                               instance_id);
  } else {
    eddi_link_instance_subject(self->instance_subject, sizeof self->instance_subject,
                               instance_id);
  }
  int status = nats_service__connect(self, url, auth);
  if (status != SERVER_OK) return status;

  const char *names[NATS_COMMAND_ENDPOINTS] = {"cmd", "instance_cmd"};
  const char *subjects[NATS_COMMAND_ENDPOINTS] = {any_subject, self->instance_subject};
  for (size_t i = 0; i < NATS_COMMAND_ENDPOINTS && status == SERVER_OK; i++) {
    int id = endpoints_add(endpoints, names[i], subjects[i], EDDI_LINK_QUEUE_GROUP);
    self->commands[i] = (NatsCommandEndpoint){self, id, self->identity_from_subject};
    if (id < 0) status = id;
  }
  if (status == SERVER_OK && host->options->web && !self->identity_from_subject)
    status = nats_service__serve_web_users(self, endpoints);
  eddi_engine_listen_sessions(host->engine, nats_service__session_event, self);
  if (status == SERVER_OK && eddi_link_share_sessions(self->link, host->engine, instance_id,
                                                      host->options->max_message_bytes) != 0)
    status = SERVER_ENATS;
  int (*serve)(EddiLink *, const char *, EddiLinkHandler, void *, void *) =
      self->identity_from_subject ? eddi_link_serve_identity_commands : eddi_link_serve_commands;
  if (status == SERVER_OK && serve(self->link, instance_id, nats_service__on_command,
                                   &self->commands[0], &self->commands[1]) != 0)
    status = SERVER_ENATS;
  if (status == SERVER_OK && host->options->web && !self->identity_from_subject &&
      eddi_link_serve_identity_commands(self->link, instance_id, nats_service__on_command,
                                        &self->commands[NATS_COMMAND_ENDPOINTS],
                                        &self->commands[NATS_COMMAND_ENDPOINTS + 1]) != 0)
    status = SERVER_ENATS;
  return status;
}

void nats_service_announce(NatsService *self) {
  eddi_link_flush(self->link);
  log_report(LOG_INFO, "nats", "instance %s serving %s and %s", self->instance_id,
             self->identity_from_subject ? EDDI_LINK_IDENTITY_ANY_SUBJECT : EDDI_LINK_CMD_SUBJECT,
             self->instance_subject);
}

void nats_service_drain(NatsService *self) { eddi_link_drain(self->link); }

void nats_service_close(NatsService *self) {
  if (self->host && self->host->engine) eddi_engine_listen_sessions(self->host->engine, NULL, NULL);
  eddi_link_close(self->link);
  self->link = NULL;
}
