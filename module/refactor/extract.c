/* extract.c - Refactor Extract_Method <name> lines <a>:<b> and
 * ExtractFunction <a>:<b> <name>: a run of whole statements becomes a new
 * function (a method when the lines are in one), called where they were.
 *
 * The region must be whole statements of one block inside a function or
 * at module level (not a class body). It is refused when it yields or
 * awaits, when a break or continue leaves it, or when it returns other
 * than by one return as its last statement (then the call is returned).
 * What the new function takes and gives comes from the flow of the
 * enclosing function's variables (flow.h): parameters are the variables
 * read in the region before it writes them, and those it writes only
 * conditionally that had a value before; results are the variables it
 * writes that are read after it (or again in the next turn of a loop
 * around it). Names declared global or nonlocal that the region assigns
 * get the same declaration in the new function.
 *
 * Where the new function goes is the enclosing function's level: after it
 * (a method after the method, a nested function after the nested one, in
 * the same function), or before the module-level statement holding the
 * region. Other runs of the same statements in the same class or module
 * (the same text, read at their own indentation) are replaced by calls
 * too, when their flow gives the same parameters. The same code with
 * other variable names is no duplicate: it is left as it is.
 *
 * JavaScript and TypeScript: the lines of a function (not a method: its
 * this) or of the module become a function declaration beside the
 * statement holding the enclosing function (before the module's statement
 * holding the lines); results declared in the lines are declared by the
 * call (const [a, b] = f(...), let when one was a let), one declared
 * before is assigned. Refused: lines that read this, super, arguments or
 * new.target, that declare a var or a function or class (hoisted, seen by
 * the code around), that yield or await, a break, continue or return that
 * leaves them (but a return as their last statement), results declared
 * both in the lines and before them, or several declared before them.
 * No duplicates are looked for.
 *
 * C: the lines of a function become a static function before it (C
 * declares before use) that takes the variables it reads first, each with
 * the type it is declared with, and returns the one it gives (declared by
 * the call when the lines declared it, else assigned); a variable declared
 * before that the lines assign without taking is declared again in it.
 * Refused: more than one result (C returns one value), a variable whose
 * type cannot be written (an array, whose sizeof would see a pointer; a
 * function pointer), an address taken of a variable from outside the
 * lines (it would be the copy's), a goto or a label, a workspace macro (it
 * may name the function's variables), a static local, a return from a
 * void function, a name some file declares at file scope.
 *
 * The file holds one operation over three languages' regions, sharing the
 * region, the flow and the checks of the new name; hence its length. */
#include <ctype.h>

#include "refactor/expr.h"
#include "refactor/flow.h"
#include "refactor/ops_lang.h"

/* Most statements a region (and so a duplicate) may hold. */
#define EXTRACT_STATEMENTS_MAX 4096

typedef struct {
  RefOps *ops;
  uint32_t file;
  const RefSource *src;
  const char *name;
  TSNode first, last; /* the region's statements */
  size_t count;
  TSNode function; /* the enclosing function_definition, or null at module level */
  TSNode container;  /* the node the new function goes beside: function or statement */
  char *self_name; /* what the call goes through: self, cls, the class; or NULL */
  char *first_param; /* the new method's first parameter: self, cls; or NULL */
  const char *decorator; /* "@staticmethod", "@classmethod" or NULL */
  uint32_t insert_at;    /* where the new function goes */
  RefFlow flow;
  bool returns; /* the region ends with a return */
  size_t duplicates;
} Extract;

/* ---------------------------------------------------------------- the region */

static bool extract__space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The statement node that starts at offset, a child of a block or the
 * module, or a null node. */
static TSNode extract__statement_at(RefOps *ops, uint32_t f, uint32_t offset) {
  TSNode node = ts_node_descendant_for_byte_range(ref_ops_root(ops, f), offset, offset + 1);
  while (!ts_node_is_null(node)) {
    TSNode parent = ts_node_parent(node);
    if (ts_node_is_null(parent)) return (TSNode){0};
    if (ref_node_is(parent, "block") || ref_node_is(parent, "module") ||
        ref_node_is(parent, "statement_block") || ref_node_is(parent, "program") ||
        ref_node_is(parent, "compound_statement"))
      return ts_node_start_byte(node) == offset && ts_node_is_named(node) ? node : (TSNode){0};
    node = parent;
  }
  return node;
}

static int extract__region(Extract *self, uint32_t first_line, uint32_t last_line) {
  RefOps *ops = self->ops;
  const RefSource *src = self->src;
  uint32_t start = 0, line = 0;
  while (line < first_line && start < src->len) start = ref_ops_next_line(src, start), line++;
  if (line < first_line || start >= src->len)
    return eddi_error_set(ops->err, EDDI_EINVAL, "Lines %u:%u are past the end of %s (%u lines)",
                          first_line, last_line, src->path, line);
  uint32_t end = start;
  for (; line <= last_line && end < src->len; line++) end = ref_ops_next_line(src, end);
  if (line <= last_line)
    return eddi_error_set(ops->err, EDDI_EINVAL, "Lines %u:%u are past the end of %s (%u lines)",
                          first_line, last_line, src->path, line);
  uint32_t p = start;
  while (p < end && extract__space(src->text[p])) p++;
  uint32_t q = end;
  while (q > p && extract__space(src->text[q - 1])) q--;
  if (p >= q) return eddi_error_set(ops->err, EDDI_EINVAL, "Lines %u:%u hold no statement",
                                    first_line, last_line);
  self->first = extract__statement_at(ops, self->file, p);
  if (ts_node_is_null(self->first) || ref_node_is(self->first, "comment")) {
    ref_ops_fail_at(ops, self->file, p, "Extract needs whole statements: lines %u:%u start "
                                        "inside one", first_line, last_line);
    eddi_error_hint(ops->err, "Start at a statement's first line");
    return EDDI_EINVAL;
  }
  TSNode node = self->first;
  for (;;) {
    if (ts_node_end_byte(node) > q) {
      ref_ops_fail_at(ops, self->file, ts_node_start_byte(node),
                      "Extract needs whole statements: lines %u:%u end inside this one",
                      first_line, last_line);
      eddi_error_hint(ops->err, "End at the last line of a statement (Show it to see its lines)");
      return EDDI_EINVAL;
    }
    if (!ref_node_is(node, "comment")) self->last = node, self->count++;
    TSNode next = ts_node_next_named_sibling(node);
    if (ts_node_is_null(next) || ts_node_start_byte(next) >= q) break;
    node = next;
  }
  if (ts_node_end_byte(node) < q) {
    /* Something after the block's last statement: a dedent to another. */
    return ref_ops_fail_at(ops, self->file, ts_node_end_byte(node),
                           "Extract needs the statements of one block");
  }
  if (self->count > EXTRACT_STATEMENTS_MAX)
    return eddi_error_set(ops->err, EDDI_EINVAL, "More than %d statements", EXTRACT_STATEMENTS_MAX);
  return 0;
}

/* Whether function is a method of a class (directly in its body), and
 * how the new method is called and declared: *decorator, *first (its
 * first parameter, new string or NULL), *receiver (new string: what calls
 * go through). Fails for a method with no first parameter. */
