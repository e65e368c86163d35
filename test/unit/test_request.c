/* test_request.c - requests as transports hand them to the engine (eddi.h):
 * routing across instances, the sender policy, the instance a Start names,
 * session events and typed calls. Only eddi.h's API is used. */
#include "unit_support.h"

#include "eddi.h"

#include <xxhash.h>

typedef struct {
  char root[PATH_MAX];
  EddiEngine *engine;
  long live;
} Fixture;

static int fixture_setup(void **state) {
  Fixture *fx = calloc(1, sizeof *fx);
  unit_workspace_new(fx->root);
  char path[PATH_MAX];
  unit_path(path, fx->root, "notes.txt");
  unit_write_file(path, "one\ntwo\n", 8);
  fx->live = unit_live();
  char error[256] = "";
  fx->engine = eddi_engine_new(fx->root, NULL, error, sizeof error);
  if (!fx->engine) fail_msg("eddi_engine_new: %s", error);
  *state = fx;
  return 0;
}

static int fixture_teardown(void **state) {
  Fixture *fx = *state;
  eddi_engine_free(fx->engine);
  unit_assert_no_leak(fx->live);
  unit_remove_tree(fx->root);
  free(fx);
  return 0;
}

/* The request's replies joined by '\n' equal expected. */
static void expect_replies(EddiEngine *engine, const EddiRequest *req, const char *expected) {
  EddiReply reply;
  eddi_request_exec(engine, req, &reply);
  char joined[4096] = "";
  for (size_t i = 0; i < reply.count; i++) {
    if (i) strcat(joined, "\n");
    strncat(joined, reply.items[i].text, sizeof joined - strlen(joined) - 1);
  }
  assert_false(reply.pending);
  assert_string_equal(joined, expected);
  eddi_reply_free(&reply);
}

static void request(EddiEngine *engine, const char *sender, const char *session,
                    const char *text, bool name_instance, const char *expected) {
  EddiRequest req = {.sender = sender, .session = session, .text = text, .len = strlen(text),
                     .name_instance = name_instance};
  expect_replies(engine, &req, expected);
}

/* A request that may only read and collect (a sandboxed script's). */
static void collect_only(EddiEngine *engine, const char *text, const char *expected) {
  EddiRequest req = {.sender = "box", .text = text, .len = strlen(text), .collect_only = true};
  expect_replies(engine, &req, expected);
}

static void remote(EddiEngine *engine, EddiSessionChange change, const char *session,
                   const char *sender, const char *instance) {
  EddiSessionEvent event = {change, session, sender, instance};
  assert_int_equal(eddi_engine_note_remote_session(engine, &event), 0);
}

/* ------------------------------------------------------------ routing */

static void test_named_session_runs_as_its_holder(void **state) {
  Fixture *fx = *state;
  request(fx->engine, "alice", NULL, "Start s", false, "Ok");
  /* Only the holder acts in its session: naming it is not enough. */
  request(fx->engine, NULL, "s", "Status", false, "Fail \"Session s belongs to another sender\"");
  request(fx->engine, "alice", "s", "Status", false, "Ok: Session s, No file");
  request(fx->engine, "bob", "s", "Status", false,
          "Fail \"Session s belongs to another sender\"");
  request(fx->engine, NULL, "t", "Status", false, "Fail \"Session t not found\"");
  /* A message that starts the session it names may. */
  request(fx->engine, "bob", "t", "Start t\nStatus", false, "Ok\nOk: Session t, No file");
}

