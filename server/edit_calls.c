/* edit_calls.c - see edit_calls.h.
 *
 * Arguments are checked strictly: an unknown key is refused with the list of
 * known ones, because a model that sends `path` where `file_path` is meant
 * learns more from that than from a missing-argument error.
 */
#include "edit_calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_error.h"

/* ------------------------------------------------------------ the kinds */

typedef struct {
  const char *command;   /* the EddiSpeak command it stands for */
  size_t feature;        /* offset of its HostFeatures flag */
  const char *const *keys; /* the arguments it takes, NULL-terminated */
} EditCallInfo;

#define FEATURE(field) offsetof(HostFeatures, field)

static const char *const call__read_keys[] = {"path", "offset", "limit", NULL};
static const char *const call__grep_keys[] = {"pattern", "glob", "offset", "ignore_case", NULL};
static const char *const call__patch_keys[] = {"patch", NULL};
static const char *const call__search_replace_keys[] = {"content", "path", NULL};
static const char *const call__update_keys[] = {"path", "content", NULL};
static const char *const call__replace_keys[] = {"file_path", "old_string", "new_string",
                                                 "replace_all", "edits", NULL};
static const char *const call__refactor_keys[] = {"operation", "target", "new_name", "unsure",
                                                  "leave", "delegate", "unchecked", NULL};
static const char *const call__query_keys[] = {"query", "path", "files", "offset", "limit", "text", NULL};
static const char *const call__replace_edit_keys[] = {"old_string", "new_string", "replace_all",
                                                      NULL};

static const EditCallInfo call__info[] = {
    [EDIT_CALL_READ] = {"Read", FEATURE(read), call__read_keys},
    [EDIT_CALL_GREP] = {"Grep", FEATURE(grep), call__grep_keys},
    [EDIT_CALL_HASHLINE] = {"Edit", FEATURE(edit), call__patch_keys},
    [EDIT_CALL_APPLY_PATCH] = {"Patch", FEATURE(patch), call__patch_keys},
    [EDIT_CALL_SEARCH_REPLACE] = {"Update", FEATURE(update), call__search_replace_keys},
    [EDIT_CALL_FILE_UPDATE] = {"Update", FEATURE(update), call__update_keys},
    /* Replace mode comes with the other edit formats; its word is the one
     * the read-only check refuses. */
    [EDIT_CALL_REPLACE] = {"Replace", FEATURE(update), call__replace_keys},
    /* Preview is read-only, Refactor is not: the read-only check sees the
     * command's word. */
    [EDIT_CALL_REFACTOR] = {"Refactor", FEATURE(refactor), call__refactor_keys},
    [EDIT_CALL_PREVIEW] = {"Preview", FEATURE(refactor), call__refactor_keys},
    /* A query reads, as Show does; scripts bring the query engine. */
    [EDIT_CALL_QUERY] = {"Show", FEATURE(changesets), call__query_keys},
};

bool edit_call_available(EditCallKind kind, const HostFeatures *features) {
  return *(const bool *)((const char *)features + call__info[kind].feature);
}

const char *edit_call_command(EditCallKind kind) { return call__info[kind].command; }

bool edit_call_reads(EditCallKind kind) {
  return kind == EDIT_CALL_READ || kind == EDIT_CALL_GREP || kind == EDIT_CALL_PREVIEW ||
         kind == EDIT_CALL_QUERY;
}

/* ------------------------------------------------------------ arguments */

typedef struct {
  size_t bytes, max_bytes; /* string bytes so far, and the limit */
  const char *also_known;
  char *why;
  size_t why_size;
} CallParse;

static int call__invalid(CallParse *self, const char *fmt, const char *key) {
  snprintf(self->why, self->why_size, fmt, key);
  return SERVER_EINVAL;
}

static int call__known_keys(CallParse *self, json_object *object, const char *const *keys,
                            const char *where) {
  json_object_object_foreach(object, key, value) {
    (void)value;
    bool known = self->also_known && strcmp(self->also_known, key) == 0;
    for (size_t i = 0; keys[i] && !known; i++) known = strcmp(keys[i], key) == 0;
    if (known) continue;
    int n = snprintf(self->why, self->why_size, "Unknown argument %s%.64s; %s takes:", where, key,
                     where[0] ? "an edit" : "this call");
    for (size_t i = 0; keys[i] && n > 0 && (size_t)n < self->why_size; i++)
      n += snprintf(self->why + n, self->why_size - (size_t)n, " %s", keys[i]);
    return SERVER_EINVAL;
  }
  return SERVER_OK;
}

int edit_call_known_keys(json_object *arguments, const char *const *keys, char *why,
                         size_t why_size) {
  CallParse parse = {0, 0, NULL, why, why_size};
  return call__known_keys(&parse, arguments, keys, "");
}

