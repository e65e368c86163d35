/* class_ops.c - what the class operations share (a class's body, bases and
 * ancestry, the place of an import, a delegate's arguments), and Refactor
 * Extract_Interface <Class> <Interface> for Python (TypeScript's is
 * class_interface.c's).
 *
 * Extracting an interface writes a typing.Protocol with the signatures of
 * the class's public methods before the class (and the import of
 * Protocol): the class conforms to it structurally, so no caller changes.
 * Refused when the interface's name is taken or Protocol means something
 * else in the module. */
#include "refactor/class_ops.h"

#include <ctype.h>

#include "refactor/family.h"

/* ---------------------------------------------------------------- shared by the class ops */

TSNode ref_class_definition(RefOps *ops, RefTarget target) {
  TSNode name;
  const EddiLang *lang = ops->index->sources.items[target.file].lang;
  if (lang && !strcmp(lang->name, "python")) return ref_ops_definition(ops, target, &name);
  const RefFile *file = ops->program.files.items[target.file];
  const RefOcc *def = &file->occs.items[file->syms.items[target.index].first_def];
  TSNode node = ts_node_parent(ref_ops_node(ops, target.file, def->start, def->end));
  const char *type = ts_node_type(node);
  bool defines = !strcmp(type, "method_definition") || !strcmp(type, "method_signature") ||
                 !strcmp(type, "abstract_method_signature") || !strcmp(type, "class_declaration") ||
                 !strcmp(type, "abstract_class_declaration") || !strcmp(type, "class");
  return defines ? node : (TSNode){0};
}

TSNode ref_class_node(RefOps *ops, uint32_t file, uint32_t klass) {
  TSNode def = ref_class_definition(ops, (RefTarget){REF_TARGET_SYM, file, klass});
  if (ref_node_is(def, "decorated_definition"))
    def = ts_node_child_by_field_name(def, "definition", 10);
  return def;
}

TSNode ref_class_body(RefOps *ops, uint32_t file, uint32_t klass) {
  return ts_node_child_by_field_name(ref_class_node(ops, file, klass), "body", 4);
}

static bool class__descends(RefOps *ops, uint32_t file, uint32_t klass, uint32_t afile,
                            uint32_t aklass, unsigned depth) {
  if (file == afile && klass == aklass) return true;
  if (depth > REF_CLASS_DEPTH_MAX) return false;
  RefIds bases = {0};
  ref_program_bases(&ops->program, file, klass, &bases);
  bool found = false;
  for (size_t i = 0; i + 1 < bases.len && !found; i += 2)
    found = class__descends(ops, bases.items[i], bases.items[i + 1], afile, aklass, depth + 1);
  array_free(&bases);
  return found;
}

bool ref_class_descends(RefOps *ops, uint32_t file, uint32_t klass, uint32_t afile,
                        uint32_t aklass) {
  return class__descends(ops, file, klass, afile, aklass, 0);
}

/* The class an expression of file names: the value of its last name. */
static RefTarget class__class_of(RefOps *ops, uint32_t file, TSNode node) {
  const RefFile *f = ops->program.files.items[file];
  RefTarget found = {REF_TARGET_UNSURE, 0, 0};
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  for (uint32_t i = 0; i < f->occs.len; i++) {
    const RefOcc *occ = &f->occs.items[i];
    if (!ref_in(occ->start, start, end) || occ->end != end) continue;
    RefTarget t = ref_program_canonical(&ops->program, ref_program_target(&ops->program, file, i));
    if (t.kind == REF_TARGET_SYM &&
        ops->program.files.items[t.file]->syms.items[t.index].kind == REF_SYM_CLASS)
      return t;
    found = t.kind == REF_TARGET_NONE ? t : (RefTarget){REF_TARGET_UNSURE, 0, 0};
  }
  return found;
}

/* A JavaScript or TypeScript class's base: the expression after extends
 * (class_heritage, or its extends_clause in TypeScript). */
