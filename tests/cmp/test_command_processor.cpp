// Command processor: register and memory commands, status and error reporting,
// the queue, windows and kernel dispatch errors.
#include <gtest/gtest.h>

#include <cstring>

#include "cmp/packet_decoder.h"
#include "cmp_fixture.h"

using namespace avp;
using avp::test::CmpBench;

TEST(CommandProcessor, RegisterAndMemoryCommands) {
  CmpBench t;
  CommandBuffer cb;
  cb.write_reg(AVP_CMP_SCRATCH, 0x1122334455667788ull)
      .store_reg(AVP_CMP_SCRATCH, t.dram(0x1000))
      .store_imm(static_cast<uint32_t>(t.dram(0x1008)), 42)
      .load_reg(AVP_CMP_STACK_TOP, t.dram(0x1008))
      .store_reg(AVP_CMP_STACK_TOP, t.dram(0x1010))
      .copy_mem(2, t.dram(0x1000), t.dram(0x2000), kCmpUnit)
      .finish();
  t.place(t.dram(0), cb);
  t.run([&] {
    ASSERT_TRUE(t.p.cmp.submit(t.dram(0), cb.size_bytes()));
    t.wait_idle();
  });
  EXPECT_EQ(t.p.cmp.completed_count(), 1u);
  EXPECT_EQ(t.p.cmp.status().error_code, 0u);
  EXPECT_EQ(t.peek(t.dram(0x1000)), 0x1122334455667788ull);
  EXPECT_EQ(t.peek(t.dram(0x1010)), 42u);
  EXPECT_EQ(t.peek(t.dram(0x2008)), 42u);
  EXPECT_EQ(t.count(8), 1u);  // CMDBUF_DONE
}

TEST(CommandProcessor, CopyMemReadsPerformanceCountersAsTheGivenHart) {
  CmpBench t;
  CommandBuffer cb;
  cb.copy_mem(1, 0x2010'0000, t.dram(0x3000), make_unit(UnitKind::Hart, 2)).copy_mem(1, 0x2010'0100, t.dram(0x3008), kCmpUnit).finish();
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  EXPECT_EQ(t.p.cmp.status().error_code, 0u);
  EXPECT_EQ(t.p.cmp.completed_count(), 1u);
}

TEST(CommandProcessor, AFailingBufferReportsOffsetAndOpcodeAndTheNextStillRuns) {
  CmpBench t;
  CommandBuffer bad, good;
  bad.write_reg(0, 1).raw(AVP_CMP_HEADER(AVP_CMP_WRITE_REG64, 1, 41)).raw(0).finish();
  good.write_reg(0, 7).store_reg(0, t.dram(0x4000)).finish();
  t.place(t.dram(0), bad);
  t.place(t.dram(0x100), good);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), bad.size_bytes());
    t.p.cmp.submit(t.dram(0x100), good.size_bytes());
    t.wait_idle();
  });
  const CmpStatusWord s = t.p.cmp.status();
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_BAD_REGISTER);
  EXPECT_EQ(s.error_offset, 16u);
  EXPECT_EQ(s.error_info & 0xFF, AVP_CMP_WRITE_REG64);
  EXPECT_EQ(t.p.cmp.completed_count(), 1u);
  EXPECT_EQ(t.peek(t.dram(0x4000)), 7u);
  EXPECT_EQ(t.count(9), 1u);  // CMP_ERROR
}

TEST(CommandProcessor, MissingFinishIsAnError) {
  CmpBench t;
  CommandBuffer cb;
  cb.write_reg(0, 1).write_reg(0, 2);
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  EXPECT_EQ(t.p.cmp.status().error_code, AVP_CMP_ERR_NO_FINISH);
  EXPECT_EQ(t.p.cmp.status().error_offset, 32u);
}

TEST(CommandProcessor, TruncatedPacket) {
  CmpBench t;
  CommandBuffer cb;
  cb.write_reg(0, 1).raw(AVP_CMP_HEADER(AVP_CMP_COPY_MEM64, 3, 1)).raw(0);
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  EXPECT_EQ(t.p.cmp.status().error_code, AVP_CMP_ERR_TRUNCATED);
  EXPECT_EQ(t.p.cmp.status().error_offset, 16u);
}

