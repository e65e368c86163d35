/* options.c - see options.h.
 *
 * One table describes every setting; the command line and the config file
 * both end in options__set(key, value).
 */
#include "options.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_error.h"

/* A config file line longer than this is refused rather than cut. */
#define OPTIONS_LINE_MAX 4096
/* A list setting (allow, read-only) holds at most this many names. */
#define OPTIONS_LIST_MAX 4096

typedef enum { OPTION_STRING, OPTION_FLAG, OPTION_SIZE, OPTION_LIST, OPTION_CONFIG } OptionKind;

typedef struct {
  const char *key;
  OptionKind kind;
  size_t offset;
  const char *help;
} OptionSpec;

#define OPT(key, kind, field, help) {key, kind, offsetof(ServerOptions, field), help}

static const OptionSpec options__specs[] = {
    OPT("root", OPTION_STRING, root, "DIR      workspace folder (default: the current folder)"),
    OPT("nats", OPTION_STRING, nats_url, "URL      connect to this NATS server"),
    OPT("stdio", OPTION_FLAG, stdio, "         JSON-RPC 2.0 and MCP on stdin/stdout"),
    OPT("name", OPTION_STRING, name, "ID       instance id (eddi.<id>.cmd); default generated"),
    OPT("creds", OPTION_STRING, creds_file, "FILE    NATS credentials file"),
    OPT("token", OPTION_STRING, token, "T       NATS token"),
    OPT("user", OPTION_STRING, user, "U        NATS user (with --password)"),
    OPT("password", OPTION_STRING, password, "P    NATS password"),
    OPT("tls-ca", OPTION_STRING, tls_ca, "FILE   CA certificates to trust"),
    OPT("tls-cert", OPTION_STRING, tls_cert, "FILE client certificate (with --tls-key)"),
    OPT("tls-key", OPTION_STRING, tls_key, "FILE  client key"),
    OPT("max-queue", OPTION_SIZE, max_queue, "N     requests waiting for the engine (1024)"),
    OPT("max-message-bytes", OPTION_SIZE, max_message_bytes,
        "N largest message accepted (1048576)"),
    OPT("allow", OPTION_LIST, allow, "SENDER  allow only listed senders (repeatable)"),
    OPT("read-only", OPTION_LIST, read_only, "SENDER  sender may only read (repeatable)"),
    OPT("quiet", OPTION_FLAG, quiet, "         no log line per request"),
    OPT("nats-server-bin", OPTION_STRING, nats_server_bin,
        "P  nats-server program for the embedded default"),
    OPT("state", OPTION_STRING, state_dir,
        "DIR     eddi's state folder (default $XDG_STATE_HOME/eddi/<workspace id>)"),
    OPT("no-journal", OPTION_FLAG, no_journal,
        "   sessions in memory only: no journal, no recovery after a crash"),
    OPT("kv", OPTION_STRING, kv_bucket, "BUCKET    mirror session records to this JetStream KV bucket"),
    OPT("liveness-ms", OPTION_SIZE, liveness_ms,
        "N   drop other instances' sessions when they miss $SRV.PING this long (10000)"),
    OPT("audit", OPTION_STRING, audit, "FILE|off  audit log (default <state>/audit.jsonl)"),
    OPT("audit-subject", OPTION_STRING, audit_subject, "S publish each audit line on NATS subject S"),
    OPT("audit-failure", OPTION_STRING, audit_failure,
        "refuse|continue  when the audit log cannot be written: refuse writes (default) or go on"),
    OPT("identity", OPTION_STRING, identity,
        "body|subject  sender from the JSON body, or from eddi.u.<user>.cmd"),
    OPT("script-max-steps", OPTION_SIZE, script_max_steps,
        "N  ceiling of a script's steps: a larger limit steps is refused (10000000)"),
    OPT("script-max-ms", OPTION_SIZE, script_max_ms,
        "N     ceiling of a script's time: a larger limit time is refused (60000)"),
    OPT("script-max-bytes", OPTION_SIZE, script_max_bytes,
        "N  bytes a script may make: flags, notes, values, edits (16777216)"),
    OPT("search-timeout-ms", OPTION_SIZE, search_timeout_ms,
        "N  a search (Find, Replace, Grep) running longer fails (10000)"),
    OPT("no-lsp", OPTION_FLAG, no_lsp, "       no language servers, not even those found on PATH"),
    OPT("lsp", OPTION_LIST, lsp, "LANG=COMMAND  run COMMAND as LANG's language server (repeatable)"),
    OPT("lsp-deadline", OPTION_SIZE, lsp_deadline_ms,
        "MS  how long a language server may take to answer (20000)"),
    OPT("lsp-trust-workspace", OPTION_FLAG, lsp_trust_workspace,
        "  run the servers the workspace's .eddi/lsp.conf names"),
    OPT("web", OPTION_STRING, web,
        "HOST:PORT  serve the web interface there (127.0.0.1:0 picks a free port)"),
    OPT("web-assets", OPTION_STRING, web_assets, "DIR  the web interface's built files"),
    OPT("web-websocket", OPTION_STRING, web_websocket,
        "URL  with --nats: the nats-server WebSocket the browsers use"),
    OPT("web-editor", OPTION_LIST, web_editors,
        "USER  a web user who sends commands as itself (repeatable)"),
    OPT("web-viewer", OPTION_LIST, web_viewers, "USER  a web user who only watches (repeatable)"),
    OPT("config", OPTION_CONFIG, root, "FILE   read `key value` lines (same keys as above)"),
};

