/* common.h - what every engine file needs: allocation, arrays, assertions, errors.
 *
 * All engine memory goes through eddi_malloc/eddi_realloc/eddi_free so that
 * tests can count live allocations and catch leaks without a sanitizer, and
 * so that an embedder can bring its own allocator (eddi_set_allocator).
 * Fallible functions return 0 or a negative EDDI_E* code and, where a person
 * or a model must be told why, fill an EddiError with the message.
 */
#ifndef EDDI_COMMON_H
#define EDDI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eddi_backend.h"

/* ---------------------------------------------------------------- memory */

/* These never return NULL: on exhaustion they call the embedder's
 * out-of-memory handler (eddi_set_allocator, eddi.h), which does not
 * return, or abort. */
void *eddi_malloc(size_t size);
void *eddi_calloc(size_t count, size_t size);
void *eddi_realloc(void *ptr, size_t size);
void eddi_free(void *ptr);
char *eddi_strdup(const char *s);            /* caller frees with eddi_free */
char *eddi_strndup(const char *s, size_t n); /* always NUL-terminated */
/* eddi_alloc_live (eddi.h) counts the live allocations made through these. */
/* The most live allocations there were since eddi_alloc_peak_reset: a test
 * bounds what a command holds at once with it. */
void eddi_alloc_peak_reset(void);
long eddi_alloc_peak(void);

/* Whether an allocation failed in this process. The handler may have
 * jumped out of the middle of any structure, so from then on nothing of
 * the engine's state is trusted with the disk: fs.c writes no workspace
 * file. */
bool eddi_alloc_failed(void);

/* ---------------------------------------------------------------- asserts */

#define EDDI_ASSERT(expr)                                                      \
  do {                                                                         \
    if (!(expr)) {                                                             \
      fprintf(stderr, "eddi: assertion failed: %s (%s:%d)\n", #expr, __FILE__, \
              __LINE__);                                                       \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#define EDDI_MIN(a, b) ((a) < (b) ? (a) : (b))
#define EDDI_MAX(a, b) ((a) > (b) ? (a) : (b))
#define EDDI_UNUSED(x) ((void)(x))

/* ---------------------------------------------------------------- arrays */

/* A growable array of T: `Array(int) a = {0};` then array_push(&a, 3). */
#define Array(T)                                                               \
  struct {                                                                     \
    T *items;                                                                  \
    size_t len;                                                                \
    size_t cap;                                                                \
  }

#define array_reserve(a, n)                                                    \
  array__reserve((void **)&(a)->items, &(a)->cap, sizeof(*(a)->items), (n))
#define array_push(a, v)                                                       \
  (array_reserve((a), (a)->len + 1), (a)->items[(a)->len++] = (v))
#define array_clear(a) ((a)->len = 0)
#define array_free(a)                                                          \
  (eddi_free((a)->items), (a)->items = NULL, (a)->len = (a)->cap = 0)
#define array_remove(a, i)                                                     \
  (memmove(&(a)->items[(i)], &(a)->items[(i) + 1],                             \
           ((a)->len - (i)-1) * sizeof(*(a)->items)),                          \
   (a)->len--)
#define array_back(a) (&(a)->items[(a)->len - 1])

void array__reserve(void **items, size_t *cap, size_t item_size, size_t need);

/* ---------------------------------------------------------------- errors */

/* The result codes (EDDI_E*) are eddi.h's and EddiError is eddi_backend.h's:
 * an embedder's backend fills one too. */

/* How much of a bad input line a Fail quotes, and of a bad word (a command
 * name, a register): enough to recognise it, not enough to flood a reply. */
#define EDDI_QUOTE_LINE_MAX ((size_t)80)
#define EDDI_QUOTE_WORD_MAX ((size_t)64)

void eddi_error_clear(EddiError *self);

/* ---------------------------------------------------------------- strings */

/* A growable NUL-terminated byte string. */
typedef struct {
  char *data;
  size_t len;
  size_t cap;
} StrBuf;

void eddi_strbuf_append(StrBuf *self, const char *bytes, size_t len);
void eddi_strbuf_puts(StrBuf *self, const char *s);
void eddi_strbuf_putc(StrBuf *self, char c);
void eddi_strbuf_printf(StrBuf *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void eddi_strbuf_clear(StrBuf *self);
void eddi_strbuf_free(StrBuf *self);
/* Hand the bytes over (caller frees with eddi_free); self is left empty. */
char *eddi_strbuf_take(StrBuf *self);

/* Write line to stderr in one write(2) where it can (a line of one thread
 * is not cut by another's). */
void eddi_stderr_line(const char *line);
/* What a job's worker thread shares with the engine (session/job.c):
 * whether its request was cancelled, and how far it has come. Loops of
 * long work ask eddi_work_stopping between steps and give up with an
 * error (the engine drops what they made, so nothing is written), and
 * count their steps with eddi_work_done, which a transport reports as
 * progress. Both fields are read and written atomically. */
typedef struct {
  bool stop;
  size_t done;      /* units of work done so far */
  const char *unit; /* what a unit is ("files analysed"): a static string */
} EddiWork;

/* This thread works for work from now on (NULL: for none). The helper
 * threads of long work attach to their starter's (eddi_work_current). */
void eddi_work_attach(EddiWork *work);
EddiWork *eddi_work_current(void);
/* False on a thread that works for no job. */
bool eddi_work_stopping(void);
/* count more units of unit done; nothing on a thread that works for no job. */
void eddi_work_done(const char *unit, size_t count);

/* Escape text for a one-line payload: \n \r \t \\ and, when quotes, \". */
void eddi_strbuf_escape(StrBuf *self, const char *bytes, size_t len, bool quotes);

#endif
