/* search_commands.c - Find and Replace (with its Confirm dialogue).
 *
 * Patterns run over the text store in place (EddiTextSearch): no copy of
 * the file per search. */
#include "services/commands.h"

#include <ctype.h>
#include <strings.h>

#include "core/utf8.h"
#include "edit/search.h"

/* Lines listed by Find All before "and N more". */
#define FIND_ALL_LINES_MAX 50

typedef struct {
  size_t start;
  size_t end;
  size_t replacement_at; /* the expanded replacement, in a shared buffer */
  size_t replacement_len;
} Match;

typedef Array(Match) MatchList;

/* ---------------------------------------------------------------- Confirm's state */

/* Replace ... Confirm in progress: the sender's next message answers it. */
typedef struct {
  EddiDoc *doc;
  EddiPattern pattern;
  char *replacement;
  size_t replacement_len;
  size_t match_start; /* the match being asked about */
  size_t match_end;
  size_t replaced;
} ReplaceConfirm;

static void confirm__free(void *data) {
  ReplaceConfirm *confirm = data;
  eddi_pattern_free(&confirm->pattern);
  eddi_free(confirm->replacement);
  eddi_free(confirm);
}

/* A dialogue on a closing document ends with it. */
static bool confirm__forget_doc(void *data, const EddiDoc *doc) {
  const ReplaceConfirm *confirm = data;
  return confirm->doc == doc;
}

static const EddiSlotType confirm_slot = {"Replace Confirm", confirm__free, confirm__forget_doc};

/* How much of a pattern a "not found" quotes: enough to know it by. */
#define MATCH_SHOWN_MAX 64

static int match__compile(CommandContext *ctx, const Token *token, EddiPattern *pattern) {
  if (token->kind != TOKEN_STRING && token->kind != TOKEN_REGEX)
    return eddi_command_usage(ctx, "%s needs a \"text\" or /regex/ pattern", ctx->spec->name);
  int rc = eddi_pattern_compile(pattern, token->text, token->len, token->kind == TOKEN_REGEX,
                                token->flags, ctx->err);
  if (rc < 0) eddi_command_hint_pattern(ctx, token);
  return rc;
}

void eddi_command_hint_pattern(CommandContext *ctx, const Token *token) {
  if (ctx->err->hint[0]) return;
  if (token->len == 0)
    eddi_error_hint(ctx->err, "Give the \"text\" or /regex/ to look for");
  else if (strncmp(ctx->err->what, "Bad regex", strlen("Bad regex")) == 0)
    eddi_error_hint(ctx->err, "Escape the character with \\, or give a \"text\" to match it as it is");
}

/* Where to search after an empty match at `at`: one character on. */
static size_t match__step(const EddiText *text, size_t at) {
  if (at >= eddi_text_len(text)) return at + 1;
  return at + eddi_utf8_char_len((unsigned char)eddi_text_byte_at(text, at));
}

/* All matches from text offset `from` on, up to limit of them. With a
 * replacement, each match's expansion ($1...) is appended to expansions. */
static int match__all(EddiPattern *pattern, const EddiText *text, size_t from, size_t limit,
                      const Token *replacement, StrBuf *expansions, MatchList *out,
                      EddiError *err) {
  EddiTextSearch search;
  eddi_text_search_init(&search, pattern, text);
  int rc = 0;
  while (out->len < limit) {
    Match m = {0};
    rc = eddi_text_search_find(&search, from, &m.start, &m.end, err);
    if (rc <= 0) break;
    rc = 0;
    if (replacement) {
      m.replacement_at = expansions->len;
      eddi_text_search_expand(&search, replacement->text, replacement->len, expansions);
      m.replacement_len = expansions->len - m.replacement_at;
    }
    array_push(out, m);
    from = m.end > m.start ? m.end : match__step(text, m.start);
  }
  eddi_text_search_free(&search);
  return rc;
}

