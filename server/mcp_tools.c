/* mcp_tools.c - see mcp_tools.h.
 *
 * Descriptions are written for a model: what the tool does and what comes
 * back, in as few tokens as that takes.
 */
#include "mcp_tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail_reply.h"
#include "server_error.h"

/* -------------------------------------------------------- text building */

typedef struct {
  char *data;
  size_t len, cap;
  bool failed;
} ToolText;

static void tool_text_add(ToolText *self, const char *text, size_t len) {
  if (self->failed) return;
  if (self->len + len + 1 > self->cap) {
    size_t cap = self->cap ? self->cap : 64;
    while (cap < self->len + len + 1) cap *= 2;
    char *data = realloc(self->data, cap);
    if (!data) {
      self->failed = true;
      return;
    }
    self->data = data;
    self->cap = cap;
  }
  memcpy(self->data + self->len, text, len);
  self->len += len;
  self->data[self->len] = '\0';
}

static void tool_text_str(ToolText *self, const char *text) { tool_text_add(self, text, strlen(text)); }

/* A path or glob as an EddiSpeak argument: bare when it can be, else quoted. */
static void tool_text_word(ToolText *self, const char *word) {
  if (word[strcspn(word, " \t\n\"\\")] == '\0' && word[0]) {
    tool_text_str(self, word);
    return;
  }
  char *quoted = fail_reply_quote(word, strlen(word));
  if (!quoted) {
    self->failed = true;
    return;
  }
  tool_text_str(self, quoted);
  free(quoted);
}

static int tool_text_finish(ToolText *self, char **text, size_t *len) {
  if (self->failed || !self->data) {
    free(self->data);
    return SERVER_ENOMEM;
  }
  *text = self->data;
  *len = self->len;
  return SERVER_OK;
}

/* ------------------------------------------------------------ arguments */

static int tool__string(json_object *arguments, const char *key, bool required,
                        const char **value, char *why, size_t why_size) {
  json_object *member = NULL;
  *value = NULL;
  if (!json_object_object_get_ex(arguments, key, &member) ||
      json_object_is_type(member, json_type_null)) {
    if (!required) return SERVER_OK;
    snprintf(why, why_size, "Missing argument: %s", key);
    return SERVER_EINVAL;
  }
  if (!json_object_is_type(member, json_type_string)) {
    snprintf(why, why_size, "Argument %s must be a string", key);
    return SERVER_EINVAL;
  }
  *value = json_object_get_string(member);
  return SERVER_OK;
}

static int tool__count(json_object *arguments, const char *key, long long *value, char *why,
                       size_t why_size) {
  json_object *member = NULL;
  *value = -1;
  if (!json_object_object_get_ex(arguments, key, &member) ||
      json_object_is_type(member, json_type_null))
    return SERVER_OK;
  if (!json_object_is_type(member, json_type_int) || json_object_get_int64(member) < 0) {
    snprintf(why, why_size, "Argument %s must be a whole number >= 0", key);
    return SERVER_EINVAL;
  }
  *value = (long long)json_object_get_int64(member);
  return SERVER_OK;
}

static void tool_text_count(ToolText *self, long long value) {
  if (value < 0) return;
  char number[32];
  snprintf(number, sizeof number, " %lld", value);
  tool_text_str(self, number);
}

/* --------------------------------------------------------------- tools */

typedef int (*ToolBuild)(json_object *arguments, ToolText *out, char *why, size_t why_size);

static int tool__build_eddi(json_object *arguments, ToolText *out, char *why, size_t why_size) {
  const char *text;
  int status = tool__string(arguments, "text", true, &text, why, why_size);
  if (status == SERVER_OK) tool_text_str(out, text);
  return status;
}

static int tool__build_read(json_object *arguments, ToolText *out, char *why, size_t why_size) {
  const char *path;
  long long offset, limit;
  int status = tool__string(arguments, "path", true, &path, why, why_size);
  if (status == SERVER_OK) status = tool__count(arguments, "offset", &offset, why, why_size);
  if (status == SERVER_OK) status = tool__count(arguments, "limit", &limit, why, why_size);
  if (status != SERVER_OK) return status;
  tool_text_str(out, "Read ");
  tool_text_word(out, path);
  /* Read takes its numbers by position: a limit needs an offset before it. */
  tool_text_count(out, offset < 0 && limit >= 0 ? 0 : offset);
  tool_text_count(out, limit);
  return SERVER_OK;
}

static int tool__build_grep(json_object *arguments, ToolText *out, char *why, size_t why_size) {
  const char *pattern, *glob;
  long long offset;
  int status = tool__string(arguments, "pattern", true, &pattern, why, why_size);
  if (status == SERVER_OK) status = tool__string(arguments, "glob", false, &glob, why, why_size);
  if (status == SERVER_OK) status = tool__count(arguments, "offset", &offset, why, why_size);
  if (status != SERVER_OK) return status;
  if (strchr(pattern, '\n')) {
    snprintf(why, why_size, "Argument pattern must be one line");
    return SERVER_EINVAL;
  }
  tool_text_str(out, "Grep /");
  for (const char *c = pattern; *c; c++) {
    if (*c == '/' && (c == pattern || c[-1] != '\\')) tool_text_str(out, "\\");
    tool_text_add(out, c, 1);
  }
  tool_text_str(out, "/");
  if (glob) {
    tool_text_str(out, " ");
    tool_text_word(out, glob);
  }
  tool_text_count(out, offset);
  return SERVER_OK;
}

