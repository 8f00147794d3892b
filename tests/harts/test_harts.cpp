// ISS unit tests on the platform's hart cluster: kernel launch and exits,
// traps with their cause and tval, overloadable-opcode fallbacks and devices,
// LR/SC, misaligned policy, F/D corner cases, RVC, performance counters and
// ELF loading errors. The programs are in iss_programs.S.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "base/elf_loader.h"
#include "dma/dma_regs.h"
#include "harts/trap_report.h"
#include "platform/platform.h"

using namespace avp;

namespace {

constexpr uint64_t kReturnAddress = 0x4100'0000;  // no code there: jumping to it ends the instance

struct Bench {
  Platform p;
  ElfImage img;
  Bench() {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    img = load_elf(ISS_PROGRAMS, [&](uint64_t a, const void* d, uint64_t n) { return p.device_port.write_debug(a, d, n); });
    register_symbols(img);
  }
  const rv::HartState& regs(unsigned hart = 0) { return p.harts.hart(hart).state(); }
  HartExit run(const std::string& entry, unsigned hart = 0, uint64_t limit = 0, bool bare_metal = false) {
    HartLaunch l;
    l.pc = img.symbols.at(entry);
    l.ra = kReturnAddress;
    l.sp = p.tcdm_global_base() + 0x1000;
    l.instruction_limit = limit;
    HartExit exit;
    bool done = false;
    auto done_fn = [&](const HartExit& e) { exit = e, done = true; };
    if (bare_metal) p.harts.start_bare_metal(hart, l, done_fn);
    else p.harts.launch(hart, l, done_fn);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    EXPECT_TRUE(done) << entry << " did not finish";
    EXPECT_TRUE(p.harts.hart_idle(hart));
    return exit;
  }
  uint64_t a(int i, unsigned hart = 0) { return regs(hart).x[10 + i]; }
};

}  // namespace

TEST(Harts, ReturnsThroughRaWithArguments) {
  Bench b;
  HartExit e = b.run("add_one");
  EXPECT_EQ(e.kind, HartExitKind::Returned) << e.describe();
  EXPECT_EQ(e.instructions, 2u);
  EXPECT_EQ(b.a(0), 1u);  // a0 = 0 at launch, plus one
  EXPECT_EQ(e.describe(), "returned after 2 instructions");
}

TEST(Harts, EcallExitCarriesTheCode) {
  Bench b;
  HartExit e = b.run("exit42");
  EXPECT_EQ(e.kind, HartExitKind::Exit);
  EXPECT_EQ(e.code, 42u);
  EXPECT_EQ(e.describe(), "exit(42) after 2 instructions");  // the ECALL traps: it does not retire
}

TEST(Harts, EcallPrintGoesToTheConsole) {
  Bench b;
  EXPECT_EQ(b.run("print_hello", 3).kind, HartExitKind::Returned);
  ASSERT_EQ(b.p.harts.console().text().size(), 1u);
  EXPECT_EQ(b.p.harts.console().text()[0], "[hart3] hello from the hart");
  ASSERT_EQ(b.p.harts.console().lines().size(), 1u);
  const auto& line = b.p.harts.console().lines()[0];
  EXPECT_EQ(line.hart, 3u);
  EXPECT_EQ(line.text, "hello from the hart");
  EXPECT_GT(line.time, sc_core::SC_ZERO_TIME);  // after the launch and three instructions
}

TEST(Harts, InstructionLimitStopsARunawayLoop) {
  Bench b;
  HartExit e = b.run("spin", 0, 1000);
  EXPECT_EQ(e.kind, HartExitKind::Limit);
  EXPECT_EQ(e.instructions, 1000u);
  EXPECT_EQ(e.pc, b.img.symbols.at("spin"));
  EXPECT_NE(e.describe().find("instruction limit"), std::string::npos);
}

