// The evaluation of one iteration of a loop that waits for the time CSR or
// on a device register (harts/wait_loop.h): what qualifies, the time at which
// the loop leaves its path for each kind of comparison, what an iteration
// leaves, and what is refused. Programs are encoded here and decoded as the hart decodes them.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "harts/wait_loop.h"

using namespace avp;

namespace {

enum Reg : uint32_t { zero = 0, ra = 1, sp = 2, t0 = 5, t1 = 6, s0 = 8, s1 = 9, a0 = 10, s2 = 18 };

uint32_t i_type(uint32_t op, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm) {
  return (static_cast<uint32_t>(imm) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
uint32_t r_type(uint32_t f7, uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33;
}
uint32_t s_type(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | 0x23;
}
uint32_t b_type(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u >> 1 & 0xf) << 8 |
         (u >> 11 & 1) << 7 | 0x63;
}
uint32_t jal(uint32_t rd, int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 | (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}
uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x13, 0, rd, rs1, imm); }
uint32_t srli(uint32_t rd, uint32_t rs1, int32_t sh) { return i_type(0x13, 5, rd, rs1, sh); }
uint32_t ld(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x03, 3, rd, rs1, imm); }
uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x03, 2, rd, rs1, imm); }
uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x03, 4, rd, rs1, imm); }
uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x13, 7, rd, rs1, imm); }
uint32_t sd(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(3, rs1, rs2, imm); }
uint32_t sub(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0x20, 0, rd, rs1, rs2); }
uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(0x67, 0, rd, rs1, imm); }
uint32_t rdtime(uint32_t rd) { return i_type(0x73, 2, rd, 0, 0xC01); }
uint32_t bltu(uint32_t a, uint32_t b, int32_t off) { return b_type(6, a, b, off); }
uint32_t bgeu(uint32_t a, uint32_t b, int32_t off) { return b_type(7, a, b, off); }
uint32_t blt(uint32_t a, uint32_t b, int32_t off) { return b_type(4, a, b, off); }
uint32_t bne(uint32_t a, uint32_t b, int32_t off) { return b_type(1, a, b, off); }
uint32_t beq(uint32_t a, uint32_t b, int32_t off) { return b_type(0, a, b, off); }
constexpr uint32_t kEcall = 0x73, kWfi = 0x10500073, kFence = 0x0ff0000f;

// Code and memory as the hart would show them: blocks decoded from `pc`
// to their first block-ending instruction, memory [kMem, kMem + 4 KiB) and a
// device page that cannot be read directly, with the registers its device
// declares stable (base/stable_read.h).
class View : public WaitLoopView {
 public:
  static constexpr uint64_t kMem = 0x8000, kDevice = 0x10000;
  void code(uint64_t pc, std::initializer_list<uint32_t> words) {
    for (uint32_t w : words) {
      words_[pc] = w;
      pc += 4;
    }
  }
  std::pair<const rv::Insn*, size_t> block_at(uint64_t pc) const override {
    auto& b = blocks_[pc];
    if (b.empty())
      for (uint64_t a = pc; words_.count(a); a += 4) {
        b.push_back(rv::decode32(words_.at(a)));
        if (rv::ends_block(static_cast<rv::Op>(b.back().op))) break;
      }
    return {b.empty() ? nullptr : b.data(), b.size()};
  }
  bool read(uint64_t va, void* to, unsigned n) const override {
    if (va < kMem || va + n > kMem + sizeof mem) return false;
    std::memcpy(to, mem + (va - kMem), n);
    return true;
  }
  bool plain_store(uint64_t va, unsigned n) const override { return va >= kMem && va + n <= kMem + sizeof mem; }
  void poke(uint64_t va, uint64_t v) { std::memcpy(mem + (va - kMem), &v, 8); }
  DeviceRead device_read(uint64_t va, unsigned n, uint64_t& value) const override {
    const auto it = stable.find(va);
    if (it == stable.end()) return DeviceRead::Unstable;
    value = it->second.second;
    return it->second.first;
  }
  uint8_t mem[4096] = {};
  std::map<uint64_t, std::pair<DeviceRead, uint64_t>> stable;  // by address: what a read is, the value if constant

 private:
  std::map<uint64_t, uint32_t> words_;
  mutable std::map<uint64_t, std::vector<rv::Insn>> blocks_;
};

