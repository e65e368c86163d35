/* file_commands.c - Open, Save, Close, List. */
#include "services/commands.h"

#include <dirent.h>
#include <sys/stat.h>

#include "core/embedded_backend.h"
#include "core/path.h"
#include "core/walk.h"
#include "lang/suggest.h"
#include "services/structure.h"

/* Names of a folder weighed for Open's "Did you mean": all of a folder a
 * person made, a bounded sample of a generated one. */
#define FILE_SUGGEST_NAMES_MAX 1000

typedef Array(char *) NameList;

/* The names in folder dir that are not hidden (only its folders, when
 * asked), bounded: the candidates of a did-you-mean. */
static void file__folder_names(const char *dir, bool folders_only, NameList *names) {
  DIR *listing = opendir(dir);
  for (struct dirent *entry;
       listing && (entry = readdir(listing)) && names->len < FILE_SUGGEST_NAMES_MAX;) {
    if (entry->d_name[0] == '.') continue;
    if (folders_only) {
      char *child = eddi_path_join(dir, entry->d_name);
      struct stat st;
      bool folder = stat(child, &st) == 0 && S_ISDIR(st.st_mode);
      eddi_free(child);
      if (!folder) continue;
    }
    array_push(names, eddi_strdup(entry->d_name));
  }
  if (listing) closedir(listing);
}

static void file__names_free(NameList *names) {
  for (size_t i = 0; i < names->len; i++) eddi_free(names->items[i]);
  array_free(names);
}

/* ---------------------------------------------------------------- Open */

