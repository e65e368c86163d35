/* fuzz_script.c - libFuzzer target for the script parser (module/script/).
 *
 * Each input is parsed as a script, as the query a let keeps between
 * messages, and wrapped in braces (the block form), so that the lexer, the
 * statement, condition, expression and query parsers and their error paths
 * all see it. A parse either gives a tree or an error naming a line and a
 * column; both are freed. Crashes, sanitizer reports, leaks and an error
 * without a position are findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "script/script.h"

/* Inputs larger than this are not scripts a model sends. */
#define FUZZ_SCRIPT_MAX 65536

static void fuzz__parse(const char *text, size_t len) {
  Script script;
  EddiError err;
  eddi_error_clear(&err);
  if (eddi_script_parse(text, len, &script, &err) == 0) {
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
  char *braced = malloc(size + 4);
  if (!braced) return 0;
  braced[0] = '{';
  braced[1] = ' ';
  memcpy(braced + 2, text, size);
  braced[size + 2] = '}';
  fuzz__parse(braced, size + 3);
  free(braced);
  return 0;
}
