/* search.c - PCRE2 patterns; see search.h. */
#include "edit/search.h"

#include <ctype.h>
#include <pthread.h>
#include <time.h>

#include "lang/lexer.h"
#include "core/utf8.h"

/* JIT stack: starts small, may grow to this for deeply nested patterns. */
#define EDDI_JIT_STACK_START (32 * 1024)
#define EDDI_JIT_STACK_MAX (1024 * 1024)

/* Room for a PCRE2 error message: its longest is about 120 bytes, and a
 * longer one is cut, not overrun. */
#define PATTERN_MESSAGE_MAX 256

/* "${n}" with n past this stays text: it bounds the digits read, and no
 * pattern a person writes has that many groups. */
#define PATTERN_GROUP_MAX 1000

/* Whether every match of the regex source lies inside one line and needs
 * nothing outside it. Conservative: anything that could match a newline
 * (\n \s \v \R \D \W \H, negated or escaped classes, code points, Unicode
 * properties, dot under s), look-around, \A \G \z \Z, inline options and
 * verbs make it false; such patterns are searched on a flat copy instead. */
static bool pattern__line_local(const char *src, size_t len, unsigned flags) {
  if (flags & (REGEX_DOTALL | REGEX_EXTENDED)) return false;
  bool in_class = false;
  for (size_t i = 0; i < len; i++) {
    char c = src[i];
    if (c == '\n') return false;
    if (c == '\\') {
      if (++i >= len) return false;
      if (strchr("nsvRDWHzZAGxocpPXC0123456789", src[i])) return false;
      if (src[i] == 'Q') return false; /* quoted literals: keep it simple */
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      else if (c == '[' && i + 1 < len && src[i + 1] == ':') return false; /* [:space:] */
      else if (c == '-' && i > 0 && (unsigned char)src[i - 1] < 0x20) return false;
      continue;
    }
    if (c == '[') {
      if (i + 1 < len && src[i + 1] == '^') return false;
      in_class = true;
      if (i + 1 < len && src[i + 1] == ']') i++; /* "[]...]": ']' first is literal */
    } else if (c == '(' && i + 1 < len && (src[i + 1] == '?' || src[i + 1] == '*')) {
      /* Only plain groups: (?: (?| (?> and named (?<name> (?P<name>. */
      char kind = i + 2 < len ? src[i + 2] : '\0';
      bool named = (kind == '<' || kind == 'P') && i + 3 < len && src[i + 3] != '=' &&
                   src[i + 3] != '!';
      if (src[i + 1] == '*' || !(kind == ':' || kind == '|' || kind == '>' || named))
        return false;
    }
  }
  return true;
}

/* ---------------------------------------------------------------- time limit */

/* Callouts between looks at the clock: a look costs about 20 ns, a
 * callout a few. */
#define PATTERN_CLOCK_EVERY 1024

static _Thread_local struct {
  unsigned ms; /* 0: no limit */
  struct timespec until;
  unsigned calls;
  bool expired;
} pattern_deadline;

void eddi_pattern_deadline(unsigned ms) {
  pattern_deadline.ms = ms;
  pattern_deadline.calls = 0;
  pattern_deadline.expired = false;
  clock_gettime(CLOCK_MONOTONIC, &pattern_deadline.until);
  pattern_deadline.until.tv_sec += ms / 1000;
  pattern_deadline.until.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (pattern_deadline.until.tv_nsec >= 1000000000L)
    pattern_deadline.until.tv_sec++, pattern_deadline.until.tv_nsec -= 1000000000L;
}

static int pattern__callout(pcre2_callout_block *block, void *data) {
  EDDI_UNUSED(block);
  EDDI_UNUSED(data);
  if (!pattern_deadline.ms) return 0;
  if (pattern_deadline.expired) return PCRE2_ERROR_CALLOUT;
  if (++pattern_deadline.calls % PATTERN_CLOCK_EVERY) return 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (now.tv_sec < pattern_deadline.until.tv_sec ||
      (now.tv_sec == pattern_deadline.until.tv_sec && now.tv_nsec < pattern_deadline.until.tv_nsec))
    return 0;
  pattern_deadline.expired = true;
  return PCRE2_ERROR_CALLOUT;
}

/* ---------------------------------------------------------------- cache */

struct PatternCacheEntry {
  char *source;
  size_t len;
  uint32_t options;
  pcre2_code *code;
  bool line_local;
  unsigned refs;      /* patterns using it */
  uint64_t last_used;
  bool evicted;       /* out of the table; freed when its last pattern goes */
};

