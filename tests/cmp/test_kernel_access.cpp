// What a kernel may reach: instruction fetch through a window needs X, the KUB
// is read-only to kernels, default stacks and KTB copies follow a moved TCDM,
// and a kernel entry of 0 is a reported trap.
#include <gtest/gtest.h>

#include "base/params.h"
#include "cmp_fixture.h"
#include "rv_asm.h"

using namespace avp;
using avp::test::CmpBench;
namespace rva = avp::test::rv;

namespace {

CmpStatusWord run(CmpBench& t, const CommandBuffer& cb) {
  t.place(t.dram(0), cb);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), cb.size_bytes());
    t.wait_idle();
  });
  return t.p.cmp.status();
}

// Kernel code at a window address: the window (RW or RWX) maps DRAM where the code is.
CmpStatusWord run_through_window(CmpBench& t, unsigned perms) {
  const uint64_t code = t.dram(0x10000), result = t.dram(0x20000);
  t.put_code(code, {rva::sd(rva::a1, rva::a1, 0), rva::ret()});  // stores its argument: it ran
  CommandBuffer cb;
  cb.window(0, 0x10'0000, code, 0x1000, AVP_CMP_WIN_SHARED, perms)
      .write_reg(AVP_CMP_ENTRY_PT_FN, 0x10'0000)
      .write_reg(AVP_CMP_RETURN_ADDR, 0x1000)
      .run_instances(1, 1, {result})
      .finish();
  return run(t, cb);
}

}  // namespace

TEST(KernelAccess, InstructionFetchThroughAWindowNeedsExecutePermission) {
  CmpBench t;
  const CmpStatusWord s = run_through_window(t, AVP_CMP_WIN_PERM_R >> 4 | AVP_CMP_WIN_PERM_W >> 4);  // RW, no X
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_KERNEL_TRAP);
  EXPECT_EQ(s.error_cause, 1u);  // instruction access fault
  EXPECT_EQ(s.error_pc, 0x10'0000u);
  EXPECT_EQ(t.peek(t.dram(0x20000)), 0u);  // the code never ran
}

TEST(KernelAccess, InstructionFetchThroughAnExecutableWindowRuns) {
  CmpBench t;
  const CmpStatusWord s = run_through_window(t, 7);  // RWX
  EXPECT_EQ(s.error_code, 0u);
  EXPECT_EQ(t.peek(t.dram(0x20000)), t.dram(0x20000));
}

TEST(KernelAccess, ExecuteOnlyWindowRunsCodeButRefusesDataReads) {
  CmpBench t;
  const uint64_t code = t.dram(0x10000), result = t.dram(0x20000);
  // Reads its own first instruction through the window: a load access fault.
  t.put_code(code, {rva::ld(rva::t0, rva::a1, 0), rva::ret()});
  CommandBuffer cb;
  cb.window(0, 0x10'0000, code, 0x1000, AVP_CMP_WIN_SHARED, AVP_CMP_WIN_PERM_X >> 4)
      .write_reg(AVP_CMP_ENTRY_PT_FN, 0x10'0000)
      .write_reg(AVP_CMP_RETURN_ADDR, 0x1000)
      .run_instances(1, 1, {0x10'0000})
      .finish();
  const CmpStatusWord s = run(t, cb);
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_KERNEL_TRAP);
  EXPECT_EQ(s.error_cause, 5u);  // load access fault: the fetch worked, the data read did not
  (void)result;
}

namespace {
// RUN_KERNEL_SLICE with a 512-byte KUB at DRAM + 0x30000: kernel arguments at
// offset 0x40, thread-specific data (16 bytes) at offset 0x100.
CommandBuffer slice_buffer(CmpBench& t, uint64_t entry, uint64_t slice_id) {
  const uint64_t kub = t.dram(0x30000);
  CommandBuffer cb;
  cb.write_reg(AVP_CMP_KUB_DESC, kub | (512ull / 256) << 48)
      .write_reg(AVP_CMP_KARGS_INFO, 0x40ull << 16 | 16ull << 40)
      .write_reg(AVP_CMP_TSD_INFO, 0x100ull << 16 | 16ull << 40)
      .write_reg(AVP_CMP_ENTRY_PT_FN, entry)
      .write_reg(AVP_CMP_RETURN_ADDR, 0x1000)
      .run_kernel_slice(1, 1, slice_id)
      .finish();
  return cb;
}
}  // namespace

TEST(KernelAccess, AStoreIntoTheKubIsAStoreAccessFaultReportedWithTheInstance) {
  CmpBench t;
  t.poke(t.dram(0x30040), 0x1234);
  t.put_code(t.dram(0x10000), {rva::sd(rva::zero, rva::a2, 0), rva::ret()});  // a2 = KUB + KARGS offset
  const CmpStatusWord s = run(t, slice_buffer(t, t.dram(0x10000), 0));
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_KERNEL_TRAP);
  EXPECT_EQ(s.error_cause, 7u);  // store/AMO access fault
  EXPECT_TRUE(s.error_info & (1u << 31));
  EXPECT_EQ(t.peek(t.dram(0x30040)), 0x1234u);  // the KUB is unchanged
}

TEST(KernelAccess, TheKubCanBeReadAndMemoryNextToItWritten) {
  CmpBench t;
  t.poke(t.dram(0x30040), 0x1234);
  const uint64_t after_kub = t.dram(0x30000 + 512), before_kub = t.dram(0x30000 - 8);
  // a1 = SLICE_ID: writes the argument read from the KUB just after the KUB and just before it.
  t.put_code(t.dram(0x10000), {rva::ld(rva::t0, rva::a2, 0), rva::sd(rva::t0, rva::a1, 0),
                               rva::sd(rva::t0, rva::a1, -512 - 8), rva::ret()});
  const CmpStatusWord s = run(t, slice_buffer(t, t.dram(0x10000), after_kub));
  EXPECT_EQ(s.error_code, 0u);
  EXPECT_EQ(t.peek(after_kub), 0x1234u);
  EXPECT_EQ(t.peek(before_kub), 0x1234u);
}

TEST(KernelAccess, DefaultStacksAndKtbCopiesFollowAMovedTcdm) {
  ParamRegistry::instance().add_preset("bus.tcdm.base", "0x19000000", "test");
  CmpBench t;
  ASSERT_EQ(t.p.tcdm_global_base(), 0x1900'0000u);
  const uint64_t result = t.dram(0x20000);
  // Instance i stores its sp at result + 8 i.
  t.put_code(t.dram(0x10000), {rva::slli(rva::t0, rva::a0, 3), rva::add(rva::t0, rva::t0, rva::a1), rva::sd(rva::sp, rva::t0, 0), rva::ret()});
  CommandBuffer cb;
  cb.write_reg(AVP_CMP_ENTRY_PT_FN, t.dram(0x10000)).write_reg(AVP_CMP_RETURN_ADDR, 0x1000).run_instances(8, 8, {result}).finish();
  ASSERT_EQ(run(t, cb).error_code, 0u);
  const uint64_t slice = (4ull << 20) / 4;  // 4 MiB per core, 4 harts per core
  for (unsigned h = 0; h < 8; ++h) EXPECT_EQ(t.peek(result + 8 * h), 0x1900'0000u + h * slice + slice) << "hart " << h;
}

TEST(KernelAccess, KtbCopiesFollowAMovedTcdm) {
  ParamRegistry::instance().add_preset("bus.tcdm.base", "0x19000000", "test");
  CmpBench t;
  t.poke(t.dram(0x30100), 0xABCD);  // the thread-specific data
  const uint64_t result = t.dram(0x20000);
  // a3 = the KTB: stores its address and its first word.
  t.put_code(t.dram(0x10000), {rva::sd(rva::a3, rva::a1, 0), rva::ld(rva::t0, rva::a3, 0), rva::sd(rva::t0, rva::a1, 8), rva::ret()});
  const CmpStatusWord s = run(t, slice_buffer(t, t.dram(0x10000), result));
  ASSERT_EQ(s.error_code, 0u);
  EXPECT_EQ(t.peek(result), 0x1900'0000u);  // bottom of hart 0's slice
  EXPECT_EQ(t.peek(result + 8), 0xABCDu);
}

TEST(KernelAccess, KernelEntryZeroIsAnInstructionAccessFaultAtPcZero) {
  CmpBench t;
  CommandBuffer cb;
  cb.write_reg(AVP_CMP_ENTRY_PT_FN, 0).write_reg(AVP_CMP_RETURN_ADDR, 0x1000).run_instances(1, 1, {}).finish();
  const CmpStatusWord s = run(t, cb);
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_KERNEL_TRAP);
  EXPECT_EQ(s.error_cause, 1u);
  EXPECT_EQ(s.error_pc, 0u);
}
