// The trigger module (Sdtrig) on its own, from the debug specification's
// text: WARL fields, match kinds, privilege bits, chains, tcontrol.mte,
// dmode protection and the debugger's allocation of triggers.
#include <gtest/gtest.h>

#include "harts/triggers.h"

using namespace avp;
using namespace avp::rv;

namespace {
constexpr uint64_t kType2 = 2ull << 60, kType6 = 6ull << 60, kType15 = 15ull << 60;
constexpr uint64_t kSU = Triggers::kS | Triggers::kU;

Insn load_word(uint8_t rs1, int64_t imm = 0) {
  Insn d;
  d.op = LW;
  d.rs1 = rs1;
  d.imm = imm;
  d.len = 4;
  return d;
}
Insn nop() {
  Insn d;
  d.op = ADDI;
  d.len = 4;
  return d;
}
void program(Triggers& t, unsigned i, uint64_t tdata1, uint64_t tdata2) {
  t.write(CSR_TSELECT, i);
  t.write(CSR_TDATA2, tdata2);
  t.write(CSR_TDATA1, tdata1);
}
uint64_t match_field(unsigned m) { return static_cast<uint64_t>(m) << 7; }
}  // namespace

TEST(Triggers, CsrsAreWarl) {
  Triggers t;
  t.configure(4);
  EXPECT_EQ(t.read(CSR_TINFO), Triggers::kTinfo);
  t.write(CSR_TSELECT, 3);
  EXPECT_EQ(t.read(CSR_TSELECT), 3u);
  t.write(CSR_TSELECT, 4);  // out of range: ignored
  EXPECT_EQ(t.read(CSR_TSELECT), 3u);
  EXPECT_EQ(t.read(CSR_TDATA1), kType2);  // reset: type 2, nothing enabled
  // Unsupported type, match kind and action; dmode from M-mode; chain on the last trigger.
  t.write(CSR_TDATA1, (3ull << 60) | Triggers::kExecute);
  EXPECT_EQ(t.read(CSR_TDATA1), kType15);
  t.write(CSR_TDATA1, kType6 | Triggers::kDmode | (1u << 12) | Triggers::kChain | match_field(9) | Triggers::kLoad | kSU);
  EXPECT_EQ(t.read(CSR_TDATA1), kType6 | Triggers::kLoad | kSU);
  t.write(CSR_TSELECT, 0);
  t.write(CSR_TDATA1, kType2 | Triggers::kChain | match_field(1) | Triggers::kStore);
  EXPECT_EQ(t.read(CSR_TDATA1), kType2 | (63ull << 53) | Triggers::kChain | match_field(1) | Triggers::kStore);
  t.write(CSR_TDATA3, 5);
  EXPECT_EQ(t.read(CSR_TDATA3), 0u);
  t.write(CSR_TCONTROL, ~0ull);
  EXPECT_EQ(t.read(CSR_TCONTROL), Triggers::kMte | Triggers::kMpte);
}

TEST(Triggers, MatchKindsOnLoads) {
  Triggers t;
  t.configure(2);
  HartState s;
  s.priv = PRV_S;
  s.x[5] = 0x1000;
  struct Case {
    unsigned match;
    uint64_t tdata2, addr;
    bool fires;
  } cases[] = {
      {0, 0x1002, 0x1000, true},   // equal: any byte of the 4-byte access
      {0, 0x1004, 0x1000, false},
      {1, 0x1007, 0x1004, true},   // NAPOT [0x1000, 0x1010)
      {1, 0x1007, 0x1010, false},
      {1, 0x1007, 0x0FFE, true},   // straddles the range's start
      {2, 0x1003, 0x1000, true},   // >=: the access's last byte
      {2, 0x1004, 0x1000, false},
      {3, 0x1001, 0x1000, true},   // <: the access's first byte
      {3, 0x1000, 0x1000, false},
  };
  for (const Case& c : cases) {
    program(t, 0, kType6 | match_field(c.match) | Triggers::kLoad | kSU, c.tdata2);
    s.x[5] = c.addr;
    const auto hit = t.match(load_word(5), 0x80000000, s, false);
    EXPECT_EQ(hit.has_value(), c.fires) << "match " << c.match << " tdata2 " << std::hex << c.tdata2 << " addr " << c.addr;
    if (hit) {
      EXPECT_EQ(hit->tval, c.addr);
      EXPECT_FALSE(hit->execute);
    }
  }
  EXPECT_TRUE(t.native_armed());
  // A firing sets the hit bit (hit0 for type 6).
  t.write(CSR_TSELECT, 0);
  EXPECT_FALSE(t.read(CSR_TDATA1) & (1ull << 22));
  s.x[5] = 0x0FFF;
  EXPECT_TRUE(t.match(load_word(5), 0x80000000, s, false));
  EXPECT_TRUE(t.read(CSR_TDATA1) & (1ull << 22));
}

