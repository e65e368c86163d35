/* test_refactor_ops.c - the refactorings past rename (module/refactor/ops.h).
 *
 * Each test builds an index from files given as text (no disk), plans one
 * operation and checks the answer exactly: the new text of each changed
 * file after "path:\n", or the Fail message. The traps are the ones that
 * would write wrong code: an argument with a call evaluated twice or not
 * at all, an operator around a substituted argument, a variable live after
 * the extracted lines or carried round a loop, an assignment's value read
 * before its target is written, a call through *args. */
#include "refactor_ops_support.h"

#include "refactor/flow.h"
#include "refactor/ops.h"

/* The fixture and plan of refactor_ops_support.h, under this file's names. */
typedef UnitOps OpsFixture;
#define ops_fixture unit_ops_new
#define ops_fixture_free unit_ops_free
#define ops_plan unit_ops_plan

static const char *signature(OpsFixture *self, const char *from, const char *to) {
  RefOpArgs args = {.spec = from, .other = to};
  return ops_plan(self, REF_OP_SIGNATURE, "Signature", &args);
}

static const char *inline_fn(OpsFixture *self, const char *spec) {
  RefOpArgs args = {.spec = spec};
  return ops_plan(self, REF_OP_INLINE_FUNCTION, "InlineFunction", &args);
}

static const char *extract(OpsFixture *self, const char *path, uint32_t a, uint32_t b,
                           const char *name) {
  RefOpArgs args = {.path = path, .first = a, .last = b, .name = name};
  return ops_plan(self, REF_OP_EXTRACT, "Extract_Method", &args);
}

/* ---------------------------------------------------------------- Signature */

static void test_signature_normal_form_of_calls(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "def f(a, b=0, c=0):\n    return a + b + c\n"
                              "f(1, 2)\nf(1, c=3)\nf(c=g(), a=h())\n",
                              NULL);
  /* b moves after c: a positional b becomes a keyword once c is missing;
   * keywords keep the order the call evaluates them in. */
  assert_string_equal(signature(f, "f(a, b=0, c=0)", "f(a, c=0, b=0)"),
                      "m.py:\ndef f(a, c=0, b=0):\n    return a + b + c\n"
                      "f(1, b=2)\nf(1, c=3)\nf(c=g(), a=h())\n");
  /* A new parameter with a value for the calls goes in every call. */
  assert_string_equal(signature(f, "f(a, b=0, c=0)", "f(a, d:=9, b=0, c=0)"),
                      "m.py:\ndef f(a, d, b=0, c=0):\n    return a + b + c\n"
                      "f(1, 9, 2)\nf(1, 9, c=3)\nf(c=g(), a=h(), d=9)\n");
  assert_string_equal(signature(f, "f(a, b=0, c=0)", "f(a, b=0, c=0, d:=9)"),
                      "Fail: d without a default cannot follow c=0");
  assert_string_equal(signature(f, "f(a, b=0, c=0)", "f(a, d, b=0, c=0)"),
                      "Fail: The call would lack d at m.py:2:0");
  assert_string_equal(signature(f, "f(a, b=0, c=0)", "f(b=0, c=0)"),
                      "Fail: Signature cannot remove a: the body uses it at m.py:1:11");
  ops_fixture_free(f);
  /* Arguments that call keep the order they are evaluated in. */
  f = ops_fixture("m.py", "def k(a, b):\n    return a\nk(g(), h())\nk(1, 2)\n", NULL);
  assert_string_equal(signature(f, "k(a, b)", "k(b, a)"),
                      "Fail: Signature would change the order in which this call evaluates its "
                      "arguments at m.py:2:0");
  ops_fixture_free(f);
  /* A removed argument that calls would not be evaluated any more. */
  f = ops_fixture("m.py", "def k(a, b):\n    return a\nk(1, log())\n", NULL);
  assert_string_equal(signature(f, "k(a, b)", "k(a)"),
                      "Fail: Signature would drop the evaluation of log() at m.py:2:0");
  ops_fixture_free(f);
  /* Unsure references (a splat, a value) survive only an added default. */
  f = ops_fixture("m.py", "def f(a, b):\n    return a\nf(*xs)\ng = f\n", NULL);
  assert_string_equal(signature(f, "f(a, b)", "f(b, a)"),
                      "Fail: 2 references to f cannot be resolved: m.py:2, m.py:3; nothing "
                      "written");
  assert_string_equal(signature(f, "f(a, b)", "f(a, b, c=1)"),
                      "m.py:\ndef f(a, b, c=1):\n    return a\nf(*xs)\ng = f\n");
  ops_fixture_free(f);
}

static void test_signature_method_keeps_self(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "class A:\n    def run(self, x, y):\n        return x - y\n\n"
                              "a = A()\na.run(1, 2)\nA.run(a, 1, 2)\n",
                              NULL);
  assert_string_equal(signature(f, "A.run(x, y)", "A.run(y, x)"),
                      "m.py:\nclass A:\n    def run(self, y, x):\n        return x - y\n\n"
                      "a = A()\na.run(2, 1)\nA.run(a, 2, 1)\n");
  ops_fixture_free(f);
}

