/* embedded_nats.c - see embedded_nats.h. */
#include "embedded_nats.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eddi_link.h"
#include "log.h"
#include "mizuki_stream.h"
#include "server_error.h"

#define EMBEDDED_DEFAULT_PROGRAM "nats-server"
/* nats-server is ready in ~35 ms; allow for a slow machine. */
#define EMBEDDED_START_TIMEOUT_MS 10000
#define EMBEDDED_STOP_GRACE_MS 5000
#define EMBEDDED_POLL_STEP_MS 10
#define EMBEDDED_LOG_LINE_MAX 1024
/* Its log line: "... Listening for client connections on 127.0.0.1:4222". */
#define EMBEDDED_LISTEN_MARK "Listening for client connections on "
/* With a WebSocket listener, an earlier line: "... websocket clients on ws://127.0.0.1:8080". */
#define EMBEDDED_WEBSOCKET_MARK "Listening for websocket clients on "
/* The config nats-server reads at start, in the state folder. */
#define EMBEDDED_CONFIG_NAME "nats-server.conf"
#define EMBEDDED_WHY_MAX 512

/* What the client user may do: send eddi its requests and read the
 * answers, nothing that would make it an instance (serve eddi.cmd, read
 * others' stream updates, announce sessions, answer a session sync). */
static const char embedded__users_format[] =
    "    {user: \"" EMBEDDED_INSTANCE_USER "\", password: \"%s\"}\n"
    "    {user: \"" EMBEDDED_CLIENT_USER "\", password: \"%s\", permissions: {\n"
    "      publish: {allow: [\"" EDDI_LINK_CMD_SUBJECT "\", \"eddi.*.cmd\", \"" MIZUKI_CONNECT_SUBJECT
    "\", \"" MIZUKI_UPDATE_SUBJECT "\", \"$SRV.>\"]}\n"
    "      subscribe: {allow: [\"_INBOX.>\", \"" MIZUKI_OPEN_SUBJECT "\"]}\n"
    "    }}\n";

/* The browsers' door: loopback, a free port, only the page's origin. TLS
 * is not needed on loopback (doc/web.org says how to put it in front). */
static const char embedded__websocket_format[] =
    "websocket {\n"
    "  listen: \"127.0.0.1:-1\"\n"
    "  no_tls: true\n"
    "  allowed_origins: [\"%s\"]\n"
    "}\n";

/* A viewer subscribes to what eddi shows and to its own inbox, and may
 * publish nothing; an editor may also publish its own commands. */
static const char embedded__viewer_format[] =
    "    {user: \"%s\", password: \"%s\", permissions: {\n"
    "      publish: {deny: [\">\"]}\n"
    "      subscribe: {allow: [\"" EMBEDDED_WATCH_SUBJECTS "\", \"" EDDI_LINK_IDENTITY_INBOX_PREFIX
    "%s.>\"]}\n"
    "    }}\n";
static const char embedded__editor_format[] =
    "    {user: \"%s\", password: \"%s\", permissions: {\n"
    "      publish: {allow: [\"" EDDI_LINK_IDENTITY_PREFIX "%s.cmd\", \"" EDDI_LINK_IDENTITY_PREFIX
    "%s.*.cmd\"]}\n"
    "      subscribe: {allow: [\"" EMBEDDED_WATCH_SUBJECTS "\", \"" EDDI_LINK_IDENTITY_INBOX_PREFIX
    "%s.>\"]}\n"
    "    }}\n";

static int64_t embedded__now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void embedded__exec_child(const char *program, const char *config, int log_fd,
                                 pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(EXIT_FAILURE); /* the parent died before prctl */
  dup2(log_fd, STDERR_FILENO);
  close(log_fd);
  int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) {
    dup2(null_fd, STDIN_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    if (null_fd > STDERR_FILENO) close(null_fd);
  }
  /* The parent blocks signals for sigwait; the child must not inherit that. */
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execlp(program, program, "-a", "127.0.0.1", "-p", "-1", "-c", config, (char *)NULL);
  _exit(127);
}

