// The HSA AQL workloads. Each loads the code object aql_kernels.co into
// device DRAM, finds its kernels by name, creates user-mode queues and
// signals in host memory, publishes packets, rings doorbells and waits on
// signals; the results are checked against host computations.
//   aql-vecadd [n [CODE]]  one vector-add dispatch (the kernel "vecadd" of the
//                          code object CODE when given: a user's kernel)
//   aql-chain [stages]     dependent dispatches alternating between two queues,
//                          each behind a barrier-AND on the previous one's signal
//   aql-multiqueue         four queues at once, each with its own vector add and chain
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "accel_device.h"
#include "aql_setup.h"
#include "hsa_runtime.h"
#include "kernel_loader.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {
namespace {

const sc_core::sc_time kTimeout(50, sc_core::SC_MS);
constexpr uint32_t kMaxStages = 64;

bool open_runtime(AccelDevice& dev, HsaRuntime& rt, const char* workload, const std::string& code_object = AVP_AQL_KERNELS_CO) {
  if (!dev.open()) {
    std::fprintf(stderr, "%s: %s\n", workload, dev.error().c_str());
    return false;
  }
  if (rt.load_code_object(dev, code_object) != CodeObjectError::kNone) {
    std::fprintf(stderr, "%s: %s\n", workload, rt.load_error().c_str());
    return false;
  }
  return true;
}

// aql-vecadd [n [CODE_OBJECT]]: the kernel "vecadd" of CODE_OBJECT (default aql_kernels.co).
int aql_vecadd(Platform& p, const WorkloadArgs& args) {
  uint32_t n = 4096;
  if (!arg_in(args, "aql-vecadd", 1, 1u << 24, n)) return 2;
  if (args.args.size() > 2) {
    std::fprintf(stderr, "aql-vecadd: expected [n [CODE_OBJECT]], got %zu arguments\n", args.args.size());
    return 2;
  }
  const std::string code_object = args.args.size() == 2 ? args.args[1] : AVP_AQL_KERNELS_CO;
  AccelDevice dev(p.host);
  HsaRuntime rt(p.host);
  AqlVecAdd job;
  if (!open_runtime(dev, rt, "aql-vecadd", code_object)) return 2;
  const std::string mismatch = AqlVecAdd::kernel_mismatch(rt.find_kernel("vecadd"));
  if (!mismatch.empty()) {
    std::fprintf(stderr, "aql-vecadd: %s: %s\n", code_object.c_str(), mismatch.c_str());
    return 2;
  }
  if (!job.prepare(dev, rt, n, 256)) {
    std::fprintf(stderr, "aql-vecadd: no device memory for %u elements\n", n);
    return 2;
  }
  HsaRuntime::Queue q = rt.create_queue(0, 64);
  const uint64_t signal = rt.create_signal(1);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  rt.dispatch(q, job.packet(signal));
  const bool done = rt.wait_signal(signal, SignalCondition::kEq, 0, kTimeout);
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  const bool ok = done && job.check(dev);
  std::printf("aql-vecadd: %u elements in %u work-groups: %s, doorbell to signal %s\n", n, (n + 255) / 256,
              ok ? "results OK" : "FAILED", format_time(t1 - t0).c_str());
  return ok ? 0 : 1;
}

int aql_chain(Platform& p, const WorkloadArgs& args) {
  uint32_t stages = 8;  // each queue holds at most `stages` packets (dispatches and barriers)
  if (!arg_in(args, "aql-chain", 1, kMaxStages, stages)) return 2;
  AccelDevice dev(p.host);
  HsaRuntime rt(p.host);
  AqlChain chain;
  if (!open_runtime(dev, rt, "aql-chain") || !chain.prepare(dev, rt, 1024, 128, stages)) return 2;
  HsaRuntime::Queue even = rt.create_queue(0, kMaxStages), odd = rt.create_queue(1, kMaxStages);
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  chain.submit(rt, even, odd);
  const bool done = rt.wait_signal(chain.signals.back(), SignalCondition::kEq, 0, kTimeout);
  const int wrong = done ? chain.first_wrong_stage(dev) : -2;
  std::printf("aql-chain: %u dependent stages over 2 queues: %s, %s\n", stages,
              wrong == -1 ? "results OK" : wrong == -2 ? "TIMEOUT" : ("stage " + std::to_string(wrong) + " WRONG").c_str(),
              format_time(sc_core::sc_time_stamp() - t0).c_str());
  return wrong == -1 ? 0 : 1;
}

int aql_multiqueue(Platform& p, const WorkloadArgs&) {
  AccelDevice dev(p.host);
  HsaRuntime rt(p.host);
  if (!open_runtime(dev, rt, "aql-multiqueue")) return 2;
  // Queue q: a vector add, then a two-stage chain that stays on queue q.
  AqlVecAdd adds[4];
  AqlChain chains[4];
  std::vector<HsaRuntime::Queue> queues;
  uint64_t add_signals[4];
  for (unsigned q = 0; q < 4; ++q) {
    if (!adds[q].prepare(dev, rt, 512 + 128 * q, 64) || !chains[q].prepare(dev, rt, 256 + 64 * q, 64, 2)) return 2;
    queues.push_back(rt.create_queue(q, 8));
    add_signals[q] = rt.create_signal(1);
  }
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  for (unsigned q = 0; q < 4; ++q) {
    rt.dispatch(queues[q], adds[q].packet(add_signals[q]));
    chains[q].submit(rt, queues[q], queues[q]);
  }
  bool ok = true;
  for (unsigned q = 0; q < 4; ++q) {
    const bool done = rt.wait_signal(add_signals[q], SignalCondition::kEq, 0, kTimeout) &&
                      rt.wait_signal(chains[q].signals.back(), SignalCondition::kEq, 0, kTimeout);
    const bool right = done && adds[q].check(dev) && chains[q].first_wrong_stage(dev) == -1;
    std::printf("aql-multiqueue: queue %u: %s\n", q, right ? "results OK" : "FAILED");
    ok = ok && right;
  }
  std::printf("aql-multiqueue: 4 queues, 16 packets: %s\n", format_time(sc_core::sc_time_stamp() - t0).c_str());
  return ok ? 0 : 1;
}

}  // namespace

void register_aql_examples() {
  register_workload({"aql-vecadd", "vector add dispatched through an HSA AQL user-mode queue with a completion signal", aql_vecadd,
                     {WorkloadArg::number("n", 1, 1u << 24, 4096, "elements per vector (work-items)"),
                      WorkloadArg::path("code_object", "the SDK's aql_kernels.co", "code object holding the kernel \"vecadd\"")}});
  register_workload({"aql-chain", "dependent AQL dispatches on two queues ordered by barrier-AND packets", aql_chain,
                     {WorkloadArg::number("stages", 1, kMaxStages, 8, "dependent dispatches per queue")}});
  register_workload({"aql-multiqueue", "four AQL queues at once, each with a vector add and a two-stage chain", aql_multiqueue, {}});
}

}  // namespace avp
