/* fs.h - the workspace's files, written so that nothing is lost and nothing
 * lands outside.
 *
 * Two dangers meet every write. Paths change under eddi: a folder of the
 * workspace may be swapped for a symlink to somewhere else between the
 * check of a path and its use, so every open, create, rename and delete
 * here resolves its path from a descriptor of the workspace root with
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) and works inside the
 * parent folder's descriptor; where the kernel has no openat2, the path is
 * walked one component at a time with O_NOFOLLOW (a symlinked folder is
 * then refused even when it points inside). And files change under eddi:
 * another editor, a build, a formatter may write the file while eddi
 * writes its own version. A replace therefore checks the file against the
 * stamp of what eddi last read (device, inode, size, mtime in ns, and the
 * content hash), writes a temporary file beside it, checks again just
 * before the rename, renames within the parent's descriptor, and checks
 * the old file once more through the descriptor it kept open: a write that
 * landed between the last check and the rename is seen there, and its
 * bytes are given back to the caller, which merges and writes again or
 * puts them back and refuses.
 *
 * Once an allocation has failed in the process (eddi_alloc_failed), the
 * engine's state may be half made: every function here that would create,
 * rename or delete a file refuses (EDDI_EIO "eddi ran out of memory").
 */
#ifndef EDDI_FS_H
#define EDDI_FS_H

#include <sys/types.h>
#include <time.h>

#include "core/common.h"

/* What eddi knows of a file's state on disk. */
typedef struct {
  bool exists;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  uint64_t hash; /* XXH3 of the bytes */
} EddiFileStamp;

/* How many times a replace re-reads and re-checks before it gives up on a
 * file that keeps changing. */
#define EDDI_FS_REPLACE_TRIES 8
/* Longest path inside the workspace (components and all). */
#define EDDI_FS_PATH_MAX 4096
/* Deepest folder nesting a path may have. */
#define EDDI_FS_DEPTH_MAX 256

/* A descriptor of the workspace root (O_PATH | O_DIRECTORY), into *fd. */
int eddi_fs_root_open(const char *root, int *fd, EddiError *err);

/* Open rel (a '/'-separated path inside the workspace, no "..") beneath
 * root_fd with flags (O_CREAT allowed, mode for it), into *fd. A path that
 * leads out, through a symlink or a magic link, is EDDI_EPATH
 * "Path outside workspace". A missing file is EDDI_ENOENT. */
int eddi_fs_open(int root_fd, const char *rel, int flags, mode_t mode, int *fd,
                 EddiError *err);

/* Open the folder holding rel, beneath root_fd, making missing folders when
 * make_folders; *leaf points into rel at the last component. */
int eddi_fs_parent_open(int root_fd, const char *rel, bool make_folders, int *dir_fd,
                        const char **leaf, EddiError *err);

/* Read rel whole (at most max_bytes) into out and stamp what was read; a
 * missing file is EDDI_ENOENT with stamp->exists false. mode may be NULL. */
int eddi_fs_read(int root_fd, const char *rel, size_t max_bytes, StrBuf *out,
                 EddiFileStamp *stamp, unsigned *mode, EddiError *err);

/* The stamp of an open file (its bytes read through fd for the hash). */
int eddi_fs_stamp_fd(int fd, size_t max_bytes, EddiFileStamp *stamp, StrBuf *bytes,
                     EddiError *err);

/* What a replace found on disk when it was not what the caller expected. */
typedef struct {
  bool changed;      /* the file was not as expected: theirs holds it now */
  StrBuf theirs;     /* its bytes (empty and !theirs_exist when deleted) */
  bool theirs_exist;
  EddiFileStamp stamp; /* of theirs */
} EddiFsConflict;

void eddi_fs_conflict_free(EddiFsConflict *self);

/* When a staged step's work reaches the disk. A change of many files
 * leaves it (EDDI_FS_SYNC_LATER) to one eddi_fs_sync_all after the last
 * temporary file and one eddi_fs_settle_folder per folder after the last
 * rename: each file synced alone would take two or three fsyncs. */
typedef enum {
  EDDI_FS_SYNC_NOW,   /* fsynced (file and folder) before the call returns */
  EDDI_FS_SYNC_LATER, /* the caller syncs the whole batch */
} EddiFsSync;

/* A replace: the new bytes of rel, and what the file must still be. Zeroed
 * fields are the plain case: a new temporary file, fsynced now. */
typedef struct {
  const char *rel;               /* the workspace path; named in replies */
  const char *bytes;             /* the new content, len bytes */
  size_t len;
  unsigned mode;                 /* of the new file */
  const EddiFileStamp *expected; /* what eddi last read; exists false: rel must not exist */
  size_t max_bytes;              /* the largest file read back for the checks */
  /* A temporary file of eddi_fs_stage's beside rel that already holds
   * bytes: renamed into place instead of writing a new one. It is consumed
   * (renamed or removed) either way. NULL: none. */
  const char *staged;
  /* EDDI_FS_SYNC_LATER: the rename's folder is neither fsynced nor swept;
   * eddi_fs_settle_folder does both once per folder of the batch. */
  EddiFsSync sync;
} EddiFsReplace;

/* Replace op->rel with op->bytes if the file is still as op->expected says.
 * On success *written is the new file's stamp; if another writer appended
 * to the file while it was being replaced, the append is carried over to
 * the end of the new file, and conflict->changed is set with the bytes now
 * on disk. When the file is not as expected, or changes during the write,
 * nothing of eddi's stays on disk, the file holds the other writer's bytes
 * (put back when they had been replaced), conflict->changed is set with
 * those bytes, and EDDI_ESTALE is returned: the caller may merge and call
 * again with conflict->stamp. conflict starts zeroed ({0}), may be passed
 * again, and is freed with eddi_fs_conflict_free. */
