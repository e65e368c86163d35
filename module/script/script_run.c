/* script_run.c - the interpreter: statements over the overlay.
 *
 * Statements run in order against the overlay (script_files.c). A foreach
 * computes its set once, then visits each element with the element's
 * offsets moved through the edits made since (so replacing one call does
 * not lose the next one in the same file). Errors are values: a failing
 * statement returns its error to the block around it, which asks the
 * script's on_error rule (rollback by default: the whole script fails and
 * nothing is written; stop: the script ends there and keeps what it did;
 * continue: the statement is skipped) unless a try is around it, which
 * puts the files back as they were when the try began and runs its catch.
 * Running out of the step or the time budget is never caught: the script
 * fails and is rolled back. */
#include "script/script_run.h"

#include <strings.h>

/* ---------------------------------------------------------------- budgets */

/* What one kept string costs besides its bytes: its pointer and the
 * allocator's header, about. */
#define SCRIPT_KEPT_OVERHEAD 32

void script_run_keep(ScriptRun *self, ScriptStrings *list, char *text) {
  self->bytes_made += strlen(text) + SCRIPT_KEPT_OVERHEAD;
  array_push(list, text);
}

static int run__bytes_spent(ScriptRun *self, ScriptPos pos, EddiError *err) {
  self->budget_spent = true;
  eddi_error_set(err, EDDI_ETOOBIG,
                 "Script line %zu:%zu: byte budget spent (%zu bytes of flags, notes, values and "
                 "edits, script_max_bytes); nothing written", pos.line, pos.col, self->max_bytes);
  eddi_error_hint(err, "Flag fewer elements (narrow the set with where), or raise the server's "
                  "--script-max-bytes");
  return EDDI_ETOOBIG;
}

int script_run_value_fits(ScriptRun *self, ScriptPos pos, size_t len, EddiError *err) {
  if (self->bytes_made + self->files.bytes_added + len <= self->max_bytes) return 0;
  return run__bytes_spent(self, pos, err);
}

/* Spending a budget sets budget_spent: no try and no on_error rule may
 * swallow it. */
static int run__step(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  if (self->budget_spent) return EDDI_ETOOBIG;
  if (self->bytes_made + self->files.bytes_added > self->max_bytes)
    return run__bytes_spent(self, node->pos, err);
  if (++self->steps > self->max_steps)
    return self->budget_spent = true, eddi_error_set(err, EDDI_ETOOBIG,
                          "Script line %zu:%zu: step budget spent (%zu steps, script_max_steps); "
                          "nothing written", node->pos.line, node->pos.col, self->max_steps);
  self->at = node->pos;
  eddi_work_done("statements run", 1);
  return script_run_in_time(self, err);
}

int script_run_in_time(ScriptRun *self, EddiError *err) {
  if (self->budget_spent) return EDDI_ETOOBIG;
  /* A cancelled request: never caught, like a spent budget. */
  if (eddi_work_stopping())
    return self->budget_spent = true,
           eddi_error_set(err, EDDI_ESTATE, "Script line %zu:%zu: cancelled; nothing written",
                          self->at.line, self->at.col);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (now.tv_sec > self->deadline.tv_sec ||
      (now.tv_sec == self->deadline.tv_sec && now.tv_nsec > self->deadline.tv_nsec))
    return self->budget_spent = true, eddi_error_set(err, EDDI_ETOOBIG,
                          "Script line %zu:%zu: time budget spent (%llu ms, script_max_ms); "
                          "nothing written", self->at.line, self->at.col,
                          (unsigned long long)self->max_ms);
  return 0;
}

int script_run_program(ScriptRun *self, RefIndex **index, RefProgram **program, EddiError *err) {
  self->files.deadline = &self->deadline;
  int rc = script_files_program(&self->files, index, program, err);
  if (rc == EDDI_ETOOBIG && script_run_in_time(self, err) < 0) return EDDI_ETOOBIG;
  return rc;
}

/* ---------------------------------------------------------------- variables */

static void run__var_free(ScriptVar *var) {
  eddi_free(var->name);
  script_set_free(&var->set);
  eddi_free(var->text);
  eddi_free(var->query_source);
}

static void run__pop_vars(ScriptRun *self, size_t keep) {
  while (self->vars.len > keep) run__var_free(&self->vars.items[--self->vars.len]);
}

static ScriptVar *run__find_var(ScriptRun *self, const char *name) {
  for (size_t i = self->vars.len; i-- > 0;)
    if (strcmp(self->vars.items[i].name, name) == 0) return &self->vars.items[i];
  return NULL;
}

