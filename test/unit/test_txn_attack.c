/* test_txn_attack.c - a change of several files (edit/transaction.c) when
 * the disk is full or the workspace's folders move under it.
 *
 * The standards: a group ends all old or all new; nothing is ever written
 * outside the workspace, whatever a folder is swapped for; a failure
 * leaves nothing of eddi's behind where it could be reached. The full
 * disk is a small tmpfs, which needs root: without it that case skips. */
#include "unit_support.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "core/fs.h"
#include "edit/transaction.h"
#include "session/engine.h"
#include "workspace/session.h"

/* The tmpfs of the full-disk case, and the old file too big to copy back
 * into what is left of it. */
#define ATTACK_TMPFS_OPTIONS "size=1m"
#define ATTACK_OLD_BYTES (256 * 1024)
/* The descriptors a process may have in the many-folders case: fewer than
 * the files of its change. */
#define ATTACK_DESCRIPTORS 512
/* Room left on the full disk: the two small temporary files of the change. */
#define ATTACK_ROOM_BYTES (16 * 1024)

static void write_at(const char *root, const char *name, const char *bytes, size_t len) {
  char path[PATH_MAX];
  unit_path(path, root, name);
  unit_write_file(path, bytes, len);
}

static char *read_at(const char *root, const char *name, size_t *len) {
  char path[PATH_MAX];
  unit_path(path, root, name);
  return unit_read_file(path, len);
}

static EddiEngine *engine_with_journal(const char *root, const char *state) {
  EddiConfig config;
  eddi_config_default(&config);
  config.state_dir = state;
  char error[256], report[256];
  EddiEngine *engine = eddi_engine_new(root, &config, error, sizeof error);
  assert_non_null(engine);
  assert_int_equal(eddi_engine_open_journal(engine, report, sizeof report, error, sizeof error),
                   0);
  return engine;
}

/* The files of names (n of them) get text in one transaction. */
static int commit_all(EddiEngine *engine, const char *const *names, size_t n, const char *text,
                      EddiError *err) {
  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, engine->workspace, NULL);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    EddiEditFile *file;
    rc = eddi_edit_txn_file(&txn, names[i], &file, err);
    if (rc == 0) eddi_edit_file_write(file, text, strlen(text));
  }
  if (rc == 0) rc = eddi_edit_txn_commit(&txn, NULL, err);
  eddi_edit_txn_free(&txn);
  return rc;
}

/* Fill the file system of dir until it is full, then free room bytes. */
static void fill_leaving(const char *dir, size_t room) {
  char path[PATH_MAX];
  unit_path(path, dir, "filler");
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  static char block[4096];
  memset(block, 'f', sizeof block);
  off_t size = 0;
  for (ssize_t n; (n = write(fd, block, sizeof block)) > 0;) size += n;
  assert_int_equal(errno, ENOSPC);
  assert_true(size > (off_t)room);
  assert_int_equal(ftruncate(fd, size - (off_t)room), 0);
  close(fd);
}

/* ------------------------------------------------------------ a full disk */

/* The full disk: a small tmpfs mounted on a folder of its own, unmounted by
 * the teardown whatever the case found. */
typedef struct {
  char mount_point[PATH_MAX];
  char state_dir[PATH_MAX];
  bool mounted;
} FullDisk;

static int full_disk_setup(void **state) {
  FullDisk *disk = calloc(1, sizeof *disk);
  unit_workspace_new(disk->mount_point);
  unit_workspace_new(disk->state_dir);
  /* Mounting needs root (and a container that allows it): else it skips. */
  disk->mounted = geteuid() == 0 &&
                  mount("tmpfs", disk->mount_point, "tmpfs", 0, ATTACK_TMPFS_OPTIONS) == 0;
  *state = disk;
  return 0;
}

static int full_disk_teardown(void **state) {
  FullDisk *disk = *state;
  if (disk->mounted) umount2(disk->mount_point, MNT_DETACH);
  unit_remove_tree(disk->mount_point);
  unit_remove_tree(disk->state_dir);
  free(disk);
  return 0;
}

/* The first file was renamed in, the second refused (changed on disk): the
 * first was put back by writing a copy of its old bytes, which a full disk
 * refused, so the group stayed half new. Its backup link is the old file
 * already: renamed back, it needs no room. */
