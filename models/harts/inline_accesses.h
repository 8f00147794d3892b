// The loads' fast path in translated code (block_translator.h, InlineLoads):
// what the load helper's fast path does, emitted inline, so the common load
// (on the D-cache line accessed last, in the region the hart reads directly)
// needs no call.
#pragma once
#include <cstddef>
#include <vector>

#include "harts/block_translator.h"
#include "harts/x86_asm.h"

namespace avp {

// With the address in rsi and the hart in rdi: the load (rv::LB .. rv::LWU)
// leaves its value in rax; returns the jumps taken to the helper instead
// (which checks again: the checks change nothing when they fail). rsi and
// rdi are kept.
std::vector<size_t> emit_inline_load(x86::Asm& a, const InlineLoads& l, unsigned op);

}  // namespace avp
