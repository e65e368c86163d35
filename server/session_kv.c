/* session_kv.c - see session_kv.h. nats.c 3.4.1's KV API: js_KeyValue /
 * js_CreateKeyValue, kvStore_PutString, kvStore_Put, kvStore_Update (a
 * compare-and-set on the key's revision), kvStore_Delete, kvStore_Keys,
 * kvStore_Get. */
#include "session_kv.h"

#include <json-c/json.h>
#include <nats/nats.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_host.h"
#include "log.h"
#include "server_error.h"

/* Room for a session name (the engine's are at most 64 bytes). */
#define KV_SESSION_ROOM 80
/* Room for a key: workspace id, '.', session name. */
#define KV_KEY_MAX (EDDI_WORKSPACE_ID_SIZE + KV_SESSION_ROOM)
/* Room for what a takeover restored, for the log. */
#define KV_REPORT_MAX 2048
/* The prefix of a state key: "state.<workspace id>.<session>". It is not
 * "<workspace id>." so the listing of holders never reads a state value. */
#define KV_STATE_PREFIX "state."
/* Room for the headers and subject of a put beside its value, below the
 * server's max payload. */
#define KV_PUT_OVERHEAD 1024
/* Sessions of one workspace a takeover or a check looks at, at most. */
#define KV_SESSIONS_MAX 1024
/* Room for an import's failure, for the log. */
#define KV_ERROR_MAX 512
/* How long the holder a key names may take to answer a PING before it is
 * thought gone (it then does not make a session here stand down). */
#define KV_HOLDER_PING_MS 500

/* A work item for the owner thread about one session (or all: ""). */
typedef struct {
  WorkItem item;
  SessionKv *kv;
  char session[KV_SESSION_ROOM];
  char holder[EDDI_INSTANCE_NAME_MAX + 1];
} SessionKvItem;

/* What was last put of a session held here: the journal's version of its
 * rows and the revision of its state key (for the compare-and-set). */
typedef struct {
  char session[KV_SESSION_ROOM];
  uint64_t version;
  uint64_t revision; /* 0: none put, or too large to put */
  bool too_large;    /* said so in the log already */
} KvPushed;

struct SessionKv {
  EddiLink *link;
  jsCtx *js;
  kvStore *kv;
  EngineHost *host;
  char workspace[EDDI_WORKSPACE_ID_SIZE];
  int64_t max_value; /* the server's max payload less room for the put */
  /* Owner thread only. */
  KvPushed *pushed;
  size_t pushed_count;
};

SessionKv *session_kv_open(EddiLink *link, EngineHost *host, const char *bucket, char *why,
                           size_t why_size) {
  SessionKv *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
  self->link = link;
  eddi_engine_workspace_id(host->engine, self->workspace);
  natsStatus s = natsConnection_JetStream(&self->js, eddi_link_nats(link), NULL);
  if (s == NATS_OK) s = js_KeyValue(&self->kv, self->js, bucket);
  if (s == NATS_NOT_FOUND) {
    kvConfig config;
    kvConfig_Init(&config);
    config.Bucket = bucket;
    config.History = 1;
    s = js_CreateKeyValue(&self->kv, self->js, &config);
  }
  if (s != NATS_OK) {
    snprintf(why, why_size, "KV bucket %s: %s", bucket, natsStatus_GetText(s));
    session_kv_close(self);
    return NULL;
  }
  self->max_value = natsConnection_GetMaxPayload(eddi_link_nats(link)) - KV_PUT_OVERHEAD;
  return self;
}

void session_kv_close(SessionKv *self) {
  if (!self) return;
  if (self->kv) kvStore_Destroy(self->kv);
  if (self->js) jsCtx_Destroy(self->js);
  free(self->pushed);
  free(self);
}

static void session_kv__state_key(const SessionKv *self, const char *session, char *key,
                                  size_t key_size) {
  snprintf(key, key_size, KV_STATE_PREFIX "%s.%s", self->workspace, session);
}

/* ------------------------------------------------------------ state */

static KvPushed *session_kv__pushed(SessionKv *self, const char *session, bool make) {
  for (size_t i = 0; i < self->pushed_count; i++)
    if (strcmp(self->pushed[i].session, session) == 0) return &self->pushed[i];
  if (!make) return NULL;
  KvPushed *grown = realloc(self->pushed, (self->pushed_count + 1) * sizeof *grown);
  if (!grown) return NULL;
  self->pushed = grown;
  KvPushed *fresh = &self->pushed[self->pushed_count++];
  memset(fresh, 0, sizeof *fresh);
  fresh->version = UINT64_MAX; /* never put: the first sync puts it */
  snprintf(fresh->session, sizeof fresh->session, "%s", session);
  return fresh;
}

