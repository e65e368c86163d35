/* disk_backend.c - file-backed documents; see disk_backend.h. */
#include "core/disk_backend.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "core/merge.h"
#include "core/path.h"
#include "core/utf8.h"

static const char eddi_utf8_bom[3] = {'\xEF', '\xBB', '\xBF'};

/* ---------------------------------------------------------------- format */

/* One pass: runs of ASCII without NUL or CR go sixteen bytes at a time
 * where the CPU has SSE2, a non-ASCII byte goes to the UTF-8 check of its
 * character only. */
bool eddi_disk_is_plain(const char *raw, size_t len) {
  const unsigned char *s = (const unsigned char *)raw;
  size_t i = 0;
  while (i < len) {
#ifdef __SSE2__
    const __m128i nul = _mm_setzero_si128(), cr = _mm_set1_epi8('\r');
    while (i + 16 <= len) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      __m128i odd = _mm_or_si128(_mm_cmpeq_epi8(v, nul), _mm_cmpeq_epi8(v, cr));
      if (_mm_movemask_epi8(_mm_or_si128(odd, v))) break; /* high bit: not plain ASCII */
      i += 16;
    }
#endif
    /* Byte by byte to the end of this block of sixteen, then back to the
     * vector loop: two-byte characters (the accented letters of most text)
     * are checked here, longer ones by eddi_utf8_valid_prefix. */
    for (size_t stop = EDDI_MIN(len, i + 16); i < stop;) {
      unsigned char c = s[i];
      if (c == '\0' || c == '\r') return false;
      if (c < 0x80) {
        i++;
      } else if (c >= 0xC2 && c <= 0xDF) {
        if (i + 1 >= len || (s[i + 1] & 0xC0) != 0x80) return false;
        i += 2;
      } else {
        size_t next = i + eddi_utf8_char_len(c);
        if (next > len || eddi_utf8_valid_prefix(raw + i, next - i) != next - i) return false;
        i = next;
      }
    }
  }
  return true;
}

int eddi_disk_decode(const char *raw, size_t len, EddiFileFormat *format, StrBuf *out,
                     EddiError *err) {
  const char *nul = memchr(raw, '\0', len);
  if (nul) return eddi_error_set(err, EDDI_EINVAL, "Binary file (NUL byte at offset %zu)",
                                 (size_t)(nul - raw));
  format->bom = len >= 3 && memcmp(raw, eddi_utf8_bom, 3) == 0;
  if (format->bom) raw += 3, len -= 3;
  size_t valid = eddi_utf8_valid_prefix(raw, len);
  if (valid != len)
    return eddi_error_set(err, EDDI_EINVAL, "Not valid UTF-8 (byte %zu)",
                          valid + (format->bom ? 3 : 0));
  size_t crlf = 0, lone_lf = 0;
  for (const char *p = raw, *end = raw + len; (p = memchr(p, '\n', (size_t)(end - p))); p++) {
    if (p > raw && p[-1] == '\r') crlf++;
    else lone_lf++;
  }
  format->crlf = crlf > 0 && lone_lf == 0;
  if (!format->crlf) {
    eddi_strbuf_append(out, raw, len);
    return 0;
  }
  size_t run = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    if (raw[i] == '\r' && raw[i + 1] == '\n') {
      eddi_strbuf_append(out, raw + run, i - run);
      run = i + 1;
    }
  }
  eddi_strbuf_append(out, raw + run, len - run);
  return 0;
}

void eddi_disk_encode(const char *text, size_t len, EddiFileFormat format, StrBuf *out) {
  if (format.bom) eddi_strbuf_append(out, eddi_utf8_bom, 3);
  if (!format.crlf) {
    eddi_strbuf_append(out, text, len);
    return;
  }
  size_t run = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] != '\n') continue;
    eddi_strbuf_append(out, text + run, i - run);
    eddi_strbuf_append(out, "\r\n", 2);
    run = i + 1;
  }
  eddi_strbuf_append(out, text + run, len - run);
}

/* ---------------------------------------------------------------- reading */

