/* test_walk.c - the workspace walk (walk.h) over a scratch tree, and List
 * and Grep through eddi_exec where only a small entry limit shows them
 * stopping.
 *
 * The tree (made once; "->" is a symlink):
 *   .gitignore          *.log, build/, !keep.log, /only-root.txt
 *   .ignore             !important.log, !.env
 *   .git/info/exclude   excluded.txt
 *   .env .hidden a.txt b.log keep.log important.log only-root.txt excluded.txt
 *   build/out.txt
 *   src/.gitignore      *.tmp, !b.log
 *   src/b.log src/main.c src/only-root.txt src/x.tmp
 *   src/gen/.gitignore  *.c
 *   src/gen/made.c src/gen/kept.h
 *   sub/.git/           a nested repository: the root's *.log stops here
 *   sub/.git/info/exclude  a FIFO: opening it must not wait for a writer
 *   sub/x.log
 *   rules/.gitignore -> <outside>/rules (holds "*": never read, never listed)
 *   rules/f.txt
 *   in-link -> a.txt    dir-link -> src    loop/self -> ..
 *   out-link -> <outside>    dangling -> nowhere */
#include "unit_support.h"

#include "core/path.h"
#include "core/walk.h"
#include "eddi.h"

/* Both folders live in one scratch folder, removed as a whole. */
typedef struct {
  char scratch[PATH_MAX];
  char root[PATH_MAX];
  char outside[PATH_MAX];
} Workspace;

/* ---------------------------------------------------------------- the tree */

/* Make rel (and its folders) under root; a rel ending in '/' is a folder. */
static void put(const char *root, const char *rel, const char *text) {
  char path[PATH_MAX];
  unit_path(path, root, rel);
  for (char *slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = '\0';
    mkdir(path, 0755);
    *slash = '/';
  }
  if (rel[strlen(rel) - 1] != '/') unit_write_file(path, text, strlen(text));
}

static void link_to(const char *root, const char *rel, const char *target) {
  char path[PATH_MAX];
  unit_path(path, root, rel);
  assert_int_equal(symlink(target, path), 0);
}

static int workspace_setup(void **state) {
  Workspace *ws = calloc(1, sizeof *ws);
  unit_workspace_new(ws->scratch);
  unit_path(ws->root, ws->scratch, "root");
  unit_path(ws->outside, ws->scratch, "outside");
  assert_int_equal(mkdir(ws->root, 0755), 0);
  assert_int_equal(mkdir(ws->outside, 0755), 0);
  const char *r = ws->root;
  put(r, ".gitignore", "*.log\nbuild/\n!keep.log\n/only-root.txt\n");
  put(r, ".ignore", "!important.log\n!.env\n");
  put(r, ".git/info/exclude", "excluded.txt\n");
  static const char *const plain[] = {".env",          ".hidden",       "a.txt",
                                      "b.log",         "keep.log",      "important.log",
                                      "only-root.txt", "excluded.txt",  "build/out.txt",
                                      "src/b.log",     "src/main.c",    "src/only-root.txt",
                                      "src/x.tmp",     "src/gen/made.c", "src/gen/kept.h",
                                      "sub/x.log",     "rules/f.txt"};
  for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) put(r, plain[i], "hit\n");
  put(r, "src/.gitignore", "*.tmp\n!b.log\n");
  put(r, "src/gen/.gitignore", "*.c\n");
  put(r, "sub/.git/info/", "");
  char fifo[PATH_MAX];
  unit_path(fifo, r, "sub/.git/info/exclude");
  assert_int_equal(mkfifo(fifo, 0644), 0);
  put(ws->outside, "rules", "*\n");
  char outside_rules[PATH_MAX];
  unit_path(outside_rules, ws->outside, "rules");
  link_to(r, "rules/.gitignore", outside_rules);
  link_to(r, "in-link", "a.txt");
  link_to(r, "dir-link", "src");
  put(r, "loop/", "");
  link_to(r, "loop/self", "..");
  link_to(r, "out-link", ws->outside);
  link_to(r, "dangling", "nowhere");
  *state = ws;
  return 0;
}

static int workspace_teardown(void **state) {
  Workspace *ws = *state;
  unit_remove_tree(ws->scratch);
  free(ws);
  return 0;
}

/* ---------------------------------------------------------------- helpers */

/* One line per entry: its path, '/' after a folder, '@' after a link. */
static int collect(void *context, const EddiWalkEntry *entry) {
  StrBuf *out = context;
  assert_int_equal(entry->rel_len, strlen(entry->rel));
  assert_string_equal(entry->name, eddi_path_basename(entry->rel));
  eddi_strbuf_printf(out, "%s%s%s\n", entry->rel, entry->is_dir ? "/" : "",
                     entry->is_link ? "@" : "");
  return EDDI_WALK_CONTINUE;
}

