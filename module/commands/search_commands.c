/* search_commands.c - Find and Replace (with its Confirm dialogue).
 *
 * Patterns run over a flat copy of the text: PCRE2 wants one buffer, and a
 * copy costs a memcpy next to the regex pass it serves. */
#include "command.h"

#include <ctype.h>
#include <strings.h>

/* Lines listed by Find All before "and N more". */
#define FIND_ALL_LINES_MAX 50

typedef struct {
  size_t start;
  size_t end;
  size_t replacement_at; /* the expanded replacement, in a shared buffer */
  size_t replacement_len;
} Match;

typedef Array(Match) MatchList;

static int search__compile(CommandContext *ctx, const Token *token, EddiPattern *pattern) {
  if (token->kind != TOKEN_STRING && token->kind != TOKEN_REGEX)
    return cmd_usage(ctx, "%s needs a \"text\" or /regex/ pattern", ctx->spec->name);
  return eddi_pattern_compile(pattern, token->text, token->len, token->kind == TOKEN_REGEX,
                              token->flags, ctx->err);
}

/* All matches in subject from byte `from` on, up to limit of them. With a
 * replacement, each match's expansion ($1...) is appended to expansions. */
static int search__all(EddiPattern *pattern, const char *subject, size_t len, size_t from,
                       size_t limit, const Token *replacement, StrBuf *expansions,
                       MatchList *out, EddiError *err) {
  while (out->len < limit) {
    Match m = {0};
    int rc = eddi_pattern_find(pattern, subject, len, from, &m.start, &m.end, err);
    if (rc <= 0) return rc;
    if (replacement) {
      m.replacement_at = expansions->len;
      eddi_pattern_expand(pattern, subject, replacement->text, replacement->len, expansions);
      m.replacement_len = expansions->len - m.replacement_at;
    }
    array_push(out, m);
    from = m.end > m.start ? m.end : eddi_pattern_step(subject, len, m.start);
  }
  return 0;
}

static char *search__flat(const EddiDoc *doc) {
  return eddi_text_dup(&doc->text, 0, eddi_text_len(&doc->text));
}

/* ---------------------------------------------------------------- Find */

int cmd_find(CommandContext *ctx) {
  static const char *const modes[] = {"Next", "Prev", "All"};
  enum { NEXT, PREV, ALL };
  if (ctx->argc < 1 || ctx->argc > 2) return cmd_usage(ctx, "Find needs a pattern");
  int mode = NEXT;
  if (ctx->argc == 2 && (mode = cmd_choose(ctx, &ctx->args[1], "mode", modes, 3)) < 0)
    return mode;
  EddiPattern pattern;
  int rc = search__compile(ctx, &ctx->args[0], &pattern);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
  char *subject = search__flat(doc);
  size_t len = eddi_text_len(&doc->text);
  size_t start = 0, end = 0;
  int found = 0;
  if (mode == NEXT) {
    size_t from = doc->cursor;
    if (doc->find_anchor_set && doc->find_anchor == doc->cursor)
      from = eddi_pattern_step(subject, len, from);
    found = eddi_pattern_find(&pattern, subject, len, from, &start, &end, ctx->err);
  } else if (mode == PREV) {
    for (size_t from = 0;;) {
      size_t s, e;
      int rc2 = eddi_pattern_find(&pattern, subject, len, from, &s, &e, ctx->err);
      if (rc2 < 0) found = rc2;
      if (rc2 <= 0 || s >= doc->cursor) break;
      start = s, end = e, found = 1;
      from = e > s ? e : eddi_pattern_step(subject, len, s);
    }
  } else {
    MatchList matches = {0};
    found = search__all(&pattern, subject, len, 0, SIZE_MAX, NULL, NULL, &matches, ctx->err);
    if (found == 0 && matches.len) {
      found = 1;
      reply_payload(ctx->reply, "Found %zu %s at %s ", matches.len,
                    matches.len == 1 ? "match" : "matches", "lines");
      size_t listed = 0, last_line = SIZE_MAX, lines = 0;
      for (size_t i = 0; i < matches.len; i++) {
        size_t line = eddi_text_line_at(&doc->text, matches.items[i].start);
        if (line == last_line) continue;
        last_line = line;
        lines++;
        if (listed < FIND_ALL_LINES_MAX)
          reply_payload(ctx->reply, "%s%zu", listed++ ? ", " : "", line);
      }
      if (lines > listed) reply_payload(ctx->reply, " and %zu more", lines - listed);
    }
    array_free(&matches);
  }
  eddi_free(subject);
  eddi_pattern_free(&pattern);
  if (found < 0) return found;
  if (found == 0) return eddi_error_set(ctx->err, EDDI_ENOENT, "Not found");
  if (mode != ALL) {
    doc->cursor = start;
    doc->find_anchor = start;
    doc->find_anchor_set = true;
    cmd_fact_cursor(ctx, doc);
  }
  return 0;
}