static void class__js_bases(RefOps *ops, uint32_t file, TSNode klass, RefClassBases *out) {
  for (uint32_t i = 0; i < ts_node_named_child_count(klass); i++) {
    TSNode heritage = ts_node_named_child(klass, i);
    if (!ref_node_is(heritage, "class_heritage")) continue;
    TSNode extends = ts_node_named_child(heritage, 0);
    if (ref_node_is(extends, "implements_clause")) return;
    TSNode base = ref_node_is(extends, "extends_clause")
                      ? ts_node_child_by_field_name(extends, "value", 5)
                      : extends;
    if (ts_node_is_null(base)) return;
    RefClassBase b = {base, class__class_of(ops, file, base)};
    array_push(out, b);
    return;
  }
}

void ref_class_bases(RefOps *ops, uint32_t file, TSNode klass, RefClassBases *out) {
  if (ts_node_is_null(klass)) return; /* a TypeScript enum: no class node, no bases */
  if (!ref_node_is(klass, "class_definition")) {
    class__js_bases(ops, file, klass, out);
    return;
  }
  TSNode list = ts_node_child_by_field_name(klass, "superclasses", 12);
  uint32_t n = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list);
  for (uint32_t i = 0; i < n; i++) {
    TSNode base = ts_node_named_child(list, i);
    if (ref_node_is(base, "keyword_argument") || ref_node_is(base, "comment") ||
        ref_node_is(base, "list_splat") || ref_node_is(base, "dictionary_splat"))
      continue;
    RefClassBase b = {base, class__class_of(ops, file, base)};
    array_push(out, b);
  }
}

uint32_t ref_class_foreign_base(RefOps *ops, RefTarget klass) {
  RefClassBases bases = {0};
  ref_class_bases(ops, klass.file, ref_class_node(ops, klass.file, klass.index), &bases);
  uint32_t at = REF_NONE;
  for (size_t i = 0; i < bases.len && at == REF_NONE; i++) {
    if (bases.items[i].klass.kind == REF_TARGET_SYM) continue;
    char *text = ref_ops_text(ops, klass.file, bases.items[i].node);
    if (strcmp(text, "object") != 0) at = ts_node_start_byte(bases.items[i].node);
    eddi_free(text);
  }
  array_free(&bases);
  return at;
}

typedef struct {
  RefOps *ops;
  RefTarget klass;
  bool ancestors;
} ClassKin;

/* Whether class (file, klass) descends from the class asked about, or
 * (with ancestors) is one of its ancestors. */
static bool class__kin(void *context, uint32_t file, uint32_t klass) {
  const ClassKin *kin = context;
  return ref_class_descends(kin->ops, file, klass, kin->klass.file, kin->klass.index) ||
         (kin->ancestors &&
          ref_class_descends(kin->ops, kin->klass.file, kin->klass.index, file, klass));
}

bool ref_class_computed_lookup(RefOps *ops, RefTarget klass, bool ancestors, uint32_t *file,
                               uint32_t *offset) {
  ClassKin kin = {ops, klass, ancestors};
  return ref_family_computed_lookup(&ops->program, class__kin, &kin, file, offset);
}

bool ref_class_reflected(RefOps *ops, RefTarget klass, bool ancestors, uint32_t *file,
                         uint32_t *offset) {
  ClassKin kin = {ops, klass, ancestors};
  return ref_family_reflected(&ops->program, class__kin, &kin, file, offset);
}

int ref_class_find(RefOps *ops, const char *spec, RefTarget *out) {
  int rc = ref_ops_find(ops, spec, out);
  if (rc == 0 && ops->program.files.items[out->file]->syms.items[out->index].kind != REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", spec);
  /* A TypeScript enum binds a class-like name, with no class node. */
  if (rc == 0 && ts_node_is_null(ref_class_node(ops, out->file, out->index)))
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class (an enum)", spec);
  return rc;
}

/* A docstring and comments before the imports stay first. */
uint32_t ref_class_import_at(RefOps *ops, uint32_t file, bool *blank) {
  TSNode root = ref_ops_root(ops, file);
  const RefSource *src = &ops->index->sources.items[file];
  uint32_t at = 0, n = ts_node_named_child_count(root);
  *blank = true;
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_named_child(root, i);
    bool doc = i == 0 && ref_node_is(child, "expression_statement") &&
               ref_node_is(ts_node_named_child(child, 0), "string");
    bool import = ref_node_is(child, "import_statement") ||
                  ref_node_is(child, "import_from_statement") ||
                  ref_node_is(child, "future_import_statement");
    if (!doc && !import && !ref_node_is(child, "comment")) break;
    if (doc || import) at = ref_ops_next_line(src, ts_node_end_byte(child) - 1);
    if (import) *blank = false;
  }
  return at;
}

