/* eddi_server.c - eddi-server: the engine as a headless service.
 *
 *   eddi-server [--root DIR] [--nats URL] [--stdio] [--name ID] [auth] [tls]
 *
 * Threads: the engine has one owner thread (engine_host.c); nats.c's
 * delivery threads and the stdio reader only queue work to it. The main
 * thread does nothing but wait for a signal: every signal this process
 * cares about is blocked in all threads and taken here with sigwait, so no
 * handler ever runs inside library code.
 *
 * Shutdown (SIGINT, SIGTERM, or end of stdin in stdio-only mode) drains:
 * no new work is taken, queued work is finished and answered, then the
 * connections close and the process exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "embedded_nats.h"
#include "endpoints.h"
#include "engine_host.h"
#include "log.h"
#include "mizuki_stream.h"
#include "liveness.h"
#include "nats_service.h"
#include "options.h"
#include "server_error.h"
#include "service_discovery.h"
#include "mcp_config.h"
#include "stdio_rpc.h"
#include "web_server.h"
#include "web_watch.h"

/* The built page, where the build puts it (cmake --build BUILD --target
 * web-assets); --web-assets names another folder. */
#ifndef EDDI_WEB_ASSETS_DEFAULT
#define EDDI_WEB_ASSETS_DEFAULT "web/dist"
#endif

/* Error messages from option parsing and engine creation. */
#define SERVER_ERROR_MAX 512
/* A generated instance id: "eddi-" and this many random bytes in hex. */
#define SERVER_ID_RANDOM_BYTES 4

/* stdin ended: the stdio reader tells the main thread with this signal. */
#define SIGNAL_INPUT_ENDED SIGUSR1

static void server__input_ended(void) { kill(getpid(), SIGNAL_INPUT_ENDED); }

static void server__make_id(char *id, size_t size) {
  unsigned char bytes[SERVER_ID_RANDOM_BYTES] = {0};
  if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes) {
    /* No entropy: the pid still tells instances on one machine apart. */
    unsigned pid = (unsigned)getpid();
    memcpy(bytes, &pid, sizeof bytes < sizeof pid ? sizeof bytes : sizeof pid);
  }
  int n = snprintf(id, size, "eddi-");
  for (size_t i = 0; i < sizeof bytes && n > 0 && (size_t)n + 2 < size; i++)
    n += snprintf(id + n, size - (size_t)n, "%02x", bytes[i]);
}

/* Read --web's address, check the assets and bind, or say why not. The
 * embedded nats-server's WebSocket is on loopback, so its page is too. */
static int server__web_listen(WebServer *web, const ServerOptions *options, char *error,
                              size_t error_size) {
  const char *assets = options->web_assets ? options->web_assets : EDDI_WEB_ASSETS_DEFAULT;
  if (web_server_listen(web, options->web, assets, error, error_size) != SERVER_OK)
    return SERVER_EINVAL;
  if (!options->nats_url && !web->loopback) {
    snprintf(error, error_size,
             "--web '%s': the embedded nats-server's WebSocket is on loopback only, so the "
             "page is too: give 127.0.0.1:PORT (doc/web.org: other hosts)",
             options->web);
    web_server_stop(web);
    return SERVER_EINVAL;
  }
  return SERVER_OK;
}

/* Publish what the page shows and serve it. */
static int server__web_start(WebServer *web, WebWatch *watch, EngineHost *host, NatsService *nats,
                             const EmbeddedNats *embedded, const ServerOptions *options,
                             const char *instance_id) {
  char error[SERVER_ERROR_MAX];
  const char *websocket = options->web_websocket ? options->web_websocket
                                                 : embedded->websocket_url;
  if (web_watch_start(watch, host, nats->link, instance_id) != SERVER_OK) return SERVER_EIO;
  if (web_server_start(web, websocket, instance_id, error, sizeof error) != SERVER_OK) {
    log_report(LOG_ERROR, "web", "%s", error);
    return SERVER_EIO;
  }
  return SERVER_OK;
}