/* ---------------------------------------------------------------- Replace */

/* Replace each match (last first, so earlier offsets stay valid) as one
 * step; all or nothing. */
static int search__replace_matches(CommandContext *ctx, EddiDoc *doc, const MatchList *matches,
                                   const StrBuf *expansions) {
  for (size_t i = matches->len; i-- > 0;) {
    const Match *m = &matches->items[i];
    int rc = eddi_doc_replace(doc, m->start, m->end, expansions->data + m->replacement_at,
                              m->replacement_len, ctx->err);
    if (rc < 0) {
      eddi_doc_revert_group(doc);
      return rc;
    }
  }
  return 0;
}

int cmd_replace(CommandContext *ctx) {
  static const char *const modes[] = {"All", "Confirm"};
  enum { ALL, CONFIRM, ONE };
  if (ctx->argc < 2 || ctx->argc > 3) return cmd_usage(ctx, "Replace needs a pattern and a replacement");
  if (ctx->args[1].kind != TOKEN_STRING)
    return cmd_usage(ctx, "Replace's replacement must be a \"quoted string\"");
  int mode = ONE;
  if (ctx->argc == 3 && (mode = cmd_choose(ctx, &ctx->args[2], "mode", modes, 2)) < 0)
    return mode;
  EddiPattern pattern;
  int rc = search__compile(ctx, &ctx->args[0], &pattern);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
  size_t len = eddi_text_len(&doc->text);
  char *subject = search__flat(doc);
  MatchList matches = {0};
  StrBuf expansions = {0};
  strbuf_puts(&expansions, "");
  size_t from = mode == ALL ? 0 : doc->cursor;
  rc = search__all(&pattern, subject, len, from, mode == ALL ? SIZE_MAX : 1, &ctx->args[1],
                   &expansions, &matches, ctx->err);
  if (rc == 0 && matches.len == 0) rc = eddi_error_set(ctx->err, EDDI_ENOENT, "Pattern not found");
  if (rc == 0 && mode == CONFIRM) {
    ReplaceConfirm *confirm = &ctx->session->confirm;
    confirm->active = true;
    confirm->doc = doc;
    confirm->pattern = pattern;
    confirm->replacement = eddi_strndup(ctx->args[1].text, ctx->args[1].len);
    confirm->replacement_len = ctx->args[1].len;
    confirm->match_start = matches.items[0].start;
    confirm->match_end = matches.items[0].end;
    confirm->replaced = 0;
    memset(&pattern, 0, sizeof pattern); /* now owned by the confirm state */
    doc->cursor = confirm->match_start;
    cmd_fact_cursor(ctx, doc);
    reply_fact(ctx->reply, "Replace? (y/n)");
  } else if (rc == 0) {
    rc = search__replace_matches(ctx, doc, &matches, &expansions);
    if (rc == 0) {
      reply_fact(ctx->reply, "Replaced %zu %s", matches.len,
                 matches.len == 1 ? "occurrence" : "occurrences");
      if (mode == ONE) {
        doc->cursor = matches.items[0].start + matches.items[0].replacement_len;
        cmd_fact_cursor(ctx, doc);
      }
    }
  }
  strbuf_free(&expansions);
  array_free(&matches);
  eddi_free(subject);
  eddi_pattern_free(&pattern);
  return rc;
}