/* Bytes asked of read() at a time. */
#define DISK_READ_CHUNK 65536

/* The permission bits a file made now would get: 0666 less the umask. */
static unsigned disk__new_file_mode(void) {
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

/* The code a read returns for each finding. */
static const int disk__codes[] = {
    [EDDI_DISK_READ] = 0,
    [EDDI_DISK_MISSING] = EDDI_ENOENT,
    [EDDI_DISK_FOLDER] = EDDI_EINVAL,
    [EDDI_DISK_SPECIAL] = EDDI_EINVAL,
    [EDDI_DISK_TOO_LARGE] = EDDI_ETOOBIG,
    [EDDI_DISK_OPEN_FAILED] = EDDI_EIO,
    [EDDI_DISK_STAT_FAILED] = EDDI_EIO,
    [EDDI_DISK_READ_FAILED] = EDDI_EIO,
    [EDDI_DISK_OUTSIDE] = EDDI_EPATH,
};

static int disk__found(EddiDiskFound *found, EddiDiskFinding finding, int sys_errno) {
  found->finding = finding;
  found->sys_errno = sys_errno;
  return disk__codes[finding];
}

/* What an open descriptor holds: a regular file is read whole into out and
 * stamped (stamp may be NULL); the rest is named. */
static int disk__read_fd(int fd, size_t max_bytes, StrBuf *out, EddiDiskFound *found,
                         EddiFileStamp *stamp) {
  struct stat st;
  if (fstat(fd, &st) < 0) return disk__found(found, EDDI_DISK_STAT_FAILED, errno);
  found->size = (long long)st.st_size;
  if (S_ISDIR(st.st_mode)) return disk__found(found, EDDI_DISK_FOLDER, 0);
  if (!S_ISREG(st.st_mode)) return disk__found(found, EDDI_DISK_SPECIAL, 0);
  if ((size_t)st.st_size > max_bytes) return disk__found(found, EDDI_DISK_TOO_LARGE, 0);
  found->mode = st.st_mode & 07777;
  EddiFileStamp local;
  EddiError err;
  StrBuf bytes = {0};
  int rc = eddi_fs_stamp_fd(fd, max_bytes, stamp ? stamp : &local, &bytes, &err);
  if (!out->len) { /* the bytes themselves, not a copy: a large file is read once */
    StrBuf old = *out;
    *out = bytes;
    bytes = old;
  } else if (bytes.len) {
    eddi_strbuf_append(out, bytes.data, bytes.len);
  }
  eddi_strbuf_free(&bytes);
  if (rc == EDDI_ETOOBIG) return disk__found(found, EDDI_DISK_TOO_LARGE, 0);
  if (rc < 0) return disk__found(found, EDDI_DISK_READ_FAILED, EIO);
  return disk__found(found, EDDI_DISK_READ, 0);
}

int eddi_disk_read_found(const char *path, size_t max_bytes, StrBuf *out, EddiDiskFound *found) {
  memset(found, 0, sizeof *found);
  /* O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it has no
   * effect on reading a regular file. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int why = errno;
    struct stat st;
    if (why == ENOENT || why == ENOTDIR) {
      found->mode = disk__new_file_mode();
      return disk__found(found, EDDI_DISK_MISSING, why);
    }
    /* A folder that may not be read is still a folder. */
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return disk__found(found, EDDI_DISK_FOLDER, 0);
    return disk__found(found, EDDI_DISK_OPEN_FAILED, why);
  }
  int rc = disk__read_fd(fd, max_bytes, out, found, NULL);
  close(fd);
  return rc;
}

int eddi_disk_read_found_at(int root_fd, const char *rel, size_t max_bytes, StrBuf *out,
                            EddiDiskFound *found, EddiFileStamp *stamp) {
  memset(found, 0, sizeof *found);
  memset(stamp, 0, sizeof *stamp);
  int fd;
  EddiError err;
  int rc = eddi_fs_open(root_fd, rel, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0, &fd, &err);
  if (rc == EDDI_EPATH) return disk__found(found, EDDI_DISK_OUTSIDE, 0);
  if (rc == EDDI_ENOENT) {
    found->mode = disk__new_file_mode();
    return disk__found(found, EDDI_DISK_MISSING, ENOENT);
  }
  if (rc < 0) return disk__found(found, EDDI_DISK_OPEN_FAILED, rc == EDDI_EIO ? EACCES : EIO);
  rc = disk__read_fd(fd, max_bytes, out, found, stamp);
  close(fd);
  return rc;
}

