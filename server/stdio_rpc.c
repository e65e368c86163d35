/* stdio_rpc.c - see stdio_rpc.h.
 *
 * Errors follow the two layers MCP separates: a request that is malformed,
 * unknown or has bad params gets a JSON-RPC error (-32700, -32600, -32601,
 * -32602); a tool whose commands fail gets a result with isError true and
 * the engine's Fail text, so that the model reads it. A resource URI eddi
 * does not have is MCP's -32002.
 *
 * A request that needs the engine is "in flight" from its submit to its
 * answer: notifications/cancelled finds it there by id (and its engine
 * ticket, to stop its long work), and the progress ticker finds the ones
 * that asked for progress. Its answer takes it out first, so that no
 * progress follows a response and no cancel reaches a freed job.
 */
#include "stdio_rpc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eddi_link.h"
#include "edit_calls.h"
#include "log.h"
#include "mcp_resources.h"
#include "mcp_tools.h"
#include "python_run.h"
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
#define STDIO_WHY_MAX 1024
/* How often a long request that gave a progress token hears of it, and
 * how long it runs before the first time. */
#define STDIO_PROGRESS_INTERVAL_MS 200

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
/* How a job answers: eddi.exec's replies, an edit method's result (or an
 * error for a Fail), an MCP tool result, or a resource request that needs
 * the engine's documents (text is its URI, or NULL for resources/list). */
typedef enum {
  STDIO_EXEC,
  STDIO_EDIT_METHOD,
  STDIO_TOOL,
  STDIO_RESOURCES_LIST,
  STDIO_RESOURCE_READ
} StdioJobKind;

typedef struct StdioJob {
  WorkItem item; /* first: the queue hands this back */
  StdioRpc *rpc;
  StdioJobKind kind;
  json_object *id;
  bool wants_session;
  bool collect_only; /* eddi.exec's collect_only: reads and collected scripts only */
  char *sender;
  char *session;
  char *text;   /* EddiSpeak text, or NULL for an edit call */
  size_t len;
  EditCall *call;
  const char *tool; /* the MCP tool called, for its structured output; or NULL */
  /* In flight (rpc->in_flight, under state_mutex) from submit to answer. */
  struct StdioJob *next;
  uint64_t ticket;
  json_object *progress_token; /* _meta.progressToken, or NULL */
  int64_t started_ms;          /* 0 until the owner thread runs it */
  int64_t progress_sent_ms;
  bool cancelled; /* notifications/cancelled named it: no response */
} StdioJob;

static int64_t stdio__now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Take job out of the requests in flight: from now on no progress names it
 * and no cancel finds it. */
static void stdio__flight_remove(StdioRpc *self, StdioJob *job) {
  pthread_mutex_lock(&self->state_mutex);
  for (StdioJob **link = &self->in_flight; *link; link = &(*link)->next)
    if (*link == job) {
      *link = job->next;
      break;
    }
  pthread_mutex_unlock(&self->state_mutex);
}

static void stdio__job_free(StdioJob *job) {
  if (job->rpc) stdio__flight_remove(job->rpc, job);
  json_object_put(job->progress_token);
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
/* A preview's answer is kept as the resource eddi://preview/{n}. */
static void stdio__keep_preview(StdioRpc *self, const EditCall *call, const char *text) {
  /* The reply line describes it; the resource is the diff alone. */
  const char *newline = strchr(text, '\n');
  int summary_len = newline ? (int)(newline - text) : (int)strlen(text);
  char title[STDIO_WHY_MAX];
  snprintf(title, sizeof title, "%s %s%s%s: %.*s", call->call.operation,
           call->call.text ? call->call.text : "", call->call.new_name ? " -> " : "",
           call->call.new_name ? call->call.new_name : "", summary_len, text);
  char *kept = strdup(newline ? newline + 1 : ""), *kept_title = strdup(title);
  if (!kept || !kept_title) {
    free(kept), free(kept_title);
    return;
  }
  pthread_mutex_lock(&self->state_mutex);
  size_t slot = self->previews_made % STDIO_PREVIEWS_KEPT;
  free(self->previews[slot]);
  free(self->preview_titles[slot]);
  self->previews[slot] = kept;
  self->preview_titles[slot] = kept_title;
  self->previews_made++;
  pthread_mutex_unlock(&self->state_mutex);
}

static void stdio__job_answer(void *closure, const EddiReply *reply) {
  StdioJob *job = closure;
  stdio__flight_remove(job->rpc, job);
  if (job->cancelled) { /* set before its removal; nobody sets it now */
    stdio__job_free(job);
    return;
  }
  char *joined = engine_host_join(reply);
  if (!joined) {
    stdio__error(job->rpc, job->id, RPC_INTERNAL_ERROR, "Out of memory");
    stdio__job_free(job);
    return;
  }
  bool ok = engine_host_reply_ok(reply);
  if (ok && job->call && job->call->call.kind == EDIT_CALL_PREVIEW)
    stdio__keep_preview(job->rpc, job->call, joined);
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
    /* A tool with an outputSchema answers its data too (MCP: a client
     * checks it against the schema); a Fail is text only. */
    json_object *structured = ok && job->tool ? mcp_tool_structured(job->tool, joined) : NULL;
    if (structured) json_object_object_add(answer, "structuredContent", structured);
    json_object_object_add(answer, "isError", json_object_new_boolean(!ok));
    stdio__result(job->rpc, job->id, answer);
    break;
  }
  case STDIO_RESOURCES_LIST:
  case STDIO_RESOURCE_READ:
    break; /* answered by stdio__resources_run */
  }
  free(joined);
  stdio__job_free(job);
}