static void test_signature_of_a_constructor(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "class Item:\n    def __init__(self, name, price=0):\n"
                              "        self.name = name\n\n"
                              "a = Item('x')\nok = isinstance(a, Item)\nb: Item = Item(name='y')\n",
                              NULL);
  assert_string_equal(signature(f, "Item.__init__(name, price=0)", "Item.__init__(price, name)"),
                      "m.py:\nclass Item:\n    def __init__(self, price, name):\n"
                      "        self.name = name\n\n"
                      "a = Item(0, 'x')\nok = isinstance(a, Item)\nb: Item = Item(0, name='y')\n");
  ops_fixture_free(f);
  f = ops_fixture("m.py",
                  "class Item:\n    def __init__(self, name):\n        self.name = name\n\n"
                  "class Box(Item):\n    pass\n",
                  NULL);
  assert_string_equal(signature(f, "Item.__init__(name)", "Item.__init__()"),
                      "Fail: Signature cannot yet change Item.__init__: a subclass inherits it at "
                      "m.py:4:6");
  ops_fixture_free(f);
}

/* ---------------------------------------------------------------- Inline */

static void test_inline_keeps_evaluation(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "def twice(x):\n    return x + x\n\n"
                              "def once(x):\n    return x * 2\n\n"
                              "a = twice(1 + 2)\nb = once(g() - 1)\nc = twice(g())\n",
                              NULL);
  /* g() evaluated twice: refused, nothing written. */
  assert_string_equal(inline_fn(f, "m.py:twice"),
                      "Fail: InlineFunction would repeat the evaluation of g(): x is used 2 "
                      "times and the argument calls or reads state");
  /* Used once: substituted, with the parentheses the operator needs. */
  assert_string_equal(inline_fn(f, "m.py:once"),
                      "m.py:\ndef twice(x):\n    return x + x\n\n"
                      "a = twice(1 + 2)\nb = (g() - 1) * 2\nc = twice(g())\n");
  ops_fixture_free(f);
}

static void test_inline_keeps_state_reads_in_place(void **state) {
  (void)state;
  /* box.v is read at the call, before the body changes it. */
  OpsFixture *f = ops_fixture("m.py",
                              "class Box:\n    v = 0\n\n"
                              "def swap(x, box):\n    box.v = 1\n    return x\n\n"
                              "b = Box()\nr = swap(b.v, b)\n",
                              NULL);
  assert_string_equal(inline_fn(f, "m.py:swap"),
                      "Fail: InlineFunction would evaluate b.v later than the call does at "
                      "m.py:5:11");
  ops_fixture_free(f);
  /* The same for a variable: box.v changes between. */
  f = ops_fixture("n.py",
                  "class Box:\n    v = 0\n\nb = Box()\nold = b.v\nb.v = 2\nprint(old)\n", NULL);
  RefOpArgs args = {.spec = "n.py:old"};
  assert_string_equal(ops_plan(f, REF_OP_INLINE_VARIABLE, "Inline_Variable", &args),
                      "Fail: Inline_Variable would evaluate b.v later than the assignment does "
                      "at n.py:6:6");
  ops_fixture_free(f);
}

static void test_inline_refuses_assigned_parameters(void **state) {
  (void)state;
  /* x = x + 1 in the body would assign the caller's a. */
  OpsFixture *f = ops_fixture("m.py", "def bump(x):\n    x = x + 1\n    return x\n\n"
                                      "a = 1\nb = bump(a)\n",
                              NULL);
  assert_string_equal(inline_fn(f, "m.py:bump"),
                      "Fail: InlineFunction cannot inline an assignment to parameter x at "
                      "m.py:1:4");
  ops_fixture_free(f);
}

static void test_inline_needs_same_names_at_the_call(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "def show(x):\n    label = str(x)\n    print(label)\n\n"
                              "label = 'kept'\nshow(1)\n",
                              NULL);
  assert_string_equal(inline_fn(f, "m.py:show"),
                      "Fail: InlineFunction would bind label, which the call's scope already "
                      "has at m.py:5:0");
  ops_fixture_free(f);
}

/* ---------------------------------------------------------------- Extract */

static void test_extract_flow(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "def f(items):\n"
                              "    n = 0\n"
                              "    for i in items:\n"
                              "        n = n + i\n"
                              "        last = i\n"
                              "    return n\n",
                              NULL);
  /* n is read before it is written (the value first) and carried round
   * the loop; last is read nowhere after. */
  assert_string_equal(extract(f, "m.py", 3, 4, "step"),
                      "m.py:\ndef f(items):\n    n = 0\n    for i in items:\n"
                      "        n = step(n, i)\n    return n\n\n"
                      "def step(n, i):\n    n = n + i\n    last = i\n    return n\n");
  assert_string_equal(extract(f, "m.py", 2, 3, "part"),
                      "Fail: Extract needs whole statements: lines 2:3 end inside this one at "
                      "m.py:2:4");
  assert_string_equal(extract(f, "m.py", 1, 1, "f"),
                      "Fail: Extract: f is already defined at m.py:0:4");
  ops_fixture_free(f);
}