/* The first match at or after from; 1, 0 or an error. */
static int match__first(EddiPattern *pattern, const EddiText *text, size_t from, Match *m,
                        EddiError *err) {
  MatchList one = {0};
  int rc = match__all(pattern, text, from, 1, NULL, NULL, &one, err);
  if (rc == 0 && one.len) *m = one.items[0], rc = 1;
  array_free(&one);
  return rc;
}

/* "INFO" as "INFO", /x+/i as itself: the pattern as a reason quotes it. */
static int match__shown(const Token *token, const char **start) {
  *start = token->kind == TOKEN_STRING ? token->text : token->source;
  size_t len = token->kind == TOKEN_STRING ? token->len : token->source_len;
  return (int)eddi_utf8_complete_prefix(*start, EDDI_MIN(len, (size_t)MATCH_SHOWN_MAX));
}

/* The match nearest the cursor on the other side of it: the last one
 * before it (after: the command looked after the cursor) or the first at
 * or after it. 1 (in *other), 0, or an error (a search past its time). */
static int match__other(EddiPattern *pattern, const EddiText *text, size_t cursor, bool after,
                        Match *other, EddiError *err) {
  MatchList all = {0};
  int rc = match__all(pattern, text, 0, SIZE_MAX, NULL, NULL, &all, err);
  int found = 0;
  for (size_t i = 0; rc == 0 && i < all.len; i++) {
    bool before_cursor = all.items[i].start < cursor;
    if (after && before_cursor) *other = all.items[i], found = 1;
    if (!after && !before_cursor && !found) *other = all.items[i], found = 1;
  }
  array_free(&all);
  return rc < 0 ? rc : found;
}

/* The Fail of a pattern with no match where the command looked: named,
 * and when it does match on the other side of the cursor (other, or
 * NULL), where, and how to get there (next: what to send, given that
 * match's position). */
static int match__not_found(CommandContext *ctx, const char *what, const Token *token,
                            const Match *other, bool after, const char *next) {
  EddiDoc *doc = ctx->session->current;
  const char *shown;
  int shown_len = match__shown(token, &shown);
  size_t line, col;
  eddi_text_position_of(&doc->text, doc->cursor, &line, &col);
  if (!other)
    return eddi_error_set(ctx->err, EDDI_ENOENT, "%s: %.*s", what, shown_len, shown);
  eddi_error_set(ctx->err, EDDI_ENOENT, "%s %s %zu:%zu: %.*s", what, after ? "after" : "before",
                 line, col, shown_len, shown);
  size_t at_line, at_col;
  eddi_text_position_of(&doc->text, other->start, &at_line, &at_col);
  if (other->start == doc->cursor)
    eddi_error_hint(ctx->err, "The first match is here, at %zu:%zu", at_line, at_col);
  else
    eddi_error_hint(ctx->err, "It is at %zu:%zu, %s the cursor: %s", at_line, at_col,
                    after ? "before" : "after", next);
  return EDDI_ENOENT;
}

/* "Found 3 matches at lines 4, 9, 12": the first FIND_ALL_LINES_MAX lines. */
static void match__list_lines(CommandContext *ctx, const EddiText *text,
                              const MatchList *matches) {
  eddi_reply_builder_payload(ctx->reply, "Found %zu %s at %s ", matches->len,
                matches->len == 1 ? "match" : "matches", "lines");
  size_t listed = 0, last_line = SIZE_MAX, last_line_end = 0;
  for (size_t i = 0; i < matches->len; i++) {
    if (last_line != SIZE_MAX && matches->items[i].start <= last_line_end) continue;
    if (listed == FIND_ALL_LINES_MAX) {
      eddi_reply_builder_payload(ctx->reply, " and more");
      return;
    }
    last_line = eddi_text_line_at(text, matches->items[i].start);
    last_line_end = eddi_text_next_newline(text, matches->items[i].start);
    eddi_reply_builder_payload(ctx->reply, "%s%zu", listed++ ? ", " : "", last_line);
  }
}

/* ---------------------------------------------------------------- Find */

enum { FIND_NEXT, FIND_PREV, FIND_ALL };

