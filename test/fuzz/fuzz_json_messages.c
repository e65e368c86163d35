/* fuzz_json_messages.c - libFuzzer target for the JSON the server reads.
 *
 * Each input is one message body as NATS or a stdio line would bring it:
 * the link reads it as a request body (in both front ends' wordings), as a
 * session event and as a sync answer, and as any JSON value the way the
 * stdio reader does (strict, lone surrogates refused); as a subject it is
 * read for the user of --identity subject; parsed as one JSON object, it
 * is also the arguments of every edit-format call and of the `eddi` tool.
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
  json_object *value = NULL;
  const char *trouble = NULL;
  for (int terse = 0; terse < 2; terse++) {
    if (eddi_link_json_parse(text, size, terse != 0, &value, &trouble) == 0) {
      /* A stdio request's id, kept as written and echoed. */
      if (json_object_is_type(value, json_type_object) &&
          eddi_link_keep_number_text(value, text, size, "id"))
        total += strlen(json_object_to_json_string(value));
      json_object_put(value);
    } else {
      total += strlen(trouble);
    }
  }
  /* As a subject: the user --identity subject would run it as. */
  char subject[EDDI_LINK_SUBJECT_MAX * 4], user[EDDI_SENDER_NAME_MAX + 1];
  if (size < sizeof subject && !memchr(text, '\0', size)) {
    memcpy(subject, text, size);
    subject[size] = '\0';
    if (eddi_link_identity_of(subject, user, sizeof user)) total += strlen(user);
  }
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