TEST(Harts, IllegalInstructionTrapsWithTheInstructionBits) {
  Bench b;
  HartExit e = b.run("illegal_op");
  EXPECT_EQ(e.kind, HartExitKind::Trap);
  EXPECT_EQ(e.cause, 2u);
  EXPECT_EQ(e.tval, 0x7Bu);
  EXPECT_EQ(e.pc, b.img.symbols.at("illegal_op") + 4);
  EXPECT_NE(e.describe().find("illegal instruction (cause 2)"), std::string::npos) << e.describe();
}

TEST(Harts, XextFallbackLunsReturnZeroAndMinusOne) {
  Bench b;
  HartExit e = b.run("xext_fallback");
  ASSERT_EQ(e.kind, HartExitKind::Returned) << e.describe();
  EXPECT_EQ(b.a(3), 1u);          // xext0 of an unknown uuid
  EXPECT_EQ(b.a(4), 2u);          // xextm1
  EXPECT_EQ(b.a(2), 0u);          // xext: lun 0, data bits 0
  EXPECT_EQ(b.a(0), 0u);          // xcmd0 on lun 1
  EXPECT_EQ(b.a(1), ~0ull);       // xcmd3 on lun 2
}

TEST(Harts, XcmdOnLunZeroIsIllegal) {
  Bench b;
  HartExit e = b.run("xcmd_lun0");
  EXPECT_EQ(e.kind, HartExitKind::Trap);
  EXPECT_EQ(e.cause, 2u);
  EXPECT_EQ(e.pc, b.img.symbols.at("xcmd_lun0") + 4);
  EXPECT_EQ(e.tval & 0x7F, 0x0Bu);       // custom-0
  EXPECT_EQ((e.tval >> 12) & 7, 5u);     // xcmd5
}

TEST(Harts, HartInfoDeviceThroughXintf) {
  Bench b;
  const unsigned hart = b.p.num_harts() - 1;
  HartExit e = b.run("hartinfo", hart);
  ASSERT_EQ(e.kind, HartExitKind::Returned) << e.describe();
  EXPECT_EQ(b.a(3, hart), 32u);  // default lun of uuid 0xACC01
  EXPECT_EQ(b.a(0, hart), hart);
  EXPECT_EQ(b.a(1, hart), hart / b.p.harts_per_core.get());
  EXPECT_EQ(b.a(2, hart), b.p.harts_per_core.get());
}

TEST(Harts, DelegationMretSretAndPrivilegeChecks) {
  Bench b;
  HartExit e = b.run("priv_delegation", 0, 0, true);
  ASSERT_EQ(e.kind, HartExitKind::Exit) << e.describe();
  EXPECT_EQ(e.code, 0u);
  const uint64_t user = b.img.symbols.at("user_code");
  EXPECT_EQ(b.a(1), 8u);            // scause: ECALL from U-mode, delegated
  EXPECT_EQ(b.a(2), user + 4);      // sepc
  EXPECT_EQ(b.a(5) & 0x100, 0u);    // sstatus.SPP = U
  EXPECT_EQ(b.a(3), 2u);            // mcause: illegal instruction (csrr mstatus from U)
  EXPECT_EQ(b.a(4), 0x30002573u);   // mtval = the instruction bits
  EXPECT_EQ(b.a(6), user + 8);      // mepc
}

TEST(Harts, WfiSleepsUntilAnInterrupt) {
  Bench b;
  HartLaunch l;
  l.pc = b.img.symbols.at("wfi_interrupt");
  HartExit exit;
  bool done = false;
  b.p.harts.start_bare_metal(0, l, [&](const HartExit& e) { exit = e, done = true; });
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  EXPECT_FALSE(done);
  EXPECT_LT(b.p.harts.hart(0).instructions(), 100u);  // asleep, not spinning
  b.p.harts.hart(0).set_interrupt(3, true);  // machine software interrupt
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  ASSERT_TRUE(done);
  EXPECT_EQ(exit.kind, HartExitKind::Exit) << exit.describe();
  EXPECT_EQ(exit.code, 3u);
}

