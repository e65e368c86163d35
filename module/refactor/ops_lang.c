/* ops_lang.c - the per-language tables of ops_lang.h, and the reasons an
 * operation gives where it is not made safe for a language. */
#include "refactor/ops_lang.h"

#include <string.h>

static const char *const ops_lang__python_spreads[] = {"list_splat", "dictionary_splat", NULL};
static const char *const ops_lang__js_spreads[] = {"spread_element", NULL};
static const char *const ops_lang__none[] = {NULL};
static const char *const ops_lang__comments[] = {"comment", NULL};

static const RefOpsLang ops_lang__tables[] = {
    {.name = "python", .call = "call", .arguments = "argument_list", .member = "attribute",
     .spreads = ops_lang__python_spreads, .skipped = ops_lang__comments, .defaults = true,
     .keywords = true, .self_param = true},
    {.name = "c", .call = "call_expression", .arguments = "argument_list",
     .member = "field_expression", .spreads = ops_lang__none, .skipped = ops_lang__comments,
     .typed_params = true, .no_params = "void"},
    {.name = "javascript", .call = "call_expression", .arguments = "arguments",
     .member = "member_expression", .spreads = ops_lang__js_spreads,
     .skipped = ops_lang__comments, .defaults = true, .rest = "..."},
    {.name = "typescript", .call = "call_expression", .arguments = "arguments",
     .member = "member_expression", .spreads = ops_lang__js_spreads,
     .skipped = ops_lang__comments, .defaults = true, .rest = "..."},
    {.name = "tsx", .call = "call_expression", .arguments = "arguments",
     .member = "member_expression", .spreads = ops_lang__js_spreads,
     .skipped = ops_lang__comments, .defaults = true, .rest = "..."},
};

const RefOpsLang *ref_ops_lang(const char *name) {
  for (size_t i = 0; name && i < sizeof ops_lang__tables / sizeof ops_lang__tables[0]; i++)
    if (!strcmp(ops_lang__tables[i].name, name)) return &ops_lang__tables[i];
  return NULL;
}

/* What an operation would have to get right in a language that its plan
 * does not check yet: refused with this reason rather than guessed. */
static const char *const ops_lang__reasons[][3] = {
    /* {language, operation, why}; the list ends with NULLs. */
    {"c", "Move_Method", "C has no classes"},
    {"c", "ExtractClass", "C has no classes"},
    {"c", "Split_Class", "C has no classes"},
    {"c", "Merge_Classes", "C has no classes"},
    {"c", "Change_Inheritance", "C has no classes"},
    {"c", "Extract_Interface", "C has no classes"},
    {"javascript", "Extract_Interface", "JavaScript has no interfaces (TypeScript has)"},
    {NULL, NULL, NULL},
};

const char *ref_ops_lang_why(const char *name, const char *word) {
  for (size_t i = 0; name && ops_lang__reasons[i][0]; i++)
    if (!strcmp(ops_lang__reasons[i][0], name) && !strcmp(ops_lang__reasons[i][1], word))
      return ops_lang__reasons[i][2];
  return NULL;
}

char *ref_ops_c_declared_type(RefOps *ops, uint32_t f, uint32_t sym) {
  const RefFile *file = ops->program.files.items[f];
  const RefSource *src = &ops->index->sources.items[f];
  const RefOcc *def = &file->occs.items[file->syms.items[sym].first_def];
  TSNode id = ref_ops_node(ops, f, def->start, def->end);
  TSNode at = ts_node_parent(id);
  size_t stars = 0;
  while (ref_node_is(at, "pointer_declarator")) stars++, at = ts_node_parent(at);
  /* The declarator: the identifier itself when it stands alone. */
  TSNode declarator = ref_node_is(at, "pointer_declarator") || ref_node_is(at, "init_declarator")
                          ? at
                          : id;
  if (stars) {
    declarator = id;
    for (TSNode d = ts_node_parent(id); ref_node_is(d, "pointer_declarator"); d = ts_node_parent(d))
      declarator = d;
  }
  if (ref_node_is(at, "init_declarator")) declarator = at, at = ts_node_parent(at);
  if (!ref_node_is(at, "declaration") && !ref_node_is(at, "parameter_declaration")) return NULL;
  /* Every specifier before the first declarator: qualifiers and the type,
   * no storage class. */
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  uint32_t count = ts_node_named_child_count(at);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(at, i);
    if (ts_node_eq(child, declarator) || ts_node_eq(child, id) ||
        ts_node_start_byte(child) >= ts_node_start_byte(declarator))
      break;
    if (ref_node_is(child, "storage_class_specifier")) {
      eddi_strbuf_free(&out);
      return NULL;
    }
    eddi_strbuf_printf(&out, "%s%.*s", out.len ? " " : "",
                       (int)(ts_node_end_byte(child) - ts_node_start_byte(child)),
                       src->text + ts_node_start_byte(child));
  }
  if (!out.len) {
    eddi_strbuf_free(&out);
    return NULL;
  }
  if (stars) eddi_strbuf_putc(&out, ' ');
  for (size_t i = 0; i < stars; i++) eddi_strbuf_putc(&out, '*');
  return eddi_strbuf_take(&out);
}

void ref_ops_lang_hint(EddiError *err, const char *word) {
  StrBuf names = {0};
  eddi_strbuf_puts(&names, "");
  for (size_t i = 0; i < sizeof ops_lang__tables / sizeof ops_lang__tables[0]; i++)
    if (!ref_ops_lang_why(ops_lang__tables[i].name, word))
      eddi_strbuf_printf(&names, "%s%s", names.len ? ", " : "", ops_lang__tables[i].name);
  eddi_error_hint(err, "Refactor %s works in %s", word, names.data);
  eddi_strbuf_free(&names);
}

