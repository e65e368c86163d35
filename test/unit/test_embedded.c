/* test_embedded.c - an embedder's own backend (eddi_backend.h).
 *
 * A fake embedder keeps each document's text in its own memory, as an
 * editor keeps a buffer: it may differ from the file (unsaved edits), it
 * changes behind eddi's back (the user types), and its save writes the
 * file itself. Only the public headers are used, as the Emacs module does;
 * unit_support.h brings the engine's allocation count. */
#include "unit_support.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eddi.h"
#include "eddi_backend.h"

/* ---------------------------------------------------------------- the fake */

typedef struct {
  char *text; /* malloc'd, NUL-terminated */
  size_t len;
  char *abs_path;
  /* A change behind eddi to report at the next sync: characters
   * [start, end) of the mirror became what the buffer now holds there. */
  bool user_edited;
  size_t user_start, user_end, user_new_end;
} FakeBuffer;

typedef struct {
  int opens, destroys, replaces, syncs, saves, end_groups;
  int save_bytes, saved;     /* the calls of a change of several files */
  bool uncertain;            /* save_bytes cannot tell the bytes */
  bool die_when_saved;       /* saved ends the process: a crash after the renames */
  const char *meanwhile;     /* save_bytes writes this to the file: someone else's change */
  EddiBackendFile last_file; /* the flags of the last open (paths not kept) */
  const char *give;          /* the text open gives; NULL: the file's */
  FakeBuffer *last;
  bool refuse_changed;       /* save refuses a file changed on disk */
  bool hold;                 /* save writes nothing: the editor holds it for review */
  bool reviewed;             /* the review is over: the editor holds nothing back */
  /* A buffer of the user's that no document holds (EddiBackendCopies):
   * the file it visits (a workspace path), its text and whether it holds
   * unsaved edits. */
  const char *copy_rel;
  const char *copy_text;
  bool copy_modified;
} Fake;

static size_t fake_byte_of(const FakeBuffer *buffer, size_t chars) {
  size_t at = 0;
  for (size_t n = 0; at < buffer->len && n < chars; n++) {
    at++;
    while (at < buffer->len && ((unsigned char)buffer->text[at] & 0xC0) == 0x80) at++;
  }
  return at;
}

static void fake_splice(FakeBuffer *buffer, size_t start, size_t end, const char *text,
                        size_t len) {
  char *next = malloc(buffer->len - (end - start) + len + 1);
  memcpy(next, buffer->text, start);
  memcpy(next + start, text, len);
  memcpy(next + start + len, buffer->text + end, buffer->len - end);
  buffer->len = buffer->len - (end - start) + len;
  next[buffer->len] = '\0';
  free(buffer->text);
  buffer->text = next;
}

static Fake *fake_of_ops; /* the running test's; the ops have no context */

static int fake_replace(void *backend, size_t start_char, size_t end_char, const char *text,
                        size_t len, EddiError *err) {
  FakeBuffer *buffer = backend;
  fake_of_ops->replaces++;
  fake_splice(buffer, fake_byte_of(buffer, start_char), fake_byte_of(buffer, end_char), text,
              len);
  return 0;
}

static int fake_sync(void *backend, EddiDoc *doc, EddiError *err) {
  FakeBuffer *buffer = backend;
  fake_of_ops->syncs++;
  if (!buffer->user_edited) return 0;
  buffer->user_edited = false;
  size_t from = fake_byte_of(buffer, buffer->user_start);
  size_t to = fake_byte_of(buffer, buffer->user_new_end);
  return eddi_doc_mirror(doc, buffer->user_start, buffer->user_end, buffer->text + from,
                         to - from, err);
}

static int fake_save(void *backend, EddiDoc *doc, size_t *bytes, EddiError *err) {
  FakeBuffer *buffer = backend;
  fake_of_ops->saves++;
  int rc = fake_sync(backend, doc, err);
  bool changed = false;
  if (rc == 0) rc = eddi_doc_file_check(doc, &changed, err);
  if (rc < 0) return rc;
  if (changed && fake_of_ops->refuse_changed)
    return eddi_error_set(err, EDDI_ESTALE, "File changed on disk since Open");
  if (fake_of_ops->hold) {
    eddi_doc_file_held(doc);
    return 0;
  }
  unit_write_file(buffer->abs_path, buffer->text, buffer->len);
  return eddi_doc_file_saved(doc, bytes, err);
}

