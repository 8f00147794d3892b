// The command processor's host interface in BAR0 (0x1000.., bar0_regs.h):
// command-buffer submission, queue and status registers over a
// CmpHostInterface. The PCIe endpoint maps the block as one of its windows.
#pragma once
#include <systemc>

#include "cmp/cmp_host_interface.h"
#include "pcie/bar0_regs.h"
#include "regs/register_block.h"

namespace avp {

class CmpHostRegisters {
 public:
  static constexpr uint64_t kWindowStart = AVP_CB_ADDR_LO, kWindowEnd = AVP_AQL_REGS;

  CmpHostRegisters(const sc_core::sc_object* owner, CmpHostInterface& cmp);
  RegisterBlock& registers() { return regs_; }

 private:
  using R32 = Reg<uint32_t>;
  CmpHostInterface& cmp_;
  RegisterBlock regs_;
  Reg<uint64_t> CB_ADDR{regs_, "CB_ADDR", AVP_CB_ADDR_LO, Access::RW};  // CB_ADDR_LO/HI
  R32 CB_SIZE{regs_, "CB_SIZE", AVP_CB_SIZE, Access::RW};
  R32 CB_SUBMIT{regs_, "CB_SUBMIT", AVP_CB_SUBMIT, Access::WO};
  R32 CB_FREE{regs_, "CB_FREE", AVP_CB_FREE, Access::RO};
  R32 CB_DONE_COUNT{regs_, "CB_DONE_COUNT", AVP_CB_DONE_COUNT, Access::RO};
  R32 CMP_STATUS{regs_, "CMP_STATUS", AVP_CMP_STATUS, Access::RO};
  R32 CMP_ERR_CODE{regs_, "CMP_ERR_CODE", AVP_CMP_ERR_CODE, Access::RO};
  R32 CMP_ERR_OFFSET{regs_, "CMP_ERR_OFFSET", AVP_CMP_ERR_OFFSET, Access::RO};
  R32 CMP_ERR_INFO{regs_, "CMP_ERR_INFO", AVP_CMP_ERR_INFO, Access::RO};
  R32 CMP_RESET{regs_, "CMP_RESET", AVP_CMP_RESET, Access::WO};
  R32 CMP_ERR_PC_LO{regs_, "CMP_ERR_PC_LO", AVP_CMP_ERR_PC_LO, Access::RO};
  R32 CMP_ERR_PC_HI{regs_, "CMP_ERR_PC_HI", AVP_CMP_ERR_PC_HI, Access::RO};
  R32 CMP_ERR_CAUSE{regs_, "CMP_ERR_CAUSE", AVP_CMP_ERR_CAUSE, Access::RO};
};

}  // namespace avp
