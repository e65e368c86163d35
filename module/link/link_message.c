/* link_message.c - the messages of eddi's NATS protocol: the checks every
 * body passes, the request body, session events and sync answers (see
 * eddi_link.h).
 *
 * No connection here: these are functions of bytes, so that the refusals
 * every transport gives are made in one place and can be tested and fuzzed
 * alone. Refusals are complete `Fail "..."` lines from eddi_fail_line, the
 * engine's one Fail quoter.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eddi_link.h"

/* ------------------------------------------------------------ subjects */

void eddi_link_instance_subject(char *out, size_t out_size, const char *instance) {
  snprintf(out, out_size, "eddi.%s.cmd", instance);
}

bool eddi_link_instance_valid(const char *instance) {
  size_t len = strlen(instance);
  if (len == 0 || len > EDDI_INSTANCE_NAME_MAX) return false;
  for (size_t i = 0; i < len; i++)
    if (!isalnum((unsigned char)instance[i]) && instance[i] != '-' && instance[i] != '_')
      return false;
  return true;
}

/* ------------------------------------------------------------ identity */

void eddi_link_identity_subject(char *out, size_t out_size, const char *user,
                                const char *instance) {
  if (instance)
    snprintf(out, out_size, EDDI_LINK_IDENTITY_PREFIX "%s.%s.cmd", user, instance);
  else
    snprintf(out, out_size, EDDI_LINK_IDENTITY_PREFIX "%s.cmd", user);
}

bool eddi_link_identity_of(const char *subject, char *out, size_t out_size) {
  size_t prefix = strlen(EDDI_LINK_IDENTITY_PREFIX);
  if (strncmp(subject, EDDI_LINK_IDENTITY_PREFIX, prefix) != 0) return false;
  const char *user = subject + prefix;
  size_t len = strcspn(user, ".");
  /* nats-server delivers only subjects its permissions let the user
   * publish, and a token holds no wildcard: an empty one is not a user. */
  if (len == 0 || len >= out_size || user[len] != '.') return false;
  memcpy(out, user, len);
  out[len] = '\0';
  return true;
}

/* ------------------------------------------------------------ checks */

int eddi_link_check_bytes(const char *data, size_t len, size_t max_bytes, char *fail,
                          size_t fail_size) {
  if (len > max_bytes) {
    eddi_fail_line(fail, fail_size, "Message too large: %zu bytes, limit %zu", len, max_bytes);
    return EDDI_LINK_EINVAL;
  }
  if (!eddi_utf8_valid(data, len)) {
    eddi_fail_line(fail, fail_size, "Message is not valid UTF-8");
    return EDDI_LINK_EINVAL;
  }
  return 0;
}

/* ------------------------------------------------------------ JSON */

/* A \u escape's four hex digits at at (len bytes left), as a code unit. */
static bool message__hex4(const char *at, size_t len, unsigned *unit) {
  if (len < 4) return false;
  *unit = 0;
  for (size_t i = 0; i < 4; i++) {
    char c = at[i];
    unsigned digit = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16;
    if (digit == 16) return false;
    *unit = *unit << 4 | digit;
  }
  return true;
}

#define MESSAGE_HIGH_SURROGATE(u) ((u) >= 0xD800 && (u) <= 0xDBFF)
#define MESSAGE_LOW_SURROGATE(u) ((u) >= 0xDC00 && (u) <= 0xDFFF)
/* "\uXXXX" is six bytes. */
#define MESSAGE_UNICODE_ESCAPE_LEN 6

/* Whether every \u escape of a UTF-16 surrogate in data (JSON json-c has
 * accepted) is a high one followed at once by a low one. json-c turns a
 * lone one into U+FFFD, so a client's bytes would change silently. In
 * valid JSON a backslash occurs only in strings, so the scan need not know
 * where they are: each backslash starts one escape. */
