/* inline.c - Refactor InlineFunction <f>: the body in place of every call,
 * the arguments where the parameters were, the definition removed.
 *
 * It is refused when it cannot keep the meaning: the function refers to
 * itself, takes *args, **kwargs or keyword-only parameters, has a
 * decorator that may have changed it, yields, or returns early in a way a
 * statement cannot express (a return that is not the last thing the
 * function does, or several when the value is used); a reference that is
 * not a call (the function passed as a value, imported by name) is refused
 * too, since after the definition is gone it would name nothing.
 * Arguments keep their evaluation: a stable argument (expr.h) may be
 * written at every use, another only where it is used exactly once, in the
 * body's first statement before anything there calls, in the call's order.
 * The body's free names must mean the same at the call, and the names it
 * binds must not be bound there already.
 *
 * JavaScript and TypeScript: a function whose body is one return of an
 * expression (or an arrow function's expression body), so that the call
 * becomes that expression; a body with statements, one that reads this,
 * arguments or super, a generator or an async function, a method, rest or
 * destructured parameters are refused with the reason. A parameter the
 * call leaves out is its default (a literal only: a default may read the
 * parameters before it) or undefined.
 *
 * C: a static function whose body is one return of an expression (one of
 * external linkage may be called from outside the workspace); each
 * argument is converted to its parameter's type and the value to the
 * return type, as the call converted them, by casts.
 *
 * The file holds one operation for three kinds of definition (Python's,
 * JavaScript's, C's), sharing the binding, evaluation and name checks of
 * the calls; hence its length. */
#include "refactor/expr.h"
#include "refactor/ops_lang.h"

/* Most parameters an inlined function may have. */
#define INLINE_PARAMS_MAX 64

/* ---------------------------------------------------------------- functions */

typedef struct {
  char *name;
  uint32_t sym;
  TSNode default_node; /* or null */
  char *type;          /* C: the parameter's type, which the argument is converted to */
} InlineParam;

typedef struct {
  RefOps *ops;
  const RefOpsLang *lang;
  RefTarget target;
  uint32_t file;
  const RefSym *sym;
  uint32_t scope;  /* the function's own scope (its parameters') */
  TSNode first;    /* the first statement of the body (after a docstring) */
  TSNode value;    /* JavaScript, C: the expression a call evaluates to */
  char *returns_as; /* C: the return type the value is converted to */
  TSNode def;      /* the statement (decorated_definition or function_definition) */
  TSNode function; /* the function_definition */
  TSNode body;
  uint32_t body_first; /* index of the first statement after a docstring */
  InlineParam params[INLINE_PARAMS_MAX];
  size_t param_count;
  enum { INLINE_PLAIN, INLINE_STATIC, INLINE_CLASSMETHOD } kind;
  bool method;
  Array(TSNode) returns;
  size_t calls;
} InlineFn;

/* The returns of the body outside nested functions and classes; refuses a
 * yield. */
static int inline__returns(InlineFn *self, TSNode node) {
  const char *type = ts_node_type(node);
  if (!strcmp(type, "function_definition") || !strcmp(type, "class_definition") ||
      !strcmp(type, "lambda"))
    return 0;
  if (!strcmp(type, "yield"))
    return ref_ops_fail_at(self->ops, self->file, ts_node_start_byte(node),
                           "InlineFunction cannot inline a generator: it yields");
  if (!strcmp(type, "return_statement")) array_push(&self->returns, node);
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    int rc = inline__returns(self, ts_node_named_child(node, i));
    if (rc < 0) return rc;
  }
  return 0;
}

/* Whether statement is the last thing the function does: the last
 * statement of its block, the block an if's (or elif's, else's) branch
 * whose statement is last in turn, up to the body. */
static bool inline__final(const InlineFn *self, TSNode statement) {
  for (;;) {
    TSNode block = ts_node_parent(statement);
    if (!ref_node_is(block, "block")) return false;
    TSNode next = ts_node_next_named_sibling(statement);
    while (ref_node_is(next, "comment")) next = ts_node_next_named_sibling(next);
    if (!ts_node_is_null(next)) return false;
    if (ts_node_eq(block, self->body)) return true;
    TSNode owner = ts_node_parent(block);
    if (ref_node_is(owner, "elif_clause") || ref_node_is(owner, "else_clause"))
      owner = ts_node_parent(owner);
    if (!ref_node_is(owner, "if_statement")) return false;
    statement = owner;
  }
}

