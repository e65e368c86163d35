/* bench_journal.c - recovery at start: a journal holding SESSIONS sessions
 * with EDITS unsaved edits each (one open file per session) is written by
 * a child process that then dies, as kill -9 would leave it; the figure is
 * the time eddi_engine_open_journal takes to give them all back (the
 * target: under 1 s for 100 x 1000). bench_journal [SESSIONS] [EDITS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_support.h"
#include "eddi.h"

#define BENCH_SESSIONS 100
#define BENCH_EDITS 1000
/* Commands per message while filling the journal. */
#define BENCH_BATCH 100

static EddiEngine *bench_engine(const char *root, const char *state) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = state;
  char error[512], report[64];
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  if (!engine || eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error) < 0) {
    fprintf(stderr, "bench_journal: %s\n", error);
    exit(EXIT_FAILURE);
  }
  return engine;
}

int main(int argc, char **argv) {
  int sessions = argc > 1 ? atoi(argv[1]) : BENCH_SESSIONS;
  int edits = argc > 2 ? atoi(argv[2]) : BENCH_EDITS;
  char root[] = "/tmp/eddi-bench-journal-XXXXXX", state[] = "/tmp/eddi-bench-state-XXXXXX";
  if (!mkdtemp(root) || !mkdtemp(state)) return EXIT_FAILURE;
  for (int s = 0; s < sessions; s++) {
    char path[sizeof root + 32];
    snprintf(path, sizeof path, "%s/f%d.txt", root, s);
    FILE *out = fopen(path, "w");
    if (!out) return EXIT_FAILURE;
    fputs("first\nlast\n", out);
    fclose(out);
  }
  double began = bench_now_ms();
  pid_t child = fork();
  if (child == 0) {
    EddiEngine *engine = bench_engine(root, state);
    char *message = malloc((size_t)BENCH_BATCH * 32 + 128);
    for (int s = 0; s < sessions; s++) {
      char sender[32];
      snprintf(sender, sizeof sender, "agent%d", s);
      snprintf(message, 128, "Start s%d\nOpen f%d.txt", s, s);
      free(eddi_exec(engine, sender, message, strlen(message)));
      for (int done = 0; done < edits; done += BENCH_BATCH) {
        message[0] = '\0';
        for (int i = 0; i < BENCH_BATCH && done + i < edits; i++) strcat(message, "Insert Line \"x\"\n");
        free(eddi_exec(engine, sender, message, strlen(message)));
      }
    }
    _exit(0); /* no cleanup: as after kill -9 */
  }
  waitpid(child, NULL, 0);
  double filled = bench_now_ms();
  double start = bench_now_ms();
  EddiEngine *engine = bench_engine(root, state);
  double took = bench_now_ms() - start;
  char *status = eddi_exec(engine, "agent0", "Status", 6);
  printf("journal filled with %d sessions x %d unsaved edits in %.0f ms\n", sessions, edits,
         filled - began);
  printf("recovery at start: %.0f ms (%s)\n", took, status);
  eddi_string_free(status);
  eddi_engine_free(engine);
  char remove[sizeof root + sizeof state + 16];
  snprintf(remove, sizeof remove, "rm -rf %s %s", root, state);
  return system(remove) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