// U-Boot's udelay: `while (get_ticks() < end)`, get_ticks a call that reads
// the time into a stack slot and loads it back.
struct Udelay {
  static constexpr uint64_t kLoop = 0x1000, kTicks = 0x1100, kRead = kTicks + 8;
  View view;
  uint64_t x[32] = {};
  explicit Udelay(uint32_t compare = bltu(a0, s0, -4)) {
    view.code(kLoop, {jal(ra, kTicks - kLoop), compare, kEcall});
    view.code(kTicks, {addi(sp, sp, -16), sd(ra, sp, 8), rdtime(t0), sd(t0, sp, 0), ld(a0, sp, 0), ld(ra, sp, 8),
                       addi(sp, sp, 16), jalr(zero, ra, 0)});
    // At the time read of an iteration: inside get_ticks, its return address saved.
    x[sp] = View::kMem + 0x800 - 16;
    x[ra] = kLoop + 4;
    x[s0] = 5000;
    view.poke(x[sp] + 8, kLoop + 4);
  }
  WaitLoopIteration at(uint64_t time) {
    return evaluate_wait_loop(view, rv::decode32(rdtime(t0)), kRead, x, time, 256);
  }
};

}  // namespace

TEST(WaitLoop, UdelayQualifiesAndLeavesAtTheDeadline) {
  Udelay u;
  const WaitLoopIteration it = u.at(1000);
  ASSERT_EQ(it.refused, "");
  EXPECT_EQ(it.insns, 10u);  // the read, the rest of get_ticks, the compare, the call, get_ticks up to the read
  EXPECT_EQ(it.exit_from, 5000u);  // a0 < s0 holds up to 4999
  EXPECT_TRUE(it.closed);
  EXPECT_EQ(it.x[a0], 1000u);
  EXPECT_EQ(it.x_at(a0, 4321), 4321u);  // the time read, whatever it was
  EXPECT_EQ(it.x_at(sp, 4321), u.x[sp]);
  EXPECT_EQ(it.x_at(ra, 4321), Udelay::kLoop + 4);
  EXPECT_EQ(it.reads, 1u << sp | 1u << s0);  // sp is restored; ra and t0 are written first
  ASSERT_EQ(it.loads.size(), 1u);            // the saved ra, read before it is saved again
  EXPECT_EQ(it.loads[0].va, u.x[sp] + 8);
  ASSERT_EQ(it.stores.size(), 2u);
  EXPECT_EQ(it.stored_at(it.stores[0], 4321), 4321u);  // the count in the stack slot
  EXPECT_TRUE(it.stores[0].offset);
  EXPECT_EQ(it.stored_at(it.stores[1], 4321), Udelay::kLoop + 4);
}

TEST(WaitLoop, ExitTimeOfEachComparison) {
  // Loop while s0 >= a0: leaves once the time passes s0.
  EXPECT_EQ(Udelay(bgeu(s0, a0, -4)).at(1000).exit_from, 5001u);
  // Signed: a0 < s0 as int64_t, from a negative deadline.
  Udelay negative(blt(a0, s0, -4));
  negative.x[s0] = static_cast<uint64_t>(-100);
  EXPECT_EQ(negative.at(static_cast<uint64_t>(-200)).exit_from, static_cast<uint64_t>(-100));
  // Loop while the time differs from s0: leaves at s0 exactly.
  EXPECT_EQ(Udelay(bne(a0, s0, -4)).at(1000).exit_from, 5000u);
  // A compare that holds for every later time: no exit below 2^64.
  Udelay forever(bgeu(a0, s0, -4));
  forever.x[s0] = 10;
  EXPECT_EQ(forever.at(1000).exit_from, ~0ull);
}

TEST(WaitLoop, DifferenceWithTheStartLeavesAtStartPlusLength) {
  // Linux's __delay: while (rdtime() - start < loops).
  View v;
  v.code(0x2000, {rdtime(t0), sub(t1, t0, s1), bltu(t1, s0, -8), kEcall});
  uint64_t x[32] = {};
  x[s1] = 700;   // start
  x[s0] = 3000;  // loops
  const WaitLoopIteration it = evaluate_wait_loop(v, rv::decode32(rdtime(t0)), 0x2000, x, 900, 64);
  ASSERT_EQ(it.refused, "");
  EXPECT_EQ(it.insns, 3u);
  EXPECT_EQ(it.exit_from, 3700u);
  EXPECT_EQ(it.x_at(t1, 2000), 1300u);
  EXPECT_TRUE(it.stores.empty());
}

