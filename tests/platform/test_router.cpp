// Router decode, unmapped accesses, latency and bandwidth annotation, DMI
// translation and invalidation, debug transport, harts' cache traffic and
// stable-read probes.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/cache_traffic.h"
#include "base/stable_read.h"
#include "base/unit.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "traffic_probe.h"

using namespace avp;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket{"socket"};
  sc_dt::uint64 inv_start = 1, inv_end = 0;
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_invalidate_direct_mem_ptr(this, &Initiator::invalidate);
  }
  void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) { inv_start = s, inv_end = e; }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, sc_time& delay) {
    tlm::tlm_generic_payload gp;
    set_unit(gp, make_unit(UnitKind::Hart, 2), 0);
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(static_cast<unsigned char*>(data));
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    socket->b_transport(gp, delay);
    EXPECT_EQ(gp.get_address(), addr);  // the router restores the address
    return gp.get_response_status();
  }
};

struct Bench {
  Router bus{"bus"};
  Memory a{"mem_a", 0x1000, sc_time(10, SC_NS)};
  Memory b{"mem_b", 0x2000, sc_time(20, SC_NS)};
  Initiator cpu{"cpu"};
  Bench(double bw_b = 0, uint32_t channels_b = 1) {
    unsigned pa = bus.add_port("a", sc_time(2, SC_NS));
    unsigned pb = bus.add_port("b", sc_time(3, SC_NS), bw_b, channels_b);
    bus.map(pa, "a", 0x10000, 0x1000);
    bus.map(pb, "b", 0x20000, 0x2000);
    bus.init.bind(a.socket);
    bus.init.bind(b.socket);
    cpu.socket.bind(bus.targ);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes multi-socket binding
  }
};

}  // namespace

TEST(Router, DecodesAndTranslatesAndAddsLatency) {
  Bench t;
  uint32_t v = 0xCAFEF00D;
  sc_time d = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20010, &v, 4, d), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d, sc_time(23, SC_NS));  // 3 ns port + 20 ns memory
  uint32_t back = 0;
  t.b.read(0x10, &back, 4);
  EXPECT_EQ(back, v);
  d = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(t.cpu.access(tlm::TLM_READ_COMMAND, 0x10ffc, &back, 4, d), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d, sc_time(12, SC_NS));
}

TEST(Router, UnmappedAndStraddlingAccessesGetAddressErrors) {
  Bench t;
  uint64_t v = 0;
  sc_time d = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(t.cpu.access(tlm::TLM_READ_COMMAND, 0x0, &v, 8, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(t.cpu.access(tlm::TLM_READ_COMMAND, 0x11000, &v, 8, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(t.cpu.access(tlm::TLM_READ_COMMAND, 0x10ffc, &v, 8, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  auto* unmapped = dynamic_cast<const Counter*>(StatRegistry::instance().find("bus.unmapped"));
  ASSERT_NE(unmapped, nullptr);
  EXPECT_EQ(unmapped->value(), 3u);
}

TEST(Router, OverlappingRangesAreRejectedNamingBoth) {
  Router bus("bus");
  unsigned p = bus.add_port("x");
  bus.map(p, "x", 0x1000, 0x1000);
  try {
    bus.map(p, "y", 0x1800, 0x1000);
    FAIL();
  } catch (const ParamError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("bus.y.base"), std::string::npos) << m;
    EXPECT_NE(m.find("bus.x.base"), std::string::npos) << m;
  }
}

TEST(Router, BandwidthLimitedPortSerialisesBursts) {
  Bench t(/*bw_b=*/4.0);  // 4 bytes/ns
  std::vector<uint8_t> buf(64);
  sc_time d1 = sc_core::SC_ZERO_TIME, d2 = sc_core::SC_ZERO_TIME;
  // Two 64-byte bursts issued at the same local time: the second waits for the first.
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20000, buf.data(), 64, d1);
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20040, buf.data(), 64, d2);
  EXPECT_EQ(d1, sc_time(3 + 16 + 20, SC_NS));
  EXPECT_EQ(d2, sc_time(3 + 16 + 16 + 20, SC_NS));
}

TEST(Router, ChannelsServeInterleavedAddressesIndependently) {
  Bench t(/*bw_b=*/4.0, /*channels_b=*/2);  // 4 bytes/ns per channel, 256-byte interleave
  std::vector<uint8_t> buf(512);
  // Bursts on different channels at the same time do not wait for each other...
  sc_time d1 = sc_core::SC_ZERO_TIME, d2 = sc_core::SC_ZERO_TIME, d3 = sc_core::SC_ZERO_TIME;
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20000, buf.data(), 64, d1);
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20100, buf.data(), 64, d2);
  EXPECT_EQ(d1, sc_time(3 + 16 + 20, SC_NS));
  EXPECT_EQ(d2, sc_time(3 + 16 + 20, SC_NS));
  // ...bursts on the same channel do (0x20040 is channel 0's, behind the first).
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20040, buf.data(), 64, d3);
  EXPECT_EQ(d3, sc_time(3 + 16 + 16 + 20, SC_NS));
  // A 512-byte burst a microsecond later spreads over both: 256 bytes each, in parallel.
  sc_time d4(1000, SC_NS);
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20400, buf.data(), 512, d4);
  EXPECT_EQ(d4, sc_time(1000 + 3 + 64 + 20, SC_NS));
}

