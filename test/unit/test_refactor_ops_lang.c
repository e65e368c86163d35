/* test_refactor_ops_lang.c - the refactorings past rename in C, JavaScript
 * and TypeScript (module/refactor/ops_lang.h and the operations that read
 * its tables).
 *
 * Each test builds an index from files given as text (no disk), plans one
 * operation and checks the new texts exactly, or the Fail message. The
 * traps are the ones that would write wrong code: a prototype without
 * parameter names, f.call(...) taken for a call of f, a default skipped
 * before a given argument, an implicit conversion lost by inlining. */
#include "refactor_ops_support.h"

#include "refactor/ops.h"
#include "refactor/ops_lang.h"

/* Plan on spec (and other) over the operations' fixture
 * (refactor_ops_support.h), with the unsure references after the texts. */
static const char *lang_plan(UnitOps *self, RefOpKind kind, const char *word,
                             const char *spec, const char *other) {
  RefOpArgs args = {.spec = spec, .other = other};
  return unit_ops_plan_listing(self, kind, word, &args, true);
}

/* ---------------------------------------------------------------- text of a language */

static void test_c_param_names(void **state) {
  (void)state;
  long live = unit_live();
  static const char *const cases[][2] = {
      {"int a", "a"},           {"const struct pt *p", "p"}, {"int (*op)(int, int)", "op"},
      {"char s[N]", "s"},       {"unsigned long n", "n"},    {"int", "int"},
      {"int **out", "out"},     {"x", "x"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t at, len;
    ref_ops_c_param_name(cases[i][0], &at, &len);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)len, cases[i][0] + at);
    assert_string_equal(name, cases[i][1]);
  }
  unit_assert_no_leak(live);
}

static void test_literals_and_effects(void **state) {
  (void)state;
  long live = unit_live();
  assert_true(ref_ops_literal("0"));
  assert_true(ref_ops_literal("-1.5"));
  assert_true(ref_ops_literal("\"cm\""));
  assert_true(ref_ops_literal("null"));
  assert_false(ref_ops_literal("limit"));
  assert_false(ref_ops_literal("\"a\" + b"));
  assert_false(ref_ops_literal("[]"));
  const RefOpsLang *js = ref_ops_lang("javascript"), *py = ref_ops_lang("python");
  assert_true(ref_ops_effects(js, "next()"));
  assert_true(ref_ops_effects(js, "i++"));
  assert_true(ref_ops_effects(js, "x = 2"));
  assert_true(ref_ops_effects(js, "x <<= 2"));
  assert_false(ref_ops_effects(js, "a === b"));
  assert_false(ref_ops_effects(js, "a <= b"));
  assert_false(ref_ops_effects(js, "a => a"));
  /* Python's keyword pieces hold "name=value". */
  assert_false(ref_ops_effects(py, "rate=2"));
  assert_null(ref_ops_lang("cobol"));
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- Signature */

static void test_c_signature_prototypes(void **state) {
  (void)state;
  long live = unit_live();
  /* A prototype without names keeps its own texts; one with other names
   * keeps them; all parameters removed is (void). */
  UnitOps *f = unit_ops_new("m.h", "int f(int, long);\nint g(int count);\n",
                                "m.c",
                                "#include \"m.h\"\nint f(int a, long b) { return a; }\n"
                                "int g(int n) { return 1; }\nint h(void) { return f(1, 2) + g(3); }\n",
                                NULL);
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "f(a, b)", "f(b, a)"),
                      "m.h:\nint f(long, int);\nint g(int count);\n"
                      "m.c:\n#include \"m.h\"\nint f(long b, int a) { return a; }\n"
                      "int g(int n) { return 1; }\nint h(void) { return f(2, 1) + g(3); }\n");
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "g(n)", "g()"),
                      "m.h:\nint f(int, long);\nint g(void);\n"
                      "m.c:\n#include \"m.h\"\nint f(int a, long b) { return a; }\n"
                      "int g(void) { return 1; }\nint h(void) { return f(1, 2) + g(); }\n");
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "h()", "h(int k:=0)"),
                      "m.c:\n#include \"m.h\"\nint f(int a, long b) { return a; }\n"
                      "int g(int n) { return 1; }\nint h(int k) { return f(1, 2) + g(3); }\n");
  /* A call whose dropped argument has effects. */
  unit_ops_free(f);
  f = unit_ops_new("m.c", "int n;\nint f(int a, int b) { return a; }\nint h(void) { return f(1, n++); }\n",
                   NULL);
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "f(a, b)", "f(a)"),
                      "Fail: Signature would drop the evaluation of n++ at m.c:2:21");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

