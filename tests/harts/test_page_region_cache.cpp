// PageRegionCache: the checked pages (and claimed runs of lines) a hart keeps beyond its two regions in use.
#include <gtest/gtest.h>

#include "harts/page_region_cache.h"

namespace avp {
namespace {

constexpr uint64_t kPage = PageRegionCache::kPage;

DmiRegion page_at(uint64_t va, uint8_t* host) {
  DmiRegion r;
  r.base = va;
  r.size = kPage;
  r.ptr = host;
  r.rd = true;
  r.pa_delta = 0x8000'0000;
  return r;
}

TEST(PageRegionCache, FindsAnAccessOnlyWhollyInsideAPageItHolds) {
  PageRegionCache c;
  uint8_t host[kPage];
  EXPECT_EQ(c.find(0x1000, 8), nullptr);
  c.insert(page_at(0x1000, host));
  const DmiRegion* r = c.find(0x1ff8, 8);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->ptr, host);
  EXPECT_EQ(r->pa_delta, 0x8000'0000u);
  EXPECT_EQ(c.find(0x1ffc, 8), nullptr);  // crosses into the next page
  EXPECT_EQ(c.find(0x0ff8, 8), nullptr);
  EXPECT_EQ(c.find(0x2000, 1), nullptr);
}

TEST(PageRegionCache, APageReplacesTheOneInItsSlot) {
  PageRegionCache c;
  uint8_t a[kPage], b[kPage];
  const uint64_t same_slot = 0x1000 + PageRegionCache::kSlots * kPage;
  c.insert(page_at(0x1000, a));
  c.insert(page_at(0x2000, b));
  c.insert(page_at(same_slot, b));
  EXPECT_EQ(c.find(0x1000, 4), nullptr);
  EXPECT_NE(c.find(same_slot + 4, 4), nullptr);
  EXPECT_NE(c.find(0x2004, 4), nullptr);  // another slot: kept
}

TEST(PageRegionCache, ForgetsTheRangeOfATranslationAndEverything) {
  PageRegionCache c;
  uint8_t host[kPage];
  for (uint64_t va = 0x20'0000; va < 0x20'0000 + 8 * kPage; va += kPage) c.insert(page_at(va, host));
  c.insert(page_at(0x40'0000, host));
  c.forget_range(0x20'1000, kPage);  // one 4 KiB page
  EXPECT_EQ(c.find(0x20'1000, 1), nullptr);
  EXPECT_NE(c.find(0x20'2000, 1), nullptr);
  c.forget_range(0x20'0000, 0x20'0000);  // a 2 MiB megapage: every page in it
  for (uint64_t va = 0x20'0000; va < 0x20'0000 + 8 * kPage; va += kPage) EXPECT_EQ(c.find(va, 1), nullptr);
  EXPECT_NE(c.find(0x40'0000, 1), nullptr);
  c.forget_all();
  EXPECT_EQ(c.find(0x40'0000, 1), nullptr);
}

TEST(PageRegionCache, ARegionOverSeveralPagesIsFoundFromEachAndForgottenByItsHostBytes) {
  PageRegionCache c;
  alignas(64) static uint8_t host[4 * kPage];
  DmiRegion r = page_at(0x10040, host);  // lines of three pages: 0x10040 .. 0x12fc0
  r.size = 3 * kPage - 128;
  c.insert(r);
  for (uint64_t va : {0x10040ull, 0x11000ull, 0x12fb8ull}) EXPECT_NE(c.find(va, 8), nullptr) << std::hex << va;
  EXPECT_EQ(c.find(0x10000, 8), nullptr);  // before the run, in its first page
  EXPECT_EQ(c.find(0x12fc0, 8), nullptr);
  c.forget_host(host + 0x1000, 64);  // one line in its middle page: the whole region goes
  for (uint64_t va : {0x10040ull, 0x11000ull, 0x12fb8ull}) EXPECT_EQ(c.find(va, 8), nullptr) << std::hex << va;
  c.insert(r);
  c.forget_host(host + 3 * kPage, 64);  // bytes after it: it stays
  EXPECT_NE(c.find(0x11000, 8), nullptr);
}

}  // namespace
}  // namespace avp
