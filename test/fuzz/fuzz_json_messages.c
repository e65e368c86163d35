/* fuzz_json_messages.c - libFuzzer target for the JSON the server reads.
 *
 * Each input is one message body as NATS or a stdio line would bring it:
 * the validator checks its bytes, parses it as JSON, reads the fields a
 * request names (sender, session, text), checks the sender against an
 * allowlist and a read-only list, and parses it as the arguments of every
 * edit-format call and of the `eddi` tool. Nothing runs; a crash, a
 * sanitizer report or a leak is a finding. */
#include <json-c/json.h>
#include <stdint.h>
#include <string.h>

#include "edit_calls.h"
#include "mcp_tools.h"
#include "validator.h"

#define FUZZ_WHY 512
#define FUZZ_MAX_BYTES (1u << 20)

static char *fuzz_senders_allowed[] = {"ann", "ci-bot"};
static char *fuzz_senders_read_only[] = {"reviewer"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ServerOptions options = {
      .max_message_bytes = FUZZ_MAX_BYTES,
      .allow = {fuzz_senders_allowed, 2},
      .read_only = {fuzz_senders_read_only, 1},
  };
  const char *text = (const char *)data;
  char why[FUZZ_WHY];
  json_object *body = NULL;
  if (validator_check_bytes(&options, text, size, why, sizeof why) != 0) return 0;
  if (validator_parse_json(text, size, &body, why, sizeof why) != 0) return 0;

  const char *sender = NULL, *session = NULL, *message = NULL;
  validator_get_string(body, "sender", &sender, why, sizeof why);
  validator_get_string(body, "session", &session, why, sizeof why);
  if (validator_get_string(body, "text", &message, why, sizeof why) == 0 && message && sender)
    validator_check_sender(&options, sender, message, strlen(message), why, sizeof why);

  /* The same object as the arguments of every call a client may make. */
  json_object *arguments = body;
  json_object_object_get_ex(body, "params", &arguments);
  for (int kind = EDIT_CALL_READ; kind <= EDIT_CALL_REPLACE; kind++) {
    EditCall *call = NULL;
    if (edit_call_parse((EditCallKind)kind, arguments, "sender", FUZZ_MAX_BYTES, &call, why,
                        sizeof why) == 0)
      edit_call_free(call);
  }
  const char *tool_text;
  size_t tool_len;
  mcp_tool_text(arguments, &tool_text, &tool_len, why, sizeof why);
  json_object_put(body);
  return 0;
}
