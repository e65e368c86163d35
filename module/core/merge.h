/* merge.h - three-way merge of line texts.
 *
 * When a file changed on disk behind eddi's back and eddi has edits of its
 * own to write, the two sets of changes are merged against the text both
 * started from, as diff3 does: changes to different lines both apply; a
 * region both sides changed (unless identically), an insertion both made
 * at the same place, or an insertion inside the other side's change is a
 * conflict, and then nothing is merged: eddi refuses and names the lines.
 * Adjacent changes (one side's hunk ends where the other's starts) are not
 * conflicts: an appender and an edit of the last line both survive.
 */
#ifndef EDDI_MERGE_H
#define EDDI_MERGE_H

#include "core/common.h"

typedef struct {
  size_t ours;      /* hunks taken from ours */
  size_t theirs;    /* hunks taken from theirs */
  size_t conflict_first, conflict_last; /* base lines, 1-based, of the first conflict */
} EddiMergeReport;

/* Merge ours and theirs, both derived from base, into out. Returns 0, or
 * EDDI_ESTALE for a conflict (report names its lines, out is left empty). */
int eddi_merge3(const char *base, size_t base_len, const char *ours, size_t ours_len,
                const char *theirs, size_t theirs_len, StrBuf *out, EddiMergeReport *report);

#endif
