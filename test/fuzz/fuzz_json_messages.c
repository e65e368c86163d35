/* fuzz_json_messages.c - libFuzzer target for the JSON the server reads.
 *
 * Each input is one message body as NATS or a stdio line would bring it:
 * the link reads it as a request body (in both front ends' wordings), as a
 * session event and as a sync answer; parsed as one JSON object, it is
 * also the arguments of every edit-format call and of the `eddi` tool.
 * Nothing runs; a crash, a sanitizer report or a leak is a finding. (The
 * sender policy is the engine's now, reached only through a running
 * request.) */
#include <json-c/json.h>
#include <stdint.h>
#include <string.h>

#include "eddi_link.h"
#include "edit_calls.h"
#include "mcp_tools.h"

#define FUZZ_MAX_BYTES (1u << 20)

static void fuzz__ignore_event(void *closure, const EddiSessionEvent *event) {
  /* Touch every string: a dangling one is a sanitizer report. */
  size_t *total = closure;
  *total += strlen(event->session) + strlen(event->sender) + strlen(event->instance);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  char why[EDDI_LINK_FAIL_MAX];
  for (int terse = 0; terse < 2; terse++) {
    EddiLinkBodyRules rules = {FUZZ_MAX_BYTES, terse != 0};
    EddiLinkBody body;
    if (eddi_link_body_read(text, size, &rules, &body, why, sizeof why) == 0)
      eddi_link_body_free(&body);
  }
  size_t total = 0;
  eddi_link_event_read(text, size, FUZZ_MAX_BYTES, fuzz__ignore_event, &total);
  eddi_link_sync_answer_read(text, size, FUZZ_MAX_BYTES, fuzz__ignore_event, &total);

  json_object *object = NULL;
  if (eddi_link_check_bytes(text, size, FUZZ_MAX_BYTES, why, sizeof why) != 0) return 0;
  if (eddi_link_parse_object(text, size, &object, why, sizeof why) != 0) return 0;
  /* The same object as the arguments of every call a client may make. */
  json_object *arguments = object;
  json_object_object_get_ex(object, "params", &arguments);
  for (int kind = EDIT_CALL_READ; kind <= EDIT_CALL_REPLACE; kind++) {
    EditCall *call = NULL;
    if (edit_call_parse((EditCallKind)kind, arguments, "sender", FUZZ_MAX_BYTES, &call, why,
                        sizeof why) == 0)
      edit_call_free(call);
  }
  const char *tool_text;
  size_t tool_len;
  mcp_tool_text(arguments, &tool_text, &tool_len, why, sizeof why);
  json_object_put(object);
  return 0;
}
