/* walk.c - the workspace walk; see walk.h.
 *
 * Each folder is read whole first (its names and an lstat of each, which
 * the sort and the rules need), sorted, and then judged and reported entry
 * by entry, entering subfolders on the way: depth first, so that only the
 * folders on the current path are open and hold ignore rules. Folders are
 * opened with openat(O_NOFOLLOW) from their parent's descriptor: a symlink
 * put in place of a folder after it was read is refused by the kernel, not
 * followed, and no path is resolved from the root again at each level. */
#include "core/walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <unistd.h>

#include "core/ignore.h"
#include "core/path.h"

/* ---------------------------------------------------------------- state */

/* One folder of the current path and the rules its ignore files add. */
typedef struct {
  size_t rel_len; /* its path from the root (0: the root) */
  dev_t dev;      /* with ino: never enter a folder already on the path */
  ino_t ino;
  bool repo_root; /* it holds a .git: the .gitignore files above stop here */
  EddiIgnore dot_ignore;  /* .ignore */
  EddiIgnore git_ignore;  /* .gitignore */
  EddiIgnore git_exclude; /* .git/info/exclude */
} WalkFolder;

/* One name read from a folder. */
typedef struct {
  size_t name_at;   /* in the folder's name buffer */
  const char *name; /* set once the buffer stops growing */
  size_t name_len;
  struct stat st;   /* lstat */
  bool stat_ok;     /* false: it went away after readdir */
} WalkItem;

typedef Array(WalkItem) WalkItemList;

struct EddiWalk {
  char *root;
  EddiWalkOptions options;
  size_t max_depth;
  Array(WalkFolder) folders; /* the current path, the root first */
  StrBuf path;               /* absolute path of the folder or entry at hand */
  size_t rel_at;             /* where its path from the root starts in path */
  size_t entries_read;
  bool truncated;
  bool stopped;
  EddiWalkVisit visit;
  void *context;
};

EddiWalk *eddi_walk_new(const char *root, const EddiWalkOptions *options) {
  EddiWalk *self = eddi_calloc(1, sizeof *self);
  self->root = eddi_strdup(root);
  self->options = *options;
  self->max_depth = options->max_depth && options->max_depth < EDDI_WALK_DEPTH_MAX
                        ? options->max_depth
                        : EDDI_WALK_DEPTH_MAX;
  size_t root_len = strlen(root);
  self->rel_at = root_len && root[root_len - 1] == '/' ? root_len : root_len + 1;
  return self;
}

void eddi_walk_free(EddiWalk *self) {
  if (!self) return;
  eddi_strbuf_free(&self->path);
  array_free(&self->folders);
  eddi_free(self->root);
  eddi_free(self);
}

bool eddi_walk_truncated(const EddiWalk *self) { return self->truncated; }

size_t eddi_walk_entries_read(const EddiWalk *self) { return self->entries_read; }

bool eddi_walk_glob_matches(const char *glob, const char *rel) {
  const char *subject = strchr(glob, '/') ? rel : eddi_path_basename(rel);
  return fnmatch(glob, subject, 0) == 0;
}

/* ---------------------------------------------------------------- ignore files */

/* Add the rules of the file at parts[0]/parts[1]/... below the folder
 * dir_fd to into. Every part is opened with O_NOFOLLOW, so a symlinked
 * ignore file (or .git/info) that might lead out of the root is not read;
 * nor is anything but a regular file of at most EDDI_WALK_IGNORE_FILE_MAX
 * bytes, and O_NONBLOCK keeps a FIFO in its place from stalling the open. */
static void walk__read_rules(int dir_fd, const char *const *parts, size_t count,
                             EddiIgnore *into) {
  int fd = dir_fd;
  for (size_t i = 0; i < count && fd >= 0; i++) {
    int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (i + 1 < count ? O_DIRECTORY : O_NONBLOCK);
    int next = openat(fd, parts[i], flags);
    if (fd != dir_fd) close(fd);
    fd = next;
  }
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      (size_t)st.st_size <= EDDI_WALK_IGNORE_FILE_MAX) {
    size_t size = (size_t)st.st_size, got = 0;
    char *text = eddi_malloc(size + 1);
    /* Bounded by size: each pass reads at least one byte or ends. */
    while (got < size) {
      ssize_t n = read(fd, text + got, size - got);
      if (n <= 0) break;
      got += (size_t)n;
    }
    eddi_ignore_add(into, text, got);
    eddi_free(text);
  }
  close(fd);
}

static bool walk__item_is(const WalkItem *item, const char *name) {
  return item->name_len == strlen(name) && memcmp(item->name, name, item->name_len) == 0;
}