/* The editor's own encoding of its text: the bytes as they are. */
static int fake_save_bytes(void *backend, EddiDoc *doc, EddiTextSink *out, EddiError *err) {
  FakeBuffer *buffer = backend;
  fake_of_ops->save_bytes++;
  int rc = fake_sync(backend, doc, err);
  if (rc < 0) return rc;
  if (fake_of_ops->uncertain) return eddi_error_set(err, EDDI_ESTATE, "A hook writes it");
  /* As Emacs's: a held buffer is not written with the others. */
  if (fake_of_ops->hold) return eddi_error_set(err, EDDI_ESTATE, "Held for review");
  if (fake_of_ops->meanwhile)
    unit_write_file(buffer->abs_path, fake_of_ops->meanwhile, strlen(fake_of_ops->meanwhile));
  eddi_text_sink_append(out, buffer->text, buffer->len);
  return 0;
}

static void fake_saved(void *backend) {
  (void)backend;
  fake_of_ops->saved++;
  if (fake_of_ops->die_when_saved) _exit(0);
}

static void fake_end_group(void *backend) { fake_of_ops->end_groups++; }

static bool fake_held(void *backend) {
  (void)backend;
  return !fake_of_ops->reviewed;
}

static void fake_destroy(void *backend) {
  FakeBuffer *buffer = backend;
  fake_of_ops->destroys++;
  if (fake_of_ops->last == buffer) fake_of_ops->last = NULL;
  free(buffer->text);
  free(buffer->abs_path);
  free(buffer);
}

static const EddiBackendOps fake_ops = {
    .replace = fake_replace,
    .sync = fake_sync,
    .save = fake_save,
    .end_group = fake_end_group,
    .destroy = fake_destroy,
    .save_bytes = fake_save_bytes,
    .saved = fake_saved,
    .held = fake_held,
};

static int fake_open(void *context, const EddiBackendFile *file, const EddiBackendOps **ops,
                     void **backend, EddiTextSink *text, EddiError *err) {
  Fake *fake = context;
  fake->opens++;
  fake->last_file = (EddiBackendFile){.exists = file->exists, .bom = file->bom,
                                      .crlf = file->crlf};
  FakeBuffer *buffer = calloc(1, sizeof *buffer);
  buffer->abs_path = strdup(file->abs_path);
  if (fake->give) {
    buffer->text = strdup(fake->give);
    buffer->len = strlen(fake->give);
  } else {
    /* The file as an editor decodes it: the engine said how. */
    size_t size = 0;
    char *raw = file->exists ? unit_read_file(file->abs_path, &size) : strdup("");
    size_t skip = file->bom && size >= 3 ? 3 : 0;
    buffer->text = malloc(size - skip + 1);
    size_t out = 0;
    for (size_t i = skip; i < size; i++)
      if (!(file->crlf && raw[i] == '\r' && i + 1 < size && raw[i + 1] == '\n'))
        buffer->text[out++] = raw[i];
    buffer->text[out] = '\0';
    buffer->len = out;
    free(raw);
  }
  eddi_text_sink_append(text, buffer->text, buffer->len);
  fake->last = buffer;
  *ops = &fake_ops;
  *backend = buffer;
  return 0;
}

/* Whether abs_path names the fake's copy's file. */
static bool fake_is_copy(const Fake *fake, const char *abs_path) {
  size_t n = fake->copy_rel ? strlen(fake->copy_rel) : 0, len = strlen(abs_path);
  return n && len > n && abs_path[len - n - 1] == '/' &&
         strcmp(abs_path + len - n, fake->copy_rel) == 0;
}

static int fake_find_copy(void *context, const char *abs_path, EddiBackendCopy *copy,
                          EddiTextSink *text, EddiError *err) {
  Fake *fake = context;
  *copy = (EddiBackendCopy){0};
  if (!fake_is_copy(fake, abs_path)) return 0;
  copy->found = true;
  copy->modified = fake->copy_modified;
  if (text) eddi_text_sink_append(text, fake->copy_text, strlen(fake->copy_text));
  return 0;
}

static int fake_each_copy(void *context, const char *root,
                          void (*visit)(void *data, const char *abs_path), void *data,
                          EddiError *err) {
  Fake *fake = context;
  if (!fake->copy_rel) return 0;
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", root, fake->copy_rel);
  visit(data, path);
  return 0;
}

static const EddiBackendCopies fake_copies = {.find = fake_find_copy, .each = fake_each_copy};

/* ---------------------------------------------------------------- fixture */

typedef struct {
  char root[PATH_MAX];
  Fake fake;
  EddiEngine *engine;
  long live;
} World;

static int world_setup(void **state) {
  World *world = calloc(1, sizeof *world);
  unit_workspace_new(world->root);
  world->live = unit_live();
  char error[EDDI_ERROR_MAX] = "";
  world->engine = eddi_engine_new(world->root, NULL, error, sizeof error);
  if (!world->engine) fail_msg("eddi_engine_new: %s", error);
  fake_of_ops = &world->fake;
  eddi_engine_set_backend(world->engine, fake_open, &world->fake);
  eddi_engine_set_backend_copies(world->engine, &fake_copies);
  *state = world;
  return 0;
}