static void test_js_signature_calls(void **state) {
  (void)state;
  long live = unit_live();
  /* f.call is no call of f: unsure; an arrow's one parameter gets brackets. */
  UnitOps *f = unit_ops_new("a.js",
                                "const k = x => x;\nfunction f(a, b = 1) { return a + b; }\n"
                                "f(1); f(1, 2); f.call(null, 3); k(4);\n",
                                NULL);
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "k(x)", "k(x, y = 2)"),
                      "a.js:\nconst k = (x, y = 2) => x;\nfunction f(a, b = 1) { return a + b; }\n"
                      "f(1); f(1, 2); f.call(null, 3); k(4);\n");
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "f(a, b)", "f(b, a)"),
                      "Fail: 1 reference to f cannot be resolved: a.js:2; nothing written");
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "f(a, b)", "f(a, b, c = 0)"),
                      "a.js:\nconst k = x => x;\nfunction f(a, b = 1, c = 0) { return a + b; }\n"
                      "f(1); f(1, 2); f.call(null, 3); k(4);\n"
                      "unsure: a.js:2");
  unit_ops_free(f);
  /* A default the new list drops is written out at the calls only when it
   * is a literal; a skipped default before a given argument is undefined. */
  f = unit_ops_new("b.js", "const D = 3;\nfunction g(a, b = D, c = 2) { return a + b + c; }\n"
                   "g(1);\ng(1, 2, 3);\n", NULL);
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "g(a, b, c)", "g(a, c, b)"),
                      "b.js:\nconst D = 3;\nfunction g(a, c = 2, b = D) { return a + b + c; }\n"
                      "g(1);\ng(1, 3, 2);\n");
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "g(a, b, c)",
                                "g(a, x = 0, b, c)"),
                      "b.js:\nconst D = 3;\nfunction g(a, x = 0, b = D, c = 2) { return a + b + c; }\n"
                      "g(1);\ng(1, undefined, 2, 3);\n");
  assert_string_equal(lang_plan(f, REF_OP_SIGNATURE, "Signature", "g(a, b, c)",
                                "g(a, b=D, c=2, d)"),
                      "Fail: The call would lack d at b.js:2:0");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- Inline_Variable */

