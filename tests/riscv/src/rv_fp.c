// RV64 F + D: every arithmetic, conversion, compare, sign-injection, move
// and classify instruction. Rounding-sensitive operands run under all five
// static rounding modes (with frm set to something else) and under dyn with
// each frm value; special operands (NaNs, infinities, signed zeros,
// subnormals, improperly NaN-boxed singles) check results and fflags.
// Every line: insn[.rm] operands: result-bits fflags.
#include "sig.h"

#define BOX(x) (0xffffffff00000000ull | (uint32_t)(x))

// Runs `body` with ft0..ft2 = a, b, c (raw 64-bit patterns) and fflags
// cleared; `body` leaves the result in %0 (int) or ft3 (then moved to %0).
#define FP_RUN(body, a, b, c, r, f)                                                             \
  __asm__ volatile("fmv.d.x ft0, %2\n fmv.d.x ft1, %3\n fmv.d.x ft2, %4\n csrwi fflags, 0\n"    \
                   body "\n frflags %1"                                                         \
                   : "=&r"(r), "=&r"(f)                                                         \
                   : "r"(a), "r"(b), "r"(c)                                                     \
                   : "ft0", "ft1", "ft2", "ft3")
#define F_BIN(insn, rm) insn " ft3, ft0, ft1" rm "\n fmv.x.d %0, ft3"
#define F_UN(insn, rm) insn " ft3, ft0" rm "\n fmv.x.d %0, ft3"
#define F_TER(insn, rm) insn " ft3, ft0, ft1, ft2" rm "\n fmv.x.d %0, ft3"
#define F_TOINT(insn, rm) insn " %0, ft0" rm
#define F_CMP(insn, rm) insn " %0, ft0, ft1" rm
#define F_FROMINT(insn, rm) insn " ft3, %2" rm "\n fmv.x.d %0, ft3"

#define ONE(form, insn, rm, label, a, b, c)    \
  do {                                         \
    uint64_t r_, f_;                           \
    FP_RUN(form(insn, rm), a, b, c, r_, f_);   \
    sigf(insn, label, a, b, c, r_, f_);        \
  } while (0)

static const char* const dyn_label[] = {".dyn-rne", ".dyn-rtz", ".dyn-rdn", ".dyn-rup", ".dyn-rmm"};
static inline void set_frm(unsigned rm) { __asm__ volatile("fsrm %0" ::"r"(rm)); }

// All five static modes (frm = RUP, which they must ignore), then dyn under
// each frm value.
#define ALL_RM(form, insn, a, b, c)                         \
  do {                                                      \
    set_frm(3);                                             \
    ONE(form, insn, ", rne", ".rne", a, b, c);              \
    ONE(form, insn, ", rtz", ".rtz", a, b, c);              \
    ONE(form, insn, ", rdn", ".rdn", a, b, c);              \
    ONE(form, insn, ", rup", ".rup", a, b, c);              \
    ONE(form, insn, ", rmm", ".rmm", a, b, c);              \
    for (unsigned m = 0; m < 5; m++) {                      \
      set_frm(m);                                           \
      ONE(form, insn, "", dyn_label[m], a, b, c);           \
    }                                                       \
    set_frm(0);                                             \
  } while (0)

// ---- single precision operands (NaN-boxed unless noted)
#define S_QNAN BOX(0x7fc00000)
#define S_QNANP BOX(0x7fc12345)  // quiet NaN with payload
#define S_SNAN BOX(0x7f800001)
#define S_NQNAN BOX(0xffc00000)
#define S_INF BOX(0x7f800000)
#define S_NINF BOX(0xff800000)
#define S_ZERO BOX(0x00000000)
#define S_NZERO BOX(0x80000000)
#define S_ONE BOX(0x3f800000)
#define S_NONE BOX(0xbf800000)
#define S_THREE BOX(0x40400000)
#define S_MAX BOX(0x7f7fffff)
#define S_MINN BOX(0x00800000)
#define S_SUB BOX(0x00000001)
#define S_UNBOXED 0x000000003f800000ull     // 1.0 without the NaN box
#define S_HALFBOX 0xfffffffe3f800000ull     // one upper bit missing

// ---- double precision operands
#define D_QNAN 0x7ff8000000000000ull
#define D_QNANP 0x7ff8000000012345ull
#define D_SNAN 0x7ff0000000000001ull
#define D_NQNAN 0xfff8000000000000ull
#define D_INF 0x7ff0000000000000ull
#define D_NINF 0xfff0000000000000ull
#define D_ZERO 0x0ull
#define D_NZERO 0x8000000000000000ull
#define D_ONE 0x3ff0000000000000ull
#define D_NONE 0xbff0000000000000ull
#define D_THREE 0x4008000000000000ull
#define D_MAX 0x7fefffffffffffffull
#define D_MINN 0x0010000000000000ull
#define D_SUB 0x0000000000000001ull