static int inline__definition(InlineFn *self) {
  RefOps *ops = self->ops;
  TSNode name;
  self->def = ref_ops_definition(ops, self->target, &name);
  self->function = self->def;
  if (ref_node_is(self->def, "decorated_definition")) {
    self->function = ts_node_child_by_field_name(self->def, "definition", 10);
    uint32_t count = ts_node_named_child_count(self->def);
    for (uint32_t i = 0; i < count; i++) {
      TSNode d = ts_node_named_child(self->def, i);
      if (!ref_node_is(d, "decorator")) continue;
      char *text = ref_ops_text(ops, self->file, d);
      if (!strcmp(text, "@staticmethod")) self->kind = INLINE_STATIC;
      else if (!strcmp(text, "@classmethod")) self->kind = INLINE_CLASSMETHOD;
      else {
        int rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(d),
                                 "InlineFunction cannot inline through the decorator %s", text);
        eddi_free(text);
        return rc;
      }
      eddi_free(text);
    }
  }
  if (!ref_node_is(self->function, "function_definition"))
    return eddi_error_set(ops->err, EDDI_EINVAL, "No definition found for the function");
  TSNode async = ts_node_child(self->function, 0);
  if (ref_node_is(async, "async"))
    return ref_ops_fail_at(ops, self->file, ts_node_start_byte(async),
                           "InlineFunction cannot inline a coroutine");
  uint32_t klass = ref_target_class(&ops->program, self->target);
  self->method = klass != REF_NONE;
  if (self->method) {
    /* The definition goes: a call eddi cannot see would call nothing. */
    const char *title = ref_names_str(&ops->index->names, self->sym->name);
    size_t n = strlen(title);
    if (n > 4 && !strncmp(title, "__", 2) && !strcmp(title + n - 2, "__"))
      return ref_ops_fail_at(ops, self->file, self->sym->start,
                             "InlineFunction cannot inline %s: Python calls it by protocol", title);
    uint32_t other_file = REF_NONE, other_sym = REF_NONE;
    RefCallers callers = ref_ops_method_callers(ops, self->file, self->target.index, klass,
                                                &other_file, &other_sym);
    if (callers == REF_CALLERS_OUTSIDE_BASE)
      return ref_ops_fail_at(ops, self->file, self->sym->start,
                             "InlineFunction cannot inline %s: its class has a base outside the "
                             "workspace, whose code may call it",
                             title);
    if (callers == REF_CALLERS_OVERRIDE)
      return ref_ops_fail_at(ops, other_file,
                             ops->program.files.items[other_file]->syms.items[other_sym].start,
                             "InlineFunction cannot inline %s: another class defines it too",
                             title);
  }
  self->body = ts_node_child_by_field_name(self->function, "body", 4);
  TSNode first = ts_node_named_child(self->body, 0);
  if (ref_node_is(first, "expression_statement") && ts_node_named_child_count(first) == 1 &&
      ref_node_is(ts_node_named_child(first, 0), "string") &&
      ts_node_named_child_count(self->body) > 1)
    self->body_first = 1;
  /* Parameters. */
  TSNode params = ts_node_child_by_field_name(self->function, "parameters", 10);
  uint32_t count = ts_node_named_child_count(params);
  const RefFile *file = ops->program.files.items[self->file];
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *type = ts_node_type(p);
    if (!strcmp(type, "comment") || !strcmp(type, "positional_separator")) continue;
    if (!strcmp(type, "list_splat_pattern") || !strcmp(type, "dictionary_splat_pattern") ||
        !strcmp(type, "keyword_separator"))
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(p),
                             "InlineFunction cannot inline a function taking %s",
                             !strcmp(type, "keyword_separator") ? "keyword-only parameters"
                             : !strcmp(type, "list_splat_pattern") ? "*args" : "**kwargs");
    if (self->param_count == INLINE_PARAMS_MAX)
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(p), "Too many parameters");
    InlineParam *param = &self->params[self->param_count++];
    TSNode id = p;
    if (!strcmp(type, "default_parameter") || !strcmp(type, "typed_default_parameter")) {
      id = ts_node_child_by_field_name(p, "name", 4);
      param->default_node = ts_node_child_by_field_name(p, "value", 5);
    } else if (!strcmp(type, "typed_parameter")) {
      id = ts_node_named_child(p, 0);
    }
    param->name = ref_ops_text(ops, self->file, id);
    uint32_t name_id = ref_names_find(&ops->index->names, param->name, strlen(param->name));
    param->sym = ref_file_bound(file, self->scope, name_id);
  }
  self->first = ts_node_named_child(self->body, self->body_first);
  if (self->method && self->kind != INLINE_STATIC && self->param_count == 0)
    return ref_ops_fail_at(ops, self->file, self->sym->start, "The method takes no self");
  int rc = inline__returns(self, self->body);
  if (rc < 0) return rc;
  for (size_t i = 0; i < self->returns.len; i++)
    if (!inline__final(self, self->returns.items[i]))
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->returns.items[i]),
                             "InlineFunction cannot express this early return");
  return 0;
}

/* The one expression a JavaScript or C body returns (an arrow function's
 * expression body is one), or a refusal. */
static int inline__one_return(InlineFn *self, const char *title, uint32_t at) {
  RefOps *ops = self->ops;
  self->value = self->body;
  if (ref_node_is(self->body, "statement_block") || ref_node_is(self->body, "compound_statement")) {
    TSNode only = {0};
    uint32_t count = ts_node_named_child_count(self->body), statements = 0;
    for (uint32_t i = 0; i < count; i++) {
      TSNode child = ts_node_named_child(self->body, i);
      if (ref_node_is(child, "comment")) continue;
      only = child, statements++;
    }
    if (statements != 1 || !ref_node_is(only, "return_statement") ||
        ts_node_named_child_count(only) == 0)
      return ref_ops_fail_at(ops, self->file, at, "Not supported for %s: InlineFunction "
                             "inlines a body that is one return of a value (statements would "
                             "need a block of their own at the call)", title);
    self->value = ts_node_named_child(only, 0);
  }
  self->first = self->value;
  return 0;
}

/* Whether node holds what a JavaScript body cannot take to the call: this,
 * arguments, super, new.target, await or yield; the node, or a null one. */
static TSNode inline__js_bound(RefOps *ops, uint32_t f, TSNode node) {
  static const char *const bound[] = {"this", "super", "meta_property", "await_expression",
                                      "yield_expression", NULL};
  if (ref_ops_lang_is(node, bound)) return node;
  if (ref_node_is(node, "identifier")) {
    char *text = ref_ops_text(ops, f, node);
    bool arguments = !strcmp(text, "arguments");
    eddi_free(text);
    if (arguments) return node;
  }
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode found = inline__js_bound(ops, f, ts_node_named_child(node, i));
    if (!ts_node_is_null(found)) return found;
  }
  return (TSNode){0};
}

/* A JavaScript or TypeScript function: its parameters, and the one
 * expression its body returns. */
