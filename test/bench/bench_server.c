/* bench_server.c - eddi-server's NATS round trip against a bare nats.c echo.
 *
 *   bench_server EDDI_SERVER [ROUNDS] [SECONDS]
 *
 * Starts a private nats-server, an echo responder in this process (its own
 * connection, SendAsap: the floor any responder can reach) and eddi-server
 * on the same nats-server, then measures side by side in one run:
 * - latency: ROUNDS sequential requests `Goto 10:0`, alternating echo and
 *   eddi in blocks so that drift hits both alike; p50 and p99;
 * - throughput: CLIENTS threads, each with its own connection and its own
 *   eddi session, requesting for SECONDS against each responder.
 * Prints the figures and the ratios eddi / echo. Not a test: no pass/fail.
 */
#include <nats/nats.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_DEFAULT_ROUNDS 4000
#define BENCH_DEFAULT_SECONDS 3
#define BENCH_BLOCK 100
#define BENCH_CLIENTS 32
#define BENCH_WARMUP 200
#define BENCH_TIMEOUT_MS 5000
#define BENCH_LINE_MAX 1024
#define BENCH_URL_MAX 64
#define BENCH_ECHO_SUBJECT "bench.echo"
#define BENCH_EDDI_SUBJECT "eddi.bench.cmd"
#define BENCH_FILE_LINES 20

static int64_t bench_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static void bench_die(const char *what, natsStatus status) {
  fprintf(stderr, "bench_server: %s: %s\n", what, natsStatus_GetText(status));
  exit(EXIT_FAILURE);
}

/* ----------------------------------------------------------- processes */

/* Start argv with stderr on a pipe; return the pipe's read end. */
static pid_t bench_spawn(char *const argv[], int *stderr_fd) {
  int fds[2];
  if (pipe(fds) != 0) exit(EXIT_FAILURE);
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(fds[1]);
  *stderr_fd = fds[0];
  return pid;
}

/* Read the child's stderr until a line contains mark; copy that line. */
static int bench_wait_line(int fd, const char *mark, char *line, size_t size) {
  size_t used = 0;
  for (;;) {
    ssize_t n = read(fd, line + used, size - 1 - used);
    if (n <= 0) return -1;
    used += (size_t)n;
    line[used] = '\0';
    char *hit = strstr(line, mark);
    if (hit && strchr(hit, '\n')) return 0;
    char *last = strrchr(line, '\n');
    if (last && !hit) {
      used = strlen(last + 1);
      memmove(line, last + 1, used + 1);
    }
    if (used == size - 1) used = 0;
  }
}

/* Keep reading a child's stderr so that it never blocks on a full pipe. */
static void *bench_drain(void *closure) {
  int fd = (int)(intptr_t)closure;
  char sink[BENCH_LINE_MAX];
  while (read(fd, sink, sizeof sink) > 0) {
  }
  return NULL;
}

static void bench_drain_in_background(int fd) {
  pthread_t thread;
  pthread_create(&thread, NULL, bench_drain, (void *)(intptr_t)fd);
  pthread_detach(thread);
}

/* ---------------------------------------------------------------- echo */

static void bench_echo(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure) {
  const char *reply = natsMsg_GetReply(msg);
  if (reply) natsConnection_Publish(nc, reply, natsMsg_GetData(msg), natsMsg_GetDataLength(msg));
  natsMsg_Destroy(msg);
}

static natsConnection *bench_connect(const char *url, bool send_asap) {
  natsOptions *opts = NULL;
  natsConnection *nc = NULL;
  natsStatus s = natsOptions_Create(&opts);
  if (s == NATS_OK) s = natsOptions_SetURL(opts, url);
  if (s == NATS_OK) s = natsOptions_SetSendAsap(opts, send_asap);
  if (s == NATS_OK) s = natsConnection_Connect(&nc, opts);
  natsOptions_Destroy(opts);
  if (s != NATS_OK) bench_die("connect", s);
  return nc;
}

