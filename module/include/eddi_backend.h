/* eddi_backend.h - an embedder's own storage for documents.
 *
 * A document's real text lives in its backend; the engine keeps a mirror of
 * it (with the cursor, marks and undo history) and changes it only through
 * the backend, which may refuse. The headless front ends use the engine's
 * disk backend and never need this header. An embedder whose files are
 * open elsewhere already (the Emacs module: live buffers the user edits
 * too) brings its own: an opener that Open calls to make the backing copy
 * of a file, and for each backing copy a table of operations.
 *
 * The disk rules stay the engine's, the same for every backend. Before the
 * opener is called the engine reads the file as Open always does (it
 * refuses a folder, a binary file, invalid UTF-8, a file past the size
 * limit) and says how it is encoded (a BOM, CRLF endings), so that the
 * backing copy can keep that on save. It remembers the file's bytes, so
 * that a save can see a file changed on disk (eddi_doc_file_check). And it
 * reads the saved text for Diff and Summary itself.
 *
 * Positions are characters, as an editor's usually are; text is UTF-8
 * bytes. Everything here runs on the engine's owner thread.
 */
#ifndef EDDI_BACKEND_H
#define EDDI_BACKEND_H

#include "eddi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ errors */

#define EDDI_ERROR_MAX 512

/* Why a call failed, for the reply: `what` becomes Fail "what", and `hint`,
 * when not empty, follows it (", Make it writable first"). code is an
 * EDDI_E* value. A backend's operations fill one when they fail. */
typedef struct {
  int code;
  char what[EDDI_ERROR_MAX];
  char hint[EDDI_ERROR_MAX];
} EddiError;