/* The replies of the backends for what a read found. */
static int disk__say(const EddiDiskFound *found, size_t max_bytes, EddiError *err) {
  int code = disk__codes[found->finding];
  const char *why = strerror(found->sys_errno);
  switch (found->finding) {
  case EDDI_DISK_READ: return 0;
  case EDDI_DISK_MISSING:
    if (found->sys_errno == ENOENT) return eddi_error_set(err, code, "File not found");
    return eddi_error_set(err, EDDI_EIO, "Cannot open: %s", why);
  case EDDI_DISK_FOLDER: return eddi_error_set(err, code, "Is a directory");
  case EDDI_DISK_SPECIAL: return eddi_error_set(err, code, "Not a regular file");
  case EDDI_DISK_TOO_LARGE:
    if ((size_t)found->size > max_bytes)
      return eddi_error_set(err, code, "File too large (%lld bytes, limit %zu)", found->size,
                            max_bytes);
    return eddi_error_set(err, code, "File too large (limit %zu)", max_bytes);
  case EDDI_DISK_OPEN_FAILED:
    if (found->sys_errno == EACCES) return eddi_error_set(err, code, "Permission denied");
    return eddi_error_set(err, code, "Cannot open: %s", why);
  case EDDI_DISK_STAT_FAILED: return eddi_error_set(err, code, "Cannot stat: %s", why);
  case EDDI_DISK_READ_FAILED: return eddi_error_set(err, code, "Read failed: %s", why);
  case EDDI_DISK_OUTSIDE: return eddi_error_set(err, code, "Path outside workspace");
  }
  return code;
}

static bool disk__missing(const EddiDiskFound *found) {
  return found->finding == EDDI_DISK_MISSING && found->sys_errno == ENOENT;
}

int eddi_disk_read(const char *path, size_t max_bytes, StrBuf *out, bool *missing,
                   unsigned *mode, EddiError *err) {
  EddiDiskFound found;
  int rc = eddi_disk_read_found(path, max_bytes, out, &found);
  *missing = disk__missing(&found);
  if (rc < 0) return disk__say(&found, max_bytes, err);
  if (mode) *mode = found.mode;
  return 0;
}

/* ---------------------------------------------------------------- writing */


/* ---------------------------------------------------------------- stamps */

void eddi_file_stamp_set(EddiFileStamp *self, const char *raw, size_t len) {
  self->exists = true;
  self->hash = XXH3_64bits(raw, len);
}

int eddi_file_stamp_read(EddiFileStamp *self, const char *path, size_t max_bytes, size_t *bytes,
                         EddiError *err) {
  StrBuf raw = {0};
  bool missing;
  int rc = eddi_disk_read(path, max_bytes, &raw, &missing, NULL, err);
  if (rc == 0) {
    *bytes = raw.len;
    eddi_file_stamp_set(self, raw.data, raw.len);
  }
  eddi_strbuf_free(&raw);
  return rc;
}

int eddi_file_stamp_compare(const EddiFileStamp *self, const char *path, size_t max_bytes,
                            bool *changed, bool *writable, unsigned *mode, EddiError *err) {
  *changed = false;
  *writable = true;
  StrBuf raw = {0};
  bool missing;
  unsigned now_mode = 0;
  EddiError read_err;
  int rc = eddi_disk_read(path, max_bytes, &raw, &missing, &now_mode, &read_err);
  if (!self->exists) {
    rc = missing ? 0 : eddi_error_set(err, EDDI_ESTALE, "File was created on disk since Open");
  } else if (missing) {
    rc = eddi_error_set(err, EDDI_ESTALE, "File was deleted on disk since Open");
  } else if (rc < 0) {
    *err = read_err;
  } else {
    *changed = XXH3_64bits(raw.data, raw.len) != self->hash;
    *writable = (now_mode & 0222) != 0 && access(path, W_OK) == 0;
    *mode = now_mode;
  }
  eddi_strbuf_free(&raw);
  return rc;
}

