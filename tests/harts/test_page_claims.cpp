// PageClaims (harts/page_claims.h): read and write claims on 64-byte lines
// for the parallel quantum schedule. Besides the rules one by one, random
// claims by four harts check what determinism rests on: no line is ever
// writable by one hart and readable by another, and a hart loses a line
// only through a withdrawal naming it, so no fast region outlives its claim.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "harts/page_claims.h"

namespace avp {
namespace {

constexpr uint64_t kPage = 4096, kLine = PageClaims::kLine;
constexpr unsigned kHarts = 4, kPages = 3;

struct Withdrawal {
  unsigned hart;
  const uint8_t* from;
  uint64_t bytes;
  bool writes_only;
};

struct ClaimsTest : testing::Test {
  alignas(kPage) static inline uint8_t memory[kPages * kPage];
  std::vector<Withdrawal> withdrawn;
  PageClaims claims{[this](unsigned h, const uint8_t* from, uint64_t bytes, bool writes_only) {
    withdrawn.push_back({h, from, bytes, writes_only});
  }};
  bool held(unsigned h, const uint8_t* line, bool write) const {
    return claims.held(h, line, write, line, line + kLine).to != nullptr;
  }
};

TEST_F(ClaimsTest, AClaimTakesTheUntouchedLinesOfItsPageAndTheRunCrossesPages) {
  claims.claim(0, memory + 0x40, true);
  claims.claim(0, memory + kPage + 0x80, true);
  EXPECT_TRUE(withdrawn.empty());
  // Both pages whole, one run across them; the third page is nobody's.
  const PageClaims::Span s = claims.held(0, memory + 0x40, true, memory, memory + kPages * kPage);
  EXPECT_EQ(s.from, memory);
  EXPECT_EQ(s.to, memory + 2 * kPage);
  EXPECT_TRUE(held(0, memory + 0x40, false));  // the write claim holds the read claim
  EXPECT_FALSE(held(1, memory + 0x40, false));
  // The span stays within the bounds asked for.
  const PageClaims::Span bounded = claims.held(0, memory + 0x40, true, memory + 0x40, memory + 0x100);
  EXPECT_EQ(bounded.from, memory + 0x40);
  EXPECT_EQ(bounded.to, memory + 0x100);
}

TEST_F(ClaimsTest, AReaderTakesOnlyWritesAndAWriterEverything) {
  claims.claim(0, memory, true);  // line 0 accessed, 1..63 speculative
  claims.claim(1, memory + kLine, false);
  // Hart 0 keeps writing line 0 (accessed); lines 1..63 are read by both now.
  EXPECT_TRUE(held(0, memory, true));
  EXPECT_FALSE(held(0, memory + kLine, true));
  EXPECT_TRUE(held(0, memory + kLine, false));
  EXPECT_TRUE(held(1, memory + 63 * kLine, false));
  EXPECT_FALSE(held(1, memory, false));
  // One withdrawal for the run of lines.
  ASSERT_EQ(withdrawn.size(), 1u);
  EXPECT_TRUE(withdrawn[0].hart == 0 && withdrawn[0].writes_only && withdrawn[0].from == memory + kLine &&
              withdrawn[0].bytes == 63 * kLine);
  withdrawn.clear();
  claims.claim(1, memory + kLine, true);  // line 1 accessed by hart 1: its write takes it from hart 0's read
  EXPECT_TRUE(held(1, memory + kLine, true));
  EXPECT_FALSE(held(0, memory + kLine, false));
  ASSERT_FALSE(withdrawn.empty());
  EXPECT_EQ(withdrawn.front().hart, 0u);
  EXPECT_EQ(withdrawn.front().from, memory + kLine);
  EXPECT_FALSE(withdrawn.front().writes_only);
  // Lines 2..63 were nobody's access: hart 1's write took them too.
  EXPECT_TRUE(held(1, memory + 2 * kLine, true));
  EXPECT_TRUE(held(0, memory, true));  // line 0, which hart 0 accessed, stays its own
}

TEST_F(ClaimsTest, RandomClaimsNeverLeaveALineWritableBesideAnotherReaderOrAStaleRegion) {
  constexpr unsigned kLinesAll = kPages * PageClaims::kLines;
  // What each hart's fast regions may cover: what it held after its claims, less what was withdrawn.
  std::array<std::array<bool, kLinesAll>, kHarts> may_read{}, may_write{};
  std::mt19937 rng(7);
  for (int step = 0; step < 2000; ++step) {
    const unsigned h = rng() % kHarts;
    const unsigned line = rng() % kLinesAll;
    const bool write = rng() % 3 == 0;
    withdrawn.clear();
    claims.claim(h, memory + line * kLine, write);
    for (const Withdrawal& w : withdrawn) {
      ASSERT_NE(w.hart, h);
      for (uint64_t b = 0; b < w.bytes; b += kLine) {
        const unsigned l = static_cast<unsigned>((w.from + b - memory) / kLine);
        may_write[w.hart][l] = false;
        if (!w.writes_only) may_read[w.hart][l] = false;
      }
    }
    for (unsigned l = 0; l < kLinesAll; ++l) {
      may_read[h][l] = held(h, memory + l * kLine, false);
      may_write[h][l] = held(h, memory + l * kLine, true);
    }
    // The span through a line, against a scan line by line within random bounds.
    const unsigned at = rng() % kLinesAll, reach = static_cast<unsigned>(PageClaims::kMaxReach / kLine);
    const uint8_t* lo = memory + rng() % ((at + 1) * kLine);
    const uint8_t* hi = memory + at * kLine + 1 + rng() % ((kLinesAll - at) * kLine);
    const bool span_write = rng() % 2;
    const PageClaims::Span span = claims.held(h, memory + at * kLine, span_write, lo, hi);
    if (!held(h, memory + at * kLine, span_write)) {
      ASSERT_EQ(span.to, nullptr);
    } else {
      unsigned first = at, end = at + 1;
      while (first > 0 && at - first < reach && memory + first * kLine > lo &&
             held(h, memory + (first - 1) * kLine, span_write))
        --first;
      while (end < kLinesAll && end - at < reach && memory + end * kLine < hi && held(h, memory + end * kLine, span_write))
        ++end;
      ASSERT_EQ(span.from, std::max<const uint8_t*>(memory + first * kLine, lo)) << "step " << step;
      ASSERT_EQ(span.to, std::min<const uint8_t*>(memory + end * kLine, hi)) << "step " << step;
    }
    ASSERT_TRUE(may_write[h][line] || !write);
    ASSERT_TRUE(may_read[h][line]);
    for (unsigned l = 0; l < kLinesAll; ++l)
      for (unsigned g = 0; g < kHarts; ++g) {
        // No permission outlives its claim.
        ASSERT_TRUE(!may_read[g][l] || held(g, memory + l * kLine, false)) << "step " << step;
        ASSERT_TRUE(!may_write[g][l] || held(g, memory + l * kLine, true)) << "step " << step;
        if (!held(g, memory + l * kLine, true)) continue;
        for (unsigned o = 0; o < kHarts; ++o)  // a writer alone
          ASSERT_TRUE(o == g || !held(o, memory + l * kLine, false)) << "step " << step << " line " << l;
      }
  }
}

// The rules a line at a time, as the claims were first written: the
// reference for the claim's word-wide steps.
struct LineByLine {
  static constexpr unsigned kAll = kPages * PageClaims::kLines;
  struct Line {
    int writer = -1;
    bool accessed = false;
    std::array<bool, kHarts> reads{};
  };
  std::array<Line, kAll> lines;
  // Withdrawn by the last claim, by hart: the read (and write) claims, and the write claims only.
  std::array<std::array<bool, kAll>, kHarts> lost_all{}, lost_writes{};

