/* common.c - allocation counting, arrays, errors and string buffers. */
#include "core/common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <unistd.h>

#include "core/utf8.h"

/* ---------------------------------------------------------------- memory */

/* The embedder's allocator (eddi_set_allocator); the C library's until it
 * sets one. */
static struct {
  void *(*malloc_fn)(size_t size);
  void *(*calloc_fn)(size_t count, size_t size);
  void *(*realloc_fn)(void *ptr, size_t size);
  void (*free_fn)(void *ptr);
  void (*out_of_memory)(size_t size); /* NULL: abort */
} common__allocator = {malloc, calloc, realloc, free, NULL};

static atomic_long alloc_live;
static atomic_long alloc_peak; /* the most alloc_live was since the last reset */
static atomic_bool alloc_failed;

void eddi_set_allocator(void *(*new_malloc)(size_t size),
                        void *(*new_calloc)(size_t count, size_t size),
                        void *(*new_realloc)(void *ptr, size_t size), void (*new_free)(void *ptr),
                        void (*out_of_memory)(size_t size)) {
  common__allocator.malloc_fn = new_malloc ? new_malloc : malloc;
  common__allocator.calloc_fn = new_calloc ? new_calloc : calloc;
  common__allocator.realloc_fn = new_realloc ? new_realloc : realloc;
  common__allocator.free_fn = new_free ? new_free : free;
  common__allocator.out_of_memory = out_of_memory;
}

/* An allocation of size bytes failed: the embedder's handler, which does
 * not return, or abort. The flag is set first, so that whatever runs after
 * a handler that jumps out writes no file (fs.c). */
static _Noreturn void common__out_of_memory(size_t size) {
  atomic_store(&alloc_failed, true);
  if (common__allocator.out_of_memory) common__allocator.out_of_memory(size);
  fputs("eddi: out of memory\n", stderr);
  abort();
}

bool eddi_alloc_failed(void) { return atomic_load(&alloc_failed); }

/* One more live allocation. The peak is kept with relaxed loads and
 * stores: two threads raising it at once may leave the lower of their
 * counts, which is near enough for what tests ask of it. */
static void common__counted(void) {
  long live = atomic_fetch_add(&alloc_live, 1) + 1;
  if (live > atomic_load_explicit(&alloc_peak, memory_order_relaxed))
    atomic_store_explicit(&alloc_peak, live, memory_order_relaxed);
}

void *eddi_malloc(size_t size) {
  size = size ? size : 1;
  void *p = common__allocator.malloc_fn(size);
  if (!p) common__out_of_memory(size);
  common__counted();
  return p;
}

void *eddi_calloc(size_t count, size_t size) {
  count = count ? count : 1;
  size = size ? size : 1;
  void *p = common__allocator.calloc_fn(count, size);
  if (!p) {
    size_t total;
    common__out_of_memory(__builtin_mul_overflow(count, size, &total) ? SIZE_MAX : total);
  }
  common__counted();
  return p;
}

void *eddi_realloc(void *ptr, size_t size) {
  if (!ptr) return eddi_malloc(size);
  size = size ? size : 1;
  void *p = common__allocator.realloc_fn(ptr, size);
  if (!p) common__out_of_memory(size);
  return p;
}

void eddi_free(void *ptr) {
  if (!ptr) return;
  atomic_fetch_sub(&alloc_live, 1);
  common__allocator.free_fn(ptr);
}

long eddi_alloc_live(void) { return atomic_load(&alloc_live); }

void eddi_alloc_peak_reset(void) { atomic_store(&alloc_peak, atomic_load(&alloc_live)); }

long eddi_alloc_peak(void) { return atomic_load(&alloc_peak); }

char *eddi_strndup(const char *s, size_t n) {
  char *copy = eddi_malloc(n + 1);
  memcpy(copy, s, n);
  copy[n] = '\0';
  return copy;
}

char *eddi_strdup(const char *s) { return eddi_strndup(s, strlen(s)); }

void array__reserve(void **items, size_t *cap, size_t item_size, size_t need) {
  if (need <= *cap) return;
  size_t new_cap = *cap ? *cap * 2 : 8;
  while (new_cap < need) new_cap *= 2;
  *items = eddi_realloc(*items, new_cap * item_size);
  *cap = new_cap;
}

