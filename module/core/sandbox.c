/* sandbox.c - see sandbox.h.
 *
 * Three processes: the caller forks the outer child, which becomes the
 * sandbox's user, unshares the namespaces and maps its own uid and gid;
 * its child is the new PID namespace's init, which reaps what the program
 * leaves and ends the namespace (killing every process in it) when the
 * program ends; the init's child limits, restricts and confines itself
 * and executes the program. The init is not the program because a
 * namespace's init ignores signals it has no handler for, and the limits
 * signal (SIGXCPU).
 *
 * Each step that fails writes "what: why" to a pipe the caller reads (its
 * write end closes on exec); the init writes the program's wait status
 * to another.
 */
#define _GNU_SOURCE
#include "core/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------------- Landlock's ABI
 *
 * As the kernel documents it (include/uapi/linux/landlock.h); the C
 * library's headers may predate the later fields. */

#define SANDBOX_RULESET_VERSION (1u << 0)
#define SANDBOX_RULE_PATH_BENEATH 1

#define SANDBOX_FS_EXECUTE (1ull << 0)
#define SANDBOX_FS_WRITE_FILE (1ull << 1)
#define SANDBOX_FS_READ_FILE (1ull << 2)
#define SANDBOX_FS_READ_DIR (1ull << 3)
#define SANDBOX_FS_MAKE_CHAR (1ull << 6)
#define SANDBOX_FS_MAKE_BLOCK (1ull << 11)
#define SANDBOX_FS_ABI1 ((1ull << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define SANDBOX_FS_REFER (1ull << 13)      /* ABI 2 */
#define SANDBOX_FS_TRUNCATE (1ull << 14)   /* ABI 3 */
#define SANDBOX_FS_IOCTL_DEV (1ull << 15)  /* ABI 5 */
#define SANDBOX_NET_BIND_TCP (1ull << 0)   /* ABI 4 */
#define SANDBOX_NET_CONNECT_TCP (1ull << 1)
#define SANDBOX_SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define SANDBOX_SCOPE_SIGNAL (1ull << 1)

typedef struct {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
} SandboxRuleset;

typedef struct __attribute__((packed)) {
  uint64_t allowed_access;
  int32_t parent_fd;
} SandboxPathBeneath;

static int sandbox__landlock_abi(void) {
#ifdef SYS_landlock_create_ruleset
  long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, SANDBOX_RULESET_VERSION);
  return abi < 0 ? 0 : (int)abi;
#else
  return 0;
#endif
}

/* The file system rights Landlock handles at abi: all it knows. */
static uint64_t sandbox__fs_rights(int abi) {
  uint64_t rights = SANDBOX_FS_ABI1;
  if (abi >= 2) rights |= SANDBOX_FS_REFER;
  if (abi >= 3) rights |= SANDBOX_FS_TRUNCATE;
  if (abi >= 5) rights |= SANDBOX_FS_IOCTL_DEV;
  return rights;
}

/* ---------------------------------------------------------------- the child's steps */

/* Report "what: why" to the caller and end the child. */
static void sandbox__die(int report, const char *what, int error) {
  char message[256];
  int n = snprintf(message, sizeof message, "%s: %s", what, strerror(error));
  if (n > 0 && write(report, message, (size_t)EDDI_MIN(n, (int)sizeof message - 1)) < 0) {
  }
  _exit(127);
}

static bool sandbox__kept(const EddiSandboxSpec *spec, int fd, const int *also, size_t also_count) {
  if (fd <= 2) return true;
  for (size_t i = 0; i < spec->keep_count; i++)
    if (spec->keep_fds[i] == fd) return true;
  for (size_t i = 0; i < also_count; i++)
    if (also[i] == fd) return true;
  return false;
}

/* Close every descriptor but 0-2, the kept ones and also[]; the kept
 * ones lose close-on-exec. */
