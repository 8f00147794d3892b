/* Internals of the host library shared with the device-file library: one
 * request/reply exchange over a free connection of the session. */
#ifndef AVP_HOST_CLIENT_H
#define AVP_HOST_CLIENT_H

#include "accelvp_bridge_proto.h"
#include "accelvp_host.h"

/* Sends `op` with arguments a0..a3 and an optional payload, waits for the
 * reply. The reply's payload (at most out_cap bytes are kept) goes to `out`.
 * Returns the reply status: 0 or a negative errno value (-EPIPE when the
 * server has gone). */
int avp_host_call(avp_host *h, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, const void *payload,
                  uint32_t len, struct avpb_reply *reply, void *out, uint32_t out_cap);
/* The same over the socket for a request without payload whose reply brings
 * a descriptor: *passed_fd is -1 when it did not. */
int avp_host_call_fd(avp_host *h, uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                     struct avpb_reply *reply, int *passed_fd);

/* Device DRAM from the server's allocator (DRAM_ALLOC / DRAM_FREE), each
 * block granted to the program and mapped in its DRAM view, which every device
 * handle of the session shares: the block's device address, or 0 with errno. */
uint64_t avp_host_dram_alloc(avp_host *h, uint64_t size, uint64_t align);
int avp_host_dram_free(avp_host *h, uint64_t addr);
/* Where [addr, addr + len) of one of the program's DRAM blocks is mapped, or
 * NULL with errno EFAULT. */
void *avp_host_dram_ptr(avp_host *h, uint64_t addr, size_t len);

#endif
