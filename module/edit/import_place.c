/* import_place.c - where an import goes, in the file's own form.
 *
 * The header is read from the text line by line, not from the tree, so that
 * a file without a grammar's tree (too large, a script's plain text) gets
 * the same answer; the tree only says which imports are top-level
 * statements. Imports are compared normalised (blanks that separate nothing,
 * the quote character, a final ';', #include's <> or ""), so that the same
 * import written another way is found and not added twice. */
#include "edit/import_place.h"

#include "core/fs.h"

#include <ctype.h>

/* ---------------------------------------------------------------- helpers */

static bool place__lang_is(const EddiLang *lang, const char *name) {
  return lang && strcmp(lang->name, name) == 0;
}

static bool place__c_family(const EddiLang *lang) {
  return place__lang_is(lang, "c") || place__lang_is(lang, "cpp");
}

static bool place__js_family(const EddiLang *lang) {
  return place__lang_is(lang, "javascript") || place__lang_is(lang, "typescript") ||
         place__lang_is(lang, "tsx");
}

static bool place__ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The offset after the line holding at (past its newline), or len. */
static size_t place__line_after(const char *text, size_t len, size_t at) {
  const char *nl = at < len ? memchr(text + at, '\n', len - at) : NULL;
  return nl ? (size_t)(nl - text) + 1 : len;
}

static bool place__starts(const char *text, size_t len, size_t at, const char *prefix) {
  size_t n = strlen(prefix);
  return at + n <= len && memcmp(text + at, prefix, n) == 0;
}

/* Whether the line at `at` holds only blanks. */
static bool place__blank(const char *text, size_t len, size_t at) {
  for (size_t p = at; p < len && text[p] != '\n'; p++)
    if (text[p] != ' ' && text[p] != '\t' && text[p] != '\r') return false;
  return true;
}

static bool place__word_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

/* ---------------------------------------------------------------- the module system */

/* The string value of the top-level key "type" of a package.json text
 * ("module", "commonjs"), copied into out (size bytes); "" when the
 * object has none, or the text is no JSON object eddi can read. */
static void place__package_type(const char *json, size_t len, char *out, size_t size) {
  out[0] = '\0';
  int depth = 0;
  bool key = true; /* at depth 1, the next string is a key */
  for (size_t i = 0; i < len; i++) {
    char c = json[i];
    if (c == '{' || c == '[') depth++, key = c == '{';
    else if (c == '}' || c == ']') depth--;
    else if (c == ',' && depth == 1) key = true;
    else if (c == ':' && depth == 1) key = false;
    if (c != '"') continue;
    size_t start = ++i;
    while (i < len && json[i] != '"') i += json[i] == '\\' ? 2 : 1;
    if (i >= len) return;
    if (depth != 1 || !key || i - start != 4 || memcmp(json + start, "type", 4) != 0) continue;
    /* "type" : "value" */
    size_t at = i + 1;
    while (at < len && strchr(" \t\r\n", json[at])) at++;
    if (at >= len || json[at] != ':') return;
    for (at++; at < len && strchr(" \t\r\n", json[at]); at++) {}
    if (at >= len || json[at] != '"') return;
    size_t end = ++at;
    while (end < len && json[end] != '"' && json[end] != '\\') end++;
    if (end < len && json[end] == '"' && end - at < size) {
      memcpy(out, json + at, end - at);
      out[end - at] = '\0';
    }
    return;
  }
}

bool eddi_import_read_package(int root_fd, const char *rel, StrBuf *out) {
  StrBuf path = {0};
  eddi_strbuf_puts(&path, rel);
  bool found = false;
  for (;;) {
    char *slash = strrchr(path.data, '/');
    size_t folder = slash ? (size_t)(slash - path.data) : 0;
    path.len = folder;
    path.data[folder] = '\0';
    eddi_strbuf_puts(&path, folder ? "/package.json" : "package.json");
    EddiFileStamp stamp;
    EddiError err = {0};
    out->len = 0;
    if (eddi_fs_read(root_fd, path.data, 1 << 20, out, &stamp, NULL, &err) == 0) {
      found = true;
      break;
    }
    if (!folder) break;
    path.len = folder;
    path.data[folder] = '\0';
  }
  eddi_strbuf_free(&path);
  return found;
}

