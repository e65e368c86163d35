/* bench_edit_formats.c - the edit formats' targets (issue 4), with their reference.
 *
 *   10-hunk hashline Edit and apply_patch on a 10K-line file: median <= 1 ms,
 *   tag checks and the atomic write included, and <= 3x the reference: read
 *   the file, hash it (the tag) and write it back atomically.
 *   Stale-tag rebase on a 10K-line file: median <= 5 ms.
 *
 * Runs in a temporary folder ($TMPDIR, else /tmp); prints one line per figure. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "bench_support.h"
#include "core/disk_backend.h"
#include "edit/edit_formats.h"
#include "session/engine.h"

#define LINES 10000
#define HUNKS 10
#define RUNS 41

static char path[512];

static void write_file(const char *text, size_t len) {
  FILE *out = fopen(path, "wb");
  fwrite(text, 1, len, out);
  fclose(out);
}

static char *read_file(size_t *len) {
  int fd = open(path, O_RDONLY);
  size_t cap = 1 << 20, n = 0;
  char *buf = malloc(cap);
  for (ssize_t got; (got = read(fd, buf + n, cap - n)) > 0;) {
    n += (size_t)got;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  close(fd);
  *len = n;
  return buf;
}

static void make_text(StrBuf *out, int variant) {
  for (int i = 1; i <= LINES; i++)
    eddi_strbuf_printf(out, "    value_%05d = compute(%d, \"item %d\")  # v%d\n", i, i, i,
                  i % 1000 == 500 ? variant : 0);
}

static void tag_of_file(char tag[5]) {
  size_t len;
  char *text = read_file(&len);
  eddi_hashline_tag(text, len, tag);
  free(text);
}

/* The reference's write: what any tool that writes whole or not at all
 * does (a temporary file beside it, fsync, rename, fsync of the folder). */
static void reference_write_atomic(const char *file, const char *bytes, size_t len) {
  char temp[PATH_MAX], folder[PATH_MAX];
  snprintf(temp, sizeof temp, "%s.XXXXXX", file);
  int fd = mkstemp(temp);
  if (fd < 0 || write(fd, bytes, len) != (ssize_t)len || fsync(fd) < 0 || close(fd) < 0 ||
      rename(temp, file) < 0) {
    perror("reference write");
    exit(1);
  }
  snprintf(folder, sizeof folder, "%s", file);
  char *slash = strrchr(folder, '/');
  if (slash) *slash = '\0';
  int dir = open(slash ? folder : ".", O_RDONLY | O_DIRECTORY);
  if (dir >= 0) fsync(dir), close(dir);
}

