/* test_lsp.c - the language server client (lsp/): framing, positions in
 * utf-8 and utf-16, and the client against the stand-in server
 * test/lsp/lsp-stub.py (real LSP framing, misbehaving on purpose). */
#include "unit_support.h"

#include <time.h>

#include "core/process.h"
#include "lsp/lsp_client.h"

/* ---------------------------------------------------------------- framing */

/* The messages of the bytes fed one at a time, joined by '|'. */
static void framing__read_bytewise(const char *stream, size_t len, StrBuf *out) {
  EddiLspReader reader;
  eddi_lsp_reader_init(&reader, 1024);
  EddiError err = {0};
  for (size_t i = 0; i < len; i++) {
    eddi_lsp_reader_feed(&reader, stream + i, 1);
    const char *body;
    size_t body_len;
    int rc;
    while ((rc = eddi_lsp_reader_next(&reader, &body, &body_len, &err)) == 1) {
      if (out->len) eddi_strbuf_putc(out, '|');
      eddi_strbuf_append(out, body, body_len);
    }
    assert_int_equal(rc, 0);
  }
  eddi_lsp_reader_free(&reader);
}

static void test_framing_reads_messages_split_anywhere(void **state) {
  long live = unit_live();
  const char stream[] = "Content-Length: 7\r\n\r\n{\"a\":1}"
                        "content-length:2\r\nContent-Type: application/vscode-jsonrpc; "
                        "charset=utf-8\r\n\r\n[]"
                        "Content-Length: 0\r\n\r\n";
  StrBuf out = {0};
  framing__read_bytewise(stream, sizeof stream - 1, &out);
  assert_string_equal(out.data, "{\"a\":1}|[]|"); /* the last one empty */
  eddi_strbuf_free(&out);
  unit_assert_no_leak(live);
}

static void test_framing_reads_several_messages_of_one_read(void **state) {
  EddiLspReader reader;
  eddi_lsp_reader_init(&reader, 1024);
  StrBuf stream = {0};
  eddi_lsp_frame(&stream, "{\"id\":1}", 8);
  eddi_lsp_frame(&stream, "{\"id\":22}", 9);
  eddi_strbuf_puts(&stream, "Content-Length: 5\r\n\r\n{\"i"); /* the third in part */
  eddi_lsp_reader_feed(&reader, stream.data, stream.len);
  const char *body;
  size_t len;
  EddiError err = {0};
  assert_int_equal(eddi_lsp_reader_next(&reader, &body, &len, &err), 1);
  assert_int_equal(len, 8);
  assert_memory_equal(body, "{\"id\":1}", 8);
  assert_int_equal(eddi_lsp_reader_next(&reader, &body, &len, &err), 1);
  assert_int_equal(len, 9);
  assert_memory_equal(body, "{\"id\":22}", 9);
  assert_int_equal(eddi_lsp_reader_next(&reader, &body, &len, &err), 0);
  eddi_lsp_reader_feed(&reader, "d\"}", 3);
  assert_int_equal(eddi_lsp_reader_next(&reader, &body, &len, &err), 1);
  assert_memory_equal(body, "{\"id\"}", 5);
  eddi_strbuf_free(&stream);
  eddi_lsp_reader_free(&reader);
}

/* The error of the first message of stream. */
static int framing__error(const char *stream, size_t max, char *what) {
  EddiLspReader reader;
  eddi_lsp_reader_init(&reader, max);
  eddi_lsp_reader_feed(&reader, stream, strlen(stream));
  const char *body;
  size_t len;
  EddiError err = {0};
  int rc = eddi_lsp_reader_next(&reader, &body, &len, &err);
  strcpy(what, rc < 0 ? err.what : "");
  eddi_lsp_reader_free(&reader);
  return rc;
}

