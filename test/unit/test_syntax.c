/* test_syntax.c - the syntax layer: every grammar loads, every language's
 * sample gives its expected outline (test/syntax/<lang>/, data), edits are
 * recorded on the tree and reparsed lazily (the tree listens to its
 * document), plain text and huge files are refused with a reason,
 * languages are found by extension and shebang. */
#include "unit_support.h"

#include "core/document.h"
#include "eddi.h"
#include "syntax/syntax.h"

#ifndef EDDI_SYNTAX_SAMPLES
#error "EDDI_SYNTAX_SAMPLES: the folder of per-language samples"
#endif

/* The replies of one message, joined by '\n'; a new string (free()). */
static char *run(EddiEngine *engine, const char *message) {
  char *reply = eddi_exec(engine, "test", message, strlen(message));
  char *out = strdup(reply);
  eddi_string_free(reply);
  return out;
}

/* An engine over root; without config, the defaults but no language
 * servers: Validate here is eddi's own syntax check, whatever is installed. */
static EddiEngine *engine_over(const char *root, const EddiConfig *config) {
  char error[256] = "";
  EddiConfig own;
  if (!config) {
    eddi_config_default(&own);
    own.lsp_off = true;
    config = &own;
  }
  EddiEngine *engine = eddi_engine_new(root, config, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  return engine;
}

/* ---------------------------------------------------------------- languages */

static void test_every_grammar_loads(void **state) {
  (void)state;
  static const char *const names[] = {"python", "c",    "cpp",  "javascript", "typescript", "tsx",
                                      "rust",   "go",   "java", "bash",       "json",       "elisp"};
  size_t count;
  const EddiLang *all = eddi_lang_all(&count);
  assert_int_equal(count, 12);
  for (size_t i = 0; i < 12; i++) {
    const EddiLang *lang = eddi_lang_by_name(names[i]);
    assert_non_null(lang);
    if (!lang->ts) fail_msg("%s: %s", names[i], lang->refused);
    assert_non_null(lang->structure);
    assert_non_null(lang->details);
    assert_non_null(lang->extensions[0]);
  }
  (void)all;
}

static void test_detect_by_extension_then_shebang(void **state) {
  (void)state;
  assert_string_equal(eddi_lang_detect("src/a.py", "", 0)->name, "python");
  assert_string_equal(eddi_lang_detect("x.tsx", "", 0)->name, "tsx");
  assert_string_equal(eddi_lang_detect("lib/init.el", "", 0)->name, "elisp");
  const char *env = "#!/usr/bin/env python3.11\nprint(1)\n";
  assert_string_equal(eddi_lang_detect("scripts/run", env, strlen(env))->name, "python");
  const char *sh = "#!/bin/sh -e\n";
  assert_string_equal(eddi_lang_detect("configure", sh, strlen(sh))->name, "bash");
  const char *node = "#!/usr/bin/env -S node --no-warnings\n";
  assert_string_equal(eddi_lang_detect("cli", node, strlen(node))->name, "javascript");
  assert_null(eddi_lang_detect("notes.txt", "", 0));
  assert_null(eddi_lang_detect("Makefile", "all:\n", 5));
  const char *unknown = "#!/usr/bin/perl\n";
  assert_null(eddi_lang_detect("tool", unknown, strlen(unknown)));
}

/* ---------------------------------------------------------------- outlines */

/* Each test/syntax/<lang>/ holds sample.<ext> and expected.outline, the
 * reply of Analyze File Structure. The sample must parse without errors. */
static void test_samples_give_expected_outlines(void **state) {
  (void)state;
  DIR *dir = opendir(EDDI_SYNTAX_SAMPLES);
  assert_non_null(dir);
  size_t checked = 0;
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (entry->d_name[0] == '.') continue;
    char folder[PATH_MAX], path[PATH_MAX], sample[256] = "";
    unit_path(folder, EDDI_SYNTAX_SAMPLES, entry->d_name);
    DIR *inner = opendir(folder);
    if (!inner) continue;
    struct dirent *file;
    while ((file = readdir(inner)))
      if (strncmp(file->d_name, "sample.", 7) == 0) snprintf(sample, sizeof sample, "%s", file->d_name);
    closedir(inner);
    assert_true(sample[0]);
    size_t len = 0;
    unit_path(path, folder, "expected.outline");
    char *expected = unit_read_file(path, &len);
    assert_non_null(expected);
    while (len && expected[len - 1] == '\n') expected[--len] = '\0';
    long live = unit_live();
    EddiEngine *engine = engine_over(folder, NULL);
    char message[512];
    snprintf(message, sizeof message, "Start s\nOpen %s\nAnalyze File Structure\nValidate", sample);
    char *reply = run(engine, message);
    char *outline = strchr(strchr(reply, '\n') + 1, '\n') + 1;
    char *validate = strchr(outline, '\n');
    *validate++ = '\0';
    if (strcmp(outline, expected) != 0)
      fail_msg("%s/%s:\n  expected: %s\n  actual:   %s", entry->d_name, sample, expected, outline);
    if (strcmp(validate, "Ok: No syntax errors") != 0)
      fail_msg("%s/%s: %s", entry->d_name, sample, validate);
    free(reply);
    free(expected);
    eddi_engine_free(engine);
    unit_assert_no_leak(live);
    checked++;
  }
  closedir(dir);
  assert_int_equal(checked, 12);
}

