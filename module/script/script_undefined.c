/* script_undefined.c - what a script's changes break that they did not
 * before: names nothing defines, and syntax errors.
 *
 * A script writes what it says (replace with AccountManager.new(), where
 * no AccountManager exists; new_auth.authenticate in a file that imports
 * only old_auth). That is the script's call, but the reply and Preview
 * say so: every reference of the new text whose name the file does not
 * bind where the reference stands, that the language does not define
 * (language.conf's globals: builtins) and that no reference of the old
 * text looked up unbound either. Languages without a globals list (C,
 * whose headers define most names) and files with a star import (which
 * may define anything) are left out. A syntax error is new when the new
 * text has more than the old one had; each line that has one is named,
 * and the file's names are not judged then. */
#include "script/script_undefined.h"

#include "refactor/scope.h"

/* Whether name is one of lang's globals. */
static bool undefined__global(const EddiLang *lang, const char *name) {
  size_t len = strlen(name);
  for (const char *p = lang->globals; *p;) {
    while (*p == ' ') p++;
    const char *end = p;
    while (*end && *end != ' ') end++;
    if ((size_t)(end - p) == len && memcmp(p, name, len) == 0) return true;
    p = end;
  }
  return false;
}

/* Whether occurrence i of file looks up a name the file does not bind. */
static bool undefined__unbound(const RefFile *file, uint32_t i) {
  const RefOcc *occ = &file->occs.items[i];
  return occ->kind == REF_OCC_NAME && !(occ->flags & (REF_OCC_DEF | REF_OCC_WRITE)) &&
         ref_file_lookup(file, occ->scope, occ->name) == REF_NONE;
}

/* The 0-based line of offset in text. */
static size_t undefined__line(const char *text, size_t len, size_t offset) {
  size_t line = 0;
  for (size_t c = 0; c < offset && c < len; c++) line += text[c] == '\n';
  return line;
}

/* The new references of after to undefined names into problems. */
static void undefined__names(const ScriptChangedText *change, const RefFile *before,
                             const RefFile *after, const RefNames *names,
                             ScriptProblems *problems) {
  const EddiLang *lang = change->lang;
  if (before->stars.len || after->stars.len) return;
  RefMap known = {0}; /* names the old text looked up unbound, or already listed */
  for (uint32_t i = 0; i < before->occs.len; i++)
    if (undefined__unbound(before, i)) ref_map_put(&known, before->occs.items[i].name, 1);
  for (uint32_t i = 0; i < after->occs.len; i++) {
    const RefOcc *occ = &after->occs.items[i];
    if (!undefined__unbound(after, i) || ref_map_get(&known, occ->name) != REF_NONE) continue;
    const char *name = ref_names_str(names, occ->name);
    if (undefined__global(lang, name)) continue;
    ref_map_put(&known, occ->name, 1);
    if (problems->undefined_count++ >= SCRIPT_PROBLEMS_LISTED) continue;
    eddi_strbuf_printf(&problems->undefined, "%s%s:%zu %s", problems->undefined.len ? "; " : "",
                       change->path, undefined__line(change->after, change->after_len, occ->start),
                       name);
  }
  ref_map_free(&known);
}

/* The lines of after's syntax errors, when it has more than before had
 * (the script brought them), into problems; whether it has. */
static bool undefined__syntax(const ScriptChangedText *change, const RefFile *before,
                              const RefFile *after, ScriptProblems *problems) {
  if (after->syntax_errors.len <= before->syntax_errors.len) return false;
  size_t last_line = SIZE_MAX;
  for (size_t i = 0; i < after->syntax_errors.len; i++) {
    size_t line = undefined__line(change->after, change->after_len,
                                  after->syntax_errors.items[i].start);
    if (line == last_line) continue; /* one mention a line */
    last_line = line;
    if (problems->syntax_count++ >= SCRIPT_PROBLEMS_LISTED) continue;
    eddi_strbuf_printf(&problems->syntax, "%s%s:%zu", problems->syntax.len ? ", " : "",
                       change->path, line);
  }
  return true;
}

void script_problems_add(ScriptProblems *problems, const ScriptChangedText *change) {
  const EddiLang *lang = change->lang;
  if (!lang || !lang->locals || !lang->globals) return;
  RefNames names;
  ref_names_init(&names);
  RefFile *before = NULL, *after = NULL;
  EddiError ignored;
  const char *old_text = change->before ? change->before : "";
  const char *new_text = change->after ? change->after : "";
  if (ref_file_analyze(change->path, lang, old_text, change->before_len, &names, &before,
                       &ignored) == 0 &&
      ref_file_analyze(change->path, lang, new_text, change->after_len, &names, &after,
                       &ignored) == 0) {
    /* Around a new syntax error the parser's recovery misreads names:
     * the error is what is said of that file. */
    if (!undefined__syntax(change, before, after, problems))
      undefined__names(change, before, after, &names, problems);
  }
  if (before) ref_file_free(before);
  if (after) ref_file_free(after);
  ref_names_free(&names);
}

/* ", Label: list[ and N more]" when count is not 0. */
static void problems__fact(StrBuf *out, const char *label, const StrBuf *list, size_t count) {
  if (!count) return;
  eddi_strbuf_printf(out, "%s%s: %s", out->len ? ", " : "", label, list->data);
  if (count > SCRIPT_PROBLEMS_LISTED)
    eddi_strbuf_printf(out, " and %zu more", count - SCRIPT_PROBLEMS_LISTED);
}

void script_problems_fact(const ScriptChangedText *changes, size_t count, StrBuf *out) {
  ScriptProblems problems = {0};
  for (size_t i = 0; i < count; i++) script_problems_add(&problems, &changes[i]);
  problems__fact(out, "Undefined", &problems.undefined, problems.undefined_count);
  problems__fact(out, "Syntax errors", &problems.syntax, problems.syntax_count);
  eddi_strbuf_free(&problems.undefined);
  eddi_strbuf_free(&problems.syntax);
}
