/* diff.h - line diffs: the counts Summary and Diff report, and unified diffs.
 *
 * Myers' O(ND) algorithm after trimming the common prefix and suffix. The
 * cost D is bounded (EDDI_DIFF_MAX_COST): past it the changed middle is
 * reported as deleted and re-added whole, which keeps time and memory bounded
 * on unrelated texts while the counts stay an honest upper bound. */
#ifndef EDDI_DIFF_H
#define EDDI_DIFF_H

#include "core/common.h"

#define EDDI_DIFF_MAX_COST 2000
#define EDDI_DIFF_CONTEXT 3

typedef struct {
  size_t added;
  size_t deleted;
} EddiDiffStats;

/* Diff old text a against new text b. stats receives the line counts;
 * unified, when not NULL, receives a unified diff with headers
 * "--- a/<name>" and "+++ b/<name>" (nothing when the texts are equal). */
void eddi_diff(const char *a, size_t a_len, const char *b, size_t b_len, const char *name,
               EddiDiffStats *stats, StrBuf *unified);

/* One changed region: lines [a_start, a_start + a_count) of a became lines
 * [b_start, b_start + b_count) of b (0-based; a count may be 0). */
typedef struct {
  size_t a_start, a_count;
  size_t b_start, b_count;
} EddiDiffHunk;

typedef Array(EddiDiffHunk) EddiDiffHunks;

/* The hunks that turn a into b, in order, into out (cleared first; free it
 * with array_free). Same script and cost bound as eddi_diff. */
void eddi_diff_hunks(const char *a, size_t a_len, const char *b, size_t b_len,
                     EddiDiffHunks *out);

#endif
