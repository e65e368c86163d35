/* grep.h - the workspace Grep (EddiSpeak's Grep and the hashline grep tool).
 *
 * Grep is long work (session/job.h) in three steps, so that a sender's Grep
 * over a large workspace does not hold up the other senders:
 * - eddi_grep_prepare, on the owner thread: checks the pattern, copies what
 *   the work needs (the root, the limits, the texts of the session's open
 *   documents, which win over the disk) and takes the workspace's file cache;
 * - eddi_grep_run, on a worker: walks the workspace (core/walk.h, so Grep
 *   sees the files List sees, .gitignore and all) and searches the files on
 *   one thread per core while the walk goes on;
 * - eddi_grep_finish, on the owner thread again: the reply (files in walk
 *   order, a page of hits from the offset, where the next page starts) and
 *   the snapshots of what it showed (edit/edit_state.h); gives the cache
 *   back.
 *
 * The walk has no entry limit (EddiConfig.max_walk_entries is List's and the
 * scripts'): every file is searched, and the memory a run holds does not
 * grow with the number of files (grep.c says how).
 *
 * The reply is the same whatever the number of threads: each file's hits
 * are kept in its own slot and the reply is built in walk order. */
#ifndef EDDI_GREP_H
#define EDDI_GREP_H

#include "workspace/session.h"
#include "workspace/workspace.h"

typedef struct EddiGrep EddiGrep;
typedef struct EddiGrepCache EddiGrepCache;

/* What a Grep looks for: regex (len bytes; flags as the lexer's REGEX_*)
 * in the files whose paths match glob (NULL: all), a page (EddiConfig.page_size)
 * of hits from the match offset. Borrowed. */
typedef struct {
  const char *regex;
  size_t len;
  unsigned flags;
  const char *glob;
  size_t offset;
} EddiGrepQuery;

/* Prepare query over workspace. On success *out is a new EddiGrep for
 * eddi_grep_run and eddi_grep_finish, freed with eddi_grep_free; session
 * may be NULL. */
int eddi_grep_prepare(EddiWorkspace *workspace, EddiSession *session, const EddiGrepQuery *query,
                      EddiGrep **out, EddiError *err);
/* The walk and the search; touches nothing of the workspace. */
void eddi_grep_run(EddiGrep *self);
/* Append the reply's text to out and record snapshots in session (may be
 * NULL; it is the session of the prepare); gives the cache back to the
 * workspace. */
int eddi_grep_finish(EddiGrep *self, EddiWorkspace *workspace, EddiSession *session, StrBuf *out,
                     EddiError *err);
/* Frees self (and the cache if it was not given back). */
void eddi_grep_free(EddiGrep *self);

/* The workspace's cache of file texts (see grep.c), kept in a slot. */
void eddi_grep_cache_free(EddiGrepCache *self);

#endif