/* A variable of an earlier message: its query evaluated now. */
static int run__load_kept(ScriptRun *self, const char *name, EddiError *err) {
  const EddiScriptVar *kept = self->state ? eddi_script_state_var(self->state, name) : NULL;
  if (!kept) {
    eddi_error_set(err, EDDI_ENOENT, "$%s is not set", name);
    eddi_error_hint(err, "Set it first: let $%s = <set>", name);
    return EDDI_ENOENT;
  }
  ScriptVar var = {.name = eddi_strdup(name)};
  int rc = 0;
  if (kept->query) {
    ScriptQuery *q = NULL;
    rc = eddi_script_parse_query(kept->query, strlen(kept->query), &q, err);
    if (rc == 0) rc = script_query_eval(self, q, &var.set, err);
    eddi_script_query_free(q);
    var.is_set = true;
    var.query_source = eddi_strdup(kept->query);
  } else {
    var.text = eddi_strdup(kept->text ? kept->text : "");
  }
  if (rc < 0) {
    run__var_free(&var);
    return rc;
  }
  array_push(&self->vars, var);
  return 0;
}

/* Make sure the variables a query reads are loaded. */
static int run__need_var(ScriptRun *self, const char *name, EddiError *err) {
  return run__find_var(self, name) ? 0 : run__load_kept(self, name, err);
}

int script_run_need_var(ScriptRun *self, const char *name, EddiError *err) {
  return run__need_var(self, name, err);
}

/* ---------------------------------------------------------------- files */

/* Put every file back as texts were (a try's start: snapshot; NULL: the
 * script's start). */
static void run__restore(ScriptRun *self, const ScriptStrings *snapshot, size_t snapshot_files) {
  for (size_t i = 0; i < self->files.files.len; i++) {
    ScriptFile *file = self->files.files.items[i];
    const char *text = snapshot && i < snapshot_files ? snapshot->items[i] : file->original;
    size_t len = snapshot && i < snapshot_files ? strlen(text) : file->original_len;
    if (file->text.len == len && memcmp(file->text.data, text, len) == 0) continue;
    script_file_replace(&self->files, file, 0, file->text.len, text, len);
  }
}

/* ---------------------------------------------------------------- statements */

/* The counts of edits go back to those of before (a try's start, or none
 * for rollback all); flags and suggestions stay, as their notes do. */
static void run__forget_edits(ScriptRun *self, const ScriptCounts *before) {
  ScriptCounts now = self->counts;
  self->counts = *before;
  memcpy(self->counts.flagged, now.flagged, sizeof now.flagged);
  self->counts.notes_flagged = now.notes_flagged;
  self->counts.suggested = now.suggested;
  self->counts.elements = now.elements;
}

/* Put "Script line L:C: " before an error of the engine's layers, keeping
 * its hint (the candidates of an ambiguous name). */
static int run__at(int rc, ScriptPos pos, EddiError *err) {
  if (strncmp(err->what, "Script line", 11) == 0) return rc;
  char what[EDDI_ERROR_MAX], hint[EDDI_ERROR_MAX];
  snprintf(what, sizeof what, "%s", err->what);
  snprintf(hint, sizeof hint, "%s", err->hint);
  eddi_error_set(err, rc, "Script line %zu:%zu: %s", pos.line, pos.col, what);
  if (hint[0]) eddi_error_hint(err, "%s", hint);
  return rc;
}

static int run__node(ScriptRun *self, const ScriptNode *node, EddiError *err);

/* The element a statement acts on: the innermost foreach's, else the
 * current file's. */
static int run__element(ScriptRun *self, const ScriptNode *node, ScriptElement **el,
                        ScriptElement *scratch, EddiError *err) {
  if (self->visiting.len) {
    *el = array_back(&self->visiting);
    return 0;
  }
  if (!self->current)
    return eddi_error_set(err, EDDI_ESTATE,
                          "Script line %zu:%zu: nothing to act on: use it inside foreach or use, "
                          "or open a file", node->pos.line, node->pos.col);
  uint32_t f;
  int rc = script_files_get(&self->files, self->current, &f, err);
  if (rc < 0) return rc;
  ScriptFile *file = self->files.files.items[f];
  *scratch = (ScriptElement){.kind = SEL_FILE, .file = f, .version = script_file_version(file),
                             .end = file->text.len, .name = eddi_strdup(file->rel)};
  *el = scratch;
  return 0;
}

