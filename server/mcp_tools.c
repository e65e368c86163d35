/* mcp_tools.c - see mcp_tools.h.
 *
 * The table is the engine's; this file only filters it by what the engine
 * was found to have and turns it into MCP's `tools` array.
 */
#include "mcp_tools.h"

#include <stdio.h>
#include <string.h>

#include "mcp_resources.h"
#include "server_error.h"

/* The server's call kinds are the engine's, value for value: a tool's kind
 * (an EddiCallKind) names its EditCallKind. */
_Static_assert((int)EDIT_CALL_READ == (int)EDDI_CALL_READ, "call kinds differ");
_Static_assert((int)EDIT_CALL_GREP == (int)EDDI_CALL_GREP, "call kinds differ");
_Static_assert((int)EDIT_CALL_HASHLINE == (int)EDDI_CALL_HASHLINE, "call kinds differ");
_Static_assert((int)EDIT_CALL_APPLY_PATCH == (int)EDDI_CALL_APPLY_PATCH, "call kinds differ");
_Static_assert((int)EDIT_CALL_SEARCH_REPLACE == (int)EDDI_CALL_SEARCH_REPLACE,
               "call kinds differ");
_Static_assert((int)EDIT_CALL_FILE_UPDATE == (int)EDDI_CALL_FILE_UPDATE, "call kinds differ");
_Static_assert((int)EDIT_CALL_REPLACE == (int)EDDI_CALL_REPLACE, "call kinds differ");
_Static_assert((int)EDIT_CALL_REFACTOR == (int)EDDI_CALL_REFACTOR, "call kinds differ");
_Static_assert((int)EDIT_CALL_PREVIEW == (int)EDDI_CALL_PREVIEW, "call kinds differ");

static bool mcp__supported(const McpTool *tool, const HostFeatures *features) {
  return tool->kind == EDDI_TOOL_TEXT || edit_call_available((EditCallKind)tool->kind, features);
}

json_object *mcp_tools_list(const HostFeatures *features) {
  json_object *tools = json_object_new_array();
  if (!tools) return NULL;
  for (size_t i = 0; i < eddi_tool_count(); i++) {
    const McpTool *tool = eddi_tool_info(i);
    if (!mcp__supported(tool, features)) continue;
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "name", json_object_new_string(tool->name));
    json_object_object_add(entry, "description", json_object_new_string(tool->description));
    json_object_object_add(entry, "inputSchema", json_tokener_parse(tool->schema));
    json_object *output = mcp_tool_output_schema(tool->name);
    if (output) json_object_object_add(entry, "outputSchema", output);
    json_object_array_add(tools, entry);
  }
  return tools;
}

const McpTool *mcp_tools_find(const HostFeatures *features, const char *name) {
  const McpTool *tool = eddi_tool_find(name);
  return tool && mcp__supported(tool, features) ? tool : NULL;
}

bool mcp_tool_is_eddispeak(const McpTool *self) { return self->kind == EDDI_TOOL_TEXT; }

EditCallKind mcp_tool_kind(const McpTool *self) { return (EditCallKind)self->kind; }

/* The `eddi` tool's one argument; its schema is closed like the others'. */
static const char *const mcp__text_keys[] = {"text", NULL};

int mcp_tool_text(json_object *arguments, const char **text, size_t *len, char *why,
                  size_t why_size) {
  json_object *member = NULL;
  if (!arguments || !json_object_is_type(arguments, json_type_object)) {
    snprintf(why, why_size, "Arguments must be an object");
    return SERVER_EINVAL;
  }
  int status = edit_call_known_keys(arguments, mcp__text_keys, why, why_size);
  if (status != SERVER_OK) return status;
  if (!json_object_object_get_ex(arguments, "text", &member) ||
      json_object_is_type(member, json_type_null)) {
    snprintf(why, why_size, "Missing argument: text");
    return SERVER_EINVAL;
  }
  if (!json_object_is_type(member, json_type_string)) {
    snprintf(why, why_size, "Argument text must be a string");
    return SERVER_EINVAL;
  }
  *text = json_object_get_string(member);
  *len = (size_t)json_object_get_string_len(member);
  return SERVER_OK;
}
