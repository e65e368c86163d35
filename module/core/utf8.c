/* utf8.c - validation and counting; see utf8.h. */
#include "core/utf8.h"

#include <stdint.h>
#include <string.h>

size_t eddi_utf8_char_len(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

size_t eddi_utf8_valid_prefix(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  while (i < len) {
    /* ASCII runs, the bulk of source code, eight bytes at a time. */
    uint64_t word;
    while (i + 8 <= len && (memcpy(&word, s + i, 8), (word & 0x8080808080808080ULL) == 0)) i += 8;
    if (i >= len) break;
    unsigned char c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t need;
    unsigned long cp;
    if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) need = 2, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07;
    else return i;
    if (i + need >= len) return i; /* truncated sequence */
    for (size_t k = 1; k <= need; k++) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += need + 1;
  }
  return len;
}

bool eddi_utf8_valid(const char *text, size_t len) {
  return eddi_utf8_valid_prefix(text, len) == len;
}

size_t eddi_utf8_complete_prefix(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t lead = len; lead > 0 && len - lead < 4;) {
    lead--;
    if (eddi_utf8_is_lead(s[lead])) return lead + eddi_utf8_char_len(s[lead]) > len ? lead : len;
  }
  return len;
}

/* Characters are bytes that are not continuation bytes (10xxxxxx); counted
 * eight at a time: a continuation byte has bit 7 set and bit 6 clear, and
 * the multiply adds the eight flags up in the top byte. */
size_t eddi_utf8_count_chars(const char *text, size_t len) {
  const uint64_t high = 0x8080808080808080ULL, ones = 0x0101010101010101ULL;
  size_t continuations = 0, i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t word;
    memcpy(&word, text + i, 8);
    uint64_t flags = (word & ~(word << 1) & high) >> 7;
    continuations += (size_t)((flags * ones) >> 56);
  }
  for (; i < len; i++) continuations += !eddi_utf8_is_lead((unsigned char)text[i]);
  return len - continuations;
}

size_t eddi_utf8_skip_chars(const char *text, size_t len, size_t chars) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  for (; i < len; i++) {
    if (eddi_utf8_is_lead(s[i])) {
      if (chars == 0) return i;
      chars--;
    }
  }
  return len;
}

void eddi_utf8_line_col(const char *bytes, size_t len, size_t offset, size_t *line, size_t *col) {
  *line = 0, *col = 0;
  for (size_t i = 0; i < offset && i < len; i++) {
    if (bytes[i] == '\n') (*line)++, *col = 0;
    else if (eddi_utf8_is_lead((unsigned char)bytes[i])) (*col)++;
  }
}
