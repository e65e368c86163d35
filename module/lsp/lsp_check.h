/* lsp_check.h - the second opinion on a planned write.
 *
 * Before a semantic write (a Refactor, a Modify, a script's changes)
 * reaches the disk, the language servers see the files it changes as
 * they are and as they would be, as unsaved versions, and say what they
 * make of each: a plan after which a server reports an error it did not
 * report before is refused, with the server's message and place. A
 * rename also asks the server for its own rename of the same symbol: a
 * place the server would change and the plan does not refuses it too.
 * Files
 * the plan leaves as they are but that use what it changes (the importers
 * of a renamed function) are shown too, so that what the plan missed
 * there shows as their new error.
 *
 * A server that cannot give its opinion (it cannot start, stops, says
 * nothing within the deadline) makes the check unsure, and an unsure
 * check refuses as well: no write is passed on half an answer. The
 * caller may ask to write without the check (Unchecked).
 *
 * Errors are matched by their message within a file, positions aside (a
 * change moves lines); for a rename, the new name in a message counts as
 * the old one, so that an error the code had before and still has is not
 * taken for a new one because the name in it changed.
 */
#ifndef EDDI_LSP_CHECK_H
#define EDDI_LSP_CHECK_H

#include "lsp/lsp_servers.h"

/* The servers a check may use, taken on the owner thread; the servers
 * live as long as the workspace, so a job may use them on a worker. */
typedef struct {
  const char *lang; /* eddi's name of the language (the language table's) */
  EddiLspServer *server;
} EddiLspServing;

typedef struct {
  Array(EddiLspServing) servers;
} EddiLspCheck;

/* Owner thread: the servers of every language the workspace has one for
 * (session may be NULL). Whether there is any. */
bool eddi_lsp_check_init(EddiLspCheck *self, EddiWorkspace *workspace, EddiSession *session);
void eddi_lsp_check_free(EddiLspCheck *self);
/* Whether lang has a server in self. */
bool eddi_lsp_check_covers(const EddiLspCheck *self, const char *lang);

/* One file of a plan. before is its text now (NULL: the plan makes it),
 * after its text once written (NULL: the plan deletes it); a file the plan
 * leaves alone but that is shown for what it uses has after == before. */
typedef struct {
  const char *path; /* workspace path, as replies name it */
  const char *lang; /* eddi's name, or NULL (no server is asked) */
  const char *before;
  size_t before_len;
  const char *after;
  size_t after_len;
  /* A rename's: where in before it writes the new name (byte offsets of
   * the old name's starts), sorted. */
  const size_t *renamed;
  size_t renamed_count;
} EddiLspPlanned;

/* How many of a server's new errors a refusal lists. */
#define EDDI_LSP_CHECK_LIST_MAX 5

/* Worker: ask each file's server about files[0, count) (root: the
 * workspace folder, absolute). old_name and new_name (either may be NULL)
 * are a rename's; skip is how the caller's command writes without the
 * check, for the hint ("Unchecked"), and rename_way how it renames the
 * places the server would rename too (NULL: "Add Unsure to rename the
 * unsure references too"). 0 when no server reports a new error; said then holds
 * the reply's facts, one a line: "Checked by pyright", or "Not checked by
 * clangd: it reads a.h from disk, not as planned" (a plan that makes,
 * moves or deletes a file, or for clangd 14 changes a header, cannot be
 * shown as planned: servers find imported and included files on disk; a
 * rename is still compared with the server's, on the texts before:
 * "Rename checked by clangd, not its diagnostics: ..."). Else fails with
 * err, nothing to be written:
 *   EDDI_ESTATE, "pyright: report.py:7:18: "Item" is not defined; nothing
 *     written" (up to EDDI_LSP_CHECK_LIST_MAX places, and how many more),
 *     or "pyright would also rename use.py:2:13; nothing written";
 *   EDDI_EIO, the server's own failure and that the check is unsure. */
int eddi_lsp_check_run(const EddiLspCheck *self, const char *root, const EddiLspPlanned *files,
                       size_t count, const char *old_name, const char *new_name,
                       const char *skip, const char *rename_way, StrBuf *said, EddiError *err);

#endif
