/* walk.h - the one walk over the workspace's files.
 *
 * List, Grep (EddiSpeak and the hashline tool) and the coming cross-file
 * index all see the workspace through this walk, so that they agree on
 * which files exist. It leaves out what ripgrep leaves out by default:
 * - entries that .gitignore, .ignore or .git/info/exclude rules ignore
 *   (ignore.h has the syntax). Each folder's files apply to its subtree,
 *   deeper files win over shallower ones, and .ignore rules win over git's:
 *   a "!" in a .ignore re-includes what a .gitignore left out. Below a
 *   folder holding a .git (a nested repository) the .gitignore files of the
 *   folders above it stop applying. Unlike ripgrep, rules are read only
 *   inside the workspace (never above the root, nor a global excludes file,
 *   nor an ignore file that is a symlink) and .gitignore applies with or
 *   without a .git (as rg --no-require-git);
 * - hidden entries (a name starting with '.') unless the caller asks for
 *   them or an ignore rule re-includes them by name ("!.env");
 * - the .git folder, always.
 * It never leaves the root: a symlink is reported only when its target is
 * inside the root (path.h decides), and never entered, even when it names a
 * folder inside the root; that, with a check against the folders already
 * on the current path (bind mounts), means the walk cannot loop.
 *
 * It is bounded: at most EddiWalkOptions.max_entries directory entries are
 * read (every name a folder holds counts, ignored or not), and folders
 * deeper than EDDI_WALK_DEPTH_MAX are not entered. When the entry limit
 * stops it, eddi_walk_truncated says so and the caller must tell the user;
 * the entries read before the stop are still reported.
 *
 * The order is deterministic: entries come in byte order of their path
 * from the root, a folder's path taken with a trailing '/' (so a folder's
 * contents follow it, and "a.txt" < "a/" < "a0"). Sorting the reported
 * paths (with '/' after folders) with strcmp gives the same order. */
#ifndef EDDI_WALK_H
#define EDDI_WALK_H

#include <sys/stat.h>

#include "core/common.h"

/* Folders below the root deeper than this are not entered: deeper trees
 * are generated, not written, and every level holds one open folder. */
#define EDDI_WALK_DEPTH_MAX 64

/* An ignore file larger than this is not read (its rules do not apply):
 * a hand-written one is a few KiB. */
#define EDDI_WALK_IGNORE_FILE_MAX ((size_t)1 << 20)

/* EddiWalkOptions.max_entries for a walk that reads every entry (Grep,
 * which holds only a bounded part of what it finds). */
#define EDDI_WALK_ENTRIES_ALL SIZE_MAX

typedef struct {
  /* Directory entries the walk may read before it stops (the caller passes
   * EddiConfig.max_walk_entries, or EDDI_WALK_ENTRIES_ALL). 0 reads none. */
  size_t max_entries;
  /* Deepest level reported: 1 for the root's own entries only; 0 (or more
   * than EDDI_WALK_DEPTH_MAX) for EDDI_WALK_DEPTH_MAX. */
  size_t max_depth;
  /* Report and enter hidden entries too (never .git). */
  bool hidden;
  /* Read no ignore files: every entry is reported (hidden ones still per
   * `hidden`). */
  bool no_ignore;
  /* Regular files that readdir says are regular are not lstat'ed: their
   * entry's st holds only st_mode (S_IFREG). A caller that opens each file
   * anyway (Grep) fstat's it then; the lstat would cost as much again. */
  bool types_only;
} EddiWalkOptions;

/* One entry, valid only during the call that receives it. */
typedef struct {
  const char *rel;  /* path from the root, '/'-separated, no trailing '/' */
  size_t rel_len;
  const char *abs;  /* the root, '/', rel */
  const char *name; /* the last part of rel */
  size_t depth;     /* 1 for the root's own entries */
  /* lstat of the entry; for a symlink, stat of its target (inside the root). */
  struct stat st;
  bool is_dir;  /* a folder, not a symlink: entered after this call unless skipped */
  bool is_link; /* a symlink into the root: reported, never entered */
  /* The open folder holding the entry, valid during the call: a caller may
   * openat(dir_fd, name, O_NOFOLLOW) the entry without resolving its path
   * from the root again (the walk checked the folders on the way). */
  int dir_fd;
} EddiWalkEntry;

/* What a visitor returns: EDDI_WALK_CONTINUE, EDDI_WALK_SKIP (do not enter
 * this folder), EDDI_WALK_STOP (end the walk; not an error), or a negative
 * EDDI_E* code, which ends the walk and is what eddi_walk_run returns. */
enum { EDDI_WALK_CONTINUE = 0, EDDI_WALK_SKIP = 1, EDDI_WALK_STOP = 2 };

typedef int (*EddiWalkVisit)(void *context, const EddiWalkEntry *entry);

typedef struct EddiWalk EddiWalk;

/* A walk over root, which must be a canonical absolute path (the engine's
 * root). Copies root and options. Free with eddi_walk_free. */
EddiWalk *eddi_walk_new(const char *root, const EddiWalkOptions *options);
void eddi_walk_free(EddiWalk *self);

/* Walk from the root, calling visit(context, entry) for each entry in the
 * order above. Returns 0, or the visitor's negative code. A folder that
 * cannot be read (permissions, removed meanwhile) is passed over. Each run
 * starts afresh. */
int eddi_walk_run(EddiWalk *self, EddiWalkVisit visit, void *context);

/* Whether the last run stopped at max_entries (entries were left unread). */
bool eddi_walk_truncated(const EddiWalk *self);
/* Directory entries the last run read. */
size_t eddi_walk_entries_read(const EddiWalk *self);

/* The glob of List and Grep: with a '/' it is matched against the whole
 * path from the root, else against the last part; fnmatch(3) rules without
 * FNM_PATHNAME, so a '*' also matches '/'. */
bool eddi_walk_glob_matches(const char *glob, const char *rel);

#endif