int eddi_file_saved_text(const EddiFileStamp *self, const char *path, size_t max_bytes,
                         StrBuf *out, EddiError *err) {
  if (!self->exists) return 0;
  StrBuf raw = {0};
  bool missing;
  int rc = eddi_disk_read(path, max_bytes, &raw, &missing, NULL, err);
  EddiFileFormat format;
  if (missing) rc = 0; /* deleted behind us: everything is new again */
  else if (rc == 0) rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, out, err);
  eddi_strbuf_free(&raw);
  return rc;
}

/* ---------------------------------------------------------------- opening */

int eddi_disk_load(const char *abs_path, bool create, size_t max_bytes, EddiFileFormat *format,
                   EddiFileStamp *stamp, unsigned *mode, StrBuf *text, EddiError *err) {
  StrBuf raw = {0}, checked = {0};
  bool missing;
  *format = (EddiFileFormat){0};
  *stamp = (EddiFileStamp){0};
  *mode = 0;
  int rc = eddi_disk_read(abs_path, max_bytes, &raw, &missing, mode, err);
  if (rc < 0 && missing && create) {
    mode_t mask = umask(0);
    umask(mask);
    *mode = 0666 & ~mask;
    rc = 0;
  } else if (rc == 0) {
    rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, format, text ? text : &checked,
                          err);
    if (rc == 0) eddi_file_stamp_set(stamp, raw.data, raw.len);
  }
  eddi_strbuf_free(&raw);
  eddi_strbuf_free(&checked);
  return rc;
}

/* ---------------------------------------------------------------- backend */

/* Files up to this size keep a copy of the bytes eddi last read or wrote:
 * the base against which a change made on disk meanwhile is merged, and the
 * saved text of Diff and Summary. Larger ones are re-read for those and
 * refuse a save over a change instead of merging. */
#define DISK_BASE_MAX ((size_t)16 << 20)
/* How many times a save merges a change made on disk and tries again
 * before it gives up on a file that keeps changing. */
#define DISK_MERGE_TRIES 64

typedef struct {
  EddiBackend base;
  int root_fd; /* the engine's workspace root, borrowed */
  char *rel_path;
  EddiFileFormat format;
  EddiFileStamp stamp; /* the file as eddi last read or wrote it */
  StrBuf saved;        /* its bytes then, when kept (saved_kept) */
  bool saved_kept;
  size_t max_bytes;
  unsigned mode;
} DiskBackend;

/* Remember bytes as what is on disk now. */
static void disk__remember(DiskBackend *self, const char *raw, size_t len) {
  eddi_strbuf_clear(&self->saved);
  self->saved_kept = len <= DISK_BASE_MAX;
  if (self->saved_kept) {
    eddi_strbuf_puts(&self->saved, "");
    eddi_strbuf_append(&self->saved, raw, len);
  }
}

/* Read the file beneath the root, with the backends' replies. */
static int disk__read_at(int root_fd, const char *rel, size_t max_bytes, StrBuf *raw,
                         EddiDiskFound *found, EddiFileStamp *stamp, EddiError *err) {
  eddi_disk_read_found_at(root_fd, rel, max_bytes, raw, found, stamp);
  return disk__say(found, max_bytes, err);
}

