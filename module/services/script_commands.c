/* script_commands.c - scripts as EddiSpeak commands: `{ ... }` and the
 * single-line forms (foreach, if, let, use, try, collect, apply, rollback).
 *
 * A script is one transaction. It is parsed whole first (a syntax error
 * anywhere answers before anything runs), then run against the overlay
 * (script_files.c) and, when it ends without error, committed at once
 * through the shared transaction (edit/transaction.h: open documents
 * through their documents so that Undo takes the script back, other files
 * atomically), or kept as a changeset when it said `collect changes as`.
 *
 * Where it runs: a script that only queries and edits texts is a job
 * (session/job.h): the open documents' texts are copied on the owner
 * thread, the script runs on a worker over those copies and the disk, and
 * the finish commits on the owner thread after checking that every file
 * still holds the text the script read. A script that runs EddiSpeak
 * commands, moves the cursor or applies a changeset needs the session, so
 * it runs on the owner thread; its commands see the script's changes (the
 * documents get them before each command) and a failure puts the
 * documents back. Either way the language servers check what it would
 * write, or collect, on a worker before the finish (lsp/lsp_check.h). */
#include "services/commands.h"

#include <ctype.h>
#include <strings.h>

#include "edit/transaction.h"
#include "edit/txn_history.h"
#include "lsp/lsp_check.h"
#include "script/changeset.h"
#include "script/script_run.h"
#include "script/script_undefined.h"
#include "services/refactor_call.h"
#include "services/script_commands.h"
#include "services/word_users.h"

/* The budgets a script starts with (or the ceilings, when lower);
 * `limit steps N` and `limit time N` change them for one script, up to
 * the ceilings (EddiConfig.script_max_steps, script_max_ms). */
#define SCRIPT_STEPS_DEFAULT 1000000
#define SCRIPT_TIME_MS_DEFAULT 60000
/* Stored positions, and places on the context stack, a session keeps:
 * they outlive the script, so no budget of one script bounds them. */
#define SCRIPT_PLACES_MAX 1000

typedef struct {
  EddiJob base;
  Script script;
  ScriptRun run;
  EddiWorkspace *workspace;
  const EddiCommandPorts *ports;
  EddiSession *session; /* for the owner-thread steps; never touched on the worker */
  const char *sender;
  EddiLspCheck check; /* the servers that check the write (lsp/lsp_check.h) */
  StrBuf checked;     /* what the check says in the reply, a fact a line */
  bool docs_restored; /* an owner-thread script's documents hold their texts again */
  int rc;
  EddiError err;
} ScriptJob;

/* ---------------------------------------------------------------- the owner's host */

/* The open document of path, or NULL. */
static EddiDoc *script__doc(EddiSession *session, const char *path) {
  bool ambiguous;
  EddiDoc *doc = session ? eddi_session_find_doc(session, path, &ambiguous) : NULL;
  return doc && strcmp(doc->path, path) == 0 ? doc : NULL;
}

static bool script__doc_is(EddiDoc *doc, const char *text, size_t len) {
  if (eddi_text_len(&doc->text) != len) return false;
  char *now = eddi_text_dup(&doc->text, 0, len);
  bool same = memcmp(now, text, len) == 0;
  eddi_free(now);
  return same;
}

/* Give the documents the script's texts, before a command reads them. */
static int script__push_docs(ScriptJob *self, EddiError *err) {
  for (size_t i = 0; i < self->run.files.files.len; i++) {
    ScriptFile *file = self->run.files.files.items[i];
    EddiDoc *doc = script__doc(self->session, file->rel);
    if (!doc || script__doc_is(doc, file->text.data, file->text.len)) continue;
    int rc = eddi_doc_replace_all(doc, file->text.data, file->text.len, NULL, err);
    if (rc < 0) return rc;
  }
  return 0;
}

/* The documents' texts before a command, to tell what it changed. */
typedef struct {
  EddiDoc *doc;
  char *text;
  size_t len;
} ScriptDocText;

typedef Array(ScriptDocText) ScriptDocTexts;

static void script__note_docs(ScriptJob *self, ScriptDocTexts *out) {
  for (size_t i = 0; self->session && i < self->session->docs.len; i++) {
    EddiDoc *doc = self->session->docs.items[i];
    size_t len = eddi_text_len(&doc->text);
    ScriptDocText noted = {doc, eddi_text_dup(&doc->text, 0, len), len};
    array_push(out, noted);
  }
}

static void script__doc_texts_free(ScriptDocTexts *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i].text);
  array_free(self);
}

/* After a command: what it changed in a document goes into the script's
 * text; a document it opened gets the script's text. */