TEST(Router, OneChannelCarriesAWholeBurst) {
  Bench t(4.0, 1);
  std::vector<uint8_t> buf(512);
  sc_time d = sc_core::SC_ZERO_TIME;
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20400, buf.data(), 512, d);
  EXPECT_EQ(d, sc_time(3 + 128 + 20, SC_NS));
}

TEST(Router, BadChannelParametersAreRefusedNamingThem) {
  Router bus("bad_bus");
  EXPECT_THROW(
      {
        try {
          bus.add_port("p0", sc_core::SC_ZERO_TIME, 1.0, 0);
        } catch (const ParamError& e) {
          EXPECT_NE(std::string(e.what()).find("bad_bus.p0.channels = 0"), std::string::npos) << e.what();
          throw;
        }
      },
      ParamError);
  EXPECT_THROW(bus.add_port("p1", sc_core::SC_ZERO_TIME, 1.0, 2, 100), ParamError);  // interleave not a power of two
  EXPECT_THROW(bus.add_port("p2", sc_core::SC_ZERO_TIME, -1.0), ParamError);
}

TEST(Router, DmiIsTranslatedClippedAndInvalidated) {
  Bench t;
  tlm::tlm_generic_payload gp;
  gp.set_address(0x20100);
  gp.set_command(tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(t.cpu.socket->get_direct_mem_ptr(gp, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x20000u);
  EXPECT_EQ(dmi.get_end_address(), 0x21fffu);
  EXPECT_EQ(dmi.get_dmi_ptr(), t.b.data());
  EXPECT_EQ(dmi.get_read_latency(), sc_time(23, SC_NS));
  t.b.invalidate_dmi();
  EXPECT_EQ(t.cpu.inv_start, 0x20000u);
  EXPECT_EQ(t.cpu.inv_end, 0x21fffu);
}

uint64_t counter(const char* name) {
  auto* c = dynamic_cast<const Counter*>(StatRegistry::instance().find(name));
  EXPECT_NE(c, nullptr) << name;
  return c ? c->value() : 0;
}

// base/cache_traffic.h: what a hart's caches send the bus. A 64-byte
// transaction marked with `traffic` at `addr`; its delay from zero.
sc_time send_traffic(Bench& t, CacheTrafficExtension& traffic, uint64_t addr) {
  uint8_t scratch[64] = {};
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, 2), 0);
  gp.set_command(tlm::TLM_IGNORE_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(scratch);
  gp.set_data_length(64);
  gp.set_streaming_width(64);
  gp.set_extension(&traffic);
  sc_time d = sc_core::SC_ZERO_TIME;
  t.cpu.socket->b_transport(gp, d);
  gp.clear_extension(&traffic);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
  return d;
}

TEST(Router, CacheTrafficIsCountedAndTimedWithoutMovingData) {
  Bench t(/*bw_b=*/4.0);
  const uint32_t before = 0x11223344;
  t.b.write(0x40, &before, 4);
  CacheTrafficExtension traffic;
  traffic.kind = CacheTrafficExtension::Timing;
  traffic.write = true;  // a 64-byte write-back
  EXPECT_EQ(send_traffic(t, traffic, 0x20040), sc_time(3 + 16 + 20, SC_NS));  // port, 64 bytes at 4 bytes/ns, memory write latency
  uint32_t after = 0;
  t.b.read(0x40, &after, 4);
  EXPECT_EQ(after, before);  // no data moved
  EXPECT_EQ(counter("bus.b.accesses"), 1u);
  EXPECT_EQ(counter("bus.b.bytes"), 64u);
  EXPECT_EQ(counter("mem_b.writes"), 1u);
  EXPECT_EQ(counter("mem_b.bytes_written"), 64u);
  EXPECT_EQ(counter("mem_b.reads"), 0u);
}

TEST(Router, DeferredTrafficIsCountedNowAndQueuedByItsReplay) {
  // A hart's slice in the parallel schedule: the 64-byte fill is counted and
  // gets the fixed latencies, the port's queue is left to a Replay, which
  // queues it (behind a burst already there) and counts nothing again.
  Bench t(/*bw_b=*/4.0);
  std::vector<uint8_t> buf(64);
  sc_time busy = sc_core::SC_ZERO_TIME;
  t.cpu.access(tlm::TLM_WRITE_COMMAND, 0x20000, buf.data(), 64, busy);  // the port busy 3..19 ns
  const auto send = [&](CacheTrafficExtension& traffic) { return send_traffic(t, traffic, 0x20040); };
  CacheTrafficExtension timing;
  timing.kind = CacheTrafficExtension::Timing;
  timing.deferred = true;
  EXPECT_EQ(send(timing), sc_time(3 + 20, SC_NS));  // port and memory latency: no queue, no transfer time
  EXPECT_TRUE(timing.replay);
  EXPECT_EQ(counter("bus.b.accesses"), 2u);
  EXPECT_EQ(counter("mem_b.reads"), 1u);
  CacheTrafficExtension replay;
  replay.kind = CacheTrafficExtension::Replay;
  EXPECT_EQ(send(replay), sc_time(16 + 16, SC_NS));  // waits 3..19 ns for the burst, then its own 16 ns
  EXPECT_EQ(counter("bus.b.accesses"), 2u);  // not counted twice
  EXPECT_EQ(counter("mem_b.reads"), 1u);
  CacheTrafficExtension plain;  // negative control: without `deferred` the queue is met at once
  plain.kind = CacheTrafficExtension::Timing;
  EXPECT_EQ(send(plain), sc_time(3 + 16 + 16 + 16 + 20, SC_NS));  // behind the burst and the replayed fill
  EXPECT_FALSE(plain.replay);
}

TEST(Router, FunctionalAccessMovesDataWithoutTimeOrStatistics) {
  Bench t(/*bw_b=*/4.0);
  CacheTrafficExtension functional;
  functional.kind = CacheTrafficExtension::Functional;
  uint32_t v = 0xA5A5F00D;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x20010);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  gp.set_extension(&functional);
  sc_time d = sc_core::SC_ZERO_TIME;
  t.cpu.socket->b_transport(gp, d);
  gp.clear_extension(&functional);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d, sc_core::SC_ZERO_TIME);
  uint32_t back = 0;
  t.b.read(0x10, &back, 4);
  EXPECT_EQ(back, v);
  EXPECT_EQ(counter("bus.b.accesses"), 0u);
  EXPECT_EQ(counter("mem_b.writes"), 0u);
}

