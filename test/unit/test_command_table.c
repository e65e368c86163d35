/* test_command_table.c - the command and tool table of eddi.h.
 *
 * The table is the one description of every command and tool: Help, the
 * read-only check, MCP's tools/list and the Emacs agent read it. These
 * tests hold it to what those readers rely on: each schema is JSON naming
 * exactly its tool's arguments, the schemas MCP clients know stay byte for
 * byte, lookups work, and the read-only flags are the list the server
 * checked before the flags existed. */
#include "unit_support.h"

#include <json-c/json.h>

#include "eddi.h"
#include "session/command_table.h" /* eddi_command_line_reads_only */

/* ---------------------------------------------------------------- tools */

/* The args of a NULL-terminated list, counted. */
static size_t arg_count(const EddiToolArg *args) {
  size_t count = 0;
  while (args[count].name) count++;
  return count;
}

/* schema (an object schema) names exactly args, in order, as properties;
 * its required list is exactly the required args; array items recurse. */
static void assert_object_names_args(json_object *schema, const EddiToolArg *args,
                                     const char *tool) {
  json_object *type = NULL, *properties = NULL, *required = NULL;
  assert_true(json_object_object_get_ex(schema, "type", &type));
  assert_string_equal(json_object_get_string(type), "object");
  assert_true(json_object_object_get_ex(schema, "properties", &properties));
  assert_int_equal(json_object_object_length(properties), arg_count(args));
  size_t index = 0;
  json_object_object_foreach(properties, name, property) {
    const EddiToolArg *arg = &args[index++];
    if (strcmp(name, arg->name) != 0) fail_msg("%s: property %s, arg %s", tool, name, arg->name);
    json_object *property_type = NULL;
    assert_true(json_object_object_get_ex(property, "type", &property_type));
    assert_string_equal(json_object_get_string(property_type), arg->type);
    json_object *description = NULL;
    bool described = json_object_object_get_ex(property, "description", &description);
    assert_int_equal(described, arg->description != NULL);
    if (described) assert_string_equal(json_object_get_string(description), arg->description);
    json_object *items = NULL;
    assert_int_equal(json_object_object_get_ex(property, "items", &items), arg->items != NULL);
    if (arg->items) assert_object_names_args(items, arg->items, tool);
  }
  size_t required_count = 0;
  for (const EddiToolArg *arg = args; arg->name; arg++) required_count += arg->required;
  bool has_required = json_object_object_get_ex(schema, "required", &required);
  assert_int_equal(has_required, required_count > 0);
  if (!has_required) return;
  assert_int_equal(json_object_array_length(required), required_count);
  size_t at = 0;
  for (const EddiToolArg *arg = args; arg->name; arg++)
    if (arg->required)
      assert_string_equal(json_object_get_string(json_object_array_get_idx(required, at++)),
                          arg->name);
}

static void test_tool_schemas_are_json_of_their_args(void **state) {
  (void)state;
  assert_true(eddi_tool_count() > 0);
  for (size_t i = 0; i < eddi_tool_count(); i++) {
    const EddiToolInfo *tool = eddi_tool_info(i);
    assert_non_null(tool);
    assert_non_null(tool->description);
    assert_non_null(tool->schema);
    json_tokener *tokener = json_tokener_new();
    json_object *schema = json_tokener_parse_ex(tokener, tool->schema, (int)strlen(tool->schema));
    if (!schema || json_tokener_get_error(tokener) != json_tokener_success)
      fail_msg("%s: schema is not JSON: %s", tool->name, tool->schema);
    /* The whole string is the one object. */
    assert_int_equal(json_tokener_get_parse_end(tokener), strlen(tool->schema));
    json_tokener_free(tokener);
    assert_object_names_args(schema, tool->args, tool->name);
    json_object_put(schema);
  }
  assert_null(eddi_tool_info(eddi_tool_count()));
}

