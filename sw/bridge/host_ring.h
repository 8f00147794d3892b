/* The client side of a connection's request ring (accelvp_bridge_proto.h,
 * struct avpb_ring; docs/host-bridge.md, "Request rings"). */
#ifndef AVP_HOST_RING_H
#define AVP_HOST_RING_H

#include "accelvp_bridge_proto.h"

/* Maps the ring whose memfd the server passed; NULL when it cannot. */
struct avpb_ring *avp_ring_map(int fd);
void avp_ring_unmap(struct avpb_ring *ring);
/* One request through the ring of the connection whose socket is `fd` (for
 * the doorbell, and to notice a server that has gone). The same contract as
 * a socket exchange: the reply's status, -EPIPE when the server has gone,
 * -EPROTO for a reply that breaks the protocol. */
int avp_ring_exchange(struct avpb_ring *ring, int fd, const struct avpb_request *q, const void *payload,
                      struct avpb_reply *r, void *out, uint32_t out_cap);

#endif
