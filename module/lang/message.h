/* message.h - a message split into its command lines, as the engine runs
 * them: blank and '#' lines skipped, and a command that takes a body (a
 * patch, a script) ending the walk with the rest of the message. Which
 * words take a body is the caller's to say (the engine's command table). */
#ifndef EDDI_MESSAGE_H
#define EDDI_MESSAGE_H

#include "eddi.h"
#include "core/common.h"

/* Longest command word asked about: a longer word is no command. */
#define EDDI_MESSAGE_VERB_MAX 32

/* Whether the command word verb takes the rest of the message. */
typedef bool (*EddiBodyTest)(void *context, const char *verb);

/* Call visit on each command line of text, in order, until it returns
 * false (eddi.h's eddi_each_command, with takes_body as the table). */
void eddi_message_each_line(const char *text, size_t len, EddiBodyTest takes_body,
                            void *context,
                            bool (*visit)(const EddiCommandLine *line, void *closure),
                            void *closure);

#endif
