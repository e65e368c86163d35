/* flow.c - reads, writes and liveness of a region; see flow.h.
 *
 * The node types are Python's and JavaScript's (TypeScript's) side by
 * side, as in expr.c: the grammars name their statements apart. In
 * JavaScript a let or const of a block inside the function is a variable
 * of the function for the region as much as one of its body is (blocks
 * are no boundary for the flow, only for where a name is seen). */
#include "refactor/flow.h"

#include "refactor/ops_lang.h"

/* Deepest nesting the exit walk follows (deeper code is refused). */
#define FLOW_DEPTH_MAX 256

void ref_flow_free(RefFlow *self) {
  RefFlowNames *lists[] = {&self->params, &self->results, &self->declared};
  for (size_t l = 0; l < 3; l++) {
    for (size_t i = 0; i < lists[l]->len; i++) eddi_free(lists[l]->items[i]);
    array_free(lists[l]);
  }
  eddi_free(self->exit_owned);
  self->exit_owned = NULL;
}

/* ---------------------------------------------------------------- exits */

typedef struct {
  RefFlow *out;
  TSNode last;
} FlowExits;

static void flow__exit(FlowExits *self, TSNode node, const char *why) {
  if (self->out->exit_error) return;
  self->out->exit_error = why;
  self->out->exit_at = ts_node_start_byte(node);
  self->out->unsafe = true;
}

/* Node types whose code runs apart from the region's: nested functions
 * and classes. */
static const char *const flow__apart[] = {
    "function_definition", "class_definition", "lambda", "function_declaration",
    "generator_function_declaration", "function_expression", "function", "generator_function",
    "arrow_function", "class_declaration", "class", "method_definition", NULL};

/* Returns, yields, awaits, breaks and continues of node (loops deep loops
 * around it inside the region, switches deep switches, which a break
 * leaves too). */
static void flow__exits(FlowExits *self, TSNode node, unsigned loops, unsigned switches,
                        unsigned depth) {
  const char *type = ts_node_type(node);
  if (depth > FLOW_DEPTH_MAX) return flow__exit(self, node, "the lines nest too deep");
  if (ref_ops_lang_is(node, flow__apart)) return;
  if (!strcmp(type, "yield") || !strcmp(type, "yield_expression"))
    return flow__exit(self, node, "the lines yield");
  if (!strcmp(type, "await") || !strcmp(type, "await_expression"))
    return flow__exit(self, node, "the lines await");
  if ((!strcmp(type, "for_statement") || !strcmp(type, "for_in_statement")) &&
      ts_node_child_count(node) > 1 &&
      (ref_node_is(ts_node_child(node, 0), "async") || ref_node_is(ts_node_child(node, 1), "await")))
    return flow__exit(self, node, "the lines hold an async for");
  bool leaves = !strcmp(type, "break_statement") || !strcmp(type, "continue_statement");
  if (leaves && !ts_node_is_null(ts_node_child_by_field_name(node, "label", 5)))
    return flow__exit(self, node, "a labelled break or continue may leave the lines");
  if (leaves && loops == 0 && (switches == 0 || !strcmp(type, "continue_statement")))
    return flow__exit(self, node, !strcmp(type, "break_statement")
                                      ? "a break leaves the lines"
                                      : "a continue leaves the lines");
  if (!strcmp(type, "return_statement")) {
    if (ts_node_eq(node, self->last)) self->out->returns = true;
    else flow__exit(self, node, "the lines return from other than their last statement");
  }
  bool loop = !strcmp(type, "for_statement") || !strcmp(type, "while_statement") ||
              !strcmp(type, "for_in_statement") || !strcmp(type, "do_statement");
  bool switch_ = !strcmp(type, "switch_statement");
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_named_child(node, i);
    bool body = loop && !ref_node_is(child, "else_clause");
    flow__exits(self, child, loops + (body ? 1 : 0), switches + (switch_ ? 1 : 0), depth + 1);
  }
}

/* ---------------------------------------------------------------- occurrences */

