/* class_interface.c - Refactor Extract_Interface <Class> <Interface> for
 * TypeScript.
 *
 * The interface holds the signatures of the class's public instance
 * members, as the class writes them: a method's name, type parameters,
 * parameters and return type, a field's name, optional mark and type
 * (readonly kept). It is written before the class, exported when the
 * class is, with the class's type parameters; the class gets
 * "implements Interface<T>" (added to an implements clause it has). No
 * caller changes: the class still is what it was, it only declares that
 * it meets the interface, which it does by construction.
 *
 * Refused where the interface would not say what the class does: a
 * public method without a return type or a field without a type (an
 * interface would make them implicitly any), an accessor, a constructor
 * parameter property (a public member written in the constructor), a
 * class that is not at module level, an interface name the module binds.
 * There is no tsc here: the transcripts check the result by parsing it
 * with the tree-sitter TypeScript grammar (no ERROR or MISSING node), as
 * the differential check does too. */
#include "refactor/class_ops.h"

/* Whether node has an anonymous child of type (a keyword such as static). */
static bool interface__has(TSNode node, const char *type) {
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_child(node, i);
    if (!ts_node_is_named(child) && !strcmp(ts_node_type(child), type)) return true;
  }
  return false;
}

/* Whether a member is public: no private or protected modifier, no #name. */
static bool interface__public(RefOps *ops, uint32_t file, TSNode member) {
  uint32_t n = ts_node_named_child_count(member);
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_named_child(member, i);
    if (!ref_node_is(child, "accessibility_modifier")) continue;
    char *text = ref_ops_text(ops, file, child);
    bool hidden = strcmp(text, "public") != 0;
    eddi_free(text);
    if (hidden) return false;
  }
  TSNode name = ts_node_child_by_field_name(member, "name", 4);
  return !ref_node_is(name, "private_property_identifier") && !interface__has(member, "static");
}

/* Append a method's parameter list as a signature may write it: a
 * parameter with a default becomes optional (name?: type), which needs its
 * type written. */
static int interface__parameters(RefOps *ops, uint32_t file, TSNode params, const char *method,
                                 StrBuf *out) {
  const RefSource *src = &ops->index->sources.items[file];
  eddi_strbuf_putc(out, '(');
  uint32_t n = ts_node_named_child_count(params);
  size_t written = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (ref_node_is(p, "comment")) continue;
    TSNode value = ts_node_child_by_field_name(p, "value", 5);
    eddi_strbuf_puts(out, written++ ? ", " : "");
    if (ts_node_is_null(value)) {
      eddi_strbuf_append(out, src->text + ts_node_start_byte(p),
                         ts_node_end_byte(p) - ts_node_start_byte(p));
      continue;
    }
    TSNode pattern = ts_node_child_by_field_name(p, "pattern", 7);
    TSNode type = ts_node_child_by_field_name(p, "type", 4);
    if (ts_node_is_null(type) || ts_node_is_null(pattern))
      return ref_ops_fail_at(ops, file, ts_node_start_byte(p),
                             "Extract_Interface: a parameter of %s has a default and no type",
                             method);
    eddi_strbuf_append(out, src->text + ts_node_start_byte(pattern),
                       ts_node_end_byte(pattern) - ts_node_start_byte(pattern));
    eddi_strbuf_putc(out, '?');
    eddi_strbuf_append(out, src->text + ts_node_start_byte(type),
                       ts_node_end_byte(type) - ts_node_start_byte(type));
  }
  eddi_strbuf_putc(out, ')');
  return 0;
}

