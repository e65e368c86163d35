/* liveness.c - see liveness.h. */
#include "liveness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "log.h"
#include "server_error.h"

/* How often the registry is looked at for new instances between rounds. */
#define LIVENESS_POLL_MS 50
/* A ping waits at most this long (or half the timeout, if shorter). */
#define LIVENESS_PING_MAX_MS 1000
/* Instances pinged in one round at most. */
#define LIVENESS_INSTANCES_MAX 256

static int64_t liveness__now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Ask instance name whether it is there: 0, EDDI_LINK_ENORESPONDERS, or
 * another failure (no answer in wait_ms). */
static int liveness__ping(Liveness *self, const char *name, int wait_ms) {
  char subject[EDDI_INSTANCE_NAME_MAX + 32], why[EDDI_LINK_FAIL_MAX];
  snprintf(subject, sizeof subject, "$SRV.PING.eddi.%.*s", EDDI_INSTANCE_NAME_MAX, name);
  char *answer = NULL;
  int rc = eddi_link_request(self->link, subject, "", 0, wait_ms, &answer, why, sizeof why);
  free(answer);
  return rc;
}

/* One round: ping every instance heard of, then expire the silent ones. */
static void liveness__round(Liveness *self) {
  static char names[LIVENESS_INSTANCES_MAX][EDDI_INSTANCE_NAME_MAX + 1];
  size_t count = eddi_engine_instances(self->engine, names, LIVENESS_INSTANCES_MAX);
  int wait_ms = (int)(self->timeout_ms / 2 < LIVENESS_PING_MAX_MS ? self->timeout_ms / 2
                                                                   : LIVENESS_PING_MAX_MS);
  if (wait_ms < 1) wait_ms = 1;
  /* A round long after the last one: this process was stopped or starved.
   * The others' silence was measured across its own pause, so they are
   * not judged by it this round, only pinged. */
  int64_t began_ms = liveness__now_ms();
  bool paused = self->last_round_ms && began_ms - self->last_round_ms > (int64_t)self->timeout_ms;
  if (paused) log_report(LOG_INFO, "liveness", "no round for %lld ms: not expiring this round",
                         (long long)(began_ms - self->last_round_ms));
  for (size_t i = 0; i < count; i++) {
    int rc = liveness__ping(self, names[i], wait_ms);
    if (rc == 0) eddi_engine_instance_answered(self->engine, names[i], true);
    else if (rc == EDDI_LINK_ENORESPONDERS && !eddi_engine_instance_gone(self->engine, names[i])) {
      eddi_engine_instance_answered(self->engine, names[i], false);
      session_kv_instance_gone(self->kv, names[i]);
    }
  }
  self->last_round_ms = liveness__now_ms();
  /* A session held here that another instance took over while this one
   * was stopped stands down (most likely right after a pause). */
  session_kv_check_holders(self->kv);
  if (paused) return;
  /* Silent past the timeout is dead too (a stopped process keeps its
   * connection, so NATS still routes to it and never says "no
   * responders"): its sessions are taken over as a gone one's are, once
   * a last ping confirms the silence (a slow answer is not a death). */
  static bool gone_before[LIVENESS_INSTANCES_MAX];
  for (size_t i = 0; i < count; i++) gone_before[i] = eddi_engine_instance_gone(self->engine, names[i]);
  size_t dropped = eddi_engine_expire_instances(self->engine, self->timeout_ms);
  if (dropped) log_report(LOG_INFO, "liveness", "dropped %zu sessions of silent instances", dropped);
  for (size_t i = 0; i < count; i++) {
    if (gone_before[i] || !eddi_engine_instance_gone(self->engine, names[i])) continue;
    if (self->kv && liveness__ping(self, names[i], wait_ms) == 0) {
      eddi_engine_instance_answered(self->engine, names[i], true);
      continue;
    }
    log_report(LOG_INFO, "liveness", "%s did not answer for %u ms", names[i], self->timeout_ms);
    session_kv_instance_gone(self->kv, names[i]);
  }
}

static void *liveness__main(void *closure) {
  Liveness *self = closure;
  unsigned period_ms = self->timeout_ms / 4 ? self->timeout_ms / 4 : 1;
  unsigned waited_ms = period_ms; /* the first round at once */
  pthread_mutex_lock(&self->mutex);
  while (!self->stop) {
    bool due = waited_ms >= period_ms || eddi_engine_instances_unverified(self->engine);
    if (due) {
      pthread_mutex_unlock(&self->mutex);
      liveness__round(self);
      pthread_mutex_lock(&self->mutex);
      waited_ms = 0;
      continue;
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)LIVENESS_POLL_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&self->wake, &self->mutex, &until);
    waited_ms += LIVENESS_POLL_MS;
  }
  pthread_mutex_unlock(&self->mutex);
  return NULL;
}

int liveness_start(Liveness *self, EddiLink *link, EddiEngine *engine, unsigned timeout_ms,
                   SessionKv *kv) {
  memset(self, 0, sizeof *self);
  self->kv = kv;
  self->link = link;
  self->engine = engine;
  self->timeout_ms = timeout_ms;
  pthread_mutex_init(&self->mutex, NULL);
  pthread_cond_init(&self->wake, NULL);
  if (pthread_create(&self->thread, NULL, liveness__main, self) != 0) return SERVER_ENOMEM;
  self->running = true;
  return SERVER_OK;
}

void liveness_stop(Liveness *self) {
  if (!self->running) return;
  pthread_mutex_lock(&self->mutex);
  self->stop = true;
  pthread_cond_signal(&self->wake);
  pthread_mutex_unlock(&self->mutex);
  pthread_join(self->thread, NULL);
  self->running = false;
  pthread_cond_destroy(&self->wake);
  pthread_mutex_destroy(&self->mutex);
}
