/* query_call.c - see query_call.h.
 *
 * The run is set up as a script's is (script_commands.c): the overlay
 * reads the session's open documents (copies) and the disk, within a
 * script's budgets. Nothing is written: a query only reads. The whole set
 * is computed, then one page of it is written out, so that `total` is
 * exact and a client pages with offset. Positions are 0-based line:column,
 * columns in characters, as everywhere in eddi. */
#include "services/query_call.h"

#include "core/utf8.h"
#include "script/changeset.h"
#include "script/script_run.h"
#include "services/commands.h"
#include "services/refactor_call.h"
#include "services/script_commands.h"
#include "syntax/syntax.h"

/* A query's time budget: a script's default. */
#define QUERY_TIME_MS 60000
#define QUERY_STEPS 1000000

static const char *const query__kinds[] = {"file", "line", "call", "function", "method",
                                           "class", "variable", "import"};

/* ---------------------------------------------------------------- JSON */

static void json__string(StrBuf *out, const char *s, size_t len) {
  eddi_strbuf_putc(out, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      eddi_strbuf_putc(out, '\\');
      eddi_strbuf_putc(out, (char)c);
    } else if (c == '\n') {
      eddi_strbuf_puts(out, "\\n");
    } else if (c == '\t') {
      eddi_strbuf_puts(out, "\\t");
    } else if (c == '\r') {
      eddi_strbuf_puts(out, "\\r");
    } else if (c < 0x20) {
      eddi_strbuf_printf(out, "\\u%04x", c);
    } else {
      eddi_strbuf_putc(out, (char)c);
    }
  }
  eddi_strbuf_putc(out, '"');
}

static void json__key(StrBuf *out, const char *key) {
  eddi_strbuf_printf(out, ",\"%s\":", key);
}

static void json__maybe(StrBuf *out, const char *key, const char *s, size_t len) {
  json__key(out, key);
  if (s) json__string(out, s, len);
  else eddi_strbuf_puts(out, "null");
}

/* A numeric field of the element as script_element_field counts it. */
static void json__count(StrBuf *out, ScriptRun *run, const ScriptElement *el, const char *key,
                        const char *field) {
  char *value = script_element_field(run, el, field);
  json__key(out, key);
  eddi_strbuf_puts(out, value && value[0] ? value : "0");
  eddi_free(value);
}

/* ---------------------------------------------------------------- elements */

/* The function or method whose text holds offset, innermost, as
 * "Class.method" or "function"; NULL when none does. A new string. */
static char *query__enclosing(ScriptRun *run, const ScriptElement *el) {
  ScriptFile *file = run->files.files.items[el->file];
  EddiSyntax *syn = script_file_syntax(&run->files, file);
  const EddiElement *best = NULL;
  for (size_t i = 0; syn && i < syn->elements.len; i++) {
    const EddiElement *e = &syn->elements.items[i];
    if (!(e->kind & (EDDI_ELEMENT_FUNCTION | EDDI_ELEMENT_METHOD)) || e->local) continue;
    if (e->start > el->start || e->end < el->end) continue;
    if (e->start == el->start && e->end == el->end) continue; /* the element itself */
    if (!best || e->end - e->start < best->end - best->start) best = e;
  }
  if (!best) return NULL;
  StrBuf name = {0};
  eddi_strbuf_printf(&name, "%s%s%s", best->owner ? best->owner : "", best->owner ? "." : "",
                     best->name);
  return eddi_strbuf_take(&name);
}

static void query__place(StrBuf *out, const ScriptFile *file, size_t offset, const char *line_key,
                         const char *col_key) {
  size_t line = 0, col = 0;
  eddi_utf8_line_col(file->text.data, file->text.len, EDDI_MIN(offset, file->text.len), &line,
                     &col);
  eddi_strbuf_printf(out, ",\"%s\":%zu,\"%s\":%zu", line_key, line, col_key, col);
}

static void query__element_json(ScriptRun *run, const ScriptElement *el, bool with_text,
                                StrBuf *out) {
  ScriptFile *file = run->files.files.items[el->file];
  const char *text = file->text.data ? file->text.data : "";
  eddi_strbuf_puts(out, "{\"kind\":");
  json__string(out, query__kinds[el->kind], strlen(query__kinds[el->kind]));
  const char *name = el->kind == SEL_FILE ? file->rel : el->name;
  json__maybe(out, "name", name, name ? strlen(name) : 0);
  json__maybe(out, "class", el->owner, el->owner ? strlen(el->owner) : 0);
  json__key(out, "path");
  json__string(out, file->rel, strlen(file->rel));
  size_t start = el->kind == SEL_FILE ? 0 : el->start;
  size_t end = el->kind == SEL_FILE ? file->text.len : el->end;
  query__place(out, file, start, "line", "col");
  query__place(out, file, end, "end_line", "end_col");
  if (el->name_end > el->name_start) query__place(out, file, el->name_start, "name_line", "name_col");
  json__count(out, run, el, "complexity", "complexity");
  json__count(out, run, el, "params", "params.count");
  json__count(out, run, el, "line_count", "line_count");
  bool params = el->has_params && el->params_end >= el->params_start &&
                el->params_end <= file->text.len;
  json__maybe(out, "signature", params ? text + el->params_start : NULL,
              params ? el->params_end - el->params_start : 0);
  if (el->kind == SEL_CALL) {
    json__key(out, "args");
    eddi_strbuf_putc(out, '[');
    for (size_t i = 0; i < el->args.len; i++) {
      const ScriptSpan *arg = &el->args.items[i];
      if (i) eddi_strbuf_putc(out, ',');
      size_t a = EDDI_MIN(arg->start, file->text.len), b = EDDI_MIN(arg->end, file->text.len);
      json__string(out, text + a, b > a ? b - a : 0);
    }
    eddi_strbuf_putc(out, ']');
  }
  if (el->kind == SEL_CALL || el->kind == SEL_LINE || el->kind == SEL_VARIABLE) {
    char *in = query__enclosing(run, el);
    json__maybe(out, "in", in, in ? strlen(in) : 0);
    eddi_free(in);
  }
  if (with_text) {
    size_t a = EDDI_MIN(start, file->text.len), b = EDDI_MIN(end, file->text.len);
    json__key(out, "text");
    json__string(out, text + a, b > a ? b - a : 0);
  }
  eddi_strbuf_putc(out, '}');
}