static void test_full_disk_puts_the_first_file_back(void **state) {
  FullDisk *disk = *state;
  if (!disk->mounted) skip();
  char root[PATH_MAX];
  unit_path(root, disk->mount_point, "ws");
  assert_int_equal(mkdir(root, 0700), 0);
  char *old = malloc(ATTACK_OLD_BYTES);
  memset(old, 'a', ATTACK_OLD_BYTES);
  old[ATTACK_OLD_BYTES - 1] = '\n';
  write_at(root, "a.txt", old, ATTACK_OLD_BYTES);
  write_at(root, "b.txt", "old b\n", 6);
  EddiEngine *engine = engine_with_journal(root, disk->state_dir);

  EddiEditTxn txn;
  eddi_edit_txn_init(&txn, engine->workspace, NULL);
  EddiEditFile *file;
  EddiError err;
  static const char *const names[] = {"a.txt", "b.txt"};
  for (size_t i = 0; i < 2; i++) {
    assert_int_equal(eddi_edit_txn_file(&txn, names[i], &file, &err), 0);
    eddi_edit_file_write(file, "new\n", 4);
  }
  /* Someone rewrites b.txt's only line: the change is refused there. */
  write_at(root, "b.txt", "their b\n", 8);
  fill_leaving(disk->mount_point, ATTACK_ROOM_BYTES);
  assert_int_equal(eddi_edit_txn_commit(&txn, NULL, &err), EDDI_ESTALE);
  eddi_edit_txn_free(&txn);
  eddi_engine_free(engine);

  size_t len;
  char *a = read_at(root, "a.txt", &len);
  assert_int_equal(len, ATTACK_OLD_BYTES);
  assert_memory_equal(a, old, ATTACK_OLD_BYTES);
  free(a);
  free(old);
  char *b = read_at(root, "b.txt", &len);
  assert_string_equal(b, "their b\n");
  free(b);
}

/* ------------------------------------------------------------ folders swapped */

/* When the watcher swaps the workspace's folder sub for a symlink to the
 * folder outside: at the first event of kind in sub. */
typedef struct {
  char sub[PATH_MAX], moved[PATH_MAX], outside[PATH_MAX];
  uint32_t kind;
  int inotify;
  bool swapped;
} Swap;

/* How long the watcher waits for its event before it gives up. */
#define ATTACK_WATCH_MS 5000

