/* modify_command.c - Modify: rename an element, change its parameters or
 * signature, add a decorator, set its visibility.
 *
 * A change is a list of edits computed against the text as it is, then
 * applied from the last to the first so that every offset stays valid, all
 * or nothing. A rename also renames the references to the element in this
 * file: by name resolution (module/refactor/refactor.h) where the language
 * has it, else the calls of its name. Where the file's language has a
 * server, the change passes its second opinion first (lsp/lsp_check.h):
 * the check runs as a job, and its finish applies the edits. */
#include "services/structure.h"

#include "lsp/lsp_check.h"

#include "refactor/ops.h"
#include "refactor/ops_lang.h"
#include "refactor/refactor.h"
#include "services/refactor_call.h"

/* ---------------------------------------------------------------- Modify */

typedef struct {
  size_t start, end;
  char *text;
} ModifyEdit;

typedef Array(ModifyEdit) ModifyEditList;

static void modify__edit(ModifyEditList *edits, size_t start, size_t end, const char *text,
                         size_t len) {
  ModifyEdit e = {start, end, eddi_strndup(text, len)};
  array_push(edits, e);
}

static int modify__by_start_desc(const void *a, const void *b) {
  const ModifyEdit *x = a, *y = b;
  return x->start < y->start ? 1 : x->start > y->start ? -1 : 0;
}

/* Apply edits from the last to the first, so offsets stay valid; all or
 * nothing. Sorts edits; the caller frees them. */
static int modify__apply(CommandContext *ctx, EddiDoc *doc, ModifyEditList *edits) {
  qsort(edits->items, edits->len, sizeof *edits->items, modify__by_start_desc);
  int rc = 0;
  size_t applied = SIZE_MAX; /* where the last edit made starts */
  for (size_t i = 0; i < edits->len && rc == 0; i++) {
    ModifyEdit *e = &edits->items[i];
    if (e->end > applied) continue; /* overlapping: keep the later */
    rc = eddi_doc_replace(doc, e->start, e->end, e->text, strlen(e->text), ctx->err);
    applied = e->start;
  }
  if (rc < 0) eddi_doc_revert_group(doc);
  return rc;
}

static void modify__edits_free(ModifyEditList *edits) {
  for (size_t i = 0; i < edits->len; i++) eddi_free(edits->items[i].text);
  array_free(edits);
}

/* ---------------------------------------------------------------- the second opinion */

/* What the reply of a change says. */
typedef struct {
  char *display; /* the element as it is now called */
  size_t calls;
  char *unsure; /* "2 unsure left unchanged: ...", or "" */
  size_t start; /* where the cursor goes: the element's start after the edits */
} ModifyOutcome;

static void modify__reply(CommandContext *ctx, EddiDoc *doc, const ModifyOutcome *outcome,
                          const char *checked) {
  doc->cursor = EDDI_MIN(outcome->start, eddi_text_len(&doc->text));
  eddi_reply_builder_fact(ctx->reply, "Modified %s", outcome->display);
  if (outcome->calls) eddi_reply_builder_fact(ctx->reply, "Calls %zu", outcome->calls);
  eddi_command_fact_cursor(ctx, doc);
  if (outcome->unsure && *outcome->unsure) eddi_reply_builder_fact(ctx->reply, "%s", outcome->unsure);
  if (checked) eddi_reply_builder_fact_lines(ctx->reply, checked);
}

/* The check's job: the file before and after the edits, and the files
 * that name the element, shown to their servers on a worker; the finish
 * applies the edits when the file still holds the text checked. */
typedef struct {
  EddiJob base;
  char *root;
  EddiLspCheck check;
  char *path;
  const char *lang;
  char *before, *after;
  size_t before_len, after_len;
  Array(size_t) renamed; /* a rename's starts in before, sorted */
  char *old_name, *new_name;
  char *rename_way; /* the Refactor that renames every place too */
  EddiWordUsers users;
  ModifyEditList edits;
  ModifyOutcome outcome;
  StrBuf checked;
  int rc;
  EddiError err;
} ModifyJob;

