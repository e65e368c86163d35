/* embedded_backend.h - documents an embedder stores (eddi_backend.h).
 *
 * The public backend interface is smaller than the engine's vtable
 * (core/document.h): an embedder neither reads the disk nor knows the
 * engine's strings. The adapter here sits between the two: it reads the
 * file as Open always does before the embedder's opener makes the backing
 * copy, keeps the file's stamp for the save check, and answers the saved
 * text for Diff and Summary with the disk backend's own function. */
#ifndef EDDI_EMBEDDED_BACKEND_H
#define EDDI_EMBEDDED_BACKEND_H

#include "core/document.h"

/* An Open through the embedder: its opener, and the file. */
typedef struct {
  EddiBackendOpen open; /* the embedder's opener, called with context */
  void *context;
  const char *abs_path;
  const char *rel_path;
  bool create;      /* a missing file opens empty (then *is_new is set) */
  size_t max_bytes; /* a larger file or buffer text is refused */
} EddiEmbeddedOpen;

/* Open op's file through the embedder (the workspace's opener,
 * workspace/workspace.h): *backend, the text into text. */
int eddi_embedded_open(const EddiEmbeddedOpen *op, EddiBackend **backend, StrBuf *text,
                       bool *is_new, EddiError *err);

/* The embedder's own backend pointer of a document's backend, or NULL when
 * the document is not the embedder's. */
void *eddi_embedded_backend_of(const EddiBackend *backend);

/* For a change of several files written as one batch (edit/transaction.c):
 * whether backend is an embedder's that can give the exact bytes of a save
 * (EddiBackendOps.save_bytes). */
bool eddi_embedded_gives_bytes(const EddiBackend *backend);
/* Those bytes, appended to out; fails when the embedder cannot tell them
 * exactly (the document then saves itself after the batch). */
int eddi_embedded_save_bytes(EddiBackend *backend, EddiDoc *doc, StrBuf *out, EddiError *err);
/* The batch wrote them (stamped written): the file is as the engine wrote
 * it, and the embedder's copy counts as saved. */
void eddi_embedded_saved(EddiBackend *backend, const EddiFileStamp *written);

/* A document just opened over an embedder's copy whose text is not its
 * file's (an editor's buffer with unsaved edits of the user's at Open):
 * it counts as modified, its unsaved text made outside the session
 * (outside_edits), so that the journal keeps that text against the file
 * and a restart brings it back. A document of another backend, a new
 * file, or one as its file is left as it is. */
void eddi_embedded_note_opened(EddiDoc *doc);

/* Ask an embedder's copies (eddi_backend.h; copies may be NULL: none)
 * about the file at abs_path: *copy, and with text not NULL the copy's
 * text appended to it, refused (EDDI_EINVAL, EDDI_ETOOBIG) when it is not
 * UTF-8 or larger than max_bytes. */
int eddi_embedded_find_copy(const EddiBackendCopies *copies, void *context, const char *abs_path,
                            size_t max_bytes, EddiBackendCopy *copy, StrBuf *text,
                            EddiError *err);

#endif