/* Read the child's log until the listen line; returns SERVER_OK with url set. */
static int embedded__wait_ready(EmbeddedNats *self) {
  char line[EMBEDDED_LOG_LINE_MAX];
  size_t used = 0;
  int64_t deadline = embedded__now_ms() + EMBEDDED_START_TIMEOUT_MS;
  for (;;) {
    int64_t left = deadline - embedded__now_ms();
    if (left <= 0) {
      log_report(LOG_ERROR, "embedded", "nats-server did not listen within %d ms",
                 EMBEDDED_START_TIMEOUT_MS);
      return SERVER_EIO;
    }
    struct pollfd waiting = {.fd = self->log_fd, .events = POLLIN};
    int ready = poll(&waiting, 1, (int)left);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    ssize_t n = read(self->log_fd, line + used, sizeof line - 1 - used);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      log_report(LOG_ERROR, "embedded", "nats-server exited before listening");
      return SERVER_EIO;
    }
    used += (size_t)n;
    line[used] = '\0';
    char *end;
    while ((end = strchr(line, '\n'))) {
      *end = '\0';
      char *websocket = strstr(line, EMBEDDED_WEBSOCKET_MARK);
      if (websocket)
        snprintf(self->websocket_url, sizeof self->websocket_url, "%s",
                 websocket + strlen(EMBEDDED_WEBSOCKET_MARK));
      char *mark = strstr(line, EMBEDDED_LISTEN_MARK);
      if (mark) {
        const char *address = mark + strlen(EMBEDDED_LISTEN_MARK);
        const char *colon = strrchr(address, ':');
        int port = colon ? atoi(colon + 1) : 0;
        if (port > 0) {
          snprintf(self->url, sizeof self->url, "nats://127.0.0.1:%d", port);
          return SERVER_OK;
        }
      }
      size_t rest = used - (size_t)(end + 1 - line);
      memmove(line, end + 1, rest + 1);
      used = rest;
    }
    if (used == sizeof line - 1) used = 0; /* an overlong line: not ours */
  }
}

/* Forward the child's later log lines to our stderr, prefixed, so that its
 * pipe never fills and its complaints are seen. */
static void *embedded__forward_log(void *closure) {
  EmbeddedNats *self = closure;
  char chunk[EMBEDDED_LOG_LINE_MAX];
  ssize_t n;
  while ((n = read(self->log_fd, chunk, sizeof chunk)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    ssize_t unused = write(STDERR_FILENO, chunk, (size_t)n);
    (void)unused;
  }
  return NULL;
}

/* A random password, in hex. */
static int embedded__password(char out[EMBEDDED_PASSWORD_MAX]) {
  unsigned char bytes[EMBEDDED_PASSWORD_BYTES];
  if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes) {
    log_report(LOG_ERROR, "embedded", "no random bytes for a password: %s", strerror(errno));
    return SERVER_EIO;
  }
  for (size_t i = 0; i < sizeof bytes; i++) snprintf(out + 2 * i, 3, "%02x", bytes[i]);
  return SERVER_OK;
}

/* The web users, each with a password of its own. */
static int embedded__web_users(EmbeddedNats *self, const EmbeddedWeb *web) {
  size_t count = web->editor_count + web->viewer_count;
  self->web_users = calloc(count ? count : 1, sizeof *self->web_users);
  if (!self->web_users) return SERVER_ENOMEM;
  for (size_t i = 0; i < count; i++) {
    EmbeddedWebUser *user = &self->web_users[i];
    bool editor = i < web->editor_count;
    const char *name = editor ? web->editors[i] : web->viewers[i - web->editor_count];
    snprintf(user->name, sizeof user->name, "%s", name);
    user->editor = editor;
    self->web_user_count = i + 1;
    if (embedded__password(user->password) != SERVER_OK) return SERVER_EIO;
  }
  return SERVER_OK;
}

