/* bench_grep.c - the workspace Grep against ripgrep on the same tree.
 *
 * Not a test: it prints figures next to a reference measured in the same
 * run. Two generated workspaces, each with a .git folder (so rg applies
 * .gitignore as eddi does) and a .gitignore whose rules leave out a folder
 * and *.log files but re-include keep.log; ignored, hidden and binary files
 * hold needles too, so a walk that gets the rules wrong finds a different
 * set:
 *   large: BENCH_GREP_FILES files, BENCH_GREP_LINES lines in all (about 37
 *          bytes a line; every BENCH_GREP_NEEDLE_EVERY-th holds needle_N);
 *   small: BENCH_GREP_SMALL_FILES files of three lines (under the engine's
 *          default walk limit of 100,000 entries);
 *   one folder: BENCH_GREP_FOLDER_FILES files of one line in a single
 *          folder (more entries than that limit, which Grep no longer
 *          has), BENCH_GREP_FOLDER_MATCHES of them holding a needle.
 * Figures, medians of BENCH_GREP_RUNS runs:
 *   - the match set: every page of Grep /needle_\d+/ in an engine against
 *     `rg -n`'s path:line pairs (they must be equal);
 *   - warm, whole process, the three interleaved run by run: `eddi --root D -c Start -c Grep` against `rg -n`
 *     (default threads) and `rg -n -j1`, output to /dev/null;
 *   - cold: the same after each file's pages were dropped
 *     (posix_fadvise DONTNEED after a sync: no root needed), one run each;
 *   - a running engine (with a waker, as eddi-server has), second Grep:
 *     eddi_exec in process, against rg's whole process;
 *   - one folder: the match set as above, then the whole process against
 *     `rg -c` (default threads), BENCH_GREP_FOLDER_RUNS runs interleaved.
 *
 * Usage: bench_grep [lines] [files] [small_files] [one_folder_files]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_support.h"
#include "eddi.h"

#define BENCH_GREP_RUNS 15
#define BENCH_GREP_LINES 1000000
#define BENCH_GREP_FILES 3000
#define BENCH_GREP_SMALL_FILES 98000
#define BENCH_GREP_FILES_PER_DIR 100
#define BENCH_GREP_NEEDLE_EVERY 1000
#define BENCH_GREP_PAGE 200
#define BENCH_GREP_FOLDER_FILES 100100
#define BENCH_GREP_FOLDER_MATCHES 120
#define BENCH_GREP_FOLDER_RUNS 5
#define BENCH_GREP_PATTERN "needle_\\d+"
#define BENCH_GREP_RULES "*.log\n!keep.log\n/ignored/\n"

#ifndef EDDI_CLI_PATH
#define EDDI_CLI_PATH "eddi"
#endif

typedef struct {
  char **items;
  size_t len, cap;
} Strings;

static void strings__push(Strings *self, const char *text) {
  if (self->len == self->cap) {
    self->cap = self->cap ? self->cap * 2 : 1024;
    self->items = realloc(self->items, self->cap * sizeof *self->items);
  }
  self->items[self->len++] = strdup(text);
}

static int strings__compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void strings__free(Strings *self) {
  for (size_t i = 0; i < self->len; i++) free(self->items[i]);
  free(self->items);
}

/* ---------------------------------------------------------------- the trees */

static void bench__write(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "w");
  if (!f) perror(path), exit(1);
  fwrite(text, 1, len, f);
  fclose(f);
}

/* files files in folders of BENCH_GREP_FILES_PER_DIR, lines lines in all,
 * and the decoys the rules must sort out. */