/* ---------------------------------------------------------------- errors */

/* A message cut at the buffer's size must not end in half a character: it
 * goes into replies, which are UTF-8. */
static void common__trim_partial(char *message) {
  message[eddi_utf8_complete_prefix(message, strlen(message))] = '\0';
}

int eddi_error_set(EddiError *self, int code, const char *fmt, ...) {
  if (!self) return code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(self->what, sizeof self->what, fmt, ap);
  va_end(ap);
  common__trim_partial(self->what);
  self->code = code;
  self->hint[0] = '\0';
  return code;
}

void eddi_error_hint(EddiError *self, const char *fmt, ...) {
  if (!self) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(self->hint, sizeof self->hint, fmt, ap);
  va_end(ap);
  common__trim_partial(self->hint);
}

void eddi_error_clear(EddiError *self) {
  self->code = 0;
  self->what[0] = self->hint[0] = '\0';
}

/* ---------------------------------------------------------------- strings */

static void eddi_strbuf__grow(StrBuf *self, size_t extra) {
  size_t need = self->len + extra + 1;
  if (need <= self->cap) return;
  size_t cap = self->cap ? self->cap * 2 : 64;
  while (cap < need) cap *= 2;
  self->data = eddi_realloc(self->data, cap);
  self->cap = cap;
}

void eddi_strbuf_append(StrBuf *self, const char *bytes, size_t len) {
  eddi_strbuf__grow(self, len);
  if (len) memcpy(self->data + self->len, bytes, len);
  self->len += len;
  self->data[self->len] = '\0';
}

void eddi_strbuf_puts(StrBuf *self, const char *s) { eddi_strbuf_append(self, s, strlen(s)); }

void eddi_strbuf_putc(StrBuf *self, char c) { eddi_strbuf_append(self, &c, 1); }

void eddi_strbuf_printf(StrBuf *self, const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    eddi_strbuf__grow(self, (size_t)n);
    vsnprintf(self->data + self->len, (size_t)n + 1, fmt, again);
    self->len += (size_t)n;
  }
  va_end(again);
}

void eddi_strbuf_clear(StrBuf *self) {
  self->len = 0;
  if (self->data) self->data[0] = '\0';
}

void eddi_strbuf_free(StrBuf *self) {
  eddi_free(self->data);
  self->data = NULL;
  self->len = self->cap = 0;
}

char *eddi_strbuf_take(StrBuf *self) {
  if (!self->data) eddi_strbuf__grow(self, 0), self->data[0] = '\0';
  char *data = self->data;
  self->data = NULL;
  self->len = self->cap = 0;
  return data;
}

void eddi_strbuf_escape(StrBuf *self, const char *bytes, size_t len, bool quotes) {
  size_t run = 0; /* bytes copied in one go between escapes */
  for (size_t i = 0; i < len; i++) {
    const char *esc = NULL;
    switch (bytes[i]) {
    case '\n': esc = "\\n"; break;
    case '\r': esc = "\\r"; break;
    case '\t': esc = "\\t"; break;
    case '\\': esc = "\\\\"; break;
    case '"': esc = quotes ? "\\\"" : NULL; break;
    }
    if (!esc) continue;
    eddi_strbuf_append(self, bytes + run, i - run);
    eddi_strbuf_puts(self, esc);
    run = i + 1;
  }
  eddi_strbuf_append(self, bytes + run, len - run);
}

void eddi_stderr_line(const char *line) {
  size_t len = strlen(line);
  for (size_t done = 0; done < len;) {
    ssize_t n = write(STDERR_FILENO, line + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
}

/* The job this thread works for, or NULL. */
static _Thread_local EddiWork *work__current;

void eddi_work_attach(EddiWork *work) { work__current = work; }

EddiWork *eddi_work_current(void) { return work__current; }

bool eddi_work_stopping(void) {
  return work__current && __atomic_load_n(&work__current->stop, __ATOMIC_ACQUIRE);
}

void eddi_work_done(const char *unit, size_t count) {
  if (!work__current) return;
  __atomic_store_n(&work__current->unit, unit, __ATOMIC_RELAXED);
  __atomic_fetch_add(&work__current->done, count, __ATOMIC_RELAXED);
}
