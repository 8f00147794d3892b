// The AQL packet processor with hand-written kernels: profiling timestamps
// only when the queue asks for them, null barrier dependencies, fair service
// of busy queues, and deterministic dispatch timing.
#include <gtest/gtest.h>

#include <functional>

#include "accel_device.h"
#include "aql_empty_kernel.h"
#include "hsa_runtime.h"
#include "ideal_memory.h"
#include "platform/platform.h"

using namespace avp;
using namespace avp::aql;

namespace {

const sc_core::sc_time kTimeout(1, sc_core::SC_MS);

struct Rig {
  Platform p;
  Rig() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
  void run(const std::function<void(AccelDevice&, HsaRuntime&, AqlEmptyKernel&)>& body) {
    sc_core::sc_spawn([&] {
      AccelDevice dev(p.host);
      ASSERT_TRUE(dev.open());
      HsaRuntime rt(p.host);
      AqlEmptyKernel k;
      ASSERT_TRUE(k.prepare(dev));
      body(dev, rt, k);
      sc_core::sc_stop();
    });
    sc_core::sc_start();
  }
  amd_queue_t& queue(const HsaRuntime::Queue& q) { return *reinterpret_cast<amd_queue_t*>(p.host.host_ptr(q.amd_queue)); }
  amd_signal_t& signal(uint64_t s) { return *reinterpret_cast<amd_signal_t*>(p.host.host_ptr(s)); }
  // Writes a packet into the ring without ringing the doorbell.
  void enqueue(HsaRuntime::Queue& q, const void* packet) {
    amd_queue_t& aq = queue(q);
    std::memcpy(p.host.host_ptr(q.ring + (aq.write_dispatch_id % q.size) * 64), packet, 64);
    ++aq.write_dispatch_id;
  }
  void ring(const HsaRuntime::Queue& q) { p.host.mmio_write32(kDoorbellBase + 8 * q.index, 0); }
};

uint64_t ns(const sc_core::sc_time& t) { return static_cast<uint64_t>(t.to_seconds() * 1e9); }

}  // namespace

TEST(AqlProcessor, TimestampsAreWrittenOnlyWhenTheQueueProfiles) {
  Rig t;
  t.run([&](AccelDevice&, HsaRuntime& rt, AqlEmptyKernel& k) {
    auto q = rt.create_queue(0, 8);
    const uint64_t plain = rt.create_signal(1), profiled = rt.create_signal(1);
    rt.dispatch(q, k.packet(plain));
    ASSERT_TRUE(rt.wait_signal_eq(plain, 0, kTimeout));
    EXPECT_EQ(t.signal(plain).start_ts, 0u);
    EXPECT_EQ(t.signal(plain).end_ts, 0u);
    rt.set_profiling(q, true);
    rt.dispatch(q, k.packet(profiled));
    ASSERT_TRUE(rt.wait_signal_eq(profiled, 0, kTimeout));
    const auto& d = t.p.aql->last_dispatch();
    // Nanoseconds of simulated time: from the packet fetch to the retirement, before the decrement.
    EXPECT_EQ(t.signal(profiled).start_ts, ns(d.fetched));
    EXPECT_GE(t.signal(profiled).end_ts, ns(d.last_end));
    EXPECT_LT(t.signal(profiled).end_ts, ns(d.signal_updated));
  });
}

TEST(AqlProcessor, NullDependenciesSatisfyBarrierAndButNeverBarrierOr) {
  Rig t;
  t.run([&](AccelDevice&, HsaRuntime& rt, AqlEmptyKernel&) {
    auto and_q = rt.create_queue(0, 8), or_q = rt.create_queue(1, 8);
    const uint64_t and_done = rt.create_signal(1), or_done = rt.create_signal(1);
    rt.barrier(and_q, true, {0, 0, 0, 0, 0}, and_done);
    rt.barrier(or_q, false, {0, 0, 0, 0, 0}, or_done);
    ASSERT_TRUE(rt.wait_signal_eq(and_done, 0, kTimeout));
    EXPECT_FALSE(rt.wait_signal_eq(or_done, 0, sc_core::sc_time(50, sc_core::SC_US)));
    EXPECT_EQ(t.queue(or_q).read_dispatch_id, 0u);  // still waiting, not an error
    EXPECT_EQ(rt.queue_error(or_q), 0u);
  });
}

TEST(AqlProcessor, TwoBusyQueuesAreServedInTurn) {
  Rig t;
  t.run([&](AccelDevice&, HsaRuntime& rt, AqlEmptyKernel& k) {
    HsaRuntime::Queue qs[2] = {rt.create_queue(0, 8), rt.create_queue(1, 8)};
    uint64_t signals[2][4];
    for (unsigned i = 0; i < 2; ++i) {
      rt.set_profiling(qs[i], true);
      for (unsigned j = 0; j < 4; ++j) {
        signals[i][j] = rt.create_signal(1);
        const auto packet = k.packet(signals[i][j]);
        t.enqueue(qs[i], &packet);
      }
    }
    t.ring(qs[1]);  // one doorbell: both queues are already full of work
    ASSERT_TRUE(rt.wait_signal_eq(signals[0][3], 0, kTimeout));
    ASSERT_TRUE(rt.wait_signal_eq(signals[1][3], 0, kTimeout));
    // Retirement alternates between the queues, starting from queue 0 (the round robin's first).
    uint64_t last = 0;
    for (unsigned j = 0; j < 4; ++j)
      for (unsigned i : {0u, 1u}) {
        const uint64_t start = t.signal(signals[i][j]).start_ts;
        EXPECT_GT(start, last) << "queue " << i << " packet " << j;
        last = start;
      }
  });
}

TEST(AqlProcessor, DispatchStepsHappenInOrderAndRepeatExactly) {
  // A fixed-latency memory: the DDR4 default's open rows and refreshes differ
  // from one dispatch to the next.
  avp::test::use_ideal_memory();
  Rig t;
  t.run([&](AccelDevice&, HsaRuntime& rt, AqlEmptyKernel& k) {
    auto q = rt.create_queue(0, 8);
    AqlProcessor::DispatchTimes runs[3];
    for (auto& r : runs) {
      const uint64_t s = rt.create_signal(1);
      rt.dispatch(q, k.packet(s, 256, 64));  // 4 work-groups
      ASSERT_TRUE(rt.wait_signal_eq(s, 0, kTimeout));
      sc_core::wait(2, sc_core::SC_US);  // the mailbox read and AQL_SIGNAL follow the decrement the host saw
      r = t.p.aql->last_dispatch();
      EXPECT_LT(r.fetched, r.first_launch);
      EXPECT_LT(r.first_launch, r.last_end);
      EXPECT_LT(r.last_end, r.signal_updated);
      EXPECT_LE(r.signal_updated, r.interrupt);
    }
    // With warm caches, the same dispatch takes exactly the same steps.
    EXPECT_EQ(runs[1].first_launch - runs[1].fetched, runs[2].first_launch - runs[2].fetched);
    EXPECT_EQ(runs[1].last_end - runs[1].first_launch, runs[2].last_end - runs[2].first_launch);
    EXPECT_EQ(runs[1].interrupt - runs[1].last_end, runs[2].interrupt - runs[2].last_end);
  });
}
