/* search.c - PCRE2 patterns; see search.h. */
#include "search.h"

#include <ctype.h>

#include "lexer.h"
#include "utf8.h"

/* JIT stack: starts small, may grow to this for deeply nested patterns. */
#define EDDI_JIT_STACK_START (32 * 1024)
#define EDDI_JIT_STACK_MAX (1024 * 1024)

int eddi_pattern_compile(EddiPattern *self, const char *text, size_t len, bool regex,
                         unsigned flags, EddiError *err) {
  memset(self, 0, sizeof *self);
  self->is_regex = regex;
  uint32_t options = PCRE2_UTF | PCRE2_NO_UTF_CHECK;
  if (regex) {
    options |= PCRE2_MULTILINE;
    if (flags & REGEX_CASELESS) options |= PCRE2_CASELESS;
    if (flags & REGEX_DOTALL) options |= PCRE2_DOTALL;
    if (flags & REGEX_EXTENDED) options |= PCRE2_EXTENDED;
  } else {
    options |= PCRE2_LITERAL;
  }
  if (len == 0) return eddi_error_set(err, EDDI_EINVAL, "Empty search pattern");
  int code;
  PCRE2_SIZE offset;
  self->code = pcre2_compile((PCRE2_SPTR)text, len, options, &code, &offset, NULL);
  if (!self->code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(code, message, sizeof message);
    return eddi_error_set(err, EDDI_EINVAL, "Bad regex at %zu: %s", (size_t)offset,
                          (char *)message);
  }
  pcre2_jit_compile(self->code, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
  self->match = pcre2_match_data_create_from_pattern(self->code, NULL);
  self->context = pcre2_match_context_create(NULL);
  pcre2_set_match_limit(self->context, EDDI_REGEX_MATCH_LIMIT);
  self->jit_stack = pcre2_jit_stack_create(EDDI_JIT_STACK_START, EDDI_JIT_STACK_MAX, NULL);
  if (self->jit_stack) pcre2_jit_stack_assign(self->context, NULL, self->jit_stack);
  return 0;
}

void eddi_pattern_free(EddiPattern *self) {
  if (self->jit_stack) pcre2_jit_stack_free(self->jit_stack);
  if (self->context) pcre2_match_context_free(self->context);
  if (self->match) pcre2_match_data_free(self->match);
  if (self->code) pcre2_code_free(self->code);
  memset(self, 0, sizeof *self);
}

int eddi_pattern_find(EddiPattern *self, const char *subject, size_t len, size_t from,
                      size_t *start, size_t *end, EddiError *err) {
  if (from > len) return 0;
  int rc = pcre2_match(self->code, (PCRE2_SPTR)subject, len, from, PCRE2_NO_UTF_CHECK,
                       self->match, self->context);
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  if (rc < 0) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(rc, message, sizeof message);
    return eddi_error_set(err, EDDI_ETOOBIG, "Regex failed: %s", (char *)message);
  }
  PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(self->match);
  *start = ovector[0];
  *end = ovector[1] < ovector[0] ? ovector[0] : ovector[1]; /* \K can invert them */
  return 1;
}

size_t eddi_pattern_step(const char *subject, size_t len, size_t at) {
  if (at >= len) return len + 1;
  return at + utf8_char_len((unsigned char)subject[at]);
}

static void search__append_group(const EddiPattern *self, const char *subject, unsigned group,
                                 StrBuf *out) {
  uint32_t count = pcre2_get_ovector_count(self->match);
  if (group >= count) return;
  PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(self->match);
  PCRE2_SIZE a = ovector[2 * group], b = ovector[2 * group + 1];
  if (a == PCRE2_UNSET || b < a) return;
  strbuf_append(out, subject + a, b - a);
}

void eddi_pattern_expand(const EddiPattern *self, const char *subject, const char *replacement,
                         size_t len, StrBuf *out) {
  if (!self->is_regex) {
    strbuf_append(out, replacement, len);
    return;
  }
  for (size_t i = 0; i < len; i++) {
    char c = replacement[i];
    if (c != '$' || i + 1 >= len) {
      strbuf_putc(out, c);
      continue;
    }
    char next = replacement[i + 1];
    if (next == '$') {
      strbuf_putc(out, '$');
      i++;
    } else if (isdigit((unsigned char)next)) {
      unsigned group = (unsigned)(next - '0');
      i++;
      if (i + 1 < len && isdigit((unsigned char)replacement[i + 1]))
        group = group * 10 + (unsigned)(replacement[++i] - '0');
      search__append_group(self, subject, group, out);
    } else if (next == '{') {
      size_t close = i + 2;
      unsigned group = 0;
      while (close < len && isdigit((unsigned char)replacement[close]) && group < 1000)
        group = group * 10 + (unsigned)(replacement[close++] - '0');
      if (close < len && replacement[close] == '}' && close > i + 2) {
        search__append_group(self, subject, group, out);
        i = close;
      } else {
        strbuf_putc(out, c);
      }
    } else {
      strbuf_putc(out, c);
    }
  }
}