static void modify__work(EddiJob *base) {
  ModifyJob *self = (ModifyJob *)base;
  Array(EddiLspPlanned) files = {0};
  array_push(&files, ((EddiLspPlanned){.path = self->path, .lang = self->lang,
                                       .before = self->before, .before_len = self->before_len,
                                       .after = self->after, .after_len = self->after_len,
                                       .renamed = self->renamed.items,
                                       .renamed_count = self->renamed.len}));
  for (size_t i = 0; i < self->users.len; i++) {
    const EddiWordUser *user = &self->users.items[i];
    array_push(&files, ((EddiLspPlanned){.path = user->rel, .lang = user->lang->name,
                                         .before = user->text, .before_len = user->len,
                                         .after = user->text, .after_len = user->len}));
  }
  self->rc = eddi_lsp_check_run(&self->check, self->root, files.items, files.len, self->old_name,
                                self->new_name, "Unchecked", self->rename_way, &self->checked,
                                &self->err);
  array_free(&files);
}

static int modify__finish(EddiJob *base, CommandContext *ctx) {
  ModifyJob *self = (ModifyJob *)base;
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  bool ambiguous;
  EddiDoc *doc = eddi_session_find_doc(ctx->session, self->path, &ambiguous);
  char *now = doc ? eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text)) : NULL;
  bool same = now && strcmp(doc->path, self->path) == 0 && eddi_text_len(&doc->text) == self->before_len &&
              memcmp(now, self->before, self->before_len) == 0;
  eddi_free(now);
  if (!same) {
    eddi_error_set(ctx->err, EDDI_ESTALE, "%s changed while the change was checked; nothing changed",
                   self->path);
    eddi_error_hint(ctx->err, "Run it again");
    return EDDI_ESTALE;
  }
  int rc = modify__apply(ctx, doc, &self->edits);
  if (rc == 0) modify__reply(ctx, doc, &self->outcome, self->checked.data);
  return rc;
}

static void modify__destroy(EddiJob *base) {
  ModifyJob *self = (ModifyJob *)base;
  eddi_free(self->root), eddi_free(self->path);
  eddi_free(self->before), eddi_free(self->after);
  array_free(&self->renamed);
  eddi_free(self->old_name), eddi_free(self->new_name), eddi_free(self->rename_way);
  eddi_word_users_free(&self->users);
  modify__edits_free(&self->edits);
  eddi_free(self->outcome.display), eddi_free(self->outcome.unsure);
  eddi_lsp_check_free(&self->check);
  eddi_strbuf_free(&self->checked);
  eddi_free(self);
}

/* text with edits applied as modify__apply applies them (sorts edits). */
static char *modify__edited(const char *text, size_t len, ModifyEditList *edits, size_t *out_len) {
  qsort(edits->items, edits->len, sizeof *edits->items, modify__by_start_desc);
  StrBuf out = {0};
  size_t at = len; /* what is left to copy ends here */
  Array(const char *) pieces = {0};
  Array(size_t) piece_lens = {0};
  for (size_t i = 0; i < edits->len; i++) {
    const ModifyEdit *e = &edits->items[i];
    if (e->end > at) continue; /* as modify__apply skips it */
    array_push(&pieces, text + e->end), array_push(&piece_lens, at - e->end);
    array_push(&pieces, e->text), array_push(&piece_lens, strlen(e->text));
    at = e->start;
  }
  eddi_strbuf_append(&out, text, at);
  for (size_t i = pieces.len; i-- > 0;) eddi_strbuf_append(&out, pieces.items[i], piece_lens.items[i]);
  array_free(&pieces), array_free(&piece_lens);
  *out_len = out.len;
  return out.data ? eddi_strbuf_take(&out) : eddi_strdup("");
}

/* The check of edits to doc (lang's), as a job that takes edits over, or
 * NULL when no server checks lang (edits then stay the caller's).
 * renamed_from: the element's name when the change renames it. */
