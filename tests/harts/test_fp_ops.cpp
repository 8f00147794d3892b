// The FP operations' flags when the caller's flags already hold some (the
// guest's accrued flags, which let fp_ops.cpp skip MXCSR accesses): every
// other flag an operation raises is still reported, a flag an earlier
// operation left in the host is not, and results and flags equal those of the
// same operation with no flags held.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "fp_ops.h"

namespace {

using namespace avp::rv::fp;

// Namespace scope: the cases' captureless lambdas read them.
const double b_big = std::numeric_limits<double>::max(), b_tiny = std::numeric_limits<double>::min();
const double b_inf = std::numeric_limits<double>::infinity();

TEST(FpFlags, AccruedInexactDoesNotHideOtherFlags) {
  struct Case {
    const char* what;
    uint64_t (*op)(uint32_t&);
    uint32_t raised;
  };
  const Case cases[] = {
      {"max * max overflows", [](uint32_t& f) { return f64_bin(BinOp::Mul, bits_of(b_big), bits_of(b_big), RNE, f); }, OF | NX},
      {"min * 0.3 underflows", [](uint32_t& f) { return f64_bin(BinOp::Mul, bits_of(b_tiny), bits_of(0.3), RNE, f); }, UF | NX},
      {"0 / 0 is invalid", [](uint32_t& f) { return f64_bin(BinOp::Div, bits_of(0.0), bits_of(0.0), RNE, f); }, NV},
      {"1 / 0 divides by zero", [](uint32_t& f) { return f64_bin(BinOp::Div, bits_of(1.0), bits_of(0.0), RNE, f); }, DZ},
      {"inf - inf is invalid", [](uint32_t& f) { return f64_bin(BinOp::Sub, bits_of(b_inf), bits_of(b_inf), RNE, f); }, NV},
      {"sqrt(-1) is invalid", [](uint32_t& f) { return f64_sqrt(bits_of(-1.0), RNE, f); }, NV},
      {"fma overflows", [](uint32_t& f) { return f64_fma(bits_of(b_big), bits_of(2.0), bits_of(1.0), false, false, RNE, f); }, OF | NX},
      {"f32 max * 2 overflows",
       [](uint32_t& f) -> uint64_t {
         return f32_bin(BinOp::Mul, bits_of(std::numeric_limits<float>::max()), bits_of(2.0f), RNE, f);
       },
       OF | NX},
      {"f64 -> f32 overflows", [](uint32_t& f) -> uint64_t { return f64_to_f32(bits_of(1e300), RNE, f); }, OF | NX},
  };
  for (const Case& c : cases) {
    uint32_t none = 0, accrued = NX;
    const uint64_t r0 = c.op(none), r1 = c.op(accrued);
    EXPECT_EQ(none, c.raised) << c.what;
    EXPECT_EQ(accrued, c.raised | NX) << c.what;
    EXPECT_EQ(r0, r1) << c.what;
  }
}

TEST(FpFlags, AFlagLeftInTheHostIsNotReportedLater) {
  uint32_t f = 0;
  f64_bin(BinOp::Mul, bits_of(std::numeric_limits<double>::max()), bits_of(2.0), RNE, f);  // leaves OF, NX in the host
  ASSERT_EQ(f, OF | NX);
  uint32_t exact = 0;
  f64_bin(BinOp::Add, bits_of(1.0), bits_of(2.0), RNE, exact);
  EXPECT_EQ(exact, 0u);
  f64_bin(BinOp::Mul, bits_of(std::numeric_limits<double>::max()), bits_of(2.0), RNE, f);
  uint32_t accrued = NX;  // NX may be reported again, OF must not be
  f64_bin(BinOp::Add, bits_of(1.0), bits_of(2.0), RNE, accrued);
  EXPECT_EQ(accrued, static_cast<uint32_t>(NX));
}

// Random operands over the whole exponent range (subnormals, overflow,
// cancellation) in every rounding mode: with NX held, the same result and the
// same flags besides NX.
TEST(FpFlags, AccruedFlagsGiveTheSameResultsAndFlags) {
  std::mt19937_64 rng(7);
  auto operand = [&]() -> uint64_t {
    const uint64_t sign = rng() & (1ull << 63), mant = rng() & ((1ull << 52) - 1);
    const uint64_t exp = (rng() % 8 == 0) ? rng() % 0x800 : 1023 - 40 + rng() % 80;  // mostly near 1, sometimes anywhere
    return sign | exp << 52 | mant;
  };
  for (int i = 0; i < 200000; ++i) {
    const uint64_t a = operand(), b = operand(), c = operand();
    const Rm rm = static_cast<Rm>(rng() % 5);
    const BinOp op = static_cast<BinOp>(rng() % 4);
    uint32_t f0 = 0, f1 = NX;
    ASSERT_EQ(f64_bin(op, a, b, rm, f0), f64_bin(op, a, b, rm, f1)) << i;
    ASSERT_EQ(f0 | NX, f1) << "bin " << i << " rm " << rm;
    f0 = 0, f1 = NX;
    ASSERT_EQ(f64_fma(a, b, c, false, false, rm, f0), f64_fma(a, b, c, false, false, rm, f1)) << i;
    ASSERT_EQ(f0 | NX, f1) << "fma " << i << " rm " << rm;
    f0 = 0, f1 = NX;
    ASSERT_EQ(f64_to_f32(a, rm, f0), f64_to_f32(a, rm, f1)) << i;
    ASSERT_EQ(f0 | NX, f1) << "cvt " << i << " rm " << rm;
  }
}

}  // namespace
