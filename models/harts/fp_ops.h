// IEEE-754 arithmetic with RISC-V semantics on top of the host FPU: rounding
// modes through MXCSR (round-to-nearest-max-magnitude is derived from
// round-to-nearest-even with an exact tie test), flags from the host's
// exception flags, canonical NaNs, and the RISC-V rules for min/max,
// comparisons, classification and saturating conversions.
#pragma once
#include <cstdint>
#include <cstring>

namespace avp::rv::fp {

enum Rm : unsigned { RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4 };
enum Flag : uint32_t { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };

constexpr uint32_t kCanonicalNaN32 = 0x7FC00000u;
constexpr uint64_t kCanonicalNaN64 = 0x7FF8000000000000ull;

enum class BinOp { Add, Sub, Mul, Div };

// The bits of a host value, as the operations take them.
inline uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
inline uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// Each returns the result bits and ORs the raised flags into `flags`. Flags
// `flags` holds already (the guest's accrued ones) may be reported again: that
// lets the operation skip MXCSR accesses.
uint32_t f32_bin(BinOp op, uint32_t a, uint32_t b, Rm rm, uint32_t& flags);
uint64_t f64_bin(BinOp op, uint64_t a, uint64_t b, Rm rm, uint32_t& flags);
uint32_t f32_sqrt(uint32_t a, Rm rm, uint32_t& flags);
uint64_t f64_sqrt(uint64_t a, Rm rm, uint32_t& flags);
// a * b + c with the sign options of FMADD/FMSUB/FNMSUB/FNMADD.
uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, bool neg_product, bool neg_addend, Rm rm, uint32_t& flags);
uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, bool neg_product, bool neg_addend, Rm rm, uint32_t& flags);

uint32_t f32_minmax(uint32_t a, uint32_t b, bool max, uint32_t& flags);
uint64_t f64_minmax(uint64_t a, uint64_t b, bool max, uint32_t& flags);
// 0 eq, 1 lt, 2 le (eq is quiet, lt/le signal on any NaN).
uint64_t f32_cmp(uint32_t a, uint32_t b, int kind, uint32_t& flags);
uint64_t f64_cmp(uint64_t a, uint64_t b, int kind, uint32_t& flags);
uint64_t f32_class(uint32_t a);
uint64_t f64_class(uint64_t a);

// Float to integer: width 32/64, is_unsigned; result sign-extended to 64 bits.
uint64_t f32_to_int(uint32_t a, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags);
uint64_t f64_to_int(uint64_t a, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags);
// Integer (width 32/64, signed or not) to float.
uint32_t int_to_f32(uint64_t v, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags);
uint64_t int_to_f64(uint64_t v, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags);
uint32_t f64_to_f32(uint64_t a, Rm rm, uint32_t& flags);
uint64_t f32_to_f64(uint32_t a, uint32_t& flags);

}  // namespace avp::rv::fp
