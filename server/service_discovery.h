/* service_discovery.h - $SRV.PING, $SRV.INFO and $SRV.STATS.
 *
 * The NATS service-discovery protocol ("micro" v1), answered on the link's
 * delivery threads from the endpoint table: no engine work involved.
 */
#ifndef EDDI_SERVER_SERVICE_DISCOVERY_H
#define EDDI_SERVER_SERVICE_DISCOVERY_H

#include "eddi_link.h"
#include "endpoints.h"

typedef enum {
  DISCOVERY_PING,
  DISCOVERY_INFO,
  DISCOVERY_STATS,
  DISCOVERY_KIND_COUNT
} DiscoveryKind;

struct ServiceDiscovery;

/* The closure of one kind's subscriptions. */
typedef struct {
  struct ServiceDiscovery *discovery;
  DiscoveryKind kind;
} DiscoveryClosure;

typedef struct ServiceDiscovery {
  EddiLink *link;
  EndpointTable *endpoints;
  const EddiEngine *engine; /* for its session count (thread-safe) */
  const char *instance_id;
  char started[EDDI_LINK_TIME_MAX];
  DiscoveryClosure closures[DISCOVERY_KIND_COUNT];
} ServiceDiscovery;

/* Subscribe to the three subjects in their three forms and answer them. */
int service_discovery_start(ServiceDiscovery *self, EddiLink *link, EndpointTable *endpoints,
                            const EddiEngine *engine, const char *instance_id);

#endif