/* Visit each element of set with body (var, when given, bound to it). */
static int run__visit(ScriptRun *self, const char *var, ScriptSet *set, const ScriptNode *body,
                      EddiError *err) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < set->len; i++) {
    ScriptElement el;
    script_element_copy(&el, &set->items[i]);
    script_element_refresh(&self->files, &el);
    array_push(&self->visiting, el);
    size_t vars = self->vars.len;
    if (var) {
      ScriptVar v = {.name = eddi_strdup(var), .is_set = true};
      ScriptElement copy;
      script_element_copy(&copy, &el);
      array_push(&v.set, copy);
      array_push(&self->vars, v);
    }
    self->counts.elements++;
    rc = run__node(self, body, err);
    run__pop_vars(self, vars);
    script_element_free(&self->visiting.items[--self->visiting.len]);
  }
  return rc;
}

static int run__foreach(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  const ScriptQuery *q = node->query;
  int rc = 0;
  if (q->kind == SQ_VAR || q->arg_var) rc = run__need_var(self, q->arg, err);
  ScriptSet set = {0};
  if (rc == 0) rc = script_query_eval(self, q, &set, err);
  if (rc < 0) run__at(rc, q->pos, err);
  if (rc == 0) rc = run__visit(self, node->var, &set, node->body, err);
  script_set_free(&set);
  return rc;
}

static int run__if(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  ScriptElement scratch = {0}, *el = NULL;
  int rc = run__element(self, node, &el, &scratch, err);
  bool holds = false;
  if (rc == 0) rc = script_cond_eval(self, node->cond, el, &holds, err);
  script_element_free(&scratch);
  if (rc < 0) return rc;
  if (holds) return run__node(self, node->body, err);
  return node->else_body ? run__node(self, node->else_body, err) : 0;
}

static int run__let(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  ScriptVar var = {.name = eddi_strdup(node->var)};
  int rc = 0;
  if (node->query) {
    if (node->query->kind == SQ_VAR || node->query->arg_var)
      rc = run__need_var(self, node->query->arg, err);
    if (rc == 0) rc = script_query_eval(self, node->query, &var.set, err);
    var.is_set = true;
    var.query_source = eddi_strdup(node->query->source);
  } else {
    ScriptElement *el = self->visiting.len ? array_back(&self->visiting) : NULL;
    rc = script_expr_value(self, node->value, el, &var.text, err);
    if (rc == 0) self->bytes_made += strlen(var.text) + SCRIPT_KEPT_OVERHEAD;
  }
  if (rc < 0) {
    run__var_free(&var);
    return rc;
  }
  /* A let at the script's top level replaces the variable it names. */
  for (size_t i = 0; i < self->vars.len; i++)
    if (strcmp(self->vars.items[i].name, node->var) == 0) {
      run__var_free(&self->vars.items[i]);
      self->vars.items[i] = var;
      return 0;
    }
  array_push(&self->vars, var);
  return 0;
}

static int run__use(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  int rc = run__need_var(self, node->var, err);
  if (rc < 0) return run__at(rc, node->pos, err);
  ScriptVar *var = run__find_var(self, node->var);
  if (!var->is_set)
    return eddi_error_set(err, EDDI_EINVAL, "Script line %zu:%zu: $%s holds a string, not a set",
                          node->pos.line, node->pos.col, node->var);
  ScriptSet set = {0};
  for (size_t i = 0; i < var->set.len; i++) {
    ScriptElement copy;
    script_element_copy(&copy, &var->set.items[i]);
    array_push(&set, copy);
  }
  /* Inside the action, $name is the element being visited. */
  rc = run__visit(self, node->var, &set, node->body, err);
  script_set_free(&set);
  return rc;
}

static int run__try(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  ScriptStrings snapshot = {0};
  for (size_t i = 0; i < self->files.files.len; i++) {
    ScriptFile *file = self->files.files.items[i];
    array_push(&snapshot, eddi_strndup(file->text.data, file->text.len));
  }
  size_t files = snapshot.len;
  ScriptCounts counts = self->counts;
  ScriptOnError saved = self->on_error;
  self->on_error = SCRIPT_ON_ERROR_ROLLBACK;
  int rc = run__node(self, node->body, err);
  self->on_error = saved;
  if (rc < 0 && !self->budget_spent) {
    run__restore(self, &snapshot, files);
    /* What the try did is undone: so are its counts, but for its notes. */
    run__forget_edits(self, &counts);
    StrBuf note = {0};
    eddi_strbuf_printf(&note, "Caught: %s", err->what);
    script_run_keep(self, &self->notes, eddi_strbuf_take(&note));
    eddi_error_clear(err);
    rc = run__node(self, node->else_body, err);
  }
  for (size_t i = 0; i < snapshot.len; i++) eddi_free(snapshot.items[i]);
  array_free(&snapshot);
  return rc;
}

