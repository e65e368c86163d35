/* lsp_servers.h - which language server serves a language in a workspace.
 *
 * One server per (language, workspace), kept in a workspace slot and made
 * on first ask; its process starts on first use (lsp_client.h). A
 * language's server is, in order: none when the configuration turns
 * servers off (--no-lsp); the command the configuration names for it
 * (--lsp LANG=COMMAND); the one the workspace's EDDI_LSP_WORKSPACE_FILE
 * names ("LANG=off": none; a command runs only when the configuration
 * trusts the workspace, else the server refuses every use, saying why);
 * its usual program when that is found on PATH (clangd,
 * pyright-langserver, typescript-language-server); else none, and the
 * commands answer as they do without a server.
 */
#ifndef EDDI_LSP_SERVERS_H
#define EDDI_LSP_SERVERS_H

#include "lsp/lsp_client.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

/* A request or a wait for diagnostics past this is given up (EddiConfig's
 * lsp_deadline_ms when it is 0). */
#define EDDI_LSP_DEADLINE_DEFAULT_MS 20000
/* How many files that name a word a command shows a server besides its
 * own (the users of a renamed name, the files that may refer to it). */
#define EDDI_LSP_USERS_MAX 40
/* The workspace's own choice of servers, under its root (read once). */
#define EDDI_LSP_WORKSPACE_FILE ".eddi/lsp.conf"

/* The server of language lang (eddi's name: "c", "python") in workspace,
 * or NULL when it has none. Owner thread. Borrowed: it lives as long as
 * the workspace, so a job may keep the pointer while it runs. session
 * (may be NULL), whose documents the caller shows the server, is marked so
 * that a document it closes is closed in the servers too; those of its
 * documents the server holds open are brought to their texts as they are
 * now before the server's next use (eddi_lsp_server_update). */
EddiLspServer *eddi_lsp_for_language(EddiWorkspace *workspace, EddiSession *session,
                                     const char *lang);

/* Whether spec ("LANG=COMMAND" lines joined by '\n') reads as the
 * configuration expects; on a bad line, writes why into error. */
bool eddi_lsp_commands_valid(const char *spec, char *error, size_t error_size);

#endif
