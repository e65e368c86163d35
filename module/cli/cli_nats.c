/* cli_nats.c - requests to eddi-server over NATS; see cli_nats.h. */
#include "cli_nats.h"

#include <json-c/json.h>
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI_NATS_SUBJECT "eddi.cmd"
#define CLI_NATS_INSTANCE_MARK ", Instance "
#define CLI_NATS_SUBJECT_MAX 128

struct CliNats {
  natsConnection *connection;
  int timeout_ms;
  char subject[CLI_NATS_SUBJECT_MAX]; /* eddi.cmd, then eddi.<id>.cmd */
};

CliNats *cli_nats_connect(const char *url, int timeout_ms, char *error, size_t error_size) {
  natsOptions *options = NULL;
  natsConnection *connection = NULL;
  natsStatus s = natsOptions_Create(&options);
  if (s == NATS_OK) s = natsOptions_SetURL(options, url);
  if (s == NATS_OK) s = natsOptions_SetTimeout(options, timeout_ms);
  if (s == NATS_OK) s = natsConnection_Connect(&connection, options);
  natsOptions_Destroy(options);
  if (s != NATS_OK) {
    snprintf(error, error_size, "cannot connect to %s: %s", url, natsStatus_GetText(s));
    return NULL;
  }
  CliNats *self = calloc(1, sizeof *self);
  self->connection = connection;
  self->timeout_ms = timeout_ms;
  snprintf(self->subject, sizeof self->subject, "%s", CLI_NATS_SUBJECT);
  return self;
}

void cli_nats_close(CliNats *self) {
  if (!self) return;
  natsConnection_Destroy(self->connection);
  free(self);
}

/* After a Start, the reply names the instance holding the session. */
static void cli_nats__follow_instance(CliNats *self, const char *reply) {
  const char *mark = strstr(reply, CLI_NATS_INSTANCE_MARK);
  if (!mark) return;
  const char *id = mark + strlen(CLI_NATS_INSTANCE_MARK);
  size_t len = strcspn(id, ",\n");
  if (len == 0 || len > CLI_NATS_SUBJECT_MAX - 16) return;
  snprintf(self->subject, sizeof self->subject, "eddi.%.*s.cmd", (int)len, id);
}

char *cli_nats_request(CliNats *self, const char *sender, const char *text, size_t len,
                       char *error, size_t error_size) {
  json_object *body = json_object_new_object();
  json_object_object_add(body, "sender", json_object_new_string(sender));
  json_object_object_add(body, "text", json_object_new_string_len(text, (int)len));
  const char *encoded = json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN);
  natsMsg *reply = NULL;
  natsStatus s = natsConnection_RequestString(&reply, self->connection, self->subject, encoded,
                                              self->timeout_ms);
  json_object_put(body);
  if (s != NATS_OK) {
    snprintf(error, error_size, "%s: %s", self->subject,
             s == NATS_NO_RESPONDERS ? "no eddi-server is listening" : natsStatus_GetText(s));
    return NULL;
  }
  char *result = strndup(natsMsg_GetData(reply), (size_t)natsMsg_GetDataLength(reply));
  natsMsg_Destroy(reply);
  cli_nats__follow_instance(self, result);
  return result;
}
