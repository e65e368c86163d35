/* server_navigation.c - Show References, Show Type and Goto Definition,
 * answered by the file's language server.
 *
 * eddi's own analysis resolves names within what it parsed; references
 * across files, a definition behind an import, and the type of a value are
 * what the language's server knows. Each command names a place (the
 * cursor, L:C, or a structural target's name), shows the server the texts
 * as eddi holds them (the current buffer and the other open buffers of its
 * language, unsaved edits included) and asks at that place, on a worker:
 * the owner thread answers other senders meanwhile. Every reply names the
 * server. Without a server the commands fail saying so, with a hint. */
#include "services/commands.h"

#include <stdio.h>

#include "core/path.h"
#include "lsp/lsp_servers.h"
#include "services/structure.h"
#include "services/word_users.h"

/* How many places a reply lists before ", and N more". */
#define NAVIGATION_LIST_MAX 50

typedef enum { ASK_REFERENCES, ASK_DEFINITION, ASK_TYPE } NavigationAsk;

static const char *const navigation__commands[] = {"Show References", "Goto Definition",
                                                   "Show Type"};

typedef struct {
  char *path; /* absolute */
  char *text;
  size_t len;
} NavigationText;

typedef struct {
  EddiJob base;
  EddiLspServer *server; /* the workspace's: lives longer than the job */
  NavigationAsk ask;
  char *root;                  /* the workspace folder, absolute */
  Array(NavigationText) texts; /* [0] the current document */
  size_t offset;               /* where to ask, in texts[0] */
  size_t line, col;            /* the same, as replies give places */
  const char *lang;            /* eddi's name (static) */
  char *word;                  /* the name at offset, "" when none */
  EddiWordUsers users; /* files on disk holding word, shown then closed */
  int rc;
  EddiError err;
  EddiLspLocations found;
  char *hover;
} NavigationJob;

static void navigation_job__destroy(EddiJob *base) {
  NavigationJob *self = (NavigationJob *)base;
  for (size_t i = 0; i < self->texts.len; i++) {
    eddi_free(self->texts.items[i].path);
    eddi_free(self->texts.items[i].text);
  }
  array_free(&self->texts);
  eddi_word_users_free(&self->users);
  eddi_free(self->word);
  eddi_lsp_locations_free(&self->found);
  eddi_free(self->hover);
  eddi_free(self->root);
  eddi_free(self);
}

/* A file the walk may show for References: of the server's language,
 * not among the texts shown already. */
static bool navigation__wants_user(const void *context, const char *rel, const EddiLang *lang) {
  const NavigationJob *self = context;
  if (strcmp(lang->name, self->lang) != 0) return false;
  size_t root_len = strlen(self->root);
  for (size_t i = 0; i < self->texts.len; i++) {
    const char *path = self->texts.items[i].path;
    if (strncmp(path, self->root, root_len) == 0 && path[root_len] == '/' &&
        strcmp(path + root_len + 1, rel) == 0)
      return false;
  }
  return true;
}

/* Worker: show the texts (kept open, as Validate leaves them; one the
 * server holds with the same bytes is not shown again), then ask.
 * References wait for the server's $/progress to end: they need the
 * whole workspace, which pyright indexes after it opens a file. */