static void test_extract_closures(void **state) {
  (void)state;
  /* show() reads x after the lines ran: x stays the function's. */
  OpsFixture *f = ops_fixture("m.py",
                              "def f():\n    x = 1\n    def show():\n        print(x)\n"
                              "    x = 2\n    show()\n",
                              NULL);
  assert_string_equal(extract(f, "m.py", 4, 4, "part"),
                      "m.py:\ndef f():\n    x = 1\n    def show():\n        print(x)\n"
                      "    x = part()\n    show()\n\ndef part():\n    x = 2\n    return x\n");
  ops_fixture_free(f);
  /* A function the lines define reads y, assigned only after them. */
  f = ops_fixture("n.py",
                  "def f():\n    def show():\n        return y\n    y = 1\n    return show()\n",
                  NULL);
  assert_string_equal(extract(f, "n.py", 1, 2, "part"),
                      "Fail: Extract: a function the lines define reads a variable assigned only "
                      "later at n.py:2:15");
  ops_fixture_free(f);
}

static void test_extract_refuses_exits(void **state) {
  (void)state;
  OpsFixture *f = ops_fixture("m.py",
                              "def f(items):\n"
                              "    for i in items:\n"
                              "        if i:\n"
                              "            continue\n"
                              "        print(i)\n",
                              NULL);
  assert_string_equal(extract(f, "m.py", 2, 3, "g"),
                      "Fail: Extract: a continue leaves the lines at m.py:3:12");
  ops_fixture_free(f);
}

static void test_extract_kinds_and_duplicates(void **state) {
  (void)state;
  /* A static method's lines make a static method called through the
   * class; the class method's same line is no duplicate of it. */
  OpsFixture *f = ops_fixture("m.py",
                              "class A:\n    @staticmethod\n    def s(x):\n        print(x)\n\n"
                              "    @classmethod\n    def c(cls, x):\n        print(x)\n",
                              NULL);
  assert_string_equal(extract(f, "m.py", 3, 3, "show"),
                      "m.py:\nclass A:\n    @staticmethod\n    def s(x):\n        A.show(x)\n\n"
                      "    @staticmethod\n    def show(x):\n        print(x)\n\n"
                      "    @classmethod\n    def c(cls, x):\n        print(x)\n");
  ops_fixture_free(f);
  /* A duplicate that could run before the new function is defined (a()
   * is called at import, above it) stays. */
  f = ops_fixture("n.py",
                  "def a():\n    print(1)\n\n\na()\n\n\ndef b():\n    print(1)\n\n\n"
                  "def c():\n    print(1)\n",
                  NULL);
  assert_string_equal(extract(f, "n.py", 8, 8, "one"),
                      "n.py:\ndef a():\n    print(1)\n\n\na()\n\n\ndef b():\n    one()\n\n"
                      "def one():\n    print(1)\n\n\ndef c():\n    one()\n");
  ops_fixture_free(f);
}

/* ---------------------------------------------------------------- in one file */

static void test_signature_local_for_modify(void **state) {
  (void)state;
  const char *text = "def f(a, b):\n    return a\n\nf(1, 2)\nf(b=2, a=1)\n";
  RefTextEdits edits;
  size_t calls;
  StrBuf unsure = {0};
  EddiError err = {0};
  RefSignatureLocal op = {.path = "m.py", .text = text, .len = strlen(text),
                          .old_sig = "m.py:0:4(a, b)", .new_sig = "m.py:0:4(a)"};
  assert_int_equal(ref_signature_local(&op, &edits, &calls, &unsure, &err), 0);
  assert_int_equal(calls, 2);
  assert_int_equal(edits.len, 3);
  ref_text_edits_free(&edits);
  eddi_strbuf_free(&unsure);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_signature_normal_form_of_calls),
      cmocka_unit_test(test_signature_method_keeps_self),
      cmocka_unit_test(test_signature_of_a_constructor),
      cmocka_unit_test(test_inline_keeps_evaluation),
      cmocka_unit_test(test_inline_keeps_state_reads_in_place),
      cmocka_unit_test(test_inline_refuses_assigned_parameters),
      cmocka_unit_test(test_inline_needs_same_names_at_the_call),
      cmocka_unit_test(test_extract_flow),
      cmocka_unit_test(test_extract_closures),
      cmocka_unit_test(test_extract_refuses_exits),
      cmocka_unit_test(test_extract_kinds_and_duplicates),
      cmocka_unit_test(test_signature_local_for_modify),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