/* One per thread, so engines on different threads never share a match
 * context or JIT stack. Plain malloc: this outlives any one engine. */
static _Thread_local struct {
  PatternCacheEntry *entries[EDDI_PATTERN_CACHE_SIZE];
  uint64_t clock;
  pcre2_match_context *context;
  pcre2_jit_stack *jit_stack;
} pattern_cache;

static void pattern_cache__entry_free(PatternCacheEntry *entry) {
  pcre2_code_free(entry->code);
  free(entry->source);
  free(entry);
}

static PatternCacheEntry *pattern_cache__find(const char *text, size_t len, uint32_t options) {
  for (size_t i = 0; i < EDDI_PATTERN_CACHE_SIZE; i++) {
    PatternCacheEntry *entry = pattern_cache.entries[i];
    if (entry && entry->len == len && entry->options == options &&
        memcmp(entry->source, text, len) == 0)
      return entry;
  }
  return NULL;
}

/* Put a new entry in a free slot, or in place of the least recently used. */
static PatternCacheEntry *pattern_cache__add(const char *text, size_t len, uint32_t options,
                                             pcre2_code *code, bool line_local) {
  PatternCacheEntry *entry = calloc(1, sizeof *entry);
  if (!entry || !(entry->source = malloc(len))) abort();
  memcpy(entry->source, text, len);
  entry->len = len;
  entry->options = options;
  entry->code = code;
  entry->line_local = line_local;
  size_t slot = 0;
  for (size_t i = 0; i < EDDI_PATTERN_CACHE_SIZE; i++) {
    PatternCacheEntry *old = pattern_cache.entries[i];
    if (!old) {
      slot = i;
      break;
    }
    if (old->last_used < pattern_cache.entries[slot]->last_used) slot = i;
  }
  PatternCacheEntry *old = pattern_cache.entries[slot];
  if (old) {
    old->evicted = true;
    if (old->refs == 0) pattern_cache__entry_free(old);
  }
  pattern_cache.entries[slot] = entry;
  return entry;
}

/* A thread that ends (eddi-server's engine thread) drops its cache too:
 * the key's destructor runs at thread exit, while its TLS is still there. */
static pthread_key_t pattern_cache_key;
static pthread_once_t pattern_cache_once = PTHREAD_ONCE_INIT;

static void pattern_cache__thread_exit(void *unused) {
  EDDI_UNUSED(unused);
  eddi_pattern_cache_clear();
}

static void pattern_cache__make_key(void) {
  pthread_key_create(&pattern_cache_key, pattern_cache__thread_exit);
}

static pcre2_match_context *pattern_cache__context(void) {
  if (!pattern_cache.context) {
    pthread_once(&pattern_cache_once, pattern_cache__make_key);
    pthread_setspecific(pattern_cache_key, &pattern_cache);
    pattern_cache.context = pcre2_match_context_create(NULL);
    if (!pattern_cache.context) abort();
    pcre2_set_match_limit(pattern_cache.context, EDDI_REGEX_MATCH_LIMIT);
    pcre2_set_callout(pattern_cache.context, pattern__callout, NULL);
    pattern_cache.jit_stack =
        pcre2_jit_stack_create(EDDI_JIT_STACK_START, EDDI_JIT_STACK_MAX, NULL);
    if (pattern_cache.jit_stack)
      pcre2_jit_stack_assign(pattern_cache.context, NULL, pattern_cache.jit_stack);
  }
  return pattern_cache.context;
}

void eddi_pattern_cache_clear(void) {
  bool in_use = false;
  for (size_t i = 0; i < EDDI_PATTERN_CACHE_SIZE; i++) {
    PatternCacheEntry *entry = pattern_cache.entries[i];
    if (!entry) continue;
    if (entry->refs) {
      in_use = true;
      continue;
    }
    pattern_cache__entry_free(entry);
    pattern_cache.entries[i] = NULL;
  }
  if (in_use) return; /* a live pattern still points at the context */
  if (pattern_cache.jit_stack) pcre2_jit_stack_free(pattern_cache.jit_stack);
  if (pattern_cache.context) pcre2_match_context_free(pattern_cache.context);
  pattern_cache.jit_stack = NULL;
  pattern_cache.context = NULL;
}

/* ---------------------------------------------------------------- patterns */

