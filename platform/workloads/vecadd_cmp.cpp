// Workload "vecadd" (the default scenario): the whole host-to-device path.
// The host opens the device over PCIe, loads the kernel into device DRAM
// through BAR2, copies the inputs, submits a command buffer through BAR0
// (window onto the kernel, SYNC_CACHE, entry/return registers, RUN_INSTANCES,
// SYNC_CACHE, FINISH), takes the completion interrupt, reads the results back
// and checks them.
#include <cstdio>
#include <vector>

#include "accel_device.h"
#include "kernel_loader.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {

static int vecadd(Platform& p, const WorkloadArgs& args) {
  const unsigned n = args.args.empty() ? 1024 : static_cast<unsigned>(std::stoul(args.args[0]));
  AccelDevice dev(p.host);
  if (!dev.open()) {
    std::fprintf(stderr, "vecadd: %s\n", dev.error().c_str());
    return 2;
  }
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  LoadedKernel k;
  if (!load_kernel_into(dev, AVP_KERNEL_ADD_ELF, "vecadd", k)) return 2;
  std::vector<int32_t> a(n), b(n), out(n, -1);
  for (unsigned i = 0; i < n; ++i) a[i] = static_cast<int32_t>(3 * i + 1), b[i] = static_cast<int32_t>(1000 - i);
  const uint64_t a_at = dev.alloc(4 * n), b_at = dev.alloc(4 * n), out_at = dev.alloc(4 * n);
  if (!a_at || !b_at || !out_at || !dev.write(a_at, a.data(), 4 * n) || !dev.write(b_at, b.data(), 4 * n)) {
    std::fprintf(stderr, "vecadd: cannot place the inputs in device memory\n");
    return 2;
  }
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  CommandBuffer cb;
  append_kernel_setup(cb, k)
      .run_instances(0, n, {a_at, b_at, out_at})
      .sync_cache(AVP_CMP_SYNC_DCACHE)
      .finish();
  if (const int rc = execute_and_wait(dev, cb, "vecadd")) return rc;
  const sc_core::sc_time t2 = sc_core::sc_time_stamp();
  if (!dev.read(out_at, out.data(), 4 * n)) return 2;
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];
  std::printf("vecadd: %u elements on %u harts: %s\n", n, dev.info().cores * dev.info().harts_per_core,
              bad ? "MISMATCH" : "results OK");
  std::printf("vecadd: load+copy-in %s, command buffer (submit to interrupt) %s, copy-out %s, %llu interrupt(s)\n",
              format_time(t1 - t0).c_str(), format_time(t2 - t1).c_str(),
              format_time(sc_core::sc_time_stamp() - t2).c_str(), static_cast<unsigned long long>(p.host.interrupts()));
  return bad ? 1 : 0;
}

void register_cmp_examples() {
  register_workload({"vecadd", "vector add: host loads a kernel and data over PCIe, runs a command buffer, checks the result", vecadd,
                     {WorkloadArg::number("n", 1, 1u << 20, 1024, "elements per vector (one kernel instance each)")}});
}

}  // namespace avp
