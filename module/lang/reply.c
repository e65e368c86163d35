/* reply.c - reply formatting; see reply.h. */
#include "lang/reply.h"

#include <stdarg.h>

#include "core/utf8.h"

void eddi_reply_builder_init(EddiReplyBuilder *self, bool raw_mode) {
  memset(self, 0, sizeof *self);
  self->raw_mode = raw_mode;
}

void eddi_reply_builder_free(EddiReplyBuilder *self) {
  eddi_strbuf_free(&self->payload);
  eddi_strbuf_free(&self->facts);
  eddi_strbuf_free(&self->raw);
}

static void reply__vappend(StrBuf *out, const char *fmt, va_list ap) {
  char small[256];
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= 0 && (size_t)n < sizeof small) {
    eddi_strbuf_append(out, small, (size_t)n);
  } else if (n >= 0) {
    char *big = eddi_malloc((size_t)n + 1);
    vsnprintf(big, (size_t)n + 1, fmt, again);
    eddi_strbuf_append(out, big, (size_t)n);
    eddi_free(big);
  }
  va_end(again);
}

void eddi_reply_builder_fact(EddiReplyBuilder *self, const char *fmt, ...) {
  eddi_strbuf_puts(&self->facts, ", ");
  va_list ap;
  va_start(ap, fmt);
  reply__vappend(&self->facts, fmt, ap);
  va_end(ap);
}

void eddi_reply_builder_fact_lines(EddiReplyBuilder *self, const char *lines) {
  for (const char *line = lines; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len) eddi_reply_builder_fact(self, "%.*s", (int)len, line);
    line += len + (end != NULL);
  }
}

void eddi_reply_builder_payload(EddiReplyBuilder *self, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  reply__vappend(&self->payload, fmt, ap);
  va_end(ap);
}

void eddi_reply_builder_text(EddiReplyBuilder *self, const char *key, const char *text, size_t len) {
  if (self->raw_mode) {
    eddi_reply_builder_raw(self, text, len);
    return;
  }
  if (self->payload.len) eddi_strbuf_puts(&self->payload, ", ");
  eddi_strbuf_printf(&self->payload, "%s ", key);
  eddi_strbuf_escape(&self->payload, text, len, false);
}

void eddi_reply_builder_raw(EddiReplyBuilder *self, const char *text, size_t len) {
  if (!self->raw_mode) return;
  eddi_strbuf_append(&self->raw, text, len);
}

/* Append text to a reply line with every control character and every byte
 * that is not part of valid UTF-8 escaped (\n, \xFF), so that nothing a
 * command reports (a file name read from the disk) can end the line, forge
 * another one, or put bytes into a JSON string that JSON cannot hold. */
static void reply__append_line(StrBuf *out, const char *text, size_t len) {
  size_t run = 0;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)text[i];
    size_t valid = c < 0x80 ? 1 : eddi_utf8_valid_prefix(text + i, EDDI_MIN(len - i, 4));
    size_t char_len = c < 0x80 ? 1 : eddi_utf8_char_len(c);
    if (c >= 0x80 && valid >= char_len) {
      i += char_len;
      continue;
    }
    if (c >= 0x20 && c < 0x7F) {
      i++;
      continue;
    }
    eddi_strbuf_append(out, text + run, i - run);
    switch (c) {
    case '\n': eddi_strbuf_puts(out, "\\n"); break;
    case '\r': eddi_strbuf_puts(out, "\\r"); break;
    case '\t': eddi_strbuf_puts(out, "\\t"); break;
    default: eddi_strbuf_printf(out, "\\x%02X", c); break;
    }
    run = ++i;
  }
  if (len > run) eddi_strbuf_append(out, text + run, len - run); /* text may be NULL when empty */
}

void eddi_reply_name(StrBuf *out, const char *name) {
  size_t len = strlen(name);
  bool plain = len > 0 && eddi_utf8_valid_prefix(name, len) == len;
  for (size_t i = 0; i < len && plain; i++) {
    unsigned char c = (unsigned char)name[i];
    plain = c >= 0x20 && c != 0x7F && c != '"' && c != '\\' && c != ',';
  }
  if (plain) {
    eddi_strbuf_append(out, name, len);
    return;
  }
  StrBuf escaped = {0};
  eddi_strbuf_escape(&escaped, name, len, true);
  eddi_strbuf_putc(out, '"');
  reply__append_line(out, escaped.data ? escaped.data : "", escaped.len);
  eddi_strbuf_putc(out, '"');
  eddi_strbuf_free(&escaped);
}

char *eddi_reply_builder_finish(EddiReplyBuilder *self) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "Ok");
  if (self->payload.len) {
    eddi_strbuf_puts(&out, ": ");
    reply__append_line(&out, self->payload.data, self->payload.len);
  }
  reply__append_line(&out, self->facts.data, self->facts.len);
  if (self->raw.len) {
    eddi_strbuf_putc(&out, '\n');
    size_t len = self->raw.len;
    if (self->raw.data[len - 1] == '\n') len--; /* the reply's own line end */
    eddi_strbuf_append(&out, self->raw.data, len);
  }
  return eddi_strbuf_take(&out);
}

char *eddi_fail_line(char *out, size_t out_size, const char *fmt, ...) {
  EddiError err;
  eddi_error_clear(&err);
  va_list args;
  va_start(args, fmt);
  vsnprintf(err.what, sizeof err.what, fmt, args);
  va_end(args);
  char *line = eddi_fail_format(&err);
  size_t n = strlen(line);
  if (out_size) {
    if (n >= out_size) n = eddi_utf8_complete_prefix(line, out_size - 1);
    memcpy(out, line, n);
    out[n] = '\0';
  }
  eddi_free(line);
  return out;
}

char *eddi_fail_format(const EddiError *err) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "Fail \"");
  StrBuf what = {0};
  eddi_strbuf_escape(&what, err->what, strlen(err->what), true);
  reply__append_line(&out, what.data ? what.data : "", what.len);
  eddi_strbuf_free(&what);
  eddi_strbuf_putc(&out, '"');
  if (err->hint[0]) {
    eddi_strbuf_puts(&out, ", ");
    reply__append_line(&out, err->hint, strlen(err->hint));
  }
  return eddi_strbuf_take(&out);
}

void eddi_reply_free(EddiReply *reply) {
  for (size_t i = 0; i < reply->count; i++) eddi_free(reply->items[i].text);
  eddi_free(reply->items);
  reply->items = NULL;
  reply->count = 0;
}