TEST(WaitLoop, WfiThatDoesNotSleepSpinsUntilMemoryChanges) {
  // OpenSBI's secondary harts: while (atomic_read(&state) != START_PENDING) wfi();
  View v;
  v.code(0x4000, {kWfi, addi(a0, s1, 0), jal(ra, 0x100), bne(a0, s0, -12), kEcall});
  v.code(0x4108, {ld(a0, a0, 0), kFence, jalr(zero, ra, 0)});
  uint64_t x[32] = {};
  x[s1] = View::kMem + 64;  // the state word, 0
  x[s0] = 2;                // START_PENDING
  const WaitLoopIteration it = evaluate_wait_loop(v, rv::decode32(kWfi), 0x4000, x, 1234, 64);
  ASSERT_EQ(it.refused, "");
  EXPECT_EQ(it.insns, 7u);
  EXPECT_EQ(it.exit_from, ~0ull);  // nothing it reads changes while it runs alone
  EXPECT_EQ(it.reads, 1u << s0 | 1u << s1);
  ASSERT_EQ(it.loads.size(), 1u);
  EXPECT_EQ(it.loads[0].va, View::kMem + 64);
  EXPECT_EQ(it.x[ra], 0x400cu);
}

TEST(WaitLoop, RefusesWhatIsNotAWaitForTheTime) {
  const auto refused = [](std::initializer_list<uint32_t> body, uint64_t (&x)[32], View* extra = nullptr) {
    View own;
    View& v = extra ? *extra : own;
    v.code(0x3000, body);
    return evaluate_wait_loop(v, rv::decode32(rdtime(t0)), 0x3000, x, 100, 64).refused;
  };
  uint64_t x[32] = {};
  x[s0] = 5000;
  // A count of the iterations goes from one to the next.
  EXPECT_EQ(refused({rdtime(t0), addi(s1, s1, 1), bltu(t0, s0, -8), kEcall}, x),
            "register x9 carries a value from one iteration to the next");
  // The time scaled before the compare.
  EXPECT_EQ(refused({rdtime(t0), srli(t1, t0, 3), bltu(t1, s0, -8), kEcall}, x),
            "a branch depends on the time other than by an offset");
  // A status register of a device polled beside the time, not declared stable.
  x[s1] = View::kDevice;
  EXPECT_EQ(refused({rdtime(t0), ld(t1, s1, 0), bltu(t0, s0, -8), kEcall}, x),
            "a load from a device register not declared stable, or unmapped memory");
  // A second time read in the iteration.
  EXPECT_EQ(refused({rdtime(t0), rdtime(t1), bltu(t0, s0, -8), kEcall}, x), "a second time read or WFI in one iteration");
  // An address computed from the time.
  x[s1] = View::kMem;
  EXPECT_EQ(refused({rdtime(t0), sub(t1, t0, t0), addi(t1, t0, 0), ld(t1, t1, 0), bltu(t0, s0, -16), kEcall}, x),
            "a load address depends on the time");
  // Memory that carries a value: a counter in memory, loaded, incremented and stored.
  View counter;
  EXPECT_EQ(refused({rdtime(t0), ld(t1, s1, 0), addi(t1, t1, 1), sd(t1, s1, 0), bltu(t0, s0, -16), kEcall}, x, &counter),
            "memory carries a value from one iteration to the next");
  // Code that never comes back to the read.
  EXPECT_EQ(refused({rdtime(t0), kEcall}, x), "executes ECALL");
}

namespace {

// A UART at View::kDevice: LSR (offset 5) declared constant, with THRE and
// TEMT set and no byte received; RBR and IIR not (reading them takes a byte
// or clears an interrupt). The CLINT's mtime as a clock at kMtime.
constexpr uint64_t kLsr = View::kDevice + 5, kMtime = View::kDevice + 0x800;
void declare_devices(View& v) {
  v.stable[kLsr] = {WaitLoopView::DeviceRead::Constant, 0x60};
  v.stable[kMtime] = {WaitLoopView::DeviceRead::Clock, 0};
}

}  // namespace

