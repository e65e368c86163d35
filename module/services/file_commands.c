/* file_commands.c - Open, Save, Close, List. */
#include "lang/command.h"

#include <dirent.h>

#include "core/path.h"
#include "core/walk.h"
#include "lang/suggest.h"

/* Names of a folder weighed for Open's "Did you mean": all of a folder a
 * person made, a bounded sample of a generated one. */
#define FILE_SUGGEST_NAMES_MAX 1000

/* ---------------------------------------------------------------- Open */

/* Names in the folder of abs_path close to its basename, as a hint. */
static void file__suggest_sibling(CommandContext *ctx, const char *abs_path, const char *rel) {
  char *dir = eddi_strdup(abs_path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  DIR *listing = opendir(dir);
  Array(char *) names = {0};
  for (struct dirent *entry;
       listing && (entry = readdir(listing)) && names.len < FILE_SUGGEST_NAMES_MAX;)
    if (entry->d_name[0] != '.') array_push(&names, eddi_strdup(entry->d_name));
  if (listing) closedir(listing);
  const char *near = eddi_suggest(eddi_path_basename(rel), (const char *const *)names.items,
                                  names.len);
  if (near) {
    size_t dir_len = (size_t)(eddi_path_basename(rel) - rel);
    eddi_error_hint(ctx->err, "Did you mean \"%.*s%s\"", (int)dir_len, rel, near);
  } else {
    eddi_error_hint(ctx->err, "Use \"Open Create %s\" to create it", rel);
  }
  for (size_t i = 0; i < names.len; i++) eddi_free(names.items[i]);
  array_free(&names);
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
  int rc = eddi_path_resolve(ctx->engine->root, input, &rel, &abs, ctx->err);
  eddi_free(input);
  if (rc < 0) return rc;

  EddiSession *session = ctx->session;
  bool ambiguous;
  EddiDoc *doc = rel[0] ? eddi_session_find_doc(session, rel, &ambiguous) : NULL;
  if (doc && strcmp(doc->path, rel) != 0) doc = NULL; /* a basename match is not this file */
  if (!rel[0]) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL, "Is a directory");
  } else if (doc && reload) {
    rc = file__reload(ctx, doc);
  } else if (doc) {
    session->current = doc;
    file__reply_opened(ctx, doc);
  } else if (session->docs.len >= ctx->engine->config.max_open_files) {
    rc = eddi_error_set(ctx->err, EDDI_ETOOBIG, "Too many open files (limit %zu)",
                        ctx->engine->config.max_open_files);
    eddi_error_hint(ctx->err, "Close some first");
  } else {
    EddiBackend *backend = NULL;
    StrBuf text = {0};
    bool is_new = false;
    rc = ctx->engine->open_backend(ctx->engine->open_backend_context, abs, rel, create,
                                   ctx->engine->config.max_file_bytes, &backend, &text,
                                   &is_new, ctx->err);
    if (rc == EDDI_ENOENT && !create) {
      eddi_error_set(ctx->err, EDDI_ENOENT, "File not found: %s", rel);
      file__suggest_sibling(ctx, abs, rel);
    }
    if (rc == 0) {
      doc = eddi_doc_new(rel, backend, text.data ? text.data : "", text.len, is_new,
                         ctx->engine->config.undo_groups);
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

/* The open document a Save/Close names (or the current one). */
static int file__target(CommandContext *ctx, const Token *name, EddiDoc **doc) {
  EddiSession *session = ctx->session;
  if (!name) {
    *doc = session->current;
    if (!*doc) {
      eddi_error_set(ctx->err, EDDI_ESTATE, "No file open");
      eddi_error_hint(ctx->err, "Open one with \"Open <file>\"");
      return EDDI_ESTATE;
    }
    return 0;
  }
  char *path = eddi_command_token_string(name);
  bool ambiguous;
  *doc = eddi_session_find_doc(session, path, &ambiguous);
  if (!*doc) {
    /* "./a.py" or "src/../a.py" name the same file as "a.py". */
    char *rel = NULL, *abs = NULL;
    EddiError ignored;
    if (eddi_path_resolve(ctx->engine->root, path, &rel, &abs, &ignored) == 0)
      *doc = eddi_session_find_doc(session, rel, &ambiguous);
    eddi_free(rel);
    eddi_free(abs);
  }
  int rc = 0;
  if (!*doc && ambiguous) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL, "Ambiguous file name: %s", path);
    eddi_error_hint(ctx->err, "Give its path from the workspace root");
  } else if (!*doc) {
    rc = eddi_error_set(ctx->err, EDDI_ENOENT, "File not open: %s", path);
  }
  eddi_free(path);
  return rc;
}

