/* lsp_client.c - one language server process; see lsp_client.h.
 *
 * The talk is synchronous: the worker that holds the server's mutex writes
 * a message and reads until what it waits for has come (the answer to its
 * request, the diagnostics of a version) or its deadline has passed. What
 * the server says meanwhile is handled as it comes: its own requests
 * (workspace/configuration, window/workDoneProgress/create, capability
 * registrations) get an answer at once, so that it never waits on eddi;
 * diagnostics are kept per document; $/progress begin and end are
 * counted. Between two uses nobody reads: a server may fill the pipe and
 * wait, which costs nothing, and what it wrote is read at the next use.
 *
 * Writes to a server that has died would raise SIGPIPE: the writing
 * thread blocks the signal around its writes and takes a pending one back,
 * so that the front end's handling of SIGPIPE does not matter.
 */
#define _GNU_SOURCE /* pipe2 */
#include "lsp/lsp_client.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/path.h"
#include "core/process.h"
#include "core/utf8.h"

/* Deepest JSON nesting read from a server (a diagnostic with related
 * information is about eight deep). */
#define LSP_JSON_DEPTH 64
/* Bytes read from the server at a time. */
#define LSP_READ_CHUNK 65536
/* While waiting for a stopped process's status, how often to look. */
#define LSP_EXIT_POLL_MS 10
/* How long a process whose output ended may take to exit before a kill
 * (its exit status is then lost). */
#define LSP_EXIT_WAIT_MS 500
/* The work-done token of initialize. */
#define LSP_INITIALIZE_TOKEN "eddi-initialize"

typedef struct {
  char *uri;
  int64_t version;
  char *text;
  size_t len;
  unsigned settles; /* how many times a settled diagnose showed it again */
} LspOpenDoc;

/* The newest publishDiagnostics of one document. */
typedef struct {
  char *uri;
  int64_t version; /* -1: the server gave none */
  uint64_t seq;    /* when it came (self->seq) */
  json_object *diagnostics;
} LspPublished;

struct EddiLspServer {
  pthread_mutex_t mutex;        /* the one caller that talks to it */
  pthread_mutex_t pending_mutex; /* guards held, forgotten and updates */
  char *name, *language_id, *root, *root_uri;
  Array(char *) argv; /* NULL-terminated */
  unsigned deadline_ms;
  /* The process, while running. */
  bool running;
  pid_t pid;
  int to_fd, from_fd;
  unsigned starts;
  /* Restarts with a back-off: when the process started (ms), how many
   * times in a row it stopped within EDDI_LSP_STABLE_MS of starting, and
   * the earliest time the next start may be. */
  long long started_at, next_start_at;
  unsigned quick_stops;
  EddiLspReader reader;
  EddiLspEncoding encoding;
  bool incremental; /* the server takes ranged didChanges (textDocumentSync 2) */
  EddiLspDiagnosticsWay diagnostics_way;
  bool indexes_workspace;
  char *refusal, *refusal_hint; /* EddiLspServerSpec's */
  int64_t next_id;
  int64_t awaited_id;     /* the request being waited for, or 0 */
  json_object *response;  /* its answer, once come */
  uint64_t seq;           /* messages read */
  /* The last version given to any document: each didOpen and didChange
   * takes the next, so a document closed and opened again never has a
   * version that an old publication still carries. */
  int64_t last_version;
  Array(LspOpenDoc) docs;
  Array(LspPublished) published;
  Array(char *) progress; /* tokens begun, not ended */
  /* What other threads may tell without waiting for the talk: the uris
   * of docs (the open documents, as a set another thread may read), the
   * documents eddi closed, and the newer texts of open ones (an LspOpenDoc
   * each, version unused), all handled at the next use. */
  Array(char *) held;
  Array(char *) forgotten;
  Array(LspOpenDoc) updates;
};

/* ---------------------------------------------------------------- uris */

/* file:// and the absolute path, bytes other than unreserved ones and '/'
 * percent-encoded (RFC 3986), as servers give them back. */
static char *lsp__uri(const char *path) {
  static const char hex[] = "0123456789ABCDEF";
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "file://");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      eddi_strbuf_putc(&out, (char)*p);
    else {
      eddi_strbuf_putc(&out, '%');
      eddi_strbuf_putc(&out, hex[*p >> 4]);
      eddi_strbuf_putc(&out, hex[*p & 15]);
    }
  }
  return eddi_strbuf_take(&out);
}

/* ---------------------------------------------------------------- the object */

EddiLspServer *eddi_lsp_server_new(const EddiLspServerSpec *spec) {
  EddiLspServer *self = eddi_calloc(1, sizeof *self);
  pthread_mutex_init(&self->mutex, NULL);
  pthread_mutex_init(&self->pending_mutex, NULL);
  self->name = eddi_strdup(spec->name);
  self->language_id = eddi_strdup(spec->language_id);
  self->root = eddi_strdup(spec->root);
  self->root_uri = lsp__uri(spec->root);
  self->deadline_ms = spec->deadline_ms;
  self->diagnostics_way = spec->diagnostics;
  self->indexes_workspace = spec->indexes_workspace;
  self->refusal = spec->refusal ? eddi_strdup(spec->refusal) : NULL;
  self->refusal_hint = spec->refusal_hint ? eddi_strdup(spec->refusal_hint) : NULL;
  for (const char *p = spec->command; *p;) {
    while (*p == ' ') p++;
    if (!*p) break;
    const char *end = strchr(p, ' ');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    array_push(&self->argv, eddi_strndup(p, len));
    p += len;
  }
  array_push(&self->argv, NULL);
  self->to_fd = self->from_fd = -1;
  return self;
}

const char *eddi_lsp_server_name(const EddiLspServer *self) { return self->name; }

bool eddi_lsp_server_indexes_workspace(const EddiLspServer *self) {
  return self->indexes_workspace;
}

unsigned eddi_lsp_server_starts(EddiLspServer *self) {
  pthread_mutex_lock(&self->mutex);
  unsigned starts = self->starts;
  pthread_mutex_unlock(&self->mutex);
  return starts;
}

void eddi_lsp_diagnostics_free(EddiLspDiagnostics *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i].message);
  array_free(self);
}

static void lsp__hold(EddiLspServer *self, const char *uri) {
  pthread_mutex_lock(&self->pending_mutex);
  array_push(&self->held, eddi_strdup(uri));
  pthread_mutex_unlock(&self->pending_mutex);
}

/* uri no longer open in the server (NULL: none is). */
static void lsp__release(EddiLspServer *self, const char *uri) {
  pthread_mutex_lock(&self->pending_mutex);
  for (size_t i = self->held.len; i-- > 0;)
    if (!uri || strcmp(self->held.items[i], uri) == 0) {
      eddi_free(self->held.items[i]);
      array_remove(&self->held, i);
    }
  pthread_mutex_unlock(&self->pending_mutex);
}

static void lsp__forget_state(EddiLspServer *self) {
  for (size_t i = 0; i < self->docs.len; i++) {
    eddi_free(self->docs.items[i].uri);
    eddi_free(self->docs.items[i].text);
  }
  array_clear(&self->docs);
  lsp__release(self, NULL);
  for (size_t i = 0; i < self->published.len; i++) {
    eddi_free(self->published.items[i].uri);
    json_object_put(self->published.items[i].diagnostics);
  }
  array_clear(&self->published);
  for (size_t i = 0; i < self->progress.len; i++) eddi_free(self->progress.items[i]);
  array_clear(&self->progress);
  json_object_put(self->response);
  self->response = NULL;
  self->awaited_id = 0;
}

/* The process is reaped: drop what belonged to it, and count a stop soon
 * after its start towards the back-off of the next start. */