void ref_class_module_name(RefOps *ops, uint32_t file, StrBuf *out) {
  uint32_t module = ref_program_file_module(&ops->program, file);
  const char *path = ref_names_str(&ops->index->names, ops->program.modules.items[module].path);
  for (const char *p = path; *p; p++) eddi_strbuf_putc(out, *p == '/' ? '.' : *p);
}

void ref_words_split(const char *text, RefWords *out) {
  for (const char *p = text; *p;) {
    while (*p == ',' || *p == ' ') p++;
    const char *end = p;
    while (*end && *end != ',' && *end != ' ') end++;
    if (end > p) array_push(out, eddi_strndup(p, (size_t)(end - p)));
    p = end;
  }
}

void ref_words_free(RefWords *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i]);
  array_free(self);
}

/* JavaScript asks with instanceof; TypeScript also where the class is a
 * type (an annotation, a type argument, an implements clause). */
static bool class__js_type_test(TSNode node) {
  if (ref_node_is(node, "type_identifier")) return true;
  TSNode up = ts_node_parent(node);
  while (ref_node_is(up, "parenthesized_expression")) node = up, up = ts_node_parent(up);
  if (!ref_node_is(up, "binary_expression")) return false;
  TSNode op = ts_node_child_by_field_name(up, "operator", 8);
  TSNode right = ts_node_child_by_field_name(up, "right", 5);
  return !ts_node_is_null(op) && !strcmp(ts_node_type(op), "instanceof") &&
         ts_node_eq(right, node);
}

bool ref_class_type_test(RefOps *ops, uint32_t file, uint32_t start, uint32_t end) {
  TSNode node = ref_ops_node(ops, file, start, end);
  const EddiLang *lang = ops->index->sources.items[file].lang;
  if (lang && strcmp(lang->name, "python") != 0) return class__js_type_test(node);
  for (TSNode up = ts_node_parent(node); !ts_node_is_null(up); up = ts_node_parent(up)) {
    const char *type = ts_node_type(up);
    if (!strcmp(type, "except_clause") || !strcmp(type, "except_group_clause") ||
        !strcmp(type, "comparison_operator"))
      return true;
    if (!strcmp(type, "call")) {
      char *callee = ref_ops_text(ops, file, ts_node_child_by_field_name(up, "function", 8));
      bool test = !strcmp(callee, "isinstance") || !strcmp(callee, "issubclass");
      eddi_free(callee);
      return test;
    }
    if (strcmp(type, "argument_list") && strcmp(type, "tuple") && strcmp(type, "attribute") &&
        strcmp(type, "parenthesized_expression") && strcmp(type, "as_pattern"))
      return false;
  }
  return false;
}

/* ---------------------------------------------------------------- delegates */

void ref_class_forward(RefOps *ops, uint32_t file, TSNode params, StrBuf *out) {
  uint32_t n = ts_node_named_child_count(params);
  bool keyword_only = false;
  size_t written = 0;
  for (uint32_t i = 1; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *type = ts_node_type(p);
    if (!strcmp(type, "keyword_separator")) {
      keyword_only = true;
      continue;
    }
    if (!strcmp(type, "positional_separator") || !strcmp(type, "comment")) continue;
    TSNode id = p;
    const char *prefix = "";
    if (!strcmp(type, "default_parameter") || !strcmp(type, "typed_default_parameter"))
      id = ts_node_child_by_field_name(p, "name", 4);
    else if (!strcmp(type, "typed_parameter")) id = ts_node_named_child(p, 0);
    if (ref_node_is(id, "list_splat_pattern")) prefix = "*", id = ts_node_named_child(id, 0), keyword_only = true;
    else if (ref_node_is(id, "dictionary_splat_pattern")) prefix = "**", id = ts_node_named_child(id, 0);
    char *name = ref_ops_text(ops, file, id);
    if (keyword_only && !*prefix)
      eddi_strbuf_printf(out, "%s%s=%s", written++ ? ", " : "", name, name);
    else eddi_strbuf_printf(out, "%s%s%s", written++ ? ", " : "", prefix, name);
    eddi_free(name);
  }
}


