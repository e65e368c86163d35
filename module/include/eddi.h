/* eddi.h - the engine's one entry point.
 *
 * Every front end (the eddi CLI, eddi-server's NATS and stdio transports, the
 * Emacs module) ends in eddi_exec: a sender's message of EddiSpeak text in,
 * one reply per command out. Nothing above this call knows how a command
 * works; nothing below it knows which transport carried the message.
 *
 * An engine is not thread-safe: one thread owns it, transports queue to it.
 */
#ifndef EDDI_H
#define EDDI_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EDDI_VERSION "0.1.0"
#define EDDI_SPEAK_VERSION "1.0"

typedef struct EddiEngine EddiEngine;

/* Limits, all configurable; eddi_config_default gives the documented ones. */
typedef struct {
  size_t max_message_bytes;  /* a message larger than this is refused (1 MiB) */
  size_t max_file_bytes;     /* Open refuses larger files (64 MiB) */
  size_t max_open_files;     /* per session (256) */
  size_t page_size;          /* entries per List / Find All page (200) */
  size_t undo_groups;        /* undo steps kept per file (10000) */
  size_t max_walk_entries;   /* directory entries List may visit (100000) */
  size_t max_syntax_bytes;   /* larger files are not parsed: plain text (8 MiB) */
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

/* One command's reply: ok is false for a Fail. text is the reply line, and in
 * raw mode the lines of its payload after it, '\n'-separated. */
typedef struct {
  bool ok;
  char *text;
} EddiReplyItem;

typedef struct {
  size_t count;
  EddiReplyItem *items;
} EddiReply;

/* Run a message (one command per line) from sender (a non-empty name: the
 * NATS sender, "emacs", "cli"...). Fills reply; free it with eddi_reply_free.
 * Never fails: bad input is a Fail reply. */
void eddi_exec_reply(EddiEngine *self, const char *sender, const char *text, size_t len,
                     EddiReply *reply);
void eddi_reply_free(EddiReply *reply);

/* The same, with the replies joined by '\n' into a new string the caller
 * frees with eddi_string_free. */
char *eddi_exec(EddiEngine *self, const char *sender, const char *text, size_t len);
void eddi_string_free(char *text);

/* One command line of a message, as eddi_exec splits it. */
typedef struct {
  const char *line;  /* without leading and trailing blanks or its newline */
  size_t len;
  size_t verb_len;   /* the command word: line[0, verb_len) */
  bool takes_body;   /* the rest of the message is its body (Patch, Edit, a script) */
  const char *body;  /* the text after this line */
  size_t body_len;
} EddiCommandLine;

/* Call visit on each command line of text, in order, until it returns
 * false: blank and '#' lines are skipped, and a command that takes a body
 * ends the walk. Front ends use it to read a message the way the engine
 * will (which command starts a session, whether a sender only reads)
 * without running it. */
void eddi_each_command(const char *text, size_t len,
                       bool (*visit)(const EddiCommandLine *line, void *closure), void *closure);
/* Whether line's command word is word (case-insensitive). */
bool eddi_command_is(const EddiCommandLine *line, const char *word);

/* The session name of sender's active session, or NULL. Borrowed. */
const char *eddi_engine_session_of(const EddiEngine *self, const char *sender);

#ifdef __cplusplus
}
#endif

#endif
