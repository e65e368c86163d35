/* structure_changes.c - what a change did to a file's classes, functions
 * and methods, in the words of Diff and Summary: counted ("2 functions
 * created, 1 class modified") and named per file ("Added UserManager class
 * with __init__ and authenticate methods, Modified total function").
 *
 * The outlines come from the syntax layer (syntax/outline.h); a file
 * without a grammar has none, and its replies stay in lines. */
#include "services/structure.h"

/* Names listed for one group of a file's changes before "and N more". */
#define STRUCTURE_CHANGE_NAMES_MAX 20

/* ---------------------------------------------------------------- outlines */

EddiOutline *eddi_structure_outline_doc(CommandContext *ctx, EddiDoc *doc) {
  EddiSyntax *syn;
  EddiError ignored;
  if (eddi_syntax_get(doc, eddi_workspace_config(ctx->workspace)->max_syntax_bytes, &syn,
                      &ignored) < 0)
    return NULL;
  return eddi_outline_of_syntax(syn, &doc->text);
}

EddiOutline *eddi_structure_outline_text(CommandContext *ctx, const char *path, const char *text,
                                         size_t len) {
  size_t limit = eddi_workspace_config(ctx->workspace)->max_syntax_bytes;
  return eddi_outline_of_text(path, text ? text : "", len,
                              limit ? limit : EDDI_SYNTAX_MAX_BYTES_DEFAULT);
}

EddiOutline *eddi_structure_outline_saved(CommandContext *ctx, EddiDoc *doc) {
  StrBuf saved = {0};
  EddiError ignored;
  EddiOutline *outline = NULL;
  if (doc->backend->vtable->saved_text(doc->backend, &saved, &ignored) == 0)
    outline = eddi_structure_outline_text(ctx, doc->path, saved.data, saved.len);
  eddi_strbuf_free(&saved);
  return outline;
}

int eddi_structure_compare(const EddiOutline *before, const EddiOutline *after,
                           StructureCounts *counts, StrBuf *named) {
  if (!before || !after) return 0;
  EddiOutlineChanges changes = {0};
  eddi_outline_compare(before, after, &changes);
  if (counts) eddi_structure_count_changes(counts, &changes);
  if (named) eddi_structure_say_changes(&changes, named);
  size_t count = changes.len;
  array_free(&changes);
  return (int)EDDI_MIN(count, (size_t)INT32_MAX);
}

/* ---------------------------------------------------------------- counting */

/* The row of a kind in StructureCounts. */
static size_t changes__kind_row(EddiElementKind kind) {
  return kind == EDDI_ELEMENT_CLASS ? 0 : kind == EDDI_ELEMENT_FUNCTION ? 1 : 2;
}

static const char *const changes__nouns[STRUCTURE_CHANGE_NOUNS][2] = {
    {"class", "classes"}, {"function", "functions"}, {"method", "methods"}};
static const char *const changes__verbs[EDDI_OUTLINE_CHANGE_KINDS] = {"created", "modified",
                                                                      "removed"};
static const char *const changes__headings[EDDI_OUTLINE_CHANGE_KINDS] = {"Added", "Modified",
                                                                         "Removed"};

void eddi_structure_count_changes(StructureCounts *self, const EddiOutlineChanges *changes) {
  for (size_t i = 0; i < changes->len; i++) {
    const EddiOutlineChange *change = &changes->items[i];
    self->count[change->change][changes__kind_row(change->entry->kind)]++;
  }
}

void eddi_structure_say_counts(const StructureCounts *self, StrBuf *out) {
  for (size_t c = 0; c < EDDI_OUTLINE_CHANGE_KINDS; c++)
    for (size_t k = 0; k < STRUCTURE_CHANGE_NOUNS; k++) {
      size_t n = self->count[c][k];
      if (n) eddi_strbuf_printf(out, ", %zu %s %s", n, changes__nouns[k][n != 1], changes__verbs[c]);
    }
}

/* ---------------------------------------------------------------- naming */

typedef Array(const char *) ChangeNames;

/* "a", "a and b", "a, b and c", then "and N more" past the limit. */
static void changes__say_names(const ChangeNames *names, StrBuf *out) {
  size_t shown = EDDI_MIN(names->len, (size_t)STRUCTURE_CHANGE_NAMES_MAX);
  for (size_t i = 0; i < shown; i++) {
    bool last = i + 1 == shown && shown == names->len;
    eddi_strbuf_printf(out, "%s%s", i == 0 ? "" : last ? " and " : ", ", names->items[i]);
  }
  if (shown < names->len) eddi_strbuf_printf(out, " and %zu more", names->len - shown);
}

/* The members of the class change at index within, as " with a and b
 * methods" (and " and C class" for classes in it). */
static void changes__say_members(const EddiOutlineChanges *changes, size_t within, StrBuf *out) {
  const char *with = " with ";
  for (size_t k = STRUCTURE_CHANGE_NOUNS; k-- > 0;) {
    ChangeNames names = {0};
    for (size_t i = 0; i < changes->len; i++) {
      const EddiOutlineChange *member = &changes->items[i];
      if (member->within == (int)within && changes__kind_row(member->entry->kind) == k)
        array_push(&names, member->entry->name);
    }
    if (names.len) {
      eddi_strbuf_puts(out, with);
      changes__say_names(&names, out);
      eddi_strbuf_printf(out, " %s", changes__nouns[k][names.len != 1]);
      with = " and ";
    }
    array_free(&names);
  }
}

/* ", <heading> " before a file's first item of a kind of change, ", "
 * before the others. */
static void changes__item(StrBuf *out, const char **heading) {
  eddi_strbuf_printf(out, ", %s%s", *heading, **heading ? " " : "");
  *heading = "";
}

void eddi_structure_say_changes(const EddiOutlineChanges *changes, StrBuf *out) {
  for (size_t c = 0; c < EDDI_OUTLINE_CHANGE_KINDS; c++) {
    const char *heading = changes__headings[c];
    /* Each class on its own (with its members), then the functions, then
     * the methods whose class stayed, each kind as one group. */
    for (size_t i = 0; i < changes->len; i++) {
      const EddiOutlineChange *change = &changes->items[i];
      if (change->change != c || change->within >= 0 || change->entry->kind != EDDI_ELEMENT_CLASS)
        continue;
      changes__item(out, &heading);
      eddi_strbuf_printf(out, "%s class", change->entry->path);
      changes__say_members(changes, i, out);
    }
    for (size_t k = 1; k < STRUCTURE_CHANGE_NOUNS; k++) {
      ChangeNames names = {0};
      for (size_t i = 0; i < changes->len; i++) {
        const EddiOutlineChange *change = &changes->items[i];
        if (change->change == c && change->within < 0 &&
            changes__kind_row(change->entry->kind) == k)
          array_push(&names, change->entry->path);
      }
      if (names.len) {
        changes__item(out, &heading);
        changes__say_names(&names, out);
        eddi_strbuf_printf(out, " %s", changes__nouns[k][names.len != 1]);
      }
      array_free(&names);
    }
  }
}
