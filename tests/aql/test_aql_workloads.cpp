// Code objects through the runtime, signal waits with conditions, and the
// workloads aql-chain (ordering by barrier-AND, proven by data and by the
// signals' timestamps) and aql-multiqueue.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "aql_bench.h"
#include "aql_setup.h"
#include "workloads.h"
#include "platform/workload.h"

using namespace avp;
using namespace avp::aql;

namespace {
const sc_core::sc_time kTimeout(20, sc_core::SC_MS);
const amd_signal_t& signal_of(Bench& t, uint64_t s) { return *reinterpret_cast<const amd_signal_t*>(t.p.host.host_ptr(s)); }
}  // namespace

TEST(AqlRuntime, LoadedKernelsHaveAlignedDescriptorsInDramWithTheirMetadata) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    const KernelInfo* k = rt.find_kernel("vecadd");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(rt.find_kernel("nonexistent"), nullptr);
    EXPECT_EQ(k->kernel_object % 64, 0u);
    EXPECT_GE(k->kernel_object, dev.info().dram_base);
    // The info block's range table is the platform's address map.
    const DeviceAddressMap map = dev.read_address_map();
    EXPECT_EQ(map[AVP_RANGE_DRAM].base, t.p.dram_base());
    EXPECT_EQ(map[AVP_RANGE_DRAM].size, dev.info().dram_size);
    EXPECT_EQ(map[AVP_RANGE_DMA].base, t.p.base_of("dma"));
    EXPECT_EQ(map[AVP_RANGE_PERF].size, t.p.size_of("perf"));
    EXPECT_EQ(map[AVP_RANGE_TCDM_LOCAL].size, dev.info().tcdm_per_core);
    EXPECT_EQ(k->kernarg_size, 32u);
    kernel_descriptor_t kd;
    ASSERT_TRUE(dev.read(k->kernel_object, &kd, sizeof kd));
    EXPECT_EQ(kd.max_flat_workgroup_size, 1024u);  // bytes 8..11 (GFX6-GFX9), the SDK's default
    EXPECT_EQ(k->max_flat_workgroup_size, 1024u);  // the metadata agrees
    EXPECT_EQ(kd.kernel_code_properties, kEnableKernargSegmentPtr);
    EXPECT_EQ(kd.compute_pgm_rsrc2, kRsrc2WorkgroupIdX);
    EXPECT_LT(kd.kernel_code_entry_byte_offset, 0);  // .text precedes the descriptors
    // A second load of the same code object lands elsewhere; its kernels still run.
    const uint64_t first = k->kernel_object;
    ASSERT_EQ(rt.load_code_object(dev, AVP_AQL_KERNELS_CO), CodeObjectError::kNone);
    EXPECT_EQ(rt.find_kernel("vecadd")->kernel_object, first);  // the first loaded wins
    EXPECT_EQ(rt.load_code_object(dev, "/nonexistent.co"), CodeObjectError::kElf);
    EXPECT_NE(rt.load_error().find("/nonexistent.co: cannot open"), std::string::npos) << rt.load_error();
  });
}

TEST(AqlRuntime, KernargOfTheWrongSizeIsRefused) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    const uint8_t args[16] = {};
    EXPECT_EQ(rt.alloc_kernarg(dev, *rt.find_kernel("vecadd"), args, sizeof args), 0u);
  });
}

TEST(AqlRuntime, AFullRingRefusesThePacket) {
  Bench t;
  t.run([&](AccelDevice&, HsaRuntime& rt) {
    auto q = rt.create_queue(0, 4);
    const uint64_t gate = rt.create_signal(1);
    for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(rt.barrier(q, true, {gate, 0, 0, 0, 0}, 0), i);  // the first one blocks
    EXPECT_EQ(rt.barrier(q, true, {gate, 0, 0, 0, 0}, 0), HsaRuntime::kQueueFull);
    EXPECT_EQ(t.queue(q).write_dispatch_id, 4u);
  });
}

