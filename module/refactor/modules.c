/* modules.c - the module family of a language and path helpers shared by
 * the families that name files by path; see modules.h. */
#include "refactor/modules.h"

RefModulesKind ref_modules_kind(const EddiLang *lang) {
  if (!lang || !lang->modules) return REF_MODULES_NONE;
  if (strcmp(lang->modules, "packages") == 0) return REF_MODULES_PACKAGES;
  if (strcmp(lang->modules, "paths") == 0) return REF_MODULES_PATHS;
  if (strcmp(lang->modules, "includes") == 0) return REF_MODULES_INCLUDES;
  return REF_MODULES_NONE;
}

uint32_t ref_modules_file(RefProgram *program, const char *path, size_t len) {
  uint32_t name = ref_names_find(program->names, path, len);
  return name == REF_NONE ? REF_NONE : ref_map_get(&program->file_by_path, name);
}

bool ref_modules_join(const char *dir, size_t dir_len, const char *rel, StrBuf *out) {
  eddi_strbuf_clear(out);
  eddi_strbuf_append(out, dir, dir_len);
  for (const char *p = rel; *p;) {
    const char *slash = strchr(p, '/');
    size_t len = slash ? (size_t)(slash - p) : strlen(p);
    if (len == 2 && p[0] == '.' && p[1] == '.') {
      if (!out->len) return false; /* above the workspace */
      while (out->len && out->data[out->len - 1] != '/') out->len--;
      if (out->len) out->len--;
      out->data[out->len] = '\0';
    } else if (len && !(len == 1 && p[0] == '.')) {
      if (out->len) eddi_strbuf_putc(out, '/');
      eddi_strbuf_append(out, p, len);
    }
    p += len + (slash != NULL);
  }
  if (!out->data) eddi_strbuf_puts(out, "");
  return true;
}
