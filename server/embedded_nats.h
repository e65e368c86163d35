/* embedded_nats.h - the embedded default: a private nats-server child.
 *
 * With neither --nats nor --stdio, eddi-server starts `nats-server -a
 * 127.0.0.1 -p -1 -c <config>` (a free port), reads the port from its log
 * line "Listening for client connections on ...", and serves that. The
 * child gets SIGTERM when eddi-server stops, and also when it dies
 * (PR_SET_PDEATHSIG), so no nats-server outlives it.
 *
 * It is not open: 127.0.0.1 is every local user's, so the config gives it
 * two users with random passwords. "eddi" is the instances' (this server,
 * and the Emacs bridge if it joins): it alone may serve eddi's subjects,
 * announce sessions and answer session syncs. "client" may only send
 * requests (eddi.cmd, eddi.<id>.cmd, mizuki connection requests and stream
 * updates, $SRV discovery) and read its inboxes. Each user's password is
 * left for the programs of the same local user in a file of mode 0600 in
 * eddi's state folder (EDDI_LINK_CLIENT_CREDENTIALS,
 * EDDI_LINK_INSTANCE_CREDENTIALS), naming the URL it is for; the config
 * file goes as soon as nats-server has read it, the credentials when
 * eddi-server stops. doc/security.org has the threat model. With --web
 * the config also opens a WebSocket for the page's origin and has a user
 * per web user (EmbeddedWeb below, doc/web.org).
 */
#ifndef EDDI_SERVER_EMBEDDED_NATS_H
#define EDDI_SERVER_EMBEDDED_NATS_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#define EMBEDDED_URL_MAX 64

/* A generated password: this many random bytes, in hex. */
#define EMBEDDED_PASSWORD_BYTES 16
#define EMBEDDED_PASSWORD_MAX (EMBEDDED_PASSWORD_BYTES * 2 + 1)
#define EMBEDDED_PATH_MAX 4096
/* The users of the embedded server. */
#define EMBEDDED_INSTANCE_USER "eddi"
#define EMBEDDED_CLIENT_USER "client"
#define EMBEDDED_USER_MAX 65
/* A web user's credentials file in the state folder: web-<user>.json. */
#define EMBEDDED_WEB_CREDENTIALS_PREFIX "web-"
/* The subjects eddi publishes for the web page to watch (web_watch.h). */
#define EMBEDDED_WATCH_SUBJECTS "eddi.watch.>"

/* With --web (doc/web.org): a WebSocket listener on loopback that only the
 * page's origin may use, and a NATS user per web user. A viewer may only
 * subscribe (the watch subjects, its inbox); an editor may also publish on
 * its own command subjects, eddi.u.<user>.cmd and eddi.u.<user>.*.cmd, as
 * in identity mode. Each gets a random password, left in
 * <state>/web-<user>.json (mode 0600) for the person to type in. */
typedef struct {
  const char *origin; /* the page's origin, the one allowed */
  char *const *editors;
  size_t editor_count;
  char *const *viewers;
  size_t viewer_count;
} EmbeddedWeb;

typedef struct {
  char name[EMBEDDED_USER_MAX];
  char password[EMBEDDED_PASSWORD_MAX];
  char credentials[EMBEDDED_PATH_MAX];
  bool editor;
} EmbeddedWebUser;

typedef struct {
  pid_t pid;
  int log_fd;            /* the child's stderr, forwarded to ours */
  pthread_t log_thread;
  bool log_thread_running;
  char url[EMBEDDED_URL_MAX];
  char instance_password[EMBEDDED_PASSWORD_MAX]; /* this server connects with it */
  char client_password[EMBEDDED_PASSWORD_MAX];
  char client_credentials[EMBEDDED_PATH_MAX];    /* where clients find theirs */
  char instance_credentials[EMBEDDED_PATH_MAX];
  char websocket_url[EMBEDDED_URL_MAX]; /* with web: ws://127.0.0.1:<port> */
  EmbeddedWebUser *web_users;           /* with web; freed by stop */
  size_t web_user_count;
} EmbeddedNats;

/* Start program (NULL: "nats-server" from PATH) with generated users, wait
 * until it listens, and write the credentials files into state_dir. web,
 * when not NULL, adds the WebSocket listener and the web users. */
int embedded_nats_start(EmbeddedNats *self, const char *program, const char *state_dir,
                        const EmbeddedWeb *web);
/* True if pid is the child and it has exited (reaped). */
bool embedded_nats_reap(EmbeddedNats *self);
/* Stop the child (SIGTERM, then SIGKILL after a grace period), reap it,
 * and remove the credentials files that are still this server's. */
void embedded_nats_stop(EmbeddedNats *self);

#endif