typedef struct {
  uint32_t sym;
  uint32_t key;  /* when it happens */
  bool read, write;
  bool conditional; /* a write inside a compound statement of the region */
  bool handler;     /* an except clause's "as" target: unbound again after the clause */
  bool nested;      /* in a function, lambda or class inside the enclosing one: runs later */
  /* A write after the region: the reads in [covers_from, covers_to) come
   * after it on every path, so they read its value, not the region's. */
  uint32_t covers_from, covers_to;
  uint32_t occ;
  TSNode node;
} FlowUse;

/* When an occurrence happens: a target when its value has been computed. */
static uint32_t flow__key(TSNode node, uint32_t start, bool *augmented) {
  *augmented = false;
  for (TSNode child = node, parent = ts_node_parent(node); !ts_node_is_null(parent);
       child = parent, parent = ts_node_parent(parent)) {
    const char *type = ts_node_type(parent);
    if (!strcmp(type, "block") || !strcmp(type, "module") || !strcmp(type, "statement_block") ||
        !strcmp(type, "program") || !strcmp(type, "compound_statement"))
      break;
    /* x++ reads and writes x where it stands. */
    if (!strcmp(type, "update_expression") && ts_node_eq(child, node)) {
      *augmented = true;
      return start;
    }
    if (!strcmp(type, "init_declarator") &&
        ts_node_eq(ts_node_child_by_field_name(parent, "declarator", 10), child)) {
      TSNode value = ts_node_child_by_field_name(parent, "value", 5);
      return ts_node_is_null(value) ? start : ts_node_end_byte(value);
    }
    if (!strcmp(type, "variable_declarator") &&
        ts_node_eq(ts_node_child_by_field_name(parent, "name", 4), child)) {
      TSNode value = ts_node_child_by_field_name(parent, "value", 5);
      return ts_node_is_null(value) ? start : ts_node_end_byte(value);
    }
    bool assignment = !strcmp(type, "assignment") || !strcmp(type, "augmented_assignment") ||
                      !strcmp(type, "for_statement") || !strcmp(type, "for_in_clause") ||
                      !strcmp(type, "assignment_expression") ||
                      !strcmp(type, "augmented_assignment_expression") ||
                      !strcmp(type, "for_in_statement");
    if (assignment) {
      TSNode left = ts_node_child_by_field_name(parent, "left", 4);
      TSNode right = ts_node_child_by_field_name(parent, "right", 5);
      if (ts_node_eq(left, child) && !ts_node_is_null(right)) {
        /* C writes a compound assignment as an assignment_expression
         * whose operator is not "=". */
        TSNode op = ts_node_child_by_field_name(parent, "operator", 8);
        bool compound = !strcmp(type, "assignment_expression") && !ts_node_is_null(op) &&
                        strcmp(ts_node_type(op), "=") != 0;
        *augmented = (!strcmp(type, "augmented_assignment") ||
                      !strcmp(type, "augmented_assignment_expression") || compound) &&
                     ts_node_eq(left, node);
        return ts_node_end_byte(right);
      }
    }
    if (!strcmp(type, "named_expression") &&
        ts_node_eq(ts_node_child_by_field_name(parent, "name", 4), child))
      return ts_node_end_byte(ts_node_child_by_field_name(parent, "value", 5));
  }
  return start;
}

/* Whether node is the name an except clause binds ("except E as err"). */
static bool flow__handler_target(TSNode node) {
  for (TSNode at = ts_node_parent(node); !ts_node_is_null(at); at = ts_node_parent(at)) {
    if (ref_node_is(at, "except_clause") || ref_node_is(at, "except_group_clause")) return true;
    if (!ref_node_is(at, "as_pattern_target") && !ref_node_is(at, "as_pattern")) return false;
  }
  return false;
}

static bool flow__plain_path(TSNode node, TSNode top);

/* Whether node lies in a block below statement (a compound's body), or in
 * a for's target; a plain write in C's for initializer is none, it runs
 * whether the body does or not. */
