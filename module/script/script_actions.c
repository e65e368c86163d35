/* script_actions.c - what a script does to an element: replace, remove, add,
 * add an import or a line, flag, suggest; and refactorings on the overlay.
 *
 * Every edit goes into the overlay (script_files.c); nothing is written.
 * A template replacement must leave the file parsing as well as it did
 * before: a replacement that brings a syntax error in is refused, with the
 * place, rather than written and left for the model to find. Refactorings
 * inside scripts are script_refactor.c's. */
#define _GNU_SOURCE /* memmem */
#include "script/script_run.h"

#include <ctype.h>
#include <strings.h>

#include "edit/import_place.h"
#include "syntax/syntax.h"

/* ---------------------------------------------------------------- helpers */

static ScriptFile *action__file(ScriptRun *run, const ScriptElement *el) {
  return run->files.files.items[el->file];
}

static size_t action__line_start(const ScriptFile *file, size_t at) {
  while (at > 0 && file->text.data[at - 1] != '\n') at--;
  return at;
}

/* The offset after the line holding at (past its newline). */
static size_t action__line_after(const ScriptFile *file, size_t at) {
  const char *nl = memchr(file->text.data + at, '\n', file->text.len - at);
  return nl ? (size_t)(nl - file->text.data) + 1 : file->text.len;
}

/* The blanks that start the line holding at (new string). */
static char *action__indent(const ScriptFile *file, size_t at) {
  size_t start = action__line_start(file, at), end = start;
  while (end < file->text.len && (file->text.data[end] == ' ' || file->text.data[end] == '\t'))
    end++;
  return eddi_strndup(file->text.data + start, end - start);
}

/* Replace [start, end) of the element's file and make the element the new text. */
static void action__replace(ScriptRun *run, ScriptElement *el, size_t start, size_t end,
                            const char *text, size_t len) {
  ScriptFile *file = action__file(run, el);
  script_file_replace(&run->files, file, start, end, text, len);
  if (start <= el->start && end >= el->end) {
    el->start = start, el->end = start + len;
    el->name_start = el->name_end = el->start;
    el->has_params = false;
    array_clear(&el->args);
    el->version = script_file_version(file);
  } else {
    script_element_refresh(&run->files, el);
  }
}

static int action__fail(ScriptRun *run, const ScriptNode *node, const ScriptElement *el,
                        EddiError *err, const char *what) {
  StrBuf place = {0};
  script_place(run, el->file, el->start, &place);
  eddi_error_set(err, EDDI_EINVAL, "Script line %zu:%zu: %s at %s", node->pos.line, node->pos.col,
                 what, place.data);
  eddi_strbuf_free(&place);
  return EDDI_EINVAL;
}

/* Whether the file's text has a syntax error (false without a grammar). */
static bool action__has_error(ScriptRun *run, ScriptFile *file) {
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  return syn && ts_node_has_error(ts_tree_root_node(syn->tree));
}

/* ---------------------------------------------------------------- templates */

