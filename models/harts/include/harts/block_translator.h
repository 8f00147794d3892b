// Translation of a decoded block to x86-64 host code (docs/performance.md,
// "How the ISS is fast"). The code does what the threaded loop
// (hart_chain.cpp) does for the same instructions: integer operations and
// branches inline, with the block's most used guest registers in host
// registers; loads, stores and every other instruction through the hart's
// helpers, which time and check them exactly as the loop does and never
// throw (a trap or error is kept by the hart and reported as Trapped). The
// hart retires, times and chains translated blocks as it does the others.
// "The hart" the code is given and passes to the helpers is the base its
// field offsets are from: a hart's HartHotState (hart_hot_state.h), whose
// layout fixes them at compile time.
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
  kExitRetired = 3,  // a block: as kExitDone, and the code has retired it (BlockRetire)
  kExitEnterFailed = 4,  // entering the next block (BlockChain::enter) threw; value: its pc
};

// Retiring a block that ran to its end, as HartHotState::retire does, done by
// the code itself when no helper has counted part of the block yet (the
// 32-bit `settled` is 0): the counters are 64-bit fields at these offsets
// from the hart pointer.
struct BlockRetire {
  int32_t settled, minstret, extra_cycles, time_ps, events;  // events: the first of the per-event counters
  uint64_t extra, ps;  // the block's own cycles beyond one per instruction (HartState::extra_cycles) and time
  unsigned kinds;                                      // events counted: ids[k] counts[k] times
  const uint8_t* ids;
  const uint8_t* counts;
};

// A block's code, given the hart's registers; the hart its helpers are
// given lies at TranslationHelpers::hart_from_regs from them (an address
// computed, not loaded: the code keeps no copy of it in its frame).
using TranslatedBlock = JitStep (*)(uint64_t* x);

// A cache model's fields that translated code reads and updates as
// CacheQuickState's quick hits do (hit_again, hit_previous, hit_way): offsets
// from the hart of 64-bit fields (the ways are pointers), and a way's layout.
struct CacheFields {
  int32_t last_line, prev_line;  // the lines (address >> line bits) of the last two accesses (~0: none)
  int32_t last_way, prev_way;    // their ways (the previous one may hold another line by now)
  int32_t clock, hits;           // the LRU clock and the hit count
  int32_t ways, way_count;       // the first way and their number
  int32_t way_size, way_tag, way_used, way_dirty;  // way_dirty: a bool
};

// Where a region that does not hold an access looks for one that does
// (HartHotState::region_again): offsets of the region in use, the one before,
// the kept pages' slots (DmiRegion each, PageRegionCache::slot_of), the
// pointer to the count of their TLB hits and the count it points to when
// nothing counts them (translation off: which region is in use then changes
// nothing simulated).
struct RegionAgain {
  int32_t in_use, before, pages, page_hits, not_counted;
};

// A load's fast path in the code itself, as the load helper's: a region the
// hart reads directly, whose D-cache line is the one the D-cache's last
// access found (CacheModel::hit_again), or the one before it while its way
// still holds it (hit_previous), or in the way the hart's hint for the line
// names (hit_way): offsets of 64-bit hart fields (but the 32-bit hints),
// and the D-cache's line size and hit time as values.
struct InlineLoads {
  int32_t base, size, ptr, pa_delta;  // the last region loads used: [base, base + size) at ptr, physical - virtual
  int32_t code_free;                  // its DmiRegion::code_free (a byte; stores: the code map need not be read)
  RegionAgain again;                  // before a helper call: the region before, or a kept page
  // The D-cache's line size (log2) and hit time (ps): values, not offsets,
  // fixed once the caches are configured, before any code is translated.
  uint32_t line_bits;
  uint64_t hit_ps;
  CacheFields dcache;
  int32_t way_hints;                  // the D-cache's way hints, by line modulo hint_count (32-bit each)
  uint32_t hint_count;                // a power of two
  int32_t time_ps, stall_ps;          // the hart's local time and memory stall time
  bool timed = true;                  // false (a functional run): the access only, no D-cache
};

// A store's fast path in the code itself, as the store helper's: a region
// the hart writes directly (`region`'s base .. pa_delta are the store
// region's; the rest as the loads'), no LR reservation held by any hart, no
// decoded code in the store's granule (HartCluster's code map, unless the
// region is code-free), and the
// D-cache line found as a load's is, then marked dirty.
struct InlineStores {
  InlineLoads region;
  const unsigned* reservations;  // nonzero while any hart holds a reservation
  const uint8_t* code_map;       // a byte per granule of physical memory: nonzero where decoded code is
  uint32_t code_map_bytes;       // granules beyond the map hold no code
  unsigned granule_bits;
};

