#include "translated_divide.h"

#include <vector>

#include "harts/rv_insn.h"

namespace avp {

bool is_division(unsigned op) { return (op >= rv::DIV && op <= rv::REMU) || (op >= rv::DIVW && op <= rv::REMUW); }
bool is_remainder(unsigned op) { return op == rv::REM || op == rv::REMU || op == rv::REMW || op == rv::REMUW; }

void emit_divide(x86::Asm& a, unsigned op, bool both) {
  using namespace x86;
  const bool w = op >= rv::DIV && op <= rv::REMU;  // 64-bit operands
  const bool is_signed = op == rv::DIV || op == rv::REM || op == rv::DIVW || op == rv::REMW;
  const bool rem = is_remainder(op);
  a.test(RCX, RCX, w);
  const size_t by_zero = a.jcc(E);
  size_t by_minus_one = 0;
  if (is_signed) {
    a.alu_imm(CMP, RCX, -1, w);
    by_minus_one = a.jcc(E);
    a.sign_rax_into_rdx(w);
  } else {
    a.zero(RDX);
  }
  a.div_wide(RCX, is_signed, w);
  if (rem && !both) a.mov(RAX, RDX);
  std::vector<size_t> done{a.jmp()};
  if (is_signed) {
    a.bind(by_minus_one);
    if (both || !rem) a.neg(RAX, w);
    if (both || rem) a.zero(both ? RDX : RAX);
    done.push_back(a.jmp());
  }
  a.bind(by_zero);
  if (both) a.mov(RDX, RAX);  // the remainder: the dividend (alone, it is in rax already)
  if (both || !rem) a.mov_imm(RAX, ~uint64_t{0});
  for (size_t f : done) a.bind(f);
  if (!w) a.movsxd(RAX, RAX);
  if (!w && both) a.movsxd(RDX, RDX);
}

}  // namespace avp
