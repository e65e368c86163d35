/* test_syntax_split.c - the structure query of a large file run in two
 * halves on two threads (syntax.c): the elements are those a generated
 * file holds, in start order, with their parents and owners, and the nodes
 * of the second half's elements stay usable while the syntax lives. */
#include "unit_support.h"

#include "core/document.h"
#include "syntax/syntax.h"

/* Classes of the generated file, and methods in each: well past the size
 * from which the query is split (256 KiB). */
#define SPLIT_CLASSES 1200
#define SPLIT_METHODS 4

static void test_split_structure(void **state) {
  (void)state;
  long live = unit_live();
  StrBuf source = {0};
  eddi_strbuf_puts(&source, "import os\n\n");
  for (int c = 0; c < SPLIT_CLASSES; c++) {
    eddi_strbuf_printf(&source, "class Shape%d:\n    sides = %d\n\n", c, c % 7);
    for (int m = 0; m < SPLIT_METHODS; m++)
      eddi_strbuf_printf(&source, "    def area_%d(self, w, h):\n        return w * h + %d\n\n", m, c);
  }
  assert_true(source.len > ((size_t)256 << 10));
  EddiDoc *doc = eddi_doc_new("split.py", NULL, source.data, source.len, true, 10);
  EddiSyntax *syn;
  EddiError err;
  assert_int_equal(eddi_syntax_get(doc, 0, &syn, &err), 0);
  size_t classes = 0, methods = 0, variables = 0;
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (i) assert_true(syn->elements.items[i - 1].start <= e->start);
    assert_int_equal(ts_node_start_byte(e->node), e->start);
    assert_int_equal(ts_node_end_byte(e->node), e->end);
    if (e->kind == EDDI_ELEMENT_CLASS) {
      char want[32];
      snprintf(want, sizeof want, "Shape%zu", classes++);
      assert_string_equal(e->name, want);
      assert_int_equal(e->parent, -1);
    } else if (e->kind == EDDI_ELEMENT_METHOD) {
      methods++;
      assert_true(e->parent >= 0);
      assert_int_equal(syn->elements.items[e->parent].kind, EDDI_ELEMENT_CLASS);
      assert_string_equal(e->owner, syn->elements.items[e->parent].name);
    } else if (e->kind == EDDI_ELEMENT_VARIABLE && !e->local) {
      variables++;
    }
  }
  assert_int_equal(classes, SPLIT_CLASSES);
  assert_int_equal(methods, SPLIT_CLASSES * SPLIT_METHODS);
  assert_int_equal(variables, SPLIT_CLASSES);
  eddi_doc_free(doc);
  eddi_strbuf_free(&source);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_split_structure)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
