/* inline_variable.c - Refactor Inline_Variable <v>: the value written at
 * every use, the assignment removed.
 *
 * One assignment of a plain name, no other writes, every use after it in
 * the same module; the value's names must mean the same at each use and
 * not be assigned again where that could reach a use (write_between); a
 * value that calls or reads state (expr.h) is
 * worth the same only right after the assignment, so it may have one use,
 * in the next statement, before anything there calls; inside an f-string
 * it must not hold the string's quote.
 *
 * JavaScript and TypeScript: a const or let of one name (a var is hoisted
 * and function-wide: refused); a value that makes an object (an object,
 * array or function literal) is one object, so it is inlined only once.
 * C: a local with an initializer, one declarator, no storage class, never
 * written and whose address is never taken; the value is converted to the
 * variable's type as the initialization did, so it is written with a cast
 * to it (but for an int initialized by an integer literal); a variable of
 * a typedef'd type is refused, since whether a cast to it is valid C
 * cannot be told from the syntax. */
#include "refactor/expr.h"
#include "refactor/ops_lang.h"

/* The declaration of name in another language than Python: the statement,
 * the value, and for C the cast the value needs (empty: none) in cast. */
typedef struct {
  TSNode statement, value;
  StrBuf cast;
} InlineDecl;

static int inline_variable__declaration(RefOps *ops, uint32_t f, TSNode id, const char *name,
                                        const RefOpsLang *lang, InlineDecl *out) {
  const char *title = ref_ops_lang_title(ops->index->sources.items[f].lang);
  uint32_t at = ts_node_start_byte(id);
  TSNode declarator = ts_node_parent(id);
  size_t stars = 0;
  while (lang->typed_params && ref_node_is(declarator, "pointer_declarator"))
    stars++, declarator = ts_node_parent(declarator);
  bool js = !lang->typed_params;
  const char *kind = js ? "variable_declarator" : "init_declarator";
  TSNode statement = ts_node_parent(declarator);
  if (!ref_node_is(declarator, kind) || ts_node_is_null(statement))
    return ref_ops_fail_at(ops, f, at, "Inline_Variable needs a declaration of %s with a value",
                           name);
  out->value = ts_node_child_by_field_name(declarator, "value", 5);
  out->statement = statement;
  if (ts_node_is_null(out->value))
    return ref_ops_fail_at(ops, f, at, "Inline_Variable needs a declaration of %s with a value",
                           name);
  uint32_t declarators = 0, count = ts_node_named_child_count(statement);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(statement, i);
    declarators += ref_node_is(child, kind) || ref_node_is(child, "identifier") ||
                   ref_node_is(child, "pointer_declarator") || ref_node_is(child, "array_declarator");
    if (ref_node_is(child, "storage_class_specifier")) {
      char *storage = ref_ops_text(ops, f, child);
      int rc = ref_ops_fail_at(ops, f, at, "Not supported for %s: Inline_Variable of a %s "
                               "variable (its value lives between calls)", title, storage);
      eddi_free(storage);
      return rc;
    }
  }
  if (declarators != 1)
    return ref_ops_fail_at(ops, f, at, "Inline_Variable needs %s declared alone", name);
  if (js) {
    if (ref_node_is(statement, "variable_declaration"))
      return ref_ops_fail_at(ops, f, at, "Not supported for %s: Inline_Variable of a var (it is "
                             "hoisted to the whole function)", title);
    if (ref_node_is(ts_node_child_by_field_name(declarator, "name", 4), "identifier") &&
        !ts_node_is_null(ts_node_child_by_field_name(declarator, "type", 4)))
      return ref_ops_fail_at(ops, f, at, "Not supported for %s: Inline_Variable of a variable "
                             "with a type annotation (the value would lose the type it is "
                             "checked as)", title);
    return 0;
  }
  /* C: the type the initialization converts to. */
  TSNode type = ts_node_child_by_field_name(statement, "type", 4);
  if (ref_node_is(type, "type_identifier"))
    return ref_ops_fail_at(ops, f, at, "Not supported for %s: Inline_Variable cannot tell what "
                           "converting to the typedef %.*s does", title,
                           (int)(ts_node_end_byte(type) - ts_node_start_byte(type)),
                           ops->index->sources.items[f].text + ts_node_start_byte(type));
  if (ref_node_is(out->value, "initializer_list"))
    return ref_ops_fail_at(ops, f, at, "Inline_Variable cannot write an initializer list as a "
                           "value");
  if (ref_node_is(type, "struct_specifier") || ref_node_is(type, "union_specifier")) return 0;
  const RefSource *src = &ops->index->sources.items[f];
  char *value = ref_ops_text(ops, f, out->value);
  /* The declaration's text before its declarator: "const unsigned int ". */
  uint32_t from = ts_node_start_byte(statement), to = ts_node_start_byte(declarator);
  while (to > from && (src->text[to - 1] == ' ' || src->text[to - 1] == '	')) to--;
  char *base = eddi_strndup(src->text + from, to - from);
  if (!stars && ref_ops_c_same_type(base, out->value, value)) {
    eddi_free(base), eddi_free(value);
    return 0;
  }
  eddi_strbuf_printf(&out->cast, "(%s%s", base, stars ? " " : "");
  for (size_t i = 0; i < stars; i++) eddi_strbuf_putc(&out->cast, '*');
  eddi_strbuf_putc(&out->cast, ')');
  eddi_free(base), eddi_free(value);
  return 0;
}

