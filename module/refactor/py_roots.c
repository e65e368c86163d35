/* py_roots.c - a Python project's import roots, read from its
 * configuration; see py_roots.h.
 *
 * Each reader walks its format just far enough to know the key path and
 * the text of every string value, and hands those to one function per
 * format that knows the keys which name folders. Nothing else of a file
 * is kept. */
#define _GNU_SOURCE /* memrchr, memmem */
#include "refactor/py_roots.h"

#include <ctype.h>

#include "refactor/modules.h"

void ref_py_roots_free(RefPyRoots *self) {
  for (size_t i = 0; i < self->dirs.len; i++) eddi_free(self->dirs.items[i]);
  array_free(&self->dirs);
}

static const char *const roots__configs[] = {"pyproject.toml", "setup.cfg", "setup.py",
                                             "pytest.ini", "tox.ini"};

bool ref_py_roots_is_config(const char *basename) {
  for (size_t i = 0; i < sizeof roots__configs / sizeof *roots__configs; i++)
    if (strcmp(basename, roots__configs[i]) == 0) return true;
  return false;
}

void ref_py_roots_add(RefPyRoots *self, const char *dir, size_t len) {
  if (!len) return;
  for (size_t i = 0; i < self->dirs.len; i++)
    if (strlen(self->dirs.items[i]) == len && memcmp(self->dirs.items[i], dir, len) == 0) return;
  array_push(&self->dirs, eddi_strndup(dir, len));
}

bool ref_py_roots_equal(const RefPyRoots *a, const RefPyRoots *b) {
  if (a->dirs.len != b->dirs.len) return false;
  for (size_t i = 0; i < a->dirs.len; i++)
    if (strcmp(a->dirs.items[i], b->dirs.items[i]) != 0) return false;
  return true;
}

/* ---------------------------------------------------------------- what a value names */

typedef struct {
  RefPyRoots *roots;
  const char *dir; /* the config file's folder */
  size_t dir_len;
} Config;

/* The folder rel (bytes [0, len)) names from the config's folder; an
 * absolute path or one above the workspace names none of it. */
static void roots__folder(Config *self, const char *rel, size_t len) {
  while (len && (rel[len - 1] == '/' || rel[len - 1] == ' ')) len--;
  while (len && *rel == ' ') rel++, len--;
  if (len && rel[0] == '/') return;
  char *text = eddi_strndup(rel, len);
  StrBuf out = {0};
  if (ref_modules_join(self->dir, self->dir_len, text, &out))
    ref_py_roots_add(self->roots, out.data, out.len);
  eddi_strbuf_free(&out);
  eddi_free(text);
}

/* Each word of a list of folders separated by white space. */
static void roots__folders(Config *self, const char *text, size_t len) {
  for (size_t at = 0; at < len;) {
    while (at < len && strchr(" \t\r\n", text[at])) at++;
    size_t start = at;
    while (at < len && !strchr(" \t\r\n", text[at])) at++;
    if (at > start) roots__folder(self, text + start, at - start);
  }
}

/* The folder above a package folder (src/pkg: src), or the config's own
 * folder for a package at its top. */
static void roots__parent(Config *self, const char *path, size_t len) {
  while (len && path[len - 1] == '/') len--;
  const char *slash = len ? memrchr(path, '/', len) : NULL;
  if (slash) roots__folder(self, path, (size_t)(slash - path));
}

/* setuptools' package_dir entry name = path: the root is path for the
 * root package (""), else the folder above path when path ends with the
 * package's own name (pkg = lib/pkg: lib). */
static void roots__package_dir(Config *self, const char *name, size_t name_len, const char *path,
                               size_t path_len) {
  while (name_len && strchr(" \t", name[name_len - 1])) name_len--;
  while (name_len && strchr(" \t", *name)) name++, name_len--;
  while (path_len && strchr(" \t/", path[path_len - 1])) path_len--;
  while (path_len && strchr(" \t", *path)) path++, path_len--;
  if (!name_len) {
    roots__folder(self, path, path_len);
    return;
  }
  const char *dot = memrchr(name, '.', name_len);
  const char *last = dot ? dot + 1 : name;
  size_t last_len = name_len - (size_t)(last - name);
  if (path_len > last_len && memcmp(path + path_len - last_len, last, last_len) == 0 &&
      path[path_len - last_len - 1] == '/')
    roots__folder(self, path, path_len - last_len - 1);
}