/* What a Find found, by find__search; the reply is made from it. */
typedef struct {
  int found;        /* 1, 0, or the search's error */
  Match m;          /* Next, Prev: the match */
  MatchList all;    /* All: every match */
  int elsewhere;    /* none found: 1 when other is the nearest on the other side */
  Match other;
} FindResult;

/* The search of a Find in mode from the cursor (from: where Next starts),
 * under the time limit; no document is touched, so that it may run on a
 * worker over a view of the text. */
static void find__search(EddiPattern *pattern, const EddiText *text, int mode, size_t from,
                         size_t cursor, unsigned timeout_ms, FindResult *out, EddiError *err) {
  eddi_pattern_deadline(timeout_ms);
  if (mode == FIND_NEXT) {
    out->found = match__first(pattern, text, from, &out->m, err);
  } else {
    /* Prev walks the matches before the cursor and keeps the last. */
    out->found = match__all(pattern, text, 0, SIZE_MAX, NULL, NULL, &out->all, err);
    if (out->found == 0 && mode == FIND_PREV) {
      for (size_t i = 0; i < out->all.len && out->all.items[i].start < cursor; i++)
        out->m = out->all.items[i], out->found = 1;
    } else if (out->found == 0 && out->all.len) {
      out->found = 1;
    }
  }
  if (out->found == 0) {
    int rc = match__other(pattern, text, cursor, mode != FIND_PREV, &out->other, err);
    if (rc < 0) out->found = rc;
    else out->elsewhere = rc;
  }
  eddi_pattern_deadline(0);
}

/* The reply of a Find from its result, on the owner thread. */
static int find__reply(CommandContext *ctx, int mode, const FindResult *result) {
  EddiDoc *doc = ctx->session->current;
  if (result->found < 0) return result->found;
  if (result->found == 0) {
    char next[EDDI_ERROR_MAX];
    snprintf(next, sizeof next, "Find %.*s %s", (int)EDDI_MIN(ctx->args[0].source_len,
                                                           (size_t)MATCH_SHOWN_MAX),
             ctx->args[0].source, mode == FIND_NEXT ? "Prev" : "Next");
    const Match *other = result->elsewhere ? &result->other : NULL;
    return match__not_found(ctx, "Not found", &ctx->args[0], other, mode != FIND_PREV,
                            mode == FIND_ALL ? "" : next);
  }
  if (mode == FIND_ALL) {
    match__list_lines(ctx, &doc->text, &result->all);
    return 0;
  }
  doc->cursor = result->m.start;
  doc->find_anchor = result->m.start;
  doc->find_anchor_set = true;
  eddi_command_fact_cursor(ctx, doc);
  return 0;
}

/* A Find over a text of at least EDDI_DOC_LONG_WORK_BYTES: the search runs
 * on a worker over a view of the text, so that other senders are answered
 * meanwhile (this sender's later requests wait behind it, so nothing edits
 * the document); the owner checks the document is as it was and replies. */
typedef struct {
  EddiJob base;
  EddiDoc *doc;
  size_t len;
  uint64_t undo_top;
  EddiText view;
  char *pattern;
  size_t pattern_len;
  bool regex;
  unsigned flags;
  int mode;
  size_t from, cursor;
  unsigned timeout_ms;
  EddiError err;
  FindResult result;
} FindJob;

static uint64_t doc__undo_top(const EddiDoc *doc) {
  return doc->undo.len ? array_back(&doc->undo)->id : 0;
}

static void find_job__work(EddiJob *base) {
  FindJob *self = (FindJob *)base;
  EddiPattern pattern;
  self->result.found = eddi_pattern_compile(&pattern, self->pattern, self->pattern_len,
                                            self->regex, self->flags, &self->err);
  if (self->result.found < 0) return;
  find__search(&pattern, &self->view, self->mode, self->from, self->cursor, self->timeout_ms,
               &self->result, &self->err);
  eddi_pattern_free(&pattern);
}