/* Whether a C use is an argument of a macro (which may evaluate it any
 * number of times, or not at all). */
static bool inline_variable__in_macro(RefOps *ops, uint32_t f, TSNode use) {
  for (TSNode at = ts_node_parent(use); !ts_node_is_null(at); at = ts_node_parent(at)) {
    if (!ref_node_is(at, "call_expression")) continue;
    TSNode fn = ts_node_child_by_field_name(at, "function", 8);
    if (!ref_node_is(fn, "identifier") || ts_node_start_byte(use) < ts_node_end_byte(fn)) continue;
    uint32_t occ = ref_expr_occ_at(ops->program.files.items[f], ts_node_start_byte(fn));
    if (occ == REF_NONE) continue;
    RefTarget t = ref_program_target(&ops->program, f, occ);
    if (t.kind == REF_TARGET_SYM &&
        (ops->program.files.items[t.file]->syms.items[t.index].flags & REF_SYM_MACRO))
      return true;
  }
  return false;
}

/* Whether a value that is not pure holds no call: it is impure for the
 * new object a literal in it makes at each evaluation ([], {}, [0] * n). */
static bool inline_variable__literal(TSNode value) {
  static const char *const calls[] = {"call", "call_expression", "new_expression", NULL};
  if (ref_ops_lang_is(value, calls)) return false;
  uint32_t count = ts_node_named_child_count(value);
  for (uint32_t i = 0; i < count; i++)
    if (!inline_variable__literal(ts_node_named_child(value, i))) return false;
  return true;
}

/* Whether a C use takes the variable's address (&v): a pointer could
 * write it, and a value has no address. */
static bool inline_variable__address_taken(TSNode use) {
  TSNode parent = ts_node_parent(use);
  if (!ref_node_is(parent, "pointer_expression")) return false;
  TSNode op = ts_node_child_by_field_name(parent, "operator", 8);
  return !ts_node_is_null(op) && !strcmp(ts_node_type(op), "&");
}

/* The function scope holding scope (a block of it is no boundary). */
static uint32_t inline_variable__function_scope(const RefFile *file, uint32_t scope) {
  while (scope != REF_NONE && file->scopes.items[scope].kind == REF_SCOPE_BLOCK &&
         file->scopes.items[scope].parent != REF_NONE)
    scope = file->scopes.items[scope].parent;
  return scope;
}

/* Why the write of a name the value reads at occurrence w of file f may
 * run between the assignment (statement) and the use at offset use (in
 * scope use_scope) and change the value the use would compute: it stands
 * between them, in a loop holding one of them and not the other (another
 * turn runs it in between), or one of them is in another function (run
 * at another time). NULL when it cannot. */
