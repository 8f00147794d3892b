// Entering the next block in translated code (block_translator.h,
// InlineEnter), as Hart::translated_enter does when the block's I-cache
// lines hit its quick checks: at each block's end for the lines fetched last
// (few bytes, as every block carries them), and in one enter stub per code
// arena for the rest of the quick checks (the line before the last, the
// block's way hints), so the C++ entry runs only for misses and rare cases.
#include <cstdint>
#include <vector>

#include "harts/inline_accesses.h"
#include "harts/translated_chain.h"

namespace avp {

namespace {

using namespace x86;

// With rcx the block and r8 the hart: its translation held (translated
// fetches) and its lines located in this DMI generation, else one of the
// jumps added to `no` is taken. Leaves rdx the block's first line.
void emit_fetch_located(Asm& a, const InlineEnter& e, uint8_t key, std::vector<size_t>& no) {
  if (key) {  // translated fetches: the TLB still holds the block's translation
    a.load(RDX, RCX, e.b_tlb_until);
    a.alu_from_mem(CMP, RDX, R8, e.h_tlb_inserts);
    no.push_back(a.jcc(BE));  // tlb_until <= inserts
  }
  a.load(RDX, RCX, e.b_fetch_gen);
  a.alu_from_mem(CMP, RDX, R8, e.h_dmi_gen);
  no.push_back(a.jcc(NE));
  a.load(RDX, RCX, e.b_first_line);
}

// The block in rcx entered after its lines hit (hits counted but the last
// one): the last hit, the fetch time, the pc (rax), the history ring, the
// block counted lazily with none of its instructions settled.
void emit_entered(Asm& a, const InlineEnter& e) {
  a.alu_mem_imm(ADD, R8, e.icache.hits, 1);
  if (!e.hits_take_no_time) {
    a.load(RDX, RCX, e.b_fetch_hit_ps);
    a.alu_to_mem(ADD, R8, e.h_time_ps, RDX);
    a.alu_to_mem(ADD, R8, e.h_stall_ps, RDX);
  }
  a.store(R8, e.h_pc, RAX);
  a.load(RDX, R8, e.h_history_pos);  // ring[pos++ & mask] = block
  a.mov(RSI, RDX);
  a.alu_imm(ADD, RSI, 1);
  a.store(R8, e.h_history_pos, RSI);
  a.alu_from_mem(AND, RDX, R8, e.h_history_mask);
  a.shift_imm(SHL, RDX, 3);
  a.alu_from_mem(ADD, RDX, R8, e.h_history_ring);
  a.store(RDX, 0, RCX);
  a.store(R8, e.h_lazy, RCX);
  a.alu_mem_imm(AND, R8, e.h_settled, 0, false);
}

// Jumps to `fn` (hart, block, pc) with rcx the block, rax the pc, r8 the
// hart; its result is the stub's.
void emit_tail_call(Asm& a, EnterBlock fn) {
  a.mov(RDI, R8);
  a.mov(RSI, RCX);
  a.mov(RDX, RAX);
  a.mov_imm(R11, reinterpret_cast<uint64_t>(fn));
  a.jmp_reg(R11);
}

}  // namespace

void emit_inline_enter(Asm& a, const InlineEnter& e, uint8_t key, int32_t code_in_block, const size_t* body) {
  std::vector<size_t> no;
  emit_fetch_located(a, e, key, no);
  const CacheFields& c = e.icache;
  a.alu_mem_imm(CMP, RCX, e.b_lines, 1, false);
  const size_t two_lines = a.jcc(NE);
  // One line: hit_again only. (Its hit_previous and hit_way here too, with
  // fewer host instructions, made `mixed` 4 % slower in pinned A/B runs: the
  // code at every block's end grew by about 150 bytes. The enter stub does them.)
  a.alu_from_mem(CMP, RDX, R8, c.last_line);
  const size_t again = a.jcc(E);
  no.push_back(a.jmp());
  a.bind(two_lines);
  a.alu_mem_imm(CMP, RCX, e.b_lines, 2, false);
  no.push_back(a.jcc(NE));
  a.mov(RSI, RDX);
  a.alu_imm(ADD, RSI, 1);
  a.alu_from_mem(CMP, RSI, R8, c.last_line);  // hit_again(first, second): nothing but the count changes
  no.push_back(a.jcc(NE));
  emit_previous_holds(a, c, R8, RDX, RSI, no);  // the first line is the one before, still in its way
  a.alu_mem_imm(ADD, R8, c.hits, 1);            // the first line's; the second's below
  a.bind(again);
  emit_entered(a, e);
  if (body) {
    a.bind(a.jmp(), *body);
  } else {
    a.load(RAX, RCX, code_in_block);
    a.alu_imm(ADD, RAX, static_cast<int32_t>(kTranslatedInnerEntry));
    a.jmp_rax();
  }
  for (size_t f : no) a.bind(f);
}

#if defined(__x86_64__)

namespace {

// CacheModel::quick_hit of the line in rdx (not counted): the line fetched
// last, else hit_way with the block's hint at `way_hint` or hit_previous;
// falls through on a hit, else takes one of the jumps added to `no`
// (nothing changed). rdx and rcx are kept.
void emit_quick_hit(Asm& a, const CacheFields& c, int32_t way_hint, std::vector<size_t>& no) {
  a.alu_from_mem(CMP, RDX, R8, c.last_line);
  const size_t again = a.jcc(E);
  a.load32(R10, RCX, way_hint);
  for (size_t f : emit_way_or_previous_hit(a, c, R8, RDX, R10, R9, R11)) no.push_back(f);
  a.bind(again);
}

}  // namespace

const void* translate_enter_stub(const InlineEnter& e, uint8_t key, int32_t code_in_block, EnterBlock enter,
                                 EnterBlock enter_second, CodeArena& arena) {
  Asm a;
  std::vector<size_t> none, first_done;  // to `enter` (nothing done), to `enter_second`
  emit_fetch_located(a, e, key, none);
  const CacheFields& c = e.icache;
  a.alu_mem_imm(CMP, RCX, e.b_lines, 1, false);
  const size_t two_lines = a.jcc(NE);
  emit_quick_hit(a, c, e.b_fetch_way, none);
  const size_t hit = a.jmp();
  a.bind(two_lines);
  a.alu_mem_imm(CMP, RCX, e.b_lines, 2, false);
  none.push_back(a.jcc(NE));
  std::vector<size_t> each;  // not the last two lines fetched: each line by itself
  a.mov(RSI, RDX);
  a.alu_imm(ADD, RSI, 1);
  a.alu_from_mem(CMP, RSI, R8, c.last_line);  // hit_again(first, second)
  each.push_back(a.jcc(NE));
  emit_previous_holds(a, c, R8, RDX, RSI, each);  // the first line is the one before, still in its way
  a.alu_mem_imm(ADD, R8, c.hits, 1);              // the first line's; the second's in emit_entered
  const size_t both_again = a.jmp();
  for (size_t f : each) a.bind(f);
  emit_quick_hit(a, c, e.b_fetch_way, none);
  a.alu_mem_imm(ADD, R8, c.hits, 1);  // the first line's
  a.load(RDX, RCX, e.b_first_line);
  a.alu_imm(ADD, RDX, 1);
  emit_quick_hit(a, c, e.b_fetch_way + 4, first_done);
  a.bind(hit);
  a.bind(both_again);
  emit_entered(a, e);
  a.load(RAX, RCX, code_in_block);
  a.alu_imm(ADD, RAX, static_cast<int32_t>(kTranslatedInnerEntry));
  a.ret();
  for (size_t f : none) a.bind(f);
  emit_tail_call(a, enter);
  for (size_t f : first_done) a.bind(f);
  emit_tail_call(a, enter_second);
  return arena.add(a.bytes().data(), a.bytes().size());
}

#else

const void* translate_enter_stub(const InlineEnter&, uint8_t, int32_t, EnterBlock, EnterBlock, CodeArena&) {
  return nullptr;
}

#endif

}  // namespace avp