static int find_job__finish(EddiJob *base, CommandContext *ctx) {
  FindJob *self = (FindJob *)base;
  EddiDoc *doc = ctx->session->current;
  if (doc != self->doc || eddi_text_len(&doc->text) != self->len ||
      doc__undo_top(doc) != self->undo_top || doc->cursor != self->cursor)
    return eddi_error_set(ctx->err, EDDI_ESTALE, "The file changed while Find ran");
  if (self->result.found < 0) *ctx->err = self->err;
  return find__reply(ctx, self->mode, &self->result);
}

static void find_job__destroy(EddiJob *base) {
  FindJob *self = (FindJob *)base;
  eddi_text_view_free(&self->view);
  array_free(&self->result.all);
  eddi_free(self->pattern);
  eddi_free(self);
}

int eddi_run_find(CommandContext *ctx) {
  static const char *const modes[] = {"Next", "Prev", "All"};
  if (ctx->argc < 1 || ctx->argc > 2) return eddi_command_usage(ctx, "Find needs a pattern");
  int mode = FIND_NEXT;
  if (ctx->argc == 2 && (mode = eddi_command_choose(ctx, &ctx->args[1], "mode", modes, 3)) < 0)
    return mode;
  EddiPattern pattern;
  int rc = match__compile(ctx, &ctx->args[0], &pattern);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
  const EddiText *text = &doc->text;
  size_t from = doc->cursor;
  if (mode == FIND_NEXT && doc->find_anchor_set && doc->find_anchor == doc->cursor)
    from = match__step(text, from);
  unsigned timeout_ms = eddi_workspace_config(ctx->workspace)->search_timeout_ms;
  if (eddi_text_len(text) >= EDDI_DOC_LONG_WORK_BYTES) {
    eddi_pattern_free(&pattern);
    const Token *token = &ctx->args[0];
    FindJob *job = eddi_calloc(1, sizeof *job);
    job->base = (EddiJob){find_job__work, find_job__finish, find_job__destroy};
    job->doc = doc;
    job->len = eddi_text_len(text);
    job->undo_top = doc__undo_top(doc);
    eddi_text_view(text, &job->view);
    job->pattern = eddi_strndup(token->text, token->len);
    job->pattern_len = token->len;
    job->regex = token->kind == TOKEN_REGEX;
    job->flags = token->flags;
    job->mode = mode;
    job->from = from;
    job->cursor = doc->cursor;
    job->timeout_ms = timeout_ms;
    return eddi_job_start(ctx, &job->base);
  }
  FindResult result = {0};
  find__search(&pattern, text, mode, from, doc->cursor, timeout_ms, &result, ctx->err);
  eddi_pattern_free(&pattern);
  rc = find__reply(ctx, mode, &result);
  array_free(&result.all);
  return rc;
}

/* ---------------------------------------------------------------- Replace */

/* Replace every match as one step; all or nothing. */
static int match__replace_all(CommandContext *ctx, EddiDoc *doc, const MatchList *matches,
                              const StrBuf *expansions) {
  TextReplacement *edits = eddi_malloc(matches->len * sizeof *edits);
  for (size_t i = 0; i < matches->len; i++) {
    const Match *m = &matches->items[i];
    edits[i] = (TextReplacement){m->start, m->end, expansions->data + m->replacement_at,
                                 m->replacement_len};
  }
  int rc = eddi_doc_replace_many(doc, edits, matches->len, ctx->err);
  eddi_free(edits);
  return rc;
}

/* ---------------------------------------------------------------- Replace All as long work */

/* A Replace All over a text of at least EDDI_DOC_LONG_WORK_BYTES: the
 * search, the new text and the undo records are made on a worker over
 * a view of the text (the session's later requests wait behind the job, so
 * nothing edits the document meanwhile); the owner puts the new text in and
 * records the step, or says nothing matched. */
typedef struct {
  EddiJob base;
  EddiDoc *doc;          /* the session's, checked again at the finish */
  size_t len;            /* its length then */
  uint64_t undo_top;     /* its newest undo group then */
  EddiText view;
  char *pattern;         /* to compile on the worker (patterns are per thread) */
  size_t pattern_len;
  bool regex;
  unsigned flags;
  char *replacement;
  size_t replacement_len;
  char *shown;           /* the pattern as a "not found" quotes it */
  unsigned timeout_ms;   /* search_timeout_ms */
  /* The worker's results. */
  int rc;
  EddiError err;
  MatchList matches;
  StrBuf expansions;
  TextReplacement *edits;
  DocEdit *records;
  EddiText built;
} ReplaceAllJob;

