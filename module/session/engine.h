/* engine.h - the engine's insides, shared by the files of session/: the
 * message walk (engine.c), the request layer (request.c), long work
 * (job.c), the journal and the command table. The layers below see the
 * workspace (workspace/workspace.h) and the ports of workspace/command.h,
 * never this struct. */
#ifndef EDDI_ENGINE_H
#define EDDI_ENGINE_H

#include "eddi.h"
#include "core/fs.h"
#include "session/registry.h"
#include "workspace/command.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

typedef Array(char *) EddiStringList;

struct EddiJobs;

struct EddiEngine {
  /* The root, the configuration, the state folder, the sessions. */
  EddiWorkspace *workspace;
  EddiSessionManager *sessions; /* the workspace's */
  /* What commands may ask of the engine (engine.c fills it). */
  EddiCommandPorts ports;
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
  /* The records of the changes the start-up recovery settled, until the
   * audit log is opened (written then, dropped when there is none). */
  StrBuf recovered_audit;
  /* The journal (session/journal.h); NULL: memory only (--no-journal). */
  struct EddiJournal *journal;
  /* The sessions eddi_engine_open_journal restores, one name a line; NULL:
   * every one. The others stay in the journal, offered again next time. */
  char *resume_only;
  /* Opened to list its sessions, not yet restored (eddi_engine_open_journal). */
  bool journal_unrestored;
  /* Long work (session/job.c): NULL until a waker is set. */
  struct EddiJobs *jobs;
  /* Commands besides the table (a test's own); looked up after it. */
  const CommandSpec *extra_commands;
  size_t extra_command_count;
};

/* The workspace's write hooks, which tell the journal and the audit log
 * (request.c): installed when either changes. */
void eddi_engine_update_hooks(EddiEngine *self);

/* A command (or call) of sender is over: its edits become one undo step in
 * every document of sender's session. */
void eddi_engine_end_groups(EddiEngine *self, const char *sender);

/* Commands this engine knows besides the command table (borrowed; they take
 * no body). Tests add their own this way, a slow job among them. */
void eddi_engine_set_extra_commands(EddiEngine *self, const CommandSpec *commands,
                                    size_t count);
/* The command named name: the table's, else one of the engine's extras. */
const CommandSpec *eddi_engine_find_command(const EddiEngine *self, const char *name);

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

/* The request the owner thread runs now, by its ticket: long work it
 * starts is cancelled by eddi_engine_cancel(ticket). Returns the one
 * before, to set back. */
uint64_t eddi_jobs_set_ticket(EddiEngine *self, uint64_t ticket);

/* Wait for running work and drop it, with what waits behind it. */
void eddi_jobs_free(EddiEngine *self);

#endif