static void test_sessions_elsewhere_are_refused(void **state) {
  Fixture *fx = *state;
  assert_int_equal(eddi_engine_set_instance(fx->engine, "alpha"), 0);
  remote(fx->engine, EDDI_SESSION_STARTED, "far", "carol", "beta");
  request(fx->engine, NULL, "far", "Status", false, "Fail \"Session far lives on beta\"");
  request(fx->engine, "carol", NULL, "Status", false, "Fail \"Session far lives on beta\"");
  request(fx->engine, "dave", NULL, "Start far", false, "Fail \"Session far lives on beta\"");
  char instance[EDDI_INSTANCE_NAME_MAX + 1], found[64];
  assert_true(eddi_engine_remote_session(fx->engine, NULL, "carol", instance, sizeof instance,
                                         found, sizeof found));
  assert_string_equal(instance, "beta");
  assert_string_equal(found, "far");
  /* An end from another instance than the holder changes nothing. */
  remote(fx->engine, EDDI_SESSION_ENDED, "far", "carol", "gamma");
  request(fx->engine, "carol", NULL, "Status", false, "Fail \"Session far lives on beta\"");
  remote(fx->engine, EDDI_SESSION_ENDED, "far", "carol", "beta");
  request(fx->engine, "carol", NULL, "Start far", false, "Ok");
}

static void test_remote_event_cannot_claim_a_local_session(void **state) {
  Fixture *fx = *state;
  eddi_engine_set_instance(fx->engine, "alpha");
  request(fx->engine, "alice", NULL, "Start mine", false, "Ok");
  remote(fx->engine, EDDI_SESSION_STARTED, "mine", "mallory", "beta");
  request(fx->engine, "alice", "mine", "Status", false, "Ok: Session mine, No file");
  /* Events naming this instance are its own echo and are ignored. */
  remote(fx->engine, EDDI_SESSION_STARTED, "echo", "erin", "alpha");
  request(fx->engine, "erin", NULL, "Status", false,
          "Fail \"No session exists and this is not a session command\", Start one with "
          "\"Start <name>\"");
  EddiSessionEvent bad = {EDDI_SESSION_STARTED, "x", "y", ""};
  assert_int_equal(eddi_engine_note_remote_session(fx->engine, &bad), -1);
}

/* ------------------------------------------------------------ instance */

