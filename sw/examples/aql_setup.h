// Device-side set-up shared by the AQL examples and tests: the vector-add
// kernel in DRAM, its kernel descriptor and arguments, and the dispatch packet.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aql/aql_packets.h"

namespace avp {

class AccelDevice;

struct AqlVecAdd {
  uint64_t descriptor = 0, kernarg = 0, a = 0, b = 0, out = 0;
  uint32_t n = 0, workgroup = 0;
  std::vector<int32_t> va, vb;
  // Loads the kernel ELF (linked for DRAM), writes the descriptor (64-byte
  // aligned; a0 = kernarg pointer, a1 = work-group id x), inputs and arguments.
  bool prepare(AccelDevice& dev, const std::string& elf, uint32_t elements, uint32_t workgroup_size);
  aql::hsa_kernel_dispatch_packet_t packet(uint64_t completion_signal) const;
  bool check(AccelDevice& dev) const;
};

}  // namespace avp
