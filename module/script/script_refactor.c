/* script_refactor.c - refactorings as script statements:
 * `rename_class A B`, `extract_method($method, $method.name + "_part")`,
 * `Refactor Signature "f(a)" "f(a, b=1)"`.
 *
 * A refactoring inside a script is planned by the refactoring engine
 * itself (refactor/rename.h for the renames, refactor/ops.h for the rest)
 * over the overlay's texts, with the same checks as the command: name
 * resolution, conflicts, the differential check. Its result goes into the
 * overlay, so later statements see the refactored code, and nothing is
 * written until the script ends. A rename's edits are applied one by one,
 * so the sets computed before it keep their places; another operation's
 * new text replaces the part of each file that differs.
 *
 * A last argument Leave (any operation) or Unsure (the renames) says what
 * to do with the references the plan cannot resolve; without one, a plan
 * that leaves some is refused, as the command refuses it (refactor/plan.h).
 *
 * An argument that is an element (`$method` bound by foreach or let) names
 * it exactly (path.py:Class.method), so that a name two classes share is
 * not ambiguous; for Extract it is the function's body, the lines to
 * extract. */
#include "script/script_run.h"

#include <strings.h>

#include "core/utf8.h"
#include "refactor/ops.h"
#include "refactor/rename.h"
#include "syntax/syntax.h"

/* ---------------------------------------------------------------- arguments */

/* The element an argument names: $x bound to a set (its first element)
 * or to the element being visited; NULL for any other argument. */
static const ScriptElement *refactor__element(ScriptRun *run, const ScriptExpr *e) {
  if (e->kind != SE_VAR || e->field) return NULL;
  for (size_t i = run->vars.len; i-- > 0;) {
    const ScriptVar *var = &run->vars.items[i];
    if (strcmp(var->name, e->text) != 0) continue;
    return var->is_set && var->set.len ? &var->set.items[0] : NULL;
  }
  return NULL;
}

/* What a refactoring is told of a definition element: "path:Class.name"
 * or "path:name"; NULL for elements that are no definition. */
static char *refactor__spec(ScriptRun *run, const ScriptElement *el) {
  if (el->kind != SEL_FUNCTION && el->kind != SEL_METHOD && el->kind != SEL_CLASS &&
      el->kind != SEL_VARIABLE)
    return NULL;
  const ScriptFile *file = run->files.files.items[el->file];
  StrBuf spec = {0};
  eddi_strbuf_printf(&spec, "%s:%s%s%s", file->rel, el->owner ? el->owner : "",
                     el->owner ? "." : "", el->name);
  return eddi_strbuf_take(&spec);
}

/* A function element's body as Extract's region: its file and 0-based
 * inclusive lines. */
static int refactor__body_lines(ScriptRun *run, const ScriptElement *el, char **path,
                                uint32_t *first, uint32_t *last, EddiError *err) {
  ScriptFile *file = run->files.files.items[el->file];
  EddiSyntax *syntax =
      el->kind == SEL_FUNCTION || el->kind == SEL_METHOD ? script_file_syntax(&run->files, file)
                                                         : NULL;
  const EddiElement *def = NULL;
  for (size_t i = 0; syntax && i < syntax->elements.len && !def; i++) {
    const EddiElement *e = &syntax->elements.items[i];
    if (e->start == el->start && e->has_body) def = e;
  }
  if (!def)
    return eddi_error_set(err, EDDI_EINVAL, "%s is no function with a body to extract",
                          el->name ? el->name : "The element");
  size_t line, col, end_line;
  eddi_utf8_line_col(file->text.data, file->text.len, def->body_start, &line, &col);
  eddi_utf8_line_col(file->text.data, file->text.len, def->body_end > def->body_start
                                                         ? def->body_end - 1 : def->body_start,
                    &end_line, &col);
  *path = eddi_strdup(file->rel);
  *first = (uint32_t)line, *last = (uint32_t)end_line;
  return 0;
}

/* Extract's region written as text: "a:b" (the current file's lines) or
 * "path:a:b". */