static int inline__js_definition(InlineFn *self) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  const char *title = ref_ops_lang_title(file->lang);
  const RefOcc *def = &file->occs.items[self->sym->first_def];
  TSNode fn;
  TSNode params = ref_ops_params_of(ref_ops_node(ops, self->file, def->start, def->end), &fn);
  if (ts_node_is_null(params))
    return eddi_error_set(ops->err, EDDI_EINVAL, "No definition found for the function");
  self->method = ref_node_is(fn, "method_definition");
  if (self->method)
    return ref_ops_fail_at(ops, self->file, def->start, "Not supported for %s: InlineFunction of "
                           "a method (its this is the call's receiver)", title);
  /* The statement the definition is: removed once every call is inlined. */
  self->def = ref_node_is(fn, "function_declaration") ? fn : ts_node_parent(ts_node_parent(fn));
  if (!ref_node_is(self->def, "function_declaration") &&
      !ref_node_is(self->def, "lexical_declaration"))
    return ref_ops_fail_at(ops, self->file, def->start, "Not supported for %s: InlineFunction of "
                           "a function that is no declaration", title);
  if (ref_node_is(ts_node_parent(self->def), "export_statement"))
    return ref_ops_fail_at(ops, self->file, def->start, "InlineFunction cannot remove %s: it is "
                           "exported", ref_names_str(&ops->index->names, self->sym->name));
  for (uint32_t i = 0; i < ts_node_child_count(fn); i++) {
    TSNode child = ts_node_child(fn, i);
    if (ref_node_is(child, "async") || ref_node_is(child, "*"))
      return ref_ops_fail_at(ops, self->file, def->start, "InlineFunction cannot inline %s "
                             "function", ref_node_is(child, "async") ? "an async" : "a generator");
  }
  self->function = fn;
  self->body = ts_node_child_by_field_name(fn, "body", 4);
  int rc = inline__one_return(self, title, def->start);
  if (rc < 0) return rc;
  TSNode bound = inline__js_bound(ops, self->file, self->body);
  if (!ts_node_is_null(bound)) {
    char *text = ref_ops_text(ops, self->file, bound);
    rc = ref_ops_fail_at(ops, self->file, ts_node_start_byte(bound),
                         "InlineFunction cannot take %s to the call", text);
    eddi_free(text);
    return rc;
  }
  /* Parameters: a name, a name with a literal default, TypeScript's typed
   * ones. */
  self->scope = ref_expr_scope_at(file, ts_node_start_byte(self->value));
  bool single = ref_node_is(params, "identifier");
  uint32_t count = single ? 1 : ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = single ? params : ts_node_named_child(params, i);
    if (ref_node_is(p, "comment")) continue;
    TSNode id = p, value = {0};
    if (ref_node_is(p, "required_parameter") || ref_node_is(p, "optional_parameter")) {
      id = ts_node_child_by_field_name(p, "pattern", 7);
      value = ts_node_child_by_field_name(p, "value", 5);
    } else if (ref_node_is(p, "assignment_pattern")) {
      id = ts_node_child_by_field_name(p, "left", 4);
      value = ts_node_child_by_field_name(p, "right", 5);
    }
    if (!ref_node_is(id, "identifier"))
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(p), "Not supported for %s: "
                             "InlineFunction of a function with a %s parameter", title,
                             ts_node_type(id));
    if (self->param_count == INLINE_PARAMS_MAX)
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(p), "Too many parameters");
    InlineParam *param = &self->params[self->param_count++];
    param->name = ref_ops_text(ops, self->file, id);
    param->default_node = value;
    if (!ts_node_is_null(value)) {
      char *text = ref_ops_text(ops, self->file, value);
      bool literal = ref_ops_literal(text);
      eddi_free(text);
      if (!literal)
        return ref_ops_fail_at(ops, self->file, ts_node_start_byte(value),
                               "InlineFunction cannot write the default of %s at the call (it "
                               "may read the parameters before it)", param->name);
    }
    uint32_t name_id = ref_names_find(&ops->index->names, param->name, strlen(param->name));
    for (uint32_t scope = self->scope; scope != REF_NONE; scope = file->scopes.items[scope].parent) {
      param->sym = ref_file_bound(file, scope, name_id);
      if (param->sym != REF_NONE) break;
    }
  }
  return 0;
}

/* The declared type of what a C identifier names, when it is a variable
 * or parameter declared as "T name" (new string), or NULL. */
static char *inline__c_type_of(RefOps *ops, uint32_t f, TSNode node) {
  if (!ref_node_is(node, "identifier")) return NULL;
  uint32_t occ = ref_expr_occ_at(ops->program.files.items[f], ts_node_start_byte(node));
  if (occ == REF_NONE) return NULL;
  RefTarget t = ref_program_target(&ops->program, f, occ);
  if (t.kind != REF_TARGET_SYM) return NULL;
  const RefFile *file = ops->program.files.items[t.file];
  const RefSym *sym = &file->syms.items[t.index];
  if (sym->kind != REF_SYM_VARIABLE && sym->kind != REF_SYM_PARAMETER) return NULL;
  const RefOcc *def = &file->occs.items[sym->first_def];
  TSNode id = ref_ops_node(ops, t.file, def->start, def->end);
  TSNode holder = ts_node_parent(id);
  size_t stars = 0;
  while (ref_node_is(holder, "pointer_declarator")) stars++, holder = ts_node_parent(holder);
  if (ref_node_is(holder, "init_declarator")) holder = ts_node_parent(holder);
  if (!ref_node_is(holder, "declaration") && !ref_node_is(holder, "parameter_declaration"))
    return NULL;
  TSNode type = ts_node_child_by_field_name(holder, "type", 4);
  /* Only "T name" and "T *name": qualifiers are not compared. */
  if (ts_node_is_null(type) || ts_node_named_child_count(holder) != 2) return NULL;
  StrBuf out = {0};
  char *text = ref_ops_text(ops, t.file, type);
  eddi_strbuf_puts(&out, text);
  eddi_free(text);
  if (stars) eddi_strbuf_putc(&out, ' ');
  for (size_t i = 0; i < stars; i++) eddi_strbuf_putc(&out, '*');
  return eddi_strbuf_take(&out);
}

/* Whether a C value of the function needs no conversion to its int
 * return type: ints only (int parameters, integer literals) and the
 * operators between them. */
