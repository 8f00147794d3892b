// Loads and stores that translated code (block_translator.h) does itself:
// the case the hart's own inlined fast path (Hart::load/store, data_time)
// takes most often, an access within the data region used last (DMI) to the
// D-cache line used last, which is a hit that changes only the hit count,
// the time and, for a store, the line's dirty flag. Every check comes before
// anything changes, so an access that fails one goes to the helper as if the
// code had not looked.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harts/x86_asm.h"

namespace avp {

// Hart fields at these offsets from the hart pointer (64-bit unless noted).
struct DataFastPath {
  struct Region {
    int32_t base, size, ptr, pa_delta;  // a Hart::DmiRegion
  };
  Region load, store;   // the regions Hart::load and Hart::store try first
  int32_t last;         // the D-cache's unsigned index of its most recent line ...
  int32_t recent_block; // ... into its two recent lines (line numbers) ...
  int32_t recent_way;   // ... and their ways (pointers)
  int32_t way_dirty;    // a way's dirty flag (bool), from the way pointer
  int32_t hits;         // the D-cache's hit count
  int32_t time_ps, stall_ps;  // the hart's local time and its memory stall time
  unsigned line_bits;
  uint64_t hit_ps;
  // A store also needs what Hart::after_store checks to be nothing to do:
  const unsigned* reservations;  // non-zero: LR reservations to break
  const uint64_t* code_map;      // a bit per granule of decoded code ...
  uint64_t code_granules;        // ... for the first code_granules granules
  unsigned granule_bits;
};

// With the guest address in rsi and the hart in r8: the access of `size`
// bytes, a load's value (sign- or zero-extended) left in rax, a store's
// taken from `value` (not rax, rcx, rdx, rsi or r8-r11). Returns the jumps
// to take to the helper instead; rsi and `value` are kept on those paths.
std::vector<size_t> emit_fast_load(x86::Asm& a, const DataFastPath& p, unsigned size, bool sign);
std::vector<size_t> emit_fast_store(x86::Asm& a, const DataFastPath& p, unsigned size, x86::Reg value);

}  // namespace avp