/* Put the folder open at dir_fd on the path, with the rules of its ignore
 * files (items: its names, to know which it has). */
static void walk__push_folder(EddiWalk *self, int dir_fd, const WalkItemList *items) {
  WalkFolder folder = {0};
  folder.rel_len = self->path.len > self->rel_at ? self->path.len - self->rel_at : 0;
  struct stat st;
  if (fstat(dir_fd, &st) == 0) folder.dev = st.st_dev, folder.ino = st.st_ino;
  for (size_t i = 0; i < items->len; i++) {
    const WalkItem *item = &items->items[i];
    if (!item->stat_ok) continue;
    if (walk__item_is(item, ".git")) folder.repo_root = true;
    if (self->options.no_ignore) continue;
    bool regular = S_ISREG(item->st.st_mode);
    if (regular && walk__item_is(item, ".ignore")) {
      walk__read_rules(dir_fd, (const char *const[]){".ignore"}, 1, &folder.dot_ignore);
    } else if (regular && walk__item_is(item, ".gitignore")) {
      walk__read_rules(dir_fd, (const char *const[]){".gitignore"}, 1, &folder.git_ignore);
    } else if (walk__item_is(item, ".git") && S_ISDIR(item->st.st_mode)) {
      walk__read_rules(dir_fd, (const char *const[]){".git", "info", "exclude"}, 3,
                       &folder.git_exclude);
    }
  }
  array_push(&self->folders, folder);
}

static void walk__pop_folder(EddiWalk *self) {
  WalkFolder *folder = array_back(&self->folders);
  eddi_ignore_free(&folder->dot_ignore);
  eddi_ignore_free(&folder->git_ignore);
  eddi_ignore_free(&folder->git_exclude);
  self->folders.len--;
}

/* What the rules of the folders on the path say about rel: .ignore files
 * first (the deepest that has a matching rule decides), then .gitignore
 * files, then .git/info/exclude, the git ones only up to the nearest
 * folder holding a .git. */
static EddiIgnoreMatch walk__judge(const EddiWalk *self, const char *rel, size_t rel_len,
                                   bool is_dir) {
  EddiIgnoreMatch git = EDDI_IGNORE_NONE, exclude = EDDI_IGNORE_NONE;
  bool above_repo = false;
  for (size_t i = self->folders.len; i-- > 0;) {
    const WalkFolder *folder = &self->folders.items[i];
    const char *sub = rel;
    size_t sub_len = rel_len;
    if (folder->rel_len) sub += folder->rel_len + 1, sub_len -= folder->rel_len + 1;
    EddiIgnoreMatch dot = eddi_ignore_match(&folder->dot_ignore, sub, sub_len, is_dir);
    if (dot != EDDI_IGNORE_NONE) return dot;
    if (!above_repo && git == EDDI_IGNORE_NONE)
      git = eddi_ignore_match(&folder->git_ignore, sub, sub_len, is_dir);
    if (!above_repo && exclude == EDDI_IGNORE_NONE)
      exclude = eddi_ignore_match(&folder->git_exclude, sub, sub_len, is_dir);
    if (folder->repo_root) above_repo = true;
  }
  return git != EDDI_IGNORE_NONE ? git : exclude;
}

/* ---------------------------------------------------------------- the walk */

/* Byte order of the names, a folder's name taken with a '/' after it. */
static int walk__compare(const void *a, const void *b) {
  const WalkItem *x = a, *y = b;
  size_t n = EDDI_MIN(x->name_len, y->name_len);
  int c = memcmp(x->name, y->name, n);
  if (c) return c;
  unsigned char cx = x->name_len > n ? (unsigned char)x->name[n] : S_ISDIR(x->st.st_mode) ? '/' : 0;
  unsigned char cy = y->name_len > n ? (unsigned char)y->name[n] : S_ISDIR(y->st.st_mode) ? '/' : 0;
  return (int)cx - (int)cy;
}

/* Whether the symlink at self->path points inside the root; if so *st
 * becomes the stat of its target. */
static bool walk__link_inside(const EddiWalk *self, struct stat *st) {
  char *rel = NULL, *abs = NULL;
  EddiError err;
  bool inside = eddi_path_resolve(self->root, self->path.data + self->rel_at, &rel, &abs,
                                  &err) == 0 &&
                stat(self->path.data, st) == 0;
  eddi_free(rel);
  eddi_free(abs);
  return inside;
}