/* A JavaScript file is CommonJS when it requires or exports through
 * module.exports / exports.x and has no ES import or export statement;
 * .cjs and .mjs say so themselves. A file with neither is what Node
 * takes it for: an ES module when the nearest package.json says "type":
 * "module", else CommonJS; with no package.json eddi cannot tell
 * (*unknown). */
static bool place__commonjs(const EddiImportFile *file, bool *unknown) {
  const EddiLang *lang = file->lang;
  const char *path = file->path, *text = file->text;
  size_t len = file->len;
  *unknown = false;
  if (!place__lang_is(lang, "javascript")) return false;
  if (path && place__ends_with(path, ".cjs")) return true;
  if (path && place__ends_with(path, ".mjs")) return false;
  bool cjs = false, es = false;
  for (size_t at = 0; at < len; at = place__line_after(text, len, at)) {
    size_t p = at;
    while (p < len && (text[p] == ' ' || text[p] == '\t')) p++;
    if (p == at && (place__starts(text, len, p, "export ") ||
                    place__starts(text, len, p, "export{") ||
                    (place__starts(text, len, p, "import") && p + 6 < len &&
                     strchr(" {*\"'", text[p + 6]) && text[p + 6] != '\0')))
      es = true;
    if (es) return false;
    size_t eol = place__line_after(text, len, at);
    for (size_t q = p; q < eol && !cjs; q++)
      cjs = ((place__starts(text, len, q, "require(") || place__starts(text, len, q, "exports.") ||
              place__starts(text, len, q, "exports[") ||
              place__starts(text, len, q, "module.exports")) &&
             (q == 0 || !place__word_char(text[q - 1])));
  }
  if (cjs) return true;
  if (!file->package_json) {
    *unknown = true;
    return false;
  }
  char type[16];
  place__package_type(file->package_json, file->package_json_len, type, sizeof type);
  return strcmp(type, "module") != 0;
}

/* Whether a statement is an ES import or export. */
static bool place__es_statement(const char *s, size_t n) {
  return (n > 6 && memcmp(s, "import", 6) == 0 && strchr(" {*\"'", s[6]) && s[6] != '\0') ||
         (n > 7 && memcmp(s, "export ", 7) == 0);
}

/* A JavaScript name for a module: its last path part without extension,
 * camelCased ("./log.js" log, "lodash.debounce" lodashDebounce). */
static void place__module_name(StrBuf *out, const char *m, size_t n) {
  size_t from = 0;
  for (size_t i = 0; i < n; i++)
    if (m[i] == '/' || m[i] == ':') from = i + 1;
  size_t to = n;
  static const char *const exts[] = {".js", ".cjs", ".mjs", ".json", ".ts"};
  for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
    size_t e = strlen(exts[i]);
    if (to - from > e && memcmp(m + to - e, exts[i], e) == 0) {
      to -= e;
      break;
    }
  }
  bool upper = false;
  size_t start = out->len;
  for (size_t i = from; i < to; i++) {
    if (!place__word_char(m[i])) {
      upper = out->len > start;
      continue;
    }
    if (out->len == start && isdigit((unsigned char)m[i])) eddi_strbuf_putc(out, '_');
    eddi_strbuf_putc(out, upper ? (char)toupper((unsigned char)m[i]) : m[i]);
    upper = false;
  }
  if (out->len == start) eddi_strbuf_puts(out, "module");
}

/* The require line an ES import statement means, for a refusal's hint:
 * import x from "m" -> const x = require("m"); {a, b} and * as x alike. */
