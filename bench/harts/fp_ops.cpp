// Cost of the ISS's floating-point operations (models/harts/fp_ops.cpp) per
// operation, against the host's own operation measured in the same run: the
// rounding-mode and flag handling around each one is what the ISS adds.
// Three states of the guest's accrued flags (docs/performance.md, "How the
// ISS is fast"): NX accrued (the usual state of FP
// code that rounds at all), nothing accrued with exact operations, and
// nothing accrued with every operation inexact (the flag cleared before each
// next one, the worst case).
//   bench_fp_ops [operations]
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <systemc>  // declares sc_main (C linkage)

#include "bench_results.h"
#include "fp_ops.h"

namespace {

using namespace avp::rv::fp;

template <typename F>
double ns_per_op(long n, F op) {
  uint64_t sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) sink ^= op(i);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (sink == 0x5a5a5a5a) std::puts("");  // keeps the loop
  return s / n * 1e9;
}

}  // namespace

int sc_main(int argc, char** argv) {  // the model library links SystemC, whose main calls this
  const long n = argc > 1 ? std::atol(argv[1]) : 20000000;
  // Inexact operands (1.1 * 0.7 + 0.3 rounds) and exact ones (dyadic values).
  const uint64_t in_a = bits_of(1.1), in_b[2] = {bits_of(0.7), bits_of(0.9)}, in_c = bits_of(0.3);
  const uint64_t ex_a = bits_of(1.5), ex_b[2] = {bits_of(0.25), bits_of(0.75)}, ex_c = bits_of(0.5);
  const double host = ns_per_op(n, [&](long i) {
    volatile double a = 1.1, b = (i & 1) ? 0.9 : 0.7, c = 0.3;
    return bits_of(std::fma(a, b, c));
  });
  struct Case {
    const char* name;
    uint64_t a, b0, b1, c;
    uint32_t flags_in;
  } cases[] = {{"accrued", in_a, in_b[0], in_b[1], in_c, NX},
               {"exact", ex_a, ex_b[0], ex_b[1], ex_c, 0},
               {"fresh", in_a, in_b[0], in_b[1], in_c, 0}};
  avp::BenchResults results;
  std::printf("fp ops: host fma %.2f ns per operation (the reference)\n", host);
  for (const Case& c : cases) {
    const double t = ns_per_op(n, [&](long i) {
      uint32_t flags = c.flags_in;
      return f64_fma(c.a, (i & 1) ? c.b1 : c.b0, c.c, false, false, RNE, flags) ^ flags;
    });
    std::printf("fp ops: f64_fma, %-8s %.2f ns per operation, %.1fx the host's\n", c.name, t, t / host);
    results.add(std::string("fp.f64_fma.") + c.name, t, "ns/op", "host.fma", host, false);
  }
  return 0;
}
