/* bench_support.h - the clock and the statistics every benchmark uses. */
#ifndef EDDI_BENCH_SUPPORT_H
#define EDDI_BENCH_SUPPORT_H

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

#endif