/* What Open and Open Reload do: read and decode the file. */
static int disk__load(DiskBackend *self, bool create, StrBuf *text, EddiError *err) {
  StrBuf raw = {0};
  EddiDiskFound found;
  EddiFileStamp stamp;
  int rc = disk__read_at(self->root_fd, self->rel_path, self->max_bytes, &raw, &found, &stamp,
                         err);
  bool missing = disk__missing(&found);
  if (rc < 0 && !(missing && create)) {
    eddi_strbuf_free(&raw);
    return rc;
  }
  self->mode = found.mode; /* a new file's when missing */
  EddiFileFormat format = {0};
  /* A file without BOM or CRLF is its own text: the bytes read move into
   * text, so a large file is held once (the base copy is kept only for
   * files up to DISK_BASE_MAX). */
  bool plain = !missing && !text->len && raw.len &&
               !(raw.len >= 3 && memcmp(raw.data, eddi_utf8_bom, 3) == 0) &&
               eddi_disk_is_plain(raw.data, raw.len);
  if (plain) {
    self->format = format;
    self->stamp = stamp;
    disk__remember(self, raw.data, raw.len);
    StrBuf old = *text;
    *text = raw;
    raw = old;
    eddi_strbuf_free(&raw);
    return 0;
  }
  rc = missing ? 0 : eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, text, err);
  if (rc == 0) {
    self->format = format;
    self->stamp = stamp;
    disk__remember(self, raw.data ? raw.data : "", raw.len);
  }
  eddi_strbuf_free(&raw);
  return rc;
}

bool eddi_disk_writable_at(int root_fd, const char *rel) {
  int fd;
  EddiError ignored;
  if (eddi_fs_open(root_fd, rel, O_RDONLY | O_NONBLOCK, 0, &fd, &ignored) < 0)
    return true; /* gone or moved: the replace says how */
  struct stat st;
  bool read_only = fstat(fd, &st) == 0 && (st.st_mode & 0222) == 0;
  close(fd);
  if (!read_only) read_only = faccessat(root_fd, rel, W_OK, 0) < 0 && errno == EACCES;
  return !read_only;
}

/* A save may not write a file made read-only since. */
static int disk__check_writable(DiskBackend *self, EddiError *err) {
  if (!self->stamp.exists || eddi_disk_writable_at(self->root_fd, self->rel_path)) return 0;
  return eddi_error_set(err, EDDI_EIO, "File is read-only");
}

/* The file changed on disk (theirs): merge it with the document's edits
 * against what eddi last saw, put the result into the document (one undo
 * step with the command's own), and give back the bytes to write. */
static int disk__rebase(DiskBackend *self, EddiDoc *doc, const EddiFsConflict *conflict,
                        StrBuf *ours, EddiError *err) {
  if (!conflict->theirs_exist)
    return eddi_error_set(err, EDDI_ESTALE, "File was deleted on disk since Open");
  if (!self->stamp.exists)
    return eddi_error_set(err, EDDI_ESTALE, "File was created on disk since Open");
  StrBuf merged = {0}, text = {0};
  EddiMergeReport report;
  int rc = self->saved_kept ? eddi_merge3(self->saved.data ? self->saved.data : "",
                                          self->saved.len, ours->data ? ours->data : "",
                                          ours->len, conflict->theirs.data ? conflict->theirs.data : "",
                                          conflict->theirs.len, &merged, &report)
                            : EDDI_ESTALE;
  EddiFileFormat format;
  if (rc == 0)
    rc = eddi_disk_decode(merged.data ? merged.data : "", merged.len, &format, &text, err);
  if (rc < 0) {
    eddi_strbuf_free(&merged), eddi_strbuf_free(&text);
    eddi_error_set(err, EDDI_ESTALE, "File changed on disk since Open");
    eddi_error_hint(err, "Open Reload reads it again (unsaved edits are discarded)");
    return EDDI_ESTALE;
  }
  /* The document takes in the disk's change. */
  rc = eddi_doc_replace_all(doc, text.data ? text.data : "", text.len, NULL, err);
  if (rc == 0) {
    eddi_strbuf_clear(ours);
    eddi_strbuf_append(ours, merged.data ? merged.data : "", merged.len);
    doc->rebased = true;
  }
  eddi_strbuf_free(&merged), eddi_strbuf_free(&text);
  return rc;
}

/* A save's rename carried another writer's append over (conflict->theirs:
 * eddi's bytes with the append after them, on disk now): the document
 * takes the append in, and ours becomes those bytes, the new base, so that
 * the next save does not carry it again. The stamp of the written file is
 * the caller's to keep, whatever this returns: the bytes are on disk. */