static void test_start_names_the_instance(void **state) {
  Fixture *fx = *state;
  eddi_engine_set_instance(fx->engine, "build-7");
  request(fx->engine, "a", NULL, "Status\nStart s", true,
          "Fail \"No session exists and this is not a session command\", Start one with "
          "\"Start <name>\"\nFail \"Skipped: an earlier command failed\"");
  request(fx->engine, "a", NULL, "Start s\nStatus", true, "Ok, Instance build-7\nOk: Session s, No file");
  request(fx->engine, "b", NULL, "Start t", false, "Ok");
  assert_int_equal(eddi_engine_session_count(fx->engine), 2);
  char long_name[EDDI_INSTANCE_NAME_MAX + 2];
  memset(long_name, 'i', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  assert_int_equal(eddi_engine_set_instance(fx->engine, long_name), -1);
}

/* ------------------------------------------------------------ events */

typedef struct {
  char log[1024];
} EventLog;

static void event_record(void *closure, const EddiSessionEvent *event) {
  EventLog *log = closure;
  char line[256];
  snprintf(line, sizeof line, "%s %s %s %s;",
           event->change == EDDI_SESSION_STARTED ? "started" : "ended", event->session,
           event->sender, event->instance);
  strncat(log->log, line, sizeof log->log - strlen(log->log) - 1);
}

static void session_list(void *closure, const char *session, const char *sender) {
  EventLog *log = closure;
  char line[256];
  snprintf(line, sizeof line, "%s=%s;", session, sender);
  strncat(log->log, line, sizeof log->log - strlen(log->log) - 1);
}

static void test_session_events(void **state) {
  Fixture *fx = *state;
  EventLog log = {""};
  eddi_engine_set_instance(fx->engine, "alpha");
  eddi_engine_listen_sessions(fx->engine, event_record, &log);
  request(fx->engine, "a", NULL, "Start s", false, "Ok");
  request(fx->engine, "b", NULL, "Start t", false, "Ok");
  request(fx->engine, "a", NULL, "End", false, "Ok, Session ended");
  request(fx->engine, "a", NULL, "Start u", false, "Ok");
  assert_string_equal(log.log,
                      "started s a alpha;started t b alpha;ended s a alpha;started u a alpha;");
  EventLog listed = {""};
  eddi_engine_each_session(fx->engine, session_list, &listed);
  assert_string_equal(listed.log, "t=b;u=a;");
}

/* ------------------------------------------------------------ policy */

static void test_sender_policy(void **state) {
  Fixture *fx = *state;
  const char *const allowed[] = {"alice", "reader", NULL};
  const char *const readers[] = {"reader", NULL};
  EddiSenderPolicy policy = {allowed, readers};
  assert_int_equal(eddi_engine_set_policy(fx->engine, &policy), 0);
  request(fx->engine, "mallory", NULL, "Start s", false, "Fail \"Sender mallory is not allowed\"");
  request(fx->engine, "bad\x01name", NULL, "Start s", false, "Fail \"Sender missing or invalid\"");
  request(fx->engine, "reader", NULL, "Start r\nOpen notes.txt\nGoto 1", false,
          "Ok\nOk, At 0:0, Length 2\nOk, At 1:0");
  request(fx->engine, "reader", NULL, "Open Create x.txt", false,
          "Fail \"Sender reader may only read, not run Open Create\"");
  request(fx->engine, "reader", NULL, "Insert Line \"x\"", false,
          "Fail \"Sender reader may only read, not run Insert\"");
  /* The policy is checked before anything runs: nothing was written. */
  char path[PATH_MAX];
  unit_path(path, fx->root, "x.txt");
  assert_int_equal(access(path, F_OK), -1);
  eddi_engine_set_policy(fx->engine, NULL);
  request(fx->engine, "mallory", NULL, "Start m", false, "Ok");
}

#define COLLECT_ONLY_FAIL(word)                                                          \
  "Fail \"This message may only read and collect changes, not run " word "\", A script's " \
  "changes are collected when its first statement is collect changes as \"name\""

static void test_collect_only_requests(void **state) {
  Fixture *fx = *state;
  char path[PATH_MAX];
  unit_path(path, fx->root, "notes.txt");
  collect_only(fx->engine, "Start s\nOpen notes.txt\nGoto 1", "Ok\nOk, At 0:0, Length 2\nOk, At 1:0");
  collect_only(fx->engine, "Insert Line \"x\"", COLLECT_ONLY_FAIL("Insert"));
  /* A script whose changes would be written, or could be: its collect
   * is not its first statement, or its name is not written out. */
  collect_only(fx->engine, "{ foreach file matching \"notes.txt\" { replace \"one\" with \"uno\" } }",
               COLLECT_ONLY_FAIL("replace"));
  collect_only(fx->engine,
               "{ foreach file matching \"notes.txt\" { replace \"one\" with \"uno\" }\n"
               "collect changes as \"late\" }",
               COLLECT_ONLY_FAIL("replace"));
  collect_only(fx->engine,
               "{ if file.path contains \"x\" { collect changes as \"maybe\" }\n"
               "foreach file matching \"notes.txt\" { replace \"one\" with \"uno\" } }",
               COLLECT_ONLY_FAIL("replace"));
  collect_only(fx->engine,
               "{ collect changes as $name\n"
               "foreach file matching \"notes.txt\" { replace \"one\" with \"uno\" } }",
               COLLECT_ONLY_FAIL("replace"));
  /* Collected first, but something in it writes at once. */
  collect_only(fx->engine, "{ collect changes as \"c\"\napply changeset \"c\" }",
               COLLECT_ONLY_FAIL("apply changeset"));
  collect_only(fx->engine, "{ collect changes as \"c\"\nInsert Line \"x\" }",
               COLLECT_ONLY_FAIL("Insert"));
  collect_only(fx->engine, "{ collect changes as \"c\"\nSave }", COLLECT_ONLY_FAIL("Save"));
  size_t len = 0;
  char *bytes = unit_read_file(path, &len);
  assert_string_equal(bytes, "one\ntwo\n");
  free(bytes);
  /* Collected: kept in the session, nothing written; a preview reads. */
  collect_only(fx->engine,
               "{ collect changes as \"c\"\n"
               "foreach file matching \"notes.txt\" { replace \"one\" with \"uno\" } }",
               "Ok, Migration prepared: 1 file affected, use 'apply changeset c'");
  collect_only(fx->engine, "Preview changeset c", "Ok, Changeset c (collected): 1 file: notes.txt +1 -1");
  collect_only(fx->engine, "apply changeset c", COLLECT_ONLY_FAIL("apply"));
  bytes = unit_read_file(path, &len);
  assert_string_equal(bytes, "one\ntwo\n");
  free(bytes);
  /* The caller, not collect-only, applies it. */
  request(fx->engine, "box", NULL, "apply changeset c", false, "Ok, Applied changeset c: 1 file");
  bytes = unit_read_file(path, &len);
  assert_string_equal(bytes, "uno\ntwo\n");
  free(bytes);
}

/* ------------------------------------------------------------ calls */

static void call(EddiEngine *engine, const char *sender, const char *word, const EddiCall *c,
                 const char *expected, size_t files, bool no_change) {
  EddiRequest req = {.sender = sender, .text = word, .len = strlen(word)};
  EddiReply reply;
  EddiCallOutcome outcome;
  eddi_request_call(engine, &req, c, &reply, &outcome);
  assert_int_equal(reply.count, 1);
  assert_string_equal(reply.items[0].text, expected);
  assert_int_equal(outcome.files, files);
  assert_int_equal(outcome.no_change, no_change);
  eddi_reply_free(&reply);
}

static void test_typed_calls(void **state) {
  Fixture *fx = *state;
  EddiCall read = {.kind = EDDI_CALL_READ, .path = "notes.txt"};
  call(fx->engine, "a", "Read", &read, "[notes.txt#0127]\n1:one\n2:two", 0, false);
  EddiReplaceEdit edit = {"two", 3, "2", 1, false};
  EddiCall replace = {.kind = EDDI_CALL_REPLACE, .path = "notes.txt", .edits = &edit,
                      .edit_count = 1};
  call(fx->engine, "a", "Replace", &replace, "[notes.txt#8B8A]\n1:one\n2:2", 1, false);
  char path[PATH_MAX];
  unit_path(path, fx->root, "notes.txt");
  size_t len = 0;
  char *bytes = unit_read_file(path, &len);
  assert_string_equal(bytes, "one\n2\n");
  free(bytes);
  EddiCall missing = {.kind = EDDI_CALL_READ, .path = "nope.txt"};
  call(fx->engine, "a", "Read", &missing, "Fail \"File not found: nope.txt\", List shows the files; create new ones with "
       "Update <path> or Patch *** Add File",
       0, false);
  /* A read-only sender may read, not replace. */
  const char *const readers[] = {"r", NULL};
  EddiSenderPolicy policy = {NULL, readers};
  eddi_engine_set_policy(fx->engine, &policy);
  call(fx->engine, "r", "Replace", &replace, "Fail \"Sender r may only read, not run Replace\"", 0,
       false);
  call(fx->engine, "r", "Read", &read, "[notes.txt#8B8A]\n1:one\n2:2", 0, false);
}

/* app.py and main.py hold the rename of greet to welcome. */
static void expect_renamed(const char *app_path, const char *main_path) {
  size_t len = 0;
  char *bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, "def welcome(name):\n    return 'hi ' + name\n");
  free(bytes);
  bytes = unit_read_file(main_path, &len);
  assert_string_equal(bytes, "from app import welcome\n\nprint(welcome('x'))\n");
  free(bytes);
}