static int extract__method_kind(RefOps *ops, uint32_t f, TSNode function, bool *method,
                                const char **decorator, char **first, char **receiver) {
  *method = false, *decorator = NULL, *first = NULL, *receiver = NULL;
  TSNode container = function;
  if (ref_node_is(ts_node_parent(function), "decorated_definition"))
    container = ts_node_parent(function);
  TSNode outer = ts_node_parent(container);
  if (!ref_node_is(outer, "block") || !ref_node_is(ts_node_parent(outer), "class_definition"))
    return 0;
  *method = true;
  uint32_t n = ts_node_named_child_count(container);
  for (uint32_t i = 0; i < n && container.id != function.id; i++) {
    TSNode d = ts_node_named_child(container, i);
    if (!ref_node_is(d, "decorator")) continue;
    char *text = ref_ops_text(ops, f, d);
    if (!strcmp(text, "@staticmethod")) *decorator = "@staticmethod";
    if (!strcmp(text, "@classmethod")) *decorator = "@classmethod";
    eddi_free(text);
  }
  if (*decorator && !strcmp(*decorator, "@staticmethod")) {
    TSNode klass = ts_node_parent(outer);
    *receiver = ref_ops_text(ops, f, ts_node_child_by_field_name(klass, "name", 4));
    return 0;
  }
  TSNode params = ts_node_child_by_field_name(function, "parameters", 10);
  TSNode p = ts_node_named_child(params, 0);
  if (ref_node_is(p, "typed_parameter")) p = ts_node_named_child(p, 0);
  if (!ref_node_is(p, "identifier"))
    return ref_ops_fail_at(ops, f, ts_node_start_byte(function),
                           "Extract cannot make a method of a method without self");
  *first = ref_ops_text(ops, f, p);
  *receiver = eddi_strdup(*first);
  return 0;
}

/* The enclosing function and what the new one goes beside. */
static int extract__place(Extract *self) {
  RefOps *ops = self->ops;
  TSNode node = ts_node_parent(self->first);
  TSNode statement = self->first;
  while (!ts_node_is_null(node)) {
    if (ref_node_is(node, "function_definition")) break;
    if (ref_node_is(node, "class_definition"))
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->first),
                             "Extract needs statements of a function or of the module, not of a "
                             "class body");
    if (ref_node_is(ts_node_parent(node), "module")) statement = node;
    node = ts_node_parent(node);
  }
  if (ts_node_is_null(node)) {
    if (ref_node_is(ts_node_parent(self->first), "module")) statement = self->first;
    self->container = statement;
    return 0;
  }
  self->function = node;
  TSNode parent = ts_node_parent(node);
  self->container = ref_node_is(parent, "decorated_definition") ? parent : node;
  /* A method: the call goes through its first parameter (a static
   * method's, through the class). */
  bool method;
  return extract__method_kind(ops, self->file, node, &method, &self->decorator,
                              &self->first_param, &self->self_name);
}

/* Whether node is a docstring: the first statement of a module, class or
 * function body, a string alone. */
static bool extract__docstring(TSNode node) {
  if (!ref_node_is(node, "expression_statement") || ts_node_named_child_count(node) != 1)
    return false;
  TSNode value = ts_node_named_child(node, 0);
  if (!ref_node_is(value, "string") && !ref_node_is(value, "concatenated_string")) return false;
  TSNode before = ts_node_prev_named_sibling(node);
  while (ref_node_is(before, "comment")) before = ts_node_prev_named_sibling(before);
  if (!ts_node_is_null(before)) return false;
  TSNode up = ts_node_parent(node);
  if (ref_node_is(up, "module")) return true;
  return ref_node_is(up, "block") && (ref_node_is(ts_node_parent(up), "function_definition") ||
                                      ref_node_is(ts_node_parent(up), "class_definition"));
}

/* Whether a base of class_definition klass is typing's Protocol (as
 * Protocol, Protocol[T], typing.Protocol). */
static bool extract__protocol(Extract *self, TSNode klass) {
  TSNode bases = ts_node_child_by_field_name(klass, "superclasses", 12);
  if (ts_node_is_null(bases)) return false;
  bool found = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(bases) && !found; i++) {
    TSNode base = ts_node_named_child(bases, i);
    if (ref_node_is(base, "subscript")) base = ts_node_child_by_field_name(base, "value", 5);
    if (ref_node_is(base, "attribute")) base = ts_node_child_by_field_name(base, "attribute", 9);
    char *text = ref_ops_text(self->ops, self->file, base);
    found = !strcmp(text, "Protocol");
    eddi_free(text);
  }
  return found;
}

/* Python lines whose extraction changes what the program sees though
 * every name resolves: a docstring (the function's __doc__ would be the
 * new one's), and a method added to a Protocol (what satisfies it, and a
 * runtime isinstance against it, would change). */
static int extract__py_shape(Extract *self) {
  if (extract__docstring(self->first)) {
    int rc = ref_ops_fail_at(self->ops, self->file, ts_node_start_byte(self->first),
                             "Extract: the lines start with a docstring, which would no longer "
                             "document what it documents");
    eddi_error_hint(self->ops->err, "Start after the docstring");
    return rc;
  }
  if (!self->first_param && !self->self_name) return 0;
  TSNode klass = ts_node_parent(ts_node_parent(self->container));
  if (!ref_node_is(klass, "class_definition") || !extract__protocol(self, klass)) return 0;
  char *name = ref_ops_text(self->ops, self->file, ts_node_child_by_field_name(klass, "name", 4));
  int rc = ref_ops_fail_at(self->ops, self->file, ts_node_start_byte(klass),
                           "Extract would add a method to %s, a Protocol: what satisfies it "
                           "would change",
                           name);
  eddi_free(name);
  eddi_error_hint(self->ops->err, "Extract lines of a class that implements it");
  return rc;
}

/* A method's self is passed as the receiver, not as a parameter. */
static void extract__drop_self(RefFlow *flow, const char *self_name) {
  for (size_t i = 0; self_name && i < flow->params.len; i++)
    if (!strcmp(flow->params.items[i], self_name)) {
      eddi_free(flow->params.items[i]);
      array_remove(&flow->params, i);
      break;
    }
}

/* ---------------------------------------------------------------- the texts */

/* "name(a, b)" or "self.name(a, b)", with the results assigned or
 * returned. */
static void extract__call(const Extract *self, const RefFlow *flow, const char *self_name,
                          StrBuf *out) {
  if (self->returns) eddi_strbuf_puts(out, "return ");
  else if (flow->results.len) {
    for (size_t i = 0; i < flow->results.len; i++)
      eddi_strbuf_printf(out, "%s%s", i ? ", " : "", flow->results.items[i]);
    eddi_strbuf_puts(out, " = ");
  }
  if (self_name) eddi_strbuf_printf(out, "%s.", self_name);
  eddi_strbuf_printf(out, "%s(", self->name);
  for (size_t i = 0; i < flow->params.len; i++)
    eddi_strbuf_printf(out, "%s%s", i ? ", " : "", flow->params.items[i]);
  eddi_strbuf_putc(out, ')');
}