static bool inline__c_int_value(InlineFn *self, TSNode node) {
  if (ref_node_is(node, "number_literal")) {
    char *text = ref_ops_text(self->ops, self->file, node);
    bool digits = true;
    for (const char *p = text; *p; p++) digits &= *p >= '0' && *p <= '9';
    eddi_free(text);
    return digits;
  }
  if (ref_node_is(node, "identifier")) {
    char *text = ref_ops_text(self->ops, self->file, node);
    bool param = false;
    for (size_t p = 0; p < self->param_count; p++)
      param |= !strcmp(text, self->params[p].name) && !strcmp(self->params[p].type, "int");
    eddi_free(text);
    return param;
  }
  if (!ref_node_is(node, "binary_expression") && !ref_node_is(node, "parenthesized_expression"))
    return false;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++)
    if (!inline__c_int_value(self, ts_node_named_child(node, i))) return false;
  return true;
}

/* A C function: static, one return; its parameters with their types. */
static int inline__c_definition(InlineFn *self) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  const RefSource *src = &ops->index->sources.items[self->file];
  const char *title = ref_ops_lang_title(file->lang);
  const RefOcc *def = &file->occs.items[self->sym->first_def];
  TSNode fn;
  TSNode params = ref_ops_params_of(ref_ops_node(ops, self->file, def->start, def->end), &fn);
  if (!ref_node_is(fn, "function_definition"))
    return eddi_error_set(ops->err, EDDI_EINVAL, "No definition found for the function");
  if (!(self->sym->flags & REF_SYM_INTERNAL))
    return ref_ops_fail_at(ops, self->file, def->start, "Not supported for %s: InlineFunction "
                           "of a function with external linkage (code outside the workspace may "
                           "call it); make it static first", title);
  self->def = self->function = fn;
  self->body = ts_node_child_by_field_name(fn, "body", 4);
  int rc = inline__one_return(self, title, def->start);
  if (rc < 0) return rc;
  /* The return type: the definition's text before its declarator, less
   * static and inline. */
  TSNode declarator = ts_node_child_by_field_name(fn, "declarator", 10);
  StrBuf type = {0};
  eddi_strbuf_puts(&type, "");
  uint32_t count = ts_node_named_child_count(fn);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(fn, i);
    if (ts_node_start_byte(child) >= ts_node_start_byte(declarator)) break;
    if (ref_node_is(child, "storage_class_specifier")) continue;
    char *text = ref_ops_text(ops, self->file, child);
    eddi_strbuf_printf(&type, "%s%s", type.len ? " " : "", text);
    eddi_free(text);
  }
  for (TSNode d = declarator; ref_node_is(d, "pointer_declarator");
       d = ts_node_child_by_field_name(d, "declarator", 10))
    eddi_strbuf_puts(&type, type.len && type.data[type.len - 1] != '*' ? " *" : "*");
  self->returns_as = eddi_strbuf_take(&type);
  self->scope = ref_expr_scope_at(file, ts_node_start_byte(self->value));
  bool int_value = !strcmp(self->returns_as, "int");
  count = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (ref_node_is(p, "comment")) continue;
    char *text = ref_ops_text(ops, self->file, p);
    size_t at, len;
    ref_ops_c_param_name(text, &at, &len);
    TSNode d = ts_node_child_by_field_name(p, "declarator", 10);
    bool plain = ref_node_is(d, "identifier") || ref_node_is(d, "pointer_declarator");
    if (!strcmp(text, "void") && count == 1) {
      eddi_free(text);
      break;
    }
    if (!ref_node_is(p, "parameter_declaration") || !plain || !len) {
      eddi_free(text);
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(p), "Not supported for %s: "
                             "InlineFunction of a function with this parameter", title);
    }
    if (self->param_count == INLINE_PARAMS_MAX) {
      eddi_free(text);
      return ref_ops_fail_at(ops, self->file, ts_node_start_byte(p), "Too many parameters");
    }
    InlineParam *param = &self->params[self->param_count++];
    param->name = eddi_strndup(text + at, len);
    StrBuf t = {0};
    eddi_strbuf_append(&t, text, at);
    eddi_strbuf_puts(&t, text + at + len);
    while (t.len && t.data[t.len - 1] == ' ') t.data[--t.len] = '\0';
    param->type = eddi_strbuf_take(&t);
    eddi_free(text);
    uint32_t name_id = ref_names_find(&ops->index->names, param->name, strlen(param->name));
    param->sym = ref_file_bound(file, self->sym->own_scope, name_id);
    if (param->sym == REF_NONE)
      for (uint32_t sc = self->scope; sc != REF_NONE && param->sym == REF_NONE;
           sc = file->scopes.items[sc].parent)
        param->sym = ref_file_bound(file, sc, name_id);
  }
  /* An int computed from ints is the int the function returns. */
  if (int_value && inline__c_int_value(self, self->value)) {
    eddi_free(self->returns_as);
    self->returns_as = NULL;
  }
  EDDI_UNUSED(src);
  return 0;
}

/* The argument for each parameter at one call (NULL node: its default). */
typedef struct {
  uint32_t file; /* the call's */
  bool from_default[INLINE_PARAMS_MAX];
  TSNode node[INLINE_PARAMS_MAX];
  char *text[INLINE_PARAMS_MAX];
  size_t uses[INLINE_PARAMS_MAX];
  uint32_t use_at[INLINE_PARAMS_MAX]; /* the first use, in the function's file */
} InlineArgs;

static void inline__args_free(InlineArgs *args) {
  for (size_t i = 0; i < INLINE_PARAMS_MAX; i++) eddi_free(args->text[i]);
}

