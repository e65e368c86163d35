/* python_run.c - see python_run.h. */
#define _GNU_SOURCE /* pipe2 */
#include "python_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "server_error.h"
#include "stdio_rpc.h"

extern char **environ;

/* Where the eddi Python package lives: $EDDI_PYTHON_DIR, else the
 * folder the build was made from (CMake's EDDI_PYTHON_DIR). */
#ifndef EDDI_PYTHON_DIR
#define EDDI_PYTHON_DIR ""
#endif

/* The runner gets the server's connection as these descriptors. */
#define PYTHON_RUN_READ_FD 3
#define PYTHON_RUN_WRITE_FD 4
/* The runner's own time past the script's, before it is stopped too. */
#define PYTHON_RUN_GRACE_SECONDS 30
/* Arguments of the runner's command line beside the script's own. */
#define PYTHON_RUN_FIXED_ARGS 20

/* The runner's words: the interpreter, eddi's CLI, then the script's. */
static char **python_run__argv(const PythonRunArgs *args, const char *package,
                               const char *server, const char *root, char *timeout) {
  size_t extra = 0;
  while (args->args && args->args[extra]) extra++;
  char **argv = calloc(PYTHON_RUN_FIXED_ARGS + extra + 1, sizeof *argv);
  if (!argv) return NULL;
  size_t n = 0;
  static char boot[] = "import sys; sys.path.insert(0, sys.argv[1]); from eddi.__main__ import "
                       "main; sys.exit(main(sys.argv[2:]))";
  argv[n++] = "python3", argv[n++] = "-I", argv[n++] = "-B", argv[n++] = "-c", argv[n++] = boot;
  argv[n++] = (char *)package;
  argv[n++] = "run", argv[n++] = "--sandbox", argv[n++] = "--attach", argv[n++] = "3,4";
  argv[n++] = "--server", argv[n++] = (char *)server;
  argv[n++] = "--timeout", argv[n++] = timeout;
  if (args->apply) argv[n++] = "--apply";
  argv[n++] = "script.py", argv[n++] = (char *)root;
  for (size_t i = 0; i < extra; i++) argv[n++] = (char *)args->args[i];
  return argv;
}

/* A private folder holding the script as script.py. */
static int python_run__script_folder(const PythonRunArgs *args, char *folder, size_t size,
                                     char *why, size_t why_size) {
  const char *tmp = getenv("TMPDIR");
  snprintf(folder, size, "%s/eddi-python-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(folder)) {
    snprintf(why, why_size, "cannot make a folder for the script: %s", strerror(errno));
    return SERVER_EIO;
  }
  char path[4096 + 16];
  snprintf(path, sizeof path, "%s/script.py", folder);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool written = fd >= 0 && write(fd, args->script, args->len) == (ssize_t)args->len;
  if (fd >= 0) close(fd);
  if (written) return SERVER_OK;
  snprintf(why, why_size, "cannot write the script: %s", strerror(errno));
  unlink(path);
  rmdir(folder);
  return SERVER_EIO;
}

static void python_run__remove_folder(const char *folder) {
  char path[4096 + 16];
  snprintf(path, sizeof path, "%s/script.py", folder);
  unlink(path);
  rmdir(folder);
}

/* One captured stream: kept up to PYTHON_RUN_OUTPUT_MAX, the rest counted. */
typedef struct {
  int fd;
  char *data;
  size_t len, dropped;
} Captured;

static void python_run__take(Captured *c) {
  char chunk[65536];
  ssize_t n = read(c->fd, chunk, sizeof chunk);
  if (n <= 0) {
    if (n == 0 || errno != EINTR) close(c->fd), c->fd = -1;
    return;
  }
  size_t room = PYTHON_RUN_OUTPUT_MAX - c->len, kept = (size_t)n < room ? (size_t)n : room;
  if (kept) {
    char *grown = realloc(c->data, c->len + kept + 1);
    if (!grown) kept = 0;
    else c->data = grown, memcpy(c->data + c->len, chunk, kept), c->len += kept;
  }
  c->dropped += (size_t)n - kept;
}

static char *python_run__text(Captured *c) {
  char note[96] = "";
  if (c->dropped) snprintf(note, sizeof note, "\n[%zu more bytes not kept]\n", c->dropped);
  size_t extra = strlen(note);
  char *text = realloc(c->data, c->len + extra + 1);
  if (!text) {
    free(c->data);
    return NULL;
  }
  memcpy(text + c->len, note, extra + 1);
  return text;
}

