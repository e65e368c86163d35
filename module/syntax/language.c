/* language.c - the compiled-in languages: grammar, queries, language.conf.
 *
 * The table comes from the build (grammars/eddi_grammars.h). Loading checks
 * each grammar against the runtime: one the runtime refuses (a newer ABI)
 * is kept with the reason, and its files are handled as plain text with
 * that reason given, instead of failing later inside the parser.
 *
 * The table lives as long as the process and is allocated with plain
 * malloc: it is not the engine's memory, which tests count to find leaks. */
#include <pthread.h>
#include <stdlib.h>

#include "eddi_grammars.h"
#include "syntax/syntax.h"

/* Room for every compiled-in language: the vendored grammars are a dozen,
 * and a build with more than this loads the first ones only. */
#define LANGUAGE_TABLE_MAX 64
/* A language.conf line longer than this is skipped: settings are short. */
#define LANGUAGE_CONF_LINE_MAX 512
/* The widest indent a language.conf may ask for, in spaces. */
#define LANGUAGE_INDENT_MAX 16

static EddiLang language__table[LANGUAGE_TABLE_MAX];
static size_t language__count;
static pthread_once_t language__once = PTHREAD_ONCE_INIT;
/* globals_of: the language whose globals a language's include (TypeScript
 * sees JavaScript's), by table index; joined once all are read. */
static char *language__globals_of[LANGUAGE_TABLE_MAX];

/* ---------------------------------------------------------------- language.conf */

/* Lines of "key value"; "#" starts a comment line. Unknown keys are ignored,
 * so that an older eddi reads a newer file. */
static void language__set_list(char **list, const char *value) {
  size_t n = 0;
  const char *p = value;
  while (*p && n < EDDI_LANG_LIST_MAX) {
    while (*p == ' ') p++;
    const char *end = p;
    while (*end && *end != ' ') end++;
    if (end > p) list[n++] = strndup(p, (size_t)(end - p));
    p = end;
  }
}

/* A list that spans lines (globals): each line's words are appended. */
static void language__append_words(char **words, const char *value) {
  size_t had = *words ? strlen(*words) : 0, more = strlen(value);
  char *joined = malloc(had + more + 2);
  if (!joined) return;
  if (had) memcpy(joined, *words, had), joined[had++] = ' ';
  memcpy(joined + had, value, more + 1);
  free(*words);
  *words = joined;
}