bool ref_ops_lang_is(TSNode node, const char *const *types) {
  if (ts_node_is_null(node)) return false;
  const char *type = ts_node_type(node);
  for (size_t i = 0; types[i]; i++)
    if (!strcmp(types[i], type)) return true;
  return false;
}

const char *ref_ops_lang_title(const EddiLang *lang) {
  if (!lang) return "plain text";
  return lang->title ? lang->title : lang->name;
}

int ref_ops_syntax(RefOps *self, uint32_t source, const char *word, const RefOpsLang **out) {
  const EddiLang *lang = self->index->sources.items[source].lang;
  *out = lang ? ref_ops_lang(lang->name) : NULL;
  if (*out) return 0;
  return eddi_error_set(self->err, EDDI_EINVAL, "Not supported for %s: Refactor %s reads Python, "
                        "C, JavaScript and TypeScript only", ref_ops_lang_title(lang), word);
}

/* ---------------------------------------------------------------- functions */

/* The parameter list of the function a definition's name node names (C's
 * declarator's, a JavaScript function's, method's or the function
 * assigned to a variable), or a null node; *fn gets the node that holds
 * it. */
TSNode ref_ops_params_of(TSNode name, TSNode *fn) {
  /* Levels between a name and its function: C's pointer declarators. */
  enum { OPS_NAME_DEPTH_MAX = 8 };
  TSNode at = ts_node_parent(name);
  for (int depth = 0; depth < OPS_NAME_DEPTH_MAX && !ts_node_is_null(at); depth++) {
    TSNode params = ts_node_child_by_field_name(at, "parameters", 10);
    if (!ts_node_is_null(params)) {
      *fn = at;
      /* C: the declarator belongs to a definition or a declaration. */
      while (ref_node_is(*fn, "function_declarator") || ref_node_is(*fn, "pointer_declarator"))
        *fn = ts_node_parent(*fn);
      return params;
    }
    if (ref_node_is(at, "variable_declarator")) {
      TSNode value = ts_node_child_by_field_name(at, "value", 5);
      if (ref_node_is(value, "arrow_function") || ref_node_is(value, "function_expression") ||
          ref_node_is(value, "function")) {
        *fn = value;
        params = ts_node_child_by_field_name(value, "parameters", 10);
        return ts_node_is_null(params) ? ts_node_child_by_field_name(value, "parameter", 9)
                                       : params;
      }
      break;
    }
    if (!ref_node_is(at, "pointer_declarator") && !ref_node_is(at, "parenthesized_declarator"))
      break;
    at = ts_node_parent(at);
  }
  *fn = (TSNode){0};
  return (TSNode){0};
}

/* ---------------------------------------------------------------- text of a language */

static bool ops_lang__word_char(char c) {
  return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') ||
         (unsigned char)c >= 0x80;
}

void ref_ops_c_param_name(const char *text, size_t *at, size_t *len) {
  *at = 0, *len = 0;
  size_t n = strlen(text);
  int brackets = 0, parens = 0;
  for (size_t i = 0; i < n;) {
    char c = text[i];
    if (c == '[') brackets++;
    else if (c == ']') brackets--;
    else if (c == '(') {
      /* "(*name)": a pointer to a function, named inside. */
      size_t j = i + 1;
      while (j < n && text[j] == ' ') j++;
      if (j < n && text[j] == '*') {
        while (j < n && (text[j] == ' ' || text[j] == '*')) j++;
        size_t k = j;
        while (k < n && ops_lang__word_char(text[k])) k++;
        *at = j, *len = k - j;
        return;
      }
      parens++;
    } else if (c == ')') parens--;
    if (ops_lang__word_char(c) && !(c >= '0' && c <= '9')) {
      size_t k = i;
      while (k < n && ops_lang__word_char(text[k])) k++;
      if (!brackets && !parens) *at = i, *len = k - i;
      i = k;
      continue;
    }
    i++;
  }
}

bool ref_ops_literal(const char *text) {
  static const char *const words[] = {"true", "false", "null", "undefined", NULL};
  for (size_t i = 0; words[i]; i++)
    if (!strcmp(text, words[i])) return true;
  size_t n = strlen(text);
  if (n >= 2 && (text[0] == '"' || text[0] == '\'') && text[n - 1] == text[0])
    return !memchr(text + 1, text[0], n - 2) && !strchr(text, '\\');
  const char *p = text;
  if (*p == '-') p++;
  if (!*p) return false;
  for (; *p; p++)
    if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == '_')) return false;
  return true;
}

bool ref_ops_effects(const RefOpsLang *lang, const char *text) {
  if (strchr(text, '(')) return true;
  /* Python's keyword pieces hold "name=value": only calls count there. */
  if (lang->keywords) return false;
  if (strstr(text, "++") || strstr(text, "--")) return true;
  for (const char *p = strchr(text, '='); p; p = strchr(p + 1, '=')) {
    bool shift = p > text + 1 && (p[-1] == '<' || p[-1] == '>') && p[-2] == p[-1];
    bool comparison = p[1] == '=' || p[1] == '>' ||
                      (p > text && strchr("=!<>", p[-1]) && !shift);
    if (!comparison) return true;
  }
  return false;
}

bool ref_ops_c_same_type(const char *type, TSNode value, const char *text) {
  if (strcmp(type, "int") || strcmp(ts_node_type(value), "number_literal")) return false;
  for (const char *p = text; *p; p++)
    if (!(*p >= '0' && *p <= '9')) return false;
  return true;
}
