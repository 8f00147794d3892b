// How the endpoint reaches host memory for work of one Acceldev context: a
// device access tagged with a context (base/unit.h) is translated by the
// front end that owns contexts (models/acceldev: its IOMMU) into pieces of
// host physical memory. The endpoint only carries the pieces over the link.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "base/unit.h"

namespace avp {

struct HostPiece {
  uint64_t pa;      // host physical address
  unsigned offset;  // into the access's data
  unsigned len;
};

// False on a fault. `delay` null: a debug access, which fails without side effects.
using ContextTranslator = std::function<bool(uint32_t ctx, UnitId unit, uint64_t addr, unsigned len, bool write,
                                             std::vector<HostPiece>& out, sc_core::sc_time* delay)>;

}  // namespace avp
