/* test_refactor_class.c - the class refactorings (module/refactor/class_*.c):
 * Change_Inheritance, ExtractClass, Split_Class, Merge_Classes and
 * TypeScript's Extract_Interface.
 *
 * The plans are made over an index of files given as text and checked
 * exactly (the new text of each changed file after "path:\n", or the Fail
 * message), for the cases the transcripts do not show: a base reached
 * through a module attribute, a package's dotted module in the new import,
 * a holder name in snake case, a file importing both merged classes in
 * one statement, a class whose type parameters have constraints. The
 * typed calls (the refactor and preview tools) carry the further words in
 * new_name, as the commands do. */
#include "refactor_ops_support.h"

#include "eddi.h"

/* Plan kind on spec with other: the new texts, or "Fail: <message>". */
static const char *class_plan(UnitOps *self, RefOpKind kind, const char *word, const char *spec,
                              const char *other) {
  RefOpArgs args = {.spec = spec, .other = other};
  return unit_ops_plan(self, kind, word, &args);
}

/* ---------------------------------------------------------------- Change_Inheritance */

static void test_inheritance_through_a_package(void **state) {
  EDDI_UNUSED(state);
  UnitOps *fx = unit_ops_new("pkg/__init__.py", "", "pkg/shapes.py",
                             "class Shape:\n    def area(self):\n        return 0\n\n\n"
                             "class Polygon(Shape):\n    pass\n",
                             "app.py",
                             "import pkg.shapes\n\n\nclass Square(pkg.shapes.Shape):\n"
                             "    def size(self):\n        return self.area()\n",
                             NULL);
  /* The base written as a module attribute; the new one imported from
   * the package's module. */
  assert_string_equal(class_plan(fx, REF_OP_CHANGE_INHERITANCE, "Change_Inheritance", "Square",
                                 "pkg.shapes.Shape Polygon"),
                      "app.py:\nimport pkg.shapes\nfrom pkg.shapes import Polygon\n\n\n"
                      "class Square(Polygon):\n    def size(self):\n        return self.area()\n");
  /* Dropping the only base loses area, which size uses through self. */
  assert_string_equal(
      class_plan(fx, REF_OP_CHANGE_INHERITANCE, "Change_Inheritance", "Square", "object"),
      "Fail: Change_Inheritance: Square would no longer have area "
      "(pkg/shapes.py:Shape.area) at app.py:5:20");
  unit_ops_free(fx);
}

/* ---------------------------------------------------------------- ExtractClass, Split_Class */

static void test_extract_class_holder_name(void **state) {
  EDDI_UNUSED(state);
  UnitOps *fx =
      unit_ops_new("bill.py",
                   "class Bill:\n    def __init__(self, total):\n        self.total = total\n"
                   "        self.note = ''\n\n    def show(self):\n        return self.total\n\n"
                   "    def twice(self):\n        return self.show() * 2\n",
                   NULL);
  assert_string_equal(
      class_plan(fx, REF_OP_EXTRACT_CLASS, "ExtractClass", "Bill", "PaymentInfo total,show"),
      "bill.py:\nclass PaymentInfo:\n    def __init__(self, total):\n        self.total = total\n\n"
      "    def show(self):\n        return self.total\n\n\n"
      "class Bill:\n    def __init__(self, total):\n        self.payment_info = "
      "PaymentInfo(total)\n"
      "        self.note = ''\n\n    def twice(self):\n        return self.payment_info.show() * "
      "2\n");
  /* Split_Class leaves show as a delegate; twice keeps calling it. */
  assert_string_equal(
      class_plan(fx, REF_OP_SPLIT_CLASS, "Split_Class", "Bill", "PaymentInfo total,show"),
      "bill.py:\nclass PaymentInfo:\n    def __init__(self, total):\n        self.total = total\n\n"
      "    def show(self):\n        return self.total\n\n\n"
      "class Bill:\n    def __init__(self, total):\n        self.payment_info = "
      "PaymentInfo(total)\n"
      "        self.note = ''\n\n    def show(self):\n        return self.payment_info.show()\n\n"
      "    def twice(self):\n        return self.show() * 2\n");
  /* A field whose value reads self cannot be made before the holder. */
  unit_ops_free(fx);
  fx = unit_ops_new("b.py",
                    "class B:\n    def __init__(self):\n        self.a = 1\n"
                    "        self.b = self.a + 1\n",
                    NULL);
  assert_string_equal(class_plan(fx, REF_OP_EXTRACT_CLASS, "ExtractClass", "B", "Part b"),
                      "Fail: ExtractClass: the value of b reads self at b.py:3:17");
  unit_ops_free(fx);
}

