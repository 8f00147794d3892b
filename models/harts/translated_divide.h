// RISC-V's integer division in translated code (block_translator.cpp): x86's
// div and idiv, with RISC-V's results where they fault.
#pragma once
#include "x86_asm.h"

namespace avp {

// Whether `op` (rv::Op) is one of the eight divisions, and whether it is a remainder (REM[U][W]).
bool is_division(unsigned op);
bool is_remainder(unsigned op);

// DIV[U][W] or REM[U][W] (`op`, rv::Op) of rax by rcx into rax (rdx
// clobbered): a zero divisor gives a quotient of all ones and the dividend
// as remainder; a signed divisor of -1 gives the negated dividend (which
// wraps for the most negative one) and a remainder of 0. W: 32-bit
// operands, the result sign-extended. With `both`, the quotient in rax and
// the remainder in rdx whichever `op` is (one x86 division for a DIV and
// REM of the same operands).
void emit_divide(x86::Asm& a, unsigned op, bool both = false);

}  // namespace avp
