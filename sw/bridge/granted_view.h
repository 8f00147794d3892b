/* A program's view of one memory of the server (host memory, device DRAM):
 * an address range of the memory's size, reserved with nothing mapped, where
 * each block the server grants the program (with its memfd) is mapped at its
 * place (bus or device address minus the memory's origin). So a pointer into the view reaches only the program's own blocks;
 * anything else faults. Thread-safe. */
#ifndef AVP_GRANTED_VIEW_H
#define AVP_GRANTED_VIEW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct granted_block {
  uint64_t addr, size;
};

struct granted_view {
  pthread_mutex_t lock;
  uint8_t *base; /* NULL until reserved */
  uint64_t origin, size; /* the memory's addresses: [origin, origin + size) */
  struct granted_block *blocks;
  size_t nblocks, cap;
};

void granted_view_init(struct granted_view *v);
/* Reserves the range once (later calls for the same memory do nothing);
 * 0, or -1 with errno (EPROTO for another memory). */
int granted_view_reserve(struct granted_view *v, uint64_t origin, uint64_t size);
void granted_view_destroy(struct granted_view *v);
/* Maps the granted memfd `fd` (closed here in every case) as the block [addr,
 * addr + size); where it is mapped, or NULL with errno (EPROTO for a block
 * outside the memory). */
void *granted_view_map(struct granted_view *v, int fd, uint64_t addr, uint64_t size);
/* The block at `addr` maps nothing again. */
void granted_view_unmap(struct granted_view *v, uint64_t addr);
/* Where [addr, addr + len) is mapped when one block holds it all, else NULL
 * with errno EFAULT. */
void *granted_view_ptr(struct granted_view *v, uint64_t addr, size_t len);

#endif
