// The kernel watchdog (platform.md section 3: a kernel exceeding the time limit
// fails the command) covers running instances: an endless loop or a WFI with
// nothing to wake it fails its buffer with a timeout naming instance and hart,
// raises CMP_ERROR, stops the harts, and the next buffer runs. Also: a new
// launch leaves the instruction history of harts still running alone.
#include <gtest/gtest.h>

#include "base/params.h"
#include "cmp/packet_decoder.h"
#include "cmp_fixture.h"
#include "rv_asm.h"

using namespace avp;
using avp::test::CmpBench;
namespace rva = avp::test::rv;

namespace {

constexpr unsigned kCmpError = 9;

// Runs `code` as a kernel of `instances` instances on `max_harts` harts, then a
// second buffer that stores 7; returns the status after both.
CmpStatusWord run_then_next(CmpBench& t, const std::vector<uint32_t>& code, unsigned max_harts, uint64_t instances) {
  const uint64_t entry = t.dram(0x10000);
  t.put_code(entry, code);
  CommandBuffer kernel, next;
  kernel.write_reg(AVP_CMP_ENTRY_PT_FN, entry).write_reg(AVP_CMP_RETURN_ADDR, 0x1000).run_instances(max_harts, instances, {}).finish();
  next.store_imm(static_cast<uint32_t>(t.dram(0x4000)), 7).finish();
  t.place(t.dram(0), kernel);
  t.place(t.dram(0x200), next);
  t.run([&] {
    t.p.cmp.submit(t.dram(0), kernel.size_bytes());
    t.p.cmp.submit(t.dram(0x200), next.size_bytes());
    t.wait_idle();
  });
  return t.p.cmp.status();
}

void expect_timeout_then_next_buffer(CmpBench& t, const CmpStatusWord& s, unsigned harts_used) {
  EXPECT_EQ(s.error_code, AVP_CMP_ERR_KERNEL_TIMEOUT) << cmp_error_name(s.error_code);
  EXPECT_TRUE(s.error_info & (1u << 31));           // names a hart ...
  EXPECT_EQ((s.error_info >> 8) & 0xFFFF, 0u);       // ... the first one still running
  EXPECT_EQ(s.error_info & 0xFF, AVP_CMP_RUN_INSTANCES);
  EXPECT_EQ(s.error_cause, 0u);                      // ... and its instance
  EXPECT_EQ(t.count(kCmpError), 1u);
  EXPECT_EQ(t.p.cmp.completed_count(), 1u);          // the next buffer ran
  EXPECT_EQ(t.peek(t.dram(0x4000)), 7u);
  for (unsigned h = 0; h < harts_used; ++h) EXPECT_TRUE(t.p.harts.hart_idle(h)) << "hart " << h << " still running";
  EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_MS));
}

}  // namespace

TEST(KernelWatchdog, AnEndlessLoopTimesOutNamingInstanceAndHart) {
  ParamRegistry::instance().add_preset("cmp.kernel_watchdog", "20 us", "test");
  ParamRegistry::instance().add_preset("harts.instruction_limit", "2000000", "test");  // 2 ms: after the watchdog
  CmpBench t;
  const CmpStatusWord s = run_then_next(t, {rva::j(0)}, 2, 3);
  expect_timeout_then_next_buffer(t, s, 2);
  EXPECT_EQ(std::string(cmp_error_name(s.error_code)), "kernel watchdog timeout");
  const std::string detail = cmp_error_detail(s.error_code, s.error_info, s.error_pc, s.error_cause);
  EXPECT_NE(detail.find("hart 0"), std::string::npos) << detail;
  EXPECT_NE(detail.find("instance 0"), std::string::npos) << detail;
}

TEST(KernelWatchdog, AWfiWithNothingToWakeItTimesOutInsteadOfStarving) {
  ParamRegistry::instance().add_preset("cmp.kernel_watchdog", "20 us", "test");
  CmpBench t;
  const CmpStatusWord s = run_then_next(t, {rva::wfi(), rva::j(-4)}, 4, 4);
  expect_timeout_then_next_buffer(t, s, 4);
}

TEST(KernelWatchdog, ZeroWithoutUnitDisablesIt) {
  ParamRegistry::instance().add_preset("cmp.kernel_watchdog", "0", "test");
  CmpBench t;
  EXPECT_EQ(t.p.cmp.kernel_watchdog.get(), sc_core::SC_ZERO_TIME);
  // About 6000 instructions: longer than the 1 us that times out below.
  const CmpStatusWord s = run_then_next(t, {rva::addi(rva::t0, rva::zero, 2000), rva::addi(rva::t0, rva::t0, -1),
                                            rva::bne(rva::t0, rva::zero, -4), rva::ret()}, 1, 1);
  EXPECT_EQ(s.error_code, 0u);
  EXPECT_EQ(t.p.cmp.completed_count(), 2u);
}

TEST(KernelWatchdog, AKernelLongerThanTheWatchdogTimesOut) {
  ParamRegistry::instance().add_preset("cmp.kernel_watchdog", "1 us", "test");
  CmpBench t;
  const CmpStatusWord s = run_then_next(t, {rva::addi(rva::t0, rva::zero, 2000), rva::addi(rva::t0, rva::t0, -1),
                                            rva::bne(rva::t0, rva::zero, -4), rva::ret()}, 1, 1);
  expect_timeout_then_next_buffer(t, s, 1);
}

TEST(KernelLaunch, ANewLaunchKeepsTheHistoryOfHartsStillRunning) {
  CmpBench t;
  const uint64_t entry = t.dram(0x10000);
  t.put_code(entry, {rva::addi(rva::t0, rva::t0, 1), rva::j(-4)});
  size_t before = 0, after = 0;
  unsigned stopped = 0;
  t.run([&] {
    HartLaunch l;
    l.pc = entry;
    l.ra = 0x1000;
    l.instruction_limit = 20000;
    auto done = [&](const HartExit&) { ++stopped; };
    t.p.harts.launch(0, l, done);
    sc_core::wait(2, sc_core::SC_US);  // hart 0 is running its loop
    before = t.p.harts.hart(0).history().last().size();
    t.p.harts.launch(1, l, done);
    after = t.p.harts.hart(0).history().last().size();
    while (stopped < 2) sc_core::wait(t.p.harts.hart_idle_event());
  });
  EXPECT_EQ(before, t.p.harts.history_length.get());
  EXPECT_EQ(after, before);
}
