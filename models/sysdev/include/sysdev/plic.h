// PLIC (platform-level interrupt controller, sysdev_regs.h): level-triggered
// sources 1..AVP_PLIC_SOURCES-1 with priorities 0..7 (0 = never), two
// contexts per hart (2h: M-mode external interrupt, 2h+1: S-mode), each with
// an enable bit per source, a priority threshold and a claim/complete
// register. A context's level line (`context[c]`: MEIP of hart c/2 for even c,
// SEIP for odd c) is high
// while an enabled source is pending with a priority above the threshold.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "base/interrupt_line.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"

namespace avp {

class Plic : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Plic> socket;
  Param<sc_core::sc_time> access_latency;
  std::vector<LevelLine> context;  // 2 per hart: M-mode, S-mode external interrupt

  Plic(sc_core::sc_module_name name, unsigned harts);

  // A device's interrupt line (source 1..AVP_PLIC_SOURCES-1).
  void set_source(unsigned source, bool level);
  // An edge-triggered source: one request, latched until claimed (dropped while one is in service).
  void pulse_source(unsigned source);
  unsigned contexts() const { return static_cast<unsigned>(threshold_.size()); }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool read(uint64_t off, uint32_t& v, bool debug);
  bool write(uint64_t off, uint32_t v);
  unsigned best(unsigned ctx) const;  // highest-priority pending enabled source (0: none)
  void update();

  std::vector<uint32_t> priority_, enable_, threshold_;
  uint32_t level_ = 0, pending_ = 0, in_service_ = 0;  // bit per source
  std::vector<bool> line_;
  Logger log_;
  Counter claims_, errors_;
};

}  // namespace avp