int eddi_pattern_compile(EddiPattern *self, const char *text, size_t len, bool regex,
                         unsigned flags, EddiError *err) {
  memset(self, 0, sizeof *self);
  self->is_regex = regex;
  uint32_t options = PCRE2_UTF | PCRE2_NO_UTF_CHECK | PCRE2_AUTO_CALLOUT;
  if (regex) {
    options |= PCRE2_MULTILINE;
    if (flags & REGEX_CASELESS) options |= PCRE2_CASELESS;
    if (flags & REGEX_DOTALL) options |= PCRE2_DOTALL;
    if (flags & REGEX_EXTENDED) options |= PCRE2_EXTENDED;
  } else {
    options |= PCRE2_LITERAL;
  }
  if (len == 0) return eddi_error_set(err, EDDI_EINVAL, "Empty search pattern");
  PatternCacheEntry *entry = pattern_cache__find(text, len, options);
  if (!entry) {
    int code;
    PCRE2_SIZE offset;
    pcre2_code *compiled = pcre2_compile((PCRE2_SPTR)text, len, options, &code, &offset, NULL);
    if (!compiled) {
      PCRE2_UCHAR message[PATTERN_MESSAGE_MAX];
      pcre2_get_error_message(code, message, sizeof message);
      return eddi_error_set(err, EDDI_EINVAL, "Bad regex at %zu: %s", (size_t)offset,
                            (char *)message);
    }
    /* Without JIT (unsupported CPU) the interpreter runs. */
    pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE);
    uint32_t lookbehind = 0;
    pcre2_pattern_info(compiled, PCRE2_INFO_MAXLOOKBEHIND, &lookbehind);
    bool line_local = lookbehind == 0 && (regex ? pattern__line_local(text, len, flags)
                                                : memchr(text, '\n', len) == NULL);
    entry = pattern_cache__add(text, len, options, compiled, line_local);
  }
  entry->refs++;
  entry->last_used = ++pattern_cache.clock;
  self->entry = entry;
  self->code = entry->code;
  self->line_local = entry->line_local;
  self->match = pcre2_match_data_create_from_pattern(self->code, NULL);
  self->context = pattern_cache__context();
  return 0;
}

void eddi_pattern_free(EddiPattern *self) {
  if (self->match) pcre2_match_data_free(self->match);
  if (self->entry && --self->entry->refs == 0 && self->entry->evicted)
    pattern_cache__entry_free(self->entry);
  memset(self, 0, sizeof *self);
}

static int pattern__match_error(int rc, EddiError *err) {
  if (rc == PCRE2_ERROR_CALLOUT && pattern_deadline.expired) {
    eddi_error_set(err, EDDI_ETOOBIG, "Search took longer than %g s (search_timeout_ms)",
                   pattern_deadline.ms / 1000.0);
    eddi_error_hint(err, "Narrow the pattern (anchor it, bound its repeats) or search less text");
    return EDDI_ETOOBIG;
  }
  PCRE2_UCHAR message[PATTERN_MESSAGE_MAX];
  pcre2_get_error_message(rc, message, sizeof message);
  return eddi_error_set(err, EDDI_ETOOBIG, "Regex failed: %s", (char *)message);
}

int eddi_pattern_find(EddiPattern *self, const char *subject, size_t len, size_t from,
                      size_t *start, size_t *end, EddiError *err) {
  if (from > len) return 0;
  int rc = pcre2_match(self->code, (PCRE2_SPTR)subject, len, from, PCRE2_NO_UTF_CHECK,
                       self->match, self->context);
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  if (rc < 0) return pattern__match_error(rc, err);
  PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(self->match);
  *start = ovector[0];
  *end = ovector[1] < ovector[0] ? ovector[0] : ovector[1]; /* \K can invert them */
  return 1;
}

size_t eddi_pattern_step(const char *subject, size_t len, size_t at) {
  if (at >= len) return len + 1;
  return at + eddi_utf8_char_len((unsigned char)subject[at]);
}

static void pattern__append_group(const EddiPattern *self, const char *subject, unsigned group,
                                  StrBuf *out) {
  uint32_t count = pcre2_get_ovector_count(self->match);
  if (group >= count) return;
  PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(self->match);
  PCRE2_SIZE a = ovector[2 * group], b = ovector[2 * group + 1];
  if (a == PCRE2_UNSET || b < a) return;
  eddi_strbuf_append(out, subject + a, b - a);
}

