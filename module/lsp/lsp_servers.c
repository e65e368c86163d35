/* lsp_servers.c - see lsp_servers.h. */
#include "lsp/lsp_servers.h"

#include <limits.h>
#include <stdio.h>

#include "core/path.h"
#include "core/process.h"
#include "workspace/slot.h"

/* What eddi knows of a language's usual server. */
typedef struct {
  const char *lang;        /* eddi's name of the language */
  const char *name;        /* as replies name the server */
  const char *language_id; /* the protocol's */
  const char *program;     /* looked up on PATH */
  const char *command;     /* what runs it */
  EddiLspDiagnosticsWay diagnostics;
  /* It finds references in files it was not shown (it indexes the
   * workspace itself): Show References need not show it the files that
   * hold the name. */
  bool indexes_workspace;
} LspDefault;

static const LspDefault lsp__defaults[] = {
    {"c", "clangd", "c", "clangd", "clangd", EDDI_LSP_DIAGNOSTICS_PUBLISHED, false},
    {"cpp", "clangd", "cpp", "clangd", "clangd", EDDI_LSP_DIAGNOSTICS_PUBLISHED, false},
    {"python", "pyright", "python", "pyright-langserver", "pyright-langserver --stdio",
     EDDI_LSP_DIAGNOSTICS_PULLED, true},
    {"javascript", "typescript-language-server", "javascript", "typescript-language-server", "typescript-language-server --stdio",
     EDDI_LSP_DIAGNOSTICS_TSSERVER, false},
    {"typescript", "typescript-language-server", "typescript", "typescript-language-server", "typescript-language-server --stdio",
     EDDI_LSP_DIAGNOSTICS_TSSERVER, false},
    {"tsx", "typescript-language-server", "typescriptreact", "typescript-language-server", "typescript-language-server --stdio",
     EDDI_LSP_DIAGNOSTICS_TSSERVER, false},
};
#define LSP_DEFAULT_COUNT (sizeof lsp__defaults / sizeof lsp__defaults[0])

typedef struct {
  char *lang;
  EddiLspServer *server; /* NULL: the language has none */
} LspEntry;

typedef struct {
  char *root;
  Array(LspEntry) entries;
  char *workspace_file; /* the "LANG=COMMAND" lines of .eddi/lsp.conf, or NULL */
  bool workspace_file_read;
} LspServers;

static void servers__free(void *data) {
  LspServers *self = data;
  eddi_free(self->workspace_file);
  for (size_t i = 0; i < self->entries.len; i++) {
    eddi_lsp_server_free(self->entries.items[i].server);
    eddi_free(self->entries.items[i].lang);
  }
  array_free(&self->entries);
  eddi_free(self->root);
  eddi_free(self);
}

static const EddiSlotType servers__slot = {"lsp servers", servers__free, NULL};

/* A session's mark that it showed documents to the workspace's servers:
 * when one of its documents closes, they close it at their next use. The
 * servers are the workspace's (they outlive every session). */
typedef struct {
  LspServers *servers;
} LspSessionMark;

static bool mark__forget_doc(void *data, const EddiDoc *doc) {
  LspServers *servers = ((LspSessionMark *)data)->servers;
  char *path = eddi_path_join(servers->root, doc->path);
  for (size_t i = 0; i < servers->entries.len; i++)
    if (servers->entries.items[i].server)
      eddi_lsp_server_forget(servers->entries.items[i].server, path);
  eddi_free(path);
  return false;
}

static const EddiSlotType mark__slot = {"lsp documents", eddi_free, mark__forget_doc};

/* The command configured for lang in spec, as a new string, or NULL. */
static char *servers__configured(const char *spec, const char *lang) {
  size_t lang_len = strlen(lang);
  for (const char *line = spec; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len > lang_len && strncmp(line, lang, lang_len) == 0 && line[lang_len] == '=')
      return eddi_strndup(line + lang_len + 1, len - lang_len - 1);
    line = end ? end + 1 : NULL;
  }
  return NULL;
}

bool eddi_lsp_commands_valid(const char *spec, char *error, size_t error_size) {
  for (const char *line = spec; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    const char *eq = memchr(line, '=', len);
    if (!eq || eq == line || eq + 1 == line + len) {
      snprintf(error, error_size, "--lsp takes LANG=COMMAND, not \"%.*s\"", (int)EDDI_MIN(len, 80),
               line);
      return false;
    }
    line = end ? end + 1 : NULL;
  }
  return true;
}

/* The workspace's own choice of servers, EDDI_LSP_WORKSPACE_FILE under
 * root: "LANG=COMMAND" and "LANG=off" lines, '#' comments and blank lines
 * left out. NULL when there is none or it cannot be read. */
static char *servers__workspace_file(const char *root) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", root, EDDI_LSP_WORKSPACE_FILE) >= (int)sizeof path)
    return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  StrBuf lines = {0};
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    size_t len = strcspn(line, "\r\n");
    line[len] = '\0';
    const char *start = line;
    while (*start == ' ' || *start == '\t') start++;
    if (!*start || *start == '#' || !strchr(start, '=')) continue;
    eddi_strbuf_printf(&lines, "%s%s", lines.len ? "\n" : "", start);
  }
  fclose(f);
  return lines.len ? eddi_strbuf_take(&lines) : (eddi_strbuf_free(&lines), NULL);
}