/* Fill self (hint cleared) and return code, for `return eddi_error_set(...)`. */
int eddi_error_set(EddiError *self, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void eddi_error_hint(EddiError *self, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------ documents */

/* An open document, as the engine keeps it. Borrowed by the operations
 * that get one, for the length of the call. */
typedef struct EddiDoc EddiDoc;

/* Characters in the document's mirror of the backing text. */
size_t eddi_doc_char_count(const EddiDoc *self);

/* The backing text changed outside eddi (the user typed): its characters
 * [start_char, end_char) are now text[0, len). Mirrors it; only the part
 * that really differs is replaced, so the cursor and marks outside it stay
 * and an edit that changed nothing costs nothing. The undo history, made
 * against the old text, is dropped, and the document counts as modified.
 * Fails, changing nothing, when the range is not in the mirror (EDDI_EINVAL,
 * "Change outside the text") or text is not UTF-8 (EDDI_EINVAL). */
int eddi_doc_mirror(EddiDoc *self, size_t start_char, size_t end_char, const char *text,
                    size_t len, EddiError *err);

/* Before a save writes the file: fails when the file was created or
 * deleted on disk since it was read, cannot be read, or is read-only;
 * otherwise *changed says whether its bytes differ from what eddi last read
 * or wrote (someone else wrote it, or the embedder saved it itself). */
int eddi_doc_file_check(EddiDoc *self, bool *changed, EddiError *err);

/* After the backend wrote the file: remember it as it now is on disk.
 * *bytes receives its size. */
int eddi_doc_file_saved(EddiDoc *self, size_t *bytes, EddiError *err);

/* Instead of eddi_doc_file_saved, from a save that wrote nothing on
 * purpose: the embedder holds the text back from the disk (an editor
 * keeping a model's edits until the user has reviewed them). The document
 * stays modified and its file as it was, so the journal keeps the edits
 * against that file and a restart brings them back unsaved; Save replies
 * "Held for review", and Close keeps such a document open. */
void eddi_doc_file_held(EddiDoc *self);

/* Whether the document's last save was held and its backend still holds
 * the text back (the held op). */
bool eddi_doc_held(const EddiDoc *self);

/* ------------------------------------------------------------ backends */

/* The file an Open asks for, as the engine found it. */
typedef struct {
  const char *abs_path; /* canonical */
  const char *rel_path; /* in the workspace, as replies name it */
  bool exists;          /* false: Open Create of a new file, which starts empty */
  bool bom;             /* it starts with a UTF-8 byte order mark: keep it on save */
  bool crlf;            /* every line ends in CRLF: keep them on save */
} EddiBackendFile;

/* Where an opener puts the text of the backing copy, and save_bytes the
 * bytes of a save (the engine's; eddi_text_sink_append below). */
typedef struct EddiTextSink EddiTextSink;

/* The operations of one backing copy; backend is what the opener gave. */
typedef struct {
  /* Replace characters [start_char, end_char) of the backing text with
   * text[0, len). Called before the mirror changes: a failure leaves both
   * as they were. */
  int (*replace)(void *backend, size_t start_char, size_t end_char, const char *text,
                 size_t len, EddiError *err);
  /* Before a command reads doc: bring its mirror in step (eddi_doc_mirror)
   * with what changed outside eddi. NULL when nothing else edits the text. */
  int (*sync)(void *backend, EddiDoc *doc, EddiError *err);
  /* Write the text to the file, whole or not at all, after checking it
   * (eddi_doc_file_check), then note it (eddi_doc_file_saved, which gives
   * *bytes). What is written must be the mirror: sync first. A backend
   * that holds the save back writes nothing and calls eddi_doc_file_held. */
  int (*save)(void *backend, EddiDoc *doc, size_t *bytes, EddiError *err);
  /* A command ended: close the backing copy's undo group. May be NULL. */
  void (*end_group)(void *backend);
  /* The document is closed: free the backing copy's state. */
  void (*destroy)(void *backend);
  /* For a change of several files, which the engine writes as one batch
   * (crash-safe with the journal: all old or all new): the exact bytes a
   * save of the backing text would write to the file now, appended to out.
   * Fails (err says why) when they cannot be known exactly, say the save
   * would run hooks that change them or an encoding cannot be reproduced;
   * the document is then saved through save after the batch, outside it.
   * What is encoded must be the mirror: sync first. NULL: always saved
   * through save. */
  int (*save_bytes)(void *backend, EddiDoc *doc, EddiTextSink *out, EddiError *err);
  /* The engine wrote those bytes to the file with the rest of the batch:
   * the backing copy counts as saved now (an editor clears its modified
   * flag and takes the file's new time). Set when save_bytes is. */
  void (*saved)(void *backend);
  /* Whether the embedder still holds the text back after a save it held
   * (eddi_doc_file_held): while it does, Close keeps the document open;
   * once the review is over, Close lets it go and the editor keeps its
   * text. May be NULL: held until the document is saved or read again. */
  bool (*held)(void *backend);
} EddiBackendOps;

/* Where an opener puts the text of the backing copy (the engine's). */
void eddi_text_sink_append(EddiTextSink *self, const char *bytes, size_t len);

/* Make the backing copy of file: set *ops and *backend, and append its text
 * (unsaved edits included: it need not be the file's) to text. The engine
 * refuses text that is not UTF-8 or larger than the file limit; it then
 * destroys the backend. */
typedef int (*EddiBackendOpen)(void *context, const EddiBackendFile *file,
                               const EddiBackendOps **ops, void **backend, EddiTextSink *text,
                               EddiError *err);

/* Open documents through open from now on (NULL: the engine's own disk
 * backend). context is given back to every call. */
void eddi_engine_set_backend(EddiEngine *self, EddiBackendOpen open, void *context);

/* ------------------------------------------------------------ copies outside the engine */

/* An embedder may hold copies of files the engine has not opened: an
 * editor's buffers visiting them, perhaps with edits not saved. A change
 * of several files (a refactoring, a Patch) then reads such a file
 * through its copy and writes it through a backing copy made by the
 * opener, never behind it: a copy with the user's unsaved edits takes the
 * change as one undo step and keeps them unsaved (its file is not
 * written), an unmodified one is saved with the others. The calls are
 * optional; without them the engine reads and writes those files on disk. */

/* What the embedder holds of one file. */
typedef struct {
  bool found;    /* a copy of the file is open outside the engine */
  /* It holds unsaved edits that were not made through the engine (the
   * user's: typed, or there when the engine opened it). Such a copy is
   * never saved by a change; edits the engine made itself are saved with
   * it, as in every front end. */
  bool modified;
} EddiBackendCopy;

typedef struct {
  /* Fill *copy for the file at abs_path (canonical); when one is found and
   * text is not NULL, append its whole text to text. 0 with copy->found
   * false when there is none. Also asked of files the engine has open,
   * for whether the copy is modified. */
  int (*find)(void *context, const char *abs_path, EddiBackendCopy *copy, EddiTextSink *text,
              EddiError *err);
  /* Call visit(data, abs_path) for each file below root (canonical, no
   * trailing slash) that has a copy, in any order. May be NULL. */
  int (*each)(void *context, const char *root, void (*visit)(void *data, const char *abs_path),
              void *data, EddiError *err);
} EddiBackendCopies;

/* Ask copies (borrowed: it must outlive the engine; NULL: none) about
 * files the engine did not open, with the context given to
 * eddi_engine_set_backend. */
void eddi_engine_set_backend_copies(EddiEngine *self, const EddiBackendCopies *copies);

/* Where sender's cursor is: in its session's current document, whose
 * backend (the opener's *backend, NULL for a document of the disk backend)
 * goes into *backend, at character *char_index. false when sender has no
 * session or no document open. */
bool eddi_engine_cursor(const EddiEngine *self, const char *sender, void **backend,
                        size_t *char_index);

#ifdef __cplusplus
}
#endif

#endif
