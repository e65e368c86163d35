/* tool_table.c - the tools a model calls: the `eddi` text tool and the edit
 * formats as typed calls.
 *
 * Each tool is written here once: its name, the call it makes, the
 * EddiSpeak command it stands for, one description written for a model
 * (what to send and what comes back, in as few tokens as that takes) and
 * its arguments. eddi-server's MCP tools/list, the Emacs agent's tool list
 * (through eddi-module-tools) and the tests read this table; nobody keeps a
 * second copy.
 *
 * The JSON Schema of a tool is made from its arguments, once, at first use,
 * by rules that say what the descriptions need not:
 * - an argument's property has its type, then what the rules add, then its
 *   description when it has one (the name alone would mislead);
 * - an "integer" is an offset, a limit or a count: never negative
 *   ("minimum":0);
 * - an "array" holds at least one item ("minItems":1), each an object of
 *   the argument's items;
 * - a tool takes exactly its arguments ("additionalProperties":false, for
 *   array items too): the server refuses any other key, and a model that
 *   sends `path` where `file_path` is meant learns that from the schema.
 *   The text tool too: its one argument is `text`.
 * The schemas live in a static arena rather than in engine allocations:
 * they are made once for the life of the process, and leak counts taken
 * around a test must not see them.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/common.h"
#include "eddi.h"

/* ------------------------------------------------------------ the tools */

static const EddiToolArg tool__eddi_args[] = {
    {"text", "string", "EddiSpeak commands, one per line", true, NULL},
    {NULL, NULL, NULL, false, NULL},
};

static const EddiToolArg tool__read_args[] = {
    {"path", "string", NULL, true, NULL},
    {"offset", "integer", "first line, 1-based", false, NULL},
    {"limit", "integer", NULL, false, NULL},
    {NULL, NULL, NULL, false, NULL},
};

static const EddiToolArg tool__grep_args[] = {
    {"pattern", "string", NULL, true, NULL},
    {"glob", "string", "only paths matching it, e.g. src/*.c", false, NULL},
    {"offset", "integer", "matches to skip", false, NULL},
    {"ignore_case", "boolean", NULL, false, NULL},
    {NULL, NULL, NULL, false, NULL},
};

/* edit and apply_patch: the whole patch, in the format's own syntax. */
static const EddiToolArg tool__patch_args[] = {
    {"patch", "string", NULL, true, NULL},
    {NULL, NULL, NULL, false, NULL},
};

static const EddiToolArg tool__file_update_args[] = {
    {"path", "string", NULL, true, NULL},
    {"content", "string", NULL, true, NULL},
    {NULL, NULL, NULL, false, NULL},
};

/* One replacement of replace's edits[]. */
static const EddiToolArg tool__replace_edit_args[] = {
    {"old_string", "string", NULL, true, NULL},
    {"new_string", "string", NULL, true, NULL},
    {"replace_all", "boolean", NULL, false, NULL},
    {NULL, NULL, NULL, false, NULL},
};

/* One replacement (old_string, new_string) or several (edits). */
static const EddiToolArg tool__replace_args[] = {
    {"file_path", "string", NULL, true, NULL},
    {"old_string", "string", NULL, false, NULL},
    {"new_string", "string", NULL, false, NULL},
    {"replace_all", "boolean", NULL, false, NULL},
    {"edits", "array", NULL, false, tool__replace_edit_args},
    {NULL, NULL, NULL, false, NULL},
};

/* refactor and preview: the Refactor command's arguments, as data. */
static const EddiToolArg tool__refactor_args[] = {
    {"operation", "string",
     "RenameSymbol, Rename_Class, Signature, Extract_Method, InlineFunction, Inline_Variable, "
     "Move_Method, Extract_Interface, ExtractClass, Split_Class, Merge_Classes or "
     "Change_Inheritance",
     true, NULL},
    {"target", "string",
     "name, Class.method, module.func, path.py:func or path:L:C; Signature: f(old params); "
     "Extract_Method: path.py:A:B (0-based lines)",
     true, NULL},
    {"new_name", "string",
     "the new name; Signature: f(new params) (p=default, p:=value for the calls); "
     "Extract_Method: the function's; Move_Method: B.m; Extract_Interface: the Protocol's; "
     "ExtractClass/Split_Class: \"NewClass m1,m2\"; Merge_Classes: \"B Target\"; "
     "Change_Inheritance: \"[OldParent] NewParent\"; none for inlining",
     false, NULL},
    {"unsure", "boolean", "also rewrite the references listed as unsure", false, NULL},
    {"leave", "boolean", "write without the references listed as unsure", false, NULL},
    {"delegate", "boolean", "Move_Method: keep the old method, delegating to the new one", false,
     NULL},
    {"unchecked", "boolean", "write without the language servers' check of the planned texts",
     false, NULL},
    {NULL, NULL, NULL, false, NULL},
};