static bool flow__nested(TSNode node, TSNode statement) {
  TSNode init = ts_node_child_by_field_name(statement, "initializer", 11);
  if (ref_node_is(statement, "for_statement") && !ts_node_is_null(init) &&
      flow__plain_path(node, init))
    return false;
  for (TSNode at = ts_node_parent(node); !ts_node_is_null(at) && !ts_node_eq(at, statement);
       at = ts_node_parent(at))
    if (ref_node_is(at, "block") || ref_node_is(at, "for_statement") ||
        ref_node_is(at, "statement_block") || ref_node_is(at, "for_in_statement") ||
        ref_node_is(at, "compound_statement"))
      return true;
  return ref_node_is(statement, "for_statement") || ref_node_is(statement, "with_statement") ||
         ref_node_is(statement, "try_statement") || ref_node_is(statement, "for_in_statement") ||
         ref_node_is(statement, "do_statement");
}

/* Node types that hold statements one after another. */
static const char *const flow__blocks[] = {"block", "module", "statement_block", "program",
                                           "compound_statement", "translation_unit", NULL};

/* Node types a write passes through on the way up to its statement when
 * the statement makes it whenever it runs (no branch, no loop, no
 * function between). */
static const char *const flow__plain_parts[] = {
    "assignment", "pattern_list", "tuple_pattern", "list_pattern", "expression_list",
    "parenthesized_expression", "assignment_expression", "variable_declarator",
    "init_declarator", "array_pattern", "lexical_declaration", "variable_declaration",
    "declaration", "expression_statement", "comma_expression", NULL};

/* Whether every node from node's parent up to top is a plain part. */
static bool flow__plain_path(TSNode node, TSNode top) {
  for (TSNode at = ts_node_parent(node); !ts_node_is_null(at); at = ts_node_parent(at)) {
    if (!ref_ops_lang_is(at, flow__plain_parts)) return false;
    if (ts_node_eq(at, top)) return true;
  }
  return false;
}

/* Whether statement writes node each time it runs: node sits in it through
 * plain assignments and declarations only. */
static bool flow__plain_write(TSNode node, TSNode statement) {
  if (!ref_node_is(statement, "expression_statement") &&
      !ref_node_is(statement, "lexical_declaration") &&
      !ref_node_is(statement, "variable_declaration") && !ref_node_is(statement, "declaration"))
    return false;
  return flow__plain_path(node, statement);
}

/* The bytes a write at node (happening at key) reaches on every path: the
 * body of the for whose target it is, or the rest of the block whose
 * statement writes it plainly. Leaves *from == *to when there are none. */
static void flow__covers(TSNode node, uint32_t key, uint32_t *from, uint32_t *to) {
  *from = *to = 0;
  for (TSNode child = node, parent = ts_node_parent(node); !ts_node_is_null(parent);
       child = parent, parent = ts_node_parent(parent)) {
    if (ref_node_is(parent, "for_statement") || ref_node_is(parent, "for_in_statement")) {
      TSNode left = ts_node_child_by_field_name(parent, "left", 4);
      TSNode body = ts_node_child_by_field_name(parent, "body", 4);
      TSNode init = ts_node_child_by_field_name(parent, "initializer", 11);
      /* C's initializer runs first, whether the body runs or not: it
       * reaches the rest of the loop, and the rest of the block when the
       * loop is a statement of one. */
      if (!ts_node_is_null(init) && ts_node_eq(init, child) && flow__plain_path(node, init)) {
        TSNode outer = ts_node_parent(parent);
        *from = key + 1;
        *to = ref_ops_lang_is(outer, flow__blocks) ? ts_node_end_byte(outer)
                                                   : ts_node_end_byte(parent);
        return;
      }
      if (ts_node_is_null(left) || !ts_node_eq(left, child) || ts_node_is_null(body)) return;
      *from = ts_node_start_byte(body), *to = ts_node_end_byte(body);
      return;
    }
    if (ref_ops_lang_is(parent, flow__blocks)) {
      if (!flow__plain_write(node, child)) return;
      *from = key + 1, *to = ts_node_end_byte(parent);
      return;
    }
  }
}

/* Whether statement gives the variable sym a value on every path that goes
 * on past it: a plain write of it, an if with an else whose every branch
 * has a statement that does (or raises), a try whose body and handlers do
 * or whose finally clause does. */
static bool flow__surely_writes(const FlowUse *uses, size_t n, uint32_t sym, TSNode statement);