static int script__pull_docs(ScriptJob *self, const ScriptDocTexts *before, EddiError *err) {
  for (size_t i = 0; self->session && i < self->session->docs.len; i++) {
    EddiDoc *doc = self->session->docs.items[i];
    const ScriptDocText *was = NULL;
    for (size_t k = 0; k < before->len && !was; k++)
      if (before->items[k].doc == doc) was = &before->items[k];
    uint32_t f;
    int rc = script_files_get(&self->run.files, doc->path, &f, err);
    if (rc < 0) return rc;
    ScriptFile *file = self->run.files.files.items[f];
    if (script__doc_is(doc, file->text.data, file->text.len)) continue;
    if (!was) {
      rc = eddi_doc_replace_all(doc, file->text.data, file->text.len, NULL, err);
      if (rc < 0) return rc;
      continue;
    }
    if (script__doc_is(doc, was->text, was->len)) continue;
    size_t len = eddi_text_len(&doc->text);
    char *text = eddi_text_dup(&doc->text, 0, len);
    script_file_replace(&self->run.files, file, 0, file->text.len, text, len);
    eddi_free(text);
  }
  return 0;
}

/* Put the documents back as the script found them. */
static void script__restore_docs(ScriptJob *self) {
  for (size_t i = 0; i < self->run.files.files.len; i++) {
    ScriptFile *file = self->run.files.files.items[i];
    EddiDoc *doc = script__doc(self->session, file->rel);
    EddiError ignored;
    if (doc && !script__doc_is(doc, file->original, file->original_len))
      eddi_doc_replace_all(doc, file->original, file->original_len, NULL, &ignored);
  }
}

/* Commands a script may not run: they write or end what the script works in. */
static const char *const script__refused_commands[] = {"Save", "Close", "End", "Start", "Patch",
                                                       "Edit", "Update"};

static int script__command(void *context, ScriptRun *run, const char *line, char **reply,
                           EddiError *err) {
  ScriptJob *self = context;
  EDDI_UNUSED(run);
  size_t verb = strcspn(line, " \t");
  char word[EDDI_COMMAND_NAME_MAX];
  snprintf(word, sizeof word, "%.*s", (int)EDDI_MIN(verb, sizeof word - 1), line);
  const CommandSpec *spec = self->ports->find(self->ports->engine, word);
  if (spec && (spec->flags & CMD_SCRIPT))
    return eddi_error_set(err, EDDI_EINVAL, "%s cannot run as a command inside a script: write "
                          "its statements in the script", word);
  for (size_t i = 0; i < sizeof script__refused_commands / sizeof *script__refused_commands; i++)
    if (strlen(script__refused_commands[i]) == verb &&
        strncasecmp(line, script__refused_commands[i], verb) == 0)
      return eddi_error_set(err, EDDI_ESTATE,
                            "%.*s cannot run inside a script: the script writes its files when "
                            "it ends", (int)verb, line);
  int rc = script__push_docs(self, err);
  if (rc < 0) return rc;
  ScriptDocTexts before = {0};
  script__note_docs(self, &before);
  EddiReply replies = {0};
  bool failed = false;
  self->ports->run_commands(self->ports->engine, self->sender, line, strlen(line), &replies,
                            &failed);
  /* The command may have opened or switched documents. */
  self->session = eddi_sessions_by_sender(eddi_workspace_sessions(self->workspace), self->sender);
  if (self->session && self->session->current) {
    eddi_free(self->run.current);
    self->run.current = eddi_strdup(self->session->current->path);
  }
  const char *text = replies.count ? replies.items[0].text : "Fail \"No reply\"";
  if (failed) rc = eddi_error_set(err, EDDI_EINVAL, "%s: %s", line, text);
  else *reply = eddi_strdup(text);
  eddi_reply_free(&replies);
  if (rc == 0) rc = script__pull_docs(self, &before, err);
  script__doc_texts_free(&before);
  return rc;
}

static int script__changeset(void *context, ScriptRun *run, const char *verb, const char *name,
                             EddiError *err) {
  ScriptJob *self = context;
  EddiScriptState *state = self->session ? eddi_script_state_of(self->session) : NULL;
  EddiChangeset *set = state ? eddi_script_state_changeset(state, name) : NULL;
  if (!set) return eddi_error_set(err, EDDI_ENOENT, "No changeset named %s", name);
  if (strcasecmp(verb, "preview") == 0) {
    StrBuf facts = {0};
    eddi_changeset_preview(set, &facts, NULL);
    script_run_keep(run, &run->notes, eddi_strbuf_take(&facts));
    return 0;
  }
  int rc = strcasecmp(verb, "apply") == 0
               ? eddi_changeset_apply(set, self->workspace, self->session, err)
               : eddi_changeset_rollback(set, self->workspace, self->session, err);
  if (rc == 0) {
    StrBuf note = {0};
    eddi_strbuf_printf(&note, "Changeset %s %s", name,
                       strcasecmp(verb, "apply") == 0 ? "applied" : "rolled back");
    script_run_keep(run, &run->notes, eddi_strbuf_take(&note));
    /* What the script read of those files is now stale: read them again. */
    for (size_t i = 0; i < set->files.len; i++)
      for (size_t k = 0; k < run->files.files.len; k++)
        if (strcmp(run->files.files.items[k]->rel, set->files.items[i].path) == 0 &&
            !script_file_changed(run->files.files.items[k]))
          return eddi_error_set(err, EDDI_ESTATE,
                                "Changeset %s touches %s, which this script read: apply it in "
                                "its own message", name, set->files.items[i].path);
  }
  return rc;
}

