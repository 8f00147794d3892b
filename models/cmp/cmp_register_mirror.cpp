#include "cmp/cmp_register_mirror.h"

#include "cmp/command_processor.h"

namespace avp {

CmpRegisterMirror::CmpRegisterMirror(sc_core::sc_module_name name, const CommandProcessor& cmp)
    : sc_module(name), socket("socket"), cmp_(cmp) {
  socket.register_b_transport(this, &CmpRegisterMirror::b_transport);
  socket.register_transport_dbg(this, &CmpRegisterMirror::transport_dbg);
  REG.on_read([this](unsigned i) { return cmp_.reg(i); });
  STATUS.on_read([this] { return uint64_t{cmp_.status().busy}; });
  ERR_CODE.on_read([this] { return uint64_t{cmp_.status().error_code}; });
  ERR_OFFSET.on_read([this] { return cmp_.status().error_offset; });
  ERR_INFO.on_read([this] { return uint64_t{cmp_.status().error_info}; });
  ERR_PC.on_read([this] { return cmp_.status().error_pc; });
  ERR_CAUSE.on_read([this] { return cmp_.status().error_cause; });
  DONE_COUNT.on_read([this] { return cmp_.completed_count(); });
}

}  // namespace avp
