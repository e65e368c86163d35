/* web_server_absent.c - web_server.h for a build without libmicrohttpd:
 * --web says what is missing and changes nothing. */
#include "web_server.h"

#include <stdio.h>
#include <string.h>

#include "server_error.h"

int web_server_listen(WebServer *self, const char *address, const char *assets, char *error,
                      size_t error_size) {
  (void)address;
  (void)assets;
  memset(self, 0, sizeof *self);
  self->listen_fd = -1;
  snprintf(error, error_size,
           "--web: this eddi-server was built without libmicrohttpd: install "
           "libmicrohttpd-dev (scripts/install-deps) and build again");
  return SERVER_EINVAL;
}

int web_server_start(WebServer *self, const char *websocket_url, const char *instance,
                     char *error, size_t error_size) {
  (void)self;
  (void)websocket_url;
  (void)instance;
  snprintf(error, error_size, "--web: built without libmicrohttpd");
  return SERVER_EINVAL;
}

void web_server_stop(WebServer *self) { self->listen_fd = -1; }
