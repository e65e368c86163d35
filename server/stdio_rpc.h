/* stdio_rpc.h - JSON-RPC 2.0 and MCP over stdin/stdout.
 *
 * One JSON message per line, as the MCP stdio transport frames them. A
 * reader thread parses requests; those that need the engine (eddi.exec,
 * the edit methods, tools/call) go through the host's queue and their
 * responses are written when the owner thread has run them, so responses
 * may come out of order (matched by id). The rest (initialize, tools/list, ping,
 * prompts, the resources that need no engine) is answered on the reader
 * thread. A request that gave a progress token hears how long its work has
 * run every STDIO_PROGRESS_INTERVAL_MS; notifications/cancelled stops its
 * work (engine_host_cancel) and it gets no response, as MCP says.
 */
#ifndef EDDI_SERVER_STDIO_RPC_H
#define EDDI_SERVER_STDIO_RPC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine_host.h"

/* The engine sender of stdio requests that name none. */
#define STDIO_SENDER "stdio"

/* Previews whose diffs stay readable as resources (eddi://preview/{n}). */
#define STDIO_PREVIEWS_KEPT 16

struct StdioJob;

typedef struct {
  EngineHost *host;
  FILE *in;
  int out_fd;
  pthread_mutex_t write_mutex;
  pthread_t thread;
  bool running;
  bool initialized; /* MCP initialize seen (reader thread only) */
  void (*on_end)(void); /* called on the reader thread at end of input */
  /* Requests taken and not yet answered, for notifications/cancelled and
   * progress; the previews kept; the least log level sent. Under
   * state_mutex (taken before write_mutex, never after). */
  pthread_mutex_t state_mutex;
  struct StdioJob *in_flight;
  char *previews[STDIO_PREVIEWS_KEPT]; /* preview n is at (n - 1) % KEPT */
  char *preview_titles[STDIO_PREVIEWS_KEPT];
  size_t previews_made;
  int log_level; /* index into MCP's levels, debug first */
  /* Sends notifications/progress for long requests that asked for them. */
  pthread_t ticker;
  pthread_cond_t ticker_wake;
  bool ticker_running, stopping;
  /* python.run calls running on threads of their own (under state_mutex):
   * the connection waits for them before it ends. */
  size_t python_runs;
  pthread_cond_t python_done;
} StdioRpc;

int stdio_rpc_start(StdioRpc *self, EngineHost *host, FILE *in, int out_fd, void (*on_end)(void));
/* Wait for the reader (it stops at end of input) and the python.run
 * calls still running. */
void stdio_rpc_join(StdioRpc *self);
/* Whether every request taken was answered (after stdio_rpc_join: the
 * connection may then be freed). */
bool stdio_rpc_idle(StdioRpc *self);

#endif
