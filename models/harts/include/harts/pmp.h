// Physical memory protection (privileged spec, section 3.7): pmpcfg/pmpaddr
// with OFF/TOR/NA4/NAPOT matching, the lock bit and WARL fields, and the
// access check every load, store, fetch and page-table access goes through.
// The number of entries (0..64) and the granularity G (a region is at least
// 2^(G+2) bytes) are parameters (harts.pmp_entries, harts.pmp_granularity).
#pragma once
#include <cstdint>

#include "harts/hart_state.h"

namespace avp::rv {

enum Access : uint8_t { kAccessRead = 1, kAccessWrite = 2, kAccessExec = 4 };

class Pmp {
 public:
  static constexpr unsigned kMaxEntries = 64;
  // pmpNcfg bits.
  static constexpr uint8_t R = 1, W = 2, X = 4, A = 3 << 3, L = 1 << 7;
  enum Mode : uint8_t { OFF = 0, TOR = 1, NA4 = 2, NAPOT = 3 };

  // Sets the implemented entries and granularity and resets every entry to OFF, unlocked.
  void configure(unsigned entries, unsigned granularity);
  void reset();
  unsigned entries() const { return entries_; }

  // CSR views: pmpcfg<reg> (even reg 0..14 on RV64) and pmpaddr<i>.
  uint64_t read_cfg(unsigned reg) const;
  void write_cfg(unsigned reg, uint64_t v);
  uint64_t read_addr(unsigned i) const;
  void write_addr(unsigned i, uint64_t v);

  // Whether accesses at privilege p are checked at all: M-mode only while an
  // entry is locked; S/U while any entry is enabled (not OFF). With every
  // entry OFF nothing is restricted (as without a PMP; docs/harts.md).
  bool active_for(Priv p) const { return p == PRV_M ? any_locked_ : any_enabled_; }
  // Whether an access of `len` bytes at `addr` with kAccess* bits `access` is
  // allowed at privilege p (only meaningful when active_for(p)).
  bool allows(uint64_t addr, uint64_t len, Priv p, unsigned access) const;
  // Changes whenever a write changed the configuration (caches of checked results compare it).
  uint64_t generation() const { return generation_; }

 private:
  uint64_t effective_addr(unsigned i) const;  // pmpaddr as read back (granularity applied)
  bool locked_addr(unsigned i) const;
  void update();

  unsigned entries_ = 16, g_ = 0;
  uint8_t cfg_[kMaxEntries] = {};
  uint64_t addr_[kMaxEntries] = {};
  struct Range {
    uint64_t lo = 0, hi = 0;  // [lo, hi); empty when hi <= lo
  };
  Range range_[kMaxEntries];
  bool any_enabled_ = false, any_locked_ = false;
  uint64_t generation_ = 0;
};

}  // namespace avp::rv
