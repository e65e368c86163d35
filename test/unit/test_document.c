/* test_document.c - edits, undo groups, cursor and marks, listeners
 * (document.h).
 *
 * The documents here sit on a tiny backend that keeps its own copy of the
 * text in characters (as the Emacs buffer would), records each call and can
 * be told to refuse, so the tests see exactly what the backend is told. */
#include "unit_support.h"

#include "core/document.h"
#include "core/utf8.h"

/* ---------------------------------------------------------------- backend */

typedef struct {
  EddiBackend base;
  StrBuf mirror;    /* the backing text, edited by character positions */
  int calls;        /* replace calls, refused ones included */
  int succeed_left; /* replace calls to allow before refusing; -1: all */
  bool refuse_once; /* after one refusal, allow everything again */
  size_t last_start_char;
  size_t last_end_char;
  int end_groups;
  int saves;
} FakeBackend;

static int fake_replace(EddiBackend *base, size_t start_char, size_t end_char,
                        const char *text, size_t len, EddiError *err) {
  FakeBackend *self = (FakeBackend *)base;
  self->calls++;
  self->last_start_char = start_char;
  self->last_end_char = end_char;
  if (self->succeed_left == 0) {
    if (self->refuse_once) self->succeed_left = -1;
    return eddi_error_set(err, EDDI_ESTATE, "Buffer is read-only");
  }
  if (self->succeed_left > 0) self->succeed_left--;
  const char *bytes = self->mirror.data;
  size_t start = eddi_utf8_skip_chars(bytes, self->mirror.len, start_char);
  size_t end = eddi_utf8_skip_chars(bytes, self->mirror.len, end_char);
  StrBuf next = {0};
  eddi_strbuf_append(&next, bytes, start);
  eddi_strbuf_append(&next, text, len);
  eddi_strbuf_append(&next, bytes + end, self->mirror.len - end);
  eddi_strbuf_free(&self->mirror);
  self->mirror = next;
  return 0;
}

static int fake_save(EddiBackend *base, EddiDoc *doc, size_t *bytes, EddiError *err) {
  FakeBackend *self = (FakeBackend *)base;
  self->saves++;
  *bytes = eddi_text_len(&doc->text);
  return 0;
}

static void fake_end_group(EddiBackend *base) { ((FakeBackend *)base)->end_groups++; }

static void fake_destroy(EddiBackend *base) {
  FakeBackend *self = (FakeBackend *)base;
  eddi_strbuf_free(&self->mirror);
  eddi_free(self);
}

static const EddiBackendVtable fake_vtable = {
    .name = "fake",
    .replace = fake_replace,
    .save = fake_save,
    .end_group = fake_end_group,
    .destroy = fake_destroy,
};

/* A document over a fresh fake backend; *backend is borrowed (the document
 * owns it). */
static EddiDoc *doc_new(const char *text, FakeBackend **backend) {
  FakeBackend *fake = eddi_calloc(1, sizeof *fake);
  fake->base.vtable = &fake_vtable;
  fake->succeed_left = -1;
  eddi_strbuf_puts(&fake->mirror, text);
  *backend = fake;
  return eddi_doc_new("notes.txt", &fake->base, text, strlen(text), false, 100);
}

/* The document's text is expected, and the backend's copy agrees. */
static void assert_doc_text(const EddiDoc *doc, const FakeBackend *fake, const char *expected) {
  char *text = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
  assert_string_equal(text, expected);
  eddi_free(text);
  assert_string_equal(fake->mirror.data, expected);
}

static void replace(EddiDoc *doc, size_t start, size_t end, const char *text) {
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace(doc, start, end, text, strlen(text), &err), 0);
}

static size_t undo(EddiDoc *doc, size_t count) {
  EddiError err;
  size_t done = 99;
  assert_int_equal(eddi_doc_undo(doc, count, &done, &err), 0);
  return done;
}