/* ------------------------------------------------------- resources */

typedef struct {
  const char *root;
  const char *wanted; /* resource read: the workspace path, else NULL */
  json_object *list;  /* resources/list: the entries */
  json_object *found; /* resource read: the contents */
  const char *uri;
} StdioDocuments;

static void stdio__visit_document(void *closure, const char *path, const char *text, size_t len,
                                  bool modified) {
  StdioDocuments *documents = closure;
  if (documents->wanted) {
    if (!documents->found && strcmp(path, documents->wanted) == 0)
      documents->found = mcp_resource_contents(documents->uri, "text/plain", text, len);
    return;
  }
  char *uri = mcp_file_uri(documents->root, path);
  if (!uri) return;
  json_object_array_add(documents->list,
                        mcp_resource_entry(uri, path,
                                           modified ? "Open in eddi, with unsaved edits"
                                                    : "Open in eddi",
                                           "text/plain"));
  free(uri);
}

/* Owner thread: resources/list (the reference, the stdio session's open
 * documents, the kept previews) or the read of an open document. */
static void stdio__resources_run(StdioJob *job, EngineHost *host) {
  StdioRpc *self = job->rpc;
  const char *root = eddi_engine_root(host->engine);
  if (job->kind == STDIO_RESOURCES_LIST) {
    StdioDocuments documents = {.root = root, .list = mcp_resources_fixed()};
    eddi_engine_each_document(host->engine, STDIO_SENDER, stdio__visit_document, &documents);
    pthread_mutex_lock(&self->state_mutex);
    size_t first = self->previews_made > STDIO_PREVIEWS_KEPT
                       ? self->previews_made - STDIO_PREVIEWS_KEPT : 0;
    for (size_t n = first + 1; n <= self->previews_made; n++) {
      char uri[sizeof MCP_PREVIEW_URI_PREFIX + 24], name[32];
      snprintf(uri, sizeof uri, MCP_PREVIEW_URI_PREFIX "%zu", n);
      snprintf(name, sizeof name, "preview %zu", n);
      json_object_array_add(documents.list,
                            mcp_resource_entry(uri, name,
                                               self->preview_titles[(n - 1) % STDIO_PREVIEWS_KEPT],
                                               "text/x-diff"));
    }
    pthread_mutex_unlock(&self->state_mutex);
    json_object *result = json_object_new_object();
    json_object_object_add(result, "resources", documents.list);
    stdio__result(self, job->id, result);
    return;
  }
  char *path = mcp_file_uri_path(root, job->text);
  StdioDocuments documents = {.root = root, .wanted = path, .uri = job->text};
  if (path) eddi_engine_each_document(host->engine, STDIO_SENDER, stdio__visit_document, &documents);
  if (documents.found) {
    stdio__result(self, job->id, documents.found);
  } else {
    char why[STDIO_WHY_MAX];
    snprintf(why, sizeof why,
             path ? "Resource not found: %.300s is not open in the stdio session; open it "
                    "(eddi tool: Open PATH) or read it with the read tool"
                  : "Resource not found: %.300s is not a file:// URI inside the workspace %.300s",
             job->text, root);
    stdio__error(self, job->id, MCP_RESOURCE_NOT_FOUND, why);
  }
  free(path);
}

