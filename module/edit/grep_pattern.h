/* grep_pattern.h - how Grep (edit/grep.c) searches with a pattern.
 *
 * Grep matches each line on its own, but searching the whole buffer once
 * is several times faster than a match per line. Which of the two gives
 * the same hits depends on the pattern, decided here from its source:
 * - GREP_WHOLE: a match cannot cross a line (search.h's line_local, or a
 *   quoted "text" without a newline): whole-buffer matches are the hits;
 * - GREP_CONFIRM: a match may cross a line (\s, [^x], \n...), but the
 *   pattern looks at nothing besides what it consumes: a match of a line
 *   alone is a match in the whole buffer at the same place, so whole-buffer
 *   matches give the candidate lines, each confirmed by matching it alone;
 * - GREP_LINES: anything else (look-around, \A \z \G \K, atomic groups,
 *   possessive quantifiers, verbs, callouts: they can see past a line's
 *   end) is matched line by line.
 * And the literal text every match starts with, when the pattern begins
 * with one: memchr for its rarest byte finds the candidates far faster
 * than the JIT's own start-of-match search. */
#ifndef EDDI_GREP_PATTERN_H
#define EDDI_GREP_PATTERN_H

#include "core/common.h"

typedef enum {
  GREP_WHOLE,   /* line-local: the whole buffer gives the hits */
  GREP_CONFIRM, /* the whole buffer gives candidate lines, each matched alone */
  GREP_LINES,   /* each line matched alone */
} EddiGrepMode;

/* The mode for regex source src (len bytes); line_local as search.h
 * decided it, lookbehind as PCRE2_INFO_MAXLOOKBEHIND says. */
EddiGrepMode eddi_grep_mode_of(const char *src, size_t len, bool line_local, uint32_t lookbehind);

/* The literal every match starts with into out (empty when none: the
 * pattern starts otherwise, or flags (the lexer's REGEX_*) make case or
 * spaces loose), and *rare the index of its rarest byte. */
void eddi_grep_prefix(const char *src, size_t len, unsigned flags, StrBuf *out, size_t *rare);

/* Where prefix (not empty) first occurs in text[from, len), or NULL. */
const char *eddi_grep_find_prefix(const char *text, size_t len, size_t from,
                                  const StrBuf *prefix, size_t rare);

#endif