/* ---------------------------------------------------------------- JavaScript's members */

bool ref_class_js_keyword(TSNode node, const char *type) {
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_child(node, i);
    if (!ts_node_is_named(child) && !strcmp(ts_node_type(child), type)) return true;
  }
  return false;
}

const char *ref_class_js_hidden(RefOps *ops, uint32_t file, TSNode node) {
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    TSNode child = ts_node_named_child(node, i);
    if (!ref_node_is(child, "accessibility_modifier")) continue;
    char *text = ref_ops_text(ops, file, child);
    const char *hidden = !strcmp(text, "private")     ? "private"
                         : !strcmp(text, "protected") ? "protected"
                                                      : NULL;
    eddi_free(text);
    return hidden;
  }
  return NULL;
}

const char *ref_class_js_method_why(RefOps *ops, uint32_t file, TSNode def, uint32_t *at) {
  TSNode id = ts_node_child_by_field_name(def, "name", 4);
  *at = ts_node_start_byte(id);
  const char *why = NULL;
  if (ref_class_js_keyword(def, "static")) why = "a static method (only instance methods move)";
  else if (ref_class_js_keyword(def, "get") || ref_class_js_keyword(def, "set")) why = "an accessor";
  else if (!ref_node_is(id, "property_identifier")) why = "a method with a #private or computed name";
  else if (ts_node_is_null(ts_node_child_by_field_name(def, "body", 4))) why = "a method without a body";
  for (uint32_t i = 0; !why && i < ts_node_named_child_count(def); i++) {
    TSNode child = ts_node_named_child(def, i);
    if (ref_node_is(child, "decorator")) why = "a decorated method";
    else if (ref_node_is(child, "override_modifier")) why = "an override (its new class has no base to override)";
  }
  char *spelled = ref_ops_text(ops, file, id);
  if (!why && !strcmp(spelled, "constructor")) why = "the constructor";
  /* Overload signatures stay with the name: a sibling member of it. */
  TSNode body = ts_node_parent(def);
  for (uint32_t i = 0; !why && i < ts_node_named_child_count(body); i++) {
    TSNode other = ts_node_named_child(body, i);
    if (ts_node_eq(other, def) || ref_node_is(other, "comment")) continue;
    TSNode other_id = ts_node_child_by_field_name(other, "name", 4);
    if (ts_node_is_null(other_id)) continue;
    char *text = ref_ops_text(ops, file, other_id);
    if (!strcmp(text, spelled)) why = "an overloaded method", *at = ts_node_start_byte(other);
    eddi_free(text);
  }
  eddi_free(spelled);
  return why;
}

uint32_t ref_class_js_leading(RefOps *ops, uint32_t file, TSNode member) {
  TSNode before = ts_node_prev_named_sibling(member);
  const RefSource *src = &ops->index->sources.items[file];
  if (!ts_node_is_null(before) && ref_node_is(before, "comment") &&
      ts_node_end_point(before).row + 1 == ts_node_start_point(member).row &&
      ref_ops_line_start(src, ts_node_start_byte(before)) +
              ref_ops_indent(src, ts_node_start_byte(before)) ==
          ts_node_start_byte(before))
    return ts_node_start_byte(before);
  return ts_node_start_byte(member);
}

