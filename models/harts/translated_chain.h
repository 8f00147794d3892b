// The code between two translated blocks (block_translator.h, BlockChain):
// the checks of Hart::chain_goes_on (HartHotState::chain_ends and the gate)
// and next_block's links, then entering the next block. Emitted after a
// block retired, with rax holding the next pc, r8 the hart, and the retired
// minstret and time in kRetiredMinstret and kRetiredTime (but in a
// functional run, which counts down BlockChain::count instead).
#pragma once
#include <cstddef>
#include <vector>

#include "harts/block_translator.h"
#include "x86_asm.h"

namespace avp {

// The retire leaves the counters the checks compare in registers: a value
// the retire has just added to in memory, loaded again, waits for that store
// (functional `mixed`: about 1 % of its time).
constexpr x86::Reg kRetiredMinstret = x86::R9, kRetiredTime = x86::R10;

// What retiring a block of `insns` instructions (`r`) adds to, for each
// field: f(field, what, the register that keeps the sum for the chain's
// checks, else rsp). A functional run's chain (`c`, if any, counting down)
// counts the instructions and the events of BlockChain::count_event in its
// count only (chain_count_step), minstret, the time and those events not at
// all. The retire, its undo and a counted loop's passes all walk this list.
template <typename F>
void for_each_retired(const BlockChain* c, const BlockRetire& r, uint64_t insns, F f) {
  const bool counted_down = c && c->count >= 0;
  if (!counted_down) f(r.minstret, insns, kRetiredMinstret);
  if (r.extra) f(r.extra_cycles, r.extra, x86::RSP);
  if (!counted_down) f(r.time_ps, r.ps, kRetiredTime);
  for (unsigned k = 0; k < r.kinds; ++k)
    if (!counted_down || r.ids[k] != c->count_event) f(r.events + 8 * r.ids[k], uint64_t{r.counts[k]}, x86::RSP);
}

// A check's jump to code out of the hot path (emit_end_stub). Quantum: at
// a quantum's end met by the checks (with BlockChain::quantum_end), to the
// code that asks quantum_end, and where the checks go on when it says so.
// Bound: where BlockChain::count has no instruction left, at the quantum's
// end, the instruction stop or neither (bound_reached tells which); the
// checks go on after it. Gate: the gate ended the chain, where `settles`
// (the block calls helpers) it may be for part_settled, and a functional
// run's count (BlockChain::count) takes the block's count step
// (`uncounted`) there, which the checks had not counted yet.
struct EndStub {
  enum Kind : uint8_t { Quantum, Bound, Gate };
  Kind kind;
  size_t jump, resume = 0;
  int32_t uncounted = 0;
  bool settles = false;
};

// After emit_chain_stops passed: the linked block at the next pc in rcx, or
// after an indirect jump the one the slot cache holds for it
// (BlockChain::lookup), which is translated, and its code in r11; returns
// the jumps taken when there is none (the chain ends here).
std::vector<size_t> emit_chain_links(x86::Asm& a, const BlockChain& c);

// The checks of Hart::chain_goes_on but the link's, after a retire
// (`count_step`: what it takes from a functional run's count,
// chain_count_step; `settles`: a helper of the block may have counted part
// of it, HartHotState::part_settled); returns the jumps taken when the
// chain ends here.
// The pc is compared with the kernel's return address only `at_self` (a
// block's branch to its own start): a link or the slot cache never lead
// there (BlockCache::set_return_pc).
std::vector<size_t> emit_chain_stops(x86::Asm& a, const BlockChain& c, std::vector<EndStub>& end_stubs,
                                     bool at_self, int32_t count_step, bool settles);

// The code an EndStub jumps to (rax: the next pc, r8: the hart): calls
// quantum_end or bound_reached, then goes on with the checks, or to
// `retired` (the chain ends; rax: the next pc); for the gate, adds a jump
// to `settled` taken where part_settled closed it (the block is not to
// retire), else counts and goes to `retired`.
void emit_end_stub(x86::Asm& a, const BlockChain& c, const EndStub& q, size_t retired, std::vector<size_t>& settled);

// A cache hit of the time in `time`, done by the code: the hart's (at
// `hart`) hit count plus one, its time and a stall time plus `time`. Also
// for the loads' and stores' fast paths (inline_accesses.cpp).
void emit_cache_hit(x86::Asm& a, x86::Reg hart, int32_t hits, int32_t time_ps, int32_t stall_ps, x86::Reg time);

// A counted loop: a block that branches to its own start and whose every
// pass adds the same to the hart's counters and times (no helper call; in
// a timed run its accesses' fast paths add a D-cache hit's time as they
// go, and each pass after the first hits its one or two I-cache lines
// again) need not retire and check each pass. Where the tail's checks
// pass, it is granted a number of
// passes that all pass them too (the quantum's end, the instruction limit:
// what else they test changes only by a helper or the kernel); those loop
// back with only a count, and the counted passes are retired in one step
// (emit_counted_passes) before anything looks at the hart: the tail, a
// helper call, the next full check. A loop is granted passes from its
// second full check on (the first primes it): most loops that leave after
// a pass or two (a quicksort's scans) then cost no grant. The counts live
// in the block's frame (every block's, zero outside a counted loop) and,
// for the passes left, in a host register the block keeps no guest
// register in (a count in memory would make each pass wait for the last
// one's store).
constexpr int32_t kLoopGranted = 0;  // from rsp: the passes granted
constexpr int32_t kLoopPrimed = 8;   // the block whose full check came last
constexpr int32_t kFrameSize = 24;   // the above and 8 bytes more: calls stay 16-byte aligned
struct CountedLoop {
  const BlockChain* chain;  // the block's (its self, inline enter and checks' fields)
  const BlockRetire* retire;
  uint64_t insns;  // per pass
  x86::Reg left;   // the passes still granted (callee-saved: kept across helper calls)
  // A timed run's accesses: the sum of their D-cache hit times, which their
  // fast paths add as they hit (a miss calls a helper).
  uint64_t hit_ps = 0;
};

// Retires the passes counted so far, as many retires and self-loop entries
// (the I-cache's hit again, the history ring) would have, into the hart in
// `hart`, and clears the counts. Uses rcx, r9, r10 and r11; rax, rdx, rsi
// and rdi are kept.
void emit_counted_passes(x86::Asm& a, const CountedLoop& loop, x86::Reg hart);

// A branch of the block to its own start (rax: its pc, r8: the hart; the
// block retired, `count_step` as emit_chain_stops'): the block is its own next block without a look at the
// links (it is alive and translated while it runs, and a change of its code
// or fetch regime sets the gate or the DMI generation). Checks as
// emit_chain_stops, then loops to `body` (its code after the registers are
// loaded; they are still in place) when it enters itself in the code, with
// `counted`, granting the passes that will pass the checks;
// else jumps, with rcx = the block and r11 its code, to the jumps added to `to_enter` (where
// the block end writes the registers back and calls `enter`). Returns the
// jumps taken when the chain ends here.
std::vector<size_t> emit_self_loop(x86::Asm& a, const BlockChain& c, size_t body, int32_t count_step, bool settles,
                                   const CountedLoop* counted, std::vector<size_t>& to_enter,
                                   std::vector<EndStub>& end_stubs);

// Enters the block in rcx, its code in r11 (the block's registers are written
// back) and jumps to its code, through a routine every block shares unless fetches are
// untimed; returns the jump taken when entering threw, which leaves with
// kExitEnterFailed and the pc in rax, registers written back already.
size_t emit_enter_next(x86::Asm& a, const BlockChain& c);

// Where another block's direct jump enters this one (DirectJumps::entry;
// rax: its pc, r8: the hart, the other block's registers written back): as
// emit_enter_next enters the block (BlockChain::self), going on at its
// kTranslatedInnerEntry when it enters it in the code. Returns the jump
// taken when entering threw (as emit_enter_next's).
size_t emit_direct_entry(x86::Asm& a, const BlockChain& c);

}  // namespace avp