bool cmd_is_confirm_answer(const char *text, size_t len, char *answer, size_t answer_size) {
  while (len && isspace((unsigned char)*text)) text++, len--;
  while (len && isspace((unsigned char)text[len - 1])) len--;
  static const char *const answers[] = {"y", "n", "all", "quit", "yes", "no", "q"};
  for (size_t i = 0; i < sizeof answers / sizeof *answers; i++) {
    if (strlen(answers[i]) == len && strncasecmp(text, answers[i], len) == 0) {
      snprintf(answer, answer_size, "%s", answers[i]);
      return true;
    }
  }
  return false;
}

/* Replace the match the dialogue asked about; false when it is gone (the
 * text changed under it). */
static int search__confirm_replace_one(CommandContext *ctx, ReplaceConfirm *confirm,
                                       size_t *next_from) {
  EddiDoc *doc = confirm->doc;
  char *subject = search__flat(doc);
  size_t len = eddi_text_len(&doc->text), s, e;
  int rc = eddi_pattern_find(&confirm->pattern, subject, len, confirm->match_start, &s, &e,
                             ctx->err);
  if (rc == 1 && s == confirm->match_start) {
    StrBuf expanded = {0};
    eddi_pattern_expand(&confirm->pattern, subject, confirm->replacement,
                        confirm->replacement_len, &expanded);
    rc = eddi_doc_replace(doc, s, e, expanded.data ? expanded.data : "", expanded.len,
                          ctx->err);
    if (rc == 0) {
      confirm->replaced++;
      *next_from = s + expanded.len + (e == s && expanded.len == 0 ? 1 : 0);
    }
    strbuf_free(&expanded);
  } else if (rc >= 0) {
    *next_from = confirm->match_start; /* gone: ask about whatever is there now */
    rc = 0;
  }
  eddi_free(subject);
  return rc;
}

int cmd_replace_answer(CommandContext *ctx, const char *answer) {
  ReplaceConfirm *confirm = &ctx->session->confirm;
  EddiDoc *doc = confirm->doc;
  bool all = strcmp(answer, "all") == 0;
  bool yes = all || answer[0] == 'y';
  bool quit = answer[0] == 'q';
  int rc = 0;
  for (;;) {
    size_t from = confirm->match_start;
    if (quit) break;
    if (yes) {
      rc = search__confirm_replace_one(ctx, confirm, &from);
      if (rc < 0) break;
    } else {
      char *subject = search__flat(doc);
      from = confirm->match_end > confirm->match_start
                 ? confirm->match_end
                 : eddi_pattern_step(subject, eddi_text_len(&doc->text), confirm->match_start);
      eddi_free(subject);
    }
    char *subject = search__flat(doc);
    size_t s, e;
    int found = eddi_pattern_find(&confirm->pattern, subject, eddi_text_len(&doc->text), from,
                                  &s, &e, ctx->err);
    eddi_free(subject);
    if (found < 0) rc = found;
    if (found <= 0) break;
    confirm->match_start = s, confirm->match_end = e;
    if (!all) {
      doc->cursor = s;
      cmd_fact_cursor(ctx, doc);
      reply_fact(ctx->reply, "Replace? (y/n)");
      return 0;
    }
  }
  size_t replaced = confirm->replaced;
  eddi_session_cancel_confirm(ctx->session);
  if (rc < 0) return rc;
  reply_fact(ctx->reply, "Replaced %zu %s", replaced, replaced == 1 ? "occurrence" : "occurrences");
  return 0;
}
