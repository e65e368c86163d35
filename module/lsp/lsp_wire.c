/* lsp_wire.c - see lsp_wire.h. */
#include "lsp/lsp_wire.h"

#include <strings.h>

#include "core/utf8.h"

/* ---------------------------------------------------------------- framing */

void eddi_lsp_reader_init(EddiLspReader *self, size_t max_message) {
  memset(self, 0, sizeof *self);
  self->max_message = max_message;
}

void eddi_lsp_reader_free(EddiLspReader *self) { eddi_strbuf_free(&self->in); }

void eddi_lsp_reader_feed(EddiLspReader *self, const char *bytes, size_t len) {
  eddi_strbuf_append(&self->in, bytes, len);
}

/* Drop the bytes handed out already, so that in starts at a header. */
static void reader__compact(EddiLspReader *self) {
  if (!self->consumed) return;
  size_t rest = self->in.len - self->consumed;
  memmove(self->in.data, self->in.data + self->consumed, rest);
  self->in.len = rest;
  self->in.data[rest] = '\0';
  self->consumed = 0;
}

/* Read one header line "Name: value" of line[0, len); Content-Length sets
 * *length, other headers (Content-Type) are allowed and ignored. */
static int reader__header(const EddiLspReader *self, const char *line, size_t len,
                          size_t *length, EddiError *err) {
  const char *colon = memchr(line, ':', len);
  if (!colon || colon == line)
    return eddi_error_set(err, EDDI_EINVAL, "LSP header without a name and a colon");
  size_t name_len = (size_t)(colon - line);
  if (name_len != 14 || strncasecmp(line, "Content-Length", 14) != 0) return 0;
  const char *p = colon + 1, *end = line + len;
  while (p < end && *p == ' ') p++;
  if (p == end) return eddi_error_set(err, EDDI_EINVAL, "LSP Content-Length without a number");
  size_t n = 0;
  for (; p < end && *p != ' '; p++) {
    if (*p < '0' || *p > '9')
      return eddi_error_set(err, EDDI_EINVAL, "LSP Content-Length is not a number");
    if (n > self->max_message / 10 + 1)
      return eddi_error_set(err, EDDI_ETOOBIG, "LSP message over %zu bytes", self->max_message);
    n = n * 10 + (size_t)(*p - '0');
  }
  while (p < end && *p == ' ') p++;
  if (p != end) return eddi_error_set(err, EDDI_EINVAL, "LSP Content-Length is not a number");
  if (n > self->max_message)
    return eddi_error_set(err, EDDI_ETOOBIG, "LSP message over %zu bytes", self->max_message);
  *length = n;
  return 1;
}

int eddi_lsp_reader_next(EddiLspReader *self, const char **body, size_t *len, EddiError *err) {
  reader__compact(self);
  const char *data = self->in.data;
  size_t have = self->in.len, header_end = 0;
  for (size_t i = 0; i + 3 < have && i < EDDI_LSP_HEADER_MAX; i++)
    if (data[i] == '\r' && data[i + 1] == '\n' && data[i + 2] == '\r' && data[i + 3] == '\n') {
      header_end = i + 4;
      break;
    }
  if (!header_end) {
    if (have >= EDDI_LSP_HEADER_MAX)
      return eddi_error_set(err, EDDI_ETOOBIG, "LSP headers over %d bytes", EDDI_LSP_HEADER_MAX);
    return 0;
  }
  size_t length = 0;
  bool found = false;
  for (size_t at = 0; at + 2 < header_end;) {
    const char *line = data + at;
    const char *crlf = line;
    while (!(crlf[0] == '\r' && crlf[1] == '\n')) crlf++;
    size_t line_len = (size_t)(crlf - line);
    if (line_len == 0) break;
    int rc = reader__header(self, line, line_len, &length, err);
    if (rc < 0) return rc;
    found |= rc == 1;
    at += line_len + 2;
  }
  if (!found) return eddi_error_set(err, EDDI_EINVAL, "LSP message without Content-Length");
  if (have - header_end < length) return 0;
  *body = data + header_end;
  *len = length;
  self->consumed = header_end + length;
  return 1;
}

