/* message.h - a message split into its command lines, as the engine runs
 * them: blank and '#' lines skipped, a script statement that opens a block
 * ({) going on through the lines up to the '}' that closes it, and a
 * command that takes a body (a patch, a { } script) ending the walk with
 * the rest of the message. Which words are which is the caller's to say
 * (the engine's command table). */
#ifndef EDDI_MESSAGE_H
#define EDDI_MESSAGE_H

#include "eddi.h"
#include "core/common.h"

/* Longest command word asked about: a longer word is no command. */
#define EDDI_MESSAGE_VERB_MAX 32

/* How far a command reaches past its first line. */
typedef enum {
  EDDI_LINE_ONE,    /* its line alone */
  EDDI_LINE_BLOCKS, /* a script statement: a block it opens takes the lines up to its '}' */
  EDDI_LINE_BODY,   /* the rest of the message (Patch, Edit, Update) */
} EddiLineReach;

/* The reach of the command word verb. */
typedef EddiLineReach (*EddiLineReachOf)(void *context, const char *verb);

/* Call visit on each command line of text, in order, until it returns
 * false (eddi.h's eddi_each_command, with reach_of as the table). */
void eddi_message_each_line(const char *text, size_t len, EddiLineReachOf reach_of,
                            void *context,
                            bool (*visit)(const EddiCommandLine *line, void *closure),
                            void *closure);

/* The block depth after text, starting from depth: each '{' opens a block,
 * each '}' closes one, but not inside a "quoted string" (which ends at its
 * line's end at the latest) nor on a '#' comment line. The one brace
 * counter of scripts written across lines: the message walk above and
 * front ends that read a line at a time (eddi.h's eddi_message_open_block). */
long eddi_message_block_depth(const char *text, size_t len, long depth);

#endif