static int world_teardown(void **state) {
  World *world = *state;
  eddi_engine_free(world->engine);
  assert_int_equal(world->fake.destroys, world->fake.opens);
  unit_assert_no_leak(world->live);
  unit_remove_tree(world->root);
  free(world);
  return 0;
}

static void world_file(World *world, const char *rel, const char *bytes, size_t len) {
  char path[PATH_MAX];
  unit_path(path, world->root, rel);
  unit_write_file(path, bytes, len);
}

static void exchange(World *world, const char *message, const char *expected) {
  char *reply = eddi_exec(world->engine, "tester", message, strlen(message));
  assert_string_equal(reply, expected);
  eddi_string_free(reply);
}

/* ---------------------------------------------------------------- tests */

static void test_embedded_open_says_how_the_file_is_encoded(void **state) {
  World *world = *state;
  world_file(world, "crlf.txt", "\xEF\xBB\xBF" "a\r\nb\r\n", 9);
  exchange(world, "Start s\nOpen crlf.txt", "Ok\nOk, At 0:0, Length 2");
  assert_int_equal(world->fake.opens, 1);
  assert_true(world->fake.last_file.exists);
  assert_true(world->fake.last_file.bom);
  assert_true(world->fake.last_file.crlf);
  exchange(world, "Open Create new.txt", "Ok, At 0:0, Length 0");
  assert_false(world->fake.last_file.exists);
}

static void test_embedded_refusals_come_before_the_opener(void **state) {
  World *world = *state;
  world_file(world, "bin.dat", "a\0b", 3);
  exchange(world, "Start s\nOpen bin.dat",
           "Ok\nFail \"Binary file (NUL byte at offset 1)\", eddi edits text files only");
  exchange(world, "Open missing.txt",
           "Fail \"File not found: missing.txt\", Use \"Open Create missing.txt\" to create it");
  assert_int_equal(world->fake.opens, 0);
}

static void test_embedded_text_is_the_backends(void **state) {
  World *world = *state;
  world_file(world, "a.txt", "on disk\n", 8);
  /* An editor's buffer with unsaved edits: that is the document. */
  world->fake.give = "in the buffer\nsecond\n";
  exchange(world, "Start s\nOpen a.txt\nShow Line 0 0", "Ok\nOk, At 0:0, Length 2\n"
                                                        "Ok: At 0:0, Lines 0:0, Txt in the buffer");
  /* The saved text is the file's: Diff sees the buffer's edits, and the
   * document counts as modified (the journal keeps that text), though
   * Close discards nothing of the session's. */
  exchange(world, "Diff", "Ok: +2 -1 lines");
  exchange(world, "Status", "Ok: Session s, File a.txt, At 0:0, Length 2, Modified");
  /* Nothing of it is the session's: Save does not write the user's edits. */
  exchange(world, "Save", "Fail \"No changes of this session to save\", The unsaved edits in a.txt "
                          "were made in the editor: save them there");
  assert_int_equal(world->fake.saves, 0);
  world->fake.give = "\xFF";
  exchange(world, "Close\nOpen a.txt", "Ok\nFail \"Buffer text is not valid UTF-8 (byte 0)\"");
  assert_int_equal(world->fake.destroys, 2);
}

static void test_embedded_edits_reach_the_backend_in_characters(void **state) {
  World *world = *state;
  world_file(world, "u.txt", "\xC3\xA9t\xC3\xA9\n", 6); /* "été" */
  exchange(world, "Start s\nOpen u.txt\nGoto 0:3\nInsert Block \"!\"",
           "Ok\nOk, At 0:0, Length 1\nOk, At 0:3\nOk, Inserted 1 line at 0, At 0:4");
  assert_string_equal(world->fake.last->text, "\xC3\xA9t\xC3\xA9!\n");
  assert_true(world->fake.replaces == 1);
  assert_true(world->fake.end_groups >= 1);
  void *backend = NULL;
  size_t at = 0;
  assert_true(eddi_engine_cursor(world->engine, "tester", &backend, &at));
  assert_ptr_equal(backend, world->fake.last);
  assert_int_equal(at, 4);
  assert_false(eddi_engine_cursor(world->engine, "nobody", &backend, &at));
}

/* The user replaced characters [start, end) of the buffer with text. */
static void user_types(FakeBuffer *buffer, size_t start, size_t end, const char *text) {
  fake_splice(buffer, fake_byte_of(buffer, start), fake_byte_of(buffer, end), text,
              strlen(text));
  buffer->user_edited = true;
  buffer->user_start = start;
  buffer->user_end = end;
  buffer->user_new_end = start + strlen(text); /* ASCII here */
}