/* ---------------------------------------------------------------- TOML */

typedef struct {
  Config config;
  const char *path, *text, *p, *end;
  EddiError *err;
  Array(char *) keys; /* the table's key path, then the keys within it */
} Toml;

static int toml__fail(Toml *self, const char *what) {
  size_t line = 0, col = 0;
  for (const char *q = self->text; q < self->p && q < self->end; q++) {
    if (*q == '\n') line++, col = 0;
    else col++;
  }
  eddi_error_set(self->err, EDDI_EINVAL, "%s has a syntax error at %s:%zu:%zu: %s", self->path,
                 self->path, line, col, what);
  eddi_error_hint(self->err, "Fix it first: it says where Python finds the project's imports");
  return EDDI_EINVAL;
}

static void toml__keys_pop(Toml *self, size_t to) {
  while (self->keys.len > to) eddi_free(self->keys.items[--self->keys.len]);
}

/* Whether the key path is exactly the NULL-terminated pattern ("*" is any
 * one key). */
static bool toml__is(const Toml *self, const char *const *pattern) {
  size_t n = 0;
  while (pattern[n]) n++;
  if (n != self->keys.len) return false;
  for (size_t i = 0; i < n; i++)
    if (strcmp(pattern[i], "*") != 0 && strcmp(pattern[i], self->keys.items[i]) != 0)
      return false;
  return true;
}

#define TOML_IS(self, ...) toml__is(self, (const char *const[]){__VA_ARGS__, NULL})

/* A string value at the current key path (arrays add no key). */
static void toml__string_value(Toml *self, const char *text, size_t len) {
  Config *c = &self->config;
  const char *last = self->keys.len ? self->keys.items[self->keys.len - 1] : "";
  if (TOML_IS(self, "tool", "setuptools", "package-dir", "*") ||
      TOML_IS(self, "tool", "setuptools", "package_dir", "*"))
    roots__package_dir(c, last, strlen(last), text, len);
  else if (TOML_IS(self, "tool", "setuptools", "packages", "find", "where") ||
           TOML_IS(self, "tool", "poetry", "packages", "from") ||
           TOML_IS(self, "tool", "hatch", "build", "targets", "wheel", "sources") ||
           TOML_IS(self, "tool", "hatch", "build", "sources") ||
           TOML_IS(self, "tool", "pdm", "build", "package-dir") ||
           TOML_IS(self, "tool", "maturin", "python-source"))
    roots__folder(c, text, len);
  else if (TOML_IS(self, "tool", "hatch", "build", "targets", "wheel", "packages") ||
           TOML_IS(self, "tool", "hatch", "build", "packages"))
    roots__parent(c, text, len);
  else if ((TOML_IS(self, "tool", "hatch", "build", "targets", "wheel", "sources", "*") ||
            TOML_IS(self, "tool", "hatch", "build", "sources", "*")) &&
           len == 0)
    roots__folder(c, last, strlen(last)); /* sources = {"src" = ""}: src/ is the top */
  else if (TOML_IS(self, "tool", "pytest", "ini_options", "pythonpath"))
    roots__folders(c, text, len);
}

static void toml__blank(Toml *self) {
  while (self->p < self->end && (*self->p == ' ' || *self->p == '\t')) self->p++;
}

/* White space, line ends and comments (between an array's values). */
static void toml__space(Toml *self) {
  for (;;) {
    toml__blank(self);
    if (self->p < self->end && *self->p == '#')
      while (self->p < self->end && *self->p != '\n') self->p++;
    if (self->p < self->end && (*self->p == '\n' || *self->p == '\r')) self->p++;
    else return;
  }
}

/* The end of a line: a comment may come first. */
static int toml__line_end(Toml *self) {
  toml__blank(self);
  if (self->p < self->end && *self->p == '#')
    while (self->p < self->end && *self->p != '\n') self->p++;
  if (self->p < self->end && *self->p == '\r') self->p++;
  if (self->p == self->end) return 0;
  if (*self->p != '\n') return toml__fail(self, "more after a value than the line can hold");
  self->p++;
  return 0;
}

static bool toml__starts(const Toml *self, const char *s) {
  size_t n = strlen(s);
  return (size_t)(self->end - self->p) >= n && memcmp(self->p, s, n) == 0;
}

