// The F and D instructions translated code does itself (block_translator.h,
// InlineFp) in the states where it must leave them to the hart: loops of
// double loads, stores, moves, adds, multiplies, divisions, square roots,
// fused multiply-adds, comparisons, sign injections, classification and
// conversions (from and to signed and unsigned integers), and
// float arithmetic, run with mstatus.FS Initial, Clean and Dirty, with fflags clear (exact and
// inexact values: the first inexact result accrues NX) and with NX accrued,
// with frm rounding to nearest and toward zero (rm = dyn), and on values
// whose results are tiny, subnormal, infinite or NaN, and single-precision
// loads and stores (NaN-boxing). After each phase the hart prints a checksum
// of the results, fflags and mstatus.FS. translate_equivalence.py runs it
// translated and interpreted and requires the same output, simulated time
// and statistics.
#include <stdint.h>
#include <string.h>

#include "avp/device.h"

#define N 256

static double a[N], b[N], c[N];
static float s[N];

static uint64_t bits(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}

static void set_fs(unsigned fs) {
  __asm__ volatile("csrc mstatus, %0" ::"r"(3ul << 13));
  __asm__ volatile("csrs mstatus, %0" ::"r"((unsigned long)fs << 13));
}
static unsigned long fs(void) {
  unsigned long m;
  __asm__ volatile("csrr %0, mstatus" : "=r"(m));
  return (m >> 13) & 3;
}
static unsigned long fflags(void) {
  unsigned long f;
  __asm__ volatile("frflags %0" : "=r"(f));
  return f;
}

// The loops: loads, the operations, stores; each iteration a few blocks.
__attribute__((noinline)) void multiply_add(void) {
  for (int i = 0; i < N; i++) c[i] = a[i] * b[i] + c[i];
}
__attribute__((noinline)) void add_multiply(void) {
  for (int i = 0; i < N; i++) c[i] = (a[i] + b[i]) * (a[i] - b[i]);
}
__attribute__((noinline)) void negated_fused(void) {
  for (int i = 0; i < N; i++) c[i] = -(a[i] * b[i]) - c[i];
}
__attribute__((noinline)) void quotients_and_roots(void) {
  for (int i = 0; i < N; i++) {
    double r;
    __asm__("fsqrt.d %0, %1" : "=f"(r) : "f"(a[i] * a[i] + b[i]));  // negative at times: invalid
    c[i] = r + a[i] / b[i];                                           // b[i] is 0 at times: division by zero
  }
}
// fcvt.l.d and fcvt.w.d toward zero (NaN and huge values saturate: NV),
// flt.d, fle.d, feq.d, fsgnjx.d (fabs), fsgnj.d (copysign) and fmin.d.
__attribute__((noinline)) void compare_and_truncate(void) {
  for (int i = 0; i < N; i++) {
    const long t = (long)a[i];
    const int w = (int)b[i];
    const double m = a[i] < b[i] ? -__builtin_fabs(a[i]) : __builtin_copysign(b[i], a[i]);
    c[i] = m + (double)(t ^ w) * (a[i] <= c[i]) + (a[i] == b[i]) + __builtin_fmin(a[i], c[i]);
  }
}
__attribute__((noinline)) void from_integers(long k) {
  for (int i = 0; i < N; i++) c[i] = (double)(int)(i * k) + (double)(long)(i * k * 1000003);
}
// fcvt.lu.d and fcvt.wu.d toward zero (negative and huge values saturate:
// NV; between -1 and 0: NX only), fcvt.d.lu of values up to 2^64 (beyond
// 2^53: NX; from 2^63 on: the hart's), fcvt.d.wu and fcvt.s.wu.
__attribute__((noinline)) void unsigned_casts(unsigned long k) {
  for (int i = 0; i < N; i++) {
    const unsigned long t = (unsigned long)a[i];
    const unsigned w = (unsigned)b[i];
    const unsigned long wide = (unsigned long)i * k << 55;
    c[i] = (double)(t ^ w) + (double)wide + (double)(unsigned)(i * k) + (float)(unsigned)(i * k * 16777259u);
  }
}
__attribute__((noinline)) void widen_floats(void) {
  for (int i = 0; i < N; i++) s[i] = s[i] * 0.5f + (float)i;
}
// Float arithmetic, comparisons and casts on the doubles' values narrowed
// (tiny, huge, NaN), divided by 0 at times.
__attribute__((noinline)) void float_arithmetic(void) {
  for (int i = 0; i < N; i++) {
    const float x = (float)a[i], y = (float)b[i];
    float r;
    __asm__("fsqrt.s %0, %1" : "=f"(r) : "f"(x * y - s[i]));
    s[i] = (x + y) * (x - y) / (float)(i % 7) + r - x * x * 0.25f;
    c[i] = (double)s[i] + (double)(int)x + (double)(long)y + (x < y) + (x == s[i]) - __builtin_fabsf(y) +
           __builtin_fmaxf(x, -y);
  }
}

