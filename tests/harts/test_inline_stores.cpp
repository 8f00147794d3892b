// Stores in translated code without a helper call (block_translator.h,
// InlineStores): a store within the hart's last store region whose physical
// line the D-cache's quick checks find writes the region itself (only its
// own bytes), marks the line dirty and counts a hit and its time as the
// helper would; while any hart holds a reservation, on a granule with
// decoded code, across two granules, outside the region or on a line not
// found quickly, it calls the helper and changes nothing itself. The hart
// is a HartHotState (the layout the code addresses) with a fake helper.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "data_hot_state.h"

namespace {

using namespace avp;
using namespace avp::rv;
using namespace avp::test;

constexpr unsigned kGranuleBits = 8;

struct FakeHart : DataHotState {
  std::vector<std::pair<uint64_t, uint64_t>> helper_calls;  // the address and value the helper stored
};

JitStep helper(void* hart, uint64_t addr, uint64_t v, uint64_t, const Insn*) {
  static_cast<FakeHart*>(static_cast<HartHotState*>(hart))->helper_calls.emplace_back(addr, v);
  return {0, kExitDone};
}

// Stores x3 at x2 + offset (x2 = kBase).
Insn store(unsigned op, int64_t offset) {
  Insn d;
  d.op = static_cast<uint16_t>(op);
  d.rs1 = 2;
  d.rs2 = 3;
  d.imm = offset;
  return d;
}

class InlineStoresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    hart_.wr.ptr = mem_;
    hart_.wr.size = sizeof mem_;
    hart_.dcache.ways = ways_;
    ways_[0] = {line_at(0x40), 1};
    hart_.dcache.last_way = &ways_[0];
    hart_.dcache.clock = 1;
    const InlineLoads region = hot_offsets::inline_accesses(/*stores=*/true, &hart_.dcache);
    stores_ = {region, &reservations_, code_map_.data(), static_cast<uint32_t>(code_map_.size()), kGranuleBits};
    helpers_ = {{}, {helper, helper, helper, helper}, nullptr, nullptr, &stores_, nullptr,
                hot_offsets::kHartFromRegs};
  }
  // Runs the stores as one block; x2 = kBase, x3 = value.
  void run(const std::vector<Insn>& block, uint64_t value) {
    x_[2] = kBase;
    x_[3] = value;
    EXPECT_EQ(translate_and_run(block, helpers_, arena_, &hart_), block.size());
  }
  uint64_t bytes_at(size_t off, unsigned n) const { return test::bytes_at(mem_, off, n); }
  void mark_code(uint64_t pa) {
    code_map_.at(pa >> kGranuleBits) = 1;
  }

  alignas(8) uint8_t mem_[512] = {};
  CacheWay ways_[4];
  FakeHart hart_;
  unsigned reservations_ = 0;
  std::vector<uint8_t> code_map_ = std::vector<uint8_t>((pa_at(0) >> kGranuleBits) + 8, 0);
  InlineStores stores_{};
  TranslationHelpers helpers_{};
  CodeArena arena_;
  uint64_t* const x_ = static_cast<HartHotState&>(hart_).s.x;  // the registers the code is given
};

TEST_F(InlineStoresTest, StoresOnTheLastLineWriteTheirBytesMarkTheLineDirtyAndCountAHitEach) {
  run({store(SB, 0x41), store(SH, 0x42), store(SW, 0x44), store(SD, 0x48)}, 0x1122334455667788);
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(bytes_at(0x41, 1), 0x88u);
  EXPECT_EQ(bytes_at(0x42, 2), 0x7788u);
  EXPECT_EQ(bytes_at(0x44, 4), 0x55667788u);
  EXPECT_EQ(bytes_at(0x48, 8), 0x1122334455667788u);
  EXPECT_EQ(bytes_at(0x40, 1), 0u);  // negative controls: the bytes around them untouched
  EXPECT_EQ(bytes_at(0x50, 8), 0u);
  EXPECT_TRUE(ways_[0].dirty);
  EXPECT_EQ(hart_.dcache.hits, 4u);
  EXPECT_EQ(hart_.time.ps(), 4 * kHitPs);
  EXPECT_EQ(hart_.memory_stall_ps(), 4 * kHitPs);
}

