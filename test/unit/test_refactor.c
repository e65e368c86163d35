/* test_refactor.c - name resolution and rename plans (module/refactor/).
 *
 * Each test builds an index from files given as text (no disk), asks what
 * an occurrence refers to (by the text around it) or plans a rename, and
 * checks the answer exactly: the qualified name of the target, UNSURE or
 * NONE; the files and texts a plan writes, or the refusal. */
#include "refactor_support.h"

#include "refactor/refactor.h"
#include "refactor/rename.h"
#include "refactor/target.h"

/* Most files one test builds. */
#define FIXTURE_FILES_MAX 8

typedef struct {
  RefIndex index;
  RefProgram program;
  bool program_ready;
  char answer[2048];
} Fixture;

/* An index of the files given as path, text, path, text, ..., NULL. */
static Fixture *fixture_new(const char *path, ...) {
  Fixture *self = calloc(1, sizeof *self);
  ref_index_init(&self->index, (size_t)1 << 24, 1000);
  va_list ap;
  va_start(ap, path);
  unit_index_add_files(&self->index, path, ap);
  va_end(ap);
  return self;
}

static RefProgram *fixture_program(Fixture *self) {
  if (!self->program_ready) {
    RefFile *files[FIXTURE_FILES_MAX];
    for (size_t i = 0; i < self->index.sources.len; i++)
      files[i] = self->index.sources.items[i].file;
    ref_program_init(&self->program, &self->index.names, files, self->index.sources.len);
    ref_index_program_roots(&self->index, &self->program);
    self->program_ready = true;
  }
  return &self->program;
}

static void fixture_free(Fixture *self) {
  if (self->program_ready) ref_program_free(&self->program);
  ref_index_free(&self->index);
  free(self);
}

static uint32_t fixture_source(Fixture *self, const char *path) {
  for (uint32_t i = 0; i < self->index.sources.len; i++)
    if (!strcmp(self->index.sources.items[i].path, path)) return i;
  fail_msg("no file %s", path);
  return 0;
}

/* What the name at the start of the nth (0-based) place where needle
 * occurs in path refers to: its qualified name, "UNSURE" or "NONE". */
static const char *target_of(Fixture *self, const char *path, const char *needle, int nth) {
  uint32_t source = fixture_source(self, path);
  const RefSource *s = &self->index.sources.items[source];
  const char *at = s->text;
  for (int i = 0; at && i <= nth; i++) at = strstr(i ? at + 1 : at, needle);
  if (!at) fail_msg("%s: no %d-th %s", path, nth, needle);
  uint32_t offset = (uint32_t)(at - s->text);
  RefProgram *program = fixture_program(self);
  const RefFile *file = s->file;
  for (uint32_t i = 0; i < file->occs.len; i++) {
    if (file->occs.items[i].start != offset) continue;
    RefTarget target = ref_program_target(program, source, i);
    if (target.kind == REF_TARGET_UNSURE) return "UNSURE";
    if (target.kind == REF_TARGET_NONE) return "NONE";
    StrBuf name = {0};
    ref_target_name(program, &self->index, target, &name);
    snprintf(self->answer, sizeof self->answer, "%s", name.data);
    eddi_strbuf_free(&name);
    return self->answer;
  }
  fail_msg("%s: no occurrence at %s", path, needle);
  return NULL;
}

/* Plan a rename; on success the new text of each changed file follows
 * "path:\n", on failure the Fail message (and hint). */
