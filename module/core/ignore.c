/* ignore.c - ignore-file rules and their wildcard matcher; see ignore.h.
 *
 * fnmatch(3) cannot be used: it has no "**", and FNM_PATHNAME still lets a
 * '*' match nothing across parts the way git needs. The matcher here works
 * in two levels, both the classic two-pointer wildcard match with one
 * backtracking point: over the parts of the path, where a "**" part is the
 * star, and over the characters of one part, where '*' is. Each level is
 * O(pattern * subject) at worst, never exponential, so a hostile ignore
 * file cannot stall a walk. */
#include "core/ignore.h"

#include "core/utf8.h"

/* ---------------------------------------------------------------- characters */

/* The code point at s (at most end - s bytes); a byte that starts no valid
 * sequence stands for itself. Returns its length in bytes (>= 1). */
static size_t glob__char(const char *s, const char *end, uint32_t *cp) {
  unsigned char lead = (unsigned char)*s;
  size_t n = eddi_utf8_char_len(lead);
  if (n == 1 || (size_t)(end - s) < n || eddi_utf8_valid_prefix(s, n) != n) {
    *cp = lead;
    return 1;
  }
  uint32_t value = lead & (0x7F >> n);
  for (size_t i = 1; i < n; i++) value = (value << 6) | ((unsigned char)s[i] & 0x3F);
  *cp = value;
  return n;
}

/* Length of the set "[...]" at p (p[0] == '['), or 0 when it is not
 * closed before end or a '/' (a set never matches a '/', and the parts are
 * split at every one). A ']' right after "[", "[!" or "[^" is a member. */
static size_t glob__set_len(const char *p, const char *end) {
  const char *q = p + 1;
  if (q < end && (*q == '!' || *q == '^')) q++;
  if (q < end && *q == ']') q++;
  for (; q < end && *q != '/'; q++) {
    if (*q == '\\') {
      if (++q >= end || *q == '/') return 0;
    } else if (*q == ']') {
      return (size_t)(q - p) + 1;
    }
  }
  return 0;
}

/* Whether c is in the set at p (of set_len bytes, from glob__set_len). */
static bool glob__set_has(const char *p, size_t set_len, uint32_t c) {
  const char *q = p + 1, *close = p + set_len - 1;
  bool negated = *q == '!' || *q == '^';
  if (negated) q++;
  bool found = false;
  while (q < close) {
    uint32_t low, high;
    if (*q == '\\') q++;
    q += glob__char(q, close, &low);
    high = low;
    if (q + 1 < close && *q == '-' && q[1] != ']') {
      q++;
      if (*q == '\\') q++;
      q += glob__char(q, close, &high);
    }
    if (low <= c && c <= high) found = true;
  }
  return found != negated;
}

/* ---------------------------------------------------------------- one part */

/* Whether the pattern part [p, pe) matches the path part [s, se); neither
 * holds a '/'. A run of '*' is one star. */
static bool glob__match_part(const char *p, const char *pe, const char *s, const char *se) {
  const char *star = NULL, *star_s = NULL;
  while (s < se || p < pe) {
    if (p < pe && *p == '*') {
      while (p < pe && *p == '*') p++;
      star = p, star_s = s;
      continue;
    }
    if (p < pe && s < se) {
      uint32_t c;
      size_t c_len = glob__char(s, se, &c);
      if (*p == '?') {
        p++, s += c_len;
        continue;
      }
      size_t set_len = *p == '[' ? glob__set_len(p, pe) : 0;
      if (set_len) {
        if (glob__set_has(p, set_len, c)) {
          p += set_len, s += c_len;
          continue;
        }
      } else { /* a literal character, maybe escaped; an unclosed '[' is one */
        const char *literal = *p == '\\' && p + 1 < pe ? p + 1 : p;
        uint32_t want;
        size_t want_len = glob__char(literal, pe, &want);
        if (want == c && want_len == c_len) {
          p = literal + want_len, s += c_len;
          continue;
        }
      }
    }
    /* Mismatch: let the last star take one more character, if there is one. */
    if (!star || star_s >= se) return false;
    uint32_t skipped;
    star_s += glob__char(star_s, se, &skipped);
    p = star, s = star_s;
  }
  return true;
}

/* ---------------------------------------------------------------- parts */

/* End of the part starting at p: the next '/' or end. */
static const char *glob__part_end(const char *p, const char *end) {
  const char *slash = memchr(p, '/', (size_t)(end - p));
  return slash ? slash : end;
}

/* The start of the part after the one ending at part_end. */
static const char *glob__next_part(const char *part_end, const char *end) {
  return part_end < end ? part_end + 1 : end;
}

