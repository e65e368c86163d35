/* test_refactor_index.c - the kept workspace index (module/refactor/index.h).
 *
 * Real files in a scratch folder: which files a scan for some words
 * analyses (those holding a word, those their imports reach, package
 * files), that a rename planned over that part equals the one planned over
 * every file, that scanning again keeps what did not change and
 * follows what did (the disk, an open document's text), and that a
 * rename's new texts parsed from the kept trees give the trees and
 * analyses a parse from nothing gives. */
#include "unit_support.h"

#include <sys/stat.h>
#include <unistd.h>

#include "refactor/index.h"
#include "refactor/rename.h"
#include "refactor/kept_index.h"

/* Limits as the engine's defaults would give: far above what a test has. */
#define TEST_MAX_FILE_BYTES ((size_t)1 << 24)
#define TEST_MAX_ENTRIES    100000

static void write_at(const char *root, const char *rel, const char *text) {
  char path[PATH_MAX];
  unit_path(path, root, rel);
  char *slash = strrchr(path, '/');
  for (char *p = path + strlen(root) + 1; p <= slash; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  unit_write_file(path, text, strlen(text));
}

static bool has_source(RefIndex *index, const char *path) {
  return ref_index_source(index, path) != NULL;
}

static void scan(RefIndex *index, const char *root, const RefOpenTexts *open,
                 const char *const *words, size_t count) {
  EddiError err = {0};
  if (ref_index_scan_for(index, root, open, words, count, &err) < 0) fail_msg("%s", err.what);
}

/* "path: text" of every change of a plan, in order, into out. */
static void plan_text(RefIndex *index, const RefPlan *plan, StrBuf *out) {
  eddi_strbuf_puts(out, "");
  for (size_t i = 0; i < plan->changes.len; i++) {
    const RefChange *change = &plan->changes.items[i];
    eddi_strbuf_printf(out, "%s:\n%.*s", index->sources.items[change->source].path,
                       (int)change->after_len, change->after);
  }
  eddi_strbuf_printf(out, "unsure: %s\n", plan->unsure.data);
}

static void plan_rename(RefIndex *index, const char *spec, const char *new_name, StrBuf *out) {
  RefPlan plan;
  EddiError err = {0};
  if (ref_rename_plan(index, spec, new_name, 0, &plan, &err) < 0) fail_msg("%s", err.what);
  plan_text(index, &plan, out);
  ref_plan_free(&plan);
}

/* A method reached only through a module that never names it: user.py
 * calls obj.run(), obj comes from helpers.py, which holds a Lexer made from
 * base.py. helpers.py must be analysed although "run" is not in it. */
static void test_scan_follows_imports(void **state) {
  const char *root = *state;
  write_at(root, "pkg/__init__.py", "");
  write_at(root, "pkg/base.py", "class Lexer:\n    def run(self):\n        return 1\n");
  write_at(root, "pkg/helpers.py", "from pkg.base import Lexer\nobj = Lexer()\n");
  write_at(root, "user.py", "from pkg.helpers import obj\nobj.run()\n");
  write_at(root, "other.py", "x = 1\n");
  write_at(root, "data/table.py", "TABLE = [1, 2]\n");
  RefOpenTexts open = {0};
  const char *words[] = {"run", "go"};
  RefIndex part;
  ref_index_init(&part, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  scan(&part, root, &open, words, 2);
  assert_true(has_source(&part, "pkg/base.py"));
  assert_true(has_source(&part, "user.py"));
  assert_true(has_source(&part, "pkg/helpers.py"));
  assert_true(has_source(&part, "pkg/__init__.py"));
  assert_false(has_source(&part, "other.py"));
  assert_false(has_source(&part, "data/table.py"));
  assert_int_equal(part.sources.len, 4);
  assert_int_equal(part.held.len, 2);
  StrBuf filtered = {0}, whole = {0};
  plan_rename(&part, "Lexer.run", "go", &filtered);
  assert_string_equal(filtered.data, "pkg/base.py:\nclass Lexer:\n    def go(self):\n        return 1\n"
                                     "user.py:\nfrom pkg.helpers import obj\nobj.go()\n"
                                     "unsure: \n");
  RefIndex all;
  ref_index_init(&all, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  scan(&all, root, &open, NULL, 0);
  assert_int_equal(all.sources.len, 6);
  plan_rename(&all, "Lexer.run", "go", &whole);
  assert_string_equal(filtered.data, whole.data);
  eddi_strbuf_free(&filtered), eddi_strbuf_free(&whole);
  ref_index_free(&part), ref_index_free(&all);
}

/* Relative imports: from .. import helper in a/b/c.py reaches a/__init__.py
 * (a package file, always analysed), which re-exports from a/impl.py. */
static void test_scan_relative_imports(void **state) {
  const char *root = *state;
  write_at(root, "a/__init__.py", "from .impl import helper\n");
  write_at(root, "a/b/__init__.py", "");
  write_at(root, "a/b/c.py", "from .. import helper\nhelper.start()\n");
  write_at(root, "a/impl.py", "from .kinds import Worker\nhelper = Worker()\n");
  write_at(root, "a/kinds.py", "class Worker:\n    def start(self):\n        pass\n");
  write_at(root, "a/unrelated.py", "def start():\n    pass\n");
  RefOpenTexts open = {0};
  const char *words[] = {"start", "begin"};
  RefIndex index;
  ref_index_init(&index, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  scan(&index, root, &open, words, 2);
  assert_true(has_source(&index, "a/impl.py"));
  StrBuf out = {0};
  plan_rename(&index, "Worker.start", "begin", &out);
  assert_string_equal(out.data, "a/b/c.py:\nfrom .. import helper\nhelper.begin()\n"
                                "a/kinds.py:\nclass Worker:\n    def begin(self):\n        pass\n"
                                "unsure: \n");
  eddi_strbuf_free(&out);
  ref_index_free(&index);
}

/* Scanning again keeps the analysis of what is unchanged and makes a new
 * one for a file changed on disk, a file added, and an open document whose
 * text differs from the disk; a removed file leaves the index. */
static void test_rescan_follows_changes(void **state) {
  const char *root = *state;
  write_at(root, "a.py", "def f():\n    return 1\n");
  write_at(root, "b.py", "from a import f\nf()\n");
  write_at(root, "c.py", "import a\n");
  RefOpenTexts open = {0};
  RefIndex index;
  ref_index_init(&index, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  scan(&index, root, &open, NULL, 0);
  assert_int_equal(index.sources.len, 3);
  RefFile *a = ref_index_source(&index, "a.py")->file;
  RefFile *b = ref_index_source(&index, "b.py")->file;
  size_t b_occurrences = b->occs.len, a_symbols = a->syms.len;
  scan(&index, root, &open, NULL, 0);
  assert_ptr_equal(ref_index_source(&index, "a.py")->file, a);
  assert_ptr_equal(ref_index_source(&index, "b.py")->file, b);
  /* b.py changes on disk (another size, so its stat differs whatever the
   * clock's grain), d.py appears, c.py goes. */
  write_at(root, "b.py", "from a import f\nf()\nf()\n");
  write_at(root, "d.py", "from a import f\n");
  char path[PATH_MAX];
  unit_path(path, root, "c.py");
  assert_int_equal(unlink(path), 0);
  scan(&index, root, &open, NULL, 0);
  assert_ptr_equal(ref_index_source(&index, "a.py")->file, a);
  RefSource *changed = ref_index_source(&index, "b.py");
  assert_int_equal(changed->file->occs.len, b_occurrences + 1); /* the new f() */
  assert_int_equal(changed->len, strlen("from a import f\nf()\nf()\n"));
  assert_true(has_source(&index, "d.py"));
  assert_false(has_source(&index, "c.py"));
  /* An open document's text wins over the disk's. */
  const char *edited_text = "def f():\n    return 2\n\ndef g():\n    pass\n";
  RefOpenText doc = {eddi_strdup("a.py"), eddi_strdup(edited_text), 0};
  doc.len = strlen(doc.text);
  array_push(&open, doc);
  scan(&index, root, &open, NULL, 0);
  RefSource *edited = ref_index_source(&index, "a.py");
  assert_true(edited->open);
  assert_int_equal(edited->file->syms.len, a_symbols + 1); /* g */
  assert_int_equal(edited->len, strlen(edited_text));
  assert_memory_equal(edited->text, edited_text, edited->len);
  /* The same open text again: its analysis is kept. */
  RefFile *kept = edited->file;
  scan(&index, root, &open, NULL, 0);
  assert_ptr_equal(ref_index_source(&index, "a.py")->file, kept);
  ref_open_texts_free(&open);
  ref_index_free(&index);
}

/* Many files analysed on several threads give the same plan as files added
 * one by one on this thread. */
static void test_parallel_equals_serial(void **state) {
  const char *root = *state;
  enum { FILES = 40 };
  write_at(root, "core.py", "def shared(x):\n    return x\n");
  StrBuf text = {0};
  for (int i = 0; i < FILES; i++) {
    char rel[64];
    snprintf(rel, sizeof rel, "m%02d.py", i);
    eddi_strbuf_clear(&text);
    eddi_strbuf_printf(&text,
                       "from core import shared\n\nclass K%d:\n    def shared(self):\n"
                       "        return shared(%d)\n\nvalue = shared(K%d().shared())\n",
                       i, i, i);
    write_at(root, rel, text.data);
  }
  RefOpenTexts open = {0};
  RefIndex parallel;
  ref_index_init(&parallel, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  scan(&parallel, root, &open, NULL, 0);
  assert_int_equal(parallel.sources.len, FILES + 1);
  RefIndex serial;
  ref_index_init(&serial, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  for (size_t i = 0; i < parallel.sources.len; i++) {
    const RefSource *source = &parallel.sources.items[i];
    EddiError err = {0};
    assert_int_equal(ref_index_add(&serial, source->path, source->text, source->len, false, &err),
                     0);
  }
  StrBuf a = {0}, b = {0};
  plan_rename(&parallel, "core.py:shared", "common", &a);
  plan_rename(&serial, "core.py:shared", "common", &b);
  assert_string_equal(a.data, b.data);
  assert_non_null(strstr(a.data, "m07.py:\nfrom core import common\n\nclass K7:\n    def shared(self):\n"
                                 "        return common(7)\n\nvalue = common(K7().shared())\n"));
  eddi_strbuf_free(&a), eddi_strbuf_free(&b), eddi_strbuf_free(&text);
  ref_index_free(&parallel), ref_index_free(&serial);
}

/* The tree a rename's change was parsed to from its source's kept tree,
 * and a fresh parse of the same text, as S-expressions must agree; and so
 * must the analyses, occurrence for occurrence. Names longer and shorter,
 * several on a line, after multi-byte characters and on later lines. */
static void check_incremental(RefIndex *index, const char *root, const char *spec,
                              const char *new_name) {
  /* Scanned for the rename's words, as the engine does (workspace.h). */
  RefScanWords words = {0};
  ref_rename_scan_words(spec, new_name, &words);
  RefOpenTexts open = {0};
  scan(index, root, &open, (const char *const *)words.items, words.len);
  ref_scan_words_free(&words);
  /* A file without the words keeps no tree. */
  assert_non_null(ref_index_source(index, "other.py"));
  assert_null(ref_index_source(index, "other.py")->tree);
  RefPlan plan;
  EddiError err = {0};
  if (ref_rename_plan(index, spec, new_name, 0, &plan, &err) < 0) fail_msg("%s", err.what);
  assert_true(plan.changes.len > 0);
  for (size_t i = 0; i < plan.changes.len; i++) {
    const RefChange *change = &plan.changes.items[i];
    const RefSource *source = &index->sources.items[change->source];
    assert_non_null(source->tree);
    assert_non_null(change->after_tree);
    RefFile *fresh;
    TSTree *tree;
    RefFileText after = {.path = source->path, .lang = source->lang, .text = change->after,
                         .len = change->after_len};
    assert_int_equal(ref_file_analyze_tree(&after, &index->names, &fresh, &tree, &err), 0);
    char *a = ts_node_string(ts_tree_root_node(change->after_tree));
    char *b = ts_node_string(ts_tree_root_node(tree));
    assert_string_equal(a, b);
    free(a), free(b);
    const RefFile *kept = change->after_file;
    assert_int_equal(kept->occs.len, fresh->occs.len);
    for (size_t k = 0; k < fresh->occs.len; k++) {
      assert_int_equal(kept->occs.items[k].start, fresh->occs.items[k].start);
      assert_int_equal(kept->occs.items[k].name, fresh->occs.items[k].name);
      assert_int_equal(kept->occs.items[k].sym, fresh->occs.items[k].sym);
    }
    ts_tree_delete(tree);
    ref_file_free(fresh);
  }
  ref_plan_free(&plan);
}

static void test_rename_reparses_from_kept_trees(void **state) {
  const char *root = *state;
  write_at(root, "lib.py", "# \xc3\xa9t\xc3\xa9\ndef total(a, b):\n    return a + b\n\n\n"
                           "def twice(x):\n    return total(x, x) + total(x, 0)\n");
  write_at(root, "use.py", "import other\nfrom lib import total\n\n\nclass Cart:\n    def sum(self):\n"
                           "        s = \"\xe2\x82\xac\"; return total(1, 2) * total(3, 4)\n\n"
                           "print(total(5, 6))\n");
  write_at(root, "other.py", "import lib\n");
  RefIndex index;
  ref_index_init(&index, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  check_incremental(&index, root, "lib.py:total", "grand_total");
  check_incremental(&index, root, "lib.py:total", "t");
  check_incremental(&index, root, "lib.py:twice.x", "value");
  ref_index_free(&index);
}

/* A rename planned over an index is kept for the same rename while a
 * scan finds nothing changed (a Refactor after its Preview); a change on
 * disk, another new name or other flags make it plan anew. */
static void test_rename_plan_kept(void **state) {
  const char *root = *state;
  write_at(root, "lib.py", "def total(a):\n    return a\n");
  write_at(root, "use.py", "from lib import total\nprint(total(1))\n");
  const char *words[] = {"total", "sum_of"};
  RefOpenTexts open = {0};
  RefIndex index;
  ref_index_init(&index, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  scan(&index, root, &open, words, 2);
  StrBuf first = {0}, again = {0};
  plan_rename(&index, "lib.py:total", "sum_of", &first);
  scan(&index, root, &open, words, 2);
  RefPlan kept;
  assert_int_equal(ref_rename_plan_kept(&index, "lib.py:total", "sum_of", 0, &kept), 0);
  plan_text(&index, &kept, &again);
  assert_string_equal(first.data, again.data);
  assert_null(kept.changes.items[0].after_file);
  ref_plan_free(&kept);
  assert_int_equal(ref_rename_plan_kept(&index, "lib.py:total", "other", 0, &kept), EDDI_ENOENT);
  assert_int_equal(ref_rename_plan_kept(&index, "lib.py:total", "sum_of", 1, &kept), EDDI_ENOENT);
  /* Changed on disk (another size, so the stat differs): planned anew. */
  write_at(root, "use.py", "from lib import total\nprint(total(22))\n");
  scan(&index, root, &open, words, 2);
  assert_int_equal(ref_rename_plan_kept(&index, "lib.py:total", "sum_of", 0, &kept), EDDI_ENOENT);
  eddi_strbuf_free(&first), eddi_strbuf_free(&again);
  ref_index_free(&index);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_scan_follows_imports, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_scan_relative_imports, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_rescan_follows_changes, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_parallel_equals_serial, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_rename_reparses_from_kept_trees, unit_folder_setup,
                                      unit_folder_teardown),
      cmocka_unit_test_setup_teardown(test_rename_plan_kept, unit_folder_setup,
                                      unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