static int script__position(void *context, ScriptRun *run, ScriptNodeKind kind, const char *name,
                            EddiError *err) {
  ScriptJob *self = context;
  EDDI_UNUSED(run);
  if (!self->session) return eddi_error_set(err, EDDI_ESTATE, "No session");
  EddiScriptState *state = eddi_script_state_of(self->session);
  EddiDoc *doc = self->session->current;
  EddiScriptPlace here = {.path = doc ? eddi_strdup(doc->path) : NULL,
                          .cursor = doc ? doc->cursor : 0};
  if (kind == SN_STORE || kind == SN_PUSH) {
    bool known = false;
    for (size_t i = 0; kind == SN_STORE && i < state->positions.len; i++)
      known |= strcmp(state->positions.items[i].name, name) == 0;
    size_t held = kind == SN_PUSH ? state->contexts.len : state->positions.len;
    if (!known && held >= SCRIPT_PLACES_MAX) {
      eddi_free(here.path);
      eddi_error_set(err, EDDI_ETOOBIG, "%s holds %d places, its limit",
                     kind == SN_PUSH ? "The context stack" : "The session's stored positions",
                     SCRIPT_PLACES_MAX);
      eddi_error_hint(err, "%s", kind == SN_PUSH ? "pop context first"
                                                 : "store under a name used before");
      return EDDI_ETOOBIG;
    }
    here.name = kind == SN_STORE ? eddi_strdup(name) : NULL;
    if (kind == SN_PUSH) {
      array_push(&state->contexts, here);
      return 0;
    }
    for (size_t i = 0; i < state->positions.len; i++)
      if (strcmp(state->positions.items[i].name, name) == 0) {
        eddi_free(state->positions.items[i].name);
        eddi_free(state->positions.items[i].path);
        state->positions.items[i] = here;
        return 0;
      }
    array_push(&state->positions, here);
    return 0;
  }
  eddi_free(here.path);
  EddiScriptPlace *place = NULL;
  EddiScriptPlace popped = {0};
  if (kind == SN_POP) {
    if (!state->contexts.len) return eddi_error_set(err, EDDI_ESTATE, "pop context: the stack is empty");
    popped = state->contexts.items[--state->contexts.len];
    place = &popped;
  } else {
    for (size_t i = 0; i < state->positions.len && !place; i++)
      if (strcmp(state->positions.items[i].name, name) == 0) place = &state->positions.items[i];
    if (!place) {
      /* Not a stored position: the Goto command's own target. */
      char line[EDDI_ERROR_MAX];
      snprintf(line, sizeof line, "Goto %s", name);
      char *reply = NULL;
      int rc = script__command(self, run, line, &reply, err);
      if (rc == 0) script_run_keep(run, &run->notes, reply);
      return rc;
    }
  }
  int rc = 0;
  EddiDoc *target = place->path ? script__doc(self->session, place->path) : NULL;
  if (place->path && !target) rc = eddi_error_set(err, EDDI_ENOENT, "%s is not open", place->path);
  if (rc == 0 && target) {
    self->session->current = target;
    target->cursor = EDDI_MIN(place->cursor, eddi_text_len(&target->text));
    eddi_free(self->run.current);
    self->run.current = eddi_strdup(target->path);
  }
  eddi_free(popped.path);
  return rc;
}

/* ---------------------------------------------------------------- the job */

static void script__destroy(EddiJob *base) {
  ScriptJob *self = (ScriptJob *)base;
  eddi_script_free(&self->script);
  script_run_free(&self->run);
  eddi_lsp_check_free(&self->check);
  eddi_strbuf_free(&self->checked);
  eddi_free(self);
}

/* How many of the names a script's changes took out of its files are
 * looked for in other files. */
#define SCRIPT_CHECK_WORDS_MAX 16

static bool script__word_byte(unsigned char c) { return isalnum(c) || c == '_' || c >= 0x80; }

typedef Array(char *) ScriptWords;

/* A name's bytes in a text. */
typedef struct {
  const char *at;
  size_t len;
} ScriptName;

typedef Array(ScriptName) ScriptNames;

static int script__name_cmp(const void *a, const void *b) {
  const ScriptName *x = a, *y = b;
  if (x->len != y->len) return x->len < y->len ? -1 : 1;
  return memcmp(x->at, y->at, x->len);
}

/* The names text[0, len) holds (not starting with a digit), in order. */
static void script__names(const char *text, size_t len, ScriptNames *out) {
  for (size_t at = 0; at < len;) {
    if (!script__word_byte((unsigned char)text[at])) {
      at++;
      continue;
    }
    size_t end = at;
    while (end < len && script__word_byte((unsigned char)text[end])) end++;
    if (!isdigit((unsigned char)text[at])) array_push(out, ((ScriptName){text + at, end - at}));
    at = end;
  }
}

