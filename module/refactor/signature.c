/* signature.c - Refactor Signature <f(old)> <f(new)>: add, remove, reorder
 * and rename parameters, and every call site with them.
 *
 * The two lists are matched by name: a name in both is kept (moved where
 * the new list has it, with the new list's default), a name only in the
 * old list is removed, one only in the new list is added; when both lists
 * are as long and one position holds a name of each kind, that parameter
 * is renamed (in the body too, by name resolution, and in keyword
 * arguments). An added parameter needs a default ("p=0") or a value for
 * the call sites ("p:=0", Python's own spelling of binding a value),
 * unless nothing calls the function.
 *
 * A call is rewritten into the normal form of the new signature:
 * arguments positional as long as every parameter before them is given
 * and was given positionally, keywords from there on. A call through
 * *args or **kwargs, a reference that is not a call (the function passed
 * as a value, functools.partial) cannot be rewritten: it is left alone and
 * listed as unsure, and only a change it survives is made. __init__'s
 * calls are its class's calls.
 *
 * C, JavaScript and TypeScript (ops_lang.h gives their syntax): calls pass
 * arguments by position only, so a rename changes no call and a parameter
 * left to its default before a given one is passed undefined; C has no
 * defaults, writes every parameter with its type and keeps its prototypes
 * (in headers, in other files) in step with the definition; a JavaScript
 * function's exports are no calls, f.call(...) and spreads are unsure.
 *
 * The file holds one operation over four languages' definitions, calls
 * and prototypes, sharing the matching of the lists and the rewriting of
 * a call; hence its length. */
#include "refactor/ops_lang.h"

/* Most parameters a signature may have. */
#define SIGNATURE_PARAMS_MAX 64

typedef struct {
  char *text;     /* as written (for the definition) */
  char *name;     /* without stars, annotation, default */
  char *value;    /* "p:=v": what call sites pass; else NULL */
  int stars;      /* 1: *args, 2: **kwargs (or JavaScript's ...rest) */
  bool defaulted; /* has "=" (or TypeScript's "?") */
  bool bare;      /* C, JavaScript: the name alone (the definition's text is kept) */
  size_t name_at; /* where name is in text */
} SigParam;

typedef Array(SigParam) SigParams;

static void signature__free(SigParams *list) {
  for (size_t i = 0; i < list->len; i++) {
    eddi_free(list->items[i].text);
    eddi_free(list->items[i].name);
    eddi_free(list->items[i].value);
  }
  array_free(list);
}

static char *signature__trim(const char *s, size_t len) {
  while (len && (*s == ' ' || *s == '\t' || *s == '\n')) s++, len--;
  while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n')) len--;
  return eddi_strndup(s, len);
}

/* Whether text has an "=" that gives a default (not "=>" or "=="). */
static bool signature__has_default(const char *text) {
  for (const char *eq = strchr(text, '='); eq; eq = strchr(eq + 1, '='))
    if (eq[1] != '>' && eq[1] != '=' && (eq == text || !strchr("=!<>", eq[-1]))) return true;
  return false;
}

/* A parameter of a language other than Python: JavaScript's "...rest",
 * "a = 1", TypeScript's "a?: T"; C's "int *p" (named by its declarator). */
static void signature__param_of(SigParam *p, char *text, const RefOpsLang *lang) {
  if (lang->typed_params) {
    size_t at, len;
    ref_ops_c_param_name(text, &at, &len);
    p->name = eddi_strndup(text + at, len);
    p->name_at = at;
    p->bare = len && len == strlen(text);
  } else {
    const char *n = text;
    if (lang->rest && !strncmp(n, lang->rest, strlen(lang->rest)))
      p->stars = 1, n += strlen(lang->rest);
    size_t k = 0;
    while (n[k] && (n[k] == '_' || n[k] == '$' || (n[k] >= '0' && n[k] <= '9') ||
                    ((n[k] | 32) >= 'a' && (n[k] | 32) <= 'z') || (unsigned char)n[k] >= 0x80))
      k++;
    p->name = eddi_strndup(n, k);
    p->name_at = (size_t)(n - text);
    p->defaulted = n[k] == '?';
    p->bare = k && !n[k] && n == text;
  }
  p->defaulted |= signature__has_default(text);
  p->text = text;
}

static void signature__param(SigParams *out, const char *s, size_t len, const RefOpsLang *lang) {
  SigParam p = {0};
  char *text = signature__trim(s, len);
  char *walrus = strstr(text, ":=");
  if (walrus) {
    p.value = signature__trim(walrus + 2, strlen(walrus + 2));
    *walrus = '\0';
    char *t = signature__trim(text, strlen(text));
    eddi_free(text);
    text = t;
  }
  if (!lang->keywords) {
    signature__param_of(&p, text, lang);
    array_push(out, p);
    return;
  }
  const char *n = text;
  while (*n == '*') p.stars++, n++;
  size_t k = 0;
  while (n[k] && (n[k] == '_' || (n[k] >= '0' && n[k] <= '9') ||
                  ((n[k] | 32) >= 'a' && (n[k] | 32) <= 'z') || (unsigned char)n[k] >= 0x80))
    k++;
  p.name = eddi_strndup(n, k);
  p.defaulted = strchr(text, '=') != NULL;
  p.text = text;
  array_push(out, p);
}

/* "f(a, b=1)" into its name and its parameters; commas inside brackets
 * or strings do not split. */
static int signature__parse(RefOps *self, const char *sig, const RefOpsLang *lang, char **name,
                            SigParams *out) {
  const char *open = strchr(sig, '(');
  size_t len = strlen(sig);
  if (!open || len < 2 || sig[len - 1] != ')')
    return eddi_error_set(self->err, EDDI_EINVAL, "Not a signature: %s (write f(a, b=1))", sig);
  *name = signature__trim(sig, (size_t)(open - sig));
  const char *at = open + 1, *end = sig + len - 1;
  int depth = 0;
  char quote = 0;
  const char *from = at;
  for (; at <= end; at++) {
    char c = at < end ? *at : ',';
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') depth++;
    else if (c == ')' || c == ']' || c == '}') depth--;
    else if (c == ',' && depth == 0) {
      char *piece = signature__trim(from, (size_t)(at - from));
      if (*piece) signature__param(out, from, (size_t)(at - from), lang);
      eddi_free(piece);
      from = at + 1;
    }
  }
  if (out->len > SIGNATURE_PARAMS_MAX)
    return eddi_error_set(self->err, EDDI_EINVAL, "More than %d parameters in %s",
                          SIGNATURE_PARAMS_MAX, sig);
  for (size_t i = 0; i < out->len; i++) {
    if (!*out->items[i].name)
      return eddi_error_set(self->err, EDDI_EINVAL, "Not a parameter: %s in %s",
                            out->items[i].text, sig);
    for (size_t j = 0; j < i; j++)
      if (strcmp(out->items[i].name, out->items[j].name) == 0)
        return eddi_error_set(self->err, EDDI_EINVAL, "Parameter %s appears twice in %s",
                              out->items[i].name, sig);
  }
  return 0;
}

static int signature__find(const SigParams *list, const char *name) {
  for (size_t i = 0; i < list->len; i++)
    if (strcmp(list->items[i].name, name) == 0) return (int)i;
  return -1;
}

/* ---------------------------------------------------------------- the definition */

