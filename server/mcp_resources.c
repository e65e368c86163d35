/* mcp_resources.c - see mcp_resources.h.
 *
 * The structured forms are read back from the text a model reads, by the
 * rules of that text (doc/edit-formats.org): a `[PATH#TAG]` header per
 * file, `N:TEXT` rows, and bracketed footers naming where to go on. The
 * text stays the answer; the structure is a second view of it for
 * programs, so a line the rules do not know is kept as a note rather than
 * lost or refused.
 */
#include "mcp_resources.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "eddi.h"

/* Room for one command's help line and for a refusal naming commands. */
#define MCP_HELP_MAX 1024

/* ------------------------------------------------------------ text */

/* A growing string: append, then take. Out of memory leaves ok false. */
typedef struct {
  char *text;
  size_t len, cap;
  bool ok;
} McpText;

static void text__put(McpText *self, const char *bytes, size_t len) {
  if (!self->ok) return;
  if (self->len + len + 1 > self->cap) {
    size_t cap = self->cap ? self->cap : 1024;
    while (cap < self->len + len + 1) cap *= 2;
    char *grown = realloc(self->text, cap);
    if (!grown) {
      self->ok = false;
      return;
    }
    self->text = grown, self->cap = cap;
  }
  memcpy(self->text + self->len, bytes, len);
  self->len += len;
  self->text[self->len] = '\0';
}

static void text__puts(McpText *self, const char *s) { text__put(self, s, strlen(s)); }

static char *text__take(McpText *self) {
  if (self->ok && !self->text) text__puts(self, "");
  if (self->ok) return self->text;
  free(self->text);
  return NULL;
}

/* ------------------------------------------------------------ help */

static const EddiCommandInfo *resources__command(const char *name) {
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const EddiCommandInfo *info = eddi_command_info(i);
    if (strcasecmp(info->name, name) == 0) return info;
  }
  return NULL;
}

/* The commands' names, ", "-separated, into out. */
static void resources__command_names(char *out, size_t size) {
  size_t at = 0;
  out[0] = '\0';
  for (size_t i = 0; i < eddi_command_count() && at < size; i++) {
    int n = snprintf(out + at, size - at, "%s%s", i ? ", " : "", eddi_command_info(i)->name);
    if (n < 0) break;
    at += (size_t)n;
  }
}

char *mcp_command_help(const char *name, char *why, size_t why_size) {
  const EddiCommandInfo *info = name ? resources__command(name) : NULL;
  if (!info) {
    char names[MCP_HELP_MAX];
    resources__command_names(names, sizeof names);
    snprintf(why, why_size, "Unknown command: %.64s; the commands are %s", name ? name : "",
             names);
    return NULL;
  }
  McpText text = {.ok = true};
  text__puts(&text, info->syntax);
  text__puts(&text, " - ");
  text__puts(&text, info->summary);
  return text__take(&text);
}

char *mcp_reference_text(void) {
  McpText text = {.ok = true};
  text__puts(&text,
             "# EddiSpeak\n\n"
             "eddi's command language. Send commands one per line; each command answers one "
             "line, `Ok[, facts]` or `Fail \"why\", what to do`. A failed command skips the "
             "rest of its message. Positions are `line:col`, both 0-based, columns in "
             "characters; `a:b` line ranges are inclusive. Start a session first "
             "(`Start NAME`), open files, edit, then `Save`; every edit is one undo step "
             "(`Undo`). A script `{ ... }` is one transaction over many files: all of it is "
             "written or none.\n\n"
             "## Commands\n\n"
             "`(read-only)`: a read-only sender may run it.\n\n");
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const EddiCommandInfo *info = eddi_command_info(i);
    text__puts(&text, "- `");
    text__puts(&text, info->syntax);
    text__puts(&text, "`: ");
    text__puts(&text, info->summary);
    if (info->read_only) text__puts(&text, " (read-only)");
    text__puts(&text, "\n");
  }
  text__puts(&text, "\n## Tools\n\nThe MCP tools besides `eddi`, each standing for a command:\n\n");
  for (size_t i = 0; i < eddi_tool_count(); i++) {
    const EddiToolInfo *tool = eddi_tool_info(i);
    if (!tool->command) continue;
    text__puts(&text, "- `");
    text__puts(&text, tool->name);
    text__puts(&text, "` (");
    text__puts(&text, tool->command);
    text__puts(&text, "): ");
    text__puts(&text, tool->description);
    text__puts(&text, "\n");
  }
  return text__take(&text);
}