TEST(AqlRuntime, WaitHonoursEachConditionAndTimesOutInSimulatedTime) {
  Bench t;
  t.run([&](AccelDevice&, HsaRuntime& rt) {
    const uint64_t s = rt.create_signal(5);
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    EXPECT_FALSE(rt.wait_signal(s, SignalCondition::kLt, 5, sc_core::sc_time(3, sc_core::SC_US)));
    EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_core::sc_time(3, sc_core::SC_US));
    EXPECT_TRUE(rt.wait_signal(s, SignalCondition::kLt, 6, sc_core::SC_ZERO_TIME));
    EXPECT_TRUE(rt.wait_signal(s, SignalCondition::kGte, 5, sc_core::SC_ZERO_TIME));
    EXPECT_FALSE(rt.wait_signal(s, SignalCondition::kGte, 6, sc_core::SC_ZERO_TIME));
    EXPECT_TRUE(rt.wait_signal(s, SignalCondition::kNe, 4, sc_core::SC_ZERO_TIME));
    EXPECT_FALSE(rt.wait_signal(s, SignalCondition::kNe, 5, sc_core::SC_ZERO_TIME));
    EXPECT_TRUE(rt.wait_signal(s, SignalCondition::kEq, 5, sc_core::SC_ZERO_TIME));
    EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_core::sc_time(3, sc_core::SC_US));
  });
}

TEST(AqlChain, BarrierAndOrdersDependentDispatchesAcrossTwoQueues) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    AqlChain chain;
    ASSERT_TRUE(chain.prepare(dev, rt, 512, 64, 6));
    auto even = rt.create_queue(0, 16), odd = rt.create_queue(1, 16);
    rt.set_profiling(even, true);
    rt.set_profiling(odd, true);
    chain.submit(rt, even, odd);
    ASSERT_TRUE(rt.wait_signal(chain.signals.back(), SignalCondition::kEq, 0, kTimeout));
    EXPECT_EQ(chain.first_wrong_stage(dev), -1);
    for (size_t k = 0; k < chain.signals.size(); ++k) {
      EXPECT_EQ(rt.signal_value(chain.signals[k]), 0) << k;
      if (k) {
        EXPECT_LT(signal_of(t, chain.signals[k - 1]).end_ts, signal_of(t, chain.signals[k]).start_ts) << k;
      }
    }
    EXPECT_EQ(t.queue(even).read_dispatch_id, 3u + 2u);  // stages 0, 2, 4 and the barriers of 2 and 4
    EXPECT_EQ(t.queue(odd).read_dispatch_id, 6u);        // stages 1, 3, 5, each behind a barrier
  });
}

TEST(AqlChain, AStageWaitsWhileItsDependencyIsUnsatisfied) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    AqlChain chain;
    ASSERT_TRUE(chain.prepare(dev, rt, 256, 64, 2));
    auto even = rt.create_queue(0, 8), odd = rt.create_queue(1, 8);
    // Stage 1 alone: its barrier waits on stage 0, which is not yet published.
    rt.barrier(odd, true, {chain.signals[0], 0, 0, 0, 0}, 0);
    rt.dispatch(odd, HsaRuntime::kernel_packet(*chain.kernel, 1, {256, 1, 1}, {64, 1, 1}, chain.kernargs[1], chain.signals[1]));
    EXPECT_FALSE(rt.wait_signal(chain.signals[1], SignalCondition::kEq, 0, sc_core::sc_time(50, sc_core::SC_US)));
    rt.dispatch(even, HsaRuntime::kernel_packet(*chain.kernel, 1, {256, 1, 1}, {64, 1, 1}, chain.kernargs[0], chain.signals[0]));
    ASSERT_TRUE(rt.wait_signal(chain.signals[1], SignalCondition::kEq, 0, kTimeout));
    EXPECT_EQ(chain.first_wrong_stage(dev), -1);
  });
}

