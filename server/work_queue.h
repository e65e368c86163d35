/* work_queue.h - the bounded queue in front of the engine's owner thread.
 *
 * Transports (nats.c callbacks, the stdio reader) push work; the one owner
 * thread pops it. Work is grouped in lanes, one per sender: a lane runs in
 * order, and lanes take turns, so that a sender with many queued commands
 * delays another sender by at most one command. The queue holds at most
 * `capacity` items; a push past that fails with SERVER_EBUSY and the
 * transport answers "Busy, retry".
 */
#ifndef EDDI_SERVER_WORK_QUEUE_H
#define EDDI_SERVER_WORK_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct WorkItem WorkItem;

/* Runs on the owner thread with the owner's context; the item is then the
 * callee's to free. */
typedef void (*WorkRun)(WorkItem *self, void *context);

/* Embed as the first member of a transport's own request struct. */
struct WorkItem {
  WorkItem *next;   /* the queue's link */
  const char *lane; /* the sender; borrowed from the item, alive until run */
  WorkRun run;
};

typedef struct {
  const char *name;
  WorkItem *head, *tail;
} WorkLane;

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t ready;
  WorkLane *lanes;    /* lanes with work, in turn order; at most capacity */
  size_t lane_count;
  size_t turn;        /* the lane whose turn it is */
  size_t count;       /* queued items */
  size_t capacity;
  bool closed;
} WorkQueue;

int work_queue_init(WorkQueue *self, size_t capacity);
void work_queue_destroy(WorkQueue *self);

/* Queue item. SERVER_EBUSY when full, SERVER_ECLOSED after close; the item
 * stays the caller's then. */
int work_queue_push(WorkQueue *self, WorkItem *item);

/* Items an urgent push may add past the capacity: the engine's wake-up for
 * finished long work, of which there is one at a time. */
#define WORK_QUEUE_URGENT_MAX 1

/* Queue item even when the queue is full (by WORK_QUEUE_URGENT_MAX at most):
 * a wake-up that must not be lost. SERVER_EBUSY past that. */
int work_queue_push_urgent(WorkQueue *self, WorkItem *item);

/* Take the next item, waiting for one. NULL once the queue is closed and
 * empty: closing lets the owner finish what was queued (drain). */
WorkItem *work_queue_pop(WorkQueue *self);

void work_queue_close(WorkQueue *self);

/* Items queued now (for $SRV.STATS and tests). */
size_t work_queue_length(WorkQueue *self);

#endif