static void test_c_inline_variable_converts(void **state) {
  (void)state;
  long live = unit_live();
  UnitOps *f = unit_ops_new("m.c",
                                "double half(int n) {\n    double d = n;\n    int k = 2;\n"
                                "    return d / k;\n}\n",
                                NULL);
  /* d / k is a division of doubles: n / 2 would divide ints. */
  assert_string_equal(lang_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", "half.d", NULL),
                      "m.c:\ndouble half(int n) {\n    int k = 2;\n    return ((double)(n)) / k;\n}\n");
  assert_string_equal(lang_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", "half.k", NULL),
                      "m.c:\ndouble half(int n) {\n    double d = n;\n    return d / 2;\n}\n");
  unit_ops_free(f);
  f = unit_ops_new("t.c", "typedef int num;\nint g(void) {\n    num a = 1, b = 2;\n    num c = 3;\n"
                   "    return a + b + c;\n}\n", NULL);
  assert_string_equal(lang_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", "g.a", NULL),
                      "Fail: Inline_Variable needs a declared alone at t.c:2:8");
  assert_string_equal(lang_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", "g.c", NULL),
                      "Fail: Not supported for C: Inline_Variable cannot tell what converting to "
                      "the typedef num does at t.c:3:8");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

static void test_js_inline_variable(void **state) {
  (void)state;
  long live = unit_live();
  UnitOps *f = unit_ops_new("a.js",
                                "function f(x) {\n  const unit = \"cm\";\n  return { unit, x };\n}\n"
                                "function g(x) {\n  const y = x + 1;\n  return () => y * 2;\n}\n",
                                NULL);
  assert_string_equal(lang_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", "f.unit", NULL),
                      "a.js:\nfunction f(x) {\n  return { unit: \"cm\", x };\n}\n"
                      "function g(x) {\n  const y = x + 1;\n  return () => y * 2;\n}\n");
  /* Into a closure: the value is stable, its names mean the same there. */
  assert_string_equal(lang_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", "g.y", NULL),
                      "a.js:\nfunction f(x) {\n  const unit = \"cm\";\n  return { unit, x };\n}\n"
                      "function g(x) {\n  return () => (x + 1) * 2;\n}\n");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- InlineFunction */

static void test_c_inline_function_converts(void **state) {
  (void)state;
  long live = unit_live();
  /* A double argument to an int parameter is truncated by the call: the
   * cast keeps that; an int variable for an int parameter needs none. */
  UnitOps *f = unit_ops_new("m.c",
                                "static int twice(int x) {\n    return x + x;\n}\n"
                                "int g(int n, double d) {\n    return twice(n) + twice(d);\n}\n",
                                NULL);
  assert_string_equal(lang_plan(f, REF_OP_INLINE_FUNCTION, "InlineFunction", "twice", NULL),
                      "m.c:\nint g(int n, double d) {\n"
                      "    return (n + n) + (((int)(d)) + ((int)(d)));\n}\n");
  unit_ops_free(f);
  f = unit_ops_new("m.c", "static int *at(int *p, int i) {\n    return &p[i];\n}\n"
                   "static int bump(int x) {\n    return x++;\n}\n"
                   "int g(int *v) {\n    return *at(v, 1) + bump(2);\n}\n", NULL);
  assert_string_equal(lang_plan(f, REF_OP_INLINE_FUNCTION, "InlineFunction", "at", NULL),
                      "m.c:\nstatic int bump(int x) {\n    return x++;\n}\n"
                      "int g(int *v) {\n    return *((int *)(&v[1])) + bump(2);\n}\n");
  assert_string_equal(lang_plan(f, REF_OP_INLINE_FUNCTION, "InlineFunction", "bump", NULL),
                      "Fail: InlineFunction cannot inline an assignment to parameter x at m.c:4:11");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

static void test_js_inline_function(void **state) {
  (void)state;
  long live = unit_live();
  UnitOps *f = unit_ops_new("a.js",
                                "function add(a, b = 1) {\n  return a + b;\n}\n"
                                "const id = (v) => v;\n"
                                "function me() {\n  return this;\n}\n"
                                "console.log(add(2), add(g(), 3) * 2, id([1]), me());\n",
                                NULL);
  assert_string_equal(lang_plan(f, REF_OP_INLINE_FUNCTION, "InlineFunction", "add", NULL),
                      "a.js:\nconst id = (v) => v;\n"
                      "function me() {\n  return this;\n}\n"
                      "console.log(2 + 1, (g() + 3) * 2, id([1]), me());\n");
  /* A lone argument is written as it is. */
  assert_string_equal(lang_plan(f, REF_OP_INLINE_FUNCTION, "InlineFunction", "id", NULL),
                      "a.js:\nfunction add(a, b = 1) {\n  return a + b;\n}\n"
                      "function me() {\n  return this;\n}\n"
                      "console.log(add(2), add(g(), 3) * 2, [1], me());\n");
  assert_string_equal(lang_plan(f, REF_OP_INLINE_FUNCTION, "InlineFunction", "me", NULL),
                      "Fail: InlineFunction cannot take this to the call at a.js:5:9");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- Extract */

static const char *lang_extract(UnitOps *self, const char *path, uint32_t a, uint32_t b,
                                const char *name) {
  RefOpArgs args = {.path = path, .first = a, .last = b, .name = name};
  RefPlan plan;
  StrBuf facts = {0};
  EddiError err = {0};
  if (ref_op_plan(&self->index, REF_OP_EXTRACT, "Extract_Method", &args, &plan, &facts, &err) < 0) {
    snprintf(self->answer, sizeof self->answer, "Fail: %s", err.what);
  } else {
    snprintf(self->answer, sizeof self->answer, "%s", plan.changes.items[0].after);
    ref_plan_free(&plan);
  }
  eddi_strbuf_free(&facts);
  return self->answer;
}

static void test_js_extract(void **state) {
  (void)state;
  long live = unit_live();
  UnitOps *f = unit_ops_new("a.js",
                                "function f(xs) {\n  let n = 0;\n  for (const x of xs) {\n"
                                "    n += x;\n  }\n  const m = n * 2;\n  return m + n;\n}\n",
                                NULL);
  /* n is read and written: a parameter and the result, assigned back. */
  assert_string_equal(lang_extract(f, "a.js", 2, 4, "sum"),
                      "function f(xs) {\n  let n = 0;\n  n = sum(xs, n);\n"
                      "  const m = n * 2;\n  return m + n;\n}\n\n"
                      "function sum(xs, n) {\n  for (const x of xs) {\n    n += x;\n  }\n"
                      "  return n;\n}\n");
  /* Two results declared in the lines: declared by the call. */
  assert_string_equal(lang_extract(f, "a.js", 1, 5, "both"),
                      "function f(xs) {\n  let [n, m] = both(xs);\n  return m + n;\n}\n\n"
                      "function both(xs) {\n  let n = 0;\n  for (const x of xs) {\n"
                      "    n += x;\n  }\n  const m = n * 2;\n  return [n, m];\n}\n");
  /* The loop's body alone: x is the loop's, n assigned and live. */
  assert_string_equal(lang_extract(f, "a.js", 3, 3, "add"),
                      "function f(xs) {\n  let n = 0;\n  for (const x of xs) {\n"
                      "    n = add(x, n);\n  }\n  const m = n * 2;\n  return m + n;\n}\n\n"
                      "function add(x, n) {\n  n += x;\n  return n;\n}\n");
  assert_string_equal(lang_extract(f, "a.js", 1, 1, "xs"),
                      "Fail: Extract: xs is already defined where the lines call it at a.js:0:11");
  unit_ops_free(f);
  f = unit_ops_new("b.js", "function g(k) {\n  const h = () => this.v;\n  continue_();\n}\n"
                   "while (true) {\n  if (g(1)) break;\n}\n", NULL);
  assert_string_equal(lang_extract(f, "b.js", 1, 1, "mk"),
                      "Fail: Not supported for JavaScript: Extract: the lines read this at b.js:1:18");
  assert_string_equal(lang_extract(f, "b.js", 5, 5, "stop"),
                      "Fail: Extract: a break leaves the lines at b.js:5:12");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

static void test_c_extract(void **state) {
  (void)state;
  long live = unit_live();
  UnitOps *f = unit_ops_new("m.c",
                                "/* Sums. */\nint f(const char *s, int n) {\n    int k = 0;\n"
                                "    k += n;\n    int t = k * 2;\n    return t + s[0];\n}\n",
                                NULL);
  /* k is read and written: taken and given back; the function goes before
   * f and its comment. */
  assert_string_equal(lang_extract(f, "m.c", 3, 3, "bump"),
                      "static int bump(int n, int k) {\n    k += n;\n    return k;\n}\n\n"
                      "/* Sums. */\nint f(const char *s, int n) {\n    int k = 0;\n"
                      "    k = bump(n, k);\n    int t = k * 2;\n    return t + s[0];\n}\n");
  assert_string_equal(lang_extract(f, "m.c", 5, 5, "tail"),
                      "static int tail(int t, const char *s) {\n    return t + s[0];\n}\n\n"
                      "/* Sums. */\nint f(const char *s, int n) {\n    int k = 0;\n    k += n;\n"
                      "    int t = k * 2;\n    return tail(t, s);\n}\n");
  /* k is the lines' own: only t is given, declared by the call. */
  assert_string_equal(lang_extract(f, "m.c", 2, 4, "both"),
                      "static int both(int n) {\n    int k = 0;\n    k += n;\n    int t = k * 2;\n"
                      "    return t;\n}\n\n/* Sums. */\nint f(const char *s, int n) {\n"
                      "    int t = both(n);\n    return t + s[0];\n}\n");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

/* A loop variable the lines' loop assigns and the next loop assigns again
 * before reading it is no result: only n is given back. */
static void test_extract_loop_variable_reassigned_after(void **state) {
  (void)state;
  long live = unit_live();
  UnitOps *f = unit_ops_new("m.c",
                            "int dup(const int *rows, int len) {\n  int n = 0;\n  int i;\n"
                            "  for (i = 0; i < len; i++)\n    n += rows[i];\n"
                            "  for (i = 0; i < len; i++)\n    n -= rows[i];\n  return n;\n}\n",
                            NULL);
  /* C's initializer assigns i whether the loop runs or not: no parameter. */
  assert_string_equal(lang_extract(f, "m.c", 3, 4, "summed"),
                      "static int summed(int len, const int *rows, int n) {\n    int i;\n"
                      "    for (i = 0; i < len; i++)\n      n += rows[i];\n    return n;\n}\n\n"
                      "int dup(const int *rows, int len) {\n  int n = 0;\n  int i;\n"
                      "  n = summed(len, rows, n);\n  for (i = 0; i < len; i++)\n"
                      "    n -= rows[i];\n  return n;\n}\n");
  unit_ops_free(f);
  f = unit_ops_new("k.js",
                   "function late(rows) {\n  let n = 0;\n  let r;\n  for (r of rows) {\n"
                   "    n += r;\n  }\n  for (r of rows) {\n    n -= r;\n  }\n  return n;\n}\n",
                   NULL);
  assert_string_equal(lang_extract(f, "k.js", 3, 5, "summed"),
                      "function late(rows) {\n  let n = 0;\n  let r;\n  n = summed(rows, r, n);\n"
                      "  for (r of rows) {\n    n -= r;\n  }\n  return n;\n}\n\n"
                      "function summed(rows, r, n) {\n  for (r of rows) {\n    n += r;\n  }\n"
                      "  return n;\n}\n");
  unit_ops_free(f);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_c_param_names),
      cmocka_unit_test(test_literals_and_effects),
      cmocka_unit_test(test_c_signature_prototypes),
      cmocka_unit_test(test_js_signature_calls),
      cmocka_unit_test(test_c_inline_variable_converts),
      cmocka_unit_test(test_js_inline_variable),
      cmocka_unit_test(test_c_inline_function_converts),
      cmocka_unit_test(test_js_inline_function),
      cmocka_unit_test(test_js_extract),
      cmocka_unit_test(test_c_extract),
      cmocka_unit_test(test_extract_loop_variable_reassigned_after),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
