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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "server_error.h"

#define EMBEDDED_DEFAULT_PROGRAM "nats-server"
/* nats-server is ready in ~35 ms; allow for a slow machine. */
#define EMBEDDED_START_TIMEOUT_MS 10000
#define EMBEDDED_STOP_GRACE_MS 5000
#define EMBEDDED_POLL_STEP_MS 10
#define EMBEDDED_LOG_LINE_MAX 1024
/* Its log line: "... Listening for client connections on 127.0.0.1:4222". */
#define EMBEDDED_LISTEN_MARK "Listening for client connections on "

static int64_t embedded__now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void embedded__exec_child(const char *program, int log_fd, pid_t parent) {
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
  execlp(program, program, "-a", "127.0.0.1", "-p", "-1", (char *)NULL);
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

int embedded_nats_start(EmbeddedNats *self, const char *program) {
  memset(self, 0, sizeof *self);
  self->pid = -1;
  self->log_fd = -1;
  if (!program) program = EMBEDDED_DEFAULT_PROGRAM;
  int pipe_fds[2];
  /* Close-on-exec on the read end: only the child's stderr keeps the write
   * end open once it has exec'd. No other thread runs yet, so no race. */
  if (pipe(pipe_fds) != 0 || fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC) != 0) {
    log_report(LOG_ERROR, "embedded", "pipe: %s", strerror(errno));
    return SERVER_EIO;
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    log_report(LOG_ERROR, "embedded", "fork: %s", strerror(errno));
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return SERVER_EIO;
  }
  if (pid == 0) {
    close(pipe_fds[0]);
    embedded__exec_child(program, pipe_fds[1], parent);
  }
  close(pipe_fds[1]);
  self->pid = pid;
  self->log_fd = pipe_fds[0];
  int status = embedded__wait_ready(self);
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

void embedded_nats_stop(EmbeddedNats *self) {
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
