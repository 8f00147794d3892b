// The host side of PCIe as an operating system sees it on the host bus: an
// ECAM configuration window for bus 0, where the endpoint is device 0
// function 0 (every other device and function reads all-ones), and memory
// windows in which the endpoint claims the addresses its BAR0 and BAR2 hold.
// Every access that reaches the endpoint is a request of the root complex,
// timed by its link (PcieRootComplex::access); the initiator's local time is
// synced first. Master aborts (no device, a BAR address nobody claims, an
// endpoint answering Unsupported Request) read all-ones and drop writes.
// The timeline has a track of the bridge: the requests it forwards and the
// INTx level changes.
#pragma once
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "base/interrupt_line.h"
#include "base/log.h"
#include "base/stats.h"
#include "pcie/config_space.h"
#include "pcie/root_complex.h"

namespace avp {

class PcieEcamBridge : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PcieEcamBridge> ecam;  // offsets in the ECAM window
  tlm_utils::simple_target_socket<PcieEcamBridge> mmio;  // absolute CPU addresses (= PCI addresses)

  // `config` is the endpoint's configuration space, whose BARs say which
  // addresses it claims.
  PcieEcamBridge(sc_core::sc_module_name name, PcieRootComplex& rc, const ConfigSpace& config);
  // Names BAR0 offsets on the timeline (PcieEndpoint::register_name); unset: offsets only.
  std::function<std::string(uint64_t offset)> bar0_register_name;
  // The endpoint's INTx level on its way to the host's interrupt controller
  // (`intx_out`), recorded on the timeline.
  void intx(bool level);
  LevelLine intx_out;

 private:
  void ecam_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  void mmio_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // A request through the root complex; false when it did not complete.
  bool forward(int bar, tlm::tlm_generic_payload& gp, uint64_t offset, sc_core::sc_time& delay);
  void master_abort(tlm::tlm_generic_payload& gp);
  // A forwarded request on the timeline, from its start to its completion.
  void trace_request(int bar, const tlm::tlm_generic_payload& gp, uint64_t offset, const sc_core::sc_time& start,
                     bool completed) const;

  PcieRootComplex& rc_;
  const ConfigSpace& config_;
  Logger log_;
  Counter config_requests_, mmio_requests_, master_aborts_;
};

}  // namespace avp
