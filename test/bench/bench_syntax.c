/* bench_syntax.c - the syntax layer against bare tree-sitter.
 *
 *   bench_syntax [lines]      (default 10000)
 *
 * Two figures, each next to its reference (issue targets in brackets):
 *  1. Outline of a Python file: eddi_syntax_get on a fresh document (parse
 *     through the text-store reader + the structure query + element list)
 *     against a bare ts_parser_parse_string of the same bytes [<= 1.2x].
 *  2. After a one-line edit, the next structural command's reparse (the
 *     edit was recorded with ts_tree_edit; the old tree is reused) [<= 1 ms
 *     median], and the same with the outline rebuilt.
 * Medians of repeated runs; the generated file is deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"

#include "core/document.h"
#include "syntax/syntax.h"

#define BENCH_RUNS 21
#define BENCH_EDITS 201

/* Classes of methods and free functions, about `lines` lines. */
static char *python_source(size_t lines, size_t *len) {
  StrBuf out = {0};
  eddi_strbuf_puts(&out, "import os\nimport sys\n\n\n");
  size_t n = 0, counted = 0, newlines = 0;
  for (;;) {
    for (; counted < out.len; counted++) newlines += out.data[counted] == '\n';
    if (newlines >= lines) break;
    eddi_strbuf_printf(&out, "class Model%zu:\n    \"\"\"Model number %zu.\"\"\"\n\n", n, n);
    eddi_strbuf_printf(&out, "    limit = %zu\n\n", n);
    for (int m = 0; m < 6; m++) {
      eddi_strbuf_printf(&out, "    def method_%d(self, value, scale=2):\n", m);
      eddi_strbuf_printf(&out, "        if value > %d and scale:\n", m);
      eddi_strbuf_printf(&out, "            return [x * scale for x in range(value)]\n");
      eddi_strbuf_printf(&out, "        return os.path.join(str(value), '%zu')\n\n", n);
    }
    eddi_strbuf_printf(&out, "\ndef helper_%zu(a, b):\n    while a < b:\n        a += 1\n"
                        "    return a\n\n\n", n);
    n++;
  }
  *len = out.len;
  return eddi_strbuf_take(&out);
}

int main(int argc, char **argv) {
  size_t lines = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
  size_t len;
  char *source = python_source(lines, &len);
  const EddiLang *python = eddi_lang_by_name("python");
  if (!python || !python->ts) {
    fprintf(stderr, "bench_syntax: no Python grammar\n");
    return 1;
  }
  EddiError err = {0};

  /* 1. Bare parse against eddi's outline. */
  double bare[BENCH_RUNS], outline[BENCH_RUNS];
  size_t elements = 0;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, python->ts);
  for (int i = 0; i < BENCH_RUNS; i++) {
    double t0 = bench_now_ms();
    TSTree *tree = ts_parser_parse_string(parser, NULL, source, (uint32_t)len);
    bare[i] = bench_now_ms() - t0;
    ts_tree_delete(tree);

    EddiDoc *doc = eddi_doc_new("bench.py", NULL, source, len, true, 10);
    EddiSyntax *syn;
    t0 = bench_now_ms();
    if (eddi_syntax_get(doc, 0, &syn, &err) < 0) {
      fprintf(stderr, "bench_syntax: %s\n", err.what);
      return 1;
    }
    outline[i] = bench_now_ms() - t0;
    elements = syn->elements.len;
    eddi_doc_free(doc);
  }
  ts_parser_delete(parser);
  double bare_ms = bench_median(bare, BENCH_RUNS), outline_ms = bench_median(outline, BENCH_RUNS);

  /* 2. One-line edits in the middle, then the next structural command. */
  EddiDoc *doc = eddi_doc_new("bench.py", NULL, source, len, true, 10);
  EddiSyntax *syn;
  eddi_syntax_get(doc, 0, &syn, &err);
  double reparse[BENCH_EDITS], reoutline[BENCH_EDITS];
  size_t line_count = eddi_text_line_count(&doc->text);
  for (int i = 0; i < BENCH_EDITS; i++) {
    /* Rename a local on some line of the middle third: one-line edit. */
    size_t line = line_count / 3 + (size_t)i * 7 % (line_count / 3);
    size_t at = eddi_text_line_end(&doc->text, line);
    const char *text = i % 2 ? "  # edited" : " ";
    eddi_doc_replace(doc, at, at, text, strlen(text), &err);
    eddi_doc_end_group(doc);
    /* The reparse alone ... */
    double t0 = bench_now_ms();
    TSTree *tree = eddi_syntax_parse_text(syn->parser, syn->tree, &doc->text);
    reparse[i] = bench_now_ms() - t0;
    ts_tree_delete(tree);
    /* ... and what a structural command pays: reparse + outline. */
    t0 = bench_now_ms();
    eddi_syntax_get(doc, 0, &syn, &err);
    reoutline[i] = bench_now_ms() - t0;
  }
  eddi_doc_free(doc);

  printf("syntax: %zu-line Python file (%zu bytes, %zu elements)\n", line_count, len, elements);
  printf("  outline (parse + elements)    %8.2f ms   bare ts_parser_parse %8.2f ms   ratio %.2fx "
         "[target <= 1.2x]\n",
         outline_ms, bare_ms, outline_ms / bare_ms);
  printf("  after a one-line edit: reparse %6.3f ms median   reparse + outline %6.3f ms median "
         "[target <= 1 ms]\n",
         bench_median(reparse, BENCH_EDITS), bench_median(reoutline, BENCH_EDITS));
  eddi_free(source);
  return 0;
}
