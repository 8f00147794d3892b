// Kernel dispatch: checks, work-group split and launch on the harts.
#include <algorithm>
#include <cstring>

#include "aql/aql_processor.h"
#include "harts/kernel_dispatch.h"

namespace avp {

using namespace aql;

namespace {

// The queue error of a work-group that did not return (RISC-V trap causes).
QueueError exit_error(const HartExit& e) {
  if (e.kind == HartExitKind::Trap) {
    switch (e.cause) {
      case 2: return kErrIllegalInstruction;
      case 0: case 1: case 4: case 5: case 6: case 7: case 12: case 13: case 15: return kErrMemory;
      default: break;
    }
  }
  return kErrKernelFault;
}

}  // namespace

// The HSA rules for a kernel-dispatch packet, checked in this order; `kd` is the descriptor read.
QueueError AqlProcessor::check_dispatch(const hsa_kernel_dispatch_packet_t& p, kernel_descriptor_t& kd, std::string& why) {
  const unsigned dims = p.setup;  // [1:0] dimensions, [15:2] reserved
  if (dims < 1 || dims > 3) {
    why = "setup " + std::to_string(p.setup) + " does not give 1 to 3 dimensions";
    return kErrDimensions;
  }
  const uint32_t grid[3] = {p.grid_size_x, p.grid_size_y, p.grid_size_z};
  const uint32_t wg[3] = {p.workgroup_size_x, p.workgroup_size_y, p.workgroup_size_z};
  for (unsigned d = 0; d < 3; ++d) {
    const char axis = static_cast<char>('x' + d);
    if (d >= dims && (grid[d] != 1 || wg[d] != 1)) {
      why = std::string("unused dimension ") + axis + " has a grid or work-group size other than 1";
      return kErrDimensions;
    }
    if (grid[d] == 0 || wg[d] == 0) {
      why = std::string("grid or work-group size ") + axis + " is 0";
      return kErrDimensions;
    }
    if (wg[d] > grid[d]) {
      why = std::string("work-group size ") + axis + " exceeds the grid size";
      return kErrDimensions;
    }
  }
  if (uint64_t{wg[0]} * wg[1] * wg[2] > max_workgroup_size.get()) {
    why = "work-group of " + std::to_string(uint64_t{wg[0]} * wg[1] * wg[2]) + " work-items exceeds aql.max_workgroup_size";
    return kErrWorkgroupSize;
  }
  if (!p.kernel_object || (p.kernel_object & 63)) {
    why = "kernel_object is null or not 64-byte aligned";
    return kErrKernelObject;
  }
  if (!device_read(p.kernel_object, &kd, sizeof kd)) {
    why = "kernel_object is not readable";
    return kErrKernelObject;
  }
  static const uint8_t zeros[24] = {};
  if ((kd.code_flags & kKdCodeFlagsReserved) || (kd.kernel_code_properties & kKdPropertiesReserved) ||
      std::memcmp(kd.reserved1, zeros, sizeof kd.reserved1) || std::memcmp(kd.reserved2, zeros, sizeof kd.reserved2)) {
    why = "the kernel descriptor has reserved bits set";
    return kErrKernelObject;
  }
  if (uint64_t{wg[0]} * wg[1] * wg[2] > kd.max_flat_workgroup_size) {
    why = "work-group of " + std::to_string(uint64_t{wg[0]} * wg[1] * wg[2]) +
          " work-items exceeds the kernel's max_flat_workgroup_size of " + std::to_string(kd.max_flat_workgroup_size);
    return kErrWorkgroupSize;
  }
  const uint64_t group = uint64_t{p.group_segment_size} + kd.group_segment_fixed_size;
  if (group > max_group_segment.get()) {
    why = "group segment of " + std::to_string(group) + " bytes exceeds aql.max_group_segment";
    return kErrGroupSegment;
  }
  const uint64_t priv = uint64_t{p.private_segment_size} + kd.private_segment_fixed_size;
  if (priv > max_private_segment.get()) {
    why = "private segment of " + std::to_string(priv) + " bytes exceeds aql.max_private_segment";
    return kErrPrivateSegment;
  }
  // The kernarg size is in the code object's metadata, which the host runtime
  // checks; the processor checks what it can see: alignment and the first byte.
  if (kd.kernel_code_properties & kEnableKernargSegmentPtr) {
    uint8_t b;
    if (p.kernarg_address & 15) {
      why = "kernarg_address is not 16-byte aligned";
      return kErrInvalidPacket;
    }
    if (!device_read(p.kernarg_address, &b, 1)) {
      why = "the kernarg bytes at kernarg_address are not readable";
      return kErrMemory;
    }
  }
  return kErrNone;
}

QueueError AqlProcessor::dispatch(unsigned q, uint64_t id, uint64_t packet_addr, const hsa_kernel_dispatch_packet_t& p) {
  auto failed = [&](QueueError e, const std::string& why) {
    fail(q, e, "packet " + std::to_string(id) + ": " + why);
    return e;
  };
  kernel_descriptor_t kd{};
  std::string why;
  if (const QueueError e = check_dispatch(p, kd, why)) return failed(e, why);

  const uint32_t grid[3] = {p.grid_size_x, p.grid_size_y, p.grid_size_z};
  const uint32_t wg[3] = {p.workgroup_size_x, p.workgroup_size_y, p.workgroup_size_z};
  uint64_t groups[3], total = 1;
  for (int d = 0; d < 3; ++d) {
    groups[d] = (uint64_t{grid[d]} + wg[d] - 1) / wg[d];
    if (__builtin_mul_overflow(total, groups[d], &total)) return failed(kErrDimensions, "more than 2^64 work-groups");
  }

  // Initial state in a0..a7: the enabled inputs densely, in the seed's SGPR order.
  std::vector<uint64_t> common;
  const uint16_t props = kd.kernel_code_properties;
  if (props & kEnablePrivateSegmentBuffer) common.push_back(0);  // private memory is the hart's stack: no buffer
  if (props & kEnableDispatchPtr) common.push_back(map_.host_window + packet_addr);
  if (props & kEnableQueuePtr) common.push_back(map_.host_window + q_[q].amd_queue);
  if (props & kEnableKernargSegmentPtr) common.push_back(p.kernarg_address);
  if (props & kEnableDispatchId) common.push_back(id);
  if (props & kEnableFlatScratchInit) common.push_back(0);
  if (props & kEnablePrivateSegmentSize) common.push_back(p.private_segment_size + kd.private_segment_fixed_size);
  // The grid's work-group counts; Y and Z, as the seed says, only while
  // fewer than 16 SGPRs come before them (the inputs above take 4, 2 or 1).
  static constexpr unsigned kSgprs[] = {4, 2, 2, 2, 2, 2, 1};
  unsigned sgprs = 0;
  for (unsigned bit = 0; bit < 7; ++bit) sgprs += (props >> bit & 1) * kSgprs[bit];
  for (unsigned d = 0; d < 3; ++d) {
    if (!(props & (kEnableGridWorkgroupCountX << d)) || (d > 0 && sgprs >= 16)) continue;
    common.push_back(groups[d]);
    ++sgprs;
  }
  const bool wg_id[3] = {bool(kd.compute_pgm_rsrc2 & kRsrc2WorkgroupIdX), bool(kd.compute_pgm_rsrc2 & kRsrc2WorkgroupIdY),
                         bool(kd.compute_pgm_rsrc2 & kRsrc2WorkgroupIdZ)};
  if (common.size() + wg_id[0] + wg_id[1] + wg_id[2] > 8) return failed(kErrKernelObject, "more than 8 initial registers enabled");

  const unsigned hpc = harts_.num_harts() / harts_.num_cores();
  const uint64_t slice = map_.tcdm_per_core / hpc;
  const uint32_t launch = ++launch_seq_;
  HartExit fault;
  bool faulted = false;
  acquire_fence(p.header);
  time_.sync();
  // Each work-group runs on one hart, as harts become free.
  KernelInstances k;
  k.failed = [&] { return faulted; };
  k.prepare = [&](uint64_t i, unsigned h, HartLaunch& l, LocalTime& setup) {
    setup.add(launch_latency.get());  // writing the work-group's initial state
    l.pc = p.kernel_object + kd.kernel_code_entry_byte_offset;
    l.ra = map_.return_address;
    l.sp = map_.tcdm_base + (h / hpc) * map_.tcdm_per_core + (h % hpc + 1) * slice;
    l.launch_id = launch;
    unsigned a = 0;
    for (uint64_t v : common) l.a[a++] = v;
    const uint64_t ids[3] = {i % groups[0], (i / groups[0]) % groups[1], i / (groups[0] * groups[1])};
    for (int d = 0; d < 3; ++d)
      if (wg_id[d]) l.a[a++] = ids[d];
    return true;
  };
  k.started = [&](uint64_t i, unsigned) {
    if (i == 0) {
      last_.first_launch = sc_core::sc_time_stamp();
      fetch_to_launch_.sample((last_.first_launch - last_.fetched).to_seconds() * 1e9);
    }
    workgroups_.inc();
  };
  k.ended = [&](uint64_t, unsigned, const HartExit& e) {
    last_.last_end = sc_core::sc_time_stamp();
    if (e.kind != HartExitKind::Returned && !(e.kind == HartExitKind::Exit && e.code == 0) && !faulted) {
      faulted = true;
      fault = e;
    }
  };
  dispatch_instances(harts_, harts_.num_harts(), total, k);
  if (faulted) return failed(exit_error(fault), "work-group fault: " + fault.describe());
  release_fence(p.header);
  return kErrNone;
}

}  // namespace avp
