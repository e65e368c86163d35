/* command.h - what a command handler gets: its context and the engine's ports.
 *
 * The engine (session/) looks the verb up in its table, checks the
 * command's needs (a session, a current file), and calls its handler with
 * the arguments. A handler either fills the reply and returns 0, or fills
 * ctx->err and returns a negative code; it changes nothing when it fails.
 *
 * A handler works on the workspace (workspace/workspace.h) and its session;
 * what it needs of the engine above (long work, running other commands,
 * looking a command up) it asks through the ports in ctx, so that the
 * command files and the layers they use never include session/. */
#ifndef EDDI_COMMAND_H
#define EDDI_COMMAND_H

#include "lang/lexer.h"
#include "lang/message.h"
#include "lang/reply.h"
#include "workspace/session.h"
#include "workspace/workspace.h"

typedef struct CommandSpec CommandSpec;
typedef struct CommandContext CommandContext;

/* ---------------------------------------------------------------- long work */

/* A command that can take long (Format runs a program; Grep walks the
 * workspace; a refactoring or a script reads many files) is split in three
 * steps so that the engine's state is only ever touched by its owner
 * thread:
 * - the command, on the owner thread, copies what the work needs into a
 *   job and returns eddi_job_start(ctx, job);
 * - work() runs on a worker thread and touches nothing of the workspace;
 * - finish() runs on the owner thread again: it checks that what the job
 *   read has not changed meanwhile, applies the result, and builds the
 *   reply in ctx. That ctx is a fresh one for the same sender and session
 *   (ctx->args is NULL: a job keeps what it needs), made after the same
 *   checks as the command's own (a session, a current file in step).
 * How and when the work runs is the engine's (session/job.c). */
typedef struct EddiJob EddiJob;
struct EddiJob {
  void (*work)(EddiJob *self);
  int (*finish)(EddiJob *self, CommandContext *ctx);
  void (*destroy)(EddiJob *self); /* frees the job; called once, last */
};

/* ---------------------------------------------------------------- the ports */

/* What a command may ask of the engine. Each call gets engine back. */
typedef struct {
  void *engine;
  /* The command named name (the table's or an embedder's extra), or NULL. */
  const CommandSpec *(*find)(void *engine, const char *name);
  /* Whether a command line only reads (a read-only sender may run it);
   * when it does not, word receives the command as a refusal names it. */
  bool (*line_reads_only)(void *engine, const EddiCommandLine *line, char *word,
                          size_t word_size);
  /* Run job for ctx's command: what finish returned, or EDDI_EPENDING
   * when the engine keeps the job running (and then owns it). On a
   * failure to start, destroys job and fills ctx->err. */
  int (*start_job)(void *engine, CommandContext *ctx, EddiJob *job);
  /* Run the command lines of text[0, len) as sender to their end (none
   * left pending), one reply item each appended to reply; *failed (in and
   * out) skips the rest after a failure. */
  void (*run_commands)(void *engine, const char *sender, const char *text, size_t len,
                       EddiReply *reply, bool *failed);
} EddiCommandPorts;

/* ---------------------------------------------------------------- a command */

/* Made by the engine for one command; every field is read-only to the
 * handler (it fills *reply or *err through them). */
struct CommandContext {
  EddiWorkspace *workspace;
  const EddiCommandPorts *ports;
  const CommandSpec *spec; /* the command being run (NULL for a Confirm answer) */
  EddiSession *session;    /* NULL for commands that need none */
  const char *sender;
  const Token *args; /* after the verb */
  size_t argc;
  const char *body; /* the rest of the message, for commands that take one */
  size_t body_len;
  EddiReplyBuilder *reply;
  EddiError *err;
};

enum {
  CMD_NEEDS_SESSION = 1,
  CMD_NEEDS_FILE = 2, /* a current document */
  CMD_TAKES_BODY = 4,
  /* It changes no file: a read-only sender may run it. (`Open Create` is
   * the one form of such a command that writes; see
   * eddi_command_line_reads_only.) */
  CMD_READ_ONLY = 8,
  /* A script: whether it writes depends on its statements
   * (eddi_script_line_reads_only), not on its word. */
  CMD_SCRIPT = 16,
};

struct CommandSpec {
  const char *name;
  const char *syntax; /* shown by Help and in usage errors */
  const char *summary;
  unsigned flags;
  int (*run)(CommandContext *ctx);
};

/* How far the command of spec (or of an unknown word: NULL) reaches past
 * its first line in a message: a body to the end, a script's block to its
 * closing '}', or its line alone. */
static inline EddiLineReach eddi_command_reach(const CommandSpec *spec) {
  if (spec && (spec->flags & CMD_TAKES_BODY)) return EDDI_LINE_BODY;
  if (spec && (spec->flags & CMD_SCRIPT)) return EDDI_LINE_BLOCKS;
  return EDDI_LINE_ONE;
}

/* Shorthands for CommandSpec.flags. */
#define CMD_SESSION CMD_NEEDS_SESSION
#define CMD_FILE (CMD_NEEDS_SESSION | CMD_NEEDS_FILE)

/* Longest command word looked up (longer ones are no command). */
#define EDDI_COMMAND_NAME_MAX 32

/* The commands of one area (a *_commands.c file), listed in session/command_table.c. */
typedef struct {
  const CommandSpec *commands;
  size_t count;
} CommandGroup;

#define COMMAND_GROUP(name, table) \
  const CommandGroup name = {table, sizeof table / sizeof table[0]}

/* ---------------------------------------------------------------- helpers */

/* Run job for the command in ctx through the engine's port; the command
 * returns what this returns. One job per command: a second one runs at
 * once. */
int eddi_job_start(CommandContext *ctx, EddiJob *job);

#endif