static void session_kv__forget_pushed(SessionKv *self, const char *session) {
  KvPushed *pushed = session_kv__pushed(self, session, false);
  if (!pushed) return;
  *pushed = self->pushed[--self->pushed_count];
}

/* The holder the ownership key of session names, into holder ("" when
 * none). */
static bool session_kv__holder(SessionKv *self, const char *session, char *holder,
                               size_t holder_size);

/* Whether the ownership key of session names another instance that is
 * alive (answers a PING): it took the session over while this one was
 * stopped or down. A holder that does not answer is not followed: the
 * session is this instance's again (a restart under a new id, say). */
static bool session_kv__held_elsewhere(SessionKv *self, const char *session, char *holder,
                                       size_t holder_size) {
  if (!session_kv__holder(self, session, holder, holder_size) || !holder[0] ||
      strcmp(holder, self->host->instance_id) == 0)
    return false;
  char subject[EDDI_INSTANCE_NAME_MAX + 32], why[EDDI_LINK_FAIL_MAX];
  snprintf(subject, sizeof subject, "$SRV.PING.eddi.%s", holder);
  char *answer = NULL;
  int rc = eddi_link_request(self->link, subject, "", 0, KV_HOLDER_PING_MS, &answer, why,
                             sizeof why);
  free(answer);
  return rc == 0;
}

/* Owner thread: another instance took session over: stand down. */
static void session_kv__stand_down(SessionKv *self, const char *session, const char *holder) {
  log_report(LOG_WARN, "kv", "session %s is held by %s now: standing down", session, holder);
  eddi_engine_stand_down(self->host->engine, session, holder);
  session_kv__forget_pushed(self, session);
}

/* Owner thread: copy session's journal record to its state key when it
 * changed (force: whatever the version). The key is updated only from the
 * revision this instance put last: when another instance wrote it since,
 * it took the session over, and this one stands down. */
static void session_kv__push(SessionKv *self, const char *session, bool force) {
  uint64_t version = eddi_engine_session_version(self->host->engine, session);
  KvPushed *pushed = session_kv__pushed(self, session, true);
  if (!pushed || (!force && pushed->version == version)) return;
  char *record = NULL;
  size_t len = 0;
  if (eddi_engine_session_record(self->host->engine, session, &record, &len) < 0) return;
  char key[KV_KEY_MAX + sizeof KV_STATE_PREFIX];
  session_kv__state_key(self, session, key, sizeof key);
  natsStatus s = NATS_OK;
  uint64_t revision = 0;
  if ((int64_t)len > self->max_value) {
    /* Above JetStream's max value: only ownership is mirrored; a takeover
     * then needs the shared journal. A stale state must not be taken. */
    if (!pushed->too_large)
      log_report(LOG_WARN, "kv", "state of %s is %zu bytes, above the %lld the server takes: "
                 "not mirrored", session, len, (long long)self->max_value);
    pushed->too_large = true;
    kvStore_Delete(self->kv, key);
  } else if (pushed->revision) {
    s = kvStore_Update(&revision, self->kv, key, record, (int)len, pushed->revision);
    pushed->too_large = false;
  } else {
    s = kvStore_Put(&revision, self->kv, key, record, (int)len);
    pushed->too_large = false;
  }
  eddi_string_free(record);
  if (s == NATS_OK) {
    pushed->version = version;
    pushed->revision = revision;
    return;
  }
  char holder[EDDI_INSTANCE_NAME_MAX + 1];
  if (session_kv__holder(self, session, holder, sizeof holder) && holder[0] &&
      strcmp(holder, self->host->instance_id) != 0) {
    session_kv__stand_down(self, session, holder);
    return;
  }
  log_report(LOG_WARN, "kv", "put %s: %s", key, natsStatus_GetText(s));
  pushed->revision = 0; /* put afresh next time */
}

/* The sessions held here, by name and sender (copies: the engine's list
 * is visited under its lock, and the engine must not be called there). */
typedef struct {
  char **names;
  char **senders;
  size_t count;
} KvNames;

static void session_kv__collect(void *closure, const char *session, const char *sender) {
  KvNames *names = closure;
  char **grown_names = realloc(names->names, (names->count + 1) * sizeof *grown_names);
  if (grown_names) names->names = grown_names;
  char **grown_senders = realloc(names->senders, (names->count + 1) * sizeof *grown_senders);
  if (grown_senders) names->senders = grown_senders;
  if (!grown_names || !grown_senders) return;
  names->names[names->count] = strdup(session);
  names->senders[names->count] = strdup(sender);
  names->count += names->names[names->count] && names->senders[names->count];
}

