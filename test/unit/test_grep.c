/* test_grep.c - the workspace Grep (edit/grep.c) through eddi_exec.
 *
 * - Its hits against a plain reference: every line of every text file
 *   matched alone with pcre2, for patterns of each of Grep's three ways of
 *   searching (whole buffer, whole buffer with each candidate line
 *   confirmed, line by line), over files with CRLF, a BOM, no final
 *   newline, blank lines, a binary file and one that is not UTF-8, and
 *   every page of a pattern with more hits than a page.
 * - .gitignore and .ignore as ripgrep applies them: a fixed answer, and the
 *   same file set as `rg -l` when rg is installed.
 * - The walk's entry limit (max_walk_entries) does not cut a Grep short:
 *   a folder of 100,100 files is searched whole, a page at a time, every
 *   match exactly once, while the Grep holds a bounded number of
 *   allocations.
 * - An open document is searched as it is in the session.
 * - A running engine's cache (a waker is set) sees a file that changed. */
#define _GNU_SOURCE
#include "unit_support.h"

#include <fcntl.h>
#include <sys/time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "core/common.h"
#include "edit/edit_formats.h"
#include "eddi.h"

/* Grep's page, as edit/edit_formats.h has it. */
#define GREP_PAGE 200

typedef struct {
  char **items;
  size_t len;
} Lines;

static void lines_push(Lines *self, const char *text, size_t len) {
  self->items = realloc(self->items, (self->len + 1) * sizeof *self->items);
  self->items[self->len++] = strndup(text, len);
}

static void lines_free(Lines *self) {
  for (size_t i = 0; i < self->len; i++) free(self->items[i]);
  free(self->items);
  memset(self, 0, sizeof *self);
}

static void lines_assert_equal(const Lines *a, const Lines *b, const char *what) {
  for (size_t i = 0; i < a->len && i < b->len; i++)
    if (strcmp(a->items[i], b->items[i]) != 0)
      fail_msg("%s: row %zu is '%s', expected '%s'", what, i, a->items[i], b->items[i]);
  if (a->len != b->len) fail_msg("%s: %zu rows, expected %zu", what, a->len, b->len);
}

static void put(const char *root, const char *rel, const char *text, size_t len) {
  char path[PATH_MAX];
  unit_path(path, root, rel);
  for (char *slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
  }
  unit_write_file(path, text, len);
}

static void put_text(const char *root, const char *rel, const char *text) {
  put(root, rel, text, strlen(text));
}

static char *exec_text(EddiEngine *engine, const char *text) {
  return eddi_exec(engine, "tester", text, strlen(text));
}

static EddiEngine *engine_paged(const char *root, size_t max_walk_entries, size_t page_size) {
  EddiConfig config;
  eddi_config_default(&config);
  if (max_walk_entries) config.max_walk_entries = max_walk_entries;
  if (page_size) config.page_size = page_size;
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  char *reply = exec_text(engine, "Start s\nSet response_format raw");
  eddi_string_free(reply);
  return engine;
}

static EddiEngine *engine_started(const char *root, size_t max_walk_entries) {
  return engine_paged(root, max_walk_entries, 0);
}

/* Every page of Grep <pattern> as "path:line:text" rows. */
static void grep_rows(EddiEngine *engine, const char *pattern, Lines *out) {
  for (size_t offset = 0;; offset += GREP_PAGE) {
    char command[512];
    snprintf(command, sizeof command, "Grep %s %zu", pattern, offset);
    char *reply = eddi_exec(engine, "tester", command, strlen(command));
    if (strncmp(reply, "Ok", 2) != 0) fail_msg("%s: %s", command, reply);
    size_t rows = 0;
    char file[PATH_MAX] = "";
    for (char *line = reply, *next; *line; line = next) {
      char *nl = strchr(line, '\n');
      next = nl ? nl + 1 : line + strlen(line);
      size_t len = nl ? (size_t)(nl - line) : strlen(line);
      char *hash = memrchr(line, '#', len);
      if (line[0] == '[' && hash && line[len - 1] == ']' && !memmem(line, len, "Showing", 7)) {
        snprintf(file, sizeof file, "%.*s", (int)(hash - line - 1), line + 1);
      } else if (file[0] && line[0] >= '0' && line[0] <= '9') {
        char row[PATH_MAX + 512];
        int n = snprintf(row, sizeof row, "%s:%.*s", file, (int)len, line);
        lines_push(out, row, (size_t)n);
        rows++;
      }
    }
    eddi_string_free(reply);
    if (rows < GREP_PAGE) break;
  }
}