static void lsp__gone(EddiLspServer *self) {
  long long now = eddi_process_now_ms();
  self->quick_stops = now - self->started_at < EDDI_LSP_STABLE_MS ? self->quick_stops + 1 : 1;
  self->next_start_at =
      self->quick_stops < 2
          ? now
          : now + EDDI_MIN((long long)EDDI_LSP_BACKOFF_MS << EDDI_MIN(self->quick_stops - 2, 16u),
                           (long long)EDDI_LSP_BACKOFF_MAX_MS);
  close(self->to_fd);
  close(self->from_fd);
  self->to_fd = self->from_fd = -1;
  self->running = false;
  eddi_lsp_reader_free(&self->reader);
  lsp__forget_state(self);
}

/* Kill the process (its group) and reap it; the next use starts another. */
static void lsp__kill(EddiLspServer *self) {
  if (!self->running) return;
  kill(-self->pid, SIGKILL);
  kill(self->pid, SIGKILL);
  waitpid(self->pid, NULL, 0);
  lsp__gone(self);
}

/* The server stopped on its own (its output ended, or it wrote what is not
 * LSP): reap it, and fail naming how it ended and what eddi was doing. */
static int lsp__stopped(EddiLspServer *self, const char *during, EddiError *err) {
  int status = 0;
  pid_t got = 0;
  for (long long end = eddi_process_now_ms() + LSP_EXIT_WAIT_MS;
       (got = waitpid(self->pid, &status, WNOHANG)) == 0 && eddi_process_now_ms() < end;)
    nanosleep(&(struct timespec){0, LSP_EXIT_POLL_MS * 1000000L}, NULL);
  char how[64] = "";
  if (got == self->pid) {
    if (WIFEXITED(status)) snprintf(how, sizeof how, " (exit status %d)", WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) snprintf(how, sizeof how, " (signal %d)", WTERMSIG(status));
    kill(-self->pid, SIGKILL); /* what it started, if it left any */
    lsp__gone(self);
  } else {
    lsp__kill(self);
  }
  eddi_error_set(err, EDDI_EIO, "%s stopped%s during %s", self->name, how, during);
  eddi_error_hint(err, "Validate again to restart it");
  return err->code;
}

/* ---------------------------------------------------------------- writing */

static int lsp__write_all(EddiLspServer *self, const char *bytes, size_t len, long long deadline,
                          const char *during, EddiError *err) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  int rc = 0;
  bool broken = false;
  while (len > 0) {
    ssize_t n = write(self->to_fd, bytes, len);
    if (n > 0) {
      bytes += n, len -= (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      long long left = deadline - eddi_process_now_ms();
      if (left <= 0) {
        rc = eddi_error_set(err, EDDI_EIO, "%s read nothing eddi sent within %u ms (the LSP "
                            "deadline) during %s", self->name, self->deadline_ms, during);
        break;
      }
      struct pollfd pfd = {.fd = self->to_fd, .events = POLLOUT};
      poll(&pfd, 1, (int)left);
      continue;
    }
    broken = true;
    break;
  }
  /* Take back the SIGPIPE the failed write raised, before unblocking. */
  struct timespec zero = {0, 0};
  while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE) {
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (broken) return lsp__stopped(self, during, err);
  if (rc < 0) lsp__kill(self);
  return rc;
}

/* Send msg (consumed) as one framed message. */
static int lsp__send(EddiLspServer *self, json_object *msg, long long deadline, const char *during,
                     EddiError *err) {
  json_object_object_add(msg, "jsonrpc", json_object_new_string("2.0"));
  size_t len;
  const char *body = json_object_to_json_string_length(msg, JSON_C_TO_STRING_PLAIN, &len);
  StrBuf framed = {0};
  eddi_lsp_frame(&framed, body, len);
  json_object_put(msg);
  int rc = lsp__write_all(self, framed.data, framed.len, deadline, during, err);
  eddi_strbuf_free(&framed);
  return rc;
}

static int lsp__notify(EddiLspServer *self, const char *method, json_object *params,
                       long long deadline, EddiError *err) {
  json_object *msg = json_object_new_object();
  json_object_object_add(msg, "method", json_object_new_string(method));
  if (params) json_object_object_add(msg, "params", params);
  return lsp__send(self, msg, deadline, method, err);
}

/* ---------------------------------------------------------------- reading */

static const char *lsp__string(json_object *obj, const char *key) {
  json_object *v;
  return json_object_object_get_ex(obj, key, &v) && json_object_is_type(v, json_type_string)
             ? json_object_get_string(v)
             : NULL;
}

