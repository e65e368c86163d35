/* eddi_sandbox.c - the eddi-sandbox program: run a program confined
 * (core/sandbox.h), for the Python runner's untrusted scripts.
 *
 *   eddi-sandbox [--read PATH]... [--scratch DIR] [--keep FD]... [--env NAME=VALUE]...
 *                [--cpu SECONDS] [--memory BYTES] [--processes N] [--file-size BYTES]
 *                -- PROGRAM [ARG]...
 *   eddi-sandbox --check
 *
 * Exits with the program's exit status, or 128 + the signal that ended
 * it; 125 with a message on stderr when the sandbox could not be set up
 * (nothing ran) or the arguments are wrong. --check says whether this
 * kernel can confine (exit 0) or what it lacks (exit 125).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/sandbox.h"

#define SANDBOX_FAILED 125

static int usage(const char *why) {
  fprintf(stderr,
          "eddi-sandbox: %s\n"
          "usage: eddi-sandbox [--read PATH]... [--scratch DIR] [--keep FD]... "
          "[--env NAME=VALUE]... [--cpu SECONDS] [--memory BYTES] [--processes N] "
          "[--file-size BYTES] -- PROGRAM [ARG]...\n"
          "       eddi-sandbox --check\n",
          why);
  return SANDBOX_FAILED;
}

/* A whole decimal number of at most max, or -1. */
static long long number(const char *text, long long max) {
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  if (errno || end == text || *end || value < 0 || value > max) return -1;
  return value;
}

int main(int argc, char **argv) {
  EddiError err = {0};
  if (argc == 2 && strcmp(argv[1], "--check") == 0) {
    int abi = 0;
    if (eddi_sandbox_available(&abi, &err) != 0) {
      fprintf(stderr, "eddi-sandbox: %s\n", err.what);
      return SANDBOX_FAILED;
    }
    printf("Landlock ABI %d\n", abi);
    return 0;
  }
  const char **reads = calloc((size_t)argc, sizeof *reads);
  char **env = calloc((size_t)argc, sizeof *env);
  int *keep = calloc((size_t)argc, sizeof *keep);
  EddiSandboxSpec spec = {.read_paths = reads, .envp = env, .keep_fds = keep};
  size_t env_count = 0;
  int at = 1;
  for (; at < argc && strcmp(argv[at], "--") != 0; at += 2) {
    const char *option = argv[at], *value = at + 1 < argc ? argv[at + 1] : NULL;
    if (!value) return usage("an option without its value");
    long long n = 0;
    if (strcmp(option, "--read") == 0) {
      reads[spec.read_count++] = value;
    } else if (strcmp(option, "--scratch") == 0) {
      spec.scratch = value;
    } else if (strcmp(option, "--env") == 0) {
      if (!strchr(value, '=')) return usage("--env takes NAME=VALUE");
      env[env_count++] = (char *)value;
    } else if (strcmp(option, "--keep") == 0) {
      if ((n = number(value, 1 << 20)) < 3) return usage("--keep takes a descriptor above 2");
      keep[spec.keep_count++] = (int)n;
    } else if (strcmp(option, "--cpu") == 0) {
      if ((n = number(value, 1 << 20)) <= 0) return usage("--cpu takes a number of seconds");
      spec.cpu_seconds = (unsigned)n;
    } else if (strcmp(option, "--memory") == 0) {
      if ((n = number(value, (long long)1 << 40)) <= 0) return usage("--memory takes bytes");
      spec.memory_bytes = (size_t)n;
    } else if (strcmp(option, "--processes") == 0) {
      if ((n = number(value, 1 << 16)) <= 0) return usage("--processes takes a number");
      spec.processes = (unsigned)n;
    } else if (strcmp(option, "--file-size") == 0) {
      if ((n = number(value, (long long)1 << 40)) <= 0) return usage("--file-size takes bytes");
      spec.file_bytes = (size_t)n;
    } else {
      char why[128];
      snprintf(why, sizeof why, "unknown option %.64s", option);
      return usage(why);
    }
  }
  if (at + 1 >= argc) return usage("no program after --");
  spec.argv = argv + at + 1;
  int status = 0;
  int rc = eddi_sandbox_run(&spec, &status, &err);
  free(reads), free(env), free(keep);
  if (rc != 0) {
    fprintf(stderr, "eddi-sandbox: %s%s%s\n", err.what, err.hint[0] ? ". " : "", err.hint);
    return SANDBOX_FAILED;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
