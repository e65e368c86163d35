/* command_helpers.c - what every command handler uses: usage errors,
 * choices, tokens as strings, the cursor fact. */
#include "services/commands.h"

#include <stdarg.h>

#include "core/utf8.h"
#include "lang/suggest.h"

int eddi_command_usage(CommandContext *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char what[EDDI_ERROR_MAX];
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  eddi_error_set(ctx->err, EDDI_EINVAL, "%s", what);
  if (ctx->spec) eddi_error_hint(ctx->err, "Usage: %s", ctx->spec->syntax);
  return EDDI_EINVAL;
}

int eddi_command_choose(CommandContext *ctx, const Token *token, const char *what,
               const char *const *choices, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (eddi_token_is(token, choices[i])) return (int)i;
  eddi_error_set(ctx->err, EDDI_EINVAL, "Unknown %s '%.*s'", what,
                 (int)eddi_utf8_complete_prefix(token->source,
                                           EDDI_MIN(token->source_len, (size_t)64)),
                 token->source);
  const char *near = token->kind == TOKEN_WORD ? eddi_suggest(token->text, choices, count) : NULL;
  if (near) {
    eddi_error_hint(ctx->err, "Did you mean \"%s\"", near);
  } else {
    StrBuf list = {0};
    for (size_t i = 0; i < count; i++) eddi_strbuf_printf(&list, "%s%s", i ? ", " : "", choices[i]);
    eddi_error_hint(ctx->err, "Expected one of %s", list.data);
    eddi_strbuf_free(&list);
  }
  return EDDI_EINVAL;
}

char *eddi_command_token_string(const Token *token) {
  if (token->kind == TOKEN_STRING) return eddi_strndup(token->text, token->len);
  return eddi_strndup(token->source, token->source_len);
}

void eddi_command_fact_cursor(CommandContext *ctx, const EddiDoc *doc) {
  size_t line, col;
  eddi_text_position_of(&doc->text, doc->cursor, &line, &col);
  eddi_reply_builder_fact(ctx->reply, "At %zu:%zu", line, col);
}

void eddi_command_goto_line(EddiDoc *doc, size_t line) {
  line = EDDI_MIN(line, doc->text.newlines);
  doc->cursor = eddi_text_line_start(&doc->text, line);
}

