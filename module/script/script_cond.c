/* script_cond.c - conditions on elements, and the fields a script reads.
 *
 * Numbers (complexity, params.count, line_count, line) are computed from
 * the syntax layer's details of the element's file, as Analyze computes
 * them: complexity is 1 + the decision points inside the element. `unused`
 * asks name resolution: a function, class or variable is unused when no
 * occurrence in the workspace resolves to it; an import when no name it
 * binds is referred to in its file, an `__all__` entry or a string
 * annotation naming it counting as a reference. */
#define _GNU_SOURCE /* memmem */
#include "script/script_run.h"

#include <ctype.h>
#include <strings.h>

#include "core/utf8.h"
#include "refactor/rename.h"
#include "refactor/target.h"
#include "syntax/syntax.h"

/* The syntax element the script element stands for, or NULL. */
static const EddiElement *cond__syntax_element(ScriptRun *run, const ScriptElement *el,
                                               EddiSyntax **syn_out) {
  ScriptFile *file = run->files.files.items[el->file];
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  *syn_out = syn;
  if (!syn) return NULL;
  for (size_t i = 0; i < syn->elements.len; i++)
    if (syn->elements.items[i].start == el->start && syn->elements.items[i].end == el->end)
      return &syn->elements.items[i];
  return NULL;
}

static size_t cond__complexity(ScriptRun *run, const ScriptElement *el) {
  ScriptFile *file = run->files.files.items[el->file];
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  if (!syn) return 1;
  const EddiDetails *d = eddi_syntax_details(syn, &file->syntax_text);
  size_t n = 1;
  for (size_t i = 0; i < d->decisions.len; i++)
    if (d->decisions.items[i].start >= el->start && d->decisions.items[i].end <= el->end) n++;
  return n;
}

static size_t cond__params(ScriptRun *run, const ScriptElement *el) {
  if (el->kind == SEL_CALL) return el->args.len;
  if (!el->has_params) return 0;
  ScriptFile *file = run->files.files.items[el->file];
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  if (!syn) return 0;
  const EddiDetails *d = eddi_syntax_details(syn, &file->syntax_text);
  size_t n = 0;
  for (size_t i = 0; i < d->parameters.len; i++) {
    const EddiListedName *p = &d->parameters.items[i];
    if (p->list.start != el->params_start) continue;
    bool implicit = false;
    for (size_t k = 0; file->lang && k < EDDI_LANG_LIST_MAX && file->lang->implicit_params[k]; k++)
      implicit |= strlen(file->lang->implicit_params[k]) == p->name.end - p->name.start &&
                  memcmp(file->lang->implicit_params[k], file->text.data + p->name.start,
                         p->name.end - p->name.start) == 0;
    if (!implicit) n++;
  }
  return n;
}

static size_t cond__line_count(ScriptRun *run, const ScriptElement *el) {
  ScriptFile *file = run->files.files.items[el->file];
  size_t n = 1;
  for (size_t i = el->start; i < el->end; i++)
    if (file->text.data[i] == '\n' && i + 1 < el->end) n++;
  return el->end > el->start ? n : 0;
}

/* ---------------------------------------------------------------- fields */

#define SCRIPT_FIELDS_HINT                                                                \
  "Fields: name, location, file, line, text, kind, class, complexity, params.count, " \
  "line_count"

char *script_element_field(ScriptRun *run, const ScriptElement *el, const char *field) {
  ScriptFile *file = run->files.files.items[el->file];
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  if (!field || strcasecmp(field, "name") == 0) {
    eddi_strbuf_puts(&out, el->name ? el->name : "");
  } else if (strcasecmp(field, "location") == 0) {
    script_place(run, el->file, el->kind == SEL_FILE ? 0 : el->start, &out);
  } else if (strcasecmp(field, "file") == 0 || strcasecmp(field, "path") == 0 ||
             strcasecmp(field, "file.path") == 0) {
    eddi_strbuf_puts(&out, file->rel);
  } else if (strcasecmp(field, "line") == 0) {
    size_t line, col;
    eddi_utf8_line_col(file->text.data, file->text.len, el->start, &line, &col);
    eddi_strbuf_printf(&out, "%zu", line);
  } else if (strcasecmp(field, "text") == 0) {
    eddi_strbuf_append(&out, file->text.data + el->start, el->end - el->start);
  } else if (strcasecmp(field, "class") == 0 || strcasecmp(field, "owner") == 0) {
    eddi_strbuf_puts(&out, el->owner ? el->owner : "");
  } else if (strcasecmp(field, "complexity") == 0) {
    eddi_strbuf_printf(&out, "%zu", cond__complexity(run, el));
  } else if (strcasecmp(field, "params.count") == 0 || strcasecmp(field, "args.count") == 0) {
    eddi_strbuf_printf(&out, "%zu", cond__params(run, el));
  } else if (strcasecmp(field, "line_count") == 0) {
    eddi_strbuf_printf(&out, "%zu", cond__line_count(run, el));
  } else if (strcasecmp(field, "kind") == 0) {
    static const char *const kinds[] = {"file", "line", "call", "function", "method",
                                        "class", "variable", "import"};
    eddi_strbuf_puts(&out, kinds[el->kind]);
  } else {
    eddi_strbuf_free(&out);
    return NULL;
  }
  return eddi_strbuf_take(&out);
}

