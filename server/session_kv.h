/* session_kv.h - the session records mirrored to a JetStream key-value
 * bucket (--kv BUCKET), and the takeover of a dead instance's sessions.
 *
 * Each session held here is a key "<workspace id>.<session>" whose value
 * says who holds it: {"session", "sender", "instance", "workspace"}. When
 * the liveness pinger finds an instance gone, the bucket says which
 * sessions of this workspace it held; a live instance serving the same
 * checkout (the same workspace id) then takes them from the workspace's
 * journal, which the two share when they run on one machine, and its
 * first reply to each sender says "Ok, Session s taken over from <id>".
 * The journal's state itself is not in the bucket (doc/journal.org).
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
/* Put every session held here (after the journal restored them). */
void session_kv_put_all(SessionKv *self, const char *instance);

/* Pinger thread: instance is gone; if the bucket says it held sessions of
 * this workspace, queue their takeover on the owner thread. */
void session_kv_instance_gone(SessionKv *self, const char *instance);

#endif
