// StreamPrefetcher: the D-cache's stream buffers, driven as DataPath::dcache_miss
// drives them (take, then the miss's own fill, then follow).
#include <gtest/gtest.h>

#include <vector>

#include "base/params.h"
#include "harts/stream_prefetcher.h"

namespace avp {
namespace {

constexpr unsigned kLineBits = 6;  // 64-byte lines: 64 lines per 4 KiB page

// Records the prefetches; each arrives `latency` ps after `now`.
struct Fetcher {
  uint64_t now = 0, latency = 100;
  std::vector<uint64_t> fetched;
  std::vector<uint64_t> cached;  // lines the cache holds: not fetched
  uint64_t operator()(uint64_t line) {
    for (uint64_t c : cached)
      if (c == line) return ~0ull;
    fetched.push_back(line);
    return now + latency;
  }
};

// One demand miss: whether a buffer held it (and when it arrives).
bool miss(StreamPrefetcher& p, Fetcher& f, uint64_t line, uint64_t* ready = nullptr) {
  uint64_t r = 0;
  const bool held = p.take(line, r);
  p.follow(line, f);
  if (ready) *ready = r;
  return held;
}

TEST(StreamPrefetcher, AMissNextToARecentMissStartsAStreamAhead) {
  StreamPrefetcher p;
  p.configure(2, 4, kLineBits, "test");
  Fetcher f;
  EXPECT_FALSE(miss(p, f, 100));
  EXPECT_TRUE(f.fetched.empty());  // one miss is no stream
  EXPECT_FALSE(miss(p, f, 101));
  EXPECT_EQ(f.fetched, (std::vector<uint64_t>{102, 103, 104, 105}));
  f.now = 40;
  uint64_t ready = 0;
  EXPECT_TRUE(miss(p, f, 102, &ready));
  EXPECT_EQ(ready, 100u);  // fetched at 0, arriving after 100 ps
  EXPECT_EQ(f.fetched.back(), 106u);  // the buffer keeps four lines ahead
  EXPECT_EQ(p.prefetches(), 5u);
  EXPECT_EQ(p.hits(), 1u);
}

TEST(StreamPrefetcher, FollowsDescendingStreamsAndSkipsPassedLines) {
  StreamPrefetcher p;
  p.configure(1, 3, kLineBits, "test");
  Fetcher f;
  miss(p, f, 200);
  miss(p, f, 199);
  EXPECT_EQ(f.fetched, (std::vector<uint64_t>{198, 197, 196}));
  EXPECT_TRUE(miss(p, f, 197));  // 198 passed over: dropped with it
  EXPECT_EQ(f.fetched, (std::vector<uint64_t>{198, 197, 196, 195, 194}));
  EXPECT_FALSE(miss(p, f, 198));  // no longer held
}

TEST(StreamPrefetcher, AStreamStopsAtItsPageAndLinesTheCacheHoldsAreNotFetched) {
  StreamPrefetcher p;
  p.configure(1, 4, kLineBits, "test");
  Fetcher f;
  f.cached = {62};
  miss(p, f, 60);  // page of lines 0..63
  miss(p, f, 61);
  EXPECT_EQ(f.fetched, (std::vector<uint64_t>{63}));
  EXPECT_TRUE(miss(p, f, 63));
  EXPECT_EQ(f.fetched.size(), 1u);
  // The next page's first miss continues the stream at once (its neighbour missed).
  EXPECT_FALSE(miss(p, f, 64));
  EXPECT_EQ(f.fetched, (std::vector<uint64_t>{63, 65, 66, 67, 68}));
}

TEST(StreamPrefetcher, UnrelatedMissesStartNothingAndTheOldestStreamIsReplaced) {
  StreamPrefetcher p;
  p.configure(2, 2, kLineBits, "test");
  Fetcher f;
  for (uint64_t line : {1000, 3000, 5000, 7000}) miss(p, f, line);
  EXPECT_TRUE(f.fetched.empty());  // a stride of many lines is no stream
  miss(p, f, 1001);  // stream A: 1002, 1003
  miss(p, f, 3001);  // stream B: 3002, 3003
  miss(p, f, 1002);  // A used last
  miss(p, f, 5001);  // replaces B, the least recently used
  EXPECT_TRUE(miss(p, f, 1003));
  EXPECT_FALSE(miss(p, f, 3002));
  EXPECT_EQ(p.hits(), 2u);
}

TEST(StreamPrefetcher, ClearDropsEveryBufferAndItsHistory) {
  StreamPrefetcher p;
  p.configure(1, 2, kLineBits, "test");
  Fetcher f;
  miss(p, f, 10);
  miss(p, f, 11);
  p.clear();
  EXPECT_FALSE(miss(p, f, 12));
  EXPECT_EQ(f.fetched.size(), 2u);  // 12 missed alone: 11 is forgotten
}

TEST(StreamPrefetcher, RejectsGeometriesOutOfRange) {
  StreamPrefetcher p;
  EXPECT_THROW(p.configure(65, 4, kLineBits, "harts.dcache.prefetch_streams"), ParamError);
  EXPECT_THROW(p.configure(2, 0, kLineBits, "harts.dcache.prefetch_streams"), ParamError);
  EXPECT_THROW(p.configure(2, 65, kLineBits, "harts.dcache.prefetch_streams"), ParamError);
  p.configure(0, 0, kLineBits, "harts.dcache.prefetch_streams");
  EXPECT_FALSE(p.enabled());
}

}  // namespace
}  // namespace avp