static long long python_run__now_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Read both streams until they end or the deadline passes (then the
 * runner's process group is killed); the runner's exit status. */
static int python_run__wait(pid_t pid, Captured *out, Captured *err, long long deadline_ms) {
  bool killed = false;
  while (out->fd >= 0 || err->fd >= 0) {
    struct pollfd fds[2] = {{out->fd, POLLIN, 0}, {err->fd, POLLIN, 0}};
    long long left = deadline_ms - python_run__now_ms();
    if (left <= 0 && !killed) {
      kill(-pid, SIGKILL);
      killed = true;
    }
    int ready = poll(fds, 2, left > 0 ? (int)(left < 1000 ? left : 1000) : 1000);
    if (ready < 0 && errno != EINTR) break;
    if (out->fd >= 0 && fds[0].revents) python_run__take(out);
    if (err->fd >= 0 && fds[1].revents) python_run__take(err);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

static void python_run__close(int *fds, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (fds[i] >= 0) close(fds[i]), fds[i] = -1;
}

/* Start the runner with the server's connection on descriptors 3 and 4
 * and its output on two pipes; the pipes' ends this side keeps. */
static int python_run__spawn(char **argv, const char *folder, int conn_read, int conn_write,
                             int out_write, int err_write, pid_t *pid) {
  /* Copies above every target first, so that no dup2 below overwrites a
   * descriptor a later one copies from. */
  int from[4] = {fcntl(out_write, F_DUPFD_CLOEXEC, 10), fcntl(err_write, F_DUPFD_CLOEXEC, 10),
                 fcntl(conn_read, F_DUPFD_CLOEXEC, 10), fcntl(conn_write, F_DUPFD_CLOEXEC, 10)};
  if (from[0] < 0 || from[1] < 0 || from[2] < 0 || from[3] < 0) {
    int failure = errno;
    python_run__close(from, 4);
    return failure;
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, from[0], 1);
  posix_spawn_file_actions_adddup2(&actions, from[1], 2);
  posix_spawn_file_actions_adddup2(&actions, from[2], PYTHON_RUN_READ_FD);
  posix_spawn_file_actions_adddup2(&actions, from[3], PYTHON_RUN_WRITE_FD);
  posix_spawn_file_actions_addchdir_np(&actions, folder);
  /* Its own process group, so that a stop reaches the sandbox too; the
   * signals the server ignores (SIGPIPE) back to their defaults. */
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawnp(pid, argv[0], &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  python_run__close(from, 4);
  return rc;
}

/* One run at a time: every run's calls are the sender sandbox's, which
 * holds one session at a time. */
static pthread_mutex_t python_run__one_at_a_time = PTHREAD_MUTEX_INITIALIZER;

static int python_run__locked(EngineHost *host, const PythonRunArgs *args,
                              PythonRunResult *result, char *why, size_t why_size);

int python_run(EngineHost *host, const PythonRunArgs *args, PythonRunResult *result, char *why,
               size_t why_size) {
  pthread_mutex_lock(&python_run__one_at_a_time);
  int status = python_run__locked(host, args, result, why, why_size);
  pthread_mutex_unlock(&python_run__one_at_a_time);
  return status;
}

static int python_run__locked(EngineHost *host, const PythonRunArgs *args,
                              PythonRunResult *result, char *why, size_t why_size) {
  memset(result, 0, sizeof *result);
  const char *package = getenv("EDDI_PYTHON_DIR");
  if (!package || !package[0]) package = EDDI_PYTHON_DIR;
  char server[4096];
  ssize_t n = readlink("/proc/self/exe", server, sizeof server - 1);
  if (!package[0] || n <= 0) {
    snprintf(why, why_size, "%s", !package[0] ? "eddi's Python package is not known to this "
                                               "server: set EDDI_PYTHON_DIR"
                                             : "cannot find this program's path");
    return SERVER_EINVAL;
  }
  server[n] = '\0';
  char folder[4096];
  int status = python_run__script_folder(args, folder, sizeof folder, why, why_size);
  if (status != SERVER_OK) return status;
  char timeout[16];
  snprintf(timeout, sizeof timeout, "%d", args->timeout_seconds);
  const char *root = host->options->root ? host->options->root : ".";
  char **argv = python_run__argv(args, package, server, root, timeout);
  /* to_server, to_runner, out, err: [read, write] each. */
  int pipes[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  bool piped = argv && pipe2(pipes, O_CLOEXEC) == 0 && pipe2(pipes + 2, O_CLOEXEC) == 0 &&
               pipe2(pipes + 4, O_CLOEXEC) == 0 && pipe2(pipes + 6, O_CLOEXEC) == 0;
  StdioRpc *connection = piped ? calloc(1, sizeof *connection) : NULL;
  FILE *requests = connection ? fdopen(pipes[0], "r") : NULL;
  if (!requests) {
    snprintf(why, why_size, "cannot make the runner's pipes: %s", strerror(errno));
    python_run__close(pipes, 8);
    free(connection), free(argv);
    python_run__remove_folder(folder);
    return SERVER_EIO;
  }
  pipes[0] = -1; /* the FILE has it */
  pid_t pid = 0;
  int spawned = stdio_rpc_start(connection, host, requests, pipes[3], NULL) == SERVER_OK
                    ? python_run__spawn(argv, folder, pipes[2], pipes[1], pipes[5], pipes[7], &pid)
                    : EIO;
  /* The runner's ends are its own now. */
  close(pipes[1]), close(pipes[2]), close(pipes[5]), close(pipes[7]);
  pipes[1] = pipes[2] = pipes[5] = pipes[7] = -1;
  Captured out = {pipes[4], NULL, 0, 0}, err = {pipes[6], NULL, 0, 0};
  if (spawned == 0) {
    long long deadline = python_run__now_ms() +
                         (long long)(args->timeout_seconds + PYTHON_RUN_GRACE_SECONDS) * 1000;
    result->status = python_run__wait(pid, &out, &err, deadline);
  } else {
    snprintf(why, why_size, "cannot start python3: %s", strerror(spawned));
    python_run__close(&out.fd, 1), python_run__close(&err.fd, 1);
  }
  /* The runner is gone: its connection's reader meets the end of input. */
  close(pipes[3]);
  stdio_rpc_join(connection);
  fclose(requests);
  /* Its requests were all answered (the runner waits for each), so the
   * connection is no one's now. */
  if (stdio_rpc_idle(connection)) free(connection);
  free(argv);
  python_run__remove_folder(folder);
  result->out = python_run__text(&out);
  result->err = python_run__text(&err);
  if (spawned != 0) {
    python_run_result_free(result);
    return SERVER_EIO;
  }
  log_report(LOG_INFO, "python", "a script ran: exit %d", result->status);
  return SERVER_OK;
}

void python_run_result_free(PythonRunResult *self) {
  free(self->out), free(self->err);
  self->out = self->err = NULL;
}
