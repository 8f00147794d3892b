// F and D over pseudo-random operands: 500 vectors per instruction and
// static rounding mode, drawn from a deterministic generator that favours
// the hard cases (subnormals, exponent extremes, near-equal operands,
// integers, NaNs, infinities, zeros). One line per instruction and rounding
// mode: a hash of every (result, fflags) pair and the OR of all fflags.
// The golden values are QEMU's (softfloat); they are not reviewed by hand
// (rv_fp holds the reviewed cases) but accel-vp must reproduce them exactly.
// Build with -DRV_FP_RANDOM_VERBOSE to print every vector instead.
#include "sig.h"

#define VECTORS 500

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static uint64_t rand_d(uint64_t near) {
  uint64_t r = next(), sign = (r & 1) << 63, mant = next() & 0xfffffffffffffull;
  switch ((r >> 1) % 10) {
    case 0: return sign | mant;                                            // subnormal
    case 1: return sign | ((uint64_t)(0x7fe - (r >> 8) % 4) << 52) | mant;  // near overflow
    case 2: return sign | ((uint64_t)(1 + (r >> 8) % 4) << 52) | mant;      // near underflow
    case 3: return near ^ ((r >> 8) & 0xff);                               // close to the other operand
    case 4: {                                                              // specials
      static const uint64_t sp[] = {0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x7ff0000000000000ull, 0,
                                    0x3ff0000000000000ull, 0x7fefffffffffffffull};
      return sign | sp[(r >> 8) % 6];
    }
    case 5: return sign | ((uint64_t)(0x3ff + (r >> 8) % 64) << 52) | (mant & ~0xffffffffull);  // integers-ish
    default: return sign | ((uint64_t)(0x3ff - 40 + (r >> 8) % 80) << 52) | mant;              // ordinary
  }
}

static uint64_t rand_s(uint32_t near) {
  uint64_t r = next();
  uint32_t sign = (uint32_t)(r & 1) << 31, mant = (uint32_t)next() & 0x7fffff, v;
  switch ((r >> 1) % 10) {
    case 0: v = sign | mant; break;
    case 1: v = sign | ((0xfe - (uint32_t)(r >> 8) % 4) << 23) | mant; break;
    case 2: v = sign | ((1 + (uint32_t)(r >> 8) % 4) << 23) | mant; break;
    case 3: v = near ^ (uint32_t)((r >> 8) & 0xff); break;
    case 4: {
      static const uint32_t sp[] = {0x7fc00000, 0x7f800001, 0x7f800000, 0, 0x3f800000, 0x7f7fffff};
      v = sign | sp[(r >> 8) % 6];
      break;
    }
    case 5: v = sign | ((0x7f + (uint32_t)(r >> 8) % 32) << 23) | (mant & ~0xffffu); break;
    default: v = sign | ((0x7f - 20 + (uint32_t)(r >> 8) % 40) << 23) | mant; break;
  }
  return 0xffffffff00000000ull | v;
}

static uint64_t rand_int(void) {
  uint64_t r = next();
  switch (r % 4) {
    case 0: return next();
    case 1: return (uint64_t)(int64_t)(int32_t)next();
    case 2: return next() >> (r >> 8) % 64;
    default: return (uint64_t)-(int64_t)(next() >> (r >> 8) % 64);
  }
}

typedef struct { uint64_t hash, flags; } acc;
static void account(acc* a, const char* name, uint64_t x, uint64_t y, uint64_t z, uint64_t r, uint64_t f) {
#ifdef RV_FP_RANDOM_VERBOSE
  sigf(name, "", x, y, z, r, f);
#else
  (void)name, (void)x, (void)y, (void)z;
#endif
  a->hash = (a->hash ^ r) * 0x100000001b3ull;
  a->hash = (a->hash ^ f) * 0x100000001b3ull;
  a->flags |= f;
}

#define FP_RUN(body, a, b, c, r, f)                                                          \
  __asm__ volatile("fmv.d.x ft0, %2\n fmv.d.x ft1, %3\n fmv.d.x ft2, %4\n csrwi fflags, 0\n" \
                   body "\n frflags %1"                                                      \
                   : "=&r"(r), "=&r"(f)                                                      \
                   : "r"(a), "r"(b), "r"(c)                                                  \
                   : "ft0", "ft1", "ft2", "ft3")
#define F_BIN(insn, rm) insn " ft3, ft0, ft1" rm "\n fmv.x.d %0, ft3"
#define F_UN(insn, rm) insn " ft3, ft0" rm "\n fmv.x.d %0, ft3"
#define F_TER(insn, rm) insn " ft3, ft0, ft1, ft2" rm "\n fmv.x.d %0, ft3"
#define F_TOINT(insn, rm) insn " %0, ft0" rm
#define F_CMP(insn, rm) insn " %0, ft0, ft1" rm
#define F_FROMINT(insn, rm) insn " ft3, %2" rm "\n fmv.x.d %0, ft3"

// gen(i) yields operand i of a vector: 'd' double, 's' single, 'i' integer.
#define OPERAND(kind, near) ((kind) == 'd' ? rand_d(near) : (kind) == 's' ? rand_s((uint32_t)(near)) : rand_int())

