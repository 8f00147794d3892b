// A fake hart for the tests of loads and stores in translated code
// (test_inline_loads.cpp, test_inline_stores.cpp): the fields InlineLoads
// names, a data region at kBase (physical kBase + kPaDelta) whose last
// access was on the line of offset 0x40, and a D-cache of four ways.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "fake_cache_fields.h"
#include "harts/block_translator.h"

namespace avp::test {

constexpr uint64_t kBase = 0x8000;         // the region's virtual address
constexpr uint64_t kPaDelta = 0x7ff00000;  // physical - virtual
constexpr unsigned kLineBits = 6;
constexpr uint64_t kHitPs = 700;

constexpr uint64_t pa_at(uint64_t offset) { return kBase + offset + kPaDelta; }
constexpr uint64_t line_at(uint64_t offset) { return pa_at(offset) >> kLineBits; }

struct FakeDataHart {
  uint64_t base = kBase, size = 256;
  uint8_t* ptr = nullptr;
  uint64_t pa_delta = kPaDelta;
  unsigned line_bits = kLineBits;
  uint64_t last_line = line_at(0x40), prev_line = ~0ull;  // the last access's line: offset 0x40
  FakeWay* last_way = nullptr;
  FakeWay* prev_way = nullptr;
  uint64_t clock = 0;
  FakeWay* ways = nullptr;
  uint64_t way_count = 4;
  uint32_t way_hints[8] = {};
  uint64_t hits = 0, hit_ps = kHitPs, time_ps = 0, stall_ps = 0;
};

// The InlineLoads of `hart` (a FakeDataHart, or a struct derived from one).
template <typename Hart>
InlineLoads fake_inline_loads(const Hart& hart) {
  const auto offset = [&hart](const void* field) {
    return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&hart));
  };
  return {offset(&hart.base),      offset(&hart.size),   offset(&hart.ptr),      offset(&hart.pa_delta),
          offset(&hart.line_bits), offset(&hart.hit_ps), fake_cache_fields(hart), offset(&hart.way_hints),
          8,                       offset(&hart.time_ps), offset(&hart.stall_ps)};
}

// The `n` bytes (1, 2, 4, 8) at mem + off, as a little-endian value.
inline uint64_t bytes_at(const uint8_t* mem, size_t off, unsigned n) {
  uint64_t v = 0;
  std::memcpy(&v, mem + off, n);
  return v;
}

// Translates `block` (at pc 0x1000; no retire, no chain) into `arena` and
// runs it on `hart` with registers `x`: the status its code returned, or ~0
// when it has no code.
inline uint64_t translate_and_run(const std::vector<rv::Insn>& block, const TranslationHelpers& helpers,
                                  CodeArena& arena, uint64_t* x, void* hart) {
  const TranslatedBlock code = translate_block(block.data(), block.size(), 0x1000, helpers, nullptr, nullptr, arena);
  return code ? code(x, hart).status : ~0ull;
}

}  // namespace avp::test
