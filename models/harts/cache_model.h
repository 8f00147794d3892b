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
#include "harts/block_translator.h"

namespace avp {

struct CacheGeometry {
  uint64_t size = 0;  // bytes; 0: no cache modelled
  uint32_t ways = 4;
  uint32_t line = 64;
  uint64_t hit_ps = 0, miss_ps = 0;
};

class CacheModel {
 public:
  // Throws ParamError (naming `what`) for a geometry that is not a power-of-two split.
  void configure(const CacheGeometry& g, const char* what);
  bool enabled() const { return sets_ != 0; }
  unsigned line_bits() const { return line_bits_; }
  // Time of one access (without the memory latency of a fill, which the
  // caller adds when `miss` is set); a write marks the line dirty. A miss that
  // evicts a dirty line also pays for writing it back.
  uint64_t access(uint64_t addr, bool write, bool& miss) { return access_line(addr >> line_bits_, write, miss); }
  // The same for the line number `block` (address >> line_bits()).
  uint64_t access_line(uint64_t block, bool write, bool& miss) {
    uint32_t no_way = ~0u;
    return access_line(block, write, miss, no_way);
  }
  // The same for an access that remembers where its line was (`way`, an
  // index the set search updates; any value at first). Fast paths, each with
  // the bookkeeping of a hit found by the set search: the line of the
  // previous access (most recently used, so present), the remembered way
  // while it still holds the line, or the line before the last while its way
  // still holds it (a loop that spans two lines, code and data alternating;
  // the same bookkeeping as a hit in that way, since a line is in one way).
  uint64_t access_line(uint64_t block, bool write, bool& miss, uint32_t& way) {
    if (quick_hit(block, write, way)) {
      miss = false;
      return g_.hit_ps;
    }
    const uint64_t t = access_set(block, write, miss);
    way = static_cast<uint32_t>(last_way_ - ways_.data());
    return t;
  }
  // Those fast paths alone: a hit (hit_time()) with its bookkeeping done, or
  // false with nothing done.
  bool quick_hit(uint64_t block, bool write, uint32_t way) {
    if (!(hit_again(block) || hit_way(block, way) || hit_previous(block))) return false;
    last_way_->dirty |= write;
    return true;
  }
  // A read of the line of the last access (its set's most recently used
  // line already, so only the count changes) is a hit; false for any other line.
  bool hit_again(uint64_t block) {
    if (block != last_line_) return false;
    ++hits_;
    return true;
  }
  // An access to the line of the access before the last one while its way
  // still holds it: a hit found without the set search (the same bookkeeping).
  bool hit_previous(uint64_t block) {
    if (block != prev_line_ || prev_way_->tag != block) return false;
    std::swap(last_line_, prev_line_);
    std::swap(last_way_, prev_way_);
    last_way_->used = ++clock_;
    ++hits_;
    return true;
  }
  // A hit in way `way` (an index into all the ways), as the set search would find it.
  bool hit_way(uint64_t block, uint32_t way) {
    if (way >= way_count_ || ways_[way].tag != block) return false;
    Way* w = &ways_[way];
    w->used = ++clock_;
    ++hits_;
    remember(block, w);
    return true;
  }
  // Reads of lines `first` and first + 1 after the last two accesses were
  // those: hits that leave every set's order as it was.
  bool hit_again(uint64_t first, uint64_t second) {
    if (second != last_line_ || first != prev_line_ || prev_way_->tag != first) return false;
    hits_ += 2;
    return true;
  }
  uint64_t hit_time() const { return g_.hit_ps; }
  // For translated code, which does the quick hits itself (block_translator.h,
  // CacheFields): the fields' offsets from `owner`, which holds this model.
  CacheFields fields(const void* owner) const {
    const auto at = [owner](const void* field) {
      return static_cast<int32_t>(static_cast<const char*>(field) - static_cast<const char*>(owner));
    };
    return {at(&last_line_),
            at(&prev_line_),
            at(&last_way_),
            at(&prev_way_),
            at(&clock_),
            at(&hits_),
            at(&way_base_),
            at(&way_count_),
            static_cast<int32_t>(sizeof(Way)),
            static_cast<int32_t>(offsetof(Way, tag)),
            static_cast<int32_t>(offsetof(Way, used)),
            static_cast<int32_t>(offsetof(Way, dirty))};
  }
  const uint64_t* hit_time_address() const { return &g_.hit_ps; }
  const unsigned* line_bits_address() const { return &line_bits_; }
  // The line (address >> line_bits()) the last miss wrote back; ~0: none.
  uint64_t written_back() const { return written_back_; }
  // Writes back and invalidates every line; returns the time the write-backs
  // take. on_writeback (optional) sees each dirty line.
  uint64_t flush(const std::function<void(uint64_t line)>& on_writeback = {});
  void invalidate();
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t writebacks() const { return writebacks_; }

 private:
  struct Way {
    uint64_t tag = ~0ull;
    uint64_t used = 0;
    bool dirty = false;
  };
  uint64_t access_set(uint64_t block, bool write, bool& miss);
  void remember(uint64_t block, Way* way) {
    if (way != last_way_) {  // the last access becomes the previous one
      prev_line_ = last_line_;
      prev_way_ = last_way_;
    }
    last_line_ = block;
    last_way_ = way;
  }
  void forget() { last_line_ = prev_line_ = ~0ull; }
  CacheGeometry g_;
  uint64_t sets_ = 0;
  unsigned line_bits_ = 0;
  std::vector<Way, HostLineAllocator<Way>> ways_;  // written by the hart's host thread (base/host_lines.h)
  uint64_t way_count_ = 0;                          // ways_.size(), without the division by sizeof(Way)
  Way* way_base_ = nullptr;                         // ways_.data(), where translated code finds it
  uint64_t clock_ = 0, hits_ = 0, misses_ = 0, writebacks_ = 0;
  uint64_t written_back_ = ~0ull;
  // The lines (address >> line bits; ~0: none) of the last two accesses and
  // their ways; the previous line's way may have been reused since. Translated
  // code reads and updates them as the hit checks here do.
  uint64_t last_line_ = ~0ull, prev_line_ = ~0ull;
  Way* last_way_ = nullptr;
  Way* prev_way_ = nullptr;
};

}  // namespace avp