static bool glob__is_globstar(const char *p, const char *pe) {
  return pe - p == 2 && p[0] == '*' && p[1] == '*';
}

bool eddi_ignore_glob_match(const char *glob, size_t glob_len, const char *path,
                            size_t path_len) {
  const char *p = glob, *p_end = glob + glob_len;
  const char *s = path, *s_end = path + path_len;
  /* After a "**" part: where the pattern resumes, and the path part the
   * "**" has consumed up to (it grows by one part per backtrack). */
  const char *star = NULL, *star_s = NULL;
  for (;;) {
    if (p == p_end && s == s_end) return true;
    if (p < p_end) {
      const char *pe = glob__part_end(p, p_end);
      if (glob__is_globstar(p, pe)) {
        /* "**" last: everything inside, so at least one part is left. */
        if (pe == p_end) return s < s_end;
        star = glob__next_part(pe, p_end), star_s = s;
        p = star;
        continue;
      }
      if (s < s_end) {
        const char *se = glob__part_end(s, s_end);
        if (glob__match_part(p, pe, s, se)) {
          p = glob__next_part(pe, p_end), s = glob__next_part(se, s_end);
          continue;
        }
      }
    }
    /* Mismatch: let the last "**" take one more part of the path. */
    if (!star || star_s >= s_end) return false;
    star_s = glob__next_part(glob__part_end(star_s, s_end), s_end);
    p = star, s = star_s;
  }
}

/* ---------------------------------------------------------------- rules */

/* Whether [p, end) is a pattern the matcher accepts: every '[' closed and
 * no '\' at the end. */
static bool ignore__valid(const char *p, const char *end) {
  while (p < end) {
    if (*p == '\\') {
      if (p + 1 >= end) return false;
      p += 2;
    } else if (*p == '[') {
      size_t set_len = glob__set_len(p, end);
      if (!set_len) return false;
      p += set_len;
    } else {
      p++;
    }
  }
  return true;
}

static bool ignore__is_literal(const char *p, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (p[i] == '*' || p[i] == '?' || p[i] == '[' || p[i] == '\\') return false;
  return true;
}

/* Parse one line (without its '\n') into a rule; false when it holds none. */
static bool ignore__parse_line(const char *line, size_t len, EddiIgnoreRule *rule) {
  if (len && line[len - 1] == '\r') len--;
  if (!len || line[0] == '#') return false;
  *rule = (EddiIgnoreRule){0};
  if (line[0] == '!') rule->negated = true, line++, len--;
  /* Trailing spaces go, unless the last one is escaped: an odd number of
   * backslashes before it. */
  while (len && line[len - 1] == ' ') {
    size_t slashes = 0;
    while (slashes + 1 < len && line[len - 2 - slashes] == '\\') slashes++;
    if (slashes % 2) break;
    len--;
  }
  if (len && line[len - 1] == '/') rule->dir_only = true, len--;
  if (memchr(line, '/', len)) rule->anchored = true;
  if (len && line[0] == '/') line++, len--;
  if (!len || !ignore__valid(line, line + len)) return false;
  rule->glob = eddi_strndup(line, len);
  rule->len = len;
  rule->literal = ignore__is_literal(line, len);
  return true;
}

void eddi_ignore_add(EddiIgnore *self, const char *text, size_t len) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *newline = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = newline ? newline : end;
    EddiIgnoreRule rule;
    if (ignore__parse_line(p, (size_t)(line_end - p), &rule)) array_push(&self->rules, rule);
    p = newline ? newline + 1 : end;
  }
}

static bool ignore__rule_matches(const EddiIgnoreRule *rule, const char *path, size_t len) {
  if (!rule->anchored) {
    const char *base = path + len;
    while (base > path && base[-1] != '/') base--;
    len -= (size_t)(base - path);
    path = base;
  }
  if (rule->literal) return rule->len == len && memcmp(rule->glob, path, len) == 0;
  return eddi_ignore_glob_match(rule->glob, rule->len, path, len);
}

EddiIgnoreMatch eddi_ignore_match(const EddiIgnore *self, const char *path, size_t len,
                                  bool is_dir) {
  /* The last rule that matches decides, so look from the end. */
  for (size_t i = self->rules.len; i-- > 0;) {
    const EddiIgnoreRule *rule = &self->rules.items[i];
    if (rule->dir_only && !is_dir) continue;
    if (ignore__rule_matches(rule, path, len))
      return rule->negated ? EDDI_IGNORE_INCLUDE : EDDI_IGNORE_EXCLUDE;
  }
  return EDDI_IGNORE_NONE;
}

void eddi_ignore_free(EddiIgnore *self) {
  for (size_t i = 0; i < self->rules.len; i++) eddi_free(self->rules.items[i].glob);
  array_free(&self->rules);
}
