// Open-page DRAM timing: the memory's banks and the row each keeps open
// (docs/platform.md, "Interconnect"). The memory is split into `banks` banks of
// rows of `row_bytes`, interleaved row by row (bank = row number modulo the
// bank count). An access to its bank's open row adds nothing to the memory's
// read or write latency; to a bank with no open row it adds the activation
// (`activate_latency`, tRCD); to a bank with another row open, the precharge
// as well (`precharge_latency`, tRP). The row it touched stays open. The
// parameters are the memory's (`<memory>.banks` ...), their defaults a DRAM
// standard's (dram_standard.h); 0 banks models none, and the memory's latency
// is fixed.
// With `row_cycle` (tRC) set, a bank is also busy: it opens a row at least
// tRC after its previous activation, so accesses that open rows in one bank
// wait for each other while other banks work in parallel. Activations are
// kept by their simulated times (initiators run ahead of SystemC time), so
// the wait an access sees depends on the others' times, not on the order in
// which they were simulated: an activation takes the earliest start from
// its arrival on that is tRC clear of every other of its bank.
#pragma once
#include <cstdint>
#include <set>
#include <vector>

#include <systemc>

#include "base/params.h"
#include "base/stats.h"
#include "memory/dram_standard.h"

namespace avp {

class RowBuffers {
 public:
  // Parameters and statistics under owner's name, defaulting to the
  // standard's; throws ParamError for bad parameters.
  RowBuffers(const sc_core::sc_object* owner, const DramStandard& standard);
  // The latency an access of `bytes` at `offset` (from the memory's start),
  // arriving `ahead` after SystemC time, adds: one hit, activation or
  // precharge and activation per row it touches, in address order, each
  // after any wait for its bank's row cycle.
  sc_core::sc_time access(uint64_t offset, uint64_t bytes, const sc_core::sc_time& ahead);

 private:
  Param<uint32_t> banks_;
  Param<uint64_t> row_bytes_;
  Param<sc_core::sc_time> activate_, precharge_, row_cycle_;
  Counter hits_, activations_, conflicts_;
  Histogram bank_wait_;
  std::vector<uint64_t> open_;  // per bank: the open row (kClosed: none)
  // Per bank, with row_cycle: the activations' start times (sc_time values).
  std::vector<std::set<uint64_t>> activated_;
  // The start of an activation in `bank` arriving at `at` (sc_time values), recorded.
  uint64_t activation_start(std::set<uint64_t>& bank, uint64_t at);
  unsigned row_bits_ = 0;
};

}  // namespace avp
