/* path.c - workspace path resolution; see path.h. */
#include "core/path.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/utf8.h"

char *eddi_path_join(const char *dir, const char *name) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, dir);
  if (out.len && out.data[out.len - 1] != '/' && name[0]) eddi_strbuf_putc(&out, '/');
  eddi_strbuf_puts(&out, name);
  return eddi_strbuf_take(&out);
}

const char *eddi_path_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static bool path__inside(const char *root, const char *real) {
  size_t n = strlen(root);
  if (strncmp(real, root, n) != 0) return false;
  return real[n] == '\0' || real[n] == '/' || (n == 1 && root[0] == '/');
}

/* A file name eddi takes: valid UTF-8 without control characters. A
 * newline in a name would let a reply that lists it forge a line, and
 * bytes that are not UTF-8 cannot be shown in JSON; eddi neither creates
 * nor opens such names (List shows them quoted). */
static int path__check_name(const char *name, size_t len, EddiError *err) {
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c < 0x20 || c == 0x7F) {
      eddi_error_set(err, EDDI_EINVAL, "File name holds a control character (U+%04X): %.*s", c,
                     (int)len, name);
      eddi_error_hint(err, "Choose a name without control characters");
      return EDDI_EINVAL;
    }
  }
  if (eddi_utf8_valid_prefix(name, len) != len) {
    eddi_error_set(err, EDDI_EINVAL, "File name is not valid UTF-8");
    eddi_error_hint(err, "Rename the file outside eddi");
    return EDDI_EINVAL;
  }
  return 0;
}

/* Lexical normalisation of input relative to root; EDDI_EPATH when ".."
 * climbs above it. */
static int path__normalise(const char *root, const char *input, StrBuf *rel,
                           EddiError *err) {
  const char *p = input;
  if (input[0] == '/') {
    if (!path__inside(root, input))
      return eddi_error_set(err, EDDI_EPATH, "Path outside workspace");
    p = input + (strcmp(root, "/") == 0 ? 0 : strlen(root));
  }
  while (*p) {
    while (*p == '/') p++;
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0) break;
    if (len == 1 && p[0] == '.') {
      /* stays */
    } else if (len == 2 && p[0] == '.' && p[1] == '.') {
      if (rel->len == 0) return eddi_error_set(err, EDDI_EPATH, "Path outside workspace");
      char *slash = strrchr(rel->data, '/');
      rel->len = slash ? (size_t)(slash - rel->data) : 0;
      rel->data[rel->len] = '\0';
    } else {
      if (len > NAME_MAX) return eddi_error_set(err, EDDI_EINVAL, "Path component too long");
      int rc = path__check_name(p, len, err);
      if (rc < 0) return rc;
      if (rel->len) eddi_strbuf_putc(rel, '/');
      eddi_strbuf_append(rel, p, len);
    }
    p += len;
  }
  if (rel->len > PATH_MAX / 2) return eddi_error_set(err, EDDI_EINVAL, "Path too long");
  return 0;
}

/* Realpath of the deepest existing ancestor of abs must stay inside root. */
static int path__check_links(const char *root, const char *abs, EddiError *err) {
  char *probe = eddi_strdup(abs);
  int rc = 0;
  for (;;) {
    struct stat st;
    if (lstat(probe, &st) == 0) {
      char real[PATH_MAX];
      if (!realpath(probe, real))
        rc = eddi_error_set(err, EDDI_EPATH, "Broken symlink: %s",
                            eddi_path_basename(probe));
      else if (!path__inside(root, real))
        rc = eddi_error_set(err, EDDI_EPATH, "Path outside workspace");
      break;
    }
    char *slash = strrchr(probe, '/');
    if (!slash || slash == probe) break;
    *slash = '\0';
  }
  eddi_free(probe);
  return rc;
}

int eddi_path_resolve(const char *root, const char *input, char **rel, char **abs,
                      EddiError *err) {
  if (!input[0]) return eddi_error_set(err, EDDI_EINVAL, "Empty path");
  StrBuf norm = {0};
  eddi_strbuf_puts(&norm, "");
  int rc = path__normalise(root, input, &norm, err);
  if (rc < 0) {
    eddi_strbuf_free(&norm);
    return rc;
  }
  char *joined = eddi_path_join(root, norm.data);
  rc = path__check_links(root, joined, err);
  if (rc < 0) {
    eddi_free(joined);
    eddi_strbuf_free(&norm);
    return rc;
  }
  *abs = joined;
  *rel = eddi_strbuf_take(&norm);
  return 0;
}