/* ---------------------------------------------------------------- against a plain reference */

/* name, bytes (len; 0: strlen), decoded text for the reference (NULL: not
 * searched); in strcmp order, which is the walk's here (no folders). */
typedef struct {
  const char *name;
  const char *bytes;
  size_t len;
  const char *text;
} Sample;

static const Sample samples[] = {
    {"a.txt", "x y\nx\ny\n\n\nend\nthe end. end\nfoo bar\nfoo  bar\n", 0, ""},
    {"b.txt", "no final newline x  \ty", 0, ""},
    {"c.txt", "line one\r\nx\r\ny end\r\n", 0, "line one\nx\ny end\n"},
    {"d.txt", "\xEF\xBB\xBFwith bom x\nend\n", 0, "with bom x\nend\n"},
    {"e.bin", "x y\0end\n", 8, NULL},
    {"f.txt", "not utf-8 \xFF x y end\n", 0, NULL},
    {"g.txt", "", 0, ""},
    {"h.txt", "\n\n", 0, ""},
    {"i.txt", "a\nc abc a-c aXc\nq\n  q\ncaf\xC3\xA9 x\n", 0, ""},
};

/* The patterns as Grep takes them, and as pcre2 compiles them. */
static const struct {
  const char *grep;
  const char *regex;
  uint32_t options;
} patterns[] = {
    {"/end/", "end", 0},
    {"\"x y\"", "\\Qx y\\E", 0},
    {"/^$/", "^$", 0},
    {"/^/", "^", 0},
    {"/$/", "$", 0},
    {"/x\\s+y/", "x\\s+y", 0},
    {"/a[^b]c/", "a[^b]c", 0},
    {"/x(?=\\s*$)/", "x(?=\\s*$)", 0},
    {"/\\s*+q/", "\\s*+q", 0},
    {"/(?>x\\s)/", "(?>x\\s)", 0},
    {"/\\bend\\b/", "\\bend\\b", 0},
    {"/foo\\K bar/", "foo\\K bar", 0},
    {"/a.c/s", "a.c", PCRE2_DOTALL},
    {"/y\\Z/", "y\\Z", 0},
    {"/\\n/", "\\n", 0},
    {"/X$/i", "X$", PCRE2_CASELESS},
    {"/caf./", "caf.", 0},
};

/* Each line of each sample matched alone. */
static void reference_rows(const char *regex, uint32_t options, Lines *out) {
  int code;
  PCRE2_SIZE at;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED,
                                 PCRE2_UTF | PCRE2_MULTILINE | options, &code, &at, NULL);
  assert_non_null(re);
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
  for (size_t s = 0; s < sizeof samples / sizeof *samples; s++) {
    const char *text = samples[s].text;
    if (!text) continue;
    if (!text[0]) text = samples[s].bytes;
    size_t len = strlen(text), line = 1;
    for (size_t p = 0; p < len; line++) {
      const char *nl = memchr(text + p, '\n', len - p);
      size_t end = nl ? (size_t)(nl - text) : len;
      if (pcre2_match(re, (PCRE2_SPTR)(text + p), end - p, 0, 0, md, NULL) > 0) {
        char row[512];
        int n = snprintf(row, sizeof row, "%s:%zu:%.*s", samples[s].name, line,
                         (int)(end - p), text + p);
        lines_push(out, row, (size_t)n);
      }
      p = end + 1;
    }
  }
  pcre2_match_data_free(md);
  pcre2_code_free(re);
}

