// Bounded operations and windows that are errors: COPY_MEM64 and DMA sizes
// above their documented limits fail at once with the device's error, windows
// that overlap or lie outside the window ranges are refused with a message that
// says so, and status reports name an exit code as an exit code.
#include <gtest/gtest.h>

#include "base/params.h"
#include "cmp/packet_decoder.h"
#include "cmp_fixture.h"
#include "dma/dma_regs.h"

using namespace avp;
using avp::test::CmpBench;

namespace {

constexpr unsigned kCmpError = 9;

CmpStatusWord run(CmpBench& t, const CommandBuffer& cb) {
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  return t.p.cmp.status();
}

}  // namespace

TEST(CmpLimits, CopyMem64AboveTheLimitFailsWithoutCopying) {
  CmpBench t;
  CommandBuffer cb;
  cb.copy_mem(0xFFFF'FFFFu, t.dram(0x10000), t.dram(0x20000), kCmpUnit).finish();  // 2^32 - 1 elements
  t.poke(t.dram(0x10000), 5);
  const CmpStatusWord s = run(t, cb);
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_TOO_LARGE) << cmp_error_name(s.error_code);
  EXPECT_EQ(s.error_info & 0xFF, AVP_CMP_COPY_MEM64);
  EXPECT_EQ(t.peek(t.dram(0x20000)), 0u);  // nothing copied
  EXPECT_EQ(t.count(kCmpError), 1u);
  EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_US));
}

TEST(CmpLimits, CopyMem64AtTheLimitCopies) {
  ParamRegistry::instance().add_preset("cmp.max_copy_elements", "16", "test");
  CmpBench t;
  for (unsigned i = 0; i < 17; ++i) t.poke(t.dram(0x10000 + 8 * i), i + 1);
  CommandBuffer ok, over;
  ok.copy_mem(16, t.dram(0x10000), t.dram(0x20000), kCmpUnit).finish();
  const CmpStatusWord s = run(t, ok);
  EXPECT_EQ(s.error_code, 0u);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(t.peek(t.dram(0x20000 + 8 * i)), i + 1u);
  EXPECT_EQ(t.peek(t.dram(0x20000 + 8 * 16)), 0u);
}

TEST(CmpLimits, CopyMem64OneAboveTheLimitIsRefused) {
  ParamRegistry::instance().add_preset("cmp.max_copy_elements", "16", "test");
  CmpBench t;
  CommandBuffer over;
  over.copy_mem(17, t.dram(0x10000), t.dram(0x20000), kCmpUnit).finish();
  EXPECT_EQ(run(t, over).error_code, AVP_CMP_ERR_TOO_LARGE);
}

// A DMA of 8 bytes x 2^32 rows x 2^32 planes with source stride 0 (a fill)
// would never end: it fails at once with DMASTATUS, the DMA_ERROR interrupt,
// and a waiting command buffer fails with AVP_CMP_ERR_DMA naming the DMA.
TEST(CmpLimits, AHugeDmaFailsAtOnceAndTheWaitingBufferReportsTheDma) {
  CmpBench t;
  unsigned dma_errors = 0;
  t.p.dma.irq.bind([&](uint32_t) { ++dma_errors; });
  const uint32_t dma = AVP_DMA_BASE;
  CommandBuffer cb;
  cb.store_imm(dma + AVP_DMASRCADDR, t.dram(0x10000))
      .store_imm(dma + AVP_DMADSTADDR, t.dram(0x20000))
      .store_imm(dma + AVP_DMAXFERSIZE0, 8)
      .store_imm(dma + AVP_DMAXFERSIZE1, 1ull << 32)
      .store_imm(dma + AVP_DMAXFERSIZE2, 1ull << 32)
      .store_imm(dma + AVP_DMAXFERSRCSTRIDE0, 0)
      .store_imm(dma + AVP_DMAXFERSRCSTRIDE1, 0)
      .store_imm(dma + AVP_DMAXFERDSTSTRIDE0, 8)
      .store_imm(dma + AVP_DMAXFERDSTSTRIDE1, 8ull << 32)
      .store_imm(dma + AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(3) | AVP_DMACTRL_SRC_STRIDE | AVP_DMACTRL_DST_STRIDE)
      .store_imm(dma + AVP_DMADONESEQ, 1)
      .finish();
  const CmpStatusWord s = run(t, cb);
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_DMA) << cmp_error_name(s.error_code);
  EXPECT_EQ(dma_errors, 1u);
  EXPECT_EQ(t.peek(t.dram(0x20000)), 0u);
  EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(10, sc_core::SC_US));
}

