/* fuzz_hashline.c - libFuzzer target for the hashline parser and applier,
 * and for Edit over a workspace (tags, sections, rebase checks). */
#include "fuzz_edit_support.h"

#include "edit/hashline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text_of(data, size);
  if (!text) return 0;
  HlSection section = {0};
  EddiEditReport report = {0};
  EddiError err;
  EddiRegisterList registers = {0};
  StrBuf out = {0};
  if (eddi_hashline_parse(text, size, 0, &section, &report, &err) == 0)
    eddi_hashline_apply(&section, "a.py", fuzz_text, sizeof fuzz_text - 1, &registers, &out,
                        NULL, &err);
  eddi_strbuf_free(&out);
  eddi_registers_free(&registers);
  eddi_hashline_section_free(&section);
  eddi_edit_report_free(&report);
  /* The same body under the file's real header, through the engine. */
  fuzz_reset();
  StrBuf input = {0};
  char tag[5];
  eddi_hashline_tag(fuzz_text, sizeof fuzz_text - 1, tag);
  eddi_strbuf_printf(&input, "[a.txt#%s]\n", tag);
  eddi_strbuf_append(&input, text, size);
  EddiEditReport engine_report = {0};
  eddi_edit_hashline(fuzz_engine->workspace, NULL, input.data, input.len, &engine_report, &err);
  eddi_edit_report_free(&engine_report);
  eddi_strbuf_free(&input);
  free(text);
  return 0;
}