#define OPTIONS_SPEC_COUNT (sizeof options__specs / sizeof options__specs[0])

static void options__usage(void) {
  printf("usage: eddi-server [options]\n"
         "       eddi-server mcp-config --client CLIENT [--workspace DIR] [--write]\n"
         "With neither --nats nor --stdio, starts nats-server on 127.0.0.1 and serves it.\n"
         "mcp-config prints an MCP client's entry for this server (mcp-config --help).\n");
  for (size_t i = 0; i < OPTIONS_SPEC_COUNT; i++)
    printf("  --%s %s\n", options__specs[i].key, options__specs[i].help);
}

static const OptionSpec *options__find(const char *key) {
  for (size_t i = 0; i < OPTIONS_SPEC_COUNT; i++)
    if (strcmp(options__specs[i].key, key) == 0) return &options__specs[i];
  return NULL;
}

static int options__read_file(ServerOptions *self, const char *path, int depth, char *error,
                              size_t error_size);

/* A config file may include another, but not without end. */
#define OPTIONS_CONFIG_DEPTH_MAX 4

static int options__set(ServerOptions *self, const OptionSpec *spec, const char *value,
                        int depth, char *error, size_t error_size) {
  char *field = (char *)self + spec->offset;
  switch (spec->kind) {
  case OPTION_FLAG:
    *(bool *)field = true;
    return SERVER_OK;
  case OPTION_STRING: {
    char *copy = strdup(value);
    if (!copy) return SERVER_ENOMEM;
    free(*(char **)field);
    *(char **)field = copy;
    return SERVER_OK;
  }
  case OPTION_SIZE: {
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(value, &end, 10);
    if (errno || end == value || *end || n == 0 || n > SIZE_MAX / 2) {
      snprintf(error, error_size, "--%s wants a positive number, not '%s'", spec->key, value);
      return SERVER_EINVAL;
    }
    *(size_t *)field = (size_t)n;
    return SERVER_OK;
  }
  case OPTION_LIST: {
    StringList *list = (StringList *)field;
    if (list->count >= OPTIONS_LIST_MAX) {
      snprintf(error, error_size, "--%s given more than %d times", spec->key, OPTIONS_LIST_MAX);
      return SERVER_EINVAL;
    }
    char **items = realloc(list->items, (list->count + 1) * sizeof *items);
    if (!items) return SERVER_ENOMEM;
    list->items = items;
    if (!(items[list->count] = strdup(value))) return SERVER_ENOMEM;
    list->count++;
    return SERVER_OK;
  }
  case OPTION_CONFIG:
    if (depth >= OPTIONS_CONFIG_DEPTH_MAX) {
      snprintf(error, error_size, "config files nest deeper than %d", OPTIONS_CONFIG_DEPTH_MAX);
      return SERVER_EINVAL;
    }
    return options__read_file(self, value, depth + 1, error, error_size);
  }
  return SERVER_EINVAL;
}

static char *options__trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

/* Lines `key value` or `key` (flags); blank lines and `#` comments skipped. */
static int options__read_file(ServerOptions *self, const char *path, int depth, char *error,
                              size_t error_size) {
  FILE *file = fopen(path, "r");
  if (!file) {
    snprintf(error, error_size, "cannot read config %s: %s", path, strerror(errno));
    return SERVER_EINVAL;
  }
  char line[OPTIONS_LINE_MAX];
  int status = SERVER_OK, number = 0;
  while (status == SERVER_OK && fgets(line, sizeof line, file)) {
    number++;
    if (!strchr(line, '\n') && !feof(file)) {
      snprintf(error, error_size, "%s:%d: line too long", path, number);
      status = SERVER_EINVAL;
      break;
    }
    char *key = options__trim(line);
    if (!*key || *key == '#') continue;
    char *value = key + strcspn(key, " \t");
    if (*value) *value++ = '\0';
    value = options__trim(value);
    const OptionSpec *spec = options__find(key);
    if (!spec) {
      snprintf(error, error_size, "%s:%d: unknown setting '%s'", path, number, key);
      status = SERVER_EINVAL;
    } else if (spec->kind != OPTION_FLAG && !*value) {
      snprintf(error, error_size, "%s:%d: '%s' needs a value", path, number, key);
      status = SERVER_EINVAL;
    } else {
      status = options__set(self, spec, value, depth, error, error_size);
    }
  }
  fclose(file);
  return status;
}

