// A hart's hot state for the tests of loads and stores in translated code
// (test_inline_loads.cpp, test_inline_stores.cpp): the HartHotState the code
// addresses, its load and store regions at kBase (physical kBase +
// kPaDelta), 256 bytes, and its D-cache's quick-hit state with the last
// access on the line of offset 0x40 (the ways are the test's).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "harts/hart_hot_state.h"

namespace avp::test {

constexpr uint64_t kBase = 0x8000;         // the region's virtual address
constexpr uint64_t kPaDelta = 0x7ff00000;  // physical - virtual
constexpr unsigned kLineBits = 6;
constexpr uint64_t kHitPs = 700;

constexpr uint64_t pa_at(uint64_t offset) { return kBase + offset + kPaDelta; }
constexpr uint64_t line_at(uint64_t offset) { return pa_at(offset) >> kLineBits; }

struct DataHotState : HartHotState {
  DataHotState() {
    for (DmiRegion* r : {&rd, &wr}) {
      r->base = kBase;
      r->size = 256;
      r->pa_delta = kPaDelta;
    }
    dcache.line_bits = kLineBits;
    dcache.hit_ps = kHitPs;
    dcache.last_line = line_at(0x40);
    dcache.way_count = 4;
  }
  uint64_t memory_stall_ps() const { return stall_ps[StallMemory]; }
};

// The `n` bytes (1, 2, 4, 8) at mem + off, as a little-endian value.
inline uint64_t bytes_at(const uint8_t* mem, size_t off, unsigned n) {
  uint64_t v = 0;
  std::memcpy(&v, mem + off, n);
  return v;
}

// Translates `block` (at pc 0x1000; no retire, no chain) into `arena` and
// runs it on `hot` with its registers: the status its code returned, or ~0
// when it has no code.
inline uint64_t translate_and_run(const std::vector<rv::Insn>& block, const TranslationHelpers& helpers,
                                  CodeArena& arena, HartHotState* hot) {
  const TranslatedBlock code = translate_block(block.data(), block.size(), 0x1000, helpers, nullptr, nullptr, arena);
  return code ? code(hot->s.x).status : ~0ull;
}

}  // namespace avp::test