typedef struct {
  RefOps *ops;
  const RefOpsLang *lang; /* the definition's language */
  RefTarget target;
  RefTarget identity; /* what its references resolve to (C: the definition of a prototype) */
  uint32_t file;
  TSNode params; /* the definition's parameters node */
  SigParams old, now;
  SigParams actual; /* the definition's own parameters (without self) */
  int from[SIGNATURE_PARAMS_MAX]; /* per new parameter: its old index, or -1 */
  bool implicit;                  /* the definition has self or cls not in the lists */
  bool is_static;
  bool is_classmethod; /* its first parameter is the class, through a class or an instance */
  bool constructor; /* __init__: the class's calls are its calls */
  size_t calls;
} Signature;

/* The parameters of a parameter list node of file f into out; a kind it
 * cannot rewrite (Python's / and * markers, a C "...", a destructuring
 * pattern) is refused. C's "(void)" is no parameter. */
static int signature__read_params(Signature *self, uint32_t f, TSNode params, SigParams *out,
                                  bool unnamed_ok) {
  RefOps *ops = self->ops;
  const RefSource *s = &ops->index->sources.items[f];
  const RefOpsLang *lang = ref_ops_lang(s->lang->name);
  /* An arrow function's one parameter without brackets. */
  if (ref_node_is(params, "identifier")) {
    signature__param(out, s->text + ts_node_start_byte(params),
                     ts_node_end_byte(params) - ts_node_start_byte(params), lang);
    return 0;
  }
  uint32_t count = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    if (ref_ops_lang_is(p, lang->skipped)) continue;
    char *text = ref_ops_text(ops, f, p);
    bool nothing = lang->no_params && count == 1 && !strcmp(text, lang->no_params);
    eddi_free(text);
    if (nothing) continue;
    if (ref_node_is(p, "keyword_separator") || ref_node_is(p, "positional_separator") ||
        ref_node_is(p, "variadic_parameter") || ref_node_is(p, "object_pattern") ||
        ref_node_is(p, "array_pattern"))
      return ref_ops_fail_at(ops, f, ts_node_start_byte(p),
                             "Refactor Signature cannot yet change a signature with %s",
                             ts_node_type(p));
    size_t before = out->len;
    signature__param(out, s->text + ts_node_start_byte(p),
                     ts_node_end_byte(p) - ts_node_start_byte(p), lang);
    if (lang->typed_params) {
      /* C: the name is the declarator's identifier, if it has one. */
      TSNode d = ts_node_child_by_field_name(p, "declarator", 10);
      while (!ts_node_is_null(d) && !ref_node_is(d, "identifier")) {
        TSNode inner = ts_node_child_by_field_name(d, "declarator", 10);
        if (ts_node_is_null(inner)) inner = ts_node_named_child(d, 0);
        d = inner;
      }
      SigParam *q = &out->items[before];
      eddi_free(q->name);
      q->name = ts_node_is_null(d) ? eddi_strdup("") : ref_ops_text(ops, f, d);
      q->name_at = ts_node_is_null(d) ? strlen(q->text) : ts_node_start_byte(d) - ts_node_start_byte(p);
    }
    if (!unnamed_ok && out->len > before && !*out->items[before].name)
      return ref_ops_fail_at(ops, f, ts_node_start_byte(p),
                             "Refactor Signature cannot yet change a signature with an unnamed "
                             "or destructured parameter");
  }
  return 0;
}

/* The parameter names the definition has, checked against the old list. */
static int signature__check_old(Signature *self) {
  RefOps *ops = self->ops;
  SigParams actual = {0};
  int rc = signature__read_params(self, self->file, self->params, &actual, false);
  if (rc < 0) {
    signature__free(&actual);
    return rc;
  }
  const RefSym *sym = &ops->program.files.items[self->file]->syms.items[self->target.index];
  bool method = ref_target_class(&ops->program, self->target) != REF_NONE;
  size_t skip = 0;
  if (method && self->lang->self_param && actual.len > self->old.len && (self->old.len == 0 ||
      strcmp(actual.items[0].name, self->old.items[0].name) != 0) && !self->is_static)
    skip = 1, self->implicit = true;
  bool same = actual.len == self->old.len + skip;
  for (size_t i = 0; same && i < self->old.len; i++)
    same = strcmp(actual.items[i + skip].name, self->old.items[i].name) == 0;
  if (!same) {
    StrBuf list = {0};
    for (size_t i = 0; i < actual.len; i++)
      eddi_strbuf_printf(&list, "%s%s", i ? ", " : "", actual.items[i].text);
    rc = ref_ops_fail_at(ops, self->file, sym->start, "%s is %s(%s), not as the old signature says",
                         ref_names_str(&ops->index->names, sym->name),
                         ref_names_str(&ops->index->names, sym->name), list.data ? list.data : "");
    eddi_error_hint(ops->err, "Write the old parameters as the definition has them");
    eddi_strbuf_free(&list);
  }
  /* The definition's own texts, for C's parameters written by name alone. */
  for (size_t i = 0; i < actual.len; i++) {
    if (i >= skip) array_push(&self->actual, actual.items[i]);
    else {
      SigParams one = {0};
      array_push(&one, actual.items[i]);
      signature__free(&one);
    }
  }
  array_free(&actual);
  return rc;
}

/* Parameters of C, JavaScript and TypeScript: one written by its name
 * alone keeps the definition's text, its type and default (renamed: the
 * definition's text with the new name); C has no defaults, and an added C
 * parameter needs its type. */
static int signature__kept_texts(Signature *self) {
  RefOps *ops = self->ops;
  const char *title = ref_ops_lang_title(ops->index->sources.items[self->file].lang);
  for (size_t k = 0; k < self->now.len; k++) {
    SigParam *p = &self->now.items[k];
    if (p->defaulted && self->lang->typed_params) {
      eddi_error_set(ops->err, EDDI_EINVAL, "Not supported for %s: a parameter has no default "
                     "(%s)", title, p->text);
      eddi_error_hint(ops->err, "Give the calls a value instead: int %s:=0", p->name);
      return EDDI_EINVAL;
    }
    if (!p->bare) continue;
    if ((self->from[k] < 0 || (size_t)self->from[k] >= self->actual.len) &&
        !self->lang->typed_params)
      continue;
    if (self->from[k] < 0 || (size_t)self->from[k] >= self->actual.len) {
      eddi_error_set(ops->err, EDDI_EINVAL, "%s needs its type in %s", p->name, title);
      eddi_error_hint(ops->err, "Write the new parameter as a declaration: int %s:=0", p->name);
      return EDDI_EINVAL;
    }
    const SigParam *was = &self->actual.items[self->from[k]];
    StrBuf text = {0};
    eddi_strbuf_append(&text, was->text, was->name_at);
    eddi_strbuf_puts(&text, p->name);
    eddi_strbuf_puts(&text, was->text + was->name_at + strlen(was->name));
    eddi_free(p->text);
    p->text = eddi_strbuf_take(&text);
    p->defaulted = was->defaulted;
  }
  return 0;
}

/* TypeScript's order: no required parameter after an optional one (p?:
 * T), which tsc refuses; one with a default (p = 1) may come before a
 * required one (its callers pass undefined). */