/* Append to words (new strings) the names text[0, len) holds that after
 * does not, up to SCRIPT_CHECK_WORDS_MAX in all. */
static void script__lost_words(const char *text, size_t len, const char *after, size_t after_len,
                               ScriptWords *words) {
  ScriptNames kept = {0}, had = {0};
  script__names(after, after_len, &kept);
  script__names(text, len, &had);
  if (kept.len) qsort(kept.items, kept.len, sizeof *kept.items, script__name_cmp);
  for (size_t i = 0; i < had.len && words->len < SCRIPT_CHECK_WORDS_MAX; i++) {
    if (kept.len && bsearch(&had.items[i], kept.items, kept.len, sizeof *kept.items, script__name_cmp))
      continue;
    bool known = false;
    for (size_t k = 0; k < words->len && !known; k++)
      known = strlen(words->items[k]) == had.items[i].len &&
              memcmp(words->items[k], had.items[i].at, had.items[i].len) == 0;
    if (!known) array_push(words, eddi_strndup(had.items[i].at, had.items[i].len));
  }
  array_free(&kept);
  array_free(&had);
}

/* A file the check may show for what it uses of the script's changes:
 * of a language with a server, not one the script changed. */
static bool script__wants_user(const void *context, const char *rel, const EddiLang *lang) {
  const ScriptJob *self = context;
  if (!eddi_lsp_check_covers(&self->check, lang->name)) return false;
  for (size_t i = 0; i < self->run.files.files.len; i++) {
    const ScriptFile *file = self->run.files.files.items[i];
    if (strcmp(file->rel, rel) == 0 && script_file_changed(file)) return false;
  }
  return true;
}

/* The second opinion on what the script would write: each changed file as
 * it was and as the script left it, shown to its language's server, and
 * the files that name what the script took out of them (the importers of
 * a function it renamed), as they are. */
static void script__check(ScriptJob *self) {
  Array(EddiLspPlanned) files = {0};
  ScriptWords lost = {0};
  for (size_t i = 0; i < self->run.files.files.len; i++) {
    const ScriptFile *file = self->run.files.files.items[i];
    const char *lang = file->lang ? file->lang->name : NULL;
    if (!script_file_changed(file) || !eddi_lsp_check_covers(&self->check, lang)) continue;
    array_push(&files, ((EddiLspPlanned){.path = file->rel, .lang = lang,
                                         .before = file->exists ? file->original : NULL,
                                         .before_len = file->original_len,
                                         .after = file->text.data ? file->text.data : "",
                                         .after_len = file->text.len}));
    if (file->exists)
      script__lost_words(file->original, file->original_len, file->text.data ? file->text.data : "",
                         file->text.len, &lost);
  }
  EddiWordUsers users = {0};
  EddiWordUsersQuery query = {self->run.files.root, (const char *const *)lost.items, lost.len,
                              script__wants_user, self};
  if (files.len) eddi_word_users_find(&query, &users);
  for (size_t i = 0; i < users.len; i++) {
    const EddiWordUser *user = &users.items[i];
    array_push(&files, ((EddiLspPlanned){.path = user->rel, .lang = user->lang->name,
                                         .before = user->text, .before_len = user->len,
                                         .after = user->text, .after_len = user->len}));
  }
  if (files.len)
    self->rc = eddi_lsp_check_run(&self->check, self->run.files.root, files.items, files.len, NULL,
                                  NULL, "the statement unchecked", NULL, &self->checked, &self->err);
  array_free(&files);
  eddi_word_users_free(&users);
  for (size_t i = 0; i < lost.len; i++) eddi_free(lost.items[i]);
  array_free(&lost);
}

static void script__work(EddiJob *base) {
  ScriptJob *self = (ScriptJob *)base;
  self->rc = script_run_exec(&self->run, &self->script, &self->err);
  /* Collected changes are checked when collected: their apply refuses
   * files that changed since, so it writes what was checked. */
  if (self->rc == 0 && self->check.servers.len && !self->run.unchecked) script__check(self);
}

/* An owner-thread script's check, once the script has run. */
static void script__check_work(EddiJob *base) { script__check((ScriptJob *)base); }

/* Whether the script changed any file. */
static bool script__changes(const ScriptJob *self) {
  for (size_t i = 0; i < self->run.files.files.len; i++)
    if (script_file_changed(self->run.files.files.items[i])) return true;
  return false;
}

/* "Key: a; b; ..." of a page of list from offset; what follows the page
 * is counted, with where Flags goes on when pages is set. */
static void script__list_page(CommandContext *ctx, const char *key, char *const *items,
                              size_t count, size_t offset, bool pages) {
  if (offset >= count) return;
  size_t page = eddi_workspace_config(ctx->workspace)->page_size
                    ? eddi_workspace_config(ctx->workspace)->page_size
                    : count;
  size_t end = EDDI_MIN(count, offset + page);
  StrBuf text = {0};
  eddi_strbuf_printf(&text, "%s:", key);
  for (size_t i = offset; i < end; i++)
    eddi_strbuf_printf(&text, "%s %s", i > offset ? ";" : "", items[i]);
  if (end < count) eddi_strbuf_printf(&text, "; and %zu more", count - end);
  if (end < count && pages) eddi_strbuf_printf(&text, " (Flags %zu)", end);
  eddi_reply_builder_fact(ctx->reply, "%s", text.data);
  eddi_strbuf_free(&text);
}

