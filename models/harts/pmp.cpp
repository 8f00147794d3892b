#include "harts/pmp.h"

namespace avp::rv {

namespace {
constexpr uint64_t kAddrBits = (1ull << 54) - 1;  // pmpaddr holds physical address bits 55:2
constexpr uint8_t kCfgWritable = 0x9F;            // bits 6:5 are reserved (read 0)
}  // namespace

void Pmp::configure(unsigned entries, unsigned granularity) {
  entries_ = entries;
  g_ = granularity;
  reset();
}

void Pmp::reset() {
  for (unsigned i = 0; i < kMaxEntries; ++i) {
    cfg_[i] = 0;
    addr_[i] = 0;
  }
  update();
}

uint64_t Pmp::read_cfg(unsigned reg) const {
  uint64_t v = 0;
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned i = reg * 4 + k;
    if (i < entries_) v |= static_cast<uint64_t>(cfg_[i]) << (8 * k);
  }
  return v;
}

void Pmp::write_cfg(unsigned reg, uint64_t v) {
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned i = reg * 4 + k;
    if (i >= entries_ || (cfg_[i] & L)) continue;  // locked entries ignore writes
    uint8_t c = static_cast<uint8_t>(v >> (8 * k)) & kCfgWritable;
    if ((c & W) && !(c & R)) continue;  // R=0 W=1 is reserved: the entry keeps its value (as QEMU)
    if (g_ >= 1 && ((c & A) >> 3) == NA4) c = static_cast<uint8_t>((c & ~A) | (NAPOT << 3));  // NA4 needs G = 0
    cfg_[i] = c;
  }
  update();
}

bool Pmp::locked_addr(unsigned i) const {
  if (cfg_[i] & L) return true;
  // A locked TOR entry also locks the address register below it (its base).
  return i + 1 < entries_ && (cfg_[i + 1] & L) && ((cfg_[i + 1] & A) >> 3) == TOR;
}

uint64_t Pmp::effective_addr(unsigned i) const {
  const uint64_t a = addr_[i];
  if (g_ == 0) return a;
  if (((cfg_[i] & A) >> 3) == NAPOT) return g_ >= 2 ? a | ((1ull << (g_ - 1)) - 1) : a;
  return a & ~((1ull << g_) - 1);
}

uint64_t Pmp::read_addr(unsigned i) const { return i < entries_ ? effective_addr(i) : 0; }

void Pmp::write_addr(unsigned i, uint64_t v) {
  if (i >= entries_ || locked_addr(i)) return;
  addr_[i] = v & kAddrBits;
  update();
}

void Pmp::update() {
  any_enabled_ = any_locked_ = false;
  for (unsigned i = 0; i < entries_; ++i) {
    const unsigned mode = (cfg_[i] & A) >> 3;
    const uint64_t a = effective_addr(i);
    Range r;
    if (mode == TOR) {
      r.lo = i == 0 ? 0 : effective_addr(i - 1) << 2;
      r.hi = a << 2;
    } else if (mode == NA4) {
      r.lo = a << 2;
      r.hi = r.lo + 4;
    } else if (mode == NAPOT) {
      const uint64_t ones = a ^ (a + 1);  // the trailing ones and the zero above them
      r.lo = (a & ~ones) << 2;
      r.hi = r.lo + ((ones + 1) << 2);
    }
    range_[i] = r;
    any_enabled_ |= mode != OFF;
    any_locked_ |= mode != OFF && (cfg_[i] & L);
  }
  ++generation_;
}

bool Pmp::allows(uint64_t addr, uint64_t len, Priv p, unsigned access) const {
  const uint64_t last = addr + (len - 1);
  for (unsigned i = 0; i < entries_; ++i) {
    if (!(cfg_[i] & A)) continue;
    const Range& r = range_[i];
    if (r.hi <= r.lo || addr >= r.hi || last < r.lo) continue;  // no byte matches
    // The lowest-numbered entry matching any byte decides; it must match all of them.
    if (addr < r.lo || last >= r.hi) return false;
    if (p == PRV_M && !(cfg_[i] & L)) return true;
    return (cfg_[i] & access) == access;
  }
  return p == PRV_M;
}

}  // namespace avp::rv
