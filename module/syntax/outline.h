/* outline.h - a file's classes, functions and methods, for telling what a
 * change did to them (Summary, Diff).
 *
 * An outline is small and outlives the text it was made from: a name and
 * a hash per element, so that a session can keep a file's outline from
 * before its first save and compare it with the file at any later time.
 * Elements are matched by kind and qualified name ("Cart.add"); the nth of
 * several of one name with the nth. One is modified when its own text
 * changed: its decorators and comments directly above it included, its
 * members (a class's methods and nested classes) left out so that adding a
 * method is that method's change, not its class's, and runs of whitespace
 * read as one space so that re-indenting changes nothing. Functions inside
 * functions are part of their function. */
#ifndef EDDI_OUTLINE_H
#define EDDI_OUTLINE_H

#include "syntax/syntax.h"

typedef struct {
  EddiElementKind kind; /* EDDI_ELEMENT_CLASS, _FUNCTION or _METHOD */
  char *path;           /* "Cart.add": its containers' names and its own */
  char *name;           /* "add" */
  int parent;           /* the class (or impl) it is a member of, here; -1 */
  uint64_t hash;        /* of its own text */
} EddiOutlineEntry;

typedef struct EddiOutline {
  Array(EddiOutlineEntry) entries; /* in document order */
} EddiOutline;

/* An outline with nothing in it: a file that did not exist. */
EddiOutline *eddi_outline_empty(void);
/* The outline of a parsed text. */
EddiOutline *eddi_outline_of_syntax(EddiSyntax *syn, const EddiText *text);
/* The outline of the text of a file at path (its language from the path
 * and the first line), or NULL when there is none to make: no grammar for
 * it, larger than max_bytes, or a parser that gave up. */
EddiOutline *eddi_outline_of_text(const char *path, const char *text, size_t len,
                                  size_t max_bytes);
void eddi_outline_free(EddiOutline *self);

typedef enum { EDDI_OUTLINE_ADDED, EDDI_OUTLINE_MODIFIED, EDDI_OUTLINE_REMOVED } EddiOutlineChangeKind;
#define EDDI_OUTLINE_CHANGE_KINDS 3

typedef struct {
  EddiOutlineChangeKind change;
  const EddiOutlineEntry *entry; /* borrowed from the outline that has it */
  /* The change of the class it is a member of, when that class was added
   * or removed with it (an index into the same list), else -1. */
  int within;
} EddiOutlineChange;

typedef Array(EddiOutlineChange) EddiOutlineChanges;

/* What going from before to after did, appended to out: the added and
 * modified elements in after's order, then the removed ones in before's.
 * The changes borrow from both outlines. */
void eddi_outline_compare(const EddiOutline *before, const EddiOutline *after,
                          EddiOutlineChanges *out);

#endif
