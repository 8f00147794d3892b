// DMA double-buffered copy (RUN_INSTANCES): each instance moves `blocks`
// blocks of `block` bytes from src to dst through two buffers at the bottom of
// its hart's TCDM slice, using the xintf DMA device (no MMIO in the kernel):
// while block k is being transformed (every 64-bit word + 1), block k + 1 is
// already on its way in. The DMA engine needs physical (global-view) TCDM
// addresses, so the kernel derives its slice from its hart id.
#include <stdint.h>

#include "avp/device.h"
#include "xintf.h"

static uint64_t dma_copy(uint64_t lun, uint64_t from, uint64_t to, uint64_t bytes) {
  uint64_t id, zero = 0;
  AVP_XCMD(0, zero, lun, from);
  AVP_XCMD(1, zero, lun, to);
  AVP_XCMD(2, id, lun, bytes);
  return id;
}

static void dma_wait(uint64_t lun, uint64_t id) {
  uint64_t r;
  AVP_XCMD(3, r, lun, id);
  (void)r;
}

AVP_KERNEL void kernel_main(uint64_t instance, uint64_t src, uint64_t dst, uint64_t block, uint64_t blocks,
                            uint64_t tcdm_global, uint64_t hart_slice) {
  const uint64_t lun = avp_xext(AVP_XINTF_UUID_DMA);
  const uint64_t tcdm = tcdm_global + avp_hart_id() * hart_slice;
  uint64_t* buf[2] = {(uint64_t*)tcdm, (uint64_t*)(tcdm + block)};
  const uint64_t base = instance * blocks * block;
  uint64_t in = dma_copy(lun, src + base, (uint64_t)buf[0], block);
  for (uint64_t k = 0; k < blocks; ++k) {
    dma_wait(lun, in);
    if (k + 1 < blocks) in = dma_copy(lun, src + base + (k + 1) * block, (uint64_t)buf[(k + 1) & 1], block);
    uint64_t* p = buf[k & 1];
    for (uint64_t w = 0; w < block / 8; ++w) p[w] += 1;
    dma_wait(lun, dma_copy(lun, (uint64_t)p, dst + base + k * block, block));
  }
}
