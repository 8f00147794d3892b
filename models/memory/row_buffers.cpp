#include "memory/row_buffers.h"

#include <string>

namespace avp {

namespace {
constexpr uint64_t kClosed = ~0ull;
constexpr uint32_t kMaxBanks = 1024;
}  // namespace

RowBuffers::RowBuffers(const sc_core::sc_object* owner)
    : banks_(owner, "banks", 0, "DRAM banks, each keeping one row open (0: row buffers not modelled)"),
      row_bytes_(owner, "row_bytes", 2048, "bytes of a DRAM row (a power of two); rows interleave over the banks"),
      activate_(owner, "activate_latency", sc_core::sc_time(15, sc_core::SC_NS),
                "latency an access adds when its bank has no row open (tRCD)"),
      precharge_(owner, "precharge_latency", sc_core::sc_time(15, sc_core::SC_NS),
                 "latency an access adds, on top of the activation, when its bank has another row open (tRP)"),
      hits_(owner, "row_hits", "accesses to a row their bank had open", "rows"),
      activations_(owner, "row_activations", "rows opened in a bank that had none open", "rows"),
      conflicts_(owner, "row_conflicts", "rows opened in a bank that had another row open (precharge first)", "rows") {
  const std::string name = owner->name();
  if (banks_.get() > kMaxBanks)
    throw ParamError(name + ".banks: " + std::to_string(banks_.get()) + " is more than " + std::to_string(kMaxBanks));
  const uint64_t row = row_bytes_.get();
  if (row < 64 || (row & (row - 1)))
    throw ParamError(name + ".row_bytes: " + std::to_string(row) + " is not a power of two of at least 64");
  while ((uint64_t{1} << row_bits_) < row) ++row_bits_;
  open_.assign(banks_.get(), kClosed);
}

sc_core::sc_time RowBuffers::access(uint64_t offset, uint64_t bytes) {
  sc_core::sc_time extra = sc_core::SC_ZERO_TIME;
  if (open_.empty() || bytes == 0) return extra;
  const uint64_t first = offset >> row_bits_, last = (offset + bytes - 1) >> row_bits_;
  for (uint64_t global_row = first; global_row <= last; ++global_row) {
    uint64_t& open = open_[global_row % open_.size()];
    const uint64_t row = global_row / open_.size();
    if (open == row) {
      hits_.inc();
      continue;
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