static void test_framing_refuses_what_is_not_lsp(void **state) {
  char what[sizeof ((EddiError *)0)->what];
  assert_int_equal(framing__error("Content-Type: x\r\n\r\n{}", 100, what), EDDI_EINVAL);
  assert_string_equal(what, "LSP message without Content-Length");
  assert_int_equal(framing__error("Content-Length: 1x\r\n\r\n{}", 100, what), EDDI_EINVAL);
  assert_string_equal(what, "LSP Content-Length is not a number");
  assert_int_equal(framing__error("Content-Length:\r\n\r\n", 100, what), EDDI_EINVAL);
  assert_string_equal(what, "LSP Content-Length without a number");
  assert_int_equal(framing__error("hello world\r\n\r\n", 100, what), EDDI_EINVAL);
  assert_string_equal(what, "LSP header without a name and a colon");
  assert_int_equal(framing__error("Content-Length: 101\r\n\r\n", 100, what), EDDI_ETOOBIG);
  assert_string_equal(what, "LSP message over 100 bytes");
  assert_int_equal(framing__error("Content-Length: 99999999999999999999999\r\n\r\n", 100, what),
                   EDDI_ETOOBIG);
  char endless[EDDI_LSP_HEADER_MAX + 2];
  memset(endless, 'X', sizeof endless - 1);
  endless[sizeof endless - 1] = '\0';
  assert_int_equal(framing__error(endless, 100, what), EDDI_ETOOBIG);
  assert_string_equal(what, "LSP headers over 1024 bytes");
  /* A header block short of its end is no error yet. */
  assert_int_equal(framing__error("Content-Length: 2\r\n", 100, what), 0);
}

/* ---------------------------------------------------------------- positions */

#define POS_OF(text, offset, enc) eddi_lsp_position_of(text, strlen(text), offset, enc)
#define OFFSET_OF(text, line, ch, enc) \
  eddi_lsp_offset_of(text, strlen(text), (EddiLspPosition){line, ch}, enc)

static void assert_position(EddiLspPosition pos, size_t line, size_t character) {
  assert_int_equal(pos.line, line);
  assert_int_equal(pos.character, character);
}

/* "a😀b" is 1 + 4 + 1 bytes: 1 + 2 + 1 UTF-16 units; "中文x" 3 + 3 + 1
 * bytes, 1 + 1 + 1 units. */
static void test_utf16_positions_of_emoji_and_cjk(void **state) {
  const char *text = "a😀b\n中文x\r\nlast";
  /* line 0 */
  assert_position(POS_OF(text, 0, EDDI_LSP_UTF16), 0, 0);
  assert_position(POS_OF(text, 1, EDDI_LSP_UTF16), 0, 1);
  assert_position(POS_OF(text, 5, EDDI_LSP_UTF16), 0, 3); /* b: after a surrogate pair */
  assert_position(POS_OF(text, 6, EDDI_LSP_UTF16), 0, 4); /* the line's end */
  assert_position(POS_OF(text, 3, EDDI_LSP_UTF16), 0, 1); /* inside 😀: its start */
  /* line 1, CJK, ended by \r\n */
  assert_position(POS_OF(text, 7, EDDI_LSP_UTF16), 1, 0);
  assert_position(POS_OF(text, 10, EDDI_LSP_UTF16), 1, 1);
  assert_position(POS_OF(text, 13, EDDI_LSP_UTF16), 1, 2); /* x */
  assert_position(POS_OF(text, 14, EDDI_LSP_UTF16), 1, 3); /* before \r */
  assert_position(POS_OF(text, 15, EDDI_LSP_UTF16), 1, 3); /* the \r counts for nothing */
  assert_position(POS_OF(text, 16, EDDI_LSP_UTF16), 2, 0);
  assert_position(POS_OF(text, 99, EDDI_LSP_UTF16), 2, 4); /* past the end: the end */
  /* and back */
  assert_int_equal(OFFSET_OF(text, 0, 0, EDDI_LSP_UTF16), 0);
  assert_int_equal(OFFSET_OF(text, 0, 1, EDDI_LSP_UTF16), 1);
  assert_int_equal(OFFSET_OF(text, 0, 2, EDDI_LSP_UTF16), 1); /* half a pair: the 😀 */
  assert_int_equal(OFFSET_OF(text, 0, 3, EDDI_LSP_UTF16), 5);
  assert_int_equal(OFFSET_OF(text, 0, 4, EDDI_LSP_UTF16), 6);
  assert_int_equal(OFFSET_OF(text, 0, 40, EDDI_LSP_UTF16), 6); /* past the line: its end */
  assert_int_equal(OFFSET_OF(text, 1, 2, EDDI_LSP_UTF16), 13);
  assert_int_equal(OFFSET_OF(text, 1, 9, EDDI_LSP_UTF16), 14); /* before \r */
  assert_int_equal(OFFSET_OF(text, 2, 4, EDDI_LSP_UTF16), 20);
  assert_int_equal(OFFSET_OF(text, 7, 0, EDDI_LSP_UTF16), 20); /* past the last line */
}

