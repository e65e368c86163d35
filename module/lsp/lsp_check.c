/* lsp_check.c - see lsp_check.h. */
#include "lsp/lsp_check.h"

#include <ctype.h>

#include "core/path.h"
#include "core/utf8.h"
#include "syntax/syntax.h"

bool eddi_lsp_check_init(EddiLspCheck *self, EddiWorkspace *workspace, EddiSession *session) {
  memset(self, 0, sizeof *self);
  /* By name: loading every language to ask for its server would compile
   * every query, seconds of work for a script that changes nothing. */
  for (size_t i = 0, count = eddi_lang_count(); i < count; i++) {
    const char *lang = eddi_lang_name(i);
    EddiLspServer *server = eddi_lsp_for_language(workspace, session, lang);
    if (server) array_push(&self->servers, ((EddiLspServing){lang, server}));
  }
  return self->servers.len > 0;
}

void eddi_lsp_check_free(EddiLspCheck *self) { array_free(&self->servers); }

static EddiLspServer *check__server(const EddiLspCheck *self, const char *lang) {
  for (size_t i = 0; lang && i < self->servers.len; i++)
    if (strcmp(self->servers.items[i].lang, lang) == 0) return self->servers.items[i].server;
  return NULL;
}

bool eddi_lsp_check_covers(const EddiLspCheck *self, const char *lang) {
  return check__server(self, lang) != NULL;
}

/* message with every whole-word new_name read as old_name (new string). */
static char *check__as_before(const char *message, const char *old_name, const char *new_name) {
  if (!old_name || !new_name || !*new_name) return eddi_strdup(message);
  size_t len = strlen(new_name);
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "");
  for (const char *p = message; *p;) {
    bool starts = strncmp(p, new_name, len) == 0 &&
                  (p == message || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
                  !(isalnum((unsigned char)p[len]) || p[len] == '_');
    if (starts) eddi_strbuf_puts(&out, old_name), p += len;
    else eddi_strbuf_putc(&out, *p++);
  }
  return eddi_strbuf_take(&out);
}

/* What one server makes of its files: the texts before and after, and
 * each list's diagnostics; before_of[k] (after_of[k]) is the index in
 * files of before's (after's) text k. */
typedef struct {
  EddiLspServer *server;
  Array(EddiLspText) before, after;
  Array(size_t) before_of, after_of;
  EddiLspDiagnostics before_diags, after_diags;
  Array(char *) paths; /* absolute paths, owned */
} CheckGroup;

static void check__group_free(CheckGroup *self) {
  array_free(&self->before);
  array_free(&self->after);
  array_free(&self->before_of);
  array_free(&self->after_of);
  eddi_lsp_diagnostics_free(&self->before_diags);
  eddi_lsp_diagnostics_free(&self->after_diags);
  for (size_t i = 0; i < self->paths.len; i++) eddi_free(self->paths.items[i]);
  array_free(&self->paths);
}

static const char *check__abs(CheckGroup *self, const char *root, const char *path) {
  array_push(&self->paths, eddi_path_join(root, path));
  return *array_back(&self->paths);
}

/* The group's texts: the changed files first, then the files shown for
 * what they use, so that a server has every change when it opens those. */
static void check__collect(CheckGroup *self, const char *root, const EddiLspPlanned *files,
                           size_t count, const EddiLspCheck *check) {
  for (int unchanged = 0; unchanged < 2; unchanged++)
    for (size_t i = 0; i < count; i++) {
      const EddiLspPlanned *f = &files[i];
      if (check__server(check, f->lang) != self->server) continue;
      bool same = f->before && f->after && f->before_len == f->after_len &&
                  memcmp(f->before, f->after, f->before_len) == 0;
      if (same != (unchanged == 1)) continue;
      const char *abs = check__abs(self, root, f->path);
      if (f->before) {
        array_push(&self->before, ((EddiLspText){abs, f->before, f->before_len}));
        array_push(&self->before_of, i);
      }
      if (f->after) {
        array_push(&self->after, ((EddiLspText){abs, f->after, f->after_len}));
        array_push(&self->after_of, i);
      }
    }
}

/* A rename's places that the server would change and the plan does not,
 * listed into list (up to EDDI_LSP_CHECK_LIST_MAX); how many. */
