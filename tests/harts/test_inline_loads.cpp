// Loads in translated code without a helper call (block_translator.h,
// InlineLoads): a load within the hart's last load region whose physical
// line is the one the D-cache's last access found reads the region itself,
// sign- or zero-extended as its width says, and counts a hit and its time as
// the helper would; a load outside the region, past its end or on another
// line calls the helper, and counts nothing itself. The hart is a
// HartHotState (the layout the code addresses) with a fake helper.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "data_hot_state.h"

namespace {

using namespace avp;
using namespace avp::rv;
using namespace avp::test;

struct FakeHart : DataHotState {
  std::vector<uint64_t> helper_calls;  // the addresses the helper loaded
};

JitStep helper(void* hart, uint64_t addr, uint64_t, const Insn*) {
  static_cast<FakeHart*>(static_cast<HartHotState*>(hart))->helper_calls.push_back(addr);
  return {0x5a5a, kExitDone};
}

Insn load(unsigned op, unsigned rd, int64_t offset) {
  Insn d;
  d.op = static_cast<uint16_t>(op);
  d.rd = static_cast<uint8_t>(rd);
  d.rs1 = 2;  // x2 = kBase
  d.imm = offset;
  return d;
}

class InlineLoadsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    for (size_t i = 0; i < sizeof mem_; ++i) mem_[i] = static_cast<uint8_t>(0x80 + i);  // bytes with the sign bit set
    hart_.rd.ptr = mem_;
    hart_.dcache.ways = ways_;
    loads_ = hot_offsets::inline_accesses(/*stores=*/false, &hart_.dcache);
    helpers_ = {{helper, helper, helper, helper, helper, helper, helper}, {}, nullptr, &loads_, nullptr, nullptr,
                hot_offsets::kHartFromRegs};
  }
  // Runs the loads as one block; x2 = kBase.
  void run(const std::vector<Insn>& block) {
    x_[2] = kBase;
    EXPECT_EQ(translate_and_run(block, helpers_, arena_, &hart_), block.size());
  }
  uint64_t bytes_at(size_t off, unsigned n) const { return test::bytes_at(mem_, off, n); }

  alignas(8) uint8_t mem_[256];
  CacheWay ways_[4];
  FakeHart hart_;
  InlineLoads loads_{};
  TranslationHelpers helpers_{};
  CodeArena arena_;
  uint64_t* const x_ = static_cast<HartHotState&>(hart_).s.x;  // the registers the code is given
};

TEST_F(InlineLoadsTest, LoadsOnTheLastLineReadTheRegionAndCountAHitEach) {
  run({load(LB, 3, 0x41), load(LH, 4, 0x42), load(LW, 5, 0x44), load(LD, 6, 0x48), load(LBU, 7, 0x41),
       load(LHU, 8, 0x42), load(LWU, 9, 0x44)});
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(x_[3], static_cast<uint64_t>(static_cast<int8_t>(bytes_at(0x41, 1))));
  EXPECT_EQ(x_[4], static_cast<uint64_t>(static_cast<int16_t>(bytes_at(0x42, 2))));
  EXPECT_EQ(x_[5], static_cast<uint64_t>(static_cast<int32_t>(bytes_at(0x44, 4))));
  EXPECT_EQ(x_[6], bytes_at(0x48, 8));
  EXPECT_EQ(x_[7], bytes_at(0x41, 1));
  EXPECT_EQ(x_[8], bytes_at(0x42, 2));
  EXPECT_EQ(x_[9], bytes_at(0x44, 4));
  EXPECT_GT(x_[3] >> 63, 0u);  // negative controls: the signed loads did extend the sign
  EXPECT_EQ(x_[7] >> 8, 0u);
  EXPECT_EQ(hart_.dcache.hits, 7u);
  EXPECT_EQ(hart_.time.ps(), 7 * kHitPs);
  EXPECT_EQ(hart_.memory_stall_ps(), 7 * kHitPs);
}