/* refactor and preview run the Refactor command's job: its reply, Preview's
 * with the diff; a read-only sender may preview, not refactor. */
static void test_refactor_calls(void **state) {
  Fixture *fx = *state;
  static const char app[] = "def greet(name):\n    return 'hi ' + name\n";
  static const char main_py[] = "from app import greet\n\nprint(greet('x'))\n";
  char app_path[PATH_MAX], main_path[PATH_MAX];
  unit_path(app_path, fx->root, "app.py");
  unit_path(main_path, fx->root, "main.py");
  unit_write_file(app_path, app, sizeof app - 1);
  unit_write_file(main_path, main_py, sizeof main_py - 1);

  EddiCall preview = {.kind = EDDI_CALL_PREVIEW, .operation = "RenameSymbol",
                      .text = "app.py:greet", .new_name = "welcome"};
  call(fx->engine, "a", "Preview", &preview,
       "Ok, Preview: Would modify 2 files: app.py, main.py\n"
       "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-def greet(name):\n+def welcome(name):\n"
       "     return 'hi ' + name\n"
       "--- a/main.py\n+++ b/main.py\n@@ -1,3 +1,3 @@\n-from app import greet\n"
       "+from app import welcome\n \n-print(greet('x'))\n+print(welcome('x'))",
       0, false);
  size_t len = 0;
  char *bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, app);
  free(bytes);

  EddiCall wrong = preview;
  wrong.operation = "Rename";
  call(fx->engine, "a", "Preview", &wrong,
       "Fail \"Unknown operation 'Rename'\", Did you mean \"RenameSymbol\"", 0, false);

  const char *const readers[] = {"r", NULL};
  EddiSenderPolicy policy = {NULL, readers};
  eddi_engine_set_policy(fx->engine, &policy);
  EddiCall refactor = preview;
  refactor.kind = EDDI_CALL_REFACTOR;
  call(fx->engine, "r", "Refactor", &refactor, "Fail \"Sender r may only read, not run Refactor\"",
       0, false);
  eddi_engine_set_policy(fx->engine, NULL);
  call(fx->engine, "a", "Refactor", &refactor, "Ok, Renamed in 2 files, 3 references updated", 2,
       false);
  expect_renamed(app_path, main_path);

  /* With a session, a document open in it is renamed through it: Undo
   * takes the change back there, and in the file not open (one step of
   * the session's multi-file history, edit/txn_history.h). */
  request(fx->engine, "s", NULL, "Start s\nOpen app.py", false, "Ok\nOk, At 0:0, Length 2");
  EddiCall back = {.kind = EDDI_CALL_REFACTOR, .operation = "RenameSymbol",
                   .text = "app.py:welcome", .new_name = "greet"};
  call(fx->engine, "s", "Refactor", &back, "Ok, Renamed in 2 files, 3 references updated", 2,
       false);
  bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, app);
  free(bytes);
  request(fx->engine, "s", NULL, "Undo\nStatus", false,
          "Ok, Undid 1 step, 2 files: app.py, main.py, At 0:0\n"
          "Ok: Session s, File app.py, At 0:0, Length 2");
  expect_renamed(app_path, main_path);
}