static int signature__optional_order(Signature *self) {
  const SigParam *optional = NULL;
  for (size_t k = 0; k < self->now.len; k++) {
    const SigParam *p = &self->now.items[k];
    if (p->stars) break;
    size_t end = p->name_at + strlen(p->name);
    const char *after = end <= strlen(p->text) ? p->text + end : "";
    while (*after == ' ') after++;
    if (*after == '?') {
      optional = p;
    } else if (!p->defaulted && optional) {
      eddi_error_set(self->ops->err, EDDI_EINVAL, "%s without a default cannot follow %s",
                     p->name, optional->text);
      eddi_error_hint(self->ops->err,
                      "Put %s before the optional parameters, or give it a default", p->name);
      return EDDI_EINVAL;
    }
  }
  return 0;
}

/* Match the lists: kept, added, removed, renamed. */
static int signature__match(Signature *self) {
  size_t renamed = 0;
  for (size_t k = 0; k < self->now.len; k++) {
    self->from[k] = signature__find(&self->old, self->now.items[k].name);
    if (self->from[k] >= 0 && self->now.items[k].stars != self->old.items[self->from[k]].stars)
      return eddi_error_set(self->ops->err, EDDI_EINVAL, "%s changes kind", self->now.items[k].name);
  }
  /* Python's order: nothing after **kwargs; after *args, a parameter is
   * keyword-only, which these rewrites do not read. */
  const SigParam *splat = NULL;
  for (size_t k = 0; k < self->now.len && self->lang->keywords; k++) {
    const SigParam *p = &self->now.items[k];
    if (splat && (splat->stars == 2 || !p->stars)) {
      eddi_error_set(self->ops->err, EDDI_EINVAL, "%s cannot follow %s", p->name, splat->text);
      eddi_error_hint(self->ops->err, "Put %s before %s", p->name, splat->text);
      return EDDI_EINVAL;
    }
    if (p->stars) splat = p;
  }
  /* No parameter without a default after one with. */
  const SigParam *defaulted = NULL;
  for (size_t k = 0; k < self->now.len && self->lang->keywords; k++) {
    const SigParam *p = &self->now.items[k];
    if (p->stars) break;
    if (p->defaulted) defaulted = p;
    else if (defaulted) {
      eddi_error_set(self->ops->err, EDDI_EINVAL, "%s without a default cannot follow %s",
                     p->name, defaulted->text);
      eddi_error_hint(self->ops->err, "Put %s before the parameters with defaults, or give it one",
                      p->name);
      return EDDI_EINVAL;
    }
  }
  if (self->now.len == self->old.len)
    for (size_t k = 0; k < self->now.len; k++)
      if (self->from[k] < 0 && signature__find(&self->now, self->old.items[k].name) < 0 &&
          self->now.items[k].stars == self->old.items[k].stars)
        self->from[k] = (int)k, renamed++;
  EDDI_UNUSED(renamed);
  if (self->lang->keywords) return 0;
  int rc = signature__kept_texts(self);
  return rc ? rc : signature__optional_order(self);
}

/* The definition's new parameter list. */
static void signature__definition(Signature *self) {
  RefOps *ops = self->ops;
  StrBuf text = {0};
  eddi_strbuf_putc(&text, '(');
  if (self->implicit) {
    TSNode first = ts_node_named_child(self->params, 0);
    char *t = ref_ops_text(ops, self->file, first);
    eddi_strbuf_printf(&text, "%s%s", t, self->now.len ? ", " : "");
    eddi_free(t);
  }
  for (size_t k = 0; k < self->now.len; k++)
    eddi_strbuf_printf(&text, "%s%s", k ? ", " : "", self->now.items[k].text);
  if (!self->now.len && self->lang->no_params) eddi_strbuf_puts(&text, self->lang->no_params);
  eddi_strbuf_putc(&text, ')');
  ref_ops_edit(ops, self->file, ts_node_start_byte(self->params), ts_node_end_byte(self->params),
               text.data, text.len);
  eddi_strbuf_free(&text);
}

/* The first use in the body of parameter name, or REF_NONE. */
static uint32_t signature__use(Signature *self, const char *name) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  const RefSym *fn = &file->syms.items[self->target.index];
  uint32_t id = ref_names_find(&ops->index->names, name, strlen(name));
  uint32_t param = id == REF_NONE ? REF_NONE : ref_file_bound(file, fn->own_scope, id);
  for (uint32_t i = 0; param != REF_NONE && i < file->occs.len; i++) {
    const RefOcc *occ = &file->occs.items[i];
    if (occ->name != id || occ->kind != REF_OCC_NAME || (occ->flags & REF_OCC_DEF)) continue;
    RefTarget t = ref_program_target(&ops->program, self->file, i);
    if (t.kind == REF_TARGET_SYM && t.file == self->file && t.index == param) return occ->start;
  }
  return REF_NONE;
}

/* A removed parameter the body still reads. */
static int signature__removed_unused(Signature *self) {
  for (size_t i = 0; i < self->old.len; i++) {
    bool kept = false;
    for (size_t k = 0; k < self->now.len; k++) kept |= self->from[k] == (int)i;
    if (kept) continue;
    uint32_t at = signature__use(self, self->old.items[i].name);
    if (at != REF_NONE)
      return ref_ops_fail_at(self->ops, self->file, at,
                             "Signature cannot remove %s: the body uses it",
                             self->old.items[i].name);
  }
  return 0;
}