static bool message__surrogates_paired(const char *data, size_t len) {
  for (size_t i = 0; i + 1 < len; i++) {
    if (data[i] != '\\') continue;
    unsigned unit, low;
    if (data[i + 1] != 'u' || !message__hex4(data + i + 2, len - i - 2, &unit)) {
      i++; /* a one-letter escape */
      continue;
    }
    i += MESSAGE_UNICODE_ESCAPE_LEN - 1;
    if (MESSAGE_LOW_SURROGATE(unit)) return false;
    if (!MESSAGE_HIGH_SURROGATE(unit)) continue;
    const char *next = data + i + 1;
    size_t left = len - i - 1;
    if (left < MESSAGE_UNICODE_ESCAPE_LEN || next[0] != '\\' || next[1] != 'u' ||
        !message__hex4(next + 2, left - 2, &low) || !MESSAGE_LOW_SURROGATE(low))
      return false;
    i += MESSAGE_UNICODE_ESCAPE_LEN;
  }
  return true;
}

/* The keys of every object in data (JSON json-c has accepted): each string
 * followed, past blanks, by a colon. */
static size_t message__keys_in_text(const char *data, size_t len) {
  size_t keys = 0;
  for (size_t i = 0; i < len; i++) {
    if (data[i] != '"') continue;
    for (i++; i < len && data[i] != '"'; i++)
      if (data[i] == '\\') i++;
    size_t after = i + 1;
    while (after < len && isspace((unsigned char)data[after])) after++;
    if (after < len && data[after] == ':') keys++;
  }
  return keys;
}

/* The keys of every object in value. json-c keeps the last of two equal
 * keys, so fewer than the text holds means a key was given twice. The
 * depth is json-c's own limit. */
static size_t message__keys_in_value(json_object *value) {
  size_t keys = 0;
  if (json_object_is_type(value, json_type_object)) {
    json_object_object_foreach(value, key, member) {
      (void)key;
      keys += 1 + message__keys_in_value(member);
    }
  } else if (json_object_is_type(value, json_type_array)) {
    for (size_t i = 0; i < json_object_array_length(value); i++)
      keys += message__keys_in_value(json_object_array_get_idx(value, i));
  }
  return keys;
}

/* A value followed by more than blanks. */
#define MESSAGE_TEXT_AFTER "text after the object"

/* What json-c said about data, in the words of a refusal. */
static const char *message__json_trouble(json_object *parsed, enum json_tokener_error error,
                                         bool terse) {
  if (parsed && error == json_tokener_success) return MESSAGE_TEXT_AFTER;
  bool cut_short = error == json_tokener_continue || error == json_tokener_success;
  if (cut_short && terse) return "unexpected end";
  return json_tokener_error_desc(cut_short ? json_tokener_error_parse_eof : error);
}

/* One strict pass of json-c over data: false when out of memory, else the
 * value (or NULL), its error and where it stopped. */
static bool message__tokenize(const char *data, size_t len, json_object **parsed,
                              enum json_tokener_error *error, size_t *used) {
  json_tokener *tokener = json_tokener_new();
  if (!tokener) return false;
  json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  *parsed = json_tokener_parse_ex(tokener, data, (int)len);
  *error = json_tokener_get_error(tokener);
  *used = json_tokener_get_parse_end(tokener);
  json_tokener_free(tokener);
  return true;
}

int eddi_link_json_parse(const char *data, size_t len, bool terse, json_object **value,
                         const char **trouble) {
  *value = NULL;
  *trouble = NULL;
  enum json_tokener_error error;
  size_t used;
  json_object *parsed = NULL;
  if (!message__tokenize(data, len, &parsed, &error, &used)) {
    *trouble = "out of memory";
    return EDDI_LINK_ENOMEM;
  }
  /* Strict json-c stops at text after a value as at any unexpected
   * character; a value that reads whole up to there is followed by text. */
  if (error == json_tokener_error_parse_unexpected && used > 0) {
    enum json_tokener_error before_error;
    size_t before_used;
    json_object *before = NULL;
    if (message__tokenize(data, used, &before, &before_error, &before_used) &&
        before_error == json_tokener_success) {
      json_object_put(before);
      *trouble = MESSAGE_TEXT_AFTER;
      return EDDI_LINK_EINVAL;
    }
  }
  while (error == json_tokener_success && used < len && isspace((unsigned char)data[used]))
    used++;
  /* A JSON null parses to NULL too: success with all of data used. */
  bool whole = error == json_tokener_success && used == len && (parsed || used > 0);
  if (!whole) *trouble = message__json_trouble(parsed, error, terse);
  else if (!message__surrogates_paired(data, len)) *trouble = EDDI_LINK_JSON_LONE_SURROGATE;
  else if (message__keys_in_value(parsed) != message__keys_in_text(data, len))
    *trouble = EDDI_LINK_JSON_DUPLICATE_KEY;
  if (*trouble) {
    json_object_put(parsed);
    return EDDI_LINK_EINVAL;
  }
  *value = parsed;
  return 0;
}

