/* sandbox.h - running an untrusted program confined by the kernel.
 *
 * A model-written script must not reach anything eddi does not hand it.
 * The program runs in a child confined before it executes, by what the
 * kernel enforces rather than by what the program agrees to:
 * - new user, mount, network, PID, IPC and UTS namespaces: no network (not
 *   even loopback), no other process to see or signal, no host IPC;
 * - as an unprivileged user: when eddi runs as root, the child first
 *   becomes nobody (65534), so no root's rights come with it;
 * - Landlock: the paths given read-only (read and execute), the scratch
 *   folder read-write, nothing else of the file system; where the kernel's
 *   Landlock has them, no TCP bind or connect, no abstract unix sockets and
 *   no signals outside the sandbox;
 * - resource limits: CPU seconds, address space, processes, file size,
 *   open files, no core files;
 * - no-new-privileges, not dumpable, and a seccomp filter that refuses
 *   (EPERM) what a confined program has no use for: sockets, new
 *   namespaces, mounts, ptrace and reading other processes' memory, kernel
 *   keyrings, BPF, perf, io_uring, userfaultfd, modules, TIOCSTI; a system
 *   call of another architecture or ABI kills it.
 * Descriptors other than stdin, stdout, stderr and the ones named are
 * closed; the environment is the one given, nothing inherited.
 *
 * It fails closed: when the kernel lacks any of this (no user namespaces,
 * no Landlock), nothing runs and the error names what is missing. Killing
 * the caller ends the sandbox and everything in it.
 *
 * The children do more between fork and exec than a multi-threaded
 * process may: call it from a single-threaded one (the eddi-sandbox
 * program), not from the engine.
 */
#ifndef EDDI_SANDBOX_H
#define EDDI_SANDBOX_H

#include <stddef.h>

#include "core/common.h"

/* The sandbox's user when eddi runs as root. */
#define EDDI_SANDBOX_NOBODY 65534

typedef struct {
  /* The program (an absolute path) and its arguments, NULL-terminated. */
  char *const *argv;
  /* Its environment, NULL-terminated (NULL: empty). */
  char *const *envp;
  /* Files and folders it may read and execute (a folder: all beneath). */
  const char *const *read_paths;
  size_t read_count;
  /* The one folder it may write (and read), or NULL. When eddi runs as
   * root it is given to the sandbox's user. */
  const char *scratch;
  /* Descriptors kept open as they are, besides 0, 1 and 2. */
  const int *keep_fds;
  size_t keep_count;
  /* Limits; 0 takes the default below. */
  unsigned cpu_seconds;
  size_t memory_bytes;
  unsigned processes;
  size_t file_bytes;
  unsigned open_files;
} EddiSandboxSpec;

#define EDDI_SANDBOX_CPU_SECONDS 10
#define EDDI_SANDBOX_MEMORY_BYTES ((size_t)1 << 30)
#define EDDI_SANDBOX_PROCESSES 16
#define EDDI_SANDBOX_FILE_BYTES ((size_t)64 << 20)
#define EDDI_SANDBOX_OPEN_FILES 64

/* Whether this kernel can confine as above: 0, or EDDI_ESTATE naming
 * what it lacks. *landlock_abi (may be NULL) gets Landlock's ABI version. */
int eddi_sandbox_available(int *landlock_abi, EddiError *err);

/* Run spec's program confined and wait for it: 0 with *status its wait
 * status (as waitpid gives it: a signal that killed it, such as SIGXCPU or
 * SIGKILL past a limit, shows there), or fails with err saying which step
 * of the confinement the kernel refused (nothing of the program ran). */
int eddi_sandbox_run(const EddiSandboxSpec *spec, int *status, EddiError *err);

#endif
