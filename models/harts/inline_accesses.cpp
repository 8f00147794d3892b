#include "harts/inline_accesses.h"

#include "harts/translated_chain.h"

namespace avp {

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
  a.alu_from_mem(CMP, RDX, RDI, l.last_line);
  to_helper.push_back(a.jcc(NE));
  a.load(RDX, RDI, l.hit_ps);
  emit_cache_hit(a, RDI, l.hits, l.time_ps, l.stall_ps);
  a.alu_from_mem(ADD, RAX, RDI, l.ptr);
  a.load_extended(RAX, RAX, 0, bytes, op <= rv::LD);
  return to_helper;
}

#endif

}  // namespace avp