// A CSRRS of mip while the PLIC's line holds SEIP high must not latch the
// line into the software-written SEIP bit: once the line drops, SEIP is clear.
TEST(Harts, CsrsOfMipLeavesTheSeipLineOut) {
  Bench b;
  b.p.harts.hart(0).set_interrupt(rv::kSEI, true);
  HartLaunch l;
  l.pc = b.img.symbols.at("mip_set_stip");
  HartExit exit;
  bool done = false;
  b.p.harts.start_bare_metal(0, l, [&](const HartExit& e) { exit = e, done = true; });
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  ASSERT_TRUE(done);
  ASSERT_EQ(exit.kind, HartExitKind::Exit) << exit.describe();
  EXPECT_EQ(exit.code & 0x220, 0x220u);  // STIP set, SEIP read as the line
  b.p.harts.hart(0).set_interrupt(rv::kSEI, false);
  EXPECT_EQ(b.regs().mip & (1u << rv::kSEI), 0u);
  EXPECT_EQ(b.regs().mip & 0x20, 0x20u);
}

TEST(Harts, StoreToExecutedCodeDropsDecodedBlocks) {
  Bench b;
  ASSERT_EQ(b.run("self_modify").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(1), 1u);
  EXPECT_EQ(b.a(0), 2u);
}

// Only the written blocks go: the call site's block stays decoded, and
// calling the rewritten callee from it again runs the new code.
TEST(Harts, StoreToLinkedCodeDropsTheBlockAndItsLinks) {
  Bench b;
  ASSERT_EQ(b.run("self_modify_linked").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 4u);
}