/* refactor's and preview's: the Refactor command's arguments. */
#define REFACTOR_SCHEMA                                                                         \
  "{\"type\":\"object\",\"properties\":{\"operation\":{\"type\":\"string\",\"description\":"   \
  "\"RenameSymbol, Rename_Class, Signature, Extract_Method, InlineFunction, Inline_Variable, "     \
  "Move_Method, Extract_Interface, ExtractClass, Split_Class, Merge_Classes or "               \
  "Change_Inheritance\"},\"target\":{\"type\":\"string\",\"description\":\"name, "             \
  "Class.method, module.func, path.py:func or path:L:C; Signature: f(old params); "              \
  "Extract_Method: path.py:A:B (0-based lines)\"},\"new_name\":{\"type\":\"string\","              \
  "\"description\":\"the new name; Signature: f(new params) (p=default, p:=value for the "        \
  "calls); Extract_Method: the function's; Move_Method: B.m; Extract_Interface: the Protocol's; " \
  "ExtractClass/Split_Class: \\\"NewClass m1,m2\\\"; Merge_Classes: \\\"B Target\\\"; "           \
  "Change_Inheritance: \\\"[OldParent] NewParent\\\"; none for inlining\"},"                    \
  "\"unsure\":{\"type\":\"boolean\",\"description\":\"also rewrite the "                        \
  "references listed as unsure\"},\"leave\":{\"type\":\"boolean\",\"description\":"             \
  "\"write without the references listed as unsure\"},\"delegate\":{\"type\":\"boolean\","       \
  "\"description\":\"Move_Method: keep the old method, delegating to the new one\"},"           \
  "\"unchecked\":{\"type\":\"boolean\",\"description\":\"write without the language "       \
  "servers' check of the planned texts\"}},"                                                     \
  "\"required\":[\"operation\",\"target\"],"                       \
  "\"additionalProperties\":false}"

/* The schemas exactly as MCP clients and the integration tests know them. */
static void test_tool_schemas_stay_as_published(void **state) {
  (void)state;
  static const struct {
    const char *name, *schema;
  } published[] = {
      {"eddi", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\","
               "\"description\":\"EddiSpeak commands, one per line\"}},\"required\":[\"text\"],"
               "\"additionalProperties\":false}"},
      {"read", "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
               "\"offset\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"first line, "
               "1-based\"},\"limit\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"path\"],"
               "\"additionalProperties\":false}"},
      {"grep", "{\"type\":\"object\",\"properties\":{\"pattern\":{\"type\":\"string\"},"
               "\"glob\":{\"type\":\"string\",\"description\":\"only paths matching it, e.g. "
               "src/*.c\"},\"offset\":{\"type\":\"integer\",\"minimum\":0,\"description\":"
               "\"matches to skip\"},\"ignore_case\":{\"type\":\"boolean\"}},\"required\":"
               "[\"pattern\"],\"additionalProperties\":false}"},
      {"edit", "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\"}},"
               "\"required\":[\"patch\"],\"additionalProperties\":false}"},
      {"apply_patch", "{\"type\":\"object\",\"properties\":{\"patch\":{\"type\":\"string\"}},"
                      "\"required\":[\"patch\"],\"additionalProperties\":false}"},
      {"file_update", "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
                      "\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"],"
                      "\"additionalProperties\":false}"},
      {"replace",
       "{\"type\":\"object\",\"properties\":{\"file_path\":{\"type\":\"string\"},"
       "\"old_string\":{\"type\":\"string\"},\"new_string\":{\"type\":\"string\"},"
       "\"replace_all\":{\"type\":\"boolean\"},\"edits\":{\"type\":\"array\",\"minItems\":1,"
       "\"items\":{\"type\":\"object\",\"properties\":{\"old_string\":{\"type\":\"string\"},"
       "\"new_string\":{\"type\":\"string\"},\"replace_all\":{\"type\":\"boolean\"}},"
       "\"required\":[\"old_string\",\"new_string\"],\"additionalProperties\":false}}},"
       "\"required\":[\"file_path\"],\"additionalProperties\":false}"},
      {"refactor", REFACTOR_SCHEMA},
      {"preview", REFACTOR_SCHEMA},
      {"script", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\","
                 "\"description\":\"a script: { statements }\"}},\"required\":[\"text\"],"
                 "\"additionalProperties\":false}"},
  };
  size_t count = sizeof published / sizeof published[0];
  assert_int_equal(eddi_tool_count(), count);
  for (size_t i = 0; i < count; i++) {
    const EddiToolInfo *tool = eddi_tool_info(i);
    assert_string_equal(tool->name, published[i].name);
    assert_string_equal(tool->schema, published[i].schema);
  }
}

static void test_tool_find(void **state) {
  (void)state;
  for (size_t i = 0; i < eddi_tool_count(); i++)
    assert_ptr_equal(eddi_tool_find(eddi_tool_info(i)->name), eddi_tool_info(i));
  const EddiToolInfo *patch = eddi_tool_find("apply_patch");
  assert_non_null(patch);
  assert_int_equal(patch->kind, EDDI_CALL_APPLY_PATCH);
  assert_string_equal(patch->command, "Patch");
  const EddiToolInfo *eddi = eddi_tool_find("eddi");
  assert_int_equal(eddi->kind, EDDI_TOOL_TEXT);
  assert_null(eddi->command);
  assert_non_null(eddi->schema);
  /* Tool names are exact, as MCP's are. */
  assert_null(eddi_tool_find("Read"));
  assert_null(eddi_tool_find("patch"));
  assert_null(eddi_tool_find(""));
}

