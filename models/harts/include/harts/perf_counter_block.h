// The performance-counter block (harts/perf_regs.h, docs/harts.md
// "Performance counters"): a unit of its own on the device bus, on the
// register framework. The per-hart part (+0x000) shows the accessing hart's
// cycle, instret and mhpmcounter values (any other initiator is refused as
// an unmapped access), the global part (+0x100) the cluster's totals, and
// STATS_CONTROL (+0x1F8) dumps and resets the statistics like gem5's m5 ops.
// Misuse (bad size, unmapped offset, write of a counter) is a bus error: the
// hart takes an access fault.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "regs/register.h"
#include "regs/register_block.h"

namespace avp {

class HartCluster;

class PerfCounterBlock : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PerfCounterBlock> socket;

  // `latency`: the default of the block's access latency (one hart clock).
  PerfCounterBlock(sc_core::sc_module_name name, HartCluster& harts, sc_core::sc_time latency);
  RegisterBlock& registers() { return regs_; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { regs_.access(gp, delay); }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) { return regs_.debug(gp); }
  uint64_t hart_counter(unsigned idx) const;
  uint64_t total(unsigned idx) const;

  HartCluster& harts_;
  RegisterBlock regs_;
  Reg<uint64_t> hart_counters_;  // cycle, (time: 0), instret, mhpmcounter3..31 of the accessing hart
  Reg<uint64_t> totals_;         // instructions, cycles, code flushes, barriers, prints, traps, xintf calls; then 0
  Reg<uint64_t> stats_control_;
};

}  // namespace avp
