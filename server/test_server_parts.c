/* test_server_parts.c - unit tests for the server's parts that need no
 * network: the work queue's lanes, the validator, the options, the edit
 * calls' arguments, the MCP tool list. One cmocka
 * list; ctest runs it as server_parts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit_calls.h"
#include "fail_reply.h"
#include "mcp_tools.h"
#include "options.h"
#include "server_error.h"
#include "validator.h"
#include "work_queue.h"

/* ---------------------------------------------------------- work queue */

static void noop_run(WorkItem *self, void *context) {}

static WorkItem item_of(const char *lane) { return (WorkItem){.lane = lane, .run = noop_run}; }

/* Lanes take turns: a sender with many queued items delays another by at
 * most one item; a lane keeps its own order. */
static void test_queue_lanes_take_turns(void **state) {
  WorkQueue queue;
  assert_int_equal(work_queue_init(&queue, 8), SERVER_OK);
  WorkItem a1 = item_of("a"), a2 = item_of("a"), a3 = item_of("a"), b1 = item_of("b"),
           b2 = item_of("b"), c1 = item_of("c");
  WorkItem *pushed[] = {&a1, &a2, &a3, &b1, &b2, &c1};
  for (size_t i = 0; i < 6; i++) assert_int_equal(work_queue_push(&queue, pushed[i]), SERVER_OK);
  WorkItem *expected[] = {&a1, &b1, &c1, &a2, &b2, &a3};
  for (size_t i = 0; i < 6; i++) assert_ptr_equal(work_queue_pop(&queue), expected[i]);
  assert_int_equal(work_queue_length(&queue), 0);
  work_queue_destroy(&queue);
}

static void test_queue_full_then_closed(void **state) {
  WorkQueue queue;
  assert_int_equal(work_queue_init(&queue, 2), SERVER_OK);
  WorkItem x = item_of("x"), y = item_of("y"), z = item_of("z");
  assert_int_equal(work_queue_push(&queue, &x), SERVER_OK);
  assert_int_equal(work_queue_push(&queue, &y), SERVER_OK);
  assert_int_equal(work_queue_push(&queue, &z), SERVER_EBUSY);
  work_queue_close(&queue);
  assert_int_equal(work_queue_push(&queue, &z), SERVER_ECLOSED);
  /* Closing drains: what was queued still comes out, then NULL. */
  assert_ptr_equal(work_queue_pop(&queue), &x);
  assert_ptr_equal(work_queue_pop(&queue), &y);
  assert_null(work_queue_pop(&queue));
  work_queue_destroy(&queue);
}

/* ----------------------------------------------------------- validator */

