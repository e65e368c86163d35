/* eddi_link.h - eddi's NATS protocol, written once for every front end.
 *
 * eddi-server, the Emacs module's bridge and the eddi CLI speak the same
 * protocol on NATS (doc/protocol.org): the subjects, the request body
 * (EddiSpeak text, or JSON {sender, session, text}) and its refusals, the
 * session events and the sync between instances, and a connection that
 * reconnects forever with backoff. This library is that protocol. A front
 * end decides only what to do with a request (queue it to its engine's
 * owner thread) and how to word its log.
 *
 * It sits between the front ends and the engine's public header: it
 * includes eddi.h and nothing else of the engine, and calls only the
 * engine's thread-safe functions (the session registry), because its
 * callbacks run on nats.c's threads.
 *
 * Two halves:
 * - messages: the checks a body passes, the request body, session events
 *   and sync answers. Plain functions of bytes, no connection needed.
 * - the link: one NATS connection with its subscriptions. Handlers get an
 *   EddiLinkMessage, borrowed for the call (the link destroys nats.c's
 *   message after the handler returns), on a nats.c thread: they must not
 *   block on long work.
 */
#ifndef EDDI_LINK_H
#define EDDI_LINK_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eddi.h"

/* What link functions return: 0 or one of these. */
enum {
  EDDI_LINK_ENOMEM = -1,       /* out of memory */
  EDDI_LINK_EINVAL = -2,       /* a message or argument refused; the Fail line says why */
  EDDI_LINK_EIO = -3,          /* nats.c refused (connect, subscribe, publish); why has its word */
  EDDI_LINK_EFULL = -4,        /* more than EDDI_LINK_SUBSCRIPTIONS_MAX subscriptions */
  EDDI_LINK_ENORESPONDERS = -5, /* a request found nobody listening */
  EDDI_LINK_ETIMEOUT = -6,     /* a request got no answer in time */
  EDDI_LINK_ENOENT = -7,       /* a file looked for is not there */
};

/* ------------------------------------------------------------ subjects */

#define EDDI_LINK_QUEUE_GROUP "eddi"
/* Requests any instance may answer (queue group "eddi"). */
#define EDDI_LINK_CMD_SUBJECT "eddi.cmd"
/* Instances tell each other of sessions started and ended. */
#define EDDI_LINK_SESSION_EVENTS_SUBJECT "eddi.session.events"
/* A joining instance asks every other one for the sessions it holds. */
#define EDDI_LINK_SESSION_SYNC_SUBJECT "eddi.session.sync"
/* Subjects are fixed parts and an instance id ("eddi.<id>.cmd"). */
#define EDDI_LINK_SUBJECT_MAX (EDDI_INSTANCE_NAME_MAX + 32)

/* "eddi.<instance>.cmd": requests for this instance (its sessions). */
void eddi_link_instance_subject(char *out, size_t out_size, const char *instance);
/* An instance id is part of a subject: 1 to EDDI_INSTANCE_NAME_MAX letters,
 * digits, '-' or '_'. */
bool eddi_link_instance_valid(const char *instance);

/* ------------------------------------------------------------ identity */

/* With --identity subject (doc/security.org), a user sends on subjects that
 * name it, and nats-server lets each user publish only on its own:
 * "eddi.u.<user>.cmd" (any instance) and "eddi.u.<user>.<instance>.cmd".
 * eddi takes the sender from the subject. */
#define EDDI_LINK_IDENTITY_PREFIX "eddi.u."
#define EDDI_LINK_IDENTITY_ANY_SUBJECT "eddi.u.*.cmd"
/* Each user's replies come to its own inbox prefix, "_INBOX_<user>", which
 * nats-server lets only that user read. */
#define EDDI_LINK_IDENTITY_INBOX_PREFIX "_INBOX_"

/* The subject user sends on: to any instance (instance NULL) or to one. */
void eddi_link_identity_subject(char *out, size_t out_size, const char *user,
                                const char *instance);
/* The user a command subject names (eddi.u.<user>.cmd or
 * eddi.u.<user>.<instance>.cmd), into out; false when subject is not one. */
bool eddi_link_identity_of(const char *subject, char *out, size_t out_size);

/* ------------------------------------------------------------ checks */

/* A refusal a transport writes itself: one short sentence, as a complete
 * `Fail "..."` line (eddi_fail_line cuts a longer one on a character
 * boundary). */
#define EDDI_LINK_FAIL_MAX 1024

