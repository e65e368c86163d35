/* session_kv.h - the session records mirrored to a JetStream key-value
 * bucket (--kv BUCKET), and the takeover of a dead instance's sessions.
 *
 * Each session held here is a key "<workspace id>.<session>" whose value
 * says who holds it: {"session", "sender", "instance", "workspace"}, and a
 * key "state.<workspace id>.<session>" whose value is the journal's record
 * of the session (its rows: open files, cursors, bookmarks, unsaved edits,
 * snapshots, changesets; session/journal_kv.c), put again after each
 * command that changed it. When the liveness pinger finds an instance gone
 * (no responders, or silent past the timeout), the bucket says which
 * sessions of this workspace it held; a live instance serving the same
 * checkout (the same workspace id) imports their records into its own
 * journal (a journal that has the session, a shared state folder, keeps
 * its own rows), takes them over from there, and its first reply to each
 * sender says "Ok, Session s taken over from <id>".
 *
 * A state larger than the server's max payload (1 MB by default) is not
 * mirrored (logged; its state key is deleted so no stale state is taken):
 * its takeover then needs a shared journal. The state key is updated by a
 * compare-and-set on the revision this instance put last: an instance
 * that was stopped and taken over finds the key written by another, and
 * stands down (drops its copy without ending it), as it does when the
 * pinger's check of its sessions' holders names another instance.
 */
#ifndef EDDI_SERVER_SESSION_KV_H
#define EDDI_SERVER_SESSION_KV_H

#include <stdbool.h>

#include "eddi.h"
#include "eddi_link.h"
#include "engine_host.h"

typedef struct SessionKv SessionKv;

/* Open (or make) bucket over link's connection; NULL with why on failure. */
SessionKv *session_kv_open(EddiLink *link, EngineHost *host, const char *bucket,
                           char *why, size_t why_size);
void session_kv_close(SessionKv *self);

/* Owner thread: a session started (put) or ended (deleted) here. */
void session_kv_note(SessionKv *self, const EddiSessionEvent *event);
/* Put every session held here (after the journal restored them), on the
 * owner thread; one another instance holds now stands down. */
void session_kv_put_all(SessionKv *self);
/* Owner thread, after each command: put the state of the sessions whose
 * journal record changed. */
void session_kv_sync(SessionKv *self);
/* Pinger thread: a session held here whose key names another instance
 * (which took it over while this one was stopped) stands down. */
void session_kv_check_holders(SessionKv *self);

/* Pinger thread: instance is gone; if the bucket says it held sessions of
 * this workspace, queue their takeover on the owner thread. */
void session_kv_instance_gone(SessionKv *self, const char *instance);

#endif
