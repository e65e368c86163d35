/* eddi.h - the engine's public boundary.
 *
 * Every front end (the eddi CLI, eddi-server's NATS and stdio transports, the
 * Emacs module and its NATS bridge) includes this header and no other engine
 * header. It offers:
 * - text execution: a sender's message of EddiSpeak text in, one reply per
 *   command out (eddi_exec, eddi_request_exec);
 * - requests as transports see them (sender, session, text): routing across
 *   instances, the sender policy, the ", Instance <id>" of a Start, and
 *   session events, all decided here once;
 * - typed calls for the edit formats (eddi_request_call), run through the
 *   same checks, Confirm handling and undo grouping as text;
 * - the command and tool table: one description per command and tool, from
 *   which Help, MCP tool lists and the Emacs agent's tools are made;
 * - long work: commands that run on worker threads answer later;
 * - the allocator every engine allocation goes through (eddi_set_allocator).
 * eddi_backend.h adds what else an embedder may bring: its own storage
 * for documents (the Emacs module's live buffers).
 *
 * Nothing above this boundary knows how a command works; nothing below it
 * knows which transport carried the message. An engine is not thread-safe:
 * one thread owns it, transports queue to it.
 */
#ifndef EDDI_H
#define EDDI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EDDI_VERSION "0.1.0"
/* The EddiSpeak this engine speaks: the design's 2.0, the commands and
 * the Stage-2 scripts. 1.0, the commands alone, is part of it, so a client
 * of either is served (doc/protocol.org). */
#define EDDI_SPEAK_VERSION "2.0"
/* Every version it speaks, oldest first: an initializer list. */
#define EDDI_SPEAK_VERSIONS "1.0", EDDI_SPEAK_VERSION

typedef struct EddiEngine EddiEngine;

/* What a function that can fail returns: 0, or one of these. */
enum {
  EDDI_OK = 0,
  EDDI_EINVAL = -1,   /* malformed input */
  EDDI_ENOENT = -2,   /* no such file, session, bookmark, match */
  EDDI_EIO = -3,      /* the disk said no */
  EDDI_ETOOBIG = -4,  /* a limit was reached */
  EDDI_ESTATE = -5,   /* not allowed in the current state */
  EDDI_EPATH = -6,    /* path outside the workspace */
  EDDI_ESTALE = -7,   /* the file changed behind our back */
  EDDI_EPENDING = -8, /* the work goes on on a worker thread; the reply comes later */
};

/* Limits, all configurable; eddi_config_default gives the documented ones. */
typedef struct {
  size_t max_message_bytes;  /* a message larger than this is refused (1 MiB) */
  size_t max_file_bytes;     /* Open refuses larger files (64 MiB) */
  size_t max_open_files;     /* per session (256) */
  size_t page_size;          /* entries per List / Find All / Grep page (200) */
  size_t undo_groups;        /* undo steps kept per file (10000) */
  size_t max_walk_entries;   /* directory entries List, a script's file set or a
                                refactoring's index may visit; past it List says so
                                and the others refuse (100000). Grep has no limit */
  size_t max_syntax_bytes;   /* larger files are not parsed: plain text (8 MiB) */
  /* eddi's own folder for this workspace: temporary files of formatters,
   * later the journal. NULL: $XDG_STATE_HOME/eddi/<workspace id>/ (or
   * ~/.local/state/...). Never inside the workspace unless asked. */
  const char *state_dir;
  unsigned format_timeout_ms; /* a formatter running longer is stopped (10000) */
  /* Ceilings of a script's budgets: `limit steps N` and `limit time N`
   * above them are refused. A script starts with at most 1,000,000 steps
   * and 60 s. */
  size_t script_max_steps;    /* statements a script may run (10000000) */
  unsigned script_max_ms;     /* milliseconds a script may run (60000) */
  /* Bytes a script may make: its flags, suggestions and notes, the values
   * of its variables and what its edits add to the texts (16 MiB). */
  size_t script_max_bytes;
  /* A search (Find, Replace, Grep) running longer fails (10000). */
  unsigned search_timeout_ms;
  /* Language servers (doc/lsp.org): off altogether (--no-lsp); the
   * command of a language's server, "LANG=COMMAND" lines joined by '\n'
   * (--lsp; NULL: the usual programs found on PATH); how long a request or
   * a wait for diagnostics may take (20000). */
  bool lsp_off;
  const char *lsp_commands;
  unsigned lsp_deadline_ms;
  /* Whether the commands the workspace's own .eddi/lsp.conf names may run
   * (--lsp-trust-workspace); without it a language whose server the file
   * names has a server that refuses to start, saying so. The file's
   * "LANG=off" lines hold either way. */
  bool lsp_trust_workspace;
} EddiConfig;