static void *swap__watch(void *arg) {
  Swap *swap = arg;
  struct pollfd poll_fd = {swap->inotify, POLLIN, 0};
  char events[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
  while (poll(&poll_fd, 1, ATTACK_WATCH_MS) > 0) {
    ssize_t n = read(swap->inotify, events, sizeof events);
    if (n <= 0) break;
    bool seen = false;
    for (char *at = events; at < events + n;) {
      const struct inotify_event *event = (const struct inotify_event *)at;
      seen = seen || (event->mask & swap->kind);
      at += sizeof *event + event->len;
    }
    if (!seen) continue;
    swap->swapped = rename(swap->sub, swap->moved) == 0 && symlink(swap->outside, swap->sub) == 0;
    break;
  }
  return NULL;
}

/* The names in dir, sorted, one a line. */
static void listing(const char *dir, StrBuf *out) {
  char command[PATH_MAX + 32];
  snprintf(command, sizeof command, "ls -A %s", dir);
  FILE *pipe = popen(command, "r");
  assert_non_null(pipe);
  char line[PATH_MAX];
  while (fgets(line, sizeof line, pipe)) eddi_strbuf_puts(out, line);
  pclose(pipe);
}

/* sub/a.txt, sub/b.txt (large: its read takes a while) and sub/c.txt
 * change in one transaction; at the first event of kind in sub, sub
 * becomes a symlink to a folder outside the workspace holding the same
 * files (the same bytes, so that a stamp taken through the link would
 * match). Nothing outside may change, and the group must end all old or
 * all new in the folder that was sub. */
static void swap_during_commit(uint32_t kind) {
  char root[PATH_MAX], scratch[PATH_MAX], state_dir[PATH_MAX];
  unit_workspace_new(root);
  unit_workspace_new(scratch);
  unit_workspace_new(state_dir);
  Swap swap = {.kind = kind};
  unit_path(swap.sub, root, "sub");
  unit_path(swap.moved, root, "sub.real");
  unit_path(swap.outside, scratch, "out");
  enum { BIG = 8 << 20 };
  char *big = malloc(BIG);
  memset(big, 'b', BIG);
  big[BIG - 1] = '\n';
  static const char *const leaves[] = {"a.txt", "b.txt", "c.txt"};
  const char *dirs[] = {swap.sub, swap.outside};
  for (size_t d = 0; d < 2; d++) {
    assert_int_equal(mkdir(dirs[d], 0700), 0);
    for (size_t i = 0; i < 3; i++)
      if (i == 1) write_at(dirs[d], leaves[i], big, BIG);
      else write_at(dirs[d], leaves[i], "old\n", 4);
  }
  StrBuf outside_before = {0}, outside_after = {0};
  listing(swap.outside, &outside_before);
  EddiEngine *engine = engine_with_journal(root, state_dir);
  swap.inotify = inotify_init1(IN_CLOEXEC);
  assert_true(swap.inotify >= 0);
  assert_true(inotify_add_watch(swap.inotify, swap.sub, kind) >= 0);
  pthread_t watcher;
  assert_int_equal(pthread_create(&watcher, NULL, swap__watch, &swap), 0);
  static const char *const names[] = {"sub/a.txt", "sub/b.txt", "sub/c.txt"};
  EddiError err;
  int rc = commit_all(engine, names, 3, "new\n", &err);
  pthread_join(watcher, NULL);
  close(swap.inotify);
  eddi_engine_free(engine);

  /* Nothing outside changed: the same names, the same bytes. */
  listing(swap.outside, &outside_after);
  assert_string_equal(outside_before.data, outside_after.data);
  size_t len;
  for (size_t i = 0; i < 3; i++) {
    char *bytes = read_at(swap.outside, leaves[i], &len);
    assert_int_equal(len, i == 1 ? (size_t)BIG : 4);
    if (i != 1) assert_string_equal(bytes, "old\n");
    free(bytes);
  }
  /* The group is all old or all new where it was. */
  const char *real = swap.swapped ? swap.moved : swap.sub;
  int news = 0;
  for (size_t i = 0; i < 3; i++) {
    len = 0;
    char *bytes = read_at(real, leaves[i], &len);
    news += bytes && len == 4 && strcmp(bytes, "new\n") == 0;
    free(bytes);
  }
  if (news != 0 && news != 3) fail_msg("%d of 3 files new (rc %d: %s)", news, rc, err.what);
  /* No temporary file or backup of eddi's is left there. */
  StrBuf left = {0};
  listing(real, &left);
  if (strstr(left.data, ".eddi-")) fail_msg("left behind:\n%s", left.data);
  eddi_strbuf_free(&left);
  assert_true(swap.swapped);
  assert_true(rc == 0 ? news == 3 : news == 0);
  eddi_strbuf_free(&outside_before);
  eddi_strbuf_free(&outside_after);
  free(big);
  unit_remove_tree(root);
  unit_remove_tree(scratch);
  unit_remove_tree(state_dir);
}

/* Swapped while the new files are being written beside the old. */
static void test_folder_swapped_while_staging(void **state) {
  (void)state;
  swap_during_commit(IN_CREATE);
}

/* Swapped right after the first file was renamed in. */
static void test_folder_swapped_between_renames(void **state) {
  (void)state;
  swap_during_commit(IN_MOVED_TO);
}

/* ------------------------------------------------------------ not a file any more */

/* How long a write may take before the test calls it hung. */
#define ATTACK_HANG_SECONDS 20

/* A file swapped for a FIFO after eddi read it: the write's check of what
 * is there now opened the FIFO for reading, which waits for a writer that
 * never comes, and the command (the server with it) hung; the start's
 * recovery, hashing the files of an intent, too. */
static void test_a_fifo_in_place_of_a_file_is_refused_not_waited_for(void **state) {
  (void)state;
  char root[PATH_MAX], state_dir[PATH_MAX], path[PATH_MAX];
  unit_workspace_new(root);
  unit_workspace_new(state_dir);
  write_at(root, "a.txt", "old a\n", 6);
  write_at(root, "b.txt", "old b\n", 6);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    alarm(ATTACK_HANG_SECONDS);
    EddiEngine *engine = engine_with_journal(root, state_dir);
    char *reply = eddi_exec(engine, "t", "Start s\nOpen a.txt\nInsert Line \"x\"", 34);
    eddi_string_free(reply);
    unit_path(path, root, "a.txt");
    if (unlink(path) < 0 || mkfifo(path, 0600) < 0) _exit(2);
    reply = eddi_exec(engine, "t", "Save", 4);
    bool refused = strncmp(reply, "Fail", 4) == 0;
    eddi_string_free(reply);
    /* And a change of two files, one of them the FIFO. */
    static const char *const names[] = {"a.txt", "b.txt"};
    EddiEditTxn txn;
    eddi_edit_txn_init(&txn, engine->workspace, NULL);
    EddiEditFile *file;
    EddiError err;
    if (eddi_edit_txn_file(&txn, "b.txt", &file, &err) < 0) _exit(3);
    eddi_edit_file_write(file, "new\n", 4);
    unit_path(path, root, "b.txt");
    if (unlink(path) < 0 || mkfifo(path, 0600) < 0) _exit(4);
    if (eddi_edit_txn_file(&txn, "a.txt", &file, &err) == 0) {
      eddi_edit_file_write(file, "new\n", 4);
      refused = refused && eddi_edit_txn_commit(&txn, NULL, &err) < 0;
    }
    eddi_edit_txn_free(&txn);
    bool exists;
    uint64_t hash;
    eddi_fs_hash(eddi_workspace_root_fd(engine->workspace), names[0], 1 << 20, &exists, &hash);
    eddi_engine_free(engine);
    _exit(refused ? 0 : 1);
  }
  int status;
  assert_int_equal(waitpid(child, &status, 0), child);
  if (WIFSIGNALED(status)) fail_msg("hung (signal %d)", WTERMSIG(status));
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
  struct stat st;
  unit_path(path, root, "a.txt");
  assert_int_equal(lstat(path, &st), 0);
  assert_true(S_ISFIFO(st.st_mode)); /* left as it is */
  unit_remove_tree(root);
  unit_remove_tree(state_dir);
}