static KvNames session_kv__local(SessionKv *self) {
  KvNames names = {0};
  eddi_engine_each_session(self->host->engine, session_kv__collect, &names);
  return names;
}

static void session_kv__names_free(KvNames *names) {
  for (size_t i = 0; i < names->count; i++) free(names->names[i]), free(names->senders[i]);
  free(names->names);
  free(names->senders);
}

void session_kv_sync(SessionKv *self) {
  if (!self) return;
  KvNames names = session_kv__local(self);
  for (size_t i = 0; i < names.count; i++) session_kv__push(self, names.names[i], false);
  session_kv__names_free(&names);
}

static void session_kv__put(SessionKv *self, const char *session, const char *sender,
                            const char *instance) {
  char key[KV_KEY_MAX];
  snprintf(key, sizeof key, "%s.%s", self->workspace, session);
  json_object *value = json_object_new_object();
  json_object_object_add(value, "session", json_object_new_string(session));
  json_object_object_add(value, "sender", json_object_new_string(sender));
  json_object_object_add(value, "instance", json_object_new_string(instance));
  json_object_object_add(value, "workspace", json_object_new_string(self->workspace));
  uint64_t revision;
  natsStatus s = kvStore_PutString(&revision, self->kv, key, json_object_to_json_string(value));
  if (s != NATS_OK) log_report(LOG_WARN, "kv", "put %s: %s", key, natsStatus_GetText(s));
  json_object_put(value);
}

void session_kv_note(SessionKv *self, const EddiSessionEvent *event) {
  if (!self) return;
  if (event->change == EDDI_SESSION_STARTED) {
    session_kv__put(self, event->session, event->sender, event->instance);
    /* Its state from the first: a takeover must not find an older one. */
    session_kv__push(self, event->session, true);
    return;
  }
  char key[KV_KEY_MAX + sizeof KV_STATE_PREFIX];
  snprintf(key, sizeof key, "%s.%s", self->workspace, event->session);
  kvStore_Delete(self->kv, key);
  session_kv__state_key(self, event->session, key, sizeof key);
  kvStore_Delete(self->kv, key);
  session_kv__forget_pushed(self, event->session);
}

/* Owner thread: after the journal restored its sessions, put each under
 * this instance, unless another instance took it over while this one was
 * down: then the restored copy stands down. */
static void session_kv__put_all(WorkItem *item, void *context) {
  (void)context;
  SessionKvItem *all = (SessionKvItem *)item;
  SessionKv *self = all->kv;
  KvNames names = session_kv__local(self);
  for (size_t i = 0; i < names.count; i++) {
    char holder[EDDI_INSTANCE_NAME_MAX + 1];
    if (session_kv__held_elsewhere(self, names.names[i], holder, sizeof holder)) {
      session_kv__stand_down(self, names.names[i], holder);
      continue;
    }
    session_kv__put(self, names.names[i], names.senders[i], self->host->instance_id);
    session_kv__push(self, names.names[i], true);
  }
  session_kv__names_free(&names);
  free(all);
}

void session_kv_put_all(SessionKv *self) {
  if (!self) return;
  SessionKvItem *all = calloc(1, sizeof *all);
  if (!all) return;
  all->item = (WorkItem){.lane = "", .run = session_kv__put_all};
  all->kv = self;
  if (engine_host_submit(self->host, &all->item) != SERVER_OK) free(all);
}

/* ------------------------------------------------------------ takeover */

/* A session's state as the bucket had it, for the owner thread. */
typedef struct {
  char *bytes;
  size_t len;
} KvRecord;

typedef struct {
  WorkItem item;
  SessionKv *kv;
  char instance[EDDI_INSTANCE_NAME_MAX + 1];
  KvRecord records[KV_SESSIONS_MAX];
  size_t record_count;
} TakeoverItem;

/* Owner thread: put the dead instance's records in this journal, take its
 * sessions from there, and put their state under this instance. */
static void session_kv__take_over(WorkItem *item, void *context) {
  TakeoverItem *takeover = (TakeoverItem *)item;
  EngineHost *host = context;
  for (size_t i = 0; i < takeover->record_count; i++) {
    char error[KV_ERROR_MAX];
    if (eddi_engine_import_session(host->engine, takeover->instance, takeover->records[i].bytes,
                                   takeover->records[i].len, error, sizeof error) < 0)
      log_report(LOG_WARN, "kv", "a session record of %s: %s", takeover->instance, error);
    free(takeover->records[i].bytes);
  }
  char report[KV_REPORT_MAX];
  size_t taken = eddi_engine_take_over(host->engine, takeover->instance, report, sizeof report);
  if (taken) log_report(LOG_INFO, "kv", "took over %zu sessions of %s: %s", taken,
                        takeover->instance, report);
  session_kv_sync(takeover->kv);
  free(takeover);
}

