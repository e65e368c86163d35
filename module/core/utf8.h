/* utf8.h - the few UTF-8 facts the engine needs: validity and character counts.
 * Columns are counted in characters (code points): a byte is the start of a
 * character unless it is a continuation byte (10xxxxxx). */
#ifndef EDDI_UTF8_H
#define EDDI_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#include "eddi.h" /* eddi_utf8_valid */

static inline bool eddi_utf8_is_lead(unsigned char byte) { return (byte & 0xC0) != 0x80; }

/* Length of the longest valid UTF-8 prefix of bytes (== len when all valid).
 * Rejects overlong forms, surrogates and code points past U+10FFFF. */
size_t eddi_utf8_valid_prefix(const char *bytes, size_t len);

/* Number of characters in bytes[0, len). */
size_t eddi_utf8_count_chars(const char *bytes, size_t len);

/* Byte offset of character number `chars` in bytes[0, len), or len when the
 * text has fewer characters. */
size_t eddi_utf8_skip_chars(const char *bytes, size_t len, size_t chars);

/* Bytes of the character starting at bytes[0] (1..4), from its lead byte. */
size_t eddi_utf8_char_len(unsigned char lead);

/* len without a last character that bytes[0, len) cuts short, so a text
 * truncated at a byte count stays valid UTF-8. */
size_t eddi_utf8_complete_prefix(const char *bytes, size_t len);

/* The 0-based line and column (in characters) of byte offset in bytes. */
void eddi_utf8_line_col(const char *bytes, size_t len, size_t offset, size_t *line, size_t *col);

#endif