/* Every tool's command is one the engine has: a front end may offer a tool
 * only where `Help <command>` answers Ok. */
static void test_tool_commands_exist(void **state) {
  (void)state;
  for (size_t i = 0; i < eddi_tool_count(); i++) {
    const EddiToolInfo *tool = eddi_tool_info(i);
    if (!tool->command) continue;
    bool found = false;
    for (size_t c = 0; c < eddi_command_count() && !found; c++)
      found = strcmp(eddi_command_info(c)->name, tool->command) == 0;
    if (!found) fail_msg("%s stands for %s, which is no command", tool->name, tool->command);
  }
}

/* ---------------------------------------------------------------- commands */

/* The read-only list the server kept before the flags (Count is no
 * command), and the read-only commands added since (Preview, Flags, and
 * Set: a session's own preference, which a read-only sender's client such
 * as the sandbox's sets first). */
static const char *const old_read_only_words[] = {
    "Start", "End", "Status", "Summary", "Help", "Open", "Close", "List",
    "Goto",  "Find", "Show", "Read",   "Grep", "Diff", "Bookmark", "Count",
    "Preview", "Flags", "Set",
};
#define OLD_READ_ONLY_COUNT (sizeof old_read_only_words / sizeof old_read_only_words[0])

static bool old_list_has(const char *name) {
  for (size_t i = 0; i < OLD_READ_ONLY_COUNT; i++)
    if (strcmp(old_read_only_words[i], name) == 0) return true;
  return false;
}

static void test_read_only_flags_match_the_old_list(void **state) {
  (void)state;
  size_t read_only = 0;
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const EddiCommandInfo *info = eddi_command_info(i);
    if (info->read_only != old_list_has(info->name))
      fail_msg("%s: read_only is %d", info->name, info->read_only);
    read_only += info->read_only;
  }
  assert_int_equal(read_only, OLD_READ_ONLY_COUNT - 1); /* all but Count */
  assert_null(eddi_command_info(eddi_command_count()));
}

static void test_takes_body_flags(void **state) {
  (void)state;
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const EddiCommandInfo *info = eddi_command_info(i);
    bool body = strcmp(info->name, "Edit") == 0 || strcmp(info->name, "Patch") == 0 ||
                strcmp(info->name, "Update") == 0 ||
                strcmp(info->name, "{") == 0; /* a script runs to the message's end */
    if (info->takes_body != body) fail_msg("%s: takes_body is %d", info->name, info->takes_body);
  }
}

typedef struct {
  const char *line;
  bool reads_only;
  const char *word; /* as a refusal names it */
} ReadOnlyCase;

static bool visit_first(const EddiCommandLine *line, void *closure) {
  *(EddiCommandLine *)closure = *line;
  return false;
}

static void test_command_line_reads_only(void **state) {
  (void)state;
  static const ReadOnlyCase cases[] = {
      {"Open a.txt", true, "Open"},
      {"open   notes.txt", true, "open"},
      {"Open Create a.txt", false, "Open Create"},
      {"OPEN create", false, "Open Create"},
      {"Open Created.txt", true, "Open"},
      {"Count", true, "Count"},
      {"Help Patch", true, "Help"},
      {"Read a.txt 1 10", true, "Read"},
      {"Patch", false, "Patch"},
      {"Save", false, "Save"},
      {"Replace \"a\" \"b\"", false, "Replace"},
      {"Opne a.txt", false, "Opne"},
      {"Refactor x", false, "Refactor"},
      /* A script is judged by its statements, and named by the first that
       * writes; one that does not parse reads (it fails before it runs). */
      {"{ foreach function flag \"f\" }", true, "{"},
      {"foreach function where unused { flag \"x\" }", true, "foreach"},
      {"{ foreach function { flag \"f\" } foreach import remove }", false, "remove"},
      {"{ foreach file matching \"*.py\" replace \"a\" with \"b\" }", false, "replace"},
      {"{ rename_class A B }", false, "Refactor Rename_Class"},
      {"{ foreach function Save }", false, "Save"},
      {"{ apply changeset c }", false, "apply changeset"},
      {"{ preview changeset c }", true, "{"},
      {"{ foreach", true, "{"},
      {"Averyveryveryveryveryverylongwordthatisnocommand", false,
       "Averyveryveryveryveryverylongwo"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    EddiCommandLine line = {0};
    eddi_each_command(cases[i].line, strlen(cases[i].line), visit_first, &line);
    char word[32];
    bool reads = eddi_command_line_reads_only(&line, word, sizeof word);
    if (reads != cases[i].reads_only) fail_msg("%s: reads_only %d", cases[i].line, reads);
    assert_string_equal(word, cases[i].word);
  }
  /* Every read-only command of the table passes, by any case. */
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const EddiCommandInfo *info = eddi_command_info(i);
    EddiCommandLine line = {0};
    eddi_each_command(info->name, strlen(info->name), visit_first, &line);
    char word[32];
    bool reads = eddi_command_line_reads_only(&line, word, sizeof word);
    /* A script's word alone does not parse: it reads (and fails). */
    assert_int_equal(reads, info->read_only || info->script);
  }
}

