/* cli_nats.c - requests to eddi-server over NATS; see cli_nats.h. The
 * protocol (subjects, the JSON body, the connection) is the link's. */
#include "cli_nats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eddi_link.h"

/* How a Start's reply names the instance that holds the session. */
#define CLI_NATS_INSTANCE_MARK ", Instance "

/* How long a path to a credentials file may be. */
#define CLI_NATS_PATH_MAX 4096
#define CLI_NATS_INBOX_MAX (EDDI_SENDER_NAME_MAX + sizeof EDDI_LINK_IDENTITY_INBOX_PREFIX)

struct CliNats {
  EddiLink *link;
  int timeout_ms;
  /* With --identity subject on the server: the user requests are sent as. */
  char user[EDDI_SENDER_NAME_MAX + 1];
  char subject[EDDI_LINK_SUBJECT_MAX + EDDI_SENDER_NAME_MAX]; /* where requests go now */
};

/* The state folder the credentials are looked for in: the one asked for,
 * or the workspace's, as its engine names it. */
static bool cli_nats__state_dir(const CliNatsOptions *options, char *out, size_t out_size,
                                char *error, size_t error_size) {
  if (options->state_dir) {
    snprintf(out, out_size, "%s", options->state_dir);
    return true;
  }
  EddiEngine *engine = eddi_engine_new(options->root ? options->root : ".", NULL, error,
                                       error_size);
  const char *state = engine ? eddi_engine_state_dir(engine, error, error_size) : NULL;
  if (state) snprintf(out, out_size, "%s", state);
  eddi_engine_free(engine);
  return state != NULL;
}

/* Find the credentials for options->url: 0 with found filled (possibly
 * empty: none to give), or -1 with why in error. A file named with
 * --credentials must be there and fit the URL; the state folder's is used
 * only when it fits. */
static int cli_nats__credentials(const CliNatsOptions *options, EddiLinkCredentials *found,
                                 char *error, size_t error_size) {
  memset(found, 0, sizeof *found);
  char state[CLI_NATS_PATH_MAX], why[EDDI_LINK_FAIL_MAX];
  char path[CLI_NATS_PATH_MAX + sizeof EDDI_LINK_CLIENT_CREDENTIALS];
  bool named = options->credentials != NULL;
  if (named) {
    snprintf(path, sizeof path, "%s", options->credentials);
  } else {
    /* No state folder (no HOME, say): nothing to look in. */
    if (!cli_nats__state_dir(options, state, sizeof state, why, sizeof why)) return 0;
    snprintf(path, sizeof path, "%s/%s", state, EDDI_LINK_CLIENT_CREDENTIALS);
  }
  int rc = eddi_link_credentials_read(path, found, why, sizeof why);
  if (rc == EDDI_LINK_ENOENT && !named) return 0;
  if (rc < 0) {
    snprintf(error, error_size, "credentials %s", why);
    return -1;
  }
  if (eddi_link_credentials_fit(found, options->url)) return 0;
  if (named) {
    snprintf(error, error_size, "credentials %s are for %s, not %s", path, found->url,
             options->url);
    eddi_link_credentials_free(found);
    return -1;
  }
  eddi_link_credentials_free(found); /* another server's: not to be sent here */
  return 0;
}

CliNats *cli_nats_connect(const CliNatsOptions *options, char *error, size_t error_size) {
  CliNats *self = calloc(1, sizeof *self);
  if (!self) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  EddiLinkCredentials credentials;
  if (cli_nats__credentials(options, &credentials, error, error_size) < 0) {
    free(self);
    return NULL;
  }
  EddiLinkOptions link = {.url = options->url, .connect_timeout_ms = options->timeout_ms};
  eddi_link_credentials_apply(&credentials, &link);
  char inbox[CLI_NATS_INBOX_MAX];
  bool by_subject = credentials.identity && credentials.user &&
                    strcmp(credentials.identity, "subject") == 0 &&
                    strlen(credentials.user) < sizeof self->user;
  if (by_subject) {
    snprintf(self->user, sizeof self->user, "%s", credentials.user);
    snprintf(inbox, sizeof inbox, EDDI_LINK_IDENTITY_INBOX_PREFIX "%s", credentials.user);
    link.inbox_prefix = inbox;
  }
  char why[EDDI_LINK_FAIL_MAX];
  int rc = eddi_link_connect(&self->link, &link, why, sizeof why);
  eddi_link_credentials_free(&credentials);
  if (rc != 0) {
    snprintf(error, error_size, "cannot connect to %s: %s", options->url, why);
    free(self);
    return NULL;
  }
  self->timeout_ms = options->timeout_ms;
  if (self->user[0])
    eddi_link_identity_subject(self->subject, sizeof self->subject, self->user, NULL);
  else
    snprintf(self->subject, sizeof self->subject, "%s", EDDI_LINK_CMD_SUBJECT);
  return self;
}

void cli_nats_close(CliNats *self) {
  if (!self) return;
  eddi_link_close(self->link);
  free(self);
}

/* After a Start, the reply names the instance holding the session. */
static void cli_nats__follow_instance(CliNats *self, const char *reply) {
  const char *mark = strstr(reply, CLI_NATS_INSTANCE_MARK);
  if (!mark) return;
  const char *id = mark + strlen(CLI_NATS_INSTANCE_MARK);
  size_t len = strcspn(id, ",\n");
  char instance[EDDI_INSTANCE_NAME_MAX + 1];
  if (len == 0 || len >= sizeof instance) return;
  memcpy(instance, id, len);
  instance[len] = '\0';
  if (self->user[0])
    eddi_link_identity_subject(self->subject, sizeof self->subject, self->user, instance);
  else
    eddi_link_instance_subject(self->subject, sizeof self->subject, instance);
}

char *cli_nats_request(CliNats *self, const char *sender, const char *text, size_t len,
                       char *error, size_t error_size) {
  /* With the identity in the subject, the sender is the user, whatever
   * --sender says: say so in the body too. */
  char *body = eddi_link_body_json(self->user[0] ? self->user : sender, NULL, text, len);
  if (!body) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  char *reply = NULL, why[EDDI_LINK_FAIL_MAX];
  int rc = eddi_link_request(self->link, self->subject, body, strlen(body), self->timeout_ms,
                             &reply, why, sizeof why);
  free(body);
  if (rc != 0) {
    snprintf(error, error_size, "%s: %s", self->subject,
             rc == EDDI_LINK_ENORESPONDERS ? "no eddi-server is listening" : why);
    return NULL;
  }
  cli_nats__follow_instance(self, reply);
  return reply;
}