static void script__list_fact(CommandContext *ctx, const char *key, const ScriptStrings *list) {
  script__list_page(ctx, key, list->items, list->len, 0,
                    ctx->session && strcmp(key, "Flagged") == 0);
}

size_t eddi_script_session_flags(CommandContext *ctx) {
  const EddiScriptState *state = eddi_script_state_find(ctx->session);
  size_t count = state ? state->session_flags.len : 0;
  script__list_page(ctx, "Flagged", state ? state->session_flags.items : NULL, count, 0, false);
  return count;
}

/* Flags [<offset>]: the last script's flags from offset, a page. */
static int script__flags_command(CommandContext *ctx) {
  const EddiScriptState *state = eddi_script_state_find(ctx->session);
  size_t count = state ? state->flags.len : 0;
  if (ctx->argc > 1 || (ctx->argc == 1 && ctx->args[0].kind != TOKEN_INT))
    return eddi_command_usage(ctx, "Flags takes an offset");
  size_t offset = ctx->argc ? (size_t)ctx->args[0].first : 0;
  if (!count) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "No flags: the last script flagged nothing");
    eddi_error_hint(ctx->err, "flag \"note\" inside a script lists an element");
    return EDDI_ENOENT;
  }
  if (offset >= count) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Offset %zu is past the %zu flags", offset, count);
    eddi_error_hint(ctx->err, "Flags 0 shows the first page");
    return EDDI_EINVAL;
  }
  eddi_reply_builder_fact(ctx->reply, "%zu flags", count);
  script__list_page(ctx, "Flagged", state->flags.items, count, offset, true);
  return 0;
}

static void script__part(StrBuf *out, size_t n, const char *what) {
  if (n) eddi_strbuf_printf(out, "%s%zu %s", out->len ? ", " : "", n, what);
}

/* The new references to undefined names in what the script changed. */
static void script__undefined_fact(ScriptJob *self, CommandContext *ctx) {
  Array(ScriptChangedText) changes = {0};
  for (size_t i = 0; i < self->run.files.files.len; i++) {
    const ScriptFile *file = self->run.files.files.items[i];
    if (file->exists && file->text.len == file->original_len &&
        memcmp(file->text.data ? file->text.data : "", file->original ? file->original : "",
               file->original_len) == 0)
      continue;
    ScriptChangedText change = {file->rel,          file->lang,     file->original,
                                file->original_len, file->text.data, file->text.len};
    array_push(&changes, change);
  }
  StrBuf undefined = {0};
  script_problems_fact(changes.items, changes.len, &undefined);
  if (undefined.len) eddi_reply_builder_fact(ctx->reply, "%s", undefined.data);
  eddi_strbuf_free(&undefined);
  array_free(&changes);
}

static void script__reply(ScriptJob *self, CommandContext *ctx, size_t changed) {
  const ScriptCounts *c = &self->run.counts;
  const ScriptNode *root = self->script.root;
  if (root->children.len == 1 && root->children.items[0]->kind == SN_LET) {
    /* A lone let says what it kept. */
    const char *name = root->children.items[0]->var;
    for (size_t i = 0; i < self->run.vars.len; i++) {
      const ScriptVar *var = &self->run.vars.items[i];
      if (strcmp(var->name, name) != 0) continue;
      if (var->is_set)
        eddi_reply_builder_fact(ctx->reply, "Kept $%s: %zu element%s", name, var->set.len,
                                var->set.len == 1 ? "" : "s");
      else eddi_reply_builder_fact(ctx->reply, "Kept $%s", name);
      return;
    }
  }
  static const char *const kinds[][2] = {
      {"file", "files"},       {"line", "lines"},        {"call", "calls"},
      {"function", "functions"}, {"method", "methods"},  {"class", "classes"},
      {"variable", "variables"}, {"import", "imports"}};
  char what[64];
  StrBuf parts = {0};
  script__part(&parts, c->calls_updated, c->calls_updated == 1 ? "call updated" : "calls updated");
  script__part(&parts, c->replaced, "replaced");
  for (size_t k = 0; k < SCRIPT_ELEMENT_KINDS; k++) {
    snprintf(what, sizeof what, "%s removed", kinds[k][c->removed[k] != 1]);
    script__part(&parts, c->removed[k], what);
  }
  script__part(&parts, c->added, "added");
  script__part(&parts, c->imports_added, c->imports_added == 1 ? "import added" : "imports added");
  script__part(&parts, c->lines_added, c->lines_added == 1 ? "line added" : "lines added");
  for (size_t k = 0; k < SCRIPT_ELEMENT_KINDS; k++) {
    snprintf(what, sizeof what, "%s flagged", kinds[k][c->flagged[k] != 1]);
    script__part(&parts, c->flagged[k], what);
  }
  script__part(&parts, c->notes_flagged, "flagged");
  script__part(&parts, c->suggested, "suggested");
  for (size_t k = 0; k < SCRIPT_REFACTOR_KINDS; k++)
    script__part(&parts, c->refactored[k], script_refactor_phrase(k, c->refactored[k]));
  script__part(&parts, c->commands, c->commands == 1 ? "command" : "commands");
  if (self->run.collect_name) {
    eddi_reply_builder_fact(ctx->reply,
                            "Migration prepared: %zu file%s affected, use 'apply changeset %s'",
                            changed, changed == 1 ? "" : "s", self->run.collect_name);
  } else {
    if (self->run.rolled_back) eddi_strbuf_printf(&parts, "%srolled back", parts.len ? ", " : "");
    script__part(&parts, changed, changed == 1 ? "file changed" : "files changed");
    eddi_reply_builder_fact(ctx->reply, "Script completed: %s", parts.len ? parts.data : "no changes");
  }
  eddi_strbuf_free(&parts);
  eddi_reply_builder_fact_lines(ctx->reply, self->checked.data);
  script__undefined_fact(self, ctx);
  script__list_fact(ctx, "Flagged", &self->run.flags);
  script__list_fact(ctx, "Suggested", &self->run.suggestions);
  script__list_fact(ctx, "Notes", &self->run.notes);
}