/* ------------------------------------------------------------ number text */

/* Past the JSON string at data[i] (its opening quote). */
static size_t text__skip_string(const char *data, size_t len, size_t i) {
  for (i++; i < len && data[i] != '"'; i++)
    if (data[i] == '\\') i++;
  return i + 1;
}

/* Past the JSON value at data[i]; the text is valid JSON. */
static size_t text__skip_value(const char *data, size_t len, size_t i) {
  if (data[i] == '"') return text__skip_string(data, len, i);
  size_t depth = 0;
  for (; i < len; i++) {
    char c = data[i];
    if (c == '"') {
      i = text__skip_string(data, len, i) - 1;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      if (depth == 0) break;
      if (--depth == 0) return i + 1;
    } else if (depth == 0 && (c == ',' || isspace((unsigned char)c))) {
      break;
    }
  }
  return i;
}

static size_t text__skip_blanks(const char *data, size_t len, size_t i) {
  while (i < len && isspace((unsigned char)data[i])) i++;
  return i;
}

static int text__serialize(json_object *value, struct printbuf *out, int level, int flags) {
  (void)level, (void)flags;
  const char *text = json_object_get_userdata(value);
  return printbuf_memappend(out, text, (int)strlen(text));
}

bool eddi_link_keep_number_text(json_object *object, const char *data, size_t len,
                                const char *key) {
  /* The member's place among the object's keys is its place in the text:
   * json-c keeps them in order, and a key given twice was refused. */
  size_t index = 0;
  bool found = false;
  json_object *member = NULL;
  json_object_object_foreach(object, name, value) {
    if (strcmp(name, key) == 0) {
      found = true, member = value;
      break;
    }
    index++;
  }
  if (!found || !(json_object_is_type(member, json_type_int) ||
                  json_object_is_type(member, json_type_double)))
    return false;
  size_t i = text__skip_blanks(data, len, 0) + 1; /* past the '{' */
  for (size_t k = 0;; k++) {
    i = text__skip_blanks(data, len, i);
    if (i >= len || data[i] != '"') return false;
    i = text__skip_blanks(data, len, text__skip_string(data, len, i));
    i = text__skip_blanks(data, len, i + 1); /* past the ':' */
    size_t end = text__skip_value(data, len, i);
    if (k == index) {
      char *text = strndup(data + i, end - i);
      if (!text) return false;
      json_object_set_serializer(member, text__serialize, text, json_object_free_userdata);
      return true;
    }
    i = text__skip_blanks(data, len, end) + 1; /* past the ',' */
  }
}

static int message__parse_object(const char *data, size_t len, bool terse, json_object **object,
                                  char *fail, size_t fail_size) {
  const char *trouble = NULL;
  int rc = eddi_link_json_parse(data, len, terse, object, &trouble);
  if (rc == EDDI_LINK_ENOMEM) {
    eddi_fail_line(fail, fail_size, "Out of memory");
    return rc;
  }
  if (rc < 0) {
    eddi_fail_line(fail, fail_size, "Invalid JSON: %s", trouble);
    return rc;
  }
  if (!json_object_is_type(*object, json_type_object)) {
    eddi_fail_line(fail, fail_size, "Invalid JSON: expected an object");
    json_object_put(*object);
    *object = NULL;
    return EDDI_LINK_EINVAL;
  }
  return 0;
}

int eddi_link_parse_object(const char *data, size_t len, json_object **object, char *fail,
                           size_t fail_size) {
  return message__parse_object(data, len, false, object, fail, fail_size);
}

