/* path.h - keeping every path inside the workspace root.
 *
 * A user path is resolved lexically first (".", "..", repeated slashes), so
 * that "src/../../etc" is refused before the disk is asked anything; then the
 * deepest part of it that exists is resolved with realpath, so that a symlink
 * leading out of the root is refused too. */
#ifndef EDDI_PATH_H
#define EDDI_PATH_H

#include "core/common.h"

/* Resolve input (relative to root, or absolute inside it). root must be a
 * canonical absolute path. On success *rel receives the '/'-separated path
 * relative to root ("" for the root itself) and *abs the absolute path; both
 * are new strings the caller frees with eddi_free. */
int eddi_path_resolve(const char *root, const char *input, char **rel, char **abs,
                      EddiError *err);

/* Join dir and name with one '/' (either may be empty). New string. */
char *eddi_path_join(const char *dir, const char *name);

/* The part after the last '/'. Borrows from path. */
const char *eddi_path_basename(const char *path);

#endif
