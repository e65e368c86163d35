/* inline_variable.c - Refactor Inline_Variable <v>: the value written at
 * every use, the assignment removed.
 *
 * One assignment of a plain name, no other writes, every use after it in
 * the same module; the value's names must mean the same at each use and
 * not be assigned again; a value that calls or reads state (expr.h) is
 * worth the same only right after the assignment, so it may have one use,
 * in the next statement, before anything there calls; inside an f-string
 * it must not hold the string's quote. */
#include "refactor/expr.h"

int ref_inline_variable_plan(RefOps *ops, const RefOpArgs *args) {
  RefTarget target;
  int rc = ref_ops_find(ops, args->spec, &target);
  if (rc < 0) return rc;
  uint32_t f0 = target.file;
  if ((rc = ref_ops_python(ops, f0, "Inline_Variable")) < 0) return rc;
  const RefFile *home = ops->program.files.items[f0];
  const RefSym *sym = &home->syms.items[target.index];
  const char *name = ref_names_str(&ops->index->names, sym->name);
  if (sym->kind != REF_SYM_VARIABLE)
    return eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a variable", args->spec);
  const RefOcc *def = &home->occs.items[sym->first_def];
  if (def->next_def != REF_NONE)
    return ref_ops_fail_at(ops, f0, home->occs.items[def->next_def].start,
                           "Inline_Variable needs one assignment of %s: it is assigned again",
                           name);
  TSNode id = ref_ops_node(ops, f0, def->start, def->end);
  TSNode assignment = ts_node_parent(id);
  if (!ref_node_is(assignment, "assignment") ||
      !ts_node_eq(ts_node_child_by_field_name(assignment, "left", 4), id) ||
      !ref_node_is(ts_node_parent(assignment), "expression_statement"))
    return ref_ops_fail_at(ops, f0, def->start,
                           "Inline_Variable needs a plain assignment of %s", name);
  TSNode value = ts_node_child_by_field_name(assignment, "right", 5);
  if (ts_node_is_null(value) || ref_node_is(value, "assignment"))
    return ref_ops_fail_at(ops, f0, def->start, "Inline_Variable needs a plain assignment of %s",
                           name);
  TSNode statement = ts_node_parent(assignment);
  const RefSource *src = &ops->index->sources.items[f0];
  char *text = ref_ops_text(ops, f0, value);
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
          if ((vs->kind == REF_SYM_VARIABLE || vs->kind == REF_SYM_PARAMETER) &&
              vf->occs.items[vs->first_def].next_def != REF_NONE)
            rc = ref_ops_fail_at(ops, f, occ->start,
                                 "Inline_Variable: %s is assigned more than once", vname);
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
      ref_expr_put(&put, value, text, use);
      ref_ops_edit(ops, f, occ->start, occ->end, put.data, put.len);
      eddi_strbuf_free(&put);
      uses++;
    }
  }
  if (rc == 0 && !pure && uses > 1)
    rc = ref_ops_fail_at(ops, f0, vstart,
                         "Inline_Variable would evaluate %s, which calls, %zu times", text,
                         uses);
  if (rc == 0) {
    ref_ops_remove_lines(ops, f0, ts_node_start_byte(statement), ts_node_end_byte(statement));
    eddi_strbuf_printf(&ops->facts, "Inlined %s\n%zu %s replaced", args->spec, uses,
                       uses == 1 ? "use" : "uses");
  }
  eddi_free(text);
  return rc;
}