/* A web user's name is part of its subjects (eddi.u.<user>.cmd): one
 * subject token, as an instance id is. */
static bool options__web_user_valid(const char *name) {
  size_t n = strlen(name);
  bool ok = n > 0 && n <= OPTIONS_NAME_MAX;
  for (size_t i = 0; ok && i < n; i++) {
    char c = name[i];
    ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '_';
  }
  return ok;
}

static bool options__listed(const StringList *list, const char *name);

/* The web settings go together (doc/web.org); the address itself is read
 * by web_server_listen. */
static int options__check_web(const ServerOptions *self, char *error, size_t error_size) {
  const StringList *lists[] = {&self->web_editors, &self->web_viewers};
  for (size_t l = 0; l < 2; l++)
    for (size_t i = 0; i < lists[l]->count; i++) {
      const char *user = lists[l]->items[i];
      if (!options__web_user_valid(user)) {
        snprintf(error, error_size, "--web-%s '%s': a user is 1-%d letters, digits, '-' or '_'",
                 l ? "viewer" : "editor", user, OPTIONS_NAME_MAX);
        return SERVER_EINVAL;
      }
      if (strcmp(user, "eddi") == 0 || strcmp(user, "client") == 0) {
        snprintf(error, error_size, "--web-%s '%s': that name is the embedded server's own",
                 l ? "viewer" : "editor", user);
        return SERVER_EINVAL;
      }
      if (l == 0 && options__listed(&self->web_viewers, user)) {
        snprintf(error, error_size, "'%s' is given as both --web-editor and --web-viewer", user);
        return SERVER_EINVAL;
      }
    }
  bool has_users = self->web_editors.count || self->web_viewers.count;
  const char *stray = has_users           ? "--web-editor/--web-viewer"
                      : self->web_assets    ? "--web-assets"
                      : self->web_websocket ? "--web-websocket"
                                            : NULL;
  if (!self->web && stray) {
    snprintf(error, error_size, "%s needs --web HOST:PORT", stray);
    return SERVER_EINVAL;
  }
  if (!self->web) return SERVER_OK;
  if (self->stdio && !self->nats_url) {
    snprintf(error, error_size, "--web needs NATS (--nats, or the embedded default), not --stdio alone");
    return SERVER_EINVAL;
  }
  if (self->nats_url && !self->web_websocket) {
    snprintf(error, error_size,
             "--web with --nats needs --web-websocket URL: the nats-server's WebSocket listener");
    return SERVER_EINVAL;
  }
  if (self->nats_url && has_users) {
    snprintf(error, error_size,
             "--web-editor/--web-viewer are the embedded server's users; with --nats, give "
             "the users in the nats-server's config");
    return SERVER_EINVAL;
  }
  if (!self->nats_url && self->web_websocket) {
    snprintf(error, error_size, "--web-websocket is for --nats; the embedded server makes its own");
    return SERVER_EINVAL;
  }
  if (!self->nats_url && !has_users) {
    snprintf(error, error_size, "--web needs at least one --web-editor or --web-viewer USER");
    return SERVER_EINVAL;
  }
  return SERVER_OK;
}