static int refactor__region_text(ScriptRun *run, const char *region, char **path,
                                 uint32_t *first, uint32_t *last, EddiError *err) {
  const char *colon = strrchr(region, ':');
  const char *before = colon;
  while (before && before > region && before[-1] >= '0' && before[-1] <= '9') before--;
  bool with_path = before && before > region + 1 && before[-1] == ':';
  const char *lines = with_path ? before : region;
  unsigned long a, b;
  char tail;
  if (sscanf(lines, "%lu:%lu%c", &a, &b, &tail) != 2 || b < a || b > UINT32_MAX) {
    eddi_error_set(err, EDDI_EINVAL, "Extract takes a function of a set or lines A:B, not %s", region);
    eddi_error_hint(err, "foreach $f in function where name == \"%s\" { extract_method($f, \"new_name\") }",
                    region);
    return EDDI_EINVAL;
  }
  if (!with_path && !run->current)
    return eddi_error_set(err, EDDI_EINVAL, "Extract needs an open file, or path.py:A:B");
  *path = with_path ? eddi_strndup(region, (size_t)(before - 1 - region)) : eddi_strdup(run->current);
  *first = (uint32_t)a, *last = (uint32_t)b;
  return 0;
}

/* ---------------------------------------------------------------- the operations */

typedef struct {
  const char *op;
  RefOpKind kind; /* REF_OP_UNSUPPORTED for the renames (rename.h plans them) */
  size_t args;    /* how many it takes (at least, for the class operations) */
  bool rest;      /* the arguments after the first go to the plan as one, space-joined
                   * (ops.h's RefOpKind says what each reads there) */
  const char *usage;
  const char *done[2]; /* the reply's words for one and for several */
} RefactorForm;

/* Every operation a script may call; a script's counts are by index, and
 * its reply names them in this order ("2 methods extracted, 1 class
 * renamed", as the design words it). */
static const RefactorForm refactor__forms[] = {
    {"Signature", REF_OP_SIGNATURE, 2, false, "a signature and the new one: \"f(a)\" \"f(a, b=1)\"",
     {"signature changed", "signatures changed"}},
    {"Extract_Method", REF_OP_EXTRACT, 2, false, "a function (or lines a:b) and the new name",
     {"method extracted", "methods extracted"}},
    {"ExtractFunction", REF_OP_EXTRACT, 2, false, "a function (or lines a:b) and the new name",
     {"function extracted", "functions extracted"}},
    {"InlineFunction", REF_OP_INLINE_FUNCTION, 1, false, "a function",
     {"function inlined", "functions inlined"}},
    {"Inline_Variable", REF_OP_INLINE_VARIABLE, 1, false, "a variable",
     {"variable inlined", "variables inlined"}},
    {"Move_Method", REF_OP_MOVE_METHOD, 2, false, "A.m and B.m", {"method moved", "methods moved"}},
    {"Extract_Interface", REF_OP_EXTRACT_INTERFACE, 2, false, "a class and the interface's name",
     {"interface extracted", "interfaces extracted"}},
    {"ExtractClass", REF_OP_EXTRACT_CLASS, 3, true, "a class, the new class and its members (m1,m2)",
     {"class extracted", "classes extracted"}},
    {"Split_Class", REF_OP_SPLIT_CLASS, 3, true, "a class, the new class and its members (m1,m2)",
     {"class split", "classes split"}},
    {"Merge_Classes", REF_OP_MERGE_CLASSES, 3, true, "two classes and the merged class's name",
     {"classes merged", "classes merged"}},
    {"Change_Inheritance", REF_OP_CHANGE_INHERITANCE, 2, true,
     "a class, [its old base] and its new base", {"base changed", "bases changed"}},
    {"RenameSymbol", REF_OP_UNSUPPORTED, 2, false, "a name and a new name",
     {"symbol renamed", "symbols renamed"}},
    {"Rename_Class", REF_OP_UNSUPPORTED, 2, false, "a name and a new name",
     {"class renamed", "classes renamed"}},
};
#define REFACTOR_FORM_COUNT (sizeof refactor__forms / sizeof refactor__forms[0])
_Static_assert(REFACTOR_FORM_COUNT <= SCRIPT_REFACTOR_KINDS, "ScriptCounts.refactored is too short");

const char *script_refactor_phrase(size_t kind, size_t count) {
  return kind < REFACTOR_FORM_COUNT ? refactor__forms[kind].done[count != 1] : "refactored";
}

