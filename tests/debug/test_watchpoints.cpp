// The data access of each kind of memory instruction and which watchpoint
// (write/read/access, address and length) it triggers, with the address GDB
// is told.
#include <gtest/gtest.h>

#include "debug/watchpoints.h"
#include "harts/data_access.h"

using namespace avp;
using namespace avp::rv;

namespace {
Insn insn(Op op, uint8_t rs1, int64_t imm = 0) {
  Insn d;
  d.op = op;
  d.rs1 = rs1;
  d.imm = imm;
  return d;
}
}  // namespace

TEST(Watchpoints, DataAccessOfLoadsStoresAndAtomics) {
  HartState s;
  s.x[5] = 0x1000;
  DataAccess a;
  ASSERT_TRUE(data_access(insn(LHU, 5, -2), s, a));
  EXPECT_EQ(a.addr, 0xFFEu);
  EXPECT_EQ(a.len, 2u);
  EXPECT_TRUE(a.read && !a.write);
  ASSERT_TRUE(data_access(insn(FSD, 5, 16), s, a));
  EXPECT_EQ(a.addr, 0x1010u);
  EXPECT_EQ(a.len, 8u);
  EXPECT_TRUE(!a.read && a.write);
  ASSERT_TRUE(data_access(insn(SC_W, 5, 99), s, a));  // atomics: x[rs1], no offset
  EXPECT_EQ(a.addr, 0x1000u);
  EXPECT_EQ(a.len, 4u);
  EXPECT_TRUE(!a.read && a.write);
  ASSERT_TRUE(data_access(insn(LR_D, 5), s, a));
  EXPECT_TRUE(a.read && !a.write);
  EXPECT_EQ(a.len, 8u);
  ASSERT_TRUE(data_access(insn(AMOADD_W, 5), s, a));
  EXPECT_TRUE(a.read && a.write);
  EXPECT_FALSE(data_access(insn(ADDI, 5, 4), s, a));
  EXPECT_FALSE(data_access(insn(ECALL, 0), s, a));
}

TEST(Watchpoints, KindsRangesAndReportedAddress) {
  rv::Triggers t0, t1;
  t0.configure(4);
  t1.configure(4);
  Watchpoints w({&t0, &t1});
  EXPECT_TRUE(w.empty());
  HartState s;
  s.x[5] = 0x1000;
  std::string field;
  ASSERT_TRUE(w.insert(Watchpoints::Write, 0x1004, 4));
  const Insn ld = insn(LD, 5), sd = insn(SD, 5), sw = insn(SW, 5);
  EXPECT_FALSE(w.hit(0, ld, 0x100, s, true, field));  // a read does not trigger a write watchpoint
  EXPECT_TRUE(w.hit(1, sd, 0x100, s, true, field));   // on every hart
  EXPECT_EQ(field, "watch:1004;");                    // the first watched byte the access touches
  EXPECT_FALSE(w.hit(0, sw, 0x100, s, true, field));  // [0x1000, 0x1004) does not overlap
  ASSERT_TRUE(w.insert(Watchpoints::Read, 0x1000, 1));
  EXPECT_TRUE(w.hit(0, ld, 0x100, s, true, field));
  EXPECT_EQ(field, "rwatch:1000;");
  // 12 bytes: a chained pair of triggers.
  ASSERT_TRUE(w.insert(Watchpoints::Access, 0x2004, 12));
  s.x[6] = 0x200F;
  EXPECT_TRUE(w.hit(0, insn(SB, 6), 0x100, s, true, field));
  EXPECT_EQ(field, "awatch:200f;");
  s.x[6] = 0x2010;
  EXPECT_FALSE(w.hit(0, insn(LB, 6), 0x100, s, true, field));
  // Four triggers per hart are used up: a fourth point does not fit anywhere.
  EXPECT_FALSE(w.insert(Watchpoints::Break, 0x400, 4));
  EXPECT_FALSE(w.remove(Watchpoints::Read, 0x1000, 2));  // must match kind, address and length
  EXPECT_TRUE(w.remove(Watchpoints::Read, 0x1000, 1));
  ASSERT_TRUE(w.insert(Watchpoints::Break, 0x400, 4));
  EXPECT_TRUE(w.hit(1, insn(ADDI, 0), 0x400, s, true, field));
  EXPECT_EQ(field, "");
  EXPECT_FALSE(w.hit(1, insn(ADDI, 0), 0x400, s, false, field));  // data watchpoints only
  w.clear();
  EXPECT_TRUE(w.empty());
  EXPECT_FALSE(w.hit(0, sd, 0x100, s, true, field));
  EXPECT_EQ(t0.debugger_insert(rv::Triggers::kExecute, 0, 1), 0);  // every trigger is free again
}
