// The D-cache's quick hits in C++ (HartHotState::data_quick_hit, the hart's
// data fast path) against translated code's (the inline loads' and stores'
// hit code, inline_accesses.cpp): two real CacheModels, each keeping its
// quick-hit state in a HartHotState, take the same seeded random streams of
// loads and stores (every width, misaligned too, hits and misses, clean and
// dirty lines, stale way hints, invalidations), one through the C++ path and
// one through the emitted code. An access either path does not find quickly
// goes to the set search (CacheModel::access_line) on both sides. After each
// access the two states (the caches' fields and ways, the way hints, the time,
// the stalls) and the two memories must be equal, and the emitted code must
// have called its helper exactly when the C++ path missed. Half the accesses
// run in loop blocks (the access and a branch back to it), whose code tests
// the line before the last itself (inline_accesses.cpp, `in_loop`).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "access_blocks.h"
#include "harts/hart_hot_state.h"

namespace {

using namespace avp;
using namespace avp::rv;

constexpr uint64_t kBase = 0x10000;            // the region's virtual address
constexpr uint64_t kPaDelta = 0x80000000 - kBase;  // physical - virtual
constexpr size_t kRegion = 16 << 10;           // 256 lines of 64 bytes: eight times the cache

// One side: a hot state, its D-cache model and its memory.
struct Side : HartHotState {
  explicit Side(const CacheGeometry& g) {
    model.configure(g, "dcache");
    for (DmiRegion* r : {&rd, &wr}) {
      r->base = kBase;
      r->size = kRegion;
      r->ptr = mem.data();
      r->pa_delta = kPaDelta;
    }
  }
  // The set search after a quick miss, as DataPath::data_time does it (no fill latency: the same on both sides).
  void access_set(uint64_t pa, bool write) {
    const uint64_t line = pa >> dcache.line_bits;
    bool miss = false;
    add_memory_time(model.access_line(line, write, miss, data_way_hint(line)));
  }
  CacheModel model{dcache};
  std::vector<uint8_t> mem = std::vector<uint8_t>(kRegion);
  unsigned helper_calls = 0;
};

// The way a cache's field points to, as an index (-1: none), so two models compare.
int64_t way_index(const CacheQuickState& c, const CacheWay* w) { return w ? w - c.ways : -1; }

// The first difference between the two sides' states and memories ("" when none).
std::string difference(const Side& a, const Side& b) {
  const CacheQuickState &x = a.dcache, &y = b.dcache;
  if (x.last_line != y.last_line) return "last_line";
  if (x.prev_line != y.prev_line) return "prev_line";
  if (way_index(x, x.last_way) != way_index(y, y.last_way)) return "last_way";
  if (way_index(x, x.prev_way) != way_index(y, y.prev_way)) return "prev_way";
  if (x.clock != y.clock) return "clock";
  if (x.hits != y.hits) return "hits";
  for (uint64_t i = 0; i < x.way_count; ++i)
    if (x.ways[i].tag != y.ways[i].tag || x.ways[i].used != y.ways[i].used || x.ways[i].dirty != y.ways[i].dirty)
      return "way " + std::to_string(i);
  if (std::memcmp(a.data_way, b.data_way, sizeof a.data_way)) return "way hints";
  if (a.time.ps() != b.time.ps()) return "time";
  if (std::memcmp(a.stall_ps, b.stall_ps, sizeof a.stall_ps)) return "stall time";
  if (a.model.misses() != b.model.misses() || a.model.writebacks() != b.model.writebacks()) return "misses";
  if (a.mem != b.mem) return "memory";
  return "";
}

}  // namespace

namespace avp {
void PrintTo(const CacheGeometry& g, std::ostream* os) {
  *os << g.size << " bytes, " << g.ways << " ways, " << g.line << "-byte lines";
}
}  // namespace avp