static json_object *lsp__get(json_object *obj, const char *key) {
  json_object *v;
  return obj && json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* A progress token as text (the protocol allows a number or a string). */
static char *lsp__token(json_object *token) {
  return eddi_strdup(token ? json_object_get_string(token) : "");
}

static void lsp__progress(EddiLspServer *self, json_object *params) {
  json_object *value = lsp__get(params, "value");
  const char *kind = lsp__string(value, "kind");
  if (!kind) return;
  char *token = lsp__token(lsp__get(params, "token"));
  size_t at = self->progress.len;
  for (size_t i = 0; i < self->progress.len; i++)
    if (strcmp(self->progress.items[i], token) == 0) at = i;
  if (strcmp(kind, "begin") == 0 && at == self->progress.len) {
    array_push(&self->progress, token);
    return;
  }
  if (strcmp(kind, "end") == 0 && at < self->progress.len) {
    eddi_free(self->progress.items[at]);
    array_remove(&self->progress, at);
  }
  eddi_free(token);
}

static int lsp__find_doc(const EddiLspServer *self, const char *uri);

/* The diagnostics of a document eddi has open; those of any other (the
 * empty list a server sends when a document is closed, those of files it
 * analysed on its own) are nothing eddi waits for. */
static void lsp__published(EddiLspServer *self, json_object *params) {
  const char *uri = lsp__string(params, "uri");
  json_object *diagnostics = lsp__get(params, "diagnostics");
  if (!uri || !json_object_is_type(diagnostics, json_type_array) || lsp__find_doc(self, uri) < 0)
    return;
  json_object *version = lsp__get(params, "version");
  LspPublished *slot = NULL;
  for (size_t i = 0; i < self->published.len; i++)
    if (strcmp(self->published.items[i].uri, uri) == 0) slot = &self->published.items[i];
  if (!slot) {
    array_push(&self->published, ((LspPublished){.uri = eddi_strdup(uri)}));
    slot = array_back(&self->published);
  }
  json_object_put(slot->diagnostics);
  slot->diagnostics = json_object_get(diagnostics);
  slot->version = json_object_is_type(version, json_type_int) ? json_object_get_int64(version) : -1;
  slot->seq = self->seq;
}

/* Answer a request of the server's own: workspace/configuration gets one
 * null (the server's defaults) per item asked; every other request a null
 * result, which is what a client without that feature answers. */
static int lsp__answer(EddiLspServer *self, json_object *msg, const char *method,
                       long long deadline, EddiError *err) {
  json_object *result = NULL;
  if (strcmp(method, "workspace/configuration") == 0) {
    json_object *items = lsp__get(lsp__get(msg, "params"), "items");
    size_t count = json_object_is_type(items, json_type_array) ? json_object_array_length(items) : 0;
    result = json_object_new_array();
    for (size_t i = 0; i < count; i++) json_object_array_add(result, NULL);
  }
  json_object *reply = json_object_new_object();
  json_object_object_add(reply, "id", json_object_get(lsp__get(msg, "id")));
  json_object_object_add(reply, "result", result);
  return lsp__send(self, reply, deadline, method, err);
}

/* One message from the server. */
static int lsp__dispatch(EddiLspServer *self, json_object *msg, long long deadline,
                         EddiError *err) {
  self->seq++;
  const char *method = lsp__string(msg, "method");
  json_object *id = lsp__get(msg, "id");
  if (method && id) return lsp__answer(self, msg, method, deadline, err);
  if (method) {
    json_object *params = lsp__get(msg, "params");
    if (strcmp(method, "textDocument/publishDiagnostics") == 0) lsp__published(self, params);
    else if (strcmp(method, "$/progress") == 0) lsp__progress(self, params);
    return 0;
  }
  if (id && self->awaited_id && json_object_is_type(id, json_type_int) &&
      json_object_get_int64(id) == self->awaited_id && !self->response)
    self->response = json_object_get(msg);
  return 0; /* an answer nobody waits for any more (a cancelled request's) */
}

/* Handle every complete message read so far. */
static int lsp__drain(EddiLspServer *self, long long deadline, const char *during,
                      EddiError *err) {
  for (;;) {
    const char *body;
    size_t len;
    EddiError why = {0};
    int rc = eddi_lsp_reader_next(&self->reader, &body, &len, &why);
    if (rc == 0) return 0;
    json_object *msg = NULL;
    if (rc > 0) {
      json_tokener *tok = json_tokener_new_ex(LSP_JSON_DEPTH);
      msg = json_tokener_parse_ex(tok, body, (int)len);
      if (json_tokener_get_error(tok) != json_tokener_success) {
        json_object_put(msg);
        msg = NULL;
      }
      json_tokener_free(tok);
    }
    if (!msg || !json_object_is_type(msg, json_type_object)) {
      json_object_put(msg);
      lsp__kill(self);
      eddi_error_set(err, EDDI_EIO, "%s wrote what is not LSP during %s and was stopped",
                     self->name, during);
      eddi_error_hint(err, "Validate again to restart it");
      return err->code;
    }
    rc = lsp__dispatch(self, msg, deadline, err);
    json_object_put(msg);
    if (rc < 0) return rc;
  }
}

/* Read until done(self, arg) holds: 1; 0 at the deadline; a failure when
 * the server stops. */
static int lsp__wait(EddiLspServer *self, long long deadline, bool (*done)(EddiLspServer *, void *),
                     void *arg, const char *during, EddiError *err) {
  char buf[LSP_READ_CHUNK];
  for (;;) {
    int rc = lsp__drain(self, deadline, during, err);
    if (rc < 0) return rc;
    if (done(self, arg)) return 1;
    long long left = deadline - eddi_process_now_ms();
    if (left <= 0) return 0;
    struct pollfd pfd = {.fd = self->from_fd, .events = POLLIN};
    int ready = poll(&pfd, 1, (int)EDDI_MIN(left, (long long)INT32_MAX));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    ssize_t n = read(self->from_fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return lsp__stopped(self, during, err);
    eddi_lsp_reader_feed(&self->reader, buf, (size_t)n);
  }
}

static bool lsp__answered(EddiLspServer *self, void *arg) {
  EDDI_UNUSED(arg);
  return self->response != NULL;
}

/* Send request method with params (consumed) and wait for its answer:
 * *result (the caller puts it; NULL for a null result). Past the deadline
 * the request is cancelled; a server that does not answer the cancel
 * within EDDI_LSP_CANCEL_GRACE_MS is killed. */
static int lsp__request(EddiLspServer *self, const char *method, json_object *params,
                        json_object **result, EddiError *err) {
  *result = NULL;
  long long deadline = eddi_process_now_ms() + self->deadline_ms;
  int64_t id = ++self->next_id;
  json_object *msg = json_object_new_object();
  json_object_object_add(msg, "id", json_object_new_int64(id));
  json_object_object_add(msg, "method", json_object_new_string(method));
  if (params) json_object_object_add(msg, "params", params); /* shutdown has none */
  int rc = lsp__send(self, msg, deadline, method, err);
  if (rc < 0) return rc;
  self->awaited_id = id;
  rc = lsp__wait(self, deadline, lsp__answered, NULL, method, err);
  if (rc == 0) {
    json_object *cancel = json_object_new_object();
    json_object_object_add(cancel, "id", json_object_new_int64(id));
    long long grace = eddi_process_now_ms() + EDDI_LSP_CANCEL_GRACE_MS;
    rc = lsp__notify(self, "$/cancelRequest", cancel, grace, err);
    if (rc == 0) rc = lsp__wait(self, grace, lsp__answered, NULL, method, err);
    if (rc < 0) return rc;
    bool ignored = rc == 0;
    if (ignored) lsp__kill(self);
    else {
      json_object_put(self->response);
      self->response = NULL;
      self->awaited_id = 0;
    }
    eddi_error_set(err, EDDI_EIO, "%s: %s got no answer within %u ms (the LSP deadline); %s",
                   self->name, method, self->deadline_ms,
                   ignored ? "it ignored the cancel and was stopped" : "cancelled");
    eddi_error_hint(err, "Validate again (the server restarts), or give it a longer deadline");
    return err->code;
  }
  if (rc < 0) return rc;
  json_object *response = self->response;
  self->response = NULL;
  self->awaited_id = 0;
  json_object *error = lsp__get(response, "error");
  if (error) {
    const char *why = lsp__string(error, "message");
    eddi_error_set(err, EDDI_ESTATE, "%s: %s failed: %s", self->name, method,
                   why ? why : "no reason");
    json_object_put(response);
    return err->code;
  }
  *result = json_object_get(lsp__get(response, "result"));
  json_object_put(response);
  return 0;
}

/* ---------------------------------------------------------------- starting */

static json_object *lsp__initialize_params(EddiLspServer *self) {
  json_object *encodings = json_object_new_array();
  json_object_array_add(encodings, json_object_new_string("utf-8"));
  json_object_array_add(encodings, json_object_new_string("utf-16"));
  json_object *general = json_object_new_object();
  json_object_object_add(general, "positionEncodings", encodings);
  json_object *publish = json_object_new_object();
  json_object_object_add(publish, "versionSupport", json_object_new_boolean(1));
  json_object *text_document = json_object_new_object();
  json_object_object_add(text_document, "publishDiagnostics", publish);
  if (self->diagnostics_way == EDDI_LSP_DIAGNOSTICS_PULLED) {
    /* Said only when asked for: a server told so may stop publishing. */
    json_object *pull = json_object_new_object();
    json_object_object_add(pull, "dynamicRegistration", json_object_new_boolean(0));
    json_object_object_add(text_document, "diagnostic", pull);
  }
  json_object *window = json_object_new_object();
  json_object_object_add(window, "workDoneProgress", json_object_new_boolean(1));
  json_object *workspace = json_object_new_object();
  json_object_object_add(workspace, "configuration", json_object_new_boolean(1));
  json_object_object_add(workspace, "workspaceFolders", json_object_new_boolean(1));
  json_object *caps = json_object_new_object();
  json_object_object_add(caps, "general", general);
  json_object_object_add(caps, "textDocument", text_document);
  json_object_object_add(caps, "window", window);
  json_object_object_add(caps, "workspace", workspace);
  /* clangd before LSP 3.17 reads its own extension. */
  json_object_object_add(caps, "offsetEncoding", json_object_get(encodings));
  json_object *folder = json_object_new_object();
  json_object_object_add(folder, "uri", json_object_new_string(self->root_uri));
  json_object_object_add(folder, "name", json_object_new_string(eddi_path_basename(self->root)));
  json_object *folders = json_object_new_array();
  json_object_array_add(folders, folder);
  json_object *client = json_object_new_object();
  json_object_object_add(client, "name", json_object_new_string("eddi"));
  json_object *params = json_object_new_object();
  json_object_object_add(params, "processId", json_object_new_int64(getpid()));
  /* A server that loads a project first may report it on this token. */
  json_object_object_add(params, "workDoneToken", json_object_new_string(LSP_INITIALIZE_TOKEN));
  json_object_object_add(params, "clientInfo", client);
  json_object_object_add(params, "rootPath", json_object_new_string(self->root));
  json_object_object_add(params, "rootUri", json_object_new_string(self->root_uri));
  json_object_object_add(params, "workspaceFolders", folders);
  json_object_object_add(params, "capabilities", caps);
  return params;
}

/* The encoding the server chose: LSP 3.17's positionEncoding, else
 * clangd's offsetEncoding, else utf-16 (the protocol's default). */
static EddiLspEncoding lsp__encoding(json_object *result) {
  const char *chosen = lsp__string(lsp__get(result, "capabilities"), "positionEncoding");
  if (!chosen) chosen = lsp__string(result, "offsetEncoding");
  return chosen && strcmp(chosen, "utf-8") == 0 ? EDDI_LSP_UTF8 : EDDI_LSP_UTF16;
}

/* Whether the server takes incremental didChanges: textDocumentSync is
 * its kind, or an object whose change is. */
static bool lsp__incremental(json_object *result) {
  json_object *sync = lsp__get(lsp__get(result, "capabilities"), "textDocumentSync");
  if (json_object_is_type(sync, json_type_object)) sync = lsp__get(sync, "change");
  return json_object_is_type(sync, json_type_int) && json_object_get_int(sync) == 2;
}

static int lsp__start(EddiLspServer *self, EddiError *err) {
  if (self->running) return 0;
  if (self->refusal) {
    eddi_error_set(err, EDDI_ESTATE, "%s", self->refusal);
    if (self->refusal_hint) eddi_error_hint(err, "%s", self->refusal_hint);
    return err->code;
  }
  if (!self->argv.items[0])
    return eddi_error_set(err, EDDI_EINVAL, "%s has no command to run", self->name);
  long long wait = self->next_start_at - eddi_process_now_ms();
  if (wait > 0) {
    eddi_error_set(err, EDDI_EIO,
                   "%s stopped %u times in a row soon after starting; eddi starts it again in "
                   "%lld s", self->name, self->quick_stops, (wait + 999) / 1000);
    eddi_error_hint(err, "Try again then, or look at why it stops: run %s by hand, name another "
                         "with --lsp LANG=COMMAND, or turn servers off with --no-lsp",
                    self->argv.items[0]);
    return err->code;
  }
  int to[2], from[2];
  if (pipe2(to, O_CLOEXEC) < 0) return eddi_error_set(err, EDDI_EIO, "No pipe for %s", self->name);
  if (pipe2(from, O_CLOEXEC) < 0) {
    close(to[0]), close(to[1]);
    return eddi_error_set(err, EDDI_EIO, "No pipe for %s", self->name);
  }
  int rc = eddi_process_spawn(self->argv.items, self->root, to[0], from[1], -1, &self->pid);
  close(to[0]);
  close(from[1]);
  if (rc != 0) {
    close(to[1]), close(from[0]);
    eddi_error_set(err, EDDI_EIO, "Cannot start %s (%s): %s", self->name, self->argv.items[0],
                   strerror(rc));
    eddi_error_hint(err, "Install it, name another with --lsp LANG=COMMAND, or turn servers off "
                         "with --no-lsp");
    return err->code;
  }
  fcntl(to[1], F_SETFL, fcntl(to[1], F_GETFL) | O_NONBLOCK);
  self->to_fd = to[1];
  self->from_fd = from[0];
  self->running = true;
  self->starts++;
  self->started_at = eddi_process_now_ms();
  eddi_lsp_reader_init(&self->reader, EDDI_LSP_MESSAGE_MAX);
  self->encoding = EDDI_LSP_UTF16;
  json_object *result;
  rc = lsp__request(self, "initialize", lsp__initialize_params(self), &result, err);
  if (rc < 0) {
    lsp__kill(self);
    return rc;
  }
  self->encoding = lsp__encoding(result);
  self->incremental = lsp__incremental(result);
  json_object_put(result);
  rc = lsp__notify(self, "initialized", json_object_new_object(),
                   eddi_process_now_ms() + self->deadline_ms, err);
  if (rc < 0) lsp__kill(self);
  return rc;
}

/* ---------------------------------------------------------------- documents */

static json_object *lsp__doc_id(const char *uri) {
  json_object *id = json_object_new_object();
  json_object_object_add(id, "uri", json_object_new_string(uri));
  return id;
}

static int lsp__close_doc(EddiLspServer *self, size_t index, EddiError *err) {
  LspOpenDoc doc = self->docs.items[index];
  array_remove(&self->docs, index);
  lsp__release(self, doc.uri);
  json_object *params = json_object_new_object();
  json_object_object_add(params, "textDocument", lsp__doc_id(doc.uri));
  for (size_t i = 0; i < self->published.len; i++)
    if (strcmp(self->published.items[i].uri, doc.uri) == 0) {
      eddi_free(self->published.items[i].uri);
      json_object_put(self->published.items[i].diagnostics);
      array_remove(&self->published, i);
      break;
    }
  eddi_free(doc.uri);
  eddi_free(doc.text);
  return lsp__notify(self, "textDocument/didClose", params,
                     eddi_process_now_ms() + self->deadline_ms, err);
}

static int lsp__find_doc(const EddiLspServer *self, const char *uri) {
  for (size_t i = 0; i < self->docs.len; i++)
    if (strcmp(self->docs.items[i].uri, uri) == 0) return (int)i;
  return -1;
}

static int lsp__show(EddiLspServer *self, const char *uri, const EddiLspText *text,
                     int64_t *version, EddiError *err);

/* Before a use: send the didClose of documents eddi closed, and the
 * didChange of open ones whose text eddi changed, since the last use. */
static int lsp__flush_pending(EddiLspServer *self, EddiError *err) {
  pthread_mutex_lock(&self->pending_mutex);
  Array(char *) forgotten = {self->forgotten.items, self->forgotten.len, self->forgotten.cap};
  Array(LspOpenDoc) updates = {self->updates.items, self->updates.len, self->updates.cap};
  memset(&self->forgotten, 0, sizeof self->forgotten);
  memset(&self->updates, 0, sizeof self->updates);
  pthread_mutex_unlock(&self->pending_mutex);
  int rc = 0;
  for (size_t i = 0; i < forgotten.len; i++) {
    int at = self->running ? lsp__find_doc(self, forgotten.items[i]) : -1;
    if (rc == 0 && at >= 0) rc = lsp__close_doc(self, (size_t)at, err);
    eddi_free(forgotten.items[i]);
  }
  for (size_t i = 0; i < updates.len; i++) {
    LspOpenDoc *update = &updates.items[i];
    int64_t version;
    EddiLspText text = {NULL, update->text, update->len};
    if (rc == 0 && self->running && lsp__find_doc(self, update->uri) >= 0)
      rc = lsp__show(self, update->uri, &text, &version, err);
    eddi_free(update->uri), eddi_free(update->text);
  }
  array_free(&forgotten);
  array_free(&updates);
  return rc;
}

bool eddi_lsp_server_holds(EddiLspServer *self, const char *path) {
  char *uri = lsp__uri(path);
  pthread_mutex_lock(&self->pending_mutex);
  bool held = false;
  for (size_t i = 0; i < self->held.len && !held; i++) held = strcmp(self->held.items[i], uri) == 0;
  pthread_mutex_unlock(&self->pending_mutex);
  eddi_free(uri);
  return held;
}

void eddi_lsp_server_update(EddiLspServer *self, const char *path, const char *text, size_t len) {
  char *uri = lsp__uri(path);
  pthread_mutex_lock(&self->pending_mutex);
  LspOpenDoc *slot = NULL;
  for (size_t i = 0; i < self->updates.len; i++)
    if (strcmp(self->updates.items[i].uri, uri) == 0) slot = &self->updates.items[i];
  if (slot) {
    eddi_free(uri);
    eddi_free(slot->text);
  } else {
    array_push(&self->updates, ((LspOpenDoc){.uri = uri}));
    slot = &self->updates.items[self->updates.len - 1];
  }
  slot->text = eddi_strndup(text, len);
  slot->len = len;
  pthread_mutex_unlock(&self->pending_mutex);
}

void eddi_lsp_server_forget(EddiLspServer *self, const char *path) {
  char *uri = lsp__uri(path);
  pthread_mutex_lock(&self->pending_mutex);
  array_push(&self->forgotten, uri);
  pthread_mutex_unlock(&self->pending_mutex);
}

/* The contentChanges that make doc's text (as the server holds it) the
 * text shown: one ranged change where the server takes them and both
 * texts' positions mean the same to it, else the whole text. */
static json_object *lsp__changes(const EddiLspServer *self, const LspOpenDoc *doc,
                                 const EddiLspText *text) {
  json_object *change = json_object_new_object();
  if (self->incremental && eddi_lsp_positions_agree(doc->text, doc->len) &&
      eddi_lsp_positions_agree(text->text, text->len)) {
    EddiLspChange c =
        eddi_lsp_change_of(doc->text, doc->len, text->text, text->len, self->encoding);
    json_object *range = json_object_new_object();
    EddiLspPosition ends[2] = {
        eddi_lsp_position_of(doc->text, doc->len, c.start, self->encoding),
        eddi_lsp_position_of(doc->text, doc->len, c.before_end, self->encoding)};
    for (int i = 0; i < 2; i++) {
      json_object *pos = json_object_new_object();
      json_object_object_add(pos, "line", json_object_new_int64((int64_t)ends[i].line));
      json_object_object_add(pos, "character", json_object_new_int64((int64_t)ends[i].character));
      json_object_object_add(range, i == 0 ? "start" : "end", pos);
    }
    json_object_object_add(change, "range", range);
    json_object_object_add(change, "text", json_object_new_string_len(
                                               text->text + c.start, (int)(c.after_end - c.start)));
  } else {
    json_object_object_add(change, "text", json_object_new_string_len(text->text, (int)text->len));
  }
  json_object *changes = json_object_new_array();
  json_object_array_add(changes, change);
  return changes;
}

/* Show text as uri's document, as its newest version: opened, or changed
 * when the server holds other bytes. *version receives the version the
 * server now has. */
static int lsp__show(EddiLspServer *self, const char *uri, const EddiLspText *text,
                     int64_t *version, EddiError *err) {
  long long deadline = eddi_process_now_ms() + self->deadline_ms;
  int at = lsp__find_doc(self, uri);
  if (at >= 0) {
    LspOpenDoc *doc = &self->docs.items[at];
    *version = doc->version;
    if (doc->len == text->len && memcmp(doc->text, text->text, text->len) == 0) return 0;
    json_object *params = json_object_new_object();
    json_object_object_add(params, "contentChanges", lsp__changes(self, doc, text));
    eddi_free(doc->text);
    doc->text = eddi_strndup(text->text, text->len);
    doc->len = text->len;
    *version = doc->version = ++self->last_version;
    json_object *id = lsp__doc_id(uri);
    json_object_object_add(id, "version", json_object_new_int64(doc->version));
    json_object_object_add(params, "textDocument", id);
    return lsp__notify(self, "textDocument/didChange", params, deadline, err);
  }
  *version = ++self->last_version;
  lsp__hold(self, uri);
  array_push(&self->docs, ((LspOpenDoc){.uri = eddi_strdup(uri), .version = *version,
                                        .text = eddi_strndup(text->text, text->len),
                                        .len = text->len}));
  json_object *item = lsp__doc_id(uri);
  json_object_object_add(item, "languageId", json_object_new_string(self->language_id));
  json_object_object_add(item, "version", json_object_new_int64(*version));
  json_object_object_add(item, "text", json_object_new_string_len(text->text, (int)text->len));
  json_object *params = json_object_new_object();
  json_object_object_add(params, "textDocument", item);
  return lsp__notify(self, "textDocument/didOpen", params, deadline, err);
}

/* Show text (shown already as uri's document) once more, with one or two
 * newlines added at its end, alternately: bytes the server has not
 * analysed last, that move no diagnostic. */
static int lsp__settle(EddiLspServer *self, const char *uri, const EddiLspText *text,
                       int64_t *version, EddiError *err) {
  LspOpenDoc *doc = &self->docs.items[lsp__find_doc(self, uri)];
  size_t added = 1 + doc->settles++ % 2;
  char *again = eddi_malloc(text->len + added + 1);
  memcpy(again, text->text, text->len);
  memcpy(again + text->len, "\n\n", added);
  again[text->len + added] = '\0';
  EddiLspText settled = {text->path, again, text->len + added};
  int rc = lsp__show(self, uri, &settled, version, err);
  eddi_free(again);
  return rc;
}

static bool lsp__heard_since(EddiLspServer *self, void *arg) {
  return self->seq != *(const uint64_t *)arg;
}

/* Wait until the server has said nothing for EDDI_LSP_QUIET_MS and has no
 * $/progress open (pyright publishes a version's diagnostics again once it
 * has analysed what the file imports). Past deadline, still busy: fails. */
static int lsp__quiet(EddiLspServer *self, long long deadline, EddiError *err) {
  for (;;) {
    uint64_t heard = self->seq;
    long long now = eddi_process_now_ms();
    if (now >= deadline) break;
    int rc = lsp__wait(self, EDDI_MIN(deadline, now + EDDI_LSP_QUIET_MS), lsp__heard_since, &heard,
                       "textDocument/publishDiagnostics", err);
    if (rc < 0) return rc;
    if (rc == 0 && self->progress.len == 0) return 0;
  }
  eddi_error_set(err, EDDI_EIO, "%s was still analysing after %u ms (the LSP deadline)", self->name,
                 self->deadline_ms);
  eddi_error_hint(err, "Try again, or give it a longer deadline");
  return err->code;
}

/* What a diagnose waits for: each uri's diagnostics of its version (or,
 * from a server that gives no version, any that came after it was
 * shown). */
typedef struct {
  char **uris;
  int64_t *versions;
  uint64_t *shown_at;
  size_t count;
} LspAwaited;

static const LspPublished *lsp__published_of(const EddiLspServer *self, const char *uri) {
  for (size_t i = 0; i < self->published.len; i++)
    if (strcmp(self->published.items[i].uri, uri) == 0) return &self->published.items[i];
  return NULL;
}

static bool lsp__fresh(const LspPublished *p, int64_t version, uint64_t shown_at) {
  return p && (p->version >= 0 ? p->version == version : p->seq > shown_at);
}

static bool lsp__all_published(EddiLspServer *self, void *arg) {
  const LspAwaited *a = arg;
  for (size_t i = 0; i < a->count; i++)
    if (!lsp__fresh(lsp__published_of(self, a->uris[i]), a->versions[i], a->shown_at[i]))
      return false;
  return true;
}

static size_t lsp__json_size(json_object *obj, const char *key) {
  json_object *v = lsp__get(obj, key);
  int64_t n = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : 0;
  return n > 0 ? (size_t)n : 0;
}

/* One diagnostic of text, in eddi's terms. */
static void lsp__convert(const EddiLspServer *self, size_t index, const EddiLspText *text,
                         json_object *d, EddiLspDiagnostics *out) {
  json_object *start = lsp__get(lsp__get(d, "range"), "start");
  EddiLspPosition pos = {lsp__json_size(start, "line"), lsp__json_size(start, "character")};
  size_t offset = eddi_lsp_offset_of(text->text, text->len, pos, self->encoding);
  EddiLspDiagnostic diag = {.text = index, .offset = offset, .severity = EDDI_LSP_ERROR};
  eddi_utf8_line_col(text->text, text->len, offset, &diag.line, &diag.col);
  size_t severity = lsp__json_size(d, "severity");
  if (severity >= EDDI_LSP_ERROR && severity <= EDDI_LSP_HINT) diag.severity = (int)severity;
  const char *message = lsp__string(d, "message");
  if (!message) message = "";
  const char *nl = strchr(message, '\n');
  diag.message = eddi_strndup(message, nl ? (size_t)(nl - message) : strlen(message));
  array_push(out, diag);
}

/* One tsserver diagnostic of text ({start: {line, offset}, text,
 * category}; line and offset count from 1, the offset in UTF-16 code
 * units), in eddi's terms. */
static void lsp__convert_tsserver(size_t index, const EddiLspText *text, json_object *d,
                                  EddiLspDiagnostics *out) {
  json_object *start = lsp__get(d, "start");
  size_t line = lsp__json_size(start, "line"), column = lsp__json_size(start, "offset");
  EddiLspPosition pos = {line ? line - 1 : 0, column ? column - 1 : 0};
  size_t offset = eddi_lsp_offset_of(text->text, text->len, pos, EDDI_LSP_UTF16);
  EddiLspDiagnostic diag = {.text = index, .offset = offset, .severity = EDDI_LSP_ERROR};
  eddi_utf8_line_col(text->text, text->len, offset, &diag.line, &diag.col);
  const char *category = lsp__string(d, "category");
  if (category && strcmp(category, "warning") == 0) diag.severity = EDDI_LSP_WARNING;
  else if (category && strcmp(category, "suggestion") == 0) diag.severity = EDDI_LSP_HINT;
  else if (category && strcmp(category, "message") == 0) diag.severity = EDDI_LSP_INFORMATION;
  const char *message = lsp__string(d, "text");
  if (!message) message = "";
  const char *nl = strchr(message, '\n');
  diag.message = eddi_strndup(message, nl ? (size_t)(nl - message) : strlen(message));
  array_push(out, diag);
}

/* The diagnostics of texts[index] (shown), asked of tsserver. */
static int lsp__ask_tsserver(EddiLspServer *self, const EddiLspText *texts, size_t index,
                             EddiLspDiagnostics *out, EddiError *err) {
  static const char *const commands[] = {"syntacticDiagnosticsSync", "semanticDiagnosticsSync"};
  int rc = 0;
  for (size_t c = 0; rc == 0 && c < 2; c++) {
    json_object *args = json_object_new_object();
    json_object_object_add(args, "file", json_object_new_string(texts[index].path));
    json_object *arguments = json_object_new_array();
    json_object_array_add(arguments, json_object_new_string(commands[c]));
    json_object_array_add(arguments, args);
    json_object *params = json_object_new_object();
    json_object_object_add(params, "command", json_object_new_string("typescript.tsserverRequest"));
    json_object_object_add(params, "arguments", arguments);
    json_object *result;
    rc = lsp__request(self, "workspace/executeCommand", params, &result, err);
    if (rc < 0) break;
    json_object *body = lsp__get(result, "body");
    json_object *success = lsp__get(result, "success");
    if (!json_object_is_type(body, json_type_array) || !json_object_get_boolean(success)) {
      const char *why = lsp__string(result, "message");
      eddi_error_set(err, EDDI_EIO, "%s: %s of %s gave no diagnostics%s%s", self->name, commands[c],
                     eddi_path_basename(texts[index].path), why ? ": " : "", why ? why : "");
      eddi_error_hint(err, "Validate again, or name another server with --lsp LANG=COMMAND");
      rc = err->code;
    }
    for (size_t k = 0; rc == 0 && k < json_object_array_length(body); k++)
      lsp__convert_tsserver(index, &texts[index], json_object_array_get_idx(body, k), out);
    json_object_put(result);
  }
  return rc;
}

/* The diagnostics of texts[index] (shown), asked with LSP 3.17's
 * textDocument/diagnostic: a full report of the text as last shown. */
static int lsp__ask_pulled(EddiLspServer *self, const EddiLspText *texts, size_t index,
                           EddiLspDiagnostics *out, EddiError *err) {
  json_object *params = json_object_new_object();
  char *uri = lsp__uri(texts[index].path);
  json_object_object_add(params, "textDocument", lsp__doc_id(uri));
  eddi_free(uri);
  json_object *result;
  int rc = lsp__request(self, "textDocument/diagnostic", params, &result, err);
  if (rc < 0) return rc;
  json_object *items = lsp__get(result, "items");
  const char *kind = lsp__string(result, "kind");
  if (!kind || strcmp(kind, "full") != 0 || !json_object_is_type(items, json_type_array)) {
    eddi_error_set(err, EDDI_EIO, "%s: textDocument/diagnostic of %s gave no full report",
                   self->name, eddi_path_basename(texts[index].path));
    eddi_error_hint(err, "Validate again, or name another server with --lsp LANG=COMMAND");
    rc = err->code;
  }
  for (size_t k = 0; rc == 0 && k < json_object_array_length(items); k++)
    lsp__convert(self, index, &texts[index], json_object_array_get_idx(items, k), out);
  json_object_put(result);
  return rc;
}

/* A diagnose by asking: every text shown (with EDDI_LSP_SETTLE, once more
 * as lsp__settle does), then each asked, through tsserver or as pulled. */
static int lsp__diagnose_asked(EddiLspServer *self, const EddiLspText *texts, size_t count,
                               unsigned flags, EddiLspDiagnostics *out, EddiError *err) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < count; i++) {
    char *uri = lsp__uri(texts[i].path);
    int64_t version;
    rc = lsp__show(self, uri, &texts[i], &version, err);
    if (rc == 0 && (flags & EDDI_LSP_SETTLE)) rc = lsp__settle(self, uri, &texts[i], &version, err);
    eddi_free(uri);
  }
  for (size_t i = 0; rc == 0 && i < count; i++)
    rc = self->diagnostics_way == EDDI_LSP_DIAGNOSTICS_TSSERVER
             ? lsp__ask_tsserver(self, texts, i, out, err)
             : lsp__ask_pulled(self, texts, i, out, err);
  for (size_t i = 0; rc == 0 && (flags & EDDI_LSP_CLOSE) && i < count; i++) {
    char *uri = lsp__uri(texts[i].path);
    int at = lsp__find_doc(self, uri);
    eddi_free(uri);
    if (at >= 0) rc = lsp__close_doc(self, (size_t)at, err);
  }
  if (rc < 0) eddi_lsp_diagnostics_free(out);
  return rc;
}

