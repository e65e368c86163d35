/* fail_reply.h - the server's own Fail replies.
 *
 * When the server refuses a message before the engine sees it (too large,
 * busy, wrong instance) it answers in the engine's reply language,
 * `Fail "what is wrong"`, with the text escaped as EddiSpeak strings are.
 */
#ifndef EDDI_SERVER_FAIL_REPLY_H
#define EDDI_SERVER_FAIL_REPLY_H

#include <stddef.h>

/* Longest reason the server itself gives. */
#define FAIL_REPLY_MAX 512

/* Write `Fail "<reason>"` into out (cut to out_size). */
void fail_reply_format(char *out, size_t out_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Quote text as an EddiSpeak string ("..." with \n \t \" \\ escapes) into a
 * new string the caller frees; NULL when out of memory. */
char *fail_reply_quote(const char *text, size_t len);

#endif