/* The value of key, parsed; NULL when there is none. */
static json_object *session_kv__value(SessionKv *self, const char *key) {
  kvEntry *entry = NULL;
  if (kvStore_Get(&entry, self->kv, key) != NATS_OK) return NULL;
  json_object *value = json_tokener_parse(kvEntry_ValueString(entry));
  kvEntry_Destroy(entry);
  return value;
}

static bool session_kv__holder(SessionKv *self, const char *session, char *holder,
                               size_t holder_size) {
  char key[KV_KEY_MAX];
  snprintf(key, sizeof key, "%s.%s", self->workspace, session);
  holder[0] = '\0';
  json_object *value = session_kv__value(self, key), *field = NULL;
  if (value && json_object_object_get_ex(value, "instance", &field))
    snprintf(holder, holder_size, "%s", json_object_get_string(field));
  json_object_put(value);
  return value != NULL;
}

/* The session of key's value when instance holds it, else NULL (freed by
 * the caller). */
static char *session_kv__held_by(SessionKv *self, const char *key, const char *instance) {
  json_object *value = session_kv__value(self, key), *holder = NULL, *session = NULL;
  char *held = NULL;
  if (value && json_object_object_get_ex(value, "instance", &holder) &&
      strcmp(json_object_get_string(holder), instance) == 0 &&
      json_object_object_get_ex(value, "session", &session))
    held = strdup(json_object_get_string(session));
  json_object_put(value);
  return held;
}

/* The bucket's record of session's state into takeover, if it has one. */
static void session_kv__fetch_state(SessionKv *self, const char *session, TakeoverItem *takeover) {
  char key[KV_KEY_MAX + sizeof KV_STATE_PREFIX];
  session_kv__state_key(self, session, key, sizeof key);
  kvEntry *entry = NULL;
  if (takeover->record_count == KV_SESSIONS_MAX || kvStore_Get(&entry, self->kv, key) != NATS_OK)
    return;
  int len = kvEntry_ValueLen(entry);
  char *bytes = len > 0 ? malloc((size_t)len) : NULL;
  if (bytes) {
    memcpy(bytes, kvEntry_Value(entry), (size_t)len);
    takeover->records[takeover->record_count++] = (KvRecord){bytes, (size_t)len};
  }
  kvEntry_Destroy(entry);
}

void session_kv_instance_gone(SessionKv *self, const char *instance) {
  if (!self) return;
  kvKeysList keys = {0};
  if (kvStore_Keys(&keys, self->kv, NULL) != NATS_OK) return;
  TakeoverItem *takeover = calloc(1, sizeof *takeover);
  if (!takeover) {
    kvKeysList_Destroy(&keys);
    return;
  }
  size_t prefix = strlen(self->workspace);
  bool held = false;
  for (int i = 0; i < keys.Count; i++) {
    if (strncmp(keys.Keys[i], self->workspace, prefix) != 0 || keys.Keys[i][prefix] != '.')
      continue;
    char *session = session_kv__held_by(self, keys.Keys[i], instance);
    if (!session) continue;
    held = true;
    session_kv__fetch_state(self, session, takeover);
    free(session);
  }
  kvKeysList_Destroy(&keys);
  takeover->item = (WorkItem){.lane = "", .run = session_kv__take_over};
  takeover->kv = self;
  snprintf(takeover->instance, sizeof takeover->instance, "%s", instance);
  if (held && engine_host_submit(self->host, &takeover->item) == SERVER_OK) return;
  for (size_t i = 0; i < takeover->record_count; i++) free(takeover->records[i].bytes);
  free(takeover);
}

/* ------------------------------------------------------------ standing down */

static void session_kv__stand_down_run(WorkItem *item, void *context) {
  (void)context;
  SessionKvItem *down = (SessionKvItem *)item;
  session_kv__stand_down(down->kv, down->session, down->holder);
  free(down);
}

void session_kv_check_holders(SessionKv *self) {
  if (!self) return;
  KvNames names = session_kv__local(self);
  for (size_t i = 0; i < names.count; i++) {
    char holder[EDDI_INSTANCE_NAME_MAX + 1];
    if (!session_kv__held_elsewhere(self, names.names[i], holder, sizeof holder)) continue;
    SessionKvItem *down = calloc(1, sizeof *down);
    if (!down) break;
    down->item = (WorkItem){.lane = "", .run = session_kv__stand_down_run};
    down->kv = self;
    snprintf(down->session, sizeof down->session, "%s", names.names[i]);
    snprintf(down->holder, sizeof down->holder, "%s", holder);
    if (engine_host_submit(self->host, &down->item) != SERVER_OK) free(down);
  }
  session_kv__names_free(&names);
}
