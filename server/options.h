/* options.h - eddi-server's settings, from the command line and a config file.
 *
 * Both sources are read as the same `key value` pairs: `--max-queue 64` on the
 * command line is `max-queue 64` in a file given with `--config FILE`, so each
 * setting is parsed in one place. Later settings override earlier ones; the
 * list settings (allow, read-only) accumulate.
 */
#ifndef EDDI_SERVER_OPTIONS_H
#define EDDI_SERVER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Defaults, documented in doc/protocol.org. */
#define OPTIONS_DEFAULT_MAX_QUEUE 1024
/* How long another instance may leave $SRV.PING unanswered before its
 * sessions are dropped from the registry (doc/journal.org). */
#define OPTIONS_DEFAULT_LIVENESS_MS 10000
#define OPTIONS_DEFAULT_MAX_MESSAGE_BYTES (1024 * 1024)
/* An instance id is part of a subject (eddi.<id>.cmd): keep it short. */
#define OPTIONS_NAME_MAX 64

typedef struct {
  char **items;
  size_t count;
} StringList;

typedef struct {
  char *root;       /* workspace folder; NULL = the current folder */
  char *nats_url;   /* --nats URL; NULL = no NATS unless embedded */
  bool stdio;       /* serve JSON-RPC / MCP on stdin/stdout */
  char *name;       /* instance id; NULL = generated */
  char *creds_file; /* NATS authentication, at most one kind */
  char *token;
  char *user;
  char *password;
  char *tls_ca;
  char *tls_cert;
  char *tls_key;
  size_t max_queue;         /* requests waiting for the engine, then "Busy, retry" */
  size_t max_message_bytes; /* larger messages are refused */
  StringList allow;         /* senders allowed; empty = everyone */
  StringList read_only;     /* senders that may only run read-only commands */
  bool quiet;               /* no per-request log lines */
  char *nats_server_bin;    /* the embedded default's nats-server program */
  char *state_dir;          /* eddi's state folder; NULL = the engine's default */
  char *audit;              /* audit log file, "off", or NULL = <state>/audit.jsonl */
  char *audit_subject;      /* NATS subject each audit line is published on, or NULL */
  char *audit_failure;      /* "refuse" (NULL) or "continue": when a line cannot be written */
  char *identity;           /* "body" (NULL) or "subject" (doc/security.org) */
  bool no_journal;          /* sessions in memory only (doc/journal.org) */
  char *kv_bucket;          /* JetStream KV bucket mirroring session records, or NULL */
  size_t liveness_ms;       /* another instance silent this long is taken for dead */
  /* Ceilings of every sender's scripts (EddiConfig); 0: the engine's. */
  size_t script_max_steps;
  size_t script_max_ms;
  size_t script_max_bytes;
  size_t search_timeout_ms; /* a search running longer fails; 0: the engine's */
  bool no_lsp;              /* no language servers (doc/lsp.org) */
  StringList lsp;           /* LANG=COMMAND: the server of a language */
  size_t lsp_deadline_ms;   /* how long a language server may take; 0 = the engine's default */
  bool lsp_trust_workspace; /* the commands of the workspace's .eddi/lsp.conf may run */
  char *web;                /* --web HOST:PORT: serve the web interface (doc/web.org), or NULL */
  char *web_assets;         /* the page's built files; NULL = the build tree's */
  char *web_websocket;      /* with --nats: the browsers' nats-server WebSocket URL */
  StringList web_editors;   /* web users who may send commands as themselves */
  StringList web_viewers;   /* web users who may only watch */
} ServerOptions;

/* --identity: the sender a JSON body names, or the NATS user of the
 * subject eddi.u.<user>.cmd a request came on. */
#define OPTIONS_IDENTITY_BODY "body"
#define OPTIONS_IDENTITY_SUBJECT "subject"
/* --audit off: no audit file (an --audit-subject still gets the lines). */
#define OPTIONS_AUDIT_OFF "off"
/* --audit-failure: a line that cannot be written refuses further writes
 * (the default), or writes go on, each lost line said on stderr. */
#define OPTIONS_AUDIT_FAILURE_REFUSE "refuse"
#define OPTIONS_AUDIT_FAILURE_CONTINUE "continue"

/* Fill self from argv. Writes a message into error and returns SERVER_EINVAL
 * on a bad option; sets *help_only for --help (usage is printed). */
int options_parse(ServerOptions *self, int argc, char **argv, bool *help_only, char *error,
                  size_t error_size);
void options_free(ServerOptions *self);

/* --identity subject given. */
bool options_identity_from_subject(const ServerOptions *self);
/* --audit off given. */
bool options_audit_off(const ServerOptions *self);
/* --audit-failure continue given. */
bool options_audit_failure_continues(const ServerOptions *self);

/* True when sender may send at all / only run read-only commands. */
bool options_sender_allowed(const ServerOptions *self, const char *sender);
bool options_sender_read_only(const ServerOptions *self, const char *sender);

#endif