void eddi_config_default(EddiConfig *config);

/* Create an engine over the workspace folder root (must exist). config may be
 * NULL for the defaults. Returns NULL and writes why into error (at least
 * 256 bytes) when root is unusable. */
EddiEngine *eddi_engine_new(const char *root, const EddiConfig *config, char *error,
                            size_t error_size);
void eddi_engine_free(EddiEngine *self);
/* The canonical workspace root. Borrowed. */
const char *eddi_engine_root(const EddiEngine *self);
/* The configuration in force (defaults filled in). Borrowed. */
const EddiConfig *eddi_engine_config(const EddiEngine *self);
/* The state folder (made on first use, mode 0700). Borrowed; NULL when it
 * cannot be made, with why in error. */
const char *eddi_engine_state_dir(EddiEngine *self, char *error, size_t error_size);

/* One command's reply: ok is false for a Fail. text is the reply line, and in
 * raw mode the lines of its payload after it, '\n'-separated. */
typedef struct {
  bool ok;
  char *text;
} EddiReplyItem;

typedef struct {
  size_t count;
  EddiReplyItem *items;
  /* No items yet: the whole reply comes from eddi_engine_take_finished
   * (only eddi_request_exec's replies, and only with a waker). */
  bool pending;
} EddiReply;

/* Run a message (one command per line) from sender (a non-empty name: the
 * NATS sender, "emacs", "cli"...). Fills reply; free it with eddi_reply_free.
 * Never fails: bad input is a Fail reply. Never pending: long work is
 * waited for, and so is long work of sender's earlier requests. */
void eddi_exec_reply(EddiEngine *self, const char *sender, const char *text, size_t len,
                     EddiReply *reply);
void eddi_reply_free(EddiReply *reply);

/* The same, with the replies joined by '\n' into a new string the caller
 * frees with eddi_string_free. */
char *eddi_exec(EddiEngine *self, const char *sender, const char *text, size_t len);
void eddi_string_free(char *text);

/* One command line of a message, as eddi_exec splits it: a script
 * statement that opens a block ({) with its first line, that block's lines
 * and the line of the '}' that closes it. */
typedef struct {
  const char *line;  /* without leading and trailing blanks or its newline */
  size_t len;
  size_t verb_len;   /* the command word: line[0, verb_len) */
  bool takes_body;   /* the rest of the message is its body (Patch, Edit, a script) */
  bool block_open;   /* the message ends inside a block this command opened */
  const char *body;  /* the text after this command */
  size_t body_len;
} EddiCommandLine;

/* Call visit on each command line of text, in order, until it returns
 * false: blank and '#' lines are skipped, and a command that takes a body
 * ends the walk. Front ends use it to read a message the way the engine
 * will (which command starts a session, whether a sender only reads)
 * without running it. */
void eddi_each_command(const char *text, size_t len,
                       bool (*visit)(const EddiCommandLine *line, void *closure), void *closure);
/* Whether text, the lines of a message read so far, ends inside a block
 * ({ ... }) that a later line would close. A front end that reads a line at
 * a time (the CLI on a script file or a terminal) reads on while it is, so
 * that a block written across lines is one message. */
bool eddi_message_open_block(const char *text, size_t len);
/* Whether line's command word is word (case-insensitive). */
bool eddi_command_is(const EddiCommandLine *line, const char *word);

/* The session name of sender's active session, or NULL. Borrowed. */
const char *eddi_engine_session_of(const EddiEngine *self, const char *sender);

/* ------------------------------------------------------------ journal */

/* Keep this engine's sessions and multi-file changes in the workspace's
 * journal (an SQLite file in the state folder; doc/journal.org): finish or
 * undo the changes a crashed process left, remove its temporary files,
 * and take back the sessions of processes that died. Call once, after
 * eddi_engine_set_instance. report receives what recovery did (lines, may
 * be empty); a failure (a journal from a newer eddi) is negative with
 * error set. Without this call the engine keeps sessions in memory only. */
int eddi_engine_open_journal(EddiEngine *self, char *report, size_t report_size, char *error,
                             size_t error_size);
bool eddi_engine_journaled(const EddiEngine *self);

/* Before eddi_engine_open_journal: restore only the sessions in names (one
 * name a line; borrowed, copied), or every one when names is NULL. Those
 * left out stay in the journal. */
