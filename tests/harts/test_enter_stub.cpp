// The enter stub (models/harts/translated_enter.cpp): a block whose lines
// are not the ones fetched last enters through the stub when each line hits
// CacheModel's other quick checks (the line before the last while its way
// holds it, the way the block's hint names), with their bookkeeping (LRU
// clock, last and previous line, hits, time) and no call of enter; a
// two-line block whose second line misses goes to enter_second with the
// first line counted; anything else goes to enter with nothing done. The
// block loops to itself, so only its first entry meets the stub: the later
// ones hit again in the block's own code.
#include "translated_chain_fixture.h"

namespace {

using namespace avp;
using avp::test::FakeWay;
using avp::test::kBlockPs;
using avp::test::kPc;

class EnterStub : public avp::test::TranslatedChain {
 protected:
  // The I-cache's ways: 0x40 in way 1, 0x41 in way 2; the last line fetched
  // 0x99 (way 0), none before it; the block's one or two lines from 0x40.
  void prepare(uint32_t lines, uint32_t hint0, uint32_t hint1) {
    fresh();
    ways_[0] = {0x99, 1};
    ways_[1] = {0x40, 2};
    ways_[2] = {0x41, 3};
    hart_.ways = ways_;
    hart_.way_count = 3;
    hart_.last_line = 0x99;
    hart_.last_way = &ways_[0];
    hart_.clock = 3;
    hart_.history_ring = ring_;
    block_.lines = lines;
    block_.fetch_way[0] = hint0;
    block_.fetch_way[1] = hint1;
  }
  void SetUp() override {
    stub_ = true;
    translate(0, true);
  }

  FakeWay ways_[3];
  const void* ring_[8] = {};
};

TEST_F(EnterStub, EntersAOneLineBlockFoundInItsHintedWay) {
  prepare(1, 1, 0);
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(x_[1], 5u);
  EXPECT_EQ(hart_.hits, 4u);
  EXPECT_EQ(hart_.time_ps, 5 * kBlockPs + 4 * 100);
  EXPECT_EQ(hart_.stall_ps, 400u);
  EXPECT_EQ(hart_.last_line, 0x40u);  // hit_way: remembered, the last line before it becomes the previous
  EXPECT_EQ(hart_.last_way, &ways_[1]);
  EXPECT_EQ(hart_.prev_line, 0x99u);
  EXPECT_EQ(hart_.prev_way, &ways_[0]);
  EXPECT_EQ(hart_.clock, 4u);
  EXPECT_EQ(ways_[1].used, 4u);
  EXPECT_EQ(hart_.history_pos, 4u);
  EXPECT_EQ(hart_.pc, kPc);
  EXPECT_EQ(hart_.lazy, &block_);
}

TEST_F(EnterStub, EntersAOneLineBlockThatIsTheLineBeforeTheLast) {
  prepare(1, 0, 0);  // the hint names the wrong way: hit_previous finds it
  hart_.prev_line = 0x40;
  hart_.prev_way = &ways_[1];
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_EQ(hart_.hits, 4u);
  EXPECT_EQ(hart_.last_line, 0x40u);  // the two swap
  EXPECT_EQ(hart_.last_way, &ways_[1]);
  EXPECT_EQ(hart_.prev_line, 0x99u);
  EXPECT_EQ(hart_.prev_way, &ways_[0]);
  EXPECT_EQ(hart_.clock, 4u);
  EXPECT_EQ(ways_[1].used, 4u);
}

TEST_F(EnterStub, EntersATwoLineBlockLineByLine) {
  prepare(2, 1, 2);
  run();
  EXPECT_TRUE(hart_.entered.empty());
  EXPECT_TRUE(hart_.entered_second.empty());
  EXPECT_EQ(hart_.hits, 8u);
  EXPECT_EQ(hart_.time_ps, 5 * kBlockPs + 4 * 100);  // fetch_hit_ps is the block's, both lines
  EXPECT_EQ(hart_.last_line, 0x41u);
  EXPECT_EQ(hart_.prev_line, 0x40u);
  EXPECT_EQ(hart_.clock, 5u);  // one use per line, at the first entry only
  EXPECT_EQ(ways_[1].used, 4u);
  EXPECT_EQ(ways_[2].used, 5u);
}

// The first line hits, the second's hint is wrong: enter_second with the
// first line counted (the C++ entry goes on from the second line).
TEST_F(EnterStub, GoesToEnterSecondWhenOnlyTheFirstLineHits) {
  prepare(2, 1, 0);
  run();
  EXPECT_TRUE(hart_.entered.empty());
  ASSERT_EQ(hart_.entered_second.size(), 4u);
  EXPECT_EQ(hart_.entered_second[0].second, kPc);
  EXPECT_EQ(hart_.hits, 4u);  // each entry: the first line (by its way, then again), not the second
  EXPECT_EQ(hart_.last_line, 0x40u);
  EXPECT_EQ(hart_.clock, 4u);
  EXPECT_EQ(hart_.history_pos, 0u);  // enter_second records the block (here a fake that does not)
}

// Negative controls: a hint past the ways or naming another line, another
// DMI generation, a block over three lines, a translated fetch whose TLB
// entry is gone: enter is called each time, nothing changed.
TEST_F(EnterStub, CallsEnterWithNothingDoneOtherwise) {
  for (int which = 0; which < 5; ++which) {
    SCOPED_TRACE(which);
    if (which == 4) translate(1, true);
    prepare(which == 3 ? 3 : 1, which == 0 ? 7 : 2, 0);
    if (which == 2) hart_.dmi_gen = 6;
    if (which == 4) {
      hart_.fetch_key = 1;
      hart_.tlb_inserts = 10;
      block_.tlb_until = 10;
      block_.fetch_way[0] = 1;
    }
    run();
    EXPECT_EQ(hart_.entered.size(), 4u);
    EXPECT_EQ(hart_.hits, 0u);
    EXPECT_EQ(hart_.clock, 3u);
    EXPECT_EQ(hart_.last_line, 0x99u);
    EXPECT_EQ(hart_.history_pos, 0u);
  }
}

}  // namespace