static bool flow__block_surely_writes(const FlowUse *uses, size_t n, uint32_t sym, TSNode block) {
  if (ts_node_is_null(block)) return false;
  /* Python's else and elif clauses hold their block as "body" or
   * "consequence"; a JavaScript or C else holds the statement itself. */
  if (!ref_ops_lang_is(block, flow__blocks)) return flow__surely_writes(uses, n, sym, block);
  uint32_t count = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < count; i++)
    if (flow__surely_writes(uses, n, sym, ts_node_named_child(block, i))) return true;
  return false;
}

/* The block a Python except or finally clause holds, or a null node. */
static TSNode flow__clause_block(TSNode clause) {
  for (uint32_t i = ts_node_named_child_count(clause); i > 0; i--)
    if (ref_node_is(ts_node_named_child(clause, i - 1), "block"))
      return ts_node_named_child(clause, i - 1);
  return (TSNode){0};
}

static bool flow__surely_writes(const FlowUse *uses, size_t n, uint32_t sym, TSNode statement) {
  /* No path goes on past a raise: what follows sees only the others. */
  if (ref_node_is(statement, "raise_statement") || ref_node_is(statement, "throw_statement"))
    return true;
  if (ref_node_is(statement, "try_statement")) {
    /* The finally clause runs on every path; else the body and every
     * handler must give it a value. */
    TSNode finalizer = ts_node_child_by_field_name(statement, "finalizer", 9);
    if (ref_node_is(finalizer, "finally_clause")) /* JavaScript's: its block is its body */
      finalizer = ts_node_child_by_field_name(finalizer, "body", 4);
    uint32_t count = ts_node_named_child_count(statement);
    for (uint32_t i = 0; i < count && ts_node_is_null(finalizer); i++)
      if (ref_node_is(ts_node_named_child(statement, i), "finally_clause"))
        finalizer = flow__clause_block(ts_node_named_child(statement, i));
    if (flow__block_surely_writes(uses, n, sym, finalizer)) return true;
    if (!flow__block_surely_writes(uses, n, sym,
                                   ts_node_child_by_field_name(statement, "body", 4)))
      return false;
    for (uint32_t i = 0; i < count; i++) {
      TSNode clause = ts_node_named_child(statement, i);
      bool catch_ = ref_node_is(clause, "catch_clause");
      if (!catch_ && !ref_node_is(clause, "except_clause") &&
          !ref_node_is(clause, "except_group_clause"))
        continue;
      TSNode handler = catch_ ? ts_node_child_by_field_name(clause, "body", 4)
                              : flow__clause_block(clause);
      if (!flow__block_surely_writes(uses, n, sym, handler)) return false;
    }
    return true;
  }
  if (ref_node_is(statement, "if_statement")) {
    if (!flow__block_surely_writes(uses, n, sym,
                                   ts_node_child_by_field_name(statement, "consequence", 11)))
      return false;
    bool has_else = false;
    uint32_t count = ts_node_named_child_count(statement);
    for (uint32_t i = 0; i < count; i++) {
      TSNode clause = ts_node_named_child(statement, i);
      bool elif = ref_node_is(clause, "elif_clause"), else_ = ref_node_is(clause, "else_clause");
      if (!elif && !else_) continue;
      has_else |= else_;
      TSNode body = ts_node_child_by_field_name(clause, elif ? "consequence" : "body",
                                                elif ? 11 : 4);
      /* JavaScript's and C's else_clause holds its statement unnamed by a field. */
      if (ts_node_is_null(body) && ts_node_named_child_count(clause))
        body = ts_node_named_child(clause, ts_node_named_child_count(clause) - 1);
      if (!flow__block_surely_writes(uses, n, sym, body)) return false;
    }
    return has_else;
  }
  uint32_t from = ts_node_start_byte(statement), to = ts_node_end_byte(statement);
  for (size_t i = 0; i < n; i++) {
    const FlowUse *u = &uses[i];
    uint32_t at = ts_node_start_byte(u->node);
    if (u->sym == sym && u->write && !u->nested && !u->handler && at >= from && at < to &&
        flow__plain_write(u->node, statement))
      return true;
  }
  return false;
}

