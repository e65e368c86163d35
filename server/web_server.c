/* web_server.c - see web_server.h.
 *
 * libmicrohttpd (Debian's libmicrohttpd-dev) does the HTTP: a well-kept C
 * library with its own polling thread, given the socket bound here. Files
 * are read at each request: they are small, and a rebuilt page is served
 * without a restart.
 */
#include "web_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server_error.h"

/* The page's entry; its absence means the assets were not built. */
#define WEB_INDEX "index.html"
#define WEB_CONFIG_PATH "/eddi-web.json"
/* No asset is larger; a larger file in the folder is refused, not served. */
#define WEB_ASSET_MAX (16 * 1024 * 1024)
#define WEB_LISTEN_BACKLOG 64
#define WEB_HOST_MAX 64
#define WEB_PORT_MAX 65535
/* An idle connection is closed after this; at most this many at once. */
#define WEB_CONNECTION_TIMEOUT_S 30
#define WEB_CONNECTIONS_MAX 64

/* ------------------------------------------------------------- address */

/* "HOST:PORT" into an IPv4 socket address; why into error. */
static int web__parse_address(const char *address, struct sockaddr_in *out, char *error,
                              size_t error_size) {
  const char *colon = strrchr(address, ':');
  size_t host_len = colon ? (size_t)(colon - address) : 0;
  if (!colon || host_len == 0 || host_len >= WEB_HOST_MAX || !colon[1]) {
    snprintf(error, error_size, "--web '%s': give HOST:PORT, such as 127.0.0.1:0", address);
    return SERVER_EINVAL;
  }
  char host[WEB_HOST_MAX];
  memcpy(host, address, host_len);
  host[host_len] = '\0';
  char *end = NULL;
  errno = 0;
  long port = strtol(colon + 1, &end, 10);
  if (errno || *end || colon[1] < '0' || colon[1] > '9' || port > WEB_PORT_MAX) {
    snprintf(error, error_size, "--web '%s': the port is a number from 0 to %d", address,
             WEB_PORT_MAX);
    return SERVER_EINVAL;
  }
  memset(out, 0, sizeof *out);
  out->sin_family = AF_INET;
  out->sin_port = htons((uint16_t)port);
  if (strcmp(host, "localhost") == 0) snprintf(host, sizeof host, "127.0.0.1");
  if (inet_pton(AF_INET, host, &out->sin_addr) != 1) {
    snprintf(error, error_size, "--web '%s': the host is an IPv4 address such as 127.0.0.1",
             address);
    return SERVER_EINVAL;
  }
  return SERVER_OK;
}

static int web__bind(WebServer *self, const char *address, const struct sockaddr_in *at,
                     char *error, size_t error_size) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int yes = 1;
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) != 0 ||
      bind(fd, (const struct sockaddr *)at, sizeof *at) != 0 ||
      listen(fd, WEB_LISTEN_BACKLOG) != 0) {
    snprintf(error, error_size, "--web '%s': cannot listen there: %s", address, strerror(errno));
    if (fd >= 0) close(fd);
    return SERVER_EINVAL;
  }
  struct sockaddr_in bound;
  socklen_t len = sizeof bound;
  getsockname(fd, (struct sockaddr *)&bound, &len);
  char host[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &bound.sin_addr, host, sizeof host);
  self->listen_fd = fd;
  self->port = ntohs(bound.sin_port);
  self->loopback = (ntohl(bound.sin_addr.s_addr) >> 24) == 127;
  snprintf(self->origin, sizeof self->origin, "http://%s:%d", host, self->port);
  return SERVER_OK;
}

int web_server_listen(WebServer *self, const char *address, const char *assets, char *error,
                      size_t error_size) {
  memset(self, 0, sizeof *self);
  self->listen_fd = -1;
  struct sockaddr_in at;
  if (web__parse_address(address, &at, error, error_size) != SERVER_OK) return SERVER_EINVAL;
  char index[WEB_PATH_MAX + sizeof WEB_INDEX + 1];
  snprintf(index, sizeof index, "%s/%s", assets, WEB_INDEX);
  if (strlen(assets) >= sizeof self->assets || access(index, R_OK) != 0) {
    snprintf(error, error_size,
             "--web: the web interface is not built (no %s in %s): run `cmake --build "
             "BUILD --target web-assets` (needs npm), or give --web-assets DIR",
             WEB_INDEX, assets);
    return SERVER_EINVAL;
  }
  snprintf(self->assets, sizeof self->assets, "%s", assets);
  return web__bind(self, address, &at, error, error_size);
}

/* ------------------------------------------------------------- serving */

/* An asset's name: one flat folder, so letters, digits, '.', '-', '_' and
 * no leading dot (no "..", no hidden files). */
static bool web__asset_name_valid(const char *name) {
  if (!*name || *name == '.') return false;
  for (const char *c = name; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          *c == '.' || *c == '-' || *c == '_'))
      return false;
  return true;
}

