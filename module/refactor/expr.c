/* expr.c - what the refactorings past rename ask of an expression; see
 * expr.h.
 *
 * The node types named here are Python's, C's and JavaScript's (and
 * TypeScript's, which are JavaScript's) side by side: the grammars share
 * the names they mean alike (identifier, parenthesized_expression, pair)
 * and name the rest apart (call, call_expression), so one list serves
 * every language without asking which one a node is of. */
#include "refactor/expr.h"

/* The occurrence of file f that starts at offset, or REF_NONE. */
uint32_t ref_expr_occ_at(const RefFile *file, uint32_t offset) {
  for (uint32_t i = 0; i < file->occs.len; i++)
    if (file->occs.items[i].start == offset) return i;
  return REF_NONE;
}

/* Whether calling a class runs nothing of anyone's: neither it nor a base
 * defines __init__ or __new__, and every base is such a class of the
 * workspace or the language's plain base (object). */
static bool expr__plain_class(RefOps *ops, uint32_t f, uint32_t klass, unsigned depth) {
  enum { INLINE_BASES_DEPTH_MAX = 16 }; /* deeper hierarchies are not called plain */
  if (depth > INLINE_BASES_DEPTH_MAX) return false;
  const RefFile *file = ops->program.files.items[f];
  static const char *const specials[] = {"__init__", "__new__"};
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
    uint32_t name = ref_names_find(&ops->index->names, specials[i], strlen(specials[i]));
    if (name != REF_NONE && ref_file_bound(file, file->syms.items[klass].own_scope, name) != REF_NONE)
      return false;
  }
  const RefSym *sym = &file->syms.items[klass];
  for (uint32_t b = 0; b < sym->bases_count; b++) {
    uint32_t expr = file->bases.items[sym->bases_first + b];
    RefValue base = ref_program_expr_value(&ops->program, f, expr);
    if (base.kind == REF_VALUE_CLASS) {
      if (!expr__plain_class(ops, base.file, base.index, depth + 1)) return false;
      continue;
    }
    const RefExpr *e = &file->exprs.items[expr];
    if (base.kind != REF_VALUE_EXTERNAL || e->kind != REF_EXPR_OCC) return false;
    const char *name = ref_names_str(&ops->index->names, file->occs.items[e->ref].name);
    bool plain = false;
    for (size_t k = 0; k < EDDI_LANG_LIST_MAX && file->lang->plain_bases[k]; k++)
      plain |= strcmp(file->lang->plain_bases[k], name) == 0;
    if (!plain) return false;
  }
  return true;
}

/* Whether a call only makes an instance of a plain class. */
static bool expr__plain_call(RefOps *ops, uint32_t f, TSNode call) {
  if (ops == NULL) return false;
  TSNode fn = ts_node_child_by_field_name(call, "function", 8);
  if (ref_node_is(fn, "attribute")) fn = ts_node_child_by_field_name(fn, "attribute", 9);
  if (!ref_node_is(fn, "identifier")) return false;
  uint32_t occ = ref_expr_occ_at(ops->program.files.items[f], ts_node_start_byte(fn));
  if (occ == REF_NONE) return false;
  RefTarget t = ref_program_canonical(&ops->program, ref_program_target(&ops->program, f, occ));
  return t.kind == REF_TARGET_SYM &&
         ops->program.files.items[t.file]->syms.items[t.index].kind == REF_SYM_CLASS &&
         expr__plain_class(ops, t.file, t.index, 0);
}

/* Whether an expression (of file f) may be evaluated any number of times
 * and in any order: nothing in it calls (but a plain class), awaits,
 * yields or assigns. */
bool ref_expr_pure(RefOps *ops, uint32_t f, TSNode node) {
  const char *type = ts_node_type(node);
  if (!strcmp(type, "call") && expr__plain_call(ops, f, node)) {
    TSNode args = ts_node_child_by_field_name(node, "arguments", 9);
    return ts_node_is_null(args) || ref_expr_pure(ops, f, args);
  }
  /* Python's effects, then C's and JavaScript's; a Python list, dict or
   * set display and a JavaScript object, array, function or class literal
   * make a new object each time. */
  static const char *const effects[] = {
      "call", "await", "yield", "named_expression", "list", "dictionary", "set",
      "list_comprehension",
      "generator_expression", "dictionary_comprehension", "set_comprehension",
      "call_expression", "new_expression", "await_expression", "yield_expression",
      "assignment_expression", "augmented_assignment_expression", "update_expression",
      "arrow_function", "function_expression", "function", "class", "object", "array", "regex",
      "compound_literal_expression", "gnu_asm_expression", NULL};
  for (size_t i = 0; effects[i]; i++)
    if (!strcmp(type, effects[i])) return false;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++)
    if (!ref_expr_pure(ops, f, ts_node_named_child(node, i))) return false;
  return true;
}

