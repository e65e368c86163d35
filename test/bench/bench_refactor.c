/* bench_refactor.c - a workspace rename against ast-grep's rewrite.
 *
 * Not a test: it prints figures next to a reference measured in the same
 * run over the same tree. The tree is a copy of a Python package (by
 * default Debian's pygments, about 115K lines in 300 files); each round
 * copies it afresh for each side, so that both start from the same bytes.
 *
 *   cold: the eddi CLI, whole process (--no-journal: the rename alone):
 *     Start, then Refactor RenameSymbol
 *     (the first command after start: the index is built from nothing);
 *   warm: in one engine, after a Preview of the same rename built the
 *     index: the Refactor alone, in-process (the Preview's plan is kept,
 *     rename.h: the Refactor scans, finds nothing changed, and writes);
 *     the same on an engine with the journal (the crash-safe commit of
 *     several files); and, to say where the time goes, a Refactor whose
 *     plan is made anew (after a Preview of another new name built the
 *     index: the plan, its differential check and the write) and a
 *     Preview made anew (the plan and its check alone);
 *   reference: `ast-grep run -p OLD -r NEW -l python -U`, whole process
 *     (npm @ast-grep/cli; found on PATH or through $AST_GREP). It matches
 *     text patterns, resolves nothing and does not fsync, so it is the speed
 *     a rename has to beat, not a rename.
 * Medians of BENCH_REFACTOR_ROUNDS rounds. After each round the two trees
 * are compared (diff -r), which says whether eddi changed what ast-grep
 * changed; a semantic rename may rightly differ.
 *
 * Usage: bench_refactor [package_folder] [old_name] [new_name] [eddi_cli]
 *   default: /usr/lib/python3/dist-packages/pygments get_bool_opt
 *   get_flag_opt, and the eddi CLI next to this program's build folder.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_support.h"
#include "eddi.h"

#define BENCH_REFACTOR_ROUNDS 5
#define BENCH_COMMAND_MAX     8192
#define BENCH_DEFAULT_TREE    "/usr/lib/python3/dist-packages/pygments"
#define BENCH_DEFAULT_OLD     "get_bool_opt"
#define BENCH_DEFAULT_NEW     "get_flag_opt"
#define BENCH_SENDER          "bench"
/* Paths this program makes or is given; kept short so commands fit. */
#define BENCH_PATH_MAX 1024

/* Run a shell command; its time in ms, or a negative number on failure. */
static double bench__timed(const char *command) {
  double start = bench_now_ms();
  int rc = system(command);
  double took = bench_now_ms() - start;
  return rc == 0 ? took : -1;
}

static void bench__copy(const char *from, const char *to) {
  char command[BENCH_COMMAND_MAX];
  snprintf(command, sizeof command,
           "rm -rf '%s' && mkdir -p '%s' && cp -r '%s' '%s/' && "
           "find '%s' -name __pycache__ -prune -exec rm -rf {} +",
           to, to, from, to, to);
  if (system(command) != 0) {
    fprintf(stderr, "could not copy %s\n", from);
    exit(1);
  }
}

static char *bench__exec(EddiEngine *engine, const char *message) {
  return eddi_exec(engine, BENCH_SENDER, message, strlen(message));
}

/* An engine over root; with state, its journal there (outside the tree). */
static EddiEngine *bench__engine(const char *root, const char *state) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = state;
  char error[512], report[512];
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  if (!engine ||
      (state && eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error) < 0)) {
    fprintf(stderr, "%s\n", error);
    exit(1);
  }
  return engine;
}

/* The ms of message in engine. */
static double bench__timed_exec(EddiEngine *engine, const char *message, char *reply,
                                size_t reply_size) {
  double start = bench_now_ms();
  char *answer = bench__exec(engine, message);
  double took = bench_now_ms() - start;
  if (reply) snprintf(reply, reply_size, "%s", answer);
  eddi_string_free(answer);
  return took;
}

/* The in-process rename after a Preview built the index; its ms. The
 * Preview is of the same rename, or (anew) of another new name, so that
 * the Refactor makes its plan again; with preview not NULL, a Preview of
 * the rename is timed there too, before the Refactor. With state, the
 * engine keeps its journal there. */
static double bench__warm(const char *root, const char *state, const char *old_name,
                          const char *new_name, bool anew, double *preview, char *reply,
                          size_t reply_size) {
  EddiEngine *engine = bench__engine(root, state);
  char message[BENCH_COMMAND_MAX];
  eddi_string_free(bench__exec(engine, "Start s"));
  snprintf(message, sizeof message, "Preview Refactor RenameSymbol %s %s%s", old_name, new_name,
           anew ? "_preview" : "");
  eddi_string_free(bench__exec(engine, message));
  snprintf(message, sizeof message, "Preview Refactor RenameSymbol %s %s", old_name, new_name);
  if (preview) *preview = bench__timed_exec(engine, message, NULL, 0);
  snprintf(message, sizeof message, "Refactor RenameSymbol %s %s", old_name, new_name);
  double took = bench__timed_exec(engine, message, reply, reply_size);
  eddi_engine_free(engine);
  return took;
}

static const char *bench__ast_grep(void) {
  const char *given = getenv("AST_GREP");
  if (given && *given) return given;
  return system("command -v ast-grep >/dev/null 2>&1") == 0 ? "ast-grep" : NULL;
}