/* The overlay's file a plan's change is for, or NULL with err set. */
static ScriptFile *refactor__changed_file(ScriptRun *run, const RefIndex *index,
                                          const RefChange *change, EddiError *err) {
  uint32_t f;
  if (script_files_get(&run->files, index->sources.items[change->source].path, &f, err) < 0)
    return NULL;
  return run->files.files.items[f];
}

/* Put text (the file's new text) into the overlay: only the part between
 * the common beginning and end changes, so the elements outside it keep
 * their places. */
static void refactor__put(ScriptRun *run, ScriptFile *file, const char *text, size_t len) {
  size_t old_len = file->text.len, head = 0, tail = 0;
  while (head < old_len && head < len && file->text.data[head] == text[head]) head++;
  while (tail < old_len - head && tail < len - head &&
         file->text.data[old_len - 1 - tail] == text[len - 1 - tail])
    tail++;
  if (head == old_len && head == len) return;
  script_file_replace(&run->files, file, head, old_len - tail, text + head, len - head - tail);
}

/* Plan the operation form names with the arguments (strings; elements
 * where an argument named one) and put its texts into the overlay. */
static int refactor__op(ScriptRun *run, const RefactorForm *form, ScriptStrings *all,
                        const ScriptElement **elements, EddiError *err) {
  /* The arguments without a last Leave past the operation's own. */
  ScriptStrings view = *all, *args = &view;
  bool leave = view.len > form->args && strcasecmp(view.items[view.len - 1], "Leave") == 0;
  if (leave) view.len--;
  /* extract_method name lines a:b, the command's word order. */
  bool words = args->len == 3 && strcasecmp(args->items[1], "lines") == 0;
  bool count_ok = form->rest ? args->len >= form->args && args->len <= form->args + 1
                             : args->len == form->args || (form->kind == REF_OP_EXTRACT && words);
  if (!count_ok)
    return eddi_error_set(err, EDDI_EINVAL, "Refactor %s takes %s", form->op, form->usage);
  StrBuf rest = {0};
  for (size_t i = 1; form->rest && i < args->len; i++)
    eddi_strbuf_printf(&rest, "%s%s", i > 1 ? " " : "", args->items[i]);
  RefOpArgs op = {.spec = args->items[0],
                  .other = form->rest ? rest.data : args->len > 1 ? args->items[1] : NULL};
  char *spec = elements[0] ? refactor__spec(run, elements[0]) : NULL;
  char *path = NULL;
  int rc = 0;
  if (form->kind == REF_OP_EXTRACT) {
    const char *region = words ? args->items[2] : args->items[0];
    op.name = words ? args->items[0] : args->items[1];
    rc = !words && elements[0]
             ? refactor__body_lines(run, elements[0], &path, &op.first, &op.last, err)
             : refactor__region_text(run, region, &path, &op.first, &op.last, err);
    op.path = path;
  } else if (spec) {
    op.spec = spec;
  }
  RefIndex *index;
  RefProgram *program;
  if (rc == 0) rc = script_run_program(run, &index, &program, err);
  RefPlan plan = {0};
  StrBuf facts = {0};
  if (rc == 0) rc = ref_op_plan(index, form->kind, form->op, &op, &plan, &facts, err);
  if (rc == 0) rc = ref_plan_unsure_check(&plan, leave ? REF_UNSURE_LEAVE : 0, err);
  for (size_t i = 0; rc == 0 && i < plan.changes.len; i++) {
    const RefChange *change = &plan.changes.items[i];
    ScriptFile *file = refactor__changed_file(run, index, change, err);
    if (!file) rc = err->code;
    else refactor__put(run, file, change->after, change->after_len);
  }
  if (rc == 0) {
    /* "Extract_Method load load_body: Extracted load_body; 1 call", the
     * operation's own facts on one line. */
    StrBuf note = {0};
    eddi_strbuf_printf(&note, "%s", form->op);
    for (size_t i = 0; i < args->len; i++) eddi_strbuf_printf(&note, " %s", args->items[i]);
    const char *sep = ": ";
    for (const char *line = facts.data; line && *line;) {
      const char *end = strchr(line, '\n');
      size_t len = end ? (size_t)(end - line) : strlen(line);
      if (len) eddi_strbuf_printf(&note, "%s%.*s", sep, (int)len, line), sep = "; ";
      line = end ? end + 1 : line + len;
    }
    if (plan.unsure_count)
      eddi_strbuf_printf(&note, "; %zu unsure left unchanged: %s", plan.unsure_count,
                         plan.unsure.data);
    script_run_keep(run, &run->notes, eddi_strbuf_take(&note));
    run->counts.refactored[form - refactor__forms]++;
  }
  ref_plan_free(&plan);
  eddi_strbuf_free(&facts);
  eddi_free(spec);
  eddi_free(path);
  eddi_strbuf_free(&rest);
  return rc;
}

