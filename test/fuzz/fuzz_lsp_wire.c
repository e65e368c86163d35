/* fuzz_lsp_wire.c - libFuzzer target for the language server framing and
 * positions (lsp/lsp_wire.h): the first byte sets how many bytes each read
 * from the "server" brings, the rest is the stream. Every message handed
 * out must lie inside what was fed; after a framing error nothing more is
 * read. Each message body is then taken as a text: every character start
 * must come back from its position, in utf-8 and in utf-16; and the body's
 * two halves are taken as a text before and after a change: the ranged
 * change between them must rebuild the second from the first, its ends
 * offsets that their positions name again. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string.h>

#include "lsp/lsp_wire.h"

#define FUZZ_MESSAGE_MAX 4096

static void fuzz__positions(const char *text, size_t len) {
  for (int enc = EDDI_LSP_UTF16; enc <= EDDI_LSP_UTF8; enc++)
    for (size_t at = 0; at <= len; at++) {
      if (at < len && ((unsigned char)text[at] & 0xC0) == 0x80) continue;
      EddiLspPosition pos = eddi_lsp_position_of(text, len, at, (EddiLspEncoding)enc);
      size_t back = eddi_lsp_offset_of(text, len, pos, (EddiLspEncoding)enc);
      /* A "\r" before "\n" and a stray continuation byte have no position
       * of their own: they go back to where their character or line ends. */
      if (back > at) abort();
    }
}

static void fuzz__change(const char *text, size_t len) {
  const char *before = text, *after = text + len / 2;
  size_t before_len = len / 2, after_len = len - len / 2;
  for (int enc = EDDI_LSP_UTF16; enc <= EDDI_LSP_UTF8; enc++) {
    EddiLspChange c = eddi_lsp_change_of(before, before_len, after, after_len, (EddiLspEncoding)enc);
    if (c.start > c.before_end || c.start > c.after_end || c.before_end > before_len ||
        c.after_end > after_len)
      abort();
    if (memcmp(before, after, c.start) != 0 ||
        before_len - c.before_end != after_len - c.after_end ||
        memcmp(before + c.before_end, after + c.after_end, before_len - c.before_end) != 0)
      abort();
    size_t ends[2] = {c.start, c.before_end};
    for (int i = 0; i < 2; i++) {
      EddiLspPosition pos = eddi_lsp_position_of(before, before_len, ends[i], (EddiLspEncoding)enc);
      if (eddi_lsp_offset_of(before, before_len, pos, (EddiLspEncoding)enc) != ends[i]) abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  size_t chunk = (size_t)data[0] % 64 + 1;
  const char *stream = (const char *)data + 1;
  size_t len = size - 1;
  EddiLspReader reader;
  eddi_lsp_reader_init(&reader, FUZZ_MESSAGE_MAX);
  EddiError err = {0};
  bool broken = false;
  for (size_t at = 0; at < len && !broken; at += chunk) {
    size_t n = len - at < chunk ? len - at : chunk;
    eddi_lsp_reader_feed(&reader, stream + at, n);
    const char *body;
    size_t body_len;
    int rc;
    while ((rc = eddi_lsp_reader_next(&reader, &body, &body_len, &err)) == 1) {
      if (body_len > FUZZ_MESSAGE_MAX || body < reader.in.data ||
          body + body_len > reader.in.data + reader.in.len)
        abort();
      fuzz__positions(body, body_len);
      fuzz__change(body, body_len);
    }
    broken = rc < 0;
  }
  eddi_lsp_reader_free(&reader);
  return 0;
}
