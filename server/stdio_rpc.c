/* stdio_rpc.c - see stdio_rpc.h.
 *
 * Errors follow the two layers MCP separates: a request that is malformed,
 * unknown or has bad params gets a JSON-RPC error (-32700, -32600, -32601,
 * -32602); a tool whose commands fail gets a result with isError true and
 * the engine's Fail text, so that the model reads it.
 */
#include "stdio_rpc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eddi_link.h"
#include "edit_calls.h"
#include "log.h"
#include "mcp_tools.h"
#include "server_error.h"

/* JSON-RPC 2.0 error codes. */
#define RPC_PARSE_ERROR -32700
#define RPC_INVALID_REQUEST -32600
#define RPC_METHOD_NOT_FOUND -32601
#define RPC_INVALID_PARAMS -32602
#define RPC_INTERNAL_ERROR -32603
/* Server-defined (the -32000..-32099 range): the engine answered Fail. */
#define RPC_COMMAND_FAILED -32000
/* The server is shutting down or its queue is full. */
#define RPC_SERVER_BUSY -32001

/* A request line may hold a message of max_message_bytes, escaped (JSON
 * doubles a newline or a quote), inside an envelope. */
#define STDIO_ESCAPE_FACTOR 2
#define STDIO_ENVELOPE_BYTES (64 * 1024)
/* A line buffer starts this big and doubles. */
#define STDIO_LINE_INITIAL_BYTES 4096
#define STDIO_WHY_MAX 256

/* MCP revisions this server speaks, newest first. A client asking for one
 * of them gets it; any other gets the newest. */
static const char *const stdio__protocol_versions[] = {"2025-06-18", "2025-03-26", "2024-11-05"};

static const char stdio__instructions[] =
    "eddi edits the files of one workspace. read and grep show lines under [PATH#TAG] "
    "headers; edit, apply_patch, file_update and replace change files, all or nothing. "
    "The eddi tool takes EddiSpeak commands: `Start <name>` first, then `Help`.";

/* -------------------------------------------------------------- output */

/* text (JSON) with every byte that is not part of valid UTF-8 replaced by
 * the escape of U+FFFD: json-c copies a string's bytes as they are, and a
 * file name read from the disk may be any bytes. Outside strings JSON is
 * ASCII, so every such byte is inside a string. NULL when text is valid:
 * it is then sent as it is. A new string otherwise. */
static char *stdio__valid_utf8(const char *text, size_t *len) {
  if (eddi_utf8_valid(text, *len)) return NULL;
  static const char replacement[] = "\\ufffd";
  size_t size = 0;
  char *out = malloc(*len * (sizeof replacement - 1) + 1);
  if (!out) return NULL;
  for (size_t i = 0; i < *len;) {
    unsigned char lead = (unsigned char)text[i];
    size_t n = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (n <= *len - i && eddi_utf8_valid(text + i, n)) {
      memcpy(out + size, text + i, n);
      size += n, i += n;
    } else {
      memcpy(out + size, replacement, sizeof replacement - 1);
      size += sizeof replacement - 1, i++;
    }
  }
  out[size] = '\0';
  *len = size;
  return out;
}

