/* mcp_tools.c - see mcp_tools.h.
 *
 * Descriptions are written for a model: what to send and what comes back,
 * in as few tokens as that takes. The schemas say the rest (types, which
 * arguments are required); property descriptions only where a name alone
 * would mislead.
 */
#include "mcp_tools.h"

#include <stdio.h>
#include <string.h>

#include "server_error.h"

/* The `eddi` tool is not an edit call. */
#define TOOL_EDDISPEAK (-1)

struct McpTool {
  const char *name;
  int kind; /* an EditCallKind, or TOOL_EDDISPEAK */
  const char *description;
  const char *schema; /* JSON */
};

static const McpTool mcp__tools[] = {
    {"eddi", TOOL_EDDISPEAK,
     "Run EddiSpeak editor commands, one per line: Start s, Open Create a.py, Goto 3:0, "
     "Insert Block \"x\\n\", Save, Help. One reply line per command: Ok[, facts] or "
     "Fail \"why\".",
     "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\","
     "\"description\":\"EddiSpeak commands, one per line\"}},\"required\":[\"text\"]}"},
    {"read", EDIT_CALL_READ,
     "Read a file: a [PATH#TAG] header, then N:TEXT rows, 200 lines a page; the footer "
     "names the next offset. Use the tag and line numbers with edit.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
     "\"offset\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"first line, 1-based\"},"
     "\"limit\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"path\"],"
     "\"additionalProperties\":false}"},
    {"grep", EDIT_CALL_GREP,
     "Search files with a PCRE2 regex: matching N:TEXT rows under [PATH#TAG] headers, "
     "200 a page. A hit counts as a read: edit may use it.",
     "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},"
     "\"glob\":{\"type\":\"string\",\"description\":\"only paths matching it, e.g. src/*.c\"},"
     "\"offset\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"matches to skip\"},"
     "\"ignore_case\":{\"type\":\"boolean\"}},\"required\":[\"pattern\"],"
     "\"additionalProperties\":false}"},
    {"edit", EDIT_CALL_HASHLINE,
     "Hashline edit. Per file a [PATH#TAG] line (from read/grep), then ops on the line "
     "numbers you were shown: `PUT N.=M:` then +TEXT rows replaces lines N..M; `PUT <N:` / "
     "`PUT >N:` insert before/after (>$ = end); `CUT N.=M` deletes; `REM` deletes the file; "
     "`MV DEST` moves it. All files checked before any is written; the reply gives the new "
     "tag and the changed rows.",
     "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\"}},"
     "\"required\":[\"patch\"],\"additionalProperties\":false}"},
    {"apply_patch", EDIT_CALL_APPLY_PATCH,
     "Apply a patch: *** Begin Patch, then per file *** Add File: P (+lines), *** Delete "
     "File: P, or *** Update File: P (optional *** Move to: Q; @@ hunks of ' ', -, + "
     "lines), *** End Patch. All or nothing; context that fits twice is refused.",
     "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\"}},"
     "\"required\":[\"patch\"],\"additionalProperties\":false}"},
    {"file_update", EDIT_CALL_FILE_UPDATE,
     "Change one file with <change><original>OLD</original><modified>NEW</modified>"
     "</change> blocks (or SEARCH/REPLACE blocks). A missing file is created with content "
     "as it is.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
     "\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"],"
     "\"additionalProperties\":false}"},
    {"replace", EDIT_CALL_REPLACE,
     "Replace old_string with new_string in a file. old_string must fit one place (else "
     "refused with the candidate lines: add context or set replace_all); whitespace, "
     "indentation and quote drift are tolerated. edits[] applies several, all or nothing. "
     "Empty old_string creates a missing file.",
     "{\"type\":\"object\",\"properties\":{\"file_path\":{\"type\":\"string\"},"
     "\"old_string\":{\"type\":\"string\"},\"new_string\":{\"type\":\"string\"},"
     "\"replace_all\":{\"type\":\"boolean\"},"
     "\"edits\":{\"type\":\"array\",\"minItems\":1,\"items\":{\"type\":\"object\","
     "\"properties\":{\"old_string\":{\"type\":\"string\"},\"new_string\":{\"type\":\"string\"},"
     "\"replace_all\":{\"type\":\"boolean\"}},\"required\":[\"old_string\",\"new_string\"],"
     "\"additionalProperties\":false}}},\"required\":[\"file_path\"],"
     "\"additionalProperties\":false}"},
};

#define MCP_TOOL_COUNT (sizeof mcp__tools / sizeof mcp__tools[0])

static bool mcp__supported(const McpTool *tool, const HostFeatures *features) {
  return tool->kind == TOOL_EDDISPEAK || edit_call_available((EditCallKind)tool->kind, features);
}

json_object *mcp_tools_list(const HostFeatures *features) {
  json_object *tools = json_object_new_array();
  if (!tools) return NULL;
  for (size_t i = 0; i < MCP_TOOL_COUNT; i++) {
    const McpTool *tool = &mcp__tools[i];
    if (!mcp__supported(tool, features)) continue;
    json_object *entry = json_object_new_object();
    json_object_object_add(entry, "name", json_object_new_string(tool->name));
    json_object_object_add(entry, "description", json_object_new_string(tool->description));
    json_object_object_add(entry, "inputSchema", json_tokener_parse(tool->schema));
    json_object_array_add(tools, entry);
  }
  return tools;
}

const McpTool *mcp_tools_find(const HostFeatures *features, const char *name) {
  for (size_t i = 0; i < MCP_TOOL_COUNT; i++)
    if (strcmp(mcp__tools[i].name, name) == 0 && mcp__supported(&mcp__tools[i], features))
      return &mcp__tools[i];
  return NULL;
}

bool mcp_tool_is_eddispeak(const McpTool *self) { return self->kind == TOOL_EDDISPEAK; }

EditCallKind mcp_tool_kind(const McpTool *self) { return (EditCallKind)self->kind; }

int mcp_tool_text(json_object *arguments, const char **text, size_t *len, char *why,
                  size_t why_size) {
  json_object *member = NULL;
  if (!arguments || !json_object_is_type(arguments, json_type_object)) {
    snprintf(why, why_size, "Arguments must be an object");
    return SERVER_EINVAL;
  }
  if (!json_object_object_get_ex(arguments, "text", &member) ||
      !json_object_is_type(member, json_type_string)) {
    snprintf(why, why_size, "Missing argument: text");
    return SERVER_EINVAL;
  }
  *text = json_object_get_string(member);
  *len = (size_t)json_object_get_string_len(member);
  return SERVER_OK;
}
