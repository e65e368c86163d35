/* lsp_wire.h - the language server protocol's framing and positions.
 *
 * Two pure parts of the client (lsp_client.h), kept apart so that the
 * fuzzer and the unit tests reach them without a server:
 * - the reader of Content-Length framed messages, fed bytes as they come
 *   from a pipe, that hands out one message body at a time;
 * - the conversion between eddi's byte offsets into a UTF-8 text and the
 *   server's positions (line, character), where a character is a byte
 *   (utf-8) or a UTF-16 code unit (utf-16), as the server chose in
 *   initialize.
 */
#ifndef EDDI_LSP_WIRE_H
#define EDDI_LSP_WIRE_H

#include "core/common.h"

/* ---------------------------------------------------------------- framing */

/* Longest header block (all header lines) a reader accepts. */
#define EDDI_LSP_HEADER_MAX 1024

typedef struct {
  StrBuf in;          /* bytes received, not yet handed out */
  size_t consumed;    /* bytes of in already handed out */
  size_t max_message; /* a larger Content-Length is a framing error */
} EddiLspReader;

void eddi_lsp_reader_init(EddiLspReader *self, size_t max_message);
void eddi_lsp_reader_free(EddiLspReader *self);
/* Append bytes read from the server (copied). */
void eddi_lsp_reader_feed(EddiLspReader *self, const char *bytes, size_t len);
/* The next complete message: 1 with *body (borrowed until the next call
 * on self) and *len; 0 when more bytes are needed; EDDI_EINVAL with err
 * filled when the stream is not LSP framing (the stream is then lost). */
int eddi_lsp_reader_next(EddiLspReader *self, const char **body, size_t *len, EddiError *err);

/* Frame body as one message onto out. */
void eddi_lsp_frame(StrBuf *out, const char *body, size_t len);

/* ---------------------------------------------------------------- positions */

typedef enum { EDDI_LSP_UTF16 = 0, EDDI_LSP_UTF8 = 1 } EddiLspEncoding;

typedef struct {
  size_t line;      /* 0-based */
  size_t character; /* 0-based, in the encoding's units */
} EddiLspPosition;

/* The position of byte offset in text[0, len) (clamped to len). Lines end
 * at "\n"; a "\r" before it belongs to no line's characters. An offset
 * inside a UTF-8 sequence counts as the start of its character. Bytes that
 * are not UTF-8 count as one unit each (the U+FFFD a server reads). */
EddiLspPosition eddi_lsp_position_of(const char *text, size_t len, size_t offset,
                                     EddiLspEncoding encoding);
/* The byte offset of pos in text[0, len): a line past the end gives len,
 * a character past its line's end gives the line's end (the protocol's
 * rule), one inside a character (half a surrogate pair) gives the start of
 * that character. */
size_t eddi_lsp_offset_of(const char *text, size_t len, EddiLspPosition pos,
                          EddiLspEncoding encoding);

/* ---------------------------------------------------------------- changes */

/* One replacement that makes after of before, for an incremental
 * didChange: before[start, before_end) becomes after[start, after_end). */
typedef struct {
  size_t start, before_end, after_end;
} EddiLspChange;

/* The change that leaves out what before and after share at their start
 * and end, its ends moved outwards to offsets whose positions (in
 * encoding) mean those offsets again: not inside a UTF-8 sequence, not
 * between "\r" and "\n". */
EddiLspChange eddi_lsp_change_of(const char *before, size_t before_len, const char *after,
                                 size_t after_len, EddiLspEncoding encoding);
/* Whether a server reads text's positions as eddi counts them: valid
 * UTF-8, and no "\r" but before "\n" (a server ends a line at a lone
 * "\r", eddi does not). Where not, a whole-text didChange is sent. */
bool eddi_lsp_positions_agree(const char *text, size_t len);

#endif
