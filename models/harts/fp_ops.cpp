#include "fp_ops.h"

#include <xmmintrin.h>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>

// This file must be compiled with -frounding-math so that the compiler keeps
// every operation after the MXCSR write that precedes it.

namespace avp::rv::fp {
namespace {

template <typename To, typename From>
To bits_as(From f) {
  To t;
  static_assert(sizeof(To) == sizeof(From));
  std::memcpy(&t, &f, sizeof(t));
  return t;
}
float f32(uint32_t b) { return bits_as<float>(b); }
double f64(uint64_t b) { return bits_as<double>(b); }

bool is_snan32(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) && !(b & 0x00400000u); }
bool is_snan64(uint64_t b) {
  return (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (b & 0x000FFFFFFFFFFFFFull) && !(b & 0x0008000000000000ull);
}

// The host's SSE control/status register holds the rounding mode (bits 14:13)
// and the sticky exception flags (bits 5:0). Setting and reading it directly
// costs a few cycles, where <cfenv> also resets the x87 unit on every call.
unsigned mxcsr_mode(Rm rm) {
  switch (rm) {
    case RTZ: return 3u << 13;
    case RDN: return 1u << 13;
    case RUP: return 2u << 13;
    default: return 0;
  }
}

// MXCSR exception-flag bits and the RISC-V flags they stand for (DE, bit 1, has none).
constexpr struct {
  unsigned host;
  uint32_t guest;
} kFlagBits[] = {{0x01, NV}, {0x04, DZ}, {0x08, OF}, {0x10, UF}, {0x20, NX}};

unsigned host_flags(uint32_t guest) {
  unsigned host = 0;
  for (const auto& b : kFlagBits)
    if (guest & b.guest) host |= b.host;
  return host;
}
uint32_t guest_flags(unsigned host) {
  uint32_t guest = 0;
  for (const auto& b : kFlagBits)
    if (host & b.host) guest |= b.guest;
  return guest;
}

// One operation in the guest's rounding mode, its flags ORed into `flags`.
// Between operations the host is in round-to-nearest and its flags are left
// as the last operation raised them: writing MXCSR costs far more than
// reading it, so it is written only to change the mode or to clear a host
// flag that `flags` does not already hold (such a flag, left set, would be
// reported again, which changes nothing: `flags` has it).
template <typename F, typename Op>
F in_host_mode(Rm rm, uint32_t& flags, Op op) {
  if (rm == RNE && (flags & NX)) {
    // Round-to-nearest with NX held: a finite result of normal magnitude (not
    // near the smallest normals, where tininess is decided) can only have
    // raised NX (OF gives an infinity, NV a NaN, DZ an infinity, UF a tiny
    // result), so the flags need not be read at all; otherwise the
    // operation runs again below, with them read.
    const F r = op();
    if (std::isfinite(r) && std::fabs(r) >= 2 * std::numeric_limits<F>::min()) return r;
  }
  const unsigned csr = _mm_getcsr(), mode = mxcsr_mode(rm);
  if ((csr & 0x6000u) != mode || (csr & 0x3Fu & ~host_flags(flags))) _mm_setcsr((csr & ~(0x6000u | 0x3Fu)) | mode);
  F r = op();
  asm volatile("" : "+x"(r));  // computed before the flags are read: the compiler may sink it past a plain MXCSR read
  const unsigned e = _mm_getcsr();
  flags |= guest_flags(e);
  if (e & 0x6000u) _mm_setcsr(e & ~0x6000u);
  return r;
}

// Whether the exact sum of `terms` is zero, by Shewchuk's grow-expansion: each
// TwoSum is error-free in round-to-nearest, so the expansion is exact.
bool exact_sum_is_zero(std::initializer_list<long double> terms) {
  long double e[8];
  int n = 0;
  for (long double t : terms) {
    long double q = t;
    int m = 0;
    for (int i = 0; i < n; ++i) {
      const long double s = q + e[i];
      const long double bv = s - q;
      const long double err = (q - (s - bv)) + (e[i] - bv);
      if (err != 0) e[m++] = err;
      q = s;
    }
    if (q != 0) e[m++] = q;
    n = m;
  }
  return n == 0;
}

// a * b as an exact pair hi + lo (the remainder of a 64-bit product fits).
void exact_product(long double a, long double b, long double& hi, long double& lo) {
  hi = a * b;
  lo = std::fmal(a, b, -hi);
}

template <typename F>
F next_away(F r) {
  return std::nextafter(r, std::signbit(r) ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity());
}

// Round-to-nearest, ties to max magnitude: equal to round-to-nearest-even
// except at exact ties that RNE resolved toward zero. `exact_is` tells whether
// the exact result equals a given (wider) value.
template <typename F, typename TieTest>
F apply_rmm(F rne, F rtz, TieTest exact_is) {
  if (rne != rtz || std::isnan(rne) || std::isinf(rne)) return rne;  // RNE already rounded away (or no rounding)
  const F away = next_away(rtz);
  if (std::isinf(away)) return rne;  // at the largest finite value a tie already went to infinity under RNE
  const long double m = (static_cast<long double>(rtz) + static_cast<long double>(away)) / 2;
  return exact_is(m) ? away : rne;
}

template <typename F, typename Op, typename TieTest>
F rounded(Rm rm, uint32_t& flags, Op op, TieTest tie) {
  if (rm != RMM) return in_host_mode<F>(rm, flags, op);
  const F rne = in_host_mode<F>(RNE, flags, op);
  uint32_t ignored = 0;
  const F rtz = in_host_mode<F>(RTZ, ignored, op);
  return apply_rmm(rne, rtz, tie);
}

uint32_t canon32(float r) { return std::isnan(r) ? kCanonicalNaN32 : bits_as<uint32_t>(r); }
uint64_t canon64(double r) { return std::isnan(r) ? kCanonicalNaN64 : bits_as<uint64_t>(r); }

}  // namespace

uint32_t f32_bin(BinOp op, uint32_t ab, uint32_t bb, Rm rm, uint32_t& flags) {
  const float a = f32(ab), b = f32(bb);
  auto fn = [&]() -> float {
    volatile float x = a, y = b;
    switch (op) {
      case BinOp::Add: return x + y;
      case BinOp::Sub: return x - y;
      case BinOp::Mul: return x * y;
      default: return x / y;
    }
  };
  auto tie = [&](long double m) {
    const double da = a, db = b, dm = static_cast<double>(m);
    switch (op) {
      case BinOp::Add: return da + db == dm;
      case BinOp::Sub: return da - db == dm;
      case BinOp::Mul: return da * db == dm;
      default: return dm * db == da;
    }
  };
  return canon32(rounded<float>(rm, flags, fn, tie));
}

uint64_t f64_bin(BinOp op, uint64_t ab, uint64_t bb, Rm rm, uint32_t& flags) {
  const double a = f64(ab), b = f64(bb);
  auto fn = [&]() -> double {
    volatile double x = a, y = b;
    switch (op) {
      case BinOp::Add: return x + y;
      case BinOp::Sub: return x - y;
      case BinOp::Mul: return x * y;
      default: return x / y;
    }
  };
  auto tie = [&](long double m) {
    const long double la = a, lb = b;
    switch (op) {
      case BinOp::Add: return exact_sum_is_zero({la, lb, -m});
      case BinOp::Sub: return exact_sum_is_zero({la, -lb, -m});
      case BinOp::Mul: return std::fmal(la, lb, -m) == 0;
      default: return std::fmal(m, lb, -la) == 0;
    }
  };
  return canon64(rounded<double>(rm, flags, fn, tie));
}

uint32_t f32_sqrt(uint32_t ab, Rm rm, uint32_t& flags) {
  const float a = f32(ab);
  auto fn = [&]() -> float { volatile float x = a; return std::sqrt(static_cast<float>(x)); };
  auto tie = [&](long double m) { const double dm = static_cast<double>(m); return dm * dm == static_cast<double>(a); };
  return canon32(rounded<float>(rm, flags, fn, tie));
}

uint64_t f64_sqrt(uint64_t ab, Rm rm, uint32_t& flags) {
  const double a = f64(ab);
  auto fn = [&]() -> double { volatile double x = a; return std::sqrt(static_cast<double>(x)); };
  auto tie = [&](long double m) { return std::fmal(m, m, -static_cast<long double>(a)) == 0; };
  return canon64(rounded<double>(rm, flags, fn, tie));
}

uint32_t f32_fma(uint32_t ab, uint32_t bb, uint32_t cb, bool neg_product, bool neg_addend, Rm rm, uint32_t& flags) {
  float a = f32(ab), b = f32(bb), c = f32(cb);
  if (neg_product) a = -a;
  if (neg_addend) c = -c;
  if ((std::isinf(a) && b == 0) || (a == 0 && std::isinf(b))) {
    flags |= NV;  // inf x 0 is invalid even when the addend is a quiet NaN
    return kCanonicalNaN32;
  }
  auto fn = [&]() -> float { volatile float x = a, y = b, z = c; return std::fmaf(x, y, z); };
  auto tie = [&](long double m) { return exact_sum_is_zero({static_cast<long double>(a) * b, c, -m}); };
  return canon32(rounded<float>(rm, flags, fn, tie));
}

uint64_t f64_fma(uint64_t ab, uint64_t bb, uint64_t cb, bool neg_product, bool neg_addend, Rm rm, uint32_t& flags) {
  double a = f64(ab), b = f64(bb), c = f64(cb);
  if (neg_product) a = -a;
  if (neg_addend) c = -c;
  if ((std::isinf(a) && b == 0) || (a == 0 && std::isinf(b))) {
    flags |= NV;
    return kCanonicalNaN64;
  }
  auto fn = [&]() -> double { volatile double x = a, y = b, z = c; return std::fma(x, y, z); };
  auto tie = [&](long double m) {
    long double hi, lo;
    exact_product(a, b, hi, lo);
    return exact_sum_is_zero({hi, lo, c, -m});
  };
  return canon64(rounded<double>(rm, flags, fn, tie));
}

uint32_t f32_minmax(uint32_t ab, uint32_t bb, bool max, uint32_t& flags) {
  if (is_snan32(ab) || is_snan32(bb)) flags |= NV;
  const float a = f32(ab), b = f32(bb);
  if (std::isnan(a) && std::isnan(b)) return kCanonicalNaN32;
  if (std::isnan(a)) return bb;
  if (std::isnan(b)) return ab;
  if (a == b) return (std::signbit(a) != max) ? ab : bb;  // -0 < +0
  return ((a < b) != max) ? ab : bb;
}

uint64_t f64_minmax(uint64_t ab, uint64_t bb, bool max, uint32_t& flags) {
  if (is_snan64(ab) || is_snan64(bb)) flags |= NV;
  const double a = f64(ab), b = f64(bb);
  if (std::isnan(a) && std::isnan(b)) return kCanonicalNaN64;
  if (std::isnan(a)) return bb;
  if (std::isnan(b)) return ab;
  if (a == b) return (std::signbit(a) != max) ? ab : bb;
  return ((a < b) != max) ? ab : bb;
}

uint64_t f32_cmp(uint32_t ab, uint32_t bb, int kind, uint32_t& flags) {
  const float a = f32(ab), b = f32(bb);
  if (std::isnan(a) || std::isnan(b)) {
    if (kind != 0 || is_snan32(ab) || is_snan32(bb)) flags |= NV;
    return 0;
  }
  return kind == 0 ? a == b : kind == 1 ? a < b : a <= b;
}

uint64_t f64_cmp(uint64_t ab, uint64_t bb, int kind, uint32_t& flags) {
  const double a = f64(ab), b = f64(bb);
  if (std::isnan(a) || std::isnan(b)) {
    if (kind != 0 || is_snan64(ab) || is_snan64(bb)) flags |= NV;
    return 0;
  }
  return kind == 0 ? a == b : kind == 1 ? a < b : a <= b;
}

namespace {
template <typename F>
uint64_t classify(F a, bool snan) {
  const bool neg = std::signbit(a);
  switch (std::fpclassify(a)) {
    case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
    case FP_NORMAL: return neg ? 1u << 1 : 1u << 6;
    case FP_SUBNORMAL: return neg ? 1u << 2 : 1u << 5;
    case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
    default: return snan ? 1u << 8 : 1u << 9;
  }
}

// Rounds to an integral value in `rm` without raising flags.
long double round_integral(long double x, Rm rm) {
  switch (rm) {
    case RTZ: return std::trunc(x);
    case RDN: return std::floor(x);
    case RUP: return std::ceil(x);
    case RMM: return std::round(x);
    default: {
      long double r = std::round(x);
      if (std::fabs(x - std::trunc(x)) == 0.5L) r = 2 * std::round(x / 2);  // ties to even
      return r;
    }
  }
}

uint64_t to_int(long double x, bool nan, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags) {
  long double lo, hi;  // representable range
  if (is_unsigned) {
    lo = 0;
    hi = width == 32 ? 4294967295.0L : 18446744073709551615.0L;
  } else {
    lo = width == 32 ? -2147483648.0L : -9223372036854775808.0L;
    hi = width == 32 ? 2147483647.0L : 9223372036854775807.0L;
  }
  auto saturate = [&](bool high) -> uint64_t {
    flags |= NV;
    if (is_unsigned) return high ? (width == 32 ? ~0ull : ~0ull) : 0;
    if (width == 32) return high ? 0x7FFFFFFFull : static_cast<uint64_t>(static_cast<int64_t>(INT32_MIN));
    return high ? 0x7FFFFFFFFFFFFFFFull : 0x8000000000000000ull;
  };
  if (nan) return saturate(true);
  if (std::isinf(x)) return saturate(x > 0);
  const long double r = round_integral(x, rm);
  if (r < lo || r > hi) return saturate(r > hi);
  if (r != x) flags |= NX;
  if (is_unsigned) {
    const uint64_t u = static_cast<uint64_t>(r);
    return width == 32 ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(u)))) : u;
  }
  return static_cast<uint64_t>(static_cast<int64_t>(r));
}
}  // namespace