TEST(WaitLoop, UartStatusPollSpinsWhileTheRegisterIsConstant) {
  // U-Boot's getc: while (!(readb(&lsr) & UART_LSR_DR));
  View v;
  declare_devices(v);
  v.code(0x5000, {lbu(t1, s1, 5), andi(t1, t1, 1), beq(t1, zero, -8), kEcall});
  uint64_t x[32] = {};
  x[s1] = View::kDevice;
  const WaitLoopIteration it = evaluate_wait_loop(v, rv::decode32(lbu(t1, s1, 5)), 0x5000, x, 777, 64);
  ASSERT_EQ(it.refused, "");
  EXPECT_EQ(it.insns, 3u);
  EXPECT_EQ(it.exit_from, ~0ull);  // nothing it reads changes while it runs alone
  EXPECT_EQ(it.reads, 1u << s1);
  ASSERT_EQ(it.device_loads.size(), 1u);  // the one read the device counts per iteration
  EXPECT_EQ(it.device_loads[0].va, kLsr);
  EXPECT_EQ(it.device_loads[0].size, 1u);
  EXPECT_EQ(it.device_loads[0].value, 0x60u);
  EXPECT_FALSE(it.device_loads[0].offset);
  EXPECT_EQ(it.x[t1], 0u);
}

TEST(WaitLoop, MtimeReadAsMemoryIsTheTime) {
  // M-mode firmware: while (readq(&mtime) < end);
  View v;
  declare_devices(v);
  v.code(0x6000, {ld(t0, s1, 0), bltu(t0, s0, -4), kEcall});
  uint64_t x[32] = {};
  x[s1] = kMtime;
  x[s0] = 5000;
  const WaitLoopIteration it = evaluate_wait_loop(v, rv::decode32(ld(t0, s1, 0)), 0x6000, x, 1000, 64);
  ASSERT_EQ(it.refused, "");
  EXPECT_EQ(it.insns, 2u);
  EXPECT_EQ(it.exit_from, 5000u);
  EXPECT_EQ(it.x_at(t0, 4321), 4321u);
  ASSERT_EQ(it.device_loads.size(), 1u);
  EXPECT_TRUE(it.device_loads[0].offset);  // the clock, read as the time
  EXPECT_EQ(it.device_loads[0].size, 8u);
}

TEST(WaitLoop, TimeReadBesideAStableRegister) {
  // A wait for input with a timeout: while (!(lsr & DR) && rdtime() < end).
  View v;
  declare_devices(v);
  v.code(0x7000, {rdtime(t0), lbu(t1, s1, 5), andi(t1, t1, 1), bne(t1, zero, 8), bltu(t0, s0, -16), kEcall});
  uint64_t x[32] = {};
  x[s1] = View::kDevice;
  x[s0] = 9000;
  const WaitLoopIteration it = evaluate_wait_loop(v, rv::decode32(rdtime(t0)), 0x7000, x, 1000, 64);
  ASSERT_EQ(it.refused, "");
  EXPECT_EQ(it.exit_from, 9000u);
  ASSERT_EQ(it.device_loads.size(), 1u);
  EXPECT_EQ(it.device_loads[0].va, kLsr);
}

TEST(WaitLoop, RefusesDeviceRegistersNotDeclaredStable) {
  View v;
  declare_devices(v);
  uint64_t x[32] = {};
  x[s1] = View::kDevice;
  x[s2] = kMtime;
  x[s0] = 5000;
  const auto refused = [&](uint64_t pc, std::initializer_list<uint32_t> body) {
    v.code(pc, body);
    return evaluate_wait_loop(v, rv::decode32(*body.begin()), pc, x, 100, 64).refused;
  };
  // IIR (offset 2), whose read clears a THR-empty interrupt: a side effect.
  EXPECT_EQ(refused(0x8000, {lbu(t1, s1, 2), andi(t1, t1, 1), bne(t1, zero, -8), kEcall}),
            "a load from a device register not declared stable, or unmapped memory");
  // The clock read again inside an iteration that starts with the time CSR.
  EXPECT_EQ(refused(0x8100, {rdtime(t0), ld(t1, s2, 0), bltu(t1, s0, -8), kEcall}),
            "a second time read or WFI in one iteration");
  // Half of the clock: its value is no offset of the time.
  EXPECT_EQ(refused(0x8200, {lw(t0, s2, 0), bltu(t0, s0, -4), kEcall}), "a clock read narrower than 64 bits");
  // A store to the device in the loop.
  EXPECT_EQ(refused(0x8300, {lbu(t1, s1, 5), sd(t1, s1, 7 - 5), beq(t1, zero, -8), kEcall}),
            "a store to a device, to decoded code or unmapped memory");
}
