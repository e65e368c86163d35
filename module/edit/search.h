/* search.h - text and regex patterns over a flat subject, with PCRE2's JIT.
 *
 * Literal text is compiled with PCRE2_LITERAL so that Find "x" and Find /x/
 * share one matcher. Regexes are UTF-8 and multi-line by default (^ and $
 * match at every line, as in an editor); the flags are i (caseless), s (dot
 * matches newline), x (extended); m is accepted and changes nothing. */
#ifndef EDDI_SEARCH_H
#define EDDI_SEARCH_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "core/common.h"
#include "core/text.h"

/* Backtracking limit per match, so a pathological regex fails instead of
 * hanging the engine. */
#define EDDI_REGEX_MATCH_LIMIT 10000000u

/* Compiled patterns are cached (per thread, EDDI_PATTERN_CACHE_SIZE of
 * them, least recently used out): compiling and JIT-compiling a regex costs
 * more than searching a small file with it, and models repeat searches. */
#define EDDI_PATTERN_CACHE_SIZE 16

typedef struct PatternCacheEntry PatternCacheEntry;

typedef struct {
  pcre2_code *code;              /* borrowed from the cache entry */
  PatternCacheEntry *entry;      /* holds a reference while the pattern lives */
  pcre2_match_data *match;       /* this pattern's own */
  pcre2_match_context *context;  /* the thread's: match limit and JIT stack */
  bool is_regex;
  /* Every match lies inside one line and looks at nothing outside it, so
   * the text can be searched in line-aligned segments, in place. Decided
   * conservatively from the pattern's source (see pattern__line_local). */
  bool line_local;
} EddiPattern;

int eddi_pattern_compile(EddiPattern *self, const char *text, size_t len, bool regex,
                         unsigned flags, EddiError *err);
void eddi_pattern_free(EddiPattern *self);
/* Drop the calling thread's cached patterns that no pattern uses, and its
 * match context (the engine calls it when it is freed). */
void eddi_pattern_cache_clear(void);

/* First match starting at or after byte from. Returns 1 and the match's
 * bounds, 0 when there is none, or EDDI_ETOOBIG when the regex gave up. */
int eddi_pattern_find(EddiPattern *self, const char *subject, size_t len, size_t from,
                      size_t *start, size_t *end, EddiError *err);

/* A time limit for the calling thread's searches: from now on, a match
 * running past ms milliseconds gives up with EDDI_ETOOBIG, "Search took
 * longer than N s (search_timeout_ms)". Every pattern is compiled with
 * PCRE2's automatic callouts, at which the clock is looked at now and then:
 * the match limit bounds backtracking, not a long subject tried at every
 * start (/q{1000}x/ over a 5 MB line). 0 clears it. */
void eddi_pattern_deadline(unsigned ms);

/* Append the replacement for the last match: for regexes $0..$99, ${n} and
 * $$ are expanded; literal patterns copy it as it is. */
void eddi_pattern_expand(const EddiPattern *self, const char *subject, const char *replacement,
                         size_t len, StrBuf *out);

/* Where the search after an empty match at `at` must start: one character on. */
size_t eddi_pattern_step(const char *subject, size_t len, size_t at);

/* ---------------------------------------------------------------- text */

/* Searching a text store: line-local patterns segment by segment in place
 * (see TextSegment), others over one flat copy of the text. */
typedef struct {
  EddiPattern *pattern;
  const EddiText *text;
  bool in_place;
  TextWalk walk;
  TextSegment segment; /* the one searched last */
  bool has_segment;
  StrBuf scratch;
  char *flat;
  const char *subject; /* of the last match, for expansion */
} EddiTextSearch;

void eddi_text_search_init(EddiTextSearch *self, EddiPattern *pattern, const EddiText *text);
void eddi_text_search_free(EddiTextSearch *self);
/* First match starting at or after text offset from: 1 (with its bounds), 0
 * for none, or EDDI_ETOOBIG when the regex gave up. Searches that move
 * forward reuse the walk, so finding all matches costs one pass. */
int eddi_text_search_find(EddiTextSearch *self, size_t from, size_t *start, size_t *end,
                          EddiError *err);
/* Append the replacement for the last match found. */
void eddi_text_search_expand(const EddiTextSearch *self, const char *replacement, size_t len,
                             StrBuf *out);

#endif