/* ---------------------------------------------------------------- incremental */

typedef struct {
  char root[PATH_MAX];
} Workspace;

static int workspace_setup(void **state) {
  Workspace *ws = calloc(1, sizeof *ws);
  unit_workspace_new(ws->root);
  *state = ws;
  return 0;
}

static int workspace_teardown(void **state) {
  Workspace *ws = *state;
  unit_remove_tree(ws->root);
  free(ws);
  return 0;
}

static EddiDoc *doc_new(const char *path, const char *text) {
  return eddi_doc_new(path, NULL, text, strlen(text), true, 100);
}

static void test_edits_are_recorded_and_reparsed_lazily(void **state) {
  (void)state;
  long live = unit_live();
  EddiDoc *doc = doc_new("a.py", "def f(a):\n    return a\n\n\ndef g():\n    pass\n");
  EddiError err = {0};
  EddiSyntax *syn;
  assert_int_equal(eddi_syntax_get(doc, 0, &syn, &err), 0);
  assert_int_equal(syn->parses, 1);
  assert_int_equal(syn->elements.len, 3); /* f, its parameter a (a local), g */
  /* Three edits, no parse; the next question parses once. */
  assert_int_equal(eddi_doc_replace(doc, 4, 5, "first", 5, &err), 0);
  assert_int_equal(eddi_doc_replace(doc, 0, 0, "import os\n", 10, &err), 0);
  size_t end = eddi_text_len(&doc->text);
  assert_int_equal(eddi_doc_replace(doc, end, end, "\n\ndef h(x, y):\n    return x\n", 28, &err), 0);
  assert_true(syn->stale);
  assert_int_equal(syn->parses, 1);
  assert_int_equal(eddi_syntax_get(doc, 0, &syn, &err), 0);
  assert_int_equal(syn->parses, 2);
  EddiIndexList found = {0};
  eddi_syntax_find(syn, &doc->text, EDDI_ELEMENT_FUNCTION, "first", NULL, NULL, &found);
  assert_int_equal(found.len, 1);
  eddi_syntax_find(syn, &doc->text, EDDI_ELEMENT_FUNCTION, "h", NULL, "(x, y)", &found);
  assert_int_equal(found.len, 2);
  array_free(&found);
  /* The incremental tree equals a fresh parse of the same text. */
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, syn->lang->ts);
  TSTree *fresh = eddi_syntax_parse_text(parser, NULL, &doc->text);
  char *a = ts_node_string(ts_tree_root_node(fresh));
  char *b = ts_node_string(ts_tree_root_node(syn->tree));
  assert_string_equal(a, b);
  free(a), free(b);
  ts_tree_delete(fresh);
  ts_parser_delete(parser);
  /* Undo goes through the same hook. */
  eddi_doc_end_group(doc);
  size_t done;
  assert_int_equal(eddi_doc_undo(doc, 1, &done, &err), 0);
  assert_int_equal(eddi_syntax_get(doc, 0, &syn, &err), 0);
  eddi_syntax_find(syn, &doc->text, EDDI_ELEMENT_FUNCTION, "f", NULL, NULL, &found);
  assert_int_equal(found.len, 1);
  array_free(&found);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* A document's syntax listens to it from its first use: a reload forgets
 * the tree, eddi_syntax_free takes it off the document (which then makes a
 * new one on demand), and freeing the document frees the one it has. */
