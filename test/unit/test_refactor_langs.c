/* test_refactor_langs.c - name resolution for C, JavaScript and TypeScript.
 *
 * Each test makes a workspace of files given as text and plans renames in
 * it (module/refactor/rename.h), checking the whole answer: the new text of
 * every file the plan changes and the unsure places, or the refusal. The
 * rules themselves are the languages' locals.scm and modules_js.c /
 * modules_c.c; the Python ones are test_refactor.c's. */
#include "refactor_support.h"

#include "refactor/modules.h"
#include "refactor/rename.h"

/* Room for the answer of one plan: the changed files' texts are small. */
#define LANGS_ANSWER_MAX 4096

typedef struct {
  RefIndex index;
  char answer[LANGS_ANSWER_MAX];
} Workspace;

/* A workspace of the files given as path, text, ..., NULL. */
static Workspace *workspace(const char *path, ...) {
  Workspace *self = calloc(1, sizeof *self);
  ref_index_init(&self->index, (size_t)1 << 20, 100);
  va_list ap;
  va_start(ap, path);
  unit_index_add_files(&self->index, path, ap);
  va_end(ap);
  return self;
}

static void workspace_free(Workspace *self) {
  ref_index_free(&self->index);
  free(self);
}

/* "path:\n<new text>" for each file the rename changes, then "unsure: ..."
 * when some are; or the refusal. */
static const char *renamed(Workspace *self, const char *spec, const char *new_name) {
  RefPlan plan;
  EddiError err = {0};
  if (ref_rename_plan(&self->index, spec, new_name, 0, &plan, &err) < 0) {
    snprintf(self->answer, sizeof self->answer, "%s", err.what);
    return self->answer;
  }
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (size_t i = 0; i < plan.changes.len; i++) {
    const RefChange *change = &plan.changes.items[i];
    eddi_strbuf_printf(&out, "%s:\n%s", self->index.sources.items[change->source].path,
                       change->after);
  }
  if (plan.unsure_count) eddi_strbuf_printf(&out, "unsure: %s\n", plan.unsure.data);
  snprintf(self->answer, sizeof self->answer, "%s", out.data);
  eddi_strbuf_free(&out);
  ref_plan_free(&plan);
  return self->answer;
}

/* ---------------------------------------------------------------- JavaScript */

static void test_js_hoisting_and_blocks(void **state) {
  (void)state;
  long live = unit_live();
  /* var and function declarations are the function's throughout it; let
   * in a block is the block's; an assignment writes what it finds. */
  Workspace *w = workspace("a.js",
                           "function f() {\n"
                           "  x = g();\n"
                           "  if (x) { let x = 2; use(x); }\n"
                           "  var x;\n"
                           "  function g() { return 1; }\n"
                           "  return x;\n"
                           "}\n",
                           NULL);
  assert_string_equal(renamed(w, "a.js:f.x", "y"),
                      "a.js:\n"
                      "function f() {\n"
                      "  y = g();\n"
                      "  if (y) { let x = 2; use(x); }\n"
                      "  var y;\n"
                      "  function g() { return 1; }\n"
                      "  return y;\n"
                      "}\n");
  assert_string_equal(renamed(w, "a.js:f.g", "h"),
                      "a.js:\n"
                      "function f() {\n"
                      "  x = h();\n"
                      "  if (x) { let x = 2; use(x); }\n"
                      "  var x;\n"
                      "  function h() { return 1; }\n"
                      "  return x;\n"
                      "}\n");
  /* The block's x: its own; the outer x would clash with g. */
  assert_string_equal(renamed(w, "a.js:2:16", "g"),
                      "a.js:\n"
                      "function f() {\n"
                      "  x = g();\n"
                      "  if (x) { let g = 2; use(g); }\n"
                      "  var x;\n"
                      "  function g() { return 1; }\n"
                      "  return x;\n"
                      "}\n");
  assert_string_equal(renamed(w, "a.js:f.x", "g"), "Rename would clash with g defined at a.js:4:11");
  workspace_free(w);
  unit_assert_no_leak(live);
}

