// The AQL front end through the host runtime: dispatch and retirement,
// completion signals and the event mailbox, barrier-AND/OR, four queues at
// once (queue errors: test_aql_bad_input.cpp). Bench is shared with
// test_aql_workloads.cpp (aql_bench.h).
#include <gtest/gtest.h>

#include <functional>

#include "accel_device.h"
#include "aql_bench.h"
#include "aql_setup.h"
#include "hsa_runtime.h"
#include "platform/platform.h"

using namespace avp;
using namespace avp::aql;

namespace {

const sc_core::sc_time kTimeout(5, sc_core::SC_MS);

}  // namespace

TEST(Aql, DispatchRetiresInOrderAndSignalsCompletion) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    AqlVecAdd job;
    ASSERT_TRUE(job.prepare(dev, rt, 1000, 64));
    auto q = rt.create_queue(0, 8);
    rt.set_profiling(q, true);
    const uint64_t signal = rt.create_signal(1), mailbox = t.p.host.alloc(8);
    auto* s = reinterpret_cast<amd_signal_t*>(t.p.host.host_ptr(signal));
    s->event_mailbox_ptr = mailbox;
    s->event_id = 0x77;
    rt.dispatch(q, job.packet(signal));
    ASSERT_TRUE(rt.wait_signal_eq(signal, 0, kTimeout));
    EXPECT_TRUE(job.check(dev));
    EXPECT_EQ(t.queue(q).read_dispatch_id, 1u);
    uint16_t header = 0;
    std::memcpy(&header, t.p.host.host_ptr(q.ring), 2);
    EXPECT_EQ(header, kInvalid);  // retired packets are reset to INVALID
    EXPECT_EQ(*reinterpret_cast<uint32_t*>(t.p.host.host_ptr(mailbox)), 0x77u);
    EXPECT_GT(s->end_ts, s->start_ts);
  });
  auto* wg = dynamic_cast<const Counter*>(StatRegistry::instance().find("aql.workgroups"));
  EXPECT_EQ(wg->value(), 16u);  // ceil(1000 / 64)
}

TEST(Aql, BarrierAndWaitsForItsDependenciesAndBarrierOrForAny) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    AqlVecAdd job;
    ASSERT_TRUE(job.prepare(dev, rt, 256, 64));
    auto q = rt.create_queue(1, 8);
    const uint64_t gate = rt.create_signal(1), after_barrier = rt.create_signal(1), after_dispatch = rt.create_signal(1);
    rt.barrier(q, true, {gate, 0, 0, 0, 0}, after_barrier);  // null dependencies are satisfied for AND
    rt.dispatch(q, job.packet(after_dispatch));
    EXPECT_FALSE(rt.wait_signal_eq(after_dispatch, 0, sc_core::sc_time(20, sc_core::SC_US)));  // held by the barrier
    reinterpret_cast<amd_signal_t*>(t.p.host.host_ptr(gate))->value = 0;
    ASSERT_TRUE(rt.wait_signal_eq(after_dispatch, 0, kTimeout))
        << "barrier signal " << rt.signal_value(after_barrier) << ", read id " << t.queue(q).read_dispatch_id
        << ", write id " << t.queue(q).write_dispatch_id << ", error " << rt.queue_error(q);
    EXPECT_EQ(rt.signal_value(after_barrier), 0);
    // Barrier-OR: a null dependency is unsatisfied; one satisfied signal is enough.
    const uint64_t zero = rt.create_signal(0), one = rt.create_signal(1), done = rt.create_signal(1);
    rt.barrier(q, false, {0, one, zero, 0, 0}, done);
    ASSERT_TRUE(rt.wait_signal_eq(done, 0, kTimeout)) << "read id " << t.queue(q).read_dispatch_id << ", write id "
                                                      << t.queue(q).write_dispatch_id << ", error " << rt.queue_error(q);
  });
}

TEST(Aql, FourQueuesAtOnce) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    AqlVecAdd jobs[4];
    uint64_t signals[4];
    for (unsigned i = 0; i < 4; ++i) {
      ASSERT_TRUE(jobs[i].prepare(dev, rt, 512 + 64 * i, 64));
      auto q = rt.create_queue(i, 4);
      signals[i] = rt.create_signal(1);
      rt.dispatch(q, jobs[i].packet(signals[i]));
    }
    for (unsigned i = 0; i < 4; ++i) {
      ASSERT_TRUE(rt.wait_signal_eq(signals[i], 0, kTimeout)) << i;
      EXPECT_TRUE(jobs[i].check(dev)) << i;
    }
  });
}