static void sandbox__close_others(const EddiSandboxSpec *spec, const int *also, size_t also_count,
                                  int report) {
  int highest = 2;
  for (size_t i = 0; i < spec->keep_count; i++) highest = EDDI_MAX(highest, spec->keep_fds[i]);
  for (size_t i = 0; i < also_count; i++) highest = EDDI_MAX(highest, also[i]);
  for (int fd = 3; fd <= highest; fd++)
    if (!sandbox__kept(spec, fd, also, also_count)) close(fd);
  if (syscall(SYS_close_range, (unsigned)highest + 1, ~0u, 0) < 0) sandbox__die(report, "close_range", errno);
  for (size_t i = 0; i < spec->keep_count; i++)
    if (fcntl(spec->keep_fds[i], F_SETFD, 0) < 0) sandbox__die(report, "a kept descriptor", errno);
}

static void sandbox__write_file(const char *path, const char *text, int report) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) sandbox__die(report, path, errno);
  size_t len = strlen(text);
  if (write(fd, text, len) != (ssize_t)len) sandbox__die(report, path, errno);
  close(fd);
}

/* Become the sandbox's user (nobody, when root), then a user namespace of
 * our own holding only that user, with the other namespaces. */
static void sandbox__enter_namespaces(const EddiSandboxSpec *spec, int report) {
  if (geteuid() == 0) {
    if (spec->scratch && chown(spec->scratch, EDDI_SANDBOX_NOBODY, EDDI_SANDBOX_NOBODY) < 0)
      sandbox__die(report, "giving the scratch folder to nobody", errno);
    if (setgroups(0, NULL) < 0 || setgid(EDDI_SANDBOX_NOBODY) < 0 ||
        setuid(EDDI_SANDBOX_NOBODY) < 0)
      sandbox__die(report, "becoming nobody", errno);
    /* The change of user made the process undumpable, its /proc files
     * root's: nobody could not write its own uid map. */
    if (prctl(PR_SET_DUMPABLE, 1) < 0) sandbox__die(report, "dumpable", errno);
  }
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC |
              CLONE_NEWUTS) < 0)
    sandbox__die(report, "new namespaces (unshare)", errno);
  char map[64];
  sandbox__write_file("/proc/self/setgroups", "deny", report);
  snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
  sandbox__write_file("/proc/self/uid_map", map, report);
  snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
  sandbox__write_file("/proc/self/gid_map", map, report);
}

static void sandbox__limit(int resource, rlim_t value, const char *what, int report) {
  struct rlimit limit = {value, value};
  if (resource == RLIMIT_CPU) limit.rlim_max = value + 1; /* SIGXCPU, then SIGKILL */
  if (setrlimit(resource, &limit) < 0) sandbox__die(report, what, errno);
}

static void sandbox__limits(const EddiSandboxSpec *spec, int report) {
  sandbox__limit(RLIMIT_CPU, spec->cpu_seconds ? spec->cpu_seconds : EDDI_SANDBOX_CPU_SECONDS,
                 "the CPU limit", report);
  sandbox__limit(RLIMIT_AS, spec->memory_bytes ? spec->memory_bytes : EDDI_SANDBOX_MEMORY_BYTES,
                 "the memory limit", report);
  sandbox__limit(RLIMIT_NPROC, spec->processes ? spec->processes : EDDI_SANDBOX_PROCESSES,
                 "the process limit", report);
  sandbox__limit(RLIMIT_FSIZE, spec->file_bytes ? spec->file_bytes : EDDI_SANDBOX_FILE_BYTES,
                 "the file size limit", report);
  sandbox__limit(RLIMIT_NOFILE, spec->open_files ? spec->open_files : EDDI_SANDBOX_OPEN_FILES,
                 "the open files limit", report);
  sandbox__limit(RLIMIT_CORE, 0, "the core file limit", report);
}

