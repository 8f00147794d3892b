#include "harts/cache_model.h"

#include <algorithm>

#include "base/params.h"

namespace avp {

void CacheModel::configure(const CacheGeometry& g, const char* what) {
  g_ = g;
  q_.hit_ps = g.hit_ps;
  miss_ps_ = g.miss_ps;
  sets_ = q_.way_count = 0;
  q_.forget();
  if (g.size == 0) return;
  auto pow2 = [](uint64_t v) { return v && !(v & (v - 1)); };
  if (!pow2(g.line) || g.ways == 0 || g.size % (uint64_t{g.ways} * g.line) || !pow2(g.size / (uint64_t{g.ways} * g.line)))
    throw ParamError(std::string(what) + ": size / (ways x line) must be a power of two and line a power of two");
  sets_ = g.size / (uint64_t{g.ways} * g.line);
  q_.line_bits = 0;
  while ((1u << q_.line_bits) < g.line) ++q_.line_bits;
  ways_.assign(sets_ * g.ways, CacheWay{});
  q_.way_count = ways_.size();
  q_.ways = ways_.data();
}

uint64_t CacheModel::access_set(uint64_t block, bool write, bool& miss) {
  CacheWay* set = &ways_[(block & (sets_ - 1)) * g_.ways];
  const uint64_t clock = ++q_.clock;
  CacheWay* victim = set;
  for (uint32_t w = 0; w < g_.ways; ++w) {
    if (set[w].tag == block) {
      set[w].used = clock;
      set[w].dirty |= write;
      ++q_.hits;
      q_.remember(block, &set[w]);
      miss = false;
      return q_.hit_ps;
    }
    if (set[w].used < victim->used) victim = &set[w];
  }
  ++misses_;
  miss = true;
  uint64_t t = miss_ps_;
  written_back_ = ~0ull;
  if (victim->dirty) {
    ++writebacks_;
    written_back_ = victim->tag;
    t += miss_ps_;
  }
  *victim = CacheWay{block, clock, write};
  q_.remember(block, victim);
  return t;
}

bool CacheModel::holds(uint64_t block) const {
  const CacheWay* set = &ways_[(block & (sets_ - 1)) * g_.ways];
  return std::any_of(set, set + g_.ways, [block](const CacheWay& w) { return w.tag == block; });
}

uint64_t CacheModel::flush(const std::function<void(uint64_t line)>& on_writeback) {
  uint64_t t = 0;
  for (auto& w : ways_) {
    if (w.dirty) {
      ++writebacks_;
      t += miss_ps_;
      if (on_writeback) on_writeback(w.tag);
    }
    w = CacheWay{};
  }
  q_.forget();
  return t;
}

void CacheModel::invalidate() {
  for (auto& w : ways_) w = CacheWay{};
  q_.forget();
}

}  // namespace avp
