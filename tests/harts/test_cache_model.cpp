// The L1 timing model (models/harts/include/harts/cache_model.h) against a plain LRU cache
// written from its description: every access of long random sequences with
// the locality of real code (repeated lines, two-line loops, strides,
// conflicts) must give the same hit or miss, time and written-back line, and
// the same totals. The model's fast paths (the line of the last access, the
// last two lines again) must not change a single result.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "harts/cache_model.h"

namespace {

class ReferenceLru {
 public:
  ReferenceLru(uint64_t sets, unsigned ways) : sets_(sets), ways_(ways), lines_(sets * ways) {}
  // Returns whether it hit; `victim` the dirty line written back (~0: none).
  bool access(uint64_t block, bool write, uint64_t& victim) {
    Line* set = &lines_[(block % sets_) * ways_];
    ++clock_;
    victim = ~0ull;
    Line* lru = set;
    for (unsigned w = 0; w < ways_; ++w) {
      if (set[w].valid && set[w].tag == block) {
        set[w].used = clock_;
        set[w].dirty |= write;
        return true;
      }
      if (!set[w].valid) {
        if (lru->valid) lru = &set[w];
      } else if (lru->valid && set[w].used < lru->used) {
        lru = &set[w];
      }
    }
    if (lru->valid && lru->dirty) victim = lru->tag;
    *lru = Line{block, clock_, write, true};
    return false;
  }