static void test_utf8_positions_count_bytes(void **state) {
  const char *text = "a😀b\n中文x";
  assert_position(POS_OF(text, 5, EDDI_LSP_UTF8), 0, 5);
  assert_position(POS_OF(text, 13, EDDI_LSP_UTF8), 1, 6);
  assert_position(POS_OF(text, 9, EDDI_LSP_UTF8), 1, 0); /* inside 中: its start */
  assert_int_equal(OFFSET_OF(text, 0, 5, EDDI_LSP_UTF8), 5);
  assert_int_equal(OFFSET_OF(text, 0, 3, EDDI_LSP_UTF8), 1); /* inside 😀: its start */
  assert_int_equal(OFFSET_OF(text, 1, 6, EDDI_LSP_UTF8), 13);
}

/* Every character offset of a mixed text goes to a position and back to
 * itself, in both encodings; bytes that are not UTF-8 count one unit. */
static void test_positions_round_trip(void **state) {
  const char *text = "x = \"😀🎉\" # 日本語 ok\n\tß€𝄞\n\xff\xfe end\n";
  size_t len = strlen(text);
  for (int enc = EDDI_LSP_UTF16; enc <= EDDI_LSP_UTF8; enc++)
    for (size_t at = 0; at <= len; at++) {
      if (at < len && (text[at] & 0xC0) == 0x80) continue; /* not a character's start */
      EddiLspPosition pos = eddi_lsp_position_of(text, len, at, (EddiLspEncoding)enc);
      assert_int_equal(eddi_lsp_offset_of(text, len, pos, (EddiLspEncoding)enc), at);
    }
  assert_position(POS_OF(text, strlen("x = \"😀🎉\" # 日本語"), EDDI_LSP_UTF16), 0, 16);
  assert_position(POS_OF(text, strlen("x = \"😀🎉\" # 日本語 ok\n\tß€𝄞"), EDDI_LSP_UTF16), 1, 5);
  assert_position(POS_OF(text, strlen("x = \"😀🎉\" # 日本語 ok\n\tß€𝄞\n\xff\xfe"), EDDI_LSP_UTF16),
                  2, 2);
}

/* ---------------------------------------------------------------- the client */

static EddiLspServer *client__stub(const char *mode, unsigned deadline_ms) {
  char command[PATH_MAX + 64];
  snprintf(command, sizeof command, "%s %s", EDDI_LSP_STUB, mode);
  EddiLspServerSpec spec = {.name = "lsp-stub", .command = command, .language_id = "c",
                            .root = "/tmp", .deadline_ms = deadline_ms};
  return eddi_lsp_server_new(&spec);
}