int main(int argc, char **argv) {
  ServerOptions options;
  char error[SERVER_ERROR_MAX] = "";
  bool help_only = false;
  int exit_code = EXIT_FAILURE;
  EngineHost host;
  bool host_ready = false;
  StdioRpc stdio_rpc = {0};
  NatsService nats;
  Liveness liveness = {0};
  SessionKv *kv = NULL;
  EndpointTable endpoints;
  MizukiStreams mizuki = {0};
  ServiceDiscovery discovery;
  bool nats_started = false;
  EmbeddedNats embedded = {.pid = -1, .log_fd = -1};
  WebServer web = {.listen_fd = -1};
  WebWatch watch = {0};

  /* A subcommand, not a server: it prints (or writes) and exits. */
  if (argc > 1 && strcmp(argv[1], MCP_CONFIG_COMMAND) == 0)
    return mcp_config_main(argc - 1, argv + 1);
  if (options_parse(&options, argc, argv, &help_only, error, sizeof error) != SERVER_OK) {
    fprintf(stderr, "eddi-server: %s\n", error);
    options_free(&options);
    return EXIT_FAILURE;
  }
  if (help_only) {
    options_free(&options);
    return EXIT_SUCCESS;
  }
  /* A bad --web stops here, before anything is made or started. */
  if (options.web && server__web_listen(&web, &options, error, sizeof error) != SERVER_OK) {
    fprintf(stderr, "eddi-server: %s\n", error);
    options_free(&options);
    return EXIT_FAILURE;
  }
  log_set_requests(!options.quiet);
  signal(SIGPIPE, SIG_IGN); /* a closed peer is an error return, not death */

  sigset_t waited;
  sigemptyset(&waited);
  sigaddset(&waited, SIGINT);
  sigaddset(&waited, SIGTERM);
  sigaddset(&waited, SIGNAL_INPUT_ENDED);
  sigaddset(&waited, SIGCHLD);
  pthread_sigmask(SIG_BLOCK, &waited, NULL); /* before any thread starts */

  char instance_id[OPTIONS_NAME_MAX + 1];
  if (options.name)
    snprintf(instance_id, sizeof instance_id, "%s", options.name);
  else
    server__make_id(instance_id, sizeof instance_id);

  /* The engine starts no thread before its owner thread does: the embedded
   * nats-server, forked next, inherits no threads' state. */
  if (engine_host_init(&host, &options, instance_id, error, sizeof error) != SERVER_OK) {
    log_report(LOG_ERROR, "engine", "%s", error);
    goto done;
  }
  host_ready = true;

  /* The embedded default: a private nats-server with its own users, whose
   * credentials go to the state folder. */
  const char *url = options.nats_url;
  EddiLinkCredentials embedded_auth = {0};
  if (!url && !options.stdio) {
    const char *state = eddi_engine_state_dir(host.engine, error, sizeof error);
    if (!state) {
      log_report(LOG_ERROR, "embedded", "%s", error);
      goto done;
    }
    EmbeddedWeb embedded_web = {.origin = web.origin,
                                .editors = options.web_editors.items,
                                .editor_count = options.web_editors.count,
                                .viewers = options.web_viewers.items,
                                .viewer_count = options.web_viewers.count};
    if (embedded_nats_start(&embedded, options.nats_server_bin, state,
                            options.web ? &embedded_web : NULL) != SERVER_OK)
      goto done;
    url = embedded.url;
    embedded_auth = (EddiLinkCredentials){.user = EMBEDDED_INSTANCE_USER,
                                          .password = embedded.instance_password};
  }

  if (engine_host_start_audit(&host, error, sizeof error) != SERVER_OK) {
    log_report(LOG_ERROR, "audit", "%s", error);
    goto done;
  }
  /* Subscribe before the owner thread runs: work queued meanwhile waits.
   * The three NATS parts share the service's link and the endpoint table,
   * and know nothing of each other. */
  if (url) {
    if (endpoints_init(&endpoints) != SERVER_OK) goto done;
    nats_started = true;
    if (nats_service_start(&nats, &host, &endpoints, url, instance_id,
                           embedded_auth.user ? &embedded_auth : NULL) != SERVER_OK ||
        (!options_identity_from_subject(&options) &&
         mizuki_streams_start(&mizuki, nats.link, &host, &endpoints, instance_id) != SERVER_OK) ||
        service_discovery_start(&discovery, nats.link, &endpoints, host.engine, instance_id) !=
            SERVER_OK)
      goto done;
    if (options.audit_subject) nats_service_publish_audit(&nats, options.audit_subject);
    if (options.web && server__web_start(&web, &watch, &host, &nats, &embedded, &options,
                                         instance_id) != SERVER_OK)
      goto done;
    nats_service_announce(&nats);
    if (options.kv_bucket) {
      kv = session_kv_open(nats.link, &host, options.kv_bucket, error, sizeof error);
      if (!kv) {
        log_report(LOG_ERROR, "kv", "%s", error);
        goto done;
      }
      nats_service_mirror_sessions(&nats, kv);
      session_kv_put_all(kv);
    }
    /* Other instances' sessions last as long as those instances answer. */
    if (liveness_start(&liveness, nats.link, host.engine, (unsigned)options.liveness_ms, kv) !=
        SERVER_OK)
      goto done;
    /* Printed once subscribed: a client that reads it finds eddi there. */
    if (embedded.pid > 0) {
      printf("eddi-server: NATS at %s\neddi-server: credentials in %s\n", url,
             embedded.client_credentials);
    }
    if (options.web) printf("eddi-server: web interface at %s/\n", web.origin);
    fflush(stdout);
  }
  if (engine_host_start(&host) != SERVER_OK) {
    log_report(LOG_ERROR, "engine", "cannot start the engine thread");
    goto done;
  }
  if (options.stdio &&
      stdio_rpc_start(&stdio_rpc, &host, stdin, STDOUT_FILENO, server__input_ended) != SERVER_OK) {
    log_report(LOG_ERROR, "stdio", "cannot start the stdio reader");
    goto done;
  }

  for (;;) {
    int signal_number = 0;
    if (sigwait(&waited, &signal_number) != 0) continue;
    if (signal_number == SIGCHLD) {
      if (!embedded_nats_reap(&embedded)) continue;
      goto done; /* the URL we printed is dead: fail loudly */
    }
    if (signal_number == SIGNAL_INPUT_ENDED) {
      stdio_rpc_join(&stdio_rpc);
      if (url) continue; /* the stdio client left; NATS clients stay served */
      break;
    }
    log_report(LOG_INFO, "main", "%s: draining and stopping", strsignal(signal_number));
    break;
  }
  exit_code = EXIT_SUCCESS;

done:
  web_server_stop(&web);
  web_watch_stop_timer(&watch);
  liveness_stop(&liveness);
  if (nats_started) nats_service_drain(&nats);
  if (host_ready) engine_host_stop(&host);
  web_watch_destroy(&watch);
  /* The owner thread has answered all it took: the replies go out, and no
   * NATS callback runs once this returns. */
  if (nats_started) {
    nats_service_mirror_sessions(&nats, NULL);
    session_kv_close(kv);
    nats_service_close(&nats);
    mizuki_streams_destroy(&mizuki);
    endpoints_destroy(&endpoints);
  }
  /* A stdio reader still blocked on input may yet touch the host: leave it
   * to the process exit. */
  if (host_ready && !stdio_rpc.running) engine_host_destroy(&host);
  embedded_nats_stop(&embedded);
  options_free(&options);
  return exit_code;
}