/* ---------------------------------------------------------------- unused */

/* References to every symbol of the workspace, once per index. */
static void cond__count_uses(ScriptRun *run, RefIndex *index, RefProgram *program) {
  if (run->uses_ready && run->uses_edits == run->files.index_edits) return;
  ref_map_free(&run->uses);
  memset(&run->uses, 0, sizeof run->uses);
  for (uint32_t s = 0; s < index->sources.len; s++) {
    RefFile *rf = index->sources.items[s].file;
    for (uint32_t o = 0; o < rf->occs.len; o++) {
      if (rf->occs.items[o].flags & REF_OCC_DEF) continue;
      RefTarget t = ref_program_canonical(program, ref_program_target(program, s, o));
      if (t.kind != REF_TARGET_SYM) continue;
      uint64_t key = ref_key(t.file, t.index);
      uint32_t n = ref_map_get(&run->uses, key);
      ref_map_put(&run->uses, key, n == REF_NONE ? 1 : n + 1);
    }
  }
  run->uses_ready = true;
  run->uses_edits = run->files.index_edits;
}

/* Name resolution over the texts now, and the element's file in it
 * (*source NULL: its language has none). */
static int cond__resolved(ScriptRun *run, const ScriptElement *el, RefIndex **index,
                          RefProgram **program, RefSource **source, EddiError *err) {
  int rc = script_run_program(run, index, program, err);
  *source = rc == 0 ? ref_index_source(*index, run->files.files.items[el->file]->rel) : NULL;
  return rc;
}

/* Whether any name an import binds is referred to in its file. */
static int cond__import_used(ScriptRun *run, const ScriptElement *el, bool *used,
                             EddiError *err) {
  RefIndex *index;
  RefProgram *program;
  RefSource *source;
  int rc = cond__resolved(run, el, &index, &program, &source, err);
  *used = true; /* without resolution nothing is called unused */
  if (rc < 0 || !source) return rc;
  RefFile *rf = source->file;
  bool any_binding = false;
  *used = false;
  for (size_t i = 0; i < rf->imports.len && !*used; i++) {
    const RefImport *imp = &rf->imports.items[i];
    if (imp->sym == REF_NONE || imp->start < el->start || imp->start >= el->end) continue;
    any_binding = true;
    uint32_t name = rf->syms.items[imp->sym].name;
    for (uint32_t o = 0; o < rf->occs.len && !*used; o++) {
      const RefOcc *occ = &rf->occs.items[o];
      if (occ->name != name || (occ->flags & REF_OCC_DEF)) continue;
      if (occ->kind == REF_OCC_EXPORT || occ->kind == REF_OCC_STRING) *used = true;
      else if (occ->kind == REF_OCC_NAME)
        *used = ref_file_lookup(rf, occ->scope, occ->name) == imp->sym;
    }
  }
  if (!any_binding) *used = true; /* a star import: its names cannot be told */
  return 0;
}

