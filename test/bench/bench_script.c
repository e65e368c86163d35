/* bench_script.c - scripts against the shell's way of doing the same.
 *
 * 1. The migration of doc/performance.org: over a tree of 1,000 Python
 *    files (100 lines each, 100K lines; half of them import old_auth),
 *    `foreach file matching GLOB { replace "from old_auth import" with
 *    "from new_auth import" }` (GLOB: every .py file below the root, as
 *    the script below writes it) as one script (all files or none), against
 *    `rg -l old_auth | xargs sed -i` (neither atomic nor checked) on the
 *    same tree, reset (and synced) before each run. The target: at most
 *    2x. The script runs twice: on an engine with the journal (the
 *    crash-safe commit: the intent recorded, all or nothing under kill -9)
 *    and without (all or nothing while the process lives).
 * 2. `foreach caller of lib.f() replace with f($1, timeout=30)` over 200
 *    call sites in 50 files, warm (the engine made, the files in the page
 *    cache): every call resolved by name resolution. The target: < 1 s.
 * Medians of BENCH_RUNS runs. Usage: bench_script [folder] (a scratch
 * folder; a new one under /tmp by default). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_support.h"
#include "core/common.h"
#include "eddi.h"

#define BENCH_RUNS 5
#define MIGRATION_FILES 1000
#define MIGRATION_LINES 100
#define CALLER_FILES 50
#define CALLER_SITES_PER_FILE 4

static void bench__write(const char *path, const char *text) {
  FILE *out = fopen(path, "w");
  if (!out || fputs(text, out) < 0 || fclose(out) != 0) {
    perror(path);
    exit(2);
  }
}

static void bench__mkdir(const char *path) {
  if (mkdir(path, 0700) < 0 && access(path, F_OK) != 0) {
    perror(path);
    exit(2);
  }
}

/* The migration tree: pkgNN/modNNN.py, every other one importing old_auth. */
static void bench__migration_tree(const char *root) {
  char path[8192];
  StrBuf text = {0};
  for (int i = 0; i < MIGRATION_FILES; i++) {
    snprintf(path, sizeof path, "%s/pkg%02d", root, i / 100);
    bench__mkdir(path);
    snprintf(path, sizeof path, "%s/pkg%02d/mod%03d.py", root, i / 100, i);
    eddi_strbuf_clear(&text);
    eddi_strbuf_puts(&text, i % 2 ? "from old_auth import login\n" : "import os\n");
    for (int line = 1; line < MIGRATION_LINES; line++)
      eddi_strbuf_printf(&text, "value_%d = %d  # line %d of module %d\n", line, line * i, line, i);
    bench__write(path, text.data);
  }
  eddi_strbuf_free(&text);
  /* The tree's own writes are not the measured run's to flush. */
  sync();
}

static void bench__caller_tree(const char *root) {
  char path[8192];
  snprintf(path, sizeof path, "%s/lib.py", root);
  bench__write(path, "def f(x, timeout=None):\n    return x\n");
  StrBuf text = {0};
  for (int i = 0; i < CALLER_FILES; i++) {
    snprintf(path, sizeof path, "%s/use%02d.py", root, i);
    eddi_strbuf_clear(&text);
    eddi_strbuf_puts(&text, "import lib\nfrom lib import f\n\n\ndef work(items):\n");
    for (int k = 0; k < CALLER_SITES_PER_FILE; k++)
      eddi_strbuf_printf(&text, "    %s(items[%d])\n", k % 2 ? "lib.f" : "f", k);
    eddi_strbuf_puts(&text, "    return f\n");
    bench__write(path, text.data);
  }
  eddi_strbuf_free(&text);
}

static double bench__shell_ms(const char *command) {
  double start = bench_now_ms();
  if (system(command) != 0) fprintf(stderr, "failed: %s\n", command);
  return bench_now_ms() - start;
}

/* One script on a fresh engine over root; its time in ms, its reply in out. */
static double bench__script_ms(EddiEngine *engine, const char *script, char *out, size_t size) {
  double start = bench_now_ms();
  char *reply = eddi_exec(engine, "bench", script, strlen(script));
  double ms = bench_now_ms() - start;
  snprintf(out, size, "%s", reply);
  eddi_string_free(reply);
  return ms;
}

static EddiEngine *bench__engine(const char *root) {
  char error[512];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  if (!engine) {
    fprintf(stderr, "%s\n", error);
    exit(2);
  }
  return engine;
}

