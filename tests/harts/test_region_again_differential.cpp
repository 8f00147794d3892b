// Finding the region of an access outside the region in use, in C++
// (HartHotState::region_again, which the hart's slow paths call) against
// translated code's (the region-again routine the inline loads and stores
// call before their helper, inline_accesses.cpp): the region used before
// swaps in, else a kept page becomes the region in use (the one in use the
// one before) and counts its TLB hit, else the helper is called with
// nothing changed. Two hot states take the same seeded random streams of
// loads and stores over eight pages, some kept, some in no region (a
// functional run: no D-cache); after each access the regions in use and
// before, the kept pages, the counts and the memories must be equal, and
// the code must have called its helper exactly when region_again found
// nothing. A loop's access (a block that branches back to its start) while
// kept pages count no TLB hit uses the region before where it is instead,
// without the swap (a matrix's rows and another's columns in turn): the
// C++ side then does the same.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "access_blocks.h"
#include "harts/hart_hot_state.h"

namespace {

using namespace avp;
using namespace avp::rv;

constexpr uint64_t kBase = 0x40000;  // the first page's virtual address
constexpr uint64_t kPages = 8;
constexpr uint64_t kPage = PageRegionCache::kPage;

DmiRegion page(uint8_t* mem, uint64_t n) {
  DmiRegion r;
  r.base = kBase + n * kPage;
  r.size = kPage;
  r.ptr = mem + n * kPage;
  r.rd = r.wr = true;
  r.pa_delta = 0x80000000;
  return r;
}

struct Side : HartHotState {
  Side() { page_hits = &tlb_hits; }
  std::vector<uint8_t> mem = std::vector<uint8_t>(kPages * kPage);
  uint64_t tlb_hits = 0;
  unsigned helper_calls = 0;
};

// The first difference between the two sides (regions compared by their page, as the memories differ).
std::string difference(const Side& a, const Side& b) {
  const auto page_of = [](const Side& s, const DmiRegion& r) {
    return r.size ? (r.ptr - s.mem.data()) / static_cast<int64_t>(kPage) : -1;
  };
  const auto differs = [&](const DmiRegion& x, const DmiRegion& y) {
    return x.base != y.base || x.size != y.size || page_of(a, x) != page_of(b, y) || x.pa_delta != y.pa_delta;
  };
  if (differs(a.rd, b.rd)) return "rd";
  if (differs(a.wr, b.wr)) return "wr";
  if (differs(a.rd_before, b.rd_before)) return "rd_before";
  if (differs(a.wr_before, b.wr_before)) return "wr_before";
  for (uint64_t n = 0; n < kPages; ++n) {
    const uint64_t va = kBase + n * kPage;
    const DmiRegion *x = a.rd_pages.find(va, 1), *y = b.rd_pages.find(va, 1);
    if (!x != !y || (x && differs(*x, *y))) return "kept load page " + std::to_string(n);
    x = a.wr_pages.find(va, 1), y = b.wr_pages.find(va, 1);
    if (!x != !y || (x && differs(*x, *y))) return "kept store page " + std::to_string(n);
  }
  if (a.tlb_hits != b.tlb_hits) return "TLB hits";
  if (a.mem != b.mem) return "memory";
  return "";
}

class RegionAgainDifferential : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    ASSERT_TRUE(blocks_.translated());
    ASSERT_TRUE(loop_blocks_.translated());
  }
  // The random stream on loop blocks (`in_loop`) or others, with kept
  // pages' hits counted as TLB hits (`counted`) or not.
  void compare(bool in_loop, bool counted);
  test::AccessBlocks<Side> blocks_{/*timed=*/nullptr};
  test::AccessBlocks<Side> loop_blocks_{/*timed=*/nullptr, /*in_loop=*/true};
};

TEST_F(RegionAgainDifferential, CppAndEmittedFindTheSameRegionsAndCountTheSameHits) { compare(false, true); }

TEST_F(RegionAgainDifferential, ALoopsAccessSwapsRegionsWhileKeptPagesCount) { compare(true, true); }

TEST_F(RegionAgainDifferential, ALoopsAccessUsesTheRegionBeforeInPlaceWhileNothingCounts) { compare(true, false); }

TEST_F(RegionAgainDifferential, OtherAccessesSwapRegionsWhileNothingCounts) { compare(false, false); }