/* Names in the folder of abs_path close to its basename, as a hint. */
static void file__suggest_sibling(CommandContext *ctx, const char *abs_path, const char *rel) {
  char *dir = eddi_strdup(abs_path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  NameList names = {0};
  file__folder_names(dir, false, &names);
  const char *near = eddi_suggest(eddi_path_basename(rel), (const char *const *)names.items,
                                  names.len);
  if (near) {
    size_t dir_len = (size_t)(eddi_path_basename(rel) - rel);
    eddi_error_hint(ctx->err, "Did you mean \"%.*s%s\"", (int)dir_len, rel, near);
  } else {
    eddi_error_hint(ctx->err, "Use \"Open Create %s\" to create it", rel);
  }
  file__names_free(&names);
  eddi_free(dir);
}

static void file__reply_opened(CommandContext *ctx, EddiDoc *doc) {
  eddi_command_fact_cursor(ctx, doc);
  eddi_reply_builder_fact(ctx->reply, "Length %zu", eddi_text_line_count(&doc->text));
}

/* Open Reload of an open document: read it again from disk. */
static int file__reload(CommandContext *ctx, EddiDoc *doc) {
  size_t discarded;
  int rc = eddi_doc_reread(doc, &discarded, ctx->err);
  if (rc < 0) return rc;
  ctx->session->current = doc;
  eddi_reply_builder_fact(ctx->reply, "Reloaded");
  if (discarded)
    eddi_reply_builder_fact(ctx->reply, "Discarded %zu unsaved edit%s", discarded,
                            discarded == 1 ? "" : "s");
  file__reply_opened(ctx, doc);
  return 0;
}

/* What to do about a file Open refuses, where the backend said only what
 * is wrong with it (the reasons are the disk's, core/disk_backend.c). */
static void file__hint_open_refused(CommandContext *ctx, const char *rel) {
  if (ctx->err->hint[0]) return;
  const char *what = ctx->err->what;
  if (strcmp(what, "Is a directory") == 0) {
    eddi_error_set(ctx->err, ctx->err->code, "Is a directory: %s", rel);
    eddi_error_hint(ctx->err, "List %s/ shows what it holds", rel);
  } else if (strncmp(what, "Binary file", strlen("Binary file")) == 0) {
    eddi_error_hint(ctx->err, "eddi edits text files only");
  } else if (strncmp(what, "Not valid UTF-8", strlen("Not valid UTF-8")) == 0) {
    eddi_error_hint(ctx->err, "Convert %s to UTF-8 first (iconv)", rel);
  }
}

int eddi_command_resolve(CommandContext *ctx, const char *input, char **rel, char **abs) {
  int rc = eddi_path_resolve(eddi_workspace_root(ctx->workspace), input, rel, abs, ctx->err);
  if (rc < 0 && !ctx->err->hint[0] && strcmp(ctx->err->what, "Path outside workspace") == 0)
    eddi_error_hint(ctx->err, "Give a path inside the workspace, from its root");
  return rc;
}

int eddi_run_open(CommandContext *ctx) {
  size_t first = 0;
  bool create = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Create");
  bool reload = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Reload");
  if (create || reload) first = 1;
  size_t paths = ctx->argc - first;
  if (paths < 1 || paths > 2) return eddi_command_usage(ctx, "Open needs a file");
  char *input = eddi_command_token_string(&ctx->args[first]);
  if (paths == 2) {
    char *name = eddi_command_token_string(&ctx->args[first + 1]);
    char *joined = eddi_path_join(input, name);
    eddi_free(input), eddi_free(name);
    input = joined;
  }
  char *rel = NULL, *abs = NULL;
  int rc = eddi_command_resolve(ctx, input, &rel, &abs);
  eddi_free(input);
  if (rc < 0) return rc;

  EddiSession *session = ctx->session;
  bool ambiguous;
  EddiDoc *doc = rel[0] ? eddi_session_find_doc(session, rel, &ambiguous) : NULL;
  if (doc && strcmp(doc->path, rel) != 0) doc = NULL; /* a basename match is not this file */
  if (!rel[0]) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL, "Is a directory: .");
    eddi_error_hint(ctx->err, "List shows what it holds");
  } else if (doc && reload) {
    rc = file__reload(ctx, doc);
  } else if (doc) {
    session->current = doc;
    file__reply_opened(ctx, doc);
  } else if (session->docs.len >= eddi_workspace_config(ctx->workspace)->max_open_files) {
    rc = eddi_error_set(ctx->err, EDDI_ETOOBIG, "Too many open files (limit %zu)",
                        eddi_workspace_config(ctx->workspace)->max_open_files);
    eddi_error_hint(ctx->err, "Close some first");
  } else {
    EddiBackend *backend = NULL;
    StrBuf text = {0};
    bool is_new = false;
    EddiDocRequest request = {.rel = rel, .abs = abs, .create = create};
    rc = eddi_workspace_open_backend(ctx->workspace, &request, &backend, &text, &is_new,
                                     ctx->err);
    if (rc == EDDI_ENOENT && !create) {
      eddi_error_set(ctx->err, EDDI_ENOENT, "File not found: %s", rel);
      file__suggest_sibling(ctx, abs, rel);
    } else if (rc < 0) {
      file__hint_open_refused(ctx, rel);
    }
    if (rc == 0) {
      doc = eddi_doc_new_taking(rel, backend, &text, is_new,
                                eddi_workspace_config(ctx->workspace)->undo_groups);
      eddi_embedded_note_opened(doc);
      eddi_session_add_doc(session, doc);
      session->current = doc;
      file__reply_opened(ctx, doc);
    }
    eddi_strbuf_free(&text);
  }
  eddi_free(rel);
  eddi_free(abs);
  return rc;
}

/* ---------------------------------------------------------------- Save, Close */

/* "Candidates a/x.py, b/x.py": the open documents whose base name is base. */
static void file__hint_candidates(CommandContext *ctx, const char *base) {
  StrBuf list = {0};
  for (size_t i = 0; i < ctx->session->docs.len; i++) {
    const char *path = ctx->session->docs.items[i]->path;
    if (strcmp(eddi_path_basename(path), base) == 0)
      eddi_strbuf_printf(&list, "%s%s", list.len ? ", " : "", path);
  }
  eddi_error_hint(ctx->err, "Candidates %s", list.data);
  eddi_strbuf_free(&list);
}