static ModifyJob *modify__check_job(CommandContext *ctx, EddiDoc *doc, const EddiLang *lang,
                                    ModifyEditList *edits, const char *renamed_from,
                                    const EddiElement *e) {
  ModifyJob *job = eddi_calloc(1, sizeof *job);
  if (!eddi_lsp_check_init(&job->check, ctx->workspace, ctx->session) ||
      !eddi_lsp_check_covers(&job->check, lang->name)) {
    modify__destroy(&job->base);
    return NULL;
  }
  job->base.work = modify__work;
  job->base.finish = modify__finish;
  job->base.destroy = modify__destroy;
  job->root = eddi_strdup(eddi_workspace_root(ctx->workspace));
  job->path = eddi_strdup(doc->path);
  job->lang = lang->name;
  job->before_len = eddi_text_len(&doc->text);
  job->before = eddi_text_dup(&doc->text, 0, job->before_len);
  for (size_t i = 0; renamed_from && i < edits->len; i++)
    if (edits->items[i].start == e->name_start && edits->items[i].end == e->name_end)
      job->new_name = eddi_strdup(edits->items[i].text);
  if (job->new_name) job->old_name = eddi_strdup(renamed_from);
  job->after = modify__edited(job->before, job->before_len, edits, &job->after_len);
  /* modify__edited sorted the edits, the last first. */
  for (size_t i = edits->len; job->new_name && i-- > 0;) array_push(&job->renamed, edits->items[i].start);
  if (eddi_refactor_files_naming(ctx, &job->check, e->name, doc->path, &job->users) < 0) {
    /* A scan that gives up leaves the check the file itself. */
    eddi_word_users_free(&job->users);
    eddi_error_clear(ctx->err);
  }
  job->edits = *edits;
  *edits = (ModifyEditList){0};
  return job;
}

/* Rename an element and the calls of it in this file. */
static void modify__rename_edits(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e,
                             const char *new_name, ModifyEditList *edits, size_t *calls) {
  modify__edit(edits, e->name_start, e->name_end, new_name, strlen(new_name));
  const EddiDetails *d = eddi_syntax_details(syn, &doc->text);
  size_t len = e->name_end - e->name_start;
  for (size_t i = 0; i < d->calls.len; i++) {
    EddiSpan s = d->calls.items[i];
    if (s.end - s.start != len) continue;
    char *name = eddi_text_dup(&doc->text, s.start, s.end);
    if (strcmp(name, e->name) == 0)
      modify__edit(edits, s.start, s.end, new_name, strlen(new_name)), (*calls)++;
    eddi_free(name);
  }
}

/* Rename an element by name resolution (languages with a locals query):
 * the occurrences in this file that refer to it, no same-named member of
 * another class; conflicts refused. */
static int modify__rename_resolved(CommandContext *ctx, EddiDoc *doc, const EddiElement *e,
                                   const char *new_name, ModifyEditList *edits, size_t *calls,
                                   StrBuf *unsure) {
  size_t len = eddi_text_len(&doc->text);
  char *text = eddi_text_dup(&doc->text, 0, len);
  EddiLocalRename rename;
  int rc = eddi_refactor_rename_local(doc->path, text, len, e->name_start, new_name, &rename,
                                      ctx->err);
  eddi_free(text);
  if (rc < 0) return rc;
  for (size_t i = 0; i < rename.spans.len; i++) {
    EddiRenameSpan span = rename.spans.items[i];
    modify__edit(edits, span.start, span.end, new_name, strlen(new_name));
    if (span.start != e->name_start) (*calls)++;
  }
  if (rename.unsure_count)
    eddi_strbuf_printf(unsure, "%zu unsure left unchanged: %s", rename.unsure_count,
                       rename.unsure.data);
  eddi_local_rename_free(&rename);
  return 0;
}

/* ---------------------------------------------------------------- reach */

/* Modify changes one file. A change that other files would feel (a
 * rename, a new parameter list, a narrower visibility of an element they
 * refer to) is refused, naming them, with the Refactor that changes every
 * file; so is one that would leave unsure references, by the one rule of
 * refactor/plan.h. Whether other files refer to the element is what a
 * rename of it over the workspace would change (to the change's own new
 * name, or to a name nothing has). */

/* The element's name as a Refactor takes it: path:line:col, 0-based. */
static void modify__spec(const EddiDoc *doc, const EddiElement *e, StrBuf *out) {
  size_t line, col;
  eddi_structure_position(doc, e->name_start, &line, &col);
  eddi_strbuf_printf(out, "%s:%zu:%zu", doc->path, line, col);
}

/* Refuse the change of e when files besides doc's refer to e, or when
 * references to it cannot be resolved. renamed_to: the name the change
 * gives e, or NULL when it keeps its name; refactor: the Refactor command
 * that makes the change everywhere, or NULL when none does (a narrower
 * visibility: the uses must change first); left: NULL, or (the command
 * said Leave) where the unsure references go instead of a refusal. */
