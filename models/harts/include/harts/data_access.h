// The data access an instruction is about to make, computed from its decoded
// fields and the registers before it executes. Load/store triggers (Sdtrig)
// and the debugger's watchpoints match on it, so the load/store paths carry
// no debug code at all.
#pragma once
#include <cstdint>

#include "harts/hart_state.h"
#include "harts/rv_insn.h"

namespace avp {

struct DataAccess {
  uint64_t addr = 0;
  unsigned len = 0;
  bool read = false, write = false;
};

// The memory operand of `insn` with the registers in `s`; false when it
// accesses no data memory (host calls and xintf devices are not watched).
bool data_access(const rv::Insn& insn, const rv::HartState& s, DataAccess& a);

}  // namespace avp