static bool walk__on_path(const EddiWalk *self, const struct stat *st) {
  for (size_t i = 0; i < self->folders.len; i++)
    if (self->folders.items[i].dev == st->st_dev && self->folders.items[i].ino == st->st_ino)
      return true;
  return false;
}

/* Read the names of the folder open at dir (at most what the entry limit
 * leaves), with an lstat each. */
static void walk__read_folder(EddiWalk *self, DIR *dir, StrBuf *names, WalkItemList *items) {
  for (struct dirent *entry; (entry = readdir(dir));) {
    const char *name = entry->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
    if (self->entries_read >= self->options.max_entries) {
      self->truncated = true;
      break;
    }
    self->entries_read++;
    WalkItem item = {.name_at = names->len, .name_len = strlen(name)};
    eddi_strbuf_append(names, name, item.name_len + 1); /* with its NUL */
    if (self->options.types_only && entry->d_type == DT_REG) {
      item.st.st_mode = S_IFREG;
      item.stat_ok = true;
    } else {
      item.stat_ok = fstatat(dirfd(dir), name, &item.st, AT_SYMLINK_NOFOLLOW) == 0;
    }
    array_push(items, item);
  }
  for (size_t i = 0; i < items->len; i++)
    items->items[i].name = names->data + items->items[i].name_at;
}

/* Walk the folder open at dir_fd (whose path is self->path, depth levels
 * below the root); takes dir_fd. Returns 0 or the visitor's error. */
static int walk__folder(EddiWalk *self, int dir_fd, size_t depth) {
  DIR *dir = fdopendir(dir_fd);
  if (!dir) {
    close(dir_fd);
    return 0;
  }
  StrBuf names = {0};
  WalkItemList items = {0};
  walk__read_folder(self, dir, &names, &items);
  walk__push_folder(self, dirfd(dir), &items);
  if (items.len) qsort(items.items, items.len, sizeof *items.items, walk__compare);
  size_t folder_len = self->path.len;
  int rc = 0;
  for (size_t i = 0; i < items.len && !self->stopped; i++) {
    const WalkItem *item = &items.items[i];
    if (!item->stat_ok || walk__item_is(item, ".git")) continue;
    self->path.len = folder_len;
    if (folder_len && self->path.data[folder_len - 1] != '/') eddi_strbuf_putc(&self->path, '/');
    eddi_strbuf_append(&self->path, item->name, item->name_len);
    EddiWalkEntry entry = {
        .rel = self->path.data + self->rel_at,
        .rel_len = self->path.len - self->rel_at,
        .abs = self->path.data,
        .name = self->path.data + self->path.len - item->name_len,
        .depth = depth + 1,
        .st = item->st,
        .is_dir = S_ISDIR(item->st.st_mode),
        .is_link = S_ISLNK(item->st.st_mode),
        .dir_fd = dirfd(dir),
    };
    EddiIgnoreMatch judged = self->options.no_ignore
                                 ? EDDI_IGNORE_NONE
                                 : walk__judge(self, entry.rel, entry.rel_len, entry.is_dir);
    if (judged == EDDI_IGNORE_EXCLUDE) continue;
    if (item->name[0] == '.' && !self->options.hidden && judged != EDDI_IGNORE_INCLUDE) continue;
    /* A symlink is reported when it stays inside the root, and never
     * entered (is_dir is false for it): a link to a folder inside the root
     * would show its files twice, and one outside must not be read. */
    if (entry.is_link && !walk__link_inside(self, &entry.st)) continue;
    int answer = self->visit(self->context, &entry);
    if (answer < 0) rc = answer;
    if (answer < 0 || answer == EDDI_WALK_STOP) {
      self->stopped = true;
      break;
    }
    if (!entry.is_dir || answer == EDDI_WALK_SKIP || self->truncated ||
        depth + 1 >= self->max_depth || walk__on_path(self, &item->st))
      continue;
    int child = openat(dirfd(dir), item->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child >= 0) rc = walk__folder(self, child, depth + 1);
    if (rc < 0) break;
  }
  self->path.len = folder_len;
  self->path.data[folder_len] = '\0';
  walk__pop_folder(self);
  closedir(dir);
  array_free(&items);
  eddi_strbuf_free(&names);
  return rc;
}

int eddi_walk_run(EddiWalk *self, EddiWalkVisit visit, void *context) {
  self->visit = visit;
  self->context = context;
  self->entries_read = 0;
  self->truncated = false;
  self->stopped = false;
  eddi_strbuf_clear(&self->path);
  eddi_strbuf_puts(&self->path, self->root);
  int fd = open(self->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return 0;
  return walk__folder(self, fd, 0);
}
