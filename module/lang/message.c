/* message.c - a message's command lines; see message.h. */
#include "lang/message.h"

#include <ctype.h>
#include <strings.h>

void eddi_message_each_line(const char *text, size_t len, EddiBodyTest takes_body,
                            void *context,
                            bool (*visit)(const EddiCommandLine *line, void *closure),
                            void *closure) {
  const char *end = text + len;
  for (const char *at = text; at < end;) {
    const char *newline = memchr(at, '\n', (size_t)(end - at));
    const char *line_end = newline ? newline : end, *next = newline ? newline + 1 : end;
    const char *p = at, *q = line_end;
    while (p < q && isspace((unsigned char)*p)) p++;
    while (q > p && isspace((unsigned char)q[-1])) q--;
    at = next;
    if (p == q || *p == '#') continue;
    EddiCommandLine line = {.line = p, .len = (size_t)(q - p), .body = next,
                            .body_len = (size_t)(end - next)};
    while (line.verb_len < line.len && !isspace((unsigned char)p[line.verb_len])) line.verb_len++;
    char verb[EDDI_MESSAGE_VERB_MAX];
    if (line.verb_len < sizeof verb) {
      memcpy(verb, p, line.verb_len);
      verb[line.verb_len] = '\0';
      line.takes_body = takes_body(context, verb);
    }
    line.takes_body |= *p == '{'; /* a script runs to the end of the message */
    if (!visit(&line, closure) || line.takes_body) return;
  }
}

bool eddi_command_is(const EddiCommandLine *line, const char *word) {
  return strlen(word) == line->verb_len && strncasecmp(line->line, word, line->verb_len) == 0;
}