 private:
  struct Line {
    uint64_t tag = 0, used = 0;
    bool dirty = false, valid = false;
  };
  uint64_t sets_;
  unsigned ways_;
  std::vector<Line> lines_;
  uint64_t clock_ = 0;
};

struct Geometry {
  uint64_t size;
  uint32_t ways, line;
};
void PrintTo(const Geometry& g, std::ostream* os) { *os << g.size << " bytes, " << g.ways << " ways, " << g.line << "-byte lines"; }

class CacheModelVsReference : public ::testing::TestWithParam<Geometry> {};

TEST_P(CacheModelVsReference, SameResultForEveryAccess) {
  const Geometry g = GetParam();
  avp::CacheQuickState quick;
  avp::CacheModel model{quick};
  model.configure({g.size, g.ways, g.line, 1000, 5000}, "test");
  const uint64_t sets = g.size / (uint64_t{g.ways} * g.line);
  ReferenceLru ref(sets, g.ways);
  std::mt19937_64 rng(42);
  uint64_t hits = 0, misses = 0, writebacks = 0, pair_hits = 0;
  uint64_t line = 0;
  uint32_t way_hints[64] = {};
  const uint64_t span = 4 * g.size / g.line;  // lines: four times the cache
  for (int n = 0; n < 400000; ++n) {
    const unsigned pattern = rng() % 10;
    std::vector<uint64_t> run;
    if (pattern < 3) {
      run.assign(1 + rng() % 4, line);  // the same line again
    } else if (pattern < 6) {
      const uint64_t a = rng() % span;  // a loop over two consecutive lines
      for (unsigned i = 0, k = 1 + rng() % 5; i < k; ++i) run.insert(run.end(), {a, a + 1});
    } else if (pattern < 8) {
      const uint64_t a = rng() % span;  // conflicting lines of one set
      for (unsigned i = 0, k = 1 + rng() % 6; i < k; ++i) run.push_back(a + (rng() % (g.ways + 2)) * sets);
    } else {
      run.push_back(rng() % span);  // anywhere
    }
    for (uint64_t block : run) {
      const bool write = rng() % 3 == 0;
      bool miss = false;
      // Patterns 7 and 9 through the hinted form, whose hints (shared by
      // lines 64 apart) are often stale: it must give the same results.
      uint64_t t;
      if (pattern == 4 && !write) t = model.access_line(block, false, miss);
      else if (pattern == 7 || pattern == 9) t = model.access_line(block, write, miss, way_hints[block % 64]);
      else t = model.access(block * g.line, write, miss);
      const bool w = (pattern == 4 && !write) ? false : write;
      uint64_t victim = ~0ull;
      const bool ref_hit = ref.access(block, w, victim);
      ASSERT_EQ(!miss, ref_hit) << "access " << n << " line " << block;
      if (miss) {
        ++misses;
        ASSERT_EQ(model.written_back(), victim) << "access " << n << " line " << block;
        ASSERT_EQ(t, victim == ~0ull ? 5000u : 10000u);
        writebacks += victim != ~0ull;
      } else {
        ++hits;
        ASSERT_EQ(t, 1000u);
      }
      line = block;
    }
    // The I-cache timing of a block spanning two lines: the two-line fast
    // path, or (when it says no) an access to each line.
    if (rng() % 2) {
      const uint64_t choice = rng() % 3;
      const uint64_t a = choice == 0 ? line - 1 : choice == 1 ? line : rng() % span;
      if (model.hit_again(a, a + 1)) {
        uint64_t victim = ~0ull;
        ASSERT_TRUE(ref.access(a, false, victim)) << "access " << n;
        ASSERT_TRUE(ref.access(a + 1, false, victim)) << "access " << n;
        hits += 2;
        ++pair_hits;
      } else {
        for (uint64_t block : {a, a + 1}) {
          bool miss = false;
          model.access_line(block, false, miss);
          uint64_t victim = ~0ull;
          ASSERT_EQ(!miss, ref.access(block, false, victim)) << "access " << n;
          if (miss) {
            ASSERT_EQ(model.written_back(), victim);
            ++misses;
            writebacks += victim != ~0ull;
          } else {
            ++hits;
          }
        }
      }
      line = a + 1;
    }
  }
  EXPECT_EQ(model.hits(), hits);
  EXPECT_EQ(model.misses(), misses);
  EXPECT_EQ(model.writebacks(), writebacks);
  EXPECT_GT(hits, 100000u);
  EXPECT_GT(misses, 10000u);
  EXPECT_GT(writebacks, 1000u);
  EXPECT_GT(pair_hits, 1000u);
}

// Untimed (a functional run warming the caches, harts.warm_caches): the
// same lines, LRU order, dirty bits and counts, no time; timed again, the
// configured latencies with the contents kept.
TEST(CacheModelUntimed, KeepsContentsWithoutTime) {
  avp::CacheQuickState quick;
  avp::CacheModel model{quick};
  model.configure({1024, 2, 64, 1000, 5000}, "test");  // 8 sets of 2 ways
  model.set_timed(false);
  EXPECT_EQ(model.hit_time(), 0u);
  bool miss = false;
  EXPECT_EQ(model.access_line(0, true, miss), 0u);  // a dirty line in set 0
  EXPECT_TRUE(miss);
  EXPECT_EQ(model.access_line(8, false, miss), 0u);  // set 0's other way
  EXPECT_TRUE(miss);
  EXPECT_EQ(model.access_line(0, false, miss), 0u);  // a hit: line 8 is now the older
  EXPECT_FALSE(miss);
  model.set_timed(true);
  EXPECT_EQ(model.hit_time(), 1000u);
  EXPECT_EQ(model.access_line(0, false, miss), 1000u);  // still there
  EXPECT_FALSE(miss);
  // Line 16 evicts line 8 (clean, the least recent), then line 24 evicts the dirty line 0: a write-back.
  EXPECT_EQ(model.access_line(16, false, miss), 5000u);
  EXPECT_EQ(model.written_back(), ~0ull);
  EXPECT_EQ(model.access_line(24, false, miss), 10000u);
  EXPECT_EQ(model.written_back(), 0u);
  EXPECT_EQ(model.hits(), 2u);
  EXPECT_EQ(model.misses(), 4u);
  EXPECT_EQ(model.writebacks(), 1u);
  model.set_timed(false);  // a flush while untimed writes back without time
  EXPECT_EQ(model.access_line(16, true, miss), 0u);
  EXPECT_EQ(model.flush(), 0u);
  EXPECT_EQ(model.writebacks(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Geometries, CacheModelVsReference,
                         ::testing::Values(Geometry{32768, 4, 64}, Geometry{4096, 2, 32}, Geometry{1024, 16, 64},
                                           Geometry{512, 1, 64}));

}  // namespace
