/* engine.h - the engine's insides, shared by the command files, the
 * request layer (session/request.c) and long work (session/job.c). */
#ifndef EDDI_ENGINE_H
#define EDDI_ENGINE_H

#include "eddi.h"
#include "core/fs.h"
#include "session/registry.h"
#include "session/session.h"

typedef Array(char *) EddiStringList;

/* Opens the backend of a document: the disk by default, an embedder's
 * (eddi_engine_set_backend) through core/embedded_backend.c. create allows
 * a missing file (the document then starts empty and *is_new is set); text
 * receives the decoded text. */
typedef int (*EddiDocOpener)(void *context, const char *abs_path, const char *rel_path,
                             bool create, size_t max_bytes, EddiBackend **backend,
                             StrBuf *text, bool *is_new, EddiError *err);

struct CommandSpec;
struct EddiJobs;

struct EddiEngine {
  EddiConfig config;
  char *root; /* canonical, no trailing slash */
  int root_fd; /* O_PATH descriptor of root: every write resolves beneath it (core/fs.h) */
  EddiSessionManager sessions;
  char *state_dir_asked; /* EddiConfig.state_dir as given, or NULL */
  char *state_dir;       /* made on first use */
  EddiDocOpener open_backend;
  void *open_backend_context;
  EddiBackendOpen embedder_open; /* eddi_engine_set_backend's, or NULL */
  void *embedder_context;
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
  /* The journal (session/journal.h); NULL: memory only (--no-journal). */
  struct EddiJournal *journal;
  /* Long work (session/job.c): NULL until a waker is set. */
  struct EddiJobs *jobs;
  /* Grep's file texts (services/grep.c), kept while long work is possible. */
  struct EddiGrepCache *grep_cache;
  /* Commands besides the table (a test's own); looked up after it. */
  const struct CommandSpec *extra_commands;
  size_t extra_command_count;
  /* The refactoring layer's workspace index, kept between commands so that
   * only changed files are read and analysed again; NULL while a job has it
   * checked out (module/refactor/refactor_commands.c). Freed with free_fn. */
  void *refactor_index;
  void (*refactor_index_free)(void *index);
};

/* A write of the current request, for the audit log: path's bytes went
 * from before to after (either may be missing). A no-op when not auditing. */
void eddi_engine_note_write(EddiEngine *self, const char *path, const EddiFileStamp *before,
                            const EddiFileStamp *after);

/* Save doc through its backend (eddi_doc_save) and note the write for the
 * audit log. */
int eddi_engine_save_doc(EddiEngine *self, EddiDoc *doc, size_t *bytes, EddiError *err);

/* A command (or call) of sender is over: its edits become one undo step in
 * every document of sender's session. */
void eddi_engine_end_groups(EddiEngine *self, const char *sender);

/* Commands this engine knows besides the command table (borrowed; they take
 * no body). Tests add their own this way, a slow job among them. */
void eddi_engine_set_extra_commands(EddiEngine *self, const struct CommandSpec *commands,
                                    size_t count);

/* Longest command word looked up (longer ones are no command). */
#define EDDI_COMMAND_NAME_MAX 32

/* ---------------------------------------------------------------- requests */

/* Run an admitted request's text as sender (engine.c). With a waker, a
 * command may leave its work running: the reply then becomes pending and
 * the message is held by session/job.c until the work is done. before is
 * sender's session before the request, for eddi_request_finish. */
void eddi_engine_run_request(EddiEngine *self, const char *sender, const char *before,
                             const EddiRequest *request, EddiReply *reply);

/* A request's reply is complete (now, or after its long work): tell the
 * listener of a session it started or ended, and name this instance in
 * the reply of its Start (request.c). */
void eddi_request_finish(EddiEngine *self, const char *sender, const char *before,
                         const EddiRequest *request, EddiReply *reply);

/* Whether request must wait behind long work of its sender (job.c): then
 * it is kept, in order, and reply is pending. */
bool eddi_jobs_queue(EddiEngine *self, const EddiRequest *request, EddiReply *reply);

/* Run the long work of request's sender to its end now, on this thread:
 * for the calls that never answer late (eddi_exec_reply, typed calls).
 * The replies it completes go to eddi_engine_take_finished. */
void eddi_jobs_wait(EddiEngine *self, const EddiRequest *request);

/* Wait for running work and drop it, with what waits behind it. */
void eddi_jobs_free(EddiEngine *self);

#endif
