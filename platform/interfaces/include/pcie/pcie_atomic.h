// 64-bit atomics on host memory (PCIe AtomicOp requests: FetchAdd, CAS), an
// extension a device unit puts on a device-initiated transaction that the
// endpoint carries to host memory.
#pragma once
#include <cstdint>

#include <tlm>

namespace avp {

struct PcieAtomicExtension : tlm::tlm_extension<PcieAtomicExtension> {
  enum Op { FetchAdd, CompareSwap } op = FetchAdd;
  uint64_t operand = 0, compare = 0;
  tlm::tlm_extension_base* clone() const override { return new PcieAtomicExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const PcieAtomicExtension&>(o); }
};

}  // namespace avp