/* A diagnose of a running server whose pending changes were sent, by
 * publications: the caller holds the mutex. */
static int lsp__diagnose_published(EddiLspServer *self, const EddiLspText *texts, size_t count,
                                   unsigned flags, EddiLspDiagnostics *out, EddiError *err) {
  int rc = 0;
  LspAwaited awaited = {eddi_calloc(count + 1, sizeof(char *)),
                        eddi_calloc(count + 1, sizeof(int64_t)),
                        eddi_calloc(count + 1, sizeof(uint64_t)), count};
  for (size_t i = 0; i < count; i++) awaited.uris[i] = lsp__uri(texts[i].path);
  for (size_t i = 0; rc == 0 && i < count; i++) {
    awaited.shown_at[i] = self->seq;
    rc = lsp__show(self, awaited.uris[i], &texts[i], &awaited.versions[i], err);
  }
  /* Once every text is shown, each once more, with one or two newlines
   * added at its end: what the server makes of each then has seen all the
   * others. The bytes differ from the text and from the last time it was
   * settled, so that the server analyses it again (pyright keeps what it
   * found for bytes it has seen, though a file they import changed;
   * clangd builds nothing for the bytes it built last); newlines at the
   * end move no diagnostic. */
  for (size_t i = 0; rc == 0 && (flags & EDDI_LSP_SETTLE) && i < count; i++) {
    awaited.shown_at[i] = self->seq;
    rc = lsp__settle(self, awaited.uris[i], &texts[i], &awaited.versions[i], err);
  }
  if (rc == 0) {
    long long deadline = eddi_process_now_ms() + self->deadline_ms;
    rc = lsp__wait(self, deadline, lsp__all_published, &awaited, "textDocument/publishDiagnostics",
                   err);
    if (rc > 0 && (flags & (EDDI_LSP_SETTLE | EDDI_LSP_QUIET)))
      rc = lsp__quiet(self, deadline, err) < 0 ? err->code : 1;
    if (rc == 0) {
      size_t missing = 0;
      while (missing + 1 < count && lsp__fresh(lsp__published_of(self, awaited.uris[missing]),
                                               awaited.versions[missing],
                                               awaited.shown_at[missing]))
        missing++;
      eddi_error_set(err, EDDI_EIO, "%s gave no diagnostics for %s within %u ms (the LSP deadline)",
                     self->name, eddi_path_basename(texts[missing].path), self->deadline_ms);
      eddi_error_hint(err, "Validate again, or give it a longer deadline");
      rc = err->code;
    } else if (rc > 0) {
      rc = 0;
    }
  }
  for (size_t i = 0; rc == 0 && i < count; i++) {
    json_object *list = lsp__published_of(self, awaited.uris[i])->diagnostics;
    for (size_t k = 0; k < json_object_array_length(list); k++)
      lsp__convert(self, i, &texts[i], json_object_array_get_idx(list, k), out);
  }
  for (size_t i = 0; rc == 0 && (flags & EDDI_LSP_CLOSE) && i < count; i++) {
    int at = lsp__find_doc(self, awaited.uris[i]);
    if (at >= 0) rc = lsp__close_doc(self, (size_t)at, err);
  }
  if (rc < 0) eddi_lsp_diagnostics_free(out);
  for (size_t i = 0; i < count; i++) eddi_free(awaited.uris[i]);
  eddi_free(awaited.uris);
  eddi_free(awaited.versions);
  eddi_free(awaited.shown_at);
  return rc;
}