int main(void) {
  /* TMPDIR=/dev/shm takes the disk's fsync out of the figures. */
  char dir[400];
  snprintf(dir, sizeof dir, "%s/eddi-bench-edit-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(dir)) return 1;
  snprintf(path, sizeof path, "%s/big.py", dir);
  StrBuf text = {0};
  make_text(&text, 0);
  write_file(text.data, text.len);
  char error[256];
  EddiEngine *engine = eddi_engine_new(dir, NULL, error, sizeof error);
  double t[RUNS];

  /* Reference: read, hash, write atomically. */
  for (int r = 0; r < RUNS; r++) {
    double start = bench_now_ms();
    size_t len;
    char *raw = read_file(&len);
    volatile unsigned h = XXH32(raw, len, 0);
    (void)h;
    reference_write_atomic(path, raw, len);
    t[r] = bench_now_ms() - start;
    free(raw);
  }
  double reference = bench_median(t, RUNS);
  printf("reference: read + hash + atomic write of %d lines (%zu bytes): median %.3f ms\n",
         LINES, text.len, reference);

  /* Hashline: 10 single-line PUTs spread over the file. */
  for (int r = 0; r < RUNS; r++) {
    char tag[5];
    tag_of_file(tag);
    StrBuf input = {0};
    eddi_strbuf_printf(&input, "[big.py#%s]\n", tag);
    for (int h = 0; h < HUNKS; h++)
      eddi_strbuf_printf(&input, "PUT %d.=%d:\n+    value_%05d = %d  # edited in run %d\n",
                    h * 1000 + 7, h * 1000 + 7, h * 1000 + 7, h, r);
    EddiEditReport report = {0};
    EddiError err;
    double start = bench_now_ms();
    int rc = eddi_edit_hashline(engine->workspace, NULL, input.data, input.len, &report, &err);
    t[r] = bench_now_ms() - start;
    if (rc < 0) fprintf(stderr, "hashline: %s\n", err.what);
    eddi_edit_report_free(&report);
    eddi_strbuf_free(&input);
  }
  double hashline = bench_median(t, RUNS);
  printf("hashline Edit, %d hunks: median %.3f ms (target <= 1 ms), %.2fx reference "
         "(target <= 3x)\n", HUNKS, hashline, hashline / reference);

  /* apply_patch: 10 chunks with context, found by the matcher. */
  write_file(text.data, text.len);
  for (int r = 0; r < RUNS; r++) {
    StrBuf patch = {0};
    eddi_strbuf_puts(&patch, "*** Begin Patch\n*** Update File: big.py\n");
    for (int h = 0; h < HUNKS; h++) {
      int line = h * 1000 + 20;
      eddi_strbuf_printf(&patch, "@@\n     value_%05d = compute(%d, \"item %d\")  # v0\n", line - 1,
                    line - 1, line - 1);
      eddi_strbuf_printf(&patch, "-%s    value_%05d = compute(%d, \"item %d\")  # v%d\n",
                    "", line, line, line, r == 0 ? 0 : r - 1);
      eddi_strbuf_printf(&patch, "+    value_%05d = compute(%d, \"item %d\")  # v%d\n", line, line,
                    line, r);
    }
    eddi_strbuf_puts(&patch, "*** End Patch\n");
    EddiEditReport report = {0};
    EddiError err;
    double start = bench_now_ms();
    int rc = eddi_edit_apply_patch(engine->workspace, NULL, patch.data, patch.len, &report, &err);
    t[r] = bench_now_ms() - start;
    if (rc < 0) fprintf(stderr, "apply_patch: %s\n", err.what);
    eddi_edit_report_free(&report);
    eddi_strbuf_free(&patch);
  }
  double patch = bench_median(t, RUNS);
  printf("apply_patch, %d chunks: median %.3f ms (target <= 1 ms), %.2fx reference "
         "(target <= 3x)\n", HUNKS, patch, patch / reference);

  /* Stale-tag rebase: Read, someone inserts a line at the top, Edit with the old tag. */
  char *reply = eddi_exec(engine, "bench", "Start bench", 11);
  eddi_string_free(reply);
  EddiSession *session = eddi_sessions_by_sender(engine->sessions, "bench");
  for (int r = 0; r < RUNS; r++) {
    StrBuf base = {0};
    make_text(&base, r);
    write_file(base.data, base.len);
    StrBuf shown = {0};
    EddiError err;
    eddi_edit_read(engine->workspace, session, "big.py", 1, 10, &shown, &err);
    char tag[5];
    eddi_hashline_tag(base.data, base.len, tag);
    StrBuf moved = {0};
    eddi_strbuf_puts(&moved, "# a header someone added\n");
    eddi_strbuf_append(&moved, base.data, base.len);
    write_file(moved.data, moved.len);
    StrBuf input = {0};
    eddi_strbuf_printf(&input, "[big.py#%s]\n", tag);
    for (int h = 0; h < HUNKS; h++)
      eddi_strbuf_printf(&input, "PUT %d.=%d:\n+    rebased_%d = %d\n", h * 1000 + 9, h * 1000 + 9,
                    h, r);
    EddiEditReport report = {0};
    double start = bench_now_ms();
    int rc = eddi_edit_hashline(engine->workspace, session, input.data, input.len, &report, &err);
    t[r] = bench_now_ms() - start;
    if (rc < 0) fprintf(stderr, "rebase: %s\n", err.what);
    eddi_edit_report_free(&report);
    eddi_strbuf_free(&input);
    eddi_strbuf_free(&moved);
    eddi_strbuf_free(&shown);
    eddi_strbuf_free(&base);
  }
  double rebase = bench_median(t, RUNS);
  printf("stale-tag rebase + %d hunks: median %.3f ms (target <= 5 ms)\n", HUNKS, rebase);

  eddi_engine_free(engine);
  eddi_strbuf_free(&text);
  unlink(path);
  rmdir(dir);
  return 0;
}
