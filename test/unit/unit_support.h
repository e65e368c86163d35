/* unit_support.h - what several unit test files share: cmocka's includes,
 * a leak check, a deterministic random generator and a scratch workspace.
 *
 * Everything here is static so each test program stays one file plus this
 * header; the scratch folder is made at run time under $TMPDIR (or /tmp). */
#ifndef EDDI_UNIT_SUPPORT_H
#define EDDI_UNIT_SUPPORT_H

#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/common.h"

/* ---------------------------------------------------------------- leaks */

/* Start of a test that checks for leaks: `long live = unit_live();` ...
 * `unit_assert_no_leak(live);` at the end. */
static inline long unit_live(void) { return eddi_alloc_live(); }
#define unit_assert_no_leak(live) assert_int_equal(eddi_alloc_live(), (live))

/* ---------------------------------------------------------------- random */

/* xorshift64*: the same sequence on every machine and libc. */
typedef struct {
  uint64_t state;
} UnitRandom;

static inline uint64_t unit_random_next(UnitRandom *self) {
  uint64_t x = self->state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  self->state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform-enough integer in [0, bound); bound > 0. */
static inline size_t unit_random_below(UnitRandom *self, size_t bound) {
  return (size_t)(unit_random_next(self) % bound);
}

/* ---------------------------------------------------------------- files */

/* A fresh folder under $TMPDIR or /tmp, canonical (realpath), into out. */
static inline void unit_workspace_new(char out[PATH_MAX]) {
  const char *tmp = getenv("TMPDIR");
  char pattern[PATH_MAX];
  snprintf(pattern, sizeof pattern, "%s/eddi-unit-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  assert_non_null(mkdtemp(pattern));
  assert_non_null(realpath(pattern, out));
}

/* rm -r path (no symlink is followed). */
static inline void unit_remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0) return;
  if (S_ISDIR(st.st_mode)) {
    chmod(path, 0700); /* a test may have made it read-only */
    DIR *dir = opendir(path);
    if (dir) {
      struct dirent *entry;
      while ((entry = readdir(dir))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        size_t size = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(size);
        snprintf(child, size, "%s/%s", path, entry->d_name);
        unit_remove_tree(child);
        free(child);
      }
      closedir(dir);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

/* cmocka setup and teardown of a test that needs one scratch folder:
 * *state is its path (PATH_MAX bytes). */
static inline int unit_folder_setup(void **state) {
  char *root = malloc(PATH_MAX);
  unit_workspace_new(root);
  *state = root;
  return 0;
}

static inline int unit_folder_teardown(void **state) {
  unit_remove_tree(*state);
  free(*state);
  return 0;
}

/* a + b + c into out, which must hold them (the test fails otherwise). */
static inline void unit_concat(char out[PATH_MAX], const char *a, const char *b,
                               const char *c) {
  size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
  assert_true(la + lb + lc < PATH_MAX);
  memcpy(out, a, la);
  memcpy(out + la, b, lb);
  memcpy(out + la + lb, c, lc + 1);
}

/* path = dir + "/" + name, into out. */
static inline void unit_path(char out[PATH_MAX], const char *dir, const char *name) {
  unit_concat(out, dir, "/", name);
}

static inline void unit_write_file(const char *path, const char *bytes, size_t len) {
  FILE *out = fopen(path, "wb");
  assert_non_null(out);
  assert_int_equal(fwrite(bytes, 1, len, out), len);
  assert_int_equal(fclose(out), 0);
}

/* The whole file as a malloc'd NUL-terminated string (free with free), or
 * NULL when it cannot be read. */
static inline char *unit_read_file(const char *path, size_t *len) {
  FILE *in = fopen(path, "rb");
  if (!in) return NULL;
  size_t cap = 4096, n = 0;
  char *data = malloc(cap);
  size_t got;
  while ((got = fread(data + n, 1, cap - n - 1, in)) > 0) {
    n += got;
    if (cap - n - 1 == 0) data = realloc(data, cap *= 2);
  }
  fclose(in);
  data[n] = '\0';
  *len = n;
  return data;
}

#endif