TEST(CmpLimits, ADmaAtTheLimitMoves) {
  ParamRegistry::instance().add_preset("dma.max_transfer_bytes", "4096", "test");
  CmpBench t;
  t.poke(t.dram(0x10000), 0x5A5A);
  const uint32_t dma = AVP_DMA_BASE;
  CommandBuffer cb;
  cb.store_imm(dma + AVP_DMASRCADDR, t.dram(0x10000))
      .store_imm(dma + AVP_DMADSTADDR, t.dram(0x20000))
      .store_imm(dma + AVP_DMAXFERSIZE0, 8)
      .store_imm(dma + AVP_DMAXFERSIZE1, 512)  // 8 x 512 = 4096 bytes: a fill from stride 0
      .store_imm(dma + AVP_DMAXFERSRCSTRIDE0, 0)
      .store_imm(dma + AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(2) | AVP_DMACTRL_SRC_STRIDE)
      .store_imm(dma + AVP_DMADONESEQ, 1)
      .store_imm(dma + AVP_DMAXFERSIZE1, 513)  // one row more
      .store_imm(dma + AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(2) | AVP_DMACTRL_SRC_STRIDE)
      .store_imm(dma + AVP_DMADONESEQ, 2)
      .finish();
  const CmpStatusWord s = run(t, cb);
  EXPECT_EQ(t.peek(t.dram(0x20000 + 4088)), 0x5A5Au);  // the first moved
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_DMA);             // the second did not
  EXPECT_EQ(s.error_offset, 9u * 16);
}

namespace {
std::string window_error(CmpBench& t, const CommandBuffer& cb) {
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  const CmpStatusWord s = run(t, cb);
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_BAD_WINDOW) << cmp_error_name(s.error_code);
  return out;
}
}  // namespace

TEST(CmpWindows, OverlappingWindowRangesAreRefused) {
  CmpBench t;
  CommandBuffer cb;
  cb.window(0, 0x10'0000, t.dram(0), 0x2000, AVP_CMP_WIN_SHARED, 7)
      .window(1, 0x10'1000, t.dram(0x10000), 0x1000, AVP_CMP_WIN_SHARED, 7)
      .finish();
  const std::string out = window_error(t, cb);
  EXPECT_NE(out.find("overlaps window 0"), std::string::npos) << out;
  EXPECT_TRUE(t.p.windows.window(0).active());
  EXPECT_FALSE(t.p.windows.window(1).active());
}

TEST(CmpWindows, AWindowOutsideTheWindowRangesIsRefused) {
  CmpBench t;
  CommandBuffer cb;  // 0x1000_0000 is the core-local TCDM view, not a window range
  cb.window(0, 0x1000'0000, t.dram(0), 0x1000, AVP_CMP_WIN_SHARED, 7).finish();
  const std::string out = window_error(t, cb);
  EXPECT_NE(out.find("not inside one window range"), std::string::npos) << out;
}

TEST(CmpWindows, AFourGibWindowIsReportedAsOutsideTheRangesNotAsLyingInItself) {
  CmpBench t;
  CommandBuffer cb;
  cb.window(0, 0x1'0000, t.dram(0), 1ull << 32, AVP_CMP_WIN_SHARED, 7).finish();
  const std::string out = window_error(t, cb);
  EXPECT_EQ(out.find("lies in window 0"), std::string::npos) << out;
  EXPECT_NE(out.find("not inside one window range"), std::string::npos) << out;
}

TEST(CmpStatus, AnExitCodeIsReportedAsAnExitCodeNotAsACause) {
  const uint32_t info = AVP_CMP_RUN_INSTANCES | 3u << 8 | 1u << 31;
  const std::string exit = cmp_error_detail(AVP_CMP_ERR_KERNEL_EXIT, info, 0x4000'0010, 5);
  EXPECT_NE(exit.find("exit code 5"), std::string::npos) << exit;
  EXPECT_EQ(exit.find("cause"), std::string::npos) << exit;
  const std::string trap = cmp_error_detail(AVP_CMP_ERR_KERNEL_TRAP, info, 0x4000'0010, 5);
  EXPECT_NE(trap.find("hart 3"), std::string::npos) << trap;
  EXPECT_NE(trap.find("trap cause 5"), std::string::npos) << trap;
  EXPECT_STRNE(cmp_error_name(AVP_CMP_ERR_KERNEL_TIMEOUT), cmp_error_name(AVP_CMP_ERR_KERNEL_LIMIT));
}