/* ------------------------------------------------------------ many folders */

/* How many descriptors this process has open. */
static int open_descriptors(void) {
  int count = 0;
  DIR *dir = opendir("/proc/self/fd");
  assert_non_null(dir);
  for (struct dirent *entry; (entry = readdir(dir));) count += entry->d_name[0] != '.';
  closedir(dir);
  return count - 1; /* the listing's own */
}

/* The folders a change holds are bounded and shared: a change across more
 * folders than that (and more files than the descriptors a process may
 * have, with a few per folder) is written whole, and closes them all. */
static void test_a_change_across_many_folders_holds_few_descriptors(void **state) {
  (void)state;
  enum { FOLDERS = 600, PER_FOLDER = 3 };
  char root[PATH_MAX], state_dir[PATH_MAX], name[64];
  unit_workspace_new(root);
  unit_workspace_new(state_dir);
  char **names = calloc(FOLDERS * PER_FOLDER, sizeof *names);
  for (size_t i = 0; i < FOLDERS; i++) {
    char folder[PATH_MAX];
    snprintf(name, sizeof name, "d%03zu", i);
    unit_path(folder, root, name);
    assert_int_equal(mkdir(folder, 0700), 0);
    for (size_t k = 0; k < PER_FOLDER; k++) {
      snprintf(name, sizeof name, "d%03zu/f%zu.txt", i, k);
      write_at(root, name, "old\n", 4);
      names[i * PER_FOLDER + k] = strdup(name);
    }
  }
  EddiEngine *engine = engine_with_journal(root, state_dir);
  int before = open_descriptors();
  /* Fewer descriptors than the change has files, wherever the test runs. */
  struct rlimit limit, lowered;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &limit), 0);
  lowered = limit;
  lowered.rlim_cur = ATTACK_DESCRIPTORS;
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &lowered), 0);
  EddiError err;
  int rc = commit_all(engine, (const char *const *)names, FOLDERS * PER_FOLDER, "new\n", &err);
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &limit), 0);
  assert_int_equal(rc, 0);
  assert_int_equal(open_descriptors(), before);
  eddi_engine_free(engine);
  size_t len;
  for (size_t i = 0; i < FOLDERS * PER_FOLDER; i++) {
    char *bytes = read_at(root, names[i], &len);
    assert_string_equal(bytes, "new\n");
    free(bytes);
    free(names[i]);
  }
  free(names);
  unit_remove_tree(root);
  unit_remove_tree(state_dir);
}

/* ------------------------------------------------------------ symlinks inside */

static bool is_symlink(const char *root, const char *name) {
  char path[PATH_MAX];
  struct stat st;
  unit_path(path, root, name);
  return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* A symlink inside the workspace to a file inside opens as that file; its
 * Save renamed the new bytes over the link itself: the link was gone, a
 * copy in its place, and the file it led to kept its old text. A Save
 * writes the file the link leads to, the link stays; a change of several
 * files refuses the link's path before writing anything (it renamed over
 * the link too, and its recovery would). */
