// The data access of each kind of memory instruction and which watchpoint
// (write/read/access, address and length) it triggers, with the address GDB
// is told.
#include <gtest/gtest.h>

#include "debug/watchpoints.h"

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
  Watchpoints w;
  EXPECT_TRUE(w.empty());
  w.insert(Watchpoints::Write, 0x1004, 4);
  const DataAccess load{0x1000, 8, true, false}, store{0x1000, 8, false, true}, below{0x1000, 4, false, true};
  EXPECT_EQ(w.hit(load), "");                // a read does not trigger a write watchpoint
  EXPECT_EQ(w.hit(store), "watch:1004;");    // the first watched byte the access touches
  EXPECT_EQ(w.hit(below), "");               // [0x1000, 0x1004) does not overlap
  w.insert(Watchpoints::Read, 0x1000, 1);
  EXPECT_EQ(w.hit(load), "rwatch:1000;");
  w.insert(Watchpoints::Access, 0x2000, 8);
  EXPECT_EQ(w.hit({0x2007, 1, false, true}), "awatch:2007;");
  EXPECT_EQ(w.hit({0x2008, 1, true, false}), "");
  EXPECT_FALSE(w.remove(Watchpoints::Read, 0x1000, 2));  // must match kind, address and length
  EXPECT_TRUE(w.remove(Watchpoints::Read, 0x1000, 1));
  EXPECT_TRUE(w.remove(Watchpoints::Write, 0x1004, 4));
  EXPECT_TRUE(w.remove(Watchpoints::Access, 0x2000, 8));
  EXPECT_TRUE(w.empty());
}
