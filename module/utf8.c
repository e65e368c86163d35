/* utf8.c - validation and counting; see utf8.h. */
#include "utf8.h"

size_t utf8_char_len(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

size_t utf8_valid_prefix(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  while (i < len) {
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

size_t utf8_count_chars(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  size_t chars = 0;
  for (size_t i = 0; i < len; i++) chars += utf8_is_lead(s[i]);
  return chars;
}

size_t utf8_skip_chars(const char *text, size_t len, size_t chars) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  for (; i < len; i++) {
    if (utf8_is_lead(s[i])) {
      if (chars == 0) return i;
      chars--;
    }
  }
  return len;
}
