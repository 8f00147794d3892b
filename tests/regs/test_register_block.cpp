// The register framework on its own: widths, reset values, access rights,
// callbacks, arrays, per-unit banks, latency and the misuse rules of both
// policies, each checked against the rules in register_block.h.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "base/payload.h"
#include "base/unit.h"
#include "regs/register_block.h"

using namespace avp;

namespace {

struct Owner : sc_core::sc_object {
  Owner() : sc_object("owner") {}
};

struct Block {
  Owner owner;
  RegisterBlock regs;
  Reg<uint8_t> B8{regs, "B8", 0x00, Access::RW, 0x5A};
  Reg<uint16_t> H16{regs, "H16", 0x02, Access::RO, 0xBEEF};
  Reg<uint32_t> W32{regs, "W32", 0x04, Access::WO};
  Reg<uint64_t> D64{regs, "D64", 0x08, Access::RW, 0x1122'3344'5566'7788ull};
  Reg<uint32_t> FLAGS{regs, "FLAGS", 0x10, Access::W1C, 0xF0};
  Reg<uint32_t> ARR{regs, "ARR", 0x20, Access::RW, 7, 4, 8};  // 0x20, 0x28, 0x30, 0x38
  explicit Block(RegisterBlock::Misuse policy, sc_core::sc_time latency = sc_core::SC_ZERO_TIME)
      : regs(&owner, "test block", 0x40, policy, "latency", latency) {}

  tlm::tlm_response_status access(bool write, uint64_t addr, void* data, unsigned len, UnitId unit = 0,
                                  RegisterBlock::Outcome* out = nullptr, sc_core::sc_time* delay = nullptr) {
    tlm::tlm_generic_payload gp;
    prepare_payload(gp, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, len);
    set_unit(gp, unit);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const RegisterBlock::Outcome o = regs.access(gp, t);
    if (out) *out = o;
    if (delay) *delay = t;
    return gp.get_response_status();
  }
  uint64_t rd(uint64_t addr, unsigned len) {
    uint64_t v = 0;
    regs.read(addr, len, v);
    return v;
  }
};

}  // namespace

TEST(RegisterBlock, RegistersOfEveryWidthStartAtTheirResetValue) {
  Block b(RegisterBlock::Misuse::Ignore);
  EXPECT_EQ(b.rd(0x00, 1), 0x5Au);
  EXPECT_EQ(b.rd(0x02, 2), 0xBEEFu);
  EXPECT_EQ(b.rd(0x08, 8), 0x1122'3344'5566'7788ull);
  EXPECT_EQ(b.rd(0x10, 4), 0xF0u);
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.rd(0x20 + 8 * i, 4), 7u);
  b.regs.write(0x00, 1, 0x33);
  b.regs.write(0x28, 4, 9);
  b.regs.reset();
  EXPECT_EQ(b.rd(0x00, 1), 0x5Au);
  EXPECT_EQ(b.rd(0x28, 4), 7u);
}

TEST(RegisterBlock, AccessRightsDecideWhatAWriteDoes) {
  Block b(RegisterBlock::Misuse::Ignore);
  EXPECT_EQ(b.regs.write(0x00, 1, 0xA5), RegisterBlock::Outcome::Written);
  EXPECT_EQ(b.B8.get(), 0xA5u);
  EXPECT_EQ(b.regs.write(0x02, 2, 0x1234), RegisterBlock::Outcome::Misused);  // RO
  EXPECT_EQ(b.H16.get(), 0xBEEFu);
  EXPECT_EQ(b.regs.write(0x04, 4, 0xCAFE), RegisterBlock::Outcome::Written);  // WO stores
  EXPECT_EQ(b.W32.get(), 0xCAFEu);
  uint64_t v = 0;
  EXPECT_EQ(b.regs.read(0x04, 4, v), RegisterBlock::Outcome::Misused);  // WO read
  EXPECT_EQ(v, ~0ull);
  EXPECT_EQ(b.regs.write(0x10, 4, 0x30), RegisterBlock::Outcome::Written);  // W1C: clears bits 4, 5
  EXPECT_EQ(b.rd(0x10, 4), 0xC0u);
  EXPECT_EQ(b.regs.write(0x10, 4, 0x0F), RegisterBlock::Outcome::Written);  // clearing clear bits: no change
  EXPECT_EQ(b.rd(0x10, 4), 0xC0u);
}

TEST(RegisterBlock, SixtyFourBitRegistersTakeWholeOrHalfAccesses) {
  Block b(RegisterBlock::Misuse::Ignore);
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  b.D64.on_write([&](unsigned, uint64_t v, uint64_t mask) { seen.emplace_back(v, mask); });
  EXPECT_EQ(b.rd(0x08, 4), 0x5566'7788u);
  EXPECT_EQ(b.rd(0x0C, 4), 0x1122'3344u);
  b.regs.write(0x0C, 4, 0xAAAA'BBBB);
  EXPECT_EQ(b.D64.get(), 0xAAAA'BBBB'5566'7788ull);
  b.regs.write(0x08, 8, 0x0102'0304'0506'0708ull);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].second, 0xFFFF'FFFF'0000'0000ull);
  EXPECT_EQ(seen[1].first, 0x0102'0304'0506'0708ull);
  EXPECT_EQ(seen[1].second, ~0ull);
  uint64_t v = 0;
  EXPECT_EQ(b.regs.read(0x0A, 4, v), RegisterBlock::Outcome::Misused);  // not a half
  EXPECT_EQ(b.regs.read(0x08, 2, v), RegisterBlock::Outcome::Misused);
}

TEST(RegisterBlock, CallbacksReplaceTheStoredValueAndSeeTheElementIndex) {
  Block b(RegisterBlock::Misuse::Ignore);
  unsigned last_idx = 99;
  uint32_t last_val = 0;
  b.ARR.on_read([](unsigned i) { return 100 + i; }).on_write([&](unsigned i, uint32_t v) {
    last_idx = i;
    last_val = v;
  });
  EXPECT_EQ(b.rd(0x30, 4), 102u);
  b.regs.write(0x38, 4, 5);
  EXPECT_EQ(last_idx, 3u);
  EXPECT_EQ(last_val, 5u);
  EXPECT_EQ(b.ARR.get(3), 5u);
  uint64_t v = 0;
  EXPECT_EQ(b.regs.read(0x24, 4, v), RegisterBlock::Outcome::Misused);  // the gap between elements
}

TEST(RegisterBlock, BanksKeepOneCopyPerUnit) {
  Block b(RegisterBlock::Misuse::Ignore);
  b.regs.set_bank_selector([](const tlm::tlm_generic_payload& gp) { return unit_of(gp); });
  uint32_t v = 11;
  b.access(true, 0x20, &v, 4, 1);
  v = 22;
  b.access(true, 0x20, &v, 4, 2);
  b.access(false, 0x20, &v, 4, 1);
  EXPECT_EQ(v, 11u);
  b.access(false, 0x20, &v, 4, 2);
  EXPECT_EQ(v, 22u);
  b.access(false, 0x20, &v, 4, 3);  // a new bank starts at the reset value
  EXPECT_EQ(v, 7u);
}

TEST(RegisterBlock, EveryAccessCostsTheBlocksLatency) {
  Block b(RegisterBlock::Misuse::BusError, sc_core::sc_time(3, sc_core::SC_NS));
  sc_core::sc_time d;
  uint8_t x = 0;
  b.access(false, 0x00, &x, 1, 0, nullptr, &d);
  EXPECT_EQ(d, sc_core::sc_time(3, sc_core::SC_NS));
  b.access(false, 0x3C, &x, 1, 0, nullptr, &d);  // misuse costs the same
  EXPECT_EQ(d, sc_core::sc_time(3, sc_core::SC_NS));
}

TEST(RegisterBlock, IgnorePolicyMisuseReadsAllOnesAndChangesNothing) {
  Block b(RegisterBlock::Misuse::Ignore);
  RegisterBlock::Outcome out;
  uint64_t v = 0;
  EXPECT_EQ(b.access(false, 0x3C, &v, 4, 0, &out), tlm::TLM_OK_RESPONSE);  // unmapped
  EXPECT_EQ(out, RegisterBlock::Outcome::Misused);
  EXPECT_EQ(v, 0xFFFF'FFFFu);
  uint32_t w = 0;
  EXPECT_EQ(b.access(true, 0x02, &w, 2, 0, &out), tlm::TLM_OK_RESPONSE);  // RO
  EXPECT_EQ(out, RegisterBlock::Outcome::Misused);
  EXPECT_EQ(b.H16.get(), 0xBEEFu);
  EXPECT_EQ(b.access(true, 0x10, &w, 2, 0, &out), tlm::TLM_OK_RESPONSE);  // bad size on W1C
  EXPECT_EQ(b.rd(0x10, 4), 0xF0u);
  uint8_t big[16] = {};
  EXPECT_EQ(b.access(true, 0x08, big, 16, 0, &out), tlm::TLM_OK_RESPONSE);  // wider than any register
  EXPECT_EQ(out, RegisterBlock::Outcome::Misused);
  EXPECT_EQ(b.D64.get(), 0x1122'3344'5566'7788ull);
}

TEST(RegisterBlock, BusErrorPolicyAnswersEachMisuseWithItsError) {
  Block b(RegisterBlock::Misuse::BusError);
  uint32_t v = 0;
  EXPECT_EQ(b.access(false, 0x04, &v, 4), tlm::TLM_COMMAND_ERROR_RESPONSE);  // WO read
  EXPECT_EQ(b.access(true, 0x02, &v, 2), tlm::TLM_COMMAND_ERROR_RESPONSE);   // RO write
  EXPECT_EQ(b.access(true, 0x04, &v, 2), tlm::TLM_BURST_ERROR_RESPONSE);     // size
  EXPECT_EQ(b.access(true, 0x06, &v, 2), tlm::TLM_BURST_ERROR_RESPONSE);     // inside W32, misaligned
  EXPECT_EQ(b.access(true, 0x3C, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);   // unmapped
  EXPECT_EQ(b.access(true, 0x1000, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE); // beyond the block
  EXPECT_EQ(b.W32.get(), 0u);
  EXPECT_EQ(b.access(true, 0x04, &v, 4), tlm::TLM_OK_RESPONSE);
}

TEST(RegisterBlock, LayoutErrorsAreRefusedAtDeclaration) {
  Owner o;
  RegisterBlock regs(&o, "bad", 0x10, RegisterBlock::Misuse::Ignore, "bad_latency");
  Reg<uint32_t> a{regs, "A", 0x0, Access::RW};
  EXPECT_THROW((Reg<uint32_t>{regs, "OVERLAP", 0x0, Access::RW}), std::logic_error);
  EXPECT_THROW((Reg<uint64_t>{regs, "INSIDE", 0x0, Access::RW}), std::logic_error);
  EXPECT_THROW((Reg<uint32_t>{regs, "MISALIGNED", 0x6, Access::RW}), std::logic_error);
  EXPECT_THROW((Reg<uint32_t>{regs, "OUTSIDE", 0x10, Access::RW}), std::logic_error);
  EXPECT_THROW((Reg<uint32_t>{regs, "ARRAY", 0x4, Access::RW, 0, 4, 4}), std::logic_error);  // runs past the end
}

TEST(RegisterBlock, TheMapListsEveryElementInOffsetOrder) {
  Block b(RegisterBlock::Misuse::Ignore);
  std::ostringstream os;
  b.regs.print(os);
  const std::string map = os.str();
  EXPECT_NE(map.find("test block (misuse: ignored)"), std::string::npos) << map;
  EXPECT_NE(map.find("0x0002  16-bit   RO  reset 0xbeef  H16"), std::string::npos) << map;
  EXPECT_NE(map.find("0x0010  32-bit  W1C  reset 0xf0  FLAGS"), std::string::npos) << map;
  EXPECT_NE(map.find("0x0038  32-bit   RW  reset 0x7  ARR[3]"), std::string::npos) << map;
  EXPECT_LT(map.find("B8"), map.find("D64"));
}
