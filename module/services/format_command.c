/* format_command.c - Format: the language's formatter over the whole file.
 *
 * The formatter is the command language.conf names for the language; it
 * reads the text on stdin and writes the formatted text on stdout. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "services/structure.h"

/* The most output a formatter may write: more is not a formatted file. */
#define STRUCTURE_FORMAT_MAX_BYTES ((size_t)16 << 20)

/* ---------------------------------------------------------------- Format */

/* Whether the command's program is on PATH. */
static bool format__on_path(const char *command) {
  char program[256];
  size_t n = strcspn(command, " ");
  if (n == 0 || n >= sizeof program) return false;
  memcpy(program, command, n);
  program[n] = '\0';
  if (strchr(program, '/')) return access(program, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path) return false;
  for (const char *p = path; *p;) {
    const char *end = strchr(p, ':');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char full[1024];
    snprintf(full, sizeof full, "%.*s/%s", (int)len, p, program);
    if (access(full, X_OK) == 0) return true;
    if (!end) break;
    p = end + 1;
  }
  return false;
}

int eddi_run_format(CommandContext *ctx) {
  EddiDoc *doc = ctx->session->current;
  if (ctx->argc > 0 && !eddi_token_is(&ctx->args[0], "File"))
    return eddi_error_set(ctx->err, EDDI_EINVAL, "Format formats whole files");
  EddiSyntax *syn;
  int rc = eddi_structure_syntax(ctx, doc, &syn);
  if (rc < 0) return rc;
  const EddiLang *lang = syn->lang;
  if (!lang->formatter || !format__on_path(lang->formatter))
    return eddi_error_set(ctx->err, EDDI_ENOENT, "No formatter for %s", lang->name);
  /* The text goes through a temporary file: the formatter reads it on
   * stdin and writes the result to stdout, which is read whole. */
  char input[] = "/tmp/eddi-format-XXXXXX";
  int fd = mkstemp(input);
  if (fd < 0) return eddi_error_set(ctx->err, EDDI_EIO, "Cannot make a temporary file");
  size_t len = eddi_text_len(&doc->text);
  char *text = eddi_text_dup(&doc->text, 0, len);
  bool written = write(fd, text, len) == (ssize_t)len;
  close(fd);
  StrBuf command = {0}, out = {0};
  eddi_strbuf_printf(&command, "%s < '%s' 2>/dev/null", lang->formatter, input);
  FILE *pipe = written ? popen(command.data, "r") : NULL;
  int status = -1;
  if (pipe) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0 && out.len < STRUCTURE_FORMAT_MAX_BYTES)
      eddi_strbuf_append(&out, buf, n);
    status = pclose(pipe);
  }
  unlink(input);
  if (status != 0 || !WIFEXITED(status)) {
    rc = eddi_error_set(ctx->err, EDDI_EINVAL, "The formatter failed on %s", doc->path);
    eddi_error_hint(ctx->err, "Validate shows syntax errors");
  } else if (out.len == len && memcmp(out.data ? out.data : "", text, len) == 0) {
    eddi_reply_builder_fact(ctx->reply, "Already formatted");
  } else {
    rc = eddi_doc_replace(doc, 0, len, out.data ? out.data : "", out.len, ctx->err);
    if (rc == 0)
      eddi_reply_builder_fact(ctx->reply, "Formatted, Lines %zu", eddi_text_line_count(&doc->text));
  }
  if (rc == 0) eddi_command_fact_cursor(ctx, doc);
  eddi_free(text);
  eddi_strbuf_free(&command), eddi_strbuf_free(&out);
  return rc;
}

