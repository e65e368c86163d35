/* bench_open.c - Open of a large file, whole process, against `wc -l`.
 *
 * Not a test: it prints figures next to a reference measured in the same
 * run. A generated file of BENCH_OPEN_LINES lines (about 42 bytes a line,
 * one two-byte character each: 36-42 MB) is opened by the eddi program
 * (`eddi --root D -c Start -c 'Open big.txt'`), and counted by `wc -l`;
 * medians of BENCH_OPEN_RUNS runs of each, interleaved, and the peak resident set of
 * each (getrusage of the child), against the file's size.
 *
 * Usage: bench_open [lines]
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_support.h"

#define BENCH_OPEN_LINES 1000000
#define BENCH_OPEN_RUNS 15

#ifndef EDDI_CLI_PATH
#define EDDI_CLI_PATH "eddi"
#endif

/* Run argv with stdout to /dev/null: its wall time in ms, its peak RSS in KiB. */
static double bench__run(char *const argv[], long *max_rss_kb) {
  double start = bench_now_ms();
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout)) _exit(127);
    execvp(argv[0], argv);
    _exit(127);
  }
  int status;
  struct rusage usage;
  wait4(pid, &status, 0, &usage);
  double took = bench_now_ms() - start;
  *max_rss_kb = usage.ru_maxrss;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fprintf(stderr, "failed: %s\n", argv[0]);
  return took;
}

/* Both commands BENCH_OPEN_RUNS times, interleaved so that the machine's
 * other load hits both alike: medians, and the largest peak RSS of each. */
static void bench__medians(char *const a[], char *const b[], double ms[2], long rss[2]) {
  double samples[2][BENCH_OPEN_RUNS];
  rss[0] = rss[1] = 0;
  for (int i = 0; i < BENCH_OPEN_RUNS; i++) {
    for (int k = 0; k < 2; k++) {
      long peak;
      samples[k][i] = bench__run(k ? b : a, &peak);
      if (peak > rss[k]) rss[k] = peak;
    }
  }
  for (int k = 0; k < 2; k++) ms[k] = bench_median(samples[k], BENCH_OPEN_RUNS);
}

int main(int argc, char **argv) {
  size_t lines = argc > 1 ? strtoul(argv[1], NULL, 10) : BENCH_OPEN_LINES;
  char root[PATH_MAX], path[PATH_MAX + 16];
  if (!bench_workspace("open", "big.txt", root, sizeof root, path, sizeof path)) return 1;
  FILE *out = fopen(path, "w");
  if (!out) return perror(path), 1;
  for (size_t i = 0; i < lines; i++) fprintf(out, "    x = the_quick_brown_fox(%zu); # \xC3\xA9\n", i);
  fclose(out);
  struct stat st;
  stat(path, &st);
  char *eddi[] = {EDDI_CLI_PATH, "--root", root, "-c", "Start b", "-c", "Open big.txt", NULL};
  char *wc[] = {"wc", "-l", path, NULL};
  long rss[2], ignored;
  double ms[2];
  bench__run(eddi, &ignored), bench__run(wc, &ignored); /* warm the page cache */
  bench__medians(eddi, wc, ms, rss);
  double eddi_ms = ms[0], wc_ms = ms[1];
  long rss_eddi = rss[0], rss_wc = rss[1];
  double file_kb = (double)st.st_size / 1024.0;
  printf("Open of a %.1f MB file (%zu lines), whole process, medians of %d runs\n",
         (double)st.st_size / 1e6, lines, BENCH_OPEN_RUNS);
  printf("  eddi Open %.1f ms, wc -l %.1f ms: x%.2f\n", eddi_ms, wc_ms, eddi_ms / wc_ms);
  printf("  peak RSS: eddi %.1f MB (x%.2f of the file), wc %.1f MB\n", rss_eddi / 1024.0,
         (double)rss_eddi / file_kb, rss_wc / 1024.0);
  unlink(path);
  rmdir(root);
  return 0;
}