/* Append one member's signature line; refuse what an interface cannot say. */
static int interface__member(RefOps *ops, uint32_t file, TSNode member, const char *unit,
                             StrBuf *out, size_t *count) {
  const RefSource *src = &ops->index->sources.items[file];
  const char *type = ts_node_type(member);
  bool method = !strcmp(type, "method_definition") || !strcmp(type, "method_signature") ||
                !strcmp(type, "abstract_method_signature");
  bool field = !strcmp(type, "public_field_definition");
  if ((!method && !field) || !interface__public(ops, file, member)) return 0;
  TSNode name = ts_node_child_by_field_name(member, "name", 4);
  char *name_text = ref_ops_text(ops, file, name);
  int rc = 0;
  if (method && !strcmp(name_text, "constructor")) {
    TSNode params = ts_node_child_by_field_name(member, "parameters", 10);
    uint32_t n = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
      TSNode p = ts_node_named_child(params, i);
      uint32_t m = ts_node_named_child_count(p);
      for (uint32_t j = 0; j < m; j++)
        if (ref_node_is(ts_node_named_child(p, j), "accessibility_modifier") ||
            interface__has(p, "readonly")) {
          rc = ref_ops_fail_at(ops, file, ts_node_start_byte(p),
                               "Extract_Interface cannot yet take a constructor parameter "
                               "property");
          break;
        }
    }
    eddi_free(name_text);
    return rc;
  }
  TSNode end =
      ts_node_child_by_field_name(member, method ? "return_type" : "type", method ? 11 : 4);
  if (method && (interface__has(member, "get") || interface__has(member, "set")))
    rc = ref_ops_fail_at(ops, file, ts_node_start_byte(name),
                         "Extract_Interface cannot yet write an accessor (%s)", name_text);
  else if (ts_node_is_null(end))
    rc = ref_ops_fail_at(ops, file, ts_node_start_byte(name),
                         "Extract_Interface: %s has no %s type to write in the interface",
                         name_text, method ? "return" : "declared");
  if (rc == 0) {
    eddi_strbuf_puts(out, unit);
    if (field && interface__has(member, "readonly")) eddi_strbuf_puts(out, "readonly ");
    uint32_t start = ts_node_start_byte(name);
    /* A method's parameters are written again; the rest as it is. */
    TSNode params = method ? ts_node_child_by_field_name(member, "parameters", 10) : end;
    uint32_t from = method ? ts_node_end_byte(params) : start;
    if (method) {
      eddi_strbuf_append(out, src->text + start, ts_node_start_byte(params) - start);
      rc = interface__parameters(ops, file, params, name_text, out);
    }
    eddi_strbuf_append(out, src->text + from, ts_node_end_byte(end) - from);
    eddi_strbuf_puts(out, ";\n");
    (*count)++;
  }
  eddi_free(name_text);
  return rc;
}

/* "<T, U>" of a class's type parameters (their names), or "". */
static void interface__type_args(RefOps *ops, uint32_t file, TSNode params, StrBuf *out) {
  eddi_strbuf_puts(out, "");
  uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
  size_t written = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (!ref_node_is(p, "type_parameter")) continue;
    char *name = ref_ops_text(ops, file, ts_node_child_by_field_name(p, "name", 4));
    eddi_strbuf_printf(out, "%s%s", written++ ? ", " : "<", name);
    eddi_free(name);
  }
  if (written) eddi_strbuf_putc(out, '>');
}