static int disk__take_carried(EddiDoc *doc, const EddiFsConflict *conflict, StrBuf *ours,
                              EddiError *err) {
  const char *theirs = conflict->theirs.data ? conflict->theirs.data : "";
  eddi_strbuf_clear(ours);
  eddi_strbuf_append(ours, theirs, conflict->theirs.len);
  StrBuf text = {0};
  EddiFileFormat format;
  int rc = eddi_disk_decode(theirs, conflict->theirs.len, &format, &text, err);
  if (rc == 0) rc = eddi_doc_replace_all(doc, text.data ? text.data : "", text.len, NULL, err);
  if (rc == 0) doc->rebased = true;
  eddi_strbuf_free(&text);
  return rc;
}

static int disk__save(EddiBackend *base, EddiDoc *doc, size_t *bytes, EddiError *err) {
  DiskBackend *self = (DiskBackend *)base;
  doc->rebased = false;
  int rc = disk__check_writable(self, err);
  if (rc < 0) return rc;
  char *text = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
  StrBuf raw = {0};
  eddi_strbuf_puts(&raw, "");
  eddi_disk_encode(text, eddi_text_len(&doc->text), self->format, &raw);
  eddi_free(text);
  EddiFileStamp expected = self->stamp, written;
  EddiFsConflict conflict = {0};
  bool carried = false;
  rc = EDDI_ESTALE;
  for (int tries = 0; rc == EDDI_ESTALE && tries < DISK_MERGE_TRIES; tries++) {
    EddiFsReplace op = {.rel = self->rel_path, .bytes = raw.data, .len = raw.len,
                        .mode = self->mode, .expected = &expected, .max_bytes = self->max_bytes};
    rc = eddi_fs_replace(self->root_fd, &op, &written, &conflict, err);
    if (!conflict.changed) break;
    /* Carried over (rc 0): the disk holds eddi's bytes and the append
     * after them, which the document takes in as they are; nothing is
     * merged, so nothing can be refused after the write. */
    if (rc == 0) {
      carried = true;
      rc = disk__take_carried(doc, &conflict, &raw, err);
      break;
    }
    /* To write again: the document takes the disk's change in. */
    int rebased = disk__rebase(self, doc, &conflict, &raw, err);
    if (rebased < 0) {
      rc = rebased;
      break;
    }
    /* What raw was merged onto is the base from now on. */
    disk__remember(self, conflict.theirs.data ? conflict.theirs.data : "", conflict.theirs.len);
    expected = conflict.stamp;
    rc = EDDI_ESTALE;
  }
  if (rc == EDDI_EPATH) eddi_error_set(err, rc, "Path outside workspace");
  if (rc == 0 || carried) {
    *bytes = raw.len;
    self->stamp = written;
    disk__remember(self, raw.data, raw.len);
  }
  eddi_fs_conflict_free(&conflict);
  eddi_strbuf_free(&raw);
  return rc;
}

static int disk__saved_text(EddiBackend *base, StrBuf *out, EddiError *err) {
  DiskBackend *self = (DiskBackend *)base;
  if (!self->stamp.exists) return 0;
  EddiFileFormat format;
  if (self->saved_kept)
    return eddi_disk_decode(self->saved.data ? self->saved.data : "", self->saved.len, &format,
                            out, err);
  StrBuf raw = {0};
  EddiDiskFound found;
  EddiFileStamp stamp;
  int rc = disk__read_at(self->root_fd, self->rel_path, self->max_bytes, &raw, &found, &stamp,
                         err);
  if (disk__missing(&found)) rc = 0; /* deleted behind us: everything is new again */
  else if (rc == 0) rc = eddi_disk_decode(raw.data ? raw.data : "", raw.len, &format, out, err);
  eddi_strbuf_free(&raw);
  return rc;
}

static int disk__reread(EddiBackend *base, StrBuf *out, EddiError *err) {
  return disk__load((DiskBackend *)base, false, out, err);
}