namespace {

class DataHitsDifferential : public ::testing::TestWithParam<CacheGeometry> {
 protected:
  void SetUp() override {
    if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
    ASSERT_TRUE(blocks_.translated());
    ASSERT_TRUE(loop_blocks_.translated());
  }
  // The code is translated for the geometry's line size and hit time.
  const std::unique_ptr<Side> shape_ = std::make_unique<Side>(GetParam());
  test::AccessBlocks<Side> blocks_{&shape_->dcache};
  test::AccessBlocks<Side> loop_blocks_{&shape_->dcache, true};
};

TEST_P(DataHitsDifferential, CppAndEmittedHitsLeaveTheSameStateAndTime) {
  const CacheGeometry g = GetParam();
  auto cpp = std::make_unique<Side>(g), emitted = std::make_unique<Side>(g);
  std::mt19937_64 rng(20261129);
  const uint64_t lines = kRegion / g.line;
  uint64_t quick_hits = 0, quick_misses = 0, stale_hints = 0;
  uint64_t recent[2] = {0, 1};  // the lines of the last two accesses, for accesses that come back to them
  for (int n = 0; n < 200000; ++n) {
    SCOPED_TRACE("access " + std::to_string(n));
    // Now and then the line states change under both: stale hints, an invalidation.
    if (rng() % 64 == 0) {
      const uint64_t line = rng() % lines, way = rng() % (2 * cpp->dcache.way_count);
      cpp->data_way_hint(line) = emitted->data_way_hint(line) = static_cast<uint32_t>(way);
      ++stale_hints;
    }
    if (rng() % 4096 == 0) {
      cpp->model.invalidate();
      emitted->model.invalidate();
    }
    const unsigned pattern = rng() % 8;
    const uint64_t line = pattern < 3   ? recent[0]
                          : pattern < 5 ? recent[1]
                          : pattern < 7 ? rng() % (g.size / g.line * 2)  // a working set twice the cache
                                        : rng() % lines;
    const unsigned i = rng() % test::kAccessOps;
    const bool store = test::access_is_store(i);
    const unsigned bytes = test::access_bytes(i);
    const uint64_t offset = std::min<uint64_t>(line * g.line + rng() % g.line, kRegion - bytes);
    const uint64_t va = kBase + offset, pa = va + kPaDelta;
    const uint64_t value = rng();
    if (offset / g.line != recent[0]) {
      recent[1] = recent[0];
      recent[0] = offset / g.line;
    }
    // The C++ path (DataPath::data_time, add_memory_time): the quick hit and its time, else the set search; then the access.
    const bool hit = cpp->data_quick_hit(pa, store);
    if (hit) cpp->add_memory_time(cpp->dcache.hit_ps);
    else cpp->access_set(pa, store);
    uint64_t loaded = 0;
    if (store) std::memcpy(cpp->mem.data() + offset, &value, bytes);
    else std::memcpy(&loaded, cpp->mem.data() + offset, bytes);
    // The emitted path: its helper, when called, does what the hart's would (the set search, the access).
    // A misaligned access always calls it (inline_accesses.cpp); the helper
    // then takes the C++ path, quick hit included.
    const test::AccessBlocks<Side>& code = rng() % 2 ? loop_blocks_ : blocks_;
    const auto ran = code.run(*emitted, i, va, value);
    const bool misaligned = offset % bytes != 0;
    ASSERT_EQ(ran.status, code.insns_per_block());
    ASSERT_EQ(ran.helped, !hit || misaligned);
    if (ran.helped) {
      if (emitted->data_quick_hit(pa, store)) emitted->add_memory_time(emitted->dcache.hit_ps);
      else emitted->access_set(pa, store);
      if (store) std::memcpy(emitted->mem.data() + offset, &value, bytes);
    } else if (!store) {
      ASSERT_EQ(ran.x3, test::access_extended(i, loaded));
    }
    (hit ? quick_hits : quick_misses) += 1;
    ASSERT_EQ(difference(*cpp, *emitted), "");
  }
  // The streams exercised both outcomes, stale hints and evictions of dirty lines.
  EXPECT_GT(quick_hits, 50000u);
  EXPECT_GT(quick_misses, 10000u);
  EXPECT_GT(stale_hints, 1000u);
  EXPECT_GT(cpp->model.writebacks(), 1000u);
}

INSTANTIATE_TEST_SUITE_P(Geometries, DataHitsDifferential,
                         ::testing::Values(CacheGeometry{2048, 4, 64, 700, 9000}, CacheGeometry{1024, 1, 64, 500, 3000},
                                           CacheGeometry{4096, 8, 32, 1000, 5000},
                                           CacheGeometry{512, 8, 64, 600, 4000}));  // one set

}  // namespace