static int toml__hex(Toml *self, size_t digits, StrBuf *out) {
  uint32_t code = 0;
  for (size_t i = 0; i < digits; i++, self->p++) {
    if (self->p >= self->end || !isxdigit((unsigned char)*self->p))
      return toml__fail(self, "a bad \\u escape");
    char c = *self->p;
    code = code * 16 + (uint32_t)(isdigit((unsigned char)c) ? c - '0' : (tolower(c) - 'a' + 10));
  }
  if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
    return toml__fail(self, "an escape that is no character");
  char bytes[4];
  size_t n;
  if (code < 0x80) bytes[0] = (char)code, n = 1;
  else if (code < 0x800) {
    bytes[0] = (char)(0xC0 | (code >> 6)), bytes[1] = (char)(0x80 | (code & 0x3F)), n = 2;
  } else if (code < 0x10000) {
    bytes[0] = (char)(0xE0 | (code >> 12)), bytes[1] = (char)(0x80 | ((code >> 6) & 0x3F));
    bytes[2] = (char)(0x80 | (code & 0x3F)), n = 3;
  } else {
    bytes[0] = (char)(0xF0 | (code >> 18)), bytes[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    bytes[2] = (char)(0x80 | ((code >> 6) & 0x3F)), bytes[3] = (char)(0x80 | (code & 0x3F));
    n = 4;
  }
  eddi_strbuf_append(out, bytes, n);
  return 0;
}

/* A string of any of TOML's four kinds, at a quote, into out. */
static int toml__string(Toml *self, StrBuf *out) {
  eddi_strbuf_puts(out, "");
  char quote = *self->p;
  bool basic = quote == '"';
  bool multi = toml__starts(self, basic ? "\"\"\"" : "'''");
  self->p += multi ? 3 : 1;
  if (multi && self->p < self->end && *self->p == '\n') self->p++;
  else if (multi && toml__starts(self, "\r\n")) self->p += 2;
  for (;;) {
    if (self->p >= self->end) return toml__fail(self, "an unterminated string");
    char c = *self->p;
    if (c == quote) {
      if (!multi) {
        self->p++;
        return 0;
      }
      if (toml__starts(self, basic ? "\"\"\"" : "'''")) {
        /* Up to two more quotes belong to the text: """a""""" is a"". */
        size_t run = 0;
        while (self->p + run < self->end && self->p[run] == quote) run++;
        if (run > 5) return toml__fail(self, "too many quotes at the end of a string");
        eddi_strbuf_append(out, self->p, run - 3);
        self->p += run;
        return 0;
      }
    }
    if ((c == '\n' || c == '\r') && !multi) return toml__fail(self, "an unterminated string");
    if (c == '\\' && basic) {
      self->p++;
      if (self->p >= self->end) return toml__fail(self, "an unterminated string");
      char e = *self->p++;
      static const char escapes[] = "\"\\btnfr", decoded[] = "\"\\\b\t\n\f\r";
      const char *plain = e ? strchr(escapes, e) : NULL;
      if (plain) {
        eddi_strbuf_putc(out, decoded[plain - escapes]);
      } else if (e == 'u' || e == 'U') {
        int rc = toml__hex(self, e == 'u' ? 4 : 8, out);
        if (rc < 0) return rc;
      } else if (multi && (e == ' ' || e == '\t' || e == '\n' || e == '\r')) {
        /* A line-ending backslash trims the white space up to the next text. */
        const char *q = self->p - 1;
        while (q < self->end && (*q == ' ' || *q == '\t')) q++;
        if (q < self->end && *q != '\n' && *q != '\r')
          return toml__fail(self, "a backslash before text on the same line");
        while (q < self->end && strchr(" \t\r\n", *q)) q++;
        self->p = q;
      } else {
        self->p--;
        return toml__fail(self, "an unknown escape");
      }
      continue;
    }
    eddi_strbuf_putc(out, c);
    self->p++;
  }
}

static bool toml__bare_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* A key's parts (bare, "basic" or 'literal', joined by dots), appended. */
static int toml__key(Toml *self) {
  for (;;) {
    toml__blank(self);
    if (self->p >= self->end) return toml__fail(self, "a key is missing");
    if (*self->p == '"' || *self->p == '\'') {
      if (toml__starts(self, "\"\"\"") || toml__starts(self, "'''"))
        return toml__fail(self, "a key cannot be a multi-line string");
      StrBuf part = {0};
      int rc = toml__string(self, &part);
      if (rc < 0) {
        eddi_strbuf_free(&part);
        return rc;
      }
      array_push(&self->keys, eddi_strbuf_take(&part));
    } else {
      const char *start = self->p;
      while (self->p < self->end && toml__bare_char(*self->p)) self->p++;
      if (self->p == start) return toml__fail(self, "a key is missing");
      array_push(&self->keys, eddi_strndup(start, (size_t)(self->p - start)));
    }
    toml__blank(self);
    if (self->p < self->end && *self->p == '.') self->p++;
    else return 0;
  }
}

static int toml__value(Toml *self, unsigned depth);

/* key = value, in a table or an inline table; the keys it adds are taken
 * off again. */
static int toml__pair(Toml *self, unsigned depth) {
  size_t at = self->keys.len;
  int rc = toml__key(self);
  if (rc == 0) {
    toml__blank(self);
    if (self->p >= self->end || *self->p != '=') rc = toml__fail(self, "a key without =");
    else self->p++;
  }
  if (rc == 0) {
    toml__blank(self);
    rc = toml__value(self, depth);
  }
  toml__keys_pop(self, at);
  return rc;
}

static int toml__value(Toml *self, unsigned depth) {
  if (depth > REF_PY_ROOTS_DEPTH_MAX) return toml__fail(self, "values nested too deep");
  if (self->p >= self->end) return toml__fail(self, "a value is missing");
  char c = *self->p;
  if (c == '"' || c == '\'') {
    StrBuf text = {0};
    int rc = toml__string(self, &text);
    if (rc == 0) toml__string_value(self, text.data, text.len);
    eddi_strbuf_free(&text);
    return rc;
  }
  if (c == '[') {
    self->p++;
    for (;;) {
      toml__space(self);
      if (self->p < self->end && *self->p == ']') {
        self->p++;
        return 0;
      }
      int rc = toml__value(self, depth + 1);
      if (rc < 0) return rc;
      toml__space(self);
      if (self->p < self->end && *self->p == ',') self->p++;
      else if (self->p >= self->end || *self->p != ']')
        return toml__fail(self, "an array's values without a comma or ]");
    }
  }
  if (c == '{') {
    self->p++;
    toml__space(self);
    if (self->p < self->end && *self->p == '}') {
      self->p++;
      return 0;
    }
    for (;;) {
      int rc = toml__pair(self, depth + 1);
      if (rc < 0) return rc;
      toml__space(self);
      if (self->p < self->end && *self->p == ',') {
        self->p++;
        toml__space(self);
      } else if (self->p < self->end && *self->p == '}') {
        self->p++;
        return 0;
      } else {
        return toml__fail(self, "an inline table's pairs without a comma or }");
      }
    }
  }
  /* A number, a boolean or a date: a bare word (a date and a time may be
   * separated by one space). */
  const char *start = self->p;
  while (self->p < self->end && (isalnum((unsigned char)*self->p) || strchr("_+-.:", *self->p)))
    self->p++;
  if (self->p == start) return toml__fail(self, "a value is missing");
  if (self->p - start == 10 && start[4] == '-' && start[7] == '-' && self->p + 1 < self->end &&
      *self->p == ' ' && isdigit((unsigned char)self->p[1])) {
    self->p++;
    while (self->p < self->end && (isalnum((unsigned char)*self->p) || strchr("+-.:", *self->p)))
      self->p++;
  }
  return 0;
}

static int toml__read(Toml *self) {
  int rc = 0;
  while (rc == 0) {
    toml__space(self);
    if (self->p >= self->end) break;
    if (*self->p == '[') {
      bool many = toml__starts(self, "[[");
      self->p += many ? 2 : 1;
      toml__keys_pop(self, 0);
      rc = toml__key(self);
      if (rc < 0) break;
      toml__blank(self);
      if (!toml__starts(self, many ? "]]" : "]")) {
        rc = toml__fail(self, "a table name without its ]");
        break;
      }
      self->p += many ? 2 : 1;
      rc = toml__line_end(self);
    } else {
      rc = toml__pair(self, 0);
      if (rc == 0) rc = toml__line_end(self);
    }
  }
  toml__keys_pop(self, 0);
  array_free(&self->keys);
  return rc;
}

/* ---------------------------------------------------------------- INI */

/* One key of an INI file (setup.cfg, pytest.ini, tox.ini) with its value,
 * continuation lines joined by newlines. */
static void ini__entry(Config *self, const char *section, const char *key, const char *value) {
  size_t len = strlen(value);
  if (strcmp(section, "options") == 0 && strcmp(key, "package_dir") == 0) {
    for (const char *line = value; line < value + len;) {
      const char *nl = strchr(line, '\n');
      size_t n = nl ? (size_t)(nl - line) : strlen(line);
      const char *eq = memchr(line, '=', n);
      if (eq) roots__package_dir(self, line, (size_t)(eq - line), eq + 1, n - (size_t)(eq - line) - 1);
      line += n + (nl != NULL);
    }
  } else if (strcmp(section, "options.packages.find") == 0 && strcmp(key, "where") == 0) {
    roots__folders(self, value, len);
  } else if ((strcmp(section, "tool:pytest") == 0 || strcmp(section, "pytest") == 0) &&
             strcmp(key, "pythonpath") == 0) {
    roots__folders(self, value, len);
  }
}

static int ini__read(Config *self, const char *path, const char *text, size_t len,
                     EddiError *err) {
  StrBuf section = {0}, key = {0}, value = {0};
  eddi_strbuf_puts(&section, ""), eddi_strbuf_puts(&key, ""), eddi_strbuf_puts(&value, "");
  bool in_key = false;
  int rc = 0;
  size_t number = 0;
  for (const char *line = text; rc == 0 && line < text + len; number++) {
    const char *nl = memchr(line, '\n', (size_t)(text + len - line));
    size_t n = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
    const char *next = line + n + (nl != NULL);
    while (n && line[n - 1] == '\r') n--;
    size_t lead = 0;
    while (lead < n && (line[lead] == ' ' || line[lead] == '\t')) lead++;
    bool blank = lead == n, comment = !blank && (line[lead] == '#' || line[lead] == ';');
    if (blank || comment) {
      line = next;
      continue;
    }
    /* A comment after white space ends the line's text. */
    size_t end = n;
    for (size_t i = lead + 1; i < n; i++)
      if ((line[i] == '#' || line[i] == ';') && (line[i - 1] == ' ' || line[i - 1] == '\t')) {
        end = i;
        break;
      }
    while (end > lead && (line[end - 1] == ' ' || line[end - 1] == '\t')) end--;
    if (lead && in_key) {
      eddi_strbuf_putc(&value, '\n');
      eddi_strbuf_append(&value, line + lead, end - lead);
      line = next;
      continue;
    }
    if (in_key) ini__entry(self, section.data, key.data, value.data);
    in_key = false;
    if (line[lead] == '[') {
      const char *close = memchr(line + lead, ']', end - lead);
      if (!close) {
        rc = eddi_error_set(err, EDDI_EINVAL, "%s has a syntax error at %s:%zu:%zu: %s", path,
                            path, number, lead, "a section name without its ]");
        eddi_error_hint(err, "Fix it first: it says where Python finds the project's imports");
        break;
      }
      eddi_strbuf_clear(&section);
      const char *name = line + lead + 1;
      size_t name_len = (size_t)(close - name);
      while (name_len && strchr(" \t", *name)) name++, name_len--;
      while (name_len && strchr(" \t", name[name_len - 1])) name_len--;
      eddi_strbuf_append(&section, name, name_len);
      eddi_strbuf_puts(&section, "");
    } else {
      size_t sep = lead;
      while (sep < end && line[sep] != '=' && line[sep] != ':') sep++;
      size_t key_end = sep;
      while (key_end > lead && strchr(" \t", line[key_end - 1])) key_end--;
      eddi_strbuf_clear(&key);
      for (size_t i = lead; i < key_end; i++)
        eddi_strbuf_putc(&key, line[i] == '-' ? '_' : (char)tolower((unsigned char)line[i]));
      eddi_strbuf_puts(&key, "");
      eddi_strbuf_clear(&value);
      size_t v = sep < end ? sep + 1 : end;
      while (v < end && strchr(" \t", line[v])) v++;
      eddi_strbuf_append(&value, line + v, end - v);
      eddi_strbuf_puts(&value, "");
      in_key = true;
    }
    line = next;
  }
  if (rc == 0 && in_key) ini__entry(self, section.data, key.data, value.data);
  eddi_strbuf_free(&section), eddi_strbuf_free(&key), eddi_strbuf_free(&value);
  return rc;
}

/* ---------------------------------------------------------------- setup.py */

/* A Python string literal at *p (quotes ' or ", an r/u prefix, no triple
 * quotes, no escapes): its text, or false. */
static bool py__literal(const char **p, const char *end, const char **text, size_t *len) {
  const char *q = *p;
  if (q < end && (*q == 'r' || *q == 'u' || *q == 'R' || *q == 'U')) q++;
  if (q >= end || (*q != '"' && *q != '\'')) return false;
  char quote = *q++;
  const char *start = q;
  while (q < end && *q != quote && *q != '\\' && *q != '\n') q++;
  if (q >= end || *q != quote) return false;
  *text = start, *len = (size_t)(q - start);
  *p = q + 1;
  return true;
}

static void py__space(const char **p, const char *end) {
  while (*p < end && strchr(" \t\r\n", **p)) (*p)++;
}

/* Where word stands as a whole name in text[0, len), from at. */
static const char *py__find(const char *text, const char *end, const char *at, const char *word) {
  size_t n = strlen(word);
  while (at < end) {
    const char *hit = memmem(at, (size_t)(end - at), word, n);
    if (!hit) return NULL;
    bool before = hit > text && (isalnum((unsigned char)hit[-1]) || hit[-1] == '_');
    bool after = hit + n < end && (isalnum((unsigned char)hit[n]) || hit[n] == '_');
    if (!before && !after) return hit;
    at = hit + n;
  }
  return NULL;
}

static void setup_py__read(Config *self, const char *text, size_t len) {
  const char *end = text + len;
  for (const char *at = text; (at = py__find(text, end, at, "package_dir"));) {
    const char *p = at + strlen("package_dir");
    at = p;
    if (p < end && (*p == '"' || *p == '\'')) p++; /* a dict's key: "package_dir": {...} */
    py__space(&p, end);
    if (p >= end || (*p != '=' && *p != ':')) continue;
    p++;
    py__space(&p, end);
    if (p >= end || *p != '{') continue;
    p++;
    for (;;) {
      const char *name, *path;
      size_t name_len, path_len;
      py__space(&p, end);
      if (!py__literal(&p, end, &name, &name_len)) break;
      py__space(&p, end);
      if (p >= end || *p != ':') break;
      p++;
      py__space(&p, end);
      if (!py__literal(&p, end, &path, &path_len)) break;
      roots__package_dir(self, name, name_len, path, path_len);
      py__space(&p, end);
      if (p >= end || *p != ',') break;
      p++;
    }
  }
  static const char *const finders[] = {"find_packages", "find_namespace_packages"};
  for (size_t f = 0; f < 2; f++)
    for (const char *at = text; (at = py__find(text, end, at, finders[f]));) {
      const char *p = at + strlen(finders[f]);
      at = p;
      py__space(&p, end);
      if (p >= end || *p != '(') continue;
      p++;
      py__space(&p, end);
      if (py__find(text, end, p, "where") == p) {
        p += strlen("where");
        py__space(&p, end);
        if (p >= end || *p != '=') continue;
        p++;
        py__space(&p, end);
      }
      const char *where;
      size_t where_len;
      if (py__literal(&p, end, &where, &where_len)) roots__folder(self, where, where_len);
    }
}

/* ---------------------------------------------------------------- a config file */

int ref_py_roots_read(RefPyRoots *self, const char *path, const char *text, size_t len,
                      EddiError *err) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  Config config = {self, path, slash ? (size_t)(slash - path) : 0};
  ref_py_roots_add(self, config.dir, config.dir_len);
  if (strcmp(base, "pyproject.toml") == 0) {
    Toml toml = {.config = config, .path = path, .text = text, .p = text, .end = text + len,
                 .err = err};
    return toml__read(&toml);
  }
  if (strcmp(base, "setup.py") == 0) {
    setup_py__read(&config, text, len);
    return 0;
  }
  return ini__read(&config, path, text, len, err);
}