/* The top-level statement of a block holding node, or a null node. */
static TSNode flow__statement_in(TSNode node, TSNode block) {
  for (; !ts_node_is_null(node); node = ts_node_parent(node))
    if (ts_node_eq(ts_node_parent(node), block)) return node;
  return node;
}

static int flow__by_key(const void *a, const void *b) {
  const FlowUse *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->read && !y->read ? -1 : !x->read && y->read ? 1 : 0;
}

static bool flow__has(const RefFlowNames *list, const char *name) {
  for (size_t i = 0; i < list->len; i++)
    if (!strcmp(list->items[i], name)) return true;
  return false;
}

/* Whether scope is outer or a block inside it (no function between). */
static bool flow__block_of(const RefFile *file, uint32_t scope, uint32_t outer) {
  for (; scope != REF_NONE; scope = file->scopes.items[scope].parent) {
    if (scope == outer) return true;
    if (file->scopes.items[scope].kind != REF_SCOPE_BLOCK) return false;
  }
  return false;
}

/* ---------------------------------------------------------------- the region */

int ref_flow_region(RefOps *ops, uint32_t f, TSNode function, TSNode first, TSNode last,
                    RefFlow *out) {
  memset(out, 0, sizeof *out);
  const RefFile *file = ops->program.files.items[f];
  uint32_t rs = ts_node_start_byte(first), re = ts_node_end_byte(last);
  FlowExits exits = {out, last};
  for (TSNode s = first;; s = ts_node_next_named_sibling(s)) {
    flow__exits(&exits, s, 0, 0, 0);
    if (ts_node_eq(s, last) || ts_node_is_null(s)) break;
  }
  /* The enclosing function's scope (the module's, 0). */
  uint32_t scope = 0;
  uint32_t fs = 0, fe = (uint32_t)ops->index->sources.items[f].len;
  if (!ts_node_is_null(function)) {
    fs = ts_node_start_byte(function), fe = ts_node_end_byte(function);
    /* The parameters are the function's own, a nested function's scope
     * may start where the body does. */
    TSNode params = ts_node_child_by_field_name(function, "parameters", 10);
    if (ts_node_is_null(params)) params = ts_node_child_by_field_name(function, "parameter", 9);
    /* C: the parameters are the declarator's. */
    for (TSNode d = ts_node_child_by_field_name(function, "declarator", 10);
         ts_node_is_null(params) && !ts_node_is_null(d);
         d = ts_node_child_by_field_name(d, "declarator", 10))
      params = ts_node_child_by_field_name(d, "parameters", 10);
    uint32_t at = ts_node_start_byte(params) + 1;
    for (uint32_t s = 0; s < file->scopes.len; s++) {
      const RefScope *sc = &file->scopes.items[s];
      /* JavaScript's arrow functions open lambda scopes. */
      bool function_scope = sc->kind == REF_SCOPE_FUNCTION ||
                            (sc->kind == REF_SCOPE_LAMBDA && strcmp(file->lang->name, "python"));
      if (function_scope && at >= sc->start && at < sc->end && sc->start >= fs &&
          (scope == 0 || sc->end - sc->start <= file->scopes.items[scope].end -
                                                     file->scopes.items[scope].start))
        scope = s;
    }
  }
  TSNode block = ts_node_parent(first);
  /* A loop of the function around the region carries values round. */
  TSNode loop = {0};
  for (TSNode at = block; !ts_node_is_null(at) && !ts_node_eq(at, function);
       at = ts_node_parent(at))
    if (ref_node_is(at, "for_statement") || ref_node_is(at, "while_statement") ||
        ref_node_is(at, "for_in_statement") || ref_node_is(at, "do_statement")) {
      loop = at;
      break;
    }
  /* Python has no block scopes of its own (its BLOCK scopes are the outer
   * parts of a definition, evaluated where it stands). */
  bool blocks = strcmp(file->lang->name, "python") != 0;
  Array(FlowUse) uses = {0};
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    /* Names, and the definitions imports make (the names they bind). */
    if (occ->start < fs || occ->start >= fe ||
        (occ->kind != REF_OCC_NAME && !(occ->flags & REF_OCC_DEF)))
      continue;
    /* The file's own binding: an import resolves to its module, but it is
     * a variable of the function all the same. */
    uint32_t bound = (occ->flags & REF_OCC_DEF) && occ->sym != REF_NONE
                         ? occ->sym
                         : ref_file_lookup(file, occ->scope, occ->name);
    RefTarget t = {REF_TARGET_SYM, f, bound};
    TSNode node = ref_ops_node(ops, f, occ->start, occ->end);
    bool write = (occ->flags & (REF_OCC_DEF | REF_OCC_WRITE)) != 0;
    if (bound == REF_NONE) continue;
    const RefSym *sym = &file->syms.items[t.index];
    if (sym->scope != scope && !(blocks && flow__block_of(file, sym->scope, scope))) {
      /* A global or nonlocal the region assigns. */
      uint32_t decl = ref_map_get(&file->declarations, ref_key(scope, occ->name));
      if (write && ref_in(occ->start, rs, re) && decl != REF_NONE && scope != 0) {
        StrBuf line = {0};
        eddi_strbuf_printf(&line, "%s %s", decl == REF_DECL_GLOBAL ? "global" : "nonlocal",
                           ref_names_str(&ops->index->names, occ->name));
        bool inside = false;
        for (uint32_t k = 0; k < file->occs.len; k++) {
          const RefOcc *o = &file->occs.items[k];
          if (o->name != occ->name || !ref_in(o->start, rs, re)) continue;
          TSNode n = ref_ops_node(ops, f, o->start, o->end);
          inside |= ref_node_is(ts_node_parent(n), "global_statement") ||
                    ref_node_is(ts_node_parent(n), "nonlocal_statement");
        }
        if (!inside && !flow__has(&out->declared, line.data))
          array_push(&out->declared, eddi_strbuf_take(&line));
        eddi_strbuf_free(&line);
      }
      continue;
    }
    bool augmented;
    FlowUse use = {.sym = t.index, .occ = i,
                   .nested = blocks ? !flow__block_of(file, occ->scope, scope)
                                    : occ->scope != scope};
    use.key = flow__key(node, occ->start, &augmented);
    use.write = write;
    use.read = !write || augmented;
    use.handler = write && flow__handler_target(node);
    /* A handler's name is bound wherever the handler's code reads it. */
    if (write && ref_in(occ->start, rs, re) && !use.handler)
      use.conditional = flow__nested(node, flow__statement_in(node, block));
    use.node = node;
    if (write && !augmented && !use.nested && occ->start >= re)
      flow__covers(node, use.key, &use.covers_from, &use.covers_to);
    array_push(&uses, use);
  }
  if (uses.len) qsort(uses.items, uses.len, sizeof *uses.items, flow__by_key);
  /* Each variable in order of its first use in the region. */
  for (size_t i = 0; i < uses.len; i++) {
    const FlowUse *u = &uses.items[i];
    if (!ref_in(u->key, rs, re + 1) || !ref_in(file->occs.items[u->occ].start, rs, re)) continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++)
      seen = uses.items[j].sym == u->sym && ref_in(file->occs.items[uses.items[j].occ].start, rs, re);
    if (seen) continue;
    const RefSym *sym = &file->syms.items[u->sym];
    bool read_first = u->read, written = false, definite = false, read_in = false;
    bool before = sym->kind == REF_SYM_PARAMETER, live = false, loop_read = false;
    bool handler_only = true, used_after = false;
    uint32_t live_at = REF_NONE; /* the first read after the lines that sees their value */
    for (size_t j = 0; j < uses.len; j++) {
      const FlowUse *v = &uses.items[j];
      if (v->sym != u->sym) continue;
      uint32_t start = file->occs.items[v->occ].start;
      bool in = ref_in(start, rs, re);
      if (in) {
        written |= v->write, read_in |= v->read;
        definite |= v->write && !v->conditional;
        if (v->write && !v->handler) handler_only = false;
      } else if (start < rs) {
        before |= v->write && !v->handler;
        if (!ts_node_is_null(loop) && start >= ts_node_start_byte(loop) && v->read) loop_read = true;
        /* A function defined before may read it after the lines ran. */
        if (v->read && v->nested) live = true;
      } else if (!v->read) {
        if (!v->nested) used_after = true;
      } else {
        if (!v->nested) used_after = true;
        /* Live unless a write after the lines comes first on every path. */
        bool covered = false;
        for (size_t k = 0; k < uses.len && !covered; k++) {
          const FlowUse *w = &uses.items[k];
          covered = w->sym == u->sym && w->covers_from < w->covers_to &&
                    v->key >= w->covers_from && v->key < w->covers_to;
        }
        if (!covered && live_at == REF_NONE) live_at = start;
        live |= !covered;
      }
    }
    if (!ts_node_is_null(loop) && (loop_read || read_first)) live = live || written;
    /* A variable the lines declare (JavaScript, C) that code after them
     * uses is declared by the call, live or not. */
    if (blocks && used_after && ref_in(sym->start, rs, re)) live = true;
    const char *name = ref_names_str(&ops->index->names, sym->name);
    bool module = scope == 0;
    bool param = read_first || (written && !definite && before && (read_in || live));
    /* Passed for the value the lines may keep, it is read at the call: it
     * must surely have one there (a statement before the lines, in their
     * block or one around it, gives it one on every path), or the call
     * would raise where the lines, writing it first, did not. */
    bool surely_before = sym->kind == REF_SYM_PARAMETER || blocks;
    for (TSNode at = first; !surely_before && !ts_node_is_null(at);) {
      for (TSNode s = ts_node_prev_named_sibling(at); !surely_before && !ts_node_is_null(s);
           s = ts_node_prev_named_sibling(s))
        surely_before = flow__surely_writes(uses.items, uses.len, u->sym, s);
      TSNode up = ts_node_parent(ts_node_parent(at));
      if (ts_node_is_null(up) || ref_node_is(up, "function_definition") ||
          ref_node_is(ts_node_parent(at), "module"))
        break;
      at = up;
    }
    if (param && !read_first && !surely_before && !out->exit_error) {
      StrBuf why = {0};
      eddi_strbuf_printf(&why, "%s may have no value where the lines start (it is assigned "
                               "before them only conditionally), and the call would read it", name);
      out->exit_owned = eddi_strbuf_take(&why);
      out->exit_error = out->exit_owned;
      out->exit_hint = "Give it a value before the lines, or take the lines that assign it too";
      out->exit_at = file->occs.items[u->occ].start;
      out->unsafe = true;
    }
    /* Read first by a function the lines define, with no value yet: it
     * would be passed before it has one. */
    if (param && !(module && !written) && read_first && u->nested && !before &&
        !out->exit_error) {
      out->exit_error = "a function the lines define reads a variable assigned only later";
      out->exit_at = file->occs.items[u->occ].start;
      out->unsafe = true;
    }
    if (module && !written) param = false;
    if (param) array_push(&out->params, eddi_strdup(name));
    /* A name only except clauses bind is gone after them. */
    if (written && handler_only) live = false;
    /* Given a value only on some paths through the lines and none before
     * them, it would be returned unbound when they give it none. */
    bool surely = definite;
    for (TSNode s = first; !surely && !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
      surely = flow__surely_writes(uses.items, uses.len, u->sym, s);
      if (ts_node_eq(s, last)) break;
    }
    if (written && live && !out->returns && !surely && !param && !out->exit_error) {
      StrBuf why = {0};
      eddi_strbuf_printf(&why, "%s may be unbound after the lines (they assign it only "
                               "conditionally) where it is read", name);
      out->exit_owned = eddi_strbuf_take(&why);
      eddi_strbuf_free(&why);
      out->exit_error = out->exit_owned;
      out->exit_hint = "Give it a value before the lines, or take the lines that read it too";
      /* The read after them; for a read again in a loop around them or by
       * a function defined before them, the lines' first write. */
      out->exit_at = live_at != REF_NONE ? live_at : file->occs.items[u->occ].start;
      out->unsafe = true;
    }
    if (written && live && !out->returns) array_push(&out->results, eddi_strdup(name));
  }
  array_free(&uses);
  return 0;
}