void eddi_engine_set_resume_only(EddiEngine *self, const char *names);

/* What the journal of the workspace holds, before its sessions come back:
 * it opens the journal (settling what a crashed process left) and
 * eddi_engine_open_journal then restores. One line per session, "NAME\tSENDER\tFILES\tEDITS" (FILES its
 * open files joined by ", ", EDITS its unsaved edits). *out is a new
 * string the caller frees with eddi_string_free ("" when there is no journal). */
int eddi_engine_journal_sessions(EddiEngine *self, char **out, char *error, size_t error_size);

/* Room for a workspace id: 16 hex digits of the xxh64 of the canonical
 * root, and the NUL. It names the state folder and the KV records. */
#define EDDI_WORKSPACE_ID_SIZE 17
void eddi_engine_workspace_id(const EddiEngine *self, char out[EDDI_WORKSPACE_ID_SIZE]);

/* Owner thread: take the sessions that instance (found dead) held in this
 * workspace's journal; the sender's next reply starts with
 * "Ok, Session s taken over from <instance>". How many were taken; what
 * was restored goes to report. */
size_t eddi_engine_take_over(EddiEngine *self, const char *instance, char *report,
                             size_t report_size);

/* The KV mirror's side (eddi-server --kv; session/journal_kv.c). A number
 * that grows whenever the journal wrote session's rows (0: not journaled
 * here), so a mirror copies a record only when it changed. */
uint64_t eddi_engine_session_version(EddiEngine *self, const char *session);
/* Owner thread: the journal's rows of session as one compact record
 * (*out freed with eddi_string_free), for another instance to import. */
int eddi_engine_session_record(EddiEngine *self, const char *session, char **out, size_t *len);
/* Owner thread: put a record of a session that instance (found dead) held
 * into this journal, for eddi_engine_take_over to take: 1 when imported, 0
 * when the journal has that session already, negative with error set. */
int eddi_engine_import_session(EddiEngine *self, const char *instance, const char *record,
                               size_t len, char *error, size_t error_size);
/* Owner thread: holder took session over while this instance was thought
 * dead: drop it here without ending it (no session event), and route it
 * to holder from now on. */
int eddi_engine_stand_down(EddiEngine *self, const char *session, const char *holder);

/* ------------------------------------------------------------ requests */

/* The sender of a message that names none. */
#define EDDI_ANONYMOUS_SENDER "anonymous"
/* Longest sender name accepted; senders become log fields and map keys. */
#define EDDI_SENDER_NAME_MAX 256
/* Longest instance id (eddi-server --name, the Emacs bridge's instance). */
#define EDDI_INSTANCE_NAME_MAX 64

/* One message as a transport received it. Borrowed for the call. */
typedef struct {
  const char *sender;   /* NULL: EDDI_ANONYMOUS_SENDER, or the holder of session */
  const char *session;  /* the session the message names, or NULL */
  const char *text;
  size_t len;
  bool name_instance;   /* a Start's reply gains ", Instance <id>" (NATS) */
  const char *transport; /* "nats", "stdio", "emacs"...: for the audit log; may be NULL */
  uint64_t ticket;      /* the transport's handle, given back with a late reply */
  /* The message may read, and run scripts whose changes are collected
   * (their first statement `collect changes as "name"`), nothing more:
   * what a sandboxed script's calls are limited to, its relay setting it. */
  bool collect_only;
} EddiRequest;

/* Who may send, and who may only read. Lists are NULL-terminated and copied;
 * a NULL allowed list lets every sender in. */
typedef struct {
  const char *const *allowed_senders;
  const char *const *read_only_senders;
} EddiSenderPolicy;

int eddi_engine_set_policy(EddiEngine *self, const EddiSenderPolicy *policy);

/* This engine's instance id, named in Start replies and session events;
 * NULL or "" for none (the CLI). Copied. */
int eddi_engine_set_instance(EddiEngine *self, const char *instance);

/* Route, check and run a request: the session it names must be held here
 * by the same sender (else Fail "Session s lives on <instance>", "... not
 * found", "... belongs to another sender"); the sender must pass the policy;
 * then the text runs as in eddi_exec_reply. Never fails: a refusal is a
 * one-item Fail reply. With a waker the reply may be pending (see "long
 * work" below). */
void eddi_request_exec(EddiEngine *self, const EddiRequest *request, EddiReply *reply);

/* ------------------------------------------------------------ sessions */