/* A renamed parameter's uses in the body. */
static int signature__rename_uses(Signature *self) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  const RefSym *fn = &file->syms.items[self->target.index];
  for (size_t k = 0; k < self->now.len; k++) {
    if (self->from[k] < 0) continue;
    const char *was = self->old.items[self->from[k]].name, *name = self->now.items[k].name;
    if (strcmp(was, name) == 0) continue;
    uint32_t old_id = ref_names_find(&ops->index->names, was, strlen(was));
    uint32_t new_id = ref_names_find(&ops->index->names, name, strlen(name));
    uint32_t param = ref_file_bound(file, fn->own_scope, old_id);
    if (new_id != REF_NONE && ref_file_bound(file, fn->own_scope, new_id) != REF_NONE)
      return ref_ops_fail_at(ops, self->file, fn->start, "%s already has a local %s",
                             ref_names_str(&ops->index->names, fn->name), name);
    for (uint32_t i = 0; param != REF_NONE && i < file->occs.len; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (occ->name != old_id || occ->kind != REF_OCC_NAME) continue;
      if (ref_in(occ->start, ts_node_start_byte(self->params), ts_node_end_byte(self->params)))
        continue;
      RefTarget t = ref_program_target(&ops->program, self->file, i);
      if (t.kind == REF_TARGET_SYM && t.file == self->file && t.index == param)
        ref_ops_edit(ops, self->file, occ->start, occ->end, name, strlen(name));
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- call sites */

typedef struct {
  char *value;  /* the argument's expression */
  bool keyword; /* given as name=value */
  int order;    /* its place in the call: arguments are evaluated in this order */
} SigArg;

/* An argument as the new call writes it. */
typedef struct {
  int order; /* SigArg's; new values after every given one */
  bool keyword;
  char *text; /* "v" or "name=v" */
} SigPiece;

typedef Array(SigPiece) SigPieces;

static int signature__by_order(const void *a, const void *b) {
  const SigPiece *x = a, *y = b;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* Whether an argument's text may have effects (a call in it): such ones
 * must keep their order. */

/* The new argument list: the positional pieces, then the keywords in the
 * order the call gave them; fails when an argument with effects would be
 * evaluated before one it followed. */
static int signature__join(RefOps *ops, const RefOpsLang *lang, uint32_t f, TSNode call,
                           SigPieces *pieces, StrBuf *out) {
  size_t first_kw = 0;
  while (first_kw < pieces->len && !pieces->items[first_kw].keyword) first_kw++;
  if (pieces->len > first_kw)
    qsort(pieces->items + first_kw, pieces->len - first_kw, sizeof *pieces->items,
          signature__by_order);
  int last = -1;
  for (size_t i = 0; i < pieces->len; i++) {
    const SigPiece *p = &pieces->items[i];
    eddi_strbuf_printf(out, "%s%s", i ? ", " : "", p->text);
    if (!ref_ops_effects(lang, p->text)) continue;
    if (p->order < last)
      return ref_ops_fail_at(ops, f, ts_node_start_byte(call),
                             "Signature would change the order in which this call evaluates its "
                             "arguments");
    last = p->order;
  }
  return 0;
}

static void signature__piece(SigPieces *pieces, int order, bool keyword, const char *name,
                             const char *value) {
  StrBuf text = {0};
  if (keyword) eddi_strbuf_printf(&text, "%s=%s", name, value);
  else eddi_strbuf_puts(&text, value);
  SigPiece piece = {order, keyword, eddi_strbuf_take(&text)};
  array_push(pieces, piece);
}

/* Rewrite one call; false when it cannot be (a splat): left alone. */
static int signature__call(Signature *self, const RefOpsLang *lang, uint32_t f, TSNode call,
                           bool implicit, bool *done) {
  RefOps *ops = self->ops;
  *done = false;
  TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
  if (!ref_node_is(args, lang->arguments)) return 0;
  size_t n = self->old.len + 1;
  SigArg *given = eddi_calloc(n, sizeof *given);
  Array(char *) extra_pos = {0};
  Array(char *) extra_kw = {0};
  Array(int) extra_pos_order = {0}, extra_kw_order = {0};
  int star = -1, kwstar = -1;
  for (size_t i = 0; i < self->old.len; i++) {
    if (self->old.items[i].stars == 1) star = (int)i;
    if (self->old.items[i].stars == 2) kwstar = (int)i;
  }
  size_t position = implicit && !self->implicit ? 1 : 0;
  /* A call through the class passes self first: it stays first. */
  char *receiver = NULL;
  bool wants_receiver = !implicit && self->implicit;
  int rc = 0;
  bool splat = false;
  uint32_t count = ts_node_named_child_count(args);
  for (uint32_t i = 0; i < count && rc == 0 && !splat; i++) {
    TSNode a = ts_node_named_child(args, i);
    if (ref_ops_lang_is(a, lang->skipped)) continue;
    if (wants_receiver && !receiver && !ref_node_is(a, "keyword_argument") &&
        !ref_ops_lang_is(a, lang->spreads)) {
      receiver = ref_ops_text(ops, f, a);
      continue;
    }
    if (ref_ops_lang_is(a, lang->spreads)) {
      splat = true;
      break;
    }
    if (lang->keywords && ref_node_is(a, "keyword_argument")) {
      TSNode name = ts_node_child_by_field_name(a, "name", 4);
      TSNode value = ts_node_child_by_field_name(a, "value", 5);
      char *key = ref_ops_text(ops, f, name);
      int at = signature__find(&self->old, key);
      if (at >= 0 && self->old.items[at].stars == 0 && !given[at].value)
        given[at].value = ref_ops_text(ops, f, value), given[at].keyword = true,
        given[at].order = (int)i;
      else if (kwstar >= 0)
        array_push(&extra_kw, ref_ops_text(ops, f, a)), array_push(&extra_kw_order, (int)i);
      else rc = ref_ops_fail_at(ops, f, ts_node_start_byte(a), "Unknown keyword %s", key);
      eddi_free(key);
      continue;
    }
    size_t at = position++;
    if (at < self->old.len && self->old.items[at].stars == 0 && (star < 0 || (int)at < star))
      given[at].value = ref_ops_text(ops, f, a), given[at].order = (int)i;
    else if (star >= 0)
      array_push(&extra_pos, ref_ops_text(ops, f, a)), array_push(&extra_pos_order, (int)i);
    else rc = ref_ops_fail_at(ops, f, ts_node_start_byte(a), "Too many arguments");
  }
  /* A removed parameter's argument goes: one with a call in it must not. */
  for (size_t i = 0; i < self->old.len && rc == 0 && !splat; i++) {
    bool kept = false;
    for (size_t k = 0; k < self->now.len; k++) kept |= self->from[k] == (int)i;
    if (!kept && given[i].value && ref_ops_effects(lang, given[i].value))
      rc = ref_ops_fail_at(ops, f, ts_node_start_byte(call),
                           "Signature would drop the evaluation of %s", given[i].value);
  }
  if (splat) {
    ref_ops_unsure(ops, f, ts_node_start_byte(call));
  } else if (rc == 0) {
    StrBuf text = {0};
    eddi_strbuf_putc(&text, '(');
    bool positional = true;
    SigPieces pieces = {0};
    /* New values come after every argument the call gave. */
    int fresh = (int)count;
    /* Without keywords, a parameter left to its default before one given
     * is passed undefined, which JavaScript takes as "use the default". */
    size_t skipped = 0;
    if (receiver) signature__piece(&pieces, -1, false, NULL, receiver);
    for (size_t k = 0; k < self->now.len && rc == 0; k++) {
      const SigParam *p = &self->now.items[k];
      int from = self->from[k];
      const char *value = NULL;
      bool keyword = false;
      if (p->stars == 1) {
        for (size_t e = 0; e < extra_pos.len; e++) {
          if (!positional) {
            rc = ref_ops_fail_at(ops, f, ts_node_start_byte(call),
                                 "The call's extra arguments cannot follow a keyword");
            break;
          }
          signature__piece(&pieces, extra_pos_order.items[e], false, NULL, extra_pos.items[e]);
        }
        continue;
      }
      if (p->stars == 2) {
        for (size_t e = 0; e < extra_kw.len; e++) {
          /* Already "name=value". */
          SigPiece piece = {extra_kw_order.items[e], true, eddi_strdup(extra_kw.items[e])};
          array_push(&pieces, piece);
        }
        continue;
      }
      char *old_default = NULL;
      int order = fresh++;
      if (from >= 0) {
        value = given[from].value, keyword = given[from].keyword;
        if (value) order = given[from].order;
        /* Left to the old default, which the new list drops: written out. */
        const char *eq = strchr(self->old.items[from].text, '=');
        if (!value && !p->defaulted && eq)
          value = old_default = signature__trim(eq + 1, strlen(eq + 1));
        /* JavaScript evaluates a default at each call, in the function's
         * scope: only a literal means the same at the call. */
        if (old_default && !lang->keywords && !ref_ops_literal(old_default)) {
          rc = ref_ops_fail_at(ops, f, ts_node_start_byte(call),
                               "The call would lack %s: its default %s cannot be written at the "
                               "call", p->name, old_default);
          eddi_free(old_default);
          break;
        }
      } else if (p->value) {
        value = p->value;
      }
      else if (!p->defaulted) {
        rc = ref_ops_fail_at(ops, f, ts_node_start_byte(call), "The call would lack %s",
                             p->name);
        eddi_error_hint(ops->err, "Give %s a default (%s=...) or a value for the calls (%s:=...)",
                        p->name, p->name, p->name);
      }
      if (!value) {
        if (lang->keywords) positional = false;
        else skipped++;
        continue;
      }
      for (; skipped; skipped--) signature__piece(&pieces, fresh++, false, NULL, "undefined");
      if (keyword) positional = false;
      signature__piece(&pieces, order, !positional, p->name, value);
      eddi_free(old_default);
    }
    if (rc == 0 && kwstar >= 0 && signature__find(&self->now, self->old.items[kwstar].name) < 0 &&
        extra_kw.len)
      rc = ref_ops_fail_at(ops, f, ts_node_start_byte(call), "The call passes keywords to %s",
                           self->old.items[kwstar].name);
    if (rc == 0 && star >= 0 && signature__find(&self->now, self->old.items[star].name) < 0 &&
        extra_pos.len)
      rc = ref_ops_fail_at(ops, f, ts_node_start_byte(call), "The call passes arguments to %s",
                           self->old.items[star].name);
    if (rc == 0) rc = signature__join(ops, lang, f, call, &pieces, &text);
    for (size_t i = 0; i < pieces.len; i++) eddi_free(pieces.items[i].text);
    array_free(&pieces);
    eddi_strbuf_putc(&text, ')');
    if (rc == 0) {
      char *was = ref_ops_text(ops, f, args);
      *done = strcmp(was, text.data) != 0;
      if (*done)
        ref_ops_edit(ops, f, ts_node_start_byte(args), ts_node_end_byte(args), text.data, text.len);
      eddi_free(was);
    }
    eddi_strbuf_free(&text);
  }
  for (size_t i = 0; i < n; i++) eddi_free(given[i].value);
  eddi_free(given);
  eddi_free(receiver);
  for (size_t i = 0; i < extra_pos.len; i++) eddi_free(extra_pos.items[i]);
  for (size_t i = 0; i < extra_kw.len; i++) eddi_free(extra_kw.items[i]);
  array_free(&extra_pos);
  array_free(&extra_kw);
  array_free(&extra_pos_order);
  array_free(&extra_kw_order);
  return rc;
}

/* Whether a call through a receiver holding a value of kind receiver
 * passes the definition's first parameter without writing it: an instance
 * passes itself to a method, a class or an instance passes the class to a
 * class method. A module passes nothing (lib.f(7) is f(7)), nor does a
 * class to a plain method (Class.m(obj, ...) writes self), nor anything
 * to a static method. */
static bool signature__passes_self(const Signature *self, RefValueKind receiver) {
  if (self->is_static) return false;
  if (receiver == REF_VALUE_INSTANCE || receiver == REF_VALUE_SUPER) return true;
  return self->is_classmethod && receiver == REF_VALUE_CLASS;
}

/* The call an occurrence names the callee of, or a null node; *implicit:
 * the call passes the first parameter itself (signature__passes_self). */
static TSNode signature__call_of(Signature *self, const RefOpsLang *lang, uint32_t f,
                                 const RefOcc *occ, bool *implicit) {
  RefOps *ops = self->ops;
  TSNode node = ref_ops_node(ops, f, occ->start, occ->end);
  TSNode parent = ts_node_parent(node);
  *implicit = false;
  /* f.call(...), f.apply(...), f.bind(...): f is the receiver, no callee. */
  if (!lang->self_param && ref_node_is(parent, lang->member) &&
      !ts_node_eq(ts_node_child_by_field_name(parent, "property", 8), node))
    return (TSNode){0};
  if (ref_node_is(parent, lang->member) && !lang->self_param) {
    node = parent, parent = ts_node_parent(parent);
  } else if (ref_node_is(parent, "attribute")) {
    /* Box.make(2) calls make, not Box (though make may call Box through
     * cls): no call of the receiver. */
    if (!ts_node_eq(ts_node_child_by_field_name(parent, "attribute", 9), node)) return (TSNode){0};
    RefValue value = occ->expr != REF_NONE ? ref_program_expr_value(&ops->program, f, occ->expr)
                                           : (RefValue){REF_VALUE_UNKNOWN, 0, 0};
    *implicit = signature__passes_self(self, value.kind);
    node = parent, parent = ts_node_parent(parent);
  }
  if (!ref_node_is(parent, lang->call)) return (TSNode){0};
  TSNode fn = ts_node_child_by_field_name(parent, "function", 8);
  if (ts_node_start_byte(fn) != ts_node_start_byte(node) ||
      ts_node_end_byte(fn) != ts_node_end_byte(node))
    return (TSNode){0};
  return parent;
}

/* Whether a reference to a class that is no call of it cannot call it
 * later either: an annotation, isinstance's or issubclass's class, an
 * except clause's. */
static bool signature__class_use_harmless(RefOps *ops, uint32_t f, TSNode node) {
  for (TSNode at = ts_node_parent(node); !ts_node_is_null(at); at = ts_node_parent(at)) {
    if (ref_node_is(at, "type") || ref_node_is(at, "except_clause")) return true;
    if (ref_node_is(at, "argument_list")) {
      TSNode fn = ts_node_child_by_field_name(ts_node_parent(at), "function", 8);
      char *text = ref_ops_text(ops, f, fn);
      bool check = !strcmp(text, "isinstance") || !strcmp(text, "issubclass");
      eddi_free(text);
      return check;
    }
    if (!ref_node_is(at, "tuple") && !ref_node_is(at, "attribute")) return false;
  }
  return false;
}

/* Whether an occurrence only exports the function, under its name or
 * another (a JavaScript export list, module.exports = { f, g: f }): the
 * importers' calls are found through it (ref_program_entity follows the
 * other name), and it passes no arguments. exports.g = f is no such
 * export: its value is not read, so it stays an unsure reference. */
static bool signature__exported(RefOps *ops, const RefOpsLang *lang, uint32_t f,
                                const RefOcc *occ) {
  if (lang->keywords || lang->typed_params) return false;
  TSNode node = ref_ops_node(ops, f, occ->start, occ->end);
  TSNode parent = ts_node_parent(node);
  if (ref_node_is(parent, "export_specifier")) return true;
  if (ref_node_is(parent, "pair")) {
    if (!ts_node_eq(ts_node_child_by_field_name(parent, "value", 5), node)) return false;
    node = parent, parent = ts_node_parent(parent);
  }
  if (!ref_node_is(parent, "object") && !ref_node_is(parent, "shorthand_property_identifier"))
    return false;
  if (ref_node_is(node, "shorthand_property_identifier")) node = parent, parent = ts_node_parent(parent);
  /* The object is what module.exports (or exports.x) is assigned. */
  TSNode assignment = ts_node_parent(parent);
  if (!ref_node_is(assignment, "assignment_expression")) return false;
  char *left = ref_ops_text(ops, f, ts_node_child_by_field_name(assignment, "left", 4));
  bool exports = !strcmp(left, "module.exports") || !strncmp(left, "exports.", 8);
  eddi_free(left);
  return exports && ts_node_eq(ts_node_child_by_field_name(assignment, "right", 5), parent);
}

/* A C prototype of the function (a declaration in a header or another
 * file, occurrence i of f): its parameter list follows the definition's,
 * each kept parameter with the prototype's own text (its own name, or
 * none), the renamed ones renamed where the prototype names them alike. */
static int signature__prototype(Signature *self, uint32_t f, uint32_t i) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[f];
  const RefOcc *occ = &file->occs.items[i];
  if (f == self->file && occ->sym == self->target.index) return 0;
  RefTarget t = ref_program_canonical(&ops->program, (RefTarget){REF_TARGET_SYM, f, occ->sym});
  if (!ref_target_equal(t, self->identity)) return 0;
  TSNode fn;
  TSNode params = ref_ops_params_of(ref_ops_node(ops, f, occ->start, occ->end), &fn);
  if (ts_node_is_null(params))
    return ref_ops_fail_at(ops, f, occ->start, "Signature cannot rewrite this declaration of %s",
                           ref_names_str(&ops->index->names, occ->name));
  SigParams had = {0};
  int rc = signature__read_params(self, f, params, &had, true);
  if (rc == 0 && had.len != self->old.len)
    rc = ref_ops_fail_at(ops, f, occ->start, "This declaration of %s has %zu parameters, not %zu",
                         ref_names_str(&ops->index->names, occ->name), had.len, self->old.len);
  StrBuf text = {0};
  eddi_strbuf_putc(&text, '(');
  for (size_t k = 0; k < self->now.len && rc == 0; k++) {
    const SigParam *p = &self->now.items[k];
    eddi_strbuf_puts(&text, k ? ", " : "");
    int from = self->from[k];
    if (from < 0) {
      eddi_strbuf_puts(&text, p->text);
      continue;
    }
    const SigParam *was = &had.items[from];
    bool renamed = strcmp(self->old.items[from].name, p->name) != 0 &&
                   !strcmp(was->name, self->old.items[from].name);
    if (!renamed) {
      eddi_strbuf_puts(&text, was->text);
      continue;
    }
    eddi_strbuf_append(&text, was->text, was->name_at);
    eddi_strbuf_puts(&text, p->name);
    eddi_strbuf_puts(&text, was->text + was->name_at + strlen(was->name));
  }
  if (!self->now.len && self->lang->no_params) eddi_strbuf_puts(&text, self->lang->no_params);
  eddi_strbuf_putc(&text, ')');
  if (rc == 0)
    ref_ops_edit(ops, f, ts_node_start_byte(params), ts_node_end_byte(params), text.data,
                 text.len);
  eddi_strbuf_free(&text);
  signature__free(&had);
  return rc;
}

static bool signature__named(const RefIds *names, uint32_t name) {
  for (size_t i = 0; i < names->len; i++)
    if (names->items[i] == name) return true;
  return false;
}

/* The names a call of entity may be written with: its own, and each
 * import's that binds it under another (from m import f as g, import
 * { f as g }, const { f: g } = require(...)), through imports of those
 * too. An alias of one of these names that cannot be told (g bound by
 * the import and by an assignment) counts, so that its calls are listed
 * as unsure rather than missed. */
static void signature__names(Signature *self, RefTarget entity, RefIds *names) {
  RefProgram *program = &self->ops->program;
  const RefFile *home = program->files.items[entity.file];
  array_push(names, home->syms.items[entity.index].name);
  for (bool grew = true; grew;) {
    grew = false;
    for (uint32_t f = 0; f < program->files.len; f++) {
      const RefFile *file = program->files.items[f];
      for (uint32_t s = 0; s < file->syms.len; s++) {
        const RefSym *sym = &file->syms.items[s];
        bool binds_other = false;
        for (uint32_t d = sym->first_def; d != REF_NONE; d = file->occs.items[d].next_def)
          binds_other |= file->occs.items[d].import != REF_NONE ||
                         (file->occs.items[d].flags & REF_OCC_EXPORTED);
        if (!binds_other || signature__named(names, sym->name)) continue;
        RefTarget t = ref_program_entity(program, (RefTarget){REF_TARGET_SYM, f, s});
        bool ours = ref_target_equal(t, entity);
        for (uint32_t d = sym->first_def; !ours && t.kind == REF_TARGET_UNSURE && d != REF_NONE;
             d = file->occs.items[d].next_def) {
          uint32_t import = file->occs.items[d].import;
          ours = import != REF_NONE && signature__named(names, file->imports.items[import].name);
        }
        if (ours) array_push(names, sym->name), grew = true;
      }
    }
  }
}

/* Whether target is a class method's cls of class (cls(...) in it calls
 * the class's __init__). */
static bool signature__cls_of(Signature *self, RefTarget target, RefTarget klass) {
  RefProgram *program = &self->ops->program;
  if (target.kind != REF_TARGET_SYM) return false;
  const RefSym *sym = &program->files.items[target.file]->syms.items[target.index];
  if (!(sym->flags & REF_SYM_CLS)) return false;
  RefValue value = ref_program_value(program, target);
  return value.kind == REF_VALUE_CLASS && value.file == klass.file && value.index == klass.index;
}

static int signature__calls(Signature *self) {
  RefOps *ops = self->ops;
  /* __init__ is called through its class: Class(...) passes self. */
  uint32_t klass = self->constructor ? ref_target_class(&ops->program, self->target) : REF_NONE;
  RefTarget class_target = {REF_TARGET_SYM, self->file, klass};
  RefIds names = {0}, class_names = {0};
  signature__names(self, self->identity, &names);
  if (klass != REF_NONE) signature__names(self, class_target, &class_names);
  /* A class method's cls is the class too. */
  const RefFile *home = ops->program.files.items[self->file];
  for (uint32_t s = 0; klass != REF_NONE && s < home->syms.len; s++)
    if (signature__cls_of(self, (RefTarget){REF_TARGET_SYM, self->file, s}, class_target) &&
        !signature__named(&class_names, home->syms.items[s].name))
      array_push(&class_names, home->syms.items[s].name);
  uint32_t name = names.items[0];
  /* The calls rewritten so far in the file being read: one inside the
   * arguments of another would be rewritten twice over the same bytes. */
  Array(TSNode) seen = {0};
  int rc = 0;
  for (uint32_t f = 0; f < ops->program.files.len && rc == 0; f++) {
    const RefFile *file = ops->program.files.items[f];
    seen.len = 0; /* byte ranges of another file are no place here */
    for (uint32_t i = 0; i < file->occs.len && rc == 0; i++) {
      const RefOcc *occ = &file->occs.items[i];
      if (!signature__named(&names, occ->name) && !signature__named(&class_names, occ->name))
        continue;
      if (occ->flags & REF_OCC_DEF) {
        if (self->lang->typed_params && occ->name == name) rc = signature__prototype(self, f, i);
        continue;
      }
      if (occ->kind == REF_OCC_IMPORT_NAME || occ->kind == REF_OCC_EXPORT) continue;
      /* Through an alias too: g(...) after from m import f as g calls f. */
      RefTarget t = ref_program_entity(&ops->program, ref_program_target(&ops->program, f, i));
      bool by_class = klass != REF_NONE && (ref_target_equal(t, class_target) ||
                                            signature__cls_of(self, t, class_target));
      bool ours = by_class || ref_target_equal(t, self->identity);
      if (!ours) {
        if (t.kind == REF_TARGET_UNSURE && occ->kind != REF_OCC_STRING) ref_ops_unsure(ops, f, occ->start);
        continue;
      }
      const RefOpsLang *lang;
      if ((rc = ref_ops_syntax(ops, f, "Signature", &lang)) < 0) break;
      if (signature__exported(ops, lang, f, occ)) continue;
      bool implicit;
      TSNode call = signature__call_of(self, lang, f, occ, &implicit);
      if (by_class) implicit = true;
      if (ts_node_is_null(call)) {
        if (!by_class ||
            !signature__class_use_harmless(ops, f, ref_ops_node(ops, f, occ->start, occ->end)))
          ref_ops_unsure(ops, f, occ->start);
        continue;
      }
      TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
      for (size_t s = 0; s < seen.len && rc == 0; s++) {
        TSNode outer = seen.items[s];
        if (ts_node_start_byte(outer) < ts_node_end_byte(args) &&
            ts_node_start_byte(args) < ts_node_end_byte(outer)) {
          const char *callee = ref_names_str(&ops->index->names, name);
          StrBuf inner_at = {0}, outer_at = {0};
          ref_target_place(ops->index, f, occ->start, &inner_at);
          ref_target_place(ops->index, f, ts_node_start_byte(ts_node_parent(outer)), &outer_at);
          rc = eddi_error_set(ops->err, EDDI_EINVAL,
                              "Refactor Signature cannot yet rewrite the call of %s at %s: it is "
                              "inside the arguments of another call of %s, at %s",
                              callee, inner_at.data, callee, outer_at.data);
          eddi_strbuf_free(&inner_at), eddi_strbuf_free(&outer_at);
        }
      }
      array_push(&seen, args);
      bool done = false;
      if (rc == 0) rc = signature__call(self, lang, f, call, implicit, &done);
      if (done) self->calls++;
    }
  }
  array_free(&seen);
  array_free(&names);
  array_free(&class_names);
  return rc;
}

/* Whether a call written for the old signature still binds right: the old
 * parameters keep their places and names, the new ones have defaults. */
static bool signature__compatible(const Signature *self) {
  if (self->now.len < self->old.len) return false;
  for (size_t k = 0; k < self->now.len; k++) {
    if (k < self->old.len) {
      /* Without keywords a call does not name the parameters. */
      if (self->from[k] != (int)k ||
          (self->lang->keywords && strcmp(self->now.items[k].name, self->old.items[k].name) != 0))
        return false;
    } else if (!self->now.items[k].defaulted && !self->now.items[k].stars) {
      return false;
    }
  }
  return true;
}

/* __init__ is called through its class: refused when something else may
 * call it (a subclass that inherits it, a decorator on the class, a
 * __new__ that gets the same arguments). */
static int signature__constructor_callers(Signature *self, uint32_t klass) {
  RefOps *ops = self->ops;
  const RefFile *file = ops->program.files.items[self->file];
  const RefSym *k = &file->syms.items[klass];
  const char *kname = ref_names_str(&ops->index->names, k->name);
  if (k->flags & REF_SYM_DECORATED)
    return ref_ops_fail_at(ops, self->file, k->start,
                           "Signature cannot change %s.__init__: a decorator may call it", kname);
  uint32_t new_id = ref_names_find(&ops->index->names, "__new__", strlen("__new__"));
  if (new_id != REF_NONE && ref_file_bound(file, k->own_scope, new_id) != REF_NONE)
    return ref_ops_fail_at(ops, self->file, k->start,
                           "Signature cannot change %s.__init__: __new__ takes the same arguments",
                           kname);
  for (uint32_t f = 0; f < ops->program.files.len; f++) {
    const RefFile *other = ops->program.files.items[f];
    for (uint32_t s = 0; s < other->syms.len; s++) {
      if (other->syms.items[s].kind != REF_SYM_CLASS) continue;
      RefIds bases = {0};
      ref_program_bases(&ops->program, f, s, &bases);
      bool sub = false;
      for (size_t b = 0; b + 1 < bases.len; b += 2)
        sub |= bases.items[b] == self->file && bases.items[b + 1] == klass;
      array_free(&bases);
      if (sub)
        return ref_ops_fail_at(ops, f, other->syms.items[s].start,
                               "Signature cannot yet change %s.__init__: a subclass inherits it",
                               kname);
    }
  }
  return 0;
}

/* A method whose calls cannot all be seen: one Python calls by protocol
 * (__init__ through the class, __eq__ through ==), one of a class with a
 * base outside the workspace (whose code, or a framework, may call it),
 * one whose name another class defines too (an override, or a call
 * through a receiver that cannot be told apart). */
static int signature__callers_known(Signature *self) {
  RefOps *ops = self->ops;
  uint32_t klass = ref_target_class(&ops->program, self->target);
  if (klass == REF_NONE) return 0;
  const RefFile *file = ops->program.files.items[self->file];
  const RefSym *sym = &file->syms.items[self->target.index];
  const char *name = ref_names_str(&ops->index->names, sym->name);
  size_t n = strlen(name);
  self->constructor = !strcmp(name, "__init__");
  if (self->constructor) {
    int rc = signature__constructor_callers(self, klass);
    if (rc < 0) return rc;
  } else if (n > 4 && !strncmp(name, "__", 2) && !strcmp(name + n - 2, "__")) {
    return ref_ops_fail_at(ops, self->file, sym->start,
                           "Signature cannot yet change %s: Python calls it by protocol", name);
  }
  uint32_t other_file = REF_NONE, other_sym = REF_NONE;
  RefCallers callers = ref_ops_method_callers(ops, self->file, self->target.index, klass,
                                              &other_file, &other_sym);
  if (callers == REF_CALLERS_OUTSIDE_BASE)
    return ref_ops_fail_at(ops, self->file, sym->start,
                           "Signature cannot change %s: its class has a base outside the "
                           "workspace, whose code may call it",
                           name);
  if (callers == REF_CALLERS_OVERRIDE)
    return ref_ops_fail_at(ops, other_file,
                           ops->program.files.items[other_file]->syms.items[other_sym].start,
                           "Signature cannot change %s alone: another class defines it too",
                           name);
  return 0;
}

/* ---------------------------------------------------------------- the plan */

/* The two signatures of the command in lang's syntax; the new one must
 * name the same function. */
static int signature__lists(Signature *self, const RefOpArgs *args, const RefOpsLang *lang,
                            char **old_name, char **new_name) {
  RefOps *ops = self->ops;
  int rc = signature__parse(ops, args->spec, lang, old_name, &self->old);
  if (rc == 0) rc = signature__parse(ops, args->other, lang, new_name, &self->now);
  if (rc == 0 && strcmp(*old_name, *new_name) != 0) {
    const char *base = strrchr(*old_name, '.');
    const char *colon = strrchr(*old_name, ':');
    const char *last = base && (!colon || base > colon) ? base + 1 : colon ? colon + 1 : *old_name;
    if (strcmp(last, *new_name) != 0)
      rc = eddi_error_set(ops->err, EDDI_EINVAL,
                          "Signature changes parameters, not names: %s and %s differ (RenameSymbol "
                          "renames)",
                          *old_name, *new_name);
  }
  return rc;
}

/* The definition of a function of another language than Python: C's
 * with a body (the target may be a prototype, whose entity is the
 * definition), a JavaScript function, method or function-valued variable. */
static int signature__other_definition(Signature *self, const char *old_name) {
  RefOps *ops = self->ops;
  self->identity = ref_program_canonical(&ops->program, self->target);
  if (self->identity.kind == REF_TARGET_SYM) self->target = self->identity;
  self->file = self->target.file;
  const RefFile *file = ops->program.files.items[self->file];
  const RefSym *sym = &file->syms.items[self->target.index];
  const RefOcc *def = &file->occs.items[sym->first_def];
  TSNode fn;
  self->params = ref_ops_params_of(ref_ops_node(ops, self->file, def->start, def->end), &fn);
  if (ts_node_is_null(self->params)) {
    eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a function", old_name);
    eddi_error_hint(ops->err, "Signature changes the parameters of a function");
    return EDDI_EINVAL;
  }
  if (self->lang->typed_params && !ref_node_is(fn, "function_definition"))
    return eddi_error_set(ops->err, EDDI_EINVAL, "No definition of %s in the workspace: only its "
                          "declaration at %s", old_name, file->path);
  if (ref_target_class(&ops->program, self->target) != REF_NONE &&
      !strcmp(ref_names_str(&ops->index->names, sym->name), "constructor"))
    return ref_ops_fail_at(ops, self->file, sym->start,
                           "Not supported for %s: Signature of a constructor (new and super "
                           "calls are not rewritten yet)",
                           ref_ops_lang_title(file->lang));
  /* A body that reads arguments sees every argument by position. */
  TSNode body = ts_node_child_by_field_name(fn, "body", 4);
  if (!self->lang->typed_params && !ts_node_is_null(body)) {
    uint32_t id = ref_names_find(&ops->index->names, "arguments", strlen("arguments"));
    for (uint32_t i = 0; id != REF_NONE && i < file->occs.len; i++)
      if (file->occs.items[i].name == id &&
          ref_in(file->occs.items[i].start, ts_node_start_byte(body), ts_node_end_byte(body)))
        return ref_ops_fail_at(ops, self->file, file->occs.items[i].start,
                               "Signature cannot change %s: its body reads arguments", old_name);
  }
  return 0;
}

int ref_signature_plan(RefOps *ops, const RefOpArgs *args) {
  Signature self = {.ops = ops};
  char *old_name = NULL, *new_name = NULL;
  /* Read as Python's first: the language is the definition's, which only
   * the old name finds; Python's own failures keep their order. */
  EddiError *err = ops->err, first = {0};
  ops->err = &first;
  int parsed = signature__lists(&self, args, ref_ops_lang("python"), &old_name, &new_name);
  ops->err = err;
  int rc = 0;
  if (!old_name) *err = first, rc = parsed;
  if (rc == 0) {
    rc = ref_ops_find(ops, old_name, &self.target);
    if (rc < 0 && parsed < 0) *err = first, rc = parsed;
    else if (rc < 0 && !ops->err->hint[0])
      eddi_error_hint(ops->err, "Name the function as RenameSymbol does: f, Class.m or path.py:f");
  }
  if (rc == 0) {
    self.file = self.target.file;
    self.identity = self.target;
    rc = ref_ops_syntax(ops, self.file, "Signature", &self.lang);
  }
  bool python = rc == 0 && self.lang->self_param;
  if (rc == 0 && python && parsed < 0) *err = first, rc = parsed;
  if (rc == 0 && !python) {
    eddi_free(old_name), eddi_free(new_name);
    old_name = new_name = NULL;
    signature__free(&self.old), signature__free(&self.now);
    rc = signature__lists(&self, args, self.lang, &old_name, &new_name);
    if (rc == 0) rc = signature__other_definition(&self, old_name);
  }
  TSNode name;
  if (rc == 0 && python) {
    const RefSym *sym = &ops->program.files.items[self.file]->syms.items[self.target.index];
    if (sym->kind != REF_SYM_FUNCTION)
      rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s is not a function", old_name);
  }
  if (rc == 0 && python) {
    TSNode def = ref_ops_definition(ops, self.target, &name);
    if (ref_node_is(def, "decorated_definition")) {
      char *text = ref_ops_text(ops, self.file, def);
      self.is_static = strstr(text, "@staticmethod") != NULL;
      self.is_classmethod = strstr(text, "@classmethod") != NULL;
      eddi_free(text);
      def = ts_node_child_by_field_name(def, "definition", 10);
    }
    self.params = ts_node_child_by_field_name(def, "parameters", 10);
    if (ts_node_is_null(self.params))
      rc = eddi_error_set(ops->err, EDDI_EINVAL, "%s has no parameter list", old_name);
  }
  if (rc == 0) rc = signature__check_old(&self);
  if (rc == 0) rc = signature__callers_known(&self);
  if (rc == 0) rc = signature__match(&self);
  if (rc == 0) rc = signature__removed_unused(&self);
  if (rc == 0) signature__definition(&self);
  if (rc == 0) rc = signature__rename_uses(&self);
  if (rc == 0) rc = signature__calls(&self);
  /* Unsure references that survive the change need no way on (plan.h). */
  if (rc == 0 && ops->unsure_count) {
    ops->unsure_kept = signature__compatible(&self);
    ops->unsure_of = eddi_strdup(old_name);
    ops->unsure_why = "only parameters added at the end with a default leave them right";
  }
  if (rc == 0) {
    eddi_strbuf_printf(&ops->facts, "Changed signature of %s\n%zu %s updated", old_name,
                       self.calls, self.calls == 1 ? "call" : "calls");
    ops->count = self.calls;
  }
  eddi_free(old_name);
  eddi_free(new_name);
  signature__free(&self.old);
  signature__free(&self.now);
  signature__free(&self.actual);
  return rc;
}

/* ---------------------------------------------------------------- in one file */

/* The one text's index takes any size: the document is already open. */
#define SIGNATURE_LOCAL_MAX_BYTES SIZE_MAX

void ref_text_edits_free(RefTextEdits *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i].text);
  array_free(self);
}

