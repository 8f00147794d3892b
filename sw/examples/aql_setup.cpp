#include "aql_setup.h"

#include "accel_device.h"
#include "harts/elf_loader.h"

namespace avp {

bool AqlVecAdd::prepare(AccelDevice& dev, const std::string& elf, uint32_t elements, uint32_t workgroup_size) {
  n = elements;
  workgroup = workgroup_size;
  ElfImage img;
  try {
    img = load_elf(elf, [&](uint64_t a, const void* d, uint64_t len) { return dev.write(a, d, len); });
  } catch (const ElfError&) {
    return false;
  }
  descriptor = dev.alloc(64, 64);
  aql::kernel_descriptor_t kd{};
  kd.kernarg_size = 32;
  kd.kernel_code_entry_byte_offset = static_cast<int64_t>(img.entry - descriptor);
  kd.kernel_code_properties = aql::kEnableKernargSegmentPtr;
  kd.compute_pgm_rsrc2 = aql::kRsrc2WorkgroupIdX;
  va.resize(n);
  vb.resize(n);
  for (uint32_t i = 0; i < n; ++i) va[i] = static_cast<int32_t>(i * 7), vb[i] = static_cast<int32_t>(100000 - i);
  a = dev.alloc(4ull * n);
  b = dev.alloc(4ull * n);
  out = dev.alloc(4ull * n);
  kernarg = dev.alloc(32, 16);
  const uint64_t args[4] = {a, b, out, uint64_t{n} | uint64_t{workgroup} << 32};
  return descriptor && kernarg && dev.write(descriptor, &kd, sizeof kd) && dev.write(a, va.data(), 4ull * n) &&
         dev.write(b, vb.data(), 4ull * n) && dev.write(kernarg, args, sizeof args);
}

aql::hsa_kernel_dispatch_packet_t AqlVecAdd::packet(uint64_t completion_signal) const {
  aql::hsa_kernel_dispatch_packet_t p{};
  p.header = aql::kKernelDispatch | aql::kHeaderBarrier;
  p.setup = 1;
  p.workgroup_size_x = static_cast<uint16_t>(workgroup);
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = n;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = descriptor;
  p.kernarg_address = kernarg;
  p.completion_signal = completion_signal;
  return p;
}

bool AqlVecAdd::check(AccelDevice& dev) const {
  std::vector<int32_t> r(n);
  if (!dev.read(out, r.data(), 4ull * n)) return false;
  for (uint32_t i = 0; i < n; ++i)
    if (r[i] != va[i] + vb[i]) return false;
  return true;
}

}  // namespace avp