/* $0 the element, $1.. its arguments, $name and $name.field variables. */
static int action__expand(ScriptRun *run, const ScriptNode *node, const ScriptElement *el,
                          const char *tmpl, StrBuf *out, EddiError *err) {
  ScriptFile *file = action__file(run, el);
  eddi_strbuf_puts(out, "");
  for (const char *p = tmpl; *p; p++) {
    if (*p != '$') {
      eddi_strbuf_putc(out, *p);
      continue;
    }
    if (isdigit((unsigned char)p[1])) {
      char *end;
      long n = strtol(p + 1, &end, 10);
      if (n == 0) {
        eddi_strbuf_append(out, file->text.data + el->start, el->end - el->start);
      } else if ((size_t)n <= el->args.len) {
        ScriptSpan a = el->args.items[n - 1];
        eddi_strbuf_append(out, file->text.data + a.start, a.end - a.start);
      } else {
        char what[96];
        snprintf(what, sizeof what, "$%ld: the element has %zu argument%s", n, el->args.len,
                 el->args.len == 1 ? "" : "s");
        action__fail(run, node, el, err, what);
        eddi_error_hint(err, "$0 is the whole element, $1.. its arguments");
        return EDDI_EINVAL;
      }
      p = end - 1;
      continue;
    }
    const char *q = p + 1;
    while (isalnum((unsigned char)*q) || *q == '_' || *q == '.') q++;
    while (q > p + 1 && q[-1] == '.') q--;
    if (q == p + 1) {
      eddi_strbuf_putc(out, '$');
      continue;
    }
    char *name = eddi_strndup(p + 1, (size_t)(q - p - 1));
    ScriptExpr e = {.kind = SE_VAR, .pos = node->pos};
    char *dot = strchr(name, '.');
    if (dot) *dot = '\0';
    e.text = name;
    e.field = dot ? dot + 1 : NULL;
    char *value = NULL;
    int rc = script_expr_value(run, &e, el, &value, err);
    eddi_free(name);
    if (rc < 0) return rc;
    eddi_strbuf_puts(out, value);
    eddi_free(value);
    p = q - 1;
  }
  return 0;
}

static int action__replace_with(ScriptRun *run, const ScriptNode *node, ScriptElement *el,
                                EddiError *err) {
  StrBuf text = {0};
  int rc = 0;
  if (node->a) {
    char *value = NULL;
    rc = script_expr_value(run, node->a, el, &value, err);
    if (rc == 0) eddi_strbuf_puts(&text, value);
    eddi_free(value);
  } else {
    rc = action__expand(run, node, el, node->text, &text, err);
  }
  if (rc < 0) {
    eddi_strbuf_free(&text);
    return rc;
  }
  ScriptFile *file = action__file(run, el);
  size_t start = el->start, end = el->end;
  if (el->kind == SEL_LINE && end > start && file->text.data[end - 1] == '\n') end--;
  /* A call given a bare (dotted) name gets a new callee and keeps its
   * arguments: `foreach call to old.login { replace with new.authenticate }`. */
  bool bare = el->kind == SEL_CALL && text.len > 0;
  for (size_t i = 0; bare && i < text.len; i++)
    bare = isalnum((unsigned char)text.data[i]) || text.data[i] == '_' || text.data[i] == '.';
  if (bare) start = el->name_start, end = el->name_end;
  bool broken_before = action__has_error(run, file);
  char *old = eddi_strndup(file->text.data + start, end - start);
  action__replace(run, el, start, end, text.data ? text.data : "", text.len);
  if (!broken_before && action__has_error(run, file)) {
    /* Put it back: the overlay keeps only edits that parse. */
    script_file_replace(&run->files, file, start, start + text.len, old, end - start);
    script_element_refresh(&run->files, el);
    eddi_free(old);
    char what[EDDI_ERROR_MAX / 2];
    snprintf(what, sizeof what, "the replacement \"%.*s\" does not parse",
             (int)EDDI_MIN(text.len, EDDI_QUOTE_LINE_MAX), text.data ? text.data : "");
    eddi_strbuf_free(&text);
    return action__fail(run, node, el, err, what);
  }
  eddi_free(old);
  eddi_strbuf_free(&text);
  if (el->kind == SEL_CALL) run->counts.calls_updated++;
  else run->counts.replaced++;
  return 0;
}

