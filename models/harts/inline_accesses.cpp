#include "harts/inline_accesses.h"

#include "harts/translated_chain.h"

namespace avp {

// Portable byte emission, as translated_chain.cpp's, which uses it too.
void emit_previous_holds(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line, x86::Reg way,
                         std::vector<size_t>& no) {
  using namespace x86;
  a.alu_from_mem(CMP, line, hart, c.prev_line);
  no.push_back(a.jcc(NE));
  a.load(way, hart, c.prev_way);
  a.alu_from_mem(CMP, line, way, c.way_tag);
  no.push_back(a.jcc(NE));
}

#if defined(__x86_64__)

std::vector<size_t> emit_inline_load(x86::Asm& a, const InlineLoads& l, unsigned op) {
  using namespace x86;
  std::vector<size_t> to_helper;
  static constexpr unsigned kBytes[] = {1, 2, 4, 8, 1, 2, 4};  // LB LH LW LD LBU LHU LWU
  const unsigned bytes = kBytes[op - rv::LB];
  a.mov(RAX, RSI);
  a.alu_from_mem(SUB, RAX, RDI, l.base);  // the offset in the region
  a.alu_from_mem(CMP, RAX, RDI, l.size);
  to_helper.push_back(a.jcc(AE));
  if (bytes > 1) {  // all of it within the region
    a.load(RDX, RDI, l.size);
    a.alu(SUB, RDX, RAX);
    a.alu_imm(CMP, RDX, static_cast<int32_t>(bytes));
    to_helper.push_back(a.jcc(B));
  }
  a.mov(RDX, RSI);
  a.alu_from_mem(ADD, RDX, RDI, l.pa_delta);
  a.load32(RCX, RDI, l.line_bits);
  a.shift_cl(SHR, RDX);  // the physical line
  a.alu_from_mem(CMP, RDX, RDI, l.dcache.last_line);  // hit_again
  const size_t again = a.jcc(E);
  a.mov(R10, RDX);  // the line's way hint: way_hints[line % hint_count]
  a.alu_imm(AND, R10, static_cast<int32_t>(l.hint_count - 1));
  a.shift_imm(SHL, R10, 2);
  a.alu(ADD, R10, RDI);
  a.load32(R10, R10, l.way_hints);
  for (size_t f : emit_previous_or_way_hit(a, l.dcache, RDI, RDX, R10, R8, R9)) to_helper.push_back(f);
  a.bind(again);
  a.load(RDX, RDI, l.hit_ps);
  emit_cache_hit(a, RDI, l.dcache.hits, l.time_ps, l.stall_ps);
  a.alu_from_mem(ADD, RAX, RDI, l.ptr);
  a.load_extended(RAX, RAX, 0, bytes, op <= rv::LD);
  return to_helper;
}

std::vector<size_t> emit_previous_or_way_hit(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line,
                                             x86::Reg hint, x86::Reg way, x86::Reg tmp) {
  using namespace x86;
  std::vector<size_t> neither, not_previous;
  emit_previous_holds(a, c, hart, line, way, not_previous);  // hit_previous: the two swap
  a.load(tmp, hart, c.last_line);
  a.store(hart, c.prev_line, tmp);
  const size_t swap_ways = a.jmp();
  for (size_t f : not_previous) a.bind(f);
  a.alu_from_mem(CMP, hint, hart, c.way_count);  // hit_way: the hinted way holds the line
  neither.push_back(a.jcc(AE));
  a.mov_imm(way, static_cast<uint64_t>(c.way_size));
  a.imul(way, hint);
  a.alu_from_mem(ADD, way, hart, c.ways);
  a.alu_from_mem(CMP, line, way, c.way_tag);
  neither.push_back(a.jcc(NE));
  a.alu_from_mem(CMP, way, hart, c.last_way);  // remembered: another way makes the last one the previous
  const size_t same_way = a.jcc(E);
  a.load(tmp, hart, c.last_line);
  a.store(hart, c.prev_line, tmp);
  a.bind(swap_ways);
  a.load(tmp, hart, c.last_way);
  a.store(hart, c.prev_way, tmp);
  a.bind(same_way);
  a.store(hart, c.last_line, line);
  a.store(hart, c.last_way, way);
  a.load(tmp, hart, c.clock);  // the way's use: ++clock
  a.alu_imm(ADD, tmp, 1);
  a.store(hart, c.clock, tmp);
  a.store(way, c.way_used, tmp);
  return neither;
}

#endif

}  // namespace avp