/* The config's text: a new string the caller frees, or NULL. */
static char *embedded__config_text(const EmbeddedNats *self, const EmbeddedWeb *web,
                                   size_t *len) {
  char *text = NULL;
  FILE *out = open_memstream(&text, len);
  if (!out) return NULL;
  fprintf(out, "# eddi-server's embedded nats-server; removed once read.\n");
  if (web) fprintf(out, embedded__websocket_format, web->origin);
  fprintf(out, "authorization {\n  users = [\n");
  fprintf(out, embedded__users_format, self->instance_password, self->client_password);
  for (size_t i = 0; i < self->web_user_count; i++) {
    const EmbeddedWebUser *user = &self->web_users[i];
    if (user->editor)
      fprintf(out, embedded__editor_format, user->name, user->password, user->name, user->name,
              user->name);
    else
      fprintf(out, embedded__viewer_format, user->name, user->password, user->name);
  }
  fprintf(out, "  ]\n}\n");
  if (fclose(out) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* The users' config, written where only we may read it. */
static int embedded__write_config(EmbeddedNats *self, const char *path, const EmbeddedWeb *web) {
  char why[EMBEDDED_WHY_MAX] = "(out of memory)";
  int status = embedded__password(self->instance_password);
  if (status == SERVER_OK) status = embedded__password(self->client_password);
  if (status == SERVER_OK && web) status = embedded__web_users(self, web);
  if (status != SERVER_OK) return status;
  size_t len = 0;
  char *config = embedded__config_text(self, web, &len);
  if (!config || eddi_link_secret_file_write(path, config, len, why, sizeof why) != 0) {
    log_report(LOG_ERROR, "embedded", "cannot write the nats-server config %s", why);
    free(config);
    return SERVER_EIO;
  }
  free(config);
  return SERVER_OK;
}

/* A web user's credentials, naming the WebSocket URL, for the person to
 * type into the page. */
static int embedded__write_web_credentials(EmbeddedNats *self, const char *state_dir) {
  for (size_t i = 0; i < self->web_user_count; i++) {
    EmbeddedWebUser *user = &self->web_users[i];
    snprintf(user->credentials, sizeof user->credentials, "%s/" EMBEDDED_WEB_CREDENTIALS_PREFIX
             "%s.json", state_dir, user->name);
    EddiLinkCredentials credentials = {.url = self->websocket_url,
                                       .user = user->name,
                                       .password = user->password,
                                       .identity = "subject"};
    char why[EMBEDDED_WHY_MAX];
    if (eddi_link_credentials_write(user->credentials, &credentials, why, sizeof why) != 0) {
      log_report(LOG_ERROR, "embedded", "cannot write credentials %s", why);
      user->credentials[0] = '\0';
      return SERVER_EIO;
    }
  }
  return SERVER_OK;
}

/* Each user's credentials file, naming the URL they open. */
static int embedded__write_credentials(EmbeddedNats *self, const char *state_dir) {
  struct {
    char *path;
    const char *name, *user, *password;
  } files[] = {
      {self->client_credentials, EDDI_LINK_CLIENT_CREDENTIALS, EMBEDDED_CLIENT_USER,
       self->client_password},
      {self->instance_credentials, EDDI_LINK_INSTANCE_CREDENTIALS, EMBEDDED_INSTANCE_USER,
       self->instance_password},
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(files[i].path, EMBEDDED_PATH_MAX, "%s/%s", state_dir, files[i].name);
    EddiLinkCredentials credentials = {.url = self->url,
                                       .user = (char *)files[i].user,
                                       .password = (char *)files[i].password};
    char why[EMBEDDED_WHY_MAX];
    if (eddi_link_credentials_write(files[i].path, &credentials, why, sizeof why) != 0) {
      log_report(LOG_ERROR, "embedded", "cannot write credentials %s", why);
      files[i].path[0] = '\0';
      return SERVER_EIO;
    }
  }
  return SERVER_OK;
}

int embedded_nats_start(EmbeddedNats *self, const char *program, const char *state_dir,
                        const EmbeddedWeb *web) {
  memset(self, 0, sizeof *self);
  self->pid = -1;
  self->log_fd = -1;
  if (!program) program = EMBEDDED_DEFAULT_PROGRAM;
  char config[EMBEDDED_PATH_MAX];
  snprintf(config, sizeof config, "%s/%s", state_dir, EMBEDDED_CONFIG_NAME);
  if (embedded__write_config(self, config, web) != SERVER_OK) {
    embedded_nats_stop(self);
    return SERVER_EIO;
  }
  int pipe_fds[2];
  /* Close-on-exec on the read end: only the child's stderr keeps the write
   * end open once it has exec'd. No other thread runs yet, so no race. */
  if (pipe(pipe_fds) != 0 || fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC) != 0) {
    log_report(LOG_ERROR, "embedded", "pipe: %s", strerror(errno));
    unlink(config);
    embedded_nats_stop(self);
    return SERVER_EIO;
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    log_report(LOG_ERROR, "embedded", "fork: %s", strerror(errno));
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    unlink(config);
    embedded_nats_stop(self);
    return SERVER_EIO;
  }
  if (pid == 0) {
    close(pipe_fds[0]);
    embedded__exec_child(program, config, pipe_fds[1], parent);
  }
  close(pipe_fds[1]);
  self->pid = pid;
  self->log_fd = pipe_fds[0];
  int status = embedded__wait_ready(self);
  /* nats-server has read its config once it listens (or never will). */
  unlink(config);
  if (status == SERVER_OK && web && !self->websocket_url[0]) {
    log_report(LOG_ERROR, "embedded", "nats-server did not say where its WebSocket listens");
    status = SERVER_EIO;
  }
  if (status == SERVER_OK) status = embedded__write_credentials(self, state_dir);
  if (status == SERVER_OK) status = embedded__write_web_credentials(self, state_dir);
  if (status != SERVER_OK) {
    embedded_nats_stop(self);
    return status;
  }
  if (pthread_create(&self->log_thread, NULL, embedded__forward_log, self) == 0)
    self->log_thread_running = true;
  return SERVER_OK;
}

bool embedded_nats_reap(EmbeddedNats *self) {
  if (self->pid <= 0) return false;
  int status;
  if (waitpid(self->pid, &status, WNOHANG) != self->pid) return false;
  log_report(LOG_ERROR, "embedded", "nats-server exited (%s %d)",
             WIFEXITED(status) ? "status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  self->pid = -1;
  return true;
}

/* Remove a credentials file unless another server has put its own there
 * since (two servers on one workspace): ours holds our password. */
static void embedded__remove_if_ours(char *path, const char *password) {
  if (!path[0]) return;
  EddiLinkCredentials found;
  char why[EMBEDDED_WHY_MAX];
  if (eddi_link_credentials_read(path, &found, why, sizeof why) == 0) {
    if (found.password && strcmp(found.password, password) == 0) unlink(path);
    eddi_link_credentials_free(&found);
  }
  path[0] = '\0';
}

void embedded_nats_stop(EmbeddedNats *self) {
  embedded__remove_if_ours(self->client_credentials, self->client_password);
  embedded__remove_if_ours(self->instance_credentials, self->instance_password);
  for (size_t i = 0; i < self->web_user_count; i++)
    embedded__remove_if_ours(self->web_users[i].credentials, self->web_users[i].password);
  free(self->web_users);
  self->web_users = NULL;
  self->web_user_count = 0;
  if (self->pid > 0) {
    kill(self->pid, SIGTERM);
    int64_t deadline = embedded__now_ms() + EMBEDDED_STOP_GRACE_MS;
    int status;
    while (waitpid(self->pid, &status, WNOHANG) == 0) {
      if (embedded__now_ms() > deadline) {
        kill(self->pid, SIGKILL);
        waitpid(self->pid, &status, 0);
        break;
      }
      usleep(EMBEDDED_POLL_STEP_MS * 1000);
    }
    self->pid = -1;
  }
  /* The child is gone, so its end of the pipe is closed: the reader ends. */
  if (self->log_thread_running) pthread_join(self->log_thread, NULL);
  self->log_thread_running = false;
  if (self->log_fd >= 0) close(self->log_fd);
  self->log_fd = -1;
}