static void test_embedded_sync_mirrors_the_users_edit(void **state) {
  World *world = *state;
  world_file(world, "a.txt", "one\ntwo\n", 8);
  exchange(world, "Start s\nOpen a.txt\nGoto 1:0", "Ok\nOk, At 0:0, Length 2\nOk, At 1:0");
  user_types(world->fake.last, 0, 3, "ONE");
  /* Mirrored before the command. */
  exchange(world, "Show Line 0 1", "Ok: At 0:0, Lines 0:1, Txt ONE\\ntwo");
  assert_true(world->fake.syncs >= 1);
  /* A change the mirror cannot hold fails the command, not the engine. */
  world->fake.last->user_edited = true;
  world->fake.last->user_start = world->fake.last->user_new_end = 5;
  world->fake.last->user_end = 40;
  exchange(world, "Show Line 0 0", "Fail \"Change outside the text\"");
  exchange(world, "Show Line 0 0", "Ok: At 0:0, Lines 0:0, Txt ONE");
}

static void test_embedded_save_checks_the_file(void **state) {
  World *world = *state;
  world_file(world, "a.txt", "one\n", 4);
  world->fake.refuse_changed = true;
  exchange(world, "Start s\nOpen a.txt\nInsert Line \"zero\"\nSave",
           "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 9");
  char path[PATH_MAX];
  unit_path(path, world->root, "a.txt");
  size_t size = 0;
  char *saved = unit_read_file(path, &size);
  assert_string_equal(saved, "zero\none\n");
  free(saved);
  exchange(world, "Diff", "Ok: No changes");
  /* Someone else writes the file: the next save sees it. */
  world_file(world, "a.txt", "theirs\n", 7);
  exchange(world, "Insert Line \"more\"\nSave",
           "Ok, Inserted 1 line at 1, At 2:0\nFail \"File changed on disk since Open\", Diff shows "
           "your changes; Open Reload a.txt reads the disk's version (your edits are discarded)");
  world_file(world, "a.txt", "zero\none\n", 9);
  chmod(path, 0444);
  exchange(world, "Save", "Fail \"File is read-only\", Make a.txt writable, then Save again");
  chmod(path, 0644);
  unlink(path);
  exchange(world, "Save", "Fail \"File was deleted on disk since Open\", Close a.txt to let it go, or Diff to see your "
           "changes first");
}

/* ---------------------------------------------------------------- batches */

/* An Undo's reply, which must start with prefix. */
static void exchange_prefix(World *world, const char *message, const char *prefix) {
  char *reply = eddi_exec(world->engine, "tester", message, strlen(message));
  if (strncmp(reply, prefix, strlen(prefix)) != 0) fail_msg("reply: %s", reply);
  eddi_string_free(reply);
}

static const char patch_ab[] = "Patch\n*** Begin Patch\n*** Update File: a.txt\n-old a\n+new a\n"
                               "*** Update File: b.txt\n-old b\n+new b\n*** End Patch";

static void assert_file(World *world, const char *rel, const char *expected) {
  char path[PATH_MAX];
  unit_path(path, world->root, rel);
  size_t size = 0;
  char *bytes = unit_read_file(path, &size);
  assert_string_equal(bytes, expected);
  free(bytes);
}

static void world_two_files(World *world) {
  world_file(world, "a.txt", "old a\n", 6);
  world_file(world, "b.txt", "old b\n", 6);
  world->fake.refuse_changed = true;
  exchange(world, "Start s\nOpen a.txt", "Ok\nOk, At 0:0, Length 1");
}

static void test_embedded_batch_writes_the_buffer(void **state) {
  World *world = *state;
  world_two_files(world);
  exchange(world, patch_ab, "Ok: M [a.txt#54CD]\\n1:new a\\nM [b.txt#5EB3]\\n1:new b");
  assert_file(world, "a.txt", "new a\n");
  assert_file(world, "b.txt", "new b\n");
  /* Written by the batch, not by the editor's save; the editor was told. */
  assert_int_equal(world->fake.saves, 0);
  assert_int_equal(world->fake.save_bytes, 1);
  assert_int_equal(world->fake.saved, 1);
  assert_string_equal(world->fake.last->text, "new a\n");
  /* The engine knows the file as written: no change on disk to refuse. */
  exchange(world, "Diff\nInsert Line \"more\"\nSave",
           "Ok: No changes\nOk, Inserted 1 line at 0, At 1:0\nOk, Bytes 11");
  assert_file(world, "a.txt", "more\nnew a\n");
}

