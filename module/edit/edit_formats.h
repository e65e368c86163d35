/* edit_formats.h - the edit formats models already speak, one entry each.
 *
 * The EddiSpeak commands (Read, Grep, Edit, Patch, Update) and the server's
 * JSON-RPC / MCP methods call these. Each one works the same way: parse the
 * whole input, match every change against the files (module/edit/matcher.h),
 * build the new texts in a transaction (module/edit/transaction.h), and only
 * then write. On any error nothing is written and err says what to do next.
 *
 * session may be NULL (a JSON-RPC caller without one): tags are then checked
 * against the files' contents only, with no stale-tag rebase and no named
 * registers across calls.
 */
#ifndef EDDI_EDIT_FORMATS_H
#define EDDI_EDIT_FORMATS_H

#include "edit/grep.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

/* What an edit did, for the reply. */
typedef struct {
  StrBuf report;   /* per file: "[path#TAG]" and a numbered preview, or "A/D path" */
  StrBuf warnings; /* one per line: leniencies used, rebases made */
  size_t files;    /* files written, created, moved or deleted */
  bool no_change;  /* everything applied and nothing changed */
} EddiEditReport;

void eddi_edit_report_free(EddiEditReport *self);

/* The report as a model reads it, appended to out: a "No change: ..." line
 * when nothing changed, the per-file report, then "Warning: ..." lines. Every
 * front end (the EddiSpeak commands, the server's JSON-RPC and MCP calls)
 * shows the same text. */
void eddi_edit_report_render(const EddiEditReport *self, StrBuf *out);

/* The hashline tag of a text: xxh32 (seed 0) of the text with each line's
 * trailing spaces, tabs and CRs removed, low 16 bits as 4 hex digits (the
 * tags of oh-my-pi's hashline, so a model trained on them reads ours). */
void eddi_hashline_tag(const char *text, size_t len, char tag[5]);

/* Lines of a Read page and matches of a Grep page. */
#define EDDI_HASHLINE_PAGE 200

/* Hashline read: "[PATH#TAG]" then "N:TEXT" rows from line offset (1-based;
 * 0 = 1) for at most limit lines (0 or more than a page: a page), and a
 * footer naming the next offset. Records a snapshot of the file. */
int eddi_edit_read(EddiWorkspace *workspace, EddiSession *session, const char *path, size_t offset,
                   size_t limit, StrBuf *out, EddiError *err);

/* Hashline grep: matches of a PCRE2 regex (flags as the lexer's REGEX_*) in
 * the files whose paths match glob (NULL: all), grouped under "[PATH#TAG]"
 * headers, a page of matches from match offset. A hit records a snapshot
 * (so the file may be edited straight away). */
int eddi_edit_grep(EddiWorkspace *workspace, EddiSession *session, const EddiGrepQuery *query,
                   StrBuf *out, EddiError *err);

/* Hashline edit: "[PATH#TAG]" sections of PUT/CUT/REM/MV operations. */
int eddi_edit_hashline(EddiWorkspace *workspace, EddiSession *session, const char *input, size_t len,
                       EddiEditReport *report, EddiError *err);

/* Codex apply_patch: "*** Begin Patch" ... "*** End Patch". */
int eddi_edit_apply_patch(EddiWorkspace *workspace, EddiSession *session, const char *patch,
                          size_t len, EddiEditReport *report, EddiError *err);

/* SEARCH/REPLACE blocks ("<<<<<<< SEARCH" / "=======" / ">>>>>>> REPLACE",
 * markers of 5 to 9 characters), each after a line naming its file (fenced
 * or not); path is used for blocks that name none (may be NULL). */
int eddi_edit_search_replace(EddiWorkspace *workspace, EddiSession *session, const char *path,
                             const char *body, size_t len, EddiEditReport *report,
                             EddiError *err);

/* file.update: content holds <change><original>..</original><modified>..
 * </modified></change> blocks (XML entities, CDATA). A missing file is
 * created with content as it is. */
int eddi_edit_file_update(EddiWorkspace *workspace, EddiSession *session, const char *path,
                          const char *content, size_t len, EddiEditReport *report,
                          EddiError *err);

/* Replace mode: old_string -> new_string edits (EddiReplaceEdit, eddi.h) of
 * one file, atomic. */

int eddi_edit_replace(EddiWorkspace *workspace, EddiSession *session, const char *path,
                      const EddiReplaceEdit *edits, size_t count, EddiEditReport *report,
                      EddiError *err);

/* Update, the one choice between the two block formats: SEARCH/REPLACE
 * blocks (told apart by their first marker line; path is for blocks that
 * name no file, may be NULL) or <change> blocks for path. <change> blocks
 * without a path: EDDI_EINVAL, with no hint, so that a command can add its
 * usage. */
int eddi_edit_update(EddiWorkspace *workspace, EddiSession *session, const char *path,
                     const char *body, size_t len, EddiEditReport *report, EddiError *err);

/* Whether a bodyless body starts with a SEARCH/REPLACE marker line, so
 * Update can tell the two formats apart. */
bool eddi_edit_is_search_replace(const char *body, size_t len);

#endif
