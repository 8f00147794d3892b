// CellPool and the host-line allocations made from it (base/cell_pool.h, base/host_lines.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "base/cell_pool.h"
#include "base/host_lines.h"

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