int eddi_command_named_doc(CommandContext *ctx, const Token *name, EddiDoc **doc) {
  EddiSession *session = ctx->session;
  char *path = eddi_command_token_string(name);
  bool ambiguous;
  *doc = eddi_session_find_doc(session, path, &ambiguous);
  if (!*doc && !ambiguous) {
    /* "./a.py" or "src/../a.py" name the same file as "a.py". */
    char *rel = NULL, *abs = NULL;
    EddiError ignored;
    if (eddi_path_resolve(eddi_workspace_root(ctx->workspace), path, &rel, &abs, &ignored) == 0)
      *doc = eddi_session_find_doc(session, rel, &ambiguous);
    eddi_free(rel);
    eddi_free(abs);
  }
  int rc = 0;
  if (!*doc && ambiguous) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL, "Ambiguous file name: %s", path);
    file__hint_candidates(ctx, path);
  } else if (!*doc) {
    rc = eddi_error_set(ctx->err, EDDI_ENOENT, "File not open: %s", path);
  }
  eddi_free(path);
  return rc;
}

/* The open document a Save/Close names (or the current one). */
static int file__target(CommandContext *ctx, const Token *name, EddiDoc **doc) {
  if (name) return eddi_command_named_doc(ctx, name, doc);
  *doc = ctx->session->current;
  if (!*doc) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "No file open");
    eddi_error_hint(ctx->err, "Open one with \"Open <file>\"");
    return EDDI_ESTATE;
  }
  return 0;
}

/* What to do when Save is refused for what happened on disk, where the
 * backend said only what (the disk and the Emacs buffer backends word the
 * refusal alike). */
static void file__hint_save_refused(CommandContext *ctx, const EddiDoc *doc, int rc) {
  if (ctx->err->hint[0]) return;
  if (rc == EDDI_ESTALE && strstr(ctx->err->what, "deleted"))
    eddi_error_hint(ctx->err, "Close %s to let it go, or Diff to see your changes first",
                    doc->path);
  else if (rc == EDDI_ESTALE)
    eddi_error_hint(ctx->err,
                    "Diff shows your changes; Open Reload %s reads the disk's version (your edits "
                    "are discarded)",
                    doc->path);
  else if (strstr(ctx->err->what, "read-only"))
    eddi_error_hint(ctx->err, "Make %s writable, then Save again", doc->path);
}

int eddi_run_save(CommandContext *ctx) {
  bool close = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Close");
  size_t first = close ? 1 : 0;
  if (ctx->argc - first > 1) return eddi_command_usage(ctx, "Save takes at most one file");
  EddiDoc *doc;
  int rc = file__target(ctx, ctx->argc > first ? &ctx->args[first] : NULL, &doc);
  if (rc < 0) return rc;
  if (doc->outside_edits && !eddi_doc_changed_by_commands(doc)) {
    /* The unsaved text is the editor's (typed there before Open): eddi
     * does not write the user's edits. */
    eddi_error_set(ctx->err, EDDI_ESTATE, "No changes of this session to save");
    eddi_error_hint(ctx->err, "The unsaved edits in %s were made in the editor: save them there",
                    doc->path);
    return EDDI_ESTATE;
  }
  if (!eddi_doc_modified(doc)) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "No changes to save");
    if (close) eddi_error_hint(ctx->err, "Use \"Close\" to close it");
    else eddi_error_hint(ctx->err, "%s is as on disk", doc->path);
    return EDDI_ESTATE;
  }
  size_t added, deleted, bytes = 0;
  rc = eddi_command_doc_diff(ctx, doc, &added, &deleted, NULL);
  bool created = doc->is_new;
  /* Summary compares the file's structure with what it was before the
   * session first saved it: keep that on the first save. */
  EddiOutline *before = NULL;
  if (rc == 0 && !eddi_session_saved(ctx->session, doc->path))
    before = eddi_structure_outline_saved(ctx, doc);
  if (rc == 0) {
    rc = eddi_workspace_save_doc(ctx->workspace, doc, &bytes, ctx->err);
    if (rc < 0) file__hint_save_refused(ctx, doc, rc);
  }
  if (rc < 0) {
    eddi_outline_free(before);
    return rc;
  }
  if (doc->save_held) {
    /* Nothing was written: the session keeps the document, modified, so
     * that its edits stay journaled until the review decides. */
    eddi_outline_free(before);
    eddi_reply_builder_fact(ctx->reply, "Held for review");
    if (close) eddi_reply_builder_fact(ctx->reply, "Kept open");
    return 0;
  }
  eddi_session_record_save(ctx->session, doc->path, created, added, deleted, before);
  bool rebased = doc->rebased;
  if (close) {
    eddi_session_close_doc(ctx->session, doc);
    eddi_reply_builder_fact(ctx->reply, "Saved and closed");
  }
  eddi_reply_builder_fact(ctx->reply, "Bytes %zu", bytes);
  /* A change made on disk meanwhile was merged in: the document holds it. */
  if (rebased) eddi_reply_builder_fact(ctx->reply, "Rebased onto a change on disk");
  return 0;
}