static size_t check__missed(const CheckGroup *self, const char *root, const EddiLspPlanned *files,
                            const EddiLspEdits *edits, size_t old_len, StrBuf *list) {
  size_t found = 0, root_len = strlen(root);
  for (size_t i = 0; i < edits->len; i++) {
    const EddiLspEdit *e = &edits->items[i];
    const EddiLspPlanned *file = NULL;
    for (size_t k = 0; k < self->before.len && !file; k++)
      if (strcmp(self->before.items[k].path, e->path) == 0) file = &files[self->before_of.items[k]];
    bool planned = false;
    for (size_t k = 0; file && e->open && k < file->renamed_count && !planned; k++)
      planned = e->offset >= file->renamed[k] && e->offset <= file->renamed[k] + old_len;
    if (planned) continue;
    const char *shown = file ? file->path : e->path;
    if (!file && strncmp(e->path, root, root_len) == 0 && e->path[root_len] == '/')
      shown = e->path + root_len + 1;
    if (found++ >= EDDI_LSP_CHECK_LIST_MAX) continue;
    eddi_strbuf_printf(list, "%s%s:%zu", found > 1 ? ", " : "", shown, e->line);
    if (file && e->open) {
      size_t line, col;
      eddi_utf8_line_col(file->before, file->before_len, EDDI_MIN(e->offset, file->before_len),
                         &line, &col);
      eddi_strbuf_printf(list, ":%zu", col);
    }
  }
  return found;
}

/* Ask the server for its rename at the plan's first renamed place (the
 * texts before are open in it), and list what it would change besides. */
static int check__rename(CheckGroup *self, const char *root, const EddiLspPlanned *files,
                         const char *old_name, const char *new_name, StrBuf *said,
                         StrBuf *refusal, bool *missed_any, EddiError *err) {
  const char *at = NULL;
  size_t offset = 0;
  for (size_t k = 0; k < self->before.len && !at; k++) {
    const EddiLspPlanned *f = &files[self->before_of.items[k]];
    if (f->renamed_count) at = self->before.items[k].path, offset = f->renamed[0];
  }
  if (!at) return 0;
  EddiLspEdits edits = {0};
  const char *name = eddi_lsp_server_name(self->server);
  int rc = eddi_lsp_server_rename(self->server, at, offset, new_name, &edits, err);
  if (rc == EDDI_ESTATE) {
    /* It answered that it will not rename there: nothing to compare. */
    eddi_strbuf_printf(said, "\nNo rename from %s to compare", name);
    eddi_error_clear(err);
    rc = 0;
  } else if (rc == 0) {
    StrBuf list = {0};
    size_t missed = check__missed(self, root, files, &edits, strlen(old_name), &list);
    if (missed) {
      *missed_any = true;
      eddi_strbuf_printf(refusal, "%s%s would also rename %s", refusal->len ? "; " : "", name,
                         list.data);
      if (missed > EDDI_LSP_CHECK_LIST_MAX)
        eddi_strbuf_printf(refusal, " and %zu more", missed - EDDI_LSP_CHECK_LIST_MAX);
    }
    eddi_strbuf_free(&list);
  }
  eddi_lsp_edits_free(&edits);
  return rc < 0 ? rc : 0;
}

/* The errors after that the file did not have before, listed into list
 * (up to EDDI_LSP_CHECK_LIST_MAX); how many. */
static size_t check__new_errors(CheckGroup *self, const EddiLspPlanned *files,
                                const char *old_name, const char *new_name, StrBuf *list) {
  size_t count = self->before_diags.len;
  bool *used = eddi_calloc(count + 1, sizeof *used);
  size_t found = 0;
  for (size_t i = 0; i < self->after_diags.len; i++) {
    const EddiLspDiagnostic *d = &self->after_diags.items[i];
    if (d->severity != EDDI_LSP_ERROR) continue;
    size_t file = self->after_of.items[d->text];
    char *message = check__as_before(d->message, old_name, new_name);
    bool had = false;
    for (size_t k = 0; k < count && !had; k++) {
      const EddiLspDiagnostic *b = &self->before_diags.items[k];
      if (used[k] || b->severity != EDDI_LSP_ERROR || self->before_of.items[b->text] != file ||
          strcmp(b->message, message) != 0)
        continue;
      used[k] = had = true;
    }
    eddi_free(message);
    if (had) continue;
    if (found++ < EDDI_LSP_CHECK_LIST_MAX)
      eddi_strbuf_printf(list, "%s%s:%zu:%zu: %.120s", found > 1 ? ", " : "", files[file].path,
                         d->line, d->col, d->message);
  }
  eddi_free(used);
  return found;
}

/* A file the server would read from disk rather than as shown, so that
 * its view of the plan would be wrong, or NULL: one the plan makes or
 * deletes (servers find imported and included files on disk), and for
 * clangd a header the plan changes (clangd 14 builds a file with the
 * headers it includes as they are on disk). */
static const char *check__from_disk(const CheckGroup *group, const EddiLspPlanned *files) {
  for (size_t i = 0; i < group->before_of.len; i++) {
    const EddiLspPlanned *f = &files[group->before_of.items[i]];
    if (!f->after) return f->path;
  }
  for (size_t i = 0; i < group->after_of.len; i++)
    if (!files[group->after_of.items[i]].before) return files[group->after_of.items[i]].path;
  if (strcmp(eddi_lsp_server_name(group->server), "clangd") != 0) return NULL;
  static const char *const headers[] = {".h", ".hh", ".hpp", ".hxx", ".inc"};
  for (size_t i = 0; i < group->after_of.len; i++) {
    const EddiLspPlanned *f = &files[group->after_of.items[i]];
    const char *dot = strrchr(f->path, '.');
    bool same = f->before_len == f->after_len && memcmp(f->before, f->after, f->before_len) == 0;
    for (size_t k = 0; dot && !same && k < sizeof headers / sizeof headers[0]; k++)
      if (strcmp(dot, headers[k]) == 0) return f->path;
  }
  return NULL;
}

