/* work_queue.c - see work_queue.h.
 *
 * Lanes live in a plain array scanned linearly: there are never more lanes
 * than queued items, and a push or pop holds the mutex for a few compares.
 */
#include "work_queue.h"

#include <stdlib.h>
#include <string.h>

#include "server_error.h"

int work_queue_init(WorkQueue *self, size_t capacity) {
  memset(self, 0, sizeof *self);
  self->capacity = capacity;
  self->lanes = calloc(capacity + WORK_QUEUE_URGENT_MAX, sizeof *self->lanes);
  if (!self->lanes) return SERVER_ENOMEM;
  if (pthread_mutex_init(&self->mutex, NULL)) goto fail_mutex;
  if (pthread_cond_init(&self->ready, NULL)) goto fail_cond;
  return SERVER_OK;

fail_cond:
  pthread_mutex_destroy(&self->mutex);
fail_mutex:
  free(self->lanes);
  self->lanes = NULL;
  return SERVER_ENOMEM;
}

void work_queue_destroy(WorkQueue *self) {
  pthread_cond_destroy(&self->ready);
  pthread_mutex_destroy(&self->mutex);
  free(self->lanes);
  self->lanes = NULL;
}

/* Push item; past capacity only when urgent (and then by one at most). */
static int work_queue__push(WorkQueue *self, WorkItem *item, bool urgent) {
  int status = SERVER_OK;
  item->next = NULL;
  pthread_mutex_lock(&self->mutex);
  if (self->closed) {
    status = SERVER_ECLOSED;
    goto done;
  }
  if (self->count >= self->capacity + (urgent ? WORK_QUEUE_URGENT_MAX : 0)) {
    status = SERVER_EBUSY;
    goto done;
  }
  WorkLane *lane = NULL;
  for (size_t i = 0; i < self->lane_count && !lane; i++)
    if (strcmp(self->lanes[i].name, item->lane) == 0) lane = &self->lanes[i];
  if (lane) {
    lane->tail->next = item;
    lane->tail = item;
  } else {
    /* A new lane waits one full round: it goes just before the lane whose
     * turn it is. */
    size_t at = self->turn;
    memmove(&self->lanes[at + 1], &self->lanes[at], (self->lane_count - at) * sizeof *lane);
    self->lanes[at] = (WorkLane){.name = item->lane, .head = item, .tail = item};
    self->lane_count++;
    self->turn++;
    if (self->turn >= self->lane_count) self->turn = 0;
  }
  self->count++;
done:
  pthread_mutex_unlock(&self->mutex);
  /* Signalled after unlocking, so that the owner does not wake only to
   * wait for the mutex. */
  if (status == SERVER_OK) pthread_cond_signal(&self->ready);
  return status;
}

int work_queue_push(WorkQueue *self, WorkItem *item) {
  return work_queue__push(self, item, false);
}

int work_queue_push_urgent(WorkQueue *self, WorkItem *item) {
  return work_queue__push(self, item, true);
}

WorkItem *work_queue_pop(WorkQueue *self) {
  pthread_mutex_lock(&self->mutex);
  while (self->count == 0 && !self->closed) pthread_cond_wait(&self->ready, &self->mutex);
  WorkItem *item = NULL;
  if (self->count > 0) {
    WorkLane *lane = &self->lanes[self->turn];
    item = lane->head;
    lane->head = item->next;
    self->count--;
    if (lane->head) {
      /* The lane's next item names it from now on: the popped one is freed. */
      lane->name = lane->head->lane;
      self->turn++;
    } else {
      memmove(lane, lane + 1, (self->lane_count - self->turn - 1) * sizeof *lane);
      self->lane_count--;
    }
    if (self->turn >= self->lane_count) self->turn = 0;
  }
  pthread_mutex_unlock(&self->mutex);
  if (item) item->next = NULL;
  return item;
}

void work_queue_close(WorkQueue *self) {
  pthread_mutex_lock(&self->mutex);
  self->closed = true;
  pthread_cond_broadcast(&self->ready);
  pthread_mutex_unlock(&self->mutex);
}

size_t work_queue_length(WorkQueue *self) {
  pthread_mutex_lock(&self->mutex);
  size_t count = self->count;
  pthread_mutex_unlock(&self->mutex);
  return count;
}