static int modify__check_reach(CommandContext *ctx, EddiDoc *doc, const EddiElement *e,
                               const char *renamed_to, const char *refactor, StrBuf *left) {
  StrBuf spec = {0}, probe = {0}, others = {0}, unsure = {0};
  modify__spec(doc, e, &spec);
  if (!renamed_to) eddi_strbuf_printf(&probe, "eddi_reach_of_%s", e->name);
  int rc = eddi_refactor_rename_reach(ctx, spec.data, renamed_to ? renamed_to : probe.data,
                                      doc->path, &others, &unsure);
  if (rc < 0 && !renamed_to) {
    /* The probe's own refusal says nothing about this change. */
    char why[EDDI_ERROR_MAX];
    snprintf(why, sizeof why, "%s", ctx->err->what);
    eddi_error_set(ctx->err, EDDI_EINVAL, "Cannot tell which files refer to %s: %s", e->name,
                   why);
  } else if (others.len) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL,
                        "Modify changes %s alone, and %s %s to %s; nothing changed", doc->path,
                        others.data, strchr(others.data, ',') ? "refer" : "refers", e->name);
    if (refactor) eddi_error_hint(ctx->err, "%s changes every file", refactor);
    else eddi_error_hint(ctx->err, "Change the uses first");
  } else if (unsure.len && left) {
    eddi_strbuf_puts(left, unsure.data);
  } else if (unsure.len) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL,
                        "References to %s cannot be resolved: %s; nothing changed", e->name,
                        unsure.data);
    if (refactor)
      eddi_error_hint(ctx->err, "Add Leave to change it without them, or %s Unsure changes them too",
                      refactor);
    else eddi_error_hint(ctx->err, "Add Leave to change it without them");
  }
  eddi_strbuf_free(&spec), eddi_strbuf_free(&probe);
  eddi_strbuf_free(&others), eddi_strbuf_free(&unsure);
  return rc;
}

/* Refuse a narrower visibility (private, protected) of a member that
 * this file uses outside its class. */
static int modify__check_outside(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn,
                                 const EddiElement *e, const char *level) {
  if (e->parent < 0) return 0;
  const EddiElement *klass = &syn->elements.items[e->parent];
  size_t len = eddi_text_len(&doc->text);
  char *text = eddi_text_dup(&doc->text, 0, len);
  StrBuf probe = {0};
  eddi_strbuf_printf(&probe, "eddi_reach_of_%s", e->name);
  EddiLocalRename uses;
  int rc = eddi_refactor_rename_local(doc->path, text, len, e->name_start, probe.data, &uses,
                                      ctx->err);
  eddi_free(text);
  eddi_strbuf_free(&probe);
  if (rc < 0) return rc;
  for (size_t i = 0; i < uses.spans.len && rc == 0; i++) {
    size_t at = uses.spans.items[i].start;
    if (at >= klass->start && at < klass->end) continue;
    size_t line, col;
    eddi_structure_position(doc, at, &line, &col);
    rc = eddi_error_set(ctx->err, EDDI_EINVAL,
                        "%s:%zu:%zu uses %s outside %s, which %s would forbid; nothing changed",
                        doc->path, line, col, e->name, klass->name, level);
    eddi_error_hint(ctx->err, "Change the uses first");
  }
  eddi_local_rename_free(&uses);
  return rc;
}

/* A rename's reach: the hint is the RenameSymbol that renames everywhere. */
static int modify__check_rename(CommandContext *ctx, EddiDoc *doc, const EddiElement *e,
                                const char *new_name, StrBuf *left) {
  StrBuf refactor = {0};
  eddi_strbuf_puts(&refactor, "Refactor RenameSymbol ");
  modify__spec(doc, e, &refactor);
  eddi_strbuf_printf(&refactor, " %s", new_name);
  int rc = modify__check_reach(ctx, doc, e, new_name, refactor.data, left);
  eddi_strbuf_free(&refactor);
  return rc;
}

/* AddParam, RemoveParam and ChangeSignature are Refactor Signature within
 * the file in the languages it is built for (Python, C, JavaScript,
 * TypeScript; refactor/ops_lang.c): the definition's edit (edits holds it alone)
 * gives the new parameter list, and the calls of the function in the file
 * are rewritten with it; a change that would break the function or a call
 * is refused as Signature refuses it. */