static void navigation_job__work(EddiJob *base) {
  NavigationJob *self = (NavigationJob *)base;
  Array(EddiLspText) shown = {0};
  for (size_t i = 0; i < self->texts.len; i++) {
    NavigationText *t = &self->texts.items[i];
    array_push(&shown, ((EddiLspText){t->path, t->text, t->len}));
  }
  EddiLspDiagnostics diagnostics = {0};
  self->rc = eddi_lsp_server_diagnose(self->server, shown.items, shown.len,
                                      EDDI_LSP_CHANGED_ONLY, &diagnostics, &self->err);
  eddi_lsp_diagnostics_free(&diagnostics);
  shown.len = 0;
  const char *path = self->texts.items[0].path;
  if (self->rc == 0 && self->ask == ASK_REFERENCES && self->word[0] &&
      !eddi_lsp_server_indexes_workspace(self->server)) {
    const char *words[] = {self->word};
    EddiWordUsersQuery query = {self->root, words, 1, navigation__wants_user, self};
    eddi_word_users_find(&query, &self->users);
    for (size_t i = 0; i < self->users.len; i++) {
      EddiWordUser *user = &self->users.items[i];
      array_push(&shown, ((EddiLspText){user->abs, user->text, user->len}));
    }
    if (shown.len)
      self->rc = eddi_lsp_server_diagnose(self->server, shown.items, shown.len,
                                          EDDI_LSP_CHANGED_ONLY, &diagnostics, &self->err);
    eddi_lsp_diagnostics_free(&diagnostics);
  }
  if (self->rc == 0 && self->ask == ASK_REFERENCES)
    self->rc = eddi_lsp_server_wait_ready(self->server, &self->err);
  array_free(&shown);
  if (self->rc == 0 && self->ask == ASK_REFERENCES)
    self->rc = eddi_lsp_server_references(self->server, path, self->offset, &self->found,
                                          &self->err);
  else if (self->rc == 0 && self->ask == ASK_DEFINITION)
    self->rc = eddi_lsp_server_definition(self->server, path, self->offset, &self->found,
                                          &self->err);
  else if (self->rc == 0)
    self->rc = eddi_lsp_server_hover(self->server, path, self->offset, &self->hover, &self->err);
  /* Not open in eddi: closed in the server at its next use. */
  for (size_t i = 0; i < self->users.len; i++)
    eddi_lsp_server_forget(self->server, self->users.items[i].abs);
}

/* A path as replies name files: from the workspace root when inside it. */
static const char *navigation__shown_path(const NavigationJob *self, const char *path) {
  size_t n = strlen(self->root);
  if (strncmp(path, self->root, n) == 0 && path[n] == '/') return path + n + 1;
  return path;
}

static int navigation__order(const void *a, const void *b) {
  const EddiLspLocation *x = a, *y = b;
  int by_path = strcmp(x->path, y->path);
  if (by_path) return by_path;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->col < y->col ? -1 : x->col > y->col;
}

/* Owner thread: the document at a server's place, opened in the session
 * when it is in the workspace and not open yet; NULL when it cannot be. */
static EddiDoc *navigation__doc_at(CommandContext *ctx, const char *rel, const char *abs) {
  for (size_t i = 0; i < ctx->session->docs.len; i++)
    if (strcmp(ctx->session->docs.items[i]->path, rel) == 0) return ctx->session->docs.items[i];
  if (ctx->session->docs.len >= eddi_workspace_config(ctx->workspace)->max_open_files) return NULL;
  EddiBackend *backend = NULL;
  StrBuf text = {0};
  bool is_new = false;
  EddiError ignored = {0};
  EddiDocRequest request = {.rel = rel, .abs = abs, .create = false};
  EddiDoc *doc = NULL;
  if (eddi_workspace_open_backend(ctx->workspace, &request, &backend, &text, &is_new, &ignored) ==
      0) {
    doc = eddi_doc_new_taking(rel, backend, &text, is_new,
                              eddi_workspace_config(ctx->workspace)->undo_groups);
    eddi_session_add_doc(ctx->session, doc);
  }
  eddi_strbuf_free(&text);
  return doc;
}