static void test_js_destructuring_and_parameters(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("a.js",
                           "function f(a, { b, c: d }, [e, ...rest], g = a) {\n"
                           "  const { h: [i] } = a;\n"
                           "  return [a, b, d, e, rest, g, i];\n"
                           "}\n",
                           NULL);
  assert_string_equal(renamed(w, "a.js:f.a", "z"),
                      "a.js:\n"
                      "function f(z, { b, c: d }, [e, ...rest], g = z) {\n"
                      "  const { h: [i] } = z;\n"
                      "  return [z, b, d, e, rest, g, i];\n"
                      "}\n");
  assert_string_equal(renamed(w, "a.js:f.d", "z"),
                      "a.js:\n"
                      "function f(a, { b, c: z }, [e, ...rest], g = a) {\n"
                      "  const { h: [i] } = a;\n"
                      "  return [a, b, z, e, rest, g, i];\n"
                      "}\n");
  assert_string_equal(renamed(w, "a.js:f.i", "z"),
                      "a.js:\n"
                      "function f(a, { b, c: d }, [e, ...rest], g = a) {\n"
                      "  const { h: [z] } = a;\n"
                      "  return [a, b, d, e, rest, g, z];\n"
                      "}\n");
  /* A shorthand binding is also the key it reads. */
  assert_string_equal(renamed(w, "a.js:f.b", "z"),
                      "Rename would change the property key at a.js:0:16");
  workspace_free(w);
  unit_assert_no_leak(live);
}

static void test_js_this_in_class_and_subclass(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("a.js",
                           "class A {\n"
                           "  constructor() { this.n = 0; }\n"
                           "  run() { return [1].map(() => this.n); }\n"
                           "}\n"
                           "class B extends A {\n"
                           "  run() { return this.n + super.run(); }\n"
                           "}\n"
                           "class C { run() { function inner() { return this.n; } return inner; } }\n",
                           NULL);
  /* An arrow function has the method's this; a plain function has its own. */
  assert_string_equal(renamed(w, "A.n", "count"),
                      "a.js:\n"
                      "class A {\n"
                      "  constructor() { this.count = 0; }\n"
                      "  run() { return [1].map(() => this.count); }\n"
                      "}\n"
                      "class B extends A {\n"
                      "  run() { return this.count + super.run(); }\n"
                      "}\n"
                      "class C { run() { function inner() { return this.n; } return inner; } }\n"
                      "unsure: a.js:7\n");
  assert_string_equal(renamed(w, "B.run", "go"),
                      "a.js:\n"
                      "class A {\n"
                      "  constructor() { this.n = 0; }\n"
                      "  go() { return [1].map(() => this.n); }\n"
                      "}\n"
                      "class B extends A {\n"
                      "  go() { return this.n + super.go(); }\n"
                      "}\n"
                      "class C { run() { function inner() { return this.n; } return inner; } }\n");
  workspace_free(w);
  unit_assert_no_leak(live);
}

static void test_js_module_paths(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("lib/index.js", "export { tidy as clean } from './tidy.js';\n",
                           "lib/tidy.js", "export function tidy(s) { return s.trim(); }\n",
                           "app/main.mjs",
                           "import { clean } from '../lib';\n"
                           "import { tidy } from '../lib/tidy';\n"
                           "import lodash from 'lodash';\n"
                           "export const out = clean(tidy(' a ')) + lodash.tidy;\n",
                           NULL);
  /* ../lib is lib/index.js; ../lib/tidy is lib/tidy.js; lodash is outside. */
  assert_string_equal(renamed(w, "tidy", "strip"),
                      "lib/index.js:\n"
                      "export { strip as clean } from './tidy.js';\n"
                      "lib/tidy.js:\n"
                      "export function strip(s) { return s.trim(); }\n"
                      "app/main.mjs:\n"
                      "import { clean } from '../lib';\n"
                      "import { strip } from '../lib/tidy';\n"
                      "import lodash from 'lodash';\n"
                      "export const out = clean(strip(' a ')) + lodash.tidy;\n");
  StrBuf out = {0};
  assert_true(ref_modules_join("a/b", 3, "../c/./d", &out));
  assert_string_equal(out.data, "a/c/d");
  assert_false(ref_modules_join("a", 1, "../../x", &out));
  eddi_strbuf_free(&out);
  workspace_free(w);
  unit_assert_no_leak(live);
}

