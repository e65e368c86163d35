/* peer_codex.c - one Codex apply_patch scenario against eddi's Patch command.
 *
 *   peer_codex SCENARIO_DIR ok|fail
 *
 * Copies SCENARIO_DIR/input into a fresh workspace, sends "Patch" with
 * patch.txt as its body through eddi_exec, and checks the reply (Ok or
 * Fail as the manifest says) and that the tree equals expected/ byte for
 * byte. eddi is atomic where Codex is not: for the scenario whose name says
 * "partial_success" a failure must leave the input tree unchanged. */
#include "peer_support.h"

#include "core/common.h"
#include "eddi.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: peer_codex SCENARIO_DIR ok|fail\n");
    return 2;
  }
  const char *scenario = argv[1];
  bool want_ok = strcmp(argv[2], "ok") == 0;
  bool atomic = strstr(scenario, "partial_success") != NULL;
  char workspace[] = "/tmp/eddi-peer-XXXXXX";
  if (!mkdtemp(workspace)) return perror("mkdtemp"), 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/input", scenario);
  peer_copy_tree(path, workspace);
  snprintf(path, sizeof path, "%s/patch.txt", scenario);
  size_t patch_len;
  char *patch = peer_read(path, &patch_len);
  if (!patch) return fprintf(stderr, "no patch.txt in %s\n", scenario), 2;

  char error[512];
  EddiEngine *engine = eddi_engine_new(workspace, NULL, error, sizeof error);
  if (!engine) return fprintf(stderr, "%s\n", error), 2;
  char *started = eddi_exec(engine, "peer", "Start peer", 10);
  eddi_string_free(started);
  size_t message_len = patch_len + 6;
  char *message = malloc(message_len + 1);
  memcpy(message, "Patch\n", 6);
  memcpy(message + 6, patch, patch_len);
  EddiReply reply;
  eddi_exec_reply(engine, "peer", message, message_len, &reply);
  bool ok = reply.count == 1 && reply.items[0].ok;
  printf("%s\n", reply.count ? reply.items[0].text : "(no reply)");
  int failures = 0;
  if (ok != want_ok) {
    fprintf(stderr, "  expected %s, got %s\n", want_ok ? "Ok" : "Fail", ok ? "Ok" : "Fail");
    failures++;
  }
  eddi_reply_free(&reply);
  eddi_engine_free(engine);
  if (eddi_alloc_live() != 0) {
    fprintf(stderr, "  %ld allocations leaked\n", eddi_alloc_live());
    failures++;
  }
  snprintf(path, sizeof path, "%s/%s", scenario, atomic ? "input" : "expected");
  if (!peer_tree_equal(path, workspace)) failures++;
  peer_rm_tree(workspace);
  free(patch);
  free(message);
  return failures ? 1 : 0;
}