static int navigation__finish_definition(NavigationJob *self, CommandContext *ctx,
                                         const char *name) {
  if (!self->found.len) {
    eddi_error_set(ctx->err, EDDI_ENOENT, "%s: no definition at %zu:%zu", name, self->line,
                   self->col);
    eddi_error_hint(ctx->err, "Goto Definition L:C with the place of a name");
    return EDDI_ENOENT;
  }
  const EddiLspLocation *first = &self->found.items[0];
  const char *rel = navigation__shown_path(self, first->path);
  EddiDoc *doc = rel != first->path ? navigation__doc_at(ctx, rel, first->path) : NULL;
  if (!doc) { /* outside the workspace (a library's stub): say where, do not move */
    eddi_reply_builder_fact(ctx->reply, "Definition %s:%zu:%zu", rel, first->line, first->col);
    eddi_reply_builder_fact(ctx->reply, "Not opened");
  } else {
    if (doc != ctx->session->current)
      eddi_reply_builder_fact(ctx->reply, "File %s", doc->path);
    ctx->session->current = doc;
    if (eddi_text_offset_of(&doc->text, first->line, first->col, &doc->cursor) != 0)
      doc->cursor = eddi_text_len(&doc->text);
    eddi_command_fact_cursor(ctx, doc);
  }
  for (size_t i = 1; i < self->found.len && i <= NAVIGATION_LIST_MAX; i++) {
    const EddiLspLocation *also = &self->found.items[i];
    eddi_reply_builder_fact(ctx->reply, "Also %s:%zu:%zu", navigation__shown_path(self, also->path),
                            also->line, also->col);
  }
  eddi_reply_builder_fact(ctx->reply, "From %s", name);
  return 0;
}

static int navigation_job__finish(EddiJob *base, CommandContext *ctx) {
  NavigationJob *self = (NavigationJob *)base;
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  const char *name = eddi_lsp_server_name(self->server);
  if (self->ask == ASK_DEFINITION) return navigation__finish_definition(self, ctx, name);
  if (self->ask == ASK_TYPE) {
    if (!self->hover) {
      eddi_reply_builder_payload(ctx->reply, "At %zu:%zu, From %s, No type information",
                                 self->line, self->col, name);
      return 0;
    }
    eddi_reply_builder_payload(ctx->reply, "At %zu:%zu, From %s", self->line, self->col, name);
    eddi_reply_builder_text(ctx->reply, "Txt", self->hover, strlen(self->hover));
    return 0;
  }
  if (self->found.len)
    qsort(self->found.items, self->found.len, sizeof *self->found.items, navigation__order);
  size_t count = self->found.len;
  if (!count) {
    eddi_reply_builder_payload(ctx->reply, "%s: No references", name);
    return 0;
  }
  StrBuf list = {0};
  for (size_t i = 0; i < count && i < NAVIGATION_LIST_MAX; i++) {
    const EddiLspLocation *l = &self->found.items[i];
    eddi_strbuf_printf(&list, "%s%s:%zu:%zu", i ? ", " : "", navigation__shown_path(self, l->path),
                       l->line, l->col);
  }
  if (count > NAVIGATION_LIST_MAX)
    eddi_strbuf_printf(&list, ", and %zu more", count - NAVIGATION_LIST_MAX);
  eddi_reply_builder_payload(ctx->reply, "%s: %zu %s: %s", name, count,
                             count == 1 ? "reference" : "references", list.data);
  eddi_strbuf_free(&list);
  return 0;
}

/* The place asked about, from ctx->args[1...]: none (the cursor), L:C, or
 * a structural target (its name). */
