// The command processor's registers and status, mirrored read-only on the
// device bus at 0x2000_0000 (cmp_packets.h, AVP_CMP_MIRROR_*) for harts and
// debuggers. Misuse (a write, an access other than an aligned 64-bit one or
// 32-bit half, an unused offset) gets an error response: the hart takes an
// access fault.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "cmp/cmp_packets.h"
#include "regs/register_block.h"

namespace avp {

class CommandProcessor;

class CmpRegisterMirror : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CmpRegisterMirror> socket;

  CmpRegisterMirror(sc_core::sc_module_name name, const CommandProcessor& cmp);
  RegisterBlock& registers() { return regs_; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { regs_.access(gp, delay); }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) { return regs_.debug(gp); }

  const CommandProcessor& cmp_;
  RegisterBlock regs_{this, "cmp_mirror", AVP_CMP_MIRROR_DONE_COUNT + 8, RegisterBlock::Misuse::BusError,
                      "access_latency", sc_core::sc_time(1, sc_core::SC_NS)};
  Reg<uint64_t> REG{regs_, "REG", AVP_CMP_MIRROR_REG(0), Access::RO, 0, AVP_CMP_NUM_REGS, 8};
  Reg<uint64_t> STATUS{regs_, "STATUS", AVP_CMP_MIRROR_STATUS, Access::RO};
  Reg<uint64_t> ERR_CODE{regs_, "ERR_CODE", AVP_CMP_MIRROR_ERR_CODE, Access::RO};
  Reg<uint64_t> ERR_OFFSET{regs_, "ERR_OFFSET", AVP_CMP_MIRROR_ERR_OFFSET, Access::RO};
  Reg<uint64_t> ERR_INFO{regs_, "ERR_INFO", AVP_CMP_MIRROR_ERR_INFO, Access::RO};
  Reg<uint64_t> ERR_PC{regs_, "ERR_PC", AVP_CMP_MIRROR_ERR_PC, Access::RO};
  Reg<uint64_t> ERR_CAUSE{regs_, "ERR_CAUSE", AVP_CMP_MIRROR_ERR_CAUSE, Access::RO};
  Reg<uint64_t> DONE_COUNT{regs_, "DONE_COUNT", AVP_CMP_MIRROR_DONE_COUNT, Access::RO};
};

}  // namespace avp
