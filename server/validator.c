/* validator.c - see validator.h. */
#include "validator.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "eddi.h"
#include "fail_reply.h"
#include "server_error.h"

/* ------------------------------------------------------------------ UTF-8 */

/* Strict UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
bool validator_utf8_valid(const char *data, size_t len) {
  const unsigned char *s = (const unsigned char *)data;
  size_t i = 0;
  while (i < len) {
    unsigned char c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t need;
    uint32_t min, code;
    if ((c & 0xE0) == 0xC0) need = 1, min = 0x80, code = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) need = 2, min = 0x800, code = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) need = 3, min = 0x10000, code = c & 0x07;
    else return false;
    if (len - i - 1 < need) return false;
    for (size_t k = 1; k <= need; k++) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      code = (code << 6) | (s[i + k] & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += need + 1;
  }
  return true;
}

/* ------------------------------------------------------------ the checks */

int validator_check_bytes(const ServerOptions *options, const char *data, size_t len, char *why,
                          size_t why_size) {
  if (len > options->max_message_bytes) {
    fail_reply_format(why, why_size, "Message too large: %zu bytes, limit %zu", len,
                      options->max_message_bytes);
    return SERVER_EINVAL;
  }
  if (!validator_utf8_valid(data, len)) {
    fail_reply_format(why, why_size, "Message is not valid UTF-8");
    return SERVER_EINVAL;
  }
  return SERVER_OK;
}

int validator_parse_json(const char *data, size_t len, json_object **object, char *why,
                         size_t why_size) {
  *object = NULL;
  json_tokener *tokener = json_tokener_new();
  if (!tokener) {
    fail_reply_format(why, why_size, "Out of memory");
    return SERVER_ENOMEM;
  }
  json_object *parsed = json_tokener_parse_ex(tokener, data, (int)len);
  enum json_tokener_error error = json_tokener_get_error(tokener);
  size_t used = json_tokener_get_parse_end(tokener);
  json_tokener_free(tokener);
  while (parsed && used < len && isspace((unsigned char)data[used])) used++;
  if (!parsed || error != json_tokener_success || used != len) {
    fail_reply_format(why, why_size, "Invalid JSON: %s",
                      !parsed || error != json_tokener_success
                          ? json_tokener_error_desc(error == json_tokener_continue
                                                        ? json_tokener_error_parse_eof
                                                        : error)
                          : "text after the object");
    json_object_put(parsed);
    return SERVER_EINVAL;
  }
  if (!json_object_is_type(parsed, json_type_object)) {
    fail_reply_format(why, why_size, "Invalid JSON: expected an object");
    json_object_put(parsed);
    return SERVER_EINVAL;
  }
  *object = parsed;
  return SERVER_OK;
}

int validator_get_string(json_object *object, const char *key, const char **value, char *why,
                         size_t why_size) {
  json_object *member = NULL;
  *value = NULL;
  if (!json_object_object_get_ex(object, key, &member) || json_object_is_type(member, json_type_null))
    return SERVER_OK;
  if (!json_object_is_type(member, json_type_string) || json_object_get_string_len(member) == 0) {
    fail_reply_format(why, why_size, "\"%s\" must be a non-empty string", key);
    return SERVER_EINVAL;
  }
  *value = json_object_get_string(member);
  return SERVER_OK;
}

/* Commands that only look: a read-only sender may run these and no others.
 * `Open Create` creates a file and is refused. */
static const char *const validator__read_only_words[] = {
    "Start", "End", "Status", "Summary", "Help", "Open", "Close", "List",
    "Goto",  "Find", "Show", "Read",   "Grep", "Diff", "Bookmark", "Count",
};

static bool validator__read_only_line(const char *line, size_t len, char *word, size_t word_size) {
  size_t n = 0;
  while (n < len && !isspace((unsigned char)line[n])) n++;
  snprintf(word, word_size, "%.*s", (int)n, line);
  bool listed = false;
  size_t count = sizeof validator__read_only_words / sizeof validator__read_only_words[0];
  for (size_t i = 0; i < count && !listed; i++)
    listed = strlen(validator__read_only_words[i]) == n &&
             strncasecmp(validator__read_only_words[i], line, n) == 0;
  if (listed && strcasecmp(word, "Open") == 0) {
    const char *rest = line + n;
    size_t left = len - n;
    while (left && isspace((unsigned char)*rest)) rest++, left--;
    if (left >= 6 && strncasecmp(rest, "Create", 6) == 0 &&
        (left == 6 || isspace((unsigned char)rest[6]))) {
      snprintf(word, word_size, "Open Create");
      listed = false;
    }
  }
  return listed;
}

/* The word of a command a read-only sender may not run is cut to this. */
#define VALIDATOR_WORD_MAX 32

typedef struct {
  bool allowed;
  char word[VALIDATOR_WORD_MAX]; /* the first command that is not */
} ReadOnlyCheck;

static bool validator__check_line(const EddiCommandLine *line, void *closure) {
  ReadOnlyCheck *check = closure;
  check->allowed = validator__read_only_line(line->line, line->len, check->word,
                                             sizeof check->word);
  return check->allowed;
}

static bool validator__sender_shape(const char *sender) {
  size_t n = strlen(sender);
  if (n == 0 || n > VALIDATOR_SENDER_MAX) return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)sender[i] < 0x20 || sender[i] == 0x7F) return false;
  return true;
}

int validator_check_sender(const ServerOptions *options, const char *sender, const char *text,
                           size_t len, char *why, size_t why_size) {
  if (!sender || !validator__sender_shape(sender)) {
    fail_reply_format(why, why_size, "Sender missing or invalid");
    return SERVER_EINVAL;
  }
  if (!options_sender_allowed(options, sender)) {
    fail_reply_format(why, why_size, "Sender %s is not allowed", sender);
    return SERVER_EINVAL;
  }
  if (!options_sender_read_only(options, sender)) return SERVER_OK;
  /* Every command must read only; a script or a body command is refused. */
  ReadOnlyCheck check = {.allowed = true};
  eddi_each_command(text, len, validator__check_line, &check);
  if (check.allowed) return SERVER_OK;
  fail_reply_format(why, why_size, "Sender %s may only read, not run %s", sender, check.word);
  return SERVER_EINVAL;
}
