// Loads and stores that translated code does itself (models/harts/translated_data.h)
// against the rules of the hart's own fast path (Hart::load and Hart::store,
// data_time, after_store): random accesses of every width, signed and
// unsigned, near and across the edges of the data region, to the D-cache's
// most recent line, the one before it or another, with LR reservations and
// decoded code about. An access the code does itself must change exactly
// what the hart would (data, hit count, time, the line's dirty flag) and
// call no helper; any other must leave everything to its helper.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "harts/block_translator.h"
#include "harts/translated_data.h"

namespace {

using namespace avp;
using namespace avp::rv;

struct Region {
  uint64_t base = 0, size = 0;
  uint8_t* ptr = nullptr;
  uint64_t pa_delta = 0;
};
struct Way {
  uint64_t tag = 0;
  bool dirty = false;
};

// The "hart" the code and the helpers see.
struct FakeHart {
  Region rd, wr;
  unsigned last = 0;
  uint64_t recent_block[2] = {};
  Way* recent_way[2] = {};
  uint64_t hits = 0, time_ps = 0, stall_ps = 0;
  int helper_calls = 0;
};

JitStep slow_load(void* h, uint64_t, uint64_t, const Insn*) {
  ++static_cast<FakeHart*>(h)->helper_calls;
  return {0x5EED, kExitDone};
}
JitStep slow_store(void* h, uint64_t, uint64_t, uint64_t, const Insn*) {
  ++static_cast<FakeHart*>(h)->helper_calls;
  return {0, kExitDone};
}
JitStep no_other(void*, uint64_t, const Insn*) { return {0, kExitTrapped}; }

const TranslationHelpers kHelpers = {{slow_load, slow_load, slow_load, slow_load, slow_load, slow_load, slow_load},
                                     {slow_store, slow_store, slow_store, slow_store},
                                     no_other};

constexpr unsigned kLineBits = 6, kGranuleBits = 8;
constexpr uint64_t kHitPs = 1500;

TEST(TranslatedData, AccessesFollowTheHartsFastPath) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  std::mt19937 rng(2026);
  CodeArena arena;
  std::vector<uint8_t> mem(1024), want_mem(1024);
  std::vector<uint64_t> code_map(5);  // granules of 256 bytes: the accesses are in granules 256..319
  unsigned reservations = 0;
  Way ways[2];
  FakeHart h;
  const auto offset = [&h](const void* field) {
    return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&h));
  };
  const auto region = [&](const Region& r) {
    return DataFastPath::Region{offset(&r.base), offset(&r.size), offset(&r.ptr), offset(&r.pa_delta)};
  };
  // The map covers the accesses, or (as for memory above 4 GiB on the platform) none of them.
  const DataFastPath covered{region(h.rd), region(h.wr), offset(&h.last), offset(&h.recent_block),
                             offset(&h.recent_way), static_cast<int32_t>(offsetof(Way, dirty)), offset(&h.hits),
                             offset(&h.time_ps), offset(&h.stall_ps), kLineBits, kHitPs, &reservations,
                             code_map.data(), code_map.size() * 64, kGranuleBits};
  DataFastPath beyond = covered;
  beyond.code_granules = 256;
  static constexpr unsigned kSize[] = {1, 2, 4, 8, 1, 2, 4, 1, 2, 4, 8};  // LB..LWU, SB..SD
  int fast = 0, slow = 0;
  for (int round = 0; round < 20000; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    Insn d;
    const unsigned kind = rng() % 11;
    d.op = static_cast<uint16_t>(kind < 7 ? LB + kind : SB + (kind - 7));
    d.rd = 10;
    d.rs1 = 11;
    d.rs2 = 12;
    d.imm = static_cast<int64_t>(rng() % 64) - 32;
    const bool store = kind >= 7;
    const unsigned size = kSize[kind];
    // The region: 512 bytes of mem at a random virtual base (sometimes empty or tiny), pa = va + delta.
    Region r;
    r.base = 0x10000 + (rng() % 64) * 8;
    r.size = rng() % 8 == 0 ? rng() % 9 : 512;
    r.ptr = mem.data() + 256;
    r.pa_delta = (rng() % 4) << 12;
    (store ? h.wr : h.rd) = r;
    (store ? h.rd : h.wr) = Region{};  // the other direction's region is not the one used
    uint64_t x[32] = {};
    x[11] = r.base + (rng() % 8 == 0 ? rng() % 1200 - 600 : rng() % (r.size + 16)) - d.imm - 8 * (rng() % 2);
    x[12] = uint64_t{rng()} << 32 | rng();
    const uint64_t va = x[11] + d.imm, pa = va + r.pa_delta, line = pa >> kLineBits;
    h.last = rng() % 2;
    h.recent_block[h.last] = rng() % 4 ? line : line + 1;
    h.recent_block[h.last ^ 1] = rng() % 2 ? line : line - 1;  // the line before: not the fast path's
    h.recent_way[0] = &ways[0];
    h.recent_way[1] = &ways[1];
    ways[0].dirty = ways[1].dirty = false;
    reservations = rng() % 6 == 0;
    const DataFastPath& path = rng() % 4 ? covered : beyond;
    std::fill(code_map.begin(), code_map.end(), 0);
    if (rng() % 3 == 0) {
      const uint64_t g = (pa + (rng() % 2 ? 0 : size - 1)) >> kGranuleBits;
      if (g < code_map.size() * 64) code_map[g >> 6] |= uint64_t{1} << (g & 63);
    }
    for (auto& b : mem) b = static_cast<uint8_t>(rng());
    want_mem = mem;
    h.hits = h.time_ps = h.stall_ps = 0;
    h.helper_calls = 0;
    // The hart's rules.
    const uint64_t off = va - r.base;
    bool takes_fast = off < r.size && r.size - off >= size && h.recent_block[h.last] == line;
    if (store && takes_fast) {
      const auto is_code = [&](uint64_t a) {
        const uint64_t g = a >> kGranuleBits;
        return g < path.code_granules && ((code_map[g >> 6] >> (g & 63)) & 1);
      };
      // A store over two granules is left to the helper (rare), whether or not either is code.
      const bool one_granule = pa >> kGranuleBits == (pa + size - 1) >> kGranuleBits;
      takes_fast = reservations == 0 && one_granule && !is_code(pa);
    }
    uint64_t want_x10 = 0x5EED;
    if (takes_fast && !store) {
      uint64_t v = 0;
      std::memcpy(&v, r.ptr + off, size);
      const bool sign = d.op <= LD;
      if (sign && size < 8) v = static_cast<uint64_t>(static_cast<int64_t>(v << (64 - 8 * size)) >> (64 - 8 * size));
      want_x10 = v;
    }
    if (takes_fast && store) std::memcpy(want_mem.data() + 256 + off, &x[12], size);
    const std::vector<Insn> block{d};
    TranslatedBlock code = translate_block(block.data(), 1, 0x1000, kHelpers, nullptr, nullptr, &path, arena);
    if (!code) {
      arena.reset();
      code = translate_block(block.data(), 1, 0x1000, kHelpers, nullptr, nullptr, &path, arena);
    }
    ASSERT_NE(code, nullptr);
    const Way* mru = h.recent_way[h.last];
    const JitStep s = code(x, &h);
    ASSERT_EQ(s.status, 1u);
    ASSERT_EQ(h.helper_calls, takes_fast ? 0 : 1);
    ASSERT_EQ(h.hits, takes_fast ? 1u : 0u);
    ASSERT_EQ(h.time_ps, takes_fast ? kHitPs : 0u);
    ASSERT_EQ(h.stall_ps, h.time_ps);
    ASSERT_EQ(mru->dirty, takes_fast && store);
    ASSERT_FALSE(h.recent_way[h.last ^ 1]->dirty && h.recent_way[h.last ^ 1] != mru);
    ASSERT_EQ(mem, want_mem);
    if (!store) {
      ASSERT_EQ(x[10], want_x10);
    }
    (takes_fast ? fast : slow) += 1;
  }
  // Both paths were exercised often (the random choices above are not degenerate).
  EXPECT_GT(fast, 3000);
  EXPECT_GT(slow, 3000);
}

}  // namespace
