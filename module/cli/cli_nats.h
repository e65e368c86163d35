/* cli_nats.h - the eddi program as a client of eddi-server over NATS.
 *
 * `eddi --nats URL` sends each message as a request to eddi.cmd with a JSON
 * body {sender, text} and prints the reply text, so the CLI works the same
 * against the embedded engine and a remote one. A session lives on one
 * server instance: when a reply names it (", Instance <id>" after Start),
 * later messages go to eddi.<id>.cmd.
 *
 * A server that asks for a password (eddi-server's embedded default, or
 * one configured so) is given the credentials file's (eddi_link.h): the one
 * named with --credentials, else nats-client.json in eddi's state folder of
 * the workspace (--state DIR, or the one of --root), when it names this
 * URL. With "identity": "subject" in it, requests go to eddi.u.<user>.cmd
 * as <user> (--sender is the server's to ignore then) and replies come to
 * the inbox prefix _INBOX_<user> (doc/security.org). */
#ifndef EDDI_CLI_NATS_H
#define EDDI_CLI_NATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct CliNats CliNats;

typedef struct {
  const char *url;
  int timeout_ms;
  const char *root;        /* the workspace whose state folder is looked in; NULL: "." */
  const char *state_dir;   /* that state folder itself, or NULL */
  const char *credentials; /* a credentials file to use, or NULL to look */
} CliNatsOptions;

/* Connect as options say; NULL and a message in error when it cannot. */
CliNats *cli_nats_connect(const CliNatsOptions *options, char *error, size_t error_size);
void cli_nats_close(CliNats *self);

/* Send one message from sender; returns the reply text (the caller frees it
 * with free()), or NULL with a message in error (no responder, timeout). */
char *cli_nats_request(CliNats *self, const char *sender, const char *text, size_t len,
                       char *error, size_t error_size);

#endif
