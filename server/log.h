/* log.h - the error reporter and the request log.
 *
 * Every part of the server reports through here, so that what reaches
 * stderr has one shape: "eddi-server: <level>: <where>: <what>". Requests
 * get one line each: transport, sender, command word, duration, result.
 * Thread-safe: each call writes one line with one write(2).
 */
#ifndef EDDI_SERVER_LOG_H
#define EDDI_SERVER_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { LOG_ERROR, LOG_WARN, LOG_INFO } LogLevel;

/* The monotonic clock request durations and endpoint statistics are
 * measured with, in nanoseconds. */
int64_t log_now_ns(void);

/* Request lines are on unless turned off (benchmarks, --quiet). */
void log_set_requests(bool enabled);

/* Report something that went wrong (or happened) in `where`, a short name of
 * the part of the server ("nats", "stdio", "embedded"). */
void log_report(LogLevel level, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* One line for a finished request. text is the request's EddiSpeak (only its
 * first word is logged, never the body). */
void log_request(const char *transport, const char *sender, const char *text, size_t len,
                 int64_t duration_ns, bool ok);

#endif