int main(int argc, char **argv) {
  const char *tree = argc > 1 ? argv[1] : BENCH_DEFAULT_TREE;
  const char *old_name = argc > 2 ? argv[2] : BENCH_DEFAULT_OLD;
  const char *new_name = argc > 3 ? argv[3] : BENCH_DEFAULT_NEW;
  char cli[BENCH_PATH_MAX + 32];
  if (argc > 4) snprintf(cli, sizeof cli, "%s", argv[4]);
  else {
    char self[BENCH_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash) *slash = '\0';
    snprintf(cli, sizeof cli, "%s/../../module/eddi", self);
  }
  const char *ast_grep = bench__ast_grep();
  if (!ast_grep) {
    fprintf(stderr, "ast-grep not found: npm install @ast-grep/cli, then set AST_GREP\n");
    return 1;
  }
  char work[] = "/tmp/eddi-bench-refactor-XXXXXX";
  if (!mkdtemp(work)) return 1;
  char eddi_tree[BENCH_PATH_MAX], ref_tree[BENCH_PATH_MAX], warm_tree[BENCH_PATH_MAX];
  char state[BENCH_PATH_MAX];
  snprintf(eddi_tree, sizeof eddi_tree, "%s/eddi", work);
  snprintf(ref_tree, sizeof ref_tree, "%s/ast-grep", work);
  snprintf(warm_tree, sizeof warm_tree, "%s/warm", work);
  snprintf(state, sizeof state, "%s/state", work);
  double cold[BENCH_REFACTOR_ROUNDS], warm[BENCH_REFACTOR_ROUNDS], ref[BENCH_REFACTOR_ROUNDS];
  double preview[BENCH_REFACTOR_ROUNDS], journaled[BENCH_REFACTOR_ROUNDS];
  double anew[BENCH_REFACTOR_ROUNDS];
  char reply[1024] = "";
  int same = 0;
  char command[BENCH_COMMAND_MAX];
  for (int round = 0; round < BENCH_REFACTOR_ROUNDS; round++) {
    bench__copy(tree, eddi_tree);
    bench__copy(tree, ref_tree);
    bench__copy(tree, warm_tree);
    snprintf(command, sizeof command,
             "'%s' --no-journal --root '%s' -c 'Start s' -c 'Refactor RenameSymbol %s %s' >/dev/null",
             cli,
             eddi_tree, old_name, new_name);
    cold[round] = bench__timed(command);
    snprintf(command, sizeof command, "cd '%s' && '%s' run -p '%s' -r '%s' -l python -U . >/dev/null",
             ref_tree, ast_grep, old_name, new_name);
    ref[round] = bench__timed(command);
    warm[round] =
        bench__warm(warm_tree, NULL, old_name, new_name, false, NULL, reply, sizeof reply);
    bench__copy(tree, warm_tree);
    snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", state, state);
    if (system(command) != 0) return 1;
    journaled[round] =
        bench__warm(warm_tree, state, old_name, new_name, false, NULL, reply, sizeof reply);
    bench__copy(tree, warm_tree);
    anew[round] = bench__warm(warm_tree, NULL, old_name, new_name, true, NULL, reply, sizeof reply);
    bench__copy(tree, warm_tree);
    bench__warm(warm_tree, NULL, old_name, new_name, true, &preview[round], reply, sizeof reply);
    snprintf(command, sizeof command, "diff -rq '%s' '%s' >/dev/null", eddi_tree, ref_tree);
    same += system(command) == 0;
  }
  snprintf(command, sizeof command,
           "find '%s' -name '*.py' | wc -l; find '%s' -name '*.py' -exec cat {} + | wc -l",
           ref_tree, ref_tree);
  printf("tree %s (files, lines):\n", tree);
  fflush(stdout);
  if (system(command) != 0) return 1;
  printf("rename %s -> %s: %s\n", old_name, new_name, reply);
  double c = bench_median(cold, BENCH_REFACTOR_ROUNDS), w = bench_median(warm, BENCH_REFACTOR_ROUNDS),
         r = bench_median(ref, BENCH_REFACTOR_ROUNDS);
  printf("ast-grep -U (whole process)   %8.1f ms\n", r);
  printf("eddi cold (whole process)     %8.1f ms  %.2fx ast-grep\n", c, c / r);
  double p = bench_median(preview, BENCH_REFACTOR_ROUNDS);
  double j = bench_median(journaled, BENCH_REFACTOR_ROUNDS);
  double a = bench_median(anew, BENCH_REFACTOR_ROUNDS);
  printf("eddi warm (in-process)        %8.1f ms  %.2fx ast-grep (the Preview's plan)\n", w, w / r);
  printf("eddi warm, journaled          %8.1f ms  %.2fx ast-grep\n", j, j / r);
  printf("eddi warm, plan made anew     %8.1f ms  %.2fx ast-grep\n", a, a / r);
  printf("  of which the plan (Preview) %8.1f ms, the write %.1f ms\n", p, a - p);
  printf("same bytes as ast-grep in %d of %d rounds\n", same, BENCH_REFACTOR_ROUNDS);
  snprintf(command, sizeof command, "rm -rf '%s'", work);
  return system(command) == 0 ? 0 : 1;
}
