// The direct-access counterpart of kernel_dma_copy (RUN_INSTANCES, same
// arguments): each instance adds 1 to every 64-bit word of its `blocks`
// blocks of `block` bytes, loading from src and storing to dst in DRAM
// through the hart's data cache.
#include <stdint.h>

#include "avp/device.h"

AVP_KERNEL void kernel_main(uint64_t instance, const uint64_t* src, uint64_t* dst, uint64_t block, uint64_t blocks) {
  const uint64_t words = block * blocks / 8, base = instance * words;
  for (uint64_t w = 0; w < words; ++w) dst[base + w] = src[base + w] + 1;
}
