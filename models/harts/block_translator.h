// Translation of a decoded block to x86-64 host code (docs/performance.md,
// "Block translation"). The code does what the threaded loop
// (hart_chain.cpp) does for the same instructions: integer operations and
// branches inline, with the block's most used guest registers in host
// registers; loads, stores and every other instruction through the hart's
// helpers, which time and check them exactly as the loop does and never
// throw (a trap or error is kept by the hart and reported as Trapped). The
// hart retires, times and chains translated blocks as it does the others.
#pragma once
#include <cstddef>
#include <cstdint>

#include "harts/code_arena.h"
#include "harts/rv_insn.h"

namespace avp {

// What translated code and the helpers it calls return (in rax:rdx).
struct JitStep {
  uint64_t value;   // a load's value; the next pc
  uint64_t status;  // helpers: a BlockExit; a block: instructions done | BlockExit << 32
};

// How an instruction or a translated block ended.
enum BlockExit : uint32_t {
  kExitDone = 0,     // went on (a block: all of it ran, value is the next pc)
  kExitAborted = 1,  // completed, then the block was aborted or the hart stopped (value: the next pc)
  kExitTrapped = 2,  // threw (the hart keeps the exception); the instruction did not complete
};

using TranslatedBlock = JitStep (*)(uint64_t* x, void* hart);

// The hart's functions translated code calls (System V ABI).
struct TranslationHelpers {
  // LB, LH, LW, LD, LBU, LHU, LWU: (hart, address, pc, insn) -> value extended to 64 bits.
  JitStep (*load[7])(void*, uint64_t, uint64_t, const rv::Insn*);
  // SB, SH, SW, SD: (hart, address, value, pc, insn).
  JitStep (*store[4])(void*, uint64_t, uint64_t, uint64_t, const rv::Insn*);
  // Any other instruction (exec_other): (hart, pc, insn) -> the next pc.
  JitStep (*other)(void*, uint64_t, const rv::Insn*);
};

// Whether this host runs translated code (x86-64).
bool block_translation_available();

// Code for the n instructions at `insns` (which must stay where they are
// while the code lives), the first at `pc`; nullptr when the arena is full
// or the host has no translator.
TranslatedBlock translate_block(const rv::Insn* insns, size_t n, uint64_t pc, const TranslationHelpers& helpers,
                                CodeArena& arena);

}  // namespace avp