typedef struct { uint64_t a, b; } pair;

// Rounding-sensitive pairs (run under every rounding mode).
static const pair s_round[] = {
    {S_ONE, BOX(0x33c00000)},  // 1 + 0.75 ulp
    {S_ONE, BOX(0x33800000)},  // 1 + 0.5 ulp: tie
    {S_NONE, BOX(0xb3c00000)}, // negative
    {S_ONE, S_THREE},          // 1/3, 1*3
    {S_MAX, S_MAX},            // overflow
    {BOX(0x00800001), BOX(0x3f000000)},  // tiny and inexact after multiply
};
static const pair d_round[] = {
    {D_ONE, 0x3ca8000000000000ull},  // 1 + 0.75 ulp
    {D_ONE, 0x3ca0000000000000ull},  // tie
    {D_NONE, 0xbca8000000000000ull},
    {D_ONE, D_THREE},
    {D_MAX, D_MAX},
    {0x0010000000000001ull, 0x3fe0000000000000ull},
};
static const uint64_t s_special[] = {S_QNANP, S_SNAN, S_NQNAN, S_INF, S_NINF, S_ZERO, S_NZERO, S_ONE, S_SUB, S_UNBOXED};
static const uint64_t d_special[] = {D_QNANP, D_SNAN, D_NQNAN, D_INF, D_NINF, D_ZERO, D_NZERO, D_ONE, D_SUB};

#define BIN_ROUND(insn, list)                                                  \
  for (unsigned i = 0; i < ARRAY_SIZE(list); i++) ALL_RM(F_BIN, insn, list[i].a, list[i].b, 0ull)
#define BIN_SPECIAL(form, insn, list)                                          \
  for (unsigned i = 0; i < ARRAY_SIZE(list); i++)                              \
    for (unsigned j = 0; j < ARRAY_SIZE(list); j++) ONE(form, insn, "", "", list[i], list[j], 0ull)

static void arith(void) {
  BIN_ROUND("fadd.s", s_round); BIN_ROUND("fsub.s", s_round);
  BIN_ROUND("fmul.s", s_round); BIN_ROUND("fdiv.s", s_round);
  BIN_ROUND("fadd.d", d_round); BIN_ROUND("fsub.d", d_round);
  BIN_ROUND("fmul.d", d_round); BIN_ROUND("fdiv.d", d_round);
  BIN_SPECIAL(F_BIN, "fadd.s", s_special); BIN_SPECIAL(F_BIN, "fsub.s", s_special);
  BIN_SPECIAL(F_BIN, "fmul.s", s_special); BIN_SPECIAL(F_BIN, "fdiv.s", s_special);
  BIN_SPECIAL(F_BIN, "fadd.d", d_special); BIN_SPECIAL(F_BIN, "fsub.d", d_special);
  BIN_SPECIAL(F_BIN, "fmul.d", d_special); BIN_SPECIAL(F_BIN, "fdiv.d", d_special);
}

static void minmax_sgnj_cmp(void) {
  BIN_SPECIAL(F_BIN, "fmin.s", s_special); BIN_SPECIAL(F_BIN, "fmax.s", s_special);
  BIN_SPECIAL(F_BIN, "fmin.d", d_special); BIN_SPECIAL(F_BIN, "fmax.d", d_special);
  BIN_SPECIAL(F_BIN, "fsgnj.s", s_special); BIN_SPECIAL(F_BIN, "fsgnjn.s", s_special);
  BIN_SPECIAL(F_BIN, "fsgnjx.s", s_special);
  BIN_SPECIAL(F_BIN, "fsgnj.d", d_special); BIN_SPECIAL(F_BIN, "fsgnjn.d", d_special);
  BIN_SPECIAL(F_BIN, "fsgnjx.d", d_special);
  BIN_SPECIAL(F_CMP, "feq.s", s_special); BIN_SPECIAL(F_CMP, "flt.s", s_special);
  BIN_SPECIAL(F_CMP, "fle.s", s_special);
  BIN_SPECIAL(F_CMP, "feq.d", d_special); BIN_SPECIAL(F_CMP, "flt.d", d_special);
  BIN_SPECIAL(F_CMP, "fle.d", d_special);
}