static void stdio__job_run(WorkItem *item, void *context) {
  StdioJob *job = (StdioJob *)item;
  EngineHost *host = context;
  EddiReply reply = {0};
  /* Cancelled while queued: it never runs, and gets no response. */
  pthread_mutex_lock(&job->rpc->state_mutex);
  bool cancelled = job->cancelled;
  job->started_ms = stdio__now_ms();
  pthread_mutex_unlock(&job->rpc->state_mutex);
  if (cancelled) {
    stdio__job_free(job);
    return;
  }
  if (job->kind == STDIO_RESOURCES_LIST || job->kind == STDIO_RESOURCE_READ) {
    stdio__resources_run(job, host);
    stdio__job_free(job);
    return;
  }
  /* When the session cannot be started, reply says why. */
  bool ready = !job->wants_session || stdio__ensure_session(host, job->sender, &reply);
  if (ready && !job->call) {
    /* EddiSpeak text may meet long work: answered when it is done. */
    HostRequest request = {"stdio", {.sender = job->sender, .session = job->session,
                                     .text = job->text, .len = job->len,
                                     .ticket = job->ticket,
                                     .collect_only = job->collect_only}};
    engine_host_exec_answer(host, &request, stdio__job_answer, job);
    return;
  }
  if (ready) {
    job->call->ticket = job->ticket;
    edit_call_run(job->call, host, "stdio", job->sender, job->session, &reply);
  }
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
  bool collect_only;
  char *text;
  size_t len;
  EditCall *call;
  const char *tool;            /* the MCP tool, or NULL */
  json_object *progress_token; /* borrowed; NULL: none asked */
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
  job->collect_only = work->collect_only;
  job->text = text;
  job->len = work->len;
  job->call = call;
  job->tool = work->tool;
  job->ticket = engine_host_new_ticket(self->host);
  job->progress_token = work->progress_token ? json_object_get(work->progress_token) : NULL;
  pthread_mutex_lock(&self->state_mutex);
  job->next = self->in_flight;
  self->in_flight = job;
  pthread_mutex_unlock(&self->state_mutex);
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

/* params._meta.progressToken (a string or an integer), borrowed, or NULL. */
static json_object *stdio__progress_token(json_object *params) {
  json_object *meta = NULL, *token = NULL;
  if (!params || !json_object_object_get_ex(params, "_meta", &meta) ||
      !json_object_is_type(meta, json_type_object) ||
      !json_object_object_get_ex(meta, "progressToken", &token))
    return NULL;
  return json_object_is_type(token, json_type_string) || json_object_is_type(token, json_type_int)
             ? token
             : NULL;
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
                               const char *sender, const char *session, bool collect_only,
                               const char *text, size_t len, const char *tool,
                               json_object *progress_token) {
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
  StdioWork work = {.kind = kind, .sender = sender, .session = session,
                    .collect_only = collect_only, .text = copy, .len = len, .tool = tool,
                    .progress_token = progress_token};
  stdio__submit(self, id, &work);
}

static void stdio__initialize(StdioRpc *self, json_object *id, json_object *params) {
  const char *asked = stdio__param_string(params, "protocolVersion");
  const char *version = stdio__protocol_versions[0];
  size_t count = sizeof stdio__protocol_versions / sizeof stdio__protocol_versions[0];
  for (size_t i = 0; asked && i < count; i++)
    if (strcmp(asked, stdio__protocol_versions[i]) == 0) version = stdio__protocol_versions[i];
  /* The tool set is fixed at start (the engine's features are probed
   * once; a language server changes what Refactor checks, not the tools),
   * and so are the prompts; the resources change, but this server sends no
   * list_changed for them: a client asks resources/list again. */
  json_object *tools = json_object_new_object();
  json_object_object_add(tools, "listChanged", json_object_new_boolean(false));
  json_object *resources = json_object_new_object();
  json_object_object_add(resources, "subscribe", json_object_new_boolean(false));
  json_object_object_add(resources, "listChanged", json_object_new_boolean(false));
  json_object *prompts = json_object_new_object();
  json_object_object_add(prompts, "listChanged", json_object_new_boolean(false));
  json_object *capabilities = json_object_new_object();
  json_object_object_add(capabilities, "tools", tools);
  json_object_object_add(capabilities, "resources", resources);
  json_object_object_add(capabilities, "prompts", prompts);
  json_object_object_add(capabilities, "logging", json_object_new_object());
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
                             EditCallKind call_kind, json_object *arguments, const char *sender,
                             const char *tool, json_object *progress_token) {
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
  StdioWork work = {.kind = kind, .sender = sender, .wants_session = true, .call = call,
                    .tool = tool, .progress_token = progress_token};
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
  json_object *progress_token = stdio__progress_token(params);
  if (!mcp_tool_is_eddispeak(tool)) {
    stdio__edit_call(self, id, STDIO_TOOL, mcp_tool_kind(tool), arguments, STDIO_SENDER,
                     tool->name, progress_token);
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
  stdio__submit_text(self, id, STDIO_TOOL, STDIO_SENDER, NULL, false, text, len, tool->name,
                     progress_token);
}

static void stdio__exec(StdioRpc *self, json_object *id, json_object *params) {
  json_object *text_value = NULL;
  if (!params || !json_object_object_get_ex(params, "text", &text_value) ||
      !json_object_is_type(text_value, json_type_string)) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "params.text must be a string");
    return;
  }
  json_object *collect_value = NULL;
  if (json_object_object_get_ex(params, "collect_only", &collect_value) &&
      !json_object_is_type(collect_value, json_type_boolean)) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "params.collect_only must be true or false");
    return;
  }
  const char *sender = stdio__param_string(params, "sender");
  const char *session = stdio__param_string(params, "session");
  size_t len = (size_t)json_object_get_string_len(text_value);
  const char *text = json_object_get_string(text_value);
  stdio__submit_text(self, id, STDIO_EXEC, sender ? sender : STDIO_SENDER, session,
                     collect_value && json_object_get_boolean(collect_value), text, len, NULL,
                     stdio__progress_token(params));
}