static int cond__unused(ScriptRun *run, const ScriptElement *el, bool *holds, EddiError *err) {
  *holds = false;
  if (el->kind == SEL_IMPORT) {
    bool used = true;
    int rc = cond__import_used(run, el, &used, err);
    *holds = !used;
    return rc;
  }
  if (el->kind != SEL_FUNCTION && el->kind != SEL_METHOD && el->kind != SEL_CLASS &&
      el->kind != SEL_VARIABLE)
    return 0;
  RefIndex *index;
  RefProgram *program;
  RefSource *source;
  int rc = cond__resolved(run, el, &index, &program, &source, err);
  if (rc < 0 || !source) return rc;
  RefTarget target;
  EddiError ignored;
  if (ref_target_at(program, (uint32_t)(source - index->sources.items), (uint32_t)el->name_start,
                    "name", &target, &ignored) < 0)
    return 0;
  target = ref_program_canonical(program, target);
  if (target.kind != REF_TARGET_SYM) return 0;
  cond__count_uses(run, index, program);
  *holds = ref_map_get(&run->uses, ref_key(target.file, target.index)) == REF_NONE;
  return 0;
}

/* ---------------------------------------------------------------- conditions */

static int cond__value(ScriptRun *run, const ScriptExpr *expr, const ScriptElement *el,
                       char **out, EddiError *err);

/* An expression's value as a string (new). */
static int cond__value(ScriptRun *run, const ScriptExpr *e, const ScriptElement *el, char **out,
                       EddiError *err) {
  StrBuf s = {0};
  eddi_strbuf_puts(&s, "");
  int rc = 0;
  switch (e->kind) {
  case SE_STRING: eddi_strbuf_puts(&s, e->text); break;
  case SE_INT: eddi_strbuf_printf(&s, "%ld", e->number); break;
  case SE_CONCAT:
    for (size_t i = 0; rc == 0 && i < e->parts.len; i++) {
      char *part = NULL;
      rc = cond__value(run, e->parts.items[i], el, &part, err);
      /* $a + $a, again and again, doubles: a value stays in the budget. */
      if (rc == 0) rc = script_run_value_fits(run, e->pos, s.len + strlen(part), err);
      if (rc == 0) eddi_strbuf_puts(&s, part);
      eddi_free(part);
    }
    break;
  case SE_VAR: {
    const ScriptVar *var = NULL;
    EddiError ignored;
    script_run_need_var(run, e->text, &ignored);
    for (size_t i = run->vars.len; i-- > 0 && !var;)
      if (strcmp(run->vars.items[i].name, e->text) == 0) var = &run->vars.items[i];
    if (!var) {
      rc = eddi_error_set(err, EDDI_ENOENT, "Script line %zu:%zu: $%s is not set", e->pos.line,
                          e->pos.col, e->text);
      eddi_error_hint(err, "Set it first: let $%s = <set or value>", e->text);
      break;
    }
    if (!var->is_set) {
      eddi_strbuf_puts(&s, var->text ? var->text : "");
      break;
    }
    if (var->set.len == 0) break;
    ScriptElement copy;
    script_element_copy(&copy, &var->set.items[0]);
    script_element_refresh(&run->files, &copy);
    char *field = script_element_field(run, &copy, e->field);
    script_element_free(&copy);
    if (!field) {
      rc = eddi_error_set(err, EDDI_EINVAL, "Script line %zu:%zu: unknown field .%s", e->pos.line,
                          e->pos.col, e->field);
      eddi_error_hint(err, "%s", SCRIPT_FIELDS_HINT);
      break;
    }
    eddi_strbuf_puts(&s, field);
    eddi_free(field);
    break;
  }
  case SE_FIELD: {
    char *field = el ? script_element_field(run, el, e->field) : NULL;
    if (!field && el && strcasecmp(e->text, "file") == 0) field = script_element_field(run, el, "file");
    if (!field) {
      rc = eddi_error_set(err, EDDI_EINVAL, "Script line %zu:%zu: %s.%s names no element here",
                          e->pos.line, e->pos.col, e->text, e->field);
      break;
    }
    eddi_strbuf_puts(&s, field);
    eddi_free(field);
    break;
  }
  }
  if (rc < 0) {
    eddi_strbuf_free(&s);
    return rc;
  }
  *out = eddi_strbuf_take(&s);
  return 0;
}

int script_expr_value(ScriptRun *run, const ScriptExpr *e, const ScriptElement *el, char **out,
                      EddiError *err) {
  return cond__value(run, e, el, out, err);
}

static bool cond__number(const char *s, long *out) {
  if (!*s) return false;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end) return false;
  *out = v;
  return true;
}