/* Whether the server holds text as its document with these bytes. */
static bool lsp__holds_text(const EddiLspServer *self, const EddiLspText *text) {
  char *uri = lsp__uri(text->path);
  int at = lsp__find_doc(self, uri);
  eddi_free(uri);
  if (at < 0) return false;
  const LspOpenDoc *doc = &self->docs.items[at];
  return doc->len == text->len && memcmp(doc->text, text->text, text->len) == 0;
}

int eddi_lsp_server_diagnose(EddiLspServer *self, const EddiLspText *texts, size_t count,
                             unsigned flags, EddiLspDiagnostics *out, EddiError *err) {
  pthread_mutex_lock(&self->mutex);
  int rc = lsp__flush_pending(self, err);
  if (rc == 0) rc = lsp__start(self, err);
  Array(EddiLspText) changed = {0};
  if (rc == 0 && (flags & EDDI_LSP_CHANGED_ONLY)) {
    for (size_t i = 0; i < count; i++)
      if (!lsp__holds_text(self, &texts[i])) array_push(&changed, texts[i]);
    texts = changed.items, count = changed.len;
  }
  if (rc == 0)
    rc = self->diagnostics_way == EDDI_LSP_DIAGNOSTICS_PUBLISHED
             ? lsp__diagnose_published(self, texts, count, flags, out, err)
             : lsp__diagnose_asked(self, texts, count, flags, out, err);
  array_free(&changed);
  pthread_mutex_unlock(&self->mutex);
  return rc;
}