/* ------------------------------------------------------------- python.run */

/* A python.run call on its thread: its own copies of what it was asked. */
typedef struct {
  StdioRpc *rpc;
  json_object *id;
  PythonRunArgs args;
  char *script;
  char **argv; /* the script's arguments, NULL-terminated */
} StdioPythonRun;

static void stdio__python_run_free(StdioPythonRun *run) {
  for (size_t i = 0; run->argv && run->argv[i]; i++) free(run->argv[i]);
  free(run->argv);
  free(run->script);
  json_object_put(run->id);
  free(run);
}

static void *stdio__python_run_main(void *arg) {
  StdioPythonRun *run = arg;
  StdioRpc *self = run->rpc;
  PythonRunResult result;
  char why[STDIO_WHY_MAX];
  if (python_run(self->host, &run->args, &result, why, sizeof why) == SERVER_OK) {
    json_object *answer = json_object_new_object();
    json_object_object_add(answer, "exit", json_object_new_int(result.status));
    json_object_object_add(answer, "stdout", json_object_new_string(result.out ? result.out : ""));
    json_object_object_add(answer, "stderr", json_object_new_string(result.err ? result.err : ""));
    stdio__result(self, run->id, answer);
    python_run_result_free(&result);
  } else {
    stdio__error(self, run->id, RPC_INTERNAL_ERROR, why);
  }
  stdio__python_run_free(run);
  pthread_mutex_lock(&self->state_mutex);
  self->python_runs--;
  pthread_cond_broadcast(&self->python_done);
  pthread_mutex_unlock(&self->state_mutex);
  return NULL;
}

/* params.args: absent, or an array of strings; copied NULL-terminated. */
static bool stdio__python_args(json_object *params, char ***out) {
  json_object *args = NULL;
  *out = calloc(1, sizeof **out);
  if (!*out) return false;
  if (!json_object_object_get_ex(params, "args", &args)) return true;
  if (!json_object_is_type(args, json_type_array)) return false;
  size_t n = json_object_array_length(args);
  char **copy = realloc(*out, (n + 1) * sizeof *copy);
  if (!copy) return false;
  *out = copy;
  for (size_t i = 0; i <= n; i++) copy[i] = NULL;
  for (size_t i = 0; i < n; i++) {
    json_object *arg = json_object_array_get_idx(args, i);
    if (!json_object_is_type(arg, json_type_string) || !(copy[i] = strdup(json_object_get_string(arg))))
      return false;
  }
  return true;
}

/* python.run {script, args?, apply?, timeout?, sender?}: checked here,
 * run on a thread of its own (python_run.h). */
