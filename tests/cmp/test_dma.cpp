// DMA controller: timing that follows from the parameters (bursts in flight
// included; on the ideal memory, whose fixed latency keeps the closed form
// short), 2D replication,
// per-unit transfer ids, blocking DMADONESEQ, errors, out-of-order channels.
#include <gtest/gtest.h>

#include "cmp_fixture.h"
#include "dma/dma_regs.h"
#include "ideal_memory.h"

#include <fstream>

#include "base/text_trace.h"

using namespace avp;
using avp::test::CmpBench;

namespace {
struct Dma {
  CmpBench& t;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  tlm::tlm_response_status w(uint64_t off, uint64_t v) { return t.p.device_port.write(AVP_DMA_BASE + off, &v, 8, d); }
  uint64_t r(uint64_t off) {
    uint64_t v = 0;
    EXPECT_EQ(t.p.device_port.read(AVP_DMA_BASE + off, &v, 8, d), tlm::TLM_OK_RESPONSE);
    return v;
  }
  uint64_t copy1d(uint64_t src, uint64_t dst, uint64_t n) {
    w(AVP_DMASRCADDR, src);
    w(AVP_DMADSTADDR, dst);
    w(AVP_DMAXFERSIZE0, n);
    w(AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1));
    return r(AVP_DMASTARTSEQ);
  }
};
}  // namespace

TEST(Dma, OneDimensionalCopyTakesTheTimeItsParametersGive) {
  avp::test::use_ideal_memory();
  CmpBench t;
  std::vector<uint8_t> src(4096);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7);
  ASSERT_TRUE(t.p.device_port.write_debug(t.dram(0x10000), src.data(), src.size()));
  uint64_t id = 0;
  tlm::tlm_response_status st = tlm::TLM_INCOMPLETE_RESPONSE;
  t.run([&] {
    Dma dma{t};
    id = dma.copy1d(t.dram(0x10000), t.dram(0x20000), 4096);
    st = dma.w(AVP_DMADONESEQ, id);
  });
  EXPECT_EQ(id, 1u);
  EXPECT_EQ(st, tlm::TLM_OK_RESPONSE);
  std::vector<uint8_t> dst(4096);
  ASSERT_TRUE(t.p.device_port.read_debug(t.dram(0x20000), dst.data(), dst.size()));
  EXPECT_EQ(dst, src);
  // setup 50 ns + DRAM read 50 ns + DRAM write 50 ns + 4096 B / 16 B/ns.
  auto* lat = dynamic_cast<const Histogram*>(StatRegistry::instance().find("dma.transfer_latency"));
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->mean(), 50 + 50 + 50 + 256);
}

TEST(Dma, BurstsOfBurstBytesEachPayTheMemoryLatency) {
  avp::test::use_ideal_memory();
  ParamRegistry::instance().add_preset("dma.burst_bytes", "1024", "test");
  ParamRegistry::instance().add_preset("dma.outstanding_bursts", "1", "test");  // one burst after the other
  CmpBench t;
  auto accesses = [] { return dynamic_cast<const Counter*>(StatRegistry::instance().find("bus.dram.accesses"))->value(); };
  const uint64_t before = accesses();
  t.run([&] {
    Dma dma{t};
    dma.w(AVP_DMADONESEQ, dma.copy1d(t.dram(0x10000), t.dram(0x20000), 4096));
  });
  EXPECT_EQ(accesses() - before, 8u);  // four 1 KiB reads and four 1 KiB writes
  // setup 50 ns + 4 x (DRAM read 50 ns + DRAM write 50 ns) + 4096 B / 16 B/ns.
  auto* lat = dynamic_cast<const Histogram*>(StatRegistry::instance().find("dma.transfer_latency"));
  ASSERT_NE(lat, nullptr);
  EXPECT_DOUBLE_EQ(lat->mean(), 50 + 4 * (50 + 50) + 256);
}

namespace {
// The mean transfer latency (ns) of 4 KiB in bursts of 1 KiB with `outstanding` bursts in flight.
double pipelined_latency(const char* outstanding) {
  avp::test::use_ideal_memory();
  ParamRegistry::instance().add_preset("dma.burst_bytes", "1024", "test");
  ParamRegistry::instance().add_preset("dma.outstanding_bursts", outstanding, "test");
  CmpBench t;
  t.run([&] {
    Dma dma{t};
    dma.w(AVP_DMADONESEQ, dma.copy1d(t.dram(0x10000), t.dram(0x20000), 4096));
  });
  return dynamic_cast<const Histogram*>(StatRegistry::instance().find("dma.transfer_latency"))->mean();
}
}  // namespace

