/* edit_state.h - what the edit formats keep per session, and their shared
 * reply helpers (private to module/edit/ and its commands).
 *
 * Snapshots: every Read, Grep hit and edit records the text it showed under
 * its tag, so that an Edit made against an older tag can be rebased onto the
 * file as it is now (see hashline.c). The store is bounded in count and
 * bytes; the least recently used snapshot goes first.
 *
 * Registers: hashline CUT captures lines into the anonymous register or a
 * named one; they live as long as the session.
 */
#ifndef EDDI_EDIT_STATE_H
#define EDDI_EDIT_STATE_H

#include "edit/edit_formats.h"
#include "edit/matcher.h"
#include "edit/transaction.h"

#define EDDI_SNAPSHOTS_MAX 64
#define EDDI_SNAPSHOT_BYTES_MAX (64u << 20)
#define EDDI_REGISTERS_MAX 64

typedef struct {
  char *path;
  char tag[5];
  char *text;
  size_t len;
  uint8_t *seen; /* one byte per line (1: shown); NULL: every line */
  size_t seen_len;
  uint64_t stamp;
} EddiSnapshot;

typedef struct {
  char *name; /* "" for the anonymous register */
  char *text; /* whole lines, each ending in '\n' */
  size_t len;
} EddiRegister;

typedef Array(EddiRegister) EddiRegisterList;

struct EddiEditState {
  Array(EddiSnapshot) snapshots;
  size_t bytes;
  uint64_t clock;
  EddiRegisterList registers;
  /* An Edit may only anchor on lines a Read or Grep showed. */
  bool enforce_seen_lines;
};
typedef struct EddiEditState EddiEditState;

/* The session's state, made on first use; NULL when session is. */
EddiEditState *eddi_edit_state_of(EddiSession *session);
/* The session's state, or NULL when it has none yet. */
EddiEditState *eddi_edit_state_find(const EddiSession *session);

/* Record that text of path was shown under tag; lines [first, last]
 * (1-based) were displayed, or all of them when first is 0. */
void eddi_snapshot_record(EddiEditState *self, const char *path, const char *text, size_t len,
                          const char tag[5], size_t first, size_t last);
/* The snapshot of path with tag (path NULL: any path), or NULL. */
const EddiSnapshot *eddi_snapshot_find(EddiEditState *self, const char *path, const char *tag);
/* Whether some snapshot has path. */
bool eddi_snapshot_known_path(EddiEditState *self, const char *path);

/* Register name ("" anonymous); NULL when empty. */
const EddiRegister *eddi_register_get(const EddiRegisterList *list, const char *name);
void eddi_register_set(EddiRegisterList *list, const char *name, const char *text,
                       size_t len);
void eddi_registers_free(EddiRegisterList *list);

/* ---------------------------------------------------------------- replies */

/* Report a written file: "[path#TAG]" and the preview of changed (new
 * text's ranges); records the new text as a snapshot. */
void eddi_edit_report_written(EddiEditReport *self, EddiSession *session, const char *path,
                              const char *text, size_t len, const EddiChangedList *changed);
void eddi_edit_report_warn(EddiEditReport *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The changed lines of new text against old as one range (common leading
 * and trailing lines trimmed), for a preview. */
void eddi_edit_changed_between(const char *old_text, size_t old_len, const char *new_text,
                               size_t new_len, EddiChangedList *changed);

/* Room for what a message calls one block of an edit ("hunk 2, chunk 3 at
 * patch line 40", "SEARCH/REPLACE block 4", "<change> 2", "edit 1"). */
#define EDDI_EDIT_WHAT_MAX 128

/* Fill err for a block that was not found in path (the quoted lines), with
 * the nearest lines of the file as the hint; what names the block. */
int eddi_edit_fail_not_found(EddiError *err, const char *what, const char *path,
                             const EddiLineList *file, const EddiLineList *quoted);
/* Fill err for an ambiguous match. */
int eddi_edit_fail_ambiguous(EddiError *err, const char *what, const char *path,
                             const EddiMatch *match);

/* Where a hunk is looked for: file's lines from from on (at_end: it must
 * end at the file's end), and how a failure names it (what, in path). */
typedef struct {
  const EddiLineList *file;
  size_t from;
  bool at_end;
  const char *what;
  const char *path;
} EddiHunkSearch;

/* Apply hunk at its unique match in [search->from, file->len): adds the
 * splice and returns the match; fails (not found, ambiguous) with err
 * filled. */
int eddi_edit_apply_hunk(const EddiHunkSearch *search, const EddiHunk *hunk,
                         EddiSpliceList *splices, EddiMatch *match, EddiError *err);

#endif
