// A hart's bus timing (harts/bus_timing.h) over a bus that answers Probe,
// Timing and Replay transactions (base/cache_traffic.h): each range probed
// once, Timing transactions by the answered path or else by TLM, the
// latency from the hart's settled time, and what a slice defers.
#include <gtest/gtest.h>

#include <mutex>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/cache_traffic.h"
#include "base/fetch.h"
#include "harts/bus_timing.h"

namespace {

using namespace avp;

constexpr uint64_t kBase = 0x80000000, kSize = 0x100000;  // the memory
constexpr uint64_t kLatencyPs = 40000, kPsPerByte = 100;

// Memory at [kBase, kBase + kSize): a transfer of len bytes takes
// kLatencyPs + len * kPsPerByte, by TLM or by the path its probe answers.
struct FakeBus : sc_core::sc_module, TimingPath {
  tlm_utils::simple_target_socket<FakeBus> socket{"socket"};
  bool answers_path = true;  // probes answer a path
  unsigned probes = 0, by_tlm = 0, direct = 0;
  CacheTrafficExtension last;  // the last Timing or Replay transaction
  bool last_fetch = false;

  explicit FakeBus(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &FakeBus::b_transport);
    socket.register_transport_dbg(this, &FakeBus::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    ++by_tlm;
    const FetchExtension* f = gp.get_extension<FetchExtension>();
    last_fetch = f && f->fetch;
    uint64_t delay_ps = delay.value();
    transfer(gp.get_data_length(), *cache_traffic(gp), delay_ps);
    delay = sc_core::sc_time::from_value(delay_ps);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    CacheTrafficExtension& c = *cache_traffic(gp);
    EXPECT_EQ(c.kind, CacheTrafficExtension::Probe);
    ++probes;
    c.memory = gp.get_address() - kBase < kSize;
    if (c.memory && answers_path) {
      c.path = this;
      c.path_base = kBase;
      c.path_size = kSize;
    }
    return 0;
  }
  void time(uint64_t, unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) override {
    ++direct;
    transfer(len, c, delay_ps);
  }
  // A deferred Timing transaction leaves its queueing to the Replay.
  void transfer(unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) {
    c.replay = c.deferred;
    last = c;
    delay_ps += kLatencyPs + len * kPsPerByte;
  }
};

// The hart's part: its socket, settled time, slice state and the cluster's lock.
struct FakeHart : sc_core::sc_module, TrafficTime {
  tlm_utils::simple_initiator_socket<FakeHart> bus{"bus"};
  SliceState slice;
  std::mutex shared;
  BusTiming timing{bus, *this, slice, shared};
  uint64_t time_ps = 1000000;
  unsigned settles = 0;

