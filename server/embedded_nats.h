/* embedded_nats.h - the embedded default: a private nats-server child.
 *
 * With neither --nats nor --stdio, eddi-server starts `nats-server -a
 * 127.0.0.1 -p -1` (a free port), reads the port from its log line
 * "Listening for client connections on ...", and serves that. The child
 * gets SIGTERM when eddi-server stops, and also when it dies
 * (PR_SET_PDEATHSIG), so no nats-server outlives it.
 */
#ifndef EDDI_SERVER_EMBEDDED_NATS_H
#define EDDI_SERVER_EMBEDDED_NATS_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#define EMBEDDED_URL_MAX 64

typedef struct {
  pid_t pid;
  int log_fd;            /* the child's stderr, forwarded to ours */
  pthread_t log_thread;
  bool log_thread_running;
  char url[EMBEDDED_URL_MAX];
} EmbeddedNats;

/* Start program (NULL: "nats-server" from PATH) and wait until it listens. */
int embedded_nats_start(EmbeddedNats *self, const char *program);
/* True if pid is the child and it has exited (reaped). */
bool embedded_nats_reap(EmbeddedNats *self);
/* Stop the child (SIGTERM, then SIGKILL after a grace period) and reap it. */
void embedded_nats_stop(EmbeddedNats *self);

#endif