/* A string argument copied into *copy (NULL when absent and optional). */
static int call__string(CallParse *self, json_object *object, const char *key, bool required,
                        const char **copy, size_t *len) {
  json_object *member = NULL;
  *copy = NULL;
  if (len) *len = 0;
  if (!json_object_object_get_ex(object, key, &member) ||
      json_object_is_type(member, json_type_null))
    return required ? call__invalid(self, "Missing argument: %s", key) : SERVER_OK;
  if (!json_object_is_type(member, json_type_string))
    return call__invalid(self, "Argument %s must be a string", key);
  size_t n = (size_t)json_object_get_string_len(member);
  const char *text = json_object_get_string(member);
  self->bytes += n;
  if (self->bytes > self->max_bytes) {
    snprintf(self->why, self->why_size, "Arguments too large: more than %zu bytes",
             self->max_bytes);
    return SERVER_EINVAL;
  }
  /* The engine refuses these in any message; say which argument holds one. */
  if (memchr(text, '\0', n)) return call__invalid(self, "Argument %s contains a NUL byte", key);
  if (!eddi_utf8_valid(text, n)) return call__invalid(self, "Argument %s is not UTF-8", key);
  char *owned = malloc(n + 1);
  if (!owned) return SERVER_ENOMEM;
  memcpy(owned, text, n + 1);
  *copy = owned;
  if (len) *len = n;
  return SERVER_OK;
}

static int call__count(CallParse *self, json_object *object, const char *key, size_t *value) {
  json_object *member = NULL;
  *value = 0;
  if (!json_object_object_get_ex(object, key, &member) ||
      json_object_is_type(member, json_type_null))
    return SERVER_OK;
  if (!json_object_is_type(member, json_type_int) || json_object_get_int64(member) < 0)
    return call__invalid(self, "Argument %s must be a whole number >= 0", key);
  *value = (size_t)json_object_get_int64(member);
  return SERVER_OK;
}

static int call__flag(CallParse *self, json_object *object, const char *key, bool *value) {
  json_object *member = NULL;
  *value = false;
  if (!json_object_object_get_ex(object, key, &member) ||
      json_object_is_type(member, json_type_null))
    return SERVER_OK;
  if (!json_object_is_type(member, json_type_boolean))
    return call__invalid(self, "Argument %s must be true or false", key);
  *value = json_object_get_boolean(member);
  return SERVER_OK;
}

static int call__replace_edit(CallParse *self, json_object *object, EddiReplaceEdit *edit) {
  const char *old_string = NULL, *new_string = NULL;
  size_t old_len = 0, new_len = 0;
  bool replace_all = false;
  int status = call__string(self, object, "old_string", true, &old_string, &old_len);
  if (status == SERVER_OK)
    status = call__string(self, object, "new_string", true, &new_string, &new_len);
  if (status == SERVER_OK) status = call__flag(self, object, "replace_all", &replace_all);
  if (status != SERVER_OK) {
    free((char *)old_string);
    free((char *)new_string);
    return status;
  }
  *edit = (EddiReplaceEdit){old_string, old_len, new_string, new_len, replace_all};
  return SERVER_OK;
}

/* Replace mode: one edit inline, or an edits[] array, not both. The edits
 * made so far are in *out and *count, also when one is refused. */
static int call__replace(CallParse *self, json_object *arguments, EddiReplaceEdit **out,
                         size_t *count) {
  json_object *edits = NULL;
  bool has_edits = json_object_object_get_ex(arguments, "edits", &edits) &&
                   !json_object_is_type(edits, json_type_null);
  bool has_inline = json_object_object_get_ex(arguments, "old_string", NULL) ||
                    json_object_object_get_ex(arguments, "new_string", NULL);
  if (has_edits && has_inline) {
    snprintf(self->why, self->why_size,
             "Give old_string and new_string, or edits[], not both");
    return SERVER_EINVAL;
  }
  if (!has_edits) {
    if (!(*out = calloc(1, sizeof **out))) return SERVER_ENOMEM;
    int status = call__replace_edit(self, arguments, &(*out)[0]);
    if (status == SERVER_OK) *count = 1;
    return status;
  }
  if (!json_object_is_type(edits, json_type_array) || json_object_array_length(edits) == 0) {
    snprintf(self->why, self->why_size,
             "Argument edits must be a non-empty array of {old_string, new_string}");
    return SERVER_EINVAL;
  }
  size_t total = json_object_array_length(edits);
  if (!(*out = calloc(total, sizeof **out))) return SERVER_ENOMEM;
  for (size_t i = 0; i < total; i++) {
    json_object *edit = json_object_array_get_idx(edits, i);
    if (!json_object_is_type(edit, json_type_object)) {
      snprintf(self->why, self->why_size, "edits[%zu] must be an object", i);
      return SERVER_EINVAL;
    }
    int status = call__known_keys(self, edit, call__replace_edit_keys, "in edits: ");
    if (status == SERVER_OK) status = call__replace_edit(self, edit, &(*out)[i]);
    if (status != SERVER_OK) return status;
    *count = i + 1;
  }
  return SERVER_OK;
}