int ref_ts_extract_interface_plan(RefOps *ops, const RefOpArgs *args, RefTarget klass) {
  const RefFile *file = ops->program.files.items[klass.file];
  const RefSource *src = &ops->index->sources.items[klass.file];
  const RefSym *sym = &file->syms.items[klass.index];
  int rc = ref_ops_valid_name(ops, file->lang, args->other);
  if (rc < 0) return rc;
  uint32_t iface = ref_names_intern(&ops->index->names, args->other, strlen(args->other));
  uint32_t bound = ref_file_bound(file, 0, iface);
  if (bound != REF_NONE)
    return ref_ops_fail_at(ops, klass.file, file->syms.items[bound].start,
                           "Extract_Interface: %s is already defined", args->other);
  if (sym->scope != 0)
    return ref_ops_fail_at(ops, klass.file, sym->start,
                           "Extract_Interface needs a module-level class");
  TSNode node = ref_ops_node(ops, klass.file, sym->start, sym->start + 1);
  TSNode decl = ref_node_up(node, "class_declaration");
  if (ts_node_is_null(decl)) decl = ref_node_up(node, "abstract_class_declaration");
  if (ts_node_is_null(decl))
    return ref_ops_fail_at(ops, klass.file, sym->start,
                           "Extract_Interface: %s is no class "
                           "declaration",
                           args->spec);
  TSNode statement = ts_node_parent(decl);
  bool exported = ref_node_is(statement, "export_statement");
  if (!exported) statement = decl;
  const char *unit = src->lang->indent ? src->lang->indent : "  ";
  TSNode type_params = ts_node_child_by_field_name(decl, "type_parameters", 15);
  StrBuf text = {0}, type_args = {0};
  interface__type_args(ops, klass.file, type_params, &type_args);
  eddi_strbuf_printf(&text, "%sinterface %s", exported ? "export " : "", args->other);
  if (!ts_node_is_null(type_params)) {
    char *params = ref_ops_text(ops, klass.file, type_params);
    eddi_strbuf_puts(&text, params);
    eddi_free(params);
  }
  eddi_strbuf_puts(&text, " {\n");
  size_t members = 0;
  TSNode body = ts_node_child_by_field_name(decl, "body", 4);
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n && rc == 0; i++)
    rc = interface__member(ops, klass.file, ts_node_named_child(body, i), unit, &text, &members);
  if (rc == 0 && !members)
    rc = ref_ops_fail_at(ops, klass.file, sym->start, "Extract_Interface: %s has no public member",
                         args->spec);
  if (rc == 0) {
    eddi_strbuf_puts(&text, "}\n");
    for (size_t b = 0; b < (src->lang->blank_lines ? src->lang->blank_lines : 1); b++)
      eddi_strbuf_putc(&text, '\n');
    uint32_t at = ref_ops_line_start(src, ts_node_start_byte(statement));
    ref_ops_edit(ops, klass.file, at, at, text.data, text.len);
    /* implements: added to the clause, or a clause after the heritage,
     * the type parameters or the name. */
    TSNode heritage = {0}, implements = {0};
    uint32_t count = ts_node_named_child_count(decl);
    for (uint32_t i = 0; i < count; i++)
      if (ref_node_is(ts_node_named_child(decl, i), "class_heritage"))
        heritage = ts_node_named_child(decl, i);
    uint32_t hn = ts_node_is_null(heritage) ? 0 : ts_node_named_child_count(heritage);
    for (uint32_t i = 0; i < hn; i++)
      if (ref_node_is(ts_node_named_child(heritage, i), "implements_clause"))
        implements = ts_node_named_child(heritage, i);
    StrBuf clause = {0};
    uint32_t where;
    if (!ts_node_is_null(implements)) {
      eddi_strbuf_printf(&clause, ", %s%s", args->other, type_args.data);
      where = ts_node_end_byte(implements);
    } else {
      eddi_strbuf_printf(&clause, " implements %s%s", args->other, type_args.data);
      TSNode after = !ts_node_is_null(heritage)      ? heritage
                     : !ts_node_is_null(type_params) ? type_params
                                                     : ts_node_child_by_field_name(decl, "name", 4);
      where = ts_node_end_byte(after);
      /* The heritage node may end with the space before the body. */
      while (where > ts_node_start_byte(after) && src->text[where - 1] == ' ') where--;
    }
    ref_ops_edit(ops, klass.file, where, where, clause.data, clause.len);
    eddi_strbuf_free(&clause);
    eddi_strbuf_printf(&ops->facts, "Extracted interface %s from %s with %zu %s", args->other,
                       args->spec, members, members == 1 ? "member" : "members");
  }
  eddi_strbuf_free(&text);
  eddi_strbuf_free(&type_args);
  return rc;
}