static int options__check(const ServerOptions *self, char *error, size_t error_size) {
  int auth_kinds = !!self->creds_file + !!self->token + !!(self->user || self->password);
  if (auth_kinds > 1) {
    snprintf(error, error_size, "give one of --creds, --token, --user/--password");
    return SERVER_EINVAL;
  }
  if (!self->user != !self->password) {
    snprintf(error, error_size, "--user and --password go together");
    return SERVER_EINVAL;
  }
  if (!self->tls_cert != !self->tls_key) {
    snprintf(error, error_size, "--tls-cert and --tls-key go together");
    return SERVER_EINVAL;
  }
  if (self->identity && strcmp(self->identity, OPTIONS_IDENTITY_BODY) != 0 &&
      strcmp(self->identity, OPTIONS_IDENTITY_SUBJECT) != 0) {
    snprintf(error, error_size, "--identity is %s or %s, not '%s'", OPTIONS_IDENTITY_BODY,
             OPTIONS_IDENTITY_SUBJECT, self->identity);
    return SERVER_EINVAL;
  }
  if (options_identity_from_subject(self) && !self->nats_url) {
    snprintf(error, error_size, "--identity %s needs --nats: the users are the server's",
             OPTIONS_IDENTITY_SUBJECT);
    return SERVER_EINVAL;
  }
  if (self->audit_failure && strcmp(self->audit_failure, OPTIONS_AUDIT_FAILURE_REFUSE) != 0 &&
      strcmp(self->audit_failure, OPTIONS_AUDIT_FAILURE_CONTINUE) != 0) {
    snprintf(error, error_size, "--audit-failure is %s or %s, not '%s'",
             OPTIONS_AUDIT_FAILURE_REFUSE, OPTIONS_AUDIT_FAILURE_CONTINUE, self->audit_failure);
    return SERVER_EINVAL;
  }
  if (self->audit_subject && self->stdio && !self->nats_url) {
    snprintf(error, error_size, "--audit-subject needs NATS (--nats, or the embedded default)");
    return SERVER_EINVAL;
  }
  if (options__check_web(self, error, error_size) != SERVER_OK) return SERVER_EINVAL;
  if (self->name) {
    size_t n = strlen(self->name);
    bool ok = n > 0 && n <= OPTIONS_NAME_MAX;
    for (size_t i = 0; ok && i < n; i++) {
      char c = self->name[i];
      ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
    }
    if (!ok) {
      snprintf(error, error_size, "--name must be 1-%d letters, digits, '-' or '_'",
               OPTIONS_NAME_MAX);
      return SERVER_EINVAL;
    }
  }
  return SERVER_OK;
}

int options_parse(ServerOptions *self, int argc, char **argv, bool *help_only, char *error,
                  size_t error_size) {
  memset(self, 0, sizeof *self);
  self->max_queue = OPTIONS_DEFAULT_MAX_QUEUE;
  self->max_message_bytes = OPTIONS_DEFAULT_MAX_MESSAGE_BYTES;
  self->liveness_ms = OPTIONS_DEFAULT_LIVENESS_MS;
  *help_only = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      options__usage();
      *help_only = true;
      return SERVER_OK;
    }
    const OptionSpec *spec = strncmp(arg, "--", 2) == 0 ? options__find(arg + 2) : NULL;
    if (!spec) {
      snprintf(error, error_size, "unknown option '%s' (see --help)", arg);
      return SERVER_EINVAL;
    }
    const char *value = "";
    if (spec->kind != OPTION_FLAG) {
      if (i + 1 >= argc) {
        snprintf(error, error_size, "%s needs a value", arg);
        return SERVER_EINVAL;
      }
      value = argv[++i];
    }
    int status = options__set(self, spec, value, 0, error, error_size);
    if (status == SERVER_ENOMEM) snprintf(error, error_size, "out of memory");
    if (status) return status;
  }
  return options__check(self, error, error_size);
}

static void options__free_list(StringList *list) {
  for (size_t i = 0; i < list->count; i++) free(list->items[i]);
  free(list->items);
}

void options_free(ServerOptions *self) {
  char **strings[] = {&self->root,      &self->nats_url, &self->name,     &self->creds_file,
                      &self->token,     &self->user,     &self->password, &self->tls_ca,
                      &self->tls_cert,  &self->tls_key,  &self->nats_server_bin,
                      &self->state_dir, &self->audit,    &self->audit_subject,
                      &self->audit_failure, &self->identity, &self->kv_bucket,
                      &self->web,       &self->web_assets, &self->web_websocket};
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) free(*strings[i]);
  options__free_list(&self->allow);
  options__free_list(&self->read_only);
  options__free_list(&self->lsp);
  options__free_list(&self->web_editors);
  options__free_list(&self->web_viewers);
  memset(self, 0, sizeof *self);
}

static bool options__listed(const StringList *list, const char *name) {
  for (size_t i = 0; i < list->count; i++)
    if (strcmp(list->items[i], name) == 0) return true;
  return false;
}

bool options_sender_allowed(const ServerOptions *self, const char *sender) {
  return self->allow.count == 0 || options__listed(&self->allow, sender) ||
         options__listed(&self->read_only, sender);
}

bool options_sender_read_only(const ServerOptions *self, const char *sender) {
  return options__listed(&self->read_only, sender);
}

bool options_identity_from_subject(const ServerOptions *self) {
  return self->identity && strcmp(self->identity, OPTIONS_IDENTITY_SUBJECT) == 0;
}

bool options_audit_off(const ServerOptions *self) {
  return self->audit && strcmp(self->audit, OPTIONS_AUDIT_OFF) == 0;
}

bool options_audit_failure_continues(const ServerOptions *self) {
  return self->audit_failure && strcmp(self->audit_failure, OPTIONS_AUDIT_FAILURE_CONTINUE) == 0;
}