void RegionAgainDifferential::compare(bool in_loop, bool counted) {
  const test::AccessBlocks<Side>& blocks = in_loop ? loop_blocks_ : blocks_;
  const bool in_place = in_loop && !counted;  // the region before used where it is
  auto cpp = std::make_unique<Side>(), emitted = std::make_unique<Side>();
  if (!counted) cpp->page_hits = &cpp->not_counted, emitted->page_hits = &emitted->not_counted;
  std::mt19937_64 rng(20261201);
  for (Side* s : {cpp.get(), emitted.get()})
    for (size_t i = 0; i < s->mem.size(); ++i) s->mem[i] = static_cast<uint8_t>(rng());
  emitted->mem = cpp->mem;
  uint64_t swaps = 0, kept = 0, helped = 0, before_in_place = 0;
  for (int n = 0; n < 100000; ++n) {
    SCOPED_TRACE("access " + std::to_string(n));
    // Now and then a page is kept (as checked_access keeps one) or all are forgotten (a TLB flush).
    if (rng() % 16 == 0) {
      const uint64_t p = rng() % kPages;
      const bool write = rng() % 2;
      (write ? cpp->wr_pages : cpp->rd_pages).insert(page(cpp->mem.data(), p));
      (write ? emitted->wr_pages : emitted->rd_pages).insert(page(emitted->mem.data(), p));
    }
    if (rng() % 512 == 0) {
      for (Side* s : {cpp.get(), emitted.get()}) {
        s->rd_pages.forget_all();
        s->wr_pages.forget_all();
      }
    }
    const unsigned i = rng() % test::kAccessOps;
    const bool store = test::access_is_store(i);
    const unsigned bytes = test::access_bytes(i);
    // Now and then across a page's end: no region holds it.
    const uint64_t in_page = bytes > 1 && rng() % 32 == 0 ? kPage - 1 : rng() % (kPage - bytes + 1);
    const uint64_t va = kBase + (rng() % kPages) * kPage + in_page;
    const uint64_t value = rng();
    // The C++ path: the region in use, else region_again, else the helper (which here does nothing).
    const DmiRegion& in_use = store ? cpp->wr : cpp->rd;
    const bool held = va - in_use.base < in_use.size && in_use.size - (va - in_use.base) >= bytes;
    const uint64_t hits_before = *cpp->page_hits;
    const DmiRegion before = store ? cpp->wr_before : cpp->rd_before;
    const bool before_here = !held && in_place && before.holds(va, bytes) && va % bytes == 0;
    const bool found = held || before_here || cpp->region_again(store, va, bytes);
    uint64_t expected = 0;
    if (found) {
      const DmiRegion& r = before_here ? before : store ? cpp->wr : cpp->rd;
      if (store) std::memcpy(r.ptr + (va - r.base), &value, bytes);
      else std::memcpy(&expected, r.ptr + (va - r.base), bytes);
      expected = test::access_extended(i, expected);
      if (before_here) ++before_in_place;
      else if (!held) (*cpp->page_hits != hits_before ? kept : swaps) += 1;
      if (!held && !before_here && *cpp->page_hits == hits_before) {  // a swap
        EXPECT_EQ((store ? cpp->wr : cpp->rd).base, before.base);
      }
    }
    // A misaligned access always calls the helper (inline_accesses.cpp),
    // which then takes the C++ path: here, the same steps as above.
    const auto ran = blocks.run(*emitted, i, va, value);
    const bool misaligned = va % bytes != 0;
    ASSERT_EQ(ran.status, blocks.insns_per_block());
    ASSERT_EQ(ran.helped, !found || misaligned);
    if (ran.helped && misaligned) {
      const DmiRegion& r = store ? emitted->wr : emitted->rd;  // the field: region_again changes it
      if ((r.holds(va, bytes) || emitted->region_again(store, va, bytes)) && store)
        std::memcpy(r.ptr + (va - r.base), &value, bytes);
    }
    if (ran.helped) {
      ++helped;
    } else if (!store) {
      ASSERT_EQ(ran.x3, expected);
    }
    ASSERT_EQ(difference(*cpp, *emitted), "");
  }
  // The streams exercised every outcome.
  if (in_place) {
    EXPECT_GT(before_in_place, 1000u);
  } else {
    EXPECT_EQ(before_in_place, 0u);
    EXPECT_GT(swaps, 1000u);
  }
  EXPECT_GT(kept, 1000u);
  EXPECT_GT(helped, 1000u);
}

// A load in a kept page counts at whatever page_hits points to: the Mmu's
// count while the data privilege translates, else a count nobody reads.
TEST_F(RegionAgainDifferential, AKeptPageCountsItsHitWherePageHitsPoints) {
  auto s = std::make_unique<Side>();
  s->rd_pages.insert(page(s->mem.data(), 3));
  EXPECT_FALSE(blocks_.run(*s, 3, kBase + 3 * kPage + 8, 0).helped);  // LD in page 3
  EXPECT_EQ(s->tlb_hits, 1u);
  EXPECT_EQ(s->rd.base, kBase + 3 * kPage);
  s->page_hits = &s->not_counted;
  s->rd_pages.insert(page(s->mem.data(), 5));
  EXPECT_FALSE(blocks_.run(*s, 3, kBase + 5 * kPage, 0).helped);
  EXPECT_EQ(s->tlb_hits, 1u);
  EXPECT_EQ(s->not_counted, 1u);
  EXPECT_EQ(s->rd_before.base, kBase + 3 * kPage);  // negative control: the page did come in
  EXPECT_TRUE(blocks_.run(*s, 3, kBase + 6 * kPage, 0).helped);  // page 6: nowhere, the helper
  EXPECT_EQ(s->rd.base, kBase + 5 * kPage);
}

}  // namespace
