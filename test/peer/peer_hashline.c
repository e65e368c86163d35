/* peer_hashline.c - the omp-edit hashline fixtures against eddi.
 *
 *   peer_hashline patcher PATCHER_JSON
 *   peer_hashline parity_leniency PARITY_JSON
 *
 * patcher: each case builds a workspace, records the snapshots the case
 * lists in the session's store, sends "Edit" with the case's input through
 * eddi_exec, and checks the files after, the deletions, that nothing was
 * written when the case says so, and the error or reply text (by meaning:
 * where eddi words a message differently, the table below names eddi's).
 * parity_leniency: every parse case's error and warnings, and every apply
 * case's text after, byte for byte. */
#include "peer_support.h"

#include <json-c/json.h>

#include "edit/hashline.h"
#include "session/engine.h"

static int failures;

static void failed(const char *name, const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "FAIL %s: ", name);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  failures++;
}

/* omp's words -> eddi's, where eddi says the same thing differently. */
static const char *const rewordings[][2] = {
    {"File not found: missing.txt. Use the write tool to create new files.",
     "File not found: missing.txt"},
};

static bool says(const char *reply, const char *expected) {
  if (strstr(reply, expected)) return true;
  for (size_t i = 0; i < sizeof rewordings / sizeof *rewordings; i++)
    if (!strcmp(expected, rewordings[i][0]) && strstr(reply, rewordings[i][1])) return true;
  return false;
}

