#include "inline_accesses.h"

#include "translated_chain.h"

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

namespace {

// With the address in rsi and the hart in rdi: rax = its offset in the
// region at `l` (base .. ptr), all `bytes` of it within; else one of the
// jumps added to `no` is taken. Uses rcx.
void emit_region_offset(x86::Asm& a, const InlineLoads& l, unsigned bytes, std::vector<size_t>& no) {
  using namespace x86;
  a.mov(RAX, RSI);
  a.alu_from_mem(SUB, RAX, RDI, l.base);
  a.alu_from_mem(CMP, RAX, RDI, l.size);
  no.push_back(a.jcc(AE));
  if (bytes > 1) {
    a.load(RCX, RDI, l.size);
    a.alu(SUB, RCX, RAX);
    a.alu_imm(CMP, RCX, static_cast<int32_t>(bytes));
    no.push_back(a.jcc(B));
  }
}

// With the physical address in `line` and the hart in rdi: the D-cache's
// quick hits as the helpers' (hit_again, hit_way with the hart's hint for
// the line, hit_previous), the hit counted and its time added, a write's
// line marked dirty; falls through on a hit, else takes one of the jumps
// returned (nothing changed). `line` becomes the line; uses rcx, `hint`,
// `way` and `tmp`.
std::vector<size_t> emit_data_hit(x86::Asm& a, const InlineLoads& l, x86::Reg line, x86::Reg hint, x86::Reg way,
                                  x86::Reg tmp, bool write) {
  using namespace x86;
  a.load32(RCX, RDI, l.line_bits);
  a.shift_cl(SHR, line);
  a.alu_from_mem(CMP, line, RDI, l.dcache.last_line);  // hit_again
  const size_t again = a.jcc(E);
  a.mov(hint, line);  // way_hints[line % hint_count]
  a.alu_imm(AND, hint, static_cast<int32_t>(l.hint_count - 1));
  a.shift_imm(SHL, hint, 2);
  a.alu(ADD, hint, RDI);
  a.load32(hint, hint, l.way_hints);
  std::vector<size_t> none = emit_way_or_previous_hit(a, l.dcache, RDI, line, hint, way, tmp);
  a.bind(again);
  if (write) {  // the line's way is the last one now
    a.load(way, RDI, l.dcache.last_way);
    a.store_byte_imm(way, l.dcache.way_dirty, 1);
  }
  a.load(RCX, RDI, l.hit_ps);
  emit_cache_hit(a, RDI, l.dcache.hits, l.time_ps, l.stall_ps, RCX);
  return none;
}

constexpr unsigned kLoadBytes[] = {1, 2, 4, 8, 1, 2, 4};  // LB LH LW LD LBU LHU LWU

}  // namespace

std::vector<size_t> emit_inline_load(x86::Asm& a, const InlineLoads& l, unsigned op) {
  using namespace x86;
  std::vector<size_t> to_helper;
  const unsigned bytes = kLoadBytes[op - rv::LB];
  emit_region_offset(a, l, bytes, to_helper);
  if (l.timed) {
    a.mov(RDX, RSI);
    a.alu_from_mem(ADD, RDX, RDI, l.pa_delta);
    for (size_t f : emit_data_hit(a, l, RDX, R10, R8, R9, false)) to_helper.push_back(f);
  }
  a.alu_from_mem(ADD, RAX, RDI, l.ptr);
  a.load_extended(RAX, RAX, 0, bytes, op <= rv::LD);
  return to_helper;
}

std::vector<size_t> emit_inline_store(x86::Asm& a, const InlineStores& s, unsigned op) {
  using namespace x86;
  std::vector<size_t> to_helper;
  const unsigned bytes = 1u << (op - rv::SB);
  const InlineLoads& l = s.region;
  emit_region_offset(a, l, bytes, to_helper);
  a.mov_imm(R8, reinterpret_cast<uint64_t>(s.reservations));  // no reservation (Hart::stored's first case)
  a.alu_mem_imm(CMP, R8, 0, 0, false);
  to_helper.push_back(a.jcc(NE));
  a.mov(R9, RSI);  // the physical address
  a.alu_from_mem(ADD, R9, RDI, l.pa_delta);
  a.mov(R10, R9);  // its granule, which holds all of it
  a.shift_imm(SHR, R10, static_cast<uint8_t>(s.granule_bits));
  if (bytes > 1) {
    a.mov(R11, R9);
    a.alu_imm(ADD, R11, static_cast<int32_t>(bytes - 1));
    a.shift_imm(SHR, R11, static_cast<uint8_t>(s.granule_bits));
    a.alu(CMP, R11, R10);
    to_helper.push_back(a.jcc(NE));
  }
  a.mov(R11, R10);  // no code in the granule: code_map[g / 64] bit g % 64 clear (or g beyond the map)
  a.shift_imm(SHR, R11, 6);
  a.alu_imm(CMP, R11, static_cast<int32_t>(s.code_map_words));
  const size_t beyond = a.jcc(AE);
  a.shift_imm(SHL, R11, 3);
  a.mov_imm(R8, reinterpret_cast<uint64_t>(s.code_map));
  a.alu(ADD, R11, R8);
  a.load(R11, R11, 0);
  a.bt(R11, R10);
  to_helper.push_back(a.jcc(B));
  a.bind(beyond);
  if (l.timed)
    for (size_t f : emit_data_hit(a, l, R9, R10, R11, R8, true)) to_helper.push_back(f);
  a.alu_from_mem(ADD, RAX, RDI, l.ptr);
  a.store_sized(RAX, 0, RDX, bytes);
  return to_helper;
}

std::vector<size_t> emit_way_or_previous_hit(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line,
                                             x86::Reg hint, x86::Reg way, x86::Reg tmp) {
  using namespace x86;
  std::vector<size_t> neither, not_hinted;
  a.alu_from_mem(CMP, hint, hart, c.way_count);  // hit_way: the hinted way holds the line
  not_hinted.push_back(a.jcc(AE));
  a.mov_imm(way, static_cast<uint64_t>(c.way_size));
  a.imul(way, hint);
  a.alu_from_mem(ADD, way, hart, c.ways);
  a.alu_from_mem(CMP, line, way, c.way_tag);
  not_hinted.push_back(a.jcc(NE));
  const size_t hit = a.size();
  a.alu_from_mem(CMP, way, hart, c.last_way);  // remembered: another way makes the last one the previous
  const size_t same_way = a.jcc(E);
  a.load(tmp, hart, c.last_line);
  a.store(hart, c.prev_line, tmp);
  a.load(tmp, hart, c.last_way);
  a.store(hart, c.prev_way, tmp);
  a.bind(same_way);
  a.store(hart, c.last_line, line);
  a.store(hart, c.last_way, way);
  a.load(tmp, hart, c.clock);  // the way's use: ++clock
  a.alu_imm(ADD, tmp, 1);
  a.store(hart, c.clock, tmp);
  a.store(way, c.way_used, tmp);
  const size_t done = a.jmp();
  for (size_t f : not_hinted) a.bind(f);
  emit_previous_holds(a, c, hart, line, way, neither);  // hit_previous: as a hit in that way (the two swap)
  a.bind(a.jmp(), hit);
  a.bind(done);
  return neither;
}

#endif

}  // namespace avp
