// AQL front-end figures: dispatch latency of an empty kernel broken down
// (doorbell write to first kernel instruction, last kernel instruction to the
// completion-signal update), and packets per second, simulated and
// wall-clock, for a stream of empty-kernel dispatches.
#include <chrono>
#include <cstdio>

#include "accel_device.h"
#include "aql_empty_kernel.h"
#include "platform/bench_runner.h"
#include "hsa_runtime.h"

using namespace avp;
using namespace avp::aql;
using Clock = std::chrono::steady_clock;

namespace {

const sc_core::sc_time kTimeout(1, sc_core::SC_SEC);

double ns(const sc_core::sc_time& t) { return t.to_seconds() * 1e9; }

void latency(Platform& p, HsaRuntime& rt, HsaRuntime::Queue& q, const AqlEmptyKernel& k, uint32_t workgroups) {
  // The second of two identical dispatches: caches and decoded code are warm.
  AqlProcessor::DispatchTimes d;
  sc_core::sc_time doorbell, seen;
  for (int i = 0; i < 2; ++i) {
    const uint64_t s = rt.create_signal(1);
    doorbell = sc_core::sc_time_stamp();
    rt.dispatch(q, k.packet(s, workgroups, 1));
    if (!rt.wait_signal_eq(s, 0, kTimeout)) std::printf("dispatch did not complete (queue error 0x%x)\n", rt.queue_error(q));
    seen = sc_core::sc_time_stamp();
    sc_core::wait(2, sc_core::SC_US);  // the mailbox read and AQL_SIGNAL may follow the decrement the host saw
    d = p.aql->last_dispatch();
  }
  std::printf("dispatch latency, %3u work-group(s): doorbell -> first instruction %.1f ns (packet fetched at +%.1f ns);"
              " kernel %.1f ns; last instruction -> completion signal %.1f ns, -> AQL_SIGNAL %.1f ns;"
              " doorbell -> host sees the signal %.1f ns\n",
              workgroups, ns(d.first_launch - doorbell), ns(d.fetched - doorbell), ns(d.last_end - d.first_launch),
              ns(d.signal_updated - d.last_end), ns(d.interrupt - d.last_end), ns(seen - doorbell));
}

void throughput(HsaRuntime& rt, HsaRuntime::Queue& q, const AqlEmptyKernel& k, unsigned packets) {
  // The host publishes every packet (one doorbell each); only the last carries a completion signal.
  const uint64_t s = rt.create_signal(1);
  const sc_core::sc_time s0 = sc_core::sc_time_stamp();
  const auto w0 = Clock::now();
  for (unsigned i = 0; i < packets; ++i) rt.dispatch(q, k.packet(i + 1 == packets ? s : 0));
  if (!rt.wait_signal_eq(s, 0, kTimeout)) std::printf("stream did not complete (queue error 0x%x)\n", rt.queue_error(q));
  const double wall = std::chrono::duration<double>(Clock::now() - w0).count();
  const double sim = (sc_core::sc_time_stamp() - s0).to_seconds();
  std::printf("empty-kernel stream: %u dispatches (1 work-group each) in %.1f us simulated: %.0f packets/s simulated"
              " (%.1f ns/packet), %.0f packets/s wall-clock\n",
              packets, sim * 1e6, packets / sim, sim * 1e9 / packets, packets / wall);
}

void bench(Platform& p) {
  AccelDevice dev(p.host);
  if (!dev.open()) {
    std::printf("cannot open the device\n");
    return;
  }
  HsaRuntime rt(p.host);
  AqlEmptyKernel k;
  if (!k.prepare(dev)) {
    std::printf("cannot write the empty kernel\n");
    return;
  }
  const unsigned stream = 4096;
  auto q = rt.create_queue(0, stream);
  for (uint32_t wg : {1u, p.num_harts(), 8 * p.num_harts()}) latency(p, rt, q, k, wg);
  throughput(rt, q, k, stream - 6);  // the 6 latency packets used slots of the ring
}

}  // namespace

int sc_main(int, char**) { return run_platform_bench(bench); }
