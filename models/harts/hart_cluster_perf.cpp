// The hart cluster's performance-counter block (harts/perf_regs.h,
// docs/harts.md "Performance counters"): the accessing hart's counters, the
// cluster's totals and the region-of-interest statistics control.
#include <cstring>

#include "base/payload.h"
#include "base/stats.h"
#include "base/unit.h"
#include "harts/hart_cluster.h"
#include "harts/perf_regs.h"

namespace avp {

using namespace rv;

bool HartCluster::perf_access(tlm::tlm_generic_payload& gp) {
  const uint64_t off = gp.get_address();
  if (!gp.is_read() || gp.get_data_length() != 8 || (off & 7) || off >= 0x200) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  uint64_t v = 0;
  if (off < 0x100) {
    const UnitExtension* ext = gp.get_extension<UnitExtension>();
    if (!ext || unit_kind(ext->unit) != UnitKind::Hart || unit_index(ext->unit) >= harts_.size()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);  // the per-hart block needs a hart
      return false;
    }
    const HartState& s = harts_[unit_index(ext->unit)]->state();
    const unsigned i = static_cast<unsigned>(off / 8);
    v = i == 0 ? s.mcycle : i == 1 ? 0 : i == 2 ? s.minstret : harts_[unit_index(ext->unit)]->hpm_counter(i);
  } else if (off == AVP_PERF_STATS_CONTROL) {
    v = StatRegistry::instance().dumps().size() + StatRegistry::instance().dumps_dropped();
  } else {
    uint64_t instret = 0, cycles = 0;
    for (auto& h : harts_) instret += h->instructions(), cycles += h->cycles();
    const uint64_t global[] = {instret, cycles, code_flushes_.value(), barriers_done_.value(), prints_.value(),
                               traps_.value(), xintf_calls_.value()};
    const unsigned i = static_cast<unsigned>((off - 0x100) / 8);
    v = i < sizeof(global) / sizeof(global[0]) ? global[i] : 0;
  }
  std::memcpy(gp.get_data_ptr(), &v, 8);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void HartCluster::perf_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (gp.is_write() && gp.get_address() == AVP_PERF_STATS_CONTROL && gp.get_data_length() == 8) {
    uint64_t op = 0;
    std::memcpy(&op, gp.get_data_ptr(), 8);
    const UnitExtension* ext = gp.get_extension<UnitExtension>();
    const std::string who = ext ? unit_name(ext->unit) : std::string("an initiator");
    stats_control(who + " perf register", sc_core::sc_time_stamp() + delay, op);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  } else {
    perf_access(gp);
  }
  delay += clock_period.get();
}

unsigned HartCluster::perf_transport_dbg(tlm::tlm_generic_payload& gp) { return perf_access(gp) ? 8 : 0; }

}  // namespace avp