int ref_signature_local(const RefSignatureLocal *op, RefTextEdits *out, size_t *calls,
                        StrBuf *unsure, EddiError *err) {
  memset(out, 0, sizeof *out);
  *calls = 0;
  RefIndex index;
  ref_index_init(&index, SIGNATURE_LOCAL_MAX_BYTES, 1);
  int rc = ref_index_add(&index, op->path, op->text, op->len, true, err);
  if (rc == 0 && index.sources.len != 1)
    rc = eddi_error_set(err, EDDI_EINVAL, "No name resolution for %s", op->path);
  if (rc == 0) {
    RefOps ops;
    ref_ops_init(&ops, &index, err);
    RefOpArgs args = {.spec = op->old_sig, .other = op->new_sig};
    RefPlan plan = {0};
    rc = ref_signature_plan(&ops, &args);
    /* Modify has no Leave: a change the unsure references would not
     * survive is refused. */
    if (rc == 0 && ops.unsure_count && !ops.unsure_kept) {
      rc = eddi_error_set(err, EDDI_EINVAL,
                          "Signature would break the unsure references it leaves alone: %s",
                          ops.unsure.data);
      eddi_error_hint(err, "Only parameters added at the end with a default leave them right");
    }
    if (rc == 0) rc = ref_ops_finish(&ops, "Signature", &plan);
    for (size_t i = 0; rc == 0 && i < ops.edits.len; i++) {
      RefTextEdit edit = {ops.edits.items[i].start, ops.edits.items[i].end,
                          eddi_strdup(ops.edits.items[i].text)};
      array_push(out, edit);
    }
    if (rc == 0) {
      *calls = ops.count;
      if (ops.unsure_count)
        eddi_strbuf_printf(unsure, "%zu unsure left unchanged: %s", ops.unsure_count,
                           ops.unsure.data);
    }
    ref_plan_free(&plan);
    ref_ops_free(&ops);
  }
  ref_index_free(&index);
  if (rc < 0) ref_text_edits_free(out);
  return rc;
}