/* Size limit and UTF-8. Fills fail and returns EDDI_LINK_EINVAL on refusal. */
int eddi_link_check_bytes(const char *data, size_t len, size_t max_bytes, char *fail,
                          size_t fail_size);
/* Parse data as one JSON value (blanks around it allowed) into *value, the
 * caller's to put. Strict: RFC 8259 only (json-c's strict mode: no single
 * quotes, trailing commas, comments or leading zeros), UTF-8, and no \u
 * escape of a lone UTF-16 surrogate (json-c would make it U+FFFD, changing
 * what the client sent). On refusal *trouble says what, in a few words
 * ("unexpected end of data"; with terse, "unexpected end" for a value cut
 * short). stdio lines and NATS bodies both pass here. */
int eddi_link_json_parse(const char *data, size_t len, bool terse, json_object **value,
                         const char **trouble);
/* The trouble of a lone surrogate escape. */
#define EDDI_LINK_JSON_LONE_SURROGATE "unpaired UTF-16 surrogate escape"
/* The trouble of an object that gives one key twice (json-c would keep the
 * last value silently). */
#define EDDI_LINK_JSON_DUPLICATE_KEY "duplicate key in an object"
/* A number member of object (parsed from data by eddi_link_json_parse) as
 * data writes it: json-c keeps integers in 64 bits, clamping larger ones,
 * so a value to echo exactly (a JSON-RPC id) takes its text from here.
 * The member's serializer is set to that text; false when key is absent
 * or not a number. */
bool eddi_link_keep_number_text(json_object *object, const char *data, size_t len,
                                const char *key);
/* Parse data as one JSON object (blanks around it allowed) into *object, the
 * caller's to put. */
int eddi_link_parse_object(const char *data, size_t len, json_object **object, char *fail,
                           size_t fail_size);
/* A string member of object, or NULL when absent or null; refused when
 * present but not a non-empty string, or holding a NUL (names become C
 * strings). Borrowed from object. */
int eddi_link_get_string(json_object *object, const char *key, const char **value, char *fail,
                         size_t fail_size);

/* ------------------------------------------------------------ request body */

typedef struct {
  size_t max_bytes; /* larger bodies are refused */
  /* Word a cut-short JSON body "unexpected end", as the Emacs bridge always
   * has, instead of json-c's own "unexpected end of data" (eddi-server).
   * The two front ends' tests pin their wording; one would do. */
  bool terse_json_errors;
} EddiLinkBodyRules;

/* A request: plain EddiSpeak, or the JSON object {sender?, session?, text}
 * (one of sender and session given). */
typedef struct {
  const char *sender;  /* NULL when not given */
  const char *session; /* NULL when not given */
  const char *text;
  size_t len;
  json_object *json;   /* holds the strings of a JSON body; NULL for plain text */
} EddiLinkBody;

/* Read a request body. Strings are borrowed from data (plain text) or from
 * body->json: free with eddi_link_body_free, use while data lives. On
 * refusal fail holds the reply and body is empty. */
int eddi_link_body_read(const char *data, size_t len, const EddiLinkBodyRules *rules,
                        EddiLinkBody *body, char *fail, size_t fail_size);
void eddi_link_body_free(EddiLinkBody *body);

/* The JSON body a client sends, {"sender", "session"?, "text"}: a new
 * string the caller frees with free(); NULL when out of memory. */
char *eddi_link_body_json(const char *sender, const char *session, const char *text,
                          size_t len);

/* ------------------------------------------------------------ session events */

/* Called with each event a message holds; strings borrowed for the call. */
typedef void (*EddiLinkEventVisit)(void *closure, const EddiSessionEvent *event);

/* {"event": "started"|"ended", "session", "sender", "instance"}: a new
 * string (free()), NULL when out of memory. */
char *eddi_link_event_json(const EddiSessionEvent *event);
/* Read an event and visit it. An event of a kind this build does not know
 * is skipped (a newer instance may send more kinds); a malformed one is
 * EDDI_LINK_EINVAL. */
int eddi_link_event_read(const char *data, size_t len, size_t max_bytes, EddiLinkEventVisit visit,
                         void *closure);

/* The answer to a sync, {"instance", "sessions": [{"session", "sender"}]},
 * listing the sessions engine holds (thread-safe): a new string (free()). */
char *eddi_link_sync_answer_json(const EddiEngine *engine, const char *instance);
/* Read a sync answer: each session it lists is visited as started on the
 * answer's instance. */
int eddi_link_sync_answer_read(const char *data, size_t len, size_t max_bytes,
                               EddiLinkEventVisit visit, void *closure);

