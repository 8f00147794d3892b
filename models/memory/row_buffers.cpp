#include "memory/row_buffers.h"

#include <string>

namespace avp {

namespace {
constexpr uint64_t kClosed = ~0ull;
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
      hits_(owner, "row_hits", "accesses to a row their bank had open", "rows"),
      activations_(owner, "row_activations", "rows opened in a bank that had none open", "rows"),
      conflicts_(owner, "row_conflicts", "rows opened in a bank that had another row open (precharge first)", "rows"),
      bank_wait_(owner, "bank_wait", "wait of a row activation for its bank's row cycle (with row_cycle set)", "ns") {
  const std::string name = owner->name();
  if (banks_.get() > kMaxBanks)
    throw ParamError(name + ".banks: " + std::to_string(banks_.get()) + " is more than " + std::to_string(kMaxBanks));
  const uint64_t row = row_bytes_.get();
  if (row < 64 || (row & (row - 1)))
    throw ParamError(name + ".row_bytes: " + std::to_string(row) + " is not a power of two of at least 64");
  while ((uint64_t{1} << row_bits_) < row) ++row_bits_;
  open_.assign(banks_.get(), kClosed);
  if (row_cycle_.get() > sc_core::SC_ZERO_TIME && banks_.get() > 0) activated_.resize(banks_.get());
  // Without banks the standard's row cycle has nothing to apply to; one set to another value is a mistake.
  if (banks_.get() == 0 && row_cycle_.get() > sc_core::SC_ZERO_TIME && row_cycle_.get() != standard.row_cycle)
    throw ParamError(name + ".row_cycle: " + row_cycle_.get().to_string() + " needs banks (" + name +
                     ".banks is 0: no banks modelled)");
}

uint64_t RowBuffers::activation_start(std::set<uint64_t>& bank, uint64_t at) {
  const uint64_t trc = row_cycle_.get().value();
  // No access arrives before SystemC time: activations that far back constrain nothing.
  const uint64_t now = sc_core::sc_time_stamp().value();
  bank.erase(bank.begin(), bank.lower_bound(now > trc ? now - trc : 0));
  uint64_t start = at;
  for (auto it = bank.lower_bound(start > trc ? start - trc + 1 : 0); it != bank.end() && *it < start + trc; ++it)
    start = *it + trc;  // too close to this one: after it (the next ones are later still)
  bank.insert(start);
  return start;
}

sc_core::sc_time RowBuffers::access(uint64_t offset, uint64_t bytes, const sc_core::sc_time& ahead) {
  sc_core::sc_time extra = sc_core::SC_ZERO_TIME;
  if (open_.empty() || bytes == 0) return extra;
  const uint64_t first = offset >> row_bits_, last = (offset + bytes - 1) >> row_bits_;
  for (uint64_t global_row = first; global_row <= last; ++global_row) {
    const uint64_t bank = global_row % open_.size();
    uint64_t& open = open_[bank];
    const uint64_t row = global_row / open_.size();
    if (open == row) {
      hits_.inc();
      continue;
    }
    if (!activated_.empty()) {  // the bank's row cycle: the activation may have to wait
      const uint64_t at = (sc_core::sc_time_stamp() + ahead + extra).value();
      const sc_core::sc_time wait = sc_core::sc_time::from_value(activation_start(activated_[bank], at) - at);
      bank_wait_.sample(wait.to_seconds() * 1e9);
      extra += wait;
    }
    if (open == kClosed) {
      activations_.inc();
    } else {
      conflicts_.inc();
      extra += precharge_.get();
    }
    extra += activate_.get();
    open = row;
  }
  return extra;
}

}  // namespace avp
