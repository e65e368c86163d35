/* test_refactor_filter.c - a rename planned over the files a filtered scan
 * analyses is the rename planned over every file (module/refactor/index.h).
 *
 * On a real package (Debian's pyflakes, copied into a scratch folder; the
 * test is skipped without it): for every class, function and method, in
 * each spelling a user may give (path.py:name, path.py:Class.method,
 * name, Class.method), plan the rename to name_x once over a scan for the
 * rename's words and once over a scan of everything. Wherever the filtered
 * plan succeeds (the command makes a failed one again over every file),
 * the full plan must succeed too and write the same bytes in the same
 * files with the same unsure list. */
#include "unit_support.h"

#include "refactor/rename.h"
#include "refactor/kept_index.h"

#define TEST_PACKAGE        "/usr/lib/python3/dist-packages/pyflakes"
#define TEST_MAX_FILE_BYTES ((size_t)1 << 24)
#define TEST_MAX_ENTRIES    100000
/* Renames compared at most: enough to cover every kind of spelling in the
 * package, few enough for the suite. */
#define TEST_SPECS_MAX 160
/* A filtered plan must have succeeded at least this often, or the test
 * proved nothing. */
#define TEST_SUCCESSES_MIN 60

typedef Array(char *) Specs;

static void specs_add(Specs *specs, const char *fmt, const char *a, const char *b) {
  StrBuf spec = {0};
  eddi_strbuf_printf(&spec, fmt, a, b);
  array_push(specs, eddi_strbuf_take(&spec));
}

/* Every spelling of every class, function and method of index. */
static void collect_specs(RefIndex *index, Specs *specs) {
  for (size_t f = 0; f < index->sources.len; f++) {
    const RefSource *source = &index->sources.items[f];
    const RefFile *file = source->file;
    for (size_t s = 1; s < file->syms.len; s++) {
      const RefSym *sym = &file->syms.items[s];
      if (sym->kind != REF_SYM_CLASS && sym->kind != REF_SYM_FUNCTION) continue;
      const char *name = ref_names_str(&index->names, sym->name);
      const RefScope *scope = &file->scopes.items[sym->scope];
      if (sym->scope == 0) {
        specs_add(specs, "%s:%s", source->path, name);
        specs_add(specs, "%s%s", name, "");
      } else if (scope->kind == REF_SCOPE_CLASS && scope->owner != REF_NONE) {
        const char *klass = ref_names_str(&index->names, file->syms.items[scope->owner].name);
        StrBuf qualified = {0};
        eddi_strbuf_printf(&qualified, "%s.%s", klass, name);
        specs_add(specs, "%s:%s", source->path, qualified.data);
        specs_add(specs, "%s%s", qualified.data, "");
        eddi_strbuf_free(&qualified);
      }
    }
  }
}

static int plan(RefIndex *index, const char *spec, const char *new_name, StrBuf *out) {
  RefPlan result;
  EddiError err = {0};
  int rc = ref_rename_plan(index, spec, new_name, 0, &result, &err);
  if (rc < 0) return rc;
  eddi_strbuf_puts(out, "");
  for (size_t i = 0; i < result.changes.len; i++) {
    const RefChange *change = &result.changes.items[i];
    eddi_strbuf_printf(out, "%s -> %s:\n%.*s", index->sources.items[change->source].path,
                       change->new_path ? change->new_path : "", (int)change->after_len,
                       change->after);
  }
  eddi_strbuf_printf(out, "unsure: %s\n", result.unsure.data);
  ref_plan_free(&result);
  return 0;
}

static void test_filtered_equals_whole(void **state) {
  const char *root = *state;
  struct stat st;
  if (stat(TEST_PACKAGE, &st) < 0) skip();
  StrBuf command = {0};
  eddi_strbuf_printf(&command, "cp -r '%s' '%s/' && find '%s' -name __pycache__ -prune -exec rm -rf {} +",
                     TEST_PACKAGE, root, root);
  assert_int_equal(system(command.data), 0);
  eddi_strbuf_free(&command);
  RefOpenTexts open = {0};
  EddiError err = {0};
  RefIndex whole;
  ref_index_init(&whole, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
  assert_int_equal(ref_index_scan(&whole, root, &open, &err), 0);
  Specs specs = {0};
  collect_specs(&whole, &specs);
  assert_true(specs.len > TEST_SUCCESSES_MIN);
  size_t successes = 0, left_out = 0;
  for (size_t i = 0; i < specs.len && i < TEST_SPECS_MAX; i++) {
    const char *spec = specs.items[i];
    const char *last = strrchr(spec, '.') > strrchr(spec, ':') ? strrchr(spec, '.')
                                                                 : strrchr(spec, ':');
    StrBuf new_name = {0};
    eddi_strbuf_printf(&new_name, "%s_x", last ? last + 1 : spec);
    RefScanWords words = {0};
    ref_rename_scan_words(spec, new_name.data, &words);
    RefIndex part;
    ref_index_init(&part, TEST_MAX_FILE_BYTES, TEST_MAX_ENTRIES);
    assert_int_equal(ref_index_scan_for(&part, root, &open, (const char *const *)words.items,
                                        words.len, &err),
                     0);
    left_out += part.held.len;
    StrBuf filtered = {0}, full = {0};
    if (plan(&part, spec, new_name.data, &filtered) == 0) {
      successes++;
      if (plan(&whole, spec, new_name.data, &full) < 0)
        fail_msg("%s: planned over part of the files, refused over all", spec);
      if (strcmp(filtered.data, full.data) != 0)
        fail_msg("%s: the plans differ\n--- part\n%s--- whole\n%s", spec, filtered.data,
                 full.data);
    }
    eddi_strbuf_free(&filtered), eddi_strbuf_free(&full), eddi_strbuf_free(&new_name);
    ref_scan_words_free(&words);
    ref_index_free(&part);
  }
  print_message("%zu renames compared, %zu planned over part of the files (%zu files left out)\n",
                EDDI_MIN(specs.len, (size_t)TEST_SPECS_MAX), successes, left_out);
  assert_true(successes >= TEST_SUCCESSES_MIN);
  assert_true(left_out > 0); /* the filter did leave files out */
  for (size_t i = 0; i < specs.len; i++) eddi_free(specs.items[i]);
  array_free(&specs);
  ref_index_free(&whole);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_filtered_equals_whole, unit_folder_setup,
                                      unit_folder_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