static void place__require_for(StrBuf *out, const char *s, size_t n) {
  const char *q = NULL;
  for (size_t i = n; i-- > 0;)
    if (s[i] == '"' || s[i] == '\'') {
      for (size_t j = i; j-- > 0;)
        if (s[j] == s[i]) {
          q = s + j;
          break;
        }
      break;
    }
  if (!q) {
    eddi_strbuf_puts(out, "const name = require(\"module\");");
    return;
  }
  const char *m = q + 1, *mend = strchr(m, *q);
  size_t mlen = mend ? (size_t)(mend - m) : strlen(m);
  /* What the import binds: between "import" and "from". */
  const char *b = s + 6, *from = strstr(b, " from");
  StrBuf binding = {0};
  if (from && from < q) {
    while (b < from && (*b == ' ' || *b == '\t')) b++;
    const char *e = from;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
    if (e - b > 5 && memcmp(b, "* as ", 5) == 0) b += 5;
    eddi_strbuf_append(&binding, b, (size_t)(e - b));
  }
  if (!from || from > q) /* import "m": for its effects alone */
    eddi_strbuf_printf(out, "require(\"%.*s\");", (int)mlen, m);
  else {
    if (binding.len == 0) place__module_name(&binding, m, mlen);
    eddi_strbuf_printf(out, "const %s = require(\"%.*s\");", binding.data, (int)mlen, m);
  }
  eddi_strbuf_free(&binding);
}

/* The quote and the final ';' of the file's first import; '"' and ';'
 * without one. */
static void place__style(EddiImportStyle *style, const EddiSyntax *syn, const char *text,
                         size_t len) {
  style->quote = '"', style->semicolon = true;
  for (size_t i = 0; syn && i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (e->kind != EDDI_ELEMENT_IMPORT || e->parent >= 0 || e->end > len) continue;
    const char *s = text + e->start;
    size_t n = e->end - e->start;
    for (size_t k = 0; k < n; k++)
      if (s[k] == '"' || s[k] == '\'') {
        style->quote = s[k];
        break;
      }
    size_t eol = place__line_after(text, len, e->end > e->start ? e->end - 1 : e->end);
    bool semicolon = false;
    for (size_t k = e->end; k < eol; k++) semicolon |= text[k] == ';';
    style->semicolon = semicolon || (n && s[n - 1] == ';');
    return;
  }
}

/* ---------------------------------------------------------------- the statement */

char *eddi_import_statement(const EddiLang *lang, const EddiImportStyle *style, const char *want,
                            size_t want_len) {
  const char *s = want;
  size_t n = want_len;
  while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
  while (n && (*s == ' ' || *s == '\t' || *s == '\n')) s++, n--;
  StrBuf out = {0};
  bool statement = n == 0 || s[0] == '#' || memchr(s, ' ', n) || memchr(s, '\t', n) ||
                   memchr(s, '\n', n);
  bool quoted = n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0];
  if (statement) eddi_strbuf_append(&out, s, n);
  else if (place__c_family(lang))
    eddi_strbuf_printf(&out, s[0] == '<' || quoted ? "#include %.*s" : "#include <%.*s>", (int)n,
                       s);
  else if (place__js_family(lang)) {
    const char *m = quoted ? s + 1 : s;
    size_t mlen = quoted ? n - 2 : n;
    char q = style->quote ? style->quote : '"';
    if (style->commonjs) {
      eddi_strbuf_puts(&out, "const ");
      place__module_name(&out, m, mlen);
      eddi_strbuf_printf(&out, " = require(%c%.*s%c)", q, (int)mlen, m, q);
    } else {
      eddi_strbuf_printf(&out, "import %c%.*s%c", q, (int)mlen, m, q);
    }
    if (style->semicolon) eddi_strbuf_putc(&out, ';');
  } else if (place__lang_is(lang, "go"))
    eddi_strbuf_printf(&out, quoted ? "import %.*s" : "import \"%.*s\"", (int)n, s);
  else if (place__lang_is(lang, "rust"))
    eddi_strbuf_printf(&out, "use %.*s;", (int)(n && s[n - 1] == ';' ? n - 1 : n), s);
  else eddi_strbuf_printf(&out, "import %.*s", (int)n, s);
  return eddi_strbuf_take(&out);
}