static void test_client_converts_utf16_diagnostics_and_follows_changes(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  EddiLspServer *server = client__stub("well", 5000);
  const char *before = "int a;\n/* 😀 中 */ x;\n";
  EddiLspText text = {"/tmp/lsp-unit-a.c", before, strlen(before)};
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), 0);
  assert_int_equal(diags.len, 1);
  /* The stub counts 😀 as two units: x is at UTF-16 character 11, at
   * eddi's column 10 (characters). */
  assert_int_equal(diags.items[0].line, 1);
  assert_int_equal(diags.items[0].col, 10);
  assert_int_equal(diags.items[0].offset, strlen("int a;\n/* 😀 中 */ "));
  assert_int_equal(diags.items[0].severity, EDDI_LSP_ERROR);
  assert_string_equal(diags.items[0].message, "x is not allowed in version 1");
  eddi_lsp_diagnostics_free(&diags);
  /* Other bytes: a didChange (version 2), answered for that version. */
  const char *after = "int a;\n/* 😀 中 */ y; x;\n";
  text.text = after, text.len = strlen(after);
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), 0);
  assert_int_equal(diags.len, 1);
  assert_int_equal(diags.items[0].col, 13);
  assert_string_equal(diags.items[0].message, "x is not allowed in version 2");
  eddi_lsp_diagnostics_free(&diags);
  /* The same bytes again: nothing sent, the kept diagnostics of version 2. */
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), 0);
  assert_string_equal(diags.items[0].message, "x is not allowed in version 2");
  eddi_lsp_diagnostics_free(&diags);
  /* Closed in eddi: didClose at the next use, then a didOpen, of a version
   * no earlier publication can carry (3). */
  eddi_lsp_server_forget(server, text.path);
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, EDDI_LSP_CLOSE, &diags, &err), 0);
  assert_string_equal(diags.items[0].message, "x is not allowed in version 3");
  eddi_lsp_diagnostics_free(&diags);
  /* Shown with close: closed after, so opened again (4). */
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, EDDI_LSP_CLOSE, &diags, &err), 0);
  assert_string_equal(diags.items[0].message, "x is not allowed in version 4");
  eddi_lsp_diagnostics_free(&diags);
  /* Settled: opened (5), then the same bytes shown again as a new version
   * (6), and only the diagnostics of that version are taken. */
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, EDDI_LSP_SETTLE, &diags, &err), 0);
  assert_int_equal(diags.len, 1);
  assert_string_equal(diags.items[0].message, "x is not allowed in version 6");
  eddi_lsp_diagnostics_free(&diags);
  assert_int_equal(eddi_lsp_server_starts(server), 1);
  eddi_lsp_server_free(server);
  unit_assert_no_leak(live);
}

/* References, definition and hover: the server's UTF-16 places come back
 * as eddi's (0-based line, col in characters, byte offset), counted in the
 * text shown for an open document and in the file on disk for one that is
 * not open. */