static const char *inline_variable__write_between(RefOps *ops, uint32_t f, uint32_t w,
                                                  TSNode statement, uint32_t use,
                                                  uint32_t use_scope) {
  static const char *const loops[] = {"for_statement", "while_statement", "for_in_statement",
                                      "do_statement", NULL};
  static const char *const functions[] = {
      "function_definition", "lambda", "function_declaration", "function_expression",
      "function", "arrow_function", "method_definition", "generator_function_declaration",
      "generator_function", "class_definition", "class_declaration", NULL};
  const RefFile *file = ops->program.files.items[f];
  const RefOcc *write = &file->occs.items[w];
  uint32_t assigned = ts_node_start_byte(statement), after = ts_node_end_byte(statement);
  uint32_t def_scope = inline_variable__function_scope(file, ref_expr_scope_at(file, assigned));
  bool written_apart = inline_variable__function_scope(file, write->scope) != def_scope;
  /* A use in a function defined here runs when it is called: any write
   * after the assignment may come first. */
  bool used_apart = inline_variable__function_scope(file, use_scope) != def_scope;
  if (written_apart || (used_apart && write->start >= after))
    return "in another function, which may run between";
  if (used_apart) return NULL;
  if (write->start >= after && write->start < use) return "between";
  for (TSNode at = ref_ops_node(ops, f, write->start, write->end); !ts_node_is_null(at);
       at = ts_node_parent(at)) {
    if (ref_ops_lang_is(at, functions)) break;
    if (!ref_ops_lang_is(at, loops)) continue;
    bool holds_assignment = ref_in(assigned, ts_node_start_byte(at), ts_node_end_byte(at));
    bool holds_use = ref_in(use, ts_node_start_byte(at), ts_node_end_byte(at));
    if (holds_assignment != holds_use) return "in a loop that may run it between";
  }
  return NULL;
}

/* Whether another file imports the module of file f0 (a Python module
 * other code may read a variable of by attribute, star import or getattr,
 * which eddi does not all see). */
static bool inline_variable__imported(RefOps *ops, uint32_t f0) {
  uint32_t module = ops->program.file_module.items[f0];
  if (module == REF_NONE) return false;
  for (uint32_t f = 0; f < ops->program.files.len; f++) {
    const RefFile *file = ops->program.files.items[f];
    if (f == f0) continue;
    for (uint32_t i = 0; i < file->occs.len; i++) {
      RefOccKind kind = file->occs.items[i].kind;
      if (kind != REF_OCC_MODULE_PART && kind != REF_OCC_IMPORT_NAME) continue;
      RefTarget t = ref_program_target(&ops->program, f, i);
      if (t.kind == REF_TARGET_MODULE && t.index == module) return true;
    }
  }
  return false;
}

