/* script_undefined.c - the names a script's changes bring in that nothing
 * defines.
 *
 * A script writes what it says (replace with AccountManager.new(), where
 * no AccountManager exists; new_auth.authenticate in a file that imports
 * only old_auth). That is the script's call, but the reply and Preview
 * say so: every reference of the new text whose name the file does not
 * bind where the reference stands, that the language does not define
 * (language.conf's globals: builtins) and that no reference of the old
 * text looked up unbound either. Languages without a globals list (C,
 * whose headers define most names) and files with a star import (which
 * may define anything) are left out. */
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

size_t script_undefined_names(const ScriptChangedText *change, StrBuf *out, size_t max) {
  const EddiLang *lang = change->lang;
  if (!lang || !lang->locals || !lang->globals) return 0;
  RefNames names;
  ref_names_init(&names);
  RefFile *before = NULL, *after = NULL;
  EddiError ignored;
  size_t found = 0;
  const char *old_text = change->before ? change->before : "";
  const char *new_text = change->after ? change->after : "";
  if (ref_file_analyze(change->path, lang, old_text, change->before_len, &names, &before,
                       &ignored) == 0 &&
      ref_file_analyze(change->path, lang, new_text, change->after_len, &names, &after,
                       &ignored) == 0 &&
      !before->stars.len && !after->stars.len) {
    RefMap known = {0}; /* names the old text looked up unbound, or already listed */
    for (uint32_t i = 0; i < before->occs.len; i++)
      if (undefined__unbound(before, i)) ref_map_put(&known, before->occs.items[i].name, 1);
    for (uint32_t i = 0; i < after->occs.len; i++) {
      const RefOcc *occ = &after->occs.items[i];
      if (!undefined__unbound(after, i) || ref_map_get(&known, occ->name) != REF_NONE) continue;
      const char *name = ref_names_str(&names, occ->name);
      if (undefined__global(lang, name)) continue;
      ref_map_put(&known, occ->name, 1);
      if (found++ >= max) continue;
      size_t line = 0;
      for (size_t c = 0; c < occ->start && c < change->after_len; c++)
        line += new_text[c] == '\n';
      eddi_strbuf_printf(out, "%s%s:%zu %s", out->len ? "; " : "", change->path, line, name);
    }
    ref_map_free(&known);
  }
  if (before) ref_file_free(before);
  if (after) ref_file_free(after);
  ref_names_free(&names);
  return found;
}

void script_undefined_fact(const ScriptChangedText *changes, size_t count, StrBuf *out) {
  StrBuf list = {0};
  size_t found = 0;
  for (size_t i = 0; i < count; i++) {
    size_t left = found < SCRIPT_UNDEFINED_LISTED ? SCRIPT_UNDEFINED_LISTED - found : 0;
    found += script_undefined_names(&changes[i], &list, left);
  }
  if (found) {
    eddi_strbuf_printf(out, "Undefined: %s", list.data);
    if (found > SCRIPT_UNDEFINED_LISTED)
      eddi_strbuf_printf(out, " and %zu more", found - SCRIPT_UNDEFINED_LISTED);
  }
  eddi_strbuf_free(&list);
}