int eddi_link_get_string(json_object *object, const char *key, const char **value, char *fail,
                         size_t fail_size) {
  json_object *member = NULL;
  *value = NULL;
  if (!json_object_object_get_ex(object, key, &member) ||
      json_object_is_type(member, json_type_null))
    return 0;
  if (!json_object_is_type(member, json_type_string) || json_object_get_string_len(member) == 0) {
    eddi_fail_line(fail, fail_size, "\"%s\" must be a non-empty string", key);
    return EDDI_LINK_EINVAL;
  }
  /* A name is a C string from here on: a NUL would cut it short. */
  const char *text = json_object_get_string(member);
  if (strlen(text) != (size_t)json_object_get_string_len(member)) {
    eddi_fail_line(fail, fail_size, "\"%s\" must not contain a NUL byte", key);
    return EDDI_LINK_EINVAL;
  }
  *value = text;
  return 0;
}

/* Size, UTF-8 and one JSON object: what every JSON message passes. */
static int message__read_object(const char *data, size_t len, size_t max_bytes,
                                json_object **object, char *fail, size_t fail_size) {
  *object = NULL;
  int rc = eddi_link_check_bytes(data, len, max_bytes, fail, fail_size);
  return rc < 0 ? rc : eddi_link_parse_object(data, len, object, fail, fail_size);
}

/* ------------------------------------------------------------ request body */

int eddi_link_body_read(const char *data, size_t len, const EddiLinkBodyRules *rules,
                        EddiLinkBody *body, char *fail, size_t fail_size) {
  memset(body, 0, sizeof *body);
  int rc = eddi_link_check_bytes(data, len, rules->max_bytes, fail, fail_size);
  if (rc < 0) return rc;
  size_t first = 0;
  while (first < len && isspace((unsigned char)data[first])) first++;
  if (first == len || data[first] != '{') {
    body->text = data;
    body->len = len;
    return 0;
  }

  json_object *json = NULL, *text = NULL;
  rc = message__parse_object(data, len, rules->terse_json_errors, &json, fail, fail_size);
  if (rc == 0) rc = eddi_link_get_string(json, "sender", &body->sender, fail, fail_size);
  if (rc == 0) rc = eddi_link_get_string(json, "session", &body->session, fail, fail_size);
  if (rc == 0 && (!json_object_object_get_ex(json, "text", &text) ||
                  !json_object_is_type(text, json_type_string))) {
    eddi_fail_line(fail, fail_size, "\"text\" must be a string");
    rc = EDDI_LINK_EINVAL;
  }
  if (rc == 0 && !body->sender && !body->session) {
    eddi_fail_line(fail, fail_size, "Sender missing: give \"sender\" or \"session\"");
    rc = EDDI_LINK_EINVAL;
  }
  if (rc < 0) {
    json_object_put(json);
    memset(body, 0, sizeof *body);
    return rc;
  }
  body->text = json_object_get_string(text);
  body->len = (size_t)json_object_get_string_len(text);
  body->json = json;
  return 0;
}

void eddi_link_body_free(EddiLinkBody *body) {
  json_object_put(body->json);
  memset(body, 0, sizeof *body);
}

/* A new copy of object as JSON text (flags: json-c's), or NULL. */
static char *message__text(json_object *object, int flags) {
  if (!object) return NULL;
  const char *text = json_object_to_json_string_ext(object, flags);
  char *copy = text ? strdup(text) : NULL;
  json_object_put(object);
  return copy;
}

char *eddi_link_body_json(const char *sender, const char *session, const char *text,
                          size_t len) {
  json_object *body = json_object_new_object();
  if (!body) return NULL;
  if (sender) json_object_object_add(body, "sender", json_object_new_string(sender));
  if (session) json_object_object_add(body, "session", json_object_new_string(session));
  json_object_object_add(body, "text", json_object_new_string_len(text, (int)len));
  return message__text(body, JSON_C_TO_STRING_PLAIN);
}

/* ------------------------------------------------------------ session events */

/* The words of the events on the wire, by EddiSessionChange. */
static const char *const message__changes[] = {
    [EDDI_SESSION_STARTED] = "started",
    [EDDI_SESSION_ENDED] = "ended",
};
#define MESSAGE_CHANGE_COUNT (sizeof message__changes / sizeof message__changes[0])