/* Bind the call's arguments (and receiver) to the parameters. */
static int inline__bind(InlineFn *self, uint32_t f, TSNode call, TSNode receiver, bool on_class,
                        InlineArgs *out) {
  RefOps *ops = self->ops;
  size_t position = 0;
  out->file = f;
  if (self->method && self->kind == INLINE_CLASSMETHOD) {
    if (!on_class)
      return ref_ops_fail_at(ops, f, ts_node_start_byte(call),
                             "InlineFunction cannot tell the class of this receiver");
    out->node[0] = receiver, out->text[0] = ref_expr_flat(ops, f, receiver), position = 1;
  } else if (self->method && self->kind == INLINE_PLAIN && !on_class) {
    if (ts_node_is_null(receiver))
      return ref_ops_fail_at(ops, f, ts_node_start_byte(call), "The call has no receiver");
    out->node[0] = receiver, out->text[0] = ref_expr_flat(ops, f, receiver), position = 1;
  }
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (ref_ops_lang_is(a, self->lang->skipped)) continue;
    if (ref_ops_lang_is(a, self->lang->spreads))
      return ref_ops_fail_at(ops, f, ts_node_start_byte(a),
                             "InlineFunction cannot bind the arguments of this call");
    size_t at = position;
    TSNode value = a;
    if (self->lang->keywords && ref_node_is(a, "keyword_argument")) {
      char *key = ref_ops_text(ops, f, ts_node_child_by_field_name(a, "name", 4));
      value = ts_node_child_by_field_name(a, "value", 5);
      for (at = 0; at < self->param_count && strcmp(self->params[at].name, key); at++) {}
      eddi_free(key);
    } else {
      position++;
    }
    if (at >= self->param_count || out->text[at])
      return ref_ops_fail_at(ops, f, ts_node_start_byte(a), "The argument binds no parameter");
    out->node[at] = value, out->text[at] = ref_expr_flat(ops, f, value);
    /* C: converted to the parameter's type, in parentheses of its own. */
    char *declared = self->params[at].type ? inline__c_type_of(ops, f, value) : NULL;
    bool same = declared && !strcmp(declared, self->params[at].type);
    eddi_free(declared);
    if (self->params[at].type && !same &&
        !ref_ops_c_same_type(self->params[at].type, value, out->text[at])) {
      StrBuf cast = {0};
      eddi_strbuf_printf(&cast, "((%s)(%s))", self->params[at].type, out->text[at]);
      eddi_free(out->text[at]);
      out->text[at] = eddi_strbuf_take(&cast);
    }
  }
  for (size_t i = 0; i < self->param_count; i++) {
    if (out->text[i]) continue;
    /* JavaScript: a parameter not given is undefined. */
    if (ts_node_is_null(self->params[i].default_node) && !self->lang->keywords &&
        !self->lang->typed_params) {
      out->text[i] = eddi_strdup("undefined");
      continue;
    }
    if (ts_node_is_null(self->params[i].default_node))
      return ref_ops_fail_at(ops, f, ts_node_start_byte(call), "The call gives no %s",
                             self->params[i].name);
    out->node[i] = self->params[i].default_node;
    out->from_default[i] = true;
    out->text[i] = ref_expr_flat(ops, self->file, self->params[i].default_node);
  }
  return 0;
}

/* The returns starting before limit (and in [*at, end)) copied up to them
 * and made expression statements ("return" alone: "pass"). */
static void inline__unreturn(const InlineFn *self, const RefSource *src, StrBuf *text,
                             uint32_t *at, size_t *r, uint32_t limit, uint32_t end) {
  while (*r < self->returns.len && ts_node_start_byte(self->returns.items[*r]) < limit) {
    TSNode ret = self->returns.items[(*r)++];
    if (ts_node_start_byte(ret) < *at || ts_node_start_byte(ret) >= end) continue;
    eddi_strbuf_append(text, src->text + *at, ts_node_start_byte(ret) - *at);
    TSNode expr = ts_node_named_child(ret, 0);
    if (ts_node_is_null(expr)) eddi_strbuf_puts(text, "pass"), *at = ts_node_end_byte(ret);
    else *at = ts_node_start_byte(expr);
  }
}

/* Whether the arguments are evaluated as the call evaluates them: one that
 * is not stable (it calls, or reads state) is used exactly once, in the
 * body's first statement before anything there calls, and such ones in
 * the order the call gives them; a default must be stable and no new
 * container (a default [] is one list for every call). */
static int inline__evaluation(InlineFn *self, InlineArgs *args) {
  RefOps *ops = self->ops;
  TSNode first = self->first;
  uint32_t last_use = 0, last_arg = 0;
  bool any = false;
  for (size_t p = 0; p < self->param_count; p++) {
    TSNode node = args->node[p];
    if (ts_node_is_null(node)) continue;
    uint32_t f = args->from_default[p] ? self->file : args->file;
    bool stable = ref_expr_stable(ops, f, node);
    if (args->from_default[p] && args->uses[p] &&
        (!stable || ref_node_is(node, "list") || ref_node_is(node, "dictionary") ||
         ref_node_is(node, "set") || ref_node_is(node, "object") || ref_node_is(node, "array")))
      return eddi_error_set(ops->err, EDDI_EINVAL,
                            "InlineFunction would evaluate the default of %s at each call, not "
                            "once",
                            self->params[p].name);
    if (stable || args->from_default[p]) continue;
    if (args->uses[p] != 1)
      return eddi_error_set(ops->err, EDDI_EINVAL,
                            "InlineFunction would %s %s: %s is used %zu times and the argument "
                            "calls or reads state",
                            args->uses[p] ? "repeat the evaluation of" : "drop the evaluation of",
                            args->text[p], self->params[p].name, args->uses[p]);
    uint32_t at = args->use_at[p];
    if (!ref_in(at, ts_node_start_byte(first), ts_node_end_byte(first)) ||
        ref_expr_call_before(first, at))
      return ref_ops_fail_at(ops, self->file, at,
                             "InlineFunction would evaluate %s later than the call does",
                             args->text[p]);
    uint32_t arg_at = ts_node_start_byte(node);
    if (any && (arg_at < last_arg) != (at < last_use))
      return ref_ops_fail_at(ops, self->file, at,
                             "InlineFunction would evaluate the arguments in another order");
    any = true, last_use = at, last_arg = arg_at;
  }
  return 0;
}

/* Append expr (of the function's file) with the parameters replaced by
 * the arguments, counting their uses. */