/* Write one message as one line. Consumes message. */
static void stdio__send(StdioRpc *self, json_object *message) {
  size_t len = 0;
  const char *text = json_object_to_json_string_length(
      message, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
  char *repaired = stdio__valid_utf8(text, &len);
  if (repaired) text = repaired;
  pthread_mutex_lock(&self->write_mutex);
  const char *parts[] = {text, "\n"};
  size_t sizes[] = {len, 1};
  for (size_t p = 0; p < 2; p++) {
    size_t done = 0;
    while (done < sizes[p]) {
      ssize_t n = write(self->out_fd, parts[p] + done, sizes[p] - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        log_report(LOG_ERROR, "stdio", "cannot write a response: %s", strerror(errno));
        goto done;
      }
      done += (size_t)n;
    }
  }
done:
  pthread_mutex_unlock(&self->write_mutex);
  free(repaired);
  json_object_put(message);
}

static json_object *stdio__envelope(json_object *id) {
  json_object *message = json_object_new_object();
  json_object_object_add(message, "jsonrpc", json_object_new_string("2.0"));
  json_object_object_add(message, "id", id ? json_object_get(id) : NULL);
  return message;
}

/* Borrows id; consumes result. */
static void stdio__result(StdioRpc *self, json_object *id, json_object *result) {
  json_object *message = stdio__envelope(id);
  json_object_object_add(message, "result", result);
  stdio__send(self, message);
}

static void stdio__error(StdioRpc *self, json_object *id, int code, const char *text) {
  json_object *error = json_object_new_object();
  json_object_object_add(error, "code", json_object_new_int(code));
  json_object_object_add(error, "message", json_object_new_string(text));
  json_object *message = stdio__envelope(id);
  json_object_object_add(message, "error", error);
  stdio__send(self, message);
}

/* ------------------------------------------------------- engine requests */

/* How a job answers: eddi.exec's replies, an edit method's result (or an
 * error for a Fail), or an MCP tool result. */
typedef enum { STDIO_EXEC, STDIO_EDIT_METHOD, STDIO_TOOL } StdioJobKind;

typedef struct {
  WorkItem item; /* first: the queue hands this back */
  StdioRpc *rpc;
  StdioJobKind kind;
  json_object *id;
  bool wants_session;
  char *sender;
  char *session;
  char *text;   /* EddiSpeak text, or NULL for an edit call */
  size_t len;
  EditCall *call;
} StdioJob;

static void stdio__job_free(StdioJob *job) {
  json_object_put(job->id);
  free(job->sender);
  free(job->session);
  free(job->text);
  edit_call_free(job->call);
  free(job);
}

static json_object *stdio__replies_json(const EddiReply *reply) {
  json_object *replies = json_object_new_array();
  for (size_t i = 0; i < reply->count; i++) {
    json_object *item = json_object_new_object();
    json_object_object_add(item, "ok", json_object_new_boolean(reply->items[i].ok));
    json_object_object_add(item, "text", json_object_new_string(reply->items[i].text));
    json_object_array_add(replies, item);
  }
  return replies;
}

/* Tools other than `eddi` work without a Start from the model: the sender
 * gets a session named after it the first time. False with the refusal in
 * reply when that session cannot be started. */
static bool stdio__ensure_session(EngineHost *host, const char *sender, EddiReply *reply) {
  if (engine_host_session_of(host, sender)) return true;
  char start[sizeof "Start " + EDDI_SENDER_NAME_MAX];
  snprintf(start, sizeof start, "Start %s", sender);
  HostRequest request = {"stdio", {.sender = sender, .text = start, .len = strlen(start)}};
  engine_host_exec(host, &request, reply);
  if (!engine_host_reply_ok(reply)) return false;
  eddi_reply_free(reply);
  return true;
}

/* An edit method's result: the text, and for a change the files it wrote
 * and whether it changed nothing. */
static json_object *stdio__edit_result(const EditCall *call, const char *text) {
  /* A query's answer is the engine's JSON, given as the result itself. */
  if (call->call.kind == EDIT_CALL_QUERY) {
    json_object *parsed = json_tokener_parse(text);
    if (parsed) return parsed;
  }
  json_object *answer = json_object_new_object();
  json_object_object_add(answer, "text", json_object_new_string(text));
  if (!edit_call_reads(call->call.kind)) {
    json_object_object_add(answer, "files", json_object_new_int64((int64_t)call->outcome.files));
    json_object_object_add(answer, "no_change", json_object_new_boolean(call->outcome.no_change));
  }
  return answer;
}

/* A job's reply, now or when its long work is done: the JSON-RPC response
 * (responses may come out of order: each names its id). */
static void stdio__job_answer(void *closure, const EddiReply *reply) {
  StdioJob *job = closure;
  char *joined = engine_host_join(reply);
  if (!joined) {
    stdio__error(job->rpc, job->id, RPC_INTERNAL_ERROR, "Out of memory");
    stdio__job_free(job);
    return;
  }
  bool ok = engine_host_reply_ok(reply);
  switch (job->kind) {
  case STDIO_EXEC: {
    json_object *answer = json_object_new_object();
    json_object_object_add(answer, "replies", stdio__replies_json(reply));
    json_object_object_add(answer, "text", json_object_new_string(joined));
    stdio__result(job->rpc, job->id, answer);
    break;
  }
  case STDIO_EDIT_METHOD:
    if (!ok || !job->call)
      stdio__error(job->rpc, job->id, RPC_COMMAND_FAILED, joined);
    else
      stdio__result(job->rpc, job->id, stdio__edit_result(job->call, joined));
    break;
  case STDIO_TOOL: {
    json_object *content = json_object_new_array(), *text = json_object_new_object();
    json_object_object_add(text, "type", json_object_new_string("text"));
    json_object_object_add(text, "text", json_object_new_string(joined));
    json_object_array_add(content, text);
    json_object *answer = json_object_new_object();
    json_object_object_add(answer, "content", content);
    json_object_object_add(answer, "isError", json_object_new_boolean(!ok));
    stdio__result(job->rpc, job->id, answer);
    break;
  }
  }
  free(joined);
  stdio__job_free(job);
}

static void stdio__job_run(WorkItem *item, void *context) {
  StdioJob *job = (StdioJob *)item;
  EngineHost *host = context;
  EddiReply reply = {0};
  /* When the session cannot be started, reply says why. */
  bool ready = !job->wants_session || stdio__ensure_session(host, job->sender, &reply);
  if (ready && !job->call) {
    /* EddiSpeak text may meet long work: answered when it is done. */
    HostRequest request = {"stdio", {.sender = job->sender, .session = job->session,
                                     .text = job->text, .len = job->len}};
    engine_host_exec_answer(host, &request, stdio__job_answer, job);
    return;
  }
  if (ready) edit_call_run(job->call, host, "stdio", job->sender, job->session, &reply);
  stdio__job_answer(job, &reply);
  eddi_reply_free(&reply);
}

/* Queue a job; consumes text and call (one of them is set). Answers at
 * once when it cannot be queued. */
/* What one request asks of the engine: text (taken), or a typed call
 * (taken), as sender in session; wants_session: the reply names it. */
typedef struct {
  StdioJobKind kind;
  const char *sender;
  const char *session;
  bool wants_session;
  char *text;
  size_t len;
  EditCall *call;
} StdioWork;

static void stdio__submit(StdioRpc *self, json_object *id, const StdioWork *work) {
  const char *sender = work->sender, *session = work->session;
  char *text = work->text;
  EditCall *call = work->call;
  StdioJob *job = calloc(1, sizeof *job);
  if (!job || !(job->sender = strdup(sender)) || (session && !(job->session = strdup(session)))) {
    if (job) stdio__job_free(job);
    free(text);
    edit_call_free(call);
    stdio__error(self, id, RPC_INTERNAL_ERROR, "Out of memory");
    return;
  }
  job->item.lane = job->sender;
  job->item.run = stdio__job_run;
  job->rpc = self;
  job->kind = work->kind;
  job->id = json_object_get(id);
  job->wants_session = work->wants_session;
  job->text = text;
  job->len = work->len;
  job->call = call;
  int status = engine_host_submit(self->host, &job->item);
  if (status != SERVER_OK) {
    stdio__error(self, id, RPC_SERVER_BUSY, engine_host_refusal(status));
    stdio__job_free(job);
  }
}

/* ------------------------------------------------------------- methods */

static json_object *stdio__params(json_object *request) {
  json_object *params = NULL;
  json_object_object_get_ex(request, "params", &params);
  return params && json_object_is_type(params, json_type_object) ? params : NULL;
}

static const char *stdio__param_string(json_object *params, const char *key) {
  json_object *value = NULL;
  if (!params || !json_object_object_get_ex(params, key, &value) ||
      !json_object_is_type(value, json_type_string))
    return NULL;
  return json_object_get_string(value);
}

/* Queue EddiSpeak text for the engine, after the limits every transport
 * sets; answers at once when it is refused. */
static void stdio__submit_text(StdioRpc *self, json_object *id, StdioJobKind kind,
                               const char *sender, const char *session, const char *text,
                               size_t len) {
  char why[EDDI_LINK_FAIL_MAX];
  if (eddi_link_check_bytes(text, len, self->host->options->max_message_bytes, why,
                            sizeof why) != 0) {
    stdio__error(self, id, RPC_INVALID_PARAMS, why);
    return;
  }
  char *copy = malloc(len + 1);
  if (!copy) {
    stdio__error(self, id, RPC_INTERNAL_ERROR, "Out of memory");
    return;
  }
  memcpy(copy, text, len);
  copy[len] = '\0';
  StdioWork work = {kind, sender, session, false, copy, len, NULL};
  stdio__submit(self, id, &work);
}

static void stdio__initialize(StdioRpc *self, json_object *id, json_object *params) {
  const char *asked = stdio__param_string(params, "protocolVersion");
  const char *version = stdio__protocol_versions[0];
  size_t count = sizeof stdio__protocol_versions / sizeof stdio__protocol_versions[0];
  for (size_t i = 0; asked && i < count; i++)
    if (strcmp(asked, stdio__protocol_versions[i]) == 0) version = stdio__protocol_versions[i];
  json_object *tools = json_object_new_object();
  json_object_object_add(tools, "listChanged", json_object_new_boolean(false));
  json_object *capabilities = json_object_new_object();
  json_object_object_add(capabilities, "tools", tools);
  json_object *info = json_object_new_object();
  json_object_object_add(info, "name", json_object_new_string("eddi"));
  json_object_object_add(info, "version", json_object_new_string(EDDI_VERSION));
  json_object *result = json_object_new_object();
  json_object_object_add(result, "protocolVersion", json_object_new_string(version));
  json_object_object_add(result, "capabilities", capabilities);
  json_object_object_add(result, "serverInfo", info);
  json_object_object_add(result, "instructions", json_object_new_string(stdio__instructions));
  stdio__result(self, id, result);
}

/* Parse an edit call and queue it; bad arguments are answered at once. */
static void stdio__edit_call(StdioRpc *self, json_object *id, StdioJobKind kind,
                             EditCallKind call_kind, json_object *arguments, const char *sender) {
  char why[STDIO_WHY_MAX];
  EditCall *call = NULL;
  int status = edit_call_parse(call_kind, arguments, kind == STDIO_TOOL ? NULL : "sender",
                               self->host->options->max_message_bytes, &call, why, sizeof why);
  if (status != SERVER_OK) {
    stdio__error(self, id, status == SERVER_ENOMEM ? RPC_INTERNAL_ERROR : RPC_INVALID_PARAMS,
                 status == SERVER_ENOMEM ? "Out of memory" : why);
    return;
  }
  /* These calls work without a Start from the caller: the sender gets a
   * session named after it the first time. */
  StdioWork work = {kind, sender, NULL, true, NULL, 0, call};
  stdio__submit(self, id, &work);
}

static void stdio__tools_call(StdioRpc *self, json_object *id, json_object *params) {
  const char *name = stdio__param_string(params, "name");
  if (!name) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "Missing tool name");
    return;
  }
  const McpTool *tool = mcp_tools_find(&self->host->features, name);
  if (!tool) {
    char why[STDIO_WHY_MAX];
    snprintf(why, sizeof why, "Unknown tool: %.200s", name);
    stdio__error(self, id, RPC_INVALID_PARAMS, why);
    return;
  }
  json_object *arguments = NULL;
  json_object_object_get_ex(params, "arguments", &arguments);
  if (!mcp_tool_is_eddispeak(tool)) {
    stdio__edit_call(self, id, STDIO_TOOL, mcp_tool_kind(tool), arguments, STDIO_SENDER);
    return;
  }
  char why[STDIO_WHY_MAX];
  const char *text;
  size_t len;
  if (mcp_tool_text(arguments, &text, &len, why, sizeof why) != SERVER_OK) {
    stdio__error(self, id, RPC_INVALID_PARAMS, why);
    return;
  }
  /* `eddi` leaves sessions to the model. */
  stdio__submit_text(self, id, STDIO_TOOL, STDIO_SENDER, NULL, text, len);
}

