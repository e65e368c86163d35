/* reply.c - reply formatting; see reply.h. */
#include "reply.h"

#include <stdarg.h>

void reply_init(ReplyBuilder *self, bool raw_mode) {
  memset(self, 0, sizeof *self);
  self->raw_mode = raw_mode;
}

void reply_free(ReplyBuilder *self) {
  strbuf_free(&self->payload);
  strbuf_free(&self->facts);
  strbuf_free(&self->raw);
}

static void reply__vappend(StrBuf *out, const char *fmt, va_list ap) {
  char small[256];
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= 0 && (size_t)n < sizeof small) {
    strbuf_append(out, small, (size_t)n);
  } else if (n >= 0) {
    char *big = eddi_malloc((size_t)n + 1);
    vsnprintf(big, (size_t)n + 1, fmt, again);
    strbuf_append(out, big, (size_t)n);
    eddi_free(big);
  }
  va_end(again);
}

void reply_fact(ReplyBuilder *self, const char *fmt, ...) {
  strbuf_puts(&self->facts, ", ");
  va_list ap;
  va_start(ap, fmt);
  reply__vappend(&self->facts, fmt, ap);
  va_end(ap);
}

void reply_payload(ReplyBuilder *self, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  reply__vappend(&self->payload, fmt, ap);
  va_end(ap);
}

void reply_text(ReplyBuilder *self, const char *key, const char *text, size_t len) {
  if (self->raw_mode) {
    reply_raw(self, text, len);
    return;
  }
  if (self->payload.len) strbuf_puts(&self->payload, ", ");
  strbuf_printf(&self->payload, "%s ", key);
  strbuf_escape(&self->payload, text, len, false);
}

void reply_raw(ReplyBuilder *self, const char *text, size_t len) {
  if (!self->raw_mode) return;
  strbuf_append(&self->raw, text, len);
}

char *reply_format_ok(ReplyBuilder *self) {
  StrBuf out = {0};
  strbuf_puts(&out, "Ok");
  if (self->payload.len) {
    strbuf_puts(&out, ": ");
    strbuf_append(&out, self->payload.data, self->payload.len);
  }
  strbuf_append(&out, self->facts.data, self->facts.len);
  if (self->raw.len) {
    strbuf_putc(&out, '\n');
    size_t len = self->raw.len;
    if (self->raw.data[len - 1] == '\n') len--; /* the reply's own line end */
    strbuf_append(&out, self->raw.data, len);
  }
  return strbuf_take(&out);
}

char *reply_format_fail(const EddiError *err) {
  StrBuf out = {0};
  strbuf_puts(&out, "Fail \"");
  strbuf_escape(&out, err->what, strlen(err->what), true);
  strbuf_putc(&out, '"');
  if (err->hint[0]) {
    strbuf_puts(&out, ", ");
    strbuf_puts(&out, err->hint);
  }
  return strbuf_take(&out);
}