// Regions are whole 8-byte words (DmiRegions::find): an access aligned to its
// size is compared by its first byte; a misaligned one goes to the helper
// even where the region holds it.
TEST_F(InlineLoadsTest, OtherLinesAccessesPastTheRegionAndMisalignedOnesCallTheHelper) {
  hart_.rd.size = 0x48;  // the region ends within the last line
  run({load(LW, 3, 0x80), load(LW, 4, -8), load(LD, 5, 0x48), load(LW, 6, 0x42), load(LW, 7, 0x44),
       load(LH, 8, 0x46)});
  EXPECT_EQ(hart_.helper_calls, (std::vector<uint64_t>{kBase + 0x80, kBase - 8, kBase + 0x48, kBase + 0x42}));
  EXPECT_EQ(x_[3], 0x5a5au);
  EXPECT_EQ(x_[5], 0x5a5au);
  EXPECT_EQ(x_[6], 0x5a5au);
  EXPECT_EQ(x_[7], static_cast<uint64_t>(static_cast<int32_t>(bytes_at(0x44, 4))));  // aligned, in the region: inline
  EXPECT_EQ(x_[8], static_cast<uint64_t>(static_cast<int16_t>(bytes_at(0x46, 2))));  // its last bytes
  EXPECT_EQ(hart_.dcache.hits, 2u);  // the helper counts its own
  EXPECT_EQ(hart_.time.ps(), 2 * kHitPs);
}

// A load on the line before the last, still in its way, or on the line in
// the way its hint names: a hit, and the line becomes the last (the last the
// previous), its way used, as CacheModel::hit_previous and hit_way do.
TEST_F(InlineLoadsTest, LoadsOnThePreviousLineOrInTheHintedWayHit) {
  ways_[0] = {line_at(0x40), 1};
  ways_[1] = {line_at(0x80), 2};
  ways_[3] = {line_at(0xc0), 3};
  hart_.dcache.last_way = &ways_[0];
  hart_.dcache.prev_line = line_at(0x80);
  hart_.dcache.prev_way = &ways_[1];
  hart_.dcache.clock = 3;
  hart_.data_way_hint(line_at(0xc0)) = 3;
  run({load(LD, 3, 0x88), load(LD, 4, 0xc8), load(LD, 5, 0x48)});
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(x_[3], bytes_at(0x88, 8));
  EXPECT_EQ(x_[4], bytes_at(0xc8, 8));
  EXPECT_EQ(hart_.dcache.hits, 3u);
  EXPECT_EQ(hart_.time.ps(), 3 * kHitPs);
  // 0x80 by hit_previous (clock 4), 0xc0 in way 3 (clock 5), 0x40 in way 0 by its hint (way 0, clock 6).
  EXPECT_EQ(ways_[1].used, 4u);
  EXPECT_EQ(ways_[3].used, 5u);
  EXPECT_EQ(ways_[0].used, 6u);
  EXPECT_EQ(hart_.dcache.clock, 6u);
  EXPECT_EQ(hart_.dcache.last_line, line_at(0x40));
  EXPECT_EQ(hart_.dcache.last_way, &ways_[0]);
  EXPECT_EQ(hart_.dcache.prev_line, line_at(0xc0));
  EXPECT_EQ(hart_.dcache.prev_way, &ways_[3]);
}

TEST_F(InlineLoadsTest, AWayHoldingAnotherLineSendsTheLoadToTheHelper) {
  ways_[2] = {line_at(0x80) + 100, 1};  // the hinted way and the previous line's way hold other lines now
  hart_.dcache.prev_line = line_at(0x80);
  hart_.dcache.prev_way = &ways_[2];
  hart_.data_way_hint(line_at(0x80)) = 2;
  hart_.dcache.clock = 1;
  run({load(LD, 3, 0x88)});
  EXPECT_EQ(hart_.helper_calls, (std::vector<uint64_t>{kBase + 0x88}));
  EXPECT_EQ(hart_.dcache.hits, 0u);
  EXPECT_EQ(hart_.dcache.clock, 1u);  // nothing changed
  EXPECT_EQ(hart_.dcache.last_line, line_at(0x40));
  EXPECT_EQ(ways_[2].used, 1u);
}

TEST_F(InlineLoadsTest, NoLineMatchesWithoutALastAccess) {
  hart_.dcache.last_line = ~0ull;  // as after CacheModel::forget, or a D-cache not modelled
  run({load(LD, 3, 0x48)});
  EXPECT_EQ(hart_.helper_calls.size(), 1u);
  EXPECT_EQ(hart_.dcache.hits, 0u);
}

}  // namespace
