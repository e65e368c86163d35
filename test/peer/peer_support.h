/* peer_support.h - workspaces for the peer conformance suites: copy a tree
 * in, compare a tree with the expected one byte for byte, clean up. */
#ifndef EDDI_PEER_SUPPORT_H
#define EDDI_PEER_SUPPORT_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *peer_read(const char *path, size_t *len) {
  FILE *in = fopen(path, "rb");
  if (!in) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (size_t got; (got = fread(buf + n, 1, cap - n - 1, in)) > 0;) {
    n += got;
    if (cap - n < 2) buf = realloc(buf, cap *= 2);
  }
  fclose(in);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static bool peer_write(const char *path, const char *bytes, size_t len) {
  char *dir = strdup(path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') *p = '\0', mkdir(dir, 0777), *p = '/';
  free(dir);
  FILE *out = fopen(path, "wb");
  if (!out) return false;
  bool ok = fwrite(bytes, 1, len, out) == len;
  return fclose(out) == 0 && ok;
}

/* Copy the tree at from (may be missing) into to, files writable. */
static void peer_copy_tree(const char *from, const char *to) {
  DIR *dir = opendir(from);
  if (!dir) return;
  mkdir(to, 0777);
  for (struct dirent *e; (e = readdir(dir));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/%s", from, e->d_name);
    snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
    struct stat st;
    if (stat(src, &st) < 0) continue;
    if (S_ISDIR(st.st_mode)) {
      peer_copy_tree(src, dst);
    } else {
      size_t len;
      char *bytes = peer_read(src, &len);
      if (bytes) peer_write(dst, bytes, len), free(bytes);
    }
  }
  closedir(dir);
}

/* Every entry of a is in b with the same bytes (dirs as dirs); prints the
 * first difference. */
/* Set to silence the reports of differences (when a difference is wanted). */
static bool peer_quiet;

static bool peer_tree_within(const char *a, const char *b, const char *rel, const char *what) {
  DIR *dir = opendir(a);
  if (!dir) return true; /* a missing tree is empty */
  bool ok = true;
  for (struct dirent *e; ok && (e = readdir(dir));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char pa[4096], pb[4096], r[4096];
    snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
    snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
    snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
    struct stat sa, sb;
    stat(pa, &sa);
    if (stat(pb, &sb) < 0) {
      if (!peer_quiet) fprintf(stderr, "  %s: %s is missing\n", what, r);
      ok = false;
    } else if (S_ISDIR(sa.st_mode) != S_ISDIR(sb.st_mode)) {
      if (!peer_quiet) fprintf(stderr, "  %s: %s is a file on one side, a folder on the other\n", what, r);
      ok = false;
    } else if (S_ISDIR(sa.st_mode)) {
      ok = peer_tree_within(pa, pb, r, what);
    } else {
      size_t la = 0, lb = 0;
      char *ba = peer_read(pa, &la), *bb = peer_read(pb, &lb);
      if (!ba || !bb || la != lb || memcmp(ba, bb, la) != 0) {
        if (!peer_quiet) fprintf(stderr, "  %s: %s differs\n    want: %.*s\n    got:  %.*s\n", what, r,
                (int)(ba ? la : 0), ba ? ba : "", (int)(bb ? lb : 0), bb ? bb : "");
        ok = false;
      }
      free(ba), free(bb);
    }
  }
  closedir(dir);
  return ok;
}

static bool peer_tree_equal(const char *expected, const char *actual) {
  return peer_tree_within(expected, actual, "", "expected") &&
         peer_tree_within(actual, expected, "", "unexpected");
}

static int peer__rm(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void peer_rm_tree(const char *path) { nftw(path, peer__rm, 16, FTW_DEPTH | FTW_PHYS); }

#endif