/* The new function, indented as the container. */
static void extract__definition(const Extract *self, StrBuf *out) {
  const RefSource *src = self->src;
  const char *unit = src->lang->indent ? src->lang->indent : "    ";
  uint32_t base = ref_ops_indent(src, ts_node_start_byte(self->container));
  const char *margin = src->text + ref_ops_line_start(src, ts_node_start_byte(self->container));
  if (ts_node_is_null(self->function)) base = 0;
  if (self->decorator) {
    eddi_strbuf_append(out, margin, base);
    eddi_strbuf_printf(out, "%s\n", self->decorator);
  }
  eddi_strbuf_append(out, margin, base);
  eddi_strbuf_printf(out, "def %s(", self->name);
  size_t n = 0;
  if (self->first_param) eddi_strbuf_puts(out, self->first_param), n++;
  for (size_t i = 0; i < self->flow.params.len; i++)
    eddi_strbuf_printf(out, "%s%s", n++ ? ", " : "", self->flow.params.items[i]);
  eddi_strbuf_puts(out, "):\n");
  StrBuf inner = {0};
  eddi_strbuf_append(&inner, margin, base);
  eddi_strbuf_puts(&inner, unit);
  for (size_t i = 0; i < self->flow.declared.len; i++) {
    eddi_strbuf_append(out, inner.data, inner.len);
    eddi_strbuf_printf(out, "%s\n", self->flow.declared.items[i]);
  }
  uint32_t from = ts_node_start_byte(self->first), to = ts_node_end_byte(self->last);
  uint32_t line = ref_ops_line_start(src, from);
  ref_ops_reindent(out, src->text + line, to - line, from - line, inner.data, inner.len);
  eddi_strbuf_putc(out, '\n');
  if (self->flow.results.len && !self->returns) {
    eddi_strbuf_append(out, inner.data, inner.len);
    eddi_strbuf_puts(out, "return ");
    for (size_t i = 0; i < self->flow.results.len; i++)
      eddi_strbuf_printf(out, "%s%s", i ? ", " : "", self->flow.results.items[i]);
    eddi_strbuf_putc(out, '\n');
  }
  eddi_strbuf_free(&inner);
}

/* ---------------------------------------------------------------- duplicates */

/* A statement's text as read at its own indentation. */
static char *extract__dedented(const RefSource *src, TSNode first, TSNode last) {
  uint32_t from = ts_node_start_byte(first), to = ts_node_end_byte(last);
  uint32_t line = ref_ops_line_start(src, from);
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  ref_ops_reindent(&out, src->text + line, to - line, from - line, "", 0);
  return eddi_strbuf_take(&out);
}

/* The function_definition around node, or a null node. */
static TSNode extract__function_of(TSNode node) {
  for (node = ts_node_parent(node); !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (ref_node_is(node, "function_definition")) return node;
    if (ref_node_is(node, "class_definition")) return (TSNode){0};
  }
  return node;
}

/* Replace a run of count statements from first that reads as the region. */
static int extract__duplicate(Extract *self, TSNode first, TSNode last, const char *text) {
  RefOps *ops = self->ops;
  char *there = extract__dedented(self->src, first, last);
  bool same = strcmp(there, text) == 0;
  eddi_free(there);
  if (!same) return 0;
  /* The same text: it must be in a function like the region's, with the
   * same parameters. */
  TSNode function = extract__function_of(first);
  if (ts_node_is_null(function) != ts_node_is_null(self->function)) return 0;
  bool method = false;
  const char *decorator = NULL;
  char *first_param = NULL, *self_name = NULL;
  if (!ts_node_is_null(function) &&
      extract__method_kind(ops, self->file, function, &method, &decorator, &first_param,
                           &self_name) < 0) {
    eddi_error_clear(ops->err);
    return 0;
  }
  eddi_free(first_param);
  /* A method's duplicate is in a method of the same kind; another one runs
   * only after the new function is defined: it comes after it. */
  bool main_method = self->self_name != NULL;
  bool fits_place = method == main_method && decorator == self->decorator &&
                    (main_method || ts_node_start_byte(first) >= self->insert_at);
  if (!fits_place) {
    eddi_free(self_name);
    return 0;
  }
  RefFlow flow;
  int rc = ref_flow_region(ops, self->file, function, first, last, &flow);
  if (rc == 0 && !(decorator && !strcmp(decorator, "@staticmethod")))
    extract__drop_self(&flow, self_name);
  bool fits = rc == 0 && flow.params.len == self->flow.params.len && !flow.unsafe;
  for (size_t i = 0; fits && i < flow.params.len; i++)
    fits = strcmp(flow.params.items[i], self->flow.params.items[i]) == 0;
  for (size_t i = 0; fits && i < flow.results.len; i++) {
    bool found = false;
    for (size_t j = 0; j < self->flow.results.len; j++)
      found |= strcmp(flow.results.items[i], self->flow.results.items[j]) == 0;
    fits = found;
  }
  fits = fits && flow.declared.len == self->flow.declared.len;
  if (fits) {
    StrBuf call = {0};
    extract__call(self, &self->flow, self_name, &call);
    ref_ops_edit(ops, self->file, ts_node_start_byte(first), ts_node_end_byte(last), call.data,
                 call.len);
    eddi_strbuf_free(&call);
    self->duplicates++;
  }
  if (rc == 0) ref_flow_free(&flow);
  eddi_free(self_name);
  return rc < 0 ? rc : 0;
}

/* Every run of the region's statements in the blocks below scope_node. */
static int extract__duplicates(Extract *self, TSNode node, const char *text) {
  uint32_t rs = ts_node_start_byte(self->first), re = ts_node_end_byte(self->last);
  if (ref_node_is(node, "block") || ref_node_is(node, "module")) {
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++) {
      TSNode first = ts_node_named_child(node, i);
      if (ref_node_is(first, "comment")) continue;
      TSNode last = first;
      size_t k = 1;
      for (uint32_t j = i + 1; j < n && k < self->count; j++) {
        last = ts_node_named_child(node, j);
        if (!ref_node_is(last, "comment")) k++;
      }
      if (k < self->count) break;
      uint32_t s = ts_node_start_byte(first), e = ts_node_end_byte(last);
      if (e > rs && s < re) continue; /* the region, or overlapping it */
      int rc = extract__duplicate(self, first, last, text);
      if (rc < 0) return rc;
      if (self->ops->edits.len && self->ops->edits.items[self->ops->edits.len - 1].start == s) {
        while (i + 1 < n && ts_node_start_byte(ts_node_named_child(node, i + 1)) < e) i++;
      }
    }
  }
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    int rc = extract__duplicates(self, ts_node_named_child(node, i), text);
    if (rc < 0) return rc;
  }
  return 0;
}

/* ---------------------------------------------------------------- the plan */

/* Fail when the new name is bound where the function goes: the scope the
 * container is bound in, around it, not its own (which may start where it
 * does); blocks count where they bind (JavaScript's). */
static int extract__name_free(Extract *self, bool blocks) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t id = ref_names_find(&ops->index->names, self->name, strlen(self->name));
  uint32_t scope = 0;
  if (!ts_node_is_null(self->function) || blocks) {
    uint32_t at = ts_node_start_byte(self->container), end = ts_node_end_byte(self->container);
    for (uint32_t s = 0; s < file->scopes.len; s++) {
      const RefScope *sc = &file->scopes.items[s];
      if (sc->start < at && end <= sc->end && (blocks || sc->kind != REF_SCOPE_BLOCK) &&
          sc->end - sc->start <= file->scopes.items[scope].end - file->scopes.items[scope].start)
        scope = s;
    }
  }
  uint32_t there = id == REF_NONE ? REF_NONE : ref_file_bound(file, scope, id);
  if (there != REF_NONE)
    return ref_ops_fail_at(ops, self->file, file->syms.items[there].start,
                           "Extract: %s is already defined", self->name);
  /* Nor may the call's scope see another of that name: the call would
   * call it. */
  uint32_t at = ref_expr_scope_at(file, ts_node_start_byte(self->first));
  there = id == REF_NONE ? REF_NONE : ref_file_lookup(file, at, id);
  /* One the lines declare goes with them into the new function. */
  if (there != REF_NONE &&
      ref_in(file->occs.items[file->syms.items[there].first_def].start,
             ts_node_start_byte(self->first), ts_node_end_byte(self->last)))
    there = REF_NONE;
  if (there != REF_NONE)
    return ref_ops_fail_at(ops, self->file, file->syms.items[there].start,
                           "Extract: %s is already defined where the lines call it", self->name);
  return 0;
}

/* The variable of the enclosing function, declared outside the lines,
 * that name occurrence i (in the lines) binds, or REF_NONE. */
