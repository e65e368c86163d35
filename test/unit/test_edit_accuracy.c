/* test_edit_accuracy.c - the tolerant-match cases where an edit format once
 * wrote the wrong bytes or refused needlessly, each run in every format that
 * quotes old lines: Patch (apply_patch), SEARCH/REPLACE, <change> blocks and
 * replace mode, through the typed calls of eddi.h.
 *
 * A case is a file, the old lines a model quoted (with its noise: curly
 * quotes, lost trailing blanks, another indentation), their new version, and
 * the file that must result, or NULL when the edit must be refused and the
 * file left as it was. Each format gets a fresh copy of the file. */
#include "unit_support.h"

#include "eddi.h"

/* Room for a built call body and a file read back. */
#define ACCURACY_BODY_MAX 4096

/* One engine over one workspace for the whole group: each check writes its
 * file afresh, so the cases do not see each other. */
typedef struct {
  char root[PATH_MAX];
  EddiEngine *engine;
  long live;
} Fixture;

static int group_setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  unit_workspace_new(fx->root);
  fx->live = unit_live();
  char error[256] = "";
  fx->engine = eddi_engine_new(fx->root, NULL, error, sizeof error);
  *state = fx;
  return fx->engine ? 0 : -1;
}

static int group_teardown(void **state) {
  Fixture *fx = *state;
  eddi_engine_free(fx->engine);
  long leaked = eddi_alloc_live() - fx->live;
  unit_remove_tree(fx->root);
  free(fx);
  return leaked == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- running */

typedef enum { FORMAT_PATCH, FORMAT_SEARCH_REPLACE, FORMAT_CHANGE, FORMAT_REPLACE } Format;

static const char *const format_names[] = {"Patch", "SEARCH/REPLACE", "<change>", "replace"};

/* Write name with bytes, run call, and check the file afterwards: expected,
 * or (NULL) a Fail with the file unchanged. */
static void check_call(Fixture *fx, const char *name, const char *bytes, const EddiCall *call,
                       const char *expected, const char *format) {
  char path[PATH_MAX];
  unit_path(path, fx->root, name);
  unit_write_file(path, bytes, strlen(bytes));
  EddiRequest req = {.sender = "model", .text = format, .len = strlen(format)};
  EddiReply reply;
  eddi_request_call(fx->engine, &req, call, &reply, NULL);
  assert_int_equal(reply.count, 1);
  size_t len = 0;
  char *now = unit_read_file(path, &len);
  assert_non_null(now);
  const char *want = expected ? expected : bytes;
  bool ok = reply.items[0].ok == (expected != NULL) && strcmp(now, want) == 0;
  char said[ACCURACY_BODY_MAX];
  snprintf(said, sizeof said, "%s", reply.items[0].text);
  eddi_reply_free(&reply);
  if (!ok)
    fail_msg("%s on %s: reply %s\nwant: \"%s\"\ngot:  \"%s\"", format, name, said, want, now);
  free(now);
}

/* The same edit in one format: old and new are whole lines, each ending in
 * '\n' (new may be empty). Patch removes the old lines and adds the new
 * ones, unless chunk gives the chunk's lines (' ', '-', '+' rows). */
static void check_format(Fixture *fx, Format format, const char *name, const char *bytes,
                         const char *old, const char *new_text, const char *chunk,
                         const char *expected) {
  char body[ACCURACY_BODY_MAX];
  EddiCall call = {.path = name, .text = body};
  EddiReplaceEdit edit = {0};
  size_t n = 0;
  switch (format) {
  case FORMAT_PATCH: {
    call.kind = EDDI_CALL_APPLY_PATCH;
    n = (size_t)snprintf(body, sizeof body, "*** Begin Patch\n*** Update File: %s\n@@\n", name);
    const char *sides[] = {old, new_text};
    if (chunk) n += (size_t)snprintf(body + n, sizeof body - n, "%s", chunk);
    for (int s = 0; s < 2 && !chunk; s++)
      for (const char *p = sides[s]; *p;) {
        const char *nl = strchr(p, '\n');
        n += (size_t)snprintf(body + n, sizeof body - n, "%c%.*s\n", s ? '+' : '-',
                              (int)(nl - p), p);
        p = nl + 1;
      }
    n += (size_t)snprintf(body + n, sizeof body - n, "*** End Patch\n");
    break;
  }
  case FORMAT_SEARCH_REPLACE:
    call.kind = EDDI_CALL_SEARCH_REPLACE;
    n = (size_t)snprintf(body, sizeof body,
                         "%s\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n", name, old,
                         new_text);
    break;
  case FORMAT_CHANGE:
    call.kind = EDDI_CALL_FILE_UPDATE;
    n = (size_t)snprintf(body, sizeof body,
                         "<change><original>\n%s</original><modified>\n%s</modified></change>",
                         old, new_text);
    break;
  case FORMAT_REPLACE:
    call.kind = EDDI_CALL_REPLACE;
    edit = (EddiReplaceEdit){old, strlen(old), new_text, strlen(new_text), false};
    call.edits = &edit;
    call.edit_count = 1;
    break;
  }
  assert_true(n < sizeof body);
  call.text_len = n;
  check_call(fx, name, bytes, &call, expected, format_names[format]);
}

/* The edit in every format; replace mode also with old_string and
 * new_string cut before their last newline (the same edit as bytes). */
static void check_all(Fixture *fx, const char *name, const char *bytes, const char *old,
                      const char *new_text, const char *chunk, const char *expected) {
  for (Format f = FORMAT_PATCH; f <= FORMAT_REPLACE; f++)
    check_format(fx, f, name, bytes, old, new_text, chunk, expected);
  size_t old_len = strlen(old), new_len = strlen(new_text);
  EddiReplaceEdit edit = {old, old_len - 1, new_text, new_len ? new_len - 1 : 0, false};
  EddiCall call = {.kind = EDDI_CALL_REPLACE, .path = name, .edits = &edit, .edit_count = 1};
  check_call(fx, name, bytes, &call, expected, "replace without the last newline");
}

/* Replace mode alone: old_string and new_string as given. */
static void check_replace(Fixture *fx, const char *name, const char *bytes, const char *old,
                          const char *new_text, const char *expected) {
  EddiReplaceEdit edit = {old, strlen(old), new_text, strlen(new_text), false};
  EddiCall call = {.kind = EDDI_CALL_REPLACE, .path = name, .edits = &edit, .edit_count = 1};
  check_call(fx, name, bytes, &call, expected, "replace");
}

/* ---------------------------------------------------------------- 1: zero shift */

/* Curly quotes make the match tolerant, but the indentation matched as it
 * is: the added line keeps the four spaces the payload gives it. */
static void test_zero_shift_keeps_added_indentation(void **state) {
  check_all(*state, "f.c", "int f(void) {\n\tputs(\"hi\");\n\treturn 0;\n}\n",
            "\tputs(\xe2\x80\x9chi\xe2\x80\x9d);\n\treturn 0;\n",
            "\tputs(\"hi\");\n    return 1;\n", NULL,
            "int f(void) {\n\tputs(\"hi\");\n    return 1;\n}\n");
}

/* Spaces quoted for the file's tabs: the added lines take the file's tabs. */
static void test_found_style_reindents(void **state) {
  check_all(*state, "t.c", "int t(void) {\n\tputs(\"hi\");\n\treturn 0;\n}\n",
            "    puts(\xe2\x80\x9chi\xe2\x80\x9d);\n    return 0;\n",
            "    puts(\"hi\");\n    if (x)\n        return 1;\n", NULL,
            "int t(void) {\n\tputs(\"hi\");\n\tif (x)\n\t\treturn 1;\n}\n");
}

/* A block quoted four columns left of the file: the added line moves right
 * with it, and the shared line keeps the file's quotes. */
static void test_found_shift_reindents(void **state) {
  check_all(*state, "n.py", "if a:\n    if b:\n        x = \xe2\x80\x9c" "1\xe2\x80\x9d\n",
            "    x = \"1\"\n", "    x = \"1\"\n    y = 2\n",
            "     x = \"1\"\n+    y = 2\n",
            "if a:\n    if b:\n        x = \xe2\x80\x9c" "1\xe2\x80\x9d\n        y = 2\n");
}

/* ---------------------------------------------------------------- 2: blank lines */

/* old_string without its last newline replaced by nothing leaves that
 * newline: one blank line, whether old_string matched byte for byte or only
 * with the file's trailing blanks ignored. */
static void test_replace_fallback_keeps_blank_lines(void **state) {
  Fixture *fx = *state;
  const char *exact = "def f():\n    a = 1\n    b = 2\n    return a\n";
  const char *noisy = "def f():\n    a = 1  \n    b = 2\n    return a\n";
  const char *cases[][3] = {
      {"    a = 1\n    b = 2", "", "def f():\n\n    return a\n"},
      {"    a = 1\n    b = 2\n", "", "def f():\n    return a\n"},
      {"    a = 1\n    b = 2", "    c = 3", "def f():\n    c = 3\n    return a\n"},
      {"    a = 1\n    b = 2\n", "    c = 3\n", "def f():\n    c = 3\n    return a\n"},
      {"    a = 1\n    b = 2\n", "    c = 3", "def f():\n    c = 3    return a\n"},
      {"    a = 1\n    b = 2", "    c = 3\n", "def f():\n    c = 3\n\n    return a\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    check_replace(fx, "m.py", exact, cases[i][0], cases[i][1], cases[i][2]);
    check_replace(fx, "m.py", noisy, cases[i][0], cases[i][1], cases[i][2]);
  }
  /* old_string may start at the first word of its line, as byte for byte;
   * the line keeps its indentation. */
  check_replace(fx, "m.py", exact, "a = 1\n    b = 2", "a = 2\n    b = 3",
                "def f():\n    a = 2\n    b = 3\n    return a\n");
  check_replace(fx, "m.py", noisy, "a = 1\n    b = 2", "a = 2\n    b = 3",
                "def f():\n    a = 2\n    b = 3\n    return a\n");
  check_replace(fx, "m.py", noisy, "a = 1\n    b = 2\n", "x = 0\na = 2\n",
                "def f():\n    x = 0\na = 2\n    return a\n");
  /* The whole-line formats delete whole lines, on either file. */
  for (Format f = FORMAT_PATCH; f < FORMAT_REPLACE; f++) {
    check_format(fx, f, "m.py", exact, "    a = 1\n    b = 2\n", "", NULL,
                 "def f():\n    return a\n");
    check_format(fx, f, "m.py", noisy, "    a = 1\n    b = 2\n", "", NULL,
                 "def f():\n    return a\n");
  }
}

/* ---------------------------------------------------------------- 3: line diff */

/* The quoted blank lines lost their trailing blanks; the new version keeps
 * one blank line: the clean one stays, the one of two spaces goes. */
static void test_line_diff_keeps_the_right_blank(void **state) {
  Fixture *fx = *state;
  const char *search = "import os\nimport sys\n\nimport req\n\nfrom x import y\n";
  const char *replace = "import os\nimport re\nimport sys\n\nfrom x import y\n";
  check_all(fx, "s.py", "import os\nimport sys\n\nimport req\n  \nfrom x import y\n", search,
            replace, NULL, replace);
  check_all(fx, "s.py", "import os\nimport sys\n  \nimport req\n\nfrom x import y\n", search,
            replace, NULL, replace);
}

/* A line both versions share in the middle of the block is kept with the
 * file's bytes (its quotes, its trailing blanks). */
static void test_line_diff_keeps_shared_lines(void **state) {
  check_all(*state, "k.py",
            "def f():\n    a = \xe2\x80\x98x\xe2\x80\x99\n    keep = \xe2\x80\x98y\xe2\x80\x99  \n"
            "    b = \xe2\x80\x98z\xe2\x80\x99\n",
            "    a = 'x'\n    keep = 'y'\n    b = 'z'\n",
            "    a = 'X'\n    keep = 'y'\n    b = 'Z'\n",
            "-    a = 'x'\n+    a = 'X'\n     keep = 'y'\n-    b = 'z'\n+    b = 'Z'\n",
            "def f():\n    a = 'X'\n    keep = \xe2\x80\x98y\xe2\x80\x99  \n    b = 'Z'\n");
}

/* ---------------------------------------------------------------- 4: re-nested */

/* Quoted with a line moved out of its block: not the file's block, at the
 * punctuation level as at the whitespace levels. */
static void test_renested_block_is_refused(void **state) {
  Fixture *fx = *state;
  const char *file = "def g(x):\n    if x:\n        print(\"a\")\n        print(\"b\")\n"
                     "    return x\n";
  const char *new_text = "    if x:\n        print(\"A\")\n    print(\"b\")\n";
  check_all(fx, "r.py", file,
            "    if x:\n        print(\xe2\x80\x9c" "a\xe2\x80\x9d)\n    print(\xe2\x80\x9c"
            "b\xe2\x80\x9d)\n",
            new_text, NULL, NULL);
  check_all(fx, "r.py", file, "    if  x:\n        print(\"a\")\n    print(\"b\")\n", new_text,
            NULL, NULL);
}

/* The same at the indentation level, where the rule always held. */
static void test_renested_indentation_is_refused(void **state) {
  check_all(*state, "r.py",
            "def g(x):\n    if x:\n        print(\"a\")\n        print(\"b\")\n    return x\n",
            "  if x:\n    print(\"a\")\n  print(\"b\")\n",
            "  if x:\n    print(\"A\")\n  print(\"b\")\n", NULL, NULL);
}

/* A quote that keeps the file's nesting with other widths (tabs as eight
 * spaces) is the same block: found, the added line takes the file's tabs. */
static void test_rescaled_nesting_is_found(void **state) {
  check_all(*state, "w.c", "void w(void) {\n\tif (x) {\n\t\ty();\n\t}\n}\n",
            "        if (x) {\n                y();\n        }\n",
            "        if (x) {\n                z();\n        }\n", NULL,
            "void w(void) {\n\tif (x) {\n\t\tz();\n\t}\n}\n");
  /* Two spaces a level for four: a new line nested deeper keeps its depth
   * below the deepest level the quote showed. */
  check_all(*state, "w.py", "def w():\n    if x:\n        y()\n",
            "  if x:\n    y()\n", "  if x:\n    y()\n    if z:\n      q()\n",
            "   if x:\n     y()\n+    if z:\n+      q()\n",
            "def w():\n    if x:\n        y()\n        if z:\n          q()\n");
}

/* ---------------------------------------------------------------- 5: preference */

/* Two lines differ only in indentation: the one whose indentation fits
 * exactly is taken. */
static void test_exact_indentation_is_preferred(void **state) {
  check_all(*state, "g.py",
            "def g(a, b):\n    if a:\n        fail('bad')\n    fail('bad')\n",
            "        fail(\xe2\x80\x98" "bad\xe2\x80\x99)\n", "        raise ValueError('bad')\n",
            NULL, "def g(a, b):\n    if a:\n        raise ValueError('bad')\n    fail('bad')\n");
}

/* At the indentation level, the place of the same columns wins over a
 * shifted one. */
static void test_equal_columns_are_preferred(void **state) {
  check_all(*state, "h.c", "int h(void) {\n    free(s);\n      free(s);\n}\n",
            "\t  free(s);\n", "\t  s = NULL;\n", NULL,
            "int h(void) {\n    free(s);\n      s = NULL;\n}\n");
}

/* Two places shifted as far from the quote: still refused. */
static void test_equal_shifts_stay_ambiguous(void **state) {
  check_all(*state, "e.c", "int e(void) {\n    free(s);\n        free(s);\n}\n",
            "\t  free(s);\n", "\t  s = NULL;\n", NULL, NULL);
}

/* One place fits shifted, another indented as quoted but with curly
 * quotes: neither is closer, so neither is taken. */
static void test_shift_against_quotes_stays_ambiguous(void **state) {
  check_all(*state, "q.py", "print('q')\nif x:\n        print(\xe2\x80\x98q\xe2\x80\x99)\n",
            "        print('q')\n", "        print('r')\n", NULL, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_zero_shift_keeps_added_indentation),
      cmocka_unit_test(test_found_style_reindents),
      cmocka_unit_test(test_found_shift_reindents),
      cmocka_unit_test(test_replace_fallback_keeps_blank_lines),
      cmocka_unit_test(test_line_diff_keeps_the_right_blank),
      cmocka_unit_test(test_line_diff_keeps_shared_lines),
      cmocka_unit_test(test_renested_block_is_refused),
      cmocka_unit_test(test_renested_indentation_is_refused),
      cmocka_unit_test(test_rescaled_nesting_is_found),
      cmocka_unit_test(test_exact_indentation_is_preferred),
      cmocka_unit_test(test_equal_columns_are_preferred),
      cmocka_unit_test(test_equal_shifts_stay_ambiguous),
      cmocka_unit_test(test_shift_against_quotes_stays_ambiguous),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
