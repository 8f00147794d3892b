// The block translator (models/harts/include/harts/block_translator.h) against a reference
// that follows rv_semantics.h, the definitions the interpreter loops use: random
// blocks of integer operations, loads, stores, out-of-line instructions and a
// final branch or jump, on random register values, with registers the code
// keeps in host registers and ones it leaves in memory, x0 included. The
// helpers are fakes that log every call, so the test also sees that the code
// calls them in order with the right operands, and that after a helper
// reports a trap or an abort the registers in memory are those of the
// instructions before it (and, for an abort, of the one that completed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "base/prefault.h"
#include "harts/block_translator.h"
#include "host_pages.h"
#include "rv_semantics.h"

namespace {

using namespace avp;
using namespace avp::rv;

struct Call {
  uint64_t pc, addr, value;
  bool operator==(const Call& o) const { return pc == o.pc && addr == o.addr && value == o.value; }
};

// What the helpers see and do; passed as the "hart", which holds the
// registers first (kHelpers.hart_from_regs is 0).
struct Fake {
  uint64_t x[32] = {};           // the register file (the out-of-line helper writes rd in memory)
  uint64_t fail_pc = ~0ull;      // the helper called for this pc reports fail_kind
  uint64_t fail_kind = kExitDone;
  std::vector<Call> calls;
  // What a block's code retires when it runs to its end (BlockRetire's fields).
  uint32_t settled = 0;
  uint64_t minstret = 0, extra_cycles = 0, ps = 0, events[4] = {};
  uint64_t status(uint64_t pc) const { return pc == fail_pc ? fail_kind : uint64_t{kExitDone}; }
};

uint64_t loaded(uint64_t addr, unsigned op) { return (addr * 0x9E3779B97F4A7C15ull) ^ op; }

JitStep fake_load(void* h, uint64_t addr, uint64_t pc, const Insn* d) {
  Fake& f = *static_cast<Fake*>(h);
  f.calls.push_back({pc, addr, d->op});
  return {loaded(addr, d->op), f.status(pc)};
}
JitStep fake_store(void* h, uint64_t addr, uint64_t v, uint64_t pc, const Insn* d) {
  Fake& f = *static_cast<Fake*>(h);
  f.calls.push_back({pc, addr, v ^ d->op});
  return {0, f.status(pc)};
}
JitStep fake_other(void* h, uint64_t pc, const Insn* d) {
  Fake& f = *static_cast<Fake*>(h);
  f.calls.push_back({pc, f.x[d->rs1], f.x[d->rs2]});
  if (f.status(pc) != kExitTrapped && d->rd) f.x[d->rd] = pc ^ f.x[d->rs1];
  return {pc + d->len, f.status(pc)};
}

const TranslationHelpers kHelpers = {{fake_load, fake_load, fake_load, fake_load, fake_load, fake_load, fake_load},
                                     {fake_store, fake_store, fake_store, fake_store},
                                     fake_other,
                                     nullptr,
                                     nullptr,
                                     nullptr,
                                     0};

// The reference: what run_insns does with the same helpers.
JitStep reference(const std::vector<Insn>& insns, uint64_t pc, uint64_t* x, Fake& f) {
  const uint32_t n = static_cast<uint32_t>(insns.size());
  for (uint32_t i = 0; i < n; ++i) {
    const Insn& d = insns[i];
    const uint64_t a = x[d.rs1], b = x[d.rs2];
    JitStep s{0, kExitDone};
    switch (d.op) {
#define AVP_CASE(op, e) \
  case op: x[d.rd] = (e); break;
      AVP_RV_RESULT_OPS(AVP_CASE)
#undef AVP_CASE
#define AVP_CASE(op, c) \
  case op: return {(c) ? pc + d.imm : pc + d.len, n};
      AVP_RV_BRANCH_OPS(AVP_CASE)
#undef AVP_CASE
      case JAL: x[d.rd] = pc + d.len; x[0] = 0; return {pc + d.imm, n};
      case JALR: { const uint64_t t = (a + d.imm) & ~1ull; x[d.rd] = pc + d.len; x[0] = 0; return {t, n}; }
      case FENCE: break;
      default:
        if (d.op >= LB && d.op <= LWU) {
          s = fake_load(&f, a + d.imm, pc, &d);
          if (s.status != kExitTrapped) x[d.rd] = s.value;
        } else if (d.op >= SB && d.op <= SD) {
          s = fake_store(&f, a + d.imm, b, pc, &d);
        } else {
          s = fake_other(&f, pc, &d);
        }
    }
    x[0] = 0;
    pc += d.len;
    if (s.status == kExitTrapped) return {0, i | uint64_t{kExitTrapped} << 32};
    if (s.status == kExitAborted) return {pc, (i + 1) | uint64_t{kExitAborted} << 32};
  }
  return {pc, n};
}

// The block's code; a full arena is emptied first (the earlier blocks' code is not run again).
TranslatedBlock translate(const std::vector<Insn>& block, uint64_t pc, const BlockRetire* retire, CodeArena& arena) {
  if (TranslatedBlock code = translate_block(block.data(), block.size(), pc, kHelpers, retire, nullptr, arena)) return code;
  arena.reset();
  return translate_block(block.data(), block.size(), pc, kHelpers, retire, nullptr, arena);
}

// Runs `block` at `pc` from the registers `init`, by the reference and as
// translated code, the helpers failing at `fail_pc` with `fail_kind` (as
// Fake's): the exits, the registers and the helpers' calls must agree.
void check_against_reference(const std::vector<Insn>& block, uint64_t pc, const uint64_t (&init)[32], CodeArena& arena,
                             uint64_t fail_pc = ~0ull, uint64_t fail_kind = kExitDone) {
  Fake ref_fake, code_fake;
  ref_fake.fail_pc = code_fake.fail_pc = fail_pc;
  ref_fake.fail_kind = code_fake.fail_kind = fail_kind;
  uint64_t* const want_x = ref_fake.x;
  uint64_t* const got_x = code_fake.x;
  std::copy(init, init + 32, want_x);
  std::copy(init, init + 32, got_x);
  const JitStep want = reference(block, pc, want_x, ref_fake);
  const TranslatedBlock code = translate(block, pc, nullptr, arena);
  ASSERT_NE(code, nullptr);
  const JitStep got = code(got_x);
  ASSERT_EQ(got.status, want.status);
  if (want.status >> 32 != kExitTrapped) {
    ASSERT_EQ(got.value, want.value);
  }
  for (unsigned r = 0; r < 32; ++r) ASSERT_EQ(got_x[r], want_x[r]) << "x" << r;
  ASSERT_EQ(code_fake.calls, ref_fake.calls);
}

class RandomBlocks {
 public:
  explicit RandomBlocks(uint32_t seed) : rng_(seed) {}
  uint64_t value() {
    switch (rng_() % 4) {
      case 0: return rng_() % 8;
      case 1: return ~uint64_t{0} - rng_() % 4;
      case 2: return uint64_t{1} << (rng_() % 64) ^ (rng_() % 2 ? ~0ull : 0);
      default: return uint64_t{rng_()} << 32 | rng_();
    }
  }
  uint8_t reg() {
    static const uint8_t kRegs[] = {0, 1, 2, 5, 8, 10, 11, 15, 31};  // few, so that some are used often
    return kRegs[rng_() % std::size(kRegs)];
  }
  Insn insn(unsigned op) {
    Insn d;
    d.op = static_cast<uint16_t>(op);
    d.rd = reg();
    d.rs1 = reg();
    d.rs2 = reg();
    d.len = rng_() % 4 ? 4 : 2;
    const int64_t i12 = static_cast<int64_t>(rng_() % 4096) - 2048;
    if (op == LUI || op == AUIPC) d.imm = static_cast<int32_t>(rng_() & ~0xFFFu);
    else if (op == SLLI || op == SRLI || op == SRAI) d.imm = rng_() % 64;
    else if (op >= SLLIW && op <= SRAIW) d.imm = rng_() % 32;
    else if (op >= BEQ && op <= BGEU) d.imm = (i12 * 2) & ~1ll;
    else if (op == JAL) d.imm = static_cast<int64_t>(rng_() % (1u << 20)) * 2 - (1 << 20);
    else d.imm = i12;
    return d;
  }
  std::vector<Insn> block() {
    std::vector<Insn> b;
    const unsigned n = 1 + rng_() % 24;
    for (unsigned i = 0; i < n; ++i) {
      const unsigned kind = rng_() % 10;
      if (kind < 6) b.push_back(insn(ADDI + rng_() % (REMUW - ADDI + 1)));
      else if (kind == 6) b.push_back(insn(LUI + rng_() % 2));
      else if (kind == 7) b.push_back(insn(LB + rng_() % (LWU - LB + 1)));
      else if (kind == 8) b.push_back(insn(SB + rng_() % (SD - SB + 1)));
      else b.push_back(insn(rng_() % 2 ? FENCE : FADD_D));
    }
    const unsigned end = rng_() % 4;
    if (end == 1) b.push_back(insn(BEQ + rng_() % (BGEU - BEQ + 1)));
    else if (end == 2) b.push_back(insn(JAL));
    else if (end == 3) b.push_back(insn(JALR));
    return b;
  }
  uint32_t next() { return rng_(); }