static void language__read_config(EddiLang *self, char **globals_of, const char *config) {
  self->indent = strdup("    ");
  self->blank_lines = 1;
  self->blank_lines_member = 1;
  const char *line = config;
  while (*line) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    char buf[LANGUAGE_CONF_LINE_MAX];
    if (len < sizeof buf && len > 0 && line[0] != '#') {
      memcpy(buf, line, len);
      buf[len] = '\0';
      while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\r')) buf[--len] = '\0';
      char *value = strchr(buf, ' ');
      if (value) {
        *value++ = '\0';
        while (*value == ' ') value++;
        const char *key = buf;
        char **slot = NULL;
        if (strcmp(key, "extensions") == 0) language__set_list(self->extensions, value);
        else if (strcmp(key, "shebang") == 0) language__set_list(self->shebangs, value);
        else if (strcmp(key, "implicit_params") == 0)
          language__set_list(self->implicit_params, value);
        else if (strcmp(key, "comment_line") == 0) slot = &self->comment_line;
        else if (strcmp(key, "comment_block_start") == 0) slot = &self->comment_block_start;
        else if (strcmp(key, "comment_block_end") == 0) slot = &self->comment_block_end;
        else if (strcmp(key, "comment_doc_start") == 0) slot = &self->comment_doc_start;
        else if (strcmp(key, "comment_doc_end") == 0) slot = &self->comment_doc_end;
        else if (strcmp(key, "comment_doc_prefix") == 0) slot = &self->comment_doc_prefix;
        else if (strcmp(key, "formatter") == 0) slot = &self->formatter;
        else if (strcmp(key, "visibility") == 0) slot = &self->visibility;
        else if (strcmp(key, "keywords") == 0) slot = &self->keywords;
        else if (strcmp(key, "globals") == 0) language__append_words(&self->globals, value);
        else if (strcmp(key, "globals_of") == 0) slot = globals_of;
        else if (strcmp(key, "identifier_pattern") == 0) slot = &self->identifier_pattern;
        else if (strcmp(key, "modules") == 0) slot = &self->modules;
        else if (strcmp(key, "module_index") == 0) slot = &self->module_index;
        else if (strcmp(key, "constructor") == 0) slot = &self->constructor;
        else if (strcmp(key, "special_pattern") == 0) slot = &self->special_pattern;
        else if (strcmp(key, "title") == 0) slot = &self->title;
        else if (strcmp(key, "plain_bases") == 0) language__set_list(self->plain_bases, value);
        else if (strcmp(key, "plain_decorators") == 0)
          language__set_list(self->plain_decorators, value);
        else if (strcmp(key, "doc_inside") == 0) self->doc_inside = strcmp(value, "yes") == 0;
        else if (strcmp(key, "decorators") == 0) self->decorators = strcmp(value, "yes") == 0;
        else if (strcmp(key, "syntax_errors") == 0) self->errors_local = strcmp(value, "local") == 0;
        else if (strcmp(key, "identifier_normal_form") == 0)
          self->identifier_nfkc = strcmp(value, "NFKC") == 0;
        else if (strcmp(key, "import_dedent") == 0) self->import_dedent = strcmp(value, "yes") == 0;
        else if (strcmp(key, "blank_lines") == 0) self->blank_lines = strtoul(value, NULL, 10);
        else if (strcmp(key, "blank_lines_member") == 0)
          self->blank_lines_member = strtoul(value, NULL, 10);
        else if (strcmp(key, "indent") == 0) {
          free(self->indent);
          if (strcmp(value, "tab") == 0) {
            self->indent = strdup("\t");
          } else {
            size_t width = EDDI_MIN(strtoul(value, NULL, 10), LANGUAGE_INDENT_MAX);
            self->indent = calloc(width + 1, 1);
            memset(self->indent, ' ', width);
          }
        }
        if (slot) {
          free(*slot);
          *slot = strdup(value); /* literal, quotes included: Python docs use three */
        }
      }
    }
    if (!eol) break;
    line = eol + 1;
  }
}

/* ---------------------------------------------------------------- loading */

static TSQuery *language__query(EddiLang *self, const char *source, const char *file) {
  if (!source || !*source || !self->ts) return NULL;
  uint32_t error_offset;
  TSQueryError error;
  TSQuery *query = ts_query_new(self->ts, source, (uint32_t)strlen(source), &error_offset, &error);
  if (!query)
    snprintf(self->refused, sizeof self->refused,
             "Query %s/%s does not fit the grammar (error %d at byte %u)", self->name, file,
             (int)error, error_offset);
  return query;
}

/* Queries are compiled when a language is first asked for by name or by a
 * file's name, not at load: compiling all of them costs a process that
 * touches one language a tenth of a second. */
static const EddiGrammar *language__grammar[LANGUAGE_TABLE_MAX];
static bool language__compiled[LANGUAGE_TABLE_MAX]; /* set under the lock, read atomically */
static pthread_mutex_t language__compile_lock = PTHREAD_MUTEX_INITIALIZER;

static void language__load(void) {
  TSParser *probe = ts_parser_new();
  for (size_t i = 0; i < eddi_grammar_count && language__count < LANGUAGE_TABLE_MAX; i++) {
    const EddiGrammar *grammar = &eddi_grammar_table[i];
    language__grammar[language__count] = grammar;
    EddiLang *self = &language__table[language__count++];
    self->name = grammar->name;
    language__read_config(self, &language__globals_of[language__count - 1], grammar->config);
    const TSLanguage *ts = grammar->language();
    uint32_t abi = ts_language_version(ts);
    if (!ts_parser_set_language(probe, ts)) {
      snprintf(self->refused, sizeof self->refused,
               "Grammar %s has ABI %u, which this tree-sitter runtime (ABI %d to %d) refuses",
               self->name, abi, TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
               TREE_SITTER_LANGUAGE_VERSION);
      continue;
    }
    self->ts = ts;
  }
  ts_parser_delete(probe);
  for (size_t i = 0; i < language__count; i++) {
    for (size_t j = 0; language__globals_of[i] && j < language__count; j++)
      if (strcmp(language__table[j].name, language__globals_of[i]) == 0 && language__table[j].globals)
        language__append_words(&language__table[i].globals, language__table[j].globals);
    free(language__globals_of[i]);
    language__globals_of[i] = NULL;
  }
}

