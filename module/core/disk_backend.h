/* disk_backend.h - documents backed by files (the headless front ends).
 *
 * A file is decoded on load: a UTF-8 BOM is taken off, and CRLF line endings
 * become LF when every line ends in CRLF (a file with mixed endings keeps its
 * CRs as text). Saving encodes the same way, so a file keeps its BOM, its
 * line endings and its final newline (or lack of one) as found. Binary files
 * (a NUL byte) and invalid UTF-8 are refused. */
#ifndef EDDI_DISK_BACKEND_H
#define EDDI_DISK_BACKEND_H

#include "core/document.h"
#include "core/fs.h"

typedef struct {
  bool bom;
  bool crlf;
} EddiFileFormat;

/* Whether raw (len bytes) is its own decoded text: no NUL, no CR, valid
 * UTF-8 (the caller checks for a BOM). False also for bytes decoding
 * refuses; eddi_disk_decode then says why. */
bool eddi_disk_is_plain(const char *raw, size_t len);

/* Decode raw file bytes into text (appended to out). */
int eddi_disk_decode(const char *raw, size_t len, EddiFileFormat *format, StrBuf *out,
                     EddiError *err);
/* Encode text for the disk (appended to out). */
void eddi_disk_encode(const char *text, size_t len, EddiFileFormat format, StrBuf *out);

/* What eddi_disk_read_found found at a path. */
typedef enum {
  EDDI_DISK_READ,        /* a regular file, read whole */
  EDDI_DISK_MISSING,     /* nothing there: no such file (sys_errno ENOENT), or a folder
                          * on the way is a file (ENOTDIR) */
  EDDI_DISK_FOLDER,      /* a folder */
  EDDI_DISK_SPECIAL,     /* not a regular file: a device, a FIFO, a socket */
  EDDI_DISK_TOO_LARGE,   /* over max_bytes: size says so, unless it grew while read */
  EDDI_DISK_OPEN_FAILED, /* sys_errno says why */
  EDDI_DISK_STAT_FAILED,
  EDDI_DISK_READ_FAILED,
  EDDI_DISK_OUTSIDE,     /* the path leads out of the workspace (a symlink) */
} EddiDiskFinding;

typedef struct {
  EddiDiskFinding finding;
  int sys_errno;  /* behind MISSING and the *_FAILED findings, else 0 */
  long long size; /* what stat said, once the file was opened */
  unsigned mode;  /* the file's permission bits; for MISSING, those a new file gets */
} EddiDiskFound;

/* The one reader of files: a whole regular file into out (appended), and
 * what was at path into found, for callers that word their own replies
 * (an edit of several files names the file in each). Returns 0 when the
 * file was read (EDDI_DISK_READ), else a negative EDDI_E* code; out may
 * then hold part of the file. A FIFO is refused without waiting for a
 * writer. */
int eddi_disk_read_found(const char *path, size_t max_bytes, StrBuf *out, EddiDiskFound *found);

/* The same for rel beneath the workspace root root_fd (core/fs.h: a path
 * that leads out is EDDI_DISK_OUTSIDE), with the stamp of what was read. */
int eddi_disk_read_found_at(int root_fd, const char *rel, size_t max_bytes, StrBuf *out,
                            EddiDiskFound *found, EddiFileStamp *stamp);

/* eddi_disk_read_found with the replies every backend gives: "File not
 * found" (and *missing set), "Is a directory", "File too large", ...
 * *mode, when not NULL, receives the file's permission bits. */
int eddi_disk_read(const char *path, size_t max_bytes, StrBuf *out, bool *missing,
                   unsigned *mode, EddiError *err);

/* ---------------------------------------------------------------- stamps */

/* A file as eddi last read or wrote it (EddiFileStamp, core/fs.h), so that
 * a save sees whether it moved since. Every backend keeps one (the embedded
 * ones through core/embedded_backend.c), and the rules below are the same
 * for all. */

/* Stamp raw bytes as what is on disk now. */
void eddi_file_stamp_set(EddiFileStamp *self, const char *raw, size_t len);
/* Stamp path as it is on disk now; *bytes receives its size. */
int eddi_file_stamp_read(EddiFileStamp *self, const char *path, size_t max_bytes, size_t *bytes,
                         EddiError *err);
/* Compare path with the stamp: fails when the file was created or deleted
 * since, or cannot be read. Otherwise *changed says whether its bytes
 * differ, *writable whether a save may write it, and *mode (left alone for
 * a file still missing) receives its permission bits. Each backend decides
 * which of the two refusals comes first. */
int eddi_file_stamp_compare(const EddiFileStamp *self, const char *path, size_t max_bytes,
                            bool *changed, bool *writable, unsigned *mode, EddiError *err);
/* The text a save would replace, decoded as on load: empty when the file
 * was never on disk or is gone now (every line of the document is new). */
int eddi_file_saved_text(const EddiFileStamp *self, const char *path, size_t max_bytes,
                         StrBuf *out, EddiError *err);

/* ---------------------------------------------------------------- opening */

/* Read abs_path as Open does. A missing file is an error unless create (then
 * *stamp says it is not on disk and *format is plain). The decoded text is
 * appended to text (NULL: it is only checked); *mode receives the file's
 * permission bits, or those a new file gets. */
int eddi_disk_load(const char *abs_path, bool create, size_t max_bytes, EddiFileFormat *format,
                   EddiFileStamp *stamp, unsigned *mode, StrBuf *text, EddiError *err);

/* Open rel_path beneath the workspace root root_fd (borrowed: it must
 * outlive the backend). A missing file is an error unless create, in which
 * case the document starts empty and *is_new is set. On success *backend is
 * new and *text holds the decoded text. Saves go through core/fs.h: the
 * path resolved beneath the root again, the file checked against what was
 * read; a change made on disk meanwhile is merged into the document when
 * it touches other lines (doc->rebased), else the save is refused. */
int eddi_disk_open(int root_fd, const char *rel_path, bool create, size_t max_bytes,
                   EddiBackend **backend, StrBuf *text, bool *is_new, EddiError *err);

/* Whether rel beneath root_fd may be written: true also when it is
 * missing (the write says what became of it). */
bool eddi_disk_writable_at(int root_fd, const char *rel);

/* The refusals of a change of several files (edit/transaction.c) over an
 * open file, naming it: it is read-only, or it changed on disk since Open
 * and cannot be merged. Each returns its code. */
int eddi_disk_refuse_read_only(const char *rel, EddiError *err);
int eddi_disk_refuse_changed(const char *rel, EddiError *err);

/* Whether backend is the disk backend (not an embedder's, core/embedded_backend.h). */
bool eddi_disk_backend_owns(const EddiBackend *backend);

/* For a change of several files (edit/transaction.c) that writes an open
 * document's file itself, inside its journaled intent: the file as the
 * document's disk backend last read or wrote it (format, mode, stamp, and
 * its bytes appended to saved). A file over the size whose bytes the
 * backend keeps is read now, and must still be as stamped. Fails, with a
 * reply naming the file, when the file was made read-only or such a large
 * file changed on disk since (it could not be merged): the change is then
 * refused before anything is written. */
int eddi_disk_backend_state(EddiBackend *backend, EddiFileFormat *format, unsigned *mode,
                            EddiFileStamp *stamp, StrBuf *saved, EddiError *err);
/* That change wrote raw to the document's file (stamped written): the
 * backend takes it as what it last wrote. */
void eddi_disk_backend_written(EddiBackend *backend, const char *raw, size_t len,
                               const EddiFileStamp *written);


#endif
