// CellPool and the host-line allocations made from it (base/cell_pool.h, base/host_lines.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/cell_pool.h"
#include "base/host_lines.h"
#include "vm_flags.h"

namespace avp {
namespace {

bool on_host_line(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kHostLine == 0; }

TEST(CellPool, CellsAreDistinctAlignedAndReusedLastFreedFirst) {
  CellPool pool;
  std::set<void*> cells;
  for (int i = 0; i < 200; ++i) {  // more than one chunk
    void* p = pool.take(200, kHostLine);
    EXPECT_TRUE(on_host_line(p));
    EXPECT_TRUE(cells.insert(p).second) << "a cell was handed out twice";
  }
  // Cells of 200 bytes round up to 256: no two overlap.
  for (auto it = cells.begin(), next = std::next(it); next != cells.end(); ++it, ++next)
    EXPECT_GE(static_cast<char*>(*next) - static_cast<char*>(*it), 256);
  void* a = *cells.begin();
  void* b = *std::next(cells.begin());
  pool.give(a);
  pool.give(b);
  EXPECT_EQ(pool.take(200, kHostLine), b);
  EXPECT_EQ(pool.take(200, kHostLine), a);
}

TEST(CellPool, RefusesLargerCellsAndOverAlignment) {
  CellPool pool;
  pool.take(64, 64);
  EXPECT_THROW(pool.take(65, 64), std::logic_error);
  EXPECT_NO_THROW(pool.take(48, 16));  // smaller fits a cell
  CellPool wide;
  EXPECT_THROW(wide.take(256, 2 * kHostLine), std::logic_error);
}

// A source that records what it hands out and gets back.
struct RecordingChunks final : ChunkSource {
  std::vector<std::pair<std::byte*, std::size_t>> taken, given;
  std::byte* take_chunk(std::size_t bytes) override {
    taken.emplace_back(heap_chunks().take_chunk(bytes), bytes);
    return taken.back().first;
  }
  void give_chunk(std::byte* chunk, std::size_t bytes) noexcept override {
    given.emplace_back(chunk, bytes);
    heap_chunks().give_chunk(chunk, bytes);
  }
};

TEST(CellPool, TakesItsChunksFromItsSourceAndGivesThemBack) {
  RecordingChunks source;
  {
    CellPool pool(source);
    for (int i = 0; i < 65; ++i) pool.take(100, 64);  // cells of 128 bytes: a chunk holds 64
    ASSERT_EQ(source.taken.size(), 2u);
    EXPECT_EQ(source.taken[0].second, 64u * 128u);
    EXPECT_TRUE(source.given.empty());
  }
  EXPECT_EQ(source.given, source.taken);
}

TEST(HugePageChunks, CarvesChunksFromAlignedRegionsThatAskForHugePages) {
  HugePageChunks chunks;
  constexpr std::size_t kChunk = 256 * 1024;
  std::vector<std::byte*> got;
  for (std::size_t i = 0; i < HugePageChunks::kRegionBytes / kChunk + 1; ++i) got.push_back(chunks.take_chunk(kChunk));
  EXPECT_EQ(chunks.regions(), 2u);  // one more chunk than a region holds
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(got[0]) % HugePageChunks::kRegionBytes, 0u);
  for (std::size_t i = 1; i + 1 < got.size(); ++i) EXPECT_EQ(got[i], got[i - 1] + kChunk);  // consecutive in a region
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(got.back()) % HugePageChunks::kRegionBytes, 0u);
  for (std::byte* c : got) {  // writable, all of it
    std::memset(c, 0xa5, kChunk);
    EXPECT_EQ(c[kChunk - 1], std::byte{0xa5});
  }
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(chunks.take_chunk(100)) % kHostLine, 0u);
  EXPECT_THROW(chunks.take_chunk(HugePageChunks::kRegionBytes + 1), std::logic_error);
  if (std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {  // a kernel with transparent huge pages
    EXPECT_NE(test::vm_flags_of(got[0]).find(" hg"), std::string::npos) << test::vm_flags_of(got[0]);
  }
}

struct alignas(kHostLine) Wide {
  uint64_t v[20];
};

TEST(HostLineAllocator, HoldsAMapsNodes) {
  std::unordered_map<uint64_t, Wide, std::hash<uint64_t>, std::equal_to<uint64_t>,
                     HostLineAllocator<std::pair<const uint64_t, Wide>>>
      m;
  for (uint64_t k = 0; k < 1000; ++k) m[k].v[0] = k * 3;
  for (uint64_t k = 0; k < 1000; k += 2) m.erase(k);
  for (uint64_t k = 1000; k < 1500; ++k) m[k].v[0] = k * 3;  // reuses the erased nodes' cells
  EXPECT_EQ(m.size(), 1000u);
  for (const auto& [k, w] : m) {
    EXPECT_EQ(w.v[0], k * 3);
    EXPECT_TRUE(on_host_line(&w));
  }
}

TEST(HostLineAllocator, VectorsStartOnAHostLineAndKeepTheirValues) {
  std::vector<std::vector<uint32_t, HostLineAllocator<uint32_t>>> vs;
  for (uint32_t n = 1; n < 3000; n += 37) {  // pooled sizes and larger ones
    vs.emplace_back(n, n);
    EXPECT_TRUE(on_host_line(vs.back().data()));
  }
  for (size_t i = 0; i < vs.size(); i += 2) vs[i].clear(), vs[i].shrink_to_fit();
  for (uint32_t n = 1; n < 3000; n += 37) vs.emplace_back(n, n + 1);
  for (const auto& v : vs)
    for (uint32_t x : v) ASSERT_TRUE(x == v.size() || x == v.size() + 1);
}

}  // namespace
}  // namespace avp
