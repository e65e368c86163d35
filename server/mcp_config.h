/* mcp_config.h - `eddi-server mcp-config`: the MCP configuration each client
 * takes to spawn this server.
 *
 *   eddi-server mcp-config --client vscode|jetbrains|claude|codex|cursor|zed
 *                          [--workspace DIR] [--write]
 *
 * prints the client's entry for eddi (or, with --write, merges it into the
 * client's project file under DIR): the command is this program's absolute
 * path and the arguments `--stdio --root <DIR, absolute>`, so that the
 * entry depends on no PATH and no environment of the client (an IDE's PATH
 * is not the terminal's). It belongs to eddi-server rather than the eddi
 * CLI because the server is what the clients spawn: the path it prints is
 * its own.
 *
 * --write keeps every other entry of the file; it refuses, saying why and
 * writing nothing, a file it cannot read whole (JSON with comments, a TOML
 * file with multi-line strings) rather than lose what it does not
 * understand.
 */
#ifndef EDDI_SERVER_MCP_CONFIG_H
#define EDDI_SERVER_MCP_CONFIG_H

/* The subcommand's word, argv[1] of eddi-server. */
#define MCP_CONFIG_COMMAND "mcp-config"

/* Run the subcommand on argv (argv[0] is "mcp-config"); the exit status. */
int mcp_config_main(int argc, char **argv);

#endif