static int tool__build_body(const char *word, json_object *arguments, ToolText *out, char *why,
                            size_t why_size) {
  const char *patch;
  int status = tool__string(arguments, "patch", true, &patch, why, why_size);
  if (status != SERVER_OK) return status;
  tool_text_str(out, word);
  tool_text_str(out, "\n");
  tool_text_str(out, patch);
  return SERVER_OK;
}

static int tool__build_edit(json_object *arguments, ToolText *out, char *why, size_t why_size) {
  return tool__build_body("Edit", arguments, out, why, why_size);
}

static int tool__build_patch(json_object *arguments, ToolText *out, char *why, size_t why_size) {
  return tool__build_body("Patch", arguments, out, why, why_size);
}

/* `Update <path>` and the content as its body. */
static void tool__update_text(ToolText *out, const char *path, const char *content) {
  tool_text_str(out, "Update ");
  tool_text_word(out, path);
  tool_text_str(out, "\n");
  tool_text_str(out, content);
}

static int tool__build_update(json_object *arguments, ToolText *out, char *why, size_t why_size) {
  const char *path, *content;
  int status = tool__string(arguments, "path", true, &path, why, why_size);
  if (status == SERVER_OK) status = tool__string(arguments, "content", true, &content, why, why_size);
  if (status == SERVER_OK) tool__update_text(out, path, content);
  return status;
}

struct McpTool {
  const char *name;
  size_t feature; /* offset of its HostFeatures flag; TOOL_ALWAYS for eddi */
  const char *description;
  const char *schema; /* JSON */
  ToolBuild build;
};

#define TOOL_ALWAYS ((size_t)-1)
#define FEATURE(field) offsetof(HostFeatures, field)

static const McpTool mcp__tools[] = {
    {"eddi", TOOL_ALWAYS,
     "Run EddiSpeak editor commands, one per line: Start s, Open Create a.py, Goto 3:0, "
     "Insert Block \"x\\n\", Save, Help. One reply line per command: Ok[, facts] or "
     "Fail \"why\".",
     "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\","
     "\"description\":\"EddiSpeak commands, one per line\"}},\"required\":[\"text\"]}",
     tool__build_eddi},
    {"read", FEATURE(read),
     "Read a file as numbered rows N:TEXT under a [PATH#TAG] header, a page at a time; "
     "cite the tags when editing.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
     "\"offset\":{\"type\":\"integer\",\"minimum\":0},\"limit\":{\"type\":\"integer\","
     "\"minimum\":1}},\"required\":[\"path\"]}",
     tool__build_read},
    {"grep", FEATURE(grep),
     "Search files with a regex (PCRE2); matches grouped under [PATH#TAG] headers.",
     "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},"
     "\"glob\":{\"type\":\"string\"},\"offset\":{\"type\":\"integer\",\"minimum\":0}},"
     "\"required\":[\"pattern\"]}",
     tool__build_grep},
    {"edit", FEATURE(edit),
     "Apply a hashline patch (PUT, CUT, REM, MV against [PATH#TAG] rows from read or grep); "
     "all files checked before any is written.",
     "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\"}},"
     "\"required\":[\"patch\"]}",
     tool__build_edit},
    {"apply_patch", FEATURE(patch),
     "Apply a patch in the apply_patch format (*** Begin Patch ... *** End Patch), atomically.",
     "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\"}},"
     "\"required\":[\"patch\"]}",
     tool__build_patch},
    {"file_update", FEATURE(update),
     "Change a file with <change><original>old</original><modified>new</modified></change> "
     "blocks or SEARCH/REPLACE blocks; creates the file if missing.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
     "\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"]}",
     tool__build_update},
};

#define MCP_TOOL_COUNT (sizeof mcp__tools / sizeof mcp__tools[0])

static bool mcp__supported(const McpTool *tool, const HostFeatures *features) {
  return tool->feature == TOOL_ALWAYS || *(const bool *)((const char *)features + tool->feature);
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

bool mcp_tool_wants_session(const McpTool *self) { return self->feature != TOOL_ALWAYS; }

int mcp_tool_command(const McpTool *self, json_object *arguments, char **text, size_t *len,
                     char *why, size_t why_size) {
  if (!arguments || !json_object_is_type(arguments, json_type_object)) {
    snprintf(why, why_size, "Arguments must be an object");
    return SERVER_EINVAL;
  }
  ToolText out = {0};
  int status = self->build(arguments, &out, why, why_size);
  if (status != SERVER_OK) {
    free(out.data);
    return status;
  }
  return tool_text_finish(&out, text, len);
}

int mcp_update_command(const char *path, const char *content, char **text, size_t *len) {
  ToolText out = {0};
  tool__update_text(&out, path, content);
  return tool_text_finish(&out, text, len);
}