int eddi_run_close(CommandContext *ctx) {
  if (ctx->argc > 1) return eddi_command_usage(ctx, "Close takes at most one file");
  EddiDoc *doc;
  int rc = file__target(ctx, ctx->argc ? &ctx->args[0] : NULL, &doc);
  if (rc < 0) return rc;
  bool modified = eddi_doc_modified(doc);
  if (modified && eddi_doc_held(doc)) {
    /* Its editor holds the edits for review: closing would drop them from
     * the journal while the editor keeps them. */
    eddi_reply_builder_fact(ctx->reply, "Held for review");
    eddi_reply_builder_fact(ctx->reply, "Kept open");
    return 0;
  }
  /* Unsaved text that was the editor's before the session changed anything
   * is the editor's still: nothing of the session's is discarded. */
  bool discarded = modified && !(doc->outside_edits && !eddi_doc_changed_by_commands(doc));
  eddi_session_close_doc(ctx->session, doc);
  if (discarded) eddi_reply_builder_fact(ctx->reply, "Unsaved changes discarded");
  return 0;
}

/* ---------------------------------------------------------------- List */

/* What List gathers from the walk (walk.h). */
typedef struct {
  const char *glob;   /* NULL: the listed folder's own entries */
  const char *folder; /* the folder listed, from the walk's root; NULL: the root */
  size_t folder_len;
  const char *prefix; /* put before each reported path (a walk rooted at a folder) */
  bool reached;       /* the walk came to the folder */
  NameList found;
} ListFound;

static void list__add(ListFound *self, const char *rel, bool is_dir) {
  StrBuf name = {0};
  eddi_strbuf_printf(&name, "%s%s%s%s", self->prefix ? self->prefix : "", self->prefix ? "/" : "",
                     rel, is_dir && !self->glob ? "/" : "");
  array_push(&self->found, eddi_strbuf_take(&name));
}

/* Without a glob, one folder's own entries, as ls lists them; with one,
 * the files below it that match it (matched from the folder). A folder
 * asked for is reached by entering only the folders on the way to it. */
static int list__visit(void *context, const EddiWalkEntry *entry) {
  ListFound *list = context;
  const char *inside = entry->rel; /* the path from the listed folder */
  if (list->folder) {
    size_t n = list->folder_len;
    bool below = strncmp(entry->rel, list->folder, n) == 0;
    if (below && entry->rel[n] == '\0') {
      list->reached = true;
      return EDDI_WALK_CONTINUE;
    }
    if (below && entry->rel[n] == '/') {
      inside = entry->rel + n + 1;
    } else {
      bool on_the_way = entry->is_dir && entry->rel_len < n &&
                        strncmp(list->folder, entry->rel, entry->rel_len) == 0 &&
                        list->folder[entry->rel_len] == '/';
      return on_the_way || !entry->is_dir ? EDDI_WALK_CONTINUE : EDDI_WALK_SKIP;
    }
  }
  if (!list->glob) {
    list__add(list, entry->rel, entry->is_dir);
    return entry->is_dir ? EDDI_WALK_SKIP : EDDI_WALK_CONTINUE;
  }
  if (!entry->is_dir && eddi_walk_glob_matches(list->glob, inside)) list__add(list, entry->rel, false);
  return EDDI_WALK_CONTINUE;
}

static int list__compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool list__has_glob_chars(const char *text) { return strpbrk(text, "*?[") != NULL; }

