/* stdio_rpc.h - JSON-RPC 2.0 and MCP over stdin/stdout.
 *
 * One JSON message per line, as the MCP stdio transport frames them. A
 * reader thread parses requests; those that need the engine (eddi.exec,
 * the edit methods, tools/call) go through the host's queue and their
 * responses are written when the owner thread has run them, so responses
 * may come out of order (matched by id). The rest (initialize, tools/list, ping) is
 * answered on the reader thread.
 */
#ifndef EDDI_SERVER_STDIO_RPC_H
#define EDDI_SERVER_STDIO_RPC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine_host.h"

/* The engine sender of stdio requests that name none. */
#define STDIO_SENDER "stdio"

typedef struct {
  EngineHost *host;
  FILE *in;
  int out_fd;
  pthread_mutex_t write_mutex;
  pthread_t thread;
  bool running;
  bool initialized; /* MCP initialize seen (reader thread only) */
  void (*on_end)(void); /* called on the reader thread at end of input */
} StdioRpc;

int stdio_rpc_start(StdioRpc *self, EngineHost *host, FILE *in, int out_fd, void (*on_end)(void));
/* Wait for the reader (it stops at end of input). */
void stdio_rpc_join(StdioRpc *self);

#endif