/* ------------------------------------------------------------ credentials */

/* What a client needs to connect to a server that asks for a password: a
 * JSON file of mode 0600 (doc/security.org), {"url"?, "user"?, "password"?,
 * "token"?, "identity"?}. The embedded default of eddi-server writes two in
 * its state folder while it runs: one for clients (the eddi CLI) and one
 * for instances (the Emacs bridge), each naming the URL it is for. */
#define EDDI_LINK_CLIENT_CREDENTIALS "nats-client.json"
#define EDDI_LINK_INSTANCE_CREDENTIALS "nats-instance.json"

typedef struct {
  char *url;      /* the server they are for; NULL: whichever is asked for */
  char *user, *password;
  char *token;
  char *identity; /* "subject": requests go to eddi.u.<user>.cmd */
} EddiLinkCredentials;

struct EddiLinkOptions;

/* Read a credentials file into out (free it with eddi_link_credentials_free).
 * EDDI_LINK_ENOENT when there is none; EDDI_LINK_EINVAL when it is not one,
 * or others than its owner may read it; why says what. */
int eddi_link_credentials_read(const char *path, EddiLinkCredentials *out, char *why,
                               size_t why_size);
/* Whether self may be sent to url: its own URL is url, or it names none. */
bool eddi_link_credentials_fit(const EddiLinkCredentials *self, const char *url);
/* Point options' user/password or token at self's (borrowed). */
void eddi_link_credentials_apply(const EddiLinkCredentials *self, struct EddiLinkOptions *options);
void eddi_link_credentials_free(EddiLinkCredentials *self);
/* Write credentials (the fields that are not NULL) to path. */
int eddi_link_credentials_write(const char *path, const EddiLinkCredentials *credentials,
                                char *why, size_t why_size);
/* Write len bytes of text to path as a new file of mode 0600, put in place
 * whole (a temporary file renamed), for secrets. */
int eddi_link_secret_file_write(const char *path, const char *text, size_t len, char *why,
                                size_t why_size);

/* ------------------------------------------------------------ time */

/* RFC 3339 time, UTC, seconds ("2025-01-31T12:00:00Z"). */
#define EDDI_LINK_TIME_MAX 32
void eddi_link_now(char *out, size_t out_size);

/* ------------------------------------------------------------ the link */

/* Reconnect backoff: BASE doubled per failed round up to MAX, plus up to
 * JITTER from the link's own seed, so that many instances do not hammer a
 * restarting server in step. Forever: no attempt limit. */
#define EDDI_LINK_RECONNECT_BASE_MS 50
#define EDDI_LINK_RECONNECT_MAX_MS 2000
#define EDDI_LINK_RECONNECT_JITTER_MS 100
/* Waits when stopping: all drains together, a flush, nats.c's threads. */
#define EDDI_LINK_DRAIN_TIMEOUT_MS 5000
#define EDDI_LINK_FLUSH_TIMEOUT_MS 2000
#define EDDI_LINK_SHUTDOWN_TIMEOUT_MS 5000
/* Subscriptions of one link: eddi-server has 9 discovery, 2 command,
 * 3 session, 2 mizuki. */
#define EDDI_LINK_SUBSCRIPTIONS_MAX 24

/* The delay before reconnect attempt `attempts` (1, 2, ...); seed is
 * advanced (rand_r). */
int64_t eddi_link_reconnect_delay(int attempts, unsigned *seed);

typedef struct EddiLink EddiLink;

/* What the link tells its owner, on a nats.c thread (or the calling thread,
 * for a failed publish): the owner words its own log from it. */
typedef enum {
  EDDI_LINK_CONNECTED,    /* the first connection, made in the background; text: the URL */
  EDDI_LINK_DISCONNECTED, /* lost the server, reconnecting (not said while closing) */
  EDDI_LINK_RECONNECTED,  /* text: the URL */
  EDDI_LINK_ERROR,        /* nats.c or a publish failed; text says what */
  EDDI_LINK_WARNING,      /* a message dropped or ignored; text says which */
} EddiLinkNoticeKind;

typedef struct {
  EddiLinkNoticeKind kind;
  const char *text; /* borrowed for the call; "" when there is nothing to say */
} EddiLinkNotice;

typedef void (*EddiLinkListener)(void *closure, const EddiLinkNotice *notice);

