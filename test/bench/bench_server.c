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

/* ------------------------------------------------------------- journal */

/* What the journal costs on a round trip: the same requests against an
 * instance with the journal ("bench") and one with --no-journal
 * ("bench_nj") over one workspace copy each, in alternating blocks so
 * that both see the same machine load. */
#define BENCH_JOURNAL_HUNKS 10
#define BENCH_JOURNAL_PATCH_MAX 4096

/* A Patch of the sender's file, ten hunks, from state `from` to the other
 * one (lines "a<i>" <-> "b<i>"), as a JSON body. */
static void bench_journal_patch(char *body, size_t size, const char *sender, int from) {
  char patch[BENCH_JOURNAL_PATCH_MAX] = "";
  size_t used = 0;
  used += (size_t)snprintf(patch + used, sizeof patch - used,
                           "Patch\\n*** Begin Patch\\n*** Update File: %s.txt\\n", sender);
  for (int i = 0; i < BENCH_JOURNAL_HUNKS; i++)
    used += (size_t)snprintf(patch + used, sizeof patch - used, "@@\\n-%c%d\\n+%c%d\\n",
                             from ? 'b' : 'a', i, from ? 'a' : 'b', i);
  snprintf(patch + used, sizeof patch - used, "*** End Patch");
  snprintf(body, size, "{\"sender\":\"%s\",\"text\":\"%s\"}", sender, patch);
}

/* The file a Patch round trip edits: ten "a<i>" lines between fillers. */
static void bench_journal_setup(natsConnection *nc, const char *subject, const char *sender) {
  char body[BENCH_LINE_MAX], lines[BENCH_LINE_MAX] = "", reply[BENCH_LINE_MAX];
  for (int i = 0; i < BENCH_JOURNAL_HUNKS; i++) {
    char line[32];
    snprintf(line, sizeof line, "a%d\\nfill\\nfill\\n", i);
    strcat(lines, line);
  }
  snprintf(body, sizeof body,
           "{\"sender\":\"%s\",\"text\":\"Start %s\\nOpen Create %s.txt\\nInsert Block \\\"%s\\\"\\nSave\\nClose\\nOpen Create %s.ins\"}",
           sender, sender, sender, lines, sender);
  bench_request(nc, subject, body, reply, sizeof reply);
}

/* The p50 of a one-line Insert and of a 10-hunk Patch (ins[k], pat[k]) on
 * two instances (subjects[k], as senders[k]) in alternating blocks. */
static void bench_journal_pair(natsConnection *nc, const char *const subjects[2],
                               const char *const senders[2], size_t rounds, double ins[2],
                               double pat[2]) {
  int64_t *insert[2], *patch[2];
  for (int k = 0; k < 2; k++) {
    insert[k] = calloc(rounds, sizeof **insert);
    patch[k] = calloc(rounds, sizeof **patch);
  }
  char body[BENCH_JOURNAL_PATCH_MAX + 128];
  for (size_t done = 0; done < rounds; done += BENCH_BLOCK) {
    for (int k = 0; k < 2; k++) {
      snprintf(body, sizeof body, "{\"sender\":\"%s\",\"text\":\"Insert Line \\\"x\\\"\"}",
               senders[k]);
      for (size_t i = 0; i < BENCH_BLOCK && done + i < rounds; i++)
        insert[k][done + i] = bench_request(nc, subjects[k], body, NULL, 0);
    }
    for (int k = 0; k < 2; k++)
      for (size_t i = 0; i < BENCH_BLOCK && done + i < rounds; i++) {
        bench_journal_patch(body, sizeof body, senders[k], (int)((done + i) % 2));
        patch[k][done + i] = bench_request(nc, subjects[k], body, NULL, 0);
      }
  }
  for (int k = 0; k < 2; k++) {
    ins[k] = bench_percentile_us(insert[k], rounds, 0.50);
    pat[k] = bench_percentile_us(patch[k], rounds, 0.50);
    free(insert[k]), free(patch[k]);
  }
}

/* The journal against none; then the journal mirrored to a JetStream
 * bucket against none, in a run of its own, so that JetStream's work
 * after a --kv block does not fall into the journal's blocks. */
