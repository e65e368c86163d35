/* command_table.h - the engine's table of commands: every command file's
 * group (services/commands.h) and Help, the read-only check, and the
 * lookups the message walk and the ports make. */
#ifndef EDDI_COMMAND_TABLE_H
#define EDDI_COMMAND_TABLE_H

#include "workspace/command.h"

/* The table's command named name (case-insensitive), or NULL. */
const CommandSpec *eddi_command_table_find(const char *name);
/* Whether name is a command of EDDISPEAK.md that is not built yet. */
bool eddi_command_planned(const char *name);
/* The name closest to a misspelt verb, or NULL. */
const char *eddi_command_suggest(const char *name);

/* Whether a command line only reads (a read-only sender may run it). When
 * it does not, word receives the command as the refusal names it ("Patch",
 * "Open Create"). */
bool eddi_command_line_reads_only(const EddiCommandLine *line, char *word, size_t word_size);
/* The same, except that a script whose changes are collected (its first
 * statement `collect changes as "name"`) passes unless it writes at once. */
bool eddi_command_line_collects_only(const EddiCommandLine *line, char *word, size_t word_size);

/* Ports that look commands up in the table alone and run nothing (no
 * engine): for reading a script outside a command (the read-only check,
 * tests, the fuzzer). */
const EddiCommandPorts *eddi_command_table_ports(void);

#endif