/* Walk root (canonical) for list; false when the entry limit stopped it. */
static bool list__walk(CommandContext *ctx, const char *root, size_t max_depth, ListFound *list) {
  EddiWalkOptions options = {.max_entries = eddi_workspace_config(ctx->workspace)->max_walk_entries,
                             .max_depth = max_depth,
                             .hidden = list->glob && list->glob[0] == '.'};
  EddiWalk *walk = eddi_walk_new(root, &options);
  eddi_walk_run(walk, list__visit, list);
  bool truncated = eddi_walk_truncated(walk);
  eddi_walk_free(walk);
  return !truncated;
}

/* The folder a List argument names: a word without glob characters that
 * ends in '/' or names a folder of the workspace. 1 when it is one (*rel
 * and *abs set, "" for the root), 0 when it is not, or a Fail: a name
 * ending in '/' that is no folder, with the nearest folder beside it. */
static int list__folder(CommandContext *ctx, const char *arg, char **rel, char **abs) {
  if (list__has_glob_chars(arg)) return 0;
  size_t len = strlen(arg);
  bool slash = len > 0 && arg[len - 1] == '/';
  EddiError ignored;
  int rc = slash ? eddi_command_resolve(ctx, arg, rel, abs)
                 : eddi_path_resolve(eddi_workspace_root(ctx->workspace), arg, rel, abs, &ignored);
  if (rc < 0) return slash ? rc : 0;
  struct stat st;
  if (stat(*abs, &st) == 0 && S_ISDIR(st.st_mode)) return 1;
  eddi_free(*rel), eddi_free(*abs);
  *rel = *abs = NULL;
  if (!slash) return 0;
  eddi_error_set(ctx->err, EDDI_ENOENT, "Folder not found: %s", arg);
  /* The nearest folder of the same parent, as a did-you-mean. */
  char *parent = eddi_strndup(arg, len - 1);
  char *cut = strrchr(parent, '/');
  const char *base = cut ? cut + 1 : parent;
  if (cut) *cut = '\0';
  char *parent_rel = NULL, *parent_abs = NULL;
  NameList names = {0};
  if (eddi_path_resolve(eddi_workspace_root(ctx->workspace), cut ? parent : ".", &parent_rel,
                        &parent_abs, &ignored) == 0)
    file__folder_names(parent_abs, true, &names);
  const char *near = eddi_suggest(base, (const char *const *)names.items, names.len);
  if (near) eddi_error_hint(ctx->err, "Did you mean \"%s%s%s/\"", cut ? parent : "", cut ? "/" : "", near);
  else eddi_error_hint(ctx->err, "List shows the folders of the workspace");
  file__names_free(&names);
  eddi_free(parent_rel), eddi_free(parent_abs), eddi_free(parent);
  return EDDI_ENOENT;
}

/* List's options, for telling a misspelt one from a glob. */
static const char *const list__options[] = {"Open", "Count"};

