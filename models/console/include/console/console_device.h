// The memory-mapped console (platform/interfaces/include/console/console_regs.h): harts write bytes
// to TXDATA; each hart's bytes collect into a line that is emitted on '\n', on
// a FLUSH write, when it reaches AVP_CONSOLE_LINE_MAX bytes, and at the end of
// the simulation. Lines go to `on_line` with the hart and the simulated time of
// the write that completed them (the platform prints them like ECALL prints).
// Misuse (not a 32-bit aligned access, an unused offset, a read of a
// write-only or a write of a read-only register, an access by a unit that is
// not a hart) gets an error response, so the hart takes an access fault; it is
// logged and counted.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "console/console_regs.h"
#include "regs/register_block.h"

namespace avp {

class ConsoleDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ConsoleDevice> socket;

  using LineSink = std::function<void(unsigned hart, const sc_core::sc_time& when, const std::string& text)>;
  ConsoleDevice(sc_core::sc_module_name name, unsigned harts, LineSink on_line);

  // Bytes a hart has written that are not yet part of an emitted line.
  const std::string& pending(unsigned hart) const { return lines_.at(hart); }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  void emit(unsigned hart, const sc_core::sc_time& when);
  void end_of_simulation() override;

  std::vector<std::string> lines_;
  LineSink on_line_;
  unsigned hart_ = 0;  // the hart of the access being served
  sc_core::sc_time now_;
  Logger log_;
  Counter bytes_, lines_emitted_, errors_;
  // The registers of the hart of the access (hart_): their values live in lines_.
  RegisterBlock regs_{this, "console", AVP_CONSOLE_SIZE, RegisterBlock::Misuse::BusError, "access_latency",
                      sc_core::sc_time(2, sc_core::SC_NS)};
  Reg<uint32_t> TXDATA{regs_, "TXDATA", AVP_CONSOLE_TXDATA, Access::WO};
  Reg<uint32_t> FLUSH{regs_, "FLUSH", AVP_CONSOLE_FLUSH, Access::WO};
  Reg<uint32_t> STATUS{regs_, "STATUS", AVP_CONSOLE_STATUS, Access::RO};

 public:
  RegisterBlock& registers() { return regs_; }
};

}  // namespace avp
