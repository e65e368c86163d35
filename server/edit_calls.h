/* edit_calls.h - the edit formats as calls with JSON arguments.
 *
 * The MCP tools (read, grep, edit, apply_patch, file_update, replace,
 * refactor, preview) and the JSON-RPC methods (edit.*, file.update,
 * refactor.*) take the same arguments and
 * end in the same engine entry point, eddi_request_call. They do not
 * compose EddiSpeak text: the arguments are data (a patch, a regex, a path
 * with spaces) that need no quoting, the answer is the plain text a model
 * reads, and replace mode has no EddiSpeak command at all.
 *
 * A call is parsed on the transport's thread (bad arguments are a protocol
 * error, answered at once) into an EditCall that owns copies of its
 * strings, and run on the engine's owner thread through edit_call_run.
 */
#ifndef EDDI_SERVER_EDIT_CALLS_H
#define EDDI_SERVER_EDIT_CALLS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "eddi.h"
#include "engine_host.h"

/* The engine's call kinds under the names the server's tool table uses,
 * with the JSON arguments each takes:
 *   READ {path, offset?, limit?}          GREP {pattern, glob?, offset?, ignore_case?}
 *   HASHLINE, APPLY_PATCH {patch}         SEARCH_REPLACE {content, path?}
 *   FILE_UPDATE {path, content}: <change> or SEARCH/REPLACE blocks
 *   REPLACE {file_path, old_string, new_string, replace_all?} or {file_path, edits[]}
 *   REFACTOR, PREVIEW {operation, target, new_name, unsure?, leave?}
 *   QUERY {query, files?, offset?, limit?, text?}: the answer is JSON */
typedef EddiCallKind EditCallKind;
#define EDIT_CALL_READ EDDI_CALL_READ
#define EDIT_CALL_GREP EDDI_CALL_GREP
#define EDIT_CALL_HASHLINE EDDI_CALL_HASHLINE
#define EDIT_CALL_APPLY_PATCH EDDI_CALL_APPLY_PATCH
#define EDIT_CALL_SEARCH_REPLACE EDDI_CALL_SEARCH_REPLACE
#define EDIT_CALL_FILE_UPDATE EDDI_CALL_FILE_UPDATE
#define EDIT_CALL_REPLACE EDDI_CALL_REPLACE
#define EDIT_CALL_REFACTOR EDDI_CALL_REFACTOR
#define EDIT_CALL_PREVIEW EDDI_CALL_PREVIEW
#define EDIT_CALL_QUERY EDDI_CALL_QUERY

typedef struct {
  EddiCall call;           /* its strings (path, text, glob, edits) are owned */
  EddiCallOutcome outcome; /* set by the run, for results that report it */
  uint64_t ticket;         /* the request's, for engine_host_cancel (0: one is made) */
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

/* SERVER_EINVAL with why ("Unknown argument path; this call takes: text")
 * when arguments (an object) has a key not in keys (NULL-terminated). */
int edit_call_known_keys(json_object *arguments, const char *const *keys, char *why,
                         size_t why_size);

/* Owner thread: run the call for sender (NULL: the session's holder) and
 * session (may be NULL) through the host; reply gets one item, the text or
 * the Fail; self->outcome says what it did. */
void edit_call_run(EditCall *self, EngineHost *host, const char *transport, const char *sender,
                   const char *session, EddiReply *reply);

void edit_call_free(EditCall *self);

#endif
