/* mcp_resources.h - what eddi's MCP server offers besides tools.
 *
 * Resources: the EddiSpeak reference (eddi://eddispeak), one command's help
 * (eddi://help/{command}), the documents open in the stdio session
 * (file:// URIs of their absolute paths) and the diffs of the last
 * previews (eddi://preview/{n}). Prompts: the reference, and one command's
 * help, as a user message. Structured output: the JSON form of what read,
 * grep and preview answer, beside their text.
 *
 * The reference and the help are made from the engine's command table,
 * the one Help answers from, so they cannot drift from what eddi runs.
 * Nothing here touches the engine: stdio_rpc.c asks the owner thread for
 * the documents and hands their paths and texts over.
 */
#ifndef EDDI_SERVER_MCP_RESOURCES_H
#define EDDI_SERVER_MCP_RESOURCES_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#define MCP_REFERENCE_URI "eddi://eddispeak"
#define MCP_HELP_URI_PREFIX "eddi://help/"
#define MCP_PREVIEW_URI_PREFIX "eddi://preview/"
#define MCP_FILE_URI_PREFIX "file://"

/* MCP's code for a resource that does not exist (the specification's
 * "Resource not found"). */
#define MCP_RESOURCE_NOT_FOUND -32002

/* The EddiSpeak reference: every command with its syntax and what it does,
 * as Markdown. A new string the caller frees with free(); NULL when out of
 * memory. */
char *mcp_reference_text(void);

/* One command's help ("Syntax\n\nSummary"), name as Help takes it (any
 * case). A new string, or NULL with why saying which commands exist. */
char *mcp_command_help(const char *name, char *why, size_t why_size);

/* The fixed entries of resources/list (the reference), as a new array the
 * caller adds documents and previews to. */
json_object *mcp_resources_fixed(void);
/* resources/templates/list's templates, a new array. */
json_object *mcp_resource_templates(void);
/* A resource entry {uri, name, title?, description, mimeType}: new. */
json_object *mcp_resource_entry(const char *uri, const char *name, const char *description,
                                const char *mime_type);
/* resources/read's result for one text: {"contents":[{uri, mimeType, text}]}. */
json_object *mcp_resource_contents(const char *uri, const char *mime_type, const char *text,
                                   size_t len);

/* file:// URI of root/path, its bytes outside RFC 3986's unreserved set
 * and '/' percent-encoded. A new string (free()). */
char *mcp_file_uri(const char *root, const char *path);
/* The workspace path a file:// URI names under root, decoded: a new
 * string, or NULL when the URI is not a file:// URI inside root. */
char *mcp_file_uri_path(const char *root, const char *uri);

/* uri with its %XX escapes decoded: a new string, or NULL when an escape
 * is broken or decodes to a NUL. */
char *mcp_uri_decoded(const char *uri);

/* prompts/list's prompts, a new array. */
json_object *mcp_prompts_list(void);
/* prompts/get: the prompt name with arguments (an object or NULL) as a new
 * result; NULL with why (the bad name or argument, and what is known). */
json_object *mcp_prompt_get(const char *name, json_object *arguments, char *why,
                            size_t why_size);

/* The outputSchema of the tool called name, new; NULL for a tool whose
 * answer is only text. */
json_object *mcp_tool_output_schema(const char *name);
/* The structuredContent of a successful answer text of tool name (which
 * has an output schema), new; never NULL for such a tool: lines the
 * parse does not know are kept as notes. */
json_object *mcp_tool_structured(const char *name, const char *text);

#endif