static void inline__substitute(InlineFn *self, InlineArgs *args, TSNode expr, StrBuf *v) {
  RefOps *ops = self->ops;
  const RefSource *src = &ops->index->sources.items[self->file];
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t at = ts_node_start_byte(expr);
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (!ref_in(occ->start, ts_node_start_byte(expr), ts_node_end_byte(expr))) continue;
    if (occ->kind != REF_OCC_NAME) continue;
    for (size_t p = 0; p < self->param_count; p++) {
      RefTarget t = ref_program_target(&ops->program, self->file, i);
      if (t.kind != REF_TARGET_SYM || t.file != self->file || t.index != self->params[p].sym)
        continue;
      eddi_strbuf_append(v, src->text + at, occ->start - at);
      /* A shorthand property { p } keeps its key. */
      if (occ->flags & REF_OCC_KEYED) eddi_strbuf_printf(v, "%s: ", self->params[p].name);
      /* A C argument converted by a cast is in parentheses already. */
      bool cast = self->params[p].type && args->text[p][0] == '(' &&
                  !ref_node_is(args->node[p], "parenthesized_expression");
      ref_expr_put(v, cast ? (TSNode){0} : args->node[p], args->text[p],
                   ref_ops_node(ops, self->file, occ->start, occ->end));
      if (!args->uses[p]++) args->use_at[p] = occ->start;
      at = occ->end;
    }
  }
  eddi_strbuf_append(v, src->text + at, ts_node_end_byte(expr) - at);
}

/* The body with the arguments in; *value gets what the call evaluates to
 * (the last return's expression) when used, else the statements keep
 * their returns as expression statements. */
static int inline__body(InlineFn *self, InlineArgs *args, bool used, StrBuf *out, char **value,
                        TSNode *value_node) {
  RefOps *ops = self->ops;
  const RefSource *src = &ops->index->sources.items[self->file];
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t count = ts_node_named_child_count(self->body);
  TSNode first = ts_node_named_child(self->body, self->body_first);
  TSNode last = ts_node_named_child(self->body, count - 1);
  uint32_t start = ts_node_start_byte(first), end = ts_node_end_byte(last);
  *value = NULL;
  *value_node = (TSNode){0};
  bool final_return = ref_node_is(last, "return_statement");
  if (used && self->returns.len > 1)
    return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->returns.items[0]),
                           "InlineFunction cannot express several returns whose value is used");
  if (used && self->returns.len == 1 && !final_return)
    return ref_ops_fail_at(ops, self->file, ts_node_start_byte(self->returns.items[0]),
                           "InlineFunction cannot express a return inside a branch whose value "
                           "is used");
  if (used && final_return) {
    TSNode expr = ts_node_named_child(last, 0);
    /* A lone argument is written as it is: what it is decides. */
    bool lone = false;
    for (size_t p = 0; p < self->param_count; p++) {
      if (ts_node_is_null(expr) || !ref_node_is(expr, "identifier")) break;
      char *id = ref_ops_text(ops, self->file, expr);
      lone |= !strcmp(id, self->params[p].name) && !ts_node_is_null(args->node[p]);
      if (!strcmp(id, self->params[p].name) && !ts_node_is_null(args->node[p]))
        *value_node = args->node[p];
      eddi_free(id);
    }
    if (!lone) *value_node = expr;
    TSNode prev = ts_node_prev_named_sibling(last);
    end = ts_node_is_null(prev) || ts_node_start_byte(prev) < start ? start : ts_node_end_byte(prev);
    StrBuf v = {0};
    eddi_strbuf_puts(&v, "");
    if (!ts_node_is_null(expr)) {
      inline__substitute(self, args, expr, &v);
    } else {
      eddi_strbuf_puts(&v, "None");
    }
    *value = eddi_strbuf_take(&v);
  } else if (used) {
    *value = eddi_strdup("None");
  }
  /* The statements, parameters and returns replaced. */
  StrBuf text = {0};
  eddi_strbuf_puts(&text, "");
  uint32_t at = start;
  size_t r = 0;
  for (uint32_t i = 0; i < file->occs.len && start < end; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (!ref_in(occ->start, start, end) || occ->start < at) continue;
    inline__unreturn(self, src, &text, &at, &r, occ->start, end);
    if (occ->kind != REF_OCC_NAME) continue;
    RefTarget t = ref_program_target(&ops->program, self->file, i);
    for (size_t p = 0; p < self->param_count; p++) {
      if (t.kind != REF_TARGET_SYM || t.file != self->file || t.index != self->params[p].sym)
        continue;
      if (occ->flags & (REF_OCC_WRITE | REF_OCC_DEF)) {
        eddi_strbuf_free(&text);
        return ref_ops_fail_at(ops, self->file, occ->start,
                               "InlineFunction cannot inline an assignment to parameter %s",
                               self->params[p].name);
      }
      eddi_strbuf_append(&text, src->text + at, occ->start - at);
      ref_expr_put(&text, args->node[p], args->text[p],
                  ref_ops_node(ops, self->file, occ->start, occ->end));
      if (!args->uses[p]++) args->use_at[p] = occ->start;
      at = occ->end;
    }
  }
  inline__unreturn(self, src, &text, &at, &r, UINT32_MAX, end);
  if (end > at) eddi_strbuf_append(&text, src->text + at, end - at);
  /* A lone "pass" left by a bare return at the end says nothing. */
  if (!used && final_return && ts_node_named_child_count(last) == 0 && text.len >= 4 &&
      !strcmp(text.data + text.len - 4, "pass") && count - self->body_first > 1) {
    text.len -= 4;
    while (text.len && strchr(" \t\n", text.data[text.len - 1])) text.len--;
    text.data[text.len] = '\0';
  }
  size_t indent = ref_ops_indent(src, start);
  ref_ops_reindent(out, text.data, text.len, indent, "", 0);
  eddi_strbuf_free(&text);
  return inline__evaluation(self, args);
}

