/* web_server.h - the web interface's HTTP side (--web, doc/web.org).
 *
 * eddi-server serves only the page's static files and one small JSON,
 * /eddi-web.json, naming the nats-server WebSocket the page connects to.
 * The data goes over that WebSocket with the browser user's own NATS
 * credentials, so the HTTP side holds no rights and no secrets: it answers
 * GET for the files of one flat folder and nothing else.
 *
 * Two steps, so that a bad --web changes nothing: web_server_listen reads
 * the address, checks the assets and binds the socket before eddi-server
 * starts anything else; web_server_start serves once the WebSocket URL is
 * known (the embedded nats-server's listener is made after the page's
 * origin is known, for its allowed_origins).
 */
#ifndef EDDI_SERVER_WEB_SERVER_H
#define EDDI_SERVER_WEB_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#define WEB_PATH_MAX 4096
#define WEB_ORIGIN_MAX 64
#define WEB_URL_MAX 256

struct MHD_Daemon;

typedef struct {
  int listen_fd;               /* bound and listening; -1 when none */
  struct MHD_Daemon *daemon;   /* NULL until started */
  bool loopback;               /* the address is 127.0.0.0/8 */
  int port;                    /* the port bound (the free one, for port 0) */
  char origin[WEB_ORIGIN_MAX]; /* "http://127.0.0.1:8080": the page's origin */
  char assets[WEB_PATH_MAX];   /* the folder served */
  char config_json[WEB_URL_MAX * 2]; /* /eddi-web.json */
} WebServer;

/* Read address ("HOST:PORT", HOST an IPv4 address or "localhost", PORT 0
 * for a free one), check that assets holds the built page and bind. On a
 * bad address, missing assets or a failed bind, writes why into error and
 * returns SERVER_EINVAL, having opened nothing. */
int web_server_listen(WebServer *self, const char *address, const char *assets, char *error,
                      size_t error_size);
/* Serve on the bound socket; the page connects to websocket_url (borrowed
 * for the call). instance is this server's id, shown by the page. */
int web_server_start(WebServer *self, const char *websocket_url, const char *instance,
                     char *error, size_t error_size);
/* Stop serving and close the socket. Safe on a server never listened. */
void web_server_stop(WebServer *self);

#endif