static void bench__make_tree(const char *root, size_t files, size_t lines) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/.git", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/.gitignore", root);
  bench__write(path, BENCH_GREP_RULES, strlen(BENCH_GREP_RULES));
  size_t per_file = lines / files, line_no = 0;
  char *text = malloc(per_file * 64 + 64);
  for (size_t f = 0; f < files; f++) {
    if (f % BENCH_GREP_FILES_PER_DIR == 0) {
      snprintf(path, sizeof path, "%s/d%04zu", root, f / BENCH_GREP_FILES_PER_DIR);
      mkdir(path, 0755);
    }
    size_t len = 0;
    for (size_t l = 0; l < per_file; l++, line_no++) {
      if (line_no % BENCH_GREP_NEEDLE_EVERY == 0)
        len += (size_t)sprintf(text + len, "    call(needle_%zu); /* line %zu */\n", line_no, l);
      else
        len += (size_t)sprintf(text + len, "    x = the_quick_brown_fox(%zu);\n", l);
    }
    snprintf(path, sizeof path, "%s/d%04zu/f%05zu.c", root, f / BENCH_GREP_FILES_PER_DIR, f);
    bench__write(path, text, len);
  }
  free(text);
  const char *decoys[][2] = {
      {"ignored", NULL},           {"ignored/a.c", "needle_1 ignored\n"},
      {"x.log", "needle_2 log\n"}, {"d0000/keep.log", "needle_3 kept\n"},
      {".hidden.c", "needle_4\n"}, {"d0000/bin.dat", "needle_5\0binary\n"},
  };
  for (size_t i = 0; i < sizeof decoys / sizeof *decoys; i++) {
    snprintf(path, sizeof path, "%s/%s", root, decoys[i][0]);
    if (!decoys[i][1]) mkdir(path, 0755);
    else bench__write(path, decoys[i][1], strlen(decoys[i][1]) + (strstr(decoys[i][0], "bin") ? 8 : 0));
  }
}

/* ---------------------------------------------------------------- the match sets */

/* Every page of the Grep through an engine: its path:line pairs. */
static void bench__eddi_hits(EddiEngine *engine, Strings *out, char **last_reply) {
  char *start = eddi_exec(engine, "bench", "Start b", 7);
  eddi_string_free(start);
  for (size_t offset = 0;; offset += BENCH_GREP_PAGE) {
    char command[128];
    int n = snprintf(command, sizeof command, "Set response_format raw\nGrep /%s/ %zu", BENCH_GREP_PATTERN,
                     offset);
    char *reply = eddi_exec(engine, "bench", command, (size_t)n);
    size_t rows = 0;
    char file[PATH_MAX] = "";
    for (char *line = strtok(reply, "\n"); line; line = strtok(NULL, "\n")) {
      char *hash = strrchr(line, '#');
      if (line[0] == '[' && hash && line[strlen(line) - 1] == ']' && !strstr(line, "Showing")) {
        snprintf(file, sizeof file, "%.*s", (int)(hash - line - 1), line + 1);
      } else if (file[0] && line[0] >= '0' && line[0] <= '9' && strchr(line, ':')) {
        char pair[PATH_MAX + 32];
        snprintf(pair, sizeof pair, "%s:%ld", file, strtol(line, NULL, 10));
        strings__push(out, pair);
        rows++;
      } else if (strstr(line, "Stopped after")) {
        *last_reply = strdup(line);
      }
    }
    eddi_string_free(reply);
    if (rows < BENCH_GREP_PAGE) break;
  }
}

static void bench__rg_hits(const char *root, Strings *out) {
  char command[PATH_MAX + 64];
  snprintf(command, sizeof command, "cd '%s' && rg -n --no-heading '%s'", root,
           BENCH_GREP_PATTERN);
  FILE *pipe = popen(command, "r");
  char line[4096];
  while (pipe && fgets(line, sizeof line, pipe)) {
    char *first = strchr(line, ':');
    char *second = first ? strchr(first + 1, ':') : NULL;
    if (!second) continue;
    *second = '\0';
    strings__push(out, line);
  }
  if (pipe) pclose(pipe);
}

static void bench__compare(const char *root) {
  EddiEngine *engine = eddi_engine_new(root, NULL, NULL, 0);
  Strings eddi = {0}, rg = {0};
  char *truncated = NULL;
  bench__eddi_hits(engine, &eddi, &truncated);
  eddi_engine_free(engine);
  bench__rg_hits(root, &rg);
  qsort(eddi.items, eddi.len, sizeof *eddi.items, strings__compare);
  qsort(rg.items, rg.len, sizeof *rg.items, strings__compare);
  bool same = eddi.len == rg.len;
  for (size_t i = 0; same && i < eddi.len; i++) same = strcmp(eddi.items[i], rg.items[i]) == 0;
  printf("  match set: eddi %zu, rg %zu: %s%s%s\n", eddi.len, rg.len, same ? "the same" : "DIFFERENT",
         truncated ? ", eddi says " : "", truncated ? truncated : "");
  free(truncated);
  strings__free(&eddi);
  strings__free(&rg);
}

/* ---------------------------------------------------------------- timing */

