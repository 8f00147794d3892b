// A kernel launched by an Acceldev context (CMP_SUBMIT) that tries one way
// to reach host memory (test_acceldev_isolation.cpp): a load, a store, or a
// DMA transfer it programs through the DMA registers. Entered with a1 = mode,
// a2 = address (device view), a3 = value, a4 = a result block in device
// memory: out[0] = what was read, out[1] = 1 once the kernel reached its end.
#include <stdint.h>

#include "avp/device.h"
#include "dma/dma_regs.h"

enum { kRead, kWrite, kDmaIn, kDmaOut, kDmaInNoWait };

static volatile uint64_t* dma(unsigned reg) { return (volatile uint64_t*)(uintptr_t)(AVP_DMA_BASE + reg); }

static uint64_t dma_start(uint64_t src, uint64_t dst, uint64_t bytes) {
  *dma(AVP_DMASRCADDR) = src;
  *dma(AVP_DMADSTADDR) = dst;
  *dma(AVP_DMAXFERSIZE0) = bytes;
  *dma(AVP_DMACTRL) = AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1);
  return *dma(AVP_DMASTARTSEQ);
}

AVP_KERNEL void kernel_main(uint64_t instance, uint64_t mode, uint64_t addr, uint64_t value, uint64_t out) {
  volatile uint64_t* result = (volatile uint64_t*)(uintptr_t)out;
  volatile uint64_t* p = (volatile uint64_t*)(uintptr_t)addr;
  (void)instance;
  switch (mode) {
    case kRead: result[0] = *p; break;
    case kWrite: *p = value; break;
    case kDmaIn: *dma(AVP_DMADONESEQ) = dma_start(addr, out, 8); break;  // waits; a failed transfer is an access fault
    case kDmaOut:  // moves `value` from the result block to addr
      result[0] = value;
      *dma(AVP_DMADONESEQ) = dma_start(out, addr, 8);
      break;
    case kDmaInNoWait: dma_start(addr, out, 8); break;  // returns while the transfer is still on its way
    default: break;
  }
  result[1] = 1;
}