/* Keep the script's top-level variables in the session. */
static void script__keep_vars(ScriptJob *self, EddiSession *session) {
  if (!session) return;
  EddiScriptState *state = NULL;
  for (size_t i = 0; i < self->run.vars.len; i++) {
    const ScriptVar *var = &self->run.vars.items[i];
    if (!state) state = eddi_script_state_of(session);
    eddi_script_state_set_var(state, var->name, var->is_set ? var->query_source : NULL,
                              var->is_set ? NULL : var->text);
  }
}

/* Whether file still holds what the script read: its document's text, or
 * the disk's as the transaction loaded it. */
static bool script__unchanged(const ScriptFile *file, const EddiEditFile *entry) {
  if (!file->exists) return !entry->exists;
  const char *now = entry->text.data ? entry->text.data : "";
  return entry->exists && entry->text.len == file->original_len &&
         memcmp(now, file->original, file->original_len) == 0;
}

static int script__finish(EddiJob *base, CommandContext *ctx) {
  ScriptJob *self = (ScriptJob *)base;
  self->session = ctx->session;
  /* An owner-thread script gave its texts to the documents: take them back
   * (the commit below writes them through the documents again). */
  if (self->run.host.command && !self->docs_restored) script__restore_docs(self);
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, ctx->workspace, ctx->session);
  int rc = 0;
  size_t changed = 0;
  StrBuf stale = {0};
  EddiChangeset *set = NULL;
  if (self->run.collect_name) {
    set = eddi_calloc(1, sizeof *set);
    set->name = eddi_strdup(self->run.collect_name);
  }
  for (size_t i = 0; rc == 0 && i < self->run.files.files.len; i++) {
    ScriptFile *file = self->run.files.files.items[i];
    if (!script_file_changed(file)) continue;
    EddiEditFile *entry;
    rc = eddi_edit_txn_file(&txn, file->rel, &entry, ctx->err);
    if (rc < 0) break;
    if (!script__unchanged(file, entry)) {
      eddi_strbuf_printf(&stale, "%s%s", stale.len ? ", " : "", file->rel);
      continue;
    }
    changed++;
    if (set)
      rc = eddi_changeset_add_file(set, ctx->workspace, file->rel, file->original,
                                   file->original_len, file->text.data, file->text.len, ctx->err);
    else eddi_edit_file_write(entry, file->text.data, file->text.len);
  }
  if (rc == 0 && stale.len) {
    rc = eddi_error_set(ctx->err, EDDI_ESTALE, "Changed while the script ran: %s; nothing written",
                        stale.data);
    eddi_error_hint(ctx->err, "Run the script again");
  }
  if (rc == 0 && !set && changed) rc = eddi_edit_txn_commit(&txn, NULL, ctx->err);
  if (rc == 0 && !set && changed) eddi_txn_history_note(&txn);
  if (rc == 0 && set && !ctx->session) {
    rc = eddi_error_set(ctx->err, EDDI_ESTATE, "collect changes keeps them in a session: none is open");
    eddi_error_hint(ctx->err, "Start one with \"Start <name>\"");
  }
  if (rc == 0 && set) eddi_script_state_add_changeset(eddi_script_state_of(ctx->session), set), set = NULL;
  eddi_changeset_free(set);
  eddi_edit_txn_free(&txn);
  eddi_strbuf_free(&stale);
  if (rc < 0) return rc;
  script__keep_vars(self, ctx->session);
  if (ctx->session) {
    /* The flags stay for Flags until the next script that flags. */
    EddiScriptState *state = eddi_script_state_of(ctx->session);
    if (self->run.flags.len) {
      for (size_t i = 0; i < state->flags.len; i++) eddi_free(state->flags.items[i]);
      array_clear(&state->flags);
      for (size_t i = 0; i < self->run.flags.len; i++) {
        array_push(&state->flags, eddi_strdup(self->run.flags.items[i]));
        array_push(&state->session_flags, eddi_strdup(self->run.flags.items[i]));
      }
    }
  }
  script__reply(self, ctx, changed);
  return 0;
}