/* A call that would leave unsure references is refused as the command is
 * (refactor/plan.h); leave writes without them, unsure changes them too. */
static void test_refactor_call_unsure(void **state) {
  Fixture *fx = *state;
  static const char app[] = "class Cart:\n    def __init__(self):\n        self.total = 0\n\n\n"
                            "def show(c):\n    return c.total\n";
  char app_path[PATH_MAX];
  unit_path(app_path, fx->root, "app.py");
  unit_write_file(app_path, app, sizeof app - 1);
  EddiCall rename = {.kind = EDDI_CALL_REFACTOR, .operation = "RenameSymbol",
                     .text = "Cart.total", .new_name = "sum"};
  call(fx->engine, "a", "Refactor", &rename,
       "Fail \"1 reference to Cart.total cannot be resolved: app.py:6; nothing written\", Add "
       "Unsure to change them too, or Leave to write without them",
       0, false);
  size_t len = 0;
  char *bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, app);
  free(bytes);
  rename.leave = true;
  call(fx->engine, "a", "Refactor", &rename,
       "Ok, Renamed in 1 file, 1 reference updated, 1 unsure left unchanged: app.py:6", 1, false);
  bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, "class Cart:\n    def __init__(self):\n        self.sum = 0\n\n\n"
                             "def show(c):\n    return c.total\n");
  free(bytes);
  unit_write_file(app_path, app, sizeof app - 1);
  rename.leave = false, rename.unsure = true;
  call(fx->engine, "a", "Refactor", &rename,
       "Ok, Renamed in 1 file, 2 references updated, 1 unsure renamed too: app.py:6", 1, false);
}

