// The core-local TCDM view (0x1000_0000): the same addresses reach a different
// core's slice of the TCDM depending on the core of the accessing hart. Units
// that belong to no core (host, CMP, DMA) get an address error here; they use
// the global view (0x1800_0000 + core x slice).
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"

namespace avp {

class CoreLocalView : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CoreLocalView> targ;
  tlm_utils::simple_initiator_socket<CoreLocalView> init;  // to the TCDM memory

  CoreLocalView(sc_core::sc_module_name name, uint64_t slice_size);

 private:
  bool core_of(const tlm::tlm_generic_payload& gp, uint32_t& core) const;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  uint64_t slice_;
  Logger log_;
};

}  // namespace avp
