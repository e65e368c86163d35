/* edit_calls.h - the edit formats as calls with JSON arguments.
 *
 * The MCP tools (read, grep, edit, apply_patch, file_update, replace) and
 * the JSON-RPC methods (edit.*, file.update) take the same arguments and
 * end in the same engine entry points (module/edit/edit_formats.h). They
 * call those directly rather than composing EddiSpeak text: the arguments
 * are data (a patch, a regex, a path with spaces) that need no quoting, the
 * answer is the plain text a model reads, and replace mode has no EddiSpeak
 * command at all.
 *
 * A call is parsed on the transport's thread (bad arguments are a protocol
 * error, answered at once) into an EditCall that owns copies of its strings,
 * and run on the engine's owner thread through engine_host_call.
 */
#ifndef EDDI_SERVER_EDIT_CALLS_H
#define EDDI_SERVER_EDIT_CALLS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "edit/edit_formats.h"
#include "engine_host.h"

typedef enum {
  EDIT_CALL_READ,           /* {path, offset?, limit?} */
  EDIT_CALL_GREP,           /* {pattern, glob?, offset?, ignore_case?} */
  EDIT_CALL_HASHLINE,       /* {patch} */
  EDIT_CALL_APPLY_PATCH,    /* {patch} */
  EDIT_CALL_SEARCH_REPLACE, /* {content, path?} */
  EDIT_CALL_FILE_UPDATE,    /* {path, content}: <change> or SEARCH/REPLACE blocks */
  EDIT_CALL_REPLACE,        /* {file_path, old_string, new_string, replace_all?} or edits[] */
} EditCallKind;

typedef struct {
  EditCallKind kind;
  char *path;
  char *text; /* the pattern, patch or content */
  size_t text_len;
  char *glob;
  size_t offset, limit;
  bool ignore_case;
  EddiReplaceEdit *edits; /* strings owned */
  size_t edit_count;
  /* Set by the run, for results that report them. */
  size_t files;
  bool no_change;
} EditCall;

/* Whether this engine has the format (HostFeatures). */
bool edit_call_available(EditCallKind kind, const HostFeatures *features);

/* The EddiSpeak command a call stands for: the read-only check and the log
 * line see this word. */
const char *edit_call_command(EditCallKind kind);

/* True for calls that read only (their results carry no file counts). */
bool edit_call_reads(EditCallKind kind);

/* Check arguments (a JSON object) and copy them into a new call. Strings
 * together may hold at most max_bytes; also_known names one more key to
 * pass over (a JSON-RPC method's "sender"), or NULL. SERVER_EINVAL with why
 * (plain text) for bad arguments, SERVER_ENOMEM. */
int edit_call_parse(EditCallKind kind, json_object *arguments, const char *also_known,
                    size_t max_bytes, EditCall **call, char *why, size_t why_size);

/* A HostCall: closure is the EditCall. */
int edit_call_run(EddiEngine *engine, EddiSession *session, void *closure, StrBuf *reply,
                  EddiError *err);

void edit_call_free(EditCall *self);

#endif