static void stdio__python_run(StdioRpc *self, json_object *id, json_object *params) {
  static const char *const keys[] = {"script", "args", "apply", "timeout", "sender", NULL};
  char why[STDIO_WHY_MAX];
  json_object *script = NULL, *apply = NULL, *timeout = NULL;
  if (!params || !json_object_object_get_ex(params, "script", &script) ||
      !json_object_is_type(script, json_type_string)) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "params.script must be a string: the script's text");
    return;
  }
  if (edit_call_known_keys(params, keys, why, sizeof why) != SERVER_OK) {
    stdio__error(self, id, RPC_INVALID_PARAMS, why);
    return;
  }
  if (json_object_object_get_ex(params, "apply", &apply) &&
      !json_object_is_type(apply, json_type_boolean)) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "params.apply must be true or false");
    return;
  }
  int seconds = PYTHON_RUN_TIMEOUT_DEFAULT;
  if (json_object_object_get_ex(params, "timeout", &timeout)) {
    seconds = json_object_is_type(timeout, json_type_int) ? json_object_get_int(timeout) : -1;
    if (seconds < 1 || seconds > PYTHON_RUN_TIMEOUT_MAX) {
      snprintf(why, sizeof why, "params.timeout must be whole seconds from 1 to %d",
               PYTHON_RUN_TIMEOUT_MAX);
      stdio__error(self, id, RPC_INVALID_PARAMS, why);
      return;
    }
  }
  size_t len = (size_t)json_object_get_string_len(script);
  if (eddi_link_check_bytes(json_object_get_string(script), len,
                            self->host->options->max_message_bytes, why, sizeof why) != 0) {
    stdio__error(self, id, RPC_INVALID_PARAMS, why);
    return;
  }
  /* The script's calls are the sandbox's own; who asked must be let do
   * what the run does: run at all, and write when it applies. */
  const char *sender = stdio__param_string(params, "sender");
  if (!sender) sender = STDIO_SENDER;
  bool applies = apply && json_object_get_boolean(apply);
  if (!options_sender_allowed(self->host->options, sender) ||
      (applies && options_sender_read_only(self->host->options, sender))) {
    snprintf(why, sizeof why, "Fail \"Sender %.200s may %s run python.run%s\"", sender,
             applies ? "only read, not" : "not", applies ? " with apply" : "");
    stdio__error(self, id, RPC_COMMAND_FAILED, why);
    return;
  }
  StdioPythonRun *run = calloc(1, sizeof *run);
  if (!run || !(run->script = strndup(json_object_get_string(script), len)) ||
      !stdio__python_args(params, &run->argv)) {
    bool bad_args = run && run->script;
    if (run) run->id = NULL, stdio__python_run_free(run);
    stdio__error(self, id, bad_args ? RPC_INVALID_PARAMS : RPC_INTERNAL_ERROR,
                 bad_args ? "params.args must be an array of strings" : "Out of memory");
    return;
  }
  run->rpc = self;
  run->id = json_object_get(id);
  run->args = (PythonRunArgs){run->script, len, (const char *const *)run->argv, applies, seconds};
  pthread_t thread;
  pthread_mutex_lock(&self->state_mutex);
  self->python_runs++;
  pthread_mutex_unlock(&self->state_mutex);
  if (pthread_create(&thread, NULL, stdio__python_run_main, run) != 0) {
    pthread_mutex_lock(&self->state_mutex);
    self->python_runs--;
    pthread_mutex_unlock(&self->state_mutex);
    stdio__python_run_free(run);
    stdio__error(self, id, RPC_INTERNAL_ERROR, "cannot start a thread for the script");
    return;
  }
  pthread_detach(thread);
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
    stdio__edit_call(self, id, STDIO_EDIT_METHOD, kind, params, sender ? sender : STDIO_SENDER,
                     NULL, stdio__progress_token(params));
    return true;
  }
  return false;
}

/* MCP's methods other than initialize and ping: the lifecycle says a
 * client sends them only once initialize is answered. eddi's own methods
 * (eddi.exec, the edit methods) are not MCP's and need no handshake. */
static const char *const stdio__mcp_methods[] = {
    "tools/list", "tools/call", "resources/list", "resources/read", "resources/templates/list",
    "prompts/list", "prompts/get", "logging/setLevel",
};

static bool stdio__mcp_method(const char *method) {
  for (size_t i = 0; i < sizeof stdio__mcp_methods / sizeof stdio__mcp_methods[0]; i++)
    if (strcmp(method, stdio__mcp_methods[i]) == 0) return true;
  return false;
}

/* ------------------------------------------------------------- logging */

/* MCP's log levels (RFC 5424's), least severe first. */
static const char *const stdio__log_levels[] = {"debug",    "info",  "notice",    "warning",
                                                "error",    "critical", "alert", "emergency"};
#define STDIO_LOG_LEVEL_COUNT (sizeof stdio__log_levels / sizeof stdio__log_levels[0])
#define STDIO_LOG_WARNING 3

/* Tell the client something it did not ask a response for (a bad
 * notification), as notifications/message when its level is wanted, and
 * on stderr. */
