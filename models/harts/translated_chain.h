// The code between two translated blocks (block_translator.h, BlockChain):
// the checks of Hart::chain_goes_on and next_block's links, then entering
// the next block. Emitted after a block retired, with rax holding the next
// pc and r8 the hart.
#pragma once
#include <cstddef>
#include <vector>

#include "harts/block_translator.h"
#include "harts/x86_asm.h"

namespace avp {

// The checks; returns the jumps taken when the chain ends here. Falls
// through with rcx = the linked block at the next pc, which is translated.
std::vector<size_t> emit_chain_checks(x86::Asm& a, const BlockChain& c);

// A cache hit of the time in rdx, done by the code: the hart's (at `hart`)
// hit count plus one, its time and a stall time plus rdx. Also for the
// loads' fast path (inline_accesses.cpp).
void emit_cache_hit(x86::Asm& a, x86::Reg hart, int32_t hits, int32_t time_ps, int32_t stall_ps);

// With rcx the linked block at the next pc: when it is the block itself
// (BlockChain::self) and it enters itself in the code (InlineEnter), jumps
// to `body`, its code after the registers are loaded (they are still in
// place); else falls through. The block retired and the checks passed.
void emit_loop_back(x86::Asm& a, const BlockChain& c, size_t body);

// Enters the block in rcx (the block's registers are written back) and jumps
// to its code; returns the jump taken when entering threw, which leaves with
// kExitEnterFailed and the pc in rax, registers written back already.
size_t emit_enter_next(x86::Asm& a, const BlockChain& c);

}  // namespace avp