typedef enum { EDDI_SESSION_STARTED, EDDI_SESSION_ENDED } EddiSessionChange;

typedef struct {
  EddiSessionChange change;
  const char *session;
  const char *sender;
  const char *instance; /* the instance that holds it */
} EddiSessionEvent;

/* Called on the owner thread when a request started or ended a session held
 * here (a transport publishes it to other instances). Borrowed strings. */
typedef void (*EddiSessionListener)(void *closure, const EddiSessionEvent *event);
void eddi_engine_listen_sessions(EddiEngine *self, EddiSessionListener listener, void *closure);

/* Another instance's session started or ended (its event, or a sync
 * answer): routing then refuses it here with where it lives. Thread-safe:
 * transports call it from their own threads. */
int eddi_engine_note_remote_session(EddiEngine *self, const EddiSessionEvent *event);

/* Each session held here, for answering another instance's sync.
 * Thread-safe; visit must not call the engine. */
void eddi_engine_each_session(const EddiEngine *self,
                              void (*visit)(void *closure, const char *session,
                                            const char *sender),
                              void *closure);

/* Sessions held here (thread-safe, for $SRV.STATS). */
size_t eddi_engine_session_count(const EddiEngine *self);

/* Whether another instance holds session (or, with session NULL, a session
 * of sender): copies the instance's and the session's names (either buffer
 * may be NULL). Thread-safe. */
bool eddi_engine_remote_session(const EddiEngine *self, const char *session, const char *sender,
                                char *instance, size_t instance_size, char *found,
                                size_t found_size);

/* Liveness of the other instances (thread-safe; session/registry.h): a
 * transport pings each instance heard of and reports the answers; the
 * sessions of an instance gone, or silent for longer than timeout_ms, are
 * dropped, and a dead instance's announcements are ignored until it
 * answers again. instances copies the names heard of (at most max);
 * unverified says whether one was heard of since the last call that has
 * not answered yet. */
size_t eddi_engine_instances(EddiEngine *self, char (*names)[EDDI_INSTANCE_NAME_MAX + 1],
                             size_t max);
void eddi_engine_instance_answered(EddiEngine *self, const char *instance, bool answered);
size_t eddi_engine_expire_instances(EddiEngine *self, unsigned timeout_ms);
bool eddi_engine_instances_unverified(EddiEngine *self);
/* Whether instance was already found gone. */
bool eddi_engine_instance_gone(EddiEngine *self, const char *instance);

/* ------------------------------------------------------------ typed calls */

/* The edit formats as calls with typed arguments (MCP tools, JSON-RPC
 * methods): the arguments are data that need no quoting. */
typedef enum {
  EDDI_CALL_READ,           /* path, offset?, limit? */
  EDDI_CALL_GREP,           /* text = pattern, glob?, offset?, ignore_case? */
  EDDI_CALL_HASHLINE,       /* text = patch */
  EDDI_CALL_APPLY_PATCH,    /* text = patch */
  EDDI_CALL_SEARCH_REPLACE, /* text = blocks, path? */
  EDDI_CALL_FILE_UPDATE,    /* path, text = <change> or SEARCH/REPLACE blocks */
  EDDI_CALL_REPLACE,        /* path, edits[] */
  EDDI_CALL_REFACTOR,       /* operation, text = target, new_name, unsure?, leave? */
  EDDI_CALL_PREVIEW,        /* as EDDI_CALL_REFACTOR; writes nothing */
  EDDI_CALL_QUERY,          /* text = a script's set, glob?, offset?, limit?, with_text? */
  EDDI_CALL_KIND_COUNT
} EddiCallKind;

/* Replace mode: old_string -> new_string. */
typedef struct {
  const char *old_string;
  size_t old_len;
  const char *new_string;
  size_t new_len;
  bool replace_all;
} EddiReplaceEdit;

typedef struct {
  EddiCallKind kind;
  const char *path;
  const char *text;
  size_t text_len;
  const char *glob;
  size_t offset, limit;
  bool ignore_case;
  const EddiReplaceEdit *edits;
  size_t edit_count;
  /* Refactor and Preview: operation is "RenameSymbol" or "Rename_Class";
   * text is the target as the Refactor command takes it (a name,
   * Class.method, module.func, path.py:func, path:L:C), NUL-terminated;
   * new_name the name it gets; unsure also rewrites the references the
   * analysis is unsure of, leave writes without them (a change that leaves
   * some is refused without one of the two); delegate keeps Move_Method's
   * old method, delegating; unchecked writes without the language
   * servers' check. The reply is the command's (Preview's with its
   * diff, as in raw mode). */
  const char *operation;
  const char *new_name;
  bool unsure;
  bool leave;
  bool delegate;
  bool unchecked;
  /* Query: the set as a script writes it (text), in the files glob
   * matches; the answer is JSON (services/query_call.h), each element with
   * its text when with_text. */
  bool with_text;
} EddiCall;