static uint32_t extract__outer_variable(const Extract *self, uint32_t i) {
  const RefFile *file = self->ops->program.files.items[self->file];
  const RefOcc *occ = &file->occs.items[i];
  if (ts_node_is_null(self->function) || occ->kind != REF_OCC_NAME ||
      !ref_in(occ->start, ts_node_start_byte(self->first), ts_node_end_byte(self->last)))
    return REF_NONE;
  uint32_t sym = ref_file_lookup(file, occ->scope, occ->name);
  if (sym == REF_NONE) return REF_NONE;
  uint32_t def = file->occs.items[file->syms.items[sym].first_def].start;
  bool outer = ref_in(def, ts_node_start_byte(self->function), ts_node_end_byte(self->function)) &&
               !ref_in(def, ts_node_start_byte(self->first), ts_node_end_byte(self->last));
  return outer ? sym : REF_NONE;
}

/* The call "name(a, b);" after what call holds (a declaration, an
 * assignment, a return), in place of the lines. */
static void extract__put_call(Extract *self, StrBuf *call) {
  eddi_strbuf_printf(call, "%s(", self->name);
  for (size_t i = 0; i < self->flow.params.len; i++)
    eddi_strbuf_printf(call, "%s%s", i ? ", " : "", self->flow.params.items[i]);
  eddi_strbuf_puts(call, ");");
  ref_ops_edit(self->ops, self->file, ts_node_start_byte(self->first),
               ts_node_end_byte(self->last), call->data, call->len);
}

/* The flow of the lines (self->flow, freed by the caller even on
 * failure); fails on an exit the lines cannot have. */
static int extract__flow(Extract *self) {
  int rc = ref_flow_region(self->ops, self->file, self->function, self->first, self->last,
                           &self->flow);
  if (rc < 0) return rc;
  self->returns = self->flow.returns;
  if (self->flow.exit_error) {
    rc = ref_ops_fail_at(self->ops, self->file, self->flow.exit_at, "Extract: %s",
                         self->flow.exit_error);
    if (self->flow.exit_hint) eddi_error_hint(self->ops->err, "%s", self->flow.exit_hint);
    return rc;
  }
  return 0;
}

/* Whether the new function takes name as a parameter. */
static bool extract__takes(const Extract *self, const char *name) {
  for (size_t k = 0; k < self->flow.params.len; k++)
    if (!strcmp(self->flow.params.items[k], name)) return true;
  return false;
}

/* A check of the flow for JavaScript and C, whose new function stands
 * outside the enclosing one: every name of the lines bound to a variable
 * of the enclosing function from outside the lines must reach the new
 * function as a parameter or be declared in it (locals, ", "-separated);
 * else the flow missed it, and the lines are refused rather than written
 * wrong. */
static int extract__reaches(Extract *self, const char *locals) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (extract__outer_variable(self, i) == REF_NONE) continue;
    const char *name = ref_names_str(&ops->index->names, occ->name);
    bool reaches = extract__takes(self, name);
    size_t n = strlen(name);
    for (const char *p = locals; !reaches && (p = strstr(p, name)); p += n)
      reaches = (p == locals || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0');
    if (!reaches)
      return ref_ops_fail_at(ops, self->file, occ->start, "Extract cannot tell how %s would "
                             "reach the new function", name);
  }
  return 0;
}

/* ---------------------------------------------------------------- JavaScript */

/* What the lines hold that a function of their own cannot: this (also in
 * an arrow function, which has the lines' this), a var, a hoisted
 * declaration at their level; the node and why, or a null node. */
static TSNode extract__js_bound(RefOps *ops, uint32_t f, TSNode node, bool top, const char **why) {
  static const char *const reads[] = {"this", "super", "meta_property", NULL};
  static const char *const hoisted[] = {"function_declaration", "generator_function_declaration",
                                        "class_declaration", NULL};
  static const char *const apart[] = {"function_declaration", "generator_function_declaration",
                                      "function_expression", "function", "generator_function",
                                      "method_definition", "class_declaration", "class", NULL};
  if (ref_ops_lang_is(node, reads)) return *why = "the lines read %s", node;
  if (top && ref_ops_lang_is(node, hoisted))
    return *why = "the lines declare a function or class, which the code around sees", node;
  if (ref_ops_lang_is(node, apart)) return (TSNode){0};
  if (ref_node_is(node, "variable_declaration"))
    return *why = "the lines declare a var, which is hoisted to the whole function", node;
  if (ref_node_is(node, "identifier")) {
    char *text = ref_ops_text(ops, f, node);
    bool arguments = !strcmp(text, "arguments");
    eddi_free(text);
    if (arguments) return *why = "the lines read %s", node;
  }
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode found = extract__js_bound(ops, f, ts_node_named_child(node, i), false, why);
    if (!ts_node_is_null(found)) return found;
  }
  return (TSNode){0};
}

/* The enclosing function and the statement the new function goes beside. */
static int extract__js_place(Extract *self, const char *title) {
  RefOps *ops = self->ops;
  static const char *const functions[] = {"function_declaration", "generator_function_declaration",
                                          "function_expression", "function", "arrow_function",
                                          "generator_function", NULL};
  for (TSNode node = ts_node_parent(self->first); !ts_node_is_null(node);
       node = ts_node_parent(node)) {
    if (ref_node_is(node, "method_definition") || ref_node_is(node, "class_body"))
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->first),
                             "Not supported for %s: Extract from a method (the new function "
                             "would need its this)", title);
    if (ref_ops_lang_is(node, functions)) {
      self->function = node;
      break;
    }
  }
  TSNode at = ts_node_is_null(self->function) ? self->first : self->function;
  while (!ts_node_is_null(ts_node_parent(at)) && !ref_node_is(ts_node_parent(at), "program") &&
         !ref_node_is(ts_node_parent(at), "statement_block")) {
    if (ref_node_is(ts_node_parent(at), "class_body"))
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->first),
                             "Not supported for %s: Extract from a class member", title);
    at = ts_node_parent(at);
  }
  self->container = at;
  return 0;
}

/* The declaration keyword of a result declared in the lines ("let",
 * "const"), or NULL when it is declared before them. */
static const char *extract__js_declared(Extract *self, const char *name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t rs = ts_node_start_byte(self->first), re = ts_node_end_byte(self->last);
  uint32_t id = ref_names_find(&ops->index->names, name, strlen(name));
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (occ->name != id || !(occ->flags & REF_OCC_DEF) || !ref_in(occ->start, rs, re)) continue;
    TSNode declaration = ref_node_up(ref_ops_node(ops, self->file, occ->start, occ->end),
                                     "lexical_declaration");
    if (ts_node_is_null(declaration)) continue;
    return ref_node_is(ts_node_child(declaration, 0), "let") ? "let" : "const";
  }
  return NULL;
}

/* A parameter's TypeScript type: the one its variable is declared with
 * (": number"), or the type of the literal a TypeScript const or let is
 * initialized with (strict TypeScript refuses a parameter without a type:
 * it would be an implicit any); "" in JavaScript and for a parameter of
 * the enclosing function declared without one (it was any already). NULL
 * when TypeScript needs a type eddi cannot tell. */