char *eddi_link_event_json(const EddiSessionEvent *event) {
  json_object *message = json_object_new_object();
  if (!message) return NULL;
  json_object_object_add(message, "event",
                         json_object_new_string(message__changes[event->change]));
  json_object_object_add(message, "session", json_object_new_string(event->session));
  json_object_object_add(message, "sender", json_object_new_string(event->sender));
  json_object_object_add(message, "instance", json_object_new_string(event->instance));
  return message__text(message, JSON_C_TO_STRING_PLAIN);
}

int eddi_link_event_read(const char *data, size_t len, size_t max_bytes, EddiLinkEventVisit visit,
                         void *closure) {
  char fail[EDDI_LINK_FAIL_MAX];
  json_object *message = NULL;
  const char *change = NULL;
  EddiSessionEvent event = {0};
  int rc = message__read_object(data, len, max_bytes, &message, fail, sizeof fail);
  if (rc == 0) rc = eddi_link_get_string(message, "event", &change, fail, sizeof fail);
  if (rc == 0) rc = eddi_link_get_string(message, "session", &event.session, fail, sizeof fail);
  if (rc == 0) rc = eddi_link_get_string(message, "sender", &event.sender, fail, sizeof fail);
  if (rc == 0) rc = eddi_link_get_string(message, "instance", &event.instance, fail, sizeof fail);
  if (rc == 0 && (!change || !event.session || !event.sender || !event.instance))
    rc = EDDI_LINK_EINVAL;
  for (size_t i = 0; rc == 0 && i < MESSAGE_CHANGE_COUNT; i++) {
    if (strcmp(change, message__changes[i]) != 0) continue;
    event.change = (EddiSessionChange)i;
    visit(closure, &event);
    break;
  }
  json_object_put(message);
  return rc;
}

typedef struct {
  json_object *sessions;
} SyncList;

static void message__list_session(void *closure, const char *session, const char *sender) {
  SyncList *list = closure;
  json_object *entry = json_object_new_object();
  json_object_object_add(entry, "session", json_object_new_string(session));
  json_object_object_add(entry, "sender", json_object_new_string(sender));
  json_object_array_add(list->sessions, entry);
}

char *eddi_link_sync_answer_json(const EddiEngine *engine, const char *instance) {
  json_object *answer = json_object_new_object();
  SyncList list = {json_object_new_array()};
  if (!answer || !list.sessions) {
    json_object_put(answer);
    json_object_put(list.sessions);
    return NULL;
  }
  eddi_engine_each_session(engine, message__list_session, &list);
  json_object_object_add(answer, "instance", json_object_new_string(instance));
  json_object_object_add(answer, "sessions", list.sessions);
  return message__text(answer, JSON_C_TO_STRING_PLAIN);
}

int eddi_link_sync_answer_read(const char *data, size_t len, size_t max_bytes,
                               EddiLinkEventVisit visit, void *closure) {
  char fail[EDDI_LINK_FAIL_MAX];
  json_object *answer = NULL, *sessions = NULL;
  const char *instance = NULL;
  int rc = message__read_object(data, len, max_bytes, &answer, fail, sizeof fail);
  if (rc == 0) rc = eddi_link_get_string(answer, "instance", &instance, fail, sizeof fail);
  if (rc == 0 && (!instance || !json_object_object_get_ex(answer, "sessions", &sessions) ||
                  !json_object_is_type(sessions, json_type_array)))
    rc = EDDI_LINK_EINVAL;
  size_t count = rc == 0 ? json_object_array_length(sessions) : 0;
  for (size_t i = 0; i < count; i++) {
    json_object *entry = json_object_array_get_idx(sessions, i);
    EddiSessionEvent event = {EDDI_SESSION_STARTED, NULL, NULL, instance};
    if (!json_object_is_type(entry, json_type_object) ||
        eddi_link_get_string(entry, "session", &event.session, fail, sizeof fail) < 0 ||
        eddi_link_get_string(entry, "sender", &event.sender, fail, sizeof fail) < 0 ||
        !event.session || !event.sender)
      continue; /* one bad entry does not hide the others */
    visit(closure, &event);
  }
  json_object_put(answer);
  return rc;
}

/* ------------------------------------------------------------ time */

void eddi_link_now(char *out, size_t out_size) {
  time_t now = time(NULL);
  struct tm utc;
  gmtime_r(&now, &utc);
  strftime(out, out_size, "%Y-%m-%dT%H:%M:%SZ", &utc);
}
