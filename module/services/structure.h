/* structure.h - the commands over the code's structure (tree-sitter), and
 * what they share.
 *
 * Where each lives:
 * - structure.c: structural targets ("Function n", "Method C.m", "Class n")
 *   found in a document, the line helpers the commands below share, and
 *   Goto, Show and Delete of an element;
 * - structure_insert.c: Insert Function/Method/Class/Import;
 * - modify_command.c: Modify; analyze_command.c: Analyze and Validate;
 *   comment_command.c: Comment; format_command.c: Format;
 * - structure_commands.c: their command table (eddi_structure_commands).
 *
 * Everything language-specific comes from module/syntax/ (queries and
 * language.conf): these files speak of elements, spans and lines only.
 * Edits by element refuse to act on an element that holds a parse error:
 * where the tree is wrong, the element's extent is a guess. */
#ifndef EDDI_STRUCTURE_H
#define EDDI_STRUCTURE_H

#include "edit/matcher.h" /* eddi_lines_count */
#include "services/commands.h"
#include "syntax/outline.h"
#include "syntax/syntax.h"

/* ---------------------------------------------------------------- commands */

/* For the commands that also take plain targets (navigation_commands.c,
 * edit_commands.c). Each returns 1 when the target is not a structural one
 * (the caller goes on with its own targets), else 0 or a negative EDDI_E*
 * code. */
int eddi_structure_goto(CommandContext *ctx);
int eddi_structure_show(CommandContext *ctx);
int eddi_structure_insert(CommandContext *ctx);
int eddi_structure_delete(CommandContext *ctx);

/* The words of the structural targets: the element kinds and Goto's
 * edges. */
#define EDDI_STRUCTURE_KIND_COUNT 4
#define EDDI_STRUCTURE_EDGE_COUNT 4
extern const char *const eddi_structure_kind_words[EDDI_STRUCTURE_KIND_COUNT];
extern const char *const eddi_structure_edge_words[EDDI_STRUCTURE_EDGE_COUNT];

/* Which of a command's plain targets (Line, Block ...) token names, after
 * its structural ones were tried; on no match the did-you-mean looks at
 * every target, the kinds (and with edges, Goto's edges) included. */
int eddi_structure_choose_plain(CommandContext *ctx, const Token *token, const char *const *plain,
                                size_t count, bool edges);

/* The handlers of eddi_structure_commands. */
int eddi_run_modify(CommandContext *ctx);
int eddi_run_analyze(CommandContext *ctx);
int eddi_run_validate(CommandContext *ctx);
int eddi_run_comment(CommandContext *ctx);
int eddi_run_format(CommandContext *ctx);

/* ---------------------------------------------------------------- shared */

/* The document's syntax, within the engine's size limit for parsing. */
int eddi_structure_syntax(CommandContext *ctx, EddiDoc *doc, EddiSyntax **syn);

/* Lines and positions of the document's text. */
size_t eddi_structure_line_of(const EddiDoc *doc, size_t offset);
void eddi_structure_position(const EddiDoc *doc, size_t offset, size_t *line, size_t *col);
/* Where an element's last line ends, newline included. */
size_t eddi_structure_element_end(const EddiDoc *doc, const EddiElement *e);
/* The leading whitespace of a line, as a new string the caller frees. */
char *eddi_structure_indent_of_line(const EddiDoc *doc, size_t line);
bool eddi_structure_line_blank(const EddiDoc *doc, size_t line);
/* Whether c may be part of a name (any byte of a multi-byte character is). */
bool eddi_structure_is_ident(char c);

/* The tree node of e's parameter list (e->has_params), or a null node. */
TSNode eddi_structure_params_node(const EddiSyntax *syn, const EddiElement *e);

/* A structural target as written: "Function name[(params)]", "Method C.m". */
typedef struct {
  unsigned kinds;   /* EddiElementKind bits it may name */
  const char *word; /* "Function" as the user wrote the kind */
  char *name;
  char *owner;
  char *params; /* NULL when no parameter list was given */
} StructureTarget;

/* Parse the target at ctx->args[at] into out (freed with
 * eddi_structure_target_free); *next receives the index after it. */
int eddi_structure_parse_target(CommandContext *ctx, size_t at, StructureTarget *out,
                                size_t *next);
void eddi_structure_target_free(StructureTarget *self);
/* The one element a target names (borrowed from syn), or a Fail: not
 * found with the nearest name, or ambiguous with every candidate. */
int eddi_structure_resolve(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn,
                           const StructureTarget *t, EddiElement **out);
/* The element named by the target at ctx->args[0]: parse and resolve in
 * one. alone: nothing may follow the target ("<Verb> <Kind> takes one
 * name"); else *next is where the arguments after it start. */
int eddi_structure_find(CommandContext *ctx, EddiDoc *doc, EddiSyntax *syn, bool alone,
                        EddiElement **e, size_t *next);
/* Fail when the parser could not read e whole. */
int eddi_structure_refuse_errors(CommandContext *ctx, EddiDoc *doc, const EddiElement *e);
/* Where deleting or commenting e starts: its first line, with the
 * decorators and comments directly above it. */
size_t eddi_structure_extent_start(EddiDoc *doc, EddiSyntax *syn, const EddiElement *e);

/* ---------------------------------------------------------------- changes */

/* The outline (syntax/outline.h) of a document as it is now, or of a
 * file's text; NULL for a file without a grammar or over the parse limit.
 * Free with eddi_outline_free. */
EddiOutline *eddi_structure_outline_doc(CommandContext *ctx, EddiDoc *doc);
EddiOutline *eddi_structure_outline_text(CommandContext *ctx, const char *path, const char *text,
                                         size_t len);

/* The outline of the document's text as saved (empty for a new file). */
EddiOutline *eddi_structure_outline_saved(CommandContext *ctx, EddiDoc *doc);

/* Changes counted by kind of change (added, modified, removed) and of
 * element (class, function, method). */
#define STRUCTURE_CHANGE_NOUNS 3
typedef struct {
  size_t count[EDDI_OUTLINE_CHANGE_KINDS][STRUCTURE_CHANGE_NOUNS];
} StructureCounts;

void eddi_structure_count_changes(StructureCounts *self, const EddiOutlineChanges *changes);
/* ", 2 functions created, 1 class modified": nothing when nothing changed. */
void eddi_structure_say_counts(const StructureCounts *self, StrBuf *out);
/* ", Added UserManager class with __init__ and authenticate methods,
 * Modified total function": the changes of one file, named. */
void eddi_structure_say_changes(const EddiOutlineChanges *changes, StrBuf *out);
/* Compare two outlines (either may be NULL: nothing is known) into counts
 * and named (either may be NULL); returns how many elements changed. */
int eddi_structure_compare(const EddiOutline *before, const EddiOutline *after,
                           StructureCounts *counts, StrBuf *named);

#endif
