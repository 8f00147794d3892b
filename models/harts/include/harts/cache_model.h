// Timing model of an L1 cache: tags only (memory stays coherent through DMI),
// set-associative with LRU replacement and dirty bits, so hits, misses and
// write-backs cost their configured latencies and feed the statistics.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "base/host_lines.h"

namespace avp {

struct CacheGeometry {
  uint64_t size = 0;  // bytes; 0: no cache modelled
  uint32_t ways = 4;
  uint32_t line = 64;
  uint64_t hit_ps = 0, miss_ps = 0;
};

// One way of a set: the line it holds (~0: none), its last use (the LRU
// clock's value) and whether it is dirty.
struct CacheWay {
  uint64_t tag = ~0ull;
  uint64_t used = 0;
  bool dirty = false;
};

// What a cache's quick hits read and update, kept where the cache's owner
// puts it (a hart's HartHotState, whose translated code does the same hits
// on the same fields: inline_accesses.cpp, translated_chain.cpp). The quick
// hits are fast paths, each with the bookkeeping of a hit found by the set
// search: the line of the previous access (most recently used, so present),
// the line before the last while its way still holds it (a loop that spans
// two lines, code and data alternating, two streams accessed in turn), or
// the remembered way while it still holds the line (the same bookkeeping
// either way, since a line is in one way).
struct CacheQuickState {
  // The lines (address >> line_bits; ~0: none) of the last two accesses and
  // their ways; the previous line's way may have been reused since.
  uint64_t last_line = ~0ull, prev_line = ~0ull;
  CacheWay* last_way = nullptr;
  CacheWay* prev_way = nullptr;
  uint64_t clock = 0, hits = 0;  // the LRU clock and the hit count
  CacheWay* ways = nullptr;      // every way, set after set
  uint64_t way_count = 0;        // their number (0: no cache modelled)
  uint64_t hit_ps = 0;           // a hit's time
  uint32_t line_bits = 0;        // log2 of the line size

  // A hit (hit_ps) with its bookkeeping done, or false with nothing done;
  // `way` is where the line was last found (an index into all the ways, any
  // value at first).
  bool quick_hit(uint64_t block, bool write, uint32_t way) {
    if (!(hit_again(block) || hit_previous(block) || hit_way(block, way))) return false;
    last_way->dirty |= write;
    return true;
  }
  // A read of the line of the last access (its set's most recently used
  // line already, so only the count changes) is a hit; false for any other line.
  bool hit_again(uint64_t block) {
    if (block != last_line) return false;
    ++hits;
    return true;
  }
  // A hit in way `way`, as the set search would find it.
  bool hit_way(uint64_t block, uint32_t way) {
    if (way >= way_count || ways[way].tag != block) return false;
    CacheWay* w = &ways[way];
    w->used = ++clock;
    ++hits;
    remember(block, w);
    return true;
  }
  // An access to the line of the access before the last one while its way
  // still holds it: a hit found without the set search (the same bookkeeping).
  bool hit_previous(uint64_t block) {
    if (block != prev_line || prev_way->tag != block) return false;
    std::swap(last_line, prev_line);
    std::swap(last_way, prev_way);
    last_way->used = ++clock;
    ++hits;
    return true;
  }
  // Reads of lines `first` and first + 1 after the last two accesses were
  // those: hits that leave every set's order as it was.
  bool hit_again(uint64_t first, uint64_t second) {
    if (second != last_line || first != prev_line || prev_way->tag != first) return false;
    hits += 2;
    return true;
  }
  // The access found `block` in `way`: the last access becomes the previous one.
  void remember(uint64_t block, CacheWay* way) {
    if (way != last_way) {
      prev_line = last_line;
      prev_way = last_way;
    }
    last_line = block;
    last_way = way;
  }
  void forget() { last_line = prev_line = ~0ull; }
};

class CacheModel {
 public:
  // `quick`: where the quick hits' state is kept (it outlives the model).
  explicit CacheModel(CacheQuickState& quick) : q_(quick) {}
  CacheModel(const CacheModel&) = delete;
  CacheModel& operator=(const CacheModel&) = delete;
  // Throws ParamError (naming `what`) for a geometry that is not a power-of-two split.
  void configure(const CacheGeometry& g, const char* what);
  // Untimed (a functional run that warms the caches, harts.warm_caches):
  // accesses take no time but keep their bookkeeping; timed: the configured latencies.
  void set_timed(bool timed) {
    q_.hit_ps = timed ? g_.hit_ps : 0;
    miss_ps_ = timed ? g_.miss_ps : 0;
  }
  bool enabled() const { return sets_ != 0; }
  unsigned line_bits() const { return q_.line_bits; }
  // Time of one access (without the memory latency of a fill, which the
  // caller adds when `miss` is set); a write marks the line dirty. A miss that
  // evicts a dirty line also pays for writing it back.
  uint64_t access(uint64_t addr, bool write, bool& miss) { return access_line(addr >> q_.line_bits, write, miss); }
  // The same for the line number `block` (address >> line_bits()).
  uint64_t access_line(uint64_t block, bool write, bool& miss) {
    uint32_t no_way = ~0u;
    return access_line(block, write, miss, no_way);
  }
  // The same for an access that remembers where its line was (`way`, an
  // index the set search updates; any value at first): the quick hits
  // (CacheQuickState), else the set search.
  uint64_t access_line(uint64_t block, bool write, bool& miss, uint32_t& way) {
    if (q_.quick_hit(block, write, way)) {
      miss = false;
      return q_.hit_ps;
    }
    return search(block, write, miss, way);
  }
  // The set search alone, for an access the quick hits did not find.
  uint64_t search(uint64_t block, bool write, bool& miss, uint32_t& way) {
    const uint64_t t = access_set(block, write, miss);
    way = static_cast<uint32_t>(q_.last_way - ways_.data());
    return t;
  }
  // The quick hits alone (CacheQuickState::quick_hit, hit_again).
  bool quick_hit(uint64_t block, bool write, uint32_t way) { return q_.quick_hit(block, write, way); }
  bool hit_again(uint64_t first, uint64_t second) { return q_.hit_again(first, second); }
  uint64_t hit_time() const { return q_.hit_ps; }
  // Whether line `block` is in the cache (no access: nothing changes).
  bool holds(uint64_t block) const;
  // The line (address >> line_bits()) the last miss wrote back; ~0: none.
  uint64_t written_back() const { return written_back_; }
  // Writes back and invalidates every line; returns the time the write-backs
  // take. on_writeback (optional) sees each dirty line.
  uint64_t flush(const std::function<void(uint64_t line)>& on_writeback = {});
  void invalidate();
  uint64_t hits() const { return q_.hits; }
  uint64_t misses() const { return misses_; }
  uint64_t writebacks() const { return writebacks_; }

 private:
  uint64_t access_set(uint64_t block, bool write, bool& miss);
  CacheGeometry g_;
  uint64_t miss_ps_ = 0;  // g_.miss_ps while timed (set_timed); the hit's time is q_.hit_ps
  uint64_t sets_ = 0;
  std::vector<CacheWay, HostLineAllocator<CacheWay>> ways_;  // written by the hart's host thread (base/host_lines.h)
  uint64_t misses_ = 0, writebacks_ = 0;
  uint64_t written_back_ = ~0ull;
  CacheQuickState& q_;
};

}  // namespace avp
