/* bench_engine.c - per-command latency and memory of the engine.
 *
 * Not a test: it prints figures, each next to a reference measured in the
 * same run on the same bytes, so that the ratios mean something on any
 * machine. Commands go through eddi_exec, the entry point every front end
 * uses, so parsing and reply formatting are included.
 *
 *   Goto, Insert Line, Delete Line at random lines: median and p99, against
 *     one memchr pass over the whole text (what a line-index-free editor pays
 *     per lookup) and one memmove of the whole text (what a gap buffer pays to
 *     move its gap across the file).
 *   Find /regex/ All and Replace /regex/ All over the whole file, against
 *     pcre2 JIT over a flat buffer (all matches; pcre2_substitute global).
 *   Memory: the text store plus the undo history of 1,000 edits, per byte of
 *     file.
 *
 * Usage: bench_engine [max_lines]   (default 100000)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"
#include "session/engine.h"
#include "edit/search.h"

#define BENCH_SENDER "bench"
#define BENCH_EDIT_SAMPLES 1000
#define BENCH_SCAN_SAMPLES 15
#define BENCH_REGEX "needle_\\d+"
#define BENCH_REPLACE_REGEX "fox (\\d)"

typedef struct {
  double median;
  double p99;
} Timing;

static Timing summarize(double *samples, size_t n) {
  Timing t = {bench_median(samples, n), bench_percentile(samples, n, 0.99)};
  return t;
}

/* Run a message; abort the benchmark if it failed (a wrong figure is worse
 * than none). Returns the time it took in microseconds. */
static double exec_timed(EddiEngine *engine, const char *message) {
  double start = bench_now_us();
  char *reply = eddi_exec(engine, BENCH_SENDER, message, strlen(message));
  double elapsed = bench_now_us() - start;
  if (strncmp(reply, "Ok", 2) != 0) {
    fprintf(stderr, "bench: '%s' answered %s\n", message, reply);
    exit(1);
  }
  eddi_string_free(reply);
  return elapsed;
}

/* A file of `lines` lines of ~40 bytes; every 1000th line holds a needle. */
static char *make_text(size_t lines, size_t *len) {
  StrBuf text = {0};
  for (size_t i = 0; i < lines; i++) {
    if (i % 1000 == 999) eddi_strbuf_printf(&text, "%07zu needle_%zu in the haystack here\n", i, i);
    else eddi_strbuf_printf(&text, "%07zu quick brown fox %zu jumps over\n", i, i % 10);
  }
  *len = text.len;
  return eddi_strbuf_take(&text);
}

static void write_file(const char *path, const char *bytes, size_t len) {
  FILE *out = fopen(path, "wb");
  if (!out || fwrite(bytes, 1, len, out) != len || fclose(out) != 0) {
    perror(path);
    exit(1);
  }
}

/* ---------------------------------------------------------------- references */

static double reference_memchr_us(const char *text, size_t len) {
  double samples[BENCH_SCAN_SAMPLES];
  volatile size_t sink = 0;
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++) {
    double start = bench_now_us();
    size_t count = 0;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + len - p))); p++) count++;
    sink += count;
    samples[s] = bench_now_us() - start;
  }
  (void)sink;
  return summarize(samples, BENCH_SCAN_SAMPLES).median;
}

static double reference_memmove_us(size_t len) {
  char *buffer = malloc(len + 1);
  memset(buffer, 'x', len + 1);
  double samples[BENCH_SCAN_SAMPLES];
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++) {
    double start = bench_now_us();
    memmove(buffer + (s & 1), buffer + !(s & 1), len);
    samples[s] = bench_now_us() - start;
  }
  free(buffer);
  return summarize(samples, BENCH_SCAN_SAMPLES).median;
}

static pcre2_code *compile_jit(const char *regex) {
  int code;
  PCRE2_SIZE offset;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED,
                                 PCRE2_UTF | PCRE2_MULTILINE, &code, &offset, NULL);
  pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
  return re;
}