static void sandbox__allow_path(int ruleset, const char *path, uint64_t dir_rights,
                                uint64_t handled, int report) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) sandbox__die(report, path, errno);
  struct stat st;
  if (fstat(fd, &st) < 0) sandbox__die(report, path, errno);
  /* A file's rule may hold only the rights that apply to files. */
  uint64_t file_rights = SANDBOX_FS_EXECUTE | SANDBOX_FS_WRITE_FILE | SANDBOX_FS_READ_FILE |
                         SANDBOX_FS_TRUNCATE | SANDBOX_FS_IOCTL_DEV;
  SandboxPathBeneath rule = {
      .allowed_access = (S_ISDIR(st.st_mode) ? dir_rights : dir_rights & file_rights) & handled,
      .parent_fd = fd};
  if (syscall(SYS_landlock_add_rule, ruleset, SANDBOX_RULE_PATH_BENEATH, &rule, 0) < 0)
    sandbox__die(report, path, errno);
  close(fd);
}

static void sandbox__landlock(const EddiSandboxSpec *spec, int report) {
  int abi = sandbox__landlock_abi();
  if (abi < 1) sandbox__die(report, "Landlock", EOPNOTSUPP);
  uint64_t handled = sandbox__fs_rights(abi);
  SandboxRuleset attr = {.handled_access_fs = handled};
  size_t size = sizeof attr.handled_access_fs;
  if (abi >= 4) {
    attr.handled_access_net = SANDBOX_NET_BIND_TCP | SANDBOX_NET_CONNECT_TCP;
    size = offsetof(SandboxRuleset, scoped);
  }
  if (abi >= 6) {
    attr.scoped = SANDBOX_SCOPE_ABSTRACT_UNIX | SANDBOX_SCOPE_SIGNAL;
    size = sizeof attr;
  }
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) sandbox__die(report, "a Landlock ruleset", errno);
  uint64_t reading = SANDBOX_FS_READ_FILE | SANDBOX_FS_READ_DIR | SANDBOX_FS_EXECUTE;
  for (size_t i = 0; i < spec->read_count; i++)
    sandbox__allow_path(ruleset, spec->read_paths[i], reading, handled, report);
  sandbox__allow_path(ruleset, "/dev/null", SANDBOX_FS_READ_FILE | SANDBOX_FS_WRITE_FILE, handled,
                      report);
  if (spec->scratch)
    sandbox__allow_path(ruleset, spec->scratch,
                        handled & ~(SANDBOX_FS_MAKE_CHAR | SANDBOX_FS_MAKE_BLOCK), handled,
                        report);
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
    sandbox__die(report, "Landlock restricting", errno);
  close(ruleset);
}

/* ---------------------------------------------------------------- seccomp */

#define SANDBOX_FILTER_MAX 160

typedef struct {
  struct sock_filter code[SANDBOX_FILTER_MAX];
  unsigned short len;
} SandboxFilter;

static void filter__add(SandboxFilter *f, struct sock_filter op) {
  if (f->len < SANDBOX_FILTER_MAX) f->code[f->len++] = op;
}

/* nr answers errno (nr is in the accumulator). */
static void filter__refuse(SandboxFilter *f, long nr, int error) {
  filter__add(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1));
  filter__add(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
                                              SECCOMP_RET_ERRNO | (uint32_t)(error & 0xffff)));
}

/* nr answers EPERM when its argument arg (low 32 bits) matches: any bit
 * of value (set) or equal to value; else it is allowed. */