static void test_client_converts_references_definition_and_hover(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  char disk[64];
  snprintf(disk, sizeof disk, "/tmp/lsp-unit-nav-%ld.c", (long)getpid());
  FILE *f = fopen(disk, "w");
  assert_non_null(f);
  fputs("/* 😀 */ x;\n", f);
  fclose(f);
  setenv("LSP_STUB_DISK", disk, 1);
  EddiLspServer *server = client__stub("well", 5000);
  const char *shown = "int a;\n/* 中😀 */ x = x;\n";
  EddiLspText text = {"/tmp/lsp-unit-nav.c", shown, strlen(shown)};
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), 0);
  eddi_lsp_diagnostics_free(&diags);
  size_t second_x = strlen("int a;\n/* 中😀 */ x = ");
  EddiLspLocations found = {0};
  assert_int_equal(eddi_lsp_server_references(server, text.path, second_x, &found, &err), 0);
  assert_int_equal(found.len, 3);
  assert_string_equal(found.items[0].path, text.path);
  assert_true(found.items[0].open);
  assert_int_equal(found.items[0].line, 1);
  assert_int_equal(found.items[0].col, 9); /* UTF-16 character 10 */
  assert_int_equal(found.items[0].offset, strlen("int a;\n/* 中😀 */ "));
  assert_int_equal(found.items[1].col, 13);
  assert_int_equal(found.items[1].offset, second_x);
  assert_string_equal(found.items[2].path, disk);
  assert_false(found.items[2].open);
  assert_int_equal(found.items[2].line, 0);
  assert_int_equal(found.items[2].col, 8); /* UTF-16 character 9, counted on disk */
  assert_int_equal(found.items[2].offset, strlen("/* 😀 */ "));
  eddi_lsp_locations_free(&found);
  /* A LocationLink: its targetSelectionRange. */
  assert_int_equal(eddi_lsp_server_definition(server, text.path, second_x, &found, &err), 0);
  assert_int_equal(found.len, 1);
  assert_int_equal(found.items[0].line, 1);
  assert_int_equal(found.items[0].col, 9);
  eddi_lsp_locations_free(&found);
  char *hover = NULL;
  assert_int_equal(eddi_lsp_server_hover(server, text.path, second_x, &hover, &err), 0);
  assert_string_equal(hover, "x: int");
  eddi_free(hover);
  assert_int_equal(eddi_lsp_server_hover(server, text.path, 0, &hover, &err), 0);
  assert_null(hover);
  /* A document never shown: refused, naming the server and the file. */
  assert_int_equal(eddi_lsp_server_definition(server, "/tmp/lsp-unit-never.c", 0, &found, &err),
                   EDDI_ESTATE);
  assert_string_equal(err.what,
                      "lsp-stub: lsp-unit-never.c is not open for textDocument/definition");
  assert_int_equal(found.len, 0);
  eddi_lsp_server_free(server);
  unsetenv("LSP_STUB_DISK");
  unlink(disk);
  unit_assert_no_leak(live);
}

static void test_client_restarts_a_server_that_stopped(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  char marker[] = "/tmp/eddi-lsp-marker-XXXXXX";
  int fd = mkstemp(marker);
  assert_true(fd >= 0);
  close(fd);
  unlink(marker); /* the stub dies once, while the marker is missing */
  char mode[sizeof marker + 16];
  snprintf(mode, sizeof mode, "die-once %s", marker);
  EddiLspServer *server = client__stub(mode, 5000);
  EddiLspText text = {"/tmp/lsp-unit-b.c", "x\n", 2};
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
  assert_string_equal(err.what, "lsp-stub stopped (exit status 3) during initialize");
  assert_int_equal(diags.len, 0);
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), 0);
  assert_int_equal(diags.len, 1);
  assert_int_equal(eddi_lsp_server_starts(server), 2);
  eddi_lsp_diagnostics_free(&diags);
  eddi_lsp_server_free(server);
  unlink(marker);
  unit_assert_no_leak(live);
}

/* A server that stops at every start: the first restart is at once, the
 * second waits a back-off (1 s, then 2 s), uses meanwhile failing at once
 * without a start. */
static void test_client_backs_off_a_server_that_keeps_stopping(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  EddiLspServer *server = client__stub("die", 5000);
  EddiLspText text = {"/tmp/lsp-unit-e.c", "x\n", 2};
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  for (unsigned start = 1; start <= 2; start++) {
    assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
    assert_string_equal(err.what, "lsp-stub stopped (exit status 3) during initialize");
    assert_int_equal(eddi_lsp_server_starts(server), start);
  }
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
  assert_string_equal(err.what, "lsp-stub stopped 2 times in a row soon after starting; eddi "
                                "starts it again in 1 s");
  assert_int_equal(eddi_lsp_server_starts(server), 2);
  nanosleep(&(struct timespec){1, 100000000L}, NULL);
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
  assert_string_equal(err.what, "lsp-stub stopped (exit status 3) during initialize");
  assert_int_equal(eddi_lsp_server_starts(server), 3);
  assert_int_equal(eddi_lsp_server_wait_ready(server, &err), EDDI_EIO);
  assert_string_equal(err.what, "lsp-stub stopped 3 times in a row soon after starting; eddi "
                                "starts it again in 2 s");
  assert_int_equal(eddi_lsp_server_starts(server), 3);
  eddi_lsp_server_free(server);
  unit_assert_no_leak(live);
}