static char *extract__js_type(Extract *self, const char *name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  bool typed = strcmp(self->src->lang->name, "typescript") == 0 ||
               strcmp(self->src->lang->name, "tsx") == 0;
  uint32_t id = ref_names_find(&ops->index->names, name, strlen(name));
  uint32_t fs = ts_node_is_null(self->function) ? 0 : ts_node_start_byte(self->function);
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (occ->name != id || !(occ->flags & REF_OCC_DEF) || occ->start < fs) continue;
    TSNode holder = ts_node_parent(ref_ops_node(ops, self->file, occ->start, occ->end));
    TSNode type = ts_node_child_by_field_name(holder, "type", 4);
    if (ref_node_is(type, "type_annotation")) return ref_ops_text(ops, self->file, type);
    if (!typed || !ref_node_is(holder, "variable_declarator")) break;
    static const struct {
      const char *literal, *type;
    } literals[] = {{"string", ": string"}, {"template_string", ": string"},
                    {"number", ": number"}, {"true", ": boolean"}, {"false", ": boolean"}};
    TSNode value = ts_node_child_by_field_name(holder, "value", 5);
    for (size_t k = 0; k < sizeof literals / sizeof literals[0]; k++)
      if (ref_node_is(value, literals[k].literal)) return eddi_strdup(literals[k].type);
    return NULL;
  }
  return eddi_strdup("");
}

/* The variables of the enclosing function, declared outside the lines,
 * that the lines assign and do not take as parameters: the new function
 * declares them (an assignment of an undeclared name would make a
 * global). Appends ", "-separated names to out. */
static void extract__js_locals(Extract *self, StrBuf *out) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  Array(uint32_t) seen = {0};
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    uint32_t sym = extract__outer_variable(self, i);
    if (sym == REF_NONE || !(occ->flags & REF_OCC_WRITE)) continue;
    const char *name = ref_names_str(&ops->index->names, occ->name);
    bool skip = extract__takes(self, name);
    for (size_t k = 0; k < seen.len && !skip; k++) skip = seen.items[k] == sym;
    if (skip) continue;
    array_push(&seen, sym);
    eddi_strbuf_printf(out, "%s%s", out->len ? ", " : "", name);
  }
  array_free(&seen);
}

static int extract__js(Extract *self, const RefOpArgs *args) {
  RefOps *ops = self->ops;
  const RefSource *source = self->src;
  const char *title = ref_ops_lang_title(source->lang);
  const char *why = NULL;
  int rc = 0;
  for (TSNode s = self->first; rc == 0; s = ts_node_next_named_sibling(s)) {
    TSNode found = extract__js_bound(ops, self->file, s, true, &why);
    if (!ts_node_is_null(found)) {
      char *text = ref_ops_text(ops, self->file, found);
      char message[EDDI_ERROR_MAX];
      snprintf(message, sizeof message, why, text);
      rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(found), "Not supported for %s: "
                           "Extract: %s", title, message);
      eddi_free(text);
    }
    if (ts_node_eq(s, self->last)) break;
  }
  if (rc == 0) rc = extract__js_place(self, title);
  if (rc == 0) rc = extract__flow(self);
  /* The call declares the results the lines declared, or assigns one. */
  const char *keyword = NULL, *declared = NULL, *before = NULL;
  size_t inside = 0;
  for (size_t i = 0; rc == 0 && !self->returns && i < self->flow.results.len; i++) {
    const char *kw = extract__js_declared(self, self->flow.results.items[i]);
    if (kw) inside++, keyword = !keyword || !strcmp(kw, "let") ? kw : keyword;
    if (kw) declared = self->flow.results.items[i];
    else before = self->flow.results.items[i];
  }
  size_t results = self->returns ? 0 : self->flow.results.len;
  if (rc == 0 && inside && inside != results)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "Extract: the lines declare %s but assign %s, "
                        "declared before them; one statement cannot take both back", declared,
                        before);
  if (rc == 0 && !inside && results > 1)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "Extract: the lines assign %zu variables declared "
                        "before them; one statement cannot take them back", results);
  if (rc == 0) rc = extract__name_free(self, true);
  StrBuf locals = {0};
  eddi_strbuf_puts(&locals, "");
  if (rc == 0) extract__js_locals(self, &locals);
  if (rc == 0) rc = extract__reaches(self, locals.data);
  if (rc < 0) {
    eddi_strbuf_free(&locals);
    ref_flow_free(&self->flow);
    return rc;
  }
  StrBuf call = {0}, def = {0}, list = {0}, params = {0};
  eddi_strbuf_puts(&list, "");
  for (size_t i = 0; i < results; i++)
    eddi_strbuf_printf(&list, "%s%s", i ? ", " : "", self->flow.results.items[i]);
  for (size_t i = 0; rc == 0 && i < self->flow.params.len; i++) {
    char *type = extract__js_type(self, self->flow.params.items[i]);
    if (!type) {
      rc = eddi_error_set(ops->err, EDDI_EINVAL,
                          "Extract: the new function's parameter %s would have no type (%s is "
                          "declared without one, from a value eddi cannot type)",
                          self->flow.params.items[i], self->flow.params.items[i]);
      eddi_error_hint(ops->err, "Declare it with its type (const %s: T = ...), then extract",
                      self->flow.params.items[i]);
      break;
    }
    eddi_strbuf_printf(&params, "%s%s%s", i ? ", " : "", self->flow.params.items[i], type);
    eddi_free(type);
  }
  if (rc < 0) {
    eddi_strbuf_free(&locals), eddi_strbuf_free(&list), eddi_strbuf_free(&params);
    ref_flow_free(&self->flow);
    return rc;
  }
  eddi_strbuf_puts(&params, "");
  if (self->returns) eddi_strbuf_puts(&call, "return ");
  else if (keyword) eddi_strbuf_printf(&call, results > 1 ? "%s [%s] = " : "%s %s = ", keyword, list.data);
  else if (results) eddi_strbuf_printf(&call, "%s = ", list.data);
  extract__put_call(self, &call);
  /* The function, at the container's indentation. */
  const char *unit = source->lang->indent ? source->lang->indent : "  ";
  uint32_t line = ref_ops_line_start(source, ts_node_start_byte(self->container));
  uint32_t base = ref_ops_indent(source, ts_node_start_byte(self->container));
  StrBuf inner = {0};
  eddi_strbuf_append(&inner, source->text + line, base);
  eddi_strbuf_puts(&inner, unit);
  eddi_strbuf_append(&def, source->text + line, base);
  eddi_strbuf_printf(&def, "function %s(%s) {\n", self->name, params.data);
  if (locals.len) {
    eddi_strbuf_append(&def, inner.data, inner.len);
    eddi_strbuf_printf(&def, "let %s;\n", locals.data);
  }
  eddi_strbuf_free(&locals);
  uint32_t from = ts_node_start_byte(self->first), to = ts_node_end_byte(self->last);
  uint32_t first_line = ref_ops_line_start(source, from);
  ref_ops_reindent(&def, source->text + first_line, to - first_line, from - first_line, inner.data,
                   inner.len);
  eddi_strbuf_putc(&def, '\n');
  if (results) {
    eddi_strbuf_append(&def, inner.data, inner.len);
    eddi_strbuf_printf(&def, results > 1 ? "return [%s];\n" : "return %s;\n", list.data);
  }
  eddi_strbuf_append(&def, source->text + line, base);
  eddi_strbuf_puts(&def, "}\n");
  StrBuf insert = {0};
  if (ts_node_is_null(self->function)) {
    /* Before the module's statement holding the lines. */
    self->insert_at = line;
    eddi_strbuf_append(&insert, def.data, def.len);
    eddi_strbuf_putc(&insert, '\n');
  } else {
    uint32_t end = ts_node_end_byte(self->container);
    self->insert_at = end < source->len && source->text[end] == '\n' ? end + 1 : end;
    eddi_strbuf_putc(&insert, '\n');
    eddi_strbuf_append(&insert, def.data, def.len);
  }
  ref_ops_edit(ops, self->file, self->insert_at, self->insert_at, insert.data, insert.len);
  eddi_strbuf_printf(&ops->facts, "Extracted %s(", args->name);
  for (size_t i = 0; i < self->flow.params.len; i++)
    eddi_strbuf_printf(&ops->facts, "%s%s", i ? ", " : "", self->flow.params.items[i]);
  eddi_strbuf_printf(&ops->facts, ") from %s:%u:%u", source->path, args->first, args->last);
  if (results) eddi_strbuf_printf(&ops->facts, "\nreturns %s", list.data);
  eddi_strbuf_free(&call), eddi_strbuf_free(&def), eddi_strbuf_free(&insert);
  eddi_strbuf_free(&list), eddi_strbuf_free(&params), eddi_strbuf_free(&inner);
  ref_flow_free(&self->flow);
  return 0;
}