/* The listing of a walk with options; a new string to free with eddi_free. */
static char *walk_listing(const Workspace *ws, EddiWalkOptions options, bool *truncated,
                          size_t *read) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  if (!options.max_entries) options.max_entries = 100000;
  EddiWalk *walk = eddi_walk_new(ws->root, &options);
  assert_int_equal(eddi_walk_run(walk, collect, &out), 0);
  if (truncated) *truncated = eddi_walk_truncated(walk);
  if (read) *read = eddi_walk_entries_read(walk);
  eddi_walk_free(walk);
  return eddi_strbuf_take(&out);
}

static void assert_listing(const Workspace *ws, EddiWalkOptions options, const char *expected) {
  long live = unit_live();
  bool truncated = true;
  char *got = walk_listing(ws, options, &truncated, NULL);
  assert_string_equal(got, expected);
  assert_false(truncated);
  eddi_free(got);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- rules */

static void test_default_walk(void **state) {
  const Workspace *ws = *state;
  assert_listing(ws, (EddiWalkOptions){0},
                 ".env\n"           /* hidden, but "!.env" in .ignore names it */
                 "a.txt\n"
                 "dir-link@\n"      /* a link to a folder: reported, not entered */
                 "important.log\n"  /* .ignore's "!" wins over .gitignore's *.log */
                 "in-link@\n"
                 "keep.log\n"       /* "!keep.log" after *.log */
                 "loop/\n"
                 "loop/self@\n"     /* -> .. : inside the root, never entered */
                 "rules/\n"
                 "rules/f.txt\n"    /* the symlinked .gitignore was not read */
                 "src/\n"
                 "src/b.log\n"      /* the deeper "!b.log" wins */
                 "src/gen/\n"
                 "src/gen/kept.h\n"
                 "src/main.c\n"
                 "src/only-root.txt\n" /* "/only-root.txt" is anchored at the root */
                 "sub/\n"
                 "sub/x.log\n");    /* inside a nested repository */
}

static void test_hidden_and_no_ignore(void **state) {
  const Workspace *ws = *state;
  assert_listing(ws, (EddiWalkOptions){.hidden = true, .max_depth = 1},
                 ".env\n.gitignore\n.hidden\n.ignore\na.txt\ndir-link@\nimportant.log\n"
                 "in-link@\nkeep.log\nloop/\nrules/\nsrc/\nsub/\n");
  assert_listing(ws, (EddiWalkOptions){.no_ignore = true, .max_depth = 1},
                 "a.txt\nb.log\nbuild/\ndir-link@\nexcluded.txt\nimportant.log\nin-link@\n"
                 "keep.log\nloop/\nonly-root.txt\nrules/\nsrc/\nsub/\n");
  assert_listing(ws, (EddiWalkOptions){.no_ignore = true, .hidden = true},
                 ".env\n.gitignore\n.hidden\n.ignore\na.txt\nb.log\nbuild/\nbuild/out.txt\n"
                 "dir-link@\nexcluded.txt\nimportant.log\nin-link@\nkeep.log\nloop/\n"
                 "loop/self@\nonly-root.txt\nrules/\nrules/f.txt\nsrc/\n"
                 "src/.gitignore\nsrc/b.log\nsrc/gen/\nsrc/gen/.gitignore\nsrc/gen/kept.h\n"
                 "src/gen/made.c\nsrc/main.c\nsrc/only-root.txt\nsrc/x.tmp\nsub/\nsub/x.log\n");
}

/* ---------------------------------------------------------------- order */

/* Every listing is in strcmp order of its paths, '/' after folders. */
static void test_order(void **state) {
  const Workspace *ws = *state;
  char *got = walk_listing(ws, (EddiWalkOptions){.no_ignore = true, .hidden = true}, NULL, NULL);
  char previous[PATH_MAX] = "";
  size_t lines = 0;
  for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n"), lines++) {
    size_t len = strlen(line);
    if (line[len - 1] == '@') line[len - 1] = '\0';
    assert_true(strcmp(previous, line) < 0);
    snprintf(previous, sizeof previous, "%s", line);
  }
  assert_true(lines > 20);
  eddi_free(got);
}

/* ---------------------------------------------------------------- limits */

