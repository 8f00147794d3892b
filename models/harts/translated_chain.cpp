#include "translated_chain.h"

#include <type_traits>

#include "inline_accesses.h"
#include "shared_routines.h"

namespace avp {

namespace {

// The routine a block's entry calls for a line that is not the one fetched
// last (shared_routines.h; rcx: the block, r8: the hart, rdx: the line):
// hit_previous, else hit_way with the block's hint, counted and, if `timed`,
// timed as the block's hit, ZF set; else ZF clear and nothing done. Uses
// rsi, r9 and r10.
struct FetchHitLayout {  // what it depends on: offsets only (int32_t: no padding)
  CacheFields icache;
  int32_t fetch_way, fetch_hit_ps, time_ps, stall_ps;
  int32_t timed;  // 0: counted only (the first of a block's two lines; every line when hits take no time)
};
static_assert(std::has_unique_object_representations_v<FetchHitLayout>, "compared byte by byte");

// The routine's work where it is emitted: falls through on a hit (counted
// and, if `timed`, timed), else takes one of the jumps returned.
std::vector<size_t> emit_fetch_way_or_previous(x86::Asm& a, const FetchHitLayout& l) {
  using namespace x86;
  const std::vector<size_t> neither =
      emit_way_or_previous_hit(a, l.icache, R8, RDX, RSI, R9, R10, [&] { a.load32(RSI, RCX, l.fetch_way); });
  if (l.timed) {
    a.load(R10, RCX, l.fetch_hit_ps);
    emit_cache_hit(a, R8, l.icache.hits, l.time_ps, l.stall_ps, R10);
  } else {
    a.alu_mem_imm(ADD, R8, l.icache.hits, 1);
  }
  return neither;
}

std::vector<uint8_t> make_fetch_way_or_previous(const void* layout) {
  x86::Asm a;
  const std::vector<size_t> neither = emit_fetch_way_or_previous(a, *static_cast<const FetchHitLayout*>(layout));
  return finish_zf_routine(a, neither);
}

// The block's hit again (hit_again, or the pair's second line): counted,
// and timed as the block's hit unless hits take no time.
void emit_fetch_again(x86::Asm& a, const InlineEnter& e) {
  using namespace x86;
  if (e.hits_take_no_time) {
    a.alu_mem_imm(ADD, R8, e.icache.hits, 1);
  } else {
    a.load(RDX, RCX, e.b_fetch_hit_ps);
    emit_cache_hit(a, R8, e.icache.hits, e.h_time_ps, e.h_stall_ps, RDX);
  }
}

// With rcx the next block and r8 the hart: its lines hit the I-cache as
// InlineEnter says, timed and counted; else one of the jumps added to `no`
// is taken (nothing done). `in_routine`: emitted into a shared routine
// (enter_next), which does the lines' other hits itself rather than call
// the routines a block's own code calls (sort phase of `mixed`: 6.4 M calls).
// `one_line_only`: only a block of one line hits here, its hits other than
// hit_again by the shared routine (a direct entry: blocks of two lines enter
// by enter_next).
void emit_fetch_hit(x86::Asm& a, const InlineEnter& e, std::vector<size_t>& no, bool in_routine,
                    bool one_line_only = false) {
  using namespace x86;
  a.load(RDX, RCX, e.b_fetch_gen);
  a.alu_from_mem(CMP, RDX, R8, e.h_dmi_gen);
  no.push_back(a.jcc(NE));
  a.load(RDX, RCX, e.b_first_line);
  const CacheFields& c = e.icache;
  a.alu_mem_imm(CMP, RCX, e.b_lines, 1, false);
  const size_t two_lines = a.jcc(NE);
  // One line: hit_again here, hit_way or hit_previous by way_or_previous.
  a.alu_from_mem(CMP, RDX, R8, c.last_line);
  const size_t again = a.jcc(E);
  std::vector<size_t> done;
  // A line's way-or-previous hit, the routine called or its work here: falls
  // through on a hit, else takes a jump added to `neither` (none: the line
  // is known to hit, and the code goes on either way).
  const auto way_or_previous = [&](const FetchHitLayout& l, const void* routine, std::vector<size_t>* neither) {
    if (in_routine) {
      const std::vector<size_t> n = emit_fetch_way_or_previous(a, l);
      std::vector<size_t>& to = neither ? *neither : done;
      to.insert(to.end(), n.begin(), n.end());
      return;
    }
    a.mov_imm(R11, reinterpret_cast<uint64_t>(routine));
    a.call_reg(R11);
    if (neither) neither->push_back(a.jcc(NE));
  };
  // Hits that take no time are only counted (the time added would be 0).
  const int32_t timed = e.hits_take_no_time ? 0 : 1;
  const FetchHitLayout layout{c, e.b_fetch_way, e.b_fetch_hit_ps, e.h_time_ps, e.h_stall_ps, timed};
  if (in_routine) {
    way_or_previous(layout, nullptr, &no);
    done.push_back(a.jmp());
  } else {
    if (const void* routine =
            shared_routine("fetch_way_or_previous", make_fetch_way_or_previous, &layout, sizeof layout)) {
      a.mov_imm(R11, reinterpret_cast<uint64_t>(routine));
      a.call_reg(R11);
      done.push_back(a.jcc(E));
    }
    no.push_back(a.jmp());
  }
  if (one_line_only) {  // a block of two lines enters by enter_next
    no.push_back(two_lines);
  } else {
    a.bind(two_lines);
    a.alu_mem_imm(CMP, RCX, e.b_lines, 2, false);
    no.push_back(a.jcc(NE));
    std::vector<size_t> separately;
    a.mov(RSI, RDX);
    a.alu_imm(ADD, RSI, 1);
    a.alu_from_mem(CMP, RSI, R8, c.last_line);  // hit_again(first, second): nothing but the count changes
    separately.push_back(a.jcc(NE));
    emit_previous_holds(a, c, R8, RDX, RSI, separately);  // the first line is the one before, still in its way
    a.alu_mem_imm(ADD, R8, c.hits, 1);  // the first line's; the second's below
    const size_t pair = a.jmp();
    // Each line by itself (HartHotState::fetch_quick_hit after the pair):
    // the second's hit_way (its own hint) or hit_previous in the shared
    // routine, which times the block's hit. When the first is the line fetched
    // last, its hit_again only counts; else the first goes through the routine
    // too (counted only), and only when the second will hit after it, as the
    // code cannot stop between the two: after the first's hit the line
    // fetched before is the last one before it. Else nothing is done here.
    for (size_t f : separately) a.bind(f);
    const FetchHitLayout first{c, e.b_fetch_way, e.b_fetch_hit_ps, e.h_time_ps, e.h_stall_ps, 0};
    const FetchHitLayout second{c, e.b_fetch_way + static_cast<int32_t>(sizeof(uint32_t)),
                                e.b_fetch_hit_ps, e.h_time_ps, e.h_stall_ps, timed};
    const void* first_routine =
        in_routine
            ? nullptr
            : shared_routine("fetch_way_or_previous (first line)", make_fetch_way_or_previous, &first, sizeof first);
    const void* second_routine =
        in_routine
            ? nullptr
            : shared_routine("fetch_way_or_previous (second line)", make_fetch_way_or_previous, &second, sizeof second);
    if (in_routine || (first_routine && second_routine)) {
      a.alu_from_mem(CMP, RDX, R8, c.last_line);
      const size_t first_not_last = a.jcc(NE);
      a.alu_imm(ADD, RDX, 1);
      way_or_previous(second, second_routine, &no);
      a.alu_mem_imm(ADD, R8, c.hits, 1);  // the first's hit_again
      done.push_back(a.jmp());
      a.bind(first_not_last);
      a.mov(RSI, RDX);
      a.alu_imm(ADD, RSI, 1);
      a.load32(R10, RCX, second.fetch_way);
      std::vector<size_t> not_hinted;
      emit_hinted_holds(a, c, R8, RSI, R10, R9, not_hinted);  // the second's hinted way holds it
      const size_t sure = a.jmp();
      for (size_t f : not_hinted) a.bind(f);
      emit_previous_holds(a, c, R8, RSI, R9, no, true);  // or it will be the previous line, still in its way
      a.bind(sure);
      way_or_previous(first, first_routine, &no);
      a.load(RDX, RCX, e.b_first_line);
      a.alu_imm(ADD, RDX, 1);
      way_or_previous(second, second_routine, nullptr);  // hits, as checked above
      done.push_back(a.jmp());
    } else {
      no.push_back(a.jmp());
    }
    a.bind(pair);
  }
  a.bind(again);
  emit_fetch_again(a, e);
  for (size_t f : done) a.bind(f);
}

// With r8 the hart and rcx the block, which entered itself in the code:
// grants the loop passes without the checks when the last of them would
// still pass them (its time before the quantum's end, counting each pass
// as long as one whose accesses all hit, its minstret within the limit);
// else none; the first time in a row it is reached for the block, it only
// primes it (kLoopPrimed). Uses rsi (rax and rdx kept).
void emit_loop_grant(x86::Asm& a, const CountedLoop& loop) {
  using namespace x86;
  const BlockChain& c = *loop.chain;
  const InlineEnter& e = *c.inline_enter;
  const BlockRetire& r = *loop.retire;
  std::vector<size_t> granted;
  a.alu_from_mem(CMP, RCX, RSP, kLoopPrimed);
  const size_t primed = a.jcc(E);
  a.store(RSP, kLoopPrimed, RCX);
  granted.push_back(a.jmp());
  a.bind(primed);
  const auto grant = [&] {  // loop.left's passes
    a.store(RSP, kLoopGranted, loop.left);
    granted.push_back(a.jmp());
  };
  const bool counted_down = c.count >= 0;  // a functional run: its count of instructions left bounds it
  const uint64_t count_per_pass = loop.insns << kChainLeftShift;
  // rsi = a pass's time
  const auto pass_ps = [&] {
    a.mov_imm(RSI, r.ps + loop.hit_ps);
    if (!e.untimed && !e.hits_take_no_time) a.alu_from_mem(ADD, RSI, RCX, e.b_fetch_hit_ps);
  };
  // 64 passes
  std::vector<size_t> fewer;
  if (counted_down) {  // at most the count's instructions left less one
    a.mov_imm(RSI, 64 * count_per_pass);
    a.alu_from_mem(CMP, RSI, R8, c.count);
    fewer.push_back(a.jcc(G));
  } else {
    pass_ps();
    a.shift_imm(SHL, RSI, 6);
    a.alu_from_mem(ADD, RSI, R8, c.time_ps);
    a.alu_from_mem(CMP, RSI, R8, c.quantum_ps);
    fewer.push_back(a.jcc(AE));
    a.mov_imm(RSI, 64 * loop.insns);
    a.alu_from_mem(ADD, RSI, R8, c.minstret);
    a.alu_from_mem(CMP, RSI, R8, c.limit);
    fewer.push_back(a.jcc(A));
  }
  a.mov_imm(loop.left, 64);
  grant();
  for (size_t f : fewer) a.bind(f);
  // Fewer: as many as the bound allows, each quantum's (or count's) last
  // passes granted at once rather than checked one by one. Timed:
  // (quantum_ps - time_ps - 1) / pass, every pass ending before the
  // quantum's end (the checks passed: time_ps is before it), within the
  // instruction limit; functional: count / count_per_pass.
  a.push(RAX);
  a.push(RDX);
  std::vector<size_t> none;
  if (counted_down) {
    a.load(RAX, R8, c.count);
    a.test(RAX, RAX);
    none.push_back(a.jcc(LE));
    a.mov_imm(RSI, count_per_pass);
  } else {
    a.load(RAX, R8, c.quantum_ps);
    a.alu_from_mem(SUB, RAX, R8, c.time_ps);
    none.push_back(a.jcc(BE));
    a.alu_imm(SUB, RAX, 1);
    pass_ps();  // positive: each instruction takes a cycle (harts.clock_period > 0)
  }
  a.zero(RDX);
  a.div_wide(RSI, false, true);
  a.test(RAX, RAX);
  none.push_back(a.jcc(E));
  if (!counted_down) {
    a.mov_imm(RSI, loop.insns);
    a.imul(RSI, RAX);
    a.alu_from_mem(ADD, RSI, R8, c.minstret);
    a.alu_from_mem(CMP, RSI, R8, c.limit);
    none.push_back(a.jcc(A));
  }
  a.mov(loop.left, RAX);
  a.pop(RDX);
  a.pop(RAX);
  grant();
  for (size_t f : none) a.bind(f);
  a.pop(RDX);
  a.pop(RAX);
  for (size_t f : granted) a.bind(f);
}

// With rcx the next block, rax its pc and r8 the hart (the chain's checks
// passed, so block_abort is clear): enters the block and jumps to its code
// when its lines hit as InlineEnter says (to `body`, a position in this
// code, if given: the block's own, looping to itself, or `direct`, entered
// by another block's direct jump; `called`: returns the address of its code
// in rax instead); else falls through (nothing done). `code_in_r11`: r11
// holds the block's code already (emit_chain_links), so the jump need not
// wait for a load. `counted`: the loop's grant, before it goes on at `body`.
void emit_inline_enter(x86::Asm& a, const InlineEnter& e, uint8_t key, int32_t code_in_block, const size_t* body,
                       bool called = false, bool code_in_r11 = false, const CountedLoop* counted = nullptr,
                       bool direct = false, bool one_line_only = false) {
  using namespace x86;
  std::vector<size_t> no;
  if (key) {  // translated fetches: the TLB still holds the block's translation
    a.load(RDX, RCX, e.b_tlb_until);
    a.alu_from_mem(CMP, RDX, R8, e.h_tlb_inserts);
    no.push_back(a.jcc(BE));  // tlb_until <= inserts
  }
  if (!e.untimed) emit_fetch_hit(a, e, no, called, one_line_only);
  // The block running, recorded in the history (HartHotState::from_code)
  // or else stored as such, but not by a loop to its own start (`body`),
  // which it is already. Its `settled` stays 0: the code retired the block
  // that ended only while it was.
  if (e.records_history && e.history_in_held) {  // held[pos++ % 256] = block
    a.load_extended(RDX, R8, e.h_history_pos, 1, false);
    a.alu_mem_imm(ADD, R8, e.h_history_pos, 1);
    a.store_indexed8(R8, RDX, RCX, e.h_history_held);
  } else if (e.records_history) {  // ring[pos++ & mask] = block (the mask is below 2^32)
    a.load(RDX, R8, e.h_history_pos);
    a.alu_mem_imm(ADD, R8, e.h_history_pos, 1);
    a.alu_from_mem(AND, RDX, R8, e.h_history_mask, false);
    a.load(RSI, R8, e.h_history_ring);
    a.store_indexed8(RSI, RDX, RCX);
  } else if (!body || direct) {
    a.store(R8, e.h_lazy, RCX);
  }
  if (body) {
    if (counted) emit_loop_grant(a, *counted);
    a.bind(a.jmp(), *body);
  } else {
    if (code_in_r11) {
      a.lea(RAX, R11, static_cast<int32_t>(kTranslatedInnerEntry));
    } else {
      a.load(RAX, RCX, code_in_block);
      a.alu_imm(ADD, RAX, static_cast<int32_t>(kTranslatedInnerEntry));
    }
    if (called) a.ret();
    else a.jmp_rax();
  }
  for (size_t f : no) a.bind(f);
}

// The routine a block's end calls to go on to the next block (rcx: the
// block, rax: its pc, r8: the hart; the calling block's registers written
// back): enters it, in the code as InlineEnter says or else by `enter`, and
// returns the address the block jumps to (each block end's own jump: the
// host predicts it by where it is), or 0 with the pc in rbx when entering
// threw. Shared by every block: a copy at each block end made the kernel's
// code too large for the host's caches (1-hart Linux boot: 1.6 KB per
// block, 16 MB in all).
struct EnterNextLayout {  // what it depends on (no padding: compared byte by byte)
  const uint8_t* (*enter)(void*, const void*, uint64_t);
  InlineEnter inline_enter;  // if has_inline_enter
  int32_t code_in_block;
  uint8_t key, has_inline_enter, unused[6];
};
static_assert(std::has_unique_object_representations_v<EnterNextLayout>, "compared byte by byte");

// Calls `enter` (hart r8, block rcx, pc rax), the pc kept in rbx (the
// registers are written back); `called`: in code the block called, whose
// stack is 8 bytes off the 16-byte alignment calls need.
void emit_enter_call(x86::Asm& a, const uint8_t* (*enter)(void*, const void*, uint64_t), bool called) {
  using namespace x86;
  a.mov(RBX, RAX);
  a.mov(RDI, R8);
  a.mov(RSI, RCX);
  a.mov(RDX, RAX);
  if (called) a.alu_imm(SUB, RSP, 8);
  a.call(reinterpret_cast<const void*>(enter));
  if (called) a.alu_imm(ADD, RSP, 8);
}

std::vector<uint8_t> make_enter_next(const void* layout) {
  const auto& l = *static_cast<const EnterNextLayout*>(layout);
  x86::Asm a;
  if (l.has_inline_enter) emit_inline_enter(a, l.inline_enter, l.key, l.code_in_block, nullptr, true);
  emit_enter_call(a, l.enter, true);
  a.ret();
  return a.bytes();
}

const void* enter_next_routine(const BlockChain& c) {
  EnterNextLayout layout{};
  layout.enter = c.enter;
  if (c.inline_enter) {
    layout.inline_enter = *c.inline_enter;
    layout.has_inline_enter = 1;
  }
  layout.code_in_block = c.code_in_block;
  layout.key = c.key;
  return shared_routine("enter_next", make_enter_next, &layout, sizeof layout);
}

// With rax the next pc and r8 the hart: rcx = the block the slot cache
// holds for it (BlockChain::lookup), and the jump returned is taken; else
// one of the jumps added to `end`. Uses rdx.
size_t emit_slot_lookup(x86::Asm& a, const BlockChain& c, std::vector<size_t>& end) {
  using namespace x86;
  const BlockChain::SlotLookup& l = c.lookup;
  a.mov(RCX, RAX);
  a.shift_imm(SHR, RCX, 1);
  a.alu_imm(AND, RCX, static_cast<int32_t>(l.count - 1), false);
  a.mov_imm(RDX, static_cast<uint64_t>(l.size));
  a.imul(RCX, RDX);
  a.alu_from_mem(ADD, RCX, R8, l.slots);
  a.alu_from_mem(CMP, RAX, RCX, l.pc);
  end.push_back(a.jcc(NE));
  a.load_extended(RDX, RCX, l.key, 1, false);
  a.alu_imm(CMP, RDX, c.key);
  end.push_back(a.jcc(NE));
  a.load(RCX, RCX, l.block);
  a.test(RCX, RCX);
  end.push_back(a.jcc(E));
  return a.jmp();
}

}  // namespace

void emit_counted_passes(x86::Asm& a, const CountedLoop& loop, x86::Reg hart) {
  using namespace x86;
  const BlockChain& c = *loop.chain;
  const InlineEnter& e = *c.inline_enter;
  const BlockRetire& r = *loop.retire;
  std::vector<size_t> none;
  a.alu_mem_imm(CMP, RSP, kLoopGranted, 0);
  none.push_back(a.jcc(E));
  a.load(RCX, RSP, kLoopGranted);
  a.alu(SUB, RCX, loop.left);
  a.zero(loop.left);
  a.alu_mem_imm(AND, RSP, kLoopGranted, 0);
  a.test(RCX, RCX);
  none.push_back(a.jcc(E));  // the grant's passes are unused
  // field += rcx * per_pass (-= with SUB)
  const auto add_passes = [&](int32_t field, uint64_t per_pass, Alu op = ADD) {
    if (per_pass == 0) return;
    if (per_pass == 1) return a.alu_to_mem(op, hart, field, RCX);
    a.mov_imm(R9, per_pass);
    a.imul(R9, RCX);
    a.alu_to_mem(op, hart, field, R9);
  };
  // As many retires (a functional run counts minstret, the time and the branches in its count)
  if (c.count >= 0)
    add_passes(c.count, static_cast<uint64_t>(chain_count_step(c, r, static_cast<uint32_t>(loop.insns))), SUB);
  for_each_retired(&c, r, loop.insns, [&](int32_t field, uint64_t v, Reg) { add_passes(field, v); });
  if (!e.untimed) {  // each entry's hit again of its one line or two (emit_fetch_hit), timed as one hit
    a.mov_imm(R11, reinterpret_cast<uint64_t>(c.self));
    a.load32(R10, R11, e.b_lines);
    a.imul(R10, RCX);
    a.alu_to_mem(ADD, hart, e.icache.hits, R10);
    if (!e.hits_take_no_time) {
      a.load(R10, R11, e.b_fetch_hit_ps);
      a.imul(R10, RCX);
      a.alu_to_mem(ADD, hart, e.h_time_ps, R10);
      a.alu_to_mem(ADD, hart, e.h_stall_ps, R10);
    }
  }
  // ring[pos++ & mask] = block, rcx times, of which only the last that hold
  // the history's length are seen (one more than its share of full passes:
  // the newest may be a pass a helper call interrupts).
  if (e.records_history) {
    a.push(RAX);
    a.load(R9, hart, e.h_history_pos);
    a.alu_to_mem(ADD, hart, e.h_history_pos, RCX);
    a.mov_imm(R10, (e.history_length + loop.insns - 1) / loop.insns + 1);
    a.alu(CMP, R10, RCX);
    const size_t more_passes = a.jcc(BE);
    a.mov(R10, RCX);
    a.bind(more_passes);
    a.alu(ADD, R9, RCX);  // from the first of the last r10 entries
    a.alu(SUB, R9, R10);
    a.load(R11, hart, e.h_history_ring);
    a.mov_imm(RAX, reinterpret_cast<uint64_t>(c.self));
    const size_t entry = a.size();
    a.mov(RCX, R9);
    a.alu_from_mem(AND, RCX, hart, e.h_history_mask);
    a.store_indexed8(R11, RCX, RAX);
    a.alu_imm(ADD, R9, 1);
    a.alu_imm(SUB, R10, 1);
    a.bind(a.jcc(NE), entry);
    a.pop(RAX);
  }
  for (size_t f : none) a.bind(f);
}

void emit_cache_hit(x86::Asm& a, x86::Reg hart, int32_t hits, int32_t time_ps, int32_t stall_ps, x86::Reg time) {
  using namespace x86;
  a.alu_mem_imm(ADD, hart, hits, 1);
  a.alu_to_mem(ADD, hart, time_ps, time);
  a.alu_to_mem(ADD, hart, stall_ps, time);
}

namespace {

// The time in kRetiredTime against the quantum's end (an EndStub with
// c.quantum_end, else a jump added to `end`), then minstret in
// kRetiredMinstret against the stop (a jump added to `end`).
void emit_quantum_and_limit(x86::Asm& a, const BlockChain& c, std::vector<EndStub>& end_stubs,
                            std::vector<size_t>& end) {
  using namespace x86;
  a.alu_from_mem(CMP, kRetiredTime, R8, c.quantum_ps);
  if (c.quantum_end) {
    const size_t jump = a.jcc(AE);
    end_stubs.push_back({EndStub::Quantum, jump, a.size()});
  } else {
    end.push_back(a.jcc(AE));
  }
  a.alu_from_mem(CMP, kRetiredMinstret, R8, c.limit);
  end.push_back(a.jcc(A));
}

// Calls quantum_end, or `bound` bound_reached (rax: the next pc, r8: the
// hart); goes on at `resume` when it says so, else to `retired`.
void emit_end_call(x86::Asm& a, const BlockChain& c, bool bound, size_t resume, size_t retired) {
  using namespace x86;
  a.store(R8, c.pc, RAX);
  a.push(RAX);  // the pc, and the hart: the stack stays 16-byte aligned at the call
  a.push(R8);
  a.mov(RDI, R8);
  a.call(reinterpret_cast<const void*>(bound ? c.bound_reached : c.quantum_end));
  a.pop(R8);
  a.pop(RCX);
  a.test(RAX, RAX);
  a.mov(RAX, RCX);
  a.bind(a.jcc(E), retired);
  if (!bound) a.load(kRetiredMinstret, R8, c.minstret);  // the limit's check after the quantum's goes on with it
  a.bind(a.jmp(), resume);
}

}  // namespace

std::vector<size_t> emit_chain_stops(x86::Asm& a, const BlockChain& c, std::vector<EndStub>& end_stubs,
                                     bool at_self, int32_t count_step, bool settles) {
  using namespace x86;
  std::vector<size_t> end;
  const bool counted_down = c.count >= 0;
  a.alu_mem_imm(CMP, R8, c.gate, static_cast<int32_t>(uint32_t{c.key} << 24));  // little-endian: the key is byte 3
  if (settles || counted_down)
    end_stubs.push_back({EndStub::Gate, a.jcc(NE), 0, counted_down ? count_step : 0, settles});
  else end.push_back(a.jcc(NE));
  if (counted_down) {
    a.alu_mem_imm(SUB, R8, c.count, count_step);
    const size_t jump = a.jcc(L);  // no instruction left
    end_stubs.push_back({EndStub::Bound, jump, a.size()});
  } else {
    emit_quantum_and_limit(a, c, end_stubs, end);
  }
  if (at_self) {
    a.alu_from_mem(CMP, RAX, R8, c.end_pc);
    end.push_back(a.jcc(E));
  }
  return end;
}

void emit_end_stub(x86::Asm& a, const BlockChain& c, const EndStub& q, size_t retired, std::vector<size_t>& settled) {
  using namespace x86;
  a.bind(q.jump);
  if (q.kind != EndStub::Gate) return emit_end_call(a, c, q.kind == EndStub::Bound, q.resume, retired);
  if (q.settles) {
    a.load_extended(RDX, R8, c.part_settled, 1, false);
    a.test(RDX, RDX, false);
    settled.push_back(a.jcc(NE));
  }
  if (q.uncounted) a.alu_mem_imm(SUB, R8, c.count, q.uncounted);
  a.bind(a.jmp(), retired);
}

std::vector<size_t> emit_chain_links(x86::Asm& a, const BlockChain& c) {
  using namespace x86;
  std::vector<size_t> end;
  // The linked block: rcx = link[i] for the i with link_pc[i] == pc (set
  // whenever link_pc[i] is a pc), both addressed from rdx = &link_pc[i].
  const auto link_from_pc = static_cast<int32_t>(reinterpret_cast<const char*>(c.link) -
                                                 reinterpret_cast<const char*>(c.link_pc));
  a.mov_imm(RDX, reinterpret_cast<uint64_t>(c.link_pc));
  a.alu_from_mem(CMP, RAX, RDX, 0);
  const size_t first = a.jcc(E);
  a.alu_from_mem(CMP, RAX, RDX, 8);
  std::vector<size_t> found;
  if (c.lookup.slots >= 0) {
    const size_t second = a.jcc(E);
    // Only when both links are set: else the run loop links the next block
    // (a return to one place then hits its link; found here, it never would).
    a.alu_mem_imm(CMP, RDX, link_from_pc, 0);
    end.push_back(a.jcc(E));
    a.alu_mem_imm(CMP, RDX, link_from_pc + 8, 0);
    end.push_back(a.jcc(E));
    found.push_back(emit_slot_lookup(a, c, end));
    a.bind(second);
  } else {
    end.push_back(a.jcc(NE));
  }
  a.alu_imm(ADD, RDX, 8);
  a.bind(first);
  a.load(RCX, RDX, link_from_pc);
  for (size_t f : found) a.bind(f);
  a.load(R11, RCX, c.code_in_block);  // kept for emit_enter_next
  a.test(R11, R11);
  end.push_back(a.jcc(E));
  return end;
}

std::vector<size_t> emit_self_loop(x86::Asm& a, const BlockChain& c, size_t body, int32_t count_step, bool settles,
                                   const CountedLoop* counted, std::vector<size_t>& to_enter,
                                   std::vector<EndStub>& end_stubs) {
  using namespace x86;
  std::vector<size_t> end = emit_chain_stops(a, c, end_stubs, true, count_step, settles);
  a.mov_imm(RCX, reinterpret_cast<uint64_t>(c.self));
  emit_inline_enter(a, *c.inline_enter, c.key, c.code_in_block, &body, false, false, counted);
  a.load(R11, RCX, c.code_in_block);  // as emit_chain_links leaves it for emit_enter_next
  to_enter.push_back(a.jmp());
  return end;
}

namespace {

// emit_enter_next, or with `direct` (a position in this code) emit_direct_entry.
size_t emit_enter(x86::Asm& a, const BlockChain& c, const size_t* direct) {
  using namespace x86;
  // Untimed fetches' entry in the code is short: kept at each block end
  // (functional `mixed`: 5 % slower through the routine).
  const bool inline_only = c.inline_enter && c.inline_enter->untimed;
  if (const void* routine = inline_only ? nullptr : enter_next_routine(c)) {
    // At a direct entry (another block's direct jump: a loop's branch back,
    // a branch's fixed target) a block of one line is entered here, one of
    // two lines by the call (timed `mixed` 0.96 of the time; the same at
    // every block's lookup tail, or two lines here too, made the kernel's
    // code longer: Linux boot 1.035x, 1.14x).
    if (c.inline_enter && direct)
      emit_inline_enter(a, *c.inline_enter, c.key, c.code_in_block, direct, false, false, nullptr, true, true);
    a.mov_imm(R11, reinterpret_cast<uint64_t>(routine));
    a.call_reg(R11);
  } else {
    if (c.inline_enter)
      emit_inline_enter(a, *c.inline_enter, c.key, c.code_in_block, direct, false, !direct, nullptr, direct != nullptr);
    emit_enter_call(a, c.enter, false);
  }
  a.test(RAX, RAX);
  const size_t failed = a.jcc(E);
  a.jmp_rax();
  a.bind(failed);
  a.mov(RAX, RBX);
  a.mov_imm(RDX, uint64_t{kExitEnterFailed} << 32);
  return a.jmp();
}

}  // namespace

size_t emit_enter_next(x86::Asm& a, const BlockChain& c) { return emit_enter(a, c, nullptr); }

size_t emit_direct_entry(x86::Asm& a, const BlockChain& c) {
  a.mov_imm(x86::RCX, reinterpret_cast<uint64_t>(c.self));
  const size_t inner = kTranslatedInnerEntry;
  return emit_enter(a, c, &inner);
}

}  // namespace avp
