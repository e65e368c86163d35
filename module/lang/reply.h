/* reply.h - the one formatter of replies.
 *
 *   Ok                          done, nothing to report
 *   Ok, At 3:0, Length 12       done, with facts
 *   Ok: payload                 done, the payload is the answer
 *   Fail "what", hint           nothing changed
 *
 * A payload is one line; text inside it is escaped (\n, \t, \\). When the
 * session asked for raw payloads, long text (a shown block, a diff) follows
 * the reply line as it is instead. The reply line itself never holds a
 * control character or a byte of invalid UTF-8: whatever a command put
 * there is escaped (\n, \x01, \xFF) when the line is finished. */
#ifndef EDDI_REPLY_H
#define EDDI_REPLY_H

#include "core/common.h"

typedef struct {
  bool raw_mode;  /* the session prefers raw multi-line payloads */
  StrBuf payload; /* after "Ok: " */
  StrBuf facts;   /* ", Key value" parts */
  StrBuf raw;     /* lines after the reply line (raw mode only) */
} EddiReplyBuilder;

void eddi_reply_builder_init(EddiReplyBuilder *self, bool raw_mode);
void eddi_reply_builder_free(EddiReplyBuilder *self);
/* Add ", <fact>" to the reply line. */
void eddi_reply_builder_fact(EddiReplyBuilder *self, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add each line of lines (may be NULL) as a fact; empty lines are none. */
void eddi_reply_builder_fact_lines(EddiReplyBuilder *self, const char *lines);
/* Append to the payload ("Ok: ..."). */
void eddi_reply_builder_payload(EddiReplyBuilder *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A text block labelled key: escaped into the payload as ", Key text", or in
 * raw mode put after the reply line. */
void eddi_reply_builder_text(EddiReplyBuilder *self, const char *key, const char *text, size_t len);
/* Text shown only in raw mode (a unified diff). */
void eddi_reply_builder_raw(EddiReplyBuilder *self, const char *text, size_t len);

/* Append a file name to out as a reply shows it: as it is when it is valid
 * UTF-8 without control characters, '"', '\\' or ',', else in quotes with
 * those escaped ("a\nb.txt", "\xFF.txt"), so that a name can neither
 * forge a line nor pass for two names of a list. */
void eddi_reply_name(StrBuf *out, const char *name);

/* The finished reply for a success; a new string. */
char *eddi_reply_builder_finish(EddiReplyBuilder *self);
/* Fail "what"[, hint]; a new string. */
char *eddi_fail_format(const EddiError *err);

#endif