static const char *web__content_type(const char *name) {
  static const struct {
    const char *suffix, *type;
  } types[] = {{".html", "text/html; charset=utf-8"},
               {".js", "text/javascript; charset=utf-8"},
               {".css", "text/css; charset=utf-8"},
               {".json", "application/json"},
               {".svg", "image/svg+xml"},
               {".map", "application/json"}};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    size_t s = strlen(types[i].suffix);
    if (n > s && strcmp(name + n - s, types[i].suffix) == 0) return types[i].type;
  }
  return "application/octet-stream";
}

/* The file's bytes, a new buffer the caller frees; NULL when it is not a
 * regular file of the folder. */
static char *web__read_asset(const WebServer *self, const char *name, size_t *len) {
  char path[WEB_PATH_MAX * 2];
  snprintf(path, sizeof path, "%s/%s", self->assets, name);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return NULL;
  struct stat info;
  char *bytes = NULL;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size <= WEB_ASSET_MAX) {
    bytes = malloc((size_t)info.st_size + 1);
    size_t got = 0;
    while (bytes && got < (size_t)info.st_size) {
      ssize_t n = read(fd, bytes + got, (size_t)info.st_size - got);
      if (n <= 0) break;
      got += (size_t)n;
    }
    if (bytes && got != (size_t)info.st_size) {
      free(bytes);
      bytes = NULL;
    }
    *len = got;
  }
  close(fd);
  return bytes;
}

static enum MHD_Result web__send(struct MHD_Connection *connection, unsigned status,
                                 const char *type, void *bytes, size_t len,
                                 enum MHD_ResponseMemoryMode mode) {
  struct MHD_Response *response = MHD_create_response_from_buffer(len, bytes, mode);
  if (!response) return MHD_NO;
  MHD_add_response_header(response, "Content-Type", type);
  MHD_add_response_header(response, "Cache-Control", "no-store");
  MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(response, "X-Frame-Options", "DENY");
  enum MHD_Result result = MHD_queue_response(connection, status, response);
  MHD_destroy_response(response);
  return result;
}

static enum MHD_Result web__fail(struct MHD_Connection *connection, unsigned status,
                                 const char *text) {
  return web__send(connection, status, "text/plain; charset=utf-8", (void *)text, strlen(text),
                   MHD_RESPMEM_PERSISTENT);
}

static enum MHD_Result web__answer(void *closure, struct MHD_Connection *connection,
                                   const char *url, const char *method, const char *version,
                                   const char *upload, size_t *upload_size, void **state) {
  (void)version;
  (void)upload;
  (void)state;
  WebServer *self = closure;
  if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
    return web__fail(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "Fail \"Only GET is served\"\n");
  if (*upload_size) return web__fail(connection, MHD_HTTP_BAD_REQUEST, "Fail \"No body\"\n");
  if (strcmp(url, WEB_CONFIG_PATH) == 0)
    return web__send(connection, MHD_HTTP_OK, "application/json", self->config_json,
                     strlen(self->config_json), MHD_RESPMEM_PERSISTENT);
  const char *name = strcmp(url, "/") == 0 ? WEB_INDEX : url + 1;
  size_t len = 0;
  char *bytes = *url == '/' && web__asset_name_valid(name) ? web__read_asset(self, name, &len)
                                                           : NULL;
  if (!bytes) return web__fail(connection, MHD_HTTP_NOT_FOUND, "Fail \"Not found\"\n");
  return web__send(connection, MHD_HTTP_OK, web__content_type(name), bytes, len,
                   MHD_RESPMEM_MUST_FREE);
}

static int web__write_config(WebServer *self, const char *websocket_url, const char *instance) {
  json_object *config = json_object_new_object();
  if (!config) return SERVER_ENOMEM;
  json_object_object_add(config, "websocket", json_object_new_string(websocket_url));
  json_object_object_add(config, "instance", json_object_new_string(instance));
  const char *text = json_object_to_json_string_ext(
      config, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
  int status = text && strlen(text) < sizeof self->config_json ? SERVER_OK : SERVER_EINVAL;
  if (status == SERVER_OK) snprintf(self->config_json, sizeof self->config_json, "%s", text);
  json_object_put(config);
  return status;
}

int web_server_start(WebServer *self, const char *websocket_url, const char *instance,
                     char *error, size_t error_size) {
  if (web__write_config(self, websocket_url, instance) != SERVER_OK) {
    snprintf(error, error_size, "--web: the WebSocket URL is too long");
    return SERVER_EINVAL;
  }
  self->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
                                  NULL, web__answer, self, MHD_OPTION_LISTEN_SOCKET,
                                  self->listen_fd, MHD_OPTION_CONNECTION_TIMEOUT,
                                  (unsigned)WEB_CONNECTION_TIMEOUT_S, MHD_OPTION_CONNECTION_LIMIT,
                                  (unsigned)WEB_CONNECTIONS_MAX, MHD_OPTION_END);
  if (!self->daemon) {
    snprintf(error, error_size, "--web: libmicrohttpd did not start");
    return SERVER_EIO;
  }
  return SERVER_OK;
}

void web_server_stop(WebServer *self) {
  /* MHD closes the socket it was given when it stops. */
  if (self->daemon)
    MHD_stop_daemon(self->daemon);
  else if (self->listen_fd >= 0)
    close(self->listen_fd);
  self->daemon = NULL;
  self->listen_fd = -1;
}