int edit_call_parse(EditCallKind kind, json_object *arguments, const char *also_known,
                    size_t max_bytes, EditCall **out, char *why, size_t why_size) {
  *out = NULL;
  if (!arguments || !json_object_is_type(arguments, json_type_object)) {
    snprintf(why, why_size, "Arguments must be an object");
    return SERVER_EINVAL;
  }
  CallParse parse = {0, max_bytes, also_known, why, why_size};
  EditCall *self = calloc(1, sizeof *self);
  if (!self) return SERVER_ENOMEM;
  EddiCall *call = &self->call;
  call->kind = kind;
  EddiReplaceEdit *edits = NULL;
  int status = call__known_keys(&parse, arguments, call__info[kind].keys, "");
  if (status != SERVER_OK) goto done;
  switch (kind) {
  case EDIT_CALL_READ:
    status = call__string(&parse, arguments, "path", true, &call->path, NULL);
    if (status == SERVER_OK) status = call__count(&parse, arguments, "offset", &call->offset);
    if (status == SERVER_OK) status = call__count(&parse, arguments, "limit", &call->limit);
    break;
  case EDIT_CALL_GREP:
    status = call__string(&parse, arguments, "pattern", true, &call->text, &call->text_len);
    if (status == SERVER_OK) status = call__string(&parse, arguments, "glob", false, &call->glob, NULL);
    if (status == SERVER_OK) status = call__count(&parse, arguments, "offset", &call->offset);
    if (status == SERVER_OK)
      status = call__flag(&parse, arguments, "ignore_case", &call->ignore_case);
    break;
  case EDIT_CALL_HASHLINE:
  case EDIT_CALL_APPLY_PATCH:
    status = call__string(&parse, arguments, "patch", true, &call->text, &call->text_len);
    break;
  case EDIT_CALL_SEARCH_REPLACE:
    status = call__string(&parse, arguments, "content", true, &call->text, &call->text_len);
    if (status == SERVER_OK) status = call__string(&parse, arguments, "path", false, &call->path, NULL);
    break;
  case EDIT_CALL_FILE_UPDATE:
    status = call__string(&parse, arguments, "path", true, &call->path, NULL);
    if (status == SERVER_OK)
      status = call__string(&parse, arguments, "content", true, &call->text, &call->text_len);
    break;
  case EDIT_CALL_REPLACE:
    status = call__string(&parse, arguments, "file_path", true, &call->path, NULL);
    if (status == SERVER_OK) status = call__replace(&parse, arguments, &edits, &call->edit_count);
    call->edits = edits;
    break;
  case EDIT_CALL_REFACTOR:
  case EDIT_CALL_PREVIEW:
    status = call__string(&parse, arguments, "operation", true, &call->operation, NULL);
    if (status == SERVER_OK)
      status = call__string(&parse, arguments, "target", true, &call->text, &call->text_len);
    if (status == SERVER_OK)
      status = call__string(&parse, arguments, "new_name", false, &call->new_name, NULL);
    if (status == SERVER_OK) status = call__flag(&parse, arguments, "unsure", &call->unsure);
    if (status == SERVER_OK) status = call__flag(&parse, arguments, "leave", &call->leave);
    if (status == SERVER_OK) status = call__flag(&parse, arguments, "delegate", &call->delegate);
    if (status == SERVER_OK) status = call__flag(&parse, arguments, "unchecked", &call->unchecked);
    break;
  case EDIT_CALL_QUERY:
    status = call__string(&parse, arguments, "query", true, &call->text, &call->text_len);
    if (status == SERVER_OK) status = call__string(&parse, arguments, "path", false, &call->path, NULL);
    if (status == SERVER_OK) status = call__string(&parse, arguments, "files", false, &call->glob, NULL);
    if (status == SERVER_OK) status = call__count(&parse, arguments, "offset", &call->offset);
    if (status == SERVER_OK) status = call__count(&parse, arguments, "limit", &call->limit);
    if (status == SERVER_OK) status = call__flag(&parse, arguments, "text", &call->with_text);
    break;
  default:
    snprintf(why, why_size, "Unknown edit call");
    status = SERVER_EINVAL;
  }
done:
  if (status != SERVER_OK) {
    edit_call_free(self);
    return status;
  }
  *out = self;
  return SERVER_OK;
}

/* --------------------------------------------------------------- running */

void edit_call_run(EditCall *self, EngineHost *host, const char *transport, const char *sender,
                   const char *session, EddiReply *reply) {
  const char *command = edit_call_command(self->call.kind);
  HostRequest request = {transport, {.sender = sender, .session = session, .text = command,
                                     .len = strlen(command), .ticket = self->ticket}};
  engine_host_call(host, &request, &self->call, reply, &self->outcome);
}

void edit_call_free(EditCall *self) {
  if (!self) return;
  EddiCall *call = &self->call;
  for (size_t i = 0; call->edits && i < call->edit_count; i++) {
    free((char *)call->edits[i].old_string);
    free((char *)call->edits[i].new_string);
  }
  free((EddiReplaceEdit *)call->edits);
  free((char *)call->path);
  free((char *)call->text);
  free((char *)call->glob);
  free((char *)call->operation);
  free((char *)call->new_name);
  free(self);
}
