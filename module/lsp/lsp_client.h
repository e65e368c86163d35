/* lsp_client.h - one language server process and eddi's talk with it.
 *
 * A server is made on the owner thread (nothing starts then) and used from
 * worker threads only: every call below that talks to the process blocks
 * its caller until the server answers or the deadline passes, so a command
 * calls it from its job's work() (workspace/command.h), never from the
 * command itself. One caller at a time talks to a server (a mutex); the
 * others wait their turn.
 *
 * The process starts on first use: initialize (offering the position
 * encodings utf-8 then utf-16; clangd's offsetEncoding too), initialized.
 * A server that stops (exits, closes its output, writes what is not LSP)
 * or ignores the $/cancelRequest of a request past its deadline is killed;
 * the next use starts it again, at once the first time; once it has
 * stopped twice in a row within EDDI_LSP_STABLE_MS of starting, not before
 * a back-off (EDDI_LSP_BACKOFF_MS, doubling to EDDI_LSP_BACKOFF_MAX_MS),
 * every use meanwhile failing at once saying when.
 *
 * Documents: eddi owns the text. A text shown to the server is opened with
 * didOpen and stays open; when it is shown again with other bytes it gets
 * a didChange of a new version: one ranged change from the text the
 * server holds (the bytes between what the two share at their start and
 * end) where the server takes incremental changes, else the whole text;
 * eddi_lsp_server_forget queues its didClose for the next use.
 */
#ifndef EDDI_LSP_CLIENT_H
#define EDDI_LSP_CLIENT_H

#include "lsp/lsp_wire.h"

typedef struct EddiLspServer EddiLspServer;

/* Largest message read from a server; a larger one stops it. */
#define EDDI_LSP_MESSAGE_MAX ((size_t)64 << 20)
/* After a $/cancelRequest, how long a server has to answer the request
 * (any answer, usually RequestCancelled) before it counts as ignoring
 * cancel and is restarted. */
#define EDDI_LSP_CANCEL_GRACE_MS 1000
/* A settled diagnose (EDDI_LSP_SETTLE) takes the diagnostics once the
 * server has been this long quiet, with no $/progress open. */
#define EDDI_LSP_QUIET_MS 300
/* A server that ran this long before it stopped was stable: its next
 * start has no back-off. */
#define EDDI_LSP_STABLE_MS 60000
/* The back-off before the start after the second quick stop in a row,
 * doubled for each one more, up to the max. */
#define EDDI_LSP_BACKOFF_MS 1000
#define EDDI_LSP_BACKOFF_MAX_MS 60000
/* How long shutdown and exit may take when eddi ends, before a kill. */
#define EDDI_LSP_SHUTDOWN_MS 2000

/* How a server's diagnostics of a text are had. */
typedef enum {
  /* textDocument/publishDiagnostics of its version, or after it was shown. */
  EDDI_LSP_DIAGNOSTICS_PUBLISHED = 0,
  /* Asked of the TypeScript server behind typescript-language-server
   * (workspace/executeCommand typescript.tsserverRequest, its
   * syntacticDiagnosticsSync and semanticDiagnosticsSync): it publishes
   * nothing for a file whose diagnostics stay empty, and no version, so a
   * publication cannot tell the diagnostics of a text from none yet. */
  EDDI_LSP_DIAGNOSTICS_TSSERVER = 1,
  /* Asked with LSP 3.17's textDocument/diagnostic, a full report of the
   * text last shown (pyright: its publications of a version may come
   * twice, the first before it analysed what the file imports). */
  EDDI_LSP_DIAGNOSTICS_PULLED = 2,
} EddiLspDiagnosticsWay;

typedef struct {
  const char *name;        /* as replies name it ("clangd") */
  const char *command;     /* the program and its arguments, words split at spaces */
  const char *language_id; /* the protocol's languageId ("c", "python") */
  const char *root;        /* the workspace folder, absolute */
  unsigned deadline_ms;    /* each request, and each wait for diagnostics */
  EddiLspDiagnosticsWay diagnostics;
  /* It finds references in files it was not shown (pyright indexes the
   * workspace; clangd 14 without an index does not). */
  bool indexes_workspace;
  /* When set, the server is not started: every use fails with this, and
   * refusal_hint as the way on (a command the configuration may not run). */
  const char *refusal, *refusal_hint;
} EddiLspServerSpec;

/* A server for spec (copied); starts nothing. */
EddiLspServer *eddi_lsp_server_new(const EddiLspServerSpec *spec);
/* shutdown and exit (a kill past EDDI_LSP_SHUTDOWN_MS), then free. Blocks:
 * call it when no worker uses self (the engine's end). */
void eddi_lsp_server_free(EddiLspServer *self);
/* As replies name it. Borrowed. */
const char *eddi_lsp_server_name(const EddiLspServer *self);
/* EddiLspServerSpec's indexes_workspace. */
bool eddi_lsp_server_indexes_workspace(const EddiLspServer *self);
/* How many times its process was started (tests see a restart in it). */
unsigned eddi_lsp_server_starts(EddiLspServer *self);

/* ---------------------------------------------------------------- diagnostics */

/* A text to show the server: path is absolute; text[0, len) the bytes as
 * eddi holds them (a buffer's, not the disk's). Borrowed for the call. */
typedef struct {
  const char *path;
  const char *text;
  size_t len;
} EddiLspText;

enum { EDDI_LSP_ERROR = 1, EDDI_LSP_WARNING = 2, EDDI_LSP_INFORMATION = 3, EDDI_LSP_HINT = 4 };