/* ---------------------------------------------------------------- comparing */

/* An import's text as compared: one blank where two words meet and none
 * elsewhere, ' as ", no final ';'; an #include as its header name. */
static char *place__key(const char *s, size_t n) {
  StrBuf out = {0};
  size_t p = 0;
  while (p < n && (s[p] == ' ' || s[p] == '\t')) p++;
  if (p < n && s[p] == '#') {
    size_t q = p + 1;
    while (q < n && (s[q] == ' ' || s[q] == '\t')) q++;
    if (n - q > 7 && memcmp(s + q, "include", 7) == 0) {
      q += 7;
      while (q < n && (s[q] == ' ' || s[q] == '\t')) q++;
      if (q < n && (s[q] == '<' || s[q] == '"')) {
        char close = s[q] == '<' ? '>' : '"';
        const char *e = memchr(s + q + 1, close, n - q - 1);
        if (e) {
          eddi_strbuf_puts(&out, "#include ");
          eddi_strbuf_append(&out, s + q + 1, (size_t)(e - (s + q + 1)));
          return eddi_strbuf_take(&out);
        }
      }
    }
  }
  bool gap = false;
  for (; p < n; p++) {
    char c = s[p];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      gap = true;
      continue;
    }
    if (gap && out.len && place__word_char(out.data[out.len - 1]) && place__word_char(c))
      eddi_strbuf_putc(&out, ' ');
    gap = false;
    eddi_strbuf_putc(&out, c == '\'' ? '"' : c);
  }
  while (out.len && out.data[out.len - 1] == ';') out.data[--out.len] = '\0';
  if (!out.data) eddi_strbuf_puts(&out, "");
  return eddi_strbuf_take(&out);
}

/* ---------------------------------------------------------------- the header */

/* The end of a string literal starting at p (Python's prefixes and triple
 * quotes too), or 0 when there is none at p. */
static size_t place__string_end(const char *text, size_t len, size_t p, bool python) {
  size_t q = p;
  if (python)
    while (q < len && q < p + 2 && strchr("rRuUbBfF", text[q]) && text[q]) q++;
  if (q >= len || (text[q] != '"' && text[q] != '\'')) return 0;
  char quote = text[q];
  bool triple = python && q + 2 < len && text[q + 1] == quote && text[q + 2] == quote;
  for (size_t i = q + (triple ? 3 : 1); i < len; i++) {
    if (text[i] == '\\') {
      i++;
      continue;
    }
    if (!triple && text[i] == '\n') return 0;
    if (text[i] == quote && (!triple || (i + 2 < len && text[i + 1] == quote &&
                                         text[i + 2] == quote)))
      return i + (triple ? 3 : 1);
  }
  return 0;
}

/* Whether only blanks, a ';' or a line comment follow p on its line. */
static bool place__rest_empty(const EddiLang *lang, const char *text, size_t len, size_t p) {
  while (p < len && (text[p] == ' ' || text[p] == '\t' || text[p] == ';' || text[p] == '\r')) p++;
  return p >= len || text[p] == '\n' ||
         (lang && lang->comment_line && place__starts(text, len, p, lang->comment_line));
}

/* The word after a preprocessor directive at p ("#ifndef X": X). */
static void place__directive_word(const char *text, size_t len, size_t p, const char *directive,
                                  const char **word, size_t *word_len) {
  *word = NULL, *word_len = 0;
  if (!place__starts(text, len, p, directive)) return;
  p += strlen(directive);
  if (p >= len || (text[p] != ' ' && text[p] != '\t')) return;
  while (p < len && (text[p] == ' ' || text[p] == '\t')) p++;
  size_t e = p;
  while (e < len && place__word_char(text[e])) e++;
  if (e > p) *word = text + p, *word_len = e - p;
}