int eddi_run_list(CommandContext *ctx) {
  size_t i = 0;
  bool open_only = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Open");
  bool count_only = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Count");
  if (open_only || count_only) i++;
  char *words[2] = {NULL, NULL}; /* a folder and a glob, or one of them */
  size_t word_count = 0, offset = 0;
  while (i < ctx->argc && ctx->args[i].kind != TOKEN_INT && word_count < 2)
    words[word_count++] = eddi_command_token_string(&ctx->args[i++]);
  if (i < ctx->argc && ctx->args[i].kind == TOKEN_INT) offset = (size_t)ctx->args[i++].first;
  char *folder_rel = NULL, *folder_abs = NULL;
  int rc = 0;
  if (i < ctx->argc || (open_only && word_count == 2))
    rc = eddi_command_usage(ctx, "List takes [Open|Count] [<folder>/] [<glob>] [<offset>]");
  if (rc == 0 && word_count && !open_only) {
    rc = list__folder(ctx, words[0], &folder_rel, &folder_abs);
    if (rc == 0 && word_count == 2) {
      eddi_error_set(ctx->err, EDDI_EINVAL, "Not a folder: %s", words[0]);
      eddi_error_hint(ctx->err, "List <folder>/ <glob> lists a folder's files that match");
      rc = EDDI_EINVAL;
    }
  }
  if (rc < 0) {
    eddi_free(words[0]), eddi_free(words[1]);
    return rc;
  }
  bool in_folder = rc == 1;
  rc = 0;
  const char *glob = in_folder ? words[1] : words[0];

  ListFound list = {.glob = glob};
  size_t limit = eddi_workspace_config(ctx->workspace)->max_walk_entries;
  bool truncated = false;
  if (open_only) {
    for (size_t k = 0; k < ctx->session->docs.len; k++) {
      const char *path = ctx->session->docs.items[k]->path;
      if (!glob || eddi_walk_glob_matches(glob, path)) array_push(&list.found, eddi_strdup(path));
    }
    if (list.found.len) qsort(list.found.items, list.found.len, sizeof(char *), list__compare);
  } else if (in_folder && folder_rel[0]) {
    /* From the root, so the ignore rules above the folder apply; a folder
     * they leave out (or a hidden one) is listed from itself when asked
     * for by name. The walk's order is strcmp order of what is listed. */
    list.folder = folder_rel, list.folder_len = strlen(folder_rel);
    truncated = !list__walk(ctx, eddi_workspace_root(ctx->workspace), 0, &list);
    if (!list.reached && !truncated) {
      list.folder = NULL, list.prefix = folder_rel;
      truncated = !list__walk(ctx, folder_abs, glob ? 0 : 1, &list);
    }
  } else {
    /* Without a glob, the root's own entries; hidden ones only when the
     * glob asks for them by starting with '.'. */
    truncated = !list__walk(ctx, eddi_workspace_root(ctx->workspace), glob ? 0 : 1, &list);
  }

  size_t total = list.found.len, page = eddi_workspace_config(ctx->workspace)->page_size;
  const char *noun = open_only ? "open files" : "files";
  /* A lone word that matched nothing and is near an option was meant as one. */
  const char *option = total == 0 && !in_folder && !open_only && !count_only && word_count == 1 &&
                               ctx->args[0].kind == TOKEN_WORD && !strpbrk(glob, "*?[/.")
                           ? eddi_suggest(glob, list__options, 2)
                           : NULL;
  if (option) {
    eddi_error_set(ctx->err, EDDI_EINVAL, "Unknown List option %s", glob);
    eddi_error_hint(ctx->err, "Did you mean \"%s\"", option);
    rc = EDDI_EINVAL;
  } else if (count_only) {
    eddi_reply_builder_payload(ctx->reply, "%zu %s", total, total == 1 ? "file" : "files");
  } else if (total == 0) {
    eddi_reply_builder_payload(ctx->reply, "No %s", noun);
  } else if (offset >= total) {
    eddi_reply_builder_payload(ctx->reply, "No %s past offset %zu (%zu in all)", noun, offset, total);
  } else {
    size_t end = EDDI_MIN(total, offset + page);
    StrBuf names = {0};
    for (size_t k = offset; k < end; k++) {
      if (k > offset) eddi_strbuf_puts(&names, ", ");
      eddi_reply_name(&names, list.found.items[k]);
    }
    eddi_reply_builder_payload(ctx->reply, "%s", names.data);
    eddi_strbuf_free(&names);
    if (end < total) eddi_reply_builder_fact(ctx->reply, "Shown %zu of %zu, Next offset %zu", end - offset, total, end);
  }
  if (rc == 0 && truncated) eddi_reply_builder_fact(ctx->reply, "Stopped after %zu entries", limit);
  for (size_t k = 0; k < list.found.len; k++) eddi_free(list.found.items[k]);
  array_free(&list.found);
  eddi_free(words[0]), eddi_free(words[1]);
  eddi_free(folder_rel), eddi_free(folder_abs);
  return rc;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec file_commands[] = {
    {"Open", "Open [Create|Reload] [<dir>] <file>",
     "open a file (Create: new if missing; Reload: read it again, unsaved edits dropped)",
     CMD_SESSION | CMD_READ_ONLY,
     eddi_run_open},
    {"Save", "Save [Close] [<file>]", "write the file", CMD_SESSION, eddi_run_save},
    {"Close", "Close [<file>]", "close without saving", CMD_SESSION | CMD_READ_ONLY, eddi_run_close},
    {"List", "List [Open|Count] [<folder>/] [<glob>] [<offset>]", "files in the workspace", CMD_SESSION | CMD_READ_ONLY,
     eddi_run_list},
};
COMMAND_GROUP(eddi_file_commands, file_commands);
