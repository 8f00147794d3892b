// A kernel of one RISC-V `ret` and its kernel descriptor in device DRAM, for
// the AQL tests and benchmark (no cross compiler needed). `code` replaces the
// `ret` to make a kernel that faults.
#pragma once
#include <cstdint>

#include "accel_device.h"
#include "aql/aql_packets.h"

namespace avp {

struct AqlEmptyKernel {
  static constexpr uint32_t kRet = 0x00008067;  // jalr x0, 0(ra)
  uint64_t descriptor = 0;                      // kernel_object; the code follows at +64

  // `kernarg_ptr`: the descriptor enables the kernarg segment pointer (the
  // processor then checks kernarg_address).
  bool prepare(AccelDevice& dev, bool kernarg_ptr = false, uint32_t code = kRet) {
    descriptor = dev.alloc(128, 64);
    aql::kernel_descriptor_t kd{};
    kd.max_flat_workgroup_size = 1024;
    if (kernarg_ptr) kd.kernel_code_properties = aql::kEnableKernargSegmentPtr;
    kd.kernel_code_entry_byte_offset = 64;
    return descriptor && dev.write(descriptor, &kd, sizeof kd) && dev.write(descriptor + 64, &code, 4);
  }
  // A 1-dimensional dispatch of `grid` work-items in work-groups of `workgroup`.
  aql::hsa_kernel_dispatch_packet_t packet(uint64_t completion_signal, uint32_t grid = 1, uint16_t workgroup = 1) const {
    aql::hsa_kernel_dispatch_packet_t p{};
    p.header = aql::kKernelDispatch;
    p.setup = 1;
    p.workgroup_size_x = workgroup;
    p.workgroup_size_y = p.workgroup_size_z = 1;
    p.grid_size_x = grid;
    p.grid_size_y = p.grid_size_z = 1;
    p.kernel_object = descriptor;
    p.completion_signal = completion_signal;
    return p;
  }
};

}  // namespace avp