uint64_t f32_class(uint32_t a) { return classify(f32(a), is_snan32(a)); }
uint64_t f64_class(uint64_t a) { return classify(f64(a), is_snan64(a)); }

uint64_t f32_to_int(uint32_t a, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags) {
  return to_int(f32(a), std::isnan(f32(a)), width, is_unsigned, rm, flags);
}

uint64_t f64_to_int(uint64_t a, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags) {
  return to_int(f64(a), std::isnan(f64(a)), width, is_unsigned, rm, flags);
}

namespace {
long double int_value(uint64_t v, unsigned width, bool is_unsigned) {
  if (width == 32) return is_unsigned ? static_cast<long double>(static_cast<uint32_t>(v)) : static_cast<int32_t>(v);
  return is_unsigned ? static_cast<long double>(v) : static_cast<long double>(static_cast<int64_t>(v));
}
// Integer to float with one SSE conversion, rounded in the current mode.
template <typename F>
F to_host_float(uint64_t v, unsigned width, bool is_unsigned) {
  volatile uint64_t x = v;
  if (width == 32) return is_unsigned ? static_cast<F>(static_cast<uint32_t>(x)) : static_cast<F>(static_cast<int32_t>(x));
  return is_unsigned ? static_cast<F>(static_cast<uint64_t>(x)) : static_cast<F>(static_cast<int64_t>(x));
}
}  // namespace

