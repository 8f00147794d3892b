// The interface a debugger attaches to a hart with (Hart::set_debug_hook).
#pragma once
#include <cstdint>

#include "harts/rv_insn.h"

namespace avp {

class Hart;

// A debugger's view of execution: called before every instruction (decoded,
// not yet executed) while set; without a hook or tracer a block runs in a
// loop with no hook branches (Hart::run_insns). It may block the whole
// simulation (the GDB server does, while the debugger holds the target) and
// may change registers, including the pc.
// Data watchpoints are checked here from the instruction's operands, so the
// load/store paths carry no debug code at all.
class HartDebugHook {
 public:
  virtual ~HartDebugHook() = default;
  virtual void before_instruction(Hart& hart, const rv::Insn& insn, uint64_t pc) = 0;
};

}  // namespace avp
