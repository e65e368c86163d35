/* engine.h - the engine's insides, shared by the command files and by front
 * ends that bring their own backend (the Emacs module). */
#ifndef EDDI_ENGINE_H
#define EDDI_ENGINE_H

#include "eddi.h"
#include "core/fs.h"
#include "session/registry.h"
#include "session/session.h"

typedef Array(char *) EddiStringList;

/* Opens the backend of a document: the disk by default, a live buffer in
 * Emacs. create allows a missing file (the document then starts empty and
 * *is_new is set); text receives the decoded text. */
typedef int (*EddiBackendOpener)(void *context, const char *abs_path, const char *rel_path,
                                 bool create, size_t max_bytes, EddiBackend **backend,
                                 StrBuf *text, bool *is_new, EddiError *err);

struct EddiEngine {
  EddiConfig config;
  char *root; /* canonical, no trailing slash */
  int root_fd; /* O_PATH descriptor of root: every write resolves beneath it (core/fs.h) */
  EddiSessionManager sessions;
  char *state_dir_asked; /* EddiConfig.state_dir as given, or NULL */
  char *state_dir;       /* made on first use */
  EddiBackendOpener open_backend;
  void *open_backend_context;
  /* Requests (session/request.c): who holds which session, this instance's
   * id, the sender policy, and who hears of sessions started and ended. */
  EddiRegistry registry;
  char *instance;
  bool every_sender_allowed;
  EddiStringList allowed_senders;
  EddiStringList read_only_senders;
  EddiSessionListener session_listener;
  void *session_listener_closure;
  struct EddiAudit *audit; /* NULL: not auditing */
};

/* A write of the current request, for the audit log: path's bytes went
 * from before to after (either may be missing). A no-op when not auditing. */
void eddi_engine_note_write(EddiEngine *self, const char *path, const EddiFileStamp *before,
                            const EddiFileStamp *after);

/* A command (or call) of sender is over: its edits become one undo step in
 * every document of sender's session. */
void eddi_engine_end_groups(EddiEngine *self, const char *sender);

void eddi_engine_set_backend_opener(EddiEngine *self, EddiBackendOpener opener,
                                    void *context);

/* Longest command word looked up (longer ones are no command). */
#define EDDI_COMMAND_NAME_MAX 32


#endif
