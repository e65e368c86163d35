/* liveness.h - ask the other instances whether they are alive.
 *
 * The session registry remembers which instance holds which session; an
 * instance killed with -9 never says it is gone. A thread here pings each
 * instance the registry has heard of ($SRV.PING.eddi.<id>, which every
 * eddi-server answers) every quarter of the timeout, and at once when a
 * new one is heard of, so that an announcement of a session from an
 * instance that is not there (a forged eddi.session.events message, a
 * dead instance's late one) is dropped within a round trip, and the
 * sessions of an instance silent for longer than the timeout within it.
 * With --kv both deaths (no responders, and silent past the timeout: a
 * stopped process whose connection NATS keeps) lead to a takeover, and
 * each round checks that the sessions held here are not held elsewhere
 * now (session_kv.h: standing down).
 */
#ifndef EDDI_SERVER_LIVENESS_H
#define EDDI_SERVER_LIVENESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "eddi.h"
#include "eddi_link.h"
#include "session_kv.h"

typedef struct {
  EddiLink *link;
  EddiEngine *engine;
  unsigned timeout_ms;
  SessionKv *kv; /* --kv: a dead instance's sessions are taken over; may be NULL */
  int64_t last_round_ms; /* monotonic, when the last round ended (0: none yet) */
  pthread_t thread;
  pthread_mutex_t mutex;
  pthread_cond_t wake;
  bool stop;
  bool running;
} Liveness;

/* Start pinging over link for engine's registry (both borrowed until
 * liveness_stop). */
int liveness_start(Liveness *self, EddiLink *link, EddiEngine *engine, unsigned timeout_ms,
                   SessionKv *kv);
void liveness_stop(Liveness *self);

#endif