static double bench__run(const char *command) {
  double start = bench_now_ms();
  if (system(command) != 0) fprintf(stderr, "failed: %s\n", command);
  return bench_now_ms() - start;
}

/* Drop the page cache of every file under path (after a sync). */
static void bench__drop(const char *path) {
  DIR *dir = opendir(path);
  if (!dir) return;
  for (struct dirent *e; (e = readdir(dir));) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char child[PATH_MAX];
    snprintf(child, sizeof child, "%s/%s", path, e->d_name);
    struct stat st;
    if (lstat(child, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      bench__drop(child);
    } else if (S_ISREG(st.st_mode)) {
      int fd = open(child, O_RDONLY);
      if (fd >= 0) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), close(fd);
    }
  }
  closedir(dir);
}

static double bench__cold(const char *root, const char *command) {
  sync();
  bench__drop(root);
  return bench__run(command);
}

static void bench__noop_waker(void *closure) { (void)closure; }

/* The second and later Greps of a running engine with a waker. */
static double bench__engine_again(const char *root, const char *rg_cmd, double *rg) {
  EddiEngine *engine = eddi_engine_new(root, NULL, NULL, 0);
  eddi_engine_set_waker(engine, bench__noop_waker, NULL);
  char command[128];
  int n = snprintf(command, sizeof command, "Start b\nGrep /%s/", BENCH_GREP_PATTERN);
  eddi_string_free(eddi_exec(engine, "bench", command, (size_t)n));
  n = snprintf(command, sizeof command, "Grep /%s/", BENCH_GREP_PATTERN);
  double samples[BENCH_GREP_RUNS], rg_samples[BENCH_GREP_RUNS];
  for (int i = 0; i < BENCH_GREP_RUNS; i++) {
    double start = bench_now_ms();
    eddi_string_free(eddi_exec(engine, "bench", command, (size_t)n));
    samples[i] = bench_now_ms() - start;
    rg_samples[i] = bench__run(rg_cmd);
  }
  eddi_engine_free(engine);
  *rg = bench_median(rg_samples, BENCH_GREP_RUNS);
  return bench_median(samples, BENCH_GREP_RUNS);
}

static void bench__workspace(const char *name, const char *root, bool engine_figure) {
  char eddi_cmd[2 * PATH_MAX], rg_cmd[PATH_MAX + 128], rg1_cmd[PATH_MAX + 128];
  snprintf(eddi_cmd, sizeof eddi_cmd, "%s --root '%s' -c 'Start b' -c 'Grep /%s/' >/dev/null",
           EDDI_CLI_PATH, root, BENCH_GREP_PATTERN);
  snprintf(rg_cmd, sizeof rg_cmd, "cd '%s' && rg -n '%s' >/dev/null", root, BENCH_GREP_PATTERN);
  snprintf(rg1_cmd, sizeof rg1_cmd, "cd '%s' && rg -n -j1 '%s' >/dev/null", root,
           BENCH_GREP_PATTERN);
  printf("%s\n", name);
  bench__compare(root);
  double cold_eddi = bench__cold(root, eddi_cmd), cold_rg = bench__cold(root, rg_cmd);
  bench__run(eddi_cmd), bench__run(rg_cmd); /* warm up */
  /* Interleaved, so that the machine's other load hits all three alike. */
  double eddi_s[BENCH_GREP_RUNS], rg_s[BENCH_GREP_RUNS], rg1_s[BENCH_GREP_RUNS];
  for (int i = 0; i < BENCH_GREP_RUNS; i++) {
    eddi_s[i] = bench__run(eddi_cmd);
    rg_s[i] = bench__run(rg_cmd);
    rg1_s[i] = bench__run(rg1_cmd);
  }
  double eddi = bench_median(eddi_s, BENCH_GREP_RUNS), rg = bench_median(rg_s, BENCH_GREP_RUNS);
  double rg1 = bench_median(rg1_s, BENCH_GREP_RUNS);
  printf("  warm: eddi %.1f ms, rg %.1f ms (x%.2f), rg -j1 %.1f ms (x%.2f)\n", eddi, rg,
         eddi / rg, rg1, eddi / rg1);
  printf("  cold: eddi %.1f ms, rg %.1f ms (x%.2f)\n", cold_eddi, cold_rg, cold_eddi / cold_rg);
  if (engine_figure) {
    double rg_then;
    double again = bench__engine_again(root, rg_cmd, &rg_then);
    printf("  running engine, second Grep: %.1f ms, rg %.1f ms (x%.2f)\n", again, rg_then,
           again / rg_then);
  }
}

