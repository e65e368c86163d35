/* suggest.h - "did you mean": the closest known word to a misspelt one. */
#ifndef EDDI_SUGGEST_H
#define EDDI_SUGGEST_H

#include "core/common.h"

/* Case-insensitive edit distance (insert, delete, substitute, transpose). */
size_t eddi_edit_distance(const char *a, const char *b);

/* The candidate closest to word when it is close enough to be a typo (at
 * most a third of the word's length, at least 1, edits away), else NULL. A
 * candidate that starts with word (an abbreviation) also counts. */
const char *eddi_suggest(const char *word, const char *const *candidates, size_t count);

#endif