static void test_hits_as_line_by_line(void **state) {
  const char *root = *state;
  for (size_t s = 0; s < sizeof samples / sizeof *samples; s++)
    put(root, samples[s].name, samples[s].bytes,
        samples[s].len ? samples[s].len : strlen(samples[s].bytes));
  long live = unit_live();
  EddiEngine *engine = engine_started(root, 0);
  for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
    Lines got = {0}, expected = {0};
    grep_rows(engine, patterns[p].grep, &got);
    reference_rows(patterns[p].regex, patterns[p].options, &expected);
    lines_assert_equal(&got, &expected, patterns[p].grep);
    lines_free(&got);
    lines_free(&expected);
  }
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* More hits than a page, over several files: every page, in order. */
static void test_pages(void **state) {
  const char *root = *state;
  char text[64 * 1024];
  size_t len = 0;
  for (int i = 0; i < 450; i++) len += (size_t)sprintf(text + len, "hit %d\nmiss\n", i);
  put(root, "a/one.txt", text, len);
  len = 0;
  for (int i = 0; i < 225; i++) len += (size_t)sprintf(text + len, "hit %d\nmiss\n", i);
  put(root, "b/two.txt", text, len);
  put_text(root, "c.txt", "hit last\n");
  long live = unit_live();
  EddiEngine *engine = engine_started(root, 0);
  Lines got = {0};
  grep_rows(engine, "/hit/", &got);
  assert_int_equal(got.len, 450 + 225 + 1);
  assert_string_equal(got.items[0], "a/one.txt:1:hit 0");
  assert_string_equal(got.items[449], "a/one.txt:899:hit 449");
  assert_string_equal(got.items[450], "b/two.txt:1:hit 0");
  assert_string_equal(got.items[675], "c.txt:1:hit last");
  lines_free(&got);
  char *reply = exec_text(engine, "Set response_format escaped\nGrep /hit/ 670");
  assert_string_equal(reply, "Ok\nOk: [b/two.txt#6FFA]\\n441:hit 220\\n443:hit 221\\n445:hit 222\\n"
                             "447:hit 223\\n449:hit 224\\n[c.txt#3954]\\n1:hit last");
  eddi_string_free(reply);
  reply = exec_text(engine, "Grep /hit/ 676");
  assert_string_equal(reply, "Ok: No matches past offset 676 (676 in all)");
  eddi_string_free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- ignore rules */

static void ignore_tree(const char *root) {
  char path[PATH_MAX];
  unit_path(path, root, ".git");
  mkdir(path, 0755);
  put_text(root, ".gitignore", "*.log\n!keep.log\n/build/\ndocs/**/draft*\n*.tmp\n/top.txt\n");
  put_text(root, ".ignore", "!important.tmp\n");
  put_text(root, ".hidden.txt", "hit\n");
  put_text(root, "a.txt", "hit\n");
  put_text(root, "b.log", "hit\n");
  put_text(root, "keep.log", "hit\n");
  put_text(root, "important.tmp", "hit\n");
  put_text(root, "other.tmp", "hit\n");
  put_text(root, "top.txt", "hit\n");
  put_text(root, "build/out.txt", "hit\n");
  put_text(root, "docs/x/draft1.md", "hit\n");
  put_text(root, "docs/x/final.md", "hit\n");
  put_text(root, "src/top.txt", "hit\n");
  put_text(root, "src/build/in.txt", "hit\n");
  put_text(root, "src/.gitignore", "*.c\n!keep.c\n");
  put_text(root, "src/a.c", "hit\n");
  put_text(root, "src/keep.c", "hit\n");
  put_text(root, "src/sub/b.c", "hit\n");
  put_text(root, "src/sub/b.h", "hit\n");
  put_text(root, "nested/.git/HEAD", "ref\n");
  put_text(root, "nested/x.log", "hit\n");
}

static void grep_files(EddiEngine *engine, Lines *out) {
  Lines rows = {0};
  grep_rows(engine, "/hit/", &rows);
  for (size_t i = 0; i < rows.len; i++) *strchr(rows.items[i], ':') = '\0', lines_push(out, rows.items[i], strlen(rows.items[i]));
  lines_free(&rows);
}

static int by_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_ignore_rules_as_ripgrep(void **state) {
  const char *root = *state;
  ignore_tree(root);
  long live = unit_live();
  EddiEngine *engine = engine_started(root, 0);
  Lines got = {0};
  grep_files(engine, &got);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  const char *expected[] = {"a.txt", "docs/x/final.md", "important.tmp", "keep.log",
                            "nested/x.log", "src/build/in.txt", "src/keep.c", "src/sub/b.h",
                            "src/top.txt"};
  Lines want = {0};
  for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
    lines_push(&want, expected[i], strlen(expected[i]));
  lines_assert_equal(&got, &want, "Grep's files");
  lines_free(&want);
  /* The same set as ripgrep's, when it is there to ask. */
  char command[PATH_MAX + 64];
  snprintf(command, sizeof command, "cd '%s' && rg -l hit 2>/dev/null", root);
  FILE *rg = system("rg --version >/dev/null 2>&1") == 0 ? popen(command, "r") : NULL;
  if (rg) {
    Lines theirs = {0};
    char line[PATH_MAX];
    while (fgets(line, sizeof line, rg)) lines_push(&theirs, line, strcspn(line, "\n"));
    pclose(rg);
    qsort(theirs.items, theirs.len, sizeof *theirs.items, by_string);
    qsort(got.items, got.len, sizeof *got.items, by_string);
    lines_assert_equal(&got, &theirs, "Grep against rg -l");
    lines_free(&theirs);
  }
  lines_free(&got);
}

/* ---------------------------------------------------------------- the rest */

/* A walk limit of 3 entries over 6 files: Grep searches all 6 (the limit
 * is List's and the scripts', not Grep's), and the footer names the page. */
static void test_whole_past_walk_limit(void **state) {
  const char *root = *state;
  char text[8192];
  size_t len = 0;
  for (int i = 0; i < 300; i++) len += (size_t)sprintf(text + len, "hit\n");
  for (int i = 0; i < 6; i++) {
    char name[32];
    snprintf(name, sizeof name, "f%d.txt", i);
    put(root, name, text, len);
  }
  long live = unit_live();
  EddiEngine *engine = engine_started(root, 3);
  char *reply = exec_text(engine, "Set response_format escaped\nGrep \"hit\" 190");
  const char *tail = "\\n[Showing matches 191-390 of 1800 (200 a page). Grep again with offset 390]";
  assert_non_null(strstr(reply, "Ok\nOk: [f0.txt#"));
  assert_non_null(strstr(reply, "\\n300:hit\\n[f1.txt#"));
  assert_true(strlen(reply) > strlen(tail));
  assert_string_equal(reply + strlen(reply) - strlen(tail), tail);
  eddi_string_free(reply);
  reply = exec_text(engine, "Grep \"hit\" 1700");
  assert_non_null(strstr(reply, "Ok: [f5.txt#"));
  assert_string_equal(reply + strlen(reply) - strlen("\\n300:hit"), "\\n300:hit");
  assert_null(strstr(reply, "Showing"));
  eddi_string_free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- a large folder */

/* One folder of more entries than the default walk limit (100,000). */
#define LARGE_FOLDER_FILES 100100
#define LARGE_FOLDER_MATCHES 120
#define LARGE_FOLDER_PAGE 50
/* Live allocations a Grep over it may hold at once: its queue of files
 * (edit/grep.c) and the walk's folder, not one or two per file. */
#define LARGE_FOLDER_ALLOCATIONS_MAX 20000

/* The file holding match k, spread evenly up to the last file. */
static size_t large_folder_match_file(size_t k) {
  return k * LARGE_FOLDER_FILES / LARGE_FOLDER_MATCHES + LARGE_FOLDER_FILES / LARGE_FOLDER_MATCHES - 1;
}

/* Its scratch folder: in memory (/dev/shm) where there is one, as making
 * and removing 100,100 files on a disk takes minutes; else the test's own. */
static void large_folder_root(const char *fallback, char out[PATH_MAX]) {
  struct stat st;
  char pattern[PATH_MAX];
  snprintf(pattern, sizeof pattern, "/dev/shm/eddi-unit-XXXXXX");
  if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && mkdtemp(pattern) &&
      realpath(pattern, out))
    return;
  snprintf(out, PATH_MAX, "%s", fallback);
}

static void test_large_folder_pages(void **state) {
  char root[PATH_MAX], path[PATH_MAX + 32], text[64];
  large_folder_root(*state, root);
  size_t next_match = 0;
  for (size_t i = 0; i < LARGE_FOLDER_FILES; i++) {
    int len;
    if (next_match < LARGE_FOLDER_MATCHES && i == large_folder_match_file(next_match)) {
      /* On line 1, 2 or 3, after lines that do not match. */
      len = snprintf(text, sizeof text, "%.*sneedle %03zu\n", (int)(next_match % 3) * 2, "x\nx\n",
                     next_match);
      next_match++;
    } else {
      len = snprintf(text, sizeof text, "needl %zu\n", i);
    }
    snprintf(path, sizeof path, "%s/f%06zu.txt", root, i);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, (size_t)len), len);
    close(fd);
  }
  assert_int_equal(next_match, LARGE_FOLDER_MATCHES);
  long live = unit_live();
  EddiEngine *engine = engine_paged(root, 0, LARGE_FOLDER_PAGE);
  size_t rows = 0; /* hit rows in the replies */
  eddi_alloc_peak_reset();
  long before = unit_live();
  size_t pages = 0;
  for (size_t offset = 0; offset < LARGE_FOLDER_MATCHES; offset += LARGE_FOLDER_PAGE, pages++) {
    char command[64];
    snprintf(command, sizeof command, "Grep /needle \\d+/ %zu", offset);
    char *reply = exec_text(engine, command);
    size_t end = EDDI_MIN(offset + LARGE_FOLDER_PAGE, (size_t)LARGE_FOLDER_MATCHES);
    char footer[128] = "";
    if (end < LARGE_FOLDER_MATCHES)
      snprintf(footer, sizeof footer,
               "[Showing matches %zu-%zu of %d (%d a page). Grep again with offset %zu]\n",
               offset + 1, end, LARGE_FOLDER_MATCHES, LARGE_FOLDER_PAGE, end);
    /* Each file's header and its hit, then the footer, and nothing else. */
    StrBuf want = {0};
    eddi_strbuf_puts(&want, "Ok\n"); /* raw: the payload on its own lines */
    for (size_t k = offset; k < end; k++) {
      snprintf(path, sizeof path, "%s/f%06zu.txt", root, large_folder_match_file(k));
      size_t len = 0;
      char *bytes = unit_read_file(path, &len);
      char tag[5];
      eddi_hashline_tag(bytes, len, tag);
      free(bytes);
      eddi_strbuf_printf(&want, "[f%06zu.txt#%s]\n%zu:needle %03zu\n", large_folder_match_file(k),
                         tag, k % 3 + 1, k);
    }
    eddi_strbuf_puts(&want, footer);
    want.data[--want.len] = '\0'; /* the reply's last newline is not sent */
    for (const char *at = reply; (at = strstr(at, ":needle ")); at++) rows++;
    assert_string_equal(reply, want.data);
    eddi_strbuf_free(&want);
    eddi_string_free(reply);
  }
  long peak = eddi_alloc_peak() - before;
  if (peak > LARGE_FOLDER_ALLOCATIONS_MAX)
    fail_msg("the Grep held %ld allocations at once, more than %d", peak,
             LARGE_FOLDER_ALLOCATIONS_MAX);
  assert_int_equal(pages, 3);
  assert_int_equal(rows, LARGE_FOLDER_MATCHES);
  char *reply = exec_text(engine, "Grep /needle \\d+/ 120");
  assert_string_equal(reply, "Ok\nNo matches past offset 120 (120 in all)");
  eddi_string_free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  if (strcmp(root, *state) != 0) unit_remove_tree(root);
}