 private:
  std::mt19937 rng_;
};

TEST(BlockTranslator, RandomBlocksMatchTheReference) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  RandomBlocks gen(12345);
  for (int round = 0; round < 20000; ++round) {
    const std::vector<Insn> block = gen.block();
    const uint64_t pc = 0x80000000ull + (gen.next() % 4096) * 2;
    uint64_t init[32];
    for (auto& v : init) v = gen.value();
    init[0] = 0;
    // Some blocks fail at one of their helper calls, trapped or aborted.
    uint64_t fail_pc = ~0ull, fail_kind = kExitDone;
    if (gen.next() % 3 == 0) {
      fail_pc = pc;
      const size_t at = gen.next() % block.size();
      for (size_t i = 0; i < at; ++i) fail_pc += block[i].len;
      fail_kind = gen.next() % 2 ? kExitTrapped : kExitAborted;
    }
    SCOPED_TRACE("round " + std::to_string(round));
    check_against_reference(block, pc, init, arena, fail_pc, fail_kind);
    if (HasFatalFailure()) return;
  }
}

// A DIV and a REM of the same operands divide once (the later result waits
// in a host register): pairs in both orders, all widths and signs, with
// operations between them, some of which write an operand, end the pair's
// sharing, or are divisions themselves, on values that include a zero
// divisor, -1 and the most negative dividends.
TEST(BlockTranslator, DivisionPairsMatchTheReference) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  static constexpr unsigned kPairs[][2] = {{DIV, REM}, {DIVU, REMU}, {DIVW, REMW}, {DIVUW, REMUW}};
  CodeArena arena;
  RandomBlocks gen(2024);
  for (int round = 0; round < 20000; ++round) {
    const unsigned* pair = kPairs[gen.next() % std::size(kPairs)];
    const bool rem_first = gen.next() % 2;
    std::vector<Insn> block;
    for (unsigned k = gen.next() % 3; k > 0; --k) block.push_back(gen.insn(ADDI + gen.next() % (REMUW - ADDI + 1)));
    Insn first = gen.insn(pair[rem_first ? 1 : 0]);
    Insn second = gen.insn(pair[rem_first ? 0 : 1]);
    second.rs1 = first.rs1;
    second.rs2 = first.rs2;
    block.push_back(first);
    for (unsigned k = gen.next() % 4; k > 0; --k) {
      const unsigned kind = gen.next() % 8;
      if (kind < 5) block.push_back(gen.insn(ADD + gen.next() % (AND - ADD + 1)));
      else if (kind == 5) block.push_back(gen.insn(DIV + gen.next() % (REMU - DIV + 1)));
      else if (kind == 6) block.push_back(gen.insn(MULHSU));
      else block.push_back(gen.insn(LB + gen.next() % (LWU - LB + 1)));
    }
    block.push_back(second);
    if (gen.next() % 2) block.push_back(gen.insn(BEQ + gen.next() % (BGEU - BEQ + 1)));
    const uint64_t pc = 0x80000000ull + (gen.next() % 4096) * 2;
    uint64_t init[32];
    for (auto& v : init) v = gen.value();
    if (gen.next() % 4 == 0) init[first.rs2] = gen.next() % 2 ? 0 : ~0ull;  // the special divisors
    init[0] = 0;
    SCOPED_TRACE("round " + std::to_string(round));
    check_against_reference(block, pc, init, arena);
    if (HasFatalFailure()) return;
  }
}