/* ---------------------------------------------------------------- C */

/* Whether the lines declare variable name. */
static bool extract__c_declared_in(Extract *self, const char *name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t id = ref_names_find(&ops->index->names, name, strlen(name));
  for (uint32_t i = 0; id != REF_NONE && i < file->occs.len; i++)
    if (file->occs.items[i].name == id && (file->occs.items[i].flags & REF_OCC_DEF) &&
        ref_in(file->occs.items[i].start, ts_node_start_byte(self->first),
               ts_node_end_byte(self->last)))
      return true;
  return false;
}

/* What C lines hold that a function of their own cannot have: a jump, a
 * workspace macro, a static local, the address of a variable from outside
 * them; the node and why ("%s" the node's text), or a null node. */
static TSNode extract__c_bound(Extract *self, TSNode node, const char **why) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  if (ref_node_is(node, "goto_statement") || ref_node_is(node, "labeled_statement"))
    return *why = "the lines jump (%s)", node;
  if (ref_node_is(node, "storage_class_specifier"))
    return *why = "the lines declare a %s variable", node;
  if (ref_node_is(node, "call_expression")) {
    /* A variadic function's list is its own: va_start needs it, and a
     * va_list another function read with va_arg is indeterminate after. */
    char *callee = ref_ops_text(ops, self->file, ts_node_child_by_field_name(node, "function", 8));
    bool stdarg = !strcmp(callee, "va_start") || !strcmp(callee, "va_arg") ||
                  !strcmp(callee, "va_copy") || !strcmp(callee, "va_end");
    eddi_free(callee);
    if (stdarg) return *why = "the lines read a variable argument list (%s)", node;
  }
  if (ref_node_is(node, "identifier")) {
    uint32_t occ = ref_expr_occ_at(file, ts_node_start_byte(node));
    RefTarget t = occ == REF_NONE ? (RefTarget){REF_TARGET_NONE, 0, 0}
                                  : ref_program_target(&ops->program, self->file, occ);
    if (t.kind == REF_TARGET_SYM &&
        (ops->program.files.items[t.file]->syms.items[t.index].flags & REF_SYM_MACRO))
      return *why = "the lines use the macro %s, which may name the function's variables", node;
    TSNode parent = ts_node_parent(node);
    TSNode op = ts_node_child_by_field_name(parent, "operator", 8);
    if (t.kind == REF_TARGET_SYM && t.file == self->file && ref_node_is(parent, "pointer_expression") &&
        !ts_node_is_null(op) && !strcmp(ts_node_type(op), "&")) {
      const RefSym *sym = &file->syms.items[t.index];
      uint32_t def = file->occs.items[sym->first_def].start;
      if (sym->scope != 0 && !ref_in(def, ts_node_start_byte(self->first), ts_node_end_byte(self->last)))
        return *why = "the lines take the address of %s, which would be the new function's copy", node;
    }
  }
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode found = extract__c_bound(self, ts_node_named_child(node, i), why);
    if (!ts_node_is_null(found)) return found;
  }
  return (TSNode){0};
}

/* The symbol of the function's variable name (the lines' scope sees it). */
static uint32_t extract__c_sym(Extract *self, const char *name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t id = ref_names_find(&ops->index->names, name, strlen(name));
  uint32_t scope = ref_expr_scope_at(file, ts_node_start_byte(self->first));
  uint32_t sym = id == REF_NONE ? REF_NONE : ref_file_lookup(file, scope, id);
  /* One the lines declare is in a scope of theirs: any of its name. */
  for (uint32_t i = 0; sym == REF_NONE && id != REF_NONE && i < file->occs.len; i++)
    if (file->occs.items[i].name == id && (file->occs.items[i].flags & REF_OCC_DEF) &&
        ref_in(file->occs.items[i].start, ts_node_start_byte(self->first),
               ts_node_end_byte(self->last)))
      sym = file->occs.items[i].sym;
  return sym;
}

/* "T name" of variable name, or a refusal. */
static int extract__c_typed(Extract *self, const char *name, StrBuf *out) {
  uint32_t sym = extract__c_sym(self, name);
  char *type = sym == REF_NONE ? NULL : ref_ops_c_declared_type(self->ops, self->file, sym);
  if (!type) {
    ref_ops_fail_at(self->ops, self->file, ts_node_start_byte(self->first),
                    "Not supported for C: Extract cannot write the type of %s (an array or a "
                    "function pointer)", name);
    eddi_error_hint(self->ops->err, "Extract lines that do not use %s, or give it a typedef",
                    name);
    return EDDI_EINVAL;
  }
  eddi_strbuf_printf(out, "%s%s%s", type, type[strlen(type) - 1] == '*' ? "" : " ", name);
  eddi_free(type);
  return 0;
}

/* A workspace macro called as a statement before the lines, in a block
 * around them, whose body holds a name the lines take from outside (or
 * pastes names with ##): it may declare that name there, which eddi does
 * not see (SDS_HDR_VAR(8, s) declares sh), so the name's type is not the
 * one the declaration eddi sees gives. The call, or a null node. */