/* ---------------------------------------------------------------- the commands */

/* The script's source: from the command word to the end of its line, and
 * for `{` to the end of the message. */
static char *script__source(CommandContext *ctx) {
  const char *word = ctx->spec ? ctx->spec->name : "";
  if (ctx->argc == 0) {
    StrBuf out = {0};
    eddi_strbuf_puts(&out, word);
    if (ctx->body_len) eddi_strbuf_putc(&out, '\n'), eddi_strbuf_append(&out, ctx->body, ctx->body_len);
    return eddi_strbuf_take(&out);
  }
  const char *start = ctx->args[0].source - ctx->args[0].column;
  const Token *last = &ctx->args[ctx->argc - 1];
  const char *end = ctx->body_len ? ctx->body + ctx->body_len : last->source + last->source_len;
  return eddi_strndup(start, (size_t)(end - start));
}

void eddi_script_run_prepare(CommandContext *ctx, ScriptRun *run, size_t max_steps,
                             uint64_t max_ms) {
  EddiWorkspace *workspace = ctx->workspace;
  const EddiConfig *config = eddi_workspace_config(workspace);
  script_files_init(&run->files, eddi_workspace_root(workspace), eddi_workspace_root_fd(workspace),
                    config->max_file_bytes, config->max_walk_entries, config->max_syntax_bytes);
  for (size_t i = 0; ctx->session && i < ctx->session->docs.len; i++) {
    EddiDoc *doc = ctx->session->docs.items[i];
    EddiError ignored;
    eddi_doc_sync(doc, &ignored);
    size_t n = eddi_text_len(&doc->text);
    RefOpenText copy = {eddi_strdup(doc->path), eddi_text_dup(&doc->text, 0, n), n};
    array_push(&run->files.docs, copy);
  }
  eddi_refactor_copy_buffers(workspace, false, &run->files.docs);
  run->current = ctx->session && ctx->session->current ? eddi_strdup(ctx->session->current->path)
                                                       : NULL;
  run->steps_cap = config->script_max_steps;
  run->ms_cap = config->script_max_ms;
  run->max_steps = EDDI_MIN(max_steps, run->steps_cap);
  run->max_ms = EDDI_MIN(max_ms, run->ms_cap);
  run->max_bytes = config->script_max_bytes;
  /* Variables kept between messages are read (not changed) on the worker;
   * the sender's later requests wait behind the job. */
  run->state = ctx->session ? eddi_script_state_find(ctx->session) : NULL;
}

int eddi_script_run_text(CommandContext *ctx, const char *text, size_t len) {
  ScriptJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = script__work;
  job->base.finish = script__finish;
  job->base.destroy = script__destroy;
  int rc = eddi_script_parse(text, len, ctx->ports, &job->script, ctx->err);
  if (rc < 0) {
    eddi_free(job);
    return rc;
  }
  EddiWorkspace *workspace = ctx->workspace;
  job->workspace = workspace;
  job->ports = ctx->ports;
  job->sender = ctx->sender;
  ScriptRun *run = &job->run;
  eddi_script_run_prepare(ctx, run, SCRIPT_STEPS_DEFAULT, SCRIPT_TIME_MS_DEFAULT);
  if (!eddi_script_needs_owner(job->script.root)) {
    eddi_lsp_check_init(&job->check, workspace, ctx->session);
    return eddi_job_start(ctx, &job->base);
  }
  job->session = ctx->session;
  run->host = (ScriptHost){script__command, script__changeset, script__position, job};
  script__work(&job->base);
  if (job->rc == 0 && !run->unchecked && script__changes(job) &&
      eddi_lsp_check_init(&job->check, workspace, ctx->session)) {
    /* The check is long work: the documents get their texts back
     * meanwhile, and the finish writes the script's through them. */
    script__restore_docs(job);
    job->docs_restored = true;
    job->base.work = script__check_work;
    return eddi_job_start(ctx, &job->base);
  }
  rc = script__finish(&job->base, ctx);
  script__destroy(&job->base);
  return rc;
}

/* ---------------------------------------------------------------- changesets as commands */

static int script__run_command(CommandContext *ctx);

