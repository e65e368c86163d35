/* bench_long.c - other senders during a long edit (Replace All on 1M lines,
 * its Undo and Redo), in one engine with a waker as eddi-server runs it.
 *
 * Not a test: it prints figures. Sender a opens a generated file of
 * BENCH_LONG_LINES lines (every line matches) and sends the command; while
 * its work runs, sender b sends Status every BENCH_LONG_POLL_US and each
 * round trip is timed; when the waker fires, eddi_engine_take_finished
 * runs the finish on the owner thread, which is the longest b can wait.
 * Also timed: the same command run at once (no waker), for reference.
 *
 * Usage: bench_long [lines]
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"
#include "eddi.h"

#define BENCH_LONG_LINES 1000000
#define BENCH_LONG_POLL_US 1000
#define BENCH_LONG_SAMPLES_MAX 100000

static atomic_int bench_wakes;

static void bench__wake(void *closure) {
  (void)closure;
  atomic_fetch_add(&bench_wakes, 1);
}

static void bench__ignore(void *closure, uint64_t ticket, const EddiReply *reply) {
  (void)closure, (void)ticket, (void)reply;
}

/* One request; true when it went pending. */
static bool bench__request(EddiEngine *engine, const char *sender, const char *text) {
  EddiRequest req = {.sender = sender, .text = text, .len = strlen(text), .ticket = 1};
  EddiReply reply;
  eddi_request_exec(engine, &req, &reply);
  bool pending = reply.pending;
  eddi_reply_free(&reply);
  return pending;
}

/* a's command as long work, b's Status meanwhile. */
static void bench__during(EddiEngine *engine, const char *command) {
  static double samples[BENCH_LONG_SAMPLES_MAX];
  size_t count = 0;
  int before = atomic_load(&bench_wakes);
  double t0 = bench_now_ms();
  bool pending = bench__request(engine, "a", command);
  double returned = bench_now_ms() - t0;
  while (pending && atomic_load(&bench_wakes) == before && count < BENCH_LONG_SAMPLES_MAX) {
    double s = bench_now_us();
    bench__request(engine, "b", "Status");
    samples[count++] = bench_now_us() - s;
    usleep(BENCH_LONG_POLL_US);
  }
  double work = bench_now_ms() - t0;
  double f0 = bench_now_ms();
  eddi_engine_take_finished(engine, bench__ignore, NULL);
  double finish = bench_now_ms() - f0;
  double p50 = count ? bench_percentile(samples, count, 0.5) : 0;
  double max = count ? samples[count - 1] : 0; /* sorted by the percentile */
  printf("| %-34s | %s | %6.1f | %8.1f | %5zu | %6.1f | %7.1f | %6.2f |\n", command,
         pending ? "yes" : "no ", returned, work, count, p50, max, finish);
}

int main(int argc, char **argv) {
  size_t lines = argc > 1 ? strtoul(argv[1], NULL, 10) : BENCH_LONG_LINES;
  char root[PATH_MAX], path[PATH_MAX + 16];
  if (!bench_workspace("long", "big.txt", root, sizeof root, path, sizeof path)) return 1;
  FILE *out = fopen(path, "w");
  if (!out) return perror(path), 1;
  for (size_t i = 0; i < lines; i++) fprintf(out, "the quick brown fox %zu jumps\n", i);
  fclose(out);

  /* At once, for reference: the CLI's way (no waker). */
  EddiEngine *engine = eddi_engine_new(root, NULL, NULL, 0);
  eddi_string_free(eddi_exec(engine, "a", "Start a\nOpen big.txt", 20));
  const char *commands[] = {"Replace /fox (\\d+)/ \"cat $1\" All", "Undo", "Redo"};
  printf("%zu lines, at once (no waker): ", lines);
  for (size_t i = 0; i < 3; i++) {
    double t0 = bench_now_ms();
    eddi_string_free(eddi_exec(engine, "a", commands[i], strlen(commands[i])));
    printf("%s %.1f ms%s", i ? (i == 1 ? "Undo" : "Redo") : "Replace All", bench_now_ms() - t0,
           i < 2 ? ", " : "\n");
  }
  eddi_engine_free(engine);

  engine = eddi_engine_new(root, NULL, NULL, 0);
  eddi_engine_set_waker(engine, bench__wake, NULL);
  bench__request(engine, "a", "Start a\nOpen big.txt");
  bench__request(engine, "b", "Start b");
  printf("| command (sender a) | pending | a's call returns ms | work ms | b's Status | "
         "p50 us | max us | finish on owner ms |\n");
  for (size_t i = 0; i < 3; i++) bench__during(engine, commands[i]);
  eddi_engine_free(engine);
  unlink(path);
  rmdir(root);
  return 0;
}