/* Each command of a message, as its text and whether a block it opened is
 * still open at the message's end. */
typedef struct {
  char texts[4][128];
  bool open[4];
  size_t count;
} MessageCommands;

static bool visit_each(const EddiCommandLine *line, void *closure) {
  MessageCommands *seen = closure;
  if (seen->count == 4) return false;
  snprintf(seen->texts[seen->count], sizeof seen->texts[0], "%.*s", (int)line->len, line->line);
  seen->open[seen->count++] = line->block_open;
  return true;
}

/* A script statement whose block opens on its line and closes on a later
 * one is one command; braces in strings and on '#' lines do not count, nor
 * those of commands that are no script or of a body. */
static void test_blocks_across_lines(void **state) {
  (void)state;
  static const struct {
    const char *message;
    size_t count;
    const char *first, *second;
    bool first_open, message_open;
  } cases[] = {
      {"foreach function {\n  flag \"}\"\n}\nStatus", 2, "foreach function {\n  flag \"}\"\n}",
       "Status", false, false},
      {"if contains \"\\\"{\" {\n  # {\n  flag \"x\" }\n\nStatus", 2,
       "if contains \"\\\"{\" {\n  # {\n  flag \"x\" }", "Status", false, false},
      {"foreach function {\n  # }\n  flag \"x\"", 1, "foreach function {\n  # }\n  flag \"x\"", NULL,
       true, true},
      {"{\n foreach function { flag \"x\" }\n}", 1, "{", NULL, false, false},
      {"{\n foreach function {", 1, "{", NULL, true, true},
      {"Find /a{2/\nStatus", 2, "Find /a{2/", "Status", false, false},
      {"Patch\n*** Begin Patch\n{", 1, "Patch", NULL, false, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    MessageCommands seen = {0};
    size_t len = strlen(cases[i].message);
    eddi_each_command(cases[i].message, len, visit_each, &seen);
    if (seen.count != cases[i].count) fail_msg("%s: %zu commands", cases[i].message, seen.count);
    assert_string_equal(seen.texts[0], cases[i].first);
    if (cases[i].second) assert_string_equal(seen.texts[1], cases[i].second);
    assert_int_equal(seen.open[0], cases[i].first_open);
    assert_int_equal(eddi_message_open_block(cases[i].message, len), cases[i].message_open);
  }
  /* Such a command is judged whole by the read-only check. */
  EddiCommandLine line = {0};
  static const char writes[] = "foreach function {\n  remove\n}";
  eddi_each_command(writes, sizeof writes - 1, visit_first, &line);
  char word[32];
  assert_false(eddi_command_line_reads_only(&line, word, sizeof word));
  assert_string_equal(word, "remove");
}

/* Help answers from the same table: its list is the table's names, and
 * each command's line is its syntax and summary. */
static void test_help_reads_the_table(void **state) {
  (void)state;
  char root[PATH_MAX];
  unit_workspace_new(root);
  long live = unit_live();
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  char expected[4096] = "Ok: ";
  for (size_t i = 0; i < eddi_command_count(); i++) {
    if (i) strcat(expected, ", ");
    strcat(expected, eddi_command_info(i)->name);
  }
  char *reply = eddi_exec(engine, "cli", "Help", 4);
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
  for (size_t i = 0; i < eddi_command_count(); i++) {
    const EddiCommandInfo *info = eddi_command_info(i);
    char message[64];
    snprintf(message, sizeof message, "Help %s", info->name);
    snprintf(expected, sizeof expected, "Ok: %s - %s", info->syntax, info->summary);
    reply = eddi_exec(engine, "cli", message, strlen(message));
    assert_string_equal(reply, expected);
    eddi_string_free(reply);
  }
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  unit_remove_tree(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tool_schemas_are_json_of_their_args),
      cmocka_unit_test(test_tool_schemas_stay_as_published),
      cmocka_unit_test(test_tool_find),
      cmocka_unit_test(test_tool_commands_exist),
      cmocka_unit_test(test_read_only_flags_match_the_old_list),
      cmocka_unit_test(test_takes_body_flags),
      cmocka_unit_test(test_command_line_reads_only),
      cmocka_unit_test(test_blocks_across_lines),
      cmocka_unit_test(test_help_reads_the_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
