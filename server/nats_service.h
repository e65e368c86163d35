/* nats_service.h - eddi's requests on NATS: the connection, the command
 * endpoints and the sessions shared with other instances.
 *
 * Subjects (doc/protocol.org has the messages):
 *   eddi.cmd              request/reply, queue group "eddi": any instance
 *   eddi.<id>.cmd         request/reply to one instance (its sessions)
 *   with --identity subject, eddi.u.<user>.cmd and eddi.u.<user>.<id>.cmd
 *   instead: the sender is <user> (doc/security.org)
 *   eddi.session.events, eddi.session.sync   sessions across instances
 *
 * The protocol is the link's (eddi_link.h): this service reads each
 * request's body there, queues it to the engine host, and publishes the
 * reply when the owner thread has run it. nats.c delivers on its own
 * threads; nothing here blocks them. Mizuki streams and service discovery
 * are served on the same link by their own parts (mizuki_stream.h,
 * service_discovery.h), which know nothing of this one.
 */
#ifndef EDDI_SERVER_NATS_SERVICE_H
#define EDDI_SERVER_NATS_SERVICE_H

#include "eddi_link.h"
#include "endpoints.h"
#include "engine_host.h"

struct NatsService;

/* The closure of one command subject. */
typedef struct {
  struct NatsService *service;
  int endpoint; /* its id in the endpoint table */
  bool identity; /* the sender is the subject's user (eddi.u.<user>.cmd) */
} NatsCommandEndpoint;

/* eddi.cmd and eddi.<id>.cmd, or their identity forms. */
#define NATS_COMMAND_ENDPOINTS 2
/* With --web and no --identity subject, the web users' identity forms
 * beside them (doc/web.org). */
#define NATS_COMMAND_ENDPOINTS_MAX 4

typedef struct NatsService {
  EngineHost *host;
  EndpointTable *endpoints;
  EddiLink *link;
  struct SessionKv *kv; /* --kv: session records mirrored there; NULL otherwise */
  const char *instance_id;
  /* eddi.<id>.cmd, or with --identity subject eddi.u.*.<id>.cmd */
  char instance_subject[EDDI_LINK_SUBJECT_MAX];
  char web_instance_subject[EDDI_LINK_SUBJECT_MAX]; /* with --web: eddi.u.*.<id>.cmd */
  bool identity_from_subject;   /* the sender is the subject's user */
  EddiLinkBodyRules rules;
  NatsCommandEndpoint commands[NATS_COMMAND_ENDPOINTS_MAX];
  const char *audit_subject; /* --audit-subject, or NULL */
} NatsService;

/* Connect to url (retrying in the background if it is down), share
 * sessions with the other instances and subscribe the command subjects.
 * auth, when not NULL, replaces the options' authentication (the embedded
 * default's own user). The host's session events are published from now
 * on. */
int nats_service_start(NatsService *self, EngineHost *host, EndpointTable *endpoints,
                       const char *url, const char *instance_id,
                       const EddiLinkCredentials *auth);
/* Publish every audit line of the host's engine on subject (borrowed for
 * the service's life). Before the owner thread starts. */
void nats_service_publish_audit(NatsService *self, const char *subject);
/* Once every part has subscribed: make sure the server has it all, and say
 * so in the log (clients wait for that line). */
void nats_service_announce(NatsService *self);
/* Stop taking messages: drain the subscriptions (handlers finish queuing). */
void nats_service_drain(NatsService *self);
/* After the host has answered all queued work: flush and close. */
void nats_service_close(NatsService *self);

/* Mirror the sessions started and ended here to kv (NULL: stop). Call
 * while the engine's owner thread is not running requests. */
struct SessionKv;
void nats_service_mirror_sessions(NatsService *self, struct SessionKv *kv);

#endif