/* ---------------------------------------------------------------- the run */

static void query__run_init(CommandContext *ctx, ScriptRun *run) {
  eddi_script_run_prepare(ctx, run, QUERY_STEPS, QUERY_TIME_MS);
  clock_gettime(CLOCK_MONOTONIC, &run->start);
  run->deadline = run->start;
  run->deadline.tv_sec += (time_t)(run->max_ms / 1000);
  run->deadline.tv_nsec += (long)(run->max_ms % 1000) * 1000000L;
  if (run->deadline.tv_nsec >= 1000000000L) run->deadline.tv_sec++, run->deadline.tv_nsec -= 1000000000L;
}

/* The set of query in the one file path names, or in the files glob
 * matches (each as a foreach file would visit it), or in the workspace. */
static int query__eval(ScriptRun *run, const ScriptQuery *query, const char *path,
                       const char *glob, ScriptSet *out, EddiError *err) {
  if (!path && !glob) return script_query_eval(run, query, out, err);
  ScriptQuery files = {.kind = SQ_FILE_MATCHING, .arg = (char *)glob};
  ScriptSet scope = {0};
  int rc = 0;
  if (path) {
    uint32_t index;
    rc = script_files_get(&run->files, path, &index, err);
    if (rc == 0 && !run->files.files.items[index]->exists)
      rc = eddi_error_set(err, EDDI_ENOENT, "File not found: %s", path);
    if (rc == 0) {
      ScriptElement file = {.kind = SEL_FILE, .file = index,
                            .version = script_file_version(run->files.files.items[index])};
      array_push(&scope, file);
    }
  } else {
    rc = script_query_eval(run, &files, &scope, err);
  }
  for (size_t i = 0; rc == 0 && i < scope.len; i++) {
    ScriptElement visited;
    script_element_copy(&visited, &scope.items[i]);
    array_push(&run->visiting, visited);
    rc = script_query_eval(run, query, out, err);
    script_element_free(array_back(&run->visiting));
    run->visiting.len--;
  }
  script_set_free(&scope);
  return rc;
}

int eddi_query_call(CommandContext *ctx, const EddiCall *call, StrBuf *out) {
  EddiError *err = ctx->err;
  if (!call->text || !call->text[0]) {
    eddi_error_set(err, EDDI_EINVAL, "A query needs a set");
    eddi_error_hint(err, "methods in <Class>, caller of <f>, class <Name>, function, import, "
                         "file matching \"<glob>\", each with where <condition>");
    return EDDI_EINVAL;
  }
  size_t limit = call->limit ? call->limit : EDDI_QUERY_PAGE_DEFAULT;
  if (limit > EDDI_QUERY_PAGE_MAX) {
    eddi_error_set(err, EDDI_EINVAL, "limit %zu is above the page's most, %d", limit,
                   EDDI_QUERY_PAGE_MAX);
    eddi_error_hint(err, "Page with offset");
    return EDDI_EINVAL;
  }
  /* The one file, as a workspace path: outside paths are refused as
   * every command refuses them. */
  char *rel = NULL, *abs = NULL;
  if (call->path) {
    int resolved = eddi_command_resolve(ctx, call->path, &rel, &abs);
    eddi_free(abs);
    if (resolved < 0) return resolved;
  }
  ScriptQuery *query = NULL;
  int rc = eddi_script_parse_query(call->text, strlen(call->text), &query, err);
  if (rc < 0) {
    eddi_free(rel);
    return rc;
  }
  ScriptRun run;
  memset(&run, 0, sizeof run);
  query__run_init(ctx, &run);
  ScriptSet set = {0};
  rc = query__eval(&run, query, rel, call->glob, &set, err);
  if (rc == 0) {
    size_t first = EDDI_MIN(call->offset, set.len);
    size_t last = EDDI_MIN(set.len, first + limit);
    eddi_strbuf_puts(out, "{\"elements\":[");
    for (size_t i = first; i < last; i++) {
      if (i > first) eddi_strbuf_putc(out, ',');
      script_element_refresh(&run.files, &set.items[i]);
      query__element_json(&run, &set.items[i], call->with_text, out);
    }
    eddi_strbuf_printf(out, "],\"total\":%zu,\"offset\":%zu,\"next_offset\":", set.len, first);
    if (last < set.len) eddi_strbuf_printf(out, "%zu}", last);
    else eddi_strbuf_puts(out, "null}");
  }
  script_set_free(&set);
  script_run_free(&run);
  eddi_script_query_free(query);
  eddi_free(rel);
  return rc;
}