static void test_truncation(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  size_t all = 0, read = 0;
  bool truncated = true;
  char *full = walk_listing(ws, (EddiWalkOptions){0}, &truncated, &all);
  assert_false(truncated);
  eddi_free(full);
  /* Exactly enough: nothing is left unread. */
  eddi_free(walk_listing(ws, (EddiWalkOptions){.max_entries = all}, &truncated, &read));
  assert_false(truncated);
  assert_int_equal(read, all);
  /* One short: the walk says so, and read no more than it may. */
  eddi_free(walk_listing(ws, (EddiWalkOptions){.max_entries = all - 1}, &truncated, &read));
  assert_true(truncated);
  assert_int_equal(read, all - 1);
  /* Three entries: the root's first three names read, at most those reported. */
  char *few = walk_listing(ws, (EddiWalkOptions){.max_entries = 3}, &truncated, &read);
  assert_true(truncated);
  assert_int_equal(read, 3);
  size_t lines = 0;
  for (const char *p = few; *p; p++) lines += *p == '\n';
  assert_true(lines <= 3);
  eddi_free(few);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- visitors */

typedef struct {
  int answer_at_src; /* what to answer for "src" */
  size_t seen;
  bool saw_inside_src;
} Steering;

static int steer(void *context, const EddiWalkEntry *entry) {
  Steering *s = context;
  s->seen++;
  if (strncmp(entry->rel, "src/", 4) == 0) s->saw_inside_src = true;
  return strcmp(entry->rel, "src") == 0 ? s->answer_at_src : EDDI_WALK_CONTINUE;
}

static void test_visitor_answers(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  EddiWalk *walk = eddi_walk_new(ws->root, &(EddiWalkOptions){.max_entries = 1000});
  Steering skip = {.answer_at_src = EDDI_WALK_SKIP};
  assert_int_equal(eddi_walk_run(walk, steer, &skip), 0);
  assert_false(skip.saw_inside_src);
  assert_true(skip.seen > 12); /* and went on after src */
  Steering stop = {.answer_at_src = EDDI_WALK_STOP};
  assert_int_equal(eddi_walk_run(walk, steer, &stop), 0);
  assert_int_equal(stop.seen, 11); /* src is the 11th entry; nothing after it */
  Steering error = {.answer_at_src = EDDI_EIO};
  assert_int_equal(eddi_walk_run(walk, steer, &error), EDDI_EIO);
  assert_int_equal(error.seen, 11);
  eddi_walk_free(walk);
  unit_assert_no_leak(live);
}

/* A link's stat is its target's; a link out of the root never shows. */
static int check_links(void *context, const EddiWalkEntry *entry) {
  size_t *links = context;
  if (!entry->is_link) return EDDI_WALK_CONTINUE;
  ++*links;
  if (strcmp(entry->rel, "in-link") == 0) assert_true(S_ISREG(entry->st.st_mode));
  if (strcmp(entry->rel, "dir-link") == 0) assert_true(S_ISDIR(entry->st.st_mode));
  assert_false(entry->is_dir);
  assert_null(strstr(entry->rel, "out-link"));
  assert_null(strstr(entry->rel, "dangling"));
  return EDDI_WALK_CONTINUE;
}

static void test_links(void **state) {
  const Workspace *ws = *state;
  size_t links = 0;
  EddiWalk *walk = eddi_walk_new(ws->root, &(EddiWalkOptions){.max_entries = 1000, .hidden = true});
  assert_int_equal(eddi_walk_run(walk, check_links, &links), 0);
  eddi_walk_free(walk);
  assert_int_equal(links, 3); /* in-link, dir-link, loop/self */
}

/* ---------------------------------------------------------------- List, Grep */

static void exchange(EddiEngine *engine, const char *message, const char *expected) {
  char *reply = eddi_exec(engine, "tester", message, strlen(message));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

/* An engine over the tree whose walks read at most max_walk_entries, with a
 * session started. */
static EddiEngine *engine_started(const Workspace *ws, size_t max_walk_entries) {
  EddiConfig config;
  eddi_config_default(&config);
  config.max_walk_entries = max_walk_entries;
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(ws->root, &config, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  exchange(engine, "Start s", "Ok");
  return engine;
}

static void test_list_and_grep(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  EddiEngine *engine = engine_started(ws, 100000);
  /* .env is hidden, but .ignore names it with "!.env". */
  exchange(engine, "List", "Ok: .env, a.txt, dir-link, important.log, in-link, keep.log, loop/, "
                           "rules/, src/, sub/");
  exchange(engine, "List *.log", "Ok: important.log, keep.log, src/b.log, sub/x.log");
  /* rules/.gitignore leads out of the root: not listed. */
  exchange(engine, "List .*", "Ok: .env, .gitignore, .hidden, .ignore, src/.gitignore, "
                              "src/gen/.gitignore");
  exchange(engine, "Grep /hit/ \"*.log\"",
           "Ok: [important.log#89C4]\\n1:hit\\n[keep.log#89C4]\\n1:hit\\n[src/b.log#89C4]\\n1:hit"
           "\\n[sub/x.log#89C4]\\n1:hit");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_list_and_grep_stop(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  EddiEngine *engine = engine_started(ws, 5);
  char *reply = eddi_exec(engine, "tester", "List Count *", 12);
  assert_non_null(strstr(reply, ", Stopped after 5 entries"));
  eddi_string_free(reply);
  /* Grep is not held to the limit: it searches the whole tree. */
  exchange(engine, "Grep /hit/ \"*.log\"",
           "Ok: [important.log#89C4]\\n1:hit\\n[keep.log#89C4]\\n1:hit\\n[src/b.log#89C4]\\n1:hit"
           "\\n[sub/x.log#89C4]\\n1:hit");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default_walk),
      cmocka_unit_test(test_hidden_and_no_ignore),
      cmocka_unit_test(test_order),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_visitor_answers),
      cmocka_unit_test(test_links),
      cmocka_unit_test(test_list_and_grep),
      cmocka_unit_test(test_list_and_grep_stop),
  };
  return cmocka_run_group_tests(tests, workspace_setup, workspace_teardown);
}
