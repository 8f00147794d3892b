// Device-side set-up shared by the AQL examples and tests: inputs, kernel
// arguments and dispatch packets for the kernels of aql_kernels.co
// (sw/device/examples/aql_kernels.c), which the runtime must have loaded.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aql/aql_packets.h"
#include "hsa_runtime.h"

namespace avp {

class AccelDevice;

// out = a + b with the kernel "vecadd", one work-group per `workgroup` elements.
struct AqlVecAdd {
  uint64_t kernarg = 0, a = 0, b = 0, out = 0;
  uint32_t n = 0, workgroup = 0;
  const KernelInfo* kernel = nullptr;
  std::vector<int32_t> va, vb;
  bool prepare(AccelDevice& dev, HsaRuntime& rt, uint32_t elements, uint32_t workgroup_size);
  aql::hsa_kernel_dispatch_packet_t packet(uint64_t completion_signal) const;
  bool check(AccelDevice& dev) const;
  // Why the metadata of `k` (null: no such kernel) is not vecadd's argument
  // layout (a, b, out: GlobalBuffer at 0, 8, 16; n, workgroup_size: U32 at 24, 28),
  // or "" when it is.
  static std::string kernel_mismatch(const KernelInfo* k);
};

// A chain of dependent stages buf[k + 1] = buf[k] * mul_k + add_k (kernel
// "affine"). Stage k runs on queue k % 2 behind a barrier-AND on the completion
// signal of stage k - 1, so only the barriers order the stages; the buffers
// after the input start poisoned, so a stage that ran early leaves wrong values.
struct AqlChain {
  uint32_t n = 0, workgroup = 0;
  std::vector<uint64_t> buffers, kernargs, signals;  // stages + 1 buffers; per stage
  std::vector<int32_t> input;
  const KernelInfo* kernel = nullptr;
  static int32_t mul(unsigned stage) { return 2 + static_cast<int32_t>(stage % 2); }
  static int32_t add(unsigned stage) { return static_cast<int32_t>(stage) + 1; }
  bool prepare(AccelDevice& dev, HsaRuntime& rt, uint32_t elements, uint32_t workgroup_size, unsigned stages);
  void submit(HsaRuntime& rt, HsaRuntime::Queue& even, HsaRuntime::Queue& odd);
  // The first stage whose buffer is wrong, or -1 when all are right.
  int first_wrong_stage(AccelDevice& dev) const;
};

}  // namespace avp
