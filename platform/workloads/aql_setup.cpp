#include "aql_setup.h"

#include <iterator>

#include "accel_device.h"

namespace avp {
namespace {

struct VecAddArgs {  // struct vecadd_args of aql_kernels.c
  uint64_t a, b, out;
  uint32_t n, workgroup_size;
};
struct AffineArgs {  // struct affine_args
  uint64_t in, out;
  int32_t mul, add;
  uint32_t n, workgroup_size;
};

aql::hsa_kernel_dispatch_packet_t packet_1d(const KernelInfo& k, uint32_t n, uint32_t workgroup, uint64_t kernarg,
                                            uint64_t signal) {
  return HsaRuntime::kernel_packet(k, 1, {n, 1, 1}, {static_cast<uint16_t>(workgroup), 1, 1}, kernarg, signal);
}

}  // namespace

bool AqlVecAdd::prepare(AccelDevice& dev, HsaRuntime& rt, uint32_t elements, uint32_t workgroup_size) {
  n = elements;
  workgroup = workgroup_size;
  kernel = rt.find_kernel("vecadd");
  if (!kernel) return false;
  va.resize(n);
  vb.resize(n);
  for (uint32_t i = 0; i < n; ++i) va[i] = static_cast<int32_t>(i * 7), vb[i] = static_cast<int32_t>(100000 - i);
  a = dev.alloc(4ull * n);
  b = dev.alloc(4ull * n);
  out = dev.alloc(4ull * n);
  const VecAddArgs args{a, b, out, n, workgroup};
  kernarg = rt.alloc_kernarg(dev, *kernel, &args, sizeof args);
  return a && b && out && kernarg && dev.write(a, va.data(), 4ull * n) && dev.write(b, vb.data(), 4ull * n);
}

std::string AqlVecAdd::kernel_mismatch(const KernelInfo* k) {
  if (!k) return "no kernel named 'vecadd'";
  struct Expected {
    const char* kind;
    uint32_t size, offset;
  };
  static const Expected expected[] = {{"GlobalBuffer", 8, 0}, {"GlobalBuffer", 8, 8}, {"GlobalBuffer", 8, 16},
                                      {"ByValue", 4, 24}, {"ByValue", 4, 28}};
  bool same = k->kernarg_size == sizeof(VecAddArgs) && k->args.size() == std::size(expected);
  for (size_t i = 0; same && i < k->args.size(); ++i)
    same = k->args[i].value_kind == expected[i].kind && k->args[i].size == expected[i].size &&
           k->args[i].offset == expected[i].offset;
  if (same) return "";
  return "kernel 'vecadd' takes " + std::to_string(k->args.size()) + " arguments in " + std::to_string(k->kernarg_size) +
         " bytes, not (a, b, out: GlobalBuffer; n, workgroup_size: U32) in 32 bytes";
}

aql::hsa_kernel_dispatch_packet_t AqlVecAdd::packet(uint64_t completion_signal) const {
  return packet_1d(*kernel, n, workgroup, kernarg, completion_signal);
}

bool AqlVecAdd::check(AccelDevice& dev) const {
  std::vector<int32_t> r(n);
  if (!dev.read(out, r.data(), 4ull * n)) return false;
  for (uint32_t i = 0; i < n; ++i)
    if (r[i] != va[i] + vb[i]) return false;
  return true;
}

bool AqlChain::prepare(AccelDevice& dev, HsaRuntime& rt, uint32_t elements, uint32_t workgroup_size, unsigned stages) {
  n = elements;
  workgroup = workgroup_size;
  kernel = rt.find_kernel("affine");
  if (!kernel) return false;
  input.resize(n);
  for (uint32_t i = 0; i < n; ++i) input[i] = static_cast<int32_t>(i);
  const std::vector<int32_t> poison(n, 0x7eadbeef);
  for (unsigned k = 0; k <= stages; ++k) {
    buffers.push_back(dev.alloc(4ull * n));
    if (!buffers.back() || !dev.write(buffers.back(), k ? poison.data() : input.data(), 4ull * n)) return false;
  }
  for (unsigned k = 0; k < stages; ++k) {
    const AffineArgs args{buffers[k], buffers[k + 1], mul(k), add(k), n, workgroup};
    kernargs.push_back(rt.alloc_kernarg(dev, *kernel, &args, sizeof args));
    if (!kernargs.back()) return false;
    signals.push_back(rt.create_signal(1));
  }
  return true;
}

void AqlChain::submit(HsaRuntime& rt, HsaRuntime::Queue& even, HsaRuntime::Queue& odd) {
  for (unsigned k = 0; k < signals.size(); ++k) {
    HsaRuntime::Queue& q = k % 2 ? odd : even;
    if (k) rt.barrier(q, true, {signals[k - 1], 0, 0, 0, 0}, 0);
    rt.dispatch(q, packet_1d(*kernel, n, workgroup, kernargs[k], signals[k]));
  }
}

int AqlChain::first_wrong_stage(AccelDevice& dev) const {
  std::vector<int32_t> expect = input, r(n);
  for (unsigned k = 0; k < signals.size(); ++k) {
    for (int32_t& v : expect) v = static_cast<int32_t>(static_cast<uint32_t>(v) * static_cast<uint32_t>(mul(k)) + static_cast<uint32_t>(add(k)));
    if (!dev.read(buffers[k + 1], r.data(), 4ull * n) || r != expect) return static_cast<int>(k);
  }
  return -1;
}

}  // namespace avp