static void bench_journal_costs(natsConnection *nc, size_t rounds) {
  const char *const journal[2] = {"eddi.bench.cmd", "eddi.bench_nj.cmd"};
  const char *const journal_senders[2] = {"journaled", "memory"};
  const char *const mirrored[2] = {"eddi.bench_kv.cmd", "eddi.bench_nj.cmd"};
  const char *const mirrored_senders[2] = {"mirrored", "memory2"};
  for (int k = 0; k < 2; k++) bench_journal_setup(nc, journal[k], journal_senders[k]);
  for (int k = 0; k < 2; k++) bench_journal_setup(nc, mirrored[k], mirrored_senders[k]);
  double ins[2], pat[2];
  bench_journal_pair(nc, journal, journal_senders, rounds, ins, pat);
  printf("journal cost, %zu requests each (p50 us)  journal  --no-journal  ratio\n", rounds);
  printf("  one-line Insert (unsaved)          %8.1f  %12.1f  %5.2f\n", ins[0], ins[1], ins[0] / ins[1]);
  printf("  10-hunk Patch of one file (saved)  %8.1f  %12.1f  %5.2f\n", pat[0], pat[1], pat[0] / pat[1]);
  bench_journal_pair(nc, mirrored, mirrored_senders, rounds, ins, pat);
  printf("with --kv (a JetStream put before each reply) (p50 us)  --kv  --no-journal  ratio\n");
  printf("  one-line Insert (unsaved)          %8.1f  %12.1f  %5.2f\n", ins[0], ins[1], ins[0] / ins[1]);
  printf("  10-hunk Patch of one file (saved)  %8.1f  %12.1f  %5.2f\n", pat[0], pat[1], pat[0] / pat[1]);
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
  /* JetStream for the --kv instance's bucket, in a folder of the bench's. */
  char store[] = "/tmp/eddi-bench-js-XXXXXX";
  if (!mkdtemp(store)) return EXIT_FAILURE;
  char *nats_argv[] = {"nats-server", "-a", "127.0.0.1", "-p", "-1", "-js", "-sd", store, NULL};
  pid_t nats_pid = bench_spawn(nats_argv, &nats_fd);
  if (bench_wait_line(nats_fd, "Listening for client connections on ", line, sizeof line))
    return EXIT_FAILURE;
  char *listen = strstr(line, "Listening for client connections on ");
  listen[strcspn(listen, "\n")] = '\0';
  const char *port = strrchr(listen, ':');
  snprintf(url, sizeof url, "nats://127.0.0.1:%d", atoi(port + 1));
  bench_drain_in_background(nats_fd);

  /* The journal's state in a folder of the bench's own, not the user's. */
  char state[] = "/tmp/eddi-bench-state-XXXXXX";
  if (!mkdtemp(state)) return EXIT_FAILURE;
  char *eddi_argv[] = {argv[1], "--nats", url, "--root", workspace, "--name", "bench", "--quiet",
                       "--state", state, NULL};
  pid_t eddi_pid = bench_spawn(eddi_argv, &eddi_fd);
  if (bench_wait_line(eddi_fd, "serving eddi.cmd", line, sizeof line)) return EXIT_FAILURE;
  bench_drain_in_background(eddi_fd);
  /* The same server without the journal, over its own workspace. */
  char workspace_nj[] = "/tmp/eddi-bench-XXXXXX";
  if (!mkdtemp(workspace_nj)) return EXIT_FAILURE;
  char *eddi_nj_argv[] = {argv[1], "--nats", url, "--root", workspace_nj, "--name", "bench_nj",
                          "--quiet", "--no-journal", NULL};
  int eddi_nj_fd;
  pid_t eddi_nj_pid = bench_spawn(eddi_nj_argv, &eddi_nj_fd);
  if (bench_wait_line(eddi_nj_fd, "serving eddi.cmd", line, sizeof line)) return EXIT_FAILURE;
  bench_drain_in_background(eddi_nj_fd);
  /* And one whose journal is mirrored to a JetStream key-value bucket. */
  char workspace_kv[] = "/tmp/eddi-bench-XXXXXX", state_kv[] = "/tmp/eddi-bench-state-XXXXXX";
  if (!mkdtemp(workspace_kv) || !mkdtemp(state_kv)) return EXIT_FAILURE;
  char *eddi_kv_argv[] = {argv[1], "--nats", url, "--root", workspace_kv, "--name", "bench_kv",
                          "--quiet", "--state", state_kv, "--kv", "eddi-bench-sessions", NULL};
  int eddi_kv_fd;
  pid_t eddi_kv_pid = bench_spawn(eddi_kv_argv, &eddi_kv_fd);
  if (bench_wait_line(eddi_kv_fd, "serving eddi.cmd", line, sizeof line)) return EXIT_FAILURE;
  bench_drain_in_background(eddi_kv_fd);

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

  bench_journal_costs(nc, half);

  free(echo);
  free(eddi);
  kill(eddi_nj_pid, SIGTERM);
  waitpid(eddi_nj_pid, NULL, 0);
  kill(eddi_kv_pid, SIGTERM);
  waitpid(eddi_kv_pid, NULL, 0);
  char remove_nj[sizeof workspace_nj + sizeof state + sizeof workspace_kv + sizeof state_kv +
                 sizeof store + 16];
  snprintf(remove_nj, sizeof remove_nj, "rm -rf %s %s %s %s %s", workspace_nj, state, workspace_kv,
           state_kv, store);
  if (system(remove_nj) != 0) fprintf(stderr, "bench_server: could not remove %s\n", workspace_nj);
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