#define RUN_RM(form, insn, rm, label, k0, k1, k2)                                    \
  do {                                                                               \
    acc a_ = {0xcbf29ce484222325ull, 0};                                             \
    rng = 0x2545f4914f6cdd1dull;                                                     \
    for (int v_ = 0; v_ < VECTORS; v_++) {                                           \
      uint64_t x_ = OPERAND(k0, 0), y_ = OPERAND(k1, x_), z_ = OPERAND(k2, y_), r_, f_; \
      FP_RUN(form(insn, rm), x_, y_, z_, r_, f_);                                    \
      account(&a_, insn label, x_, y_, z_, r_, f_);                                  \
    }                                                                                \
    printf("%s%s: %016llx %02llx\n", insn, label, (unsigned long long)a_.hash,       \
           (unsigned long long)a_.flags);                                            \
  } while (0)

#define ALL_RM(form, insn, k0, k1, k2)                          \
  do {                                                          \
    RUN_RM(form, insn, ", rne", ".rne", k0, k1, k2);            \
    RUN_RM(form, insn, ", rtz", ".rtz", k0, k1, k2);            \
    RUN_RM(form, insn, ", rdn", ".rdn", k0, k1, k2);            \
    RUN_RM(form, insn, ", rup", ".rup", k0, k1, k2);            \
    RUN_RM(form, insn, ", rmm", ".rmm", k0, k1, k2);            \
  } while (0)
#define NO_RM(form, insn, k0, k1, k2) RUN_RM(form, insn, "", "", k0, k1, k2)

int main(int hart) {
  sig_begin("rv_fp_random");
  ALL_RM(F_BIN, "fadd.s", 's', 's', 'i'); ALL_RM(F_BIN, "fsub.s", 's', 's', 'i');
  ALL_RM(F_BIN, "fmul.s", 's', 's', 'i'); ALL_RM(F_BIN, "fdiv.s", 's', 's', 'i');
  ALL_RM(F_UN, "fsqrt.s", 's', 'i', 'i');
  ALL_RM(F_TER, "fmadd.s", 's', 's', 's'); ALL_RM(F_TER, "fmsub.s", 's', 's', 's');
  ALL_RM(F_TER, "fnmadd.s", 's', 's', 's'); ALL_RM(F_TER, "fnmsub.s", 's', 's', 's');
  ALL_RM(F_BIN, "fadd.d", 'd', 'd', 'i'); ALL_RM(F_BIN, "fsub.d", 'd', 'd', 'i');
  ALL_RM(F_BIN, "fmul.d", 'd', 'd', 'i'); ALL_RM(F_BIN, "fdiv.d", 'd', 'd', 'i');
  ALL_RM(F_UN, "fsqrt.d", 'd', 'i', 'i');
  ALL_RM(F_TER, "fmadd.d", 'd', 'd', 'd'); ALL_RM(F_TER, "fmsub.d", 'd', 'd', 'd');
  ALL_RM(F_TER, "fnmadd.d", 'd', 'd', 'd'); ALL_RM(F_TER, "fnmsub.d", 'd', 'd', 'd');
  NO_RM(F_BIN, "fmin.s", 's', 's', 'i'); NO_RM(F_BIN, "fmax.s", 's', 's', 'i');
  NO_RM(F_BIN, "fmin.d", 'd', 'd', 'i'); NO_RM(F_BIN, "fmax.d", 'd', 'd', 'i');
  NO_RM(F_CMP, "feq.s", 's', 's', 'i'); NO_RM(F_CMP, "flt.s", 's', 's', 'i'); NO_RM(F_CMP, "fle.s", 's', 's', 'i');
  NO_RM(F_CMP, "feq.d", 'd', 'd', 'i'); NO_RM(F_CMP, "flt.d", 'd', 'd', 'i'); NO_RM(F_CMP, "fle.d", 'd', 'd', 'i');
  ALL_RM(F_TOINT, "fcvt.w.s", 's', 'i', 'i'); ALL_RM(F_TOINT, "fcvt.wu.s", 's', 'i', 'i');
  ALL_RM(F_TOINT, "fcvt.l.s", 's', 'i', 'i'); ALL_RM(F_TOINT, "fcvt.lu.s", 's', 'i', 'i');
  ALL_RM(F_TOINT, "fcvt.w.d", 'd', 'i', 'i'); ALL_RM(F_TOINT, "fcvt.wu.d", 'd', 'i', 'i');
  ALL_RM(F_TOINT, "fcvt.l.d", 'd', 'i', 'i'); ALL_RM(F_TOINT, "fcvt.lu.d", 'd', 'i', 'i');
  ALL_RM(F_FROMINT, "fcvt.s.w", 'i', 'i', 'i'); ALL_RM(F_FROMINT, "fcvt.s.wu", 'i', 'i', 'i');
  ALL_RM(F_FROMINT, "fcvt.s.l", 'i', 'i', 'i'); ALL_RM(F_FROMINT, "fcvt.s.lu", 'i', 'i', 'i');
  ALL_RM(F_FROMINT, "fcvt.d.l", 'i', 'i', 'i'); ALL_RM(F_FROMINT, "fcvt.d.lu", 'i', 'i', 'i');
  ALL_RM(F_UN, "fcvt.s.d", 'd', 'i', 'i');
  NO_RM(F_UN, "fcvt.d.s", 's', 'i', 'i');
  sig_end();
  return 0;
}
