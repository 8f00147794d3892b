// Stream buffers beside a hart's L1 D-cache (Jouppi 1990), allocated by a
// unit-stride filter (Palacharla and Kessler 1994): a D-cache miss whose
// neighbouring line (the one before, or after) missed recently starts a
// stream; its buffer fetches the next `depth` lines of the stream ahead of
// the hart. A later miss of a buffered line takes it from the buffer (the
// hart waits only for what is left of its fetch) and the buffer fetches one
// more. This gives an in-order hart several misses in flight on sequential
// data, as the prefetchers of application cores do; a stream stops at its
// 4 KiB page (physical pages beyond it need not follow). Timing only: the
// data stays coherent in memory, so a buffer holds line numbers and times.
#pragma once
#include <cstdint>
#include <vector>

namespace avp {

class StreamPrefetcher {
 public:
  // `streams` buffers of `depth` lines each (0 streams: no prefetching);
  // `line_bits` is the cache's. Throws ParamError naming `what` for a depth
  // outside 1..64 or more than 64 streams.
  void configure(uint32_t streams, uint32_t depth, unsigned line_bits, const char* what);
  bool enabled() const { return !buffers_.empty(); }

  // A demand miss of `line`: when a buffer holds the line, returns true
  // with `ready_ps` the absolute time it arrives (the buffer drops it and the
  // lines before it); then, after the miss's own fill if it was not held,
  // follow() lets the stream go on.
  bool take(uint64_t line, uint64_t& ready_ps);
  // The buffer that held the miss fetches one more line; a miss no buffer
  // held starts a stream where its neighbour missed recently. `fetch(line)`
  // sends a prefetch and returns when it arrives (~0: not fetched, the cache
  // holds the line).
  template <class Fetch>
  void follow(uint64_t line, Fetch&& fetch) {
    remember_miss(line);
    if (Buffer* b = last_ ? last_ : allocate(line)) top_up(*b, fetch);
  }
  // Drops every buffered line (the caches were flushed).
  void clear();

  uint64_t prefetches() const { return prefetches_; }  // lines fetched into buffers
  uint64_t hits() const { return hits_; }              // misses a buffer served

 private:
  struct Entry {
    uint64_t line, ready_ps;
  };
  struct Buffer {
    std::vector<Entry> lines;  // oldest first, at most depth_
    uint64_t next = ~0ull;     // the line the stream fetches next (~0: the stream ended at its page)
    int64_t step = 1;          // +1 ascending, -1 descending
    uint64_t used = 0;         // LRU clock
  };
  void remember_miss(uint64_t line);
  bool missed_recently(uint64_t line) const;
  // The least recently used buffer, restarted on the stream `line` continues; nullptr: none.
  Buffer* allocate(uint64_t line);
  template <class Fetch>
  void top_up(Buffer& b, Fetch& fetch) {
    while (b.lines.size() < depth_ && b.next != ~0ull) {
      const uint64_t line = b.next;
      const uint64_t after = line + static_cast<uint64_t>(b.step);
      b.next = same_page(line, after) ? after : ~0ull;
      const uint64_t ready = fetch(line);
      if (ready == ~0ull) continue;
      b.lines.push_back({line, ready});
      ++prefetches_;
    }
  }
  bool same_page(uint64_t a, uint64_t b) const { return (a >> page_shift_) == (b >> page_shift_); }

  static constexpr unsigned kRecentMisses = 16;
  std::vector<Buffer> buffers_;
  Buffer* last_ = nullptr;  // the buffer the last take() found its line in (nullptr: none)
  uint32_t depth_ = 0;
  unsigned page_shift_ = 0;  // log2 of lines per 4 KiB page
  uint64_t recent_[kRecentMisses];  // ~0: none
  unsigned recent_next_ = 0;
  uint64_t clock_ = 0, prefetches_ = 0, hits_ = 0;
};

}  // namespace avp