// A store on the line in the way its hint names: a hit (hit_way's
// bookkeeping) and that way, not the old last one, marked dirty.
TEST_F(InlineStoresTest, AStoreInTheHintedWayMarksThatWayDirty) {
  ways_[2] = {line_at(0x80), 0};
  hart_.data_way_hint(line_at(0x80)) = 2;
  run({store(SD, 0x88)}, 42);
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(bytes_at(0x88, 8), 42u);
  EXPECT_TRUE(ways_[2].dirty);
  EXPECT_FALSE(ways_[0].dirty);
  EXPECT_EQ(hart_.dcache.last_line, line_at(0x80));
  EXPECT_EQ(hart_.dcache.prev_line, line_at(0x40));
  EXPECT_EQ(ways_[2].used, 2u);
  EXPECT_EQ(hart_.dcache.hits, 1u);
}

TEST_F(InlineStoresTest, ReservationsCodeGranulesAndOtherLinesCallTheHelper) {
  const auto helper_only = [this](const std::vector<Insn>& block, size_t calls) {
    run(block, 7);
    EXPECT_EQ(hart_.helper_calls.size(), calls);
    EXPECT_EQ(hart_.dcache.hits, 0u);
    EXPECT_FALSE(ways_[0].dirty);
    EXPECT_EQ(bytes_at(0x40, 8), 0u);
    hart_.helper_calls.clear();
  };
  reservations_ = 1;
  helper_only({store(SD, 0x40)}, 1);
  reservations_ = 0;
  mark_code(pa_at(0x40));
  helper_only({store(SD, 0x40)}, 1);
  std::fill(code_map_.begin(), code_map_.end(), 0);
  hart_.dcache.last_line = line_at(0xfc);
  ways_[0].tag = line_at(0xfc);
  // Across granules, misaligned in one granule and line, another line, outside.
  helper_only({store(SW, 0xfe), store(SD, 0xf4), store(SD, 0x80), store(SD, 0x200), store(SD, -8)}, 5);
  EXPECT_EQ(bytes_at(0xfe, 4), 0u);
  // The same store inline once nothing stands in its way: the controls above were the conditions.
  run({store(SH, 0xfc)}, 0xabcd);
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(bytes_at(0xfc, 2), 0xabcdu);
  EXPECT_TRUE(ways_[0].dirty);
}

// Untimed stores (functional mode) test their granule the same way, without
// the D-cache; a granule beyond the map holds no code.
TEST_F(InlineStoresTest, UntimedStoresSkipTheDCacheAndPassGranulesBeyondTheMap) {
  stores_.region = hot_offsets::inline_accesses(/*stores=*/true, /*timed=*/nullptr);
  mark_code(pa_at(0x40));
  run({store(SD, 0x40)}, 5);
  EXPECT_EQ(hart_.helper_calls.size(), 1u);
  EXPECT_EQ(bytes_at(0x40, 8), 0u);
  hart_.helper_calls.clear();
  run({store(SD, 0x140)}, 6);  // the next granule holds no code
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(bytes_at(0x140, 8), 6u);
  stores_.code_map_bytes = static_cast<uint32_t>(pa_at(0x40) >> kGranuleBits);  // its granule is beyond the map
  run({store(SD, 0x40)}, 7);
  EXPECT_TRUE(hart_.helper_calls.empty());
  EXPECT_EQ(bytes_at(0x40, 8), 7u);
  EXPECT_EQ(hart_.dcache.hits, 0u);
  EXPECT_FALSE(ways_[0].dirty);
}

// A code-free store region (DmiRegion::code_free) is not looked up in the
// code map, timed or not: the region's maker and the cluster keep the flag
// true only where no granule is marked (test_code_free_regions.cpp).
TEST_F(InlineStoresTest, StoresInACodeFreeRegionDoNotReadTheCodeMap) {
  const CacheQuickState* const modes[] = {&hart_.dcache, nullptr};  // timed, functional
  for (const CacheQuickState* timed : modes) {
    stores_.region = hot_offsets::inline_accesses(/*stores=*/true, timed);
    mark_code(pa_at(0x40));
    hart_.wr.code_free = true;
    run({store(SD, 0x40)}, 9);
    EXPECT_TRUE(hart_.helper_calls.empty());
    EXPECT_EQ(bytes_at(0x40, 8), 9u);
    hart_.wr.code_free = false;  // the control: the same store, the map read
    run({store(SD, 0x40)}, 10);
    EXPECT_EQ(hart_.helper_calls.size(), 1u);
    EXPECT_EQ(bytes_at(0x40, 8), 9u);
    hart_.helper_calls.clear();
    reservations_ = 1;  // a reservation still sends it to the helper
    hart_.wr.code_free = true;
    run({store(SD, 0x40)}, 11);
    EXPECT_EQ(hart_.helper_calls.size(), 1u);
    EXPECT_EQ(bytes_at(0x40, 8), 9u);
    hart_.helper_calls.clear();
    reservations_ = 0;
    hart_.wr.code_free = false;
  }
}

}  // namespace