static int64_t bench_request(natsConnection *nc, const char *subject, const char *body,
                             char *reply_out, size_t reply_size) {
  natsMsg *reply = NULL;
  int64_t start = bench_now_ns();
  natsStatus s = natsConnection_RequestString(&reply, nc, subject, body, BENCH_TIMEOUT_MS);
  int64_t took = bench_now_ns() - start;
  if (s != NATS_OK) bench_die(subject, s);
  if (reply_out)
    snprintf(reply_out, reply_size, "%.*s", natsMsg_GetDataLength(reply), natsMsg_GetData(reply));
  natsMsg_Destroy(reply);
  return took;
}

/* ------------------------------------------------------------- figures */

static int bench_compare(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static double bench_percentile_us(int64_t *samples, size_t n, double p) {
  qsort(samples, n, sizeof *samples, bench_compare);
  size_t at = (size_t)(p * (double)(n - 1));
  return (double)samples[at] / 1000.0;
}

/* --------------------------------------------------------- throughput */

typedef struct {
  const char *url;
  const char *subject;
  char body[BENCH_LINE_MAX];
  int64_t until_ns;
  long done;
} BenchClient;

static void *bench_client(void *closure) {
  BenchClient *client = closure;
  natsConnection *nc = bench_connect(client->url, true);
  while (bench_now_ns() < client->until_ns) {
    bench_request(nc, client->subject, client->body, NULL, 0);
    client->done++;
  }
  natsConnection_Destroy(nc);
  return NULL;
}

static double bench_throughput(const char *url, const char *subject, int seconds) {
  BenchClient clients[BENCH_CLIENTS];
  pthread_t threads[BENCH_CLIENTS];
  int64_t start = bench_now_ns(), until = start + (int64_t)seconds * 1000000000;
  for (int i = 0; i < BENCH_CLIENTS; i++) {
    clients[i] = (BenchClient){.url = url, .subject = subject, .until_ns = until};
    snprintf(clients[i].body, sizeof clients[i].body,
             "{\"sender\":\"client%d\",\"text\":\"Goto 10:0\"}", i);
    pthread_create(&threads[i], NULL, bench_client, &clients[i]);
  }
  long total = 0;
  for (int i = 0; i < BENCH_CLIENTS; i++) {
    pthread_join(threads[i], NULL);
    total += clients[i].done;
  }
  return (double)total / ((double)(bench_now_ns() - start) / 1e9);
}

/* ---------------------------------------------------------------- main */

static void bench_session(natsConnection *nc, const char *sender, char *reply, size_t size) {
  char body[BENCH_LINE_MAX], lines[BENCH_LINE_MAX] = "";
  for (int i = 0; i < BENCH_FILE_LINES; i++) strcat(lines, "line\\\\n");
  snprintf(body, sizeof body,
           "{\"sender\":\"%s\",\"text\":\"Start %s\\nOpen Create %s.txt\\nInsert Block \\\"%s\\\"\"}",
           sender, sender, sender, lines);
  bench_request(nc, BENCH_EDDI_SUBJECT, body, reply, size);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_server EDDI_SERVER [ROUNDS] [SECONDS]\n");
    return EXIT_FAILURE;
  }
  int rounds = argc > 2 ? atoi(argv[2]) : BENCH_DEFAULT_ROUNDS;
  int seconds = argc > 3 ? atoi(argv[3]) : BENCH_DEFAULT_SECONDS;
  if (rounds < BENCH_BLOCK) rounds = BENCH_BLOCK;
  rounds -= rounds % (2 * BENCH_BLOCK);
  if (rounds == 0) rounds = 2 * BENCH_BLOCK;
  if (seconds < 1) seconds = 1;

  char line[BENCH_LINE_MAX], url[BENCH_URL_MAX], workspace[] = "/tmp/eddi-bench-XXXXXX";
  if (!mkdtemp(workspace)) return EXIT_FAILURE;
  int nats_fd, eddi_fd;
  char *nats_argv[] = {"nats-server", "-a", "127.0.0.1", "-p", "-1", NULL};
  pid_t nats_pid = bench_spawn(nats_argv, &nats_fd);
  if (bench_wait_line(nats_fd, "Listening for client connections on ", line, sizeof line))
    return EXIT_FAILURE;
  char *listen = strstr(line, "Listening for client connections on ");
  listen[strcspn(listen, "\n")] = '\0';
  const char *port = strrchr(listen, ':');
  snprintf(url, sizeof url, "nats://127.0.0.1:%d", atoi(port + 1));
  bench_drain_in_background(nats_fd);

  char *eddi_argv[] = {argv[1], "--nats", url, "--root", workspace, "--name", "bench", "--quiet",
                       NULL};
  pid_t eddi_pid = bench_spawn(eddi_argv, &eddi_fd);
  if (bench_wait_line(eddi_fd, "serving eddi.cmd", line, sizeof line)) return EXIT_FAILURE;
  bench_drain_in_background(eddi_fd);

  natsConnection *echo_nc = bench_connect(url, true);
  natsSubscription *echo_sub = NULL;
  natsStatus s = natsConnection_Subscribe(&echo_sub, echo_nc, BENCH_ECHO_SUBJECT, bench_echo, NULL);
  if (s == NATS_OK) s = natsConnection_Flush(echo_nc);
  if (s != NATS_OK) bench_die("echo subscribe", s);

  natsConnection *nc = bench_connect(url, true);
  char reply[BENCH_LINE_MAX];
  bench_session(nc, "bench", reply, sizeof reply);
  for (int i = 0; i < BENCH_CLIENTS; i++) {
    char sender[32];
    snprintf(sender, sizeof sender, "client%d", i);
    bench_session(nc, sender, reply, sizeof reply);
  }
  const char *command = "{\"sender\":\"bench\",\"text\":\"Goto 10:0\"}";
  bench_request(nc, BENCH_EDDI_SUBJECT, command, reply, sizeof reply);
  printf("eddi reply to Goto 10:0: %s\n", reply);

  for (int i = 0; i < BENCH_WARMUP; i++) {
    bench_request(nc, BENCH_ECHO_SUBJECT, command, NULL, 0);
    bench_request(nc, BENCH_EDDI_SUBJECT, command, NULL, 0);
  }
  size_t half = (size_t)rounds / 2;
  int64_t *echo = calloc(half, sizeof *echo), *eddi = calloc(half, sizeof *eddi);
  for (size_t done = 0; done < half; done += BENCH_BLOCK) {
    for (size_t i = 0; i < BENCH_BLOCK; i++)
      echo[done + i] = bench_request(nc, BENCH_ECHO_SUBJECT, command, NULL, 0);
    for (size_t i = 0; i < BENCH_BLOCK; i++)
      eddi[done + i] = bench_request(nc, BENCH_EDDI_SUBJECT, command, NULL, 0);
  }
  double echo_p50 = bench_percentile_us(echo, half, 0.50), echo_p99 = bench_percentile_us(echo, half, 0.99);
  double eddi_p50 = bench_percentile_us(eddi, half, 0.50), eddi_p99 = bench_percentile_us(eddi, half, 0.99);

  double echo_rate = bench_throughput(url, BENCH_ECHO_SUBJECT, seconds);
  double eddi_rate = bench_throughput(url, BENCH_EDDI_SUBJECT, seconds);

  printf("round trip, %zu requests each (us)  p50      p99\n", half);
  printf("  bare nats.c echo (SendAsap)      %7.1f  %7.1f\n", echo_p50, echo_p99);
  printf("  eddi-server Goto 10:0            %7.1f  %7.1f\n", eddi_p50, eddi_p99);
  printf("  ratio eddi / echo                %7.2f  %7.2f\n", eddi_p50 / echo_p50, eddi_p99 / echo_p99);
  printf("throughput, %d clients, %d s each (requests/s)\n", BENCH_CLIENTS, seconds);
  printf("  bare nats.c echo                 %9.0f\n", echo_rate);
  printf("  eddi-server                      %9.0f\n", eddi_rate);
  printf("  ratio eddi / echo                %9.2f\n", eddi_rate / echo_rate);

  free(echo);
  free(eddi);
  natsSubscription_Destroy(echo_sub);
  natsConnection_Destroy(echo_nc);
  natsConnection_Destroy(nc);
  kill(eddi_pid, SIGTERM);
  waitpid(eddi_pid, NULL, 0);
  kill(nats_pid, SIGTERM);
  waitpid(nats_pid, NULL, 0);
  char remove[sizeof workspace + 16];
  snprintf(remove, sizeof remove, "rm -rf %s", workspace);
  if (system(remove) != 0) fprintf(stderr, "bench_server: could not remove %s\n", workspace);
  nats_Close();
  return EXIT_SUCCESS;
}
