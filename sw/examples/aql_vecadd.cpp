// Workload "aql-vecadd": vector add through the HSA AQL front end. The host
// loads the kernel into device DRAM, writes a kernel descriptor and the
// kernel arguments, creates a user-mode queue and a completion signal in
// host memory, publishes a kernel-dispatch packet, rings the doorbell and
// waits on the signal.
#include <cstdio>
#include <vector>

#include "accel_device.h"
#include "aql_setup.h"
#include "hsa_runtime.h"
#include "platform.h"
#include "workload.h"

namespace avp {

static int aql_vecadd(Platform& p, const WorkloadArgs& args) {
  const uint32_t n = args.args.empty() ? 4096 : static_cast<uint32_t>(std::stoul(args.args[0]));
  AccelDevice dev(p.host);
  if (!dev.open()) return 2;
  AqlVecAdd job;
  if (!job.prepare(dev, AVP_KERNEL_AQL_ADD_ELF, n, 256)) return 2;
  HsaRuntime rt(p.host);
  HsaRuntime::Queue q = rt.create_queue(0, 64);
  const uint64_t signal = rt.create_signal(1);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  rt.dispatch(q, job.packet(signal));
  const bool done = rt.wait_signal_eq(signal, 0, sc_core::sc_time(10, sc_core::SC_MS));
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  const bool ok = done && job.check(dev);
  std::printf("aql-vecadd: %u elements in %u work-groups: %s, doorbell to signal %s\n", n, (n + 255) / 256,
              ok ? "results OK" : "FAILED", format_time(t1 - t0).c_str());
  return ok ? 0 : 1;
}

void register_aql_examples() {
  register_workload({"aql-vecadd", "vector add dispatched through an HSA AQL user-mode queue with a completion signal", aql_vecadd});
}

}  // namespace avp