// Per burst: read 50 ns, write 50 ns, the channel's 1024 / 16 = 64 ns. With
// two bursts in flight (the default) a read waits for the previous read and
// for the buffer of the burst two back: set-up 50, then bursts end at 214,
// 278, 378, 442.
TEST(Dma, TwoOutstandingBurstsOverlapAReadWithTheWritesBeforeIt) {
  EXPECT_DOUBLE_EQ(pipelined_latency("2"), 442);
}

// With four, the reads and writes hide behind the channel's own time: the
// first burst's read and write, then 4 x 64 ns, as one 4 KiB burst.
TEST(Dma, FourOutstandingBurstsLeaveTheChannelsOwnTime) {
  EXPECT_DOUBLE_EQ(pipelined_latency("4"), 50 + 50 + 50 + 4 * 64);
}

TEST(Dma, OutstandingBurstsMustBeFrom1To64) {
  ParamRegistry::instance().add_preset("dma.outstanding_bursts", "0", "test");  // one platform per process
  try {
    CmpBench t;
    ADD_FAILURE() << "dma.outstanding_bursts=0 accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("dma.outstanding_bursts = 0: must be 1..64"), std::string::npos) << e.what();
  }
}

TEST(Dma, BurstBytesMustBeAPowerOfTwoFrom64) {
  ParamRegistry::instance().add_preset("dma.burst_bytes", "1000", "test");  // one platform per process
  try {
    CmpBench t;
    ADD_FAILURE() << "dma.burst_bytes=1000 accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("dma.burst_bytes = 1000: must be a power of two in 64..65536"), std::string::npos)
        << e.what();
  }
}

TEST(Dma, TextTraceHasOneLinePerTransferWithItsFields) {
  avp::test::use_ideal_memory();
  CmpBench t;
  TextTraceOptions opt;
  opt.categories = kTraceDma;
  TextTrace::instance().open("dma_trace.log", opt);
  t.run([&] {
    Dma dma{t};
    dma.w(AVP_DMADONESEQ, dma.copy1d(t.dram(0x10000), t.dram(0x20000), 4096));
  });
  TextTrace::instance().close();
  std::ifstream f("dma_trace.log");
  std::string line, rest;
  ASSERT_TRUE(std::getline(f, line));
  EXPECT_FALSE(std::getline(f, rest)) << rest;
  char want[256];
  std::snprintf(want, sizeof want,
                "           8.000 ns  dma.ch0    dma host #1 src 0x%llx dst 0x%llx size 4096x1x1 strides src 4096,4096 "
                "dst 4096,4096 took 406 ns",
                static_cast<unsigned long long>(t.dram(0x10000)), static_cast<unsigned long long>(t.dram(0x20000)));
  EXPECT_EQ(line, want);  // starts after the register writes that set it up (8 ns)
}