/* ---------------------------------------------------------------- rename */

/* The path of a file:// uri, percent-decoded (new string), or NULL. */
static char *lsp__path_of(const char *uri) {
  if (strncmp(uri, "file://", 7) != 0) return NULL;
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (const char *p = uri + 7; *p; p++) {
    if (p[0] == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
      char hex[3] = {p[1], p[2], '\0'};
      eddi_strbuf_putc(&out, (char)strtol(hex, NULL, 16));
      p += 2;
    } else {
      eddi_strbuf_putc(&out, *p);
    }
  }
  return eddi_strbuf_take(&out);
}

/* One TextEdit of uri's, in eddi's terms. */
static void lsp__edit(const EddiLspServer *self, const char *uri, json_object *edit,
                      EddiLspEdits *out) {
  json_object *start = lsp__get(lsp__get(edit, "range"), "start");
  char *path = lsp__path_of(uri);
  if (!start || !path) {
    eddi_free(path);
    return;
  }
  EddiLspEdit e = {.path = path, .line = lsp__json_size(start, "line")};
  int at = lsp__find_doc(self, uri);
  if (at >= 0) {
    const LspOpenDoc *doc = &self->docs.items[at];
    EddiLspPosition pos = {e.line, lsp__json_size(start, "character")};
    e.offset = eddi_lsp_offset_of(doc->text, doc->len, pos, self->encoding);
    e.open = true;
  }
  array_push(out, e);
}