/* A buffer of the user's with unsaved edits, never opened in the session:
 * the change goes through it, opened by the change, and leaves it unsaved
 * and its file as it was; Undo takes it back there too. */
static void test_embedded_batch_unsaved_copy_stays_unsaved(void **state) {
  World *world = *state;
  world_file(world, "a.txt", "old a\n", 6);
  world_file(world, "b.txt", "old b\n", 6);
  world->fake.copy_rel = "a.txt";
  world->fake.copy_text = world->fake.give = "old a\ntyped\n";
  world->fake.copy_modified = true;
  exchange(world, "Start s", "Ok");
  exchange(world, patch_ab, "Ok: M [a.txt#2326]\\n1:new a\\n2:typed\\nM [b.txt#5EB3]\\n1:new b");
  assert_file(world, "a.txt", "old a\n");
  assert_file(world, "b.txt", "new b\n");
  assert_int_equal(world->fake.opens, 1);
  assert_int_equal(world->fake.saves, 0);
  assert_int_equal(world->fake.saved, 0);
  assert_string_equal(world->fake.last->text, "new a\ntyped\n");
  exchange_prefix(world, "Undo", "Ok, Undid 1 step, 2 files: a.txt, b.txt");
  assert_file(world, "a.txt", "old a\n");
  assert_file(world, "b.txt", "old b\n");
  assert_int_equal(world->fake.saves, 0);
  assert_string_equal(world->fake.last->text, "old a\ntyped\n");
}

/* An unmodified buffer of the user's: opened by the change and saved in
 * its batch. */
static void test_embedded_batch_unmodified_copy_is_saved(void **state) {
  World *world = *state;
  world_file(world, "a.txt", "old a\n", 6);
  world_file(world, "b.txt", "old b\n", 6);
  world->fake.copy_rel = "a.txt";
  world->fake.copy_text = "old a\n";
  exchange(world, "Start s", "Ok");
  exchange(world, patch_ab, "Ok: M [a.txt#54CD]\\n1:new a\\nM [b.txt#5EB3]\\n1:new b");
  assert_file(world, "a.txt", "new a\n");
  assert_file(world, "b.txt", "new b\n");
  assert_int_equal(world->fake.opens, 1);
  assert_int_equal(world->fake.saved, 1);
  assert_string_equal(world->fake.last->text, "new a\n");
}

static void test_embedded_batch_uncertain_buffer_saves_itself(void **state) {
  World *world = *state;
  world_two_files(world);
  world->fake.uncertain = true;
  exchange(world, patch_ab, "Ok: M [a.txt#54CD]\\n1:new a\\nM [b.txt#5EB3]\\n1:new b");
  assert_file(world, "a.txt", "new a\n");
  assert_file(world, "b.txt", "new b\n");
  assert_int_equal(world->fake.saves, 1);
  assert_int_equal(world->fake.saved, 0);
}

static void test_embedded_batch_read_only_refuses(void **state) {
  World *world = *state;
  world_two_files(world);
  char path[PATH_MAX];
  unit_path(path, world->root, "a.txt");
  chmod(path, 0444);
  exchange(world, patch_ab, "Fail \"a.txt is read-only; nothing written\", Make a.txt "
                            "writable, then run the change again");
  chmod(path, 0644);
  assert_file(world, "a.txt", "old a\n");
  assert_file(world, "b.txt", "old b\n");
  /* The buffer was never touched. */
  assert_int_equal(world->fake.replaces, 0);
  assert_string_equal(world->fake.last->text, "old a\n");
}

static void test_embedded_batch_file_changed_on_disk_is_the_editors(void **state) {
  World *world = *state;
  world_two_files(world);
  /* Not as the engine last saw it: the editor's save decides (it refuses
   * here), and the batch is put back. */
  world_file(world, "a.txt", "old a\ntheirs\n", 13);
  exchange(world, patch_ab, "Fail \"File changed on disk since Open\"");
  assert_file(world, "a.txt", "old a\ntheirs\n");
  assert_file(world, "b.txt", "old b\n");
  assert_string_equal(world->fake.last->text, "old a\n");
}

static void test_embedded_batch_change_on_disk_meanwhile_is_not_merged(void **state) {
  World *world = *state;
  world_two_files(world);
  /* Between the check and the rename: the editor's bytes cannot be merged
   * with the disk's, so nothing is written and the buffer is put back. */
  world->fake.meanwhile = "other a\n";
  exchange(world, patch_ab, "Fail \"a.txt changed on disk since Open; nothing written\", Open "
                            "Reload reads it again (unsaved edits are discarded)");
  assert_file(world, "a.txt", "other a\n");
  assert_file(world, "b.txt", "old b\n");
  assert_string_equal(world->fake.last->text, "old a\n");
  assert_int_equal(world->fake.saved, 0);
}