// F and D instructions the code does itself (Hart::exec_fp's results, flags
// and mstatus.FS exactly) in the state they mostly run in: the loads,
// stores, moves and sign injections while mstatus.FS is Dirty (for those
// that only read f: not Off), comparisons of operands that are not NaN,
// classification, and
// the arithmetic, fused multiply-adds and conversions (double, and single
// on NaN-boxed operands; to and from signed and unsigned integers, an
// unsigned 64-bit one below 2^63) while also rounding to nearest even (the instruction's rm, or frm for
// rm 7; a conversion to an integer also toward zero) when the result raises
// no flag that fflags does not hold: with NX accrued, a finite result of at
// least twice the smallest normal (as fp_ops.cpp's in_host_mode reasons: the
// host rounds to nearest, its flags need no look) or an integer in range;
// without it, an exact one (block_translator.cpp, Translator::fp_arith).
// Anything else goes to the `other` helper, as do all of them without
// this. Offsets are from the guest registers x (HartState, whose layout
// fixes them).
struct InlineFp {
  int32_t f, mstatus, fflags, frm;  // f: the registers; mstatus 64-bit, fflags and frm 32-bit
  bool fma = false;                 // the host has FMA3 (else the fused forms go to the helper)
};

// The hart's functions translated code calls (System V ABI).
struct TranslationHelpers {
  // LB, LH, LW, LD, LBU, LHU, LWU: (hart, address, pc, insn) -> value extended to 64 bits.
  JitStep (*load[7])(void*, uint64_t, uint64_t, const rv::Insn*);
  // SB, SH, SW, SD: (hart, address, value, pc, insn).
  JitStep (*store[4])(void*, uint64_t, uint64_t, uint64_t, const rv::Insn*);
  // Any other instruction (exec_other): (hart, pc, insn) -> the next pc.
  JitStep (*other)(void*, uint64_t, const rv::Insn*);
  const InlineLoads* inline_loads = nullptr;    // none: every load calls its helper
  const InlineStores* inline_stores = nullptr;  // none: every store calls its helper
  const InlineFp* inline_fp = nullptr;          // none: every F and D instruction calls `other`
  // The hart the helpers are given: at this offset from the registers the
  // code is given (TranslatedBlock), in the same object.
  int32_t hart_from_regs = 0;
};

// Entering the next block in the code itself when the I-cache hits its
// lines as the `enter` function's quick path does: a block of one line, the
// line fetched last (CacheModel::hit_again), else in the way its hint names
// (hit_way) or the line before the last (hit_previous); a block of two
// lines, the line before the last and the last (hit_again of both), or the
// last and, by itself, a line its hint or the line before names; a block
// of translated fetches (BlockChain::key not 0) also while the TLB holds its
// translation (Hart::fetch_translation_held). Offsets of 64-bit fields of
// the hart (h_) and of a block (b_; but the 32-bit lines and way hint).
struct InlineEnter {
  int32_t h_dmi_gen, h_time_ps, h_stall_ps;  // the DMI generation; the hart's time and fetch stall time
  CacheFields icache;
  // The history ring (InsnHistory, HistoryRing): a block pointer per entry,
  // one per block entered, the last the block running (HartHotState::from_code).
  int32_t h_history_pos, h_history_mask, h_history_ring, h_history_held;
  uint32_t history_length;  // HistoryRing::length, fixed before any code is translated
  int32_t h_lazy;  // without a history, the block entered is stored here (its `settled` stays 0)
  int32_t b_fetch_gen, b_lines, b_first_line, b_fetch_hit_ps;  // where its fetch was located (DecodedBlock)
  int32_t b_fetch_way;                                          // where its first line was last found
  int32_t h_tlb_inserts, b_tlb_until;  // its translation is held while tlb_inserts < tlb_until
  bool hits_take_no_time = false;      // the I-cache's hit time is 0: an entry adds nothing to the times
  bool untimed = false;                // fetches are not timed (a functional run): every entry is done here
  bool records_history = true;         // the history ring is kept (HistoryRing::kept)
  bool history_in_held = true;         // in the ring the hart holds (HistoryRing::in_held): indexed by pos's low byte
};