static int action__replace_text(ScriptRun *run, const ScriptNode *node, ScriptElement *el,
                                EddiError *err) {
  char *a = NULL, *b = NULL;
  int rc = script_expr_value(run, node->a, el, &a, err);
  if (rc == 0) rc = script_expr_value(run, node->b, el, &b, err);
  if (rc == 0 && !a[0]) rc = action__fail(run, node, el, err, "nothing to replace (\"\")");
  if (rc == 0) {
    ScriptFile *file = action__file(run, el);
    size_t alen = strlen(a), blen = strlen(b);
    const char *data = file->text.data;
    /* One new text for the element, so that a file with many hits costs one copy. */
    StrBuf next = {0};
    eddi_strbuf_puts(&next, "");
    size_t at = el->start, hits = 0;
    for (;;) {
      const char *hit = memmem(data + at, el->end - at, a, alen);
      if (!hit) break;
      size_t h = (size_t)(hit - data);
      eddi_strbuf_append(&next, data + at, h - at);
      eddi_strbuf_append(&next, b, blen);
      at = h + alen;
      hits++;
    }
    if (hits) {
      eddi_strbuf_append(&next, data + at, el->end - at);
      action__replace(run, el, el->start, el->end, next.data, next.len);
      if (el->kind == SEL_CALL) run->counts.calls_updated++;
      else run->counts.replaced += hits;
    }
    eddi_strbuf_free(&next);
  }
  eddi_free(a);
  eddi_free(b);
  return rc;
}

/* ---------------------------------------------------------------- notes */

static int action__note(ScriptRun *run, const ScriptNode *node, ScriptElement *el,
                        ScriptStrings *list, const char *prefix, EddiError *err) {
  char *text = NULL;
  int rc = 0;
  if (node->a) rc = script_expr_value(run, node->a, el, &text, err);
  else text = eddi_strdup(node->text);
  if (rc < 0) return rc;
  StrBuf line = {0};
  script_place(run, el->file, el->kind == SEL_FILE ? 0 : el->start, &line);
  if (el->name && el->name[0] && el->kind != SEL_FILE && el->kind != SEL_LINE)
    eddi_strbuf_printf(&line, " %s:", el->name);
  eddi_strbuf_printf(&line, " %s%s", prefix, text);
  script_run_keep(run, list, eddi_strbuf_take(&line));
  eddi_free(text);
  return 0;
}

/* ---------------------------------------------------------------- remove, add */

static int action__remove(ScriptRun *run, const ScriptNode *node, ScriptElement *el,
                          EddiError *err) {
  if (el->kind == SEL_FILE) return action__fail(run, node, el, err, "remove takes no whole file");
  ScriptFile *file = action__file(run, el);
  size_t start = el->start, end = el->end;
  size_t line_start = action__line_start(file, start);
  bool alone_before = true, alone_after = true;
  for (size_t i = line_start; i < start; i++)
    alone_before &= file->text.data[i] == ' ' || file->text.data[i] == '\t';
  size_t after = end;
  while (after < file->text.len && (file->text.data[after] == ' ' || file->text.data[after] == '\t' ||
                                    file->text.data[after] == ';' || file->text.data[after] == '\r'))
    after++;
  alone_after = after >= file->text.len || file->text.data[after] == '\n' ||
                (end > start && file->text.data[end - 1] == '\n');
  if (alone_before && alone_after) {
    start = line_start;
    end = end > start && file->text.data[end - 1] == '\n' ? end : action__line_after(file, after);
  }
  action__replace(run, el, start, end, "", 0);
  run->counts.removed[el->kind]++;
  return 0;
}

/* Insert a whole line (text, then a newline) before offset at. */
static void action__insert_line(ScriptRun *run, ScriptElement *el, size_t at, const char *indent,
                                const char *text) {
  ScriptFile *file = action__file(run, el);
  StrBuf line = {0};
  if (at == file->text.len && at > 0 && file->text.data[at - 1] != '\n') eddi_strbuf_putc(&line, '\n');
  eddi_strbuf_printf(&line, "%s%s\n", indent, text);
  script_file_replace(&run->files, file, at, at, line.data, line.len);
  script_element_refresh(&run->files, el);
  eddi_strbuf_free(&line);
}

/* Where and in what form an import goes: edit/import_place.c's, as for
 * Insert Import. */