TEST(Dma, TwoDimensionalSourceStrideZeroReplicatesOneRow) {
  CmpBench t;
  const uint64_t row[2] = {0x1111222233334444ull, 0x5555666677778888ull};
  ASSERT_TRUE(t.p.device_port.write_debug(t.dram(0x10000), row, 16));
  t.run([&] {
    Dma dma{t};
    dma.w(AVP_DMASRCADDR, t.dram(0x10000));
    dma.w(AVP_DMADSTADDR, 0x1800'0000);  // TCDM, global view
    dma.w(AVP_DMAXFERSIZE0, 16);
    dma.w(AVP_DMAXFERSIZE1, 4);
    dma.w(AVP_DMAXFERSRCSTRIDE0, 0);
    dma.w(AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(2) | AVP_DMACTRL_SRC_STRIDE);
    EXPECT_EQ(dma.w(AVP_DMADONESEQ, dma.r(AVP_DMASTARTSEQ)), tlm::TLM_OK_RESPONSE);
  });
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(t.peek(0x1800'0000 + 16 * r), row[0]);
    EXPECT_EQ(t.peek(0x1800'0000 + 16 * r + 8), row[1]);
  }
}

TEST(Dma, ZeroDimensionsAndOverlapFailTheTransferAndTheWaiterSeesIt) {
  CmpBench t;
  unsigned errors_signalled = 0;
  t.p.dma.irq.bind([&](uint32_t) { ++errors_signalled; });
  tlm::tlm_response_status zero = tlm::TLM_OK_RESPONSE, overlap = tlm::TLM_OK_RESPONSE;
  uint64_t status = 0;
  t.run([&] {
    Dma dma{t};
    const uint64_t id = dma.copy1d(t.dram(0), t.dram(0x100), 0);
    zero = dma.w(AVP_DMADONESEQ, id);
    status = dma.r(AVP_DMASTATUS);
    dma.w(AVP_DMASTATUS, 1);
    const uint64_t id2 = dma.copy1d(t.dram(0), t.dram(0x80), 0x100);
    overlap = dma.w(AVP_DMADONESEQ, id2);
  });
  EXPECT_EQ(zero, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(overlap, tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(status, 1u | (1ull << 32));
  EXPECT_EQ(errors_signalled, 2u);
}

TEST(Dma, TransferIdsArePerUnit) {
  CmpBench t;
  uint64_t host_ids[2] = {}, hart_id = 0;
  t.run([&] {
    Dma dma{t};
    host_ids[0] = dma.copy1d(t.dram(0), t.dram(0x1000), 8);
    host_ids[1] = dma.copy1d(t.dram(0), t.dram(0x2000), 8);
    tlm::tlm_generic_payload gp;
    set_unit(gp, make_unit(UnitKind::Hart, 3), 0);
    uint64_t v = 0;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(AVP_DMA_BASE + AVP_DMASTARTSEQ);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(8);
    gp.set_streaming_width(8);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    t.p.device_port.socket->b_transport(gp, d);
    hart_id = v;
    dma.w(AVP_DMADONESEQ, host_ids[1]);
  });
  EXPECT_EQ(host_ids[0], 1u);
  EXPECT_EQ(host_ids[1], 2u);
  EXPECT_EQ(hart_id, 0u);  // hart 3 has started nothing
}

TEST(Dma, ChannelsCompleteOutOfOrderAndDoneSeqRetiresInOrder) {
  CmpBench t;
  uint64_t done_mid = 99, done_end = 0;
  t.run([&] {
    Dma dma{t};
    dma.copy1d(t.dram(0), t.dram(0x100000), 64 * 1024);  // long, channel 0
    dma.copy1d(t.dram(0), t.dram(0x200000), 64);          // short, channel 1
    sc_core::wait(dma.d + sc_core::sc_time(500, sc_core::SC_NS));
    dma.d = sc_core::SC_ZERO_TIME;
    done_mid = dma.r(AVP_DMADONESEQ);  // #2 is done, #1 is not: nothing retires yet
    dma.w(AVP_DMADONESEQ, 2);
    done_end = dma.r(AVP_DMADONESEQ);
  });
  EXPECT_EQ(done_mid, 0u);
  EXPECT_EQ(done_end, 2u);
  auto* transfers = dynamic_cast<const Counter*>(StatRegistry::instance().find("dma.transfers"));
  EXPECT_EQ(transfers->value(), 2u);
}

// The register framework's misuse rules (regs/register_block.h) and per-unit
// banks: one unit's DMASRCADDR is not another's.
TEST(Dma, RegisterMisuseAndPerUnitRegisterSets) {
  CmpBench t;
  t.run([&] {
    Dma dma{t};
    EXPECT_EQ(dma.w(AVP_DMASTARTSEQ, 5), tlm::TLM_COMMAND_ERROR_RESPONSE);  // read-only
    EXPECT_EQ(dma.r(AVP_DMASTARTSEQ), 0u);
    EXPECT_EQ(dma.w(AVP_DMASTATUS + 8, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // no register there
    uint16_t part = 0;
    EXPECT_EQ(t.p.device_port.read(AVP_DMA_BASE + AVP_DMASRCADDR, &part, 2, dma.d), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(dma.w(AVP_DMASRCADDR, 0x1234'5678'9ABC'DEF0), tlm::TLM_OK_RESPONSE);
    uint32_t high = 0;  // a 32-bit half of a 64-bit register is legal
    EXPECT_EQ(t.p.device_port.read(AVP_DMA_BASE + AVP_DMASRCADDR + 4, &high, 4, dma.d), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(high, 0x1234'5678u);
    EXPECT_EQ(dma.r(AVP_DMACTRL), 0u);
    dma.w(AVP_DMACTRL, AVP_DMACTRL_DIMS(2));  // no START: nothing starts, the value stays
    EXPECT_EQ(dma.r(AVP_DMACTRL), AVP_DMACTRL_DIMS(2));
    EXPECT_EQ(dma.r(AVP_DMASTARTSEQ), 0u);
    // Hart 3's set is its own.
    tlm::tlm_generic_payload gp;
    set_unit(gp, make_unit(UnitKind::Hart, 3), 0);
    uint64_t v = ~0ull;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(AVP_DMA_BASE + AVP_DMASRCADDR);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(8);
    gp.set_streaming_width(8);
    t.p.device_port.socket->b_transport(gp, dma.d);
    EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(dma.r(AVP_DMASRCADDR), 0x1234'5678'9ABC'DEF0u);
  });
}