TEST(Triggers, PrivilegeBitsAndMte) {
  Triggers t;
  t.configure(1);
  HartState s;
  program(t, 0, kType6 | Triggers::kExecute | Triggers::kM | Triggers::kU, 0x2000);
  s.priv = PRV_S;
  EXPECT_FALSE(t.match(nop(), 0x2000, s, false));
  s.priv = PRV_U;
  EXPECT_TRUE(t.match(nop(), 0x2000, s, false));
  EXPECT_FALSE(t.match(nop(), 0x2004, s, false));
  // M-mode: breakpoint exceptions only while tcontrol.mte is set; a trap
  // into M-mode clears it and MRET restores it.
  s.priv = PRV_M;
  EXPECT_FALSE(t.match(nop(), 0x2000, s, false));
  t.write(CSR_TCONTROL, Triggers::kMte);
  EXPECT_TRUE(t.match(nop(), 0x2000, s, false));
  t.trap_to_m();
  EXPECT_EQ(t.read(CSR_TCONTROL), Triggers::kMpte);
  EXPECT_FALSE(t.match(nop(), 0x2000, s, false));
  t.mret();
  EXPECT_EQ(t.read(CSR_TCONTROL), Triggers::kMte | Triggers::kMpte);
  EXPECT_TRUE(t.match(nop(), 0x2000, s, false));
  // Action-0 triggers never stop the debugger.
  EXPECT_FALSE(t.match(nop(), 0x2000, s, true));
}

TEST(Triggers, ChainsNeedEveryLink) {
  Triggers t;
  t.configure(3);
  HartState s;
  s.priv = PRV_U;
  // [0x3000, 0x3010) as >= and < chained, store only.
  program(t, 0, kType6 | Triggers::kChain | match_field(2) | Triggers::kStore | kSU, 0x3000);
  program(t, 1, kType6 | match_field(3) | Triggers::kStore | kSU, 0x3010);
  Insn sw;
  sw.op = SW;
  sw.rs1 = 6;
  sw.len = 4;
  for (uint64_t a : {0x2FF0ull, 0x3000ull, 0x300Cull, 0x3010ull}) {
    s.x[6] = a;
    const auto hit = t.match(sw, 0x100, s, false);
    EXPECT_EQ(hit.has_value(), a >= 0x3000 && a < 0x3010) << std::hex << a;
    if (hit) {
      EXPECT_EQ(hit->index, 0u);
    }
  }
  s.x[6] = 0x3004;
  EXPECT_FALSE(t.match(load_word(6), 0x100, s, false));  // a load: the store trigger stays quiet
}

TEST(Triggers, DebuggerTriggersAreProtectedAndAllocated) {
  Triggers t;
  t.configure(3);
  HartState s;
  s.priv = PRV_M;
  // A 4-byte aligned watch takes one trigger, a 12-byte one a chained pair.
  const int w4 = t.debugger_insert(Triggers::kStore, 0x4000, 4);
  const int w12 = t.debugger_insert(Triggers::kLoad | Triggers::kStore, 0x5004, 12);
  EXPECT_EQ(w4, 0);
  EXPECT_EQ(w12, 1);
  EXPECT_EQ(t.debugger_insert(Triggers::kExecute, 0x100, 1), -1);  // none left
  EXPECT_FALSE(t.native_armed());
  // M-mode software cannot change them.
  t.write(CSR_TSELECT, 0);
  const uint64_t before = t.read(CSR_TDATA1);
  EXPECT_TRUE(before & Triggers::kDmode);
  t.write(CSR_TDATA1, kType6 | Triggers::kLoad | kSU);
  t.write(CSR_TDATA2, 0);
  EXPECT_EQ(t.read(CSR_TDATA1), before);
  EXPECT_EQ(t.read(CSR_TDATA2), 0x4001u);  // NAPOT of 4 bytes: base | (len / 2 - 1)
  // They fire for the debugger in every mode, whatever tcontrol says.
  Insn sw;
  sw.op = SW;
  sw.rs1 = 7;
  sw.len = 4;
  s.x[7] = 0x4000;
  auto hit = t.match(sw, 0x100, s, true);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->index, 0u);
  EXPECT_FALSE(t.match(sw, 0x100, s, false));
  s.x[7] = 0x500C;
  hit = t.match(load_word(7), 0x100, s, true);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->index, 1u);
  s.x[7] = 0x5010;
  EXPECT_FALSE(t.match(load_word(7), 0x100, s, true));
  t.debugger_remove(w12);
  EXPECT_EQ(t.debugger_insert(Triggers::kExecute, 0x100, 1), 1);
  EXPECT_EQ(t.debugger_insert(Triggers::kExecute, 0x104, 1), 2);
}

TEST(Triggers, NoneConfigured) {
  Triggers t;
  t.configure(0);
  EXPECT_EQ(t.count(), 0u);
  EXPECT_EQ(t.debugger_insert(Triggers::kExecute, 0x100, 1), -1);
  HartState s;
  EXPECT_FALSE(t.match(nop(), 0x100, s, true));
}
