#include "harts/xintf_devices.h"

#include "harts/hart_cluster.h"

namespace avp {

uint64_t XintfDevices::call(Hart& h, const XintfRoute& r, unsigned k, uint64_t rs1, uint64_t rs2) {
  switch (r.device) {
    case XintfDevice::HartInfo: return hart_info(h, k, rs2);
    case XintfDevice::Barrier:
      if (k != 0) throw TrapException{rv::kIllegalInsn, 0};
      cluster_.meet(h, (1u << 31) | h.core(), [&](const Hart& o) { return o.core() == h.core(); });
      return 0;
    case XintfDevice::Dma: return dma(h, k, rs2);
  }
  throw TrapException{rv::kIllegalInsn, 0};
}

uint64_t XintfDevices::hart_info(Hart& h, unsigned k, uint64_t rs2) {
  switch (k) {
    case 0: return h.id();
    case 1: return h.core();
    case 2: return cluster_.num_harts() / cluster_.num_cores();
    case 3: return cluster_.num_cores();
    case 4:  // inter-processor interrupt: machine software interrupt pending on hart rs2
      if (rs2 >= cluster_.num_harts()) throw TrapException{rv::kIllegalInsn, 0};
      cluster_.hart(static_cast<unsigned>(rs2)).set_interrupt(rv::kMSI, true);
      return 0;
    case 5:  // acknowledge: clear this hart's machine software interrupt
      h.set_interrupt(rv::kMSI, false);
      return 0;
    default: throw TrapException{rv::kIllegalInsn, 0};
  }
}

uint64_t XintfDevices::dma(Hart& h, unsigned k, uint64_t rs2) {
  if (dma_.size() <= h.id()) dma_.resize(h.id() + 1);
  DmaState& d = dma_[h.id()];
  auto write = [&](uint64_t reg, uint64_t v) { h.transport(tlm::TLM_WRITE_COMMAND, dma_base_ + reg, &v, 8, rv::kStoreAccessFault); };
  switch (k) {
    case 0: d.src = rs2; return 0;
    case 1: d.dst = rs2; return 0;
    case 2: {  // a one-dimensional transfer of rs2 bytes; its id
      write(AVP_DMASRCADDR, d.src);
      write(AVP_DMADSTADDR, d.dst);
      write(AVP_DMAXFERSIZE0, rs2);
      write(AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1));
      uint64_t id = 0;
      h.transport(tlm::TLM_READ_COMMAND, dma_base_ + AVP_DMASTARTSEQ, &id, 8, rv::kLoadAccessFault);
      return id;
    }
    case 3:  // wait until every transfer <= rs2 is done
      write(AVP_DMADONESEQ, rs2);
      return 0;
    default: throw TrapException{rv::kIllegalInsn, 0};
  }
}

}  // namespace avp