/* Whether an expression reads state that code in between could change:
 * a subscript, an attribute of anything but a module or a class. */
bool ref_expr_reads_state(RefOps *ops, uint32_t f, TSNode node) {
  if (ref_node_is(node, "subscript") || ref_node_is(node, "subscript_expression") ||
      ref_node_is(node, "member_expression") || ref_node_is(node, "field_expression") ||
      ref_node_is(node, "pointer_expression"))
    return true;
  if (ref_node_is(node, "attribute")) {
    TSNode name = ts_node_child_by_field_name(node, "attribute", 9);
    const RefFile *file = ops ? ops->program.files.items[f] : NULL;
    uint32_t occ = file ? ref_expr_occ_at(file, ts_node_start_byte(name)) : REF_NONE;
    RefValue value = {REF_VALUE_UNKNOWN, 0, 0};
    if (occ != REF_NONE && file->occs.items[occ].expr != REF_NONE)
      value = ref_program_expr_value(&ops->program, f, file->occs.items[occ].expr);
    if (value.kind != REF_VALUE_MODULE && value.kind != REF_VALUE_CLASS) return true;
    return ref_expr_reads_state(ops, f, ts_node_child_by_field_name(node, "object", 6));
  }
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++)
    if (ref_expr_reads_state(ops, f, ts_node_named_child(node, i))) return true;
  return false;
}

/* Whether an expression gives the same value wherever and however often it
 * is evaluated: free of effects, reading no state. */
bool ref_expr_stable(RefOps *ops, uint32_t f, TSNode node) {
  return ref_expr_pure(ops, f, node) && !ref_expr_reads_state(ops, f, node);
}

/* Whether a call node of tree lies before offset without holding it:
 * something evaluated before what is at offset. */
bool ref_expr_call_before(TSNode node, uint32_t offset) {
  if (ts_node_start_byte(node) >= offset) return false;
  bool holds = ts_node_end_byte(node) > offset;
  if ((ref_node_is(node, "call") || ref_node_is(node, "call_expression") ||
       ref_node_is(node, "new_expression")) && !holds)
    return true;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++)
    if (ref_expr_call_before(ts_node_named_child(node, i), offset)) return true;
  return false;
}

/* Whether an expression binds tighter than any operator around it. */
static bool expr__primary(TSNode node) {
  static const char *const primaries[] = {
      "identifier", "integer", "float",      "string",     "true",     "false",
      "none",       "call",    "attribute",  "subscript",  "list",     "dictionary",
      "set",        "tuple",   "parenthesized_expression", "concatenated_string",
      "list_comprehension",    "dictionary_comprehension", "set_comprehension",
      "generator_expression",  "ellipsis",
      /* C's and JavaScript's */
      "number_literal", "string_literal", "char_literal", "number", "template_string",
      "null", "undefined", "this", "call_expression", "member_expression",
      "subscript_expression", "field_expression", "array"};
  for (size_t i = 0; i < sizeof primaries / sizeof primaries[0]; i++)
    if (ref_node_is(node, primaries[i])) return true;
  return false;
}

/* Whether an expression written where node is needs no parentheses
 * whatever it is: node is a whole argument, element, value or statement. */
static bool expr__standalone(TSNode node) {
  TSNode parent = ts_node_parent(node);
  if (ts_node_is_null(parent)) return true;
  static const char *const places[] = {
      "argument_list", "parenthesized_expression", "list",    "set",
      "expression_statement", "return_statement", "subscript", "interpolation", "expression_list",
      "arguments", "template_substitution"};
  for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
    if (ref_node_is(parent, places[i])) return !ref_node_is(parent, "subscript") ||
                                               !ts_node_eq(ts_node_child_by_field_name(parent, "value", 5), node);
  if (ref_node_is(parent, "keyword_argument") || ref_node_is(parent, "pair"))
    return ts_node_eq(ts_node_child_by_field_name(parent, "value", 5), node);
  if (ref_node_is(parent, "assignment") || ref_node_is(parent, "assignment_expression"))
    return ts_node_eq(ts_node_child_by_field_name(parent, "right", 5), node);
  if (ref_node_is(parent, "variable_declarator") || ref_node_is(parent, "init_declarator"))
    return ts_node_eq(ts_node_child_by_field_name(parent, "value", 5), node);
  return false;
}