void eddi_pattern_expand(const EddiPattern *self, const char *subject, const char *replacement,
                         size_t len, StrBuf *out) {
  if (!self->is_regex) {
    eddi_strbuf_append(out, replacement, len);
    return;
  }
  for (size_t i = 0; i < len; i++) {
    char c = replacement[i];
    if (c != '$' || i + 1 >= len) {
      eddi_strbuf_putc(out, c);
      continue;
    }
    char next = replacement[i + 1];
    if (next == '$') {
      eddi_strbuf_putc(out, '$');
      i++;
    } else if (isdigit((unsigned char)next)) {
      unsigned group = (unsigned)(next - '0');
      i++;
      if (i + 1 < len && isdigit((unsigned char)replacement[i + 1]))
        group = group * 10 + (unsigned)(replacement[++i] - '0');
      pattern__append_group(self, subject, group, out);
    } else if (next == '{') {
      size_t close = i + 2;
      unsigned group = 0;
      while (close < len && isdigit((unsigned char)replacement[close]) && group < PATTERN_GROUP_MAX)
        group = group * 10 + (unsigned)(replacement[close++] - '0');
      if (close < len && replacement[close] == '}' && close > i + 2) {
        pattern__append_group(self, subject, group, out);
        i = close;
      } else {
        eddi_strbuf_putc(out, c);
      }
    } else {
      eddi_strbuf_putc(out, c);
    }
  }
}

/* ---------------------------------------------------------------- text */

void eddi_text_search_init(EddiTextSearch *self, EddiPattern *pattern, const EddiText *text) {
  memset(self, 0, sizeof *self);
  self->pattern = pattern;
  self->text = text;
  self->in_place = pattern->line_local;
}

void eddi_text_search_free(EddiTextSearch *self) {
  eddi_strbuf_free(&self->scratch);
  eddi_free(self->flat);
  self->flat = NULL;
}

static int text_search__flat_find(EddiTextSearch *self, size_t from, size_t *start, size_t *end,
                                  EddiError *err) {
  size_t len = eddi_text_len(self->text);
  if (!self->flat) self->flat = eddi_text_dup(self->text, 0, len);
  self->in_place = false;
  self->subject = self->flat;
  return eddi_pattern_find(self->pattern, self->flat, len, from, start, end, err);
}

int eddi_text_search_find(EddiTextSearch *self, size_t from, size_t *start, size_t *end,
                          EddiError *err) {
  const EddiText *text = self->text;
  if (from > eddi_text_len(text)) return 0;
  if (!self->in_place) return text_search__flat_find(self, from, start, end, err);
  if (!self->has_segment || from < self->segment.offset) {
    size_t line_start = eddi_text_line_start(text, eddi_text_line_at(text, from));
    eddi_text_walk_begin(text, line_start, &self->walk);
    self->has_segment = eddi_text_next_segment(text, &self->walk, &self->scratch, &self->segment);
  }
  EddiPattern *pattern = self->pattern;
  while (self->has_segment) {
    TextSegment *seg = &self->segment;
    if (from >= seg->offset + seg->len && seg->offset + seg->len < eddi_text_len(text)) {
      self->has_segment = eddi_text_next_segment(text, &self->walk, &self->scratch, seg);
      continue;
    }
    bool last = seg->offset + seg->len == eddi_text_len(text);
    size_t at = from > seg->offset ? from - seg->offset : 0;
    /* NOTEOL: the end of a segment that is not the end of the text is the
     * start of the next line, where $ must not match. */
    int rc = pcre2_match(pattern->code, (PCRE2_SPTR)seg->bytes, seg->len, at,
                         PCRE2_NO_UTF_CHECK | (last ? 0 : PCRE2_NOTEOL), pattern->match,
                         pattern->context);
    PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(pattern->match);
    if (rc > 0 && (last || ovector[0] < seg->len)) {
      self->subject = seg->bytes; /* the ovector is relative to it */
      *start = seg->offset + ovector[0];
      *end = seg->offset + (ovector[1] < ovector[0] ? ovector[0] : ovector[1]);
      return 1;
    }
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) return pattern__match_error(rc, err);
    if (last) return 0;
    self->has_segment = eddi_text_next_segment(text, &self->walk, &self->scratch, seg);
  }
  return 0;
}

void eddi_text_search_expand(const EddiTextSearch *self, const char *replacement, size_t len,
                             StrBuf *out) {
  eddi_pattern_expand(self->pattern, self->subject, replacement, len, out);
}