static void test_client_waits_for_progress_within_its_deadline(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  EddiLspServer *server = client__stub("never-ready", 3000);
  EddiError err = {0};
  assert_int_equal(eddi_lsp_server_wait_ready(server, &err), EDDI_EIO);
  assert_string_equal(err.what, "lsp-stub was not ready within 3000 ms (the LSP deadline): eddi-initialize");
  eddi_lsp_server_free(server);
  server = client__stub("well", 5000);
  assert_int_equal(eddi_lsp_server_wait_ready(server, &err), 0);
  eddi_lsp_server_free(server);
  unit_assert_no_leak(live);
}

static void test_client_cancels_past_the_deadline(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  EddiLspServer *server = client__stub("honour-cancel", 200);
  EddiLspText text = {"/tmp/lsp-unit-c.c", "x\n", 2};
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  long long start = eddi_process_now_ms();
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
  assert_string_equal(err.what,
                      "lsp-stub: initialize got no answer within 200 ms (the LSP deadline); cancelled");
  assert_true(eddi_process_now_ms() - start < 200 + EDDI_LSP_CANCEL_GRACE_MS);
  eddi_lsp_server_free(server);
  server = client__stub("ignore-cancel", 200);
  start = eddi_process_now_ms();
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
  assert_string_equal(err.what, "lsp-stub: initialize got no answer within 200 ms (the LSP "
                                "deadline); it ignored the cancel and was stopped");
  assert_true(eddi_process_now_ms() - start >= 200 + EDDI_LSP_CANCEL_GRACE_MS);
  assert_int_equal(eddi_lsp_server_starts(server), 1);
  eddi_lsp_server_free(server);
  unit_assert_no_leak(live);
}

