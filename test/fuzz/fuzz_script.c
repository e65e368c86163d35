/* fuzz_script.c - libFuzzer target for the script parser (module/script/).
 *
 * Each input is parsed as a script, as the query a let keeps between
 * messages, and wrapped in braces (the block form), so that the lexer, the
 * statement, condition, expression and query parsers and their error paths
 * all see it. A parse either gives a tree or an error naming a line and a
 * column; both are freed. The braced form is then run, with small budgets,
 * by an engine over a workspace of two small files (put back before each
 * run), so that the interpreter, the query engine and the actions meet the
 * same inputs. Crashes, sanitizer reports, leaks and an error without a
 * position are findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/common.h"
#include "eddi.h"
#include "script/script.h"
#include "session/command_table.h"

/* Inputs larger than this are not scripts a model sends. */
#define FUZZ_SCRIPT_MAX 65536
/* Inputs up to this size are also run (running costs more than parsing). */
#define FUZZ_SCRIPT_RUN_MAX 2048

static char workspace[256];

static void fuzz__write(const char *name, const char *text) {
  char path[300];
  snprintf(path, sizeof path, "%s/%s", workspace, name);
  FILE *out = fopen(path, "w");
  if (!out) abort();
  fputs(text, out);
  fclose(out);
}

/* Run text as sender "f" of a fresh engine over the two files. */
static void fuzz__run(const char *text, size_t len) {
  if (!workspace[0]) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(workspace, sizeof workspace, "%s/eddi-fuzz-script-XXXXXX", tmp);
    if (!mkdtemp(workspace)) abort();
  }
  fuzz__write("a.py", "import os\nfrom b import f\n\n\nclass A:\n    def m(self, x):\n"
                      "        if x:\n            return f(x, 1)\n        return f(f(2))\n");
  fuzz__write("b.py", "def f(x, y=0):\n    return x\n\n\nf(3)\n");
  char error[256];
  EddiEngine *engine = eddi_engine_new(workspace, NULL, error, sizeof error);
  if (!engine) abort();
  char *reply = eddi_exec(engine, "f", "Start s\nOpen a.py", 17);
  eddi_string_free(reply);
  reply = eddi_exec(engine, "f", text, len);
  eddi_string_free(reply);
  eddi_engine_free(engine);
}

static void fuzz__parse(const char *text, size_t len) {
  Script script;
  EddiError err;
  eddi_error_clear(&err);
  if (eddi_script_parse(text, len, eddi_command_table_ports(), &script, &err) == 0) {
    eddi_script_needs_owner(script.root);
    eddi_script_free(&script);
  } else if (strncmp(err.what, "Script line ", 12) != 0) {
    fprintf(stderr, "error without a position: %s\n", err.what);
    abort();
  }
  ScriptQuery *query = NULL;
  if (eddi_script_parse_query(text, len, &query, &err) == 0) eddi_script_query_free(query);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > FUZZ_SCRIPT_MAX) return 0;
  const char *text = (const char *)data;
  fuzz__parse(text, size);
  static const char head[] = "{ limit steps 500 limit time 200\n";
  size_t head_len = sizeof head - 1;
  char *braced = malloc(head_len + size + 3);
  if (!braced) return 0;
  memcpy(braced, head, head_len);
  memcpy(braced + head_len, text, size);
  memcpy(braced + head_len + size, "\n}", 3);
  size_t len = head_len + size + 2;
  fuzz__parse(braced, len);
  /* The engine refuses NUL bytes and bad UTF-8 before any script sees them. */
  if (size <= FUZZ_SCRIPT_RUN_MAX && !memchr(text, '\0', size)) fuzz__run(braced, len);
  free(braced);
  return 0;
}
