/* log.c - see log.h. */
#include "log.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* A log line longer than this is cut: logs never allocate. */
#define LOG_LINE_MAX 1024
/* The command word logged for a request is cut to this many bytes. */
#define LOG_WORD_MAX 32

static atomic_bool log__requests = true;

static const char *const log__level_names[] = {"error", "warning", "info"};

int64_t log_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

void log_set_requests(bool enabled) { atomic_store(&log__requests, enabled); }

/* Buffers hold LOG_LINE_MAX bytes of text plus the newline. The line goes out
 * in one write so that lines of concurrent threads never mix. */
static void log__write(char *line, int length) {
  if (length < 0) return;
  size_t n = (size_t)length < LOG_LINE_MAX - 1 ? (size_t)length : LOG_LINE_MAX - 1;
  line[n] = '\n';
  ssize_t unused = write(STDERR_FILENO, line, n + 1);
  (void)unused; /* nowhere left to report a failing stderr */
}

void log_report(LogLevel level, const char *where, const char *fmt, ...) {
  char line[LOG_LINE_MAX + 1];
  int used = snprintf(line, LOG_LINE_MAX, "eddi-server: %s: %s: ", log__level_names[level], where);
  if (used < 0 || used >= LOG_LINE_MAX) return;
  va_list args;
  va_start(args, fmt);
  int more = vsnprintf(line + used, LOG_LINE_MAX - (size_t)used, fmt, args);
  va_end(args);
  if (more < 0) return;
  log__write(line, used + more);
}

void log_request(const char *transport, const char *sender, const char *text, size_t len,
                 int64_t duration_ns, bool ok) {
  if (!atomic_load(&log__requests)) return;
  char word[LOG_WORD_MAX + 1];
  size_t i = 0, n = 0;
  while (i < len && isspace((unsigned char)text[i])) i++;
  while (i < len && n < LOG_WORD_MAX && !isspace((unsigned char)text[i])) word[n++] = text[i++];
  word[n] = '\0';
  char line[LOG_LINE_MAX + 1];
  int length = snprintf(line, LOG_LINE_MAX, "eddi-server: request %s sender=%s command=%s %.3fms %s",
                        transport, sender, n ? word : "-", (double)duration_ns / 1e6,
                        ok ? "ok" : "fail");
  log__write(line, length);
}