static void filter__refuse_arg(SandboxFilter *f, long nr, unsigned arg, uint32_t value, bool set) {
  filter__add(f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 3));
  filter__add(f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                              offsetof(struct seccomp_data, args[arg])));
  filter__add(f, (struct sock_filter)BPF_JUMP(BPF_JMP | (set ? BPF_JSET : BPF_JEQ) | BPF_K, value,
                                              0, 1));
  filter__add(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
  filter__add(f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

#if defined(__x86_64__)
static const long sandbox__refused[] = {
    SYS_ptrace,          SYS_process_vm_readv, SYS_process_vm_writev, SYS_mount,
    SYS_umount2,         SYS_pivot_root,       SYS_chroot,            SYS_unshare,
    SYS_setns,           SYS_keyctl,           SYS_add_key,           SYS_request_key,
    SYS_bpf,             SYS_perf_event_open,  SYS_userfaultfd,       SYS_io_uring_setup,
    SYS_io_uring_enter,  SYS_io_uring_register, SYS_init_module,      SYS_finit_module,
    SYS_delete_module,   SYS_kexec_load,       SYS_kexec_file_load,   SYS_reboot,
    SYS_swapon,          SYS_swapoff,          SYS_acct,              SYS_personality,
    SYS_open_by_handle_at, SYS_name_to_handle_at, SYS_fanotify_init,  SYS_quotactl,
    SYS_syslog,          SYS_move_mount,       SYS_open_tree,         SYS_fsopen,
    SYS_fsconfig,        SYS_fsmount,          SYS_fspick,            SYS_mount_setattr,
    SYS_iopl,            SYS_ioperm,           SYS_kcmp,              SYS_pidfd_getfd,
    SYS_process_madvise, SYS_uselib,           SYS_vhangup,           SYS_settimeofday,
    SYS_clock_settime,   SYS_adjtimex,         SYS_socket,
};

static void sandbox__seccomp(int report) {
  SandboxFilter f = {.len = 0};
  filter__add(&f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                               offsetof(struct seccomp_data, arch)));
  filter__add(&f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
  filter__add(&f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  filter__add(&f, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                               offsetof(struct seccomp_data, nr)));
  /* x32's calls (the same numbers with bit 30) are another ABI. */
  filter__add(&f, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  filter__add(&f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  for (size_t i = 0; i < sizeof sandbox__refused / sizeof sandbox__refused[0]; i++)
    filter__refuse(&f, sandbox__refused[i], EPERM);
  /* clone3 passes its flags in memory the filter cannot read: the C
   * library falls back to clone, whose flags it can. */
  filter__refuse(&f, SYS_clone3, ENOSYS);
  filter__refuse_arg(&f, SYS_ioctl, 1, TIOCSTI, false);
  filter__refuse_arg(&f, SYS_clone, 0,
                     CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC |
                         CLONE_NEWUTS | CLONE_NEWCGROUP,
                     true);
  filter__add(&f, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  if (f.len >= SANDBOX_FILTER_MAX) sandbox__die(report, "the seccomp filter", E2BIG);
  struct sock_fprog program = {.len = f.len, .filter = f.code};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) < 0)
    sandbox__die(report, "the seccomp filter", errno);
}
#else
static void sandbox__seccomp(int report) { sandbox__die(report, "the seccomp filter", ENOSYS); }
#endif

/* This process ends when its parent does: a caller that kills eddi-sandbox
 * ends the sandbox with it. parent (when not 0) is checked once more after
 * the prctl, in case it ended first; the namespace's init cannot check (its
 * parent is outside its PID namespace, where getppid says 0). */
static void sandbox__die_with_parent(pid_t parent, int report) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) sandbox__die(report, "PR_SET_PDEATHSIG", errno);
  if (parent && getppid() != parent) _exit(127);
}

/* The program's process: limits, no new privileges, Landlock, seccomp,
 * then the program. */
static void sandbox__exec(const EddiSandboxSpec *spec, pid_t init, int report) {
  sandbox__die_with_parent(init, report);
  sandbox__limits(spec, report);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) sandbox__die(report, "no-new-privileges", errno);
  if (prctl(PR_SET_DUMPABLE, 0) < 0) sandbox__die(report, "not dumpable", errno);
  sandbox__landlock(spec, report);
  sandbox__seccomp(report);
  char *empty[] = {NULL};
  execve(spec->argv[0], spec->argv, spec->envp ? spec->envp : empty);
  sandbox__die(report, spec->argv[0], errno);
}

/* The namespace's init: start the program, reap whatever ends, and when
 * the program ends send its wait status on status and end (which ends
 * every process left in the namespace). */
static void sandbox__init(const EddiSandboxSpec *spec, int report, int status_fd) {
  pid_t init = getpid();
  pid_t program = fork();
  if (program < 0) sandbox__die(report, "fork", errno);
  if (program == 0) {
    close(status_fd);
    sandbox__exec(spec, init, report);
  }
  close(report);
  for (;;) {
    int status;
    pid_t ended = waitpid(-1, &status, 0);
    if (ended < 0 && errno == EINTR) continue;
    if (ended == program || ended < 0) {
      if (ended == program && write(status_fd, &status, sizeof status) < 0) {
      }
      _exit(0);
    }
  }
}