/* ------------------------------------------------------------ resources */

/* A resource's or a template's entry: uri under key ("uri", "uriTemplate"). */
static json_object *resources__entry(const char *key, const char *uri, const char *name,
                                     const char *description, const char *mime_type) {
  json_object *entry = json_object_new_object();
  json_object_object_add(entry, key, json_object_new_string(uri));
  json_object_object_add(entry, "name", json_object_new_string(name));
  json_object_object_add(entry, "description", json_object_new_string(description));
  json_object_object_add(entry, "mimeType", json_object_new_string(mime_type));
  return entry;
}

json_object *mcp_resource_entry(const char *uri, const char *name, const char *description,
                                const char *mime_type) {
  return resources__entry("uri", uri, name, description, mime_type);
}

json_object *mcp_resources_fixed(void) {
  json_object *list = json_object_new_array();
  json_object_array_add(list, mcp_resource_entry(MCP_REFERENCE_URI, "eddispeak",
                                                 "The EddiSpeak reference: every command, "
                                                 "its syntax and what it does",
                                                 "text/markdown"));
  return list;
}

static json_object *resources__template(const char *uri, const char *name,
                                        const char *description, const char *mime_type) {
  return resources__entry("uriTemplate", uri, name, description, mime_type);
}

json_object *mcp_resource_templates(void) {
  json_object *list = json_object_new_array();
  json_object_array_add(list, resources__template(MCP_HELP_URI_PREFIX "{command}", "help",
                                                  "One EddiSpeak command's syntax and what it "
                                                  "does, as Help says it",
                                                  "text/plain"));
  json_object_array_add(list, resources__template(MCP_PREVIEW_URI_PREFIX "{n}", "preview",
                                                  "The unified diff of this server's nth "
                                                  "preview (resources/list names the kept ones)",
                                                  "text/x-diff"));
  json_object_array_add(list, resources__template(MCP_FILE_URI_PREFIX "{path}", "document",
                                                  "A document open in the stdio session, as "
                                                  "eddi holds it (unsaved edits included)",
                                                  "text/plain"));
  return list;
}

json_object *mcp_resource_contents(const char *uri, const char *mime_type, const char *text,
                                   size_t len) {
  json_object *item = json_object_new_object();
  json_object_object_add(item, "uri", json_object_new_string(uri));
  json_object_object_add(item, "mimeType", json_object_new_string(mime_type));
  json_object_object_add(item, "text", json_object_new_string_len(text, (int)len));
  json_object *contents = json_object_new_array();
  json_object_array_add(contents, item);
  json_object *result = json_object_new_object();
  json_object_object_add(result, "contents", contents);
  return result;
}

/* ------------------------------------------------------------ file URIs */

