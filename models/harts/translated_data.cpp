#include "harts/translated_data.h"

namespace avp {

namespace {

using namespace x86;

// rcx = the offset of the access in the region; on to `slow` unless all `size` bytes are in it.
void within(Asm& a, const DataFastPath::Region& r, unsigned size, std::vector<size_t>& slow) {
  a.mov(RCX, RSI);
  a.alu_from_mem(SUB, RCX, R8, r.base);
  a.load(RDX, R8, r.size);
  a.alu_imm(SUB, RDX, static_cast<int32_t>(size));
  slow.push_back(a.jcc(B));  // a region smaller than the access (an empty one: size 0)
  a.alu(CMP, RCX, RDX);
  slow.push_back(a.jcc(A));
}

// rdx = the physical address; on to `slow` unless its line is the D-cache's
// most recent one; leaves rax = the hart plus 8 x the recent index.
void same_line(Asm& a, const DataFastPath& p, const DataFastPath::Region& r, std::vector<size_t>& slow) {
  a.mov(RDX, RSI);
  a.alu_from_mem(ADD, RDX, R8, r.pa_delta);
  a.mov(R9, RDX);
  a.shift_imm(SHR, R9, static_cast<uint8_t>(p.line_bits));
  a.load32(RAX, R8, p.last);
  a.shift_imm(SHL, RAX, 3);
  a.alu(ADD, RAX, R8);
  a.alu_from_mem(CMP, R9, RAX, p.recent_block);
  slow.push_back(a.jcc(NE));
}

// The hit's count and time (CacheModel::hit_again, Hart::add_memory_time).
void count_hit(Asm& a, const DataFastPath& p) {
  a.alu_mem_imm(ADD, R8, p.hits, 1);
  if (p.hit_ps == 0) return;
  a.mov_imm(R9, p.hit_ps);
  a.alu_to_mem(ADD, R8, p.time_ps, R9);
  a.alu_to_mem(ADD, R8, p.stall_ps, R9);
}

}  // namespace

std::vector<size_t> emit_fast_load(Asm& a, const DataFastPath& p, unsigned size, bool sign) {
  std::vector<size_t> slow;
  within(a, p.load, size, slow);
  same_line(a, p, p.load, slow);
  count_hit(a, p);
  a.alu_from_mem(ADD, RCX, R8, p.load.ptr);
  a.load_sized(RAX, RCX, 0, size, sign);
  return slow;
}

std::vector<size_t> emit_fast_store(Asm& a, const DataFastPath& p, unsigned size, Reg value) {
  std::vector<size_t> slow;
  within(a, p.store, size, slow);
  same_line(a, p, p.store, slow);
  // Hart::after_store would have work: reservations to break, or decoded code written.
  a.mov_imm(R10, reinterpret_cast<uint64_t>(p.reservations));
  a.alu_mem_imm(CMP, R10, 0, 0, false);
  slow.push_back(a.jcc(NE));
  a.mov(R9, RDX);
  a.shift_imm(SHR, R9, static_cast<uint8_t>(p.granule_bits));
  a.mov(R10, RDX);
  a.alu_imm(ADD, R10, static_cast<int32_t>(size - 1));
  a.shift_imm(SHR, R10, static_cast<uint8_t>(p.granule_bits));
  a.alu(CMP, R9, R10);
  slow.push_back(a.jcc(NE));  // two granules (rare): the helper checks both
  a.mov_imm(R10, p.code_granules);
  a.alu(CMP, R9, R10);
  const size_t beyond = a.jcc(AE);
  a.mov(R10, R9);
  a.shift_imm(SHR, R10, 6);
  a.shift_imm(SHL, R10, 3);
  a.mov_imm(R11, reinterpret_cast<uint64_t>(p.code_map));
  a.alu(ADD, R10, R11);
  a.load(R10, R10, 0);
  a.bt(R10, R9);
  slow.push_back(a.jcc(B));
  a.bind(beyond);
  // The hit: its way becomes dirty.
  a.load(RAX, RAX, p.recent_way);
  a.store_byte_imm(RAX, p.way_dirty, 1);
  count_hit(a, p);
  a.alu_from_mem(ADD, RCX, R8, p.store.ptr);
  a.store_sized(RCX, 0, value, size);
  return slow;
}

}  // namespace avp