static void stdio__log(StdioRpc *self, int level, const char *text) {
  log_report(LOG_WARN, "stdio", "%s", text);
  pthread_mutex_lock(&self->state_mutex);
  bool wanted = level >= self->log_level;
  pthread_mutex_unlock(&self->state_mutex);
  if (!wanted) return;
  json_object *params = json_object_new_object();
  json_object_object_add(params, "level", json_object_new_string(stdio__log_levels[level]));
  json_object_object_add(params, "logger", json_object_new_string("eddi"));
  json_object_object_add(params, "data", json_object_new_string(text));
  json_object *message = json_object_new_object();
  json_object_object_add(message, "jsonrpc", json_object_new_string("2.0"));
  json_object_object_add(message, "method", json_object_new_string("notifications/message"));
  json_object_object_add(message, "params", params);
  stdio__send(self, message);
}

static void stdio__set_level(StdioRpc *self, json_object *id, json_object *params) {
  const char *level = stdio__param_string(params, "level");
  for (size_t i = 0; level && i < STDIO_LOG_LEVEL_COUNT; i++) {
    if (strcmp(level, stdio__log_levels[i]) != 0) continue;
    pthread_mutex_lock(&self->state_mutex);
    self->log_level = (int)i;
    pthread_mutex_unlock(&self->state_mutex);
    stdio__result(self, id, json_object_new_object());
    return;
  }
  stdio__error(self, id, RPC_INVALID_PARAMS,
               "params.level must be one of debug, info, notice, warning, error, critical, "
               "alert, emergency");
}

/* ------------------------------------------------------------- cancelling */

/* The id as text, for messages: "7" or "\"abc\"". */
static const char *stdio__id_text(json_object *id) {
  return id ? json_object_to_json_string_ext(id, JSON_C_TO_STRING_PLAIN) : "null";
}

/* notifications/cancelled: the request it names gets no response, and
 * its long work stops with nothing written. A notification has no
 * response, so a bad one is said as a log message. */
static void stdio__cancelled(StdioRpc *self, json_object *params) {
  json_object *request_id = NULL;
  char why[STDIO_WHY_MAX];
  if (!params || !json_object_object_get_ex(params, "requestId", &request_id) ||
      !(json_object_is_type(request_id, json_type_string) ||
        json_object_is_type(request_id, json_type_int))) {
    stdio__log(self, STDIO_LOG_WARNING,
               "notifications/cancelled ignored: params.requestId must be the string or "
               "number id of a request in progress");
    return;
  }
  uint64_t ticket = 0;
  pthread_mutex_lock(&self->state_mutex);
  for (StdioJob *job = self->in_flight; job; job = job->next) {
    if (!json_object_equal(job->id, request_id)) continue;
    job->cancelled = true;
    ticket = job->ticket;
    break;
  }
  pthread_mutex_unlock(&self->state_mutex);
  if (!ticket) {
    snprintf(why, sizeof why,
             "notifications/cancelled ignored: no request with id %.200s is in progress "
             "(it was answered already, or never sent)",
             stdio__id_text(request_id));
    stdio__log(self, STDIO_LOG_WARNING, why);
    return;
  }
  /* Not running yet: the job is dropped when its turn comes. */
  engine_host_cancel(self->host, ticket);
  log_report(LOG_INFO, "stdio", "request %s cancelled by the client", stdio__id_text(request_id));
}

/* ------------------------------------------------------------- progress */

/* Every STDIO_PROGRESS_INTERVAL_MS: each request running that long which
 * gave a progress token hears how long it has run (progress grows with
 * the milliseconds; eddi cannot say how much is left). */
static void *stdio__ticker_main(void *closure) {
  StdioRpc *self = closure;
  pthread_mutex_lock(&self->state_mutex);
  while (!self->stopping) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)STDIO_PROGRESS_INTERVAL_MS * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&self->ticker_wake, &self->state_mutex, &until);
    int64_t now = stdio__now_ms();
    for (StdioJob *job = self->in_flight; job && !self->stopping; job = job->next) {
      if (!job->progress_token || !job->started_ms || job->cancelled) continue;
      int64_t ran = now - job->started_ms;
      if (ran < STDIO_PROGRESS_INTERVAL_MS || ran <= job->progress_sent_ms) continue;
      job->progress_sent_ms = ran;
      /* What the engine counted, when its work counts (state_mutex, then
       * the engine's jobs mutex: no one takes them the other way). */
      size_t done = 0;
      const char *unit = NULL;
      bool counted = engine_host_progress(self->host, job->ticket, &done, &unit) && unit;
      char text[STDIO_WHY_MAX];
      int at = snprintf(text, sizeof text, "%s running for %lld ms",
                        job->tool ? job->tool : "request", (long long)ran);
      if (counted && at > 0 && (size_t)at < sizeof text)
        snprintf(text + at, sizeof text - (size_t)at, ", %zu %s", done, unit);
      json_object *params = json_object_new_object();
      json_object_object_add(params, "progressToken", json_object_get(job->progress_token));
      json_object_object_add(params, "progress", json_object_new_int64(ran));
      json_object_object_add(params, "message", json_object_new_string(text));
      json_object *message = json_object_new_object();
      json_object_object_add(message, "jsonrpc", json_object_new_string("2.0"));
      json_object_object_add(message, "method", json_object_new_string("notifications/progress"));
      json_object_object_add(message, "params", params);
      stdio__send(self, message); /* state_mutex, then write_mutex: the one order */
    }
  }
  pthread_mutex_unlock(&self->state_mutex);
  return NULL;
}