/* The language at index i of the table, its queries compiled. */
static const EddiLang *language__ready(size_t i) {
  EddiLang *self = &language__table[i];
  if (__atomic_load_n(&language__compiled[i], __ATOMIC_ACQUIRE)) return self;
  pthread_mutex_lock(&language__compile_lock);
  if (!language__compiled[i] && self->ts) {
    const EddiGrammar *grammar = language__grammar[i];
    self->structure = language__query(self, grammar->structure, "structure.scm");
    self->details = language__query(self, grammar->details, "details.scm");
    if (!self->refused[0]) self->locals = language__query(self, grammar->locals, "locals.scm");
    if (self->refused[0]) self->ts = NULL; /* a broken query: plain text, said why */
  }
  __atomic_store_n(&language__compiled[i], true, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&language__compile_lock);
  return self;
}

static size_t language__table_count(void) {
  pthread_once(&language__once, language__load);
  return language__count;
}

const EddiLang *eddi_lang_all(size_t *count) {
  *count = language__table_count();
  for (size_t i = 0; i < *count; i++) language__ready(i);
  return language__table;
}

size_t eddi_lang_count(void) { return language__table_count(); }

const char *eddi_lang_name(size_t index) { return language__table[index].name; }

const EddiLang *eddi_lang_by_name(const char *name) {
  size_t count = language__table_count();
  for (size_t i = 0; i < count; i++)
    if (strcmp(language__table[i].name, name) == 0) return language__ready(i);
  return NULL;
}

/* ---------------------------------------------------------------- detection */

/* "python3" matches shebang "python3"; "python3.11" matches "python3" too. */
static bool language__interpreter_is(const char *word, size_t len, const char *name) {
  size_t n = strlen(name);
  if (len < n || memcmp(word, name, n) != 0) return false;
  for (size_t i = n; i < len; i++)
    if (!(word[i] == '.' || (word[i] >= '0' && word[i] <= '9'))) return false;
  return true;
}

const EddiLang *eddi_lang_detect(const char *path, const char *first_line, size_t len) {
  size_t count = language__table_count();
  const EddiLang *all = language__table;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  if (dot && dot != base) {
    for (size_t i = 0; i < count; i++)
      for (size_t k = 0; k < EDDI_LANG_LIST_MAX && all[i].extensions[k]; k++)
        if (strcmp(all[i].extensions[k], dot) == 0) return language__ready(i);
  }
  if (len < 3 || first_line[0] != '#' || first_line[1] != '!') return NULL;
  /* #!/usr/bin/env [-S] python3 -u  ->  python3 */
  const char *p = first_line + 2, *end = first_line + len;
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  if (nl) end = nl;
  const char *word = NULL;
  size_t word_len = 0;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *start = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (p == start) break;
    const char *slash = start;
    for (const char *q = start; q < p; q++)
      if (*q == '/') slash = q + 1;
    size_t n = (size_t)(p - slash);
    if ((n == 3 && memcmp(slash, "env", 3) == 0) || (n >= 1 && slash[0] == '-')) continue;
    word = slash, word_len = n;
    break;
  }
  if (!word) return NULL;
  for (size_t i = 0; i < count; i++)
    for (size_t k = 0; k < EDDI_LANG_LIST_MAX && all[i].shebangs[k]; k++)
      if (language__interpreter_is(word, word_len, all[i].shebangs[k])) return language__ready(i);
  return NULL;
}