uint32_t ref_class_js_this(RefOps *ops, uint32_t file, TSNode node, bool nested,
                           RefThisAllowed allowed, void *context) {
  const char *type = ts_node_type(node);
  if (!strcmp(type, "this"))
    return !nested && allowed && allowed(context, node) ? REF_NONE : ts_node_start_byte(node);
  if (!strcmp(type, "super") || !strcmp(type, "meta_property")) return ts_node_start_byte(node);
  if (!strcmp(type, "identifier") && ts_node_end_byte(node) - ts_node_start_byte(node) == 9 &&
      !memcmp(ops->index->sources.items[file].text + ts_node_start_byte(node), "arguments", 9))
    return ts_node_start_byte(node);
  nested = nested || !strcmp(type, "function_expression") || !strcmp(type, "function_declaration") ||
           !strcmp(type, "generator_function") ||
           !strcmp(type, "generator_function_declaration") ||
           !strcmp(type, "method_definition") || !strcmp(type, "class") ||
           !strcmp(type, "class_declaration");
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t at = ref_class_js_this(ops, file, ts_node_child(node, i), nested, allowed, context);
    if (at != REF_NONE) return at;
  }
  return REF_NONE;
}

int ref_class_js_forward(RefOps *ops, uint32_t file, TSNode params, const char *word,
                         StrBuf *out) {
  uint32_t n = ts_node_named_child_count(params);
  size_t written = 0;
  for (uint32_t i = 0; i < n; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (ref_node_is(p, "comment") || ref_node_is(p, "decorator")) continue;
    TSNode id = p;
    if (ref_node_is(id, "required_parameter") || ref_node_is(id, "optional_parameter"))
      id = ts_node_child_by_field_name(id, "pattern", 7);
    if (ref_node_is(id, "this")) continue; /* TypeScript's this parameter is a type only */
    if (ref_node_is(id, "assignment_pattern")) id = ts_node_child_by_field_name(id, "left", 4);
    const char *prefix = "";
    if (ref_node_is(id, "rest_pattern")) prefix = "...", id = ts_node_named_child(id, 0);
    if (!ref_node_is(id, "identifier")) {
      int rc = ref_ops_fail_at(ops, file, ts_node_start_byte(p),
                               "%s cannot pass a destructured parameter on to the moved method",
                               word);
      eddi_error_hint(ops->err, "Take it by a name and destructure it in the body first");
      return rc;
    }
    char *name = ref_ops_text(ops, file, id);
    eddi_strbuf_printf(out, "%s%s%s", written++ ? ", " : "", prefix, name);
    eddi_free(name);
  }
  return 0;
}

void ref_class_js_delegate(RefOps *ops, uint32_t file, TSNode method, const char *holder,
                           const char *name, const char *arguments) {
  TSNode body = ts_node_child_by_field_name(method, "body", 4);
  StrBuf delegate = {0};
  /* A generator's body passes on what the moved one yields, and its result. */
  eddi_strbuf_printf(&delegate, "return %sthis.%s.%s(%s);",
                     ref_class_js_keyword(method, "*") ? "yield* " : "", holder, name, arguments);
  uint32_t n = ts_node_named_child_count(body);
  if (n == 0) {
    StrBuf block = {0};
    eddi_strbuf_printf(&block, "{ %s }", delegate.data);
    ref_ops_edit(ops, file, ts_node_start_byte(body), ts_node_end_byte(body), block.data,
                 block.len);
    eddi_strbuf_free(&block);
  } else {
    TSNode first = ts_node_named_child(body, 0);
    ref_ops_edit(ops, file, ts_node_start_byte(first),
                 ts_node_end_byte(ts_node_named_child(body, n - 1)), delegate.data, delegate.len);
  }
  eddi_strbuf_free(&delegate);
}

void ref_class_js_fill_body(RefOps *ops, uint32_t file, TSNode klass, const char *members,
                            size_t len) {
  const RefSource *src = &ops->index->sources.items[file];
  TSNode body = ts_node_child_by_field_name(klass, "body", 4);
  uint32_t kline = ref_ops_line_start(src, ts_node_start_byte(klass));
  StrBuf block = {0};
  eddi_strbuf_puts(&block, "{\n");
  eddi_strbuf_append(&block, members, len);
  eddi_strbuf_append(&block, src->text + kline, ref_ops_indent(src, kline));
  eddi_strbuf_putc(&block, '}');
  ref_ops_edit(ops, file, ts_node_start_byte(body), ts_node_end_byte(body), block.data, block.len);
  eddi_strbuf_free(&block);
}