// A block that runs to its end retires itself unless part of it is counted
// already (settled), in which case the counters are left to the hart.
TEST(BlockTranslator, RetiresABlockThatRanToItsEnd) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  RandomBlocks gen(777);
  for (int round = 0; round < 2000; ++round) {
    const std::vector<Insn> block = gen.block();
    Fake f;
    uint64_t* const x = f.x;
    // Only a helper settles part of a block (settled is 0 whenever code
    // enters one), and only a block that calls one tests it.
    const bool calls_helper = std::any_of(block.begin(), block.end(), [](const Insn& d) {
      return (d.op >= LB && d.op <= LWU) || (d.op >= SB && d.op <= SD) || d.op == FADD_D;
    });
    f.settled = calls_helper && gen.next() % 4 == 0 ? 1 : 0;
    const auto offset = [&f](const void* field) {
      return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&f));
    };
    const uint8_t ids[] = {2, 0, 3}, counts[] = {5, 1, 250};
    const unsigned kinds = gen.next() % 4;
    const uint64_t extra = gen.next() % 3 ? 7 + gen.next() % 100 : 0;  // 0: nothing added (one-cycle instructions)
    const BlockRetire retire{offset(&f.settled), offset(&f.minstret), offset(&f.extra_cycles), offset(&f.ps),
                             offset(&f.events[0]), extra, uint64_t{1} << 40 | gen.next(), kinds, ids, counts};
    const TranslatedBlock code = translate(block, 0x2000, &retire, arena);
    ASSERT_NE(code, nullptr);
    const JitStep s = code(x);
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_EQ(static_cast<uint32_t>(s.status), block.size());
    uint64_t want_events[4] = {};
    if (f.settled == 0) {
      ASSERT_EQ(s.status >> 32, kExitRetired);
      ASSERT_EQ(f.minstret, block.size());
      ASSERT_EQ(f.extra_cycles, retire.extra);
      ASSERT_EQ(f.ps, retire.ps);
      for (unsigned k = 0; k < kinds; ++k) want_events[ids[k]] += counts[k];
    } else {
      ASSERT_EQ(s.status >> 32, kExitDone);
      ASSERT_EQ(f.minstret + f.extra_cycles + f.ps, 0u);
    }
    for (unsigned e = 0; e < 4; ++e) ASSERT_EQ(f.events[e], want_events[e]) << "event " << e;
  }
}