/* ------------------------------------------------------------- resources and prompts */

static void stdio__submit_resources(StdioRpc *self, json_object *id, StdioJobKind kind,
                                    const char *uri) {
  char *copy = uri ? strdup(uri) : NULL;
  if (uri && !copy) {
    stdio__error(self, id, RPC_INTERNAL_ERROR, "Out of memory");
    return;
  }
  StdioWork work = {.kind = kind, .sender = STDIO_SENDER, .text = copy,
                    .len = copy ? strlen(copy) : 0};
  stdio__submit(self, id, &work);
}

/* A preview kept as eddi://preview/{n}: a copy, or NULL with why. */
static char *stdio__preview(StdioRpc *self, const char *number, char *why, size_t why_size) {
  char *end = NULL;
  unsigned long long n = strtoull(number, &end, 10);
  pthread_mutex_lock(&self->state_mutex);
  size_t made = self->previews_made;
  bool kept = *number >= '1' && *number <= '9' && end && !*end && n <= made &&
              made - n < STDIO_PREVIEWS_KEPT;
  char *text = kept ? strdup(self->previews[(n - 1) % STDIO_PREVIEWS_KEPT]) : NULL;
  pthread_mutex_unlock(&self->state_mutex);
  if (!kept)
    snprintf(why, why_size,
             "Resource not found: preview %.40s is not kept; this server made %zu previews "
             "and keeps the last %d (resources/list names them)",
             number, made, STDIO_PREVIEWS_KEPT);
  return text;
}

static void stdio__resource_read(StdioRpc *self, json_object *id, json_object *params) {
  const char *uri = stdio__param_string(params, "uri");
  char why[STDIO_WHY_MAX];
  if (!uri) {
    stdio__error(self, id, RPC_INVALID_PARAMS, "params.uri must be a string: a URI of resources/list");
    return;
  }
  if (strncmp(uri, MCP_FILE_URI_PREFIX, strlen(MCP_FILE_URI_PREFIX)) == 0) {
    stdio__submit_resources(self, id, STDIO_RESOURCE_READ, uri); /* the engine's documents */
    return;
  }
  char *text = NULL;
  const char *mime = "text/plain";
  if (strcmp(uri, MCP_REFERENCE_URI) == 0) {
    text = mcp_reference_text();
    mime = "text/markdown";
    if (!text) snprintf(why, sizeof why, "Out of memory");
  } else if (strncmp(uri, MCP_HELP_URI_PREFIX, strlen(MCP_HELP_URI_PREFIX)) == 0) {
    char *name = mcp_uri_decoded(uri + strlen(MCP_HELP_URI_PREFIX));
    char help_why[STDIO_WHY_MAX / 2];
    text = name ? mcp_command_help(name, help_why, sizeof help_why) : NULL;
    if (!text) snprintf(why, sizeof why, "Resource not found: %.200s: %.500s", uri,
                        name ? help_why : "a broken %XX escape");
    free(name);
  } else if (strncmp(uri, MCP_PREVIEW_URI_PREFIX, strlen(MCP_PREVIEW_URI_PREFIX)) == 0) {
    text = stdio__preview(self, uri + strlen(MCP_PREVIEW_URI_PREFIX), why, sizeof why);
    mime = "text/x-diff";
  } else {
    snprintf(why, sizeof why,
             "Resource not found: %.200s; eddi's resources are " MCP_REFERENCE_URI ", "
             MCP_HELP_URI_PREFIX "{command}, " MCP_PREVIEW_URI_PREFIX "{n} and the file:// URIs "
             "of open documents (resources/list)",
             uri);
  }
  if (!text) {
    stdio__error(self, id, MCP_RESOURCE_NOT_FOUND, why);
    return;
  }
  stdio__result(self, id, mcp_resource_contents(uri, mime, text, strlen(text)));
  free(text);
}

