/* test_engine.c - the engine's entry point (eddi.h), over a scratch workspace.
 *
 * Only eddi.h's API is used (common.h just for the allocation count): these
 * are the checks every front end relies on before any command runs. */
#include "unit_support.h"

#include "eddi.h"
#include "core/utf8.h"

typedef struct {
  char root[PATH_MAX];
} Workspace;

static int workspace_setup(void **state) {
  Workspace *ws = calloc(1, sizeof *ws);
  unit_workspace_new(ws->root);
  char path[PATH_MAX];
  unit_path(path, ws->root, "notes.txt");
  unit_write_file(path, "one\ntwo\n", 8);
  *state = ws;
  return 0;
}

static int workspace_teardown(void **state) {
  Workspace *ws = *state;
  unit_remove_tree(ws->root);
  free(ws);
  return 0;
}

static EddiEngine *engine_new(const Workspace *ws, const EddiConfig *config) {
  char error[256] = "";
  EddiEngine *engine = eddi_engine_new(ws->root, config, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  return engine;
}

/* sender's message (len bytes) gets exactly the reply expected (replies
 * joined by '\n'). */
static void exchange_n(EddiEngine *engine, const char *sender, const char *message, size_t len,
                       const char *expected) {
  char *reply = eddi_exec(engine, sender, message, len);
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

static void exchange(EddiEngine *engine, const char *sender, const char *message,
                     const char *expected) {
  exchange_n(engine, sender, message, strlen(message), expected);
}

/* ---------------------------------------------------------------- creation */

static void test_new_on_missing_folder(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  char missing[PATH_MAX], error[256] = "", expected[PATH_MAX + 64];
  unit_path(missing, ws->root, "no-such-folder");
  assert_null(eddi_engine_new(missing, NULL, error, sizeof error));
  snprintf(expected, sizeof expected, "Workspace root %s: No such file or directory", missing);
  assert_string_equal(error, expected);

  char file[PATH_MAX];
  unit_path(file, ws->root, "notes.txt");
  assert_null(eddi_engine_new(file, NULL, error, sizeof error));
  snprintf(expected, sizeof expected, "Workspace root %s is not a folder", file);
  assert_string_equal(error, expected);
  unit_assert_no_leak(live);
}

static void test_root_is_canonical(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  char indirect[PATH_MAX];
  unit_path(indirect, ws->root, "./.");
  char error[256];
  EddiEngine *engine = eddi_engine_new(indirect, NULL, error, sizeof error);
  assert_non_null(engine);
  assert_string_equal(eddi_engine_root(engine), ws->root);
  eddi_engine_free(engine);
  eddi_engine_free(NULL); /* allowed */
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- messages */

static void test_invalid_utf8_is_refused(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  exchange(engine, "cli", "Start s\n\xFF", "Fail \"Message is not valid UTF-8 (byte 8)\"");
  exchange(engine, "cli", "Start s\xC3\x28", "Fail \"Message is not valid UTF-8 (byte 7)\"");
  exchange(engine, "cli", "Start \xED\xA0\x80", "Fail \"Message is not valid UTF-8 (byte 6)\"");
  assert_null(eddi_engine_session_of(engine, "cli")); /* nothing ran */
  exchange_n(engine, "cli", "Start s\0", 8, "Fail \"Message contains a NUL byte\"");
  exchange_n(engine, "cli", "\0Start s", 8, "Fail \"Message contains a NUL byte\"");
  assert_null(eddi_engine_session_of(engine, "cli"));
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_message_size_limit(void **state) {
  long live = unit_live();
  EddiConfig config;
  eddi_config_default(&config);
  assert_int_equal(config.max_message_bytes, 1024 * 1024);
  config.max_message_bytes = 16;
  EddiEngine *engine = engine_new(*state, &config);
  exchange(engine, "cli", "Start s\n# 89abcde", "Fail \"Message too large (17 bytes, limit 16)\"");
  assert_null(eddi_engine_session_of(engine, "cli"));
  exchange(engine, "cli", "Start s\n# 89abcd", "Ok"); /* exactly the limit */
  assert_string_equal(eddi_engine_session_of(engine, "cli"), "s");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_sender_names(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  exchange(engine, "", "Status", "Fail \"Invalid sender\"");
  exchange(engine, NULL, "Status", "Fail \"Invalid sender\"");
  char name[300];
  memset(name, 'n', 257);
  name[257] = '\0';
  exchange(engine, name, "Start s", "Fail \"Invalid sender\"");
  name[256] = '\0'; /* the longest accepted */
  exchange(engine, name, "Start s", "Ok");
  assert_string_equal(eddi_engine_session_of(engine, name), "s");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

static void test_empty_message(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  exchange(engine, "cli", "", "Fail \"Empty message\", Help lists the commands");
  exchange(engine, "cli", " \n\t\r\n# note\n", "Fail \"Empty message\", Help lists the commands");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- sessions */

static void test_senders_have_separate_sessions(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  exchange(engine, "alice", "Start a", "Ok");
  exchange(engine, "bob", "Start b", "Ok");
  assert_string_equal(eddi_engine_session_of(engine, "alice"), "a");
  assert_string_equal(eddi_engine_session_of(engine, "bob"), "b");
  assert_null(eddi_engine_session_of(engine, "carol"));
  exchange(engine, "alice", "Open notes.txt\nGoto 1:0", "Ok, At 0:0, Length 2\nOk, At 1:0");
  exchange(engine, "bob", "Status", "Ok: Session b, No file");
  exchange(engine, "alice", "Status", "Ok: Session a, File notes.txt, At 1:0, Length 2");
  exchange(engine, "carol", "Status",
           "Fail \"No session exists and this is not a session command\", "
           "Start one with \"Start <name>\"");
  exchange(engine, "bob", "Start a", "Fail \"Session a already exists\", Choose another name");
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- replies */

static void test_reply_items(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  const char *message = "Start s\n\n# comment\nStatus\nFrobnicate\nStatus";
  EddiReply reply;
  eddi_exec_reply(engine, "cli", message, strlen(message), &reply);
  assert_int_equal(reply.count, 4);
  assert_true(reply.items[0].ok);
  assert_string_equal(reply.items[0].text, "Ok");
  assert_true(reply.items[1].ok);
  assert_string_equal(reply.items[1].text, "Ok: Session s, No file");
  assert_false(reply.items[2].ok);
  assert_string_equal(reply.items[2].text,
                      "Fail \"Unknown command 'Frobnicate'\", Help lists the commands");
  assert_false(reply.items[3].ok);
  assert_string_equal(reply.items[3].text, "Fail \"Skipped: an earlier command failed\"");
  eddi_reply_free(&reply);
  assert_int_equal(reply.count, 0);
  assert_null(reply.items);

  /* A refused message is one Fail item. */
  eddi_exec_reply(engine, "", "Status", 6, &reply);
  assert_int_equal(reply.count, 1);
  assert_false(reply.items[0].ok);
  assert_string_equal(reply.items[0].text, "Fail \"Invalid sender\"");
  eddi_reply_free(&reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* Replies quote what they refuse, cut to a size: never in the middle of a
 * character, since a reply is UTF-8 (JSON-RPC carries it). */
static void test_quoted_input_stays_utf8(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  char message[2048], expected[2048];
  /* An unknown verb is quoted up to 64 bytes: 63 + half of é is 63. */
  memset(message, 'a', 63);
  strcpy(message + 63, "é");
  strcpy(expected, "Fail \"Unknown command '");
  memset(expected + strlen(expected), 'a', 63);
  strcpy(expected + strlen("Fail \"Unknown command '") + 63, "'\", Help lists the commands");
  exchange(engine, "cli", message, expected);
  /* An unknown target, the same way. */
  strcpy(message, "Start s\nOpen notes.txt\nGoto a");
  for (int i = 0; i < 40; i++) strcat(message, "é");
  strcpy(expected, "Ok\nOk, At 0:0, Length 2\nFail \"Unknown target 'a");
  for (int i = 0; i < 31; i++) strcat(expected, "é");
  strcat(expected, "'\", Expected one of StartOfFile, EndOfFile, StartOfLine, EndOfLine, Bookmark, "
                   "StartOfFunction, EndOfFunction, StartOfClass, EndOfClass, Function, Method, "
                   "Class, Variable");
  exchange(engine, "cli", message, expected);
  /* A message cut at the error buffer's size (511 bytes). */
  strcpy(message, "Help x");
  for (int i = 0; i < 300; i++) strcat(message, "é");
  strcpy(expected, "Fail \"Unknown command 'x");
  for (int i = 0; i < 246; i++) strcat(expected, "é");
  strcat(expected, "\"");
  char *reply = eddi_exec(engine, "cli", message, strlen(message));
  assert_int_equal(eddi_utf8_valid_prefix(reply, strlen(reply)), strlen(reply));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

/* A file name with a newline, a comma or bytes that are not UTF-8 is
 * listed in quotes, escaped: it forges no reply line and no list entry,
 * and the reply stays valid UTF-8. eddi opens and creates no such name. */
static void test_unsafe_file_names(void **state) {
  const Workspace *ws = *state;
  long live = unit_live();
  const char *names[] = {"evil\nFail \"INJECTED\".txt", "a, b.txt", "\xFF\xFE.txt"};
  char path[PATH_MAX];
  for (size_t i = 0; i < 3; i++) {
    unit_path(path, ws->root, names[i]);
    unit_write_file(path, "x\n", 2);
  }
  EddiEngine *engine = engine_new(ws, NULL);
  char *reply = eddi_exec(engine, "cli", "Start s\nList", strlen("Start s\nList"));
  assert_string_equal(reply, "Ok\nOk: \"a, b.txt\", \"evil\\nFail \\\"INJECTED\\\".txt\", notes.txt, "
                             "\"\\xFF\\xFE.txt\"");
  assert_int_equal(eddi_utf8_valid_prefix(reply, strlen(reply)), strlen(reply));
  eddi_string_free(reply);
  exchange(engine, "cli", "Open Create \"nl\\nname.txt\"",
           "Fail \"File name holds a control character (U+000A): nl\\nname.txt\", Choose a name "
           "without control characters");
  exchange(engine, "cli", "Open \"evil\\nFail \\\"INJECTED\\\".txt\"",
           "Fail \"File name holds a control character (U+000A): evil\\nFail \\\"INJECTED\\\".txt\", "
           "Choose a name without control characters");
  exchange(engine, "cli", "Open Create \"tab\\there.txt\"",
           "Fail \"File name holds a control character (U+0009): tab\\there.txt\", Choose a name "
           "without control characters");
  exchange(engine, "cli", "Open \"a, b.txt\"", "Ok, At 0:0, Length 1");
  unit_path(path, ws->root, "nl\nname.txt");
  assert_int_equal(access(path, F_OK), -1);
  eddi_engine_free(engine);
  for (size_t i = 0; i < 3; i++) {
    unit_path(path, ws->root, names[i]);
    unlink(path);
  }
  unit_assert_no_leak(live);
}

/* An engine with sessions, open and edited files leaves nothing behind. */
static void test_free_releases_everything(void **state) {
  long live = unit_live();
  EddiEngine *engine = engine_new(*state, NULL);
  exchange(engine, "alice", "Start a\nOpen notes.txt\nInsert Line \"zero\"\nBookmark top 0:0",
           "Ok\nOk, At 0:0, Length 2\nOk, Inserted 1 line at 0, At 1:0\nOk, Bookmark top at 0:0");
  exchange(engine, "bob", "Start b \"two files\"\nOpen Create new.txt\nFind \"x\"",
           "Ok\nOk, At 0:0, Length 0\nFail \"Not found: x\"");
  exchange(engine, "alice", "Undo\nRedo", "Ok, Undid 1 step, At 0:0\nOk, Redid 1 step, At 1:0");
  assert_true(eddi_alloc_live() > live);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_new_on_missing_folder),
      cmocka_unit_test(test_root_is_canonical),
      cmocka_unit_test(test_invalid_utf8_is_refused),
      cmocka_unit_test(test_message_size_limit),
      cmocka_unit_test(test_sender_names),
      cmocka_unit_test(test_empty_message),
      cmocka_unit_test(test_senders_have_separate_sessions),
      cmocka_unit_test(test_reply_items),
      cmocka_unit_test(test_quoted_input_stays_utf8),
      cmocka_unit_test(test_unsafe_file_names),
      cmocka_unit_test(test_free_releases_everything),
  };
  return cmocka_run_group_tests(tests, workspace_setup, workspace_teardown);
}