static void stdio__exec(StdioRpc *self, json_object *id, json_object *params) {
  json_object *text_value = NULL;
  if (!params || !json_object_object_get_ex(params, "text", &text_value) ||
      !json_object_is_type(text_value, json_type_string)) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "params.text must be a string");
    return;
  }
  const char *sender = stdio__param_string(params, "sender");
  const char *session = stdio__param_string(params, "session");
  size_t len = (size_t)json_object_get_string_len(text_value);
  const char *text = json_object_get_string(text_value);
  stdio__submit_text(self, id, STDIO_EXEC, sender ? sender : STDIO_SENDER, session, text, len);
}

/* The edit formats as JSON-RPC methods: params as the MCP tool's arguments,
 * plus an optional sender (doc/protocol.org, "Edit methods"). */
static const struct {
  const char *method;
  EditCallKind kind;
} stdio__edit_methods[] = {
    {"file.update", EDIT_CALL_FILE_UPDATE},
    {"edit.read", EDIT_CALL_READ},
    {"edit.grep", EDIT_CALL_GREP},
    {"edit.hashline", EDIT_CALL_HASHLINE},
    {"edit.apply_patch", EDIT_CALL_APPLY_PATCH},
    {"edit.search_replace", EDIT_CALL_SEARCH_REPLACE},
    {"edit.replace", EDIT_CALL_REPLACE},
    {"refactor.rename", EDIT_CALL_REFACTOR},
    {"refactor.preview", EDIT_CALL_PREVIEW},
    {"code.query", EDIT_CALL_QUERY},
};