/* A JavaScript call's replacement: the value, or alone a statement of it. */
static int inline__js_body(InlineFn *self, InlineArgs *args, bool alone, StrBuf *out,
                           char **value, TSNode *value_node) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (!ref_in(occ->start, ts_node_start_byte(self->value), ts_node_end_byte(self->value)) ||
        occ->kind != REF_OCC_NAME)
      continue;
    RefTarget t = ref_program_target(&ops->program, self->file, i);
    for (size_t p = 0; p < self->param_count; p++) {
      if (t.kind != REF_TARGET_SYM || t.file != self->file || t.index != self->params[p].sym)
        continue;
      TSNode use = ref_ops_node(ops, self->file, occ->start, occ->end);
      TSNode parent = ts_node_parent(use);
      TSNode op = ts_node_child_by_field_name(parent, "operator", 8);
      bool address = ref_node_is(parent, "pointer_expression") && !ts_node_is_null(op) &&
                     !strcmp(ts_node_type(op), "&");
      if ((occ->flags & (REF_OCC_WRITE | REF_OCC_DEF)) || address ||
          ref_node_is(parent, "update_expression"))
        return ref_ops_fail_at(ops, self->file, occ->start,
                               "InlineFunction cannot inline %s parameter %s",
                               address ? "the address of" : "an assignment to",
                               self->params[p].name);
    }
  }
  StrBuf v = {0};
  eddi_strbuf_puts(&v, "");
  if (self->returns_as) eddi_strbuf_printf(&v, "(%s)(", self->returns_as);
  inline__substitute(self, args, self->value, &v);
  if (self->returns_as) eddi_strbuf_putc(&v, ')');
  *value_node = self->returns_as ? self->function : self->value;
  /* A lone argument is written as it is: what it is decides. */
  for (size_t p = 0; p < self->param_count && !self->returns_as; p++)
    if (ref_node_is(self->value, "identifier") && !ts_node_is_null(args->node[p])) {
      char *id = ref_ops_text(self->ops, self->file, self->value);
      if (!strcmp(id, self->params[p].name)) *value_node = args->node[p];
      eddi_free(id);
    }
  if (alone) {
    eddi_strbuf_printf(out, "%s;", v.data);
    eddi_strbuf_free(&v);
    *value = NULL;
  } else {
    *value = eddi_strbuf_take(&v);
  }
  return inline__evaluation(self, args);
}

/* Whether the body's free names mean at (g, scope) what they mean in the
 * function, and the names it binds are free there. */
static int inline__names(InlineFn *self, uint32_t g, uint32_t scope, uint32_t at) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  uint32_t start = ts_node_start_byte(self->body), end = ts_node_end_byte(self->body);
  for (uint32_t i = 0; i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (!ref_in(occ->start, start, end) || occ->kind != REF_OCC_NAME) continue;
    RefTarget t = ref_program_target(&ops->program, self->file, i);
    bool local = t.kind == REF_TARGET_SYM && t.file == self->file &&
                 ref_expr_within(file, file->syms.items[t.index].scope, self->scope);
    if (t.kind == REF_TARGET_UNSURE) continue;
    const char *name = ref_names_str(&ops->index->names, occ->name);
    if (local) {
      bool param = false;
      for (size_t p = 0; p < self->param_count; p++) param |= self->params[p].sym == t.index;
      if (param || file->syms.items[t.index].scope != self->scope) continue;
      if (ref_file_lookup(ops->program.files.items[g], scope, occ->name) != REF_NONE)
        return ref_ops_fail_at(ops, g, at,
                               "InlineFunction would bind %s, which the call's scope already has",
                               name);
      continue;
    }
    if (!ref_expr_same_meaning(ops, self->file, occ->scope, g, scope, occ->name))
      return ref_ops_fail_at(ops, g, at, "InlineFunction: %s would mean something else here",
                             name);
  }
  return 0;
}

/* Inline one call (the occurrence occ of file f names its callee). */
static int inline__call(InlineFn *self, uint32_t f, uint32_t occ_index) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[f];
  const RefOcc *occ = &file->occs.items[occ_index];
  const RefSource *src = &ops->index->sources.items[f];
  TSNode node = ref_ops_node(ops, f, occ->start, occ->end);
  TSNode callee = node, receiver = {0};
  bool on_class = !self->method;
  if (ref_node_is(ts_node_parent(node), "attribute")) {
    callee = ts_node_parent(node);
    receiver = ts_node_child_by_field_name(callee, "object", 6);
    RefValue value = occ->expr != REF_NONE ? ref_program_expr_value(&ops->program, f, occ->expr)
                                           : (RefValue){REF_VALUE_UNKNOWN, 0, 0};
    on_class = value.kind == REF_VALUE_CLASS || value.kind == REF_VALUE_MODULE;
    if (self->method && value.kind == REF_VALUE_MODULE) on_class = false;
  }
  TSNode call = ts_node_parent(callee);
  if (!ref_node_is(call, self->lang->call) ||
      !ts_node_eq(ts_node_child_by_field_name(call, "function", 8), callee))
    return ref_ops_fail_at(ops, f, occ->start,
                           "InlineFunction cannot inline a reference that is no call");
  if (ts_node_start_byte(call) >= ts_node_start_byte(self->def) &&
      ts_node_end_byte(call) <= ts_node_end_byte(self->def) && f == self->file)
    return ref_ops_fail_at(ops, f, occ->start, "InlineFunction cannot inline a function that "
                                               "calls itself");
  const RefOpsLang *lang;
  int rc = ref_ops_syntax(ops, f, "InlineFunction", &lang);
  if (rc == 0 && lang->self_param != self->lang->self_param)
    rc = ref_ops_fail_at(ops, f, occ->start, "InlineFunction cannot write a %s body in %s",
                         self->lang->name, lang->name);
  InlineArgs args = {0};
  if (rc == 0) rc = inline__bind(self, f, call, receiver, on_class, &args);
  TSNode statement = ref_expr_statement(call);
  bool alone = ref_node_is(statement, "expression_statement") &&
               ts_node_named_child_count(statement) == 1 &&
               ts_node_eq(ts_node_named_child(statement, 0), call);
  StrBuf body = {0};
  eddi_strbuf_puts(&body, "");
  char *value = NULL;
  TSNode value_node = {0};
  if (rc == 0 && self->lang->self_param)
    rc = inline__body(self, &args, !alone, &body, &value, &value_node);
  else if (rc == 0)
    rc = inline__js_body(self, &args, alone, &body, &value, &value_node);
  uint32_t scope = ref_expr_scope_at(file, occ->start);
  if (rc == 0) rc = inline__names(self, f, scope, occ->start);
  if (rc == 0 && (file->scopes.items[scope].kind == REF_SCOPE_CLASS ||
                  file->scopes.items[scope].kind == REF_SCOPE_LAMBDA ||
                  file->scopes.items[scope].kind == REF_SCOPE_COMPREHENSION) &&
      body.len && !alone)
    rc = ref_ops_fail_at(ops, f, occ->start, "InlineFunction cannot put statements here");
  if (rc == 0 && !alone && body.len && !ref_node_is(statement, "expression_statement") &&
      !ref_node_is(statement, "return_statement"))
    rc = ref_ops_fail_at(ops, f, occ->start,
                         "InlineFunction cannot put the body's statements before this %s",
                         ts_node_type(statement));
  if (rc == 0) {
    uint32_t line = ref_ops_line_start(src, ts_node_start_byte(statement));
    uint32_t indent = ts_node_start_byte(statement) - line;
    StrBuf text = {0};
    eddi_strbuf_puts(&text, "");
    if (alone) {
      ref_ops_reindent(&text, body.data, body.len, 0, src->text + line, indent);
      if (!body.len) eddi_strbuf_append(&text, src->text + line, indent), eddi_strbuf_puts(&text, "pass");
      eddi_strbuf_putc(&text, '\n');
      ref_ops_edit(ops, f, line, ref_ops_next_line(src, ts_node_end_byte(statement) - 1),
                   text.data, text.len);
    } else {
      if (body.len) {
        ref_ops_reindent(&text, body.data, body.len, 0, src->text + line, indent);
        eddi_strbuf_putc(&text, '\n');
        ref_ops_edit(ops, f, line, line, text.data, text.len);
      }
      /* The value where the call was, parenthesised where it must be. */
      StrBuf put = {0};
      eddi_strbuf_puts(&put, "");
      ref_expr_put(&put, value_node, value, call);
      ref_ops_edit(ops, f, ts_node_start_byte(call), ts_node_end_byte(call), put.data, put.len);
      eddi_strbuf_free(&put);
    }
    eddi_strbuf_free(&text);
    self->calls++;
  }
  eddi_free(value);
  eddi_strbuf_free(&body);
  inline__args_free(&args);
  return rc;
}