/* The operations past rename take their arguments as data too: Extract's
 * region as path:A:B, an inlining no new name. */
static void test_refactor_operation_calls(void **state) {
  Fixture *fx = *state;
  static const char app[] = "def greet(name):\n    text = 'hi ' + name\n    return text\n\n"
                            "print(greet('x'))\n";
  char app_path[PATH_MAX];
  unit_path(app_path, fx->root, "app.py");
  unit_write_file(app_path, app, sizeof app - 1);
  EddiCall extract = {.kind = EDDI_CALL_REFACTOR, .operation = "Extract_Method",
                      .text = "app.py:1:1", .new_name = "phrase"};
  call(fx->engine, "a", "Refactor", &extract,
       "Ok, Extracted phrase(name) from app.py:1:1, returns text, 1 file modified", 1, false);
  size_t len = 0;
  char *bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, "def greet(name):\n    text = phrase(name)\n    return text\n\n"
                             "def phrase(name):\n    text = 'hi ' + name\n    return text\n\n"
                             "print(greet('x'))\n");
  free(bytes);
  EddiCall inline_call = {.kind = EDDI_CALL_REFACTOR, .operation = "InlineFunction",
                          .text = "app.py:greet"};
  call(fx->engine, "a", "Refactor", &inline_call,
       "Ok, Inlined app.py:greet, 1 call replaced, 1 file modified", 1, false);
  bytes = unit_read_file(app_path, &len);
  assert_string_equal(bytes, "def phrase(name):\n    text = 'hi ' + name\n    return text\n\n"
                             "text = phrase('x')\nprint(text)\n");
  free(bytes);
}

/* ------------------------------------------------------------ audit */

typedef struct {
  char lines[4096];
  size_t count;
} AuditSink;

static void audit_sink(void *closure, const char *line, size_t len) {
  AuditSink *sink = closure;
  strncat(sink->lines, line, EDDI_MIN(len, sizeof sink->lines - strlen(sink->lines) - 2));
  strcat(sink->lines, "\n");
  sink->count++;
}

/* The record without its time, which differs each run. */
static const char *untimed(const char *line) {
  const char *after = strstr(line, "Z\",");
  return after ? after + 3 : line;
}

