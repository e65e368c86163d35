/* message.c - a message's command lines; see message.h. */
#include "lang/message.h"

#include <ctype.h>
#include <strings.h>

long eddi_message_block_depth(const char *text, size_t len, long depth) {
  const char *end = text + len;
  for (const char *at = text; at < end;) {
    const char *newline = memchr(at, '\n', (size_t)(end - at));
    const char *line_end = newline ? newline : end;
    const char *p = at;
    at = newline ? newline + 1 : end;
    while (p < line_end && isspace((unsigned char)*p)) p++;
    if (p < line_end && *p == '#') continue; /* a comment */
    bool quoted = false;
    for (; p < line_end; p++) {
      if (quoted && *p == '\\' && p + 1 < line_end) p++;
      else if (*p == '"') quoted = !quoted;
      else if (!quoted && *p == '{') depth++;
      else if (!quoted && *p == '}') depth--;
    }
  }
  return depth;
}

/* The line of text that starts at at, without its newline and blanks. */
typedef struct {
  const char *start, *end; /* trimmed */
  const char *next;        /* after its newline */
} MessageLine;

static MessageLine message__line(const char *at, const char *end) {
  const char *newline = memchr(at, '\n', (size_t)(end - at));
  MessageLine line = {at, newline ? newline : end, newline ? newline + 1 : end};
  while (line.start < line.end && isspace((unsigned char)*line.start)) line.start++;
  while (line.end > line.start && isspace((unsigned char)line.end[-1])) line.end--;
  return line;
}

void eddi_message_each_line(const char *text, size_t len, EddiLineReachOf reach_of,
                            void *context,
                            bool (*visit)(const EddiCommandLine *line, void *closure),
                            void *closure) {
  const char *end = text + len;
  for (const char *at = text; at < end;) {
    MessageLine first = message__line(at, end);
    const char *p = first.start;
    at = first.next;
    if (p == first.end || *p == '#') continue;
    EddiCommandLine line = {.line = p, .len = (size_t)(first.end - p), .body = first.next,
                            .body_len = (size_t)(end - first.next)};
    while (line.verb_len < line.len && !isspace((unsigned char)p[line.verb_len])) line.verb_len++;
    EddiLineReach reach = EDDI_LINE_ONE;
    char verb[EDDI_MESSAGE_VERB_MAX];
    if (line.verb_len < sizeof verb) {
      memcpy(verb, p, line.verb_len);
      verb[line.verb_len] = '\0';
      reach = reach_of(context, verb);
    }
    if (*p == '{') { /* a script runs to the end of the message */
      line.takes_body = true;
      line.block_open = eddi_message_block_depth(p, (size_t)(end - p), 0) > 0;
    } else if (reach == EDDI_LINE_BODY) {
      line.takes_body = true;
    } else if (reach == EDDI_LINE_BLOCKS) {
      /* `foreach ... {` on this line, its statements and '}' on later ones. */
      long depth = eddi_message_block_depth(line.line, line.len, 0);
      while (depth > 0 && at < end) {
        MessageLine more = message__line(at, end);
        depth = eddi_message_block_depth(at, (size_t)(more.next - at), depth);
        if (more.end > more.start) line.len = (size_t)(more.end - line.line);
        at = more.next;
      }
      line.block_open = depth > 0;
      line.body = at;
      line.body_len = (size_t)(end - at);
    }
    if (!visit(&line, closure) || line.takes_body) return;
  }
}

bool eddi_command_is(const EddiCommandLine *line, const char *word) {
  return strlen(word) == line->verb_len && strncasecmp(line->line, word, line->verb_len) == 0;
}