int eddi_run_save(CommandContext *ctx) {
  bool close = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Close");
  size_t first = close ? 1 : 0;
  if (ctx->argc - first > 1) return eddi_command_usage(ctx, "Save takes at most one file");
  EddiDoc *doc;
  int rc = file__target(ctx, ctx->argc > first ? &ctx->args[first] : NULL, &doc);
  if (rc < 0) return rc;
  if (!eddi_doc_modified(doc)) {
    eddi_error_set(ctx->err, EDDI_ESTATE, "No changes to save");
    if (close) eddi_error_hint(ctx->err, "Use \"Close\" to close it");
    return EDDI_ESTATE;
  }
  size_t added, deleted, bytes = 0;
  rc = eddi_command_doc_diff(ctx, doc, &added, &deleted, NULL);
  bool created = doc->is_new;
  if (rc == 0) rc = eddi_doc_save(doc, &bytes, ctx->err);
  if (rc < 0) return rc;
  eddi_session_record_save(ctx->session, doc->path, created, added, deleted);
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
  bool discarded = eddi_doc_modified(doc);
  eddi_session_close_doc(ctx->session, doc);
  if (discarded) eddi_reply_builder_fact(ctx->reply, "Unsaved changes discarded");
  return 0;
}

/* ---------------------------------------------------------------- List */

typedef Array(char *) NameList;

/* What List gathers from the walk (walk.h). */
typedef struct {
  const char *glob; /* NULL: the root folder only */
  NameList found;
} ListFound;

static int list__visit(void *context, const EddiWalkEntry *entry) {
  ListFound *list = context;
  if (!list->glob) {
    /* Folders end in '/' so a model can tell them from files. */
    StrBuf name = {0};
    eddi_strbuf_printf(&name, "%s%s", entry->rel, entry->is_dir ? "/" : "");
    array_push(&list->found, eddi_strbuf_take(&name));
  } else if (!entry->is_dir && eddi_walk_glob_matches(list->glob, entry->rel)) {
    array_push(&list->found, eddi_strdup(entry->rel));
  }
  return EDDI_WALK_CONTINUE;
}

static int list__compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int eddi_run_list(CommandContext *ctx) {
  size_t i = 0;
  bool open_only = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Open");
  bool count_only = ctx->argc > 0 && eddi_token_is(&ctx->args[0], "Count");
  if (open_only || count_only) i++;
  char *glob = NULL;
  size_t offset = 0;
  if (i < ctx->argc && ctx->args[i].kind != TOKEN_INT) glob = eddi_command_token_string(&ctx->args[i++]);
  if (i < ctx->argc && ctx->args[i].kind == TOKEN_INT) offset = (size_t)ctx->args[i++].first;
  if (i < ctx->argc) {
    eddi_free(glob);
    return eddi_command_usage(ctx, "List takes [Open|Count] [<glob>] [<offset>]");
  }

  ListFound list = {.glob = glob};
  size_t limit = ctx->engine->config.max_walk_entries;
  bool truncated = false;
  if (open_only) {
    for (size_t k = 0; k < ctx->session->docs.len; k++) {
      const char *path = ctx->session->docs.items[k]->path;
      if (!glob || eddi_walk_glob_matches(glob, path)) array_push(&list.found, eddi_strdup(path));
    }
    if (list.found.len) qsort(list.found.items, list.found.len, sizeof(char *), list__compare);
  } else {
    /* Without a glob, the root's own entries; hidden ones only when the
     * glob asks for them by starting with '.'. The walk's order is
     * already strcmp order of what is listed. */
    EddiWalkOptions options = {.max_entries = limit, .max_depth = glob ? 0 : 1,
                               .hidden = glob && glob[0] == '.'};
    EddiWalk *walk = eddi_walk_new(ctx->engine->root, &options);
    eddi_walk_run(walk, list__visit, &list);
    truncated = eddi_walk_truncated(walk);
    eddi_walk_free(walk);
  }

  size_t total = list.found.len, page = ctx->engine->config.page_size;
  const char *noun = open_only ? "open files" : "files";
  if (count_only) {
    eddi_reply_builder_payload(ctx->reply, "%zu %s", total, total == 1 ? "file" : "files");
  } else if (total == 0) {
    eddi_reply_builder_payload(ctx->reply, "No %s", noun);
  } else if (offset >= total) {
    eddi_reply_builder_payload(ctx->reply, "No %s past offset %zu (%zu in all)", noun, offset, total);
  } else {
    size_t end = EDDI_MIN(total, offset + page);
    for (size_t k = offset; k < end; k++)
      eddi_reply_builder_payload(ctx->reply, "%s%s", k > offset ? ", " : "", list.found.items[k]);
    if (end < total) eddi_reply_builder_fact(ctx->reply, "Shown %zu of %zu, Next offset %zu", end - offset, total, end);
  }
  if (truncated) eddi_reply_builder_fact(ctx->reply, "Stopped after %zu entries", limit);
  for (size_t k = 0; k < list.found.len; k++) eddi_free(list.found.items[k]);
  array_free(&list.found);
  eddi_free(glob);
  return 0;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec file_commands[] = {
    {"Open", "Open [Create|Reload] [<dir>] <file>",
     "open a file (Create: new if missing; Reload: read it again, unsaved edits dropped)",
     CMD_SESSION | CMD_READ_ONLY,
     eddi_run_open},
    {"Save", "Save [Close] [<file>]", "write the file", CMD_SESSION, eddi_run_save},
    {"Close", "Close [<file>]", "close without saving", CMD_SESSION | CMD_READ_ONLY, eddi_run_close},
    {"List", "List [Open|Count] [<glob>] [<offset>]", "files in the workspace", CMD_SESSION | CMD_READ_ONLY,
     eddi_run_list},
};
COMMAND_GROUP(eddi_file_commands, file_commands);