static void test_a_save_through_a_symlink_writes_the_file_it_leads_to(void **state) {
  (void)state;
  char root[PATH_MAX], state_dir[PATH_MAX], path[PATH_MAX];
  unit_workspace_new(root);
  unit_workspace_new(state_dir);
  unit_path(path, root, "real");
  assert_int_equal(mkdir(path, 0700), 0);
  write_at(root, "real/notes.txt", "one\n", 4);
  write_at(root, "b.txt", "old b\n", 6);
  unit_path(path, root, "notes.txt");
  assert_int_equal(symlink("real/notes.txt", path), 0);
  EddiEngine *engine = engine_with_journal(root, state_dir);
  char *reply = eddi_exec(engine, "t", "Start s\nOpen notes.txt\nInsert Line \"zero\"\nSave", 46);
  assert_string_equal(reply, "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\n"
                             "Ok, Bytes 9");
  eddi_string_free(reply);
  assert_true(is_symlink(root, "notes.txt"));
  size_t len;
  char *bytes = read_at(root, "real/notes.txt", &len);
  assert_string_equal(bytes, "zero\none\n");
  free(bytes);
  /* A change of several files names the file itself: the intent and its
   * recovery rename by path. */
  static const char *const names[] = {"b.txt", "notes.txt"};
  EddiError err;
  assert_int_equal(commit_all(engine, names, 2, "new\n", &err), EDDI_EINVAL);
  assert_string_equal(err.what, "notes.txt is a symlink to real/notes.txt; nothing written");
  assert_true(is_symlink(root, "notes.txt"));
  bytes = read_at(root, "real/notes.txt", &len);
  assert_string_equal(bytes, "zero\none\n");
  free(bytes);
  bytes = read_at(root, "b.txt", &len);
  assert_string_equal(bytes, "old b\n");
  free(bytes);
  StrBuf left = {0};
  listing(root, &left);
  unit_path(path, root, "real");
  listing(path, &left);
  assert_null(strstr(left.data, ".eddi-"));
  eddi_strbuf_free(&left);
  eddi_engine_free(engine);
  unit_remove_tree(root);
  unit_remove_tree(state_dir);
}

/* A link whose target goes up a folder ("../real/notes.txt") and stays
 * inside the workspace opened, but its Save was refused "Path outside
 * workspace" (the target was resolved beneath the link's folder, not the
 * root; issue 31 item 14). It writes the file it leads to now; a link
 * that leads out is still refused, and nothing is written out there. */
static void test_a_save_through_a_link_up_a_folder_writes_its_target(void **state) {
  (void)state;
  char root[PATH_MAX], state_dir[PATH_MAX], outside[PATH_MAX], path[PATH_MAX], target[PATH_MAX];
  unit_workspace_new(root);
  unit_workspace_new(state_dir);
  unit_workspace_new(outside);
  write_at(outside, "secret.txt", "secret\n", 7);
  unit_path(path, root, "real");
  assert_int_equal(mkdir(path, 0700), 0);
  unit_path(path, root, "sub");
  assert_int_equal(mkdir(path, 0700), 0);
  write_at(root, "real/notes.txt", "one\n", 4);
  unit_path(path, root, "sub/up.txt");
  assert_int_equal(symlink("../real/notes.txt", path), 0);
  unit_path(path, root, "sub/out.txt");
  unit_path(target, outside, "secret.txt");
  assert_int_equal(symlink(target, path), 0);
  EddiEngine *engine = engine_with_journal(root, state_dir);
  const char *save = "Start s\nOpen sub/up.txt\nInsert Line \"zero\"\nSave";
  char *reply = eddi_exec(engine, "t", save, strlen(save));
  assert_string_equal(reply, "Ok\nOk, At 0:0, Length 1\nOk, Inserted 1 line at 0, At 1:0\n"
                             "Ok, Bytes 9");
  eddi_string_free(reply);
  assert_true(is_symlink(root, "sub/up.txt"));
  size_t len;
  char *bytes = read_at(root, "real/notes.txt", &len);
  assert_string_equal(bytes, "zero\none\n");
  free(bytes);
  reply = eddi_exec(engine, "t", "Open sub/out.txt", 16);
  assert_string_equal(reply, "Fail \"Path outside workspace\", Give a path inside the workspace, "
                             "from its root");
  eddi_string_free(reply);
  bytes = read_at(outside, "secret.txt", &len);
  assert_string_equal(bytes, "secret\n");
  free(bytes);
  eddi_engine_free(engine);
  unit_remove_tree(root);
  unit_remove_tree(state_dir);
  unit_remove_tree(outside);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_full_disk_puts_the_first_file_back, full_disk_setup,
                                      full_disk_teardown),
      cmocka_unit_test(test_folder_swapped_while_staging),
      cmocka_unit_test(test_folder_swapped_between_renames),
      cmocka_unit_test(test_a_fifo_in_place_of_a_file_is_refused_not_waited_for),
      cmocka_unit_test(test_a_change_across_many_folders_holds_few_descriptors),
      cmocka_unit_test(test_a_save_through_a_symlink_writes_the_file_it_leads_to),
      cmocka_unit_test(test_a_save_through_a_link_up_a_folder_writes_its_target),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
