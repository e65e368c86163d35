/* buffer_backend.h - documents backed by live Emacs buffers.
 *
 * In the module a FileContext is a buffer: Open visits the file (or takes the
 * buffer already visiting it, unsaved edits included), edits go through the
 * buffer, Save is save-buffer. The document's text store stays the engine's
 * mirror of the buffer. The module API cannot see buffer memory, so the
 * mirror is kept in step from two sides: eddi's own edits change both, and
 * the user's edits are noted by a buffer-local after-change hook (elisp) as
 * one dirty region, which sync copies over before the next command. When
 * nothing changed, nothing is copied.
 *
 * A change of several files does not call save-buffer: Emacs gives the
 * bytes it would write (the buffer encoded with its coding system), the
 * engine writes them with the other files inside the change's journaled
 * intent, and only then is the buffer told it is saved (its file time, its
 * modified flag, after-save-hook). A buffer whose bytes Emacs cannot
 * promise (write hooks, a remote file, a coding system that decides on
 * save) is saved with save-buffer after the others, as a Save is.
 *
 * The Emacs side of every operation is a small elisp function in eddi.el
 * (eddi--backend-open, -replace, -sync, -save, -save-bytes, -saved,
 * -end-group, -release) that names the buffer by an integer id: the C side
 * never holds a buffer object, so no emacs_value outlives the call that
 * made it.
 *
 * A buffer visiting a file that no document holds is one of Emacs's
 * copies (EddiBackendCopies): a change of several files asks whether one
 * visits a file and is modified, and the refactoring reads its text, so
 * that eddi never writes a file behind its buffer.
 *
 * It is a backend of the public kind (eddi_backend.h): the engine reads the
 * file before the buffer is made, keeps the save check and the saved text,
 * and mirrors what sync reports. Memory here is the module's own (malloc),
 * not the engine's.
 */
#ifndef EDDI_BUFFER_BACKEND_H
#define EDDI_BUFFER_BACKEND_H

#include <emacs-module.h>

#include "eddi_backend.h"

/* The module call in progress. Backends reach Emacs only through it; env is
 * NULL outside a call (a garbage-collector finalizer may free documents and
 * must not call Lisp). A quit or throw met inside the engine is put aside,
 * the engine finishes cleanly (reverting half-done edits), and the module
 * re-raises it when it returns. */
typedef struct {
  emacs_env *env;
  bool exit_pending;
  enum emacs_funcall_exit exit_kind;
  emacs_value exit_symbol;
  emacs_value exit_data;
} EmacsCall;

/* Intern the symbols the backend calls (global references, kept for the
 * life of Emacs). Returns false when a funcall failed. */
bool eddi_emacs_symbols_init(emacs_env *env);

/* An EddiBackendOpen; context is the engine's EmacsCall. */
int eddi_emacs_open_backend(void *context, const EddiBackendFile *file,
                            const EddiBackendOps **ops, void **backend, EddiTextSink *text,
                            EddiError *err);

/* The buffers visiting files eddi has not opened (EddiBackendCopies):
 * eddi--backend-copy and eddi--backend-copies; context is the engine's
 * EmacsCall. */
extern const EddiBackendCopies eddi_emacs_copies;

/* The buffer id of a backend this opener made (eddi_engine_cursor's), or -1
 * for NULL (a document that is not a buffer). */
long eddi_emacs_backend_id(const void *backend);

/* Out of memory (eddi_module.c): Lisp the engine runs may call the module
 * again, and that nested call may run out of memory and break the module.
 * Then the engine code that ran the Lisp must not go on: this jumps back
 * to the module call it runs in. It returns when the module is sound.
 * Called after every funcall here. */
void eddi_emacs_stop_if_broken(void);

/* Call fn with args; on a non-local exit fill err (a quit or throw is put
 * aside in call) and return a negative code. */
int eddi_emacs_funcall(EmacsCall *call, emacs_value fn, ptrdiff_t nargs, emacs_value *args,
                       emacs_value *result, EddiError *err);

/* A Lisp string as a new NUL-terminated string (free); NULL when value is
 * not a string (a pending signal is left for the caller). */
char *eddi_emacs_string(emacs_env *env, emacs_value value, size_t *len);

#endif
