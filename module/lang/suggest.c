/* suggest.c - edit distance and nearest candidate; see suggest.h. */
#include "lang/suggest.h"

#include <ctype.h>
#include <strings.h>

/* Words longer than this are not typos of a keyword. */
#define SUGGEST_MAX_WORD 64

size_t eddi_edit_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > SUGGEST_MAX_WORD || m > SUGGEST_MAX_WORD) return SIZE_MAX;
  size_t rows[3][SUGGEST_MAX_WORD + 1];
  size_t *before = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++) prev[j] = j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= m; j++) {
      char x = (char)tolower((unsigned char)a[i - 1]), y = (char)tolower((unsigned char)b[j - 1]);
      size_t cost = x != y;
      size_t best = EDDI_MIN(prev[j] + 1, cur[j - 1] + 1);
      best = EDDI_MIN(best, prev[j - 1] + cost);
      if (i > 1 && j > 1 && x == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == y)
        best = EDDI_MIN(best, before[j - 2] + 1);
      cur[j] = best;
    }
    size_t *spare = before;
    before = prev, prev = cur, cur = spare;
  }
  return prev[m];
}

const char *eddi_suggest(const char *word, const char *const *candidates, size_t count) {
  size_t len = strlen(word);
  if (len == 0) return NULL;
  size_t limit = EDDI_MAX((size_t)1, len / 3);
  const char *best = NULL;
  size_t best_distance = SIZE_MAX;
  for (size_t i = 0; i < count; i++) {
    if (len >= 3 && strncasecmp(candidates[i], word, len) == 0) return candidates[i];
    size_t d = eddi_edit_distance(word, candidates[i]);
    if (d <= limit && d < best_distance) best = candidates[i], best_distance = d;
  }
  return best;
}