void eddi_lsp_frame(StrBuf *out, const char *body, size_t len) {
  eddi_strbuf_printf(out, "Content-Length: %zu\r\n\r\n", len);
  eddi_strbuf_append(out, body, len);
}

/* ---------------------------------------------------------------- positions */

/* Bytes of the character at text[at, len) and its units in encoding. A
 * byte that starts no valid UTF-8 sequence is one character of one unit. */
static size_t position__char(const char *text, size_t len, size_t at, EddiLspEncoding encoding,
                             size_t *units) {
  size_t n = eddi_utf8_char_len((unsigned char)text[at]);
  if (n == 0 || at + n > len || eddi_utf8_valid_prefix(text + at, n) != n) n = 1;
  *units = encoding == EDDI_LSP_UTF8 ? n : (n == 4 ? 2 : 1);
  return n;
}

/* The end of the line that starts at start: its "\n" (or a "\r" before
 * it), or len. */
static size_t position__line_end(const char *text, size_t len, size_t start) {
  const char *nl = memchr(text + start, '\n', len - start);
  size_t end = nl ? (size_t)(nl - text) : len;
  if (nl && end > start && text[end - 1] == '\r') end--;
  return end;
}

EddiLspPosition eddi_lsp_position_of(const char *text, size_t len, size_t offset,
                                     EddiLspEncoding encoding) {
  if (offset > len) offset = len;
  EddiLspPosition pos = {0, 0};
  size_t start = 0;
  for (;;) {
    const char *nl = memchr(text + start, '\n', offset - start);
    if (!nl) break;
    start = (size_t)(nl - text) + 1;
    pos.line++;
  }
  size_t end = position__line_end(text, len, start);
  for (size_t at = start; at < offset && at < end;) {
    size_t units, n = position__char(text, len, at, encoding, &units);
    if (at + n > offset) break; /* inside this character: its start */
    pos.character += units;
    at += n;
  }
  return pos;
}

size_t eddi_lsp_offset_of(const char *text, size_t len, EddiLspPosition pos,
                          EddiLspEncoding encoding) {
  size_t start = 0;
  for (size_t line = 0; line < pos.line; line++) {
    const char *nl = memchr(text + start, '\n', len - start);
    if (!nl) return len;
    start = (size_t)(nl - text) + 1;
  }
  size_t end = position__line_end(text, len, start), at = start, units_seen = 0;
  while (at < end) {
    size_t units, n = position__char(text, len, at, encoding, &units);
    if (units_seen + units > pos.character) break;
    units_seen += units;
    at += n;
  }
  return at;
}

/* ---------------------------------------------------------------- changes */

/* Whether offset's position in text names offset again. */
static bool change__exact(const char *text, size_t len, size_t offset, EddiLspEncoding encoding) {
  return eddi_lsp_offset_of(text, len, eddi_lsp_position_of(text, len, offset, encoding),
                            encoding) == offset;
}

EddiLspChange eddi_lsp_change_of(const char *before, size_t before_len, const char *after,
                                 size_t after_len, EddiLspEncoding encoding) {
  size_t shorter = EDDI_MIN(before_len, after_len), start = 0, tail = 0;
  while (start < shorter && before[start] == after[start]) start++;
  while (tail < shorter - start && before[before_len - 1 - tail] == after[after_len - 1 - tail])
    tail++;
  /* The shared bytes are the same in both texts, so an end that is exact
   * in before is where after's shared part begins or ends too. */
  while (start > 0 && !change__exact(before, before_len, start, encoding)) start--;
  while (tail > 0 && !change__exact(before, before_len, before_len - tail, encoding)) tail--;
  return (EddiLspChange){start, before_len - tail, after_len - tail};
}

bool eddi_lsp_positions_agree(const char *text, size_t len) {
  if (eddi_utf8_valid_prefix(text, len) != len) return false;
  const char *end = text + len;
  for (const char *cr = memchr(text, '\r', len); cr; cr = memchr(cr + 1, '\r', (size_t)(end - cr - 1)))
    if (cr + 1 == end || cr[1] != '\n') return false;
  return true;
}
