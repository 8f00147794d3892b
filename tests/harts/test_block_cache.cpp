// The BlockCache on its own: blocks made here (no decoding), a fake holder
// that counts how often it is told of blocks going; lookups per fetch regime
// and through the slot cache, drops of written physical ranges, unlinking,
// forgetting the checked regimes, live-block expiry, the epoch and the
// translation cache emptied when full.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "harts/block_cache.h"

namespace avp {
namespace {

constexpr uint64_t kRam = 0x8000'0000;

class CountingHolders : public BlockHolders {
 public:
  void blocks_going() override { ++told; }
  unsigned told = 0;
};

class BlockCacheTest : public ::testing::Test {
 protected:
  // A block at pc of regime key whose code is `bytes` at ppc (and, with
  // ppc_tail, 2 bytes there and 2 at ppc_tail).
  const DecodedBlock& add(uint64_t pc, uint8_t key, uint64_t ppc, uint64_t bytes, uint64_t ppc_tail = ~0ull) {
    DecodedBlock b;
    b.pc = pc;
    b.key = key;
    b.ppc = ppc;
    b.bytes = bytes;
    b.ppc_tail = ppc_tail;
    return cache.insert(std::move(b));
  }
  // Four blocks of regime 0 at 0x100, 0x200, 0x300, 0x400, 256 bytes apart in RAM.
  std::tuple<const DecodedBlock&, const DecodedBlock&, const DecodedBlock&, const DecodedBlock&> four_blocks() {
    return {add(0x100, 0, kRam, 4), add(0x200, 0, kRam + 0x100, 4), add(0x300, 0, kRam + 0x200, 4),
            add(0x400, 0, kRam + 0x300, 4)};
  }
  static bool links_to(const DecodedBlock& from, const DecodedBlock& to) {
    return (from.link[0] == &to && from.link_pc[0] == to.pc) || (from.link[1] == &to && from.link_pc[1] == to.pc);
  }
  static bool linked_from(const DecodedBlock& to, const DecodedBlock& from) {
    return std::count(to.linked_from.begin(), to.linked_from.end(), &from) == 1;
  }
  // The blocks of regime `key` at pcs, as found now (nullptr where none is).
  std::vector<const DecodedBlock*> found(uint8_t key, std::vector<uint64_t> pcs) {
    std::vector<const DecodedBlock*> r;
    for (uint64_t pc : pcs) r.push_back(cache.find(pc, key));
    return r;
  }