/* The old and the new signature as Refactor Signature takes them,
 * "a.py:3:4(x, y)": the definition's edit (edits holds it alone) gives
 * the new parameter list; each on one line. */
static void modify__signatures(const EddiDoc *doc, const EddiElement *e,
                               const ModifyEditList *edits, StrBuf *old_sig, StrBuf *new_sig) {
  const ModifyEdit *def = &edits->items[0];
  size_t ps = e->params_start, pe = e->params_end;
  char *params = eddi_text_dup(&doc->text, ps, pe);
  StrBuf name = {0}, changed = {0};
  modify__spec(doc, e, &name);
  /* The lists without their parentheses. */
  eddi_strbuf_printf(old_sig, "%s(%.*s)", name.data, (int)(pe - ps - 2), params + 1);
  eddi_strbuf_append(&changed, params, def->start - ps);
  eddi_strbuf_puts(&changed, def->text);
  eddi_strbuf_puts(&changed, params + (def->end - ps));
  eddi_strbuf_printf(new_sig, "%s(%.*s)", name.data, (int)(changed.len - 2), changed.data + 1);
  for (char *c = old_sig->data; *c; c++) if (*c == '\n') *c = ' ';
  for (char *c = new_sig->data; *c; c++) if (*c == '\n') *c = ' ';
  eddi_strbuf_free(&name), eddi_strbuf_free(&changed);
  eddi_free(params);
}

static int modify__signature_calls(CommandContext *ctx, EddiDoc *doc, const EddiElement *e,
                                   ModifyEditList *edits, size_t *calls, StrBuf *unsure) {
  size_t len = eddi_text_len(&doc->text);
  char *text = eddi_text_dup(&doc->text, 0, len);
  StrBuf old_sig = {0}, new_sig = {0};
  modify__signatures(doc, e, edits, &old_sig, &new_sig);
  RefTextEdits found;
  RefSignatureLocal op = {.path = doc->path, .text = text, .len = len,
                          .old_sig = old_sig.data, .new_sig = new_sig.data};
  int rc = ref_signature_local(&op, &found, calls, unsure, ctx->err);
  if (rc == 0) {
    for (size_t i = 0; i < edits->len; i++) eddi_free(edits->items[i].text);
    edits->len = 0;
    for (size_t i = 0; i < found.len; i++)
      modify__edit(edits, found.items[i].start, found.items[i].end, found.items[i].text,
                   strlen(found.items[i].text));
    ref_text_edits_free(&found);
  }
  eddi_strbuf_free(&old_sig), eddi_strbuf_free(&new_sig);
  eddi_free(text);
  return rc;
}

/* A new parameter list's reach: the hint is the Signature that changes
 * every call. */
static int modify__check_signature(CommandContext *ctx, EddiDoc *doc, const EddiElement *e,
                                   const ModifyEditList *edits, StrBuf *left) {
  StrBuf old_sig = {0}, new_sig = {0}, refactor = {0};
  modify__signatures(doc, e, edits, &old_sig, &new_sig);
  const char *bare = strchr(new_sig.data, '(');
  eddi_strbuf_printf(&refactor, "Refactor Signature \"%s\" \"%s%s\"", old_sig.data, e->name, bare);
  int rc = modify__check_reach(ctx, doc, e, NULL, refactor.data, left);
  eddi_strbuf_free(&old_sig), eddi_strbuf_free(&new_sig), eddi_strbuf_free(&refactor);
  return rc;
}

/* The parameter node among the element's parameter list that declares
 * name: its text is the name, or starts or ends with it as a whole word
 * ("x=1", "x: int", "int x", "char *x"). */
static bool modify__find_param(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e,
                               const char *name, size_t *start, size_t *end) {
  TSNode params = eddi_structure_params_node(syn, e);
  if (ts_node_is_null(params)) return false;
  size_t n = strlen(name);
  uint32_t count = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(params, i);
    size_t s = ts_node_start_byte(child), t = ts_node_end_byte(child);
    char *text = eddi_text_dup(&doc->text, s, t);
    size_t len = t - s;
    bool match = (len == n && memcmp(text, name, n) == 0) ||
                 (len > n && memcmp(text, name, n) == 0 && !eddi_structure_is_ident(text[n])) ||
                 (len > n && memcmp(text + len - n, name, n) == 0 &&
                  !eddi_structure_is_ident(text[len - n - 1]));
    eddi_free(text);
    if (match) {
      *start = s, *end = t;
      return true;
    }
  }
  return false;
}