static void test_embedded_batch_append_meanwhile_is_kept(void **state) {
  World *world = *state;
  world_two_files(world);
  /* An append at that moment is carried over onto the editor's bytes: the
   * disk keeps it, and the buffer, which does not show it, is not saved,
   * so its next save sees the change. */
  world->fake.meanwhile = "old a\ntheirs\n";
  char *reply = eddi_exec(world->engine, "tester", patch_ab, strlen(patch_ab));
  assert_non_null(strstr(reply, "a.txt changed on disk meanwhile"));
  eddi_string_free(reply);
  assert_file(world, "a.txt", "new a\ntheirs\n");
  assert_file(world, "b.txt", "new b\n");
  assert_int_equal(world->fake.saved, 0);
  exchange(world, "Save", "Fail \"File changed on disk since Open\", Diff shows your changes; "
                          "Open Reload a.txt reads the disk's version (your edits are discarded)");
}

/* A workspace and a state folder for the journal. */
typedef struct {
  World world;
  char state[PATH_MAX];
} JournalWorld;

static EddiEngine *journal_engine(JournalWorld *jw, char *report, size_t size) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = jw->state;
  char error[EDDI_ERROR_MAX] = "";
  EddiEngine *engine = eddi_engine_new(jw->world.root, &config, error, sizeof error);
  if (!engine) fail_msg("eddi_engine_new: %s", error);
  if (eddi_engine_open_journal(engine, report, size, error, sizeof error) < 0)
    fail_msg("eddi_engine_open_journal: %s", error);
  return engine;
}

/* Bytes of big.txt: over the size whose copy the disk backend keeps. */
#define BIG_BYTES ((size_t)17 << 20)

static void test_embedded_batch_crash_after_renames_rolls_back(void **state) {
  (void)state;
  JournalWorld jw = {0};
  World *world = &jw.world;
  long live = unit_live();
  unit_workspace_new(world->root);
  unit_workspace_new(jw.state);
  world_file(world, "a.txt", "old a\n", 6);
  world_file(world, "c.txt", "old c\n", 6);
  char *big = malloc(BIG_BYTES);
  memset(big, 'x', BIG_BYTES);
  memcpy(big, "old big\n", 8);
  world_file(world, "big.txt", big, BIG_BYTES);
  fake_of_ops = &world->fake;
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    /* a.txt open in the editor, big.txt (no copy kept) in the disk
     * backend; the process dies once every file is renamed in, before
     * the intent is forgotten. */
    char report[EDDI_ERROR_MAX];
    EddiEngine *engine = journal_engine(&jw, report, sizeof report);
    static const char patch[] =
        "Patch\n*** Begin Patch\n*** Update File: a.txt\n-old a\n+new a\n"
        "*** Update File: big.txt\n-old big\n+new big\n"
        "*** Update File: c.txt\n-old c\n+new c\n*** End Patch";
    eddi_engine_set_backend(engine, fake_open, &world->fake);
    eddi_string_free(eddi_exec(engine, "tester", "Start s\nOpen a.txt", 18));
    eddi_engine_set_backend(engine, NULL, NULL);
    eddi_string_free(eddi_exec(engine, "tester", "Open big.txt", 12));
    world->fake.die_when_saved = true;
    eddi_string_free(eddi_exec(engine, "tester", patch, strlen(patch)));
    _exit(1); /* saved was not called */
  }
  int status;
  waitpid(child, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
  assert_file(world, "a.txt", "new a\n");
  assert_file(world, "c.txt", "new c\n");
  /* c.txt is put back by hand: the group is mixed now, and only the
   * intent can tell which other files were in it. */
  world_file(world, "c.txt", "old c\n", 6);
  char report[EDDI_ERROR_MAX] = "";
  EddiEngine *engine = journal_engine(&jw, report, sizeof report);
  assert_non_null(strstr(report, "Recovered an interrupted change of 3 files: rolled back (2 moved)"));
  assert_file(world, "a.txt", "old a\n");
  char path[PATH_MAX];
  unit_path(path, world->root, "big.txt");
  size_t size = 0;
  char *bytes = unit_read_file(path, &size);
  assert_int_equal(size, BIG_BYTES);
  assert_memory_equal(bytes, big, BIG_BYTES);
  free(bytes);
  free(big);
  eddi_engine_free(engine);
  unit_assert_no_leak(live);
  unit_remove_tree(world->root);
  unit_remove_tree(jw.state);
}

/* The step of a change that kept a user's unsaved edits, restored from
 * the journal by the next engine: its Undo is refused rather than write
 * the buffer's old text, the user's edits among it, to the disk. */
