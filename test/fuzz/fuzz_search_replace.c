/* fuzz_search_replace.c - libFuzzer target for SEARCH/REPLACE blocks, applied to a workspace whose
 * a.txt is reset before each input. Fail is the expected answer to noise;
 * crashes, sanitizer reports and leaks are findings. */
#include "fuzz_edit_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text_of(data, size);
  if (!text) return 0;
  fuzz_reset();
  EddiEditReport report = {0};
  EddiError err;
  eddi_edit_search_replace(fuzz_engine->workspace, NULL, "a.txt", text, size, &report, &err);
  eddi_edit_report_free(&report);
  free(text);
  return 0;
}