static bool resources__unreserved(unsigned char c) {
  return isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

char *mcp_file_uri(const char *root, const char *path) {
  McpText text = {.ok = true};
  text__puts(&text, MCP_FILE_URI_PREFIX);
  const char *parts[] = {root, "/", path};
  for (size_t p = 0; p < 3; p++)
    for (const unsigned char *c = (const unsigned char *)parts[p]; *c; c++) {
      char escaped[4];
      if (resources__unreserved(*c)) {
        text__put(&text, (const char *)c, 1);
        continue;
      }
      snprintf(escaped, sizeof escaped, "%%%02X", *c);
      text__puts(&text, escaped);
    }
  return text__take(&text);
}

static int resources__hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* uri percent-decoded; NULL when an escape is broken or decodes to NUL. */
static char *resources__decode(const char *uri) {
  size_t len = strlen(uri);
  char *out = malloc(len + 1), *at = out;
  if (!out) return NULL;
  for (size_t i = 0; i < len; i++) {
    if (uri[i] != '%') {
      *at++ = uri[i];
      continue;
    }
    if (i + 2 >= len || resources__hex(uri[i + 1]) < 0 || resources__hex(uri[i + 2]) < 0) {
      free(out);
      return NULL;
    }
    char byte = (char)(resources__hex(uri[i + 1]) * 16 + resources__hex(uri[i + 2]));
    if (byte == '\0') {
      free(out);
      return NULL;
    }
    *at++ = byte;
    i += 2;
  }
  *at = '\0';
  return out;
}

char *mcp_file_uri_path(const char *root, const char *uri) {
  size_t prefix = strlen(MCP_FILE_URI_PREFIX), root_len = strlen(root);
  if (strncmp(uri, MCP_FILE_URI_PREFIX, prefix) != 0) return NULL;
  char *decoded = resources__decode(uri + prefix);
  if (!decoded) return NULL;
  if (strncmp(decoded, root, root_len) != 0 || decoded[root_len] != '/' ||
      !decoded[root_len + 1]) {
    free(decoded);
    return NULL;
  }
  memmove(decoded, decoded + root_len + 1, strlen(decoded + root_len + 1) + 1);
  return decoded;
}

char *mcp_uri_decoded(const char *uri) { return resources__decode(uri); }

/* ------------------------------------------------------------ prompts */

static json_object *prompts__argument(const char *name, const char *description, bool required) {
  json_object *argument = json_object_new_object();
  json_object_object_add(argument, "name", json_object_new_string(name));
  json_object_object_add(argument, "description", json_object_new_string(description));
  json_object_object_add(argument, "required", json_object_new_boolean(required));
  return argument;
}

static json_object *prompts__entry(const char *name, const char *description,
                                   json_object *arguments) {
  json_object *entry = json_object_new_object();
  json_object_object_add(entry, "name", json_object_new_string(name));
  json_object_object_add(entry, "description", json_object_new_string(description));
  if (arguments) json_object_object_add(entry, "arguments", arguments);
  return entry;
}

json_object *mcp_prompts_list(void) {
  json_object *list = json_object_new_array();
  json_object_array_add(list, prompts__entry("eddispeak",
                                             "Teach the model EddiSpeak: every command and "
                                             "tool of eddi",
                                             NULL));
  json_object *arguments = json_object_new_array();
  json_object_array_add(arguments, prompts__argument("command", "the command, e.g. Goto", true));
  json_object_array_add(list, prompts__entry("command_help",
                                             "One EddiSpeak command's syntax and what it does",
                                             arguments));
  return list;
}

static json_object *prompts__result(const char *description, char *text) {
  json_object *content = json_object_new_object();
  json_object_object_add(content, "type", json_object_new_string("text"));
  json_object_object_add(content, "text", json_object_new_string(text));
  free(text);
  json_object *message = json_object_new_object();
  json_object_object_add(message, "role", json_object_new_string("user"));
  json_object_object_add(message, "content", content);
  json_object *messages = json_object_new_array();
  json_object_array_add(messages, message);
  json_object *result = json_object_new_object();
  json_object_object_add(result, "description", json_object_new_string(description));
  json_object_object_add(result, "messages", messages);
  return result;
}

/* The string argument key, or NULL with why. */
static const char *prompts__string_argument(json_object *arguments, const char *prompt,
                                            const char *key, char *why, size_t why_size) {
  json_object *value = NULL;
  if (!arguments || !json_object_object_get_ex(arguments, key, &value) ||
      !json_object_is_type(value, json_type_string)) {
    snprintf(why, why_size, "Prompt %s needs the string argument %s", prompt, key);
    return NULL;
  }
  return json_object_get_string(value);
}

json_object *mcp_prompt_get(const char *name, json_object *arguments, char *why,
                            size_t why_size) {
  if (arguments && !json_object_is_type(arguments, json_type_object)) {
    snprintf(why, why_size, "params.arguments must be an object of strings");
    return NULL;
  }
  if (strcmp(name, "eddispeak") == 0) {
    char *text = mcp_reference_text();
    if (!text) return snprintf(why, why_size, "Out of memory"), NULL;
    return prompts__result("The EddiSpeak reference", text);
  }
  if (strcmp(name, "command_help") == 0) {
    const char *command = prompts__string_argument(arguments, name, "command", why, why_size);
    char *help = command ? mcp_command_help(command, why, why_size) : NULL;
    if (!help) return NULL;
    McpText text = {.ok = true};
    text__puts(&text, "The EddiSpeak command ");
    text__puts(&text, resources__command(command)->name);
    text__puts(&text, ":\n");
    text__puts(&text, help);
    free(help);
    char *made = text__take(&text);
    if (!made) return snprintf(why, why_size, "Out of memory"), NULL;
    return prompts__result("Help for one EddiSpeak command", made);
  }
  snprintf(why, why_size, "Unknown prompt: %.64s; the prompts are eddispeak, command_help", name);
  return NULL;
}

/* ------------------------------------------------------------ structured output */

/* The schemas, as JSON text. A row is {line, text}; notes are the lines
 * that are neither headers nor rows (footers, warnings). */
#define MCP_ROW_SCHEMA                                                                   \
  "{\"type\":\"object\",\"properties\":{\"line\":{\"type\":\"integer\",\"minimum\":1},"   \
  "\"text\":{\"type\":\"string\"}},\"required\":[\"line\",\"text\"]}"
#define MCP_FILE_SCHEMA                                                                  \
  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"                 \
  "\"tag\":{\"type\":\"string\"},\"lines\":{\"type\":\"array\",\"items\":" MCP_ROW_SCHEMA \
  "}},\"required\":[\"path\",\"tag\",\"lines\"]}"
#define MCP_NOTES_SCHEMA "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"
#define MCP_NEXT_SCHEMA "{\"type\":[\"integer\",\"null\"]}"

static const struct {
  const char *tool;
  const char *schema;
} mcp__output_schemas[] = {
    {"read", "{\"type\":\"object\",\"properties\":{\"files\":{\"type\":\"array\",\"items\":"
             MCP_FILE_SCHEMA "},\"next_offset\":" MCP_NEXT_SCHEMA ",\"notes\":" MCP_NOTES_SCHEMA
             "},\"required\":[\"files\",\"next_offset\",\"notes\"]}"},
    {"grep", "{\"type\":\"object\",\"properties\":{\"files\":{\"type\":\"array\",\"items\":"
             MCP_FILE_SCHEMA "},\"next_offset\":" MCP_NEXT_SCHEMA ",\"notes\":" MCP_NOTES_SCHEMA
             "},\"required\":[\"files\",\"next_offset\",\"notes\"]}"},
    {"preview", "{\"type\":\"object\",\"properties\":{\"summary\":{\"type\":\"string\"},"
                "\"files\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
                "\"diff\":{\"type\":\"string\"}},\"required\":[\"summary\",\"files\",\"diff\"]}"},
};

static const char *structured__schema(const char *name) {
  for (size_t i = 0; i < sizeof mcp__output_schemas / sizeof mcp__output_schemas[0]; i++)
    if (strcmp(mcp__output_schemas[i].tool, name) == 0) return mcp__output_schemas[i].schema;
  return NULL;
}

json_object *mcp_tool_output_schema(const char *name) {
  const char *schema = structured__schema(name);
  return schema ? json_tokener_parse(schema) : NULL;
}

/* A [PATH#TAG] header: the path and tag, new strings. */
static bool structured__header(const char *line, size_t len, json_object **file) {
  if (len < 4 || line[0] != '[' || line[len - 1] != ']') return false;
  const char *hash = NULL;
  for (const char *c = line + len - 2; c > line; c--)
    if (*c == '#') {
      hash = c;
      break;
    }
  if (!hash || hash == line + 1 || hash == line + len - 2) return false;
  for (const char *c = hash + 1; c < line + len - 1; c++)
    if (!isxdigit((unsigned char)*c)) return false;
  *file = json_object_new_object();
  json_object_object_add(*file, "path",
                         json_object_new_string_len(line + 1, (int)(hash - line - 1)));
  json_object_object_add(*file, "tag",
                         json_object_new_string_len(hash + 1, (int)(line + len - 2 - hash)));
  json_object_object_add(*file, "lines", json_object_new_array());
  return true;
}

/* An N:TEXT row. */
static bool structured__row(const char *line, size_t len, json_object **row) {
  size_t digits = 0;
  while (digits < len && isdigit((unsigned char)line[digits])) digits++;
  if (digits == 0 || digits > 9 || digits >= len || line[digits] != ':') return false;
  *row = json_object_new_object();
  json_object_object_add(*row, "line", json_object_new_int(atoi(line)));
  json_object_object_add(*row, "text",
                         json_object_new_string_len(line + digits + 1, (int)(len - digits - 1)));
  return true;
}

/* The offset a footer names to go on with ("Read P 4 to continue",
 * "Grep again with offset 200"), or -1. */
static long structured__next_offset(const char *line, size_t len) {
  static const char *const markers[] = {" to continue]", "with offset "};
  char *copy = strndup(line, len);
  long next = -1;
  if (!copy) return -1;
  char *at = strstr(copy, markers[0]);
  if (at) {
    *at = '\0';
    char *space = strrchr(copy, ' ');
    if (space && isdigit((unsigned char)space[1])) next = strtol(space + 1, NULL, 10);
  } else if ((at = strstr(copy, markers[1])) && isdigit((unsigned char)at[strlen(markers[1])])) {
    next = strtol(at + strlen(markers[1]), NULL, 10);
  }
  free(copy);
  return next;
}

static json_object *structured__hashline(const char *text) {
  json_object *files = json_object_new_array(), *notes = json_object_new_array();
  json_object *file = NULL;
  long next = -1;
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    json_object *made = NULL;
    if (structured__header(line, len, &made)) {
      file = made;
      json_object_array_add(files, file);
    } else if (file && structured__row(line, len, &made)) {
      json_object *lines = NULL;
      json_object_object_get_ex(file, "lines", &lines);
      json_object_array_add(lines, made);
    } else if (len) {
      long offset = structured__next_offset(line, len);
      if (offset >= 0) next = offset;
      json_object_array_add(notes, json_object_new_string_len(line, (int)len));
    }
    line = end ? end + 1 : line + len;
  }
  json_object *result = json_object_new_object();
  json_object_object_add(result, "files", files);
  json_object_object_add(result, "next_offset", next >= 0 ? json_object_new_int64(next) : NULL);
  json_object_object_add(result, "notes", notes);
  return result;
}

/* Preview: its reply line, the files its diff changes (from the +++ b/
 * lines) and the diff. */
static json_object *structured__preview(const char *text) {
  const char *newline = strchr(text, '\n');
  size_t summary_len = newline ? (size_t)(newline - text) : strlen(text);
  const char *diff = newline ? newline + 1 : "";
  json_object *files = json_object_new_array();
  static const char plus[] = "+++ b/";
  for (const char *line = diff; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len > sizeof plus - 1 && strncmp(line, plus, sizeof plus - 1) == 0)
      json_object_array_add(files, json_object_new_string_len(line + sizeof plus - 1,
                                                              (int)(len - (sizeof plus - 1))));
    line = end ? end + 1 : line + len;
  }
  json_object *result = json_object_new_object();
  json_object_object_add(result, "summary", json_object_new_string_len(text, (int)summary_len));
  json_object_object_add(result, "files", files);
  json_object_object_add(result, "diff", json_object_new_string(diff));
  return result;
}

json_object *mcp_tool_structured(const char *name, const char *text) {
  if (strcmp(name, "preview") == 0) return structured__preview(text);
  if (strcmp(name, "read") == 0 || strcmp(name, "grep") == 0) return structured__hashline(text);
  return NULL;
}