static double reference_find_all_us(const char *text, size_t len) {
  pcre2_code *re = compile_jit(BENCH_REGEX);
  pcre2_match_data *match = pcre2_match_data_create_from_pattern(re, NULL);
  double samples[BENCH_SCAN_SAMPLES];
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++) {
    double start = bench_now_us();
    size_t from = 0, found = 0;
    while (pcre2_match(re, (PCRE2_SPTR)text, len, from, PCRE2_NO_UTF_CHECK, match, NULL) > 0) {
      from = pcre2_get_ovector_pointer(match)[1];
      found++;
    }
    samples[s] = bench_now_us() - start;
  }
  pcre2_match_data_free(match);
  pcre2_code_free(re);
  return summarize(samples, BENCH_SCAN_SAMPLES).median;
}

static double reference_replace_all_us(const char *text, size_t len) {
  pcre2_code *re = compile_jit(BENCH_REPLACE_REGEX);
  size_t cap = len * 2 + 64;
  PCRE2_UCHAR *out = malloc(cap);
  double samples[BENCH_SCAN_SAMPLES];
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++) {
    PCRE2_SIZE out_len = cap;
    double start = bench_now_us();
    pcre2_substitute(re, (PCRE2_SPTR)text, len, 0, PCRE2_SUBSTITUTE_GLOBAL | PCRE2_NO_UTF_CHECK,
                     NULL, NULL, (PCRE2_SPTR) "cat $1", PCRE2_ZERO_TERMINATED, out, &out_len);
    samples[s] = bench_now_us() - start;
  }
  free(out);
  pcre2_code_free(re);
  return summarize(samples, BENCH_SCAN_SAMPLES).median;
}

/* ---------------------------------------------------------------- engine */

static Timing bench_edits(EddiEngine *engine, size_t lines, const char *kind) {
  double samples[BENCH_EDIT_SAMPLES];
  char message[128];
  for (size_t s = 0; s < BENCH_EDIT_SAMPLES; s++) {
    size_t line = (size_t)rand() % (lines - 1);
    if (!strcmp(kind, "goto")) {
      snprintf(message, sizeof message, "Goto %zu:%zu", line, (size_t)rand() % 20);
      samples[s] = exec_timed(engine, message);
      continue;
    }
    snprintf(message, sizeof message, "Goto %zu", line);
    exec_timed(engine, message);
    samples[s] = exec_timed(engine, !strcmp(kind, "insert") ? "Insert Line \"inserted text\""
                                                              : "Delete Line");
  }
  return summarize(samples, BENCH_EDIT_SAMPLES);
}

static double bench_scan(EddiEngine *engine, const char *message) {
  double samples[BENCH_SCAN_SAMPLES];
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++) samples[s] = exec_timed(engine, message);
  return summarize(samples, BENCH_SCAN_SAMPLES).median;
}

/* A fresh open of bench.txt, then 1,000 edits at random lines (inserts,
 * deletes, one-line replaces): text store + undo history per byte of file,
 * as the engine counts them (chunk capacities, undo records and texts). */
static void bench_memory(const char *dir, size_t file_len) {
  char error[256];
  EddiEngine *engine = eddi_engine_new(dir, NULL, error, sizeof error);
  exec_timed(engine, "Start memory");
  exec_timed(engine, "Open bench.txt");
  EddiDoc *doc = eddi_sessions_by_sender(engine->sessions, BENCH_SENDER)->current;
  char message[128];
  for (size_t i = 0; i < BENCH_EDIT_SAMPLES; i++) {
    size_t lines = eddi_text_line_count(&doc->text);
    snprintf(message, sizeof message, "Goto %zu", (size_t)rand() % (lines - 1));
    exec_timed(engine, message);
    static const char *const edits[] = {"Insert Line \"an inserted line of text\"",
                                        "Delete Line", "Replace /\\d+/ \"#\""};
    exec_timed(engine, edits[i % 3]);
  }
  double counted = (double)(eddi_text_footprint(&doc->text) + eddi_doc_undo_footprint(doc));
  printf("| | memory: text + undo of %zu edits | x%.3f of file | | file %.0f bytes |\n",
         doc->undo.len, counted / (double)file_len, (double)file_len);
  eddi_engine_free(engine);
}