static TSNode extract__c_shadowing_macro(Extract *self, const char **name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  for (TSNode inner = self->first, block = ts_node_parent(inner); !ts_node_is_null(block);
       inner = block, block = ts_node_parent(block)) {
    if (ts_node_eq(inner, self->function)) break;
    if (!ref_node_is(block, "compound_statement")) continue;
    for (TSNode s = ts_node_named_child(block, 0); !ts_node_is_null(s) && !ts_node_eq(s, inner);
         s = ts_node_next_named_sibling(s)) {
      TSNode call = ts_node_named_child(s, 0);
      TSNode callee = ref_node_is(s, "expression_statement") && ref_node_is(call, "call_expression")
                          ? ts_node_child_by_field_name(call, "function", 8)
                          : (TSNode){0};
      uint32_t occ = ref_node_is(callee, "identifier")
                         ? ref_expr_occ_at(file, ts_node_start_byte(callee))
                         : REF_NONE;
      RefTarget t = occ == REF_NONE ? (RefTarget){REF_TARGET_NONE, 0, 0}
                                    : ref_program_target(&ops->program, self->file, occ);
      if (t.kind != REF_TARGET_SYM ||
          !(ops->program.files.items[t.file]->syms.items[t.index].flags & REF_SYM_MACRO))
        continue;
      const RefSym *macro = &ops->program.files.items[t.file]->syms.items[t.index];
      TSNode def = ts_node_parent(ref_ops_node(ops, t.file, macro->start, macro->start + 1));
      char *body = ref_ops_text(ops, t.file, ts_node_child_by_field_name(def, "value", 5));
      for (size_t i = 0; i < self->flow.params.len && !*name; i++) {
        const char *p = self->flow.params.items[i];
        size_t n = strlen(p);
        for (const char *at = strstr(body, p); at && !*name; at = strstr(at + 1, p)) {
          bool word = (at == body || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
                      !(isalnum((unsigned char)at[n]) || at[n] == '_');
          if (word) *name = p;
        }
      }
      if (!*name && strstr(body, "##") && self->flow.params.len) *name = self->flow.params.items[0];
      eddi_free(body);
      if (*name) return s;
    }
  }
  return (TSNode){0};
}

/* Array types of the C library a function cannot return. */
static bool extract__c_array_type(const char *type) {
  static const char *const arrays[] = {"va_list", "__gnuc_va_list", "__builtin_va_list",
                                       "jmp_buf", "sigjmp_buf", NULL};
  for (size_t i = 0; arrays[i]; i++)
    if (!strcmp(type, arrays[i])) return true;
  return false;
}

static int extract__c(Extract *self, const RefOpArgs *args) {
  RefOps *ops = self->ops;
  const RefSource *source = self->src;
  int rc = 0;
  for (TSNode at = ts_node_parent(self->first); !ts_node_is_null(at); at = ts_node_parent(at))
    if (ref_node_is(at, "function_definition")) self->function = at;
  if (ts_node_is_null(self->function))
    return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->first),
                           "Extract needs statements of a function");
  self->container = self->function;
  const char *why = NULL;
  for (TSNode s = self->first; rc == 0; s = ts_node_next_named_sibling(s)) {
    TSNode found = extract__c_bound(self, s, &why);
    if (!ts_node_is_null(found)) {
      char *text = ref_ops_text(ops, self->file, found);
      char message[EDDI_ERROR_MAX];
      snprintf(message, sizeof message, why, text);
      rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(found),
                           "Not supported for C: Extract: %s", message);
      eddi_free(text);
    }
    if (ts_node_eq(s, self->last)) break;
  }
  if (rc == 0) rc = extract__flow(self);
  const char *shadowed = NULL;
  TSNode macro = rc == 0 ? extract__c_shadowing_macro(self, &shadowed) : (TSNode){0};
  if (!ts_node_is_null(macro)) {
    rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(macro),
                         "Not supported for C: Extract: this macro may declare %s, which the "
                         "lines use, with a type eddi does not see",
                         shadowed);
    eddi_error_hint(ops->err, "Extract lines that do not use %s", shadowed);
  }
  size_t results = self->returns ? 0 : self->flow.results.len;
  if (rc == 0 && results > 1)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "Not supported for C: Extract of lines that give "
                        "%zu variables (%s, %s): a C function returns one value", results,
                        self->flow.results.items[0], self->flow.results.items[1]);
  if (rc == 0) rc = extract__name_free(self, true);
  /* Nor may another file declare it at file scope (a header it includes). */
  uint32_t id = ref_names_find(&ops->index->names, self->name, strlen(self->name));
  for (uint32_t f = 0; rc == 0 && id != REF_NONE && f < ops->program.files.len; f++) {
    uint32_t there = ref_file_bound(ops->program.files.items[f], 0, id);
    if (there != REF_NONE)
      rc = ref_ops_fail_at(ops, f, ops->program.files.items[f]->syms.items[there].start,
                           "Extract: %s is already defined", self->name);
  }
  /* The return type: the result's, the function's (the lines return), or void. */
  StrBuf returns = {0}, params = {0}, call = {0}, def = {0}, locals = {0};
  eddi_strbuf_puts(&returns, ""), eddi_strbuf_puts(&params, "");
  if (rc == 0 && self->returns) {
    TSNode type = ts_node_child_by_field_name(self->function, "type", 4);
    char *text = ts_node_is_null(type) ? eddi_strdup("int") : ref_ops_text(ops, self->file, type);
    TSNode d = ts_node_child_by_field_name(self->function, "declarator", 10);
    eddi_strbuf_puts(&returns, text);
    for (; ref_node_is(d, "pointer_declarator"); d = ts_node_child_by_field_name(d, "declarator", 10))
      eddi_strbuf_puts(&returns, returns.data[returns.len - 1] == '*' ? "*" : " *");
    if (!strcmp(text, "void") && returns.len == 4)
      rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->last), "Not supported for C: "
                           "Extract of lines that return from a void function");
    eddi_free(text);
  } else if (rc == 0 && results) {
    uint32_t sym = extract__c_sym(self, self->flow.results.items[0]);
    char *type = sym == REF_NONE ? NULL : ref_ops_c_declared_type(ops, self->file, sym);
    if (!type || extract__c_array_type(type)) {
      rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->first), "Not supported for "
                           "C: Extract cannot %s %s", type ? "return the array" : "write the type of",
                           self->flow.results.items[0]);
      eddi_error_hint(ops->err, "Extract lines that do not give %s", self->flow.results.items[0]);
    } else {
      eddi_strbuf_puts(&returns, type);
    }
    eddi_free(type);
  } else if (rc == 0) {
    eddi_strbuf_puts(&returns, "void");
  }
  for (size_t i = 0; rc == 0 && i < self->flow.params.len; i++) {
    if (i) eddi_strbuf_puts(&params, ", ");
    rc = extract__c_typed(self, self->flow.params.items[i], &params);
  }
  if (rc == 0 && !self->flow.params.len) eddi_strbuf_puts(&params, "void");
  /* The variables from outside the lines they assign without taking them:
   * declared again, each with its type. */
  StrBuf names = {0};
  eddi_strbuf_puts(&names, "");
  if (rc == 0) extract__js_locals(self, &names);
  if (rc == 0) rc = extract__reaches(self, names.data);
  for (const char *p = names.data; rc == 0 && *p;) {
    const char *end = strchr(p, ',');
    char *name = eddi_strndup(p, end ? (size_t)(end - p) : strlen(p));
    rc = extract__c_typed(self, name, &locals);
    if (rc == 0) eddi_strbuf_puts(&locals, ";\n");
    eddi_free(name);
    p = end ? end + 2 : p + strlen(p);
  }
  eddi_strbuf_free(&names);
  if (rc < 0) {
    eddi_strbuf_free(&returns), eddi_strbuf_free(&params), eddi_strbuf_free(&locals);
    ref_flow_free(&self->flow);
    return rc;
  }
  const char *result = results ? self->flow.results.items[0] : NULL;
  if (self->returns) eddi_strbuf_puts(&call, "return ");
  else if (result && extract__c_declared_in(self, result))
    eddi_strbuf_printf(&call, "%s%s%s = ", returns.data,
                       returns.data[returns.len - 1] == '*' ? "" : " ", result);
  else if (result) eddi_strbuf_printf(&call, "%s = ", result);
  extract__put_call(self, &call);
  const char *unit = source->lang->indent ? source->lang->indent : "    ";
  eddi_strbuf_printf(&def, "static %s%s%s(%s) {\n", returns.data,
                     returns.data[returns.len - 1] == '*' ? "" : " ", self->name, params.data);
  ref_ops_reindent(&def, locals.data, locals.len, 0, unit, strlen(unit));
  uint32_t from = ts_node_start_byte(self->first), to = ts_node_end_byte(self->last);
  uint32_t first_line = ref_ops_line_start(source, from);
  ref_ops_reindent(&def, source->text + first_line, to - first_line, from - first_line, unit,
                   strlen(unit));
  eddi_strbuf_putc(&def, '\n');
  if (result) eddi_strbuf_printf(&def, "%sreturn %s;\n", unit, result);
  eddi_strbuf_puts(&def, "}\n\n");
  /* Before the function and the comments right above it. */
  TSNode above = self->function;
  for (TSNode prev = ts_node_prev_named_sibling(above); ref_node_is(prev, "comment") &&
       ts_node_end_point(prev).row + 1 >= ts_node_start_point(above).row;
       prev = ts_node_prev_named_sibling(prev))
    above = prev;
  self->insert_at = ref_ops_line_start(source, ts_node_start_byte(above));
  ref_ops_edit(ops, self->file, self->insert_at, self->insert_at, def.data, def.len);
  eddi_strbuf_printf(&ops->facts, "Extracted %s(", args->name);
  for (size_t i = 0; i < self->flow.params.len; i++)
    eddi_strbuf_printf(&ops->facts, "%s%s", i ? ", " : "", self->flow.params.items[i]);
  eddi_strbuf_printf(&ops->facts, ") from %s:%u:%u", source->path, args->first, args->last);
  if (result) eddi_strbuf_printf(&ops->facts, "\nreturns %s", result);
  eddi_strbuf_free(&returns), eddi_strbuf_free(&params), eddi_strbuf_free(&call);
  eddi_strbuf_free(&def), eddi_strbuf_free(&locals);
  ref_flow_free(&self->flow);
  return 0;
}

