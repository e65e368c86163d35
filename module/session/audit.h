/* audit.h - one line of JSON for every request, refused ones included.
 *
 * An operator of a build machine wants to know afterwards who did what to
 * which file: each request an engine receives becomes one record (time,
 * sender, session, instance, transport, the command words, every file
 * written or deleted with the content hashes before and after, and the
 * outcome), appended to a file in eddi's state folder and handed to a sink
 * (eddi-server publishes it on NATS with --audit-subject). A record never
 * holds file text, nor the text of a Fail (which may quote a file): only
 * the failing command's word and the error's kind.
 */
#ifndef EDDI_AUDIT_H
#define EDDI_AUDIT_H

#include "core/common.h"
#include "core/fs.h"
#include "eddi.h"

typedef struct EddiAudit EddiAudit;

/* Files touched by the request being run. */
typedef struct {
  char *path;
  bool had_before, has_after;
  uint64_t before, after; /* XXH3 of the bytes */
} AuditFile;

/* Open the log (path as EddiAuditConfig says, which it borrows). NULL with
 * why in error. */
EddiAudit *eddi_audit_new(const char *path, const EddiAuditConfig *config, char *error,
                          size_t error_size);
void eddi_audit_free(EddiAudit *self);

/* The request being run: its files are noted between begin and end. */
void eddi_audit_begin(EddiAudit *self);
void eddi_audit_note_file(EddiAudit *self, const char *path, const EddiFileStamp *before,
                          const EddiFileStamp *after);

/* What the record says about the request. */
typedef struct {
  const char *sender;
  const char *session;   /* may be NULL */
  const char *instance;  /* may be NULL */
  const char *transport; /* may be NULL */
  const char *text;      /* the message: only its command words are kept */
  size_t len;
  const EddiReply *reply;
  bool refused;          /* routing or policy refused it: nothing ran */
  const char *settled;   /* a recovery's record: its outcome, instead of the reply's */
} AuditOutcome;

/* Write the record (and hand it to the sink). */
void eddi_audit_end(EddiAudit *self, const AuditOutcome *outcome);

/* The record of outcome and files (count of them), with its newline, into
 * line: for a record made before the log is open (a recovery's). */
void eddi_audit_render(const AuditOutcome *outcome, const AuditFile *files, size_t count,
                       StrBuf *line);
/* Write records rendered earlier (whole lines, len bytes). */
void eddi_audit_write_lines(EddiAudit *self, const char *lines, size_t len);

/* Whether writes are refused because records could not be written (a
 * EDDI_AUDIT_FAILURE_REFUSE log): then err says why and how to go on. The
 * records waiting are tried again first: once they are written, writes
 * are allowed again. */
bool eddi_audit_refuses_writes(EddiAudit *self, EddiError *err);

#endif