int eddi_lsp_check_run(const EddiLspCheck *self, const char *root, const EddiLspPlanned *files,
                       size_t count, const char *old_name, const char *new_name,
                       const char *skip, const char *rename_way, StrBuf *said, EddiError *err) {
  StrBuf refusal = {0};
  bool missed = false; /* a server's rename changes places the plan does not */
  int rc = 0;
  for (size_t s = 0; rc == 0 && s < self->servers.len; s++) {
    EddiLspServer *server = self->servers.items[s].server;
    bool earlier = false; /* c and cpp may share one server */
    for (size_t k = 0; k < s; k++) earlier |= self->servers.items[k].server == server;
    if (earlier) continue;
    CheckGroup group = {.server = server};
    check__collect(&group, root, files, count, self);
    /* When the texts after cannot be shown as they are, the texts before
     * are still the disk's, so a rename is still compared. */
    const char *header = check__from_disk(&group, files);
    bool rename = old_name && new_name;
    const char *name = eddi_lsp_server_name(server);
    if (header && !rename) {
      eddi_strbuf_printf(said, "%sNot checked by %s: it reads %s from disk, not as planned",
                         said->len ? "\n" : "", name, header);
      for (size_t i = 0; i < group.paths.len; i++) eddi_lsp_server_forget(server, group.paths.items[i]);
    } else if (group.after.len || group.before.len) {
      if (header)
        eddi_strbuf_printf(said, "%sRename checked by %s, not its diagnostics: it reads %s from "
                           "disk, not as planned", said->len ? "\n" : "", name, header);
      else
        eddi_strbuf_printf(said, "%sChecked by %s", said->len ? "\n" : "", name);
      /* The texts before are opened (a check closes what it showed) or
       * already open as they are: no second showing is needed. */
      rc = eddi_lsp_server_diagnose(server, group.before.items, group.before.len, EDDI_LSP_QUIET,
                                    &group.before_diags, err);
      if (rc == 0 && rename)
        rc = check__rename(&group, root, files, old_name, new_name, said, &refusal, &missed, err);
      if (rc == 0 && !header)
        rc = eddi_lsp_server_diagnose(server, group.after.items, group.after.len,
                                      EDDI_LSP_SETTLE | EDDI_LSP_CLOSE, &group.after_diags, err);
      if (header)
        for (size_t i = 0; i < group.paths.len; i++) eddi_lsp_server_forget(server, group.paths.items[i]);
      if (rc < 0) {
        /* Its opinion is unknown: the check is unsure. */
        char what[EDDI_ERROR_MAX];
        snprintf(what, sizeof what, "%s", err->what);
        eddi_error_set(err, EDDI_EIO, "%s; the check of the planned write is unsure, nothing written",
                       what);
        eddi_error_hint(err, "Try again, give %s a longer --lsp-deadline, or add %s to write "
                        "without its check", eddi_lsp_server_name(server), skip);
        rc = err->code;
        /* Nothing of this check stays open in the server. */
        for (size_t i = 0; i < group.paths.len; i++) eddi_lsp_server_forget(server, group.paths.items[i]);
      }
    }
    if (rc == 0 && !header) {
      StrBuf list = {0};
      size_t found = check__new_errors(&group, files, old_name, new_name, &list);
      if (found) {
        eddi_strbuf_printf(&refusal, "%s%s: ", refusal.len ? "; " : "", eddi_lsp_server_name(server));
        if (found > 1) eddi_strbuf_printf(&refusal, "%zu new errors, ", found);
        eddi_strbuf_puts(&refusal, list.data);
        if (found > EDDI_LSP_CHECK_LIST_MAX)
          eddi_strbuf_printf(&refusal, " and %zu more", found - EDDI_LSP_CHECK_LIST_MAX);
      }
      eddi_strbuf_free(&list);
    }
    check__group_free(&group);
  }
  if (rc == 0 && refusal.len) {
    eddi_error_set(err, EDDI_ESTATE, "%s; nothing written", refusal.data);
    if (missed)
      eddi_error_hint(err, "%s, or %s to write anyway",
                      rename_way ? rename_way : "Add Unsure to rename the unsure references too", skip);
    else
      eddi_error_hint(err, "Change the plan so that it leaves no new error, or add %s to write "
                      "anyway", skip);
    rc = err->code;
  }
  eddi_strbuf_free(&refusal);
  return rc;
}
