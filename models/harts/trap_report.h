// Actionable error reports for traps that end a run: the hart, the pc with its
// symbol and disassembly, the cause and tval, and the last instructions the
// hart executed (symbolised and disassembled).
#pragma once
#include <cstdint>
#include <string>

namespace avp {

class Hart;

// Several lines, no trailing newline.
std::string describe_trap(Hart& hart, uint64_t cause, uint64_t tval);
// "  last N instructions (oldest first):" and one line per instruction.
std::string describe_history(const Hart& hart);

}  // namespace avp