static void test_embedded_restored_step_keeps_unsaved_edits_off_the_disk(void **state) {
  (void)state;
  JournalWorld jw = {0};
  World *world = &jw.world;
  long live = unit_live();
  unit_workspace_new(world->root);
  unit_workspace_new(jw.state);
  world_file(world, "a.txt", "old a\n", 6);
  world_file(world, "b.txt", "old b\n", 6);
  fake_of_ops = &world->fake;
  world->fake.copy_rel = "a.txt";
  world->fake.copy_text = world->fake.give = "old a\ntyped\n";
  world->fake.copy_modified = true;
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = jw.state;
  for (int run = 0; run < 2; run++) {
    char error[EDDI_ERROR_MAX] = "", report[EDDI_ERROR_MAX] = "";
    world->engine = eddi_engine_new(world->root, &config, error, sizeof error);
    if (!world->engine) fail_msg("eddi_engine_new: %s", error);
    eddi_engine_set_backend(world->engine, fake_open, &world->fake);
    eddi_engine_set_backend_copies(world->engine, &fake_copies);
    if (eddi_engine_open_journal(world->engine, report, sizeof report, error, sizeof error) < 0)
      fail_msg("eddi_engine_open_journal: %s", error);
    if (run == 0) {
      exchange(world, "Start s", "Ok");
      exchange_prefix(world, patch_ab, "Ok: M [a.txt#2326]");
      /* The buffer keeps its text across the engines, as Emacs does. */
      world->fake.copy_text = world->fake.give = "new a\ntyped\n";
    } else {
      exchange_prefix(world, "Undo", "Fail \"Undo: 1 file changed since: a.txt; nothing put back\"");
    }
    eddi_engine_free(world->engine);
    assert_file(world, "a.txt", "old a\n");
    assert_file(world, "b.txt", "new b\n");
  }
  assert_int_equal(world->fake.saves, 0);
  unit_assert_no_leak(live);
  unit_remove_tree(world->root);
  unit_remove_tree(jw.state);
}

/* A save the editor holds back for a review writes nothing and leaves the
 * document modified: Close keeps it, a change of several files leaves its
 * file alone, and the next engine over the journal brings the held edits
 * back unsaved, against the file as it was before them. */
static void test_embedded_held_save_stays_unsaved_across_a_restart(void **state) {
  (void)state;
  JournalWorld jw = {0};
  World *world = &jw.world;
  long live = unit_live();
  unit_workspace_new(world->root);
  unit_workspace_new(jw.state);
  world_file(world, "a.txt", "old a\n", 6);
  world_file(world, "b.txt", "old b\n", 6);
  fake_of_ops = &world->fake;
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = jw.state;
  for (int run = 0; run < 2; run++) {
    char error[EDDI_ERROR_MAX] = "", report[EDDI_ERROR_MAX] = "";
    world->engine = eddi_engine_new(world->root, &config, error, sizeof error);
    if (!world->engine) fail_msg("eddi_engine_new: %s", error);
    /* The editor is there before the journal gives the session back. */
    eddi_engine_set_backend(world->engine, fake_open, &world->fake);
    if (eddi_engine_open_journal(world->engine, report, sizeof report, error, sizeof error) < 0)
      fail_msg("eddi_engine_open_journal: %s", error);
    if (run == 0) {
      world->fake.hold = true;
      exchange(world, "Start s\nOpen a.txt\nInsert Line \"zero\"\nSave",
               "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\nOk, Held for review");
      exchange(world, "Status", "Ok: Session s, File a.txt, At 1:0, Length 2, Modified");
      exchange(world, "Close", "Ok, Held for review, Kept open");
      exchange(world, "Save Close", "Ok, Held for review, Kept open");
      exchange_prefix(world, patch_ab, "Ok: M [a.txt#");
      exchange(world, "Status", "Ok: Session s, File a.txt, At 1:3, Length 2, Modified");
      /* Summary tells the held file from the written one. */
      exchange(world, "Summary",
               "Ok: Modified 2 files, Added 3 lines, Deleted 2 lines, Unsaved 1 file, Files "
               "Modified b.txt (+1 -1 lines)\\nModified a.txt (+2 -1 lines, unsaved)");
      assert_file(world, "a.txt", "old a\n");
      assert_file(world, "b.txt", "new b\n");
      world->fake.hold = false;
    } else {
      if (!strstr(report, "Session s of tester restored: 1 file open, 2 unsaved edits re-applied"))
        fail_msg("report: %s", report);
      /* Only the session's commands made them. */
      assert_null(strstr(report, "typed outside"));
      /* The editor's copy has the held text again, unsaved. */
      assert_non_null(world->fake.last);
      assert_string_equal(world->fake.last->text, "zero\nnew a\n");
      exchange(world, "Status", "Ok: Session s, File a.txt, At 1:3, Length 2, Modified");
    }
    eddi_engine_free(world->engine);
    assert_file(world, "a.txt", "old a\n");
  }
  unit_assert_no_leak(live);
  unit_remove_tree(world->root);
  unit_remove_tree(jw.state);
}

