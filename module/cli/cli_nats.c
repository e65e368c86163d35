/* cli_nats.c - requests to eddi-server over NATS; see cli_nats.h. The
 * protocol (subjects, the JSON body, the connection) is the link's. */
#include "cli_nats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eddi_link.h"

/* How a Start's reply names the instance that holds the session. */
#define CLI_NATS_INSTANCE_MARK ", Instance "

struct CliNats {
  EddiLink *link;
  int timeout_ms;
  char subject[EDDI_LINK_SUBJECT_MAX]; /* eddi.cmd, then eddi.<id>.cmd */
};

CliNats *cli_nats_connect(const char *url, int timeout_ms, char *error, size_t error_size) {
  CliNats *self = calloc(1, sizeof *self);
  if (!self) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  EddiLinkOptions options = {.url = url, .connect_timeout_ms = timeout_ms};
  char why[EDDI_LINK_FAIL_MAX];
  if (eddi_link_connect(&self->link, &options, why, sizeof why) != 0) {
    snprintf(error, error_size, "cannot connect to %s: %s", url, why);
    free(self);
    return NULL;
  }
  self->timeout_ms = timeout_ms;
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
  eddi_link_instance_subject(self->subject, sizeof self->subject, instance);
}

char *cli_nats_request(CliNats *self, const char *sender, const char *text, size_t len,
                       char *error, size_t error_size) {
  char *body = eddi_link_body_json(sender, NULL, text, len);
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
