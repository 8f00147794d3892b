// Open-page DRAM timing: the memory's banks, the rows they open and refresh
// (docs/timing.md, "DRAM presets"). The memory is split into `banks` banks of
// rows of `row_bytes`, interleaved row by row (bank = row number modulo the
// bank count). An access to its bank's open row adds nothing to the memory's
// read or write latency; to a bank with no open row it adds the activation
// (`activate_latency`, tRCD); to a bank with another row open, the precharge
// as well (`precharge_latency`, tRP). The parameters are the memory's
// (`<memory>.banks` ...), their defaults a DRAM standard's (dram_standard.h);
// 0 banks models none, and the memory's latency is fixed.
// Initiators run ahead of SystemC time, so accesses are not simulated in
// the order of their simulated times. Each bank therefore keeps its
// accesses by simulated time (back to the earliest time an access may
// still arrive at, earliest_arrival_ps), and an access is
// decided by the row open at its own time: that of the bank's latest access
// at or before it, not of the access simulated before it. An access that
// arrives earlier than others already simulated changes the bank's rows
// from its time on for every access simulated after it; the latencies of
// those simulated before it stay as they were. An access to the row that an
// activation arriving before it is about to open (waiting for the row
// cycle) waits for that activation instead of opening the row again.
// With `row_cycle` (tRC) set, a bank opens a row at least tRC after any
// other of its activations, so accesses that open rows in one bank wait for
// each other while other banks work in parallel.
// With `refresh_interval` (tREFI) set, the memory refreshes at each multiple
// of it in simulated time (k >= 1) for `refresh_latency` (tRFC): every
// bank's row closes, an access arriving during [k x tREFI, k x tREFI + tRFC)
// waits for its end, and no activation starts within it. Refresh applies
// with or without banks.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "base/local_time.h"
#include "base/params.h"
#include "base/sorted_window.h"
#include "base/stats.h"
#include "memory/dram_standard.h"

namespace avp {

class RowBuffers {
 public:
  // Parameters and statistics under owner's name, defaulting to the
  // standard's; throws ParamError for bad parameters.
  RowBuffers(const sc_core::sc_object* owner, const DramStandard& standard);
  // The latency (ps) an access of `bytes` at `offset` (from the memory's
  // start), arriving `ahead_ps` after SystemC time, adds: any wait for a
  // refresh, then one hit, activation or precharge and activation per row it
  // touches, in address order, each after any wait for its bank's row cycle.
  uint64_t access(uint64_t offset, uint64_t bytes, uint64_t ahead_ps) {
    return hit_in_order(offset, bytes, ahead_ps) ? 0 : access_in_general(offset, bytes, ahead_ps);
  }

 private:
  struct Use {
    uint64_t time;     // when it used its row (sc_time value: a hit's arrival, an activation's start)
    uint64_t row;      // the bank's row it opened or hit
    uint64_t arrival;  // when the access arrived (sc_time value; an activation may start later)
    bool activation;
  };
  // Per bank: its accesses by time, several at one time in the order they were simulated.
  struct Bank {
    using Uses = SortedWindow<Use, &Use::time>;
    Uses uses;
    uint64_t pruned_at = ~0ull;  // earliest_arrival_ps() at the latest prune
  };

  // access() when the access is a hit in the row its bank's latest use
  // left open, arriving at or after that use, in the refresh interval known
  // last (its refreshes counted, outside its refresh), with the bank pruned
  // at the earliest arrival now or not worth pruning (worth_dropping):
  // counted and recorded as access_in_general does it; true. Else false,
  // nothing done. Inline: nearly every access of a cache miss is one (94 % of
  // `mixed`'s), and access_in_general's general steps cost it about 150
  // host instructions.
  bool hit_in_order(uint64_t offset, uint64_t bytes, uint64_t ahead_ps) {
    if (!banks_power_of_two_ || bytes == 0) return false;
    const uint64_t global_row = offset >> row_bits_, row = global_row >> bank_bits_;
    if ((offset + bytes - 1) >> row_bits_ != global_row) return false;
    Bank& bank = banks_state_[global_row & ((uint64_t{1} << bank_bits_) - 1)];
    const uint64_t at = systemc_ps() + ahead_ps;
    if (bank.uses.size() == 0 || (bank.uses.worth_dropping() && bank.pruned_at != earliest_arrival_ps()))
      return false;
    const Use& last = bank.uses[bank.uses.end() - 1];
    if (last.time > at || last.row != row) return false;
    if (const uint64_t trefi = refresh_interval_.get().value()) {
      if (!refresh_window_holds(at, trefi)) return false;  // refresh_before(at) not known
      if (refresh_window_ > refreshes_seen_ * trefi) return false;                           // a refresh to count
      if (refresh_window_ != 0 && at < refresh_window_ + refresh_latency_.get().value()) return false;  // during it
      if (last.time < refresh_window_) return false;  // the refresh closed the row
    }
    hits_.inc();
    bank.uses.insert(bank.uses.end(), Use{at, row, at, false});
    return true;
  }
  uint64_t access_in_general(uint64_t offset, uint64_t bytes, uint64_t ahead_ps);
  // The time (sc_time value) an access arriving at `at` may start: `at`,
  // or the end of the refresh it arrives in (counted).
  uint64_t after_refresh(uint64_t at);
  // The start of the latest refresh at or before `at` (sc_time value; 0 if none).
  uint64_t refresh_before(uint64_t at) const {
    const uint64_t trefi = refresh_interval_.get().value();
    if (!trefi) return 0;
    // Accesses come in runs within one refresh interval: a division per
    // access was a good part of the access's host time.
    if (!refresh_window_holds(at, trefi)) {
      refresh_window_ = at / trefi * trefi;
      refresh_window_length_ = trefi;
    }
    return refresh_window_;
  }
  // Whether the refresh window refresh_before answered last, for interval
  // trefi, holds `at` (then it is refresh_before(at), without a division).
  bool refresh_window_holds(uint64_t at, uint64_t trefi) const {
    return trefi == refresh_window_length_ && at - refresh_window_ < trefi;
  }
  // The latency the access to `row` of `bank` arriving at `at` adds, recorded
  // (`earliest`: earliest_arrival_ps()).
  uint64_t open_row(Bank& bank, uint64_t row, uint64_t at, uint64_t earliest);
  // The earliest start from `at` on that is a row cycle clear of the bank's
  // other activations and outside every refresh.
  uint64_t activation_start(const Bank& bank, uint64_t at) const;
  // Drops uses that no access can still see (none arrives before `earliest`,
  // earliest_arrival_ps()), once per value of it: uses recorded since are not earlier than it.
  void prune(Bank& bank, uint64_t earliest) const;

  Param<uint32_t> banks_;
  Param<uint64_t> row_bytes_;
  Param<sc_core::sc_time> activate_, precharge_, row_cycle_, refresh_interval_, refresh_latency_;
  Counter hits_, activations_, conflicts_;
  Histogram bank_wait_;
  struct RefreshStats {  // with refresh_interval set only
    Counter refreshes, delayed;
    Histogram wait;
  };
  std::unique_ptr<RefreshStats> refresh_stats_;
  std::vector<Bank> banks_state_;
  uint64_t refreshes_seen_ = 0;  // refreshes up to the latest access (counted)
  mutable uint64_t refresh_window_ = 0, refresh_window_length_ = 0;  // refresh_before's last answer, its interval
  unsigned row_bits_ = 0;
  unsigned bank_bits_ = 0;  // log2 of the bank count when it is a power of two (else 0: divisions)
  bool banks_power_of_two_ = false;
};

}  // namespace avp
