/* fuzz_edit_support.h - a small workspace for the edit-format fuzzers: one
 * engine over a temporary folder whose a.txt is reset before each input. */
#ifndef EDDI_FUZZ_EDIT_SUPPORT_H
#define EDDI_FUZZ_EDIT_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit/edit_formats.h"
#include "session/engine.h"
#include "core/utf8.h"

static char fuzz_workspace[256];
static EddiEngine *fuzz_engine;

static const char fuzz_text[] = "def greet(name):\n    print(\"Hello, \" + name)\n    return name\n"
                                "\n"
                                "def bye():\n\tprint(\"bye\")\n";

static void fuzz_reset(void) {
  if (!fuzz_engine) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(fuzz_workspace, sizeof fuzz_workspace, "%s/eddi-fuzz-edit-XXXXXX", tmp);
    if (!mkdtemp(fuzz_workspace)) abort();
    char error[256];
    fuzz_engine = eddi_engine_new(fuzz_workspace, NULL, error, sizeof error);
    if (!fuzz_engine) abort();
  }
  char path[300];
  snprintf(path, sizeof path, "%s/a.txt", fuzz_workspace);
  FILE *out = fopen(path, "w");
  if (!out) abort();
  fputs(fuzz_text, out);
  fclose(out);
}

/* The input as a NUL-terminated string, or NULL when it is not what the
 * engine would pass on (not UTF-8, holds NUL). */
static char *fuzz_text_of(const uint8_t *data, size_t size) {
  if (memchr(data, 0, size) || eddi_utf8_valid_prefix((const char *)data, size) != size) return NULL;
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

#endif