/* What a call did, for results that report it. */
typedef struct {
  size_t files;    /* files written, created, moved or deleted */
  bool no_change;  /* it applied and nothing changed */
} EddiCallOutcome;

/* Run a call as request's sender (request->text is the call's command word,
 * for the log and the read-only check): routing, policy, Confirm and undo
 * grouping as for text. reply gets one item: the text a model reads, or a
 * Fail. outcome may be NULL. Never pending: long work of the sender's
 * earlier requests is waited for first. */
void eddi_request_call(EddiEngine *self, const EddiRequest *request, const EddiCall *call,
                       EddiReply *reply, EddiCallOutcome *outcome);

/* ------------------------------------------------------------ the table */

/* A command of EddiSpeak, as Help and tool lists describe it. */
typedef struct {
  const char *name;     /* "Goto" */
  const char *syntax;   /* "Goto <line>[:<col>] | Goto Start | ..." */
  const char *summary;  /* one line for Help */
  bool read_only;       /* a read-only sender may run it */
  bool takes_body;      /* the rest of the message is its body */
  bool script;          /* a script: a read-only sender may run it when its
                         * statements write nothing (read_only is false) */
} EddiCommandInfo;

size_t eddi_command_count(void);
const EddiCommandInfo *eddi_command_info(size_t index);

/* An argument of a tool. */
typedef struct EddiToolArg {
  const char *name;
  const char *type;        /* JSON Schema type: "string", "integer", "boolean", "array" */
  const char *description; /* NULL where the name says it */
  bool required;
  /* For an "array": the arguments of each item (an object), terminated by
   * a NULL name; NULL otherwise. */
  const struct EddiToolArg *items;
} EddiToolArg;

/* A tool: the `eddi` text tool or an edit-format call, as MCP and the Emacs
 * agent offer it. One description, written for a model. */
typedef struct {
  const char *name;        /* "eddi", "read", "apply_patch", ... */
  int kind;                /* an EddiCallKind, or EDDI_TOOL_TEXT */
  const char *command;     /* the EddiSpeak command it stands for ("Patch") */
  const char *description;
  const char *schema;      /* its JSON Schema (an object), made from args */
  const EddiToolArg *args; /* terminated by a NULL name */
} EddiToolInfo;

#define EDDI_TOOL_TEXT (-1)

size_t eddi_tool_count(void);
const EddiToolInfo *eddi_tool_info(size_t index);
const EddiToolInfo *eddi_tool_find(const char *name);

/* The documents open in sender's session, in the order they were opened:
 * visit gets each one's workspace path, its text as the session holds it
 * (unsaved edits included; borrowed for the call) and whether it differs
 * from what was last saved. Owner thread; visit must not call the engine.
 * Returns how many were visited (0 when sender has no session). */
size_t eddi_engine_each_document(EddiEngine *self, const char *sender,
                                 void (*visit)(void *closure, const char *path, const char *text,
                                               size_t len, bool modified),
                                 void *closure);

/* ------------------------------------------------------------ long work */

/* A command whose work runs on a worker thread (Format runs a program;
 * later indexing, refactoring, scripts) holds the owner thread only when no
 * waker is set: then the call waits for it. With a waker, a request
 * (eddi_request_exec) that meets such a command comes back pending
 * (EddiReply.pending), and so does every later request of the same sender:
 * they wait, in order, inside the engine. Other senders' requests run at
 * once. The waker is called from the worker thread when the work is done;
 * the owner thread then calls eddi_engine_take_finished.
 *
 * A pending message is answered whole: the replies of the commands before
 * the long one are kept, the long one's reply is made when its work is
 * done, and the commands after it run then (a failure skips them, as
 * always); the reply has one item per command, as eddi_exec_reply's.
 *
 * Set the waker before the first request; closure must outlive the
 * engine's running work. eddi_engine_free waits for work still running
 * and drops it, with the requests waiting behind it, unanswered. */
typedef void (*EddiWaker)(void *closure);
void eddi_engine_set_waker(EddiEngine *self, EddiWaker wake, void *closure);