static void sqrt_fma(void) {
  static const uint64_t s_sq[] = {BOX(0x40000000), S_NONE, S_NZERO, S_INF, S_SNAN, S_QNANP, S_SUB, S_UNBOXED};
  static const uint64_t d_sq[] = {0x4000000000000000ull, D_NONE, D_NZERO, D_INF, D_SNAN, D_QNANP, D_SUB};
  for (unsigned i = 0; i < 2; i++) ALL_RM(F_UN, "fsqrt.s", s_sq[i], 0ull, 0ull);
  for (unsigned i = 2; i < ARRAY_SIZE(s_sq); i++) ONE(F_UN, "fsqrt.s", "", "", s_sq[i], 0ull, 0ull);
  for (unsigned i = 0; i < 2; i++) ALL_RM(F_UN, "fsqrt.d", d_sq[i], 0ull, 0ull);
  for (unsigned i = 2; i < ARRAY_SIZE(d_sq); i++) ONE(F_UN, "fsqrt.d", "", "", d_sq[i], 0ull, 0ull);

  typedef struct { uint64_t a, b, c; } triple;
  static const triple s_fma[] = {
      {S_ONE, S_ONE, BOX(0x33c00000)}, {BOX(0x3f800001), BOX(0x3f800001), S_NONE},  // fused: no double rounding
      {S_INF, S_ZERO, S_QNANP},  // inf * 0 + qNaN: invalid
      {S_INF, S_ONE, S_NINF},    // inf - inf: invalid
      {S_ZERO, S_ONE, S_NZERO},  // signed zero of the sum
      {S_SNAN, S_ONE, S_ONE}, {S_ONE, S_ONE, S_SNAN}, {S_MAX, S_MAX, S_NINF}, {S_UNBOXED, S_ONE, S_ONE},
  };
  static const triple d_fma[] = {
      {D_ONE, D_ONE, 0x3ca8000000000000ull}, {0x3ff0000000000001ull, 0x3ff0000000000001ull, D_NONE},
      {D_INF, D_ZERO, D_QNANP}, {D_INF, D_ONE, D_NINF}, {D_ZERO, D_ONE, D_NZERO},
      {D_SNAN, D_ONE, D_ONE}, {D_ONE, D_ONE, D_SNAN}, {D_MAX, D_MAX, D_NINF},
  };
  for (unsigned i = 0; i < 2; i++) {
    ALL_RM(F_TER, "fmadd.s", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ALL_RM(F_TER, "fmsub.s", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ALL_RM(F_TER, "fnmadd.s", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ALL_RM(F_TER, "fnmsub.s", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ALL_RM(F_TER, "fmadd.d", d_fma[i].a, d_fma[i].b, d_fma[i].c);
    ALL_RM(F_TER, "fmsub.d", d_fma[i].a, d_fma[i].b, d_fma[i].c);
    ALL_RM(F_TER, "fnmadd.d", d_fma[i].a, d_fma[i].b, d_fma[i].c);
    ALL_RM(F_TER, "fnmsub.d", d_fma[i].a, d_fma[i].b, d_fma[i].c);
  }
  for (unsigned i = 2; i < ARRAY_SIZE(s_fma); i++) {
    ONE(F_TER, "fmadd.s", "", "", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ONE(F_TER, "fmsub.s", "", "", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ONE(F_TER, "fnmadd.s", "", "", s_fma[i].a, s_fma[i].b, s_fma[i].c);
    ONE(F_TER, "fnmsub.s", "", "", s_fma[i].a, s_fma[i].b, s_fma[i].c);
  }
  for (unsigned i = 2; i < ARRAY_SIZE(d_fma); i++) {
    ONE(F_TER, "fmadd.d", "", "", d_fma[i].a, d_fma[i].b, d_fma[i].c);
    ONE(F_TER, "fmsub.d", "", "", d_fma[i].a, d_fma[i].b, d_fma[i].c);
    ONE(F_TER, "fnmadd.d", "", "", d_fma[i].a, d_fma[i].b, d_fma[i].c);
    ONE(F_TER, "fnmsub.d", "", "", d_fma[i].a, d_fma[i].b, d_fma[i].c);
  }
}

static void to_int(void) {
  // Fractions under every mode; then saturation and NaN/inf handling.
  static const uint64_t s_frac[] = {BOX(0x3fc00000), BOX(0x40200000), BOX(0xbfc00000), BOX(0xbf000000)};
  static const uint64_t s_sat[] = {S_QNANP, S_SNAN, S_NQNAN, S_INF, S_NINF, S_NZERO, BOX(0x4f000000) /* 2^31 */,
                                   BOX(0xcf000000) /* -2^31 */, BOX(0x4f800000) /* 2^32 */,
                                   BOX(0x5f000000) /* 2^63 */, BOX(0xdf000000) /* -2^63 */,
                                   BOX(0x5f800000) /* 2^64 */, S_NONE, S_UNBOXED};
  static const uint64_t d_frac[] = {0x3ff8000000000000ull, 0x4004000000000000ull, 0xbff8000000000000ull,
                                    0xbfe0000000000000ull};
  static const uint64_t d_sat[] = {D_QNANP, D_SNAN, D_NQNAN, D_INF, D_NINF, D_NZERO,
                                   0x41dfffffffc00000ull /* 2^31-1 */, 0x41e0000000000000ull /* 2^31 */,
                                   0xc1e0000000000000ull /* -2^31 */, 0xc1e0000000200000ull /* -2^31-1 */,
                                   0x41f0000000000000ull /* 2^32 */, 0x43e0000000000000ull /* 2^63 */,
                                   0xc3e0000000000000ull /* -2^63 */, 0x43f0000000000000ull /* 2^64 */, D_NONE};
  for (unsigned i = 0; i < ARRAY_SIZE(s_frac); i++) {
    ALL_RM(F_TOINT, "fcvt.w.s", s_frac[i], 0ull, 0ull); ALL_RM(F_TOINT, "fcvt.wu.s", s_frac[i], 0ull, 0ull);
    ALL_RM(F_TOINT, "fcvt.l.s", s_frac[i], 0ull, 0ull); ALL_RM(F_TOINT, "fcvt.lu.s", s_frac[i], 0ull, 0ull);
    ALL_RM(F_TOINT, "fcvt.w.d", d_frac[i], 0ull, 0ull); ALL_RM(F_TOINT, "fcvt.wu.d", d_frac[i], 0ull, 0ull);
    ALL_RM(F_TOINT, "fcvt.l.d", d_frac[i], 0ull, 0ull); ALL_RM(F_TOINT, "fcvt.lu.d", d_frac[i], 0ull, 0ull);
  }
  for (unsigned i = 0; i < ARRAY_SIZE(s_sat); i++) {
    ONE(F_TOINT, "fcvt.w.s", ", rtz", ".rtz", s_sat[i], 0ull, 0ull);
    ONE(F_TOINT, "fcvt.wu.s", ", rtz", ".rtz", s_sat[i], 0ull, 0ull);
    ONE(F_TOINT, "fcvt.l.s", ", rtz", ".rtz", s_sat[i], 0ull, 0ull);
    ONE(F_TOINT, "fcvt.lu.s", ", rtz", ".rtz", s_sat[i], 0ull, 0ull);
  }
  for (unsigned i = 0; i < ARRAY_SIZE(d_sat); i++) {
    ONE(F_TOINT, "fcvt.w.d", ", rtz", ".rtz", d_sat[i], 0ull, 0ull);
    ONE(F_TOINT, "fcvt.wu.d", ", rtz", ".rtz", d_sat[i], 0ull, 0ull);
    ONE(F_TOINT, "fcvt.l.d", ", rtz", ".rtz", d_sat[i], 0ull, 0ull);
    ONE(F_TOINT, "fcvt.lu.d", ", rtz", ".rtz", d_sat[i], 0ull, 0ull);
  }
}

static void from_int_and_between(void) {
  static const uint64_t ints[] = {0, 1, 0xffffffffffffffffull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                  0x000000007fffffffull, 0x00000000ffffffffull, 0x0000000001000001ull,
                                  0xffffffff80000001ull};
  for (unsigned i = 0; i < ARRAY_SIZE(ints); i++) {
    ALL_RM(F_FROMINT, "fcvt.s.w", ints[i], 0ull, 0ull); ALL_RM(F_FROMINT, "fcvt.s.wu", ints[i], 0ull, 0ull);
    ALL_RM(F_FROMINT, "fcvt.s.l", ints[i], 0ull, 0ull); ALL_RM(F_FROMINT, "fcvt.s.lu", ints[i], 0ull, 0ull);
    ONE(F_FROMINT, "fcvt.d.w", "", "", ints[i], 0ull, 0ull); ONE(F_FROMINT, "fcvt.d.wu", "", "", ints[i], 0ull, 0ull);
    ALL_RM(F_FROMINT, "fcvt.d.l", ints[i], 0ull, 0ull); ALL_RM(F_FROMINT, "fcvt.d.lu", ints[i], 0ull, 0ull);
  }
  static const uint64_t d2s[] = {0x3ff0000010000000ull /* 1 + 2^-24 (tie) */, 0x3ff0000018000000ull, 0xbff0000018000000ull,
                                 0x7e37e43c8800759cull /* 1e300 */, 0x0000000000000001ull, D_QNANP, D_SNAN, D_NINF,
                                 D_NZERO, 0x380fffffffffffffull /* just below min normal single */};
  for (unsigned i = 0; i < ARRAY_SIZE(d2s); i++) ALL_RM(F_UN, "fcvt.s.d", d2s[i], 0ull, 0ull);
  static const uint64_t s2d[] = {S_QNANP, S_SNAN, S_NQNAN, S_NINF, S_NZERO, S_SUB, S_MAX, S_UNBOXED, S_HALFBOX};
  for (unsigned i = 0; i < ARRAY_SIZE(s2d); i++) ONE(F_UN, "fcvt.d.s", "", "", s2d[i], 0ull, 0ull);
}

static void classify_move_loadstore(void) {
  static const uint64_t s_cls[] = {S_NINF, S_NONE, BOX(0x80000001), S_NZERO, S_ZERO, S_SUB, S_ONE, S_INF,
                                   S_SNAN, S_QNANP, S_UNBOXED};
  static const uint64_t d_cls[] = {D_NINF, D_NONE, 0x8000000000000001ull, D_NZERO, D_ZERO, D_SUB, D_ONE, D_INF,
                                   D_SNAN, D_QNANP};
  for (unsigned i = 0; i < ARRAY_SIZE(s_cls); i++) ONE(F_TOINT, "fclass.s", "", "", s_cls[i], 0ull, 0ull);
  for (unsigned i = 0; i < ARRAY_SIZE(d_cls); i++) ONE(F_TOINT, "fclass.d", "", "", d_cls[i], 0ull, 0ull);
  static const uint64_t mv[] = {S_ONE, BOX(0x80000000), S_UNBOXED, 0x123456789abcdef0ull, S_SNAN};
  for (unsigned i = 0; i < ARRAY_SIZE(mv); i++) {
    ONE(F_TOINT, "fmv.x.w", "", "", mv[i], 0ull, 0ull);
    ONE(F_TOINT, "fmv.x.d", "", "", mv[i], 0ull, 0ull);
    ONE(F_FROMINT, "fmv.w.x", "", "", mv[i], 0ull, 0ull);
    ONE(F_FROMINT, "fmv.d.x", "", "", mv[i], 0ull, 0ull);
  }
  // flw NaN-boxes; fsw stores the low 32 bits whatever the box; fld/fsd move 64 bits.
  static volatile uint64_t mem[2];
  uint64_t r;
  mem[0] = 0x7f800001deadbeefull;
  __asm__ volatile("flw ft0, 4(%1)\n fmv.x.d %0, ft0" : "=r"(r) : "r"(mem) : "ft0", "memory");
  sig("flw snan", r);
  __asm__ volatile("fld ft0, 0(%1)\n fmv.x.d %0, ft0" : "=r"(r) : "r"(mem) : "ft0", "memory");
  sig("fld", r);
  __asm__ volatile("fmv.d.x ft0, %0\n fsw ft0, 8(%1)" ::"r"(S_UNBOXED | 0x1122334400000000ull), "r"(mem)
                   : "ft0", "memory");
  sig("fsw unboxed", mem[1]);
  __asm__ volatile("fmv.d.x ft0, %0\n fsd ft0, 8(%1)" ::"r"(S_ONE), "r"(mem) : "ft0", "memory");
  sig("fsd boxed single", mem[1]);
}

static void fflags_accrue(void) {
  // Flags accumulate across instructions until cleared; fcsr = frm << 5 | fflags.
  uint64_t f, csr;
  __asm__ volatile(
      "csrwi fflags, 0\n fmv.d.x ft0, %2\n fmv.d.x ft1, %3\n fdiv.d ft2, ft0, ft1\n"
      "fmv.d.x ft1, %4\n fadd.d ft2, ft1, ft1\n frflags %0\n fsrmi 2\n frcsr %1\n fsrmi 0\n csrwi fflags, 0"
      : "=&r"(f), "=&r"(csr) : "r"(D_ONE), "r"(D_ZERO), "r"(D_MAX) : "ft0", "ft1", "ft2");
  sig("accrued fflags (DZ then OF|NX)", f);
  sig("fcsr", csr);
}

int main(int hart) {
  sig_begin("rv_fp");
  arith();
  minmax_sgnj_cmp();
  sqrt_fma();
  to_int();
  from_int_and_between();
  classify_move_loadstore();
  fflags_accrue();
  sig_end();
  return 0;
}
