/* session_kv.c - see session_kv.h. nats.c 3.4.1's KV API: js_KeyValue /
 * js_CreateKeyValue, kvStore_PutString, kvStore_Delete, kvStore_Keys,
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

/* Room for a key: workspace id, '.', session name. */
#define KV_KEY_MAX (EDDI_WORKSPACE_ID_SIZE + 80)
/* Room for what a takeover restored, for the log. */
#define KV_REPORT_MAX 2048

struct SessionKv {
  jsCtx *js;
  kvStore *kv;
  EngineHost *host;
  char workspace[EDDI_WORKSPACE_ID_SIZE];
};

SessionKv *session_kv_open(EddiLink *link, EngineHost *host, const char *bucket, char *why,
                           size_t why_size) {
  SessionKv *self = calloc(1, sizeof *self);
  if (!self) return NULL;
  self->host = host;
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
  return self;
}

void session_kv_close(SessionKv *self) {
  if (!self) return;
  if (self->kv) kvStore_Destroy(self->kv);
  if (self->js) jsCtx_Destroy(self->js);
  free(self);
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
    return;
  }
  char key[KV_KEY_MAX];
  snprintf(key, sizeof key, "%s.%s", self->workspace, event->session);
  kvStore_Delete(self->kv, key);
}

typedef struct {
  SessionKv *kv;
  const char *instance;
} KvPutAll;

static void session_kv__put_one(void *closure, const char *session, const char *sender) {
  KvPutAll *all = closure;
  session_kv__put(all->kv, session, sender, all->instance);
}

void session_kv_put_all(SessionKv *self, const char *instance) {
  if (!self) return;
  KvPutAll all = {self, instance};
  eddi_engine_each_session(self->host->engine, session_kv__put_one, &all);
}

/* ------------------------------------------------------------ takeover */

typedef struct {
  WorkItem item;
  char instance[EDDI_INSTANCE_NAME_MAX + 1];
} TakeoverItem;

/* Owner thread: take the dead instance's sessions from the journal. */
static void session_kv__take_over(WorkItem *item, void *context) {
  TakeoverItem *takeover = (TakeoverItem *)item;
  EngineHost *host = context;
  char report[KV_REPORT_MAX];
  size_t taken = eddi_engine_take_over(host->engine, takeover->instance, report, sizeof report);
  if (taken) log_report(LOG_INFO, "kv", "took over %zu sessions of %s: %s", taken,
                        takeover->instance, report);
  free(takeover);
}

/* Whether the value of key names instance as the holder. */
static bool session_kv__held_by(SessionKv *self, const char *key, const char *instance) {
  kvEntry *entry = NULL;
  if (kvStore_Get(&entry, self->kv, key) != NATS_OK) return false;
  bool held = false;
  json_object *value = json_tokener_parse(kvEntry_ValueString(entry));
  json_object *holder = NULL;
  if (value && json_object_object_get_ex(value, "instance", &holder))
    held = strcmp(json_object_get_string(holder), instance) == 0;
  json_object_put(value);
  kvEntry_Destroy(entry);
  return held;
}

void session_kv_instance_gone(SessionKv *self, const char *instance) {
  if (!self) return;
  kvKeysList keys = {0};
  if (kvStore_Keys(&keys, self->kv, NULL) != NATS_OK) return;
  size_t prefix = strlen(self->workspace);
  bool held = false;
  for (int i = 0; i < keys.Count && !held; i++)
    held = strncmp(keys.Keys[i], self->workspace, prefix) == 0 && keys.Keys[i][prefix] == '.' &&
           session_kv__held_by(self, keys.Keys[i], instance);
  kvKeysList_Destroy(&keys);
  if (!held) return;
  TakeoverItem *takeover = calloc(1, sizeof *takeover);
  if (!takeover) return;
  takeover->item = (WorkItem){.lane = "", .run = session_kv__take_over};
  snprintf(takeover->instance, sizeof takeover->instance, "%s", instance);
  if (engine_host_submit(self->host, &takeover->item) != SERVER_OK) free(takeover);
}