TEST(AqlMultiqueue, FourQueuesShareTheProcessorRoundRobinOnePacketAtATime) {
  Bench t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt) {
    AqlVecAdd jobs[4][2];
    uint64_t signals[4][2];
    std::vector<HsaRuntime::Queue> queues;
    for (unsigned q = 0; q < 4; ++q) {
      queues.push_back(rt.create_queue(q, 4));
      rt.set_profiling(queues.back(), true);
      for (unsigned j = 0; j < 2; ++j) {
        ASSERT_TRUE(jobs[q][j].prepare(dev, rt, 256 + 64 * q, 64));
        signals[q][j] = rt.create_signal(1);
      }
    }
    for (unsigned q = 0; q < 4; ++q)
      for (unsigned j = 0; j < 2; ++j) rt.dispatch(queues[q], jobs[q][j].packet(signals[q][j]));
    std::vector<std::pair<uint64_t, unsigned>> starts;  // start_ts, 2 q + j
    for (unsigned q = 0; q < 4; ++q)
      for (unsigned j = 0; j < 2; ++j) {
        ASSERT_TRUE(rt.wait_signal(signals[q][j], SignalCondition::kEq, 0, kTimeout)) << q << " " << j;
        EXPECT_TRUE(jobs[q][j].check(dev)) << q << " " << j;
        starts.push_back({signal_of(t, signals[q][j]).start_ts, 2 * q + j});
      }
    std::sort(starts.begin(), starts.end());
    // After a packet of queue q retires, queue q + 1 goes first: the first packets of all four, then the second ones.
    const unsigned order[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    for (unsigned i = 0; i < 8; ++i) {
      EXPECT_EQ(starts[i].second, order[i]) << i;
      if (i) {
        const unsigned prev = starts[i - 1].second;
        EXPECT_LE(signal_of(t, signals[prev / 2][prev % 2]).end_ts, starts[i].first) << i;  // no overlap
      }
    }
  });
}

namespace {
// Runs a registered workload on a fresh platform (one per test process) and returns its exit code.
int run_workload(const char* name, const std::vector<std::string>& args = {}) {
  register_aql_examples();
  const Workload* w = find_workload(name);
  if (!w) return -1;
  Bench t;
  int rc = -1;
  sc_core::sc_spawn([&] {
    rc = w->run(t.p, {args});
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  return rc;
}
}  // namespace

TEST(AqlWorkloads, VecAdd) { EXPECT_EQ(run_workload("aql-vecadd"), 0); }
TEST(AqlWorkloads, VecAddRunsTheKernelOfAGivenCodeObject) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_workload("aql-vecadd", {"300", AVP_AQL_KERNELS_CO}), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("aql-vecadd: 300 elements in 2 work-groups: results OK"), std::string::npos);
}
TEST(AqlWorkloads, VecAddRefusesAKernelWithOtherArguments) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_workload("aql-vecadd", {"300", AVP_VECADD_WRONG_ARGS_CO}), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                std::string("aql-vecadd: ") + AVP_VECADD_WRONG_ARGS_CO +
                ": kernel 'vecadd' takes 2 arguments in 16 bytes, not (a, b, out: GlobalBuffer; n, workgroup_size: U32) in 32 bytes"),
            std::string::npos);
}
TEST(AqlWorkloads, VecAddReportsACodeObjectThatDoesNotLoad) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_workload("aql-vecadd", {"300", "/nonexistent.co"}), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("aql-vecadd: /nonexistent.co: cannot open"), std::string::npos);
}
TEST(AqlWorkloads, VecAddRefusesExtraArguments) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_workload("aql-vecadd", {"300", AVP_AQL_KERNELS_CO, "x"}), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("aql-vecadd: expected [n [CODE_OBJECT]], got 3 arguments"),
            std::string::npos);
}
TEST(AqlWorkloads, Chain) { EXPECT_EQ(run_workload("aql-chain"), 0); }
TEST(AqlWorkloads, Multiqueue) { EXPECT_EQ(run_workload("aql-multiqueue"), 0); }

// The processor reaches host memory through the host window the address map
// names (bus.host_window.base), not a second parameter of its own.
TEST(AqlWorkloads, ChainFollowsAMovedHostWindow) {
  ParamRegistry::instance().add_preset("bus.host_window.base", "0x400000000000", "test");
  EXPECT_EQ(run_workload("aql-chain"), 0);
}
