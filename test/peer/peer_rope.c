/* peer_rope.c - one case of rope's refactoring tests against eddi's Refactor.
 *
 *   peer_rope CASE_DIR
 *
 * Copies CASE_DIR/before into a fresh workspace (with the case's empty
 * folders), sends the case's eddi_command (case.json) through eddi_exec
 * and judges the outcome:
 * - PASS: the case expects a result and the workspace equals expected/
 *   byte for byte, or it expects a refusal and eddi refused with nothing
 *   written;
 * - REFUSED: the case expects a result, eddi refused with a reason and
 *   wrote nothing. rope guesses where eddi will not (an unsure reference,
 *   a conflict eddi sees), so this passes too, with the reason printed;
 * - DIFFERS: eddi wrote something other than expected/ where it differs
 *   from rope by design (the case is listed in rope_differs.tsv with the
 *   reason, the runner's second argument) and every Python file of the
 *   result still compiles (python3 -m py_compile): passes, with the reason;
 * - WRONG: eddi wrote something other than expected/, or wrote anything
 *   while refusing, or accepted what rope refuses. The test fails.
 * The first line of output is the verdict, for counting. */
#include "peer_support.h"

#include <json-c/json.h>

#include "core/common.h"
#include "eddi.h"

static const char *case__str(json_object *o, const char *key) {
  json_object *v;
  return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
             ? json_object_get_string(v)
             : NULL;
}

/* The reason rope_differs.tsv gives for the case at dir ("<operation>/<id>"
 * rows), or NULL. */
static char *case__differs(const char *list, const char *dir) {
  FILE *file = list ? fopen(list, "r") : NULL;
  if (!file) return NULL;
  char line[2048], *reason = NULL;
  size_t n = strlen(dir);
  while (!reason && fgets(line, sizeof line, file)) {
    char *tab = strchr(line, '\t');
    if (!tab || line[0] == '#') continue;
    *tab = '\0';
    size_t k = strlen(line);
    if (k <= n && strcmp(dir + n - k, line) == 0 && (k == n || dir[n - k - 1] == '/')) {
      tab[strcspn(tab + 1, "\n") + 1] = '\0';
      reason = strdup(tab + 1);
    }
  }
  fclose(file);
  return reason;
}

/* Whether every .py file of the workspace compiles. */
static bool case__compiles(const char *workspace) {
  char command[4096];
  snprintf(command, sizeof command,
           "cd '%s' && find . -name '*.py' -print0 | xargs -0 -r python3 -m py_compile "
           ">/dev/null 2>&1",
           workspace);
  return system(command) == 0;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: peer_rope CASE_DIR [DIFFERS_TSV]\n");
    return 2;
  }
  const char *dir = argv[1];
  char path[4096];
  snprintf(path, sizeof path, "%s/case.json", dir);
  json_object *spec = json_object_from_file(path);
  if (!spec) return fprintf(stderr, "cannot read %s\n", path), 2;
  const char *command = case__str(spec, "eddi_command");
  const char *outcome = case__str(spec, "outcome");
  if (!command || !outcome) return fprintf(stderr, "%s has no eddi_command\n", path), 2;
  bool want_refusal = strcmp(outcome, "refused") == 0;

  char workspace[] = "/tmp/eddi-rope-XXXXXX";
  if (!mkdtemp(workspace)) return perror("mkdtemp"), 2;
  snprintf(path, sizeof path, "%s/before", dir);
  peer_copy_tree(path, workspace);
  json_object *empty;
  if (json_object_object_get_ex(spec, "empty_dirs", &empty) &&
      json_object_is_type(empty, json_type_array)) {
    for (size_t i = 0; i < json_object_array_length(empty); i++) {
      snprintf(path, sizeof path, "%s/%s", workspace,
               json_object_get_string(json_object_array_get_idx(empty, i)));
      mkdir(path, 0777);
    }
  }

  char error[512];
  EddiEngine *engine = eddi_engine_new(workspace, NULL, error, sizeof error);
  if (!engine) return fprintf(stderr, "%s\n", error), 2;
  eddi_string_free(eddi_exec(engine, "peer", "Start peer", 10));
  /* Extract works on the open file's lines. */
  const char *operation = case__str(spec, "operation");
  const char *file = case__str(spec, "file");
  if (operation && file && strcmp(operation, "extract_method") == 0) {
    char open[1024];
    int n = snprintf(open, sizeof open, "Open %s", file);
    eddi_string_free(eddi_exec(engine, "peer", open, (size_t)n));
  }
  EddiReply reply;
  eddi_exec_reply(engine, "peer", command, strlen(command), &reply);
  bool ok = reply.count == 1 && reply.items[0].ok;
  char said[1024];
  snprintf(said, sizeof said, "%s", reply.count ? reply.items[0].text : "(no reply)");
  eddi_reply_free(&reply);
  eddi_engine_free(engine);

  peer_quiet = true;
  snprintf(path, sizeof path, "%s/before", dir);
  bool unchanged = peer_tree_equal(path, workspace);
  snprintf(path, sizeof path, "%s/expected", dir);
  bool expected = !want_refusal && peer_tree_equal(path, workspace);
  peer_quiet = false;
  int verdict = 0;
  char *differs = NULL;
  if (want_refusal) {
    if (!ok && unchanged) printf("PASS refused as rope does: %s\n", said);
    else
      printf("WRONG: rope refuses, eddi said %s%s\n", said, unchanged ? "" : " and wrote"),
          verdict = 1;
  } else if (ok && expected) {
    printf("PASS %s\n", said);
  } else if (!ok && unchanged) {
    printf("REFUSED %s\n", said);
  } else if ((differs = case__differs(argc == 3 ? argv[2] : NULL, dir)) &&
             case__compiles(workspace)) {
    printf("DIFFERS by design (%s): %s\n", differs, said);
  } else {
    printf("WRONG: %s\n", said);
    snprintf(path, sizeof path, "%s/expected", dir);
    peer_tree_equal(path, workspace); /* prints the differences */
    verdict = 1;
  }
  if (eddi_alloc_live() != 0) {
    fprintf(stderr, "  %ld allocations leaked\n", eddi_alloc_live());
    verdict = 1;
  }
  free(differs);
  peer_rm_tree(workspace);
  json_object_put(spec);
  return verdict;
}
