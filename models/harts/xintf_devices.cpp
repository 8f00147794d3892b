// The built-in extension devices behind the xintf hub (uuids in xintf.h):
// hart information, a barrier across the harts of a core, and DMA through the
// hart's own DMA register set (platform.md section 4) without MMIO in code.
#include "harts/hart_cluster.h"

namespace avp {

namespace {
constexpr uint64_t kDmaCtrl = 0x00, kDmaStartSeq = 0x08, kDmaDoneSeq = 0x10, kDmaSrc = 0x18, kDmaDst = 0x20,
                   kDmaSize0 = 0x28;
constexpr uint64_t kDmaStart1D = 0x1 | (1u << 4);  // START, one dimension
}  // namespace

uint64_t HartCluster::xintf_device(Hart& h, const XintfRoute& r, unsigned k, uint64_t rs1, uint64_t rs2) {
  switch (r.device) {
    case XintfDevice::HartInfo:
      switch (k) {
        case 0: return h.id();
        case 1: return h.core();
        case 2: return harts_per_core_;
        case 3: return cores_;
        case 4:  // inter-processor interrupt: machine software interrupt pending on hart rs2
          if (rs2 >= harts_.size()) throw TrapException{rv::kIllegalInsn, 0};
          harts_[rs2]->set_interrupt(rv::kMSI, true);
          return 0;
        case 5:  // acknowledge: clear this hart's machine software interrupt
          h.set_interrupt(rv::kMSI, false);
          return 0;
        default: throw TrapException{rv::kIllegalInsn, 0};
      }
    case XintfDevice::Barrier:
      if (k != 0) throw TrapException{rv::kIllegalInsn, 0};
      meet(h, (1u << 31) | h.core(), [&](const Hart& o) { return o.core() == h.core(); });
      return 0;
    case XintfDevice::Dma: {
      DmaState& d = dma_[h.id()];
      const uint64_t base = dma_base_;
      switch (k) {
        case 0: d.src = rs2; return 0;
        case 1: d.dst = rs2; return 0;
        case 2: {
          uint64_t v = d.src;
          h.transport(tlm::TLM_WRITE_COMMAND, base + kDmaSrc, &v, 8, rv::kStoreAccessFault);
          v = d.dst;
          h.transport(tlm::TLM_WRITE_COMMAND, base + kDmaDst, &v, 8, rv::kStoreAccessFault);
          v = rs2;
          h.transport(tlm::TLM_WRITE_COMMAND, base + kDmaSize0, &v, 8, rv::kStoreAccessFault);
          v = kDmaStart1D;
          h.transport(tlm::TLM_WRITE_COMMAND, base + kDmaCtrl, &v, 8, rv::kStoreAccessFault);
          h.transport(tlm::TLM_READ_COMMAND, base + kDmaStartSeq, &v, 8, rv::kLoadAccessFault);
          return v;
        }
        case 3: {
          uint64_t v = rs2;
          h.transport(tlm::TLM_WRITE_COMMAND, base + kDmaDoneSeq, &v, 8, rv::kStoreAccessFault);
          return 0;
        }
        default: throw TrapException{rv::kIllegalInsn, 0};
      }
    }
  }
  throw TrapException{rv::kIllegalInsn, 0};
}

}  // namespace avp
