/* bench_support.h - the clock, the statistics and the scratch folder the benchmarks use. */
#ifndef EDDI_BENCH_SUPPORT_H
#define EDDI_BENCH_SUPPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline double bench_now_ms(void) { return bench_now_us() / 1e3; }

static inline int bench__by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The sample at fraction p (0.5: the median) of samples, which it sorts. */
static inline double bench_percentile(double *samples, size_t n, double p) {
  qsort(samples, n, sizeof *samples, bench__by_value);
  size_t at = (size_t)(p * (double)n);
  return samples[at < n ? at : n - 1];
}

static inline double bench_median(double *samples, size_t n) {
  return bench_percentile(samples, n, 0.5);
}

/* A fresh folder eddi-bench-<name>-XXXXXX under $TMPDIR (or /tmp) into
 * root, and path = root/<file>; false (with perror) when it cannot be made.
 * The caller removes both. */
static inline bool bench_workspace(const char *name, const char *file, char *root,
                                   size_t root_size, char *path, size_t path_size) {
  const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
  snprintf(root, root_size, "%s/eddi-bench-%s-XXXXXX", tmp, name);
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return false;
  }
  snprintf(path, path_size, "%s/%s", root, file);
  return true;
}

#endif