static void replace_all__destroy(EddiJob *base) {
  ReplaceAllJob *self = (ReplaceAllJob *)base;
  eddi_text_view_free(&self->view);
  eddi_text_free(&self->built);
  if (self->records) {
    for (size_t i = 0; i < self->matches.len; i++) {
      eddi_free(self->records[i].removed);
      eddi_free(self->records[i].inserted);
    }
    eddi_free(self->records);
  }
  eddi_free(self->edits);
  array_free(&self->matches);
  eddi_strbuf_free(&self->expansions);
  eddi_free(self->pattern);
  eddi_free(self->replacement);
  eddi_free(self->shown);
  eddi_free(self);
}

static uint64_t replace_all__undo_top(const EddiDoc *doc) {
  return doc__undo_top(doc);
}

static void replace_all__work(EddiJob *base) {
  ReplaceAllJob *self = (ReplaceAllJob *)base;
  EddiPattern pattern;
  self->rc = eddi_pattern_compile(&pattern, self->pattern, self->pattern_len, self->regex,
                                  self->flags, &self->err);
  if (self->rc < 0) return;
  Token replacement = {.text = self->replacement, .len = self->replacement_len};
  eddi_strbuf_puts(&self->expansions, "");
  eddi_pattern_deadline(self->timeout_ms);
  self->rc = match__all(&pattern, &self->view, 0, SIZE_MAX, &replacement, &self->expansions,
                        &self->matches, &self->err);
  eddi_pattern_deadline(0);
  eddi_pattern_free(&pattern);
  size_t count = self->matches.len;
  if (self->rc < 0 || count == 0) return;
  /* The edits, the undo records (last edit first) and the new text. */
  self->edits = eddi_malloc(count * sizeof *self->edits);
  self->records = eddi_malloc(count * sizeof *self->records);
  for (size_t i = 0; i < count; i++) {
    const Match *m = &self->matches.items[i];
    const char *bytes = self->expansions.data + m->replacement_at;
    self->edits[i] = (TextReplacement){m->start, m->end, bytes, m->replacement_len};
    self->records[count - 1 - i] =
        (DocEdit){.start = m->start, .removed = eddi_text_dup(&self->view, m->start, m->end),
                  .removed_len = m->end - m->start,
                  .inserted = eddi_strndup(bytes, m->replacement_len),
                  .inserted_len = m->replacement_len};
  }
  eddi_text_build_replaced(&self->view, self->edits, count, &self->built);
}

static int replace_all__finish(EddiJob *base, CommandContext *ctx) {
  ReplaceAllJob *self = (ReplaceAllJob *)base;
  EddiDoc *doc = self->doc;
  bool same = false;
  for (size_t i = 0; i < ctx->session->docs.len; i++) same |= ctx->session->docs.items[i] == doc;
  if (!same || eddi_text_len(&doc->text) != self->len || replace_all__undo_top(doc) != self->undo_top)
    return eddi_error_set(ctx->err, EDDI_ESTALE, "The file changed while Replace All ran");
  if (self->rc < 0) {
    *ctx->err = self->err;
    return self->rc;
  }
  size_t count = self->matches.len;
  if (count == 0)
    return eddi_error_set(ctx->err, EDDI_ENOENT, "Pattern not found: %s", self->shown);
  eddi_doc_commit_built(doc, &self->built, self->edits, count, self->records);
  self->records = NULL; /* the document's now */
  eddi_reply_builder_fact(ctx->reply, "Replaced %zu %s", count,
                          count == 1 ? "occurrence" : "occurrences");
  return 0;
}

/* Start Replace All of doc as long work (the pattern compiled, ctx's
 * checks done). */