/* A rename: its edits one by one, so sets computed before it keep their
 * places. */
static int refactor__rename(ScriptRun *run, const RefactorForm *form, ScriptStrings *args,
                            const ScriptElement **elements, EddiError *err) {
  const char *op = form->op;
  bool klass = strcmp(op, "Rename_Class") == 0;
  bool unsure = args->len == 3 && strcasecmp(args->items[2], "Unsure") == 0;
  bool leave = args->len == 3 && strcasecmp(args->items[2], "Leave") == 0;
  if (args->len != 2 && !unsure && !leave)
    return eddi_error_set(err, EDDI_EINVAL, "Refactor %s takes a name and a new name", op);
  RefIndex *index;
  RefProgram *program;
  int rc = script_run_program(run, &index, &program, err);
  if (rc < 0) return rc;
  char *spec = elements[0] ? refactor__spec(run, elements[0]) : NULL;
  RefPlan plan = {0};
  unsigned way = (unsure ? REF_UNSURE_CHANGE : 0) | (leave ? REF_UNSURE_LEAVE : 0);
  rc = ref_rename_plan(index, spec ? spec : args->items[0], args->items[1],
                       way | (klass ? REF_RENAME_CLASS : 0), &plan, err);
  if (rc == 0) rc = ref_plan_unsure_check(&plan, way, err);
  eddi_free(spec);
  if (rc == 0 && (plan.moved_from || plan.carry_from.len))
    rc = eddi_error_set(err, EDDI_EINVAL, "Refactor %s moves files: run it outside a script", op);
  size_t new_len = rc == 0 ? strlen(plan.new_name) : 0;
  for (size_t i = 0; rc == 0 && i < plan.changes.len; i++) {
    const RefChange *change = &plan.changes.items[i];
    ScriptFile *file = refactor__changed_file(run, index, change, err);
    if (!file) rc = err->code;
    for (size_t k = file ? change->edits.len : 0; k-- > 0;)
      script_file_replace(&run->files, file, change->edits.items[k].start,
                          change->edits.items[k].end, plan.new_name, new_len);
  }
  if (rc == 0) {
    StrBuf note = {0};
    eddi_strbuf_printf(&note, "%s %s %s: %zu references in %zu files", op, args->items[0],
                       args->items[1], plan.references, plan.changes.len);
    if (plan.unsure_count)
      eddi_strbuf_printf(&note, "; %zu unsure %s: %s", plan.unsure_count,
                         unsure ? "renamed too" : "left unchanged", plan.unsure.data);
    script_run_keep(run, &run->notes, eddi_strbuf_take(&note));
    run->counts.refactored[form - refactor__forms]++;
  }
  ref_plan_free(&plan);
  return rc;
}

int script_refactor_run(ScriptRun *run, const char *op, ScriptStrings *args,
                        const ScriptExpr *const *exprs, EddiError *err) {
  if (args->len == 0) return eddi_error_set(err, EDDI_EINVAL, "Refactor %s needs arguments", op);
  const ScriptElement **elements = eddi_calloc(args->len, sizeof *elements);
  for (size_t i = 0; i < args->len; i++) elements[i] = exprs ? refactor__element(run, exprs[i]) : NULL;
  int rc = 1;
  for (size_t i = 0; rc > 0 && i < REFACTOR_FORM_COUNT; i++) {
    const RefactorForm *form = &refactor__forms[i];
    if (strcmp(op, form->op) != 0) continue;
    rc = form->kind == REF_OP_UNSUPPORTED ? refactor__rename(run, form, args, elements, err)
                                          : refactor__op(run, form, args, elements, err);
  }
  if (rc > 0) rc = eddi_error_set(err, EDDI_EINVAL, "Refactor %s is not built yet", op);
  eddi_free(elements);
  return rc;
}