/* True when method is an edit method (then it has been answered or queued). */
static bool stdio__edit_method(StdioRpc *self, json_object *id, const char *method,
                               json_object *params) {
  size_t count = sizeof stdio__edit_methods / sizeof stdio__edit_methods[0];
  for (size_t i = 0; i < count; i++) {
    if (strcmp(stdio__edit_methods[i].method, method) != 0) continue;
    EditCallKind kind = stdio__edit_methods[i].kind;
    if (!edit_call_available(kind, &self->host->features)) {
      char why[STDIO_WHY_MAX];
      snprintf(why, sizeof why, "Method not available in this build: %s", method);
      stdio__error(self, id, RPC_METHOD_NOT_FOUND, why);
      return true;
    }
    json_object *sender_value = NULL;
    if (params && json_object_object_get_ex(params, "sender", &sender_value) &&
        !json_object_is_type(sender_value, json_type_string)) {
      stdio__error(self, id, RPC_INVALID_PARAMS, "params.sender must be a string");
      return true;
    }
    const char *sender = stdio__param_string(params, "sender");
    stdio__edit_call(self, id, STDIO_EDIT_METHOD, kind, params, sender ? sender : STDIO_SENDER);
    return true;
  }
  return false;
}

/* MCP's methods other than initialize and ping: the lifecycle says a
 * client sends them only once initialize is answered. eddi's own methods
 * (eddi.exec, the edit methods) are not MCP's and need no handshake. */