static void sandbox__outer(const EddiSandboxSpec *spec, pid_t caller, int report, int status_fd) {
  setsid();
  int ours[] = {report, status_fd};
  sandbox__close_others(spec, ours, 2, report);
  sandbox__enter_namespaces(spec, report);
  /* After the change of user, which clears the parent-death signal. */
  sandbox__die_with_parent(caller, report);
  pid_t init = fork();
  if (init < 0) sandbox__die(report, "fork", errno);
  if (init == 0) {
    sandbox__die_with_parent(0, report);
    sandbox__init(spec, report, status_fd);
  }
  close(report);
  close(status_fd);
  int status;
  while (waitpid(init, &status, 0) < 0 && errno == EINTR) {
  }
  _exit(0);
}

/* ---------------------------------------------------------------- the caller's side */

int eddi_sandbox_available(int *landlock_abi, EddiError *err) {
  int abi = sandbox__landlock_abi();
  if (landlock_abi) *landlock_abi = abi;
#if !defined(__x86_64__)
  return eddi_error_set(err, EDDI_ESTATE, "The sandbox's seccomp filter is written for x86-64 only");
#endif
  if (abi < 1) {
    eddi_error_set(err, EDDI_ESTATE, "This kernel has no Landlock, which the sandbox needs to "
                                     "confine a script's file access");
    eddi_error_hint(err, "Use Linux 5.13 or later with Landlock enabled (lsm=landlock,...)");
    return err->code;
  }
  return 0;
}

static ssize_t sandbox__read_all(int fd, char *buf, size_t size) {
  size_t got = 0;
  while (got < size) {
    ssize_t n = read(fd, buf + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  return (ssize_t)got;
}

int eddi_sandbox_run(const EddiSandboxSpec *spec, int *status, EddiError *err) {
  if (eddi_sandbox_available(NULL, err) != 0) return err->code;
  if (!spec->argv || !spec->argv[0] || spec->argv[0][0] != '/')
    return eddi_error_set(err, EDDI_EINVAL, "The sandbox runs a program named by its absolute path");
  int report[2], status_pipe[2];
  if (pipe2(report, O_CLOEXEC) < 0) return eddi_error_set(err, EDDI_EIO, "No pipe for the sandbox");
  if (pipe2(status_pipe, O_CLOEXEC) < 0) {
    close(report[0]), close(report[1]);
    return eddi_error_set(err, EDDI_EIO, "No pipe for the sandbox");
  }
  pid_t caller = getpid();
  pid_t outer = fork();
  if (outer < 0) {
    close(report[0]), close(report[1]), close(status_pipe[0]), close(status_pipe[1]);
    return eddi_error_set(err, EDDI_EIO, "Cannot fork the sandbox: %s", strerror(errno));
  }
  if (outer == 0) {
    close(report[0]);
    close(status_pipe[0]);
    sandbox__outer(spec, caller, report[1], status_pipe[1]);
  }
  close(report[1]);
  close(status_pipe[1]);
  char message[256] = "";
  ssize_t said = sandbox__read_all(report[0], message, sizeof message - 1);
  close(report[0]);
  int program_status = 0;
  ssize_t got = sandbox__read_all(status_pipe[0], (char *)&program_status, sizeof program_status);
  close(status_pipe[0]);
  while (waitpid(outer, NULL, 0) < 0 && errno == EINTR) {
  }
  if (said > 0) {
    message[said] = '\0';
    eddi_error_set(err, EDDI_ESTATE, "The sandbox could not be set up (%s); nothing ran", message);
    eddi_error_hint(err, "Each --read path must exist and the sandbox's user must be able to "
                         "reach it; the kernel must allow unprivileged user namespaces, Landlock "
                         "and seccomp");
    return err->code;
  }
  if (got != (ssize_t)sizeof program_status)
    return eddi_error_set(err, EDDI_EIO, "The sandbox ended without the program's status");
  *status = program_status;
  return 0;
}