static int action__import_plan(ScriptRun *run, ScriptFile *file, const char *want,
                               EddiImportPlan *plan, EddiError *err) {
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  EddiImportFile into = {file->lang, syn, file->rel, file->text.data, file->text.len, NULL, 0};
  StrBuf package = {0};
  if (eddi_import_read_package(run->files.root_fd, file->rel, &package))
    into.package_json = package.data ? package.data : "", into.package_json_len = package.len;
  int rc = eddi_import_plan(plan, &into, want, strlen(want), err);
  eddi_strbuf_free(&package);
  return rc;
}

static int action__add_import(ScriptRun *run, const ScriptNode *node, ScriptElement *el,
                              EddiError *err) {
  ScriptFile *file = action__file(run, el);
  EddiImportPlan plan;
  int rc = action__import_plan(run, file, node->text, &plan, err);
  if (rc < 0) {
    /* The statement and the file's place around the plan's reason; its hint stays. */
    char *why = eddi_strdup(err->what), *hint = eddi_strdup(err->hint);
    rc = action__fail(run, node, el, err, why);
    if (hint[0]) eddi_error_hint(err, "%s", hint);
    eddi_free(why), eddi_free(hint);
    return rc;
  }
  if (plan.present == EDDI_IMPORT_ABSENT) {
    size_t at = plan.at;
    const char *text = file->text.data;
    if (plan.blank_before && at > 0 && !(at >= 2 && text[at - 1] == '\n' && text[at - 2] == '\n'))
      script_file_replace(&run->files, file, at, at, "\n", 1), at++;
    action__insert_line(run, el, at, "", plan.line);
    /* After a header: a blank line between the import and the code. */
    size_t after = at + strlen(plan.line) + 1;
    text = file->text.data;
    if (plan.blank_after && after < file->text.len && text[after] != '\n')
      script_file_replace(&run->files, file, after, after, "\n", 1);
    script_element_refresh(&run->files, el);
    run->counts.imports_added++;
  }
  eddi_import_plan_free(&plan);
  return 0;
}

static int action__add(ScriptRun *run, const ScriptNode *node, ScriptElement *el, bool line_form,
                       EddiError *err) {
  char *text = NULL;
  int rc = script_expr_value(run, node->a, el, &text, err);
  if (rc < 0) return rc;
  ScriptFile *file = action__file(run, el);
  if (el->kind == SEL_FILE) {
    /* After the file's imports, else at its end. */
    EddiImportPlan plan;
    rc = action__import_plan(run, file, "", &plan, err);
    if (rc < 0) {
      eddi_free(text);
      return rc;
    }
    action__insert_line(run, el, plan.after_imports ? plan.at : file->text.len, "", text);
    eddi_import_plan_free(&plan);
  } else {
    char *indent = action__indent(file, el->start);
    size_t at = action__line_after(file, el->end > el->start ? el->end - 1 : el->end);
    action__insert_line(run, el, at, indent, text);
    eddi_free(indent);
  }
  if (line_form) run->counts.lines_added++;
  else run->counts.added++;
  eddi_free(text);
  return 0;
}

int script_action_run(ScriptRun *run, const ScriptNode *node, ScriptElement *el, EddiError *err) {
  script_element_refresh(&run->files, el);
  switch (node->action) {
  case SA_REPLACE_WITH: return action__replace_with(run, node, el, err);
  case SA_REPLACE_TEXT: return action__replace_text(run, node, el, err);
  case SA_FLAG:
    run->counts.flagged[el->kind]++;
    return action__note(run, node, el, &run->flags, "", err);
  case SA_SUGGEST:
    run->counts.suggested++;
    return action__note(run, node, el, &run->suggestions, "suggest ", err);
  case SA_REMOVE: return action__remove(run, node, el, err);
  case SA_ADD: return action__add(run, node, el, false, err);
  case SA_ADD_LINE: return action__add(run, node, el, true, err);
  case SA_ADD_IMPORT: return action__add_import(run, node, el, err);
  }
  return 0;
}