int ref_inline_variable_plan(RefOps *ops, const RefOpArgs *args) {
  RefTarget target;
  int rc = ref_ops_find(ops, args->spec, &target);
  if (rc < 0) return rc;
  uint32_t f0 = target.file;
  const RefOpsLang *lang;
  if ((rc = ref_ops_syntax(ops, f0, "Inline_Variable", &lang)) < 0) return rc;
  bool python = lang->self_param;
  const RefFile *home = ops->program.files.items[f0];
  const RefSym *sym = &home->syms.items[target.index];
  const char *name = ref_names_str(&ops->index->names, sym->name);
  if (sym->kind != REF_SYM_VARIABLE)
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a variable", args->spec);
  const RefOcc *def = &home->occs.items[sym->first_def];
  if (python && sym->scope == 0 && name[0] != '_' && inline_variable__imported(ops, f0))
    return ref_ops_fail_at(ops, f0, def->start,
                           "Inline_Variable cannot remove %s: other modules import this one, "
                           "and may read it as its attribute (a star import, getattr)",
                           name);
  if (def->next_def != REF_NONE)
    return ref_ops_fail_at(ops, f0, home->occs.items[def->next_def].start,
                           "Inline_Variable needs one assignment of %s: it is assigned again",
                           name);
  TSNode id = ref_ops_node(ops, f0, def->start, def->end);
  TSNode assignment = ts_node_parent(id);
  InlineDecl decl = {0};
  if (!python) {
    rc = inline_variable__declaration(ops, f0, id, name, lang, &decl);
    if (rc < 0) {
      eddi_strbuf_free(&decl.cast);
      return rc;
    }
  } else if (!ref_node_is(assignment, "assignment") ||
             !ts_node_eq(ts_node_child_by_field_name(assignment, "left", 4), id) ||
             !ref_node_is(ts_node_parent(assignment), "expression_statement")) {
    return ref_ops_fail_at(ops, f0, def->start,
                           "Inline_Variable needs a plain assignment of %s", name);
  }
  TSNode value = python ? ts_node_child_by_field_name(assignment, "right", 5) : decl.value;
  if (ts_node_is_null(value) || ref_node_is(value, "assignment"))
    return ref_ops_fail_at(ops, f0, def->start, "Inline_Variable needs a plain assignment of %s",
                           name);
  TSNode statement = python ? ts_node_parent(assignment) : decl.statement;
  const RefSource *src = &ops->index->sources.items[f0];
  char *text = ref_ops_text(ops, f0, value);
  /* C: the value converted as the initialization converted it. */
  char *written = text;
  TSNode written_node = value;
  if (decl.cast.len) {
    StrBuf cast = {0};
    eddi_strbuf_printf(&cast, "%s(%s)", decl.cast.data, text);
    written = eddi_strbuf_take(&cast);
    /* A cast binds looser than a subscript or a call after it: in
     * parentheses unless the use stands alone (the declaration is no
     * primary expression, which is all ref_expr_put asks). */
    written_node = statement;
  }
  eddi_strbuf_free(&decl.cast);
  bool pure = ref_expr_pure(NULL, 0, value);
  bool stable = ref_expr_stable(ops, f0, value);
  TSNode next = ts_node_next_named_sibling(statement);
  while (ref_node_is(next, "comment")) next = ts_node_next_named_sibling(next);
  uint32_t vstart = ts_node_start_byte(value), vend = ts_node_end_byte(value);
  size_t uses = 0;
  for (uint32_t f = 0; f < ops->program.files.len && rc == 0; f++) {
    const RefFile *file = ops->program.files.items[f];
    for (uint32_t i = 0; i < file->occs.len && rc == 0; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->name != sym->name || (f == f0 && occ->start == def->start)) continue;
      RefTarget t = ref_program_canonical(&ops->program, ref_program_target(&ops->program, f, i));
      if (!ref_target_equal(t, target)) continue;
      if (f != f0 || occ->kind != REF_OCC_NAME) {
        rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable cannot remove %s: it is used "
                                                 "from another module", name);
        break;
      }
      if (occ->flags & (REF_OCC_WRITE | REF_OCC_DEF)) {
        rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable: %s is written here", name);
        break;
      }
      if (!pure && inline_variable__in_macro(ops, f, ref_ops_node(ops, f, occ->start, occ->end))) {
        rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable: %s is a macro's argument here, "
                             "which may evaluate %s any number of times", name, text);
        break;
      }
      if (inline_variable__address_taken(ref_ops_node(ops, f, occ->start, occ->end))) {
        rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable: the address of %s is taken "
                             "here", name);
        break;
      }
      uint32_t scope = ref_expr_scope_at(file, occ->start);
      if (scope == sym->scope && occ->start < def->start) {
        rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable: %s is used before it is "
                                                 "assigned", name);
        break;
      }
      /* The value's names mean the same here, and are not assigned again. */
      for (uint32_t k = 0; k < home->occs.len && rc == 0; k++) {
        const RefOcc *v = &home->occs.items[k];
        if (!ref_in(v->start, vstart, vend) || v->kind != REF_OCC_NAME) continue;
        RefTarget meant = ref_program_target(&ops->program, f0, k);
        const char *vname = ref_names_str(&ops->index->names, v->name);
        if (meant.kind == REF_TARGET_UNSURE ||
            !ref_expr_same_meaning(ops, f0, v->scope, f, scope, v->name))
          rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable: %s would mean something "
                                                   "else here", vname);
        else if (meant.kind == REF_TARGET_SYM) {
          const RefSym *vs = &ops->program.files.items[meant.file]->syms.items[meant.index];
          const RefFile *vf = ops->program.files.items[meant.file];
          bool variable = vs->kind == REF_SYM_VARIABLE || vs->kind == REF_SYM_PARAMETER;
          /* Assigned again elsewhere than where the value is computed: it
           * may change between the assignment and this use. */
          for (uint32_t d = vs->first_def; variable && d != REF_NONE && rc == 0;
               d = vf->occs.items[d].next_def) {
            if (d == vs->first_def && vf->occs.items[d].next_def == REF_NONE) break;
            const char *why = meant.file == f0
                                  ? inline_variable__write_between(ops, f0, d, statement,
                                                                   occ->start, scope)
                                  : "in another module, which may run between";
            if (!why) continue;
            StrBuf again = {0};
            ref_target_place(ops->index, meant.file, vf->occs.items[d].start, &again);
            rc = ref_ops_fail_at(ops, f, occ->start,
                                 "Inline_Variable: %s is assigned again at %s, %s the "
                                 "assignment of %s and its use",
                                 vname, again.data, why, name);
            eddi_strbuf_free(&again);
          }
        }
      }
      if (rc < 0) break;
      TSNode use = ref_ops_node(ops, f, occ->start, occ->end);
      TSNode interpolation = ref_node_up(use, "interpolation");
      if (!ts_node_is_null(interpolation)) {
        TSNode string = ref_node_up(interpolation, "string");
        char quote = src->text[ts_node_start_byte(string)];
        for (uint32_t q = ts_node_start_byte(string); q < ts_node_end_byte(string); q++)
          if (src->text[q] == '"' || src->text[q] == '\'') {
            quote = src->text[q];
            break;
          }
        if (strchr(text, quote) || strchr(text, '\\') || strchr(text, '\n')) {
          rc = ref_ops_fail_at(ops, f, occ->start, "Inline_Variable cannot write the value "
                                                   "inside this f-string");
          break;
        }
      }
      /* A value that calls or reads state is worth the same only right
       * after the assignment: in the next statement, before it calls. */
      if (!stable && (ts_node_is_null(next) || !ref_in(occ->start, ts_node_start_byte(next),
                                                        ts_node_end_byte(next)) ||
                      ref_expr_call_before(next, occ->start))) {
        rc = ref_ops_fail_at(ops, f, occ->start,
                             "Inline_Variable would evaluate %s later than the assignment does",
                             text);
        break;
      }
      StrBuf put = {0};
      eddi_strbuf_puts(&put, "");
      /* A shorthand property { v } keeps its key. */
      if (occ->flags & REF_OCC_KEYED) eddi_strbuf_printf(&put, "%s: ", name);
      ref_expr_put(&put, written_node, written, use);
      ref_ops_edit(ops, f, occ->start, occ->end, put.data, put.len);
      eddi_strbuf_free(&put);
      uses++;
    }
  }
  /* Never read: the declaration goes, and with it the value's evaluation,
   * which only a value without effects may lose (a function made and
   * dropped is one). */
  static const char *const droppable[] = {"arrow_function", "function_expression", "lambda",
                                          "regex", NULL};
  if (rc == 0 && uses == 0 && !pure && !ref_ops_lang_is(value, droppable))
    rc = ref_ops_fail_at(ops, f0, vstart,
                         "Inline_Variable would drop %s: the variable is never read", text);
  if (rc == 0 && !pure && uses > 1)
    rc = ref_ops_fail_at(ops, f0, vstart,
                         "Inline_Variable would evaluate %s, which %s, %zu times", text,
                         inline_variable__literal(value) ? "makes a new object" : "calls", uses);
  if (rc == 0) {
    ref_ops_remove_lines(ops, f0, ts_node_start_byte(statement), ts_node_end_byte(statement));
    eddi_strbuf_printf(&ops->facts, "Inlined %s\n%zu %s replaced", args->spec, uses,
                       uses == 1 ? "use" : "uses");
  }
  if (written != text) eddi_free(written);
  eddi_free(text);
  return rc;
}
