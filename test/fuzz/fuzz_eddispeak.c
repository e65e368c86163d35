/* fuzz_eddispeak.c - libFuzzer target for the EddiSpeak parser and engine.
 *
 * Each input is lexed line by line, then sent as one message to a fresh
 * engine whose session has a small file open, so that the commands it
 * happens to spell run for real. Crashes, sanitizer reports and leaks are
 * findings; Fail replies are the expected answer to noise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/common.h"
#include "eddi.h"
#include "lang/lexer.h"

static char workspace[256];

static void fuzz__prepare_workspace(void) {
  if (workspace[0]) return;
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  snprintf(workspace, sizeof workspace, "%s/eddi-fuzz-XXXXXX", tmp);
  if (!mkdtemp(workspace)) abort();
}

static void fuzz__reset_file(void) {
  char path[300];
  snprintf(path, sizeof path, "%s/a.txt", workspace);
  FILE *out = fopen(path, "w");
  if (!out) abort();
  fputs("alpha beta\n  gamma 42\nδέλτα\n\nlast", out);
  fclose(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz__prepare_workspace();
  fuzz__reset_file();
  const char *text = (const char *)data;

  /* The lexer alone, on every line. */
  for (size_t start = 0; start <= size;) {
    const char *nl = memchr(text + start, '\n', size - start);
    size_t end = nl ? (size_t)(nl - text) : size;
    TokenList tokens = {0};
    EddiError err;
    if (eddi_lex_line(text + start, end - start, &tokens, &err) == 0) eddi_tokens_free(&tokens);
    start = end + 1;
  }

  /* The whole engine. */
  char error[256];
  EddiEngine *engine = eddi_engine_new(workspace, NULL, error, sizeof error);
  if (!engine) abort();
  static const char setup[] = "Start fuzz\nOpen a.txt";
  eddi_string_free(eddi_exec(engine, "fuzzer", setup, sizeof setup - 1));
  eddi_string_free(eddi_exec(engine, "fuzzer", text, size));
  eddi_engine_free(engine);
  if (eddi_alloc_live() != 0) {
    fprintf(stderr, "leak: %ld engine allocations\n", eddi_alloc_live());
    abort();
  }
  return 0;
}
