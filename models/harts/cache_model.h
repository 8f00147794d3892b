// Timing model of an L1 cache: tags only (memory stays coherent through DMI),
// set-associative with LRU replacement and dirty bits, so hits, misses and
// write-backs cost their configured latencies and feed the statistics.
#pragma once
#include <cstdint>
#include <vector>

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
  // Time of one access (without the memory latency of a fill, which the
  // caller adds when `miss` is set); a write marks the line dirty. A miss that
  // evicts a dirty line also pays for writing it back.
  uint64_t access(uint64_t addr, bool write, bool& miss) {
    // Fast path: the line of the previous access (most recently used, so
    // present); the same bookkeeping as a hit found by the set search.
    const uint64_t block = addr >> line_bits_;
    if (block == mru_block_) {
      mru_->used = ++clock_;
      mru_->dirty |= write;
      ++hits_;
      miss = false;
      return g_.hit_ps;
    }
    return access_set(block, write, miss);
  }
  // Writes back and invalidates every line; returns the time the write-backs take.
  uint64_t flush();
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
  CacheGeometry g_;
  uint64_t sets_ = 0;
  unsigned line_bits_ = 0;
  std::vector<Way> ways_;
  uint64_t clock_ = 0, hits_ = 0, misses_ = 0, writebacks_ = 0;
  uint64_t mru_block_ = ~0ull;  // line (address >> line bits) of the last access; ~0: none
  Way* mru_ = nullptr;
};

}  // namespace avp