typedef struct EddiLinkOptions {
  const char *url;
  const char *name;          /* the connection's name on the server (the instance id) */
  /* A server that is down at start is retried in the background
   * (eddi-server); without this, connecting fails (the Emacs bridge and
   * the CLI, which tell their user at once). */
  bool retry_first_connect;
  int connect_timeout_ms;    /* 0: nats.c's default */
  /* Authentication and TLS; NULL for none. */
  const char *creds_file;
  const char *token;
  const char *user, *password;
  const char *tls_ca, *tls_cert, *tls_key;
  /* The prefix of this connection's reply inboxes ("_INBOX_alice"), or
   * NULL for nats.c's "_INBOX". */
  const char *inbox_prefix;
  EddiLinkListener listener; /* may be NULL */
  void *closure;
} EddiLinkOptions;

/* A message delivered to a handler. Borrowed for the call. */
typedef struct {
  const char *subject;
  const char *reply; /* NULL when the sender wants no answer */
  const char *data;  /* never NULL */
  size_t len;
} EddiLinkMessage;

typedef void (*EddiLinkHandler)(void *closure, const EddiLinkMessage *message);

/* Connect. With options->retry_first_connect a server that is down is
 * retried in the background (0, and a warning notice). Otherwise
 * EDDI_LINK_EIO with nats.c's word for it in why. */
int eddi_link_connect(EddiLink **out, const EddiLinkOptions *options, char *why,
                      size_t why_size);

/* Subscribe subject (in queue group queue, if not NULL). */
int eddi_link_subscribe(EddiLink *self, const char *subject, const char *queue,
                        EddiLinkHandler handler, void *closure);

/* Serve requests: eddi.cmd (to any_closure) and eddi.<instance>.cmd (to
 * instance_closure), both in queue group "eddi". A request without a reply
 * subject is dropped with a warning; handler gets the rest. */
int eddi_link_serve_commands(EddiLink *self, const char *instance, EddiLinkHandler handler,
                             void *any_closure, void *instance_closure);

/* The same with the sender's identity in the subject (--identity subject):
 * eddi.u.*.cmd and eddi.u.*.<instance>.cmd; eddi_link_identity_of reads a
 * message's user from its subject. */
int eddi_link_serve_identity_commands(EddiLink *self, const char *instance,
                                      EddiLinkHandler handler, void *any_closure,
                                      void *instance_closure);

/* Share sessions with the other instances: note their events into engine's
 * registry (eddi.session.events), answer their sync with the sessions held
 * here (eddi.session.sync), and ask the instances already serving for
 * theirs. instance is this one's id, as the engine has it
 * (eddi_engine_set_instance), which tells its own events from the others'.
 * Messages larger than max_bytes are ignored. Uses only the engine's
 * thread-safe functions. */
int eddi_link_share_sessions(EddiLink *self, EddiEngine *engine, const char *instance,
                             size_t max_bytes);

/* Tell the other instances (eddi.session.events). Any thread. */
int eddi_link_publish_session_event(EddiLink *self, const EddiSessionEvent *event);

/* Publish data; a failure is also an error notice. Any thread. */
int eddi_link_publish(EddiLink *self, const char *subject, const char *data, size_t len);
/* Publish message as JSON ('/' not escaped). Consumes message. */
int eddi_link_publish_json(EddiLink *self, const char *subject, json_object *message);

/* Send data to subject and wait up to timeout_ms for the answer: a new
 * string in *answer (free()). EDDI_LINK_ENORESPONDERS, EDDI_LINK_ETIMEOUT or
 * EDDI_LINK_EIO with nats.c's word in why. */
int eddi_link_request(EddiLink *self, const char *subject, const char *data, size_t len,
                      int timeout_ms, char **answer, char *why, size_t why_size);

/* The nats.c connection under the link, for JetStream (eddi-server's
 * session KV mirror). Borrowed. */
struct __natsConnection;
struct __natsConnection *eddi_link_nats(EddiLink *self);

/* Whether the link is connected now. */
bool eddi_link_connected(EddiLink *self);
/* Make sure the server has what was sent (subscriptions before serving). 0
 * when not connected: it goes out on connecting. */
int eddi_link_flush(EddiLink *self);

/* Stop delivery: drain every subscription (handlers finish what they hold),
 * all within EDDI_LINK_DRAIN_TIMEOUT_MS; without a server, just
 * unsubscribe. Once only; later calls do nothing. */
void eddi_link_drain(EddiLink *self);

/* Flush, close and free. It then waits for nats.c's own threads to end
 * (nats_CloseAndWait), so that no callback of this link runs after it
 * returns: a process holds one link at a time. NULL is allowed. */
void eddi_link_close(EddiLink *self);

#endif
