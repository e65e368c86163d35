/* refactor.h - what the rest of the engine uses of module/refactor/.
 *
 * Modify ... Rename renames within the current file by the same name
 * resolution as Refactor RenameSymbol: the occurrences that resolve to the
 * element (not a same-named method of another class, not a shadowing
 * local), with the same conflict checks, over the document's text alone. */
#ifndef EDDI_REFACTOR_H
#define EDDI_REFACTOR_H

#include "core/common.h"

typedef struct {
  size_t start, end;
} EddiRenameSpan;

typedef struct {
  Array(EddiRenameSpan) spans; /* the occurrences to rewrite, in text order */
  size_t unsure_count;
  StrBuf unsure; /* "a.py:12, a.py:40" (0-based lines) */
} EddiLocalRename;

/* Whether path's language has name resolution (a locals query). */
bool eddi_refactor_knows(const char *path, const char *text, size_t len);
/* The occurrences of the entity named at offset of text (path's file) that
 * renaming it to new_name rewrites, within this text only; fails with the
 * conflict or the invalid name, and changes nothing. */
int eddi_refactor_rename_local(const char *path, const char *text, size_t len, size_t offset,
                               const char *new_name, EddiLocalRename *out, EddiError *err);
void eddi_local_rename_free(EddiLocalRename *self);

#endif