TEST(Harts, FenceIPicksUpCodeWrittenByOtherUnits) {
  Bench b;
  ASSERT_EQ(b.run("add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 1u);
  const uint32_t addi5 = 0x00550513;  // addi a0, a0, 5
  ASSERT_TRUE(b.p.device_port.write_debug(b.img.symbols.at("add_one"), &addi5, 4));
  ASSERT_EQ(b.run("add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 1u);  // not snooped
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 5u);  // fence.i compared the decoded block with memory
}

// A block whose code fence.i found unchanged is not compared again until a
// write other than a hart's reaches its page (the page's write generation):
// each such write, by the DMA controller, a timed bus access or a debug
// access, is still seen by the next fence.i.
TEST(Harts, FenceIPicksUpEveryWriteByOtherUnitsAfterFindingTheCodeUnchanged) {
  Bench b;
  const uint64_t code = b.img.symbols.at("add_one");
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);  // compared: unchanged
  EXPECT_EQ(b.a(0), 1u);
  const auto addi = [](int imm) { return static_cast<uint32_t>(imm) << 20 | 0x00050513; };  // addi a0, a0, imm
  // The DMA controller copies an instruction staged beside the code over its first one.
  const uint32_t addi5 = addi(5);
  ASSERT_TRUE(b.p.device_port.write_debug(b.p.dram_base() + 0x1000, &addi5, 4));
  sc_core::sc_spawn([&] {
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const auto w = [&](uint64_t off, uint64_t v) { b.p.device_port.write(AVP_DMA_BASE + off, &v, 8, d); };
    w(AVP_DMASRCADDR, b.p.dram_base() + 0x1000);
    w(AVP_DMADSTADDR, code);
    w(AVP_DMAXFERSIZE0, 4);
    w(AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1));
    uint64_t id = 0;
    b.p.device_port.read(AVP_DMA_BASE + AVP_DMASTARTSEQ, &id, 8, d);
    w(AVP_DMADONESEQ, id);
  });
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_EQ(b.run("add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 1u);  // not snooped
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 5u);
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);  // the new code found unchanged
  EXPECT_EQ(b.a(0), 5u);
  // A timed write by another initiator.
  const uint32_t addi6 = addi(6);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  ASSERT_EQ(b.p.device_port.write(code, &addi6, 4, d), tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 6u);
  // A debugger's write.
  const uint32_t addi7 = addi(7);
  ASSERT_TRUE(b.p.device_port.write_debug(code, &addi7, 4));
  ASSERT_EQ(b.run("fence_i_add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 7u);
}

TEST(Harts, InvalidateIcachesPicksUpCodeWrittenByOtherUnits) {
  Bench b;
  ASSERT_EQ(b.run("add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 1u);
  const uint32_t addi5 = 0x00550513;  // addi a0, a0, 5
  ASSERT_TRUE(b.p.device_port.write_debug(b.img.symbols.at("add_one"), &addi5, 4));
  ASSERT_EQ(b.run("add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 1u);  // documented: writes by other units are not snooped
  b.p.harts.invalidate_icaches();
  ASSERT_EQ(b.run("add_one").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 5u);
}

TEST(Harts, AnotherHartsStoreBreaksTheReservation) {
  Bench b;
  unsigned done = 0;
  for (unsigned h = 0; h < 2; ++h) {
    HartLaunch l;
    l.pc = b.img.symbols.at("lr_sc_two_harts");
    l.ra = kReturnAddress;
    l.a[0] = h;
    b.p.harts.launch(h, l, [&](const HartExit& e) {
      EXPECT_EQ(e.kind, HartExitKind::Returned) << e.describe();
      ++done;
    });
  }
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_EQ(done, 2u);
  EXPECT_NE(b.a(1), 0u);  // sc.d failed
  EXPECT_EQ(b.a(2), 7u);  // and did not overwrite the other hart's value
}

TEST(Harts, EcallAndXintfBarriersReleaseTogether) {
  Bench b;
  const unsigned n = b.p.harts_per_core.get();  // the harts of core 0
  unsigned done = 0;
  for (unsigned h = 0; h < n; ++h) {
    HartLaunch l;
    l.pc = b.img.symbols.at("barriers");
    l.ra = kReturnAddress;
    l.a[0] = h;
    l.launch_id = 7;
    b.p.harts.launch(h, l, [&](const HartExit& e) {
      EXPECT_EQ(e.kind, HartExitKind::Returned) << e.describe();
      ++done;
    });
  }
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
  ASSERT_EQ(done, n);
  const uint64_t t1 = b.a(1, 0), t2 = b.a(2, 0);
  EXPECT_GE(t1, (n - 1) * 5000 * 3u);  // the slowest hart's work, at 1 cycle of 1 ns per instruction
  EXPECT_GT(t2, t1);
  for (unsigned h = 1; h < n; ++h) {
    EXPECT_EQ(b.a(1, h), t1) << "hart " << h;
    EXPECT_EQ(b.a(2, h), t2) << "hart " << h;
  }
}

TEST(Harts, TrapReportShowsTheFaultingInstructionAndTheHistory) {
  Bench b;
  HartExit e = b.run("load_fault");
  ASSERT_EQ(e.kind, HartExitKind::Trap);
  const uint64_t f = b.img.symbols.at("load_fault");
  char want[512];
  std::snprintf(want, sizeof want,
                "hart 0: unhandled load access fault (cause 5), tval 0x30000008\n"
                "  at 0x%llx <load_fault+0x4>  0082b503  ld a0,8(t0)\n"
                "  last 2 instructions (oldest first):\n"
                "    0x%llx <load_fault>  300002b7  lui t0,0x30000\n"
                "    0x%llx <load_fault+0x4>  0082b503  ld a0,8(t0)",
                static_cast<unsigned long long>(f + 4), static_cast<unsigned long long>(f),
                static_cast<unsigned long long>(f + 4));
  EXPECT_EQ(describe_trap(b.p.harts.hart(0), e.cause, e.tval), want);
  EXPECT_NE(e.describe().find("at pc 0x" + [&] { std::ostringstream os; os << std::hex << f + 4; return os.str(); }() +
                              " <load_fault+0x4>, tval 0x30000008"),
            std::string::npos) << e.describe();
  // A fetch fault has no instruction at the pc; the history holds the jump there.
  e = b.run("fetch_fault");
  const std::string r = describe_trap(b.p.harts.hart(0), e.cause, e.tval);
  EXPECT_NE(r.find("  at 0x30000000 (no instruction can be read there)\n"), std::string::npos) << r;
  EXPECT_NE(r.find("<fetch_fault+0x4>  00028067  jr t0"), std::string::npos) << r;
}

TEST(Harts, HistoryKeepsTheLastInstructionsOfTheConfiguredLength) {
  ParamRegistry::instance().add_preset("harts.history_length", "3", "test");
  Bench b;
  ParamRegistry::instance().clear_presets();
  HartExit e = b.run("spin", 0, 100);
  ASSERT_EQ(e.kind, HartExitKind::Limit);
  const auto last = b.p.harts.hart(0).history().last();
  ASSERT_EQ(last.size(), 3u);
  EXPECT_EQ(last.back().pc, b.img.symbols.at("spin"));  // the loop is one jump to itself
}

// harts.history_length=0: nothing is recorded (nor in translated code), and
// a trap's report says so; the trapping instruction is read from memory.
TEST(Harts, HistoryOfLengthZeroRecordsNothing) {
  ParamRegistry::instance().add_preset("harts.history_length", "0", "test");
  Bench b;
  ParamRegistry::instance().clear_presets();
  ASSERT_EQ(b.run("spin", 0, 100).kind, HartExitKind::Limit);
  EXPECT_TRUE(b.p.harts.hart(0).history().last().empty());
  const HartExit e = b.run("load_fault");
  ASSERT_EQ(e.kind, HartExitKind::Trap);
  const std::string r = describe_trap(b.p.harts.hart(0), e.cause, e.tval);
  EXPECT_NE(r.find("<load_fault+0x4>  0082b503  ld a0,8(t0)"), std::string::npos) << r;
  EXPECT_NE(r.find("no instruction history kept (harts.history_length is 0)"), std::string::npos) << r;
}

TEST(Harts, UnmappedLoadAndFetchAreAccessFaults) {
  Bench b;
  HartExit e = b.run("load_fault");
  EXPECT_EQ(e.kind, HartExitKind::Trap);
  EXPECT_EQ(e.cause, 5u);
  EXPECT_EQ(e.tval, 0x30000008u);
  EXPECT_EQ(e.pc, b.img.symbols.at("load_fault") + 4);
  e = b.run("fetch_fault");
  EXPECT_EQ(e.kind, HartExitKind::Trap);
  EXPECT_EQ(e.cause, 1u);
  EXPECT_EQ(e.pc, 0x30000000u);
  EXPECT_EQ(e.tval, 0x30000000u);
}

TEST(Harts, StoreBreaksTheReservation) {
  Bench b;
  ASSERT_EQ(b.run("lr_sc").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 0u);
  EXPECT_NE(b.a(1), 0u);
  EXPECT_NE(b.a(2), 0u);
}

TEST(Harts, MisalignedAmoFaultsMisalignedLoadCompletes) {
  Bench b;
  HartExit e = b.run("amo_misaligned");
  EXPECT_EQ(e.kind, HartExitKind::Trap);
  EXPECT_EQ(e.cause, 6u);
  EXPECT_EQ(e.tval, b.img.symbols.at("data") + 4);
  ASSERT_EQ(b.run("load_misaligned").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 0x0011223344556677ull);
}

TEST(Harts, FcvtSaturatesAndRoundsPerMode) {
  Bench b;
  ASSERT_EQ(b.run("fp_convert").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 0x7FFFFFFFull);
  EXPECT_EQ(b.a(1), 0x10u);  // NV
  EXPECT_EQ(b.a(2), 0xFFFFFFFF80000000ull);
  EXPECT_EQ(b.a(3), 2u);
  EXPECT_EQ(b.a(4), 1u);
  EXPECT_EQ(b.a(5), 2u);
  EXPECT_EQ(b.a(6), static_cast<uint64_t>(-3));
  EXPECT_EQ(b.a(7), static_cast<uint64_t>(-2));
}

TEST(Harts, ReservedDynamicRoundingModeIsIllegal) {
  Bench b;
  HartExit e = b.run("fp_bad_rm");
  EXPECT_EQ(e.kind, HartExitKind::Trap);
  EXPECT_EQ(e.cause, 2u);
  EXPECT_EQ(e.pc, b.img.symbols.at("fp_bad_rm") + 4);
}

TEST(Harts, FminSignallingNanAndCanonicalNan) {
  Bench b;
  ASSERT_EQ(b.run("fp_min_snan").kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0), 0x3F800000u);
  EXPECT_EQ(b.a(1), 0x10u);
  EXPECT_EQ(b.a(2), 0x7FC00000u);
  EXPECT_EQ(b.a(3), 0xFFFFFFFF7FC00000ull);
  EXPECT_EQ(b.a(4), 1u << 8);
}

TEST(Harts, CompressedInstructions) {
  Bench b;
  HartExit e = b.run("compressed");
  ASSERT_EQ(e.kind, HartExitKind::Returned) << e.describe();
  EXPECT_EQ(b.a(0), 32u);
  EXPECT_EQ(b.a(1), 64u);
}

TEST(Harts, PerfCounterBlockReadsTheHartsInstret) {
  Bench b;
  ASSERT_EQ(b.run("perf_instret", 1).kind, HartExitKind::Returned);
  EXPECT_EQ(b.a(0, 1), 3u);  // li, nop, nop retired before the load
}

TEST(Harts, MalformedElfIsAClearError) {
  const std::string path = testing::TempDir() + "/not_an_elf.bin";
  std::ofstream(path) << "this is not an ELF file";
  try {
    load_elf(path, [](uint64_t, const void*, uint64_t) { return true; });
    FAIL() << "no error";
  } catch (const ElfError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_elf(path + ".missing", [](uint64_t, const void*, uint64_t) { return true; }), ElfError);
}

// The rule a hart spinning in a wait loop runs on by (docs/harts.md, "Beside
// spinning harts"): another hart's spinning wait may be passed over up to
// where its loop could end in a turn that starts before the running hart's
// turn ends, and only when neither loop stores what the other loads or stores.
TEST(Harts, ASpinningWaitIsPassedOverWhileItsLoopLastsAndTheLoopsDoNotTouch) {
  Platform p;
  HartCluster& c = p.harts;
  ASSERT_GE(c.num_harts(), 4u);
  const uint64_t quantum = to_ps(c.quantum()), period = 10'000, turn = quantum + period, far = 1'000'000'000;
  WaitLoopIteration mine, apart, loads_mine, stores_over_mine, writes_my_input;
  mine.loads = {{0x1000, 8}};
  mine.stores = {{0x2000, 8}};
  apart.loads = {{0x3000, 8}};
  apart.stores = {{0x3008, 4}};
  loads_mine.loads = {{0x2004, 4}};
  stores_over_mine.stores = {{0x2007, 1}};
  writes_my_input.stores = {{0x0ffc, 8}};
  const auto beside = [&] {
    RunAhead::Passable out[8];
    const unsigned n = c.spinning_beside(c.hart(0), &mine, turn, out, 8);
    return std::vector<RunAhead::Passable>(out, out + n);
  };
  c.spin_wait_begin(c.hart(0), {50, far, period, &apart});  // its own: never listed
  c.spin_wait_begin(c.hart(1), {100, far, period, &apart});
  c.spin_wait_begin(c.hart(2), {200, quantum + period + turn, period, &apart});  // could end in a turn starting before h's ends
  c.spin_wait_begin(c.hart(3), {300, far, period, &loads_mine});
  std::vector<RunAhead::Passable> got = beside();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].due_ps, 100u);
  EXPECT_EQ(got[0].before_ps, far - (quantum + period + turn));
  for (const WaitLoopIteration* touching : {&stores_over_mine, &writes_my_input}) {
    c.spin_wait_begin(c.hart(3), {300, far, period, touching});
    EXPECT_EQ(beside().size(), 1u);
  }
  c.spin_wait_begin(c.hart(3), {300, far, period, &apart});
  EXPECT_EQ(beside().size(), 2u);
  c.spin_waits_touched();  // something they may read changed: recorded before it, passed over no more
  EXPECT_TRUE(beside().empty());
  c.spin_wait_begin(c.hart(1), {100, far, period, &apart});
  c.spin_wait_begin(c.hart(3), {300, far, period, &apart});
  EXPECT_EQ(beside().size(), 2u);
  c.spin_wait_end(c.hart(1));
  c.spin_wait_end(c.hart(3));
  EXPECT_TRUE(beside().empty());
}

// What a hart running other code needs of a spinning wait beside it
// (docs/harts.md, "Other code beside spinning harts"): the granules its loop
// touches are watched while it waits (decoded code there kept apart), and a
// loop that reads a device, stores what the time makes, or touches memory
// whose writes are not counted (no DMI region here) is never passed over.
// Passing over itself: platform.run_ahead_equivalence_other_code_*.
TEST(Harts, ASpinningWaitIsWatchedAndPassedByOtherCodeOnlyWhenItCanBe) {
  Platform p;
  HartCluster& c = p.harts;
  ASSERT_GE(c.num_harts(), 4u);
  const uint64_t quantum = to_ps(c.quantum()), period = 10'000, far = 1'000'000'000;
  WaitLoopIteration plain, time_stored, polls;
  plain.loads = {{0x80001000, 8}};
  plain.stores = {{0x80002000, 8, 42}};
  time_stored.loads = {{0x80003000, 8}};
  time_stored.stores = {{0x80004000, 8, 0, true}};
  polls.loads = {{0x80005000, 8}};
  polls.device_loads = {{0x10000005, 1}};
  const auto beside = [&] {
    RunAhead::Passable out[8];
    return c.spinning_beside(c.hart(0), nullptr, quantum, out, 8);
  };
  EXPECT_FALSE(c.spin_waits());
  c.mark_code(0x80001000, 4);  // code beside the watched load
  HartCluster::SpinningWait w{100, far, period, &plain};
  w.generation = c.hart(1).footprint_generation(plain);
  EXPECT_EQ(w.generation, ~0ull);  // no DMI region yet: the memory's writes are not known to be counted
  c.spin_wait_begin(c.hart(1), w);
  c.spin_wait_begin(c.hart(2), {200, far, period, &time_stored, 0, 0});
  c.spin_wait_begin(c.hart(3), {300, far, period, &polls, 0, 0});
  EXPECT_TRUE(c.spin_waits());
  EXPECT_TRUE(c.spin_waiting(c.hart(1)));
  EXPECT_FALSE(c.spin_waiting(c.hart(0)));
  EXPECT_EQ(beside(), 0u);
  EXPECT_TRUE(c.store_checked(0x80001000, 8));
  EXPECT_TRUE(c.store_checked(0x800020f8, 16));  // across two granules, the first watched
  EXPECT_FALSE(c.store_checked(0x80002100, 8));
  EXPECT_TRUE(c.is_code(0x80001000, 8));
  EXPECT_FALSE(c.is_code(0x80002000, 8));  // watched, not code
  c.code_written(0x80001000, 4);
  EXPECT_FALSE(c.is_code(0x80001000, 8));
  EXPECT_TRUE(c.store_checked(0x80001000, 8));  // still watched
  for (unsigned h = 1; h < 4; ++h) c.spin_wait_end(c.hart(h));
  EXPECT_FALSE(c.spin_waits());
  EXPECT_FALSE(c.store_checked(0x80001000, 8));
  EXPECT_FALSE(c.store_checked(0x80002000, 8));
}