static int replace_all__start(CommandContext *ctx, EddiDoc *doc) {
  const Token *pattern = &ctx->args[0], *replacement = &ctx->args[1];
  ReplaceAllJob *job = eddi_calloc(1, sizeof *job);
  job->base.work = replace_all__work;
  job->base.finish = replace_all__finish;
  job->base.destroy = replace_all__destroy;
  job->doc = doc;
  job->len = eddi_text_len(&doc->text);
  job->undo_top = replace_all__undo_top(doc);
  eddi_text_view(&doc->text, &job->view);
  job->pattern = eddi_strndup(pattern->text, pattern->len);
  job->pattern_len = pattern->len;
  job->regex = pattern->kind == TOKEN_REGEX;
  job->flags = pattern->flags;
  job->replacement = eddi_strndup(replacement->text, replacement->len);
  job->replacement_len = replacement->len;
  const char *shown;
  int shown_len = match__shown(pattern, &shown);
  job->shown = eddi_strndup(shown, (size_t)shown_len);
  job->timeout_ms = eddi_workspace_config(ctx->workspace)->search_timeout_ms;
  return eddi_job_start(ctx, &job->base);
}

int eddi_run_replace(CommandContext *ctx) {
  static const char *const modes[] = {"All", "Confirm"};
  enum { ALL, CONFIRM, ONE };
  if (ctx->argc < 2 || ctx->argc > 3) return eddi_command_usage(ctx, "Replace needs a pattern and a replacement");
  if (ctx->args[1].kind != TOKEN_STRING)
    return eddi_command_usage(ctx, "Replace's replacement must be a \"quoted string\"");
  int mode = ONE;
  if (ctx->argc == 3 && (mode = eddi_command_choose(ctx, &ctx->args[2], "mode", modes, 2)) < 0)
    return mode;
  EddiPattern pattern;
  int rc = match__compile(ctx, &ctx->args[0], &pattern);
  if (rc < 0) return rc;
  EddiDoc *doc = ctx->session->current;
  if (mode == ALL && eddi_text_len(&doc->text) >= EDDI_DOC_LONG_WORK_BYTES &&
      eddi_doc_can_commit_built(doc)) {
    eddi_pattern_free(&pattern);
    return replace_all__start(ctx, doc);
  }
  MatchList matches = {0};
  StrBuf expansions = {0};
  eddi_strbuf_puts(&expansions, "");
  size_t from = mode == ALL ? 0 : doc->cursor;
  eddi_pattern_deadline(eddi_workspace_config(ctx->workspace)->search_timeout_ms);
  rc = match__all(&pattern, &doc->text, from, mode == ALL ? SIZE_MAX : 1, &ctx->args[1],
                  &expansions, &matches, ctx->err);
  if (rc == 0 && matches.len == 0) {
    Match other;
    int elsewhere = match__other(&pattern, &doc->text, doc->cursor, mode != ALL, &other, ctx->err);
    rc = elsewhere < 0 ? elsewhere
                       : match__not_found(ctx, "Pattern not found", &ctx->args[0],
                                          elsewhere ? &other : NULL, mode != ALL,
                                          "Goto StartOfFile first, or Replace ... All");
  }
  eddi_pattern_deadline(0);
  if (rc == 0 && mode == CONFIRM) {
    ReplaceConfirm *confirm = eddi_calloc(1, sizeof *confirm);
    confirm->doc = doc;
    confirm->pattern = pattern;
    confirm->replacement = eddi_strndup(ctx->args[1].text, ctx->args[1].len);
    confirm->replacement_len = ctx->args[1].len;
    confirm->match_start = matches.items[0].start;
    confirm->match_end = matches.items[0].end;
    confirm->replaced = 0;
    memset(&pattern, 0, sizeof pattern); /* now owned by the confirm state */
    doc->cursor = confirm->match_start;
    eddi_session_set_slot(ctx->session, &confirm_slot, confirm);
    eddi_command_fact_cursor(ctx, doc);
    eddi_reply_builder_fact(ctx->reply, "Replace? (y/n)");
  } else if (rc == 0) {
    rc = match__replace_all(ctx, doc, &matches, &expansions);
    if (rc == 0) {
      eddi_reply_builder_fact(ctx->reply, "Replaced %zu %s", matches.len,
                 matches.len == 1 ? "occurrence" : "occurrences");
      if (mode == ONE) {
        doc->cursor = matches.items[0].start + matches.items[0].replacement_len;
        eddi_command_fact_cursor(ctx, doc);
      }
    }
  }
  eddi_strbuf_free(&expansions);
  array_free(&matches);
  eddi_pattern_free(&pattern);
  return rc;
}

