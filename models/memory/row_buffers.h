// Open-page DRAM timing: the memory's banks and the row each keeps open
// (docs/platform.md, "Interconnect"). The memory is split into `banks` banks of
// rows of `row_bytes`, interleaved row by row (bank = row number modulo the
// bank count). An access to its bank's open row adds nothing to the memory's
// read or write latency; to a bank with no open row it adds the activation
// (`activate_latency`, tRCD); to a bank with another row open, the precharge
// as well (`precharge_latency`, tRP). The row it touched stays open. The
// parameters are the memory's (`<memory>.banks` ...); 0 banks, the default,
// models none, and the memory's latency is fixed.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "base/params.h"
#include "base/stats.h"

namespace avp {

class RowBuffers {
 public:
  // Parameters and statistics under owner's name; throws ParamError for bad parameters.
  explicit RowBuffers(const sc_core::sc_object* owner);
  // The latency an access of `bytes` at `offset` (from the memory's start)
  // adds: one hit, activation or precharge and activation per row it
  // touches, in address order.
  sc_core::sc_time access(uint64_t offset, uint64_t bytes);

 private:
  Param<uint32_t> banks_;
  Param<uint64_t> row_bytes_;
  Param<sc_core::sc_time> activate_, precharge_;
  Counter hits_, activations_, conflicts_;
  std::vector<uint64_t> open_;  // per bank: the open row (kClosed: none)
  unsigned row_bits_ = 0;
};

}  // namespace avp