/* Where the header ends: the start of the line after its last line (0 when
 * the file has none). */
static size_t place__header_end(const EddiLang *lang, const char *text, size_t len) {
  bool python = place__lang_is(lang, "python"), c = place__c_family(lang);
  bool js = place__js_family(lang);
  size_t header_end = 0, at = 0;
  bool docstring_seen = false; /* Python's comes first, JavaScript's directives may be several */
  while (at < len) {
    if (place__blank(text, len, at)) {
      at = place__line_after(text, len, at);
      continue;
    }
    size_t next = 0;
    if (at == 0 && place__starts(text, len, at, "#!")) next = place__line_after(text, len, at);
    else if (lang && lang->comment_line && place__starts(text, len, at, lang->comment_line))
      next = place__line_after(text, len, at);
    else if (lang && lang->comment_block_start &&
             place__starts(text, len, at, lang->comment_block_start) && lang->comment_block_end) {
      /* The block comment's end, when nothing but a blank follows it. */
      size_t close = strlen(lang->comment_block_end);
      for (size_t p = at + strlen(lang->comment_block_start); p + close <= len && !next; p++)
        if (memcmp(text + p, lang->comment_block_end, close) == 0) {
          if (!place__rest_empty(lang, text, len, p + close)) break;
          next = place__line_after(text, len, p + close);
        }
    } else if (place__starts(text, len, at, "package ")) {
      next = place__line_after(text, len, at);
    } else if (python && place__starts(text, len, at, "from __future__ import")) {
      next = place__line_after(text, len, at);
    } else if ((python && !docstring_seen) || js) {
      /* A module docstring, a directive ('use strict'): a string alone. */
      size_t e = place__string_end(text, len, at, python);
      if (e && place__rest_empty(lang, text, len, e)) next = place__line_after(text, len, e);
      docstring_seen = true;
    } else if (c && place__starts(text, len, at, "#pragma once")) {
      next = place__line_after(text, len, at);
    } else if (c) {
      const char *guard, *defined;
      size_t guard_len, defined_len;
      place__directive_word(text, len, at, "#ifndef", &guard, &guard_len);
      size_t after = place__line_after(text, len, at);
      while (guard && after < len && place__blank(text, len, after))
        after = place__line_after(text, len, after);
      if (guard) {
        place__directive_word(text, len, after, "#define", &defined, &defined_len);
        if (defined && defined_len == guard_len && memcmp(guard, defined, guard_len) == 0)
          next = place__line_after(text, len, after);
      }
    }
    if (!next) break;
    at = header_end = next;
  }
  return header_end;
}

/* ---------------------------------------------------------------- imports there */

/* The header guard of a C file: the root's first child past comments,
 * when it is an #ifndef. */
static TSNode place__guard(const EddiSyntax *syn) {
  TSNode root = ts_tree_root_node(syn->tree), none = {0};
  for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
    TSNode child = ts_node_named_child(root, i);
    if (strcmp(ts_node_type(child), "comment") == 0) continue;
    return strcmp(ts_node_type(child), "preproc_ifdef") == 0 ? child : none;
  }
  return none;
}

/* Whether an import element is a statement of the file's top level (an
 * import inside a try, an if or an #ifdef is not a place to add one
 * after); Python, C and JavaScript only, other languages' imports count
 * as their queries capture them. */
static bool place__top_level(const EddiLang *lang, const EddiSyntax *syn, const EddiElement *e,
                             TSNode guard) {
  if (e->parent >= 0) return false;
  if (!syn->tree || !(place__lang_is(lang, "python") || place__c_family(lang) ||
                      place__js_family(lang)))
    return true;
  TSNode parent = ts_node_parent(e->node);
  if (ts_node_is_null(parent)) return true;
  return ts_node_eq(parent, ts_tree_root_node(syn->tree)) ||
         (!ts_node_is_null(guard) && ts_node_eq(parent, guard));
}

/* ---------------------------------------------------------------- the plan */