/* files files of one line in root itself, BENCH_GREP_FOLDER_MATCHES of
 * them (spread evenly, the last past the 100,000th entry) holding a needle. */
static void bench__make_folder(const char *root, size_t files) {
  char path[PATH_MAX + 32], text[64];
  size_t every = files / BENCH_GREP_FOLDER_MATCHES;
  for (size_t f = 0; f < files; f++) {
    bool needle = every && (f + 1) % every == 0 && (f + 1) / every <= BENCH_GREP_FOLDER_MATCHES;
    int len = needle ? snprintf(text, sizeof text, "call(needle_%zu);\n", f)
                     : snprintf(text, sizeof text, "x = %zu;\n", f);
    snprintf(path, sizeof path, "%s/f%06zu.txt", root, f);
    bench__write(path, text, (size_t)len);
  }
}

static void bench__folder(const char *name, const char *root) {
  char eddi_cmd[2 * PATH_MAX], rg_cmd[PATH_MAX + 128];
  snprintf(eddi_cmd, sizeof eddi_cmd, "%s --root '%s' -c 'Start b' -c 'Grep /%s/' >/dev/null",
           EDDI_CLI_PATH, root, BENCH_GREP_PATTERN);
  snprintf(rg_cmd, sizeof rg_cmd, "cd '%s' && rg -c '%s' >/dev/null", root, BENCH_GREP_PATTERN);
  printf("%s\n", name);
  bench__compare(root);
  bench__run(eddi_cmd), bench__run(rg_cmd); /* warm up */
  double eddi_s[BENCH_GREP_FOLDER_RUNS], rg_s[BENCH_GREP_FOLDER_RUNS];
  for (int i = 0; i < BENCH_GREP_FOLDER_RUNS; i++) {
    eddi_s[i] = bench__run(eddi_cmd);
    rg_s[i] = bench__run(rg_cmd);
  }
  double eddi = bench_median(eddi_s, BENCH_GREP_FOLDER_RUNS);
  double rg = bench_median(rg_s, BENCH_GREP_FOLDER_RUNS);
  printf("  warm, whole process: eddi %.1f ms, rg -c %.1f ms (x%.2f)\n", eddi, rg, eddi / rg);
}

int main(int argc, char **argv) {
  size_t lines = argc > 1 ? strtoul(argv[1], NULL, 10) : BENCH_GREP_LINES;
  size_t files = argc > 2 ? strtoul(argv[2], NULL, 10) : BENCH_GREP_FILES;
  size_t small = argc > 3 ? strtoul(argv[3], NULL, 10) : BENCH_GREP_SMALL_FILES;
  size_t folder = argc > 4 ? strtoul(argv[4], NULL, 10) : BENCH_GREP_FOLDER_FILES;
  const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
  char large_root[PATH_MAX], small_root[PATH_MAX], folder_root[PATH_MAX];
  char command[3 * PATH_MAX + 32];
  snprintf(large_root, sizeof large_root, "%s/eddi-bench-grep-XXXXXX", tmp);
  snprintf(small_root, sizeof small_root, "%s/eddi-bench-grep-small-XXXXXX", tmp);
  snprintf(folder_root, sizeof folder_root, "%s/eddi-bench-grep-folder-XXXXXX", tmp);
  if (!mkdtemp(large_root) || !mkdtemp(small_root) || !mkdtemp(folder_root))
    return perror("mkdtemp"), 1;
  if (system("rg --version >/dev/null 2>&1") != 0) return fprintf(stderr, "rg is needed\n"), 1;
  bench__make_tree(large_root, files, lines);
  char title[128];
  snprintf(title, sizeof title, "%zu lines in %zu files", lines, files);
  bench__workspace(title, large_root, true);
  if (small) {
    bench__make_tree(small_root, small, small * 3);
    snprintf(title, sizeof title, "%zu files of 3 lines", small);
    bench__workspace(title, small_root, false);
  }
  if (folder) {
    bench__make_folder(folder_root, folder);
    snprintf(title, sizeof title, "%zu files in one folder, %d matches", folder,
             BENCH_GREP_FOLDER_MATCHES);
    bench__folder(title, folder_root);
  }
  snprintf(command, sizeof command, "rm -rf '%s' '%s' '%s'", large_root, small_root, folder_root);
  return system(command) == 0 ? 0 : 1;
}