// A packet that fails to fetch or decode reports its error after the time it
// took (the fetch and decode latencies), as one that executes does.
TEST(CommandProcessor, AFailedPacketRaisesItsErrorAfterItsFetchAndDecodeTime) {
  CmpBench t;
  t.p.cmp.fetch_latency.set(sc_core::sc_time(1, sc_core::SC_US));
  t.p.cmp.decode_latency.set(sc_core::sc_time(1, sc_core::SC_US));
  CommandBuffer truncated, good;
  truncated.raw(AVP_CMP_HEADER(AVP_CMP_COPY_MEM64, 3, 1)).raw(0);  // a decode error at offset 0
  good.finish();
  t.place(t.dram(0), truncated);
  t.place(t.dram(0x100), good);
  sc_core::sc_time failed, unfetched, finished;
  t.run([&] {
    t.p.cmp.submit(t.dram(0), truncated.size_bytes());
    t.wait_idle();
    failed = sc_core::sc_time_stamp();
    t.p.cmp.submit(0x0000'0800, 8);  // unmapped: the header fetch fails
    t.wait_idle();
    unfetched = sc_core::sc_time_stamp() - failed;
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    t.p.cmp.submit(t.dram(0x100), good.size_bytes());
    t.wait_idle();
    finished = sc_core::sc_time_stamp() - start;
  });
  EXPECT_EQ(t.p.cmp.status().error_code, AVP_CMP_ERR_MEMORY);
  EXPECT_EQ(t.count(9), 2u);  // CMP_ERROR
  EXPECT_GE(failed, sc_core::sc_time(3, sc_core::SC_US));     // header and body fetches, at least one decode cycle
  EXPECT_GE(unfetched, sc_core::sc_time(1, sc_core::SC_US));  // the header fetch
  EXPECT_GE(finished, sc_core::sc_time(2, sc_core::SC_US));   // FINISH: fetch and decode (negative control)
}

TEST(CommandProcessor, UnmappedAddressesAreMemoryErrors) {
  CmpBench t;
  CommandBuffer a, b;
  a.store_imm(0x0000'0800, 1).finish();                            // unmapped
  b.copy_mem(1, t.dram(0), 0x0000'0800, kCmpUnit).finish();        // unmapped destination
  t.place(t.dram(0), a);
  t.place(t.dram(0x100), b);
  std::vector<unsigned> errors;
  t.run([&] {
    t.p.cmp.submit(t.dram(0), a.size_bytes());
    t.wait_idle();
    errors.push_back(t.p.cmp.status().error_code);
    t.p.cmp.submit(t.dram(0x100), b.size_bytes());
    t.wait_idle();
    errors.push_back(t.p.cmp.status().error_code);
  });
  EXPECT_EQ(errors, (std::vector<unsigned>{AVP_CMP_ERR_MEMORY, AVP_CMP_ERR_MEMORY}));
}

// The seed asks only that the addresses be accessible: any alignment works.
TEST(CommandProcessor, UnalignedAddressesAreAcceptedWhenAccessible) {
  CmpBench t;
  CommandBuffer cb;
  cb.store_imm(static_cast<uint32_t>(t.dram(0x1004)), 0x1122334455667788ull)
      .load_reg(AVP_CMP_SCRATCH, t.dram(0x1004))
      .store_reg(AVP_CMP_SCRATCH, t.dram(0x2003))
      .copy_mem(2, t.dram(0x1002), t.dram(0x3001), kCmpUnit)
      .finish();
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  EXPECT_EQ(t.p.cmp.status().error_code, 0u) << cmp_error_name(t.p.cmp.status().error_code);
  EXPECT_EQ(t.p.cmp.completed_count(), 1u);
  uint8_t bytes[16] = {};
  ASSERT_TRUE(t.p.device_port.read_debug(t.dram(0x2003), bytes, 8));
  uint64_t v = 0;
  std::memcpy(&v, bytes, 8);
  EXPECT_EQ(v, 0x1122334455667788ull);
  uint8_t src[16] = {}, dst[16] = {};
  ASSERT_TRUE(t.p.device_port.read_debug(t.dram(0x1002), src, 16));
  ASSERT_TRUE(t.p.device_port.read_debug(t.dram(0x3001), dst, 16));
  EXPECT_EQ(std::memcmp(src, dst, 16), 0);
}

TEST(CommandProcessor, FullQueueRefusesWithoutDroppingQueuedBuffers) {
  CmpBench t;
  CommandBuffer cb;
  cb.finish();
  t.place(t.dram(0), cb);
  bool refused = false;
  t.run([&] {
    for (int i = 0; i < 16; ++i) ASSERT_TRUE(t.p.cmp.submit(t.dram(0), cb.size_bytes()));
    refused = !t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  EXPECT_TRUE(refused);
  EXPECT_EQ(t.p.cmp.completed_count(), 16u);
  EXPECT_EQ(t.count(10), 1u);  // CMP_QUEUE_FULL
}

TEST(CommandProcessor, WindowsOntoNothingOrOntoAWindowAreRefused) {
  CmpBench t;
  CommandBuffer a, b;
  a.window(0, 0x10'0000, 0x0800'0000'0000ull, 0x1000, AVP_CMP_WIN_SHARED, 7).finish();
  b.window(1, 0x20'0000, t.dram(0), 0x1000, AVP_CMP_WIN_SHARED, 7).window(2, 0x30'0000, 0x20'0000, 0x1000, AVP_CMP_WIN_SHARED, 7).finish();
  t.place(t.dram(0x1000), a);
  t.place(t.dram(0x2000), b);
  std::vector<unsigned> errors;
  t.run([&] {
    t.p.cmp.submit(t.dram(0x1000), a.size_bytes());
    t.wait_idle();
    errors.push_back(t.p.cmp.status().error_code);
    t.p.cmp.submit(t.dram(0x2000), b.size_bytes());
    t.wait_idle();
    errors.push_back(t.p.cmp.status().error_code);
  });
  EXPECT_EQ(errors, (std::vector<unsigned>{AVP_CMP_ERR_BAD_WINDOW, AVP_CMP_ERR_BAD_WINDOW}));
  EXPECT_FALSE(t.p.windows.window(0).active());
  EXPECT_TRUE(t.p.windows.window(1).active());
  EXPECT_FALSE(t.p.windows.window(2).active());
}

TEST(CommandProcessor, PerHartWindowGivesEachHartItsOwnTarget) {
  CmpBench t;
  CommandBuffer cb;
  cb.window(3, 0x1400'0000, t.dram(0x10'0000), 0x100, AVP_CMP_WIN_PER_HART, 3, AVP_CMP_WIN_SCALE(9, 0)).finish();  // 256 B per hart
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  ASSERT_EQ(t.p.cmp.status().error_code, 0u);
  for (unsigned h : {0u, 5u}) {
    tlm::tlm_generic_payload gp;
    set_unit(gp, make_unit(UnitKind::Hart, h), h / 4);
    gp.set_address(0x1400'0010);
    gp.set_data_length(8);
    uint64_t eff = 0;
    const WindowUnit::Window* w = nullptr;
    ASSERT_TRUE(t.p.windows.translate(gp, true, eff, &w));
    EXPECT_EQ(eff, t.dram(0x10'0000) + 256 * h + 0x10);
  }
  tlm::tlm_generic_payload host;
  set_unit(host, kHostUnit);
  host.set_address(0x1400'0010);
  host.set_data_length(8);
  uint64_t eff = 0;
  const WindowUnit::Window* w = nullptr;
  EXPECT_FALSE(t.p.windows.translate(host, false, eff, &w));  // no per-hart view for the host
}

TEST(CommandProcessor, MaxHartsBeyondThePlatformIsAnError) {
  CmpBench t;
  CommandBuffer cb;
  cb.run_instances(9, 1, {}).finish();
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  EXPECT_EQ(t.p.cmp.status().error_code, AVP_CMP_ERR_MAX_HARTS);
}

TEST(CommandProcessor, AKernelTrapIsReportedWithHartPcAndCause) {
  CmpBench t;
  CommandBuffer cb;
  cb.write_reg(AVP_CMP_ENTRY_PT_FN, 0x0000'0800).write_reg(AVP_CMP_RETURN_ADDR, 0x1000).run_instances(1, 1, {}).finish();
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  const CmpStatusWord s = t.p.cmp.status();
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_KERNEL_TRAP);
  EXPECT_EQ(s.error_cause, 1u);  // instruction access fault
  EXPECT_EQ(s.error_pc, 0x800u);
  EXPECT_TRUE(s.error_info & (1u << 31));
  EXPECT_EQ((s.error_info >> 8) & 0xFFFF, 0u);
}

TEST(CommandProcessor, RegisterMirrorIsReadOnly) {
  CmpBench t;
  uint64_t v = 5;
  t.run([&] {
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    // The register framework's misuse rules (regs/register_block.h).
    EXPECT_EQ(t.p.device_port.write(0x2000'0000, &v, 8, d), tlm::TLM_COMMAND_ERROR_RESPONSE);
    uint16_t part = 0;
    EXPECT_EQ(t.p.device_port.read(0x2000'0000 + AVP_CMP_MIRROR_STATUS, &part, 2, d), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(t.p.device_port.read(0x2000'0000 + AVP_CMP_MIRROR_DONE_COUNT + 8, &v, 8, d), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(t.p.device_port.read(0x2000'0000 + AVP_CMP_MIRROR_DONE_COUNT, &v, 8, d), tlm::TLM_OK_RESPONSE);
  });
  EXPECT_EQ(v, 0u);
}
