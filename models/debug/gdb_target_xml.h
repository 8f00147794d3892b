// The RV64GC target description the GDB server offers (qXfer:features:read).
#pragma once
#include <string>

namespace avp {
std::string gdb_target_xml();
// GDB register numbers of the description: x0..x31 0..31, pc 32, f0..f31
// 33..64, CSR n at 65 + n (fflags 66, frm 67, fcsr 68, mstatus 833, ...),
// the privilege mode after the CSRs (QEMU's `priv`, feature
// org.gnu.gdb.riscv.virtual: 0 U, 1 S, 3 M).
constexpr unsigned kGdbPc = 32, kGdbFirstFpr = 33, kGdbFirstCsr = 65, kGdbPriv = kGdbFirstCsr + 4096;
}  // namespace avp