// A W shift uses five bits of the count (x86 and RISC-V agree), not six.
TEST(BlockTranslator, WShiftsMaskTheCountToFiveBits) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  Insn d;
  d.op = SRAW;
  d.rd = 10;
  d.rs1 = 11;
  d.rs2 = 12;
  const std::vector<Insn> block{d};
  Fake f;
  uint64_t* const x = f.x;
  x[11] = 0x80000000ull;
  x[12] = 35;  // a count of 35 shifts by 3 in a W operation
  const TranslatedBlock code = translate_block(block.data(), 1, 0x1000, kHelpers, nullptr, nullptr, arena);
  ASSERT_NE(code, nullptr);
  const JitStep s = code(x);
  EXPECT_EQ(s.value, 0x1004u);
  EXPECT_EQ(s.status, 1u);
  EXPECT_EQ(x[10], 0xFFFFFFFFF0000000ull);
  EXPECT_NE(x[10], 0xFFFFFFFFFFFFFFFFull);  // what a 64-bit shift count would give
}

// The translation cache asks for the huge page after the one its code fills
// to be populated ahead (base/prefault.h), and for nothing further.
TEST(CodeArena, PopulatesTheHugePageAfterTheOneFilling) {
  if (!test::kernel_populates()) GTEST_SKIP() << "the host kernel has no MADV_POPULATE_WRITE";
  const long page = sysconf(_SC_PAGESIZE);
  constexpr size_t kMiB = size_t{1} << 20;
  CodeArena arena(8 * kMiB);
  const std::vector<uint8_t> code(1024, 0xc3);
  ASSERT_NE(arena.add(code.data(), code.size()), nullptr);
  auto* base = const_cast<uint8_t*>(arena.base());
  Prefault::finish(base, 8 * kMiB);
  const auto resident = [&](size_t from, size_t bytes) { return test::resident_pages(base + from, bytes); };
  EXPECT_EQ(resident(4 * kMiB, 4 * kMiB), 0u) << "a little code asks for nothing ahead";
  while (arena.used() < kMiB + code.size()) ASSERT_NE(arena.add(code.data(), code.size()), nullptr);  // half the first
  Prefault::finish(base, 8 * kMiB);
  EXPECT_EQ(resident(2 * kMiB, 2 * kMiB), 2 * kMiB / page);
  EXPECT_EQ(resident(6 * kMiB, 2 * kMiB), 0u);  // beyond any huge page the request touches
}

}  // namespace