uint32_t int_to_f32(uint64_t v, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags) {
  const long double exact = int_value(v, width, is_unsigned);  // exact: 64-bit mantissa, for the tie test
  auto fn = [&]() -> float { return to_host_float<float>(v, width, is_unsigned); };
  return canon32(rounded<float>(rm, flags, fn, [&](long double m) { return exact == m; }));
}

uint64_t int_to_f64(uint64_t v, unsigned width, bool is_unsigned, Rm rm, uint32_t& flags) {
  const long double exact = int_value(v, width, is_unsigned);
  auto fn = [&]() -> double { return to_host_float<double>(v, width, is_unsigned); };
  return canon64(rounded<double>(rm, flags, fn, [&](long double m) { return exact == m; }));
}

uint32_t f64_to_f32(uint64_t ab, Rm rm, uint32_t& flags) {
  const double a = f64(ab);
  auto fn = [&]() -> float { volatile double x = a; return static_cast<float>(x); };
  return canon32(rounded<float>(rm, flags, fn, [&](long double m) { return static_cast<long double>(a) == m; }));
}

uint64_t f32_to_f64(uint32_t ab, uint32_t& flags) {
  if (is_snan32(ab)) flags |= NV;
  const float a = f32(ab);
  return canon64(static_cast<double>(a));
}

}  // namespace avp::rv::fp