/* A server for lang as the configuration, the workspace file and PATH
 * say, or NULL. */
static EddiLspServer *servers__make(const EddiConfig *config, LspServers *servers, const char *lang) {
  const char *root = servers->root;
  const LspDefault *known = NULL;
  for (size_t i = 0; i < LSP_DEFAULT_COUNT; i++)
    if (strcmp(lsp__defaults[i].lang, lang) == 0) known = &lsp__defaults[i];
  char *command = servers__configured(config->lsp_commands, lang);
  char *chosen = command ? NULL : servers__configured(servers->workspace_file, lang);
  if (chosen && strcmp(chosen, "off") == 0) {
    eddi_free(chosen);
    return NULL;
  }
  StrBuf refusal = {0}, refusal_hint = {0};
  if (chosen && !config->lsp_trust_workspace) {
    /* A cloned project must not run a program of its choosing unasked. */
    eddi_strbuf_printf(&refusal, "%s names %s as %s's language server, and commands from the "
                       "workspace run only when it is trusted", EDDI_LSP_WORKSPACE_FILE, chosen, lang);
    eddi_strbuf_printf(&refusal_hint, "Trust it with --lsp-trust-workspace (Emacs: "
                       "eddi-lsp-trust-workspace), name a server with --lsp %s=COMMAND, or "
                       "write %s=off there", lang, lang);
  }
  if (chosen) command = chosen;
  if (!command && known && eddi_process_found(known->program)) command = eddi_strdup(known->command);
  if (!command) return NULL;
  /* Replies name it as eddi knows it (pyright), else by its program's
   * file name without an extension. */
  const char *first = command;
  while (*first == ' ') first++;
  char *program = eddi_strndup(first, strcspn(first, " "));
  char *name = eddi_strdup(eddi_path_basename(program));
  char *dot = strrchr(name, '.');
  if (dot && dot != name) *dot = '\0';
  if (known && strcmp(name, known->program) == 0) {
    eddi_free(name);
    name = eddi_strdup(known->name);
  }
  EddiLspServerSpec spec = {
      .name = name,
      .command = command,
      .language_id = known ? known->language_id : lang,
      .root = root,
      .deadline_ms = config->lsp_deadline_ms ? config->lsp_deadline_ms : EDDI_LSP_DEADLINE_DEFAULT_MS,
      /* The usual program named with --lsp (another path, other
       * arguments) is asked for diagnostics as eddi asks it by default. */
      .diagnostics = known && strcmp(name, known->name) == 0 ? known->diagnostics
                                                             : EDDI_LSP_DIAGNOSTICS_PUBLISHED,
      .indexes_workspace = known && strcmp(name, known->name) == 0 && known->indexes_workspace,
      .refusal = refusal.data,
      .refusal_hint = refusal_hint.data,
  };
  EddiLspServer *server = eddi_lsp_server_new(&spec);
  eddi_strbuf_free(&refusal), eddi_strbuf_free(&refusal_hint);
  eddi_free(program);
  eddi_free(name);
  eddi_free(command);
  return server;
}

/* Queue, for server, the text of each of session's documents open in it:
 * it is changed to eddi's text before its next use. */
static void servers__update_held(const LspServers *servers, EddiLspServer *server,
                                 EddiSession *session) {
  for (size_t i = 0; server && session && i < session->docs.len; i++) {
    const EddiDoc *doc = session->docs.items[i];
    char *path = eddi_path_join(servers->root, doc->path);
    if (eddi_lsp_server_holds(server, path)) {
      size_t len = eddi_text_len(&doc->text);
      char *text = eddi_text_dup(&doc->text, 0, len);
      eddi_lsp_server_update(server, path, text, len);
      eddi_free(text);
    }
    eddi_free(path);
  }
}

EddiLspServer *eddi_lsp_for_language(EddiWorkspace *workspace, EddiSession *session,
                                     const char *lang) {
  const EddiConfig *config = eddi_workspace_config(workspace);
  if (config->lsp_off || !lang) return NULL;
  LspServers *self = eddi_workspace_slot(workspace, &servers__slot);
  if (!self) {
    self = eddi_calloc(1, sizeof *self);
    self->root = eddi_strdup(eddi_workspace_root(workspace));
    eddi_workspace_set_slot(workspace, &servers__slot, self);
  }
  if (session && !eddi_session_slot(session, &mark__slot)) {
    LspSessionMark *mark = eddi_malloc(sizeof *mark);
    mark->servers = self;
    eddi_session_set_slot(session, &mark__slot, mark);
  }
  for (size_t i = 0; i < self->entries.len; i++)
    if (strcmp(self->entries.items[i].lang, lang) == 0) {
      servers__update_held(self, self->entries.items[i].server, session);
      return self->entries.items[i].server;
    }
  if (!self->workspace_file_read) {
    self->workspace_file = servers__workspace_file(self->root);
    self->workspace_file_read = true;
  }
  LspEntry entry = {eddi_strdup(lang), servers__make(config, self, lang)};
  array_push(&self->entries, entry);
  return entry.server;
}
