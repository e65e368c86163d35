/* fail_reply.c - see fail_reply.h. */
#include "fail_reply.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

char *fail_reply_quote(const char *text, size_t len) {
  /* Each byte needs at most two, plus the quotes and the terminator. */
  char *out = malloc(2 * len + 3);
  if (!out) return NULL;
  size_t n = 0;
  out[n++] = '"';
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    switch (c) {
    case '\n': out[n++] = '\\'; out[n++] = 'n'; break;
    case '\t': out[n++] = '\\'; out[n++] = 't'; break;
    case '"': out[n++] = '\\'; out[n++] = '"'; break;
    case '\\': out[n++] = '\\'; out[n++] = '\\'; break;
    default: out[n++] = c;
    }
  }
  out[n++] = '"';
  out[n] = '\0';
  return out;
}

void fail_reply_format(char *out, size_t out_size, const char *fmt, ...) {
  char reason[FAIL_REPLY_MAX];
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(reason, sizeof reason, fmt, args);
  va_end(args);
  if (n < 0) n = 0;
  if ((size_t)n >= sizeof reason) n = sizeof reason - 1;
  char *quoted = fail_reply_quote(reason, (size_t)n);
  snprintf(out, out_size, "Fail %s", quoted ? quoted : "\"Out of memory\"");
  free(quoted);
}
