// The built-in extension devices behind the xintf hub (uuids in xintf.h):
// hart information and inter-processor interrupts, a barrier across the harts
// of a core, and DMA through the hart's own DMA register set (platform.md
// section 4) without MMIO in code. A call that the device does not define
// throws an illegal-instruction trap.
#pragma once
#include <cstdint>
#include <vector>

#include "dma/dma_regs.h"
#include "harts/xintf_map.h"

namespace avp {

class Hart;
class HartCluster;

class XintfDevices {
 public:
  explicit XintfDevices(HartCluster& cluster) : cluster_(cluster) {}
  // The DMA register block the DMA device programs (from the address map, bus.dma.base).
  void set_dma_base(uint64_t base) { dma_base_ = base; }
  // Call k of device `r` by hart `h`; its result (rd).
  uint64_t call(Hart& h, const XintfRoute& r, unsigned k, uint64_t rs1, uint64_t rs2);

 private:
  uint64_t hart_info(Hart& h, unsigned k, uint64_t rs2);
  uint64_t dma(Hart& h, unsigned k, uint64_t rs2);

  HartCluster& cluster_;
  uint64_t dma_base_ = AVP_DMA_BASE;
  struct DmaState {
    uint64_t src = 0, dst = 0;
  };
  std::vector<DmaState> dma_;  // per hart, grown on first use
};

}  // namespace avp