/* Finish the work that is done (on the owner thread: the long command's
 * reply, the rest of its message, then the requests that waited behind
 * it) and visit each reply completed since the last call, with its
 * request's ticket; a sender's replies come in the order of its requests.
 * visit owns nothing (the reply is freed after it returns) and may call the
 * engine. */
void eddi_engine_take_finished(EddiEngine *self,
                               void (*visit)(void *closure, uint64_t ticket,
                                             const EddiReply *reply),
                               void *closure);

/* Cancel the long work of the request with ticket (EddiRequest.ticket,
 * non-zero), from any thread: its work is told to stop (a script stops
 * at its next statement, a refactoring between its steps) and what it
 * made is dropped, never applied, so nothing is written; the command's
 * reply is Fail "Cancelled: ...", and the rest of its message is skipped.
 * Work of that ticket that starts later (the request still queued) is
 * cancelled as it starts. EDDI_ENOENT when no work of it is running now
 * (it may have finished, or not started yet). */
int eddi_engine_cancel(EddiEngine *self, uint64_t ticket);

/* How far the long work of the request with ticket has come, from any
 * thread: *done units of *unit ("files analysed", "statements run"; NULL while
 * it has counted none; a static string). EDDI_ENOENT when none of its work
 * runs now. */
int eddi_engine_progress(EddiEngine *self, uint64_t ticket, size_t *done, const char **unit);

/* ------------------------------------------------------------ audit */

/* Every request (refused ones too) becomes one line of JSON: time, sender,
 * session, instance, transport, the command words, each file written or
 * deleted with its content hashes before and after, and the outcome
 * (ok | fail with the failing command's index | refused | pending). Never
 * file text, never a Fail's message. The sink gets each line (no newline)
 * on the owner thread, e.g. to publish it. */
typedef void (*EddiAuditSink)(void *closure, const char *line, size_t len);

/* What eddi does when a line cannot be written to the audit file (a full
 * disk): it says so on stderr either way, and by default refuses every
 * request that could write a file until a line can be written again. */
typedef enum {
  EDDI_AUDIT_FAILURE_REFUSE,   /* refuse writes (Fail names the option) */
  EDDI_AUDIT_FAILURE_CONTINUE, /* writes go on; each line lost is said on stderr */
} EddiAuditFailure;

typedef struct {
  const char *path;  /* NULL: <state folder>/audit.jsonl; "": no file */
  EddiAuditSink sink; /* may be NULL */
  void *closure;
  EddiAuditFailure failure;
} EddiAuditConfig;

/* Start auditing (config NULL: stop). Fails when the file cannot be opened. */
int eddi_engine_set_audit(EddiEngine *self, const EddiAuditConfig *config, char *error,
                          size_t error_size);

/* ------------------------------------------------------------ helpers */

/* Live allocations the engine made (tests check that none are left). */
long eddi_alloc_live(void);

/* The allocator of every engine allocation, as tree-sitter's
 * ts_set_allocator; NULL for any of the four: the C library's. When one
 * returns NULL, out_of_memory is called with the size asked for (NULL: the
 * default, which prints "eddi: out of memory" and aborts). It must not
 * return: it exits, aborts, or jumps (longjmp) out of the engine; if it
 * returns, eddi aborts. A jump leaves the engine's structures half made and
 * its locks held: do not call that engine again, nor any other of this
 * process (they share locks). From the failure on, the engine writes no
 * workspace file in this process ("eddi ran out of memory"). The handler
 * runs on the thread that allocated, a worker thread of the engine's too.
 * Not thread-safe: call it while no thread is in the engine; what the
 * functions in force before allocated must be freeable by new_free.
 * Libraries the engine uses (tree-sitter, SQLite, PCRE2, json-c, nats.c)
 * allocate with their own allocators. */
void eddi_set_allocator(void *(*new_malloc)(size_t size),
                        void *(*new_calloc)(size_t count, size_t size),
                        void *(*new_realloc)(void *ptr, size_t size), void (*new_free)(void *ptr),
                        void (*out_of_memory)(size_t size));

/* Whether bytes are valid UTF-8 (no overlongs, surrogates or past U+10FFFF). */
bool eddi_utf8_valid(const char *bytes, size_t len);

/* A complete `Fail "<reason>"` reply line, the reason quoted and escaped as
 * every Fail is, into out of out_size bytes (cut on a character boundary).
 * Returns out. For front ends that refuse before the engine sees a message
 * (bad JSON, a full queue). */
char *eddi_fail_line(char *out, size_t out_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
