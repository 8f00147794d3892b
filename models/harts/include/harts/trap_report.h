// Actionable error reports for traps that end a run: the hart, the pc with its
// symbol, source file:line (DWARF, when the ELF has it) and disassembly, the
// cause and tval, the last instructions the hart executed (symbolised and
// disassembled) and the register file.
#pragma once
#include <cstdint>
#include <string>

namespace avp {

class Hart;

// Several lines, no trailing newline.
std::string describe_trap(Hart& hart, uint64_t cause, uint64_t tval);
// "  last N instructions (oldest first):" and one line per instruction.
std::string describe_history(const Hart& hart);
// "  registers:" and x1..x31 by ABI name, four to a line (no trailing newline).
std::string describe_registers(const Hart& hart);

// A trap that ended a hart's run, for the manifest (post-mortem without GDB).
struct TrapRecord {
  unsigned hart = 0;
  uint64_t cause = 0, tval = 0, pc = 0;
  std::string symbol;  // "<name+0x4>" or ""
  std::string source;  // "file.c:42" or ""
  std::string insn;    // the trapping instruction, disassembled, or ""
  uint64_t x[32] = {};
  uint64_t priv = 0;
};
TrapRecord record_trap(Hart& hart, uint64_t cause, uint64_t tval);

}  // namespace avp
