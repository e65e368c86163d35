/* bench_analyze.c - Analyze File on a large Python file against a bare parse.
 *
 * Not a test: it prints figures next to a reference measured in the same
 * run. A generated Python file of BENCH_ANALYZE_LINES lines (classes of
 * methods with branches and loops, free functions, imports used and not)
 * sits in a workspace; `Analyze File bench.py [<analysis>]` runs through
 * eddi_exec with the file not open, so each run reads and parses it afresh,
 * for each analysis and for the summary. The reference is one bare
 * ts_parser_parse_string of the same bytes. Medians of BENCH_ANALYZE_RUNS.
 *
 * Usage: bench_analyze [lines]
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_support.h"
#include "eddi.h"
#include "syntax/syntax.h"

#define BENCH_ANALYZE_LINES 100000
#define BENCH_ANALYZE_RUNS 7

/* Lines of Python: each class holds five methods with an if, a for and a
 * call to an imported module; imports at the top, two of them unused. */
static char *bench__python(size_t lines, size_t *len) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "import os\nimport re\nimport json\nfrom typing import List, Dict\n\n");
  for (size_t n = 0, written = 5; written < lines; n++) {
    eddi_strbuf_printf(&out, "\nclass Shape%zu:\n    sides = %zu\n\n", n, n % 9);
    written += 4;
    for (int m = 0; m < 5 && written < lines; m++, written += 9) {
      eddi_strbuf_printf(&out,
                         "    def area_%d(self, width, height, items: List[int]):\n"
                         "        total = 0\n"
                         "        for item in items:\n"
                         "            if item > width and item < height:\n"
                         "                total += item\n"
                         "            elif item == %d:\n"
                         "                total -= 1\n"
                         "        return os.path.join(str(total), '%zu')\n\n",
                         m, m, n);
    }
  }
  *len = out.len;
  return out.data;
}

/* One bare ts_parser_parse_string of source: ms. */
static double bench__parse(const EddiLang *python, const char *source, size_t len) {
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, python->ts);
  double t0 = bench_now_ms();
  TSTree *tree = ts_parser_parse_string(parser, NULL, source, (uint32_t)len);
  double took = bench_now_ms() - t0;
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return took;
}

int main(int argc, char **argv) {
  size_t lines = argc > 1 ? strtoul(argv[1], NULL, 10) : BENCH_ANALYZE_LINES;
  size_t len;
  char *source = bench__python(lines, &len);
  const EddiLang *python = eddi_lang_by_name("python");
  if (!python || !python->ts) return fprintf(stderr, "bench_analyze: no Python grammar\n"), 1;
  char root[PATH_MAX], path[PATH_MAX + 16];
  if (!bench_workspace("analyze", "bench.py", root, sizeof root, path, sizeof path)) return 1;
  FILE *file = fopen(path, "w");
  if (!file) return perror(path), 1;
  fwrite(source, 1, len, file);
  fclose(file);

  double samples[BENCH_ANALYZE_RUNS];
  printf("Analyze File on a %zu-line Python file (%.1f MB), medians of %d runs, each after a "
         "bare parse\n",
         lines, (double)len / 1e6, BENCH_ANALYZE_RUNS);

  char config_error[256];
  EddiEngine *engine = eddi_engine_new(root, NULL, config_error, sizeof config_error);
  if (!engine) return fprintf(stderr, "bench_analyze: %s\n", config_error), 1;
  eddi_string_free(eddi_exec(engine, "bench", "Start b", 7));
  static const char *const analyses[] = {"", " Structure", " Dependencies", " Complexity",
                                         " Issues"};
  for (size_t a = 0; a < sizeof analyses / sizeof *analyses; a++) {
    char command[64];
    int n = snprintf(command, sizeof command, "Analyze File bench.py%s", analyses[a]);
    char *reply = NULL;
    double parses[BENCH_ANALYZE_RUNS];
    for (int i = 0; i < BENCH_ANALYZE_RUNS; i++) {
      eddi_string_free(reply);
      /* The reference right before, so both see the machine as loaded. */
      parses[i] = bench__parse(python, source, len);
      double t0 = bench_now_ms();
      reply = eddi_exec(engine, "bench", command, (size_t)n);
      samples[i] = bench_now_ms() - t0;
    }
    double took = bench_median(samples, BENCH_ANALYZE_RUNS);
    double parse = bench_median(parses, BENCH_ANALYZE_RUNS);
    printf("  %-38s %8.1f ms  parse %6.1f ms  x%.2f   %.50s\n", command, took, parse,
           took / parse, reply);
    eddi_string_free(reply);
  }
  eddi_engine_free(engine);
  unlink(path);
  rmdir(root);
  free(source);
  return 0;
}