static const char *str(json_object *o, const char *key) {
  json_object *v;
  return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static json_object *get(json_object *o, const char *key) {
  json_object *v;
  return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* ---------------------------------------------------------------- patcher */

static void patcher_case(json_object *c) {
  const char *name = str(c, "name");
  char workspace[] = "/tmp/eddi-peer-XXXXXX";
  if (!mkdtemp(workspace)) return;
  char path[4096];
  json_object *files = get(c, "files");
  if (files) {
    json_object_object_foreach(files, file, content) {
      snprintf(path, sizeof path, "%s/%s", workspace, file);
      peer_write(path, json_object_get_string(content), (size_t)json_object_get_string_len(content));
    }
  }
  char before[] = "/tmp/eddi-peer-before-XXXXXX";
  mkdtemp(before);
  peer_copy_tree(workspace, before);

  char error[512];
  EddiEngine *engine = eddi_engine_new(workspace, NULL, error, sizeof error);
  eddi_string_free(eddi_exec(engine, "peer", "Start peer", 10));
  EddiSession *session = eddi_sessions_by_sender(engine->sessions, "peer");
  EddiEditState *state = eddi_edit_state_of(session);
  json_object *policy = get(c, "policy");
  if (policy && get(policy, "enforceSeenLines"))
    state->enforce_seen_lines = json_object_get_boolean(get(policy, "enforceSeenLines"));

  /* Snapshots, and the tags that stand for them in the input. */
  char input[8192];
  snprintf(input, sizeof input, "%s", str(get(c, "args"), "input"));
  json_object *snaps = get(c, "snapshots");
  for (size_t i = 0; snaps && i < json_object_array_length(snaps); i++) {
    json_object *s = json_object_array_get_idx(snaps, i);
    const char *file = str(s, "path");
    const char *text = str(s, "text");
    char *owned = NULL;
    size_t len = 0;
    if (text) {
      len = strlen(text);
    } else {
      snprintf(path, sizeof path, "%s/%s", workspace, file);
      owned = peer_read(path, &len);
      text = owned;
    }
    char tag[5];
    eddi_hashline_tag(text, len, tag);
    json_object *seen = get(s, "seenLines");
    if (seen) {
      for (size_t k = 0; k < json_object_array_length(seen); k++) {
        size_t line = (size_t)json_object_get_int(json_object_array_get_idx(seen, k));
        eddi_snapshot_record(state, file, text, len, tag, line, line);
      }
    } else {
      eddi_snapshot_record(state, file, text, len, tag, 0, 0);
    }
    char placeholder[512];
    snprintf(placeholder, sizeof placeholder, "{{tag:%s}}", file);
    for (char *at; (at = strstr(input, placeholder));) {
      size_t n = strlen(placeholder);
      memcpy(at, tag, 4);
      memmove(at + 4, at + n, strlen(at + n) + 1);
    }
    free(owned);
  }

  char message[8300];
  int message_len = snprintf(message, sizeof message, "Edit\n%s", input);
  EddiReply reply;
  eddi_exec_reply(engine, "peer", message, (size_t)message_len, &reply);
  const char *text = reply.count ? reply.items[0].text : "";
  bool ok = reply.count && reply.items[0].ok;
  json_object *expect = get(c, "expect");
  const char *want_error = str(expect, "error");
  if (want_error && (ok || !says(text, want_error)))
    failed(name, "wanted an error saying \"%s\", got: %s", want_error, text);
  if (!want_error && !ok) failed(name, "wanted success, got: %s%s", text, "");
  json_object *contains = get(expect, "textContains");
  for (size_t i = 0; contains && i < json_object_array_length(contains); i++) {
    const char *want = json_object_get_string(json_object_array_get_idx(contains, i));
    if (!says(text, want)) failed(name, "reply should say \"%s\": %s", want, text);
  }
  json_object *want_files = get(expect, "files");
  if (want_files) {
    json_object_object_foreach(want_files, file, content) {
      snprintf(path, sizeof path, "%s/%s", workspace, file);
      size_t len;
      char *got = peer_read(path, &len);
      const char *want = json_object_get_string(content);
      if (!got || len != strlen(want) || memcmp(got, want, len) != 0)
        failed(name, "file differs: want \"%s\", got \"%s\"", want, got ? got : "(missing)");
      free(got);
    }
  }
  json_object *deleted = get(expect, "deleted");
  for (size_t i = 0; deleted && i < json_object_array_length(deleted); i++) {
    const char *file = json_object_get_string(json_object_array_get_idx(deleted, i));
    snprintf(path, sizeof path, "%s/%s", workspace, file);
    if (access(path, F_OK) == 0) failed(name, "%s should be deleted%s", file, "");
  }
  json_object *writes = get(expect, "writes");
  if (writes && json_object_get_int(writes) == 0 && !peer_tree_equal(before, workspace))
    failed(name, "nothing should have been written%s%s", "", "");
  peer_quiet = true;
  if (writes && json_object_get_int(writes) > 0 && peer_tree_equal(before, workspace))
    failed(name, "a write was expected%s%s", "", "");
  peer_quiet = false;
  printf("%s: %s\n", name, text);
  eddi_reply_free(&reply);
  eddi_engine_free(engine);
  peer_rm_tree(workspace);
  peer_rm_tree(before);
}

/* ---------------------------------------------------------------- parity */

static void parity_case(json_object *c) {
  const char *name = str(c, "name");
  json_object *parses = get(c, "parse");
  for (size_t i = 0; parses && i < json_object_array_length(parses); i++) {
    json_object *p = json_object_array_get_idx(parses, i);
    const char *input = str(p, "input");
    HlSection section = {0};
    EddiEditReport report = {0};
    EddiError err;
    eddi_error_clear(&err);
    int rc = eddi_hashline_parse(input, strlen(input), 0, &section, &report, &err);
    const char *want_error = str(p, "error");
    if (want_error) {
      const char *bare = strncmp(want_error, "Error: ", 7) == 0 ? want_error + 7 : want_error;
      if (rc == 0) failed(name, "parse should fail with \"%s\"%s", bare, "");
      else if (strcmp(err.what, bare) != 0) failed(name, "error \"%s\", got \"%s\"", bare, err.what);
    } else if (rc < 0) {
      failed(name, "parse failed: %s%s", err.what, "");
    } else {
      json_object *warnings = get(get(p, "expect"), "warnings");
      size_t want = warnings ? json_object_array_length(warnings) : 0, got = 0;
      for (const char *w = report.warnings.data; w && *w; w = strchr(w, '\n') + 1) got++;
      if (got != want) failed(name, "warnings differ: got \"%s\"%s",
                              report.warnings.data ? report.warnings.data : "", "");
      for (size_t k = 0; k < want; k++) {
        const char *w = json_object_get_string(json_object_array_get_idx(warnings, k));
        if (!report.warnings.data || !strstr(report.warnings.data, w))
          failed(name, "missing warning \"%s\" in \"%s\"", w,
                 report.warnings.data ? report.warnings.data : "");
      }
    }
    eddi_hashline_section_free(&section);
    eddi_edit_report_free(&report);
  }
  json_object *applies = get(c, "apply");
  for (size_t i = 0; applies && i < json_object_array_length(applies); i++) {
    json_object *a = json_object_array_get_idx(applies, i);
    const char *text = str(a, "text"), *input = str(a, "input");
    const char *want = str(get(a, "expect"), "text");
    HlSection section = {0};
    EddiEditReport report = {0};
    EddiError err;
    EddiRegisterList registers = {0};
    StrBuf out = {0};
    int rc = eddi_hashline_parse(input, strlen(input), 0, &section, &report, &err);
    if (rc == 0)
      rc = eddi_hashline_apply(&section, str(a, "path"), text, strlen(text), &registers, &out,
                               NULL, &err);
    if (rc < 0) failed(name, "apply failed: %s%s", err.what, "");
    else if (strcmp(out.data ? out.data : "", want) != 0)
      failed(name, "apply: want \"%s\", got \"%s\"", want, out.data ? out.data : "");
    eddi_strbuf_free(&out);
    eddi_registers_free(&registers);
    eddi_hashline_section_free(&section);
    eddi_edit_report_free(&report);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: peer_hashline patcher|parity_leniency FILE.json\n");
    return 2;
  }
  json_object *root = json_object_from_file(argv[2]);
  if (!root) return fprintf(stderr, "cannot read %s\n", argv[2]), 2;
  json_object *cases = get(root, "cases");
  size_t count = json_object_array_length(cases);
  for (size_t i = 0; i < count; i++) {
    if (!strcmp(argv[1], "patcher")) patcher_case(json_object_array_get_idx(cases, i));
    else parity_case(json_object_array_get_idx(cases, i));
  }
  json_object_put(root);
  if (eddi_alloc_live() != 0) {
    fprintf(stderr, "FAIL: %ld allocations leaked\n", eddi_alloc_live());
    failures++;
  }
  printf("%zu cases, %d failures\n", count, failures);
  return failures ? 1 : 0;
}
