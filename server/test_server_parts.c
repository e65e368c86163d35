/* test_server_parts.c - unit tests for the server's parts that need no
 * network: the work queue's lanes, the message checks and the NATS link's
 * messages (bodies, session events, sync answers, backoff), the sender
 * policy the host hands the engine, the options, the edit calls'
 * arguments, the MCP tool list. One cmocka list; ctest runs it as
 * server_parts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eddi_link.h"
#include "edit_calls.h"
#include "engine_host.h"
#include "log.h"
#include "mcp_resources.h"
#include "mcp_tools.h"
#include "options.h"
#include "server_error.h"
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

/* ------------------------------------------------------------ checks */

static void test_utf8(void **state) {
  assert_true(eddi_utf8_valid("plain", 5));
  assert_true(eddi_utf8_valid("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9));
  assert_false(eddi_utf8_valid("\xff", 1));
  assert_false(eddi_utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
  assert_false(eddi_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
  assert_false(eddi_utf8_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
  assert_false(eddi_utf8_valid("\xe2\x82", 2));         /* cut short */
}

static void test_check_bytes(void **state) {
  char why[EDDI_LINK_FAIL_MAX];
  assert_int_equal(eddi_link_check_bytes("12345678", 8, 8, why, sizeof why), 0);
  assert_int_equal(eddi_link_check_bytes("123456789", 9, 8, why, sizeof why), EDDI_LINK_EINVAL);
  assert_string_equal(why, "Fail \"Message too large: 9 bytes, limit 8\"");
  assert_int_equal(eddi_link_check_bytes("St\xff", 3, 8, why, sizeof why), EDDI_LINK_EINVAL);
  assert_string_equal(why, "Fail \"Message is not valid UTF-8\"");
}

static void test_parse_json(void **state) {
  json_object *object = NULL;
  char why[EDDI_LINK_FAIL_MAX];
  const char *good = " {\"text\": \"Status\"} \n";
  assert_int_equal(eddi_link_parse_object(good, strlen(good), &object, why, sizeof why), 0);
  json_object_put(object);
  const char *trailing = "{} {}";
  assert_int_equal(eddi_link_parse_object(trailing, strlen(trailing), &object, why, sizeof why),
                   EDDI_LINK_EINVAL);
  assert_string_equal(why, "Fail \"Invalid JSON: text after the object\"");
  assert_int_equal(eddi_link_parse_object("[1]", 3, &object, why, sizeof why), EDDI_LINK_EINVAL);
  assert_string_equal(why, "Fail \"Invalid JSON: expected an object\"");
  assert_null(object);
}

/* Every refusal is quoted as the engine quotes its own Fails: a carriage
 * return too is escaped. */
static void test_fail_line_escapes(void **state) {
  char out[EDDI_LINK_FAIL_MAX];
  eddi_fail_line(out, sizeof out, "say \"%s\"\n\r", "a\\b");
  assert_string_equal(out, "Fail \"say \\\"a\\\\b\\\"\\n\\r\"");
}

/* ------------------------------------------------------ the link: bodies */

static const EddiLinkBodyRules body_rules = {.max_bytes = 64};

static void test_link_body_plain_and_json(void **state) {
  EddiLinkBody body;
  char why[EDDI_LINK_FAIL_MAX];
  const char *plain = "Start p\nOpen x.txt";
  assert_int_equal(eddi_link_body_read(plain, strlen(plain), &body_rules, &body, why, sizeof why), 0);
  assert_ptr_equal(body.text, plain);
  assert_int_equal(body.len, strlen(plain));
  assert_null(body.sender);
  assert_null(body.session);
  eddi_link_body_free(&body);

  const char *json = "  {\"session\": \"p\", \"text\": \"Insert Line \\\"\\u00e9\\\"\"} ";
  assert_int_equal(eddi_link_body_read(json, strlen(json), &body_rules, &body, why, sizeof why), 0);
  assert_null(body.sender);
  assert_string_equal(body.session, "p");
  assert_string_equal(body.text, "Insert Line \"\xc3\xa9\"");
  assert_int_equal(body.len, strlen("Insert Line \"\xc3\xa9\""));
  eddi_link_body_free(&body);

  /* A client's body reads back as it was made. */
  char *made = eddi_link_body_json("ann", NULL, "Start s\nGoto 1:0", 16);
  assert_string_equal(made, "{\"sender\":\"ann\",\"text\":\"Start s\\nGoto 1:0\"}");
  assert_int_equal(eddi_link_body_read(made, strlen(made), &body_rules, &body, why, sizeof why), 0);
  assert_string_equal(body.sender, "ann");
  assert_string_equal(body.text, "Start s\nGoto 1:0");
  eddi_link_body_free(&body);
  free(made);
}

static void expect_body_refused(const char *data, bool terse, const char *fail_expected) {
  EddiLinkBodyRules rules = {.max_bytes = 64, .terse_json_errors = terse};
  EddiLinkBody body;
  char why[EDDI_LINK_FAIL_MAX];
  assert_int_equal(eddi_link_body_read(data, strlen(data), &rules, &body, why, sizeof why),
                   EDDI_LINK_EINVAL);
  assert_string_equal(why, fail_expected);
  assert_null(body.json);
  assert_null(body.text);
}

/* The refusals every NATS endpoint gives, in the order they are checked. */
static void test_link_body_refusals(void **state) {
  expect_body_refused("{\"sender\": \"ann\", \"text\": \"Status\"} x", false,
                      "Fail \"Invalid JSON: text after the object\"");
  expect_body_refused("{\"sender\": \"ann\", \"text\": ", false,
                      "Fail \"Invalid JSON: unexpected end of data\"");
  expect_body_refused("{\"sender\": ", true, "Fail \"Invalid JSON: unexpected end\"");
  expect_body_refused("{\"sender\": \"\", \"text\": \"Status\"}", false,
                      "Fail \"\\\"sender\\\" must be a non-empty string\"");
  expect_body_refused("{\"session\": 7, \"text\": \"Status\"}", false,
                      "Fail \"\\\"session\\\" must be a non-empty string\"");
  expect_body_refused("{\"sender\": \"ann\"}", false, "Fail \"\\\"text\\\" must be a string\"");
  expect_body_refused("{\"text\": \"Status\"}", false,
                      "Fail \"Sender missing: give \\\"sender\\\" or \\\"session\\\"\"");
  expect_body_refused("Status \xff", false, "Fail \"Message is not valid UTF-8\"");
  char big[80];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  expect_body_refused(big, false, "Fail \"Message too large: 79 bytes, limit 64\"");
}

/* Bodies as bytes with their length: some hold a NUL. */
static void expect_bytes_refused(const char *data, size_t len, const char *fail_expected) {
  EddiLinkBody body;
  char why[EDDI_LINK_FAIL_MAX];
  assert_int_equal(eddi_link_body_read(data, len, &body_rules, &body, why, sizeof why),
                   EDDI_LINK_EINVAL);
  assert_string_equal(why, fail_expected);
  assert_null(body.json);
}

/* NATS bodies are as strict as stdio lines: RFC 8259 JSON only (no single
 * quotes, trailing commas or leading zeros), no name holding a NUL, and no
 * lone UTF-16 surrogate escape, which json-c would turn into U+FFFD. */
static void test_link_body_strict_json(void **state) {
  expect_body_refused("{'sender': 'ann', 'text': 'Status'}", false,
                      "Fail \"Invalid JSON: unexpected character\"");
  expect_body_refused("{\"sender\": \"ann\", \"text\": \"Status\",}", false,
                      "Fail \"Invalid JSON: unexpected character\"");
  expect_body_refused("{\"sender\": \"ann\", \"n\": 01, \"text\": \"Status\"}", false,
                      "Fail \"Invalid JSON: number expected\"");
  expect_body_refused("{\"sender\": \"ann\\u0000bob\", \"text\": \"Status\"}", false,
                      "Fail \"\\\"sender\\\" must not contain a NUL byte\"");
  expect_body_refused("{\"sender\": \"ann\", \"session\": \"s\\u0000\", \"text\": \"Status\"}",
                      false, "Fail \"\\\"session\\\" must not contain a NUL byte\"");
  const char *lone[] = {"{\"sender\": \"ann\", \"text\": \"\\ud800\"}",
                        "{\"sender\": \"ann\", \"text\": \"\\udc00x\"}",
                        "{\"sender\": \"ann\", \"text\": \"\\uD800\\u0041\"}",
                        "{\"sender\": \"ann\\ud800\", \"text\": \"x\"}"};
  for (size_t i = 0; i < sizeof lone / sizeof lone[0]; i++)
    expect_body_refused(lone[i], false,
                        "Fail \"Invalid JSON: unpaired UTF-16 surrogate escape\"");
  /* A key given twice, at the top or inside: json-c kept the last value. */
  expect_body_refused("{\"sender\": \"ann\", \"sender\": \"bob\", \"text\": \"Status\"}", false,
                      "Fail \"Invalid JSON: duplicate key in an object\"");
  expect_body_refused("{\"sender\": \"ann\", \"x\": [{\"a\": 1, \"a\" : 2}], \"text\": \"S\"}",
                      false, "Fail \"Invalid JSON: duplicate key in an object\"");
  /* A raw NUL ends json-c's reading: the rest is text after the object. */
  static const char raw_nul[] = "{\"sender\": \"ann\", \"text\": \"S\"}\0{}";
  expect_bytes_refused(raw_nul, sizeof raw_nul - 1, "Fail \"Invalid JSON: text after the object\"");

  /* A pair is one character; an escaped backslash before "u" is no escape. */
  EddiLinkBody body;
  char why[EDDI_LINK_FAIL_MAX];
  const char *pair = "{\"sender\": \"ann\", \"text\": \"\\ud83d\\ude00 \\\\ud800\"}";
  assert_int_equal(eddi_link_body_read(pair, strlen(pair), &body_rules, &body, why, sizeof why), 0);
  assert_string_equal(body.text, "\xf0\x9f\x98\x80 \\ud800");
  eddi_link_body_free(&body);
}

/* ------------------------------------------------------ the link: sessions */

typedef struct {
  size_t count;
  EddiSessionEvent events[4];
  char strings[4][3][32];
} SeenEvents;

static void see_event(void *closure, const EddiSessionEvent *event) {
  SeenEvents *seen = closure;
  assert_true(seen->count < 4);
  char(*at)[32] = seen->strings[seen->count];
  snprintf(at[0], 32, "%s", event->session);
  snprintf(at[1], 32, "%s", event->sender);
  snprintf(at[2], 32, "%s", event->instance);
  seen->events[seen->count++] = (EddiSessionEvent){event->change, at[0], at[1], at[2]};
}

static void expect_seen(const SeenEvents *seen, size_t index, EddiSessionChange change,
                        const char *session, const char *sender, const char *instance) {
  assert_true(index < seen->count);
  const EddiSessionEvent *event = &seen->events[index];
  assert_int_equal(event->change, change);
  assert_string_equal(event->session, session);
  assert_string_equal(event->sender, sender);
  assert_string_equal(event->instance, instance);
}

static void test_link_event_json(void **state) {
  EddiSessionEvent started = {EDDI_SESSION_STARTED, "p", "anonymous", "emacs-test"};
  char *text = eddi_link_event_json(&started);
  assert_string_equal(text, "{\"event\":\"started\",\"session\":\"p\",\"sender\":"
                            "\"anonymous\",\"instance\":\"emacs-test\"}");
  SeenEvents seen = {0};
  assert_int_equal(eddi_link_event_read(text, strlen(text), 1024, see_event, &seen), 0);
  free(text);
  EddiSessionEvent ended = {EDDI_SESSION_ENDED, "p", "ann", "two"};
  text = eddi_link_event_json(&ended);
  assert_int_equal(eddi_link_event_read(text, strlen(text), 1024, see_event, &seen), 0);
  free(text);
  assert_int_equal(seen.count, 2);
  expect_seen(&seen, 0, EDDI_SESSION_STARTED, "p", "anonymous", "emacs-test");
  expect_seen(&seen, 1, EDDI_SESSION_ENDED, "p", "ann", "two");

  /* A kind of event this build does not know is skipped; a broken one is
   * refused. */
  const char *moved = "{\"event\":\"moved\",\"session\":\"p\",\"sender\":\"a\",\"instance\":\"i\"}";
  assert_int_equal(eddi_link_event_read(moved, strlen(moved), 1024, see_event, &seen), 0);
  const char *no_instance = "{\"event\":\"started\",\"session\":\"p\",\"sender\":\"a\"}";
  assert_int_equal(eddi_link_event_read(no_instance, strlen(no_instance), 1024, see_event, &seen),
                   EDDI_LINK_EINVAL);
  assert_int_equal(eddi_link_event_read("{\"event\":", 10, 1024, see_event, &seen),
                   EDDI_LINK_EINVAL);
  assert_int_equal(seen.count, 2);
}

/* A workspace folder for an engine; removed by the caller (rmdir). */
static char *make_workspace(void) {
  static char dir[] = "/tmp/eddi-server-parts-XXXXXX";
  strcpy(dir + strlen(dir) - 6, "XXXXXX");
  return mkdtemp(dir);
}

static void test_link_sync_answer(void **state) {
  char *root = make_workspace();
  assert_non_null(root);
  char error[256];
  EddiEngine *engine = eddi_engine_new(root, NULL, error, sizeof error);
  assert_non_null(engine);
  assert_int_equal(eddi_engine_set_instance(engine, "one"), 0);
  EddiRequest start = {.sender = "ann", .text = "Start s", .len = 7};
  EddiReply reply;
  eddi_request_exec(engine, &start, &reply);
  assert_true(reply.items[0].ok);
  eddi_reply_free(&reply);

  char *answer = eddi_link_sync_answer_json(engine, "one");
  assert_string_equal(answer,
                      "{\"instance\":\"one\",\"sessions\":[{\"session\":\"s\",\"sender\":\"ann\"}]}");
  SeenEvents seen = {0};
  assert_int_equal(eddi_link_sync_answer_read(answer, strlen(answer), 1024, see_event, &seen), 0);
  free(answer);
  assert_int_equal(seen.count, 1);
  expect_seen(&seen, 0, EDDI_SESSION_STARTED, "s", "ann", "one");
  assert_int_equal(eddi_link_sync_answer_read("{\"instance\":\"x\"}", 16, 1024, see_event, &seen),
                   EDDI_LINK_EINVAL);

  /* What another instance's event does to routing here. */
  EddiSessionEvent remote = {EDDI_SESSION_STARTED, "t", "bob", "two"};
  assert_int_equal(eddi_engine_note_remote_session(engine, &remote), 0);
  EddiRequest status = {.session = "t", .text = "Status", .len = 6};
  eddi_request_exec(engine, &status, &reply);
  assert_string_equal(reply.items[0].text, "Fail \"Session t lives on two\"");
  eddi_reply_free(&reply);
  EddiRequest end = {.sender = "ann", .text = "End", .len = 3};
  eddi_request_exec(engine, &end, &reply);
  eddi_reply_free(&reply);
  eddi_engine_free(engine);
  rmdir(root);
}

static void test_link_subjects_and_backoff(void **state) {
  char subject[EDDI_LINK_SUBJECT_MAX];
  eddi_link_instance_subject(subject, sizeof subject, "emacs-1");
  assert_string_equal(subject, "eddi.emacs-1.cmd");
  assert_true(eddi_link_instance_valid("build_7-a"));
  assert_false(eddi_link_instance_valid("a.b"));
  assert_false(eddi_link_instance_valid(""));
  /* BASE doubled per round up to MAX, plus jitter below JITTER. */
  unsigned seed = 1;
  int64_t base[] = {0, 50, 100, 200, 400, 800, 1600, 2000, 2000};
  for (int attempts = 1; attempts <= 8; attempts++) {
    int64_t delay = eddi_link_reconnect_delay(attempts, &seed);
    assert_true(delay >= base[attempts]);
    assert_true(delay < base[attempts] + EDDI_LINK_RECONNECT_JITTER_MS);
  }
}

/* ------------------------------------------------------ the link: identity */

/* --identity subject: the user is the subject's third token, never empty. */
static void test_link_identity_subjects(void **state) {
  char subject[EDDI_LINK_SUBJECT_MAX], user[EDDI_SENDER_NAME_MAX + 1];
  eddi_link_identity_subject(subject, sizeof subject, "alice", NULL);
  assert_string_equal(subject, "eddi.u.alice.cmd");
  eddi_link_identity_subject(subject, sizeof subject, "alice", "alpha");
  assert_string_equal(subject, "eddi.u.alice.alpha.cmd");
  assert_true(eddi_link_identity_of("eddi.u.alice.cmd", user, sizeof user));
  assert_string_equal(user, "alice");
  assert_true(eddi_link_identity_of("eddi.u.bob.alpha.cmd", user, sizeof user));
  assert_string_equal(user, "bob");
  const char *not_users[] = {"eddi.cmd", "eddi.alpha.cmd", "eddi.u..cmd", "eddi.u.alice", "eddi.u."};
  for (size_t i = 0; i < sizeof not_users / sizeof not_users[0]; i++)
    assert_false(eddi_link_identity_of(not_users[i], user, sizeof user));
  char small[4];
  assert_false(eddi_link_identity_of("eddi.u.alice.cmd", small, sizeof small));
}

/* ------------------------------------------------------ the link: credentials */

/* What the embedded default writes, a client reads back: mode 0600, the
 * URL named; a file others may read, or a bad one, is refused. */
static void test_link_credentials_file(void **state) {
  char dir[] = "/tmp/eddi-credentials-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/nats-client.json", dir);
  char why[EDDI_LINK_FAIL_MAX];
  EddiLinkCredentials written = {.url = "nats://127.0.0.1:4222", .user = "client",
                                 .password = "0123abcd"};
  assert_int_equal(eddi_link_credentials_write(path, &written, why, sizeof why), 0);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
  EddiLinkCredentials read;
  assert_int_equal(eddi_link_credentials_read(path, &read, why, sizeof why), 0);
  assert_string_equal(read.url, "nats://127.0.0.1:4222");
  assert_string_equal(read.user, "client");
  assert_string_equal(read.password, "0123abcd");
  assert_null(read.token);
  assert_true(eddi_link_credentials_fit(&read, "nats://127.0.0.1:4222"));
  assert_false(eddi_link_credentials_fit(&read, "nats://127.0.0.1:4223"));
  EddiLinkOptions options = {.url = "nats://127.0.0.1:4222"};
  eddi_link_credentials_apply(&read, &options);
  assert_string_equal(options.user, "client");
  assert_string_equal(options.password, "0123abcd");
  eddi_link_credentials_free(&read);

  chmod(path, 0640);
  assert_int_equal(eddi_link_credentials_read(path, &read, why, sizeof why), EDDI_LINK_EINVAL);
  assert_non_null(strstr(why, "readable by others (mode 640)"));
  const char *half = "{\"user\": \"client\"}";
  assert_int_equal(eddi_link_secret_file_write(path, half, strlen(half), why, sizeof why), 0);
  assert_int_equal(eddi_link_credentials_read(path, &read, why, sizeof why), EDDI_LINK_EINVAL);
  assert_non_null(strstr(why, "\"user\" and \"password\" go together"));
  unlink(path);
  assert_int_equal(eddi_link_credentials_read(path, &read, why, sizeof why), EDDI_LINK_ENOENT);
  rmdir(dir);
}

/* ------------------------------------------------------ the sender policy */

/* The options' lists, as the host hands them to the engine: read-only
 * senders are allowed and may only read. */
static void test_read_only_sender(void **state) {
  char *root = make_workspace();
  assert_non_null(root);
  char text_path[512];
  snprintf(text_path, sizeof text_path, "%s/a.txt", root);
  FILE *text = fopen(text_path, "w");
  assert_non_null(text);
  fputs("x\n", text);
  fclose(text);
  static char *allowed[] = {"ann"}, *readers[] = {"rita"};
  ServerOptions options = {.root = root, .max_queue = 4, .max_message_bytes = 1024,
                           .allow = {allowed, 1}, .read_only = {readers, 1}};
  EngineHost host;
  char error[256];
  assert_int_equal(engine_host_init(&host, &options, "test", error, sizeof error), SERVER_OK);
  log_set_requests(false);
  /* A script is judged by its statements: one that only flags may run. */
  struct {
    const char *sender, *text, *first;
  } cases[] = {
      {"rita", "Start r\n# a comment\n\n  List", "Ok, Instance test"},
      {"rita", "Start r2\nopen create b.txt", "Fail \"Sender rita may only read, not run Open Create\""},
      {"ann", "Start a\nOpen Create b.txt", "Ok, Instance test"},
      {"eve", "Status", "Fail \"Sender eve is not allowed\""},
      {"rita", "{ foreach file matching \"*.txt\" { flag \"seen\" } }",
       "Ok, Script completed: 1 file flagged, Flagged: a.txt:0:0 seen"},
      {"rita", "{\nforeach file matching \"*.txt\" { flag \"seen\" }\nforeach import { remove }\n}",
       "Fail \"Sender rita may only read, not run remove\""},
      {"rita", "foreach file matching \"*.txt\" { Insert \"x\" }", "Fail \"Sender rita may only read, not run Insert\""},
      {"rita", "{ if contains \"x\" { Refactor RenameSymbol a b } }",
       "Fail \"Sender rita may only read, not run Refactor RenameSymbol\""},
      {"rita", "{ foreach file matching \"*.txt\" { Status } }",
       "Ok, Script completed: 1 command, Notes: Ok: Session r, No file"},
      {"rita", "{ foreach file matching \"*.txt\" { flag \"seen\" }",
       "Fail \"Script line 1:48: expected '}' to close the '{' at 1:1, found the end of the script\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    HostRequest request = {"test", {.sender = cases[i].sender, .text = cases[i].text,
                                    .len = strlen(cases[i].text), .name_instance = true}};
    EddiReply reply;
    engine_host_exec(&host, &request, &reply);
    assert_string_equal(reply.items[0].text, cases[i].first);
    eddi_reply_free(&reply);
  }
  engine_host_destroy(&host);
  unlink("b.txt");
  char created[512];
  snprintf(created, sizeof created, "%s/b.txt", root);
  unlink(created);
  unlink(text_path);
  rmdir(root);
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

/* The security settings: --identity takes body or subject (subject only
 * with an external server), --audit-subject needs NATS. */
static void test_options_security(void **state) {
  ServerOptions options;
  bool help = false;
  char error[256] = "";
  char *good[] = {"eddi-server", "--nats", "nats://h:4222", "--identity", "subject", "--state",
                  "/tmp/s", "--audit", "off", "--audit-subject", "eddi.audit", NULL};
  assert_int_equal(options_parse(&options, 11, good, &help, error, sizeof error), SERVER_OK);
  assert_true(options_identity_from_subject(&options));
  assert_true(options_audit_off(&options));
  assert_string_equal(options.state_dir, "/tmp/s");
  assert_string_equal(options.audit_subject, "eddi.audit");
  options_free(&options);
  struct {
    int argc;
    char *argv[6];
    const char *error;
  } bad[] = {
      {5, {"eddi-server", "--nats", "u", "--identity", "header"},
       "--identity is body or subject, not 'header'"},
      {3, {"eddi-server", "--identity", "subject"},
       "--identity subject needs --nats: the users are the server's"},
      {4, {"eddi-server", "--stdio", "--audit-subject", "a"},
       "--audit-subject needs NATS (--nats, or the embedded default)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(options_parse(&options, bad[i].argc, bad[i].argv, &help, error, sizeof error),
                     SERVER_EINVAL);
    assert_string_equal(error, bad[i].error);
    options_free(&options);
  }
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
  assert_string_equal(call->call.path, "a.py");
  assert_int_equal(call->call.edit_count, 1);
  assert_string_equal(call->call.edits[0].old_string, "x");
  assert_true(call->call.edits[0].replace_all);
  edit_call_free(call);

  assert_int_equal(parse_call(EDIT_CALL_REPLACE,
                              "{\"file_path\":\"a.py\",\"edits\":[{\"old_string\":\"a\",\"new_string\":"
                              "\"b\"},{\"old_string\":\"c\",\"new_string\":\"\"}]}",
                              NULL, 1000, &call, why, sizeof why),
                   SERVER_OK);
  assert_int_equal(call->call.edit_count, 2);
  assert_int_equal(call->call.edits[1].new_len, 0);
  assert_false(call->call.edits[1].replace_all);
  edit_call_free(call);
}

/* refactor and preview: the target is the call's text. */
static void test_edit_call_refactor_forms(void **state) {
  EditCall *call = NULL;
  char why[256];
  assert_int_equal(parse_call(EDIT_CALL_PREVIEW,
                              "{\"operation\":\"RenameSymbol\",\"target\":\"a b.py:f\","
                              "\"new_name\":\"g\",\"unsure\":true,\"sender\":\"s\"}",
                              "sender", 1000, &call, why, sizeof why),
                   SERVER_OK);
  assert_int_equal(call->call.kind, EDDI_CALL_PREVIEW);
  assert_string_equal(call->call.operation, "RenameSymbol");
  assert_string_equal(call->call.text, "a b.py:f");
  assert_string_equal(call->call.new_name, "g");
  assert_true(call->call.unsure);
  edit_call_free(call);
  assert_string_equal(edit_call_command(EDIT_CALL_REFACTOR), "Refactor");
  assert_string_equal(edit_call_command(EDIT_CALL_PREVIEW), "Preview");
  assert_true(edit_call_reads(EDIT_CALL_PREVIEW));
  assert_false(edit_call_reads(EDIT_CALL_REFACTOR));
  expect_refused(EDIT_CALL_REFACTOR, "{\"operation\":\"R\",\"target\":\"f\",\"new\":\"g\"}",
                 "Unknown argument new; this call takes: operation target new_name unsure leave delegate "
                 "unchecked");
  /* new_name is optional: inlining takes none. */
  expect_refused(EDIT_CALL_REFACTOR, "{\"operation\":\"R\",\"new_name\":\"g\"}",
                 "Missing argument: target");
  expect_refused(EDIT_CALL_PREVIEW,
                 "{\"operation\":\"R\",\"target\":\"f\",\"new_name\":\"g\",\"unsure\":1}",
                 "Argument unsure must be true or false");
}

/* code.query: the set is the call's text, files its glob, path its one
 * file; it reads, as Show does. */
static void test_edit_call_query_forms(void **state) {
  (void)state;
  EditCall *call = NULL;
  char why[256];
  assert_int_equal(parse_call(EDIT_CALL_QUERY,
                              "{\"query\":\"methods in Cart where complexity > 2\","
                              "\"files\":\"src/**/*.py\",\"offset\":500,\"limit\":20,"
                              "\"text\":true,\"sender\":\"s\"}",
                              "sender", 1000, &call, why, sizeof why),
                   SERVER_OK);
  assert_int_equal(call->call.kind, EDDI_CALL_QUERY);
  assert_string_equal(call->call.text, "methods in Cart where complexity > 2");
  assert_string_equal(call->call.glob, "src/**/*.py");
  assert_null(call->call.path);
  assert_int_equal(call->call.offset, 500);
  assert_int_equal(call->call.limit, 20);
  assert_true(call->call.with_text);
  edit_call_free(call);
  assert_int_equal(parse_call(EDIT_CALL_QUERY, "{\"query\":\"import\",\"path\":\"a b.py\"}",
                              NULL, 1000, &call, why, sizeof why),
                   SERVER_OK);
  assert_string_equal(call->call.path, "a b.py");
  assert_false(call->call.with_text);
  edit_call_free(call);
  assert_string_equal(edit_call_command(EDIT_CALL_QUERY), "Show");
  assert_true(edit_call_reads(EDIT_CALL_QUERY));
  expect_refused(EDIT_CALL_QUERY, "{\"files\":\"*.py\"}", "Missing argument: query");
  expect_refused(EDIT_CALL_QUERY, "{\"query\":\"function\",\"glob\":\"*.py\"}",
                 "Unknown argument glob; this call takes: query path files offset limit text");
  expect_refused(EDIT_CALL_QUERY, "{\"query\":\"function\",\"limit\":-1}",
                 "Argument limit must be a whole number >= 0");
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
    .read = true, .grep = true, .edit = true, .patch = true, .update = true, .refactor = true};

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
    /* The tools that return data add their outputSchema (mcp_resources.h). */
    json_object *output = mcp_tool_output_schema(info->name);
    assert_int_equal(json_object_object_length(entry), output ? 4 : 3);
    if (output) {
      assert_true(json_object_object_get_ex(entry, "outputSchema", &member));
      assert_true(json_object_equal(member, output));
      json_object_put(output);
    }
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
/* The `eddi` tool takes exactly {text: string}, as its schema says. */
static void test_mcp_tool_text_arguments(void **state) {
  struct {
    const char *arguments, *why;
  } cases[] = {
      {"{\"text\": 42}", "Argument text must be a string"},
      {"{}", "Missing argument: text"},
      {"{\"text\": null}", "Missing argument: text"},
      {"{\"text\": \"Status\", \"path\": \"a\"}", "Unknown argument path; this call takes: text"},
      {"[1]", "Arguments must be an object"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_object *arguments = json_tokener_parse(cases[i].arguments);
    const char *text = NULL;
    size_t len = 0;
    char why[256] = "";
    assert_int_equal(mcp_tool_text(arguments, &text, &len, why, sizeof why), SERVER_EINVAL);
    assert_string_equal(why, cases[i].why);
    json_object_put(arguments);
  }
  json_object *arguments = json_tokener_parse("{\"text\": \"Status\"}");
  const char *text = NULL;
  size_t len = 0;
  char why[256];
  assert_int_equal(mcp_tool_text(arguments, &text, &len, why, sizeof why), SERVER_OK);
  assert_string_equal(text, "Status");
  json_object_put(arguments);
}

static void test_mcp_tools_follow_features(void **state) {
  /* script is EddiSpeak text, like eddi: every host has it. */
  expect_tool_names(&every_feature,
                    "eddi read grep edit apply_patch file_update replace refactor preview script");
  expect_tool_names(&(HostFeatures){.refactor = true}, "eddi refactor preview script");
  expect_tool_names(&(HostFeatures){0}, "eddi script");
  expect_tool_names(&(HostFeatures){.read = true, .grep = true}, "eddi read grep script");
  expect_tool_names(&(HostFeatures){.patch = true, .update = true},
                    "eddi apply_patch file_update replace script");
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
      cmocka_unit_test(test_parse_json),
      cmocka_unit_test(test_fail_line_escapes),
      cmocka_unit_test(test_link_body_plain_and_json),
      cmocka_unit_test(test_link_body_refusals),
      cmocka_unit_test(test_link_body_strict_json),
      cmocka_unit_test(test_link_event_json),
      cmocka_unit_test(test_link_sync_answer),
      cmocka_unit_test(test_link_identity_subjects),
      cmocka_unit_test(test_link_credentials_file),
      cmocka_unit_test(test_link_subjects_and_backoff),
      cmocka_unit_test(test_read_only_sender),
      cmocka_unit_test(test_options_config_file),
      cmocka_unit_test(test_options_refused),
      cmocka_unit_test(test_options_security),
      cmocka_unit_test(test_edit_call_replace_forms),
      cmocka_unit_test(test_edit_call_refactor_forms),
      cmocka_unit_test(test_edit_call_query_forms),
      cmocka_unit_test(test_edit_call_refusals),
      cmocka_unit_test(test_mcp_tools_are_the_table),
      cmocka_unit_test(test_mcp_tools_follow_features),
      cmocka_unit_test(test_mcp_tool_text_arguments),
  };
  return cmocka_run_group_tests_name("server_parts", tests, NULL, NULL);
}
