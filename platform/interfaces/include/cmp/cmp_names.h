// Names of the command processor's opcodes and error codes, and the detail of
// a kernel error, for messages of the model, the host software and the tools.
// Header-only, next to the layout it names (cmp_packets.h).
#pragma once
#include <cstdint>
#include <sstream>
#include <string>

#include "cmp/cmp_packets.h"

namespace avp {

inline const char* cmp_opcode_name(unsigned op) {
  static const char* names[] = {"NOP", "FINISH", "WRITE_REG64", "LOAD_REG64", "STORE_REG64",
                                "STORE_IMM64", "COPY_MEM64", "RUN_KERNEL_SLICE", "RUN_INSTANCES", "SYNC_CACHE"};
  return op < 10 ? names[op] : "UNKNOWN";
}

inline const char* cmp_error_name(unsigned e) {
  static const char* names[] = {"ok", "bad header", "odd COUNT", "wrong payload count", "unknown opcode",
                                "register index >= 40", "buffer truncated inside a packet", "no FINISH",
                                "memory access error", "bad window", "MAX_HARTS too large", "kernel trap",
                                "kernel exit with non-zero code", "kernel instruction limit", "DMA transfer failed",
                                "reserved (15)", "RTL decoder mismatch or timeout (lockstep)",
                                "kernel watchdog timeout", "size above the documented limit"};
  return e < sizeof(names) / sizeof(names[0]) ? names[e] : "unknown error";
}

// "hart H pc 0x... trap cause C" / "... exit code N" / "... instance I" from the
// status registers (ERR_INFO, ERR_PC, ERR_CAUSE: its meaning depends on the code);
// empty when ERR_INFO names no hart.
inline std::string cmp_error_detail(unsigned code, uint32_t info, uint64_t pc, uint64_t cause) {
  if (!(info & (1u << 31))) return "";
  std::ostringstream os;
  os << "hart " << ((info >> 8) & 0xFFFF) << " pc 0x" << std::hex << pc << std::dec;
  switch (code) {
    case AVP_CMP_ERR_KERNEL_TRAP: os << " trap cause " << cause; break;
    case AVP_CMP_ERR_KERNEL_EXIT: os << " exit code " << static_cast<int64_t>(cause); break;
    case AVP_CMP_ERR_KERNEL_TIMEOUT: os << " instance " << cause; break;
    default: break;
  }
  return os.str();
}

}  // namespace avp