static int cond__compare(ScriptRun *run, const ScriptCond *c, const ScriptElement *el,
                         bool *holds, EddiError *err) {
  char *left = script_element_field(run, el, c->field);
  if (!left) {
    eddi_error_set(err, EDDI_EINVAL, "Script line %zu:%zu: unknown field '%s'", c->pos.line,
                   c->pos.col, c->field);
    eddi_error_hint(err, "%s", SCRIPT_FIELDS_HINT);
    return EDDI_EINVAL;
  }
  char *right = NULL;
  int rc = cond__value(run, c->value, el, &right, err);
  if (rc == 0) {
    long a, b;
    int order = cond__number(left, &a) && cond__number(right, &b) ? (a > b) - (a < b)
                                                                   : strcmp(left, right);
    switch (c->op) {
    case SOP_EQ: *holds = order == 0; break;
    case SOP_NE: *holds = order != 0; break;
    case SOP_GT: *holds = order > 0; break;
    case SOP_LT: *holds = order < 0; break;
    case SOP_GE: *holds = order >= 0; break;
    case SOP_LE: *holds = order <= 0; break;
    case SOP_CONTAINS: *holds = strstr(left, right) != NULL; break;
    }
  }
  eddi_free(left);
  eddi_free(right);
  return rc;
}

/* Whether the element's file imports module (or a submodule of it). */
static bool cond__imports(ScriptRun *run, const ScriptElement *el, const char *module) {
  ScriptFile *file = run->files.files.items[el->file];
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  if (!syn) return false;
  size_t n = strlen(module);
  for (size_t i = 0; i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (e->kind != EDDI_ELEMENT_IMPORT) continue;
    const char *name = e->name;
    while (*name == '"' || *name == '<' || *name == '\'') name++; /* C's "x.h", JS's 'x' */
    if (strncmp(name, module, n) == 0 && (!name[n] || strchr("./\"'>", name[n]))) return true;
  }
  return false;
}

static bool cond__has_annotation(ScriptRun *run, const ScriptElement *el, const char *name) {
  EddiSyntax *syn;
  const EddiElement *e = cond__syntax_element(run, el, &syn);
  if (!e) return false;
  ScriptFile *file = run->files.files.items[el->file];
  const EddiDetails *d = eddi_syntax_details(syn, &file->syntax_text);
  size_t from = eddi_syntax_extent_start(syn, &file->syntax_text, e);
  while (*name == '@') name++;
  size_t n = strlen(name);
  for (size_t i = 0; i < d->decorators.len; i++) {
    const EddiSpan *s = &d->decorators.items[i];
    if (s->start < from || s->start >= e->name_start) continue;
    const char *t = file->text.data + s->start, *end = file->text.data + s->end;
    while (t < end && (*t == '@' || isspace((unsigned char)*t))) t++;
    if ((size_t)(end - t) >= n && memcmp(t, name, n) == 0 &&
        ((size_t)(end - t) == n || !(isalnum((unsigned char)t[n]) || t[n] == '_')))
      return true;
  }
  return false;
}

int script_cond_eval(ScriptRun *run, const ScriptCond *c, const ScriptElement *el, bool *holds,
                     EddiError *err) {
  int rc = 0;
  bool a = false, b = false;
  switch (c->kind) {
  case SC_AND:
    rc = script_cond_eval(run, c->left, el, &a, err);
    if (rc == 0 && a) rc = script_cond_eval(run, c->right, el, &b, err);
    *holds = a && b;
    return rc;
  case SC_OR:
    rc = script_cond_eval(run, c->left, el, &a, err);
    if (rc == 0 && !a) rc = script_cond_eval(run, c->right, el, &b, err);
    *holds = a || b;
    return rc;
  case SC_NOT:
    rc = script_cond_eval(run, c->left, el, &a, err);
    *holds = !a;
    return rc;
  case SC_COMPARE: return cond__compare(run, c, el, holds, err);
  case SC_HAS_ANNOTATION: *holds = cond__has_annotation(run, el, c->arg); return 0;
  case SC_IMPORTS: *holds = cond__imports(run, el, c->arg); return 0;
  case SC_CONTAINS: {
    char *needle = NULL;
    rc = cond__value(run, c->value, el, &needle, err);
    if (rc < 0) return rc;
    ScriptFile *file = run->files.files.items[el->file];
    *holds = memmem(file->text.data + el->start, el->end - el->start, needle, strlen(needle)) != NULL;
    eddi_free(needle);
    return 0;
  }
  case SC_UNUSED: return cond__unused(run, el, holds, err);
  }
  return 0;
}