static void test_syntax_listens_to_its_document(void **state) {
  (void)state;
  long live = unit_live();
  EddiDoc *doc = doc_new("a.py", "def f():\n    pass\n");
  EddiError err = {0};
  EddiSyntax *syn;
  assert_int_equal(doc->listeners.len, 0);
  assert_int_equal(eddi_syntax_get(doc, 0, &syn, &err), 0);
  assert_ptr_equal(doc->syntax, syn);
  assert_int_equal(doc->listeners.len, 1);
  assert_ptr_equal(doc->listeners.items[0], &syn->listener);
  eddi_doc_reload(doc, "def g():\n    pass\n", 18);
  assert_null(syn->tree);
  assert_int_equal(syn->elements.len, 0);
  eddi_syntax_free(syn);
  assert_null(doc->syntax);
  assert_int_equal(doc->listeners.len, 0);
  assert_int_equal(eddi_doc_replace(doc, 4, 5, "h", 1, &err), 0); /* nobody listening */
  assert_int_equal(eddi_syntax_get(doc, 0, &syn, &err), 0);
  EddiIndexList found = {0};
  eddi_syntax_find(syn, &doc->text, EDDI_ELEMENT_FUNCTION, "h", NULL, NULL, &found);
  assert_int_equal(found.len, 1);
  array_free(&found);
  assert_int_equal(doc->listeners.len, 1);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_plain_and_huge_files_are_refused_with_a_reason(void **state) {
  Workspace *ws = *state;
  char path[PATH_MAX];
  unit_path(path, ws->root, "notes.txt");
  unit_write_file(path, "text\n", 5);
  unit_path(path, ws->root, "big.py");
  size_t big = 3000;
  char *text = malloc(big);
  for (size_t i = 0; i < big; i += 10) memcpy(text + i, "x = 1    \n", 10);
  unit_write_file(path, text, big);
  free(text);
  long live = unit_live();
  EddiConfig config;
  eddi_config_default(&config);
  config.max_syntax_bytes = 2048;
  EddiEngine *engine = engine_over(ws->root, &config);
  char *reply = run(engine, "Start s\nOpen notes.txt\nGoto Function f");
  assert_string_equal(reply, "Ok\nOk, At 0:0, Length 1\nFail \"No grammar for .txt\", Use Find, "
                             "Show Block, Insert Block and Delete Block");
  free(reply);
  reply = run(engine, "Open big.py\nAnalyze File Structure");
  assert_string_equal(reply, "Ok, At 0:0, Length 300\n"
                             "Fail \"File is over 2048 bytes: handled as plain text\", Use Find, "
                             "Show Block and Delete Block");
  free(reply);
  reply = run(engine, "Find \"x\"");
  assert_string_equal(reply, "Ok, At 0:0");
  free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* An element with a parse error is not edited: the extent would be a guess. */
static void test_edits_refuse_elements_with_errors(void **state) {
  Workspace *ws = *state;
  char path[PATH_MAX];
  unit_path(path, ws->root, "broken.py");
  const char *text = "def ok():\n    pass\n\n\ndef bad(:\n    return 1\n";
  unit_write_file(path, text, strlen(text));
  long live = unit_live();
  EddiEngine *engine = engine_over(ws->root, NULL);
  char *reply = run(engine, "Start s\nOpen broken.py\nDelete Function ok\nAnalyze File Structure");
  assert_string_equal(reply, "Ok\nOk, At 0:0, Length 6\nOk, Deleted 4 lines, At 0:0\n"
                             "Ok: Function bad 0:1");
  free(reply);
  reply = run(engine, "Delete Function bad");
  assert_string_equal(reply, "Fail \"Function bad has syntax errors at 0:8\", "
                             "Fix them first (Validate lists them)");
  free(reply);
  reply = run(engine, "Validate");
  assert_string_equal(reply, "Ok: 1 syntax error, Missing \")\" at 0:8");
  free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_grammar_loads),
      cmocka_unit_test(test_detect_by_extension_then_shebang),
      cmocka_unit_test(test_samples_give_expected_outlines),
      cmocka_unit_test(test_edits_are_recorded_and_reparsed_lazily),
      cmocka_unit_test(test_syntax_listens_to_its_document),
      cmocka_unit_test_setup_teardown(test_plain_and_huge_files_are_refused_with_a_reason,
                                      workspace_setup, workspace_teardown),
      cmocka_unit_test_setup_teardown(test_edits_refuse_elements_with_errors, workspace_setup,
                                      workspace_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