CacheTrafficExtension probe(Bench& t, uint64_t addr) { return avp::test::probe_at(t.cpu.socket, addr); }

TEST(Router, ProbeTellsMemoryFromUnmappedAddresses) {
  Bench t;
  EXPECT_TRUE(probe(t, 0x10010).memory);
  EXPECT_TRUE(probe(t, 0x21000).memory);
  EXPECT_FALSE(probe(t, 0x30000).memory);
}

TEST(Router, ProbeAnswersTheMappedRangesDirectTimingPath) {
  // base/timing_path.h: the memory's path wrapped in the router's, over the
  // mapped range in the initiator's addresses.
  Bench t;
  const CacheTrafficExtension b = probe(t, 0x21000);
  ASSERT_NE(b.path, nullptr);
  EXPECT_NE(b.path, static_cast<TimingPath*>(&t.b));  // not the memory's own: it would miss the port
  EXPECT_EQ(b.path_base, 0x20000u);
  EXPECT_EQ(b.path_size, 0x2000u);
  EXPECT_EQ(probe(t, 0x20000).path, b.path);  // one path per range
  EXPECT_NE(probe(t, 0x10000).path, b.path);
  EXPECT_EQ(probe(t, 0x30000).path, nullptr);
}

TEST(Router, TheDirectTimingPathTimesAndCountsAsTheTransactionWould) {
  // The expectations of the two tests above, by the path, mixed with TLM.
  Bench t(/*bw_b=*/4.0);
  TimingPath* path = probe(t, 0x20040).path;
  ASSERT_NE(path, nullptr);
  const auto by_path = [path](CacheTrafficExtension& c, uint64_t addr) {
    uint64_t d = 0;
    path->time(addr, 64, c, d);
    return sc_time::from_value(d);
  };
  CacheTrafficExtension write_back;
  write_back.kind = CacheTrafficExtension::Timing;
  write_back.write = true;
  EXPECT_EQ(by_path(write_back, 0x20040), sc_time(3 + 16 + 20, SC_NS));  // port, 64 bytes at 4 bytes/ns, write latency
  EXPECT_EQ(counter("bus.b.accesses"), 1u);
  EXPECT_EQ(counter("bus.b.bytes"), 64u);
  EXPECT_EQ(counter("mem_b.writes"), 1u);
  EXPECT_EQ(counter("mem_b.bytes_written"), 64u);
  CacheTrafficExtension fill;
  fill.kind = CacheTrafficExtension::Timing;
  EXPECT_EQ(send_traffic(t, fill, 0x20080), sc_time(3 + 16 + 16 + 20, SC_NS));  // by TLM, behind the write-back
  EXPECT_EQ(by_path(fill, 0x200c0), sc_time(3 + 32 + 16 + 20, SC_NS));         // by the path, behind both
  EXPECT_EQ(counter("bus.b.accesses"), 3u);
  EXPECT_EQ(counter("mem_b.reads"), 2u);
  CacheTrafficExtension deferred;
  deferred.kind = CacheTrafficExtension::Timing;
  deferred.deferred = true;
  EXPECT_EQ(by_path(deferred, 0x20100), sc_time(3 + 20, SC_NS));  // the queue left to its Replay
  EXPECT_TRUE(deferred.replay);
  EXPECT_EQ(counter("bus.b.accesses"), 4u);
  CacheTrafficExtension replay;
  replay.kind = CacheTrafficExtension::Replay;
  EXPECT_EQ(by_path(replay, 0x20100), sc_time(48 + 16, SC_NS));  // waits for the three, counts nothing again
  EXPECT_EQ(counter("bus.b.accesses"), 4u);
  EXPECT_EQ(counter("mem_b.reads"), 3u);
}