/* An engine over root with its journal in state (outside the tree). */
static EddiEngine *bench__journaled_engine(const char *root, const char *state) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = state;
  char error[512], report[512];
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  if (!engine || eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error) < 0) {
    fprintf(stderr, "%s\n", error);
    exit(2);
  }
  return engine;
}

int main(int argc, char **argv) {
  char base[1024];
  if (argc > 1) snprintf(base, sizeof base, "%s", argv[1]);
  else {
    snprintf(base, sizeof base, "/tmp/eddi-bench-script-XXXXXX");
    if (!mkdtemp(base)) return 2;
  }
  char migration[4096], callers[4096], state[4096], command[8192], reply[512];
  snprintf(migration, sizeof migration, "%s/migration", base);
  snprintf(state, sizeof state, "%s/state", base);
  snprintf(callers, sizeof callers, "%s/callers", base);
  bench__mkdir(migration);
  bench__mkdir(callers);

  double ours[BENCH_RUNS], journaled[BENCH_RUNS], shell[BENCH_RUNS], planned[BENCH_RUNS];
  const char *script =
      "{ foreach file matching \"**/*.py\" { replace \"from old_auth import\" with \"from new_auth "
      "import\" } }";
  const char *collect =
      "{ foreach file matching \"**/*.py\" { replace \"from old_auth import\" with \"from new_auth "
      "import\" } collect changes as \"m\" }";
  for (int run = 0; run < BENCH_RUNS; run++) {
    bench__migration_tree(migration);
    EddiEngine *engine = bench__engine(migration);
    ours[run] = bench__script_ms(engine, script, reply, sizeof reply);
    eddi_engine_free(engine);
    bench__migration_tree(migration);
    engine = bench__journaled_engine(migration, state);
    journaled[run] = bench__script_ms(engine, script, command, sizeof command);
    eddi_engine_free(engine);
    /* The same script collected: its run without the writes. */
    bench__migration_tree(migration);
    engine = bench__engine(migration);
    bench__script_ms(engine, "Start bench", command, sizeof command);
    planned[run] = bench__script_ms(engine, collect, command, sizeof command);
    eddi_engine_free(engine);
    bench__migration_tree(migration);
    snprintf(command, sizeof command,
             "cd '%s' && rg -l old_auth | xargs sed -i 's/from old_auth import/from new_auth import/'",
             migration);
    shell[run] = bench__shell_ms(command);
  }
  double a = bench_median(ours, BENCH_RUNS), b = bench_median(shell, BENCH_RUNS);
  printf("migration, %d files, %d lines\n", MIGRATION_FILES, MIGRATION_FILES * MIGRATION_LINES);
  double j = bench_median(journaled, BENCH_RUNS);
  printf("  script (atomic)          %8.1f ms  %s\n", a, reply);
  printf("  the same, journaled      %8.1f ms  (crash-safe: the intent recorded)\n", j);
  printf("  the same, collected      %8.1f ms  (the run without its writes)\n",
         bench_median(planned, BENCH_RUNS));
  printf("  rg -l | xargs sed -i     %8.1f ms\n", b);
  printf("  ratio                    %8.2f (target <= 2)\n", a / b);
  printf("  ratio, journaled         %8.2f (target <= 2)\n", j / b);

  bench__caller_tree(callers);
  EddiEngine *engine = bench__engine(callers);
  const char *rewrite = "foreach caller of lib.f() replace with f($1, timeout=30)";
  const char *back = "foreach file matching \"use*.py\" replace \", timeout=30)\" with \")\"";
  double warm[BENCH_RUNS];
  bench__script_ms(engine, rewrite, reply, sizeof reply); /* cold: the page cache, the grammar */
  bench__script_ms(engine, back, command, sizeof command);
  for (int run = 0; run < BENCH_RUNS; run++) {
    warm[run] = bench__script_ms(engine, rewrite, reply, sizeof reply);
    bench__script_ms(engine, back, command, sizeof command);
  }
  printf("callers, %d sites in %d files, warm\n", CALLER_FILES * CALLER_SITES_PER_FILE,
         CALLER_FILES);
  printf("  foreach caller of ...    %8.1f ms  %s (target < 1000)\n",
         bench_median(warm, BENCH_RUNS), reply);
  eddi_engine_free(engine);
  if (argc <= 1) {
    snprintf(command, sizeof command, "rm -rf '%s'", base);
    if (system(command) != 0) return 1;
  }
  return 0;
}
