// Prefault (base/prefault.h): memory populated ahead by the helper thread,
// its contents unchanged, and what a pool and a translation cache ask for.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "base/cell_pool.h"
#include "base/prefault.h"
#include "host_pages.h"

namespace avp {
namespace {

using test::kernel_populates;
using test::resident_pages;

TEST(Prefault, PopulatesWhatIsAskedForAndLeavesItsContents) {
  if (!kernel_populates()) GTEST_SKIP() << "the host kernel has no MADV_POPULATE_WRITE";
  const size_t page = sysconf(_SC_PAGESIZE), bytes = 256 * page;
  auto* p = static_cast<uint8_t*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(p, MAP_FAILED);
  madvise(p, bytes, MADV_NOHUGEPAGE);  // pages counted one by one
  std::memset(p, 0x5a, page);          // written before: kept
  EXPECT_EQ(resident_pages(p, bytes), 1u);
  Prefault::ahead(p + 128 * page, 64 * page);
  Prefault::finish(p, bytes);
  EXPECT_EQ(resident_pages(p + 128 * page, 64 * page), 64u);
  EXPECT_EQ(resident_pages(p + page, 127 * page), 0u);  // nothing outside the request
  EXPECT_EQ(resident_pages(p + 192 * page, 64 * page), 0u);
  for (size_t i = 0; i < page; ++i) ASSERT_EQ(p[i], 0x5a);
  for (size_t i = 128 * page; i < 192 * page; ++i) ASSERT_EQ(p[i], 0);
  munmap(p, bytes);
}

TEST(Prefault, FinishingWhatWasNeverAskedForReturnsAtOnce) {
  uint8_t byte = 0;
  Prefault::finish(&byte, 1);
  Prefault::finish(&byte, 0);
}

TEST(HugePageChunks, PopulatesTheRegionAfterTheOneFilling) {
  if (!kernel_populates()) GTEST_SKIP() << "the host kernel has no MADV_POPULATE_WRITE";
  HugePageChunks chunks;
  constexpr size_t kChunk = 64 * 1024;
  std::byte* first = chunks.take_chunk(kChunk);
  // The region after the first is the one the next chunk beyond it comes from.
  for (size_t taken = kChunk; taken < HugePageChunks::kRegionBytes; taken += kChunk) chunks.take_chunk(kChunk);
  std::byte* next = chunks.take_chunk(kChunk);
  EXPECT_EQ(chunks.regions(), 2u);
  Prefault::finish(next, HugePageChunks::kRegionBytes);
  const size_t pages = HugePageChunks::kRegionBytes / sysconf(_SC_PAGESIZE);
  EXPECT_EQ(resident_pages(next, HugePageChunks::kRegionBytes), pages) << "populated before its first chunk was written";
  EXPECT_NE(first, next);
}

}  // namespace
}  // namespace avp
