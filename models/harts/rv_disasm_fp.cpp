// F and D instructions for the disassembler (objdump style: the rounding mode
// is shown unless it is dynamic, never for conversions that are always exact).
#include <string>

#include "harts/rv_disasm.h"

namespace avp::rv {
namespace {

std::string rm_suffix(const Insn& d) {
  static const char* const names[] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", ""};
  return d.rm == 7 ? std::string() : std::string(",") + names[d.rm & 7];
}

std::string join(const std::string& mnemonic, std::initializer_list<const char*> regs) {
  std::string s = mnemonic;
  char sep = ' ';
  for (const char* r : regs) {
    s += sep;
    s += r;
    sep = ',';
  }
  return s;
}

}  // namespace

std::string disassemble_fp(const Insn& d) {
  const Op op = static_cast<Op>(d.op);
  const std::string n = op_mnemonic(op);
  const char *frd = freg_name(d.rd), *frs1 = freg_name(d.rs1), *frs2 = freg_name(d.rs2);
  const char *xrd = xreg_name(d.rd), *xrs1 = xreg_name(d.rs1);
  switch (op) {
    case FLW: case FLD:
      return n + " " + frd + "," + std::to_string(d.imm) + "(" + xrs1 + ")";
    case FSW: case FSD:
      return n + " " + frs2 + "," + std::to_string(d.imm) + "(" + xrs1 + ")";
    case FMADD_S: case FMSUB_S: case FNMSUB_S: case FNMADD_S: case FMADD_D: case FMSUB_D: case FNMSUB_D: case FNMADD_D:
      return join(n, {frd, frs1, frs2, freg_name(d.rs3)}) + rm_suffix(d);
    case FADD_S: case FSUB_S: case FMUL_S: case FDIV_S: case FADD_D: case FSUB_D: case FMUL_D: case FDIV_D:
      return join(n, {frd, frs1, frs2}) + rm_suffix(d);
    case FSQRT_S: case FSQRT_D: case FCVT_S_D:
      return join(n, {frd, frs1}) + rm_suffix(d);
    case FCVT_D_S: return join(n, {frd, frs1});
    case FSGNJ_S: case FSGNJN_S: case FSGNJX_S: case FSGNJ_D: case FSGNJN_D: case FSGNJX_D:
      if (d.rs1 == d.rs2) {
        const bool dbl = op >= FSGNJ_D;
        const int k = dbl ? op - FSGNJ_D : op - FSGNJ_S;
        static const char* const alias[] = {"fmv", "fneg", "fabs"};
        return join(std::string(alias[k]) + (dbl ? ".d" : ".s"), {frd, frs1});
      }
      return join(n, {frd, frs1, frs2});
    case FMIN_S: case FMAX_S: case FMIN_D: case FMAX_D:
      return join(n, {frd, frs1, frs2});
    case FCVT_W_S: case FCVT_WU_S: case FCVT_L_S: case FCVT_LU_S: case FCVT_W_D: case FCVT_WU_D: case FCVT_L_D:
    case FCVT_LU_D:
      return join(n, {xrd, frs1}) + rm_suffix(d);
    case FCVT_S_W: case FCVT_S_WU: case FCVT_S_L: case FCVT_S_LU: case FCVT_D_L: case FCVT_D_LU:
      return join(n, {frd, xrs1}) + rm_suffix(d);
    case FCVT_D_W: case FCVT_D_WU: return join(n, {frd, xrs1});
    case FMV_X_W: case FMV_X_D: case FCLASS_S: case FCLASS_D: return join(n, {xrd, frs1});
    case FMV_W_X: case FMV_D_X: return join(n, {frd, xrs1});
    case FEQ_S: case FLT_S: case FLE_S: case FEQ_D: case FLT_D: case FLE_D:
      return join(n, {xrd, frs1, frs2});
    default: return n;
  }
}

}  // namespace avp::rv