/* script: a whole EddiSpeak script, run as one transaction. */
static const EddiToolArg tool__script_args[] = {
    {"text", "string", "a script: { statements }", true, NULL},
    {NULL, NULL, NULL, false, NULL},
};

/* In the order MCP clients list them. .schema is made at first use. */
static EddiToolInfo tool__table[] = {
    {.name = "eddi",
     .kind = EDDI_TOOL_TEXT,
     .command = NULL, /* any: its text is EddiSpeak */
     .description =
         "Run EddiSpeak editor commands, one per line: Start s, Open Create a.py, Goto 3:0, "
         "Insert Block \"x\\n\", Save, Help. One reply line per command: Ok[, facts] or "
         "Fail \"why\".",
     .args = tool__eddi_args},
    {.name = "read",
     .kind = EDDI_CALL_READ,
     .command = "Read",
     .description =
         "Read a file: a [PATH#TAG] header, then N:TEXT rows, 200 lines a page; the footer "
         "names the next offset. Use the tag and line numbers with edit.",
     .args = tool__read_args},
    {.name = "grep",
     .kind = EDDI_CALL_GREP,
     .command = "Grep",
     .description =
         "Search files with a PCRE2 regex: matching N:TEXT rows under [PATH#TAG] headers, "
         "200 a page. A hit counts as a read: edit may use it.",
     .args = tool__grep_args},
    {.name = "edit",
     .kind = EDDI_CALL_HASHLINE,
     .command = "Edit",
     .description =
         "Hashline edit. Per file a [PATH#TAG] line (from read/grep), then ops on the line "
         "numbers you were shown: `PUT N.=M:` then +TEXT rows replaces lines N..M; `PUT <N:` / "
         "`PUT >N:` insert before/after (>$ = end); `CUT N.=M` deletes; `REM` deletes the file; "
         "`MV DEST` moves it. All files checked before any is written; the reply gives the new "
         "tag and the changed rows.",
     .args = tool__patch_args},
    {.name = "apply_patch",
     .kind = EDDI_CALL_APPLY_PATCH,
     .command = "Patch",
     .description =
         "Apply a patch: *** Begin Patch, then per file *** Add File: P (+lines), *** Delete "
         "File: P, or *** Update File: P (optional *** Move to: Q; @@ hunks of ' ', -, + "
         "lines), *** End Patch. All or nothing; context that fits twice is refused.",
     .args = tool__patch_args},
    {.name = "file_update",
     .kind = EDDI_CALL_FILE_UPDATE,
     .command = "Update",
     .description =
         "Change one file with <change><original>OLD</original><modified>NEW</modified>"
         "</change> blocks (or SEARCH/REPLACE blocks). A missing file is created with content "
         "as it is.",
     .args = tool__file_update_args},
    {.name = "replace",
     .kind = EDDI_CALL_REPLACE,
     /* EddiSpeak has no replace mode; the log and the read-only check name
      * it so. */
     .command = "Replace",
     .description =
         "Replace old_string with new_string in a file. old_string must fit one place (else "
         "refused with the candidate lines: add context or set replace_all); whitespace, "
         "indentation and quote drift are tolerated. edits[] applies several, all or nothing. "
         "Empty old_string creates a missing file.",
     .args = tool__replace_args},
    {.name = "refactor",
     .kind = EDDI_CALL_REFACTOR,
     .command = "Refactor",
     .description =
         "Refactor Python across the workspace, all files or none: rename, change a signature "
         "(every call), extract lines into a function, inline a function or variable, move a "
         "method, extract a Protocol. Refusals name the reason and place; unsure references "
         "(path:line, 0-based) are listed, left unchanged unless unsure is set. Preview first.",
     .args = tool__refactor_args},
    {.name = "preview",
     .kind = EDDI_CALL_PREVIEW,
     .command = "Preview",
     .description =
         "What refactor with the same arguments would change, writing nothing: the files it "
         "would modify, the unsure references, then the unified diff of every file.",
     .args = tool__refactor_args},
    {.name = "script",
     .kind = EDDI_TOOL_TEXT,
     .command = "{",
     .description =
         "One transaction over many files: { foreach caller of f() replace with f($1, t=3) }. "
         "Sets: caller of f, call to m.f, method in C, class implementing I, file matching "
         "\"**/*.py\", function, import [where complexity > 5 and not unused]. Actions: "
         "replace with, replace \"a\" with \"b\", flag, remove, add import m, add line, "
         "commands, refactorings (rename_class A B, extract_method($m, \"n\"), inline_variable(x)). "
         "collect changes as \"n\": apply changeset n later.",
     .args = tool__script_args},
};

