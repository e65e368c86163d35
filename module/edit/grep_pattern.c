/* grep_pattern.c - how Grep searches with a pattern; see grep_pattern.h. */
#include "edit/grep_pattern.h"

#include "lang/lexer.h"

/* Whether a match of the regex source on a line alone implies a match at
 * the same place in the whole text, so whole-text matches can propose the
 * lines. True unless the pattern has a part that looks past what it
 * consumes or cannot give back what it took: look-around and conditions,
 * \A \G \z \Z \K, atomic groups and possessive quantifiers, verbs and
 * callouts. Conservative: escapes and classes are skipped over, anything
 * unusual makes it false. */
static bool grep_pattern__candidate_safe(const char *src, size_t len) {
  bool in_class = false;
  for (size_t i = 0; i < len; i++) {
    char c = src[i];
    if (c == '\\') {
      if (++i >= len) return false;
      if (!in_class && strchr("AGzZKQEC", src[i])) return false;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < len && src[i + 1] == '^') i++;
      if (i + 1 < len && src[i + 1] == ']') i++; /* "[]...]": ']' first is literal */
    } else if (c == '(' && i + 1 < len && src[i + 1] == '*') {
      return false;
    } else if (c == '(' && i + 1 < len && src[i + 1] == '?') {
      char kind = i + 2 < len ? src[i + 2] : '\0';
      char after = i + 3 < len ? src[i + 3] : '\0';
      if (strchr("=!(>C", kind) || (kind == '<' && (after == '=' || after == '!')))
        return false;
    } else if (c == '+' && i > 0 && strchr("*+?}", src[i - 1]) &&
               !(i > 1 && src[i - 2] == '\\')) {
      return false; /* possessive */
    }
  }
  return true;
}

/* "\Q...\E" around text without a newline or "\E" (how Grep "text" comes):
 * a literal on one line. */
static bool grep_pattern__quoted_line(const char *src, size_t len) {
  if (len < 4 || memcmp(src, "\\Q", 2) != 0 || memcmp(src + len - 2, "\\E", 2) != 0)
    return false;
  const char *inner = src + 2;
  size_t n = len - 4;
  if (memchr(inner, '\n', n)) return false;
  for (size_t i = 0; i + 1 < n; i++)
    if (inner[i] == '\\' && inner[i + 1] == 'E') return false;
  return true;
}

/* The literal text every match starts with, from the regex source (none
 * when the pattern starts with anything but plain characters, or under
 * caseless or extended flags): memmem finds it far faster than the JIT's
 * start-of-match search, which stops at every occurrence of its first
 * byte. A quantifier after the last plain character takes it off. */
static void grep_pattern__literal(const char *src, size_t len, unsigned flags, StrBuf *out) {
  if (flags & (REGEX_CASELESS | REGEX_EXTENDED)) return;
  if (grep_pattern__quoted_line(src, len)) {
    eddi_strbuf_append(out, src + 2, len - 4);
    return;
  }
  size_t n = 0;
  while (n < len && !strchr("\\^$.|?*+()[]{}#", src[n]) && (unsigned char)src[n] < 0x80) n++;
  if (n < len && strchr("?*{", src[n]) && n > 0) n--;
  if (n < len && src[n] == '|') n = 0; /* an alternative may start otherwise */
  if (memchr(src + n, '|', len - n)) n = 0;
  eddi_strbuf_append(out, src, n);
}

/* How common a byte is in source text, roughly (higher: more common), to
 * pick the byte of the prefix that memchr looks for: the rarer it is, the
 * fewer false starts. English letter order for lowercase. */
static int grep_pattern__byte_rank(unsigned char c) {
  static const char by_frequency[] = "etaoinsrhldcumfpgwybvkxjqz";
  if (c == ' ') return 255;
  const char *at = c >= 'a' && c <= 'z' ? strchr(by_frequency, c) : NULL;
  if (at) return 200 - 4 * (int)(at - by_frequency);
  if (c == '_' || c == '\t' || strchr("(),;.=", c)) return 180;
  if (c >= '0' && c <= '9') return 100;
  if (c >= 'A' && c <= 'Z') return 90;
  return c < 0x80 ? 60 : 40;
}

/* Where prefix (len > 0) first occurs in text[from, len), or NULL: a
 * memchr for its rarest byte, then a compare. memmem's generic search is
 * several times slower than memchr's vector loop. */
const char *eddi_grep_find_prefix(const char *text, size_t len, size_t from,
                                  const StrBuf *prefix, size_t rare) {
  char byte = prefix->data[rare];
  for (size_t at = from + rare; at < len;) {
    const char *hit = memchr(text + at, byte, len - at);
    if (!hit) return NULL;
    const char *start = hit - rare;
    if ((size_t)(text + len - start) >= prefix->len &&
        memcmp(start, prefix->data, prefix->len) == 0)
      return start;
    at = (size_t)(hit - text) + 1;
  }
  return NULL;
}

EddiGrepMode eddi_grep_mode_of(const char *src, size_t len, bool line_local, uint32_t lookbehind) {
  if (line_local || (lookbehind == 0 && grep_pattern__quoted_line(src, len))) return GREP_WHOLE;
  if (lookbehind == 0 && grep_pattern__candidate_safe(src, len)) return GREP_CONFIRM;
  return GREP_LINES;
}

void eddi_grep_prefix(const char *src, size_t len, unsigned flags, StrBuf *out, size_t *rare) {
  grep_pattern__literal(src, len, flags, out);
  *rare = 0;
  for (size_t i = 1; i < out->len; i++)
    if (grep_pattern__byte_rank((unsigned char)out->data[i]) <
        grep_pattern__byte_rank((unsigned char)out->data[*rare]))
      *rare = i;
}