TEST(Router, BandwidthLimitedPortGrantsDmi) {
  // Harts account DMI accesses as cache traffic, so a limit need not refuse DMI.
  Bench t(4.0);
  tlm::tlm_generic_payload gp;
  gp.set_address(0x20000);
  tlm::tlm_dmi dmi;
  EXPECT_TRUE(t.cpu.socket->get_direct_mem_ptr(gp, dmi));
}

TEST(Router, DebugTransportReachesMemoryWithoutTime) {
  Bench t;
  uint32_t v = 0x12345678;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x10020);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  gp.set_data_length(4);
  EXPECT_EQ(t.cpu.socket->transport_dbg(gp), 4u);
  uint32_t back = 0;
  t.a.read(0x20, &back, 4);
  EXPECT_EQ(back, v);
  gp.set_address(0x5);
  EXPECT_EQ(t.cpu.socket->transport_dbg(gp), 0u);
}

namespace {

// A device whose registers all read as constants (base/stable_read.h): it
// answers probes so and counts the reads it is asked to repeat.
struct ConstantDevice : sc_core::sc_module {
  tlm_utils::simple_target_socket<ConstantDevice> socket{"socket"};
  uint64_t repeated = 0;
  explicit ConstantDevice(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_b_transport(this, &ConstantDevice::b_transport);
    socket.register_transport_dbg(this, &ConstantDevice::transport_dbg);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time&) { gp.set_response_status(tlm::TLM_OK_RESPONSE); }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    StableReadExtension* s = stable_read(gp);
    if (s && s->kind == StableReadExtension::Repeat) repeated += s->times;
    else if (s) s->answer = StableReadExtension::Constant;
    return gp.get_data_length();
  }
};