#define TOOL_COUNT (sizeof tool__table / sizeof tool__table[0])

/* ------------------------------------------------------------ schemas */

/* Room for every tool's schema together (a little over 4 KB today);
 * running out is a programming error, met by the assertion at the first
 * tools/list (integration_edit_tools lists them all). */
#define TOOL_SCHEMAS_BYTES 8192
/* The longest escape of one byte in a JSON string ("\u001f") and its NUL. */
#define TOOL_JSON_ESCAPE_MAX 8

static char tool__schema_arena[TOOL_SCHEMAS_BYTES];
static pthread_once_t tool__schemas_once = PTHREAD_ONCE_INIT;

/* Appends to the arena; the text written so far stays NUL-terminated. */
typedef struct {
  char *at;
  const char *end; /* the arena's last byte, kept for the NUL */
} SchemaWriter;

static void schema__put(SchemaWriter *self, const char *text) {
  size_t len = strlen(text);
  EDDI_ASSERT(self->at <= self->end && len <= (size_t)(self->end - self->at));
  memcpy(self->at, text, len + 1);
  self->at += len;
}

static void schema__put_string(SchemaWriter *self, const char *text) {
  schema__put(self, "\"");
  for (const char *c = text; *c; c++) {
    char escaped[TOOL_JSON_ESCAPE_MAX];
    if (*c == '"' || *c == '\\')
      snprintf(escaped, sizeof escaped, "\\%c", *c);
    else if ((unsigned char)*c < 0x20)
      snprintf(escaped, sizeof escaped, "\\u%04x", (unsigned)(unsigned char)*c);
    else
      snprintf(escaped, sizeof escaped, "%c", *c);
    schema__put(self, escaped);
  }
  schema__put(self, "\"");
}

/* An argument's property: {"type":T[, what its type adds][,"description":D]}. */
static void schema__put_object(SchemaWriter *self, const EddiToolArg *args);

static void schema__put_property(SchemaWriter *self, const EddiToolArg *arg) {
  schema__put(self, "{\"type\":");
  schema__put_string(self, arg->type);
  if (strcmp(arg->type, "integer") == 0) schema__put(self, ",\"minimum\":0");
  if (strcmp(arg->type, "array") == 0) {
    EDDI_ASSERT(arg->items);
    schema__put(self, ",\"minItems\":1,\"items\":");
    schema__put_object(self, arg->items);
  }
  if (arg->description) {
    schema__put(self, ",\"description\":");
    schema__put_string(self, arg->description);
  }
  schema__put(self, "}");
}

/* {"type":"object","properties":{...}[,"required":[...]],"additionalProperties":false} */
static void schema__put_object(SchemaWriter *self, const EddiToolArg *args) {
  schema__put(self, "{\"type\":\"object\",\"properties\":{");
  for (const EddiToolArg *arg = args; arg->name; arg++) {
    if (arg != args) schema__put(self, ",");
    schema__put_string(self, arg->name);
    schema__put(self, ":");
    schema__put_property(self, arg);
  }
  schema__put(self, "}");
  bool any_required = false;
  for (const EddiToolArg *arg = args; arg->name; arg++) {
    if (!arg->required) continue;
    schema__put(self, any_required ? "," : ",\"required\":[");
    schema__put_string(self, arg->name);
    any_required = true;
  }
  if (any_required) schema__put(self, "]");
  schema__put(self, ",\"additionalProperties\":false");
  schema__put(self, "}");
}

static void tool__schemas_make(void) {
  SchemaWriter writer = {tool__schema_arena, tool__schema_arena + TOOL_SCHEMAS_BYTES - 1};
  for (size_t i = 0; i < TOOL_COUNT; i++) {
    EddiToolInfo *tool = &tool__table[i];
    tool->schema = writer.at;
    schema__put_object(&writer, tool->args);
    writer.at++; /* past the NUL that ends this schema */
  }
}

/* ------------------------------------------------------------ lookup */

size_t eddi_tool_count(void) { return TOOL_COUNT; }

const EddiToolInfo *eddi_tool_info(size_t index) {
  if (index >= TOOL_COUNT) return NULL;
  pthread_once(&tool__schemas_once, tool__schemas_make);
  return &tool__table[index];
}

const EddiToolInfo *eddi_tool_find(const char *name) {
  for (size_t i = 0; i < TOOL_COUNT; i++)
    if (strcmp(tool__table[i].name, name) == 0) return eddi_tool_info(i);
  return NULL;
}