static size_t redo(EddiDoc *doc, size_t count) {
  EddiError err;
  size_t done = 99;
  assert_int_equal(eddi_doc_redo(doc, count, &done, &err), 0);
  return done;
}

/* ---------------------------------------------------------------- undo */

static void test_undo_redo_groups(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("hello\nworld\n", &fake);
  /* Command 1: two edits, one undo step. */
  doc->cursor = 1;
  replace(doc, 0, 5, "HELLO");
  replace(doc, 6, 11, "WORLD");
  doc->cursor = 11;
  eddi_doc_end_group(doc);
  assert_int_equal(fake->end_groups, 1);
  /* Command 2: one insert. */
  replace(doc, 0, 0, "> ");
  doc->cursor = 2;
  eddi_doc_end_group(doc);
  eddi_doc_end_group(doc); /* nothing open: no second call */
  assert_int_equal(fake->end_groups, 2);
  assert_int_equal(doc->undo.len, 2);
  assert_int_equal(doc->undo.items[0].edits.len, 2);
  assert_doc_text(doc, fake, "> HELLO\nWORLD\n");

  assert_int_equal(undo(doc, 1), 1);
  assert_doc_text(doc, fake, "HELLO\nWORLD\n");
  assert_int_equal(doc->cursor, 11); /* where command 2 started */
  assert_int_equal(undo(doc, 5), 1);
  assert_doc_text(doc, fake, "hello\nworld\n");
  assert_int_equal(doc->cursor, 1);

  EddiError err;
  size_t done = 99;
  assert_int_equal(eddi_doc_undo(doc, 1, &done, &err), EDDI_ENOENT);
  assert_string_equal(err.what, "Nothing to undo");
  assert_int_equal(done, 0);

  assert_int_equal(redo(doc, 1), 1);
  assert_doc_text(doc, fake, "HELLO\nWORLD\n");
  assert_int_equal(doc->cursor, 11); /* where command 1 ended */
  assert_int_equal(redo(doc, 3), 1);
  assert_doc_text(doc, fake, "> HELLO\nWORLD\n");
  assert_int_equal(doc->cursor, 2);
  assert_int_equal(eddi_doc_redo(doc, 1, &done, &err), EDDI_ENOENT);
  assert_string_equal(err.what, "Nothing to redo");

  /* A new edit after an undo drops the redo history. */
  assert_int_equal(undo(doc, 1), 1);
  assert_int_equal(doc->redo.len, 1);
  replace(doc, 12, 12, "!");
  eddi_doc_end_group(doc);
  assert_int_equal(doc->redo.len, 0);
  assert_doc_text(doc, fake, "HELLO\nWORLD\n!");
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_empty_replace_records_nothing(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("abc", &fake);
  replace(doc, 1, 1, "");
  assert_int_equal(fake->calls, 0);
  assert_int_equal(doc->undo.len, 0);
  assert_false(doc->group_open);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_undo_limit_drops_oldest(void **state) {
  long live = unit_live();
  EddiDoc *doc = eddi_doc_new("x", NULL, "", 0, false, 2);
  for (int i = 0; i < 3; i++) {
    EddiError err;
    assert_int_equal(eddi_doc_replace(doc, (size_t)i, (size_t)i, &"abc"[i], 1, &err), 0);
    eddi_doc_end_group(doc);
  }
  assert_int_equal(doc->undo.len, 2);
  assert_int_equal(undo(doc, 3), 2);
  char *text = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
  assert_string_equal(text, "a");
  eddi_free(text);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_revert_group(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("one\ntwo\n", &fake);
  replace(doc, 0, 3, "ONE");
  eddi_doc_end_group(doc);
  doc->cursor = 4;
  replace(doc, 4, 7, "2");
  replace(doc, 0, 0, "# ");
  doc->cursor = 0;
  assert_doc_text(doc, fake, "# ONE\n2\n");
  eddi_doc_revert_group(doc);
  assert_doc_text(doc, fake, "ONE\ntwo\n");
  assert_int_equal(doc->cursor, 4);
  assert_false(doc->group_open);
  assert_int_equal(doc->undo.len, 1); /* the earlier command is intact */
  assert_int_equal(doc->redo.len, 0);
  eddi_doc_revert_group(doc); /* nothing open: no-op */
  assert_doc_text(doc, fake, "ONE\ntwo\n");
  assert_int_equal(undo(doc, 1), 1);
  assert_doc_text(doc, fake, "one\ntwo\n");
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_modified_follows_saved_state(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("a", &fake);
  EddiError err;
  size_t bytes = 0;
  assert_false(eddi_doc_modified(doc));
  replace(doc, 1, 1, "b");
  assert_true(eddi_doc_modified(doc)); /* even with the group still open */
  eddi_doc_end_group(doc);
  assert_int_equal(undo(doc, 1), 1);
  assert_false(eddi_doc_modified(doc)); /* back at the state it was opened in */
  assert_int_equal(redo(doc, 1), 1);
  assert_true(eddi_doc_modified(doc));

  replace(doc, 2, 2, "c"); /* left open: save closes it */
  assert_int_equal(eddi_doc_save(doc, &bytes, &err), 0);
  assert_int_equal(bytes, 3);
  assert_false(doc->group_open);
  assert_false(eddi_doc_modified(doc));
  replace(doc, 3, 3, "d");
  eddi_doc_end_group(doc);
  assert_true(eddi_doc_modified(doc));
  assert_int_equal(undo(doc, 1), 1);
  assert_false(eddi_doc_modified(doc)); /* undone back to the save */
  assert_int_equal(undo(doc, 1), 1);
  assert_true(eddi_doc_modified(doc)); /* past the save */
  assert_int_equal(redo(doc, 1), 1);
  assert_false(eddi_doc_modified(doc));
  eddi_doc_free(doc);

  /* A new file is modified until its first save. */
  doc = eddi_doc_new("new.txt", NULL, "", 0, true, 10);
  assert_true(eddi_doc_modified(doc));
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- marks */

/* Marks and the cursor move like Emacs markers: before an edit they stay,
 * after it they shift, inside a replaced range they go to its start, and an
 * insert at a mark leaves the mark before the new text. */
static void test_cursor_and_marks_shift(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("0123456789", &fake);
  eddi_doc_set_mark(doc, "before", 2);
  eddi_doc_set_mark(doc, "at_start", 3);
  eddi_doc_set_mark(doc, "inside", 5);
  eddi_doc_set_mark(doc, "at_end", 6);
  eddi_doc_set_mark(doc, "after", 8);
  doc->cursor = 4;
  replace(doc, 3, 6, "XY"); /* "012XY6789" */
  assert_int_equal(eddi_doc_find_mark(doc, "before")->offset, 2);
  assert_int_equal(eddi_doc_find_mark(doc, "at_start")->offset, 3);
  assert_int_equal(eddi_doc_find_mark(doc, "inside")->offset, 3);
  assert_int_equal(eddi_doc_find_mark(doc, "at_end")->offset, 5);
  assert_int_equal(eddi_doc_find_mark(doc, "after")->offset, 7);
  assert_int_equal(doc->cursor, 3);

  doc->cursor = 2;
  replace(doc, 2, 2, "++"); /* "01++2XY6789" */
  assert_int_equal(eddi_doc_find_mark(doc, "before")->offset, 2);
  assert_int_equal(eddi_doc_find_mark(doc, "at_start")->offset, 5);
  assert_int_equal(eddi_doc_find_mark(doc, "after")->offset, 9);
  assert_int_equal(doc->cursor, 2);

  replace(doc, 0, 11, ""); /* everything goes: all marks to 0 */
  assert_int_equal(eddi_doc_find_mark(doc, "after")->offset, 0);
  assert_int_equal(eddi_doc_find_mark(doc, "before")->offset, 0);

  eddi_doc_set_mark(doc, "before", 0); /* set again: still one mark */
  assert_int_equal(doc->marks.len, 5);
  assert_true(eddi_doc_remove_mark(doc, "inside"));
  assert_false(eddi_doc_remove_mark(doc, "inside"));
  assert_null(eddi_doc_find_mark(doc, "inside"));
  assert_int_equal(doc->marks.len, 4);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_reload_clamps_cursor_and_marks(void **state) {
  long live = unit_live();
  EddiDoc *doc = eddi_doc_new("r.txt", NULL, "abcdef", 6, false, 10);
  doc->cursor = 6;
  eddi_doc_set_mark(doc, "m", 5);
  eddi_doc_set_mark(doc, "n", 1);
  eddi_doc_reload(doc, "xyz", 3);
  assert_int_equal(doc->cursor, 3);
  assert_int_equal(eddi_doc_find_mark(doc, "m")->offset, 3);
  assert_int_equal(eddi_doc_find_mark(doc, "n")->offset, 1);
  assert_int_equal(doc->undo.len, 0);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- backend */

static void test_backend_gets_character_positions(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("héllo wörld", &fake); /* é and ö take 2 bytes */
  replace(doc, 7, 13, "日本");                    /* "wörld": bytes 7..13, chars 6..11 */
  assert_int_equal(fake->last_start_char, 6);
  assert_int_equal(fake->last_end_char, 11);
  assert_doc_text(doc, fake, "héllo 日本");
  replace(doc, 13, 13, "!"); /* the end: byte 13, character 8 */
  assert_int_equal(fake->last_start_char, 8);
  assert_int_equal(fake->last_end_char, 8);
  replace(doc, 1, 3, "e"); /* é */
  assert_int_equal(fake->last_start_char, 1);
  assert_int_equal(fake->last_end_char, 2);
  assert_doc_text(doc, fake, "hello 日本!");
  eddi_doc_end_group(doc);
  assert_int_equal(undo(doc, 1), 1); /* undo speaks characters too */
  assert_doc_text(doc, fake, "héllo wörld");
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

static void test_failing_backend_changes_nothing(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("abc\ndef\n", &fake);
  replace(doc, 0, 0, "> ");
  eddi_doc_end_group(doc);
  doc->cursor = 6;
  eddi_doc_set_mark(doc, "m", 7);
  fake->succeed_left = 0;
  long before = eddi_alloc_live();
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace(doc, 2, 8, "X", 1, &err), EDDI_ESTATE);
  assert_string_equal(err.what, "Buffer is read-only");
  assert_int_equal(eddi_alloc_live(), before);
  assert_doc_text(doc, fake, "> abc\ndef\n");
  assert_int_equal(doc->cursor, 6);
  assert_int_equal(eddi_doc_find_mark(doc, "m")->offset, 7);
  assert_int_equal(doc->undo.len, 1);
  assert_false(doc->group_open);
  assert_int_equal(doc->redo.len, 0);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* A group whose second edit the backend refuses during undo: the first is
 * put back, so the group is undone whole or not at all. (The backend takes
 * the putting back; one that refused that too would leave the text and the
 * history out of step.) */
static void test_failing_backend_during_undo(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("abc", &fake);
  replace(doc, 0, 1, "A");
  replace(doc, 2, 3, "C");
  doc->cursor = 3;
  eddi_doc_end_group(doc);
  fake->succeed_left = 1;
  fake->refuse_once = true;
  EddiError err;
  size_t done = 99;
  assert_int_equal(eddi_doc_undo(doc, 1, &done, &err), EDDI_ESTATE);
  assert_int_equal(fake->calls, 2 + 3); /* two edits, then undo C, refuse A, redo C */
  assert_int_equal(done, 0);
  assert_string_equal(err.what, "Buffer is read-only");
  assert_doc_text(doc, fake, "AbC");
  assert_int_equal(doc->undo.len, 1);
  assert_int_equal(doc->redo.len, 0);
  assert_int_equal(doc->cursor, 3);
  assert_int_equal(undo(doc, 1), 1);
  assert_doc_text(doc, fake, "abc");
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- batches */

/* Replace All's path: one pass, the backend told last to first in character
 * positions, cursor and marks shifted, one undo step taken back whole. */
static void test_replace_many(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("é1 x2 x3\n", &fake);
  doc->cursor = 10;                /* the end */
  eddi_doc_set_mark(doc, "in", 5); /* inside "x2" */
  const TextReplacement edits[] = {{2, 3, "one", 3}, {4, 6, "y", 1}, {8, 9, "3!", 2}};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace_many(doc, edits, 3, &err), 0);
  assert_doc_text(doc, fake, "éone y x3!\n");
  assert_int_equal(fake->calls, 3);
  assert_int_equal(fake->last_start_char, 1); /* the first edit came last, in characters */
  assert_int_equal(doc->cursor, 12);          /* moved by all three */
  assert_int_equal(eddi_doc_find_mark(doc, "in")->offset, 6); /* collapsed to "y" */
  eddi_doc_end_group(doc);
  assert_int_equal(undo(doc, 1), 1);
  assert_doc_text(doc, fake, "é1 x2 x3\n");
  assert_int_equal(redo(doc, 1), 1);
  assert_doc_text(doc, fake, "éone y x3!\n");
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* Undo and Redo of a large Replace All take the group back in one pass
 * (document.c's batch replay): the bytes, the backend's copy, the cursor
 * and a mark come back exactly, for edits that grow, shrink, delete and
 * insert at an empty range, next to multibyte characters. */
static void test_undo_redo_of_large_replace_many(void **state) {
  long live = unit_live();
  enum { LINES = 3000 };
  StrBuf text = {0};
  for (int i = 0; i < LINES; i++) eddi_strbuf_printf(&text, "é fox %d x\n", i);
  FakeBackend *fake;
  EddiDoc *doc = doc_new(text.data, &fake);
  doc->cursor = text.len / 2;
  eddi_doc_set_mark(doc, "m", text.len / 3);
  size_t cursor = doc->cursor;
  TextReplacement *edits = calloc(LINES, sizeof *edits);
  static const char *const with[] = {"cat", "", "a much longer replacement", "ü"};
  size_t count = 0;
  for (size_t at = 0, line = 0; at < text.len; line++) {
    const char *fox = strstr(text.data + at, "fox");
    if (!fox) break;
    size_t start = (size_t)(fox - text.data), end = start + (line % 5 == 4 ? 0 : 3);
    edits[count++] = (TextReplacement){start, end, with[line % 4], strlen(with[line % 4])};
    at = start + 3;
  }
  StrBuf expected = {0};
  size_t at = 0;
  for (size_t i = 0; i < count; i++) {
    eddi_strbuf_append(&expected, text.data + at, edits[i].start - at);
    eddi_strbuf_append(&expected, edits[i].bytes, edits[i].len);
    at = edits[i].end;
  }
  eddi_strbuf_append(&expected, text.data + at, text.len - at);
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace_many(doc, edits, count, &err), 0);
  size_t cursor_after = doc->cursor, mark_after = eddi_doc_find_mark(doc, "m")->offset;
  eddi_doc_end_group(doc);
  assert_doc_text(doc, fake, expected.data);
  for (int round = 0; round < 2; round++) {
    assert_int_equal(undo(doc, 1), 1);
    assert_doc_text(doc, fake, text.data);
    assert_int_equal(doc->cursor, cursor);
    assert_int_equal(redo(doc, 1), 1);
    assert_doc_text(doc, fake, expected.data);
    assert_int_equal(doc->cursor, cursor_after);
    assert_int_equal(eddi_doc_find_mark(doc, "m")->offset, mark_after);
  }
  eddi_doc_free(doc);
  free(edits);
  eddi_strbuf_free(&text);
  eddi_strbuf_free(&expected);
  unit_assert_no_leak(live);
}

/* Groups of single edits: bottom-up ones replay in one pass, top-down ones
 * edit by edit; both come back to the same bytes. */
static void test_undo_of_edit_groups_either_way(void **state) {
  long live = unit_live();
  for (int bottom_up = 0; bottom_up < 2; bottom_up++) {
    StrBuf text = {0};
    for (int i = 0; i < 40; i++) eddi_strbuf_printf(&text, "line %02d\n", i);
    FakeBackend *fake;
    EddiDoc *doc = doc_new(text.data, &fake);
    for (int i = 0; i < 40; i++) {
      size_t start = eddi_text_line_start(&doc->text, (size_t)(bottom_up ? 39 - i : i));
      replace(doc, start, start + 4, i % 2 ? "L" : "LINE!");
    }
    eddi_doc_end_group(doc);
    char *after = eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
    assert_int_equal(undo(doc, 1), 1);
    assert_doc_text(doc, fake, text.data);
    assert_int_equal(redo(doc, 1), 1);
    assert_doc_text(doc, fake, after);
    eddi_free(after);
    eddi_doc_free(doc);
    eddi_strbuf_free(&text);
  }
  unit_assert_no_leak(live);
}

/* A backend that refuses the second call: the first is taken back and
 * nothing changes, no undo step is left. */
static void test_replace_many_refused(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("a-b-c", &fake);
  fake->succeed_left = 1;
  fake->refuse_once = true;
  const TextReplacement edits[] = {{1, 2, "+", 1}, {3, 4, "+", 1}};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace_many(doc, edits, 2, &err), EDDI_ESTATE);
  assert_doc_text(doc, fake, "a-b-c");
  assert_int_equal(doc->undo.len, 0);
  assert_false(doc->group_open);
  eddi_doc_free(doc);
  unit_assert_no_leak(live);
}

/* ---------------------------------------------------------------- listeners */

/* A listener that writes what it hears to a log shared with others, one
 * line an event: "a edit 0 5 6 'hello'>'HELLO!'" (the bytes the range holds
 * when it is told, then what replaces them). */
typedef struct {
  EddiDocListener listener;
  const char *name;
  StrBuf *log;
  bool free_self; /* on_free frees this struct (it was allocated) */
} LogListener;

static void log_edit(void *context, const EddiDoc *doc, const EddiDocChange *change) {
  LogListener *self = context;
  char *was = eddi_text_dup(&doc->text, change->start, change->old_end);
  eddi_strbuf_printf(self->log, "%s edit %zu %zu %zu '%s'>'%.*s'\n", self->name, change->start,
                     change->old_end, change->new_end, was,
                     (int)(change->new_end - change->start), change->inserted);
  eddi_free(was);
}

static void log_reset(void *context, EddiDoc *doc) {
  LogListener *self = context;
  eddi_strbuf_printf(self->log, "%s reset %zu\n", self->name, eddi_text_len(&doc->text));
}

static void log_free(void *context, EddiDoc *doc) {
  LogListener *self = context;
  /* Already off the list: unlisten finds nothing. */
  eddi_strbuf_printf(self->log, "%s free %s\n", self->name,
                     eddi_doc_unlisten(doc, &self->listener) ? "listed" : "off");
  if (self->free_self) eddi_free(self);
}

static void log_listen(EddiDoc *doc, LogListener *self, const char *name, StrBuf *log) {
  *self = (LogListener){.name = name, .log = log};
  self->listener = (EddiDocListener){.on_edit = log_edit, .on_reset = log_reset,
                                     .on_free = log_free, .context = self};
  eddi_doc_listen(doc, &self->listener);
}

/* The log so far is expected; it starts again empty. */
static void assert_log(StrBuf *log, const char *expected) {
  assert_string_equal(log->data ? log->data : "", expected);
  eddi_strbuf_clear(log);
}

/* Each edit, told before the text changes, with its offsets: a replace,
 * an insert, a delete, a batch (last edit first, all in the text before
 * it), the undo and redo of it, a change mirrored from the backing text. */
static void test_listener_hears_each_edit(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("hello world", &fake);
  StrBuf log = {0};
  LogListener a;
  log_listen(doc, &a, "a", &log);
  replace(doc, 0, 5, "HELLO!");
  assert_log(&log, "a edit 0 5 6 'hello'>'HELLO!'\n");
  replace(doc, 12, 12, "!");
  assert_log(&log, "a edit 12 12 13 ''>'!'\n");
  replace(doc, 5, 6, "");
  assert_log(&log, "a edit 5 6 5 '!'>''\n");
  assert_doc_text(doc, fake, "HELLO world!");
  const TextReplacement edits[] = {{0, 1, "J", 1}, {6, 11, "there", 5}};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace_many(doc, edits, 2, &err), 0);
  assert_log(&log, "a edit 6 11 11 'world'>'there'\n"
                   "a edit 0 1 1 'H'>'J'\n");
  eddi_doc_end_group(doc);
  assert_int_equal(undo(doc, 1), 1);
  assert_log(&log, "a edit 0 1 1 'J'>'H'\n"
                   "a edit 6 11 11 'there'>'world'\n"
                   "a edit 5 5 6 ''>'!'\n"
                   "a edit 12 13 12 '!'>''\n"
                   "a edit 0 6 5 'HELLO!'>'hello'\n");
  assert_doc_text(doc, fake, "hello world");
  assert_int_equal(redo(doc, 1), 1);
  assert_log(&log, "a edit 0 5 6 'hello'>'HELLO!'\n"
                   "a edit 12 12 13 ''>'!'\n"
                   "a edit 5 6 5 '!'>''\n"
                   "a edit 6 11 11 'world'>'there'\n"
                   "a edit 0 1 1 'H'>'J'\n");
  eddi_doc_external_replace(doc, 11, 12, "?", 1);
  assert_log(&log, "a edit 11 12 12 '!'>'?'\n");
  eddi_doc_free(doc);
  assert_log(&log, "a free off\n");
  eddi_strbuf_free(&log);
  unit_assert_no_leak(live);
}

/* A wholesale replacement of the text is one reset, told before it, and
 * no edits. */
static void test_listener_hears_reset(void **state) {
  long live = unit_live();
  EddiDoc *doc = eddi_doc_new("notes.txt", NULL, "one\ntwo\n", 8, false, 100);
  StrBuf log = {0};
  LogListener a;
  log_listen(doc, &a, "a", &log);
  eddi_doc_reload(doc, "three\n", 6);
  assert_log(&log, "a reset 8\n");
  EddiText built;
  eddi_text_init(&built);
  eddi_text_set(&built, "thre\n", 5);
  DocEdit *records = eddi_malloc(sizeof *records);
  records[0] = (DocEdit){.start = 4, .removed = eddi_strdup("e"), .removed_len = 1,
                         .inserted = eddi_strdup(""), .inserted_len = 0};
  const TextReplacement edit = {4, 5, "", 0};
  eddi_doc_commit_built(doc, &built, &edit, 1, records);
  assert_log(&log, "a reset 6\n");
  eddi_doc_free(doc);
  assert_log(&log, "a free off\n");
  eddi_strbuf_free(&log);
  unit_assert_no_leak(live);
}

/* Two listeners both hear every event, in the order they came. */
static void test_listeners_hear_in_registration_order(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("abc", &fake);
  StrBuf log = {0};
  LogListener b, a;
  log_listen(doc, &b, "b", &log);
  log_listen(doc, &a, "a", &log);
  replace(doc, 1, 2, "X");
  assert_log(&log, "b edit 1 2 2 'b'>'X'\n"
                   "a edit 1 2 2 'b'>'X'\n");
  const TextReplacement edits[] = {{0, 0, "<", 1}, {3, 3, ">", 1}};
  EddiError err;
  eddi_error_clear(&err);
  assert_int_equal(eddi_doc_replace_many(doc, edits, 2, &err), 0);
  /* Each edit is told to everyone before the next. */
  assert_log(&log, "b edit 3 3 4 ''>'>'\n"
                   "a edit 3 3 4 ''>'>'\n"
                   "b edit 0 0 1 ''>'<'\n"
                   "a edit 0 0 1 ''>'<'\n");
  eddi_doc_reload(doc, "", 0);
  assert_log(&log, "b reset 5\na reset 5\n");
  eddi_doc_free(doc);
  assert_log(&log, "b free off\na free off\n");
  eddi_strbuf_free(&log);
  unit_assert_no_leak(live);
}

/* A listener taken off hears nothing more; the others still do. */
static void test_unlisten_stops_events(void **state) {
  long live = unit_live();
  FakeBackend *fake;
  EddiDoc *doc = doc_new("abc", &fake);
  StrBuf log = {0};
  LogListener a, b, c;
  log_listen(doc, &a, "a", &log);
  log_listen(doc, &b, "b", &log);
  log_listen(doc, &c, "c", &log);
  assert_true(eddi_doc_unlisten(doc, &b.listener));
  assert_false(eddi_doc_unlisten(doc, &b.listener));
  replace(doc, 0, 1, "A");
  assert_log(&log, "a edit 0 1 1 'a'>'A'\nc edit 0 1 1 'a'>'A'\n");
  assert_true(eddi_doc_unlisten(doc, &a.listener));
  assert_true(eddi_doc_unlisten(doc, &c.listener));
  replace(doc, 1, 2, "B");
  eddi_doc_reload(doc, "x", 1);
  eddi_doc_free(doc);
  assert_log(&log, "");
  eddi_strbuf_free(&log);
  unit_assert_no_leak(live);
}

/* Freeing the document tells each listener once, in order, already off the
 * list: one that was allocated frees itself there. */
static void test_free_tells_listeners(void **state) {
  long live = unit_live();
  EddiDoc *doc = eddi_doc_new("notes.txt", NULL, "x", 1, false, 100);
  StrBuf log = {0};
  LogListener a;
  LogListener *owned = eddi_malloc(sizeof *owned);
  log_listen(doc, &a, "a", &log);
  log_listen(doc, owned, "owned", &log);
  owned->free_self = true;
  EddiDocListener quiet = {0}; /* no callbacks at all */
  eddi_doc_listen(doc, &quiet);
  replace(doc, 0, 1, "y");
  assert_log(&log, "a edit 0 1 1 'x'>'y'\nowned edit 0 1 1 'x'>'y'\n");
  eddi_doc_free(doc);
  assert_log(&log, "a free off\nowned free off\n");
  eddi_strbuf_free(&log);
  unit_assert_no_leak(live);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_listener_hears_each_edit),
      cmocka_unit_test(test_listener_hears_reset),
      cmocka_unit_test(test_listeners_hear_in_registration_order),
      cmocka_unit_test(test_unlisten_stops_events),
      cmocka_unit_test(test_free_tells_listeners),
      cmocka_unit_test(test_replace_many),
      cmocka_unit_test(test_replace_many_refused),
      cmocka_unit_test(test_undo_redo_of_large_replace_many),
      cmocka_unit_test(test_undo_of_edit_groups_either_way),
      cmocka_unit_test(test_undo_redo_groups),
      cmocka_unit_test(test_empty_replace_records_nothing),
      cmocka_unit_test(test_undo_limit_drops_oldest),
      cmocka_unit_test(test_revert_group),
      cmocka_unit_test(test_modified_follows_saved_state),
      cmocka_unit_test(test_cursor_and_marks_shift),
      cmocka_unit_test(test_reload_clamps_cursor_and_marks),
      cmocka_unit_test(test_backend_gets_character_positions),
      cmocka_unit_test(test_failing_backend_changes_nothing),
      cmocka_unit_test(test_failing_backend_during_undo),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