void eddi_lsp_edits_free(EddiLspEdits *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i].path);
  array_free(self);
}

int eddi_lsp_server_rename(EddiLspServer *self, const char *path, size_t offset,
                           const char *new_name, EddiLspEdits *out, EddiError *err) {
  pthread_mutex_lock(&self->mutex);
  char *uri = lsp__uri(path);
  int at = lsp__find_doc(self, uri);
  int rc = 0;
  if (at < 0) {
    rc = eddi_error_set(err, EDDI_ESTATE, "%s: %s is not open for a rename", self->name,
                        eddi_path_basename(path));
  }
  json_object *result = NULL;
  if (rc == 0) {
    const LspOpenDoc *doc = &self->docs.items[at];
    EddiLspPosition pos = eddi_lsp_position_of(doc->text, doc->len, offset, self->encoding);
    json_object *position = json_object_new_object();
    json_object_object_add(position, "line", json_object_new_int64((int64_t)pos.line));
    json_object_object_add(position, "character", json_object_new_int64((int64_t)pos.character));
    json_object *params = json_object_new_object();
    json_object_object_add(params, "textDocument", lsp__doc_id(uri));
    json_object_object_add(params, "position", position);
    json_object_object_add(params, "newName", json_object_new_string(new_name));
    rc = lsp__request(self, "textDocument/rename", params, &result, err);
  }
  /* A WorkspaceEdit: changes (uri -> edits) or documentChanges (edits of
   * a versioned document; file operations have no place to compare). */
  json_object *changes = lsp__get(result, "changes");
  if (rc == 0 && json_object_is_type(changes, json_type_object)) {
    json_object_object_foreach(changes, key, edits)
      for (size_t i = 0; json_object_is_type(edits, json_type_array) &&
                         i < json_object_array_length(edits); i++)
        lsp__edit(self, key, json_object_array_get_idx(edits, i), out);
  }
  json_object *documents = lsp__get(result, "documentChanges");
  for (size_t d = 0; rc == 0 && json_object_is_type(documents, json_type_array) &&
                     d < json_object_array_length(documents); d++) {
    json_object *change = json_object_array_get_idx(documents, d);
    const char *doc_uri = lsp__string(lsp__get(change, "textDocument"), "uri");
    json_object *edits = lsp__get(change, "edits");
    for (size_t i = 0; doc_uri && json_object_is_type(edits, json_type_array) &&
                       i < json_object_array_length(edits); i++)
      lsp__edit(self, doc_uri, json_object_array_get_idx(edits, i), out);
  }
  if (rc == 0 && !result) rc = 1;
  json_object_put(result);
  eddi_free(uri);
  pthread_mutex_unlock(&self->mutex);
  return rc;
}

/* ---------------------------------------------------------------- readiness */

static bool lsp__settled(EddiLspServer *self, void *arg) {
  EDDI_UNUSED(arg);
  return self->progress.len == 0;
}

int eddi_lsp_server_wait_ready(EddiLspServer *self, EddiError *err) {
  pthread_mutex_lock(&self->mutex);
  int rc = lsp__flush_pending(self, err);
  if (rc == 0) rc = lsp__start(self, err);
  if (rc == 0) {
    rc = lsp__wait(self, eddi_process_now_ms() + self->deadline_ms, lsp__settled, NULL,
                   "$/progress", err);
    if (rc == 0) {
      eddi_error_set(err, EDDI_EIO, "%s was not ready within %u ms (the LSP deadline): %s",
                     self->name, self->deadline_ms, self->progress.items[0]);
      rc = err->code;
    } else if (rc > 0) {
      rc = 0;
    }
  }
  pthread_mutex_unlock(&self->mutex);
  return rc;
}

/* ---------------------------------------------------------------- the end */