int eddi_fs_replace(int root_fd, const EddiFsReplace *op, EddiFileStamp *written,
                    EddiFsConflict *conflict, EddiError *err);

/* Delete rel if it is still as expected (EDDI_ESTALE otherwise). */
int eddi_fs_unlink(int root_fd, const char *rel, const EddiFileStamp *expected,
                   size_t max_bytes, EddiError *err);

/* ------------------------------------------------------------ staged changes
 *
 * A change to several files (edit/transaction.c) writes every new file
 * first, records its intent in the journal, and only then renames: these
 * are its steps, and the start-up recovery's. Temporary and backup files
 * are named like a replace's (".<leaf>.eddi-<pid>-<random>", beside the
 * file), so the sweep of a dead process's leftovers takes them too. Paths
 * in and out are workspace paths. */

/* A temporary file to write beside rel: its bytes and mode, and when they
 * reach the disk (zeroed: now, file and folder). */
typedef struct {
  const char *rel; /* the file it is for (a workspace path) */
  const char *bytes;
  size_t len;
  unsigned mode;
  EddiFsSync sync;
} EddiFsStage;

/* Write op->bytes into a new temporary file beside op->rel, the folders
 * made; its workspace path into temp. */
int eddi_fs_stage(int root_fd, const EddiFsStage *op, char *temp, size_t temp_size,
                  EddiError *err);
/* A hard link to rel's file under a temporary name beside it (its path into
 * backup): the old bytes stay reachable after a rename replaces rel.
 * EDDI_ENOENT when rel is missing, EDDI_EIO when links are refused. */
int eddi_fs_backup(int root_fd, const char *rel, char *backup, size_t backup_size,
                   EddiError *err);
/* Make everything written beneath root_fd so far durable: one syncfs(2) of
 * its file system (every temporary file and link of a batch at once). */
int eddi_fs_sync_all(int root_fd, EddiError *err);
/* fsync rel's file (a temporary file of a small batch). */
int eddi_fs_sync_file(int root_fd, const char *rel, EddiError *err);
/* fsync the folder holding rel: its new entries (temporary files, links,
 * renames) are durable. */
int eddi_fs_sync_folder(int root_fd, const char *rel, EddiError *err);
/* After a batch's renames into rel's folder (EDDI_FS_SYNC_LATER): make them
 * durable (one fsync of the folder) and sweep the folder's leftovers. */
void eddi_fs_settle_folder(int root_fd, const char *rel);
/* Putting back a file of a change whose path may no longer lead to it (a
 * folder on the way renamed, or swapped for a symlink, while the change
 * ran): the replace and the delete above in dir_fd, the file's folder held
 * since the change was staged, op->rel naming the file in replies (its
 * leaf is used). The caller checks first that the folder is still inside
 * the workspace (eddi_fs_folder_inside). A symlink at op->rel to a file
 * inside the workspace (root_fd) is followed, as by every replace here:
 * the file it leads to is written, the link stays. */
int eddi_fs_replace_in(int root_fd, int dir_fd, const EddiFsReplace *op,
                       EddiFileStamp *written, EddiFsConflict *conflict, EddiError *err);
int eddi_fs_unlink_in(int dir_fd, const char *rel, const EddiFileStamp *expected,
                      size_t max_bytes, EddiError *err);
/* eddi_fs_stage and eddi_fs_backup in the folder dir_fd of rel, held by a
 * change of several files: each of its temporary files and links is in
 * the folder it holds, even when a folder on the way is renamed or
 * swapped while it runs, so that it can remove them on a failure. */
int eddi_fs_stage_in(int dir_fd, const EddiFsStage *op, char *temp, size_t temp_size,
                     EddiError *err);
int eddi_fs_backup_in(int dir_fd, const char *rel, EddiFsSync sync, char *backup,
                      size_t backup_size, EddiError *err);
/* The same link for a file a change deletes, made in the workspace's root
 * folder instead of beside it: the file's folder may be removed with it
 * (a module moved), and the backup must outlive it until the change's
 * Undo step is journaled. backup gets its workspace path. */
int eddi_fs_backup_at_root(int root_fd, int dir_fd, const char *rel, EddiFsSync sync,
                           char *backup, size_t backup_size, EddiError *err);
/* Whether rel is a symlink to a file inside the workspace: that file's
 * workspace path into target. A replace writes that file (the link
 * stays); a change of several files refuses such a path, since its intent
 * and recovery work on the paths it names. */
bool eddi_fs_link_target(int root_fd, const char *rel, char *target, size_t size);
/* Whether the folder dir_fd is beneath root_fd now: its parents, walked up
 * by "..", reach the root. */
bool eddi_fs_folder_inside(int root_fd, int dir_fd);
/* The XXH3 of rel's bytes; *exists false (and 0) when it is missing. */
int eddi_fs_hash(int root_fd, const char *rel, size_t max_bytes, bool *exists, uint64_t *hash);
/* Rename from over to (the same folder), durably. */
int eddi_fs_rename(int root_fd, const char *from, const char *to, EddiError *err);
/* Remove rel without checks: for eddi's own temporary files. */
void eddi_fs_remove(int root_fd, const char *rel);
/* Remove the temporary files of processes that died from the folder rel_dir
 * ("" for the root), now; how many went. */
size_t eddi_fs_sweep_folder(int root_fd, const char *rel_dir);

/* Whether two stamps name the same bytes of the same file. */
bool eddi_fs_stamp_same(const EddiFileStamp *a, const EddiFileStamp *b);

#endif
