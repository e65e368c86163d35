/* bench_walk.c - the workspace walk (core/walk.h) against ripgrep's.
 *
 * Not a test: it prints figures next to a reference measured in the same
 * run over the same tree. The tree is a copy of a source folder (by default
 * /usr/include) made `copies` times into a fresh workspace, with a root
 * .gitignore of a few typical rules, so that both walks also match rules.
 *
 *   eddi_walk_run, counting regular files (what List and Grep keep), median
 *     of BENCH_WALK_RUNS runs;
 *   `rg --files --no-require-git` (and with -j1, one thread as the walk has),
 *     the same number of runs, its output counted through a pipe; its time
 *     includes starting the process (about a millisecond).
 * Both counts are printed: they agree when the tree has no symlinks.
 *
 * Usage: bench_walk [source_folder] [copies]   (default /usr/include 4)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_support.h"
#include "core/walk.h"

#define BENCH_WALK_RUNS 9
#define BENCH_WALK_COPIES_DEFAULT 4
#define BENCH_WALK_ENTRIES_MAX ((size_t)10000000)
#define BENCH_WALK_RULES "*.tmp\n*~\n**/bits/\n!**/bits/types.h\n/copy1/linux/\n"

static int bench__count_files(void *context, const EddiWalkEntry *entry) {
  size_t *files = context;
  if (!entry->is_link && S_ISREG(entry->st.st_mode)) ++*files;
  return EDDI_WALK_CONTINUE;
}

/* Run a shell command; its stdout's line count, or SIZE_MAX on failure. */
static size_t bench__lines_of(const char *command) {
  FILE *out = popen(command, "r");
  if (!out) return SIZE_MAX;
  size_t lines = 0;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, out)) > 0;)
    for (size_t i = 0; i < n; i++) lines += buf[i] == '\n';
  return pclose(out) == 0 ? lines : SIZE_MAX;
}

static double bench__rg(const char *root, const char *extra, size_t *files) {
  char command[PATH_MAX + 128];
  snprintf(command, sizeof command, "cd '%s' && rg --files --no-require-git %s", root, extra);
  double samples[BENCH_WALK_RUNS];
  for (int i = 0; i < BENCH_WALK_RUNS; i++) {
    double start = bench_now_ms();
    *files = bench__lines_of(command);
    samples[i] = bench_now_ms() - start;
  }
  return bench_median(samples, BENCH_WALK_RUNS);
}

int main(int argc, char **argv) {
  const char *source = argc > 1 ? argv[1] : "/usr/include";
  int copies = argc > 2 ? atoi(argv[2]) : BENCH_WALK_COPIES_DEFAULT;
  const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
  char pattern[PATH_MAX], root[PATH_MAX], command[3 * PATH_MAX];
  snprintf(pattern, sizeof pattern, "%s/eddi-bench-walk-XXXXXX", tmp);
  if (!mkdtemp(pattern) || !realpath(pattern, root)) return perror("mkdtemp"), 1;
  for (int i = 1; i <= copies; i++) {
    snprintf(command, sizeof command, "cp -R '%s' '%s/copy%d'", source, root, i);
    if (system(command) != 0) return fprintf(stderr, "cannot copy %s\n", source), 1;
  }
  snprintf(command, sizeof command, "%s/.gitignore", root);
  FILE *rules = fopen(command, "w");
  if (!rules) return perror(command), 1;
  fputs(BENCH_WALK_RULES, rules);
  fclose(rules);

  EddiWalk *walk = eddi_walk_new(root, &(EddiWalkOptions){.max_entries = BENCH_WALK_ENTRIES_MAX});
  double samples[BENCH_WALK_RUNS];
  size_t files = 0;
  for (int i = 0; i < BENCH_WALK_RUNS; i++) {
    files = 0;
    double start = bench_now_ms();
    eddi_walk_run(walk, bench__count_files, &files);
    samples[i] = bench_now_ms() - start;
  }
  size_t entries = eddi_walk_entries_read(walk);
  eddi_walk_free(walk);
  double ours = bench_median(samples, BENCH_WALK_RUNS);

  size_t rg_files = 0, rg1_files = 0;
  double rg = bench__rg(root, "", &rg_files);
  double rg1 = bench__rg(root, "-j1", &rg1_files);

  printf("tree: %d copies of %s, %zu entries read\n", copies, source, entries);
  printf("eddi_walk_run          %8.2f ms  %zu files\n", ours, files);
  printf("rg --files             %8.2f ms  %zu files  (walk/rg %.2f)\n", rg, rg_files, ours / rg);
  printf("rg --files -j1         %8.2f ms  %zu files  (walk/rg %.2f)\n", rg1, rg1_files,
         ours / rg1);
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  return system(command) == 0 ? 0 : 1;
}