/* "AddDecorator works in java, python": the languages where a change that
 * this one lacks makes sense (visibility, or else decorators). */
static void modify__hint_languages(CommandContext *ctx, const char *change, bool visibility) {
  size_t count;
  const EddiLang *all = eddi_lang_all(&count);
  StrBuf names = {0};
  for (size_t i = 0; i < count; i++)
    if (all[i].ts && (visibility ? all[i].visibility != NULL : all[i].decorators))
      eddi_strbuf_printf(&names, "%s%s", names.len ? ", " : "", all[i].name);
  if (names.len) eddi_error_hint(ctx->err, "%s works in %s", change, names.data);
  eddi_strbuf_free(&names);
}

int eddi_run_modify(CommandContext *ctx) {
  static const char *const changes[] = {"Rename",          "AddParam",     "RemoveParam",
                                        "ChangeSignature", "AddDecorator", "SetVisibility"};
  enum { RENAME, ADD_PARAM, REMOVE_PARAM, CHANGE_SIGNATURE, ADD_DECORATOR, SET_VISIBILITY };
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc < 1) return eddi_command_usage(ctx, "Modify needs a target and a change");
  StructureTarget t;
  size_t next;
  int rc = eddi_structure_parse_target(ctx, 0, &t, &next);
  if (rc < 0) return rc;
  EddiSyntax *syn;
  EddiElement *e = NULL;
  rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc == 0 && next >= ctx->argc)
    rc = eddi_command_usage(ctx, "Modify %s needs a change", t.word);
  int change = rc == 0 ? eddi_command_choose(ctx, &ctx->args[next], "change", changes, 6) : rc;
  /* Last words: Leave makes the change without the references that
   * cannot be resolved, listing them (modify__check_reach); Unchecked
   * without the language servers' check. */
  bool leave = false, unchecked = false;
  for (size_t i = next + 2; change >= 0 && i < ctx->argc; i++) {
    bool *word = eddi_token_is(&ctx->args[i], "Leave")       ? &leave
                 : eddi_token_is(&ctx->args[i], "Unchecked") ? &unchecked
                                                             : NULL;
    if (!word || *word) change = eddi_command_usage(ctx, "Modify ... %s needs one argument, then Leave or Unchecked", changes[change]);
    else *word = true;
  }
  if (change >= 0) rc = eddi_structure_resolve(ctx, doc, syn, &t, &e);
  eddi_structure_target_free(&t);
  if (change < 0) return change;
  if (rc < 0) return rc;
  rc = eddi_structure_refuse_errors(ctx, doc, e);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  const Token *arg = &ctx->args[next + 1];
  char *value = eddi_command_token_string(arg);
  ModifyEditList edits = {0};
  size_t calls = 0;
  bool function = (e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD)) != 0;
  StrBuf unsure = {0}, left = {0};
  StrBuf *leaving = leave ? &left : NULL;
  bool resolved = lang->locals != NULL;
  switch (change) {
  case RENAME:
    if (resolved) rc = modify__check_rename(ctx, doc, e, value, leaving);
    if (resolved && rc == 0)
      rc = modify__rename_resolved(ctx, doc, e, value, &edits, &calls, &unsure);
    else modify__rename_edits(doc, syn, e, value, &edits, &calls);
    break;
  case ADD_PARAM:
  case REMOVE_PARAM:
  case CHANGE_SIGNATURE: {
    if (!function || !e->has_params) {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "%s %s has no parameter list",
                          eddi_element_kind_name(e->kind), e->name);
      break;
    }
    size_t ps = e->params_start, pe = e->params_end;
    bool parens = eddi_text_byte_at(&doc->text, ps) == '(' &&
                  eddi_text_byte_at(&doc->text, pe - 1) == ')';
    if (change == CHANGE_SIGNATURE) {
      StrBuf b = {0};
      bool given = value[0] == '(';
      if (!given) eddi_strbuf_putc(&b, '(');
      eddi_strbuf_puts(&b, value);
      if (!given) eddi_strbuf_putc(&b, ')');
      modify__edit(&edits, ps, pe, b.data, b.len);
      eddi_strbuf_free(&b);
    } else if (!parens) {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "Parameters of %s are not in parentheses",
                          e->name);
    } else if (change == ADD_PARAM) {
      size_t at = pe - 1;
      while (at > ps + 1) {
        char c = eddi_text_byte_at(&doc->text, at - 1);
        if (c != ' ' && c != '\n' && c != '\t' && c != '\r') break;
        at--;
      }
      bool empty = at == ps + 1;
      bool trailing_comma = !empty && eddi_text_byte_at(&doc->text, at - 1) == ',';
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s%s", empty ? "" : trailing_comma ? " " : ", ", value);
      modify__edit(&edits, at, at, b.data, b.len);
      eddi_strbuf_free(&b);
    } else {
      size_t s, f;
      if (!modify__find_param(doc, syn, e, value, &s, &f)) {
        rc = eddi_error_set(ctx->err, EDDI_ENOENT, "No parameter %s in %s", value, e->name);
        break;
      }
      /* Take the comma after it, or else the one before it. */
      size_t p = f;
      while (p < pe && strchr(" \t\r\n", eddi_text_byte_at(&doc->text, p))) p++;
      if (p < pe && eddi_text_byte_at(&doc->text, p) == ',') {
        p++;
        while (p < pe - 1 && strchr(" \t", eddi_text_byte_at(&doc->text, p))) p++;
        f = p;
      } else {
        size_t q = s;
        while (q > ps + 1 && strchr(" \t\r\n", eddi_text_byte_at(&doc->text, q - 1))) q--;
        if (q > ps + 1 && eddi_text_byte_at(&doc->text, q - 1) == ',') s = q - 1;
      }
      modify__edit(&edits, s, f, "", 0);
    }
    if (rc == 0 && resolved)
      rc = modify__check_signature(ctx, doc, e, &edits, leaving);
    if (rc == 0 && resolved && parens && edits.len == 1 && ref_ops_lang(lang->name) &&
        !ref_ops_lang_why(lang->name, "Signature"))
      rc = modify__signature_calls(ctx, doc, e, &edits, &calls, &unsure);
    break;
  }
  case ADD_DECORATOR: {
    if (!lang->decorators) {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "No decorators in %s", lang->name);
      modify__hint_languages(ctx, "AddDecorator", false);
      break;
    }
    size_t line = eddi_structure_line_of(doc, e->start);
    char *indent = eddi_structure_indent_of_line(doc, line);
    StrBuf b = {0};
    eddi_strbuf_printf(&b, "%s%s\n", indent, value);
    size_t at = eddi_text_line_start(&doc->text, line);
    modify__edit(&edits, at, at, b.data, b.len);
    eddi_strbuf_free(&b);
    eddi_free(indent);
    break;
  }
  case SET_VISIBILITY: {
    static const char *const levels[] = {"public", "private", "protected"};
    int level = eddi_command_choose(ctx, arg, "visibility", levels, 3);
    if (level < 0) {
      rc = level;
      break;
    }
    const char *style = lang->visibility ? lang->visibility : "";
    if (strcmp(style, "prefix") == 0) {
      /* Python: the name says it. */
      const char *base = e->name;
      while (*base == '_') base++;
      bool dunder = strlen(base) >= 2 && strcmp(base + strlen(base) - 2, "__") == 0;
      if (dunder) {
        rc = eddi_error_set(ctx->err, EDDI_EINVAL, "%s is a special name", e->name);
        break;
      }
      StrBuf b = {0};
      eddi_strbuf_printf(&b, "%s%s", level == 1 ? "__" : level == 2 ? "_" : "", base);
      if (strcmp(b.data, e->name) != 0 && resolved)
        rc = modify__check_rename(ctx, doc, e, b.data, leaving);
      if (rc == 0 && strcmp(b.data, e->name) != 0 && resolved)
        rc = modify__rename_resolved(ctx, doc, e, b.data, &edits, &calls, &unsure);
      else if (strcmp(b.data, e->name) != 0)
        modify__rename_edits(doc, syn, e, b.data, &edits, &calls);
      eddi_strbuf_free(&b);
    } else if (strcmp(style, "keyword") == 0 || strcmp(style, "static") == 0) {
      /* A modifier before the name: replace the one there, or add one. */
      bool is_static = strcmp(style, "static") == 0;
      if (is_static && level == 2) {
        rc = eddi_error_set(ctx->err, EDDI_EINVAL, "No protected in %s", lang->name);
        break;
      }
      const char *words[] = {"public", "private", "protected", "static"};
      size_t found_s = 0, found_e = 0;
      bool found = false;
      for (size_t p = e->start; p < e->name_start && !found;) {
        while (p < e->name_start && !eddi_structure_is_ident(eddi_text_byte_at(&doc->text, p))) p++;
        size_t w = p;
        while (w < e->name_start && eddi_structure_is_ident(eddi_text_byte_at(&doc->text, w))) w++;
        for (size_t k = is_static ? 3 : 0; k < (is_static ? 4u : 3u) && w > p; k++)
          if (w - p == strlen(words[k])) {
            char *word = eddi_text_dup(&doc->text, p, w);
            if (strcmp(word, words[k]) == 0) found = true, found_s = p, found_e = w;
            eddi_free(word);
          }
        p = w;
      }
      const char *want = is_static ? (level == 1 ? "static" : "") : levels[level];
      /* Narrower (private, protected, static): every use elsewhere breaks. */
      if (level != 0 && resolved) {
        rc = modify__check_reach(ctx, doc, e, NULL, NULL, leaving);
        if (rc == 0 && !is_static) rc = modify__check_outside(ctx, doc, syn, e, levels[level]);
        if (rc < 0) break;
      }
      if (found) {
        size_t f = found_e;
        if (!*want) while (f < e->name_start && eddi_text_byte_at(&doc->text, f) == ' ') f++;
        modify__edit(&edits, found_s, f, want, strlen(want));
      } else if (*want) {
        StrBuf b = {0};
        eddi_strbuf_printf(&b, "%s ", want);
        modify__edit(&edits, e->start, e->start, b.data, b.len);
        eddi_strbuf_free(&b);
      }
    } else {
      rc = eddi_error_set(ctx->err, EDDI_EINVAL, "No visibility in %s", lang->name);
      modify__hint_languages(ctx, "SetVisibility", true);
    }
    break;
  }
  }
  /* The element's start after the edits before it (a reference renamed
   * above the definition moves it). */
  size_t start = e->start;
  for (size_t i = 0; i < edits.len && (change == RENAME || change == SET_VISIBILITY); i++)
    if (edits.items[i].end <= e->start && edits.items[i].start < e->start)
      start = start + strlen(edits.items[i].text) - (edits.items[i].end - edits.items[i].start);
  char *display = eddi_element_display(e);
  if (change == RENAME || change == SET_VISIBILITY) {
    /* Say the name it has now. */
    for (size_t i = 0; i < edits.len; i++)
      if (edits.items[i].start == e->name_start && edits.items[i].end == e->name_end) {
        eddi_free(display);
        EddiElement renamed = *e;
        renamed.name = edits.items[i].text;
        display = eddi_element_display(&renamed);
      }
  }
  if (left.len) {
    /* Every file's unsure references, not only this file's. */
    size_t count = 1;
    for (const char *c = left.data; *c; c++) count += *c == ',';
    eddi_strbuf_clear(&unsure);
    eddi_strbuf_printf(&unsure, "%zu unsure left unchanged: %s", count, left.data);
  }
  ModifyOutcome outcome = {display, calls, unsure.data, start};
  const char *renamed_from = change == RENAME || change == SET_VISIBILITY ? e->name : NULL;
  ModifyJob *job = rc == 0 && !unchecked && edits.len ? modify__check_job(ctx, doc, syn->lang, &edits, renamed_from, e) : NULL;
  if (job && job->new_name) {
    StrBuf way = {0};
    eddi_strbuf_puts(&way, "Refactor RenameSymbol ");
    modify__spec(doc, e, &way);
    eddi_strbuf_printf(&way, " %s Unsure renames them too", job->new_name);
    job->rename_way = eddi_strbuf_take(&way);
  }
  if (job) {
    job->outcome = (ModifyOutcome){eddi_strdup(display), calls, eddi_strdup(unsure.data ? unsure.data : ""), start};
    rc = eddi_job_start(ctx, &job->base);
  } else if (rc == 0) {
    rc = modify__apply(ctx, doc, &edits);
    if (rc == 0) modify__reply(ctx, doc, &outcome, NULL);
  }
  modify__edits_free(&edits);
  eddi_strbuf_free(&unsure), eddi_strbuf_free(&left);
  eddi_free(display);
  eddi_free(value);
  return rc;
}

