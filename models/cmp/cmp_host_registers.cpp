#include "cmp/cmp_host_registers.h"

namespace avp {

CmpHostRegisters::CmpHostRegisters(const sc_core::sc_object* owner, CmpHostInterface& cmp)
    : cmp_(cmp), regs_(owner, "BAR0 CMP host interface", kWindowEnd, RegisterBlock::Misuse::Ignore, "host_register_latency") {
  CB_SUBMIT.on_write([this](uint32_t) { cmp_.submit(CB_ADDR, CB_SIZE); });
  CB_FREE.on_read([this] { return cmp_.free_slots(); });
  CB_DONE_COUNT.on_read([this] { return static_cast<uint32_t>(cmp_.completed_count()); });
  CMP_STATUS.on_read([this] { return static_cast<uint32_t>(cmp_.status().busy); });
  CMP_ERR_CODE.on_read([this] { return cmp_.status().error_code; });
  CMP_ERR_OFFSET.on_read([this] { return static_cast<uint32_t>(cmp_.status().error_offset); });
  CMP_ERR_INFO.on_read([this] { return cmp_.status().error_info; });
  CMP_RESET.on_write([this](uint32_t v) {
    if (v & 1) cmp_.reset();
  });
  CMP_ERR_PC_LO.on_read([this] { return static_cast<uint32_t>(cmp_.status().error_pc); });
  CMP_ERR_PC_HI.on_read([this] { return static_cast<uint32_t>(cmp_.status().error_pc >> 32); });
  CMP_ERR_CAUSE.on_read([this] { return static_cast<uint32_t>(cmp_.status().error_cause); });
}

}  // namespace avp