  explicit FakeHart(sc_core::sc_module_name n) : sc_module(n) {}
  void settle() override { ++settles; }
  uint64_t settled_time_ps() const override { return time_ps; }
};

struct BusTimingTest : testing::Test {
  FakeBus mem{"mem"};
  FakeHart hart{"hart"};
  BusTimingTest() {
    hart.bus.bind(mem.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes the binding
  }
};

TEST_F(BusTimingTest, ProbesARouteOnceAndTakesItsPathDirectly) {
  hart.timing.traffic(kBase + 0x40, false, 64, false);
  hart.timing.traffic(kBase + 0x8000, true, 64, false);  // the same route
  EXPECT_EQ(mem.probes, 1u);
  EXPECT_EQ(mem.direct, 2u);
  EXPECT_EQ(mem.by_tlm, 0u);
  EXPECT_EQ(hart.settles, 0u);  // a direct path only needs the settled time
  EXPECT_EQ(mem.last.kind, CacheTrafficExtension::Timing);
  EXPECT_TRUE(mem.last.write);
}

TEST_F(BusTimingTest, WithoutAPathGoesByTlmAndSettlesFirst) {
  mem.answers_path = false;
  hart.timing.traffic(kBase + 0x40, false, 64, true);
  EXPECT_TRUE(mem.last_fetch);
  hart.timing.traffic(kBase + 0x80, false, 64, false);  // the page is known to have none
  EXPECT_EQ(mem.probes, 1u);
  EXPECT_EQ(mem.by_tlm, 2u);
  EXPECT_EQ(mem.direct, 0u);
  EXPECT_EQ(hart.settles, 2u);
  EXPECT_FALSE(mem.last_fetch);
  hart.timing.traffic(kBase + 0x1000, false, 64, false);  // the next page: probed again
  EXPECT_EQ(mem.probes, 2u);
}

TEST_F(BusTimingTest, AnAccessAcrossTheEndOfThePathGoesByTlm) {
  hart.timing.traffic(kBase + kSize - 32, false, 64, false);
  EXPECT_EQ(mem.probes, 1u);
  EXPECT_EQ(mem.by_tlm, 1u);
  EXPECT_EQ(mem.direct, 0u);
}

TEST_F(BusTimingTest, ReturnsTheLatencyFromTheSettledTime) {
  EXPECT_EQ(hart.timing.traffic(kBase, false, 64, false), kLatencyPs + 64 * kPsPerByte);
  hart.time_ps = 5000000;  // later in the quantum: the same latency
  EXPECT_EQ(hart.timing.traffic(kBase, false, 32, false), kLatencyPs + 32 * kPsPerByte);
  mem.answers_path = false;
  EXPECT_EQ(hart.timing.traffic(kBase + kSize, false, 8, false), kLatencyPs + 8 * kPsPerByte);  // by TLM
  EXPECT_EQ(mem.by_tlm, 1u);
}

TEST_F(BusTimingTest, TwoTransactionsTogetherReturnTheLastOnesLatency) {
  const HartTraffic t[] = {{kBase + 0x100, 64, true, false, false}, {kBase + 0x200, 16, false, false, true}};
  EXPECT_EQ(hart.timing.traffic(t, 2), kLatencyPs + 16 * kPsPerByte);
  EXPECT_EQ(mem.direct, 2u);
  EXPECT_FALSE(mem.last.write);
}

TEST_F(BusTimingTest, InASliceDefersWhatTheBusLeftOut) {
  hart.timing.traffic(kBase, false, 64, false);
  EXPECT_FALSE(mem.last.deferred);
  EXPECT_TRUE(hart.slice.deferred().empty());
  hart.slice.begin(true, true);
  const HartTraffic t[] = {{kBase + 0x100, 64, true, false, false}, {kBase + 0x200, 64, false, true, true}};
  hart.timing.traffic(t, 2);
  EXPECT_TRUE(mem.last.deferred);
  ASSERT_EQ(hart.slice.deferred().size(), 2u);
  const DeferredTraffic& fill = hart.slice.deferred()[1];
  EXPECT_EQ(fill.pa, kBase + 0x200);
  EXPECT_TRUE(fill.fetch);
  EXPECT_EQ(fill.offset_ps, hart.time_ps);  // at the hart's time when issued
  EXPECT_TRUE(hart.slice.deferred()[0].write);
}

TEST_F(BusTimingTest, InASliceAloneInItsBatchTimesInPlace) {
  hart.slice.begin(false, false);
  const HartTraffic fill{kBase + 0x200, 64, false, false, true};
  EXPECT_EQ(hart.timing.traffic(&fill, 1), kLatencyPs + 64 * kPsPerByte);
  EXPECT_FALSE(mem.last.deferred);
  EXPECT_TRUE(hart.slice.deferred().empty());  // nothing left for a replay
}

TEST_F(BusTimingTest, SendsAReplayByThePathItsProbeAnswered) {
  uint64_t delay_ps = hart.time_ps;
  hart.timing.replay(kBase + 0x40, true, 64, false, delay_ps);
  EXPECT_EQ(mem.probes, 1u);
  EXPECT_EQ(mem.direct, 1u);
  EXPECT_EQ(mem.by_tlm, 0u);
  EXPECT_EQ(mem.last.kind, CacheTrafficExtension::Replay);
  EXPECT_TRUE(mem.last.write);
  EXPECT_EQ(delay_ps, hart.time_ps + kLatencyPs + 64 * kPsPerByte);
}

TEST_F(BusTimingTest, SendsAReplayByTlmWithoutAPath) {
  mem.answers_path = false;
  uint64_t delay_ps = hart.time_ps;
  hart.timing.replay(kBase + 0x40, false, 64, true, delay_ps);
  EXPECT_EQ(mem.by_tlm, 1u);
  EXPECT_EQ(mem.direct, 0u);
  EXPECT_EQ(mem.last.kind, CacheTrafficExtension::Replay);
  EXPECT_TRUE(mem.last_fetch);
  EXPECT_EQ(delay_ps, hart.time_ps + kLatencyPs + 64 * kPsPerByte);
}

TEST_F(BusTimingTest, CacheableIsTheProbesAnswerEachTime) {
  EXPECT_TRUE(hart.timing.cacheable(kBase + 0x40, 4, true));
  EXPECT_FALSE(hart.timing.cacheable(kBase + kSize, 4, false));
  EXPECT_TRUE(hart.timing.cacheable(kBase + 0x40, 4, true));
  EXPECT_EQ(mem.probes, 3u);
}

}  // namespace