static void test_utf8(void **state) {
  assert_true(validator_utf8_valid("plain", 5));
  assert_true(validator_utf8_valid("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
  assert_false(validator_utf8_valid("\xff", 1));
  assert_false(validator_utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
  assert_false(validator_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
  assert_false(validator_utf8_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
  assert_false(validator_utf8_valid("\xe2\x82", 2));         /* cut short */
}

static ServerOptions options_with(const char *allow, const char *read_only) {
  ServerOptions options;
  memset(&options, 0, sizeof options);
  options.max_message_bytes = 8;
  static char *allowed[1], *readers[1];
  allowed[0] = (char *)allow;
  readers[0] = (char *)read_only;
  options.allow = (StringList){allowed, allow ? 1 : 0};
  options.read_only = (StringList){readers, read_only ? 1 : 0};
  return options;
}

static void test_check_bytes(void **state) {
  ServerOptions options = options_with(NULL, NULL);
  char why[FAIL_REPLY_MAX];
  assert_int_equal(validator_check_bytes(&options, "12345678", 8, why, sizeof why), SERVER_OK);
  assert_int_equal(validator_check_bytes(&options, "123456789", 9, why, sizeof why), SERVER_EINVAL);
  assert_string_equal(why, "Fail \"Message too large: 9 bytes, limit 8\"");
}

static void test_read_only_sender(void **state) {
  ServerOptions options = options_with("ann", "rita");
  char why[FAIL_REPLY_MAX];
  const char *reading = "Start r\n# a comment\n\n  Open a.txt\nGoto 3:0\nRead a.txt";
  assert_int_equal(validator_check_sender(&options, "rita", reading, strlen(reading), why, sizeof why),
                   SERVER_OK);
  const char *creating = "Start r\nopen create b.txt";
  assert_int_equal(validator_check_sender(&options, "rita", creating, strlen(creating), why, sizeof why),
                   SERVER_EINVAL);
  assert_string_equal(why, "Fail \"Sender rita may only read, not run Open Create\"");
  assert_int_equal(validator_check_sender(&options, "ann", creating, strlen(creating), why, sizeof why),
                   SERVER_OK);
  assert_int_equal(validator_check_sender(&options, "eve", "Status", 6, why, sizeof why), SERVER_EINVAL);
  assert_string_equal(why, "Fail \"Sender eve is not allowed\"");
}

static void test_parse_json(void **state) {
  json_object *object = NULL;
  char why[FAIL_REPLY_MAX];
  const char *good = " {\"text\": \"Status\"} \n";
  assert_int_equal(validator_parse_json(good, strlen(good), &object, why, sizeof why), SERVER_OK);
  json_object_put(object);
  const char *trailing = "{} {}";
  assert_int_equal(validator_parse_json(trailing, strlen(trailing), &object, why, sizeof why),
                   SERVER_EINVAL);
  assert_string_equal(why, "Fail \"Invalid JSON: text after the object\"");
  assert_int_equal(validator_parse_json("[1]", 3, &object, why, sizeof why), SERVER_EINVAL);
  assert_string_equal(why, "Fail \"Invalid JSON: expected an object\"");
}

static void test_fail_reply_escapes(void **state) {
  char out[FAIL_REPLY_MAX];
  fail_reply_format(out, sizeof out, "say \"%s\"\n", "a\\b");
  assert_string_equal(out, "Fail \"say \\\"a\\\\b\\\"\\n\"");
}

/* ------------------------------------------------------------- options */

static void test_options_config_file(void **state) {
  char path[] = "/tmp/eddi-options-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  const char *text = "# settings\nname build-7\nmax-queue 16\nallow ann\nallow bob\nquiet\n";
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  char *argv[] = {"eddi-server", "--config", path, "--max-queue", "32", "--allow", "cy", NULL};
  ServerOptions options;
  bool help = false;
  char error[256] = "";
  assert_int_equal(options_parse(&options, 7, argv, &help, error, sizeof error), SERVER_OK);
  assert_string_equal(options.name, "build-7");
  assert_int_equal(options.max_queue, 32);
  assert_int_equal(options.allow.count, 3);
  assert_true(options.quiet);
  assert_true(options_sender_allowed(&options, "bob"));
  assert_false(options_sender_allowed(&options, "eve"));
  options_free(&options);
  unlink(path);
}

static void test_options_refused(void **state) {
  ServerOptions options;
  bool help = false;
  char error[256] = "";
  char *bad_name[] = {"eddi-server", "--name", "a.b", NULL};
  assert_int_equal(options_parse(&options, 3, bad_name, &help, error, sizeof error), SERVER_EINVAL);
  assert_string_equal(error, "--name must be 1-64 letters, digits, '-' or '_'");
  options_free(&options);
  char *two_auths[] = {"eddi-server", "--token", "t", "--creds", "f", NULL};
  assert_int_equal(options_parse(&options, 5, two_auths, &help, error, sizeof error), SERVER_EINVAL);
  assert_string_equal(error, "give one of --creds, --token, --user/--password");
  options_free(&options);
  char *zero[] = {"eddi-server", "--max-queue", "0", NULL};
  assert_int_equal(options_parse(&options, 3, zero, &help, error, sizeof error), SERVER_EINVAL);
  assert_string_equal(error, "--max-queue wants a positive number, not '0'");
  options_free(&options);
}

/* ---------------------------------------------------------- edit calls */

/* Parse args (JSON text) as kind; returns the status, why in why. */
static int parse_call(EditCallKind kind, const char *args, const char *also_known,
                      size_t max_bytes, EditCall **call, char *why, size_t why_size) {
  json_object *object = json_tokener_parse(args);
  why[0] = '\0';
  int status = edit_call_parse(kind, object, also_known, max_bytes, call, why, why_size);
  json_object_put(object);
  return status;
}

static void expect_refused(EditCallKind kind, const char *args, const char *why_expected) {
  EditCall *call = (EditCall *)1;
  char why[256];
  assert_int_equal(parse_call(kind, args, NULL, 10, &call, why, sizeof why), SERVER_EINVAL);
  assert_null(call);
  assert_string_equal(why, why_expected);
}

static void test_edit_call_replace_forms(void **state) {
  EditCall *call = NULL;
  char why[256];
  assert_int_equal(parse_call(EDIT_CALL_REPLACE,
                              "{\"file_path\":\"a.py\",\"old_string\":\"x\",\"new_string\":\"y\","
                              "\"replace_all\":true,\"sender\":\"s\"}",
                              "sender", 1000, &call, why, sizeof why),
                   SERVER_OK);
  assert_string_equal(call->path, "a.py");
  assert_int_equal(call->edit_count, 1);
  assert_string_equal(call->edits[0].old_string, "x");
  assert_true(call->edits[0].replace_all);
  edit_call_free(call);

  assert_int_equal(parse_call(EDIT_CALL_REPLACE,
                              "{\"file_path\":\"a.py\",\"edits\":[{\"old_string\":\"a\",\"new_string\":"
                              "\"b\"},{\"old_string\":\"c\",\"new_string\":\"\"}]}",
                              NULL, 1000, &call, why, sizeof why),
                   SERVER_OK);
  assert_int_equal(call->edit_count, 2);
  assert_int_equal(call->edits[1].new_len, 0);
  assert_false(call->edits[1].replace_all);
  edit_call_free(call);
}

/* Refusals name the argument and say what is expected. */
static void test_edit_call_refusals(void **state) {
  expect_refused(EDIT_CALL_REPLACE, "{\"path\":\"a\",\"old_string\":\"x\",\"new_string\":\"y\"}",
                 "Unknown argument path; this call takes: file_path old_string new_string "
                 "replace_all edits");
  expect_refused(EDIT_CALL_REPLACE,
                 "{\"file_path\":\"a\",\"old_string\":\"x\",\"new_string\":\"y\",\"edits\":[]}",
                 "Give old_string and new_string, or edits[], not both");
  expect_refused(EDIT_CALL_REPLACE, "{\"file_path\":\"a\",\"edits\":[]}",
                 "Argument edits must be a non-empty array of {old_string, new_string}");
  expect_refused(EDIT_CALL_REPLACE, "{\"file_path\":\"a\",\"edits\":[1]}",
                 "edits[0] must be an object");
  expect_refused(EDIT_CALL_REPLACE,
                 "{\"file_path\":\"a\",\"edits\":[{\"old\":\"x\",\"new_string\":\"y\"}]}",
                 "Unknown argument in edits: old; an edit takes: old_string new_string replace_all");
  expect_refused(EDIT_CALL_REPLACE,
                 "{\"file_path\":\"a\",\"old_string\":\"x\",\"new_string\":\"y\",\"replace_all\":1}",
                 "Argument replace_all must be true or false");
  expect_refused(EDIT_CALL_READ, "{\"path\":\"a\",\"offset\":-1}",
                 "Argument offset must be a whole number >= 0");
  expect_refused(EDIT_CALL_READ, "{\"path\":7}", "Argument path must be a string");
  expect_refused(EDIT_CALL_HASHLINE, "{}", "Missing argument: patch");
  expect_refused(EDIT_CALL_APPLY_PATCH, "{\"patch\":\"a\\u0000b\"}",
                 "Argument patch contains a NUL byte");
  expect_refused(EDIT_CALL_GREP, "[]", "Arguments must be an object");
  expect_refused(EDIT_CALL_FILE_UPDATE, "{\"path\":\"a\",\"content\":\"0123456789\"}",
                 "Arguments too large: more than 10 bytes");
}

/* ----------------------------------------------------------- MCP tools */

static const HostFeatures every_feature = {
    .read = true, .grep = true, .edit = true, .patch = true, .update = true};

/* The names tools/list shows with features, joined by spaces. */
static void expect_tool_names(const HostFeatures *features, const char *expected) {
  json_object *tools = mcp_tools_list(features);
  char names[256] = "";
  for (size_t i = 0; i < json_object_array_length(tools); i++) {
    json_object *name = NULL;
    assert_true(json_object_object_get_ex(json_object_array_get_idx(tools, i), "name", &name));
    if (i) strcat(names, " ");
    strcat(names, json_object_get_string(name));
  }
  assert_string_equal(names, expected);
  json_object_put(tools);
}

/* tools/list is the engine's table as it is: each entry's description and
 * schema are the table's, the schema written out as the table has it. */
static void test_mcp_tools_are_the_table(void **state) {
  json_object *tools = mcp_tools_list(&every_feature);
  assert_int_equal(json_object_array_length(tools), eddi_tool_count());
  for (size_t i = 0; i < eddi_tool_count(); i++) {
    const EddiToolInfo *info = eddi_tool_info(i);
    json_object *entry = json_object_array_get_idx(tools, i), *member = NULL;
    assert_int_equal(json_object_object_length(entry), 3);
    assert_true(json_object_object_get_ex(entry, "name", &member));
    assert_string_equal(json_object_get_string(member), info->name);
    assert_true(json_object_object_get_ex(entry, "description", &member));
    assert_string_equal(json_object_get_string(member), info->description);
    assert_true(json_object_object_get_ex(entry, "inputSchema", &member));
    assert_string_equal(json_object_to_json_string_ext(
                            member, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
                        info->schema);
  }
  json_object_put(tools);
}

/* A tool is offered only when the engine has its format; `eddi` always. */
static void test_mcp_tools_follow_features(void **state) {
  expect_tool_names(&every_feature, "eddi read grep edit apply_patch file_update replace");
  expect_tool_names(&(HostFeatures){0}, "eddi");
  expect_tool_names(&(HostFeatures){.read = true, .grep = true}, "eddi read grep");
  expect_tool_names(&(HostFeatures){.patch = true, .update = true},
                    "eddi apply_patch file_update replace");
  assert_null(mcp_tools_find(&(HostFeatures){0}, "read"));
  assert_null(mcp_tools_find(&every_feature, "Read"));
  assert_null(mcp_tools_find(&every_feature, "eval_sexp"));
  const McpTool *eddi = mcp_tools_find(&(HostFeatures){0}, "eddi");
  assert_non_null(eddi);
  assert_true(mcp_tool_is_eddispeak(eddi));
  const McpTool *replace = mcp_tools_find(&every_feature, "replace");
  assert_non_null(replace);
  assert_false(mcp_tool_is_eddispeak(replace));
  assert_int_equal(mcp_tool_kind(replace), EDIT_CALL_REPLACE);
  assert_int_equal(mcp_tool_kind(mcp_tools_find(&every_feature, "edit")), EDIT_CALL_HASHLINE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_queue_lanes_take_turns),
      cmocka_unit_test(test_queue_full_then_closed),
      cmocka_unit_test(test_utf8),
      cmocka_unit_test(test_check_bytes),
      cmocka_unit_test(test_read_only_sender),
      cmocka_unit_test(test_parse_json),
      cmocka_unit_test(test_fail_reply_escapes),
      cmocka_unit_test(test_options_config_file),
      cmocka_unit_test(test_options_refused),
      cmocka_unit_test(test_edit_call_replace_forms),
      cmocka_unit_test(test_edit_call_refusals),
      cmocka_unit_test(test_mcp_tools_are_the_table),
      cmocka_unit_test(test_mcp_tools_follow_features),
  };
  return cmocka_run_group_tests_name("server_parts", tests, NULL, NULL);
}
