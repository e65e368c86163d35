/* mcp_tools.h - the tools eddi offers to MCP clients.
 *
 * The tools are the engine's tool table (eddi_tool_info in eddi.h): their
 * names, descriptions and schemas are written there once, for MCP and the
 * Emacs agent alike. `eddi` takes EddiSpeak commands as they are. The
 * others are the edit formats models already speak (read, grep, edit,
 * apply_patch, file_update, replace): their arguments become an EditCall
 * (edit_calls.h) that runs the format's engine entry point. What is decided
 * here is which of them this server offers: a tool is listed only when the
 * engine has its format (HostFeatures).
 */
#ifndef EDDI_SERVER_MCP_TOOLS_H
#define EDDI_SERVER_MCP_TOOLS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "eddi.h"
#include "edit_calls.h"
#include "engine_host.h"

/* A tool is an entry of the engine's table. */
typedef EddiToolInfo McpTool;

/* The tools this engine supports, as a new MCP `tools` array. */
json_object *mcp_tools_list(const HostFeatures *features);

/* The tool called name, if this engine supports it. */
const McpTool *mcp_tools_find(const HostFeatures *features, const char *name);

/* True for the `eddi` tool: its argument is EddiSpeak text for
 * engine_host_exec, and a model drives its sessions with Start itself. */
bool mcp_tool_is_eddispeak(const McpTool *self);
/* The format of an edit tool. */
EditCallKind mcp_tool_kind(const McpTool *self);

/* The `eddi` tool's text argument, borrowed from arguments. SERVER_EINVAL
 * with why (plain text) when it is missing, not a string, or beside an
 * argument the tool does not take. */
int mcp_tool_text(json_object *arguments, const char **text, size_t *len, char *why,
                  size_t why_size);

#endif
