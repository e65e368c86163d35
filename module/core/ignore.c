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

/* ---------------------------------------------------------------- sets */

/* Length of the set "[...]" at p (p[0] == '['), or 0 when it is not
 * closed before end. As in ripgrep, a ']' right after "[", "[!" or "[^" is
 * a member, a '\' inside a set is a plain member (it escapes nothing), and
 * so is a '/', which never matches: the path is matched a part at a time. */
static size_t glob__set_len(const char *p, const char *end) {
  const char *q = p + 1;
  if (q < end && (*q == '!' || *q == '^')) q++;
  if (q < end && *q == ']') q++;
  const char *close = memchr(q, ']', (size_t)(end - q));
  return close ? (size_t)(close - p) + 1 : 0;
}

/* Whether byte c is in the set at p (of set_len bytes, from glob__set_len). */
static bool glob__set_has(const char *p, size_t set_len, unsigned char c) {
  const char *q = p + 1, *close = p + set_len - 1;
  bool negated = *q == '!' || *q == '^';
  if (negated) q++;
  bool found = false;
  while (q < close) {
    unsigned char low = (unsigned char)*q++, high = low;
    if (q + 1 < close && *q == '-') {
      high = (unsigned char)q[1];
      q += 2;
    }
    if (low <= c && c <= high) found = true;
  }
  return found != negated;
}

/* ---------------------------------------------------------------- one part */

/* Whether the pattern part [p, pe) matches the path part [s, se), which
 * holds no '/'. A run of '*' is one star. */
static bool glob__match_part(const char *p, const char *pe, const char *s, const char *se) {
  const char *star = NULL, *star_s = NULL;
  while (s < se || p < pe) {
    if (p < pe && *p == '*') {
      while (p < pe && *p == '*') p++;
      star = p, star_s = s;
      continue;
    }
    if (p < pe && s < se) {
      unsigned char c = (unsigned char)*s;
      size_t set_len = *p == '[' ? glob__set_len(p, pe) : 0;
      if (*p == '?') {
        p++, s++;
        continue;
      }
      if (set_len) {
        if (glob__set_has(p, set_len, c)) {
          p += set_len, s++;
          continue;
        }
      } else { /* a literal byte, maybe escaped; an unclosed '[' is one */
        const char *literal = *p == '\\' && p + 1 < pe ? p + 1 : p;
        if ((unsigned char)*literal == c) {
          p = literal + 1, s++;
          continue;
        }
      }
    }
    /* Mismatch: let the last star take one more byte, if there is one. */
    if (!star || star_s >= se) return false;
    p = star, s = ++star_s;
  }
  return true;
}

/* ---------------------------------------------------------------- parts */

/* End of the pattern part starting at p: the next '/' outside a set and
 * not escaped, or end. */
static const char *glob__part_end(const char *p, const char *end) {
  while (p < end && *p != '/') {
    size_t set_len = *p == '[' ? glob__set_len(p, end) : 0;
    if (set_len) p += set_len;
    else p += *p == '\\' && p + 1 < end ? 2 : 1;
  }
  return p;
}

/* End of the path part starting at s: the next '/' or end. */
static const char *glob__path_part_end(const char *s, const char *end) {
  const char *slash = memchr(s, '/', (size_t)(end - s));
  return slash ? slash : end;
}

/* The start of the part after the one ending at part_end. */
static const char *glob__next_part(const char *part_end, const char *end) {
  return part_end < end ? part_end + 1 : end;
}

static bool glob__is_globstar(const char *p, const char *pe) {
  return pe - p == 2 && p[0] == '*' && p[1] == '*';
}

/* Whether [p, end) has an empty part ("a//b", "a/", "/a", ""): one that no
 * part of a path, which is never empty, can match. */
static bool glob__has_empty_part(const char *p, const char *end) {
  for (;;) {
    const char *pe = glob__part_end(p, end);
    if (pe == p) return true;
    if (pe == end) return false;
    p = pe + 1;
  }
}

/* eddi_ignore_glob_match for a glob without an empty part. */
static bool glob__match(const char *glob, size_t glob_len, const char *path, size_t path_len) {
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
        const char *se = glob__path_part_end(s, s_end);
        if (glob__match_part(p, pe, s, se)) {
          p = glob__next_part(pe, p_end), s = glob__next_part(se, s_end);
          continue;
        }
      }
    }
    /* Mismatch: let the last "**" take one more part of the path. */
    if (!star || star_s >= s_end) return false;
    star_s = glob__next_part(glob__path_part_end(star_s, s_end), s_end);
    p = star, s = star_s;
  }
}

bool eddi_ignore_glob_match(const char *glob, size_t glob_len, const char *path,
                            size_t path_len) {
  return !glob__has_empty_part(glob, glob + glob_len) &&
         glob__match(glob, glob_len, path, path_len);
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
  if (!len || !ignore__valid(line, line + len) || glob__has_empty_part(line, line + len))
    return false;
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
  return glob__match(rule->glob, rule->len, path, len); /* parsing dropped empty parts */
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