static uint64_t hash = 1469598103934665603ull;

// Each loop's results go into the hash (FNV-1a over their bits and their fclass).
static void mix(void) {
  for (int i = 0; i < N; i++) {
    unsigned long k;
    __asm__("fclass.d %0, %1" : "=r"(k) : "f"(c[i]));
    hash = (hash ^ bits(c[i]) ^ k << 54) * 1099511628211ull;
  }
  for (int i = 0; i < N; i++) {
    uint32_t u;
    unsigned long k;
    memcpy(&u, &s[i], sizeof u);
    __asm__("fclass.s %0, %1" : "=r"(k) : "f"(s[i]));
    hash = (hash ^ u ^ k << 32) * 1099511628211ull;
  }
}

static void report(const char* phase) {
  avp_printf("fp_inline %s: %016lx fflags %lx fs %lu\n", phase, (unsigned long)hash, fflags(), fs());
}

static void fill(double scale, double offset) {
  for (int i = 0; i < N; i++) {
    a[i] = (double)(i - N / 2) * scale + offset;
    b[i] = (double)(3 * i % 17) * scale - offset;
    c[i] = (double)(i % 5) / 4;
    s[i] = (float)i / 8;
  }
}

static void phases(const char* state) {
  char name[48];
  static const struct {
    const char* name;
    double scale, offset;
  } kValues[] = {
      {"exact", 0.125, 0.5},        // dyadic: every result exact
      {"inexact", 0.1, 1.0 / 3},    // the first result accrues NX
      {"tiny", 0x1p-1030, 0x1p-1040},  // subnormal and near-normal products
      {"huge", 0x1p1000, 0x1p1010},    // products overflow
  };
  for (unsigned v = 0; v < sizeof kValues / sizeof kValues[0]; v++) {
    __asm__ volatile("csrw fflags, zero");
    fill(kValues[v].scale, kValues[v].offset);
    if (v == 3) a[7] = __builtin_nan("");
    multiply_add();
    mix();
    add_multiply();
    mix();
    negated_fused();
    mix();
    quotients_and_roots();
    mix();
    compare_and_truncate();
    mix();
    from_integers(v + 3);
    mix();
    unsigned_casts(v + 3);
    mix();
    widen_floats();
    mix();
    float_arithmetic();
    mix();
    strcpy(name, state);
    strcat(name, " ");
    strcat(name, kValues[v].name);
    report(name);
  }
}

int main(int hart) {
  if (hart) return 0;
  set_fs(3);
  phases("dirty");
  __asm__ volatile("fsrmi 1");  // frm = RTZ, the code's operations go to the hart
  phases("rtz");
  __asm__ volatile("fsrmi 0");
  set_fs(2);  // Clean: the first write makes it Dirty again
  multiply_add();
  mix();
  report("clean");
  set_fs(1);  // Initial
  widen_floats();
  mix();
  report("initial");
  set_fs(3);
  return 0;
}