static void bench_size(const char *dir, size_t lines) {
  size_t len;
  char *text = make_text(lines, &len);
  char path[512];
  snprintf(path, sizeof path, "%s/bench.txt", dir);
  write_file(path, text, len);

  char error[256];
  EddiEngine *engine = eddi_engine_new(dir, NULL, error, sizeof error);
  exec_timed(engine, "Start bench");
  exec_timed(engine, "Open bench.txt");

  double memchr_us = reference_memchr_us(text, len);
  double memmove_us = reference_memmove_us(len);
  Timing go = bench_edits(engine, lines, "goto");
  Timing insert = bench_edits(engine, lines, "insert");
  Timing delete = bench_edits(engine, lines, "delete");
  exec_timed(engine, "Goto 0");
  double find = bench_scan(engine, "Find /" BENCH_REGEX "/ All");
  double find_ref = reference_find_all_us(text, len);
  /* Alternate the direction so every run has the same number of matches. */
  double replace_samples[BENCH_SCAN_SAMPLES];
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++)
    replace_samples[s] = exec_timed(engine, s % 2 ? "Replace /cat (\\d)/ \"fox $1\" All"
                                                  : "Replace /" BENCH_REPLACE_REGEX "/ \"cat $1\" All");
  double replace = summarize(replace_samples, BENCH_SCAN_SAMPLES).median;
  double replace_ref = reference_replace_all_us(text, len);
  /* Undo and Redo of the last Replace All, against the Replace itself. */
  double undo_samples[BENCH_SCAN_SAMPLES], redo_samples[BENCH_SCAN_SAMPLES];
  for (size_t s = 0; s < BENCH_SCAN_SAMPLES; s++) {
    undo_samples[s] = exec_timed(engine, "Undo");
    redo_samples[s] = exec_timed(engine, "Redo");
  }
  double undo = summarize(undo_samples, BENCH_SCAN_SAMPLES).median;
  double redo = summarize(redo_samples, BENCH_SCAN_SAMPLES).median;

  printf("| %zu lines (%.1f MB) | Goto | %.2f | %.2f | memchr pass %.0f |\n", lines, len / 1e6,
         go.median, go.p99, memchr_us);
  printf("| | Insert Line | %.2f | %.2f | memmove pass %.0f |\n", insert.median, insert.p99,
         memmove_us);
  printf("| | Delete Line | %.2f | %.2f | memmove pass %.0f |\n", delete.median, delete.p99,
         memmove_us);
  printf("| | Find /regex/ All | %.0f | | pcre2 JIT %.0f (x%.2f) |\n", find, find_ref,
         find / find_ref);
  printf("| | Replace /regex/ All (%zu matches) | %.0f | | pcre2_substitute %.0f (x%.2f) |\n",
         lines - lines / 1000, replace, replace_ref, replace / replace_ref);
  printf("| | Undo / Redo of the Replace All | %.0f / %.0f | | the Replace %.0f (x%.2f / x%.2f) |\n",
         undo, redo, replace, undo / replace, redo / replace);
  eddi_engine_free(engine);
  bench_memory(dir, len);
  free(text);
  unlink(path);
}

int main(int argc, char **argv) {
  size_t max_lines = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
  char dir[] = "/tmp/eddi-bench-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  srand(42);
  printf("| file | command | median us | p99 us | reference in the same run (us) |\n");
  printf("|------+---------+-----------+--------+--------------------------------|\n");
  for (size_t lines = 1000; lines <= max_lines; lines *= 10) bench_size(dir, lines);
  rmdir(dir);
  return 0;
}