int eddi_import_plan(EddiImportPlan *self, const EddiImportFile *file, const char *want,
                     size_t want_len, EddiError *err) {
  const EddiLang *lang = file->lang;
  const EddiSyntax *syn = file->syn;
  const char *path = file->path, *text = file->text;
  size_t len = file->len;
  *self = (EddiImportPlan){.present = EDDI_IMPORT_ABSENT};
  bool unknown;
  EddiImportStyle style = {.commonjs = place__commonjs(file, &unknown)};
  bool statement = memchr(want, ' ', want_len) || (want_len && want[0] == '#');
  if (unknown && !statement) {
    const char *name = path ? strrchr(path, '/') : NULL;
    name = name ? name + 1 : path ? path : "The file";
    eddi_error_set(err, EDDI_EINVAL,
                   "%s has no import or require, and no package.json says whether it is an ES "
                   "module or CommonJS",
                   name);
    eddi_error_hint(err, "Give the whole statement (import ... from \"%.*s\" or const ... = "
                         "require(\"%.*s\"))",
                    (int)want_len, want, (int)want_len, want);
    return EDDI_EINVAL;
  }
  place__style(&style, syn, text, len);
  char *line = eddi_import_statement(lang, &style, want, want_len);
  if (style.commonjs && place__es_statement(line, strlen(line))) {
    const char *name = path ? strrchr(path, '/') : NULL;
    name = name ? name + 1 : path ? path : "The file";
    StrBuf require = {0};
    place__require_for(&require, line, strlen(line));
    eddi_error_set(err, EDDI_EINVAL,
                   "%s is a CommonJS module: an ES import would make Node treat it as ES", name);
    eddi_error_hint(err, "Give a require line: %s", require.data);
    eddi_strbuf_free(&require);
    eddi_free(line);
    return EDDI_EINVAL;
  }
  self->line = line;
  char *key = place__key(line, strlen(line));
  /* Present: a top-level import element, or without a tree a line of the
   * file's top level (with one, a docstring's line is no import). */
  TSNode guard = {0};
  if (syn && syn->tree && place__c_family(lang)) guard = place__guard(syn);
  bool found_last = false;
  size_t last_end = 0;
  for (size_t i = 0; syn && i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (e->kind != EDDI_ELEMENT_IMPORT || e->parent >= 0 || e->end > len) continue;
    /* The element, or its lines: Go's import "fmt" is an import_spec
     * "fmt" on the line of its import keyword. */
    size_t line_start = e->start;
    while (line_start > 0 && text[line_start - 1] != '\n') line_start--;
    size_t line_end = place__line_after(text, len, e->end > e->start ? e->end - 1 : e->end);
    for (int pass = 0; pass < 2 && self->present == EDDI_IMPORT_ABSENT; pass++) {
      char *have = pass == 0 ? place__key(text + e->start, e->end - e->start)
                             : place__key(text + line_start, line_end - line_start);
      if (strcmp(have, key) == 0) self->present = e->start;
      eddi_free(have);
    }
    if (place__top_level(lang, syn, e, guard)) {
      found_last = true;
      last_end = place__line_after(text, len, e->end > e->start ? e->end - 1 : e->end);
    }
  }
  for (size_t at = 0; !(syn && syn->tree) && self->present == EDDI_IMPORT_ABSENT && at < len;
       at = place__line_after(text, len, at)) {
    if (text[at] == ' ' || text[at] == '\t') continue;
    size_t eol = place__line_after(text, len, at);
    char *have = place__key(text + at, eol - at);
    if (strcmp(have, key) == 0) self->present = at;
    eddi_free(have);
  }
  eddi_free(key);
  if (found_last) {
    self->at = last_end;
    self->after_imports = true;
  } else {
    self->at = place__header_end(lang, text, len);
    self->blank_before = self->at > 0;
    self->blank_after = true;
  }
  return 0;
}

void eddi_import_plan_free(EddiImportPlan *self) {
  eddi_free(self->line);
  self->line = NULL;
}