// Going on to the next block in the code itself, after a block retired
// (what run_insns does between blocks: Hart::chain_goes_on, next_block and
// enter_block): hart fields at these offsets (bool: 1 byte, the rest 64-bit)
// end the chain, and the next block is one of the two this block links to,
// if translated. `enter` (hart, next block, its pc) enters it and returns the
// address to go on at (its code + kTranslatedInnerEntry), or nullptr when it
// threw (the hart keeps the exception).
struct BlockChain {
  // Eight bytes side by side that one compare tests: three bools, stop,
  // block_abort and closed (chaining not allowed; set whenever the hart is
  // observed by a debugger, a tracer or armed triggers, Hart::observed, so
  // the code need not ask about those), any set ends the chain; then the
  // fetch regime, which must equal `key`; then two more bools, set while an
  // interrupt is pending and enabled (mip & mie) and while a helper has
  // counted part of the block (at part_settled, whose block end must not
  // retire it), either of which ends the chain too; then two zero bytes.
  int32_t gate;
  uint8_t key;
  int32_t part_settled;
  // The chain ends at pc == end_pc (odd, so no pc, when nothing ends it
  // there); compared only where a block loops to its own start, as no link
  // leads there (BlockCache::set_return_pc).
  int32_t end_pc;
  int32_t time_ps, quantum_ps;  // ... or once time_ps >= quantum_ps
  int32_t limit, minstret;      // ... or minstret > limit (limit ~0: none)
  // The hart's pc: chained code leaves it to the helpers, which set it (a
  // store per block the hart's C++ never reads), but for quantum_end and
  // bound_reached.
  int32_t pc;
  const uint64_t* link_pc;    // the block's two link slots: link_pc[i] -> link[i], which is set whenever link_pc[i] matches a pc
  const void* const* link;
  int32_t code_in_block;      // offset of a block's TranslatedBlock (nullptr: not translated)
  const uint8_t* (*enter)(void* hart, const void* block, uint64_t pc);
  const InlineEnter* inline_enter;  // none: `enter` is always called
  // The block being translated: with inline_enter, a branch to its start
  // that enters it in the code goes on in its code without writing its
  // registers back and loading them again (emit_self_loop); other blocks'
  // direct jumps enter it (DirectJumps). None: neither.
  const void* self = nullptr;
  // At a quantum's end (hart): nonzero when the hart goes on without leaving
  // its chain (it has done what the run loop does there); 0 ends the chain
  // (none: every quantum's end does).
  uint64_t (*quantum_end)(void* hart) = nullptr;
  // A block ending in an indirect jump, whose next pc its links often miss
  // (a return's), looks the next block up in the hart's slot cache when both
  // links are set and miss: `count` slots of `size` bytes from the address at
  // hart + `slots`, pc's at ((pc >> 1) & (count - 1)), holding the block at
  // `block` when its `pc` and its fetch regime (byte `key`) are the next pc's
  // and `key`'s. slots < 0: no lookup (the chain ends at a missed link).
  struct SlotLookup {
    int32_t slots = -1;
    uint32_t count = 0;
    int32_t size = 0, pc = 0, block = 0, key = 0;
  } lookup;
  // Functional runs (HartHotState::lockstep_period_ps): the code counts the
  // instructions left in the count word here down (kChainLeftShift) instead
  // of adding to minstret and the time and comparing them with limit and
  // quantum_ps (HartHotState::catch_up adds them), and where none are left
  // calls bound_reached (hart), which makes those checks and says whether
  // the chain goes on; -1: none (a timed run). The word's low bits count the
  // block's events of `count_event` too (for the hart's event counters),
  // which the retire then leaves out.
  int32_t count = -1;
  unsigned count_event = ~0u;
  uint64_t (*bound_reached)(void* hart) = nullptr;
};

// A functional chain's count (BlockChain::count, HartHotState::chain_count):
// a signed 64-bit word of the instructions left less one, from bit
// kChainLeftShift up, and below them the events of BlockChain::count_event
// retired since C++ last looked. A block's retire subtracts its
// chain_count_step, one read-modify-write for both counts, and the chain
// has no instructions left where the word is negative. C++ keeps the
// instructions left at most kChainMaxLeft, so the events (at most one per
// instruction) of those and of the last block, which may run past them,
// never reach the bits above.
constexpr unsigned kChainLeftShift = 24;
constexpr int64_t kChainEventMask = (int64_t{1} << kChainLeftShift) - 1;
constexpr int64_t kChainMaxLeft = int64_t{1} << (kChainLeftShift - 1);
inline int64_t chain_count_step(const BlockChain& c, const BlockRetire& r, uint32_t insns) {
  int64_t step = int64_t{insns} << kChainLeftShift;
  for (unsigned k = 0; k < r.kinds; ++k)
    if (r.ids[k] == c.count_event) step -= r.counts[k];
  return step;
}

// Where chained code enters a block: after its prologue, which every block shares.
constexpr size_t kTranslatedInnerEntry = 28;

// A translated block's direct jumps, as QEMU's goto_tb: at a block end whose
// next pc is pc[i], fixed by the code (a branch's two targets, a jump's, the
// next instruction's), once the chain's checks pass and the registers are
// written back, the code takes the jump whose 32-bit displacement is at
// offset at[i] of the code (0: none). It leads to offset `lookup`, the
// links' lookup, until BlockCache::link points it at `entry` of the block
// linked for that pc, where that block enters itself (emit_direct_entry;
// entry 0: no direct jump leads into this block). Offsets in the block's code.
struct DirectJumps {
  uint64_t pc[2] = {~0ull, ~0ull};
  uint32_t at[2] = {0, 0};
  uint32_t lookup = 0, entry = 0;
};

// Whether this host runs translated code (x86-64).
bool block_translation_available();

// Code for the n instructions at `insns` (which must stay where they are
// while the code lives), the first at `pc`; nullptr when the arena is full
// or the host has no translator. Without `retire`, a block that runs to its
// end reports kExitDone; with `chain` as well, it goes on to the next block
// where it can, and reports on the block it ended in; with chain->self too,
// its direct jumps are described in `jumps`, unpatched.
TranslatedBlock translate_block(const rv::Insn* insns, size_t n, uint64_t pc, const TranslationHelpers& helpers,
                                const BlockRetire* retire, const BlockChain* chain, CodeArena& arena,
                                DirectJumps* jumps = nullptr);

}  // namespace avp