uint32_t ref_class_removal_start(RefOps *ops, uint32_t file, TSNode member, uint32_t start) {
  if (!ts_node_is_null(ts_node_next_named_sibling(member))) return start;
  /* The last member: the blank lines above it go too, not the } after. */
  const RefSource *src = &ops->index->sources.items[file];
  uint32_t line = ref_ops_line_start(src, start);
  while (line > 0) {
    uint32_t above = ref_ops_line_start(src, line - 1);
    if (above + ref_ops_indent(src, above) != line - 1) break;
    line = above;
  }
  return line;
}

/* ---------------------------------------------------------------- Extract_Interface */

int ref_extract_interface_plan(RefOps *ops, const RefOpArgs *args) {
  RefTarget klass;
  int rc = ref_ops_find(ops, args->spec, &klass);
  const EddiLang *lang = rc == 0 ? ops->index->sources.items[klass.file].lang : NULL;
  bool typescript = lang && (!strcmp(lang->name, "typescript") || !strcmp(lang->name, "tsx"));
  if (rc == 0 && typescript &&
      ops->program.files.items[klass.file]->syms.items[klass.index].kind != REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", args->spec);
  if (rc == 0 && typescript) return ref_ts_extract_interface_plan(ops, args, klass);
  /* C and JavaScript are refused with their reasons (ops_lang.c), which
   * also give the languages it works in. */
  if (rc == 0) rc = ref_ops_python(ops, klass.file, "Extract_Interface");
  const RefFile *file = rc == 0 ? ops->program.files.items[klass.file] : NULL;
  if (rc == 0 && file->syms.items[klass.index].kind != REF_SYM_CLASS)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a class", args->spec);
  if (rc == 0) rc = ref_ops_valid_name(ops, file->lang, args->other);
  if (rc < 0) return rc;
  const RefSource *src = &ops->index->sources.items[klass.file];
  const RefSym *sym = &file->syms.items[klass.index];
  uint32_t iface = ref_names_intern(&ops->index->names, args->other, strlen(args->other));
  if (ref_file_bound(file, 0, iface) != REF_NONE)
    return ref_ops_fail_at(ops, klass.file, file->syms.items[ref_file_bound(file, 0, iface)].start,
                           "Extract_Interface: %s is already defined", args->other);
  if (sym->scope != 0)
    return ref_ops_fail_at(ops, klass.file, sym->start,
                           "Extract_Interface needs a module-level class");
  uint32_t protocol = ref_names_intern(&ops->index->names, "Protocol", strlen("Protocol"));
  uint32_t bound = ref_file_bound(file, 0, protocol);
  bool imported = false;
  if (bound != REF_NONE) {
    const RefSym *p = &file->syms.items[bound];
    TSNode node = ref_ops_node(ops, klass.file, p->start, p->start + 8);
    TSNode from = ref_node_up(node, "import_from_statement");
    char *text = ts_node_is_null(from) ? NULL : ref_ops_text(ops, klass.file, from);
    imported = text && strncmp(text, "from typing import", strlen("from typing import")) == 0;
    eddi_free(text);
    if (!imported)
      return ref_ops_fail_at(ops, klass.file, p->start,
                             "Extract_Interface: Protocol is something else here");
  }
  TSNode name;
  TSNode def = ref_ops_definition(ops, klass, &name);
  TSNode body = ref_class_body(ops, klass.file, klass.index);
  const char *unit = src->lang->indent ? src->lang->indent : "    ";
  StrBuf text = {0};
  eddi_strbuf_printf(&text, "class %s(Protocol):\n", args->other);
  size_t methods = 0;
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; i++) {
    TSNode member = ts_node_named_child(body, i);
    TSNode fn = ref_node_is(member, "decorated_definition")
                    ? ts_node_child_by_field_name(member, "definition", 10)
                    : member;
    if (!ref_node_is(fn, "function_definition")) continue;
    char *mname = ref_ops_text(ops, klass.file, ts_node_child_by_field_name(fn, "name", 4));
    size_t len = strlen(mname);
    bool dunder = len > 4 && !strncmp(mname, "__", 2) && !strcmp(mname + len - 2, "__");
    bool public = mname[0] != '_' || (dunder && strcmp(mname, "__init__") != 0);
    eddi_free(mname);
    if (!public) continue;
    TSNode fbody = ts_node_child_by_field_name(fn, "body", 4);
    /* The header: decorators and "def name(params) -> type:", up to the
     * definition's own colon (a comment after it may hold colons too). */
    uint32_t start = ts_node_start_byte(member), end = ts_node_start_byte(fbody);
    for (uint32_t c = 0; c < ts_node_child_count(fn); c++) {
      TSNode token = ts_node_child(fn, c);
      if (!ts_node_is_named(token) && !strcmp(ts_node_type(token), ":"))
        end = ts_node_end_byte(token);
    }
    /* A private name (__x) in a default or an annotation: Python mangles
     * it with the class's name, so in the protocol it would be another. */
    for (uint32_t k = start; k + 2 < end; k++) {
      const char *t = src->text + k;
      bool starts = t[0] == '_' && t[1] == '_' && (isalpha((unsigned char)t[2]) || t[2] == '_') &&
                    (k == start || !(isalnum((unsigned char)t[-1]) || t[-1] == '_'));
      if (!starts) continue;
      uint32_t e = k;
      while (e < end && (isalnum((unsigned char)src->text[e]) || src->text[e] == '_')) e++;
      if (e - k > 4 && src->text[e - 1] == '_' && src->text[e - 2] == '_') {
        k = e;
        continue;
      }
      eddi_strbuf_free(&text);
      return ref_ops_fail_at(ops, klass.file, k,
                             "Extract_Interface: %.*s is a private name Python mangles with the "
                             "class's name; the protocol would mean another",
                             (int)(e - k), t);
    }
    uint32_t line = ref_ops_line_start(src, start);
    StrBuf header = {0};
    ref_ops_reindent(&header, src->text + line, end - line, start - line, unit, strlen(unit));
    eddi_strbuf_printf(&text, "%s ...\n", header.data);
    eddi_strbuf_free(&header);
    methods++;
  }
  if (!methods) {
    eddi_strbuf_free(&text);
    return ref_ops_fail_at(ops, klass.file, sym->start, "Extract_Interface: %s has no public "
                                                        "method", args->spec);
  }
  for (size_t b = 0; b < (src->lang->blank_lines ? src->lang->blank_lines : 2); b++)
    eddi_strbuf_putc(&text, '\n');
  uint32_t at = ref_ops_line_start(src, ts_node_start_byte(def));
  StrBuf import = {0};
  eddi_strbuf_puts(&import, "");
  uint32_t where = at;
  if (!imported) {
    bool blank;
    where = ref_class_import_at(ops, klass.file, &blank);
    eddi_strbuf_puts(&import, blank || where == at ? "from typing import Protocol\n\n\n"
                                                   : "from typing import Protocol\n");
  }
  if (where == at) {
    /* One insertion: the import, then the interface. */
    eddi_strbuf_append(&import, text.data, text.len);
    ref_ops_edit(ops, klass.file, at, at, import.data, import.len);
  } else {
    ref_ops_edit(ops, klass.file, at, at, text.data, text.len);
    ref_ops_edit(ops, klass.file, where, where, import.data, import.len);
  }
  eddi_strbuf_free(&import);
  eddi_strbuf_printf(&ops->facts, "Extracted interface %s from %s with %zu %s", args->other,
                     args->spec, methods, methods == 1 ? "method" : "methods");
  eddi_strbuf_free(&text);
  EDDI_UNUSED(name);
  return 0;
}
