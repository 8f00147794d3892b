#include "pcie/ecam_host_bridge.h"

#include <cstring>

namespace avp {

PcieEcamBridge::PcieEcamBridge(sc_core::sc_module_name name, PcieRootComplex& rc, const ConfigSpace& config)
    : sc_module(name),
      ecam("ecam"),
      mmio("mmio"),
      rc_(rc),
      config_(config),
      log_(this->name()),
      config_requests_(this, "config_requests", "configuration reads and writes sent to the endpoint", "requests"),
      mmio_requests_(this, "mmio_requests", "memory reads and writes sent to the endpoint's BARs", "requests"),
      master_aborts_(this, "master_aborts",
                     "requests no device completed (read all-ones, writes dropped): absent devices and functions, "
                     "addresses no BAR claims, unsupported requests",
                     "requests") {
  ecam.register_b_transport(this, &PcieEcamBridge::ecam_b_transport);
  mmio.register_b_transport(this, &PcieEcamBridge::mmio_b_transport);
}

void PcieEcamBridge::master_abort(tlm::tlm_generic_payload& gp) {
  master_aborts_.inc();
  if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xFF, gp.get_data_length());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool PcieEcamBridge::forward(int bar, tlm::tlm_generic_payload& gp, uint64_t offset, sc_core::sc_time& delay) {
  // The root complex times the request from SystemC time: the initiator's offset first.
  sc_core::wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  return rc_.access(bar, gp.is_write(), offset, gp.get_data_ptr(), gp.get_data_length());
}

void PcieEcamBridge::ecam_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t off = gp.get_address();
  const unsigned len = gp.get_data_length();
  if ((len != 1 && len != 2 && len != 4) || (off & (len - 1))) {
    AVP_LOG(log_, Warn, "ECAM access of " << len << " bytes at offset 0x" << std::hex << off
                                          << ": configuration requests are 1, 2 or 4 bytes, naturally aligned");
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const uint64_t bus = off >> 20, device = off >> 15 & 31, function = off >> 12 & 7;
  if (bus != 0 || device != 0 || function != 0) return master_abort(gp);
  config_requests_.inc();
  if (!forward(-1, gp, off & 0xFFF, delay)) return master_abort(gp);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PcieEcamBridge::mmio_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t addr = gp.get_address(), len = gp.get_data_length();
  auto claims = [&](uint64_t base, uint64_t size) { return base != 0 && addr - base < size && len <= size - (addr - base); };
  const int bar = claims(config_.bar0(), config_.bar0_size()) ? 0 : claims(config_.bar2(), config_.bar2_size()) ? 2 : -1;
  if (bar < 0) {
    AVP_LOG(log_, Debug, (gp.is_read() ? "read" : "write") << " at 0x" << std::hex << addr << " claimed by no BAR");
    return master_abort(gp);
  }
  mmio_requests_.inc();
  if (!forward(bar, gp, addr - (bar == 0 ? config_.bar0() : config_.bar2()), delay)) return master_abort(gp);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace avp