  bool holds(unsigned h, unsigned l, bool write) const {
    return write ? lines[l].writer == static_cast<int>(h) : lines[l].reads[h];
  }
  bool free_for(unsigned h, unsigned l, bool write) const {
    if (holds(h, l, write)) return false;
    bool others = lines[l].writer >= 0;
    if (write) {
      others = false;
      for (unsigned o = 0; o < kHarts; ++o) others |= o != h && lines[l].reads[o];
    }
    return !others || !lines[l].accessed;
  }
  void take(unsigned h, unsigned l, bool write) {
    Line& x = lines[l];
    if (write) {
      if (x.writer == static_cast<int>(h)) return;
      for (unsigned o = 0; o < kHarts; ++o)
        if (o != h && x.reads[o]) lost_all[o][l] = true, x.reads[o] = false;
      x.writer = static_cast<int>(h);
      x.accessed = false;
      x.reads[h] = true;
      return;
    }
    if (x.reads[h]) return;
    if (x.writer >= 0) lost_writes[x.writer][l] = true, x.writer = -1, x.accessed = false;
    x.reads[h] = true;
  }
  void claim(unsigned h, unsigned l, bool write) {
    lost_all = lost_writes = {};
    const unsigned page = l / PageClaims::kLines * PageClaims::kLines;
    take(h, l, write);
    lines[l].accessed = true;
    for (unsigned k = l; k > page && free_for(h, k - 1, write); --k) take(h, k - 1, write);
    for (unsigned k = l + 1; k < page + PageClaims::kLines && free_for(h, k, write); ++k) take(h, k, write);
  }
};

TEST_F(ClaimsTest, ClaimsAWordAtATimeAsTheRulesALineAtATime) {
  LineByLine reference;
  std::mt19937 rng(11);
  for (int step = 0; step < 5000; ++step) {
    const unsigned h = rng() % kHarts, line = rng() % LineByLine::kAll;
    const bool write = rng() % 2 == 0;
    withdrawn.clear();
    claims.claim(h, memory + line * kLine, write);
    reference.claim(h, line, write);
    std::array<std::array<bool, LineByLine::kAll>, kHarts> lost_all{}, lost_writes{};
    for (const Withdrawal& w : withdrawn)
      for (uint64_t b = 0; b < w.bytes; b += kLine)
        (w.writes_only ? lost_writes : lost_all)[w.hart][(w.from + b - memory) / kLine] = true;
    ASSERT_EQ(lost_all, reference.lost_all) << "step " << step;
    ASSERT_EQ(lost_writes, reference.lost_writes) << "step " << step;
    for (unsigned g = 0; g < kHarts; ++g)
      for (unsigned l = 0; l < LineByLine::kAll; ++l)
        for (const bool w : {false, true})
          ASSERT_EQ(held(g, memory + l * kLine, w), reference.holds(g, l, w))
              << "step " << step << " hart " << g << " line " << l << (w ? " write" : " read");
  }
}

}  // namespace
}  // namespace avp