static void test_client_names_a_program_it_cannot_start(void **state) {
  long live = unit_live();
  EddiLspServerSpec spec = {.name = "nowhere", .command = "/nonexistent/lsp-server --stdio",
                            .language_id = "c", .root = "/tmp", .deadline_ms = 1000};
  EddiLspServer *server = eddi_lsp_server_new(&spec);
  EddiLspText text = {"/tmp/lsp-unit-d.c", "", 0};
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  assert_int_equal(eddi_lsp_server_diagnose(server, &text, 1, 0, &diags, &err), EDDI_EIO);
  assert_string_equal(err.what,
                      "Cannot start nowhere (/nonexistent/lsp-server): No such file or directory");
  eddi_lsp_server_free(server);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- changes */

/* Pieces of the texts the change tests are made of: multi-byte characters
 * of every length, UTF-16 surrogate pairs, both line ends. */
static const char *const change_pieces[] = {"a", "x", "é", "中", "😀", "\n", "\r\n", " ", "()"};
#define CHANGE_PIECES (sizeof change_pieces / sizeof change_pieces[0])

static void change__random_text(UnitRandom *rnd, StrBuf *out, size_t pieces) {
  eddi_strbuf_clear(out);
  for (size_t i = 0; i < pieces; i++)
    eddi_strbuf_puts(out, change_pieces[unit_random_below(rnd, CHANGE_PIECES)]);
}

/* An offset of text at or after at where a character starts, not between
 * "\r" and "\n": where an editor's edit begins and ends. */
static size_t change__boundary(const StrBuf *text, size_t at) {
  while (at < text->len && (((unsigned char)text->data[at] & 0xC0) == 0x80 ||
                            (at > 0 && text->data[at - 1] == '\r' && text->data[at] == '\n')))
    at++;
  return at;
}

/* after with one random stretch of before replaced by random pieces. */
static void change__edit(UnitRandom *rnd, const StrBuf *before, StrBuf *after) {
  size_t cut = change__boundary(before, unit_random_below(rnd, before->len + 1));
  size_t drop =
      change__boundary(before, cut + unit_random_below(rnd, before->len - cut + 1)) - cut;
  StrBuf inserted = {0};
  change__random_text(rnd, &inserted, unit_random_below(rnd, 4));
  eddi_strbuf_clear(after);
  eddi_strbuf_append(after, before->data, cut);
  eddi_strbuf_append(after, inserted.data, inserted.len);
  eddi_strbuf_append(after, before->data + cut + drop, before->len - cut - drop);
  eddi_strbuf_free(&inserted);
}

static bool change__exact(const char *text, size_t len, size_t offset, EddiLspEncoding encoding) {
  return eddi_lsp_offset_of(text, len, eddi_lsp_position_of(text, len, offset, encoding),
                            encoding) == offset;
}

static void test_change_leaves_out_the_shared_ends_at_exact_positions(void **state) {
  /* A character of 😀 changed to 😃: they share three bytes, but the
   * change starts at the character. */
  const char *before = "a😀b", *after = "a😃b";
  EddiLspChange c = eddi_lsp_change_of(before, strlen(before), after, strlen(after), EDDI_LSP_UTF16);
  assert_int_equal(c.start, 1);
  assert_int_equal(c.before_end, 5);
  assert_int_equal(c.after_end, 5);
  /* "\n" to "\r\n": the change does not start between "\r" and "\n". */
  before = "ab\r\ncd", after = "ab\r\r\ncd";
  c = eddi_lsp_change_of(before, strlen(before), after, strlen(after), EDDI_LSP_UTF16);
  assert_int_equal(c.start, 2);
  assert_int_equal(c.before_end, 4);
  assert_int_equal(c.after_end, 5);
  /* The same text: an empty change at its end. */
  c = eddi_lsp_change_of("abc", 3, "abc", 3, EDDI_LSP_UTF8);
  assert_int_equal(c.start, 3);
  assert_int_equal(c.before_end, 3);
  /* Random texts and edits: the change rebuilds after from before, and
   * both its ends are offsets their positions name again. */
  UnitRandom rnd = {0x1AC0DE};
  StrBuf old = {0}, now = {0}, rebuilt = {0};
  for (int round = 0; round < 4000; round++) {
    change__random_text(&rnd, &old, unit_random_below(&rnd, 12));
    change__edit(&rnd, &old, &now);
    EddiLspEncoding encoding = round % 2 ? EDDI_LSP_UTF8 : EDDI_LSP_UTF16;
    c = eddi_lsp_change_of(old.data, old.len, now.data, now.len, encoding);
    assert_true(c.start <= c.before_end && c.start <= c.after_end);
    assert_true(change__exact(old.data, old.len, c.start, encoding));
    assert_true(change__exact(old.data, old.len, c.before_end, encoding));
    eddi_strbuf_clear(&rebuilt);
    eddi_strbuf_append(&rebuilt, old.data, c.start);
    eddi_strbuf_append(&rebuilt, now.data + c.start, c.after_end - c.start);
    eddi_strbuf_append(&rebuilt, old.data + c.before_end, old.len - c.before_end);
    assert_int_equal(rebuilt.len, now.len);
    assert_memory_equal(rebuilt.data, now.data, now.len);
  }
  eddi_strbuf_free(&old);
  eddi_strbuf_free(&now);
  eddi_strbuf_free(&rebuilt);
}

static void test_positions_agree_only_without_lone_cr_and_bad_utf8(void **state) {
  assert_true(eddi_lsp_positions_agree("a\r\nb\n😀", strlen("a\r\nb\n😀")));
  assert_false(eddi_lsp_positions_agree("a\rb", 3));
  assert_false(eddi_lsp_positions_agree("ab\r", 3));
  assert_false(eddi_lsp_positions_agree("a\xff", 2));
  assert_true(eddi_lsp_positions_agree("", 0));
}

/* A server that takes ranged didChanges holds, after each of 150 random
 * edits of emoji, CJK and CRLF lines, exactly eddi's text: the stub applies
 * each change as the protocol says and writes down what it holds. A text
 * with a lone "\r" goes whole. */
static void client__follows_random_edits(const char *mode) {
  char work[PATH_MAX], kept[PATH_MAX + 16], changes[PATH_MAX + 16];
  unit_workspace_new(work);
  snprintf(kept, sizeof kept, "%s/kept", work);
  snprintf(changes, sizeof changes, "%s/changes", work);
  setenv("LSP_STUB_TEXT", kept, 1);
  setenv("LSP_STUB_CHANGES", changes, 1);
  EddiLspServer *server = client__stub(mode, 5000);
  UnitRandom rnd = {0xED17};
  StrBuf text = {0}, next = {0};
  change__random_text(&rnd, &text, 30);
  EddiLspDiagnostics diags = {0};
  EddiError err = {0};
  for (int round = 0; round <= 150; round++) {
    if (round == 150) eddi_strbuf_puts(&text, "lone\rcr");
    EddiLspText shown = {"/tmp/lsp-unit-changes.c", text.data, text.len};
    int rc = eddi_lsp_server_diagnose(server, &shown, 1, 0, &diags, &err);
    if (rc != 0) fail_msg("round %d: %s", round, err.what);
    eddi_lsp_diagnostics_free(&diags);
    size_t len = 0;
    char *held = unit_read_file(kept, &len);
    assert_int_equal(len, text.len);
    assert_memory_equal(held, text.data, len);
    free(held);
    change__edit(&rnd, &text, &next);
    StrBuf swap = text;
    text = next, next = swap;
  }
  size_t len = 0;
  char *kinds = unit_read_file(changes, &len);
  /* Each round changed the text but those its edit left as it was. */
  size_t ranged = 0, whole = 0;
  for (char *line = strtok(kinds, "\n"); line; line = strtok(NULL, "\n"))
    strcmp(line, "ranged") == 0 ? ranged++ : strcmp(line, "whole") == 0 ? whole++ : 0;
  assert_true(ranged > 100);
  assert_int_equal(whole, 1);
  free(kinds);
  assert_int_equal(eddi_lsp_server_starts(server), 1);
  eddi_lsp_server_free(server);
  eddi_strbuf_free(&text);
  eddi_strbuf_free(&next);
  unsetenv("LSP_STUB_TEXT");
  unsetenv("LSP_STUB_CHANGES");
  unit_remove_tree(work);
}

static void test_client_sends_ranged_changes_in_utf16(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  client__follows_random_edits("incremental");
  unit_assert_no_leak(live);
}

static void test_client_sends_ranged_changes_in_utf8(void **state) {
  if (!eddi_process_found("python3")) skip();
  long live = unit_live();
  client__follows_random_edits("incremental-utf8");
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_framing_reads_messages_split_anywhere),
      cmocka_unit_test(test_framing_reads_several_messages_of_one_read),
      cmocka_unit_test(test_framing_refuses_what_is_not_lsp),
      cmocka_unit_test(test_utf16_positions_of_emoji_and_cjk),
      cmocka_unit_test(test_utf8_positions_count_bytes),
      cmocka_unit_test(test_positions_round_trip),
      cmocka_unit_test(test_client_converts_utf16_diagnostics_and_follows_changes),
      cmocka_unit_test(test_client_converts_references_definition_and_hover),
      cmocka_unit_test(test_client_restarts_a_server_that_stopped),
      cmocka_unit_test(test_client_backs_off_a_server_that_keeps_stopping),
      cmocka_unit_test(test_client_waits_for_progress_within_its_deadline),
      cmocka_unit_test(test_client_cancels_past_the_deadline),
      cmocka_unit_test(test_client_names_a_program_it_cannot_start),
      cmocka_unit_test(test_change_leaves_out_the_shared_ends_at_exact_positions),
      cmocka_unit_test(test_positions_agree_only_without_lone_cr_and_bad_utf8),
      cmocka_unit_test(test_client_sends_ranged_changes_in_utf16),
      cmocka_unit_test(test_client_sends_ranged_changes_in_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