/* Append value (an expression's text) as it must be written at node. */
void ref_expr_put(StrBuf *out, TSNode value_node, const char *value, TSNode at) {
  bool bare = ts_node_is_null(value_node) || expr__primary(value_node) || expr__standalone(at);
  if (!bare) eddi_strbuf_putc(out, '(');
  eddi_strbuf_puts(out, value);
  if (!bare) eddi_strbuf_putc(out, ')');
}

/* An argument's text with the line breaks between its tokens made spaces
 * (a call spread over lines is one expression in the body). */
char *ref_expr_flat(RefOps *ops, uint32_t f, TSNode node) {
  char *text = ref_ops_text(ops, f, node);
  if (ref_node_is(node, "string")) return text;
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  char quote = 0;
  for (const char *p = text; *p; p++) {
    if (quote) {
      if (*p == quote) quote = 0;
      eddi_strbuf_putc(&out, *p);
      continue;
    }
    if (*p == '\'' || *p == '"') quote = *p;
    if (*p == '\\' && p[1] == '\n') p++;
    if (*p == '\n') {
      while (out.len && out.data[out.len - 1] == ' ') out.data[--out.len] = '\0';
      while (p[1] == ' ' || p[1] == '\t') p++;
      eddi_strbuf_putc(&out, ' ');
      continue;
    }
    eddi_strbuf_putc(&out, *p);
  }
  eddi_free(text);
  return eddi_strbuf_take(&out);
}

/* The statement node holds: the child of a block or of the module. */
TSNode ref_expr_statement(TSNode node) {
  while (!ts_node_is_null(node)) {
    TSNode parent = ts_node_parent(node);
    if (ts_node_is_null(parent) || ref_node_is(parent, "block") || ref_node_is(parent, "module") ||
        ref_node_is(parent, "statement_block") || ref_node_is(parent, "program") ||
        ref_node_is(parent, "compound_statement") || ref_node_is(parent, "translation_unit"))
      return node;
    node = parent;
  }
  return node;
}

/* Whether the name occ of file f means target at scope of file g. */
bool ref_expr_same_meaning(RefOps *ops, uint32_t f, uint32_t fscope, uint32_t g,
                           uint32_t gscope, uint32_t name) {
  /* Each side's own binding first: an import of a module outside the
   * workspace resolves to nothing, but is bound all the same. */
  uint32_t here = ref_file_lookup(ops->program.files.items[f], fscope, name);
  uint32_t there = ref_file_lookup(ops->program.files.items[g], gscope, name);
  if (here == REF_NONE || there == REF_NONE) return here == there;
  if (f == g && here == there) return true;
  RefTarget a = ref_program_canonical(&ops->program, (RefTarget){REF_TARGET_SYM, f, here});
  RefTarget b = ref_program_canonical(&ops->program, (RefTarget){REF_TARGET_SYM, g, there});
  return a.kind != REF_TARGET_NONE && a.kind != REF_TARGET_UNSURE && ref_target_equal(a, b);
}

/* The scope of file f around offset (the innermost). */
uint32_t ref_expr_scope_at(const RefFile *file, uint32_t offset) {
  uint32_t best = 0;
  for (uint32_t s = 0; s < file->scopes.len; s++) {
    const RefScope *scope = &file->scopes.items[s];
    if (offset >= scope->start && offset < scope->end &&
        scope->end - scope->start <= file->scopes.items[best].end - file->scopes.items[best].start)
      best = s;
  }
  return best;
}

/* Whether scope lies in (or is) outer. */
bool ref_expr_within(const RefFile *file, uint32_t scope, uint32_t outer) {
  for (; scope != REF_NONE; scope = file->scopes.items[scope].parent)
    if (scope == outer) return true;
  return false;
}