static bool stdio__mcp_method(const char *method) {
  return strcmp(method, "tools/list") == 0 || strcmp(method, "tools/call") == 0;
}

/* One parsed message: a request (has an id) or a notification. */
static void stdio__dispatch(StdioRpc *self, json_object *message, const char *text,
                            size_t len) {
  json_object *id = NULL, *version = NULL, *method_value = NULL;
  bool has_id = json_object_object_get_ex(message, "id", &id);
  /* JSON-RPC 2.0 allows a null id (discouraged); MCP does not: "the ID MUST
   * NOT be null". A null id is not a request to answer as one. */
  if (has_id && (!id || (!json_object_is_type(id, json_type_string) &&
                         !json_object_is_type(id, json_type_int)))) {
    stdio__error(self, NULL, RPC_INVALID_REQUEST, "Invalid Request: id must be a string or number");
    return;
  }
  /* Answered with the id as sent: 123456789012345678901234567890, not
   * json-c's 64-bit clamp of it. */
  if (has_id) eddi_link_keep_number_text(message, text, len, "id");
  if (!json_object_object_get_ex(message, "jsonrpc", &version) ||
      strcmp(json_object_get_string(version), "2.0") != 0 ||
      !json_object_object_get_ex(message, "method", &method_value) ||
      !json_object_is_type(method_value, json_type_string)) {
    /* A response from the client (result/error, no method) needs no answer:
     * this server sends no requests. */
    if (!json_object_object_get_ex(message, "method", NULL) &&
        (json_object_object_get_ex(message, "result", NULL) ||
         json_object_object_get_ex(message, "error", NULL)))
      return;
    stdio__error(self, id, RPC_INVALID_REQUEST, "Invalid Request");
    return;
  }
  const char *method = json_object_get_string(method_value);
  json_object *params = stdio__params(message);
  if (!has_id) return; /* notifications/initialized and the like: nothing to do */

  if (strcmp(method, "initialize") == 0) {
    self->initialized = true;
    stdio__initialize(self, id, params);
  } else if (!self->initialized && stdio__mcp_method(method))
    stdio__error(self, id, RPC_INVALID_REQUEST, "Invalid Request: send initialize first");
  else if (strcmp(method, "ping") == 0)
    stdio__result(self, id, json_object_new_object());
  else if (strcmp(method, "tools/list") == 0) {
    json_object *result = json_object_new_object();
    json_object_object_add(result, "tools", mcp_tools_list(&self->host->features));
    stdio__result(self, id, result);
  } else if (strcmp(method, "tools/call") == 0)
    stdio__tools_call(self, id, params);
  else if (strcmp(method, "eddi.exec") == 0)
    stdio__exec(self, id, params);
  else if (!stdio__edit_method(self, id, method, params)) {
    char why[STDIO_WHY_MAX];
    snprintf(why, sizeof why, "Method not found: %.200s", method);
    stdio__error(self, id, RPC_METHOD_NOT_FOUND, why);
  }
}