static int run__refactor(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  ScriptStrings args = {0};
  int rc = 0;
  ScriptElement *el = self->visiting.len ? array_back(&self->visiting) : NULL;
  for (size_t i = 0; rc == 0 && i < node->args.len; i++) {
    const ScriptExpr *e = node->args.items[i];
    if (e->kind == SE_VAR && !e->field) rc = run__need_var(self, e->text, err);
    char *value = NULL;
    if (rc == 0) rc = script_expr_value(self, e, el, &value, err);
    if (rc == 0) array_push(&args, value);
  }
  if (rc == 0)
    rc = script_refactor_run(self, node->text, &args, (const ScriptExpr *const *)node->args.items,
                             err);
  if (rc < 0) run__at(rc, node->pos, err);
  for (size_t i = 0; i < args.len; i++) eddi_free(args.items[i]);
  array_free(&args);
  return rc;
}

static int run__host_missing(const ScriptNode *node, EddiError *err) {
  return eddi_error_set(err, EDDI_ESTATE, "Script line %zu:%zu: this statement needs the session",
                        node->pos.line, node->pos.col);
}

static int run__block(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  size_t vars = self->vars.len;
  int rc = 0;
  for (size_t i = 0; i < node->children.len; i++) {
    rc = run__node(self, node->children.items[i], err);
    if (self->stopped || self->budget_spent) break;
    if (rc == 0) continue;
    if (self->on_error == SCRIPT_ON_ERROR_CONTINUE) {
      StrBuf note = {0};
      eddi_strbuf_printf(&note, "Skipped: %s", err->what);
      script_run_keep(self, &self->notes, eddi_strbuf_take(&note));
      self->failures_continued++;
      eddi_error_clear(err);
      rc = 0;
      continue;
    }
    if (self->on_error == SCRIPT_ON_ERROR_STOP) {
      StrBuf note = {0};
      eddi_strbuf_printf(&note, "Stopped: %s", err->what);
      script_run_keep(self, &self->notes, eddi_strbuf_take(&note));
      eddi_error_clear(err);
      self->stopped = true;
      rc = 0;
    }
    break;
  }
  /* Variables a block's let made are the block's, except at the top. */
  if (node != self->root) run__pop_vars(self, vars);
  return rc;
}

