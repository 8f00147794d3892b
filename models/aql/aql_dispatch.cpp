// Kernel dispatch: checks, work-group split and launch on the harts.
#include <algorithm>
#include <cstring>

#include "aql/aql_processor.h"

namespace avp {

using namespace aql;

QueueError AqlProcessor::dispatch(unsigned q, uint64_t id, uint64_t packet_addr, const hsa_kernel_dispatch_packet_t& p) {
  const unsigned dims = p.setup & 3;
  const uint32_t grid[3] = {p.grid_size_x, dims > 1 ? p.grid_size_y : 1, dims > 2 ? p.grid_size_z : 1};
  const uint32_t wg[3] = {p.workgroup_size_x, dims > 1 ? p.workgroup_size_y : 1u, dims > 2 ? p.workgroup_size_z : 1u};
  auto failed = [&](QueueError e, const std::string& why) {
    fail(q, e, "packet " + std::to_string(id) + ": " + why);
    return e;
  };
  if (dims == 0) return failed(kErrDimensions, "setup gives 0 dimensions");
  for (int d = 0; d < 3; ++d)
    if (grid[d] == 0 || wg[d] == 0) return failed(kErrDimensions, "a grid or work-group size is 0");
  if (p.kernel_object & 63) return failed(kErrKernelObject, "kernel_object is not 64-byte aligned");
  kernel_descriptor_t kd{};
  if (!device_read(p.kernel_object, &kd, sizeof kd)) return failed(kErrKernelObject, "kernel_object is not readable");
  if (uint64_t{p.group_segment_size} + kd.group_segment_fixed_size > max_group_segment.get())
    return failed(kErrGroupSegment, "group segment of " + std::to_string(p.group_segment_size + kd.group_segment_fixed_size) +
                                        " bytes exceeds aql.max_group_segment");
  if (uint64_t{p.private_segment_size} + kd.private_segment_fixed_size > max_private_segment.get())
    return failed(kErrPrivateSegment, "private segment exceeds aql.max_private_segment");

  // Initial state in a0..a7: the enabled inputs densely, in the seed's SGPR order.
  std::vector<uint64_t> common;
  const uint16_t props = kd.kernel_code_properties;
  if (props & kEnablePrivateSegmentBuffer) common.push_back(0);  // private memory is the hart's stack: no buffer
  if (props & kEnableDispatchPtr) common.push_back(host_window.get() + packet_addr);
  if (props & kEnableQueuePtr) common.push_back(host_window.get() + q_[q].amd_queue);
  if (props & kEnableKernargSegmentPtr) common.push_back(p.kernarg_address);
  if (props & kEnableDispatchId) common.push_back(id);
  if (props & kEnableFlatScratchInit) common.push_back(0);
  if (props & kEnablePrivateSegmentSize) common.push_back(p.private_segment_size + kd.private_segment_fixed_size);
  const bool wg_id[3] = {bool(kd.compute_pgm_rsrc2 & kRsrc2WorkgroupIdX), bool(kd.compute_pgm_rsrc2 & kRsrc2WorkgroupIdY),
                         bool(kd.compute_pgm_rsrc2 & kRsrc2WorkgroupIdZ)};
  if (common.size() + wg_id[0] + wg_id[1] + wg_id[2] > 8) return failed(kErrKernelObject, "more than 8 initial registers enabled");

  const uint32_t groups[3] = {(grid[0] + wg[0] - 1) / wg[0], (grid[1] + wg[1] - 1) / wg[1], (grid[2] + wg[2] - 1) / wg[2]};
  const uint64_t total = uint64_t{groups[0]} * groups[1] * groups[2];
  const unsigned hpc = harts_.num_harts() / harts_.num_cores();
  const uint64_t slice = tcdm_per_core_ / hpc;
  const uint32_t launch = ++launch_seq_;
  uint64_t next = 0;
  unsigned running = 0;
  HartExit fault;
  bool faulted = false;
  sc_core::sc_event finished;
  sc_core::wait(delay_);
  delay_ = sc_core::SC_ZERO_TIME;
  // Each work-group runs on one hart, as harts become free.
  while ((next < total && !faulted) || running) {
    for (unsigned h = 0; h < harts_.num_harts() && next < total && !faulted; ++h) {
      if (!harts_.hart_idle(h)) continue;
      HartLaunch l;
      l.pc = p.kernel_object + kd.kernel_code_entry_byte_offset;
      l.ra = kReturnAddress;
      l.sp = tcdm_base_ + (h / hpc) * tcdm_per_core_ + (h % hpc + 1) * slice;
      l.launch_id = launch;
      unsigned a = 0;
      for (uint64_t v : common) l.a[a++] = v;
      const uint64_t ids[3] = {next % groups[0], (next / groups[0]) % groups[1], next / (uint64_t{groups[0]} * groups[1])};
      for (int d = 0; d < 3; ++d)
        if (wg_id[d]) l.a[a++] = ids[d];
      ++next;
      ++running;
      workgroups_.inc();
      harts_.launch(h, l, [&](const HartExit& e) {
        --running;
        finished.notify(sc_core::SC_ZERO_TIME);
        if (e.kind != HartExitKind::Returned && !(e.kind == HartExitKind::Exit && e.code == 0) && !faulted) {
          faulted = true;
          fault = e;
        }
      });
    }
    if ((next < total && !faulted) || running) sc_core::wait(finished | harts_.hart_idle_event());
  }
  if (faulted) return failed(kErrKernelFault, "work-group fault: " + fault.describe());
  return kErrNone;
}

}  // namespace avp