static void stdio__handle_line(StdioRpc *self, const char *line, size_t len) {
  size_t start = 0;
  while (start < len && (line[start] == ' ' || line[start] == '\t' || line[start] == '\r'))
    start++;
  if (start == len) return;
  json_object *message = NULL;
  const char *trouble = NULL;
  int rc = eddi_link_json_parse(line + start, len - start, false, &message, &trouble);
  if (rc == EDDI_LINK_ENOMEM) {
    stdio__error(self, NULL, RPC_INTERNAL_ERROR, "Out of memory");
  } else if (rc < 0) {
    /* A syntax error is just "Parse error"; a lone surrogate is valid
     * syntax, refused for what json-c would make of it: say so. */
    bool surrogate = strcmp(trouble, EDDI_LINK_JSON_LONE_SURROGATE) == 0;
    bool duplicate = strcmp(trouble, EDDI_LINK_JSON_DUPLICATE_KEY) == 0;
    stdio__error(self, NULL, RPC_PARSE_ERROR,
                 surrogate   ? "Parse error: " EDDI_LINK_JSON_LONE_SURROGATE
                 : duplicate ? "Parse error: " EDDI_LINK_JSON_DUPLICATE_KEY
                             : "Parse error");
  } else if (json_object_is_type(message, json_type_array)) {
    stdio__error(self, NULL, RPC_INVALID_REQUEST, "Invalid Request: batches are not supported");
  } else if (!json_object_is_type(message, json_type_object)) {
    stdio__error(self, NULL, RPC_INVALID_REQUEST, "Invalid Request");
  } else {
    stdio__dispatch(self, message, line + start, len - start);
  }
  json_object_put(message);
}

/* ---------------------------------------------------------------- input */

/* Read lines by length, byte by byte from stdio's buffer: a NUL is a byte
 * like any other (fgets and strlen would stop at it and lose the rest of
 * the line, newline included, so the next request would be read as part of
 * this one). A line past the limit is refused whole without being kept. */
static void *stdio__main(void *closure) {
  StdioRpc *self = closure;
  size_t limit = self->host->options->max_message_bytes * STDIO_ESCAPE_FACTOR +
                 STDIO_ENVELOPE_BYTES;
  char *line = NULL;
  size_t len = 0, cap = 0;
  bool too_long = false;
  int c;
  flockfile(self->in); /* this thread is its only reader */
  while ((c = getc_unlocked(self->in)) != EOF) {
    if (c == '\n') {
      if (too_long)
        stdio__error(self, NULL, RPC_INVALID_REQUEST, "Invalid Request: message too large");
      else
        stdio__handle_line(self, line ? line : "", len);
      len = 0;
      too_long = false;
      continue;
    }
    if (too_long) continue;
    if (len + 1 > limit) {
      too_long = true;
      continue;
    }
    if (len + 1 > cap) {
      size_t grown = cap ? cap * 2 : STDIO_LINE_INITIAL_BYTES;
      char *bigger = realloc(line, grown);
      if (!bigger) {
        too_long = true;
        continue;
      }
      line = bigger;
      cap = grown;
    }
    line[len++] = (char)c;
  }
  funlockfile(self->in);
  if (len > 0 && !too_long) stdio__handle_line(self, line, len);
  free(line);
  if (self->on_end) self->on_end();
  return NULL;
}

int stdio_rpc_start(StdioRpc *self, EngineHost *host, FILE *in, int out_fd, void (*on_end)(void)) {
  memset(self, 0, sizeof *self);
  self->host = host;
  self->in = in;
  self->out_fd = out_fd;
  self->on_end = on_end;
  if (pthread_mutex_init(&self->write_mutex, NULL)) return SERVER_ENOMEM;
  if (pthread_create(&self->thread, NULL, stdio__main, self)) {
    pthread_mutex_destroy(&self->write_mutex);
    return SERVER_EIO;
  }
  self->running = true;
  return SERVER_OK;
}

void stdio_rpc_join(StdioRpc *self) {
  if (!self->running) return;
  pthread_join(self->thread, NULL);
  pthread_mutex_destroy(&self->write_mutex);
  self->running = false;
}
