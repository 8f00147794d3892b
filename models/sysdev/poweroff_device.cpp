#include "sysdev/poweroff_device.h"

#include <cstring>

#include "sysdev/sysdev_regs.h"

namespace avp {

PowerOffDevice::PowerOffDevice(sc_core::sc_module_name name)
    : sc_module(name),
      socket("socket"),
      access_latency(this, "access_latency", sc_core::sc_time(2, sc_core::SC_NS), "latency of a power-off register access"),
      log_(this->name()) {
  socket.register_b_transport(this, &PowerOffDevice::b_transport);
}

void PowerOffDevice::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += access_latency.get();
  uint32_t v = 0;
  const unsigned len = gp.get_data_length();
  const bool shape = gp.get_address() == AVP_POWEROFF_REG && (len == 2 || len == 4) && !gp.get_byte_enable_ptr();
  if (shape && gp.is_read()) {  // reads return 0 (as QEMU's sifive_test)
    std::memset(gp.get_data_ptr(), 0, len);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (shape) std::memcpy(&v, gp.get_data_ptr(), len);  // little-endian host: the low bytes
  const uint32_t cmd = v & 0xFFFF;
  if (!shape || (cmd != AVP_POWEROFF_PASS && cmd != AVP_POWEROFF_FAIL && cmd != AVP_POWEROFF_RESET)) {
    AVP_LOG(log_, Warn, "write of 0x" << std::hex << v << " (" << std::dec << len << " bytes) at offset 0x" << std::hex
                                      << gp.get_address() << ": not a power-off command (0x5555, 0x3333, 0x7777 at 0, 16 or 32 bits)");
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  const int code = cmd != AVP_POWEROFF_FAIL ? 0 : (v >> 16) ? static_cast<int>(v >> 16) : 1;
  const char* what = cmd == AVP_POWEROFF_RESET ? "reset" : "power off";
  AVP_LOG(log_, Info, what << ", exit code " << code);
  if (on_poweroff) on_poweroff(code, what, sc_core::sc_time_stamp() + delay);
}

}  // namespace avp
