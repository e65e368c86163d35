/* modules_js.c - JavaScript and TypeScript import paths; see modules.h.
 *
 * Node's and TypeScript's rules for a relative specifier, as far as they
 * are about files of the workspace: "./a" is a, a.js, a.ts ... (the
 * extensions of every language whose modules are "paths", the importing
 * file's own first), or the folder a's index file; "./a.js" may also be
 * a.ts, which TypeScript compiles to it. A bare specifier ("lodash",
 * "node:fs") is a package outside the workspace. */
#include "refactor/modules.h"

/* The file at base + suffix + ext for an extension of a "paths"
 * language, the importing file's language first, or REF_NONE. */
static uint32_t modules_js__with_extension(RefProgram *program, const EddiLang *own,
                                           const StrBuf *base, const char *suffix) {
  size_t count;
  const EddiLang *all = eddi_lang_all(&count);
  StrBuf path = {0};
  uint32_t found = REF_NONE;
  for (size_t pass = 0; pass < 2 && found == REF_NONE; pass++)
    for (size_t i = 0; i < count && found == REF_NONE; i++) {
      const EddiLang *lang = &all[i];
      if ((pass == 0) != (lang == own) || ref_modules_kind(lang) != REF_MODULES_PATHS) continue;
      for (size_t k = 0; k < EDDI_LANG_LIST_MAX && lang->extensions[k] && found == REF_NONE;
           k++) {
        eddi_strbuf_clear(&path);
        eddi_strbuf_printf(&path, "%s%s%s", base->data, suffix, lang->extensions[k]);
        found = ref_modules_file(program, path.data, path.len);
      }
    }
  eddi_strbuf_free(&path);
  return found;
}

uint32_t ref_modules_js_file(RefProgram *program, uint32_t file, uint32_t path) {
  const char *spec = ref_names_str(program->names, path);
  bool relative = strncmp(spec, "./", 2) == 0 || strncmp(spec, "../", 3) == 0 ||
                  strcmp(spec, ".") == 0 || strcmp(spec, "..") == 0;
  if (!relative) return REF_NONE;
  const RefFile *from = program->files.items[file];
  const char *slash = strrchr(from->path, '/');
  StrBuf base = {0};
  uint32_t found = REF_NONE;
  if (ref_modules_join(from->path, slash ? (size_t)(slash - from->path) : 0, spec, &base)) {
    found = ref_modules_file(program, base.data, base.len);
    if (found == REF_NONE) found = modules_js__with_extension(program, from->lang, &base, "");
    /* The workspace's root folder (".." from a folder of it) has no
     * slash before its index file. */
    if (found == REF_NONE)
      found = modules_js__with_extension(program, from->lang, &base, base.len ? "/index" : "index");
    /* "./a.js" for a.ts: the compiled name of a TypeScript file. */
    const char *dot = strrchr(base.data, '.');
    const char *last = strrchr(base.data, '/');
    if (found == REF_NONE && dot && (!last || dot > last)) {
      base.len = (size_t)(dot - base.data);
      base.data[base.len] = '\0';
      found = modules_js__with_extension(program, from->lang, &base, "");
    }
  }
  eddi_strbuf_free(&base);
  return found;
}
