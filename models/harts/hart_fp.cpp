// F and D instructions: NaN-boxing, rounding-mode selection, mstatus.FS.
#include "fp_ops.h"
#include "harts/hart.h"

namespace avp {

using namespace rv;
using namespace rv::fp;

namespace {
constexpr uint64_t kBox = 0xFFFFFFFF00000000ull;
inline uint32_t unbox(uint64_t v) { return (v & kBox) == kBox ? static_cast<uint32_t>(v) : kCanonicalNaN32; }
inline uint64_t box(uint32_t v) { return kBox | v; }
inline uint64_t sx32(uint32_t v) { return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v))); }
}  // namespace

void Hart::exec_fp(const Insn& d) {
  if (!(hot_.s.mstatus & mstatus::FS)) illegal(d);
  uint64_t* f = hot_.s.f;
  uint64_t* x = hot_.s.x;
  const uint64_t fa = f[d.rs1], fb = f[d.rs2], fc = f[d.rs3];
  // With mstatus.FS Dirty already, the accrued flags go in: an operation may
  // report them again (fp_ops.cpp, in_host_mode), which changes neither fflags nor FS.
  uint32_t flags = (hot_.s.mstatus & mstatus::FS) == mstatus::FS ? hot_.s.fflags : 0;
  Rm rm = static_cast<Rm>(d.rm);
  auto need_rm = [&] {
    if (rm == 7) rm = static_cast<Rm>(hot_.s.frm);
    if (rm > RMM) illegal(d);
  };
  auto set_f = [&](uint64_t v) {
    f[d.rd] = v;
    hot_.s.mstatus |= mstatus::FS;  // Dirty
  };
  auto set_x = [&](uint64_t v) {
    if (d.rd) x[d.rd] = v;
  };
  switch (d.op) {
    case FLW: set_f(box(load<uint32_t>(x[d.rs1] + d.imm))); break;
    case FLD: set_f(load<uint64_t>(x[d.rs1] + d.imm)); break;
    case FSW: store<uint32_t>(x[d.rs1] + d.imm, static_cast<uint32_t>(fb)); return;
    case FSD: store<uint64_t>(x[d.rs1] + d.imm, fb); return;
    case FMADD_S: case FMSUB_S: case FNMSUB_S: case FNMADD_S: {
      need_rm();
      const bool np = d.op == FNMSUB_S || d.op == FNMADD_S, na = d.op == FMSUB_S || d.op == FNMADD_S;
      set_f(box(f32_fma(unbox(fa), unbox(fb), unbox(fc), np, na, rm, flags)));
      break;
    }
    case FMADD_D: case FMSUB_D: case FNMSUB_D: case FNMADD_D: {
      need_rm();
      const bool np = d.op == FNMSUB_D || d.op == FNMADD_D, na = d.op == FMSUB_D || d.op == FNMADD_D;
      set_f(f64_fma(fa, fb, fc, np, na, rm, flags));
      break;
    }
    case FADD_S: need_rm(); set_f(box(f32_bin(BinOp::Add, unbox(fa), unbox(fb), rm, flags))); break;
    case FSUB_S: need_rm(); set_f(box(f32_bin(BinOp::Sub, unbox(fa), unbox(fb), rm, flags))); break;
    case FMUL_S: need_rm(); set_f(box(f32_bin(BinOp::Mul, unbox(fa), unbox(fb), rm, flags))); break;
    case FDIV_S: need_rm(); set_f(box(f32_bin(BinOp::Div, unbox(fa), unbox(fb), rm, flags))); break;
    case FSQRT_S: need_rm(); set_f(box(f32_sqrt(unbox(fa), rm, flags))); break;
    case FADD_D: need_rm(); set_f(f64_bin(BinOp::Add, fa, fb, rm, flags)); break;
    case FSUB_D: need_rm(); set_f(f64_bin(BinOp::Sub, fa, fb, rm, flags)); break;
    case FMUL_D: need_rm(); set_f(f64_bin(BinOp::Mul, fa, fb, rm, flags)); break;
    case FDIV_D: need_rm(); set_f(f64_bin(BinOp::Div, fa, fb, rm, flags)); break;
    case FSQRT_D: need_rm(); set_f(f64_sqrt(fa, rm, flags)); break;
    case FSGNJ_S: set_f(box((unbox(fa) & 0x7FFFFFFFu) | (unbox(fb) & 0x80000000u))); break;
    case FSGNJN_S: set_f(box((unbox(fa) & 0x7FFFFFFFu) | (~unbox(fb) & 0x80000000u))); break;
    case FSGNJX_S: set_f(box(unbox(fa) ^ (unbox(fb) & 0x80000000u))); break;
    case FSGNJ_D: set_f((fa & ~(1ull << 63)) | (fb & (1ull << 63))); break;
    case FSGNJN_D: set_f((fa & ~(1ull << 63)) | (~fb & (1ull << 63))); break;
    case FSGNJX_D: set_f(fa ^ (fb & (1ull << 63))); break;
    case FMIN_S: set_f(box(f32_minmax(unbox(fa), unbox(fb), false, flags))); break;
    case FMAX_S: set_f(box(f32_minmax(unbox(fa), unbox(fb), true, flags))); break;
    case FMIN_D: set_f(f64_minmax(fa, fb, false, flags)); break;
    case FMAX_D: set_f(f64_minmax(fa, fb, true, flags)); break;
    case FEQ_S: set_x(f32_cmp(unbox(fa), unbox(fb), 0, flags)); break;
    case FLT_S: set_x(f32_cmp(unbox(fa), unbox(fb), 1, flags)); break;
    case FLE_S: set_x(f32_cmp(unbox(fa), unbox(fb), 2, flags)); break;
    case FEQ_D: set_x(f64_cmp(fa, fb, 0, flags)); break;
    case FLT_D: set_x(f64_cmp(fa, fb, 1, flags)); break;
    case FLE_D: set_x(f64_cmp(fa, fb, 2, flags)); break;
    case FCLASS_S: set_x(f32_class(unbox(fa))); break;
    case FCLASS_D: set_x(f64_class(fa)); break;
    case FMV_X_W: set_x(sx32(static_cast<uint32_t>(fa))); break;
    case FMV_X_D: set_x(fa); break;
    case FMV_W_X: set_f(box(static_cast<uint32_t>(x[d.rs1]))); break;
    case FMV_D_X: set_f(x[d.rs1]); break;
    case FCVT_W_S: need_rm(); set_x(f32_to_int(unbox(fa), 32, false, rm, flags)); break;
    case FCVT_WU_S: need_rm(); set_x(f32_to_int(unbox(fa), 32, true, rm, flags)); break;
    case FCVT_L_S: need_rm(); set_x(f32_to_int(unbox(fa), 64, false, rm, flags)); break;
    case FCVT_LU_S: need_rm(); set_x(f32_to_int(unbox(fa), 64, true, rm, flags)); break;
    case FCVT_W_D: need_rm(); set_x(f64_to_int(fa, 32, false, rm, flags)); break;
    case FCVT_WU_D: need_rm(); set_x(f64_to_int(fa, 32, true, rm, flags)); break;
    case FCVT_L_D: need_rm(); set_x(f64_to_int(fa, 64, false, rm, flags)); break;
    case FCVT_LU_D: need_rm(); set_x(f64_to_int(fa, 64, true, rm, flags)); break;
    case FCVT_S_W: need_rm(); set_f(box(int_to_f32(x[d.rs1], 32, false, rm, flags))); break;
    case FCVT_S_WU: need_rm(); set_f(box(int_to_f32(x[d.rs1], 32, true, rm, flags))); break;
    case FCVT_S_L: need_rm(); set_f(box(int_to_f32(x[d.rs1], 64, false, rm, flags))); break;
    case FCVT_S_LU: need_rm(); set_f(box(int_to_f32(x[d.rs1], 64, true, rm, flags))); break;
    case FCVT_D_W: need_rm(); set_f(int_to_f64(x[d.rs1], 32, false, rm, flags)); break;
    case FCVT_D_WU: need_rm(); set_f(int_to_f64(x[d.rs1], 32, true, rm, flags)); break;
    case FCVT_D_L: need_rm(); set_f(int_to_f64(x[d.rs1], 64, false, rm, flags)); break;
    case FCVT_D_LU: need_rm(); set_f(int_to_f64(x[d.rs1], 64, true, rm, flags)); break;
    case FCVT_S_D: need_rm(); set_f(box(f64_to_f32(fa, rm, flags))); break;
    case FCVT_D_S: need_rm(); set_f(f32_to_f64(unbox(fa), flags)); break;
    default: illegal(d);
  }
  if (flags) {
    hot_.s.fflags |= flags;
    hot_.s.mstatus |= mstatus::FS;
  }
}

}  // namespace avp