static int navigation__place(CommandContext *ctx, NavigationAsk ask, EddiDoc *doc,
                             EddiSyntax *syn, size_t *offset) {
  const char *command = navigation__commands[ask];
  if (ctx->argc == 1) {
    *offset = doc->cursor;
    return 0;
  }
  const Token *at = &ctx->args[1];
  if (at->kind == TOKEN_PAIR) {
    if (ctx->argc != 2) return eddi_command_usage(ctx, "%s takes one place", command);
    if (eddi_text_offset_of(&doc->text, (size_t)at->first, (size_t)at->second, offset) == 0)
      return 0;
    size_t end_line, end_col;
    eddi_text_position_of(&doc->text, eddi_text_len(&doc->text), &end_line, &end_col);
    eddi_error_set(ctx->err, EDDI_EINVAL, "Invalid position %ld:%ld", at->first, at->second);
    eddi_error_hint(ctx->err, "File ends at %zu:%zu", end_line, end_col);
    return EDDI_EINVAL;
  }
  StructureTarget t;
  size_t next;
  EddiElement *e = NULL;
  int rc = eddi_structure_parse_target(ctx, 1, &t, &next);
  if (rc < 0) return rc;
  if (next != ctx->argc) rc = eddi_command_usage(ctx, "%s takes one target", command);
  if (rc == 0) rc = eddi_structure_resolve(ctx, doc, syn, &t, &e);
  eddi_structure_target_free(&t);
  if (rc < 0) return rc;
  *offset = e->name_end > e->name_start ? e->name_start : e->start;
  return 0;
}

/* Show References, Goto Definition, Show Type: ctx->args[0] is the word
 * after the verb. */
static int navigation__ask(CommandContext *ctx, NavigationAsk ask) {
  EddiDoc *doc = ctx->session->current;
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  size_t offset;
  rc = navigation__place(ctx, ask, doc, syn, &offset);
  if (rc < 0) return rc;
  const char *lang = syn->lang->name;
  EddiLspServer *server = eddi_lsp_for_language(ctx->workspace, ctx->session, lang);
  if (!server) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "%s needs a language server; %s has none for %s",
                   navigation__commands[ask], doc->path, lang);
    eddi_error_hint(ctx->err, ask == ASK_REFERENCES
                                  ? "Name one with --lsp %s=COMMAND, or Grep for the name"
                                  : "Name one with --lsp %s=COMMAND, or Show Function <name>",
                    lang);
    return EDDI_ESTATE;
  }
  NavigationJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = navigation_job__work;
  job->base.finish = navigation_job__finish;
  job->base.destroy = navigation_job__destroy;
  job->server = server;
  job->ask = ask;
  job->root = eddi_path_join(eddi_workspace_root(ctx->workspace), "");
  size_t n = strlen(job->root);
  while (n > 1 && job->root[n - 1] == '/') job->root[--n] = '\0';
  job->offset = offset;
  job->lang = lang;
  eddi_text_position_of(&doc->text, offset, &job->line, &job->col);
  /* The current document first, then the session's other open documents
   * of its language (by their names): a server that does not index the
   * workspace (clangd without compile_commands.json) finds references in
   * what it was shown. */
  for (size_t i = 0; i <= ctx->session->docs.len; i++) {
    EddiDoc *each = i == 0 ? doc : ctx->session->docs.items[i - 1];
    if (i > 0) {
      const EddiLang *other = eddi_lang_detect(each->path, NULL, 0);
      if (each == doc || !other || strcmp(other->name, lang) != 0) continue;
    }
    NavigationText t = {eddi_path_join(eddi_workspace_root(ctx->workspace), each->path), NULL,
                        eddi_text_len(&each->text)};
    t.text = eddi_text_dup(&each->text, 0, t.len);
    array_push(&job->texts, t);
  }
  /* The name at the place, which the files shown for References hold. */
  const NavigationText *current = &job->texts.items[0];
  size_t word_start = offset, word_end = offset;
  while (word_start > 0 && eddi_structure_is_ident(current->text[word_start - 1])) word_start--;
  while (word_end < current->len && eddi_structure_is_ident(current->text[word_end])) word_end++;
  job->word = eddi_strndup(current->text + word_start, word_end - word_start);
  return eddi_job_start(ctx, &job->base);
}

int eddi_run_show_references(CommandContext *ctx) { return navigation__ask(ctx, ASK_REFERENCES); }
int eddi_run_goto_definition(CommandContext *ctx) { return navigation__ask(ctx, ASK_DEFINITION); }
int eddi_run_show_type(CommandContext *ctx) { return navigation__ask(ctx, ASK_TYPE); }