static void test_audit_records(void **state) {
  Fixture *fx = *state;
  char path[PATH_MAX], error[256];
  unit_path(path, fx->root, "audit.jsonl");
  AuditSink sink = {"", 0};
  EddiAuditConfig config = {path, audit_sink, &sink, EDDI_AUDIT_FAILURE_REFUSE};
  assert_int_equal(eddi_engine_set_audit(fx->engine, &config, error, sizeof error), 0);
  eddi_engine_set_instance(fx->engine, "alpha");
  const char *const readers[] = {"r", NULL};
  EddiSenderPolicy policy = {NULL, readers};
  eddi_engine_set_policy(fx->engine, &policy);
  EddiRequest start = {.sender = "a", .text = "Start s\nOpen notes.txt", .len = 22,
                       .transport = "nats"};
  EddiReply reply;
  eddi_request_exec(fx->engine, &start, &reply);
  eddi_reply_free(&reply);
  request(fx->engine, "a", NULL, "Goto 9:0\nShow Line 0", false,
          "Fail \"Invalid position 9:0\", File ends at 2:0\n"
          "Fail \"Skipped: an earlier command failed\"");
  request(fx->engine, "r", NULL, "Patch\n*** Begin Patch", false,
          "Fail \"Sender r may only read, not run Patch\"");
  request(fx->engine, "a", NULL, "Insert Line \"zero\"\nSave", false,
          "Ok, Inserted 1 line at 0, At 1:0\nOk, Bytes 13");
  request(fx->engine, "a", NULL, "End", false, "Ok, Session ended");
  assert_int_equal(sink.count, 5);
  char *lines = sink.lines, *next;
  /* A Save names its file with the hashes of its bytes before and after. */
  char saved[512];
  snprintf(saved, sizeof saved,
           "\"sender\":\"a\",\"session\":\"s\",\"instance\":\"alpha\",\"transport\":null,"
           "\"commands\":[\"Insert\",\"Save\"],\"files\":[{\"path\":\"notes.txt\",\"before\":"
           "\"%016llx\",\"after\":\"%016llx\"}],\"outcome\":\"ok\"}",
           (unsigned long long)XXH3_64bits("one\ntwo\n", 8),
           (unsigned long long)XXH3_64bits("zero\none\ntwo\n", 13));
  const char *expected[] = {
      "\"sender\":\"a\",\"session\":\"s\",\"instance\":\"alpha\",\"transport\":\"nats\","
      "\"commands\":[\"Start\",\"Open\"],\"files\":[],\"outcome\":\"ok\"}",
      "\"sender\":\"a\",\"session\":\"s\",\"instance\":\"alpha\",\"transport\":null,"
      "\"commands\":[\"Goto\",\"Show\"],\"files\":[],\"outcome\":\"fail\",\"failed_command\":1}",
      "\"sender\":\"r\",\"session\":null,\"instance\":\"alpha\",\"transport\":null,"
      "\"commands\":[\"Patch\"],\"files\":[],\"outcome\":\"refused\"}",
      saved,
      "\"sender\":\"a\",\"session\":\"s\",\"instance\":\"alpha\",\"transport\":null,"
      "\"commands\":[\"End\"],\"files\":[],\"outcome\":\"ok\"}",
  };
  for (size_t i = 0; i < 5; i++, lines = next + 1) {
    next = strchr(lines, '\n');
    *next = '\0';
    assert_string_equal(untimed(lines), expected[i]);
  }
  /* The file holds the same lines, each with its time. */
  size_t len;
  char *file = unit_read_file(path, &len);
  size_t records = 0;
  for (char *at = file; (at = strstr(at, "{\"time\":\"")); at++) records++;
  assert_int_equal(records, 5);
  free(file);
  eddi_engine_set_audit(fx->engine, NULL, NULL, 0);
}

/* ------------------------------------------------------------ helpers */

static void test_fail_line_and_utf8(void **state) {
  char line[64];
  assert_string_equal(eddi_fail_line(line, sizeof line, "Bad \"%s\"\r\n", "x"),
                      "Fail \"Bad \\\"x\\\"\\r\\n\"");
  /* Cut on a character boundary: never half of "é". */
  char tiny[9];
  eddi_fail_line(tiny, sizeof tiny, "ab\xc3\xa9");
  assert_string_equal(tiny, "Fail \"ab");
  assert_true(eddi_utf8_valid("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
  assert_false(eddi_utf8_valid("\xc0\xaf", 2));
  assert_false(eddi_utf8_valid("\xed\xa0\x80", 3));
  assert_false(eddi_utf8_valid("\xf4\x90\x80\x80", 4));
  assert_false(eddi_utf8_valid("\xe2\x82", 2));
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define FIXTURE_TEST(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
      FIXTURE_TEST(test_named_session_runs_as_its_holder),
      FIXTURE_TEST(test_sessions_elsewhere_are_refused),
      FIXTURE_TEST(test_remote_event_cannot_claim_a_local_session),
      FIXTURE_TEST(test_start_names_the_instance),
      FIXTURE_TEST(test_session_events),
      FIXTURE_TEST(test_sender_policy),
      FIXTURE_TEST(test_collect_only_requests),
      FIXTURE_TEST(test_typed_calls),
      FIXTURE_TEST(test_refactor_calls),
      FIXTURE_TEST(test_refactor_call_unsure),
      FIXTURE_TEST(test_refactor_operation_calls),
      FIXTURE_TEST(test_audit_records),
      cmocka_unit_test(test_fail_line_and_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
