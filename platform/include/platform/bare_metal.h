// Bare-metal runs: `accel-vp run --elf FILE [--harts N]`.
#pragma once
#include <cstdint>
#include <string>

namespace avp {
class Platform;
// Loads the ELF, starts harts 0..n-1 at its entry in M-mode (a0 = hart id,
// sp = top of the hart's TCDM slice) and waits until all have exited. Returns
// the exit code of hart 0 (1 when any hart trapped or hit the limit).
// `max_insns`: instructions each hart may retire (0: no limit, the program
// runs until it exits, a signal or platform.time_limit stops the run).
// With a GDB server, the debugger attaches once the program is loaded.
int run_bare_metal(Platform& p, const std::string& elf, unsigned harts, uint64_t max_insns = 0,
                   class GdbServer* gdb = nullptr);
}  // namespace avp
