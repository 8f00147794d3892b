// The hart's data accesses on their fast path (Hart::load, Hart::store) and
// their memory timing, defined here to be inlined into the ISS loop and the
// translated code's helpers: one call per access is a measurable part of
// the loop. A load or store in the region the hart last read or wrote
// directly is done in place; any other goes to load_slow / store_slow.
#pragma once
#include <cstring>

#include "harts/hart.h"

namespace avp {

template <typename T>
[[gnu::always_inline]] inline T Hart::load(uint64_t addr) {
  const uint64_t off = addr - hot_.rd.base;
  if (off < hot_.rd.size && hot_.rd.size - off >= sizeof(T)) {
    T v;
    std::memcpy(&v, hot_.rd.ptr + off, sizeof(T));
    add_memory_time(data_time(addr + hot_.rd.pa_delta, false, sizeof(T)));
    return v;
  }
  return load_slow<T>(addr);
}

template <typename T>
[[gnu::always_inline]] inline void Hart::store(uint64_t addr, T v) {
  const uint64_t off = addr - hot_.wr.base;
  if (off < hot_.wr.size && hot_.wr.size - off >= sizeof(T)) {
    std::memcpy(hot_.wr.ptr + off, &v, sizeof(T));
    const uint64_t pa = addr + hot_.wr.pa_delta;
    add_memory_time(data_time(pa, true, sizeof(T)));
    after_store(pa, sizeof(T));
  } else {
    store_slow<T>(addr, v);  // calls after_store itself
  }
}

// Memory timing (hart_memory_timing.cpp, bus_timing.h): the time of
// a data access to memory, whether its data moved by DMI or not: the
// D-cache's quick hits (HartHotState::data_quick_hit, which translated code
// does too), else the model's set search, whose misses send a line fill (and
// the write-back of a dirty victim) to the bus; without a D-cache, the
// access itself.
// A functional run times nothing (timing_mode.h).
[[gnu::always_inline]] inline uint64_t Hart::data_time(uint64_t pa, bool write, unsigned len) {
  if (functional_) return 0;
  if (hot_.data_quick_hit(pa, write)) return hot_.dcache.hit_ps;
  if (!dcache_.enabled()) return bus_timing_.traffic(pa, write, len, false);
  bool miss = false;
  const uint64_t line = pa >> dcache_.line_bits();
  const uint64_t t = dcache_.search(line, write, miss, hot_.data_way_hint(line));
  return miss ? t + dcache_miss(pa) : t;
}

[[gnu::always_inline]] inline void Hart::add_memory_time(uint64_t t) { hot_.add_memory_time(t); }

}  // namespace avp
