#include "harts/perf_counter_block.h"

#include "base/stats.h"
#include "base/unit.h"
#include "harts/hart_cluster.h"
#include "harts/perf_regs.h"

namespace avp {

namespace {
constexpr unsigned kHartCounters = (AVP_PERF_INSTRUCTIONS - AVP_PERF_HART_CYCLE) / 8;  // 32
constexpr unsigned kTotals = (AVP_PERF_STATS_CONTROL - AVP_PERF_INSTRUCTIONS) / 8;    // 31
}  // namespace

PerfCounterBlock::PerfCounterBlock(sc_core::sc_module_name name, HartCluster& harts, sc_core::sc_time latency)
    : sc_module(name),
      socket("socket"),
      harts_(harts),
      regs_(this, "perf", AVP_PERF_SIZE, RegisterBlock::Misuse::BusError, "register_latency", latency),
      hart_counters_(regs_, "hart_counters", AVP_PERF_HART_CYCLE, Access::RO, 0, kHartCounters, 8),
      totals_(regs_, "totals", AVP_PERF_INSTRUCTIONS, Access::RO, 0, kTotals, 8),
      stats_control_(regs_, "stats_control", AVP_PERF_STATS_CONTROL, Access::RW) {
  socket.register_b_transport(this, &PerfCounterBlock::b_transport);
  socket.register_transport_dbg(this, &PerfCounterBlock::transport_dbg);
  regs_.set_access_check([this](const tlm::tlm_generic_payload& gp) -> const char* {
    if (gp.get_address() >= AVP_PERF_INSTRUCTIONS) return nullptr;
    const UnitId unit = unit_of(gp);
    const bool hart = unit_kind(unit) == UnitKind::Hart && unit_index(unit) < harts_.num_harts();
    return hart ? nullptr : "the per-hart counters answer harts only";
  });
  hart_counters_.on_read([this](unsigned idx) { return hart_counter(idx); });
  totals_.on_read([this](unsigned idx) { return total(idx); });
  stats_control_.on_read([] { return uint64_t{StatRegistry::instance().dumps().size() + StatRegistry::instance().dumps_dropped()}; });
  stats_control_.on_write([this](uint64_t op) {
    const tlm::tlm_generic_payload* gp = regs_.current_payload();
    const sc_core::sc_time* delay = regs_.current_delay();
    const std::string who = gp ? unit_name(unit_of(*gp)) : std::string("an initiator");
    const bool hart = gp && unit_kind(unit_of(*gp)) == UnitKind::Hart && unit_index(unit_of(*gp)) < harts_.num_harts();
    harts_.stats_control(who + " perf register", sc_core::sc_time_stamp() + (delay ? *delay : sc_core::SC_ZERO_TIME), op,
                         hart ? &harts_.hart(unit_index(unit_of(*gp))) : nullptr);
  });
}

uint64_t PerfCounterBlock::hart_counter(unsigned idx) const {
  Hart& h = harts_.hart(unit_index(unit_of(*regs_.current_payload())));  // the access check let only harts in
  return idx == 1 ? 0 : h.counter(idx);
}

uint64_t PerfCounterBlock::total(unsigned idx) const {
  const HartCluster::Totals t = harts_.totals();
  const uint64_t values[] = {t.instructions, t.cycles, t.code_flushes, t.barriers, t.prints, t.traps, t.xintf_calls};
  return idx < sizeof values / sizeof values[0] ? values[idx] : 0;
}

}  // namespace avp