static void test_open_document_wins(void **state) {
  const char *root = *state;
  put_text(root, "a.py", "old = 1\n");
  long live = unit_live();
  EddiEngine *engine = engine_started(root, 0);
  char *reply = exec_text(engine, "Open a.py\nInsert Line \"new = 2\"\nSet response_format escaped\n"
                          "Grep /new|old/");
  assert_non_null(strstr(reply, "Ok: [a.py#"));
  assert_non_null(strstr(reply, "\\n1:new = 2\\n2:old = 1"));
  eddi_string_free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void noop_waker(void *closure) { (void)closure; }

/* Give path an mtime of seconds ago (older than the cache's settle time). */
static void age(const char *root, const char *rel, long seconds) {
  char path[PATH_MAX];
  unit_path(path, root, rel);
  struct timeval now, times[2];
  gettimeofday(&now, NULL);
  times[0] = times[1] = (struct timeval){.tv_sec = now.tv_sec - seconds};
  assert_int_equal(utimes(path, times), 0);
}

static void test_cache_sees_changes(void **state) {
  const char *root = *state;
  put_text(root, "a.txt", "alpha\n");
  put_text(root, "b.txt", "beta\n");
  age(root, "a.txt", 100), age(root, "b.txt", 100);
  long live = unit_live();
  EddiEngine *engine = engine_started(root, 0);
  eddi_engine_set_waker(engine, noop_waker, NULL);
  Lines got = {0};
  grep_rows(engine, "/a$/", &got);
  assert_int_equal(got.len, 2);
  lines_free(&got);
  /* Same size, an older mtime again: the stamp (mtime, ctime) still differs. */
  put_text(root, "a.txt", "gamma\n");
  age(root, "a.txt", 50);
  put_text(root, "c.txt", "delta\n");
  grep_rows(engine, "/a$/", &got);
  assert_int_equal(got.len, 3);
  assert_string_equal(got.items[0], "a.txt:1:gamma");
  assert_string_equal(got.items[2], "c.txt:1:delta");
  lines_free(&got);
  char path[PATH_MAX];
  unit_path(path, root, "b.txt");
  unlink(path);
  grep_rows(engine, "/a$/", &got);
  assert_int_equal(got.len, 2);
  lines_free(&got);
  /* A folder moved away and another made in its place: its files are
   * others now, whatever the watches saw. */
  put_text(root, "d/x.txt", "sigma\n");
  age(root, "d/x.txt", 100);
  grep_rows(engine, "/a$/", &got);
  assert_int_equal(got.len, 3);
  lines_free(&got);
  char moved[PATH_MAX];
  unit_path(path, root, "d");
  unit_path(moved, root, "e");
  assert_int_equal(rename(path, moved), 0);
  put_text(root, "d/x.txt", "kappa\n");
  age(root, "d/x.txt", 100);
  grep_rows(engine, "/a$/", &got);
  assert_int_equal(got.len, 4);
  assert_string_equal(got.items[2], "d/x.txt:1:kappa");
  assert_string_equal(got.items[3], "e/x.txt:1:sigma");
  lines_free(&got);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_hits_as_line_by_line, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_pages, unit_folder_setup, unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_ignore_rules_as_ripgrep, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_whole_past_walk_limit, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_large_folder_pages, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_open_document_wins, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_cache_sees_changes, unit_folder_setup,
                                      unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