bool eddi_replace_confirm_pending(const EddiSession *session) {
  return eddi_session_slot(session, &confirm_slot) != NULL;
}

void eddi_replace_confirm_cancel(EddiSession *session) {
  eddi_session_set_slot(session, &confirm_slot, NULL);
}

bool eddi_command_is_confirm_answer(const char *text, size_t len, char *answer, size_t answer_size) {
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
static int confirm__replace_one(CommandContext *ctx, ReplaceConfirm *confirm,
                                size_t *next_from) {
  EddiDoc *doc = confirm->doc;
  MatchList one = {0};
  StrBuf expanded = {0};
  Token replacement = {.text = confirm->replacement, .len = confirm->replacement_len};
  int rc = match__all(&confirm->pattern, &doc->text, confirm->match_start, 1, &replacement,
                      &expanded, &one, ctx->err);
  *next_from = confirm->match_start; /* if it is gone, ask about whatever is there now */
  if (rc == 0 && one.len && one.items[0].start == confirm->match_start) {
    Match *m = &one.items[0];
    rc = eddi_doc_replace(doc, m->start, m->end, expanded.data, expanded.len, ctx->err);
    if (rc == 0) {
      confirm->replaced++;
      *next_from = m->start + expanded.len + (m->end == m->start && expanded.len == 0 ? 1 : 0);
    }
  }
  eddi_strbuf_free(&expanded);
  array_free(&one);
  return rc;
}

int eddi_command_replace_answer(CommandContext *ctx, const char *answer) {
  ReplaceConfirm *confirm = eddi_session_slot(ctx->session, &confirm_slot);
  EddiDoc *doc = confirm->doc;
  bool all = strcmp(answer, "all") == 0;
  bool yes = all || answer[0] == 'y';
  bool quit = answer[0] == 'q';
  int rc = 0;
  for (;;) {
    size_t from = confirm->match_start;
    if (quit) break;
    if (yes) {
      rc = confirm__replace_one(ctx, confirm, &from);
      if (rc < 0) break;
    } else {
      from = confirm->match_end > confirm->match_start
                 ? confirm->match_end
                 : match__step(&doc->text, confirm->match_start);
    }
    Match next = {0}; /* filled only when found is 1; zeroed so -O3 sees no unset read */
    int found = match__first(&confirm->pattern, &doc->text, from, &next, ctx->err);
    if (found < 0) rc = found;
    if (found <= 0) break;
    size_t s = next.start, e = next.end;
    confirm->match_start = s, confirm->match_end = e;
    if (!all) {
      doc->cursor = s;
      eddi_command_fact_cursor(ctx, doc);
      eddi_reply_builder_fact(ctx->reply, "Replace? (y/n)");
      return 0;
    }
  }
  size_t replaced = confirm->replaced;
  eddi_replace_confirm_cancel(ctx->session);
  if (rc < 0) return rc;
  eddi_reply_builder_fact(ctx->reply, "Replaced %zu %s", replaced, replaced == 1 ? "occurrence" : "occurrences");
  return 0;
}

/* ---------------------------------------------------------------- table */

static const CommandSpec search_commands[] = {
    {"Find", "Find <\"text\"|/regex/flags> [Next|Prev|All]", "search from the cursor", CMD_FILE | CMD_READ_ONLY,
     eddi_run_find},
    {"Replace", "Replace <\"text\"|/regex/flags> \"replacement\" [All|Confirm]",
     "replace the next match, all, or one by one", CMD_FILE, eddi_run_replace},
};
COMMAND_GROUP(eddi_search_commands, search_commands);