static void test_js_commonjs_exports(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("store.js",
                           "class Store { open() { return 1; } }\n"
                           "function open() { return new Store(); }\n"
                           "module.exports = { Store, open, start: open };\n",
                           "use.js",
                           "const { Store, open: begin, start } = require('./store');\n"
                           "const all = require('./store');\n"
                           "new Store().open(); begin(); start(); all.open();\n",
                           NULL);
  assert_string_equal(renamed(w, "store.js:open", "launch"),
                      "store.js:\n"
                      "class Store { open() { return 1; } }\n"
                      "function launch() { return new Store(); }\n"
                      "module.exports = { Store, launch, start: launch };\n"
                      "use.js:\n"
                      "const { Store, launch: begin, start } = require('./store');\n"
                      "const all = require('./store');\n"
                      "new Store().open(); begin(); start(); all.launch();\n");
  assert_string_equal(renamed(w, "Store.open", "launch"),
                      "store.js:\n"
                      "class Store { launch() { return 1; } }\n"
                      "function open() { return new Store(); }\n"
                      "module.exports = { Store, open, start: open };\n"
                      "use.js:\n"
                      "const { Store, open: begin, start } = require('./store');\n"
                      "const all = require('./store');\n"
                      "new Store().launch(); begin(); start(); all.open();\n");
  workspace_free(w);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- TypeScript */

static void test_ts_types_as_definitions(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("a.ts",
                           "interface Named { label: string; }\n"
                           "type Pair = { label: string; other: Named };\n"
                           "function show(n: Named, p: Pair): string {\n"
                           "  return n.label + p.label + p.other.label;\n"
                           "}\n",
                           NULL);
  assert_string_equal(renamed(w, "Named.label", "title"),
                      "a.ts:\n"
                      "interface Named { title: string; }\n"
                      "type Pair = { label: string; other: Named };\n"
                      "function show(n: Named, p: Pair): string {\n"
                      "  return n.title + p.label + p.other.title;\n"
                      "}\n");
  assert_string_equal(renamed(w, "Named", "Titled"),
                      "a.ts:\n"
                      "interface Titled { label: string; }\n"
                      "type Pair = { label: string; other: Titled };\n"
                      "function show(n: Titled, p: Pair): string {\n"
                      "  return n.label + p.label + p.other.label;\n"
                      "}\n");
  workspace_free(w);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- C */

static void test_c_blocks_parameters_fields(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("a.c",
                           "struct node { int value; struct node *next; };\n"
                           "struct leaf { int value; };\n"
                           "int sum(struct node *n, struct leaf l) {\n"
                           "    int value = 0;\n"
                           "    for (int i = 0; i < 2; i++) { int value = i; (void)value; }\n"
                           "    return value + n->value + n->next->value + l.value;\n"
                           "}\n",
                           NULL);
  assert_string_equal(renamed(w, "node.value", "v"),
                      "a.c:\n"
                      "struct node { int v; struct node *next; };\n"
                      "struct leaf { int value; };\n"
                      "int sum(struct node *n, struct leaf l) {\n"
                      "    int value = 0;\n"
                      "    for (int i = 0; i < 2; i++) { int value = i; (void)value; }\n"
                      "    return value + n->v + n->next->v + l.value;\n"
                      "}\n");
  assert_string_equal(renamed(w, "a.c:3:8", "total"),
                      "a.c:\n"
                      "struct node { int value; struct node *next; };\n"
                      "struct leaf { int value; };\n"
                      "int sum(struct node *n, struct leaf l) {\n"
                      "    int total = 0;\n"
                      "    for (int i = 0; i < 2; i++) { int value = i; (void)value; }\n"
                      "    return total + n->value + n->next->value + l.value;\n"
                      "}\n");
  assert_string_equal(renamed(w, "a.c:sum.n", "l"),
                      "Rename would clash with l defined at a.c:2:36");
  workspace_free(w);
  unit_assert_no_leak(live);
}

static void test_c_linkage_and_includes(void **state) {
  (void)state;
  long live = unit_live();
  Workspace *w = workspace("include/api.h",
                           "int api_run(int n);\n"
                           "#define API_TWICE(n) (api_run(n) * 2)\n",
                           "src/api.c",
                           "#include \"api.h\"\n"
                           "static int step(int n) { return n + 1; }\n"
                           "int api_run(int n) { return step(n); }\n",
                           "src/main.c",
                           "#include \"include/api.h\"\n"
                           "static int step(void) { return 0; }\n"
                           "int main(void) { return api_run(step()) + API_TWICE(1); }\n",
                           NULL);
  /* One external function across the header (src/main.c includes it from
   * the root; src/api.c's "api.h" is no file of the workspace) and both
   * files; the macro's body is unsure; each static step is its file's own. */
  assert_string_equal(renamed(w, "api_run", "api_go"),
                      "include/api.h:\n"
                      "int api_go(int n);\n"
                      "#define API_TWICE(n) (api_run(n) * 2)\n"
                      "src/api.c:\n"
                      "#include \"api.h\"\n"
                      "static int step(int n) { return n + 1; }\n"
                      "int api_go(int n) { return step(n); }\n"
                      "src/main.c:\n"
                      "#include \"include/api.h\"\n"
                      "static int step(void) { return 0; }\n"
                      "int main(void) { return api_go(step()) + API_TWICE(1); }\n"
                      "unsure: include/api.h:1\n");
  assert_string_equal(renamed(w, "src/main.c:step", "zero"),
                      "src/main.c:\n"
                      "#include \"include/api.h\"\n"
                      "static int zero(void) { return 0; }\n"
                      "int main(void) { return api_run(zero()) + API_TWICE(1); }\n");
  assert_string_equal(renamed(w, "API_TWICE", "TWICE"), "Not supported for C: API_TWICE is a macro");
  assert_string_equal(renamed(w, "src/main.c:2:47", "TWICE"),
                      "Not supported for C: API_TWICE is a macro");
  workspace_free(w);
  unit_assert_no_leak(live);
}

static void test_languages_apart(void **state) {
  (void)state;
  long live = unit_live();
  /* A Python rename never touches JavaScript, even with a syntax error. */
  Workspace *w = workspace("m.py", "def total(x):\n    return x\n",
                           "web/a.js", "const r = other.total(); total(;\n",
                           "inc/api.h",
                           "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint total(void);\n"
                           "#ifdef __cplusplus\n}\n#endif\n",
                           NULL);
  assert_string_equal(renamed(w, "m.py:total", "sum"),
                      "m.py:\n"
                      "def sum(x):\n"
                      "    return x\n");
  /* The extern "C" guard's split braces are no syntax error. */
  assert_string_equal(renamed(w, "inc/api.h:total", "sum"),
                      "inc/api.h:\n"
                      "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint sum(void);\n"
                      "#ifdef __cplusplus\n}\n#endif\n");
  workspace_free(w);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_js_hoisting_and_blocks),
      cmocka_unit_test(test_js_destructuring_and_parameters),
      cmocka_unit_test(test_js_this_in_class_and_subclass),
      cmocka_unit_test(test_js_module_paths),
      cmocka_unit_test(test_js_commonjs_exports),
      cmocka_unit_test(test_ts_types_as_definitions),
      cmocka_unit_test(test_c_blocks_parameters_fields),
      cmocka_unit_test(test_c_linkage_and_includes),
      cmocka_unit_test(test_languages_apart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