/* The changeset ctx's args name after the word "changeset", or a Fail. */
static int script__named_changeset(CommandContext *ctx, const char *verb, EddiChangeset **out) {
  if (ctx->argc != 2 || !eddi_token_is(&ctx->args[0], "changeset"))
    return eddi_command_usage(ctx, "%s takes changeset <name>", verb);
  char *name = eddi_command_token_string(&ctx->args[1]);
  const EddiScriptState *state = eddi_script_state_find(ctx->session);
  *out = state ? eddi_script_state_changeset(state, name) : NULL;
  int rc = *out ? 0 : eddi_error_set(ctx->err, EDDI_ENOENT, "No changeset named %s", name);
  if (rc < 0 && state && state->changesets.len) {
    StrBuf names = {0};
    for (size_t i = 0; i < state->changesets.len; i++)
      eddi_strbuf_printf(&names, "%s%s", i ? ", " : "", state->changesets.items[i]->name);
    eddi_error_hint(ctx->err, "Changesets: %s", names.data);
    eddi_strbuf_free(&names);
  }
  eddi_free(name);
  return rc;
}

int eddi_script_preview_changeset(CommandContext *ctx) {
  EddiChangeset *set;
  int rc = script__named_changeset(ctx, "Preview", &set);
  if (rc < 0) return rc;
  StrBuf facts = {0}, diff = {0};
  eddi_changeset_preview(set, &facts, ctx->reply->raw_mode ? &diff : NULL);
  eddi_reply_builder_fact(ctx->reply, "%s", facts.data);
  if (diff.len) eddi_reply_builder_raw(ctx->reply, diff.data, diff.len);
  eddi_strbuf_free(&facts);
  eddi_strbuf_free(&diff);
  return 0;
}

static int script__changeset_command(CommandContext *ctx, bool apply) {
  /* rollback all, outside a script: a script of its own (nothing else is:
   * "apply x" run as a script would be the command Apply again). */
  if (!apply && ctx->argc == 1 && eddi_token_is(&ctx->args[0], "all"))
    return script__run_command(ctx);
  EddiChangeset *set;
  int rc = script__named_changeset(ctx, apply ? "Apply" : "Rollback", &set);
  if (rc == 0) rc = apply ? eddi_changeset_apply(set, ctx->workspace, ctx->session, ctx->err)
                          : eddi_changeset_rollback(set, ctx->workspace, ctx->session, ctx->err);
  if (rc < 0) return rc;
  eddi_reply_builder_fact(ctx->reply, "%s changeset %s: %zu file%s", apply ? "Applied" : "Rolled back",
                          set->name, set->files.len, set->files.len == 1 ? "" : "s");
  return 0;
}

static int script__apply_command(CommandContext *ctx) { return script__changeset_command(ctx, true); }
static int script__rollback_command(CommandContext *ctx) { return script__changeset_command(ctx, false); }

static int script__run_command(CommandContext *ctx) {
  char *text = script__source(ctx);
  int rc = eddi_script_run_text(ctx, text, strlen(text));
  eddi_free(text);
  return rc;
}

bool eddi_script_line_reads_only(const EddiCommandPorts *commands, const EddiCommandLine *line,
                                 bool collecting, char *word, size_t word_size) {
  const char *end = line->takes_body ? line->body + line->body_len : line->line + line->len;
  Script script;
  EddiError ignored;
  if (eddi_script_parse(line->line, (size_t)(end - line->line), commands, &script, &ignored) < 0)
    return true;
  bool writes = collecting && eddi_script_collects(&script)
                    ? eddi_script_writes_at_once(script.root, commands, word, word_size)
                    : eddi_script_writes(script.root, commands, word, word_size);
  eddi_script_free(&script);
  return !writes;
}

/* Preview changeset <name> and the single-line changeset forms. */
static const CommandSpec script_commands[] = {
    {"{", "{ <statements> }", "run a script: one transaction over many files", CMD_TAKES_BODY | CMD_SCRIPT,
     script__run_command},
    {"Foreach", "foreach [$x in] <set> [where <condition>] <action|{ ... }>",
     "run an action on every element of a set", CMD_SCRIPT, script__run_command},
    {"If", "if <condition> <action> [else <action>]", "run an action when a condition holds",
     CMD_SCRIPT, script__run_command},
    {"Let", "let $name = <set|value>", "keep a set or a value for later messages", CMD_SCRIPT,
     script__run_command},
    {"Use", "use $name <action>", "run an action on a kept set", CMD_SCRIPT, script__run_command},
    {"Try", "try { ... } catch { ... }", "run a block; on a failure undo it and run the other",
     CMD_SCRIPT, script__run_command},
    {"Collect", "collect changes as \"<name>\"", "(inside a script) keep its changes as a changeset",
     CMD_SCRIPT, script__run_command},
    {"Apply", "apply changeset <name>", "write a changeset, unless its files changed since",
     CMD_SESSION, script__apply_command},
    {"Rollback", "rollback changeset <name>", "put back the bytes from before a changeset",
     CMD_SESSION, script__rollback_command},
    {"Flags", "Flags [<offset>]", "the last script's flags, a page from offset",
     CMD_SESSION | CMD_READ_ONLY, script__flags_command},
};

COMMAND_GROUP(eddi_script_commands, script_commands);
