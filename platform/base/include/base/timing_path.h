// A direct path for a hart's Timing transactions (base/cache_traffic.h), as
// DMI is one for data. A line fill or write-back is only counted and timed by
// the interconnect and the memory; sending it as a TLM transaction costs more
// than the counting (payload, extensions, socket hops, address decoding), and
// harts send one per cache miss. So a Probe's answer may carry the path: the
// memory answers itself, and each interconnect that forwards the probe and
// knows what it adds (the router: its port's counts, latency and bandwidth)
// wraps the path it got in its own. A component that forwards probes without
// wrapping (an address view, a window unit) must clear the path, so a path
// always does exactly what b_transport of the same Timing transaction does,
// and of the Replay transaction that follows a deferred one (a hart's
// slices in the parallel schedule replay theirs after each batch). Times on the path are integer
// picoseconds (sc_time values), so that no step converts: the path runs once
// or twice per cache miss, and conversions were a good part of its host time.
#pragma once
#include <algorithm>
#include <cstdint>

namespace avp {

struct CacheTrafficExtension;

class TimingPath {
 public:
  // As b_transport of a Timing or Replay transaction `c` of `len` bytes at `addr` (an
  // address the path's owner sees, within the range its probe answered), with
  // its delay in ps.
  virtual void time(uint64_t addr, unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) = 0;

 protected:
  ~TimingPath() = default;
};

// The paths an initiator learnt from probes, by address range (of its own
// addresses); also the ranges known to have none (then TLM it is).
class TimingRoutes {
 public:
  // The path for [addr, addr + len); sets `known` false when no probe has
  // answered for addr yet. The route found moves to the front: a console's
  // page learnt last must not cost every later miss a comparison.
  TimingPath* find(uint64_t addr, unsigned len, bool& known) {
    for (unsigned i = 0; i < n_; ++i) {
      if (addr - routes_[i].base < routes_[i].size) {
        if (i > 0) std::rotate(routes_, routes_ + i, routes_ + i + 1);
        const Route& r = routes_[0];
        known = true;
        return r.size - (addr - r.base) >= len ? r.path : nullptr;
      }
    }
    known = false;
    return nullptr;
  }
  // What a probe at addr answered (a path over [base, base + size), or none:
  // then the page of addr has none). The route used least lately makes room.
  void learn(uint64_t addr, TimingPath* path, uint64_t base, uint64_t size) {
    if (!path || addr - base >= size) {
      path = nullptr;
      base = addr & ~uint64_t{0xfff};
      size = 0x1000;
    }
    if (n_ < kRoutes) ++n_;
    for (unsigned i = n_ - 1; i > 0; --i) routes_[i] = routes_[i - 1];
    routes_[0] = {base, size, path};
  }
  void clear() { n_ = 0; }

 private:
  struct Route {
    uint64_t base, size;
    TimingPath* path;
  };
  static constexpr unsigned kRoutes = 4;
  Route routes_[kRoutes] = {};
  unsigned n_ = 0;
};

}  // namespace avp