void eddi_lsp_server_free(EddiLspServer *self) {
  if (!self) return;
  if (self->running) {
    EddiError err = {0};
    unsigned deadline = self->deadline_ms;
    self->deadline_ms = EDDI_MIN(deadline, (unsigned)EDDI_LSP_SHUTDOWN_MS);
    json_object *result = NULL;
    int rc = lsp__request(self, "shutdown", NULL, &result, &err);
    json_object_put(result);
    if (rc == 0)
      rc = lsp__notify(self, "exit", NULL, eddi_process_now_ms() + EDDI_LSP_SHUTDOWN_MS, &err);
    if (rc == 0 && self->running) {
      long long end = eddi_process_now_ms() + EDDI_LSP_SHUTDOWN_MS;
      pid_t got;
      while ((got = waitpid(self->pid, NULL, WNOHANG)) == 0 && eddi_process_now_ms() < end)
        nanosleep(&(struct timespec){0, LSP_EXIT_POLL_MS * 1000000L}, NULL);
      if (got == self->pid) {
        kill(-self->pid, SIGKILL);
        lsp__gone(self);
      }
    }
    if (self->running) lsp__kill(self);
  }
  lsp__forget_state(self);
  array_free(&self->docs);
  array_free(&self->published);
  array_free(&self->progress);
  for (size_t i = 0; i < self->forgotten.len; i++) eddi_free(self->forgotten.items[i]);
  array_free(&self->forgotten);
  for (size_t i = 0; i < self->updates.len; i++)
    eddi_free(self->updates.items[i].uri), eddi_free(self->updates.items[i].text);
  array_free(&self->updates);
  array_free(&self->held);
  for (size_t i = 0; i < self->argv.len; i++) eddi_free(self->argv.items[i]);
  array_free(&self->argv);
  eddi_free(self->refusal), eddi_free(self->refusal_hint);
  eddi_free(self->name);
  eddi_free(self->language_id);
  eddi_free(self->root);
  eddi_free(self->root_uri);
  pthread_mutex_destroy(&self->mutex);
  pthread_mutex_destroy(&self->pending_mutex);
  eddi_free(self);
}

/* ---------------------------------------------------------------- navigation */

void eddi_lsp_locations_free(EddiLspLocations *self) {
  for (size_t i = 0; i < self->len; i++) eddi_free(self->items[i].path);
  array_free(self);
}

/* The file at path as it is on disk (new string), or NULL: for a place in
 * a file eddi has not shown the server, whose characters must be counted. */
static char *lsp__read_disk(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  StrBuf bytes = {0};
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && bytes.len < EDDI_LSP_MESSAGE_MAX)
    eddi_strbuf_append(&bytes, chunk, got);
  fclose(f);
  eddi_strbuf_puts(&bytes, "");
  *len = bytes.len;
  return eddi_strbuf_take(&bytes);
}

/* A Location ({uri, range}) or LocationLink ({targetUri,
 * targetSelectionRange}) in eddi's terms, appended to out. */
static void lsp__location(const EddiLspServer *self, json_object *loc, EddiLspLocations *out) {
  const char *uri = lsp__string(loc, "uri");
  json_object *range = lsp__get(loc, "range");
  if (!uri) {
    uri = lsp__string(loc, "targetUri");
    range = lsp__get(loc, "targetSelectionRange");
  }
  json_object *start = lsp__get(range, "start");
  char *path = uri ? lsp__path_of(uri) : NULL;
  if (!start || !path) {
    eddi_free(path);
    return;
  }
  EddiLspPosition pos = {lsp__json_size(start, "line"), lsp__json_size(start, "character")};
  EddiLspLocation l = {.path = path, .line = pos.line, .col = pos.character};
  int at = lsp__find_doc(self, uri);
  char *disk = NULL;
  const char *text = NULL;
  size_t len = 0;
  if (at >= 0) {
    text = self->docs.items[at].text, len = self->docs.items[at].len;
    l.open = true;
  } else {
    text = disk = lsp__read_disk(path, &len);
  }
  if (text) {
    l.offset = eddi_lsp_offset_of(text, len, pos, self->encoding);
    eddi_utf8_line_col(text, len, l.offset, &l.line, &l.col);
  }
  eddi_free(disk);
  array_push(out, l);
}

/* A request at byte offset of path (open in the server), its params made
 * by the caller's extra keys; the result (new reference) or NULL. */
static int lsp__position_request(EddiLspServer *self, const char *method, const char *path,
                                 size_t offset, json_object *params, json_object **result,
                                 EddiError *err) {
  char *uri = lsp__uri(path);
  int at = lsp__find_doc(self, uri);
  int rc = 0;
  if (at < 0) {
    json_object_put(params);
    rc = eddi_error_set(err, EDDI_ESTATE, "%s: %s is not open for %s", self->name,
                        eddi_path_basename(path), method);
    eddi_error_hint(err, "Open the file in eddi and ask again");
  } else {
    const LspOpenDoc *doc = &self->docs.items[at];
    EddiLspPosition pos = eddi_lsp_position_of(doc->text, doc->len, offset, self->encoding);
    json_object *position = json_object_new_object();
    json_object_object_add(position, "line", json_object_new_int64((int64_t)pos.line));
    json_object_object_add(position, "character", json_object_new_int64((int64_t)pos.character));
    json_object_object_add(params, "textDocument", lsp__doc_id(uri));
    json_object_object_add(params, "position", position);
    rc = lsp__request(self, method, params, result, err);
  }
  eddi_free(uri);
  return rc;
}

/* The places a Location, Location[] or LocationLink[] result names. */
static void lsp__locations(const EddiLspServer *self, json_object *result, EddiLspLocations *out) {
  if (json_object_is_type(result, json_type_object)) {
    lsp__location(self, result, out);
    return;
  }
  for (size_t i = 0; json_object_is_type(result, json_type_array) &&
                     i < json_object_array_length(result); i++)
    lsp__location(self, json_object_array_get_idx(result, i), out);
}

int eddi_lsp_server_references(EddiLspServer *self, const char *path, size_t offset,
                               EddiLspLocations *out, EddiError *err) {
  pthread_mutex_lock(&self->mutex);
  json_object *params = json_object_new_object();
  json_object *context = json_object_new_object();
  json_object_object_add(context, "includeDeclaration", json_object_new_boolean(1));
  json_object_object_add(params, "context", context);
  json_object *result = NULL;
  int rc = lsp__position_request(self, "textDocument/references", path, offset, params, &result,
                                 err);
  if (rc == 0) lsp__locations(self, result, out);
  json_object_put(result);
  pthread_mutex_unlock(&self->mutex);
  return rc;
}

int eddi_lsp_server_definition(EddiLspServer *self, const char *path, size_t offset,
                               EddiLspLocations *out, EddiError *err) {
  pthread_mutex_lock(&self->mutex);
  json_object *result = NULL;
  int rc = lsp__position_request(self, "textDocument/definition", path, offset,
                                 json_object_new_object(), &result, err);
  if (rc == 0) lsp__locations(self, result, out);
  json_object_put(result);
  pthread_mutex_unlock(&self->mutex);
  return rc;
}

/* The text of a hover's contents: MarkupContent, a MarkedString
 * ({language, value} or a string) or an array of them, joined by "\n". */
static void lsp__hover_text(json_object *contents, StrBuf *out) {
  if (json_object_is_type(contents, json_type_string)) {
    if (out->len) eddi_strbuf_putc(out, '\n');
    eddi_strbuf_puts(out, json_object_get_string(contents));
  } else if (json_object_is_type(contents, json_type_object)) {
    lsp__hover_text(lsp__get(contents, "value"), out);
  } else if (json_object_is_type(contents, json_type_array)) {
    for (size_t i = 0; i < json_object_array_length(contents); i++)
      lsp__hover_text(json_object_array_get_idx(contents, i), out);
  }
}

int eddi_lsp_server_hover(EddiLspServer *self, const char *path, size_t offset, char **out,
                          EddiError *err) {
  *out = NULL;
  pthread_mutex_lock(&self->mutex);
  json_object *result = NULL;
  int rc = lsp__position_request(self, "textDocument/hover", path, offset,
                                 json_object_new_object(), &result, err);
  if (rc == 0) {
    StrBuf text = {0};
    lsp__hover_text(lsp__get(result, "contents"), &text);
    if (text.len) *out = eddi_strbuf_take(&text);
    else eddi_strbuf_free(&text);
  }
  json_object_put(result);
  pthread_mutex_unlock(&self->mutex);
  return rc;
}