static void disk__stamp(EddiBackend *base, EddiFileStamp *out) {
  *out = ((DiskBackend *)base)->stamp;
}

static void disk__destroy(EddiBackend *base) {
  DiskBackend *self = (DiskBackend *)base;
  eddi_free(self->rel_path);
  eddi_strbuf_free(&self->saved);
  eddi_free(self);
}

static const EddiBackendVtable disk_vtable = {
    .name = "disk",
    .save = disk__save,
    .saved_text = disk__saved_text,
    .reread = disk__reread,
    .stamp = disk__stamp,
    .destroy = disk__destroy,
};

int eddi_disk_open(int root_fd, const char *rel_path, bool create, size_t max_bytes,
                   EddiBackend **backend, StrBuf *text, bool *is_new, EddiError *err) {
  DiskBackend *self = eddi_calloc(1, sizeof *self);
  self->base.vtable = &disk_vtable;
  self->root_fd = root_fd;
  self->rel_path = eddi_strdup(rel_path);
  self->max_bytes = max_bytes;
  int rc = disk__load(self, create, text, err);
  if (rc < 0) {
    disk__destroy(&self->base);
    return rc;
  }
  *is_new = !self->stamp.exists;
  *backend = &self->base;
  return 0;
}

int eddi_disk_refuse_read_only(const char *rel, EddiError *err) {
  eddi_error_set(err, EDDI_EIO, "%s is read-only; nothing written", rel);
  eddi_error_hint(err, "Make %s writable, then run the change again", rel);
  return EDDI_EIO;
}

int eddi_disk_refuse_changed(const char *rel, EddiError *err) {
  eddi_error_set(err, EDDI_ESTALE, "%s changed on disk since Open; nothing written", rel);
  eddi_error_hint(err, "Open Reload reads it again (unsaved edits are discarded)");
  return EDDI_ESTALE;
}

bool eddi_disk_backend_owns(const EddiBackend *backend) {
  return backend && backend->vtable == &disk_vtable;
}

/* The bytes of a file whose copy is not kept, read now: they must be those
 * eddi last read or wrote (its stamp), or the change could not be merged
 * with the disk's and is refused. */
static int disk__read_unkept(DiskBackend *self, StrBuf *saved, EddiError *err) {
  StrBuf raw = {0};
  EddiDiskFound found;
  EddiFileStamp now;
  int rc = disk__read_at(self->root_fd, self->rel_path, self->max_bytes, &raw, &found, &now, err);
  if (rc == 0 && !eddi_fs_stamp_same(&now, &self->stamp)) rc = EDDI_ESTALE;
  if (rc < 0) {
    eddi_strbuf_free(&raw);
    return eddi_disk_refuse_changed(self->rel_path, err);
  }
  eddi_strbuf_append(saved, raw.data ? raw.data : "", raw.len);
  eddi_strbuf_free(&raw);
  return 0;
}

int eddi_disk_backend_state(EddiBackend *backend, EddiFileFormat *format, unsigned *mode,
                            EddiFileStamp *stamp, StrBuf *saved, EddiError *err) {
  if (!eddi_disk_backend_owns(backend))
    return eddi_error_set(err, EDDI_EINVAL, "Not a document of the disk backend");
  DiskBackend *self = (DiskBackend *)backend;
  if (self->stamp.exists && !eddi_disk_writable_at(self->root_fd, self->rel_path))
    return eddi_disk_refuse_read_only(self->rel_path, err);
  if (self->saved_kept)
    eddi_strbuf_append(saved, self->saved.data ? self->saved.data : "", self->saved.len);
  else if (self->stamp.exists && disk__read_unkept(self, saved, err) < 0)
    return err->code;
  *format = self->format;
  *mode = self->mode;
  *stamp = self->stamp;
  return 0;
}

void eddi_disk_backend_written(EddiBackend *backend, const char *raw, size_t len,
                               const EddiFileStamp *written) {
  if (backend->vtable != &disk_vtable) return;
  DiskBackend *self = (DiskBackend *)backend;
  self->stamp = *written;
  disk__remember(self, raw, len);
}