  CountingHolders holders;
  BlockCache cache{holders};
};

TEST_F(BlockCacheTest, FindsEachBlockInItsFetchRegime) {
  const DecodedBlock& m = add(0x1000, 0, kRam, 8);
  const DecodedBlock& s = add(0x1000, 2, kRam + 0x4000, 8);
  const DecodedBlock& other = add(0x1008, 0, kRam + 8, 4);
  EXPECT_EQ(cache.find(0x1000, 0), &m);
  EXPECT_EQ(cache.find(0x1000, 2), &s);
  EXPECT_EQ(cache.find(0x1008, 0), &other);
  EXPECT_EQ(cache.find(0x1000, 1), nullptr);
  EXPECT_EQ(cache.find(0x1008, 2), nullptr);
  EXPECT_EQ(cache.decoded(0x1000, 2), &s);
  EXPECT_EQ(cache.decoded(0x1004, 0), nullptr);
  // A block of a checked fetch is live from its insertion on; one of unchecked fetches is not.
  EXPECT_TRUE(s.live);
  EXPECT_FALSE(m.live);
  EXPECT_TRUE(cache.holds_code_page(kRam >> 12));
  EXPECT_TRUE(cache.holds_code_page((kRam + 0x4000) >> 12));
  EXPECT_FALSE(cache.holds_code_page((kRam + 0x1000) >> 12));
  EXPECT_EQ(holders.told, 0u);
}

// Blocks sharing a slot (pcs kSlots * 2 bytes apart, or one pc in two
// regimes): each find returns its own block, whichever the slot held.
TEST_F(BlockCacheTest, SlotCacheTellsBlocksSharingASlotApart) {
  constexpr uint64_t kApart = BlockCache::kSlots * 2;
  const DecodedBlock& a = add(0x2000, 0, kRam, 4);
  const DecodedBlock& b = add(0x2000 + kApart, 0, kRam + 0x1000, 4);
  const DecodedBlock& c = add(0x2000, 1, kRam + 0x2000, 4);
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(cache.find(0x2000, 0), &a);
    EXPECT_EQ(cache.find(0x2000, 0), &a);  // from the slot
    EXPECT_EQ(cache.find(0x2000 + kApart, 0), &b);
    EXPECT_EQ(cache.find(0x2000, 1), &c);
    EXPECT_EQ(cache.find(0x2000, 1), &c);
    EXPECT_EQ(cache.find(0x2000 + kApart, 1), nullptr);
  }
}

TEST_F(BlockCacheTest, DroppedBlockLeavesItsSlot) {
  const DecodedBlock& a = add(0x3000, 0, kRam, 4);
  ASSERT_EQ(cache.find(0x3000, 0), &a);  // in its slot
  const uint64_t epoch = cache.epoch();
  cache.drop({&a});
  EXPECT_EQ(cache.find(0x3000, 0), nullptr);
  EXPECT_EQ(cache.decoded(0x3000, 0), nullptr);
  EXPECT_FALSE(cache.holds_code_page(kRam >> 12));
  EXPECT_EQ(holders.told, 1u);  // before the block went
  EXPECT_GT(cache.epoch(), epoch);
  const DecodedBlock& again = add(0x3000, 0, kRam, 8);
  EXPECT_EQ(cache.find(0x3000, 0), &again);
  EXPECT_EQ(again.bytes, 8u);
}

// drop_code's ranges go at catch_up: exactly the blocks with a byte of code
// in a range, in every regime, including blocks whose code crosses into the
// next page (an untranslated one's last instruction, or a translated one's
// second half elsewhere).
TEST_F(BlockCacheTest, DropsExactlyTheBlocksWithCodeInAWrittenRange) {
  const DecodedBlock& low = add(0x100, 0, kRam, 0x10);            // [kRam, +0x10)
  const DecodedBlock& next = add(0x110, 0, kRam + 0x10, 0x10);    // [+0x10, +0x20)
  const DecodedBlock& same_code = add(0x40'0100, 3, kRam, 0x10);  // low's code, fetched in U-mode
  const DecodedBlock& other_page = add(0x1100, 0, kRam + 0x1100, 0x10);
  const DecodedBlock& spans = add(0x2ffc, 0, kRam + 0x2ffc, 8);  // to kRam + 0x3004
  // One instruction: 2 bytes at kRam + 0x4ffe, 2 at kRam + 0x7000.
  const DecodedBlock& split = add(0x50'4ffe, 1, kRam + 0x4ffe, 4, kRam + 0x7000);
  cache.expire_live();  // the checked ones not live: drop_code drops them all the same
  cache.catch_up();
  const std::vector<uint64_t> pcs = {0x100, 0x110, 0x1100, 0x2ffc};

  cache.drop_code(kRam + 0x10, kRam + 0x11);  // next's first byte only
  EXPECT_TRUE(cache.pending());
  EXPECT_EQ(cache.find(0x110, 0), &next);  // not before the block boundary
  cache.catch_up();
  EXPECT_FALSE(cache.pending());
  EXPECT_EQ(found(0, pcs), (std::vector<const DecodedBlock*>{&low, nullptr, &other_page, &spans}));
  EXPECT_EQ(cache.find(0x40'0100, 3), &same_code);

  cache.drop_code(kRam + 0x0f, kRam + 0x10);  // low's last byte: low and, in U-mode, its code again
  cache.drop_code(kRam + 0x3000, kRam + 0x3002);  // spans' second page
  cache.catch_up();
  EXPECT_EQ(found(0, pcs), (std::vector<const DecodedBlock*>{nullptr, nullptr, &other_page, nullptr}));
  EXPECT_EQ(cache.find(0x40'0100, 3), nullptr);

  cache.drop_code(kRam + 0x5000, kRam + 0x7000);  // between split's halves
  cache.catch_up();
  EXPECT_EQ(cache.find(0x50'4ffe, 1), &split);
  cache.drop_code(kRam + 0x7001, kRam + 0x7002);  // its second half
  cache.catch_up();
  EXPECT_EQ(cache.find(0x50'4ffe, 1), nullptr);
  EXPECT_EQ(cache.find(0x1100, 0), &other_page);
  EXPECT_TRUE(cache.holds_code_page((kRam + 0x1000) >> 12));
  EXPECT_FALSE(cache.holds_code_page((kRam + 0x3000) >> 12));
  EXPECT_FALSE(cache.holds_code_page((kRam + 0x7000) >> 12));
}

TEST_F(BlockCacheTest, LinkReplacesTheOlderOfTwoLinks) {
  const auto [a, b, c, d] = four_blocks();
  BlockCache::link(a, b);
  BlockCache::link(a, c);
  EXPECT_TRUE(links_to(a, b) && links_to(a, c));
  BlockCache::link(a, d);  // b's link was the older
  EXPECT_FALSE(links_to(a, b));
  EXPECT_TRUE(links_to(a, c) && links_to(a, d));
  EXPECT_TRUE(b.linked_from.empty());
  EXPECT_TRUE(linked_from(c, a) && linked_from(d, a));
}

// A dropped block's links go from the blocks that stay: those linking to it
// forget the link, and those it linked to forget it linked to them.
TEST_F(BlockCacheTest, DropUnlinksTheBlocksThatStay) {
  const auto [a, b, c, d] = four_blocks();
  BlockCache::link(a, b);
  BlockCache::link(a, c);
  BlockCache::link(c, b);
  BlockCache::link(b, d);
  cache.drop_code(kRam + 0x100, kRam + 0x101);  // b
  cache.catch_up();
  ASSERT_EQ(cache.find(0x200, 0), nullptr);
  for (const DecodedBlock* from : {&a, &c})
    for (unsigned i = 0; i < 2; ++i) {
      EXPECT_NE(from->link[i], &b);
      if (!from->link[i]) {
        EXPECT_EQ(from->link_pc[i], ~0ull);
      }
    }
  EXPECT_TRUE(links_to(a, c));  // the link that did not lead to b stays
  EXPECT_TRUE(linked_from(c, a));
  EXPECT_TRUE(d.linked_from.empty());
}

// A kernel's return address: the blocks linked to the blocks there (in
// every regime) forget the link, and the slot cache holds none of them,
// found or inserted, until another address is set. Translated code finds
// the next block only through those, so it never enters one.
TEST_F(BlockCacheTest, NothingLeadsToTheReturnAddressWhileItIsSet) {
  const auto [a, b, c, d] = four_blocks();
  const DecodedBlock& b1 = add(0x200, 1, kRam + 0x1000, 4);
  BlockCache::link(a, b);
  BlockCache::link(a, c);
  BlockCache::link(d, b1);
  const BlockCache::Slot& slot = cache.slots()[BlockCache::slot_of(0x200)];
  ASSERT_EQ(slot.block, &b1);
  cache.set_return_pc(0x200);
  EXPECT_FALSE(links_to(a, b) || links_to(d, b1));
  EXPECT_EQ(d.link_pc[0], ~0ull);
  EXPECT_TRUE(links_to(a, c));  // the link elsewhere stays
  EXPECT_TRUE(b.linked_from.empty() && b1.linked_from.empty());
  EXPECT_EQ(slot.block, nullptr);
  EXPECT_EQ(cache.find(0x200, 0), &b);
  EXPECT_EQ(cache.find(0x200, 1), &b1);
  EXPECT_EQ(slot.block, nullptr);
  const DecodedBlock& e = add(0x200, 2, kRam + 0x2000, 4);  // decoded while it is the return address
  EXPECT_EQ(slot.block, nullptr);
  EXPECT_EQ(cache.find(0x200, 2), &e);
  cache.set_return_pc(1);  // none
  EXPECT_EQ(cache.find(0x200, 0), &b);
  EXPECT_EQ(slot.block, &b);
}

// forget_checked drops the blocks of the checked regimes (1..), not those of
// unchecked fetches: now when none is live, else at the next catch_up.
TEST_F(BlockCacheTest, ForgetCheckedLeavesUncheckedFetches) {
  const DecodedBlock& m = add(0x100, 0, kRam, 4);
  add(0x100, 1, kRam + 0x1000, 4);
  add(0x100, 4, kRam + 0x2000, 4);
  ASSERT_NE(cache.find(0x100, 1), nullptr);  // in the slot
  EXPECT_TRUE(cache.forget_checked());  // deferred: they are live
  EXPECT_TRUE(cache.pending());
  EXPECT_NE(cache.find(0x100, 4), nullptr);
  EXPECT_EQ(holders.told, 0u);
  const uint64_t epoch = cache.epoch();
  cache.catch_up();
  EXPECT_FALSE(cache.pending());
  EXPECT_EQ(holders.told, 1u);
  EXPECT_GT(cache.epoch(), epoch);
  EXPECT_EQ(cache.find(0x100, 1), nullptr);
  EXPECT_EQ(cache.find(0x100, 4), nullptr);
  EXPECT_EQ(cache.find(0x100, 0), &m);
  EXPECT_TRUE(cache.holds_code_page(kRam >> 12));
  EXPECT_FALSE(cache.holds_code_page((kRam + 0x1000) >> 12));

  add(0x200, 2, kRam + 0x3000, 4);
  cache.expire_live();
  cache.catch_up();
  EXPECT_FALSE(cache.forget_checked());  // none live: now
  EXPECT_EQ(cache.find(0x200, 2), nullptr);
  EXPECT_EQ(cache.find(0x100, 0), &m);
  EXPECT_EQ(holders.told, 2u);
  EXPECT_FALSE(cache.forget_checked());  // nothing to forget: the holders are not told
  EXPECT_EQ(holders.told, 2u);
}

// After a change of translation the live blocks lose their translation at
// the next catch_up and are no longer live; a block checked again is.
TEST_F(BlockCacheTest, LiveBlocksExpireAtCatchUp) {
  const DecodedBlock& m = add(0x100, 0, kRam, 4);
  const DecodedBlock& s = add(0x200, 1, kRam + 0x100, 4);
  const DecodedBlock& u = add(0x300, 4, kRam + 0x200, 4);
  EXPECT_EQ(s.tlb_until, ~0ull);
  EXPECT_TRUE(s.live && u.live);
  EXPECT_TRUE(cache.expire_live());
  EXPECT_TRUE(cache.pending());
  EXPECT_TRUE(s.live);  // not before the block boundary
  const uint64_t epoch = cache.epoch();
  cache.catch_up();
  EXPECT_FALSE(cache.pending());
  EXPECT_EQ(cache.epoch(), epoch);  // the blocks stay
  for (const DecodedBlock* b : {&s, &u}) {
    EXPECT_FALSE(b->live);
    EXPECT_EQ(b->tlb_until, 0u);
    EXPECT_EQ(cache.find(b->pc, b->key), b);
  }
  EXPECT_EQ(m.tlb_until, ~0ull);
  EXPECT_FALSE(cache.expire_live());  // none live
  EXPECT_FALSE(cache.pending());

  s.tlb_until = 7;  // checked again (Hart::translate_fetch_again)
  cache.make_live(s);
  EXPECT_TRUE(cache.expire_live());
  cache.catch_up();
  EXPECT_EQ(s.tlb_until, 0u);
  EXPECT_FALSE(s.live);
}

// fence.i: the blocks of unchecked fetches and the live ones are asked
// whether their code changed; the checked ones that are not live are not.
TEST_F(BlockCacheTest, DropChangedAsksUncheckedAndLiveBlocks) {
  const DecodedBlock& m = add(0x100, 0, kRam, 4);
  const DecodedBlock& m2 = add(0x104, 0, kRam + 4, 4);
  const DecodedBlock& stale = add(0x200, 1, kRam + 0x100, 4);
  cache.expire_live();
  cache.catch_up();
  const DecodedBlock& live = add(0x300, 1, kRam + 0x200, 4);
  std::vector<const DecodedBlock*> asked;
  cache.drop_changed([&](const DecodedBlock& b) {
    asked.push_back(&b);
    return &b != &m2;
  });
  std::sort(asked.begin(), asked.end());
  std::vector<const DecodedBlock*> expected = {&m, &m2, &live};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(asked, expected);
  EXPECT_EQ(cache.find(0x100, 0), nullptr);
  EXPECT_EQ(cache.find(0x104, 0), &m2);
  EXPECT_EQ(cache.find(0x300, 1), nullptr);
  EXPECT_EQ(cache.find(0x200, 1), &stale);
  EXPECT_FALSE(cache.expire_live());  // the live block went from the live ones
}

TEST_F(BlockCacheTest, EpochCountsEveryChangeOfTheBlocks) {
  uint64_t epoch = cache.epoch();
  const auto changed = [&] {
    const bool moved = cache.epoch() != epoch;
    epoch = cache.epoch();
    return moved;
  };
  const DecodedBlock& a = add(0x100, 0, kRam, 4);
  EXPECT_TRUE(changed());
  cache.find(0x100, 0);
  cache.drop({});
  cache.catch_up();
  cache.drop_code(kRam + 0x800, kRam + 0x900);  // no code there
  cache.catch_up();
  EXPECT_FALSE(changed());
  add(0x200, 1, kRam + 0x1000, 4);
  EXPECT_TRUE(changed());
  cache.expire_live();
  cache.catch_up();
  EXPECT_FALSE(changed());  // expiry keeps the blocks
  cache.forget_checked();
  EXPECT_TRUE(changed());
  cache.drop({&a});
  EXPECT_TRUE(changed());
  add(0x100, 0, kRam, 4);
  EXPECT_TRUE(changed());
  cache.clear();
  EXPECT_TRUE(changed());
  EXPECT_EQ(cache.find(0x100, 0), nullptr);
}

TEST_F(BlockCacheTest, ClearDropsEverythingAndWhatWasPending) {
  add(0x100, 0, kRam, 4);
  add(0x200, 1, kRam + 0x100, 4);
  cache.drop_code(kRam, kRam + 4);
  EXPECT_TRUE(cache.forget_checked());
  EXPECT_TRUE(cache.expire_live());
  cache.clear();
  EXPECT_EQ(holders.told, 1u);
  EXPECT_FALSE(cache.pending());
  EXPECT_EQ(cache.find(0x100, 0), nullptr);
  EXPECT_EQ(cache.find(0x200, 1), nullptr);
  EXPECT_FALSE(cache.holds_code_page(kRam >> 12));
  // What was deferred went with the blocks: it does not touch a new one.
  const DecodedBlock& again = add(0x200, 1, kRam + 0x100, 4);
  cache.catch_up();
  EXPECT_EQ(cache.find(0x200, 1), &again);
  EXPECT_TRUE(again.live);
  EXPECT_EQ(again.tlb_until, ~0ull);
}

// A full translation cache keeps its code until catch_up, which takes every
// block's code and empties it; the blocks stay and are translated again.
TEST_F(BlockCacheTest, FullTranslationCacheLosesItsCodeAtCatchUp) {
  const DecodedBlock& a = add(0x100, 0, kRam, 4);
  const DecodedBlock& b = add(0x200, 2, kRam + 0x100, 4);
  CodeArena& arena = cache.code();
  arena.set_size(4096);
  const std::vector<uint8_t> ret(1000, 0xc3);
  a.code = reinterpret_cast<TranslatedBlock>(arena.add(ret.data(), ret.size()));
  b.code = reinterpret_cast<TranslatedBlock>(arena.add(ret.data(), ret.size()));
  ASSERT_NE(a.code, nullptr);
  ASSERT_NE(b.code, nullptr);
  EXPECT_FALSE(cache.translate_again());
  while (arena.add(ret.data(), ret.size())) {
  }
  EXPECT_TRUE(cache.code_full());
  EXPECT_FALSE(cache.pending());  // the code runs on until the block boundary
  const uint64_t epoch = cache.epoch();
  cache.catch_up();
  EXPECT_FALSE(cache.code_full());
  EXPECT_EQ(arena.used(), 0u);
  EXPECT_TRUE(cache.translate_again());
  EXPECT_EQ(a.code, nullptr);
  EXPECT_EQ(b.code, nullptr);
  EXPECT_EQ(cache.find(0x100, 0), &a);
  EXPECT_EQ(cache.find(0x200, 2), &b);
  EXPECT_EQ(cache.epoch(), epoch);
}

}  // namespace
}  // namespace avp