/* For a language whose syntax errors are local (C): refused when one
 * stands in or beside the function holding the lines (its names, its
 * flow, its types may be misread), or when the new name is a word in or
 * beside one (it may be a declaration the parser did not see). An error
 * elsewhere changes nothing the lines read. */
static int extract__errors(Extract *self, const char *name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t at = ts_node_start_byte(self->first);
  /* The outermost scope below the file's around the lines: their function. */
  uint32_t outer = REF_NONE;
  for (uint32_t s = 0; s < file->scopes.len; s++) {
    const RefScope *scope = &file->scopes.items[s];
    if (scope->parent == 0 && scope->start <= at && at < scope->end) outer = s;
  }
  for (size_t e = 0; e < file->syntax_errors.len; e++) {
    const RefSyntaxError *error = &file->syntax_errors.items[e];
    uint32_t from = error->near_start < error->start ? error->near_start : error->start;
    uint32_t to = error->near_end > error->end ? error->near_end : error->end;
    bool inside = outer == REF_NONE || (from < file->scopes.items[outer].end &&
                                        to >= file->scopes.items[outer].start);
    if (inside) {
      ref_ops_fail_at(ops, self->file, error->start,
                      "%s has a syntax error in the function holding the lines", self->src->path);
      eddi_error_hint(ops->err, "Fix it first (Validate lists them)");
      return EDDI_EINVAL;
    }
    uint32_t word = ref_text_word(self->src->text, self->src->len, from, to, name);
    if (word != UINT32_MAX) {
      ref_ops_fail_at(ops, self->file, word, "Extract: %s may be defined beside a syntax error",
                      name);
      eddi_error_hint(ops->err, "Choose another name, or fix it first (Validate lists them)");
      return EDDI_EINVAL;
    }
  }
  return 0;
}

int ref_extract_plan(RefOps *ops, const RefOpArgs *args) {
  Extract self = {.ops = ops, .name = args->name};
  RefSource *source = ref_index_source(ops->index, args->path);
  if (!source)
    return eddi_error_set(ops->err, EDDI_ENOENT, "%s is no source file of the workspace",
                          args->path);
  self.file = (uint32_t)(source - ops->index->sources.items);
  self.src = source;
  int rc = ref_ops_python(ops, self.file, "Extract_Method");
  /* JavaScript and TypeScript are read by extract__js; C is refused by
   * ref_ops_python with its reason. */
  const RefOpsLang *lang = source->lang ? ref_ops_lang(source->lang->name) : NULL;
  bool js = lang && !lang->self_param && !lang->typed_params;
  bool c = lang && lang->typed_params;
  if (rc < 0 && (js || c)) rc = 0;
  if (rc == 0) rc = ref_ops_valid_name(ops, source->lang, args->name);
  const RefFile *file = ops->program.files.items[self.file];
  bool local_errors = source->lang && source->lang->errors_local;
  if (rc == 0 && file->errors && !local_errors)
    rc = ref_ops_fail_at(ops, self.file, file->first_error, "%s has a syntax error",
                         source->path);
  if (rc == 0) rc = extract__region(&self, args->first, args->last);
  if (rc == 0 && file->errors && local_errors) rc = extract__errors(&self, args->name);
  if (rc == 0 && js) return extract__js(&self, args);
  if (rc == 0 && c) return extract__c(&self, args);
  if (rc == 0) rc = extract__place(&self);
  if (rc == 0) rc = extract__py_shape(&self);
  if (rc == 0) rc = ref_flow_region(ops, self.file, self.function, self.first, self.last, &self.flow);
  bool flowed = rc == 0;
  if (rc == 0) extract__drop_self(&self.flow, self.first_param);
  if (rc == 0 && self.flow.exit_error) {
    rc = ref_ops_fail_at(ops, self.file, self.flow.exit_at, "Extract: %s", self.flow.exit_error);
    if (self.flow.exit_hint) eddi_error_hint(ops->err, "%s", self.flow.exit_hint);
  }
  if (rc == 0) self.returns = self.flow.returns;
  /* The new name must be free where the function goes. */
  if (rc == 0) rc = extract__name_free(&self, false);
  if (rc == 0) {
    uint32_t end = ts_node_end_byte(self.container);
    self.insert_at = !ts_node_is_null(self.function)
                         ? (end < source->len && source->text[end] == '\n' ? end + 1 : end)
                         : ref_ops_line_start(source, ts_node_start_byte(self.container));
    char *text = extract__dedented(source, self.first, self.last);
    /* Duplicates are looked for where the new function is seen: the
     * class, the outer function, or the module. */
    TSNode scope = !ts_node_is_null(self.function) ? ts_node_parent(self.container) : ref_ops_root(ops, self.file);
    rc = extract__duplicates(&self, scope, text);
    eddi_free(text);
  }
  if (rc == 0) {
    StrBuf call = {0}, def = {0};
    extract__call(&self, &self.flow, self.self_name, &call);
    ref_ops_edit(ops, self.file, ts_node_start_byte(self.first), ts_node_end_byte(self.last),
                 call.data, call.len);
    extract__definition(&self, &def);
    StrBuf insert = {0};
    /* After the enclosing function, or before the module's statement
     * holding the lines. */
    eddi_strbuf_putc(&insert, '\n');
    eddi_strbuf_append(&insert, def.data, def.len);
    if (ts_node_is_null(self.function)) eddi_strbuf_putc(&insert, '\n');
    ref_ops_edit(ops, self.file, self.insert_at, self.insert_at, insert.data, insert.len);
    eddi_strbuf_printf(&ops->facts, "Extracted %s(", args->name);
    for (size_t i = 0; i < self.flow.params.len; i++)
      eddi_strbuf_printf(&ops->facts, "%s%s", i ? ", " : "", self.flow.params.items[i]);
    eddi_strbuf_printf(&ops->facts, ") from %s:%u:%u", source->path, args->first, args->last);
    if (self.flow.results.len) {
      eddi_strbuf_puts(&ops->facts, "\nreturns ");
      for (size_t i = 0; i < self.flow.results.len; i++)
        eddi_strbuf_printf(&ops->facts, "%s%s", i ? ", " : "", self.flow.results.items[i]);
    }
    if (self.duplicates)
      eddi_strbuf_printf(&ops->facts, "\n%zu %s replaced", self.duplicates,
                         self.duplicates == 1 ? "duplicate" : "duplicates");
    eddi_strbuf_free(&call), eddi_strbuf_free(&def), eddi_strbuf_free(&insert);
  }
  if (flowed) ref_flow_free(&self.flow);
  eddi_free(self.self_name);
  eddi_free(self.first_param);
  return rc;
}