StableReadExtension stable_probe(Initiator& cpu, StableReadExtension::Kind kind, uint64_t addr, unsigned len,
                                 uint64_t times = 0) {
  tlm::tlm_generic_payload gp;
  uint64_t v = 0;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  gp.set_data_length(len);
  StableReadExtension s;
  s.kind = kind;
  s.times = times;
  gp.set_extension(&s);
  cpu.socket->transport_dbg(gp);
  gp.clear_extension(&s);
  return s;
}

}  // namespace

// A probe learns the port's latency; a bandwidth-limited port or a read past
// the range is not stable; repeated reads are counted as their b_transport would be.
TEST(Router, StableReadProbesAddThePortAndRepeatsAreCounted) {
  Router bus{"stable_bus"};
  ConstantDevice fast{"fast"}, limited{"limited"};
  Initiator cpu{"cpu"};
  bus.map(bus.add_port("fast", sc_time(2, SC_NS)), "fast", 0x1000, 0x100);
  bus.map(bus.add_port("limited", sc_time(3, SC_NS), 4.0), "limited", 0x2000, 0x100);
  bus.init.bind(fast.socket);
  bus.init.bind(limited.socket);
  cpu.socket.bind(bus.targ);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const StableReadExtension s = stable_probe(cpu, StableReadExtension::Probe, 0x1005, 1);
  EXPECT_EQ(s.answer, StableReadExtension::Constant);
  EXPECT_EQ(s.delay, sc_time(2, SC_NS));
  EXPECT_EQ(stable_probe(cpu, StableReadExtension::Probe, 0x2005, 1).answer, StableReadExtension::Unstable);
  EXPECT_EQ(stable_probe(cpu, StableReadExtension::Probe, 0x10fc, 8).answer, StableReadExtension::Unstable);
  stable_probe(cpu, StableReadExtension::Repeat, 0x1004, 4, 25);
  EXPECT_EQ(fast.repeated, 25u);
  EXPECT_EQ(counter("stable_bus.fast.accesses"), 25u);
  EXPECT_EQ(counter("stable_bus.fast.bytes"), 100u);
}