/* Remove the definition (a class left without statements gets pass). */
static void inline__remove(InlineFn *self) {
  RefOps *ops = self->ops;
  const RefSource *src = &ops->index->sources.items[self->file];
  uint32_t start = ref_ops_line_start(src, ts_node_start_byte(self->def));
  uint32_t end = ref_ops_next_line(src, ts_node_end_byte(self->def) - 1);
  TSNode block = ts_node_parent(self->def);
  bool only = ref_node_is(block, "block") && ts_node_named_child_count(block) == 1;
  if (only) {
    StrBuf text = {0};
    eddi_strbuf_append(&text, src->text + start, ts_node_start_byte(self->def) - start);
    eddi_strbuf_puts(&text, "pass\n");
    ref_ops_edit(ops, self->file, start, end, text.data, text.len);
    eddi_strbuf_free(&text);
  } else {
    ref_ops_remove_lines(ops, self->file, start, end);
  }
}

int ref_inline_function_plan(RefOps *ops, const RefOpArgs *args) {
  InlineFn self = {.ops = ops};
  int rc = ref_ops_find(ops, args->spec, &self.target);
  if (rc == 0) {
    self.file = self.target.file;
    self.sym = &ops->program.files.items[self.file]->syms.items[self.target.index];
    self.scope = self.sym->own_scope;
    rc = ref_ops_python(ops, self.file, "InlineFunction");
    /* JavaScript and TypeScript read their own definitions; C is refused
     * by ref_ops_python with its reason. */
    const EddiLang *lang = ops->index->sources.items[self.file].lang;
    const RefOpsLang *table = lang ? ref_ops_lang(lang->name) : NULL;
    if (rc < 0 && table && !table->self_param) rc = 0, self.lang = table;
  }
  if (rc == 0 && !self.lang) self.lang = ref_ops_lang("python");
  bool python = rc == 0 && self.lang->self_param;
  if (rc == 0 && python && self.sym->kind != REF_SYM_FUNCTION)
    rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a function", args->spec);
  if (rc == 0)
    rc = python                     ? inline__definition(&self)
         : self.lang->typed_params ? inline__c_definition(&self)
                                   : inline__js_definition(&self);
  uint32_t name = rc == 0 ? self.sym->name : REF_NONE;
  for (uint32_t f = 0; f < ops->program.files.len && rc == 0; f++) {
    const RefFile *file = ops->program.files.items[f];
    for (uint32_t i = 0; i < file->occs.len && rc == 0; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->name != name) continue;
      RefTarget t = ref_program_canonical(&ops->program, ref_program_target(&ops->program, f, i));
      if (!ref_target_equal(t, self.target)) {
        if (t.kind == REF_TARGET_UNSURE && occ->kind == REF_OCC_MEMBER) ref_ops_unsure(ops, f, occ->start);
        continue;
      }
      if (f == self.file && occ->start == self.sym->start) continue;
      if (occ->kind == REF_OCC_IMPORT_NAME || (occ->flags & REF_OCC_DEF))
        rc = ref_ops_fail_at(ops, f, occ->start,
                             "InlineFunction cannot remove %s: it is imported by name",
                             ref_names_str(&ops->index->names, name));
      else rc = inline__call(&self, f, i);
    }
  }
  /* Unsure calls would call nothing: the writer refuses them (plan.h). */
  if (rc == 0 && ops->unsure_count) ops->unsure_of = eddi_strdup(args->spec);
  if (rc == 0) inline__remove(&self);
  if (rc == 0)
    eddi_strbuf_printf(&ops->facts, "Inlined %s\n%zu %s replaced", args->spec, self.calls,
                       self.calls == 1 ? "call" : "calls");
  for (size_t i = 0; i < self.param_count; i++)
    eddi_free(self.params[i].name), eddi_free(self.params[i].type);
  eddi_free(self.returns_as);
  array_free(&self.returns);
  return rc;
}