typedef struct {
  size_t text;      /* index of its EddiLspText */
  size_t offset;    /* byte offset of its start in that text */
  size_t line, col; /* the same as eddi shows positions: 0-based, col in characters */
  int severity;     /* EDDI_LSP_ERROR..HINT (a server that gives none: error) */
  char *message;    /* its first line */
} EddiLspDiagnostic;

typedef Array(EddiLspDiagnostic) EddiLspDiagnostics;
void eddi_lsp_diagnostics_free(EddiLspDiagnostics *self);

/* eddi_lsp_server_diagnose's flags. CLOSE: close the texts after (unsaved
 * versions for a check); without, they stay open for the next call's
 * didChange. SETTLE: once all are shown, show each again as a new version
 * and wait for those, then for the server to be quiet
 * (EDDI_LSP_QUIET_MS), so that a text's diagnostics account for every text
 * shown with it (a file and the file it imports, both changed). */
#define EDDI_LSP_CLOSE 1u
#define EDDI_LSP_SETTLE 2u
/* QUIET: only the wait for the server to be quiet, as SETTLE does after
 * showing the texts again (texts freshly opened need no second showing). */
#define EDDI_LSP_QUIET 4u
/* CHANGED_ONLY: only the texts the server does not hold with these bytes
 * are shown and waited for (a file's first showing is also how eddi knows
 * the server is ready for it); out gets the diagnostics of those alone,
 * their text indices counted among them. For a caller that shows texts
 * in order to ask something else (references, a definition). */
#define EDDI_LSP_CHANGED_ONLY 8u

/* Show the server texts[0, count) (opened, or changed to these bytes) and
 * wait for its diagnostics of each version (textDocument/publishDiagnostics,
 * which is also how eddi knows that clangd and pyright are ready for a
 * file), appended to out in the server's order, per text. Blocks (a
 * worker's call). Fails with err naming the server when it cannot start,
 * stops, or says nothing within the deadline; out then holds nothing. */
int eddi_lsp_server_diagnose(EddiLspServer *self, const EddiLspText *texts, size_t count,
                             unsigned flags, EddiLspDiagnostics *out, EddiError *err);

/* ---------------------------------------------------------------- rename */

/* A place a server's rename would change: the file (absolute path), the
 * 0-based line, and, when eddi has the file open in the server, the byte
 * offset of the change's start in the text shown. */
typedef struct {
  char *path;
  size_t line;
  size_t offset;
  bool open;
} EddiLspEdit;

typedef Array(EddiLspEdit) EddiLspEdits;
void eddi_lsp_edits_free(EddiLspEdits *self);

/* Ask textDocument/rename at byte offset of path (open in the server:
 * shown by a diagnose that did not close it) with new_name; append the
 * places of the WorkspaceEdit to out. 0, or 1 when the server gives no
 * rename there (a null result); fails naming the server (EDDI_ESTATE: it
 * answered with an error, such as a symbol it will not rename). Blocks. */
int eddi_lsp_server_rename(EddiLspServer *self, const char *path, size_t offset,
                           const char *new_name, EddiLspEdits *out, EddiError *err);

/* Wait until the server has ended every $/progress it began (an index, a
 * project load): what a request that needs the whole workspace (references,
 * rename) waits for. Starts the server if needed. Blocks. */
int eddi_lsp_server_wait_ready(EddiLspServer *self, EddiError *err);

/* doc at path (absolute) closed in eddi: queue its didClose, sent at the
 * next use. Does not block (any thread). */
void eddi_lsp_server_forget(EddiLspServer *self, const char *path);
/* Whether the document at path (absolute) is open in the server (shown by
 * a use that did not close it). Does not block (any thread). */
bool eddi_lsp_server_holds(EddiLspServer *self, const char *path);
/* The text of the open document at path is now text[0, len) (copied):
 * queue it, sent at the next use as a didChange before anything else,
 * so that what the server analyses besides the texts a use shows is
 * eddi's text, not an older one. Does not block (any thread). */
void eddi_lsp_server_update(EddiLspServer *self, const char *path, const char *text, size_t len);

/* ---------------------------------------------------------------- navigation */

/* A place a server names (a reference, a definition): the file (absolute
 * path), the place as eddi shows it (0-based line, col in characters:
 * counted in the text shown when the file is open in the server, else in
 * the file on disk), and its byte offset in that text. */
typedef struct {
  char *path;
  size_t line, col;
  size_t offset;
  bool open;
} EddiLspLocation;

typedef Array(EddiLspLocation) EddiLspLocations;
void eddi_lsp_locations_free(EddiLspLocations *self);

/* textDocument/references (the declaration included) and
 * textDocument/definition at byte offset of path, open in the server
 * (shown by a diagnose that did not close it): append the places, in the
 * server's order, to out. Fails naming the server. Blocks. */
int eddi_lsp_server_references(EddiLspServer *self, const char *path, size_t offset,
                               EddiLspLocations *out, EddiError *err);
int eddi_lsp_server_definition(EddiLspServer *self, const char *path, size_t offset,
                               EddiLspLocations *out, EddiError *err);
/* textDocument/hover there: *out the contents as text (a new string the
 * caller frees with eddi_free), or NULL when the server has none. Blocks. */
int eddi_lsp_server_hover(EddiLspServer *self, const char *path, size_t offset, char **out,
                          EddiError *err);

#endif
