/* cli_nats.h - the eddi program as a client of eddi-server over NATS.
 *
 * `eddi --nats URL` sends each message as a request to eddi.cmd with a JSON
 * body {sender, text} and prints the reply text, so the CLI works the same
 * against the embedded engine and a remote one. A session lives on one
 * server instance: when a reply names it (", Instance <id>" after Start),
 * later messages go to eddi.<id>.cmd. */
#ifndef EDDI_CLI_NATS_H
#define EDDI_CLI_NATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct CliNats CliNats;

/* Connect to url; NULL and a message in error when it cannot. */
CliNats *cli_nats_connect(const char *url, int timeout_ms, char *error, size_t error_size);
void cli_nats_close(CliNats *self);

/* Send one message from sender; returns the reply text (the caller frees it
 * with free()), or NULL with a message in error (no responder, timeout). */
char *cli_nats_request(CliNats *self, const char *sender, const char *text, size_t len,
                       char *error, size_t error_size);

#endif
