/* mcp_tools.h - the tools eddi offers to MCP clients.
 *
 * Each tool is a thin form over one EddiSpeak command: `eddi` takes the
 * commands as they are; the others (read, grep, edit, apply_patch,
 * file_update) build one command from their arguments. A tool is listed
 * only when the engine has its command (HostFeatures).
 */
#ifndef EDDI_SERVER_MCP_TOOLS_H
#define EDDI_SERVER_MCP_TOOLS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine_host.h"

typedef struct McpTool McpTool;

/* The tools this engine supports, as a new MCP `tools` array. */
json_object *mcp_tools_list(const HostFeatures *features);

/* The tool called name, if this engine supports it. */
const McpTool *mcp_tools_find(const HostFeatures *features, const char *name);

/* True for tools that work on a session they start themselves if the sender
 * has none (all but `eddi`, which a model drives with Start itself). */
bool mcp_tool_wants_session(const McpTool *self);

/* Build the tool's EddiSpeak message into *text (a new string the caller
 * frees). SERVER_EINVAL with why (plain text) for bad arguments. */
int mcp_tool_command(const McpTool *self, json_object *arguments, char **text, size_t *len,
                     char *why, size_t why_size);

/* The command text for file.update {path, content}: `Update <path>` and the
 * content as body. */
int mcp_update_command(const char *path, const char *content, char **text, size_t *len);

#endif