static int run__node(ScriptRun *self, const ScriptNode *node, EddiError *err) {
  int rc = run__step(self, node, err);
  if (rc < 0) return rc;
  switch (node->kind) {
  case SN_BLOCK: return run__block(self, node, err);
  case SN_FOREACH: return run__foreach(self, node, err);
  case SN_IF: return run__if(self, node, err);
  case SN_LET: return run__let(self, node, err);
  case SN_USE: return run__use(self, node, err);
  case SN_TRY: return run__try(self, node, err);
  case SN_ACTION: {
    if ((node->action == SA_FLAG || node->action == SA_SUGGEST) && !self->visiting.len &&
        !self->current) {
      /* A note about the script itself (a catch's "manual work needed"). */
      char *text = NULL;
      rc = node->a ? script_expr_value(self, node->a, NULL, &text, err) : 0;
      if (rc < 0) return run__at(rc, node->pos, err);
      if (!text) text = eddi_strdup(node->text);
      script_run_keep(self, node->action == SA_FLAG ? &self->flags : &self->suggestions, text);
      if (node->action == SA_FLAG) self->counts.notes_flagged++;
      else self->counts.suggested++;
      return 0;
    }
    ScriptElement scratch = {0}, *el = NULL;
    rc = run__element(self, node, &el, &scratch, err);
    if (rc == 0) rc = script_action_run(self, node, el, err);
    script_element_free(&scratch);
    return rc < 0 ? run__at(rc, node->pos, err) : rc;
  }
  case SN_REFACTOR: return run__refactor(self, node, err);
  case SN_COMMAND: {
    if (!self->host.command) return run__host_missing(node, err);
    char *reply = NULL;
    rc = self->host.command(self->host.context, self, node->text, &reply, err);
    if (rc < 0) return run__at(rc, node->pos, err);
    if (rc == 0) {
      self->counts.commands++;
      if (reply) script_run_keep(self, &self->notes, reply);
    }
    return rc;
  }
  case SN_COLLECT: {
    char *name = NULL;
    rc = script_expr_value(self, node->value, NULL, &name, err);
    if (rc == 0) eddi_free(self->collect_name), self->collect_name = name;
    return rc;
  }
  case SN_CHANGESET: {
    char *name = NULL;
    rc = script_expr_value(self, node->value, NULL, &name, err);
    if (rc == 0 && !self->host.changeset) rc = run__host_missing(node, err);
    if (rc == 0) rc = self->host.changeset(self->host.context, self, node->text, name, err);
    eddi_free(name);
    return rc < 0 ? run__at(rc, node->pos, err) : rc;
  }
  case SN_ROLLBACK_ALL:
    run__restore(self, NULL, 0);
    run__forget_edits(self, &(ScriptCounts){0});
    self->rolled_back = true;
    return 0;
  case SN_STORE:
  case SN_GOTO:
  case SN_PUSH:
  case SN_POP: {
    char *name = NULL;
    if (node->value) rc = script_expr_value(self, node->value, NULL, &name, err);
    else if (node->text) name = eddi_strdup(node->text);
    if (rc == 0 && !self->host.position) rc = run__host_missing(node, err);
    if (rc == 0) rc = self->host.position(self->host.context, self, node->kind, name, err);
    eddi_free(name);
    return rc < 0 ? run__at(rc, node->pos, err) : rc;
  }
  case SN_LIMIT: {
    unsigned long long n = (unsigned long long)node->value->number;
    bool steps = strcasecmp(node->text, "steps") == 0;
    unsigned long long cap = steps ? (unsigned long long)self->steps_cap : self->ms_cap;
    if (n > cap) {
      /* A sender cannot raise its budget past the server's ceiling; no
       * try or on_error rule may swallow the refusal. */
      self->budget_spent = true;
      eddi_error_set(err, EDDI_ETOOBIG,
                     "Script line %zu:%zu: limit %s %llu is above the server's ceiling of %llu%s "
                     "(script_max_%s); nothing written", node->pos.line, node->pos.col, node->text,
                     n, cap, steps ? " steps" : " ms", steps ? "steps" : "ms");
      eddi_error_hint(err, "Ask for at most %llu, or start eddi-server with --script-max-%s", cap,
                      steps ? "steps" : "ms");
      return EDDI_ETOOBIG;
    }
    if (steps) {
      self->max_steps = (size_t)n;
    } else {
      self->max_ms = n;
      self->deadline = self->start;
      self->deadline.tv_sec += (time_t)(self->max_ms / 1000);
      self->deadline.tv_nsec += (long)(self->max_ms % 1000) * 1000000L;
      if (self->deadline.tv_nsec >= 1000000000L) self->deadline.tv_sec++, self->deadline.tv_nsec -= 1000000000L;
    }
    return 0;
  }
  case SN_UNCHECKED:
    self->unchecked = true;
    return 0;
  case SN_ON_ERROR:
    self->on_error = strcasecmp(node->text, "continue") == 0 ? SCRIPT_ON_ERROR_CONTINUE
                     : strcasecmp(node->text, "stop") == 0   ? SCRIPT_ON_ERROR_STOP
                                                             : SCRIPT_ON_ERROR_ROLLBACK;
    return 0;
  }
  return 0;
}

int script_run_exec(ScriptRun *self, const Script *script, EddiError *err) {
  clock_gettime(CLOCK_MONOTONIC, &self->start);
  self->deadline = self->start;
  self->deadline.tv_sec += (time_t)(self->max_ms / 1000);
  self->deadline.tv_nsec += (long)(self->max_ms % 1000) * 1000000L;
  if (self->deadline.tv_nsec >= 1000000000L) self->deadline.tv_sec++, self->deadline.tv_nsec -= 1000000000L;
  self->root = script->root;
  return run__node(self, script->root, err);
}

static void run__strings_free(ScriptStrings *list) {
  for (size_t i = 0; i < list->len; i++) eddi_free(list->items[i]);
  array_free(list);
}

void script_run_free(ScriptRun *self) {
  run__pop_vars(self, 0);
  array_free(&self->vars);
  for (size_t i = 0; i < self->visiting.len; i++) script_element_free(&self->visiting.items[i]);
  array_free(&self->visiting);
  run__strings_free(&self->flags);
  run__strings_free(&self->suggestions);
  run__strings_free(&self->notes);
  eddi_free(self->collect_name);
  eddi_free(self->current);
  ref_map_free(&self->uses);
  script_files_free(&self->files);
}