static const char *plan(Fixture *self, const char *spec, const char *new_name) {
  RefPlan p;
  EddiError err = {0};
  if (ref_rename_plan(&self->index, spec, new_name, 0, &p, &err) < 0) {
    snprintf(self->answer, sizeof self->answer, "%.500s%s%.500s", err.what, err.hint[0] ? ", " : "",
             err.hint);
    return self->answer;
  }
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (size_t i = 0; i < p.changes.len; i++)
    eddi_strbuf_printf(&out, "%s:\n%s",
                       p.changes.items[i].new_path
                           ? p.changes.items[i].new_path
                           : self->index.sources.items[p.changes.items[i].source].path,
                       p.changes.items[i].after);
  if (p.unsure_count) eddi_strbuf_printf(&out, "unsure: %s\n", p.unsure.data);
  snprintf(self->answer, sizeof self->answer, "%s", out.data);
  eddi_strbuf_free(&out);
  ref_plan_free(&p);
  return self->answer;
}

/* ---------------------------------------------------------------- scopes */

static void test_class_body_does_not_enclose_methods(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("m.py",
                           "x = 1\n"
                           "class A:\n"
                           "    x = 2\n"
                           "    y = x\n"
                           "    def f(self, d=x):\n"
                           "        return x\n",
                           NULL);
  assert_string_equal(target_of(f, "m.py", "x\n    def", 0), "m.py:A.x"); /* y = x: the class's */
  assert_string_equal(target_of(f, "m.py", "x):", 0), "m.py:A.x");        /* a default: outside */
  assert_string_equal(target_of(f, "m.py", "x\n", 1), "m.py:x"); /* return x: the module's */
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_comprehensions_lambdas_global_nonlocal(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("m.py",
                           "i = 0\n"
                           "xs = [i for i in range(i)]\n"
                           "g = lambda i: i\n"
                           "def outer():\n"
                           "    n = 1\n"
                           "    def inner():\n"
                           "        nonlocal n\n"
                           "        global i\n"
                           "        n = i\n"
                           "    return n\n",
                           NULL);
  assert_string_equal(target_of(f, "m.py", "i for", 0), "m.py:1:12"); /* the comprehension's */
  assert_string_equal(target_of(f, "m.py", "i)]", 0), "m.py:i");      /* first iterable: outside */
  assert_string_equal(target_of(f, "m.py", "i: i", 0), "m.py:2:11");  /* the lambda's */
  assert_string_equal(target_of(f, "m.py", "n = i", 0), "m.py:outer.n");   /* nonlocal */
  assert_string_equal(target_of(f, "m.py", "i\n    return", 0), "m.py:i"); /* global */
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_destructuring_and_parameters(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("m.py",
                           "def f(a, *rest, key=None, **kw):\n"
                           "    b, (c, *d) = a\n"
                           "    for e, g in kw.items():\n"
                           "        pass\n"
                           "    with open(a) as (h, j):\n"
                           "        pass\n"
                           "    return b, c, d, e, g, h, j, rest, key\n",
                           NULL);
  /* The uses on the last line, each found as the nth place of its text. */
  static const struct {
    const char *needle;
    int nth;
    const char *target;
  } names[] = {
      {"b, c", 0, "m.py:f.b"},    {"c, d", 0, "m.py:f.c"},         {"d, e", 0, "m.py:f.d"},
      {"e, g", 1, "m.py:f.e"},    {"g, h", 0, "m.py:f.g"},         {"h, j", 1, "m.py:f.h"},
      {"j, rest", 0, "m.py:f.j"}, {"rest, key", 0, "m.py:f.rest"}, {"key\n", 0, "m.py:f.key"},
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    assert_string_equal(target_of(f, "m.py", names[i].needle, names[i].nth), names[i].target);
  fixture_free(f);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- members */

static void test_self_annotations_and_classes(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("m.py",
                           "class A:\n"
                           "    def __init__(self, n):\n"
                           "        self.count = n\n"
                           "    def run(self):\n"
                           "        return self.count\n"
                           "class B(A):\n"
                           "    def run(self):\n"
                           "        return self.count + super().run()\n"
                           "def use(a: A, b, c=None):\n"
                           "    x = B(n=1)\n"
                           "    return a.run(), b.run(), x.run(), x.count, getattr(a, \"run\")\n",
                           NULL);
  assert_string_equal(target_of(f, "m.py", "count = n", 0), "m.py:A.count"); /* set through self */
  assert_string_equal(target_of(f, "m.py", "count + ", 0), "m.py:A.count");  /* from the subclass */
  assert_string_equal(target_of(f, "m.py", "run()", 0), "m.py:A.run");       /* super(): the base */
  assert_string_equal(target_of(f, "m.py", "run(), b", 0), "m.py:A.run");    /* annotated a */
  assert_string_equal(target_of(f, "m.py", "run(), x", 0), "UNSURE");        /* unknown b */
  assert_string_equal(target_of(f, "m.py", "run(), x.count", 0), "m.py:B.run"); /* x = B() */
  assert_string_equal(target_of(f, "m.py", "n=1", 0),
                      "m.py:A.__init__.n");                         /* keyword -> __init__ */
  assert_string_equal(target_of(f, "m.py", "run\")", 0), "UNSURE"); /* a string */
  assert_string_equal(target_of(f, "m.py", "A, b", 0), "m.py:A");   /* an annotation */
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_decorators_and_exports(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("m.py",
                           "__all__ = ['wrap', \"C\"]\n"
                           "def wrap(fn):\n"
                           "    return fn\n"
                           "@wrap\n"
                           "class C:\n"
                           "    @staticmethod\n"
                           "    def s(x):\n"
                           "        return x.s\n",
                           NULL);
  assert_string_equal(target_of(f, "m.py", "wrap', ", 0), "m.py:wrap");
  assert_string_equal(target_of(f, "m.py", "C\"]", 0), "m.py:C");
  assert_string_equal(target_of(f, "m.py", "wrap\nclass", 0), "m.py:wrap");
  assert_string_equal(target_of(f, "m.py", "s\n", 0), "UNSURE"); /* a staticmethod has no self */
  fixture_free(f);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- imports */

static void test_imports_between_files(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("pkg/__init__.py", "from .impl import helper\n", "pkg/impl.py",
                           "def helper():\n    pass\nclass K:\n    pass\n", "pkg/sub/mod.py",
                           "from ..impl import K as Kay\nfrom . import other\n", "pkg/sub/other.py",
                           "V = 1\n", "main.py",
                           "import pkg.impl as pi\n"
                           "import pkg\n"
                           "from pkg import helper\n"
                           "from pkg.sub.mod import Kay\n"
                           "from os import path\n"
                           "from pkg.sub.other import *\n"
                           "pi.helper(), pkg.helper(), helper(), Kay, path.join, V\n",
                           NULL);
  assert_string_equal(target_of(f, "main.py", "helper(), pkg", 0), "pkg/impl.py:helper");
  assert_string_equal(target_of(f, "main.py", "helper(), helper", 0), "pkg/impl.py:helper");
  assert_string_equal(target_of(f, "main.py", "helper(), Kay", 0), "pkg/impl.py:helper");
  assert_string_equal(target_of(f, "main.py", "Kay, path", 0), "pkg/sub/mod.py:Kay"); /* an alias */
  assert_string_equal(target_of(f, "pkg/sub/mod.py", "K as", 0), "pkg/impl.py:K");
  assert_string_equal(target_of(f, "main.py", "impl as", 0), "pkg.impl");
  assert_string_equal(target_of(f, "pkg/sub/mod.py", "other", 0), "pkg.sub.other");
  assert_string_equal(target_of(f, "main.py", "join", 0), "NONE");  /* outside the workspace */
  assert_string_equal(target_of(f, "main.py", "V\n", 0), "UNSURE"); /* through a star import */
  fixture_free(f);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- rename plans */

static void test_rename_across_files(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("a.py",
                           "class A:\n"
                           "    def total(self, count=1):\n"
                           "        return count\n"
                           "class B:\n"
                           "    def total(self):\n"
                           "        return 'total'  # total\n",
                           "b.py",
                           "from a import A, B\n"
                           "def use(a: A, b: B, c):\n"
                           "    return a.total(count=2) + b.total() + c.total()\n",
                           NULL);
  assert_string_equal(plan(f, "a.py:A.total", "grand"),
                      "a.py:\n"
                      "class A:\n"
                      "    def grand(self, count=1):\n"
                      "        return count\n"
                      "class B:\n"
                      "    def total(self):\n"
                      "        return 'total'  # total\n"
                      "b.py:\n"
                      "from a import A, B\n"
                      "def use(a: A, b: B, c):\n"
                      "    return a.grand(count=2) + b.total() + c.total()\n"
                      "unsure: a.py:5, b.py:2\n");
  assert_string_equal(plan(f, "a.py:A.total.count", "n"),
                      "a.py:\n"
                      "class A:\n"
                      "    def total(self, n=1):\n"
                      "        return n\n"
                      "class B:\n"
                      "    def total(self):\n"
                      "        return 'total'  # total\n"
                      "b.py:\n"
                      "from a import A, B\n"
                      "def use(a: A, b: B, c):\n"
                      "    return a.total(n=2) + b.total() + c.total()\n");
  assert_string_equal(plan(f, "total", "x"),
                      "Ambiguous name total: 2 definitions, Candidates a.py:A.total at a.py:1:8, "
                      "a.py:B.total at a.py:4:8");
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_rename_conflicts(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("c.py",
                           "from os import path\n"
                           "total = 0\n"
                           "def f(items):\n"
                           "    for i in items:\n"
                           "        count = i\n"
                           "    return total\n"
                           "class Base:\n"
                           "    def run(self):\n"
                           "        pass\n"
                           "class Sub(Base):\n"
                           "    def go(self):\n"
                           "        pass\n",
                           NULL);
  assert_string_equal(plan(f, "c.py:total", "class"), "class is a keyword in python");
  assert_string_equal(plan(f, "c.py:total", "9bad"), "9bad is not a valid name in python");
  assert_string_equal(plan(f, "c.py:total", "f"), "Rename would clash with f defined at c.py:2:4");
  assert_string_equal(plan(f, "c.py:total", "path"),
                      "Rename would clash with path imported at c.py:0:15");
  assert_string_equal(plan(f, "c.py:total", "count"),
                      "Rename would be shadowed at c.py:5:11 by count defined at c.py:4:8");
  assert_string_equal(plan(f, "c.py:f.count", "total"),
                      "Rename would shadow total at c.py:5:11 (defined at c.py:1:0)");
  assert_string_equal(plan(f, "c.py:Sub.go", "run"),
                      "Rename would clash with Base.run at c.py:7:8 (a base class)");
  assert_string_equal(plan(f, "c.py:Base.run", "go"),
                      "Rename would clash with Sub.go at c.py:10:8 (a subclass)");
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_rename_overrides_together(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("h.py",
                           "class Base:\n"
                           "    def run(self):\n"
                           "        return self.run\n"
                           "class Sub(Base):\n"
                           "    def run(self):\n"
                           "        return 1\n"
                           "class Other:\n"
                           "    def run(self):\n"
                           "        return 2\n",
                           NULL);
  assert_string_equal(plan(f, "h.py:Sub.run", "go"),
                      "h.py:\n"
                      "class Base:\n"
                      "    def go(self):\n"
                      "        return self.go\n"
                      "class Sub(Base):\n"
                      "    def go(self):\n"
                      "        return 1\n"
                      "class Other:\n"
                      "    def run(self):\n"
                      "        return 2\n");
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_rename_guards_of_the_hierarchy(void **state) {
  (void)state;
  long live = unit_live();
  Fixture *f = fixture_new("g.py",
                           "import unittest\n"
                           "class Visitor:\n"
                           "    def visit(self, node):\n"
                           "        return getattr(self, 'visit_' + node)()\n"
                           "    def visit_Name(self):\n"
                           "        return 1\n"
                           "class Mixin:\n"
                           "    def flakes(self):\n"
                           "        return 2\n"
                           "class Harness:\n"
                           "    def flakes(self):\n"
                           "        return 3\n"
                           "class Both(Mixin, Harness):\n"
                           "    pass\n"
                           "class Case(unittest.TestCase):\n"
                           "    def setUp(self):\n"
                           "        pass\n"
                           "class Plain(object):\n"
                           "    def go(self):\n"
                           "        return super().go\n",
                           NULL);
  assert_string_equal(plan(f, "g.py:Visitor.visit_Name", "visit_Id"),
                      "visit_Name may be looked up by a computed name at g.py:3:29, "
                      "Add Unsure or Leave to rename it anyway");
  assert_string_equal(plan(f, "g.py:Case.setUp", "prepare"),
                      "Case.setUp may override a member of TestCase, outside the workspace, "
                      "Add Unsure or Leave to rename it anyway");
  assert_string_equal(plan(f, "g.py:Mixin.flakes", "check"), /* both: Both sees either */
                      "g.py:\n"
                      "import unittest\n"
                      "class Visitor:\n"
                      "    def visit(self, node):\n"
                      "        return getattr(self, 'visit_' + node)()\n"
                      "    def visit_Name(self):\n"
                      "        return 1\n"
                      "class Mixin:\n"
                      "    def check(self):\n"
                      "        return 2\n"
                      "class Harness:\n"
                      "    def check(self):\n"
                      "        return 3\n"
                      "class Both(Mixin, Harness):\n"
                      "    pass\n"
                      "class Case(unittest.TestCase):\n"
                      "    def setUp(self):\n"
                      "        pass\n"
                      "class Plain(object):\n"
                      "    def go(self):\n"
                      "        return super().go\n");
  assert_string_equal(plan(f, "g.py:Plain.go", "__go__"), "__go__ is a special name in python");
  assert_string_equal(plan(f, "g.py:Visitor.__init__", "x"),
                      "No definition of g.py:Visitor.__init__ found");
  fixture_free(f);
  unit_assert_no_leak(live);
}

static void test_local_rename_for_modify(void **state) {
  (void)state;
  long live = unit_live();
  const char *text =
      "class B:\n"
      "    def total(self):\n"
      "        return 2\n"
      "def total(b: B, x):\n"
      "    return b.total() + x.total()\n"
      "print(total(B(), None))\n";
  EddiLocalRename rename;
  EddiError err = {0};
  size_t at = (size_t)(strstr(text, "total(b") - text);
  assert_true(eddi_refactor_knows("m.py", text, strlen(text)));
  assert_int_equal(
      eddi_refactor_rename_local("m.py", text, strlen(text), at, "grand", &rename, &err), 0);
  assert_int_equal(rename.spans.len, 2); /* the definition and the call; b.total() is B's */
  assert_int_equal(rename.spans.items[1].start, (size_t)(strstr(text, "total(B()") - text));
  assert_string_equal(rename.unsure.data, "m.py:4"); /* x.total() */
  eddi_local_rename_free(&rename);
  assert_int_equal(
      eddi_refactor_rename_local("m.py", text, strlen(text), at, "print", &rename, &err),
      EDDI_EINVAL);
  assert_string_equal(err.what,
                      "Rename would shadow print at m.py:5:0 (defined outside the workspace)");
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_class_body_does_not_enclose_methods),
      cmocka_unit_test(test_comprehensions_lambdas_global_nonlocal),
      cmocka_unit_test(test_destructuring_and_parameters),
      cmocka_unit_test(test_self_annotations_and_classes),
      cmocka_unit_test(test_decorators_and_exports),
      cmocka_unit_test(test_imports_between_files),
      cmocka_unit_test(test_rename_across_files),
      cmocka_unit_test(test_rename_conflicts),
      cmocka_unit_test(test_rename_overrides_together),
      cmocka_unit_test(test_rename_guards_of_the_hierarchy),
      cmocka_unit_test(test_local_rename_for_modify),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
