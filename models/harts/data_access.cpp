#include "harts/data_access.h"

namespace avp {

using namespace rv;

bool data_access(const Insn& d, const HartState& s, DataAccess& a) {
  const uint64_t base = s.x[d.rs1];
  a = DataAccess{};
  a.addr = base + d.imm;
  switch (d.op) {
    case LB: case LBU: a.len = 1; a.read = true; return true;
    case LH: case LHU: a.len = 2; a.read = true; return true;
    case LW: case LWU: case FLW: a.len = 4; a.read = true; return true;
    case LD: case FLD: a.len = 8; a.read = true; return true;
    case SB: a.len = 1; a.write = true; return true;
    case SH: a.len = 2; a.write = true; return true;
    case SW: case FSW: a.len = 4; a.write = true; return true;
    case SD: case FSD: a.len = 8; a.write = true; return true;
    default: break;
  }
  if (d.op < LR_W || d.op > AMOMAXU_D) return false;
  // Atomics address x[rs1] with no offset; LR reads, SC writes, AMOs do both.
  a.addr = base;
  a.len = d.op >= LR_D ? 8 : 4;
  a.read = d.op != SC_W && d.op != SC_D;
  a.write = d.op != LR_W && d.op != LR_D;
  return true;
}

}  // namespace avp
