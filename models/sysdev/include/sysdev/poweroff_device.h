// SiFive-test style power-off device ("sifive,test0" behind "syscon-poweroff"
// and "syscon-reboot" in the device tree; sysdev_regs.h): a 16- or 32-bit
// write (the sizes QEMU's sifive_test takes; OpenSBI writes 16 bits) of PASS,
// FAIL | code << 16 or RESET to offset 0 ends the run through `on_poweroff`
// with the exit code (0 for PASS and RESET; FAIL with code 0, as a 16-bit
// write carries, gives 1 so a failure never reads as success). Other values,
// sizes and offsets get an error response.
#pragma once
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"

namespace avp {

class PowerOffDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PowerOffDevice> socket;
  Param<sc_core::sc_time> access_latency;
  // exit code, "power off" / "reset", simulated time of the write
  std::function<void(int code, const std::string& what, const sc_core::sc_time& when)> on_poweroff;

  explicit PowerOffDevice(sc_core::sc_module_name name);

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  Logger log_;
};

}  // namespace avp
