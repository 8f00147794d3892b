#include "pcie/ecam_host_bridge.h"

#include <cstring>
#include <sstream>

#include "base/trace.h"
#include "base/unit.h"

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
  Trace::instance().declare(this->name());
}

void PcieEcamBridge::intx(bool level) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  Trace::instance().slice(name(), level ? "INTx asserted" : "INTx deasserted", now, now);
  intx_out.signal(level);
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
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const bool ok = rc_.access(bar, gp.is_write(), offset, gp.get_data_ptr(), gp.get_data_length());
  if (Trace::instance().enabled()) trace_request(bar, gp, offset, start, ok);
  return ok;
}

// Named "BAR0 write CB_SUBMIT", "BAR2 read", "config read 0x4"; args: the
// offset, size, value (up to 8 bytes), initiator, and whether it completed.
void PcieEcamBridge::trace_request(int bar, const tlm::tlm_generic_payload& gp, uint64_t offset,
                                   const sc_core::sc_time& start, bool completed) const {
  std::ostringstream what;
  what << (bar < 0 ? std::string("config") : "BAR" + std::to_string(bar)) << (gp.is_write() ? " write" : " read");
  const std::string reg = bar == 0 && bar0_register_name ? bar0_register_name(offset) : std::string();
  if (!reg.empty()) what << " " << reg;
  if (bar < 0) what << " 0x" << std::hex << offset;
  nlohmann::json args = {{"offset", offset}, {"bytes", gp.get_data_length()}, {"initiator", unit_name(unit_of(gp))}};
  if (gp.get_data_length() <= 8) {
    uint64_t v = 0;
    std::memcpy(&v, gp.get_data_ptr(), gp.get_data_length());
    args["value"] = v;
  }
  if (!completed) args["completed"] = false;
  Trace::instance().slice(name(), what.str(), start, sc_core::sc_time_stamp(), std::move(args));
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
