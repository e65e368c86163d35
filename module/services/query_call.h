/* query_call.h - a script's set as data, for the code.query call.
 *
 * The Python API (python/eddi) and any other program that wants the code
 * as objects asks the same query engine scripts iterate (script_query.c):
 * `methods in UserManager where complexity > 8`, `caller of authenticate`,
 * `import where unused`. The answer is JSON, one object per element, with
 * its place, name, class, signature and numbers, so that a client never
 * parses code or reply text itself. */
#ifndef EDDI_SERVICES_QUERY_CALL_H
#define EDDI_SERVICES_QUERY_CALL_H

#include "workspace/command.h"

/* Elements a page holds when the call names no limit, and at most. */
#define EDDI_QUERY_PAGE_DEFAULT 500
#define EDDI_QUERY_PAGE_MAX 10000

/* Run call (EDDI_CALL_QUERY: text is a set as a script writes it, path
 * the one file it looks in or glob the files (both NULL: the workspace), offset and limit the page,
 * with_text whether each element carries its text) over the workspace's
 * texts as the session holds them (ctx->session may be NULL). Appends one
 * JSON object to out:
 *   {"elements": [...], "total": N, "offset": O, "next_offset": M|null}
 * or fails with the query's syntax error or the engine's refusal. */
int eddi_query_call(CommandContext *ctx, const EddiCall *call, StrBuf *out);

#endif
