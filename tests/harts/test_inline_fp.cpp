// The F and D instructions translated code does itself (block_translator.h,
// InlineFp) against Hart::exec_fp's semantics over the same operations
// (fp_ops.h): random blocks of double adds, subtracts, multiplies, fused
// multiply-adds, conversions from signed and unsigned integers and moves, on operands that are
// (and divisions and square roots, which the code takes once NX is accrued),
// sign injections, comparisons, classification and conversions to signed and unsigned integers, and their float
// forms (NaN-boxed operands, or not) with the conversions between the two,
// minimum and maximum,
// exact (small dyadic numbers), inexact, near and below the smallest normal,
// huge, infinite or NaN, with mstatus.FS, fflags (NX accrued or not), frm
// and the static rounding mode drawn at random. The `other` helper does
// what exec_fp does; the reference runs every instruction through it. The
// registers, fflags and mstatus must agree, and where the code had to do the
// instruction itself (FS Dirty, rounding to nearest, a result it can take)
// no helper call may be left.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <random>
#include <vector>

#include "fp_ops.h"
#include "harts/block_translator.h"
#include "harts/hart_state.h"

namespace {

using namespace avp;
using namespace avp::rv;

// What the code addresses from x, laid out as HartState's part it uses.
struct FpState {
  uint64_t x[32] = {};
  uint64_t f[32] = {};
  uint64_t mstatus = 0;
  uint32_t fflags = 0, frm = 0;
  unsigned helper_calls = 0;
};

constexpr int32_t from_x(size_t offset) { return static_cast<int32_t>(offset - offsetof(FpState, x)); }

uint64_t box(uint32_t v) { return 0xFFFFFFFF00000000ull | v; }
uint32_t unbox(uint64_t v) { return v >> 32 == 0xFFFFFFFFu ? static_cast<uint32_t>(v) : fp::kCanonicalNaN32; }

// exec_fp for the operations the test draws: whether it trapped.
bool exec_fp(FpState& s, const Insn& d) {
  if (!(s.mstatus & mstatus::FS)) return true;
  uint32_t flags = (s.mstatus & mstatus::FS) == mstatus::FS ? s.fflags : 0;
  const unsigned rm = d.rm == 7 ? s.frm : d.rm;
  const bool rounds = d.op != FMV_X_D && d.op != FMV_D_X && d.op != FCLASS_D && d.op != FCLASS_S && d.op != FMV_X_W && d.op != FMV_W_X && d.op != FMIN_D &&
                      d.op != FMAX_D && d.op != FMIN_S && d.op != FMAX_S &&
                      (d.op < FSGNJ_D || d.op > FSGNJX_D) && d.op != FEQ_D && d.op != FLT_D && d.op != FLE_D &&
                      (d.op < FSGNJ_S || d.op > FSGNJX_S) && d.op != FEQ_S && d.op != FLT_S && d.op != FLE_S;
  if (rounds && rm > fp::RMM) return true;
  const auto r = static_cast<fp::Rm>(rm);
  const uint64_t a = s.f[d.rs1], b = s.f[d.rs2], c = s.f[d.rs3];
  const auto set_f = [&](uint64_t v) {
    s.f[d.rd] = v;
    s.mstatus |= mstatus::FS;
  };
  switch (d.op) {
    case FADD_D: set_f(fp::f64_bin(fp::BinOp::Add, a, b, r, flags)); break;
    case FSUB_D: set_f(fp::f64_bin(fp::BinOp::Sub, a, b, r, flags)); break;
    case FMUL_D: set_f(fp::f64_bin(fp::BinOp::Mul, a, b, r, flags)); break;
    case FDIV_D: set_f(fp::f64_bin(fp::BinOp::Div, a, b, r, flags)); break;
    case FSQRT_D: set_f(fp::f64_sqrt(a, r, flags)); break;
    case FMADD_D: case FMSUB_D: case FNMSUB_D: case FNMADD_D:
      set_f(fp::f64_fma(a, b, c, d.op == FNMSUB_D || d.op == FNMADD_D, d.op == FMSUB_D || d.op == FNMADD_D, r, flags));
      break;
    case FCVT_D_W: set_f(fp::int_to_f64(s.x[d.rs1], 32, false, r, flags)); break;
    case FCVT_D_L: set_f(fp::int_to_f64(s.x[d.rs1], 64, false, r, flags)); break;
    case FCLASS_D: if (d.rd) s.x[d.rd] = fp::f64_class(a); break;
    case FCLASS_S: if (d.rd) s.x[d.rd] = fp::f32_class(unbox(a)); break;
    case FCVT_D_WU: set_f(fp::int_to_f64(s.x[d.rs1], 32, true, r, flags)); break;
    case FCVT_D_LU: set_f(fp::int_to_f64(s.x[d.rs1], 64, true, r, flags)); break;
    case FADD_S: set_f(box(fp::f32_bin(fp::BinOp::Add, unbox(a), unbox(b), r, flags))); break;
    case FSUB_S: set_f(box(fp::f32_bin(fp::BinOp::Sub, unbox(a), unbox(b), r, flags))); break;
    case FMUL_S: set_f(box(fp::f32_bin(fp::BinOp::Mul, unbox(a), unbox(b), r, flags))); break;
    case FDIV_S: set_f(box(fp::f32_bin(fp::BinOp::Div, unbox(a), unbox(b), r, flags))); break;
    case FSQRT_S: set_f(box(fp::f32_sqrt(unbox(a), r, flags))); break;
    case FMADD_S: case FMSUB_S: case FNMSUB_S: case FNMADD_S:
      set_f(box(fp::f32_fma(unbox(a), unbox(b), unbox(c), d.op == FNMSUB_S || d.op == FNMADD_S,
                            d.op == FMSUB_S || d.op == FNMADD_S, r, flags)));
      break;
    case FSGNJ_S: set_f(box((unbox(a) & 0x7FFFFFFFu) | (unbox(b) & 0x80000000u))); break;
    case FSGNJN_S: set_f(box((unbox(a) & 0x7FFFFFFFu) | (~unbox(b) & 0x80000000u))); break;
    case FSGNJX_S: set_f(box(unbox(a) ^ (unbox(b) & 0x80000000u))); break;
    case FEQ_S: if (d.rd) s.x[d.rd] = fp::f32_cmp(unbox(a), unbox(b), 0, flags); break;
    case FLT_S: if (d.rd) s.x[d.rd] = fp::f32_cmp(unbox(a), unbox(b), 1, flags); break;
    case FLE_S: if (d.rd) s.x[d.rd] = fp::f32_cmp(unbox(a), unbox(b), 2, flags); break;
    case FCVT_W_S: { const uint64_t v = fp::f32_to_int(unbox(a), 32, false, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FCVT_L_S: { const uint64_t v = fp::f32_to_int(unbox(a), 64, false, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FCVT_WU_S: { const uint64_t v = fp::f32_to_int(unbox(a), 32, true, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FCVT_LU_S: { const uint64_t v = fp::f32_to_int(unbox(a), 64, true, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FMIN_D: set_f(fp::f64_minmax(a, b, false, flags)); break;
    case FMAX_D: set_f(fp::f64_minmax(a, b, true, flags)); break;
    case FMIN_S: set_f(box(fp::f32_minmax(unbox(a), unbox(b), false, flags))); break;
    case FMAX_S: set_f(box(fp::f32_minmax(unbox(a), unbox(b), true, flags))); break;
    case FCVT_S_W: set_f(box(fp::int_to_f32(s.x[d.rs1], 32, false, r, flags))); break;
    case FCVT_S_L: set_f(box(fp::int_to_f32(s.x[d.rs1], 64, false, r, flags))); break;
    case FCVT_S_WU: set_f(box(fp::int_to_f32(s.x[d.rs1], 32, true, r, flags))); break;
    case FCVT_S_LU: set_f(box(fp::int_to_f32(s.x[d.rs1], 64, true, r, flags))); break;
    case FCVT_S_D: set_f(box(fp::f64_to_f32(a, r, flags))); break;
    case FCVT_D_S: set_f(fp::f32_to_f64(unbox(a), flags)); break;
    case FMV_X_W: if (d.rd) s.x[d.rd] = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(a))); break;
    case FMV_W_X: set_f(box(static_cast<uint32_t>(s.x[d.rs1]))); break;
    case FSGNJ_D: set_f((a & ~(1ull << 63)) | (b & (1ull << 63))); break;
    case FSGNJN_D: set_f((a & ~(1ull << 63)) | (~b & (1ull << 63))); break;
    case FSGNJX_D: set_f(a ^ (b & (1ull << 63))); break;
    case FEQ_D: if (d.rd) s.x[d.rd] = fp::f64_cmp(a, b, 0, flags); break;
    case FLT_D: if (d.rd) s.x[d.rd] = fp::f64_cmp(a, b, 1, flags); break;
    case FLE_D: if (d.rd) s.x[d.rd] = fp::f64_cmp(a, b, 2, flags); break;
    case FCVT_W_D: { const uint64_t v = fp::f64_to_int(a, 32, false, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FCVT_L_D: { const uint64_t v = fp::f64_to_int(a, 64, false, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FCVT_WU_D: { const uint64_t v = fp::f64_to_int(a, 32, true, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FCVT_LU_D: { const uint64_t v = fp::f64_to_int(a, 64, true, r, flags); if (d.rd) s.x[d.rd] = v; break; }
    case FMV_X_D: if (d.rd) s.x[d.rd] = a; break;
    case FMV_D_X: set_f(s.x[d.rs1]); break;
    default: ADD_FAILURE() << "op " << d.op; return true;
  }
  if (flags) {
    s.fflags |= flags;
    s.mstatus |= mstatus::FS;
  }
  return false;
}

JitStep other(void* hart, uint64_t pc, const Insn* d) {
  FpState& s = *static_cast<FpState*>(hart);
  ++s.helper_calls;
  return {pc + d->len, exec_fp(s, *d) ? uint64_t{kExitTrapped} : uint64_t{kExitDone}};
}

JitStep no_load(void*, uint64_t, uint64_t, const Insn*) { return {0, kExitTrapped}; }
JitStep no_store(void*, uint64_t, uint64_t, uint64_t, const Insn*) { return {0, kExitTrapped}; }

const InlineFp kFp = {from_x(offsetof(FpState, f)), from_x(offsetof(FpState, mstatus)),
                      from_x(offsetof(FpState, fflags)), from_x(offsetof(FpState, frm)),
                      __builtin_cpu_supports("fma") != 0};
const TranslationHelpers kHelpers = {{no_load, no_load, no_load, no_load, no_load, no_load, no_load},
                                     {no_store, no_store, no_store, no_store},
                                     other,
                                     nullptr,
                                     nullptr,
                                     &kFp,
                                     from_x(0)};  // the hart: the state itself

class RandomFp {
 public:
  explicit RandomFp(uint32_t seed) : rng_(seed) {}
  double value() {
    switch (rng_() % 11) {
      case 0: case 1: case 2: return static_cast<double>(static_cast<int>(rng_() % 64) - 32) / 8;  // exact
      case 3: return std::ldexp(static_cast<double>(rng_() % 1024 + 1), -1030);                  // near the smallest normal
      case 4: return std::ldexp(1.0 + (rng_() % 64) / 64.0, static_cast<int>(rng_() % 40) + 980);  // huge
      case 5: return rng_() % 2 ? INFINITY : std::nan("");
      case 6: return rng_() % 2 ? 0.0 : -0.0;
      case 7: return std::ldexp(1.0 + (rng_() % 1024) / 1024.0, static_cast<int>(rng_() % 20) - 975);  // small products
      case 8: return (rng_() % 2 ? -1 : 1) * (std::ldexp(1.0, static_cast<int>(rng_() % 4) + 30 + 32 * (rng_() % 2)) +
                                              static_cast<double>(static_cast<int>(rng_() % 5) - 2) / 2);  // near int limits
      default: return (static_cast<double>(rng_()) - 2147483648.0) / static_cast<double>(rng_() | 1);  // inexact
    }
  }
  Insn insn() {
    static const uint16_t kOps[] = {FADD_D,   FSUB_D,   FMUL_D,   FDIV_D,   FSQRT_D,  FMADD_D,  FMSUB_D,
                                    FNMSUB_D, FNMADD_D, FCVT_D_W, FCVT_D_L, FMV_X_D,  FMV_D_X,  FSGNJ_D,
                                    FSGNJN_D, FSGNJX_D, FEQ_D,    FLT_D,    FLE_D,    FCVT_W_D, FCVT_L_D,
                                    FADD_S,   FSUB_S,   FMUL_S,   FDIV_S,   FSQRT_S,  FMADD_S,  FMSUB_S,
                                    FNMSUB_S, FNMADD_S, FMV_X_W,  FMV_W_X,  FSGNJ_S,  FSGNJN_S, FSGNJX_S,
                                    FEQ_S,    FLT_S,    FLE_S,    FCVT_W_S, FCVT_L_S, FCVT_S_D, FCVT_D_S,
                                    FCVT_S_W, FCVT_S_L, FMIN_D,   FMAX_D,   FMIN_S,   FMAX_S,   FCVT_D_WU,
                                    FCVT_D_LU, FCVT_S_WU, FCVT_S_LU, FCVT_WU_D, FCVT_LU_D, FCVT_WU_S, FCVT_LU_S, FCLASS_D,  FCLASS_S};
    static const uint8_t kRegs[] = {0, 1, 2, 3, 5, 8, 10, 31};
    Insn d;
    d.op = kOps[rng_() % std::size(kOps)];
    d.rd = kRegs[rng_() % std::size(kRegs)];
    d.rs1 = kRegs[rng_() % std::size(kRegs)];
    d.rs2 = kRegs[rng_() % std::size(kRegs)];
    d.rs3 = kRegs[rng_() % std::size(kRegs)];
    static const uint8_t kRm[] = {0, 0, 0, 7, 7, 1, 4};
    d.rm = kRm[rng_() % std::size(kRm)];
    return d;
  }
  void state(FpState& s) {
    for (uint64_t& v : s.f) {  // doubles, NaN-boxed floats and now and then a float that is not boxed
      const unsigned kind = rng_() % 8;
      if (kind < 4) v = fp::bits_of(value());
      else if (kind < 6) v = box(fp::bits_of(static_cast<float>(value())));
      else if (kind == 6)  // products near the bottom of the floats
        v = box(fp::bits_of(static_cast<float>(std::ldexp(1.0 + (rng_() % (1u << 23)) * 0x1p-23, -58 - rng_() % 8))));
      else
        v = fp::bits_of(static_cast<float>(value()));  // not boxed
    }
    for (uint64_t& v : s.x) {  // small, around 2^24 and 2^53 (where conversions begin to round), 2^32 and 2^63, or any
      const unsigned kind = rng_() % 5;
      const int64_t near = static_cast<int64_t>(rng_() % 9) - 4;
      v = kind == 0   ? static_cast<uint64_t>(static_cast<int64_t>(rng_() % 2001) - 1000)
          : kind == 1 ? static_cast<uint64_t>((rng_() % 2 ? -1 : 1) * ((int64_t{1} << 24) + near))
          : kind == 2 ? static_cast<uint64_t>((rng_() % 2 ? -1 : 1) * ((int64_t{1} << 53) + near))
          : kind == 3 ? (uint64_t{1} << (rng_() % 2 ? 32 : 63)) + static_cast<uint64_t>(near)
                      : (uint64_t{rng_()} << 32 | rng_());
    }
    s.x[0] = 0;
    static const uint64_t kFs[] = {0, 1, 2, 3, 3, 3};
    s.mstatus = kFs[rng_() % std::size(kFs)] << 13;
    s.fflags = rng_() % 32;
    s.frm = rng_() % 3 ? 0 : rng_() % 8;
  }
  uint32_t next() { return rng_(); }

 private:
  std::mt19937 rng_;
};

struct FpRun {
  FpState s;
  JitStep exit;
};

FpRun translated(const std::vector<Insn>& block, const FpState& init, CodeArena& arena) {
  FpRun r{init, {}};
  TranslatedBlock code = translate_block(block.data(), block.size(), 0x1000, kHelpers, nullptr, nullptr, arena);
  if (!code) {
    arena.reset();
    code = translate_block(block.data(), block.size(), 0x1000, kHelpers, nullptr, nullptr, arena);
  }
  EXPECT_NE(code, nullptr);
  if (code) r.exit = code(r.s.x);
  return r;
}

FpRun reference(const std::vector<Insn>& block, const FpState& init) {
  FpRun r{init, {}};
  uint64_t pc = 0x1000;
  for (uint32_t i = 0; i < block.size(); ++i) {
    if (other(&r.s, pc, &block[i]).status == kExitTrapped) {
      r.exit = {0, i | uint64_t{kExitTrapped} << 32};
      return r;
    }
    r.s.x[0] = 0;
    pc += block[i].len;
  }
  r.exit = {pc, block.size()};
  return r;
}

void expect_same(const FpRun& got, const FpRun& want, uint32_t seed) {
  ASSERT_EQ(got.exit.status, want.exit.status) << "seed " << seed;
  if (want.exit.status >> 32 != kExitTrapped) {
    ASSERT_EQ(got.exit.value, want.exit.value) << "seed " << seed;
  }
  for (unsigned r = 0; r < 32; ++r) ASSERT_EQ(got.s.x[r], want.s.x[r]) << "x" << r << " seed " << seed;
  for (unsigned r = 0; r < 32; ++r) ASSERT_EQ(got.s.f[r], want.s.f[r]) << "f" << r << " seed " << seed;
  ASSERT_EQ(got.s.fflags, want.s.fflags) << "seed " << seed;
  ASSERT_EQ(got.s.mstatus, want.s.mstatus) << "seed " << seed;
}

// An F or D instruction as the decoder gives it.
Insn op(uint16_t o, uint8_t rd, uint8_t rs1, uint8_t rs2 = 0, uint8_t rs3 = 0, uint8_t rm = 0) {
  Insn d;
  d.op = o;
  d.rd = rd;
  d.rs1 = rs1;
  d.rs2 = rs2;
  d.rs3 = rs3;
  d.rm = rm;
  return d;
}

TEST(InlineFp, RandomBlocksMatchExecFp) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  RandomFp gen(7);
  unsigned inline_done = 0, total = 0;
  for (uint32_t round = 0; round < 20000; ++round) {
    std::vector<Insn> block(1 + gen.next() % 12);
    for (Insn& d : block) d = gen.insn();
    FpState init;
    gen.state(init);
    const FpRun want = reference(block, init);
    const FpRun got = translated(block, init, arena);
    expect_same(got, want, round);
    if (HasFatalFailure()) {
      for (const Insn& d : block)
        ADD_FAILURE() << "op " << d.op << " rd " << +d.rd << " rs1 " << +d.rs1 << " rs2 " << +d.rs2 << " rs3 " << +d.rs3
                      << " rm " << +d.rm << " mstatus " << init.mstatus << " fflags " << init.fflags << " frm " << init.frm;
      return;
    }
    total += want.s.helper_calls;
    inline_done += want.s.helper_calls - got.s.helper_calls;
  }
  // The draw puts FS at Dirty in half the states and rounds to nearest most of the time.
  EXPECT_GT(inline_done, total / 5) << "the code did too few instructions itself";
}

// With FS Dirty and rounding to nearest, the code takes every result it can
// vouch for: inexact ones once NX is accrued, exact ones without it; what
// it cannot (a tiny or infinite result, an inexact one before NX) goes to
// the helper, which then accrues the flags.
TEST(InlineFp, TakesExactAndAccruedResultsAndLeavesTheRest) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  FpState init;
  init.mstatus = mstatus::FS;
  const auto set = [&](unsigned r, double v) { std::memcpy(&init.f[r], &v, sizeof v); };
  set(1, 1.5);
  set(2, 0.25);
  set(3, 3.0);
  set(4, 0.1);
  set(5, std::ldexp(1.0, -1000));
  // Exact: no NX, all in the code (the fused forms need the host's FMA3).
  std::vector<Insn> exact = {op(FADD_D, 10, 1, 2),   op(FSUB_D, 11, 1, 3, 0, 7), op(FMUL_D, 12, 1, 2),
                             op(FCVT_D_W, 13, 0, 0), op(FMV_X_D, 14, 1, 0),      op(FMV_D_X, 15, 14, 0),
                             op(FSGNJN_D, 18, 1, 1), op(FLT_D, 16, 2, 1),        op(FCVT_W_D, 17, 3, 0, 0, 1)};
  init.x[5] = 0x3FC00000;                  // 1.5f
  exact.push_back(op(FMV_W_X, 21, 5, 0));  // boxed
  exact.push_back(op(FADD_S, 22, 21, 21));
  if (kFp.fma) exact.push_back(op(FMADD_D, 19, 1, 2, 3));
  if (kFp.fma) exact.push_back(op(FNMSUB_D, 20, 1, 2, 3));
  FpRun got = translated(exact, init, arena);
  expect_same(got, reference(exact, init), 0);
  EXPECT_EQ(got.s.helper_calls, 0u);
  EXPECT_EQ(got.s.fflags, 0u);
  // Inexact before NX: the helper (which accrues NX); after it, the code.
  const std::vector<Insn> inexact = {op(FMUL_D, 10, 4, 3), op(FADD_D, 11, 4, 3), op(FMUL_D, 12, 4, 4),
                                     op(FDIV_D, 13, 1, 4), op(FSQRT_D, 14, 3, 0), op(FCVT_L_D, 15, 1, 0, 0, 1)};
  got = translated(inexact, init, arena);
  expect_same(got, reference(inexact, init), 0);
  EXPECT_EQ(got.s.helper_calls, 1u);
  EXPECT_EQ(got.s.fflags, uint32_t{fp::NX});
  // A result below twice the smallest normal, FS Clean, frm not nearest: the helper each time.
  const std::vector<Insn> tiny = {op(FMUL_D, 10, 5, 5)};
  init.fflags = fp::NX;
  got = translated(tiny, init, arena);
  expect_same(got, reference(tiny, init), 0);
  EXPECT_EQ(got.s.helper_calls, 1u);
  EXPECT_NE(got.s.fflags & fp::UF, 0u);
  // A float product just above the smallest normal whose rounding error
  // is below the smallest subnormal (the fused check would find 0): inexact.
  init.fflags = 0;
  const float near_bottom = std::ldexp(1.0f + 0x1p-12f, -63);
  init.f[6] = box(fp::bits_of(near_bottom));
  const std::vector<Insn> bottom = {op(FMUL_S, 10, 6, 6)};
  got = translated(bottom, init, arena);
  expect_same(got, reference(bottom, init), 0);
  EXPECT_EQ(got.s.helper_calls, 1u);
  EXPECT_NE(got.s.fflags & fp::NX, 0u);
  init.fflags = fp::NX;
  init.mstatus = uint64_t{2} << 13;  // Clean
  got = translated(exact, init, arena);
  expect_same(got, reference(exact, init), 0);
  EXPECT_GE(got.s.helper_calls, 1u);
  init.mstatus = mstatus::FS;
  init.frm = fp::RTZ;
  const std::vector<Insn> dynamic = {op(FADD_D, 10, 4, 3, 0, 7)};
  got = translated(dynamic, init, arena);
  expect_same(got, reference(dynamic, init), 0);
  EXPECT_EQ(got.s.helper_calls, 1u);
}

// Conversions to and from unsigned integers: the code does those whose
// value the host's signed 64-bit conversions hold (below 2^63) and whose
// result raises no new flag; an out-of-range result (which saturates and
// raises NV) or a value from 2^63 on goes to the helper.
TEST(InlineFp, UnsignedConversionsUpToTheirLimits) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  FpState init;
  init.mstatus = mstatus::FS;
  const auto set = [&](unsigned r, double v) { std::memcpy(&init.f[r], &v, sizeof v); };
  set(1, 4294967295.0);
  set(2, -0.5);
  set(3, 4294967296.0);
  set(4, -1.0);
  set(5, 9223372036854775808.0);  // 2^63
  set(6, 12.0);
  init.f[7] = box(fp::bits_of(3.0e9f));
  init.x[5] = 0xFFFFFFFF80000000ull;  // its low word: 2^31
  init.x[6] = (uint64_t{1} << 53) - 1;
  init.x[7] = (uint64_t{1} << 63) + 1;
  const auto run = [&](const std::vector<Insn>& block) {
    FpRun got = translated(block, init, arena);
    expect_same(got, reference(block, init), 0);
    return got;
  };
  // In range and exact: all in the code, no flag; a 32-bit result is sign-extended.
  FpRun got = run({op(FCVT_D_WU, 10, 5), op(FCVT_D_LU, 11, 6), op(FCVT_S_WU, 12, 0), op(FCVT_WU_D, 13, 1, 0, 0, 1),
                   op(FCVT_LU_D, 14, 6, 0, 0, 1), op(FCVT_WU_S, 15, 7, 0, 0, 0), op(FCVT_LU_S, 16, 7, 0, 0, 1)});
  EXPECT_EQ(got.s.helper_calls, 0u);
  EXPECT_EQ(got.s.fflags, 0u);
  EXPECT_EQ(got.s.x[13], ~uint64_t{0});
  EXPECT_EQ(got.s.x[15], static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(3000000000u))));
  EXPECT_EQ(got.s.x[16], 3000000000u);
  // -0.5 toward zero is 0 and inexact: the helper raises NX, after which the code takes it.
  got = run({op(FCVT_WU_D, 10, 2, 0, 0, 1), op(FCVT_LU_D, 11, 2, 0, 0, 1)});
  EXPECT_EQ(got.s.helper_calls, 1u);
  EXPECT_EQ(got.s.fflags, uint32_t{fp::NX});
  EXPECT_EQ(got.s.x[10], 0u);
  // Out of range (2^32 for 32 bits, -1) saturates with NV; 2^63 and beyond are the helper's either way.
  for (const Insn& d : {op(FCVT_WU_D, 10, 3, 0, 0, 1), op(FCVT_WU_D, 10, 4, 0, 0, 1), op(FCVT_LU_D, 10, 4, 0, 0, 1),
                        op(FCVT_LU_D, 10, 5, 0, 0, 1), op(FCVT_D_LU, 10, 7), op(FCVT_S_LU, 10, 7)}) {
    got = run({d});
    EXPECT_EQ(got.s.helper_calls, 1u) << "op " << d.op << " rs1 " << +d.rs1;
  }
  // A 64-bit integer a double cannot hold exactly, before NX: the helper; with NX accrued: the code.
  init.x[6] = (uint64_t{1} << 53) + 1;
  got = run({op(FCVT_D_LU, 10, 6)});
  EXPECT_EQ(got.s.helper_calls, 1u);
  init.fflags = fp::NX;
  got = run({op(FCVT_D_LU, 10, 6)});
  EXPECT_EQ(got.s.helper_calls, 0u);
}

// fclass of each class, double and float (NaN-boxed), signalling and
// quiet NaNs included, in the code while FS is not Off; a float that is
// not NaN-boxed (the hart reads the canonical NaN) is the helper's.
TEST(InlineFp, ClassifiesEachClass) {
  if (!block_translation_available()) GTEST_SKIP() << "no translator for this host";
  CodeArena arena;
  const uint64_t doubles[] = {0xFFF0000000000000ull, fp::bits_of(-1.5),    0x800000000000000Full, 1ull << 63, 0,
                              0x000FFFFFFFFFFFFFull, fp::bits_of(2.0),     0x7FF0000000000000ull,
                              0x7FF0000000000001ull, 0x7FF8000000000000ull};
  const uint32_t floats[] = {0xFF800000u, 0xBFC00000u, 0x80000001u, 0x80000000u, 0,
                             0x007FFFFFu, 0x40000000u, 0x7F800000u, 0x7F800001u, 0x7FC00000u};
  std::vector<Insn> block;
  FpState init;
  init.mstatus = uint64_t{1} << 13;  // Initial: fclass reads f and raises nothing
  for (unsigned i = 0; i < 10; ++i) {
    init.f[i] = doubles[i];
    init.f[10 + i] = box(floats[i]);
    Insn d;
    d.op = FCLASS_D;
    d.rd = static_cast<uint8_t>(1 + i);
    d.rs1 = static_cast<uint8_t>(i);
    block.push_back(d);
    d.op = FCLASS_S;
    d.rd = static_cast<uint8_t>(11 + i);
    d.rs1 = static_cast<uint8_t>(10 + i);
    block.push_back(d);
  }
  FpRun got = translated(block, init, arena);
  expect_same(got, reference(block, init), 0);
  EXPECT_EQ(got.s.helper_calls, 0u);
  for (unsigned i = 0; i < 10; ++i) {
    EXPECT_EQ(got.s.x[1 + i], uint64_t{1} << i) << "double " << i;
    EXPECT_EQ(got.s.x[11 + i], uint64_t{1} << i) << "float " << i;
  }
  init.f[10] = floats[0];  // not boxed
  got = translated(block, init, arena);
  expect_same(got, reference(block, init), 0);
  EXPECT_EQ(got.s.helper_calls, 1u);
  EXPECT_EQ(got.s.x[11], uint64_t{1} << 9);
}

}  // namespace
