#include "memory/row_buffers.h"

#include <algorithm>
#include <string>

#include "base/local_time.h"

namespace avp {

namespace {
constexpr uint32_t kMaxBanks = 1024;
}  // namespace

RowBuffers::RowBuffers(const sc_core::sc_object* owner, const DramStandard& standard)
    : banks_(owner, "banks", standard.banks, "DRAM banks, each keeping one row open (0: row buffers not modelled)"),
      row_bytes_(owner, "row_bytes", standard.row_bytes,
                 "bytes of a DRAM row (a power of two); rows interleave over the banks"),
      activate_(owner, "activate_latency", standard.activate, "latency an access adds when its bank has no row open (tRCD)"),
      precharge_(owner, "precharge_latency", standard.precharge,
                 "latency an access adds, on top of the activation, when its bank has another row open (tRP)"),
      row_cycle_(owner, "row_cycle", standard.row_cycle,
                 "least time between two activations of one bank (tRC); an access that opens a row waits for it "
                 "(0: banks are never busy)"),
      refresh_interval_(owner, "refresh_interval", standard.refresh_interval,
                        "time between refreshes (tREFI): at each multiple of it every bank's row closes (0: no refresh)"),
      refresh_latency_(owner, "refresh_latency", standard.refresh_latency,
                       "duration of a refresh (tRFC): an access arriving during it waits for its end"),
      hits_(owner, "row_hits", "accesses to a row their bank had open", "rows"),
      activations_(owner, "row_activations", "rows opened in a bank that had none open", "rows"),
      conflicts_(owner, "row_conflicts", "rows opened in a bank that had another row open (precharge first)", "rows"),
      bank_wait_(owner, "bank_wait", "wait of a row activation for its bank's row cycle and refreshes", "ns") {
  const std::string name = owner->name();
  if (banks_.get() > kMaxBanks)
    throw ParamError(name + ".banks: " + std::to_string(banks_.get()) + " is more than " + std::to_string(kMaxBanks));
  const uint64_t row = row_bytes_.get();
  if (row < 64 || (row & (row - 1)))
    throw ParamError(name + ".row_bytes: " + std::to_string(row) + " is not a power of two of at least 64");
  while ((uint64_t{1} << row_bits_) < row) ++row_bits_;
  // Without banks the standard's row cycle has nothing to apply to; one set to another value is a mistake.
  if (banks_.get() == 0 && row_cycle_.get() > sc_core::SC_ZERO_TIME && row_cycle_.get() != standard.row_cycle)
    throw ParamError(name + ".row_cycle: " + row_cycle_.get().to_string() + " needs banks (" + name +
                     ".banks is 0: no banks modelled)");
  const sc_core::sc_time trefi = refresh_interval_.get(), trfc = refresh_latency_.get();
  if (trfc > sc_core::SC_ZERO_TIME && trefi == sc_core::SC_ZERO_TIME)
    throw ParamError(name + ".refresh_latency: " + trfc.to_string() + " needs " + name + ".refresh_interval (0: no refresh)");
  if (trefi > sc_core::SC_ZERO_TIME && trfc >= trefi)
    throw ParamError(name + ".refresh_latency: " + trfc.to_string() + " is not less than " + name +
                     ".refresh_interval " + trefi.to_string());
  banks_state_.reserve(banks_.get());
  banks_state_.resize(banks_.get());
  banks_power_of_two_ = banks_.get() > 0 && (banks_.get() & (banks_.get() - 1)) == 0;
  while (banks_power_of_two_ && (1u << bank_bits_) < banks_.get()) ++bank_bits_;
  if (trefi > sc_core::SC_ZERO_TIME)
    refresh_stats_.reset(new RefreshStats{
        {owner, "refreshes", "refreshes up to the latest access", "refreshes"},
        {owner, "refresh_delayed", "accesses that arrived during a refresh and waited for its end", "accesses"},
        {owner, "refresh_wait", "wait of an access that arrived during a refresh", "ns"}});
}

uint64_t RowBuffers::after_refresh(uint64_t at) {
  const uint64_t trefi = refresh_interval_.get().value();
  if (!trefi) return at;
  const uint64_t refresh = refresh_before(at), end = refresh + refresh_latency_.get().value();
  if (refresh > refreshes_seen_ * trefi) {
    refresh_stats_->refreshes.inc(refresh / trefi - refreshes_seen_);
    refreshes_seen_ = refresh / trefi;
  }
  if (refresh == 0 || at >= end) return at;
  refresh_stats_->delayed.inc();
  refresh_stats_->wait.sample(ps_to_ns(end - at));
  return end;
}

void RowBuffers::prune(Bank& bank, uint64_t earliest) const {
  const uint64_t trc = row_cycle_.get().value();
  if (bank.pruned_at == earliest) return;
  bank.pruned_at = earliest;
  // Kept: the uses a row cycle before `earliest` and later (a new activation
  // keeps clear of those that are activations), and the latest at or before it (its row is open).
  Bank::Uses& uses = bank.uses;
  size_t keep = uses.lower_bound(earliest > trc ? earliest - trc : 0);
  if (const size_t open = uses.upper_bound(earliest);
      open != uses.first() && uses[open - 1].time < earliest - std::min(earliest, trc))
    keep = open - 1;
  uses.drop_before(keep);
}

uint64_t RowBuffers::activation_start(const Bank& bank, uint64_t at) const {
  const uint64_t trc = row_cycle_.get().value(), trfc = refresh_latency_.get().value();
  const Bank::Uses& uses = bank.uses;
  uint64_t start = at;
  for (uint64_t tried = ~0ull; tried != start;) {
    tried = start;
    if (const uint64_t refresh = refresh_before(start); refresh && start < refresh + trfc) start = refresh + trfc;
    if (trc == 0) continue;
    for (size_t i = uses.lower_bound(start > trc ? start - trc + 1 : 0); i < uses.end() && uses[i].time < start + trc; ++i)
      if (uses[i].activation) start = uses[i].time + trc;  // too close to this one: after it (the next ones are later still)
  }
  return start;
}

uint64_t RowBuffers::open_row(Bank& bank, uint64_t row, uint64_t at, uint64_t earliest) {
  prune(bank, earliest);
  Bank::Uses& uses = bank.uses;
  const size_t later = uses.upper_bound(at);
  // Open at its time: the bank's latest use at or before it, unless a refresh closed it since.
  if (later != uses.first() && uses[later - 1].row == row && uses[later - 1].time >= refresh_before(at)) {
    hits_.inc();
    uses.insert(later, Use{at, row, at, false});
    return 0;
  }
  // Being opened by an activation that arrived before it: wait for that.
  for (size_t i = later; i < uses.end(); ++i)
    if (const Use& use = uses[i]; use.activation && use.row == row && use.arrival <= at) {
      hits_.inc();
      return use.time - at;
    }
  const uint64_t start = activation_start(bank, at);
  if (row_cycle_.get() > sc_core::SC_ZERO_TIME)
    bank_wait_.sample(ps_to_ns(start - at));
  uint64_t extra = start - at + activate_.get().value();
  const size_t after = uses.upper_bound(start);  // the activation goes before it, after any use at the same time
  if (after == uses.first() || uses[after - 1].time < refresh_before(start)) {
    activations_.inc();
  } else {  // the bank has a row open when it starts
    conflicts_.inc();
    extra += precharge_.get().value();
  }
  uses.insert(after, Use{start, row, at, true});
  return extra;
}

// Flattened: its rows' steps in one frame.
[[gnu::flatten]] uint64_t RowBuffers::access_in_general(uint64_t offset, uint64_t bytes, uint64_t ahead_ps) {
  if (bytes == 0 || (banks_state_.empty() && refresh_interval_.get() == sc_core::SC_ZERO_TIME)) return 0;
  const uint64_t now = systemc_ps(), arrival = now + ahead_ps;
  uint64_t at = after_refresh(arrival);
  if (!banks_state_.empty()) {
    const uint64_t earliest = earliest_arrival_ps();
    const uint64_t first = offset >> row_bits_, last = (offset + bytes - 1) >> row_bits_;
    for (uint64_t global_row = first; global_row <= last; ++global_row) {
      const uint64_t bank = banks_power_of_two_ ? global_row & ((uint64_t{1} << bank_bits_) - 1)
                                                : global_row % banks_state_.size();
      const uint64_t row = banks_power_of_two_ ? global_row >> bank_bits_ : global_row / banks_state_.size();
      at += open_row(banks_state_[bank], row, at, earliest);
    }
  }
  return at - arrival;
}

}  // namespace avp