/* Once the editor holds nothing back any more (its review is over), Close
 * lets a held document go: the engine's copy is discarded, the editor's
 * text is the editor's. */
static void test_embedded_held_document_closes_after_its_review(void **state) {
  World *world = *state;
  world_file(world, "a.txt", "one\n", 4);
  world->fake.hold = true;
  exchange(world, "Start s\nOpen a.txt\nInsert Line \"zero\"\nSave\nClose",
           "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\nOk, Held for review\n"
           "Ok, Held for review, Kept open");
  world->fake.hold = false;
  world->fake.reviewed = true;
  exchange(world, "Close", "Ok, Unsaved changes discarded");
  exchange(world, "Status", "Ok: Session s, No file");
  assert_file(world, "a.txt", "one\n");
  assert_int_equal(world->fake.destroys, 1);
}

/* Unsaved text the user typed into the editor between the session's
 * commands is journaled as such: the next engine says that the restored
 * edits are not all the session's (an agent's review then cannot offer
 * them all for rejection). Saving the file ends it. */
static void test_embedded_typing_is_journaled_as_outside_the_session(void **state) {
  (void)state;
  JournalWorld jw = {0};
  World *world = &jw.world;
  long live = unit_live();
  unit_workspace_new(world->root);
  unit_workspace_new(jw.state);
  world_file(world, "a.txt", "one\n", 4);
  world_file(world, "b.txt", "two\n", 4);
  fake_of_ops = &world->fake;
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = jw.state;
  for (int run = 0; run < 3; run++) {
    char error[EDDI_ERROR_MAX] = "", report[EDDI_ERROR_MAX] = "";
    world->engine = eddi_engine_new(world->root, &config, error, sizeof error);
    if (!world->engine) fail_msg("eddi_engine_new: %s", error);
    eddi_engine_set_backend(world->engine, fake_open, &world->fake);
    if (eddi_engine_open_journal(world->engine, report, sizeof report, error, sizeof error) < 0)
      fail_msg("eddi_engine_open_journal: %s", error);
    if (run == 0) {
      exchange(world, "Start s\nOpen b.txt\nInsert Line \"b\"\nOpen a.txt\nInsert Line \"zero\"",
               "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\n"
               "Ok, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0");
      user_types(world->fake.last, 9, 9, "mine\n");
      exchange(world, "Insert Line \"more\"", "Ok, Inserted 1 line at 1, At 2:0");
    } else if (run == 1) {
      if (!strstr(report, "Session s of tester restored: 2 files open, 2 unsaved edits "
                          "re-applied; a.txt: its unsaved edits hold some typed outside the "
                          "session"))
        fail_msg("report: %s", report);
      assert_string_equal(world->fake.last->text, "zero\nmore\none\nmine\n");
      exchange(world, "Save", "Ok, Bytes 19");
    } else {
      if (!strstr(report, "Session s of tester restored: 2 files open, 1 unsaved edit re-applied"))
        fail_msg("report: %s", report);
      assert_null(strstr(report, "typed outside"));
    }
    eddi_engine_free(world->engine);
  }
  unit_assert_no_leak(live);
  unit_remove_tree(world->root);
  unit_remove_tree(jw.state);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_embedded_open_says_how_the_file_is_encoded,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_refusals_come_before_the_opener,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_text_is_the_backends, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_edits_reach_the_backend_in_characters,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_sync_mirrors_the_users_edit, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_save_checks_the_file, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_writes_the_buffer, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_unsaved_copy_stays_unsaved,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_unmodified_copy_is_saved, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_uncertain_buffer_saves_itself,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_read_only_refuses, world_setup,
                                      world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_file_changed_on_disk_is_the_editors,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_change_on_disk_meanwhile_is_not_merged,
                                      world_setup, world_teardown),
      cmocka_unit_test_setup_teardown(test_embedded_batch_append_meanwhile_is_kept, world_setup,
                                      world_teardown),
      cmocka_unit_test(test_embedded_batch_crash_after_renames_rolls_back),
      cmocka_unit_test(test_embedded_restored_step_keeps_unsaved_edits_off_the_disk),
      cmocka_unit_test(test_embedded_held_save_stays_unsaved_across_a_restart),
      cmocka_unit_test_setup_teardown(test_embedded_held_document_closes_after_its_review,
                                      world_setup, world_teardown),
      cmocka_unit_test(test_embedded_typing_is_journaled_as_outside_the_session),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