static void stdio__prompt_get(StdioRpc *self, json_object *id, json_object *params) {
  const char *name = stdio__param_string(params, "name");
  if (!name) {
    stdio__error(self, id, RPC_INVALID_PARAMS,
                 "params.name must be a string: eddispeak or command_help");
    return;
  }
  json_object *arguments = NULL;
  json_object_object_get_ex(params, "arguments", &arguments);
  char why[STDIO_WHY_MAX];
  json_object *result = mcp_prompt_get(name, arguments, why, sizeof why);
  if (result)
    stdio__result(self, id, result);
  else
    stdio__error(self, id, RPC_INVALID_PARAMS, why);
}

/* A result holding one new array under key. */
static void stdio__list_result(StdioRpc *self, json_object *id, const char *key,
                               json_object *list) {
  json_object *result = json_object_new_object();
  json_object_object_add(result, key, list);
  stdio__result(self, id, result);
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
  if (!has_id) {
    /* notifications/initialized and the like: nothing to do. */
    if (strcmp(method, "notifications/cancelled") == 0) stdio__cancelled(self, params);
    return;
  }

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
  else if (strcmp(method, "resources/list") == 0)
    stdio__submit_resources(self, id, STDIO_RESOURCES_LIST, NULL);
  else if (strcmp(method, "resources/read") == 0)
    stdio__resource_read(self, id, params);
  else if (strcmp(method, "resources/templates/list") == 0)
    stdio__list_result(self, id, "resourceTemplates", mcp_resource_templates());
  else if (strcmp(method, "prompts/list") == 0)
    stdio__list_result(self, id, "prompts", mcp_prompts_list());
  else if (strcmp(method, "prompts/get") == 0)
    stdio__prompt_get(self, id, params);
  else if (strcmp(method, "logging/setLevel") == 0)
    stdio__set_level(self, id, params);
  else if (strcmp(method, "eddi.exec") == 0)
    stdio__exec(self, id, params);
  else if (strcmp(method, "python.run") == 0)
    stdio__python_run(self, id, params);
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

bool stdio_rpc_idle(StdioRpc *self) {
  pthread_mutex_lock(&self->state_mutex);
  bool idle = !self->in_flight && !self->python_runs;
  pthread_mutex_unlock(&self->state_mutex);
  return idle;
}

int stdio_rpc_start(StdioRpc *self, EngineHost *host, FILE *in, int out_fd, void (*on_end)(void)) {
  memset(self, 0, sizeof *self);
  self->host = host;
  self->in = in;
  self->out_fd = out_fd;
  self->on_end = on_end;
  self->log_level = 0; /* debug: everything, until logging/setLevel */
  if (pthread_mutex_init(&self->write_mutex, NULL) ||
      pthread_mutex_init(&self->state_mutex, NULL) ||
      pthread_cond_init(&self->ticker_wake, NULL) || pthread_cond_init(&self->python_done, NULL))
    return SERVER_ENOMEM;
  if (pthread_create(&self->ticker, NULL, stdio__ticker_main, self)) return SERVER_EIO;
  self->ticker_running = true;
  if (pthread_create(&self->thread, NULL, stdio__main, self)) return SERVER_EIO;
  self->running = true;
  return SERVER_OK;
}

/* The mutexes stay: the owner thread may still answer requests taken
 * before the end of input, and the process ends soon after. */
void stdio_rpc_join(StdioRpc *self) {
  if (self->ticker_running) {
    pthread_mutex_lock(&self->state_mutex);
    self->stopping = true;
    pthread_cond_signal(&self->ticker_wake);
    pthread_mutex_unlock(&self->state_mutex);
    pthread_join(self->ticker, NULL);
    self->ticker_running = false;
  }
  if (!self->running) return;
  pthread_join(self->thread, NULL);
  self->running = false;
  pthread_mutex_lock(&self->state_mutex);
  while (self->python_runs) pthread_cond_wait(&self->python_done, &self->state_mutex);
  pthread_mutex_unlock(&self->state_mutex);
  /* The kept previews (eddi://preview/{n}) go with the connection. */
  for (size_t i = 0; i < STDIO_PREVIEWS_KEPT; i++) {
    free(self->previews[i]), free(self->preview_titles[i]);
    self->previews[i] = self->preview_titles[i] = NULL;
  }
}