/* ---------------------------------------------------------------- Merge_Classes */

static void test_merge_keeps_one_import(void **state) {
  EDDI_UNUSED(state);
  UnitOps *fx =
      unit_ops_new("m.py",
                   "class A:\n    def a(self):\n        return 1\n\n\nclass B:\n    def b(self):\n"
                   "        return 2\n",
                   "use.py", "from m import A, B\n\nprint(A().a(), B().b())\n", NULL);
  assert_string_equal(class_plan(fx, REF_OP_MERGE_CLASSES, "Merge_Classes", "A", "B AB"),
                      "m.py:\nclass AB:\n    def a(self):\n        return 1\n\n"
                      "    def b(self):\n        return 2\n"
                      "use.py:\nfrom m import AB\n\nprint(AB().a(), AB().b())\n");
  unit_ops_free(fx);
}

/* ---------------------------------------------------------------- Extract_Interface (TypeScript)
 */

static void test_ts_interface_of_a_generic_class(void **state) {
  EDDI_UNUSED(state);
  UnitOps *fx = unit_ops_new("s.ts",
                             "export class Store<K extends string, V> {\n  size: number = 0;\n"
                             "  get(key: K): V | undefined {\n    return undefined;\n  }\n"
                             "  private drop(): void {}\n}\n",
                             NULL);
  assert_string_equal(
      class_plan(fx, REF_OP_EXTRACT_INTERFACE, "Extract_Interface", "Store", "Lookup"),
      "s.ts:\nexport interface Lookup<K extends string, V> {\n  size: number;\n"
      "  get(key: K): V | undefined;\n}\n\n"
      "export class Store<K extends string, V> implements Lookup<K, V> {\n  size: number = 0;\n"
      "  get(key: K): V | undefined {\n    return undefined;\n  }\n"
      "  private drop(): void {}\n}\n");
  unit_ops_free(fx);
}

/* ---------------------------------------------------------------- typed calls */

static void test_class_operations_as_typed_calls(void **state) {
  EDDI_UNUSED(state);
  char root[PATH_MAX], path[PATH_MAX], error[256] = "";
  unit_workspace_new(root);
  unit_path(path, root, "shapes.py");
  static const char shapes[] = "class Shape:\n    pass\n\n\nclass Round:\n    pass\n";
  unit_write_file(path, shapes, sizeof shapes - 1);
  long live = unit_live();
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  EddiCall preview = {.kind = EDDI_CALL_PREVIEW,
                      .operation = "Change_Inheritance",
                      .text = "Round",
                      .new_name = "object Shape"};
  EddiRequest req = {.sender = "a", .text = "Preview", .len = strlen("Preview")};
  EddiReply reply;
  EddiCallOutcome outcome;
  eddi_request_call(engine, &req, &preview, &reply, &outcome);
  assert_int_equal(reply.count, 1);
  assert_string_equal(reply.items[0].text,
                      "Ok, Preview: Would modify 1 file: shapes.py\n--- a/shapes.py\n"
                      "+++ b/shapes.py\n@@ -2,5 +2,5 @@\n     pass\n \n \n-class Round:\n"
                      "+class Round(Shape):\n"
                      "     pass");
  eddi_reply_free(&reply);
  EddiCall merge = {.kind = EDDI_CALL_REFACTOR,
                    .operation = "Merge_Classes",
                    .text = "Shape",
                    .new_name = "Round Shape"};
  req.text = "Refactor", req.len = strlen("Refactor");
  eddi_request_call(engine, &req, &merge, &reply, &outcome);
  assert_int_equal(reply.count, 1);
  assert_string_equal(
      reply.items[0].text,
      "Ok, Merged Shape and Round into Shape, 0 references updated, 1 file modified");
  assert_int_equal(outcome.files, 1);
  eddi_reply_free(&reply);
  size_t len = 0;
  char *bytes = unit_read_file(path, &len);
  assert_string_equal(bytes, "class Shape:\n    pass\n");
  free(bytes);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  unit_remove_tree(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_inheritance_through_a_package),
      cmocka_unit_test(test_extract_class_holder_name),
      cmocka_unit_test(test_merge_keeps_one_import),
      cmocka_unit_test(test_ts_interface_of_a_generic_class),
      cmocka_unit_test(test_class_operations_as_typed_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
